/* Option values and usage errors (options.h). */
#include "cmd/options.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int parse_count(const char *s, uint64_t *out)
{
    char *end;
    if (!*s || *s == '-')
        return -1;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        return -1;
    *out = v;
    return 0;
}

int parse_seconds(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || *end || !(v > 0) || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

int parse_megabytes(const char *s, size_t *out)
{
    uint64_t mb;
    if (parse_count(s, &mb) < 0 || mb == 0 || mb > (SIZE_MAX >> 20))
        return -1;
    *out = (size_t)mb << 20;
    return 0;
}

int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "mck: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry 'mck --help'.\n");
    return EXIT_ERROR;
}
