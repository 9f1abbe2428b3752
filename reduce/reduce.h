/* Structural reduction: a smaller net with the same answers to one
 * question, and the map that turns its runs back into runs of the net it
 * came from.
 *
 * The question is given by what it observes (reduce_observe): the places
 * a formula weighs, the transitions whose fireability it asks (and through
 * them their presets: "visible" places), whether it asks "deadlock" (and
 * in which polarity), and whether it has a next-step operator.  Every rule
 * keeps, for every reachable marking of one net, a reachable marking of the
 * other that agrees on all of these; a run of the reduced net expands
 * (reduce_map_run) into a run of the original net that ends in a marking
 * agreeing with the reduced run's end on every observed place, and equal to
 * it wherever the reduced net still has the place.  Hence EF-questions (dl,
 * reach) keep their answer and their witnesses.  Runs correspond up to
 * steps that change nothing observed, so LTL without X keeps its answer too
 * (reduce_keeps_ltl), and a lasso expands into a lasso.  The rules, in
 * reduce/rules.c:
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
 *   free sequences     an unobserved place p whose only user u takes w
 *                      tokens of p and needs nothing else, and adds only to
 *                      unobserved places, where p starts with and each
 *                      producer h of p adds a multiple of w tokens (k w):
 *                      each h becomes "h, then k times u"
 *                      (post-agglomeration; p always holds a multiple of w,
 *                      so u is enabled while p is marked), and u fires at
 *                      the start until p is empty (the reduced net starts
 *                      there, and its runs expand with those steps first); an
 *                      observed h stays observed as the fused transition,
 *                      which needs what h needs, and u adds nothing to h's
 *                      preset (it is visible).  Firing u late only delays
 *                      tokens nobody observes, and a marking where p is
 *                      marked is no deadlock; so this
 *                      rule is off when a formula asks "not deadlock", and
 *                      when it has a next-step operator or an action
 *                      proposition (which see the steps agglomeration
 *                      drops).
 *
 * Observed places and transitions are never removed and keep their index
 * map (reduce_place, reduce_transition); an observed producer of a free
 * sequence maps to the fused transition, enabled exactly where it was.
 *
 * Branching time (reduce_observed.branching, for CTL).  Reachable markings
 * and runs are not enough there: E F (q & A G r) asks what is possible from
 * where q holds, so the reachability graphs themselves must correspond.
 * The correspondence each rule gives is one of
 *
 *   strong bisimulation   a relation between the reachable markings of the
 *                         two nets, with equal labels (the observed counts,
 *                         the observed transitions' enabledness, deadlock),
 *                         where every step of one side is matched by a step
 *                         of the other between related markings.  It keeps
 *                         every CTL formula, X and deadlock included.
 *   stuttering bisimulation with divergence (branching bisimulation with
 *                         explicit divergence, De Nicola and Vaandrager;
 *                         Browne, Clarke and Grumberg 1988): a step may be
 *                         matched by steps that change nothing observed and
 *                         then the step, and a marking that can stay in its
 *                         class forever is matched by one that can too.  It
 *                         keeps CTL without X.  Under the MCC's maximal
 *                         paths (mcc-formats.md 3.4) a deadlock d counts as
 *                         such a stay: at d, E F, A F, E G and A G of phi are
 *                         phi and E U, A U of (phi, psi) are psi, which is
 *                         what a self-loop at d would give, so without X a
 *                         formula cannot tell an end from a loop that
 *                         changes nothing; but the atom "deadlock" can, and
 *                         so it is a label here.
 *
 * Per rule, with the label conditions the rule already has (nothing
 * observed is removed, no visible place is removed or changed by what a
 * rule adds, no observed transition is removed or absorbed into another):
 *
 *   dead transitions   never enabled at a reachable marking: the reachable
 *                      graph is unchanged.  Strong (an isomorphism).
 *   constant places    the count is the initial one at every reachable
 *                      marking, so dropping it is injective on them, and a
 *                      transition needing more is dead.  An isomorphism.
 *   parallel places    M(p') = M(p) + d at every reachable marking: p' is a
 *                      function of p and never decides an enabling.  An
 *                      isomorphism.
 *   sink places        no transition needs p: M -> M without p commutes
 *                      with firing and keeps enabledness (markings that
 *                      differ in p alone merge).  Strong.
 *   implicit places    at every reachable marking, p holds what a
 *                      transition needs of it whenever the other places
 *                      allow the transition, so M -> M without p keeps
 *                      enabledness there, and the reduced net's reachable
 *                      markings are exactly the projections (induction
 *                      along runs).  Strong; p's own count is lost, hence
 *                      only an unobserved, invisible p.
 *   duplicates         the same steps between the same markings, under
 *                      another name nobody asks about.  Strong.
 *   free sequences     the one rule that drops markings (those between h
 *                      and u, where other choices may be open).  Relate M
 *                      to f(M): M with u fired until p is empty.  u needs
 *                      only p, and nothing else needs p, so u stays enabled
 *                      while p is marked, disables nothing (it takes only
 *                      p's tokens), and no other firing disables it: u
 *                      commutes with every transition, and every choice
 *                      open between h and u is still open after u.  M and
 *                      f(M) agree on every label but deadlock (u changes p
 *                      and unobserved, invisible places only).  A step u of
 *                      M is a stutter (f unchanged); h is matched by the
 *                      fused "h, then k times u" (enabled where h is, so
 *                      an observed h keeps its label); any other t by t
 *                      (enabled at f(M) too, which has at least M's tokens
 *                      outside p).  A step of f(M) is matched from M by
 *                      firing u until p is empty (all inside f(M)'s class)
 *                      and then the step (its trailing u's inside the class
 *                      of its end).  u-steps alone end (only the h's add to
 *                      p), so an infinite stay in a class has infinitely
 *                      many other steps, each a loop f(M) copies; and back.
 *                      The reduced net starts at f(M0), related to M0.
 *                      Stuttering with divergence, for formulas without X
 *                      (EX true tells a marked p from a deadlock) and
 *                      without the atom deadlock in either polarity:
 *                      E G (q | deadlock)
 *                      holds on "h, then u into a deadlock" when q fails
 *                      after h but not on the path through the marking
 *                      between them.  branching turns the rule off for
 *                      those.  The rule is safe only because u has p as its
 *                      sole input: a "pre-agglomeration", or a u competing
 *                      for a shared place, would remove a marking whose
 *                      choices differ from its successor's, and no rule
 *                      here does that.  (TAPAAL's verifypn restricts its
 *                      post-agglomeration for CTL the same way: a consumer
 *                      whose preset is the place alone.)
 *
 * So with branching every rule stays on, free sequences only for formulas
 * without X and deadlock; the reduced net's CTL answers are the given
 * net's.  A run (evidence) expands as above; with lassos set, sink and
 * implicit places stay, whose counts may drift around a loop. */
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
    int deadlock;          /* "deadlock" occurs at all */
    int next;              /* X, EX or AX occurs: every step is seen */
    /* The question is a CTL formula (branching time): the reduced net's
     * reachable graph must stay bisimilar (the header), not only its
     * reachable markings and runs. */
    int branching;
    /* Lassos must stay lassos: a loop of the reduced net must return to
     * the same marking of the given net.  Sink and implicit places, whose
     * counts may drift along a loop, are then kept. */
    int lassos;
    /* Build the reduced net for any node removed, not only for a share
     * worth a second net to an explicit search: the decision diagrams pay
     * for a place in every node, most for a tally no formula reads. */
    int any_removal;
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
/* The index in run's expansion where the expansion of step pos begins
 * (pos == len: the expansion's length; pos == 0: 0, before the steps that
 * lead to the reduced net's initial marking), for marks inside a run such
 * as the parts of a CTL run (result_t's segments). */
size_t reduce_map_index(const reduction *r, const uint32_t *run, size_t len, size_t pos);

#endif
