/* StateSpace (mcc-formats.md §2.4): the four numbers of the reachability
 * graph.  They need the complete graph, so nothing is printed unless the
 * exploration visits every reachable marking: the explicit search's, in
 * its part of the time, else the decision diagrams' (checkers/symbolic.h),
 * whose counts are exact. */
#include "checkers/symbolic.h"
#include "engine/explore.h"
#include "mcc/internal.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct tally {
    uint32_t nplaces;
    nc_count max_place;
    mcc_u128 max_sum;     /* a sum of 64-bit counts can pass 2^64 */
} tally;

static int on_state(void *ctx, uint64_t id, store_ref ref, const nc_count *m)
{
    tally *t = ctx;
    (void)id;
    (void)ref;
    nc_count top = 0;
    mcc_u128 sum = 0;
    for (uint32_t p = 0; p < t->nplaces; p++) {
        sum += m[p];
        top = m[p] > top ? m[p] : top;
    }
    if (top > t->max_place)
        t->max_place = top;
    if (sum > t->max_sum)
        t->max_sum = sum;
    return 0;
}

/* The four values from the reachable set as a diagram; the number left
 * unanswered, or -1: the diagrams could not start (a place without a
 * proven bound, ...). */
static int symbolic_state_space(void *ctx)
{
    mcc_run *r = ctx;
    char why[160];
    budget_t diagrams = budget_carve(r->budget, CARVE_MCC_STATESPACE_SYMBOLIC);
    sym_t *s = symbolic_open(r->cn, &diagrams, why, sizeof why);
    if (!s) {
        fprintf(stderr, "mck mcc: StateSpace: %s\n", why);
        return -1;
    }
    int left = 4;
    if (sym_explore(s, SYM_CHAINING) != SYM_DONE) {
        fprintf(stderr, "mck mcc: StateSpace: %s (decision diagrams)\n", sym_reason(s));
        sym_free(s);
        return left;
    }
    if (r->verbose)
        fprintf(stderr, "mck mcc: StateSpace: the reachable set in %zu nodes (%s, %u "
                "transitions fired by their closures)\n", sym_nodes(s),
                sym_interleaved(s) ? "the places' bits interleaved" : "each place's bits together",
                sym_closures(s));
    char *states = sym_count_states(s);
    if (states)
        left -= mcc_answer_state_space_text("STATES", states, TECH_DECISION_DIAGRAMS);
    free(states);
    uint64_t in_place, per_marking;
    if (sym_max_tokens(s, &in_place, &per_marking) == 0) {
        left -= mcc_answer_state_space("MAX_TOKEN_IN_PLACE", in_place, TECH_DECISION_DIAGRAMS);
        left -= mcc_answer_state_space("MAX_TOKEN_PER_MARKING", per_marking,
                                       TECH_DECISION_DIAGRAMS);
    }
    char *edges = sym_count_edges(s);
    if (edges)
        left -= mcc_answer_state_space_text("TRANSITIONS", edges, TECH_DECISION_DIAGRAMS);
    free(edges);
    if (left)
        fprintf(stderr, "mck mcc: StateSpace: %s (counting on the diagram)\n", sym_reason(s));
    sym_free(s);
    return left;
}

/* The four values by the explicit search within the carve's part of the
 * time: 0, 1 (gave up) or -1 (interrupted, or no memory to start). */
static int explicit_state_space(mcc_run *r, budget_carve_id part)
{
    check_options opt;
    budget_t mine = budget_carve(r->budget, part);
    mcc_search_options(r, &mine, &opt);
    tally t = {r->cn->nplaces, 0, 0};
    explore_visitor v = {on_state, NULL, NULL, "StateSpace", 0};
    explore_t *ex = explore_new(r->cn, &opt, 0);
    if (!ex) {
        fprintf(stderr, "mck mcc: StateSpace: memory budget too small to start\n");
        return -1;
    }
    result_t res;
    result_init(&res);
    explore_status st = explore_bfs(ex, &v, &t, &res);
    explore_free(ex);
    if (st != EXPLORE_DONE) {
        fprintf(stderr, "mck mcc: StateSpace: %s after %llu states\n",
                res.reason[0] ? res.reason : "stopped", (unsigned long long)res.states);
        result_clear(&res);
        return *r->budget->interrupted ? -1 : 1;
    }
    mcc_answer_state_space("STATES", res.states, TECH_EXPLICIT);
    mcc_answer_state_space("TRANSITIONS", res.edges, TECH_EXPLICIT);
    mcc_answer_state_space("MAX_TOKEN_IN_PLACE", t.max_place, TECH_EXPLICIT);
    mcc_answer_state_space("MAX_TOKEN_PER_MARKING", t.max_sum, TECH_EXPLICIT);
    result_clear(&res);
    return 0;
}

/* The explicit search first, for a short part of the time: it answers the
 * nets of a few million markings at once, some of which the diagrams
 * take long on (CircadianClock-PT-000010: 0.3 s against 20 s), and the
 * nets it took longer on (up to 25 s of 60) the diagrams answer in a
 * second or so.  Then the diagrams with the time left; when they cannot
 * start, the explicit search again with all of it. */
int mcc_state_space(mcc_run *r)
{
    int e = explicit_state_space(r, CARVE_MCC_STATESPACE_EXPLICIT);
    if (e <= 0)
        return e < 0 ? 4 : 0;
    /* in a child that is killed at the deadline: one operation on the
     * diagrams can run seconds past it (mcc_portfolio_fence) */
    int left = mcc_portfolio_fence(r, r->budget, 0, symbolic_state_space, r, 4);
    if (left >= 0 || *r->budget->interrupted)
        return left >= 0 ? left : 4;
    return explicit_state_space(r, CARVE_MCC_STATESPACE_EXPLICIT_AGAIN) == 0 ? 0 : 4;
}
