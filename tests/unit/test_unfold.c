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
#include "engine/unfold/segments.h"
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

/* 5 to 8 machines of 3 to 6 states, each state with one or two ways on
 * (a choice), and 3 to 9 synchronisations of two machines: prefixes of
 * hundreds of conditions, many of them concurrent, many in conflict. */
static net_t *random_wide_net(void)
{
    net_t *n = nc_create_net("wide", NULL);
    uint32_t K = 5 + rnd(4), first[8], size[8], P = 0;
    for (uint32_t k = 0; k < K; k++) {
        first[k] = P;
        size[k] = 3 + rnd(4);
        for (uint32_t s = 0; s < size[k]; s++, P++)
            nc_create_place(n, NULL, NULL, s == 0);
    }
    uint32_t t;
    for (uint32_t k = 0; k < K; k++)
        for (uint32_t s = 0; s < size[k]; s++)
            for (uint32_t w = 0, ways = 1 + (rnd(3) == 0); w < ways; w++) {
                t = (uint32_t)nc_create_transition(n, NULL, NULL);
                nc_create_arc(n, NC_ARC_PT, first[k] + s, t, 1, 0);
                nc_create_arc(n, NC_ARC_TP, first[k] + (w ? rnd(size[k]) : (s + 1) % size[k]), t,
                              1, 0);
            }
    uint32_t syncs = 3 + rnd(7);
    for (uint32_t i = 0; i < syncs; i++) {
        uint32_t a = rnd(K), b = (a + 1 + rnd(K - 1)) % K;
        t = (uint32_t)nc_create_transition(n, NULL, NULL);
        uint32_t ks[2] = {a, b};
        for (int j = 0; j < 2; j++) {
            uint32_t k = ks[j], from = rnd(size[k]), to = rnd(size[k]);
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
    /* the checker: 50 events of 4 lines of 20 steps hold no deadlock (all
     * 80 are needed), so UNKNOWN with the limit, never NO (a small net:
     * the safety proof before it has 30 s without a time limit) */
    net = parallel_lines(4, 20);
    {
        const cnet_t *lcn = nc_compile(net);
        check_options lopt = options();
        lopt.max_states = 50;
        result_t lres;
        result_init(&lres);
        unfold_run(lcn, NULL, KIND_DL, &lopt, &lres);
        CHECK(lres.answer == ANSWER_UNKNOWN && strstr(lres.reason, "event limit reached (50") &&
                  strstr(lres.reason, "none of the configurations of the 50 events built"),
              "-m 50 in the checker: UNKNOWN, '%s'", lres.reason);
        result_clear(&lres);
    }
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

/* The concurrency relation of a finished prefix by its definition, for the
 * check below: c1 co c2 when neither is consumed in the history of the
 * other's producer and those producers are not in conflict (their
 * histories hold two different events that consume one condition). */
typedef struct brute_co {
    size_t words;       /* of an event bit set */
    uint64_t *hist;     /* per event: its local configuration */
    uint64_t *clash;    /* per event: events that share a preset condition with its history */
    uint8_t *used;      /* per event, per condition: consumed in its history */
} brute_co;

static void brute_build(const unf_prefix *u, brute_co *bc)
{
    size_t W = (u->nev + 63) / 64 + 1;
    bc->words = W;
    bc->hist = calloc(u->nev * W + 1, sizeof *bc->hist);
    bc->clash = calloc(u->nev * W + 1, sizeof *bc->clash);
    bc->used = calloc(u->nev * u->nco + 1, 1);
    /* events come after their causes: one pass in index order */
    for (size_t e = 0; e < u->nev; e++) {
        uint64_t *h = bc->hist + e * W, *x = bc->clash + e * W;
        uint8_t *used = bc->used + e * u->nco;
        h[e / 64] |= 1ull << (e % 64);
        for (uint32_t k = 0; k < u->ev[e].npre; k++) {
            uint32_t c = u->pre[u->ev[e].pre_start + k], f = u->co[c].pre;
            used[c] = 1;
            if (f != UNF_NONE) {
                for (size_t w = 0; w < W; w++) {
                    h[w] |= bc->hist[f * W + w];
                    x[w] |= bc->clash[f * W + w];
                }
                for (size_t d = 0; d < u->nco; d++)
                    used[d] |= bc->used[f * u->nco + d];
            }
            for (uint32_t j = u->cons_start[c]; j < u->cons_start[c + 1]; j++)
                if (u->cons[j] != e)
                    x[u->cons[j] / 64] |= 1ull << (u->cons[j] % 64);
        }
    }
}

static int brute_conflict(const brute_co *bc, uint32_t f1, uint32_t f2)
{
    if (f1 == UNF_NONE || f2 == UNF_NONE)
        return 0;
    const uint64_t *x = bc->clash + (size_t)f1 * bc->words, *h = bc->hist + (size_t)f2 * bc->words;
    for (size_t w = 0; w < bc->words; w++)
        if (x[w] & h[w])
            return 1;
    return 0;
}

static int brute_concurrent(const unf_prefix *u, const brute_co *bc, uint32_t c1, uint32_t c2)
{
    uint32_t f1 = u->co[c1].pre, f2 = u->co[c2].pre;
    if (c1 == c2 || (f2 != UNF_NONE && bc->used[(size_t)f2 * u->nco + c1]) ||
        (f1 != UNF_NONE && bc->used[(size_t)f1 * u->nco + c2]))
        return 0;
    return !brute_conflict(bc, f1, f2);
}

static void brute_free(brute_co *bc)
{
    free(bc->hist);
    free(bc->clash);
    free(bc->used);
}

/* Co-sets of the conditions no cut-off made, on t's places, by an
 * explicit search over the places' conditions in order. */
static size_t brute_cosets(const unf_prefix *u, const uint8_t *co, uint32_t t)
{
    const cnet_t *cn = u->cn;
    uint32_t k = cn->need_start[t + 1] - cn->need_start[t], chosen[16], pos[16];
    if (k > 16)
        return 0;
    if (k == 0)
        return 1;
    size_t found = 0;
    uint32_t i = 0;
    pos[0] = 0;
    for (;;) {
        uint32_t p = cn->need_place[cn->need_start[t] + i];
        int ok = 0;
        while (pos[i] < u->nco) {
            uint32_t c = pos[i]++;
            if (u->co[c].place != p ||
                (u->co[c].pre != UNF_NONE && u->ev[u->co[c].pre].cutoff))
                continue;
            ok = 1;
            for (uint32_t j = 0; j < i && ok; j++)
                ok = co[(size_t)chosen[j] * u->nco + c];
            if (ok) {
                chosen[i] = c;
                break;
            }
        }
        if (ok && i + 1 == k) {
            found++;
            continue;
        }
        if (ok) {
            pos[++i] = 0;
            continue;
        }
        if (i == 0)
            return found;
        i--;
    }
}

/* The prefix the sparse relation (engine/unfold/corel.c) builds is the
 * one its definition gives: every event's preset is a co-set of
 * conditions no cut-off made, and every such co-set of a transition that
 * can fire is one event (with test_unique's "no event twice", a
 * bijection), on nets of 2 to 8 machines so that live conditions fill several
 * words and chunks. */
static void test_cosets_exact(void)
{
    unsigned nets = 0, big = 0, bad_pre = 0, bad_count = 0;
    size_t events = 0, conds = 0;
    for (int i = 0; i < 300; i++) {
        net_t *net = i % 3 == 0 ? random_safe_net() : i % 3 == 1 ? random_cyclic_net()
                                                                   : random_wide_net();
        char why[160];
        unf_prefix *u = prefix_of(net, 1500, 0, why, sizeof why);
        if (!u || u->nco > 2500) {
            unf_free(u);
            nc_free_net(net);
            continue;
        }
        nets++;
        events += u->nev;
        conds += u->nco;
        big += u->nco > 200;
        brute_co bc;
        brute_build(u, &bc);
        uint8_t *co = malloc(u->nco * u->nco + 1);
        for (uint32_t a = 0; a < u->nco; a++)
            for (uint32_t b = 0; b < u->nco; b++)
                co[(size_t)a * u->nco + b] = (uint8_t)brute_concurrent(u, &bc, a, b);
        for (size_t e = 0; e < u->nev; e++) {
            const unf_event *ev = &u->ev[e];
            for (uint32_t x = 0; x < ev->npre; x++) {
                uint32_t c = u->pre[ev->pre_start + x];
                bad_pre += u->co[c].pre != UNF_NONE && u->ev[u->co[c].pre].cutoff;
                for (uint32_t y = x + 1; y < ev->npre; y++)
                    bad_pre += !co[(size_t)c * u->nco + u->pre[ev->pre_start + y]];
            }
        }
        size_t cosets = 0;
        for (uint32_t t = 0; t < u->cn->ntransitions; t++) {
            int fires = 1;
            for (uint32_t x = u->cn->need_start[t]; x < u->cn->need_start[t + 1]; x++)
                fires &= u->cn->need_weight[x] == 1;
            for (uint32_t x = u->cn->post_start[t]; x < u->cn->post_start[t + 1]; x++)
                fires &= u->cn->post_weight[x] == 1;
            if (fires)
                cosets += brute_cosets(u, co, t);
        }
        bad_count += cosets != u->nev;
        free(co);
        brute_free(&bc);
        unf_free(u);
        nc_free_net(net);
    }
    CHECK(nets >= 250 && big >= 20 && bad_pre == 0 && bad_count == 0,
          "%u prefixes (%u of more than 200 conditions; %zu events, %zu conditions): every "
          "preset a co-set of conditions no cut-off made (%u wrong), as many events as such "
          "co-sets (%u prefixes differ)", nets, big, events, conds, bad_pre, bad_count);
}

/* ---- a prefix cut before it is complete ----
 *
 * Every configuration of a partial prefix is one of the unfolding, so what
 * the solver finds there must be reachable: each answer found, at a look
 * while the prefix grows or on what a limit left, is the explicit search's
 * YES and replays into the goal; none found says nothing, and the checker
 * then answers UNKNOWN, never NO. */

typedef struct partial_tally {
    const net_t *net;
    unsigned looks, partial_looks, found, agree, replayed, wrong_shape;
    /* unf_sat_segments on the same looks: goals found that the whole
     * partial prefix has and has not, found replaying, prefixes not left
     * whole */
    unsigned seg_found, seg_differ, seg_replayed, seg_not_whole;
    tree_t **goals;               /* [0]: NULL, a deadlock */
    const answer_t *want;         /* explicit's answers */
} partial_tally;

/* 1 when the configuration events[0..n) of u linearises into a run of
 * net that replays into f (NULL: a deadlock). */
static int configuration_replays(const net_t *net, const unf_prefix *u, const uint32_t *events,
                                 size_t n, const tree_t *f)
{
    uint32_t *run = unf_linearise(u, events, n);
    if (!run)
        return 0;
    result_t r;
    result_init(&r);
    r.answer = ANSWER_YES;
    result_set_run(&r, RUN_WITNESS, run, n, RESULT_NO_LOOP);
    int ok = replays(net, &r, f);
    result_clear(&r);
    free(run);
    return ok;
}

/* What unf_sat_segments found on one look. */
typedef struct seg_seen {
    partial_tally *t;
    int found[GOALS_PER_NET + 1];
} seg_seen;

static void seg_found(void *ctx, size_t i, const unf_prefix *u, const uint32_t *events, size_t n)
{
    seg_seen *s = ctx;
    s->found[i] = 1;
    s->t->seg_found++;
    s->t->seg_replayed += configuration_replays(s->t->net, u, events, n, s->t->goals[i]);
}

static int partial_look(void *ctx, unf_prefix *partial, double seconds)
{
    (void)seconds;   /* 0: the watch looks always, without a time limit */
    partial_tally *t = ctx;
    t->looks++;
    t->partial_looks += !partial->complete;
    if (unf_consumers(partial) < 0)
        return 0;
    budget_t unlimited = unit_budget(0, 0);
    uint32_t *events;
    size_t n;
    char why[160];
    /* segments from 2 events on, so that these small prefixes have
     * several: without a time limit they end on the whole partial prefix,
     * so they find exactly what it has */
    seg_seen seen = {t, {0}};
    unf_segment_watch watch = {seg_found, NULL, &seen};
    size_t built = partial->nev;
    unf_sat_segments(partial, (const tree_t *const *)t->goals, GOALS_PER_NET + 1, 2, &unlimited,
                     &watch, why, sizeof why);
    t->seg_not_whole += partial->nev != built;
    for (int g = 0; g <= GOALS_PER_NET; g++) {
        int has = unf_sat_find(partial, t->goals[g], &unlimited, &events, &n, why, sizeof why);
        t->seg_differ += (has == 1) != seen.found[g];
        if (has != 1)
            continue;
        t->found++;
        t->agree += t->want[g] == ANSWER_YES;
        t->replayed += configuration_replays(t->net, partial, events, n, t->goals[g]);
        free(events);
    }
    return 0;   /* look on: the construction's limit comes after */
}

static void test_partial(void)
{
    partial_tally t = {0};
    unsigned nets = 0, cut = 0, final_found = 0, final_agree = 0, final_replayed = 0;
    unsigned run_yes = 0, run_no = 0, run_wrong = 0, run_unreplayed = 0;
    for (int i = 0; i < 300; i++) {
        net_t *net = i % 2 ? random_wide_net() : random_cyclic_net();
        const cnet_t *cn = nc_compile(net);
        char why[160];
        unf_prefix *full = prefix_of(net, 20000, 0, why, sizeof why);
        if (!full || full->nev < 4) {
            unf_free(full);
            nc_free_net(net);
            continue;
        }
        nets++;
        size_t limit = 1 + (size_t)rnd((uint32_t)full->nev - 1);
        unf_free(full);
        tree_t *goals[GOALS_PER_NET + 1] = {NULL};
        for (int g = 1; g <= GOALS_PER_NET; g++)
            goals[g] = random_formula((uint32_t)net->nplaces, (uint32_t)net->ntransitions, 3);
        answer_t want[GOALS_PER_NET + 1];
        for (int g = 0; g <= GOALS_PER_NET; g++) {
            check_options opt = options();
            result_t r;
            result_init(&r);
            explicit_run(cn, goals[g], g ? KIND_REACH : KIND_DL, &opt, &r);
            want[g] = r.answer;
            result_clear(&r);
        }
        t.net = net;
        t.goals = goals;
        t.want = want;
        budget_t budget = unit_budget(0, 0);
        check_options opt;
        memset(&opt, 0, sizeof opt);
        opt.budget = &budget;
        opt.max_states = limit;
        unf_watch watch = {partial_look, &t, 1, 1};
        why[0] = '\0';
        unf_prefix *u = unf_build_watched(cn, &opt, &watch, why, sizeof why);
        if (u && !u->complete && u->nev == limit && strstr(why, "event limit reached"))
            cut++;
        else
            t.wrong_shape++;
        for (int g = 0; u && g <= GOALS_PER_NET; g++) {
            uint32_t *events;
            size_t n;
            if (unf_sat_find(u, goals[g], &budget, &events, &n, why, sizeof why) != 1)
                continue;
            final_found++;
            final_agree += want[g] == ANSWER_YES;
            final_replayed += configuration_replays(net, u, events, n, goals[g]);
            free(events);
        }
        unf_free(u);
        /* the checker under the same limit: YES with a run, or UNKNOWN */
        for (int g = 0; g <= GOALS_PER_NET; g++) {
            check_options copt = options();
            copt.max_states = limit;
            result_t r;
            result_init(&r);
            unfold_run(cn, goals[g], g ? KIND_REACH : KIND_DL, &copt, &r);
            if (r.answer == ANSWER_YES) {
                run_yes++;
                run_wrong += want[g] != ANSWER_YES;
                run_unreplayed += !replays(net, &r, goals[g]);
            } else if (r.answer == ANSWER_NO) {
                run_no++;
            }
            result_clear(&r);
        }
        for (int g = 1; g <= GOALS_PER_NET; g++)
            tree_free(goals[g]);
        nc_free_net(net);
    }
    CHECK(nets >= 250 && cut == nets && t.wrong_shape == 0,
          "%u prefixes cut at a random event count below the complete one's: each came back "
          "partial with its events and the limit's reason (%u otherwise)", nets,
          t.wrong_shape);
    CHECK(t.looks > nets && t.partial_looks == t.looks && t.found > 0 && t.agree == t.found &&
              t.replayed == t.found,
          "looks while the prefixes grew: %u, all at partial prefixes; %u deadlocks and goals "
          "found, %u of them explicit's YES, %u replay", t.looks, t.found, t.agree, t.replayed);
    CHECK(t.seg_found > 0 && t.seg_differ == 0 && t.seg_replayed == t.seg_found &&
              t.seg_not_whole == 0,
          "on the same looks, segment by segment from 2 events: %u deadlocks and goals found, "
          "%u differ from the whole partial prefix's, %u replay; %u prefixes not left whole",
          t.seg_found, t.seg_differ, t.seg_replayed, t.seg_not_whole);
    CHECK(final_found > 0 && final_agree == final_found && final_replayed == final_found,
          "on what the limit left: %u deadlocks and goals found, %u of them explicit's YES, %u "
          "replay", final_found, final_agree, final_replayed);
    CHECK(run_yes > 0 && run_no == 0 && run_wrong == 0 && run_unreplayed == 0,
          "the checker with -m below the prefix: %u YES (%u not explicit's, %u not replaying), "
          "%u NO", run_yes, run_wrong, run_unreplayed, run_no);
}

int main(void)
{
    (void)ltl_differential;   /* randnet.h's, for the LTL tests */
    test_sizes();
    test_limits();
    test_mci();
    test_unique();
    test_cosets_exact();
    test_order_and_cutoffs();
    test_partial();
    test_random();
    UNIT_DONE();
}
