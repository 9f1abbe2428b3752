/* The behavioural generic properties from one exploration that records
 * what they need: the places ever marked, the transitions ever fired, the
 * first marking with two tokens somewhere, the first deadlock, and the
 * reachability graph for reversibility and liveness (its components,
 * graphscc.c).  What the exploration leaves open, the state equation may
 * still show: no deadlock, no place above one token. */
#include "base/clock.h"
#include "engine/explore.h"
#include "checkers/generic/generic.h"
#include "engine/graph.h"
#include "lp/stateeq.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct watch {
    const cnet_t *cn;
    uint8_t *marked, *fired;
    uint32_t nmarked, nfired;
    int unsafe, deadlock;
    store_ref unsafe_ref, dead_ref;
    uint64_t dead_id;
    uint32_t unsafe_place;
    nc_count unsafe_count;
    graph_t *g;          /* NULL once it outgrew its budget */
} watch;

static void drop_graph(watch *w)
{
    graph_free(w->g);
    w->g = NULL;
}

static int on_state(void *ctx, uint64_t id, store_ref ref, const nc_count *m)
{
    watch *w = ctx;
    (void)id;
    if (w->nmarked < w->cn->nplaces || !w->unsafe)
        for (uint32_t p = 0; p < w->cn->nplaces; p++) {
            if (m[p] && !w->marked[p]) {
                w->marked[p] = 1;
                w->nmarked++;
            }
            if (m[p] > 1 && !w->unsafe) {
                w->unsafe = 1;
                w->unsafe_ref = ref;
                w->unsafe_place = p;
                w->unsafe_count = m[p];
            }
        }
    if (w->g && graph_add_state(w->g, ref) < 0)
        drop_graph(w);
    return 0;
}

static int on_edge(void *ctx, store_ref from, uint32_t t, store_ref to, int fresh)
{
    watch *w = ctx;
    (void)from;
    if (!w->fired[t]) {
        w->fired[t] = 1;
        w->nfired++;
    }
    if (w->g && graph_add_edge(w->g, to, fresh, t) < 0)
        drop_graph(w);
    return 0;
}

static int on_expanded(void *ctx, uint64_t id, store_ref ref, uint32_t n)
{
    watch *w = ctx;
    (void)id;
    if (w->g && graph_close_state(w->g) < 0)
        drop_graph(w);
    if (n == 0 && !w->deadlock) {
        w->deadlock = 1;
        w->dead_ref = ref;
        w->dead_id = id;
    }
    return 0;
}

/* The search-tree run to ref as v's evidence. */
static void give_run(explore_t *ex, store_ref ref, gp_value *v, run_role role, int deadlock)
{
    uint32_t *run;
    size_t len;
    if (explore_run(ex, ref, &run, &len) < 0)
        return;
    free(v->run);
    v->run = run;
    v->run_len = len;
    v->role = role;
    v->loop_start = deadlock ? len : RESULT_NO_LOOP;
}

/* Values from a complete exploration (complete) or from what it met. */
static void conclude(const cnet_t *cn, explore_t *ex, watch *w, int complete, uint64_t states,
                     const char *why, gp_result *out)
{
    const net_t *n = cn->net;
    gp_value *v = out->v;
    const char *T = "EXPLICIT";
    if (w->unsafe) {
        gp_set(&v[GP_SAFE], 0, T, "a marking with %llu tokens in %s is reachable",
               (unsigned long long)w->unsafe_count, gp_place_name(n, w->unsafe_place));
        give_run(ex, w->unsafe_ref, &v[GP_SAFE], RUN_COUNTEREXAMPLE, 0);
    } else if (complete) {
        gp_set(&v[GP_SAFE], 1, T, "no place holds two tokens in any of the %llu reachable markings",
               (unsigned long long)states);
    }
    if (w->deadlock) {
        gp_set(&v[GP_DEADLOCK], 1, T, "a deadlock is reachable");
        give_run(ex, w->dead_ref, &v[GP_DEADLOCK], RUN_WITNESS, 1);
        if (cn->ntransitions > 0) {
            gp_set(&v[GP_LIVE], 0, T, "a deadlock is reachable, where nothing can fire again");
            give_run(ex, w->dead_ref, &v[GP_LIVE], RUN_COUNTEREXAMPLE, 1);
        }
        if (w->dead_id != 0) {   /* nothing leads back from it */
            gp_set(&v[GP_REVERSIBLE], 0, T, "a deadlock other than the initial marking is reachable");
            give_run(ex, w->dead_ref, &v[GP_REVERSIBLE], RUN_COUNTEREXAMPLE, 1);
        }
    } else if (complete) {
        gp_set(&v[GP_DEADLOCK], 0, T, "none of the %llu reachable markings is a deadlock",
               (unsigned long long)states);
    }
    if (w->nmarked == cn->nplaces) {
        gp_set(&v[GP_DEAD_PLACES], 0, T, "every place is marked in some reachable marking");
    } else if (complete) {
        uint32_t p = 0;
        while (w->marked[p])
            p++;
        gp_set(&v[GP_DEAD_PLACES], 1, T, "%s is empty in all %llu reachable markings",
               gp_place_name(n, p), (unsigned long long)states);
    }
    if (w->nfired == cn->ntransitions) {
        gp_set(&v[GP_DEAD_TRANSITIONS], 0, T, "every transition fires in some reachable marking");
    } else if (complete) {
        uint32_t t = 0;
        while (w->fired[t])
            t++;
        gp_set(&v[GP_DEAD_TRANSITIONS], 1, T, "%s is enabled in none of the %llu reachable markings",
               gp_transition_name(n, t), (unsigned long long)states);
        gp_set(&v[GP_LIVE], 0, T, "%s can never fire", gp_transition_name(n, t));
    }
    if (!complete)
        for (int i = GP_SAFE; i <= GP_LIVE; i++)
            if (v[i].value < 0)
                gp_set(&v[i], -1, T, "%s after %llu markings", why, (unsigned long long)states);
}

/* Reversibility and liveness from the components of the complete graph. */
static void components(const cnet_t *cn, watch *w, size_t budget, double deadline, gp_result *out)
{
    gp_value *v = out->v;
    const char *T = "EXPLICIT";
    if (!w->g) {
        if (v[GP_REVERSIBLE].value < 0)
            gp_set(&v[GP_REVERSIBLE], -1, T, "the reachability graph outgrew the memory budget");
        if (v[GP_LIVE].value < 0)
            gp_set(&v[GP_LIVE], -1, T, "the reachability graph outgrew the memory budget");
        return;
    }
    graph_drop_refs(w->g);
    char why[96];
    int live;
    uint64_t ncomp;
    if (graph_components(w->g, cn->ntransitions, budget, deadline, 0, &live, &ncomp, why,
                         sizeof why) < 0) {
        if (v[GP_REVERSIBLE].value < 0)
            gp_set(&v[GP_REVERSIBLE], -1, T, "%s", why);
        if (v[GP_LIVE].value < 0)
            gp_set(&v[GP_LIVE], -1, T, "%s", why);
        return;
    }
    if (v[GP_REVERSIBLE].value < 0) {
        if (ncomp == 1)
            gp_set(&v[GP_REVERSIBLE], 1, T, "the reachable markings form one strongly connected component");
        else
            gp_set(&v[GP_REVERSIBLE], 0, T, "the reachable markings fall into %llu strongly connected "
                   "components", (unsigned long long)ncomp);
    }
    if (v[GP_LIVE].value < 0) {
        if (live)
            gp_set(&v[GP_LIVE], 1, T, "every terminal component of the reachability graph fires "
                   "every transition");
        else
            gp_set(&v[GP_LIVE], 0, T, "some terminal component of the reachability graph lacks a "
                   "transition");
    }
}

/* The state equation on what the exploration left open. */
static void state_equation(const cnet_t *cn, const budget_t *lp, gp_result *out)
{
    gp_value *v = out->v;
    const char *T = "LINEAR_EQUATIONS";
    if (!(budget_seconds(lp) > 0))
        return;
    /* both carved now: the second question's time does not depend on how
     * long the first took */
    budget_t deadlock = budget_carve(lp, CARVE_GENERIC_LP_DEADLOCK);
    budget_t safe = budget_carve(lp, CARVE_GENERIC_LP_SAFE);
    if (v[GP_DEADLOCK].value < 0) {
        tree_t *dead = tree_deadlock();
        if (dead && stateeq_unreachable(cn, dead, budget_seconds(&deadlock)) == SE_UNREACHABLE)
            gp_set(&v[GP_DEADLOCK], 0, T, "the state equation has no solution without an enabled "
                   "transition");
        tree_free(dead);
    }
    if (v[GP_SAFE].value < 0) {
        double until = mono_now() + budget_seconds(&safe);
        uint32_t p = 0;
        for (; p < cn->nplaces; p++) {
            uint64_t bound;
            double left = until - mono_now();
            if (left <= 0 || stateeq_upper_bound(cn, &p, 1, left / (cn->nplaces - p), &bound) < 0 ||
                bound > 1)
                break;
        }
        if (p == cn->nplaces)
            gp_set(&v[GP_SAFE], 1, T, "the state equation bounds every place by one token");
    }
}

void generic_behavioural(const cnet_t *cn, const check_options *opt, gp_result *out)
{
    for (int i = GP_SAFE; i <= GP_LIVE; i++)
        gp_set(&out->v[i], -1, "EXPLICIT", "not decided");
    watch w;
    memset(&w, 0, sizeof w);
    w.cn = cn;
    w.marked = calloc(cn->nplaces ? cn->nplaces : 1, 1);
    w.fired = calloc(cn->ntransitions ? cn->ntransitions : 1, 1);
    budget_t states = budget_carve(opt->budget, CARVE_GENERIC_STATES);
    budget_t graph = budget_carve(opt->budget, CARVE_GENERIC_GRAPH);
    check_options sub = *opt;
    sub.budget = &states;
    w.g = graph_new(graph.bytes);
    explore_t *ex = w.marked && w.fired ? explore_new(cn, &sub, EXPLORE_RUNS | EXPLORE_REFS) : NULL;
    if (!ex) {
        for (int i = GP_SAFE; i <= GP_LIVE; i++)
            gp_set(&out->v[i], -1, "EXPLICIT", "memory budget exhausted");
    } else {
        explore_visitor v = {on_state, on_edge, on_expanded, "properties", 0};
        result_t res;
        result_init(&res);
        explore_status st = explore_bfs(ex, &v, &w, &res);
        out->states = res.states;
        out->complete = st == EXPLORE_DONE;
        conclude(cn, ex, &w, out->complete, res.states, res.reason, out);
        explore_free(ex);
        /* the exploration's store is gone: the graph and its components
         * share the whole budget */
        if (out->complete)
            components(cn, &w, opt->budget->bytes, opt->budget->deadline, out);
        result_clear(&res);
        budget_t lp = budget_carve(opt->budget, CARVE_GENERIC_LP);
        state_equation(cn, &lp, out);
    }
    gp_value *dead = &out->v[GP_DEAD_TRANSITIONS], *quasi = &out->v[GP_QUASI_LIVE];
    gp_set(quasi, dead->value < 0 ? -1 : !dead->value, dead->techniques, "%s", dead->explanation);
    graph_free(w.g);
    free(w.marked);
    free(w.fired);
}
