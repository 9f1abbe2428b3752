/* The driver of the property parser: reads the text, runs the grammar,
 * and checks the formula against the property kind (formula-syntax.md
 * §7). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fyint.h"
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
        /* bison's own failures (no memory) come without a message */
        if (!st->failed)
            fy_error(st, line, col, "out of memory");
        return -1;
    }
    return 0;
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

static tree_t *parse_opts(const char *text, size_t len, const char *name,
                          const formula_opts *opts, net_t *net, void *lang_data,
                          ap_resolver resolve, prop_kind *kind)
{
    fy_macros macros = { NULL, 0, 0 };
    fy_state st;
    memset(&st, 0, sizeof st);
    st.file = name;
    st.net = net;
    st.lang_data = lang_data;
    st.resolve = resolve;
    st.macros = &macros;
    st.bare_names = opts && opts->bare_names;
    long first_line = opts && opts->first_line > 0 ? opts->first_line : 1;
    int rc = fy_parse_text(&st, text, len, first_line, 1);
    fy_macros_free(&macros);
    if (rc < 0)
        return NULL;
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
