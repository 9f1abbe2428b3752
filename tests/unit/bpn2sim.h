/* A B(PN)² interpreter of its own for the tests, written from
 * docs/bpn2-format.md §2-§4 and the man page's settled points alone.  It
 * shares no code with mck's reader (input/bpn2/) and knows no Petri net:
 * a state is the program's control position, kept per syntax node (which
 * child of a sequence runs, which alternative was chosen, which loop clause
 * runs; a finished choice or loop forgets how it got there), plus the
 * values of the variables and the contents of the channels.  A misreading of the doc in the net translation shows up here
 * as a disagreement instead of being repeated.
 *
 *   bs_load(path, err, n), bs_free
 *   bs_count(m, limit)                reachable states, breadth-first
 *   bs_replay(m, run, final, err, n)  0 if a run printed by mck is valid;
 *                                     final (m->nstate longs) gets the last state
 *   bs_prop(m, state, text)           "x = v" / "at L" on a state
 *
 * Input is assumed to be a valid program of the fragment; anything
 * unexpected is an error string, never a crash. */
#ifndef MCK_TEST_BPN2SIM_H
#define MCK_TEST_BPN2SIM_H

#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BS_UNSET LONG_MIN

enum { BE_INT, BE_VAR, BE_NEG, BE_ADD, BE_SUB, BE_MUL, BE_DIV, BE_MOD, BE_EQ, BE_NE, BE_LT,
       BE_LE, BE_GT, BE_GE, BE_AND, BE_OR, BE_NOT, BE_TRUE, BE_FALSE };
enum { BM_PLAIN, BM_PRE, BM_POST, BM_SEND, BM_RECV };
enum { BC_ACT_, BC_SEQ_, BC_CHOICE_, BC_PAR_, BC_LOOP_ };

typedef struct bs_expr {
    int op, var, mode;
    long v;
    struct bs_expr *l, *r;
} bs_expr;

typedef struct bs_decl {
    char name[64], display[96];
    int chan, cap, has_init;
    long lo, hi, init;
    int off;          /* in the data vector: the value, or the length then cap slots */
} bs_decl;

typedef struct bs_act {
    long line;
    char text[512], branch[64];
    bs_expr *e;
    int send, recv, node;
} bs_act;

typedef struct bs_node {
    int kind, act, n, size;   /* size: nodes in the subtree (preorder ids) */
    int kids[64], rep[64];
} bs_node;

typedef struct bpn2sim {
    bs_decl decls[64];
    int nd;
    bs_act acts[128];
    int na;
    bs_node nodes[512];
    int nn;
    int ndata, nstate;        /* nstate = nn control ints + ndata */
    /* parsing */
    const char *s;
    long line;
    int scope[64], nscope;
    char err[256];
    int depth;
    int cur_send, cur_recv;
} bpn2sim;

/* ---------------- parsing ---------------- */

static int bs_fail(bpn2sim *m, const char *fmt, ...)
{
    if (!m->err[0]) {
        va_list ap;
        va_start(ap, fmt);
        int k = snprintf(m->err, sizeof m->err, "line %ld: ", m->line);
        vsnprintf(m->err + k, sizeof m->err - (size_t)k, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static void bs_ws(bpn2sim *m)
{
    for (;;) {
        while (*m->s && isspace((unsigned char)*m->s)) {
            if (*m->s == '\n')
                m->line++;
            m->s++;
        }
        if (m->s[0] == '/' && m->s[1] == '/') {
            while (*m->s && *m->s != '\n')
                m->s++;
        } else if (m->s[0] == '/' && m->s[1] == '*') {
            m->s += 2;
            while (*m->s && !(m->s[0] == '*' && m->s[1] == '/')) {
                if (*m->s == '\n')
                    m->line++;
                m->s++;
            }
            if (*m->s)
                m->s += 2;
        } else {
            return;
        }
    }
}

/* The next word (letters, digits, _) without consuming it. */
static int bs_word_is(bpn2sim *m, const char *w)
{
    bs_ws(m);
    size_t n = strlen(w);
    return !strncmp(m->s, w, n) && !isalnum((unsigned char)m->s[n]) && m->s[n] != '_';
}

static int bs_eat(bpn2sim *m, const char *sym)
{
    bs_ws(m);
    size_t n = strlen(sym);
    if (isalpha((unsigned char)sym[0]) ? !bs_word_is(m, sym) : strncmp(m->s, sym, n) != 0)
        return 0;
    m->s += n;
    return 1;
}

static int bs_ident(bpn2sim *m, char *out, size_t len)
{
    bs_ws(m);
    size_t n = 0;
    if (!isalpha((unsigned char)*m->s))
        return bs_fail(m, "identifier expected at '%.10s'", m->s);
    while (isalnum((unsigned char)m->s[n]) || m->s[n] == '_')
        n++;
    if (n >= len)
        return bs_fail(m, "identifier too long");
    memcpy(out, m->s, n);
    out[n] = '\0';
    m->s += n;
    return 0;
}

static int bs_number(bpn2sim *m, long *v)
{
    bs_ws(m);
    int neg = bs_eat(m, "-");
    bs_ws(m);
    if (!isdigit((unsigned char)*m->s))
        return bs_fail(m, "number expected");
    *v = strtol(m->s, (char **)&m->s, 10);
    if (neg)
        *v = -*v;
    return 0;
}

static int bs_lookup(bpn2sim *m, const char *name)
{
    for (int i = m->nscope; i-- > 0;)
        if (!strcmp(m->decls[m->scope[i]].name, name))
            return m->scope[i];
    return -1;
}

static bs_expr *bs_new(int op, bs_expr *l, bs_expr *r)
{
    bs_expr *e = calloc(1, sizeof *e);
    if (e) {
        e->op = op;
        e->l = l;
        e->r = r;
    }
    return e;
}

static void bs_expr_free(bs_expr *e)
{
    if (e) {
        bs_expr_free(e->l);
        bs_expr_free(e->r);
        free(e);
    }
}

static bs_expr *bs_or(bpn2sim *m);

static bs_expr *bs_primary(bpn2sim *m)
{
    bs_ws(m);
    if (bs_eat(m, "(")) {
        bs_expr *e = bs_or(m);
        if (!bs_eat(m, ")")) {
            bs_expr_free(e);
            bs_fail(m, "')' expected");
            return NULL;
        }
        return e;
    }
    if (isdigit((unsigned char)*m->s)) {
        bs_expr *e = bs_new(BE_INT, NULL, NULL);
        if (e)
            e->v = strtol(m->s, (char **)&m->s, 10);
        return e;
    }
    if (bs_eat(m, "true"))
        return bs_new(BE_TRUE, NULL, NULL);
    if (bs_eat(m, "false"))
        return bs_new(BE_FALSE, NULL, NULL);
    int mode = BM_PLAIN;
    if (bs_eat(m, "'"))
        mode = BM_PRE;
    char name[64];
    if (bs_ident(m, name, sizeof name) < 0)
        return NULL;
    int d = bs_lookup(m, name);
    if (d < 0) {
        bs_fail(m, "unknown %s", name);
        return NULL;
    }
    if (mode == BM_PLAIN && *m->s == '\'') {
        m->s++;
        mode = BM_POST;
    } else if (mode == BM_PLAIN && *m->s == '!') {
        m->s++;
        mode = BM_SEND;
        m->cur_send = d;
    } else if (mode == BM_PLAIN && *m->s == '?') {
        m->s++;
        mode = BM_RECV;
        m->cur_recv = d;
    }
    bs_expr *e = bs_new(BE_VAR, NULL, NULL);
    if (e) {
        e->var = d;
        e->mode = mode;
    }
    return e;
}

static bs_expr *bs_unary(bpn2sim *m)
{
    if (bs_eat(m, "-"))
        return bs_new(BE_NEG, bs_unary(m), NULL);
    if (bs_eat(m, "not"))
        return bs_new(BE_NOT, bs_unary(m), NULL);
    return bs_primary(m);
}

static bs_expr *bs_mul(bpn2sim *m)
{
    bs_expr *e = bs_unary(m);
    for (;;) {
        int op = bs_eat(m, "*") ? BE_MUL : bs_eat(m, "/") ? BE_DIV : bs_eat(m, "mod") ? BE_MOD : 0;
        if (!op)
            return e;
        e = bs_new(op, e, bs_unary(m));
    }
}

static bs_expr *bs_addsub(bpn2sim *m)
{
    bs_expr *e = bs_mul(m);
    for (;;) {
        int op = bs_eat(m, "+") ? BE_ADD : bs_eat(m, "-") ? BE_SUB : 0;
        if (!op)
            return e;
        e = bs_new(op, e, bs_mul(m));
    }
}

/* '>' compares only when an operand follows; otherwise it ends the action */
static int bs_gt_compares(bpn2sim *m)
{
    const char *p = m->s + 1;
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    static const char *const closing[] = {"end", "od", "do", "begin", "repeat", "exit", "var",
                                          "and", "or", "mod", "of", "chan", "init", NULL};
    for (int i = 0; isalpha((unsigned char)*p) && closing[i]; i++) {
        size_t n = strlen(closing[i]);
        if (!strncmp(p, closing[i], n) && !isalnum((unsigned char)p[n]) && p[n] != '_')
            return 0;
    }
    return isalnum((unsigned char)*p) || *p == '(' || *p == '\'' || *p == '-';
}

static bs_expr *bs_cmp(bpn2sim *m)
{
    bs_expr *e = bs_addsub(m);
    bs_ws(m);
    int op = bs_eat(m, "<=") ? BE_LE : bs_eat(m, ">=") ? BE_GE : bs_eat(m, "!=") ? BE_NE
           : bs_eat(m, "=") ? BE_EQ : bs_eat(m, "<") ? BE_LT : 0;
    if (!op && *m->s == '>' && bs_gt_compares(m)) {
        m->s++;
        op = BE_GT;
    }
    return op ? bs_new(op, e, bs_addsub(m)) : e;
}

static bs_expr *bs_and(bpn2sim *m)
{
    bs_expr *e = bs_cmp(m);
    while (bs_eat(m, "and"))
        e = bs_new(BE_AND, e, bs_cmp(m));
    return e;
}

static bs_expr *bs_or(bpn2sim *m)
{
    bs_expr *e = bs_and(m);
    while (bs_eat(m, "or"))
        e = bs_new(BE_OR, e, bs_and(m));
    return e;
}

static int bs_node_new(bpn2sim *m, int kind)
{
    if (m->nn >= (int)(sizeof m->nodes / sizeof *m->nodes))
        return bs_fail(m, "too many nodes");
    memset(&m->nodes[m->nn], 0, sizeof m->nodes[0]);
    m->nodes[m->nn].kind = kind;
    return m->nn++;
}

static int bs_com(bpn2sim *m, const char *branch);

static int bs_action(bpn2sim *m, const char *branch)
{
    if (m->na >= (int)(sizeof m->acts / sizeof *m->acts))
        return bs_fail(m, "too many actions");
    bs_act *a = &m->acts[m->na];
    a->line = m->line;
    snprintf(a->branch, sizeof a->branch, "%s", branch);
    bs_ws(m);
    const char *start = m->s;
    m->cur_send = m->cur_recv = -1;
    a->e = bs_or(m);
    bs_ws(m);
    if (!a->e || *m->s != '>')
        return bs_fail(m, "'>' expected");
    size_t n = 0;
    int blank = 0;
    for (const char *p = start; p < m->s && n + 2 < sizeof a->text; p++) {
        if (isspace((unsigned char)*p)) {
            blank = 1;
            continue;
        }
        if (blank && n)
            a->text[n++] = ' ';
        blank = 0;
        a->text[n++] = *p;
    }
    a->text[n] = '\0';
    m->s++;
    a->send = m->cur_send;
    a->recv = m->cur_recv;
    int id = bs_node_new(m, BC_ACT_);
    if (id < 0)
        return -1;
    m->nodes[id].act = m->na;
    a->node = id;
    m->na++;
    return id;
}

static int bs_decl_list(bpn2sim *m)
{
    while (bs_eat(m, "var")) {
        int first = m->nd;
        do {
            if (m->nd >= 64)
                return bs_fail(m, "too many declarations");
            bs_decl *d = &m->decls[m->nd];
            memset(d, 0, sizeof *d);
            if (bs_ident(m, d->name, sizeof d->name) < 0)
                return -1;
            int hides = 0;
            for (int i = 0; i < m->nd; i++)
                hides |= !strcmp(m->decls[i].name, d->name);
            char nm[64];
            memcpy(nm, d->name, sizeof nm);
            if (hides)
                snprintf(d->display, sizeof d->display, "%s@%ld", nm, m->line);
            else
                snprintf(d->display, sizeof d->display, "%s", nm);
            m->scope[m->nscope++] = m->nd++;
        } while (bs_eat(m, ","));
        if (!bs_eat(m, ":"))
            return bs_fail(m, "':' expected");
        int chan = bs_eat(m, "chan");
        long cap = 0, lo, hi, init = 0;
        if (chan && (bs_number(m, &cap) < 0 || !bs_eat(m, "of")))
            return bs_fail(m, "bad channel type");
        if (!bs_eat(m, "{") || bs_number(m, &lo) < 0 || !bs_eat(m, "..") ||
            bs_number(m, &hi) < 0 || !bs_eat(m, "}"))
            return bs_fail(m, "bad range");
        int has_init = bs_eat(m, "init");
        if (has_init && bs_number(m, &init) < 0)
            return -1;
        if (!bs_eat(m, ";"))
            return bs_fail(m, "';' expected after a declaration");
        for (int i = first; i < m->nd; i++) {
            bs_decl *d = &m->decls[i];
            d->chan = chan;
            d->cap = (int)cap;
            d->lo = lo;
            d->hi = hi;
            d->has_init = has_init;
            d->init = init;
            d->off = m->ndata;
            m->ndata += chan ? 1 + (int)cap : 1;
        }
    }
    return 0;
}

static int bs_unit(bpn2sim *m, const char *branch)
{
    if (++m->depth > 200)
        return bs_fail(m, "too deep");
    int id;
    if (bs_eat(m, "<")) {
        id = bs_action(m, branch);
    } else if (bs_eat(m, "begin")) {
        int scope = m->nscope;
        id = bs_decl_list(m) < 0 ? -1 : bs_com(m, branch);
        if (id >= 0 && !bs_eat(m, "end"))
            id = bs_fail(m, "'end' expected");
        m->nscope = scope;
    } else if (bs_eat(m, "(")) {
        id = bs_com(m, branch);
        if (id >= 0 && !bs_eat(m, ")"))
            id = bs_fail(m, "')' expected");
    } else if (bs_eat(m, "do")) {
        id = bs_node_new(m, BC_LOOP_);
        while (id >= 0) {
            int k = bs_com(m, branch);
            if (k < 0 || !bs_eat(m, ";"))
                return bs_fail(m, "'; repeat' or '; exit' expected");
            int rep = bs_eat(m, "repeat");
            if (!rep && !bs_eat(m, "exit"))
                return bs_fail(m, "'repeat' or 'exit' expected");
            bs_node *n = &m->nodes[id];
            if (n->n >= 64)
                return bs_fail(m, "too many clauses");
            n->rep[n->n] = rep;
            n->kids[n->n++] = k;
            if (!bs_eat(m, "[]"))
                break;
        }
        if (id >= 0 && !bs_eat(m, "od"))
            id = bs_fail(m, "'od' expected");
    } else {
        id = bs_fail(m, "command expected at '%.10s'", m->s);
    }
    m->depth--;
    return id;
}

/* "; repeat" and "; exit" end a loop clause, not a sequence */
static int bs_semi_continues(bpn2sim *m)
{
    bs_ws(m);
    if (*m->s != ';')
        return 0;
    const char *save = m->s;
    long line = m->line;
    m->s++;
    int end = bs_word_is(m, "repeat") || bs_word_is(m, "exit");
    m->s = save;
    m->line = line;
    return !end;
}

static int bs_seq(bpn2sim *m, const char *branch)
{
    int first = bs_unit(m, branch);
    if (first < 0 || !bs_semi_continues(m))
        return first;
    int id = bs_node_new(m, BC_SEQ_);
    if (id < 0)
        return -1;
    m->nodes[id].kids[m->nodes[id].n++] = first;
    while (bs_semi_continues(m)) {
        bs_eat(m, ";");
        int k = bs_unit(m, branch);
        if (k < 0 || m->nodes[id].n >= 64)
            return bs_fail(m, "bad sequence");
        m->nodes[id].kids[m->nodes[id].n++] = k;
    }
    return id;
}

static int bs_choice(bpn2sim *m, const char *branch)
{
    int first = bs_seq(m, branch);
    bs_ws(m);
    if (first < 0 || strncmp(m->s, "[]", 2))
        return first;
    int id = bs_node_new(m, BC_CHOICE_);
    if (id < 0)
        return -1;
    m->nodes[id].kids[m->nodes[id].n++] = first;
    while (bs_eat(m, "[]")) {
        int k = bs_seq(m, branch);
        if (k < 0 || m->nodes[id].n >= 64)
            return bs_fail(m, "bad choice");
        m->nodes[id].kids[m->nodes[id].n++] = k;
    }
    return id;
}

/* Branch numbers need the number of parts first: parse with a trial
 * name, then rename.  Simpler: the parts of a || are numbered as they are
 * met, so each part is parsed with its own branch name directly. */
static int bs_com(bpn2sim *m, const char *branch)
{
    char sub[64];
    const char *save = m->s;
    long line = m->line;
    int na = m->na, nn = m->nn, nd = m->nd, ndata = m->ndata, nscope = m->nscope;
    /* first try: is this a parallel composition? parse part 1 as "1" */
    snprintf(sub, sizeof sub, "%s%s1", strcmp(branch, "0") ? branch : "",
             strcmp(branch, "0") ? "." : "");
    int first = bs_choice(m, sub);
    if (first < 0)
        return -1;
    if (!bs_eat(m, "||")) {
        /* not parallel: parse again under the enclosing branch name */
        for (int i = na; i < m->na; i++)
            bs_expr_free(m->acts[i].e);
        m->s = save;
        m->line = line;
        m->na = na;
        m->nn = nn;
        m->nd = nd;
        m->ndata = ndata;
        m->nscope = nscope;
        return bs_choice(m, branch);
    }
    int id = bs_node_new(m, BC_PAR_);
    if (id < 0)
        return -1;
    m->nodes[id].kids[m->nodes[id].n++] = first;
    do {
        snprintf(sub, sizeof sub, "%s%s%d", strcmp(branch, "0") ? branch : "",
                 strcmp(branch, "0") ? "." : "", m->nodes[id].n + 1);
        int k = bs_choice(m, sub);
        if (k < 0 || m->nodes[id].n >= 64)
            return bs_fail(m, "bad parallel composition");
        m->nodes[id].kids[m->nodes[id].n++] = k;
    } while (bs_eat(m, "||"));
    return id;
}

/* Node ids are given in creation order, children before parents; the
 * subtree test needs preorder, so the tree is renumbered. */
static int bs_renumber(bpn2sim *m, int old, bs_node *out, int *next)
{
    int id = (*next)++;
    out[id] = m->nodes[old];
    if (out[id].kind == BC_ACT_)
        m->acts[out[id].act].node = id;
    for (int i = 0; i < out[id].n; i++)
        out[id].kids[i] = bs_renumber(m, m->nodes[old].kids[i], out, next);
    out[id].size = *next - id;
    return id;
}

static void bs_free(bpn2sim *m)
{
    if (!m)
        return;
    for (int i = 0; i < m->na; i++)
        bs_expr_free(m->acts[i].e);
    free(m);
}

static bpn2sim *bs_parse(const char *text, char *err, size_t errlen)
{
    bpn2sim *m = calloc(1, sizeof *m);
    if (!m) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    m->s = text;
    m->line = 1;
    int root = -1;
    if (!bs_eat(m, "begin"))
        bs_fail(m, "'begin' expected");
    else if (bs_decl_list(m) == 0 && (root = bs_com(m, "0")) >= 0 && !bs_eat(m, "end"))
        root = bs_fail(m, "'end' expected");
    if (root >= 0) {
        bs_node *pre = calloc(sizeof m->nodes / sizeof *m->nodes, sizeof *pre);
        int next = 0;
        if (pre) {
            bs_renumber(m, root, pre, &next);
            memcpy(m->nodes, pre, sizeof m->nodes);
            m->nn = next;
            free(pre);
        } else {
            root = bs_fail(m, "out of memory");
        }
    }
    if (root < 0) {
        snprintf(err, errlen, "%s", m->err);
        bs_free(m);
        return NULL;
    }
    m->nstate = m->nn + m->ndata;
    return m;
}

static bpn2sim *bs_load(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "cannot open %.200s", path);
        return NULL;
    }
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return bs_parse(buf, err, errlen);
}

/* ---------------- states: control per node, then data ---------------- */

static void bs_reset(const bpn2sim *m, long *s, int node)
{
    for (int i = node; i < node + m->nodes[node].size; i++)
        s[i] = m->nodes[i].kind == BC_CHOICE_ || m->nodes[i].kind == BC_LOOP_ ? -1 : 0;
}

static void bs_initial(const bpn2sim *m, long *s)
{
    bs_reset(m, s, 0);
    long *d = s + m->nn;
    for (int i = 0; i < m->nd; i++) {
        const bs_decl *x = &m->decls[i];
        if (x->chan)
            for (int k = 0; k <= x->cap; k++)
                d[x->off + k] = 0;
        else
            d[x->off] = x->has_init ? x->init : BS_UNSET;
    }
}

static int bs_done(const bpn2sim *m, const long *s, int n)
{
    const bs_node *x = &m->nodes[n];
    switch (x->kind) {
    case BC_ACT_: return s[n] == 1;
    case BC_SEQ_: return s[n] == x->n - 1 && bs_done(m, s, x->kids[x->n - 1]);
    case BC_CHOICE_: return s[n] == -3;
    case BC_LOOP_: return s[n] == -2;
    default:
        for (int i = 0; i < x->n; i++)
            if (!bs_done(m, s, x->kids[i]))
                return 0;
        return 1;
    }
}

/* The actions that may come next, into out[]. */
static void bs_next(const bpn2sim *m, const long *s, int n, int *out, int *nout)
{
    const bs_node *x = &m->nodes[n];
    switch (x->kind) {
    case BC_ACT_:
        if (s[n] == 0)
            out[(*nout)++] = x->act;
        return;
    case BC_SEQ_:
        bs_next(m, s, x->kids[s[n]], out, nout);
        return;
    case BC_CHOICE_:
    case BC_LOOP_:
        if (s[n] >= 0)
            bs_next(m, s, x->kids[s[n]], out, nout);
        else if (s[n] == -1)
            for (int i = 0; i < x->n; i++)
                bs_next(m, s, x->kids[i], out, nout);
        return;
    default:
        for (int i = 0; i < x->n; i++)
            bs_next(m, s, x->kids[i], out, nout);
    }
}

static int bs_within(const bpn2sim *m, int node, int target)
{
    return target >= node && target < node + m->nodes[node].size;
}

/* Executes the action at node target: positions move on, finished parts
 * are reset so that equal positions are equal vectors. */
static void bs_fire(const bpn2sim *m, long *s, int n, int target)
{
    const bs_node *x = &m->nodes[n];
    int k = 0;
    switch (x->kind) {
    case BC_ACT_:
        s[n] = 1;
        return;
    case BC_SEQ_:
        bs_fire(m, s, x->kids[s[n]], target);
        if (s[n] < x->n - 1 && bs_done(m, s, x->kids[s[n]])) {
            bs_reset(m, s, x->kids[s[n]]);
            s[n]++;
        }
        return;
    case BC_CHOICE_:
    case BC_LOOP_:
        if (s[n] == -1)
            while (!bs_within(m, x->kids[k], target))
                k++;
        else
            k = (int)s[n];
        s[n] = k;
        bs_fire(m, s, x->kids[k], target);
        /* a finished choice is finished whichever way it went (its
         * alternatives share their exit), a loop clause goes back or out */
        if (bs_done(m, s, x->kids[k])) {
            bs_reset(m, s, x->kids[k]);
            s[n] = x->kind == BC_CHOICE_ ? -3 : x->rep[k] ? -1 : -2;
        }
        return;
    default:
        while (!bs_within(m, x->kids[k], target))
            k++;
        bs_fire(m, s, x->kids[k], target);
    }
}

/* ---------------- data: evaluation and successors ---------------- */

typedef struct bs_env {
    const long *pre;
    long post[64], sent, received;
} bs_env;

/* 1 true, 0 false, -1 undefined (division by zero, overflow, a value not
 * yet initialised). */
static int bs_eval(const bpn2sim *m, const bs_expr *e, const bs_env *v, long *out)
{
    long a = 0, b = 0;
    switch (e->op) {
    case BE_INT: *out = e->v; return 1;
    case BE_TRUE: *out = 1; return 1;
    case BE_FALSE: *out = 0; return 1;
    case BE_VAR:
        switch (e->mode) {
        case BM_SEND: *out = v->sent; return 1;
        case BM_RECV: *out = v->received; return 1;
        case BM_POST: *out = v->post[e->var]; return 1;
        default:
            *out = v->pre[m->decls[e->var].off];
            return *out == BS_UNSET ? -1 : 1;
        }
    default: break;
    }
    if (bs_eval(m, e->l, v, &a) < 0 || (e->r && bs_eval(m, e->r, v, &b) < 0))
        return -1;
    switch (e->op) {
    case BE_NEG: return __builtin_sub_overflow(0L, a, out) ? -1 : 1;
    case BE_NOT: *out = !a; return 1;
    case BE_ADD: return __builtin_add_overflow(a, b, out) ? -1 : 1;
    case BE_SUB: return __builtin_sub_overflow(a, b, out) ? -1 : 1;
    case BE_MUL: return __builtin_mul_overflow(a, b, out) ? -1 : 1;
    case BE_DIV: if (!b || (a == LONG_MIN && b == -1)) return -1; *out = a / b; return 1;
    case BE_MOD: if (!b) return -1; *out = b == -1 ? 0 : a % b; return 1;
    case BE_EQ: *out = a == b; return 1;
    case BE_NE: *out = a != b; return 1;
    case BE_LT: *out = a < b; return 1;
    case BE_LE: *out = a <= b; return 1;
    case BE_GT: *out = a > b; return 1;
    case BE_GE: *out = a >= b; return 1;
    case BE_AND: *out = a && b; return 1;
    case BE_OR: *out = a || b; return 1;
    }
    return -1;
}

static void bs_writes(const bs_expr *e, int *w)
{
    if (!e)
        return;
    if (e->op == BE_VAR && e->mode == BM_POST)
        w[e->var] = 1;
    bs_writes(e->l, w);
    bs_writes(e->r, w);
}

typedef void (*bs_visit)(void *ctx, const long *next, int a1, int a2);

/* Every successor of s: initial values, single actions, handshakes. */
static void bs_successors(const bpn2sim *m, const long *s, bs_visit visit, void *ctx)
{
    long *t = malloc((size_t)m->nstate * sizeof *t);
    if (!t)
        return;
    const long *d = s + m->nn;
    for (int i = 0; i < m->nd; i++) {
        const bs_decl *x = &m->decls[i];
        if (x->chan || d[x->off] != BS_UNSET)
            continue;
        for (long v = x->lo; v <= x->hi; v++) {
            memcpy(t, s, (size_t)m->nstate * sizeof *t);
            t[m->nn + x->off] = v;
            visit(ctx, t, -1, i);
        }
    }
    int next[128], nnext = 0;
    bs_next(m, s, 0, next, &nnext);
    for (int i = 0; i < nnext; i++) {
        for (int j = -1; j < nnext; j++) {
            const bs_act *a = &m->acts[next[i]], *b = j >= 0 ? &m->acts[next[j]] : NULL;
            int sync = a->send >= 0 && m->decls[a->send].cap == 0;
            int bsync = a->recv >= 0 && m->decls[a->recv].cap == 0;
            if (j < 0 ? (sync || bsync) : (!sync || j == i || b->recv != a->send))
                continue;
            /* the variables written by a (and b) take every value */
            int w[64] = {0};
            bs_writes(a->e, w);
            if (b)
                bs_writes(b->e, w);
            int vars[64], nv = 0;
            for (int k = 0; k < m->nd; k++)
                if (w[k])
                    vars[nv++] = k;
            bs_env env = {.pre = d};
            for (int k = 0; k < m->nd; k++)
                env.post[k] = m->decls[k].chan ? 0 : d[m->decls[k].off];
            const bs_decl *sc = a->send >= 0 ? &m->decls[a->send] : NULL;
            const bs_decl *rc = (b ? b : a)->recv >= 0 ? &m->decls[(b ? b : a)->recv] : NULL;
            if (b)
                rc = NULL;   /* a handshake: the value goes straight across */
            if (!b && a->recv >= 0 && m->decls[a->recv].cap > 0) {
                rc = &m->decls[a->recv];
                if (d[rc->off] == 0)
                    continue;   /* empty */
                env.received = d[rc->off + 1];
            }
            if (sc && sc->cap > 0 && d[sc->off] == sc->cap)
                continue;       /* full */
            int ok = 1;
            for (int k = 0; k < nv && ok; k++)
                ok = d[m->decls[vars[k]].off] != BS_UNSET;
            if (!ok)
                continue;
            long slo = sc ? sc->lo : 0, shi = sc ? sc->hi : 0;
            for (long sv = slo; sv <= shi; sv++) {
                env.sent = sv;
                if (b)
                    env.received = sv;
                /* odometer over the written variables */
                for (int k = 0; k < nv; k++)
                    env.post[vars[k]] = m->decls[vars[k]].lo;
                for (;;) {
                    long r1 = 0, r2 = 1;
                    if (bs_eval(m, a->e, &env, &r1) == 1 && r1 &&
                        (!b || (bs_eval(m, b->e, &env, &r2) == 1 && r2))) {
                        memcpy(t, s, (size_t)m->nstate * sizeof *t);
                        long *td = t + m->nn;
                        for (int k = 0; k < nv; k++)
                            td[m->decls[vars[k]].off] = env.post[vars[k]];
                        if (rc) {   /* take the front, move the rest forward */
                            for (int k = 1; k < td[rc->off]; k++)
                                td[rc->off + k] = td[rc->off + k + 1];
                            td[rc->off + td[rc->off]] = 0;
                            td[rc->off]--;
                        }
                        if (sc && sc->cap > 0)
                            td[sc->off + 1 + td[sc->off]++] = sv;
                        bs_fire(m, t, 0, a->node);
                        if (b)
                            bs_fire(m, t, 0, b->node);
                        visit(ctx, t, next[i], b ? next[j] : -1);
                    }
                    int k = nv;
                    while (k > 0 && env.post[vars[k - 1]] == m->decls[vars[k - 1]].hi) {
                        env.post[vars[k - 1]] = m->decls[vars[k - 1]].lo;
                        k--;
                    }
                    if (k == 0)
                        break;
                    env.post[vars[k - 1]]++;
                }
            }
        }
    }
    free(t);
}

/* ---------------- breadth-first count ---------------- */

typedef struct bs_seen {
    const bpn2sim *m;
    long *states;
    size_t n, cap;
    int overflow;
} bs_seen;

static int bs_find(const bs_seen *v, const long *s)
{
    for (size_t i = 0; i < v->n; i++)
        if (!memcmp(v->states + i * (size_t)v->m->nstate, s, (size_t)v->m->nstate * sizeof *s))
            return 1;
    return 0;
}

static void bs_add(void *ctx, const long *s, int a1, int a2)
{
    bs_seen *v = ctx;
    (void)a1;
    (void)a2;
    if (bs_find(v, s))
        return;
    if (v->n == v->cap) {
        v->overflow = 1;
        return;
    }
    memcpy(v->states + v->n++ * (size_t)v->m->nstate, s, (size_t)v->m->nstate * sizeof *s);
}

/* Reachable states, or -1 beyond limit. */
static long bs_count(const bpn2sim *m, size_t limit)
{
    bs_seen v = {m, malloc(limit * (size_t)m->nstate * sizeof(long)), 0, limit, 0};
    if (!v.states)
        return -1;
    long *s0 = malloc((size_t)m->nstate * sizeof *s0);
    if (!s0) {
        free(v.states);
        return -1;
    }
    bs_initial(m, s0);
    bs_add(&v, s0, -1, -1);
    for (size_t i = 0; i < v.n && !v.overflow; i++) {
        memcpy(s0, v.states + i * (size_t)m->nstate, (size_t)m->nstate * sizeof *s0);
        bs_successors(m, s0, bs_add, &v);
    }
    long n = v.overflow ? -1 : (long)v.n;
    free(s0);
    free(v.states);
    return n;
}

/* ---------------- the printed form of states ---------------- */

static void bs_value_text(const bpn2sim *m, const long *s, int i, char *buf, size_t len)
{
    const bs_decl *x = &m->decls[i];
    const long *d = s + m->nn;
    if (!x->chan) {
        if (d[x->off] == BS_UNSET)
            snprintf(buf, len, "?");
        else
            snprintf(buf, len, "%ld", d[x->off]);
        return;
    }
    size_t n = (size_t)snprintf(buf, len, "[");
    for (long k = 0; k < d[x->off] && n < len; k++)
        n += (size_t)snprintf(buf + n, len - n, "%s%ld", k ? ", " : "", d[x->off + 1 + k]);
    if (n < len)
        snprintf(buf + n, len - n, "]");
}

/* "x = 0, c = []": every variable and buffered channel */
static void bs_state_text(const bpn2sim *m, const long *s, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; i < m->nd && n < len; i++) {
        if (m->decls[i].chan && m->decls[i].cap == 0)
            continue;
        char v[256];
        bs_value_text(m, s, i, v, sizeof v);
        n += (size_t)snprintf(buf + n, len - n, "%s%s = %s", n ? ", " : "", m->decls[i].display, v);
    }
}

/* "x: 0 -> 1, c: [] -> [0]": what changed from s to t */
static void bs_changes_text(const bpn2sim *m, const long *s, const long *t, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; i < m->nd && n < len; i++) {
        if (m->decls[i].chan && m->decls[i].cap == 0)
            continue;
        char a[256], b[256];
        bs_value_text(m, s, i, a, sizeof a);
        bs_value_text(m, t, i, b, sizeof b);
        if (strcmp(a, b))
            n += (size_t)snprintf(buf + n, len - n, "%s%s: %s -> %s", n ? ", " : "",
                                  m->decls[i].display, a, b);
    }
}

/* ---------------- replaying a printed run ---------------- */

/* A printed step may fit several successors (two actions with the same
 * text on one line), so a replay follows every state the run may be in:
 * entries of 2 * nstate longs, the state and the state where the loop
 * started (all BS_UNSET before the loop). */
typedef struct bs_set {
    long *v;
    size_t n, cap, width;
} bs_set;

static int bs_set_add(bs_set *f, const long *state, const long *origin, size_t nstate)
{
    for (size_t i = 0; i < f->n; i++)
        if (!memcmp(f->v + i * f->width, state, nstate * sizeof *state) &&
            !memcmp(f->v + i * f->width + nstate, origin, nstate * sizeof *state))
            return 0;
    if (f->n == f->cap) {
        size_t ncap = f->cap ? 2 * f->cap : 16;
        long *n = realloc(f->v, ncap * f->width * sizeof *n);
        if (!n)
            return -1;
        f->v = n;
        f->cap = ncap;
    }
    memcpy(f->v + f->n * f->width, state, nstate * sizeof *state);
    memcpy(f->v + f->n * f->width + nstate, origin, nstate * sizeof *state);
    f->n++;
    return 0;
}

typedef struct bs_match {
    const bpn2sim *m;
    const long *from, *origin;
    const char *want;      /* the step's text after "step N  " */
    bs_set *into;
    int failed;
} bs_match;

static void bs_act_text(const bpn2sim *m, int a, char *buf, size_t len)
{
    const bs_act *x = &m->acts[a];
    snprintf(buf, len, "[%s]  line %ld  <%s>", x->branch, x->line, x->text);
}

/* Prints the successor the way mck prints a step, and keeps it when the
 * texts agree. */
static void bs_try(void *ctx, const long *t, int a1, int a2)
{
    bs_match *q = ctx;
    const bpn2sim *m = q->m;
    char line[4096], ch[1024];
    if (a1 < 0) {
        const bs_decl *x = &m->decls[a2];
        snprintf(line, sizeof line, "init %s = %ld", x->display, t[m->nn + x->off]);
    } else {
        char t1[600], t2[620] = "", tb[600];
        bs_act_text(m, a1, t1, sizeof t1);
        if (a2 >= 0) {
            bs_act_text(m, a2, tb, sizeof tb);
            snprintf(t2, sizeof t2, "  ||  %s", tb);
        }
        bs_changes_text(m, q->from, t, ch, sizeof ch);
        snprintf(line, sizeof line, "%s%s%s%s", t1, t2, ch[0] ? "  " : "", ch);
    }
    if (!strcmp(line, q->want) && bs_set_add(q->into, t, q->origin, (size_t)m->nstate) < 0)
        q->failed = 1;
}

static int bs_replay_fail(char *err, size_t n, long lineno, const char *fmt, const char *arg)
{
    int k = snprintf(err, n, "run line %ld: ", lineno);
    snprintf(err + k, n - (size_t)k, fmt, arg);
    return -1;
}

static int bs_dead(const bpn2sim *m, const long *s)
{
    long *t = malloc((size_t)m->nstate * sizeof *t);
    if (!t)
        return 0;
    bs_seen v = {m, t, 0, 1, 0};
    bs_successors(m, s, bs_add, &v);
    int dead = v.n == 0 && !v.overflow && !bs_done(m, s, 0);
    free(t);
    return dead;
}

/* 0 when the printed run is a run of the program: every step one it can
 * take from a state the run may be in, with exactly the printed changes;
 * the printed states, the closing of a loop and a deadlock claim hold on
 * at least one way through.  -1 with a reason.  final (m->nstate longs,
 * may be NULL) gets a last state. */
static int bs_replay(const bpn2sim *m, const char *run, long *final, char *err, size_t errlen)
{
    size_t ns = (size_t)m->nstate, sz = ns * sizeof(long);
    bs_set cur = {NULL, 0, 0, 2 * ns}, next = {NULL, 0, 0, 2 * ns};
    long *s0 = malloc(sz), *unset = malloc(sz);
    int rc = 0, nsteps = 0;
    if (!s0 || !unset) {
        free(s0);
        free(unset);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < ns; i++)
        unset[i] = BS_UNSET;
    bs_initial(m, s0);
    bs_set_add(&cur, s0, unset, ns);
    char line[4096], text[4096];
    long lineno = 0;
    for (const char *p = run; *p && rc == 0;) {
        size_t n = strcspn(p, "\n");
        snprintf(line, sizeof line, "%.*s", (int)n, p);
        p += n + (p[n] == '\n');
        lineno++;
        next.n = 0;
        if (!strncmp(line, "*** initial state: ", 19) || !strncmp(line, "*** final state: ", 17)) {
            const char *got = strchr(line, ':') + 2;
            for (size_t i = 0; i < cur.n; i++) {
                const long *st = cur.v + i * cur.width;
                bs_state_text(m, st, text, sizeof text);
                char want[4096];
                snprintf(want, sizeof want, "%.4000s ***", text[0] ? text : "(no variables)");
                if (!strcmp(got, want))
                    bs_set_add(&next, st, st + ns, ns);
            }
            if (!next.n)
                rc = bs_replay_fail(err, errlen, lineno, "no state of the run is %s", got);
        } else if (!strncmp(line, "step ", 5)) {
            const char *body = strstr(line, "  ");
            if (!body || atoi(line + 5) != ++nsteps) {
                rc = bs_replay_fail(err, errlen, lineno, "bad step line%s", "");
                break;
            }
            body += 2;
            for (size_t i = 0; i < cur.n; i++) {
                const long *st = cur.v + i * cur.width;
                if (!strcmp(body, "terminated")) {
                    if (bs_done(m, st, 0))
                        bs_set_add(&next, st, st + ns, ns);
                    continue;
                }
                bs_match q = {m, st, st + ns, body, &next, 0};
                bs_successors(m, st, bs_try, &q);
                if (q.failed)
                    rc = bs_replay_fail(err, errlen, lineno, "out of memory%s", "");
            }
            if (rc == 0 && !next.n)
                rc = bs_replay_fail(err, errlen, lineno, "no such step: %s", body);
        } else if (!strcmp(line, "*** loop starts here ***")) {
            for (size_t i = 0; i < cur.n; i++)
                bs_set_add(&next, cur.v + i * cur.width, cur.v + i * cur.width, ns);
        } else if (!strcmp(line, "*** loop ends here ***")) {
            for (size_t i = 0; i < cur.n; i++)
                if (!memcmp(cur.v + i * cur.width, cur.v + i * cur.width + ns, sz))
                    bs_set_add(&next, cur.v + i * cur.width, cur.v + i * cur.width + ns, ns);
            if (!next.n)
                rc = bs_replay_fail(err, errlen, lineno, "the loop does not close%s", "");
        } else if (!strcmp(line, "*** run ends in a deadlock ***") ||
                   !strcmp(line, "deadlock: no action enabled")) {
            for (size_t i = 0; i < cur.n; i++)
                if (bs_dead(m, cur.v + i * cur.width))
                    bs_set_add(&next, cur.v + i * cur.width, cur.v + i * cur.width + ns, ns);
            if (!next.n)
                rc = bs_replay_fail(err, errlen, lineno, "not a deadlock%s", "");
        } else {
            continue;   /* "Result:", "waiting:", "Time needed" */
        }
        bs_set tmp = cur;
        cur = next;
        next = tmp;
    }
    if (final && rc == 0 && cur.n)
        memcpy(final, cur.v, sz);
    free(cur.v);
    free(next.v);
    free(s0);
    free(unset);
    return rc;
}

/* "x = v" or "at L" on the state reached by a run's last line: kept for
 * the reach answers. */
static int bs_prop(const bpn2sim *m, const long *s, const char *prop)
{
    long l;
    char name[64];
    if (sscanf(prop, "at %ld", &l) == 1) {
        int next[128], n = 0;
        bs_next(m, s, 0, next, &n);
        for (int i = 0; i < n; i++)
            if (m->acts[next[i]].line == l)
                return 1;
        return 0;
    }
    if (sscanf(prop, " %63[A-Za-z0-9_@] = %ld", name, &l) == 2)
        for (int i = 0; i < m->nd; i++)
            if (!strcmp(m->decls[i].display, name) && !m->decls[i].chan)
                return s[m->nn + m->decls[i].off] == l;
    return -1;
}

#endif
