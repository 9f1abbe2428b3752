/* goalseed: for a state formula and a marking m where it does not have the
 * wanted value, a set of transitions one of which every run from m must
 * fire before the formula takes that value: the seed of a stubborn set
 * that preserves reaching it (stubborn.h).  A superset is always sound; the
 * sets here are the usual cheap over-approximations (a comparison may only
 * change through the places it mentions, in the right direction). */
#ifndef MCK_GOALSEED_H
#define MCK_GOALSEED_H

#include "engine/stubbornset.h"
#include "base/tree.h"

/* Adds the seed for f to become `want` (0 or 1) from m to sb's current
 * seed.  f's value in m must differ from want.  0, or -1 when f holds an
 * operator that is not a state formula's (the caller then reduces
 * nothing). */
int goal_seed(stubborn_t *sb, const cnet_t *cn, const tree_t *f, const nc_count *m, int want);

/* Every operator of f is one goal_seed handles. */
int goal_seed_supported(const tree_t *f);

#endif
