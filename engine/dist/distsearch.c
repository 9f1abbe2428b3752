/* distsearch: the distributed breadth-first search (distsearch.h).  One
 * rank's loop: expand a round of its markings of the current level,
 * insert its own successors, exchange the others, insert what came, and
 * agree with the other ranks on what happens next. */
#include "base/clock.h"
#include "engine/dist/distcomm.h"
#include "engine/dist/distsearch.h"
#include "engine/keynet.h"
#include "engine/onehot.h"
#include "engine/placebits.h"
#include "engine/progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Successors a rank generates in a round before it exchanges them: the
 * buffers stay at about ROUND_EDGES records (a megabyte), and a round
 * takes milliseconds, so limits and signals are noticed soon. */
#define ROUND_EDGES 65536u

/* Markings this rank owns are inserted in batches of this many: their
 * table slots are prefetched when they are made, so that the cache misses
 * of a batch overlap instead of coming one after another (explore.c does
 * the same in its stages). */
#define LOCAL_BATCH 256u

/* What ended a rank's round, worst last: the largest of all ranks wins. */
enum { STOP_NONE, STOP_INTERRUPTED, STOP_TIME, STOP_STATES, STOP_MEMORY, STOP_BOUND };

typedef struct staged {
    uint64_t k[2];
    uint32_t t, owner;
} staged;

/* A marking this rank owns, waiting for its batch: its key's bytes and
 * their hash in the store. */
typedef struct owned {
    uint8_t key[24];
    uint64_t hash;
    uint32_t t;
} owned;

struct dist {
    const cnet_t *cn;
    const check_options *opt;
    store_t *st;
    keynet_t *kn;
    int rank, ranks;
    unsigned words;
    size_t klen;             /* bytes of a key */
    unsigned tbytes;         /* bytes of a transition on the wire (0: no runs) */
    size_t rec;              /* bytes of a record on the wire */
    uint64_t root[2];

    uint32_t *enabled;
    nc_count *m;             /* a marking for holds; zero between calls */
    uint32_t *marked;
    staged *stage;           /* a round's successors for other ranks */
    size_t nstage, stage_cap;
    owned *local;            /* successors this rank owns, a batch */
    size_t nlocal, local_cap;
    uint8_t *sendbuf, *recvbuf;
    size_t send_cap, recv_cap;
    int *send, *recv, *at;   /* per rank: bytes to send, to receive, filled */
    size_t fixed_bytes;      /* everything but the store */

    /* this rank's part of the search */
    int stop;
    int found;               /* 1 found here, -1 holds said -1 here */
    uint64_t found_key[2];
    uint64_t edges, sent;
    /* after the search: where the goal was found, and how */
    int finder, found_all;
    uint64_t states_all;
};

/* ---- keys ---- */

/* The owner of a key: a multiply-xorshift mix of its words, with other
 * constants than the compact table's placing hash (ctable.h), so that a
 * rank's markings still spread over its whole table. */
static inline int owner_of(const dist_t *d, const uint64_t k[2])
{
    uint64_t h = (k[0] ^ (k[1] * UINT64_C(0x9e3779b97f4a7c15))) * UINT64_C(0xd6e8feb86659fd93);
    h ^= h >> 32;
    h *= UINT64_C(0xd6e8feb86659fd93);
    h ^= h >> 29;
    return (int)(((h >> 32) * (uint64_t)d->ranks) >> 32);
}

static void key_bytes(const uint64_t k[2], uint8_t buf[16])
{
    keynet_store(buf, k);
}

static int same_key(const uint64_t a[2], const uint64_t b[2])
{
    return a[0] == b[0] && a[1] == b[1];
}

/* ---- life cycle ---- */

/* Rank 0's widths and groups, sent to every rank: bounds proven within a
 * deadline could differ from rank to rank, and one rank encoding a marking
 * otherwise than another would split it between owners.  0, or -1 when
 * some place has no proven bound (on every rank). */
static int shared_layout(const cnet_t *cn, const check_options *opt, uint8_t **bits,
                         uint32_t **group)
{
    uint32_t P = cn->nplaces;
    uint64_t have[2] = {0, 0};   /* widths, groups */
    *bits = NULL;
    *group = NULL;
    if (dist_rank() == 0 && !opt->variable_keys) {
        budget_t bounds = budget_carve(opt->budget, CARVE_EXPLORE_PLACEBITS);
        budget_t onehot = budget_carve(&bounds, CARVE_EXPLORE_ONEHOT);
        double onehot_seconds = budget_seconds(&onehot);
        *bits = placebits(cn, &bounds);
        uint32_t ngroups = 0;
        *group = *bits ? onehot_groups(cn, *bits, onehot_seconds, &ngroups) : NULL;
        have[0] = *bits != NULL;
        have[1] = *group != NULL;
    }
    dist_bcast(have, sizeof have, 0);
    if (dist_rank() != 0) {
        *bits = have[0] ? calloc(P ? P : 1, 1) : NULL;
        *group = have[1] ? calloc(P ? P : 1, sizeof **group) : NULL;
    }
    /* every rank must have room before the broadcasts, whose sizes must
     * match on all of them */
    uint64_t lost = (have[0] && !*bits) || (have[1] && !*group);
    dist_max(&lost, 1);
    if (!lost && have[0])
        dist_bcast(*bits, P, 0);
    if (!lost && have[1])
        dist_bcast(*group, (size_t)P * sizeof **group, 0);
    if (lost || !have[0]) {
        free(*bits);
        free(*group);
        *bits = NULL;
        *group = NULL;
        return lost ? -2 : -1;
    }
    return 0;
}

static void *counted(dist_t *d, size_t n, size_t size)
{
    d->fixed_bytes += (n ? n : 1) * size;
    return calloc(n ? n : 1, size);
}

static int make_rank(dist_t *d, const uint8_t *bits, const uint32_t *group, int keep_runs,
                     char *why, size_t whylen)
{
    const cnet_t *cn = d->cn;
    uint32_t P = cn->nplaces, T = cn->ntransitions;
    d->rank = dist_rank();
    d->ranks = dist_ranks();
    d->tbytes = !keep_runs ? 0 : T <= 0xff ? 1 : T <= 0xffff ? 2 : 4;
    d->stage_cap = ROUND_EDGES + (size_t)T;
    d->enabled = counted(d, T, sizeof *d->enabled);
    d->m = counted(d, P, sizeof *d->m);
    d->marked = counted(d, P, sizeof *d->marked);
    d->stage = counted(d, d->stage_cap, sizeof *d->stage);
    d->local_cap = LOCAL_BATCH + (size_t)T;
    d->local = counted(d, d->local_cap, sizeof *d->local);
    d->send = counted(d, 3 * (size_t)d->ranks, sizeof *d->send);
    if (!d->enabled || !d->m || !d->marked || !d->stage || !d->local || !d->send) {
        snprintf(why, whylen, "memory budget exhausted");
        return -1;
    }
    d->recv = d->send + d->ranks;
    d->at = d->recv + d->ranks;
    size_t bytes = d->opt->budget->bytes;
    /* the send buffer and a receive buffer of the same size are counted
     * before the store gets the rest: klen is at most 16 bytes */
    size_t wire = d->stage_cap * (16 + d->tbytes);
    if (bytes <= d->fixed_bytes + 2 * wire) {
        snprintf(why, whylen, "memory budget exhausted");
        return -1;
    }
    size_t store_bytes_max = bytes - d->fixed_bytes - 2 * wire;
    store_keep keep = keep_runs ? STORE_TRANSITIONS : STORE_KEYS;
    if (!d->opt->no_compact)
        d->st = store_new_compact(P, bits, group, T, store_bytes_max, keep);
    if (!d->st)
        d->st = store_new_packed(P, bits, group, store_bytes_max, keep);
    if (!d->st) {
        snprintf(why, whylen, "memory budget exhausted");
        return -1;
    }
    store_set_deadline(d->st, d->opt->budget->deadline);
    d->kn = keynet_new(cn, d->st);
    if (!d->kn) {
        snprintf(why, whylen, "markings need more than 128 bits: the distributed search "
                 "needs fixed-width keys of at most two words");
        return -1;
    }
    d->words = d->kn->words;
    uint8_t key[32] = {0};
    d->klen = store_encode(d->st, cn->initial, key);
    if (!d->klen) {
        snprintf(why, whylen, "internal error: a proven place bound was exceeded");
        return -1;
    }
    keynet_load(d->kn, key, d->root);
    d->rec = d->klen + d->tbytes;
    d->send_cap = d->stage_cap * d->rec;
    d->recv_cap = d->send_cap;
    d->sendbuf = malloc(d->send_cap);
    d->recvbuf = malloc(d->recv_cap);
    d->fixed_bytes += d->send_cap + d->recv_cap;
    if (!d->sendbuf || !d->recvbuf) {
        snprintf(why, whylen, "memory budget exhausted");
        return -1;
    }
    return 0;
}

dist_t *dist_new(const cnet_t *cn, const check_options *opt, int keep_runs, char *why,
                 size_t whylen)
{
    int gone;
    if (!dist_all_ready(&gone)) {
        snprintf(why, whylen, "rank %d of %d ended before the search (its messages say why)",
                 gone, dist_ranks());
        return NULL;
    }
    /* the records on the wire carry a transition only when runs are
     * wanted: ranks given other options (mpirun's MPMD form) would read
     * one another's records wrongly */
    uint64_t runs[2] = {keep_runs != 0, keep_runs == 0};
    dist_max(runs, 2);
    if (runs[0] && runs[1]) {
        snprintf(why, whylen, "the ranks were given different options (runs wanted by some, "
                 "not by others)");
        return NULL;
    }
    uint8_t *bits;
    uint32_t *group;
    int layout = shared_layout(cn, opt, &bits, &group);
    if (layout < 0) {
        snprintf(why, whylen, layout == -2 ? "memory budget exhausted"
                              : opt->variable_keys ? "--pack=off: the distributed search needs "
                                                     "fixed-width keys"
                              : "some place has no proven bound, so markings are not "
                                "fixed-width keys (the distributed search needs them)");
        return NULL;
    }
    dist_t *d = calloc(1, sizeof *d);
    char mine[200] = "memory budget exhausted";
    uint64_t failed = 1;
    if (d) {
        d->cn = cn;
        d->opt = opt;
        failed = make_rank(d, bits, group, keep_runs, mine, sizeof mine) < 0;
    }
    free(bits);
    free(group);
    /* the first rank that failed tells every rank why */
    uint64_t who = failed ? (uint64_t)(dist_ranks() - dist_rank()) : 0;
    dist_max(&who, 1);
    if (who) {
        int root = dist_ranks() - (int)who;
        dist_bcast(mine, sizeof mine, root);
        if (dist_ranks() > 1 && !strcmp(mine, "memory budget exhausted"))
            snprintf(why, whylen, "%s on rank %d of %d", mine, root, dist_ranks());
        else
            snprintf(why, whylen, "%s", mine);
        dist_free(d);
        return NULL;
    }
    return d;
}

void dist_free(dist_t *d)
{
    if (!d)
        return;
    store_free(d->st);
    keynet_free(d->kn);
    free(d->enabled);
    free(d->m);
    free(d->marked);
    free(d->stage);
    free(d->local);
    free(d->send);
    free(d->sendbuf);
    free(d->recvbuf);
    free(d);
}

int dist_found(const dist_t *d)
{
    return d->found_all;
}

/* ---- one rank's work ---- */

/* A marking this rank owns, reached by t (its key's bytes, the hash
 * given): into the store, and tested when it is new. */
static void insert_owned(dist_t *d, const dist_goal *g, const uint8_t *key, uint64_t hash,
                         uint32_t t)
{
    if (d->stop)
        return;
    store_ref ref;
    int r = store_insert(d->st, key, d->klen, hash, STORE_NO_REF, t, &ref);
    if (r < 0) {
        d->stop = r == STORE_OUT_OF_TIME ? STOP_TIME : STOP_MEMORY;
        return;
    }
    if (r == 0 || !g->holds || d->found)
        return;
    uint32_t n = store_decode(d->st, key, d->m, d->marked);
    int v = g->holds(g->ctx, d->m);
    for (uint32_t i = 0; i < n; i++)
        d->m[d->marked[i]] = 0;
    if (v) {
        d->found = v > 0 ? 1 : -1;
        keynet_load(d->kn, key, d->found_key);
    }
}

/* Into the batch, its slot prefetched. */
static void queue_owned(dist_t *d, const uint64_t k[2], uint32_t t)
{
    owned *o = &d->local[d->nlocal++];
    memset(o->key + 16, 0, sizeof o->key - 16);
    key_bytes(k, o->key);
    o->hash = store_key_hash(d->st, o->key, d->klen);
    o->t = t;
    store_prefetch_slot(d->st, o->hash);
}

static void insert_batch(dist_t *d, const dist_goal *g)
{
    for (size_t i = 0; i < d->nlocal; i++)
        insert_owned(d, g, d->local[i].key, d->local[i].hash, d->local[i].t);
    d->nlocal = 0;
}

/* Expands one marking: successors it owns are inserted, the others
 * staged for their owners.  The number of successors. */
static uint32_t expand(dist_t *d, const dist_goal *g, const uint8_t *key)
{
    uint64_t k[2];
    keynet_load(d->kn, key, k);
    uint32_t nen = keynet_enabled(d->kn, k, d->enabled);
    if (!nen && g->deadlocks && !d->found) {
        d->found = 1;
        d->found_key[0] = k[0];
        d->found_key[1] = k[1];
        return 0;
    }
    int safe = d->kn->unsafe == 0;
    for (uint32_t i = 0; i < nen && !d->stop; i++) {
        uint32_t t = d->enabled[i];
        uint64_t s[2];
        if (safe)
            keynet_fire_safe(d->kn, t, k, s, d->words);
        else if (!keynet_fire_in(d->kn, t, k, s, d->words)) {
            d->stop = STOP_BOUND;
            break;
        }
        d->edges++;
        int o = owner_of(d, s);
        if (o == d->rank) {
            queue_owned(d, s, t);
        } else {
            staged *x = &d->stage[d->nstage++];
            x->k[0] = s[0];
            x->k[1] = s[1];
            x->t = t;
            x->owner = (uint32_t)o;
        }
    }
    return nen;
}

/* The staged successors into the send buffer, sorted by owner: a
 * counting sort, two passes. */
static void pack_sends(dist_t *d)
{
    for (int r = 0; r < d->ranks; r++)
        d->send[r] = 0;
    for (size_t i = 0; i < d->nstage; i++)
        d->send[d->stage[i].owner] += (int)d->rec;
    int at = 0;
    for (int r = 0; r < d->ranks; r++) {
        d->at[r] = at;
        at += d->send[r];
    }
    for (size_t i = 0; i < d->nstage; i++) {
        const staged *x = &d->stage[i];
        uint8_t key[32];
        key_bytes(x->k, key);
        uint8_t *p = d->sendbuf + d->at[x->owner];
        memcpy(p, key, d->klen);
        for (unsigned b = 0; b < d->tbytes; b++)
            p[d->klen + b] = (uint8_t)(x->t >> (8 * b));
        d->at[x->owner] += (int)d->rec;
    }
    d->sent += d->nstage;
    d->nstage = 0;
}

/* Room for n bytes received; 0, or -1 past the budget or on no memory. */
static int recv_room(dist_t *d, size_t n)
{
    if (n <= d->recv_cap)
        return 0;
    size_t cap = d->recv_cap * 2 > n ? d->recv_cap * 2 : n;
    if (d->fixed_bytes - d->recv_cap + cap + store_bytes(d->st) > d->opt->budget->bytes)
        return -1;
    uint8_t *p = realloc(d->recvbuf, cap);
    if (!p)
        return -1;
    d->fixed_bytes += cap - d->recv_cap;
    d->recvbuf = p;
    d->recv_cap = cap;
    return 0;
}

static void insert_received(dist_t *d, const dist_goal *g, size_t n)
{
    for (size_t off = 0; off + d->rec <= n && !d->stop; off += d->rec) {
        const uint8_t *p = d->recvbuf + off;
        uint8_t key[32] = {0};
        memcpy(key, p, d->klen);
        uint32_t t = 0;
        for (unsigned b = 0; b < d->tbytes; b++)
            t |= (uint32_t)p[d->klen + b] << (8 * b);
        uint64_t k[2];
        keynet_load(d->kn, key, k);
        queue_owned(d, k, t);
        if (d->nlocal >= LOCAL_BATCH)
            insert_batch(d, g);
    }
    insert_batch(d, g);
}

/* This rank's limits before a round's agreement. */
static void look_at_limits(dist_t *d)
{
    const budget_t *b = d->opt->budget;
    int s = *b->interrupted ? STOP_INTERRUPTED
            : b->deadline && mono_now() >= b->deadline ? STOP_TIME
            : STOP_NONE;
    if (s > d->stop)
        d->stop = s;
}

static const char *stop_reason(int stop)
{
    switch (stop) {
    case STOP_INTERRUPTED: return "interrupted";
    case STOP_TIME: return "time limit reached";
    case STOP_STATES: return "state limit reached";
    case STOP_MEMORY: return "memory budget exhausted";
    default: return "internal error: a proven place bound was exceeded";
    }
}

/* ---- the search ---- */

/* What the ranks agree on at the end of a round. */
typedef struct agreed {
    uint64_t states, edges, busy, queued;
    int stop, stop_rank, finder, found;
} agreed;

static agreed agree(dist_t *d, uint64_t expanded, uint64_t level_end)
{
    look_at_limits(d);
    uint64_t sum[4] = {store_count(d->st), d->edges, expanded < level_end,
                       store_count(d->st) - level_end};
    dist_sum(sum, 4);
    uint64_t max[3] = {
        d->stop ? (uint64_t)d->stop << 32 | (uint64_t)(d->ranks - d->rank) : 0,
        d->found > 0 ? (uint64_t)(d->ranks - d->rank) : 0,
        d->found < 0,
    };
    dist_max(max, 3);
    agreed a = {sum[0], sum[1], sum[2], sum[3], (int)(max[0] >> 32),
                d->ranks - (int)(max[0] & 0xffffffff), d->ranks - (int)max[1],
                max[2] ? -1 : max[1] ? 1 : 0};
    if (!a.stop && d->opt->max_states && a.states > d->opt->max_states)
        a.stop = STOP_STATES;
    return a;
}

static void give_up(dist_t *d, const agreed *a, result_t *res)
{
    char why[160];
    if ((a->stop == STOP_MEMORY || a->stop == STOP_BOUND) && d->ranks > 1)
        snprintf(why, sizeof why, "%s on rank %d of %d", stop_reason(a->stop), a->stop_rank,
                 d->ranks);
    else
        snprintf(why, sizeof why, "%s", stop_reason(a->stop));
    result_unknown(res, why);
}

/* The totals of every rank, and -v's account of the distribution. */
static void finish(dist_t *d, const agreed *a, result_t *res, uint64_t levels, uint64_t rounds,
                   double start)
{
    uint64_t sum[2] = {store_peak_bytes(d->st) + d->fixed_bytes, d->sent};
    dist_sum(sum, 2);
    uint64_t most = store_count(d->st);
    dist_max(&most, 1);
    res->states = a->states;
    res->edges = a->edges;
    res->peak_bytes = (size_t)sum[0];
    d->states_all = a->states;
    if (!d->opt->verbose)
        return;
    double mean = (double)a->states / d->ranks;
    fprintf(stderr,
            "dist: %d ranks, depth %llu in %llu rounds, %.2f s; states per rank at most "
            "%.3f times the mean\n"
            "dist: sent %llu successors to other ranks (%.1f%% of the edges), %llu bytes "
            "(%zu a successor, %.1f a state)\n",
            d->ranks, (unsigned long long)levels, (unsigned long long)rounds,
            mono_now() - start, mean > 0 ? (double)most / mean : 1.0,
            (unsigned long long)sum[1], a->edges ? 100.0 * (double)sum[1] / (double)a->edges : 0,
            (unsigned long long)(sum[1] * d->rec), d->rec,
            a->states ? (double)(sum[1] * d->rec) / (double)a->states : 0);
}

explore_status dist_bfs(dist_t *d, const dist_goal *g, result_t *res)
{
    double start = mono_now();
    progress prog;
    progress_start(&prog, d->opt, "dist", "level", start);
    if (owner_of(d, d->root) == d->rank) {
        queue_owned(d, d->root, 0);
        insert_batch(d, g);
    }
    store_ref cursor = store_first(d->st);
    uint64_t expanded = 0, level_end = store_count(d->st), levels = 0, rounds = 0;
    agreed a = agree(d, expanded, level_end);
    while (!a.stop && !a.found && (a.busy || a.queued)) {
        if (!a.busy) {
            /* the level is done everywhere: the queued markings are the
             * next one */
            level_end = store_count(d->st);
            levels++;
        }
        uint64_t work = 0;
        while (expanded < level_end && work < ROUND_EDGES && !d->stop && !d->found) {
            const uint8_t *key;
            store_ref after;
            if (!store_next(d->st, &cursor, &key, &after))
                break;
            cursor = after;
            expanded++;
            work += expand(d, g, key) + 1;
            if (d->nlocal >= LOCAL_BATCH)
                insert_batch(d, g);
        }
        insert_batch(d, g);
        store_release(d->st, cursor);
        pack_sends(d);
        dist_counts(d->send, d->recv);
        size_t n = 0;
        for (int r = 0; r < d->ranks; r++)
            n += (size_t)d->recv[r];
        if (recv_room(d, n) < 0 && d->stop < STOP_MEMORY)
            d->stop = STOP_MEMORY;
        /* a rank without room for what comes must not be sent it: all
         * agree before the exchange */
        uint64_t cannot = d->stop == STOP_MEMORY;
        dist_max(&cannot, 1);
        if (!cannot) {
            dist_alltoall(d->sendbuf, d->send, d->recvbuf, d->recv);
            insert_received(d, g, n);
        }
        rounds++;
        a = agree(d, expanded, level_end);
        if (d->rank == 0)
            progress_maybe(&prog, mono_now(), a.states, a.edges,
                           store_bytes(d->st) + d->fixed_bytes, levels);
    }
    finish(d, &a, res, levels, rounds, start);
    if (a.stop) {
        give_up(d, &a, res);
        return EXPLORE_GAVE_UP;
    }
    if (a.found) {
        d->found_all = a.found;
        d->finder = a.finder;
        if (a.found > 0)
            dist_bcast(d->found_key, sizeof d->found_key, a.finder);
        return EXPLORE_STOPPED;
    }
    return EXPLORE_DONE;
}

/* ---- the witness ---- */

/* k with t's effect taken back: its parent's key. */
static void step_back(const dist_t *d, uint32_t t, uint64_t k[2])
{
    const uint64_t *delta = d->kn->tr[t].delta;
    uint64_t lo = k[0] - delta[0];
    uint64_t borrow = k[0] < delta[0];
    k[0] = lo;
    k[1] = d->words == 2 ? k[1] - delta[1] - borrow : 0;
    if (d->words == 2)
        k[1] &= d->kn->last_mask;
    else
        k[0] &= d->kn->last_mask;
}

int dist_run(dist_t *d, uint32_t **run, size_t *len)
{
    if (!d->tbytes || d->found_all <= 0)
        return -1;
    uint64_t k[2] = {d->found_key[0], d->found_key[1]};
    size_t n = 0, cap = 64;
    uint32_t *r = malloc(cap * sizeof *r);
    uint64_t lost = r == NULL;
    dist_max(&lost, 1);
    if (lost) {
        free(r);
        return -1;
    }
    /* a marking is reached once: its key is the initial one's only there;
     * a run longer than the states would be a broken store */
    while (!same_key(k, d->root)) {
        int o = owner_of(d, k);
        uint64_t t = UINT64_MAX;
        if (o == d->rank) {
            uint8_t key[32] = {0};
            uint32_t t32;
            key_bytes(k, key);
            if (store_find_transition(d->st, key, d->klen, store_key_hash(d->st, key, d->klen),
                                      &t32) && t32 < d->cn->ntransitions)
                t = t32;
        }
        dist_bcast(&t, sizeof t, o);
        uint64_t fail = t == UINT64_MAX || n >= d->states_all;
        if (!fail && n == cap) {
            uint32_t *more = realloc(r, 2 * cap * sizeof *r);
            if (more) {
                r = more;
                cap *= 2;
            } else {
                fail = 1;
            }
        }
        dist_max(&fail, 1);
        if (fail) {
            free(r);
            return -1;
        }
        r[n++] = (uint32_t)t;
        step_back(d, (uint32_t)t, k);
    }
    for (size_t i = 0; i < n / 2; i++) {
        uint32_t x = r[i];
        r[i] = r[n - 1 - i];
        r[n - 1 - i] = x;
    }
    *run = r;
    *len = n;
    return 0;
}
