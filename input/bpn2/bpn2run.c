/* B(PN)² as a language row: reading (parse, then the net of §3), atomic
 * propositions (§4: "x = v", "at L", or any place name) and runs printed
 * as the program's executed actions with the values they changed (§4),
 * never as net transitions. */
#include "input/bpn2/bpn2.h"
#include "input/input.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

net_t *bpn2_read(const char *path)
{
    bp_program *g = bp_parse_file(path);
    if (!g)
        return NULL;
    net_t *net = bp_build_net(g);
    if (!net)
        return NULL;
    size_t inits = 0;
    for (size_t i = 0; i < g->ntrans; i++)
        inits += g->trans[i].kind == BT_INIT;
    nc_info("%s: %zu places (%zu for values, %zu control), %zu transitions for actions, "
            "%zu for initial values, %zu for termination\n", path, net->nplaces,
            g->nplaces_program, g->ncontrol, g->naction_transitions, inits,
            g->ntrans - g->naction_transitions - inits);
    return net;
}

/* ------------------------------------------------------------------ */
/* values in a marking */

/* The value of variable d, or 0 with *known 0 before its initialisation. */
static int64_t value_of(const bp_decl *d, const nc_count *m, int *known)
{
    *known = 1;
    for (int64_t v = d->lo; v <= d->hi; v++)
        if (m[d->first_place + (uint32_t)((uint64_t)v - (uint64_t)d->lo)])
            return v;
    *known = 0;
    return 0;
}

/* "[1, 0]": the channel's contents, front first. */
static void channel_text(const bp_decl *d, const nc_count *m, char *buf, size_t len)
{
    size_t n = 0;
    uint32_t stride = (uint32_t)((uint64_t)d->hi - (uint64_t)d->lo + 2);
    n += (size_t)snprintf(buf, len, "[");
    for (uint32_t s = 0; s < d->capacity && n < len; s++) {
        uint32_t first = d->first_place + s * stride;
        if (m[first])
            break;
        for (int64_t v = d->lo; v <= d->hi; v++)
            if (m[first + 1 + (uint32_t)((uint64_t)v - (uint64_t)d->lo)])
                n += (size_t)snprintf(buf + n, len - n, "%s%" PRId64, s ? ", " : "", v);
    }
    if (n < len)
        snprintf(buf + n, len - n, "]");
}

static void decl_text(const bp_decl *d, const nc_count *m, char *buf, size_t len)
{
    if (d->is_chan) {
        channel_text(d, m, buf, len);
        return;
    }
    int known;
    int64_t v = value_of(d, m, &known);
    if (known)
        snprintf(buf, len, "%" PRId64, v);
    else
        snprintf(buf, len, "?");
}

static void print_state(const run_words *w, const nc_count *m, const char *what)
{
    const bp_program *g = w->lang;
    fprintf(w->out, "*** %s:", what);
    const char *sep = " ";
    char buf[256];
    for (size_t i = 0; i < g->ndecls; i++) {
        const bp_decl *d = &g->decls[i];
        if (d->is_chan && d->capacity == 0)
            continue;   /* a handshake holds nothing */
        decl_text(d, m, buf, sizeof buf);
        fprintf(w->out, "%s%s = %s", sep, d->display, buf);
        sep = ", ";
    }
    fputs(*sep == ' ' ? " (no variables) ***\n" : " ***\n", w->out);
}

static void print_changes(FILE *out, const bp_program *g, const nc_count *before,
                          const nc_count *after)
{
    char a[256], b[256];
    const char *sep = "  ";
    for (size_t i = 0; i < g->ndecls; i++) {
        const bp_decl *d = &g->decls[i];
        if (d->is_chan && d->capacity == 0)
            continue;
        decl_text(d, before, a, sizeof a);
        decl_text(d, after, b, sizeof b);
        if (strcmp(a, b)) {
            fprintf(out, "%s%s: %s -> %s", sep, d->display, a, b);
            sep = ", ";
        }
    }
}

static void print_action(FILE *out, const bp_action *a)
{
    fprintf(out, "[%s]  line %ld  <%s>", a->branch, a->line, a->text);
}

static int print_step(const run_words *w, size_t i, uint32_t t, const nc_count *before,
                      const nc_count *after)
{
    const bp_program *g = w->lang;
    FILE *out = w->out;
    if (t >= g->ntrans)
        return -1;
    const bp_trans *tr = &g->trans[t];
    fprintf(out, "step %zu  ", i + 1);
    switch (tr->kind) {
    case BT_INIT: {
        const bp_decl *d = &g->decls[tr->a];
        int known;
        fprintf(out, "init %s = %" PRId64 "\n", d->display, value_of(d, after, &known));
        return 0;
    }
    case BT_TERMINATE:
        fputs("terminated\n", out);
        return 0;
    case BT_SYNC:
        print_action(out, &g->actions[tr->a]);
        fputs("  ||  ", out);
        print_action(out, &g->actions[tr->b]);
        break;
    case BT_ACTION:
        print_action(out, &g->actions[tr->a]);
        break;
    }
    print_changes(out, g, before, after);
    fputc('\n', out);
    return 0;
}

/* "deadlock: no action enabled", then what every branch waits at: the
 * actions one of whose entry places is marked. */
static void print_waiting(const run_words *w, const nc_count *m)
{
    const bp_program *g = w->lang;
    fputs("deadlock: no action enabled\n", w->out);
    for (size_t i = 0; i < g->nactions; i++) {
        const bp_action *a = &g->actions[i];
        int at = 0;
        for (size_t k = 0; !at && k < a->nentry_places; k++)
            at = m[a->entry_places[k]] != 0;
        if (at) {
            fputs("  waiting: ", w->out);
            print_action(w->out, a);
            fputc('\n', w->out);
        }
    }
}

void bpn2_output(FILE *out, net_t *net, const result_t *res)
{
    if (!net->lang_data)
        return;
    const run_words w = { out, net->lang_data, print_state, print_step, print_waiting };
    print_run_words(net, res, &w);
}

/* ------------------------------------------------------------------ */
/* atomic propositions */

static tree_t *marked(uint32_t p)
{
    lin_term term = {p, 1};
    return tree_cmp(&term, 1, -1, REL_GE);
}

/* "at L": some action of line L has all its entry places marked.  Both
 * chains are balanced (tree_chain): a line may hold any number of actions. */
static tree_t *at_line(const bp_program *g, long line, char *msg, size_t msglen)
{
    tree_chain any;
    tree_chain_start(&any, T_OR);
    int found = 0, ok = 1;
    for (size_t i = 0; ok && i < g->nactions; i++) {
        const bp_action *a = &g->actions[i];
        if (a->line != line)
            continue;
        found = 1;
        tree_chain all;
        tree_chain_start(&all, T_AND);
        for (size_t k = 0; ok && k < a->nentry_places; k++)
            ok = tree_chain_add(&all, marked(a->entry_places[k])) == 0;
        /* no entry place: an action after one that never ends */
        tree_t *entered = a->nentry_places ? tree_chain_end(&all) : tree_const(0);
        ok = ok && tree_chain_add(&any, entered) == 0;
    }
    tree_t *t = found && ok ? tree_chain_end(&any) : NULL;
    if (!found)
        snprintf(msg, msglen, "no action at line %ld", line);
    else if (!t) {
        tree_chain_discard(&any);
        snprintf(msg, msglen, "out of memory");
    }
    return t;
}

tree_t *bpn2_resolve(net_t *net, void *lang_data, ap_pos pos, const char *text, char *msg,
                     size_t msglen)
{
    const bp_program *g = net->lang_data;
    (void)lang_data;
    if (pos != AP_FIREABLE && !strncmp(text, "at ", 3)) {
        char *end;
        long line = strtol(text + 3, &end, 10);
        if (end == text + 3 || *end || line <= 0) {
            snprintf(msg, msglen, "\"at L\" takes a line number, not \"%s\"", text + 3);
            return NULL;
        }
        if (pos != AP_BOOL) {
            snprintf(msg, msglen, "\"%s\" is a condition, not a number", text);
            return NULL;
        }
        return at_line(g, line, msg, msglen);
    }
    /* "x = 3" is the place x=3 */
    char *compact = malloc(strlen(text) + 1), *w = compact;
    if (!compact) {
        snprintf(msg, msglen, "out of memory");
        return NULL;
    }
    for (const char *s = text; *s; s++)
        if (*s != ' ' && *s != '\t')
            *w++ = *s;
    *w = '\0';
    tree_t *t = netlang_resolve(net, NULL, pos, compact, msg, msglen);
    free(compact);
    return t;
}

tree_t *bpn2_formula(const char *path, net_t *net, prop_kind *kind)
{
    return formula_parse_file(path, net, NULL, bpn2_resolve, kind);
}
