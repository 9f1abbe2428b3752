/* Budgets for tests that call engines and checkers directly, as a command
 * would make them (base/budget.h): the test's limits, set once. */
#ifndef MCK_UNIT_BUDGETS_H
#define MCK_UNIT_BUDGETS_H

#include "base/budget.h"

/* seconds 0: no time limit; bytes 0: the default (half the memory). */
static inline budget_t unit_budget(double seconds, size_t bytes)
{
    budget_t b;
    budget_init(&b, NULL);
    budget_set_limits(&b, seconds, bytes, NULL);
    return b;
}

#endif
