/* The progress line (progress.h). */
#include "engine/progress.h"

#include <stdio.h>

void progress_start(progress *p, const check_options *opt, const char *name, const char *queue,
                    double now)
{
    p->opt = opt;
    p->name = name;
    p->queue = queue;
    p->start = now;
    p->next = now + PROGRESS_SECONDS;
}

void progress_maybe(progress *p, double now, uint64_t states, uint64_t edges, size_t bytes,
                    uint64_t queue)
{
    if (!p->opt || !p->opt->progress || now < p->next)
        return;
    double secs = now - p->start;
    fprintf(stderr, "%s: %llu states, %llu edges, %zu MB, %.2g states/s", p->name,
            (unsigned long long)states, (unsigned long long)edges, bytes >> 20,
            secs > 0 ? (double)states / secs : 0.0);
    if (p->queue)
        fprintf(stderr, ", %s %llu", p->queue, (unsigned long long)queue);
    fputc('\n', stderr);
    p->next = now + PROGRESS_SECONDS;
}
