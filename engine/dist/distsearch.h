/* distsearch: the reachable markings of a compiled net explored by the
 * ranks of an MPI job (distcomm.h) together, for deadlock and
 * reachability and the size of the state space (states, edges).
 *
 * Design (after the distributed search of Stern and Dill's Murphi and of
 * LTSmin's and DiVinE's MPI tools):
 *
 *   partition   every marking belongs to one rank, chosen by a hash of its
 *               fixed-width key (keynet.h) that is independent of the
 *               hash its rank's table places it by; each rank keeps its
 *               markings in the compact store of a one-process search
 *               (store_new_compact), whose arena is its queue;
 *   levels      the search is breadth-first in synchronous levels: a rank
 *               expands the markings of the current level it owns,
 *               inserts the successors it owns itself, and sends the
 *               others to their owners;
 *   rounds      a level is expanded in rounds of at most ROUND_EDGES
 *               successors a rank; a round's successors for other ranks
 *               are sorted by owner and exchanged with one MPI_Alltoallv
 *               (their counts first with MPI_Alltoall), then inserted by
 *               their owners;
 *   agreement   each round ends with global reductions: the states and
 *               edges so far, whether a rank still has markings of this
 *               level, whether any rank found what the question asks for,
 *               and the worst limit any rank met.  The level ends when no
 *               rank has markings of it left; the search ends when a
 *               level adds nothing.  This is the termination detection:
 *               after the exchange of a round every message sent has been
 *               received (the exchange is collective), so a sum of zero
 *               queued markings means no work exists anywhere, the
 *               condition Mattern's counting and Safra's token detect for
 *               asynchronous sends, here at the cost of one reduction a
 *               round.
 *
 * Why collective rounds, not MPI_Isend/Irecv streams: the rounds bound
 * every rank's buffers (a round sends at most ROUND_EDGES + T records),
 * give termination and limits one reduction, and keep the levels exact,
 * so that a witness is a shortest run, as explore.h's is.  Their cost is
 * that a round waits for its slowest rank; the hash spreads markings
 * evenly, so a round's work differs little between ranks.
 *
 * A record sent is the successor's key and, when runs are wanted, the
 * transition that reached it (1, 2 or 4 bytes), which its owner keeps
 * (STORE_TRANSITIONS).  A witness is rebuilt backwards from the marking
 * found: the owner of each marking says its transition (a broadcast), and
 * every rank takes that transition's effect back from the key to find the
 * parent and its owner, until the initial marking.
 *
 * The answer, the number of states and of edges of a search that
 * explores every reachable marking are those of the one-process search;
 * a search that stops at a goal finishes the round it met it in, so its
 * counts can be larger.
 *
 * Limits: every rank has the budget's bytes (--mem is per rank) and its
 * deadline (the same --timeout from each rank's start); a rank that meets
 * one says so in the round's reduction, and every rank ends with UNKNOWN
 * and the reason, the rank named where it matters. */
#ifndef MCK_DISTSEARCH_H
#define MCK_DISTSEARCH_H

#include "engine/explore.h"

typedef struct dist dist_t;

typedef struct dist_goal {
    /* stop at the first marking where nothing is enabled */
    int deadlocks;
    /* stop at the first marking where holds says 1; -1 (an operator a
     * marking cannot decide) stops too.  NULL: none. */
    int (*holds)(void *ctx, const nc_count *m);
    void *ctx;
} dist_goal;

/* Collective.  The store of this rank, from place bounds that rank 0
 * proves and sends to all (so that every rank encodes markings alike).
 * NULL, with the same reason in why on every rank, when a rank has left
 * (dist_stop), some place has no proven bound, keys need more than 128
 * bits, or a rank has no memory. */
dist_t *dist_new(const cnet_t *cn, const check_options *opt, int keep_runs, char *why,
                 size_t whylen);
void dist_free(dist_t *d);

/* Collective.  Runs the search once.  Fills res->states, res->edges and
 * res->peak_bytes (all ranks together); on EXPLORE_GAVE_UP also the
 * UNKNOWN answer.  EXPLORE_STOPPED: the goal was met (dist_found). */
explore_status dist_bfs(dist_t *d, const dist_goal *g, result_t *res);

/* After EXPLORE_STOPPED: 1 found, -1 holds said -1. */
int dist_found(const dist_t *d);

/* Collective.  The transitions of a shortest run from the initial
 * marking to the one found, malloc'd into *run on every rank: 0, or -1
 * without runs kept or on no memory (on every rank alike). */
int dist_run(dist_t *d, uint32_t **run, size_t *len);

#endif
