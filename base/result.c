/* result_t helpers: the one place that owns a result's memory. */
#include "base/result.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void result_init(result_t *r)
{
    memset(r, 0, sizeof *r);
    r->answer = ANSWER_UNKNOWN;
    r->loop_start = RESULT_NO_LOOP;
}

static void drop_segments(result_t *r)
{
    free(r->segments);
    r->segments = NULL;
    r->nsegments = 0;
}

void result_clear(result_t *r)
{
    free(r->run);
    free(r->segments);
    result_init(r);
}

void result_unknown(result_t *r, const char *reason)
{
    r->answer = ANSWER_UNKNOWN;
    snprintf(r->reason, sizeof r->reason, "%s", reason);
    free(r->run);
    drop_segments(r);
    r->run = NULL;
    r->run_len = 0;
    r->role = RUN_NONE;
    r->loop_start = RESULT_NO_LOOP;
}

int result_set_run(result_t *r, run_role role, const uint32_t *run, size_t len, size_t loop_start)
{
    uint32_t *copy = malloc((len ? len : 1) * sizeof *copy);
    if (!copy)
        return -1;
    if (len)
        memcpy(copy, run, len * sizeof *copy);
    free(r->run);
    drop_segments(r);
    r->run = copy;
    r->run_len = len;
    r->role = role;
    r->loop_start = loop_start;
    return 0;
}

int result_set_segments(result_t *r, const run_segment *segments, size_t n)
{
    run_segment *copy = NULL;
    if (n) {
        if (n > SIZE_MAX / sizeof *copy || !(copy = malloc(n * sizeof *copy)))
            return -1;
        memcpy(copy, segments, n * sizeof *copy);
    }
    drop_segments(r);
    r->segments = copy;
    r->nsegments = n;
    return 0;
}

void result_add_technique(result_t *r, const char *tech)
{
    size_t n = strlen(tech), have = strlen(r->techniques);
    /* already listed? match whole words only */
    for (const char *p = r->techniques; (p = strstr(p, tech)) != NULL; p += n)
        if ((p == r->techniques || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return;
    if (have + n + 2 > sizeof r->techniques)
        return;
    if (have)
        r->techniques[have++] = ' ';
    memcpy(r->techniques + have, tech, n + 1);
}
