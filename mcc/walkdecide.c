/* Random walks as a pre-pass decider (prepass.h): a marking a walk meets
 * is reachable, so it shows "E F φ" where φ holds in it, refutes "A G φ"
 * where φ fails, and attains its token sums (lower ends of bounds).  The
 * walk is the run that shows it. */
#include "engine/stateeval.h"
#include "engine/walk.h"
#include "mcc/prepass.h"

#include <stdio.h>
#include <stdlib.h>

#define WALK_DEPTH 100000
#define WALK_MAX_SECONDS 3.0

/* Worth walking for: an open reachability query, or a bound whose upper
 * end is proven (a walk reaching it settles the value); a bound without
 * one would only keep the walks going until the deadline. */
static int worth(const mcc_query *q)
{
    return !q->decided && (q->cls != MCC_BOUND || q->upper != MCC_U128_MAX);
}

typedef struct walker {
    const mcc_run *r;
    mcc_query *const *open;
    size_t n;
    mcc_query *hit;     /* the query the current marking settles */
    int value;
} walker;

/* Bounds only rise; a reachability query settled here stops the walks so
 * that the run can be kept, and they go on for the others. */
static int step(void *ctx, const nc_count *m, uint32_t t, int dead)
{
    walker *w = ctx;
    (void)t;
    (void)dead;
    size_t wanted = 0;
    for (size_t i = 0; i < w->n; i++) {
        mcc_query *q = w->open[i];
        if (!worth(q))
            continue;
        wanted++;
        if (q->cls == MCC_BOUND) {
            mcc_u128 sum = 0;
            for (uint32_t k = 0; k < q->formula->n; k++)
                sum += m[q->formula->items[k]];
            mcc_query_lower(q, sum, "EXPLICIT");
            wanted -= q->decided;
            continue;
        }
        int v = cn_state_holds(w->r->cn, q->formula->l, m);
        if (v < 0)
            continue;
        if ((q->formula->op == T_EF && v) || (q->formula->op == T_AG && !v)) {
            w->hit = q;
            w->value = q->formula->op == T_EF;
            return 1;
        }
    }
    return wanted == 0;   /* the bounds met their proven ends */
}

void mcc_decide_random_walk(const mcc_run *r, mcc_query *const *open, size_t n, double deadline)
{
    size_t worthwhile = 0;
    for (size_t i = 0; i < n; i++)
        worthwhile += worth(open[i]);
    if (!worthwhile)
        return;
    /* a small net's search should not wait long for walks that find
     * nothing */
    double cap = mcc_now() + WALK_MAX_SECONDS;
    if (deadline > cap)
        deadline = cap;
    walker w = {r, open, n, NULL, 0};
    for (uint64_t seed = 1; mcc_now() < deadline; seed++) {
        walk_result res;
        w.hit = NULL;
        int found = walk_run(r->cn, deadline, r->budget->interrupted, seed, WALK_DEPTH, step, &w,
                             &res);
        if (found > 0 && w.hit) {
            mcc_evidence ev = {w.value ? RUN_WITNESS : RUN_COUNTEREXAMPLE, res.run, res.run_len,
                               RESULT_NO_LOOP};
            mcc_query_settle_shown(w.hit, w.value, "EXPLICIT", &ev);
        }
        free(res.run);
        if (found <= 0)
            break;
        size_t open_left = 0;
        for (size_t i = 0; i < n; i++)
            open_left += worth(open[i]);
        if (open_left == 0)
            break;
    }
}
