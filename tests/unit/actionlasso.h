/* A counterexample of an LTL formula over actions (RERS's action
 * propositions), checked from the definitions: it replays on the net by
 * the tests' own firing rule, its loop closes (or, when deadlocks repeat,
 * it ends in one), and the formula evaluated on its word is false.  The
 * compose tests share it. */
#ifndef MCK_TEST_ACTIONLASSO_H
#define MCK_TEST_ACTIONLASSO_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/result.h"
#include "lassoeval.h"
#include "replay.h"

/* A step's proposition: boolean combinations of actions. */
typedef struct run_ctx {
    const uint32_t *step;   /* per position: the transition, UINT32_MAX for no step */
} run_ctx;

static inline int step_holds(const tree_t *f, uint32_t t)
{
    switch (f->op) {
    case T_TRUE: return 1;
    case T_FALSE: return 0;
    case T_ACTION:
        for (uint32_t i = 0; i < f->n; i++)
            if (f->items[i] == t)
                return 1;
        return 0;
    case T_NOT: return !step_holds(f->l, t);
    case T_AND: return step_holds(f->l, t) && step_holds(f->r, t);
    case T_OR: return step_holds(f->l, t) || step_holds(f->r, t);
    case T_IMPLIES: return !step_holds(f->l, t) || step_holds(f->r, t);
    case T_IFF: return step_holds(f->l, t) == step_holds(f->r, t);
    default: return 0;
    }
}

static inline int atom_at(void *ctx, size_t pos, const tree_t *f)
{
    const run_ctx *r = ctx;
    return step_holds(f, r->step[pos]);
}

/* The run replays on net, its loop closes (or it ends in a deadlock it
 * repeats, when stutter), and formula is false on it.  why on failure. */
static inline int run_refutes(const net_t *net, const result_t *res, const tree_t *formula, int stutter,
                       char *why, size_t n)
{
    nc_count *m = calloc(net->nplaces + 1, sizeof *m), *at_loop = calloc(net->nplaces + 1, sizeof *m);
    uint32_t *step = malloc((res->run_len + 2) * sizeof *step);
    char *v = malloc(res->run_len + 2);
    int ok = 0;
    replay_initial(net, m);
    if (res->role != RUN_COUNTEREXAMPLE || res->loop_start > res->run_len ||
        (res->loop_start == res->run_len && !stutter)) {
        snprintf(why, n, "not a lasso (length %zu, loop at %zu)", res->run_len, res->loop_start);
        goto out;
    }
    for (size_t i = 0; i < res->run_len; i++) {
        if (i == res->loop_start)
            memcpy(at_loop, m, net->nplaces * sizeof *m);
        uint32_t t = res->run[i];
        if (t >= net->ntransitions || !replay_enabled(net, m, t)) {
            snprintf(why, n, "step %zu does not replay", i);
            goto out;
        }
        replay_fire(net, m, t);
        step[i] = t;
    }
    size_t len = res->run_len, loop = res->loop_start;
    if (loop == res->run_len) {
        if (!replay_dead(net, m)) {
            snprintf(why, n, "the run's end is no deadlock");
            goto out;
        }
        step[len++] = UINT32_MAX;   /* the dead state repeats, no action */
    } else if (memcmp(m, at_loop, net->nplaces * sizeof *m)) {
        snprintf(why, n, "the loop does not close");
        goto out;
    }
    run_ctx c = { step };
    lasso_eval(formula, len, loop, atom_at, &c, v);
    if (v[0] != 0) {
        snprintf(why, n, "the formula holds on the lasso");
        goto out;
    }
    ok = 1;
out:
    free(m);
    free(at_loop);
    free(step);
    free(v);
    return ok;
}

#endif
