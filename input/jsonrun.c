/* A run as JSON (jsonrun.h): the language's output function prints the
 * run to a listener (runlisten.h), which turns each piece into JSON as it
 * comes. */
#include "input/jsonrun.h"
#include "input/runlisten.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

typedef struct json_listener {
    run_listener l;
    json_writer *j;
    net_t *net;
    const result_t *res;
    int steps_open, steps_done, heard, ended;
} json_listener;

#define MAX_STEP_ATTRS 8

static void open_steps(json_listener *jl)
{
    if (jl->steps_open || jl->steps_done)
        return;
    json_key(jl->j, "steps");
    json_array_begin(jl->j);
    jl->steps_open = 1;
}

static void close_steps(json_listener *jl)
{
    open_steps(jl);
    if (jl->steps_open)
        json_array_end(jl->j);
    jl->steps_open = 0;
    jl->steps_done = 1;
}

/* The transition as a verdict trace names it: its id, or "#i" when the
 * net gave it none (verdicts/from_result.c). */
static void transition_members(json_writer *j, const net_t *net, uint32_t t)
{
    const nc_transition *tr = &net->transitions[t];
    char index[16];
    const char *id = tr->id;
    if (!id) {
        snprintf(index, sizeof index, "#%" PRIu32, t);
        id = index;
    }
    json_member_string(j, "transition", id);
    json_member_string(j, "name", tr->name);
}

static void on_state(void *ctx, const char *what, const char *text)
{
    json_listener *jl = ctx;
    jl->heard = 1;
    json_member_string(jl->j, strcmp(what, "initial state") ? "final_state" : "initial_state",
                       text);
}

static void on_step(void *ctx, size_t i, uint32_t t, const nc_count *before,
                    const nc_count *after, const char *text)
{
    json_listener *jl = ctx;
    json_writer *j = jl->j;
    (void)i;
    open_steps(jl);
    json_object_begin(j);
    transition_members(j, jl->net, t);
    json_member_string(j, "text", text);
    json_key(j, "attributes");
    json_object_begin(j);
    if (jl->net->lang_step_attrs) {
        char buf[4096];
        const char *kv[2 * MAX_STEP_ATTRS];
        size_t n = jl->net->lang_step_attrs(jl->net, before, after, t, buf, sizeof buf, kv,
                                            MAX_STEP_ATTRS);
        for (size_t k = 0; k < n; k++)
            json_member_string(j, kv[2 * k], kv[2 * k + 1]);
    }
    json_object_end(j);
    json_object_end(j);
}

static void loop_and_end(json_writer *j, const result_t *res)
{
    json_key(j, "loop_start");
    if (res->loop_start == RESULT_NO_LOOP)
        json_null(j);
    else
        json_uint(j, res->loop_start);
    json_member_string(j, "end", res->loop_start == RESULT_NO_LOOP ? "final state"
                                 : res->loop_start == res->run_len ? "deadlock" : "loop");
}

static void on_end(void *ctx, run_end_kind end)
{
    json_listener *jl = ctx;
    (void)end;
    jl->ended = 1;
    close_steps(jl);
    loop_and_end(jl->j, jl->res);
}

static void on_dead(void *ctx, const char *text)
{
    json_listener *jl = ctx;
    json_member_string(jl->j, "dead", text);
}

/* A language that prints its runs without print_run_words (a plugin's
 * own): the steps as transitions, and its whole text. */
static void unheard(json_writer *j, net_t *net, const result_t *res, const char *printed)
{
    json_key(j, "steps");
    json_array_begin(j);
    for (size_t i = 0; i < res->run_len; i++) {
        json_object_begin(j);
        if (res->run[i] < net->ntransitions)
            transition_members(j, net, res->run[i]);
        json_object_end(j);
    }
    json_array_end(j);
    loop_and_end(j, res);
    json_member_string(j, "text", printed);
}

/* The text's "*** from here: FORMULA holds ***" lines, present under the
 * same condition (two parts or more). */
static void segments(json_writer *j, const result_t *res)
{
    if (res->nsegments < 2)
        return;
    json_key(j, "segments");
    json_array_begin(j);
    for (size_t k = 0; k < res->nsegments; k++) {
        json_object_begin(j);
        json_member_uint(j, "start", res->segments[k].start);
        json_member_string(j, "formula", res->segments[k].formula);
        json_member_bool(j, "holds", res->segments[k].holds);
        json_object_end(j);
    }
    json_array_end(j);
}

void json_run(json_writer *j, net_t *net, outputfunc_t print_run, const result_t *res)
{
    if (res->role == RUN_NONE || !res->run) {
        json_null(j);
        return;
    }
    json_object_begin(j);
    json_member_string(j, "role", res->role == RUN_WITNESS ? "witness" : "counterexample");
    json_listener jl = { { NULL, on_state, NULL, on_step, on_end, on_dead, 0 }, j, net, res,
                         0, 0, 0, 0 };
    jl.l.ctx = &jl;
    char *printed = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&printed, &len);
    if (out) {
        run_listener *old = run_words_listen(&jl.l);
        print_run(out, net, res);
        run_words_listen(old);
        fclose(out);
    }
    if (!jl.heard)
        unheard(j, net, res, printed ? printed : "");
    else if (!jl.ended) {
        /* the language had no words for a step: the object stays whole */
        close_steps(&jl);
        loop_and_end(j, res);
    }
    segments(j, res);
    if (jl.l.failed || !out || (jl.heard && !jl.ended))
        json_member_bool(j, "incomplete", 1);
    free(printed);
    json_object_end(j);
}
