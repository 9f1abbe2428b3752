/* lpguard: running GLPK so that it can neither print nor end the process.
 *
 * GLPK reports an internal error (a failed assertion, memory exhausted,
 * invalid data) by printing and calling abort().  Inside lpg_run such an
 * error instead unwinds to lpg_run, which frees GLPK's whole environment
 * (every GLPK object of the thread) and returns LPG_FAILED: callers must
 * hold no GLPK object across a call and must not nest calls. */
#ifndef MCK_LPGUARD_H
#define MCK_LPGUARD_H

#define LPG_FAILED (-1000)

/* Returns fn(arg), or LPG_FAILED after a GLPK error.  Memory fn allocated
 * itself must be reachable from arg so that the caller can free it. */
int lpg_run(int (*fn)(void *arg), void *arg);

/* Milliseconds left until deadline (seconds since lpg_now's origin), for
 * GLPK's tm_lim: at least 1, at most INT_MAX; 0 when the deadline has
 * passed.  A deadline of 0 means none. */
double lpg_now(void);
int lpg_ms_left(double deadline);

#endif
