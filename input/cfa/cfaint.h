/* What the CFA lexer, grammar and builder share while a file is read.
 * Reading stops at the first error: every builder function returns -1
 * after printing "FILE:LINE: message", and the grammar aborts. */
#ifndef MCK_CFAINT_H
#define MCK_CFAINT_H

#include "cfa.h"

typedef struct cy_state {
    cfa_model *m;
    const char *file;
    int failed;            /* an error was printed */
    int in_global;         /* after @global, before the first automaton */
    int seen_global;
    long line;             /* the lexer's line */
    /* token positions, for messages about what came before the error */
    long tok_line, prev_line;
    char tok[48];          /* the text of the last token */
    int tok_is_reserved;   /* it is a reserved word */
    int ntokens;
    /* the transition being read */
    cfa_item *items;
    size_t nitems, cap_items;
    /* per declaration, for checking one transition: its use bits (zero
     * between transitions), and the declarations it touches */
    unsigned *use_bits;
    uint32_t *touched;
    size_t nscratch, ntouched;
} cy_state;

void cy_error(cy_state *st, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Declarations */
int cy_global(cy_state *st, long line);
int cy_decl_var(cy_state *st, char *name, long line, int64_t lo, int64_t hi,
                int has_init, int64_t init);
int cy_decl_buffer(cy_state *st, char *name, long line, cfa_decl_kind kind,
                   int64_t capacity, int64_t lo, int64_t hi);
int cy_misplaced_decl(cy_state *st, long line);

/* Automata */
int cy_automaton(cy_state *st, char *name, long line);
int cy_start(cy_state *st, char *state, long line);
/* @label STATE : LABEL: one call per label. */
int cy_label(cy_state *st, const char *state, char *label, long line);
/* Items are collected with cy_item_* before cy_transition. */
int cy_transition(cy_state *st, char *src, char *dst, long line);
int cy_item_pred(cy_state *st, cfa_expr *e, long line);
int cy_item_send(cy_state *st, char *buffer, cfa_expr *e, long line);
int cy_item_recv(cy_state *st, char *buffer, char *var, long line);
int cy_finish(cy_state *st, long line);

/* Expressions: NULL after an error (children are freed). */
cfa_expr *cy_int(cy_state *st, int64_t v);
cfa_expr *cy_bool(cy_state *st, int v);
cfa_expr *cy_var(cy_state *st, char *name, cfa_op which, long line);
cfa_expr *cy_unary(cy_state *st, cfa_op op, cfa_expr *e, long line);
cfa_expr *cy_binary(cy_state *st, cfa_op op, cfa_expr *l, cfa_expr *r, long line);

#endif
