/* Normal forms of trees: negation normal form and constant folding.  Both
 * consume their argument (freeing it also on failure) and return the
 * result, or NULL when memory ran out. */
#include "base/tree.h"

#include <stdint.h>
#include <stdlib.h>

/* Detaches a node's children and frees the node itself. */
static void take_children(tree_t *t, tree_t **l, tree_t **r)
{
    if (l)
        *l = t->l;
    else
        tree_free(t->l);
    if (r)
        *r = t->r;
    else
        tree_free(t->r);
    t->l = t->r = NULL;
    tree_free(t);
}

/* ------------------------------------------------------------------ */
/* negation normal form */

static rel_op negate_rel(rel_op rel)
{
    switch (rel) {
    case REL_EQ: return REL_NE;
    case REL_NE: return REL_EQ;
    case REL_LT: return REL_GE;
    case REL_LE: return REL_GT;
    case REL_GT: return REL_LE;
    case REL_GE: return REL_LT;
    }
    return rel;
}

/* The dual of a unary temporal operator: !op f == dual(op) !f. */
static tree_op dual_unary(tree_op op)
{
    switch (op) {
    case T_X: return T_X;
    case T_F: return T_G;
    case T_G: return T_F;
    case T_EX: return T_AX;
    case T_AX: return T_EX;
    case T_EF: return T_AG;
    case T_AG: return T_EF;
    case T_AF: return T_EG;
    case T_EG: return T_AF;
    default: return op;
    }
}

static tree_t *nnf(tree_t *t, int neg);

static tree_t *negate_leaf(tree_t *t)
{
    switch (t->op) {
    case T_TRUE: t->op = T_FALSE; return t;
    case T_FALSE: t->op = T_TRUE; return t;
    case T_CMP:
        t->rel = negate_rel(t->rel);
        /* the text spelled the old relation */
        tree_set_text(t, NULL);
        return t;
    default:
        return tree_unary(T_NOT, t);
    }
}

/* !A[f U g] == E[!g U (!f & !g)] | EG !g: some path never reaches g, or
 * one where f fails first.  The dual for E[f U g] would need A to distribute
 * over that disjunction, which it does not (it is A[!g W (!f & !g)]); so
 * a negated E[f U g] keeps its negation (see nnf_binary). */
static tree_t *negated_until(tree_op op, tree_t *f, tree_t *g)
{
    tree_op all = T_EU, glob = T_EG;
    (void)op;
    tree_t *g2 = tree_copy(g), *g3 = tree_copy(g);
    if (!g2 || !g3) {
        tree_free(f);
        tree_free(g);
        tree_free(g2);
        tree_free(g3);
        return NULL;
    }
    tree_t *fail = tree_binary(T_AND, nnf(f, 1), nnf(g2, 1));
    tree_t *until = tree_binary(all, nnf(g, 1), fail);
    return tree_binary(T_OR, until, tree_unary(glob, nnf(g3, 1)));
}

/* a <-> b == (a & b) | (!a & !b);  !(a <-> b) == (a & !b) | (!a & b) */
static tree_t *expand_iff(tree_t *a, tree_t *b, int neg)
{
    tree_t *a2 = tree_copy(a), *b2 = tree_copy(b);
    if (!a2 || !b2) {
        tree_free(a);
        tree_free(b);
        tree_free(a2);
        tree_free(b2);
        return NULL;
    }
    tree_t *left = tree_binary(T_AND, nnf(a, 0), nnf(b, neg));
    tree_t *right = tree_binary(T_AND, nnf(a2, 1), nnf(b2, !neg));
    return tree_binary(T_OR, left, right);
}

static tree_t *nnf_binary(tree_t *t, int neg)
{
    tree_op op = t->op;
    tree_t *l, *r;
    take_children(t, &l, &r);
    switch (op) {
    case T_AND:
        return tree_binary(neg ? T_OR : T_AND, nnf(l, neg), nnf(r, neg));
    case T_OR:
        return tree_binary(neg ? T_AND : T_OR, nnf(l, neg), nnf(r, neg));
    case T_IMPLIES:   /* !a | b */
        return tree_binary(neg ? T_AND : T_OR, nnf(l, !neg), nnf(r, neg));
    case T_IFF:
        return expand_iff(l, r, neg);
    case T_U:
        return tree_binary(neg ? T_R : T_U, nnf(l, neg), nnf(r, neg));
    case T_R:
        return tree_binary(neg ? T_U : T_R, nnf(l, neg), nnf(r, neg));
    default:   /* T_EU, T_AU */
        if (neg && op == T_AU)
            return negated_until(op, l, r);
        if (neg)
            return tree_unary(T_NOT, tree_binary(op, nnf(l, 0), nnf(r, 0)));
        return tree_binary(op, nnf(l, 0), nnf(r, 0));
    }
}

static tree_t *nnf(tree_t *t, int neg)
{
    if (!t)
        return NULL;
    tree_t *l;
    switch (t->op) {
    case T_NOT:
        take_children(t, &l, NULL);
        return nnf(l, !neg);
    case T_AND: case T_OR: case T_IMPLIES: case T_IFF:
    case T_U: case T_R: case T_EU: case T_AU:
        return nnf_binary(t, neg);
    case T_X: case T_F: case T_G:
    case T_EX: case T_AX: case T_EF: case T_AF: case T_EG: case T_AG: {
        tree_op op = neg ? dual_unary(t->op) : t->op;
        take_children(t, &l, NULL);
        return tree_unary(op, nnf(l, neg));
    }
    case T_BOUND:
        /* not a formula: nothing to push into */
        return neg ? tree_unary(T_NOT, t) : t;
    default:
        return neg ? negate_leaf(t) : t;
    }
}

tree_t *tree_nnf(tree_t *t)
{
    return nnf(t, 0);
}

static size_t sat_add(size_t a, size_t b)
{
    return a > SIZE_MAX - b ? SIZE_MAX : a + b;
}

static size_t sat_mul(size_t a, size_t b)
{
    return b && a > SIZE_MAX / b ? SIZE_MAX : a * b;
}

/* The sizes of nnf(t, 0) in pos[0] and of nnf(t, 1) in pos[1], both at
 * once: each node is visited once, however often nnf would copy it.  The
 * recursion is as deep as the tree, which the parsers bound. */
static void nnf_sizes(const tree_t *t, size_t pos[2])
{
    size_t l[2] = { 0, 0 }, r[2] = { 0, 0 };
    if (t->l)
        nnf_sizes(t->l, l);
    if (t->r)
        nnf_sizes(t->r, r);
    switch (t->op) {
    case T_NOT:
        pos[0] = l[1];
        pos[1] = l[0];
        return;
    case T_AND: case T_OR: case T_U: case T_R:
        pos[0] = sat_add(1, sat_add(l[0], r[0]));
        pos[1] = sat_add(1, sat_add(l[1], r[1]));
        return;
    case T_IMPLIES:
        pos[0] = sat_add(1, sat_add(l[1], r[0]));
        pos[1] = sat_add(1, sat_add(l[0], r[1]));
        return;
    case T_IFF:   /* (a & b) | (!a & !b), or with b's signs swapped */
        pos[0] = pos[1] = sat_add(3, sat_add(sat_add(l[0], l[1]), sat_add(r[0], r[1])));
        return;
    case T_EU:   /* a negated E[..U..] keeps its negation */
        pos[0] = sat_add(1, sat_add(l[0], r[0]));
        pos[1] = sat_add(1, pos[0]);
        return;
    case T_AU:   /* negated: E[!g U (!f & !g)] | EG !g */
        pos[0] = sat_add(1, sat_add(l[0], r[0]));
        pos[1] = sat_add(4, sat_add(l[1], sat_mul(3, r[1])));
        return;
    case T_X: case T_F: case T_G:
    case T_EX: case T_AX: case T_EF: case T_AF: case T_EG: case T_AG:
        pos[0] = sat_add(1, l[0]);
        pos[1] = sat_add(1, l[1]);
        return;
    case T_TRUE: case T_FALSE: case T_CMP:
        pos[0] = pos[1] = 1;
        return;
    default:   /* other leaves, T_BOUND: a negation above */
        pos[0] = 1;
        pos[1] = 2;
        return;
    }
}

size_t tree_nnf_size(const tree_t *t)
{
    size_t pos[2] = { 0, 0 };
    if (t)
        nnf_sizes(t, pos);
    return pos[0];
}

/* ------------------------------------------------------------------ */
/* constant folding */

static int is_const(const tree_t *t)
{
    return t->op == T_TRUE || t->op == T_FALSE;
}

/* Replaces t by the constant value. */
static tree_t *to_const(tree_t *t, int value)
{
    tree_free(t);
    return tree_const(value);
}

/* Whether "value REL 0" is decided knowing only value >= lo (sign > 0)
 * or value <= hi (sign < 0) where the bound is the constant: returns 1
 * or 0 when decided, -1 when not. */
static int decide_cmp(rel_op rel, int64_t k, int sign)
{
    if (sign < 0) {   /* value <= k: mirror to -value >= -k */
        switch (rel) {
        case REL_LT: rel = REL_GT; break;
        case REL_LE: rel = REL_GE; break;
        case REL_GT: rel = REL_LT; break;
        case REL_GE: rel = REL_LE; break;
        default: break;
        }
        /* compare -k with 0 without negating: only its sign is used */
        k = k > 0 ? -1 : (k < 0 ? 1 : 0);
    }
    /* now value >= k */
    switch (rel) {
    case REL_GE: return k >= 0 ? 1 : -1;
    case REL_GT: return k > 0 ? 1 : -1;
    case REL_LT: return k >= 0 ? 0 : -1;
    case REL_LE: return k > 0 ? 0 : -1;
    case REL_EQ: return k > 0 ? 0 : -1;
    case REL_NE: return k > 0 ? 1 : -1;
    }
    return -1;
}

/* Markings are non-negative, so a comparison whose coefficients all have
 * one sign is sometimes decided by the constant alone. */
static int cmp_value(const tree_t *t)
{
    if (t->nterms == 0) {
        int64_t k = t->constant;
        switch (t->rel) {
        case REL_EQ: return k == 0;
        case REL_NE: return k != 0;
        case REL_LT: return k < 0;
        case REL_LE: return k <= 0;
        case REL_GT: return k > 0;
        case REL_GE: return k >= 0;
        }
    }
    int pos = 1, negs = 1;
    for (uint32_t i = 0; i < t->nterms; i++) {
        if (t->terms[i].coef < 0)
            pos = 0;
        if (t->terms[i].coef > 0)
            negs = 0;
    }
    int v = -1;
    if (pos)
        v = decide_cmp(t->rel, t->constant, 1);
    if (v < 0 && negs)
        v = decide_cmp(t->rel, t->constant, -1);
    return v;
}

static tree_t *fold_unary(tree_t *t)
{
    tree_t *c = t->l;
    if (t->op == T_NOT) {
        if (is_const(c))
            return to_const(t, c->op == T_FALSE);
        if (c->op == T_NOT) {
            tree_t *inner;
            take_children(c, &inner, NULL);
            t->l = NULL;
            tree_free(t);
            return inner;
        }
        return t;
    }
    if (!is_const(c))
        return t;
    int v = c->op == T_TRUE;
    /* CTL quantifies over maximal paths (mcc-formats.md §3.4): a deadlock
     * has no successor, so EX true is "not a deadlock" and AX false is
     * "deadlock".  Every other operator maps a constant to itself (for LTL
     * a deadlock repeats, so X keeps its constant too). */
    if ((t->op == T_EX && v) || (t->op == T_AX && !v)) {
        tree_t *d = tree_deadlock();
        tree_free(t);
        return v ? tree_unary(T_NOT, d) : d;
    }
    return to_const(t, v);
}

/* true U g, false R g and their CTL forms are not constants; the rest is
 * decided by the constant operand. */
static tree_t *fold_temporal_binary(tree_t *t)
{
    tree_t *l = t->l, *r = t->r, *keep;
    if (is_const(r))
        return to_const(t, r->op == T_TRUE);
    if (!is_const(l))
        return t;
    int lv = l->op == T_TRUE;
    if ((t->op == T_R && lv) || (t->op != T_R && !lv)) {
        /* true R g == g (g now), false U g == g */
        take_children(t, NULL, &keep);
        return keep;
    }
    /* the operator is read before take_children frees t: the order in
     * which a call's arguments are evaluated is unspecified */
    tree_op op = t->op == T_U ? T_F : t->op == T_R ? T_G : t->op == T_EU ? T_EF : T_AF;
    take_children(t, NULL, &keep);
    return tree_unary(op, keep);
}

static tree_t *fold_boolean(tree_t *t)
{
    tree_t *l = t->l, *r = t->r, *keep;
    int lc = is_const(l), rc = is_const(r);
    if (!lc && !rc)
        return t;
    int lv = l->op == T_TRUE, rv = r->op == T_TRUE;
    switch (t->op) {
    case T_AND:
        if ((lc && !lv) || (rc && !rv))
            return to_const(t, 0);
        break;
    case T_OR:
        if ((lc && lv) || (rc && rv))
            return to_const(t, 1);
        break;
    case T_IMPLIES:
        if ((lc && !lv) || (rc && rv))
            return to_const(t, 1);
        if (rc) {   /* a -> false */
            take_children(t, &keep, NULL);
            return fold_unary(tree_unary(T_NOT, keep));
        }
        break;
    case T_IFF:
        if (lc && rc)
            return to_const(t, lv == rv);
        if ((lc && !lv) || (rc && !rv)) {
            int left_const = lc;
            take_children(t, left_const ? NULL : &keep, left_const ? &keep : NULL);
            return fold_unary(tree_unary(T_NOT, keep));
        }
        break;
    default:
        break;
    }
    /* the constant is neutral: keep the other side */
    if (lc)
        take_children(t, NULL, &keep);
    else
        take_children(t, &keep, NULL);
    return keep;
}

static tree_t *fold(tree_t *t)
{
    if (!t)
        return NULL;
    if (t->l && !(t->l = fold(t->l))) {
        tree_free(t);
        return NULL;
    }
    if (t->r && !(t->r = fold(t->r))) {
        tree_free(t);
        return NULL;
    }
    int v;
    switch (t->op) {
    case T_CMP:
        v = cmp_value(t);
        return v < 0 ? t : to_const(t, v);
    case T_NOT: case T_X: case T_F: case T_G:
    case T_EX: case T_AX: case T_EF: case T_AF: case T_EG: case T_AG:
        return fold_unary(t);
    case T_AND: case T_OR: case T_IMPLIES: case T_IFF:
        return fold_boolean(t);
    case T_U: case T_R: case T_EU: case T_AU:
        return fold_temporal_binary(t);
    default:
        return t;
    }
}

tree_t *tree_fold(tree_t *t)
{
    return fold(t);
}
