/* parallel: the reachable markings of a compiled net explored by several
 * threads at once, for the questions whose answer does not depend on the
 * order of the search: is a deadlock reachable, is a marking where a state
 * formula holds reachable, how many states and edges are there.
 *
 * Design (after Laarman, van de Pol and Weber, "Boosting multi-core
 * reachability performance with shared hash tables", FMCAD 2010):
 *
 *   one shared table   open addressing, linear probing, claimed slot by
 *                      slot with compare-and-swap: a marking is inserted
 *                      by whichever thread finds it first, and no lock
 *                      is taken per state.  Markings are the fixed-width
 *                      keys of store.h (keynet.h fires them without
 *                      decoding); a key of at most 63 bits is its own
 *                      slot word, a longer one (up to 128 bits) sits
 *                      beside a slot word holding its hash, written
 *                      before the slot is marked complete;
 *   own queues         each thread expands the keys it found itself, in
 *                      chunks; full chunks go to a shared pool that idle
 *                      threads take from (one lock a chunk, not a state);
 *   growth together    at 3/4 load the threads meet, rehash the table
 *                      into one twice its size in slices, and go on: a
 *                      lock-free resize would cost every probe a check.
 *
 * What is shared and what contends: the table's cache lines (touched once
 * an edge, written once a state), the pool's lock (once per chunk of
 * PARALLEL_CHUNK_KEYS states), two counters (once per 64 new states) and
 * the growth barrier (about 20 times in a search of 10^8 states).
 * Nothing else is written by more than one thread.
 *
 * The answer, the number of states and of edges (successors generated)
 * are those of the one-thread search.  A run to the marking found is read
 * back from the table (each slot keeps the transition that first reached
 * it, whose parent was in the table before it), so it is a run of the net
 * but not necessarily a shortest one; explore.c's breadth-first search
 * gives shortest runs.
 *
 * Limits (check_options): memory budget (the table, its growth and the
 * queues' chunks), state limit, time limit and the interrupt flag end the
 * search with UNKNOWN and the reason, as in explore.h. */
#ifndef MCK_PARALLEL_H
#define MCK_PARALLEL_H

#include "engine/explore.h"

typedef struct parallel parallel_t;

typedef struct parallel_goal {
    /* stop at the first marking where nothing is enabled */
    int deadlocks;
    /* stop at the first marking where holds says 1; -1 (the formula has
     * an operator a marking cannot decide) stops too.  NULL: none.  Called
     * by every thread, with its own context. */
    int (*holds)(void *thread_ctx, const nc_count *m);
    /* NULL: every enabled transition fires (explore.h's reducer, called
     * with the thread's own context) */
    explore_reducer reduce;
    /* parallel_threads(px) of them, one a thread; may be NULL when neither
     * holds nor reduce needs one */
    void *const *thread_ctx;
} parallel_goal;

/* check_options.parallel_after by default: a search of fewer states takes
 * a few milliseconds on one thread. */
#define PARALLEL_AFTER_DEFAULT 65536

/* Cores this process may run on (its CPU affinity), at least 1. */
unsigned parallel_cores(void);

/* A search of cn on threads threads (>= 2), keeping for each state the
 * transition that reached it when runs are wanted.  NULL, with the reason
 * in why, when the net's markings are not fixed-width keys of at most two
 * words (a place of no proven bound, --pack=off, very wide bounds) or on
 * no memory. */
parallel_t *parallel_new(const cnet_t *cn, const check_options *opt, unsigned threads,
                         int keep_runs, char *why, size_t whylen);
void parallel_free(parallel_t *px);
unsigned parallel_threads(const parallel_t *px);

/* Runs the search once.  Fills res->states, res->edges, res->peak_bytes;
 * on EXPLORE_GAVE_UP also the UNKNOWN answer.  EXPLORE_STOPPED: the goal
 * was met (parallel_found says how). */
explore_status parallel_search(parallel_t *px, const parallel_goal *g, result_t *res);

/* After EXPLORE_STOPPED: 1 a deadlock or a marking where holds said 1 was
 * found, -1 holds said -1. */
int parallel_found(const parallel_t *px);

/* The transitions of a run from the initial marking to the marking found,
 * malloc'd into *run: 0, or -1 without runs kept or on no memory. */
int parallel_run(const parallel_t *px, uint32_t **run, size_t *len);

/* The reachability graph of a search that ended EXPLORE_DONE, built by all
 * threads from the table: states numbered 0, 1, ... (0 the initial
 * marking, the others in table order), each state's edges to its
 * successors in increasing transition order, as explore.c gives them.
 * on_state (may be NULL) gets each state's number and marking, from any
 * thread with that thread's context (parallel_goal.thread_ctx's rule): it
 * may only write what belongs to that state.  The search's table and a
 * number a slot are kept meanwhile; the edges are gathered by slices of
 * the table and copied into g in state order.  0, or -1 with the reason
 * in why (the budget, the clock, g's budget, a bound that did not hold). */
struct graph;
int parallel_graph(parallel_t *px, struct graph *g,
                   int (*on_state)(void *thread_ctx, uint64_t id, const nc_count *m),
                   void *const *thread_ctx, char *why, size_t whylen);

#endif
