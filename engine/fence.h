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

#include <stddef.h>

typedef void (*fence_work)(void *ctx, result_t *res);

/* Runs work(ctx, res) in a child and fills res from it.  memory: when not
 * 0, the child's address space may grow by at most these bytes
 * (fence_limit_memory).  Where no child can be made (fork or pipe fails),
 * runs it here, unfenced. */
void fence_run(const budget_t *budget, size_t memory, fence_work work, void *ctx,
               result_t *res);

/* In a fenced child: its address space (RLIMIT_AS) limited to what it maps
 * now, the parent's image included, plus bytes, so that the allocations
 * of a library the budget cannot count (CaDiCaL's clauses) fail past its
 * share instead of taking the machine's memory.  A C++ allocation that
 * fails ends the process (std::bad_alloc uncaught: SIGABRT), which the
 * parent reads as the memory limit (fence_ended_why).  0 when set, -1 when
 * it could not be (no /proc, or an AddressSanitizer build: the child runs
 * unlimited). */
int fence_limit_memory(size_t bytes);

/* Why a fenced child that sent no result ended, from its waitpid status
 * and the bytes it was limited to (0: none). */
void fence_ended_why(int status, size_t memory, char *why, size_t len);

#endif
