/* placelists: per-place lists of transitions, inverted from the compiled
 * net's per-transition lists (effects, post-sets). */
#ifndef MCK_PLACELISTS_H
#define MCK_PLACELISTS_H

#include "base/netconv.h"

/* For every place p, the transitions t whose list tplace[tstart[t] ..
 * tstart[t+1]) names p, in increasing order: list[start[p] .. start[p+1]).
 * With delta (parallel to tplace), only the entries whose delta has the
 * sign of `sign` (+1 or -1) count.  0, or -1 on no memory (nothing is
 * allocated then); the caller frees *start and *list. */
int place_lists(const cnet_t *cn, const uint32_t *tstart, const uint32_t *tplace,
                const int64_t *delta, int sign, uint32_t **start, uint32_t **list);

#endif
