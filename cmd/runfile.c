/* Runs saved in verdict files, read back onto a model (runfile.h). */
#include "cmd/runfile.h"
#include "base/runwalk.h"
#include "verdicts/verdicts.h"

#include <errno.h>
#include <stdlib.h>

/* The transition a trace step names: its id, or "#N" for one without. */
static int64_t step_transition(net_t *net, const char *name)
{
    if (name[0] == '#') {
        char *end;
        errno = 0;
        unsigned long long i = strtoull(name + 1, &end, 10);
        return !errno && !*end && name[1] && i < net->ntransitions ? (int64_t)i : -1;
    }
    return nc_find_transition(net, name);
}

static const char *model_of(const net_t *net)
{
    return net->file ? net->file : net->name;
}

/* What a message calls a step: the name the file gives it, as the run
 * printed it, else its transition. */
static const char *step_words(const vd_step *s)
{
    return s->name ? s->name : s->transition;
}

static int count_fired(void *ctx, size_t i, uint32_t t, const nc_count *before,
                       const nc_count *after)
{
    (void)t;
    (void)before;
    (void)after;
    *(size_t *)ctx = i + 1;
    return 0;
}

/* How many of res's steps fire one after the other from the initial
 * marking, and how the walk ended. */
static run_walk_status replay(const cnet_t *cn, const result_t *res, size_t *fired)
{
    const run_visitor v = { .on_step = count_fired };
    *fired = 0;
    return run_walk(cn, res, &v, fired);
}

/* Why a run that fires to its end does not end as its trace says. */
static void bad_end(const char *path, const verdict_t *v, const net_t *net, const result_t *res)
{
    if (res->loop_start == res->run_len)
        nc_error(path, v->line, "the run does not replay on %s: its trace says it ends in a "
                 "deadlock, but a transition is enabled after its last step (%zu)",
                 model_of(net), res->run_len);
    else if (res->loop_start > res->run_len)
        nc_error(path, v->line, "the run does not replay on %s: its loop starts after its "
                 "last step", model_of(net));
    else
        nc_error(path, v->line, "the run does not replay on %s: after its last step (%zu) "
                 "it is not back in the state before step %zu, where its loop starts",
                 model_of(net), res->run_len, res->loop_start + 1);
}

int read_run_file(const char *path, net_t *net, result_t *res, size_t *fits)
{
    size_t fits_here = 0;
    if (!fits)
        fits = &fits_here;
    *fits = 0;
    result_clear(res);
    verdictset_t *vs = vs_read(path);
    if (!vs)
        return -1;
    const verdict_t *v = NULL;
    for (size_t i = 0; i < vs->nverdicts && !v; i++)
        if (vs->verdicts[i]->has_trace)
            v = vs->verdicts[i];
    int rc = -1;
    uint32_t *run = NULL;
    const cnet_t *cn = NULL;
    if (!v) {
        nc_error(path, 0, "no verdict in this file has a trace (write one with 'mck check --xml')");
        goto out;
    }
    if (!(cn = nc_compile(net)))
        goto out;
    run = malloc((v->nsteps ? v->nsteps : 1) * sizeof *run);
    if (!run) {
        nc_error(path, 0, "out of memory");
        goto out;
    }
    size_t known = 0;
    for (; known < v->nsteps; known++) {
        int64_t t = step_transition(net, v->steps[known].transition);
        if (t < 0)
            break;
        run[known] = (uint32_t)t;
    }
    run_role role = v->role == RUN_NONE ? RUN_WITNESS : v->role;
    size_t loop = v->loop_start == VD_NO_LOOP ? RESULT_NO_LOOP : v->loop_start;
    if (result_set_run(res, role, run, known, known < v->nsteps ? RESULT_NO_LOOP : loop) < 0) {
        nc_error(path, 0, "out of memory");
        goto out;
    }
    size_t fired;
    run_walk_status st = replay(cn, res, &fired);
    if (st == RUN_WALK_NO_MEMORY) {
        nc_error(path, 0, "out of memory");
        result_clear(res);
        goto out;
    }
    if (st == RUN_WALK_DISABLED) {
        if (fired)
            nc_error(path, v->line, "the run does not replay on %s: step %zu (%s) cannot fire "
                     "after step %zu", model_of(net), fired + 1,
                     step_words(&v->steps[fired]), fired);
        else
            nc_error(path, v->line, "the run does not replay on %s: step 1 (%s) cannot fire "
                     "in the initial state", model_of(net), step_words(&v->steps[0]));
    } else if (known < v->nsteps) {
        nc_error(path, v->line, "step %zu: '%s' is not a transition of %s", known + 1,
                 v->steps[known].transition, model_of(net));
    } else if (st == RUN_WALK_BAD_END) {
        bad_end(path, v, net, res);
    } else {
        rc = 0;
    }
    if (rc < 0) {
        rc = -2;
        *fits = fired;
        res->run_len = fired;
        res->loop_start = RESULT_NO_LOOP;
    }
out:
    free(run);
    vs_free(vs);
    return rc;
}
