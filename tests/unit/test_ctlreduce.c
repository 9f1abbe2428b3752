/* Structural reduction under CTL (reduce/reduce.h, "branching"): on random
 * nets, random processes and random branching processes (choices, ends in
 * deadlocks, shared resources), random CTL formulas with few atoms (some
 * with X, some with deadlock) get the same answer from the global CTL
 * checker on the net as from the reduce checker, which reduces the net for
 * the formula and runs the same checker on the smaller net; with and
 * without a run wanted (a run keeps sink and implicit places, whose counts
 * may drift around a loop).  Every run the reduce checker gives, expanded,
 * must replay on the given net (replay.h's own firing rule), close its
 * loop on the same marking or end in a deadlock where it says so, and be a
 * witness for YES, a counterexample for NO.  Enough cases must have been
 * reduced, and agglomerated, for the comparison to mean something.  Then
 * the two conditions on free sequences, each with a net where breaking it
 * changes the answer: X, and deadlock in either polarity. */
#include "budgets.h"
#include "checkers/checkers.h"
#include "checkers/ctl/ctl.h"
#include "checkers/reduced.h"
#include "randnetgen.h"
#include "randproc.h"
#include "reduce/reduce.h"
#include "replay.h"
#include "unit.h"

#include <stdlib.h>

#define NETS 700
#define FORMULAS_PER_NET 4

/* n processes, each a little program that ends: local state s steps to
 * one or two later states (a choice), the last states have no step; a step
 * may take a shared resource, give one, or wait for another process's
 * state.  A process may move its control as a bundle of two tokens (every
 * arc of its own of weight two).  Deadlocks, choices and free sequences,
 * with weights too, all in one net. */
static net_t *random_branches(void)
{
    net_t *n = nc_create_net("branches", NULL);
    uint32_t procs = 1 + rnd(3), res = rnd(3), first[3], len[3], wt[3];
    for (uint32_t r = 0; r < res; r++)
        nc_create_place(n, NULL, NULL, 1 + rnd(2));
    for (uint32_t i = 0; i < procs; i++) {
        len[i] = 2 + rnd(5);
        wt[i] = 1 + rnd(2);
        first[i] = (uint32_t)n->nplaces;
        for (uint32_t s = 0; s < len[i]; s++)
            nc_create_place(n, NULL, NULL, s == 0 ? wt[i] : 0);
    }
    for (uint32_t i = 0; i < procs; i++)
        for (uint32_t s = 0; s + 1 < len[i]; s++) {
            uint32_t steps = rnd(4) == 0 ? 2 : 1;
            for (uint32_t k = 0; k < steps; k++) {
                uint32_t to = s + 1 + rnd(len[i] - s - 1);
                uint32_t t = (uint32_t)nc_create_transition(n, NULL, NULL);
                nc_create_arc(n, NC_ARC_PT, first[i] + s, t, wt[i], 0);
                nc_create_arc(n, NC_ARC_TP, first[i] + to, t, wt[i], 0);
                uint32_t shape = rnd(6), r = res ? rnd(res) : 0, j = rnd(procs);
                if (res && shape == 0)
                    nc_create_arc(n, NC_ARC_PT, r, t, 1, 0);
                else if (res && shape == 1)
                    nc_create_arc(n, NC_ARC_TP, r, t, 1, 0);
                else if (shape == 2 && j != i)
                    nc_create_arc(n, NC_ARC_READ, first[j] + rnd(len[j]), t, 1, 0);
            }
        }
    /* a loop back to the start, now and then, so that not every path ends */
    if (rnd(3) == 0) {
        uint32_t i = rnd(procs), t = (uint32_t)nc_create_transition(n, NULL, NULL);
        nc_create_arc(n, NC_ARC_PT, first[i] + len[i] - 1, t, wt[i], 0);
        nc_create_arc(n, NC_ARC_TP, first[i], t, wt[i], 0);
    }
    return n;
}

/* An atom over one or two of the few places and transitions a formula
 * may look at (obs_p, obs_t), so that most of the net is unobserved. */
static tree_t *ctl_atom(const uint32_t *obs_p, const uint32_t *obs_t, uint32_t P, uint32_t T,
                        int deadlock)
{
    if (deadlock && T && rnd(8) == 0)   /* now and then anything at all */
        return random_atom(P, T);
    switch (rnd(deadlock ? 6 : 5)) {
    case 0:
        if (T) {
            uint32_t t = obs_t[rnd(2)];
            return tree_fireable(&t, 1);
        }
        /* fall through */
    case 1: {
        lin_term terms[2] = {{obs_p[rnd(3)], 1}, {obs_p[rnd(3)], rnd(2) ? 1 : -1}};
        return tree_cmp(terms, 1 + rnd(2), -(int64_t)rnd(2), (rel_op)rnd(6));
    }
    case 5:
        return tree_deadlock();
    default: {
        lin_term term = {obs_p[rnd(3)], 1};
        return tree_cmp(&term, 1, -(int64_t)(1 + rnd(2)), REL_GE);
    }
    }
}

static tree_t *random_ctl(const uint32_t *obs_p, const uint32_t *obs_t, uint32_t P, uint32_t T,
                          int depth, int next, int deadlock)
{
    static const tree_op unary[] = {T_NOT, T_EF, T_AF, T_EG, T_AG, T_EX, T_AX};
    static const tree_op binary[] = {T_AND, T_OR, T_EU, T_AU, T_IMPLIES};
    if (depth == 0 || rnd(4) == 0)
        return ctl_atom(obs_p, obs_t, P, T, deadlock);
    if (rnd(2))
        return tree_unary(unary[rnd(next ? 7 : 5)],
                          random_ctl(obs_p, obs_t, P, T, depth - 1, next, deadlock));
    return tree_binary(binary[rnd(5)], random_ctl(obs_p, obs_t, P, T, depth - 1, next, deadlock),
                       random_ctl(obs_p, obs_t, P, T, depth - 1, next, deadlock));
}

static check_options options(void)
{
    static budget_t budget;
    budget = unit_budget(0, 0);
    check_options opt;
    memset(&opt, 0, sizeof opt);
    opt.budget = &budget;
    opt.want_run = 1;
    opt.max_states = 5000;    /* unbounded nets end in UNKNOWN on both sides */
    return opt;
}

/* ---- the run, replayed on the given net ---- */

/* Whether res's run fires on net from its initial marking, returns to the
 * marking where its loop starts, or ends in a deadlock when it says so,
 * and has its parts in order inside it. */
static int run_holds_up(const net_t *net, const result_t *res, int value)
{
    if (res->role != (value ? RUN_WITNESS : RUN_COUNTEREXAMPLE))
        return 0;
    size_t np = net->nplaces + 1;
    nc_count *m = calloc(np, sizeof *m), *loop = calloc(np, sizeof *loop);
    int ok = m && loop;
    if (ok)
        replay_initial(net, m);
    for (size_t i = 0; ok && i <= res->run_len; i++) {
        if (i == res->loop_start)
            memcpy(loop, m, np * sizeof *m);
        if (i == res->run_len)
            break;
        ok = res->run[i] < net->ntransitions && replay_enabled(net, m, res->run[i]);
        if (ok)
            replay_fire(net, m, res->run[i]);
    }
    if (ok && res->loop_start < res->run_len)
        ok = memcmp(loop, m, np * sizeof *m) == 0;
    if (ok && res->loop_start == res->run_len)
        ok = replay_dead(net, m);
    for (size_t k = 0; ok && k < res->nsegments; k++)
        ok = res->segments[k].start <= res->run_len &&
             (k == 0 ? res->segments[k].start == 0
                     : res->segments[k].start >= res->segments[k - 1].start);
    free(m);
    free(loop);
    return ok;
}

/* ---- the differential ---- */

typedef struct ctl_tally {
    unsigned cases, decided, agree, unknown;
    unsigned reduced;         /* the net got smaller */
    unsigned agglomerated;    /* by free sequences among the rules */
    unsigned runs, runs_ok;
    unsigned with_next, with_deadlock;
} ctl_tally;

static int answer_of(const result_t *r)
{
    return r->answer == ANSWER_YES ? 1 : r->answer == ANSWER_NO ? 0 : -1;
}

static void compare_ctl(net_t *net, const tree_t *f, ctl_tally *t)
{
    const cnet_t *cn = nc_compile(net);
    check_options opt = options();
    opt.want_run = 0;
    result_t full, red, plain;
    result_init(&full);
    result_init(&red);
    result_init(&plain);
    ctl_run(cn, f, &opt, &full);
    reduced_run(cn, f, KIND_CTL, &opt, &plain);   /* sink and implicit places go */
    opt.want_run = 1;
    reduced_run(cn, f, KIND_CTL, &opt, &red);     /* they stay; a run comes back */
    int want = answer_of(&full), got = answer_of(&red), got_plain = answer_of(&plain);
    t->cases++;
    if (want < 0 || got < 0 || got_plain < 0) {
        t->unknown++;
    } else {
        t->decided++;
        if (want == got && want == got_plain)
            t->agree++;
        else {
            char *s = tree_to_string(f);
            printf("# differs: %s on a net of %zu places, %zu transitions: given net %d, "
                   "reduced %d, reduced without a run %d (%s)\n", s ? s : "?", net->nplaces,
                   net->ntransitions, want, got, got_plain, plain.net_note);
            free(s);
        }
        if (red.role != RUN_NONE) {
            t->runs++;
            if (run_holds_up(net, &red, got))
                t->runs_ok++;
            else {
                char *s = tree_to_string(f);
                printf("# the run for %s does not hold up on the given net\n", s ? s : "?");
                free(s);
            }
        }
    }
    if (!strncmp(plain.net_note, "reduced to", 10))
        t->reduced++;
    reduce_observed obs;
    if (reduce_observe(cn, f, &obs) == 0) {
        obs.branching = 1;
        t->with_next += obs.next != 0;
        t->with_deadlock += obs.deadlock != 0;
        budget_t b = unit_budget(1.0, 0);
        reduction *r = reduce_build(cn, &obs, &b);
        if (r && reduce_net(r) && reduce_statistics(r)->agglomerated)
            t->agglomerated++;
        reduce_free(r);
        reduce_observed_free(&obs);
    }
    result_clear(&full);
    result_clear(&red);
    result_clear(&plain);
}

/* min_fused: the share of the formulas whose net free sequences must have
 * made smaller (random nets seldom have any). */
static void differential_ctl(net_t *(*make_net)(void), const char *name, double min_fused)
{
    ctl_tally t = {0};
    for (int i = 0; i < NETS; i++) {
        net_t *net = make_net();
        uint32_t P = (uint32_t)net->nplaces, T = (uint32_t)net->ntransitions;
        for (int k = 0; k < FORMULAS_PER_NET; k++) {
            uint32_t obs_p[3] = {rnd(P), rnd(P), rnd(P)};
            uint32_t obs_t[2] = {T ? rnd(T) : 0, T ? rnd(T) : 0};
            /* one formula in four may have X, one in four deadlock */
            tree_t *f = random_ctl(obs_p, obs_t, P, T, 1 + (int)rnd(4), rnd(4) == 0, rnd(4) == 0);
            compare_ctl(net, f, &t);
            tree_free(f);
        }
        nc_free_net(net);
    }
    CHECK(t.agree == t.decided && t.decided > t.cases / 2,
          "%s: the reduced net's CTL answers are the given net's on %u of %u formulas "
          "decided (of %u; %u with X, %u with deadlock)", name, t.agree, t.decided, t.cases,
          t.with_next, t.with_deadlock);
    CHECK(t.runs > 0 && t.runs_ok == t.runs,
          "%s: %u of %u runs, expanded, replay on the given net and close or end as they say",
          name, t.runs_ok, t.runs);
    CHECK(t.reduced > t.cases / 4 && t.agglomerated >= min_fused * t.cases,
          "%s: the net got smaller for %u of %u formulas, by free sequences among others for "
          "%u", name, t.reduced, t.cases, t.agglomerated);
}

/* ---- the conditions on free sequences ---- */

/* a -h-> p + c, p -u-> b: h starts at once, u (b unobserved) is a free
 * sequence of p.  Between h and u the marking is no deadlock. */
static net_t *h_then_u(void)
{
    net_t *net = nc_create_net("hu", NULL);
    nc_create_place(net, "a", NULL, 1);
    nc_create_place(net, "p", NULL, 0);
    nc_create_place(net, "b", NULL, 0);
    nc_create_place(net, "c", NULL, 0);
    uint32_t h = (uint32_t)nc_create_transition(net, "h", NULL);
    uint32_t u = (uint32_t)nc_create_transition(net, "u", NULL);
    nc_create_arc(net, NC_ARC_PT, 0, h, 1, 0);
    nc_create_arc(net, NC_ARC_TP, 1, h, 1, 0);
    nc_create_arc(net, NC_ARC_TP, 3, h, 1, 0);
    nc_create_arc(net, NC_ARC_PT, 1, u, 1, 0);
    nc_create_arc(net, NC_ARC_TP, 2, u, 1, 0);
    return net;
}

/* How many places free sequences removed for f, with or without branching. */
static size_t agglomerations(const cnet_t *cn, const tree_t *f, int branching)
{
    reduce_observed obs;
    if (reduce_observe(cn, f, &obs) < 0)
        return 0;
    obs.branching = branching;
    budget_t b = unit_budget(1.0, 0);
    reduction *r = reduce_build(cn, &obs, &b);
    size_t n = r ? reduce_statistics(r)->agglomerated : 0;
    reduce_free(r);
    reduce_observed_free(&obs);
    return n;
}

static void expect_kept(const char *what, tree_t *f, int want, int branching_off_fuses)
{
    net_t *net = h_then_u();
    const cnet_t *cn = nc_compile(net);
    check_options opt = options();
    result_t full, red;
    result_init(&full);
    result_init(&red);
    ctl_run(cn, f, &opt, &full);
    reduced_run(cn, f, KIND_CTL, &opt, &red);
    size_t fused = agglomerations(cn, f, 1), unfused = agglomerations(cn, f, 0);
    CHECK(answer_of(&full) == want && answer_of(&red) == want && fused == 0 &&
              (unfused > 0) == branching_off_fuses,
          "%s: %s on the given net and the reduced one, nothing agglomerated (without "
          "branching: %zu)", what, want ? "holds" : "fails", unfused);
    result_clear(&full);
    result_clear(&red);
    tree_free(f);
    nc_free_net(net);
}

static void free_sequence_conditions(void)
{
    lin_term c = {3, 1};
    /* q = (c = 0) fails after h, and the marking between h and u is no
     * deadlock: E G (q | deadlock) fails; "h, then u" would end in a
     * deadlock at once and make it hold.  deadlock occurs unnegated, which
     * reachability may agglomerate */
    expect_kept("E G (c = 0 | deadlock)",
                tree_unary(T_EG, tree_binary(T_OR, tree_cmp(&c, 1, 0, REL_EQ),
                                             tree_deadlock())),
                0, 1);
    /* two steps to the deadlock, not one */
    expect_kept("E X E X true", tree_unary(T_EX, tree_unary(T_EX, tree_const(1))), 1, 0);
    /* nothing observed but c: fused, and the answers still agree */
    net_t *net = h_then_u();
    const cnet_t *cn = nc_compile(net);
    tree_t *f = tree_unary(T_AF, tree_binary(T_AND, tree_cmp(&c, 1, -1, REL_EQ),
                                             tree_unary(T_AG, tree_cmp(&c, 1, -1, REL_EQ))));
    check_options opt = options();
    result_t full, red;
    result_init(&full);
    result_init(&red);
    ctl_run(cn, f, &opt, &full);
    reduced_run(cn, f, KIND_CTL, &opt, &red);
    CHECK(agglomerations(cn, f, 1) == 1 && answer_of(&full) == 1 && answer_of(&red) == 1 &&
              !strncmp(red.net_note, "reduced to", 10),
          "A F (c = 1 & A G c = 1): h and u fused (%s), holds on both nets", red.net_note);
    result_clear(&full);
    result_clear(&red);
    tree_free(f);
    /* h observed: fused all the same, its fireability the fused one's */
    uint32_t h = 0;
    f = tree_binary(T_AND, tree_fireable(&h, 1),
                    tree_unary(T_AF, tree_binary(T_AND, tree_unary(T_NOT, tree_fireable(&h, 1)),
                                                 tree_cmp(&c, 1, -1, REL_EQ))));
    result_init(&full);
    result_init(&red);
    ctl_run(cn, f, &opt, &full);
    reduced_run(cn, f, KIND_CTL, &opt, &red);
    reduce_observed obs;
    reduce_observe(cn, f, &obs);
    obs.branching = 1;
    budget_t b = unit_budget(1.0, 0);
    reduction *r = reduce_build(cn, &obs, &b);
    CHECK(r && reduce_statistics(r)->agglomerated == 1 && reduce_transition(r, h) != REDUCE_NONE &&
              answer_of(&full) == 1 && answer_of(&red) == 1,
          "fireable(h) & A F (!fireable(h) & c = 1): the observed h fused with u, holds on "
          "both nets");
    reduce_free(r);
    reduce_observed_free(&obs);
    result_clear(&full);
    result_clear(&red);
    tree_free(f);
    nc_free_net(net);
}

/* a -h-> put tokens into p, u takes two of p to b; c counts h's firings.
 * h puts `put` tokens into p. */
static net_t *weighted(nc_count put)
{
    net_t *net = nc_create_net("weighted", NULL);
    nc_create_place(net, "a", NULL, 2);
    nc_create_place(net, "p", NULL, 0);
    nc_create_place(net, "b", NULL, 0);
    nc_create_place(net, "c", NULL, 0);
    uint32_t h = (uint32_t)nc_create_transition(net, "h", NULL);
    uint32_t u = (uint32_t)nc_create_transition(net, "u", NULL);
    nc_create_arc(net, NC_ARC_PT, 0, h, 1, 0);
    nc_create_arc(net, NC_ARC_TP, 1, h, put, 0);
    nc_create_arc(net, NC_ARC_TP, 3, h, 1, 0);
    nc_create_arc(net, NC_ARC_PT, 1, u, 2, 0);
    nc_create_arc(net, NC_ARC_TP, 2, u, 1, 0);
    return net;
}

/* u takes two tokens of p: fused with a producer adding four as "h, then
 * u twice", not with one adding three (p could hold one, u not enabled). */
static void weighted_free_sequences(void)
{
    lin_term c = {3, 1};
    for (nc_count put = 3; put <= 4; put++) {
        net_t *net = weighted(put);
        const cnet_t *cn = nc_compile(net);
        tree_t *f = tree_unary(T_AG, tree_unary(T_EF, tree_cmp(&c, 1, -2, REL_EQ)));
        check_options opt = options();
        result_t full, red;
        result_init(&full);
        result_init(&red);
        ctl_run(cn, f, &opt, &full);
        reduced_run(cn, f, KIND_CTL, &opt, &red);
        size_t fused = agglomerations(cn, f, 1);
        CHECK(fused == (put == 4) && answer_of(&full) == 1 && answer_of(&red) == 1,
              "h puts %llu into p, u takes 2: %s, A G E F c = 2 holds on both nets",
              (unsigned long long)put, fused ? "h, then u twice" : "not fused");
        result_clear(&full);
        result_clear(&red);
        tree_free(f);
        nc_free_net(net);
    }
}

/* p starts with a token, u moves it to q, h moves it back from q while
 * the budget b (2) lasts, counting in c.  u fires at the start of the
 * reduced net, and h becomes "h, then u": E G c <= 2 holds on a run into
 * the deadlock, which expands into u h u h u on the given net. */
static void marked_free_place(void)
{
    net_t *net = nc_create_net("marked", NULL);
    nc_create_place(net, "p", NULL, 1);
    nc_create_place(net, "q", NULL, 0);
    nc_create_place(net, "b", NULL, 2);
    nc_create_place(net, "c", NULL, 0);
    uint32_t u = (uint32_t)nc_create_transition(net, "u", NULL);
    uint32_t h = (uint32_t)nc_create_transition(net, "h", NULL);
    nc_create_arc(net, NC_ARC_PT, 0, u, 1, 0);
    nc_create_arc(net, NC_ARC_TP, 1, u, 1, 0);
    nc_create_arc(net, NC_ARC_PT, 1, h, 1, 0);
    nc_create_arc(net, NC_ARC_PT, 2, h, 1, 0);
    nc_create_arc(net, NC_ARC_TP, 0, h, 1, 0);
    nc_create_arc(net, NC_ARC_TP, 3, h, 1, 0);
    const cnet_t *cn = nc_compile(net);
    lin_term c = {3, 1};
    tree_t *f = tree_unary(T_EG, tree_cmp(&c, 1, -2, REL_LE));
    check_options opt = options();
    result_t full, red;
    result_init(&full);
    result_init(&red);
    ctl_run(cn, f, &opt, &full);
    reduced_run(cn, f, KIND_CTL, &opt, &red);
    CHECK(agglomerations(cn, f, 1) == 1 && answer_of(&full) == 1 && answer_of(&red) == 1 &&
              red.run_len == 5 && red.loop_start == 5 && red.run[0] == u && red.run[1] == h &&
              run_holds_up(net, &red, 1),
          "a free place marked at the start: u fired first, E G c <= 2 holds on both nets, "
          "its run of %zu steps into the deadlock replays on the given net", red.run_len);
    result_clear(&full);
    result_clear(&red);
    tree_free(f);
    nc_free_net(net);
}

/* A run's parts name the formula's atoms as the given net numbers its
 * places, though the reduced net numbers them otherwise. */
static void parts_keep_their_words(void)
{
    net_t *net = nc_create_net("chain", NULL);
    for (int p = 0; p < 4; p++)   /* an unobserved constant place first */
        nc_create_place(net, NULL, NULL, p <= 1);
    for (uint32_t t = 0; t < 2; t++) {
        nc_create_transition(net, NULL, NULL);
        nc_create_arc(net, NC_ARC_PT, 1 + t, t, 1, 0);
        nc_create_arc(net, NC_ARC_TP, 2 + t, t, 1, 0);
        nc_create_arc(net, NC_ARC_READ, 0, t, 1, 0);
    }
    lin_term at2 = {2, 1}, at3 = {3, 1};
    tree_t *inner = tree_unary(T_EF, tree_cmp(&at3, 1, -1, REL_GE));
    tree_t *f = tree_unary(T_EF, tree_binary(T_AND, tree_cmp(&at2, 1, -1, REL_GE), inner));
    char *want = tree_to_string(inner);
    const cnet_t *cn = nc_compile(net);
    check_options opt = options();
    result_t red;
    result_init(&red);
    reduced_run(cn, f, KIND_CTL, &opt, &red);
    CHECK(answer_of(&red) == 1 && red.nsegments == 2 && want &&
              !strcmp(red.segments[1].formula, want) && run_holds_up(net, &red, 1) &&
              !strncmp(red.net_note, "reduced to", 10),
          "E F (#p2 >= 1 & E F #p3 >= 1) on a reduced net (%s): its second part is \"%s\"",
          red.net_note, red.nsegments == 2 ? red.segments[1].formula : "-");
    free(want);
    result_clear(&red);
    tree_free(f);
    nc_free_net(net);
}

int main(void)
{
    differential_ctl(random_net, "random nets", 0);
    differential_ctl(random_processes, "processes", 0.3);
    differential_ctl(random_branches, "branching processes", 0.3);
    free_sequence_conditions();
    weighted_free_sequences();
    marked_free_place();
    parts_keep_their_words();
    UNIT_DONE();
}
