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
 *   4. The local check (checkers/ctl/ctllocal.c) on each open formula in turn,
 *      within a share of the time: it explores only the markings the
 *      formula's value depends on, which answers many formulas on state
 *      spaces far too big to build.
 *   5. One exploration records the reachability graph with the atoms of
 *      all open formulas (checkers/ctl/ctl.h); once complete, each is
 *      evaluated on it, with the run that shows it where there is one. */
#include "base/grow.h"
#include "checkers/ctl/ctl.h"
#include "lp/stateeq.h"
#include "engine/stateeval.h"
#include "formula/mccxml.h"
#include "mcc/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define UNKNOWN 2

enum { USED_TOPOLOGICAL = 1, USED_LP = 2, USED_EXPLICIT = 4 };

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

static void techniques(char *buf, size_t len, int used, int initial)
{
    snprintf(buf, len, "SEQUENTIAL_PROCESSING%s%s%s%s",
             used & USED_TOPOLOGICAL ? " TOPOLOGICAL" : "", initial ? " INITIAL_STATE" : "",
             used & USED_LP ? " LINEAR_EQUATIONS" : "", used & USED_EXPLICIT ? " EXPLICIT" : "");
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

/* The state equation on each open fact: ψ unreachable makes E F ψ false,
 * ¬ψ unreachable makes A G ψ true. */
static void lp_facts(const mcc_run *r, ctl_query *q, size_t n, int dead0, const budget_t *stage)
{
    size_t todo = 0;
    for (size_t i = 0; i < n; i++)
        todo += q[i].decided ? 0 : q[i].nfacts;
    for (size_t i = 0; i < n; i++) {
        for (size_t k = 0; !q[i].decided && k < q[i].nfacts; k++, todo--) {
            double left = budget_left(stage);
            if (left <= 0)
                return;
            fact *f = &q[i].facts[k];
            if (f->value != UNKNOWN)
                continue;
            int ef = f->node->op == T_EF;
            tree_t *phi = tree_copy(f->node->l);
            if (phi && !ef)
                phi = tree_unary(T_NOT, phi);
            if (phi && stateeq_unreachable(r->cn, phi, left / (double)todo) == SE_UNREACHABLE) {
                f->value = !ef;
                q[i].used |= USED_LP;
                try_initial(r, &q[i], dead0);
            }
            tree_free(phi);
        }
    }
}

/* ---- 4. the exploration ---- */

typedef struct sweep {
    const mcc_run *r;
    ctl_query *q;
    size_t n, open;
    int dead0;
} sweep;

/* Each new marking may make a fact: ψ met (E F ψ true) or ¬ψ met (A G ψ
 * false). */
static int watch(void *ctx, uint64_t id, store_ref ref, const nc_count *m)
{
    sweep *s = ctx;
    (void)id;
    (void)ref;
    for (size_t i = 0; i < s->n; i++) {
        ctl_query *q = &s->q[i];
        if (q->decided)
            continue;
        int learnt = 0;
        for (size_t k = 0; k < q->nfacts; k++) {
            fact *f = &q->facts[k];
            if (f->value != UNKNOWN)
                continue;
            int v = cn_state_holds(s->r->cn, f->node->l, m);
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
    return s->open == 0;
}

static void on_graph(const mcc_run *r, ctl_query *q, size_t n, int dead0)
{
    const tree_t **open = malloc((n ? n : 1) * sizeof *open);
    if (!open)
        return;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!q[i].decided)
            open[k++] = q[i].formula;
    check_options opt;
    mcc_search_options(r, r->budget, &opt);
    result_t res;
    result_init(&res);
    sweep s = {r, q, n, k, dead0};
    int stopped;
    ctl_model *m = ctl_model_build(r->cn, open, k, &opt, watch, &s, &stopped, &res);
    free(open);
    if (!m) {
        if (!stopped) {
            fprintf(stderr, "mck mcc: %s: %s after %llu states; %zu values open\n", r->exam,
                    res.reason, (unsigned long long)res.states, s.open);
            for (size_t i = 0; i < n; i++)
                if (!q[i].decided)
                    mcc_answer_open(q[i].id, res.reason);
        }
        result_clear(&res);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        if (q[i].decided)
            continue;
        char why[128], buf[160];
        int v = ctl_model_check(m, q[i].formula, why, sizeof why);
        if (v < 0) {
            fprintf(stderr, "mck mcc: %s: %s; left unanswered\n", q[i].id, why);
            mcc_answer_open(q[i].id, why);
            continue;
        }
        techniques(buf, sizeof buf, (q[i].used & USED_TOPOLOGICAL) | USED_EXPLICIT, 0);
        result_t ev;
        result_init(&ev);
        mcc_evidence e = {RUN_NONE, NULL, 0, RESULT_NO_LOOP};
        if (mcc_runs_wanted() && ctl_model_evidence(m, q[i].formula, v, &ev) == 0)
            e = (mcc_evidence){ev.role, ev.run, ev.run_len, ev.loop_start};
        mcc_answer_bool_shown(q[i].id, v, buf, e.role != RUN_NONE ? &e : NULL);
        q[i].decided = 1;
        result_clear(&ev);
    }
    ctl_model_free(m);
    result_clear(&res);
}

/* Step 4: each open formula gets an equal part of what is left of the
 * local checks' time, so that quick ones leave theirs to the next. */
static void local_checks(const mcc_run *r, ctl_query *q, size_t n, const budget_t *stage)
{
    size_t open = 0;
    for (size_t i = 0; i < n; i++)
        open += !q[i].decided;
    for (size_t i = 0; i < n && open; i++) {
        if (q[i].decided)
            continue;
        if (budget_left(stage) <= 0)
            return;
        budget_t part = budget_carve_part(stage, CARVE_MCC_CTL_LOCAL_FORMULA, open--);
        check_options opt;
        mcc_search_options(r, &part, &opt);
        char why[128], buf[160];
        uint64_t states = 0;
        int v = ctl_local_check(r->cn, q[i].formula, &opt, &states, why, sizeof why);
        if (r->verbose)
            fprintf(stderr, "mck mcc: %s: local check %s after %llu states\n", q[i].id,
                    v < 0 ? why : "decided", (unsigned long long)states);
        if (v < 0)
            continue;
        techniques(buf, sizeof buf, (q[i].used & USED_TOPOLOGICAL) | USED_EXPLICIT, 0);
        mcc_answer_bool(q[i].id, v, buf);
        q[i].decided = 1;
    }
}

static int initial_deadlock(const cnet_t *cn)
{
    for (uint32_t t = 0; t < cn->ntransitions; t++)
        if (cn_enabled(cn, cn->initial, t))
            return 0;
    return 1;
}

int mcc_ctl(mcc_run *r, const char *path)
{
    mcc_property_set *set = mccxml_read(path, r->net, r->exam);
    if (!set)
        return -1;
    ctl_query *q = calloc(set->n ? set->n : 1, sizeof *q);
    if (!q) {
        mccxml_free(set);
        return -1;
    }
    int dead0 = initial_deadlock(r->cn);
    size_t n = 0, skipped = 0;
    for (size_t i = 0; i < set->n; i++) {
        const mcc_property *p = &set->props[i];
        tree_t *f = p->formula && !p->unsupported ? tree_copy(p->formula) : NULL;
        if (!f) {
            const char *why = p->unsupported ? p->unsupported : "out of memory";
            fprintf(stderr, "mck mcc: %s: %s; left unanswered\n", p->id, why);
            mcc_answer_open(p->id, why);
            skipped++;
            continue;
        }
        int changed = 0;
        f = tree_fold(mcc_simplify(r, f, &changed));
        q[n] = (ctl_query){p->id, f, NULL, 0, 0, changed ? USED_TOPOLOGICAL : 0, 0};
        if (!f || add_facts(&q[n], f) < 0) {
            fprintf(stderr, "mck mcc: %s: out of memory; left unanswered\n", p->id);
            q[n].decided = 1;
        }
        try_initial(r, &q[n], dead0);
        n++;
    }
    size_t open = 0;
    for (size_t i = 0; i < n; i++)
        open += !q[i].decided;
    if (open && !r->no_lp) {
        budget_t lp = budget_carve(r->budget, CARVE_MCC_CTL_LP);
        lp_facts(r, q, n, dead0, &lp);
    }
    open = 0;
    for (size_t i = 0; i < n; i++)
        open += !q[i].decided;
    if (open) {
        budget_t local = budget_carve(r->budget, CARVE_MCC_CTL_LOCAL);
        local_checks(r, q, n, &local);
    }
    open = 0;
    for (size_t i = 0; i < n; i++)
        open += !q[i].decided;
    if (open)
        on_graph(r, q, n, dead0);
    int left = (int)skipped;
    for (size_t i = 0; i < n; i++) {
        left += !q[i].decided;
        mcc_answer_open(q[i].id, "not decided");   /* ignored when answered */
        tree_free(q[i].formula);
        free(q[i].facts);
    }
    free(q);
    mccxml_free(set);
    return left;
}
