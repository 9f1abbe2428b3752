/* The snowball of the compose checker (checkers/compose/snowball.c,
 * docs/compose.md "Without X"), as an adversary: it hides the steps no
 * proposition names behind the gap flag and minimises modulo branching
 * bisimulation with explicit divergence, which is sound only if the flag
 * keeps all that a formula without X can see of those steps.  So:
 *  - hand-made systems aimed at what hiding could lose: a gap made by
 *    another component between two named steps, a gap only at the end
 *    (an endless unnamed tail against a deadlock), a divergence inside a
 *    part against a deadlock of that part, unnamed steps of two
 *    components outside the snowball merged into one label, a named step
 *    shared with a component outside;
 *  - random parallel systems of 1 to 6 LTSs of up to 4 states, and fewer
 *    of up to 4 LTSs of up to 9 states (RERS .dot files made here, labels
 *    shared by several LTSs, nondeterministic, loops), and
 *    random formulas without X over one to three of their labels, many of
 *    them about gaps (a position where no named label happens), against
 *    the explicit checker and the stubborn one (RERS reading: infinite
 *    runs only), for the snowball run to the end and stopped early at
 *    several sizes (the rest explored with it, or, where that does not
 *    decide, composed without hiding); also with one action a transition
 *    (several actions of one letter);
 *  - the other reading (deadlocks repeat), where the snowball must not
 *    be used, against the explicit checker.
 * Every answer NO comes with a counterexample that replays on the net and
 * refutes the formula by its definition (actionlasso.h). */
#include "base/budget.h"
#include "checkers/compose/compose.h"
#include "checkers/ltl/ltl.h"
#include "checkers/stubborn.h"
#include "input/input.h"
#include "input/rers.h"
#include "actionlasso.h"
#include "budgets.h"
#include "rnd.h"
#include "unit.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NLABELS 8
static const char *const labels[NLABELS] = { "a", "b", "c", "d", "e", "f", "g", "h" };

static char tmpdir[256];

static net_t *read_text(const char *text, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s.dot", tmpdir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        return NULL;
    fputs(text, f);
    fclose(f);
    net_t *net = rers_read(path);
    unlink(path);
    return net;
}

/* The action proposition of a label: its transitions (none when the
 * system lacks it: always false). */
static tree_t *atom(const net_t *net, const char *label)
{
    const rers_model *m = rers_model_of(net);
    int64_t x = rers_find_label(m, label);
    if (x < 0)
        return tree_action(NULL, 0);
    uint32_t *ts = malloc((m->label_count[x] + 1) * sizeof *ts);
    for (uint32_t i = 0; i < m->label_count[x]; i++)
        ts[i] = m->label_first[x] + i;
    tree_t *t = tree_action(ts, m->label_count[x]);
    free(ts);
    return t;
}

static tree_t *not(tree_t *t) { return tree_unary(T_NOT, t); }
static tree_t *and(tree_t *l, tree_t *r) { return tree_binary(T_AND, l, r); }
static tree_t *or(tree_t *l, tree_t *r) { return tree_binary(T_OR, l, r); }
static tree_t *fin(tree_t *t) { return tree_unary(T_F, t); }
static tree_t *glob(tree_t *t) { return tree_unary(T_G, t); }
static tree_t *until(tree_t *l, tree_t *r) { return tree_binary(T_U, l, r); }

/* ---- the readings and the ways of running the snowball ---- */

static const compose_tuning snowball_whole = { 0, 0, UINT64_MAX, 0, 0 };
static const compose_tuning tunings[] = {
    { 0, 0, UINT64_MAX, 0, 0 },   /* the snowball to the end */
    { 0, 0, 4, 0, 0 },            /* stopped at once: the observer and every component explored */
    { 0, 0, 16, 0, 0 },           /* after a join or two, the rest explored with it */
    { 0, 0, 64, 0, 0 },
    { 0, UINT64_MAX, 8, 0, 0 },   /* stopped early; where it does not decide, composing without hiding */
    /* context constraints: the components and each join cut to what the
     * components outside take part in */
    { 0, 0, UINT64_MAX, 0, UINT64_MAX },
    { 0, 0, 16, 0, UINT64_MAX },
    { 0, UINT64_MAX, 8, 0, UINT64_MAX },
};
#define NTUNINGS (sizeof tunings / sizeof tunings[0])

typedef struct tally {
    int cases, runs, disagree, unknown, bad_runs, yes, no, by_snowball, refs_differ;
    int snowball_not_used, snowball_wrongly_used;
    char first[600];
} tally;

static void note_first(tally *t, const tree_t *f, const char *fmt, const char *what, size_t k,
                       const char *detail)
{
    if (t->first[0])
        return;
    char *s = tree_to_string(f);
    snprintf(t->first, sizeof t->first, fmt, what, k, s ? s : "?", detail);
    free(s);
}

static const char *answer_name(answer_t a)
{
    return a == ANSWER_YES ? "YES" : a == ANSWER_NO ? "NO" : "UNKNOWN";
}

/* compose with every tuning against the explicit checker (and the stubborn
 * one), deadlocks ignored (stutter 0) or repeating (stutter 1). */
static void compare_on(net_t *net, const tree_t *f, int stutter, tally *t, const char *what)
{
    const cnet_t *cn = nc_compile(net);
    budget_t b = unit_budget(0, 0);
    check_options opt = { .budget = &b, .want_run = 1, .ltl_infinite_only = !stutter };
    result_t ref, por;
    result_init(&ref);
    result_init(&por);
    ltl_run(cn, f, &opt, stutter ? LTL_STUTTER : LTL_INFINITE, &ref);
    stubborn_run(cn, f, KIND_LTL, &opt, &por);
    t->cases++;
    if (ref.answer != por.answer) {
        t->refs_differ++;
        char d[80];
        snprintf(d, sizeof d, "explicit %s, stubborn %s", answer_name(ref.answer),
                 answer_name(por.answer));
        note_first(t, f, "%s, references %zu: %s: %s", what, 0, d);
    }
    for (size_t k = 0; k < (stutter ? 1 : NTUNINGS); k++) {
        result_t r;
        result_init(&r);
        compose_run_tuned(cn, f, KIND_LTL, &opt, stutter ? &compose_default_tuning : &tunings[k],
                          &r);
        t->runs++;
        int hidden = strstr(r.net_note, "unnamed steps hidden") != NULL;
        t->by_snowball += hidden;
        if (stutter && hidden) {
            t->snowball_wrongly_used++;
            note_first(t, f, "%s, tuning %zu: %s: %s", what, k, "the snowball with deadlocks "
                       "repeating");
        }
        if (!stutter && k == 0 && !hidden) {
            t->snowball_not_used++;
            note_first(t, f, "%s, tuning %zu: %s: %s", what, k, "not answered by the snowball");
        }
        if (r.answer == ANSWER_UNKNOWN || ref.answer == ANSWER_UNKNOWN) {
            t->unknown++;
            note_first(t, f, "%s, tuning %zu: %s: unknown: %s", what, k,
                       r.answer == ANSWER_UNKNOWN ? r.reason : ref.reason);
        } else if (r.answer != ref.answer) {
            t->disagree++;
            char d[80];
            snprintf(d, sizeof d, "compose %s, explicit %s", answer_name(r.answer),
                     answer_name(ref.answer));
            note_first(t, f, "%s, tuning %zu: %s: %s", what, k, d);
        } else if (r.answer == ANSWER_NO) {
            char why[200];
            t->no++;
            if (!run_refutes(net, &r, f, stutter, why, sizeof why)) {
                t->bad_runs++;
                note_first(t, f, "%s, tuning %zu: %s: counterexample: %s", what, k, why);
            }
        } else {
            t->yes++;
        }
        result_clear(&r);
    }
    result_clear(&ref);
    result_clear(&por);
}

static void report(const tally *t, const char *what)
{
    CHECK(t->cases > 0 && t->disagree == 0 && t->unknown == 0 && t->bad_runs == 0 &&
          t->refs_differ == 0 && t->snowball_not_used == 0 && t->snowball_wrongly_used == 0,
          "%s: %d formulas, %d answers of compose (%d YES, %d NO, %d from the snowball) equal "
          "the explicit checker's (itself the stubborn one's), every counterexample a lasso "
          "of the net that refutes the formula%s%s", what, t->cases, t->runs, t->yes, t->no,
          t->by_snowball, t->first[0] ? ": first failure: " : "", t->first);
}

/* ---- hand-made systems ---- */

typedef struct hand_case {
    const char *name, *why;
    const char *dot;
    answer_t expect;   /* RERS reading */
} hand_case;

/* p and q named, everything else unnamed; each formula below is built
 * from p, q and "gap" (neither). */
static tree_t *gap(const net_t *net)
{
    return and(not(atom(net, "p")), not(atom(net, "q")));
}

/* G(p -> (p U q)): no gap between a p and the q after it */
static tree_t *no_gap_before_q(const net_t *net)
{
    return glob(or(not(atom(net, "p")), until(atom(net, "p"), atom(net, "q"))));
}

static void check_hand_made(void)
{
    static const hand_case cases[] = {
        { "gap from outside", "B's unnamed u falls between A's p and q, B in the snowball "
          "before A or after it",
          "digraph G {\n"
          " subgraph A { s -> a0 [label=\"\"]; a0 -> a1 [label=\"p\"]; a1 -> a2 [label=\"q\"];"
          " a2 -> a2 [label=\"q\"]; }\n"
          " subgraph B { t -> b0 [label=\"\"]; b0 -> b1 [label=\"u\"]; b1 -> b1 [label=\"q\"]; }\n"
          "}\n", ANSWER_NO },
        { "gap only in a synchronised step", "u is A's and B's together: no interleaving, "
          "p then q is never split",
          "digraph G {\n"
          " subgraph A { s -> a0 [label=\"\"]; a0 -> a1 [label=\"u\"]; a1 -> a2 [label=\"p\"];"
          " a2 -> a3 [label=\"q\"]; a3 -> a3 [label=\"q\"]; }\n"
          " subgraph B { t -> b0 [label=\"\"]; b0 -> b1 [label=\"u\"]; b1 -> b1 [label=\"q\"]; }\n"
          "}\n", ANSWER_YES },
        { "endless gap against a deadlock", "after p, A diverges on unnamed u: the run "
          "p u u u ... is infinite and has no q",
          "digraph G {\n"
          " subgraph A { s -> a0 [label=\"\"]; a0 -> a1 [label=\"p\"]; a1 -> a1 [label=\"u\"];"
          " a0 -> a2 [label=\"q\"]; a2 -> a2 [label=\"q\"]; }\n"
          " subgraph B { t -> b0 [label=\"\"]; b0 -> b0 [label=\"q\"]; }\n"
          "}\n", ANSWER_NO },
        { "deadlock, not divergence", "after p, A is stuck and B needs A for q: the only runs "
          "after p are finite, which RERS ignores",
          "digraph G {\n"
          " subgraph A { s -> a0 [label=\"\"]; a0 -> a1 [label=\"p\"]; a0 -> a2 [label=\"q\"];"
          " a2 -> a2 [label=\"q\"]; a1 -> a3 [label=\"u\"]; }\n"
          " subgraph B { t -> b0 [label=\"\"]; b0 -> b0 [label=\"q\"]; }\n"
          "}\n", ANSWER_YES },
        { "unnamed steps of two outsiders", "B's u and C's w, unnamed and each of one component, "
          "are one label of the observer until B or C joins; x, unnamed too, is A's and B's "
          "between p and q",
          "digraph G {\n"
          " subgraph A { s -> a0 [label=\"\"]; a0 -> a1 [label=\"p\"]; a1 -> a2 [label=\"x\"];"
          " a2 -> a3 [label=\"q\"]; a3 -> a3 [label=\"q\"]; }\n"
          " subgraph B { t -> b0 [label=\"\"]; b0 -> b1 [label=\"x\"]; b1 -> b1 [label=\"u\"]; }\n"
          " subgraph C { r -> c0 [label=\"\"]; c0 -> c0 [label=\"y\"]; c0 -> c1 [label=\"w\"]; }\n"
          "}\n", ANSWER_NO },
        { "named step shared with an outsider", "q is A's and B's together; B can do its "
          "unnamed v only before its q, A its p only before q: p v q is a run",
          "digraph G {\n"
          " subgraph A { s -> a0 [label=\"\"]; a0 -> a1 [label=\"p\"]; a1 -> a2 [label=\"q\"];"
          " a2 -> a2 [label=\"z\"]; }\n"
          " subgraph B { t -> b0 [label=\"\"]; b0 -> b1 [label=\"v\"]; b1 -> b2 [label=\"q\"];"
          " b2 -> b2 [label=\"z\"]; }\n"
          "}\n", ANSWER_NO },
        { "shared named step, no gap possible", "as above but B's v must come before A's p",
          "digraph G {\n"
          " subgraph A { s -> a0 [label=\"\"]; a0 -> a4 [label=\"v\"]; a4 -> a1 [label=\"p\"];"
          " a1 -> a2 [label=\"q\"]; a2 -> a2 [label=\"z\"]; }\n"
          " subgraph B { t -> b0 [label=\"\"]; b0 -> b1 [label=\"v\"]; b1 -> b2 [label=\"q\"];"
          " b2 -> b2 [label=\"z\"]; }\n"
          "}\n", ANSWER_YES },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        net_t *net = read_text(cases[i].dot, "hand");
        if (!net) {
            CHECK(0, "%s: the system reads", cases[i].name);
            continue;
        }
        /* the first and the "deadlock" cases read G(p -> (p U q)); the
         * divergence cases (whose q may come without p) G(p -> F q) */
        tree_t *f = i == 2 || i == 3 ? glob(or(not(atom(net, "p")), fin(atom(net, "q"))))
                                     : no_gap_before_q(net);
        tally t = {0};
        compare_on(net, f, 0, &t, cases[i].name);
        const cnet_t *cn = nc_compile(net);
        budget_t b = unit_budget(0, 0);
        check_options opt = { .budget = &b, .want_run = 0, .ltl_infinite_only = 1 };
        result_t r;
        result_init(&r);
        compose_run_tuned(cn, f, KIND_LTL, &opt, &snowball_whole, &r);
        CHECK(r.answer == cases[i].expect && t.disagree == 0 && t.unknown == 0 &&
              t.bad_runs == 0 && t.refs_differ == 0 && t.snowball_not_used == 0,
              "%s (%s): the snowball answers %s, stopped early or not, as the explicit "
              "checker does%s%s", cases[i].name, cases[i].why, answer_name(cases[i].expect),
              t.first[0] ? ": " : "", t.first);
        result_clear(&r);
        tree_free(f);
        /* a gap formula on the same system: something unnamed between p
         * and a later q, or an endless tail of them */
        tree_t *g = or(fin(and(atom(net, "p"), fin(and(gap(net), fin(atom(net, "q")))))),
                       fin(glob(gap(net))));
        tally u = {0};
        compare_on(net, g, 0, &u, cases[i].name);
        CHECK(u.disagree == 0 && u.unknown == 0 && u.bad_runs == 0 && u.refs_differ == 0 &&
              u.snowball_not_used == 0, "%s: F(p & F(gap & F q)) | FG gap answered as the "
              "explicit checker does (%d YES, %d NO)%s%s", cases[i].name, u.yes, u.no,
              u.first[0] ? ": " : "", u.first);
        tree_free(g);
        nc_free_net(net);
    }
}

/* ---- random systems and formulas ---- */

/* 1 to max_lts LTSs of 1 to max_states states, each with a few of the
 * labels (so a label is shared by several, or by one), some loops. */
static void random_system(char *path, size_t n, int serial, uint32_t max_lts, uint32_t max_states)
{
    snprintf(path, n, "%s/snow%d.dot", tmpdir, serial);
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    fprintf(f, "digraph G {\n");
    uint32_t nlts = 1 + rnd(max_lts), node = 0;
    for (uint32_t k = 0; k < nlts; k++) {
        uint32_t states = 1 + rnd(max_states), first = node + 1;
        fprintf(f, "  subgraph c%u {\n    %u -> %u [label=\"\"];\n", k, node, first);
        node = first + states;
        int has[NLABELS] = {0};
        for (int i = 0; i < NLABELS; i++)
            has[i] = rnd(4) == 0;
        has[rnd(NLABELS)] = 1;
        uint32_t edges = states + rnd(states + 2);
        for (uint32_t e = 0; e < edges; e++) {
            int l;
            do
                l = (int)rnd(NLABELS);
            while (!has[l]);
            uint32_t from = first + rnd(states);
            fprintf(f, "    %u -> %u [label=\"%s\"];\n", from, rnd(3) ? first + rnd(states) : from,
                    labels[l]);
        }
        fprintf(f, "  }\n");
    }
    fprintf(f, "}\n");
    fclose(f);
}

/* A formula without X over the labels named[0..nn), and "gap", the
 * position where none of them happens. */
static tree_t *named_or_gap(const net_t *net, const int *named, int nn)
{
    if (rnd(4) == 0) {
        tree_t *g = not(atom(net, labels[named[0]]));
        for (int i = 1; i < nn; i++)
            g = and(g, not(atom(net, labels[named[i]])));
        return g;
    }
    return atom(net, labels[named[rnd((uint32_t)nn)]]);
}

static tree_t *random_formula(const net_t *net, const int *named, int nn, int depth)
{
    uint32_t pick = depth <= 0 ? 0 : rnd(10);
    switch (pick) {
    case 0:
    case 1:
        return named_or_gap(net, named, nn);
    case 2:
        return not(random_formula(net, named, nn, depth - 1));
    case 3:
        return fin(random_formula(net, named, nn, depth - 1));
    case 4:
        return glob(random_formula(net, named, nn, depth - 1));
    case 5:
        return until(random_formula(net, named, nn, depth - 1),
                     random_formula(net, named, nn, depth - 1));
    case 6:
        return tree_binary(T_R, random_formula(net, named, nn, depth - 1),
                           random_formula(net, named, nn, depth - 1));
    case 7:
        return and(random_formula(net, named, nn, depth - 1),
                   random_formula(net, named, nn, depth - 1));
    case 8:
        return or(random_formula(net, named, nn, depth - 1),
                  random_formula(net, named, nn, depth - 1));
    default:
        return tree_binary(T_IMPLIES, random_formula(net, named, nn, depth - 1),
                           random_formula(net, named, nn, depth - 1));
    }
}

/* The patterns whose value a lost or an invented gap changes, over p and
 * q (two of the named labels, maybe one) and "gap". */
static tree_t *gap_pattern(const net_t *net, const int *named, int nn)
{
    const char *p = labels[named[0]], *q = labels[named[nn > 1]];
    tree_t *g = not(atom(net, labels[named[0]]));
    for (int i = 1; i < nn; i++)
        g = and(g, not(atom(net, labels[named[i]])));
    switch (rnd(9)) {
    case 0:   /* G(p -> (p U q)): no gap after a p before its q */
        tree_free(g);
        return glob(or(not(atom(net, p)), until(atom(net, p), atom(net, q))));
    case 1:   /* F(p & F(gap & F q)) */
        return fin(and(atom(net, p), fin(and(g, fin(atom(net, q))))));
    case 2:   /* FG gap: finitely many named steps */
        return fin(glob(g));
    case 3:   /* GF gap */
        return glob(fin(g));
    case 4:   /* gap U p */
        return until(g, atom(net, p));
    case 5:   /* G(p -> F q) */
        tree_free(g);
        return glob(or(not(atom(net, p)), fin(atom(net, q))));
    case 6:   /* G(p -> (gap U q)) */
        return glob(or(not(atom(net, p)), until(g, atom(net, q))));
    case 7:   /* !(p U (gap & F p)) */
        return not(until(atom(net, p), and(g, fin(atom(net, p)))));
    default:  /* G(gap -> F p) */
        return glob(or(not(g), fin(atom(net, p))));
    }
}

/* SNOWBALL_SYSTEMS and SNOWBALL_SEED: a longer or another run, by hand */
#ifndef SNOWBALL_SYSTEMS
#define SNOWBALL_SYSTEMS 300
#endif
static void check_random(int systems, uint32_t max_lts, uint32_t max_states)
{
    tally rers = {0}, per_transition = {0}, repeat = {0};
    for (int sys = 0; sys < systems; sys++) {
        char path[512];
        random_system(path, sizeof path, sys, max_lts, max_states);
        net_t *net = rers_read(path);
        unlink(path);
        if (!net) {
            rers.disagree++;
            snprintf(rers.first, sizeof rers.first, "random system %d does not read", sys);
            continue;
        }
        for (int k = 0; k < 5; k++) {
            int named[3], nn = 1 + (int)rnd(3);
            for (int i = 0; i < nn; i++)
                named[i] = (int)rnd(NLABELS);
            tree_t *f = k < 2 ? gap_pattern(net, named, nn)
                              : random_formula(net, named, nn, 1 + (int)rnd(4));
            compare_on(net, f, 0, &rers, "deadlocks ignored (RERS)");
            if (k == 0)
                compare_on(net, f, 1, &repeat, "deadlocks repeat");
            if (k == 1) {
                uint32_t *acts = net->transition_actions;
                net->transition_actions = NULL;
                compare_on(net, f, 0, &per_transition, "one action a transition");
                net->transition_actions = acts;
            }
            tree_free(f);
        }
        nc_free_net(net);
    }
    char what[160];
    snprintf(what, sizeof what, "%d random parallel systems of 1 to %u LTSs of 1 to %u states, "
             "formulas without X, deadlocks ignored (RERS)", systems, max_lts, max_states);
    report(&rers, what);
    report(&per_transition, "the same with one action a transition (several actions a letter)");
    report(&repeat, "the same with deadlocks repeating (no snowball there)");
}

int main(void)
{
    const char *t = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/mck_snowball.XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(tmpdir)) {
        CHECK(0, "a scratch folder");
        UNIT_DONE();
    }
    check_hand_made();
#ifdef SNOWBALL_SEED
    rnd_state = SNOWBALL_SEED;
#endif
    check_random(SNOWBALL_SYSTEMS, 6, 4);
    /* fewer, larger components: more for the minimisation to merge, longer
     * joins */
    check_random(SNOWBALL_SYSTEMS / 3, 4, 9);
    rmdir(tmpdir);
    UNIT_DONE();
}
