/* Goals: deadlocks and state formulas as sets of markings, and the test
 * of a set against the goal. */
#include "symbolic/symint.h"

#include <stdio.h>

/* The dead markings are one diagram while it takes fewer nodes than this. */
#define DEAD_NODES_MAX (1 << 20)

/* The markings of set where no transition is enabled, referenced. */
BDD sym_in_goal_dead(sym_t *s, BDD set)
{
    BDD dead = bdd_addref(set);
    for (uint32_t t = 0; t < s->cn->ntransitions && dead != bdd_false() && !sym_stop(s); t++) {
        BDD x = o_diff(dead, s->tr[t].en);
        drop(dead);
        dead = x;
    }
    return dead;
}

/* The markings of set in the goal, referenced. */
BDD sym_in_goal(sym_t *s, BDD set)
{
    if (s->goal_kind == GOAL_SET)
        return o_and(set, s->goal);
    if (s->goal_kind == GOAL_NONE)
        return bdd_addref(bdd_false());
    return sym_in_goal_dead(s, set);
}

int sym_hits(sym_t *s, BDD set)
{
    BDD x = sym_in_goal(s, set);
    int hit = x != bdd_false() && !sym_stop(s);
    drop(x);
    return hit;
}

int sym_goal_deadlock(sym_t *s)
{
    /* one diagram of the dead markings makes each look for them one
     * conjunction; where it grows large, they are found in the reachable
     * set transition by transition instead */
    int start = bdd_getnodenum();
    BDD dead = bdd_addref(bdd_true());
    for (uint32_t t = 0; t < s->cn->ntransitions && !sym_stop(s); t++) {
        and_take(&dead, o_not(s->tr[t].en));
        if (bdd_getnodenum() - start > DEAD_NODES_MAX) {
            drop(dead);
            s->goal_kind = GOAL_DEAD;
            return 0;
        }
    }
    drop(s->goal);
    s->goal = dead;
    s->goal_kind = GOAL_SET;
    return sym_stop(s) ? -1 : 0;
}

/* sum(coef * M(p)) + constant REL 0, as positive side REL negative side. */
static BDD cmp_bdd(sym_t *s, const tree_t *f, int *unsupported)
{
    u128 pos = 0, neg = 0;
    for (uint32_t i = 0; i < f->nterms; i++) {
        u128 c = f->terms[i].coef < 0 ? (u128)0 - (u128)(__int128)f->terms[i].coef
                                      : (u128)f->terms[i].coef;
        u128 term = c * (u128)sym_place_max(s, f->terms[i].place);
        if (sym_bits_of(c) + sym_bits_of(sym_place_max(s, f->terms[i].place)) > MAX_CMP_BITS - 2) {
            *unsupported = 1;
            return bdd_addref(bdd_false());
        }
        if (f->terms[i].coef < 0)
            neg += term;
        else
            pos += term;
        if (sym_bits_of(pos) > MAX_CMP_BITS - 2 || sym_bits_of(neg) > MAX_CMP_BITS - 2) {
            *unsupported = 1;
            return bdd_addref(bdd_false());
        }
    }
    u128 k = f->constant < 0 ? (u128)0 - (u128)(__int128)f->constant : (u128)f->constant;
    int w = (int)sym_bits_of((pos > neg ? pos : neg) + k) + 1;
    if (w > MAX_CMP_BITS) {
        *unsupported = 1;
        return bdd_addref(bdd_false());
    }
    bvec side[2] = {sym_con_vec(f->constant > 0 ? k : 0, w),
                    sym_con_vec(f->constant < 0 ? k : 0, w)};
    for (uint32_t i = 0; i < f->nterms; i++) {
        int64_t coef = f->terms[i].coef;
        if (!coef || !sym_place_max(s, f->terms[i].place))
            continue;
        u128 c = coef < 0 ? (u128)0 - (u128)(__int128)coef : (u128)coef;
        bvec x = sym_place_vec(s, f->terms[i].place, w);
        bvec *acc = &side[coef < 0];
        for (unsigned j = 0; j < (unsigned)w && c >> j; j++) {
            if (!((c >> j) & 1))
                continue;
            bvec sh = bvec_shlfixed(x, (int)j, bdd_false());
            bvec sum = bvec_add(*acc, sh);
            bvec_free(sh);
            bvec_free(*acc);
            *acc = sum;
        }
        bvec_free(x);
    }
    BDD r;
    switch (f->rel) {
    case REL_EQ: r = bvec_equ(side[0], side[1]); break;
    case REL_NE: r = bvec_neq(side[0], side[1]); break;
    case REL_LT: r = bvec_lth(side[0], side[1]); break;
    case REL_LE: r = bvec_lte(side[0], side[1]); break;
    case REL_GT: r = bvec_gth(side[0], side[1]); break;
    default: r = bvec_gte(side[0], side[1]); break;
    }
    r = bdd_addref(r);
    bvec_free(side[0]);
    bvec_free(side[1]);
    return r;
}

/* The formula's markings; recursion as deep as the formula, which the
 * readers bound (FY_MAX_DEPTH, MCCXML_MAX_DEPTH). */
BDD sym_formula_bdd(sym_t *s, const tree_t *f, int *unsupported)
{
    if (*unsupported || !f)
        return bdd_addref(bdd_false());
    switch (f->op) {
    case T_TRUE:
        return bdd_addref(bdd_true());
    case T_FALSE:
        return bdd_addref(bdd_false());
    case T_DEADLOCK: {
        BDD dead = bdd_addref(bdd_true());
        for (uint32_t t = 0; t < s->cn->ntransitions && !sym_stop(s); t++)
            and_take(&dead, o_not(s->tr[t].en));
        return dead;
    }
    case T_FIREABLE: {
        BDD any = bdd_addref(bdd_false());
        for (uint32_t i = 0; i < f->n && !sym_stop(s); i++)
            if (f->items[i] < s->cn->ntransitions)
                or_in(&any, s->tr[f->items[i]].en);
        return any;
    }
    case T_CMP:
        return cmp_bdd(s, f, unsupported);
    case T_NOT: {
        BDD x = sym_formula_bdd(s, f->l, unsupported);
        BDD r = o_not(x);
        drop(x);
        return r;
    }
    case T_AND: case T_OR: case T_IMPLIES: case T_IFF: {
        BDD a = sym_formula_bdd(s, f->l, unsupported);
        BDD b = sym_formula_bdd(s, f->r, unsupported);
        int op = f->op == T_AND ? bddop_and : f->op == T_OR ? bddop_or
                 : f->op == T_IMPLIES ? bddop_imp : bddop_biimp;
        BDD r = bdd_addref(bdd_apply(a, b, op));
        drop(a);
        drop(b);
        return r;
    }
    default:
        *unsupported = 1;
        return bdd_addref(bdd_false());
    }
}

int sym_goal_formula(sym_t *s, const tree_t *f, char *why, size_t whylen)
{
    int unsupported = 0;
    BDD g = sym_formula_bdd(s, f, &unsupported);
    if (unsupported) {
        drop(g);
        snprintf(why, whylen, "symbolic: reach needs a state formula with comparisons in %d bits",
                 MAX_CMP_BITS);
        return -1;
    }
    drop(s->goal);
    s->goal = g;
    s->goal_kind = GOAL_SET;
    if (sym_stop(s)) {
        snprintf(why, whylen, "%s", s->reason);
        return -1;
    }
    return 0;
}
