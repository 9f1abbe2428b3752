/* The two deciders that need neither search nor solver.
 *
 * initial marking: "E F φ" holds when φ holds at m0, "A G φ" fails when φ
 * fails there, and m0's token sum is a reachable value of a bound.
 *
 * structure: the facts of structure.c hold in every reachable marking —
 * frozen places keep their initial count, never-enabled transitions stay
 * disabled.  A state formula whose value they fix has that value
 * everywhere, so "E F φ" and "A G φ" both equal it.  A bound whose sum no
 * transition that may fire can increase never exceeds its initial value. */
#include "engine/stateeval.h"
#include "mcc/prepass.h"

#include <stdlib.h>

static mcc_u128 initial_sum(const cnet_t *cn, const tree_t *bound)
{
    mcc_u128 sum = 0;
    for (uint32_t i = 0; i < bound->n; i++)
        sum += cn->initial[bound->items[i]];
    return sum;
}

void mcc_decide_initial(const mcc_run *r, mcc_query *const *open, size_t n, double deadline)
{
    (void)deadline;
    for (size_t i = 0; i < n; i++) {
        mcc_query *q = open[i];
        if (q->cls == MCC_BOUND) {
            mcc_query_lower(q, initial_sum(r->cn, q->formula), "INITIAL_STATE");
            continue;
        }
        int v = cn_state_holds(r->cn, q->formula->l, r->cn->initial);
        if (v < 0)
            continue;
        /* the empty run shows it */
        mcc_evidence ev = {v ? RUN_WITNESS : RUN_COUNTEREXAMPLE, NULL, 0, RESULT_NO_LOOP};
        if (q->formula->op == T_EF && v)
            mcc_query_settle_shown(q, 1, "INITIAL_STATE", &ev);
        else if (q->formula->op == T_AG && !v)
            mcc_query_settle_shown(q, 0, "INITIAL_STATE", &ev);
    }
}

/* ---- structure ---- */

#define UNKNOWN 2

static int always_enabled(const mcc_run *r, uint32_t t)
{
    const cnet_t *cn = r->cn;
    for (uint32_t i = cn->need_start[t]; i < cn->need_start[t + 1]; i++) {
        uint32_t p = cn->need_place[i];
        if (!r->st.frozen[p] || cn->initial[p] < cn->need_weight[i])
            return 0;
    }
    return 1;
}

static int fireable_value(const mcc_run *r, const tree_t *f)
{
    int all_dead = 1;
    for (uint32_t i = 0; i < f->n; i++) {
        uint32_t t = f->items[i];
        if (always_enabled(r, t))
            return 1;
        if (r->st.may_fire[t])
            all_dead = 0;
    }
    return all_dead ? 0 : UNKNOWN;
}

static int cmp_value(const mcc_run *r, const tree_t *f)
{
    for (uint32_t i = 0; i < f->nterms; i++)
        if (!r->st.frozen[f->terms[i].place])
            return UNKNOWN;
    int v = cn_state_holds(r->cn, f, r->cn->initial);
    return v < 0 ? UNKNOWN : v;
}

/* The value of a state formula in every reachable marking: 0, 1, or
 * UNKNOWN when the facts do not fix it. */
static int fixed_value(const mcc_run *r, const tree_t *f)
{
    int a, b;
    switch (f->op) {
    case T_TRUE: return 1;
    case T_FALSE: return 0;
    case T_DEADLOCK: return r->st.never_deadlocks ? 0 : UNKNOWN;
    case T_FIREABLE: return fireable_value(r, f);
    case T_CMP: return cmp_value(r, f);
    case T_NOT:
        a = fixed_value(r, f->l);
        return a == UNKNOWN ? UNKNOWN : !a;
    case T_AND:
    case T_OR:
    case T_IMPLIES:
        a = fixed_value(r, f->l);
        if (f->op == T_IMPLIES && a != UNKNOWN)
            a = !a;
        /* a is now the left operand of an AND or OR */
        if ((f->op == T_AND && a == 0) || (f->op != T_AND && a == 1))
            return a;
        b = fixed_value(r, f->r);
        if ((f->op == T_AND && b == 0) || (f->op != T_AND && b == 1))
            return b;
        return a == UNKNOWN || b == UNKNOWN ? UNKNOWN : b;
    case T_IFF:
        a = fixed_value(r, f->l);
        b = fixed_value(r, f->r);
        return a == UNKNOWN || b == UNKNOWN ? UNKNOWN : a == b;
    default:
        return UNKNOWN;
    }
}

/* Whether some transition that may fire increases the sum of the bound's
 * places (counted with multiplicity, as the sum is). */
static int sum_can_grow(const mcc_run *r, const tree_t *bound, int64_t *mult)
{
    const cnet_t *cn = r->cn;
    for (uint32_t i = 0; i < bound->n; i++)
        mult[bound->items[i]]++;
    int grows = 0;
    for (uint32_t t = 0; t < cn->ntransitions && !grows; t++) {
        if (!r->st.may_fire[t])
            continue;
        __int128 d = 0;
        for (uint32_t i = cn->eff_start[t]; i < cn->eff_start[t + 1]; i++)
            d += (__int128)cn->eff_delta[i] * mult[cn->eff_place[i]];
        grows = d > 0;
    }
    for (uint32_t i = 0; i < bound->n; i++)
        mult[bound->items[i]] = 0;
    return grows;
}

void mcc_decide_topological(const mcc_run *r, mcc_query *const *open, size_t n,
                            double deadline)
{
    (void)deadline;
    int64_t *mult = calloc(r->cn->nplaces ? r->cn->nplaces : 1, sizeof *mult);
    if (!mult)
        return;
    for (size_t i = 0; i < n; i++) {
        mcc_query *q = open[i];
        if (q->decided)
            continue;
        if (q->cls == MCC_BOUND) {
            if (!sum_can_grow(r, q->formula, mult))
                mcc_query_upper(q, initial_sum(r->cn, q->formula), "TOPOLOGICAL");
            continue;
        }
        int v = fixed_value(r, q->formula->l);
        if (v != UNKNOWN)
            mcc_query_settle(q, v, "TOPOLOGICAL INITIAL_STATE");
    }
    free(mult);
}
