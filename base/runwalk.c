/* The one replay of a run (runwalk.h). */
#include "base/runwalk.h"

#include <stdlib.h>
#include <string.h>

static run_end_kind end_kind(const result_t *res)
{
    if (res->loop_start == RESULT_NO_LOOP)
        return RUN_END_PLAIN;
    return res->loop_start == res->run_len ? RUN_END_DEADLOCK : RUN_END_LOOP;
}

static run_walk_status walk_steps(const cnet_t *cn, const result_t *res, const run_visitor *v,
                                  void *ctx, nc_count *before, nc_count *after, nc_count *at_loop)
{
    for (size_t i = 0; i < res->run_len; i++) {
        uint32_t t = res->run[i];
        if (i == res->loop_start) {
            memcpy(at_loop, after, cn->nplaces * sizeof *after);
            if (v->on_loop_start)
                v->on_loop_start(ctx, after);
        }
        if (t >= cn->ntransitions)
            return RUN_WALK_NO_TRANSITION;
        if (!cn_enabled(cn, after, t) || cn_fire(cn, after, t) < 0)
            return RUN_WALK_DISABLED;
        if (v->on_step && v->on_step(ctx, i, t, before, after))
            return RUN_WALK_STOPPED;
        /* t's effect again, not a copy of the marking: a long run on a
         * large net costs what its steps change */
        (void)cn_fire(cn, before, t);
    }
    return RUN_WALK_OK;
}

run_walk_status run_walk(const cnet_t *cn, const result_t *res, const run_visitor *v, void *ctx)
{
    static const run_visitor none;
    if (!v)
        v = &none;
    run_end_kind end = end_kind(res);
    if (end == RUN_END_LOOP && res->loop_start > res->run_len)
        return RUN_WALK_BAD_END;
    size_t bytes = (cn->nplaces ? cn->nplaces : 1) * sizeof(nc_count);
    nc_count *before = malloc(bytes), *after = malloc(bytes);
    nc_count *at_loop = end == RUN_END_LOOP ? malloc(bytes) : NULL;
    run_walk_status st = RUN_WALK_NO_MEMORY;
    if (!before || !after || (end == RUN_END_LOOP && !at_loop))
        goto out;
    memcpy(before, cn->initial, cn->nplaces * sizeof *before);
    memcpy(after, cn->initial, cn->nplaces * sizeof *after);
    if (v->on_start)
        v->on_start(ctx, after);
    st = walk_steps(cn, res, v, ctx, before, after, at_loop);
    if (st != RUN_WALK_OK)
        goto out;
    if ((end == RUN_END_LOOP && memcmp(at_loop, after, cn->nplaces * sizeof *after)) ||
        (end == RUN_END_DEADLOCK && !cn_dead(cn, after))) {
        st = RUN_WALK_BAD_END;
        goto out;
    }
    if (v->on_end)
        v->on_end(ctx, end, after);
out:
    free(before);
    free(after);
    free(at_loop);
    return st;
}
