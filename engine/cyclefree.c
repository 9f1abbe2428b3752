/* A transition t can be in a T-invariant's support inside a set K only if
 * every place t changes is changed the other way by some transition of K
 * (the place's row of C x = 0 sums terms of one sign otherwise).  Taking
 * away the transitions that fail this, until none does, leaves a superset
 * of the union of the supports inside K: empty means none.  When some are
 * left, one of them is given up to full expansion and the peeling goes
 * on.  Counters per place and sign make the whole of it linear in the
 * arcs, where one linear programme per given-up transition would not be
 * (nets with thousands of process loops give up thousands).
 *
 * Which transition to give up decides how much reduction is left:
 * give_up_key says the order. */
#include "engine/cyclefree.h"

#include <stdlib.h>
#include <string.h>

typedef struct peel {
    const cnet_t *cn;
    uint8_t *in;               /* still possibly on a cycle */
    uint32_t *up, *down;       /* per place: transitions in `in` raising / lowering it */
    uint32_t *by_start, *by;   /* per place: the transitions changing it */
    uint32_t *queue, nqueue;
} peel;

static void take_out(peel *k, uint32_t t)
{
    if (!k->in[t])
        return;
    k->in[t] = 0;
    k->queue[k->nqueue++] = t;
}

/* Empties the queue: each transition taken out lowers its places'
 * counters, and a place left with changes of one sign only takes out
 * every transition still in that changes it (all of one sign). */
static void drain(peel *k)
{
    const cnet_t *cn = k->cn;
    while (k->nqueue) {
        uint32_t t = k->queue[--k->nqueue];
        for (uint32_t i = cn->eff_start[t]; i < cn->eff_start[t + 1]; i++) {
            uint32_t p = cn->eff_place[i];
            uint32_t *side = cn->eff_delta[i] > 0 ? &k->up[p] : &k->down[p];
            if (--*side != 0)
                continue;
            for (uint32_t j = k->by_start[p]; j < k->by_start[p + 1]; j++)
                take_out(k, k->by[j]);
        }
    }
}

/* How many other transitions t competes with: those that lower a place t
 * needs, and those that need a place t lowers.  A transition that
 * competes rarely forms a stubborn set alone, so giving it up costs
 * little reduction. */
static uint64_t competitors(const cnet_t *cn, uint32_t t, const uint32_t *lowering)
{
    uint64_t n = 0;
    for (uint32_t i = cn->eff_start[t]; i < cn->eff_start[t + 1]; i++)
        if (cn->eff_delta[i] < 0) {
            uint32_t p = cn->eff_place[i];
            n += cn->consumers_start[p + 1] - cn->consumers_start[p] - 1;
        }
    for (uint32_t i = cn->need_start[t]; i < cn->need_start[t + 1]; i++) {
        uint32_t p = cn->need_place[i];
        n += lowering[p];
        for (uint32_t j = cn->eff_start[t]; j < cn->eff_start[t + 1]; j++)
            if (cn->eff_place[j] == p && cn->eff_delta[j] < 0)
                n--;   /* t itself */
    }
    return n;
}

/* The order of giving up, as a sort key: no change at all first (always
 * a cycle), then the most competitors, then the most places changed (on
 * the most cycles), then the lower number. */
static uint64_t give_up_key(const cnet_t *cn, uint32_t t, const uint32_t *lowering)
{
    uint64_t changes = cn->eff_start[t + 1] - cn->eff_start[t];
    uint64_t rival = competitors(cn, t, lowering);
    if (changes == 0)
        return t;
    uint64_t r = rival > 0xffffu ? 0xffffu : rival, c = changes > 0x7fffu ? 0x7fffu : changes;
    return (uint64_t)1 << 63 | (0xffffu - r) << 47 | (0x7fffu - c) << 32 | t;
}

static int ascending(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

int cyclefree_subset(const cnet_t *cn, uint8_t *keep, uint32_t *dropped)
{
    uint32_t T = cn->ntransitions, P = cn->nplaces;
    *dropped = 0;
    peel k = {.cn = cn};
    k.in = calloc(T + 1, 1);
    k.up = calloc(P + 1, sizeof *k.up);
    k.down = calloc(P + 1, sizeof *k.down);
    k.by_start = calloc(P + 2, sizeof *k.by_start);
    k.queue = malloc((T + 1) * sizeof *k.queue);
    uint64_t *order = malloc((T + 1) * sizeof *order);
    size_t arcs = cn->eff_start[T];
    k.by = malloc((arcs + 1) * sizeof *k.by);
    int rc = -1;
    if (!k.in || !k.up || !k.down || !k.by_start || !k.queue || !order || !k.by)
        goto out;
    for (uint32_t t = 0; t < T; t++)
        for (uint32_t i = cn->eff_start[t]; i < cn->eff_start[t + 1]; i++)
            k.by_start[cn->eff_place[i] + 1]++;
    for (uint32_t p = 0; p < P; p++)
        k.by_start[p + 1] += k.by_start[p];
    uint32_t *cursor = calloc(P + 1, sizeof *cursor);
    uint32_t *lowering = calloc(P + 1, sizeof *lowering);
    if (!cursor || !lowering) {
        free(cursor);
        free(lowering);
        goto out;
    }
    for (uint32_t t = 0; t < T; t++)
        for (uint32_t i = cn->eff_start[t]; i < cn->eff_start[t + 1]; i++) {
            uint32_t p = cn->eff_place[i];
            k.by[k.by_start[p] + cursor[p]++] = t;
            lowering[p] += cn->eff_delta[i] < 0;
        }
    uint32_t norder = 0;
    for (uint32_t t = 0; t < T; t++) {
        if (!keep[t])
            continue;
        k.in[t] = 1;
        order[norder++] = give_up_key(cn, t, lowering);
        for (uint32_t i = cn->eff_start[t]; i < cn->eff_start[t + 1]; i++)
            (cn->eff_delta[i] > 0 ? k.up : k.down)[cn->eff_place[i]]++;
    }
    free(cursor);
    free(lowering);
    /* the first peeling: transitions with a place nobody in the set
     * changes the other way */
    k.nqueue = 0;
    for (uint32_t t = 0; t < T; t++) {
        if (!k.in[t])
            continue;
        for (uint32_t i = cn->eff_start[t]; i < cn->eff_start[t + 1]; i++) {
            uint32_t p = cn->eff_place[i];
            if ((cn->eff_delta[i] > 0 ? k.down[p] : k.up[p]) == 0) {
                take_out(&k, t);
                break;
            }
        }
    }
    drain(&k);
    qsort(order, norder, sizeof *order, ascending);
    for (uint32_t i = 0; i < norder; i++) {
        uint32_t t = (uint32_t)order[i];
        if (!k.in[t])
            continue;
        keep[t] = 0;
        ++*dropped;
        take_out(&k, t);
        drain(&k);
    }
    rc = 0;
out:
    if (rc < 0)
        memset(keep, 0, T);
    free(k.in);
    free(k.up);
    free(k.down);
    free(k.by_start);
    free(k.by);
    free(k.queue);
    free(order);
    return rc;
}
