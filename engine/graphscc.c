/* The strongly connected components of a complete reachability graph,
 * for liveness and reversibility.  A transition is live iff
 * every bottom strongly connected component (one no edge leaves) has a
 * state enabling it — every state reaches some bottom component, and in
 * one all states reach each other.  The transitions enabled in a
 * component's states are exactly the labels of their edges.
 *
 * Tarjan's algorithm, iterative: the search path is an explicit stack of
 * (state, next edge), so deep graphs cannot overflow the C stack.  A
 * component is complete when its root is left; every edge then leads into
 * it or into a component completed earlier, so "bottom" is one look at
 * the component numbers of its targets. */
#include "base/clock.h"
#include "engine/graph.h"

#include <stdio.h>
#include <stdlib.h>

#define DONE UINT32_MAX
#define CLOCK_EVERY 4096u

typedef struct tarjan {
    const graph_t *g;
    uint32_t *index;    /* 0 unvisited, DONE when its component is complete */
    uint32_t *low;      /* the component's number once DONE */
    uint32_t *stack, sp;
    uint32_t *fstate;   /* the search path */
    uint64_t *fedge;
    uint32_t fp, counter, ncomp;
    uint32_t *stamp;    /* per transition: last component that enabled it, + 1 */
    uint32_t ntransitions;
    const uint32_t *classes;   /* edge label -> transition counted, NULL: itself */
    int stop_early;     /* stop at the first bottom component that is not live */
    int live;
} tarjan;

static void visit(tarjan *tj, uint32_t v)
{
    tj->index[v] = tj->low[v] = ++tj->counter;
    tj->stack[tj->sp++] = v;
    tj->fstate[tj->fp] = v;
    tj->fedge[tj->fp++] = *bv_u64(&tj->g->offsets, v);
}

/* Closes the component stack[k..sp); 1 when it is bottom and lacks some
 * transition (not live), else 0. */
static int close_component(tarjan *tj, uint32_t k)
{
    const graph_t *g = tj->g;
    uint32_t comp = tj->ncomp++;
    for (uint32_t i = k; i < tj->sp; i++) {
        tj->index[tj->stack[i]] = DONE;
        tj->low[tj->stack[i]] = comp;
    }
    int bottom = 1;
    uint32_t seen = 0;
    for (uint32_t i = k; i < tj->sp && bottom; i++) {
        uint32_t v = tj->stack[i];
        uint64_t end = *bv_u64(&g->offsets, v + 1);
        for (uint64_t e = *bv_u64(&g->offsets, v); e < end; e++) {
            uint32_t w = *bv_u32(&g->targets, e), t = *bv_u32(&g->labels, e);
            if (tj->classes)
                t = tj->classes[t];
            if (tj->low[w] != comp || tj->index[w] != DONE) {
                bottom = 0;
                break;
            }
            if (tj->stamp[t] != comp + 1) {
                tj->stamp[t] = comp + 1;
                seen++;
            }
        }
    }
    tj->sp = k;
    return bottom && seen < tj->ntransitions;
}

/* Leaves the state on top of the search path; 1 when the search may stop
 * (not live, and asked to stop early). */
static int leave(tarjan *tj)
{
    uint32_t v = tj->fstate[--tj->fp];
    if (tj->low[v] == tj->index[v]) {
        uint32_t k = tj->sp;
        while (tj->stack[k - 1] != v)
            k--;
        if (close_component(tj, k - 1)) {
            tj->live = 0;
            return tj->stop_early;
        }
    } else {
        uint32_t u = tj->fstate[tj->fp - 1];
        if (tj->low[v] < tj->low[u])
            tj->low[u] = tj->low[v];
    }
    return 0;
}

/* 0 done, -1 out of time. */
static int search(tarjan *tj, double deadline)
{
    const graph_t *g = tj->g;
    visit(tj, 0);
    for (uint64_t steps = 1; tj->fp; steps++) {
        if (steps % CLOCK_EVERY == 0 && deadline > 0 && mono_now() >= deadline)
            return -1;
        uint32_t v = tj->fstate[tj->fp - 1];
        if (tj->fedge[tj->fp - 1] < *bv_u64(&g->offsets, v + 1)) {
            uint32_t w = *bv_u32(&g->targets, tj->fedge[tj->fp - 1]++);
            if (tj->index[w] == 0)
                visit(tj, w);
            else if (tj->index[w] != DONE && tj->index[w] < tj->low[v])
                tj->low[v] = tj->index[w];
        } else if (leave(tj)) {
            return 0;
        }
    }
    return 0;
}

int graph_components(const graph_t *g, uint32_t ntransitions, size_t budget, double deadline,
                     int stop_early, int *live, uint64_t *ncomponents, char *why, size_t whylen)
{
    return graph_components_of(g, NULL, ntransitions, budget, deadline, stop_early, live,
                               ncomponents, why, whylen);
}

int graph_components_of(const graph_t *g, const uint32_t *classes, uint32_t ntransitions,
                        size_t budget, double deadline, int stop_early, int *live,
                        uint64_t *ncomponents, char *why, size_t whylen)
{
    uint64_t n = graph_states(g);
    size_t need = (size_t)n * (4 * sizeof(uint32_t) + sizeof(uint64_t)) +
                  (size_t)ntransitions * sizeof(uint32_t);
    if (n == 0 || n > GRAPH_MAX_STATES || g->bytes + need > budget) {
        snprintf(why, whylen, "memory budget exhausted (component search)");
        return -1;
    }
    tarjan tj = {g, NULL, NULL, NULL, 0, NULL, NULL, 0, 0, 0, NULL, ntransitions, NULL, stop_early, 1};
    tj.classes = classes;
    tj.index = calloc(n, sizeof *tj.index);
    tj.low = malloc(n * sizeof *tj.low);
    tj.stack = malloc(n * sizeof *tj.stack);
    tj.fstate = malloc(n * sizeof *tj.fstate);
    tj.fedge = malloc(n * sizeof *tj.fedge);
    tj.stamp = calloc(ntransitions ? ntransitions : 1, sizeof *tj.stamp);
    int rc = -1;
    if (!tj.index || !tj.low || !tj.stack || !tj.fstate || !tj.fedge || !tj.stamp)
        snprintf(why, whylen, "out of memory (component search)");
    else if ((rc = search(&tj, deadline)) < 0)
        snprintf(why, whylen, "time limit reached (component search)");
    else {
        *live = tj.live;
        if (ncomponents)
            *ncomponents = tj.ncomp;
    }
    free(tj.index);
    free(tj.low);
    free(tj.stack);
    free(tj.fstate);
    free(tj.fedge);
    free(tj.stamp);
    return rc;
}
