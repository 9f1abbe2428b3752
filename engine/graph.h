/* The reachability graph, kept during an exploration for the questions
 * that need more than the set of markings (Liveness: the bottom strongly
 * connected components; CTL: fixpoints over successors and predecessors).
 *
 * States are numbered 0, 1, 2, ... in the order explore.h reports them
 * (which is also the order it expands them); the edges of state s are
 * edges[offset(s) .. offset(s + 1)), each a target state and the
 * transition that leads there.  Everything lives in blocks of fixed size
 * (no allocation per state or edge, no copy when growing), charged against
 * a byte budget. */
#ifndef MCK_GRAPH_H
#define MCK_GRAPH_H

#include <stddef.h>
#include <stdint.h>
#include "engine/store.h"

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

typedef struct graph {
    bvec refs;       /* uint64: the store record of each state, ascending */
    bvec offsets;    /* uint64: states expanded + 1 entries */
    bvec targets;    /* uint32 per edge */
    bvec labels;     /* uint32 per edge: the transition */
    size_t bytes, budget;
} graph_t;

static inline uint64_t *bv_u64(const bvec *v, uint64_t i)
{
    return (uint64_t *)v->blocks[i >> GRAPH_BLOCK_SHIFT] + (i & (GRAPH_BLOCK - 1));
}

static inline uint32_t *bv_u32(const bvec *v, uint64_t i)
{
    return (uint32_t *)v->blocks[i >> GRAPH_BLOCK_SHIFT] + (i & (GRAPH_BLOCK - 1));
}

/* NULL on no memory or when the budget does not hold the first blocks. */
graph_t *graph_new(size_t budget);
void graph_free(graph_t *g);

/* Each returns 0, or -1 when the budget is exhausted (nothing changed). */
int graph_add_state(graph_t *g, store_ref ref);
/* An edge of the state being expanded, to the state with record ref,
 * which must have been added (fresh: it was the last one added). */
int graph_add_edge(graph_t *g, store_ref to, int fresh, uint32_t transition);
/* The state being expanded has all its edges. */
int graph_close_state(graph_t *g);
/* An edge to state number to, for a graph built without store records
 * (engine/parallel.h numbers the states itself); 0, or -1 as above. */
int graph_add_edge_to(graph_t *g, uint32_t to, uint32_t transition);
/* After the exploration the records are no longer needed. */
void graph_drop_refs(graph_t *g);

uint64_t graph_states(const graph_t *g);   /* closed states */

/* graphscc.c: Tarjan's algorithm on the complete graph (state 0 the
 * initial one).  *live: every bottom component (no edge leaves it) has an
 * edge of each of the ntransitions transitions; *ncomponents (may be
 * NULL): how many components (1: every state reaches every other, the
 * initial one included).  stop_early stops at the first bottom component
 * that is not live, leaving *ncomponents short.  0 done, -1 gave up
 * (budget or deadline, 0 for none; why says which). */
int graph_components(const graph_t *g, uint32_t ntransitions, size_t budget, double deadline,
                     int stop_early, int *live, uint64_t *ncomponents, char *why, size_t whylen);
/* The same where what must occur in each bottom component is a class of
 * transitions (classes[t] < nclasses; a colored transition's unfolded
 * copies): live iff each bottom component has an edge of every class. */
int graph_components_of(const graph_t *g, const uint32_t *classes, uint32_t nclasses,
                        size_t budget, double deadline, int stop_early, int *live,
                        uint64_t *ncomponents, char *why, size_t whylen);

#endif
