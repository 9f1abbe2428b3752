/* cyclefree: transitions that cannot, by themselves, lead a marking back
 * to itself.  A run that returns to its first marking fires a multiset x
 * of transitions with C x = 0 (C the incidence matrix): a semi-positive
 * T-invariant.  A set of transitions that holds the support of none has
 * no such run, so a reduced search that fires only its transitions
 * without choice cannot go round a cycle: the cycle condition of partial
 * order reduction (Peled's C3) holds of the reduced state graph itself,
 * whatever the search order and whatever automaton is multiplied in. */
#ifndef MCK_CYCLEFREE_H
#define MCK_CYCLEFREE_H

#include "base/netconv.h"

/* keep[t] set on entry marks the candidates.  On return keep[] holds a
 * subset with no semi-positive T-invariant's support inside it; the
 * transitions cleared to get there are counted in *dropped.  0, or -1 on
 * no memory (keep[] then all cleared: no reduction is the safe side). */
int cyclefree_subset(const cnet_t *cn, uint8_t *keep, uint32_t *dropped);

#endif
