/* dist: the checker row of the distributed search (dist.h).  Like the
 * explicit row's breadth-first search, it stops at the first marking
 * found, so a witness is a shortest run. */
#include "base/clock.h"
#include "checkers/dist.h"
#include "checkers/explicit.h"
#include "engine/dist/distcomm.h"
#include "engine/dist/distsearch.h"
#include "engine/stateeval.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct goal {
    const cnet_t *cn;
    const tree_t *formula;
} goal;

static int holds_here(void *ctx, const nc_count *m)
{
    const goal *g = ctx;
    return cn_state_holds(g->cn, g->formula, m);
}

int dist_accepts(const tree_t *t, prop_kind kind, char *why, size_t whylen)
{
    if (kind == KIND_DL || (kind == KIND_REACH && t && state_ops_only(t)))
        return 1;
    snprintf(why, whylen, kind == KIND_REACH ? "dist checker: reach needs a state formula"
                                             : "dist checker: dl and reach only");
    return 0;
}

void dist_check(const cnet_t *cn, const tree_t *formula, prop_kind kind,
                const check_options *opt, result_t *res)
{
    double start = mono_now();
    result_add_technique(res, "EXPLICIT");
    result_add_technique(res, "DISTRIBUTED");
    if (!dist_started()) {
        result_unknown(res, "the dist checker runs under MPI: mpirun -np N mck check --mpi");
        return;
    }
    char why[200];
    dist_t *d = dist_new(cn, opt, opt->want_run, why, sizeof why);
    if (!d) {
        result_unknown(res, why);
        res->seconds = mono_now() - start;
        return;
    }
    goal g = {cn, formula};
    dist_goal dg = {kind == KIND_DL, kind == KIND_REACH ? holds_here : NULL, &g};
    explore_status st = dist_bfs(d, &dg, res);
    if (st == EXPLORE_DONE) {
        res->answer = ANSWER_NO;
    } else if (st == EXPLORE_STOPPED && dist_found(d) < 0) {
        result_unknown(res, "formula not supported by the dist checker");
    } else if (st == EXPLORE_STOPPED) {
        res->answer = ANSWER_YES;
        uint32_t *run;
        size_t len;
        if (opt->want_run && dist_run(d, &run, &len) < 0) {
            result_unknown(res, "memory budget exhausted");
        } else if (opt->want_run) {
            if (result_set_run(res, RUN_WITNESS, run, len, RESULT_NO_LOOP) < 0)
                result_unknown(res, "memory budget exhausted");
            free(run);
        }
    }
    dist_free(d);
    res->seconds = mono_now() - start;
}
