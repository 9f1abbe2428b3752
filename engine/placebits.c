/* Place widths from proven bounds (placebits.h). */
#include "engine/placebits.h"
#include "base/clock.h"
#include "engine/onehot.h"
#include "lp/stateeq.h"
#include "engine/store.h"

#include <stdio.h>
#include <stdlib.h>

static unsigned bits_for(uint64_t bound)
{
    return bound ? 64u - (unsigned)__builtin_clzll(bound) : 0u;
}

uint8_t *placebits(const cnet_t *cn, const budget_t *budget)
{
    uint32_t unbounded;
    return placebits_at(cn, budget, &unbounded);
}

uint8_t *placebits_at(const cnet_t *cn, const budget_t *budget, uint32_t *unbounded)
{
    *unbounded = PLACEBITS_NO_MEMORY;
    uint32_t P = cn->nplaces;
    uint8_t *bits = calloc(P ? P : 1, 1);
    uint8_t *gainable = calloc(P ? P : 1, 1);
    uint8_t *held = NULL;
    if (!bits || !gainable)
        goto fail;
    for (uint32_t i = 0; i < cn->eff_start[cn->ntransitions]; i++)
        if (cn->eff_delta[i] > 0)
            gainable[cn->eff_place[i]] = 1;
    /* an invariant that holds a place to one token spares its linear
     * program, which is most of the time here on nets of many places */
    budget_t invariants = budget_carve(budget, CARVE_PLACEBITS_INVARIANTS);
    held = onehot_bounds(cn, budget_seconds(&invariants));
    for (uint32_t p = 0; p < P; p++) {
        uint64_t bound = cn->initial[p];
        if (gainable[p] && held && held[p] != ONEHOT_NO_BOUND) {
            bound = held[p];
        } else if (gainable[p]) {
            double left = budget_left(budget), at = mono_now();
            if (left <= 0 || stateeq_upper_bound(cn, &p, 1, left, &bound) < 0) {
                /* the linear program stops at its own time limit, which
                 * can come a moment before the budget says expired */
                int out_of_time = left <= 0 || budget_expired(budget) ||
                                  mono_now() - at >= 0.9 * left;
                *unbounded = out_of_time ? PLACEBITS_NO_TIME : p;
                goto fail;
            }
        }
        /* the state equation's bound holds from the initial marking on */
        if (bound < cn->initial[p])
            bound = cn->initial[p];
        if (bits_for(bound) > STORE_PACKED_BITS_MAX) {
            *unbounded = p;
            goto fail;
        }
        bits[p] = (uint8_t)bits_for(bound);
    }
    free(gainable);
    free(held);
    return bits;
fail:
    free(bits);
    free(gainable);
    free(held);
    return NULL;
}

void placebits_why(const cnet_t *cn, const budget_t *budget, uint32_t unbounded,
                   const char *checker, char *why, size_t whylen)
{
    if (unbounded == PLACEBITS_NO_MEMORY) {
        snprintf(why, whylen, "memory budget exhausted");
    } else if (unbounded == PLACEBITS_NO_TIME || *budget->interrupted) {
        snprintf(why, whylen, *budget->interrupted ? "interrupted"
                              : "time limit reached while proving every place bounded");
    } else if (cn->net->places[unbounded].id) {
        snprintf(why, whylen, "%s: place %s has no proven bound", checker,
                 cn->net->places[unbounded].id);
    } else {
        snprintf(why, whylen, "%s: place #%u has no proven bound", checker, unbounded);
    }
}
