/* tree_t: a property as a formula tree whose leaves are already in net terms
 * (place indices, transition indices).  Both property front ends (the Kit's
 * text syntax and MCC XML) build it; checkers read it.  It knows nothing of
 * nets beyond indices. */
#ifndef MCK_TREE_H
#define MCK_TREE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Property kinds (kit-overview.md §3.2).  KIND_AUTO: derive from the formula. */
typedef enum { KIND_AUTO = 0, KIND_DL, KIND_REACH, KIND_CTL, KIND_LTL } prop_kind;
const char *prop_kind_name(prop_kind k);       /* "dl", "reach", ... */
prop_kind prop_kind_from_name(const char *s);  /* KIND_AUTO if unknown */

typedef enum {
    /* state formulas */
    T_TRUE, T_FALSE, T_DEADLOCK,
    T_FIREABLE,   /* some transition of trans[0..n) is enabled */
    T_ACTION,     /* the transition taken at this position of a run is one of
                     trans[0..n): RERS's action propositions, only in LTL */
    T_CMP,        /* sum(coef[i] * M(place[i])) + constant REL 0 */
    T_NOT, T_AND, T_OR, T_IMPLIES, T_IFF,
    /* LTL path operators */
    T_X, T_F, T_G, T_U, T_R,
    /* CTL operators */
    T_EX, T_AX, T_EF, T_AF, T_EG, T_AG, T_EU, T_AU,
    /* MCC UpperBounds: max over reachable markings of sum M(place[i]);
     * only ever the root of a property. */
    T_BOUND,
} tree_op;

typedef enum { REL_EQ, REL_NE, REL_LT, REL_LE, REL_GT, REL_GE } rel_op;

typedef struct lin_term {
    uint32_t place;
    int64_t coef;
} lin_term;

typedef struct tree {
    tree_op op;
    struct tree *l, *r;   /* unary ops use l; binary ops use l and r */

    /* T_FIREABLE: transitions; T_BOUND: places (in trans as place indices) */
    uint32_t n;
    uint32_t *items;

    /* T_CMP */
    rel_op rel;
    uint32_t nterms;
    lin_term *terms;
    int64_t constant;

    /* Source text printed verbatim instead of the subtree (an atomic
     * proposition as the user wrote it, quotes included, or a comparison).
     * Lets printing round-trip without knowing the model's language. */
    char *text;
} tree_t;

/* ---- constructors (NULL on out of memory; they take ownership of
 * children, and free them on failure) ---- */
tree_t *tree_const(int value);
tree_t *tree_deadlock(void);
tree_t *tree_fireable(const uint32_t *trans, uint32_t n);
tree_t *tree_action(const uint32_t *trans, uint32_t n);
tree_t *tree_cmp(const lin_term *terms, uint32_t nterms, int64_t constant, rel_op rel);
tree_t *tree_bound(const uint32_t *places, uint32_t n);
tree_t *tree_unary(tree_op op, tree_t *child);
tree_t *tree_binary(tree_op op, tree_t *l, tree_t *r);
int tree_set_text(tree_t *t, const char *text);   /* 0, or -1 on no memory */

/* ---- chains a1 op a2 op ... op an of T_AND or T_OR, whatever makes
 * them (a parser, a file's long list, a loop over a net): built as a
 * balanced tree, so that a chain of any length is about log2(n) deep.
 * Every walk over trees in mck recurses on depth; the depth a file can
 * reach is bounded by the readers' nesting limits, and a chain must not
 * count as nesting.  The grouping follows n only, never the operands. ---- */
typedef struct tree_chain {
    tree_op op;
    unsigned nparts;
    /* complete subtrees of 2^level[i] operands, levels falling, as the
     * digits of a binary counter of the operands so far */
    tree_t *part[64];
    unsigned char level[64];
    int failed;                /* out of memory: what was added is freed */
} tree_chain;
void tree_chain_start(tree_chain *c, tree_op op);
/* Appends t, taking it (NULL counts as no memory); 0, or -1 when there is
 * no memory, after which the chain holds nothing and refuses more. */
int tree_chain_add(tree_chain *c, tree_t *t);
/* The chain's tree (a lone operand as it is), and an empty chain again;
 * NULL when nothing was added or memory ran out. */
tree_t *tree_chain_end(tree_chain *c);
/* How many levels of op the tree tree_chain_end would make now stands
 * above its deepest operand, at most. */
unsigned tree_chain_height(const tree_chain *c);
void tree_chain_discard(tree_chain *c);
tree_t *tree_copy(const tree_t *t);
void tree_free(tree_t *t);

/* ---- inspection ---- */
int tree_is_state_formula(const tree_t *t);   /* no temporal operator */
int tree_has_ctl(const tree_t *t);            /* any path-quantified op */
size_t tree_count_ctl(const tree_t *t);       /* how many path-quantified ops */
int tree_op_is_ctl(tree_op op);               /* EX ... AU */
int tree_has_ltl(const tree_t *t);            /* any X F G U R */
int tree_has_action(const tree_t *t);         /* any T_ACTION */
/* Equal formulas up to the grouping of & and | chains ((a & b) & c
 * equals a & (b & c)), the order of operands counting. */
int tree_equal(const tree_t *a, const tree_t *b);
size_t tree_size(const tree_t *t);

/* ---- printing back in the Kit syntax (formula-syntax.md); the output
 * parses to an equal tree (tree_equal: & and | chains print flat).  Leaves without text print as "#pN"/"#tN"
 * only for diagnostics. ---- */
void tree_print(FILE *out, const tree_t *t);
char *tree_to_string(const tree_t *t);        /* malloc'd; NULL on no memory */

/* ---- transformations (consume their argument, return the result) ---- */
/* Negation normal form: negations only directly above state leaves
 * (T_CMP negations are absorbed by flipping the relation) and above
 * E[f U g], whose negation needs a weak until the tree does not have;
 * IMPLIES and IFF are expanded. */
tree_t *tree_nnf(tree_t *t);
/* The number of nodes tree_nnf(t) would make, without making them
 * (saturating at SIZE_MAX).  Expanding <-> copies both sides, and a
 * negated A[f U g] copies g three times: nested, they grow exponentially,
 * so a short formula can stand for more nodes than memory holds.  Callers
 * compare this with TREE_NNF_MAX_NODES before tree_nnf. */
size_t tree_nnf_size(const tree_t *t);
/* Ten times the largest formula the parsers build (FY_MAX_NODES): NNF
 * doubles a formula at most, unless <-> or !A[..U..] nest. */
#define TREE_NNF_MAX_NODES 1000000u
/* Folds constants: true/false propagation, double negation, comparisons
 * without places, trivially true/false comparisons. */
tree_t *tree_fold(tree_t *t);

/* Evaluation of a state formula on a marking.  enabled(t, ctx) answers
 * fireability; deadlock is "no transition enabled" and is answered by
 * is_deadlock(ctx). */
typedef struct tree_eval_ctx {
    const uint64_t *marking;
    int (*enabled)(uint32_t transition, void *ctx);
    int (*is_deadlock)(void *ctx);
    void *ctx;
} tree_eval_ctx;
int tree_eval_state(const tree_t *t, const tree_eval_ctx *ctx);
/* sum(coef * M(p)) + constant, in 128 bits: no overflow for 64-bit counts
 * and a bounded number of terms. */
__int128 tree_lin_value(const tree_t *cmp, const uint64_t *marking);
/* Whether v (a comparison's sum minus its bound, as tree_lin_value gives
 * it) stands in relation rel to 0. */
int tree_rel_holds(rel_op rel, __int128 v);

#endif
