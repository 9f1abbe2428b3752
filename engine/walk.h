/* Random walks: runs from the initial marking, each step a transition
 * chosen uniformly among the enabled ones, restarted at a deadlock or at a
 * depth limit.  A walk proves only what it meets (a reachable deadlock, a
 * reachable marking with a property), never that something is
 * unreachable; it finds deep witnesses in state spaces a breadth-first
 * search cannot cover in time.  Nothing is stored but the current walk. */
#ifndef MCK_WALK_H
#define MCK_WALK_H

#include "base/netconv.h"

/* Called on the initial marking (t == WALK_START) and after each step
 * (t the transition fired); dead: nothing is enabled in m.  Nonzero stops
 * the walks. */
#define WALK_START UINT32_MAX
typedef int (*walk_visit)(void *ctx, const nc_count *m, uint32_t t, int dead);

typedef struct walk_result {
    uint32_t *run;      /* the current walk when the visitor stopped it (malloc'd) */
    size_t run_len;
    uint64_t steps;     /* steps over all walks */
    uint64_t walks;
} walk_result;

/* Walks until the visitor stops them (1, run set), the deadline passes, or
 * *interrupted is set (0).  seed makes it reproducible; max_depth bounds
 * one walk.  -1 on no memory. */
int walk_run(const cnet_t *cn, double deadline, volatile int *interrupted, uint64_t seed,
             size_t max_depth, walk_visit visit, void *ctx, walk_result *out);

#endif
