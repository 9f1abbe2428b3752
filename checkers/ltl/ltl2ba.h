/* LTL to transition-based generalised Büchi automata (TGBA), by the
 * tableau of Couvreur (FM'99): a state is a set of obligations (formulas
 * to hold from now on), its transitions are the ways to meet them now —
 * a conjunction of state formulas to hold in the current marking, the
 * obligations left for the next one, and the acceptance sets the
 * transition belongs to.  There is one acceptance set per until (and
 * eventually) subformula: the transitions that do not postpone it, so an
 * accepting run cannot postpone it forever.
 *
 * Words are infinite sequences of markings; a transition reads the
 * marking it leaves.  How finite runs of the net become infinite words
 * (stuttering at deadlocks, or ignored) is the product's business
 * (ltlcheck.c), not the automaton's.
 *
 * Simplifications: the formula is put in negation normal form and folded;
 * maximal state subformulas are single letters; a transition whose
 * condition and acceptance are subsumed by another with the same target
 * is dropped; states with the same transitions are merged; an acceptance
 * set holding every transition is dropped. */
#ifndef MCK_LTL2BA_H
#define MCK_LTL2BA_H

#include <stddef.h>
#include <stdint.h>
#include "base/tree.h"

/* More until subformulas than this, and the translation refuses. */
#define TGBA_MAX_ACC 64

typedef struct tgba_edge {
    const tree_t **cond;    /* state formulas, all to hold (none: true) */
    uint32_t ncond;
    uint32_t dst;
    uint64_t acc;           /* bit i: in acceptance set i */
} tgba_edge;

typedef struct tgba_state {
    tgba_edge *edges;
    uint32_t nedges;
} tgba_state;

typedef struct tgba {
    tgba_state *states;     /* 0 is the initial state */
    uint32_t nstates;
    uint32_t nacc;          /* acceptance sets 0 .. nacc-1 */
    uint64_t all_acc;       /* the mask of all of them */
    tree_t *formula;        /* the translated formula (owns the conditions) */
} tgba;

/* The automaton of the runs that satisfy phi (an LTL formula: state
 * formulas under X F G U R and boolean operators); phi is not consumed.
 * NULL with why set: not LTL, too many until subformulas, more than
 * max_states states, or no memory. */
tgba *ltl_to_tgba(const tree_t *phi, uint32_t max_states, char *why, size_t whylen);
void tgba_free(tgba *a);

/* Prints the automaton (for -v and tests). */
void tgba_print(FILE *out, const tgba *a);

#endif
