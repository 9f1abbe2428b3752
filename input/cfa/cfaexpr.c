/* CFA expressions: built with their type checked (conditions and numbers
 * share one grammar, cfa.y), turned into postfix code, and evaluated under
 * one choice of values (cfa-format.md §4).  A file decides the depth of a
 * tree ("x = 0 & x = 0 & ..." is as deep as it is long), so nothing here
 * recurses on it. */
#include <stdlib.h>
#include <string.h>
#include "base/grow.h"
#include "cfaint.h"

static const char *op_text(cfa_op op)
{
    static const char *const text[] = {
        [CE_NEG] = "-", [CE_ADD] = "+", [CE_SUB] = "-", [CE_MUL] = "*", [CE_DIV] = "/",
        [CE_MOD] = "mod", [CE_EQ] = "=", [CE_NE] = "!=", [CE_LT] = "<", [CE_LE] = "<=",
        [CE_GT] = ">", [CE_GE] = ">=", [CE_NOT] = "not", [CE_AND] = "&", [CE_OR] = "|",
    };
    return text[op] ? text[op] : "?";
}

/* Rotates each left child up until the node has none, then frees it and
 * goes right: every node is visited a bounded number of times, with no
 * stack at all. */
void cfa_expr_free(cfa_expr *e)
{
    while (e) {
        cfa_expr *l = e->l;
        if (l) {
            e->l = l->r;
            l->r = e;
            e = l;
        } else {
            cfa_expr *r = e->r;
            free(e);
            e = r;
        }
    }
}

void cfa_code_free(cfa_code *c)
{
    free(c->v);
    memset(c, 0, sizeof *c);
}

/* Emits the nodes root first, right subtree before left: the reverse of
 * postfix order, with a stack only as deep as the right spines (a left
 * chain needs two entries).  Each node is freed once its children are on
 * the stack. */
int cfa_code_from(cfa_expr *e, cfa_code *out)
{
    memset(out, 0, sizeof *out);
    if (!e)
        return 0;
    out->is_bool = e->is_bool;
    cfa_expr **todo = NULL;
    size_t ntodo = 0, cap_todo = 0, cap_code = 0;
    int rc = 0;
    if (GROW(todo, cap_todo, 1) < 0) {
        cfa_expr_free(e);
        return -1;
    }
    todo[ntodo++] = e;
    while (ntodo) {
        cfa_expr *n = todo[--ntodo];
        if (rc == 0 && (out->n == UINT32_MAX || GROW(out->v, cap_code, (size_t)out->n + 1) < 0))
            rc = -1;
        if (rc == 0)
            out->v[out->n++] = (cfa_instr){ n->op, n->var, n->value };
        if (n->l || n->r) {
            if (GROW(todo, cap_todo, ntodo + 2) < 0) {
                /* no room to keep them: free them here, without a stack */
                cfa_expr_free(n->l);
                cfa_expr_free(n->r);
                rc = -1;
            } else {
                if (n->l)
                    todo[ntodo++] = n->l;
                if (n->r)
                    todo[ntodo++] = n->r;
            }
        }
        free(n);
    }
    free(todo);
    if (rc < 0) {
        cfa_code_free(out);
        return -1;
    }
    uint32_t depth = 0;
    for (uint32_t i = 0, j = out->n - 1; i < j; i++, j--) {
        cfa_instr t = out->v[i];
        out->v[i] = out->v[j];
        out->v[j] = t;
    }
    for (uint32_t i = 0; i < out->n; i++) {
        switch (out->v[i].op) {
        case CE_INT: case CE_TRUE: case CE_FALSE: case CE_PLAIN: case CE_PRE: case CE_POST:
            depth++;
            break;
        case CE_NEG: case CE_NOT:
            break;
        default:
            depth--;
            break;
        }
        if (depth > out->stack)
            out->stack = depth;
    }
    return 0;
}

void cfa_code_uses(const cfa_code *c, unsigned *uses)
{
    for (uint32_t i = 0; i < c->n; i++) {
        const cfa_instr *in = &c->v[i];
        if (in->op == CE_PLAIN)
            uses[in->var] |= CFA_USE_PLAIN;
        else if (in->op == CE_PRE)
            uses[in->var] |= CFA_USE_PRE;
        else if (in->op == CE_POST)
            uses[in->var] |= CFA_USE_POST;
    }
}

static cfa_expr *node(cy_state *st, cfa_op op, int is_bool)
{
    cfa_expr *e = calloc(1, sizeof *e);
    if (!e) {
        cy_error(st, st->line, "out of memory");
        return NULL;
    }
    e->op = op;
    e->is_bool = is_bool;
    return e;
}

cfa_expr *cy_int(cy_state *st, int64_t v)
{
    cfa_expr *e = node(st, CE_INT, 0);
    if (e)
        e->value = v;
    return e;
}

cfa_expr *cy_bool(cy_state *st, int v)
{
    return node(st, v ? CE_TRUE : CE_FALSE, 1);
}

cfa_expr *cy_var(cy_state *st, char *name, cfa_op which, long line)
{
    int64_t d = cfa_find_decl(st->m, name);
    if (d < 0) {
        cy_error(st, line, "undeclared variable '%s'", name);
        free(name);
        return NULL;
    }
    const cfa_decl *decl = &st->m->decls[d];
    if (decl->kind != CFA_VAR) {
        const char *kind = decl->kind == CFA_CHAN ? "channel" : "stack";
        cy_error(st, line, "'%s' is a %s, not a value (receive with %s?x, send with %s!e)",
                 name, kind, name, name);
        free(name);
        return NULL;
    }
    free(name);
    cfa_expr *e = node(st, which, 0);
    if (e)
        e->var = (uint32_t)d;
    return e;
}

cfa_expr *cy_unary(cy_state *st, cfa_op op, cfa_expr *a, long line)
{
    int want_bool = op == CE_NOT;
    if (a->is_bool != want_bool) {
        cy_error(st, line, want_bool ? "'not' needs a condition, not a number"
                                     : "'-' needs a number, not a condition");
        cfa_expr_free(a);
        return NULL;
    }
    cfa_expr *e = node(st, op, want_bool);
    if (!e) {
        cfa_expr_free(a);
        return NULL;
    }
    e->l = a;
    return e;
}

cfa_expr *cy_binary(cy_state *st, cfa_op op, cfa_expr *l, cfa_expr *r, long line)
{
    int logic = op == CE_AND || op == CE_OR;
    int compare = op >= CE_EQ && op <= CE_GE;
    if (l->is_bool != logic || r->is_bool != logic) {
        if (logic)
            cy_error(st, line, "'%s' needs conditions on both sides, not numbers", op_text(op));
        else if (compare)
            cy_error(st, line, "'%s' compares numbers, not conditions", op_text(op));
        else
            cy_error(st, line, "'%s' needs numbers on both sides, not conditions", op_text(op));
        cfa_expr_free(l);
        cfa_expr_free(r);
        return NULL;
    }
    cfa_expr *e = node(st, op, logic || compare);
    if (!e) {
        cfa_expr_free(l);
        cfa_expr_free(r);
        return NULL;
    }
    e->l = l;
    e->r = r;
    return e;
}

/* Arithmetic is on unbounded integers (§4).  Operands are 64-bit values
 * from ranges and literals, so 128 bits hold any sum or product of two and
 * almost every expression a model writes; only what leaves 128 bits is
 * refused (CFA_EVAL_OVERFLOW), never wrapped.  Conditions short-circuit
 * only in value, never in definedness: a division by zero anywhere makes
 * the choice no step (§4), so every instruction runs, in order. */
int cfa_eval(const cfa_code *c, const int64_t *pre, const int64_t *post, cfa_value *stack,
             cfa_value *out)
{
    uint32_t sp = 0;
    for (uint32_t i = 0; i < c->n; i++) {
        const cfa_instr *in = &c->v[i];
        cfa_value a, b, *r;
        switch (in->op) {
        case CE_INT: stack[sp++] = in->value; continue;
        case CE_TRUE: stack[sp++] = 1; continue;
        case CE_FALSE: stack[sp++] = 0; continue;
        case CE_PLAIN:
        case CE_PRE: stack[sp++] = pre[in->var]; continue;
        case CE_POST: stack[sp++] = post[in->var]; continue;
        case CE_NEG:
            r = &stack[sp - 1];
            if (__builtin_sub_overflow((cfa_value)0, *r, r))
                return CFA_EVAL_OVERFLOW;
            continue;
        case CE_NOT:
            stack[sp - 1] = !stack[sp - 1];
            continue;
        default:
            break;
        }
        b = stack[--sp];
        r = &stack[sp - 1];
        a = *r;
        switch (in->op) {
        case CE_ADD:
            if (__builtin_add_overflow(a, b, r))
                return CFA_EVAL_OVERFLOW;
            break;
        case CE_SUB:
            if (__builtin_sub_overflow(a, b, r))
                return CFA_EVAL_OVERFLOW;
            break;
        case CE_MUL:
            if (__builtin_mul_overflow(a, b, r))
                return CFA_EVAL_OVERFLOW;
            break;
        case CE_DIV:
        case CE_MOD:
            if (b == 0)
                return CFA_EVAL_UNDEFINED;
            if (b == -1) {   /* the one quotient that can leave the range */
                if (in->op == CE_MOD)
                    *r = 0;
                else if (__builtin_sub_overflow((cfa_value)0, a, r))
                    return CFA_EVAL_OVERFLOW;
                break;
            }
            *r = in->op == CE_DIV ? a / b : a % b;   /* C truncates, as §4 says */
            break;
        case CE_EQ: *r = a == b; break;
        case CE_NE: *r = a != b; break;
        case CE_LT: *r = a < b; break;
        case CE_LE: *r = a <= b; break;
        case CE_GT: *r = a > b; break;
        case CE_GE: *r = a >= b; break;
        case CE_AND: *r = a && b; break;
        case CE_OR: *r = a || b; break;
        default: return CFA_EVAL_UNDEFINED;
        }
    }
    *out = sp ? stack[0] : 0;
    return CFA_EVAL_OK;
}
