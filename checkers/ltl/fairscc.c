/* fairscc.h: the decomposition and the fair lasso through what is left. */
#include "checkers/ltl/fairscc.h"

#include <stdlib.h>
#include <string.h>

typedef struct work {
    const fair_graph *g;
    uint32_t *setid;          /* per node: the set it is in; 0 removed */
    uint32_t *pool;           /* the nodes of pending sets, each set a segment */
    uint32_t *seg_at, *seg_len, nseg;
    uint32_t *idx, *low, *tstack, *fnode, *fpos, *tmp;
    uint8_t *onstack;
    uint32_t *par, *pedge, *queue, *seen, stamp;
    uint64_t *fired, *en_any, *en_all, *bad, *covered_fire, *covered_off;
    uint32_t *path;           /* the edges found so far */
    size_t npath, cpath;
} work;

#define BIT(w, k) (((w)[(k) / 64] >> ((k) % 64)) & 1u)

static int path_add(work *W, uint32_t e)
{
    if (W->npath == W->cpath) {
        size_t cap = W->cpath ? 2 * W->cpath : 64;
        uint32_t *p = realloc(W->path, cap * sizeof *p);
        if (!p)
            return -1;
        W->path = p;
        W->cpath = cap;
    }
    W->path[W->npath++] = e;
    return 0;
}

/* What a breadth-first search looks for. */
typedef enum { WANT_ACC, WANT_FIRE, WANT_OFF, WANT_TO } want_kind;

static int wanted_edge(const work *W, want_kind kind, uint64_t k, uint32_t e)
{
    const fair_graph *g = W->g;
    switch (kind) {
    case WANT_ACC: return (g->acc[e] >> k) & 1u;
    case WANT_FIRE:
        return g->label[e] != FAIR_NO_LABEL && g->fair_index[g->label[e]] == k;
    case WANT_TO: return g->to[e] == k;
    default: return 0;
    }
}

/* Notes what edge e contributes to the coverage of the cycle. */
static void cover(work *W, uint32_t e)
{
    const fair_graph *g = W->g;
    uint32_t v = g->to[e];
    if (g->label[e] != FAIR_NO_LABEL && g->fair_index[g->label[e]] != FAIR_NOT_FAIR) {
        uint32_t k = g->fair_index[g->label[e]];
        W->covered_fire[k / 64] |= (uint64_t)1 << (k % 64);
    }
    for (size_t i = 0; i < g->words; i++)
        W->covered_off[i] |= ~g->enabled[(size_t)v * g->words + i];
}

/* From node from, breadth-first over the nodes of set sid (every node when
 * sid is 0): the shortest way to an edge of the kind wanted (or, WANT_OFF,
 * to a node where fair transition k is disabled).  Appends the edges to
 * the path and returns the node reached, or -1 (none; or no memory). */
static int64_t bfs(work *W, uint32_t sid, uint32_t from, want_kind kind, uint64_t k)
{
    const fair_graph *g = W->g;
    if (kind == WANT_OFF && !BIT(&g->enabled[(size_t)from * g->words], k))
        return from;
    W->stamp++;
    size_t head = 0, tail = 0;
    W->queue[tail++] = from;
    W->seen[from] = W->stamp;
    int64_t end = -1;
    uint32_t last_edge = 0, last_from = from;
    while (head < tail && end < 0) {
        uint32_t u = W->queue[head++];
        for (uint32_t e = g->start[u]; e < g->start[u + 1] && end < 0; e++) {
            uint32_t v = g->to[e];
            if (sid && W->setid[v] != sid)
                continue;
            if (kind != WANT_OFF && wanted_edge(W, kind, k, e)) {
                end = v;   /* v may be on the tree already: its par stays */
                last_edge = e;
                last_from = u;
            } else if (W->seen[v] != W->stamp) {
                W->seen[v] = W->stamp;
                W->par[v] = u;
                W->pedge[v] = e;
                W->queue[tail++] = v;
                if (kind == WANT_OFF && !BIT(&g->enabled[(size_t)v * g->words], k))
                    end = v;
            }
        }
    }
    if (end < 0)
        return -1;
    /* the edges back from the end, reversed into the path */
    size_t base = W->npath, n = 0;
    uint32_t v = kind == WANT_OFF ? (uint32_t)end : last_from;
    if (kind != WANT_OFF) {
        if (path_add(W, last_edge) < 0)
            return -1;
        n++;
    }
    for (; v != from; v = W->par[v], n++)
        if (path_add(W, W->pedge[v]) < 0)
            return -1;
    for (size_t i = 0; i < n / 2; i++) {
        uint32_t t = W->path[base + i];
        W->path[base + i] = W->path[base + n - 1 - i];
        W->path[base + n - 1 - i] = t;
    }
    for (size_t i = base; i < W->npath; i++)
        cover(W, W->path[i]);
    return end;
}

/* The lasso through set sid (whose first node is at): the stem from node
 * 0, then a cycle through every acceptance set, an edge of every fair
 * transition that fires in the set and, under weak fairness, a state where
 * each of the others is disabled. */
static int lasso(work *W, uint32_t sid, uint32_t at, uint32_t **stem, size_t *nstem,
                 uint32_t **cycle, size_t *ncycle)
{
    const fair_graph *g = W->g;
    if (at != 0 && bfs(W, 0, 0, WANT_TO, at) < 0)
        return -1;
    *nstem = W->npath;
    memset(W->covered_fire, 0, g->words * sizeof *W->covered_fire);
    memset(W->covered_off, 0, g->words * sizeof *W->covered_off);
    for (size_t i = 0; i < g->words; i++)
        W->covered_off[i] = ~g->enabled[(size_t)at * g->words + i];
    uint64_t covered_acc = 0;
    uint32_t cur = at;
    for (uint32_t k = 0; k < 64; k++) {
        if (!((g->all_acc >> k) & 1u) || ((covered_acc >> k) & 1u))
            continue;
        size_t from = W->npath;
        int64_t r = bfs(W, sid, cur, WANT_ACC, k);
        if (r < 0)
            return -1;
        cur = (uint32_t)r;
        for (size_t i = from; i < W->npath; i++)
            covered_acc |= g->acc[W->path[i]];
    }
    for (uint32_t k = 0; k < g->nfair; k++) {
        if (BIT(W->covered_fire, k))
            continue;
        int64_t r = -1;
        if (BIT(W->fired, k))
            r = bfs(W, sid, cur, WANT_FIRE, k);
        else if (!g->strong && !BIT(W->covered_off, k))
            r = bfs(W, sid, cur, WANT_OFF, k);
        else
            continue;   /* strong: never enabled in the set */
        if (r < 0)
            return -1;
        cur = (uint32_t)r;
    }
    if ((cur != at || W->npath == *nstem) && bfs(W, sid, cur, WANT_TO, at) < 0)
        return -1;
    *ncycle = W->npath - *nstem;
    *stem = malloc((*nstem ? *nstem : 1) * sizeof **stem);
    *cycle = malloc(*ncycle * sizeof **cycle);
    if (!*stem || !*cycle) {
        free(*stem);
        free(*cycle);
        return -1;
    }
    memcpy(*stem, W->path, *nstem * sizeof **stem);
    memcpy(*cycle, W->path + *nstem, *ncycle * sizeof **cycle);
    return 0;
}

static void push_seg(work *W, uint32_t at, uint32_t len)
{
    W->seg_at[W->nseg] = at;
    W->seg_len[W->nseg++] = len;
}

/* Tarjan's algorithm, iterative, over the nodes of pool[at..at+len) still
 * in set sid: their components replace the segment (removed nodes drop
 * out) and are pushed as sets to check. */
static void split(work *W, uint32_t sid, uint32_t at, uint32_t len)
{
    const fair_graph *g = W->g;
    uint32_t counter = 0, ntmp = 0, nt = 0;
    for (uint32_t i = 0; i < len; i++)
        W->idx[W->pool[at + i]] = 0;
    for (uint32_t i = 0; i < len; i++) {
        uint32_t root = W->pool[at + i];
        if (W->setid[root] != sid || W->idx[root])
            continue;
        uint32_t nf = 0;
        W->fnode[nf] = root;
        W->fpos[nf++] = g->start[root];
        W->idx[root] = W->low[root] = ++counter;
        W->tstack[nt++] = root;
        W->onstack[root] = 1;
        while (nf) {
            uint32_t u = W->fnode[nf - 1];
            uint32_t e = W->fpos[nf - 1];
            int descended = 0;
            for (; e < g->start[u + 1]; e++) {
                uint32_t v = g->to[e];
                if (W->setid[v] != sid)
                    continue;
                if (!W->idx[v]) {
                    W->fpos[nf - 1] = e + 1;
                    W->fnode[nf] = v;
                    W->fpos[nf++] = g->start[v];
                    W->idx[v] = W->low[v] = ++counter;
                    W->tstack[nt++] = v;
                    W->onstack[v] = 1;
                    descended = 1;
                    break;
                }
                if (W->onstack[v] && W->idx[v] < W->low[u])
                    W->low[u] = W->idx[v];
            }
            if (descended)
                continue;
            nf--;
            if (W->low[u] == W->idx[u]) {
                uint32_t first = ntmp, v;
                do {
                    v = W->tstack[--nt];
                    W->onstack[v] = 0;
                    W->tmp[ntmp++] = v;
                } while (v != u);
                push_seg(W, at + first, ntmp - first);
            }
            if (nf) {
                uint32_t p = W->fnode[nf - 1];
                if (W->low[u] < W->low[p])
                    W->low[p] = W->low[u];
            }
        }
    }
    memcpy(W->pool + at, W->tmp, ntmp * sizeof *W->tmp);
}

int fair_cycle(const fair_graph *g, size_t max_bytes, uint32_t **stem, size_t *nstem,
               uint32_t **cycle, size_t *ncycle)
{
    size_t n = g->n, w = g->words ? g->words : 1;
    /* 14 arrays of n words, one of n bytes, 6 bit sets (the path is
     * short next to them) */
    if (n >= UINT32_MAX / 2 || w > SIZE_MAX / 64 || n > (SIZE_MAX - 48 * w) / 57 ||
        n * 57 + 48 * w > max_bytes)
        return -1;
    work W;
    memset(&W, 0, sizeof W);
    W.g = g;
    uint32_t **arrays[] = {&W.setid, &W.pool, &W.seg_at, &W.seg_len, &W.idx, &W.low,
                           &W.tstack, &W.fnode, &W.fpos, &W.tmp, &W.par, &W.pedge,
                           &W.queue, &W.seen};
    uint64_t **sets[] = {&W.fired, &W.en_any, &W.en_all, &W.bad, &W.covered_fire,
                         &W.covered_off};
    int rc = -1, ok = 1;
    for (size_t i = 0; i < sizeof arrays / sizeof *arrays; i++)
        ok &= (*arrays[i] = calloc(n ? n : 1, sizeof(uint32_t))) != NULL;
    for (size_t i = 0; i < sizeof sets / sizeof *sets; i++)
        ok &= (*sets[i] = calloc(w, sizeof(uint64_t))) != NULL;
    ok &= (W.onstack = calloc(n ? n : 1, 1)) != NULL;
    if (!ok || !n)
        goto out;
    uint64_t last_mask = g->nfair % 64 ? ((uint64_t)1 << (g->nfair % 64)) - 1 : ~(uint64_t)0;
    for (uint32_t v = 0; v < n; v++)
        W.pool[v] = v;
    push_seg(&W, 0, (uint32_t)n);
    uint32_t sid = 0;
    rc = 0;
    while (W.nseg && !rc) {
        uint32_t at = W.seg_at[--W.nseg], len = W.seg_len[W.nseg];
        ++sid;
        for (uint32_t i = 0; i < len; i++)
            W.setid[W.pool[at + i]] = sid;
        uint64_t acc = 0;
        int inner = 0;
        memset(W.fired, 0, w * 8);
        memset(W.en_any, 0, w * 8);
        memset(W.en_all, 0xff, w * 8);
        for (uint32_t i = 0; i < len; i++) {
            uint32_t v = W.pool[at + i];
            for (uint32_t e = g->start[v]; e < g->start[v + 1]; e++) {
                if (W.setid[g->to[e]] != sid)
                    continue;
                inner = 1;
                acc |= g->acc[e];
                uint32_t t = g->label[e];
                if (t != FAIR_NO_LABEL && g->fair_index[t] != FAIR_NOT_FAIR)
                    W.fired[g->fair_index[t] / 64] |= (uint64_t)1 << (g->fair_index[t] % 64);
            }
            for (size_t j = 0; j < g->words; j++) {
                W.en_any[j] |= g->enabled[(size_t)v * g->words + j];
                W.en_all[j] &= g->enabled[(size_t)v * g->words + j];
            }
        }
        if (!inner || (acc & g->all_acc) != g->all_acc)
            continue;
        int clean = 1;
        for (size_t j = 0; j < g->words; j++) {
            W.bad[j] = (g->strong ? W.en_any[j] : W.en_all[j]) & ~W.fired[j];
            if (j == g->words - 1)
                W.bad[j] &= last_mask;
            clean &= W.bad[j] == 0;
        }
        if (clean) {
            rc = lasso(&W, sid, W.pool[at], stem, nstem, cycle, ncycle) < 0 ? -1 : 1;
            break;
        }
        if (!g->strong)
            continue;
        for (uint32_t i = 0; i < len; i++) {
            uint32_t v = W.pool[at + i];
            for (size_t j = 0; j < g->words; j++)
                if (g->enabled[(size_t)v * g->words + j] & W.bad[j])
                    W.setid[v] = 0;
        }
        split(&W, sid, at, len);
    }
out:
    for (size_t i = 0; i < sizeof arrays / sizeof *arrays; i++)
        free(*arrays[i]);
    for (size_t i = 0; i < sizeof sets / sizeof *sets; i++)
        free(*sets[i]);
    free(W.onstack);
    free(W.path);
    return rc;
}
