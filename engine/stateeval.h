/* A state formula evaluated at one marking of the compiled net: the one
 * adaptor between tree_eval_state's callbacks and cn_enabled. */
#ifndef MCK_STATEEVAL_H
#define MCK_STATEEVAL_H

#include "base/netconv.h"
#include "base/tree.h"

/* 1 or 0, or -1 when f is not a state formula. */
int cn_state_holds(const cnet_t *cn, const tree_t *f, const nc_count *m);

/* The same for the step that fires t at m (LTL over runs): action
 * propositions (T_ACTION) hold when they name t.  t == CN_NO_STEP for
 * the repetition of a dead marking, where no action happens. */
#define CN_NO_STEP UINT32_MAX
int cn_step_holds(const cnet_t *cn, const tree_t *f, const nc_count *m, uint32_t t);

#endif
