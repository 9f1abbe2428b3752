/* explore: breadth-first enumeration of the reachable markings of a
 * compiled net, reporting to a visitor.  Every explicit question (dl,
 * reach, state-space statistics, several formulas in one pass) is a
 * visitor; the search itself is written once, here.
 *
 * Order (kit-overview.md §3.3): the initial marking first, then states in
 * order of discovery; the successors of a state in increasing transition
 * index.  States get ids 0, 1, 2, ... in that order, and are expanded in
 * that order too, so on_expanded sees ids ascending.  Callbacks come in
 * exactly the order of a one-state-at-a-time search (internally successors
 * of many states are prepared at once, see explore.c).
 *
 * Limits (check_options): memory budget, state limit, wall-clock timeout and
 * the interrupt flag end the search with the answer UNKNOWN and the reason
 * ("memory budget exhausted", "state limit reached", "time limit reached",
 * "interrupted"); a firing that would overflow a count gives "token count
 * overflow". */
#ifndef MCK_EXPLORE_H
#define MCK_EXPLORE_H

#include "engine/store.h"
#include "base/netconv.h"
#include "base/result.h"

typedef struct explore explore_t;

typedef enum {
    EXPLORE_DONE,      /* every reachable marking was visited */
    EXPLORE_STOPPED,   /* a visitor callback asked to stop */
    EXPLORE_GAVE_UP,   /* a limit was hit; res holds UNKNOWN and why */
} explore_status;

/* Every callback may be NULL; a nonzero return stops the search.  The
 * marking m is only valid during the call, and must not be changed. */
typedef struct explore_visitor {
    /* A marking seen for the first time (its record is ref). */
    int (*on_state)(void *ctx, uint64_t id, store_ref ref, const nc_count *m);
    /* One edge: from --t--> to; fresh when to was new. */
    int (*on_edge)(void *ctx, store_ref from, uint32_t t, store_ref to, int fresh);
    /* All successors of state id were added; nenabled transitions are
     * enabled in it (0: a deadlock).  Its marking was given to on_state. */
    int (*on_expanded)(void *ctx, uint64_t id, store_ref ref, uint32_t nenabled);
    /* Prefix of progress lines ("explicit"); NULL means "explore". */
    const char *name;
    /* Set when on_expanded is only for deadlocks: it is then not called
     * for a state with an enabled transition, which saves a step a
     * state. */
    int deadlocks_only;
} explore_visitor;

/* What a search keeps.  EXPLORE_RUNS: explore_run works, for the 1-3
 * bytes per state of the transition that reached it (store.h,
 * STORE_TRANSITIONS).  EXPLORE_REFS: every state's ref lasts the whole
 * search, and on_edge names known targets too.  Without it the store may
 * be compact (store_new_compact): a ref is then valid during the callback
 * that gives it and, when that callback stops the search, afterwards, and
 * on_edge's `to` is STORE_NO_REF when the target was known. */
enum { EXPLORE_RUNS = 1u, EXPLORE_REFS = 2u };

/* NULL when the budget (opt->budget's bytes) or malloc fails. */
explore_t *explore_new(const cnet_t *cn, const check_options *opt, unsigned flags);
void explore_free(explore_t *ex);

/* Runs the search.  Fills res->states (markings stored), res->edges
 * ((marking, enabled transition) pairs explored) and res->peak_bytes; on
 * EXPLORE_GAVE_UP also the UNKNOWN answer. */
explore_status explore_bfs(explore_t *ex, const explore_visitor *v, void *ctx, result_t *res);

/* The transitions of the search-tree path from the initial marking to ref
 * (a shortest run): a malloc'd array in *run, its length in *len.  0, or -1
 * on no memory, when runs were not kept or ref is not valid (see
 * EXPLORE_REFS).  Callbacks may ask for runs during the search. */
int explore_run(const explore_t *ex, store_ref ref, uint32_t **run, size_t *len);

const store_t *explore_store(const explore_t *ex);

/* The store of fixed-width keys explore would use for cn (compact when
 * asked and --compact allows), from place bounds proven within a carve of
 * opt's budget; NULL when some place has no proven bound, under
 * --pack=off, or on no memory.  -v tells the layout. */
store_t *explore_packed_store(const cnet_t *cn, const check_options *opt, store_keep keep,
                              int compact);

/* Partial-order reduction: in each expanded marking m, with its enabled
 * transitions enabled[0..nen) in increasing order, only the subset the
 * reducer writes to out (increasing, its size returned) is fired.
 * on_expanded still gets nen.  The reducer decides what is preserved
 * (stubborn.h); NULL switches reduction off. */
typedef uint32_t (*explore_reducer)(void *ctx, const nc_count *m, const uint32_t *enabled,
                                    uint32_t nen, uint32_t *out);
/* 0, or -1 on no memory. */
int explore_set_reducer(explore_t *ex, explore_reducer fn, void *ctx);
/* The reducer is still in use: the search drops one that keeps nearly
 * every enabled transition after a sample of markings. */
int explore_reducing(const explore_t *ex);

#endif
