/* The unfolding as a pre-pass decider (prepass.h): on a net proven safe,
 * the complete finite prefix (engine/unfold/) is built once within the
 * decider's share of the time, and each open reachability query is one
 * satisfiability problem over its configurations: "E F φ" holds iff a
 * configuration's marking satisfies φ, "A G φ" iff none satisfies ¬φ.
 * The configuration found, in event order, is the run that shows it.  It
 * answers what the walks and the state equation leave open on highly
 * concurrent nets, whose prefixes stay small where the interleavings
 * explode. */
#include "engine/fence.h"
#include "engine/unfold/configsat.h"
#include "engine/unfold/prefix.h"
#include "engine/unfold/segments.h"
#include "mcc/internal.h"
#include "mcc/prepass.h"

#include <stdio.h>
#include <stdlib.h>

#define WORDS "NET_UNFOLDING SAT_SMT"

/* A look runs in a child of its own until deadline, so that a solver
 * past the memory the construction leaves ends the look, not the
 * construction (CaDiCaL aborted the decider's process under
 * BK_MEMORY_CONFINEMENT=40 on Railroad-PT-010): its budget b and the
 * bytes its child may map. */
static size_t look_limits(const budget_t *within, double deadline, const unf_prefix *partial,
                          budget_t *b)
{
    *b = *within;
    if (!b->deadline || b->deadline > deadline)
        b->deadline = deadline;
    return b->bytes > partial->bytes ? b->bytes - partial->bytes : 1;
}

/* What a deadlock look's child solves (fence_run). */
typedef struct deadlock_call {
    unf_prefix *partial;
    const budget_t *b;
} deadlock_call;

/* On the partial prefix's segments (engine/unfold/segments.h), as the
 * reachability looks: YES with the run (the deadlock repeats after it),
 * NO when none of the events built has one, UNKNOWN otherwise. */
static void deadlock_solve(void *ctx, result_t *res)
{
    const deadlock_call *c = ctx;
    uint32_t *events = NULL;
    size_t n = 0;
    char why[160];
    int found = unf_sat_find_segments(c->partial, NULL, UNF_LOOK_FIRST_EVENTS, c->b, &events, &n,
                                      why, sizeof why);
    uint32_t *run = found > 0 ? unf_linearise(c->partial, events, n) : NULL;
    if (run && result_set_run(res, RUN_WITNESS, run, n, n) == 0)
        res->answer = ANSWER_YES;
    else if (found == 0)
        res->answer = ANSWER_NO;
    else
        result_unknown(res, found > 0 ? "memory budget exhausted" : why);
    free(run);
    free(events);
}

/* What a configuration must satisfy to settle q: φ of "E F φ" (TRUE),
 * ¬φ of "A G φ" (FALSE); a tree of its own, NULL on no memory. */
static tree_t *goal_of(const mcc_query *q)
{
    tree_t *phi = tree_copy(q->formula->l);
    return q->formula->op == T_EF ? phi : tree_unary(T_NOT, phi);
}

/* One query: 0 settled or not decidable here, -1 the time is up. */
static int decide(const unf_prefix *u, unf_sat *sat, mcc_query *q, const budget_t *b,
                  int verbose)
{
    int ef = q->formula->op == T_EF;
    tree_t *goal = goal_of(q);
    if (!goal)
        return 0;
    uint32_t *events = NULL;
    size_t n = 0;
    char why[160];
    int found = unf_sat_solve(sat, goal, b, &events, &n, why, sizeof why);
    tree_free(goal);
    if (found < 0) {
        if (verbose)
            fprintf(stderr, "mck mcc: unfolding: %s: %s\n", q->id, why);
        return *b->interrupted ? -1 : 0;
    }
    if (!found) {
        mcc_query_settle(q, !ef, WORDS);
        return 0;
    }
    uint32_t *run = unf_linearise(u, events, n);
    if (run) {
        mcc_evidence ev = {ef ? RUN_WITNESS : RUN_COUNTEREXAMPLE, run, n, RESULT_NO_LOOP};
        mcc_query_settle_shown(q, ef, WORDS, &ev);
    } else {
        mcc_query_settle(q, ef, WORDS);
    }
    free(run);
    free(events);
    return 0;
}

/* What the fenced child needs (mcc_portfolio_fence). */
typedef struct reach_work {
    const mcc_run *r;
    mcc_query *const *open;
    size_t n, reach;
    budget_t *b;
    size_t done;        /* the looks' largest segment where no open goal holds */
} reach_work;

static size_t reach_open(const reach_work *w)
{
    size_t open = 0;
    for (size_t i = 0; i < w->n; i++)
        open += !w->open[i]->decided && w->open[i]->cls == MCC_REACH &&
                !mcc_portfolio_answered(w->open[i]->id);
    return open;
}

/* What one reachability look's child solves: a configuration of the
 * partial prefix whose marking satisfies goals[i], for each open query i
 * (φ of "E F φ", ¬φ of "A G φ"), on the segments of its first from,
 * 2 from, ... events (engine/unfold/segments.h).  Each goal found goes to
 * the parent at once, so that a kill keeps it; record n says how far it
 * got (its states: the largest segment where no goal left holds), so
 * that the next look starts past it. */
typedef struct goals_call {
    unf_prefix *partial;
    const tree_t *const *goals;
    size_t n, from;
    const budget_t *b;
    fence_out *out;
} goals_call;

static void goal_found(void *ctx, size_t i, const unf_prefix *u, const uint32_t *events,
                       size_t n)
{
    const goals_call *c = ctx;
    uint32_t *run = unf_linearise(u, events, n);
    result_t res;
    result_init(&res);
    if (run && result_set_run(&res, RUN_WITNESS, run, n, RESULT_NO_LOOP) == 0) {
        res.answer = ANSWER_YES;
        fence_send(c->out, i, &res);
    }
    result_clear(&res);
    free(run);
}

static void goals_cleared(void *ctx, size_t events)
{
    const goals_call *c = ctx;
    result_t how_far;
    result_init(&how_far);
    how_far.answer = ANSWER_NO;
    how_far.states = events;
    fence_send(c->out, c->n, &how_far);
}

static void goals_solve(void *ctx, fence_out *out)
{
    goals_call *c = ctx;
    c->out = out;
    unf_segment_watch watch = {goal_found, goals_cleared, c};
    char why[160];
    unf_sat_segments(c->partial, c->goals, c->n, c->from, c->b, &watch, why, sizeof why);
}

/* Any configuration of a partial prefix is one of the unfolding, so its
 * marking is reachable: a look settles "E F φ" true or "A G φ" false when
 * one satisfies φ (¬φ), never the other way (docs/unfolding.md).  One
 * child per look encodes the prefix once for every open query, within
 * the seconds the construction allows; 1 stops the construction once
 * none is left open. */
static int reach_look(void *ctx, unf_prefix *partial, double seconds)
{
    reach_work *w = ctx;
    const mcc_run *r = w->r;
    size_t k = reach_open(w), found = 0;
    if (!k || budget_expired(w->b))
        return k == 0;
    mcc_query **asked = calloc(k, sizeof *asked);
    tree_t **goals = calloc(k, sizeof *goals);
    result_t *res = calloc(k + 1, sizeof *res);
    size_t m = 0;
    for (size_t i = 0; asked && goals && res && i < w->n && m < k; i++) {
        mcc_query *q = w->open[i];
        if (q->decided || q->cls != MCC_REACH || mcc_portfolio_answered(q->id))
            continue;
        tree_t *goal = goal_of(q);
        if (!goal)
            break;
        asked[m] = q;
        goals[m] = goal;
        result_init(&res[m]);
        m++;
    }
    if (m) {
        budget_t b;
        size_t memory = look_limits(w->b, mcc_now() + seconds, partial, &b);
        /* every goal asked now was open at the last look too: past the
         * segment where all of them were solved, none holds */
        size_t from = w->done ? w->done * 2 : UNF_LOOK_FIRST_EVENTS;
        goals_call c = {partial, (const tree_t *const *)goals, m, from, &b, NULL};
        result_init(&res[m]);
        fence_run_each(&b, memory, goals_solve, &c, res, m + 1);
        if (res[m].answer == ANSWER_NO && res[m].states > w->done)
            w->done = (size_t)res[m].states;
        result_clear(&res[m]);
    }
    for (size_t i = 0; i < m; i++) {
        if (res[i].answer == ANSWER_YES) {
            int ef = asked[i]->formula->op == T_EF;
            mcc_evidence ev = {ef ? RUN_WITNESS : RUN_COUNTEREXAMPLE, res[i].run,
                               res[i].run_len, RESULT_NO_LOOP};
            mcc_query_settle_shown(asked[i], ef, WORDS, &ev);
            found++;
        }
        result_clear(&res[i]);
        tree_free(goals[i]);
    }
    free(asked);
    free(goals);
    free(res);
    if (r->verbose)
        fprintf(stderr, "mck mcc: unfolding: look at the first %zu events: %zu of %zu queries "
                "settled; none of the others holds in the first %zu\n", partial->nev, found, m,
                w->done);
    return reach_open(w) == 0;
}

static int decide_reach(void *ctx)
{
    const reach_work *w = ctx;
    const mcc_run *r = w->r;
    budget_t b = *w->b;
    char why[160];
    if (!unf_proven_safe(r->cn, &b, why, sizeof why)) {
        if (r->verbose)
            fprintf(stderr, "mck mcc: unfolding: %s\n", why);
        return (int)w->reach;
    }
    budget_t prefix_budget = budget_carve(&b, CARVE_MCC_UNFOLD_REACH_PREFIX);
    check_options opt;
    mcc_search_options(r, &prefix_budget, &opt);
    opt.progress = 0;
    unf_watch watch = {reach_look, (void *)w, UNF_LOOK_FIRST_EVENTS, 0};
    unf_prefix *u = unf_build_watched(r->cn, &opt, &watch, why, sizeof why);
    if (!u || !u->complete) {
        if (r->verbose)
            fprintf(stderr, "mck mcc: unfolding: %s\n", why);
        /* a limit leaves a partial prefix: one more look with the time
         * left (the prefix's time limit leaves a third) */
        if (u && reach_open(w) && !budget_expired(&b))
            reach_look((void *)w, u, budget_left(&b));
        unf_free(u);
        return (int)reach_open(w);
    }
    if (r->verbose)
        fprintf(stderr, "mck mcc: unfolding: prefix of %zu events (%zu cut-offs), %zu "
                "conditions\n", u->nev, u->ncutoffs, u->nco);
    unf_sat *sat = unf_sat_new(u, why, sizeof why);
    /* each query an equal part of the time left, so that one hard query
     * leaves the others theirs */
    size_t left = w->reach, open_left = 0;
    for (size_t i = 0; sat && i < w->n && left; i++) {
        mcc_query *q = w->open[i];
        if (q->decided || q->cls != MCC_REACH)
            continue;
        budget_t part = b;
        double now = mcc_now();
        if (b.deadline > 0)
            part.deadline = now + (b.deadline - now) / (double)left;
        left--;
        if (mcc_portfolio_answered(q->id))
            continue;
        int stop = decide(u, sat, q, &part, r->verbose) < 0 || budget_expired(&b);
        open_left += !q->decided;
        if (stop)
            break;
    }
    unf_sat_free(sat);
    unf_free(u);
    return (int)(open_left + left);
}

/* The prefix and the solver run in a child (mcc_portfolio_fence): CaDiCaL
 * reads the clock only at its own checkpoints (the unfold checker ran 46 s
 * past a 120 s limit on Railroad-PT-010), and its clauses are not counted
 * by the budget, so the child is killed at the deadline and may map no
 * more than the carve's bytes. */
void mcc_decide_unfolding(const mcc_run *r, mcc_query *const *open, size_t n, double deadline)
{
    size_t reach = 0;
    for (size_t i = 0; i < n; i++)
        reach += !open[i]->decided && open[i]->cls == MCC_REACH;
    if (!reach || r->st.initial_unsafe)
        return;
    /* its own share of the run, within the pre-pass's */
    budget_t b = budget_carve(r->budget, CARVE_MCC_UNFOLD_REACH);
    if (deadline > 0 && (b.deadline == 0 || deadline < b.deadline))
        b.deadline = deadline;
    reach_work w = {r, open, n, reach, &b, 0};
    mcc_portfolio_fence(r, &b, 1, decide_reach, &w, reach);
    /* the child's answers were claimed on the shared page */
    for (size_t i = 0; i < n; i++)
        if (!open[i]->decided && open[i]->cls == MCC_REACH && mcc_portfolio_answered(open[i]->id))
            open[i]->decided = 1;
}

typedef struct deadlock_work {
    const mcc_run *r;
    const char *id;
    budget_t *b;
    int printed;        /* a look at the partial prefix printed TRUE */
} deadlock_work;

/* TRUE, with the configuration's run (the deadlock repeats after it); 1
 * when printed. */
static int print_deadlock(const deadlock_work *w, const unf_prefix *u, const uint32_t *events,
                          size_t n)
{
    uint32_t *run = unf_linearise(u, events, n);
    mcc_evidence ev = {RUN_WITNESS, run, n, n};
    int printed = mcc_answer_bool_shown(w->id, 1, "SEQUENTIAL_PROCESSING " WORDS,
                                        run ? &ev : NULL);
    free(run);
    return printed;
}

/* A deadlock among the configurations of the prefix built so far is one
 * of the net (docs/unfolding.md, "Answers before the prefix is complete"):
 * a look solves within the seconds the construction gives it. */
static int deadlock_look(void *ctx, unf_prefix *partial, double seconds)
{
    deadlock_work *w = ctx;
    if (budget_expired(w->b))
        return 0;
    result_t res;
    result_init(&res);
    budget_t b;
    size_t memory = look_limits(w->b, mcc_now() + seconds, partial, &b);
    deadlock_call c = {partial, &b};
    fence_run(&b, memory, deadlock_solve, &c, &res);
    int found = res.answer == ANSWER_YES;
    if (w->r->verbose)
        fprintf(stderr, "mck mcc: %s: unfolding: look at the first %zu events: %s\n", w->id,
                partial->nev, found ? "a deadlock" : res.answer == ANSWER_NO ? "none yet"
                                                                               : res.reason);
    if (found) {
        mcc_evidence ev = {RUN_WITNESS, res.run, res.run_len, res.run_len};
        w->printed = mcc_answer_bool_shown(w->id, 1, "SEQUENTIAL_PROCESSING " WORDS, &ev);
    }
    result_clear(&res);
    return found;
}

/* 0 when it printed the answer, 1 when it is left open. */
static int decide_deadlock(void *ctx)
{
    deadlock_work *w = ctx;
    const mcc_run *r = w->r;
    const char *id = w->id;
    budget_t b = *w->b;
    char why[160] = "";
    if (!unf_proven_safe(r->cn, &b, why, sizeof why)) {
        if (r->verbose)
            fprintf(stderr, "mck mcc: %s: unfolding: %s\n", id, why);
        return 1;
    }
    budget_t prefix_budget = budget_carve(&b, CARVE_UNFOLD_PREFIX);
    check_options opt;
    mcc_search_options(r, &prefix_budget, &opt);
    opt.progress = 0;
    unf_watch watch = {deadlock_look, w, UNF_LOOK_FIRST_EVENTS, 0};
    unf_prefix *u = unf_build_watched(r->cn, &opt, &watch, why, sizeof why);
    if (!u || w->printed || budget_expired(&b)) {
        if (r->verbose && !w->printed)
            fprintf(stderr, "mck mcc: %s: unfolding: %s\n", id, why);
        unf_free(u);
        return !w->printed;
    }
    /* a partial prefix (a limit other than the time) may still show a
     * deadlock, never its absence: one more look, with the time left */
    if (!u->complete) {
        if (r->verbose)
            fprintf(stderr, "mck mcc: %s: unfolding: %s\n", id, why);
        deadlock_look(w, u, budget_left(&b));
        unf_free(u);
        return !w->printed;
    }
    uint32_t *events = NULL;
    size_t n = 0;
    int found = unf_sat_find(u, NULL, &b, &events, &n, why, sizeof why);
    if (r->verbose)
        fprintf(stderr, "mck mcc: %s: unfolding: prefix of %zu events (%zu cut-offs), %zu "
                "conditions; %s\n", id, u->nev, u->ncutoffs, u->nco,
                found < 0 ? why : found ? "a deadlock" : "no deadlock");
    int printed = 0;
    if (found == 0)
        printed = mcc_answer_bool(id, 0, "SEQUENTIAL_PROCESSING " WORDS);
    else if (found > 0)
        printed = print_deadlock(w, u, events, n);
    free(events);
    unf_free(u);
    return !printed;
}

/* Fenced as the pre-pass above. */
int mcc_unfold_deadlock(const mcc_run *r, const char *id)
{
    if (r->st.initial_unsafe)
        return 0;
    budget_t b = budget_carve(r->budget, CARVE_MCC_UNFOLD_DEADLOCK);
    deadlock_work w = {r, id, &b, 0};
    return mcc_portfolio_fence(r, &b, 1, decide_deadlock, &w, 1) == 0;
}
