/* Recording the reachability graph from an exploration's callbacks.  The
 * only lookup is from a store record to its state number, for edges that
 * close a cycle or join a known state: records are appended to the
 * store's arena in state order, so their refs ascend, and nearly evenly
 * (keys of one net have similar lengths) — an interpolation search finds
 * most in a probe or two. */
#include "engine/graph.h"

#include <stdlib.h>
#include <string.h>

static void bv_init(bvec *v, size_t elem)
{
    memset(v, 0, sizeof *v);
    v->elem = elem;
}

static void bv_free(graph_t *g, bvec *v)
{
    for (size_t i = 0; i < v->nblocks; i++)
        free(v->blocks[i]);
    g->bytes -= v->nblocks * GRAPH_BLOCK * v->elem;
    free(v->blocks);
    g->bytes -= v->cap * sizeof *v->blocks;
    bv_init(v, v->elem);
}

/* Room for element n; 0, or -1 when the budget or malloc says no. */
static int bv_grow(graph_t *g, bvec *v)
{
    if ((v->n & (GRAPH_BLOCK - 1)) || (v->n >> GRAPH_BLOCK_SHIFT) < v->nblocks)
        return 0;
    size_t block = GRAPH_BLOCK * v->elem;
    if (v->nblocks == v->cap) {
        size_t cap = v->cap ? 2 * v->cap : 64;
        if (g->bytes + block + cap * sizeof *v->blocks > g->budget)
            return -1;
        void **bigger = realloc(v->blocks, cap * sizeof *bigger);
        if (!bigger)
            return -1;
        g->bytes += (cap - v->cap) * sizeof *bigger;
        v->blocks = bigger;
        v->cap = cap;
    }
    if (g->bytes + block > g->budget)
        return -1;
    void *b = malloc(block);
    if (!b)
        return -1;
    v->blocks[v->nblocks++] = b;
    g->bytes += block;
    return 0;
}

static int push64(graph_t *g, bvec *v, uint64_t x)
{
    if (bv_grow(g, v) < 0)
        return -1;
    *bv_u64(v, v->n++) = x;
    return 0;
}

static int push32(graph_t *g, bvec *v, uint32_t x)
{
    if (bv_grow(g, v) < 0)
        return -1;
    *bv_u32(v, v->n++) = x;
    return 0;
}

graph_t *graph_new(size_t budget)
{
    graph_t *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->budget = budget;
    bv_init(&g->refs, sizeof(uint64_t));
    bv_init(&g->offsets, sizeof(uint64_t));
    bv_init(&g->targets, sizeof(uint32_t));
    bv_init(&g->labels, sizeof(uint32_t));
    if (push64(g, &g->offsets, 0) < 0) {
        graph_free(g);
        return NULL;
    }
    return g;
}

void graph_free(graph_t *g)
{
    if (!g)
        return;
    bv_free(g, &g->refs);
    bv_free(g, &g->offsets);
    bv_free(g, &g->targets);
    bv_free(g, &g->labels);
    free(g);
}

void graph_drop_refs(graph_t *g)
{
    bv_free(g, &g->refs);
}

uint64_t graph_states(const graph_t *g)
{
    return g->offsets.n - 1;
}

int graph_add_state(graph_t *g, store_ref ref)
{
    if (g->refs.n >= GRAPH_MAX_STATES)
        return -1;
    return push64(g, &g->refs, ref);
}

/* The state whose record is ref; it is there.  Interpolation steps
 * alternate with halving, so that uneven refs cost at most twice a binary
 * search. */
static uint64_t state_of(const graph_t *g, store_ref ref)
{
    uint64_t lo = 0, hi = g->refs.n - 1;
    for (int step = 0; lo < hi; step++) {
        uint64_t a = *bv_u64(&g->refs, lo), b = *bv_u64(&g->refs, hi), mid;
        if (ref <= a)
            return lo;
        if (ref >= b)
            return hi;
        if (step & 1)
            mid = lo + (hi - lo) / 2;
        else
            mid = lo + (uint64_t)((double)(ref - a) / (double)(b - a) * (double)(hi - lo));
        if (mid >= hi)
            mid = hi - 1;
        if (mid <= lo)
            mid = lo + 1;
        uint64_t x = *bv_u64(&g->refs, mid);
        if (x == ref)
            return mid;
        if (x < ref)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return lo;
}

int graph_add_edge(graph_t *g, store_ref to, int fresh, uint32_t transition)
{
    uint64_t s = fresh ? g->refs.n - 1 : state_of(g, to);
    return graph_add_edge_to(g, (uint32_t)s, transition);
}

int graph_add_edge_to(graph_t *g, uint32_t to, uint32_t transition)
{
    if (push32(g, &g->targets, to) < 0)
        return -1;
    if (push32(g, &g->labels, transition) < 0) {
        g->targets.n--;
        return -1;
    }
    return 0;
}

int graph_close_state(graph_t *g)
{
    return push64(g, &g->offsets, g->targets.n);
}
