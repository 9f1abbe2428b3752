/* unfold: dl and reach on the complete finite prefix of a safe net's
 * unfolding (engine/unfold/), decided by a SAT solver over its
 * configurations; the configuration found, linearised, is the witness. */
#ifndef MCK_CHECKERS_UNFOLD_H
#define MCK_CHECKERS_UNFOLD_H

#include "base/formats.h"

int unfold_accepts(const tree_t *t, prop_kind kind, char *why, size_t whylen);
void unfold_run(const cnet_t *cn, const tree_t *formula, prop_kind kind,
                const check_options *opt, result_t *res);

/* From unfold_keep(cn) to unfold_keep(NULL), unfold_run builds cn's prefix
 * (or learns why it cannot) for the first property asked and decides the
 * others on the same prefix, each by its own solver run, with its own
 * evidence.  Outside, every run builds its own. */
void unfold_keep(const cnet_t *cn);

#endif
