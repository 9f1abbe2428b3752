/* The frame of a printed run (input.h); the replay is base/runwalk.h's.
 * With a listener (runlisten.h) each piece is captured instead of
 * printed. */
#include "input/input.h"
#include "input/runlisten.h"
#include "base/runwalk.h"

#include <stdlib.h>

static run_listener *listener;

run_listener *run_words_listen(run_listener *l)
{
    run_listener *old = listener;
    listener = l;
    return old;
}

typedef struct frame {
    const run_words *w;
    const cnet_t *cn;
    run_listener *l;
    const result_t *res;
} frame;

/* Where the run starts to show a part of a nested property (result.h's
 * segments), after `steps` steps: "*** from here: FORMULA holds ***".  A
 * run of one part is the evidence of the whole and needs no names. */
static void mark_segments(const frame *f, size_t steps)
{
    if (f->l || f->res->nsegments < 2)
        return;
    for (size_t k = 0; k < f->res->nsegments; k++)
        if (f->res->segments[k].start == steps)
            fprintf(f->w->out, "*** from here: %s %s ***\n", f->res->segments[k].formula,
                    f->res->segments[k].holds ? "holds" : "fails");
}

/* What a piece of the language's words prints, as a string without its
 * last newline; NULL when there is no memory for it. */
typedef struct capture {
    run_words w;
    char *text;
    size_t len;
} capture;

static const run_words *capture_begin(capture *c, const run_words *w)
{
    c->w = *w;
    c->text = NULL;
    c->len = 0;
    c->w.out = open_memstream(&c->text, &c->len);
    return c->w.out ? &c->w : NULL;
}

static char *capture_end(capture *c, run_listener *l)
{
    if (!c->w.out || fclose(c->w.out) != 0 || !c->text) {
        l->failed = 1;
        free(c->text);
        return NULL;
    }
    while (c->len && c->text[c->len - 1] == '\n')
        c->text[--c->len] = 0;
    return c->text;
}

/* "*** WHAT: text ***" -> text (cut in place); anything else is kept
 * whole. */
static const char *state_text(char *printed, const char *what)
{
    size_t n = strlen(what), len = strlen(printed);
    if (len < 4 + n + 1 + 4 || strncmp(printed, "*** ", 4) || strncmp(printed + 4, what, n) ||
        printed[4 + n] != ':' || strcmp(printed + len - 4, " ***"))
        return printed;
    size_t from = 4 + n + 1, to = len - 4;
    if (from < to && printed[from] == ' ')
        from++;
    printed[to] = 0;
    return printed + from;
}

static void show_state(const frame *f, const nc_count *m, const char *what)
{
    if (!f->l) {
        f->w->state(f->w, m, what);
        return;
    }
    capture c;
    const run_words *cw = capture_begin(&c, f->w);
    if (cw)
        cw->state(cw, m, what);
    char *text = capture_end(&c, f->l);
    if (text && f->l->state)
        f->l->state(f->l->ctx, what, state_text(text, what));
    free(text);
}

static void start(void *ctx, const nc_count *initial)
{
    show_state(ctx, initial, "initial state");
    mark_segments(ctx, 0);
}

static void loop_start(void *ctx, const nc_count *m)
{
    const frame *f = ctx;
    (void)m;
    if (!f->l)
        fputs("*** loop starts here ***\n", f->w->out);
    else if (f->l->loop_start)
        f->l->loop_start(f->l->ctx);
}

static int step(void *ctx, size_t i, uint32_t t, const nc_count *before, const nc_count *after)
{
    const frame *f = ctx;
    const run_words *w = f->w;
    if (!f->l) {
        int rc = w->step(w, i, t, before, after);
        if (rc == 0)
            mark_segments(f, i + 1);
        return rc;
    }
    capture c;
    const run_words *cw = capture_begin(&c, w);
    int rc = cw ? cw->step(cw, i, t, before, after) : 0;
    char *text = capture_end(&c, f->l);
    if (rc == 0 && f->l->step)
        f->l->step(f->l->ctx, i, t, before, after, text ? text : "");
    free(text);
    return rc;
}

static void end(void *ctx, run_end_kind kind, const nc_count *last)
{
    const frame *f = ctx;
    const run_words *w = f->w;
    if (f->l && f->l->end)
        f->l->end(f->l->ctx, kind);
    if (kind == RUN_END_LOOP) {
        if (!f->l)
            fputs("*** loop ends here ***\n", w->out);
        return;
    }
    show_state(f, last, "final state");
    if (kind == RUN_END_DEADLOCK && !f->l)
        fputs("*** run ends in a deadlock ***\n", w->out);
    if (!w->dead || !cn_dead(f->cn, last))
        return;
    if (!f->l) {
        w->dead(w, last);
        return;
    }
    capture c;
    const run_words *cw = capture_begin(&c, w);
    if (cw)
        cw->dead(cw, last);
    char *text = capture_end(&c, f->l);
    if (text && f->l->dead)
        f->l->dead(f->l->ctx, text);
    free(text);
}

void print_run_words(net_t *net, const result_t *res, const run_words *w)
{
    frame f = { w, nc_compile(net), listener, res };
    if (!f.cn)
        return;
    const run_visitor v = { start, loop_start, step, end };
    /* cmd/check.c replays every run before printing (replay_ok, the same
     * walk), so the walk does not fail here; if it did, the output would
     * stop at the step that failed, never show a step that did not fire */
    (void)run_walk(f.cn, res, &v, &f);
}
