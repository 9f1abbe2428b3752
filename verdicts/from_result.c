/* A checker's result_t as a verdict: the one place verdicts/ knows result_t
 * and net_t, so that the format itself stays in the file's terms. */
#include "verdicts/verdicts.h"
#include "base/runwalk.h"

#include <inttypes.h>
#include <stdio.h>

static vd_value_kind answer_value(answer_t a)
{
    return a == ANSWER_YES ? VD_TRUE : a == ANSWER_NO ? VD_FALSE : VD_UNKNOWN;
}

/* Transition i as the trace names it: its id, or "#i" when the net gave it
 * none (an id can never start with '#' in PNML, and PEP ids are numbers).
 * kv holds what the model's language says about the step. */
static int add_transition_step(verdict_t *v, const net_t *net, uint32_t i,
                               const char *const *kv, size_t npairs)
{
    const nc_transition *t = &net->transitions[i];
    char index[16];
    const char *id = t->id;
    if (!id) {
        snprintf(index, sizeof index, "#%" PRIu32, i);
        id = index;
    }
    return vd_add_step(v, id, t->name, kv, npairs);
}

#define MAX_STEP_ATTRS 8

/* The steps the walk describes: the language's words from the markings
 * around each step. */
typedef struct described {
    verdict_t *v;
    const net_t *net;
    size_t added;
    int no_memory;
} described;

static int describe_step(void *ctx, size_t i, uint32_t t, const nc_count *before,
                         const nc_count *after)
{
    described *d = ctx;
    char buf[4096];
    const char *kv[2 * MAX_STEP_ATTRS];
    (void)i;
    size_t npairs = d->net->lang_step_attrs(d->net, before, after, t, buf, sizeof buf, kv,
                                            MAX_STEP_ATTRS);
    if (add_transition_step(d->v, d->net, t, kv, npairs)) {
        d->no_memory = 1;
        return -1;
    }
    d->added++;
    return 0;
}

static int add_run(verdict_t *v, const net_t *net, const result_t *res)
{
    for (size_t i = 0; i < res->run_len; i++)
        if (res->run[i] >= net->ntransitions) {
            nc_error(net->file, 0, "verdict: run step %zu names transition %" PRIu32
                     " of a net with %zu", i, res->run[i], net->ntransitions);
            return -1;
        }
    if (res->loop_start != RESULT_NO_LOOP && res->loop_start > res->run_len) {
        nc_error(net->file, 0, "verdict: loop start %zu beyond a run of %zu steps",
                 res->loop_start, res->run_len);
        return -1;
    }
    vd_start_trace(v, res->role);
    /* Languages without words for a step (the plain nets) need no walk.
     * Where the run stops being one of the net, the steps go on
     * undescribed: the trace is the checker's, whatever it is. */
    described d = { v, net, 0, 0 };
    if (net->lang_step_attrs && net->compiled) {
        const run_visitor visit = { .on_step = describe_step };
        if (run_walk(net->compiled, res, &visit, &d) == RUN_WALK_NO_MEMORY || d.no_memory)
            goto no_memory;
    }
    for (size_t i = d.added; i < res->run_len; i++)
        if (add_transition_step(v, net, res->run[i], NULL, 0))
            goto no_memory;
    if (res->loop_start != RESULT_NO_LOOP)
        vd_set_loop_start(v, res->loop_start);
    return 0;
no_memory:
    nc_error(net->file, 0, "verdict: out of memory");
    return -1;
}

verdict_t *vs_add_result(verdictset_t *vs, const char *category, const char *reference,
                         const net_t *net, const result_t *res)
{
    verdict_t *v = vs_add(vs, category, reference);
    if (!v)
        goto no_memory;
    vd_set_answer(v, answer_value(res->answer));
    if (res->answer == ANSWER_UNKNOWN && res->reason[0] && vd_set_explanation(v, res->reason))
        goto no_memory;
    if (vd_set_statedby_mck(v) || vd_add_techniques(v, res->techniques))
        goto no_memory;
    if (res->role != RUN_NONE && add_run(v, net, res)) {
        vs_remove(vs, v);
        return NULL;
    }
    return v;
no_memory:
    nc_error(net->file, 0, "verdict: out of memory");
    if (v)
        vs_remove(vs, v);
    return NULL;
}
