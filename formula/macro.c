/* #define directives (formula-syntax.md §8).  A body is parsed on its
 * own, as one complete formula, when its line is read; a use inserts a
 * copy of the tree.  Since a body only sees earlier macros, recursion is
 * impossible. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "base/grow.h"
#include "fyint.h"

int fy_macro_find(const fy_macros *m, const char *name)
{
    for (size_t i = 0; i < m->n; i++)
        if (strcmp(m->v[i].name, name) == 0)
            return (int)i;
    return -1;
}

void fy_macros_free(fy_macros *m)
{
    for (size_t i = 0; i < m->n; i++) {
        free(m->v[i].name);
        fy_node_free(&m->v[i].node);
    }
    free(m->v);
    m->v = NULL;
    m->n = m->cap = 0;
}

static int add_macro(fy_macros *m, char *name, fy_node node)
{
    if (GROW(m->v, m->cap, m->n + 1) < 0)
        return -1;
    m->v[m->n].name = name;
    m->v[m->n].node = node;
    m->n++;
    return 0;
}

static size_t ident_len(const char *s)
{
    size_t n = 0;
    if (isalpha((unsigned char)s[0]) || s[0] == '_')
        while (isalnum((unsigned char)s[n]) || s[n] == '_')
            n++;
    return n;
}

/* Parses the body (text up to the end of the line) as its own formula. */
static int define(fy_state *st, char *name, const char *body, long line, long col)
{
    fy_state sub;
    memset(&sub, 0, sizeof sub);
    sub.file = st->file;
    sub.net = st->net;
    sub.lang_data = st->lang_data;
    sub.resolve = st->resolve;
    sub.macros = st->macros;
    sub.in_macro = 1;
    sub.macro_name = name;
    if (fy_parse_text(&sub, body, strlen(body), line, col) < 0)
        return -1;
    if (add_macro(st->macros, name, sub.result) < 0) {
        fy_node_free(&sub.result);
        fy_error(st, line, col, "out of memory");
        return -1;
    }
    return 0;
}

int fy_directive(fy_state *st, const char *text, long line, long col)
{
    /* text starts with '#' */
    size_t wlen = strspn(text + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_");
    if (wlen == 4 && strncmp(text + 1, "fair", 4) == 0 && (!text[5] || strchr(" \t\r", text[5])))
        return 0;   /* an assumption about the runs, read by fairline.c */
    if (wlen != 6 || strncmp(text + 1, "define", 6) != 0 ||
        (text[7] && !strchr(" \t\r", text[7]))) {
        fy_error(st, line, col, "unknown directive #%.*s", (int)wlen, text + 1);
        return -1;
    }
    size_t at = 7 + strspn(text + 7, " \t\r");
    size_t nlen = ident_len(text + at);
    if (nlen == 0) {
        fy_error(st, line, col + (long)at, "macro name expected after #define");
        return -1;
    }
    char *name = strndup(text + at, nlen);
    if (!name) {
        fy_error(st, line, col, "out of memory");
        return -1;
    }
    int keyword = fy_is_keyword(name);
    if (keyword || fy_macro_find(st->macros, name) >= 0) {
        if (keyword)
            fy_error(st, line, col + (long)at, "%s is a keyword", name);
        else
            fy_error(st, line, col + (long)at, "macro %s already defined", name);
        free(name);
        return -1;
    }
    at += nlen;
    if (define(st, name, text + at, line, col + (long)at) < 0) {
        free(name);
        st->failed = 1;
        return -1;
    }
    return 0;
}
