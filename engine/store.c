/* store: packed markings in an arena, found again through an
 * open-addressing table (the layout is described in store.h). */
#include "base/clock.h"
#include "engine/bigmem.h"
#include "engine/ctable.h"
#include "engine/store.h"
#include "engine/words.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define REF_MASK ((UINT64_C(1) << STORE_REF_BITS) - 1)
#define HEADER_MAX 5u    /* a varint of (len << 1 | mode) + 1, len < 2^33 */
#define PARENT_BYTES 5u  /* a store_ref */
#define TABLE_MIN ((size_t)1 << 12)
#define HUGE_PAGE BIGMEM_HUGE_PAGE
#define SLACK 8u         /* bytes behind every key, see bitmap_word */

struct store {
    uint32_t nplaces;
    size_t bitmap_bytes;        /* (P + 7) / 8 */
    size_t safe_header;         /* header length of every mode-0 key */
    size_t key_max, rec_max;
    int keep;                   /* store_keep: what a record has beside its key */

    size_t budget, bytes, peak;

    uint64_t *slots;
    size_t nslots;              /* a power of two */
    size_t used, grow_at, full_at;
    double deadline;            /* store_set_deadline; 0: none */
    double grow_seconds;        /* how long the last doubling took */
    double grow_total;          /* all of a compact table's growths, and */
    unsigned grows;             /* how many (-v) */
    int declined;               /* a doubling was skipped for the deadline */

    uint8_t **blocks;
    size_t *fill;               /* bytes written into each block left behind */
    size_t nblocks, cap_blocks, max_blocks;
    unsigned block_shift;
    size_t block_size;
    size_t wpos;                /* write position in the last block */

    uint64_t count, record_bytes;
    /* place bitmaps "marked" and "count > 1": of the key being built, and
     * of the base marking successors are patched from */
    size_t words;
    uint64_t *nz, *gt, *base_nz, *base_gt, *tmpw;

    /* fixed-width keys (store_new_packed): place p's count is the field of
     * pmax[p]'s bits at bit pshift[p] of word pword[p]; the key is the
     * pwords words, little-endian, cut to plen bytes */
    int packed;
    size_t pwords, plen;
    uint32_t *pword;
    uint8_t *pshift;
    uint64_t *pmax;             /* per place: the largest count its field holds */
    uint64_t *pbase;            /* the base marking's key, as words */
    uint64_t *phigh;            /* the bits of every field but its lowest,
                                 * groups' fields left out */
    uint64_t *pgroupbits;       /* the bits of the groups' fields */
    uint32_t *powner;           /* per key bit: the place whose field holds it */
    uint64_t *ptmp;             /* a key being built */
    uint64_t plast_mask;        /* the bytes of the last word the key keeps */
    unsigned pspan;             /* bits from the first to the last field's end */
    int bound_broken;
    /* one-hot groups (onehot.h): the places of group g share one field,
     * whose value is the number of the one holding the token */
    uint32_t ngroups;
    uint32_t *pgroup;           /* per place: 0, or its group */
    uint32_t *pindex;           /* per grouped place: its number */
    uint32_t *gstart;           /* group g's places by number: gplace from */
    uint32_t *gplace;           /*   gstart[g - 1] to gstart[g] */
    uint32_t *gseen;            /* per group: places marked (packed_encode) */

    /* compact stores (store_new_compact): the set, with the transitions,
     * is a ctable; the arena only queues keys, and is freed behind the
     * search (store_release) */
    int compact, ct_values;
    ctable ct;
    size_t ct_size;             /* bytes of ct.slots */
    uint64_t ct_grow_at, ct_full_at;
    size_t released;            /* the blocks before this one are freed */
    size_t queue_peak;          /* most arena blocks held at once, in bytes */
    int ct_broken;              /* a move failed halfway: nothing is left */
};

/* ---- little helpers ---- */

static inline size_t varint_len(uint64_t v)
{
    size_t n = 1;
    while (v >= 0x80) {
        v >>= 7;
        n++;
    }
    return n;
}

static inline uint8_t *varint_put(uint8_t *p, uint64_t v)
{
    while (v >= 0x80) {
        *p++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *p++ = (uint8_t)v;
    return p;
}

static inline uint64_t varint_get(const uint8_t **pp)
{
    const uint8_t *p = *pp;
    uint64_t v = 0;
    unsigned shift = 0;
    uint8_t b;
    do {
        b = *p++;
        v |= (uint64_t)(b & 0x7f) << shift;
        shift += 7;
    } while (b & 0x80);
    *pp = p;
    return v;
}

/* The bitmap's bits [8 * at, 8 * at + 64) as a word whose bit i is bit i
 * of the bitmap.  Reads 8 bytes: every key buffer and arena block has 8
 * bytes of slack behind its end. */
static inline uint64_t bitmap_word(const uint8_t *p, size_t avail)
{
    uint64_t w = word_load(p);
    if (avail < 8)
        w &= (UINT64_C(1) << (8 * avail)) - 1;
    return w;
}

/* Keys are short and hashed once per edge: one multiply per 8 bytes and a
 * full avalanche at the end is enough for linear probing. */
uint64_t store_hash(const uint8_t *key, size_t len)
{
    return word_mix(word_hash(key, len, UINT64_C(0x9e3779b97f4a7c15) ^ len));
}

/* ---- memory ---- */

static int account(store_t *st, size_t more)
{
    if (more > st->budget || st->bytes > st->budget - more)
        return -1;
    st->bytes += more;
    if (st->bytes > st->peak)
        st->peak = st->bytes;
    return 0;
}

static void unaccount(store_t *st, size_t less)
{
    st->bytes -= less;
}

/* ---- arena ---- */

static uint8_t *block_of(const store_t *st, store_ref ref)
{
    return st->blocks[ref >> st->block_shift] + (ref & (st->block_size - 1));
}

static int arena_add_block(store_t *st)
{
    if (st->nblocks == st->max_blocks)
        return -1;
    if (st->nblocks == st->cap_blocks) {
        size_t cap = st->cap_blocks ? 2 * st->cap_blocks : 64;
        size_t more = (cap - st->cap_blocks) * (sizeof *st->blocks + sizeof *st->fill);
        if (account(st, more) < 0)
            return -1;
        uint8_t **b = realloc(st->blocks, cap * sizeof *b);
        if (b)
            st->blocks = b;
        size_t *f = b ? realloc(st->fill, cap * sizeof *f) : NULL;
        if (!f) {
            unaccount(st, more);
            return -1;
        }
        st->fill = f;
        st->cap_blocks = cap;
    }
    if (account(st, st->block_size) < 0)
        return -1;
    uint8_t *blk = big_alloc(st->block_size);
    if (!blk) {
        unaccount(st, st->block_size);
        return -1;
    }
    st->blocks[st->nblocks++] = blk;
    st->wpos = 0;
    size_t held = (st->nblocks - st->released) * st->block_size;
    st->queue_peak = held > st->queue_peak ? held : st->queue_peak;
    return 0;
}

/* Room for size bytes at the end of the arena; a block left early keeps
 * its fill, where walking the records jumps to the next block. */
static int arena_reserve(store_t *st, size_t size, store_ref *ref)
{
    if (!st->nblocks || st->wpos + size > st->block_size - SLACK) {
        size_t last = st->nblocks, keep = st->wpos;
        if (arena_add_block(st) < 0)
            return -1;
        if (last)
            st->fill[last - 1] = keep;
    }
    *ref = ((store_ref)(st->nblocks - 1) << st->block_shift) + st->wpos;
    return 0;
}

store_ref store_first(const store_t *st)
{
    (void)st;
    return 0;
}

static store_ref arena_end(const store_t *st)
{
    if (!st->nblocks)
        return 0;
    return ((store_ref)(st->nblocks - 1) << st->block_shift) + st->wpos;
}

int store_more(const store_t *st, store_ref *ref)
{
    store_ref end = arena_end(st);
    if (*ref == end)
        return 0;
    size_t blk = (size_t)(*ref >> st->block_shift);
    if (blk + 1 < st->nblocks && (*ref & (st->block_size - 1)) == st->fill[blk]) {
        *ref = (store_ref)(blk + 1) << st->block_shift;
        return *ref != end;
    }
    return 1;
}

static size_t key_length(const store_t *st, const uint8_t *key)
{
    if (st->packed)
        return st->plen;
    const uint8_t *p = key;
    uint64_t v = varint_get(&p) - 1;
    return (size_t)(p - key) + (size_t)(v >> 1);
}

static size_t record_size(const store_t *st, const uint8_t *rec)
{
    const uint8_t *p = rec + key_length(st, rec);
    if (st->keep == STORE_PARENTS)
        p += PARENT_BYTES;
    if (st->keep != STORE_KEYS)
        (void)varint_get(&p);
    return (size_t)(p - rec);
}

store_ref store_after(const store_t *st, store_ref ref)
{
    return ref + record_size(st, block_of(st, ref));
}

int store_next(const store_t *st, store_ref *ref, const uint8_t **key, store_ref *after)
{
    if (!store_more(st, ref))
        return 0;
    *key = block_of(st, *ref);
    /* compact stores keep keys only, of one length */
    *after = *ref + (st->compact ? st->plen : record_size(st, *key));
    return 1;
}

size_t store_next_keys(const store_t *st, store_ref *ref, const uint8_t **key)
{
    if (!st->compact || !store_more(st, ref))
        return 0;
    size_t blk = (size_t)(*ref >> st->block_shift);
    size_t end = blk + 1 < st->nblocks ? st->fill[blk] : st->wpos;
    *key = block_of(st, *ref);
    return (end - (size_t)(*ref & (st->block_size - 1))) / st->plen;
}

/* ---- table ---- */

static void set_thresholds(store_t *st)
{
    st->grow_at = st->nslots / 4 * 3;
    st->full_at = st->nslots / 10 * 9;
}

static void table_place(uint64_t *slots, size_t mask, uint64_t hash, store_ref ref)
{
    size_t i = (size_t)hash & mask;
    while (slots[i])
        i = (i + 1) & mask;
    slots[i] = (hash >> STORE_REF_BITS << STORE_REF_BITS) | (ref + 1);
}

/* Doubling rehashes from the arena, which is read in order: cheaper than
 * chasing every slot's record at random. */
void store_set_deadline(store_t *st, double deadline)
{
    st->deadline = deadline;
}

/* The next doubling handles twice the states of the last one. */
static int grow_in_time(const store_t *st)
{
    return !(st->deadline > 0) || mono_now() + 2 * st->grow_seconds <= st->deadline;
}

static int table_grow(store_t *st)
{
    double start = mono_now();
    size_t n = st->nslots * 2;
    if (n > SIZE_MAX / sizeof(uint64_t) || account(st, n * sizeof(uint64_t)) < 0)
        return -1;
    uint64_t *slots = big_alloc(n * sizeof *slots);
    if (!slots) {
        unaccount(st, n * sizeof(uint64_t));
        return -1;
    }
    /* in groups, so that the cache misses of a group overlap */
    enum { GROUP = 32, GROUPS_PER_CLOCK = 1024 };
    uint64_t hash[GROUP];
    store_ref ref[GROUP], r = store_first(st);
    for (unsigned groups = 0;; groups++) {
        /* The time a doubling takes is foreseen from the last one, but
         * first touching a bigger mapping can cost more per slot than the
         * last doubling did (fresh pages are backed as they are touched):
         * one that runs into the deadline is given up, the old table
         * kept. */
        if (groups % GROUPS_PER_CLOCK == GROUPS_PER_CLOCK - 1 && st->deadline > 0 &&
            mono_now() > st->deadline) {
            big_free(slots, n * sizeof(uint64_t));
            unaccount(st, n * sizeof(uint64_t));
            st->declined = 1;
            return -1;
        }
        unsigned g = 0;
        for (; g < GROUP && store_more(st, &r); g++, r = store_after(st, r)) {
            const uint8_t *key = block_of(st, r);
            ref[g] = r;
            hash[g] = store_hash(key, key_length(st, key));
            __builtin_prefetch(&slots[(size_t)hash[g] & (n - 1)], 1);
        }
        for (unsigned i = 0; i < g; i++)
            table_place(slots, n - 1, hash[i], ref[i]);
        if (g < GROUP)
            break;
    }
    big_free(st->slots, st->nslots * sizeof(uint64_t));
    unaccount(st, st->nslots * sizeof(uint64_t));
    st->slots = slots;
    st->nslots = n;
    set_thresholds(st);
    st->grow_seconds = mono_now() - start;
    return 0;
}

static int key_equal(const store_t *st, const uint8_t *rec, const uint8_t *key, size_t len)
{
    if (st->packed)
        return memcmp(rec, key, len) == 0;
    size_t i = 0;
    do {
        if (rec[i] != key[i])
            return 0;
    } while (key[i++] & 0x80);
    /* equal headers: equal lengths, so rec holds len bytes too */
    return memcmp(rec + i, key + i, len - i) == 0;
}

static void write_record(store_t *st, store_ref ref, const uint8_t *key, size_t len,
                         store_ref parent, uint32_t transition)
{
    uint8_t *p = block_of(st, ref);
    memcpy(p, key, len);
    p += len;
    if (st->keep == STORE_PARENTS)
        for (unsigned i = 0; i < PARENT_BYTES; i++)
            *p++ = (uint8_t)(parent >> (8 * i));
    if (st->keep != STORE_KEYS)
        p = varint_put(p, transition);
    size_t size = (size_t)(p - block_of(st, ref));
    st->wpos += size;
    st->record_bytes += size;
}

/* The slot holding key, or the empty slot where it would go. */
static inline size_t probe(const store_t *st, const uint8_t *key, size_t len, uint64_t hash)
{
    uint64_t tag = hash >> STORE_REF_BITS;
    size_t mask = st->nslots - 1, i = (size_t)hash & mask;
    for (uint64_t s; (s = st->slots[i]) != 0; i = (i + 1) & mask)
        if ((s >> STORE_REF_BITS) == tag && key_equal(st, block_of(st, (s & REF_MASK) - 1), key, len))
            break;
    return i;
}

static int compact_insert(store_t *st, const uint8_t *key, size_t len, uint64_t hash,
                          uint32_t transition, store_ref *ref);

int store_insert(store_t *st, const uint8_t *key, size_t len, uint64_t hash,
                 store_ref parent, uint32_t transition, store_ref *ref)
{
    if (st->compact)
        return compact_insert(st, key, len, hash, transition, ref);
    uint64_t tag = hash >> STORE_REF_BITS;
    size_t mask, i = probe(st, key, len, hash);
    if (st->slots[i]) {
        *ref = (st->slots[i] & REF_MASK) - 1;
        return 0;
    }
    if (st->used + 1 > st->grow_at) {
        if (!grow_in_time(st))
            st->declined = 1;
        /* squeeze the table instead */
        if (st->declined || table_grow(st) < 0)
            st->grow_at = st->full_at;
        if (st->used + 1 > st->full_at)
            return st->declined ? STORE_OUT_OF_TIME : -1;
        mask = st->nslots - 1;
        for (i = (size_t)hash & mask; st->slots[i]; i = (i + 1) & mask)
            ;
    }
    size_t size = len + (st->keep == STORE_PARENTS ? PARENT_BYTES : 0) +
                  (st->keep != STORE_KEYS ? varint_len(transition) : 0);
    store_ref r;
    if (arena_reserve(st, size, &r) < 0)
        return -1;
    write_record(st, r, key, len, parent, transition);
    st->slots[i] = (tag << STORE_REF_BITS) | (r + 1);
    st->used++;
    st->count++;
    *ref = r;
    return 1;
}

int store_number(store_t *st, const uint8_t *key, size_t len, uint64_t next, uint64_t *number,
                 store_ref *ref)
{
    int r = store_insert(st, key, len, store_hash(key, len), next, 0, ref);
    if (r < 0)
        return r;
    if (r == 1) {
        *number = next;
        return 1;
    }
    uint32_t unused;
    return store_parent(st, *ref, number, &unused) < 0 ? -1 : 0;
}

void store_prefetch_slot(const store_t *st, uint64_t hash)
{
    if (st->compact) {
        ctable_prefetch(&st->ct, hash);
        return;
    }
    __builtin_prefetch(&st->slots[(size_t)hash & (st->nslots - 1)]);
}

void store_prefetch_record(const store_t *st, uint64_t hash)
{
    if (st->compact)   /* nothing beside the slot to touch */
        return;
    uint64_t tag = hash >> STORE_REF_BITS;
    size_t mask = st->nslots - 1;
    for (size_t i = (size_t)hash & mask, s; (s = st->slots[i]) != 0; i = (i + 1) & mask) {
        if ((s >> STORE_REF_BITS) == tag) {
            __builtin_prefetch(block_of(st, (s & REF_MASK) - 1));
            return;
        }
    }
}

const uint8_t *store_key(const store_t *st, store_ref ref, size_t *len)
{
    const uint8_t *key = block_of(st, ref);
    if (len)
        *len = key_length(st, key);
    return key;
}

int store_find(const store_t *st, const uint8_t *key, size_t len, uint64_t hash, store_ref *ref)
{
    if (st->compact)
        return 0;
    uint64_t s = st->slots[probe(st, key, len, hash)];
    if (s)
        *ref = (s & REF_MASK) - 1;
    return s != 0;
}

int store_transition(const store_t *st, store_ref ref, uint32_t *transition)
{
    if (st->compact) {
        const uint8_t *key = block_of(st, ref);
        return st->ct_values && !st->ct_broken &&
                       ctable_find(&st->ct, key, ctable_hash(&st->ct, key), transition)
                   ? 0 : -1;
    }
    if (st->keep == STORE_KEYS)
        return -1;
    const uint8_t *p = block_of(st, ref);
    p += key_length(st, p);
    if (st->keep == STORE_PARENTS)
        p += PARENT_BYTES;
    *transition = (uint32_t)varint_get(&p);
    return 0;
}

int store_parent(const store_t *st, store_ref ref, store_ref *parent, uint32_t *transition)
{
    if (st->keep != STORE_PARENTS)
        return -1;
    const uint8_t *p = block_of(st, ref);
    p += key_length(st, p);
    store_ref r = 0;
    for (unsigned i = 0; i < PARENT_BYTES; i++)
        r |= (store_ref)p[i] << (8 * i);
    *parent = r;
    return store_transition(st, ref, transition);
}

/* ---- encoding ----
 *
 * Every key is emitted from two place-indexed bitmaps, "marked" and
 * "count > 1", plus the marking for the counts.  A successor differs from
 * the state being expanded in the few places its transition changes, so
 * its bitmaps are the base's with those bits patched: the cost per edge is
 * P/64 words plus the changed places plus the places above 1, never P. */


static void put_bitmap(uint8_t *p, const uint64_t *words, size_t n)
{
    for (size_t w = 0; w < n; w++)
        word_store(p + 8 * w, words[w]);
}

/* Mode 1 tail at q: the "count > 1" bit of each marked place, by rank
 * among the marked places, then the counts - 2.  Returns its end. */
static uint8_t *mode1_tail(const store_t *st, const nc_count *m, uint8_t *q)
{
    size_t marked = 0, i = 0;
    for (size_t w = 0; w < st->words; w++)
        marked += popcount64(st->nz[w]);
    uint8_t *gp = q, *vp = q + (marked + 7) / 8;
    uint64_t acc = 0;
    for (size_t w = 0; w < st->words; w++) {
        uint64_t gt = st->gt[w];
        for (uint64_t bits = st->nz[w]; bits; bits &= bits - 1) {
            unsigned b = (unsigned)__builtin_ctzll(bits);
            acc |= ((gt >> b) & 1) << (i & 63);
            if ((++i & 63) == 0) {
                word_store(gp, acc);   /* spills into the varints, written next */
                gp += 8;
                acc = 0;
            }
        }
    }
    if (i & 63)
        word_store(gp, acc);
    for (size_t w = 0; w < st->words; w++)
        for (uint64_t bits = st->gt[w]; bits; bits &= bits - 1)
            vp = varint_put(vp, m[w * 64 + (size_t)__builtin_ctzll(bits)] - 2);
    return vp;
}

/* The key of the marking m whose bitmaps are in st->nz and st->gt.  The
 * body goes behind a header of mode-0 length; a longer mode-1 header
 * (bodies of 63 bytes or more) moves it. */
static size_t emit(store_t *st, const nc_count *m, uint8_t *buf)
{
    uint64_t big = 0;
    for (size_t w = 0; w < st->words; w++)
        big |= st->gt[w];
    size_t bm = st->bitmap_bytes, h0 = st->safe_header;
    put_bitmap(buf + h0, st->nz, st->words);
    if (!big) {
        varint_put(buf, ((uint64_t)bm << 1) + 1);
        return h0 + bm;
    }
    size_t len = (size_t)(mode1_tail(st, m, buf + h0 + bm) - (buf + h0));
    uint64_t v = ((uint64_t)len << 1 | 1) + 1;
    size_t hl = varint_len(v);
    if (hl != h0)
        memmove(buf + hl, buf + h0, len);
    varint_put(buf, v);
    return hl + len;
}

static inline void set_bit(uint64_t *words, uint32_t p, int on)
{
    uint64_t bit = UINT64_C(1) << (p & 63);
    words[p >> 6] = (words[p >> 6] & ~bit) | (on ? bit : 0);
}

/* ---- fixed-width keys ----
 *
 * With a proven bound for every place, a marking is a vector of bit
 * fields, and the successor under t is the key plus t's effect shifted
 * into each field: a few word additions, whatever the counts.  Fields
 * never straddle words, so no carry or borrow crosses a field as long as
 * every count stays within its field; each changed count is checked
 * against its field all the same, so that a bound that did not hold would
 * end the search instead of corrupting a neighbouring field. */

static inline uint64_t key_word(const store_t *st, const uint8_t *key, size_t w)
{
    uint64_t x = bitmap_word(key + 8 * w, 8);
    return w + 1 == st->pwords ? x & st->plast_mask : x;
}

/* p's one-hot group, or 0. */
static inline uint32_t group_of(const store_t *st, uint32_t p)
{
    return st->ngroups ? st->pgroup[p] : 0;
}

/* The largest count p may hold: a grouped place has the token or not. */
static inline uint64_t count_max(const store_t *st, uint32_t p)
{
    return group_of(st, p) ? 1 : st->pmax[p];
}

static size_t packed_emit(const store_t *st, const uint64_t *words, uint8_t *buf)
{
    for (size_t w = 0; w < st->pwords; w++)
        word_store(buf + 8 * w, words[w]);
    return st->plen;
}

static size_t packed_encode(store_t *st, const nc_count *m, uint8_t *buf)
{
    uint64_t *k = st->ptmp;
    memset(k, 0, st->pwords * sizeof *k);
    if (st->ngroups)
        memset(st->gseen, 0, st->ngroups * sizeof *st->gseen);
    for (uint32_t p = 0; p < st->nplaces; p++) {
        uint32_t g = group_of(st, p);
        if (m[p] > count_max(st, p)) {
            st->bound_broken = 1;
            return 0;
        }
        if (g && m[p])
            st->gseen[g - 1]++;
        k[st->pword[p]] |= (uint64_t)(g ? m[p] * st->pindex[p] : m[p]) << st->pshift[p];
    }
    /* a group's token is always somewhere, and in one place */
    for (uint32_t g = 0; g < st->ngroups; g++)
        if (st->gseen[g] != 1) {
            st->bound_broken = 1;
            return 0;
        }
    return packed_emit(st, k, buf);
}

size_t store_encode(store_t *st, const nc_count *m, uint8_t *buf)
{
    if (st->packed)
        return packed_encode(st, m, buf);
    memset(st->nz, 0, st->words * sizeof *st->nz);
    memset(st->gt, 0, st->words * sizeof *st->gt);
    for (uint32_t p = 0; p < st->nplaces; p++) {
        set_bit(st->nz, p, m[p] != 0);
        set_bit(st->gt, p, m[p] > 1);
    }
    return emit(st, m, buf);
}

void store_set_base(store_t *st, const nc_count *m, const uint32_t *marked, uint32_t n)
{
    if (st->packed) {
        memset(st->pbase, 0, st->pwords * sizeof *st->pbase);
        for (uint32_t i = 0; i < n; i++) {
            uint32_t p = marked[i];
            uint64_t v = group_of(st, p) ? st->pindex[p] : m[p];
            st->pbase[st->pword[p]] |= v << st->pshift[p];
        }
        return;
    }
    uint64_t *nz = st->base_nz, *gt = st->base_gt;
    if (st->words == 1)
        nz[0] = gt[0] = 0;
    else
        for (size_t w = 0; w < st->words; w++)
            nz[w] = gt[w] = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t p = marked[i];
        nz[p >> 6] |= UINT64_C(1) << (p & 63);
        gt[p >> 6] |= (uint64_t)(m[p] > 1) << (p & 63);
    }
}

/* The place of group g whose number is the value of field mask in word.
 * A field's values past its group's places never occur: the group holds
 * its one token in every marking that is encoded (packed_encode). */
static inline uint32_t group_place(const store_t *st, uint32_t g, uint64_t word, uint64_t mask,
                                   unsigned shift)
{
    return st->gplace[st->gstart[g - 1] + ((word & mask) >> shift)];
}

/* The fields of key word w (whose bits are word) that have a bit in
 * bits: each one's count into m and its place into places[n...]; returns
 * the new n.  Only the named fields cost: a field's lowest bit in bits
 * names it.  A group's field names the place with the token; when old is
 * not NULL, the word's bits before (a rebase), the place that had it too,
 * its count 0. */
static inline uint32_t read_fields(const store_t *st, size_t w, uint64_t word, uint64_t bits,
                                   const uint64_t *old, nc_count *m, uint32_t *places, uint32_t n)
{
    while (bits) {
        uint32_t p = st->powner[w * 64 + (size_t)__builtin_ctzll(bits)];
        uint64_t mask = st->pmax[p] << st->pshift[p];
        uint32_t g = group_of(st, p);
        bits &= ~mask;
        if (g) {
            if (old) {
                uint32_t from = group_place(st, g, *old, mask, st->pshift[p]);
                m[from] = 0;
                places[n++] = from;
            }
            uint32_t to = group_place(st, g, word, mask, st->pshift[p]);
            m[to] = 1;
            places[n++] = to;
            continue;
        }
        m[p] = (word & mask) >> st->pshift[p];
        places[n++] = p;
    }
    return n;
}

uint32_t store_rebase(store_t *st, const uint8_t *key, nc_count *m, uint32_t *changed)
{
    uint32_t n = 0;
    for (size_t w = 0; w < st->pwords; w++) {
        uint64_t word = key_word(st, key, w);
        n = read_fields(st, w, word, word ^ st->pbase[w], &st->pbase[w], m, changed, n);
        st->pbase[w] = word;
    }
    return n;
}

/* The successor's bits of the changed places; 0 when a count would pass
 * NC_COUNT_MAX (no sum wraps: both terms are at most 2^63 - 1).  Inlined
 * so that one-word bitmaps stay in registers. */
static inline __attribute__((always_inline)) int patch(uint64_t *nz, uint64_t *gt,
                                                       const nc_count *m, const uint32_t *place,
                                                       const int64_t *delta, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t p = place[i];
        nc_count c = m[p] + (nc_count)delta[i];
        if (c > NC_COUNT_MAX)
            return 0;
        uint64_t bit = UINT64_C(1) << (p & 63);
        nz[p >> 6] = (nz[p >> 6] & ~bit) | ((uint64_t)(c != 0) << (p & 63));
        gt[p >> 6] = (gt[p >> 6] & ~bit) | ((uint64_t)(c > 1) << (p & 63));
    }
    return 1;
}

static size_t packed_succ(store_t *st, const nc_count *m, const uint32_t *place,
                          const int64_t *delta, size_t n, uint8_t *buf)
{
    uint64_t *k = st->ptmp;
    for (size_t w = 0; w < st->pwords; w++)
        k[w] = st->pbase[w];
    for (size_t i = 0; i < n; i++) {
        uint32_t p = place[i];
        uint32_t g = group_of(st, p);
        /* a count below zero wraps to a huge one and is caught too */
        if (m[p] + (nc_count)delta[i] > count_max(st, p)) {
            st->bound_broken = 1;
            return 0;
        }
        /* the token moves within the group: the sum of the changes of
         * its places' numbers is the field's change */
        k[st->pword[p]] += (uint64_t)(g ? delta[i] * (int64_t)st->pindex[p] : delta[i])
                           << st->pshift[p];
    }
    return packed_emit(st, k, buf);
}

size_t store_encode_succ(store_t *st, nc_count *m, const uint32_t *place, const int64_t *delta,
                         size_t n, uint8_t *buf)
{
    if (st->packed)
        return packed_succ(st, m, place, delta, n, buf);
    uint64_t big = 0;
    if (st->words == 1) {   /* up to 64 places: in registers */
        uint64_t nz = st->base_nz[0], gt = st->base_gt[0];
        if (!patch(&nz, &gt, m, place, delta, n))
            return 0;
        if (!gt) {
            word_store(buf + st->safe_header, nz);
            varint_put(buf, ((uint64_t)st->bitmap_bytes << 1) + 1);
            return st->safe_header + st->bitmap_bytes;
        }
        st->nz[0] = nz;
        big = st->gt[0] = gt;
    } else {
        for (size_t w = 0; w < st->words; w++) {
            st->nz[w] = st->base_nz[w];
            st->gt[w] = st->base_gt[w];
        }
        if (!patch(st->nz, st->gt, m, place, delta, n))
            return 0;
        for (size_t w = 0; w < st->words; w++)
            big |= st->gt[w];
    }
    if (!big)
        return emit(st, m, buf);
    /* counts are needed: m becomes the successor for a moment */
    for (size_t i = 0; i < n; i++)
        m[place[i]] += (nc_count)delta[i];
    size_t len = emit(st, m, buf);
    for (size_t i = 0; i < n; i++)
        m[place[i]] -= (nc_count)delta[i];
    return len;
}

static uint32_t packed_decode(const store_t *st, const uint8_t *key, nc_count *m,
                              uint32_t *marked)
{
    uint32_t n = 0;
    for (size_t w = 0; w < st->pwords; w++) {
        uint64_t word = key_word(st, key, w);
        /* a group's field is read even when 0: its place 0 has the token */
        n = read_fields(st, w, word, word | st->pgroupbits[w], NULL, m, marked, n);
    }
    return n;
}

uint32_t store_decode(const store_t *st, const uint8_t *key, nc_count *m, uint32_t *marked)
{
    if (st->packed)
        return packed_decode(st, key, m, marked);
    const uint8_t *p = key;
    uint64_t v = varint_get(&p) - 1;
    size_t bm = st->bitmap_bytes;
    uint32_t n = 0;
    for (size_t w = 0; w < bm; w += 8) {
        for (uint64_t word = bitmap_word(p + w, bm - w); word; word &= word - 1) {
            uint32_t place = (uint32_t)(w * 8 + (size_t)__builtin_ctzll(word));
            m[place] = 1;
            marked[n++] = place;
        }
    }
    if (v & 1) {
        const uint8_t *gt = p + bm, *vp = gt + (n + 7) / 8;
        for (uint32_t i = 0; i < n; i++)
            if (gt[i >> 3] >> (i & 7) & 1)
                m[marked[i]] = varint_get(&vp) + 2;
    }
    return n;
}

/* ---- life cycle ---- */

/* A record is a key, the parent's ref and a transition of at most 5 bytes. */
static void set_key_max(store_t *st, size_t key_max)
{
    st->key_max = key_max;
    st->rec_max = key_max + PARENT_BYTES + 5;
}

/* Blocks of 2^shift bytes, or more when a record could be larger. */
static void set_block_size(store_t *st, unsigned shift)
{
    st->block_shift = shift;
    while (((size_t)1 << st->block_shift) < STORE_BLOCK_MIN ||
           ((size_t)1 << st->block_shift) < 2 * st->rec_max)
        st->block_shift++;
    st->block_size = (size_t)1 << st->block_shift;
    st->max_blocks = ((size_t)1 << (STORE_REF_BITS - st->block_shift)) - 1;
}

/* A compact store needs no table of refs, and queues in small blocks:
 * the queue is only read and written in order, where huge pages gain
 * nothing, and small blocks are freed sooner behind the search. */
static store_t *store_create(uint32_t nplaces, size_t budget, store_keep keep, int compact)
{
    store_t *st = calloc(1, sizeof *st);
    if (!st)
        return NULL;
    st->nplaces = nplaces;
    st->keep = keep;
    st->budget = budget;
    st->bitmap_bytes = ((size_t)nplaces + 7) / 8;
    st->words = nplaces ? ((size_t)nplaces + 63) / 64 : 1;
    st->safe_header = varint_len(((uint64_t)st->bitmap_bytes << 1) + 1);
    /* header, bitmap, "> 1" bits, 9-byte varints, and slack for word
     * loads past the end of a key being built */
    set_key_max(st, HEADER_MAX + 2 * st->bitmap_bytes + 9 * (size_t)nplaces + 8);
    /* big budgets get blocks of one huge page */
    set_block_size(st, !compact && budget >= ((size_t)256 << 20) ? 21 : 18);
    st->compact = compact;
    st->nslots = compact ? 0 : TABLE_MIN;
    set_thresholds(st);
    if (account(st, sizeof *st + st->nslots * sizeof(uint64_t)) < 0 ||
        (!compact && !(st->slots = calloc(st->nslots, sizeof(uint64_t)))) ||
        !(st->nz = calloc(5 * st->words, sizeof(uint64_t))) || arena_add_block(st) < 0) {
        store_free(st);
        return NULL;
    }
    st->gt = st->nz + st->words;
    st->base_nz = st->nz + 2 * st->words;
    st->base_gt = st->nz + 3 * st->words;
    st->tmpw = st->nz + 4 * st->words;
    return st;
}

/* The groups' places by number (pindex, gstart, gplace), numbered in
 * place order; -1 on no memory or a group of fewer than two places. */
static int group_layout(store_t *st, const uint32_t *group)
{
    uint32_t P = st->nplaces, G = 0;
    for (uint32_t p = 0; p < P; p++)
        G = group[p] > G ? group[p] : G;
    st->pgroup = calloc(P ? P : 1, sizeof *st->pgroup);
    st->pindex = calloc(P ? P : 1, sizeof *st->pindex);
    st->gstart = calloc((size_t)G + 1, sizeof *st->gstart);
    st->gplace = calloc(P ? P : 1, sizeof *st->gplace);
    st->gseen = calloc((size_t)G + 1, sizeof *st->gseen);
    if (!st->pgroup || !st->pindex || !st->gstart || !st->gplace || !st->gseen)
        return -1;
    /* gseen counts each group's places first, gstart[g] then ends group g */
    for (uint32_t p = 0; p < P; p++)
        if (group[p])
            st->gseen[group[p] - 1]++;
    for (uint32_t g = 0; g < G; g++) {
        if (st->gseen[g] < 2)
            return -1;
        st->gstart[g + 1] = st->gstart[g] + st->gseen[g];
        st->gseen[g] = 0;
    }
    for (uint32_t p = 0; p < P; p++) {
        uint32_t g = group[p];
        st->pgroup[p] = g;
        if (g) {
            st->pindex[p] = st->gseen[g - 1]++;
            st->gplace[st->gstart[g - 1] + st->pindex[p]] = p;
        }
    }
    st->ngroups = G;
    return 0;
}

/* Fields in place order, each in the first word it fits whole; a group's
 * field where its first place is. */
static int packed_layout(store_t *st, const uint8_t *bits, const uint32_t *group)
{
    size_t P = st->nplaces, w = 0, used = 0;
    st->pword = calloc(P ? P : 1, sizeof *st->pword);
    st->pshift = calloc(P ? P : 1, 1);
    st->pmax = calloc(P ? P : 1, sizeof *st->pmax);
    if (!st->pword || !st->pshift || !st->pmax || (group && group_layout(st, group) < 0))
        return -1;
    for (size_t p = 0; p < P; p++) {
        unsigned b = bits[p];
        uint32_t g = group_of(st, p);
        if (g && st->pindex[p]) {   /* the group's field is laid out */
            uint32_t first = st->gplace[st->gstart[g - 1]];
            st->pword[p] = st->pword[first];
            st->pshift[p] = st->pshift[first];
            st->pmax[p] = st->pmax[first];
            continue;
        }
        if (g) {   /* the numbers of its places */
            uint32_t n = st->gstart[g] - st->gstart[g - 1];
            b = 32u - (unsigned)__builtin_clz(n - 1);
        }
        if (b > STORE_PACKED_BITS_MAX)
            return -1;
        if (b && used + b > 64) {
            w++;
            used = 0;
        }
        /* a field of no bits sits nowhere: its shift must stay below 64,
         * since its count (always 0) is still shifted */
        st->pword[p] = b ? (uint32_t)w : 0;
        st->pshift[p] = b ? (uint8_t)used : 0;
        st->pmax[p] = b ? (UINT64_C(1) << b) - 1 : 0;
        used += b;
    }
    st->pwords = w + 1;
    st->pspan = (unsigned)(64 * w + used);
    size_t last = (used + 7) / 8;
    /* a record is never empty: walking the arena steps by record sizes */
    if (st->pwords == 1 && last == 0)
        last = 1;
    st->plen = 8 * w + last;
    st->plast_mask = last == 8 ? UINT64_MAX : (UINT64_C(1) << (8 * last)) - 1;
    st->pbase = calloc(4 * st->pwords, sizeof *st->pbase);
    st->powner = calloc(64 * st->pwords, sizeof *st->powner);
    if (!st->pbase || !st->powner)
        return -1;
    st->phigh = st->pbase + st->pwords;
    st->ptmp = st->pbase + 2 * st->pwords;
    st->pgroupbits = st->pbase + 3 * st->pwords;
    for (size_t p = 0; p < P; p++) {
        uint32_t g = group_of(st, p);
        if (g && st->pindex[p])
            continue;
        unsigned width = st->pmax[p] ? 64u - (unsigned)__builtin_clzll(st->pmax[p]) : 0u;
        for (unsigned i = 0; i < width; i++) {
            uint64_t bit = UINT64_C(1) << (st->pshift[p] + i);
            st->powner[64 * st->pword[p] + st->pshift[p] + i] = (uint32_t)p;
            if (g)
                st->pgroupbits[st->pword[p]] |= bit;
            else if (i)
                st->phigh[st->pword[p]] |= bit;
        }
    }
    /* the buffers of keys in flight hold whole words (the blocks, sized
     * for variable keys of at least 9 bytes per place, fit these) */
    if (st->key_max < 8 * st->pwords + SLACK) {
        set_key_max(st, 8 * st->pwords + SLACK);
        if (st->block_size < 2 * st->rec_max)
            return -1;
    }
    st->packed = 1;
    return 0;
}

store_t *store_new(uint32_t nplaces, size_t budget, store_keep keep)
{
    return store_create(nplaces, budget, keep, 0);
}

static store_t *create_packed(uint32_t nplaces, const uint8_t *bits, const uint32_t *group,
                              size_t budget, store_keep keep, int compact)
{
    store_t *st = store_create(nplaces, budget, keep, compact);
    if (st && packed_layout(st, bits, group) < 0) {
        store_free(st);
        return NULL;
    }
    return st;
}

store_t *store_new_packed(uint32_t nplaces, const uint8_t *bits, const uint32_t *group,
                          size_t budget, store_keep keep)
{
    return create_packed(nplaces, bits, group, budget, keep, 0);
}

int store_is_packed(const store_t *st) { return st->packed; }
size_t store_key_words(const store_t *st) { return st->packed ? st->pwords : 0; }

void store_field(const store_t *st, uint32_t p, unsigned *word, unsigned *shift, uint64_t *max)
{
    *word = st->pword[p];
    *shift = st->pshift[p];
    *max = st->pmax[p];
}

int store_place_number(const store_t *st, uint32_t p, uint64_t *number)
{
    if (!st->packed || !group_of(st, p))
        return 0;
    *number = st->pindex[p];
    return 1;
}

uint32_t store_groups(const store_t *st, uint32_t *places)
{
    *places = st->ngroups ? st->gstart[st->ngroups] : 0;
    return st->ngroups;
}
int store_bound_broken(const store_t *st) { return st->bound_broken; }

int store_key_safe(const store_t *st, const uint8_t *key)
{
    if (!st->packed) {
        size_t header;
        return store_key_is_safe(key, &header);
    }
    for (size_t w = 0; w < st->pwords; w++)
        if (key_word(st, key, w) & st->phigh[w])
            return 0;
    return 1;
}

void store_free(store_t *st)
{
    if (!st)
        return;
    free(st->pword);
    free(st->pshift);
    free(st->pmax);
    free(st->pgroup);
    free(st->pindex);
    free(st->gstart);
    free(st->gplace);
    free(st->gseen);
    free(st->pbase);
    free(st->powner);
    free(st->fill);
    for (size_t i = 0; i < st->nblocks; i++)
        big_free(st->blocks[i], st->block_size);
    free(st->blocks);
    big_free(st->slots, st->nslots * sizeof(uint64_t));
    big_free(st->ct.slots, st->ct_size);
    free(st->nz);
    free(st);
}

size_t store_key_max(const store_t *st) { return st->key_max; }
uint64_t store_count(const store_t *st) { return st->count; }
size_t store_bytes(const store_t *st) { return st->bytes; }
size_t store_peak_bytes(const store_t *st) { return st->peak; }
uint64_t store_record_bytes(const store_t *st) { return st->record_bytes; }

/* ---- compact stores ---- */

#define CT_MIN ((uint64_t)1 << 12)
#define CT_GROW_NUM 3u      /* growing by half: loads stay within 0.6..0.9 */
#define CT_GROW_DEN 2u
#define CT_MOVE_STEP ((uint64_t)1 << 15)   /* slots moved between page releases */

/* Memory for a table of m home slots: whole huge pages once it is that
 * big, so that a move can free the old table page by page.  0 when it
 * does not fit. */
static size_t ct_size_for(const store_t *st, uint64_t m)
{
    size_t size = ctable_bytes(&st->ct, m);
    if (size == SIZE_MAX || size > SIZE_MAX - HUGE_PAGE)
        return 0;
    return size < HUGE_PAGE ? size : (size + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
}

static void ct_thresholds(store_t *st)
{
    st->ct_grow_at = st->ct.m / 10 * 9;
    st->ct_full_at = st->ct.m / 100 * 97;
}

/* Counts memory that a move has already committed to: the move cannot
 * stop halfway, so ct_resize checked the budget for all of it first. */
static void account_anyway(store_t *st, size_t more)
{
    st->bytes += more;
    if (st->bytes > st->peak)
        st->peak = st->bytes;
}

static size_t pages_below(size_t bytes, size_t limit)
{
    size_t p = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
    return p < limit ? p : limit;
}

/* Moves every entry into the empty table `to` of `size` bytes.  A table
 * of huge pages is read and written front to back, so the old one's
 * pages are freed behind the move as the new one's are touched: at most
 * the new table and two pages more are held, instead of both tables.
 * -1 when an entry did not fit the new table (the old one is lost then). */
static int ct_move_all(store_t *st, ctable *to, size_t size)
{
    ctable_mover mv = {0, 0};
    int paged_old = st->ct_size >= HUGE_PAGE, paged_new = size >= HUGE_PAGE;
    size_t freed = 0, counted = 0;
    if (!paged_new) {   /* small: counted at once */
        account_anyway(st, size);
        counted = size;
    }
    int r;
    do {
        r = ctable_move(to, &st->ct, &mv, CT_MOVE_STEP);
        if (r < 0)
            break;
        if (paged_new) {
            size_t touched = pages_below((mv.to_pos + 1) * to->slot_bytes + 16, size);
            account_anyway(st, touched - counted);
            counted = touched;
        }
        if (paged_old) {
            size_t done = mv.from_pos * st->ct.slot_bytes / HUGE_PAGE * HUGE_PAGE;
            if (r == 1)
                done = st->ct_size;
            if (done > freed) {
                munmap(st->ct.slots + freed, done - freed);
                unaccount(st, done - freed);
                freed = done;
            }
        }
    } while (r == 0);
    account_anyway(st, size - counted);
    if (!paged_old) {
        big_free(st->ct.slots, st->ct_size);
        unaccount(st, st->ct_size);
    } else if (freed < st->ct_size) {
        munmap(st->ct.slots + freed, st->ct_size - freed);
        unaccount(st, st->ct_size - freed);
    }
    st->ct.slots = NULL;
    st->ct_size = 0;
    return r < 0 ? -1 : 0;
}

/* A table of m (rounded) home slots, empty or with every entry of the
 * current one; 0, or -1 when memory ran out (the current table then
 * stays) or the move failed (the store is then broken: ct_broken). */
static int ct_resize(store_t *st, uint64_t m)
{
    double start = mono_now();
    size_t size = ct_size_for(st, m);
    /* the old table's pages go as the new one's come (ct_move_all), one
     * page of each being counted early or freed late */
    size_t keep = st->ct_size >= HUGE_PAGE ? st->ct_size : 0;
    size_t slack = (size >= HUGE_PAGE ? HUGE_PAGE : 0) + (keep ? HUGE_PAGE : 0);
    if (!size || size > SIZE_MAX - slack || st->bytes - keep > st->budget ||
        size + slack > st->budget - (st->bytes - keep))
        return -1;
    uint8_t *mem = big_alloc(size);
    if (!mem)
        return -1;
    ctable to = st->ct;
    ctable_attach(&to, mem, m);
    int growing = st->ct.slots != NULL;
    if (!growing) {
        account_anyway(st, size);
    } else if (ct_move_all(st, &to, size) < 0) {
        big_free(mem, size);
        unaccount(st, size);
        st->ct_broken = 1;
        return -1;
    }
    st->ct = to;
    st->ct_size = size;
    ct_thresholds(st);
    st->grow_seconds = mono_now() - start;
    if (growing) {
        st->grow_total += st->grow_seconds;
        st->grows++;
    }
    return 0;
}

static int ct_grow(store_t *st)
{
    if (st->declined)
        return -1;
    if (!grow_in_time(st)) {
        st->declined = 1;
        return -1;
    }
    uint64_t m = st->ct.m;
    if (m > UINT64_MAX / CT_GROW_NUM)
        return -1;
    return ct_resize(st, m * CT_GROW_NUM / CT_GROW_DEN);
}

static int ct_gave_up(const store_t *st)
{
    return st->declined ? STORE_OUT_OF_TIME : -1;
}

/* Appends a key the table has just taken to the queue, whose last block
 * has room for it; its ref. */
static inline store_ref queue_key(store_t *st, const uint8_t *key, size_t len)
{
    store_ref at = ((store_ref)(st->nblocks - 1) << st->block_shift) + st->wpos;
    uint8_t *rec = st->blocks[st->nblocks - 1] + st->wpos;
    if (len <= 8) {   /* a key of one word is written as one, in the slack */
        uint64_t mask = len == 8 ? UINT64_MAX : (UINT64_C(1) << (8 * len)) - 1;
        word_store(rec, (word_load(rec) & ~mask) | (word_load(key) & mask));
    } else {
        memcpy(rec, key, len);
    }
    st->wpos += len;
    st->record_bytes += len;
    st->count++;
    return at;
}

/* A key the table does not have (ctable_locate said r at pos): the table
 * grows first when it is due or r says it must, the key gets its place
 * in the queue, then in the table. */
static int compact_add(store_t *st, const uint8_t *key, size_t len, uint64_t hash,
                       uint32_t transition, store_ref *ref, int r, ctable_pos *pos)
{
    if (st->ct.count + 1 > st->ct_grow_at) {
        /* squeeze the table instead */
        if (ct_grow(st) < 0)
            st->ct_grow_at = st->ct_full_at;
        if (st->ct_broken)   /* a failed move leaves no table */
            return -1;
        if (st->ct.count + 1 > st->ct_full_at)
            return ct_gave_up(st);
        r = ctable_locate(&st->ct, key, hash, pos);
    }
    /* a new key must have its place in the queue: a new block is got
     * before the table learns of it */
    store_ref at;
    if ((!st->nblocks || st->wpos + len > st->block_size - SLACK) &&
        arena_reserve(st, len, &at) < 0)
        return -1;
    while (r == CTABLE_FULL || ctable_put(&st->ct, pos, key, st->ct_values ? transition : 0) ==
                                   CTABLE_FULL) {
        if (ct_grow(st) < 0)
            return st->ct_broken ? -1 : ct_gave_up(st);
        r = ctable_locate(&st->ct, key, hash, pos);
    }
    *ref = queue_key(st, key, len);
    return 1;
}

int store_add_probed(store_t *st, const uint8_t *key, size_t len, uint64_t hash,
                     uint32_t transition, int r, ctable_pos *pos, store_ref *ref)
{
    /* the common case in one call: no growth due, and room in the
     * queue's last block (ctable_put fails only near the distance cap) */
    if (r == 0 && !st->ct_broken && st->ct.count < st->ct_grow_at && st->nblocks &&
        st->wpos + len <= st->block_size - SLACK &&
        ctable_put(&st->ct, pos, key, st->ct_values ? transition : 0) == 1) {
        *ref = queue_key(st, key, len);
        return 1;
    }
    *ref = STORE_NO_REF;
    if (st->ct_broken)
        return -1;
    return compact_add(st, key, len, hash, transition, ref, r, pos);
}

/* A known key, the common case, costs one lookup. */
static int compact_insert(store_t *st, const uint8_t *key, size_t len, uint64_t hash,
                          uint32_t transition, store_ref *ref)
{
    *ref = STORE_NO_REF;
    if (st->ct_broken)
        return -1;
    ctable_pos pos;
    int r = ctable_locate(&st->ct, key, hash, &pos);
    if (r == 1)
        return 0;
    return compact_add(st, key, len, hash, transition, ref, r, &pos);
}

store_t *store_new_compact(uint32_t nplaces, const uint8_t *bits, const uint32_t *group,
                           uint32_t ntransitions, size_t budget, store_keep keep)
{
    if (keep == STORE_PARENTS)
        return NULL;
    /* the arena's records are keys: the table keeps the transitions */
    store_t *st = create_packed(nplaces, bits, group, budget, STORE_KEYS, 1);
    if (!st)
        return NULL;
    st->ct_values = keep == STORE_TRANSITIONS;
    ctable_shape(&st->ct, st->plen, st->pspan ? st->pspan : 1,
                 st->ct_values && ntransitions ? ntransitions - 1 : 0);
    if (ct_resize(st, CT_MIN) < 0) {
        store_free(st);
        return NULL;
    }
    return st;
}

int store_is_compact(const store_t *st) { return st->compact; }
const struct ctable *store_table(const store_t *st) { return st->compact ? &st->ct : NULL; }

uint64_t store_key_hash(const store_t *st, const uint8_t *key, size_t len)
{
    return st->compact ? ctable_hash(&st->ct, key) : store_hash(key, len);
}

int store_find_transition(const store_t *st, const uint8_t *key, size_t len, uint64_t hash,
                          uint32_t *transition)
{
    if (st->compact)
        return st->ct_values && !st->ct_broken && ctable_find(&st->ct, key, hash, transition);
    store_ref ref;
    return store_find(st, key, len, hash, &ref) && store_transition(st, ref, transition) == 0;
}

void store_release(store_t *st, store_ref ref)
{
    if (!st->compact)
        return;
    size_t upto = (size_t)(ref >> st->block_shift);
    for (; st->released < upto && st->released + 1 < st->nblocks; st->released++) {
        big_free(st->blocks[st->released], st->block_size);
        st->blocks[st->released] = NULL;
        unaccount(st, st->block_size);
    }
}

double store_load(const store_t *st)
{
    return st->compact ? (double)st->ct.count / (double)st->ct.m
                       : (double)st->used / (double)st->nslots;
}

size_t store_table_bytes(const store_t *st)
{
    return st->compact ? st->ct_size : st->nslots * sizeof(uint64_t);
}

void store_print_stats(const store_t *st, FILE *f)
{
    uint64_t n = st->count ? st->count : 1;
    if (!st->compact) {
        if (st->packed)
            fprintf(f, "store: %zu-byte keys (%u bits)", st->plen, st->pspan);
        else
            fprintf(f, "store: variable-length keys");
        fprintf(f, " in an arena, %.1f bytes a record; table of %zu slots of 8 bytes, load %.2f "
                   "(%.1f bytes/state)\n",
                (double)st->record_bytes / (double)n, st->nslots, store_load(st),
                (double)(st->nslots * sizeof(uint64_t)) / (double)n);
        return;
    }
    fprintf(f, "store: %zu-byte keys (%u bits) in a compact table of %llu slots of %zu bytes, "
               "load %.2f (%.1f bytes/state); queue at most %.1f MB; grown %u times in %.2f s\n",
            st->plen, st->pspan, (unsigned long long)st->ct.m, st->ct.slot_bytes, store_load(st),
            (double)st->ct_size / (double)n, (double)st->queue_peak / 1048576.0,
            st->grows, st->grow_total);
}
