/* run_walk, the one replay of a run (base/runwalk.h): what it tells a
 * visitor and in which order, the ends it checks, and the steps it refuses
 * (reported, never fired).  The markings are checked against replay.h, the
 * tests' own firing rule on the builder's arcs, not against the compiled
 * net the walk itself fires on. */
#include "base/runwalk.h"
#include "replay.h"
#include "rnd.h"
#include "unit.h"

#include <stdarg.h>
#include <stdlib.h>

static int streq(const char *a, const char *b)
{
    return a && b && !strcmp(a, b);
}

/* Everything the walk said, as text: "S(1,0,0) L(1,0,0) 0:t0(1,0,0>0,1,0)
 * E:loop(1,0,0)". */
typedef struct log {
    const cnet_t *cn;
    char text[1024];
    size_t len;
    size_t stop_after;   /* on_step asks to stop after this many steps */
    size_t steps;
} log_t;

static void say(log_t *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(log_t *l, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(l->text + l->len, sizeof l->text - l->len, fmt, ap);
    va_end(ap);
    if (n > 0 && (size_t)n < sizeof l->text - l->len)
        l->len += (size_t)n;
}

/* "1,0,0" */
static const char *marking(const log_t *l, const nc_count *m, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    for (uint32_t p = 0; p < l->cn->nplaces && at < len; p++)
        at += (size_t)snprintf(buf + at, len - at, "%s%llu", p ? "," : "",
                               (unsigned long long)m[p]);
    return buf;
}

static void on_start(void *ctx, const nc_count *initial)
{
    char m[128];
    say(ctx, "S(%s)", marking(ctx, initial, m, sizeof m));
}

static void on_loop_start(void *ctx, const nc_count *at)
{
    char m[128];
    say(ctx, " L(%s)", marking(ctx, at, m, sizeof m));
}

static int on_step(void *ctx, size_t i, uint32_t t, const nc_count *before, const nc_count *after)
{
    log_t *l = ctx;
    char m1[128], m2[128];
    say(l, " %zu:t%u(%s>%s)", i, (unsigned)t, marking(l, before, m1, sizeof m1),
        marking(l, after, m2, sizeof m2));
    return ++l->steps == l->stop_after;
}

static void on_end(void *ctx, run_end_kind end, const nc_count *last)
{
    char m[128];
    say(ctx, " E:%s(%s)", end == RUN_END_PLAIN ? "plain" : end == RUN_END_DEADLOCK ?
        "deadlock" : "loop", marking(ctx, last, m, sizeof m));
}

static const run_visitor logger = { on_start, on_loop_start, on_step, on_end };

/* p0 (1 token) -t0-> p1 -t1-> p0, and t2: p1 -> p2, a dead end */
static net_t *cycle_with_exit(void)
{
    net_t *net = nc_create_net("cycle", NULL);
    for (int p = 0; p < 3; p++)
        nc_create_place(net, NULL, NULL, p == 0);
    static const uint32_t from[] = { 0, 1, 1 }, to[] = { 1, 0, 2 };
    for (uint32_t t = 0; t < 3; t++) {
        nc_create_transition(net, NULL, NULL);
        nc_create_arc(net, NC_ARC_PT, from[t], t, 1, 0);
        nc_create_arc(net, NC_ARC_TP, to[t], t, 1, 0);
    }
    return net;
}

/* Walks run (n steps, loop_start) with the logger; the status, the log in
 * l. */
static run_walk_status walk(const cnet_t *cn, const uint32_t *run, size_t n, size_t loop_start,
                            log_t *l, size_t stop_after)
{
    result_t r;
    result_init(&r);
    memset(l, 0, sizeof *l);
    l->cn = cn;
    l->stop_after = stop_after;
    if (result_set_run(&r, RUN_WITNESS, run, n, loop_start) < 0)
        return RUN_WALK_NO_MEMORY;
    run_walk_status st = run_walk(cn, &r, &logger, l);
    result_clear(&r);
    return st;
}

static void test_ends(const cnet_t *cn)
{
    log_t l;
    uint32_t lasso[] = { 0, 1 };
    CHECK(walk(cn, lasso, 2, 0, &l, 0) == RUN_WALK_OK &&
          streq(l.text, "S(1,0,0) L(1,0,0) 0:t0(1,0,0>0,1,0) 1:t1(0,1,0>1,0,0) E:loop(1,0,0)"),
          "a lasso: start, loop start before its step, each step between the markings "
          "around it, the loop's end");
    uint32_t stem[] = { 0, 1, 0 };
    CHECK(walk(cn, stem, 3, 1, &l, 0) == RUN_WALK_OK &&
          streq(l.text, "S(1,0,0) 0:t0(1,0,0>0,1,0) L(0,1,0) 1:t1(0,1,0>1,0,0) "
                "2:t0(1,0,0>0,1,0) E:loop(0,1,0)"),
          "a lasso with a stem: the loop starts after it");
    uint32_t exit[] = { 0, 2 };
    CHECK(walk(cn, exit, 2, 2, &l, 0) == RUN_WALK_OK &&
          streq(l.text, "S(1,0,0) 0:t0(1,0,0>0,1,0) 1:t2(0,1,0>0,0,1) E:deadlock(0,0,1)"),
          "a deadlock end: no loop start, the dead marking last");
    CHECK(walk(cn, exit, 2, RESULT_NO_LOOP, &l, 0) == RUN_WALK_OK &&
          streq(l.text, "S(1,0,0) 0:t0(1,0,0>0,1,0) 1:t2(0,1,0>0,0,1) E:plain(0,0,1)"),
          "a plain end");
    CHECK(walk(cn, NULL, 0, RESULT_NO_LOOP, &l, 0) == RUN_WALK_OK &&
          streq(l.text, "S(1,0,0) E:plain(1,0,0)"), "the empty run ends where it starts");
}

static void test_refused(const cnet_t *cn)
{
    log_t l;
    uint32_t twice[] = { 0, 0, 1 };
    CHECK(walk(cn, twice, 3, RESULT_NO_LOOP, &l, 0) == RUN_WALK_DISABLED &&
          streq(l.text, "S(1,0,0) 0:t0(1,0,0>0,1,0)"),
          "a disabled step is reported, not fired, and nothing after it is walked");
    uint32_t beyond[] = { 0, 7 };
    CHECK(walk(cn, beyond, 2, RESULT_NO_LOOP, &l, 0) == RUN_WALK_NO_TRANSITION &&
          streq(l.text, "S(1,0,0) 0:t0(1,0,0>0,1,0)"), "a step beyond the net is reported");
    uint32_t open[] = { 0 };
    CHECK(walk(cn, open, 1, 0, &l, 0) == RUN_WALK_BAD_END && !strstr(l.text, "E:"),
          "a loop that does not lead back: no end");
    CHECK(walk(cn, open, 1, 1, &l, 0) == RUN_WALK_BAD_END && !strstr(l.text, "E:"),
          "a deadlock end where a transition is enabled: no end");
    CHECK(walk(cn, open, 1, 2, &l, 0) == RUN_WALK_BAD_END && l.len == 0,
          "a loop start beyond the run: refused before the start");
    uint32_t lasso[] = { 0, 1, 0, 1 };
    CHECK(walk(cn, lasso, 4, 0, &l, 2) == RUN_WALK_STOPPED && l.steps == 2 &&
          !strstr(l.text, "E:"), "a visitor stops the walk");
    result_t r;
    result_init(&r);
    CHECK(result_set_run(&r, RUN_WITNESS, lasso, 4, 0) == 0 && run_walk(cn, &r, NULL, NULL) ==
          RUN_WALK_OK, "no visitor: the check alone");
    result_clear(&r);
}

/* A count at its limit: the step that would overflow it is refused. */
static void test_overflow(void)
{
    net_t *net = nc_create_net("full", NULL);
    nc_create_place(net, NULL, NULL, NC_COUNT_MAX);
    nc_create_transition(net, NULL, NULL);
    nc_create_arc(net, NC_ARC_TP, 0, 0, 1, 0);
    const cnet_t *cn = nc_compile(net);
    log_t l;
    uint32_t run[] = { 0 };
    CHECK(cn && walk(cn, run, 1, RESULT_NO_LOOP, &l, 0) == RUN_WALK_DISABLED &&
          !strchr(l.text, ':'), "a step that would overflow a count is refused");
    nc_free_net(net);
}

/* Random nets and runs chosen by replay.h's rule: each step's markings are
 * that rule's, and a run ending where nothing is enabled checks as one. */
typedef struct against {
    const net_t *net;
    nc_count *m;
    int same;
} against;

static int compare_step(void *ctx, size_t i, uint32_t t, const nc_count *before,
                        const nc_count *after)
{
    against *a = ctx;
    (void)i;
    for (size_t p = 0; p < a->net->nplaces; p++)
        a->same &= before[p] == a->m[p];
    replay_fire(a->net, a->m, t);
    for (size_t p = 0; p < a->net->nplaces; p++)
        a->same &= after[p] == a->m[p];
    return 0;
}

static void test_random(void)
{
    int same = 1, ends = 1;
    for (int k = 0; k < 200; k++) {
        net_t *net = nc_create_net("random", NULL);
        uint32_t P = 1 + rnd(5), T = 1 + rnd(5);
        for (uint32_t p = 0; p < P; p++)
            nc_create_place(net, NULL, NULL, rnd(3));
        for (uint32_t t = 0; t < T; t++) {
            nc_create_transition(net, NULL, NULL);
            for (uint32_t p = 0; p < P; p++) {
                uint32_t kind = rnd(5);
                if (kind < 3)
                    nc_create_arc(net, (nc_arc_kind)kind, p, t, 1 + rnd(2), 0);
            }
        }
        const cnet_t *cn = nc_compile(net);
        nc_count m[5];
        uint32_t run[20];
        size_t n = 0;
        replay_initial(net, m);
        while (n < 20 && !replay_dead(net, m)) {
            uint32_t t = rnd(T);
            if (replay_enabled(net, m, t)) {
                replay_fire(net, m, t);
                run[n++] = t;
            }
        }
        result_t r;
        result_init(&r);
        nc_count mine[5];
        replay_initial(net, mine);
        against a = { net, mine, 1 };
        const run_visitor v = { .on_step = compare_step };
        int dead = replay_dead(net, m);
        if (!cn || result_set_run(&r, RUN_WITNESS, run, n, dead ? n : RESULT_NO_LOOP) < 0 ||
            run_walk(cn, &r, &v, &a) != RUN_WALK_OK)
            ends = 0;
        same &= a.same;
        result_clear(&r);
        nc_free_net(net);
    }
    CHECK(same, "random runs: each step's markings are replay.h's");
    CHECK(ends, "random runs: every enabled run walks, a dead end checks as a deadlock");
}

int main(void)
{
    net_t *net = cycle_with_exit();
    const cnet_t *cn = nc_compile(net);
    CHECK(cn != NULL, "compile the cycle");
    if (cn) {
        test_ends(cn);
        test_refused(cn);
    }
    nc_free_net(net);
    test_overflow();
    test_random();
    UNIT_DONE();
}
