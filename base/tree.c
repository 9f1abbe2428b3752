/* tree_t: construction, copying, comparison, inspection and evaluation.
 * Printing lives in treeprint.c, NNF and folding in treenorm.c. */
#include "base/tree.h"
#include "base/grow.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* kinds */

static const char *const kind_names[] = {
    [KIND_AUTO] = "auto", [KIND_DL] = "dl", [KIND_REACH] = "reach",
    [KIND_CTL] = "ctl", [KIND_LTL] = "ltl",
};

const char *prop_kind_name(prop_kind k)
{
    if ((unsigned)k < sizeof kind_names / sizeof kind_names[0])
        return kind_names[k];
    return "?";
}

prop_kind prop_kind_from_name(const char *s)
{
    if (!s)
        return KIND_AUTO;
    for (unsigned k = KIND_DL; k < sizeof kind_names / sizeof kind_names[0]; k++)
        if (strcmp(s, kind_names[k]) == 0)
            return (prop_kind)k;
    return KIND_AUTO;
}

/* ------------------------------------------------------------------ */
/* constructors */

static tree_t *node(tree_op op)
{
    tree_t *t = calloc(1, sizeof *t);
    if (t)
        t->op = op;
    return t;
}

tree_t *tree_const(int value)
{
    return node(value ? T_TRUE : T_FALSE);
}

tree_t *tree_deadlock(void)
{
    return node(T_DEADLOCK);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Index lists are kept sorted so that equality is a plain comparison;
 * duplicates are removed only where they cannot matter (dedup). */
static uint32_t *sorted_items(const uint32_t *items, uint32_t n, int dedup, uint32_t *nout)
{
    uint32_t *v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        return NULL;
    if (n)
        memcpy(v, items, n * sizeof *v);
    qsort(v, n, sizeof *v, cmp_u32);
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++)
        if (!dedup || k == 0 || v[k - 1] != v[i])
            v[k++] = v[i];
    *nout = k;
    return v;
}

tree_t *tree_fireable(const uint32_t *trans, uint32_t n)
{
    tree_t *t = node(T_FIREABLE);
    if (!t)
        return NULL;
    /* a disjunction: repeating a transition changes nothing */
    t->items = sorted_items(trans, n, 1, &t->n);
    if (!t->items) {
        free(t);
        return NULL;
    }
    return t;
}

tree_t *tree_action(const uint32_t *trans, uint32_t n)
{
    tree_t *t = tree_fireable(trans, n);
    if (t)
        t->op = T_ACTION;
    return t;
}

tree_t *tree_bound(const uint32_t *places, uint32_t n)
{
    tree_t *t = node(T_BOUND);
    if (!t)
        return NULL;
    /* a sum: a repeated place counts twice, so keep repetitions */
    t->items = sorted_items(places, n, 0, &t->n);
    if (!t->items) {
        free(t);
        return NULL;
    }
    return t;
}

static int cmp_term(const void *a, const void *b)
{
    const lin_term *x = a, *y = b;
    return (x->place > y->place) - (x->place < y->place);
}

/* Canonical form: sorted by place, one term per place, no zero
 * coefficients.  Terms whose sum would overflow stay separate. */
static uint32_t normalize_terms(lin_term *v, uint32_t n)
{
    qsort(v, n, sizeof *v, cmp_term);
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        int64_t sum;
        if (k > 0 && v[k - 1].place == v[i].place &&
            !__builtin_add_overflow(v[k - 1].coef, v[i].coef, &sum))
            v[k - 1].coef = sum;
        else
            v[k++] = v[i];
    }
    uint32_t m = 0;
    for (uint32_t i = 0; i < k; i++)
        if (v[i].coef != 0)
            v[m++] = v[i];
    return m;
}

tree_t *tree_cmp(const lin_term *terms, uint32_t nterms, int64_t constant, rel_op rel)
{
    tree_t *t = node(T_CMP);
    if (!t)
        return NULL;
    t->terms = malloc((nterms ? nterms : 1) * sizeof *t->terms);
    if (!t->terms) {
        free(t);
        return NULL;
    }
    if (nterms)
        memcpy(t->terms, terms, nterms * sizeof *terms);
    t->nterms = normalize_terms(t->terms, nterms);
    t->constant = constant;
    t->rel = rel;
    return t;
}

tree_t *tree_unary(tree_op op, tree_t *child)
{
    if (!child)
        return NULL;
    tree_t *t = node(op);
    if (!t) {
        tree_free(child);
        return NULL;
    }
    t->l = child;
    return t;
}

tree_t *tree_binary(tree_op op, tree_t *l, tree_t *r)
{
    tree_t *t = (l && r) ? node(op) : NULL;
    if (!t) {
        tree_free(l);
        tree_free(r);
        return NULL;
    }
    t->l = l;
    t->r = r;
    return t;
}

void tree_chain_start(tree_chain *c, tree_op op)
{
    memset(c, 0, sizeof *c);
    c->op = op;
}

void tree_chain_discard(tree_chain *c)
{
    for (unsigned i = 0; i < c->nparts; i++)
        tree_free(c->part[i]);
    c->nparts = 0;
}

static int chain_fail(tree_chain *c)
{
    tree_chain_discard(c);
    c->failed = 1;
    return -1;
}

int tree_chain_add(tree_chain *c, tree_t *t)
{
    if (c->failed || !t) {
        tree_free(t);
        return chain_fail(c);
    }
    c->part[c->nparts] = t;
    c->level[c->nparts++] = 0;
    /* carry: two subtrees of equal size become one of twice the size */
    while (c->nparts >= 2 && c->level[c->nparts - 1] == c->level[c->nparts - 2]) {
        unsigned i = c->nparts - 2;
        tree_t *both = tree_binary(c->op, c->part[i], c->part[i + 1]);
        c->nparts--;
        if (!both) {
            c->nparts--;   /* both parts are freed */
            return chain_fail(c);
        }
        c->part[i] = both;
        c->level[i]++;
    }
    return 0;
}

unsigned tree_chain_height(const tree_chain *c)
{
    /* tree_chain_end puts part i (not the last) at depth i + 1 and the
     * last one at depth nparts - 1 */
    unsigned h = 0;
    for (unsigned i = 0; i < c->nparts; i++) {
        unsigned at = i + 1 < c->nparts ? i + 1 : i;
        if (at + c->level[i] > h)
            h = at + c->level[i];
    }
    return h;
}

tree_t *tree_chain_end(tree_chain *c)
{
    if (c->failed || !c->nparts) {
        c->failed = 0;
        return NULL;
    }
    tree_t *t = c->part[--c->nparts];
    while (t && c->nparts) {
        c->nparts--;
        t = tree_binary(c->op, c->part[c->nparts], t);
    }
    tree_chain_discard(c);   /* what is left after running out of memory */
    return t;
}

int tree_set_text(tree_t *t, const char *text)
{
    char *copy = NULL;
    if (text && !(copy = strdup(text)))
        return -1;
    free(t->text);
    t->text = copy;
    return 0;
}

static tree_t *copy_node(const tree_t *t)
{
    tree_t *c = node(t->op);
    if (!c)
        return NULL;
    *c = *t;
    c->l = c->r = NULL;
    c->items = NULL;
    c->terms = NULL;
    c->text = NULL;
    if (t->items && !(c->items = malloc((t->n ? t->n : 1) * sizeof *c->items)))
        goto fail;
    if (t->items && t->n)
        memcpy(c->items, t->items, t->n * sizeof *c->items);
    if (t->terms && !(c->terms = malloc((t->nterms ? t->nterms : 1) * sizeof *c->terms)))
        goto fail;
    if (t->terms && t->nterms)
        memcpy(c->terms, t->terms, t->nterms * sizeof *c->terms);
    if (t->text && !(c->text = strdup(t->text)))
        goto fail;
    return c;
fail:
    tree_free(c);
    return NULL;
}

tree_t *tree_copy(const tree_t *t)
{
    if (!t)
        return NULL;
    tree_t *c = copy_node(t);
    if (!c)
        return NULL;
    if ((t->l && !(c->l = tree_copy(t->l))) || (t->r && !(c->r = tree_copy(t->r)))) {
        tree_free(c);
        return NULL;
    }
    return c;
}

void tree_free(tree_t *t)
{
    /* iterative along the left spine: long left-associated chains of
     * conjunctions are the common deep shape */
    while (t) {
        tree_t *next = t->l;
        tree_free(t->r);
        free(t->items);
        free(t->terms);
        free(t->text);
        free(t);
        t = next;
    }
}

/* ------------------------------------------------------------------ */
/* inspection */

static int is_ltl_op(tree_op op)
{
    return op >= T_X && op <= T_R;
}

int tree_op_is_ctl(tree_op op)
{
    return op >= T_EX && op <= T_AU;
}

static int any_op(const tree_t *t, int (*pred)(tree_op))
{
    for (; t; t = t->l)
        if (pred(t->op) || (t->r && any_op(t->r, pred)))
            return 1;
    return 0;
}

static int is_temporal_op(tree_op op)
{
    return is_ltl_op(op) || tree_op_is_ctl(op) || op == T_BOUND;
}

int tree_is_state_formula(const tree_t *t)
{
    return t && !any_op(t, is_temporal_op);
}

int tree_has_ctl(const tree_t *t)
{
    return any_op(t, tree_op_is_ctl);
}

static size_t count_op(const tree_t *t, int (*pred)(tree_op))
{
    size_t n = 0;
    for (; t; t = t->l)
        n += (pred(t->op) != 0) + (t->r ? count_op(t->r, pred) : 0);
    return n;
}

size_t tree_count_ctl(const tree_t *t)
{
    return count_op(t, tree_op_is_ctl);
}

int tree_has_ltl(const tree_t *t)
{
    return any_op(t, is_ltl_op);
}

static int is_action_op(tree_op op)
{
    return op == T_ACTION;
}

int tree_has_action(const tree_t *t)
{
    return any_op(t, is_action_op);
}

static int same_leaf(const tree_t *a, const tree_t *b)
{
    switch (a->op) {
    case T_FIREABLE:
    case T_ACTION:
    case T_BOUND:
        return a->n == b->n && (a->n == 0 || memcmp(a->items, b->items, a->n * sizeof *a->items) == 0);
    case T_CMP:
        if (a->rel != b->rel || a->constant != b->constant || a->nterms != b->nterms)
            return 0;
        for (uint32_t i = 0; i < a->nterms; i++)
            if (a->terms[i].place != b->terms[i].place || a->terms[i].coef != b->terms[i].coef)
                return 0;
        return 1;
    default:
        return 1;
    }
}

static int is_chain_op(tree_op op)
{
    return op == T_AND || op == T_OR;
}

/* The operands of the op-chain at t, left to right: an explicit stack, as
 * a chain built by hand may be as deep as it is long.  -1: no memory. */
static int chain_operands(const tree_t *t, tree_op op, const tree_t ***out, size_t *n)
{
    const tree_t **todo = NULL, **v = NULL;
    size_t ntodo = 0, cap_todo = 0, cap_v = 0;
    *n = 0;
    if (GROW(todo, cap_todo, 1) < 0)
        return -1;
    todo[ntodo++] = t;
    while (ntodo) {
        const tree_t *x = todo[--ntodo];
        if (x->op == op) {
            if (GROW(todo, cap_todo, ntodo + 2) < 0)
                goto fail;
            todo[ntodo++] = x->r;
            todo[ntodo++] = x->l;
        } else {
            if (GROW(v, cap_v, *n + 1) < 0)
                goto fail;
            v[(*n)++] = x;
        }
    }
    free(todo);
    *out = v;
    return 0;
fail:
    free(todo);
    free(v);
    return -1;
}

static int structurally_equal(const tree_t *a, const tree_t *b)
{
    while (a && b) {
        if (a->op != b->op || !same_leaf(a, b))
            return 0;
        if (!structurally_equal(a->r, b->r))
            return 0;
        a = a->l;
        b = b->l;
    }
    return a == b;
}

int tree_equal(const tree_t *a, const tree_t *b)
{
    while (a && b) {
        if (a->op != b->op || !same_leaf(a, b))
            return 0;
        if (is_chain_op(a->op)) {
            const tree_t **va = NULL, **vb = NULL;
            size_t na, nb;
            if (chain_operands(a, a->op, &va, &na) < 0 ||
                chain_operands(b, b->op, &vb, &nb) < 0) {
                /* without memory, equal grouping is still recognised */
                free(va);
                return structurally_equal(a, b);
            }
            int eq = na == nb;
            for (size_t i = 0; eq && i < na; i++)
                eq = tree_equal(va[i], vb[i]);
            free(va);
            free(vb);
            return eq;
        }
        if (!tree_equal(a->r, b->r))
            return 0;
        a = a->l;
        b = b->l;
    }
    return a == b;
}

size_t tree_size(const tree_t *t)
{
    size_t n = 0;
    for (; t; t = t->l)
        n += 1 + tree_size(t->r);
    return n;
}

/* ------------------------------------------------------------------ */
/* evaluation */

/* Saturating: a sum beyond 128 bits keeps its sign, which is all a
 * comparison with 0 needs as long as terms do not overflow both ways. */
static __int128 sat_add(__int128 a, __int128 b)
{
    __int128 s;
    if (!__builtin_add_overflow(a, b, &s))
        return s;
    const __int128 max = (__int128)(((unsigned __int128)1 << 127) - 1);
    return b > 0 ? max : -max - 1;
}

__int128 tree_lin_value(const tree_t *cmp, const uint64_t *marking)
{
    __int128 v = cmp->constant;
    for (uint32_t i = 0; i < cmp->nterms; i++)
        v = sat_add(v, (__int128)cmp->terms[i].coef * (__int128)marking[cmp->terms[i].place]);
    return v;
}

int tree_rel_holds(rel_op rel, __int128 v)
{
    switch (rel) {
    case REL_EQ: return v == 0;
    case REL_NE: return v != 0;
    case REL_LT: return v < 0;
    case REL_LE: return v <= 0;
    case REL_GT: return v > 0;
    case REL_GE: return v >= 0;
    }
    return 0;
}

/* Returns 0 or 1; -1 for a subtree that is not a state formula. */
int tree_eval_state(const tree_t *t, const tree_eval_ctx *ctx)
{
    int a, b;
    switch (t->op) {
    case T_TRUE: return 1;
    case T_FALSE: return 0;
    case T_DEADLOCK: return ctx->is_deadlock(ctx->ctx) ? 1 : 0;
    case T_FIREABLE:
        for (uint32_t i = 0; i < t->n; i++)
            if (ctx->enabled(t->items[i], ctx->ctx))
                return 1;
        return 0;
    case T_CMP: return tree_rel_holds(t->rel, tree_lin_value(t, ctx->marking));
    case T_NOT:
        a = tree_eval_state(t->l, ctx);
        return a < 0 ? -1 : !a;
    case T_AND:
    case T_OR:
    case T_IMPLIES:
        a = tree_eval_state(t->l, ctx);
        if (a < 0)
            return -1;
        /* short cut: the right side is not needed */
        if ((t->op == T_AND && !a) || (t->op == T_OR && a))
            return a;
        if (t->op == T_IMPLIES && !a)
            return 1;
        return tree_eval_state(t->r, ctx);
    case T_IFF:
        a = tree_eval_state(t->l, ctx);
        b = a < 0 ? -1 : tree_eval_state(t->r, ctx);
        return (a < 0 || b < 0) ? -1 : a == b;
    default:
        return -1;
    }
}
