/* `mck mcc` end to end on hand-made nets: each test writes an instance
 * folder (model.pnml, property files), runs mcc_main with stdout captured,
 * and compares the answer lines with values worked out by hand.  Also the
 * pieces that small nets do not stress: 128-bit printing, the structural
 * facts, and the bottom-component search on graphs built directly (one of
 * them deep enough to break a recursive search). */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"
#include "engine/graph.h"
#include "mcc/internal.h"
#include "mcc/mcc.h"
#include "mcc/prepass.h"

static char dir[256];

/* ---- instance folders ---- */

typedef struct arc_spec {
    const char *src, *dst;
    const char *weight;   /* NULL: 1 */
} arc_spec;

typedef struct net_spec {
    const char *places[8];
    const char *marking[8];   /* NULL: 0 */
    const char *transitions[8];
    arc_spec arcs[16];
} net_spec;

static void write_file(const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static void write_net(const net_spec *n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/model.pnml", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    fprintf(f, "<?xml version=\"1.0\"?>\n<pnml xmlns=\"http://www.pnml.org/version-2009/grammar/pnml\">\n"
               "<net id=\"N\" type=\"http://www.pnml.org/version-2009/grammar/ptnet\"><page id=\"pg\">\n");
    for (int i = 0; i < 8 && n->places[i]; i++) {
        fprintf(f, "<place id=\"%s\">", n->places[i]);
        if (n->marking[i])
            fprintf(f, "<initialMarking><text>%s</text></initialMarking>", n->marking[i]);
        fprintf(f, "</place>\n");
    }
    for (int i = 0; i < 8 && n->transitions[i]; i++)
        fprintf(f, "<transition id=\"%s\"/>\n", n->transitions[i]);
    for (int i = 0; i < 16 && n->arcs[i].src; i++) {
        fprintf(f, "<arc id=\"a%d\" source=\"%s\" target=\"%s\">", i, n->arcs[i].src, n->arcs[i].dst);
        if (n->arcs[i].weight)
            fprintf(f, "<inscription><text>%s</text></inscription>", n->arcs[i].weight);
        fprintf(f, "</arc>\n");
    }
    fprintf(f, "</page></net></pnml>\n");
    fclose(f);
    write_file("iscolored", "FALSE\n");
}

/* One property per formula text (the inside of <formula>). */
static void write_props(const char *exam, const char *const *formulas)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s.xml", dir, exam);
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    fprintf(f, "<?xml version=\"1.0\"?>\n<property-set xmlns=\"http://mcc.lip6.fr/\">\n");
    for (int i = 0; formulas[i]; i++)
        fprintf(f, "<property><id>N-%s-%02d</id><description>x</description>"
                   "<formula>%s</formula></property>\n", exam, i, formulas[i]);
    fprintf(f, "</property-set>\n");
    fclose(f);
}

/* ---- running ---- */

static char out[16384];

/* Sends stdout to a file until end_capture() reads it into out. */
static int saved_stdout;

static void begin_capture(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/stdout", dir);
    fflush(stdout);
    saved_stdout = dup(1);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(fd, 1);
    close(fd);
}

static void end_capture(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/stdout", dir);
    fflush(stdout);
    dup2(saved_stdout, 1);
    close(saved_stdout);
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(out, 1, sizeof out - 1, f) : 0;
    out[n] = '\0';
    if (f)
        fclose(f);
}

/* Runs `mck mcc -j 1 exam dir` and keeps its stdout in out.  One
 * process: these tests name the technique that decides each value, and
 * the portfolio's second one would race for some (tests/e2e/portfolio.sh
 * tests it). */
static int run(const char *exam)
{
    char *argv[] = {"mcc", "-j", "1", (char *)exam, dir, NULL};
    static volatile int never;
    budget_t budget;
    budget_init(&budget, &never);
    begin_capture();
    int rc = mcc_main(5, argv, &budget);
    end_capture();
    return rc;
}

/* Whether out has a line starting with prefix. */
static int has(const char *prefix)
{
    size_t len = strlen(prefix);
    for (const char *l = out; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l))
        if (!strncmp(l, prefix, len))
            return 1;
    return 0;
}

static int count_lines(const char *prefix)
{
    int n = 0;
    size_t len = strlen(prefix);
    for (const char *l = out; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l))
        n += !strncmp(l, prefix, len);
    return n;
}

#define EXPECT(exam, line) CHECK(has(line), "%s: %s", exam, line)

/* ---- nets ---- */

/* Two processes and a lock: three markings, live, safe, no deadlock. */
static const net_spec mutex = {
    {"idle1", "crit1", "idle2", "crit2", "lock"},
    {"1", NULL, "1", NULL, "1"},
    {"enter1", "leave1", "enter2", "leave2"},
    {{"idle1", "enter1", NULL}, {"lock", "enter1", NULL}, {"enter1", "crit1", NULL},
     {"crit1", "leave1", NULL}, {"leave1", "idle1", NULL}, {"leave1", "lock", NULL},
     {"idle2", "enter2", NULL}, {"lock", "enter2", NULL}, {"enter2", "crit2", NULL},
     {"crit2", "leave2", NULL}, {"leave2", "idle2", NULL}, {"leave2", "lock", NULL}},
};

static void test_mutex(void)
{
    write_net(&mutex);
    run("StateSpace");
    EXPECT("mutex", "STATE_SPACE STATES 3 TECHNIQUES SEQUENTIAL_PROCESSING EXPLICIT");
    EXPECT("mutex", "STATE_SPACE TRANSITIONS 4 TECHNIQUES");
    EXPECT("mutex", "STATE_SPACE MAX_TOKEN_IN_PLACE 1 TECHNIQUES");
    EXPECT("mutex", "STATE_SPACE MAX_TOKEN_PER_MARKING 3 TECHNIQUES");
    run("ReachabilityDeadlock");
    EXPECT("mutex", "FORMULA ReachabilityDeadlock FALSE TECHNIQUES");
    run("OneSafe");
    EXPECT("mutex", "FORMULA OneSafe TRUE TECHNIQUES");
    run("QuasiLiveness");
    EXPECT("mutex", "FORMULA QuasiLiveness TRUE TECHNIQUES");
    run("StableMarking");
    EXPECT("mutex", "FORMULA StableMarking FALSE TECHNIQUES");
    run("Liveness");
    EXPECT("mutex", "FORMULA Liveness TRUE TECHNIQUES SEQUENTIAL_PROCESSING EXPLICIT");

    const char *ub[] = {
        "<place-bound><place>crit1</place><place>crit2</place></place-bound>",
        "<place-bound><place>lock</place></place-bound>",
        "<place-bound/>",
        "<place-bound><place>lock</place><place>lock</place></place-bound>",
        NULL};
    write_props("UpperBounds", ub);
    run("UpperBounds");
    EXPECT("mutex", "FORMULA N-UpperBounds-00 1 TECHNIQUES SEQUENTIAL_PROCESSING EXPLICIT");
    EXPECT("mutex", "FORMULA N-UpperBounds-01 1 TECHNIQUES");
    EXPECT("mutex", "FORMULA N-UpperBounds-02 0 TECHNIQUES");
    EXPECT("mutex", "FORMULA N-UpperBounds-03 2 TECHNIQUES");
    CHECK(count_lines("FORMULA ") == 4, "mutex: 4 bounds, each once");

#define TC(p) "<tokens-count><place>" p "</place></tokens-count>"
#define CONST(c) "<integer-constant>" c "</integer-constant>"
#define LE(a, b) "<integer-le>" a b "</integer-le>"
    const char *rc[] = {
        "<exists-path><finally>" LE(CONST("2"), "<tokens-count><place>crit1</place><place>crit2</place></tokens-count>") "</finally></exists-path>",
        "<all-paths><globally>" LE("<tokens-count><place>crit1</place><place>crit2</place><place>lock</place></tokens-count>", CONST("1")) "</globally></all-paths>",
        "<exists-path><finally>" LE(CONST("1"), TC("crit2")) "</finally></exists-path>",
        "<all-paths><globally>" LE(CONST("1"), TC("lock")) "</globally></all-paths>",
        NULL};
    write_props("ReachabilityCardinality", rc);
    run("ReachabilityCardinality");
    EXPECT("mutex", "FORMULA N-ReachabilityCardinality-00 FALSE TECHNIQUES SEQUENTIAL_PROCESSING LINEAR_EQUATIONS");
    EXPECT("mutex", "FORMULA N-ReachabilityCardinality-01 TRUE TECHNIQUES SEQUENTIAL_PROCESSING LINEAR_EQUATIONS");
    EXPECT("mutex", "FORMULA N-ReachabilityCardinality-02 TRUE TECHNIQUES SEQUENTIAL_PROCESSING EXPLICIT");
    EXPECT("mutex", "FORMULA N-ReachabilityCardinality-03 FALSE TECHNIQUES SEQUENTIAL_PROCESSING EXPLICIT");

    const char *rf[] = {
        "<exists-path><finally><is-fireable><transition>leave1</transition></is-fireable></finally></exists-path>",
        "<all-paths><globally><is-fireable><transition>enter1</transition><transition>leave1</transition>"
        "<transition>leave2</transition></is-fireable></globally></all-paths>",
        "<exists-path><finally><is-fireable><transition>enter1</transition></is-fireable></finally></exists-path>",
        "<all-paths><globally><negation><conjunction><is-fireable><transition>leave1</transition></is-fireable>"
        "<is-fireable><transition>leave2</transition></is-fireable></conjunction></negation></globally></all-paths>",
        NULL};
    write_props("ReachabilityFireability", rf);
    run("ReachabilityFireability");
    EXPECT("mutex", "FORMULA N-ReachabilityFireability-00 TRUE TECHNIQUES SEQUENTIAL_PROCESSING EXPLICIT");
    EXPECT("mutex", "FORMULA N-ReachabilityFireability-01 TRUE TECHNIQUES SEQUENTIAL_PROCESSING LINEAR_EQUATIONS");
    EXPECT("mutex", "FORMULA N-ReachabilityFireability-02 TRUE TECHNIQUES SEQUENTIAL_PROCESSING INITIAL_STATE");
    EXPECT("mutex", "FORMULA N-ReachabilityFireability-03 TRUE TECHNIQUES SEQUENTIAL_PROCESSING LINEAR_EQUATIONS");
}

/* p0 -t0-> p1 -t1-> p2 -t2-> p1: no deadlock, every transition fires,
 * but t0 never again once the cycle is entered. */
static const net_spec lasso = {
    {"p0", "p1", "p2"},
    {"1"},
    {"t0", "t1", "t2"},
    {{"p0", "t0", NULL}, {"t0", "p1", NULL}, {"p1", "t1", NULL}, {"t1", "p2", NULL},
     {"p2", "t2", NULL}, {"t2", "p1", NULL}},
};

/* p0 chooses t0 (to p1, a dead end) or t1 (to p2, which cycles). */
static const net_spec choice = {
    {"p0", "p1", "p2"},
    {"1"},
    {"t0", "t1", "t2"},
    {{"p0", "t0", NULL}, {"t0", "p1", NULL}, {"p0", "t1", NULL}, {"t1", "p2", NULL},
     {"p2", "t2", NULL}, {"t2", "p2", NULL}},
};

/* CTL on the choice net, each value from the technique meant for it. */
static void test_ctl(void)
{
#define P(x) LE(CONST("1"), TC(x))
#define E(op, f) "<exists-path><" op ">" f "</" op "></exists-path>"
#define A(op, f) "<all-paths><" op ">" f "</" op "></all-paths>"
    write_net(&choice);
    const char *ctl[] = {
        E("next", P("p1")),                                   /* the local check */
        A("finally", P("p2")),                                /* t0 avoids p2 */
        E("globally", P("p0")),                               /* p0 must be left */
        "<all-paths><until><before>" P("p2") "</before><reach>" P("p0") "</reach></until></all-paths>",
        "<conjunction>" E("finally", P("p1")) E("finally", P("p2")) "</conjunction>", /* local */
        A("globally", LE("<tokens-count><place>p0</place><place>p1</place><place>p2</place></tokens-count>",
                         CONST("1"))),                        /* state equation */
        E("globally", "<negation>" P("p1") "</negation>"),    /* the p2 loop */
        A("globally", E("finally", P("p2"))),                 /* not from p1 */
        /* nested: the state equation makes the inner operand constant */
        E("finally", A("globally", LE("<tokens-count><place>p0</place><place>p1</place>"
                                      "<place>p2</place></tokens-count>", CONST("1")))),
        A("globally", E("finally", LE(CONST("2"), "<tokens-count><place>p0</place><place>p1</place>"
                                                   "<place>p2</place></tokens-count>"))),
        NULL};
    write_props("CTLCardinality", ctl);
    run("CTLCardinality");
    EXPECT("ctl", "FORMULA N-CTLCardinality-00 TRUE TECHNIQUES SEQUENTIAL_PROCESSING EXPLICIT");
    EXPECT("ctl", "FORMULA N-CTLCardinality-01 FALSE TECHNIQUES SEQUENTIAL_PROCESSING EXPLICIT");
    EXPECT("ctl", "FORMULA N-CTLCardinality-02 FALSE TECHNIQUES SEQUENTIAL_PROCESSING EXPLICIT");
    EXPECT("ctl", "FORMULA N-CTLCardinality-03 TRUE TECHNIQUES SEQUENTIAL_PROCESSING INITIAL_STATE");
    EXPECT("ctl", "FORMULA N-CTLCardinality-04 TRUE TECHNIQUES SEQUENTIAL_PROCESSING EXPLICIT");
    EXPECT("ctl", "FORMULA N-CTLCardinality-05 TRUE TECHNIQUES SEQUENTIAL_PROCESSING INITIAL_STATE LINEAR_EQUATIONS");
    EXPECT("ctl", "FORMULA N-CTLCardinality-06 TRUE TECHNIQUES SEQUENTIAL_PROCESSING EXPLICIT");
    EXPECT("ctl", "FORMULA N-CTLCardinality-07 FALSE TECHNIQUES SEQUENTIAL_PROCESSING EXPLICIT");
    EXPECT("ctl", "FORMULA N-CTLCardinality-08 TRUE TECHNIQUES SEQUENTIAL_PROCESSING INITIAL_STATE LINEAR_EQUATIONS");
    EXPECT("ctl", "FORMULA N-CTLCardinality-09 FALSE TECHNIQUES SEQUENTIAL_PROCESSING INITIAL_STATE LINEAR_EQUATIONS");
    CHECK(count_lines("FORMULA ") == 10, "ctl: 10 values, each once");
#undef P
#undef E
#undef A
}

static void test_liveness(void)
{
    write_net(&lasso);
    run("Liveness");
    EXPECT("lasso", "FORMULA Liveness FALSE TECHNIQUES SEQUENTIAL_PROCESSING EXPLICIT");
    run("QuasiLiveness");
    EXPECT("lasso", "FORMULA QuasiLiveness TRUE TECHNIQUES SEQUENTIAL_PROCESSING EXPLICIT");
    run("ReachabilityDeadlock");
    EXPECT("lasso", "FORMULA ReachabilityDeadlock FALSE TECHNIQUES SEQUENTIAL_PROCESSING LINEAR_EQUATIONS");

    write_net(&choice);
    run("ReachabilityDeadlock");
    EXPECT("choice", "FORMULA ReachabilityDeadlock TRUE TECHNIQUES SEQUENTIAL_PROCESSING EXPLICIT");
    run("Liveness");
    EXPECT("choice", "FORMULA Liveness FALSE TECHNIQUES SEQUENTIAL_PROCESSING EXPLICIT");
    run("StableMarking");
    EXPECT("choice", "FORMULA StableMarking FALSE TECHNIQUES SEQUENTIAL_PROCESSING EXPLICIT");
    run("StateSpace");
    EXPECT("choice", "STATE_SPACE STATES 3 TECHNIQUES");
    /* t2 loops on p2 without changing the marking: one pair, counted */
    EXPECT("choice", "STATE_SPACE TRANSITIONS 3 TECHNIQUES");
}

/* gen fills p without bound; dead needs q, which nothing fills. */
static const net_spec unbounded = {
    {"p", "q", "r"},
    {NULL, NULL, "1"},
    {"gen", "dead"},
    {{"gen", "p", NULL}, {"q", "dead", NULL}, {"r", "dead", NULL}, {"dead", "p", NULL}},
};

static void test_structure_and_limits(void)
{
    write_net(&unbounded);
    setenv("BK_TIME_CONFINEMENT", "3", 1);
    setenv("BK_MEMORY_CONFINEMENT", "64", 1);
    run("QuasiLiveness");
    EXPECT("unbounded", "FORMULA QuasiLiveness FALSE TECHNIQUES SEQUENTIAL_PROCESSING TOPOLOGICAL");
    run("Liveness");
    EXPECT("unbounded", "FORMULA Liveness FALSE TECHNIQUES SEQUENTIAL_PROCESSING TOPOLOGICAL");
    run("ReachabilityDeadlock");
    EXPECT("unbounded", "FORMULA ReachabilityDeadlock FALSE TECHNIQUES SEQUENTIAL_PROCESSING TOPOLOGICAL");
    run("StableMarking");
    EXPECT("unbounded", "FORMULA StableMarking TRUE TECHNIQUES SEQUENTIAL_PROCESSING TOPOLOGICAL");
    run("OneSafe");
    EXPECT("unbounded", "FORMULA OneSafe FALSE TECHNIQUES SEQUENTIAL_PROCESSING EXPLICIT");
    run("StateSpace");
    CHECK(!has("STATE_SPACE") && has("CANNOT_COMPUTE"), "unbounded: no StateSpace value, CANNOT_COMPUTE");
    const char *ub[] = {
        "<place-bound><place>p</place></place-bound>",
        "<place-bound><place>q</place><place>r</place></place-bound>",
        NULL};
    write_props("UpperBounds", ub);
    run("UpperBounds");
    CHECK(!has("FORMULA N-UpperBounds-00"), "unbounded: no value for an unbounded place");
    EXPECT("unbounded", "FORMULA N-UpperBounds-01 1 TECHNIQUES SEQUENTIAL_PROCESSING INITIAL_STATE TOPOLOGICAL");
    const char *rc[] = {
        "<exists-path><finally>" LE(CONST("1"), TC("q")) "</finally></exists-path>",
        "<exists-path><finally>" LE(CONST("1000000"), TC("p")) "</finally></exists-path>",
        "<all-paths><globally>" LE(TC("p"), CONST("1000000000")) "</globally></all-paths>",
        NULL};
    write_props("ReachabilityCardinality", rc);
    run("ReachabilityCardinality");
    EXPECT("unbounded", "FORMULA N-ReachabilityCardinality-00 FALSE TECHNIQUES SEQUENTIAL_PROCESSING TOPOLOGICAL");
    CHECK(!has("FORMULA N-ReachabilityCardinality-02"), "unbounded: A G open after a partial search");
    setenv("BK_TIME_CONFINEMENT", "10", 1);
    unsetenv("BK_MEMORY_CONFINEMENT");
}

/* Counts near 2^63 whose sum passes 2^64. */
static const net_spec huge = {
    {"a", "b", "c", "d", "e"},
    {"4000000000000000000", "4000000000000000000", "4000000000000000000",
     "4000000000000000000", "4000000000000000000"},
    {"t"},
    {{"a", "t", "4000000000000000000"}, {"t", "b", "4000000000000000000"}},
};

static void test_big_numbers(void)
{
    write_net(&huge);
    run("StateSpace");
    EXPECT("huge", "STATE_SPACE STATES 2 TECHNIQUES");
    EXPECT("huge", "STATE_SPACE TRANSITIONS 1 TECHNIQUES");
    EXPECT("huge", "STATE_SPACE MAX_TOKEN_IN_PLACE 8000000000000000000 TECHNIQUES");
    EXPECT("huge", "STATE_SPACE MAX_TOKEN_PER_MARKING 20000000000000000000 TECHNIQUES");
    run("OneSafe");
    EXPECT("huge", "FORMULA OneSafe FALSE TECHNIQUES SEQUENTIAL_PROCESSING INITIAL_STATE");
    char buf[40];
    CHECK(!strcmp(mcc_u128_decimal(0, buf), "0"), "decimal 0");
    CHECK(!strcmp(mcc_u128_decimal((mcc_u128)1 << 64, buf), "18446744073709551616"), "decimal 2^64");
    CHECK(!strcmp(mcc_u128_decimal(MCC_U128_MAX, buf), "340282366920938463463374607431768211455"),
          "decimal 2^128-1");
}

static void test_driver(void)
{
    write_net(&mutex);
    /* LTL on the mutex net: the body of all-paths is the path formula */
    const char *ltl[] = {
        "<all-paths><globally><finally><is-fireable><transition>enter1</transition></is-fireable>"
        "</finally></globally></all-paths>",
        "<all-paths><finally><is-fireable><transition>leave1</transition></is-fireable>"
        "</finally></all-paths>",
        "<all-paths><next><next><is-fireable><transition>enter1</transition><transition>leave1"
        "</transition></is-fireable></next></next></all-paths>",
        NULL};
    write_props("LTLFireability", ltl);
    run("LTLFireability");
    EXPECT("ltl", "FORMULA N-LTLFireability-00 TRUE TECHNIQUES SEQUENTIAL_PROCESSING EXPLICIT");
    EXPECT("ltl", "FORMULA N-LTLFireability-01 FALSE TECHNIQUES SEQUENTIAL_PROCESSING EXPLICIT");
    EXPECT("ltl", "FORMULA N-LTLFireability-02 TRUE TECHNIQUES SEQUENTIAL_PROCESSING EXPLICIT");
    /* the model decides, not the marker file: a P/T net is answered as one */
    write_file("iscolored", "TRUE\n");
    run("ReachabilityDeadlock");
    CHECK(has("FORMULA ReachabilityDeadlock") && !has("UNFOLDING_TO_PT") && !has("DO_NOT_COMPETE"),
          "iscolored TRUE on a P/T model: answered, no unfolding");
    write_file("model.pnml",
               "<pnml><net id=\"C\" type=\"http://www.pnml.org/version-2009/grammar/symmetricnet\">"
               "<declaration><structure><declarations><namedsort id=\"s\" name=\"S\">"
               "<cyclicenumeration><feconstant id=\"a\"/><feconstant id=\"b\"/>"
               "</cyclicenumeration></namedsort><variabledecl id=\"x\" name=\"x\">"
               "<usersort declaration=\"s\"/></variabledecl></declarations></structure>"
               "</declaration><place id=\"p\"><type><structure><usersort declaration=\"s\"/>"
               "</structure></type><hlinitialMarking><structure><all><usersort declaration=\"s\"/>"
               "</all></structure></hlinitialMarking></place><transition id=\"t\"/>"
               "<arc id=\"a\" source=\"p\" target=\"t\"><hlinscription><structure>"
               "<variable refvariable=\"x\"/></structure></hlinscription></arc></net></pnml>");
    run("OneSafe");
    EXPECT("colored", "FORMULA OneSafe FALSE TECHNIQUES UNFOLDING_TO_PT SEQUENTIAL_PROCESSING "
                      "INITIAL_STATE");
    write_file("iscolored", "FALSE\n");
    write_file("model.pnml", "<pnml");
    CHECK(run("OneSafe") == 1 && has("CANNOT_COMPUTE"), "broken model: CANNOT_COMPUTE, status 1");
    CHECK(run("Nonsense") == 2 && !out[0], "unknown examination: usage error");
}

/* ---- a bound's interval ---- */

static void test_bounds(void)
{
    mcc_query a = {"A", MCC_BOUND, NULL, 0, 0, MCC_U128_MAX, NULL, NULL};
    mcc_query b = a, c = a, d = a;
    b.id = "B", c.id = "C", d.id = "D";
    begin_capture();
    mcc_query_lower(&a, 3, "INITIAL_STATE");
    mcc_query_upper(&a, 5, "LINEAR_EQUATIONS");
    mcc_query_lower(&a, 5, "EXPLICIT");
    mcc_query_upper(&b, 7, "LINEAR_EQUATIONS");
    mcc_query_lower(&b, 7, "INITIAL_STATE");
    mcc_query_lower(&c, 9, "EXPLICIT");
    mcc_query_upper(&c, 8, "LINEAR_EQUATIONS");   /* a decider's bug: crossed ends */
    mcc_query_lower(&d, 4, "EXPLICIT");
    mcc_query_exhausted(&d, "EXPLICIT");
    mcc_query_exhausted(&d, "EXPLICIT");
    end_capture();
    mcc_answers_reset();
    CHECK(has("FORMULA A 5 TECHNIQUES SEQUENTIAL_PROCESSING EXPLICIT LINEAR_EQUATIONS"),
          "bound: attained value meets the proven bound");
    CHECK(has("FORMULA B 7 TECHNIQUES SEQUENTIAL_PROCESSING INITIAL_STATE LINEAR_EQUATIONS"),
          "bound: the initial marking attains the proven bound");
    CHECK(!has("FORMULA C") && c.decided, "bound: crossed ends are left unanswered");
    CHECK(count_lines("FORMULA D 4 ") == 1, "bound: exhausted search answers once");
}

/* ---- the component search on graphs built directly ---- */

static graph_t *graph(uint32_t n, const uint32_t (*edges)[3], size_t nedges)
{
    graph_t *g = graph_new((size_t)1 << 30);
    for (uint32_t s = 0; s < n; s++)
        graph_add_state(g, (store_ref)s * 7 + 3);
    for (uint32_t s = 0; s < n; s++) {
        for (size_t e = 0; e < nedges; e++)
            if (edges[e][0] == s)
                graph_add_edge(g, (store_ref)edges[e][1] * 7 + 3, 0, edges[e][2]);
        graph_close_state(g);
    }
    return g;
}

static int live(const graph_t *g, uint32_t T)
{
    char why[96];
    int live;
    return graph_components(g, T, (size_t)1 << 30, mcc_now() + 60, 1, &live, NULL, why,
                            sizeof why) < 0 ? -1 : live;
}

static void test_components(void)
{
    static const uint32_t cycle[][3] = {{0, 1, 0}, {1, 0, 1}};
    graph_t *g = graph(2, cycle, 2);
    CHECK(live(g, 2) == 1, "scc: a cycle through both transitions is live");
    CHECK(live(g, 3) == 0, "scc: a transition never enabled is not live");
    graph_free(g);

    /* 0 -> 1 <-> 2, and 0 -> 3 -> 3: two bottom components */
    static const uint32_t two[][3] = {{0, 1, 0}, {1, 2, 1}, {2, 1, 2}, {0, 3, 3}, {3, 3, 0},
                                      {3, 3, 1}, {3, 3, 2}};
    g = graph(4, two, 7);
    CHECK(live(g, 4) == 0, "scc: the bottom {1,2} lacks t0 and t3");
    graph_free(g);

    static const uint32_t join[][3] = {{0, 1, 0}, {0, 2, 1}, {1, 2, 2}, {2, 0, 3}};
    g = graph(3, join, 4);
    CHECK(live(g, 4) == 1, "scc: one component holding every state");
    graph_free(g);

    /* a ring of 300000 states: a recursive search would need as many frames */
    uint32_t n = 300000;
    g = graph_new((size_t)1 << 30);
    for (uint32_t s = 0; s < n; s++)
        graph_add_state(g, (store_ref)s * 13);
    for (uint32_t s = 0; s < n; s++) {
        graph_add_edge(g, (store_ref)((s + 1) % n) * 13, 0, s == n / 2);
        graph_close_state(g);
    }
    CHECK(live(g, 2) == 1, "scc: a ring of %u states is one live component", n);
    char why[96];
    int live_;
    CHECK(graph_components(g, 2, 1024, mcc_now() + 60, 1, &live_, NULL, why, sizeof why) == -1,
          "scc: a tiny budget gives up (%s)", why);
    graph_free(g);
}

int main(void)
{
    /* every run gets 10 s: the tiny nets here need far less, and walks
     * that find nothing take their share of it */
    setenv("BK_TIME_CONFINEMENT", "10", 1);
    snprintf(dir, sizeof dir, "%s/mck_test_mcc.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(dir)) {
        printf("not ok - cannot create a temporary folder\n");
        return 1;
    }
    test_mutex();
    test_liveness();
    test_ctl();
    test_structure_and_limits();
    test_big_numbers();
    test_driver();
    test_bounds();
    test_components();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (getenv("KEEP") == NULL && system(cmd) != 0)
        printf("# could not remove %s\n", dir);
    UNIT_DONE();
}
