/* Private to the PNML reader: a symmetric net (PNML "symmetricnet", the
 * MCC's colored models) as read from the file, before it is unfolded into
 * the P/T net_t every checker runs on.
 *
 * pnml-colored.c reads the file into a pc_net (sorts, variables, colored
 * places, transitions with guards, arcs with multiset inscriptions);
 * pnml-unfold.c turns it into a net_t.  Colors are numbers: a color of a
 * sort of n colors is 0..n-1 (declaration order for enumerations, start..end
 * for ranges), and a tuple is the mixed-radix number of its components, the
 * first component most significant, so equality and order on colors are
 * equality and order on numbers. */
#ifndef MCK_PNML_COLORED_H
#define MCK_PNML_COLORED_H

#include <stddef.h>
#include <stdint.h>
#include "base/netconv.h"

/* No sort may have more colors than this (products included): colors are
 * 32-bit numbers, and a place of more colors could not be unfolded anyway. */
#define PC_MAX_COLORS 0x3fffffffu

typedef enum { PC_DOT, PC_ENUM, PC_RANGE, PC_PRODUCT } pc_sort_kind;

typedef struct pc_sort {
    char *id, *name;
    pc_sort_kind kind;
    int cyclic;              /* PC_ENUM: successor and predecessor exist */
    uint32_t size;           /* number of colors */
    uint32_t first;          /* PC_ENUM: index of its first constant */
    int64_t start;           /* PC_RANGE: the value of color 0 */
    uint32_t ncomp, *comp;   /* PC_PRODUCT: component sorts */
} pc_sort;

typedef struct pc_const {
    char *id, *name;         /* name (or id when it has none) names colors */
    uint32_t sort, index;
} pc_const;

typedef struct pc_var {
    char *id, *name;
    uint32_t sort;
} pc_var;

typedef enum {
    /* colors */
    PC_T_VAR, PC_T_CONST, PC_T_SUCC, PC_T_PRED, PC_T_TUPLE,
    /* multisets */
    PC_T_NUMBEROF, PC_T_ADD, PC_T_SUBTRACT, PC_T_ALL,
    /* guards */
    PC_T_BOOL, PC_T_AND, PC_T_OR, PC_T_NOT, PC_T_IMPLY,
    PC_T_EQ, PC_T_NE, PC_T_LT, PC_T_LE, PC_T_GT, PC_T_GE
} pc_op;

typedef struct pc_term {
    pc_op op;
    uint32_t sort;           /* colors: their sort; multisets: their colors' sort */
    uint32_t value;          /* PC_T_VAR: the variable; PC_T_CONST: the color;
                              * PC_T_BOOL: 0 or 1 */
    nc_count count;          /* PC_T_NUMBEROF: the multiplicity */
    uint32_t nk;
    struct pc_term **k;
    long line;
} pc_term;

typedef struct pc_place {
    char *id, *name;
    uint32_t sort;
    pc_term *initial;        /* a multiset without variables, or NULL */
    long line;
} pc_place;

typedef struct pc_transition {
    char *id, *name;
    pc_term *guard;          /* NULL: true */
    long line;
} pc_transition;

typedef struct pc_arc {
    char *id;
    uint32_t place, transition;
    int to_place;            /* 0: place -> transition */
    pc_term *weight;         /* a multiset over the place's sort */
    long line;
} pc_arc;

typedef struct pc_net {
    char *name, *file;
    pc_sort *sorts;
    size_t nsorts, cap_sorts;
    pc_const *consts;
    size_t nconsts, cap_consts;
    pc_var *vars;
    size_t nvars, cap_vars;
    pc_place *places;
    size_t nplaces, cap_places;
    pc_transition *transitions;
    size_t ntransitions, cap_transitions;
    pc_arc *arcs;
    size_t narcs, cap_arcs;
} pc_net;

/* Reads a symmetric net.  NULL after nc_error ("FILE:LINE: message"). */
pc_net *pc_read(const char *path);
void pc_free(pc_net *pn);

/* The P/T unfolding (one place per place and color, one transition per
 * binding that satisfies the guard), with the colored nodes as groups.
 * NULL after nc_error, among others when the unfolding would exceed the
 * limits below. */
net_t *pc_unfold(const pc_net *pn);

/* Limits of an unfolding, checked before anything is built where the size
 * is known (places, bindings to try) and while building otherwise.  Each
 * place costs about 100 bytes, each arc 40: the limits keep a net under a
 * few GB. */
#ifndef PC_MAX_PLACES
#define PC_MAX_PLACES 10000000u
#endif
#ifndef PC_MAX_TRANSITIONS
#define PC_MAX_TRANSITIONS 10000000u
#endif
#ifndef PC_MAX_ARCS
#define PC_MAX_ARCS 50000000u
#endif
/* Bindings tried (after the guard's pruning), summed over transitions. */
#ifndef PC_MAX_BINDINGS
#define PC_MAX_BINDINGS 1000000000ull
#endif

/* A color's rendering in names: an enumeration's constant name, a range's
 * number, "dot", "(a,b)" for tuples.  Writes at most size bytes. */
void pc_color_name(const pc_net *pn, uint32_t sort, uint32_t color, char *buf, size_t size);

#endif
