/* CTL by fixpoints over the whole reachable set, on maximal paths. */
#include "symbolic/symint.h"

#include <stdio.h>
#include <stdlib.h>

/* What a formula's earlier calls left (sym_ctl_resume): per subformula
 * its markings once computed (done), or, for a fixpoint whose operands
 * were complete when the clock stopped it, the last complete round to go
 * on from: for the least fixpoints (E U, A U) a set between the start
 * and the result, for E G's greatest one a set between the result and
 * phi, so that iterating from it ends at the same fixpoint. */
typedef struct {
    const tree_t *f;
    BDD set;
    int done;
} kept_entry;

struct sym_ctl_kept {
    kept_entry *e;
    size_t n, cap;
    BDD dead;
    int have_dead;
};

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

/* A[phi U psi] and E G phi: the plain rounds, each over the whole set.
 * Asking only the predecessors of what the last round changed (as eu
 * does) made them slower: the candidates, an arbitrary part of R, took
 * far more nodes than R less the set (ShieldIIPt-PT-004A: 100,000
 * against 6,000).  Both stop (returning what they have) with the clock. */
enum { FIX_AU, FIX_EG };

static BDD fixpoint(sym_t *s, int kind, BDD phi, BDD psi, BDD dead, BDD from)
{
    BDD z = bdd_addref(from != bdd_false() ? from : kind == FIX_EG ? phi : psi);
    while (!sym_stop(s)) {
        BDD step, next;
        if (kind == FIX_EG) {
            /* phi, and a successor in Z or a deadlock */
            step = ex(s, z);
            or_in(&step, dead);
            next = o_and(phi, step);
        } else {
            /* psi, or phi, not dead, and every successor in Z */
            BDD all = ax(s, z);
            step = o_diff(all, dead);
            drop(all);
            BDD both = o_and(phi, step);
            next = o_or(z, both);
            drop(both);
        }
        drop(step);
        if (sym_stop(s)) {
            /* a round the clock cut short is no round: z stays the last
             * complete one, from which a later call may go on */
            drop(next);
            break;
        }
        int same = next == z;
        drop(z);
        z = next;
        if (same)
            break;
    }
    return z;
}

/* E[phi U psi] (phi, psi within R): backwards from psi over what the last
 * round added only, each transition in turn adding at once what it
 * reaches (chaining), so that one round goes as far as the order of the
 * transitions lets it.  The plain rounds paid a preimage of the whole set
 * each: on FMS-PT-00020 the A G in CTLFireability's formula 3 had made 8
 * rounds on sets of 300,000 nodes after 20 s, and the formula was open at
 * 60 s; it is now decided in 26 s.  Stops (returning what it has) with the
 * clock. */
static BDD eu(sym_t *s, BDD phi, BDD psi, BDD from)
{
    BDD start = from != bdd_false() ? from : psi;
    BDD z = bdd_addref(start), front = bdd_addref(start);
    while (front != bdd_false() && !sym_stop(s)) {
        BDD added = bdd_addref(bdd_false());
        for (uint32_t i = 0; i < s->nmoving && !sym_stop(s); i++) {
            BDD pre = sym_preimage(s, front, s->order[s->nmoving - 1 - i]);
            BDD in = o_and(pre, phi);
            drop(pre);
            BDD fresh = o_diff(in, z);
            drop(in);
            if (fresh != bdd_false()) {
                or_in(&z, fresh);
                or_in(&front, fresh);
                or_in(&added, fresh);
            }
            drop(fresh);
        }
        drop(front);
        /* what was added can take more nodes than all of Z: then the
         * preimage of Z is the cheaper superset */
        if (added != bdd_false() && bdd_nodecount(added) > bdd_nodecount(z)) {
            drop(added);
            added = bdd_addref(z);
        }
        front = added;
    }
    drop(front);
    return z;
}

static kept_entry *kept_find(sym_ctl_kept *k, const tree_t *f)
{
    for (size_t i = 0; k && i < k->n; i++)
        if (k->e[i].f == f)
            return &k->e[i];
    return NULL;
}

/* Keeps set for f (a reference of its own); without memory it is simply
 * not kept. */
static void kept_put(sym_ctl_kept *k, const tree_t *f, BDD set, int done)
{
    if (!k)
        return;
    kept_entry *e = kept_find(k, f);
    if (!e) {
        if (k->n == k->cap) {
            size_t cap = k->cap ? 2 * k->cap : 16;
            kept_entry *grown = realloc(k->e, cap * sizeof *grown);
            if (!grown)
                return;
            k->e = grown;
            k->cap = cap;
        }
        e = &k->e[k->n++];
        e->f = f;
        e->set = bdd_addref(bdd_false());
    }
    drop(e->set);
    e->set = bdd_addref(set);
    e->done = done;
}

static int is_fixpoint(int op)
{
    return op == T_EF || op == T_AF || op == T_EG || op == T_AG || op == T_EU || op == T_AU;
}

/* The reachable markings where f holds; recursion as deep as the formula,
 * which the readers bound.  With k, what earlier calls computed for f's
 * subformulas is taken from k, and what this one computes is left there. */
static BDD ctl_bdd(sym_t *s, const tree_t *f, BDD dead, sym_ctl_kept *k, int *unsupported)
{
    if (*unsupported || !f || sym_stop(s))
        return bdd_addref(bdd_false());
    const kept_entry *had = kept_find(k, f);
    if (had && had->done)
        return bdd_addref(had->set);
    BDD from = had ? had->set : bdd_false();
    if (tree_is_state_formula(f)) {
        BDD x = sym_formula_bdd(s, f, unsupported);
        and_in(&x, s->reach);
        return x;
    }
    BDD a = ctl_bdd(s, f->l, dead, k, unsupported), b = bdd_addref(bdd_false()), r;
    if (f->op == T_AND || f->op == T_OR || f->op == T_IMPLIES || f->op == T_IFF ||
        f->op == T_EU || f->op == T_AU) {
        drop(b);
        b = ctl_bdd(s, f->r, dead, k, unsupported);
    }
    int operands_whole = !sym_stop(s);
    BDD fix = bdd_addref(bdd_false());
    switch (f->op) {
    case T_NOT:
        r = within_not(s, a);
        break;
    case T_AND: case T_OR: case T_IMPLIES: case T_IFF: {
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
        drop(fix);
        fix = eu(s, s->reach, a, from);
        r = bdd_addref(fix);
        break;
    case T_AF:
        drop(fix);
        fix = fixpoint(s, FIX_AU, s->reach, a, dead, from);
        r = bdd_addref(fix);
        break;
    case T_EG:
        drop(fix);
        fix = fixpoint(s, FIX_EG, a, bdd_false(), dead, from);
        r = bdd_addref(fix);
        break;
    case T_AG: {
        /* kept: the markings that reach not-a, the fixpoint behind it */
        BDD out = within_not(s, a);
        drop(fix);
        fix = eu(s, s->reach, out, from);
        r = within_not(s, fix);
        drop(out);
        break;
    }
    case T_EU: case T_AU:
        drop(fix);
        fix = f->op == T_EU ? eu(s, a, b, from) : fixpoint(s, FIX_AU, a, b, dead, from);
        r = bdd_addref(fix);
        break;
    default:
        *unsupported = 1;
        r = bdd_addref(bdd_false());
    }
    if (!*unsupported && !sym_failed(s)) {
        if (!sym_stop(s))
            kept_put(k, f, r, 1);
        else if (operands_whole && is_fixpoint(f->op))
            kept_put(k, f, fix, 0);
    }
    drop(fix);
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

sym_ctl_kept *sym_ctl_keep(void)
{
    return calloc(1, sizeof(sym_ctl_kept));
}

void sym_ctl_forget(sym_ctl_kept *k)
{
    if (!k)
        return;
    if (bdd_isrunning()) {
        for (size_t i = 0; i < k->n; i++)
            drop(k->e[i].set);
        if (k->have_dead)
            drop(k->dead);
    }
    free(k->e);
    free(k);
}

int sym_ctl_resume(sym_t *s, const tree_t *f, sym_ctl_kept *k, char *why, size_t whylen)
{
    if (!s->reached) {
        snprintf(why, whylen, "symbolic: CTL needs the whole reachable set");
        return -1;
    }
    int unsupported_top = 0, top = reachability_at_top(s, f, &unsupported_top);
    if (top >= 0 && !unsupported_top && !sym_stop(s))
        return top;
    BDD dead;
    if (k && k->have_dead) {
        dead = bdd_addref(k->dead);
    } else {
        dead = sym_in_goal_dead(s, s->reach);
        if (k && !sym_stop(s)) {
            k->dead = bdd_addref(dead);
            k->have_dead = 1;
        }
    }
    int unsupported = 0;
    BDD holds = ctl_bdd(s, f, dead, k, &unsupported);
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

int sym_ctl(sym_t *s, const tree_t *f, char *why, size_t whylen)
{
    return sym_ctl_resume(s, f, NULL, why, whylen);
}
