/* CTL on the explicit reachability graph, with the maximal-path semantics
 * of mcc-formats.md §3.4: at a deadlock EX φ is false, AX φ true, and
 * EF/AF/EG/AG/EU/AU reduce to their right-hand side; AF and AU need a
 * non-deadlock to step on, EG accepts a deadlock where φ holds.
 *
 * A ctl_model is one exploration of the whole state space that records the
 * graph (graph.h) and, per state, the value of every atomic proposition of
 * the formulas it is built for; markings are not kept.  Any number of
 * formulas over those atoms are then evaluated on it, each subformula a
 * bitset over the states, by the fixpoints of §3.4 (backward searches over
 * predecessor lists for EU/EF and AU/AF with successor counters, a removal
 * pass for EG).  Nothing is allocated per state: bitsets, counters and
 * edge arrays are sized once, and the whole is charged to the memory
 * budget. */
#ifndef MCK_CTL_H
#define MCK_CTL_H

#include "engine/explore.h"
#include "base/netconv.h"
#include "base/result.h"
#include "base/tree.h"

typedef struct ctl_model ctl_model;

/* Called on each new marking during the build (e.g. to settle properties
 * before the exploration ends); nonzero stops the build, which then has no
 * usable graph. */
typedef int (*ctl_watch)(void *ctx, uint64_t id, store_ref ref, const nc_count *m);

/* Explores the state space of cn, recording the graph and the atoms of
 * formulas[0..n).  NULL when the exploration did not complete: res then
 * says why (UNKNOWN and a reason), or the watch stopped it (res->answer
 * left as it was, *stopped set). */
ctl_model *ctl_model_build(const cnet_t *cn, const tree_t *const *formulas, size_t n,
                           const check_options *opt, ctl_watch watch, void *ctx,
                           int *stopped, result_t *res);
void ctl_model_free(ctl_model *m);
uint64_t ctl_model_states(const ctl_model *m);

/* The value of f in the initial marking: 1, 0, or -1 when f has an
 * operator outside CTL or an atom the model was not built for, when memory
 * ran out, or when the deadline (of the budget the build was given)
 * passed; why says which. */
int ctl_model_check(ctl_model *m, const tree_t *f, char *why, size_t whylen);

/* The run that shows the value of f at the initial marking, when f has a
 * temporal operator whose value has a run for evidence (E X/F/U/G holding
 * or A X/F/U/G failing) under negations and connectives: a path to where
 * its operand is due, and from there on the run of the operand's own
 * operator, and so on down (ctlrun.c), ending in a path, a lasso
 * (loop_start < run_len) or a run into a deadlock (loop_start ==
 * run_len).  The role follows the whole formula's value: a witness of a
 * YES, a counterexample to a NO.  res's segments name the subformula each
 * part shows.  0 with res's run set, 1 when f has no such run, -1 on no
 * memory or deadline. */
int ctl_model_evidence(ctl_model *m, const tree_t *f, int value, result_t *res);

/* What a local check did. */
typedef struct ctl_local_stats {
    uint64_t states;    /* markings stored */
    int reduced;        /* some search fired fewer than all enabled transitions */
} ctl_local_stats;

/* ctllocal.c: the value of f at the initial marking, exploring only the
 * markings the evaluation needs (no graph): 1, 0, or -1 with why
 * (budget, time, interrupt, not CTL).  With opt->partial_order, the
 * searches of E F and A G of a state formula use stubborn sets.  stats
 * may be NULL.  With evidence, a formula that is one temporal operator
 * over state formulas (negations above it allowed) gets its run there, as
 * ctl_model_evidence would give it (one segment; not always the shortest);
 * others, and runs that find no memory, get none. */
int ctl_local_check(const cnet_t *cn, const tree_t *f, const check_options *opt,
                    ctl_local_stats *stats, result_t *evidence, char *why, size_t whylen);

/* The explicit checker's CTL kind: build, check, evidence; when the graph
 * outgrows the budget, the local check may still answer (without a run). */
void ctl_run(const cnet_t *cn, const tree_t *formula, const check_options *opt, result_t *res);

#endif
