/* The largest trap inside a set: the union of two traps is a trap, so
 * removing every place that violates the condition, until none does,
 * leaves the largest one.  A work list revisits only the places whose
 * lowering transitions lost an output place. */
#include "base/placelists.h"
#include "lp/traps.h"

#include <stdlib.h>

struct trap_index {
    const cnet_t *cn;
    uint32_t *low_start, *low;     /* per place: transitions lowering it */
    uint32_t *out_start, *out;     /* per place: transitions with an arc to it */
    uint32_t *work;
    uint8_t *queued;
};

trap_index *trap_index_new(const cnet_t *cn)
{
    trap_index *ix = calloc(1, sizeof *ix);
    if (!ix)
        return NULL;
    ix->cn = cn;
    ix->work = malloc(((size_t)cn->nplaces + 1) * sizeof *ix->work);
    ix->queued = calloc((size_t)cn->nplaces + 1, 1);
    if (!ix->work || !ix->queued ||
        place_lists(cn, cn->eff_start, cn->eff_place, cn->eff_delta, -1, &ix->low_start,
                    &ix->low) < 0 ||
        place_lists(cn, cn->post_start, cn->post_place, NULL, 0, &ix->out_start, &ix->out) < 0) {
        trap_index_free(ix);
        return NULL;
    }
    return ix;
}

void trap_index_free(trap_index *ix)
{
    if (!ix)
        return;
    free(ix->low_start);
    free(ix->low);
    free(ix->out_start);
    free(ix->out);
    free(ix->work);
    free(ix->queued);
    free(ix);
}

static int feeds(const cnet_t *cn, uint32_t t, const uint8_t *in)
{
    for (uint32_t i = cn->post_start[t]; i < cn->post_start[t + 1]; i++)
        if (in[cn->post_place[i]])
            return 1;
    return 0;
}

/* p may stay when every transition lowering it feeds the set. */
static int may_stay(const trap_index *ix, uint32_t p, const uint8_t *in)
{
    for (uint32_t k = ix->low_start[p]; k < ix->low_start[p + 1]; k++)
        if (!feeds(ix->cn, ix->low[k], in))
            return 0;
    return 1;
}

uint32_t trap_largest_within(const trap_index *ix, uint8_t *in)
{
    const cnet_t *cn = ix->cn;
    uint32_t nwork = 0, size = 0;
    for (uint32_t p = 0; p < cn->nplaces; p++)
        if (in[p]) {
            ix->work[nwork++] = p;
            ix->queued[p] = 1;
            size++;
        }
    while (nwork) {
        uint32_t p = ix->work[--nwork];
        ix->queued[p] = 0;
        if (!in[p] || may_stay(ix, p, in))
            continue;
        in[p] = 0;
        size--;
        /* transitions feeding p may now feed nothing of the set: the
         * places they lower need another look */
        for (uint32_t k = ix->out_start[p]; k < ix->out_start[p + 1]; k++) {
            uint32_t t = ix->out[k];
            for (uint32_t i = cn->eff_start[t]; i < cn->eff_start[t + 1]; i++) {
                uint32_t q = cn->eff_place[i];
                if (cn->eff_delta[i] < 0 && in[q] && !ix->queued[q]) {
                    ix->queued[q] = 1;
                    ix->work[nwork++] = q;
                }
            }
        }
    }
    return size;
}
