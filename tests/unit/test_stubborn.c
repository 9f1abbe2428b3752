/* The stubborn checker against the unreduced search: on a few thousand
 * random nets (weights, read arcs, self-loops, unbounded places) and random
 * goals and LTL formulas without X it must give the same answer for dl,
 * reach and ltl; each of its witnesses must replay (by replay.h's own
 * firing rule) into a deadlock or a marking of the goal, each LTL
 * counterexample must be a lasso of the net that violates the formula
 * (lassoeval.h), and on concurrent nets it must visit far fewer markings. */
#include "checkers/checkers.h"
#include "checkers/explicit.h"
#include "checkers/reduced.h"
#include "checkers/stubborn.h"
#include "engine/stubbornset.h"
#include "randnet.h"
#include "unit.h"

#include <stdlib.h>

#define NETS 1000
#define GOALS_PER_NET 4

static void test_random_ltl(void)
{
    ltl_tally t = {0};
    ltl_differential(random_net, NETS, 2, stubborn_run, "stubborn", &t, NULL);
    CHECK(t.agree == t.cases, "ltl: stubborn agrees with explicit on %u of %u random formulas "
          "(%u decided)", t.agree, t.cases, t.decided);
    CHECK(t.shown == t.decided, "ltl: %u of %u answers shown (every counterexample a violating "
          "lasso of the net)", t.shown, t.decided);
    /* no gain is asserted here: the tiny random nets are mostly cycles,
     * whose transitions cyclefree.h keeps from being fired alone; the
     * gain is test_ltl_gain's */
    CHECK(t.decided > t.cases * 3 / 4,
          "ltl: most decided (%u of %u), the reduction visits fewer states in %u", t.decided,
          t.cases, t.reduced);
}

/* The word-exact reduction (docs/por-actions.md): X and action
 * propositions beside comparisons and fireable, with a repeating
 * deadlock and on infinite runs only. */
static void test_random_ltl_exact(void)
{
    random_ltl_rich = 1;
    for (ltl_infinite_runs = 0; ltl_infinite_runs <= 1; ltl_infinite_runs++) {
        ltl_tally t = {0};
        ltl_differential(random_net, NETS, 2, stubborn_run, "stubborn", &t, NULL);
        const char *mode = ltl_infinite_runs ? "infinite runs" : "deadlocks repeating";
        CHECK(t.agree == t.cases, "ltl with X and actions, %s: stubborn agrees with explicit on "
              "%u of %u random formulas (%u decided)", mode, t.agree, t.cases, t.decided);
        CHECK(t.shown == t.decided, "ltl with X and actions, %s: %u of %u answers shown (every "
              "counterexample a violating lasso of the net)", mode, t.shown, t.decided);
        CHECK(t.decided > t.cases * 3 / 4 && t.reduced > 0,
              "ltl with X and actions, %s: most decided (%u of %u), the reduction visits fewer "
              "states in %u", mode, t.decided, t.cases, t.reduced);
    }
    random_ltl_rich = ltl_infinite_runs = 0;
}

static void test_random(void)
{
    tally dl = {0}, reach = {0};
    differential(random_net, NETS, GOALS_PER_NET, 3, stubborn_run, "stubborn", &dl, &reach);
    CHECK(dl.agree == dl.cases, "dl: stubborn agrees with explicit on %u of %u random nets "
          "(%u decided, %u hit the state limit)", dl.agree, dl.cases, dl.decided, dl.unknown);
    CHECK(dl.replayed == dl.decided, "dl: %u of %u answers replay (deadlock reached)",
          dl.replayed, dl.decided);
    CHECK(reach.agree == reach.cases, "reach: stubborn agrees with explicit on %u of %u random "
          "goals (%u decided, %u hit the state limit)", reach.agree, reach.cases, reach.decided,
          reach.unknown);
    CHECK(reach.replayed == reach.decided, "reach: %u of %u answers replay (goal reached)",
          reach.replayed, reach.decided);
    CHECK(dl.decided > NETS * 3 / 4 && reach.decided > NETS * GOALS_PER_NET * 3 / 4,
          "most random cases are decided (dl %u, reach %u)", dl.decided, reach.decided);
}

static void test_gain(void)
{
    const int n = 8, k = 3;
    net_t *net = parallel_lines(n, k);
    const cnet_t *cn = nc_compile(net);
    check_options opt = options();
    opt.max_states = 0;
    result_t full, red;
    result_init(&full);
    result_init(&red);
    explicit_run(cn, NULL, KIND_DL, &opt, &full);
    stubborn_run(cn, NULL, KIND_DL, &opt, &red);
    CHECK(full.answer == ANSWER_YES && full.states == 65536,
          "dl on %d parallel lines of %d steps: explicit sees all 4^8 = %llu markings", n, k,
          (unsigned long long)full.states);
    CHECK(red.answer == ANSWER_YES && red.states <= (uint64_t)(n * k + 1) && replays(net, &red, NULL),
          "dl: stubborn finds the deadlock through %llu markings (at most n*k+1 = %d), "
          "and its run replays", (unsigned long long)red.states, n * k + 1);
    result_clear(&full);
    result_clear(&red);

    /* every process at its end: the last marking of the full search; the
     * reduction moves one process at a time */
    tree_t *goal = tree_const(1);
    for (int i = 0; i < n; i++) {
        lin_term end = {(uint32_t)(i * (k + 1) + k), 1};
        goal = tree_binary(T_AND, goal, tree_cmp(&end, 1, -1, REL_GE));
    }
    lin_term last = {(uint32_t)(n * (k + 1) - 1), 1};
    result_init(&full);
    result_init(&red);
    explicit_run(cn, goal, KIND_REACH, &opt, &full);
    stubborn_run(cn, goal, KIND_REACH, &opt, &red);
    CHECK(full.answer == ANSWER_YES && red.answer == ANSWER_YES && replays(net, &red, goal) &&
          red.states <= (uint64_t)(n * k + 1) && full.states == 65536,
          "reach of every process's end: stubborn %llu markings, explicit %llu",
          (unsigned long long)red.states, (unsigned long long)full.states);
    result_clear(&full);
    result_clear(&red);

    /* unreachable goal (a count of 2): the seed is empty, nothing is fired */
    tree_t *never = tree_cmp(&last, 1, -2, REL_GE);
    result_init(&red);
    stubborn_run(cn, never, KIND_REACH, &opt, &red);
    CHECK(red.answer == ANSWER_NO && red.states < 10,
          "an unreachable goal no transition can raise: NO after %llu markings",
          (unsigned long long)red.states);
    result_clear(&red);
    tree_free(goal);
    tree_free(never);
    nc_free_net(net);
}

/* Two rings of 3 places with one token each, so that every run is
 * infinite and some go round only through invisible steps: the visible
 * ring is places 0-2 and the first transitions, the other ring comes
 * last; between them n lines of k steps. */
static void ring(net_t *net, uint32_t first)
{
    for (uint32_t s = 0; s < 3; s++)
        nc_create_place(net, NULL, NULL, s == 0);
    for (uint32_t s = 0; s < 3; s++) {
        int t = nc_create_transition(net, NULL, NULL);
        nc_create_arc(net, NC_ARC_PT, first + s, (uint32_t)t, 1, 0);
        nc_create_arc(net, NC_ARC_TP, first + (s + 1) % 3, (uint32_t)t, 1, 0);
    }
}

static net_t *rings_and_lines(int n, int k)
{
    net_t *net = nc_create_net("rings and lines", NULL);
    ring(net, 0);
    for (int i = 0; i < n; i++)
        for (int s = 0; s <= k; s++)
            nc_create_place(net, NULL, NULL, s == 0);
    for (int i = 0; i < n; i++)
        for (int s = 0; s < k; s++) {
            uint32_t from = (uint32_t)(3 + i * (k + 1) + s);
            int t = nc_create_transition(net, NULL, NULL);
            nc_create_arc(net, NC_ARC_PT, from, (uint32_t)t, 1, 0);
            nc_create_arc(net, NC_ARC_TP, from + 1, (uint32_t)t, 1, 0);
        }
    ring(net, (uint32_t)net->nplaces);
    return net;
}

/* LTL that only the first ring's places are visible to: the lines' steps
 * are reduced to one order, and the visible ring still moves although the
 * invisible one alone could go round forever (the cycle proviso). */
static void test_ltl_gain(void)
{
    const int n = 5, k = 3;
    net_t *net = rings_and_lines(n, k);
    const cnet_t *cn = nc_compile(net);
    check_options opt = options();
    opt.max_states = 0;
    lin_term first_step = {1, 1};
    tree_t *never_moves = tree_unary(T_G, tree_unary(T_NOT, tree_cmp(&first_step, 1, -1, REL_GE)));
    lin_term ring0[3] = {{0, 1}, {1, 1}, {2, 1}};
    tree_t *one_token = tree_unary(T_G, tree_cmp(ring0, 3, -1, REL_EQ));
    result_t full, red;
    result_init(&full);
    result_init(&red);
    explicit_run(cn, never_moves, KIND_LTL, &opt, &full);
    stubborn_run(cn, never_moves, KIND_LTL, &opt, &red);
    CHECK(full.answer == ANSWER_NO && red.answer == ANSWER_NO && lasso_violates(net, &red, never_moves),
          "ltl beside %d lines: G !(the ring moved) fails with and without reduction, and the "
          "reduced counterexample is a violating lasso", n);
    result_clear(&full);
    result_clear(&red);
    result_init(&full);
    result_init(&red);
    explicit_run(cn, one_token, KIND_LTL, &opt, &full);
    stubborn_run(cn, one_token, KIND_LTL, &opt, &red);
    CHECK(full.answer == ANSWER_YES && red.answer == ANSWER_YES && full.states >= 9216 &&
          red.states * 10 < full.states,
          "ltl: G (the ring holds one token) holds; product states %llu reduced, %llu full",
          (unsigned long long)red.states, (unsigned long long)full.states);
    result_clear(&full);
    result_clear(&red);
    tree_free(never_moves);
    tree_free(one_token);
    nc_free_net(net);
}

/* Action propositions on the first ring's transitions 0 (place 0 to 1)
 * and 1 (place 1 to 2), with infinite runs only.  G (0 -> X 1) fails
 * because a line may step between.  (!1 W 0) holds, and while the
 * property waits for the 0, a 0 decides it and a 1 is impossible without
 * one: the lines' and the other ring's steps need only one order. */
static void test_ltl_exact_gain(void)
{
    const int n = 5, k = 3;
    net_t *net = rings_and_lines(n, k);
    const cnet_t *cn = nc_compile(net);
    check_options opt = options();
    opt.max_states = 0;
    opt.ltl_infinite_only = 1;
    uint32_t t0 = 0, t1 = 1;
    tree_t *at_once = tree_unary(T_G, tree_binary(T_IMPLIES, tree_action(&t0, 1),
                                                  tree_unary(T_X, tree_action(&t1, 1))));
    tree_t *first = tree_binary(T_OR, tree_unary(T_G, tree_unary(T_NOT, tree_action(&t1, 1))),
                                tree_binary(T_U, tree_unary(T_NOT, tree_action(&t1, 1)),
                                            tree_action(&t0, 1)));
    result_t full, red;
    result_init(&full);
    result_init(&red);
    explicit_run(cn, at_once, KIND_LTL, &opt, &full);
    stubborn_run(cn, at_once, KIND_LTL, &opt, &red);
    CHECK(full.answer == ANSWER_NO && red.answer == ANSWER_NO && lasso_violates(net, &red, at_once),
          "ltl beside %d lines: G (ring step 0 -> X ring step 1) fails with and without "
          "reduction (a line may step between), and the reduced counterexample is a violating "
          "lasso", n);
    result_clear(&full);
    result_clear(&red);
    result_init(&full);
    result_init(&red);
    explicit_run(cn, first, KIND_LTL, &opt, &full);
    stubborn_run(cn, first, KIND_LTL, &opt, &red);
    CHECK(full.answer == ANSWER_YES && red.answer == ANSWER_YES && full.states >= 3072 &&
          red.states * 10 < full.states,
          "ltl: (!ring step 1 W ring step 0) holds; product states %llu reduced, %llu full",
          (unsigned long long)red.states, (unsigned long long)full.states);
    result_clear(&full);
    result_clear(&red);
    tree_free(first);
    tree_free(at_once);
    nc_free_net(net);
}

static void test_accepts(void)
{
    char why[200];
    uint32_t t = 0;
    tree_t *act = tree_action(&t, 1);
    tree_t *ef = tree_unary(T_EF, tree_const(1));
    CHECK(stubborn_accepts(NULL, KIND_DL, why, sizeof why), "stubborn accepts dl");
    CHECK(!stubborn_accepts(act, KIND_REACH, why, sizeof why) && strstr(why, "stubborn"),
          "stubborn refuses action propositions: %s", why);
    CHECK(!stubborn_accepts(ef, KIND_CTL, why, sizeof why) && strstr(why, "dl, reach and ltl"),
          "stubborn refuses ctl: %s", why);
    tree_free(act);
    tree_free(ef);
}

int main(void)
{
    test_random();
    test_random_ltl();
    test_random_ltl_exact();
    test_gain();
    test_ltl_gain();
    test_ltl_exact_gain();
    test_accepts();
    UNIT_DONE();
}
