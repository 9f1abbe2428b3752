/* Presenting a checker's result (report.h). */
#include "cmd/report.h"
#include "verdicts/verdicts.h"
#include "engine/stateeval.h"

#include <stdlib.h>
#include <string.h>

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
    if (res->net_note[0])
        fprintf(err, "net: %s\n", res->net_note);
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

/* Replays a run on the net: every step enabled, and the end as claimed.
 * A checker bug must never reach the user as a wrong witness. */
int replay_ok(const cnet_t *cn, const result_t *res, const tree_t *f, prop_kind kind)
{
    nc_count *m = malloc((cn->nplaces ? cn->nplaces : 1) * sizeof *m);
    if (!m)
        return 0;
    memcpy(m, cn->initial, cn->nplaces * sizeof *m);
    nc_count *at_loop = NULL;
    int ok = 1;
    if (res->loop_start < res->run_len && !(at_loop = malloc((cn->nplaces ? cn->nplaces : 1) *
                                                             sizeof *at_loop)))
        ok = 0;
    for (size_t i = 0; ok && i < res->run_len; i++) {
        uint32_t t = res->run[i];
        if (i == res->loop_start)
            memcpy(at_loop, m, cn->nplaces * sizeof *m);
        ok = t < cn->ntransitions && cn_enabled(cn, m, t) && cn_fire(cn, m, t) == 0;
    }
    /* a lasso's loop leads back to where it started; a run that ends in a
     * deadlock ends in one */
    if (ok && at_loop)
        ok = !memcmp(at_loop, m, cn->nplaces * sizeof *m);
    if (ok && res->loop_start == res->run_len)
        for (uint32_t t = 0; ok && t < cn->ntransitions; t++)
            ok = !cn_enabled(cn, m, t);
    free(at_loop);
    if (ok && res->loop_start == RESULT_NO_LOOP) {
        if (kind == KIND_DL) {
            for (uint32_t t = 0; ok && t < cn->ntransitions; t++)
                ok = !cn_enabled(cn, m, t);
        } else if (kind == KIND_REACH && f) {
            ok = cn_state_holds(cn, f, m) == 1;
        }
    }
    free(m);
    return ok;
}
