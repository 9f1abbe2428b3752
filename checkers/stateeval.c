#include "checkers/stateeval.h"

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
