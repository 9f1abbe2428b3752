/* The state equation as a pre-pass decider: an over-approximation of the
 * reachable markings, so it proves "no reachable marking satisfies φ"
 * (E F φ false, A G ¬φ true) and upper bounds, never the opposite. */
#include "lp/stateeq.h"
#include "mcc/prepass.h"

#include <stdlib.h>

/* The unreachability question that settles q: E F φ asks about φ, A G φ
 * about ¬φ.  NULL when q has neither shape or memory runs out. */
static tree_t *question(const tree_t *f, int *value_if_unreachable)
{
    if (f->op == T_EF) {
        *value_if_unreachable = 0;
        return tree_copy(f->l);
    }
    if (f->op == T_AG) {
        *value_if_unreachable = 1;
        return tree_unary(T_NOT, tree_copy(f->l));
    }
    return NULL;
}

void mcc_decide_state_equation(const mcc_run *r, mcc_query *const *open, size_t n,
                               double deadline)
{
    for (size_t i = 0; i < n; i++) {
        mcc_query *q = open[i];
        double left = deadline - mcc_now();
        if (left <= 0)
            return;
        if (q->decided)
            continue;
        /* an equal share of what is left for each open query */
        double share = left / (double)(n - i);
        if (q->cls == MCC_BOUND) {
            uint64_t bound;
            if (stateeq_upper_bound(r->cn, q->formula->items, q->formula->n, share, &bound) == 0)
                mcc_query_upper(q, bound, "LINEAR_EQUATIONS");
            continue;
        }
        int value;
        tree_t *phi = question(q->formula, &value);
        if (phi && stateeq_unreachable(r->cn, phi, share) == SE_UNREACHABLE)
            mcc_query_settle(q, value, "LINEAR_EQUATIONS");
        tree_free(phi);
    }
}
