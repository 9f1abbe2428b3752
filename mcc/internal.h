/* What the files of mcc/ share: the run (net, time and memory budget),
 * answer printing, the structural facts, and one entry point per family of
 * examinations.  Nothing outside mcc/ includes this. */
#ifndef MCK_MCC_INTERNAL_H
#define MCK_MCC_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "base/budget.h"
#include "base/netconv.h"
#include "base/result.h"
#include "base/tree.h"

typedef unsigned __int128 mcc_u128;
#define MCC_U128_MAX (~(mcc_u128)0)

/* ---- structure.c: facts that hold in every reachable marking, derived
 * from the net and the initial marking alone ----
 *
 * A place is "gainable" when some transition that may fire adds tokens to
 * it; a transition "may fire" when each place it needs either holds enough
 * tokens initially or is gainable (least fixpoint).  By induction over
 * runs, only such transitions ever fire, so a place that is not gainable
 * never exceeds its initial count, and a transition outside the fixpoint is
 * never enabled. */
typedef struct mcc_structure {
    uint8_t *may_fire;      /* per transition; 0: never enabled */
    uint8_t *frozen;        /* per place; 1: no transition that may fire changes it */
    uint8_t *gainable;      /* per place */
    uint32_t ndead;         /* transitions that never fire */
    uint32_t nfrozen;
    int never_deadlocks;    /* some transition is enabled in every reachable marking */
    int initial_unsafe;     /* some initial count exceeds 1 */
} mcc_structure;

int mcc_structure_compute(const cnet_t *cn, mcc_structure *s);   /* 0, or -1: no memory */
void mcc_structure_free(mcc_structure *s);

/* ---- the run ---- */
typedef struct mcc_run {
    const char *exam;
    const char *dir;
    net_t *net;
    const cnet_t *cn;
    mcc_structure st;
    /* the run's, from BenchKit's confinements: its deadline is when every
     * answer must be out, its bytes are for search data (lent to reading
     * and compiling first, which leave the search what they do not take) */
    budget_t *budget;
    int verbose;
    int no_por;            /* --por=off: searches fire every enabled transition */
    int no_reduce;         /* --reduce=off: searches run on the net as given */
    int no_lp;             /* --lp=off: no state equation */
    int no_walk;           /* --walk=off: no random walks */
    int no_unfold;         /* --unfold=off: no prefix (unfolddecide.c) */
    unsigned cores;        /* -j: processes of the portfolio (portfolio.c) */
    int reverse;           /* LTL: the formulas last to first (the portfolio's
                            * second process) */
} mcc_run;

double mcc_now(void);                           /* monotonic seconds */
double mcc_time_left(const mcc_run *r);         /* >= 0 */
/* Options for a search within budget: the run's, or a part of it. */
void mcc_search_options(const mcc_run *r, const budget_t *budget, check_options *opt);

/* The run that shows a value, in transitions of the compiled net: a
 * witness of a reachable property, or a counterexample to an invariant.
 * loop_start is RESULT_NO_LOOP, or len when the run ends in a deadlock. */
typedef struct mcc_evidence {
    run_role role;
    const uint32_t *run;
    size_t len;
    size_t loop_start;
} mcc_evidence;

/* ---- answer.c: the answer lines (mcc-formats.md §2.2) ----
 * Each function prints one line and flushes it.  A value id printed once
 * is never printed again (a second, different answer would score as
 * wrong): the call is refused and 0 returned; 1 when printed. */
int mcc_answer_bool(const char *id, int value, const char *techniques);
/* The same with the run that shows it (kept in the --xml file only). */
int mcc_answer_bool_shown(const char *id, int value, const char *techniques,
                          const mcc_evidence *ev);
int mcc_answer_count(const char *id, mcc_u128 value, const char *techniques);
int mcc_answer_state_space(const char *what, mcc_u128 value, const char *techniques);
/* The same with the value as decimal digits (exact counts past 2^128). */
int mcc_answer_state_space_text(const char *what, const char *decimal, const char *techniques);
void mcc_answer_word(const char *word);   /* CANNOT_COMPUTE, DO_NOT_COMPETE */
/* Technique words put before every answer's own (NULL: none). */
void mcc_answers_net_techniques(const char *words);
size_t mcc_answers_printed(void);
void mcc_answers_reset(void);             /* forget the printed ids (tests) */
/* Writes v in decimal into buf (at least 40 bytes); returns buf. */
char *mcc_u128_decimal(mcc_u128 v, char *buf);

/* ---- verdictout.c: `--xml FILE`, the answers as verdict XML ---- */
int mcc_xml_open(const char *path, const char *exam);   /* 0, or -1 after a message */
int mcc_xml_active(void);        /* whether runs are worth keeping */
/* The net the runs are about; its name (or fallback_name) names the model. */
void mcc_xml_set_model(const net_t *net, const char *fallback_name);
/* value as the file writes it: "true", "false" or a decimal integer. */
void mcc_xml_value(const char *id, const char *value, const char *techniques,
                   const mcc_evidence *ev);
/* A value left open, with the reason; ignored when id was answered. */
void mcc_xml_unknown(const char *id, const char *reason);
int mcc_xml_close(void);         /* writes the file; 0, or -1 after a message */

/* ---- jsonout.c: `--json`, the answers as JSON objects instead of lines ---- */
int mcc_json_open(const char *exam);
int mcc_json_active(void);
void mcc_json_set_model(net_t *net, const char *fallback_name);
/* value: "TRUE", "FALSE" or decimal digits, as the line would say it */
void mcc_json_value(const char *id, const char *value, const char *techniques,
                    const mcc_evidence *ev);
/* Kept for the end: written then unless id was answered. */
void mcc_json_unknown(const char *id, const char *reason);
void mcc_json_word(const char *word);
void mcc_json_close(void);       /* the values left open, then done */

/* ---- answer.c, for both: whether the runs behind the answers are
 * wanted (--xml or --json), and a value left open with the reason
 * (ignored when it was answered) ---- */
int mcc_runs_wanted(void);
void mcc_answer_open(const char *id, const char *reason);

/* Technique lists, ready to print. */
#define TECH_EXPLICIT "SEQUENTIAL_PROCESSING EXPLICIT"
#define TECH_INITIAL "SEQUENTIAL_PROCESSING INITIAL_STATE"
#define TECH_TOPOLOGICAL "SEQUENTIAL_PROCESSING TOPOLOGICAL"
#define TECH_TOPO_INITIAL "SEQUENTIAL_PROCESSING TOPOLOGICAL INITIAL_STATE"
#define TECH_STUBBORN "SEQUENTIAL_PROCESSING EXPLICIT STUBBORN_SETS"
#define TECH_DECISION_DIAGRAMS "SEQUENTIAL_PROCESSING DECISION_DIAGRAMS"

/* ---- globallp.c: the state equation on the global properties; each
 * returns 1 when it printed the value, 0 when it could not show it by the
 * deadline ---- */
int mcc_lp_no_deadlock(const mcc_run *r, const char *id, double deadline);
int mcc_lp_one_safe(const mcc_run *r, const char *id, double deadline);

/* ---- the examinations: each prints what it can decide and returns the
 * number of values left unanswered, or -1 after an error message ---- */
int mcc_state_space(mcc_run *r);                 /* statespace.c */
int mcc_global(mcc_run *r);                      /* global.c: the five global properties */
int mcc_formulas(mcc_run *r, const char *path);  /* formulas.c: UpperBounds, Reachability* */
int mcc_ctl(mcc_run *r, const char *path);       /* ctl.c: CTLCardinality, CTLFireability */
struct mcc_property_set;
/* ctl.c: the portfolio's second process, before and after its diagrams:
 * best-first dependency graphs on the formulas of set still open, each
 * within cap markings (0: no cap) */
void mcc_ctl_best_first(mcc_run *r, const struct mcc_property_set *set, uint64_t cap);
int mcc_ltl(mcc_run *r, const char *path);       /* ltl.c: LTLCardinality, LTLFireability */

/* ---- portfolio.c: a second process beside a formula examination ----
 * mcc_portfolio_start forks it, once the family read the values of its
 * property file, when cores > 1 and neither --xml nor --json is on (1:
 * started); it answers through the same functions, and
 * a value is printed by whichever process claims it first. */
int mcc_portfolio_start(mcc_run *r, const char *path, int ltl, size_t values);
/* part(ctx) in a child process that is killed at stage's deadline (or
 * on an interrupt), for work whose single steps may not stop in time; this
 * process waits.  limit_memory: the child's address space may grow by
 * stage's bytes only (engine/fence.h), for a library the budget cannot
 * count.  What the child answers is claimed on the portfolio's page (its
 * own when no second process runs), so mcc_portfolio_answered tells it
 * here.  Returns part's result, or when the child was stopped the number
 * of the n values it left unprinted.  In this process with --xml or
 * --json. */
int mcc_portfolio_fence(const mcc_run *r, const budget_t *stage, int limit_memory,
                        int (*part)(void *), void *ctx, size_t n);
/* After the examination: waits for the second process while values are
 * open and time is left, then stops it.  Returns how many values the
 * two answered between them. */
size_t mcc_portfolio_finish(mcc_run *r);
/* answer.c: 1 when this process may print id (always without a
 * portfolio), 0 when the other one did. */
int mcc_portfolio_claim(const char *id);
/* answer.c, once id's line is out: the other process may be stopped now
 * without losing it. */
void mcc_portfolio_printed(const char *id);
/* Whether either process answered id: the search for it can stop. */
int mcc_portfolio_answered(const char *id);
/* Whether this is the portfolio's second process (its answers name
 * PARALLEL_PROCESSING). */
int mcc_portfolio_second(void);
/* 1 with *states the number of reachable markings (UINT64_MAX: that many
 * or more) once the second process has its diagrams' reachable set whole;
 * 0 while it has not (or there is none). */
int mcc_portfolio_states(uint64_t *states);

/* simplify.c: t with the atoms the structure decides replaced by
 * constants (not folded); *changed set when any was.  Consumes t. */
tree_t *mcc_simplify(const mcc_run *r, tree_t *t, int *changed);

/* ---- unfolddecide.c: ReachabilityDeadlock on the prefix of a safe net,
 * within the carve mcc.unfold.deadlock; 1 when it printed the answer ---- */
int mcc_unfold_deadlock(const mcc_run *r, const char *id);

#endif
