/* CTL by fixpoints over the whole reachable set, on maximal paths. */
#include "symbolic/symint.h"

#include <stdio.h>

/* The reachable markings with a successor in set: through each moving
 * transition's preimage, and a transition that changes nothing steps from
 * a marking of set to itself. */
static BDD ex(sym_t *s, BDD set)
{
    BDD r = bdd_addref(bdd_false());
    for (uint32_t t = 0; t < s->cn->ntransitions && !sym_stop(s); t++)
        or_take(&r, s->tr[t].moves ? sym_preimage(s, set, t) : o_and(set, s->tr[t].en));
    and_in(&r, s->reach);
    return r;
}

/* R and not x */
static BDD within_not(sym_t *s, BDD x)
{
    return o_diff(s->reach, x);
}

static BDD ax(sym_t *s, BDD set)
{
    BDD out = within_not(s, set);
    BDD some = ex(s, out);
    drop(out);
    BDD r = within_not(s, some);
    drop(some);
    return r;
}

/* The least or greatest fixpoint of the step for one of the operators
 * below, from start; stops (returning what it has) with the clock. */
enum { FIX_EU, FIX_AU, FIX_EG };

static BDD fixpoint(sym_t *s, int kind, BDD phi, BDD psi, BDD dead)
{
    BDD z = bdd_addref(kind == FIX_EG ? phi : psi);
    while (!sym_stop(s)) {
        BDD step, next;
        if (kind == FIX_EG) {
            /* E G phi: phi and (a successor in Z, or a deadlock) */
            step = ex(s, z);
            or_in(&step, dead);
            next = o_and(phi, step);
        } else {
            /* E[phi U psi]: psi or phi and a successor in Z;
             * A[phi U psi]: psi or phi, not dead, and every successor in Z */
            step = kind == FIX_EU ? ex(s, z) : ax(s, z);
            if (kind == FIX_AU) {
                BDD live = o_diff(step, dead);
                drop(step);
                step = live;
            }
            BDD both = o_and(phi, step);
            next = o_or(z, both);
            drop(both);
        }
        drop(step);
        int same = next == z;
        drop(z);
        z = next;
        if (same)
            break;
    }
    return z;
}

/* The reachable markings where f holds; recursion as deep as the formula,
 * which the readers bound. */
static BDD ctl_bdd(sym_t *s, const tree_t *f, BDD dead, int *unsupported)
{
    if (*unsupported || !f || sym_stop(s))
        return bdd_addref(bdd_false());
    if (tree_is_state_formula(f)) {
        BDD x = sym_formula_bdd(s, f, unsupported);
        and_in(&x, s->reach);
        return x;
    }
    BDD a = ctl_bdd(s, f->l, dead, unsupported), b = bdd_addref(bdd_false()), r;
    switch (f->op) {
    case T_NOT:
        r = within_not(s, a);
        break;
    case T_AND: case T_OR: case T_IMPLIES: case T_IFF: {
        drop(b);
        b = ctl_bdd(s, f->r, dead, unsupported);
        int op = f->op == T_AND ? bddop_and : f->op == T_OR ? bddop_or
                 : f->op == T_IMPLIES ? bddop_imp : bddop_biimp;
        r = bdd_addref(bdd_apply(a, b, op));
        and_in(&r, s->reach);
        break;
    }
    case T_EX:
        r = ex(s, a);
        break;
    case T_AX:
        r = ax(s, a);
        break;
    case T_EF:
        r = fixpoint(s, FIX_EU, s->reach, a, dead);
        break;
    case T_AF:
        r = fixpoint(s, FIX_AU, s->reach, a, dead);
        break;
    case T_EG:
        r = fixpoint(s, FIX_EG, a, bdd_false(), dead);
        break;
    case T_AG: {
        BDD out = within_not(s, a);
        BDD bad = fixpoint(s, FIX_EU, s->reach, out, dead);
        r = within_not(s, bad);
        drop(out);
        drop(bad);
        break;
    }
    case T_EU: case T_AU:
        drop(b);
        b = ctl_bdd(s, f->r, dead, unsupported);
        r = fixpoint(s, f->op == T_EU ? FIX_EU : FIX_AU, a, b, dead);
        break;
    default:
        *unsupported = 1;
        r = bdd_addref(bdd_false());
    }
    drop(a);
    drop(b);
    return r;
}

/* E F and A G of a state formula at the initial marking need no
 * fixpoint: every marking of the reachable set is on some path from it,
 * so E F φ holds when φ meets the set and A G φ when it covers it.
 * -1: f is not of that shape. */
static int reachability_at_top(sym_t *s, const tree_t *f, int *unsupported)
{
    if ((f->op != T_EF && f->op != T_AG) || !f->l || !tree_is_state_formula(f->l))
        return -1;
    BDD x = sym_formula_bdd(s, f->l, unsupported);
    and_in(&x, s->reach);
    int value = f->op == T_EF ? x != bdd_false() : x == s->reach;
    drop(x);
    return value;
}

int sym_ctl(sym_t *s, const tree_t *f, char *why, size_t whylen)
{
    if (!s->reached) {
        snprintf(why, whylen, "symbolic: CTL needs the whole reachable set");
        return -1;
    }
    int unsupported_top = 0, top = reachability_at_top(s, f, &unsupported_top);
    if (top >= 0 && !unsupported_top && !sym_stop(s))
        return top;
    BDD dead = sym_in_goal_dead(s, s->reach);
    int unsupported = 0;
    BDD holds = ctl_bdd(s, f, dead, &unsupported);
    BDD at = o_and(holds, s->init);
    int value = at != bdd_false();
    drop(at);
    drop(holds);
    drop(dead);
    if (unsupported) {
        snprintf(why, whylen, "symbolic: ctl needs a CTL formula with comparisons in %d bits",
                 MAX_CMP_BITS);
        return -1;
    }
    if (sym_stop(s)) {
        snprintf(why, whylen, "%s", s->reason);
        return -1;
    }
    return value;
}
