/* Runs of a CFA model in its own terms (cfa-format.md §7): global states
 * as control states and values, steps as "AUT: SRC [ changes ] DST";
 * and the same step as attributes of a verdict trace. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cfa.h"
#include "input/input.h"

static void print_buffer(FILE *out, const cfa_state *s, size_t d)
{
    fputc('(', out);
    for (uint32_t i = 0; i < s->len[d]; i++)
        fprintf(out, i ? ",%lld" : "%lld", (long long)s->slots[s->slot_start[d] + i]);
    fputc(')', out);
}

static void print_value(FILE *out, const cfa_model *m, const cfa_state *s, size_t d)
{
    fprintf(out, "%s=", m->decls[d].name);
    if (m->decls[d].kind == CFA_VAR)
        fprintf(out, "%lld", (long long)s->value[d]);
    else
        print_buffer(out, s, d);
}

static void print_cfa_state(FILE *out, const cfa_model *m, const cfa_state *s, const char *what)
{
    fprintf(out, "*** %s: ", what);
    for (size_t a = 0; a < m->nauts; a++) {
        const cfa_automaton *aut = &m->auts[a];
        fprintf(out, "%s%s.%s", a ? ", " : "", aut->name,
                s->control[a] >= 0 ? aut->states[s->control[a]] : "?");
    }
    for (size_t d = 0; d < m->ndecls; d++) {
        fputs(", ", out);
        print_value(out, m, s, d);
    }
    fputs(" ***\n", out);
}

/* "x=PRE --> x=POST, c=(..) --> c=(..)": everything the CFA transition
 * touches, in declaration order, also when unchanged. */
static int print_changes(FILE *out, const cfa_model *m, uint32_t t, const cfa_state *before,
                         const cfa_state *after)
{
    const cfa_trans *tr = &m->auts[m->net_aut[t]].trans[m->net_trans[t]];
    int first = 1;
    for (uint32_t u = 0; u < tr->nuses; u++) {
        uint32_t d = tr->uses[u].decl;
        fputs(first ? "" : ", ", out);
        first = 0;
        print_value(out, m, before, d);
        fputs(" --> ", out);
        print_value(out, m, after, d);
    }
    return !first;
}

static void print_step(FILE *out, const cfa_model *m, uint32_t t, const cfa_state *before,
                       const cfa_state *after)
{
    const cfa_automaton *aut = &m->auts[m->net_aut[t]];
    const cfa_trans *tr = &aut->trans[m->net_trans[t]];
    fprintf(out, "%s: %s [ ", aut->name, aut->states[tr->src]);
    int touched = print_changes(out, m, t, before, after);
    fprintf(out, "%s] %s\n", touched ? " " : "", aut->states[tr->dst]);
}

/* Scratch space for a step: the global states around it. */
typedef struct run_states {
    const cfa_model *m;
    cfa_state before, after;
} run_states;

static void run_states_free(run_states *r)
{
    cfa_state_free(&r->before);
    cfa_state_free(&r->after);
}

static int run_states_init(run_states *r, const cfa_model *m)
{
    memset(r, 0, sizeof *r);
    r->m = m;
    if (cfa_state_init(m, &r->before) < 0 || cfa_state_init(m, &r->after) < 0) {
        run_states_free(r);
        return -1;
    }
    return 0;
}

static void print_state(const run_words *w, const nc_count *marking, const char *what)
{
    run_states *r = w->lang;
    cfa_state_decode(r->m, marking, &r->after);
    print_cfa_state(w->out, r->m, &r->after, what);
}

static int print_run_step(const run_words *w, size_t i, uint32_t t, const nc_count *before,
                          const nc_count *after)
{
    run_states *r = w->lang;
    (void)i;
    if (t >= r->m->nnet)
        return -1;
    cfa_state_decode(r->m, before, &r->before);
    cfa_state_decode(r->m, after, &r->after);
    print_step(w->out, r->m, t, &r->before, &r->after);
    return 0;
}

void cfa_output(FILE *out, net_t *net, const result_t *res)
{
    run_states r;
    if (!net->lang_data || run_states_init(&r, net->lang_data) < 0)
        return;
    const run_words w = { out, &r, print_state, print_run_step, NULL };
    print_run_words(net, res, &w);
    run_states_free(&r);
}

/* The step as automaton, source, target and changes: the same words as
 * the printed run, so that a trace reads like the output. */
size_t cfa_step_attrs(const net_t *net, const nc_count *before, const nc_count *after,
                      uint32_t t, char *buf, size_t buflen, const char **kv, size_t max)
{
    const cfa_model *m = net->lang_data;
    if (!m || t >= m->nnet || max < 4 || buflen < 64)
        return 0;
    run_states r;
    if (run_states_init(&r, m) < 0)
        return 0;
    cfa_state_decode(m, before, &r.before);
    cfa_state_decode(m, after, &r.after);
    const cfa_automaton *aut = &m->auts[m->net_aut[t]];
    const cfa_trans *tr = &aut->trans[m->net_trans[t]];
    /* four NUL-terminated values one after the other in buf */
    size_t at = 0, n = 0;
    const char *keys[] = { "automaton", "source", "target", "changes" };
    const char *plain[] = { aut->name, aut->states[tr->src], aut->states[tr->dst] };
    for (size_t k = 0; k < 3; k++) {
        int len = snprintf(buf + at, buflen - at, "%s", plain[k]);
        if (len < 0 || (size_t)len >= buflen - at)
            goto out;
        kv[2 * n] = keys[k];
        kv[2 * n + 1] = buf + at;
        n++;
        at += (size_t)len + 1;
    }
    FILE *f = fmemopen(buf + at, buflen - at, "w");
    if (!f)
        goto out;
    print_changes(f, m, t, &r.before, &r.after);
    int ok = !ferror(f) && ftell(f) < (long)(buflen - at);
    fclose(f);   /* writes the terminating NUL */
    if (ok) {
        kv[2 * n] = keys[3];
        kv[2 * n + 1] = buf + at;
        n++;
    }
out:
    run_states_free(&r);
    return n;
}
