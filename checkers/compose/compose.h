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

/* How much is composed, for tests and measurements (compose_run uses
 * compose_default_tuning): a first look at the components explored
 * together up to probe_states states (0: none), then products of two
 * parts whose sizes multiply to at most pair_limit (0: none; UINT64_MAX:
 * all, down to one LTS), the parts left explored together. */
typedef struct compose_tuning {
    uint64_t probe_states;
    uint64_t pair_limit;
    /* for formulas without X when only infinite runs count: the snowball
     * (docs/compose.md, the gap flag) while its products of sizes stay at
     * most this; 0: never */
    uint64_t snowball_limit;
    /* what composing leaves UNKNOWN (its share of the time, the carve
     * compose.first, over; or a limit of its own), the stubborn search of
     * the net tries with the time left; 0: composing alone */
    int stubborn_after;
    /* context constraints (docs/compose.md): each component and product
     * cut to what the components or parts outside it can take part in,
     * by a search of it beside each one's interface of at most this many
     * pairs; 0: none */
    uint64_t context_pairs;
} compose_tuning;
extern const compose_tuning compose_default_tuning;
void compose_run_tuned(const cnet_t *cn, const tree_t *formula, prop_kind kind,
                       const check_options *opt, const compose_tuning *tuning, result_t *res);

#endif
