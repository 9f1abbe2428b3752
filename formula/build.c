/* The grammar's actions: building tree nodes with the bookkeeping kind
 * checks need, and turning sums of quoted strings into comparisons. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/grow.h"
#include "fyint.h"

/* ------------------------------------------------------------------ */
/* nodes */

static const fy_occ no_occ = { 0, 0, NULL };

/* A malloc'd formatted string, NULL on no memory. */
static char *joinf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *joinf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = n < 0 ? NULL : malloc((size_t)n + 1);
    if (s) {
        va_start(ap, fmt);
        vsnprintf(s, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    return s;
}

static fy_occ occ(long line, long col, const char *name)
{
    fy_occ o = { line, col, name };
    return o;
}

/* The occurrence earlier in the file (macro bodies keep the position of
 * their #define line). */
static fy_occ first(fy_occ a, fy_occ b)
{
    if (!a.line)
        return b;
    if (!b.line)
        return a;
    if (b.line < a.line || (b.line == a.line && b.col < a.col))
        return b;
    return a;
}

static const char *op_name(tree_op op)
{
    switch (op) {
    case T_X: return "X";
    case T_F: return "F";
    case T_G: return "G";
    case T_U: return "U";
    case T_R: return "R";
    case T_EX: return "EX";
    case T_AX: return "AX";
    case T_EF: return "EF";
    case T_AF: return "AF";
    case T_EG: return "EG";
    case T_AG: return "AG";
    case T_EU: return "E[..U..]";
    case T_AU: return "A[..U..]";
    default: return "?";
    }
}

static int is_ltl(tree_op op)
{
    return op == T_X || op == T_F || op == T_G || op == T_U || op == T_R;
}

void fy_node_free(fy_node *n)
{
    tree_free(n->t);
    n->t = NULL;
}

static int no_memory(fy_state *st, long line, long col)
{
    fy_error(st, line, col, "out of memory");
    return -1;
}

void fy_nested_too_deeply(fy_state *st, long line, long col)
{
    fy_error(st, line, col, "formula nested too deeply (more than " FY_MAX_DEPTH_TEXT " levels; "
             "parentheses, prefix operators and each operand of a chain of U, R, -> or <-> "
             "count one)");
}

static int too_deep(fy_state *st, unsigned depth, long line, long col)
{
    if (depth <= FY_MAX_DEPTH)
        return 0;
    fy_nested_too_deeply(st, line, col);
    return 1;
}

static int too_big(fy_state *st, uint64_t size, long line, long col)
{
    if (size <= FY_MAX_NODES)
        return 0;
    fy_error(st, line, col, "formula too large (more than %u operators and atoms once W and "
             "macros are expanded)", FY_MAX_NODES);
    return 1;
}

int fy_leaf(fy_state *st, fy_node *out, tree_t *t, long line, long col)
{
    if (!t)
        return no_memory(st, line, col);
    out->t = t;
    out->depth = 1;
    out->size = 1;
    out->ctl = out->ltl = out->ltl_below = no_occ;
    return 0;
}

int fy_prefix(fy_state *st, fy_node *out, tree_op op, fy_node *child, long line, long col)
{
    fy_node c = *child;
    if (too_deep(st, c.depth + 1, line, col) || too_big(st, c.size + 1, line, col)) {
        fy_node_free(&c);
        return -1;
    }
    if (!(out->t = tree_unary(op, c.t)))
        return no_memory(st, line, col);
    out->depth = c.depth + 1;
    out->size = c.size + 1;
    out->ctl = c.ctl;
    out->ltl_below = c.ltl;
    out->ltl = c.ltl;
    if (is_ltl(op))
        out->ltl = first(occ(line, col, op_name(op)), c.ltl);
    else if (op != T_NOT)
        out->ctl = first(occ(line, col, op_name(op)), c.ctl);
    return 0;
}

int fy_infix(fy_state *st, fy_node *out, tree_op op, fy_node *l, fy_node *r, long line, long col)
{
    fy_node a = *l, b = *r;
    unsigned depth = 1 + (a.depth > b.depth ? a.depth : b.depth);
    int weak = (int)op == FY_WEAK_UNTIL;
    /* both sizes are at most FY_MAX_NODES: no overflow */
    uint64_t size = 1 + a.size + b.size + (weak ? 1 + b.size : 0);
    if (too_deep(st, depth, line, col) || too_big(st, size, line, col)) {
        fy_node_free(&a);
        fy_node_free(&b);
        return -1;
    }
    if (weak) {
        tree_t *b2 = tree_copy(b.t);
        tree_t *either = b2 ? tree_binary(T_OR, a.t, b2) : (tree_free(a.t), NULL);
        out->t = either ? tree_binary(T_R, b.t, either) : (tree_free(b.t), NULL);
        depth++;
    } else {
        out->t = tree_binary(op, a.t, b.t);
    }
    if (!out->t)
        return no_memory(st, line, col);
    out->depth = depth;
    out->size = size;
    out->ctl = first(a.ctl, b.ctl);
    out->ltl_below = first(a.ltl, b.ltl);
    out->ltl = out->ltl_below;
    if (weak || is_ltl(op))
        out->ltl = first(occ(line, col, weak ? "W" : op_name(op)), out->ltl_below);
    return 0;
}

fy_chain *fy_chain_start(fy_state *st, tree_op op, fy_node *first)
{
    fy_chain *c = calloc(1, sizeof *c);
    if (!c) {
        fy_node_free(first);
        fy_error(st, 0, 0, "out of memory");
        return NULL;
    }
    tree_chain_start(&c->c, op);
    c->first = *first;
    c->alone = 1;
    c->depth = first->depth;
    c->size = first->size;
    c->ctl = first->ctl;
    c->ltl = first->ltl;
    return c;
}

void fy_chain_free(fy_chain *c)
{
    if (!c)
        return;
    if (c->alone)
        fy_node_free(&c->first);
    tree_chain_discard(&c->c);
    free(c);
}

int fy_chain_add(fy_state *st, fy_chain *c, fy_node *operand, long line, long col)
{
    fy_node b = *operand;
    /* both sizes are at most FY_MAX_NODES: no overflow */
    uint64_t size = c->size + 1 + b.size;
    if (too_big(st, size, line, col)) {
        fy_node_free(&b);
        fy_chain_free(c);
        return -1;
    }
    if (c->alone) {
        c->alone = 0;
        if (tree_chain_add(&c->c, c->first.t) < 0) {
            fy_node_free(&b);
            fy_chain_free(c);
            return no_memory(st, line, col);
        }
    }
    if (tree_chain_add(&c->c, b.t) < 0) {
        fy_chain_free(c);
        return no_memory(st, line, col);
    }
    c->size = size;
    if (b.depth > c->depth)
        c->depth = b.depth;
    c->ctl = first(c->ctl, b.ctl);
    c->ltl = first(c->ltl, b.ltl);
    if (too_deep(st, c->depth + tree_chain_height(&c->c), line, col)) {
        fy_chain_free(c);
        return -1;
    }
    return 0;
}

int fy_chain_end(fy_state *st, fy_node *out, fy_chain *c)
{
    if (c->alone) {
        *out = c->first;
        free(c);
        return 0;
    }
    unsigned depth = c->depth + tree_chain_height(&c->c);
    out->t = tree_chain_end(&c->c);
    out->depth = depth;
    out->size = c->size;
    out->ctl = c->ctl;
    out->ltl = out->ltl_below = c->ltl;
    free(c);
    return out->t ? 0 : no_memory(st, 0, 0);
}

static tree_op quantify(char quant, tree_op op)
{
    int a = quant == 'A';
    switch (op) {
    case T_X: return a ? T_AX : T_EX;
    case T_F: return a ? T_AF : T_EF;
    case T_G: return a ? T_AG : T_EG;
    default: return a ? T_AU : T_EU;
    }
}

int fy_quantified(fy_state *st, fy_node *out, char quant, tree_op ltl_op, fy_node *child,
                  long line, long col)
{
    fy_node c = *child;
    tree_op op = quantify(quant, ltl_op);
    if (fy_prefix(st, out, op, &c, line, col))
        return -1;
    return 0;
}

int fy_quantified_until(fy_state *st, fy_node *out, char quant, fy_node *inner,
                        long line, long col, long inner_line, long inner_col)
{
    fy_node c = *inner;
    /* CTL has no path formula other than the until */
    if (c.t->op != T_U) {
        fy_node_free(&c);
        fy_error(st, inner_line, inner_col, "path formula expected after %c", quant);
        return -1;
    }
    c.t->op = quantify(quant, T_U);
    *out = c;
    out->ctl = first(occ(line, col, op_name(c.t->op)), c.ctl);
    out->ltl = c.ltl_below;
    return 0;
}

int fy_macro_use(fy_state *st, fy_node *out, int index, long line, long col)
{
    const fy_node *body = &st->macros->v[index].node;
    *out = *body;
    if (!(out->t = tree_copy(body->t)))
        return no_memory(st, line, col);
    return 0;
}

/* ------------------------------------------------------------------ */
/* atoms */

/* Hands the text between the quotes to the language. */
static tree_t *resolve(fy_state *st, ap_pos pos, const char *quoted, long line, long col)
{
    if (!st->resolve) {
        fy_error(st, line, col, "atomic propositions are not supported here");
        return NULL;
    }
    size_t len = strlen(quoted);
    char *inner = strndup(quoted + 1, len - 2);
    if (!inner) {
        no_memory(st, line, col);
        return NULL;
    }
    char msg[512] = "";
    tree_t *t = st->resolve(st->net, st->lang_data, pos, inner, msg, sizeof msg);
    free(inner);
    if (!t)
        fy_error(st, line, col, "%s", msg[0] ? msg : "out of memory");
    return t;
}

int fy_atom_bool(fy_state *st, fy_node *out, char *text, long line, long col)
{
    tree_t *t = resolve(st, AP_BOOL, text, line, col);
    /* the text lets printing reproduce the atom without the language */
    int bad = !t || tree_set_text(t, text) < 0;
    free(text);
    if (bad) {
        tree_free(t);
        return st->failed ? -1 : no_memory(st, line, col);
    }
    return fy_leaf(st, out, t, line, col);
}

int fy_fireable(fy_state *st, fy_node *out, char *text, long line, long col)
{
    tree_t *t = resolve(st, AP_FIREABLE, text, line, col);
    char *spelled = t ? joinf("fireable(%s)", text) : NULL;
    int bad = !t || !spelled || tree_set_text(t, spelled) < 0;
    free(text);
    free(spelled);
    if (bad) {
        tree_free(t);
        return st->failed ? -1 : no_memory(st, line, col);
    }
    return fy_leaf(st, out, t, line, col);
}

/* ------------------------------------------------------------------ */
/* sums */

void fy_sum_free(fy_sum *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++)
        free(s->atoms[i].text);
    free(s->atoms);
    free(s->text);
    free(s);
}

static fy_sum *sum_fail(fy_state *st, fy_sum *s, long line, long col, const char *msg)
{
    fy_sum_free(s);
    fy_error(st, line, col, "%s", msg);
    return NULL;
}

fy_sum *fy_sum_const(fy_state *st, int64_t value)
{
    fy_sum *s = calloc(1, sizeof *s);
    if (!s || !(s->text = joinf("%" PRId64, value))) {
        free(s);
        fy_error(st, 0, 0, "out of memory");
        return NULL;
    }
    s->constant = value;
    return s;
}

fy_sum *fy_sum_atom(fy_state *st, char *text, int64_t coef, int scaled, long line, long col)
{
    fy_sum *s = calloc(1, sizeof *s);
    fy_atom *a = malloc(sizeof *a);
    if (!s || !a) {
        free(s);
        free(a);
        free(text);
        fy_error(st, line, col, "out of memory");
        return NULL;
    }
    *a = (fy_atom){ text, line, col, coef };
    s->atoms = a;
    s->n = s->cap = 1;
    s->bare = !scaled;
    s->text = scaled ? joinf("%" PRId64 " * %s", coef, text) : strdup(text);
    if (!s->text)
        return sum_fail(st, s, line, col, "out of memory");
    return s;
}

fy_sum *fy_sum_negate(fy_state *st, fy_sum *s, long line, long col)
{
    for (size_t i = 0; i < s->n; i++)
        if (__builtin_mul_overflow(s->atoms[i].coef, -1, &s->atoms[i].coef))
            return sum_fail(st, s, line, col, "integer overflow");
    if (__builtin_mul_overflow(s->constant, -1, &s->constant))
        return sum_fail(st, s, line, col, "integer overflow");
    char *text = joinf("-%s", s->text);
    if (!text)
        return sum_fail(st, s, line, col, "out of memory");
    free(s->text);
    s->text = text;
    s->text_len = s->text_cap = 0;
    s->bare = 0;
    return s;
}

/* Appends to the sum's text; long sums grow it geometrically, not by
 * copying it for every term. */
static int sum_append(fy_sum *s, const char *piece)
{
    size_t n = strlen(piece);
    if (!s->text_cap)
        s->text_len = s->text_cap = strlen(s->text);
    if (GROW(s->text, s->text_cap, s->text_len + n + 1) < 0)
        return -1;
    memcpy(s->text + s->text_len, piece, n + 1);
    s->text_len += n;
    return 0;
}

fy_sum *fy_sum_add(fy_state *st, fy_sum *a, fy_sum *b, int minus, long line, long col)
{
    int64_t k = minus ? -1 : 1;
    if (__builtin_mul_overflow(b->constant, k, &b->constant) ||
        __builtin_add_overflow(a->constant, b->constant, &a->constant)) {
        fy_sum_free(b);
        return sum_fail(st, a, line, col, "integer overflow");
    }
    if (GROW(a->atoms, a->cap, a->n + b->n) < 0) {
        fy_sum_free(b);
        return sum_fail(st, a, line, col, "out of memory");
    }
    for (size_t i = 0; i < b->n; i++) {
        fy_atom at = b->atoms[i];
        b->atoms[i].text = NULL;
        if (__builtin_mul_overflow(at.coef, k, &at.coef)) {
            free(at.text);
            fy_sum_free(b);
            return sum_fail(st, a, line, col, "integer overflow");
        }
        a->atoms[a->n++] = at;
    }
    int bad = sum_append(a, minus ? " - " : " + ") < 0 || sum_append(a, b->text) < 0;
    fy_sum_free(b);
    if (bad)
        return sum_fail(st, a, line, col, "out of memory");
    a->bare = 0;
    return a;
}

int fy_sum_alone(fy_state *st, fy_node *out, fy_sum *s, long line, long col)
{
    if (!s->bare) {
        fy_sum_free(s);
        fy_error(st, line, col, "comparison operator expected");
        return -1;
    }
    char *text = s->atoms[0].text;
    long aline = s->atoms[0].line, acol = s->atoms[0].col;
    s->atoms[0].text = NULL;
    fy_sum_free(s);
    return fy_atom_bool(st, out, text, aline, acol);
}

/* ------------------------------------------------------------------ */
/* comparisons */

typedef struct linear {
    lin_term *v;
    size_t n, cap;
    int64_t constant;
} linear;

static int lin_push(linear *lin, uint32_t place, int64_t coef)
{
    if (GROW(lin->v, lin->cap, lin->n + 1) < 0)
        return -1;
    lin->v[lin->n++] = (lin_term){ place, coef };
    return 0;
}

/* Adds factor times the linear term the language gives for one string.
 * Returns 0, -1 after an error. */
static int add_atom(fy_state *st, linear *lin, const fy_atom *a, int64_t factor,
                    long line, long col)
{
    tree_t *t = resolve(st, AP_COUNT, a->text, a->line, a->col);
    if (!t)
        return -1;
    int rc = 0;
    int64_t coef, k;
    if (t->op != T_CMP) {
        fy_error(st, a->line, a->col, "%s does not denote a number", a->text);
        rc = -1;
    } else if (__builtin_mul_overflow(t->constant, factor, &k) ||
               __builtin_add_overflow(lin->constant, k, &lin->constant)) {
        rc = 1;
    }
    for (uint32_t i = 0; rc == 0 && i < t->nterms; i++) {
        if (__builtin_mul_overflow(t->terms[i].coef, factor, &coef))
            rc = 1;
        else if (lin_push(lin, t->terms[i].place, coef) < 0)
            rc = no_memory(st, line, col);
    }
    tree_free(t);
    if (rc == 1) {
        fy_error(st, line, col, "integer overflow in comparison");
        rc = -1;
    }
    return rc;
}

static int add_sum(fy_state *st, linear *lin, const fy_sum *s, int64_t sign, long line, long col)
{
    int64_t k;
    if (__builtin_mul_overflow(s->constant, sign, &k) ||
        __builtin_add_overflow(lin->constant, k, &lin->constant)) {
        fy_error(st, line, col, "integer overflow in comparison");
        return -1;
    }
    for (size_t i = 0; i < s->n; i++) {
        int64_t factor;
        if (__builtin_mul_overflow(s->atoms[i].coef, sign, &factor)) {
            fy_error(st, line, col, "integer overflow in comparison");
            return -1;
        }
        if (add_atom(st, lin, &s->atoms[i], factor, line, col) < 0)
            return -1;
    }
    return 0;
}

static int cmp_place(const void *a, const void *b)
{
    const lin_term *x = a, *y = b;
    return (x->place > y->place) - (x->place < y->place);
}

/* One term per place, so that tree_cmp never has to merge (and could
 * not report an overflow if it did). */
static int merge_terms(linear *lin)
{
    if (lin->n)
        qsort(lin->v, lin->n, sizeof *lin->v, cmp_place);
    size_t k = 0;
    for (size_t i = 0; i < lin->n; i++) {
        if (k > 0 && lin->v[k - 1].place == lin->v[i].place) {
            if (__builtin_add_overflow(lin->v[k - 1].coef, lin->v[i].coef, &lin->v[k - 1].coef))
                return -1;
        } else {
            lin->v[k++] = lin->v[i];
        }
    }
    lin->n = k;
    return 0;
}

static const char *rel_spelling(int code)
{
    static const char *const names[] = {
        [REL_EQ] = "=", [REL_NE] = "!=", [REL_LT] = "<",
        [REL_LE] = "<=", [REL_GT] = ">", [REL_GE] = ">=",
    };
    return (code & FY_REL_DOUBLE) ? "==" : names[code & ~FY_REL_DOUBLE];
}

int fy_compare(fy_state *st, fy_node *out, fy_sum *l, int rel, fy_sum *r, long line, long col)
{
    linear lin = { NULL, 0, 0, 0 };
    tree_t *t = NULL;
    char *text = NULL;
    int rc = -1;
    /* lhs REL rhs  becomes  lhs - rhs REL 0 */
    if (add_sum(st, &lin, l, 1, line, col) < 0 || add_sum(st, &lin, r, -1, line, col) < 0)
        goto done;
    if (merge_terms(&lin) < 0 || lin.n > UINT32_MAX) {
        fy_error(st, line, col, "integer overflow in comparison");
        goto done;
    }
    if (!(text = joinf("%s %s %s", l->text, rel_spelling(rel), r->text))) {
        no_memory(st, line, col);
        goto done;
    }
    t = tree_cmp(lin.v, (uint32_t)lin.n, lin.constant, (rel_op)(rel & ~FY_REL_DOUBLE));
    if (!t || tree_set_text(t, text) < 0) {
        tree_free(t);
        no_memory(st, line, col);
        goto done;
    }
    rc = fy_leaf(st, out, t, line, col);
done:
    free(text);
    free(lin.v);
    fy_sum_free(l);
    fy_sum_free(r);
    return rc;
}
