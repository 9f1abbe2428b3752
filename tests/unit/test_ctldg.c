/* The dependency-graph CTL engine (checkers/ctl/depgraph.h) against the
 * global CTL checker (ctl.h), which computes every subformula on the whole
 * graph by other means: hand-made nets for the deadlock semantics, random
 * nets with random formulas of the contest's shape, and the CTL files of
 * small contest instances ($SHARED/mcc, skipped when absent), each with all
 * three search strategies.  Where both answer, the answers must be equal;
 * where the global checker answers, the engine must too.  Then the limits:
 * memory, time, states and the interrupt flag end in -1 with a reason. */
#include "checkers/ctl/ctl.h"
#include "checkers/ctl/depgraph.h"
#include "formula/mccxml.h"
#include "input/input.h"
#include "budgets.h"
#include "randnetgen.h"
#include "unit.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const ctl_strategy strategies[] = {CTL_DFS, CTL_BFS, CTL_BEST};
#define NSTRAT 3

static tree_t *ge(uint32_t place, int64_t k)
{
    lin_term term = {place, 1};
    return tree_cmp(&term, 1, -k, REL_GE);
}

/* The global checker's value of each of f[0..n) into v (-1: no answer). */
static void global_values(const cnet_t *cn, const tree_t *const *f, size_t n,
                          const check_options *opt, int *v)
{
    result_t res;
    result_init(&res);
    int stopped = 0;
    ctl_model *m = ctl_model_build(cn, f, n, opt, NULL, NULL, &stopped, &res);
    for (size_t i = 0; i < n; i++) {
        char why[128];
        v[i] = m ? ctl_model_check(m, f[i], why, sizeof why) : -1;
    }
    ctl_model_free(m);
    result_clear(&res);
}

static int global_value(const cnet_t *cn, const tree_t *f, const check_options *opt)
{
    int v;
    global_values(cn, &f, 1, opt, &v);
    return v;
}

/* ---- hand-made nets ---- */

static void arc(net_t *n, nc_arc_kind k, int p, int t)
{
    nc_create_arc(n, k, (uint32_t)p, (uint32_t)t, 1, 0);
}

/* p0 -a-> p1 -b-> p0 is a cycle; p0 -c-> p2 leaves it for a deadlock. */
static net_t *lasso_net(void)
{
    net_t *n = nc_create_net("lasso", NULL);
    for (int p = 0; p < 3; p++)
        nc_create_place(n, NULL, NULL, p == 0);
    for (int t = 0; t < 3; t++)
        nc_create_transition(n, NULL, NULL);
    arc(n, NC_ARC_PT, 0, 0), arc(n, NC_ARC_TP, 1, 0);
    arc(n, NC_ARC_PT, 1, 1), arc(n, NC_ARC_TP, 0, 1);
    arc(n, NC_ARC_PT, 0, 2), arc(n, NC_ARC_TP, 2, 2);
    return n;
}

static void expect(const cnet_t *cn, tree_t *f, int want, const char *what)
{
    budget_t budget = unit_budget(0, 0);
    check_options opt;
    memset(&opt, 0, sizeof opt);
    opt.budget = &budget;
    for (int k = 0; k < NSTRAT; k++) {
        char why[128] = "";
        int v = ctl_depgraph_check(cn, f, &opt, strategies[k], NULL, why, sizeof why);
        CHECK(v == want, "%s (%s): %d %s", what, ctl_strategy_name(strategies[k]), v, why);
    }
    tree_free(f);
}

static void known_answers(void)
{
    net_t *lasso = lasso_net(), *dead = nc_create_net("dead", NULL);
    nc_create_place(dead, NULL, NULL, 1);
    const cnet_t *cl = nc_compile(lasso), *cd = nc_compile(dead);
    /* at a deadlock the only path is the marking itself */
    expect(cd, tree_unary(T_EX, tree_const(1)), 0, "dead EX true");
    expect(cd, tree_unary(T_AX, tree_const(0)), 1, "dead AX false");
    expect(cd, tree_unary(T_EG, ge(0, 1)), 1, "dead EG p0");
    expect(cd, tree_unary(T_AF, ge(0, 1)), 1, "dead AF p0");
    expect(cd, tree_unary(T_AF, ge(0, 2)), 0, "dead AF p0 >= 2");
    expect(cd, tree_binary(T_AU, tree_const(1), ge(0, 1)), 1, "dead A[true U p0]");
    expect(cd, tree_binary(T_EU, tree_const(1), ge(0, 2)), 0, "dead E[true U p0 >= 2]");
    expect(cd, tree_unary(T_AG, tree_unary(T_AX, tree_const(0))), 1, "dead AG AX false");
    /* the cycle a b and the exit c into a deadlock */
    expect(cl, tree_unary(T_EG, tree_unary(T_NOT, ge(2, 1))), 1, "lasso EG !p2 (the loop)");
    expect(cl, tree_unary(T_AF, ge(2, 1)), 0, "lasso AF p2 (the loop avoids it)");
    expect(cl, tree_binary(T_AU, ge(0, 1), ge(1, 1)), 0, "lasso A[p0 U p1]");
    expect(cl, tree_unary(T_AG, tree_unary(T_EF, ge(2, 1))), 1, "lasso AG EF p2");
    expect(cl, tree_unary(T_EF, tree_unary(T_AG, ge(2, 1))), 1, "lasso EF AG p2");
    expect(cl, tree_unary(T_AG, tree_unary(T_EX, tree_const(1))), 0, "lasso AG EX true");
    expect(cl, tree_unary(T_EG, tree_unary(T_EX, tree_const(1))), 1, "lasso EG EX true");
    expect(cl, tree_unary(T_AF, tree_unary(T_AG, tree_unary(T_NOT, ge(1, 1)))), 0,
           "lasso AF AG !p1");
    nc_free_net(lasso);
    nc_free_net(dead);
}

/* The global checker's own shortcuts: at state 0 E F and A G are read off
 * their operand's set, and on a graph that is one strongly connected
 * component every E F and A G is all or nothing; fireability comes from
 * the edges.  The ring p0 -a-> p1 -b-> p2 -c-> p0 is such a graph, the
 * lasso is not; the engine must agree with each answer as well. */
static void expect_both(const cnet_t *cn, tree_t *f, int want, const char *what)
{
    budget_t budget = unit_budget(0, 0);
    check_options opt;
    memset(&opt, 0, sizeof opt);
    opt.budget = &budget;
    int v = global_value(cn, f, &opt);
    CHECK(v == want, "global %s: %d", what, v);
    expect(cn, f, want, what);
}

static void strongly_connected(void)
{
    net_t *ring = nc_create_net("ring", NULL), *lasso = lasso_net();
    for (int p = 0; p < 3; p++)
        nc_create_place(ring, NULL, NULL, p == 0);
    for (int t = 0; t < 3; t++) {
        nc_create_transition(ring, NULL, NULL);
        arc(ring, NC_ARC_PT, t, t), arc(ring, NC_ARC_TP, (t + 1) % 3, t);
    }
    const cnet_t *cr = nc_compile(ring), *cl = nc_compile(lasso);
    uint32_t a = 0, b = 1;
    expect_both(cr, tree_unary(T_AG, tree_unary(T_EF, ge(2, 1))), 1, "ring AG EF p2");
    expect_both(cr, tree_unary(T_EX, tree_unary(T_AG, ge(0, 1))), 0, "ring EX AG p0");
    expect_both(cr, tree_unary(T_EX, tree_unary(T_EF, ge(0, 1))), 1, "ring EX EF p0");
    expect_both(cr, tree_unary(T_EF, tree_binary(T_AND, ge(1, 1),
                                                 tree_unary(T_EX, tree_unary(T_AG, ge(2, 1))))),
                0, "ring EF (p1 and EX AG p2)");
    expect_both(cr, tree_unary(T_AG, tree_binary(T_IFF, ge(0, 1), tree_fireable(&a, 1))), 1,
                "ring AG (p0 <-> fireable(a))");
    expect_both(cr, tree_unary(T_EF, tree_binary(T_AND, ge(0, 1), tree_fireable(&b, 1))), 0,
                "ring EF (p0 and fireable(b))");
    expect_both(cr, tree_binary(T_AND, tree_unary(T_EF, ge(1, 1)),
                                tree_unary(T_NOT, tree_unary(T_AG, ge(1, 1)))),
                1, "ring EF p1 and not AG p1");
    expect_both(cr, tree_binary(T_IFF, tree_unary(T_EF, ge(1, 1)), tree_unary(T_AG, ge(0, 1))), 0,
                "ring EF p1 <-> AG p0");
    expect_both(cr, tree_binary(T_IMPLIES, tree_unary(T_AG, ge(1, 1)), tree_const(0)), 1,
                "ring AG p1 -> false");
    /* the lasso: p1 reaches p0, but p2 (the deadlock) reaches nothing */
    expect_both(cl, tree_unary(T_EX, tree_unary(T_EF, ge(2, 1))), 1, "lasso EX EF p2");
    expect_both(cl, tree_unary(T_EF, tree_unary(T_AG, ge(0, 1))), 0, "lasso EF AG p0");
    expect_both(cl, tree_unary(T_AG, tree_binary(T_IMPLIES, ge(2, 1),
                                                 tree_unary(T_NOT, tree_unary(T_EF, ge(0, 1))))),
                1, "lasso AG (p2 -> not EF p0)");
    uint32_t c = 2;
    expect_both(cl, tree_unary(T_AG, tree_binary(T_IMPLIES, ge(2, 1),
                                                 tree_unary(T_NOT, tree_fireable(&c, 1)))),
                1, "lasso AG (p2 -> not fireable(c))");
    nc_free_net(ring);
    nc_free_net(lasso);
}

/* ---- random nets, random formulas ---- */

/* The contest's CTL: quantified temporal operators nested freely under
 * the connectives, over comparisons, fireability and deadlock. */
static tree_t *random_ctl(uint32_t P, uint32_t T, int depth)
{
    if (depth == 0 || rnd(5) == 0)
        return random_atom(P, T);
    static const tree_op unary[] = {T_NOT, T_EX, T_AX, T_EF, T_AF, T_EG, T_AG};
    static const tree_op binary[] = {T_AND, T_OR, T_EU, T_AU, T_IMPLIES, T_IFF};
    if (rnd(3))
        return tree_unary(unary[rnd(7)], random_ctl(P, T, depth - 1));
    tree_t *l = random_ctl(P, T, depth - 1);
    return tree_binary(binary[rnd(6)], l, random_ctl(P, T, depth - 1));
}

typedef struct tally {
    unsigned cases, both, agree, dg_only, missed, timed_out, local_agree, local_both;
    unsigned por_agree, por_both, por_reduced;
} tally;

static void compare(const char *what, const cnet_t *cn, const tree_t *f, int want,
                    const check_options *opt, tally *t)
{
    for (int k = 0; k < NSTRAT; k++) {
        char why[128] = "";
        int v = ctl_depgraph_check(cn, f, opt, strategies[k], NULL, why, sizeof why);
        t->cases++;
        if (want >= 0 && v < 0 && strstr(why, "time limit")) {
            /* a loaded machine, not the engine: counted, not failed */
            t->timed_out++;
        } else if (want >= 0 && v < 0) {
            t->missed++;
            printf("# %s: ", what);
            tree_print(stdout, f);
            printf(": the global checker says %d, %s gives up: %s\n", want,
                   ctl_strategy_name(strategies[k]), why);
        } else if (want < 0 && v >= 0) {
            t->dg_only++;
        } else if (want >= 0) {
            t->both++;
            t->agree += v == want;
            if (v != want) {
                printf("# %s: ", what);
                tree_print(stdout, f);
                printf(": global %d, %s %d\n", want, ctl_strategy_name(strategies[k]), v);
            }
        }
    }
}

static void random_differential(int nets, int per_net)
{
    tally t = {0};
    for (int i = 0; i < nets; i++) {
        net_t *net = random_net();
        const cnet_t *cn = nc_compile(net);
        budget_t budget = unit_budget(0, 0);
        check_options opt;
        memset(&opt, 0, sizeof opt);
        opt.budget = &budget;
        opt.max_states = 5000;   /* some nets pump without end */
        for (int g = 0; g < per_net; g++) {
            tree_t *f = random_ctl((uint32_t)net->nplaces, (uint32_t)net->ntransitions,
                                   1 + (int)rnd(4));
            int want = global_value(cn, f, &opt);
            compare("random", cn, f, want, &opt, &t);
            char why[128];
            check_options lopt = opt;
            budget_t brief = unit_budget(0.2, 0);   /* the local check knows no state limit */
            lopt.budget = &brief;
            int local = ctl_local_check(cn, f, &lopt, NULL, NULL, why, sizeof why);
            if (want >= 0 && local >= 0) {
                t.local_both++;
                t.local_agree += local == want;
            }
            /* and with stubborn sets in its E F and A G searches */
            lopt.partial_order = 1;
            budget_t brief_por = unit_budget(0.2, 0);
            lopt.budget = &brief_por;
            ctl_local_stats stats = {0, 0};
            int local_por = ctl_local_check(cn, f, &lopt, &stats, NULL, why, sizeof why);
            if (want >= 0 && local_por >= 0) {
                t.por_both++;
                t.por_agree += local_por == want;
                t.por_reduced += stats.reduced;
                if (local_por != want) {
                    printf("# stubborn local check: ");
                    tree_print(stdout, f);
                    printf(": global %d, local %d\n", want, local_por);
                }
            }
            tree_free(f);
        }
        nc_free_net(net);
    }
    printf("# random: %u runs (3 strategies), %u answered by both, %u only by the engine\n",
           t.cases, t.both, t.dg_only);
    CHECK(t.both > (unsigned)(nets * per_net) && t.agree == t.both,
          "random nets: the engine and the global checker agree on %u of %u answers", t.agree,
          t.both);
    CHECK(t.missed == 0, "random nets: the engine answers wherever the global checker does "
          "(%u misses)", t.missed);
    CHECK(t.local_agree == t.local_both, "random nets: the local check agrees too (%u of %u)",
          t.local_agree, t.local_both);
    CHECK(t.por_both > 0 && t.por_agree == t.por_both && t.por_reduced > 0,
          "random nets: the local check with stubborn sets agrees too (%u of %u, %u reduced "
          "a search)", t.por_agree, t.por_both, t.por_reduced);
}

/* ---- contest instances ---- */

static const char *const instances[] = {
    "Dekker-PT-010", "Eratosthenes-PT-010", "ResAllocation-PT-R003C003",
    "PhilosophersDyn-PT-03", "SimpleLoadBal-PT-02", "CircularTrains-PT-012",
};

static void shared_instances(const char *shared)
{
    static const char *const exams[] = {"CTLCardinality", "CTLFireability"};
    tally t = {0};
    size_t files = 0;
    for (size_t i = 0; i < sizeof instances / sizeof instances[0]; i++) {
        char path[1200];
        snprintf(path, sizeof path, "%s/mcc/%s/model.pnml", shared, instances[i]);
        net_t *net = access(path, R_OK) == 0 ? pnml_read(path) : NULL;
        const cnet_t *cn = net ? nc_compile(net) : NULL;
        for (size_t e = 0; cn && e < 2; e++) {
            snprintf(path, sizeof path, "%s/mcc/%s/%s.xml", shared, instances[i], exams[e]);
            mcc_property_set *set = mccxml_read(path, net, exams[e]);
            if (!set)
                continue;
            files++;
            const tree_t **f = calloc(set->n + 1, sizeof *f);
            int *want = calloc(set->n + 1, sizeof *want);
            size_t n = 0;
            for (size_t k = 0; f && k < set->n; k++)
                if (set->props[k].formula)
                    f[n++] = set->props[k].formula;
            check_options opt;
            memset(&opt, 0, sizeof opt);
            budget_t global = unit_budget(30, 0), each = unit_budget(10, 0);
            opt.budget = &global;
            if (f && want)
                global_values(cn, f, n, &opt, want);
            opt.budget = &each;
            char what[300];
            snprintf(what, sizeof what, "%s %s", instances[i], exams[e]);
            for (size_t k = 0; f && want && k < n; k++)
                compare(what, cn, f[k], want[k], &opt, &t);
            free(f);
            free(want);
            mccxml_free(set);
        }
        nc_free_net(net);
    }
    printf("# contest instances: %zu files, %u runs, %u answered by both, %u only by the "
           "engine, %u out of time\n", files, t.cases, t.both, t.dg_only, t.timed_out);
    CHECK(files > 0 && t.both > 0 && t.agree == t.both,
          "contest instances: the engine and the global checker agree on %u of %u answers "
          "(%zu files)", t.agree, t.both, files);
    CHECK(t.missed == 0, "contest instances: the engine answers wherever the global checker "
          "does, but for time (%u misses)", t.missed);
}

/* ---- limits ---- */

static void limits(void)
{
    /* one transition pumps p0: the state space never ends */
    net_t *n = nc_create_net("unbounded", NULL);
    nc_create_place(n, NULL, NULL, 0);
    nc_create_transition(n, NULL, NULL);
    arc(n, NC_ARC_TP, 0, 0);
    const cnet_t *cn = nc_compile(n);
    tree_t *f = tree_unary(T_AG, tree_unary(T_EF, ge(0, 1)));
    check_options opt;
    char why[128];
    for (int k = 0; k < NSTRAT; k++) {
        const char *s = ctl_strategy_name(strategies[k]);
        memset(&opt, 0, sizeof opt);
        budget_t small = unit_budget(0, (size_t)4 << 20), tiny = unit_budget(0, 4096);
        budget_t brief = unit_budget(0.05, 0), whole = unit_budget(0, 0);
        opt.budget = &small;
        why[0] = '\0';
        int v = ctl_depgraph_check(cn, f, &opt, strategies[k], NULL, why, sizeof why);
        CHECK(v == -1 && strstr(why, "memory"), "unbounded net, 4 MiB (%s): -1 (%s)", s, why);
        opt.budget = &tiny;
        why[0] = '\0';
        v = ctl_depgraph_check(cn, f, &opt, strategies[k], NULL, why, sizeof why);
        CHECK(v == -1 && strstr(why, "memory"), "unbounded net, 4 KiB (%s): -1 (%s)", s, why);
        opt.budget = &brief;
        why[0] = '\0';
        v = ctl_depgraph_check(cn, f, &opt, strategies[k], NULL, why, sizeof why);
        CHECK(v == -1 && strstr(why, "time"), "unbounded net, 0.05 s (%s): -1 (%s)", s, why);
        opt.budget = &whole;
        opt.max_states = 1000;
        uint64_t states = 0;
        why[0] = '\0';
        v = ctl_depgraph_check(cn, f, &opt, strategies[k], &states, why, sizeof why);
        CHECK(v == -1 && strstr(why, "state limit") && states <= 1000,
              "unbounded net, -m 1000 (%s): -1 (%s) after %llu states", s, why,
              (unsigned long long)states);
        opt.max_states = 0;
        volatile int stop = 1;
        budget_t stopped;
        budget_init(&stopped, &stop);
        budget_set_limits(&stopped, 0, 0, NULL);
        opt.budget = &stopped;
        why[0] = '\0';
        v = ctl_depgraph_check(cn, f, &opt, strategies[k], NULL, why, sizeof why);
        CHECK(v == -1 && strstr(why, "interrupted"), "unbounded net, interrupted (%s): -1 (%s)",
              s, why);
    }
    /* the local parts still answer on it */
    budget_t whole = unit_budget(0, 0);
    memset(&opt, 0, sizeof opt);
    opt.budget = &whole;
    tree_t *ef = tree_unary(T_EF, ge(0, 50));
    CHECK(ctl_depgraph_check(cn, ef, &opt, CTL_BEST, NULL, why, sizeof why) == 1,
          "unbounded net: EF p0 >= 50 is found");
    tree_t *ltl = tree_unary(T_F, ge(0, 1));
    why[0] = '\0';
    CHECK(ctl_depgraph_check(cn, ltl, &opt, CTL_DFS, NULL, why, sizeof why) == -1 &&
          strstr(why, "CTL"), "F p is refused (%s)", why);
    ctl_strategy st = CTL_DFS;
    int names = 1;
    for (int k = 0; k < NSTRAT; k++)
        names &= ctl_strategy_parse(ctl_strategy_name(strategies[k]), &st) == 0 &&
                 st == strategies[k];
    CHECK(names && ctl_strategy_parse("random", &st) < 0, "strategy names read back");
    tree_free(ltl);
    tree_free(ef);
    tree_free(f);
    nc_free_net(n);
}

int main(void)
{
    known_answers();
    strongly_connected();
    random_differential(400, 8);
    limits();
    const char *shared = getenv("SHARED");
    char probe[1024];
    snprintf(probe, sizeof probe, "%s/mcc/%s/model.pnml", shared ? shared : "", instances[0]);
    if (!shared || access(probe, R_OK) != 0)
        SKIP("contest instances: $SHARED/mcc is not here");
    else
        shared_instances(shared);
    UNIT_DONE();
}
