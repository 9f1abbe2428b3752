/* mcc/reduced.c: structural reduction (reduce/reduce.h) for the searches
 * of mck mcc, unless --reduce=off. */
#ifndef MCK_MCC_REDUCED_H
#define MCK_MCC_REDUCED_H

#include "mcc/internal.h"
#include "reduce/reduce.h"

typedef struct mcc_reduced {
    reduction *red;
    const cnet_t *cn;        /* the reduced net, compiled */
    reduce_observed obs;
} mcc_reduced;

#define TECH_REDUCTION "STRUCTURAL_REDUCTION"

/* Reduces r's net for searches of goals[i] (negated[i]: a search for its
 * negation; a NULL goal: a deadlock); lassos: for LTL, whose lassos must
 * stay lassos (reduce_observed).  1 when the net got smaller (out
 * holds the reduction), 0 when it did not, or reduction is off, or memory
 * ran out (out is then empty and the search uses r's net). */
int mcc_reduce(const mcc_run *r, const tree_t *const *goals, const int *negated, size_t n,
               int lassos, mcc_reduced *out);

/* The same for CTL formulas[0..n) (reduce.h, branching: the reduced net's
 * reachable graph is bisimilar to r's for what any of them observes),
 * within budget; lassos when runs are wanted; any_removal: a smaller net
 * for any node removed (reduce_observed).  No message. */
int mcc_reduce_ctl(const mcc_run *r, const tree_t *const *formulas, size_t n, int lassos,
                   int any_removal, const budget_t *budget, mcc_reduced *out);

/* Makes ev, a run of the reduced net, a run of r's net; *owned is the new
 * array (the caller frees it).  0 (also when m is empty), or -1 on no
 * memory. */
int mcc_reduced_run(const mcc_reduced *m, mcc_evidence *ev, uint32_t **owned);

void mcc_reduced_free(mcc_reduced *m);

#endif
