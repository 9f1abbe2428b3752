/* RERS properties (rers-format.md §4): numbered blocks with an optional
 * expected answer, formulas in the generic grammar with bare action names.
 * An action name becomes "the transition taken here carries this label"
 * (T_ACTION), so the LTL checker reads it off the step, not the marking. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/grow.h"
#include "input/input.h"
#include "input/rers.h"

tree_t *rers_resolve(net_t *net, void *lang_data, ap_pos pos, const char *text, char *msg,
                     size_t msglen)
{
    (void)lang_data;
    if (pos == AP_COUNT) {
        snprintf(msg, msglen, "\"%s\": an action has no number", text);
        return NULL;
    }
    const rers_model *m = rers_model_of(net);
    int64_t l = m ? rers_find_label(m, text) : -1;
    if (l < 0) {
        snprintf(msg, msglen, "unknown action \"%s\" (not a label of the system)", text);
        return NULL;
    }
    /* a label's transitions are consecutive (rers.h) */
    uint32_t n = m->label_count[l];
    uint32_t *v = malloc((n ? n : 1) * sizeof *v);
    if (!v) {
        snprintf(msg, msglen, "out of memory");
        return NULL;
    }
    for (uint32_t i = 0; i < n; i++)
        v[i] = m->label_first[l] + i;
    tree_t *t = pos == AP_FIREABLE ? tree_fireable(v, n) : tree_action(v, n);
    free(v);
    if (!t)
        snprintf(msg, msglen, "out of memory");
    return t;
}

tree_t *rers_formula(const char *path, net_t *net, prop_kind *kind)
{
    formula_opts opts = { 1, 1 };
    return formula_parse_file_opts(path, &opts, net, net->lang_data, rers_resolve, kind);
}

/* ---- property lists ---- */

static const char *skip_blanks(const char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '\r')
        s++;
    return s;
}

/* "#N:" at the start of a line (blanks allowed before); the rest after the
 * colon in *rest. */
static int header(const char *line, long *number, const char **rest)
{
    const char *s = skip_blanks(line);
    if (*s != '#' || !isdigit((unsigned char)s[1]))
        return 0;
    errno = 0;
    char *end;
    long n = strtol(s + 1, &end, 10);
    if (errno || *end != ':')
        return 0;
    *number = n;
    *rest = end + 1;
    return 1;
}

/* The answer word after the colon: 1 true, 0 false, -1 none. */
static int answer_word(const char *rest, int *expected)
{
    const char *s = skip_blanks(rest);
    size_t n = 0;
    while (isalpha((unsigned char)s[n]))
        n++;
    *expected = -1;
    if (n == 0)
        return *skip_blanks(s) == 0 || *skip_blanks(s) == '\n' || !strncmp(s, "//", 2) ? 0 : -1;
    if (n == 4 && !strncasecmp(s, "true", 4))
        *expected = 1;
    else if (n == 5 && !strncasecmp(s, "false", 5))
        *expected = 0;
    else
        return -1;
    return 0;   /* anything after the word is a comment */
}

static int is_comment_or_blank(const char *line)
{
    const char *s = skip_blanks(line);
    return *s == 0 || *s == '\n' || !strncmp(s, "//", 2);
}

void prop_list_free(prop_entry *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(v[i].name);
        tree_free(v[i].formula);
    }
    free(v);
}

typedef struct block {
    long number, header_line, first_line;
    int expected;
    char *text;
    size_t len, cap;
} block;

static int block_add_line(block *b, const char *line, size_t len)
{
    if (GROW(b->text, b->cap, b->len + len + 1) < 0)
        return -1;
    memcpy(b->text + b->len, line, len);
    b->len += len;
    b->text[b->len] = 0;
    return 0;
}

/* Parses the block's formula and appends it; -1 after an error. */
static int finish_block(const char *path, net_t *net, block *b, prop_entry **v, size_t *n,
                        size_t *cap)
{
    int empty = 1;
    for (const char *s = b->text ? b->text : ""; *s; ) {
        const char *nl = strchr(s, '\n');
        size_t len = nl ? (size_t)(nl - s) : strlen(s);
        char line[64];
        snprintf(line, sizeof line, "%.*s", (int)(len < 60 ? len : 60), s);
        if (!is_comment_or_blank(line))
            empty = 0;
        s += len + (nl ? 1 : 0);
    }
    if (empty) {
        nc_error(path, b->header_line, "property #%ld has no formula", b->number);
        return -1;
    }
    for (size_t i = 0; i < *n; i++)
        if ((*v)[i].number == b->number) {
            nc_error(path, b->header_line, "property #%ld appears twice (first at line %ld)",
                     b->number, (*v)[i].line);
            return -1;
        }
    prop_kind kind = KIND_LTL;
    formula_opts opts = { 1, b->first_line };
    tree_t *t = formula_parse_text(b->text, path, &opts, net, net->lang_data, rers_resolve, &kind);
    if (!t)
        return -1;
    if (GROW(*v, *cap, *n + 1) < 0) {
        tree_free(t);
        nc_error(path, 0, "out of memory");
        return -1;
    }
    prop_entry *e = &(*v)[(*n)++];
    memset(e, 0, sizeof *e);
    e->formula = t;
    e->kind = kind;
    e->number = b->number;
    e->line = b->header_line;
    e->expected = b->expected;
    char name[32];
    snprintf(name, sizeof name, "#%ld", b->number);
    if (!(e->name = strdup(name))) {
        nc_error(path, 0, "out of memory");
        return -1;
    }
    return 0;
}

int rers_properties(const char *path, net_t *net, prop_entry **out, size_t *nout)
{
    *out = NULL;
    *nout = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        nc_error(path, 0, "cannot open: %s", strerror(errno));
        return -1;
    }
    char *line = NULL;
    size_t linecap = 0, cap = 0;
    ssize_t len;
    long lineno = 0;
    block b = { 0 };
    int in_block = 0, rc = 0, saw_text = 0;
    prop_entry *v = NULL;
    size_t n = 0;
    while ((len = getline(&line, &linecap, f)) >= 0) {
        lineno++;
        if (memchr(line, 0, (size_t)len)) {
            nc_error(path, lineno, "a NUL byte in a property file");
            rc = -1;
            break;
        }
        long number;
        const char *rest;
        if (header(line, &number, &rest)) {
            if (in_block && finish_block(path, net, &b, &v, &n, &cap) < 0) {
                rc = -1;
                break;
            }
            free(b.text);
            memset(&b, 0, sizeof b);
            in_block = 1;
            b.number = number;
            b.header_line = lineno;
            b.first_line = lineno + 1;
            if (answer_word(rest, &b.expected) < 0) {
                nc_error(path, lineno, "after '#%ld:' only 'true' or 'false' (and a comment) "
                         "may follow", number);
                rc = -1;
                break;
            }
            continue;
        }
        if (!in_block) {
            if (!is_comment_or_blank(line))
                saw_text = 1;
            continue;
        }
        if (!b.len && is_comment_or_blank(line)) {
            b.first_line = lineno + 1;   /* the formula starts later */
            continue;
        }
        if (block_add_line(&b, line, (size_t)len) < 0) {
            nc_error(path, lineno, "out of memory");
            rc = -1;
            break;
        }
    }
    if (rc == 0 && in_block && finish_block(path, net, &b, &v, &n, &cap) < 0)
        rc = -1;
    free(b.text);
    free(line);
    fclose(f);
    if (rc < 0) {
        prop_list_free(v, n);
        return -1;
    }
    /* A file without "#N:" headers is a single formula (saw_text): the
     * caller then reads it with the formula function. */
    (void)saw_text;
    *out = v;
    *nout = n;
    return 0;
}
