/* Listening to a printed run (input.h's print_run_words) piece by piece:
 * while a listener is set, print_run_words prints nothing and hands it
 * each state and each step in the language's own words instead, so that
 * a run can be shown in the model's terms in other forms than text (JSON)
 * by the same output functions, a plugin's included.  One listener at a
 * time: mck prints from one thread. */
#ifndef MCK_RUNLISTEN_H
#define MCK_RUNLISTEN_H

#include <stddef.h>
#include <stdint.h>
#include "base/runwalk.h"

typedef struct run_listener {
    void *ctx;
    /* "initial state" or "final state"; text is what the language prints
     * between "*** WHAT: " and " ***" */
    void (*state)(void *ctx, const char *what, const char *text);
    /* before the first step of a lasso's loop */
    void (*loop_start)(void *ctx);
    /* step i fired transition t from before into after; text is the
     * step's line without its newline */
    void (*step)(void *ctx, size_t i, uint32_t t, const nc_count *before,
                 const nc_count *after, const char *text);
    /* after the last step, before the final state (none after a loop) */
    void (*end)(void *ctx, run_end_kind end);
    /* what the language says about a dead final state (B(PN)2: the
     * actions every branch waits at), without the last newline */
    void (*dead)(void *ctx, const char *text);
    /* set when a piece could not be captured (no memory) */
    int failed;
} run_listener;

/* Sets the listener (NULL: print again); returns the one it replaces. */
run_listener *run_words_listen(run_listener *l);

#endif
