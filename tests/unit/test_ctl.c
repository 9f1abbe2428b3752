/* CTL: hand-made nets with known answers for every operator (deadlocks
 * included, mcc-formats.md §3.4), then random formulas checked against a
 * naive evaluator written here from the fixpoint equations of §3.4, on a
 * state graph this test enumerates itself (replay.h).  Every run the
 * checker gives is replayed and must show its value: the path, lasso or
 * run into a deadlock that the outermost operator asks for. */
#include "checkers/checkers.h"
#include "checkers/explicit.h"
#include "checkers/reduced.h"
#include "checkers/stubborn.h"
#include "checkers/ctl/ctl.h"
#include "replay.h"
#include "rnd.h"
#include "unit.h"
#include "budgets.h"

#include <stdlib.h>

/* ---- nets ---- */

static void arc(net_t *n, nc_arc_kind k, int p, int t, nc_count w)
{
    nc_create_arc(n, k, (uint32_t)p, (uint32_t)t, w, 0);
}

/* p0 -t0-> p1 -t1-> p2, where it stops. */
static net_t *chain_net(void)
{
    net_t *n = nc_create_net("chain", NULL);
    for (int p = 0; p < 3; p++)
        nc_create_place(n, NULL, NULL, p == 0);
    nc_create_transition(n, "t0", NULL);
    nc_create_transition(n, "t1", NULL);
    arc(n, NC_ARC_PT, 0, 0, 1), arc(n, NC_ARC_TP, 1, 0, 1);
    arc(n, NC_ARC_PT, 1, 1, 1), arc(n, NC_ARC_TP, 2, 1, 1);
    return n;
}

/* One marked place and no transition: the initial marking is a deadlock. */
static net_t *dead_net(void)
{
    net_t *n = nc_create_net("dead", NULL);
    nc_create_place(n, NULL, NULL, 1);
    return n;
}

/* p0 -a-> p1 -b-> p0 is a cycle; p0 -c-> p2 leaves it for a deadlock. */
static net_t *lasso_net(void)
{
    net_t *n = nc_create_net("lasso", NULL);
    for (int p = 0; p < 3; p++)
        nc_create_place(n, NULL, NULL, p == 0);
    nc_create_transition(n, "a", NULL);
    nc_create_transition(n, "b", NULL);
    nc_create_transition(n, "c", NULL);
    arc(n, NC_ARC_PT, 0, 0, 1), arc(n, NC_ARC_TP, 1, 0, 1);
    arc(n, NC_ARC_PT, 1, 1, 1), arc(n, NC_ARC_TP, 0, 1, 1);
    arc(n, NC_ARC_PT, 0, 2, 1), arc(n, NC_ARC_TP, 2, 2, 1);
    return n;
}

/* Two processes with a lock, and a producer filling a bounded buffer of
 * three with weights: a few dozen markings, cycles, no deadlock. */
static net_t *mutex_buffer_net(void)
{
    net_t *n = nc_create_net("mutexbuf", NULL);
    int i1 = nc_create_place(n, NULL, NULL, 1), c1 = nc_create_place(n, NULL, NULL, 0);
    int i2 = nc_create_place(n, NULL, NULL, 1), c2 = nc_create_place(n, NULL, NULL, 0);
    int lk = nc_create_place(n, NULL, NULL, 1);
    int full = nc_create_place(n, NULL, NULL, 0), empty = nc_create_place(n, NULL, NULL, 3);
    for (int t = 0; t < 6; t++)
        nc_create_transition(n, NULL, NULL);
    arc(n, NC_ARC_PT, i1, 0, 1), arc(n, NC_ARC_TP, c1, 0, 1), arc(n, NC_ARC_PT, lk, 0, 1);
    arc(n, NC_ARC_PT, c1, 1, 1), arc(n, NC_ARC_TP, i1, 1, 1), arc(n, NC_ARC_TP, lk, 1, 1);
    arc(n, NC_ARC_PT, i2, 2, 1), arc(n, NC_ARC_TP, c2, 2, 1), arc(n, NC_ARC_PT, lk, 2, 1);
    arc(n, NC_ARC_PT, c2, 3, 1), arc(n, NC_ARC_TP, i2, 3, 1), arc(n, NC_ARC_TP, lk, 3, 1);
    /* process 1 in its critical section produces two at once */
    arc(n, NC_ARC_PT, empty, 4, 2), arc(n, NC_ARC_TP, full, 4, 2), arc(n, NC_ARC_PT, c1, 4, 1);
    arc(n, NC_ARC_TP, c1, 4, 1);
    arc(n, NC_ARC_PT, full, 5, 1), arc(n, NC_ARC_TP, empty, 5, 1);
    return n;
}

/* Two tokens race down p0 -> p1 -> p2; p2 with two tokens can reset one
 * to p0, and a token in p1 alone may die: some paths deadlock, some loop. */
static net_t *race_net(void)
{
    net_t *n = nc_create_net("race", NULL);
    for (int p = 0; p < 4; p++)
        nc_create_place(n, NULL, NULL, p == 0 ? 2 : 0);
    for (int t = 0; t < 4; t++)
        nc_create_transition(n, NULL, NULL);
    arc(n, NC_ARC_PT, 0, 0, 1), arc(n, NC_ARC_TP, 1, 0, 1);
    arc(n, NC_ARC_PT, 1, 1, 1), arc(n, NC_ARC_TP, 2, 1, 1);
    arc(n, NC_ARC_PT, 2, 2, 2), arc(n, NC_ARC_TP, 2, 2, 1), arc(n, NC_ARC_TP, 0, 2, 1);
    arc(n, NC_ARC_PT, 1, 3, 1), arc(n, NC_ARC_TP, 3, 3, 1);
    return n;
}

/* ---- the test's own state graph ---- */

#define MAXS 512
#define MAXE 4096

typedef struct sgraph {
    const net_t *net;
    size_t np, n, ne;
    nc_count m[MAXS][8];
    uint32_t first[MAXS + 1];
    uint32_t to[MAXE], label[MAXE];
} sgraph;

static int find(const sgraph *g, const nc_count *m)
{
    for (size_t s = 0; s < g->n; s++)
        if (!memcmp(g->m[s], m, g->np * sizeof *m))
            return (int)s;
    return -1;
}

/* Breadth-first; states in order of discovery, so 0 is the initial one. */
static int enumerate(sgraph *g, const net_t *net)
{
    memset(g, 0, sizeof *g);
    g->net = net;
    g->np = net->nplaces;
    if (g->np > 8)
        return -1;
    replay_initial(net, g->m[0]);
    g->n = 1;
    for (size_t s = 0; s < g->n; s++) {
        g->first[s] = (uint32_t)g->ne;
        for (uint32_t t = 0; t < net->ntransitions; t++) {
            if (!replay_enabled(net, g->m[s], t))
                continue;
            nc_count next[8];
            memcpy(next, g->m[s], sizeof next);
            replay_fire(net, next, t);
            int k = find(g, next);
            if (k < 0) {
                if (g->n == MAXS)
                    return -1;
                memcpy(g->m[g->n], next, sizeof next);
                k = (int)g->n++;
            }
            if (g->ne == MAXE)
                return -1;
            g->to[g->ne] = (uint32_t)k;
            g->label[g->ne++] = t;
        }
    }
    g->first[g->n] = (uint32_t)g->ne;
    return 0;
}

static int dead(const sgraph *g, size_t s)
{
    return g->first[s] == g->first[s + 1];
}

typedef struct at {
    const sgraph *g;
    size_t s;
} at;

static int at_enabled(uint32_t t, void *ctx)
{
    const at *a = ctx;
    return replay_enabled(a->g->net, a->g->m[a->s], t);
}

static int at_dead(void *ctx)
{
    const at *a = ctx;
    return dead(a->g, a->s);
}

/* The states of f, by the equations of §3.4 iterated to their fixpoint. */
static void naive(const sgraph *g, const tree_t *f, char *out)
{
    char l[MAXS], r[MAXS];
    size_t n = g->n;
    if (tree_is_state_formula(f)) {
        for (size_t s = 0; s < n; s++) {
            at a = {g, s};
            tree_eval_ctx c = {g->m[s], at_enabled, at_dead, &a};
            out[s] = (char)(tree_eval_state(f, &c) == 1);
        }
        return;
    }
    if (f->l)
        naive(g, f->l, l);
    if (f->r)
        naive(g, f->r, r);
    int least = 1;   /* μ (start empty) or ν (start full) */
    switch (f->op) {
    case T_NOT: for (size_t s = 0; s < n; s++) out[s] = !l[s]; return;
    case T_AND: for (size_t s = 0; s < n; s++) out[s] = l[s] && r[s]; return;
    case T_OR: for (size_t s = 0; s < n; s++) out[s] = l[s] || r[s]; return;
    case T_IMPLIES: for (size_t s = 0; s < n; s++) out[s] = !l[s] || r[s]; return;
    case T_IFF: for (size_t s = 0; s < n; s++) out[s] = !l[s] == !r[s]; return;
    case T_EG: case T_AG: least = 0; break;
    default: break;
    }
    for (size_t s = 0; s < n; s++)
        out[s] = !least;
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t s = 0; s < n; s++) {
            int some = 0, all = 1;   /* of the successors, in out (or l for X) */
            for (uint32_t e = g->first[s]; e < g->first[s + 1]; e++) {
                int in = f->op == T_EX || f->op == T_AX ? l[g->to[e]] : out[g->to[e]];
                some |= in;
                all &= in;
            }
            int v;
            switch (f->op) {
            case T_EX: v = some; break;
            case T_AX: v = all; break;
            case T_EF: v = l[s] || some; break;
            case T_AF: v = l[s] || (!dead(g, s) && all); break;
            case T_EU: v = r[s] || (l[s] && some); break;
            case T_AU: v = r[s] || (l[s] && !dead(g, s) && all); break;
            case T_EG: v = l[s] && (dead(g, s) || some); break;
            default: v = l[s] && all; break;   /* T_AG */
            }
            if (v != out[s]) {
                out[s] = (char)v;
                changed = 1;
            }
        }
    }
}

/* ---- checking a run against the graph ---- */

/* The states a run visits (n + 1 of them), or -1 when a step is not
 * enabled. */
static int visit(const sgraph *g, const result_t *res, int *states)
{
    nc_count m[8];
    replay_initial(g->net, m);
    states[0] = 0;
    for (size_t i = 0; i < res->run_len; i++) {
        if (res->run[i] >= g->net->ntransitions || !replay_enabled(g->net, m, res->run[i]))
            return -1;
        replay_fire(g->net, m, res->run[i]);
        states[i + 1] = find(g, m);
    }
    return 0;
}

/* Whether res's run shows the value v of f at the initial marking. */
static int shows(const sgraph *g, const tree_t *f, int v, const result_t *res)
{
    /* the heading follows the whole formula's value, negations and all */
    int role_ok = res->role == (v ? RUN_WITNESS : RUN_COUNTEREXAMPLE);
    while (f->op == T_NOT) {
        f = f->l;
        v = !v;
    }
    int states[MAXS + 2];
    char l[MAXS], r[MAXS];
    size_t n = res->run_len;
    if (n > MAXS || visit(g, res, states) < 0)
        return 0;
    naive(g, f->l, l);
    if (f->r)
        naive(g, f->r, r);
    int last = states[n], lasso = res->loop_start < n, deadend = res->loop_start == n;
    if (lasso && states[res->loop_start] != last)
        return 0;
    if (deadend && !dead(g, (size_t)last))
        return 0;
    int all_l = 1, all_not_l = 1, all_not_r = 1;
    for (size_t i = 0; i <= n; i++) {
        all_l &= l[states[i]];
        all_not_l &= !l[states[i]];
        if (f->r)
            all_not_r &= !r[states[i]];
    }
    int before_l = 1;   /* φ on every state before the last */
    for (size_t i = 0; i < n; i++)
        before_l &= l[states[i]];
    switch (f->op) {
    case T_EX: return v && role_ok && n == 1 && l[last];
    case T_AX: return !v && role_ok && n == 1 && !l[last];
    case T_EF: return v && role_ok && l[last] && !lasso;
    case T_AG: return !v && role_ok && !l[last] && !lasso;
    case T_EU: return v && role_ok && r[last] && before_l && !lasso;
    case T_EG: return v && role_ok && all_l && (lasso || deadend);
    case T_AF: return !v && role_ok && all_not_l && (lasso || deadend);
    case T_AU:
        /* ψ never; and φ fails at the end, or the run goes on forever */
        return !v && role_ok && all_not_r && (lasso || deadend || !l[last]);
    default: return 0;
    }
}

/* ---- formulas ---- */

static tree_t *ge(uint32_t place, int64_t k)
{
    lin_term term = {place, 1};
    return tree_cmp(&term, 1, -k, REL_GE);
}

static tree_t *fire1(uint32_t t)
{
    return tree_fireable(&t, 1);
}

static tree_t *un(tree_op op, tree_t *a)
{
    return tree_unary(op, a);
}

static tree_t *bin(tree_op op, tree_t *a, tree_t *b)
{
    return tree_binary(op, a, b);
}

/* Checks f on net against the expected answer; a run, when given, must
 * replay and show it.  want_run: whether a run is expected. */
static void expect(const net_t *net, tree_t *f, int want, int want_run, const char *what)
{
    const cnet_t *cn = nc_compile((net_t *)net);
    budget_t budget = unit_budget(0, 0);
    check_options opt = {.budget = &budget};
    opt.want_run = 1;
    result_t res;
    result_init(&res);
    ctl_run(cn, f, &opt, &res);
    sgraph *g = malloc(sizeof *g);
    int ok = res.answer == (want ? ANSWER_YES : ANSWER_NO);
    CHECK(ok, "%s: %s", what, want ? "holds" : "fails");
    char why[128];
    CHECK(ctl_local_check(cn, f, &opt, NULL, why, sizeof why) == want, "%s: local check agrees",
          what);
    if (g && enumerate(g, net) == 0) {
        int has = res.role != RUN_NONE;
        CHECK(has == want_run && (!has || shows(g, f, want, &res)),
              "%s: %s", what, want_run ? "its run replays and shows it" : "no run");
    }
    free(g);
    result_clear(&res);
    tree_free(f);
}

static void known_answers(void)
{
    net_t *chain = chain_net(), *deadn = dead_net(), *lasso = lasso_net();
    /* chain: s0 -t0-> s1 -t1-> s2 (dead) */
    expect(chain, un(T_EX, ge(1, 1)), 1, 1, "chain EX p1");
    expect(chain, un(T_AX, ge(1, 1)), 1, 0, "chain AX p1");
    expect(chain, un(T_EX, ge(2, 1)), 0, 0, "chain EX p2");
    expect(chain, un(T_EF, tree_deadlock()), 1, 1, "chain EF deadlock");
    expect(chain, un(T_AG, un(T_EX, tree_const(1))), 0, 1, "chain AG EX true (the end is dead)");
    expect(chain, un(T_AF, ge(2, 1)), 1, 0, "chain AF p2");
    expect(chain, un(T_EG, ge(0, 1)), 0, 0, "chain EG p0 (p0 must be left)");
    expect(chain, un(T_EG, tree_const(1)), 1, 1, "chain EG true (a path into the deadlock)");
    expect(chain, un(T_AG, bin(T_OR, ge(0, 1), ge(1, 1))), 0, 1, "chain AG (p0 | p1)");
    expect(chain, bin(T_AU, bin(T_OR, ge(0, 1), ge(1, 1)), ge(2, 1)), 1, 0,
           "chain A[(p0 | p1) U p2]");
    expect(chain, bin(T_EU, ge(0, 1), ge(2, 1)), 0, 0, "chain E[p0 U p2]");
    expect(chain, bin(T_EU, un(T_NOT, ge(2, 1)), ge(2, 1)), 1, 1, "chain E[!p2 U p2]");
    expect(chain, un(T_AF, un(T_AG, ge(2, 1))), 1, 0, "chain AF AG p2");
    expect(chain, un(T_NOT, un(T_EF, ge(2, 1))), 0, 1, "chain !EF p2 (run of EF p2)");
    /* an initial deadlock: the only path is the marking itself */
    expect(deadn, un(T_EX, tree_const(1)), 0, 0, "dead EX true");
    expect(deadn, un(T_AX, tree_const(0)), 1, 0, "dead AX false");
    expect(deadn, un(T_EG, ge(0, 1)), 1, 1, "dead EG p0");
    expect(deadn, un(T_AF, ge(0, 1)), 1, 0, "dead AF p0");
    expect(deadn, un(T_AF, un(T_NOT, ge(0, 1))), 0, 1, "dead AF !p0");
    expect(deadn, bin(T_AU, tree_const(1), ge(0, 1)), 1, 0, "dead A[true U p0]");
    expect(deadn, bin(T_AU, tree_const(1), ge(0, 2)), 0, 1, "dead A[true U p0 >= 2]");
    expect(deadn, bin(T_EU, tree_const(1), ge(0, 2)), 0, 0, "dead E[true U p0 >= 2]");
    /* lasso: the cycle a b and the exit c to a deadlock */
    expect(lasso, un(T_EG, un(T_NOT, ge(2, 1))), 1, 1, "lasso EG !p2 (the loop)");
    expect(lasso, un(T_AF, ge(2, 1)), 0, 1, "lasso AF p2 (the loop avoids it)");
    expect(lasso, bin(T_AU, un(T_NOT, ge(2, 1)), ge(2, 1)), 0, 1, "lasso A[!p2 U p2]");
    expect(lasso, bin(T_AU, ge(0, 1), ge(1, 1)), 0, 1, "lasso A[p0 U p1] (c leaves both)");
    expect(lasso, bin(T_EU, un(T_NOT, ge(2, 1)), ge(2, 1)), 1, 1, "lasso E[!p2 U p2]");
    expect(lasso, un(T_AG, un(T_EF, ge(2, 1))), 1, 0, "lasso AG EF p2");
    expect(lasso, un(T_EF, un(T_AG, ge(2, 1))), 1, 1, "lasso EF AG p2");
    expect(lasso, un(T_AX, ge(1, 1)), 0, 1, "lasso AX p1");
    expect(lasso, un(T_EX, fire1(1)), 1, 1, "lasso EX fireable(b)");
    expect(lasso, un(T_AG, bin(T_OR, fire1(0), tree_deadlock())), 0, 1,
           "lasso AG (fireable(a) | deadlock)");
    nc_free_net(chain);
    nc_free_net(deadn);
    nc_free_net(lasso);
}

/* ---- random formulas against the naive evaluator ---- */


static tree_t *random_formula(const net_t *net, int depth)
{
    static const tree_op unary[] = {T_NOT, T_EX, T_AX, T_EF, T_AF, T_EG, T_AG};
    static const tree_op binary[] = {T_AND, T_OR, T_EU, T_AU, T_IMPLIES};
    uint32_t pick = depth == 0 ? 0 : rnd(3);
    if (pick == 0) {
        switch (rnd(4)) {
        case 0: return ge(rnd((uint32_t)net->nplaces), 1 + rnd(2));
        case 1: return net->ntransitions ? fire1(rnd((uint32_t)net->ntransitions)) : tree_deadlock();
        case 2: return tree_deadlock();
        default: return un(T_NOT, ge(rnd((uint32_t)net->nplaces), 1));
        }
    }
    if (pick == 1)
        return un(unary[rnd(7)], random_formula(net, depth - 1));
    return bin(binary[rnd(5)], random_formula(net, depth - 1), random_formula(net, depth - 1));
}

static void differential(const char *name, net_t *net, int count)
{
    sgraph *g = malloc(sizeof *g);
    const cnet_t *cn = nc_compile(net);
    if (!g || !cn || enumerate(g, net) < 0) {
        CHECK(0, "%s: the test's own graph", name);
        free(g);
        return;
    }
    int agree = 0, local_agree = 0, por_agree = 0, reduced = 0, runs = 0, runs_ok = 0;
    for (int i = 0; i < count; i++) {
        tree_t *f = random_formula(net, 1 + (int)rnd(4));
        char want[MAXS];
        naive(g, f, want);
        budget_t budget = unit_budget(0, 0);
        check_options opt = {.budget = &budget};
        opt.want_run = 1;
        result_t res;
        result_init(&res);
        ctl_run(cn, f, &opt, &res);
        int got = res.answer == ANSWER_YES ? 1 : res.answer == ANSWER_NO ? 0 : -1;
        char why[128];
        int local = ctl_local_check(cn, f, &opt, NULL, why, sizeof why);
        /* the same with stubborn sets in the E F and A G searches */
        check_options por = opt;
        por.partial_order = 1;
        ctl_local_stats stats = {0, 0};
        int local_por = ctl_local_check(cn, f, &por, &stats, why, sizeof why);
        agree += got == want[0];
        local_agree += local == want[0];
        por_agree += local_por == want[0];
        reduced += stats.reduced;
        if (got != want[0] || local != want[0] || local_por != want[0]) {
            printf("# %s: ", name);
            tree_print(stdout, f);
            printf(": naive %d, checker %d, local %d, local with stubborn sets %d\n", want[0],
                   got, local, local_por);
        }
        if (res.role != RUN_NONE) {
            runs++;
            if (shows(g, f, got, &res))
                runs_ok++;
            else {
                printf("# %s: run of ", name);
                tree_print(stdout, f);
                printf(" does not show its value\n");
            }
        }
        result_clear(&res);
        tree_free(f);
    }
    CHECK(agree == count, "%s: %d random formulas, checker and naive fixpoints agree on %d "
          "(%zu states)", name, count, agree, g->n);
    CHECK(local_agree == count, "%s: the local check agrees on %d of %d", name, local_agree,
          count);
    CHECK(por_agree == count, "%s: the local check with stubborn sets agrees on %d of %d (%d "
          "reduced a search)", name, por_agree, count, reduced);
    CHECK(runs > 0 && runs_ok == runs, "%s: %d of %d runs replay and show their value", name,
          runs_ok, runs);
    free(g);
}

static void limits(void)
{
    /* an unbounded net: the graph never completes; the budget ends it */
    net_t *n = nc_create_net("unbounded", NULL);
    nc_create_place(n, NULL, NULL, 0);
    nc_create_transition(n, NULL, NULL);
    arc(n, NC_ARC_TP, 0, 0, 1);
    const cnet_t *cn = nc_compile(n);
    budget_t budget = unit_budget(0, (size_t)8 << 20);
    check_options opt = {.budget = &budget};
    result_t res;
    result_init(&res);
    tree_t *f = un(T_AG, un(T_EF, ge(0, 1)));
    ctl_run(cn, f, &opt, &res);
    CHECK(res.answer == ANSWER_UNKNOWN && strstr(res.reason, "memory"),
          "unbounded net: UNKNOWN with the reason (%s)", res.reason);
    result_clear(&res);
    result_init(&res);
    tree_t *ef = un(T_EF, ge(0, 3));
    ctl_run(cn, ef, &opt, &res);
    CHECK(res.answer == ANSWER_YES && res.role == RUN_NONE,
          "unbounded net: no graph, but the local check finds EF p0 >= 3 (no run)");
    tree_free(ef);
    result_clear(&res);
    result_init(&res);
    budget_t brief = unit_budget(0.2, 0);
    opt.budget = &brief;
    ctl_run(cn, f, &opt, &res);
    CHECK(res.answer == ANSWER_UNKNOWN && res.reason[0], "unbounded net, 0.2 s: UNKNOWN (%s)",
          res.reason);
    result_clear(&res);
    tree_free(f);
    nc_free_net(n);
    /* LTL operators are not CTL */
    char why[200];
    f = un(T_F, ge(0, 1));
    CHECK(!explicit_accepts(f, KIND_CTL, why, sizeof why), "explicit-ctl refuses F p: %s", why);
    tree_free(f);
}

int main(void)
{
    known_answers();
    net_t *nets[] = {chain_net(), dead_net(), lasso_net(), mutex_buffer_net(), race_net()};
    const char *names[] = {"chain", "dead", "lasso", "mutex+buffer", "race"};
    for (size_t i = 0; i < sizeof nets / sizeof nets[0]; i++) {
        differential(names[i], nets[i], 400);
        nc_free_net(nets[i]);
    }
    limits();
    UNIT_DONE();
}
