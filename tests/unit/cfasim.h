/* A CFA interpreter of its own for the tests, written from
 * docs/cfa-format.md §1-§4 and §7 alone: a hand-written parser, global
 * states (control states, variable values, buffer contents) and the
 * successor relation of §4, without the Petri net of §5.  It shares no
 * code with mck's reader, so a misreading of the spec there shows up as
 * a disagreement here instead of being repeated.
 *
 * It checks printed runs step by step (cfasim_replay), and explores the
 * state space breadth-first in the order of §5.2 (cfasim_bfs), which
 * reproduces the deterministic dl/reach witnesses of §9.
 *
 * Input is assumed to be valid CFA; anything unexpected is an error
 * string, never a crash.
 *
 *   cfasim_parse(text, err, n) / cfasim_load(path, err, n), cfasim_free
 *   cfasim_replay(m, run, err, n)      0 if the printed run is valid
 *   cfasim_nrun, cfasim_run_state(m, i), cfasim_run_kind, cfasim_loop_start
 *   cfasim_state_has(m, i, prop)       §6's atoms on the i-th state of the run
 *   cfasim_prop / cfasim_value / cfasim_dead on any state
 *   cfasim_bfs(m, limit, goal, ctx, &count, &run), cfasim_count_reachable,
 *   cfasim_has_deadlock */
#ifndef MCK_TEST_CFASIM_H
#define MCK_TEST_CFASIM_H

#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CS_VAR, CS_CHAN, CS_STACK };

typedef struct cs_decl {
    const char *name;
    int kind;
    long lo, hi, init;
    int cap;     /* buffers */
    int off;     /* index in the state vector: value, or length then cap slots */
} cs_decl;

enum {
    E_INT, E_VAR, E_NEG, E_ADD, E_SUB, E_MUL, E_DIV, E_MOD,
    E_EQ, E_NE, E_LT, E_LE, E_GT, E_GE, E_AND, E_OR, E_NOT, E_TRUE, E_FALSE
};
enum { M_PLAIN, M_PRE, M_POST };

typedef struct cs_expr {
    int op, var, mode;
    long v;
    struct cs_expr *l, *r;
} cs_expr;

enum { I_PRED, I_SEND, I_RECV };

typedef struct cs_item {
    int kind, buf, var;
    cs_expr *e;
} cs_item;

/* How a transition uses a declaration (bit set, per declaration). */
enum { U_PRE = 1, U_POST = 2, U_PLAIN = 4, U_RECV = 8, U_BUF = 16 };

typedef struct cs_trans {
    int src, dst;
    cs_item *items;
    int nitems, capitems;
    unsigned char *use;
} cs_trans;

typedef struct cs_label {
    int state;
    const char *name;
} cs_label;

typedef struct cs_aut {
    const char *name;
    const char **states;
    int nstates, capstates, start;
    cs_label *labels;
    int nlabels, caplabels;
    cs_trans *trans;
    int ntrans, captrans;
} cs_aut;

enum { CFASIM_FINITE = 1, CFASIM_LASSO, CFASIM_DEADLOCK };

typedef struct cfasim {
    cs_decl *decls;
    int ndecls, capdecls;
    cs_aut *auts;
    int nauts, capauts;
    int width;           /* longs per state */
    long *init;
    void **arena;        /* names and expressions, freed together */
    size_t narena, caparena;
    /* the states of the last run replayed: run[i*width..], i < nrun */
    long *run;
    size_t nrun, caprun, loop;
    int runkind;
} cfasim;

/* ---- memory ---- */

/* p with room for element n (zeroed); p itself and *fail set when that
 * fails. */
static inline void *cs_grow(void *p, int *cap, int n, size_t elem, int *fail)
{
    if (n < *cap)
        return p;
    int nc = *cap ? *cap * 2 : 8;
    char *q = realloc(p, (size_t)nc * elem);
    if (!q) {
        *fail = 1;
        return p;
    }
    memset(q + (size_t)*cap * elem, 0, (size_t)(nc - *cap) * elem);
    *cap = nc;
    return q;
}

static inline void *cs_new(cfasim *m, size_t size)
{
    if (m->narena == m->caparena) {
        size_t nc = m->caparena ? m->caparena * 2 : 64;
        void **a = realloc(m->arena, nc * sizeof *a);
        if (!a)
            return NULL;
        m->arena = a;
        m->caparena = nc;
    }
    void *p = calloc(1, size ? size : 1);
    if (p)
        m->arena[m->narena++] = p;
    return p;
}

static inline void cfasim_free(cfasim *m)
{
    if (!m)
        return;
    for (int a = 0; a < m->nauts; a++) {
        cs_aut *A = &m->auts[a];
        for (int t = 0; t < A->ntrans; t++)
            free(A->trans[t].items);
        free(A->trans);
        free(A->states);
        free(A->labels);
    }
    for (size_t i = 0; i < m->narena; i++)
        free(m->arena[i]);
    free(m->arena);
    free(m->auts);
    free(m->decls);
    free(m->init);
    free(m->run);
    free(m);
}

/* ---- text building ---- */

typedef struct cs_buf {
    char *p;
    size_t n, cap;
    int oom;
} cs_buf;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static inline void cs_put(cs_buf *b, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        size_t room = b->cap - b->n;
        va_start(ap, fmt);
        int k = b->p ? vsnprintf(b->p + b->n, room, fmt, ap) : -1;
        va_end(ap);
        if (k >= 0 && (size_t)k < room) {
            b->n += (size_t)k;
            return;
        }
        if (b->oom)
            return;
        size_t nc = b->cap ? b->cap * 2 : 256;
        while (k >= 0 && nc - b->n <= (size_t)k)
            nc *= 2;
        char *q = realloc(b->p, nc);
        if (!q) {
            b->oom = 1;
            return;
        }
        b->p = q;
        b->cap = nc;
    }
}

/* snprintf through a va_list: messages may be cut short, on purpose. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static inline void cs_msg(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (errlen)
        vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* ---- lexer ---- */

enum { TK_EOF, TK_ID, TK_PRE, TK_POST, TK_INT, TK_AT, TK_P, TK_BAD };

typedef struct cs_tok {
    int kind, line;
    const char *s;
    size_t len;
    long val;
    char p[3];       /* punctuation, NUL-terminated */
} cs_tok;

typedef struct cs_parser {
    cfasim *m;
    const char *src;
    size_t pos;
    int line;
    cs_tok t;
    int err;
    char *msg;
    size_t msglen;
} cs_parser;

typedef struct cs_mark {
    size_t pos;
    int line, err;
    cs_tok t;
} cs_mark;

static inline cs_mark cs_save(const cs_parser *P)
{
    cs_mark k = {P->pos, P->line, P->err, P->t};
    return k;
}

static inline void cs_restore(cs_parser *P, cs_mark k)
{
    P->pos = k.pos;
    P->line = k.line;
    P->err = k.err;
    P->t = k.t;
}

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static inline void cs_fail(cs_parser *P, const char *fmt, ...)
{
    if (P->err)
        return;
    P->err = 1;
    if (!P->msg || !P->msglen)
        return;
    int k = snprintf(P->msg, P->msglen, "line %d: ", P->t.line);
    if (k < 0 || (size_t)k >= P->msglen)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(P->msg + k, P->msglen - (size_t)k, fmt, ap);
    va_end(ap);
}

static inline int cs_idchar(int c, int first)
{
    return c == '_' || isalpha((unsigned char)c) || (!first && isdigit((unsigned char)c));
}

static inline void cs_next(cs_parser *P)
{
    const char *s = P->src;
    size_t i = P->pos;
    for (;;) {
        if (s[i] == '\n') {
            P->line++;
            i++;
        } else if (s[i] == ' ' || s[i] == '\t' || s[i] == '\r') {
            i++;
        } else if (s[i] == '%' || (s[i] == '/' && s[i + 1] == '/')) {
            while (s[i] && s[i] != '\n')
                i++;
        } else {
            break;
        }
    }
    cs_tok *t = &P->t;
    memset(t, 0, sizeof *t);
    t->line = P->line;
    t->s = s + i;
    if (!s[i]) {
        t->kind = TK_EOF;
    } else if (s[i] == '\'' && cs_idchar(s[i + 1], 1)) {
        size_t j = i + 1;
        while (cs_idchar(s[j], 0))
            j++;
        t->kind = TK_PRE;
        t->s = s + i + 1;
        t->len = j - i - 1;
        i = j;
    } else if (cs_idchar(s[i], 1) || s[i] == '@') {
        size_t j = i + 1;
        while (cs_idchar(s[j], 0))
            j++;
        t->kind = s[i] == '@' ? TK_AT : TK_ID;
        t->len = j - i;
        if (s[i] != '@' && s[j] == '\'') {
            t->kind = TK_POST;
            j++;
        }
        i = j;
    } else if (isdigit((unsigned char)s[i])) {
        long v = 0;
        t->kind = TK_INT;
        while (isdigit((unsigned char)s[i])) {
            int d = s[i++] - '0';
            if (v > (LONG_MAX - d) / 10)
                t->kind = TK_BAD;
            else
                v = v * 10 + d;
        }
        t->val = v;
        t->len = (size_t)(s + i - t->s);
    } else {
        static const char *const two[] = {"..", "->", "==", "!=", "<=", ">=", "&&", "||"};
        t->kind = TK_P;
        for (size_t k = 0; k < sizeof two / sizeof *two; k++)
            if (s[i] == two[k][0] && s[i + 1] == two[k][1]) {
                memcpy(t->p, two[k], 2);
                t->len = 2;
            }
        if (!t->len) {
            if (!strchr("{}:;,()=<>+-*/!?&|", s[i]))
                t->kind = TK_BAD;
            t->p[0] = s[i];
            t->len = 1;
        }
        i += t->len;
    }
    P->pos = i;
}

static inline int cs_is(const cs_parser *P, const char *p)
{
    return P->t.kind == TK_P && !strcmp(P->t.p, p);
}

static inline int cs_word(const cs_parser *P, const char *w)
{
    return (P->t.kind == TK_ID || P->t.kind == TK_AT) && P->t.len == strlen(w) &&
           !strncmp(P->t.s, w, P->t.len);
}

static inline int cs_accept(cs_parser *P, const char *p)
{
    if (!cs_is(P, p))
        return 0;
    cs_next(P);
    return 1;
}

static inline void cs_expect(cs_parser *P, const char *p)
{
    if (!cs_accept(P, p))
        cs_fail(P, "expected '%s', found '%.*s'", p, (int)P->t.len, P->t.s);
}

static inline int cs_reserved(const char *s, size_t len)
{
    static const char *const words[] = {"CFA", "var", "init", "chan", "stack", "of",
                                        "true", "false", "and", "or", "not", "mod"};
    for (size_t k = 0; k < sizeof words / sizeof *words; k++)
        if (strlen(words[k]) == len && !strncmp(words[k], s, len))
            return 1;
    return 0;
}

/* The current identifier as an arena string; NULL (and an error) if the
 * token is not a usable name. */
static inline const char *cs_name(cs_parser *P)
{
    if (P->t.kind != TK_ID || cs_reserved(P->t.s, P->t.len)) {
        cs_fail(P, "expected a name, found '%.*s'", (int)P->t.len, P->t.s);
        return NULL;
    }
    char *s = cs_new(P->m, P->t.len + 1);
    if (!s) {
        cs_fail(P, "out of memory");
        return NULL;
    }
    memcpy(s, P->t.s, P->t.len);
    cs_next(P);
    return s;
}

static inline int cs_find_decl(const cfasim *m, const char *s, size_t len)
{
    for (int d = 0; d < m->ndecls; d++)
        if (strlen(m->decls[d].name) == len && !strncmp(m->decls[d].name, s, len))
            return d;
    return -1;
}

static inline int cs_find_aut(const cfasim *m, const char *s, size_t len)
{
    for (int a = 0; a < m->nauts; a++)
        if (strlen(m->auts[a].name) == len && !strncmp(m->auts[a].name, s, len))
            return a;
    return -1;
}

static inline int cs_find_state(const cs_aut *A, const char *s, size_t len)
{
    for (int i = 0; i < A->nstates; i++)
        if (strlen(A->states[i]) == len && !strncmp(A->states[i], s, len))
            return i;
    return -1;
}

/* ---- expressions ---- */

static inline cs_expr *cs_node(cs_parser *P, int op, cs_expr *l, cs_expr *r)
{
    cs_expr *e = cs_new(P->m, sizeof *e);
    if (!e) {
        cs_fail(P, "out of memory");
        return NULL;
    }
    e->op = op;
    e->l = l;
    e->r = r;
    return e;
}

static inline cs_expr *cs_arith(cs_parser *P);

static inline cs_expr *cs_unary(cs_parser *P)
{
    if (P->err)
        return NULL;
    if (cs_accept(P, "-"))
        return cs_node(P, E_NEG, cs_unary(P), NULL);
    if (P->t.kind == TK_INT) {
        cs_expr *e = cs_node(P, E_INT, NULL, NULL);
        if (e)
            e->v = P->t.val;
        cs_next(P);
        return e;
    }
    if (cs_accept(P, "(")) {
        cs_expr *e = cs_arith(P);
        cs_expect(P, ")");
        return e;
    }
    if (P->t.kind == TK_ID || P->t.kind == TK_PRE || P->t.kind == TK_POST) {
        int d = cs_find_decl(P->m, P->t.s, P->t.len);
        if (d < 0 || P->m->decls[d].kind != CS_VAR || cs_reserved(P->t.s, P->t.len)) {
            cs_fail(P, "'%.*s' is not a variable", (int)P->t.len, P->t.s);
            return NULL;
        }
        cs_expr *e = cs_node(P, E_VAR, NULL, NULL);
        if (e) {
            e->var = d;
            e->mode = P->t.kind == TK_PRE ? M_PRE : P->t.kind == TK_POST ? M_POST : M_PLAIN;
        }
        cs_next(P);
        return e;
    }
    cs_fail(P, "expected an expression, found '%.*s'", (int)P->t.len, P->t.s);
    return NULL;
}

static inline cs_expr *cs_term(cs_parser *P)
{
    cs_expr *e = cs_unary(P);
    while (!P->err) {
        int op = cs_is(P, "*") ? E_MUL : cs_is(P, "/") ? E_DIV : cs_word(P, "mod") ? E_MOD : -1;
        if (op < 0)
            break;
        cs_next(P);
        e = cs_node(P, op, e, cs_unary(P));
    }
    return e;
}

static inline cs_expr *cs_arith(cs_parser *P)
{
    cs_expr *e = cs_term(P);
    while (!P->err && (cs_is(P, "+") || cs_is(P, "-"))) {
        int op = cs_is(P, "+") ? E_ADD : E_SUB;
        cs_next(P);
        e = cs_node(P, op, e, cs_term(P));
    }
    return e;
}

static inline int cs_relop(const cs_parser *P)
{
    static const char *const ops[] = {"=", "==", "!=", "<", "<=", ">", ">="};
    static const int codes[] = {E_EQ, E_EQ, E_NE, E_LT, E_LE, E_GT, E_GE};
    for (size_t k = 0; k < sizeof ops / sizeof *ops; k++)
        if (cs_is(P, ops[k]))
            return codes[k];
    return -1;
}

static inline cs_expr *cs_compare(cs_parser *P)
{
    cs_expr *l = cs_arith(P);
    int op = cs_relop(P);
    if (op < 0) {
        cs_fail(P, "expected a comparison, found '%.*s'", (int)P->t.len, P->t.s);
        return NULL;
    }
    cs_next(P);
    return cs_node(P, op, l, cs_arith(P));
}

static inline cs_expr *cs_bool(cs_parser *P);

static inline cs_expr *cs_bool_not(cs_parser *P)
{
    if (P->err)
        return NULL;
    if (cs_is(P, "!") || cs_word(P, "not")) {
        cs_next(P);
        return cs_node(P, E_NOT, cs_bool_not(P), NULL);
    }
    if (cs_word(P, "true") || cs_word(P, "false")) {
        int op = cs_word(P, "true") ? E_TRUE : E_FALSE;
        cs_next(P);
        return cs_node(P, op, NULL, NULL);
    }
    if (cs_is(P, "(")) {
        /* §2: the boolean reading first; the arithmetic one if it fails or
         * an operator follows the closing parenthesis. */
        cs_mark k = cs_save(P);
        cs_next(P);
        cs_expr *e = cs_bool(P);
        if (!P->err && cs_accept(P, ")") && !P->err && cs_relop(P) < 0 && !cs_is(P, "+") &&
            !cs_is(P, "-") && !cs_is(P, "*") && !cs_is(P, "/") && !cs_word(P, "mod"))
            return e;
        cs_restore(P, k);
    }
    return cs_compare(P);
}

static inline cs_expr *cs_bool_and(cs_parser *P)
{
    cs_expr *e = cs_bool_not(P);
    while (!P->err && (cs_is(P, "&") || cs_is(P, "&&") || cs_word(P, "and"))) {
        cs_next(P);
        e = cs_node(P, E_AND, e, cs_bool_not(P));
    }
    return e;
}

static inline cs_expr *cs_bool(cs_parser *P)
{
    cs_expr *e = cs_bool_and(P);
    while (!P->err && (cs_is(P, "|") || cs_is(P, "||") || cs_word(P, "or"))) {
        cs_next(P);
        e = cs_node(P, E_OR, e, cs_bool_and(P));
    }
    return e;
}

static inline void cs_uses(const cs_expr *e, unsigned char *use)
{
    if (!e)
        return;
    if (e->op == E_VAR)
        use[e->var] |= e->mode == M_PRE ? U_PRE : e->mode == M_POST ? U_POST : U_PLAIN;
    cs_uses(e->l, use);
    cs_uses(e->r, use);
}

/* ---- declarations and automata ---- */

static inline long cs_int(cs_parser *P)
{
    int neg = cs_accept(P, "-");
    if (P->t.kind != TK_INT) {
        cs_fail(P, "expected a number, found '%.*s'", (int)P->t.len, P->t.s);
        return 0;
    }
    long v = P->t.val;
    cs_next(P);
    return neg ? -v : v;
}

static inline void cs_range(cs_parser *P, cs_decl *d)
{
    cs_expect(P, "{");
    d->lo = cs_int(P);
    cs_expect(P, "..");
    d->hi = cs_int(P);
    cs_expect(P, "}");
    if (!P->err && d->lo > d->hi)
        cs_fail(P, "empty range");
}

static inline void cs_decl_stmt(cs_parser *P)
{
    cfasim *m = P->m;
    cs_next(P);    /* var */
    int oom = 0;
    m->decls = cs_grow(m->decls, &m->capdecls, m->ndecls, sizeof *m->decls, &oom);
    if (oom) {
        cs_fail(P, "out of memory");
        return;
    }
    cs_decl *d = &m->decls[m->ndecls];
    if (P->t.kind == TK_ID && cs_find_decl(m, P->t.s, P->t.len) >= 0)
        cs_fail(P, "'%.*s' declared twice", (int)P->t.len, P->t.s);
    d->name = cs_name(P);
    cs_expect(P, ":");
    if (cs_word(P, "chan") || cs_word(P, "stack")) {
        d->kind = cs_word(P, "chan") ? CS_CHAN : CS_STACK;
        cs_next(P);
        if (P->t.kind != TK_INT || P->t.val < 1 || P->t.val > 64) {
            cs_fail(P, "bad capacity");
            return;
        }
        d->cap = (int)P->t.val;
        cs_next(P);
        if (!cs_word(P, "of"))
            cs_fail(P, "expected 'of'");
        cs_next(P);
        cs_range(P, d);
    } else {
        d->kind = CS_VAR;
        cs_range(P, d);
        d->init = d->lo;
        if (cs_word(P, "init")) {
            cs_next(P);
            d->init = cs_int(P);
            if (!P->err && (d->init < d->lo || d->init > d->hi))
                cs_fail(P, "init value out of range");
        }
    }
    cs_expect(P, ";");
    if (!P->err)
        m->ndecls++;
}

static inline int cs_state(cs_parser *P, cs_aut *A)
{
    if (P->t.kind != TK_ID || cs_reserved(P->t.s, P->t.len)) {
        cs_fail(P, "expected a state name, found '%.*s'", (int)P->t.len, P->t.s);
        return -1;
    }
    int s = cs_find_state(A, P->t.s, P->t.len);
    if (s >= 0) {
        cs_next(P);
        return s;
    }
    int oom = 0;
    A->states = cs_grow(A->states, &A->capstates, A->nstates, sizeof *A->states, &oom);
    if (oom) {
        cs_fail(P, "out of memory");
        return -1;
    }
    const char *name = cs_name(P);
    if (!name)
        return -1;
    A->states[A->nstates] = name;
    return A->nstates++;
}

static inline void cs_item_stmt(cs_parser *P, cs_trans *T)
{
    cfasim *m = P->m;
    int oom = 0;
    T->items = cs_grow(T->items, &T->capitems, T->nitems, sizeof *T->items, &oom);
    if (oom) {
        cs_fail(P, "out of memory");
        return;
    }
    cs_item *it = &T->items[T->nitems];
    int d = P->t.kind == TK_ID ? cs_find_decl(m, P->t.s, P->t.len) : -1;
    if (d >= 0 && m->decls[d].kind != CS_VAR) {
        cs_next(P);
        it->buf = d;
        if (T->use[d] & U_BUF)
            cs_fail(P, "two operations on '%s'", m->decls[d].name);
        T->use[d] |= U_BUF;
        if (cs_accept(P, "!")) {
            it->kind = I_SEND;
            it->e = cs_arith(P);
            cs_uses(it->e, T->use);
        } else if (cs_accept(P, "?")) {
            it->kind = I_RECV;
            int v = P->t.kind == TK_ID ? cs_find_decl(m, P->t.s, P->t.len) : -1;
            if (v < 0 || m->decls[v].kind != CS_VAR) {
                cs_fail(P, "'%.*s' is not a variable", (int)P->t.len, P->t.s);
                return;
            }
            it->var = v;
            T->use[v] |= U_RECV;
            cs_next(P);
        } else {
            cs_fail(P, "a buffer used as a value");
        }
    } else {
        it->kind = I_PRED;
        it->e = cs_bool(P);
        cs_uses(it->e, T->use);
    }
    if (!P->err)
        T->nitems++;
}

static inline void cs_automaton(cs_parser *P)
{
    cfasim *m = P->m;
    cs_next(P);    /* @automaton */
    if (P->t.kind == TK_ID &&
        (cs_find_decl(m, P->t.s, P->t.len) >= 0 || cs_find_aut(m, P->t.s, P->t.len) >= 0))
        cs_fail(P, "'%.*s' declared twice", (int)P->t.len, P->t.s);
    const char *name = cs_name(P);
    int oom = 0;
    m->auts = cs_grow(m->auts, &m->capauts, m->nauts, sizeof *m->auts, &oom);
    if (oom || !name) {
        cs_fail(P, "out of memory");
        return;
    }
    cs_aut *A = &m->auts[m->nauts++];
    A->start = -1;
    A->name = name;
    while (!P->err && P->t.kind != TK_EOF && !cs_word(P, "@automaton")) {
        if (cs_word(P, "@start")) {
            cs_next(P);
            if (A->start >= 0)
                cs_fail(P, "two @start");
            A->start = cs_state(P, A);
            cs_expect(P, ";");
        } else if (cs_word(P, "@label")) {
            cs_next(P);
            int s = cs_state(P, A);
            cs_expect(P, ":");
            do {
                A->labels = cs_grow(A->labels, &A->caplabels, A->nlabels, sizeof *A->labels, &oom);
                if (oom) {
                    cs_fail(P, "out of memory");
                    return;
                }
                const char *l = cs_name(P);
                if (P->err)
                    return;
                A->labels[A->nlabels].state = s;
                A->labels[A->nlabels++].name = l;
            } while (cs_accept(P, ","));
            cs_expect(P, ";");
        } else if (P->t.kind == TK_ID) {
            A->trans = cs_grow(A->trans, &A->captrans, A->ntrans, sizeof *A->trans, &oom);
            if (oom) {
                cs_fail(P, "out of memory");
                return;
            }
            cs_trans *T = &A->trans[A->ntrans++];
            T->use = cs_new(m, (size_t)m->ndecls);
            if (!T->use) {
                cs_fail(P, "out of memory");
                return;
            }
            T->src = cs_state(P, A);
            cs_expect(P, "->");
            T->dst = cs_state(P, A);
            if (cs_accept(P, ":"))
                do
                    cs_item_stmt(P, T);
                while (!P->err && cs_accept(P, ","));
            cs_expect(P, ";");
            for (int d = 0; !P->err && d < m->ndecls; d++)
                if ((T->use[d] & U_PLAIN) && (T->use[d] & (U_POST | U_RECV)))
                    cs_fail(P, "%s used both unchanged and as post-value", m->decls[d].name);
        } else {
            cs_fail(P, "unexpected '%.*s'", (int)P->t.len, P->t.s);
        }
    }
    if (!P->err && A->start < 0)
        cs_fail(P, "automaton %s has no @start", A->name);
}

static inline cfasim *cfasim_parse(const char *text, char *err, size_t errlen)
{
    cfasim *m = calloc(1, sizeof *m);
    if (!m) {
        cs_msg(err, errlen, "out of memory");
        return NULL;
    }
    cs_parser P = {m, text, 0, 1, {0}, 0, err, errlen};
    if (errlen)
        err[0] = '\0';
    cs_next(&P);
    if (!cs_word(&P, "CFA"))
        cs_fail(&P, "the file does not start with CFA");
    cs_next(&P);
    if (cs_word(&P, "@global")) {
        cs_next(&P);
        while (!P.err && cs_word(&P, "var"))
            cs_decl_stmt(&P);
    }
    if (!P.err && !cs_word(&P, "@automaton"))
        cs_fail(&P, "expected @automaton, found '%.*s'", (int)P.t.len, P.t.s);
    while (!P.err && cs_word(&P, "@automaton"))
        cs_automaton(&P);
    if (!P.err && P.t.kind != TK_EOF)
        cs_fail(&P, "unexpected '%.*s'", (int)P.t.len, P.t.s);
    if (!P.err) {
        m->width = m->nauts;
        for (int d = 0; d < m->ndecls; d++) {
            m->decls[d].off = m->width;
            m->width += m->decls[d].kind == CS_VAR ? 1 : 1 + m->decls[d].cap;
        }
        m->init = calloc((size_t)m->width, sizeof *m->init);
        if (!m->init)
            cs_fail(&P, "out of memory");
    }
    if (P.err) {
        cfasim_free(m);
        return NULL;
    }
    for (int a = 0; a < m->nauts; a++)
        m->init[a] = m->auts[a].start;
    for (int d = 0; d < m->ndecls; d++)
        if (m->decls[d].kind == CS_VAR)
            m->init[m->decls[d].off] = m->decls[d].init;
    return m;
}

static inline cfasim *cfasim_load(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        cs_msg(err, errlen, "%s: cannot open", path);
        return NULL;
    }
    cs_buf b = {0};
    char chunk[4096];
    size_t k;
    while ((k = fread(chunk, 1, sizeof chunk, f)) > 0)
        cs_put(&b, "%.*s", (int)k, chunk);
    fclose(f);
    if (b.oom || !b.p) {
        free(b.p);
        cs_msg(err, errlen, "%s: %s", path, b.oom ? "out of memory" : "empty file");
        return NULL;
    }
    cfasim *m = cfasim_parse(b.p, err, errlen);
    free(b.p);
    return m;
}

/* ---- the successor relation of §4 ---- */

/* 0 and *out on success; -1 when the choice has no value (a division by
 * zero, or a number beyond what a long holds).  Both operands are always
 * evaluated: a division by zero anywhere in the items disables the
 * choice, whatever the other side of an 'or' says. */
static inline int cs_eval(const cs_expr *e, const long *pre, const long *post, long *out)
{
    long a = 0, b = 0;
    int bad = 0;
    if (e->l)
        bad |= cs_eval(e->l, pre, post, &a);
    if (e->r)
        bad |= cs_eval(e->r, pre, post, &b);
    switch (e->op) {
    case E_INT: *out = e->v; break;
    case E_VAR: *out = e->mode == M_POST ? post[e->var] : pre[e->var]; break;
    case E_NEG: bad |= a == LONG_MIN; *out = bad ? 0 : -a; break;
    case E_ADD: bad |= __builtin_add_overflow(a, b, out); break;
    case E_SUB: bad |= __builtin_sub_overflow(a, b, out); break;
    case E_MUL: bad |= __builtin_mul_overflow(a, b, out); break;
    case E_DIV:
    case E_MOD:
        bad |= b == 0 || (a == LONG_MIN && b == -1);
        *out = bad ? 0 : e->op == E_DIV ? a / b : a % b;   /* C99 truncates, as §4 says */
        break;
    case E_EQ: *out = a == b; break;
    case E_NE: *out = a != b; break;
    case E_LT: *out = a < b; break;
    case E_LE: *out = a <= b; break;
    case E_GT: *out = a > b; break;
    case E_GE: *out = a >= b; break;
    case E_AND: *out = a && b; break;
    case E_OR: *out = a || b; break;
    case E_NOT: *out = !a; break;
    case E_TRUE: *out = 1; break;
    case E_FALSE: *out = 0; break;
    default: bad = 1;
    }
    return bad ? -1 : 0;
}

/* Called for every step from a state; returning nonzero stops the search. */
typedef int (*cs_visit)(void *ctx, const long *from, const long *to, int aut, const cs_trans *t);

/* Whether the choice pre/post satisfies T in s; if so, to is the state after. */
static inline int cs_choice(const cfasim *m, const long *s, int aut, const cs_trans *T,
                            const long *pre, const long *post, long *to)
{
    memcpy(to, s, (size_t)m->width * sizeof *to);
    to[aut] = T->dst;
    for (int d = 0; d < m->ndecls; d++)
        if (m->decls[d].kind == CS_VAR && (T->use[d] & ~U_BUF))
            to[m->decls[d].off] = post[d];
    for (int i = 0; i < T->nitems; i++) {
        const cs_item *it = &T->items[i];
        long v;
        if (it->kind == I_PRED) {
            if (cs_eval(it->e, pre, post, &v) < 0 || !v)
                return 0;
            continue;
        }
        const cs_decl *c = &m->decls[it->buf];
        long *len = &to[c->off], *slot = &to[c->off + 1];
        if (it->kind == I_SEND) {
            if (*len >= c->cap || cs_eval(it->e, pre, post, &v) < 0 || v < c->lo || v > c->hi)
                return 0;
            slot[(*len)++] = v;
        } else {
            if (*len == 0)
                return 0;
            if (c->kind == CS_STACK) {
                v = slot[*len - 1];
            } else {
                v = slot[0];
                memmove(slot, slot + 1, (size_t)(*len - 1) * sizeof *slot);
            }
            slot[--*len] = 0;    /* free slots are 0: one vector per state */
            if (post[it->var] != v)
                return 0;
            to[m->decls[it->var].off] = v;
        }
    }
    return 1;
}

/* Enumerates the steps from s of automaton only (all if -1) in the order
 * of §5.2: automata, then transitions in file order, then the post-values
 * of the touched variables in declaration order, first one slowest.
 * Returns 1 if f stopped it, 0 if not, -1 on out of memory. */
static inline int cs_steps(const cfasim *m, const long *s, int only, cs_visit f, void *ctx)
{
    size_t nd = (size_t)(m->ndecls ? m->ndecls : 1);
    long *pre = calloc(nd, sizeof *pre), *post = calloc(nd, sizeof *post);
    long *to = calloc((size_t)(m->width ? m->width : 1), sizeof *to);
    int *tv = calloc(nd, sizeof *tv), rc = 0;
    if (!pre || !post || !to || !tv)
        rc = -1;
    for (int a = 0; !rc && a < m->nauts; a++) {
        if (only >= 0 && a != only)
            continue;
        const cs_aut *A = &m->auts[a];
        for (int t = 0; !rc && t < A->ntrans; t++) {
            const cs_trans *T = &A->trans[t];
            if (s[a] != T->src)
                continue;
            int nt = 0;
            for (int d = 0; d < m->ndecls; d++) {
                const cs_decl *D = &m->decls[d];
                if (D->kind != CS_VAR || !(T->use[d] & ~U_BUF))
                    continue;
                tv[nt++] = d;
                pre[d] = s[D->off];
                /* plain x: read and unchanged; otherwise any value of
                 * the range, which the items may constrain */
                post[d] = (T->use[d] & U_PLAIN) ? pre[d] : D->lo;
            }
            for (;;) {
                if (cs_choice(m, s, a, T, pre, post, to) && f(ctx, s, to, a, T)) {
                    rc = 1;
                    break;
                }
                int k = nt - 1;
                for (; k >= 0; k--) {
                    int d = tv[k];
                    if ((T->use[d] & U_PLAIN) || post[d] == m->decls[d].hi)
                        continue;
                    post[d]++;
                    for (int j = k + 1; j < nt; j++)
                        if (!(T->use[tv[j]] & U_PLAIN))
                            post[tv[j]] = m->decls[tv[j]].lo;
                    break;
                }
                if (k < 0)
                    break;
            }
        }
    }
    free(pre);
    free(post);
    free(to);
    free(tv);
    return rc;
}

/* ---- printing in the format of §7 ---- */

static inline void cs_put_buffer(cs_buf *b, const cfasim *m, const long *s, int d)
{
    const cs_decl *D = &m->decls[d];
    cs_put(b, "%s=(", D->name);
    for (long i = 0; i < s[D->off]; i++)
        cs_put(b, "%s%ld", i ? "," : "", s[D->off + 1 + i]);
    cs_put(b, ")");
}

static inline void cs_put_state(cs_buf *b, const cfasim *m, const long *s)
{
    for (int a = 0; a < m->nauts; a++)
        cs_put(b, "%s%s.%s", a ? ", " : "", m->auts[a].name, m->auts[a].states[s[a]]);
    for (int d = 0; d < m->ndecls; d++) {
        cs_put(b, "%s", m->nauts || d ? ", " : "");
        if (m->decls[d].kind == CS_VAR)
            cs_put(b, "%s=%ld", m->decls[d].name, s[m->decls[d].off]);
        else
            cs_put_buffer(b, m, s, d);
    }
}

static inline void cs_put_step(cs_buf *b, const cfasim *m, const long *from, const long *to, int a,
                               const cs_trans *T)
{
    const cs_aut *A = &m->auts[a];
    int n = 0;
    cs_put(b, "%s: %s [", A->name, A->states[T->src]);
    for (int d = 0; d < m->ndecls; d++) {
        const cs_decl *D = &m->decls[d];
        if (!T->use[d])
            continue;
        cs_put(b, "%s ", n++ ? "," : "");
        if (D->kind == CS_VAR) {
            cs_put(b, "%s=%ld --> %s=%ld", D->name, from[D->off], D->name, to[D->off]);
        } else {
            cs_put_buffer(b, m, from, d);
            cs_put(b, " --> ");
            cs_put_buffer(b, m, to, d);
        }
    }
    cs_put(b, " ] %s", A->states[T->dst]);
}

/* ---- atomic propositions of §6 on a state ---- */

static inline int cs_cmp(long a, const char *op, long b)
{
    if (!strcmp(op, "=") || !strcmp(op, "=="))
        return a == b;
    if (!strcmp(op, "!="))
        return a != b;
    if (!strcmp(op, "<"))
        return a < b;
    if (!strcmp(op, "<="))
        return a <= b;
    if (!strcmp(op, ">"))
        return a > b;
    if (!strcmp(op, ">="))
        return a >= b;
    return -1;
}

/* Parses "OP k" (blanks allowed around OP) at p; 0 on success. */
static inline int cs_opk(const char *p, char op[3], long *k)
{
    while (*p == ' ')
        p++;
    size_t n = strspn(p, "=!<>");
    if (n < 1 || n > 2)
        return -1;
    memcpy(op, p, n);
    op[n] = '\0';
    p += n;
    while (*p == ' ')
        p++;
    char *end;
    *k = strtol(p, &end, 10);
    if (end == p || *end || cs_cmp(0, op, 0) < 0)
        return -1;
    return 0;
}

/* Whether s satisfies the atomic proposition prop (forms 1-6 of §6, and
 * slot places c[i]=v of form 7): 1 or 0, -1 if prop means nothing here. */
static inline int cfasim_prop(const cfasim *m, const long *s, const char *prop)
{
    while (*prop == ' ')
        prop++;
    size_t len = strlen(prop);
    while (len && prop[len - 1] == ' ')
        len--;
    char p[256];
    if (len >= sizeof p)
        return -1;
    memcpy(p, prop, len);
    p[len] = '\0';
    size_t nl = 0;
    while (cs_idchar(p[nl], nl == 0))
        nl++;
    const char *rest = p + nl;
    int a = cs_find_aut(m, p, nl), d = cs_find_decl(m, p, nl);
    char op[3];
    long k;
    if (a >= 0 && *rest == '.') {
        int st = cs_find_state(&m->auts[a], rest + 1, strlen(rest + 1));
        if (st >= 0)
            return s[a] == st;
    }
    if (d >= 0 && m->decls[d].kind == CS_VAR && cs_opk(rest, op, &k) == 0)
        return cs_cmp(s[m->decls[d].off], op, k);
    if (d >= 0 && m->decls[d].kind != CS_VAR) {
        const cs_decl *D = &m->decls[d];
        long l = s[D->off];
        if (!strcmp(rest, ".empty"))
            return l == 0;
        if (!strcmp(rest, ".full"))
            return l == D->cap;
        if (!strncmp(rest, ".len", 4) && cs_opk(rest + 4, op, &k) == 0)
            return cs_cmp(l, op, k);
        const char *w = D->kind == CS_CHAN ? ".head" : ".top";
        if (!strncmp(rest, w, strlen(w)) && cs_opk(rest + strlen(w), op, &k) == 0)
            return l > 0 && cs_cmp(s[D->off + 1 + (D->kind == CS_CHAN ? 0 : l - 1)], op, k);
        long i, v;
        int used = 0;
        if (sscanf(rest, "[%ld]=%ld%n", &i, &v, &used) == 2 && !rest[used] && i >= 0 && i < D->cap)
            return i < l && s[D->off + 1 + i] == v;
    }
    int known = 0;
    for (a = 0; a < m->nauts; a++)
        for (int j = 0; j < m->auts[a].nlabels; j++)
            if (!strcmp(m->auts[a].labels[j].name, p)) {
                known = 1;
                if (s[a] == m->auts[a].labels[j].state)
                    return 1;
            }
    return known ? 0 : -1;
}

/* The value of a variable or the length of a buffer (§6, arithmetic
 * positions); LONG_MIN for an unknown name. */
static inline long cfasim_value(const cfasim *m, const long *s, const char *name)
{
    int d = cs_find_decl(m, name, strlen(name));
    return d < 0 ? LONG_MIN : s[m->decls[d].off];
}

static inline int cs_count_step(void *ctx, const long *from, const long *to, int a,
                                const cs_trans *t)
{
    (void)from, (void)to, (void)a, (void)t;
    ++*(long *)ctx;
    return 1;
}

/* 1 if no step is possible in s, 0 if one is, -1 on out of memory. */
static inline int cfasim_dead(const cfasim *m, const long *s)
{
    long n = 0;
    int rc = cs_steps(m, s, -1, cs_count_step, &n);
    return rc < 0 ? -1 : n == 0;
}

/* ---- replaying a printed run ---- */

static inline int cs_push_run(cfasim *m, const long *s)
{
    if (m->nrun == m->caprun) {
        size_t nc = m->caprun ? m->caprun * 2 : 64;
        long *r = realloc(m->run, nc * (size_t)m->width * sizeof *r);
        if (!r)
            return -1;
        m->run = r;
        m->caprun = nc;
    }
    memcpy(m->run + m->nrun++ * (size_t)m->width, s, (size_t)m->width * sizeof *s);
    return 0;
}

static inline const long *cfasim_run_state(const cfasim *m, size_t i)
{
    return i < m->nrun ? m->run + i * (size_t)m->width : NULL;
}

typedef struct cs_match {
    const cfasim *m;
    const char *line;
    size_t len;
    long *to;
    cs_buf seen;      /* the steps that were possible, for the message */
    int nseen;
} cs_match;

static inline int cs_match_step(void *ctx, const long *from, const long *to, int a,
                                const cs_trans *T)
{
    cs_match *x = ctx;
    cs_buf b = {0};
    cs_put_step(&b, x->m, from, to, a, T);
    int hit = !b.oom && b.n == x->len && !memcmp(b.p, x->line, b.n);
    if (hit)
        memcpy(x->to, to, (size_t)x->m->width * sizeof *to);
    else if (x->nseen++ < 4 && !b.oom)
        cs_put(&x->seen, "; possible: %s", b.p);
    free(b.p);
    return hit;
}

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static inline int cs_reject(char *err, size_t errlen, int lineno, const char *fmt, ...)
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

/* Whether the line at p (length len) is "*** WHAT: STATE ***" for s. */
static inline int cs_state_line(const cfasim *m, const char *p, size_t len, const char *what,
                                const long *s)
{
    cs_buf b = {0};
    cs_put(&b, "*** %s: ", what);
    cs_put_state(&b, m, s);
    cs_put(&b, " ***");
    int ok = !b.oom && b.n == len && !memcmp(b.p, p, len);
    free(b.p);
    return ok;
}

static inline int cs_starts(const char *p, size_t len, const char *w)
{
    return len >= strlen(w) && !strncmp(p, w, strlen(w));
}

static inline int cs_is_line(const char *p, size_t len, const char *w)
{
    return len == strlen(w) && !strncmp(p, w, len);
}

/* Checks run_text, a run printed as in §7 (optionally preceded by the
 * "Result:" and "Witness:"/"Counterexample:" lines, ending at "Time
 * needed" or the end), against the model, step by step.  0 if the run is
 * valid; -1 with the reason in err.  Afterwards cfasim_nrun/run_state
 * give the states visited, cfasim_run_kind how the run ends. */
static inline int cfasim_replay(cfasim *m, const char *run_text, char *err, size_t errlen)
{
    m->nrun = 0;
    m->loop = 0;
    m->runkind = 0;
    if (errlen)
        err[0] = '\0';
    long *cur = calloc((size_t)m->width, sizeof *cur);
    if (!cur)
        return cs_reject(err, errlen, 0, "out of memory");
    memcpy(cur, m->init, (size_t)m->width * sizeof *cur);
    int lineno = 0, rc = 0, started = 0, in_loop = 0, done = 0, loop_steps = 0;
    const char *p = run_text;
    while (*p && !rc) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        const char *line = p;
        p = e ? e + 1 : p + len;
        lineno++;
        if (!started) {
            if (cs_starts(line, len, "Result:") || cs_is_line(line, len, "Witness:") ||
                cs_is_line(line, len, "Counterexample:"))
                continue;
            if (!cs_starts(line, len, "*** initial state: "))
                rc = cs_reject(err, errlen, lineno, "expected the initial state line: %.*s",
                               (int)len, line);
            else if (!cs_state_line(m, line, len, "initial state", cur))
                rc = cs_reject(err, errlen, lineno, "not the initial state: %.*s", (int)len, line);
            else
                rc = cs_push_run(m, cur);
            started = 1;
            continue;
        }
        if (cs_starts(line, len, "Time needed"))
            break;
        if (done) {
            if (m->runkind == CFASIM_FINITE &&
                cs_is_line(line, len, "*** run ends in a deadlock ***")) {
                int dead = cfasim_dead(m, cur);
                if (dead != 1)
                    rc = cs_reject(err, errlen, lineno, "the final state is not a deadlock");
                m->runkind = CFASIM_DEADLOCK;
                m->loop = m->nrun - 1;
            } else {
                rc = cs_reject(err, errlen, lineno, "unexpected after the end of the run: %.*s",
                               (int)len, line);
            }
            continue;
        }
        if (cs_is_line(line, len, "*** loop starts here ***")) {
            if (in_loop)
                rc = cs_reject(err, errlen, lineno, "a second loop start");
            in_loop = 1;
            m->loop = m->nrun - 1;
        } else if (cs_is_line(line, len, "*** loop ends here ***")) {
            if (!in_loop)
                rc = cs_reject(err, errlen, lineno, "loop end without a loop start");
            else if (!loop_steps)
                rc = cs_reject(err, errlen, lineno, "a loop without steps");
            else if (memcmp(cur, m->run + m->loop * (size_t)m->width,
                            (size_t)m->width * sizeof *cur))
                rc = cs_reject(err, errlen, lineno,
                               "the loop does not return to the state where it started");
            done = 1;
            m->runkind = CFASIM_LASSO;
        } else if (cs_starts(line, len, "*** final state: ")) {
            if (in_loop)
                rc = cs_reject(err, errlen, lineno, "a final state inside a loop");
            else if (!cs_state_line(m, line, len, "final state", cur))
                rc = cs_reject(err, errlen, lineno, "not the current state: %.*s", (int)len, line);
            done = 1;
            m->runkind = CFASIM_FINITE;
        } else {
            const char *colon = memchr(line, ':', len);
            int a = colon ? cs_find_aut(m, line, (size_t)(colon - line)) : -1;
            if (a < 0) {
                rc = cs_reject(err, errlen, lineno, "not a step of an automaton: %.*s", (int)len,
                               line);
                break;
            }
            cs_match x = {m, line, len, calloc((size_t)m->width, sizeof(long)), {0}, 0};
            int hit = x.to ? cs_steps(m, cur, a, cs_match_step, &x) : -1;
            if (hit == 1) {
                memcpy(cur, x.to, (size_t)m->width * sizeof *cur);
                rc = cs_push_run(m, cur);
                loop_steps += in_loop;
            } else if (hit < 0) {
                rc = cs_reject(err, errlen, lineno, "out of memory");
            } else {
                rc = cs_reject(err, errlen, lineno, "no step of %s matches: %.*s%s",
                               m->auts[a].name, (int)len, line,
                               x.seen.p ? x.seen.p : " (none possible)");
            }
            free(x.to);
            free(x.seen.p);
        }
    }
    if (!rc && !started)
        rc = cs_reject(err, errlen, lineno, "no run");
    else if (!rc && !done)
        rc = cs_reject(err, errlen, lineno, "%s",
                       in_loop ? "the loop has no end" : "no final state line");
    free(cur);
    if (rc)
        m->runkind = 0;
    return rc;
}

static inline size_t cfasim_nrun(const cfasim *m)
{
    return m->nrun;
}

/* CFASIM_FINITE, CFASIM_LASSO (cfasim_loop_start: the index of the state
 * where the loop starts; the last state equals it) or CFASIM_DEADLOCK (the
 * last state repeats forever; cfasim_loop_start is its index). */
static inline int cfasim_run_kind(const cfasim *m)
{
    return m->runkind;
}

static inline size_t cfasim_loop_start(const cfasim *m)
{
    return m->loop;
}

static inline int cfasim_state_has(const cfasim *m, size_t i, const char *prop)
{
    return i < m->nrun ? cfasim_prop(m, cfasim_run_state(m, i), prop) : -1;
}

/* ---- breadth-first exploration ---- */

typedef int (*cfasim_goal)(const cfasim *m, const long *s, void *ctx);

/* Goals for cfasim_bfs: a deadlock; a NULL-terminated conjunction of
 * atomic propositions. */
static inline int cfasim_goal_dead(const cfasim *m, const long *s, void *ctx)
{
    (void)ctx;
    return cfasim_dead(m, s) == 1;
}

static inline int cfasim_goal_props(const cfasim *m, const long *s, void *ctx)
{
    for (const char *const *p = ctx; *p; p++)
        if (cfasim_prop(m, s, *p) != 1)
            return 0;
    return 1;
}

typedef struct cs_space {
    const cfasim *m;
    long *st;
    size_t n, cap, *parent, *tab, tcap;
    long limit;
    int fail;
} cs_space;

static inline size_t cs_hash(const long *s, int w)
{
    unsigned long long h = 1469598103934665603ull;
    for (int i = 0; i < w; i++)
        h = (h ^ (unsigned long long)s[i]) * 1099511628211ull;
    return (size_t)h;
}

static inline int cs_rehash(cs_space *S)
{
    size_t nc = S->tcap ? S->tcap * 2 : 1024;
    size_t *t = calloc(nc, sizeof *t);
    if (!t)
        return -1;
    for (size_t i = 0; i < S->n; i++) {
        size_t j = cs_hash(S->st + i * (size_t)S->m->width, S->m->width) & (nc - 1);
        while (t[j])
            j = (j + 1) & (nc - 1);
        t[j] = i + 1;
    }
    free(S->tab);
    S->tab = t;
    S->tcap = nc;
    return 0;
}

/* Adds s (reached from parent) unless seen; nonzero stops the search. */
static inline int cs_add(cs_space *S, const long *s, size_t parent)
{
    size_t w = (size_t)S->m->width;
    if ((S->n + 1) * 2 > S->tcap && cs_rehash(S) < 0)
        return S->fail = 1;
    size_t j = cs_hash(s, S->m->width) & (S->tcap - 1);
    for (; S->tab[j]; j = (j + 1) & (S->tcap - 1))
        if (!memcmp(S->st + (S->tab[j] - 1) * w, s, w * sizeof *s))
            return 0;
    if ((long)S->n >= S->limit)
        return S->fail = 1;
    if (S->n == S->cap) {
        size_t nc = S->cap ? S->cap * 2 : 1024;
        long *st = realloc(S->st, nc * (w ? w : 1) * sizeof *st);
        size_t *pa = realloc(S->parent, nc * sizeof *pa);
        if (st)
            S->st = st;
        if (pa)
            S->parent = pa;
        if (!st || !pa)
            return S->fail = 1;
        S->cap = nc;
    }
    memcpy(S->st + S->n * w, s, w * sizeof *s);
    S->parent[S->n] = parent;
    S->tab[j] = ++S->n;
    return 0;
}

typedef struct cs_expand {
    cs_space *S;
    size_t from;
} cs_expand;

static inline int cs_expand_step(void *ctx, const long *from, const long *to, int a,
                                 const cs_trans *t)
{
    cs_expand *x = ctx;
    (void)from, (void)a, (void)t;
    return cs_add(x->S, to, x->from);
}

typedef struct cs_edge {
    const cfasim *m;
    const long *want;
    cs_buf *out;
} cs_edge;

static inline int cs_edge_step(void *ctx, const long *from, const long *to, int a,
                               const cs_trans *T)
{
    cs_edge *x = ctx;
    if (memcmp(to, x->want, (size_t)x->m->width * sizeof *to))
        return 0;
    cs_put_step(x->out, x->m, from, to, a, T);
    cs_put(x->out, "\n");
    return 1;
}

/* Breadth-first from the initial state, steps in the order of §5.2, until
 * the first state in order of discovery that satisfies goal (all states
 * if goal is NULL).  1 if one was found, and then *run (if run) is the
 * path to it in the format of §7, from the initial to the final state
 * line, to be freed; 0 if none is reachable; -1 beyond limit states or
 * out of memory.  *count (if count) is the number of states stored. */
static inline int cfasim_bfs(const cfasim *m, long limit, cfasim_goal goal, void *ctx, long *count,
                             char **run)
{
    cs_space S = {m, NULL, 0, 0, NULL, NULL, 0, limit, 0};
    size_t w = (size_t)m->width;
    long *cur = calloc(w ? w : 1, sizeof *cur);
    int found = 0;
    size_t hit = 0;
    if (run)
        *run = NULL;
    if (!cur || cs_add(&S, m->init, 0))
        S.fail = 1;
    for (size_t i = 0; !S.fail && i < S.n; i++) {
        memcpy(cur, S.st + i * w, w * sizeof *cur);    /* cs_add may move S.st */
        if (goal && goal(m, cur, ctx)) {
            found = 1;
            hit = i;
            break;
        }
        cs_expand x = {&S, i};
        if (cs_steps(m, cur, -1, cs_expand_step, &x) < 0)
            S.fail = 1;
    }
    if (found && run && !S.fail) {
        size_t depth = 0;
        for (size_t i = hit; i; i = S.parent[i])
            depth++;
        size_t *path = calloc(depth + 1, sizeof *path);
        cs_buf b = {0};
        if (!path)
            S.fail = 1;
        if (path)
            for (size_t i = hit, k = depth + 1; k-- > 0; i = S.parent[i])
                path[k] = i;
        if (path) {
            cs_put(&b, "*** initial state: ");
            cs_put_state(&b, m, S.st);
            cs_put(&b, " ***\n");
            for (size_t k = 1; k <= depth; k++) {
                cs_edge e = {m, S.st + path[k] * w, &b};
                if (cs_steps(m, S.st + path[k - 1] * w, -1, cs_edge_step, &e) != 1)
                    b.oom = 1;
            }
            cs_put(&b, "*** final state: ");
            cs_put_state(&b, m, S.st + hit * w);
            cs_put(&b, " ***\n");
            if (b.oom)
                S.fail = 1;
        }
        free(path);
        if (S.fail)
            free(b.p);
        else
            *run = b.p;
    }
    if (count)
        *count = (long)S.n;
    free(cur);
    free(S.st);
    free(S.parent);
    free(S.tab);
    return S.fail ? -1 : found;
}

/* The number of reachable states; -1 beyond limit or out of memory. */
static inline long cfasim_count_reachable(const cfasim *m, long limit)
{
    long n = 0;
    return cfasim_bfs(m, limit, NULL, NULL, &n, NULL) < 0 ? -1 : n;
}

/* 1 if a deadlock is reachable, 0 if not, -1 beyond limit. */
static inline int cfasim_has_deadlock(const cfasim *m, long limit)
{
    return cfasim_bfs(m, limit, cfasim_goal_dead, NULL, NULL, NULL);
}

#endif
