/* onehot: groups of places that always hold exactly one token between
 * them, so that a fixed-width key can store which one has it, in
 * ceil(log2 n) bits, instead of a bit for each of the n places.
 *
 * Such a group is the support of a place invariant with weights 0 and 1
 * whose initial tokens sum to 1: every transition takes as many tokens
 * from the support as it puts back, so the sum stays 1 in every reachable
 * marking, and each place of it holds 0 or 1.  The invariants are found by
 * the Farkas algorithm, kept to 0/1 weights and initial sums of at most 1
 * (combinations that break either can never become one of those); each
 * group is checked against every transition again before it is used, so
 * a group is proven, never guessed.  Places that are never marked (width
 * 0 in bits) are left out of the groups: they add nothing to the sum. */
#ifndef MCK_ONEHOT_H
#define MCK_ONEHOT_H

#include <stdint.h>
#include "base/netconv.h"

/* Disjoint groups of at least two places of nonzero width, largest
 * first: a malloc'd array of nplaces group numbers (0: in no group,
 * else 1..*ngroups), found within `seconds`; NULL when there is none
 * (no invariant of the kind, the search too big for the time or the
 * memory, no memory). */
uint32_t *onehot_groups(const cnet_t *cn, const uint8_t *bits, double seconds,
                        uint32_t *ngroups);

/* Whether the places of group g in group[] always hold exactly one token
 * between them, bits being proven widths: their initial tokens sum to 1,
 * and every transition's effects on them sum to 0, or it adds to a place
 * of width 0 (which it cannot, so it never fires). */
int onehot_group_holds(const cnet_t *cn, const uint8_t *bits, const uint32_t *group, uint32_t g);

/* Bounds from the same search, kept to invariants of initial sum 0 or 1:
 * a malloc'd array of nplaces bounds, each 0 or 1 when such an invariant
 * holds the place (each proven again on the net) and ONEHOT_NO_BOUND
 * when none does; NULL when the search gave up within `seconds` or ran
 * out of memory.  No linear program: one search bounds every place an
 * invariant covers, where the LPs take one program per place. */
#define ONEHOT_NO_BOUND 0xffu
uint8_t *onehot_bounds(const cnet_t *cn, double seconds);

#endif
