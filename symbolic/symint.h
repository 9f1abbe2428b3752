/* What the files of the symbolic engine share and nothing else includes:
 * the manager's struct, the layout's blocks, each transition's relation,
 * and the helpers that keep BuDDy's references right.
 *
 * BuDDy frees every node nobody holds a reference to at its next garbage
 * collection, which any operation may start: every diagram kept across an
 * operation here is referenced (the o_* helpers return referenced
 * results, drop() lets one go), the operands of each call included. */
#ifndef MCK_SYMINT_H
#define MCK_SYMINT_H

#include "symbolic/symbolic.h"

#include <bdd.h>
#include <bvec.h>
#include <setjmp.h>

/* BuDDy's variable numbers are below 2^21 (its MAXVAR). */
#define MAX_VARS 0x1ffffe
/* Comparisons of a formula are done in this many bits at most. */
#define MAX_CMP_BITS 126

typedef unsigned __int128 u128;

typedef struct blk {
    uint32_t *at;       /* per bit (0: least significant), its global number */
    uint32_t top;       /* the smallest of them: the block's topmost bit */
    uint32_t width;
    uint32_t n;         /* 1 for a place; a group's number of places */
    uint32_t *places;   /* a group's places (value i: places[i] has the token) */
} blk;

typedef struct trel {
    BDD en;             /* enabled, over current variables */
    BDD rel;            /* enabled, and the next values of the blocks it changes */
    BDD ovf;            /* enabled where firing would pass a block's width */
    BDD star;           /* fired once or more in a row (closure.c); false: not made */
    BDD curcube, nxtcube;
    bddPair *to_nxt;    /* made by the first witness that needs it */
    uint32_t top;       /* the topmost bit it reads or changes */
    uint32_t streak;    /* chaining's rounds in a row in which it added markings */
    int moves;          /* changes some block (else its image adds nothing) */
    /* Every block it changes has one value before firing and one after
     * (a one-hot group it needs a place of, a one-bit place): then the
     * preimage of a set is the set's cofactor at the values after, joined
     * with en_before (en, and the values before), with no renaming. */
    int fixed;
    BDD en_before, after;
} trel;

struct sym {
    const cnet_t *cn;
    const budget_t *budget;
    size_t count_bytes;            /* for the walks that count (symbolic.count) */
    uint32_t nblocks, nbits, ngroups;
    blk *blocks;
    uint32_t *bit_at;              /* the blocks' at[], one array */
    int interleaved;               /* the places' bits by significance (layout.c) */
    uint32_t *block_of, *pos_in;   /* per place: its block, its value in a group */
    trel *tr;
    uint32_t *order;                /* the moving transitions, bottom group first */
    uint32_t nmoving;
    uint32_t closure_after;         /* sym_set_closure_after */
    uint32_t nclosures;             /* transitions fired by their closures */
    BDD init, reach, goal, allcur;
    /* every next variable to its current one: an image has next variables
     * only for the blocks its transition changes, so one pair serves all */
    bddPair *to_cur;
    /* the goal: none, a deadlock (never built whole: the conjunction of
     * every transition's disabling can be far larger than the reachable
     * markings it is taken with), or the formula's markings in goal */
    enum { GOAL_NONE, GOAL_DEAD, GOAL_SET } goal_kind;
    int reached;
    char reason[160];
};

/* ---- the manager (manager.c) ---- */

/* Whether BuDDy failed since the manager started; the reason is set once. */
int sym_failed(sym_t *s);
/* Whether to stop: BuDDy failed, a signal, or the clock (the reason set). */
int sym_stop(sym_t *s);
/* The reason: "memory budget exhausted". */
void sym_nomem(sym_t *s);
/* From sym_guard to sym_unguard, an operation that runs past the clock
 * (or a signal) is left by longjmp to *to at BuDDy's next garbage
 * collection, with the reason set: the diagrams held are still valid, but
 * the references taken since the setjmp are lost, so the caller gives up
 * and frees the manager. */
void sym_guard(sym_t *s, jmp_buf *to);
void sym_unguard(void);

/* ---- referenced results ---- */

static inline BDD o_and(BDD a, BDD b) { return bdd_addref(bdd_and(a, b)); }
static inline BDD o_or(BDD a, BDD b) { return bdd_addref(bdd_or(a, b)); }
static inline BDD o_not(BDD a) { return bdd_addref(bdd_not(a)); }
static inline BDD o_diff(BDD a, BDD b) { return bdd_addref(bdd_apply(a, b, bddop_diff)); }
static inline void drop(BDD a) { bdd_delref(a); }

/* *acc = *acc op b, references kept right. */
static inline void and_in(BDD *acc, BDD b)
{
    BDD r = o_and(*acc, b);
    drop(*acc);
    *acc = r;
}

static inline void or_in(BDD *acc, BDD b)
{
    BDD r = o_or(*acc, b);
    drop(*acc);
    *acc = r;
}

/* Takes a fresh referenced b into the conjunction and lets it go. */
static inline void and_take(BDD *acc, BDD b)
{
    and_in(acc, b);
    drop(b);
}

static inline void or_take(BDD *acc, BDD b)
{
    or_in(acc, b);
    drop(b);
}

/* Each bit has three variables side by side: its current value, its next
 * value, and a third that composing a relation with itself needs for the
 * value between two steps (closure.c). */
#define VARS_PER_BIT 3
static inline int cur_var(uint32_t bit) { return (int)(VARS_PER_BIT * bit); }
static inline int nxt_var(uint32_t bit) { return (int)(VARS_PER_BIT * bit + 1); }
static inline int mid_var(uint32_t bit) { return (int)(VARS_PER_BIT * bit + 2); }

/* Bit i (0: least significant) of block b, as a variable. */
static inline int block_var(const blk *b, uint32_t i, int next)
{
    uint32_t bit = b->at[i];
    return next ? nxt_var(bit) : cur_var(bit);
}

/* The level of node n: its variable's number (BuDDy never reorders here);
 * the terminals below every variable. */
static inline int level_of(const sym_t *s, BDD n)
{
    return n == bdd_false() || n == bdd_true() ? (int)(VARS_PER_BIT * s->nbits) : bdd_var(n);
}

/* ---- a block's values as diagrams and bit vectors (encoding.c) ---- */

/* block b == v (v < 2^width), over its current or next variables. */
BDD sym_block_eq(const blk *b, uint64_t v, int next);
/* The constant v in width bits. */
bvec sym_con_vec(u128 v, int width);
/* Block b's value in width bits (width >= b->width). */
bvec sym_block_vec(const blk *b, int next, int width);
/* The tokens of place p in width bits. */
bvec sym_place_vec(const sym_t *s, uint32_t p, int width);
/* The largest count place p can hold in the encoding. */
uint64_t sym_place_max(const sym_t *s, uint32_t p);
/* The bits v needs. */
unsigned sym_bits_of(u128 v);
/* M(p) >= c. */
BDD sym_place_ge(const sym_t *s, uint32_t p, uint64_t c);

/* ---- where the bits go (order.c, layout.c) ---- */

/* FORCE's order of the places: a malloc'd permutation (rank to place), or
 * NULL: no memory. */
uint32_t *sym_force_order(const cnet_t *cn);
/* The blocks, their widths and first bits, in order: 0, -1 (no memory) or
 * -2 (more bits than BuDDy has variables). */
int sym_make_blocks(sym_t *s, const uint8_t *bits, const uint32_t *group, uint32_t ngroups,
                    sym_order order, sym_bits layout);

/* ---- the transitions (relation.c) ---- */

/* Transition t's relation into s->tr[t]; seen: a cleared byte per block,
 * cvars and nvars room for a variable per bit.  0. */
int sym_make_relation(sym_t *s, uint32_t t, uint8_t *seen, int *cvars, int *nvars);
/* s->order sorted into chaining's groups.  0, or -1: no memory. */
int sym_sort_order(sym_t *s);

/* ---- images (image.c) ---- */

/* The successors of from by t, and its predecessors in to, referenced. */
BDD sym_image(const sym_t *s, BDD from, uint32_t t);
BDD sym_preimage(sym_t *s, BDD to, uint32_t t);

/* ---- closures (closure.c) ---- */

/* Transition t's closure into s->tr[t].star.  0, or -1 (sym_reason). */
int sym_make_closure(sym_t *s, uint32_t t);
/* The successors of from by t fired once or more in a row, referenced. */
BDD sym_image_star(const sym_t *s, BDD from, uint32_t t);

/* ---- goals (goal.c) ---- */

/* The markings of set where no transition is enabled, referenced. */
BDD sym_in_goal_dead(sym_t *s, BDD set);
/* The markings of set in the goal, referenced. */
BDD sym_in_goal(sym_t *s, BDD set);
/* Whether set meets the goal. */
int sym_hits(sym_t *s, BDD set);
/* The markings of a state formula, referenced; *unsupported set when f is
 * not one or needs comparisons wider than MAX_CMP_BITS. */
BDD sym_formula_bdd(sym_t *s, const tree_t *f, int *unsupported);

#endif
