/* The structural reduction (reduce/reduce.h) and the reduce checker
 * against the unreduced search.  On random nets and on random "processes"
 * (local steps, synchronisations, shared resources, copies of places and
 * transitions: the shapes the rules are made for) every answer for dl and
 * for random reach goals must agree with explicit search on the given net,
 * and every witness, found on the reduced net and expanded, must replay on
 * the given net (replay.h's own firing rule) into a deadlock or a marking
 * of the goal.  Each rule must have fired on these nets, observed nodes
 * must survive, and "not deadlock" must switch agglomeration off. */
#include "randnet.h"
#include "randproc.h"
#include "reduce/reduce.h"
#include "unit.h"

#define NETS 600
#define PROCESS_NETS 600
#define GOALS_PER_NET 4

/* A second for a reduction, as a checker's carve would give it. */
static const budget_t *second(void)
{
    static budget_t b;
    budget_init(&b, NULL);
    budget_set_limits(&b, 1.0, 0, NULL);
    return &b;
}

typedef struct fired {
    size_t dead, constant, parallel, duplicate, agglomerated, sink, implicit;
} fired;

static void count_rules(net_t *net, const tree_t *f, fired *s)
{
    const cnet_t *cn = nc_compile(net);
    reduce_observed obs;
    if (reduce_observe(cn, f, &obs) < 0)
        return;
    reduction *r = reduce_build(cn, &obs, second());
    if (r) {
        const reduce_stats *st = reduce_statistics(r);
        s->dead += st->dead_transitions;
        s->constant += st->constant_places;
        s->parallel += st->parallel_places;
        s->duplicate += st->duplicate_transitions;
        s->agglomerated += st->agglomerated;
        s->sink += st->sink_places;
        s->implicit += st->implicit_places;
        /* what the formula observes is still there, under its own name */
        for (uint32_t p = 0; p < cn->nplaces; p++)
            if (obs.place[p] && reduce_place(r, p) == REDUCE_NONE)
                s->dead = (size_t)-1;
        for (uint32_t t = 0; t < cn->ntransitions; t++)
            if (obs.transition[t] && reduce_transition(r, t) == REDUCE_NONE)
                s->dead = (size_t)-1;
    }
    reduce_free(r);
    reduce_observed_free(&obs);
}

static void test_random(void)
{
    tally dl = {0}, reach = {0};
    differential(random_net, NETS, GOALS_PER_NET, 3, reduced_run, "reduce", &dl, &reach);
    CHECK(dl.agree == dl.cases && dl.replayed == dl.decided,
          "random nets, dl: reduce agrees with explicit on %u of %u (%u decided), %u of %u "
          "witnesses replay on the given net", dl.agree, dl.cases, dl.decided, dl.replayed,
          dl.decided);
    CHECK(reach.agree == reach.cases && reach.replayed == reach.decided,
          "random nets, reach: reduce agrees on %u of %u goals (%u decided), %u of %u replay",
          reach.agree, reach.cases, reach.decided, reach.replayed, reach.decided);
}

static void test_processes(void)
{
    tally dl = {0}, reach = {0};
    fired s = {0};
    uint64_t seed = rnd_state;
    differential(random_processes, PROCESS_NETS, GOALS_PER_NET, 2, reduced_run, "reduce", &dl,
                 &reach);
    /* the same nets and goals again, for the rules' statistics */
    rnd_state = seed;
    for (int i = 0; i < PROCESS_NETS; i++) {
        net_t *net = random_processes();
        count_rules(net, NULL, &s);
        for (int g = 0; g < GOALS_PER_NET; g++) {
            tree_t *f = random_formula((uint32_t)net->nplaces, (uint32_t)net->ntransitions, 2);
            count_rules(net, f, &s);
            tree_free(f);
        }
        nc_free_net(net);
    }
    CHECK(dl.agree == dl.cases && dl.replayed == dl.decided && dl.decided > PROCESS_NETS / 2,
          "processes, dl: reduce agrees with explicit on %u of %u (%u decided), %u of %u "
          "witnesses replay on the given net", dl.agree, dl.cases, dl.decided, dl.replayed,
          dl.decided);
    CHECK(reach.agree == reach.cases && reach.replayed == reach.decided,
          "processes, reach: reduce agrees on %u of %u goals (%u decided), %u of %u replay",
          reach.agree, reach.cases, reach.decided, reach.replayed, reach.decided);
    CHECK(s.dead != (size_t)-1, "observed places and transitions are never removed");
    CHECK(s.dead > 0 && s.constant > 0 && s.parallel > 0 && s.duplicate > 0 &&
          s.agglomerated > 0 && s.sink > 0 && s.implicit > 0,
          "every rule fired: %zu dead transitions, %zu constant places, %zu parallel places, "
          "%zu duplicate transitions, %zu agglomerations, %zu sink places, %zu implicit places",
          s.dead, s.constant, s.parallel, s.duplicate, s.agglomerated, s.sink, s.implicit);
}

/* n independent lines of k steps: (k+1)^n markings, but every line is a
 * free sequence, so for dl the reduced net has one transition per line. */
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
    reduced_run(cn, NULL, KIND_DL, &opt, &red);
    CHECK(full.answer == ANSWER_YES && red.answer == ANSWER_YES && replays(net, &red, NULL) &&
          red.run_len == (size_t)(n * k) && red.states * 10 < full.states,
          "%d lines of %d steps: %llu markings reduced against %llu, the witness of %zu steps "
          "replays", n, k, (unsigned long long)red.states, (unsigned long long)full.states,
          red.run_len);
    /* observing the middle of line 0 keeps that line's places */
    lin_term term = {1, 1};
    tree_t *goal = tree_cmp(&term, 1, -1, REL_EQ);
    result_clear(&red);
    result_init(&red);
    reduced_run(cn, goal, KIND_REACH, &opt, &red);
    CHECK(red.answer == ANSWER_YES && replays(net, &red, goal),
          "a goal on an inner place of a line is reached and the witness replays");
    tree_free(goal);
    result_clear(&full);
    result_clear(&red);
    nc_free_net(net);
}

/* h moves p0's token to p1, u moves it on to p3; nothing else.  After h,
 * only u is enabled: "not deadlock and p0 = 0" holds there.  Agglomerating
 * h and u would skip that marking, so "not deadlock" must forbid it. */
static void test_not_deadlock(void)
{
    net_t *net = nc_create_net("hu", NULL);
    for (int p = 0; p < 3; p++)
        nc_create_place(net, NULL, NULL, p == 0);
    uint32_t h = (uint32_t)nc_create_transition(net, "h", NULL);
    uint32_t u = (uint32_t)nc_create_transition(net, "u", NULL);
    nc_create_arc(net, NC_ARC_PT, 0, h, 1, 0);
    nc_create_arc(net, NC_ARC_TP, 1, h, 1, 0);
    nc_create_arc(net, NC_ARC_PT, 1, u, 1, 0);
    nc_create_arc(net, NC_ARC_TP, 2, u, 1, 0);
    lin_term term = {0, 1};
    tree_t *goal = tree_binary(T_AND, tree_unary(T_NOT, tree_deadlock()),
                               tree_cmp(&term, 1, 0, REL_EQ));
    const cnet_t *cn = nc_compile(net);
    check_options opt = options();
    result_t red;
    result_init(&red);
    reduced_run(cn, goal, KIND_REACH, &opt, &red);
    CHECK(red.answer == ANSWER_YES && replays(net, &red, goal),
          "not deadlock: the marking between h and u is still reached");
    result_clear(&red);
    result_init(&red);
    reduced_run(cn, NULL, KIND_DL, &opt, &red);
    /* p0 starts marked and h is its only user: h fires at the start, then
     * u, and the reduced net starts in the deadlock */
    CHECK(red.answer == ANSWER_YES && red.states == 1 && red.run_len == 2 &&
          replays(net, &red, NULL),
          "dl: h and u fired at the start, %llu marking visited instead of 3, the deadlock "
          "replays through both", (unsigned long long)red.states);
    result_clear(&red);
    tree_free(goal);
    nc_free_net(net);
}

/* Two processes idle/busy and a place "idle" counting both idle states:
 * implicit (its tokens are the sum of two places), found by the linear
 * program, not by the parallel rule.  Observing it keeps it. */
static void test_implicit(void)
{
    net_t *net = nc_create_net("two", NULL);
    for (int p = 0; p < 4; p++)
        nc_create_place(net, NULL, NULL, p % 2 == 0);   /* idle1 busy1 idle2 busy2 */
    uint32_t idle = (uint32_t)nc_create_place(net, "idle", NULL, 2);
    for (uint32_t i = 0; i < 2; i++) {
        uint32_t go = (uint32_t)nc_create_transition(net, NULL, NULL);
        uint32_t back = (uint32_t)nc_create_transition(net, NULL, NULL);
        nc_create_arc(net, NC_ARC_PT, 2 * i, go, 1, 0);
        nc_create_arc(net, NC_ARC_TP, 2 * i + 1, go, 1, 0);
        nc_create_arc(net, NC_ARC_PT, idle, go, 1, 0);
        nc_create_arc(net, NC_ARC_PT, 2 * i + 1, back, 1, 0);
        nc_create_arc(net, NC_ARC_TP, 2 * i, back, 1, 0);
        nc_create_arc(net, NC_ARC_TP, idle, back, 1, 0);
    }
    /* the busy places are read by a fifth transition, so that nothing is
     * a free sequence and the idle place is left to the linear program */
    uint32_t both = (uint32_t)nc_create_transition(net, NULL, NULL);
    nc_create_arc(net, NC_ARC_READ, 1, both, 1, 0);
    nc_create_arc(net, NC_ARC_READ, 3, both, 1, 0);
    nc_create_arc(net, NC_ARC_READ, 0, both, 1, 0);
    const cnet_t *cn = nc_compile(net);
    reduce_observed obs;
    reduce_observe(cn, NULL, &obs);
    reduction *r = reduce_build(cn, &obs, second());
    CHECK(r && reduce_statistics(r)->implicit_places == 1 && reduce_place(r, idle) == REDUCE_NONE,
          "the place counting both idle states is implicit (%zu found)",
          r ? reduce_statistics(r)->implicit_places : 0);
    reduce_free(r);
    reduce_observed_free(&obs);
    lin_term term = {idle, 1};
    tree_t *goal = tree_cmp(&term, 1, 0, REL_EQ);
    reduce_observe(cn, goal, &obs);
    r = reduce_build(cn, &obs, second());
    CHECK(r && reduce_place(r, idle) != REDUCE_NONE, "observed, it stays");
    reduce_free(r);
    reduce_observed_free(&obs);
    check_options opt = options();
    result_t red;
    result_init(&red);
    reduced_run(cn, goal, KIND_REACH, &opt, &red);
    CHECK(red.answer == ANSWER_YES && replays(net, &red, goal),
          "both busy (idle = 0) is reached and the witness replays");
    result_clear(&red);
    tree_free(goal);
    nc_free_net(net);
}

/* LTL without X on random nets and processes: the same answers, and every
 * counterexample, found on the reduced net and expanded, a lasso of the
 * given net on which the formula is false. */
static void test_random_ltl(void)
{
    ltl_tally t = {0};
    ltl_differential(random_net, NETS / 2, 2, reduced_run, "reduce", &t, reduced_accepts);
    ltl_differential(random_processes, PROCESS_NETS, 2, reduced_run, "reduce", &t,
                     reduced_accepts);
    CHECK(t.agree == t.cases && t.shown == t.decided && t.decided > t.cases / 2,
          "ltl: reduce agrees with explicit on %u of %u random formulas (%u decided, %u with "
          "deadlock left to explicit), %u of %u counterexamples are violating lassos of the "
          "given net; fewer states in %u", t.agree, t.cases, t.decided, t.skipped, t.shown,
          t.decided, t.reduced);
}

/* h marks c and p, u moves p's token on to b; after h only u is enabled.
 * "G (c = 0 or deadlock)" fails there, but not after "h, then u", a
 * deadlock: with deadlock in an LTL formula nothing may be agglomerated
 * (here it occurs unnegated, which is harmless for reachability). */
static void test_ltl_deadlock(void)
{
    net_t *net = nc_create_net("huc", NULL);
    for (int p = 0; p < 4; p++)   /* a p b c */
        nc_create_place(net, NULL, NULL, p == 0);
    uint32_t h = (uint32_t)nc_create_transition(net, "h", NULL);
    uint32_t u = (uint32_t)nc_create_transition(net, "u", NULL);
    nc_create_arc(net, NC_ARC_PT, 0, h, 1, 0);
    nc_create_arc(net, NC_ARC_TP, 1, h, 1, 0);
    nc_create_arc(net, NC_ARC_TP, 3, h, 1, 0);
    nc_create_arc(net, NC_ARC_PT, 1, u, 1, 0);
    nc_create_arc(net, NC_ARC_TP, 2, u, 1, 0);
    lin_term term = {3, 1};
    tree_t *f = tree_unary(T_G, tree_binary(T_OR, tree_cmp(&term, 1, 0, REL_EQ),
                                            tree_deadlock()));
    const cnet_t *cn = nc_compile(net);
    check_options opt = options();
    result_t res;
    result_init(&res);
    reduced_run(cn, f, KIND_LTL, &opt, &res);
    CHECK(res.answer == ANSWER_NO && lasso_violates(net, &res, f),
          "ltl with deadlock: the marking between h and u counts");
    result_clear(&res);
    tree_free(f);
    nc_free_net(net);
}

/* A signal stops the rules as a deadline does: none fires, and the net
 * is the one given (a reduction cut short is only weaker). */
static void test_interrupted(void)
{
    net_t *net = nc_create_net("dead", NULL);
    nc_create_place(net, "p", NULL, 1);
    nc_create_place(net, "empty", NULL, 0);
    uint32_t t = (uint32_t)nc_create_transition(net, "t", NULL);
    uint32_t dead = (uint32_t)nc_create_transition(net, "dead", NULL);
    nc_create_arc(net, NC_ARC_PT, 0, t, 1, 0);
    nc_create_arc(net, NC_ARC_TP, 0, t, 1, 0);
    nc_create_arc(net, NC_ARC_PT, 1, dead, 1, 0);
    const cnet_t *cn = nc_compile(net);
    reduce_observed obs;
    reduce_observe(cn, NULL, &obs);
    reduction *r = reduce_build(cn, &obs, second());
    CHECK(r && reduce_statistics(r)->dead_transitions == 1,
          "a transition needing a place nothing fills is dead");
    reduce_free(r);
    volatile int signalled = 1;
    budget_t b;
    budget_init(&b, &signalled);
    budget_set_limits(&b, 10.0, 0, NULL);
    r = reduce_build(cn, &obs, &b);
    CHECK(r && reduce_statistics(r)->dead_transitions == 0 && !reduce_net(r),
          "after a signal: no rule fires, the net stays as given");
    reduce_free(r);
    reduce_observed_free(&obs);
    nc_free_net(net);
}

/* Forty states each vote once into one tally that nothing reads: the
 * tally is a sink place, one node of 41, too few for a second net for
 * an explicit search, but the net the decision diagrams want
 * (any_removal). */
static void test_any_removal(void)
{
    enum { STATES = 40 };
    net_t *net = nc_create_net("tally", NULL);
    nc_create_place(net, "tally", NULL, 0);
    for (uint32_t i = 0; i < STATES; i++) {
        char name[16];
        snprintf(name, sizeof name, "s%u", (unsigned)i);
        uint32_t p = (uint32_t)nc_create_place(net, name, NULL, 1);
        uint32_t t = (uint32_t)nc_create_transition(net, name, NULL);
        nc_create_arc(net, NC_ARC_PT, p, t, 1, 0);
        nc_create_arc(net, NC_ARC_TP, 0, t, 3, 0);
    }
    const cnet_t *cn = nc_compile(net);
    for (int any = 0; any <= 1; any++) {
        reduce_observed obs;
        if (reduce_observe(cn, NULL, &obs) < 0)
            break;
        for (uint32_t p = 1; p < cn->nplaces; p++)
            obs.place[p] = 1;
        for (uint32_t t = 0; t < cn->ntransitions; t++)
            obs.transition[t] = 1;
        obs.branching = 1;
        obs.any_removal = any;
        reduction *r = reduce_build(cn, &obs, second());
        net_t *small = r ? reduce_net(r) : NULL;
        if (any)
            CHECK(small && small->nplaces == STATES && small->ntransitions == STATES &&
                      reduce_place(r, 0) == REDUCE_NONE,
                  "any_removal: the tally nobody reads goes, %zu places left",
                  small ? small->nplaces : (size_t)0);
        else
            CHECK(r && !small && reduce_statistics(r)->sink_places == 1,
                  "without any_removal: one place of 41 is no second net");
        reduce_free(r);
        reduce_observed_free(&obs);
    }
    nc_free_net(net);
}

static void test_accepts(void)
{
    char why[200];
    CHECK(reduced_accepts(NULL, KIND_DL, why, sizeof why), "reduce accepts dl");
    tree_t *f = tree_unary(T_EF, tree_deadlock());
    CHECK(reduced_accepts(f, KIND_CTL, why, sizeof why), "reduce accepts ctl");
    tree_free(f);
    f = tree_unary(T_F, tree_deadlock());
    CHECK(!reduced_accepts(f, KIND_CTL, why, sizeof why), "reduce refuses F under ctl: %s", why);
    tree_free(f);
    lin_term term = {0, 1};
    f = tree_unary(T_X, tree_cmp(&term, 1, -1, REL_GE));
    CHECK(!reduced_accepts(f, KIND_LTL, why, sizeof why), "reduce refuses ltl with X: %s", why);
    tree_free(f);
}

int main(void)
{
    test_random();
    test_processes();
    test_gain();
    test_not_deadlock();
    test_implicit();
    test_random_ltl();
    test_ltl_deadlock();
    test_interrupted();
    test_any_removal();
    test_accepts();
    UNIT_DONE();
}
