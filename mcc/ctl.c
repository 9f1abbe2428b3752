/* CTLCardinality and CTLFireability: every formula of the file, cheapest
 * argument first.
 *   1. The structure simplifies each formula: a transition that can never
 *      fire is never fireable, a comparison over places no firing changes
 *      is a constant (TOPOLOGICAL).
 *   2. A three-valued evaluation at the initial marking settles what the
 *      initial marking alone decides (E F φ where φ holds now, A G φ where
 *      it fails now, anything at an initial deadlock, ...).
 *   3. "Facts" about the E F ψ and A G ψ (ψ a state formula) that sit
 *      under boolean operators only: the state equation can show ψ (or ¬ψ)
 *      unreachable, the exploration can meet a marking with ψ (or ¬ψ); each
 *      new fact re-runs step 2 with it, so such formulas are answered
 *      without waiting for the whole state space.
 *   4. Each open formula gets the net reduced for what it observes
 *      (reduce/reduce.h, branching: the reduced net's reachable graph is
 *      bisimilar to the given one's, up to steps nobody observes when the
 *      formula has no X), and the searches below run on that net
 *      (STRUCTURAL_REDUCTION).
 *   5. The local check (checkers/ctl/ctllocal.c) on each open formula in turn,
 *      within a share of the time: it explores only the markings the
 *      formula's value depends on, which answers many formulas on state
 *      spaces far too big to build.
 *   6. One exploration records the reachability graph with the atoms of
 *      all open formulas (checkers/ctl/ctl.h), on the net reduced for all
 *      of them; once complete, each is evaluated on it, with the run that
 *      shows it where there is one (expanded into a run of the given net).
 *   7. The dependency graph (checkers/ctl/depgraph.c) on each formula still
 *      open, on its own reduced net, with what time is left.
 * The portfolio's second process runs the dependency graph best-first on
 * what its diagrams leave (mcc_ctl_best_first).
 * When the portfolio's second process has counted the reachable markings
 * with its diagrams, the count moves step 6: into step 5, as soon as the
 * count says the graph surely fits and ends in time, and out when it
 * surely does not (graph_outlook_of). */
#include "base/clock.h"
#include "base/grow.h"
#include "checkers/ctl/ctl.h"
#include "checkers/ctl/depgraph.h"
#include "lp/stateeq.h"
#include "engine/stateeval.h"
#include "formula/mccxml.h"
#include "mcc/internal.h"
#include "mcc/reduced.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define UNKNOWN 2

enum { USED_TOPOLOGICAL = 1, USED_LP = 2, USED_EXPLICIT = 4, USED_STUBBORN = 8,
       USED_REDUCTION = 16 };

/* A top-level E F ψ or A G ψ and what is known of it. */
typedef struct fact {
    const tree_t *node;
    int value;          /* 0, 1 or UNKNOWN */
} fact;

typedef struct ctl_query {
    const char *id;
    tree_t *formula;    /* simplified copy */
    fact *facts;
    size_t nfacts, cap_facts;
    int used;           /* USED_* behind the facts and the simplification */
    int decided;
    char why[96];       /* why the last technique tried left it open */
    mcc_reduced red;    /* the net reduced for this formula (red.cn), or empty */
    tree_t *reduced;    /* the formula renamed into red.cn */
} ctl_query;

/* ---- 2. three-valued evaluation at the initial marking ---- */

static int kleene_not(int a)
{
    return a == UNKNOWN ? UNKNOWN : !a;
}

static int kleene_and(int a, int b)
{
    if (a == 0 || b == 0)
        return 0;
    return a == 1 && b == 1 ? 1 : UNKNOWN;
}

static int kleene_or(int a, int b)
{
    return kleene_not(kleene_and(kleene_not(a), kleene_not(b)));
}

typedef struct tv_ctx {
    const cnet_t *cn;
    const ctl_query *q;
    int dead0;          /* the initial marking is a deadlock */
} tv_ctx;

static int tv(const tv_ctx *c, const tree_t *f)
{
    if (!f)
        return UNKNOWN;
    if (tree_is_state_formula(f)) {
        int v = cn_state_holds(c->cn, f, c->cn->initial);
        return v < 0 ? UNKNOWN : v;
    }
    for (size_t i = 0; i < c->q->nfacts; i++)
        if (c->q->facts[i].node == f && c->q->facts[i].value != UNKNOWN)
            return c->q->facts[i].value;
    int l = tv(c, f->l), r;
    switch (f->op) {
    case T_NOT: return kleene_not(l);
    case T_AND: return kleene_and(l, tv(c, f->r));
    case T_OR: return kleene_or(l, tv(c, f->r));
    case T_IMPLIES: return kleene_or(kleene_not(l), tv(c, f->r));
    case T_IFF:
        r = tv(c, f->r);
        return l == UNKNOWN || r == UNKNOWN ? UNKNOWN : l == r;
    /* at a deadlock the only path is the marking itself (§3.4) */
    case T_EX: return c->dead0 ? 0 : UNKNOWN;
    case T_AX: return c->dead0 ? 1 : UNKNOWN;
    case T_EF: case T_AF: return c->dead0 || l == 1 ? l : UNKNOWN;
    case T_EG: case T_AG: return c->dead0 || l == 0 ? l : UNKNOWN;
    case T_EU: case T_AU:
        r = tv(c, f->r);
        if (c->dead0 || r == 1)
            return r;
        return l == 0 && r == 0 ? 0 : UNKNOWN;
    default:
        return UNKNOWN;
    }
}

/* The portfolio's second process says so in its answers' techniques. */
static void techniques(char *buf, size_t len, int used, int initial)
{
    snprintf(buf, len, "%s%s%s%s%s%s%s",
             mcc_portfolio_second() ? "PARALLEL_PROCESSING" : "SEQUENTIAL_PROCESSING",
             used & USED_TOPOLOGICAL ? " TOPOLOGICAL" : "", initial ? " INITIAL_STATE" : "",
             used & USED_LP ? " LINEAR_EQUATIONS" : "", used & USED_EXPLICIT ? " EXPLICIT" : "",
             used & USED_STUBBORN ? " STUBBORN_SETS" : "",
             used & USED_REDUCTION ? " " TECH_REDUCTION : "");
}

/* Settles q when its value is known at the initial marking. */
static void try_initial(const mcc_run *r, ctl_query *q, int dead0)
{
    if (q->decided)
        return;
    tv_ctx c = {r->cn, q, dead0};
    int v = tv(&c, q->formula);
    if (v == UNKNOWN)
        return;
    char buf[160];
    techniques(buf, sizeof buf, q->used, 1);
    mcc_answer_bool(q->id, v, buf);
    q->decided = 1;
}

/* ---- 3. facts ---- */

static int add_facts(ctl_query *q, const tree_t *t)
{
    if (!t)
        return 0;
    switch (t->op) {
    case T_NOT: case T_AND: case T_OR: case T_IMPLIES: case T_IFF:
        return add_facts(q, t->l) < 0 ? -1 : add_facts(q, t->r);
    case T_EF: case T_AG:
        if (!tree_is_state_formula(t->l))
            return 0;
        if (GROW(q->facts, q->cap_facts, q->nfacts + 1) < 0)
            return -1;
        q->facts[q->nfacts++] = (fact){t, UNKNOWN};
        return 0;
    default:
        return 0;
    }
}

/* ---- 3b. the state equation on every state subformula ----
 *
 * A formula is only ever evaluated at reachable markings, so a state
 * subformula ψ that the state equation shows unreachable is false
 * wherever it is asked, and one whose negation is unreachable is true:
 * either way it becomes a constant, and folding carries the constant up
 * through the temporal operators (E F false = false, A G true = true,
 * E[φ U false] = false, ...).  The state equation over-approximates the
 * reachable markings, so only "unreachable" is ever concluded: sound both
 * ways.  The maximal state subformulas under a temporal operator are tried
 * first (the operands of E F and A G among them), then, for a boolean
 * combination neither side of which was decided, its parts. */

/* Where a state subformula to try hangs, and in which query. */
typedef struct lp_item {
    tree_t **slot;
    size_t query;
} lp_item;

typedef struct lp_work {
    lp_item *at;
    size_t n, cap;
} lp_work;

static int item_push(lp_work *w, tree_t **slot, size_t query)
{
    if (!*slot || (*slot)->op == T_TRUE || (*slot)->op == T_FALSE)
        return 0;
    if (GROW(w->at, w->cap, w->n + 1) < 0)
        return -1;
    w->at[w->n++] = (lp_item){slot, query};
    return 0;
}

/* The maximal state subformulas of *slot that sit under a temporal
 * operator (at the top, the initial marking alone decides them). */
static int collect_state_slots(tree_t **slot, int under, lp_work *w, size_t query)
{
    tree_t *t = *slot;
    if (!t)
        return 0;
    if (tree_is_state_formula(t))
        return under ? item_push(w, slot, query) : 0;
    under |= tree_op_is_ctl(t->op);
    if (collect_state_slots(&t->l, under, w, query) < 0)
        return -1;
    return collect_state_slots(&t->r, under, w, query);
}

/* A state formula the state equation has settled, for the same
 * subformula met again (formulas of one file share many atoms). */
typedef struct lp_known {
    tree_t *phi;
    int value;
} lp_known;

/* 1 or 0 when the state equation makes phi constant at every reachable
 * marking, -1 when it does not.  The initial marking is reachable, so
 * only the constant phi has there can be proven: one linear program. */
static int lp_constant(const cnet_t *cn, const tree_t *phi, double seconds)
{
    int now = cn_state_holds(cn, phi, cn->initial);
    if (now < 0)
        return -1;
    tree_t *other = tree_copy(phi);   /* the value phi would need elsewhere */
    if (other && now)
        other = tree_unary(T_NOT, other);
    int v = other && stateeq_unreachable(cn, other, seconds) == SE_UNREACHABLE ? now : -1;
    tree_free(other);
    return v;
}

/* The operands of the top-level E F and A G (under boolean operators
 * only): what the exploration's facts and the initial marking then
 * settle, tried first as before nested subformulas were. */
static int collect_fact_slots(tree_t **slot, lp_work *w, size_t query)
{
    tree_t *t = *slot;
    if (!t)
        return 0;
    switch (t->op) {
    case T_NOT: case T_AND: case T_OR: case T_IMPLIES: case T_IFF:
        if (collect_fact_slots(&t->l, w, query) < 0)
            return -1;
        return collect_fact_slots(&t->r, w, query);
    case T_EF: case T_AG:
        return tree_is_state_formula(t->l) ? item_push(w, &t->l, query) : 0;
    default:
        return 0;
    }
}

static int pushed(const lp_work *w, size_t upto, tree_t **slot)
{
    for (size_t i = 0; i < upto; i++)
        if (w->at[i].slot == slot)
            return 1;
    return 0;
}

/* One work list over every open query, so that the maximal state
 * subformulas of all of them (the operands of their E F and A G among
 * them) are tried before the parts of any, each in an equal share of what
 * is left of the stage.  Nodes are only replaced at their slots while the
 * list is worked, and each changed formula is folded once at the end. */
static void lp_all(const mcc_run *r, ctl_query *q, size_t n, int dead0, const budget_t *stage)
{
    lp_work w = {0};
    lp_known *known = NULL;
    size_t nknown = 0, cknown = 0, tried = 0, decided = 0;
    int *changed = calloc(n ? n : 1, sizeof *changed);
    if (!changed)
        return;
    for (size_t i = 0; i < n; i++)
        if (!q[i].decided && collect_fact_slots(&q[i].formula, &w, i) < 0)
            goto fold;
    size_t facts = w.n;
    for (size_t i = 0; i < n; i++) {
        if (q[i].decided)
            continue;
        lp_work all = {0};
        if (collect_state_slots(&q[i].formula, 0, &all, i) < 0) {
            free(all.at);
            goto fold;
        }
        for (size_t k = 0; k < all.n; k++)
            if (!pushed(&w, facts, all.at[k].slot) && item_push(&w, all.at[k].slot, i) < 0)
                break;
        free(all.at);
    }
    for (size_t i = 0; i < w.n; i++) {
        tree_t **slot = w.at[i].slot;
        tree_t *phi = *slot;
        int v = -1, seen = 0;
        for (size_t k = 0; k < nknown && !seen; k++)
            if (tree_equal(known[k].phi, phi)) {
                v = known[k].value;
                seen = 1;
            }
        if (!seen) {
            double left = budget_left(stage);
            if (left <= 0)
                break;
            tried++;
            /* the facts share the stage as before; the rest what they leave */
            v = lp_constant(r->cn, phi, left / (double)((i < facts ? facts : w.n) - i));
            tree_t *copy = tree_copy(phi);
            if (copy && GROW(known, cknown, nknown + 1) == 0)
                known[nknown++] = (lp_known){copy, v};
            else
                tree_free(copy);
        }
        if (v >= 0) {
            decided += !seen;
            tree_free(phi);
            *slot = tree_const(v);
            changed[w.at[i].query] = 1;
            continue;
        }
        size_t query = w.at[i].query;
        if (phi->op == T_NOT || phi->op == T_AND || phi->op == T_OR || phi->op == T_IMPLIES ||
            phi->op == T_IFF)
            if (item_push(&w, &phi->l, query) < 0 || item_push(&w, &phi->r, query) < 0)
                break;
    }
fold:
    for (size_t i = 0; i < n; i++) {
        if (!changed[i])
            continue;
        q[i].used |= USED_LP;
        q[i].formula = tree_fold(q[i].formula);
        free(q[i].facts);
        q[i].facts = NULL;
        q[i].nfacts = q[i].cap_facts = 0;
        if (!q[i].formula || add_facts(&q[i], q[i].formula) < 0) {
            fprintf(stderr, "mck mcc: %s: out of memory; left unanswered\n", q[i].id);
            q[i].decided = 1;
        }
        try_initial(r, &q[i], dead0);
    }
    if (r->verbose)
        fprintf(stderr, "mck mcc: %s: the state equation made %zu of %zu state subformulas "
                "constant\n", r->exam, decided, tried);
    for (size_t k = 0; k < nknown; k++)
        tree_free(known[k].phi);
    free(known);
    free(w.at);
    free(changed);
}

/* ---- 4. the net reduced for each formula ---- */

/* Formulas the portfolio's other process answered count as decided. */
static size_t count_open(ctl_query *q, size_t n)
{
    size_t open = 0;
    for (size_t i = 0; i < n; i++) {
        if (!q[i].decided && mcc_portfolio_answered(q[i].id))
            q[i].decided = 1;
        open += !q[i].decided;
    }
    return open;
}

/* Each open formula's reduction, each an equal part of the stage. */
static void reduce_each(const mcc_run *r, ctl_query *q, size_t n)
{
    if (r->no_reduce)
        return;
    budget_t stage = budget_carve(r->budget, CARVE_MCC_REDUCE);
    size_t open = count_open(q, n), tried = open, shrank = 0;
    for (size_t i = 0; i < n && open; i++) {
        if (q[i].decided)
            continue;
        if (budget_left(&stage) <= 0)
            break;
        budget_t part = budget_carve_part(&stage, CARVE_MCC_REDUCE, open--);
        const tree_t *f = q[i].formula;
        if (!mcc_reduce_ctl(r, &f, 1, 0, 0, &part, &q[i].red))
            continue;
        if (!(q[i].reduced = reduce_formula(q[i].red.red, f))) {
            mcc_reduced_free(&q[i].red);
            continue;
        }
        shrank++;
        if (r->verbose)
            fprintf(stderr, "mck mcc: %s: structural reduction: %u places, %u transitions left "
                    "of %u and %u\n", q[i].id, q[i].red.cn->nplaces, q[i].red.cn->ntransitions,
                    r->cn->nplaces, r->cn->ntransitions);
    }
    if (r->verbose)
        fprintf(stderr, "mck mcc: %s: structural reduction made the net smaller for %zu of %zu "
                "formulas\n", r->exam, shrank, tried);
}

/* What the diagrams' count of the reachable markings (the portfolio's
 * second process, when it has one) says of building the whole graph in
 * the bytes and seconds it would get: GRAPH_FITS when it surely fits and
 * ends in time, so that it should come before the local checks are done
 * and decide every formula at once; GRAPH_HOPELESS when it surely does
 * not (its time goes to the dependency graph instead); GRAPH_MAYBE
 * otherwise or when there is no count.  The bounds are loose on purpose,
 * as the graph is built on a net reduced for the formulas open now and
 * the count is of the net reduced for those open when the diagrams began:
 * a marking costs at least GRAPH_STATE_BYTES (its key, its graph
 * entry, an edge or two); no build explores more than GRAPH_FAST markings
 * a second; and the build is taken to go at half the pace the local
 * checks had (per), which follows the machine's load: at 60 s under load
 * the graph made 110,000 to 800,000 markings a second. */
#define GRAPH_STATE_BYTES 48.0
#define GRAPH_FAST 4e6
/* the share of the time left CARVE_MCC_CTL_GRAPH gives */
#define GRAPH_SHARE 0.7
typedef enum { GRAPH_MAYBE, GRAPH_FITS, GRAPH_HOPELESS } graph_outlook;

/* The local checks' pace so far: markings explored and seconds taken. */
typedef struct pace {
    double states, seconds;
} pace;

static graph_outlook graph_outlook_of(uint64_t states, double bytes, double seconds,
                                      const pace *per)
{
    double n = (double)states;
    if (n * GRAPH_STATE_BYTES > bytes || (seconds > 0 && n > GRAPH_FAST * seconds))
        return GRAPH_HOPELESS;
    /* a second of local checks at least, for a pace worth trusting */
    if (per && per->seconds >= 1.0 && n * GRAPH_STATE_BYTES * 4 <= bytes && seconds > 0 &&
        n <= 0.5 * per->states / per->seconds * seconds)
        return GRAPH_FITS;
    return GRAPH_MAYBE;
}

/* The outlook in the graph's share of the time left; on -v, told when it
 * moves the graph and tell is set. */
static graph_outlook graph_now(const mcc_run *r, const pace *per, int tell)
{
    uint64_t states;
    if (!mcc_portfolio_states(&states))
        return GRAPH_MAYBE;
    graph_outlook o = graph_outlook_of(states, (double)r->budget->bytes,
                                       GRAPH_SHARE * budget_left(r->budget), per);
    if (r->verbose && tell && o != GRAPH_MAYBE)
        fprintf(stderr, "mck mcc: %s: %llu reachable markings (diagrams): %s\n", r->exam,
                (unsigned long long)states,
                o == GRAPH_FITS ? "the whole graph now"
                                : "no whole graph, its time to the dependency graph");
    return o;
}

/* ---- 6. the exploration ---- */

/* An open query as the graph sees it: its formula renamed into the net the
 * graph is built on, and that formula's facts, in the order of the
 * query's own (add_facts walks both trees alike). */
typedef struct graph_query {
    size_t index;       /* in q */
    ctl_query view;     /* formula and facts; NULL formula: the query's own */
} graph_query;

typedef struct sweep {
    const mcc_run *r;
    const cnet_t *cn;   /* the net explored */
    ctl_query *q;
    graph_query *g;
    size_t n, open;
    int dead0;
    int reduced;        /* cn is a reduction of the given net */
    uint64_t seen;      /* markings so far */
} sweep;

/* Every SWEEP_POLL markings the graph asks whether it is still wanted */
#define SWEEP_POLL 65536

/* Whether to stop building the graph: the portfolio's other process has
 * answered every formula still open, or its count of the reachable
 * markings, which may arrive after the graph started, says the graph
 * cannot be finished (graph_now; only on the given net, whose count it
 * is).  Then the time goes to the dependency graph. */
static int graph_unwanted(sweep *s)
{
    if (count_open(s->q, s->n ? s->g[s->n - 1].index + 1 : 0) == 0)
        return 1;
    return !s->reduced && graph_now(s->r, NULL, 1) == GRAPH_HOPELESS;
}

/* Each new marking may make a fact: ψ met (E F ψ true) or ¬ψ met (A G ψ
 * false).  A marking of the reduced net is related to one of the given
 * net with the same observed labels (reduce.h), so a fact found on it
 * holds for the given net. */
static int watch(void *ctx, uint64_t id, store_ref ref, const nc_count *m)
{
    sweep *s = ctx;
    (void)id;
    (void)ref;
    for (size_t i = 0; i < s->n; i++) {
        ctl_query *q = &s->q[s->g[i].index];
        const ctl_query *seen = s->g[i].view.formula ? &s->g[i].view : q;
        if (q->decided || seen->nfacts != q->nfacts)
            continue;
        int learnt = 0;
        for (size_t k = 0; k < q->nfacts; k++) {
            fact *f = &q->facts[k];
            if (f->value != UNKNOWN)
                continue;
            int v = cn_state_holds(s->cn, seen->facts[k].node->l, m);
            if (v == (f->node->op == T_EF)) {
                f->value = v;
                learnt = 1;
            }
        }
        if (learnt) {
            q->used |= USED_EXPLICIT;
            try_initial(s->r, q, s->dead0);
            s->open -= q->decided;
        }
    }
    if (++s->seen % SWEEP_POLL == 0 && graph_unwanted(s))
        return 1;
    return s->open == 0;
}

/* The open queries' formulas renamed into red's net (g[i].view); 0, or -1
 * on no memory (g then as far as it got: clear_views undoes it). */
static int rename_views(const mcc_reduced *red, const ctl_query *q, graph_query *g, size_t k)
{
    for (size_t i = 0; i < k; i++) {
        tree_t *f = reduce_formula(red->red, q[g[i].index].formula);
        if (!f)
            return -1;
        g[i].view.formula = f;
        if (add_facts(&g[i].view, f) < 0)
            return -1;
    }
    return 0;
}

static void clear_views(graph_query *g, size_t k)
{
    for (size_t i = 0; i < k; i++) {
        tree_free(g[i].view.formula);
        free(g[i].view.facts);
        memset(&g[i].view, 0, sizeof g[i].view);
    }
}

/* A formula's temporal operators (tree_count_ctl): about how many passes
 * over the graph its check takes. */
typedef struct by_passes {
    size_t passes, index;
} by_passes;

static int fewer_passes(const void *a, const void *b)
{
    const by_passes *x = a, *y = b;
    if (x->passes != y->passes)
        return x->passes < y->passes ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* Step 6 within stage; whatever it leaves open has its reason in q. */
static void on_graph(const mcc_run *r, ctl_query *q, size_t n, int dead0, const budget_t *stage)
{
    const tree_t **open = malloc((n ? n : 1) * sizeof *open);
    graph_query *g = calloc(n ? n : 1, sizeof *g);
    if (!open || !g) {
        free(open);
        free(g);
        return;
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!q[i].decided) {
            g[k].index = i;
            open[k++] = q[i].formula;
        }
    /* one net for all of them: reduced for what any of them observes,
     * keeping loops when runs are wanted */
    mcc_reduced red;
    budget_t reducing = budget_carve(r->budget, CARVE_MCC_REDUCE);
    int reduced = mcc_reduce_ctl(r, open, k, mcc_runs_wanted(), 0, &reducing, &red);
    if (reduced && rename_views(&red, q, g, k) < 0) {
        clear_views(g, k);
        mcc_reduced_free(&red);
        reduced = 0;
    }
    const cnet_t *cn = reduced ? red.cn : r->cn;
    for (size_t i = 0; reduced && i < k; i++)
        open[i] = g[i].view.formula;
    if (reduced && r->verbose)
        fprintf(stderr, "mck mcc: %s: the graph on the net reduced for its %zu formulas: %u "
                "places, %u transitions left of %u and %u\n", r->exam, k, cn->nplaces,
                cn->ntransitions, r->cn->nplaces, r->cn->ntransitions);
    check_options opt;
    mcc_search_options(r, stage, &opt);
    result_t res;
    result_init(&res);
    sweep s = {r, cn, q, g, k, k, dead0, reduced, 0};
    int stopped;
    double started = mono_now();
    ctl_model *m = ctl_model_build(cn, open, k, &opt, watch, &s, &stopped, &res);
    free(open);
    if (m && r->verbose)
        fprintf(stderr, "mck mcc: %s: the graph: %llu markings in %.2f s\n", r->exam,
                (unsigned long long)s.seen, mono_now() - started);
    started = mono_now();
    if (!m) {
        if (!stopped) {
            fprintf(stderr, "mck mcc: %s: the graph: %s after %llu states; %zu values open\n",
                    r->exam, res.reason, (unsigned long long)res.states, s.open);
            for (size_t i = 0; i < n; i++)
                if (!q[i].decided)
                    snprintf(q[i].why, sizeof q[i].why, "%.90s", res.reason);
        }
        result_clear(&res);
        clear_views(g, k);
        free(g);
        mcc_reduced_free(&red);
        return;
    }
    /* the formulas of fewest passes first: when time runs out, it has
     * answered as many as it could */
    by_passes *order = malloc((k ? k : 1) * sizeof *order);
    for (size_t j = 0; order && j < k; j++)
        order[j] = (by_passes){tree_count_ctl(reduced ? g[j].view.formula : q[g[j].index].formula), j};
    if (order)
        qsort(order, k, sizeof *order, fewer_passes);
    for (size_t o = 0; o < k; o++) {
        size_t j = order ? order[o].index : o;
        ctl_query *qi = &q[g[j].index];
        const tree_t *f = reduced ? g[j].view.formula : qi->formula;
        if (qi->decided)
            continue;
        char buf[160];
        double began = mono_now();
        int v = ctl_model_check(m, f, qi->why, sizeof qi->why);
        if (v < 0) {
            fprintf(stderr, "mck mcc: %s: %s\n", qi->id, qi->why);
            continue;
        }
        if (r->verbose)
            fprintf(stderr, "mck mcc: %s: decided on the graph in %.2f s\n", qi->id,
                    mono_now() - began);
        techniques(buf, sizeof buf, (qi->used & USED_TOPOLOGICAL) | USED_EXPLICIT |
                                        (reduced ? USED_REDUCTION : 0), 0);
        result_t ev;
        result_init(&ev);
        mcc_evidence e = {RUN_NONE, NULL, 0, RESULT_NO_LOOP};
        uint32_t *expanded = NULL;
        if (mcc_runs_wanted() && ctl_model_evidence(m, f, v, &ev) == 0) {
            e = (mcc_evidence){ev.role, ev.run, ev.run_len, ev.loop_start};
            if (reduced && mcc_reduced_run(&red, &e, &expanded) < 0)
                e = (mcc_evidence){RUN_NONE, NULL, 0, RESULT_NO_LOOP};
        }
        mcc_answer_bool_shown(qi->id, v, buf, e.role != RUN_NONE ? &e : NULL);
        qi->decided = 1;
        free(expanded);
        result_clear(&ev);
    }
    free(order);
    if (r->verbose)
        fprintf(stderr, "mck mcc: %s: the formulas checked on the graph in %.2f s\n", r->exam,
                mono_now() - started);
    ctl_model_free(m);
    result_clear(&res);
    clear_views(g, k);
    free(g);
    mcc_reduced_free(&red);
}

/* The two on-the-fly engines: the local check (ctllocal.c) and the
 * dependency graph with certain zero (depgraph.h).  They differ in what
 * they remember: the local check keeps a value per (subformula, marking)
 * and settles every state a finished search visited, the dependency graph
 * propagates a certain zero at once and stops a conjunction at its first
 * false conjunct.  Neither wins everywhere, so the second gets what the
 * first leaves. */
typedef enum { BY_LOCAL, BY_DEPGRAPH, BY_BEST_FIRST } otf_engine;

/* Steps 5 and 7: each open formula gets an equal part of what is left of
 * stage's time, so that quick ones leave theirs to the next, and searches
 * the net reduced for it when there is one.  The local checks (per set)
 * take the wider stage alone instead once the diagrams' count says no
 * whole graph follows: the time the graph would have had then goes to
 * the dependency graph, which repeats none of a local check's work, and
 * a local check cut short by the narrower stage loses what it explored
 * (Parking-PT-208's CTLFireability-12 was decided after 85,517 markings,
 * and the narrower stage stops at about 75,000 at 10 s). */
static void one_by_one(const mcc_run *r, ctl_query *q, size_t n, const budget_t *stage,
                       const budget_t *alone, otf_engine engine, uint64_t cap, pace *per)
{
    for (size_t i = 0; i < n; i++) {
        /* counted anew each time: the other process may have answered
         * some while this one searched */
        size_t open = count_open(q + i, n - i);
        if (!open)
            return;
        if (q[i].decided)
            continue;
        if (budget_left(stage) <= 0)
            return;
        graph_outlook outlook = per ? graph_now(r, per, 0) : GRAPH_MAYBE;
        if (outlook == GRAPH_FITS)
            return;
        if (alone && outlook == GRAPH_HOPELESS)
            stage = alone;
        double started = mono_now();
        budget_t part = budget_carve_part(stage, CARVE_MCC_CTL_FORMULA, open);
        check_options opt;
        mcc_search_options(r, &part, &opt);
        opt.partial_order = !r->no_por;
        opt.max_states = cap;
        char why[128], buf[160];
        ctl_local_stats stats = {0, 0};
        const cnet_t *cn = q[i].reduced ? q[i].red.cn : r->cn;
        const tree_t *f = q[i].reduced ? q[i].reduced : q[i].formula;
        result_t ev;
        result_init(&ev);
        int v = engine == BY_LOCAL
                    ? ctl_local_check(cn, f, &opt, &stats, mcc_runs_wanted() ? &ev : NULL, why,
                                      sizeof why)
                    : ctl_depgraph_check(cn, f, &opt, engine == BY_BEST_FIRST ? CTL_BEST : CTL_DFS,
                                         &stats.states, why, sizeof why);
        const char *name = engine == BY_LOCAL        ? "local check"
                           : engine == BY_BEST_FIRST ? "dependency graph, best-first"
                                                     : "dependency graph";
        if (per) {
            per->states += (double)stats.states;
            per->seconds += mono_now() - started;
        }
        if (r->verbose)
            fprintf(stderr, "mck mcc: %s: %s %s after %llu states\n", q[i].id, name,
                    v < 0 ? why : "decided", (unsigned long long)stats.states);
        if (v < 0) {
            snprintf(q[i].why, sizeof q[i].why, "%s: %.60s", name, why);
            result_clear(&ev);
            continue;
        }
        techniques(buf, sizeof buf, (q[i].used & USED_TOPOLOGICAL) | USED_EXPLICIT |
                                        (stats.reduced ? USED_STUBBORN : 0) |
                                        (q[i].reduced ? USED_REDUCTION : 0), 0);
        mcc_evidence e = {RUN_NONE, NULL, 0, RESULT_NO_LOOP};
        uint32_t *expanded = NULL;
        if (ev.role != RUN_NONE) {
            e = (mcc_evidence){ev.role, ev.run, ev.run_len, ev.loop_start};
            if (q[i].reduced && mcc_reduced_run(&q[i].red, &e, &expanded) < 0)
                e = (mcc_evidence){RUN_NONE, NULL, 0, RESULT_NO_LOOP};
        }
        mcc_answer_bool_shown(q[i].id, v, buf, e.role != RUN_NONE ? &e : NULL);
        q[i].decided = 1;
        free(expanded);
        result_clear(&ev);
    }
}

static int initial_deadlock(const cnet_t *cn)
{
    for (uint32_t t = 0; t < cn->ntransitions; t++)
        if (cn_enabled(cn, cn->initial, t))
            return 0;
    return 1;
}

/* The queries of set, each simplified by the structure and settled when
 * the initial marking decides it; *n of them, the unsupported ones told
 * open unless quiet (the portfolio's second process leaves that to the
 * first), and counted in *skipped.  NULL on no memory. */
static ctl_query *prepare(const mcc_run *r, const mcc_property_set *set, int dead0, int quiet,
                          size_t *n, size_t *skipped)
{
    ctl_query *q = calloc(set->n ? set->n : 1, sizeof *q);
    *n = *skipped = 0;
    if (!q)
        return NULL;
    for (size_t i = 0; i < set->n; i++) {
        const mcc_property *p = &set->props[i];
        tree_t *f = p->formula && !p->unsupported ? tree_copy(p->formula) : NULL;
        if (!f) {
            const char *why = p->unsupported ? p->unsupported : "out of memory";
            if (!quiet) {
                fprintf(stderr, "mck mcc: %s: %s; left unanswered\n", p->id, why);
                mcc_answer_open(p->id, why);
            }
            (*skipped)++;
            continue;
        }
        int changed = 0;
        f = tree_fold(mcc_simplify(r, f, &changed));
        q[*n] = (ctl_query){p->id, f, NULL, 0, 0, changed ? USED_TOPOLOGICAL : 0, 0, "not decided",
                            {0}, NULL};
        if (!f || add_facts(&q[*n], f) < 0) {
            fprintf(stderr, "mck mcc: %s: out of memory; left unanswered\n", p->id);
            q[*n].decided = 1;
        }
        try_initial(r, &q[*n], dead0);
        (*n)++;
    }
    return q;
}

static void release(ctl_query *q, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        tree_free(q[i].formula);
        free(q[i].facts);
        tree_free(q[i].reduced);
        mcc_reduced_free(&q[i].red);
    }
    free(q);
}

int mcc_ctl(mcc_run *r, const char *path)
{
    mcc_property_set *set = mccxml_read(path, r->net, r->exam);
    if (!set)
        return -1;
    mcc_portfolio_start(r, path, 0, set->n);
    int dead0 = initial_deadlock(r->cn);
    size_t n, skipped;
    ctl_query *q = prepare(r, set, dead0, 0, &n, &skipped);
    if (!q) {
        mccxml_free(set);
        return -1;
    }
    if (count_open(q, n) && !r->no_lp) {
        budget_t lp = budget_carve(r->budget, CARVE_MCC_CTL_LP);
        lp_all(r, q, n, dead0, &lp);
    }
    if (count_open(q, n))
        reduce_each(r, q, n);
    /* the local checks make way for the whole graph once the diagrams'
     * count says it fits: it decides every formula at once */
    pace per = {0, 0};
    if (count_open(q, n)) {
        budget_t local = budget_carve(r->budget, CARVE_MCC_CTL_LOCAL);
        budget_t alone = budget_carve(r->budget, CARVE_MCC_CTL_LOCAL_ALONE);
        one_by_one(r, q, n, &local, &alone, BY_LOCAL, 0, &per);
    }
    if (count_open(q, n) && graph_now(r, &per, 1) != GRAPH_HOPELESS) {
        budget_t graph = budget_carve(r->budget, CARVE_MCC_CTL_GRAPH);
        on_graph(r, q, n, dead0, &graph);
    }
    if (count_open(q, n))
        one_by_one(r, q, n, r->budget, NULL, BY_DEPGRAPH, 0, NULL);
    int left = (int)skipped;
    for (size_t i = 0; i < n; i++) {
        left += !q[i].decided;
        if (!q[i].decided)
            mcc_answer_open(q[i].id, q[i].why);
    }
    release(q, n);
    mccxml_free(set);
    return left;
}

/* The portfolio's second process, before its diagrams within a cap and
 * when they have nothing more to do: the dependency graph best-first
 * (toward the marking with fewest tokens missing for the atoms) on each
 * formula neither process has answered, each on its own reduced net.
 * Where best-first decides, it does so within a few thousand markings,
 * where depth-first and the local check had explored hundreds of
 * thousands in seconds and decided nothing (60 s, every open formula an
 * equal part of what the local checks left, on the dependency graph
 * alone: Election2020-PT-none CTLFireability-00 after 10,692 markings,
 * Planning-PT-none CTLCardinality-02 and -08 after 1,090 and 886,
 * PhaseVariation-PT-D02CS100 CTLFireability-10 after 13,925; depth-first
 * decided none of the four, breadth-first one).  In the first process it
 * cost values wherever it took time from the rest (bench/README.md,
 * 2026-11-28); here it takes the time of a process that would otherwise
 * wait. */
void mcc_ctl_best_first(mcc_run *r, const struct mcc_property_set *set, uint64_t cap)
{
    if (budget_expired(r->budget))
        return;
    size_t n, skipped;
    ctl_query *q = prepare(r, set, initial_deadlock(r->cn), 1, &n, &skipped);
    if (!q)
        return;
    size_t open = count_open(q, n);
    if (open && r->verbose)
        fprintf(stderr, "mck mcc: portfolio: best-first dependency graphs on %zu formulas in "
                "%.2f s%s\n", open, budget_left(r->budget), cap ? ", each within a cap" : "");
    if (open)
        reduce_each(r, q, n);
    if (count_open(q, n))
        one_by_one(r, q, n, r->budget, NULL, BY_BEST_FIRST, cap, NULL);
    release(q, n);
}
