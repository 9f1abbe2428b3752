/* SENIL, the Kit's Simple Extensible Net Input Language for typing 1-safe
 * nets by hand, read exactly as kit-overview.md §5 specifies it.
 *
 * Line by line: a line is cut into tokens (names, "->", ",", the empty
 * signs "#" and ".", braces and "@"), then parsed as a @trans or @place
 * entry, which creates its nodes in reading order (§5.4: the order fixes
 * the explicit checker's witnesses) and its arcs.  @marking and
 * @partition lines may name places introduced further down, so they are
 * kept with their line numbers and resolved at the end.  Every error is
 * one of §5.5's, as "FILE:LINE: message", and stops the reading. */
#include "base/grow.h"
#include "base/readfile.h"
#include "input/input.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum { S_NONE, S_TRANS, S_PLACE, S_MARKING, S_PARTITION };

typedef enum { K_NAME, K_ARROW, K_COMMA, K_EMPTY, K_LBRACE, K_RBRACE, K_AT, K_END } tok_kind;

typedef struct tok {
    tok_kind kind;
    const char *text;   /* K_NAME: points into the line */
    size_t len;
} tok;

#define MAX_TOKENS 4096

/* A @marking or @partition line, resolved once every node is known. */
typedef struct pending {
    char *text;         /* the line, after the comment was cut */
    long line;
    int section;
} pending;

typedef struct reader {
    const char *path;
    long line;
    net_t *net;
    tok toks[MAX_TOKENS];
    size_t ntoks, pos;
    pending *later;
    size_t nlater, clater;
} reader;

static int is_name_char(int c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* Cuts line into r->toks; -1 after an error (illegal character, §5.5.8). */
static int tokenize(reader *r, const char *s)
{
    r->ntoks = r->pos = 0;
    while (*s) {
        if (*s == ' ' || *s == '\t') {
            s++;
            continue;
        }
        if (r->ntoks == MAX_TOKENS - 1) {
            nc_error(r->path, r->line, "line too long (at most %d names and symbols)",
                     MAX_TOKENS - 1);
            return -1;
        }
        tok *t = &r->toks[r->ntoks++];
        t->text = s;
        t->len = 1;
        if (is_name_char(*s)) {
            t->kind = K_NAME;
            while (is_name_char(s[t->len]))
                t->len++;
        } else if (s[0] == '-' && s[1] == '>') {
            t->kind = K_ARROW;
            t->len = 2;
        } else if (*s == ',') {
            t->kind = K_COMMA;
        } else if (*s == '#' || *s == '.') {
            t->kind = K_EMPTY;
        } else if (*s == '{') {
            t->kind = K_LBRACE;
        } else if (*s == '}') {
            t->kind = K_RBRACE;
        } else if (*s == '@') {
            t->kind = K_AT;
        } else {
            nc_error(r->path, r->line, "illegal character '%c'", *s);
            return -1;
        }
        s += t->len;
    }
    r->toks[r->ntoks].kind = K_END;
    return 0;
}

static tok_kind peek(const reader *r)
{
    return r->toks[r->pos].kind;
}

static char *name_of(const tok *t)
{
    char *s = malloc(t->len + 1);
    if (s) {
        memcpy(s, t->text, t->len);
        s[t->len] = '\0';
    }
    return s;
}

/* The node called name of the wanted kind (place or transition), created
 * when new; -1 after an error (the name is the other kind, §5.5.5). */
static int64_t node(reader *r, const tok *t, int want_place)
{
    char *name = name_of(t);
    if (!name) {
        nc_error(r->path, r->line, "out of memory");
        return -1;
    }
    int64_t p = nc_find_place(r->net, name), tr = nc_find_transition(r->net, name);
    int64_t k = want_place ? p : tr;
    if ((want_place ? tr : p) >= 0) {
        nc_error(r->path, r->line, "'%s' is used as a %s and as a %s", name,
                 want_place ? "transition" : "place", want_place ? "place" : "transition");
        k = -1;
    } else if (k < 0) {
        k = want_place ? nc_create_place(r->net, name, NULL, 0)
                       : nc_create_transition(r->net, name, NULL);
        if (k < 0)
            nc_error(r->path, r->line, "%s", nc_status_text((int)k));
    }
    free(name);
    return k;
}

/* A comma-separated list of names as nodes of one kind, into out[]. */
static long name_list(reader *r, int places, int64_t *out, size_t cap)
{
    size_t n = 0;
    for (;;) {
        if (peek(r) != K_NAME) {
            nc_error(r->path, r->line, "a name is missing in the list");
            return -1;
        }
        if (n == cap) {
            nc_error(r->path, r->line, "list too long (at most %zu names)", cap);
            return -1;
        }
        if ((out[n++] = node(r, &r->toks[r->pos++], places)) < 0)
            return -1;
        if (peek(r) != K_COMMA)
            return (long)n;
        r->pos++;
    }
}

/* left = name_list "->" | empty [ "->" ] */
static long left_side(reader *r, int places, int64_t *out, size_t cap)
{
    if (peek(r) == K_EMPTY) {
        r->pos++;
        if (peek(r) == K_ARROW)
            r->pos++;
        return 0;
    }
    long n = name_list(r, places, out, cap);
    if (n >= 0 && peek(r) != K_ARROW) {
        nc_error(r->path, r->line, "'->' expected after the list");
        return -1;
    }
    r->pos++;
    return n;
}

/* right = "->" name_list | [ "->" ] empty, then the end of the line */
static long right_side(reader *r, int places, int64_t *out, size_t cap)
{
    long n = 0;
    if (peek(r) == K_ARROW) {
        r->pos++;
        if (peek(r) == K_EMPTY)
            r->pos++;
        else
            n = name_list(r, places, out, cap);
    } else if (peek(r) == K_EMPTY) {
        r->pos++;
    } else {
        nc_error(r->path, r->line, "'->' or an empty sign expected after the middle name");
        return -1;
    }
    if (n >= 0 && peek(r) != K_END) {
        nc_error(r->path, r->line, "unexpected text at the end of the entry");
        return -1;
    }
    return n;
}

/* {label, @label, ...}: kept as the transition's comment. */
static int labels(reader *r, uint32_t t)
{
    char buf[1024] = "";
    size_t used = 0;
    r->pos++;   /* '{' */
    for (;;) {
        if (peek(r) == K_AT)
            r->pos++;
        if (peek(r) != K_NAME) {
            nc_error(r->path, r->line, "a label is missing between the braces");
            return -1;
        }
        const tok *l = &r->toks[r->pos++];
        int w = snprintf(buf + used, sizeof buf - used, "%s%.*s", used ? ", " : "", (int)l->len,
                         l->text);
        if (w > 0 && (size_t)w < sizeof buf - used)
            used += (size_t)w;
        if (peek(r) == K_COMMA) {
            r->pos++;
            continue;
        }
        if (peek(r) != K_RBRACE) {
            nc_error(r->path, r->line, "'}' expected after the labels");
            return -1;
        }
        r->pos++;
        break;
    }
    char comment[1100];
    snprintf(comment, sizeof comment, "labels: %s", buf);
    return nc_set_comment(&r->net->transitions[t].comment, comment) == 0 ? 0 : -1;
}

static int arc(reader *r, nc_arc_kind kind, int64_t p, int64_t t)
{
    if (nc_arc_weight(r->net, kind, (uint32_t)p, (uint32_t)t))
        return 0;   /* an arc given twice is the same arc */
    int rc = nc_create_arc(r->net, kind, (uint32_t)p, (uint32_t)t, 1, 0);
    if (rc < 0)
        nc_error(r->path, r->line, "%s", nc_status_text(rc));
    return rc < 0 ? -1 : 0;
}

/* One @trans line (trans) or @place line. */
static int entry(reader *r, int trans)
{
    static int64_t in[MAX_TOKENS], out[MAX_TOKENS];
    long nin = left_side(r, trans, in, MAX_TOKENS);
    if (nin < 0)
        return -1;
    if (peek(r) != K_NAME) {
        nc_error(r->path, r->line, "the middle name is missing");
        return -1;
    }
    int64_t mid = node(r, &r->toks[r->pos++], !trans);
    if (mid < 0)
        return -1;
    if (peek(r) == K_LBRACE) {
        if (!trans) {
            nc_error(r->path, r->line, "labels are allowed on @trans lines only");
            return -1;
        }
        if (labels(r, (uint32_t)mid) < 0)
            return -1;
    }
    if (peek(r) == K_NAME) {
        nc_error(r->path, r->line, "a second name in the middle");
        return -1;
    }
    long nout = right_side(r, trans, out, MAX_TOKENS);
    if (nout < 0)
        return -1;
    for (long i = 0; i < nin; i++)
        if (trans ? arc(r, NC_ARC_PT, in[i], mid) : arc(r, NC_ARC_TP, mid, in[i]))
            return -1;
    for (long i = 0; i < nout; i++)
        if (trans ? arc(r, NC_ARC_TP, out[i], mid) : arc(r, NC_ARC_PT, mid, out[i]))
            return -1;
    return 0;
}

/* ---- @marking and @partition, at the end ---- */

static int keep_for_later(reader *r, const char *text, int section)
{
    if (GROW(r->later, r->clater, r->nlater + 1) < 0)
        return -1;
    char *copy = strdup(text);
    if (!copy)
        return -1;
    r->later[r->nlater++] = (pending){copy, r->line, section};
    return 0;
}

/* The places of a kept line; -1 after an error (§5.5.6). */
static long places_of(reader *r, const pending *p, int64_t *out, size_t cap)
{
    r->line = p->line;
    if (tokenize(r, p->text) < 0)
        return -1;
    size_t n = 0;
    for (;;) {
        if (peek(r) != K_NAME) {
            nc_error(r->path, r->line, "a place name is missing in the list");
            return -1;
        }
        char *name = name_of(&r->toks[r->pos++]);
        int64_t k = name ? nc_find_place(r->net, name) : -1;
        if (k < 0)
            nc_error(r->path, r->line, "'%s' is not a place of the net", name ? name : "?");
        free(name);
        if (k < 0 || n == cap)
            return -1;
        out[n++] = k;
        if (peek(r) == K_END)
            return (long)n;
        if (peek(r) != K_COMMA) {
            nc_error(r->path, r->line, "',' expected between place names");
            return -1;
        }
        r->pos++;
    }
}

static int resolve_later(reader *r)
{
    static int64_t list[MAX_TOKENS];
    int32_t *block = malloc((r->net->nplaces ? r->net->nplaces : 1) * sizeof *block);
    if (!block)
        return -1;
    for (size_t p = 0; p < r->net->nplaces; p++)
        block[p] = -1;
    int rc = 0;
    for (size_t i = 0; i < r->nlater && rc == 0; i++) {
        const pending *p = &r->later[i];
        long n = places_of(r, p, list, MAX_TOKENS);
        if (n < 0) {
            rc = -1;
            break;
        }
        if (p->section == S_MARKING) {
            for (long k = 0; k < n; k++) {
                nc_place *pl = &r->net->places[list[k]];
                if (pl->initial)
                    nc_warning(r->path, r->line, "'%s' is marked twice", pl->id);
                pl->initial = 1;
            }
            continue;
        }
        char name[32];
        snprintf(name, sizeof name, "block%zu", r->net->nunits + 1);
        int u = nc_add_unit(r->net, name, -1);
        for (long k = 0; k < n && rc == 0; k++) {
            if (block[list[k]] >= 0) {
                nc_error(r->path, r->line, "'%s' is in two @partition blocks",
                         r->net->places[list[k]].id);
                rc = -1;
            } else if (u < 0 || nc_unit_add_place(r->net, (uint32_t)u, (uint32_t)list[k]) < 0) {
                nc_error(r->path, r->line, "out of memory");
                rc = -1;
            } else {
                block[list[k]] = u;
            }
        }
    }
    free(block);
    return rc;
}

/* ---- the file ---- */

/* The line without its comment, end of line and surrounding blanks. */
static char *clean(char *s)
{
    char *c = strchr(s, '%');
    if (c)
        *c = '\0';
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = '\0';
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

static int section_line(reader *r, const char *s, int *section)
{
    static const struct {
        const char *word;
        int section;
    } words[] = {{"trans", S_TRANS}, {"place", S_PLACE}, {"marking", S_MARKING},
                 {"partition", S_PARTITION}};
    size_t n = 1;
    while (is_name_char(s[n]))
        n++;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (n - 1 == strlen(words[i].word) && !strncmp(s + 1, words[i].word, n - 1)) {
            const char *rest = s + n;
            while (*rest == ' ' || *rest == '\t')
                rest++;
            if (*rest) {
                nc_error(r->path, r->line, "text after the section keyword @%s", words[i].word);
                return -1;
            }
            *section = words[i].section;
            return 0;
        }
    nc_error(r->path, r->line, "unknown keyword '%.*s'", (int)n, s);
    return -1;
}

static int read_lines(reader *r, FILE *f)
{
    char *buf = NULL;
    size_t cap = 0;
    int header = 0, section = S_NONE, rc = 0;
    while (rc == 0 && getline(&buf, &cap, f) != -1) {
        r->line++;
        char *s = clean(buf);
        if (!*s)
            continue;
        if (!header) {
            if (strcmp(s, "SENIL")) {
                nc_error(r->path, r->line, "a SENIL file starts with the line 'SENIL'");
                rc = -1;
            }
            header = 1;
        } else if (*s == '@' && is_name_char(s[1])) {
            rc = section_line(r, s, &section);
        } else if (section == S_NONE) {
            nc_error(r->path, r->line, "a line before the first section keyword");
            rc = -1;
        } else if (section == S_MARKING || section == S_PARTITION) {
            if (keep_for_later(r, s, section) < 0) {
                nc_error(r->path, r->line, "out of memory");
                rc = -1;
            }
        } else {
            rc = tokenize(r, s) < 0 ? -1 : entry(r, section == S_TRANS);
        }
    }
    free(buf);
    if (rc == 0 && !header) {
        nc_error(r->path, r->line, "a SENIL file starts with the line 'SENIL'");
        rc = -1;
    }
    return rc;
}

/* Warnings of §5.4/§5.5: an empty net, transitions that fill places
 * from nothing. */
static void warnings(const reader *r)
{
    const net_t *n = r->net;
    if (n->nplaces == 0 && n->ntransitions == 0)
        nc_warning(r->path, 0, "the net is empty");
    for (size_t t = 0; t < n->ntransitions; t++) {
        int pre = 0, post = 0;
        for (size_t a = 0; a < n->narcs; a++)
            if (n->arcs[a].transition == t) {
                pre |= n->arcs[a].kind == NC_ARC_PT;
                post |= n->arcs[a].kind == NC_ARC_TP;
            }
        if (!pre && post)
            nc_warning(r->path, 0, "transition '%s' has an empty preset: the net is not safe",
                       n->transitions[t].id);
    }
}

net_t *senil_read(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        nc_error(path, 0, "cannot open: %s", strerror(errno));
        return NULL;
    }
    reader *r = calloc(1, sizeof *r);
    char *name = path_stem(path);
    net_t *net = r && name ? nc_create_net(name, path) : NULL;
    free(name);
    if (!net) {
        nc_error(path, 0, "out of memory");
        fclose(f);
        free(r);
        return NULL;
    }
    r->path = path;
    r->net = net;
    int rc = read_lines(r, f);
    fclose(f);
    if (rc == 0)
        rc = resolve_later(r);
    if (rc == 0)
        warnings(r);
    for (size_t i = 0; i < r->nlater; i++)
        free(r->later[i].text);
    free(r->later);
    free(r);
    if (rc < 0) {
        nc_free_net(net);
        return NULL;
    }
    return net;
}
