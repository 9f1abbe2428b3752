/* UpperBounds and Reachability{Cardinality,Fireability}: every property of
 * the file in one exploration.  The pre-pass (prepass.h) settles what it
 * can; the exploration then evaluates the open properties on each marking
 * as it is found, drops each at its first witness ("E F φ" true,
 * "A G φ" false, a bound reaching its proven upper end), and stops when
 * none is left.  A complete exploration settles the rest: "E F φ" false,
 * "A G φ" true, a bound's maximum seen. */
#include "engine/explore.h"
#include "engine/goalseed.h"
#include "engine/stateeval.h"
#include "engine/stubbornset.h"
#include "mcc/prepass.h"
#include "mcc/reduced.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct sweep {
    const cnet_t *cn;
    mcc_query **open;
    size_t nopen;
    const nc_count *m;
    explore_t *ex;
    store_ref ref;       /* the record of m */
    int keep_runs;       /* the exploration keeps parents for runs */
    stubborn_t *sb;      /* the reduction, unless --por=off */
    const char *words;   /* the techniques its answers name */
    const mcc_reduced *red;   /* the structural reduction searched, or empty */
} sweep;

/* The techniques behind an answer found now: stubborn sets only while
 * the exploration still reduces (it drops a reducer that keeps nearly
 * everything). */
static const char *words_now(const sweep *s)
{
    return explore_reducing(s->ex) ? s->words : s->red->red ? "EXPLICIT " TECH_REDUCTION
                                                            : "EXPLICIT";
}

/* The current marking decides q: settled with the run that reaches it. */
static void found(sweep *s, mcc_query *q, int value)
{
    mcc_evidence ev = {value ? RUN_WITNESS : RUN_COUNTEREXAMPLE, NULL, 0, RESULT_NO_LOOP};
    uint32_t *run = NULL, *mapped = NULL;
    if (s->keep_runs && explore_run(s->ex, s->ref, &run, &ev.len) == 0) {
        ev.run = run;
        if (mcc_reduced_run(s->red, &ev, &mapped) < 0)
            ev.run = NULL;
    }
    if (s->keep_runs && !ev.run)
        fprintf(stderr, "mck mcc: %s: no memory for its run\n", q->id);
    mcc_query_settle_shown(q, value, words_now(s), ev.run ? &ev : NULL);
    free(run);
    free(mapped);
}

static void look(sweep *s, mcc_query *q)
{
    if (q->cls == MCC_BOUND) {
        mcc_u128 sum = 0;
        for (uint32_t i = 0; i < q->formula->n; i++)
            sum += s->m[q->formula->items[i]];
        mcc_query_lower(q, sum, words_now(s));
        return;
    }
    int v = cn_state_holds(s->cn, q->formula->l, s->m);
    if (v < 0) {
        fprintf(stderr, "mck mcc: %s: cannot evaluate its formula; left unanswered\n", q->id);
        q->decided = 1;
    } else if (q->formula->op == T_EF && v) {
        found(s, q, 1);
    } else if (q->formula->op == T_AG && !v) {
        found(s, q, 0);
    }
}

static int on_state(void *ctx, uint64_t id, store_ref ref, const nc_count *m)
{
    sweep *s = ctx;
    s->m = m;
    s->ref = ref;
    /* the portfolio's other process may have answered some meanwhile:
     * they need no more looks (and no more of the reduction's care) */
    int peer = (id & 0xffff) == 0;
    size_t k = 0;
    for (size_t i = 0; i < s->nopen; i++) {
        if (peer && mcc_portfolio_answered(s->open[i]->id))
            s->open[i]->decided = 1;
        if (!s->open[i]->decided)
            look(s, s->open[i]);
        if (!s->open[i]->decided)
            s->open[k++] = s->open[i];
    }
    s->nopen = k;
    return k == 0;
}

/* ---- the reduction (stubborn.h) ----
 * Every open query is undecided in every marking found so far: an "E F φ"
 * needs φ to become true, an "A G φ" needs it to become false.  The union
 * of their seeds keeps each of them reachable; a query decided since only
 * makes the set larger than needed.  Bounds are not reduced: their seeds
 * (every transition adding to a place of the sum) keep little out, so a
 * reduced search pays for the reduction and still explores nearly the
 * full graph. */

static int seed_query(sweep *s, const mcc_query *q, const nc_count *m)
{
    return goal_seed(s->sb, s->cn, q->formula->l, m, q->formula->op == T_EF);
}

static uint32_t reduce_for_queries(void *ctx, const nc_count *m, const uint32_t *enabled,
                                   uint32_t nen, uint32_t *out)
{
    sweep *s = ctx;
    stubborn_seed_clear(s->sb);
    for (size_t i = 0; i < s->nopen; i++)
        if (!s->open[i]->decided && seed_query(s, s->open[i], m) < 0)
            return stubborn_fire_all(enabled, nen, out);
    return stubborn_from_seed(s->sb, m, enabled, nen, out);
}

static int reducible(mcc_query **open, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (open[i]->cls == MCC_BOUND || !goal_seed_supported(open[i]->formula->l))
            return 0;
    return 1;
}

static void exhausted(mcc_query *q, const char *words)
{
    if (q->cls == MCC_BOUND)
        mcc_query_exhausted(q, words);
    else
        mcc_query_settle(q, q->formula->op == T_AG, words);
}

/* The structural reduction for the open queries (mcc/reduced.h); their
 * formulas are then renamed into the reduced net, the originals kept in
 * saved[] for restore_formulas, and the queries in owner[] (the search
 * reorders open[] as it drops decided queries). */
static int reduce_for(const mcc_run *r, mcc_query **open, size_t n, mcc_reduced *red,
                      const tree_t **saved, mcc_query **owner)
{
    const tree_t **goals = malloc((n ? n : 1) * sizeof *goals);
    int *negated = malloc((n ? n : 1) * sizeof *negated);
    int reduced = 0;
    if (goals && negated) {
        for (size_t i = 0; i < n; i++) {
            const tree_t *f = open[i]->formula;
            goals[i] = open[i]->cls == MCC_BOUND ? f : f->l;
            negated[i] = open[i]->cls != MCC_BOUND && f->op == T_AG;
        }
        reduced = mcc_reduce(r, goals, negated, n, 0, red);
    }
    free(goals);
    free(negated);
    for (size_t i = 0; reduced && i < n; i++) {
        tree_t *f = reduce_formula(red->red, open[i]->formula);
        if (!f) {
            while (i-- > 0) {
                tree_free((tree_t *)open[i]->formula);
                open[i]->formula = saved[i];
            }
            mcc_reduced_free(red);
            return 0;
        }
        saved[i] = open[i]->formula;
        owner[i] = open[i];
        open[i]->formula = f;
    }
    return reduced;
}

static void restore_formulas(mcc_query **owner, size_t n, const tree_t **saved)
{
    for (size_t i = 0; i < n; i++) {
        tree_free((tree_t *)owner[i]->formula);
        owner[i]->formula = saved[i];
    }
}

static void explore_open(const mcc_run *r, mcc_query **open, size_t n)
{
    check_options opt;
    mcc_search_options(r, r->budget, &opt);
    int keep_runs = mcc_runs_wanted();
    mcc_reduced red;
    const tree_t **saved = malloc((n ? n : 1) * sizeof *saved);
    mcc_query **owner = malloc((n ? n : 1) * sizeof *owner);
    int reduced = saved && owner && reduce_for(r, open, n, &red, saved, owner);
    if (!reduced)
        memset(&red, 0, sizeof red);
    const cnet_t *cn = reduced ? red.cn : r->cn;
    explore_t *ex = explore_new(cn, &opt, keep_runs ? EXPLORE_RUNS : 0);
    if (!ex) {
        fprintf(stderr, "mck mcc: %s: memory budget too small to start\n", r->exam);
        if (reduced)
            restore_formulas(owner, n, saved);
        mcc_reduced_free(&red);
        free(saved);
        free(owner);
        return;
    }
    sweep s = {cn, open, n, NULL, ex, 0, keep_runs, NULL, NULL, &red};
    int por = !r->no_por && reducible(open, n) && (s.sb = stubborn_new(cn)) &&
              explore_set_reducer(ex, reduce_for_queries, &s) == 0;
    s.words = reduced ? (por ? "EXPLICIT STUBBORN_SETS " TECH_REDUCTION
                             : "EXPLICIT " TECH_REDUCTION)
                      : (por ? "EXPLICIT STUBBORN_SETS" : "EXPLICIT");
    explore_visitor v = {on_state, NULL, NULL, r->exam, 0};
    result_t res;
    result_init(&res);
    explore_status st = explore_bfs(ex, &v, &s, &res);
    const char *words = words_now(&s);
    explore_free(ex);
    stubborn_free(s.sb);
    if (st == EXPLORE_DONE)
        for (size_t i = 0; i < s.nopen; i++)
            exhausted(s.open[i], words);
    else if (st == EXPLORE_GAVE_UP) {
        fprintf(stderr, "mck mcc: %s: %s after %llu states; %zu values open\n", r->exam,
                res.reason, (unsigned long long)res.states, s.nopen);
        for (size_t i = 0; i < s.nopen; i++)
            mcc_answer_open(s.open[i]->id, res.reason);
    }
    result_clear(&res);
    if (reduced)
        restore_formulas(owner, n, saved);
    mcc_reduced_free(&red);
    free(saved);
    free(owner);
}

/* Only the shapes the exploration can judge become queries; anything else
 * stays unanswered. */
static int usable(const mcc_property *p)
{
    const tree_t *f = p->formula;
    if (!f || p->unsupported)
        return 0;
    if (p->cls == MCC_BOUND)
        return f->op == T_BOUND;
    return p->cls == MCC_REACH && (f->op == T_EF || f->op == T_AG) && f->l &&
           tree_is_state_formula(f->l);
}

static int run_queries(const mcc_run *r, mcc_query *q, size_t n)
{
    budget_t prepass = budget_carve(r->budget, CARVE_MCC_PREPASS);
    size_t left = mcc_prepass(r, q, n, &prepass);
    if (left) {
        mcc_query **open = malloc(n * sizeof *open);
        if (!open)
            return (int)left;
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            if (!q[i].decided && !mcc_portfolio_answered(q[i].id))
                open[k++] = &q[i];
        explore_open(r, open, k);
        free(open);
    }
    int unanswered = 0;
    for (size_t i = 0; i < n; i++)
        unanswered += !q[i].decided;
    return unanswered;
}

int mcc_formulas(mcc_run *r, const char *path)
{
    mcc_property_set *set = mccxml_read(path, r->net, r->exam);
    if (!set)
        return -1;
    mcc_portfolio_start(r, path, 0, set->n);
    mcc_query *q = calloc(set->n ? set->n : 1, sizeof *q);
    if (!q) {
        mccxml_free(set);
        return -1;
    }
    size_t n = 0, skipped = 0;
    for (size_t i = 0; i < set->n; i++) {
        const mcc_property *p = &set->props[i];
        if (!usable(p)) {
            const char *why = p->unsupported ? p->unsupported : "not a reachability or bound formula";
            fprintf(stderr, "mck mcc: %s: %s; left unanswered\n", p->id, why);
            mcc_answer_open(p->id, why);
            skipped++;
            continue;
        }
        q[n] = (mcc_query){p->id, p->cls, p->formula, 0, 0, MCC_U128_MAX, NULL, NULL};
        n++;
    }
    int left = run_queries(r, q, n) + (int)skipped;
    for (size_t i = 0; i < n; i++)
        mcc_answer_open(q[i].id, "not decided");   /* ignored when answered */
    free(q);
    mccxml_free(set);
    return left;
}
