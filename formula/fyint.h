/* Internals shared by the formula grammar (formula.y), its lexer
 * (formula.l), the tree-building actions (build.c) and the driver
 * (parse.c).  Not part of any contract outside formula/. */
#ifndef MCK_FYINT_H
#define MCK_FYINT_H

#include <stddef.h>
#include <stdint.h>
#include "formula.h"

#ifndef YY_TYPEDEF_YY_SCANNER_T
#define YY_TYPEDEF_YY_SCANNER_T
typedef void *yyscan_t;
#endif

/* Deeper trees are refused: every tree walk in mck is recursive, and a
 * hostile formula must not overflow the C stack.  & and | chains count
 * about log2 of their length (fy_chain). */
#define FY_MAX_DEPTH 10000
#define FY_MAX_DEPTH_TEXT "10000"
/* W copies its right operand, and a macro is copied where it is used, so
 * a short text can stand for a tree exponentially larger than itself:
 * trees of more nodes than this are refused before they are built. */
#ifndef FY_MAX_NODES
#define FY_MAX_NODES 100000u
#endif


/* Where the first operator of a class occurs (line 0: nowhere), with the
 * name error messages use for it. */
typedef struct fy_occ {
    long line, col;
    const char *name;
} fy_occ;

/* A parsed subformula: its tree plus what kind checks and depth limits
 * need, so that no tree has to be walked again while parsing. */
typedef struct fy_node {
    tree_t *t;
    unsigned depth;
    uint64_t size;      /* operators and atoms, an atom counting one */
    fy_occ ctl;         /* first path-quantified operator */
    fy_occ ltl;         /* first X F G U R not governed by A/E */
    fy_occ ltl_below;   /* the same without the root operator: what is
                           left when A/E takes over a root U */
} fy_node;

/* An & or | chain being read: its operands go into a balanced tree as
 * they come (tree_chain), with the bookkeeping of fy_node for all of them. */
typedef struct fy_chain {
    tree_chain c;
    fy_node first;      /* the first operand, whole while it is alone */
    int alone;          /* no second operand yet: first is not in c */
    unsigned depth;     /* of the deepest operand */
    uint64_t size;
    fy_occ ctl, ltl;
} fy_chain;

/* One quoted string inside an arithmetic sum, resolved only once the
 * comparison is complete. */
typedef struct fy_atom {
    char *text;        /* as written, quotes included */
    long line, col;
    int64_t coef;
} fy_atom;

typedef struct fy_sum {
    fy_atom *atoms;
    size_t n, cap;
    int64_t constant;
    char *text;        /* the sum rebuilt from its tokens, for printing */
    size_t text_len, text_cap;
    int bare;          /* exactly one STRING, nothing else: an atom */
} fy_sum;

typedef struct fy_macro {
    char *name;
    fy_node node;
} fy_macro;

/* Macros live in one table shared by the main parse and the parses of
 * #define bodies. */
typedef struct fy_macros {
    fy_macro *v;
    size_t n, cap;
} fy_macros;

/* "[KIND] name:", the token before a formula of a file of several. */
typedef struct fy_name {
    char *name;
    prop_kind kind;     /* KIND_AUTO when no kind is written */
} fy_name;

/* One formula of a file of several (formula-syntax.md §8). */
typedef struct fy_named {
    char *name;
    prop_kind kind;
    long line, col;
    fy_node node;       /* node.t NULL for dl */
} fy_named;

/* Everything one parse needs; also the flex extra data. */
typedef struct fy_state {
    const char *file;
    net_t *net;
    void *lang_data;
    ap_resolver resolve;
    fy_macros *macros;
    int in_macro;          /* parsing a #define body */
    int bare_names;        /* an identifier that is no keyword or macro is an atom */
    const char *macro_name;

    /* scanner position (1-based) */
    long line, col;
    long comment_line, comment_col;

    /* the last two tokens, for syntax error messages */
    char tok[48];
    int tok_kind, prev_kind;
    char quant, prev_quant;    /* the letter, when the token is A or E */
    int ntokens;

    int failed;            /* an error has been reported */
    fy_node result;
    int have_result;
    /* a file of named formulas instead of one result */
    fy_named *named;
    size_t nnamed, cap_named;
    uint64_t named_size;   /* operators and atoms of all of them */
    long start_line, start_col;
} fy_state;

/* ---- errors (parse.c) ---- */
void fy_error(fy_state *st, long line, long col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* ---- macros (macro.c) ---- */
/* Handles one directive line (text from '#' to the end of the line);
 * 0, or -1 after an error. */
int fy_directive(fy_state *st, const char *text, long line, long col);
int fy_macro_find(const fy_macros *m, const char *name);   /* index or -1 */
void fy_macros_free(fy_macros *m);
int fy_is_keyword(const char *s);

/* ---- parsing a text (parse.c); the result lands in st->result, or
 * the named formulas of a list in st->named ---- */
int fy_parse_text(fy_state *st, const char *text, size_t len, long line, long col);
/* Appends "[KIND] name: formula" (node NULL: none written, at line/col of
 * the name); consumes the name and node either way.  0, or -1 after an
 * error (a name given twice, a list in a macro, a formula missing or one
 * given to dl, too large). */
int fy_add_named(fy_state *st, fy_name *name, fy_node *node, long line, long col,
                 long fline, long fcol);
void fy_named_free(fy_state *st);

/* ---- scanner (formula.l) ---- */
int fy_scanner_open(fy_state *st, const char *text, size_t len, yyscan_t *out);
void fy_scanner_close(yyscan_t scanner);

/* ---- building (build.c); each returns 0, or -1 after an error, and
 * consumes its node/sum arguments either way ---- */
void fy_node_free(fy_node *n);
int fy_leaf(fy_state *st, fy_node *out, tree_t *t, long line, long col);
int fy_prefix(fy_state *st, fy_node *out, tree_op op, fy_node *child, long line, long col);
/* The weak until of RERS properties has no tree node: a W b is built as
 * b R (a | b), which is (a U b) | G a. */
#define FY_WEAK_UNTIL 1000
int fy_infix(fy_state *st, fy_node *out, tree_op op, fy_node *l, fy_node *r, long line, long col);
/* A chain of op (T_AND, T_OR) of the one operand first; NULL after an
 * error.  fy_chain_add appends an operand written after the operator at
 * line:col, fy_chain_end makes the node (a lone operand stays as it is);
 * both consume their arguments and return -1 after an error. */
fy_chain *fy_chain_start(fy_state *st, tree_op op, fy_node *first);
int fy_chain_add(fy_state *st, fy_chain *c, fy_node *operand, long line, long col);
int fy_chain_end(fy_state *st, fy_node *out, fy_chain *c);
void fy_chain_free(fy_chain *c);
/* "formula nested too deeply", with the limit */
void fy_nested_too_deeply(fy_state *st, long line, long col);
/* A/E: op is T_EX.. for the spaced forms; for brackets, inner must be U. */
int fy_quantified(fy_state *st, fy_node *out, char quant, tree_op ltl_op, fy_node *child,
                  long line, long col);
int fy_quantified_until(fy_state *st, fy_node *out, char quant, fy_node *inner,
                        long line, long col, long inner_line, long inner_col);
int fy_macro_use(fy_state *st, fy_node *out, int index, long line, long col);
int fy_atom_bool(fy_state *st, fy_node *out, char *text, long line, long col);
int fy_fireable(fy_state *st, fy_node *out, char *text, long line, long col);

void fy_sum_free(fy_sum *s);
fy_sum *fy_sum_const(fy_state *st, int64_t value);
/* STRING (scaled 0) or INT * STRING (scaled 1); takes text. */
fy_sum *fy_sum_atom(fy_state *st, char *text, int64_t coef, int scaled, long line, long col);
/* Negation and addition; NULL after an error (arguments consumed). */
fy_sum *fy_sum_negate(fy_state *st, fy_sum *s, long line, long col);
fy_sum *fy_sum_add(fy_state *st, fy_sum *a, fy_sum *b, int minus, long line, long col);
/* primary: sum (must be one STRING) or sum REL sum. */
int fy_sum_alone(fy_state *st, fy_node *out, fy_sum *s, long line, long col);
/* rel: a rel_op, or'ed with FY_REL_DOUBLE when "=" was written "==" */
#define FY_REL_DOUBLE 16
int fy_compare(fy_state *st, fy_node *out, fy_sum *l, int rel, fy_sum *r, long line, long col);

#endif
