/* symbolic: dl and reach on decision diagrams (symbolic/symbolic.h), for
 * nets whose every place has a proven bound; the reachable set by
 * chaining, a witness by breadth-first layers walked back; ctl by
 * fixpoints on the whole reachable set, without a run. */
#ifndef MCK_CHECKERS_SYMBOLIC_H
#define MCK_CHECKERS_SYMBOLIC_H

#include "base/formats.h"
#include "symbolic/symbolic.h"

int symbolic_accepts(const tree_t *t, prop_kind kind, char *why, size_t whylen);
void symbolic_run(const cnet_t *cn, const tree_t *formula, prop_kind kind,
                  const check_options *opt, result_t *res);

/* A diagram manager on cn with the layout from its proven bounds
 * (engine/placebits.h) and one-hot groups (engine/onehot.h), within
 * budget; NULL with the reason in why ("symbolic: place p3 has no proven
 * bound"). */
sym_t *symbolic_open(const cnet_t *cn, const budget_t *budget, char *why, size_t whylen);

#endif
