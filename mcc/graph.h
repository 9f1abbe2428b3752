/* The reachability graph, kept during an exploration for the questions
 * that need more than the set of markings (Liveness: the bottom strongly
 * connected components).
 *
 * States are numbered 0, 1, 2, ... in the order explore.h reports them
 * (which is also the order it expands them); the edges of state s are
 * edges[offset(s) .. offset(s + 1)), each a target state and the
 * transition that leads there.  Everything lives in blocks of fixed size
 * (no allocation per state or edge, no copy when growing), charged against
 * a byte budget. */
#ifndef MCK_MCC_GRAPH_H
#define MCK_MCC_GRAPH_H

#include <stddef.h>
#include <stdint.h>
#include "checkers/store.h"

#define GRAPH_BLOCK_SHIFT 18
#define GRAPH_BLOCK ((size_t)1 << GRAPH_BLOCK_SHIFT)
#define GRAPH_MAX_STATES ((uint64_t)UINT32_MAX - 2)

/* An array of fixed-size elements in blocks of GRAPH_BLOCK elements. */
typedef struct bvec {
    void **blocks;
    size_t nblocks, cap;
    uint64_t n;
    size_t elem;
} bvec;

typedef struct mcc_graph {
    bvec refs;       /* uint64: the store record of each state, ascending */
    bvec offsets;    /* uint64: states expanded + 1 entries */
    bvec targets;    /* uint32 per edge */
    bvec labels;     /* uint32 per edge: the transition */
    size_t bytes, budget;
} mcc_graph;

static inline uint64_t *bv_u64(const bvec *v, uint64_t i)
{
    return (uint64_t *)v->blocks[i >> GRAPH_BLOCK_SHIFT] + (i & (GRAPH_BLOCK - 1));
}

static inline uint32_t *bv_u32(const bvec *v, uint64_t i)
{
    return (uint32_t *)v->blocks[i >> GRAPH_BLOCK_SHIFT] + (i & (GRAPH_BLOCK - 1));
}

/* NULL on no memory or when the budget does not hold the first blocks. */
mcc_graph *mcc_graph_new(size_t budget);
void mcc_graph_free(mcc_graph *g);

/* Each returns 0, or -1 when the budget is exhausted (nothing changed). */
int mcc_graph_add_state(mcc_graph *g, store_ref ref);
/* An edge of the state being expanded, to the state with record ref,
 * which must have been added (fresh: it was the last one added). */
int mcc_graph_add_edge(mcc_graph *g, store_ref to, int fresh, uint32_t transition);
/* The state being expanded has all its edges. */
int mcc_graph_close_state(mcc_graph *g);
/* After the exploration the records are no longer needed. */
void mcc_graph_drop_refs(mcc_graph *g);

uint64_t mcc_graph_states(const mcc_graph *g);   /* closed states */

/* scc.c: whether every bottom strongly connected component of the
 * complete graph enables each of the ntransitions transitions (Liveness).
 * 1 yes, 0 no, -1 gave up (budget or deadline; why says which). */
int mcc_graph_live(const mcc_graph *g, uint32_t ntransitions, size_t budget, double deadline,
                   char *why, size_t whylen);

#endif
