/* A proposition is read through places: mark those, then every transition
 * with an effect on a marked place is visible.  An action proposition
 * names its transitions directly. */
#include "engine/stateeval.h"
#include "engine/visible.h"

#include <stdlib.h>
#include <string.h>

/* At most this many distinct action propositions are told apart by
 * visible_step_groups (a bit each). */
#define MAX_ATOMS 64

typedef struct observer {
    const cnet_t *cn;
    uint8_t *place;
    uint8_t *visible;   /* NULL: actions and X make everything visible */
    /* visible_step_groups: the action propositions met, and whether a
     * proposition on markings was */
    const tree_t *atom[MAX_ATOMS];
    uint32_t natoms;
    int reads_markings, too_many;
} observer;

/* Iterative over the formula's binary tree, so that a long formula cannot
 * exhaust the C stack: the right operands wait on a list. */
static int observe(observer *o, const tree_t *root)
{
    const cnet_t *cn = o->cn;
    size_t cap = 64, n = 0;
    const tree_t **todo = malloc(cap * sizeof *todo);
    if (!todo)
        return -1;
    int rc = 0;
    const tree_t *f = root;
    while (rc == 0) {
        if (!f) {
            if (!n)
                break;
            f = todo[--n];
            continue;
        }
        const tree_t *next = NULL;
        switch (f->op) {
        case T_TRUE:
        case T_FALSE:
            break;
        case T_CMP:
            o->reads_markings = 1;
            for (uint32_t i = 0; i < f->nterms; i++)
                if (f->terms[i].coef != 0 && f->terms[i].place < cn->nplaces)
                    o->place[f->terms[i].place] = 1;
            break;
        case T_FIREABLE:
            o->reads_markings = 1;
            for (uint32_t i = 0; i < f->n; i++) {
                uint32_t t = f->items[i];
                if (t >= cn->ntransitions)
                    continue;
                for (uint32_t k = cn->need_start[t]; k < cn->need_start[t + 1]; k++)
                    o->place[cn->need_place[k]] = 1;
            }
            break;
        case T_ACTION:     /* the step itself is observed */
            if (o->natoms < MAX_ATOMS)
                o->atom[o->natoms++] = f;
            else
                o->too_many = 1;
            if (!o->visible)
                rc = -1;
            else
                for (uint32_t i = 0; i < f->n; i++)
                    if (f->items[i] < cn->ntransitions)
                        o->visible[f->items[i]] = 1;
            break;
        case T_X:          /* the next state is observed: stuttering matters */
            if (!o->visible)
                rc = -1;
            next = f->l;
            break;
        case T_DEADLOCK:   /* read through every transition's needs */
        case T_BOUND:
            o->reads_markings = 1;
            rc = -1;
            break;
        default:
            if (f->r) {
                if (n == cap) {
                    const tree_t **bigger = realloc(todo, 2 * cap * sizeof *todo);
                    if (!bigger) {
                        rc = -1;
                        break;
                    }
                    todo = bigger;
                    cap *= 2;
                }
                todo[n++] = f->r;
            }
            next = f->l;
            break;
        }
        f = next;
    }
    free(todo);
    return rc;
}

static int mark(const cnet_t *cn, const tree_t *f, uint8_t *visible, int actions)
{
    observer o = {.cn = cn, .place = calloc((size_t)cn->nplaces + 1, 1),
                  .visible = actions ? visible : NULL};
    if (!o.place || observe(&o, f) < 0) {
        free(o.place);
        return -1;
    }
    for (uint32_t t = 0; t < cn->ntransitions; t++)
        for (uint32_t i = cn->eff_start[t]; i < cn->eff_start[t + 1] && !visible[t]; i++)
            visible[t] = o.place[cn->eff_place[i]];
    free(o.place);
    return 0;
}

int visible_transitions(const cnet_t *cn, const tree_t *f, uint8_t *visible)
{
    return mark(cn, f, visible, 0);
}

int visible_steps(const cnet_t *cn, const tree_t *f, uint8_t *visible)
{
    return mark(cn, f, visible, 1);
}

/* Transitions are told apart by the set of propositions naming them, a
 * bit mask; the masks met are numbered in order of first transition,
 * through an open-addressing table. */
int visible_step_groups(const cnet_t *cn, const tree_t *f, uint32_t *group, uint32_t *rep,
                        uint32_t max_groups)
{
    uint32_t T = cn->ntransitions;
    observer o = {.cn = cn, .place = calloc((size_t)cn->nplaces + 1, 1)};
    uint8_t *named = calloc((size_t)T + 1, 1);
    uint64_t *mask = calloc((size_t)T + 1, sizeof *mask);
    int rc = -1;
    if (!o.place || !named || !mask || max_groups == 0)
        goto out;
    o.visible = named;
    if (observe(&o, f) < 0 || o.reads_markings || o.too_many)
        goto out;
    for (uint32_t a = 0; a < o.natoms; a++)
        for (uint32_t i = 0; i < o.atom[a]->n; i++)
            if (o.atom[a]->items[i] < T)
                mask[o.atom[a]->items[i]] |= (uint64_t)1 << a;
    /* at most one group per named transition, and group 0 */
    uint32_t nnamed = 0;
    for (uint32_t t = 0; t < T; t++)
        nnamed += mask[t] != 0;
    size_t cap = 16;
    while (cap < 2 * ((size_t)nnamed + 1))
        cap *= 2;
    uint64_t *key = malloc(cap * sizeof *key);
    uint32_t *val = malloc(cap * sizeof *val);
    if (!key || !val) {
        free(key);
        free(val);
        goto out;
    }
    memset(val, 0xff, cap * sizeof *val);
    uint32_t n = 1;
    int too_many = 0;
    rep[0] = CN_NO_STEP;
    for (uint32_t t = 0; t < T && !too_many; t++) {
        if (!mask[t]) {
            group[t] = 0;
            continue;
        }
        size_t h = (size_t)((mask[t] * 0x9e3779b97f4a7c15ull) >> 32) & (cap - 1);
        while (val[h] != UINT32_MAX && key[h] != mask[t])
            h = (h + 1) & (cap - 1);
        if (val[h] == UINT32_MAX) {
            if (n == max_groups) {
                too_many = 1;
                break;
            }
            key[h] = mask[t];
            val[h] = n;
            rep[n++] = t;
        }
        group[t] = val[h];
    }
    if (!too_many)
        rc = (int)n;
    free(key);
    free(val);
out:
    free(o.place);
    free(named);
    free(mask);
    return rc;
}
