/* The #fair line of a property file (formula-syntax.md §4): read here,
 * before the parser, because the parser's result is one tree and fairness
 * is an assumption about the model's runs, not part of the formula.  The
 * parser skips the line (macro.c); this scanner finds the same lines it
 * does: a '#' first on a line that does not start inside a comment. */
#include "formula/formula.h"
#include "base/readfile.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Moves past the rest of a line of formula text (not a directive):
 * strings, line comments, and the opening and closing of block comments. */
static const char *skip_line(const char *s, const char *end, int *in_comment)
{
    while (s < end && *s != '\n') {
        if (*in_comment) {
            if (s[0] == '*' && s + 1 < end && s[1] == '/') {
                *in_comment = 0;
                s += 2;
            } else {
                s++;
            }
        } else if (*s == '"' || *s == '\'') {
            char q = *s++;
            while (s < end && *s != q && *s != '\n')
                s++;
            if (s < end && *s == q)
                s++;
        } else if (*s == '%' || (s[0] == '/' && s + 1 < end && s[1] == '/')) {
            while (s < end && *s != '\n')
                s++;
        } else if (s[0] == '/' && s + 1 < end && s[1] == '*') {
            *in_comment = 1;
            s += 2;
        } else {
            s++;
        }
    }
    return s;
}

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

/* One "#fair MODE [NAMES]" line, from after "#fair". */
static int fair_line(const char *path, long line, long col, const char *s, const char *end,
                     formula_fairness *out)
{
    const char *w = s;
    while (w < end && is_blank(*w))
        w++;
    const char *we = w;
    while (we < end && !is_blank(*we) && *we != '\n')
        we++;
    size_t n = (size_t)(we - w);
    if (n == 4 && !memcmp(w, "weak", 4))
        out->mode = FAIRNESS_WEAK;
    else if (n == 6 && !memcmp(w, "strong", 6))
        out->mode = FAIRNESS_STRONG;
    else {
        fprintf(stderr, "%s:%ld:%ld: #fair takes 'weak' or 'strong', then optionally "
                "transition names\n", path, line, col + (long)(w - s) + 5);
        return -1;
    }
    while (we < end && is_blank(*we))
        we++;
    const char *le = we;
    while (le < end && *le != '\n')
        le++;
    while (le > we && is_blank(le[-1]))
        le--;
    free(out->names);
    out->names = le > we ? strndup(we, (size_t)(le - we)) : NULL;
    out->line = line;
    if (le > we && !out->names) {
        fprintf(stderr, "%s:%ld: out of memory\n", path, line);
        return -1;
    }
    return 0;
}

int formula_read_fairness(const char *path, formula_fairness *out)
{
    memset(out, 0, sizeof *out);
    size_t len;
    char *text = read_file(path, SIZE_MAX / 2, &len);
    if (!text)
        return -1;   /* read_file said why */
    const char *s = text, *end = text + len;
    int in_comment = 0, seen = 0;
    for (long line = 1; s < end; line++) {
        const char *b = s;
        if (!in_comment) {
            while (b < end && is_blank(*b))
                b++;
            if (b < end && *b == '#') {
                size_t rest = (size_t)(end - b);
                if (rest >= 5 && !memcmp(b, "#fair", 5) && (rest == 5 || is_blank(b[5]) ||
                                                             b[5] == '\n')) {
                    long col = (long)(b - s) + 1;
                    if (seen++) {
                        fprintf(stderr, "%s:%ld:%ld: a second #fair line (one per file)\n",
                                path, line, col);
                        goto fail;
                    }
                    if (fair_line(path, line, col, b + 5, end, out) < 0)
                        goto fail;
                }
                while (b < end && *b != '\n')
                    b++;
                s = b < end ? b + 1 : b;
                continue;
            }
        }
        s = skip_line(s, end, &in_comment);
        if (s < end)
            s++;
    }
    free(text);
    return 0;
fail:
    free(text);
    free(out->names);
    out->names = NULL;
    return -1;
}
