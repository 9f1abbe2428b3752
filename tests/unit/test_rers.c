/* RERS parallel LTL (docs/rers-format.md in the shared folder) checked
 * against an interpreter of its own (rerssim.h) rather than mck's reader.
 *
 * First the interpreter is tested: a hand-written file with the DOT
 * features of §2.3 the RERS files do not use (and the errors it lists),
 * nondeterministic LTSs and a label with three owners; the figures of
 * rers/README.md for all seven systems; the composed toy system against
 * the table of §7.1; the traces of §7.1 against the answers §7.2 implies;
 * the formula syntax of §4.2; runs that must replay and mutations of them
 * that must not.  Then mck checks every property of the seven systems,
 * with the explicit checker and with the compositional one (compose):
 * its answers must be the published ones (and compose's the explicit
 * checker's), and every counterexample it prints must be a run of the
 * composed system, action by action, whose loop closes and on which the
 * formula is false.  With --finite-runs repeat the toy's answers must
 * change exactly where §7.2 says. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rerssim.h"
#include "runmck.h"
#include "unit.h"

static const char *mck, *top;
static char shared[4096];

/* ---- a hand-written system ---- */

/* DOT beyond the RERS files: comments of three kinds, a strict graph with
 * a quoted name, graph and default attributes, a label with blanks around
 * it, commas and semicolons between attributes, a quoted node that is
 * the same as an unquoted one, nodes used before or without a
 * declaration, an anonymous subgraph, a repeated edge (an LTS's edges are
 * a set).  A has two x-edges from a0 (the run cannot say which), and v
 * swaps a1 and a2; tick has three owners, the example of §3.2 with B's
 * tick a self-loop. */
static const char hand_dot[] =
    "/* hand-written, not RERS data */\n"
    "strict digraph \"hand\" {\n"
    "  rankdir = LR   // a graph attribute\n"
    "  subgraph cluster_A {\n"
    "    node [shape=box]\n"
    "    a0; a1 [shape=circle]; a2\n"
    "    sA -> a0 [label=\"\"];\n"
    "    a0 -> a1 [label=\"x\", color=red];\n"
    "    a0 -> a2 [color=blue; label=\"  x \"];\n"
    "    a1 -> a0 [label=y]\n"
    "    a1 -> a0 [label=\"y\"]\n"
    "    a2 -> a0 [label=\"z\"]\n"
    "    a0 -> a0 [label=\"tick\"]\n"
    "    a1 -> a2 [label=v] a2 -> a1 [label=v]\n"
    "  }\n"
    "  subgraph B {\n"
    "# a comment line\n"
    "    \"b0\" -> b0 [label=\"tick\"];\n"
    "    sB -> b0 [label=\"\"];\n"
    "    b0 -> b1 [label=\"y\"];\n"
    "    b1 -> b0 [label=\"w\"];\n"
    "  }\n"
    "  subgraph {\n"
    "    c0 -> c1 [label=tick];\n"
    "    sC -> c0 [label=\"\"];\n"
    "  }\n"
    "}\n";

#define HAND_INIT "*** initial state: a0, b0, c0 ***\n"

typedef struct bad_dot {
    const char *what, *text;
} bad_dot;

/* §2.3's errors, each in an otherwise valid file */
static const bad_dot bad_dots[] = {
    {"a chain a->b->c",
     "digraph G { subgraph a { s -> x [label=\"\"]; x -> y -> x [label=\"a\"]; } }"},
    {"a nested subgraph",
     "digraph G { subgraph a { s -> x [label=\"\"]; subgraph b { t -> y [label=\"\"]; } } }"},
    {"a node outside every subgraph",
     "digraph G { n; subgraph a { s -> x [label=\"\"]; x -> x [label=\"a\"]; } }"},
    {"an edge outside every subgraph",
     "digraph G { subgraph a { s -> x [label=\"\"]; } x -> x [label=\"a\"]; }"},
    {"two start edges",
     "digraph G { subgraph a { s -> x [label=\"\"]; t -> x [label=\"\"]; x -> x [label=\"a\"]; } }"},
    {"no start edge", "digraph G { subgraph a { x -> x [label=\"a\"]; } }"},
    {"a start source with another edge",
     "digraph G { subgraph a { s -> x [label=\"\"]; x -> s [label=\"a\"]; } }"},
    {"a node in two subgraphs",
     "digraph G { subgraph a { s -> x [label=\"\"]; } subgraph b { t -> x [label=\"\"]; } }"},
    {"an edge without a label",
     "digraph G { subgraph a { s -> x [label=\"\"]; x -> x [color=black]; } }"},
    {"a label that is no name",
     "digraph G { subgraph a { s -> x [label=\"\"]; x -> x [label=\"a-b\"]; } }"},
    {"a file without subgraphs", "digraph G { }"},
    {"an undirected edge", "digraph G { subgraph a { s -> x [label=\"\"]; x -- x; } }"},
    {"a graph, not a digraph", "graph G { subgraph a { s -> x [label=\"\"]; } }"},
};

static rerssim *parse(const char *text, const char *what)
{
    char err[512];
    rerssim *m = rerssim_parse(text, err, sizeof err);
    CHECK(m != NULL, "rerssim parses %s%s%s", what, m ? "" : ": ", m ? "" : err);
    return m;
}

static rs_f *formula(const rerssim *m, const char *text)
{
    char err[300];
    rs_f *f = rerssim_formula(m, text, err, sizeof err);
    if (!f)
        fprintf(stderr, "formula %s: %s\n", text, err);
    return f;
}

static int replay_ok(const rerssim *m, const char *ftext, const char *run, int flags,
                     const char *what, rerssim_run *r)
{
    char err[600] = "";
    rs_f *f = ftext ? formula(m, ftext) : NULL;
    int rc = ftext && !f ? -1 : rerssim_replay(m, f, run, flags, r, err, sizeof err);
    CHECK(rc == 0, "rerssim accepts %s%s%s", what, rc ? ": " : "", rc ? err : "");
    rerssim_formula_free(f);
    return rc == 0;
}

static void replay_bad(const rerssim *m, const char *ftext, const char *run, int flags,
                       const char *what, const char *why)
{
    char err[600] = "";
    rs_f *f = ftext ? formula(m, ftext) : NULL;
    int rc = ftext && !f ? 0 : rerssim_replay(m, f, run, flags, NULL, err, sizeof err);
    /* the reason must be the intended one, not any failure */
    CHECK(rc != 0 && strstr(err, why), "rerssim rejects %s (%s)", what, rc ? err : "accepted");
    rerssim_formula_free(f);
}

static void bad_mutation(const rerssim *m, const char *ftext, const char *run, const char *old,
                         const char *new, int flags, const char *what, const char *why)
{
    char *s = mutate(run, old, new);
    replay_bad(m, ftext, s, flags, what, why);
    free(s);
}

static void check_hand(void)
{
    rerssim *m = parse(hand_dot, "the hand-written file");
    if (!m)
        return;
    int x = rerssim_label(m, "x"), tick = rerssim_label(m, "tick"), y = rerssim_label(m, "y");
    CHECK(m->nlts == 3 && !strcmp(m->lts[0].name, "cluster_A") && !strcmp(m->lts[1].name, "B") &&
              !strcmp(m->lts[2].name, ""),
          "rerssim: three LTSs in file order, any subgraph name");
    CHECK(m->nnodes == 10 && m->lts[0].nstates + m->lts[1].nstates + m->lts[2].nstates == 7 &&
              m->nedges == 11 && m->nlabels == 6,
          "rerssim: 10 nodes, 7 states, 11 labelled edges (the repeated one once), 6 labels");
    CHECK(x >= 0 && tick >= 0 && y >= 0 && m->nowners[x] == 1 && m->nowners[tick] == 3 &&
              m->nowners[y] == 2 && rerssim_label(m, "  x ") < 0,
          "rerssim: owners by alphabet (x: 1, y: 2, tick: 3), labels trimmed");
    char name[200];
    rerssim_state_name(m, rerssim_initial(m), name, sizeof name);
    CHECK(!strcmp(name, "(a0,b0,c0)"), "rerssim: the start states are the start edges' targets (%s)",
          name);
    rerssim_stats st;
    int rc = rerssim_explore(m, 1000, &st, NULL, NULL);
    /* by hand: A and B in {a0,a1,a2} x {b0,b1} (6 pairs) with C in c0
     * or c1 (tick once); 11 + 10 transitions without v, and v in the 8
     * states where A is in a1 or a2 */
    CHECK(rc == 0 && st.states == 12 && st.transitions == 29 && st.deadlocks == 0 &&
              st.never_fired == 0,
          "rerssim: the hand-written system has 12 states, 29 transitions, no deadlock (got %ld, %ld, %ld)",
          st.states, st.transitions, st.deadlocks);

    /* the run does not say which x-edge: the replay follows both */
    replay_ok(m, "F y", HAND_INIT "*** loop starts here ***\nx\nz\n*** loop ends here ***\n", 0,
              "a loop x z through the second x-edge", NULL);
    replay_ok(m, "F z", HAND_INIT "*** loop starts here ***\nx\ny\nw\n*** loop ends here ***\n", 0,
              "a loop x y w through the first x-edge", NULL);
    replay_ok(m, "G !tick", HAND_INIT "tick\n*** loop starts here ***\nx\nz\n*** loop ends here ***\n",
              0, "tick moving A and C together, B staying", NULL);
    replay_bad(m, NULL, HAND_INIT "tick\ntick\n*** loop starts here ***\nx\nz\n*** loop ends here ***\n",
               0, "tick twice (C has left c0)", "not possible");
    replay_bad(m, NULL, HAND_INIT "x\nx\n*** loop starts here ***\nz\n*** loop ends here ***\n", 0,
               "x twice", "not possible");
    /* after x the run is in a1 or a2 and v swaps them: the set maps onto
     * itself, but no state returns to itself after one v */
    replay_bad(m, NULL, HAND_INIT "x\n*** loop starts here ***\nv\n*** loop ends here ***\n", 0,
               "a loop v that only closes as a set of states", "does not return");
    replay_ok(m, "F y", HAND_INIT "x\n*** loop starts here ***\nv\nv\n*** loop ends here ***\n", 0,
              "the loop v v", NULL);
    replay_bad(m, "F v", HAND_INIT "x\n*** loop starts here ***\nv\nv\n*** loop ends here ***\n", 0,
               "the loop v v as a counterexample of F v", "formula holds");
    rerssim_free(m);

    for (size_t i = 0; i < sizeof bad_dots / sizeof *bad_dots; i++) {
        char err[512] = "";
        rerssim *b = rerssim_parse(bad_dots[i].text, err, sizeof err);
        CHECK(!b && err[0], "rerssim rejects %s (%s)", bad_dots[i].what, b ? "accepted" : err);
        rerssim_free(b);
    }
    m = parse("digraph G { subgraph a { s -> x [label=\"\"]; x -> x [label=\"a\"]; } }",
              "the smallest system");
    rerssim_free(m);
}

/* ---- the figures of rers/README.md ---- */

typedef struct sysinfo {
    const char *name, *dot, *props;
    int nlts, nodes, states, edges, labels, shared;
    long cstates, ctrans, deadlocks;
    int never, nprops, hold;
} sysinfo;

static const sysinfo systems[] = {
    {"toy", "handmade/toy.dot", "handmade/toy-properties-with-solution.txt",
     3, 10, 7, 7, 5, 2, 12, 19, 1, 0, 10, 6},
    {"problem101", "rers2016/problem101.dot", "rers2016/problem101-properties-with-solution.txt",
     1, 10, 9, 10, 10, 0, 9, 10, 0, 0, 20, 12},
    {"problem102", "rers2016/problem102.dot", "rers2016/problem102-properties-with-solution.txt",
     2, 19, 17, 20, 19, 1, 72, 154, 0, 0, 20, 14},
    {"problem103", "rers2016/problem103.dot", "rers2016/problem103-properties-with-solution.txt",
     3, 32, 29, 35, 31, 4, 804, 2252, 6, 0, 20, 8},
    {"problem104", "rers2016/problem104.dot", "rers2016/problem104-properties-with-solution.txt",
     4, 43, 39, 48, 41, 7, 5426, 19254, 7, 0, 20, 11},
    {"problem105", "rers2016/problem105.dot", "rers2016/problem105-properties-with-solution.txt",
     5, 60, 55, 68, 59, 9, 111510, 499040, 8, 0, 20, 9},
    {"problem106", "rers2016/problem106.dot", "rers2016/problem106-properties-with-solution.txt",
     6, 69, 63, 80, 69, 11, 120960, 649696, 0, 15, 20, 9},
};
#define NSYS (sizeof systems / sizeof *systems)

static void path_of(char *buf, size_t n, const char *rel)
{
    snprintf(buf, n, "%s/rers/%s", shared, rel);
}

static rerssim *load_system(const sysinfo *S, rerssim_props *ps)
{
    char path[4600], err[600];
    path_of(path, sizeof path, S->dot);
    rerssim *m = rerssim_load(path, err, sizeof err);
    CHECK(m != NULL, "rerssim reads %s%s%s", S->dot, m ? "" : ": ", m ? "" : err);
    if (!m)
        return NULL;
    path_of(path, sizeof path, S->props);
    int rc = rerssim_props_load(m, path, ps, err, sizeof err);
    CHECK(rc == 0, "rerssim reads %s%s%s", S->props, rc ? ": " : "", rc ? err : "");
    if (rc) {
        rerssim_free(m);
        return NULL;
    }
    return m;
}

static void check_figures(void)
{
    char csvpath[4600];
    path_of(csvpath, sizeof csvpath, "solutions.csv");
    char *csv = rs_slurp(csvpath);
    for (size_t i = 0; i < NSYS; i++) {
        const sysinfo *S = &systems[i];
        rerssim_props ps;
        rerssim *m = load_system(S, &ps);
        if (!m)
            continue;
        int states = 0, shared_labels = 0;
        for (int k = 0; k < m->nlts; k++)
            states += m->lts[k].nstates;
        for (int l = 0; l < m->nlabels; l++)
            shared_labels += m->nowners[l] > 1;
        CHECK(m->nlts == S->nlts && m->nnodes == S->nodes && states == S->states &&
                  m->nedges == S->edges && m->nlabels == S->labels && shared_labels == S->shared,
              "rerssim: %s has %d LTSs, %d nodes, %d states, %d + %d edges, %d labels, %d shared "
              "(got %d, %d, %d, %d, %d, %d)",
              S->name, S->nlts, S->nodes, S->states, S->edges, S->nlts, S->labels, S->shared,
              m->nlts, m->nnodes, states, m->nedges, m->nlabels, shared_labels);
        rerssim_stats st;
        int rc = rerssim_explore(m, 1000000, &st, NULL, NULL);
        CHECK(rc == 0 && st.states == S->cstates && st.transitions == S->ctrans &&
                  st.deadlocks == S->deadlocks && st.never_fired == S->never,
              "rerssim: %s composes to %ld states, %ld transitions, %ld deadlocks, %d never-firing "
              "labels (got %ld, %ld, %ld, %d)",
              S->name, S->cstates, S->ctrans, S->deadlocks, S->never, st.states, st.transitions,
              st.deadlocks, st.never_fired);
        int hold = 0, numbered = 1;
        for (size_t p = 0; p < ps.n; p++) {
            hold += ps.p[p].expected == 1;
            numbered &= ps.p[p].num == (int)p + 1 && ps.p[p].expected >= 0;
        }
        CHECK((int)ps.n == S->nprops && hold == S->hold && numbered,
              "rerssim: %s has properties #1..#%d, each with an answer, %d of them true (got %zu, %d)",
              S->name, S->nprops, S->hold, ps.n, hold);
        if (strncmp(S->name, "problem", 7)) {
            rerssim_props_free(&ps);
            rerssim_free(m);
            continue;
        }
        /* solutions.csv repeats the answers: a second reading of them */
        int same = csv != NULL;
        for (size_t p = 0; p < ps.n && same; p++) {
            char row[100];
            snprintf(row, sizeof row, "\n%s,%d,%s\n", S->name, ps.p[p].num,
                     ps.p[p].expected ? "true" : "false");
            same = strstr(csv, row) != NULL;
        }
        CHECK(same, "rerssim: %s's answers are those of solutions.csv", S->name);
        rerssim_props_free(&ps);
        rerssim_free(m);
    }
    free(csv);
}

/* ---- the toy system of §7 ---- */

/* §7.1's table: each reachable state with its successors */
static const char *const toy_table[][2] = {
    {"(1,4,7)", "put (2,5,7)"},
    {"(2,5,7)", "work (1,5,7); get (2,4,8)"},
    {"(1,5,7)", "get (1,4,8)"},
    {"(2,4,8)", "work (1,4,8); use (2,4,7); stop (2,4,9)"},
    {"(1,4,8)", "put (2,5,8); use (1,4,7); stop (1,4,9)"},
    {"(2,4,7)", "work (1,4,7)"},
    {"(2,5,8)", "work (1,5,8); use (2,5,7); stop (2,5,9)"},
    {"(1,5,8)", "use (1,5,7); stop (1,5,9)"},
    {"(2,4,9)", "work (1,4,9)"},
    {"(1,4,9)", "put (2,5,9)"},
    {"(2,5,9)", "work (1,5,9)"},
    {"(1,5,9)", ""},
};
#define NTOY (sizeof toy_table / sizeof *toy_table)

typedef struct toy_visit {
    char rows[NTOY][300];      /* successors found, sorted, per table row */
    int found[NTOY];
    int unknown;               /* reachable states the table lacks */
    char succ[16][64];
    int nsucc;
} toy_visit;

static int cmp_str(const void *a, const void *b)
{
    return strcmp(a, b);
}

typedef struct succ_ctx {
    const rerssim *m;
    toy_visit *v;
} succ_ctx;

static int collect_succ(void *ctx, int label, const int *to)
{
    succ_ctx *c = ctx;
    char name[32];
    rerssim_state_name(c->m, to, name, sizeof name);
    if (c->v->nsucc < 16)
        snprintf(c->v->succ[c->v->nsucc++], sizeof c->v->succ[0], "%.20s %s", c->m->labels[label],
                 name);
    return 0;
}

/* "a; b; c" with its items sorted */
static void sorted_list(char (*items)[64], int n, char *out, size_t size)
{
    qsort(items, (size_t)n, sizeof *items, cmp_str);
    out[0] = '\0';
    for (int i = 0; i < n; i++)
        snprintf(out + strlen(out), size - strlen(out), "%s%s", i ? "; " : "", items[i]);
}

static void toy_visit_state(const rerssim *m, const int *g, void *ctx)
{
    toy_visit *v = ctx;
    char name[64];
    rerssim_state_name(m, g, name, sizeof name);
    size_t row = 0;
    while (row < NTOY && strcmp(toy_table[row][0], name))
        row++;
    if (row == NTOY) {
        v->unknown++;
        return;
    }
    v->nsucc = 0;
    succ_ctx c = {m, v};
    rerssim_successors(m, g, -1, collect_succ, &c);
    sorted_list(v->succ, v->nsucc, v->rows[row], sizeof v->rows[row]);
    v->found[row]++;
}

static void check_toy_table(const rerssim *m)
{
    static toy_visit v;
    rerssim_stats st;
    memset(&v, 0, sizeof v);
    rerssim_explore(m, 1000, &st, toy_visit_state, &v);
    CHECK(st.states == 12 && st.transitions == 19 && st.deadlocks == 1 && !v.unknown,
          "rerssim: toy has the 12 states and 19 transitions of §7.1 (got %ld, %ld, %d not in the table)",
          st.states, st.transitions, v.unknown);
    for (size_t r = 0; r < NTOY; r++) {
        char doc[16][64], want[300];
        int n = 0;
        for (const char *p = toy_table[r][1]; *p && n < 16;) {
            size_t k = strcspn(p, ";");
            snprintf(doc[n++], sizeof doc[0], "%.*s", (int)k, p);
            p += k;
            p += strspn(p, "; ");
        }
        sorted_list(doc, n, want, sizeof want);
        CHECK(v.found[r] == 1 && !strcmp(v.rows[r], want),
              "rerssim: toy %s: %s (§7.1; got %s)", toy_table[r][0], n ? toy_table[r][1] : "deadlock",
              v.found[r] ? (v.rows[r][0] ? v.rows[r] : "deadlock") : "unreachable");
    }
}

/* positions of a lasso from label names, "-" for no action */
static size_t word_of(const rerssim *m, const char *const *names, int *w)
{
    size_t n = 0;
    for (; names[n]; n++)
        w[n] = strcmp(names[n], "-") ? rerssim_label(m, names[n]) : -1;
    return n;
}

static void check_toy_traces(const rerssim *m, const rerssim_props *ps)
{
    static const char *const t1[] = {"put", "work", "get", "use", NULL};
    static const char *const t2[] = {"put", "get", "work", "put", "use", "get", "work", NULL};
    static const char *const fin[] = {"put", "get", "stop", "work", "put", "work", "-", NULL};
    /* §7.2: the six true properties hold on both traces; T1 violates 2,
     * 6 and 9, T2 also 7 (its put at position 3).  The finite trace with
     * its dead state repeating violates 1, 3, 4 and 10 (§7.2's last
     * paragraph), and 7 and 9 by its last put. */
    static const char want_t1[] = "1011101101", want_t2[] = "1011100101", want_fin[] = "0100110100";
    struct {
        const char *name;
        const char *const *w;
        size_t loop;
        const char *want;
    } traces[] = {
        {"T1 = (put work get use)^w", t1, 0, want_t1},
        {"T2 = put get work (put use get work)^w", t2, 3, want_t2},
        {"put get stop work put work with the dead state repeating", fin, 6, want_fin},
    };
    for (size_t t = 0; t < 3; t++) {
        int w[16];
        size_t n = word_of(m, traces[t].w, w);
        char got[16] = "";
        for (size_t p = 0; p < ps->n && p < 10; p++) {
            int v = rerssim_eval(ps->p[p].f, w, n, traces[t].loop);
            got[p] = v == 1 ? '1' : v == 0 ? '0' : '?';
        }
        CHECK(ps->n == 10 && !strcmp(got, traces[t].want),
              "rerssim: toy properties 1-10 on %s are %s (got %s)", traces[t].name, traces[t].want, got);
    }
}

/* Whether a and b agree on every lasso of up to 3 positions over put,
 * work, get and no action (228 lassos). */
static int equivalent(const rerssim *m, const char *a, const char *b)
{
    rs_f *f = formula(m, a), *g = formula(m, b);
    int alph[4] = {rerssim_label(m, "put"), rerssim_label(m, "work"), rerssim_label(m, "get"), -1};
    int same = f && g;
    for (size_t n = 1; n <= 3 && same; n++)
        for (int code = 0; code < (1 << (2 * n)) && same; code++) {
            int w[3];
            for (size_t i = 0; i < n; i++)
                w[i] = alph[(code >> (2 * i)) & 3];
            for (size_t loop = 0; loop < n && same; loop++)
                same = rerssim_eval(f, w, n, loop) == rerssim_eval(g, w, n, loop);
        }
    rerssim_formula_free(f);
    rerssim_formula_free(g);
    return same;
}

static void check_formulas(const rerssim *m)
{
    static const char *const same[][2] = {
        /* precedence and associativity of §4.2 */
        {"put U work U get", "put U (work U get)"},
        {"put W work W get", "put W (work W get)"},
        {"!put & work | get", "((!put) & work) | get"},
        {"put | work & get", "put | (work & get)"},
        {"put => work => get", "put => (work => get)"},
        {"put & work => get | work", "(put & work) => (get | work)"},
        {"put U work & get", "(put U work) & get"},
        {"!put U work", "(!put) U work"},
        {"G F put", "G(F(put))"},
        {"put <-> work => get", "put <-> (work => get)"},
        /* the other spellings mck accepts */
        {"put -> work", "put => work"},
        {"put && work || get", "(put & work) | get"},
        {"[]<>put", "G F put"},
        {"\"put\" U get", "put U get"},
        /* §4.3's definitions and the action reading */
        {"put W work", "(put U work) | G put"},
        {"F put", "true U put"},
        {"G put", "!F!put"},
        {"put R work", "!(!put U !work)"},
        {"X !put", "!X put"},
        {"put <-> work", "(put => work) & (work => put)"},
        {"put & work", "false"},
        {"!true", "false"},
        {"( ((put => (!work U get)) W (work | get)) )", "((put => (!work U get)) W (work | get))"},
    };
    for (size_t i = 0; i < sizeof same / sizeof *same; i++)
        CHECK(equivalent(m, same[i][0], same[i][1]), "rerssim: %s is %s on every short lasso",
              same[i][0], same[i][1]);
    /* and the enumeration can tell formulas apart */
    CHECK(!equivalent(m, "(put U work) U get", "put U (work U get)") &&
              !equivalent(m, "put U work", "put W work") && !equivalent(m, "X put", "put"),
          "rerssim: U's grouping, U against W, X against none differ on some short lasso");
    static const char *const bad[] = {"foo", "(put", "put U", "X", "put work", "put & ", "U put",
                                      "\"put", "put )"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char err[300] = "";
        rs_f *f = rerssim_formula(m, bad[i], err, sizeof err);
        CHECK(!f && err[0], "rerssim rejects the formula '%s' (%s)", bad[i], f ? "accepted" : err);
        rerssim_formula_free(f);
    }
}

#define TOY_INIT "*** initial state: s1, s4, s7 ***\n"
static const char toy_t1[] =
    TOY_INIT "*** loop starts here ***\nput\nwork\nget\nuse\n*** loop ends here ***\n";
static const char toy_t2[] =
    TOY_INIT "put\nget\nwork\n*** loop starts here ***\nput\nuse\nget\nwork\n*** loop ends here ***\n";
static const char toy_fin[] =
    TOY_INIT "put\nget\nstop\nwork\nput\nwork\n*** final state: s1, s5, s9 ***\n"
             "*** run ends in a deadlock ***\n";

static void check_toy_replays(const rerssim *m)
{
    rerssim_run r;
    if (replay_ok(m, "( F(stop) )", toy_t1, 0, "T1 as a counterexample of toy #2", &r)) {
        CHECK(r.kind == RERSSIM_LASSO && r.loop == 0 && r.n == 4 && r.state_lines == 1,
              "rerssim: T1 is a loop of 4 from the start, its state line names (1,4,7)");
        rerssim_run_free(&r);
    }
    replay_ok(m, "( G((put => X(get))) )", toy_t1, 0, "T1 as a counterexample of toy #9", NULL);
    replay_ok(m, "( G((put => (!use U get))) )", toy_t2, 0, "T2 as a counterexample of toy #7", NULL);
    replay_bad(m, "( G(!stop) )", toy_t1, 0, "T1 as a counterexample of toy #1", "formula holds");
    replay_bad(m, "( G((put => (!use U get))) )", toy_t1, 0, "T1 as a counterexample of toy #7",
               "formula holds");
    {
        /* as mck frames it, up to the next property */
        char *framed = mutate(toy_t2, TOY_INIT, "Property #7: Result: NO.\nCounterexample:\n" TOY_INIT);
        size_t k = strlen(framed);
        char *s = malloc(k + 200);
        if (s) {
            snprintf(s, k + 200, "%sTime needed: 0.00 seconds\nExpected: NO (agrees)\n"
                                 "Property #8: Result: YES.\nwork\n", framed);
            replay_ok(m, "( G((put => (!use U get))) )", s, 0, "T2 framed by mck's other lines", NULL);
        }
        free(s);
        free(framed);
    }
    char *wrong = mutate(toy_t1, "s1, s4, s7", "s2, s4, s7");
    if (replay_ok(m, NULL, wrong, 0, "T1 with a wrong initial state line", &r)) {
        CHECK(r.state_lines == 0, "rerssim: notes that the initial state line is not (1,4,7) (%s)",
              r.state_err);
        rerssim_run_free(&r);
    }
    free(wrong);
    bad_mutation(m, NULL, toy_t1, "put\n", "work\n", 0, "T1 starting with work", "not possible");
    bad_mutation(m, NULL, toy_t1, "get\n", "use\n", 0, "T1 with use where C is in 7", "not possible");
    bad_mutation(m, NULL, toy_t1, "use\n", "stop\n", 0, "T1 with stop: a loop that does not close",
                 "does not return");
    bad_mutation(m, NULL, toy_t2, "*** loop starts here ***\nput\n", "put\n*** loop starts here ***\n",
                 0, "T2 with its loop shifted by one action", "does not return");
    bad_mutation(m, NULL, toy_t1, "get\n", "fetch\n", 0, "T1 with an unknown action", "not an action");
    bad_mutation(m, NULL, toy_t1, "*** loop ends here ***\n", "", 0, "T1 without its loop end",
                 "no end");
    bad_mutation(m, NULL, toy_t1, "put\nwork\nget\nuse\n", "", 0, "an empty loop", "without actions");
    bad_mutation(m, NULL, toy_t1, "*** loop starts here ***\n", "", 0, "a loop end without a start",
                 "without a loop start");
    replay_bad(m, NULL, TOY_INIT "put\nwork\n", 0, "a run with neither loop nor deadlock",
               "neither a loop");
    replay_bad(m, "( G(!stop) )", toy_fin, 0, "the finite trace of §7.1 in RERS mode", "finite trace");
    if (replay_ok(m, "( G(!stop) )", toy_fin, RERSSIM_REPEAT,
                  "the finite trace of §7.1, the dead state repeating, against toy #1", &r)) {
        CHECK(r.kind == RERSSIM_DEADLOCK && r.n == 7 && r.loop == 6 && r.word[6] == -1 &&
                  r.state_lines == 1,
              "rerssim: it is 6 actions and then no action forever, state lines (1,4,7), (1,5,9)");
        rerssim_run_free(&r);
    }
    replay_bad(m, "( F(stop) )", toy_fin, RERSSIM_REPEAT,
               "the repeating finite trace against toy #2", "formula holds");
    bad_mutation(m, NULL, toy_fin, "work\nput\nwork\n*** final state: s1, s5, s9 ***",
                 "*** final state: s2, s4, s9 ***", RERSSIM_REPEAT,
                 "a deadlock claimed in (2,4,9)", "not end in a deadlock");
    bad_mutation(m, NULL, toy_fin, "*** run ends in a deadlock ***\n", "", RERSSIM_REPEAT,
                 "a final state without the deadlock line", "without a deadlock");
}

static void check_toy(void)
{
    rerssim_props ps;
    rerssim *m = load_system(&systems[0], &ps);
    if (!m)
        return;
    check_toy_table(m);
    check_toy_traces(m, &ps);
    check_formulas(m);
    check_toy_replays(m);
    rerssim_props_free(&ps);
    rerssim_free(m);
}

/* ---- mck ---- */

static void run_mck(outcome *o, const char *args)
{
    run_mck_in(o, top, mck, args, 1800);
}

#define MAXPROPS 64

/* One "Property #N: ..." block of mck's output. */
typedef struct block {
    int seen;            /* how many blocks for #N */
    int answer;          /* 1 YES, 0 NO, -1 anything else */
    const char *text;    /* from the Property line on */
    size_t len;
    int has_cex;
    char expected[80];   /* after "Expected: " */
} block;

/* Splits out into blocks by property number, each up to the next
 * "Property" line; of the lines after the last block only the summary
 * is kept. */
static void blocks_of(const char *out, block *b, char *summary, size_t n)
{
    memset(b, 0, MAXPROPS * sizeof *b);
    summary[0] = '\0';
    block *cur = NULL;
    for (const char *p = out; *p;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        int num;
        if (!strncmp(p, "Property #", 10) && sscanf(p, "Property #%d:", &num) == 1) {
            cur = num >= 1 && num < MAXPROPS ? &b[num] : NULL;
            if (cur) {
                cur->seen++;
                cur->text = p;
                const char *r = memchr(p, ':', len);
                r = r ? r + 1 : p + len;
                size_t rest = len - (size_t)(r - p);
                cur->answer = rest == 13 && !strncmp(r, " Result: YES.", 13) ? 1
                            : rest == 12 && !strncmp(r, " Result: NO.", 12) ? 0 : -1;
            }
        } else if (!strncmp(p, "Properties:", 11)) {
            cur = NULL;
            snprintf(summary, n, "%.*s", (int)len, p);
        } else if (cur && len == 15 && !strncmp(p, "Counterexample:", 15)) {
            cur->has_cex = 1;
        } else if (cur && !strncmp(p, "Expected: ", 10)) {
            snprintf(cur->expected, sizeof cur->expected, "%.*s", (int)len - 10, p + 10);
        }
        if (cur)
            cur->len = (size_t)(p + len - cur->text);
        p = e ? e + 1 : p + len;
    }
}

static double total_time_needed(const char *out)
{
    const char *last = NULL;
    for (const char *p = out; (p = strstr(p, "\nTime needed: ")); p++)
        last = p;
    double t = -1;
    if (last)
        sscanf(last, "\nTime needed: %lf", &t);
    return t;
}

/* The answers of the last run of check_mck_system by property number
 * (1 YES, 0 NO, -1 none), for comparing two checkers' answers. */
static int last_answers[MAXPROPS];

/* mck's checker on one system; repeat: with --finite-runs repeat (toy
 * only).  Every checker's answers must be the published ones, and its
 * counterexamples replay on the system itself (rerssim), not on the net
 * it searched. */
static void check_mck_system(const sysinfo *S, const char *checker, int repeat, double *wall)
{
    rerssim_props ps;
    rerssim *m = load_system(S, &ps);
    if (!m)
        return;
    char name[200], args[10000], dot[4600], props[4600];
    snprintf(name, sizeof name, "mck %s on %s%s", checker, S->name,
             repeat ? " with --finite-runs repeat" : "");
    path_of(dot, sizeof dot, S->dot);
    path_of(props, sizeof props, S->props);
    snprintf(args, sizeof args, "check -v %srers:%s-ltl '%s' '%s'",
             repeat ? "--finite-runs repeat " : "", checker, dot, props);
    outcome o;
    run_mck(&o, args);
    if (wall)
        *wall += o.secs;
    printf("# %s: %zu properties, %.2f s wall clock, mck's Time needed %.2f s\n", name, ps.n, o.secs,
           total_time_needed(o.out));

    /* §7.2: repeating the dead state makes exactly these four false */
    int changes[MAXPROPS] = {0};
    if (repeat)
        changes[1] = changes[3] = changes[4] = changes[10] = 1;
    size_t differ = 0;
    for (size_t i = 0; i < ps.n; i++)
        differ += ps.p[i].num > 0 && ps.p[i].num < MAXPROPS && changes[ps.p[i].num];
    int status_ok = o.status == (differ ? 1 : 0);
    CHECK(status_ok, "%s: exit status %d (got %d%s%s)", name, differ ? 1 : 0, o.status,
          !status_ok && o.err[0] ? "; stderr: " : "", status_ok ? "" : o.err);

    static block b[MAXPROPS];
    char summary[300];
    blocks_of(o.out, b, summary, sizeof summary);
    for (int k = 0; k < MAXPROPS; k++)
        last_answers[k] = b[k].seen == 1 ? b[k].answer : -1;
    int lines_ok = 1, once = 1, expected_ok = 1, yes_without = 1, nruns = 0;
    char lines_err[300] = "", shape[300] = "";
    for (size_t i = 0; i < ps.n; i++) {
        const rerssim_prop *P = &ps.p[i];
        if (P->num < 1 || P->num >= MAXPROPS)
            continue;
        block *B = &b[P->num];
        int published = P->expected == 1, want = changes[P->num] ? !published : published;
        if (B->seen != 1 && once) {
            once = 0;
            snprintf(shape, sizeof shape, "#%d printed %d times", P->num, B->seen);
        }
        CHECK(B->seen && B->answer == want, "%s: #%d is %s%s (got %s)", name, P->num,
              want ? "YES" : "NO",
              changes[P->num] ? ", not the published answer (§7.2)" : " as published",
              !B->seen ? "nothing" : B->answer == 1 ? "YES" : B->answer == 0 ? "NO" : "neither");
        if (!B->seen)
            continue;
        char ex[80];
        snprintf(ex, sizeof ex, "%s (%s)", published ? "YES" : "NO",
                 (B->answer == 1) == published ? "agrees" : "DISAGREES");
        if (strcmp(B->expected, ex) && expected_ok) {
            expected_ok = 0;
            snprintf(shape + strlen(shape), sizeof shape - strlen(shape),
                     "%s#%d: \"Expected: %s\", not \"Expected: %s\"", shape[0] ? "; " : "", P->num,
                     B->expected, ex);
        }
        if (B->answer == 1 && B->has_cex)
            yes_without = 0;
        if (B->answer != 0)
            continue;
        /* every counterexample printed, whatever the expected answer */
        char err[800] = "";
        rerssim_run r;
        char *text = rs_strndup(B->text, B->len);
        int rc = text ? rerssim_replay(m, P->f, text, repeat ? RERSSIM_REPEAT : 0, &r, err, sizeof err)
                      : -1;
        nruns++;
        CHECK(B->has_cex && rc == 0,
              "%s: #%d's counterexample is a %s of the system on which %s is false%s%s%s", name, P->num,
              repeat ? "lasso or deadlocking run" : "lasso", P->text, B->has_cex ? "" : ": none printed",
              rc && B->has_cex ? ": " : "", rc && B->has_cex ? err : "");
        if (rc == 0) {
            if (changes[P->num])
                CHECK(r.kind == RERSSIM_DEADLOCK,
                      "%s: #%d's counterexample ends in a deadlock (no infinite trace violates it)",
                      name, P->num);
            if (r.state_lines != 1 && lines_ok) {
                lines_ok = 0;
                snprintf(lines_err, sizeof lines_err, "#%d: %s", P->num, r.state_err);
            }
            rerssim_run_free(&r);
        }
        if (rc && text)
            fprintf(stderr, "%s: #%d: %s\n%s\n", name, P->num, err, text);
        free(text);
    }
    for (int k = 1; k < MAXPROPS && once; k++)
        if (b[k].seen) {
            int known = 0;
            for (size_t i = 0; i < ps.n; i++)
                known |= ps.p[i].num == k;
            if (!known) {
                once = 0;
                snprintf(shape, sizeof shape, "#%d is not in the property file", k);
            }
        }
    CHECK(once && expected_ok && yes_without,
          "%s: each property once, with its Expected line, no counterexample after YES%s%s", name,
          shape[0] ? ": " : "", shape);
    if (nruns)
        CHECK(lines_ok, "%s: the initial and final state lines name the LTS states of the run%s%s",
              name, lines_ok ? "" : ": ", lines_err);
    char want[300];
    snprintf(want, sizeof want,
             "Properties: %zu checked, 0 unknown; of %zu with an expected answer, %zu agree, %zu disagree",
             ps.n, ps.n, ps.n - differ, differ);
    CHECK(!strcmp(summary, want), "%s: '%s' (got '%s')", name, want, summary);
    if (!status_ok || !summary[0])
        fprintf(stderr, "%s: output:\n%.3000s\n", name, o.out);
    free(o.out);
    rerssim_props_free(&ps);
    rerssim_free(m);
}

int main(void)
{
    const char *t = getenv("TOP"), *k = getenv("MCK"), *s = getenv("SHARED");
    top = t && *t ? t : ".";
    mck = k && *k ? k : "./mck";
    char rel[4096];
    if (s && *s)
        snprintf(rel, sizeof rel, "%s", s);
    else
        snprintf(rel, sizeof rel, "%.4000s/../shared", top);
    /* mck runs in TOP: the data's paths must not depend on the folder */
    if (!realpath(rel, shared))
        snprintf(shared, sizeof shared, "%s", rel);

    check_hand();
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/rers", shared);
    if (access(dir, R_OK) != 0) {
        SKIP("RERS data: %s is absent", dir);
        UNIT_DONE();
    }
    check_figures();
    check_toy();

    if (access(mck, X_OK) != 0) {
        SKIP("mck on the RERS systems: %s is not executable", mck);
        UNIT_DONE();
    }
    static const char *const checkers[] = {"explicit", "stubborn", "compose"};
    double wall[3] = {0, 0, 0};
    for (size_t i = 0; i < NSYS; i++) {
        int is_problem = !strncmp(systems[i].name, "problem", 7);
        int explicit_answers[MAXPROPS];
        for (size_t c = 0; c < 3; c++) {
            check_mck_system(&systems[i], checkers[c], 0, is_problem ? &wall[c] : NULL);
            if (c == 0) {
                memcpy(explicit_answers, last_answers, sizeof explicit_answers);
                continue;
            }
            int first = 0;
            for (int k = 1; k < MAXPROPS && !first; k++)
                if (explicit_answers[k] != last_answers[k])
                    first = k;
            CHECK(!first, "mck %s on %s: every answer the explicit checker's (first difference: "
                  "#%d)", checkers[c], systems[i].name, first);
        }
    }
    printf("# rers2016 problems 101-106: 120 properties, %.2f / %.2f / %.2f s wall clock in mck "
           "explicit / stubborn / compose\n", wall[0], wall[1], wall[2]);
    for (size_t c = 0; c < 3; c++)
        check_mck_system(&systems[0], checkers[c], 1, NULL);
    UNIT_DONE();
}
