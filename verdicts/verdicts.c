/* The verdict set object: building, looking up, freeing.  Reading and
 * writing live in read.c and write.c and use only these functions. */
#include "verdicts/verdicts.h"
#include "base/grow.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Replaces *field by a copy of text (NULL clears it). */
static int set_string(char **field, const char *text)
{
    char *copy = NULL;
    if (text && !(copy = strdup(text)))
        return -1;
    free(*field);
    *field = copy;
    return 0;
}

/* Appends a copy of text to a string list whose capacity is its length
 * (lists stay short: techniques, instances). */
static int push_string(char ***list, size_t *n, const char *text)
{
    size_t cap = *n;
    if (GROW(*list, cap, *n + 1))
        return -1;
    if (!((*list)[*n] = strdup(text)))
        return -1;
    (*n)++;
    return 0;
}

static void free_strings(char **list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(list[i]);
    free(list);
}

static void free_step(vd_step *s)
{
    free(s->transition);
    free(s->name);
    for (size_t i = 0; i < s->nextra; i++) {
        free(s->extra[i].key);
        free(s->extra[i].value);
    }
    free(s->extra);
}

static void free_verdict(verdict_t *v)
{
    if (!v)
        return;
    free(v->category);
    free(v->reference);
    free(v->text);
    free_strings(v->instances, v->ninstances);
    free(v->explanation);
    free(v->tool);
    free(v->tool_version);
    free(v->date);
    free(v->url);
    free_strings(v->techniques, v->ntechniques);
    for (size_t i = 0; i < v->nsteps; i++)
        free_step(&v->steps[i]);
    free(v->steps);
    free(v);
}

verdictset_t *vs_create(const char *modelname)
{
    verdictset_t *vs = calloc(1, sizeof *vs);
    if (!vs)
        return NULL;
    if (set_string(&vs->version, VD_FORMAT_VERSION) ||
        set_string(&vs->modelname, modelname ? modelname : "")) {
        vs_free(vs);
        return NULL;
    }
    return vs;
}

void vs_free(verdictset_t *vs)
{
    if (!vs)
        return;
    for (size_t i = 0; i < vs->nverdicts; i++)
        free_verdict(vs->verdicts[i]);
    free(vs->verdicts);
    free(vs->version);
    free(vs->modelname);
    free(vs);
}

verdict_t *vs_add(verdictset_t *vs, const char *category, const char *reference)
{
    if (GROW(vs->verdicts, vs->cap, vs->nverdicts + 1))
        return NULL;
    verdict_t *v = calloc(1, sizeof *v);
    if (!v)
        return NULL;
    v->kind = VD_UNKNOWN;
    v->role = RUN_NONE;
    v->loop_start = VD_NO_LOOP;
    if (set_string(&v->category, category ? category : "") ||
        set_string(&v->reference, reference ? reference : "")) {
        free_verdict(v);
        return NULL;
    }
    vs->verdicts[vs->nverdicts++] = v;
    return v;
}

void vs_remove(verdictset_t *vs, verdict_t *v)
{
    for (size_t i = 0; i < vs->nverdicts; i++)
        if (vs->verdicts[i] == v) {
            memmove(&vs->verdicts[i], &vs->verdicts[i + 1],
                    (vs->nverdicts - i - 1) * sizeof *vs->verdicts);
            vs->nverdicts--;
            free_verdict(v);
            return;
        }
}

verdict_t *vs_find(const verdictset_t *vs, const char *category, const char *reference)
{
    for (size_t i = 0; i < vs->nverdicts; i++) {
        verdict_t *v = vs->verdicts[i];
        if (!strcmp(v->category, category) && !strcmp(v->reference, reference))
            return v;
    }
    return NULL;
}

/* ---- values ---- */

void vd_set_answer(verdict_t *v, vd_value_kind kind)
{
    v->kind = kind == VD_TRUE || kind == VD_FALSE ? kind : VD_UNKNOWN;
    free(v->text);
    v->text = NULL;
}

void vd_set_integer(verdict_t *v, int64_t value)
{
    vd_set_answer(v, VD_UNKNOWN);
    v->kind = VD_INTEGER;
    v->integer = value;
}

/* A decimal integer that fits in 64 bits, nothing else around it. */
static int parse_integer(const char *s, int64_t *out)
{
    const char *digits = s + (*s == '-' || *s == '+');
    if (*digits < '0' || *digits > '9')
        return -1;
    char *end;
    errno = 0;
    long long n = strtoll(s, &end, 10);
    if (errno || *end)
        return -1;
    *out = n;
    return 0;
}

int vd_set_value_text(verdict_t *v, const char *value)
{
    int64_t n;
    if (!strcmp(value, "true"))
        vd_set_answer(v, VD_TRUE);
    else if (!strcmp(value, "false"))
        vd_set_answer(v, VD_FALSE);
    else if (!strcmp(value, "unknown"))
        vd_set_answer(v, VD_UNKNOWN);
    else if (!parse_integer(value, &n))
        vd_set_integer(v, n);
    else {
        if (set_string(&v->text, value))
            return -1;
        v->kind = VD_TEXT;
    }
    return 0;
}

const char *vd_value_string(const verdict_t *v, char buf[24])
{
    switch (v->kind) {
    case VD_TRUE: return "true";
    case VD_FALSE: return "false";
    case VD_INTEGER:
        snprintf(buf, 24, "%" PRId64, v->integer);
        return buf;
    case VD_TEXT: return v->text ? v->text : "";
    case VD_UNKNOWN: break;
    }
    return "unknown";
}

/* ---- the other parts of a verdict ---- */

int vd_add_instance(verdict_t *v, const char *reference)
{
    return push_string(&v->instances, &v->ninstances, reference);
}

int vd_set_explanation(verdict_t *v, const char *text)
{
    return set_string(&v->explanation, text);
}

int vd_set_statedby(verdict_t *v, const char *tool, const char *version,
                    const char *date, const char *url)
{
    if (set_string(&v->tool, tool ? tool : "") ||
        set_string(&v->tool_version, version ? version : "") ||
        set_string(&v->date, date) || set_string(&v->url, url))
        return -1;
    return 0;
}

void vd_now(char buf[32])
{
    time_t now = time(NULL);
    struct tm tm;
    if (now == (time_t)-1 || !gmtime_r(&now, &tm) ||
        !strftime(buf, 32, "%Y-%m-%dT%H:%M:%SZ", &tm))
        snprintf(buf, 32, "1970-01-01T00:00:00Z");
}

int vd_set_statedby_mck(verdict_t *v)
{
    char date[32];
    vd_now(date);
    return vd_set_statedby(v, "mck", MCK_VERSION, date, NULL);
}

int vd_add_technique(verdict_t *v, const char *technique)
{
    for (size_t i = 0; i < v->ntechniques; i++)
        if (!strcmp(v->techniques[i], technique))
            return 0;
    return push_string(&v->techniques, &v->ntechniques, technique);
}

int vd_add_techniques(verdict_t *v, const char *words)
{
    char word[128];
    while (*words) {
        size_t n = strcspn(words, " \t\n");
        if (n && n < sizeof word) {
            memcpy(word, words, n);
            word[n] = '\0';
            if (vd_add_technique(v, word))
                return -1;
        }
        words += n;
        words += strspn(words, " \t\n");
    }
    return 0;
}

/* ---- the trace ---- */

void vd_start_trace(verdict_t *v, run_role role)
{
    v->has_trace = 1;
    v->role = role;
}

static int copy_extra(vd_step *s, const char *const *extra, size_t nextra)
{
    if (!nextra)
        return 0;
    if (!(s->extra = calloc(nextra, sizeof *s->extra)))
        return -1;
    for (size_t i = 0; i < nextra; i++, s->nextra++)
        if (set_string(&s->extra[i].key, extra[2 * i]) ||
            set_string(&s->extra[i].value, extra[2 * i + 1] ? extra[2 * i + 1] : "")) {
            s->nextra++;   /* so that free_step frees the half-made pair */
            return -1;
        }
    return 0;
}

int vd_add_step(verdict_t *v, const char *transition, const char *name,
                const char *const *extra, size_t nextra)
{
    if (GROW(v->steps, v->cap_steps, v->nsteps + 1))
        return -1;
    vd_step *s = &v->steps[v->nsteps];
    memset(s, 0, sizeof *s);
    if (set_string(&s->transition, transition ? transition : "") ||
        set_string(&s->name, name) || copy_extra(s, extra, nextra)) {
        free_step(s);
        return -1;
    }
    v->has_trace = 1;
    v->nsteps++;
    return 0;
}

void vd_set_loop_start(verdict_t *v, size_t index)
{
    v->loop_start = index;
}
