/* Deadlock and reachability on a complete prefix, as the satisfiability of
 * a formula over its events, solved by CaDiCaL (docs/unfolding.md gives
 * the encoding: causal closure, conflict freeness, the places a
 * configuration's cut marks, the property on them).  Only configurations
 * without cut-off events count: the ERV prefix represents every reachable
 * marking by one of them.  On a partial prefix (complete 0) every
 * configuration counts, and only "found" says something: its marking is
 * reachable; none found says nothing of the events not built. */
#ifndef MCK_UNFOLD_CONFIGSAT_H
#define MCK_UNFOLD_CONFIGSAT_H

#include <stddef.h>
#include <stdint.h>

#include "base/budget.h"
#include "base/tree.h"
#include "engine/unfold/prefix.h"

/* Looks for a configuration whose marking satisfies f (a state formula;
 * NULL: a deadlock).  1: found, its events (sorted, so a linearisation)
 * malloc'd in *events and their number in *n; 0: there is none; -1: not
 * decided (the budget's time or a signal, an operator the encoding does
 * not know, no memory), why says which. */
int unf_sat_find(const unf_prefix *u, const tree_t *f, const budget_t *budget, uint32_t **events,
                 size_t *n, char *why, size_t whylen);

/* The same for many formulas on one prefix: the configurations are
 * encoded once (unf_sat_new, NULL with why on no memory), and each
 * formula is solved under an assumption, keeping what the solver learnt.
 * The prefix must outlive the encoding. */
typedef struct unf_sat unf_sat;
unf_sat *unf_sat_new(const unf_prefix *u, char *why, size_t whylen);
int unf_sat_solve(unf_sat *sat, const tree_t *f, const budget_t *budget, uint32_t **events,
                  size_t *n, char *why, size_t whylen);
void unf_sat_free(unf_sat *sat);

#endif
