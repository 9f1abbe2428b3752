/* One relation per transition over the blocks it reads and changes only,
 * and the order chaining fires them in. */
#include "symbolic/symint.h"

#include <stdlib.h>

/* The part of transition t's relation on group block b: its condition on
 * the current value (*cond), its next value (*rel, when it changes it)
 * and the values where firing would leave the group (*ovf); *from and *to
 * the one value before and after firing when there is one (*to
 * UINT32_MAX when not). */
static void group_part(sym_t *s, uint32_t t, uint32_t bi, BDD *cond, BDD *rel, BDD *ovf,
                       int *changes, uint32_t *from_fixed, uint32_t *to_fixed)
{
    *to_fixed = UINT32_MAX;
    const cnet_t *cn = s->cn;
    const blk *b = &s->blocks[bi];
    uint32_t need = UINT32_MAX;
    int impossible = 0;
    for (uint32_t i = cn->need_start[t]; i < cn->need_start[t + 1]; i++) {
        uint32_t p = cn->need_place[i];
        if (s->block_of[p] != bi)
            continue;
        if (cn->need_weight[i] > 1 || (need != UINT32_MAX && need != s->pos_in[p]))
            impossible = 1;
        need = s->pos_in[p];
    }
    *changes = 0;
    for (uint32_t i = cn->eff_start[t]; i < cn->eff_start[t + 1]; i++)
        if (s->block_of[cn->eff_place[i]] == bi)
            *changes = 1;
    *cond = impossible ? bdd_addref(bdd_false())
            : need != UINT32_MAX ? sym_block_eq(b, need, 0) : bdd_addref(bdd_true());
    *rel = bdd_addref(bdd_false());
    *ovf = bdd_addref(bdd_false());
    if (impossible || !*changes)
        return;
    /* from each value the token may be at, where the deltas put it */
    for (uint32_t from = need != UINT32_MAX ? need : 0;
         from < (need != UINT32_MAX ? need + 1 : b->n); from++) {
        uint32_t to = UINT32_MAX, ones = 0;
        int listed = 0, under = 0, over = 0;
        for (uint32_t i = cn->eff_start[t]; i < cn->eff_start[t + 1]; i++) {
            uint32_t p = cn->eff_place[i];
            if (s->block_of[p] != bi)
                continue;
            int64_t v = (s->pos_in[p] == from) + cn->eff_delta[i];
            listed |= s->pos_in[p] == from;
            if (v < 0)
                under = 1;
            else if (v > 1)
                over = 1;
            else if (v == 1) {
                ones++;
                to = s->pos_in[p];
            }
        }
        if (!listed) {
            ones++;
            to = from;
        }
        if (under)
            continue;   /* not enabled there: what it takes, it needs */
        BDD here = sym_block_eq(b, from, 0);
        if (over || ones != 1) {
            or_in(ovf, here);
        } else {
            BDD there = sym_block_eq(b, to, 1);
            BDD step = o_and(here, there);
            or_take(rel, step);
            drop(there);
            if (need != UINT32_MAX) {
                *from_fixed = need;
                *to_fixed = to;
            }
        }
        drop(here);
    }
}

/* Place block b changed by delta: next = current + delta, and where it
 * would pass the width. */
static void place_part(const blk *b, int64_t delta, BDD *rel, BDD *ovf)
{
    int w = (int)b->width + 1;
    uint64_t max = ((uint64_t)1 << b->width) - 1;
    uint64_t mag = delta < 0 ? (uint64_t)0 - (uint64_t)delta : (uint64_t)delta;
    if (mag > max) {
        /* a consumption this large is never enabled; a production this
         * large always overflows */
        *rel = bdd_addref(bdd_false());
        *ovf = bdd_addref(delta > 0 ? bdd_true() : bdd_false());
        return;
    }
    bvec cur = sym_block_vec(b, 0, w), nxt = sym_block_vec(b, 1, w), k = sym_con_vec(mag, w);
    bvec sum = bvec_add(delta > 0 ? cur : nxt, k);
    *rel = bdd_addref(bvec_equ(sum, delta > 0 ? nxt : cur));
    bvec lim = sym_con_vec(max, w);
    *ovf = delta > 0 ? bdd_addref(bvec_gth(sum, lim)) : bdd_addref(bdd_false());
    bvec_free(lim);
    bvec_free(sum);
    bvec_free(k);
    bvec_free(nxt);
    bvec_free(cur);
}

int sym_make_relation(sym_t *s, uint32_t t, uint8_t *seen, int *cvars, int *nvars)
{
    const cnet_t *cn = s->cn;
    trel *r = &s->tr[t];
    r->en = bdd_addref(bdd_true());
    r->ovf = bdd_addref(bdd_false());
    r->top = UINT32_MAX;
    r->fixed = 1;
    BDD before = bdd_addref(bdd_true());
    r->after = bdd_addref(bdd_true());
    BDD changes = bdd_addref(bdd_true());
    uint32_t nv = 0;
    /* plain places' needs */
    for (uint32_t i = cn->need_start[t]; i < cn->need_start[t + 1]; i++) {
        uint32_t p = cn->need_place[i];
        const blk *b = &s->blocks[s->block_of[p]];
        r->top = b->top < r->top ? b->top : r->top;
        if (!b->places)
            and_take(&r->en, sym_place_ge(s, p, cn->need_weight[i]));
    }
    /* each block it needs or changes, once */
    for (int pass = 0; pass < 2; pass++) {
        uint32_t lo = pass ? cn->eff_start[t] : cn->need_start[t];
        uint32_t hi = pass ? cn->eff_start[t + 1] : cn->need_start[t + 1];
        for (uint32_t i = lo; i < hi; i++) {
            uint32_t p = pass ? cn->eff_place[i] : cn->need_place[i];
            uint32_t bi = s->block_of[p];
            const blk *b = &s->blocks[bi];
            if (seen[bi] || (!pass && !b->places))
                continue;
            seen[bi] = 1;
            r->top = b->top < r->top ? b->top : r->top;
            BDD cond, rel, ovf;
            int moved = 0;
            uint32_t from = 0, to = UINT32_MAX;
            if (b->places) {
                group_part(s, t, bi, &cond, &rel, &ovf, &moved, &from, &to);
                and_take(&r->en, cond);
            } else {
                place_part(b, cn->eff_delta[i], &rel, &ovf);
                moved = 1;
                if (b->width == 1 && (cn->eff_delta[i] == 1 || cn->eff_delta[i] == -1)) {
                    from = cn->eff_delta[i] < 0;
                    to = 1 - from;
                }
            }
            if (moved && to == UINT32_MAX)
                r->fixed = 0;
            else if (moved) {
                and_take(&before, sym_block_eq(b, from, 0));
                and_take(&r->after, sym_block_eq(b, to, 0));
            }
            if (moved) {
                and_take(&changes, rel);
                or_take(&r->ovf, ovf);
                for (uint32_t k = 0; k < b->width; k++) {
                    cvars[nv] = block_var(b, k, 0);
                    nvars[nv++] = block_var(b, k, 1);
                }
            } else {
                drop(rel);
                drop(ovf);
            }
        }
    }
    for (uint32_t i = cn->need_start[t]; i < cn->need_start[t + 1]; i++)
        seen[s->block_of[cn->need_place[i]]] = 0;
    for (uint32_t i = cn->eff_start[t]; i < cn->eff_start[t + 1]; i++)
        seen[s->block_of[cn->eff_place[i]]] = 0;
    r->moves = cn->eff_start[t + 1] > cn->eff_start[t];
    r->rel = o_and(r->en, changes);
    drop(changes);
    r->en_before = o_and(r->en, before);
    drop(before);
    and_in(&r->ovf, r->en);
    r->curcube = bdd_addref(bdd_makeset(cvars, (int)nv));
    r->nxtcube = bdd_addref(bdd_makeset(nvars, (int)nv));
    return 0;
}

static int descending(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? 1 : x > y ? -1 : 0;
}

/* The moving transitions by their topmost bit, bottom first (chaining's
 * groups), in net order within a group. */
int sym_sort_order(sym_t *s)
{
    uint64_t *key = malloc((s->nmoving ? s->nmoving : 1) * sizeof *key);
    if (!key)
        return -1;
    for (uint32_t i = 0; i < s->nmoving; i++)
        key[i] = (uint64_t)s->tr[s->order[i]].top << 32 | (uint32_t)~s->order[i];
    qsort(key, s->nmoving, sizeof *key, descending);
    for (uint32_t i = 0; i < s->nmoving; i++)
        s->order[i] = ~(uint32_t)key[i];
    free(key);
    return 0;
}
