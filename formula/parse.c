/* The driver of the property parser: reads the text, runs the grammar,
 * and checks the formula against the property kind (formula-syntax.md
 * §7). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fyint.h"
#include "base/grow.h"
#include "base/readfile.h"
#include "formula.tab.h"

void fy_error(fy_state *st, long line, long col, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* the first error is the one that explains; later ones are echoes */
    if (!st->failed)
        nc_error_col(st->file, line, col, "%s", msg);
    st->failed = 1;
}

int fy_parse_text(fy_state *st, const char *text, size_t len, long line, long col)
{
    yyscan_t scanner;
    if (fy_scanner_open(st, text, len, &scanner) < 0)
        return -1;
    st->line = line;
    st->col = col;
    int rc = fyparse(scanner, st);
    fy_scanner_close(scanner);
    if (rc != 0 || st->failed) {
        if (st->have_result)
            fy_node_free(&st->result);
        st->have_result = 0;
        fy_named_free(st);
        /* bison's own failures (no memory) come without a message */
        if (!st->failed)
            fy_error(st, line, col, "out of memory");
        return -1;
    }
    return 0;
}

/* ---- named formulas ---- */

void fy_named_free(fy_state *st)
{
    for (size_t i = 0; i < st->nnamed; i++) {
        free(st->named[i].name);
        fy_node_free(&st->named[i].node);
    }
    free(st->named);
    st->named = NULL;
    st->nnamed = st->cap_named = 0;
    st->named_size = 0;
}

int fy_add_named(fy_state *st, fy_name *name, fy_node *node, long line, long col,
                 long fline, long fcol)
{
    int twice = 0;
    for (size_t i = 0; i < st->nnamed; i++)
        twice |= !strcmp(st->named[i].name, name->name);
    fy_node none = { 0 };
    if (st->in_macro)
        fy_error(st, line, col, "a macro is one formula, without a name");
    else if (twice)
        fy_error(st, line, col, "formula %s named twice", name->name);
    else if (node && name->kind == KIND_DL)
        fy_error(st, fline, fcol, "dl takes no formula");
    else if (!node && name->kind != KIND_DL)
        fy_error(st, line, col, "a formula expected after '%s:'", name->name);
    /* each formula is below the limit; a macro used in many of them must
     * not multiply it */
    else if (node && st->named_size + node->size > FY_MAX_NODES)
        fy_error(st, line, col, "formulas too large (over %u operators and atoms in all)",
                 FY_MAX_NODES);
    else if (GROW(st->named, st->cap_named, st->nnamed + 1) < 0)
        fy_error(st, line, col, "out of memory");
    else {
        st->named_size += node ? node->size : 1;
        st->named[st->nnamed++] = (fy_named){ name->name, name->kind, line, col,
                                              node ? *node : none };
        return 0;
    }
    free(name->name);
    if (node)
        fy_node_free(node);
    return -1;
}

/* ---- kinds ---- */

static int kind_error(fy_state *st, const fy_occ *o, const char *fmt, const char *name)
{
    fy_error(st, o->line, o->col, fmt, name);
    return -1;
}

static int check_kind(fy_state *st, const fy_node *n, prop_kind *kind)
{
    const fy_occ *ctl = &n->ctl, *ltl = &n->ltl;
    switch (*kind) {
    case KIND_DL:
        fy_error(st, st->start_line, st->start_col, "dl takes no formula");
        return -1;
    case KIND_REACH: {
        const fy_occ *o = !ctl->line ? ltl : !ltl->line ? ctl
                        : (ltl->line < ctl->line || (ltl->line == ctl->line && ltl->col < ctl->col)) ? ltl : ctl;
        if (o->line)
            return kind_error(st, o, "temporal operator %s not allowed in a reachability formula",
                              o->name);
        return 0;
    }
    case KIND_CTL:
        if (ltl->line)
            return kind_error(st, ltl, "%s needs a path quantifier in CTL", ltl->name);
        return 0;
    case KIND_LTL:
        if (ctl->line) {
            /* the quantifier is the first letter of every CTL name */
            char q[2] = { ctl->name[0], 0 };
            return kind_error(st, ctl, "path quantifier %s not allowed in LTL", q);
        }
        return 0;
    default:
        if (ctl->line && ltl->line) {
            /* the second class to appear is the one that mixes */
            const fy_occ *o = (ltl->line > ctl->line || (ltl->line == ctl->line && ltl->col > ctl->col))
                              ? ltl : ctl;
            fy_error(st, o->line, o->col, "formula mixes CTL and LTL operators");
            return -1;
        }
        *kind = ctl->line ? KIND_CTL : ltl->line ? KIND_LTL : KIND_REACH;
        return 0;
    }
}

/* A parse of text read from file `name` with the caller's options: the
 * parser's state set up, then the whole text parsed.  The caller frees
 * the macros and reads the result or the named formulas from st. */
static int parse_with(fy_state *st, fy_macros *macros, const char *text, size_t len,
                      const char *name, const formula_opts *opts, net_t *net, void *lang_data,
                      ap_resolver resolve)
{
    memset(st, 0, sizeof *st);
    st->file = name;
    st->net = net;
    st->lang_data = lang_data;
    st->resolve = resolve;
    st->macros = macros;
    st->bare_names = opts && opts->bare_names;
    long first_line = opts && opts->first_line > 0 ? opts->first_line : 1;
    return fy_parse_text(st, text, len, first_line, 1);
}

static tree_t *parse_opts(const char *text, size_t len, const char *name,
                          const formula_opts *opts, net_t *net, void *lang_data,
                          ap_resolver resolve, prop_kind *kind)
{
    fy_macros macros = { NULL, 0, 0 };
    fy_state st;
    int rc = parse_with(&st, &macros, text, len, name, opts, net, lang_data, resolve);
    fy_macros_free(&macros);
    if (rc < 0)
        return NULL;
    if (!st.have_result) {
        /* a language whose property files hold one formula (a plugin's) */
        fy_error(&st, st.named[0].line, st.named[0].col,
                 "named formulas where one formula is expected");
        fy_named_free(&st);
        return NULL;
    }
    prop_kind k = kind ? *kind : KIND_AUTO;
    if (check_kind(&st, &st.result, &k) < 0) {
        fy_node_free(&st.result);
        return NULL;
    }
    if (kind)
        *kind = k;
    return st.result.t;
}

static tree_t *parse(const char *text, size_t len, const char *name, net_t *net,
                     void *lang_data, ap_resolver resolve, prop_kind *kind)
{
    return parse_opts(text, len, name, NULL, net, lang_data, resolve, kind);
}

tree_t *formula_parse_text(const char *text, const char *name, const formula_opts *opts,
                           net_t *net, void *lang_data, ap_resolver resolve, prop_kind *kind)
{
    return parse_opts(text, strlen(text), name, opts, net, lang_data, resolve, kind);
}

tree_t *formula_parse_string(const char *text, const char *name, net_t *net,
                             void *lang_data, ap_resolver resolve, prop_kind *kind)
{
    return parse(text, strlen(text), name, net, lang_data, resolve, kind);
}

tree_t *formula_parse_file(const char *path, net_t *net, void *lang_data,
                           ap_resolver resolve, prop_kind *kind)
{
    return formula_parse_file_opts(path, NULL, net, lang_data, resolve, kind);
}

/* The whole file: the lexer scans bytes, NULs included. */
tree_t *formula_parse_file_opts(const char *path, const formula_opts *opts, net_t *net,
                                void *lang_data, ap_resolver resolve, prop_kind *kind)
{
    size_t len;
    char *text = read_file(path, SIZE_MAX / 2, &len);
    if (!text)
        return NULL;
    tree_t *t = parse_opts(text, len, path, opts, net, lang_data, resolve, kind);
    free(text);
    return t;
}

/* ---- files of several named formulas ---- */

void named_formulas_free(named_formula *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(v[i].name);
        tree_free(v[i].formula);
    }
    free(v);
}

/* Moves the parsed list out, each formula checked against its kind. */
static int take_named(fy_state *st, prop_kind kind, named_formula **out, size_t *n)
{
    named_formula *v = calloc(st->nnamed, sizeof *v);
    if (!v) {
        fy_error(st, 0, 0, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < st->nnamed; i++) {
        /* a kind written with the name wins over the one asked for */
        prop_kind k = st->named[i].kind != KIND_AUTO ? st->named[i].kind : kind;
        if (k != KIND_DL && check_kind(st, &st->named[i].node, &k) < 0) {
            named_formulas_free(v, i);
            return -1;
        }
        v[i] = (named_formula){ st->named[i].name, st->named[i].line, st->named[i].node.t, k };
        st->named[i].name = NULL;
        st->named[i].node.t = NULL;
    }
    *out = v;
    *n = st->nnamed;
    return 0;
}

int formula_parse_named_file(const char *path, const formula_opts *opts, net_t *net,
                             void *lang_data, ap_resolver resolve, prop_kind kind,
                             named_formula **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    size_t len;
    char *text = read_file(path, SIZE_MAX / 2, &len);
    if (!text)
        return -1;
    fy_macros macros = { NULL, 0, 0 };
    fy_state st;
    int rc = parse_with(&st, &macros, text, len, path, opts, net, lang_data, resolve);
    free(text);
    fy_macros_free(&macros);
    if (rc < 0)
        return -1;
    if (st.have_result) {
        /* one formula without a name: the language's formula function
         * reads it, as it always has */
        fy_node_free(&st.result);
        return 0;
    }
    rc = take_named(&st, kind, out, n);
    fy_named_free(&st);
    return rc;
}
