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
 * above 1, is reachable.  (Its proofs of dead transitions, tried after an
 * unfinished search, decided nothing on the sample: not worth the time.) */
#include "checkers/explore.h"
#include "checkers/graph.h"
#include "checkers/stubborn.h"
#include "checkers/walk.h"
#include "mcc/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Share of the time left given to the state equation before the search,
 * then to random walks (which find deep deadlocks, unsafe markings and
 * rare transitions a breadth-first search may not reach in time). */
#define LP_BEFORE_SHARE 0.3
#define WALK_SHARE 0.1
#define WALK_MAX_SECONDS 5.0   /* a small net's search should not wait long */
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
    uint8_t *changed;       /* per place */
    uint32_t nchanged;
    int deadlock, unsafe;
    store_ref stop_ref;     /* the marking that stopped the search */
    graph_t *g;           /* Liveness only; NULL once it outgrew its budget */
    stubborn_t *sb;       /* ReachabilityDeadlock's reduction, unless --por=off */
    const char *tech;     /* what the search's answers name */
} watch;

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
    (void)m;
    if (w->q == G_ONESAFE) {
        /* Keys of markings with no count above 1 are bitmaps (store.h). */
        size_t header;
        if (!store_key_is_safe(store_key(w->store, ref, NULL), &header)) {
            w->unsafe = 1;
            w->stop_ref = ref;
            return 1;
        }
    }
    if (w->g && graph_add_state(w->g, ref) < 0)
        drop_graph(w);
    return 0;
}

static void note_changes(watch *w, uint32_t t)
{
    const cnet_t *cn = w->r->cn;
    for (uint32_t i = cn->eff_start[t]; i < cn->eff_start[t + 1]; i++) {
        uint32_t p = cn->eff_place[i];
        if (!w->changed[p]) {
            w->changed[p] = 1;
            w->nchanged++;
        }
    }
}

static int on_edge(void *ctx, store_ref from, uint32_t t, store_ref to, int fresh)
{
    watch *w = ctx;
    (void)from;
    if (!w->fired[t]) {
        w->fired[t] = 1;
        w->nfired++;
        if (w->q == G_STABLE)
            note_changes(w, t);
    }
    if (w->g && graph_add_edge(w->g, to, fresh, t) < 0)
        drop_graph(w);
    if (w->q == G_QUASI)
        return w->nfired == w->r->cn->ntransitions;
    if (w->q == G_STABLE)
        return w->nchanged == w->r->cn->nplaces;
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

/* What the structure and the initial marking decide: 1 printed, 0 not. */
static int shortcut(const mcc_run *r, question q)
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
        if (s->initial_unsafe)
            return mcc_answer_bool(id, 0, TECH_INITIAL);
        for (uint32_t p = 0; p < r->cn->nplaces; p++)
            if (s->gainable[p])
                return 0;
        /* no count can grow beyond its initial value, which is <= 1 */
        return mcc_answer_bool(id, 1, TECH_TOPO_INITIAL);
    case G_QUASI:
        return s->ndead ? mcc_answer_bool(id, 0, TECH_TOPO_INITIAL) : 0;
    case G_STABLE:
        return s->nfrozen ? mcc_answer_bool(id, 1, TECH_TOPO_INITIAL) : 0;
    case G_LIVE:
        return s->ndead ? mcc_answer_bool(id, 0, TECH_TOPO_INITIAL) : 0;
    }
    return 0;
}

/* Liveness after a complete exploration without a deadlock. */
static int liveness(const mcc_run *r, watch *w)
{
    const char *id = names[G_LIVE];
    if (w->nfired < r->cn->ntransitions)
        return mcc_answer_bool(id, 0, TECH_EXPLICIT);
    if (!w->g)
        return 0;
    char why[96];
    graph_drop_refs(w->g);
    int live;
    if (graph_components(w->g, r->cn->ntransitions, mcc_budget(r), r->deadline, 1, &live, NULL,
                         why, sizeof why) < 0) {
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
    case G_QUASI: return mcc_answer_bool(id, w->nfired == r->cn->ntransitions, TECH_EXPLICIT);
    case G_STABLE: return mcc_answer_bool(id, w->nchanged < r->cn->nplaces, TECH_EXPLICIT);
    case G_LIVE: return liveness(r, w);
    }
    return 0;
}

/* The state equation before the search: one system for a deadlock, one per
 * place for OneSafe, within a share of the time. */
static int lp_before(const mcc_run *r, question q)
{
    double until = mcc_now() + LP_BEFORE_SHARE * mcc_time_left(r);
    if (q == G_DEADLOCK)
        return mcc_lp_no_deadlock(r, names[q], until);
    if (q == G_ONESAFE)
        return mcc_lp_one_safe(r, names[q], until);
    return 0;
}

/* ---- random walks ---- */

/* What a walk's step shows: 1 when it decides the question (the walk
 * stops), as the search's callbacks would; the fired transitions and
 * changed places it meets stay known for the search. */
static int walk_step(void *ctx, const nc_count *m, uint32_t t, int dead)
{
    watch *w = ctx;
    const cnet_t *cn = w->r->cn;
    if (t != WALK_START && !w->fired[t]) {
        w->fired[t] = 1;
        w->nfired++;
        if (w->q == G_STABLE)
            note_changes(w, t);
    }
    switch (w->q) {
    case G_DEADLOCK: return dead;
    case G_LIVE: return dead && cn->ntransitions > 0;
    case G_QUASI: return w->nfired == cn->ntransitions;
    case G_STABLE: return w->nchanged == cn->nplaces;
    case G_ONESAFE:
        for (uint32_t p = 0; p < cn->nplaces; p++)
            if (m[p] > 1)
                return 1;
        return 0;
    }
    return 0;
}

/* 1 when a walk decided the question (and its answer is printed). */
static int walk_before(const mcc_run *r, watch *w)
{
    static const int found_value[] = {[G_DEADLOCK] = 1, [G_ONESAFE] = 0, [G_QUASI] = 1,
                                      [G_STABLE] = 0, [G_LIVE] = 0};
    walk_result res;
    double share = WALK_SHARE * mcc_time_left(r);
    double until = mcc_now() + (share < WALK_MAX_SECONDS ? share : WALK_MAX_SECONDS);
    int found = walk_run(r->cn, until, r->interrupted, 1, WALK_DEPTH, walk_step, w, &res);
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
    /* Liveness splits the budget between the markings and the graph, which
     * takes more: 16 bytes a state and 8 an edge. */
    size_t budget = mcc_budget(r);
    check_options opt;
    mcc_search_options(r, w->q == G_LIVE ? budget / 3 : 0, &opt);
    if (w->q == G_LIVE && !(w->g = graph_new(budget - budget / 3)))
        fprintf(stderr, "mck mcc: Liveness: no room for the graph; only FALSE can be shown\n");
    /* a deadlock or an unsafe marking is shown by the run to it */
    int keep_runs = mcc_xml_active() && (w->q != G_QUASI && w->q != G_STABLE);
    explore_t *ex = explore_new(r->cn, &opt, keep_runs);
    if (!ex) {
        fprintf(stderr, "mck mcc: %s: memory budget too small to start\n", names[w->q]);
        return 0;
    }
    w->store = explore_store(ex);
    w->tech = TECH_EXPLICIT;
    if (w->q == G_DEADLOCK && !r->no_por && (w->sb = stubborn_new(r->cn)) &&
        explore_set_reducer(ex, reduce_for_deadlock, w) == 0)
        w->tech = TECH_STUBBORN;
    explore_visitor v = {on_state, on_edge, on_expanded, names[w->q]};
    result_t res;
    result_init(&res);
    explore_status st = explore_bfs(ex, &v, w, &res);
    if (!explore_reducing(ex))
        w->tech = TECH_EXPLICIT;
    uint32_t *run = NULL;
    mcc_evidence ev = {w->q == G_DEADLOCK ? RUN_WITNESS : RUN_COUNTEREXAMPLE, NULL, 0,
                       RESULT_NO_LOOP};
    if (keep_runs && st == EXPLORE_STOPPED && explore_run(ex, w->stop_ref, &run, &ev.len) == 0) {
        ev.run = run;
        if (w->deadlock)
            ev.loop_start = ev.len;
    }
    explore_free(ex);
    stubborn_free(w->sb);
    w->sb = NULL;
    w->store = NULL;
    if (st == EXPLORE_GAVE_UP) {
        fprintf(stderr, "mck mcc: %s: %s after %llu states\n", names[w->q], res.reason,
                (unsigned long long)res.states);
        mcc_xml_unknown(names[w->q], res.reason);
    }
    result_clear(&res);
    int printed = conclude(r, w, st, run ? &ev : NULL);
    free(run);
    return printed;
}

int mcc_global(mcc_run *r)
{
    question q = G_DEADLOCK;
    while (q < G_LIVE && strcmp(names[q], r->exam))
        q++;
    if (shortcut(r, q) || lp_before(r, q))
        return 0;
    watch w;
    memset(&w, 0, sizeof w);
    w.r = r;
    w.q = q;
    w.fired = calloc(r->cn->ntransitions ? r->cn->ntransitions : 1, 1);
    w.changed = calloc(r->cn->nplaces ? r->cn->nplaces : 1, 1);
    int done = 0;
    if (!w.fired || !w.changed)
        fprintf(stderr, "mck mcc: out of memory\n");
    else
        done = walk_before(r, &w) || explore_for(r, &w);
    graph_free(w.g);
    free(w.fired);
    free(w.changed);
    return done ? 0 : 1;
}
