/* unfold: dl and reach on the complete finite prefix of a safe net's
 * unfolding (engine/unfold/), decided by a SAT solver over its
 * configurations; the configuration found, linearised, is the witness. */
#ifndef MCK_CHECKERS_UNFOLD_H
#define MCK_CHECKERS_UNFOLD_H

#include "base/formats.h"

int unfold_accepts(const tree_t *t, prop_kind kind, char *why, size_t whylen);
void unfold_run(const cnet_t *cn, const tree_t *formula, prop_kind kind,
                const check_options *opt, result_t *res);

#endif
