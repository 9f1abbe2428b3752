/* A checker's result_t as a verdict: the one place verdicts/ knows result_t
 * and net_t, so that the format itself stays in the file's terms. */
#include "verdicts/verdicts.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Replays the run on the compiled net so that the language can describe
 * each step from the markings around it.  Languages without a description
 * (the plain nets) need no replay. */
typedef struct step_replay {
    const cnet_t *cn;
    nc_count *before, *after;
} step_replay;

static int replay_start(step_replay *r, const net_t *net)
{
    memset(r, 0, sizeof *r);
    if (!net->lang_step_attrs || !net->compiled)
        return 0;
    r->cn = net->compiled;
    size_t n = r->cn->nplaces ? r->cn->nplaces : 1;
    r->before = malloc(n * sizeof *r->before);
    r->after = malloc(n * sizeof *r->after);
    if (!r->before || !r->after)
        return -1;
    memcpy(r->after, r->cn->initial, r->cn->nplaces * sizeof *r->after);
    return 0;
}

static void replay_end(step_replay *r)
{
    free(r->before);
    free(r->after);
}

#define MAX_STEP_ATTRS 8

/* Fires t and describes the step; the number of key/value pairs. */
static size_t replay_step(step_replay *r, const net_t *net, uint32_t t, char *buf, size_t len,
                          const char **kv)
{
    if (!r->cn || t >= r->cn->ntransitions)
        return 0;
    memcpy(r->before, r->after, r->cn->nplaces * sizeof *r->before);
    if (!cn_enabled(r->cn, r->after, t) || cn_fire(r->cn, r->after, t) < 0) {
        r->cn = NULL;   /* not a run of this net: describe nothing further */
        return 0;
    }
    return net->lang_step_attrs(net, r->before, r->after, t, buf, len, kv, MAX_STEP_ATTRS);
}

static int add_run(verdict_t *v, const net_t *net, const result_t *res)
{
    step_replay replay;
    char buf[4096];
    const char *kv[2 * MAX_STEP_ATTRS];
    if (replay_start(&replay, net) < 0)
        goto no_memory;
    vd_start_trace(v, res->role);
    for (size_t i = 0; i < res->run_len; i++) {
        if (res->run[i] >= net->ntransitions) {
            nc_error(net->file, 0, "verdict: run step %zu names transition %" PRIu32
                     " of a net with %zu", i, res->run[i], net->ntransitions);
            replay_end(&replay);
            return -1;
        }
        size_t npairs = replay_step(&replay, net, res->run[i], buf, sizeof buf, kv);
        if (add_transition_step(v, net, res->run[i], kv, npairs))
            goto no_memory;
    }
    replay_end(&replay);
    if (res->loop_start != RESULT_NO_LOOP) {
        if (res->loop_start > res->run_len) {
            nc_error(net->file, 0, "verdict: loop start %zu beyond a run of %zu steps",
                     res->loop_start, res->run_len);
            return -1;
        }
        vd_set_loop_start(v, res->loop_start);
    }
    return 0;
no_memory:
    replay_end(&replay);
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
