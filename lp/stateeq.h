/* stateeq: the state equation, a linear over-approximation of the
 * reachable markings.  Every reachable marking m is m0 + C x for some
 * x >= 0 (x counts firings; C is the incidence matrix) with m >= 0; the
 * converse does not hold, so the state equation can refute reachability
 * and bound token sums, never show that something is reachable.
 *
 * Answers are proven, not estimated: a floating-point simplex only finds
 * candidates, and each is confirmed by GLPK's exact (rational) simplex on
 * data that doubles represent exactly.  Whatever cannot be confirmed in
 * time, or involves numbers above 2^53, is "unknown".
 *
 * Both functions use GLPK under lpguard.h: they must not be called while
 * the caller holds a GLPK object, and they may free GLPK's environment. */
#ifndef MCK_STATEEQ_H
#define MCK_STATEEQ_H

#include <stdint.h>
#include "base/netconv.h"
#include "base/tree.h"

/* The formula is split into at most this many linear systems; beyond it
 * parts of the formula are weakened (lpdnf.h), which stays sound. */
#define STATEEQ_MAX_DISJUNCTS 64

typedef enum { SE_UNKNOWN, SE_UNREACHABLE } se_verdict;

/* Whether no reachable marking satisfies the state formula phi (no path
 * operators; strip the E F, or negate the body of an A G).  SE_UNREACHABLE
 * is a proof; SE_UNKNOWN says nothing.  timeout_s <= 0: no limit. */
se_verdict stateeq_unreachable(const cnet_t *cn, const tree_t *phi, double timeout_s);

/* An upper bound on sum_{i<n} M(places[i]) (a repeated place counts twice)
 * over all reachable markings: 0 with *bound set, or -1 when none could be
 * proven (unbounded relaxation, numbers too large, time).  The bound may be
 * above the true maximum: it is an answer only where a reachable marking
 * is shown to reach it. */
int stateeq_upper_bound(const cnet_t *cn, const uint32_t *places, uint32_t n,
                        double timeout_s, uint64_t *bound);

/* lp/deadlocklp.c: SE_UNREACHABLE proves that no reachable marking
 * is a deadlock.  may_fire (per transition, 0: never enabled) and gainable
 * (per place, 0: never above its initial count) are what the structure
 * knows, or NULL. */
se_verdict stateeq_no_deadlock(const cnet_t *cn, const uint8_t *may_fire, const uint8_t *gainable,
                               double timeout_s);

/* How many trap cuts (traps.h) one system may get before it is given up
 * (default 32); 0 switches them off, for comparisons. */
void stateeq_set_trap_rounds(int rounds);

#endif
