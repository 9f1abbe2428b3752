/* fence: a checker's work in a child process that the caller kills at the
 * budget's deadline or on an interrupt.  For engines whose single
 * operations cannot be stopped: BuDDy reads the clock only at its garbage
 * collections, and one relational product ran 9 s past a 60 s limit
 * (HouseConstruction-PT-00050).  The child's result_t, run and segments
 * included, comes back through a pipe; a child killed or dead before it
 * has said everything gives UNKNOWN with the reason.  A child may also
 * answer several questions, each as soon as it has the answer
 * (fence_run_each), so that those answered before the deadline count. */
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

/* Several results: work calls fence_send(out, i, r) once res[i] is final,
 * and what it sent stands even when the child is killed after; the others
 * end UNKNOWN with the reason.  res[0..n) must be result_init'ed. */
typedef struct fence_out fence_out;
typedef void (*fence_work_each)(void *ctx, fence_out *out);
void fence_run_each(const budget_t *budget, size_t memory, fence_work_each work, void *ctx,
                    result_t *res, size_t n);
/* In work: res is final for question i (copied; the caller keeps it).
 * 0 sent, -1 not (i out of range, a broken pipe, no memory). */
int fence_send(fence_out *out, size_t i, const result_t *res);

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
