/* ltlpor: what the partial-order reduction of the LTL product
 * (stubbornset.h, stubborn_exact) knows of the net's steps in each state
 * of the automaton.
 *
 * For a formula of action propositions only, the steps fall into groups
 * the automaton cannot tell apart (visible.h).  In an automaton state q
 * where the unnamed step (no proposition holds) can only take q's own
 * loop, always with the same acceptance sets A, a step is
 *   invisible   when it too can only take that loop with A;
 *   impossible  when no edge of q reads it (a run taking it now is lost);
 *   visible     otherwise (it can leave q, or change the acceptance).
 * In any other state, and for formulas that read markings, the named
 * steps (and those changing a place the formula reads) are visible and
 * all others invisible, whatever the state: the reduction then keeps every
 * run's word exactly.  docs/por-actions.md proves both. */
#ifndef MCK_LTLPOR_H
#define MCK_LTLPOR_H

#include "base/netconv.h"
#include "base/tree.h"
#include "checkers/ltl/ltl2ba.h"
#include "engine/stubbornset.h"

typedef struct ltl_por ltl_por;

/* The views for the automaton a of the negation of formula.  NULL when no
 * such reduction applies (a deadlock proposition) or on no memory. */
ltl_por *ltl_por_new(const cnet_t *cn, const tree_t *formula, const tgba *a);
const step_view *ltl_por_view(const ltl_por *p, uint32_t q);
/* The automaton states with a view of their own (the others share the
 * word-exact one). */
uint32_t ltl_por_own_views(const ltl_por *p);
void ltl_por_free(ltl_por *p);

#endif
