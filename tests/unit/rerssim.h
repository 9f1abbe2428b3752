/* RERS parallel systems and their properties, interpreted on their own for
 * the tests, from docs/rers-format.md alone (shared/docs): a small DOT
 * reader for the subset of §2.3, the parallel composition of §3.2 on
 * vectors of LTS states (no Petri net), a reader of the property files of
 * §4.1 and the formulas of §4.2, and LTL on ultimately periodic words of
 * actions (§4.3).  It shares no code with mck's reader (which goes through
 * Graphviz and a net), so a misreading of the spec there shows up as a
 * disagreement here instead of being repeated.
 *
 * rerssim_replay checks a counterexample as mck prints it: each action
 * possible from where the system can be, the loop a cycle of the system,
 * the formula false on prefix.loop^omega.  A printed action is only a
 * label; when an LTS has several edges with it, the run does not say which
 * one was taken, so the replay follows the set of global states the run
 * may be in.
 *
 * Input is assumed to be close to valid; anything unexpected is an error
 * string, never a crash.
 *
 *   rerssim_parse(text, err, n) / rerssim_load(path, err, n), rerssim_free
 *   rerssim_label(m, name), rerssim_initial, rerssim_state_name
 *   rerssim_successors(m, g, cb, ctx), rerssim_dead(m, g)
 *   rerssim_explore(m, limit, &stats, visit, ctx)
 *   rerssim_formula(m, text, err, n), rerssim_formula_free
 *   rerssim_props_parse / rerssim_props_load, rerssim_props_free
 *   rerssim_eval(f, word, n, loop)      value at position 0 of a lasso
 *   rerssim_replay(m, f, text, flags, &run, err, n) */
#ifndef MCK_TEST_RERSSIM_H
#define MCK_TEST_RERSSIM_H

#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#if defined(__GNUC__)
#define RS_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define RS_PRINTF(a, b)
#endif

RS_PRINTF(3, 4)
static inline int rs_fail(char *err, size_t errlen, const char *fmt, ...)
{
    if (errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static inline char *rs_strndup(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

/* Room for element n of *p (capacity *cap, elements of size elem). */
static inline int rs_reserve(void *pp, size_t *cap, size_t n, size_t elem)
{
    void **p = pp;
    if (n < *cap)
        return 0;
    size_t nc = *cap ? *cap * 2 : 8;
    while (nc <= n)
        nc *= 2;
    void *q = realloc(*p, nc * elem);
    if (!q)
        return -1;
    *p = q;
    *cap = nc;
    return 0;
}

static inline uint64_t rs_hash(const void *p, size_t n)
{
    const unsigned char *s = p;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ s[i]) * 1099511628211ull;
    return h ^ (h >> 29);
}

/* ---- strings to numbers ---- */

typedef struct rs_map {
    char **keys;
    int *vals;
    size_t cap, n;
} rs_map;

static inline int rs_map_get(const rs_map *h, const char *k)
{
    if (!h->cap)
        return -1;
    for (size_t i = rs_hash(k, strlen(k)) & (h->cap - 1);; i = (i + 1) & (h->cap - 1)) {
        if (!h->keys[i])
            return -1;
        if (!strcmp(h->keys[i], k))
            return h->vals[i];
    }
}

static inline void rs_map_free(rs_map *h)
{
    for (size_t i = 0; i < h->cap; i++)
        free(h->keys[i]);
    free(h->keys);
    free(h->vals);
    memset(h, 0, sizeof *h);
}

/* k must not be in h yet. */
static inline int rs_map_put(rs_map *h, const char *k, int v)
{
    if (2 * (h->n + 1) > h->cap) {
        rs_map g = {calloc(h->cap ? h->cap * 2 : 64, sizeof(char *)),
                    calloc(h->cap ? h->cap * 2 : 64, sizeof(int)), h->cap ? h->cap * 2 : 64, 0};
        if (!g.keys || !g.vals) {
            free(g.keys);
            free(g.vals);
            return -1;
        }
        for (size_t i = 0; i < h->cap; i++)
            if (h->keys[i]) {
                size_t j = rs_hash(h->keys[i], strlen(h->keys[i])) & (g.cap - 1);
                while (g.keys[j])
                    j = (j + 1) & (g.cap - 1);
                g.keys[j] = h->keys[i];
                g.vals[j] = h->vals[i];
            }
        g.n = h->n;
        free(h->keys);
        free(h->vals);
        *h = g;
    }
    size_t j = rs_hash(k, strlen(k)) & (h->cap - 1);
    while (h->keys[j])
        j = (j + 1) & (h->cap - 1);
    if (!(h->keys[j] = rs_strndup(k, strlen(k))))
        return -1;
    h->vals[j] = v;
    h->n++;
    return 0;
}

/* ---- sets of global states (vectors of width ints) ---- */

typedef struct rs_set {
    int width;
    size_t n, cap;     /* vectors v[i*width..], in order of insertion */
    int *v;
    size_t *tab;       /* index + 1, or 0 */
    size_t tabcap;
} rs_set;

static inline void rs_set_init(rs_set *s, int width)
{
    memset(s, 0, sizeof *s);
    s->width = width;
}

static inline void rs_set_free(rs_set *s)
{
    free(s->v);
    free(s->tab);
    rs_set_init(s, s->width);
}

static inline void rs_set_clear(rs_set *s)
{
    s->n = 0;
    if (s->tab)
        memset(s->tab, 0, s->tabcap * sizeof *s->tab);
}

static inline const int *rs_set_at(const rs_set *s, size_t i)
{
    return s->v + i * (size_t)s->width;
}

static inline long rs_set_find(const rs_set *s, const int *g)
{
    if (!s->tabcap)
        return -1;
    size_t bytes = (size_t)s->width * sizeof *g;
    for (size_t j = rs_hash(g, bytes) & (s->tabcap - 1);; j = (j + 1) & (s->tabcap - 1)) {
        if (!s->tab[j])
            return -1;
        if (!memcmp(rs_set_at(s, s->tab[j] - 1), g, bytes))
            return (long)(s->tab[j] - 1);
    }
}

/* 1 if g was added, 0 if it was there, -1 out of memory. */
static inline int rs_set_add(rs_set *s, const int *g)
{
    if (rs_set_find(s, g) >= 0)
        return 0;
    size_t bytes = (size_t)s->width * sizeof *g;
    if (2 * (s->n + 1) > s->tabcap) {
        size_t nc = s->tabcap ? s->tabcap * 2 : 64;
        size_t *t = calloc(nc, sizeof *t);
        if (!t)
            return -1;
        for (size_t i = 0; i < s->n; i++) {
            size_t j = rs_hash(rs_set_at(s, i), bytes) & (nc - 1);
            while (t[j])
                j = (j + 1) & (nc - 1);
            t[j] = i + 1;
        }
        free(s->tab);
        s->tab = t;
        s->tabcap = nc;
    }
    size_t cap = s->cap;
    if (rs_reserve(&s->v, &cap, (s->n + 1) * (size_t)s->width, sizeof *s->v) < 0)
        return -1;
    s->cap = cap;
    memcpy(s->v + s->n * (size_t)s->width, g, bytes);
    size_t j = rs_hash(g, bytes) & (s->tabcap - 1);
    while (s->tab[j])
        j = (j + 1) & (s->tabcap - 1);
    s->tab[j] = ++s->n;
    return 1;
}

/* ---- the system ---- */

typedef struct rs_out {
    int label, dst;
} rs_out;

typedef struct rs_lts {
    char *name;        /* the subgraph's name, or "" */
    int nstates;
    char **states;     /* node names, the start-arrow node left out */
    int start;
    rs_out **out;      /* per state */
    int *nout;
} rs_lts;

typedef struct rerssim {
    int nlts;
    rs_lts *lts;
    int nlabels;
    char **labels;
    int **owners, *nowners;   /* per label, ascending LTS numbers */
    int *init;
    rs_map label_ids;
    int nnodes;               /* every node of the file */
    int nedges;               /* labelled edges, duplicates counted once */
} rerssim;

static inline void rerssim_free(rerssim *m)
{
    if (!m)
        return;
    for (int i = 0; i < m->nlts; i++) {
        rs_lts *L = &m->lts[i];
        for (int s = 0; s < L->nstates; s++) {
            free(L->states[s]);
            if (L->out)
                free(L->out[s]);
        }
        free(L->states);
        free(L->out);
        free(L->nout);
        free(L->name);
    }
    free(m->lts);
    for (int l = 0; l < m->nlabels; l++) {
        free(m->labels[l]);
        free(m->owners[l]);
    }
    free(m->labels);
    free(m->owners);
    free(m->nowners);
    free(m->init);
    rs_map_free(&m->label_ids);
    free(m);
}

/* -1 if no LTS has the label */
static inline int rerssim_label(const rerssim *m, const char *name)
{
    return rs_map_get(&m->label_ids, name);
}

static inline const int *rerssim_initial(const rerssim *m)
{
    return m->init;
}

/* "(1,4,7)": the node names of the LTS states, in LTS order. */
static inline void rerssim_state_name(const rerssim *m, const int *g, char *buf, size_t n)
{
    size_t k = 0;
    if (!n)
        return;
    buf[0] = '\0';
    for (int i = 0; i < m->nlts && k < n; i++) {
        int w = snprintf(buf + k, n - k, "%s%s", i ? "," : "(", m->lts[i].states[g[i]]);
        k += w > 0 ? (size_t)w : 0;
    }
    if (k < n)
        snprintf(buf + k, n - k, ")");
}

/* ---- the DOT subset (§2.3) ---- */

enum { RT_EOF, RT_ID, RT_LBRACE, RT_RBRACE, RT_LBRACK, RT_RBRACK, RT_EQ, RT_SEMI, RT_COMMA, RT_ARROW };

typedef struct rs_node {
    char *name;
    int lts, line, edges;   /* edges: how many edges touch it */
} rs_node;

typedef struct rs_rawedge {
    int src, dst, lts, line;   /* node numbers */
    char *label;               /* trimmed */
} rs_rawedge;

typedef struct rs_dot {
    const char *p;
    int line, tok, tokline, quoted;
    char *text;                /* of an RT_ID */
    char *err;
    size_t errlen;
    int failed;
    rs_map node_ids;
    rs_node *nodes;
    size_t nnodes, capnodes;
    rs_rawedge *edges;
    size_t nedges, capedges;
    char **subgraphs;
    size_t nsub, capsub;
    int cur;                   /* the open subgraph, or -1 */
} rs_dot;

RS_PRINTF(3, 4)
static inline int rs_dot_fail(rs_dot *d, int line, const char *fmt, ...)
{
    if (d->failed)
        return -1;
    d->failed = 1;
    if (d->errlen) {
        int k = snprintf(d->err, d->errlen, "line %d: ", line);
        if (k >= 0 && (size_t)k < d->errlen) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(d->err + k, d->errlen - (size_t)k, fmt, ap);
            va_end(ap);
        }
    }
    return -1;
}

static inline int rs_idchar(int c)
{
    return isalnum(c) || c == '_' || c == '.' || c >= 0x80;
}

static inline int rs_dot_next(rs_dot *d)
{
    free(d->text);
    d->text = NULL;
    d->quoted = 0;
    for (;;) {
        while (*d->p == ' ' || *d->p == '\t' || *d->p == '\r' || *d->p == '\n' || *d->p == '\f')
            d->line += *d->p++ == '\n';
        if (*d->p == '#' || (d->p[0] == '/' && d->p[1] == '/')) {
            while (*d->p && *d->p != '\n')
                d->p++;
        } else if (d->p[0] == '/' && d->p[1] == '*') {
            int from = d->line;
            const char *e = strstr(d->p + 2, "*/");
            if (!e)
                return rs_dot_fail(d, from, "unterminated comment");
            for (; d->p < e + 2; d->p++)
                d->line += *d->p == '\n';
        } else {
            break;
        }
    }
    d->tokline = d->line;
    unsigned char c = (unsigned char)*d->p;
    static const char punct[] = "{}[]=;,";
    static const int kinds[] = {RT_LBRACE, RT_RBRACE, RT_LBRACK, RT_RBRACK, RT_EQ, RT_SEMI, RT_COMMA};
    if (!c) {
        d->tok = RT_EOF;
    } else if (strchr(punct, c)) {
        d->tok = kinds[strchr(punct, c) - punct];
        d->p++;
    } else if (c == '-' && d->p[1] == '>') {
        d->tok = RT_ARROW;
        d->p += 2;
    } else if (c == '"') {
        /* \" is a quote; a backslash before a newline continues the line;
         * every other backslash stays as written, as in DOT */
        size_t cap = 16, n = 0;
        char *s = malloc(cap);
        const char *q = d->p + 1;
        for (; s && *q && *q != '"'; q++) {
            if (*q == '\\' && (q[1] == '"' || q[1] == '\n')) {
                q++;
                if (*q == '\n') {
                    d->line++;
                    continue;
                }
            } else if (*q == '\n') {
                d->line++;
            }
            if (n + 1 >= cap) {
                char *t = realloc(s, cap *= 2);
                if (!t) {
                    free(s);
                    s = NULL;
                    break;
                }
                s = t;
            }
            s[n++] = *q;
        }
        if (!s)
            return rs_dot_fail(d, d->tokline, "out of memory");
        s[n] = '\0';
        if (*q != '"') {
            free(s);
            return rs_dot_fail(d, d->tokline, "unterminated string");
        }
        d->p = q + 1;
        d->text = s;
        d->quoted = 1;
        d->tok = RT_ID;
    } else if (rs_idchar(c) || (c == '-' && (isdigit((unsigned char)d->p[1]) || d->p[1] == '.'))) {
        const char *b = d->p++;
        while (rs_idchar((unsigned char)*d->p))
            d->p++;
        if (!(d->text = rs_strndup(b, (size_t)(d->p - b))))
            return rs_dot_fail(d, d->tokline, "out of memory");
        d->tok = RT_ID;
    } else if (c == '-' && d->p[1] == '-') {
        return rs_dot_fail(d, d->line, "'--' (an undirected edge) in a digraph");
    } else {
        return rs_dot_fail(d, d->line, "unexpected character '%c'", c);
    }
    return 0;
}

static inline int rs_dot_word(const rs_dot *d, const char *w)
{
    return d->tok == RT_ID && !d->quoted && !strcmp(d->text, w);
}

static inline int rs_dot_expect(rs_dot *d, int tok, const char *what)
{
    if (d->tok == tok)
        return 0;
    return rs_dot_fail(d, d->tokline, "expected %s", what);
}

/* The node number of name, declared in the open subgraph if new. */
static inline int rs_dot_node(rs_dot *d, const char *name, int line)
{
    int k = rs_map_get(&d->node_ids, name);
    if (k >= 0) {
        if (d->nodes[k].lts != d->cur)
            return rs_dot_fail(d, line, "node %s is in subgraph %d (line %d) and in subgraph %d",
                               name, d->nodes[k].lts, d->nodes[k].line, d->cur);
        return k;
    }
    if (rs_reserve(&d->nodes, &d->capnodes, d->nnodes, sizeof *d->nodes) < 0 ||
        rs_map_put(&d->node_ids, name, (int)d->nnodes) < 0)
        return rs_dot_fail(d, line, "out of memory");
    rs_node *n = &d->nodes[d->nnodes];
    memset(n, 0, sizeof *n);
    n->name = rs_strndup(name, strlen(name));
    n->lts = d->cur;
    n->line = line;
    if (!n->name)
        return rs_dot_fail(d, line, "out of memory");
    return (int)d->nnodes++;
}

/* [ k = v , ... ] lists; *label (if label) gets the edge's label. */
static inline int rs_dot_attrs(rs_dot *d, char **label)
{
    while (d->tok == RT_LBRACK) {
        if (rs_dot_next(d) < 0)
            return -1;
        while (d->tok != RT_RBRACK) {
            if (rs_dot_expect(d, RT_ID, "an attribute name or ']'") < 0)
                return -1;
            int is_label = !strcmp(d->text, "label");
            if (rs_dot_next(d) < 0 || rs_dot_expect(d, RT_EQ, "'=' in an attribute") < 0 ||
                rs_dot_next(d) < 0 || rs_dot_expect(d, RT_ID, "an attribute value") < 0)
                return -1;
            if (is_label && label) {
                free(*label);
                *label = d->text;
                d->text = NULL;
            }
            if (rs_dot_next(d) < 0)
                return -1;
            if ((d->tok == RT_COMMA || d->tok == RT_SEMI) && rs_dot_next(d) < 0)
                return -1;
        }
        if (rs_dot_next(d) < 0)
            return -1;
    }
    return 0;
}

static inline int rs_label_ok(const char *s)
{
    if (!isalpha((unsigned char)*s) && *s != '_')
        return 0;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_')
            return 0;
    return 1;
}

static inline int rs_dot_stmts(rs_dot *d, int level);

static inline int rs_dot_stmt(rs_dot *d, int level)
{
    int line = d->tokline;
    if (rs_dot_word(d, "subgraph")) {
        if (level > 0)
            return rs_dot_fail(d, line, "a subgraph inside a subgraph");
        if (rs_dot_next(d) < 0)
            return -1;
        const char *name = "";
        char *owned = NULL;
        if (d->tok == RT_ID) {
            owned = d->text;
            d->text = NULL;
            name = owned;
            if (rs_dot_next(d) < 0) {
                free(owned);
                return -1;
            }
        }
        if (rs_dot_expect(d, RT_LBRACE, "'{' after subgraph") < 0 ||
            rs_reserve(&d->subgraphs, &d->capsub, d->nsub, sizeof *d->subgraphs) < 0 ||
            !(d->subgraphs[d->nsub] = rs_strndup(name, strlen(name)))) {
            free(owned);
            return rs_dot_fail(d, line, "out of memory");
        }
        free(owned);
        d->cur = (int)d->nsub++;
        if (rs_dot_next(d) < 0 || rs_dot_stmts(d, 1) < 0)
            return -1;
        d->cur = -1;
        if (rs_dot_next(d) < 0)
            return -1;
    } else if (d->tok == RT_ID) {
        char *a = d->text;
        d->text = NULL;
        int rc = rs_dot_next(d);
        if (rc < 0) {
            /* already reported */
        } else if (d->tok == RT_EQ) {
            rc = rs_dot_next(d) < 0 || rs_dot_expect(d, RT_ID, "a value after '='") < 0 ||
                         rs_dot_next(d) < 0
                     ? -1
                     : 0;
        } else if (d->tok == RT_LBRACK &&
                   (!strcmp(a, "node") || !strcmp(a, "edge") || !strcmp(a, "graph"))) {
            rc = rs_dot_attrs(d, NULL);   /* defaults: only label would matter */
        } else if (d->cur < 0) {
            rc = rs_dot_fail(d, line, "%s outside every subgraph",
                             d->tok == RT_ARROW ? "an edge" : "a node");
        } else if (d->tok == RT_ARROW) {
            char *label = NULL, *b = NULL;
            if (rs_dot_next(d) < 0 || rs_dot_expect(d, RT_ID, "a node after '->'") < 0) {
                free(a);
                return -1;
            }
            b = d->text;
            d->text = NULL;
            int s = rs_dot_node(d, a, line), t = s < 0 ? -1 : rs_dot_node(d, b, line);
            rc = s < 0 || t < 0 || rs_dot_next(d) < 0 || rs_dot_attrs(d, &label) < 0 ? -1 : 0;
            if (!rc && d->tok == RT_ARROW)
                rc = rs_dot_fail(d, line, "a chain of edges (a->b->c)");
            if (!rc && !label)
                rc = rs_dot_fail(d, line, "edge %s->%s without a label", a, b);
            if (!rc) {
                size_t k = strlen(label);
                while (k && (label[k - 1] == ' ' || label[k - 1] == '\t'))
                    label[--k] = '\0';
                size_t skip = strspn(label, " \t");
                memmove(label, label + skip, k - skip + 1);
                if (*label && !rs_label_ok(label))
                    rc = rs_dot_fail(d, line, "label \"%s\" is not [A-Za-z_][A-Za-z0-9_]*", label);
            }
            if (!rc && rs_reserve(&d->edges, &d->capedges, d->nedges, sizeof *d->edges) < 0)
                rc = rs_dot_fail(d, line, "out of memory");
            if (!rc) {
                d->edges[d->nedges++] = (rs_rawedge){s, t, d->cur, line, label};
                label = NULL;
            }
            free(label);
            free(b);
        } else {
            rc = rs_dot_node(d, a, line) < 0 || rs_dot_attrs(d, NULL) < 0 ? -1 : 0;
        }
        free(a);
        if (rc < 0)
            return -1;
    } else {
        return rs_dot_fail(d, line, "expected a statement");
    }
    if (d->tok == RT_SEMI)
        return rs_dot_next(d);
    return 0;
}

/* Statements up to the closing '}', which stays the current token. */
static inline int rs_dot_stmts(rs_dot *d, int level)
{
    while (d->tok != RT_RBRACE) {
        if (d->tok == RT_EOF)
            return rs_dot_fail(d, d->tokline, "missing '}'");
        if (rs_dot_stmt(d, level) < 0)
            return -1;
    }
    return 0;
}

static inline int rs_dot_graph(rs_dot *d)
{
    if (rs_dot_next(d) < 0)
        return -1;
    if (d->tok == RT_ID && !d->quoted && !strcmp(d->text, "strict") && rs_dot_next(d) < 0)
        return -1;
    if (!rs_dot_word(d, "digraph"))
        return rs_dot_fail(d, d->tokline, "expected 'digraph'");
    if (rs_dot_next(d) < 0)
        return -1;
    if (d->tok == RT_ID && rs_dot_next(d) < 0)
        return -1;
    if (rs_dot_expect(d, RT_LBRACE, "'{'") < 0 || rs_dot_next(d) < 0 || rs_dot_stmts(d, 0) < 0 ||
        rs_dot_next(d) < 0)
        return -1;
    return rs_dot_expect(d, RT_EOF, "the end of the file after the graph");
}

/* From the raw graph to LTSs: the start edge of each, states, labels,
 * owners, out-edges. */
static inline rerssim *rs_build(rs_dot *d)
{
    if (!d->nsub) {
        rs_dot_fail(d, d->line, "a file without subgraphs");
        return NULL;
    }
    rerssim *m = calloc(1, sizeof *m);
    int n = (int)d->nsub;
    int *startedge = malloc((size_t)n * sizeof *startedge);
    int *stateof = malloc((d->nnodes ? d->nnodes : 1) * sizeof *stateof);
    if (!m || !startedge || !stateof || !(m->lts = calloc((size_t)n, sizeof *m->lts)) ||
        !(m->init = calloc((size_t)n, sizeof *m->init)))
        goto oom;
    m->nlts = n;
    m->nnodes = (int)d->nnodes;
    for (int i = 0; i < n; i++)
        startedge[i] = -1;
    for (size_t e = 0; e < d->nedges; e++) {
        rs_rawedge *E = &d->edges[e];
        d->nodes[E->src].edges++;
        if (E->dst != E->src)
            d->nodes[E->dst].edges++;
        if (*E->label)
            continue;
        if (startedge[E->lts] >= 0) {
            rs_dot_fail(d, E->line, "subgraph %d has a second empty-label edge (the first on line %d)",
                        E->lts, d->edges[startedge[E->lts]].line);
            goto fail;
        }
        startedge[E->lts] = (int)e;
    }
    for (int i = 0; i < n; i++) {
        rs_lts *L = &m->lts[i];
        if (!(L->name = rs_strndup(d->subgraphs[i], strlen(d->subgraphs[i]))))
            goto oom;
        if (startedge[i] < 0) {
            rs_dot_fail(d, d->line, "subgraph %d (%s) has no empty-label (start) edge", i, L->name);
            goto fail;
        }
        const rs_rawedge *S = &d->edges[startedge[i]];
        if (d->nodes[S->src].edges != 1 || S->src == S->dst) {
            rs_dot_fail(d, S->line, "the start edge's source %s has another edge",
                        d->nodes[S->src].name);
            goto fail;
        }
        size_t cap = 0;
        for (size_t k = 0; k < d->nnodes; k++) {
            if (d->nodes[k].lts != i || (int)k == S->src)
                continue;
            if (rs_reserve(&L->states, &cap, (size_t)L->nstates, sizeof *L->states) < 0 ||
                !(L->states[L->nstates] = rs_strndup(d->nodes[k].name, strlen(d->nodes[k].name))))
                goto oom;
            stateof[k] = L->nstates++;
        }
        L->start = m->init[i] = stateof[S->dst];
        if (!(L->out = calloc((size_t)L->nstates, sizeof *L->out)) ||
            !(L->nout = calloc((size_t)L->nstates, sizeof *L->nout)))
            goto oom;
    }
    size_t caplabels = 0;
    for (size_t e = 0; e < d->nedges; e++) {
        rs_rawedge *E = &d->edges[e];
        if (!*E->label)
            continue;
        int l = rs_map_get(&m->label_ids, E->label);
        if (l < 0) {
            l = m->nlabels;
            if (rs_reserve(&m->labels, &caplabels, (size_t)l, sizeof *m->labels) < 0 ||
                !(m->labels[l] = rs_strndup(E->label, strlen(E->label))))
                goto oom;
            m->nlabels++;
            int **o = realloc(m->owners, caplabels * sizeof *o);
            if (o)
                m->owners = o;
            int *no = o ? realloc(m->nowners, caplabels * sizeof *no) : NULL;
            if (no)
                m->nowners = no;
            if (!o || !no || rs_map_put(&m->label_ids, E->label, l) < 0 ||
                !(m->owners[l] = malloc((size_t)n * sizeof **m->owners)))
                goto oom;
            m->nowners[l] = 0;
        }
        int k = 0;
        while (k < m->nowners[l] && m->owners[l][k] < E->lts)
            k++;
        if (k == m->nowners[l] || m->owners[l][k] != E->lts) {
            /* edges come in any order: owners are kept ascending */
            memmove(&m->owners[l][k + 1], &m->owners[l][k],
                    (size_t)(m->nowners[l] - k) * sizeof **m->owners);
            m->owners[l][k] = E->lts;
            m->nowners[l]++;
        }
        rs_lts *L = &m->lts[E->lts];
        int s = stateof[E->src], t = stateof[E->dst], dup = 0;
        for (int j = 0; j < L->nout[s] && !dup; j++)
            dup = L->out[s][j].label == l && L->out[s][j].dst == t;
        if (dup)
            continue;   /* an LTS's edges are a set */
        rs_out *o = realloc(L->out[s], (size_t)(L->nout[s] + 1) * sizeof *o);
        if (!o)
            goto oom;
        L->out[s] = o;
        o[L->nout[s]++] = (rs_out){l, t};
        m->nedges++;
    }
    free(startedge);
    free(stateof);
    return m;
oom:
    rs_dot_fail(d, d->line, "out of memory");
fail:
    free(startedge);
    free(stateof);
    rerssim_free(m);
    return NULL;
}

/* The system of a .dot text; NULL with "line N: why" in err. */
static inline rerssim *rerssim_parse(const char *text, char *err, size_t errlen)
{
    rs_dot d;
    memset(&d, 0, sizeof d);
    d.p = text;
    d.line = 1;
    d.err = err;
    d.errlen = errlen;
    d.cur = -1;
    if (errlen)
        err[0] = '\0';
    rerssim *m = rs_dot_graph(&d) < 0 ? NULL : rs_build(&d);
    free(d.text);
    for (size_t i = 0; i < d.nnodes; i++)
        free(d.nodes[i].name);
    free(d.nodes);
    for (size_t i = 0; i < d.nedges; i++)
        free(d.edges[i].label);
    free(d.edges);
    for (size_t i = 0; i < d.nsub; i++)
        free(d.subgraphs[i]);
    free(d.subgraphs);
    rs_map_free(&d.node_ids);
    return m;
}

static inline char *rs_slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t n = 0, cap = 4096;
    char *s = malloc(cap);
    size_t k;
    while (s && (k = fread(s + n, 1, cap - n - 1, f)) > 0) {
        n += k;
        if (cap - n - 1 == 0) {
            char *t = realloc(s, cap *= 2);
            if (!t)
                free(s);
            s = t;
        }
    }
    fclose(f);
    if (s)
        s[n] = '\0';
    return s;
}

static inline rerssim *rerssim_load(const char *path, char *err, size_t errlen)
{
    char *text = rs_slurp(path);
    if (!text) {
        rs_fail(err, errlen, "%s: cannot read", path);
        return NULL;
    }
    char e[400];
    rerssim *m = rerssim_parse(text, e, sizeof e);
    free(text);
    if (!m)
        rs_fail(err, errlen, "%s: %s", path, e);
    return m;
}

/* ---- the composed system (§3.2) ---- */

typedef int (*rerssim_succ_cb)(void *ctx, int label, const int *to);

/* Every combination of one l-edge per owner, on the owners from k on. */
static inline int rs_combine(const rerssim *m, int l, int k, int *t, rerssim_succ_cb cb, void *ctx)
{
    if (k == m->nowners[l])
        return cb(ctx, l, t);
    int i = m->owners[l][k], s = t[i], rc = 0;
    const rs_lts *L = &m->lts[i];
    for (int j = 0; j < L->nout[s] && !rc; j++)
        if (L->out[s][j].label == l) {
            t[i] = L->out[s][j].dst;
            rc = rs_combine(m, l, k + 1, t, cb, ctx);
            t[i] = s;
        }
    return rc;
}

/* cb on every l-successor of g (l < 0: of every label, in label order);
 * stops at and returns the first non-zero return of cb. */
static inline int rerssim_successors(const rerssim *m, const int *g, int l, rerssim_succ_cb cb,
                                     void *ctx)
{
    int *t = malloc((size_t)m->nlts * sizeof *t);
    if (!t)
        return -1;
    memcpy(t, g, (size_t)m->nlts * sizeof *t);
    int rc = 0;
    for (int k = l < 0 ? 0 : l; k < (l < 0 ? m->nlabels : l + 1) && !rc; k++)
        rc = rs_combine(m, k, 0, t, cb, ctx);
    free(t);
    return rc;
}

static inline int rs_enabled(const rerssim *m, const int *g, int l)
{
    for (int k = 0; k < m->nowners[l]; k++) {
        const rs_lts *L = &m->lts[m->owners[l][k]];
        int s = g[m->owners[l][k]], has = 0;
        for (int j = 0; j < L->nout[s] && !has; j++)
            has = L->out[s][j].label == l;
        if (!has)
            return 0;
    }
    return 1;
}

static inline int rerssim_dead(const rerssim *m, const int *g)
{
    for (int l = 0; l < m->nlabels; l++)
        if (rs_enabled(m, g, l))
            return 0;
    return 1;
}

typedef struct rerssim_stats {
    long states, transitions, deadlocks;
    int never_fired;   /* labels no reachable transition carries */
} rerssim_stats;

typedef struct rs_explore_ctx {
    rs_set *seen;
    long transitions;
    char *fired;
} rs_explore_ctx;

static inline int rs_explore_cb(void *ctx, int label, const int *to)
{
    rs_explore_ctx *x = ctx;
    x->transitions++;
    x->fired[label] = 1;
    return rs_set_add(x->seen, to) < 0 ? -1 : 0;
}

/* Breadth-first over the reachable global states, visit (if any) on each.
 * 0, 1 beyond limit states, -1 out of memory. */
static inline int rerssim_explore(const rerssim *m, long limit, rerssim_stats *st,
                                  void (*visit)(const rerssim *, const int *, void *), void *vctx)
{
    rs_set seen;
    rs_set_init(&seen, m->nlts);
    rs_explore_ctx x = {&seen, 0, calloc((size_t)m->nlabels + 1, 1)};
    memset(st, 0, sizeof *st);
    int rc = x.fired && rs_set_add(&seen, m->init) >= 0 ? 0 : -1;
    for (size_t i = 0; !rc && i < seen.n; i++) {
        if ((long)seen.n > limit) {
            rc = 1;
            break;
        }
        /* the vector may move when seen grows */
        int *g = malloc((size_t)m->nlts * sizeof *g);
        if (!g) {
            rc = -1;
            break;
        }
        memcpy(g, rs_set_at(&seen, i), (size_t)m->nlts * sizeof *g);
        if (visit)
            visit(m, g, vctx);
        long before = x.transitions;
        rc = rerssim_successors(m, g, -1, rs_explore_cb, &x);
        st->deadlocks += x.transitions == before;
        free(g);
    }
    st->states = (long)seen.n;
    st->transitions = x.transitions;
    for (int l = 0; x.fired && l < m->nlabels; l++)
        st->never_fired += !x.fired[l];
    free(x.fired);
    rs_set_free(&seen);
    return rc;
}

/* ---- formulas (§4.2, and what mck accepts beyond) ---- */

enum {
    RF_TRUE, RF_FALSE, RF_LABEL, RF_NOT, RF_AND, RF_OR, RF_IMP, RF_IFF,
    RF_X, RF_F, RF_G, RF_U, RF_W, RF_R
};

typedef struct rs_f {
    int op, label;
    struct rs_f *l, *r;
} rs_f;

static inline void rerssim_formula_free(rs_f *f)
{
    if (!f)
        return;
    rerssim_formula_free(f->l);
    rerssim_formula_free(f->r);
    free(f);
}

enum { FT_END, FT_NAME, FT_QUOTED, FT_LP, FT_RP, FT_NOT, FT_AND, FT_OR, FT_IMP, FT_IFF, FT_BOX,
       FT_DIA, FT_BAD };

typedef struct rs_fp {
    const rerssim *m;
    const char *p, *tokstart;
    int tok;
    char name[256];
    char *err;
    size_t errlen;
    int failed;
} rs_fp;

RS_PRINTF(2, 3)
static inline rs_f *rs_fp_fail(rs_fp *x, const char *fmt, ...)
{
    if (!x->failed && x->errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(x->err, x->errlen, fmt, ap);
        va_end(ap);
    }
    x->failed = 1;
    return NULL;
}

static inline void rs_fp_next(rs_fp *x)
{
    while (isspace((unsigned char)*x->p))
        x->p++;
    x->tokstart = x->p;
    const char *p = x->p;
    static const struct { const char *s; int tok; } ops[] = {
        {"<->", FT_IFF}, {"&&", FT_AND}, {"||", FT_OR}, {"=>", FT_IMP}, {"->", FT_IMP},
        {"[]", FT_BOX}, {"<>", FT_DIA}, {"&", FT_AND}, {"|", FT_OR}, {"!", FT_NOT},
        {"(", FT_LP}, {")", FT_RP},
    };
    if (!*p) {
        x->tok = FT_END;
        return;
    }
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
        if (!strncmp(p, ops[i].s, strlen(ops[i].s))) {
            x->tok = ops[i].tok;
            x->p += strlen(ops[i].s);
            return;
        }
    if (isalpha((unsigned char)*p) || *p == '_' || *p == '"') {
        int q = *p == '"';
        const char *b = p + q, *e = b;
        while (isalnum((unsigned char)*e) || *e == '_')
            e++;
        if ((q && *e != '"') || (size_t)(e - b) >= sizeof x->name) {
            x->tok = FT_BAD;
            return;
        }
        memcpy(x->name, b, (size_t)(e - b));
        x->name[e - b] = '\0';
        x->p = e + q;
        x->tok = q ? FT_QUOTED : FT_NAME;
        return;
    }
    x->tok = FT_BAD;
}

static inline rs_f *rs_mk(rs_fp *x, int op, int label, rs_f *l, rs_f *r)
{
    rs_f *f = NULL;
    if (!x->failed && (op < RF_NOT || l) && (op < RF_AND || op > RF_IFF || r) &&
        (op < RF_U || r))
        f = malloc(sizeof *f);
    if (!f) {
        rerssim_formula_free(l);
        rerssim_formula_free(r);
        return x->failed ? NULL : rs_fp_fail(x, "out of memory");
    }
    *f = (rs_f){op, label, l, r};
    return f;
}

static inline int rs_fp_word(const rs_fp *x, const char *w)
{
    return x->tok == FT_NAME && !strcmp(x->name, w);
}

static inline rs_f *rs_fp_iff(rs_fp *x);

/* unary: ! X F G [] <>, parentheses, true, false, labels */
static inline rs_f *rs_fp_unary(rs_fp *x)
{
    int op = x->tok == FT_NOT ? RF_NOT : x->tok == FT_BOX ? RF_G : x->tok == FT_DIA ? RF_F
           : rs_fp_word(x, "X") ? RF_X : rs_fp_word(x, "F") ? RF_F : rs_fp_word(x, "G") ? RF_G : -1;
    if (op >= 0) {
        rs_fp_next(x);
        return rs_mk(x, op, -1, rs_fp_unary(x), NULL);
    }
    if (x->tok == FT_LP) {
        rs_fp_next(x);
        rs_f *f = rs_fp_iff(x);
        if (f && x->tok != FT_RP) {
            rerssim_formula_free(f);
            return rs_fp_fail(x, "expected ')' at \"%.20s\"", x->tokstart);
        }
        rs_fp_next(x);
        return f;
    }
    if (rs_fp_word(x, "true") || rs_fp_word(x, "false")) {
        op = rs_fp_word(x, "true") ? RF_TRUE : RF_FALSE;
        rs_fp_next(x);
        return rs_mk(x, op, -1, NULL, NULL);
    }
    if (rs_fp_word(x, "U") || rs_fp_word(x, "W") || rs_fp_word(x, "R"))
        return rs_fp_fail(x, "operator %s where a formula should start", x->name);
    if (x->tok == FT_NAME || x->tok == FT_QUOTED) {
        int l = rerssim_label(x->m, x->name);
        if (l < 0)
            return rs_fp_fail(x, "%s is not a label of the system", x->name);
        rs_fp_next(x);
        return rs_mk(x, RF_LABEL, l, NULL, NULL);
    }
    return rs_fp_fail(x, "expected a formula at \"%.20s\"", x->tokstart);
}

static inline rs_f *rs_fp_until(rs_fp *x)
{
    rs_f *l = rs_fp_unary(x);
    int op = rs_fp_word(x, "U") ? RF_U : rs_fp_word(x, "W") ? RF_W : rs_fp_word(x, "R") ? RF_R : -1;
    if (!l || op < 0)
        return l;
    rs_fp_next(x);
    return rs_mk(x, op, -1, l, rs_fp_until(x));
}

static inline rs_f *rs_fp_and(rs_fp *x)
{
    rs_f *l = rs_fp_until(x);
    while (l && x->tok == FT_AND) {
        rs_fp_next(x);
        l = rs_mk(x, RF_AND, -1, l, rs_fp_until(x));
    }
    return l;
}

static inline rs_f *rs_fp_or(rs_fp *x)
{
    rs_f *l = rs_fp_and(x);
    while (l && x->tok == FT_OR) {
        rs_fp_next(x);
        l = rs_mk(x, RF_OR, -1, l, rs_fp_and(x));
    }
    return l;
}

static inline rs_f *rs_fp_imp(rs_fp *x)
{
    rs_f *l = rs_fp_or(x);
    if (!l || x->tok != FT_IMP)
        return l;
    rs_fp_next(x);
    return rs_mk(x, RF_IMP, -1, l, rs_fp_imp(x));
}

static inline rs_f *rs_fp_iff(rs_fp *x)
{
    rs_f *l = rs_fp_imp(x);
    while (l && x->tok == FT_IFF) {
        rs_fp_next(x);
        l = rs_mk(x, RF_IFF, -1, l, rs_fp_imp(x));
    }
    return l;
}

/* A formula over the labels of m; NULL with the reason in err. */
static inline rs_f *rerssim_formula(const rerssim *m, const char *text, char *err, size_t errlen)
{
    rs_fp x = {m, text, text, 0, "", err, errlen, 0};
    if (errlen)
        err[0] = '\0';
    rs_fp_next(&x);
    rs_f *f = rs_fp_iff(&x);
    if (f && x.tok != FT_END) {
        rerssim_formula_free(f);
        f = rs_fp_fail(&x, "unexpected \"%.20s\" after the formula", x.tokstart);
    }
    return f;
}

/* ---- the property file (§4.1) ---- */

typedef struct rerssim_prop {
    int num, line;
    int expected;      /* 1 true, 0 false, -1 not given */
    char *text;        /* the formula as written, lines joined by blanks */
    rs_f *f;
} rerssim_prop;

typedef struct rerssim_props {
    rerssim_prop *p;
    size_t n, cap;
} rerssim_props;

static inline void rerssim_props_free(rerssim_props *ps)
{
    for (size_t i = 0; i < ps->n; i++) {
        free(ps->p[i].text);
        rerssim_formula_free(ps->p[i].f);
    }
    free(ps->p);
    memset(ps, 0, sizeof *ps);
}

static inline int rs_append(char **s, const char *add, size_t n)
{
    size_t k = *s ? strlen(*s) : 0;
    char *t = realloc(*s, k + n + 2);
    if (!t)
        return -1;
    if (k)
        t[k++] = ' ';
    memcpy(t + k, add, n);
    t[k + n] = '\0';
    *s = t;
    return 0;
}

/* 0, or -1 with "line N: why" in err. */
static inline int rerssim_props_parse(const rerssim *m, const char *text, rerssim_props *ps,
                                      char *err, size_t errlen)
{
    memset(ps, 0, sizeof *ps);
    if (errlen)
        err[0] = '\0';
    int lineno = 0;
    for (const char *p = text; *p;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        const char *line = p;
        p = e ? e + 1 : p + len;
        lineno++;
        while (len && (line[len - 1] == '\r' || isspace((unsigned char)line[len - 1])))
            len--;
        size_t lead = 0;
        while (lead < len && isspace((unsigned char)line[lead]))
            lead++;
        if (lead == len || (len - lead >= 2 && !strncmp(line + lead, "//", 2)))
            continue;
        if (line[0] == '#') {
            char *end;
            long num = strtol(line + 1, &end, 10);
            if (end == line + 1 || *end != ':') {
                rerssim_props_free(ps);
                return rs_fail(err, errlen, "line %d: a header is #N:", lineno);
            }
            if (rs_reserve(&ps->p, &ps->cap, ps->n, sizeof *ps->p) < 0) {
                rerssim_props_free(ps);
                return rs_fail(err, errlen, "out of memory");
            }
            rerssim_prop *P = &ps->p[ps->n++];
            memset(P, 0, sizeof *P);
            P->num = (int)num;
            P->line = lineno;
            P->expected = -1;
            const char *w = end + 1, *stop = line + len;
            while (w < stop && isspace((unsigned char)*w))
                w++;
            for (int v = 0; v < 2; v++) {
                const char *word = v ? "true" : "false";
                size_t k = strlen(word);
                if ((size_t)(stop - w) >= k && !strncasecmp(w, word, k) &&
                    (w + k == stop || !isalnum((unsigned char)w[k])))
                    P->expected = v;
            }
            continue;
        }
        if (!ps->n) {
            rerssim_props_free(ps);
            return rs_fail(err, errlen, "line %d: a formula before the first #N: header", lineno);
        }
        if (rs_append(&ps->p[ps->n - 1].text, line + lead, len - lead) < 0) {
            rerssim_props_free(ps);
            return rs_fail(err, errlen, "out of memory");
        }
    }
    for (size_t i = 0; i < ps->n; i++) {
        rerssim_prop *P = &ps->p[i];
        char why[300];
        if (!P->text) {
            rs_fail(err, errlen, "line %d: property #%d has no formula", P->line, P->num);
            rerssim_props_free(ps);
            return -1;
        }
        if (!(P->f = rerssim_formula(m, P->text, why, sizeof why))) {
            rs_fail(err, errlen, "line %d: property #%d: %s", P->line, P->num, why);
            rerssim_props_free(ps);
            return -1;
        }
    }
    return 0;
}

static inline int rerssim_props_load(const rerssim *m, const char *path, rerssim_props *ps,
                                     char *err, size_t errlen)
{
    char *text = rs_slurp(path);
    memset(ps, 0, sizeof *ps);
    if (!text)
        return rs_fail(err, errlen, "%s: cannot read", path);
    char e[400];
    int rc = rerssim_props_parse(m, text, ps, e, sizeof e);
    free(text);
    if (rc < 0)
        rs_fail(err, errlen, "%s: %s", path, e);
    return rc;
}

/* ---- LTL on a lasso (§4.3) ---- */

/* The value of f at each of the positions 0..n-1 of the word w (w[i] the
 * label of the action at i, -1 for none), position n-1 followed by
 * position loop.  U and F are the least, G, W and R the greatest
 * solutions of their one-step equations on these positions, which is
 * their meaning on the infinite word.  NULL when out of memory. */
static inline char *rs_eval(const rs_f *f, const int *w, size_t n, size_t loop)
{
    char *v = malloc(n ? n : 1), *a = NULL, *b = NULL;
    if (!v)
        return NULL;
    if (f->op == RF_TRUE || f->op == RF_FALSE || f->op == RF_LABEL) {
        for (size_t i = 0; i < n; i++)
            v[i] = (char)(f->op == RF_TRUE || (f->op == RF_LABEL && w[i] == f->label));
        return v;
    }
    if (!(a = rs_eval(f->l, w, n, loop)) || (f->r && !(b = rs_eval(f->r, w, n, loop)))) {
        free(a);
        free(v);
        return NULL;
    }
    int least = f->op == RF_U || f->op == RF_F;
    memset(v, !least, n);
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t i = n; i-- > 0;) {
            size_t nx = i + 1 < n ? i + 1 : loop;
            char x;
            switch (f->op) {
            case RF_NOT: x = !a[i]; break;
            case RF_AND: x = a[i] && b[i]; break;
            case RF_OR: x = a[i] || b[i]; break;
            case RF_IMP: x = !a[i] || b[i]; break;
            case RF_IFF: x = !a[i] == !b[i]; break;
            case RF_X: x = a[nx]; break;
            case RF_F: x = a[i] || v[nx]; break;
            case RF_G: x = a[i] && v[nx]; break;
            case RF_U:
            case RF_W: x = b[i] || (a[i] && v[nx]); break;
            case RF_R: x = b[i] && (a[i] || v[nx]); break;
            default: x = 0; break;
            }
            if (x != v[i]) {
                v[i] = x;
                changed = 1;
            }
        }
    }
    free(a);
    free(b);
    return v;
}

/* f at position 0 of w[0..n-1] (n >= 1) with the loop back to position
 * loop: 1, 0, or -1 when out of memory. */
static inline int rerssim_eval(const rs_f *f, const int *w, size_t n, size_t loop)
{
    if (!n || loop >= n)
        return -1;
    char *v = rs_eval(f, w, n, loop);
    int r = v ? v[0] : -1;
    free(v);
    return r;
}

/* ---- replaying a counterexample ---- */

enum { RERSSIM_REPEAT = 1 };                   /* flags */
enum { RERSSIM_LASSO = 1, RERSSIM_DEADLOCK };   /* how a run ends */

typedef struct rerssim_run {
    int kind;
    int *word;            /* labels; with RERSSIM_DEADLOCK a last -1, the dead state's */
    size_t n, loop;       /* the lasso: positions 0..n-1, n-1 followed by loop */
    size_t steps;         /* actions printed */
    /* the *** initial/final state *** lines: 1 each names the LTS states
     * of a global state the run can be in (an item "s7" or "7" for node
     * 7), 0 if one does not (state_err says which), -1 if none was read.
     * The spec fixes no form for them, so the replay does not fail on it. */
    int state_lines;
    char state_err[256];
} rerssim_run;

static inline void rerssim_run_free(rerssim_run *r)
{
    free(r->word);
    memset(r, 0, sizeof *r);
}

RS_PRINTF(4, 5)
static inline int rs_reject(char *err, size_t errlen, int lineno, const char *fmt, ...)
{
    if (!errlen)
        return -1;
    int k = snprintf(err, errlen, "run line %d: ", lineno);
    if (k >= 0 && (size_t)k < errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err + k, errlen - (size_t)k, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static inline int rs_is(const char *p, size_t len, const char *w)
{
    return len == strlen(w) && !strncmp(p, w, len);
}

static inline int rs_starts(const char *p, size_t len, const char *w)
{
    return len >= strlen(w) && !strncmp(p, w, strlen(w));
}

/* Whether item names node name: equal, or name after a prefix that does
 * not end in a digit ("s7" for 7, not "17"). */
static inline int rs_item_names(const char *item, size_t len, const char *name)
{
    size_t k = strlen(name);
    if (len == k)
        return !strncmp(item, name, k);
    return len > k && !strncmp(item + len - k, name, k) &&
           !(isdigit((unsigned char)name[0]) && isdigit((unsigned char)item[len - k - 1]));
}

/* Whether "a, b, c" (len chars) names exactly the LTS states of g. */
static inline int rs_names_state(const rerssim *m, const char *s, size_t len, const int *g)
{
    int items = 0;
    for (size_t i = 0; i <= len;) {
        size_t j = i;
        while (j < len && s[j] != ',')
            j++;
        size_t a = i, b = j;
        while (a < b && s[a] == ' ')
            a++;
        while (b > a && s[b - 1] == ' ')
            b--;
        int hits = 0;
        for (int k = 0; k < m->nlts; k++)
            hits += rs_item_names(s + a, b - a, m->lts[k].states[g[k]]);
        if (hits != 1)
            return 0;
        items++;
        i = j + 1;
    }
    return items == m->nlts;
}

/* The states of the line "*** WHAT: ... ***" against the set cur. */
static inline void rs_state_line(const rerssim *m, const char *line, size_t len, const char *what,
                                 const rs_set *cur, rerssim_run *r)
{
    size_t pre = strlen(what) + 6;   /* "*** " WHAT ": " */
    int ok = 0;
    if (len >= pre + 4 && rs_is(line + len - 4, 4, " ***"))
        for (size_t i = 0; i < cur->n && !ok; i++)
            ok = rs_names_state(m, line + pre, len - pre - 4, rs_set_at(cur, i));
    if (!ok && r->state_lines != 0) {
        char name[200] = "";
        if (cur->n)
            rerssim_state_name(m, rs_set_at(cur, 0), name, sizeof name);
        snprintf(r->state_err, sizeof r->state_err, "\"%.*s\" does not name %s%s", (int)(len < 120 ? len : 120),
                 line, cur->n > 1 ? "any of the possible states, e.g. " : "the state ", name);
    }
    if (r->state_lines != 0)
        r->state_lines = ok;
}

static inline int rs_image_cb(void *ctx, int label, const int *to)
{
    (void)label;
    return rs_set_add(ctx, to) < 0 ? -1 : 0;
}

/* to = the l-successors of the states in from; -1 out of memory */
static inline int rs_image(const rerssim *m, const rs_set *from, int l, rs_set *to)
{
    rs_set_clear(to);
    for (size_t i = 0; i < from->n; i++)
        if (rerssim_successors(m, rs_set_at(from, i), l, rs_image_cb, to) < 0)
            return -1;
    return 0;
}

/* Whether some state s of start has s -w[0..n)-> s.  Set images alone do
 * not do: {s,t} can map onto itself with s -> t -> s and no state coming
 * back to itself after one round, which is no loop of the printed length. */
static inline int rs_closes(const rerssim *m, const rs_set *start, const int *w, size_t n)
{
    rs_set a, b;
    rs_set_init(&a, m->nlts);
    rs_set_init(&b, m->nlts);
    int found = 0;
    for (size_t i = 0; i < start->n && found == 0; i++) {
        rs_set_clear(&a);
        if (rs_set_add(&a, rs_set_at(start, i)) < 0) {
            found = -1;
            break;
        }
        for (size_t k = 0; k < n && a.n && found == 0; k++) {
            if (rs_image(m, &a, w[k], &b) < 0)
                found = -1;
            rs_set t = a;
            a = b;
            b = t;
        }
        if (found == 0)
            found = rs_set_find(&a, rs_set_at(start, i)) >= 0;
    }
    rs_set_free(&a);
    rs_set_free(&b);
    return found;
}

static inline int rs_push(rerssim_run *r, size_t *cap, int label)
{
    if (rs_reserve(&r->word, cap, r->n, sizeof *r->word) < 0)
        return -1;
    r->word[r->n++] = label;
    return 0;
}

/* Checks a counterexample printed as
 *     *** initial state: ... ***
 *     LABEL                          one action per line
 *     *** loop starts here ***
 *     LABEL ...
 *     *** loop ends here ***
 * (lines before the initial state that start with "Property", "Result:"
 * or "Counterexample:" are skipped; the run ends at "Time needed",
 * "Expected:", "Property" or the end of the text): every action possible,
 * the loop a cycle of the composed system, f (if not NULL) false on the
 * word prefix.loop^omega.  A run that ends with "*** final state: ... ***"
 * and "*** run ends in a deadlock ***" is a finite trace, no
 * counterexample in RERS mode (§4.3); with RERSSIM_REPEAT it is the word
 * prefix followed by the dead state forever, no action at those positions.
 * 0 if valid; -1 with the reason in err.  r (if not NULL) gets the word. */
static inline int rerssim_replay(const rerssim *m, const rs_f *f, const char *text, int flags,
                                 rerssim_run *r, char *err, size_t errlen)
{
    rerssim_run mine;
    if (!r)
        r = &mine;
    memset(r, 0, sizeof *r);
    r->state_lines = -1;
    if (errlen)
        err[0] = '\0';
    rs_set cur, next, loopset;
    rs_set_init(&cur, m->nlts);
    rs_set_init(&next, m->nlts);
    rs_set_init(&loopset, m->nlts);
    size_t cap = 0;
    int lineno = 0, rc = 0, started = 0, in_loop = 0, done = 0, final = 0;
    for (const char *p = text; *p && !rc;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        const char *line = p;
        p = e ? e + 1 : p + len;
        lineno++;
        while (len && (line[len - 1] == '\r' || line[len - 1] == ' '))
            len--;
        if (!started) {
            if (rs_starts(line, len, "Property") || rs_starts(line, len, "Result:") ||
                rs_is(line, len, "Counterexample:"))
                continue;
            if (!rs_starts(line, len, "*** initial state: "))
                rc = rs_reject(err, errlen, lineno, "expected the initial state line: %.*s", (int)len,
                               line);
            else if (rs_set_add(&cur, m->init) < 0)
                rc = rs_reject(err, errlen, lineno, "out of memory");
            else
                rs_state_line(m, line, len, "initial state", &cur, r);
            started = 1;
            continue;
        }
        if (rs_starts(line, len, "Time needed") || rs_starts(line, len, "Expected:") ||
            rs_starts(line, len, "Property"))
            break;
        if (done) {
            rc = rs_reject(err, errlen, lineno, "unexpected after the end of the run: %.*s", (int)len,
                           line);
        } else if (final) {
            if (!rs_is(line, len, "*** run ends in a deadlock ***")) {
                rc = rs_reject(err, errlen, lineno, "expected the deadlock line: %.*s", (int)len, line);
            } else if (!(flags & RERSSIM_REPEAT)) {
                rc = rs_reject(err, errlen, lineno,
                               "the run ends in a deadlock: a finite trace, no counterexample (§4.3)");
            } else {
                /* only a dead state can repeat with no action */
                rs_set_clear(&next);
                for (size_t i = 0; i < cur.n && !rc; i++)
                    if (rerssim_dead(m, rs_set_at(&cur, i)) && rs_set_add(&next, rs_set_at(&cur, i)) < 0)
                        rc = rs_reject(err, errlen, lineno, "out of memory");
                if (!rc && !next.n)
                    rc = rs_reject(err, errlen, lineno, "the run does not end in a deadlock");
                r->loop = r->n;
                if (!rc && rs_push(r, &cap, -1) < 0)
                    rc = rs_reject(err, errlen, lineno, "out of memory");
                r->kind = RERSSIM_DEADLOCK;
                done = 1;
            }
        } else if (rs_is(line, len, "*** loop starts here ***")) {
            if (in_loop)
                rc = rs_reject(err, errlen, lineno, "a second loop start");
            in_loop = 1;
            r->loop = r->n;
            rs_set_clear(&loopset);
            for (size_t i = 0; i < cur.n && !rc; i++)
                if (rs_set_add(&loopset, rs_set_at(&cur, i)) < 0)
                    rc = rs_reject(err, errlen, lineno, "out of memory");
        } else if (rs_is(line, len, "*** loop ends here ***")) {
            int c = 0;
            if (!in_loop)
                rc = rs_reject(err, errlen, lineno, "loop end without a loop start");
            else if (r->n == r->loop)
                rc = rs_reject(err, errlen, lineno, "a loop without actions");
            else if ((c = rs_closes(m, &loopset, r->word + r->loop, r->n - r->loop)) < 0)
                rc = rs_reject(err, errlen, lineno, "out of memory");
            else if (!c)
                rc = rs_reject(err, errlen, lineno,
                               "the loop does not return to a state where it started");
            r->kind = RERSSIM_LASSO;
            done = 1;
        } else if (rs_starts(line, len, "*** final state: ")) {
            if (in_loop)
                rc = rs_reject(err, errlen, lineno, "a final state inside the loop");
            rs_state_line(m, line, len, "final state", &cur, r);
            final = 1;
        } else if (rs_starts(line, len, "***")) {
            rc = rs_reject(err, errlen, lineno, "unexpected: %.*s", (int)len, line);
        } else {
            size_t a = 0;
            while (a < len && (line[a] == ' ' || line[a] == '\t'))
                a++;
            char *name = rs_strndup(line + a, len - a);
            int l = name ? rerssim_label(m, name) : -1;
            if (!name)
                rc = rs_reject(err, errlen, lineno, "out of memory");
            else if (l < 0)
                rc = rs_reject(err, errlen, lineno, "\"%s\" is not an action of the system", name);
            else if (rs_image(m, &cur, l, &next) < 0 || rs_push(r, &cap, l) < 0)
                rc = rs_reject(err, errlen, lineno, "out of memory");
            else if (!next.n) {
                char st[200];
                rerssim_state_name(m, rs_set_at(&cur, 0), st, sizeof st);
                rc = rs_reject(err, errlen, lineno, "action %s is not possible in %s%s (step %zu)", name,
                               st, cur.n > 1 ? " nor in any other state the run can be in" : "",
                               r->steps + 1);
            } else {
                rs_set t = cur;
                cur = next;
                next = t;
                r->steps++;
            }
            free(name);
        }
    }
    if (!rc && !started)
        rc = rs_reject(err, errlen, lineno, "no run");
    else if (!rc && !done)
        rc = rs_reject(err, errlen, lineno, "%s",
                       in_loop ? "the loop has no end"
                       : final ? "a finite run without a deadlock: no counterexample of LTL"
                               : "the run has neither a loop nor a deadlock end");
    if (!rc && f) {
        int v = rerssim_eval(f, r->word, r->n, r->loop);
        if (v < 0)
            rc = rs_fail(err, errlen, "out of memory");
        else if (v)
            rc = rs_fail(err, errlen, "the formula holds on the run (prefix of %zu, loop of %zu%s)",
                         r->loop, r->n - r->loop,
                         r->kind == RERSSIM_DEADLOCK ? ": the dead state repeating" : " actions");
    }
    rs_set_free(&cur);
    rs_set_free(&next);
    rs_set_free(&loopset);
    if (r == &mine || rc)
        rerssim_run_free(r);
    if (rc && r != &mine)
        r->state_lines = -1;
    return rc;
}

#endif
