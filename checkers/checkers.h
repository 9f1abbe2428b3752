/* The built-in checkers: the functions main.c puts into checkers[].
 * Checkers know cnet_t, tree_t and result_t only, and never print. */
#ifndef MCK_CHECKERS_H
#define MCK_CHECKERS_H

#include "formats.h"

/* checkers/explicit.c: breadth-first exploration (dl, reach), shortest
 * witnesses; ctl on the whole reachability graph (checkers/ctl.h).  The search itself is checkers/explore.h (a visitor-driven BFS
 * over checkers/store.h), for other explicit questions to reuse. */
int explicit_accepts(const tree_t *t, prop_kind kind, char *why, size_t whylen);
void explicit_run(const cnet_t *cn, const tree_t *formula, prop_kind kind,
                  const check_options *opt, result_t *res);

/* checkers/explicit.c too: the same searches, firing in each marking only a
 * stubborn set (checkers/stubborn.h) that preserves deadlocks (dl),
 * reaching the formula (reach), or the runs up to stuttering (ltl without
 * X, with the cycle proviso): far fewer markings on concurrent models,
 * witnesses that are runs of the net but not necessarily shortest. */
int stubborn_accepts(const tree_t *t, prop_kind kind, char *why, size_t whylen);
void stubborn_run(const cnet_t *cn, const tree_t *formula, prop_kind kind,
                  const check_options *opt, result_t *res);

/* checkers/reduced.c: structural reduction for the question
 * (reduce/reduce.h), then the explicit search on the smaller net; the
 * witness is expanded back into a run of the given net. */
int reduced_accepts(const tree_t *t, prop_kind kind, char *why, size_t whylen);
void reduced_run(const cnet_t *cn, const tree_t *formula, prop_kind kind,
                 const check_options *opt, result_t *res);

#endif
