#include "cmd/checkerrun.h"
#include "base/clock.h"
#include "engine/fence.h"

typedef struct call {
    const checker_type *chk;
    const cnet_t *cn;
    const tree_t *formula;
    prop_kind kind;
    const check_options *opt;
} call;

static void work(void *ctx, result_t *res)
{
    const call *c = ctx;
    c->chk->run(c->cn, c->formula, c->kind, c->opt, res);
}

void checker_run(const checker_type *chk, const cnet_t *cn, const tree_t *formula,
                 prop_kind kind, const check_options *opt, result_t *res)
{
    if (!chk->fenced) {
        chk->run(cn, formula, kind, opt, res);
        return;
    }
    double start = mono_now();
    call c = {chk, cn, formula, kind, opt};
    fence_run(opt->budget, chk->fenced == FENCE_MEMORY ? opt->budget->bytes : 0, work, &c, res);
    if (res->answer == ANSWER_UNKNOWN && !res->seconds)
        res->seconds = mono_now() - start;
}
