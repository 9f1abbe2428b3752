/* `mck mcc --json`: every answer as a JSON object on standard output
 * instead of its answer line (the man page's JSON section), with the run
 * that shows it where a search found one, in the model's terms; the values
 * left open follow at the end, with the reason, as in the --xml file.
 * answer.c is the only caller of the answers' functions, so the objects
 * say exactly what the lines would have said. */
#include "mcc/internal.h"
#include "base/grow.h"
#include "base/json.h"
#include "input/input.h"
#include "input/jsonrun.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct open_value {
    char *id, *reason;
} open_value;

static struct {
    int active;
    const char *exam;
    json_writer w;
    net_t *net;
    char *model;
    char **answered;        /* ids with an object already */
    size_t nanswered, cap_answered;
    open_value *open;       /* values left open, written at the end */
    size_t nopen, cap_open;
} jo;

int mcc_json_open(const char *exam)
{
    memset(&jo, 0, sizeof jo);
    jo.active = 1;
    jo.exam = exam;
    json_init(&jo.w, stdout);
    return 0;
}

int mcc_json_active(void)
{
    return jo.active;
}

void mcc_json_set_model(net_t *net, const char *fallback_name)
{
    if (!jo.active)
        return;
    jo.net = net;
    const char *name = net && net->name ? net->name : fallback_name;
    free(jo.model);
    jo.model = name ? strdup(name) : NULL;
}

static int answered(const char *id)
{
    for (size_t i = 0; i < jo.nanswered; i++)
        if (!strcmp(jo.answered[i], id))
            return 1;
    return 0;
}

/* The question an examination asks, in check's kinds where it is one. */
static const char *exam_kind(const char *exam)
{
    static const struct { const char *prefix, *kind; } kinds[] = {
        {"StateSpace", "statespace"}, {"UpperBounds", "bound"},
        {"ReachabilityDeadlock", "dl"}, {"Reachability", "reach"},
        {"CTL", "ctl"}, {"LTL", "ltl"},
    };
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (!strncmp(exam, kinds[i].prefix, strlen(kinds[i].prefix)))
            return kinds[i].kind;
    return "generic";   /* OneSafe, QuasiLiveness, StableMarking, Liveness */
}

static void head(const char *id)
{
    json_writer *j = &jo.w;
    json_object_begin(j);
    json_member_string(j, "type", "result");
    json_member_string(j, "command", "mcc");
    json_member_string(j, "examination", jo.exam);
    json_member_string(j, "model", jo.model);
    json_member_string(j, "property", id);
    json_member_string(j, "kind", exam_kind(jo.exam));
}

static void techniques(json_writer *j, const char *words)
{
    json_key(j, "techniques");
    json_array_begin(j);
    for (const char *s = words ? words : ""; *s;) {
        size_t skip = strspn(s, " "), len = strcspn(s + skip, " ");
        if (len)
            json_string_n(j, s + skip, len);
        s += skip + len;
    }
    json_array_end(j);
}

static void run(json_writer *j, const mcc_evidence *ev)
{
    json_key(j, "run");
    result_t res;
    result_init(&res);
    if (!ev || !jo.net || result_set_run(&res, ev->role, ev->run, ev->len, ev->loop_start) < 0)
        json_null(j);
    else
        json_run(j, jo.net, pnml_output, &res);
    result_clear(&res);
}

void mcc_json_value(const char *id, const char *value, const char *words,
                    const mcc_evidence *ev)
{
    if (!jo.active)
        return;
    json_writer *j = &jo.w;
    char *copy = strdup(id);
    if (copy && GROW(jo.answered, jo.cap_answered, jo.nanswered + 1) == 0)
        jo.answered[jo.nanswered++] = copy;
    else
        free(copy);
    head(id);
    json_member_string(j, "verdict", value);
    if (strspn(value, "0123456789") == strlen(value)) {
        json_key(j, "value");
        json_number_text(j, value);
    }
    techniques(j, words);
    run(j, ev);
    json_object_end(j);
}

void mcc_json_unknown(const char *id, const char *reason)
{
    if (!jo.active)
        return;
    for (size_t i = 0; i < jo.nopen; i++)
        if (!strcmp(jo.open[i].id, id))
            return;   /* the first reason is the one that explains */
    char *i = strdup(id), *r = strdup(reason ? reason : "not decided");
    if (!i || !r || GROW(jo.open, jo.cap_open, jo.nopen + 1) < 0) {
        free(i);
        free(r);
        return;
    }
    jo.open[jo.nopen++] = (open_value){ i, r };
}

void mcc_json_word(const char *word)
{
    json_writer *j = &jo.w;
    json_object_begin(j);
    json_member_string(j, "type", "word");
    json_member_string(j, "command", "mcc");
    json_member_string(j, "examination", jo.exam);
    json_member_string(j, "model", jo.model);
    json_member_string(j, "word", word);
    json_object_end(j);
}

void mcc_json_close(void)
{
    if (!jo.active)
        return;
    json_writer *j = &jo.w;
    for (size_t i = 0; i < jo.nopen; i++) {
        if (!answered(jo.open[i].id)) {
            head(jo.open[i].id);
            json_member_string(j, "verdict", "UNKNOWN");
            json_member_string(j, "reason", jo.open[i].reason);
            techniques(j, NULL);
            json_key(j, "run");
            json_null(j);
            json_object_end(j);
        }
        free(jo.open[i].id);
        free(jo.open[i].reason);
    }
    for (size_t i = 0; i < jo.nanswered; i++)
        free(jo.answered[i]);
    free(jo.answered);
    free(jo.open);
    free(jo.model);
    memset(&jo, 0, sizeof jo);
}
