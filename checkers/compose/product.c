/* The parallel composition of two LTSs (composeint.h): a breadth-first
 * search over pairs of states from the pair of starts.  An action both
 * sides still have to agree on moves both, any other label moves one side
 * alone (a letter never synchronises: it stands for actions all of whose
 * owners are inside one side); each label leaves relabelled, so that the
 * actions this composition closes become letters at once. */
#include "checkers/compose/composeint.h"

#include <string.h>

#define PROGRESS_EVERY 65536u

static uint64_t hash_pair(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return k;
}

uint32_t co_pairs_find(const co_pairs *p, uint32_t x, uint32_t y)
{
    if (!p->nslots)
        return CO_NONE;
    uint64_t key = (uint64_t)x << 32 | y;
    for (size_t i = (size_t)hash_pair(key) & (p->nslots - 1);; i = (i + 1) & (p->nslots - 1)) {
        uint32_t s = p->slot[i];
        if (!s)
            return CO_NONE;
        if (p->pair[s - 1] == key)
            return s - 1;
    }
}

static int rehash(co_mem *cm, co_pairs *p)
{
    size_t n = p->nslots ? p->nslots * 2 : 1024;
    uint32_t *slot = co_alloc(cm, n, sizeof *slot);
    if (!slot)
        return -1;
    for (uint32_t s = 0; s < p->n; s++) {
        size_t i = (size_t)hash_pair(p->pair[s]) & (n - 1);
        while (slot[i])
            i = (i + 1) & (n - 1);
        slot[i] = s + 1;
    }
    co_free(cm, p->slot, p->nslots, sizeof *p->slot);
    p->slot = slot;
    p->nslots = n;
    return 0;
}

/* The number of pair (x, y), added when new; CO_NONE on a limit. */
static uint32_t number_of(co_mem *cm, co_pairs *p, uint32_t x, uint32_t y)
{
    uint64_t key = (uint64_t)x << 32 | y;
    size_t i = (size_t)hash_pair(key) & (p->nslots - 1);
    for (;; i = (i + 1) & (p->nslots - 1)) {
        uint32_t s = p->slot[i];
        if (!s)
            break;
        if (p->pair[s - 1] == key)
            return s - 1;
    }
    if (p->n >= CO_NONE - 1 || (cm->max_states && p->n >= cm->max_states)) {
        cm->gave_up = p->n >= CO_NONE - 1 ? "memory budget exhausted" : "state limit reached";
        return CO_NONE;
    }
    if (co_grow(cm, &p->pair, &p->cap_pair, (size_t)p->n + 1, sizeof *p->pair) < 0)
        return CO_NONE;
    p->pair[p->n] = key;
    p->slot[i] = ++p->n;
    if (2 * (size_t)p->n > p->nslots && rehash(cm, p) < 0)
        return CO_NONE;
    return p->n - 1;
}

uint32_t co_pairs_add(co_mem *cm, co_pairs *p, uint32_t x, uint32_t y)
{
    if (!p->nslots && rehash(cm, p) < 0)
        return CO_NONE;
    return number_of(cm, p, x, y);
}

void co_pairs_free(co_mem *cm, co_pairs *p)
{
    co_free_grown(cm, &p->pair, &p->cap_pair, sizeof *p->pair);
    co_free(cm, p->slot, p->nslots, sizeof *p->slot);
    memset(p, 0, sizeof *p);
}

/* b's edges from y labelled l: [*lo, *hi). */
static void edges_labelled(const co_lts *b, uint32_t y, uint32_t l, size_t *lo, size_t *hi)
{
    size_t a = b->first[y], z = b->first[y + 1];
    while (a < z) {
        size_t mid = a + (z - a) / 2;
        if (b->lab[mid] < l)
            a = mid + 1;
        else
            z = mid;
    }
    *lo = a;
    while (a < b->first[y + 1] && b->lab[a] == l)
        a++;
    *hi = a;
}

int co_product(co_mem *cm, const co_lts *a, const co_lts *b, uint32_t nactions,
               const uint8_t *sync, const uint32_t *relabel, co_lts *out, co_pairs *pairs,
               const co_progress_fn *progress)
{
    memset(out, 0, sizeof *out);
    memset(pairs, 0, sizeof *pairs);
    uint64_t *keys = NULL;
    size_t ckeys = 0, cfirst = 0, clab = 0, cdst = 0;
    int rc = -1;
    if (rehash(cm, pairs) < 0 || number_of(cm, pairs, a->init, b->init) == CO_NONE)
        goto out;
    for (uint32_t s = 0; s < pairs->n; s++) {
        if (co_tick(cm) < 0)
            goto out;
        if (progress && progress->fn && s % PROGRESS_EVERY == PROGRESS_EVERY - 1)
            progress->fn(progress->ctx, pairs->n, out->nedges);
        uint32_t x = (uint32_t)(pairs->pair[s] >> 32), y = (uint32_t)pairs->pair[s];
        size_t nk = 0;
        size_t room = (size_t)(a->first[x + 1] - a->first[x]) + (b->first[y + 1] - b->first[y]);
        if (co_grow(cm, &keys, &ckeys, room, sizeof *keys) < 0)
            goto out;
        for (size_t e = a->first[x]; e < a->first[x + 1]; e++) {
            uint32_t l = a->lab[e];
            if (l < nactions && sync[l]) {
                size_t lo, hi;
                edges_labelled(b, y, l, &lo, &hi);
                if (co_grow(cm, &keys, &ckeys, nk + (hi - lo) + room, sizeof *keys) < 0)
                    goto out;
                for (size_t f = lo; f < hi; f++) {
                    uint32_t d = number_of(cm, pairs, a->dst[e], b->dst[f]);
                    if (d == CO_NONE)
                        goto out;
                    keys[nk++] = (uint64_t)relabel[l] << 32 | d;
                }
            } else {
                uint32_t d = number_of(cm, pairs, a->dst[e], y);
                if (d == CO_NONE)
                    goto out;
                keys[nk++] = (uint64_t)(l < nactions ? relabel[l] : l) << 32 | d;
            }
        }
        for (size_t f = b->first[y]; f < b->first[y + 1]; f++) {
            uint32_t l = b->lab[f];
            if (l < nactions && sync[l])
                continue;
            uint32_t d = number_of(cm, pairs, x, b->dst[f]);
            if (d == CO_NONE)
                goto out;
            keys[nk++] = (uint64_t)(l < nactions ? relabel[l] : l) << 32 | d;
        }
        nk = co_sort_unique(keys, nk);
        if (out->nedges + nk >= CO_NONE) {
            cm->gave_up = "memory budget exhausted";
            goto out;
        }
        if (co_grow(cm, &out->first, &cfirst, (size_t)s + 2, sizeof *out->first) < 0 ||
            co_grow(cm, &out->lab, &clab, out->nedges + nk, sizeof *out->lab) < 0 ||
            co_grow(cm, &out->dst, &cdst, out->nedges + nk, sizeof *out->dst) < 0)
            goto out;
        out->first[s] = (uint32_t)out->nedges;
        for (size_t i = 0; i < nk; i++) {
            out->lab[out->nedges + i] = (uint32_t)(keys[i] >> 32);
            out->dst[out->nedges + i] = (uint32_t)keys[i];
        }
        out->nedges += nk;
    }
    if (co_grow(cm, &out->first, &cfirst, (size_t)pairs->n + 1, sizeof *out->first) < 0)
        goto out;
    out->first[pairs->n] = (uint32_t)out->nedges;
    out->nstates = pairs->n;
    out->init = 0;
    rc = 0;
out:
    co_free_grown(cm, &keys, &ckeys, sizeof *keys);
    if (rc < 0) {
        co_free_grown(cm, &out->first, &cfirst, sizeof *out->first);
        co_free_grown(cm, &out->lab, &clab, sizeof *out->lab);
        co_free_grown(cm, &out->dst, &cdst, sizeof *out->dst);
        memset(out, 0, sizeof *out);
        co_pairs_free(cm, pairs);
        return -1;
    }
    out->cap_first = cfirst;
    out->cap_edges = clab;
    return 0;
}
