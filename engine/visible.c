/* A proposition is read through places: mark those, then every transition
 * with an effect on a marked place is visible. */
#include "engine/visible.h"

#include <stdlib.h>

static int observe(const cnet_t *cn, const tree_t *f, uint8_t *place)
{
    if (!f)
        return 0;
    switch (f->op) {
    case T_TRUE:
    case T_FALSE:
        return 0;
    case T_CMP:
        for (uint32_t i = 0; i < f->nterms; i++)
            if (f->terms[i].coef != 0 && f->terms[i].place < cn->nplaces)
                place[f->terms[i].place] = 1;
        return 0;
    case T_FIREABLE:
        for (uint32_t i = 0; i < f->n; i++) {
            uint32_t t = f->items[i];
            if (t >= cn->ntransitions)
                continue;
            for (uint32_t k = cn->need_start[t]; k < cn->need_start[t + 1]; k++)
                place[cn->need_place[k]] = 1;
        }
        return 0;
    case T_DEADLOCK:   /* read through every transition's needs */
    case T_ACTION:     /* the step itself is observed */
    case T_X:          /* the next state is observed: stuttering matters */
    case T_BOUND:
        return -1;
    default:
        return observe(cn, f->l, place) < 0 || observe(cn, f->r, place) < 0 ? -1 : 0;
    }
}

int visible_transitions(const cnet_t *cn, const tree_t *f, uint8_t *visible)
{
    uint8_t *place = calloc((size_t)cn->nplaces + 1, 1);
    if (!place || observe(cn, f, place) < 0) {
        free(place);
        return -1;
    }
    for (uint32_t t = 0; t < cn->ntransitions; t++)
        for (uint32_t i = cn->eff_start[t]; i < cn->eff_start[t + 1] && !visible[t]; i++)
            visible[t] = place[cn->eff_place[i]];
    free(place);
    return 0;
}
