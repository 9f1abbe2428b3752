/* Goals on a partial prefix, solved on its segments: the configurations of
 * its first from, 2 from, 4 from, ... events, then of all of them.
 *
 * Why: encoding a partial prefix costs about what building it did on nets
 * of many cut-offs (generated counters beside a line: 0.1 s at 32768
 * events, where the construction took 0.16 s), so a look given half the
 * construction's time never got through the whole, while a goal's
 * configuration is often few events deep and, the ERV order going by
 * size, among the first events built (the line's 8th step beside three
 * counts: 13 events, all among the first 24000 of 32768).  Each segment
 * is a prefix of the unfolding in its own right (unf_cut), so what is
 * found there is reachable, and a goal with no configuration there has
 * none in any smaller segment either. */
#ifndef MCK_UNFOLD_SEGMENTS_H
#define MCK_UNFOLD_SEGMENTS_H

#include <stddef.h>
#include <stdint.h>

#include "base/budget.h"
#include "base/tree.h"
#include "engine/unfold/prefix.h"

typedef struct unf_segment_watch {
    /* goal i holds in the configuration of events (sorted, so a
     * linearisation, and valid only during the call) of u as now cut */
    void (*found)(void *ctx, size_t i, const unf_prefix *u, const uint32_t *events, size_t n);
    /* no goal still open holds in the first events of the prefix (NULL:
     * not wanted) */
    void (*cleared)(void *ctx, size_t events);
    void *ctx;
} unf_segment_watch;

/* Solves goals[0..n) (a state formula each; NULL: a deadlock) on u's
 * segments until each is found, the last segment is done or budget's time
 * is up.  Each segment's goals may take half the time its encoding leaves
 * (the last segment all of it), so that what they do not use goes to the
 * next and the small segments, where a goal is likeliest, are not starved
 * by the encoding of the large ones; each goal an equal part of its
 * segment's, solved under an assumption on one encoding.  u is cut
 * (prefix.h) and left whole again, its consumers made; only on a look's
 * own copy.  The number of goals found, or -1 for no memory; why says
 * what stopped the last goal left undecided (the time, an operator the
 * encoding does not know, no memory). */
int unf_sat_segments(unf_prefix *u, const tree_t *const *goals, size_t n, size_t from,
                     const budget_t *budget, const unf_segment_watch *watch, char *why,
                     size_t whylen);

/* unf_sat_find's contract for one goal (NULL: a deadlock), by segments:
 * 1 found, the configuration's events malloc'd in *events (sorted, of u
 * whole again); 0 none among all the events built; -1 not decided, why
 * says why. */
int unf_sat_find_segments(unf_prefix *u, const tree_t *goal, size_t from,
                          const budget_t *budget, uint32_t **events, size_t *n, char *why,
                          size_t whylen);

#endif
