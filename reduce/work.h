/* The working net of the reduction (reduce/reduce.c builds it from the
 * compiled net, reduce/rules.c rewrites it): each transition as its
 * needs and effects per place, sorted by place, and the original
 * transitions it stands for, fired in order.  Private to reduce/. */
#ifndef MCK_REDUCE_WORK_H
#define MCK_REDUCE_WORK_H

#include "reduce.h"
#include "lp/lpguard.h"

typedef struct rw_entry {
    uint32_t place;
    nc_count need;    /* M(place) >= need to fire */
    int64_t eff;      /* M(place) += eff when fired */
} rw_entry;

typedef struct rw_trans {
    rw_entry *e;
    uint32_t n, cap;
    uint32_t *seq;    /* the original transitions, in firing order */
    uint32_t seqlen;
    uint8_t alive, observed;
} rw_trans;

typedef struct rw_place {
    nc_count initial;
    uint8_t alive;
    uint8_t visible;   /* observed, or needed by an observed transition */
    uint8_t implicit_tried;   /* its linear program was solved once */
} rw_place;

typedef struct rw_net {
    rw_trans *t;
    uint32_t nt;
    rw_place *p;
    uint32_t np;
    /* free sequences would show (reduce.h): the formula asks "not
     * deadlock", has a next-step operator, or is branching with a deadlock */
    int keep_sequences;
    /* the original transitions fired on the given initial marking to
     * reach the working net's (free sequences whose place starts marked) */
    uint32_t *init_seq;
    uint32_t init_len, init_cap;
    int lassos;                /* reduce_observed.lassos */
    unsigned implicit_tries;   /* linear programs solved so far */
    double until;              /* lpg_now() by which the rules stop */
    volatile int *interrupted; /* or when a signal asks them to */
    reduce_stats stats;
} rw_net;

/* Whether the rules must stop: the deadline passed, or a signal came. */
static inline int rw_stop(const rw_net *w)
{
    return *w->interrupted || lpg_now() > w->until;
}

/* A fused transition stands for at most this many original ones, so that
 * chains of agglomerations cannot blow the runs up. */
#define RW_MAX_SEQ 256u

/* One pass of each rule, in reduce/rules.c; each returns how many nodes
 * it removed, or -1 on no memory. */
long rw_dead_transitions(rw_net *w);
long rw_constant_places(rw_net *w);
long rw_parallel_places(rw_net *w);
long rw_duplicate_transitions(rw_net *w);
long rw_free_sequences(rw_net *w);
long rw_sink_places(rw_net *w);
long rw_implicit_places(rw_net *w);   /* reduce/implicit.c */

/* The column index: the alive transitions with an entry on each place
 * (t[start[p]] .. t[start[p+1]-1], in increasing order), made for one
 * pass; columns_build returns 0, or -1 on no memory. */
typedef struct columns {
    uint32_t *start, *t;
} columns;
int columns_build(const rw_net *w, columns *c);
void columns_free(columns *c);

/* The entry of place p in t, or NULL. */
rw_entry *rw_find(rw_trans *t, uint32_t p);
/* Drops the entry of place p from t, if any. */
void rw_drop(rw_trans *t, uint32_t p);

#endif
