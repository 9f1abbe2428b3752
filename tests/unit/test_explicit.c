/* explicit: dl and reach by breadth-first search on small nets built in
 * place.  Every witness is replayed on the net: each step enabled, and the
 * last marking a deadlock or a model of the formula. */
#include "checkers/checkers.h"
#include "checkers/explicit.h"
#include "checkers/reduced.h"
#include "checkers/stubborn.h"
#include "engine/explore.h"
#include "unit.h"
#include "budgets.h"

#include <stdlib.h>
#include <string.h>

/* ---- building nets ---- */

static void arc(net_t *n, nc_arc_kind k, int p, int t, nc_count w)
{
    nc_create_arc(n, k, (uint32_t)p, (uint32_t)t, w, 0);
}

/* Two processes idle/crit; with_lock adds the lock place that makes it a
 * mutual exclusion.  Transitions: enter1 leave1 enter2 leave2. */
static net_t *mutex_net(int with_lock)
{
    net_t *n = nc_create_net("mutex", NULL);
    int i1 = nc_create_place(n, "idle1", NULL, 1), c1 = nc_create_place(n, "crit1", NULL, 0);
    int i2 = nc_create_place(n, "idle2", NULL, 1), c2 = nc_create_place(n, "crit2", NULL, 0);
    int lk = nc_create_place(n, "lock", NULL, 1);
    int e1 = nc_create_transition(n, "enter1", NULL), l1 = nc_create_transition(n, "leave1", NULL);
    int e2 = nc_create_transition(n, "enter2", NULL), l2 = nc_create_transition(n, "leave2", NULL);
    arc(n, NC_ARC_PT, i1, e1, 1), arc(n, NC_ARC_TP, c1, e1, 1);
    arc(n, NC_ARC_PT, c1, l1, 1), arc(n, NC_ARC_TP, i1, l1, 1);
    arc(n, NC_ARC_PT, i2, e2, 1), arc(n, NC_ARC_TP, c2, e2, 1);
    arc(n, NC_ARC_PT, c2, l2, 1), arc(n, NC_ARC_TP, i2, l2, 1);
    if (with_lock) {
        arc(n, NC_ARC_PT, lk, e1, 1), arc(n, NC_ARC_TP, lk, l1, 1);
        arc(n, NC_ARC_PT, lk, e2, 1), arc(n, NC_ARC_TP, lk, l2, 1);
    }
    return n;
}

/* p0 chooses t0 (to p1) or t1 (to p2); p1 -t2-> p3 and p2 -t3-> p4 are
 * both dead ends at depth 2, and p3 is found first. */
static net_t *choice_net(void)
{
    net_t *n = nc_create_net("choice", NULL);
    for (int p = 0; p < 5; p++)
        nc_create_place(n, NULL, NULL, p == 0);
    for (int t = 0; t < 4; t++)
        nc_create_transition(n, NULL, NULL);
    arc(n, NC_ARC_PT, 0, 0, 1), arc(n, NC_ARC_TP, 1, 0, 1);
    arc(n, NC_ARC_PT, 0, 1, 1), arc(n, NC_ARC_TP, 2, 1, 1);
    arc(n, NC_ARC_PT, 1, 2, 1), arc(n, NC_ARC_TP, 3, 2, 1);
    arc(n, NC_ARC_PT, 2, 3, 1), arc(n, NC_ARC_TP, 4, 3, 1);
    return n;
}

/* A transition with an empty preset filling p0: infinitely many states. */
static net_t *unbounded_net(void)
{
    net_t *n = nc_create_net("unbounded", NULL);
    nc_create_place(n, "p0", NULL, 0);
    nc_create_transition(n, "gen", NULL);
    arc(n, NC_ARC_TP, 0, 0, 1);
    return n;
}

/* Weights and read arcs: p0 = 5; t0 takes 2 from p0 and puts 1 on p1; t1
 * reads 2 on p1 and moves 1 token from p0 to p2 with weight 3. */
static net_t *weighted_net(void)
{
    net_t *n = nc_create_net("weighted", NULL);
    nc_create_place(n, "p0", NULL, 5);
    nc_create_place(n, "p1", NULL, 0);
    nc_create_place(n, "p2", NULL, 0);
    nc_create_transition(n, "t0", NULL);
    nc_create_transition(n, "t1", NULL);
    arc(n, NC_ARC_PT, 0, 0, 2), arc(n, NC_ARC_TP, 1, 0, 1);
    arc(n, NC_ARC_READ, 1, 1, 2), arc(n, NC_ARC_PT, 0, 1, 1), arc(n, NC_ARC_TP, 2, 1, 3);
    return n;
}

/* A place close to the largest count, and a transition adding `add`. */
static net_t *huge_net(nc_count initial, nc_count add)
{
    net_t *n = nc_create_net("huge", NULL);
    nc_create_place(n, "p0", NULL, initial);
    nc_create_transition(n, "t0", NULL);
    arc(n, NC_ARC_TP, 0, 0, add);
    return n;
}

/* examples/pep/philo3.ll_net, places and transitions in the file's order. */
static net_t *philo_net(void)
{
    static const char *places[] = {"think0", "hasleft0", "eat0", "think1", "hasleft1", "eat1",
                                   "think2", "hasleft2", "eat2", "fork0", "fork1", "fork2"};
    static const char *trans[] = {"takeleft0", "takeright0", "release0",
                                  "takeleft1", "takeright1", "release1",
                                  "takeleft2", "takeright2", "release2"};
    static const int tp[][2] = {{1, 2}, {2, 3}, {3, 1}, {3, 10}, {3, 11}, {4, 5}, {5, 6}, {6, 4},
                                {6, 11}, {6, 12}, {7, 8}, {8, 9}, {9, 7}, {9, 12}, {9, 10}};
    static const int pt[][2] = {{1, 1}, {10, 1}, {2, 2}, {11, 2}, {3, 3}, {4, 4}, {11, 4}, {5, 5},
                                {12, 5}, {6, 6}, {7, 7}, {12, 7}, {8, 8}, {10, 8}, {9, 9}};
    net_t *n = nc_create_net("philo3", NULL);
    for (int p = 0; p < 12; p++)
        nc_create_place(n, places[p], NULL, p % 3 == 0 || p >= 9);
    for (int t = 0; t < 9; t++)
        nc_create_transition(n, trans[t], NULL);
    for (size_t i = 0; i < sizeof tp / sizeof *tp; i++)
        arc(n, NC_ARC_TP, tp[i][1] - 1, tp[i][0] - 1, 1);
    for (size_t i = 0; i < sizeof pt / sizeof *pt; i++)
        arc(n, NC_ARC_PT, pt[i][0] - 1, pt[i][1] - 1, 1);
    return n;
}

/* ---- formulas ---- */

static tree_t *atleast(uint32_t place, int64_t k)
{
    lin_term term = {place, 1};
    return tree_cmp(&term, 1, -k, REL_GE);
}

/* ---- running and replaying ---- */

static int enabled_cb(uint32_t t, void *ctx)
{
    const void **c = ctx;
    return cn_enabled(c[0], c[1], t);
}

static int deadlock_cb(void *ctx)
{
    const void **c = ctx;
    const cnet_t *cn = c[0];
    for (uint32_t t = 0; t < cn->ntransitions; t++)
        if (cn_enabled(cn, c[1], t))
            return 0;
    return 1;
}

/* Replays res->run from the initial marking: 1 when every step is enabled
 * and the end satisfies f (a deadlock when f is NULL). */
static int replay(const cnet_t *cn, const result_t *res, const tree_t *f)
{
    nc_count *m = malloc((cn->nplaces + 1) * sizeof *m);
    memcpy(m, cn->initial, cn->nplaces * sizeof *m);
    int ok = res->role == RUN_WITNESS && res->loop_start == RESULT_NO_LOOP &&
             (res->run || res->run_len == 0);
    for (size_t i = 0; ok && i < res->run_len; i++)
        ok = res->run[i] < cn->ntransitions && cn_enabled(cn, m, res->run[i]) &&
             cn_fire(cn, m, res->run[i]) == 0;
    const void *c[2] = {cn, m};
    tree_eval_ctx ec = {m, enabled_cb, deadlock_cb, c};
    if (ok)
        ok = f ? tree_eval_state(f, &ec) == 1 : deadlock_cb(c);
    free(m);
    return ok;
}

static void run(net_t *n, const tree_t *f, prop_kind kind, check_options *opt, result_t *res)
{
    const cnet_t *cn = nc_compile(n);
    char why[200];
    result_init(res);
    if (!explicit_accepts(f, kind, why, sizeof why)) {
        result_unknown(res, why);
        return;
    }
    explicit_run(cn, f, kind, opt, res);
}

static int same_run(const result_t *res, const uint32_t *want, size_t n)
{
    if (res->run_len != n)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (res->run[i] != want[i])
            return 0;
    return 1;
}

static check_options options(void)
{
    static budget_t budget;
    budget = unit_budget(0, 0);
    check_options opt;
    memset(&opt, 0, sizeof opt);
    opt.budget = &budget;
    opt.want_run = 1;
    return opt;
}

/* ---- the tests ---- */

static void test_mutex(void)
{
    check_options opt = options();
    result_t res;
    net_t *n = mutex_net(1);
    tree_t *both = tree_binary(T_AND, atleast(1, 1), atleast(3, 1));
    run(n, both, KIND_REACH, &opt, &res);
    CHECK(res.answer == ANSWER_NO && res.run_len == 0, "mutex holds: reach crit1 & crit2 is NO");
    CHECK(res.states == 3 && res.edges == 4, "mutex: 3 states, 4 edges (got %llu, %llu)",
          (unsigned long long)res.states, (unsigned long long)res.edges);
    CHECK(strstr(res.techniques, "EXPLICIT") != NULL, "technique EXPLICIT named");
    result_clear(&res);
    run(n, NULL, KIND_DL, &opt, &res);
    CHECK(res.answer == ANSWER_NO, "mutex: deadlock-free");
    result_clear(&res);
    nc_free_net(n);

    n = mutex_net(0);
    run(n, both, KIND_REACH, &opt, &res);
    const uint32_t want[] = {0, 2};
    CHECK(res.answer == ANSWER_YES && same_run(&res, want, 2), "no lock: YES, run enter1 enter2");
    CHECK(replay(nc_compile(n), &res, both), "no lock: witness replays");
    result_clear(&res);
    opt.want_run = 0;
    run(n, both, KIND_REACH, &opt, &res);
    CHECK(res.answer == ANSWER_YES && res.run_len == 0 && res.role == RUN_NONE,
          "without want_run: YES and no run");
    result_clear(&res);
    opt.want_run = 1;
    tree_t *init = atleast(0, 1);
    run(n, init, KIND_REACH, &opt, &res);
    CHECK(res.answer == ANSWER_YES && res.run_len == 0 && replay(nc_compile(n), &res, init) &&
          res.states == 1, "initial marking satisfies: empty witness, 1 state");
    result_clear(&res);
    tree_free(init);
    tree_free(both);
    nc_free_net(n);
}

static void test_choice(void)
{
    check_options opt = options();
    result_t res;
    net_t *n = choice_net();
    run(n, NULL, KIND_DL, &opt, &res);
    const uint32_t want[] = {0, 2};
    CHECK(res.answer == ANSWER_YES && same_run(&res, want, 2), "choice: dl YES, run t0 t2");
    CHECK(replay(nc_compile(n), &res, NULL), "choice: dl witness replays");
    result_clear(&res);
    tree_t *p4 = atleast(4, 1);
    run(n, p4, KIND_REACH, &opt, &res);
    const uint32_t want4[] = {1, 3};
    CHECK(res.answer == ANSWER_YES && same_run(&res, want4, 2) && replay(nc_compile(n), &res, p4),
          "choice: reach p4 YES, run t1 t3");
    result_clear(&res);
    tree_free(p4);
    tree_t *dead = tree_deadlock();
    run(n, dead, KIND_REACH, &opt, &res);
    CHECK(res.answer == ANSWER_YES && same_run(&res, want, 2) && replay(nc_compile(n), &res, dead),
          "choice: reach deadlock = dl");
    result_clear(&res);
    tree_free(dead);
    uint32_t t3 = 3;
    tree_t *fire = tree_fireable(&t3, 1);
    run(n, fire, KIND_REACH, &opt, &res);
    CHECK(res.answer == ANSWER_YES && res.run_len == 1 && res.run[0] == 1 &&
          replay(nc_compile(n), &res, fire), "choice: reach fireable(t3) YES, run t1");
    result_clear(&res);
    tree_free(fire);
    nc_free_net(n);
}

static void test_limits(void)
{
    check_options opt = options();
    result_t res;
    net_t *n = unbounded_net();
    budget_t small = unit_budget(0, 1000000);
    opt.budget = &small;
    run(n, NULL, KIND_DL, &opt, &res);
    CHECK(res.answer == ANSWER_UNKNOWN && strcmp(res.reason, "memory budget exhausted") == 0 &&
          res.run_len == 0, "unbounded, 1 MB: UNKNOWN (%s) after %llu states", res.reason,
          (unsigned long long)res.states);
    CHECK(res.peak_bytes > 0 && res.peak_bytes <= 1000000 + 4096, "peak %zu bytes within budget",
          res.peak_bytes);
    result_clear(&res);
    budget_t whole = unit_budget(0, 0);
    opt.budget = &whole;
    opt.max_states = 1000;
    run(n, NULL, KIND_DL, &opt, &res);
    CHECK(res.answer == ANSWER_UNKNOWN && strcmp(res.reason, "state limit reached") == 0,
          "unbounded, -m 1000: UNKNOWN (%s)", res.reason);
    result_clear(&res);
    tree_t *f = atleast(0, 999);
    run(n, f, KIND_REACH, &opt, &res);
    CHECK(res.answer == ANSWER_YES && res.run_len == 999 && replay(nc_compile(n), &res, f),
          "unbounded, -m 1000: reach p0 >= 999 still YES");
    result_clear(&res);
    tree_free(f);
    opt.max_states = 0;
    budget_t brief = unit_budget(0.05, (size_t)1 << 30);
    opt.budget = &brief;
    run(n, NULL, KIND_DL, &opt, &res);
    CHECK(res.answer == ANSWER_UNKNOWN && strcmp(res.reason, "time limit reached") == 0 &&
          res.seconds < 1, "unbounded, timeout: UNKNOWN (%s) in %.3f s", res.reason, res.seconds);
    result_clear(&res);
    volatile int stop = 1;
    budget_t stopped;
    budget_init(&stopped, &stop);
    budget_set_limits(&stopped, 0, 0, NULL);
    opt.budget = &stopped;
    run(n, NULL, KIND_DL, &opt, &res);
    CHECK(res.answer == ANSWER_UNKNOWN && strcmp(res.reason, "interrupted") == 0,
          "interrupt flag: UNKNOWN (%s)", res.reason);
    result_clear(&res);
    nc_free_net(n);
}

static void test_weights(void)
{
    check_options opt = options();
    result_t res;
    net_t *n = weighted_net();
    tree_t *f = atleast(2, 3);
    run(n, f, KIND_REACH, &opt, &res);
    const uint32_t want[] = {0, 0, 1};
    CHECK(res.answer == ANSWER_YES && same_run(&res, want, 3) && replay(nc_compile(n), &res, f),
          "weights and read arcs: reach p2 >= 3, run t0 t0 t1");
    result_clear(&res);
    run(n, NULL, KIND_DL, &opt, &res);
    CHECK(res.answer == ANSWER_YES && same_run(&res, want, 3) && replay(nc_compile(n), &res, NULL),
          "weights and read arcs: dl after t0 t0 t1");
    CHECK(res.states == 4, "weights: 4 states (got %llu)", (unsigned long long)res.states);
    result_clear(&res);
    tree_free(f);
    nc_free_net(n);

    n = huge_net(NC_COUNT_MAX - 3, 1);
    lin_term term = {0, 1};
    f = tree_cmp(&term, 1, -(int64_t)NC_COUNT_MAX, REL_GE);
    run(n, f, KIND_REACH, &opt, &res);
    const uint32_t three[] = {0, 0, 0};
    CHECK(res.answer == ANSWER_YES && same_run(&res, three, 3) && replay(nc_compile(n), &res, f),
          "counts near 2^63: reach p0 >= 2^63-1, run t0 t0 t0");
    result_clear(&res);
    tree_free(f);
    run(n, NULL, KIND_DL, &opt, &res);
    CHECK(res.answer == ANSWER_UNKNOWN && strcmp(res.reason, "token count overflow") == 0,
          "counts near 2^63: dl UNKNOWN (%s)", res.reason);
    result_clear(&res);
    nc_free_net(n);
}

static void test_philosophers(void)
{
    check_options opt = options();
    result_t res;
    net_t *n = philo_net();
    run(n, NULL, KIND_DL, &opt, &res);
    const uint32_t want[] = {0, 3, 6};
    CHECK(res.answer == ANSWER_YES && same_run(&res, want, 3), "philo3: dl YES, run takeleft0 takeleft1 takeleft2");
    CHECK(replay(nc_compile(n), &res, NULL), "philo3: witness replays");
    result_clear(&res);
    tree_t *eat = tree_binary(T_AND, atleast(2, 1), atleast(5, 1));
    run(n, eat, KIND_REACH, &opt, &res);
    CHECK(res.answer == ANSWER_NO && res.states == 14, "philo3: eat0 & eat1 unreachable, 14 states (got %llu)",
          (unsigned long long)res.states);
    result_clear(&res);
    tree_free(eat);
    nc_free_net(n);
}

static void test_accepts(void)
{
    char why[128];
    tree_t *f = atleast(0, 1), *ef = tree_unary(T_EF, atleast(0, 1)), *fl = tree_unary(T_F, atleast(0, 1));
    CHECK(explicit_accepts(NULL, KIND_DL, why, sizeof why), "accepts dl");
    CHECK(explicit_accepts(f, KIND_REACH, why, sizeof why), "accepts reach with a state formula");
    CHECK(explicit_accepts(ef, KIND_CTL, why, sizeof why), "accepts ctl");
    CHECK(!explicit_accepts(fl, KIND_CTL, why, sizeof why) && strstr(why, "CTL formula"),
          "refuses an LTL formula as ctl: %s", why);
    CHECK(explicit_accepts(fl, KIND_LTL, why, sizeof why), "accepts ltl");
    CHECK(!explicit_accepts(ef, KIND_LTL, why, sizeof why) && strstr(why, "LTL formula"),
          "refuses a CTL formula as ltl: %s", why);
    CHECK(!explicit_accepts(fl, KIND_REACH, why, sizeof why), "refuses reach with a path formula");
    tree_free(f);
    tree_free(ef);
    tree_free(fl);
}

/* No places, no transitions: the initial marking is a deadlock. */
static void test_empty(void)
{
    check_options opt = options();
    result_t res;
    net_t *n = nc_create_net("empty", NULL);
    run(n, NULL, KIND_DL, &opt, &res);
    CHECK(res.answer == ANSWER_YES && res.run_len == 0 && res.role == RUN_WITNESS &&
          res.states == 1 && replay(nc_compile(n), &res, NULL), "empty net: dl YES at once");
    result_clear(&res);
    nc_free_net(n);
    n = nc_create_net("one place", NULL);
    nc_create_place(n, "p", NULL, 3);
    tree_t *f = atleast(0, 3);
    run(n, f, KIND_REACH, &opt, &res);
    CHECK(res.answer == ANSWER_YES && res.run_len == 0 && replay(nc_compile(n), &res, f),
          "one place, no transition: reach p >= 3 at once");
    result_clear(&res);
    tree_free(f);
    nc_free_net(n);
}

/* 2^N states: N independent two-state processes. */
static void test_product(void)
{
    enum { N = 14 };
    net_t *n = nc_create_net("product", NULL);
    for (int i = 0; i < N; i++) {
        nc_create_place(n, NULL, NULL, 1);
        nc_create_place(n, NULL, NULL, 0);
        nc_create_transition(n, NULL, NULL);
        nc_create_transition(n, NULL, NULL);
        arc(n, NC_ARC_PT, 2 * i, 2 * i, 1), arc(n, NC_ARC_TP, 2 * i + 1, 2 * i, 1);
        arc(n, NC_ARC_PT, 2 * i + 1, 2 * i + 1, 1), arc(n, NC_ARC_TP, 2 * i, 2 * i + 1, 1);
    }
    check_options opt = options();
    result_t res;
    run(n, NULL, KIND_DL, &opt, &res);
    CHECK(res.answer == ANSWER_NO && res.states == (1u << N) && res.edges == (uint64_t)N << N,
          "2^%d states, %d * 2^%d edges", N, N, N);
    result_clear(&res);
    nc_free_net(n);
}

/* The visitor sees states with ids 0, 1, ... in discovery order, each
 * expanded once in that order, and every edge once. */
typedef struct tally {
    uint64_t states, expanded, edges, fresh, bad;
} tally;

static int tally_state(void *ctx, uint64_t id, store_ref ref, const nc_count *m)
{
    tally *t = ctx;
    (void)ref;
    (void)m;
    t->bad += id != t->states++;
    return 0;
}

static int tally_edge(void *ctx, store_ref from, uint32_t tr, store_ref to, int fresh)
{
    tally *t = ctx;
    (void)from;
    (void)tr;
    (void)to;
    t->edges++;
    t->fresh += fresh != 0;
    return 0;
}

static int tally_expanded(void *ctx, uint64_t id, store_ref ref, uint32_t n)
{
    tally *t = ctx;
    (void)ref;
    (void)n;
    t->bad += id != t->expanded++;
    return 0;
}

static void test_visitor(void)
{
    net_t *n = philo_net();
    check_options opt = options();
    result_t res;
    result_init(&res);
    tally t = {0, 0, 0, 0, 0};
    explore_visitor v = {tally_state, tally_edge, tally_expanded, "test", 0};
    explore_t *ex = explore_new(nc_compile(n), &opt, 0);
    explore_status st = explore_bfs(ex, &v, &t, &res);
    CHECK(st == EXPLORE_DONE && t.bad == 0 && t.states == 14 && t.expanded == 14 &&
          t.edges == res.edges && t.fresh == 13 && res.states == 14,
          "visitor: 14 states in id order, %llu edges, 13 of them to new states",
          (unsigned long long)t.edges);
    explore_free(ex);
    result_clear(&res);
    nc_free_net(n);
}

/* The ids of the expanded states with no enabled transition, and whether
 * on_expanded saw any other. */
typedef struct deadlocks {
    uint64_t ids[16];
    unsigned n, live;
} deadlocks;

static int note_deadlock(void *ctx, uint64_t id, store_ref ref, uint32_t nenabled)
{
    deadlocks *d = ctx;
    (void)ref;
    if (nenabled)
        d->live++;
    else if (d->n < 16)
        d->ids[d->n++] = id;
    return 0;
}

static deadlocks deadlocks_of(net_t *n, int only)
{
    check_options opt = options();
    result_t res;
    result_init(&res);
    deadlocks d = {{0}, 0, 0};
    explore_visitor v = {NULL, NULL, note_deadlock, "test", only};
    explore_t *ex = explore_new(nc_compile(n), &opt, 0);
    CHECK(explore_bfs(ex, &v, &d, &res) == EXPLORE_DONE, "deadlocks_only %d: search done", only);
    explore_free(ex);
    result_clear(&res);
    return d;
}

/* A visitor for deadlocks only is told of the same deadlocks, in the same
 * order, and of no other state. */
static void test_deadlocks_only(void)
{
    net_t *n = philo_net();
    deadlocks all = deadlocks_of(n, 0), only = deadlocks_of(n, 1);
    CHECK(all.n > 0 && all.live == 14 - all.n && only.n == all.n && only.live == 0 &&
              memcmp(all.ids, only.ids, all.n * sizeof *all.ids) == 0,
          "deadlocks only: the same %u deadlocks, none of the %u other states", only.n,
          all.live);
    nc_free_net(n);
}

int main(void)
{
    test_mutex();
    test_choice();
    test_limits();
    test_weights();
    test_philosophers();
    test_accepts();
    test_product();
    test_empty();
    test_visitor();
    test_deadlocks_only();
    UNIT_DONE();
}
