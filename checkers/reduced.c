/* The "reduce" checker: the net made smaller by structural reduction for
 * the question at hand (reduce/reduce.h), then the explicit search on it;
 * its witness is expanded back into a run of the net the user gave.  CTL
 * gets the rules that keep branching time (reduce.h, "branching"). */
#include "checkers/reduced.h"
#include "checkers/explicit.h"
#include "reduce/reduce.h"

#include <stdio.h>
#include <stdlib.h>

int reduced_accepts(const tree_t *t, prop_kind kind, char *why, size_t whylen)
{
    if (kind == KIND_DL || kind == KIND_REACH || kind == KIND_CTL ||
        (kind == KIND_LTL && t && reduce_keeps_ltl(t)))
        return explicit_accepts(t, kind, why, whylen);
    snprintf(why, whylen, kind == KIND_LTL ?
             "reduce checker: ltl without X, deadlock and action propositions only "
             "(agglomeration drops steps that change nothing observed)" :
             "reduce checker: dl, reach, ctl and ltl only");
    return 0;
}

/* res's run, of the reduced net, as a run of the given one; a CTL run's
 * parts start where their first step's expansion does.  0, or -1 on no
 * memory. */
static int expand_run(const reduction *r, result_t *res)
{
    uint32_t *run = NULL;
    size_t len, loop = res->loop_start, nseg = res->nsegments;
    run_segment *seg = nseg ? malloc(nseg * sizeof *seg) : NULL;
    if (nseg && !seg)
        return -1;
    for (size_t i = 0; i < nseg; i++) {
        seg[i] = res->segments[i];
        seg[i].start = reduce_map_index(r, res->run, res->run_len, seg[i].start);
    }
    int rc = reduce_map_run(r, res->run, res->run_len, &run, &len,
                            loop == RESULT_NO_LOOP ? NULL : &loop) < 0 ||
                     result_set_run(res, res->role, run, len, loop) < 0 ||
                     (nseg && result_set_segments(res, seg, nseg) < 0)
                 ? -1
                 : 0;
    free(run);
    free(seg);
    return rc;
}

void reduced_run(const cnet_t *cn, const tree_t *formula, prop_kind kind,
                 const check_options *opt, result_t *res)
{
    if (kind == KIND_LTL && opt->fairness != FAIRNESS_NONE) {
        /* agglomeration merges and drops the transitions fairness names */
        result_unknown(res, "the reduce checker does not support fairness");
        return;
    }
    if (kind == KIND_LTL && !reduce_keeps_ltl(formula)) {
        /* X, deadlock or actions would see the steps agglomeration drops */
        explicit_run(cn, formula, kind, opt, res);
        return;
    }
    reduce_observed obs;
    reduction *r = NULL;
    tree_t *rf = NULL;
    const cnet_t *rc = NULL;
    budget_t reducing = budget_carve(opt->budget, CARVE_REDUCE);
    int observed = reduce_observe(cn, formula, &obs);
    /* a CTL run may end in a loop too, but without a run nothing needs to
     * come back to the same marking */
    obs.lassos = kind == KIND_LTL || (kind == KIND_CTL && opt->want_run);
    obs.branching = kind == KIND_CTL;
    if (observed < 0 || !(r = reduce_build(cn, &obs, &reducing))) {
        result_unknown(res, "out of memory while reducing the net");
        goto out;
    }
    if (!reduce_net(r)) {   /* too little to remove: the given net it is */
        explicit_run(cn, formula, kind, opt, res);
        snprintf(res->net_note, sizeof res->net_note, "not reduced (too little to remove)");
        goto out;
    }
    if (!(rc = nc_compile(reduce_net(r))) || (formula && !(rf = reduce_formula(r, formula)))) {
        result_unknown(res, "out of memory while reducing the net");
        goto out;
    }
    explicit_run(rc, rf, kind, opt, res);
    result_add_technique(res, "STRUCTURAL_REDUCTION");
    snprintf(res->net_note, sizeof res->net_note,
             "reduced to %u of %u places and %u of %u transitions", rc->nplaces, cn->nplaces,
             rc->ntransitions, cn->ntransitions);
    if ((res->run_len || res->role != RUN_NONE) && expand_run(r, res) < 0)
        result_unknown(res, "out of memory while mapping the run back");
out:
    tree_free(rf);
    reduce_free(r);
    reduce_observed_free(&obs);
}
