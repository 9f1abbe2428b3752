/* run_walk: the one replay of a checker's run (result.h) on the compiled
 * net.  Everyone who checks a run or shows it in the model's terms walks
 * it here, so that what cmd/ checks before printing is exactly what the
 * output functions and verdict traces then show, and a wrong step is
 * caught once, the same way everywhere. */
#ifndef MCK_RUNWALK_H
#define MCK_RUNWALK_H

#include "base/netconv.h"
#include "base/result.h"

/* How a run ends, from its loop_start. */
typedef enum {
    RUN_END_PLAIN,      /* loop_start is RESULT_NO_LOOP */
    RUN_END_DEADLOCK,   /* loop_start is run_len: the last marking is dead and repeats */
    RUN_END_LOOP,       /* a lasso: the last step leads back to the marking at loop_start */
} run_end_kind;

typedef enum {
    RUN_WALK_OK = 0,
    RUN_WALK_NO_MEMORY,
    RUN_WALK_NO_TRANSITION,  /* a step names a transition the net does not have */
    RUN_WALK_DISABLED,       /* a step is not enabled, or would overflow a count */
    RUN_WALK_BAD_END,        /* the end is not as loop_start claims (see run_end_kind) */
    RUN_WALK_STOPPED,        /* on_step asked to stop */
} run_walk_status;

/* What a walker is told, in run order.  Any callback may be NULL; ctx is
 * run_walk's.  The markings are the walk's own, valid during the call. */
typedef struct run_visitor {
    void (*on_start)(void *ctx, const nc_count *initial);
    /* Before step loop_start of a lasso (never for a deadlock end). */
    void (*on_loop_start)(void *ctx, const nc_count *m);
    /* After step i, transition t, has fired from before into after.
     * Non-zero stops the walk (RUN_WALK_STOPPED). */
    int (*on_step)(void *ctx, size_t i, uint32_t t, const nc_count *before,
                   const nc_count *after);
    /* Only when every step fired and the end is as claimed. */
    void (*on_end)(void *ctx, run_end_kind end, const nc_count *last);
} run_visitor;

/* Walks res's run from the initial marking.  A step that cannot fire is
 * reported, never fired: the walk stops before it (on_step is not called
 * for it) and on_end is not called.  v may be NULL: only the check. */
run_walk_status run_walk(const cnet_t *cn, const result_t *res, const run_visitor *v, void *ctx);

#endif
