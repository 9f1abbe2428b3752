/* The stubborn checker's reduction for action-based LTL (RERS semantics,
 * docs/por-actions.md) against the unreduced search, on random small
 * parallel systems written as RERS .dot files: a few LTSs with local
 * labels and labels shared by two of them, states without a way out,
 * self-loops and cycles that a reduction could ignore, and random formulas
 * over a few of the labels with X, U, W, R, F and G.  For every property
 * the stubborn checker must give explicit's answer, with infinite runs
 * only (the RERS reading) and with --finite-runs repeat; each of its
 * counterexamples must replay on the system itself (rerssim.h, which
 * shares no code with mck's net) as a run on which the formula is false;
 * and over all systems it must visit fewer states. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rerssim.h"
#include "rnd.h"
#include "runmck.h"
#include "unit.h"

#define SYSTEMS 150
#define PROPS 8
#define MAXPROPS (PROPS + 1)

static const char *mck, *top;

typedef struct sys {
    char dot[8192];
    char props[8192];
    char labels[32][16];
    int nlabels;
} sys;

static void add_label(sys *s, const char *name)
{
    for (int i = 0; i < s->nlabels; i++)
        if (!strcmp(s->labels[i], name))
            return;
    if (s->nlabels < 32)
        snprintf(s->labels[s->nlabels++], sizeof s->labels[0], "%s", name);
}

#define APPEND(buf, ...) \
    snprintf((buf) + strlen(buf), sizeof(buf) - strlen(buf), __VA_ARGS__)

/* 2 to 5 LTSs of 2 to 6 states; each has 2 local labels, and each pair
 * of LTSs shares a label with probability 1/3 (one edge in each at
 * least).  In a third of the LTSs the last state has no edge out, unless
 * the shared edges give it one. */
static void random_system(sys *s)
{
    memset(s, 0, sizeof *s);
    int nlts = 2 + (int)rnd(4), size[5], base[5], node = 0;
    for (int c = 0; c < nlts; c++) {
        size[c] = 2 + (int)rnd(5);
        base[c] = node;
        node += size[c] + 1;   /* + the start edge's source */
    }
    int shared[5][5] = {{0}}, nshared = 0;
    for (int a = 0; a < nlts; a++)
        for (int b = a + 1; b < nlts; b++)
            if (!rnd(3))
                shared[a][b] = shared[b][a] = ++nshared;
    snprintf(s->dot, sizeof s->dot, "digraph G {\n");
    for (int c = 0; c < nlts; c++) {
        APPEND(s->dot, "  subgraph component%d {\n", c);
        int start = base[c] + size[c];
        APPEND(s->dot, "    %d -> %d [label=\"\"];\n", start, base[c] + (int)rnd((uint32_t)size[c]));
        int edges = size[c] + 1 + (int)rnd((uint32_t)size[c] + 2), stuck = !rnd(3);
        for (int e = 0; e < edges; e++) {
            char label[16];
            int partner = (int)rnd(5);
            if (partner < nlts && partner != c && shared[c][partner])
                snprintf(label, sizeof label, "s%d", shared[c][partner]);
            else
                snprintf(label, sizeof label, "c%d_%d", c, (int)rnd(2));
            add_label(s, label);
            int from = (int)rnd((uint32_t)size[c] - (uint32_t)stuck);
            APPEND(s->dot, "    %d -> %d [label=\"%s\"];\n", base[c] + from,
                   base[c] + (int)rnd((uint32_t)size[c]), label);
        }
        for (int p = 0; p < nlts; p++)
            if (p != c && shared[c][p]) {
                APPEND(s->dot, "    %d -> %d [label=\"s%d\"];\n", base[c] + (int)rnd((uint32_t)size[c]),
                       base[c] + (int)rnd((uint32_t)size[c]), shared[c][p]);
                char label[16];
                snprintf(label, sizeof label, "s%d", shared[c][p]);
                add_label(s, label);
            }
        APPEND(s->dot, "  }\n");
    }
    APPEND(s->dot, "}\n");
}

/* A formula over the labels mentioned[0..n), depth at most d. */
static void random_formula(char *buf, size_t size, char (*mentioned)[16], int n, int d)
{
    if (d == 0 || rnd(4) == 0) {
        snprintf(buf, size, "%s", mentioned[rnd((uint32_t)n)]);
        return;
    }
    static const char *const unary[] = {"!", "X", "F", "G"};
    static const char *const binary[] = {"&", "|", "=>", "U", "W", "R"};
    char l[1000], r[1000];
    random_formula(l, sizeof l, mentioned, n, d - 1);
    if (rnd(2)) {
        snprintf(buf, size, "%s(%s)", unary[rnd(4)], l);
        return;
    }
    random_formula(r, sizeof r, mentioned, n, d - 1);
    snprintf(buf, size, "(%s %s %s)", l, binary[rnd(6)], r);
}

/* Half of them from the patterns of the RERS property files, which hold
 * more often than random formulas do, so that whole state spaces get
 * searched; the others random. */
static void random_props(sys *s)
{
    static const char *const patterns[] = {
        "G(!%1$s)", "(!%1$s W %2$s)", "G((%1$s => F(%2$s)))", "G((%1$s => X(!%2$s)))",
        "F(G(!%1$s))", "((%1$s => G(!%2$s)) W %3$s)", "G((%1$s => X(X(!%2$s))))",
        "(G(F(%1$s)) => G(F(%2$s)))", "G((%1$s => (!%2$s U %3$s)))", "(%1$s R !%2$s)",
    };
    s->props[0] = '\0';
    for (int p = 1; p <= PROPS; p++) {
        char mentioned[3][16], f[4096];
        int n = 1 + (int)rnd(3);
        for (int i = 0; i < 3; i++)
            snprintf(mentioned[i], sizeof mentioned[i], "%s",
                     s->labels[rnd((uint32_t)s->nlabels)]);
        if (p % 2)
            snprintf(f, sizeof f, patterns[rnd(sizeof patterns / sizeof *patterns)],
                     mentioned[0], mentioned[1], mentioned[2]);
        else
            random_formula(f, sizeof f, mentioned, n, 3);
        APPEND(s->props, "#%d:\n(%s)\n\n", p, f);
    }
}

static int write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    int rc = fputs(text, f) < 0 ? -1 : 0;
    return fclose(f) != 0 ? -1 : rc;
}

/* From --json lines: the verdict (1 YES, 0 NO, -1 else) and the states of
 * each property #1..#PROPS. */
static void parse_json(const char *out, int *verdict, unsigned long long *states)
{
    for (int p = 0; p < MAXPROPS; p++)
        verdict[p] = -2, states[p] = 0;
    for (const char *l = out; l && *l;) {
        const char *e = strchr(l, '\n');
        int p;
        const char *at = strstr(l, "\"property\":\"#");
        if (at && (!e || at < e) && sscanf(at, "\"property\":\"#%d\"", &p) == 1 && p > 0 &&
            p < MAXPROPS) {
            const char *v = strstr(l, "\"verdict\":\"");
            verdict[p] = v && (!e || v < e) ? (!strncmp(v + 11, "YES", 3) ? 1
                                               : !strncmp(v + 11, "NO\"", 3) ? 0 : -1) : -1;
            const char *st = strstr(l, "\"states\":");
            if (st && (!e || st < e))
                states[p] = strtoull(st + 9, NULL, 10);
        }
        l = e ? e + 1 : NULL;
    }
}

/* The text of property p's block (from its "Property #p:" line to the
 * next one), malloc'd, or NULL. */
static char *block_of(const char *out, int p)
{
    char head[32];
    snprintf(head, sizeof head, "Property #%d:", p);
    const char *b = strstr(out, head);
    if (!b)
        return NULL;
    const char *e = strstr(b + 1, "\nProperty #");
    const char *s = strstr(b + 1, "\nProperties:");
    if (!e || (s && s < e))
        e = s;
    size_t n = e ? (size_t)(e - b) : strlen(b);
    return rs_strndup(b, n);
}

typedef struct tally {
    unsigned cases, agree, decided, nos, replayed, fewer;
    unsigned long long states_full, states_red;
} tally;

static void check_system(const sys *s, int repeat, tally *t)
{
    char dot[4200], props[4200], args[9000], err[800];
    snprintf(dot, sizeof dot, "%s/tests/tmp/por_rers.dot", top);
    snprintf(props, sizeof props, "%s/tests/tmp/por_rers-properties.txt", top);
    if (write_file(dot, s->dot) < 0 || write_file(props, s->props) < 0) {
        CHECK(0, "writes %s and %s", dot, props);
        return;
    }
    rerssim *m = rerssim_parse(s->dot, err, sizeof err);
    rerssim_props ps;
    if (!m || rerssim_props_parse(m, s->props, &ps, err, sizeof err) < 0) {
        CHECK(0, "rerssim reads the random system: %s\n%s%s", err, s->dot, s->props);
        rerssim_free(m);
        return;
    }
    const char *mode = repeat ? "--finite-runs repeat " : "";
    int verdict[2][MAXPROPS];
    unsigned long long states[2][MAXPROPS];
    outcome o;
    for (int c = 0; c < 2; c++) {
        snprintf(args, sizeof args, "check --json -q %srers:%s-ltl '%s' '%s'", mode,
                 c ? "stubborn" : "explicit", dot, props);
        run_mck_in(&o, top, mck, args, 60);
        parse_json(o.out, verdict[c], states[c]);
        free(o.out);
    }
    snprintf(args, sizeof args, "check %srers:stubborn-ltl '%s' '%s'", mode, dot, props);
    run_mck_in(&o, top, mck, args, 60);
    for (size_t i = 0; i < ps.n; i++) {
        int p = ps.p[i].num;
        if (p < 1 || p >= MAXPROPS)
            continue;
        t->cases++;
        int full = verdict[0][p], red = verdict[1][p];
        t->decided += full >= 0 && red >= 0;
        if (full == red && full >= 0) {
            t->agree++;
        } else {
            printf("# differs (%s): #%d %s: explicit %d, stubborn %d\n%s", repeat ? "repeat" : "infinite",
                   p, ps.p[i].text, full, red, s->dot);
        }
        t->states_full += states[0][p];
        t->states_red += states[1][p];
        t->fewer += states[1][p] < states[0][p];
        if (red != 0)
            continue;
        t->nos++;
        char *text = block_of(o.out, p);
        rerssim_run r;
        int rc = text ? rerssim_replay(m, ps.p[i].f, text, repeat ? RERSSIM_REPEAT : 0, &r, err,
                                       sizeof err) : -1;
        if (rc == 0) {
            t->replayed++;
            rerssim_run_free(&r);
        } else {
            printf("# no replay (%s): #%d %s: %s\n%s%s\n", repeat ? "repeat" : "infinite", p,
                   ps.p[i].text, err, s->dot, text ? text : "(no block)");
        }
        free(text);
    }
    free(o.out);
    rerssim_props_free(&ps);
    rerssim_free(m);
}

/* Systems made to trip one condition of the argument each, with the
 * answer that must come out. */
static const struct handmade {
    const char *what, *dot, *formula;
    int holds;
} handmade[] = {
    /* the automaton of G F a loops on every step, accepting only on a: a
     * step that keeps the state but not the acceptance is visible, or the
     * reduction could loop on o forever and miss the accepting a-loop */
    {"an accepting self-loop is visible",
     "digraph G { subgraph x { 9 -> 0 [label=\"\"]; 0 -> 0 [label=\"o\"]; }\n"
     " subgraph y { 8 -> 1 [label=\"\"]; 1 -> 1 [label=\"a\"]; } }\n",
     "F(G(!a))", 0},
    /* b one step after a happens only with no o between them */
    {"an unnamed step between two named ones counts",
     "digraph G { subgraph x { 9 -> 0 [label=\"\"]; 0 -> 1 [label=\"o\"]; 1 -> 1 [label=\"p\"]; }\n"
     " subgraph y { 8 -> 2 [label=\"\"]; 2 -> 3 [label=\"a\"]; 3 -> 4 [label=\"b\"];"
     " 4 -> 4 [label=\"q\"]; } }\n",
     "G((a => X(!b)))", 0},
    /* a is possible only after o; the reduction must not loop on p and
     * postpone o forever */
    {"a step that enables a named one is not postponed",
     "digraph G { subgraph x { 9 -> 0 [label=\"\"]; 0 -> 0 [label=\"p\"]; }\n"
     " subgraph y { 8 -> 2 [label=\"\"]; 2 -> 3 [label=\"o\"]; 3 -> 3 [label=\"a\"]; } }\n",
     "G(!a)", 0},
};

static void check_handmade(void)
{
    for (size_t i = 0; i < sizeof handmade / sizeof *handmade; i++) {
        const struct handmade *h = &handmade[i];
        char dot[4200], props[4200], args[9000], text[512];
        snprintf(dot, sizeof dot, "%s/tests/tmp/por_rers_hand.dot", top);
        snprintf(props, sizeof props, "%s/tests/tmp/por_rers_hand.txt", top);
        snprintf(text, sizeof text, "#1: %s\n%s\n", h->holds ? "true" : "false", h->formula);
        if (write_file(dot, h->dot) < 0 || write_file(props, text) < 0) {
            CHECK(0, "writes %s and %s", dot, props);
            continue;
        }
        for (int c = 0; c < 2; c++) {
            const char *checker = c ? "stubborn" : "explicit";
            snprintf(args, sizeof args, "check --json -q --expect rers:%s-ltl '%s' '%s'", checker,
                     dot, props);
            outcome o;
            run_mck_in(&o, top, mck, args, 60);
            int verdict[MAXPROPS];
            unsigned long long states[MAXPROPS];
            parse_json(o.out, verdict, states);
            CHECK(verdict[1] == h->holds && o.status == 0, "%s: %s says %s for %s (got %d, exit %d)",
                  h->what, checker, h->holds ? "YES" : "NO", h->formula, verdict[1], o.status);
            free(o.out);
        }
    }
}

int main(void)
{
    const char *t = getenv("TOP"), *k = getenv("MCK");
    top = t && *t ? t : ".";
    mck = k && *k ? k : "./mck";
    if (access(mck, X_OK) != 0) {
        SKIP("random RERS systems: %s is not executable", mck);
        UNIT_DONE();
    }
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s/tests/tmp", top);
    mkdir(tmp, 0777);   /* tests/run.sh makes it; a direct run may not */
    check_handmade();
    for (int repeat = 0; repeat <= 1; repeat++) {
        tally tl = {0};
        for (int i = 0; i < SYSTEMS; i++) {
            sys s;
            random_system(&s);
            random_props(&s);
            check_system(&s, repeat, &tl);
        }
        const char *mode = repeat ? "with --finite-runs repeat" : "on infinite runs";
        CHECK(tl.agree == tl.cases && tl.decided == tl.cases,
              "random systems %s: stubborn agrees with explicit on %u of %u properties "
              "(%u decided by both)", mode, tl.agree, tl.cases, tl.decided);
        CHECK(tl.replayed == tl.nos && tl.nos > tl.cases / 10,
              "random systems %s: %u of %u counterexamples replay on the system", mode,
              tl.replayed, tl.nos);
        CHECK(tl.fewer > tl.cases / 10 && tl.states_red < tl.states_full,
              "random systems %s: fewer states for %u of %u properties, %llu in all against %llu",
              mode, tl.fewer, tl.cases, tl.states_red, tl.states_full);
    }
    UNIT_DONE();
}
