/* distcomm: the few collective operations the distributed search needs,
 * on Open MPI (MPI_COMM_WORLD) when mck was configured with it, and a
 * refusal when it was not, so that nothing above this file knows MPI.
 *
 * Every function but dist_start, dist_started, dist_rank and dist_ranks
 * is collective: every rank calls it, in the same order.  A rank that
 * leaves early (it failed to read the model, a limit stopped it before
 * the search) must not leave the others waiting: dist_all_ready is the
 * first call of every search, and dist_stop answers it with "gone" until
 * every rank is gone, so that the others end their searches UNKNOWN
 * instead of waiting for it. */
#ifndef MCK_DISTCOMM_H
#define MCK_DISTCOMM_H

#include <stddef.h>
#include <stdint.h>

/* Whether this build has MPI. */
int dist_available(void);

/* MPI_Init.  0, or -1 with the reason in why (no MPI in this build, or
 * MPI could not start). */
int dist_start(char *why, size_t whylen);
int dist_started(void);
/* This process's rank (0 without MPI) and the number of ranks (1). */
int dist_rank(void);
int dist_ranks(void);

/* Whether every rank is ready for the next search: 1 when all are; 0
 * when some rank has left (dist_stop), the first such rank in *gone. */
int dist_all_ready(int *gone);

/* Leaves: answers the others' dist_all_ready with "gone" until every rank
 * has left, then MPI_Finalize. */
void dist_stop(void);

/* Element-wise sums and maxima of n numbers over the ranks, in place. */
void dist_sum(uint64_t *v, int n);
void dist_max(uint64_t *v, int n);
/* n bytes from root to every rank. */
void dist_bcast(void *buf, size_t n, int root);

/* One exchange of bytes between all ranks: send[r] bytes go to rank r
 * (one after another in sendbuf, in rank order); *recv[r] gets how many
 * come from rank r.  The counts first (dist_counts), then the bytes into
 * a buffer of their sum (dist_alltoall): the caller sizes it between the
 * two.  Counts are below INT_MAX (the caller's rounds are small). */
void dist_counts(const int *send, int *recv);
void dist_alltoall(const uint8_t *sendbuf, const int *send, uint8_t *recvbuf, const int *recv);

#endif
