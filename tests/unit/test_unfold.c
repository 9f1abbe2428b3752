/* The unfold checker (engine/unfold/, checkers/unfold.c) against the
 * explicit search: on random safe nets (products of state machines that
 * synchronise two or three of them, with read arcs and choices) and on
 * random nets of any shape (those not proven safe are refused with the
 * reason), dl and reach answers must be the explicit search's and every
 * witness must replay by replay.h's own firing rule into the goal.  The
 * prefix itself is checked on nets whose size is known: n independent
 * lines of k steps unfold into n * k events, none of them a cut-off, and
 * a cycle's prefix ends in one cut-off; limits end in UNKNOWN with the
 * reason; the .mci file has the size its header promises; events come in
 * the ERV order (their local configurations never shrink), no co-set
 * becomes two events, and every cut-off's local configuration marks what
 * its earlier companion's does. */
#include "checkers/unfold.h"
#include "engine/unfold/configsat.h"
#include "engine/unfold/prefix.h"
#include "randnet.h"
#include "unit.h"

#include <stdlib.h>

#define SAFE_NETS 300
#define ANY_NETS 200
#define GOALS_PER_NET 4

/* 2 to 4 state machines of 2 to 5 states, one token each; a transition
 * moves one to three of them (a synchronisation) and may read the state
 * of another.  Safe by construction: each machine holds one token. */
static net_t *random_safe_net(void)
{
    net_t *n = nc_create_net("machines", NULL);
    uint32_t K = 2 + rnd(3), first[5], size[5];
    uint32_t P = 0;
    for (uint32_t k = 0; k < K; k++) {
        first[k] = P;
        size[k] = 2 + rnd(4);
        uint32_t start = rnd(size[k]);
        for (uint32_t s = 0; s < size[k]; s++, P++)
            nc_create_place(n, NULL, NULL, s == start);
    }
    uint32_t T = 2 + rnd(10);
    for (uint32_t t = 0; t < T; t++) {
        nc_create_transition(n, NULL, NULL);
        uint32_t used[5] = {0};
        uint32_t moves = 1 + rnd(3);
        for (uint32_t i = 0; i < moves; i++) {
            uint32_t k = rnd(K);
            if (used[k])
                continue;
            used[k] = 1;
            uint32_t from = rnd(size[k]), to = rnd(size[k]);
            nc_create_arc(n, NC_ARC_PT, first[k] + from, t, 1, 0);
            nc_create_arc(n, NC_ARC_TP, first[k] + to, t, 1, 1);
        }
        uint32_t c = rnd(K);
        if (rnd(3) == 0 && !used[c])
            nc_create_arc(n, NC_ARC_READ, first[c] + rnd(size[c]), t, 1, 0);
    }
    return n;
}

/* 2 to 5 machines, each a cycle of 2 to 4 states that it walks alone,
 * and 1 to 4 synchronisations that move two machines at once from given
 * states (some back to their start): concurrency everywhere, so that the
 * prefixes have many events, cut-offs and conflicts. */
static net_t *random_cyclic_net(void)
{
    net_t *n = nc_create_net("cycles", NULL);
    uint32_t K = 2 + rnd(4), first[6], size[6], P = 0;
    for (uint32_t k = 0; k < K; k++) {
        first[k] = P;
        size[k] = 2 + rnd(3);
        for (uint32_t s = 0; s < size[k]; s++, P++)
            nc_create_place(n, NULL, NULL, s == 0);
    }
    uint32_t t;
    for (uint32_t k = 0; k < K; k++)
        for (uint32_t s = 0; s < size[k]; s++) {
            if (rnd(4) == 0)
                continue;   /* a state the machine cannot leave alone */
            t = (uint32_t)nc_create_transition(n, NULL, NULL);
            nc_create_arc(n, NC_ARC_PT, first[k] + s, t, 1, 0);
            nc_create_arc(n, NC_ARC_TP, first[k] + (s + 1) % size[k], t, 1, 0);
        }
    uint32_t syncs = 1 + rnd(4);
    for (uint32_t i = 0; i < syncs; i++) {
        uint32_t a = rnd(K), b = (a + 1 + rnd(K - 1)) % K;
        t = (uint32_t)nc_create_transition(n, NULL, NULL);
        uint32_t ks[2] = {a, b};
        for (int j = 0; j < 2; j++) {
            uint32_t k = ks[j], from = rnd(size[k]), to = rnd(2) ? 0 : rnd(size[k]);
            nc_create_arc(n, NC_ARC_PT, first[k] + from, t, 1, 0);
            nc_create_arc(n, NC_ARC_TP, first[k] + to, t, 1, 1);
        }
    }
    return n;
}

static void report(const char *what, const tally *dl, const tally *reach, int must_decide)
{
    CHECK(dl->agree == dl->cases, "%s, dl: unfold agrees with explicit on %u of %u nets "
          "(%u decided, %u unknown)", what, dl->agree, dl->cases, dl->decided, dl->unknown);
    CHECK(dl->replayed == dl->decided, "%s, dl: %u of %u answers replay", what, dl->replayed,
          dl->decided);
    CHECK(reach->agree == reach->cases, "%s, reach: unfold agrees with explicit on %u of %u "
          "goals (%u decided, %u unknown)", what, reach->agree, reach->cases, reach->decided,
          reach->unknown);
    CHECK(reach->replayed == reach->decided, "%s, reach: %u of %u answers replay", what,
          reach->replayed, reach->decided);
    if (must_decide)
        CHECK(dl->unknown == 0 && reach->unknown == 0, "%s: every case decided", what);
    else
        CHECK(dl->decided > 0 && reach->decided > 0, "%s: some cases decided (dl %u, reach %u)",
              what, dl->decided, reach->decided);
}

static void test_random(void)
{
    tally dl = {0}, reach = {0};
    differential(random_safe_net, SAFE_NETS, GOALS_PER_NET, 3, unfold_run, "unfold", &dl,
                 &reach);
    report("safe nets", &dl, &reach, 1);
    tally dl3 = {0}, reach3 = {0};
    differential(random_cyclic_net, SAFE_NETS, GOALS_PER_NET, 3, unfold_run, "unfold", &dl3,
                 &reach3);
    report("cyclic machines", &dl3, &reach3, 1);
    tally dl2 = {0}, reach2 = {0};
    differential(random_net, ANY_NETS, GOALS_PER_NET, 3, unfold_run, "unfold", &dl2, &reach2);
    report("random nets", &dl2, &reach2, 0);
}

static unf_prefix *prefix_of(net_t *net, uint64_t max_events, double seconds, char *why,
                             size_t whylen)
{
    const cnet_t *cn = nc_compile(net);
    static budget_t budget;
    budget = unit_budget(seconds, 0);
    check_options opt;
    memset(&opt, 0, sizeof opt);
    opt.budget = &budget;
    opt.max_states = max_events;
    why[0] = '\0';
    return unf_build(cn, &opt, why, whylen);
}

/* k independent lines, then a cycle p0 -> p1 -> p0 */
static void test_sizes(void)
{
    char why[160];
    net_t *net = parallel_lines(6, 5);
    unf_prefix *u = prefix_of(net, 0, 0, why, sizeof why);
    CHECK(u && u->nev == 30 && u->ncutoffs == 0 && u->nco == 36,
          "6 lines of 5 steps: 30 events, no cut-off, 36 conditions (got %zu, %zu, %zu)",
          u ? u->nev : 0, u ? u->ncutoffs : 0, u ? u->nco : 0);
    uint32_t *ev;
    size_t n;
    budget_t unlimited = unit_budget(0, 0);
    int found = u ? unf_sat_find(u, NULL, &unlimited, &ev, &n, why, sizeof why) : -1;
    CHECK(found == 1 && n == 30, "its deadlock is the configuration of all 30 events (%d, %zu)",
          found, found == 1 ? n : 0);
    if (found == 1)
        free(ev);
    unf_free(u);
    nc_free_net(net);

    net = nc_create_net("cycle", NULL);
    nc_create_place(net, NULL, NULL, 1);
    nc_create_place(net, NULL, NULL, 0);
    nc_create_transition(net, NULL, NULL);
    nc_create_transition(net, NULL, NULL);
    nc_create_arc(net, NC_ARC_PT, 0, 0, 1, 0);
    nc_create_arc(net, NC_ARC_TP, 1, 0, 1, 0);
    nc_create_arc(net, NC_ARC_PT, 1, 1, 1, 0);
    nc_create_arc(net, NC_ARC_TP, 0, 1, 1, 0);
    u = prefix_of(net, 0, 0, why, sizeof why);
    CHECK(u && u->nev == 2 && u->ncutoffs == 1 && u->ev[1].cutoff &&
          u->ev[1].companion == UNF_NONE,
          "a cycle of two: two events, the second a cut-off with the initial marking");
    unf_free(u);
    nc_free_net(net);
}

static void test_limits(void)
{
    char why[160];
    net_t *net = parallel_lines(20, 20);
    unf_prefix *u = prefix_of(net, 50, 0, why, sizeof why);
    CHECK(!u && strstr(why, "event limit reached"), "-m 50: no prefix, '%s'", why);
    nc_free_net(net);

    /* every place unbounded: refused with the place named */
    net = nc_create_net("pump", NULL);
    nc_create_place(net, "p", NULL, 1);
    nc_create_transition(net, NULL, NULL);
    nc_create_arc(net, NC_ARC_TP, 0, 0, 1, 0);
    const cnet_t *cn = nc_compile(net);
    check_options opt = options();
    result_t res;
    result_init(&res);
    unfold_run(cn, NULL, KIND_DL, &opt, &res);
    CHECK(res.answer == ANSWER_UNKNOWN && strstr(res.reason, "place p"),
          "a net with an unbounded place: UNKNOWN, '%s'", res.reason);
    result_clear(&res);
    nc_free_net(net);
}

/* The .mci file: two counts, then what they announce, then the net's
 * sizes and names; 4-byte integers. */
static void test_mci(void)
{
    char why[160];
    net_t *net = parallel_lines(3, 2);
    unf_prefix *u = prefix_of(net, 0, 0, why, sizeof why);
    FILE *f = tmpfile();
    int rc = u && f ? unf_write_mci(f, u) : -1;
    long size = f ? ftell(f) : -1;
    int32_t head[2] = {0, 0};
    if (f) {
        rewind(f);
        if (fread(head, sizeof head[0], 2, f) != 2)
            head[0] = -1;
        fclose(f);
    }
    CHECK(rc == 0 && head[0] == 9 && head[1] == 6, "mci: 9 conditions, 6 events (%d, %d)",
          head[0], head[1]);
    /* 2 counts, 6 events, per condition place + producer + consumers + 0,
     * cut-off pairs ended by 0 0, places, transitions, the longest name,
     * then the names (unnamed nodes: "p1".."p9", "t1".."t6") */
    long want = 4 * (2 + 6 + (9 * 3 + 6) + 2 + 3) + 9 * 3 + 1 + 6 * 3 + 1;
    CHECK(size == want, "mci: %ld bytes, as the format says (%ld)", size, want);
    unf_free(u);
    nc_free_net(net);
}

/* No two events of a prefix have the same transition and preset (each
 * co-set is found once), and every event's preset holds one condition of
 * each place the transition needs. */
static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Mark([e]) by the net's own arcs (replay.h's rule): the initial marking
 * plus each event of [e], its causes found by a walk with a stack. */
static void local_marking(const unf_prefix *u, uint32_t e, nc_count *m)
{
    const net_t *net = u->cn->net;
    replay_initial(net, m);
    if (e == UNF_NONE)
        return;
    uint8_t *in = calloc(u->nev, 1);
    uint32_t *stack = malloc(u->nev * sizeof *stack);
    size_t top = 0;
    stack[top++] = e;
    in[e] = 1;
    while (top) {
        uint32_t f = stack[--top];
        /* the arcs in net order: counts, not firings, so order is free */
        for (size_t i = 0; i < net->narcs; i++) {
            const nc_arc *a = &net->arcs[i];
            if (a->transition != u->ev[f].trans)
                continue;
            if (a->kind == NC_ARC_PT)
                m[a->place] -= a->weight;
            else if (a->kind == NC_ARC_TP)
                m[a->place] += a->weight;
        }
        for (uint32_t k = 0; k < u->ev[f].npre; k++) {
            uint32_t g = u->co[u->pre[u->ev[f].pre_start + k]].pre;
            if (g != UNF_NONE && !in[g]) {
                in[g] = 1;
                stack[top++] = g;
            }
        }
    }
    free(in);
    free(stack);
}

/* Events come in the ERV order, which refines size: |[e]| never falls;
 * a cut-off's local configuration marks what its companion's does. */
static void test_order_and_cutoffs(void)
{
    unsigned nets = 0, falls = 0, cutoffs = 0, wrong = 0;
    for (int i = 0; i < 200; i++) {
        net_t *net = i % 2 ? random_cyclic_net() : random_safe_net();
        char why[160];
        unf_prefix *u = prefix_of(net, 20000, 0, why, sizeof why);
        if (!u) {
            nc_free_net(net);
            continue;
        }
        nets++;
        nc_count *m1 = calloc(net->nplaces + 1, sizeof *m1);
        nc_count *m2 = calloc(net->nplaces + 1, sizeof *m2);
        for (size_t e = 0; e < u->nev; e++) {
            falls += e > 0 && u->ev[e].size < u->ev[e - 1].size;
            if (!u->ev[e].cutoff)
                continue;
            cutoffs++;
            local_marking(u, (uint32_t)e, m1);
            local_marking(u, u->ev[e].companion, m2);
            wrong += memcmp(m1, m2, net->nplaces * sizeof *m1) != 0 ||
                     (u->ev[e].companion != UNF_NONE && u->ev[e].companion >= e);
        }
        free(m1);
        free(m2);
        unf_free(u);
        nc_free_net(net);
    }
    CHECK(nets >= 180 && falls == 0 && cutoffs > 200 && wrong == 0,
          "%u prefixes: sizes of local configurations never fall (%u falls); %u cut-offs, "
          "each with an earlier companion of the same marking (%u wrong)", nets, falls, cutoffs,
          wrong);
}

static void test_unique(void)
{
    unsigned nets = 0, bad = 0, events = 0;
    for (int i = 0; i < 200; i++) {
        net_t *net = i % 2 ? random_cyclic_net() : random_safe_net();
        char why[160];
        unf_prefix *u = prefix_of(net, 20000, 0, why, sizeof why);
        if (!u) {
            nc_free_net(net);
            continue;
        }
        nets++;
        events += (unsigned)u->nev;
        for (size_t a = 0; a < u->nev; a++) {
            uint32_t pa[16], pb[16];
            const unf_event *ea = &u->ev[a];
            const cnet_t *cn = u->cn;
            if (ea->npre != cn->need_start[ea->trans + 1] - cn->need_start[ea->trans] ||
                ea->npre > 16) {
                bad++;
                continue;
            }
            memcpy(pa, u->pre + ea->pre_start, ea->npre * sizeof *pa);
            qsort(pa, ea->npre, sizeof *pa, cmp_u32);
            for (size_t b = a + 1; b < u->nev; b++) {
                const unf_event *eb = &u->ev[b];
                if (eb->trans != ea->trans || eb->npre != ea->npre)
                    continue;
                memcpy(pb, u->pre + eb->pre_start, eb->npre * sizeof *pb);
                qsort(pb, eb->npre, sizeof *pb, cmp_u32);
                bad += !memcmp(pa, pb, ea->npre * sizeof *pa);
            }
        }
        unf_free(u);
        nc_free_net(net);
    }
    CHECK(nets >= 180 && bad == 0, "%u prefixes of random safe nets, %u events: no event twice, "
          "every preset whole (%u wrong)", nets, events, bad);
}

int main(void)
{
    (void)ltl_differential;   /* randnet.h's, for the LTL tests */
    test_sizes();
    test_limits();
    test_mci();
    test_unique();
    test_order_and_cutoffs();
    test_random();
    UNIT_DONE();
}
