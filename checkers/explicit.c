/* explicit: deadlock and reachability by breadth-first search, so that the
 * witness is the search-tree path to the first marking found, a shortest
 * run (kit-overview.md §3.3).  The search is explore.c's; this file only
 * decides which marking ends it.  CTL goes to ctl.h, on the whole graph. */
#include "base/clock.h"
#include "checkers/explicit.h"
#include "checkers/ctl/ctl.h"
#include "checkers/ltl/ltl.h"
#include "engine/explore.h"
#include "engine/goalseed.h"
#include "engine/parallel.h"
#include "engine/stateeval.h"
#include "engine/stubbornset.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct goal {
    const cnet_t *cn;
    const tree_t *formula;
    store_ref found;
    int hit;
    int error;            /* the formula had an operator we cannot evaluate */
    stubborn_t *sb;       /* the stubborn checker's reduction */
} goal;

/* ---- the stubborn checker's reductions (checkers/stubborn.c) ---- */

static uint32_t reduce_for_deadlock(void *ctx, const nc_count *m, const uint32_t *enabled,
                                    uint32_t nen, uint32_t *out)
{
    goal *g = ctx;
    return stubborn_deadlock(g->sb, m, enabled, nen, out);
}

/* The formula is false in every expanded marking: the search stops at the
 * first one where it holds. */
static uint32_t reduce_for_goal(void *ctx, const nc_count *m, const uint32_t *enabled,
                                uint32_t nen, uint32_t *out)
{
    goal *g = ctx;
    stubborn_seed_clear(g->sb);
    if (goal_seed(g->sb, g->cn, g->formula, m, 1) < 0)
        return stubborn_fire_all(enabled, nen, out);
    return stubborn_from_seed(g->sb, m, enabled, nen, out);
}

/* reach: states are tested as they are found, the initial one first. */
static int reach_state(void *ctx, uint64_t id, store_ref ref, const nc_count *m)
{
    goal *g = ctx;
    (void)id;
    int v = cn_state_holds(g->cn, g->formula, m);
    if (v < 0) {
        g->error = 1;
        return 1;
    }
    if (v) {
        g->found = ref;
        g->hit = 1;
    }
    return v;
}

/* dl: a state is a deadlock once expanding it found nothing enabled;
 * states are expanded in the order they were found. */
static int dl_expanded(void *ctx, uint64_t id, store_ref ref, uint32_t n)
{
    goal *g = ctx;
    (void)id;
    if (n)
        return 0;
    g->found = ref;
    g->hit = 1;
    return 1;
}

static void answer(explore_t *ex, const goal *g, explore_status st, const check_options *opt,
                   result_t *res)
{
    if (st == EXPLORE_GAVE_UP)
        return;
    if (g->error) {
        result_unknown(res, "formula not supported by the explicit checker");
        return;
    }
    if (!g->hit) {
        res->answer = ANSWER_NO;
        return;
    }
    res->answer = ANSWER_YES;
    if (!opt->want_run)
        return;
    uint32_t *run;
    size_t len;
    if (explore_run(ex, g->found, &run, &len) < 0 ||
        result_set_run(res, RUN_WITNESS, run, len, RESULT_NO_LOOP) < 0)
        result_unknown(res, "memory budget exhausted");
    else
        free(run);
}

/* A thread's view of the goal: the stubborn sets' scratch is its own. */
static int holds_here(void *ctx, const nc_count *m)
{
    goal *g = ctx;
    return cn_state_holds(g->cn, g->formula, m);
}

/* The search on several threads (engine/parallel.h): 1 answered, 0 the
 * net does not suit it (the caller searches on one thread). */
static int parallel_try(const cnet_t *cn, const tree_t *formula, prop_kind kind,
                        const check_options *opt, int reduce, result_t *res)
{
    char why[160];
    parallel_t *px = parallel_new(cn, opt, opt->threads, opt->want_run, why, sizeof why);
    if (!px) {
        if (opt->verbose)
            fprintf(stderr, "parallel: %s; searching on one thread\n", why);
        return 0;
    }
    unsigned n = parallel_threads(px);
    goal *gs = calloc(n, sizeof *gs);
    void **ctx = calloc(n, sizeof *ctx);
    int ok = gs && ctx;
    for (unsigned i = 0; ok && i < n; i++) {
        gs[i] = (goal){cn, formula, 0, 0, 0, NULL};
        ctx[i] = &gs[i];
        if (reduce && !(gs[i].sb = stubborn_new(cn)))
            ok = 0;
    }
    if (!ok) {
        result_unknown(res, "memory budget exhausted");
    } else {
        parallel_goal pg = {kind == KIND_DL, kind == KIND_DL ? NULL : holds_here,
                            !reduce ? NULL : kind == KIND_DL ? reduce_for_deadlock : reduce_for_goal,
                            ctx};
        explore_status st = parallel_search(px, &pg, res);
        result_add_technique(res, "PARALLEL");
        if (reduce)
            result_add_technique(res, "STUBBORN_SETS");
        if (st == EXPLORE_DONE) {
            res->answer = ANSWER_NO;
        } else if (st == EXPLORE_STOPPED && parallel_found(px) < 0) {
            result_unknown(res, "formula not supported by the explicit checker");
        } else if (st == EXPLORE_STOPPED) {
            res->answer = ANSWER_YES;
            uint32_t *run;
            size_t len;
            if (opt->want_run && (parallel_run(px, &run, &len) < 0 ||
                                  result_set_run(res, RUN_WITNESS, run, len, RESULT_NO_LOOP) < 0))
                result_unknown(res, "memory budget exhausted");
            else if (opt->want_run)
                free(run);
        }
    }
    for (unsigned i = 0; gs && i < n; i++)
        stubborn_free(gs[i].sb);
    free(gs);
    free(ctx);
    parallel_free(px);
    return 1;
}

/* The breadth-first search of explore.h. */
static void one_thread(const cnet_t *cn, const tree_t *formula, prop_kind kind,
                       const check_options *opt, int reduce, result_t *res)
{
    double start = mono_now();
    goal g = {cn, formula, 0, 0, 0, NULL};
    explore_visitor v = {NULL, NULL, NULL, reduce ? "stubborn" : "explicit", 0};
    if (kind == KIND_DL) {
        v.on_expanded = dl_expanded;
        v.deadlocks_only = 1;
    } else {
        v.on_state = reach_state;
    }
    result_add_technique(res, "EXPLICIT");
    explore_t *ex = explore_new(cn, opt, opt->want_run ? EXPLORE_RUNS : 0);
    if (ex && reduce && !(g.sb = stubborn_new(cn)))
        ex = (explore_free(ex), NULL);
    if (ex && reduce &&
        explore_set_reducer(ex, kind == KIND_DL ? reduce_for_deadlock : reduce_for_goal, &g) < 0)
        ex = (explore_free(ex), NULL);
    if (!ex) {
        result_unknown(res, "memory budget exhausted");
    } else {
        explore_status st = explore_bfs(ex, &v, &g, res);
        if (reduce && explore_reducing(ex))
            result_add_technique(res, "STUBBORN_SETS");
        answer(ex, &g, st, opt, res);
        explore_free(ex);
    }
    stubborn_free(g.sb);
    res->seconds = mono_now() - start;
}

/* dl and reach, by breadth-first search, reduced by stubborn sets when
 * reduce is set; on several threads when opt asks for them, the state
 * space is larger than opt->parallel_after and the net's markings suit
 * the parallel search. */
void explicit_search(const cnet_t *cn, const tree_t *formula, prop_kind kind,
                     const check_options *opt, int reduce, result_t *res)
{
    double start = mono_now();
    if (opt->threads > 1) {
        uint64_t first = opt->parallel_after;
        if (first && (!opt->max_states || opt->max_states > first)) {
            check_options one = *opt;
            one.max_states = first;
            one_thread(cn, formula, kind, &one, reduce, res);
            if (res->answer != ANSWER_UNKNOWN || res->states <= first)
                return;
            if (opt->verbose)
                fprintf(stderr, "parallel: more than %llu states: again on %u threads\n",
                        (unsigned long long)first, opt->threads);
            result_clear(res);
        }
        result_add_technique(res, "EXPLICIT");
        if (parallel_try(cn, formula, kind, opt, reduce, res)) {
            res->seconds = mono_now() - start;
            return;
        }
    }
    one_thread(cn, formula, kind, opt, reduce, res);
    res->seconds = mono_now() - start;
}

void explicit_run(const cnet_t *cn, const tree_t *formula, prop_kind kind,
                  const check_options *opt, result_t *res)
{
    if (kind == KIND_CTL && formula) {
        ctl_run(cn, formula, opt, res);
        return;
    }
    if (kind == KIND_LTL && formula) {
        ltl_run(cn, formula, opt, opt->ltl_infinite_only ? LTL_INFINITE : LTL_STUTTER, res);
        return;
    }
    if (kind != KIND_DL && (kind != KIND_REACH || !formula)) {
        result_add_technique(res, "EXPLICIT");
        result_unknown(res, "kind not supported by the explicit checker");
        return;
    }
    explicit_search(cn, formula, kind, opt, 0, res);
}

/* Only state formulas can be evaluated on a marking; T_BOUND asks for a
 * number, not a truth value. */
int state_ops_only(const tree_t *t)
{
    if (!t)
        return 1;
    if (t->op > T_IFF || t->op == T_ACTION)
        return 0;
    return state_ops_only(t->l) && state_ops_only(t->r);
}

int no_bound(const tree_t *t)
{
    return !t || (t->op != T_BOUND && no_bound(t->l) && no_bound(t->r));
}

int explicit_accepts(const tree_t *t, prop_kind kind, char *why, size_t whylen)
{
    switch (kind) {
    case KIND_DL:
        return 1;
    case KIND_REACH:
        if (t && state_ops_only(t))
            return 1;
        snprintf(why, whylen, t && tree_has_action(t) ?
                 "explicit checker: action propositions are properties of runs, for ltl only" :
                 "explicit checker: reach needs a state formula");
        return 0;
    case KIND_CTL:
        if (t && !tree_has_ltl(t) && no_bound(t) && !tree_has_action(t))
            return 1;
        snprintf(why, whylen, tree_has_action(t) ?
                 "explicit checker: action propositions are properties of runs, for ltl only" :
                 "explicit checker: ctl needs a CTL formula (no X, F, G, U, R without a path "
                 "quantifier)");
        return 0;
    case KIND_LTL:
        if (t && !tree_has_ctl(t) && no_bound(t))
            return 1;
        snprintf(why, whylen, "explicit checker: ltl needs an LTL formula (no path quantifiers)");
        return 0;
    default:
        snprintf(why, whylen, "explicit checker: no kind given");
        return 0;
    }
}
