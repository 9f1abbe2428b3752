/* The one table of state tuples of the compose checker (composeint.h):
 * the product of two parts, the parts left explored on the fly, the
 * snowball's network, the formula's product and the lifting searches all
 * number fixed-width tuples of uint32 the same way.  The tuples sit end
 * to end in one grown array, so a state costs its width and one slot, and
 * nothing is allocated per state; the slots hold number + 1, with linear
 * probing, at most half full. */
#include "checkers/compose/composeint.h"

#include <string.h>

void co_tuples_init(co_tuples *T, uint32_t width, int counted)
{
    memset(T, 0, sizeof *T);
    T->width = width;
    T->counted = counted;
}

static uint64_t hash_tuple(const uint32_t *v, uint32_t n)
{
    uint64_t h = 0x9e3779b97f4a7c15ull;
    for (uint32_t i = 0; i < n; i++)
        h = (h ^ v[i]) * 0xff51afd7ed558ccdull;
    return h ^ (h >> 29);
}

static int grow_slots(co_mem *cm, co_tuples *T)
{
    size_t ns = T->nslots ? 2 * T->nslots : 1024;
    uint32_t *slot = co_alloc(cm, ns, sizeof *slot);
    if (!slot)
        return -1;
    for (uint32_t s = 0; s < T->n; s++) {
        size_t h = (size_t)hash_tuple(T->tuple + (size_t)s * T->width, T->width) & (ns - 1);
        while (slot[h])
            h = (h + 1) & (ns - 1);
        slot[h] = s + 1;
    }
    co_free(cm, T->slot, T->nslots, sizeof *T->slot);
    T->slot = slot;
    T->nslots = ns;
    return 0;
}

uint32_t co_tuples_find(const co_tuples *T, const uint32_t *v)
{
    uint32_t w = T->width;
    if (!T->nslots)
        return CO_NONE;
    for (size_t h = (size_t)hash_tuple(v, w) & (T->nslots - 1); T->slot[h];
         h = (h + 1) & (T->nslots - 1))
        if (!memcmp(T->tuple + (size_t)(T->slot[h] - 1) * w, v, w * sizeof *v))
            return T->slot[h] - 1;
    return CO_NONE;
}

uint32_t co_tuples_add(co_mem *cm, co_tuples *T, const uint32_t *v, int *added)
{
    uint32_t w = T->width;
    if (added)
        *added = 0;
    if (2 * ((size_t)T->n + 1) > T->nslots && grow_slots(cm, T) < 0)
        return CO_NONE;
    size_t h = (size_t)hash_tuple(v, w) & (T->nslots - 1);
    for (; T->slot[h]; h = (h + 1) & (T->nslots - 1))
        if (!memcmp(T->tuple + (size_t)(T->slot[h] - 1) * w, v, w * sizeof *v))
            return T->slot[h] - 1;
    if (T->n >= CO_NONE - 1 || (T->counted && cm->max_states && T->n >= cm->max_states)) {
        cm->gave_up = T->n >= CO_NONE - 1 ? "memory budget exhausted" : "state limit reached";
        return CO_NONE;
    }
    if (co_grow(cm, &T->tuple, &T->cap_tuple, ((size_t)T->n + 1) * w, sizeof *T->tuple) < 0)
        return CO_NONE;
    memcpy(T->tuple + (size_t)T->n * w, v, w * sizeof *v);
    T->slot[h] = ++T->n;
    if (added)
        *added = 1;
    return T->n - 1;
}

void co_tuples_clear(co_tuples *T)
{
    T->n = 0;
    if (T->slot)
        memset(T->slot, 0, T->nslots * sizeof *T->slot);
}

void co_tuples_free(co_mem *cm, co_tuples *T)
{
    co_free_grown(cm, &T->tuple, &T->cap_tuple, sizeof *T->tuple);
    co_free(cm, T->slot, T->nslots, sizeof *T->slot);
    uint32_t w = T->width;
    int counted = T->counted;
    co_tuples_init(T, w, counted);
}
