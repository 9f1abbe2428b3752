/* explore: the breadth-first search behind every explicit checker.  The
 * store's arena is the queue; this file owns the inner loop, which runs
 * once per edge.
 *
 * Where the time goes: a lookup touches a random table slot and, when its
 * tag matches, a random record: two dependent cache misses per edge, and
 * on virtual machines a dependent miss costs several hundred nanoseconds
 * while independent ones overlap.  So successors are generated for many
 * queued states at once into a batch (stage A, touching their slots), the
 * records the slots point to are touched next (stage B), and only then are
 * they inserted, in exactly the order a one-state-at-a-time search would
 * use (stage C).  Keys depend only on the expanded state, never on the
 * store, so batching changes nothing but the speed.  A compact store has
 * no records, and its slots are prefetched a few steps ahead within
 * stage C instead (PREFETCH_AHEAD); a successor already in its table is
 * found there in place, with no call into the store.  Keys of one or two
 * words are expanded without decoding a marking (keynet.h), and when the
 * keynet has tables, by one loop over whole states (fill_tabled). */
#include "base/clock.h"
#include "base/grow.h"
#include "engine/ctable.h"
#include "engine/explore.h"
#include "engine/keynet.h"
#include "engine/onehot.h"
#include "engine/placebits.h"
#include "engine/progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A reduction that fires nearly everything only costs: after this many
 * reduced expansions it is judged, and dropped when it kept more than
 * REDUCE_KEEP_MAX of the enabled transitions.  Dropping it halfway is
 * sound: a fully expanded marking keeps everything a reduced one would. */
#define REDUCE_SAMPLE 500
#define REDUCE_KEEP_MAX 0.9
#define BATCH_MAX 512
/* A compact store's lookup touches its slot's line only, so its prefetch
 * can go this many steps ahead of stage C's insertions instead of into
 * stage A: the misses then overlap the insertions' work instead of
 * queueing up behind one another. */
#define PREFETCH_AHEAD 20
#define BATCH_BYTES ((size_t)128 << 10)

typedef enum { P_SUCC, P_END, P_OVERFLOW } pending_kind;

/* One step of the search, in order: a successor of parent under t (its key
 * at off), or the end of parent's expansion (t = number enabled), or a
 * firing of t that overflows a count. */
typedef struct pending {
    pending_kind kind;
    uint32_t t;
    size_t off, len;      /* len: not set on keys (step_len) */
    uint64_t hash, id;
    store_ref parent;
    /* a compact table's split of hash, as the table is when the batch is
     * filled: its home slot, and the quotient */
    uint64_t home, q;
} pending;

struct explore {
    const cnet_t *cn;
    const check_options *opt;
    store_t *st;
    size_t scratch_bytes;

    /* the state being expanded (stage A) */
    nc_count *m;          /* its marking; zero elsewhere */
    uint32_t *marked;     /* its marked places */
    uint32_t nmarked;
    int loaded;
    store_ref cur, next;  /* it, and the next one in the queue */
    /* on a compact table, the queued keys are taken a run at a time
     * (store_next_keys): run_left more from run_key on, next's first */
    const uint8_t *run_key;
    size_t run_left;
    uint64_t cur_id, next_id;
    uint32_t nen, k;      /* enabled transitions, how many fired */
    uint32_t nfire;       /* how many of them to fire */
    uint64_t fire_bits;   /* those not fired yet, when the keynet's tables
                           * gave them and they all stay in their fields */

    uint32_t *enabled;
    uint32_t *fire;       /* the ones to fire: enabled, or reduced[] */
    uint32_t *reduced;
    explore_reducer reducer;
    void *reducer_ctx;
    uint64_t reduce_calls, reduce_enabled, reduce_fired;
    /* enabledness by counting hits from marked places (sparse markings) */
    uint32_t *hits, *stamp, epoch;
    uint64_t *tbits;
    uint32_t *always;     /* transitions that need nothing */
    uint32_t nalways;
    /* incremental enabledness: en_bits holds the enabled transitions of
     * the marking in m; the next state is decoded into mnext and only the
     * transitions needing a place whose count differs are tested again */
    uint64_t *en_bits;
    int en_valid;
    nc_count *mnext;      /* zero but for its marked places */
    uint32_t *markednext;
    uint32_t *changed;    /* places whose count differs: each at most once */
    /* keys of one or two words are expanded as keys (keynet.h), unless a
     * reducer needs markings */
    keynet_t *kn;
    int by_key;
    uint64_t kcur[2];     /* the loaded state's key */
    int bound_broken;     /* a firing left its field */
    /* which expansions end with a step (P_END), for on_expanded: a
     * search for deadlocks needs only theirs, others none */
    enum { END_NONE, END_DEADLOCKS, END_ALL } end_steps;
    /* no on_state, no on_edge and no state limit: a new state needs no
     * more than the store's work */
    int quiet;

    /* a new state's marking, for on_state (stage C) */
    nc_count *m2;
    uint32_t *marked2;
    uint32_t nmarked2;
    uint8_t *key;
    uint8_t *root;        /* the initial marking's key, where runs start */
    size_t root_len;

    pending *batch;
    /* a compact store's table: known states are found in it, and its
     * slots are prefetched in stage C, not A */
    const ctable *ct;
    uint8_t *bkeys;       /* the keys of a batch */
    size_t bcap;

    uint64_t edges;
    double start;
    progress prog;
    const char *name;
};

/* ---- life cycle ---- */

static void *scratch(explore_t *ex, size_t n, size_t size)
{
    ex->scratch_bytes += (n ? n : 1) * size;
    return calloc(n ? n : 1, size);
}

static void find_always(explore_t *ex)
{
    const cnet_t *cn = ex->cn;
    for (uint32_t t = 0; t < cn->ntransitions; t++)
        if (cn->need_start[t] == cn->need_start[t + 1])
            ex->always[ex->nalways++] = t;
}

store_t *explore_packed_store(const cnet_t *cn, const check_options *opt, store_keep keep,
                              int compact)
{
    size_t budget = opt->budget->bytes;
    double start = mono_now();
    uint8_t *bits = NULL;
    double onehot_seconds = 0;
    if (!opt->variable_keys) {
        /* both carved now: the groups get their share of the bounds' time
         * however long the bounds took */
        budget_t bounds = budget_carve(opt->budget, CARVE_EXPLORE_PLACEBITS);
        budget_t onehot = budget_carve(&bounds, CARVE_EXPLORE_ONEHOT);
        onehot_seconds = budget_seconds(&onehot);
        bits = placebits(cn, &bounds);
    }
    double bounds_done = mono_now();
    uint32_t ngroups = 0;
    uint32_t *group = bits ? onehot_groups(cn, bits, onehot_seconds, &ngroups) : NULL;
    store_t *st = NULL;
    if (bits && compact && !opt->no_compact)
        st = store_new_compact(cn->nplaces, bits, group, cn->ntransitions, budget, keep);
    if (bits && !st)
        st = store_new_packed(cn->nplaces, bits, group, budget, keep);
    free(bits);
    free(group);
    if (opt->verbose) {
        fprintf(stderr, "explore: %s keys%s (place bounds: %.3f s",
                st ? "fixed-width" : "variable-length",
                st && store_is_compact(st) ? " in a compact table" : "", bounds_done - start);
        uint32_t grouped = 0, groups = st ? store_groups(st, &grouped) : 0;
        if (groups)
            fprintf(stderr, "; %u places in %u one-hot groups: %.3f s", grouped, groups,
                    mono_now() - bounds_done);
        fprintf(stderr, ")\n");
    }
    return st;
}

static store_t *new_store(const cnet_t *cn, const check_options *opt, unsigned flags)
{
    store_keep keep = flags & EXPLORE_RUNS ? STORE_TRANSITIONS : STORE_KEYS;
    store_t *st = explore_packed_store(cn, opt, keep, !(flags & EXPLORE_REFS));
    return st ? st : store_new(cn->nplaces, opt->budget->bytes, keep);
}

explore_t *explore_new(const cnet_t *cn, const check_options *opt, unsigned flags)
{
    explore_t *ex = calloc(1, sizeof *ex);
    if (!ex)
        return NULL;
    ex->cn = cn;
    ex->opt = opt;
    ex->st = new_store(cn, opt, flags);
    if (!ex->st) {
        free(ex);
        return NULL;
    }
    uint32_t P = cn->nplaces, T = cn->ntransitions;
    size_t K = store_key_max(ex->st);
    ex->m = scratch(ex, P, sizeof *ex->m);
    ex->marked = scratch(ex, P, sizeof *ex->marked);
    ex->m2 = scratch(ex, P, sizeof *ex->m2);
    ex->marked2 = scratch(ex, P, sizeof *ex->marked2);
    ex->key = scratch(ex, K, 1);
    ex->root = scratch(ex, K, 1);
    ex->bcap = BATCH_BYTES + K;
    ex->bkeys = scratch(ex, ex->bcap, 1);
    ex->batch = scratch(ex, BATCH_MAX, sizeof *ex->batch);
    ex->enabled = scratch(ex, T, sizeof *ex->enabled);
    ex->hits = scratch(ex, T, sizeof *ex->hits);
    ex->stamp = scratch(ex, T, sizeof *ex->stamp);
    ex->tbits = scratch(ex, (T + 63) / 64, sizeof *ex->tbits);
    ex->always = scratch(ex, T, sizeof *ex->always);
    ex->en_bits = scratch(ex, (T + 63) / 64, sizeof *ex->en_bits);
    ex->mnext = scratch(ex, P, sizeof *ex->mnext);
    ex->markednext = scratch(ex, P, sizeof *ex->markednext);
    ex->changed = scratch(ex, P, sizeof *ex->changed);
    if (!ex->m || !ex->marked || !ex->m2 || !ex->marked2 || !ex->key || !ex->root || !ex->bkeys ||
        !ex->batch || !ex->enabled || !ex->hits || !ex->stamp || !ex->tbits || !ex->always ||
        !ex->en_bits || !ex->mnext || !ex->markednext || !ex->changed) {
        explore_free(ex);
        return NULL;
    }
    find_always(ex);
    ex->kn = keynet_new(cn, ex->st);
    ex->ct = store_table(ex->st);
    return ex;
}

void explore_free(explore_t *ex)
{
    if (!ex)
        return;
    store_free(ex->st);
    keynet_free(ex->kn);
    free(ex->m);
    free(ex->marked);
    free(ex->m2);
    free(ex->marked2);
    free(ex->key);
    free(ex->root);
    free(ex->bkeys);
    free(ex->batch);
    free(ex->enabled);
    free(ex->reduced);
    free(ex->hits);
    free(ex->stamp);
    free(ex->tbits);
    free(ex->always);
    free(ex->en_bits);
    free(ex->mnext);
    free(ex->markednext);
    free(ex->changed);
    free(ex);
}

const store_t *explore_store(const explore_t *ex)
{
    return ex->st;
}

int explore_reducing(const explore_t *ex)
{
    return ex->reducer != NULL;
}

int explore_set_reducer(explore_t *ex, explore_reducer fn, void *ctx)
{
    if (fn && !ex->reduced && !(ex->reduced = scratch(ex, ex->cn->ntransitions, sizeof *ex->reduced)))
        return -1;
    ex->reducer = fn;
    ex->reducer_ctx = ctx;
    return 0;
}

/* ---- enabledness ---- */

static uint32_t enabled_by_scan(explore_t *ex)
{
    const cnet_t *cn = ex->cn;
    uint32_t n = 0;
    for (uint32_t t = 0; t < cn->ntransitions; t++)
        if (cn_enabled(cn, ex->m, t))
            ex->enabled[n++] = t;
    return n;
}

static void mark_enabled(explore_t *ex, uint32_t t, size_t *lo, size_t *hi)
{
    ex->tbits[t >> 6] |= UINT64_C(1) << (t & 63);
    *lo = (t >> 6) < *lo ? t >> 6 : *lo;
    *hi = (t >> 6) > *hi ? t >> 6 : *hi;
}

/* Only transitions all of whose needed places are marked can be enabled:
 * count, per transition, the marked places it needs.  A bitmap sorts the
 * survivors into transition order. */
static uint32_t enabled_by_hits(explore_t *ex)
{
    const cnet_t *cn = ex->cn;
    if (++ex->epoch == 0) {
        memset(ex->stamp, 0, cn->ntransitions * sizeof *ex->stamp);
        ex->epoch = 1;
    }
    size_t lo = SIZE_MAX, hi = 0;
    for (uint32_t i = 0; i < ex->nmarked; i++) {
        uint32_t p = ex->marked[i];
        for (uint32_t k = cn->consumers_start[p]; k < cn->consumers_start[p + 1]; k++) {
            uint32_t t = cn->consumers[k];
            if (ex->stamp[t] != ex->epoch) {
                ex->stamp[t] = ex->epoch;
                ex->hits[t] = 0;
            }
            if (++ex->hits[t] == cn->need_start[t + 1] - cn->need_start[t] &&
                cn_enabled(cn, ex->m, t))
                mark_enabled(ex, t, &lo, &hi);
        }
    }
    for (uint32_t i = 0; i < ex->nalways; i++)
        mark_enabled(ex, ex->always[i], &lo, &hi);
    uint32_t n = 0;
    for (size_t w = lo; lo != SIZE_MAX && w <= hi; w++) {
        for (uint64_t bits = ex->tbits[w]; bits; bits &= bits - 1)
            ex->enabled[n++] = (uint32_t)(w * 64 + (size_t)__builtin_ctzll(bits));
        ex->tbits[w] = 0;
    }
    return n;
}

/* How many transitions need p: the cost of testing again on p's account. */
static inline uint32_t consumers_of(const cnet_t *cn, uint32_t p)
{
    return cn->consumers_start[p + 1] - cn->consumers_start[p];
}

/* Testing again the consumers of the changed places pays up to this many
 * tests; past it every transition is tested. */
static inline uint64_t retest_limit(const cnet_t *cn)
{
    return cn->ntransitions / 2;
}

/* Scanning costs about one test per transition; counting hits costs one
 * step per (marked place, transition needing it), each step dearer than a
 * test, so scanning wins unless a change touches few places. */
static uint32_t collect_enabled(explore_t *ex)
{
    const cnet_t *cn = ex->cn;
    uint64_t cost = ex->nalways;
    for (uint32_t i = 0; i < ex->nmarked; i++)
        cost += consumers_of(cn, ex->marked[i]);
    return 4 * cost < cn->ntransitions ? enabled_by_hits(ex) : enabled_by_scan(ex);
}

static void swap_markings(explore_t *ex, uint32_t nnext)
{
    nc_count *m = ex->m;
    uint32_t *marked = ex->marked;
    for (uint32_t i = 0; i < ex->nmarked; i++)
        m[marked[i]] = 0;
    ex->m = ex->mnext;
    ex->marked = ex->markednext;
    ex->nmarked = nnext;
    ex->mnext = m;
    ex->markednext = marked;
}

static uint32_t enabled_from_bits(explore_t *ex)
{
    uint32_t n = 0, words = (ex->cn->ntransitions + 63) / 64;
    for (uint32_t w = 0; w < words; w++)
        for (uint64_t bits = ex->en_bits[w]; bits; bits &= bits - 1)
            ex->enabled[n++] = w * 64 + (uint32_t)__builtin_ctzll(bits);
    return n;
}

/* en_bits from the n transitions in enabled[], after testing them all;
 * returns n. */
static uint32_t bits_of_enabled(explore_t *ex, uint32_t n)
{
    memset(ex->en_bits, 0, (ex->cn->ntransitions + 63) / 64 * sizeof *ex->en_bits);
    for (uint32_t i = 0; i < n; i++)
        ex->en_bits[ex->enabled[i] >> 6] |= UINT64_C(1) << (ex->enabled[i] & 63);
    return n;
}

/* Tests again the transitions needing a place in changed[], in m. */
static void retest_changed(explore_t *ex, uint32_t nchanged)
{
    const cnet_t *cn = ex->cn;
    for (uint32_t i = 0; i < nchanged; i++) {
        uint32_t p = ex->changed[i];
        for (uint32_t k = cn->consumers_start[p]; k < cn->consumers_start[p + 1]; k++) {
            uint32_t t = cn->consumers[k];
            uint64_t bit = UINT64_C(1) << (t & 63);
            ex->en_bits[t >> 6] = (ex->en_bits[t >> 6] & ~bit) |
                                  ((uint64_t)cn_enabled(cn, ex->m, t) << (t & 63));
        }
    }
}

/* States next to each other in the queue are mostly siblings or cousins,
 * a few places apart: testing again only the transitions that need a
 * changed place beats testing them all, which is done instead when the
 * changes reach too many transitions (and for the first state). */
static uint32_t enabled_of_next(explore_t *ex, uint32_t nnext)
{
    const cnet_t *cn = ex->cn;
    const nc_count *m = ex->m, *mn = ex->mnext;
    uint32_t nchanged = 0;
    uint64_t cost = 0, limit = retest_limit(cn);
    if (ex->en_valid) {
        for (uint32_t i = 0; i < ex->nmarked && cost <= limit; i++) {
            uint32_t p = ex->marked[i];
            if (m[p] != mn[p]) {
                ex->changed[nchanged++] = p;
                cost += consumers_of(cn, p);
            }
        }
        for (uint32_t i = 0; i < nnext && cost <= limit; i++) {
            uint32_t p = ex->markednext[i];
            if (m[p] == 0) {
                ex->changed[nchanged++] = p;
                cost += consumers_of(cn, p);
            }
        }
    }
    swap_markings(ex, nnext);
    if (!ex->en_valid || cost > limit) {
        ex->en_valid = 1;
        return bits_of_enabled(ex, collect_enabled(ex));
    }
    retest_changed(ex, nchanged);
    return enabled_from_bits(ex);
}

/* ---- stage A: successor keys ---- */

/* Fixed-width keys tell the changed places by a word-wise xor of the
 * keys: nothing is decoded, nothing scanned per marked place.  The list of
 * marked places is then made only when every transition is tested again. */
static uint32_t enabled_by_rebase(explore_t *ex, const uint8_t *key)
{
    const cnet_t *cn = ex->cn;
    uint32_t nchanged = store_rebase(ex->st, key, ex->m, ex->changed);
    uint64_t cost = 0, limit = retest_limit(cn);
    for (uint32_t i = 0; i < nchanged && cost <= limit; i++)
        cost += consumers_of(cn, ex->changed[i]);
    if (cost > limit) {
        /* counting hits needs the marked places; on a net of a word of
         * transitions, testing them all costs less than listing those */
        uint32_t n;
        if (cn->ntransitions <= 64) {
            n = enabled_by_scan(ex);
        } else {
            ex->nmarked = store_decode(ex->st, key, ex->m, ex->marked);
            n = collect_enabled(ex);
        }
        return bits_of_enabled(ex, n);
    }
    retest_changed(ex, nchanged);
    return enabled_from_bits(ex);
}

/* Forced inline: it runs once a state, on the search's hot path. */
static inline __attribute__((always_inline)) void load_state(explore_t *ex, store_ref ref,
                                                              const uint8_t *key)
{
    /* the first state goes the long way: it sets m, marked and the base */
    if (ex->by_key && ex->kn->tab && !ex->kn->tab_words) {
        keynet_load(ex->kn, key, ex->kcur);
        ex->fire_bits = keynet_enabled_mask(ex->kn, ex->kcur);
        ex->nen = popcount64(ex->fire_bits);
        /* a firing that leaves a field is tested for on the way */
        if (ex->kn->unsafe) {
            uint32_t n = 0;
            for (uint64_t on = ex->fire_bits; on; on &= on - 1)
                ex->enabled[n++] = (uint32_t)__builtin_ctzll(on);
        }
    } else if (ex->by_key) {
        keynet_load(ex->kn, key, ex->kcur);
        ex->nen = keynet_enabled(ex->kn, ex->kcur, ex->enabled);
    } else if (ex->en_valid && store_is_packed(ex->st)) {
        ex->nen = enabled_by_rebase(ex, key);
    } else {
        uint32_t nnext = store_decode(ex->st, key, ex->mnext, ex->markednext);
        ex->nen = enabled_of_next(ex, nnext);
        store_set_base(ex->st, ex->m, ex->marked, ex->nmarked);
    }
    ex->cur = ref;
    ex->cur_id = ex->next_id++;
    ex->fire = ex->enabled;
    ex->nfire = ex->nen;
    if (ex->reducer && ex->nen > 0) {
        ex->nfire = ex->reducer(ex->reducer_ctx, ex->m, ex->enabled, ex->nen, ex->reduced);
        ex->fire = ex->reduced;
        ex->reduce_enabled += ex->nen;
        ex->reduce_fired += ex->nfire;
        if (++ex->reduce_calls == REDUCE_SAMPLE &&
            (double)ex->reduce_fired > REDUCE_KEEP_MAX * (double)ex->reduce_enabled)
            ex->reducer = NULL;
    }
    ex->k = 0;
    ex->loaded = 1;
}

/* Writes the successor key of the loaded state under t to key (which has
 * store_key_max bytes).  -1: a count overflows. */
static int successor_key(explore_t *ex, uint32_t t, uint8_t *key, size_t *len)
{
    const cnet_t *cn = ex->cn;
    uint32_t from = cn->eff_start[t];
    *len = store_encode_succ(ex->st, ex->m, cn->eff_place + from, cn->eff_delta + from,
                             cn->eff_start[t + 1] - from, key);
    return *len ? 0 : -1;
}

/* The successor key of kcur (of `words` words) under t, written to key.
 * A key of one word is its bits, none past its last field: it is written
 * as one word (keys have slack behind them).  Its words into succ. */
static inline __attribute__((always_inline)) void key_successor(const uint64_t *delta, uint32_t t,
                                                               const uint64_t kcur[2],
                                                               uint8_t *key, unsigned words,
                                                               uint64_t succ[2])
{
    if (words == 1) {
        succ[0] = kcur[0] + delta[t];
        succ[1] = 0;
        word_store(key, succ[0]);
    } else {
        keynet_fire_pair(delta, t, kcur, succ);
        keynet_store(key, succ);
    }
}

/* key_successor, hashed and split for a compact table, into p.  A key of
 * one word is hashed as it is; one of two words has verbatim bits
 * (explore_bfs). */
static inline __attribute__((always_inline)) void key_step(pending *p, const ctable_hasher *h,
                                                          const uint64_t *delta, uint32_t t,
                                                          const uint64_t kcur[2], uint8_t *key,
                                                          unsigned words)
{
    uint64_t succ[2];
    key_successor(delta, t, kcur, key, words, succ);
    p->hash = words == 1 ? ctable_hasher_word(h, succ[0]) : ctable_hasher_pair(h, succ[0], succ[1]);
    p->q = ctable_hasher_split(h, p->hash, &p->home);
}

/* How fire_steps finds the transitions to fire and their successors:
 * from the list, each firing tested for leaving a field, or (on keys,
 * when the keynet's tables said no firing does) untested, from the list
 * or from fire_bits. */
enum { FIRE_TESTED, FIRE_LIST, FIRE_BITS };

/* Appends the loaded state's next firings to the batch while there is
 * room (nb < BATCH_MAX steps in it, *used <= last bytes of keys, last
 * being the most that leaves room for one more key); the new nb.  The
 * loop runs once an edge, so what it reads of ex is read once, into
 * locals, and by_key (0, or the words of a key) is a constant in each of
 * its copies, and so is mode.  An overflow's step ends the batch
 * (*overflow set). */
static inline __attribute__((always_inline)) size_t fire_steps(explore_t *ex, size_t nb,
                                                              size_t *used, size_t last,
                                                              unsigned by_key, int mode,
                                                              int compact, int *overflow)
{
    pending *b = ex->batch;
    uint8_t *keys = ex->bkeys;
    const uint32_t *fire = ex->fire;
    const keynet_t *kn = ex->kn;
    const ctable *ct = ex->ct;
    const uint64_t kcur[2] = {ex->kcur[0], ex->kcur[1]};
    const store_ref parent = ex->cur;
    const uint64_t id = ex->cur_id;
    const size_t root_len = ex->root_len;
    uint32_t k = ex->k, end = ex->nfire;
    uint64_t bits = ex->fire_bits;
    const uint64_t *delta = kn ? kn->delta : NULL;
    /* the table does not change in stages A and B */
    const ctable_hasher h = compact ? ctable_hasher_of(ct) : (ctable_hasher){0};
    size_t u = *used;
    /* room for so many: one test a step instead of three */
    if (end - k > BATCH_MAX - nb)
        end = k + (uint32_t)(BATCH_MAX - nb);
    /* a division costs as much as a few edges: it is made only when the
     * keys may not fit (u <= last holds here) */
    if (by_key && (uint64_t)(end - k - 1) * root_len > last - u)
        end = k + (uint32_t)((last - u) / root_len + 1);
    while (k < end && (by_key || u <= last)) {
        pending *p = &b[nb++];
        uint32_t t;
        if (mode != FIRE_BITS) {
            t = fire[k];
        } else {
            t = (uint32_t)__builtin_ctzll(bits);
            bits &= bits - 1;
        }
        k++;
        p->parent = parent;
        p->id = id;
        p->t = t;
        p->off = u;
        if (by_key && mode != FIRE_TESTED) {
            p->kind = P_SUCC;
            if (!compact) {
                uint64_t succ[2];
                key_successor(delta, t, kcur, keys + u, by_key, succ);
                p->hash = store_key_hash(ex->st, keys + u, root_len);
                store_prefetch_slot(ex->st, p->hash);
            } else {
                key_step(p, &h, delta, t, kcur, keys + u, by_key);
            }
            u += root_len;
            continue;
        }
        size_t len = 0;
        if (by_key) {
            uint64_t succ[2];
            if (keynet_fire_in(kn, t, kcur, succ, by_key)) {
                keynet_store(keys + u, succ);
                len = root_len;
            } else {
                ex->bound_broken = 1;
            }
        } else if (successor_key(ex, t, keys + u, &len) < 0) {
            len = 0;
        }
        p->len = len;
        if (!len) {
            p->kind = P_OVERFLOW;
            p->home = 0;   /* prefetched all the same */
            ex->loaded = 0;
            *overflow = 1;
            break;
        }
        p->kind = P_SUCC;
        if (compact) {
            p->hash = ctable_hash(ct, keys + u);
            p->q = ctable_hasher_split(&h, p->hash, &p->home);
        } else {
            p->hash = store_key_hash(ex->st, keys + u, len);
            store_prefetch_slot(ex->st, p->hash);
        }
        u += len;
    }
    ex->k = k;
    ex->fire_bits = bits;
    *used = u;
    return nb;
}

/* fire_steps with its modes as constants: the loaded state's keys
 * (by_key: 0, 1 or 2 words), how its firings are found, and whether a
 * compact table hashes and splits its keys. */
static inline __attribute__((always_inline)) size_t fire_dispatch(explore_t *ex, size_t nb,
                                                                 size_t *used, size_t last,
                                                                 int *overflow)
{
    const keynet_t *kn = ex->kn;
    int compact = ex->ct != NULL;
    if (!ex->by_key)
        return compact ? fire_steps(ex, nb, used, last, 0, FIRE_TESTED, 1, overflow)
                       : fire_steps(ex, nb, used, last, 0, FIRE_TESTED, 0, overflow);
    /* a state none of whose firings leaves a field (the keynet's tables
     * said so) fires without a test */
    int mode = kn->unsafe ? FIRE_TESTED : kn->tab_words ? FIRE_LIST : FIRE_BITS;
    switch ((kn->words == 1 ? 0 : 6) + 2 * mode + compact) {
    case 0: return fire_steps(ex, nb, used, last, 1, FIRE_TESTED, 0, overflow);
    case 1: return fire_steps(ex, nb, used, last, 1, FIRE_TESTED, 1, overflow);
    case 2: return fire_steps(ex, nb, used, last, 1, FIRE_LIST, 0, overflow);
    case 3: return fire_steps(ex, nb, used, last, 1, FIRE_LIST, 1, overflow);
    case 4: return fire_steps(ex, nb, used, last, 1, FIRE_BITS, 0, overflow);
    case 5: return fire_steps(ex, nb, used, last, 1, FIRE_BITS, 1, overflow);
    case 6: return fire_steps(ex, nb, used, last, 2, FIRE_TESTED, 0, overflow);
    case 7: return fire_steps(ex, nb, used, last, 2, FIRE_TESTED, 1, overflow);
    case 8: return fire_steps(ex, nb, used, last, 2, FIRE_LIST, 0, overflow);
    case 9: return fire_steps(ex, nb, used, last, 2, FIRE_LIST, 1, overflow);
    case 10: return fire_steps(ex, nb, used, last, 2, FIRE_BITS, 0, overflow);
    default: return fire_steps(ex, nb, used, last, 2, FIRE_BITS, 1, overflow);
    }
}

/* Whether the expansion of a state with n enabled transitions ends with
 * a step (end_steps). */
static inline int ends_with_step(int end_steps, uint32_t n)
{
    return end_steps == END_ALL || (end_steps == END_DEADLOCKS && n == 0);
}

/* The step that ends the expansion of state id (ref parent), n of whose
 * transitions were enabled, for on_expanded. */
static inline void end_step(pending *p, store_ref parent, uint64_t id, uint32_t n)
{
    p->kind = P_END;
    p->home = 0;   /* prefetched all the same */
    p->parent = parent;
    p->id = id;
    p->t = n;
}

/* Stages A and B for the common search: keys of `words` words in a
 * compact table, enabledness from the keynet's tables (one-word entries
 * when tab0), no reducer.  Whole states are taken from the queue's runs
 * and fired in one loop that keeps what it reads in locals, where
 * load_state and fire_steps reload the search's fields and work out the
 * firing mode again for every state.  A state that does not fit what is
 * left of the batch, or one of whose firings may leave a field, is put
 * back in the queue for load_state and fire_steps: 1 is returned then,
 * 0 when the batch is full or the queue empty.  *nb and *used grow. */
static inline __attribute__((always_inline)) int fill_tabled(explore_t *ex, size_t *nbp,
                                                            size_t *used, size_t last,
                                                            unsigned words, int tab0)
{
    pending *b = ex->batch;
    uint8_t *keys = ex->bkeys;
    keynet_t *kn = ex->kn;
    const uint64_t *delta = kn->delta;
    const ctable_hasher h = ctable_hasher_of(ex->ct);
    const size_t root_len = ex->root_len;
    const int ends = ex->end_steps;
    uint32_t *enabled = ex->enabled;
    const uint8_t *run_key = ex->run_key;
    size_t run_left = ex->run_left, u = *used, nb = *nbp;
    store_ref next = ex->next;
    uint64_t id = ex->next_id;
    int long_way = 0;
    for (;;) {
        if (!run_left && !(run_left = store_next_keys(ex->st, &next, &run_key)))
            break;
        uint64_t k[2];
        keynet_load(kn, run_key, k);
        const store_ref parent = next;
        uint64_t bits = 0;
        uint32_t n;
        if (tab0) {
            bits = keynet_enabled_mask(kn, k);
            n = popcount64(bits);
        } else {
            n = keynet_enabled(kn, k, enabled);
        }
        /* room for its firings and its end step: else, and for a firing
         * that may leave a field, the state stays queued for the long way
         * (its enabledness found again: once a batch at most) */
        uint32_t steps = n + (uint32_t)ends_with_step(ends, n);
        if (kn->unsafe || steps > BATCH_MAX - nb ||
            (n && (uint64_t)(n - 1) * root_len > last - u)) {
            long_way = 1;
            break;
        }
        run_key += root_len;
        run_left--;
        next += root_len;
        for (uint32_t i = 0; i < n; i++) {
            pending *p = &b[nb++];
            uint32_t t;
            if (tab0) {
                t = (uint32_t)__builtin_ctzll(bits);
                bits &= bits - 1;
            } else {
                t = enabled[i];
            }
            p->parent = parent;
            p->id = id;
            p->t = t;
            p->off = u;
            p->kind = P_SUCC;
            key_step(p, &h, delta, t, k, keys + u, words);
            u += root_len;
        }
        if (steps > n)
            end_step(&b[nb++], parent, id, n);
        id++;
        ex->cur = parent;
        if (nb >= BATCH_MAX || u > last)
            break;
    }
    ex->run_key = run_key;
    ex->run_left = run_left;
    ex->next = next;
    ex->next_id = id;
    *used = u;
    *nbp = nb;
    return long_way;
}

/* fill_tabled with its modes as constants. */
static int fill_tabled_any(explore_t *ex, size_t *nb, size_t *used, size_t last)
{
    int tab0 = ex->kn->tab_words == 0;
    if (ex->kn->words == 1)
        return tab0 ? fill_tabled(ex, nb, used, last, 1, 1) : fill_tabled(ex, nb, used, last, 1, 0);
    return tab0 ? fill_tabled(ex, nb, used, last, 2, 1) : fill_tabled(ex, nb, used, last, 2, 0);
}

/* Stages A and B: steps of as many queued states as fit.  Stops after an
 * overflow, which ends the search once the steps before it are done. */
static __attribute__((noinline)) size_t fill_batch(explore_t *ex)
{
    size_t nb = 0, used = 0, last = ex->bcap - store_key_max(ex->st);
    /* every step of the states before the one loaded last is done */
    store_release(ex->st, ex->cur);
    /* the common search's loop, unless a reducer may need markings */
    int tabled = ex->by_key && ex->kn->tab && ex->ct && !ex->reducer;
    while (nb < BATCH_MAX && used <= last) {
        /* the batch full or the queue empty, or a state for the long way */
        if (!ex->loaded && tabled && !fill_tabled_any(ex, &nb, &used, last))
            break;
        if (!ex->loaded) {
            if (ex->ct) {
                /* a call a run of keys, not a state */
                if (!ex->run_left &&
                    !(ex->run_left = store_next_keys(ex->st, &ex->next, &ex->run_key)))
                    break;
                load_state(ex, ex->next, ex->run_key);
                ex->run_key += ex->root_len;
                ex->run_left--;
                ex->next += ex->root_len;
            } else {
                const uint8_t *key;
                store_ref after;
                if (!store_next(ex->st, &ex->next, &key, &after))
                    break;
                load_state(ex, ex->next, key);
                ex->next = after;
            }
        }
        if (ex->k < ex->nfire) {
            int overflow = 0;
            nb = fire_dispatch(ex, nb, &used, last, &overflow);
            if (overflow)
                break;
            continue;
        }
        /* the end of the state's expansion, as a step when on_expanded
         * wants it */
        if (ends_with_step(ex->end_steps, ex->nen))
            end_step(&ex->batch[nb++], ex->cur, ex->cur_id, ex->nen);
        ex->loaded = 0;
    }
    for (size_t i = 0; i < nb && !ex->ct; i++)
        if (ex->batch[i].kind == P_SUCC)
            store_prefetch_record(ex->st, ex->batch[i].hash);
    return nb;
}

/* ---- stage C: insertion, in search order ---- */

typedef struct search {
    explore_t *ex;
    const explore_visitor *v;
    void *ctx;
    const char *why;      /* set when giving up */
} search;

/* The marking of a new state, for on_state. */
static const nc_count *new_marking(explore_t *ex, const uint8_t *key)
{
    for (uint32_t i = 0; i < ex->nmarked2; i++)
        ex->m2[ex->marked2[i]] = 0;
    ex->nmarked2 = store_decode(ex->st, key, ex->m2, ex->marked2);
    return ex->m2;
}

/* After an insertion that added a state or failed: the limits, then
 * on_state.  1: new, -1: stop (why set when a limit was hit). */
static int added_or_failed(search *s, int r, const uint8_t *key, store_ref to)
{
    explore_t *ex = s->ex;
    if (r < 0) {
        s->why = r == STORE_OUT_OF_TIME ? "time limit reached" : "memory budget exhausted";
        return -1;
    }
    if (ex->opt->max_states && store_count(ex->st) > ex->opt->max_states) {
        s->why = "state limit reached";
        return -1;
    }
    if (s->v->on_state &&
        s->v->on_state(s->ctx, store_count(ex->st) - 1, to, new_marking(ex, key)))
        return -1;
    return 1;
}

/* 1: new, 0: known, -1: stop (why set when a limit was hit). */
static int add_state(search *s, const uint8_t *key, size_t len, uint64_t hash, store_ref parent,
                     uint32_t t, store_ref *to)
{
    int r = store_insert(s->ex->st, key, len, hash, parent, t, to);
    return r == 0 ? 0 : added_or_failed(s, r, key, *to);
}

static const char *overflow_reason(const explore_t *ex)
{
    return store_bound_broken(ex->st) || ex->bound_broken
               ? "internal error: a proven place bound was exceeded"
               : "token count overflow";
}

/* The length of a successor's key.  Searches on keys (by_key) do not
 * store it in their steps: it is the root's. */
static inline size_t step_len(const explore_t *ex, const pending *p)
{
    return ex->by_key ? ex->root_len : p->len;
}

/* 0 to go on, -1 to stop.  A successor that a compact table has is
 * drain_batch's, not this function's. */
static int do_step(search *s, const pending *p)
{
    explore_t *ex = s->ex;
    const explore_visitor *v = s->v;
    if (p->kind == P_END)
        return v->on_expanded && v->on_expanded(s->ctx, p->id, p->parent, p->t) ? -1 : 0;
    ex->edges++;
    if (p->kind == P_OVERFLOW) {
        s->why = overflow_reason(ex);
        return -1;
    }
    store_ref to;
    int r = add_state(s, ex->bkeys + p->off, step_len(ex, p), p->hash, p->parent, p->t, &to);
    if (r < 0)
        return -1;
    if (v->on_edge && v->on_edge(s->ctx, p->parent, p->t, to, r == 1))
        return -1;
    return 0;
}

/* The table grew while the batch was drained: the steps after i are split
 * again, for the new table.  A split for the old one is not merely slow
 * in the new: its (home, quotient) may name another key there, which
 * would pass a new state for a known one. */
static void split_again(const ctable *ct, pending *b, size_t i, size_t nb)
{
    for (; i < nb; i++)
        if (b[i].kind == P_SUCC)
            b[i].q = ctable_split(ct, b[i].hash, &b[i].home);
}

/* add_probed's work after the store's: the limits and the visitor. */
static __attribute__((noinline)) int tell_added(search *s, const pending *p, int r,
                                                const uint8_t *key, store_ref to)
{
    if (added_or_failed(s, r, key, to) < 0)
        return -1;
    return s->v->on_edge && s->v->on_edge(s->ctx, p->parent, p->t, to, 1) ? -1 : 0;
}

/* A successor the compact table does not have: a probe ended at (at,
 * dist), or passed the cap (r).  0 to go on, -1 to stop.  Inline, and a
 * search with nothing to tell (quiet) returns at once, so a new state
 * costs no call besides the store's. */
static inline __attribute__((always_inline)) int add_probed(search *s, const pending *p, int r,
                                                           uint8_t *at, unsigned dist)
{
    explore_t *ex = s->ex;
    ex->edges++;
    const uint8_t *key = ex->bkeys + p->off;
    ctable_pos pos = {at, dist, p->q};
    store_ref to;
    r = store_add_probed(ex->st, key, step_len(ex, p), p->hash, p->t, r, &pos, &to);
    if (r == 1 && ex->quiet)
        return 0;
    return tell_added(s, p, r, key, to);
}

/* Stage C on a compact table: steps first to end, the slots of the step
 * PREFETCH_AHEAD on prefetched when ahead (end + PREFETCH_AHEAD <= nb),
 * while the table keeps its size.  A successor the table has, the
 * common case, costs one probe, here; every other step is do_step's.
 * Edges found known are counted into *known.  The index of the step
 * after the last one done (a growth stops the loop: the probe's kind
 * may change with the size), or SIZE_MAX to stop.  Copied with and
 * without on_edge and the prefetch, and for each kind of probe, so that
 * none is tested a step; the table is read as a view (ctable_view). */
static inline __attribute__((always_inline)) size_t
drain_steps(search *s, size_t first, size_t end, size_t nb, uint64_t *known, int ahead, int kind,
            int (*on_edge)(void *, store_ref, uint32_t, store_ref, int))
{
    const ctable *ct = s->ex->ct;
    const ctable_view v = ctable_view_of(ct);
    pending *b = s->ex->batch;
    const uint8_t *keys = s->ex->bkeys;
    uint64_t found = 0;
    size_t i = first;
    for (; i < end; i++) {
        const pending *p = &b[i];
        if (ahead)   /* steps that are no successor have home 0 */
            ctable_view_prefetch(&v, b[i + PREFETCH_AHEAD].home);
        uint8_t *at;
        unsigned dist;
        int r;
        if (p->kind == P_SUCC) {
            r = ctable_probe_in(ct, &v, kind, p->home, keys + p->off + 8, p->q, &at, &dist);
            if (r == 1) {
                found++;
                if (on_edge && on_edge(s->ctx, p->parent, p->t, STORE_NO_REF, 0)) {
                    i = SIZE_MAX;
                    break;
                }
                continue;
            }
            r = add_probed(s, p, r, at, dist);
        } else {
            r = do_step(s, p);
        }
        if (r < 0) {
            i = SIZE_MAX;
            break;
        }
        if (ct->m != v.m) {
            split_again(ct, b, i + 1, nb);
            i++;
            break;
        }
    }
    *known += found;
    return i;
}

static inline __attribute__((always_inline)) size_t
drain_by_kind(search *s, size_t first, size_t end, size_t nb, uint64_t *known, int ahead,
              int (*on_edge)(void *, store_ref, uint32_t, store_ref, int))
{
    switch (ctable_probe_kind(s->ex->ct)) {
    case CTABLE_BY_WORD:
        return drain_steps(s, first, end, nb, known, ahead, CTABLE_BY_WORD, on_edge);
    case CTABLE_BY_PAIR:
        return drain_steps(s, first, end, nb, known, ahead, CTABLE_BY_PAIR, on_edge);
    default:
        return drain_steps(s, first, end, nb, known, ahead, CTABLE_BY_BYTES, on_edge);
    }
}

static inline __attribute__((always_inline)) int
drain_compact(search *s, size_t nb, uint64_t *known,
              int (*on_edge)(void *, store_ref, uint32_t, store_ref, int))
{
    size_t mid = nb > PREFETCH_AHEAD ? nb - PREFETCH_AHEAD : 0;
    for (size_t i = 0; i < nb;) {
        i = i < mid ? drain_by_kind(s, i, mid, nb, known, 1, on_edge)
                    : drain_by_kind(s, i, nb, nb, known, 0, on_edge);
        if (i == SIZE_MAX)
            return -1;
    }
    return 0;
}

/* Stage C. */
static __attribute__((noinline)) int drain_batch(search *s, size_t nb)
{
    explore_t *ex = s->ex;
    const ctable *ct = ex->ct;
    if (!ct) {
        for (size_t i = 0; i < nb; i++)
            if (do_step(s, &ex->batch[i]) < 0)
                return -1;
        return 0;
    }
    for (size_t i = 0; i < nb && i < PREFETCH_AHEAD; i++)
        ctable_prefetch_home(ct, ex->batch[i].home);
    uint64_t known = 0;
    int r = s->v->on_edge ? drain_compact(s, nb, &known, s->v->on_edge)
                          : drain_compact(s, nb, &known, NULL);
    ex->edges += known;
    return r;
}

/* ---- limits and progress ---- */

static const char *out_of_time(explore_t *ex)
{
    const budget_t *b = ex->opt->budget;
    if (*b->interrupted)
        return "interrupted";
    double t = mono_now();
    if (b->deadline && t >= b->deadline)
        return "time limit reached";
    uint64_t n = store_count(ex->st);
    progress_maybe(&ex->prog, t, n, ex->edges, store_bytes(ex->st) + ex->scratch_bytes,
                   n - ex->next_id);
    return NULL;
}

/* ---- the search ---- */

static int add_initial(search *s)
{
    explore_t *ex = s->ex;
    size_t len = store_encode(ex->st, ex->cn->initial, ex->key);
    if (!len) {
        s->why = overflow_reason(ex);
        return -1;
    }
    memcpy(ex->root, ex->key, len);
    ex->root_len = len;
    store_ref ref;
    return add_state(s, ex->key, len, store_key_hash(ex->st, ex->key, len), STORE_NO_REF, 0,
                     &ref) < 0 ? -1 : 0;
}

explore_status explore_bfs(explore_t *ex, const explore_visitor *v, void *ctx, result_t *res)
{
    search s = {ex, v, ctx, NULL};
    ex->name = v->name;
    ex->start = mono_now();
    ex->end_steps = !v->on_expanded ? END_NONE : v->deadlocks_only ? END_DEADLOCKS : END_ALL;
    ex->quiet = !v->on_state && !v->on_edge && !ex->opt->max_states;
    /* untested firings of keys of two words hash them as a pair
     * (fire_steps), which needs verbatim bits: store_new_packed takes a
     * second word only for bits past the first 64, but should a key of
     * two words have none, it is expanded as a marking */
    ex->by_key = ex->kn && !ex->reducer && !(ex->ct && ex->kn->words == 2 && !ex->ct->hi_bits);
    if (ex->opt->verbose && ex->by_key)
        fprintf(stderr, "explore: enabledness on keys, %s\n",
                ex->kn->tab ? "by tables" : ex->kn->ntransitions > 32 ? "tested again on changes"
                                                                      : "tested");
    store_set_deadline(ex->st, ex->opt->budget->deadline);
    progress_start(&ex->prog, ex->opt, ex->name ? ex->name : "explore", "queue", ex->start);
    ex->next = store_first(ex->st);
    ex->run_left = 0;
    int stopped = add_initial(&s) < 0;
    while (!stopped) {
        if ((s.why = out_of_time(ex)) != NULL)
            break;
        size_t nb = fill_batch(ex);
        if (!nb)
            break;
        stopped = drain_batch(&s, nb) < 0;
    }
    res->states = store_count(ex->st);
    res->edges = ex->edges;
    res->peak_bytes = store_peak_bytes(ex->st) + ex->scratch_bytes;
    if (ex->opt->verbose)
        store_print_stats(ex->st, stderr);
    if (s.why) {
        result_unknown(res, s.why);
        return EXPLORE_GAVE_UP;
    }
    return stopped ? EXPLORE_STOPPED : EXPLORE_DONE;
}

/* The store keeps only the transition that reached each state: the
 * parent is the state with that transition's effect taken back, found
 * again in the store.  A run costs a lookup a step, never a byte a state.
 * key (of *len bytes) becomes its parent's; -1 when that is not there. */
static int step_back(const explore_t *ex, uint8_t *key, size_t *len, uint32_t *t, nc_count *m,
                     uint32_t *marked)
{
    const cnet_t *cn = ex->cn;
    if (!store_find_transition(ex->st, key, *len, store_key_hash(ex->st, key, *len), t))
        return -1;
    uint32_t n = store_decode(ex->st, key, m, marked);
    for (uint32_t i = cn->eff_start[*t]; i < cn->eff_start[*t + 1]; i++)
        m[cn->eff_place[i]] -= (nc_count)cn->eff_delta[i];
    *len = store_encode(ex->st, m, key);
    for (uint32_t i = 0; i < n; i++)
        m[marked[i]] = 0;
    for (uint32_t i = cn->eff_start[*t]; i < cn->eff_start[*t + 1]; i++)
        m[cn->eff_place[i]] = 0;
    return *len ? 0 : -1;
}

static int push_step(uint32_t **r, size_t *n, size_t *cap, uint32_t t)
{
    if (GROW(*r, *cap, *n + 1) < 0)
        return -1;
    (*r)[(*n)++] = t;
    return 0;
}

int explore_run(const explore_t *ex, store_ref ref, uint32_t **run, size_t *len)
{
    uint32_t P = ex->cn->nplaces;
    size_t n = 0, cap = 64, klen;
    uint32_t *r = malloc(cap * sizeof *r);
    nc_count *m = calloc(P ? P : 1, sizeof *m);
    uint32_t *marked = calloc(P ? P : 1, sizeof *marked);
    uint8_t *key = calloc(1, store_key_max(ex->st));
    int ok = r && m && marked && key && ref != STORE_NO_REF;
    if (ok) {
        const uint8_t *from = store_key(ex->st, ref, &klen);
        memcpy(key, from, klen);
    }
    /* a marking is reached once: its key is the initial one's only there */
    while (ok && !(klen == ex->root_len && memcmp(key, ex->root, klen) == 0)) {
        uint32_t t;
        ok = step_back(ex, key, &klen, &t, m, marked) == 0 && push_step(&r, &n, &cap, t) == 0;
    }
    free(m);
    free(marked);
    free(key);
    if (!ok) {
        free(r);
        return -1;
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
