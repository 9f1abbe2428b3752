/* The five global properties (mcc-formats.md §2.5), each a single value
 * whose id is the examination's name.  First what the structure and the
 * initial marking settle, then one exploration that watches only what the
 * examination needs and stops at the first marking or firing that decides
 * it:
 *   ReachabilityDeadlock  a deadlock;
 *   OneSafe               a marking with a count above 1;
 *   QuasiLiveness         the last transition fired for the first time;
 *   StableMarking         the last place changed by a firing (a place p is
 *                         stable iff no fired transition changes p: a
 *                         firing m -> m' that changes p makes m(p) or m'(p)
 *                         differ from m0(p));
 *   Liveness              a deadlock; otherwise the graph is kept and its
 *                         bottom components are examined (graphscc.c).
 * A complete exploration settles the rest.  Before the search, the state
 * equation (globallp.c) looks for a proof that no deadlock, or no count
 * above 1, is reachable, and on a safe net the unfolding's prefix
 * (unfolddecide.c) decides ReachabilityDeadlock in a part of the time.  (Its proofs of dead transitions, tried after an
 * unfinished search, decided nothing on the sample: not worth the time.)
 *
 * On the unfolding of a colored net the properties are about the colored
 * places and transitions, as the contest's expected answers read them: a
 * colored place holding two tokens of different colors is not one-safe, a
 * colored transition is quasi-live when one of its bindings is.  Each is a class
 * of unfolded copies, and counts, firings and changes are taken per class.
 * On a P/T net every node is its own class. */
#include "engine/explore.h"
#include "engine/graph.h"
#include "engine/stubbornset.h"
#include "mcc/reduced.h"
#include "engine/walk.h"
#include "mcc/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WALK_DEPTH 100000

typedef enum { G_DEADLOCK, G_ONESAFE, G_QUASI, G_STABLE, G_LIVE } question;

static const char *const names[] = {
    "ReachabilityDeadlock", "OneSafe", "QuasiLiveness", "StableMarking", "Liveness",
};

typedef struct watch {
    const mcc_run *r;
    question q;
    const store_t *store;
    uint8_t *fired;         /* per transition */
    uint32_t nfired;
    uint8_t *changed;       /* per place class */
    uint32_t nchanged;
    /* classes: NULL maps for a P/T net (each node its own) */
    uint32_t *pclass, *tclass;
    uint32_t npclass, ntclass;
    uint8_t *cfired;        /* per transition class */
    uint32_t ncfired;
    int64_t *scratch;       /* per place class, zero between uses */
    int deadlock, unsafe;
    store_ref stop_ref;     /* the marking that stopped the search */
    graph_t *g;           /* Liveness only; NULL once it outgrew its budget */
    stubborn_t *sb;       /* ReachabilityDeadlock's reduction, unless --por=off */
    const char *tech;     /* what the search's answers name */
} watch;

static uint32_t pcl(const watch *w, uint32_t p)
{
    return w->pclass ? w->pclass[p] : p;
}

static uint32_t tcl(const watch *w, uint32_t t)
{
    return w->tclass ? w->tclass[t] : t;
}

/* Whether some place class holds more than one token in m. */
static int unsafe_marking(watch *w, const nc_count *m)
{
    const cnet_t *cn = w->r->cn;
    if (!w->pclass) {
        for (uint32_t p = 0; p < cn->nplaces; p++)
            if (m[p] > 1)
                return 1;
        return 0;
    }
    int unsafe = 0;
    for (uint32_t p = 0; p < cn->nplaces; p++) {
        int64_t *c = &w->scratch[w->pclass[p]];
        if (m[p] > 1 || (*c += (int64_t)m[p]) > 1)
            unsafe = 1;
    }
    for (uint32_t p = 0; p < cn->nplaces; p++)
        w->scratch[w->pclass[p]] = 0;
    return unsafe;
}

/* ---- the exploration's callbacks ---- */

static void drop_graph(watch *w)
{
    if (!w->g)
        return;
    fprintf(stderr, "mck mcc: Liveness: graph outgrew its budget; only FALSE can be shown\n");
    graph_free(w->g);
    w->g = NULL;
}

static int on_state(void *ctx, uint64_t id, store_ref ref, const nc_count *m)
{
    watch *w = ctx;
    (void)id;
    if (w->q == G_ONESAFE) {
        if (!store_key_safe(w->store, store_key(w->store, ref, NULL)) ||
            (w->pclass && unsafe_marking(w, m))) {
            w->unsafe = 1;
            w->stop_ref = ref;
            return 1;
        }
    }
    if (w->g && graph_add_state(w->g, ref) < 0)
        drop_graph(w);
    return 0;
}

/* The place classes whose token count t's firing changes. */
static void note_changes(watch *w, uint32_t t)
{
    const cnet_t *cn = w->r->cn;
    for (uint32_t i = cn->eff_start[t]; i < cn->eff_start[t + 1]; i++)
        w->scratch[pcl(w, cn->eff_place[i])] += cn->eff_delta[i];
    for (uint32_t i = cn->eff_start[t]; i < cn->eff_start[t + 1]; i++) {
        uint32_t c = pcl(w, cn->eff_place[i]);
        if (w->scratch[c] != 0 && !w->changed[c]) {
            w->changed[c] = 1;
            w->nchanged++;
        }
    }
    for (uint32_t i = cn->eff_start[t]; i < cn->eff_start[t + 1]; i++)
        w->scratch[pcl(w, cn->eff_place[i])] = 0;
}

static void note_fired(watch *w, uint32_t t)
{
    w->fired[t] = 1;
    w->nfired++;
    uint32_t c = tcl(w, t);
    if (!w->cfired[c]) {
        w->cfired[c] = 1;
        w->ncfired++;
    }
    if (w->q == G_STABLE)
        note_changes(w, t);
}

static int on_edge(void *ctx, store_ref from, uint32_t t, store_ref to, int fresh)
{
    watch *w = ctx;
    (void)from;
    if (!w->fired[t])
        note_fired(w, t);
    if (w->g && graph_add_edge(w->g, to, fresh, t) < 0)
        drop_graph(w);
    if (w->q == G_QUASI)
        return w->ncfired == w->ntclass;
    if (w->q == G_STABLE)
        return w->nchanged == w->npclass;
    return 0;
}

static int on_expanded(void *ctx, uint64_t id, store_ref ref, uint32_t n)
{
    watch *w = ctx;
    (void)id;
    (void)ref;
    if (w->g && graph_close_state(w->g) < 0)
        drop_graph(w);
    if (n == 0) {
        w->deadlock = 1;
        w->stop_ref = ref;
        /* without transitions Liveness holds vacuously, deadlock or not */
        return w->q == G_DEADLOCK || (w->q == G_LIVE && w->r->cn->ntransitions > 0);
    }
    return 0;
}

/* ---- before and after ---- */

/* Whether every member of some transition class is never enabled (a
 * colored transition with no binding at all included). */
static int some_class_dead(const mcc_run *r, const watch *w)
{
    if (!w->tclass)
        return r->st.ndead > 0;
    uint8_t *alive = calloc(w->ntclass ? w->ntclass : 1, 1);
    if (!alive)
        return 0;
    for (uint32_t t = 0; t < r->cn->ntransitions; t++)
        if (r->st.may_fire[t])
            alive[w->tclass[t]] = 1;
    int dead = 0;
    for (uint32_t c = 0; c < w->ntclass; c++)
        dead |= !alive[c];
    free(alive);
    return dead;
}

/* Whether every member of some place class never changes. */
static int some_class_frozen(const mcc_run *r, const watch *w)
{
    if (!w->pclass)
        return r->st.nfrozen > 0;
    uint8_t *moves = calloc(w->npclass ? w->npclass : 1, 1);
    if (!moves)
        return 0;
    for (uint32_t p = 0; p < r->cn->nplaces; p++)
        if (!r->st.frozen[p])
            moves[w->pclass[p]] = 1;
    int frozen = 0;
    for (uint32_t c = 0; c < w->npclass; c++)
        frozen |= !moves[c];
    free(moves);
    return frozen;
}

/* What the structure and the initial marking decide: 1 printed, 0 not. */
static int shortcut(const mcc_run *r, watch *w, question q)
{
    const mcc_structure *s = &r->st;
    const char *id = names[q];
    switch (q) {
    case G_DEADLOCK:
        if (s->never_deadlocks)
            return mcc_answer_bool(id, 0, TECH_TOPO_INITIAL);
        if (r->cn->ntransitions == 0)
            return mcc_answer_bool(id, 1, TECH_INITIAL);
        return 0;
    case G_ONESAFE:
        if (s->initial_unsafe || (w->pclass && unsafe_marking(w, r->cn->initial)))
            return mcc_answer_bool(id, 0, TECH_INITIAL);
        for (uint32_t p = 0; p < r->cn->nplaces; p++)
            if (s->gainable[p])
                return 0;
        /* no count can grow beyond its initial value, which is <= 1 */
        return mcc_answer_bool(id, 1, TECH_TOPO_INITIAL);
    case G_QUASI:
        return some_class_dead(r, w) ? mcc_answer_bool(id, 0, TECH_TOPO_INITIAL) : 0;
    case G_STABLE:
        return some_class_frozen(r, w) ? mcc_answer_bool(id, 1, TECH_TOPO_INITIAL) : 0;
    case G_LIVE:
        return some_class_dead(r, w) ? mcc_answer_bool(id, 0, TECH_TOPO_INITIAL) : 0;
    }
    return 0;
}

/* Liveness after a complete exploration without a deadlock. */
static int liveness(const mcc_run *r, watch *w)
{
    const char *id = names[G_LIVE];
    if (w->ncfired < w->ntclass)
        return mcc_answer_bool(id, 0, TECH_EXPLICIT);
    if (!w->g)
        return 0;
    char why[96];
    graph_drop_refs(w->g);
    int live;
    if (graph_components_of(w->g, w->tclass, w->ntclass, r->budget->bytes, r->budget->deadline,
                            1, &live, NULL, why, sizeof why) < 0) {
        fprintf(stderr, "mck mcc: Liveness: %s\n", why);
        return 0;
    }
    return mcc_answer_bool(id, live, TECH_EXPLICIT);
}

/* The value of a stopped or complete exploration: 1 printed, 0 not. */
static int conclude(const mcc_run *r, watch *w, explore_status st, const mcc_evidence *ev)
{
    /* what the marking or firing that stopped the search shows */
    static const int stop_value[] = {[G_DEADLOCK] = 1, [G_ONESAFE] = 0, [G_QUASI] = 1,
                                     [G_STABLE] = 0, [G_LIVE] = 0};
    const char *id = names[w->q];
    if (st == EXPLORE_STOPPED)
        return mcc_answer_bool_shown(id, stop_value[w->q], w->tech, ev);
    if (st != EXPLORE_DONE)
        return 0;
    switch (w->q) {
    case G_DEADLOCK: return mcc_answer_bool(id, 0, w->tech);
    case G_ONESAFE: return mcc_answer_bool(id, 1, TECH_EXPLICIT);
    case G_QUASI: return mcc_answer_bool(id, w->ncfired == w->ntclass, TECH_EXPLICIT);
    case G_STABLE: return mcc_answer_bool(id, w->nchanged < w->npclass, TECH_EXPLICIT);
    case G_LIVE: return liveness(r, w);
    }
    return 0;
}

/* The state equation before the search: one system for a deadlock, one per
 * place for OneSafe, within a share of the time. */
static int lp_before(const mcc_run *r, const watch *w, question q)
{
    /* its systems bound single places, not a colored place's copies */
    if (r->no_lp || (q == G_ONESAFE && w->pclass) || (q != G_DEADLOCK && q != G_ONESAFE))
        return 0;
    budget_t lp = budget_carve(r->budget, CARVE_MCC_GLOBAL_LP);
    return q == G_DEADLOCK ? mcc_lp_no_deadlock(r, names[q], lp.deadline)
                           : mcc_lp_one_safe(r, names[q], lp.deadline);
}

/* ---- random walks ---- */

/* What a walk's step shows: 1 when it decides the question (the walk
 * stops), as the search's callbacks would; the fired transitions and
 * changed places it meets stay known for the search. */
static int walk_step(void *ctx, const nc_count *m, uint32_t t, int dead)
{
    watch *w = ctx;
    const cnet_t *cn = w->r->cn;
    if (t != WALK_START && !w->fired[t])
        note_fired(w, t);
    switch (w->q) {
    case G_DEADLOCK: return dead;
    case G_LIVE: return dead && cn->ntransitions > 0;
    case G_QUASI: return w->ncfired == w->ntclass;
    case G_STABLE: return w->nchanged == w->npclass;
    case G_ONESAFE: return unsafe_marking(w, m);
    }
    return 0;
}

/* 1 when a walk decided the question (and its answer is printed). */
static int walk_before(const mcc_run *r, watch *w)
{
    static const int found_value[] = {[G_DEADLOCK] = 1, [G_ONESAFE] = 0, [G_QUASI] = 1,
                                      [G_STABLE] = 0, [G_LIVE] = 0};
    walk_result res;
    if (r->no_walk)
        return 0;
    budget_t walk = budget_carve(r->budget, CARVE_MCC_GLOBAL_WALK);
    int found = walk_run(r->cn, walk.deadline, r->budget->interrupted, 1, WALK_DEPTH, walk_step,
                         w, &res);
    if (r->verbose)
        fprintf(stderr, "mck mcc: %s: %llu random walks, %llu steps%s\n", names[w->q],
                (unsigned long long)res.walks, (unsigned long long)res.steps,
                found > 0 ? ", decided" : "");
    if (found <= 0) {
        free(res.run);
        return 0;
    }
    /* the run into the deadlock or unsafe marking shows the value */
    int shows = w->q == G_DEADLOCK || w->q == G_LIVE || w->q == G_ONESAFE;
    mcc_evidence ev = {w->q == G_DEADLOCK ? RUN_WITNESS : RUN_COUNTEREXAMPLE, res.run,
                       res.run_len, w->q == G_ONESAFE ? RESULT_NO_LOOP : res.run_len};
    int printed = mcc_answer_bool_shown(names[w->q], found_value[w->q], TECH_EXPLICIT,
                                        shows ? &ev : NULL);
    free(res.run);
    return printed;
}

/* Every deadlock survives the reduction (stubborn.h); the other four
 * questions are about every firing or the whole graph. */
static uint32_t reduce_for_deadlock(void *ctx, const nc_count *m, const uint32_t *enabled,
                                    uint32_t nen, uint32_t *out)
{
    watch *w = ctx;
    return stubborn_deadlock(w->sb, m, enabled, nen, out);
}

static int explore_for(const mcc_run *r, watch *w)
{
    /* Liveness splits the budget between the markings and the graph */
    budget_t states = *r->budget, graph = *r->budget;
    if (w->q == G_LIVE) {
        states = budget_carve(r->budget, CARVE_MCC_LIVENESS_STATES);
        graph = budget_carve(r->budget, CARVE_MCC_LIVENESS_GRAPH);
    }
    check_options opt;
    mcc_search_options(r, &states, &opt);
    if (w->q == G_LIVE && !(w->g = graph_new(graph.bytes)))
        fprintf(stderr, "mck mcc: Liveness: no room for the graph; only FALSE can be shown\n");
    /* a deadlock or an unsafe marking is shown by the run to it */
    int keep_runs = mcc_runs_wanted() && (w->q != G_QUASI && w->q != G_STABLE);
    /* Deadlocks survive the structural reduction (reduce/reduce.h); the
     * other four questions are about every transition of the net. */
    mcc_reduced red;
    const tree_t *no_formula = NULL;
    int positive = 0;
    int reduced = w->q == G_DEADLOCK && mcc_reduce(r, &no_formula, &positive, 1, 0, &red);
    if (!reduced)
        memset(&red, 0, sizeof red);
    const cnet_t *cn = reduced ? red.cn : r->cn;
    explore_t *ex = explore_new(cn, &opt, (keep_runs ? EXPLORE_RUNS : 0) | (w->g ? EXPLORE_REFS : 0));
    if (!ex) {
        fprintf(stderr, "mck mcc: %s: memory budget too small to start\n", names[w->q]);
        mcc_reduced_free(&red);
        return 0;
    }
    w->store = explore_store(ex);
    int por = w->q == G_DEADLOCK && !r->no_por && (w->sb = stubborn_new(cn)) &&
              explore_set_reducer(ex, reduce_for_deadlock, w) == 0;
    static const char *const techs[2][2] = {
        {TECH_EXPLICIT, TECH_STUBBORN},
        {TECH_EXPLICIT " " TECH_REDUCTION, TECH_STUBBORN " " TECH_REDUCTION}};
    w->tech = techs[reduced][por];
    explore_visitor v = {on_state, on_edge, on_expanded, names[w->q], 0};
    result_t res;
    result_init(&res);
    explore_status st = explore_bfs(ex, &v, w, &res);
    if (!explore_reducing(ex))
        w->tech = techs[reduced][0];
    uint32_t *run = NULL, *mapped = NULL;
    mcc_evidence ev = {w->q == G_DEADLOCK ? RUN_WITNESS : RUN_COUNTEREXAMPLE, NULL, 0,
                       RESULT_NO_LOOP};
    if (keep_runs && st == EXPLORE_STOPPED && explore_run(ex, w->stop_ref, &run, &ev.len) == 0) {
        ev.run = run;
        if (w->deadlock)
            ev.loop_start = ev.len;
        if (mcc_reduced_run(&red, &ev, &mapped) < 0)
            ev.run = NULL;
    }
    explore_free(ex);
    stubborn_free(w->sb);
    w->sb = NULL;
    w->store = NULL;
    if (st == EXPLORE_GAVE_UP) {
        fprintf(stderr, "mck mcc: %s: %s after %llu states\n", names[w->q], res.reason,
                (unsigned long long)res.states);
        mcc_answer_open(names[w->q], res.reason);
    }
    result_clear(&res);
    int printed = conclude(r, w, st, ev.run ? &ev : NULL);
    free(run);
    free(mapped);
    mcc_reduced_free(&red);
    return printed;
}

/* The classes of a colored net's unfolding: the groups of its copies.  A
 * node in no group is a class of its own.  0, or -1 out of memory. */
static int make_classes(const net_t *net, const nc_group *groups, size_t ngroups, size_t n,
                        uint32_t **out, uint32_t *nclasses)
{
    uint32_t *c = malloc((n ? n : 1) * sizeof *c);
    if (!c)
        return -1;
    for (size_t i = 0; i < n; i++)
        c[i] = UINT32_MAX;
    for (size_t g = 0; g < ngroups; g++)
        for (uint32_t k = 0; k < groups[g].n; k++)
            c[groups[g].members[k]] = (uint32_t)g;
    uint32_t next = (uint32_t)ngroups;
    for (size_t i = 0; i < n; i++)
        if (c[i] == UINT32_MAX)
            c[i] = next++;
    (void)net;
    *out = c;
    *nclasses = next;
    return 0;
}

int mcc_global(mcc_run *r)
{
    question q = G_DEADLOCK;
    while (q < G_LIVE && strcmp(names[q], r->exam))
        q++;
    watch w;
    memset(&w, 0, sizeof w);
    w.r = r;
    w.q = q;
    w.npclass = r->cn->nplaces;
    w.ntclass = r->cn->ntransitions;
    int done = 0, ok = 1;
    if (r->net->colored.unfolded)
        ok = make_classes(r->net, r->net->place_groups, r->net->nplace_groups, r->cn->nplaces,
                          &w.pclass, &w.npclass) == 0 &&
             make_classes(r->net, r->net->transition_groups, r->net->ntransition_groups,
                          r->cn->ntransitions, &w.tclass, &w.ntclass) == 0;
    w.fired = calloc(r->cn->ntransitions ? r->cn->ntransitions : 1, 1);
    w.changed = calloc(w.npclass ? w.npclass : 1, 1);
    w.cfired = calloc(w.ntclass ? w.ntclass : 1, 1);
    w.scratch = calloc(w.npclass ? w.npclass : 1, sizeof *w.scratch);
    if (!ok || !w.fired || !w.changed || !w.cfired || !w.scratch)
        fprintf(stderr, "mck mcc: out of memory\n");
    else if (shortcut(r, &w, q) || lp_before(r, &w, q))
        done = 1;
    else
        done = walk_before(r, &w) ||
               (q == G_DEADLOCK && !r->no_unfold && mcc_unfold_deadlock(r, names[q])) || explore_for(r, &w);
    graph_free(w.g);
    free(w.fired);
    free(w.changed);
    free(w.cfired);
    free(w.scratch);
    free(w.pclass);
    free(w.tclass);
    return done ? 0 : 1;
}
