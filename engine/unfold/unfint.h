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
    uint32_t parikh_off, parikh_len;   /* its Parikh vector: parikh_len (transition, count)
                                        * pairs packed in builder.parikh (order.c) */
} pe_t;

/* A set of live condition numbers: (64-bit word, its bits) pairs, the
 * words rising, no word without bits. */
typedef struct co_vec {
    uint32_t *word;
    uint64_t *bits;
    size_t n, cap_word, cap_bits;
} co_vec;

/* The relation of a group of conditions (one event's postset, or the
 * initial ones) with those before it: gword/gbits[start .. start + len). */
typedef struct co_group {
    size_t start;
    uint32_t len;
} co_group;

/* Part of a condition's list of later partners: lbytes[start .. start +
 * n), room for cap bytes, the word of its last pair, then the chunk next
 * (UNF_NONE: none). */
typedef struct co_chunk {
    size_t start;
    uint32_t n, cap, last, next;
} co_chunk;

typedef struct builder {
    unf_prefix *u;
    const check_options *opt;
    size_t charged, limit;
    char *why;
    size_t whylen;
    const unf_watch *watch;        /* NULL: no looks */
    size_t next_look;              /* the events at the next look */
    double start, looking;         /* when the construction began; the looks' seconds */

    /* the net: in(t), out(t), whether t can fire at all */
    uint32_t *in_start, *in_place, *out_start, *out_place;
    uint8_t *fires;
    uint32_t max_in;

    /* the concurrency relation over live conditions (corel.c) */
    uint8_t *useful;               /* per place: some transition that can fire needs it */
    size_t nlive;
    uint32_t *live_of;             /* per condition: its live number, UNF_NONE when not live */
    size_t cap_live_of;
    uint32_t *group_of, *cond_of;  /* per live number: its group, its condition */
    size_t cap_group_of, cap_cond_of;
    co_group *grp;
    size_t ngrp, cap_grp;
    uint32_t *gword;
    uint64_t *gbits;
    size_t ng, cap_gword, cap_gbits;
    /* per live number: its chunks of later partners, the last word
     * written to them (0 at first), and the word still open (its bits 0:
     * none), which later groups may add to */
    uint32_t *later_head, *later_tail, *later_word, *open_word, *later_n;
    uint64_t *open_bits;
    size_t cap_later_head, cap_later_tail, cap_later_word, cap_open_word, cap_open_bits,
        cap_later_n;
    co_chunk *chunk;
    size_t nchunk, cap_chunk;
    uint8_t *lbytes;
    size_t nl, cap_lbytes;
    co_vec inter, swap;            /* the last group's earlier partners; scratch */
    /* inter's conditions by place: those of p are cand[cand_off[p] ..
     * + cand_n[p]) when cand_mark[p] is cand_stamp */
    uint32_t *cand, *cand_mark, *cand_n, *cand_off, *cand_touched, cand_stamp;
    size_t cap_cand;

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
    uint8_t *parikh;
    size_t nparikh, cap_parikh;
    size_t compacted;              /* nparikh after the last queue_compact */

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
/* The bytes of x's packed Parikh vector. */
size_t parikh_bytes(const builder *b, const pe_t *x);
/* [x] comes before [y] in the ERV order. */
int pe_before(builder *b, const pe_t *x, const pe_t *y);

/* The conditions first .. first + n, made by an event with preset
 * pre[0..npre) (none: the initial ones), join the relation: those on
 * useful places get live numbers, and b->inter holds the live conditions
 * concurrent with them that were there before; 0 or -1 (why said). */
int corel_add_group(builder *b, uint32_t first, uint32_t n, const uint32_t *pre, uint32_t npre);
/* Live conditions c1 != c2 are concurrent. */
int corel_test(const builder *b, uint32_t c1, uint32_t c2);
/* b->inter's conditions sorted by place into cand (by creation within a
 * place); 0 or -1. */
int corel_candidates(builder *b);
void corel_free(builder *b);

#endif
