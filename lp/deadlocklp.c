/* No reachable deadlock, by the state equation (stateeq.h), two ways.
 * First "no transition enabled" as the disjunction of its cases (lpdnf.h),
 * which blows up beyond a cap and is then weakened.  Then one linear
 * constraint per transition, which needs upper bounds on the needed
 * places but never blows up: on safe nets it is exact. */
#include "lp/lpguard.h"
#include "lp/stateeq.h"

#include <stdlib.h>

/* Upper bounds b[p] of the places some transition needs, from the
 * structure (a place nothing adds to keeps its initial count) or the state
 * equation; UINT64_MAX where none was proven by the deadline (an lpg_now()
 * value). */
static void need_bounds(const cnet_t *cn, const uint8_t *gainable, uint64_t *b, double deadline)
{
    uint8_t *needed = calloc((size_t)cn->nplaces + 1, 1);
    uint32_t todo = 0;
    for (uint32_t i = 0; needed && i < cn->need_start[cn->ntransitions]; i++)
        if (!needed[cn->need_place[i]]) {
            needed[cn->need_place[i]] = 1;
            todo++;
        }
    for (uint32_t p = 0; p < cn->nplaces; p++) {
        b[p] = UINT64_MAX;
        if (!needed || !needed[p])
            continue;
        if (gainable && !gainable[p]) {
            b[p] = cn->initial[p];
        } else {
            double left = deadline - lpg_now();
            if (left > 0)
                stateeq_upper_bound(cn, &p, 1, left / todo, &b[p]);
        }
        todo--;
    }
    free(needed);
}

/* One linear constraint per transition that a deadlock satisfies, given
 * bounds b: some needed place p0 has at most w(p0) - 1 tokens, the others
 * at most b(p), so sum_{needs} M(p) <= sum b(p) - min (b(p) - w(p) + 1).
 * On a safe net this is exactly "not enabled".  A transition with an
 * unbounded need gets no constraint (weaker, still sound). */
static tree_t *linear_deadlock(const cnet_t *cn, const uint8_t *may_fire, const uint64_t *b)
{
    /* one conjunct per transition: balanced, as a net may have millions */
    tree_chain all;
    tree_chain_start(&all, T_AND);
    int ok = tree_chain_add(&all, tree_const(1)) == 0;
    lin_term *terms = malloc(((size_t)cn->nplaces + 1) * sizeof *terms);
    for (uint32_t t = 0; ok && terms && t < cn->ntransitions; t++) {
        if (may_fire && !may_fire[t])
            continue;   /* never enabled: nothing to say */
        __int128 sum = 0, slack = (__int128)1 << 100;
        uint32_t n = 0;
        int usable = cn->need_start[t] < cn->need_start[t + 1];
        for (uint32_t i = cn->need_start[t]; usable && i < cn->need_start[t + 1]; i++) {
            uint32_t p = cn->need_place[i];
            usable = b[p] < ((uint64_t)1 << 40);
            if (!usable)
                break;
            if (b[p] < cn->need_weight[i])
                break;   /* t is never enabled */
            __int128 gap = (__int128)b[p] - cn->need_weight[i] + 1;
            slack = gap < slack ? gap : slack;
            sum += b[p];
            terms[n++] = (lin_term){p, 1};
        }
        if (!usable || n < cn->need_start[t + 1] - cn->need_start[t])
            continue;
        ok = tree_chain_add(&all, tree_cmp(terms, n, -(int64_t)(sum - slack), REL_LE)) == 0;
    }
    if (!terms)
        tree_chain_discard(&all);
    free(terms);
    return tree_chain_end(&all);
}

se_verdict stateeq_no_deadlock(const cnet_t *cn, const uint8_t *may_fire, const uint8_t *gainable,
                               double timeout_s)
{
    double deadline = lpg_now() + timeout_s;
    if (timeout_s <= 0)
        return SE_UNKNOWN;
    tree_t *dead = tree_deadlock();
    se_verdict v = dead ? stateeq_unreachable(cn, dead, timeout_s) : SE_UNKNOWN;
    tree_free(dead);
    if (v == SE_UNREACHABLE || lpg_now() >= deadline)
        return v;
    uint64_t *b = malloc(((size_t)cn->nplaces + 1) * sizeof *b);
    if (!b)
        return SE_UNKNOWN;
    need_bounds(cn, gainable, b, lpg_now() + (deadline - lpg_now()) / 2);
    tree_t *lin = linear_deadlock(cn, may_fire, b);
    free(b);
    double left = deadline - lpg_now();
    v = lin && left > 0 ? stateeq_unreachable(cn, lin, left) : SE_UNKNOWN;
    tree_free(lin);
    return v;
}
