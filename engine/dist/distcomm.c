/* distcomm: the collectives of the distributed search over MPI
 * (distcomm.h).  MCK_HAVE_MPI comes from configure when it found Open
 * MPI; without it every collective is the one-rank identity and
 * dist_start says that this build has none. */
#include "engine/dist/distcomm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef MCK_HAVE_MPI
#include <mpi.h>

static int started, rank, ranks = 1;
/* the exchanges' displacements, two rows of ranks */
static int *displ;

int dist_available(void)
{
    return 1;
}

int dist_start(char *why, size_t whylen)
{
    if (started)
        return 0;
    /* one thread calls MPI: the search of a rank is single-threaded */
    if (MPI_Init(NULL, NULL) != MPI_SUCCESS) {
        snprintf(why, whylen, "MPI_Init failed (start mck with mpirun)");
        return -1;
    }
    /* a rank killed or a link lost ends the whole job at once (MPI's
     * default, said here because waiting for an answer would hang) */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    if (!(displ = malloc(2 * (size_t)ranks * sizeof *displ))) {
        snprintf(why, whylen, "out of memory");
        MPI_Finalize();
        return -1;
    }
    started = 1;
    return 0;
}

int dist_started(void)
{
    return started;
}

int dist_rank(void)
{
    return rank;
}

int dist_ranks(void)
{
    return ranks;
}

/* v[0]: ranks gone (sum); v[1]: the first gone rank (min, ranks when
 * none) */
static void gone_round(int here_gone, int v[2])
{
    int in[2] = {here_gone, here_gone ? rank : ranks};
    MPI_Allreduce(&in[0], &v[0], 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&in[1], &v[1], 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
}

int dist_all_ready(int *gone)
{
    if (!started)
        return 1;
    int v[2];
    gone_round(0, v);
    *gone = v[1];
    return v[0] == 0;
}

void dist_stop(void)
{
    if (!started)
        return;
    int v[2];
    do
        gone_round(1, v);
    while (v[0] < ranks);
    MPI_Finalize();
    free(displ);
    displ = NULL;
    started = 0;
}

void dist_sum(uint64_t *v, int n)
{
    if (started)
        MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
}

void dist_max(uint64_t *v, int n)
{
    if (started)
        MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
}

void dist_bcast(void *buf, size_t n, int root)
{
    /* callers send a key, a count or a row of place widths: far below
     * INT_MAX, but a net of more places would be cut, so in pieces */
    uint8_t *p = buf;
    while (started && n) {
        int part = n > (1u << 30) ? 1 << 30 : (int)n;
        MPI_Bcast(p, part, MPI_BYTE, root, MPI_COMM_WORLD);
        p += part;
        n -= (size_t)part;
    }
}

void dist_counts(const int *send, int *recv)
{
    if (!started) {
        recv[0] = send[0];
        return;
    }
    MPI_Alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, MPI_COMM_WORLD);
}

/* displacements: prefix sums of the counts */
static int *displacements(const int *count, int *d)
{
    int at = 0;
    for (int r = 0; r < ranks; r++) {
        d[r] = at;
        at += count[r];
    }
    return d;
}

void dist_alltoall(const uint8_t *sendbuf, const int *send, uint8_t *recvbuf, const int *recv)
{
    if (!started) {
        memcpy(recvbuf, sendbuf, (size_t)send[0]);
        return;
    }
    MPI_Alltoallv(sendbuf, send, displacements(send, displ), MPI_BYTE, recvbuf, recv,
                  displacements(recv, displ + ranks), MPI_BYTE, MPI_COMM_WORLD);
}

#else

int dist_available(void)
{
    return 0;
}

int dist_start(char *why, size_t whylen)
{
    snprintf(why, whylen, "this build of mck has no MPI (configure did not find Open MPI: "
             "apt-get install libopenmpi-dev openmpi-bin, then ./configure and make again)");
    return -1;
}

int dist_started(void)
{
    return 0;
}

int dist_rank(void)
{
    return 0;
}

int dist_ranks(void)
{
    return 1;
}

int dist_all_ready(int *gone)
{
    *gone = 1;
    return 1;
}

void dist_stop(void)
{
}

void dist_sum(uint64_t *v, int n)
{
    (void)v;
    (void)n;
}

void dist_max(uint64_t *v, int n)
{
    (void)v;
    (void)n;
}

void dist_bcast(void *buf, size_t n, int root)
{
    (void)buf;
    (void)n;
    (void)root;
}

void dist_counts(const int *send, int *recv)
{
    recv[0] = send[0];
}

void dist_alltoall(const uint8_t *sendbuf, const int *send, uint8_t *recvbuf, const int *recv)
{
    (void)recv;
    memcpy(recvbuf, sendbuf, (size_t)send[0]);
}

#endif
