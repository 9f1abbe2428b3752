/* LTL model checking: does every run of the net satisfy φ?  The automaton
 * of ¬φ (ltl2ba.h) is multiplied with the net's state graph on the fly,
 * and Couvreur's SCC-based search (FM'99) looks for an accepting cycle of
 * the product, stopping at the first: its lasso is the counterexample.
 *
 * Finite runs, one switch:
 *   LTL_STUTTER  a run that reaches a deadlock repeats the dead marking
 *                forever (the MCC's semantics, mcc-formats.md §3.5, and
 *                the Kit's);
 *   LTL_INFINITE finite runs are ignored: only infinite runs count (RERS).
 *
 * Product states are stored with the automaton state as one more "place"
 * of the key, so the store (store.h) needs nothing new; they are numbered
 * (store_number) for the search's arrays. */
#ifndef MCK_LTL_H
#define MCK_LTL_H

#include "base/netconv.h"
#include "base/result.h"
#include "base/tree.h"

typedef enum { LTL_STUTTER, LTL_INFINITE } ltl_finite;

/* YES when every run satisfies formula (an LTL formula without path
 * quantifiers); NO with the counterexample as a lasso (run, loop_start:
 * loop_start == run_len when it ends by stuttering in a deadlock) when
 * opt->want_run; UNKNOWN with the reason when a limit was reached or the
 * formula cannot be translated. */
void ltl_run(const cnet_t *cn, const tree_t *formula, const check_options *opt, ltl_finite mode,
             result_t *res);

#endif
