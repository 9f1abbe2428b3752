/* Each automaton state's edges are evaluated once per group of steps, on
 * one transition of the group; the marking is not read (action
 * propositions only). */
#include "checkers/ltl/ltlpor.h"
#include "engine/stateeval.h"
#include "engine/visible.h"

#include <stdlib.h>
#include <string.h>

/* Groups of steps told apart, automaton states times groups, and
 * visible transitions listed over all automaton states, beyond which (the
 * remaining) states share the word-exact view: the tables stay within a
 * few MiB whatever the automaton. */
#define MAX_GROUPS 4096
#define MAX_STATE_GROUPS (1u << 22)
#define MAX_LISTED (1u << 22)

struct ltl_por {
    uint32_t *group;        /* per transition */
    uint32_t ngroups;
    uint32_t *gstart, *members;   /* per group, its transitions */
    uint64_t listed;
    step_view shared;       /* the word-exact view */
    uint8_t *shared_kind;
    uint32_t *shared_visible;
    step_view *own;         /* per automaton state; kind NULL: shared */
    uint32_t nstates, nown;
};

/* 1 when every condition of e holds for the step t, 0 when one does not,
 * -1 when one cannot be evaluated. */
static int edge_reads(const cnet_t *cn, const tgba_edge *e, uint32_t t)
{
    for (uint32_t c = 0; c < e->ncond; c++) {
        int v = cn_step_holds(cn, e->cond[c], cn->initial, t);
        if (v <= 0)
            return v;
    }
    return 1;
}

/* The kinds of q's groups into kind (ngroups bytes): 1, or 0 when the
 * unnamed step can do more than loop on q with one acceptance, or -1. */
static int classify(const cnet_t *cn, const tgba_state *s, uint32_t q, const uint32_t *rep,
                    uint32_t ngroups, uint8_t *kind)
{
    uint64_t acc = 0;
    int loops = 0;
    for (uint32_t k = 0; k < s->nedges; k++) {
        int v = edge_reads(cn, &s->edges[k], rep[0]);
        if (v < 0)
            return -1;
        if (!v)
            continue;
        if (s->edges[k].dst != q || (loops && s->edges[k].acc != acc))
            return 0;
        acc = s->edges[k].acc;
        loops = 1;
    }
    if (!loops)
        return 0;
    kind[0] = STEP_INVISIBLE;
    for (uint32_t g = 1; g < ngroups; g++) {
        int any = 0, other = 0;
        for (uint32_t k = 0; k < s->nedges && !other; k++) {
            int v = edge_reads(cn, &s->edges[k], rep[g]);
            if (v < 0)
                return -1;
            if (!v)
                continue;
            any = 1;
            other = s->edges[k].dst != q || s->edges[k].acc != acc;
        }
        kind[g] = !any ? STEP_IMPOSSIBLE : other ? STEP_VISIBLE : STEP_INVISIBLE;
    }
    return 1;
}

/* Each group's transitions, in increasing order. */
static int index_groups(ltl_por *p, uint32_t T)
{
    p->gstart = calloc((size_t)p->ngroups + 1, sizeof *p->gstart);
    p->members = malloc(((size_t)T + 1) * sizeof *p->members);
    uint32_t *fill = malloc(((size_t)p->ngroups + 1) * sizeof *fill);
    if (!p->gstart || !p->members || !fill) {
        free(fill);
        return -1;
    }
    for (uint32_t t = 0; t < T; t++)
        p->gstart[p->group[t] + 1]++;
    for (uint32_t g = 0; g < p->ngroups; g++)
        p->gstart[g + 1] += p->gstart[g];
    memcpy(fill, p->gstart, ((size_t)p->ngroups + 1) * sizeof *fill);
    for (uint32_t t = 0; t < T; t++)
        p->members[fill[p->group[t]]++] = t;
    free(fill);
    return 0;
}

/* The transitions of v's visible groups, into a new list: 0, 1 when the
 * lists would outgrow MAX_LISTED (nothing made), -1 on no memory. */
static int list_visible(ltl_por *p, step_view *v)
{
    uint32_t n = 0;
    for (uint32_t g = 0; g < p->ngroups; g++)
        if (v->kind[g] == STEP_VISIBLE)
            n += p->gstart[g + 1] - p->gstart[g];
    if (p->listed + n > MAX_LISTED && p->listed)
        return 1;
    uint32_t *list = malloc((n ? n : 1) * sizeof *list);
    if (!list)
        return -1;
    n = 0;
    for (uint32_t g = 0; g < p->ngroups; g++)
        if (v->kind[g] == STEP_VISIBLE)
            for (uint32_t k = p->gstart[g]; k < p->gstart[g + 1]; k++)
                list[n++] = p->members[k];
    p->listed += n;
    v->group = p->group;
    v->visible = list;
    v->nvisible = n;
    return 0;
}

/* Per automaton state, where the formula is of actions only and the
 * tables stay small; states that do not qualify keep the shared view. */
static int own_views(ltl_por *p, const cnet_t *cn, const tgba *a, const uint32_t *rep)
{
    if ((uint64_t)a->nstates * p->ngroups > MAX_STATE_GROUPS)
        return 0;
    p->own = calloc(a->nstates ? a->nstates : 1, sizeof *p->own);
    if (!p->own)
        return -1;
    p->nstates = a->nstates;
    for (uint32_t q = 0; q < a->nstates; q++) {
        uint8_t *kind = malloc(p->ngroups);
        if (!kind)
            return -1;
        int r = classify(cn, &a->states[q], q, rep, p->ngroups, kind);
        if (r <= 0) {
            free(kind);
            if (r < 0)
                return -1;
            continue;
        }
        p->own[q].kind = kind;
        int r2 = list_visible(p, &p->own[q]);
        if (r2 < 0)
            return -1;
        if (r2 > 0) {   /* the tables are full: the rest share the view */
            p->own[q].kind = NULL;
            free(kind);
            return 0;
        }
        p->nown++;
    }
    return 0;
}

ltl_por *ltl_por_new(const cnet_t *cn, const tree_t *formula, const tgba *a)
{
    uint32_t T = cn->ntransitions;
    ltl_por *p = calloc(1, sizeof *p);
    uint32_t *rep = malloc(MAX_GROUPS * sizeof *rep);
    uint8_t *visible = calloc((size_t)T + 1, 1);
    if (!p || !rep || !visible || !(p->group = malloc(((size_t)T + 1) * sizeof *p->group)))
        goto fail;
    int ng = visible_step_groups(cn, formula, p->group, rep, MAX_GROUPS);
    if (ng > 0) {
        p->ngroups = (uint32_t)ng;
    } else {
        /* two groups: what the formula observes, and the rest */
        if (visible_steps(cn, formula, visible) < 0) {
            ltl_por_free(p);
            p = NULL;
            goto out;
        }
        for (uint32_t t = 0; t < T; t++)
            p->group[t] = visible[t] != 0;
        p->ngroups = 2;
    }
    if (!(p->shared_kind = malloc(p->ngroups)))
        goto fail;
    p->shared_kind[0] = STEP_INVISIBLE;
    for (uint32_t g = 1; g < p->ngroups; g++)
        p->shared_kind[g] = STEP_VISIBLE;
    p->shared.kind = p->shared_kind;
    if (index_groups(p, T) < 0 || list_visible(p, &p->shared) < 0)
        goto fail;
    p->shared_visible = (uint32_t *)p->shared.visible;
    if (ng > 0 && own_views(p, cn, a, rep) < 0)
        goto fail;
    goto out;
fail:
    ltl_por_free(p);
    p = NULL;
out:
    free(rep);
    free(visible);
    return p;
}

const step_view *ltl_por_view(const ltl_por *p, uint32_t q)
{
    return q < p->nstates && p->own[q].kind ? &p->own[q] : &p->shared;
}

uint32_t ltl_por_own_views(const ltl_por *p)
{
    return p->nown;
}

void ltl_por_free(ltl_por *p)
{
    if (!p)
        return;
    for (uint32_t q = 0; q < p->nstates; q++) {
        free((uint8_t *)p->own[q].kind);
        free((uint32_t *)p->own[q].visible);
    }
    free(p->own);
    free(p->shared_kind);
    free(p->shared_visible);
    free(p->group);
    free(p->gstart);
    free(p->members);
    free(p);
}
