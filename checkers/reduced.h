/* reduce: structural reduction for the question (reduce/reduce.h), then
 * the explicit search on the smaller net; the witness is expanded back
 * into a run of the given net. */
#ifndef MCK_REDUCED_H
#define MCK_REDUCED_H

#include "base/formats.h"

int reduced_accepts(const tree_t *t, prop_kind kind, char *why, size_t whylen);
void reduced_run(const cnet_t *cn, const tree_t *formula, prop_kind kind,
                 const check_options *opt, result_t *res);

#endif
