/* The parallel composition of two LTSs (composeint.h): a breadth-first
 * search over pairs of states from the pair of starts.  An action both
 * sides still have to agree on moves both, any other label moves one side
 * alone (a letter never synchronises: it stands for actions all of whose
 * owners are inside one side); each label leaves relabelled, so that the
 * actions this composition closes become letters at once. */
#include "checkers/compose/composeint.h"

#include <string.h>

#define PROGRESS_EVERY 65536u

uint32_t co_pairs_find(const co_pairs *p, uint32_t x, uint32_t y)
{
    const uint32_t v[2] = {x, y};
    return p->width ? co_tuples_find(p, v) : CO_NONE;
}

uint32_t co_pairs_add(co_mem *cm, co_pairs *p, uint32_t x, uint32_t y)
{
    const uint32_t v[2] = {x, y};
    if (!p->width)
        co_tuples_init(p, 2, 1);
    return co_tuples_add(cm, p, v, NULL);
}

void co_pairs_free(co_mem *cm, co_pairs *p)
{
    co_tuples_free(cm, p);
    memset(p, 0, sizeof *p);
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
    if (co_pairs_add(cm, pairs, a->init, b->init) == CO_NONE)
        goto out;
    for (uint32_t s = 0; s < pairs->n; s++) {
        if (co_tick(cm) < 0)
            goto out;
        if (progress && progress->fn && s % PROGRESS_EVERY == PROGRESS_EVERY - 1)
            progress->fn(progress->ctx, pairs->n, out->nedges);
        uint32_t x = co_pairs_x(pairs, s), y = co_pairs_y(pairs, s);
        size_t nk = 0;
        size_t room = (size_t)(a->first[x + 1] - a->first[x]) + (b->first[y + 1] - b->first[y]);
        if (co_grow(cm, &keys, &ckeys, room, sizeof *keys) < 0)
            goto out;
        for (size_t e = a->first[x]; e < a->first[x + 1]; e++) {
            uint32_t l = a->lab[e];
            if (l < nactions && sync[l]) {
                size_t lo, hi;
                co_lts_labelled(b, y, l, &lo, &hi);
                if (co_grow(cm, &keys, &ckeys, nk + (hi - lo) + room, sizeof *keys) < 0)
                    goto out;
                for (size_t f = lo; f < hi; f++) {
                    uint32_t d = co_pairs_add(cm, pairs, a->dst[e], b->dst[f]);
                    if (d == CO_NONE)
                        goto out;
                    keys[nk++] = (uint64_t)relabel[l] << 32 | d;
                }
            } else {
                uint32_t d = co_pairs_add(cm, pairs, a->dst[e], y);
                if (d == CO_NONE)
                    goto out;
                keys[nk++] = (uint64_t)(l < nactions ? relabel[l] : l) << 32 | d;
            }
        }
        for (size_t f = b->first[y]; f < b->first[y + 1]; f++) {
            uint32_t l = b->lab[f];
            if (l < nactions && sync[l])
                continue;
            uint32_t d = co_pairs_add(cm, pairs, x, b->dst[f]);
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
