/* The frame of a printed run (input.h); the replay is base/runwalk.h's. */
#include "input/input.h"
#include "base/runwalk.h"

typedef struct frame {
    const run_words *w;
    const cnet_t *cn;
} frame;

static void start(void *ctx, const nc_count *initial)
{
    const run_words *w = ((frame *)ctx)->w;
    w->state(w, initial, "initial state");
}

static void loop_start(void *ctx, const nc_count *m)
{
    (void)m;
    fputs("*** loop starts here ***\n", ((frame *)ctx)->w->out);
}

static int step(void *ctx, size_t i, uint32_t t, const nc_count *before, const nc_count *after)
{
    const run_words *w = ((frame *)ctx)->w;
    return w->step(w, i, t, before, after);
}

static void end(void *ctx, run_end_kind kind, const nc_count *last)
{
    const frame *f = ctx;
    const run_words *w = f->w;
    if (kind == RUN_END_LOOP) {
        fputs("*** loop ends here ***\n", w->out);
        return;
    }
    w->state(w, last, "final state");
    if (kind == RUN_END_DEADLOCK)
        fputs("*** run ends in a deadlock ***\n", w->out);
    if (w->dead && cn_dead(f->cn, last))
        w->dead(w, last);
}

void print_run_words(net_t *net, const result_t *res, const run_words *w)
{
    frame f = { w, nc_compile(net) };
    if (!f.cn)
        return;
    const run_visitor v = { start, loop_start, step, end };
    /* cmd/check.c replays every run before printing (replay_ok, the same
     * walk), so the walk does not fail here; if it did, the output would
     * stop at the step that failed, never show a step that did not fire */
    (void)run_walk(f.cn, res, &v, &f);
}
