#include "engine/stateeval.h"

typedef struct at_marking {
    const cnet_t *cn;
    const nc_count *m;
} at_marking;

static int enabled_at(uint32_t t, void *ctx)
{
    const at_marking *a = ctx;
    return t < a->cn->ntransitions && cn_enabled(a->cn, a->m, t);
}

static int deadlock_at(void *ctx)
{
    const at_marking *a = ctx;
    for (uint32_t t = 0; t < a->cn->ntransitions; t++)
        if (cn_enabled(a->cn, a->m, t))
            return 0;
    return 1;
}

int cn_state_holds(const cnet_t *cn, const tree_t *f, const nc_count *m)
{
    at_marking a = {cn, m};
    tree_eval_ctx ctx = {m, enabled_at, deadlock_at, &a};
    return tree_eval_state(f, &ctx);
}

/* Connectives are walked here so that an action proposition may sit
 * anywhere inside a state formula; everything else is a state leaf. */
int cn_step_holds(const cnet_t *cn, const tree_t *f, const nc_count *m, uint32_t t)
{
    int a, b;
    switch (f->op) {
    case T_ACTION:
        for (uint32_t i = 0; i < f->n; i++)
            if (f->items[i] == t)
                return 1;
        return 0;
    case T_NOT:
        a = cn_step_holds(cn, f->l, m, t);
        return a < 0 ? -1 : !a;
    case T_AND:
    case T_OR:
    case T_IMPLIES:
    case T_IFF:
        a = cn_step_holds(cn, f->l, m, t);
        b = a < 0 ? -1 : cn_step_holds(cn, f->r, m, t);
        if (a < 0 || b < 0)
            return -1;
        return f->op == T_AND ? a && b : f->op == T_OR ? a || b :
               f->op == T_IMPLIES ? !a || b : a == b;
    default:
        return cn_state_holds(cn, f, m);
    }
}
