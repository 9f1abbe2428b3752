/* parallel: the multi-threaded search of parallel.h.  The design and what
 * contends are in the header; this file's comments say why each piece is
 * as it is. */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "base/clock.h"
#include "engine/bigmem.h"
#include "engine/graph.h"
#include "engine/keynet.h"
#include "engine/parallel.h"
#include "engine/progress.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Keys a chunk of a queue holds: a lock is taken once a chunk, and an
 * idle thread is fed at least this much when one fills up. */
#define PARALLEL_CHUNK_KEYS 1024
/* States expanded before their successors are inserted: the slots of a
 * batch's successors are prefetched first, so that their cache misses
 * overlap instead of queueing up one behind the other. */
#define BATCH_STATES 16
/* New states a thread counts before adding them to the shared count:
 * the table never holds more than this many per thread beyond what the
 * growth test saw. */
#define FLUSH_STATES 64
/* Batches between two looks at the clock. */
#define CLOCK_BATCHES 64
/* Slots a thread rehashes at a time while the table grows. */
#define GROW_SLICE ((uint64_t)1 << 14)
/* The table starts with room for the states a search explored on one
 * thread before it came here (check_options.parallel_after), at least
 * 2^INITIAL_SLOTS_LOG slots. */
#define INITIAL_SLOTS_LOG 16
#define NO_TRANSITION UINT32_MAX
/* A slot of a wide key: its hash's upper 62 bits, BUSY once claimed and
 * DONE once the key beside it is written. */
#define SLOT_BUSY UINT64_C(1)
#define SLOT_DONE UINT64_C(2)
#define SLOT_FLAGS UINT64_C(3)
/* Successors a slot's prefetch is issued ahead of their insertion:
 * enough to overlap the misses, few enough for the core's line buffers. */
#define PREFETCH_AHEAD 16

typedef struct chunk {
    struct chunk *next;
    uint32_t n, head;
    uint64_t keys[];
} chunk;

/* The open-addressing table: slot words, and beside them the wide keys'
 * words and the transitions that reached each state (when runs are
 * kept). */
typedef struct table {
    _Atomic uint64_t *slot;
    uint64_t *data;        /* wide keys: two words a slot */
    uint32_t *trans;       /* NULL when runs are not kept */
    uint64_t size, mask;
    unsigned shift;        /* a hash's home slot is hash >> shift */
    size_t bytes;
} table;

typedef struct successor {
    uint64_t k[2];
    uint64_t hash;
    uint32_t t;
} successor;

typedef struct worker {
    struct parallel *px;
    unsigned id;
    pthread_t thread;
    keynet_t *kn;           /* its own view (keynet_view) */
    uint32_t *enabled, *reduced;
    const uint32_t *fire;   /* enabled, or reduced */
    nc_count *m;            /* zero but while a marking is decoded */
    uint32_t *marked;
    uint8_t *keybuf;
    chunk *in, *out;
    successor *batch;
    size_t batch_cap;
    uint64_t states, edges, expanded, unflushed, edges_unflushed;
    uint64_t idle_waits;
    unsigned batches;
} worker;

struct parallel {
    const cnet_t *cn;
    const check_options *opt;
    const parallel_goal *goal;
    store_t *codec;         /* the key layout: encodes and decodes */
    const keynet_t *kn;
    unsigned words;         /* 1 or 2 */
    /* narrow: a key and its tag (the transition that reached it plus one,
     * or 1 when runs are not kept) fit one word, which is the slot */
    int narrow;
    unsigned kbits;         /* a narrow key's bits; its tag is above them */
    uint64_t kmask;
    uint32_t root_tag;      /* the initial marking's transition */
    unsigned nthreads;
    int keep_runs;
    size_t budget, fixed_bytes;
    double deadline, start;
    uint64_t init[2];

    table tab, next;        /* next: the table being grown into */
    uint64_t grow_at;       /* count beyond which the table grows */
    uint64_t full_at;       /* count beyond which it is too full */
    uint64_t grows;
    double grow_seconds;
    /* new states a thread counts before adding them to the shared count:
     * FLUSH_STATES, or 1 so that a state limit holds */
    unsigned flush_every;
    size_t peak_bytes;

    _Atomic uint64_t count, edges_seen;
    atomic_int grow, stop;
    atomic_uint idle_hint;
    _Atomic uint64_t next_slice;

    pthread_mutex_t lock;
    pthread_cond_t wake;
    /* under lock */
    chunk *pool, *spare;
    size_t chunk_bytes, chunks, pool_keys;
    unsigned idle, arrived, started;
    uint64_t gen;
    int rehashing, go;
    int found;              /* 1 found, -1 holds said -1 */
    uint64_t found_key[2];
    const char *why;        /* a limit's reason */

    worker *w;
    progress prog;
};

unsigned parallel_cores(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        int n = CPU_COUNT(&set);
        if (n > 0)
            return (unsigned)n;
    }
    return 1;
}

static inline uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= UINT64_C(0xff51afd7ed558ccd);
    x ^= x >> 33;
    x *= UINT64_C(0xc4ceb9fe1a85ec53);
    x ^= x >> 33;
    return x;
}

static inline uint64_t key_hash(const struct parallel *px, const uint64_t k[2])
{
    return px->words == 1 ? mix(k[0]) : mix(k[0] ^ mix(k[1] + UINT64_C(0x9e3779b97f4a7c15)));
}

/* ---- the table ---- */

static size_t table_bytes(const struct parallel *px, uint64_t size)
{
    size_t per = sizeof(uint64_t) +
                 (px->narrow ? 0 : 2 * sizeof(uint64_t) + (px->keep_runs ? sizeof(uint32_t) : 0));
    return (size_t)size * per;
}

static size_t round_pages(size_t n)
{
    return n >= BIGMEM_HUGE_PAGE ? (n + BIGMEM_HUGE_PAGE - 1) / BIGMEM_HUGE_PAGE * BIGMEM_HUGE_PAGE
                                 : n;
}

static void table_free(table *t)
{
    big_free((void *)t->slot, round_pages(t->size * sizeof(uint64_t)));
    big_free(t->data, round_pages(t->size * 2 * sizeof(uint64_t)));
    big_free(t->trans, round_pages(t->size * sizeof(uint32_t)));
    memset(t, 0, sizeof *t);
}

static int table_make(struct parallel *px, table *t, unsigned log2size)
{
    memset(t, 0, sizeof *t);
    t->size = (uint64_t)1 << log2size;
    t->mask = t->size - 1;
    t->shift = 64 - log2size;
    t->bytes = table_bytes(px, t->size);
    t->slot = big_alloc(round_pages(t->size * sizeof(uint64_t)));
    if (!px->narrow)
        t->data = big_alloc(round_pages(t->size * 2 * sizeof(uint64_t)));
    int trans = px->keep_runs && !px->narrow;
    if (trans)
        t->trans = big_alloc(round_pages(t->size * sizeof(uint32_t)));
    if (!t->slot || (!px->narrow && !t->data) || (trans && !t->trans)) {
        table_free(t);
        return -1;
    }
    return 0;
}

/* The count at which a table of size slots must grow, or is full: a
 * thread may add a batch and FLUSH_STATES more after the count passed
 * it, before it looks again. */
static uint64_t table_limit(const struct parallel *px, uint64_t size, double load)
{
    uint64_t slack = (uint64_t)px->nthreads * (FLUSH_STATES + px->w[0].batch_cap);
    uint64_t at = (uint64_t)((double)size * load);
    return at > slack ? at - slack : 0;
}

/* 1 added, 0 known, -1 the table is full (only when a bound on the load
 * was wrong). */
static inline __attribute__((always_inline)) int table_insert(const struct parallel *px, const table *tab, const uint64_t k[2],
                               uint64_t hash, uint32_t t)
{
    uint64_t i = hash >> tab->shift;
    if (px->narrow) {
        uint64_t tag = px->keep_runs ? (uint64_t)(t == NO_TRANSITION ? px->root_tag : t) + 1 : 1;
        uint64_t want = k[0] | tag << px->kbits;
        for (uint64_t probes = 0; probes < tab->size; probes++, i = (i + 1) & tab->mask) {
            uint64_t cur = atomic_load_explicit(&tab->slot[i], memory_order_relaxed);
            if (cur == 0 && atomic_compare_exchange_strong_explicit(&tab->slot[i], &cur, want,
                                                                    memory_order_relaxed,
                                                                    memory_order_relaxed))
                return 1;
            if ((cur & px->kmask) == k[0])
                return 0;
        }
        return -1;
    }
    uint64_t memo = (hash & ~SLOT_FLAGS) | SLOT_BUSY;
    for (uint64_t probes = 0; probes < tab->size; probes++, i = (i + 1) & tab->mask) {
        uint64_t cur = atomic_load_explicit(&tab->slot[i], memory_order_acquire);
        if (cur == 0) {
            if (atomic_compare_exchange_strong_explicit(&tab->slot[i], &cur, memo,
                                                        memory_order_acquire,
                                                        memory_order_acquire)) {
                tab->data[2 * i] = k[0];
                tab->data[2 * i + 1] = k[1];
                if (tab->trans)
                    tab->trans[i] = t;
                atomic_store_explicit(&tab->slot[i], memo | SLOT_DONE, memory_order_release);
                return 1;
            }
        }
        if ((cur & ~SLOT_FLAGS) != (memo & ~SLOT_FLAGS))
            continue;
        /* the same hash: wait until its key is written, then compare */
        for (unsigned spins = 0; !(cur & SLOT_DONE); spins++) {
            if (spins > 64)
                sched_yield();
            cur = atomic_load_explicit(&tab->slot[i], memory_order_acquire);
        }
        if (tab->data[2 * i] == k[0] && tab->data[2 * i + 1] == k[1])
            return 0;
    }
    return -1;
}

/* The slot of a stored key, after the search (no thread writes). */
static int64_t table_find(const struct parallel *px, const table *tab, const uint64_t k[2])
{
    uint64_t hash = key_hash(px, k), i = hash >> tab->shift;
    for (uint64_t probes = 0; probes < tab->size; probes++, i = (i + 1) & tab->mask) {
        uint64_t cur = atomic_load_explicit(&tab->slot[i], memory_order_relaxed);
        if (cur == 0)
            return -1;
        if (px->narrow ? (cur & px->kmask) == k[0]
                       : (cur & ~SLOT_FLAGS) == (hash & ~SLOT_FLAGS) &&
                             tab->data[2 * i] == k[0] && tab->data[2 * i + 1] == k[1])
            return (int64_t)i;
    }
    return -1;
}

/* A stored slot's key, and the hash that places it. */
static inline uint64_t slot_key(const struct parallel *px, const table *tab, uint64_t i,
                                uint64_t v, uint64_t k[2])
{
    if (px->narrow) {
        k[0] = v & px->kmask;
        k[1] = 0;
        return key_hash(px, k);
    }
    k[0] = tab->data[2 * i];
    k[1] = tab->data[2 * i + 1];
    return v;
}

/* Moves old slots [from, to) into the bigger table, which nobody else
 * reads yet: the keys are distinct, so a free slot is all they need.
 * Each compare-and-swap waits for the memory it writes, so the new
 * slots are prefetched a few entries ahead. */
static void rehash_range(const struct parallel *px, const table *old, const table *nt,
                         uint64_t from, uint64_t to)
{
    uint64_t ahead = from;
    for (uint64_t i = from; i < to; i++) {
        for (; ahead < to && ahead < i + PREFETCH_AHEAD; ahead++) {
            uint64_t v = atomic_load_explicit(&old->slot[ahead], memory_order_relaxed), k[2];
            if (v)
                __builtin_prefetch(
                    (const void *)&nt->slot[slot_key(px, old, ahead, v, k) >> nt->shift], 1);
        }
        uint64_t v = atomic_load_explicit(&old->slot[i], memory_order_relaxed);
        if (!v)
            continue;
        uint64_t k[2];
        uint64_t j = slot_key(px, old, i, v, k) >> nt->shift;
        for (;; j = (j + 1) & nt->mask) {
            uint64_t cur = 0;
            if (atomic_load_explicit(&nt->slot[j], memory_order_relaxed) == 0 &&
                atomic_compare_exchange_strong_explicit(&nt->slot[j], &cur, v,
                                                        memory_order_relaxed,
                                                        memory_order_relaxed))
                break;
        }
        if (!px->narrow) {
            nt->data[2 * j] = k[0];
            nt->data[2 * j + 1] = k[1];
        }
        if (nt->trans)
            nt->trans[j] = old->trans[i];
    }
}

/* ---- stopping ---- */

static void stop_locked(struct parallel *px, const char *why)
{
    if (why && !px->why && !px->found)
        px->why = why;
    atomic_store(&px->stop, 1);
    pthread_cond_broadcast(&px->wake);
}

static void stop(struct parallel *px, const char *why)
{
    pthread_mutex_lock(&px->lock);
    stop_locked(px, why);
    pthread_mutex_unlock(&px->lock);
}

static void found(struct parallel *px, const uint64_t k[2], int how)
{
    pthread_mutex_lock(&px->lock);
    if (!px->found && !px->why) {
        px->found = how;
        px->found_key[0] = k[0];
        px->found_key[1] = k[1];
    }
    stop_locked(px, NULL);
    pthread_mutex_unlock(&px->lock);
}

static inline int stopped(const struct parallel *px)
{
    return atomic_load_explicit(&px->stop, memory_order_relaxed);
}

/* ---- growing, all threads together ---- */

static void request_grow(struct parallel *px)
{
    if (atomic_exchange(&px->grow, 1))
        return;
    pthread_mutex_lock(&px->lock);
    pthread_cond_broadcast(&px->wake);
    pthread_mutex_unlock(&px->lock);
}

static size_t bytes_locked(const struct parallel *px)
{
    return px->fixed_bytes + px->tab.bytes + px->next.bytes + px->chunks * px->chunk_bytes;
}

/* The last thread to arrive makes the bigger table, or, when the budget
 * has no room for it, lets the table fill up to 9/10 instead. */
static void prepare_growth(struct parallel *px)
{
    px->rehashing = 0;
    unsigned log2 = 64 - px->tab.shift + 1;
    size_t more = table_bytes(px, (uint64_t)1 << log2);
    if (log2 < 40 && bytes_locked(px) + more <= px->budget && table_make(px, &px->next, log2) == 0) {
        px->rehashing = 1;
        atomic_store(&px->next_slice, 0);
        size_t b = bytes_locked(px);
        if (b > px->peak_bytes)
            px->peak_bytes = b;
        return;
    }
    px->grow_at = UINT64_MAX;
    px->full_at = table_limit(px, px->tab.size, 0.9);
}

static void finish_growth(struct parallel *px)
{
    if (px->rehashing) {
        table_free(&px->tab);
        px->tab = px->next;
        memset(&px->next, 0, sizeof px->next);
        px->grow_at = table_limit(px, px->tab.size, 0.75);
        px->full_at = table_limit(px, px->tab.size, 0.95);
        px->grows++;
    }
    px->rehashing = 0;
    atomic_store(&px->grow, 0);
}

/* Every thread comes here once the growth flag is up; the table is only
 * replaced once all have stopped inserting.  Returns with the lock not
 * held. */
static void grow_together(worker *w)
{
    struct parallel *px = w->px;
    pthread_mutex_lock(&px->lock);
    if (!atomic_load(&px->grow) || stopped(px)) {
        pthread_mutex_unlock(&px->lock);
        return;
    }
    uint64_t gen = px->gen;
    double t0 = mono_now();
    if (++px->arrived == px->nthreads) {
        prepare_growth(px);
        px->arrived = 0;
        px->gen++;
        pthread_cond_broadcast(&px->wake);
    } else {
        while (px->gen == gen && !stopped(px))
            pthread_cond_wait(&px->wake, &px->lock);
    }
    int rehash = px->rehashing && !stopped(px);
    pthread_mutex_unlock(&px->lock);
    if (stopped(px))
        return;
    if (rehash) {
        for (;;) {
            uint64_t s = atomic_fetch_add(&px->next_slice, 1);
            uint64_t from = s * GROW_SLICE;
            if (from >= px->tab.size)
                break;
            uint64_t to = from + GROW_SLICE < px->tab.size ? from + GROW_SLICE : px->tab.size;
            rehash_range(px, &px->tab, &px->next, from, to);
        }
    }
    pthread_mutex_lock(&px->lock);
    if (++px->arrived == px->nthreads) {
        finish_growth(px);
        px->arrived = 0;
        px->gen++;
        px->grow_seconds += mono_now() - t0;
        pthread_cond_broadcast(&px->wake);
    } else {
        while (px->gen == gen + 1 && !stopped(px))
            pthread_cond_wait(&px->wake, &px->lock);
    }
    pthread_mutex_unlock(&px->lock);
}

/* ---- queues ---- */

static chunk *chunk_get_locked(struct parallel *px)
{
    chunk *c = px->spare;
    if (c) {
        px->spare = c->next;
    } else {
        if (bytes_locked(px) + px->chunk_bytes > px->budget || !(c = malloc(px->chunk_bytes)))
            return NULL;
        px->chunks++;
        size_t b = bytes_locked(px);
        if (b > px->peak_bytes)
            px->peak_bytes = b;
    }
    c->next = NULL;
    c->n = c->head = 0;
    return c;
}

/* Gives w's filled chunk to the pool and takes an empty one. */
static int publish(worker *w)
{
    struct parallel *px = w->px;
    pthread_mutex_lock(&px->lock);
    chunk *c = chunk_get_locked(px);
    if (!c) {
        stop_locked(px, "memory budget exhausted");
        pthread_mutex_unlock(&px->lock);
        return -1;
    }
    w->out->next = px->pool;
    px->pool = w->out;
    px->pool_keys += w->out->n;
    w->out = c;
    if (px->idle)
        pthread_cond_signal(&px->wake);
    pthread_mutex_unlock(&px->lock);
    return 0;
}

static inline int push_key(worker *w, const uint64_t k[2])
{
    unsigned W = w->px->words;
    if (w->out->n == PARALLEL_CHUNK_KEYS && publish(w) < 0)
        return -1;
    uint64_t *dst = w->out->keys + (size_t)w->out->n * W;
    dst[0] = k[0];
    if (W == 2)
        dst[1] = k[1];
    w->out->n++;
    return 0;
}

/* The next key to expand from w's own chunks, 0 when they are empty. */
static inline int pop_key(worker *w, uint64_t k[2])
{
    unsigned W = w->px->words;
    if (w->in->head == w->in->n) {
        if (!w->out->n)
            return 0;
        chunk *c = w->in;
        w->in = w->out;
        w->out = c;
        c->n = c->head = 0;
    }
    const uint64_t *src = w->in->keys + (size_t)w->in->head * W;
    k[0] = src[0];
    k[1] = W == 2 ? src[1] : 0;
    w->in->head++;
    return 1;
}

/* Waits for a chunk of the pool: 1 got one, 0 the search is over (every
 * thread idle with nothing queued, or stopped). */
static int wait_for_work(worker *w)
{
    struct parallel *px = w->px;
    pthread_mutex_lock(&px->lock);
    for (;;) {
        if (stopped(px))
            break;
        if (atomic_load(&px->grow)) {
            pthread_mutex_unlock(&px->lock);
            grow_together(w);
            pthread_mutex_lock(&px->lock);
            continue;
        }
        if (px->pool) {
            chunk *c = px->pool;
            px->pool = c->next;
            px->pool_keys -= c->n;
            w->in->next = px->spare;
            px->spare = w->in;
            w->in = c;
            pthread_mutex_unlock(&px->lock);
            return 1;
        }
        px->idle++;
        atomic_store_explicit(&px->idle_hint, px->idle, memory_order_relaxed);
        if (px->idle == px->nthreads) {
            px->idle--;
            stop_locked(px, NULL);
            break;
        }
        w->idle_waits++;
        pthread_cond_wait(&px->wake, &px->lock);
        px->idle--;
        atomic_store_explicit(&px->idle_hint, px->idle, memory_order_relaxed);
    }
    pthread_mutex_unlock(&px->lock);
    return 0;
}

/* ---- expanding ---- */

static void flush(worker *w)
{
    struct parallel *px = w->px;
    uint64_t c = atomic_fetch_add_explicit(&px->count, w->unflushed, memory_order_relaxed) +
                 w->unflushed;
    atomic_fetch_add_explicit(&px->edges_seen, w->edges_unflushed, memory_order_relaxed);
    w->unflushed = w->edges_unflushed = 0;
    if (px->opt->max_states && c > px->opt->max_states)
        stop(px, "state limit reached");
    else if (c > px->full_at)
        stop(px, "memory budget exhausted");
    else if (c > px->grow_at)
        request_grow(px);
}

/* holds at the marking of key k: decoded into w's buffers and cleared
 * again. */
static int holds_at(worker *w, const uint64_t k[2])
{
    struct parallel *px = w->px;
    keynet_store(w->keybuf, k);
    uint32_t n = store_decode(px->codec, w->keybuf, w->m, w->marked);
    int v = px->goal->holds(px->goal->thread_ctx ? px->goal->thread_ctx[w->id] : NULL, w->m);
    for (uint32_t i = 0; i < n; i++)
        w->m[w->marked[i]] = 0;
    return v;
}

/* The transitions to fire in k (enabled: nen of them): all, or the
 * reducer's choice at k's marking. */
static uint32_t to_fire(worker *w, const uint64_t k[2], uint32_t nen)
{
    struct parallel *px = w->px;
    if (!px->goal->reduce || nen < 2) {
        w->fire = w->enabled;
        return nen;
    }
    keynet_store(w->keybuf, k);
    uint32_t n = store_decode(px->codec, w->keybuf, w->m, w->marked);
    uint32_t nf = px->goal->reduce(px->goal->thread_ctx ? px->goal->thread_ctx[w->id] : NULL,
                                   w->m, w->enabled, nen, w->reduced);
    w->fire = w->reduced;
    for (uint32_t i = 0; i < n; i++)
        w->m[w->marked[i]] = 0;
    return nf;
}

/* The successors of k (nen transitions enabled: in w->enabled, or as the
 * bits of mask when tab0) into the batch from nb on; returns the new
 * nb, or 0 after stopping the search on a broken bound. */
static inline __attribute__((always_inline)) size_t
successors(worker *w, const uint64_t k[2], uint64_t mask, uint32_t nf, const uint32_t *fire,
           size_t nb, int tab0, unsigned W)
{
    struct parallel *px = w->px;
    const keynet_t *kn = w->kn;
    const table *tab = &px->tab;
    for (uint32_t i = 0; i < nf; i++) {
        uint32_t t;
        if (tab0) {
            t = (uint32_t)__builtin_ctzll(mask);
            mask &= mask - 1;
        } else {
            t = fire[i];
        }
        successor *s = &w->batch[nb];
        if (!kn->unsafe) {
            keynet_fire_safe(kn, t, k, s->k, W);
        } else if (!keynet_fire_in(kn, t, k, s->k, W)) {
            stop(px, "internal error: a proven place bound was exceeded");
            return 0;
        }
        s->hash = key_hash(px, s->k);
        s->t = t;
        if (nb < PREFETCH_AHEAD)
            __builtin_prefetch((const void *)&tab->slot[s->hash >> tab->shift], 1);
        nb++;
    }
    return nb;
}

/* expand_batch with its modes as constants: tab0 (keynet_enabled_mask
 * gives the enabled transitions, no reducer) and the key's words. */
static inline __attribute__((always_inline)) int expand_batch_as(worker *w, int tab0,
                                                                 unsigned W)
{
    struct parallel *px = w->px;
    const table *tab = &px->tab;
    keynet_t *kn = w->kn;
    size_t nb = 0;
    unsigned nstates = 0;
    uint64_t k[2];
    while (nstates < BATCH_STATES && nb + kn->ntransitions <= w->batch_cap && pop_key(w, k)) {
        nstates++;
        uint64_t mask = 0;
        uint32_t nen, nf;
        if (tab0) {
            mask = keynet_enabled_mask(kn, k);
            nen = nf = popcount64(mask);
        } else {
            nen = keynet_enabled(kn, k, w->enabled);
            nf = to_fire(w, k, nen);
        }
        w->expanded++;
        if (!nen && px->goal->deadlocks) {
            found(px, k, 1);
            return -1;
        }
        w->edges += nf;
        w->edges_unflushed += nf;
        size_t n2 = successors(w, k, mask, nf, w->fire, nb, tab0, W);
        if (nf && !n2)
            return -1;
        nb = n2;
    }
    if (!nstates)
        return 0;
    for (size_t i = 0; i < nb; i++) {
        const successor *s = &w->batch[i];
        if (i + PREFETCH_AHEAD < nb)
            __builtin_prefetch((const void *)&tab->slot[s[PREFETCH_AHEAD].hash >> tab->shift], 1);
        int r = table_insert(px, tab, s->k, s->hash, s->t);
        if (r == 0)
            continue;
        if (r < 0) {
            stop(px, "memory budget exhausted");
            return -1;
        }
        w->states++;
        if (++w->unflushed == px->flush_every)
            flush(w);
        /* a marking that meets the goal is never expanded: the stubborn
         * sets for a goal assume it does not hold where they reduce */
        if (px->goal->holds) {
            int v = holds_at(w, s->k);
            if (v) {
                found(px, s->k, v);
                return -1;
            }
        }
        if (push_key(w, s->k) < 0)
            return -1;
    }
    return 1;
}

/* Expands a batch of w's queued states, then inserts their successors:
 * 1 expanded some, 0 w's queue was empty, -1 stop. */
static int expand_batch(worker *w)
{
    const keynet_t *kn = w->kn;
    int tab0 = kn->tab && !kn->tab_words && !w->px->goal->reduce;
    if (w->px->words == 1)
        return tab0 ? expand_batch_as(w, 1, 1) : expand_batch_as(w, 0, 1);
    return tab0 ? expand_batch_as(w, 1, 2) : expand_batch_as(w, 0, 2);
}

static void clock_check(worker *w)
{
    struct parallel *px = w->px;
    if (*px->opt->budget->interrupted) {
        stop(px, "interrupted");
        return;
    }
    double t = mono_now();
    if (px->deadline && t >= px->deadline) {
        stop(px, "time limit reached");
        return;
    }
    if (w->id == 0) {
        uint64_t n = atomic_load_explicit(&px->count, memory_order_relaxed);
        uint64_t e = atomic_load_explicit(&px->edges_seen, memory_order_relaxed);
        progress_maybe(&px->prog, t, n, e, px->tab.bytes + px->fixed_bytes,
                       (uint64_t)px->nthreads * PARALLEL_CHUNK_KEYS);
    }
}

static void *work(void *arg)
{
    worker *w = arg;
    struct parallel *px = w->px;
    pthread_mutex_lock(&px->lock);
    while (!px->go)
        pthread_cond_wait(&px->wake, &px->lock);
    pthread_mutex_unlock(&px->lock);
    while (!stopped(px)) {
        if (atomic_load_explicit(&px->grow, memory_order_relaxed)) {
            grow_together(w);
            continue;
        }
        int r = expand_batch(w);
        if (r < 0)
            break;
        if (r == 0) {
            if (w->unflushed || w->edges_unflushed)
                flush(w);
            if (!wait_for_work(w))
                break;
            continue;
        }
        if (atomic_load_explicit(&px->idle_hint, memory_order_relaxed) && w->out->n &&
            publish(w) < 0)
            break;
        if (++w->batches % CLOCK_BATCHES == 0)
            clock_check(w);
    }
    /* a thread that leaves while others wait at the growth barrier would
     * keep them there: stopping releases them */
    stop(px, NULL);
    return NULL;
}

/* ---- set-up ---- */

static void worker_free(worker *w)
{
    keynet_view_free(w->kn);
    free(w->enabled);
    free(w->reduced);
    free(w->m);
    free(w->marked);
    free(w->keybuf);
    free(w->in);
    free(w->out);
    free(w->batch);
}

static int worker_init(struct parallel *px, worker *w, unsigned id)
{
    const cnet_t *cn = px->cn;
    uint32_t T = cn->ntransitions ? cn->ntransitions : 1, P = cn->nplaces ? cn->nplaces : 1;
    w->px = px;
    w->id = id;
    w->kn = keynet_view(px->kn);
    w->enabled = calloc(T, sizeof *w->enabled);
    w->reduced = calloc(T, sizeof *w->reduced);
    w->m = calloc(P, sizeof *w->m);
    w->marked = calloc(P, sizeof *w->marked);
    w->keybuf = calloc(store_key_max(px->codec) + 16, 1);
    w->in = calloc(1, px->chunk_bytes);
    w->out = calloc(1, px->chunk_bytes);
    w->batch_cap = (size_t)T * 2 > 1024 ? (size_t)T * 2 : 1024;
    w->batch = calloc(w->batch_cap, sizeof *w->batch);
    w->fire = w->enabled;
    px->fixed_bytes += T * 2 * sizeof(uint32_t) + P * (sizeof(nc_count) + sizeof(uint32_t)) +
                       2 * px->chunk_bytes + w->batch_cap * sizeof(successor);
    return w->kn && w->enabled && w->reduced && w->m && w->marked && w->keybuf && w->in &&
                   w->out && w->batch
               ? 0
               : -1;
}

parallel_t *parallel_new(const cnet_t *cn, const check_options *opt, unsigned threads,
                         int keep_runs, char *why, size_t whylen)
{
    store_t *codec = explore_packed_store(cn, opt, STORE_KEYS, 0);
    if (!codec) {
        snprintf(why, whylen, opt->variable_keys ? "--pack=off"
                                                 : "some place has no proven bound, so markings "
                                                   "are not fixed-width keys");
        return NULL;
    }
    keynet_t *kn = keynet_new(cn, codec);
    if (!kn) {
        snprintf(why, whylen, "markings need more than 128 bits");
        store_free(codec);
        return NULL;
    }
    struct parallel *px = calloc(1, sizeof *px);
    if (!px || !(px->w = calloc(threads, sizeof *px->w))) {
        free(px);
        keynet_free(kn);
        store_free(codec);
        snprintf(why, whylen, "no memory");
        return NULL;
    }
    px->cn = cn;
    px->opt = opt;
    px->codec = codec;
    px->kn = kn;
    px->words = kn->words;
    px->kbits = kn->words == 1 ? 64 - (unsigned)__builtin_clzll(kn->last_mask | 1) : 128;
    px->root_tag = cn->ntransitions;
    unsigned tag_bits = keep_runs ? 64 - (unsigned)__builtin_clzll((uint64_t)cn->ntransitions + 1)
                                  : 1;
    px->narrow = kn->words == 1 && px->kbits + tag_bits <= 64;
    px->kmask = px->narrow ? (px->kbits == 64 ? UINT64_MAX : (UINT64_C(1) << px->kbits) - 1) : 0;
    px->nthreads = threads;
    px->keep_runs = keep_runs;
    px->budget = opt->budget->bytes;
    px->flush_every = opt->max_states ? 1 : FLUSH_STATES;
    px->chunk_bytes = sizeof(chunk) + (size_t)PARALLEL_CHUNK_KEYS * px->words * sizeof(uint64_t);
    px->fixed_bytes = store_bytes(codec);
    pthread_mutex_init(&px->lock, NULL);
    pthread_cond_init(&px->wake, NULL);
    for (unsigned i = 0; i < threads; i++)
        if (worker_init(px, &px->w[i], i) < 0) {
            px->started = i + 1;
            parallel_free(px);
            snprintf(why, whylen, "no memory");
            return NULL;
        }
    px->started = threads;
    return px;
}

void parallel_free(parallel_t *px)
{
    if (!px)
        return;
    for (unsigned i = 0; i < px->started; i++)
        worker_free(&px->w[i]);
    free(px->w);
    for (chunk *c = px->pool, *n; c; c = n) {
        n = c->next;
        free(c);
    }
    for (chunk *c = px->spare, *n; c; c = n) {
        n = c->next;
        free(c);
    }
    table_free(&px->tab);
    table_free(&px->next);
    pthread_mutex_destroy(&px->lock);
    pthread_cond_destroy(&px->wake);
    keynet_free((keynet_t *)px->kn);
    store_free(px->codec);
    free(px);
}

unsigned parallel_threads(const parallel_t *px)
{
    return px->nthreads;
}

int parallel_found(const parallel_t *px)
{
    return px->found;
}

static void print_stats(const struct parallel *px, double seconds)
{
    fprintf(stderr, "parallel: %u threads, %s keys of %u bits in a shared table of %llu slots "
                    "(%.1f MB), load %.2f; grown %llu times in %.3f s\n",
            px->nthreads, px->narrow ? "one-word" : "two-word",
            px->words == 1 ? px->kbits : 128 - (unsigned)__builtin_clzll(px->kn->last_mask | 1),
            (unsigned long long)px->tab.size, (double)px->tab.bytes / 1e6,
            px->tab.size ? (double)atomic_load(&px->count) / (double)px->tab.size : 0.0,
            (unsigned long long)px->grows, px->grow_seconds);
    for (unsigned i = 0; i < px->nthreads; i++) {
        const worker *w = &px->w[i];
        fprintf(stderr, "parallel: thread %u: %llu states found, %llu expanded, %llu edges, "
                        "%.0f states/s, idle %llu times\n",
                i, (unsigned long long)w->states, (unsigned long long)w->expanded,
                (unsigned long long)w->edges,
                seconds > 0 ? (double)w->states / seconds : 0.0,
                (unsigned long long)w->idle_waits);
    }
}

explore_status parallel_search(parallel_t *px, const parallel_goal *g, result_t *res)
{
    px->goal = g;
    px->start = mono_now();
    px->deadline = px->opt->budget->deadline;
    progress_start(&px->prog, px->opt, "parallel", NULL, px->start);
    uint8_t *key = px->w[0].keybuf;
    explore_status status = EXPLORE_DONE;
    if (!store_encode(px->codec, px->cn->initial, key)) {
        result_unknown(res, "internal error: a proven place bound was exceeded");
        return EXPLORE_GAVE_UP;
    }
    keynet_load(px->kn, key, px->init);
    unsigned log2 = INITIAL_SLOTS_LOG;
    while (log2 < 40 && (double)((uint64_t)1 << log2) * 0.75 <= (double)px->opt->parallel_after)
        log2++;
    if (table_make(px, &px->tab, log2) < 0 ||
        px->fixed_bytes + px->tab.bytes > px->budget) {
        result_unknown(res, "memory budget exhausted");
        return EXPLORE_GAVE_UP;
    }
    px->peak_bytes = bytes_locked(px);
    px->grow_at = table_limit(px, px->tab.size, 0.75);
    px->full_at = table_limit(px, px->tab.size, 0.95);
    table_insert(px, &px->tab, px->init, key_hash(px, px->init), NO_TRANSITION);
    px->w[0].states = 1;
    atomic_store(&px->count, 1);
    push_key(&px->w[0], px->init);
    int v = g->holds ? holds_at(&px->w[0], px->init) : 0;
    if (v) {
        px->found = v;
        px->found_key[0] = px->init[0];
        px->found_key[1] = px->init[1];
        atomic_store(&px->stop, 1);
    }
    unsigned running = 1;
    for (unsigned i = 1; i < px->nthreads && !v; i++, running++)
        if (pthread_create(&px->w[i].thread, NULL, work, &px->w[i]) != 0)
            break;
    pthread_mutex_lock(&px->lock);
    /* the barrier counts the threads that run */
    px->nthreads = running;
    px->go = 1;
    pthread_cond_broadcast(&px->wake);
    pthread_mutex_unlock(&px->lock);
    if (!v)
        work(&px->w[0]);
    for (unsigned i = 1; i < running; i++)
        pthread_join(px->w[i].thread, NULL);
    double seconds = mono_now() - px->start;
    res->states = 0;
    res->edges = 0;
    for (unsigned i = 0; i < running; i++) {
        res->states += px->w[i].states;
        res->edges += px->w[i].edges;
    }
    res->peak_bytes = px->peak_bytes;
    if (px->opt->verbose)
        print_stats(px, seconds);
    if (px->found)
        status = EXPLORE_STOPPED;
    else if (px->why) {
        result_unknown(res, px->why);
        status = EXPLORE_GAVE_UP;
    }
    return status;
}

int parallel_run(const parallel_t *px, uint32_t **run, size_t *len)
{
    *run = NULL;
    *len = 0;
    if (!px->keep_runs || px->found != 1)
        return -1;
    size_t cap = 0, n = 0;
    uint32_t *r = NULL;
    uint64_t k[2] = {px->found_key[0], px->found_key[1]};
    const table *tab = &px->tab;
    /* each step's parent went into the table before it, so the walk ends
     * at the initial marking within as many steps as there are states */
    for (uint64_t steps = 0; steps <= tab->size; steps++) {
        int64_t i = table_find(px, tab, k);
        if (i < 0)
            break;
        uint32_t t = px->narrow ? (uint32_t)((atomic_load(&tab->slot[i]) >> px->kbits) - 1)
                                : tab->trans[i];
        if (t == NO_TRANSITION || (px->narrow && t == px->root_tag)) {
            for (size_t a = 0, b = n ? n - 1 : 0; a < b; a++, b--) {
                uint32_t x = r[a];
                r[a] = r[b];
                r[b] = x;
            }
            *run = r;
            *len = n;
            return 0;
        }
        if (n == cap) {
            size_t nc = cap ? 2 * cap : 64;
            uint32_t *nr = realloc(r, nc * sizeof *nr);
            if (!nr)
                break;
            r = nr;
            cap = nc;
        }
        r[n++] = t;
        const uint64_t *d = px->kn->delta + (size_t)px->words * t;
        if (px->words == 1) {
            k[0] -= d[0];
        } else {
            uint64_t lo = k[0] - d[0];
            k[1] = k[1] - d[1] - (lo > k[0]);
            k[0] = lo;
        }
    }
    free(r);
    return -1;
}

/* ---- the graph, from the table ---- */

/* Slots a thread numbers or expands at a time: the states of a slice get
 * consecutive numbers, and its edges one buffer. */
#define GRAPH_SLICE ((uint64_t)1 << 14)

typedef struct slice_edges {
    uint32_t *count;       /* edges of each of its states, in slot order */
    uint64_t *edge;        /* target << 32 | transition */
    size_t nstates, nedges, cap;
} slice_edges;

typedef struct graph_build {
    struct parallel *px;
    uint32_t *id;          /* per slot: the state's number */
    uint64_t *occupied;    /* per slice: occupied slots */
    slice_edges *edges;
    uint64_t nslices, init_slot, init_rank;
    _Atomic uint64_t next;
    atomic_int failed;
    const char *why;
    int (*on_state)(void *, uint64_t, const nc_count *);
    void *const *ctx;
    int phase;             /* 0: count, 1: number, 2: expand */
    _Atomic size_t bytes;
} graph_build;

static void build_fail(graph_build *b, const char *why)
{
    int expected = 0;
    if (atomic_compare_exchange_strong(&b->failed, &expected, 1))
        b->why = why;
}

static int edge_room(graph_build *b, slice_edges *e, size_t more)
{
    if (e->nedges + more <= e->cap)
        return 0;

    size_t cap = e->cap ? e->cap : 1024;
    while (cap < e->nedges + more)
        cap *= 2;
    size_t added = (cap - e->cap) * sizeof *e->edge;
    if (atomic_fetch_add(&b->bytes, added) + added > b->px->budget)
        return -1;
    uint64_t *n = realloc(e->edge, cap * sizeof *n);
    if (!n)
        return -1;
    e->edge = n;
    e->cap = cap;
    return 0;
}

/* The successors of one state into its slice's buffer. */
static int expand_for_graph(graph_build *b, worker *w, uint64_t slot, slice_edges *e)
{
    struct parallel *px = b->px;
    const table *tab = &px->tab;
    uint64_t v = atomic_load_explicit(&tab->slot[slot], memory_order_relaxed), k[2];
    (void)slot_key(px, tab, slot, v, k);
    if (b->on_state) {
        keynet_store(w->keybuf, k);
        uint32_t n = store_decode(px->codec, w->keybuf, w->m, w->marked);
        int r = b->on_state(b->ctx ? b->ctx[w->id] : NULL, b->id[slot], w->m);
        for (uint32_t i = 0; i < n; i++)
            w->m[w->marked[i]] = 0;
        if (r) {
            build_fail(b, "memory budget exhausted (reachability graph)");
            return -1;
        }
    }
    uint32_t nen = keynet_enabled(w->kn, k, w->enabled);
    if (edge_room(b, e, nen) < 0) {
        build_fail(b, "memory budget exhausted (reachability graph)");
        return -1;
    }
    for (uint32_t i = 0; i < nen; i++) {
        uint64_t s[2];
        if (!keynet_fire_in(w->kn, w->enabled[i], k, s, px->words)) {
            build_fail(b, "internal error: a proven place bound was exceeded");
            return -1;
        }
        int64_t j = table_find(px, tab, s);
        if (j < 0) {
            build_fail(b, "internal error: a successor is missing from the table");
            return -1;
        }
        e->edge[e->nedges++] = (uint64_t)b->id[j] << 32 | w->enabled[i];
    }
    e->count[e->nstates++] = nen;
    return 0;
}

static void graph_slices(graph_build *b, worker *w)
{
    struct parallel *px = b->px;
    const table *tab = &px->tab;
    for (;;) {
        if (atomic_load(&b->failed))
            return;
        uint64_t sl = atomic_fetch_add(&b->next, 1);
        if (sl >= b->nslices)
            return;
        uint64_t from = sl * GRAPH_SLICE;
        uint64_t to = from + GRAPH_SLICE < tab->size ? from + GRAPH_SLICE : tab->size;
        if (b->phase == 0) {
            uint64_t n = 0;
            for (uint64_t i = from; i < to; i++)
                n += atomic_load_explicit(&tab->slot[i], memory_order_relaxed) != 0;
            b->occupied[sl] = n;
        } else if (b->phase == 1) {
            /* the initial marking is 0, the others follow in slot order */
            uint64_t rank = b->occupied[sl];
            for (uint64_t i = from; i < to; i++) {
                if (!atomic_load_explicit(&tab->slot[i], memory_order_relaxed))
                    continue;
                b->id[i] = i == b->init_slot ? 0 : (uint32_t)(rank < b->init_rank ? rank + 1 : rank);
                rank++;
            }
        } else {
            slice_edges *e = &b->edges[sl];
            size_t n = b->occupied[sl + 1] - b->occupied[sl];
            size_t need = n * sizeof *e->count;
            if (atomic_fetch_add(&b->bytes, need) + need > px->budget ||
                !(e->count = malloc(n ? need : 1))) {
                build_fail(b, "memory budget exhausted (reachability graph)");
                return;
            }
            for (uint64_t i = from; i < to; i++)
                if (atomic_load_explicit(&tab->slot[i], memory_order_relaxed) &&
                    expand_for_graph(b, w, i, e) < 0)
                    return;
            if (*px->opt->budget->interrupted ||
                (px->deadline && mono_now() >= px->deadline)) {
                build_fail(b, *px->opt->budget->interrupted ? "interrupted" : "time limit reached");
                return;
            }
        }
    }
}

typedef struct graph_thread {
    graph_build *b;
    worker *w;
} graph_thread;

static void *graph_work(void *arg)
{
    graph_thread *t = arg;
    graph_slices(t->b, t->w);
    return NULL;
}

/* Runs one phase of the build on every thread. */
static void graph_phase(graph_build *b, int phase)
{
    struct parallel *px = b->px;
    b->phase = phase;
    atomic_store(&b->next, 0);
    pthread_t th[px->nthreads];
    graph_thread arg[px->nthreads];
    unsigned started = 1;
    for (unsigned i = 1; i < px->nthreads; i++) {
        arg[i] = (graph_thread){b, &px->w[i]};
        if (pthread_create(&th[i], NULL, graph_work, &arg[i]) != 0)
            break;
        started++;
    }
    arg[0] = (graph_thread){b, &px->w[0]};
    graph_work(&arg[0]);
    for (unsigned i = 1; i < started; i++)
        pthread_join(th[i], NULL);
}

static int copy_state(graph_t *g, const slice_edges *e, size_t state, size_t first)
{
    for (size_t i = 0; i < e->count[state]; i++) {
        uint64_t x = e->edge[first + i];
        if (graph_add_edge_to(g, (uint32_t)(x >> 32), (uint32_t)x) < 0)
            return -1;
    }
    return graph_close_state(g);
}

int parallel_graph(parallel_t *px, graph_t *g,
                   int (*on_state)(void *thread_ctx, uint64_t id, const nc_count *m),
                   void *const *thread_ctx, char *why, size_t whylen)
{
    const table *tab = &px->tab;
    uint64_t n = atomic_load(&px->count);
    if (px->found || px->why || n > GRAPH_MAX_STATES) {
        snprintf(why, whylen, "%s", n > GRAPH_MAX_STATES ? "too many states for a graph"
                                                         : "the search did not finish");
        return -1;
    }
    graph_build b = {0};
    b.px = px;
    b.on_state = on_state;
    b.ctx = thread_ctx;
    b.nslices = (tab->size + GRAPH_SLICE - 1) / GRAPH_SLICE;
    b.init_slot = (uint64_t)table_find(px, tab, px->init);
    size_t need = tab->size * sizeof *b.id + (b.nslices + 1) * (sizeof *b.occupied + sizeof *b.edges);
    atomic_store(&b.bytes, px->fixed_bytes + tab->bytes + need);
    if (px->fixed_bytes + tab->bytes + need > px->budget) {
        snprintf(why, whylen, "memory budget exhausted (reachability graph)");
        return -1;
    }
    b.id = malloc(tab->size * sizeof *b.id);
    b.occupied = calloc(b.nslices + 1, sizeof *b.occupied);
    b.edges = calloc(b.nslices + 1, sizeof *b.edges);
    int rc = -1;
    if (!b.id || !b.occupied || !b.edges) {
        snprintf(why, whylen, "memory budget exhausted (reachability graph)");
        goto out;
    }
    graph_phase(&b, 0);
    /* occupied[] becomes each slice's first rank */
    uint64_t total = 0;
    for (uint64_t s = 0; s <= b.nslices; s++) {
        uint64_t c = s < b.nslices ? b.occupied[s] : 0;
        b.occupied[s] = total;
        total += c;
    }
    b.init_rank = b.occupied[b.init_slot / GRAPH_SLICE];
    for (uint64_t i = b.init_slot / GRAPH_SLICE * GRAPH_SLICE; i < b.init_slot; i++)
        b.init_rank += atomic_load_explicit(&tab->slot[i], memory_order_relaxed) != 0;
    graph_phase(&b, 1);
    graph_phase(&b, 2);
    if (atomic_load(&b.failed)) {
        snprintf(why, whylen, "%s", b.why);
        goto out;
    }
    /* into g in state order: the initial marking's slice first for it,
     * then every slice for the others, each freed once copied */
    uint64_t is = b.init_slot / GRAPH_SLICE;
    size_t at = 0, skip = (size_t)(b.init_rank - b.occupied[is]);
    for (size_t k = 0; k < skip; k++)
        at += b.edges[is].count[k];
    if (copy_state(g, &b.edges[is], skip, at) < 0)
        goto full;
    for (uint64_t s = 0; s < b.nslices; s++) {
        slice_edges *e = &b.edges[s];
        for (size_t k = 0, first = 0; k < e->nstates; first += e->count[k], k++)
            if ((s != is || k != skip) && copy_state(g, e, k, first) < 0)
                goto full;
        free(e->count);
        free(e->edge);
        e->count = NULL;
        e->edge = NULL;
    }
    rc = 0;
    goto out;
full:
    snprintf(why, whylen, "memory budget exhausted (reachability graph)");
out:
    for (uint64_t s = 0; b.edges && s < b.nslices; s++) {
        free(b.edges[s].count);
        free(b.edges[s].edge);
    }
    free(b.id);
    free(b.occupied);
    free(b.edges);
    return rc;
}
