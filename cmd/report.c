/* Presenting a checker's result (report.h). */
#include "cmd/report.h"
#include "verdicts/verdicts.h"
#include "engine/stateeval.h"
#include "base/runwalk.h"

int answer_status(answer_t a)
{
    return a == ANSWER_YES ? 0 : a == ANSWER_NO ? 1 : 3;
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
    if (res->net_note[0])
        fprintf(err, "net: %s\n", res->net_note);
    if (res->reduction[0])
        fprintf(err, "partial order: %s\n", res->reduction);
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

/* The end a dl or reach run claims; the walk checks loops and deadlocks. */
typedef struct end_claim {
    const cnet_t *cn;
    const tree_t *f;
    prop_kind kind;
    int ok;
} end_claim;

static void check_claim(void *ctx, run_end_kind end, const nc_count *last)
{
    end_claim *c = ctx;
    if (end != RUN_END_PLAIN)
        return;
    if (c->kind == KIND_DL)
        c->ok = cn_dead(c->cn, last);
    else if (c->kind == KIND_REACH && c->f)
        c->ok = cn_state_holds(c->cn, c->f, last) == 1;
}

/* A checker bug must never reach the user as a wrong witness. */
int replay_ok(const cnet_t *cn, const result_t *res, const tree_t *f, prop_kind kind)
{
    end_claim c = { cn, f, kind, 1 };
    const run_visitor v = { .on_end = check_claim };
    return run_walk(cn, res, &v, &c) == RUN_WALK_OK && c.ok;
}
