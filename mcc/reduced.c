/* The net made smaller for the questions a search has left open
 * (reduce/reduce.h): one reduction for all of them, observing what any of
 * them observes, and the way back for the runs that show the answers. */
#include "mcc/internal.h"
#include "mcc/reduced.h"

#include <stdio.h>
#include <string.h>

/* Reduces r's net for what out->obs observes within budget; 1 when the
 * net got smaller (out holds it, compiled), else 0 with out empty. */
static int reduce_observed_net(const mcc_run *r, const budget_t *budget, mcc_reduced *out)
{
    out->red = reduce_build(r->cn, &out->obs, budget);
    net_t *net = out->red ? reduce_net(out->red) : NULL;
    if (!net || (net->nplaces == r->cn->nplaces && net->ntransitions == r->cn->ntransitions) ||
        !(out->cn = nc_compile(net))) {
        mcc_reduced_free(out);
        return 0;
    }
    return 1;
}

int mcc_reduce(const mcc_run *r, const tree_t *const *goals, const int *negated, size_t n,
               int lassos, mcc_reduced *out)
{
    memset(out, 0, sizeof *out);
    if (r->no_reduce)
        return 0;
    if (reduce_observe(r->cn, NULL, &out->obs) < 0)
        return 0;
    for (size_t i = 0; i < n; i++)
        reduce_observe_add(&out->obs, r->cn, goals[i], negated[i]);
    out->obs.lassos = lassos;
    budget_t reducing = budget_carve(r->budget, CARVE_MCC_REDUCE);
    if (!reduce_observed_net(r, &reducing, out))
        return 0;
    if (r->verbose)
        fprintf(stderr, "mck mcc: %s: structural reduction: %u places, %u transitions left of "
                "%u and %u\n", r->exam, out->cn->nplaces, out->cn->ntransitions, r->cn->nplaces,
                r->cn->ntransitions);
    return 1;
}

int mcc_reduce_ctl(const mcc_run *r, const tree_t *const *formulas, size_t n, int lassos,
                   int any_removal, const budget_t *budget, mcc_reduced *out)
{
    memset(out, 0, sizeof *out);
    if (r->no_reduce || reduce_observe(r->cn, NULL, &out->obs) < 0)
        return 0;
    for (size_t i = 0; i < n; i++)
        reduce_observe_add(&out->obs, r->cn, formulas[i], 0);
    out->obs.branching = 1;
    out->obs.lassos = lassos;
    out->obs.any_removal = any_removal;
    return reduce_observed_net(r, budget, out);
}

int mcc_reduced_run(const mcc_reduced *m, mcc_evidence *ev, uint32_t **owned)
{
    *owned = NULL;
    if (!m->red || !ev->run)
        return 0;
    size_t loop = ev->loop_start, len;
    if (reduce_map_run(m->red, ev->run, ev->len, owned, &len,
                       loop == RESULT_NO_LOOP ? NULL : &loop) < 0)
        return -1;
    ev->run = *owned;
    ev->len = len;
    ev->loop_start = loop;
    return 0;
}

void mcc_reduced_free(mcc_reduced *m)
{
    reduce_free(m->red);
    reduce_observed_free(&m->obs);
    memset(m, 0, sizeof *m);
}
