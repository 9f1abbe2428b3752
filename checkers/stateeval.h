/* A state formula evaluated at one marking of the compiled net: the one
 * adaptor between tree_eval_state's callbacks and cn_enabled. */
#ifndef MCK_STATEEVAL_H
#define MCK_STATEEVAL_H

#include "netconv.h"
#include "tree.h"

/* 1 or 0, or -1 when f is not a state formula. */
int cn_state_holds(const cnet_t *cn, const tree_t *f, const nc_count *m);

#endif
