/* What ctl.c (evaluation) and ctlrun.c (evidence) share: the model and
 * bitsets over its states.  Nothing outside those two includes this. */
#ifndef MCK_CTLINT_H
#define MCK_CTLINT_H

#include "base/clock.h"
#include "checkers/ctl/ctl.h"
#include "engine/graph.h"

struct ctl_model {
    const cnet_t *cn;
    graph_t *g;                /* states 0..n-1, 0 the initial marking */
    uint64_t n;
    size_t nw;                 /* 64-bit words of a bitset over the states */
    const tree_t **atoms;      /* distinct atomic propositions */
    uint64_t **abits;          /* their values, a bitset each */
    size_t natoms, catoms, awords;
    uint64_t *pred_off;        /* predecessor lists (CSR), built on first need */
    uint32_t *preds;
    /* whether every state reaches state 0, and so every other state:
     * then E F and A G are all or nothing (0 not known yet, 1 yes, 2 no) */
    int strongly_connected;
    size_t bytes, budget;      /* what the model and its evaluations take */
    size_t total;              /* the evaluation's, once the markings are gone */
    double deadline;           /* 0: none */
    volatile int *interrupted;
    uint64_t ticks;
    const char *gave_up;       /* why the last evaluation failed */
};

#define BIT(b, s) ((b)[(s) >> 6] & ((uint64_t)1 << ((s) & 63)))
#define SETBIT(b, s) ((b)[(s) >> 6] |= (uint64_t)1 << ((s) & 63))
#define CLEARBIT(b, s) ((b)[(s) >> 6] &= ~((uint64_t)1 << ((s) & 63)))

static inline uint64_t ctl_succ_begin(const ctl_model *m, uint64_t s)
{
    return *bv_u64(&m->g->offsets, s);
}

static inline uint64_t ctl_succ_end(const ctl_model *m, uint64_t s)
{
    return *bv_u64(&m->g->offsets, s + 1);
}

/* Counts a step; -1 (and gave_up set) once the deadline passed. */
int ctl_tick(ctl_model *m);
/* A bitset of all zeros (fill 0) or all states (fill 1); NULL (gave_up
 * set) when the budget or malloc says no. */
uint64_t *ctl_bits_new(ctl_model *m, int fill);
void ctl_bits_free(ctl_model *m, uint64_t *b);
/* Every state not in b, and no bit beyond the last state. */
void ctl_bits_complement(const ctl_model *m, uint64_t *b);
/* The states where f holds; NULL with gave_up set. */
uint64_t *ctl_eval(ctl_model *m, const tree_t *f);

#endif
