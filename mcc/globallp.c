/* The state equation (lp/stateeq.h) on the global properties.  It
 * over-approximates the reachable markings, so it only ever shows that
 * something cannot happen: no deadlock is reachable (ReachabilityDeadlock
 * FALSE), no place can hold two tokens (OneSafe TRUE). */
#include "lp/stateeq.h"
#include "mcc/internal.h"

#define TECH_LP "SEQUENTIAL_PROCESSING LINEAR_EQUATIONS"

int mcc_lp_no_deadlock(const mcc_run *r, const char *id, double deadline)
{
    se_verdict v = stateeq_no_deadlock(r->cn, r->st.may_fire, r->st.gainable,
                                       deadline - mcc_now());
    return v == SE_UNREACHABLE ? mcc_answer_bool(id, 0, TECH_LP) : 0;
}

/* The places the structure does not bound by their initial count. */
static uint32_t gainable_places(const mcc_run *r)
{
    uint32_t n = 0;
    for (uint32_t p = 0; p < r->cn->nplaces; p++)
        n += r->st.gainable[p];
    return n;
}

int mcc_lp_one_safe(const mcc_run *r, const char *id, double deadline)
{
    const cnet_t *cn = r->cn;
    uint32_t todo = gainable_places(r);
    /* a place nothing adds to keeps at most its initial count, <= 1 here */
    for (uint32_t p = 0; p < cn->nplaces; p++) {
        if (!r->st.gainable[p])
            continue;
        double left = deadline - mcc_now();
        uint64_t bound;
        if (left <= 0 || stateeq_upper_bound(cn, &p, 1, left / todo--, &bound) < 0 || bound > 1)
            return 0;
    }
    return mcc_answer_bool(id, 1, gainable_places(r) < cn->nplaces ? TECH_LP " TOPOLOGICAL" : TECH_LP);
}
