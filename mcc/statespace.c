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
 * unanswered. */
static int symbolic_state_space(mcc_run *r)
{
    char why[160];
    budget_t diagrams = budget_carve(r->budget, CARVE_MCC_STATESPACE_SYMBOLIC);
    sym_t *s = symbolic_open(r->cn, &diagrams, why, sizeof why);
    if (!s) {
        fprintf(stderr, "mck mcc: StateSpace: %s\n", why);
        return 4;
    }
    int left = 4;
    if (sym_explore(s, SYM_CHAINING) != SYM_DONE) {
        fprintf(stderr, "mck mcc: StateSpace: %s (decision diagrams)\n", sym_reason(s));
        sym_free(s);
        return left;
    }
    if (r->verbose)
        fprintf(stderr, "mck mcc: StateSpace: the reachable set in %zu nodes\n", sym_nodes(s));
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

int mcc_state_space(mcc_run *r)
{
    check_options opt;
    budget_t first = budget_carve(r->budget, CARVE_MCC_STATESPACE_EXPLICIT);
    mcc_search_options(r, &first, &opt);
    tally t = {r->cn->nplaces, 0, 0};
    explore_visitor v = {on_state, NULL, NULL, "StateSpace", 0};
    explore_t *ex = explore_new(r->cn, &opt, 0);
    if (!ex) {
        fprintf(stderr, "mck mcc: StateSpace: memory budget too small to start\n");
        return 4;
    }
    result_t res;
    result_init(&res);
    explore_status st = explore_bfs(ex, &v, &t, &res);
    explore_free(ex);
    if (st != EXPLORE_DONE) {
        fprintf(stderr, "mck mcc: StateSpace: %s after %llu states\n",
                res.reason[0] ? res.reason : "stopped", (unsigned long long)res.states);
        result_clear(&res);
        return *r->budget->interrupted ? 4 : symbolic_state_space(r);
    }
    mcc_answer_state_space("STATES", res.states, TECH_EXPLICIT);
    mcc_answer_state_space("TRANSITIONS", res.edges, TECH_EXPLICIT);
    mcc_answer_state_space("MAX_TOKEN_IN_PLACE", t.max_place, TECH_EXPLICIT);
    mcc_answer_state_space("MAX_TOKEN_PER_MARKING", t.max_sum, TECH_EXPLICIT);
    result_clear(&res);
    return 0;
}
