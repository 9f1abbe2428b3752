/* result_t: what a checker answers, in net terms, and the limits it runs
 * under.  Checkers fill it and never print; cmd/, output functions and
 * verdicts/ present it. */
#ifndef MCK_RESULT_H
#define MCK_RESULT_H

#include <stddef.h>
#include <stdint.h>
#include "base/budget.h"

typedef enum { ANSWER_YES, ANSWER_NO, ANSWER_UNKNOWN } answer_t;

typedef enum { RUN_NONE, RUN_WITNESS, RUN_COUNTEREXAMPLE } run_role;

#define RESULT_NO_LOOP SIZE_MAX

/* A part of a run that shows one subformula of a nested property (CTL's
 * evidence follows the obligation down, ctlrun.c): from the marking after
 * `start` steps, the run shows that `formula` holds (or fails). */
typedef struct run_segment {
    size_t start;
    int holds;
    char formula[160];   /* in the property's own text; cut with "..." */
} run_segment;

typedef struct result {
    answer_t answer;
    char reason[160];          /* why UNKNOWN: "memory budget exhausted" */

    run_role role;
    uint32_t *run;             /* transition indices, malloc'd */
    size_t run_len;
    /* Index into run where a lasso's loop starts; RESULT_NO_LOOP for a
     * finite run; run_len for a run ending in a deadlock that repeats. */
    size_t loop_start;
    /* What the parts of the run show, in run order, the first starting
     * at 0 (CTL's runs have them; printed only when there are two or
     * more); malloc'd. */
    run_segment *segments;
    size_t nsegments;

    /* statistics */
    uint64_t states, edges;
    double seconds;
    size_t peak_bytes;
    char techniques[128];      /* space-separated MCC technique names */
    char net_note[96];         /* what the search ran on, when not the net given */
    char reduction[256];       /* what a partial-order reduction did, when one ran */
} result_t;

typedef enum { FAIRNESS_NONE, FAIRNESS_WEAK, FAIRNESS_STRONG } check_fairness;

typedef struct check_options {
    /* time, bytes and the interrupt flag: the run's, or a part a caller
     * carved out of it (budget.h); never NULL */
    const budget_t *budget;
    uint64_t max_states;       /* -m, 0 = none */
    int progress;              /* print progress on stderr */
    int verbose;
    int want_run;              /* compute evidence */
    /* LTL: runs that end in a deadlock do not count (RERS) instead of
     * repeating the dead marking forever (the Kit's and the MCC's reading) */
    int ltl_infinite_only;
    /* LTL without X: partial-order reduction (stubborn sets, checkers/
     * stubborn.h) in the product search */
    int partial_order;
    /* LTL: only fair runs count (checkers/ltl/fairscc.h): weak or strong
     * fairness on the transitions t with fair_set[t] != 0 (every
     * transition when fair_set is NULL) */
    check_fairness fairness;
    const uint8_t *fair_set;
    /* --pack=off: variable-length keys even when every place has a proven
     * bound (explore.c), for comparisons */
    int variable_keys;
    /* --compact=off: fixed-width keys in the arena and 8-byte slots, not
     * in a compact table (store.h), for comparisons */
    int no_compact;
    /* -j: threads for the searches that can use them (engine/parallel.h);
     * 0 and 1 mean one, the breadth-first search with shortest runs */
    unsigned threads;
    /* with threads > 1: markings a search explores on one thread before
     * it restarts on all of them (0: on all from the start), so that small
     * state spaces keep shortest runs and pay no thread start-up */
    uint64_t parallel_after;
} check_options;

void result_init(result_t *r);
void result_clear(result_t *r);
void result_unknown(result_t *r, const char *reason);
/* Replaces the run (and drops its segments); 0, or -1 on no memory. */
int result_set_run(result_t *r, run_role role, const uint32_t *run, size_t len, size_t loop_start);
/* Gives the run its segments (copied); 0, or -1 on no memory. */
int result_set_segments(result_t *r, const run_segment *segments, size_t n);
void result_add_technique(result_t *r, const char *tech);

#endif
