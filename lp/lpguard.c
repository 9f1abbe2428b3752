/* GLPK under guard (lpguard.h).  GLPK's documented way out of an error is
 * an error hook that does not return; the environment is then unusable
 * and must be freed. */
#include "lp/lpguard.h"

#include <glpk.h>
#include <limits.h>
#include <setjmp.h>
#include <time.h>

static void on_error(void *info)
{
    longjmp(*(jmp_buf *)info, 1);
}

/* Nothing GLPK says is ours to show: results come back as values. */
static int swallow(void *info, const char *s)
{
    (void)info;
    (void)s;
    return 1;
}

int lpg_run(int (*fn)(void *arg), void *arg)
{
    jmp_buf env;
    glp_term_hook(swallow, NULL);
    glp_error_hook(on_error, &env);
    if (setjmp(env)) {
        glp_free_env();
        return LPG_FAILED;
    }
    int r = fn(arg);
    glp_error_hook(NULL, NULL);
    glp_term_hook(NULL, NULL);
    return r;
}

double lpg_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int lpg_ms_left(double deadline)
{
    if (deadline <= 0)
        return INT_MAX;
    double ms = (deadline - lpg_now()) * 1000.0;
    if (ms < 1)
        return 0;
    return ms >= INT_MAX ? INT_MAX : (int)ms;
}
