/* tree_t: constructors, evaluation on markings, NNF, folding, printing.
 * Trees are built by hand here; the parser has its own test. */
#include "base/tree.h"
#include "unit.h"

#include <stdlib.h>

/* ---- an evaluation context: transitions enabled by a bit mask ---- */

typedef struct fake { unsigned enabled_mask; } fake;

static int fake_enabled(uint32_t t, void *ctx)
{
    return (((fake *)ctx)->enabled_mask >> t) & 1;
}

static int fake_deadlock(void *ctx)
{
    return ((fake *)ctx)->enabled_mask == 0;
}

static int eval(const tree_t *t, const uint64_t *m, unsigned mask)
{
    fake f = { mask };
    tree_eval_ctx ctx = { m, fake_enabled, fake_deadlock, &f };
    return tree_eval_state(t, &ctx);
}

/* M(p) >= 1 with the text a parser would give it */
static tree_t *marked(uint32_t p, const char *text)
{
    lin_term term = { p, 1 };
    tree_t *t = tree_cmp(&term, 1, -1, REL_GE);
    if (text)
        tree_set_text(t, text);
    return t;
}

static int printed_is(const tree_t *t, const char *want)
{
    char *s = tree_to_string(t);
    int ok = s && strcmp(s, want) == 0;
    if (!ok)
        printf("# printed: %s\n# wanted:  %s\n", s ? s : "(null)", want);
    free(s);
    return ok;
}

static void test_kinds(void)
{
    CHECK(strcmp(prop_kind_name(KIND_LTL), "ltl") == 0, "kind name ltl");
    CHECK(strcmp(prop_kind_name(KIND_DL), "dl") == 0, "kind name dl");
    CHECK(prop_kind_from_name("ctl") == KIND_CTL, "kind from name ctl");
    CHECK(prop_kind_from_name("reach") == KIND_REACH, "kind from name reach");
    CHECK(prop_kind_from_name("nonsense") == KIND_AUTO, "unknown kind name is auto");
    CHECK(prop_kind_from_name(NULL) == KIND_AUTO, "NULL kind name is auto");
}

static void test_constructors(void)
{
    uint32_t tr[] = { 5, 2, 5, 1 };
    tree_t *f = tree_fireable(tr, 4);
    CHECK(f && f->op == T_FIREABLE && f->n == 3 && f->items[0] == 1 && f->items[2] == 5,
          "fireable sorts and removes repeated transitions");
    uint32_t tr2[] = { 1, 2, 5 };
    tree_t *f2 = tree_fireable(tr2, 3);
    CHECK(tree_equal(f, f2), "fireable equality ignores order");

    lin_term terms[] = { { 3, 2 }, { 1, 1 }, { 3, -2 }, { 1, 4 } };
    tree_t *c = tree_cmp(terms, 4, 7, REL_LE);
    CHECK(c && c->nterms == 1 && c->terms[0].place == 1 && c->terms[0].coef == 5,
          "cmp merges terms of one place and drops zero coefficients");
    lin_term t2 = { 1, 5 };
    tree_t *c2 = tree_cmp(&t2, 1, 7, REL_LE);
    CHECK(tree_equal(c, c2), "equal comparisons");
    tree_set_text(c2, "\"x\" <= 3");
    CHECK(tree_equal(c, c2), "equality ignores text");
    c2->constant = 8;
    CHECK(!tree_equal(c, c2), "different constants differ");

    tree_t *bin = tree_binary(T_AND, f, c);
    CHECK(bin && bin->l == f && bin->r == c, "binary keeps its children");
    CHECK(tree_size(bin) == 3, "size counts nodes");
    tree_t *cp = tree_copy(bin);
    CHECK(cp && cp != bin && tree_equal(cp, bin), "copy is equal");
    tree_t *u = tree_unary(T_NOT, cp);
    CHECK(!tree_equal(u, bin), "not x differs from x");
    CHECK(tree_unary(T_NOT, NULL) == NULL, "unary of NULL is NULL");
    CHECK(tree_binary(T_OR, tree_const(1), NULL) == NULL, "binary with NULL child is NULL and frees");
    uint32_t pl[] = { 3, 1, 3 };
    tree_t *b = tree_bound(pl, 3);
    CHECK(b && b->n == 3 && b->items[0] == 1, "bound keeps repeated places");
    CHECK(!tree_is_state_formula(b), "bound is not a state formula");
    tree_free(b);
    tree_free(bin);
    tree_free(u);
    tree_free(f2);
    tree_free(c2);
}

static void test_inspection(void)
{
    tree_t *s = tree_binary(T_OR, marked(0, NULL), tree_deadlock());
    tree_t *l = tree_unary(T_G, tree_unary(T_F, marked(0, NULL)));
    tree_t *c = tree_unary(T_AG, tree_binary(T_EU, tree_const(1), marked(1, NULL)));
    CHECK(tree_is_state_formula(s) && !tree_has_ctl(s) && !tree_has_ltl(s), "state formula");
    CHECK(!tree_is_state_formula(l) && tree_has_ltl(l) && !tree_has_ctl(l), "ltl formula");
    CHECK(!tree_is_state_formula(c) && tree_has_ctl(c) && !tree_has_ltl(c), "ctl formula");
    tree_t *mixed = tree_binary(T_AND, c, l);
    CHECK(tree_has_ctl(mixed) && tree_has_ltl(mixed), "mixed formula");
    tree_free(mixed);
    tree_free(s);
}

static void test_eval(void)
{
    uint64_t m[4] = { 0, 1, 3, UINT64_C(9223372036854775807) };
    tree_t *p0 = marked(0, NULL), *p1 = marked(1, NULL);
    CHECK(eval(p0, m, 1) == 0 && eval(p1, m, 1) == 1, "marked places");
    tree_t *f = tree_binary(T_IMPLIES, tree_copy(p0), tree_const(0));
    CHECK(eval(f, m, 1) == 1, "false -> false");
    tree_free(f);
    f = tree_binary(T_IFF, tree_copy(p0), tree_copy(p1));
    CHECK(eval(f, m, 1) == 0, "iff");
    tree_free(f);
    f = tree_binary(T_AND, tree_unary(T_NOT, tree_copy(p0)), tree_copy(p1));
    CHECK(eval(f, m, 1) == 1, "not and");
    tree_free(f);

    /* 2*M(2) - M(1) - 5 = 0 */
    lin_term terms[] = { { 2, 2 }, { 1, -1 } };
    rel_op rels[] = { REL_EQ, REL_NE, REL_LT, REL_LE, REL_GT, REL_GE };
    int want[] = { 1, 0, 0, 1, 0, 1 };
    for (int i = 0; i < 6; i++) {
        tree_t *c = tree_cmp(terms, 2, -5, rels[i]);
        CHECK(eval(c, m, 1) == want[i], "relation %d on 2*M2 - M1 - 5 = 0", i);
        tree_free(c);
    }
    /* huge counts: 128-bit arithmetic */
    lin_term big[] = { { 3, INT64_MAX }, { 3, INT64_MAX } };
    tree_t *c = tree_cmp(big, 1, INT64_MIN, REL_GT);
    CHECK(tree_lin_value(c, m) == (__int128)INT64_MAX * INT64_MAX + INT64_MIN, "128-bit linear value");
    CHECK(eval(c, m, 1) == 1, "huge comparison holds");
    tree_free(c);

    uint32_t ts[] = { 1, 3 };
    tree_t *fi = tree_fireable(ts, 2);
    CHECK(eval(fi, m, 1u << 3) == 1 && eval(fi, m, 1u << 2) == 0, "fireable is a disjunction");
    tree_free(fi);
    tree_t *dl = tree_deadlock();
    CHECK(eval(dl, m, 0) == 1 && eval(dl, m, 4) == 0, "deadlock");
    tree_free(dl);
    tree_t *x = tree_unary(T_X, tree_copy(p0));
    CHECK(eval(x, m, 1) == -1, "temporal operator is not evaluated");
    tree_free(x);
    tree_free(p0);
    tree_free(p1);
}

static void test_printing(void)
{
    tree_t *a = marked(0, "\"a\""), *b = marked(1, "\"b\""), *c = marked(2, "\"c\"");
    tree_t *t = tree_binary(T_AND, tree_binary(T_OR, tree_copy(a), tree_copy(b)), tree_copy(c));
    CHECK(printed_is(t, "(\"a\" | \"b\") & \"c\""), "or under and is parenthesised");
    tree_free(t);
    t = tree_binary(T_OR, tree_binary(T_AND, tree_copy(a), tree_copy(b)), tree_copy(c));
    CHECK(printed_is(t, "\"a\" & \"b\" | \"c\""), "and under or is not");
    tree_free(t);
    t = tree_binary(T_U, tree_copy(a), tree_binary(T_U, tree_copy(b), tree_copy(c)));
    CHECK(printed_is(t, "\"a\" U \"b\" U \"c\""), "until groups to the right");
    tree_free(t);
    t = tree_binary(T_U, tree_binary(T_U, tree_copy(a), tree_copy(b)), tree_copy(c));
    CHECK(printed_is(t, "(\"a\" U \"b\") U \"c\""), "left nested until");
    tree_free(t);
    t = tree_binary(T_AND, tree_binary(T_AND, tree_copy(a), tree_copy(b)), tree_copy(c));
    CHECK(printed_is(t, "\"a\" & \"b\" & \"c\""), "and groups to the left");
    tree_free(t);
    t = tree_binary(T_AND, tree_copy(a), tree_binary(T_AND, tree_copy(b), tree_copy(c)));
    CHECK(printed_is(t, "\"a\" & \"b\" & \"c\""), "right nested and prints flat (& is associative)");
    tree_free(t);
    t = tree_unary(T_G, tree_binary(T_AND, tree_copy(a), tree_unary(T_F, tree_copy(b))));
    CHECK(printed_is(t, "G (\"a\" & F \"b\")"), "prefix over binary");
    tree_free(t);
    t = tree_unary(T_AG, tree_binary(T_EU, tree_binary(T_OR, tree_copy(a), tree_copy(b)),
                                     tree_binary(T_IMPLIES, tree_copy(b), tree_copy(c))));
    CHECK(printed_is(t, "AG E[\"a\" | \"b\" U (\"b\" -> \"c\")]"), "E[ U ]");
    tree_free(t);
    t = tree_binary(T_IFF, tree_unary(T_NOT, tree_deadlock()), tree_const(1));
    CHECK(printed_is(t, "!deadlock <-> true"), "constants and deadlock");
    tree_free(t);
    lin_term terms[] = { { 1, 2 }, { 4, -1 } };
    t = tree_cmp(terms, 2, 3, REL_NE);
    CHECK(printed_is(t, "2 * #p1 - #p4 != -3"), "comparison without text (diagnostics)");
    tree_free(t);
    tree_free(a);
    tree_free(b);
    tree_free(c);
}

static void test_nnf(void)
{
    tree_t *a = marked(0, "\"a\""), *b = marked(1, "\"b\"");
    tree_t *t = tree_nnf(tree_unary(T_NOT, tree_binary(T_AND, tree_copy(a), tree_unary(T_NOT, tree_copy(b)))));
    tree_t *na = tree_copy(a);
    na->rel = REL_LT;
    tree_t *want = tree_binary(T_OR, tree_copy(na), tree_copy(b));
    CHECK(tree_equal(t, want), "de Morgan, double negation, flipped comparison");
    CHECK(t->l->text == NULL, "flipped comparison loses its text");
    tree_free(t);
    tree_free(want);

    t = tree_nnf(tree_unary(T_NOT, tree_unary(T_G, tree_unary(T_F, tree_copy(a)))));
    want = tree_unary(T_F, tree_unary(T_G, tree_copy(na)));
    CHECK(tree_equal(t, want), "!G F a == F G !a");
    tree_free(t);
    tree_free(want);

    t = tree_nnf(tree_unary(T_NOT, tree_binary(T_U, tree_copy(a), tree_copy(b))));
    tree_t *nb = tree_copy(b);
    nb->rel = REL_LT;
    want = tree_binary(T_R, tree_copy(na), tree_copy(nb));
    CHECK(tree_equal(t, want), "!(a U b) == !a R !b");
    tree_free(t);
    tree_free(want);

    t = tree_nnf(tree_unary(T_NOT, tree_unary(T_AG, tree_unary(T_EX, tree_deadlock()))));
    want = tree_unary(T_EF, tree_unary(T_AX, tree_unary(T_NOT, tree_deadlock())));
    CHECK(tree_equal(t, want), "!AG EX d == EF AX !d");
    tree_free(t);
    tree_free(want);

    t = tree_nnf(tree_unary(T_NOT, tree_binary(T_EU, tree_copy(a), tree_copy(b))));
    /* A does not distribute over "| AG !b": the negation must stay. */
    want = tree_unary(T_NOT, tree_binary(T_EU, tree_copy(a), tree_copy(b)));
    CHECK(tree_equal(t, want), "!E[a U b] keeps its negation");
    tree_free(t);
    tree_free(want);

    t = tree_nnf(tree_unary(T_NOT, tree_binary(T_AU, tree_copy(a), tree_copy(b))));
    want = tree_binary(T_OR, tree_binary(T_EU, tree_copy(nb), tree_binary(T_AND, tree_copy(na), tree_copy(nb))),
                       tree_unary(T_EG, tree_copy(nb)));
    CHECK(tree_equal(t, want), "!A[a U b] == E[!b U !a & !b] | EG !b");
    tree_free(t);
    tree_free(want);

    t = tree_nnf(tree_binary(T_IMPLIES, tree_copy(a), tree_copy(b)));
    want = tree_binary(T_OR, tree_copy(na), tree_copy(b));
    CHECK(tree_equal(t, want), "a -> b == !a | b");
    tree_free(t);
    tree_free(want);

    t = tree_nnf(tree_unary(T_NOT, tree_binary(T_IFF, tree_copy(a), tree_copy(b))));
    want = tree_binary(T_OR, tree_binary(T_AND, tree_copy(a), tree_copy(nb)),
                       tree_binary(T_AND, tree_copy(na), tree_copy(b)));
    CHECK(tree_equal(t, want), "!(a <-> b) == a & !b | !a & b");
    tree_free(t);
    tree_free(want);

    t = tree_nnf(tree_unary(T_NOT, tree_binary(T_OR, tree_const(1), tree_unary(T_X, tree_deadlock()))));
    want = tree_binary(T_AND, tree_const(0), tree_unary(T_X, tree_unary(T_NOT, tree_deadlock())));
    CHECK(tree_equal(t, want), "!(true | X d) == false & X !d");
    tree_free(t);
    tree_free(want);

    /* NNF preserves the value of state formulas on every small marking */
    int agree = 1;
    for (unsigned m0 = 0; m0 < 3; m0++)
        for (unsigned m1 = 0; m1 < 3; m1++) {
            uint64_t m[2] = { m0, m1 };
            tree_t *f = tree_unary(T_NOT, tree_binary(T_IFF, tree_binary(T_IMPLIES, tree_copy(a), tree_copy(b)),
                                                      tree_unary(T_NOT, tree_copy(a))));
            tree_t *g = tree_nnf(tree_copy(f));
            agree &= eval(f, m, 1) == eval(g, m, 1);
            tree_free(f);
            tree_free(g);
        }
    CHECK(agree, "nnf keeps the meaning");
    tree_free(na);
    tree_free(nb);
    tree_free(a);
    tree_free(b);
}

static void test_fold(void)
{
    tree_t *a = marked(0, "\"a\"");
    tree_t *t = tree_fold(tree_binary(T_AND, tree_const(1), tree_copy(a)));
    CHECK(tree_equal(t, a), "true & a == a");
    tree_free(t);
    t = tree_fold(tree_binary(T_OR, tree_copy(a), tree_const(1)));
    CHECK(t->op == T_TRUE, "a | true == true");
    tree_free(t);
    t = tree_fold(tree_binary(T_IMPLIES, tree_copy(a), tree_const(0)));
    CHECK(t->op == T_NOT && tree_equal(t->l, a), "a -> false == !a");
    tree_free(t);
    t = tree_fold(tree_unary(T_NOT, tree_unary(T_NOT, tree_copy(a))));
    CHECK(tree_equal(t, a) && t->text, "double negation keeps the atom");
    tree_free(t);
    t = tree_fold(tree_binary(T_IFF, tree_const(0), tree_copy(a)));
    CHECK(t->op == T_NOT && tree_equal(t->l, a), "false <-> a == !a");
    tree_free(t);
    t = tree_fold(tree_binary(T_U, tree_const(1), tree_copy(a)));
    CHECK(t->op == T_F && tree_equal(t->l, a), "true U a == F a");
    tree_free(t);
    t = tree_fold(tree_binary(T_R, tree_const(0), tree_copy(a)));
    CHECK(t->op == T_G && tree_equal(t->l, a), "false R a == G a");
    tree_free(t);
    t = tree_fold(tree_binary(T_EU, tree_copy(a), tree_const(0)));
    CHECK(t->op == T_FALSE, "E[a U false] == false");
    tree_free(t);
    /* the CTL untils keep their quantifier (a wrong MCC answer came from
     * E[true U a] folded to AF a, the operator read after the node was
     * freed) */
    t = tree_fold(tree_binary(T_EU, tree_const(1), tree_copy(a)));
    CHECK(t->op == T_EF && tree_equal(t->l, a), "E[true U a] == EF a");
    tree_free(t);
    t = tree_fold(tree_binary(T_AU, tree_const(1), tree_copy(a)));
    CHECK(t->op == T_AF && tree_equal(t->l, a), "A[true U a] == AF a");
    tree_free(t);
    t = tree_fold(tree_binary(T_AU, tree_const(0), tree_copy(a)));
    CHECK(tree_equal(t, a), "A[false U a] == a");
    tree_free(t);
    t = tree_fold(tree_unary(T_AG, tree_unary(T_X, tree_const(1))));
    CHECK(t->op == T_TRUE, "AG X true == true");
    tree_free(t);
    /* maximal paths: a deadlock has no successor */
    t = tree_fold(tree_unary(T_EX, tree_const(1)));
    CHECK(t->op == T_NOT && t->l->op == T_DEADLOCK, "EX true == !deadlock");
    tree_free(t);
    t = tree_fold(tree_unary(T_AX, tree_const(0)));
    CHECK(t->op == T_DEADLOCK, "AX false == deadlock");
    tree_free(t);
    t = tree_fold(tree_unary(T_EX, tree_const(0)));
    CHECK(t->op == T_FALSE, "EX false == false");
    tree_free(t);

    /* comparisons: M >= 0 always; -M > 0 never; 3 = 3 */
    lin_term pos = { 0, 2 }, neg = { 0, -1 };
    t = tree_fold(tree_cmp(&pos, 1, 0, REL_GE));
    CHECK(t->op == T_TRUE, "2*M(p) >= 0 is true");
    tree_free(t);
    t = tree_fold(tree_cmp(&pos, 1, 1, REL_EQ));
    CHECK(t->op == T_FALSE, "2*M(p) + 1 = 0 is false");
    tree_free(t);
    t = tree_fold(tree_cmp(&neg, 1, 0, REL_GT));
    CHECK(t->op == T_FALSE, "-M(p) > 0 is false");
    tree_free(t);
    t = tree_fold(tree_cmp(&neg, 1, -1, REL_LT));
    CHECK(t->op == T_TRUE, "-M(p) - 1 < 0 is true");
    tree_free(t);
    t = tree_fold(tree_cmp(&neg, 1, 2, REL_GE));
    CHECK(t->op == T_CMP, "2 - M(p) >= 0 is not decided");
    tree_free(t);
    t = tree_fold(tree_cmp(NULL, 0, 0, REL_EQ));
    CHECK(t->op == T_TRUE, "0 = 0 is true");
    tree_free(t);
    t = tree_fold(tree_cmp(NULL, 0, -3, REL_GE));
    CHECK(t->op == T_FALSE, "-3 >= 0 is false");
    tree_free(t);
    tree_free(a);
}

static unsigned depth_of(const tree_t *t)
{
    if (!t)
        return 0;
    unsigned l = depth_of(t->l), r = depth_of(t->r);
    return 1 + (l > r ? l : r);
}

/* Appends the places of the chain's operands, left to right, to v. */
static void operand_places(const tree_t *t, tree_op op, uint32_t *v, size_t *n)
{
    if (t->op == op) {
        operand_places(t->l, op, v, n);
        operand_places(t->r, op, v, n);
    } else {
        v[(*n)++] = t->terms[0].place;
    }
}

/* tree_chain (issue #40): a chain of any length is balanced, keeps its
 * operands in order, and tree_chain_height says how deep it is. */
static void test_chains(void)
{
    static const size_t lengths[] = { 1, 2, 3, 4, 5, 7, 8, 9, 1000, 65535, 65536, 1000001 };
    int ok = 1;
    uint32_t *places = malloc(1000001 * sizeof *places);
    for (size_t k = 0; ok && k < sizeof lengths / sizeof *lengths; k++) {
        size_t n = lengths[k];
        tree_chain c;
        tree_chain_start(&c, T_AND);
        for (size_t i = 0; i < n; i++)
            tree_chain_add(&c, marked((uint32_t)i, NULL));
        unsigned height = tree_chain_height(&c);
        tree_t *t = tree_chain_end(&c);
        unsigned want = 1;
        while (((size_t)1 << (want - 1)) < n)
            want++;
        size_t got = 0;
        if (t)
            operand_places(t, T_AND, places, &got);
        for (size_t i = 0; i < got && ok; i++)
            ok = places[i] == i;
        unsigned d = t ? depth_of(t) : 0;
        ok = ok && got == n && d == want && height + 1 == d;
        if (!ok)
            printf("# %zu operands: %zu back, depth %u (want %u), height %u\n", n, got, d, want,
                   height);
        tree_free(t);
    }
    free(places);
    CHECK(ok, "chains of 1 to 1000001 operands: in order, ceil(log2 n) levels, as predicted");
    tree_chain c;
    tree_chain_start(&c, T_OR);
    CHECK(tree_chain_end(&c) == NULL, "an empty chain is no tree");
    tree_chain_add(&c, marked(1, NULL));
    CHECK(tree_chain_add(&c, NULL) < 0 && tree_chain_add(&c, marked(2, NULL)) < 0 &&
          tree_chain_end(&c) == NULL, "no memory for an operand: the chain fails and frees all");

    /* equality does not see the grouping, only the operands in order */
    tree_t *a = marked(0, "\"a\""), *b = marked(1, "\"b\""), *d = marked(2, "\"c\"");
    tree_t *left = tree_binary(T_AND, tree_binary(T_AND, tree_copy(a), tree_copy(b)), tree_copy(d));
    tree_t *right = tree_binary(T_AND, tree_copy(a), tree_binary(T_AND, tree_copy(b), tree_copy(d)));
    tree_t *swapped = tree_binary(T_AND, tree_copy(b), tree_binary(T_AND, tree_copy(a), tree_copy(d)));
    tree_t *mixed = tree_binary(T_AND, tree_copy(a), tree_binary(T_OR, tree_copy(b), tree_copy(d)));
    CHECK(tree_equal(left, right), "(a & b) & c equals a & (b & c)");
    CHECK(!tree_equal(left, swapped), "a & b & c differs from b & a & c");
    CHECK(!tree_equal(right, mixed), "a & (b & c) differs from a & (b | c)");
    tree_free(left);
    tree_free(right);
    tree_free(swapped);
    tree_free(mixed);
    /* a chain built by hand as deep as it is long compares without recursion */
    tree_t *deep = tree_copy(a), *deep2 = tree_copy(a);
    tree_chain_start(&c, T_AND);
    tree_chain_add(&c, tree_copy(a));
    for (int i = 0; i < 300000; i++) {
        deep = tree_binary(T_AND, deep, tree_copy(b));
        deep2 = tree_binary(T_AND, deep2, tree_copy(b));
        tree_chain_add(&c, tree_copy(b));
    }
    tree_t *balanced = tree_chain_end(&c);
    CHECK(deep && balanced && tree_equal(deep, balanced) && tree_equal(deep, deep2),
          "a left chain of 300001 equals its balanced form and itself");
    tree_free(deep);
    tree_free(deep2);
    tree_free(balanced);
    tree_free(a);
    tree_free(b);
    tree_free(d);
}

int main(void)
{
    test_kinds();
    test_chains();
    test_constructors();
    test_inspection();
    test_eval();
    test_printing();
    test_nnf();
    test_fold();
    UNIT_DONE();
}
