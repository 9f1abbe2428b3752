/* B(PN)² programs read as bpn2-format.md §2 says: the file is cut into
 * tokens, then parsed by recursive descent into declarations, actions
 * (with CFA expressions, input/cfa/cfa.h) and the command tree.  The first
 * error stops the reading with one "FILE:LINE: message".
 *
 * One point of the grammar needs care: '>' both closes an action and
 * compares.  Inside an action a '>' followed by something that can start
 * an operand compares; any other '>' closes the action (no command can
 * follow an action without ';', '[]', '||', ')' or a keyword between). */
#include "input/bpn2/bpn2.h"
#include "base/grow.h"
#include "base/readfile.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define BP_MAX_FILE ((size_t)64 << 20)
#define BP_MAX_DEPTH 500          /* nesting of commands, parentheses and prefix operators:
                                   * the parser's recursion */
#define BP_MAX_RANGE 1000000      /* values of one variable: places, §3 */
#define BP_MAX_CAPACITY 64        /* slots of one channel */

typedef enum {
    K_EOF, K_ID, K_NUM,
    K_BEGIN, K_END, K_VAR, K_INIT, K_CHAN, K_OF, K_DO, K_OD, K_REPEAT, K_EXIT,
    K_AND, K_OR, K_NOT, K_TRUE, K_FALSE, K_MOD,
    K_LT, K_GT, K_LE, K_GE, K_EQ, K_NE, K_PLUS, K_MINUS, K_STAR, K_SLASH,
    K_LPAR, K_RPAR, K_LBRACE, K_RBRACE, K_DOTS, K_COMMA, K_COLON, K_SEMI,
    K_PAR, K_BOX, K_QUOTE, K_BANG, K_QUERY, K_LBRACKET, K_RBRACKET
} kind;

static const char *const keywords[] = {
    [K_BEGIN] = "begin", [K_END] = "end", [K_VAR] = "var", [K_INIT] = "init",
    [K_CHAN] = "chan", [K_OF] = "of", [K_DO] = "do", [K_OD] = "od",
    [K_REPEAT] = "repeat", [K_EXIT] = "exit", [K_AND] = "and", [K_OR] = "or",
    [K_NOT] = "not", [K_TRUE] = "true", [K_FALSE] = "false", [K_MOD] = "mod",
};

/* Words of the full language (or of PEP's files) that the fragment leaves
 * out (§6): refused by name rather than misread as identifiers. */
static const char *const left_out[][2] = {
    {"procedure", "procedures"}, {"proc", "procedures"}, {"call", "procedure calls"},
    {"array", "arrays"}, {"PROGRAM", "PEP's PROGRAM headers"},
    {"program", "PEP's program headers"}, {"if", "if statements"}, {"fi", "if statements"},
    {"while", "while loops"}, {"const", "constants"}, {"stack", "stacks"},
    {"sem", "semaphores"}, {"function", "functions"},
};

typedef struct tok {
    kind k;
    long line;
    const char *s;     /* where it starts in the text */
    size_t len;
    int64_t value;     /* K_NUM */
} tok;

typedef struct parser {
    const char *path;
    tok *toks;
    size_t ntoks, pos;
    bp_program *prog;
    uint32_t *scope;   /* visible declarations, innermost last */
    size_t nscope, cap_scope;
    unsigned depth;
    /* the action being read */
    int32_t send, recv;
    int failed;
} parser;

static int fail(parser *p, long line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail(parser *p, long line, const char *fmt, ...)
{
    if (p->failed)
        return -1;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    nc_error(p->path, line, "%s", msg);
    p->failed = 1;
    return -1;
}

/* ------------------------------------------------------------------ */
/* tokens */

static int is_alpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static int push_tok(parser *p, size_t *cap, tok t)
{
    if (GROW(p->toks, *cap, p->ntoks + 1) < 0)
        return fail(p, t.line, "out of memory");
    p->toks[p->ntoks++] = t;
    return 0;
}

static int tokenize(parser *p, const char *s, const char *end)
{
    size_t cap = 0;
    long line = 1;
    while (s < end) {
        char c = *s;
        if (c == '\n') {
            line++;
            s++;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
            s++;
            continue;
        }
        if (c == '/' && s + 1 < end && s[1] == '/') {
            while (s < end && *s != '\n')
                s++;
            continue;
        }
        if (c == '/' && s + 1 < end && s[1] == '*') {
            long start = line;
            s += 2;
            while (s + 1 < end && !(s[0] == '*' && s[1] == '/')) {
                if (*s == '\n')
                    line++;
                s++;
            }
            if (s + 1 >= end)
                return fail(p, start, "comment not closed");
            s += 2;
            continue;
        }
        tok t = {K_EOF, line, s, 1, 0};
        if (is_alpha(c)) {
            while (s + t.len < end && (is_alpha(s[t.len]) || is_digit(s[t.len]) ||
                                        s[t.len] == '_'))
                t.len++;
            t.k = K_ID;
            for (size_t k = 0; k < sizeof keywords / sizeof *keywords; k++)
                if (keywords[k] && strlen(keywords[k]) == t.len && !strncmp(keywords[k], s, t.len))
                    t.k = (kind)k;
            for (size_t k = 0; t.k == K_ID && k < sizeof left_out / sizeof *left_out; k++)
                if (strlen(left_out[k][0]) == t.len && !strncmp(left_out[k][0], s, t.len))
                    return fail(p, line, "'%s': %s are not supported in mck's B(PN)² fragment",
                                left_out[k][0], left_out[k][1]);
        } else if (is_digit(c)) {
            uint64_t v = 0;
            t.len = 0;
            while (s + t.len < end && is_digit(s[t.len])) {
                unsigned d = (unsigned)(s[t.len] - '0');
                if (v > ((uint64_t)INT64_MAX - d) / 10)
                    return fail(p, line, "number too large");
                v = v * 10 + d;
                t.len++;
            }
            t.k = K_NUM;
            t.value = (int64_t)v;
        } else {
            char n = s + 1 < end ? s[1] : '\0';
            t.len = 2;
            if (c == '<' && n == '=') t.k = K_LE;
            else if (c == '>' && n == '=') t.k = K_GE;
            else if (c == '!' && n == '=') t.k = K_NE;
            else if (c == '.' && n == '.') t.k = K_DOTS;
            else if (c == '|' && n == '|') t.k = K_PAR;
            else if (c == '[' && n == ']') t.k = K_BOX;
            else {
                t.len = 1;
                switch (c) {
                case '<': t.k = K_LT; break;
                case '>': t.k = K_GT; break;
                case '=': t.k = K_EQ; break;
                case '+': t.k = K_PLUS; break;
                case '-': t.k = K_MINUS; break;
                case '*': t.k = K_STAR; break;
                case '/': t.k = K_SLASH; break;
                case '(': t.k = K_LPAR; break;
                case ')': t.k = K_RPAR; break;
                case '{': t.k = K_LBRACE; break;
                case '}': t.k = K_RBRACE; break;
                case ',': t.k = K_COMMA; break;
                case ':': t.k = K_COLON; break;
                case ';': t.k = K_SEMI; break;
                case '\'': t.k = K_QUOTE; break;
                case '!': t.k = K_BANG; break;
                case '?': t.k = K_QUERY; break;
                case '[': t.k = K_LBRACKET; break;
                case ']': t.k = K_RBRACKET; break;
                default:
                    if ((unsigned char)c >= 32 && (unsigned char)c < 127)
                        return fail(p, line, "unexpected character '%c'", c);
                    return fail(p, line, "unexpected byte 0x%02x", (unsigned char)c);
                }
            }
        }
        if (push_tok(p, &cap, t) < 0)
            return -1;
        s += t.len;
    }
    tok eof = {K_EOF, line, end, 0, 0};
    return push_tok(p, &cap, eof);
}

static const tok *cur(const parser *p)
{
    return &p->toks[p->pos];
}

static kind peek(const parser *p)
{
    return p->toks[p->pos].k;
}

static kind peek2(const parser *p)
{
    return p->pos + 1 < p->ntoks ? p->toks[p->pos + 1].k : K_EOF;
}

static const char *what(const tok *t, char *buf, size_t len)
{
    if (t->k == K_EOF)
        return "the end of the file";
    snprintf(buf, len, "'%.*s'", (int)(t->len > 30 ? 30 : t->len), t->s);
    return buf;
}

static int expect(parser *p, kind k, const char *text)
{
    if (peek(p) == k) {
        p->pos++;
        return 0;
    }
    char b[48];
    return fail(p, cur(p)->line, "%s expected, not %s", text, what(cur(p), b, sizeof b));
}

static char *tok_str(const tok *t)
{
    return strndup(t->s, t->len);
}

/* ------------------------------------------------------------------ */
/* declarations (§2) */

static int64_t lookup(const parser *p, const tok *t)
{
    for (size_t i = p->nscope; i-- > 0;) {
        const bp_decl *d = &p->prog->decls[p->scope[i]];
        if (strlen(d->name) == t->len && !strncmp(d->name, t->s, t->len))
            return p->scope[i];
    }
    return -1;
}

static int signed_num(parser *p, int64_t *out)
{
    int neg = peek(p) == K_MINUS;
    if (neg)
        p->pos++;
    if (peek(p) != K_NUM)
        return expect(p, K_NUM, "a number");
    *out = neg ? -cur(p)->value : cur(p)->value;
    p->pos++;
    return 0;
}

/* "{" NUM ".." NUM "}" */
static int range(parser *p, int64_t *lo, int64_t *hi)
{
    long line = cur(p)->line;
    if (expect(p, K_LBRACE, "'{' of a range {lo..hi}") < 0 || signed_num(p, lo) < 0 ||
        expect(p, K_DOTS, "'..'") < 0 || signed_num(p, hi) < 0 ||
        expect(p, K_RBRACE, "'}'") < 0)
        return -1;
    if (*lo > *hi)
        return fail(p, line, "empty range {%lld..%lld}", (long long)*lo, (long long)*hi);
    if ((uint64_t)*hi - (uint64_t)*lo >= BP_MAX_RANGE)
        return fail(p, line, "range {%lld..%lld} has more than %d values", (long long)*lo,
                    (long long)*hi, BP_MAX_RANGE);
    return 0;
}

static int add_decl(parser *p, const tok *name)
{
    bp_program *g = p->prog;
    if (g->ndecls >= UINT32_MAX / 2)
        return fail(p, name->line, "too many declarations");
    if (GROW(g->decls, g->cap_decls, g->ndecls + 1) < 0 ||
        GROW(p->scope, p->cap_scope, p->nscope + 1) < 0)
        return fail(p, name->line, "out of memory");
    bp_decl *d = &g->decls[g->ndecls];
    memset(d, 0, sizeof *d);
    d->name = tok_str(name);
    d->line = name->line;
    int hides = 0;
    for (size_t i = 0; d->name && i < g->ndecls; i++)
        hides |= !strcmp(g->decls[i].name, d->name);
    if (d->name && hides) {
        /* a second hiding declaration on the same line would get the same
         * NAME@LINE: the k-th one there is NAME@LINE.k, so runs and place
         * names never show two variables as one */
        unsigned same_line = 0;
        for (size_t i = 0; i < g->ndecls; i++)
            same_line += g->decls[i].line == d->line && !strcmp(g->decls[i].name, d->name) &&
                         strchr(g->decls[i].display, '@') != NULL;
        char buf[64];
        if (same_line)
            snprintf(buf, sizeof buf, "@%ld.%u", name->line, same_line + 1);
        else
            snprintf(buf, sizeof buf, "@%ld", name->line);
        d->display = malloc(strlen(d->name) + strlen(buf) + 1);
        if (d->display)
            sprintf(d->display, "%s%s", d->name, buf);
    } else if (d->name) {
        d->display = strdup(d->name);
    }
    g->ndecls++;
    if (!d->name || !d->display)
        return fail(p, name->line, "out of memory");
    p->scope[p->nscope++] = (uint32_t)(g->ndecls - 1);
    return 0;
}

/* "var" ID ("," ID)* ":" type ["init" NUM] ";" */
static int decl(parser *p, size_t block_start)
{
    p->pos++;   /* var */
    size_t first = p->prog->ndecls;
    for (;;) {
        if (peek(p) != K_ID)
            return expect(p, K_ID, "a variable name");
        const tok *name = cur(p);
        for (size_t i = block_start; i < p->nscope; i++) {
            const char *n = p->prog->decls[p->scope[i]].name;
            if (strlen(n) == name->len && !strncmp(n, name->s, name->len))
                return fail(p, name->line, "'%s' is declared twice in this block", n);
        }
        if (add_decl(p, name) < 0)
            return -1;
        p->pos++;
        if (peek(p) != K_COMMA)
            break;
        p->pos++;
    }
    if (expect(p, K_COLON, "':' and a type") < 0)
        return -1;
    int is_chan = peek(p) == K_CHAN;
    int64_t cap = 0, lo, hi, init = 0;
    long line = cur(p)->line;
    if (is_chan) {
        p->pos++;
        if (peek(p) != K_NUM)
            return expect(p, K_NUM, "the capacity of the channel");
        cap = cur(p)->value;
        p->pos++;
        if (cap > BP_MAX_CAPACITY)
            return fail(p, line, "channel capacity %lld is above %d", (long long)cap,
                        BP_MAX_CAPACITY);
        if (expect(p, K_OF, "'of'") < 0)
            return -1;
    }
    if (range(p, &lo, &hi) < 0)
        return -1;
    int has_init = peek(p) == K_INIT;
    if (has_init) {
        line = cur(p)->line;
        p->pos++;
        if (is_chan)
            return fail(p, line, "a channel starts empty: no init");
        if (signed_num(p, &init) < 0)
            return -1;
        if (init < lo || init > hi)
            return fail(p, line, "init %lld is outside the range {%lld..%lld}",
                        (long long)init, (long long)lo, (long long)hi);
    }
    for (size_t i = first; i < p->prog->ndecls; i++) {
        bp_decl *d = &p->prog->decls[i];
        d->is_chan = is_chan;
        d->capacity = (uint32_t)cap;
        d->lo = lo;
        d->hi = hi;
        d->has_init = has_init;
        d->init = has_init ? init : lo;
    }
    return expect(p, K_SEMI, "';' after the declaration");
}

/* ------------------------------------------------------------------ */
/* expressions: CFA's nodes, with CFA's type rules */

static cfa_expr *node(parser *p, cfa_op op, int is_bool, cfa_expr *l, cfa_expr *r)
{
    cfa_expr *e = calloc(1, sizeof *e);
    if (!e) {
        cfa_expr_free(l);
        cfa_expr_free(r);
        fail(p, cur(p)->line, "out of memory");
        return NULL;
    }
    e->op = op;
    e->is_bool = is_bool;
    e->l = l;
    e->r = r;
    return e;
}

static cfa_expr *expr(parser *p);

/* Flat chains (a + b + ..., c1; c2; ...) are loops; only nesting recurses. */
static void *nested_too_deeply(parser *p, const char *what)
{
    fail(p, cur(p)->line, "%s nested too deeply (at most %d levels of blocks, commands, "
         "parentheses and prefix operators together)", what, BP_MAX_DEPTH);
    return NULL;
}

/* Whether a token can start an operand: then a '>' before it compares. */
static int starts_operand(kind k)
{
    return k == K_ID || k == K_NUM || k == K_LPAR || k == K_QUOTE || k == K_MINUS ||
           k == K_NOT || k == K_TRUE || k == K_FALSE;
}

static cfa_expr *channel_end(parser *p, int64_t d, const tok *name, int send)
{
    int32_t *slot = send ? &p->send : &p->recv;
    if (*slot >= 0 && *slot != d) {
        fail(p, name->line, "a second %s in one action (%.*s%c): not supported in mck's "
             "B(PN)² fragment", send ? "send" : "receive", (int)name->len, name->s,
             send ? '!' : '?');
        return NULL;
    }
    *slot = (int32_t)d;
    if (p->send >= 0 && p->send == p->recv) {
        fail(p, name->line, "%.*s! and %.*s? in one action: not supported in mck's B(PN)² "
             "fragment", (int)name->len, name->s, (int)name->len, name->s);
        return NULL;
    }
    cfa_expr *e = node(p, send ? CE_POST : CE_PRE, 0, NULL, NULL);
    if (e)
        e->var = (uint32_t)d;
    return e;
}

static cfa_expr *primary(parser *p)
{
    const tok *t = cur(p);
    char b[48];
    switch (t->k) {
    case K_NUM: {
        p->pos++;
        cfa_expr *e = node(p, CE_INT, 0, NULL, NULL);
        if (e)
            e->value = t->value;
        return e;
    }
    case K_TRUE:
    case K_FALSE:
        p->pos++;
        return node(p, t->k == K_TRUE ? CE_TRUE : CE_FALSE, 1, NULL, NULL);
    case K_LPAR: {
        p->pos++;
        cfa_expr *e = expr(p);
        if (e && expect(p, K_RPAR, "')'") < 0) {
            cfa_expr_free(e);
            return NULL;
        }
        return e;
    }
    case K_QUOTE:
    case K_ID: {
        int pre = t->k == K_QUOTE;
        if (pre) {
            p->pos++;
            t = cur(p);
            if (t->k != K_ID) {
                fail(p, t->line, "a variable name expected after ', not %s", what(t, b, sizeof b));
                return NULL;
            }
        }
        p->pos++;
        int64_t d = lookup(p, t);
        if (d < 0) {
            fail(p, t->line, "undeclared variable '%.*s'", (int)t->len, t->s);
            return NULL;
        }
        if (peek(p) == K_LBRACKET) {
            fail(p, t->line, "'%.*s[': arrays are not supported in mck's B(PN)² fragment",
                 (int)t->len, t->s);
            return NULL;
        }
        if (p->prog->decls[d].is_chan) {
            /* "c!=e" is a send compared with e, not c != e */
            if (!pre && peek(p) == K_NE) {
                p->toks[p->pos].k = K_EQ;
                return channel_end(p, d, t, 1);
            }
            if (!pre && (peek(p) == K_BANG || peek(p) == K_QUERY)) {
                int send = peek(p) == K_BANG;
                p->pos++;
                return channel_end(p, d, t, send);
            }
            fail(p, t->line, "'%.*s' is a channel: write %.*s! (the value sent) or %.*s? (the "
                 "value received)", (int)t->len, t->s, (int)t->len, t->s, (int)t->len, t->s);
            return NULL;
        }
        if (peek(p) == K_BANG || peek(p) == K_QUERY) {
            fail(p, t->line, "'%.*s' is a variable, not a channel", (int)t->len, t->s);
            return NULL;
        }
        cfa_op op = pre ? CE_PRE : CE_PLAIN;
        if (!pre && peek(p) == K_QUOTE) {
            p->pos++;
            op = CE_POST;
        }
        cfa_expr *e = node(p, op, 0, NULL, NULL);
        if (e)
            e->var = (uint32_t)d;
        return e;
    }
    default:
        fail(p, t->line, "an operand expected, not %s", what(t, b, sizeof b));
        return NULL;
    }
}

static cfa_expr *typed(parser *p, cfa_op op, cfa_expr *l, cfa_expr *r, long line)
{
    int logic = op == CE_AND || op == CE_OR || op == CE_NOT;
    int compare = op >= CE_EQ && op <= CE_GE;
    if (!l || (!r && op != CE_NOT && op != CE_NEG)) {
        cfa_expr_free(l);
        cfa_expr_free(r);
        return NULL;
    }
    if (l->is_bool != logic || (r && r->is_bool != logic)) {
        cfa_expr_free(l);
        cfa_expr_free(r);
        fail(p, line, logic ? "a condition expected where a number stands"
                            : compare ? "numbers are compared, not conditions"
                                      : "a number expected where a condition stands");
        return NULL;
    }
    return node(p, op, logic || compare, l, r);
}

static cfa_expr *unary(parser *p)
{
    if (++p->depth > BP_MAX_DEPTH)
        return nested_too_deeply(p, "expression");
    cfa_expr *e;
    long line = cur(p)->line;
    if (peek(p) == K_MINUS) {
        p->pos++;
        e = typed(p, CE_NEG, unary(p), NULL, line);
    } else if (peek(p) == K_NOT) {
        p->pos++;
        e = typed(p, CE_NOT, unary(p), NULL, line);
    } else {
        e = primary(p);
    }
    p->depth--;
    return e;
}

static cfa_expr *product(parser *p)
{
    cfa_expr *e = unary(p);
    while (e && (peek(p) == K_STAR || peek(p) == K_SLASH || peek(p) == K_MOD)) {
        cfa_op op = peek(p) == K_STAR ? CE_MUL : peek(p) == K_SLASH ? CE_DIV : CE_MOD;
        long line = cur(p)->line;
        p->pos++;
        e = typed(p, op, e, unary(p), line);
    }
    return e;
}

static cfa_expr *sum(parser *p)
{
    cfa_expr *e = product(p);
    while (e && (peek(p) == K_PLUS || peek(p) == K_MINUS)) {
        cfa_op op = peek(p) == K_PLUS ? CE_ADD : CE_SUB;
        long line = cur(p)->line;
        p->pos++;
        e = typed(p, op, e, product(p), line);
    }
    return e;
}

static cfa_expr *comparison(parser *p)
{
    cfa_expr *e = sum(p);
    kind k = peek(p);
    if (!e || !(k == K_EQ || k == K_NE || k == K_LT || k == K_LE || k == K_GE ||
                (k == K_GT && starts_operand(peek2(p)))))
        return e;
    static const cfa_op ops[] = {[K_EQ] = CE_EQ, [K_NE] = CE_NE, [K_LT] = CE_LT,
                                 [K_LE] = CE_LE, [K_GT] = CE_GT, [K_GE] = CE_GE};
    long line = cur(p)->line;
    p->pos++;
    return typed(p, ops[k], e, sum(p), line);
}

static cfa_expr *conjunction(parser *p)
{
    cfa_expr *e = comparison(p);
    while (e && peek(p) == K_AND) {
        long line = cur(p)->line;
        p->pos++;
        e = typed(p, CE_AND, e, comparison(p), line);
    }
    return e;
}

static cfa_expr *expr(parser *p)
{
    if (++p->depth > BP_MAX_DEPTH)
        return nested_too_deeply(p, "expression");
    cfa_expr *e = conjunction(p);
    while (e && peek(p) == K_OR) {
        long line = cur(p)->line;
        p->pos++;
        e = typed(p, CE_OR, e, conjunction(p), line);
    }
    p->depth--;
    return e;
}

/* ------------------------------------------------------------------ */
/* actions and commands */

/* The uses of each variable: plain x next to x' or 'x is refused (§2). */
static int check_uses(parser *p, const cfa_code *c, unsigned *uses, long line)
{
    for (uint32_t i = 0; i < c->n; i++) {
        const cfa_instr *in = &c->v[i];
        if (in->op != CE_PLAIN && in->op != CE_PRE && in->op != CE_POST)
            continue;
        const bp_decl *d = &p->prog->decls[in->var];
        if (d->is_chan)
            continue;
        uses[in->var] |= in->op == CE_PLAIN ? 1u : in->op == CE_PRE ? 2u : 4u;
        if ((uses[in->var] & 1u) && (uses[in->var] & 6u))
            return fail(p, line, "plain %s next to %s' or '%s: use '%s for the old value",
                        d->name, d->name, d->name, d->name);
    }
    return 0;
}

/* The action's text, blanks collapsed, for runs. */
static char *action_text(const tok *from, const tok *to)
{
    size_t n = (size_t)(to->s - from->s);
    char *t = malloc(n + 1), *w = t;
    if (!t)
        return NULL;
    int blank = 0;
    for (size_t i = 0; i < n; i++) {
        char c = from->s[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') {
            blank = 1;
            continue;
        }
        if (blank && w > t)
            *w++ = ' ';
        blank = 0;
        *w++ = c;
    }
    *w = '\0';
    return t;
}

static bp_com *new_com(parser *p, bp_kind k, long line)
{
    bp_com *c = calloc(1, sizeof *c);
    if (!c) {
        fail(p, line, "out of memory");
        return NULL;
    }
    c->kind = k;
    c->line = line;
    return c;
}

static int add_kid(parser *p, bp_com *c, bp_com *kid, int repeat)
{
    if (GROW(c->kids, c->cap_kids, c->nkids + 1) < 0 ||
        (c->kind == BC_LOOP && GROW(c->repeat, c->cap_repeat, c->nkids + 1) < 0)) {
        bp_com_free(kid);
        return fail(p, c->line, "out of memory");
    }
    if (c->kind == BC_LOOP)
        c->repeat[c->nkids] = repeat;
    c->kids[c->nkids++] = kid;
    return 0;
}

/* "<" expr ">" */
static bp_com *action(parser *p)
{
    const tok *open = cur(p);
    long line = open->line;
    p->pos++;
    p->send = p->recv = -1;
    const tok *start = cur(p);
    cfa_expr *e = expr(p);
    if (!e)
        return NULL;
    if (!e->is_bool) {
        cfa_expr_free(e);
        fail(p, line, "an action is a condition, e.g. <x' = 'x + 1>, not a number");
        return NULL;
    }
    const tok *close = cur(p);
    if (expect(p, K_GT, "'>' closing the action") < 0) {
        cfa_expr_free(e);
        return NULL;
    }
    bp_program *g = p->prog;
    cfa_code code;
    if (cfa_code_from(e, &code) < 0) {
        fail(p, line, "out of memory");
        return NULL;
    }
    unsigned *uses = calloc(g->ndecls + 1, sizeof *uses);
    int rc = uses ? check_uses(p, &code, uses, line) : fail(p, line, "out of memory");
    free(uses);
    if (rc == 0 && GROW(g->actions, g->cap_actions, g->nactions + 1) < 0)
        rc = fail(p, line, "out of memory");
    if (rc != 0) {
        cfa_code_free(&code);
        return NULL;
    }
    bp_action *a = &g->actions[g->nactions];
    memset(a, 0, sizeof *a);
    a->code = code;
    a->line = line;
    a->send = p->send;
    a->recv = p->recv;
    a->text = action_text(start, close);
    g->nactions++;
    if (!a->text) {
        fail(p, line, "out of memory");
        return NULL;
    }
    bp_com *c = new_com(p, BC_ACTION, line);
    if (c)
        c->action = (uint32_t)(g->nactions - 1);
    return c;
}

static bp_com *com(parser *p);
static bp_com *block(parser *p);

/* "do" clause ("[]" clause)* "od", clause = com ";" ("repeat" | "exit") */
static bp_com *loop(parser *p)
{
    bp_com *c = new_com(p, BC_LOOP, cur(p)->line);
    if (!c)
        return NULL;
    p->pos++;
    for (;;) {
        bp_com *body = com(p);
        if (!body || expect(p, K_SEMI, "'; repeat' or '; exit' ending the loop clause") < 0) {
            bp_com_free(body);
            bp_com_free(c);
            return NULL;
        }
        if (peek(p) != K_REPEAT && peek(p) != K_EXIT) {
            bp_com_free(body);
            bp_com_free(c);
            expect(p, K_REPEAT, "'repeat' or 'exit' ending the loop clause");
            return NULL;
        }
        int repeat = peek(p) == K_REPEAT;
        p->pos++;
        if (add_kid(p, c, body, repeat) < 0) {
            bp_com_free(c);
            return NULL;
        }
        if (peek(p) != K_BOX)
            break;
        p->pos++;
    }
    if (expect(p, K_OD, "'[]' and another clause, or 'od'") < 0) {
        bp_com_free(c);
        return NULL;
    }
    return c;
}

static bp_com *unit(parser *p)
{
    char b[48];
    switch (peek(p)) {
    case K_LT: return action(p);
    case K_BEGIN: return block(p);
    case K_DO: return loop(p);
    case K_LPAR: {
        p->pos++;
        bp_com *c = com(p);
        if (c && expect(p, K_RPAR, "')'") < 0) {
            bp_com_free(c);
            return NULL;
        }
        return c;
    }
    case K_OD:
        fail(p, cur(p)->line, "'repeat' or 'exit' expected before 'od': every loop clause "
             "ends with '; repeat' or '; exit'");
        return NULL;
    default:
        fail(p, cur(p)->line, "a command (<action>, begin, do or '(') expected, not %s",
             what(cur(p), b, sizeof b));
        return NULL;
    }
}

/* One level of the binary commands: parts separated by sep. */
static bp_com *chain(parser *p, bp_kind k, kind sep, bp_com *(*part)(parser *))
{
    long line = cur(p)->line;
    bp_com *first = part(p);
    if (!first)
        return NULL;
    /* "; repeat" and "; exit" end a loop clause, not a sequence */
    if (peek(p) != sep || (sep == K_SEMI && (peek2(p) == K_REPEAT || peek2(p) == K_EXIT)))
        return first;
    bp_com *c = new_com(p, k, line);
    if (!c || add_kid(p, c, first, 0) < 0) {
        if (!c)
            bp_com_free(first);
        bp_com_free(c);
        return NULL;
    }
    while (peek(p) == sep && !(sep == K_SEMI && (peek2(p) == K_REPEAT || peek2(p) == K_EXIT))) {
        p->pos++;
        bp_com *next = part(p);
        if (!next || add_kid(p, c, next, 0) < 0) {
            bp_com_free(c);
            return NULL;
        }
    }
    return c;
}

static bp_com *seq(parser *p)
{
    return chain(p, BC_SEQ, K_SEMI, unit);
}

static bp_com *choice(parser *p)
{
    return chain(p, BC_CHOICE, K_BOX, seq);
}

static bp_com *com(parser *p)
{
    if (++p->depth > BP_MAX_DEPTH) {
        nested_too_deeply(p, "commands");
        return NULL;
    }
    bp_com *c = chain(p, BC_PAR, K_PAR, choice);
    p->depth--;
    return c;
}

/* "begin" decl* com "end": declarations visible up to the end */
static bp_com *block(parser *p)
{
    size_t scope = p->nscope;
    p->pos++;
    while (peek(p) == K_VAR)
        if (decl(p, scope) < 0)
            return NULL;
    if (peek(p) == K_END) {
        fail(p, cur(p)->line, "an empty block: a block needs a command");
        return NULL;
    }
    bp_com *c = com(p);
    if (c && expect(p, K_END, "'end' closing the block") < 0) {
        bp_com_free(c);
        return NULL;
    }
    p->nscope = scope;
    return c;
}

void bp_com_free(bp_com *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->nkids; i++)
        bp_com_free(c->kids[i]);
    free(c->kids);
    free(c->repeat);
    free(c);
}

void bp_program_free(bp_program *g)
{
    if (!g)
        return;
    for (size_t i = 0; i < g->ndecls; i++) {
        free(g->decls[i].name);
        free(g->decls[i].display);
    }
    for (size_t i = 0; i < g->nactions; i++) {
        bp_action *a = &g->actions[i];
        cfa_code_free(&a->code);
        free(a->text);
        free(a->branch);
        free(a->entry);
        free(a->exit);
        free(a->entry_places);
    }
    free(g->decls);
    free(g->actions);
    bp_com_free(g->body);
    free(g->trans);
    free(g->file);
    free(g);
}

bp_program *bp_parse_file(const char *path)
{
    size_t len;
    char *text = read_file(path, BP_MAX_FILE, &len);
    if (!text)
        return NULL;
    parser p = {.path = path};
    p.prog = calloc(1, sizeof *p.prog);
    if (!p.prog || !(p.prog->file = strdup(path))) {
        nc_error(path, 0, "out of memory");
        bp_program_free(p.prog);
        free(text);
        return NULL;
    }
    if (tokenize(&p, text, text + len) == 0) {
        if (peek(&p) != K_BEGIN) {
            char b[48];
            fail(&p, cur(&p)->line, "a program is a block: 'begin' expected, not %s",
                 what(cur(&p), b, sizeof b));
        } else {
            p.prog->body = block(&p);
            if (p.prog->body && peek(&p) != K_EOF)
                fail(&p, cur(&p)->line, "text after the program's 'end'");
        }
    }
    free(p.toks);
    free(p.scope);
    free(text);
    if (p.failed || !p.prog->body) {
        if (!p.failed)
            nc_error(path, 0, "no program");
        bp_program_free(p.prog);
        return NULL;
    }
    return p.prog;
}
