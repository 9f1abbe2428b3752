/* The pre-pass of the formula examinations (UpperBounds,
 * ReachabilityCardinality, ReachabilityFireability): a list of deciders
 * that run, in order, before the exploration, each on the properties still
 * open.  Cheap and sound arguments go here — the initial marking, the
 * structure, any over-approximation (the state equation), and random
 * walks (what they meet is reachable): they settle what they can, and the
 * one exploration that follows only has to carry the rest.
 *
 * Adding a decider is one function and one row of mcc_deciders[] in
 * prepass.c.  A decider must be sound — it settles a property only with
 * its true value, and gives a bound only when every reachable marking
 * respects it (upper) or some reachable marking attains it (lower) — and
 * must return by the deadline it is given (its share of the pre-pass
 * time). */
#ifndef MCK_MCC_PREPASS_H
#define MCK_MCC_PREPASS_H

#include "formula/mccxml.h"
#include "mcc/internal.h"

typedef struct mcc_query {
    const char *id;
    mcc_class cls;            /* MCC_REACH or MCC_BOUND */
    const tree_t *formula;    /* REACH: root T_EF or T_AG over a state formula;
                                 BOUND: root T_BOUND */
    int decided;              /* answered, or given up after contradictory bounds */
    /* BOUND: the maximum lies in [lower, upper].  lower is attained by a
     * reachable marking (the initial one at least); upper is MCC_U128_MAX
     * until something proves a bound.  The words name the techniques that
     * gave each end. */
    mcc_u128 lower, upper;
    const char *lower_words, *upper_words;
} mcc_query;

/* Settles a REACH query (value of the whole property, e.g. of "E F φ");
 * words are technique names without SEQUENTIAL_PROCESSING ("INITIAL_STATE",
 * "LINEAR_EQUATIONS").  Prints the answer. */
void mcc_query_settle(mcc_query *q, int value, const char *words);
/* The same with the run that shows it: a marking where φ holds (E F) or
 * fails (A G) reached by ev's transitions. */
void mcc_query_settle_shown(mcc_query *q, int value, const char *words, const mcc_evidence *ev);
/* Tighten a BOUND query's interval; when its ends meet, the value is
 * printed.  Ends that cross show a bug in a decider: the query is then
 * dropped unanswered, with a message on stderr. */
void mcc_query_lower(mcc_query *q, mcc_u128 attained, const char *words);
void mcc_query_upper(mcc_query *q, mcc_u128 bound, const char *words);
/* A BOUND query's value once every reachable marking has been seen. */
void mcc_query_exhausted(mcc_query *q, const char *words);

/* open[0..n) are the queries not yet decided (a decider checks
 * q->decided again before each, since it may settle several at once). */
typedef void (*mcc_decider)(const mcc_run *r, mcc_query *const *open, size_t n,
                            double deadline);

typedef struct mcc_decider_row {
    const char *name;         /* for -v messages */
    mcc_decider run;
} mcc_decider_row;

/* In order; ends with a row whose run is NULL. */
extern const mcc_decider_row mcc_deciders[];

/* shortcuts.c */
void mcc_decide_initial(const mcc_run *r, mcc_query *const *open, size_t n, double deadline);
void mcc_decide_topological(const mcc_run *r, mcc_query *const *open, size_t n,
                            double deadline);

/* walkdecide.c */
void mcc_decide_random_walk(const mcc_run *r, mcc_query *const *open, size_t n, double deadline);

/* unfolddecide.c: safe nets only */
void mcc_decide_unfolding(const mcc_run *r, mcc_query *const *open, size_t n, double deadline);

/* lpdecide.c */
void mcc_decide_state_equation(const mcc_run *r, mcc_query *const *open, size_t n,
                               double deadline);

/* Runs every decider on the open queries of q[0..n), the pre-pass as a
 * whole within stage (its deadline); returns how many are still open. */
size_t mcc_prepass(const mcc_run *r, mcc_query *q, size_t n, const budget_t *stage);

#endif
