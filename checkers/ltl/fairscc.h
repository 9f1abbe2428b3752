/* Fair accepting cycles inside one strongly connected component of the
 * LTL product (ltl.c hands each completed component over as a graph of its
 * own).  Fairness is on net transitions:
 *   weak (justice):      a transition enabled in every state of the loop
 *                        fires on the loop;
 *   strong (compassion): a transition enabled in some state of the loop
 *                        fires on the loop.
 * The search is the Emerson-Lei / Lichtenstein-Pnueli decomposition as in
 * Latvala and Heljanko, "Coping with strong fairness" (Fundamenta
 * Informaticae 43, 2000): a component whose edges carry every
 * acceptance set is checked as a whole (a loop through all its states and
 * edges is the fairest loop it has); under strong fairness, when some
 * transition is enabled in it but never fires inside it, the states
 * enabling that transition cannot be on a fair loop, so they are removed
 * and the sub-components of what is left are checked in turn.  Weak
 * fairness needs no removal: a sub-loop has every transition of the whole
 * continuously enabled that the whole has, and fires fewer.  The work
 * list is explicit and Tarjan's algorithm iterative: no recursion. */
#ifndef MCK_FAIRSCC_H
#define MCK_FAIRSCC_H

#include <stddef.h>
#include <stdint.h>

#define FAIR_NO_LABEL UINT32_MAX   /* an edge that fires no transition (stuttering) */
#define FAIR_NOT_FAIR UINT32_MAX   /* fair_index of a transition outside the set */

typedef struct fair_graph {
    uint32_t n;               /* nodes 0..n); node 0 is where the stem starts */
    const uint32_t *start;    /* edges of node v: [start[v], start[v+1]) */
    const uint32_t *to;
    const uint32_t *label;    /* the transition fired, or FAIR_NO_LABEL */
    const uint64_t *acc;      /* acceptance sets of the edge */
    uint64_t all_acc;
    int strong;
    uint32_t ntrans;          /* labels are below this */
    const uint32_t *fair_index; /* per transition: 0..nfair), or FAIR_NOT_FAIR */
    uint32_t nfair;
    const uint64_t *enabled;  /* per node, `words` words: bit k = fair transition k enabled */
    size_t words;
} fair_graph;

/* Looks for a fair cycle through every acceptance set.  1: found, with
 * *stem the edges from node 0 to the cycle's first node and *cycle the
 * edges of the cycle (both malloc'd edge indices, the caller frees);
 * 0: none; -1: more than max_bytes would be needed, or no memory. */
int fair_cycle(const fair_graph *g, size_t max_bytes, uint32_t **stem, size_t *nstem,
               uint32_t **cycle, size_t *ncycle);

#endif
