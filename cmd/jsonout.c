/* The JSON objects of mck check (jsonout.h). */
#include "cmd/jsonout.h"
#include "input/jsonrun.h"

#include <string.h>

void json_check_init(json_check *jc, FILE *out, const char *model, const input_type *it,
                     const checker_type *chk)
{
    json_init(&jc->w, out);
    jc->model = model;
    jc->language = it ? it->name : NULL;
    jc->checker = chk ? chk->name : NULL;
}

static const char *answer_word(answer_t a)
{
    return a == ANSWER_YES ? "YES" : a == ANSWER_NO ? "NO" : "UNKNOWN";
}

/* The members every result object starts with. */
static void head(json_check *jc, const json_about *a)
{
    json_writer *j = &jc->w;
    json_object_begin(j);
    json_member_string(j, "type", "result");
    json_member_string(j, "command", "check");
    json_member_string(j, "model", jc->model);
    json_member_string(j, "language", jc->language);
    json_member_string(j, "property", a->property);
    json_member_string(j, "kind", prop_kind_name(a->kind));
    json_member_string(j, "checker", jc->checker);
}

static void techniques(json_writer *j, const char *words)
{
    json_array_begin(j);
    const char *s = words;
    while (*s) {
        size_t skip = strspn(s, " "), len = strcspn(s + skip, " ");
        if (len)
            json_string_n(j, s + skip, len);
        s += skip + len;
    }
    json_array_end(j);
}

static void statistics(json_writer *j, const result_t *res)
{
    json_key(j, "statistics");
    json_object_begin(j);
    json_member_uint(j, "states", res->states);
    json_member_uint(j, "edges", res->edges);
    json_member_double(j, "search_seconds", res->seconds);
    json_member_uint(j, "peak_bytes", res->peak_bytes);
    json_key(j, "techniques");
    techniques(j, res->techniques);
    json_member_string(j, "net", res->net_note[0] ? res->net_note : NULL);
    json_member_string(j, "partial_order", res->reduction[0] ? res->reduction : NULL);
    json_object_end(j);
}

void json_check_result(json_check *jc, const json_about *about, net_t *net,
                       outputfunc_t print_run, const result_t *res, int quiet, double seconds)
{
    json_writer *j = &jc->w;
    head(jc, about);
    json_member_string(j, "verdict", answer_word(res->answer));
    if (res->answer == ANSWER_UNKNOWN)
        json_member_string(j, "reason", res->reason[0] ? res->reason : "gave up");
    if (about->expected >= 0) {
        json_member_string(j, "expected", about->expected ? "YES" : "NO");
        json_key(j, "agrees");
        if (res->answer == ANSWER_UNKNOWN)
            json_null(j);
        else
            json_bool(j, (res->answer == ANSWER_YES) == (about->expected == 1));
    }
    json_member_double(j, "seconds", seconds);
    statistics(j, res);
    json_key(j, "run");
    if (quiet || res->answer == ANSWER_UNKNOWN)
        json_null(j);
    else
        json_run(j, net, print_run, res);
    json_object_end(j);
}

void json_check_refused(json_check *jc, const json_about *about, const char *why)
{
    json_writer *j = &jc->w;
    head(jc, about);
    json_member_string(j, "verdict", "ERROR");
    json_member_string(j, "reason", why);
    json_key(j, "run");
    json_null(j);
    json_object_end(j);
}

void json_check_summary(json_check *jc, const char *property_file, const json_tally *t)
{
    json_writer *j = &jc->w;
    json_object_begin(j);
    json_member_string(j, "type", "summary");
    json_member_string(j, "command", "check");
    json_member_string(j, "model", jc->model);
    json_member_string(j, "property_file", property_file);
    json_member_uint(j, "properties", t->properties);
    json_member_uint(j, "yes", t->yes);
    json_member_uint(j, "no", t->no);
    json_member_uint(j, "unknown", t->unknown);
    json_member_uint(j, "errors", t->errors);
    json_member_uint(j, "expected", t->expected);
    json_member_uint(j, "agree", t->agree);
    json_member_uint(j, "disagree", t->disagree);
    json_member_double(j, "seconds", t->seconds);
    json_member_uint(j, "exit_status", (uint64_t)t->exit_status);
    json_object_end(j);
}
