/* Seeds by the formula's structure: a conjunction becomes true only when
 * each false conjunct does, so one false conjunct's seed suffices; a
 * disjunction becomes true only when one of its false disjuncts does, so
 * all their seeds are needed; negation swaps the wanted value. */
#include "engine/goalseed.h"
#include "engine/stateeval.h"

enum { DOWN = -1, ANY = 0, UP = 1 };

/* Transitions that move sum(coef * M(p)) in direction dir (or at all). */
static void seed_linear(stubborn_t *sb, const tree_t *f, int dir)
{
    for (uint32_t i = 0; i < f->nterms; i++) {
        uint32_t p = f->terms[i].place;
        int64_t c = f->terms[i].coef;
        if (c == 0)
            continue;
        if (dir == ANY) {
            stubborn_seed_changers(sb, p, 1);
            stubborn_seed_changers(sb, p, -1);
        } else {
            stubborn_seed_changers(sb, p, (c > 0) == (dir == UP) ? 1 : -1);
        }
    }
}

static int cmp_direction(const tree_t *f, const nc_count *m, int want)
{
    __int128 v = tree_lin_value(f, m);
    switch (f->rel) {
    case REL_LT:
    case REL_LE:
        return want ? DOWN : UP;
    case REL_GT:
    case REL_GE:
        return want ? UP : DOWN;
    case REL_EQ:
        return want ? (v > 0 ? DOWN : UP) : ANY;
    case REL_NE:
        return want ? ANY : (v > 0 ? DOWN : UP);
    }
    return ANY;
}

/* Some enabled transition of the list that must be disabled: its
 * disablers; one whose list is the seed is enough. */
static void seed_all_disabled(stubborn_t *sb, const cnet_t *cn, const tree_t *f,
                              const nc_count *m)
{
    for (uint32_t i = 0; i < f->n; i++)
        if (cn_enabled(cn, m, f->items[i])) {
            stubborn_seed_disablers(sb, f->items[i]);
            return;
        }
}

static int seed_deadlock(stubborn_t *sb, const cnet_t *cn, const nc_count *m, int want)
{
    if (!want)
        return 0;   /* nothing fires in a deadlock: nothing to seed */
    for (uint32_t t = 0; t < cn->ntransitions; t++)
        if (cn_enabled(cn, m, t)) {
            stubborn_seed_disablers(sb, t);
            return 0;
        }
    return 0;
}

int goal_seed(stubborn_t *sb, const cnet_t *cn, const tree_t *f, const nc_count *m, int want)
{
    int a, b;
    switch (f->op) {
    case T_TRUE:
    case T_FALSE:
        return 0;   /* never changes: no run reaches the other value */
    case T_DEADLOCK:
        return seed_deadlock(sb, cn, m, want);
    case T_FIREABLE:
        if (want) {
            for (uint32_t i = 0; i < f->n; i++)
                stubborn_seed_enablers(sb, m, f->items[i]);
        } else {
            seed_all_disabled(sb, cn, f, m);
        }
        return 0;
    case T_CMP:
        seed_linear(sb, f, cmp_direction(f, m, want));
        return 0;
    case T_NOT:
        return goal_seed(sb, cn, f->l, m, !want);
    case T_AND:
    case T_OR:
    case T_IMPLIES: {
        /* a -> b is !a | b: the left side enters negated */
        a = cn_state_holds(cn, f->l, m);
        b = cn_state_holds(cn, f->r, m);
        if (a < 0 || b < 0)
            return -1;
        int neg = f->op == T_IMPLIES;
        int la = neg ? !a : a;
        int conj = f->op == T_AND;
        /* want == conj: every side must reach `want` -> one side not there
         * suffices; otherwise one side must change -> all sides that could */
        if (want == conj) {
            if (la != want)
                return goal_seed(sb, cn, f->l, m, neg ? !want : want);
            return goal_seed(sb, cn, f->r, m, want);
        }
        if (goal_seed(sb, cn, f->l, m, neg ? !want : want) < 0)
            return -1;
        return goal_seed(sb, cn, f->r, m, want);
    }
    case T_IFF:
        a = cn_state_holds(cn, f->l, m);
        b = cn_state_holds(cn, f->r, m);
        if (a < 0 || b < 0 || goal_seed(sb, cn, f->l, m, !a) < 0)
            return -1;
        return goal_seed(sb, cn, f->r, m, !b);
    default:
        return -1;
    }
}

int goal_seed_supported(const tree_t *f)
{
    if (!f)
        return 1;
    switch (f->op) {
    case T_TRUE: case T_FALSE: case T_DEADLOCK: case T_FIREABLE: case T_CMP:
        return 1;
    case T_NOT: case T_AND: case T_OR: case T_IMPLIES: case T_IFF:
        return goal_seed_supported(f->l) && goal_seed_supported(f->r);
    default:
        return 0;
    }
}
