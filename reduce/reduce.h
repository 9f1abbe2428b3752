/* Structural reduction: a smaller net with the same answers to one
 * question, and the map that turns its runs back into runs of the net it
 * came from.
 *
 * The question is given by what it observes (reduce_observe): the places
 * a formula weighs, the transitions whose fireability it asks, and whether
 * it asks "deadlock" (and in which polarity).  Every rule keeps, for every
 * reachable marking of one net, a reachable marking of the other that
 * agrees on all of these; a run of the reduced net expands (reduce_map_run)
 * into a run of the original net that ends in a marking agreeing with the
 * reduced run's end on every observed place, and equal to it wherever the
 * reduced net still has the place.  Hence EF-questions (dl, reach) keep
 * their answer and their witnesses.  Runs correspond up to steps that
 * change nothing observed, so LTL without X keeps its answer too
 * (reduce_keeps_ltl), and a lasso expands into a lasso.  The rules, in reduce/rules.c:
 *
 *   dead transitions   a transition needing more of a place than it starts
 *                      with, where nothing adds to that place, never fires;
 *   constant places    a place no transition changes holds its initial
 *                      tokens forever: its conditions are decided;
 *   parallel places    p' with the effect column of p and at least p's
 *                      tokens never forbids what p allows;
 *   sink places        a place no transition needs forbids nothing;
 *   implicit places    a place whose tokens a linear program shows to be
 *                      enough whenever its neighbours allow a firing
 *                      (reduce/implicit.c);
 *   duplicates         two transitions with equal needs and effects: one;
 *   free sequences     an unobserved place p, empty at first, whose only
 *                      user u needs one token of p and nothing else, and
 *                      adds only to unobserved places: each producer h of p
 *                      becomes "h, then u" (post-agglomeration).  Firing u
 *                      late only delays tokens nobody observes, and a
 *                      marking where p is marked is no deadlock; so this
 *                      rule is off when a formula asks "not deadlock".
 *
 * Observed places and transitions are never removed or fused; they keep
 * their index map (reduce_place, reduce_transition). */
#ifndef MCK_REDUCE_H
#define MCK_REDUCE_H

#include "base/budget.h"
#include "base/netconv.h"
#include "base/tree.h"

#include <stddef.h>
#include <stdint.h>

#define REDUCE_NONE UINT32_MAX

typedef struct reduce_observed {
    uint8_t *place;        /* nplaces flags: a formula weighs the place */
    uint8_t *transition;   /* ntransitions flags: a formula asks its fireability */
    int deadlock_negated;  /* "deadlock" occurs under a negation */
    /* Lassos must stay lassos: a loop of the reduced net must return to
     * the same marking of the given net.  Sink and implicit places, whose
     * counts may drift along a loop, are then kept. */
    int lassos;
} reduce_observed;

/* What the rules removed, for statistics and tests. */
typedef struct reduce_stats {
    size_t dead_transitions, constant_places, parallel_places, duplicate_transitions,
        agglomerated,   /* places removed by free sequences (as many consumers) */
        sink_places, implicit_places;
    unsigned rounds;
} reduce_stats;

typedef struct reduction reduction;

/* Fills obs for formula f (NULL: a deadlock question) on a net of cn's
 * size; 0, or -1 on no memory.  reduce_observed_free releases it. */
int reduce_observe(const cnet_t *cn, const tree_t *f, reduce_observed *obs);
/* Adds what f observes, as the goal of a search when negated is 0 and as
 * its negation ("A G f" searches for "not f") when it is 1. */
void reduce_observe_add(reduce_observed *obs, const cnet_t *cn, const tree_t *f, int negated);
void reduce_observed_free(reduce_observed *obs);

/* Reduces the net of cn for questions observing obs; the rules stop at
 * the budget's deadline or when a signal comes (each step is sound, so a
 * reduction cut short is only weaker).  NULL on no memory (after nc_error).  The reduced net is
 * reduce_net(r): a new net_t whose fused transitions have no id, or NULL
 * when the rules removed too little to be worth a second net; the
 * reduction is then the identity (maps, formula and runs unchanged) and
 * the search belongs on the given net. */
reduction *reduce_build(const cnet_t *cn, const reduce_observed *obs, const budget_t *budget);

/* Whether the reduction keeps the answer of LTL formula f: f has no X
 * (agglomeration drops steps nobody observes, which only X could tell),
 * no deadlock and no action proposition. */
int reduce_keeps_ltl(const tree_t *f);
void reduce_free(reduction *r);

net_t *reduce_net(reduction *r);
const reduce_stats *reduce_statistics(const reduction *r);

/* Index maps from the original net to the reduced one; REDUCE_NONE where
 * the node was removed or fused. */
uint32_t reduce_place(const reduction *r, uint32_t place);
uint32_t reduce_transition(const reduction *r, uint32_t transition);

/* A copy of f with its places and transitions renamed into the reduced
 * net; NULL on no memory.  f must observe no more than reduce_build was
 * given. */
tree_t *reduce_formula(const reduction *r, const tree_t *f);

/* Expands a run of the reduced net into one of the original net: a new
 * array (*out, *outlen); *loop (when loop is non-NULL) moves from an index
 * of run to the index where that step's expansion starts.  0, or -1 on no
 * memory. */
int reduce_map_run(const reduction *r, const uint32_t *run, size_t len, uint32_t **out,
                   size_t *outlen, size_t *loop);

#endif
