/* progress: the line a long search prints on standard error every few
 * seconds, when check_options.progress asks for it (cmd/check.c sets it for a
 * terminal, or with -v).  One format for every checker, so a user watching
 * two kinds of search reads them the same way. */
#ifndef MCK_PROGRESS_H
#define MCK_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

#include "base/result.h"

#define PROGRESS_SECONDS 2.0

typedef struct progress {
    const check_options *opt;
    const char *name;       /* the line's prefix: "explicit", "ltl" */
    /* what the last number counts: "queue", "stack"; NULL: no such number */
    const char *queue;
    double start, next;
} progress;

void progress_start(progress *p, const check_options *opt, const char *name, const char *queue,
                    double now);
/* Prints a line when progress is wanted and its time has come. */
void progress_maybe(progress *p, double now, uint64_t states, uint64_t edges, size_t bytes,
                    uint64_t queue);

#endif
