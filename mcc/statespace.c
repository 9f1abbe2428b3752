/* StateSpace (mcc-formats.md §2.4): the four numbers of the reachability
 * graph.  They need the complete graph, so nothing is printed unless the
 * exploration visits every reachable marking. */
#include "engine/explore.h"
#include "mcc/internal.h"

#include <stdio.h>

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

int mcc_state_space(mcc_run *r)
{
    check_options opt;
    mcc_search_options(r, r->budget, &opt);
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
        return 4;
    }
    mcc_answer_state_space("STATES", res.states, TECH_EXPLICIT);
    mcc_answer_state_space("TRANSITIONS", res.edges, TECH_EXPLICIT);
    mcc_answer_state_space("MAX_TOKEN_IN_PLACE", t.max_place, TECH_EXPLICIT);
    mcc_answer_state_space("MAX_TOKEN_PER_MARKING", t.max_sum, TECH_EXPLICIT);
    result_clear(&res);
    return 0;
}
