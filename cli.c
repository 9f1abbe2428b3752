/* Command-line helpers shared by main.c's sub-commands. */
#include "cli.h"
#include "verdicts/verdicts.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

int report_result(FILE *out, net_t *net, outputfunc_t print_run, const result_t *res,
                  int quiet, double seconds)
{
    int rc;
    switch (res->answer) {
    case ANSWER_YES:
        fputs("Result: YES.\n", out);
        rc = 0;
        break;
    case ANSWER_NO:
        fputs("Result: NO.\n", out);
        rc = 1;
        break;
    default:
        fprintf(out, "Result: UNKNOWN (%s).\n", res->reason[0] ? res->reason : "gave up");
        rc = 3;
        break;
    }
    if (!quiet && res->answer != ANSWER_UNKNOWN && res->role != RUN_NONE && res->run) {
        fputs(res->role == RUN_WITNESS ? "Witness:\n" : "Counterexample:\n", out);
        print_run(out, net, res);
    }
    fprintf(out, "Time needed: %.2f seconds\n", seconds);
    fflush(out);
    return rc;
}

void report_statistics(FILE *err, const result_t *res)
{
    fprintf(err, "states: %llu\nedges: %llu\nsearch time: %.2f seconds\n",
            (unsigned long long)res->states, (unsigned long long)res->edges, res->seconds);
    if (res->states)
        fprintf(err, "memory: %.1f MB (%.1f bytes/state)\n", res->peak_bytes / 1048576.0,
                (double)res->peak_bytes / (double)res->states);
    if (res->seconds > 0)
        fprintf(err, "speed: %.0f states/s\n", res->states / res->seconds);
    if (res->techniques[0])
        fprintf(err, "techniques: %s\n", res->techniques);
}

int write_verdict_file(const char *path, net_t *net, const char *property, prop_kind kind,
                       const result_t *res)
{
    verdictset_t *vs = vs_create(net->name);
    if (!vs) {
        nc_error(path, 0, "out of memory");
        return -1;
    }
    /* The property file names the verdict; a deadlock check has none. */
    const char *reference = property ? property : "deadlock";
    int rc = -1;
    verdict_t *v = vs_add_result(vs, prop_kind_name(kind), reference, net, res);
    if (v)
        rc = vs_write_file(vs, path);
    vs_free(vs);
    return rc;
}
