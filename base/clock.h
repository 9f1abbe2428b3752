/* The one clock every limit in the checkers is measured on: monotonic
 * seconds, immune to changes of the wall clock. */
#ifndef MCK_CLOCK_H
#define MCK_CLOCK_H

#include <time.h>

static inline double mono_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#endif
