/* Lifting a lasso of the final composite, or of the product of the last
 * parts, to a lasso of the net (composeint.h).
 *
 * Every node's minimised states are the classes of a strong bisimulation
 * of what lies below it, and a product of bisimulations is one of the
 * product, so "marking m is in final state q" (co_state_of) is a strong
 * bisimulation between the net, its steps read as letters, and the final
 * composite.  Hence from a marking in the source of an abstract edge,
 * some transition of the edge's letter leads into its target: each step
 * lifts.  The loop lifts to a path that ends where it started only
 * abstractly; the concrete marking may differ.  Taking the first fitting
 * transition each time makes the marking at each start of the loop a
 * function of the one before, so the markings repeat after at most as
 * many turns as the loop's first state has concrete markings, and the
 * turns from the first repetition on are a concrete loop with the same
 * letters: the same word, so the same counterexample. */
#include "checkers/compose/composeint.h"

#include <stdlib.h>
#include <string.h>

void co_state_of(const co_comps *c, const co_node *nodes, uint32_t nnodes, const nc_count *m,
                 uint32_t flag, uint32_t *val)
{
    for (uint32_t i = 0; i < nnodes; i++) {
        const co_node *N = &nodes[i];
        if (N->flag) {
            val[i] = N->state_block[flag];
        } else if (N->left < 0) {
            uint32_t k = N->comp, local = CO_NONE;
            for (uint32_t j = c->comp_first[k]; j < c->comp_first[k + 1]; j++)
                if (m[c->comp_place[j]]) {
                    local = j - c->comp_first[k];
                    break;
                }
            val[i] = local == CO_NONE ? CO_NONE : N->state_block[local];
        } else {
            uint32_t x = val[N->left], y = val[N->right];
            uint32_t raw = x == CO_NONE || y == CO_NONE ? CO_NONE : co_pairs_find(&N->pairs, x, y);
            val[i] = raw == CO_NONE ? CO_NONE : N->state_block[raw];
        }
    }
}

typedef struct lifter {
    co_mem *cm;
    const cnet_t *cn;
    const co_comps *c;
    const co_letters *L;
    const co_node *nodes;
    uint32_t nnodes;
    nc_count *m, *next;
    uint32_t *val;
    uint32_t *run;
    size_t len, cap;
    /* the markings at the starts of the loop's turns, as each component's
     * local state, and a table of them */
    co_tuples seen;             /* width: the components */
    uint32_t *v;
} lifter;

/* One abstract step: the first enabled transition of its letter into its
 * states; -1 when there is none (a bug) or on a limit. */
static int lift_step(lifter *f, const co_abstract_run *ar, size_t step)
{
    const cnet_t *cn = f->cn;
    uint32_t letter = ar->letter[step];
    const uint32_t *target = ar->dst + step * ar->nparts;
    for (uint32_t t = 0; t < cn->ntransitions; t++) {
        if (f->L->trans_letter[t] != letter || !cn_enabled(cn, f->m, t))
            continue;
        memcpy(f->next, f->m, cn->nplaces * sizeof *f->next);
        if (cn_fire(cn, f->next, t) < 0)
            continue;
        co_state_of(f->c, f->nodes, f->nnodes, f->next, 0, f->val);
        uint32_t i = 0;
        while (i < ar->nparts && f->val[ar->part[i]] == target[i])
            i++;
        if (i < ar->nparts)
            continue;
        if (co_tick(f->cm) < 0 || co_grow(f->cm, &f->run, &f->cap, f->len + 1, sizeof *f->run) < 0)
            return -1;
        f->run[f->len++] = t;
        memcpy(f->m, f->next, cn->nplaces * sizeof *f->m);
        return 0;
    }
    if (!f->cm->gave_up)
        f->cm->gave_up = "a step of the reduced counterexample did not lift (a bug)";
    return -1;
}

/* The turn whose start had the current marking, or -1 after recording
 * it as the next turn; -2 on a limit. */
static int64_t seen_before(lifter *f)
{
    uint32_t n = f->c->n;
    for (uint32_t k = 0; k < n; k++)
        for (uint32_t j = f->c->comp_first[k]; j < f->c->comp_first[k + 1]; j++)
            if (f->m[f->c->comp_place[j]])
                f->v[k] = j - f->c->comp_first[k];
    int added;
    uint32_t turn = co_tuples_add(f->cm, &f->seen, f->v, &added);
    if (turn == CO_NONE)
        return -2;
    return added ? -1 : (int64_t)turn;
}

int co_lift(co_mem *cm, const cnet_t *cn, const co_comps *c, const co_letters *L,
            const co_node *nodes, uint32_t nnodes, const co_abstract_run *ar, result_t *res)
{
    lifter f;
    memset(&f, 0, sizeof f);
    f.cm = cm;
    f.cn = cn;
    f.c = c;
    f.L = L;
    f.nodes = nodes;
    f.nnodes = nnodes;
    co_tuples_init(&f.seen, c->n, 0);
    int rc = -1;
    size_t loop_at = RESULT_NO_LOOP;
    if (!(f.m = co_alloc(cm, cn->nplaces, sizeof *f.m)) ||
        !(f.next = co_alloc(cm, cn->nplaces, sizeof *f.next)) ||
        !(f.val = co_alloc(cm, nnodes, sizeof *f.val)) ||
        !(f.v = co_alloc(cm, c->n, sizeof *f.v)))
        goto out;
    memcpy(f.m, cn->initial, cn->nplaces * sizeof *f.m);
    for (size_t i = 0; i < ar->loop_start && i < ar->len; i++)
        if (lift_step(&f, ar, i) < 0)
            goto out;
    if (ar->loop_start >= ar->len) {
        loop_at = ar->loop_start == ar->len ? f.len : RESULT_NO_LOOP;
    } else {
        size_t turn_len = f.len;
        for (;;) {
            int64_t turn = seen_before(&f);
            if (turn == -2)
                goto out;
            if (turn >= 0) {
                loop_at = turn_len + (size_t)turn * (ar->len - ar->loop_start);
                break;
            }
            for (size_t i = ar->loop_start; i < ar->len; i++)
                if (lift_step(&f, ar, i) < 0)
                    goto out;
        }
    }
    if (result_set_run(res, RUN_COUNTEREXAMPLE, f.run, f.len, loop_at) < 0) {
        cm->gave_up = "memory budget exhausted";
        goto out;
    }
    rc = 0;
out:
    co_free(cm, f.m, cn->nplaces, sizeof *f.m);
    co_free(cm, f.next, cn->nplaces, sizeof *f.next);
    co_free(cm, f.val, nnodes, sizeof *f.val);
    co_free_grown(cm, &f.run, &f.cap, sizeof *f.run);
    co_free(cm, f.v, c->n, sizeof *f.v);
    co_tuples_free(cm, &f.seen);
    return rc;
}
