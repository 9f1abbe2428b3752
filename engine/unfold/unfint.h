/* What the prefix's construction (prefix.c) and the ERV order (order.c)
 * share: the builder's state.  Internal to engine/unfold/. */
#ifndef MCK_UNFOLD_UNFINT_H
#define MCK_UNFOLD_UNFINT_H

#include <stddef.h>
#include <stdint.h>

#include "engine/unfold/prefix.h"

/* A possible extension waiting in the queue. */
typedef struct pe_t {
    uint32_t trans;
    uint32_t pre_off, npre;        /* its preset: builder.pe_pre[pre_off ..] */
    uint32_t size, depth;          /* |[e]| and e's Foata level */
    uint32_t parikh_off, parikh_len;   /* (transition, count) pairs in builder.parikh */
} pe_t;

typedef struct place_list {
    uint32_t *a;
    size_t n, cap;
} place_list;

typedef struct builder {
    unf_prefix *u;
    const check_options *opt;
    size_t charged, limit;
    char *why;
    size_t whylen;

    /* the net: in(t), out(t), whether t can fire at all */
    uint32_t *in_start, *in_place, *out_start, *out_place;
    uint8_t *fires;
    uint32_t max_in;

    /* the concurrency relation over live conditions */
    uint64_t *co;
    size_t co_stride, nlive;
    uint32_t *live_of;             /* per condition: its row, UNF_NONE when not live */
    size_t cap_live_of;
    place_list *by_place;          /* the live conditions of each place */
    uint64_t *inter;

    /* the markings of local configurations */
    size_t words;
    uint64_t *m0bits, *mscratch;
    uint64_t *marks;
    size_t cap_marks_words, nmarks;
    uint32_t *mark_owner;
    size_t cap_mark_owner;
    uint32_t *slots;
    size_t nslots;
    int64_t *delta;
    uint32_t *touched, *touched_mark, touch_stamp;

    /* the queue */
    uint64_t made;                 /* extensions queued so far */
    pe_t *heap;
    size_t nheap, cap_heap;
    uint32_t *pe_pre;
    size_t npe_pre, cap_pe_pre;
    uint32_t *parikh;
    size_t nparikh, cap_parikh;

    /* the search for co-sets */
    uint32_t *place_mark, *place_cond, place_stamp;
    uint32_t *trans_mark, trans_stamp;
    uint32_t *slot_place, *chosen, *pos;

    /* local configurations */
    uint32_t *cfg;
    size_t ncfg, cap_cfg;
    uint32_t *ev_mark, ev_stamp;
    size_t cap_ev_mark;
    uint32_t *stack;
    size_t cap_stack;
    uint32_t *tcount, *tlist;
    uint64_t *seq1, *seq2;
    size_t cap_seq1, cap_seq2;
} builder;

/* Room in the scratch arrays of configurations for every event there is
 * and one more (an extension's Foata form holds its configuration and
 * itself); 0 or -1 (past the budget). */
int config_room(builder *b);
/* The events of the local configuration of an event with preset
 * pre[0..n), the event itself left out, in b->cfg[0 .. b->ncfg). */
void config_of(builder *b, const uint32_t *pre, uint32_t n);
/* x's Parikh vector from b->cfg and its own transition t, stored. */
int parikh_store(builder *b, uint32_t t, pe_t *x);
/* [x] comes before [y] in the ERV order. */
int pe_before(builder *b, const pe_t *x, const pe_t *y);

#endif
