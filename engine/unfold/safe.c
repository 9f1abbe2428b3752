/* The proof that a net is safe, which the prefix needs (prefix.h): every
 * place's bound from engine/placebits.h (the initial marking, place
 * invariants, the state equation confirmed in exact arithmetic) must be
 * at most 1. */
#include "engine/unfold/prefix.h"
#include "engine/placebits.h"

#include <stdio.h>
#include <stdlib.h>

int unf_proven_safe(const cnet_t *cn, const budget_t *budget, char *why, size_t whylen)
{
    budget_t bounds = budget_carve(budget, CARVE_UNFOLD_PLACEBITS);
    uint32_t unbounded;
    uint8_t *bits = placebits_at(cn, &bounds, &unbounded);
    if (!bits) {
        if (unbounded != PLACEBITS_NO_MEMORY && budget_expired(&bounds))
            unbounded = PLACEBITS_NO_TIME;   /* cut short: unproven, not unbounded */
        placebits_why(cn, budget, unbounded, "unfold", why, whylen);
        return 0;
    }
    for (uint32_t p = 0; p < cn->nplaces; p++) {
        if (bits[p] > 1) {
            const char *id = cn->net->places[p].id;
            if (id)
                snprintf(why, whylen, "unfold: the net is not proven safe (place %s may hold "
                         "more than one token)", id);
            else
                snprintf(why, whylen, "unfold: the net is not proven safe (place #%u may hold "
                         "more than one token)", p);
            free(bits);
            return 0;
        }
    }
    free(bits);
    return 1;
}
