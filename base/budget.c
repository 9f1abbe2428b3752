/* The run's budget (budget.h). */
#include "base/budget.h"
#include "base/clock.h"

void budget_init(budget_t *b, volatile int *interrupted)
{
    b->start = mono_now();
    b->interrupted = interrupted;
}

double budget_elapsed(const budget_t *b)
{
    return mono_now() - b->start;
}
