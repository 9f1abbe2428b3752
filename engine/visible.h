/* visible: the transitions whose firing can change the value of an atomic
 * proposition of a formula.  Partial-order reduction for LTL may only
 * leave out interleavings of invisible steps. */
#ifndef MCK_VISIBLE_H
#define MCK_VISIBLE_H

#include "base/netconv.h"
#include "base/tree.h"

/* Sets visible[t] (one byte per transition, cleared by the caller) for
 * every transition that changes a place a comparison reads or a place a
 * fireable() transition needs.  0, or -1 when every transition counts as
 * visible (a deadlock proposition, an action proposition, X, or no
 * memory). */
int visible_transitions(const cnet_t *cn, const tree_t *f, uint8_t *visible);

#endif
