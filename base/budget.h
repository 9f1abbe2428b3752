/* The one budget of a run of mck: the time and memory the user (--timeout,
 * --mem) or the contest (BenchKit's variables) gives, made once in main.c
 * and handed down to every command, engine and checker. */
#ifndef MCK_BUDGET_H
#define MCK_BUDGET_H

#include <stddef.h>

typedef struct budget {
    double start;               /* mono_now() when mck started: deadlines count from here */
    volatile int *interrupted;  /* set asynchronously by SIGINT or SIGTERM */
} budget_t;

void budget_init(budget_t *b, volatile int *interrupted);
/* Seconds since mck started. */
double budget_elapsed(const budget_t *b);

#endif
