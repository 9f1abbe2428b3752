/* CTL on the fly by a dependency graph: the value of a formula at the
 * initial marking as the least fixed point of hyper-edges over
 * configurations (marking, subformula), exploring only the configurations
 * that value asks for, with certain-zero propagation (a value known to be
 * 0 for good is passed to what depends on it at once, so that negations
 * and A-quantified operators need not wait for the whole graph).  Same
 * semantics as ctl.h: maximal paths, deadlocks as ctl.h says.
 *
 * It gives the answer only: evidence runs come from the global checker
 * (ctl.h), which has the whole graph to find them in. */
#ifndef MCK_DEPGRAPH_H
#define MCK_DEPGRAPH_H

#include "base/netconv.h"
#include "base/result.h"
#include "base/tree.h"

/* The order in which the edges waiting to be looked at are taken, within
 * one level of negation nesting: depth-first, breadth-first, or the edge
 * into the marking closest (by a count of missing tokens) to the atoms
 * the subformula looks for. */
typedef enum { CTL_DFS, CTL_BFS, CTL_BEST } ctl_strategy;

/* "dfs", "bfs", "best". */
const char *ctl_strategy_name(ctl_strategy s);
/* 0 with *s set, or -1 when name is none of them. */
int ctl_strategy_parse(const char *name, ctl_strategy *s);

/* The value of f at the initial marking: 1, 0, or -1 with why (memory
 * budget, time limit, state limit, interrupt, token overflow, not a CTL
 * formula).  *states (may be NULL) gets the number of markings stored. */
int ctl_depgraph_check(const cnet_t *cn, const tree_t *f, const check_options *opt,
                       ctl_strategy s, uint64_t *states, char *why, size_t whylen);

#endif
