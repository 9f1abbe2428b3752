/* The generic properties on hand-made nets whose values are known, each
 * property both true and false somewhere; the runs given as evidence are
 * replayed (replay.h) and must show the value. */
#include "checkers/generic/generic.h"
#include "replay.h"
#include "unit.h"
#include "budgets.h"

#include <stdlib.h>

static void arc(net_t *n, nc_arc_kind k, int p, int t, nc_count w)
{
    nc_create_arc(n, k, (uint32_t)p, (uint32_t)t, w, 0);
}

/* Two processes and a lock: enter takes the lock, leave gives it back. */
static net_t *mutex(void)
{
    net_t *n = nc_create_net("mutex", NULL);
    int i1 = nc_create_place(n, "idle1", NULL, 1), c1 = nc_create_place(n, "crit1", NULL, 0);
    int i2 = nc_create_place(n, "idle2", NULL, 1), c2 = nc_create_place(n, "crit2", NULL, 0);
    int lk = nc_create_place(n, "lock", NULL, 1);
    int e1 = nc_create_transition(n, "enter1", NULL), l1 = nc_create_transition(n, "leave1", NULL);
    int e2 = nc_create_transition(n, "enter2", NULL), l2 = nc_create_transition(n, "leave2", NULL);
    arc(n, NC_ARC_PT, i1, e1, 1), arc(n, NC_ARC_PT, lk, e1, 1), arc(n, NC_ARC_TP, c1, e1, 1);
    arc(n, NC_ARC_PT, c1, l1, 1), arc(n, NC_ARC_TP, i1, l1, 1), arc(n, NC_ARC_TP, lk, l1, 1);
    arc(n, NC_ARC_PT, i2, e2, 1), arc(n, NC_ARC_PT, lk, e2, 1), arc(n, NC_ARC_TP, c2, e2, 1);
    arc(n, NC_ARC_PT, c2, l2, 1), arc(n, NC_ARC_TP, i2, l2, 1), arc(n, NC_ARC_TP, lk, l2, 1);
    return n;
}

/* start -go-> end, where it stops; apart from it, never -stuck-> (no
 * output) with never unmarked. */
static net_t *chain(void)
{
    net_t *n = nc_create_net("chain", NULL);
    int s = nc_create_place(n, "start", NULL, 1), e = nc_create_place(n, "end", NULL, 0);
    int nv = nc_create_place(n, "never", NULL, 0);
    int go = nc_create_transition(n, "go", NULL), st = nc_create_transition(n, "stuck", NULL);
    arc(n, NC_ARC_PT, s, go, 1), arc(n, NC_ARC_TP, e, go, 1);
    arc(n, NC_ARC_PT, nv, st, 1);
    return n;
}

/* pump keeps its two tokens and adds one to out each time: unbounded, never
 * dead. */
static net_t *pump(void)
{
    net_t *n = nc_create_net("pump", NULL);
    int p = nc_create_place(n, "p", NULL, 2), o = nc_create_place(n, "out", NULL, 0);
    int t = nc_create_transition(n, "pump", NULL);
    arc(n, NC_ARC_PT, p, t, 1), arc(n, NC_ARC_TP, p, t, 1), arc(n, NC_ARC_TP, o, t, 1);
    return n;
}

/* a chooses between heavy (weight 2 to b) and light (to b); b -back-> a.
 * A state machine with free choice, not ordinary, not conservative; once
 * heavy has fired, one token circles for ever and heavy is dead. */
static net_t *choice(void)
{
    net_t *n = nc_create_net("choice", NULL);
    int a = nc_create_place(n, "a", NULL, 2), b = nc_create_place(n, "b", NULL, 0);
    int h = nc_create_transition(n, "heavy", NULL), l = nc_create_transition(n, "light", NULL);
    int bk = nc_create_transition(n, "back", NULL);
    arc(n, NC_ARC_PT, a, h, 2), arc(n, NC_ARC_TP, b, h, 1);
    arc(n, NC_ARC_PT, a, l, 1), arc(n, NC_ARC_TP, b, l, 1);
    arc(n, NC_ARC_PT, b, bk, 1), arc(n, NC_ARC_TP, a, bk, 1);
    int u = nc_add_unit(n, "u", -1);
    nc_unit_add_place(n, (uint32_t)u, (uint32_t)a);
    nc_unit_add_place(n, (uint32_t)u, (uint32_t)b);
    return n;
}

typedef struct want {
    gp_id id;
    int value;
} want;

/* Checks each wanted value; runs must replay and end as claimed. */
static void expect(const char *name, net_t *net, const want *w, size_t nw, size_t mem_mb)
{
    const cnet_t *cn = nc_compile(net);
    budget_t budget = unit_budget(20, mem_mb << 20);
    check_options opt = {.budget = &budget};
    gp_result r;
    generic_properties(cn, &opt, &r);
    for (size_t i = 0; i < nw; i++) {
        const gp_value *v = &r.v[w[i].id];
        CHECK(v->value == w[i].value && v->explanation[0], "%s %s: %d (%s)", name,
              gp_name(w[i].id), w[i].value, v->explanation);
    }
    for (int i = 0; i < GP_COUNT; i++) {
        const gp_value *v = &r.v[i];
        if (v->role == RUN_NONE)
            continue;
        nc_count m[8];
        replay_initial(net, m);
        int ok = net->nplaces <= 8;
        for (size_t k = 0; ok && k < v->run_len; k++) {
            ok = replay_enabled(net, m, v->run[k]);
            if (ok)
                replay_fire(net, m, v->run[k]);
        }
        if (ok && v->loop_start == v->run_len)
            ok = replay_dead(net, m);
        if (ok && i == GP_SAFE) {
            int two = 0;
            for (size_t p = 0; p < net->nplaces; p++)
                two |= m[p] > 1;
            ok = two;
        }
        CHECK(ok, "%s %s: its run replays to what it claims", name, gp_name((gp_id)i));
    }
    gp_result_clear(&r);
}

int main(void)
{
    net_t *n = mutex();
    const want wm[] = {
        {GP_ORDINARY, 1}, {GP_SIMPLE_FREE_CHOICE, 0}, {GP_EXTENDED_FREE_CHOICE, 0},
        {GP_STATE_MACHINE, 0}, {GP_MARKED_GRAPH, 0}, {GP_CONNECTED, 1},
        {GP_STRONGLY_CONNECTED, 1}, {GP_SOURCE_PLACE, 0}, {GP_SINK_PLACE, 0},
        {GP_SOURCE_TRANSITION, 0}, {GP_SINK_TRANSITION, 0}, {GP_LOOP_FREE, 1},
        {GP_CONSERVATIVE, 0}, {GP_SUBCONSERVATIVE, 0}, {GP_NESTED_UNITS, 0}, {GP_SAFE, 1},
        {GP_DEAD_PLACES, 0}, {GP_DEAD_TRANSITIONS, 0}, {GP_DEADLOCK, 0}, {GP_REVERSIBLE, 1},
        {GP_LIVE, 1}, {GP_QUASI_LIVE, 1},
    };
    expect("mutex", n, wm, sizeof wm / sizeof wm[0], 64);
    nc_free_net(n);

    n = chain();
    const want wc[] = {
        {GP_CONNECTED, 0}, {GP_STRONGLY_CONNECTED, 0}, {GP_SOURCE_PLACE, 1}, {GP_SINK_PLACE, 1},
        {GP_SINK_TRANSITION, 1}, {GP_STATE_MACHINE, 0}, {GP_SUBCONSERVATIVE, 1},
        {GP_CONSERVATIVE, 0}, {GP_SAFE, 1}, {GP_DEAD_PLACES, 1}, {GP_DEAD_TRANSITIONS, 1},
        {GP_QUASI_LIVE, 0}, {GP_DEADLOCK, 1}, {GP_REVERSIBLE, 0}, {GP_LIVE, 0},
    };
    expect("chain", n, wc, sizeof wc / sizeof wc[0], 64);
    nc_free_net(n);

    /* unbounded: the exploration cannot end; the initial marking is
     * already unsafe, and the state equation rules out a deadlock */
    n = pump();
    const want wp[] = {
        {GP_LOOP_FREE, 0}, {GP_SOURCE_PLACE, 0}, {GP_SINK_PLACE, 1}, {GP_SAFE, 0},
        {GP_DEADLOCK, 0}, {GP_DEAD_TRANSITIONS, 0}, {GP_REVERSIBLE, -1}, {GP_LIVE, -1},
    };
    expect("pump", n, wp, sizeof wp / sizeof wp[0], 8);
    nc_free_net(n);

    n = choice();
    const want wf[] = {
        {GP_ORDINARY, 0}, {GP_SIMPLE_FREE_CHOICE, 1}, {GP_EXTENDED_FREE_CHOICE, 1},
        {GP_STATE_MACHINE, 1}, {GP_MARKED_GRAPH, 0}, {GP_STRONGLY_CONNECTED, 1},
        {GP_CONSERVATIVE, 0}, {GP_SUBCONSERVATIVE, 1}, {GP_NESTED_UNITS, 1}, {GP_SAFE, 0},
        {GP_DEADLOCK, 0}, {GP_REVERSIBLE, 0}, {GP_LIVE, 0},
    };
    expect("choice", n, wf, sizeof wf / sizeof wf[0], 64);
    nc_free_net(n);
    UNIT_DONE();
}
