/* explicit: breadth-first exploration (dl, reach), shortest witnesses; ctl
 * on the whole reachability graph (checkers/ctl/ctl.h); ltl by automata
 * (checkers/ltl/ltl.h).  The search itself is engine/explore.h (a
 * visitor-driven BFS over engine/store.h). */
#ifndef MCK_EXPLICIT_H
#define MCK_EXPLICIT_H

#include "base/formats.h"

int explicit_accepts(const tree_t *t, prop_kind kind, char *why, size_t whylen);
void explicit_run(const cnet_t *cn, const tree_t *formula, prop_kind kind,
                  const check_options *opt, result_t *res);

/* dl and reach by breadth-first search; with stubborn set, each marking
 * fires only a stubborn set (the stubborn row, checkers/stubborn.h). */
void explicit_search(const cnet_t *cn, const tree_t *formula, prop_kind kind,
                     const check_options *opt, int stubborn, result_t *res);
/* Whether t can be evaluated on a marking (no temporal operator, no
 * action, no bound), and whether it asks for no bound. */
int state_ops_only(const tree_t *t);
int no_bound(const tree_t *t);

#endif
