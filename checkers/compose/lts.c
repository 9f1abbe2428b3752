/* Labelled transition systems as arrays (composeint.h). */
#include "checkers/compose/composeint.h"

#include <string.h>

#include <stdlib.h>

void co_lts_free(co_mem *cm, co_lts *l)
{
    co_free(cm, l->first, l->cap_first, sizeof *l->first);
    co_free(cm, l->lab, l->cap_edges, sizeof *l->lab);
    co_free(cm, l->dst, l->cap_edges, sizeof *l->dst);
    l->first = l->lab = l->dst = NULL;
    l->nstates = 0;
    l->nedges = l->cap_edges = l->cap_first = 0;
}

static int by_key(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

size_t co_sort_unique(uint64_t *key, size_t n)
{
    if (n <= 24) {
        for (size_t i = 1; i < n; i++) {
            uint64_t k = key[i];
            size_t j = i;
            while (j > 0 && key[j - 1] > k) {
                key[j] = key[j - 1];
                j--;
            }
            key[j] = k;
        }
    } else {
        qsort(key, n, sizeof *key, by_key);
    }
    size_t u = 0;
    for (size_t i = 0; i < n; i++)
        if (!u || key[i] != key[u - 1])
            key[u++] = key[i];
    return u;
}

int co_lts_restrict(co_mem *cm, const co_lts *l, const uint32_t *keep, uint32_t kept,
                    const uint8_t *alive, co_lts *out)
{
    memset(out, 0, sizeof *out);
    size_t edges = 0;
    for (uint32_t s = 0; s < l->nstates; s++)
        if (keep[s] != CO_NONE)
            for (uint32_t e = l->first[s]; e < l->first[s + 1]; e++)
                edges += (!alive || alive[e]) && keep[l->dst[e]] != CO_NONE;
    out->nstates = kept;
    out->init = keep[l->init];
    out->cap_first = (size_t)kept + 1;
    out->cap_edges = edges ? edges : 1;
    if (!(out->first = co_alloc(cm, out->cap_first, sizeof *out->first)) ||
        !(out->lab = co_alloc(cm, out->cap_edges, sizeof *out->lab)) ||
        !(out->dst = co_alloc(cm, out->cap_edges, sizeof *out->dst))) {
        co_lts_free(cm, out);
        return -1;
    }
    size_t k = 0;
    for (uint32_t s = 0; s < l->nstates; s++) {
        if (keep[s] == CO_NONE)
            continue;
        out->first[keep[s]] = (uint32_t)k;
        for (uint32_t e = l->first[s]; e < l->first[s + 1]; e++)
            if ((!alive || alive[e]) && keep[l->dst[e]] != CO_NONE) {
                out->lab[k] = l->lab[e];
                out->dst[k++] = keep[l->dst[e]];
            }
    }
    out->first[kept] = (uint32_t)k;
    out->nedges = k;
    return 0;
}

int co_lts_normalise(co_mem *cm, co_lts *l, uint64_t **scratch, size_t *cap)
{
    size_t out = 0;
    for (uint32_t s = 0; s < l->nstates; s++) {
        size_t from = l->first[s], n = l->first[s + 1] - from;
        if (co_grow(cm, scratch, cap, n, sizeof **scratch) < 0)
            return -1;
        for (size_t i = 0; i < n; i++)
            (*scratch)[i] = (uint64_t)l->lab[from + i] << 32 | l->dst[from + i];
        n = co_sort_unique(*scratch, n);
        l->first[s] = (uint32_t)out;
        for (size_t i = 0; i < n; i++) {
            l->lab[out + i] = (uint32_t)((*scratch)[i] >> 32);
            l->dst[out + i] = (uint32_t)(*scratch)[i];
        }
        out += n;
    }
    l->first[l->nstates] = (uint32_t)out;
    l->nedges = out;
    return 0;
}

int co_lts_steps(void *ctx, uint32_t s, const uint64_t **steps, size_t *n)
{
    co_lts_system *S = ctx;
    const co_lts *l = S->l;
    size_t deg = l->first[s + 1] - l->first[s];
    if (co_grow(S->cm, &S->buf, &S->cap, deg, sizeof *S->buf) < 0)
        return -1;
    for (size_t i = 0; i < deg; i++) {
        uint32_t e = l->first[s] + (uint32_t)i;
        S->buf[i] = (uint64_t)(l->lab[e] - S->A) << 32 | l->dst[e];
    }
    *steps = S->buf;
    *n = deg;
    return 0;
}

void co_lts_labelled(const co_lts *l, uint32_t s, uint32_t a, size_t *lo, size_t *hi)
{
    size_t x = l->first[s], z = l->first[s + 1];
    while (x < z) {
        size_t mid = x + (z - x) / 2;
        if (l->lab[mid] < a)
            x = mid + 1;
        else
            z = mid;
    }
    *lo = x;
    while (x < l->first[s + 1] && l->lab[x] == a)
        x++;
    *hi = x;
}
