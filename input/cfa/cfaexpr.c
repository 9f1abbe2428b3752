/* CFA expressions: built with their type checked (conditions and numbers
 * share one grammar, cfa.y), and evaluated under one choice of values
 * (cfa-format.md §4). */
#include <stdlib.h>
#include <string.h>
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

void cfa_expr_free(cfa_expr *e)
{
    if (!e)
        return;
    cfa_expr_free(e->l);
    cfa_expr_free(e->r);
    free(e);
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
 * refused (CFA_EVAL_OVERFLOW), never wrapped. */
int cfa_eval(const cfa_expr *e, const int64_t *pre, const int64_t *post, cfa_value *out)
{
    cfa_value a = 0, b = 0;
    int rc;
    switch (e->op) {
    case CE_INT: *out = e->value; return CFA_EVAL_OK;
    case CE_TRUE: *out = 1; return CFA_EVAL_OK;
    case CE_FALSE: *out = 0; return CFA_EVAL_OK;
    case CE_PLAIN:
    case CE_PRE: *out = pre[e->var]; return CFA_EVAL_OK;
    case CE_POST: *out = post[e->var]; return CFA_EVAL_OK;
    default: break;
    }
    if ((rc = cfa_eval(e->l, pre, post, &a)) != CFA_EVAL_OK)
        return rc;
    /* Conditions short-circuit only in value, never in definedness: a
     * division by zero anywhere makes the choice no step (§4). */
    if (e->r && (rc = cfa_eval(e->r, pre, post, &b)) != CFA_EVAL_OK)
        return rc;
    switch (e->op) {
    case CE_NEG: return __builtin_sub_overflow((cfa_value)0, a, out) ? CFA_EVAL_OVERFLOW : CFA_EVAL_OK;
    case CE_NOT: *out = !a; return CFA_EVAL_OK;
    case CE_ADD: return __builtin_add_overflow(a, b, out) ? CFA_EVAL_OVERFLOW : CFA_EVAL_OK;
    case CE_SUB: return __builtin_sub_overflow(a, b, out) ? CFA_EVAL_OVERFLOW : CFA_EVAL_OK;
    case CE_MUL: return __builtin_mul_overflow(a, b, out) ? CFA_EVAL_OVERFLOW : CFA_EVAL_OK;
    case CE_DIV:
    case CE_MOD:
        if (b == 0)
            return CFA_EVAL_UNDEFINED;
        if (b == -1) {   /* the one quotient that can leave the range */
            if (e->op == CE_MOD) {
                *out = 0;
                return CFA_EVAL_OK;
            }
            return __builtin_sub_overflow((cfa_value)0, a, out) ? CFA_EVAL_OVERFLOW : CFA_EVAL_OK;
        }
        *out = e->op == CE_DIV ? a / b : a % b;   /* C truncates, as §4 says */
        return CFA_EVAL_OK;
    case CE_EQ: *out = a == b; return CFA_EVAL_OK;
    case CE_NE: *out = a != b; return CFA_EVAL_OK;
    case CE_LT: *out = a < b; return CFA_EVAL_OK;
    case CE_LE: *out = a <= b; return CFA_EVAL_OK;
    case CE_GT: *out = a > b; return CFA_EVAL_OK;
    case CE_GE: *out = a >= b; return CFA_EVAL_OK;
    case CE_AND: *out = a && b; return CFA_EVAL_OK;
    case CE_OR: *out = a || b; return CFA_EVAL_OK;
    default: return CFA_EVAL_UNDEFINED;
    }
}
