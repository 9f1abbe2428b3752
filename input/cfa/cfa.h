/* CFA, communicating finite automata (docs: cfa-format.md): the model as
 * read, shared by the parts of the reader.  The grammar (cfa.y) calls the
 * builder (cfabuild.c); cfanet.c expands the model into the safe net of §5;
 * cfaatoms.c and cfarun.c read the model back through net->lang_data. */
#ifndef MCK_CFA_H
#define MCK_CFA_H

#include <stddef.h>
#include <stdint.h>
#include "base/netconv.h"
#include "base/strmap.h"

typedef enum { CFA_VAR, CFA_CHAN, CFA_STACK } cfa_decl_kind;

typedef struct cfa_decl {
    char *name;
    cfa_decl_kind kind;
    int64_t lo, hi;
    int64_t init;          /* variables; lo when no init was given */
    uint32_t capacity;     /* buffers */
    long line;
    uint32_t first_place;  /* variables: x=lo; buffers: c.len=0 */
} cfa_decl;

typedef enum {
    CE_INT, CE_TRUE, CE_FALSE,
    CE_PLAIN, CE_PRE, CE_POST,           /* x, 'x, x' */
    CE_NEG, CE_ADD, CE_SUB, CE_MUL, CE_DIV, CE_MOD,
    CE_EQ, CE_NE, CE_LT, CE_LE, CE_GT, CE_GE,
    CE_NOT, CE_AND, CE_OR,
} cfa_op;

/* An expression as the parsers build it.  Nothing walks it but
 * cfa_code_from, which turns it into code: a flat chain of a million
 * operands is a tree a million deep. */
typedef struct cfa_expr {
    cfa_op op;
    int is_bool;
    int64_t value;         /* CE_INT */
    uint32_t var;          /* CE_PLAIN, CE_PRE, CE_POST: declaration index */
    struct cfa_expr *l, *r;
} cfa_expr;

/* An expression in postfix order, operands before their operator: what
 * evaluation and the uses of variables loop over, whatever the shape of
 * the expression. */
typedef struct cfa_instr {
    cfa_op op;
    uint32_t var;          /* CE_PLAIN, CE_PRE, CE_POST */
    int64_t value;         /* CE_INT */
} cfa_instr;

typedef struct cfa_code {
    cfa_instr *v;          /* NULL: no expression (a receive) */
    uint32_t n;
    uint32_t stack;        /* the values evaluation holds at most at once */
    int is_bool;
} cfa_code;

typedef enum { CFA_PRED, CFA_SEND, CFA_RECV } cfa_item_kind;

typedef struct cfa_item {
    cfa_item_kind kind;
    cfa_code code;         /* predicate, or the value sent */
    uint32_t buffer;       /* send/receive */
    uint32_t target;       /* receive: the variable receiving */
} cfa_item;

/* Uses of one declaration in a transition (§4), as bits. */
enum { CFA_USE_PLAIN = 1, CFA_USE_PRE = 2, CFA_USE_POST = 4, CFA_USE_RECV = 8,
       CFA_USE_SEND = 16 };

/* What a transition does with one declaration. */
typedef struct cfa_use {
    uint32_t decl;
    unsigned bits;
} cfa_use;

typedef struct cfa_trans {
    uint32_t src, dst;     /* state indices of the automaton */
    cfa_item *items;
    size_t nitems;
    cfa_use *uses;         /* the declarations it touches, in declaration order */
    uint32_t nuses;
    long line;
    /* the net transitions generated from it: [first_net, first_net+nnet) */
    uint32_t first_net, nnet;
} cfa_trans;

typedef struct cfa_automaton {
    char *name;
    char **states;         /* in order of first appearance */
    size_t nstates, cap_states;
    strmap state_index;    /* name -> index in states */
    long *state_lines;     /* where each state first appears */
    size_t cap_state_lines;
    int32_t start;         /* -1 until @start */
    long line, start_line;
    cfa_trans *trans;
    size_t ntrans, cap_trans;
    uint32_t first_place;
} cfa_automaton;

/* A label: the (automaton, state) pairs it is attached to. */
typedef struct cfa_label {
    char *name;
    uint32_t *aut, *state;
    size_t n, cap_aut, cap_state;
} cfa_label;

typedef struct cfa_model {
    char *file;
    cfa_decl *decls;
    size_t ndecls, cap_decls;
    cfa_automaton *auts;
    size_t nauts, cap_auts;
    cfa_label *labels;
    size_t nlabels, cap_labels;
    /* name -> index: decls, auts and labels are looked up by name for every
     * use, so a model of many names reads in time linear in its size */
    strmap decl_index, aut_index, label_index;
    /* per net transition: its automaton and CFA transition */
    uint32_t *net_aut, *net_trans;
    size_t nnet;
} cfa_model;

void cfa_model_free(cfa_model *m);
/* The declaration named name, or -1. */
int64_t cfa_find_decl(const cfa_model *m, const char *name);
/* The automaton named by the len bytes at name, or -1. */
int64_t cfa_find_automaton(const cfa_model *m, const char *name, size_t len);
/* The index of a's state called name, or -1. */
int64_t cfa_find_state(const cfa_automaton *a, const char *name);

/* The place layout of §5.1, shared by the translation, the propositions
 * and the decoding of markings.  A range's size saturates (a full 64-bit
 * range); the net is only built once every size fits (cfanet.c). */
static inline uint64_t cfa_range_size(const cfa_decl *d)
{
    uint64_t span = (uint64_t)d->hi - (uint64_t)d->lo;
    return span == UINT64_MAX ? UINT64_MAX : span + 1;
}

/* v's position in d's range: the offset of place x=v, or of c[i]=v in a slot */
static inline uint32_t cfa_offset(const cfa_decl *d, int64_t v)
{
    return (uint32_t)((uint64_t)v - (uint64_t)d->lo);
}

/* buffers: the place c.len=l */
static inline uint32_t cfa_len_place(const cfa_decl *d, uint32_t l)
{
    return d->first_place + l;
}

/* buffers: the place c[slot]=lo, first of that slot's places */
static inline uint32_t cfa_slot_first(const cfa_decl *d, uint32_t slot)
{
    return d->first_place + d->capacity + 1 + slot * (uint32_t)cfa_range_size(d);
}
/* Frees a tree of any depth (no recursion). */
void cfa_expr_free(cfa_expr *e);
/* Turns e into code and frees it; 0, or -1 when there is no memory (e is
 * freed either way). */
int cfa_code_from(cfa_expr *e, cfa_code *out);
void cfa_code_free(cfa_code *c);

/* Parses a file into a model; NULL after one "FILE:LINE: message". */
cfa_model *cfa_parse_file(const char *path);

/* Evaluation of an expression under a choice of values: pre[i] and post[i]
 * per declaration; stack has room for c->stack values.  CFA_EVAL_OK with
 * *out set; CFA_EVAL_UNDEFINED for a division by zero (the choice is not a
 * step, §4); CFA_EVAL_OVERFLOW when a value leaves 128 bits. */
enum { CFA_EVAL_OK, CFA_EVAL_UNDEFINED, CFA_EVAL_OVERFLOW };
typedef __int128 cfa_value;
int cfa_eval(const cfa_code *c, const int64_t *pre, const int64_t *post, cfa_value *stack,
             cfa_value *out);

/* ORs into uses[d] what c does with declaration d: CFA_USE_PLAIN, _PRE
 * or _POST. */
void cfa_code_uses(const cfa_code *c, unsigned *uses);

/* Builds the net of §5 (names, order, partition) and hands the model to
 * it as lang_data; the model is freed with the net, or here on failure.
 * NULL after an error message. */
net_t *cfa_build_net(cfa_model *m);

/* Decodes the global state in a marking: per automaton its state, per
 * variable its value, per buffer its length and slots.  len[i] and
 * slot values are only meaningful for buffers; slots holds, for buffer
 * d, capacity entries starting at slot_start[d]. */
typedef struct cfa_state {
    int32_t *control;      /* nauts */
    int64_t *value;        /* ndecls: variables */
    uint32_t *len;         /* ndecls: buffers */
    int64_t *slots;        /* Σ capacities */
    size_t *slot_start;    /* ndecls */
} cfa_state;

int cfa_state_init(const cfa_model *m, cfa_state *s);
void cfa_state_free(cfa_state *s);
void cfa_state_decode(const cfa_model *m, const nc_count *marking, cfa_state *s);

#endif
