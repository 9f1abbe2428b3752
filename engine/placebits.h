/* placebits: how many bits each place's count needs, for the fixed-width
 * keys of store_new_packed, from bounds that are proven, never guessed:
 * a place no transition adds to keeps at most its initial count, one that
 * a place invariant of initial sum 0 or 1 holds (onehot_bounds) at most
 * that sum, and any other is bounded by the state equation (stateeq.h),
 * whose bounds are confirmed in exact arithmetic.
 *
 * All or nothing: when one place gets no bound in the time given, or needs
 * more than STORE_PACKED_BITS_MAX bits, there are no widths, and searches
 * keep the variable-length keys, which fit any marking.  Uses GLPK as
 * stateeq.h does: not to be called while holding a GLPK object. */
#ifndef MCK_PLACEBITS_H
#define MCK_PLACEBITS_H

#include <stdint.h>
#include "base/budget.h"
#include "base/netconv.h"

/* A malloc'd array of nplaces widths, found by budget's deadline (a
 * carve with one: explore.placebits), or NULL (no bound for some place in
 * that time, or no memory). */
uint8_t *placebits(const cnet_t *cn, const budget_t *budget);
/* The same, saying in *unbounded which place got no bound (none found,
 * or none in STORE_PACKED_BITS_MAX bits) when it returns NULL;
 * PLACEBITS_NO_TIME when the time ran out first (a place unproven, not
 * unbounded), PLACEBITS_NO_MEMORY when the memory did. */
#define PLACEBITS_NO_MEMORY UINT32_MAX
#define PLACEBITS_NO_TIME (UINT32_MAX - 1)
uint8_t *placebits_at(const cnet_t *cn, const budget_t *budget, uint32_t *unbounded);

/* Why placebits_at gave NULL, for a UNKNOWN: "CHECKER: place p has no
 * proven bound", "time limit reached while proving every place bounded",
 * ... */
void placebits_why(const cnet_t *cn, const budget_t *budget, uint32_t unbounded,
                   const char *checker, char *why, size_t whylen);

#endif
