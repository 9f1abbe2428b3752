/* fence: a checker's work in a child process that the caller kills at the
 * budget's deadline or on an interrupt.  For engines whose single
 * operations cannot be stopped: BuDDy reads the clock only at its garbage
 * collections, and one relational product ran 9 s past a 60 s limit
 * (HouseConstruction-PT-00050).  The child's result_t, run and segments
 * included, comes back through a pipe; a child killed or dead before it
 * has said everything gives UNKNOWN with the reason. */
#ifndef MCK_FENCE_H
#define MCK_FENCE_H

#include "base/result.h"

typedef void (*fence_work)(void *ctx, result_t *res);

/* Runs work(ctx, res) in a child and fills res from it.  Where no child
 * can be made (fork or pipe fails), runs it here, unfenced. */
void fence_run(const budget_t *budget, fence_work work, void *ctx, result_t *res);

#endif
