/* traps: a set Q of places is a trap when every transition that lowers
 * the count of a place of Q also puts tokens on some place of Q.  A trap
 * holding a token in the initial marking holds one in every reachable
 * marking, so "sum of Q >= 1" is a valid cut for the state equation,
 * which alone does not know it (its solutions may empty a trap). */
#ifndef MCK_TRAPS_H
#define MCK_TRAPS_H

#include "base/netconv.h"

typedef struct trap_index trap_index;

/* NULL on no memory. */
trap_index *trap_index_new(const cnet_t *cn);
void trap_index_free(trap_index *ix);

/* Shrinks the set in[] (one byte per place) to the largest trap inside
 * it, and returns its size. */
uint32_t trap_largest_within(const trap_index *ix, uint8_t *in);

#endif
