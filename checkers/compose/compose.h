/* compose: LTL over actions (RERS) by compositional minimisation.  The
 * net must be a synchronised product of sequential components (units or
 * one-hot groups, each transition moving one token in each component it
 * touches); each component's LTS is minimised modulo strong bisimulation
 * after the actions only it has became the formula's letters, then two
 * parts at a time are composed, the actions they close made letters, and
 * minimised again; the formula is checked on the final LTS and its
 * counterexample lifted back to a lasso of the net.  docs/compose.md has
 * the argument. */
#ifndef MCK_COMPOSE_H
#define MCK_COMPOSE_H

#include "base/formats.h"

int compose_accepts(const tree_t *t, prop_kind kind, char *why, size_t whylen);
void compose_run(const cnet_t *cn, const tree_t *formula, prop_kind kind,
                 const check_options *opt, result_t *res);

#endif
