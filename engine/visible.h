/* visible: the transitions whose firing a formula can observe.  Partial-
 * order reduction for LTL may only leave out interleavings of invisible
 * steps. */
#ifndef MCK_VISIBLE_H
#define MCK_VISIBLE_H

#include "base/netconv.h"
#include "base/tree.h"

/* For a reduction that keeps runs up to stuttering (LTL without X): sets
 * visible[t] (one byte per transition, cleared by the caller) for every
 * transition that changes a place a comparison reads or a place a
 * fireable() transition needs.  0, or -1 when every transition counts as
 * visible (a deadlock proposition, an action proposition, X, or no
 * memory). */
int visible_transitions(const cnet_t *cn, const tree_t *f, uint8_t *visible);

/* For a reduction that keeps every run's word exactly (stubbornset.h,
 * stubborn_exact): the same, and also every transition an action
 * proposition names; X is allowed, since no step is dropped or added.
 * 0, or -1 for a deadlock proposition or no memory. */
int visible_steps(const cnet_t *cn, const tree_t *f, uint8_t *visible);

/* Steps grouped by what a formula made of action propositions (and
 * true, false, Boolean and temporal operators) can tell of them: two
 * transitions in group[t] alike lie in the same action propositions, so
 * every condition holds for both or for neither.  Group 0 holds the
 * transitions no proposition names (and the step of no transition,
 * CN_NO_STEP).  rep[g] (room for max_groups) gets one transition of each
 * group, CN_NO_STEP for group 0.  Returns the number of groups, or -1 when
 * the formula reads markings (a comparison, fireable, deadlock), there
 * would be more than max_groups, or no memory. */
int visible_step_groups(const cnet_t *cn, const tree_t *f, uint32_t *group, uint32_t *rep,
                        uint32_t max_groups);

#endif
