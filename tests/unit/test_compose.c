/* The compose checker (checkers/compose, docs/compose.md), against
 * definitions written here and against the explicit LTL checker:
 *  - strong bisimulation: on random LTSs the partition equals the
 *    greatest bisimulation computed naively (pairs removed until stable),
 *    and the quotient's edges are the images of the LTS's;
 *  - the states with an infinite run: those that reach a cycle;
 *  - context constraints: the edges a cut keeps are those a reachable
 *    pair of the part with its context takes, on random LTSs, and the
 *    same by the context's determinised interface;
 *  - on random parallel systems (small RERS .dot files made here, labels
 *    shared by one to three LTSs, nondeterministic ones too) and random
 *    LTL formulas over their labels, the answer of every way of composing
 *    (a first look only, everything down to one LTS, no product at all,
 *    the default) is the explicit checker's, with deadlocks ignored (RERS)
 *    and with deadlocks repeating; every counterexample is replayed on
 *    the net with this file's own firing rule, its loop closes, and the
 *    formula evaluated on it from the definition is false;
 *  - the same with the reader's actions taken away (one action a
 *    transition) and with the units taken away (components from one-hot
 *    groups);
 *  - the unsound reduction of docs/compose.md: A = o o x beside B = y,
 *    and a formula that sees the word "o y o x", must be answered NO;
 *  - limits end in UNKNOWN with the reason, and what the checker cannot
 *    take is refused or answered UNKNOWN with the reason. */
#include "base/budget.h"
#include "checkers/compose/compose.h"
#include "checkers/compose/composeint.h"
#include "checkers/ltl/ltl.h"
#include "input/input.h"
#include "input/rers.h"
#include "budgets.h"
#include "actionlasso.h"
#include "rnd.h"
#include "unit.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- strong bisimulation and pruning on random LTSs ---- */

#define MAXN 10

typedef struct small_lts {
    uint32_t n, m;
    uint32_t src[40], lab[40], dst[40];
} small_lts;

static void random_lts(small_lts *s)
{
    s->n = 1 + rnd(MAXN);
    s->m = rnd(3 * s->n + 1);
    for (uint32_t e = 0; e < s->m; e++) {
        s->src[e] = rnd(s->n);
        s->lab[e] = 5 + rnd(3);
        s->dst[e] = rnd(s->n);
    }
}

/* As a co_lts, edges by source (normalised). */
static void to_lts(co_mem *cm, const small_lts *s, co_lts *l)
{
    memset(l, 0, sizeof *l);
    l->nstates = s->n;
    l->cap_first = s->n + 1;
    l->cap_edges = s->m ? s->m : 1;
    l->first = co_alloc(cm, l->cap_first, sizeof *l->first);
    l->lab = co_alloc(cm, l->cap_edges, sizeof *l->lab);
    l->dst = co_alloc(cm, l->cap_edges, sizeof *l->dst);
    uint32_t k = 0;
    for (uint32_t x = 0; x < s->n; x++) {
        l->first[x] = k;
        for (uint32_t e = 0; e < s->m; e++)
            if (s->src[e] == x) {
                l->lab[k] = s->lab[e];
                l->dst[k++] = s->dst[e];
            }
    }
    l->first[s->n] = k;
    l->nedges = k;
    uint64_t *scratch = NULL;
    size_t cap = 0;
    co_lts_normalise(cm, l, &scratch, &cap);
    co_free_grown(cm, &scratch, &cap, sizeof *scratch);
}

/* The greatest bisimulation, naively: pairs are removed while one side
 * has a move the other cannot match within the relation. */
static void naive_bisim(const small_lts *s, int rel[MAXN][MAXN])
{
    for (uint32_t a = 0; a < s->n; a++)
        for (uint32_t b = 0; b < s->n; b++)
            rel[a][b] = 1;
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t a = 0; a < s->n; a++)
            for (uint32_t b = 0; b < s->n; b++) {
                if (!rel[a][b])
                    continue;
                int ok = 1;
                for (int side = 0; side < 2 && ok; side++) {
                    uint32_t x = side ? b : a, y = side ? a : b;
                    for (uint32_t e = 0; e < s->m && ok; e++) {
                        if (s->src[e] != x)
                            continue;
                        int matched = 0;
                        for (uint32_t f = 0; f < s->m && !matched; f++)
                            matched = s->src[f] == y && s->lab[f] == s->lab[e] &&
                                      rel[side ? s->dst[f] : s->dst[e]][side ? s->dst[e] : s->dst[f]];
                        ok = matched;
                    }
                }
                if (!ok) {
                    rel[a][b] = 0;
                    changed = 1;
                }
            }
    }
}

static void check_bisim(void)
{
    budget_t b = unit_budget(0, 0);
    co_mem cm = { .budget = &b, .limit = (size_t)1 << 30 };
    int bad_partition = 0, bad_quotient = 0, bad_prune = 0;
    for (int round = 0; round < 3000; round++) {
        small_lts s;
        random_lts(&s);
        co_lts l, q, p;
        to_lts(&cm, &s, &l);
        uint32_t block[MAXN], keep[MAXN];
        if (co_minimise(&cm, &l, &q, block) < 0) {
            bad_partition++;
            co_lts_free(&cm, &l);
            continue;
        }
        int rel[MAXN][MAXN];
        naive_bisim(&s, rel);
        for (uint32_t x = 0; x < s.n; x++)
            for (uint32_t y = 0; y < s.n; y++)
                bad_partition += (block[x] == block[y]) != rel[x][y];
        /* the quotient's edges: exactly the images */
        size_t images = 0;
        for (uint32_t e = 0; e < s.m; e++) {
            int found = 0, first = 1;
            for (uint32_t g = q.first[block[s.src[e]]]; g < q.first[block[s.src[e]] + 1]; g++)
                found |= q.lab[g] == s.lab[e] && q.dst[g] == block[s.dst[e]];
            for (uint32_t f = 0; f < e; f++)
                first &= !(block[s.src[f]] == block[s.src[e]] && s.lab[f] == s.lab[e] &&
                           block[s.dst[f]] == block[s.dst[e]]);
            images += first;
            bad_quotient += !found;
        }
        bad_quotient += images != q.nedges || q.init != block[0];
        /* states with an infinite run: those that reach a cycle */
        int reach[MAXN][MAXN] = {{0}};
        for (uint32_t e = 0; e < s.m; e++)
            reach[s.src[e]][s.dst[e]] = 1;
        for (uint32_t k = 0; k < s.n; k++)
            for (uint32_t x = 0; x < s.n; x++)
                for (uint32_t y = 0; y < s.n; y++)
                    reach[x][y] |= reach[x][k] && reach[k][y];
        if (co_prune_finite(&cm, &l, &p, keep) < 0) {
            bad_prune++;
        } else {
            uint32_t kept = 0;
            for (uint32_t x = 0; x < s.n; x++) {
                int inf = 0;
                for (uint32_t y = 0; y < s.n; y++)
                    inf |= (x == y || reach[x][y]) && reach[y][y];
                bad_prune += inf != (keep[x] != CO_NONE);
                kept += keep[x] != CO_NONE;
            }
            bad_prune += keep[0] == CO_NONE ? p.nstates != 0 : p.nstates != kept;
            co_lts_free(&cm, &p);
        }
        co_lts_free(&cm, &q);
        co_lts_free(&cm, &l);
    }
    CHECK(bad_partition == 0, "strong bisimulation: 3000 random LTSs partitioned as the greatest "
          "bisimulation (%d pairs differ)", bad_partition);
    CHECK(bad_quotient == 0, "strong bisimulation: every quotient's edges are the images (%d wrong)",
          bad_quotient);
    CHECK(bad_prune == 0, "the states with an infinite run are those that reach a cycle (%d wrong)",
          bad_prune);
    CHECK(cm.used == 0, "every array given back to the account (%zu bytes left)", cm.used);
}

/* ---- random parallel systems ---- */

#define NLABELS 6
static const char *const labels[NLABELS] = { "a", "b", "c", "d", "e", "f" };

static char tmpdir[256];

/* A random system of 2 to 4 LTSs as a RERS .dot file; path gets its name. */
static void random_system(char *path, size_t n, int serial)
{
    snprintf(path, n, "%s/sys%d.dot", tmpdir, serial);
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    fprintf(f, "digraph G {\n");
    uint32_t nlts = 2 + rnd(3), node = 0;
    for (uint32_t k = 0; k < nlts; k++) {
        uint32_t states = 2 + rnd(3), first = node + 1;
        fprintf(f, "  subgraph c%u {\n    %u -> %u [label=\"\"];\n", k, node, first);
        node = first + states;
        /* its alphabet: a few labels */
        int has[NLABELS] = {0};
        for (int i = 0; i < NLABELS; i++)
            has[i] = rnd(3) == 0;
        has[rnd(NLABELS)] = 1;
        uint32_t edges = states + rnd(states + 2);
        for (uint32_t e = 0; e < edges; e++) {
            int l;
            do
                l = (int)rnd(NLABELS);
            while (!has[l]);
            fprintf(f, "    %u -> %u [label=\"%s\"];\n", first + rnd(states), first + rnd(states),
                    labels[l]);
        }
        fprintf(f, "  }\n");
    }
    fprintf(f, "}\n");
    fclose(f);
}

/* The action proposition of a label: its transitions. */
static tree_t *label_atom(const net_t *net, int l)
{
    const rers_model *m = rers_model_of(net);
    int64_t x = rers_find_label(m, labels[l]);
    if (x < 0)
        return tree_action(NULL, 0);
    uint32_t *ts = malloc((m->label_count[x] + 1) * sizeof *ts);
    for (uint32_t i = 0; i < m->label_count[x]; i++)
        ts[i] = m->label_first[x] + i;
    tree_t *t = tree_action(ts, m->label_count[x]);
    free(ts);
    return t;
}

static tree_t *random_formula(const net_t *net, int depth)
{
    uint32_t pick = depth <= 0 ? 0 : rnd(10);
    switch (pick) {
    case 0:
    case 1:
        return rnd(12) == 0 ? tree_const(1) : label_atom(net, (int)rnd(NLABELS));
    case 2:
        return tree_unary(T_NOT, random_formula(net, depth - 1));
    case 3:
        return tree_unary(T_X, random_formula(net, depth - 1));
    case 4:
        return tree_unary(T_F, random_formula(net, depth - 1));
    case 5:
        return tree_unary(T_G, random_formula(net, depth - 1));
    case 6:
        return tree_binary(T_U, random_formula(net, depth - 1), random_formula(net, depth - 1));
    case 7:
        return tree_binary(T_R, random_formula(net, depth - 1), random_formula(net, depth - 1));
    case 8:
        return tree_binary(T_AND, random_formula(net, depth - 1), random_formula(net, depth - 1));
    default:
        return tree_binary(T_OR, random_formula(net, depth - 1), random_formula(net, depth - 1));
    }
}

typedef struct tally {
    int runs, disagree, unknown, bad_runs, yes, no;
    int refusals_allowed, refused;  /* one-hot groups need not be the LTSs */
    char first[400];
} tally;

static const compose_tuning tunings[] = {
    { (uint64_t)1 << 17, (uint64_t)1 << 16, (uint64_t)1 << 20, 0, 0 },   /* the default, composing alone */
    { 0, UINT64_MAX, 0, 0, 0 },       /* everything composed, no first look */
    { 0, 0, 0, 0, 0 },                /* nothing composed: the components explored */
    { 0, 6, 0, 0, 0 },                /* some composed, the rest explored */
    { 4, UINT64_MAX, 0, 0, 0 },       /* a first look too short to answer, then all */
    { 0, 0, UINT64_MAX, 0, 0 },       /* without X: the snowball, unnamed steps hidden */
    { 0, 0, 12, 0, 0 },               /* the snowball stopped early, the rest explored with it */
    /* context constraints: each product cut to what the parts outside take part in */
    { 0, UINT64_MAX, 0, 0, UINT64_MAX },
    { 0, 6, 0, 0, UINT64_MAX },
    { 0, 0, UINT64_MAX, 0, UINT64_MAX },
    { 0, 0, 12, 0, UINT64_MAX },
    { 0, UINT64_MAX, 0, 0, 3 },    /* every cut past its bound: nothing cut */
};
#define NTUNINGS (sizeof tunings / sizeof tunings[0])

static void compare_on(net_t *net, const tree_t *f, int stutter, tally *t, const char *what)
{
    const cnet_t *cn = nc_compile(net);
    budget_t b = unit_budget(0, 0);
    check_options opt = { .budget = &b, .want_run = 1, .ltl_infinite_only = !stutter };
    result_t ref;
    result_init(&ref);
    ltl_run(cn, f, &opt, stutter ? LTL_STUTTER : LTL_INFINITE, &ref);
    for (size_t k = 0; k < NTUNINGS; k++) {
        result_t r;
        result_init(&r);
        compose_run_tuned(cn, f, KIND_LTL, &opt, &tunings[k], &r);
        t->runs++;
        if (t->refusals_allowed && r.answer == ANSWER_UNKNOWN && !strncmp(r.reason, "compose: ", 9)) {
            t->refused++;
        } else if (r.answer == ANSWER_UNKNOWN || ref.answer == ANSWER_UNKNOWN) {
            t->unknown++;
            if (!t->first[0])
                snprintf(t->first, sizeof t->first, "%s, tuning %zu: unknown (%s / %s)", what, k,
                         r.reason, ref.reason);
        } else if (r.answer != ref.answer) {
            t->disagree++;
            if (!t->first[0]) {
                char *s = tree_to_string(f);
                snprintf(t->first, sizeof t->first, "%s, tuning %zu: %s says %s, explicit %s", what,
                         k, s ? s : "?", r.answer == ANSWER_YES ? "YES" : "NO",
                         ref.answer == ANSWER_YES ? "YES" : "NO");
                free(s);
            }
        } else if (r.answer == ANSWER_NO) {
            char why[200];
            t->no++;
            if (!run_refutes(net, &r, f, stutter, why, sizeof why)) {
                t->bad_runs++;
                if (!t->first[0])
                    snprintf(t->first, sizeof t->first, "%s, tuning %zu: counterexample: %s", what,
                             k, why);
            }
        } else {
            t->yes++;
        }
        result_clear(&r);
    }
    result_clear(&ref);
}

static void report(const tally *t, const char *what)
{
    CHECK(t->disagree == 0 && t->unknown == 0 && t->bad_runs == 0 && 4 * t->refused <= t->runs,
          "%s: %d answers (%d YES, %d NO, %d refused) of every way of composing equal the "
          "explicit checker's, every counterexample a lasso of the net that refutes the "
          "formula%s%s", what, t->runs, t->yes, t->no, t->refused,
          t->first[0] ? ": first failure: " : "", t->first);
}

static void check_random_systems(void)
{
    tally plain = {0}, stutter = {0}, per_transition = {0}, onehot = {0};
    /* one-hot groups are place invariants, not always the LTSs: a group
     * across two of them is refused with the reason, never answered wrong */
    onehot.refusals_allowed = 1;
    for (int sys = 0; sys < 400; sys++) {
        char path[512];
        random_system(path, sizeof path, sys);
        net_t *net = rers_read(path);
        unlink(path);
        if (!net) {
            plain.disagree++;
            snprintf(plain.first, sizeof plain.first, "random system %d does not read", sys);
            continue;
        }
        for (int k = 0; k < 4; k++) {
            tree_t *f = random_formula(net, 3);
            compare_on(net, f, 0, &plain, "deadlocks ignored");
            compare_on(net, f, 1, &stutter, "deadlocks repeat");
            tree_free(f);
        }
        /* without the reader's actions: one action a transition */
        uint32_t *acts = net->transition_actions;
        net->transition_actions = NULL;
        tree_t *f = random_formula(net, 3);
        compare_on(net, f, 0, &per_transition, "one action a transition");
        net->transition_actions = acts;
        /* without units: components from one-hot groups */
        size_t nunits = net->nunits;
        net->nunits = 0;
        compare_on(net, f, 0, &onehot, "components from one-hot groups");
        net->nunits = nunits;
        tree_free(f);
        nc_free_net(net);
    }
    report(&plain, "400 random parallel systems, deadlocks ignored (RERS)");
    report(&stutter, "the same, deadlocks repeating");
    report(&per_transition, "the same without the reader's actions");
    report(&onehot, "the same without units (one-hot groups; at most a quarter refused)");
}

/* ---- hand-made systems ---- */

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

static tree_t *atom(const net_t *net, const char *label)
{
    const rers_model *m = rers_model_of(net);
    int64_t x = rers_find_label(m, label);
    uint32_t ts[16], n = 0;
    for (uint32_t i = 0; x >= 0 && i < m->label_count[x] && n < 16; i++)
        ts[n++] = m->label_first[x] + i;
    return tree_action(ts, n);
}

/* docs/compose.md: compressing A's two o's while B still interleaves
 * would lose the word "o y o x". */
static void check_interleaved_positions(void)
{
    static const char text[] =
        "digraph G {\n"
        "  subgraph A { s -> a0 [label=\"\"]; a0 -> a1 [label=\"o\"]; a1 -> a2 [label=\"o\"];\n"
        "               a2 -> a3 [label=\"x\"]; a3 -> a3 [label=\"w\"]; }\n"
        "  subgraph B { t -> b0 [label=\"\"]; b0 -> b1 [label=\"y\"]; b1 -> b1 [label=\"v\"]; }\n"
        "}\n";
    net_t *net = read_text(text, "interleaved");
    if (!net) {
        CHECK(0, "the interleaving example reads");
        return;
    }
    /* !F(o & F(y & F(o & F x))) */
    tree_t *f = tree_unary(T_NOT, tree_unary(T_F, tree_binary(T_AND, atom(net, "o"),
        tree_unary(T_F, tree_binary(T_AND, atom(net, "y"), tree_unary(T_F,
            tree_binary(T_AND, atom(net, "o"), tree_unary(T_F, atom(net, "x")))))))));
    const cnet_t *cn = nc_compile(net);
    budget_t b = unit_budget(0, 0);
    check_options opt = { .budget = &b, .want_run = 1, .ltl_infinite_only = 1 };
    int all_no = 1, runs_ok = 1;
    char why[200] = "";
    for (size_t k = 0; k < NTUNINGS; k++) {
        result_t r;
        result_init(&r);
        compose_run_tuned(cn, f, KIND_LTL, &opt, &tunings[k], &r);
        all_no &= r.answer == ANSWER_NO;
        if (r.answer == ANSWER_NO)
            runs_ok &= run_refutes(net, &r, f, 0, why, sizeof why);
        result_clear(&r);
    }
    CHECK(all_no && runs_ok, "A = o o x beside B = y: the word o y o x is kept by every way of "
          "composing (NO, with a counterexample that refutes the formula%s%s)", why[0] ? ": " : "",
          why);
    tree_free(f);
    nc_free_net(net);
}

/* The same with steps no proposition names: with u unnamed, hiding A's
 * two u steps would lose the 0 between y and x of "u y u x" (the gap
 * flag of docs/compose.md keeps it). */
static void check_interleaved_gaps(void)
{
    static const char text[] =
        "digraph G {\n"
        "  subgraph A { s -> a0 [label=\"\"]; a0 -> a1 [label=\"u\"]; a1 -> a2 [label=\"u\"];\n"
        "               a2 -> a3 [label=\"x\"]; a3 -> a3 [label=\"x\"]; }\n"
        "  subgraph B { t -> b0 [label=\"\"]; b0 -> b1 [label=\"y\"]; b1 -> b1 [label=\"y\"]; }\n"
        "}\n";
    net_t *net = read_text(text, "gaps");
    if (!net) {
        CHECK(0, "the gap example reads");
        return;
    }
    /* !F(!x & !y & F(y & F(!x & !y & F x))) */
    tree_t *f = tree_unary(T_NOT, tree_unary(T_F, tree_binary(T_AND,
        tree_binary(T_AND, tree_unary(T_NOT, atom(net, "x")), tree_unary(T_NOT, atom(net, "y"))),
        tree_unary(T_F, tree_binary(T_AND, atom(net, "y"), tree_unary(T_F, tree_binary(T_AND,
            tree_binary(T_AND, tree_unary(T_NOT, atom(net, "x")), tree_unary(T_NOT, atom(net, "y"))),
            tree_unary(T_F, atom(net, "x")))))))));
    const cnet_t *cn = nc_compile(net);
    budget_t b = unit_budget(0, 0);
    check_options opt = { .budget = &b, .want_run = 1, .ltl_infinite_only = 1 };
    int all_no = 1, runs_ok = 1;
    char why[200] = "";
    for (size_t k = 0; k < NTUNINGS; k++) {
        result_t r;
        result_init(&r);
        compose_run_tuned(cn, f, KIND_LTL, &opt, &tunings[k], &r);
        all_no &= r.answer == ANSWER_NO;
        if (r.answer == ANSWER_NO)
            runs_ok &= run_refutes(net, &r, f, 0, why, sizeof why);
        result_clear(&r);
    }
    CHECK(all_no && runs_ok, "A = u u x beside B = y, u unnamed: the 0 between y and x of u y u x "
          "is kept by every way of composing, the snowball too (NO, with a counterexample%s%s)",
          why[0] ? ": " : "", why);
    tree_free(f);
    nc_free_net(net);
}

/* ---- branching bisimulation with explicit divergence ---- */

#define TAU_LABEL 5

/* Branching bisimulations with explicit divergence (van Glabbeek, Luttik
 * and Trcka 2009), by brute force: every partition of the states is tried
 * (restricted growth strings; Bell(7) = 877 of them), and one is such a
 * bisimulation when for two states x, y of a block every move x -a-> x2
 * is an inert tau-step (into the block) or is matched by tau-steps of y
 * within the block and then an a-step into x2's block, and x has an
 * infinite tau-path within the block exactly when y has.  The coarsest is
 * the union of all, and all others refine it. */
static int in_block_reach(const small_lts *s, const uint32_t *part, uint32_t from, int *seen)
{
    uint32_t queue[MAXN], nq = 0;
    for (uint32_t i = 0; i < s->n; i++)
        seen[i] = 0;
    seen[from] = 1;
    queue[nq++] = from;
    for (uint32_t h = 0; h < nq; h++)
        for (uint32_t e = 0; e < s->m; e++)
            if (s->src[e] == queue[h] && s->lab[e] == TAU_LABEL && !seen[s->dst[e]] &&
                part[s->dst[e]] == part[from]) {
                seen[s->dst[e]] = 1;
                queue[nq++] = s->dst[e];
            }
    return 0;
}

static int diverges_in_block(const small_lts *s, const uint32_t *part, uint32_t from)
{
    int alive[MAXN];
    in_block_reach(s, part, from, alive);
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t i = 0; i < s->n; i++) {
            if (!alive[i])
                continue;
            int succ = 0;
            for (uint32_t e = 0; e < s->m; e++)
                succ |= s->src[e] == i && s->lab[e] == TAU_LABEL && alive[s->dst[e]];
            if (!succ) {
                alive[i] = 0;
                changed = 1;
            }
        }
    }
    for (uint32_t i = 0; i < s->n; i++)
        if (alive[i])
            return 1;
    return 0;
}

static int is_branching(const small_lts *s, const uint32_t *part)
{
    int div[MAXN];
    for (uint32_t x = 0; x < s->n; x++)
        div[x] = diverges_in_block(s, part, x);
    for (uint32_t x = 0; x < s->n; x++)
        for (uint32_t y = 0; y < s->n; y++) {
            if (x == y || part[x] != part[y])
                continue;
            if (div[x] != div[y])
                return 0;
            int seen[MAXN];
            in_block_reach(s, part, y, seen);
            for (uint32_t e = 0; e < s->m; e++) {
                if (s->src[e] != x || (s->lab[e] == TAU_LABEL && part[s->dst[e]] == part[x]))
                    continue;
                int matched = 0;
                for (uint32_t f = 0; f < s->m && !matched; f++)
                    matched = seen[s->src[f]] && s->lab[f] == s->lab[e] &&
                              part[s->dst[f]] == part[s->dst[e]];
                if (!matched)
                    return 0;
            }
        }
    return 1;
}

/* rel[x][y]: x and y in one block of the coarsest such partition; 0 when
 * the valid partitions do not all refine the one with fewest blocks. */
static int brute_branching(const small_lts *s, int rel[MAXN][MAXN])
{
    uint32_t part[MAXN] = {0}, maxp[MAXN] = {0}, best[MAXN], nbest = CO_NONE;
    uint32_t n = s->n;
    /* first pass: the valid partition with fewest blocks */
    for (int pass = 0; pass < 2; pass++) {
        memset(part, 0, sizeof part);
        for (;;) {
            uint32_t blocks = 0;
            for (uint32_t i = 0; i < n; i++)
                blocks = part[i] + 1 > blocks ? part[i] + 1 : blocks;
            if (is_branching(s, part)) {
                if (pass == 0 && blocks < nbest) {
                    nbest = blocks;
                    memcpy(best, part, sizeof part);
                } else if (pass == 1) {
                    /* must refine best */
                    for (uint32_t i = 0; i < n; i++)
                        for (uint32_t j = 0; j < n; j++)
                            if (part[i] == part[j] && best[i] != best[j])
                                return 0;
                }
            }
            /* next restricted growth string */
            int i = (int)n - 1;
            while (i > 0) {
                uint32_t m = 0;
                for (int k = 0; k < i; k++)
                    m = part[k] > m ? part[k] : m;
                if (part[i] <= m) {
                    part[i]++;
                    for (uint32_t k = (uint32_t)i + 1; k < n; k++)
                        part[k] = 0;
                    break;
                }
                i--;
            }
            if (i <= 0)
                break;
        }
    }
    (void)maxp;
    for (uint32_t x = 0; x < n; x++)
        for (uint32_t y = 0; y < n; y++)
            rel[x][y] = best[x] == best[y];
    return 1;
}

static void check_branching(void)
{
    budget_t b = unit_budget(0, 0);
    co_mem cm = { .budget = &b, .limit = (size_t)1 << 30 };
    int bad = 0, bad_quotient = 0, bad_signatures = 0, rounds = 0;
    for (int round = 0; round < 600; round++) {
        small_lts s;
        random_lts(&s);
        if (s.n > 7) {
            s.n = 7;
            for (uint32_t e = 0; e < s.m; e++) {
                s.src[e] %= 7;
                s.dst[e] %= 7;
            }
        }
        /* about half the edges tau */
        for (uint32_t e = 0; e < s.m; e++)
            if (rnd(2))
                s.lab[e] = TAU_LABEL;
        co_lts l, q;
        to_lts(&cm, &s, &l);
        uint32_t block[MAXN];
        if (co_minimise_branching(&cm, &l, TAU_LABEL, &q, block) < 0) {
            bad++;
            co_lts_free(&cm, &l);
            continue;
        }
        rounds++;
        int rel[MAXN][MAXN];
        if (!brute_branching(&s, rel)) {
            bad++;
            co_lts_free(&cm, &q);
            co_lts_free(&cm, &l);
            continue;
        }
        for (uint32_t x = 0; x < s.n; x++)
            for (uint32_t y = 0; y < s.n; y++)
                bad += (block[x] == block[y]) != rel[x][y];
        /* the reference, by signatures, against the same definition */
        co_lts q2;
        uint32_t block2[MAXN];
        if (co_minimise_branching_signatures(&cm, &l, TAU_LABEL, &q2, block2) < 0) {
            bad++;
        } else {
            for (uint32_t x = 0; x < s.n; x++)
                for (uint32_t y = 0; y < s.n; y++)
                    bad_signatures += (block2[x] == block2[y]) != rel[x][y];
            co_lts_free(&cm, &q2);
        }
        /* the quotient: every edge's image but inert taus, a tau-loop on
         * divergent blocks, nothing else */
        for (uint32_t e = 0; e < s.m; e++) {
            uint32_t bs = block[s.src[e]], bd = block[s.dst[e]];
            if (s.lab[e] == TAU_LABEL && bs == bd)
                continue;
            int found = 0;
            for (uint32_t g = q.first[bs]; g < q.first[bs + 1]; g++)
                found |= q.lab[g] == s.lab[e] && q.dst[g] == bd;
            bad_quotient += !found;
        }
        for (uint32_t x = 0; x < q.nstates; x++)
            for (uint32_t g = q.first[x]; g < q.first[x + 1]; g++) {
                int from_edge = 0;
                for (uint32_t e = 0; e < s.m; e++)
                    from_edge |= block[s.src[e]] == x && s.lab[e] == q.lab[g] &&
                                 block[s.dst[e]] == q.dst[g];
                int div_loop = 0;
                if (q.lab[g] == TAU_LABEL && q.dst[g] == x)
                    for (uint32_t y = 0; y < s.n; y++)
                        div_loop |= block[y] == x && diverges_in_block(&s, block, y);
                bad_quotient += !(from_edge && !(q.lab[g] == TAU_LABEL && q.dst[g] == x)) &&
                                !div_loop;
            }
        co_lts_free(&cm, &q);
        co_lts_free(&cm, &l);
    }
    CHECK(bad == 0 && rounds == 600, "branching bisimulation with explicit divergence: %d random LTSs "
          "with tau partitioned as the coarsest of all partitions that are one (%d pairs differ)",
          rounds, bad);
    CHECK(bad_signatures == 0, "the same by signature refinement, the reference (%d pairs differ)",
          bad_signatures);
    CHECK(bad_quotient == 0, "its quotients: the images of the edges but inert taus, and a "
          "tau-loop on each divergent block (%d wrong)", bad_quotient);
    CHECK(cm.used == 0, "every array given back to the account (%zu bytes left)", cm.used);
}

/* ---- limits and refusals ---- */

static void check_limits(void)
{
    /* four cycles of 8 local steps each: 4096 states */
    char text[4096];
    size_t at = (size_t)snprintf(text, sizeof text, "digraph G {\n");
    for (int k = 0; k < 4; k++) {
        at += (size_t)snprintf(text + at, sizeof text - at, "  subgraph L%d { s%d -> n%d_0 [label=\"\"];\n",
                               k, k, k);
        for (int i = 0; i < 8; i++)
            at += (size_t)snprintf(text + at, sizeof text - at,
                                   "    n%d_%d -> n%d_%d [label=\"l%d_%d\"];\n", k, i, k, (i + 1) % 8,
                                   k, i);
        at += (size_t)snprintf(text + at, sizeof text - at, "  }\n");
    }
    snprintf(text + at, sizeof text - at, "}\n");
    net_t *net = read_text(text, "limits");
    if (!net) {
        CHECK(0, "the limits example reads");
        return;
    }
    const cnet_t *cn = nc_compile(net);
    /* G(lk_0 -> X !lk_0) for every k: true, and a cycle with one step
     * seen stays 8 states, so the product of all must be searched */
    tree_t *f = NULL;
    for (int k = 0; k < 4; k++) {
        char name[16];
        snprintf(name, sizeof name, "l%d_0", k);
        tree_t *g = tree_unary(T_G, tree_binary(T_IMPLIES, atom(net, name),
                                                tree_unary(T_X, tree_unary(T_NOT, atom(net, name)))));
        f = f ? tree_binary(T_AND, f, g) : g;
    }
    static const compose_tuning all = { 0, UINT64_MAX, 0, 0, 0 }, none = { 0, 0, 0, 0, 0 };
    struct {
        const char *what, *reason;
        double seconds;
        size_t bytes;
        uint64_t states;
        int interrupt;
        const compose_tuning *t;
    } cases[] = {
        { "-m 100, composing", "state limit reached", 0, 0, 100, 0, &all },
        { "-m 100, explored together", "state limit reached", 0, 0, 100, 0, &none },
        { "--mem of 20 kB", "memory budget exhausted", 0, 20000, 0, 0, &all },
        { "a deadline already past", "time limit reached", 1e-9, 0, 0, 0, &none },
        { "SIGINT", "interrupted", 0, 0, 0, 1, &all },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        volatile int flag = cases[i].interrupt;
        budget_t b;
        budget_init(&b, &flag);
        budget_set_limits(&b, cases[i].seconds, cases[i].bytes, NULL);
        if (cases[i].seconds)
            usleep(2000);
        check_options opt = { .budget = &b, .want_run = 1, .ltl_infinite_only = 1,
                              .max_states = cases[i].states };
        result_t r;
        result_init(&r);
        compose_run_tuned(cn, f, KIND_LTL, &opt, cases[i].t, &r);
        CHECK(r.answer == ANSWER_UNKNOWN && !strcmp(r.reason, cases[i].reason),
              "%s: UNKNOWN (%s) (got %s, \"%s\")", cases[i].what, cases[i].reason,
              r.answer == ANSWER_UNKNOWN ? "UNKNOWN" : r.answer == ANSWER_YES ? "YES" : "NO",
              r.reason);
        result_clear(&r);
    }
    /* the same without limits: answered */
    budget_t b = unit_budget(0, 0);
    check_options opt = { .budget = &b, .want_run = 1, .ltl_infinite_only = 1 };
    result_t r;
    result_init(&r);
    compose_run_tuned(cn, f, KIND_LTL, &opt, &all, &r);
    CHECK(r.answer == ANSWER_YES, "without limits G(lk_0 -> X !lk_0) holds there (got %d, %s)",
          r.answer, r.reason);
    result_clear(&r);
    tree_free(f);
    nc_free_net(net);

    /* a net that is no product of sequential components: two tokens */
    net_t *two = nc_create_net("two", NULL);
    nc_create_place(two, "p", NULL, 2);
    nc_create_place(two, "q", NULL, 0);
    int t = nc_create_transition(two, "t", NULL);
    nc_create_arc(two, NC_ARC_PT, 0, (uint32_t)t, 1, 0);
    nc_create_arc(two, NC_ARC_TP, 1, (uint32_t)t, 1, 0);
    uint32_t tt = 0;
    tree_t *g = tree_unary(T_G, tree_unary(T_NOT, tree_action(&tt, 1)));
    compose_tuning alone = compose_default_tuning;
    alone.stubborn_after = 0;
    check_options fin = opt;
    fin.ltl_infinite_only = 0;
    result_init(&r);
    compose_run_tuned(nc_compile(two), g, KIND_LTL, &fin, &alone, &r);
    CHECK(r.answer == ANSWER_UNKNOWN && !strncmp(r.reason, "compose: ", 9),
          "a place of two tokens: UNKNOWN with the reason (got \"%s\")", r.reason);
    result_clear(&r);
    /* the checker as users pick it: what composing cannot take, the
     * stubborn search of the net answers, with a run of the net (t t,
     * then the deadlock repeating) */
    result_init(&r);
    compose_run(nc_compile(two), g, KIND_LTL, &fin, &r);
    CHECK(r.answer == ANSWER_NO && r.role == RUN_COUNTEREXAMPLE && r.run_len == 2 &&
              r.run[0] == (uint32_t)t && r.run[1] == (uint32_t)t && r.loop_start == 2 &&
              strstr(r.techniques, "COMPOSITIONAL"),
          "a place of two tokens, G !t with finite runs repeating: NO by the stubborn search "
          "after composing refused, run t t (got %d, %zu steps, loop at %zu, \"%s\", %s)",
          r.answer, r.run_len, r.loop_start, r.reason, r.techniques);
    result_clear(&r);
    tree_free(g);
    nc_free_net(two);

    /* what the row refuses */
    char why[200];
    lin_term term = { 0, 1 };
    tree_t *cmp = tree_unary(T_F, tree_cmp(&term, 1, -1, REL_GE));
    CHECK(!compose_accepts(cmp, KIND_LTL, why, sizeof why) && strstr(why, "actions"),
          "a place atom is refused: %s", why);
    tree_t *ctl = tree_unary(T_AG, tree_const(1));
    CHECK(!compose_accepts(ctl, KIND_CTL, why, sizeof why), "ctl is refused: %s", why);
    tree_free(cmp);
    tree_free(ctl);
}

/* ---- the published answers ---- */

/* The RERS 2016 problems 101-106 and the hand-made toy (with answers),
 * composed all the way down to one LTS and composed in part: every answer
 * the published one, every counterexample refuting its formula. */
static void check_published(void)
{
    const char *sh = getenv("SHARED"), *top = getenv("TOP");
    char dir[512];
    if (sh && *sh)
        snprintf(dir, sizeof dir, "%s/rers", sh);
    else
        snprintf(dir, sizeof dir, "%s/../shared/rers", top && *top ? top : ".");
    if (access(dir, R_OK)) {
        SKIP("the published RERS answers: %s is absent", dir);
        return;
    }
    static const compose_tuning two[] = { { 0, UINT64_MAX, 0, 0, 0 }, { 0, 6, 0, 0, 0 },
                                           { 0, 0, UINT64_MAX, 0, 0 }, { 0, 0, 300, 0, 0 } };
    static const char *const systems[] = {
        "handmade/toy.dot", "handmade/toy-properties-with-solution.txt",
        "rers2016/problem101.dot", "rers2016/problem101-properties-with-solution.txt",
        "rers2016/problem102.dot", "rers2016/problem102-properties-with-solution.txt",
        "rers2016/problem103.dot", "rers2016/problem103-properties-with-solution.txt",
        "rers2016/problem104.dot", "rers2016/problem104-properties-with-solution.txt",
        "rers2016/problem105.dot", "rers2016/problem105-properties-with-solution.txt",
        "rers2016/problem106.dot", "rers2016/problem106-properties-with-solution.txt",
    };
    for (size_t k = 0; k < 4; k++) {
        tally t = {0};
        size_t props = 0;
        for (size_t i = 0; i < sizeof systems / sizeof systems[0]; i += 2) {
            char dot[700], file[700];
            snprintf(dot, sizeof dot, "%s/%s", dir, systems[i]);
            snprintf(file, sizeof file, "%s/%s", dir, systems[i + 1]);
            net_t *net = rers_read(dot);
            prop_entry *v = NULL;
            size_t n = 0;
            if (!net || rers_properties(file, net, &v, &n) < 0) {
                t.disagree++;
                snprintf(t.first, sizeof t.first, "%s does not read", systems[i]);
                nc_free_net(net);
                continue;
            }
            const cnet_t *cn = nc_compile(net);
            for (size_t j = 0; j < n; j++) {
                budget_t b = unit_budget(0, 0);
                check_options opt = { .budget = &b, .want_run = 1, .ltl_infinite_only = 1 };
                result_t r;
                result_init(&r);
                compose_run_tuned(cn, v[j].formula, KIND_LTL, &opt, &two[k], &r);
                answer_t want = v[j].expected == 1 ? ANSWER_YES : ANSWER_NO;
                props++;
                t.runs++;
                char why[200] = "";
                if (r.answer != want || (r.answer == ANSWER_NO &&
                                         !run_refutes(net, &r, v[j].formula, 0, why, sizeof why))) {
                    t.disagree++;
                    if (!t.first[0])
                        snprintf(t.first, sizeof t.first, "%s %s: %s%s%s", systems[i], v[j].name,
                                 r.answer == want ? "the counterexample" : "the answer",
                                 why[0] ? ": " : "", why);
                }
                t.yes += r.answer == ANSWER_YES;
                t.no += r.answer == ANSWER_NO;
                result_clear(&r);
            }
            prop_list_free(v, n);
            nc_free_net(net);
        }
        CHECK(t.disagree == 0 && props == 130,
              "the 130 published RERS answers (2016 101-106, toy) %s: %zu properties, %d YES, %d "
              "NO, every counterexample refuting its formula%s%s",
              k == 3 ? "in a snowball stopped at 300 pairs, the rest explored with it" :
              k == 2 ? "in a snowball, unnamed steps hidden (without X)" :
              k ? "composed in part, the rest explored" : "composed down to one LTS", props, t.yes,
              t.no, t.first[0] ? ": " : "", t.first);
    }
}

/* ---- context constraints on random LTSs ----
 * co_context_cut against its definition: the edges of P that a reachable
 * pair of P x E takes, with P's edges of the shared labels moving with
 * one of E's of the same label and every other edge of either moving its
 * side alone, searched here over a matrix of pairs; and co_context_keep
 * keeps exactly the states those edges reach from the start. */
static void check_context(void)
{
    budget_t b = unit_budget(0, 0);
    co_mem cm = { .budget = &b, .limit = (size_t)1 << 30 };
    int bad_cut = 0, bad_keep = 0, bad_by = 0, by_searched = 0, failed = 0;
    size_t edges = 0, cut = 0;
    for (int round = 0; round < 3000; round++) {
        small_lts sp, se;
        random_lts(&sp);
        random_lts(&se);
        uint8_t iface[8] = {0};
        for (uint32_t a = 5; a < 8; a++)
            iface[a] = rnd(2);
        co_lts p, e, out;
        to_lts(&cm, &sp, &p);
        to_lts(&cm, &se, &e);
        uint8_t alive[40];
        memset(alive, 1, sizeof alive);
        if (co_context_cut(&cm, &p, alive, 0, 8, &e, 8, iface, 1000) != 1) {
            failed++;
            goto next;
        }
        /* the definition */
        int seen[MAXN][MAXN] = {{0}};
        uint8_t used[40] = {0};
        seen[p.init][e.init] = 1;
        for (int changed = 1; changed;) {
            changed = 0;
            for (uint32_t x = 0; x < p.nstates; x++)
                for (uint32_t y = 0; y < e.nstates; y++) {
                    if (!seen[x][y])
                        continue;
                    for (uint32_t i = p.first[x]; i < p.first[x + 1]; i++) {
                        if (!iface[p.lab[i]]) {
                            used[i] = 1;
                            if (!seen[p.dst[i]][y])
                                changed = seen[p.dst[i]][y] = 1;
                            continue;
                        }
                        for (uint32_t j = e.first[y]; j < e.first[y + 1]; j++)
                            if (e.lab[j] == p.lab[i]) {
                                used[i] = 1;
                                if (!seen[p.dst[i]][e.dst[j]])
                                    changed = seen[p.dst[i]][e.dst[j]] = 1;
                            }
                    }
                    for (uint32_t j = e.first[y]; j < e.first[y + 1]; j++)
                        if (!iface[e.lab[j]] && !seen[x][e.dst[j]])
                            changed = seen[x][e.dst[j]] = 1;
                }
        }
        for (uint32_t i = 0; i < p.nedges; i++) {
            bad_cut += alive[i] != used[i];
            edges++;
            cut += !alive[i];
        }
        /* by E's interface (E determinised and minimised on the shared
         * labels) the same edges go; when that interface is free, none */
        uint8_t alive_by[40];
        memset(alive_by, 1, sizeof alive_by);
        int r = co_context_by(&cm, &p, alive_by, 0, 8, &e, 8, iface, 1000);
        if (r < 0) {
            failed++;
            goto next;
        }
        by_searched += r;
        /* (on the edges of what P's start reaches, as products are) */
        int from[MAXN] = {0};
        from[p.init] = 1;
        for (int changed = 1; changed;) {
            changed = 0;
            for (uint32_t x = 0; x < p.nstates; x++)
                for (uint32_t i = p.first[x]; from[x] && i < p.first[x + 1]; i++)
                    if (!from[p.dst[i]])
                        changed = from[p.dst[i]] = 1;
        }
        for (uint32_t x = 0; x < p.nstates; x++)
            for (uint32_t i = p.first[x]; from[x] && i < p.first[x + 1]; i++)
                bad_by += alive_by[i] != used[i];
        uint32_t keep[MAXN];
        if (co_context_keep(&cm, &p, alive, &out, keep) < 0) {
            failed++;
            goto next;
        }
        /* kept: reached from the start by used edges; numbered in order */
        int reach[MAXN] = {0};
        reach[p.init] = 1;
        for (int changed = 1; changed;) {
            changed = 0;
            for (uint32_t x = 0; x < p.nstates; x++)
                for (uint32_t i = p.first[x]; reach[x] && i < p.first[x + 1]; i++)
                    if (used[i] && !reach[p.dst[i]])
                        changed = reach[p.dst[i]] = 1;
        }
        uint32_t k = 0;
        size_t kept_edges = 0;
        for (uint32_t x = 0; x < p.nstates; x++) {
            bad_keep += reach[x] ? keep[x] != k++ : keep[x] != CO_NONE;
            for (uint32_t i = p.first[x]; reach[x] && i < p.first[x + 1]; i++)
                kept_edges += used[i];
        }
        bad_keep += out.nstates != k || out.nedges != kept_edges || out.init != keep[p.init];
        co_lts_free(&cm, &out);
    next:
        co_lts_free(&cm, &p);
        co_lts_free(&cm, &e);
    }
    CHECK(failed == 0, "context: every cut searched (%d not)", failed);
    CHECK(bad_cut == 0, "context: the edges cut are those no reachable pair takes (%d differ)",
          bad_cut);
    CHECK(bad_keep == 0, "context: the states kept are those the edges left reach (%d differ)",
          bad_keep);
    CHECK(cut > 0 && cut < edges, "context: some edges cut, not all (%zu of %zu)", cut, edges);
    CHECK(bad_by == 0 && by_searched > 0 && by_searched < 3000,
          "context: by the neighbour's interface the same edges are cut (%d differ; %d of 3000 "
          "searched, the others free)", bad_by, by_searched);
    /* past its bound a cut searches nothing and cuts nothing */
    small_lts sp, se;
    random_lts(&sp);
    random_lts(&se);
    co_lts p, e;
    to_lts(&cm, &sp, &p);
    to_lts(&cm, &se, &e);
    uint8_t alive[40], iface[8] = {0, 0, 0, 0, 0, 1, 1, 1};
    memset(alive, 1, sizeof alive);
    int r = co_context_cut(&cm, &p, alive, 0, 8, &e, 8, iface, 0);
    int all = 1;
    for (uint32_t i = 0; i < p.nedges; i++)
        all &= alive[i];
    CHECK(r == 0 && all, "context: a cut past its bound cuts nothing (%d)", r);
    co_lts_free(&cm, &p);
    co_lts_free(&cm, &e);
}

int main(void)
{
    const char *t = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/mck_compose.XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(tmpdir)) {
        CHECK(0, "a scratch folder");
        UNIT_DONE();
    }
    check_bisim();
    check_context();
    check_branching();
    check_random_systems();
    check_interleaved_positions();
    check_interleaved_gaps();
    check_limits();
    check_published();
    rmdir(tmpdir);
    UNIT_DONE();
}
