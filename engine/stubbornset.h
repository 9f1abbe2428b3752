/* stubborn: partial-order reduction by stubborn sets (Valmari) on a
 * compiled place/transition net.  In a marking m, a set S of transitions is
 * stubborn when
 *   - for an enabled t in S, S also holds every transition that can disable
 *     t (decreases a place t needs) and every transition t can disable (needs
 *     a place t decreases): t commutes with any run outside S;
 *   - for a disabled t in S, S holds every transition that increases one
 *     place t lacks tokens on (its scapegoat): no run outside S enables t.
 * Firing only the enabled transitions of S then preserves
 *   - every deadlock, when S holds an enabled transition whenever one exists
 *     (stubborn_deadlock);
 *   - the reachability of a goal, when S holds a set of transitions one of
 *     which every run into the goal fires (stubborn_from_seed with the goal's
 *     seed, goalseed.h): the first transition of S on such a run can be moved
 *     to its front, so the reduced search keeps a run into the goal.  No
 *     cycle proviso is needed for either;
 *   - every run's sequence of visible steps, each at its position, when S
 *     holds every visible transition and either no enabled visible one or
 *     every enabled transition (stubborn_exact); steps the property rules
 *     out in its current state are left out of the closure.
 * Every state of the reduced search is a reachable marking and every path a
 * run of the net, so witnesses are runs of the net (not necessarily shortest
 * ones). */
#ifndef MCK_STUBBORNSET_H
#define MCK_STUBBORNSET_H

#include "base/netconv.h"

typedef struct stubborn stubborn_t;

/* NULL on no memory. */
stubborn_t *stubborn_new(const cnet_t *cn);
void stubborn_free(stubborn_t *sb);

/* A deadlock-preserving stubborn set of m, whose enabled transitions
 * enabled[0..nen) are given in increasing order: its enabled transitions,
 * in increasing order, are written to out; returns how many (0 only when
 * nen is 0). */
uint32_t stubborn_deadlock(stubborn_t *sb, const nc_count *m, const uint32_t *enabled,
                           uint32_t nen, uint32_t *out);

/* An enabled transition t with visible[t] clear whose stubborn set holds
 * no other enabled transition, or UINT32_MAX when the few tried have
 * none.  Firing t alone in m is then an ample set for LTL without X (with
 * no cycle of such steps when the caller only offers transitions of
 * cyclefree.h's set: docs/por-actions.md). */
uint32_t stubborn_single(stubborn_t *sb, const nc_count *m, const uint32_t *enabled,
                         uint32_t nen, const uint8_t *visible);

/* What a property tells of each step, for stubborn_exact: transitions
 * come in groups (visible.h, visible_step_groups), and each group is
 *   STEP_INVISIBLE  a step the property does not tell from any other
 *                   invisible one (in its current state);
 *   STEP_VISIBLE    any other step it may take;
 *   STEP_IMPOSSIBLE a step no run the property still accepts takes now:
 *                   the closure leaves it out. */
enum { STEP_INVISIBLE, STEP_VISIBLE, STEP_IMPOSSIBLE };
typedef struct step_view {
    const uint32_t *group;     /* per transition */
    const uint8_t *kind;       /* per group */
    const uint32_t *visible;   /* every transition of a STEP_VISIBLE group */
    uint32_t nvisible;
} step_view;

/* A stubborn set, leaving out impossible steps, whose enabled transitions
 * are either all of enabled[0..nen) or all invisible, with every visible
 * transition in the set (so none can fire before one of the set does):
 * its enabled transitions, in increasing order, to out; their number
 * returned (0 only when nen is 0).  Firing only those keeps, for every
 * run the property accepts, one whose steps are the same up to swapping
 * invisible steps among themselves, so that every visible step keeps its
 * position; no cycle proviso is needed (docs/por-actions.md). */
uint32_t stubborn_exact(stubborn_t *sb, const nc_count *m, const uint32_t *enabled,
                        uint32_t nen, const step_view *view, uint32_t *out);

/* No reduction: all of enabled[0..nen) to out, nen returned (for a
 * reducer that cannot build its seed). */
uint32_t stubborn_fire_all(const uint32_t *enabled, uint32_t nen, uint32_t *out);

/* Seeds for stubborn_from_seed: start a new seed, then add transitions. */
void stubborn_seed_clear(stubborn_t *sb);
void stubborn_seed_add(stubborn_t *sb, uint32_t t);
/* Every transition that increases (sign > 0) or decreases (sign < 0) p. */
void stubborn_seed_changers(stubborn_t *sb, uint32_t p, int sign);
/* A set of transitions one of which must fire before t can become enabled
 * in m (t disabled in m): the increasers of one place t lacks. */
void stubborn_seed_enablers(stubborn_t *sb, const nc_count *m, uint32_t t);
/* A set one of which must fire before t (enabled in m) is disabled. */
void stubborn_seed_disablers(stubborn_t *sb, uint32_t t);

/* The stubborn set closed from the seed: its enabled transitions in
 * increasing order to out, their number returned (0: nothing in the seed
 * can ever be fired from m, so no run from m fires a seed transition). */
uint32_t stubborn_from_seed(stubborn_t *sb, const nc_count *m, const uint32_t *enabled,
                            uint32_t nen, uint32_t *out);

#endif
