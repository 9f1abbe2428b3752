/* ctable: a compact set of fixed-width keys, each with a small value, in
 * one open-addressing table that stores fewer bits than the keys have.
 *
 * Quotienting: a key is turned into a number x by a bijection (a key of
 * at most 64 bits: all of them, mixed; a longer one: its first 64 bits,
 * mixed with a hash of the rest, which is kept verbatim).  The top bits of
 * x choose the key's home slot, and only what the home does not tell is
 * stored: a slot spends about log2(m) bits fewer than its key, m being the
 * number of home slots.  Homes grow with x, in a table of any size.
 *
 * Robin Hood linear probing: entries sit in order of their home slots,
 * and a home's in the order of x, a slot's first byte being its distance
 * from home plus one (0: empty).  A lookup stops at the first slot nearer
 * its home than the key would be; an insertion shifts the rest of the
 * cluster one slot on.  Distances are capped at CTABLE_DIST_MAX, so the
 * table has that many spill slots behind slot m - 1 and never wraps; an
 * insertion that would pass the cap fails (CTABLE_FULL) and the owner
 * grows the table.
 *
 * A slot is 1 + ceil((hi_bits + q_bits + value_bits) / 8) bytes: the key's
 * bits beyond its first 64 (as they are, byte-aligned), the quotient, then
 * the value.  A slot of a key of at most 64 bits that fits a word is read
 * and written as one word; any other slot of at most 16 bytes with fewer
 * than 56 verbatim bits as two words; the rest field by field.  The owner
 * allocates the memory (ctable_bytes) and decides
 * when to grow; since the table is sorted by x, ctable_move rehashes into
 * a bigger table front to back, reading and writing each entry once, in
 * order, so that the owner can free the old table behind it as the new
 * one fills. */
#ifndef MCK_CTABLE_H
#define MCK_CTABLE_H

#include "engine/words.h"

#include <stddef.h>
#include <stdint.h>

#define CTABLE_DIST_MAX 254u
#define CTABLE_FULL (-1)

typedef struct ctable {
    /* the keys: key_bytes bytes, of which only the first key_bits bits may
     * be nonzero; key buffers have 8 bytes of slack behind them */
    size_t key_bytes;
    unsigned key_bits, lo_bits, hi_bits, value_bits;
    uint64_t lo_keep;      /* the bits of a key's first word that are key */
    uint64_t hi_mask;      /* the verbatim bits, in a key's second word */
    uint64_t hi_bytes_mask;    /* keys of 9 to 16 bytes: their second
                                * word's bytes */
    uint64_t value_mask;   /* the value_bits */
    unsigned mix_shift;    /* of the bijection that mixes such bits */
    /* this size: m = c * 2^k home slots */
    uint64_t m;
    uint64_t c, inv_c;     /* 8 <= c < 16; floor(2^32 / c) + 1 */
    int shift;             /* bits of x below the ones that choose the home */
    uint64_t z_mask;       /* those bits, when shift > 0 */
    unsigned y_right, y_left;  /* y is x >> shift: shifted right, then left */
    unsigned q_bits;       /* of the quotient */
    uint64_t lo_mask;      /* keys of at most 64 bits: a slot's distance and
                            * quotient in its first word, else 0 */
    /* slots of at most 16 bytes with fewer than 56 verbatim bits, read
     * as two words: pair_cmp has the distance's, the verbatim and the
     * quotient's bits, pair_slot all of a slot's; both 0 for other slots */
    uint64_t pair_cmp[2], pair_slot[2];
    size_t slot_bytes;
    uint8_t *slots;
    uint64_t count;
} ctable;

/* The table size m rounds up to (c * 2^k, 8 <= c < 16), with c and k when
 * not NULL. */
uint64_t ctable_size(uint64_t m, unsigned *c, unsigned *k);

/* The shape of a table for keys of key_bytes bytes and key_bits
 * significant bits (1 <= key_bits <= 8 * key_bytes), with values up to
 * max_value (the bits they need are kept); no memory yet. */
void ctable_shape(ctable *ct, size_t key_bytes, unsigned key_bits, uint32_t max_value);
/* Bytes a table of that shape with m home slots (rounded by ctable_size)
 * needs (SIZE_MAX when it does not fit a size_t), and its slot size. */
size_t ctable_bytes(const ctable *shape, uint64_t m);
size_t ctable_slot_bytes(const ctable *shape, uint64_t m);
/* Makes ct (shaped) an empty table of m home slots (rounded) in mem,
 * which must be ctable_bytes(ct, m) zeroed bytes. */
void ctable_attach(ctable *ct, uint8_t *mem, uint64_t m);

static inline uint64_t ctable_low_mask(unsigned n)
{
    return n >= 64 ? UINT64_MAX : (UINT64_C(1) << n) - 1;
}

/* What hashing a key and splitting x read of a table, as values.  The
 * search's loops write keys through byte pointers, which may alias a
 * table's fields, so gcc loads each field again at every step; a copy
 * in locals stays in registers.  Valid while the table keeps its size. */
typedef struct ctable_hasher {
    uint64_t lo_keep, hi_bytes_mask, z_mask, c, inv_c;
    unsigned mix_shift, y_right, y_left;
} ctable_hasher;

static inline __attribute__((always_inline)) ctable_hasher ctable_hasher_of(const ctable *ct)
{
    ctable_hasher h = {ct->lo_keep, ct->hi_bytes_mask, ct->z_mask, ct->c, ct->inv_c,
                       ct->mix_shift, ct->y_right, ct->y_left};
    return h;
}

/* x of a key: depends on the key and the shape only, never on m.  Inline:
 * it is taken once an edge.  Keys of fewer than 64 bits are mixed by a
 * bijection of the lo_bits-bit numbers (xor with a right shift and odd
 * multiplication modulo 2^lo_bits each undo): equal keys must give equal
 * homes and different keys different (home, quotient) pairs, the mixing
 * only spreads homes evenly. */
static inline uint64_t ctable_hash_word(const ctable *ct, uint64_t x);

#define CTABLE_HI_SEED UINT64_C(0x9e3779b97f4a7c15)
#define CTABLE_MIX_MUL UINT64_C(0xff51afd7ed558ccd)

/* The bijection of words that spreads a key's first 64 bits over the
 * top bits, where ctable_split finds homes: one round of xor-shift and
 * odd multiplication.  The xor brings every bit down to bit 32 or
 * lower, so each reaches the top bits through the product.  One round
 * suffices: homes need only be spread evenly, and a second round (word_mix)
 * costs instructions on every edge. */
static inline uint64_t ctable_mix(uint64_t x)
{
    x ^= x >> 33;
    x *= CTABLE_MIX_MUL;
    return x ^ (x >> 33);
}

/* ctable_hash of a key of 9 to 16 bytes whose words are lo and hi.  Any
 * function of hi will do (hi is kept verbatim); one multiplication
 * spreads it over the word before the mix. */
static inline __attribute__((always_inline)) uint64_t
ctable_hasher_pair(const ctable_hasher *h, uint64_t lo, uint64_t hi)
{
    return ctable_mix((lo & h->lo_keep) ^ (hi & h->hi_bytes_mask) * UINT64_C(0x87c37b91114253d5));
}

static inline uint64_t ctable_hash_pair(const ctable *ct, uint64_t lo, uint64_t hi)
{
    ctable_hasher h = ctable_hasher_of(ct);
    return ctable_hasher_pair(&h, lo, hi);
}

static inline uint64_t ctable_hash(const ctable *ct, const uint8_t *key)
{
    uint64_t x = word_load(key) & ct->lo_keep;
    if (!ct->hi_bits)
        return ctable_hash_word(ct, x);
    if (ct->key_bytes <= 16)
        return ctable_hash_pair(ct, x, word_load(key + 8));
    return ctable_mix(x ^ word_hash(key + 8, ct->key_bytes - 8, CTABLE_HI_SEED));
}

/* ctable_hash of a key of at most 64 bits (no hi_bits) whose bits are x:
 * ctable_mix on lo_bits-bit numbers.  A key of 64 bits has mix_shift 33
 * and lo_keep all ones: ctable_mix itself, with no branch. */
static inline __attribute__((always_inline)) uint64_t ctable_hasher_word(const ctable_hasher *h,
                                                                        uint64_t x)
{
    unsigned s = h->mix_shift;
    x ^= x >> s;
    x = (x * CTABLE_MIX_MUL) & h->lo_keep;
    return x ^ (x >> s);
}

static inline uint64_t ctable_hash_word(const ctable *ct, uint64_t x)
{
    ctable_hasher h = ctable_hasher_of(ct);
    return ctable_hasher_word(&h, x);
}

/* ---- lookups, inline: they run once an edge ---- */

/* n <= 64 bits at bit off of p; reads up to 9 bytes from p + off / 8. */
static inline uint64_t ctable_get_bits(const uint8_t *p, size_t off, unsigned n)
{
    if (!n)
        return 0;
    const uint8_t *b = p + off / 8;
    unsigned s = (unsigned)(off % 8);
    uint64_t v = word_load(b) >> s;
    if (s + n > 64)
        v |= (uint64_t)b[8] << (64 - s);
    return v & ctable_low_mask(n);
}

/* Homes in key order.  A table has m = c * 2^k home slots, 8 <= c < 16.
 * y, the top k + CTABLE_FINE bits of x, times c is the home in the bits above
 * CTABLE_FINE and a rest r below them; each home gets 2^CTABLE_FINE / c values of y,
 * rounded up or down, so homes are even to 0.4 percent.  The slot keeps
 * r / c, which tells y among its home's values, and the bits of x below
 * y.  Homes never decrease as x grows, whatever the table's size, so a
 * table is rehashed into a bigger one in order, front to back. */
#define CTABLE_FINE 12u

static inline __attribute__((always_inline)) uint64_t
ctable_hasher_split(const ctable_hasher *h, uint64_t x, uint64_t *home)
{
    /* no branch on the shift's sign: one of the two shifts is by 0 */
    uint64_t y = x >> h->y_right << h->y_left, z = x & h->z_mask;
    uint64_t p = y * h->c;
    *home = p >> CTABLE_FINE;
    /* r / c by a multiplication: exact for r < 2^16 */
    uint64_t j = ((p & ctable_low_mask(CTABLE_FINE)) * h->inv_c) >> 32;
    return z << (CTABLE_FINE - 3) | j;
}

static inline uint64_t ctable_split(const ctable *ct, uint64_t x, uint64_t *home)
{
    ctable_hasher h = ctable_hasher_of(ct);
    return ctable_hasher_split(&h, x, home);
}

/* ---- slots as two words (pair_slot) ---- */

/* Whether slots are read as two words. */
static inline int ctable_pairs(const ctable *ct)
{
    return ct->pair_slot[0] != 0;
}

/* What a probe reads of a table, as values, for the reason given at
 * ctable_hasher.  Valid while the table keeps its size (m). */
typedef struct ctable_view {
    uint8_t *slots;
    size_t slot_bytes;
    uint64_t m, lo_mask, hi_mask, cmp0, cmp1;
    unsigned hi_bits;
} ctable_view;

static inline __attribute__((always_inline)) ctable_view ctable_view_of(const ctable *ct)
{
    ctable_view v = {ct->slots, ct->slot_bytes, ct->m, ct->lo_mask, ct->hi_mask,
                     ct->pair_cmp[0], ct->pair_cmp[1], ct->hi_bits};
    return v;
}

/* How a table's probes compare slots: ctable_probe_lo, ctable_probe_pair,
 * or byte by byte. */
enum { CTABLE_BY_WORD, CTABLE_BY_PAIR, CTABLE_BY_BYTES };

static inline int ctable_probe_kind(const ctable *ct)
{
    return ct->lo_mask ? CTABLE_BY_WORD : ctable_pairs(ct) ? CTABLE_BY_PAIR : CTABLE_BY_BYTES;
}

/* A slot of the key whose verbatim part is at hi and whose quotient is
 * q, at distance d, without its value.  The quotient begins in the
 * first word, at bit 8 + hi_bits < 64. */
static inline __attribute__((always_inline)) void ctable_pair_image(const ctable_view *v,
                                                                   const uint8_t *hi,
                                                                   uint64_t q, unsigned d,
                                                                   uint64_t w[2])
{
    unsigned at = 8 + v->hi_bits;
    w[0] = d | (word_load(hi) & v->hi_mask) << 8 | q << at;
    w[1] = q >> (64 - at);
}

/* Whether the payload at p holds the key whose verbatim part is hi and
 * whose quotient is q. */
static inline int ctable_same(const ctable *ct, const uint8_t *p, const uint8_t *hi, uint64_t q)
{
    if (ctable_get_bits(p, ct->hi_bits, ct->q_bits) != q)
        return 0;
    if (!ct->hi_bits)
        return 1;
    /* word by word: slots are padded and keys have 8 bytes of slack */
    size_t off = 0;
    for (; off + 64 <= ct->hi_bits; off += 64)
        if (word_load(p + off / 8) != word_load(hi + off / 8))
            return 0;
    uint64_t diff = word_load(p + off / 8) ^ word_load(hi + off / 8);
    return (diff & ctable_low_mask(ct->hi_bits - (unsigned)off)) == 0;
}

/* A probe that reached slot s at distance d, nearer its home than the
 * key would be: the key is not there, and goes to s unless that passes
 * the cap (*at and *dist are set either way).  The cap is tested here,
 * not a slot: a slot's distance is at most CTABLE_DIST_MAX + 1, so every
 * probe ends by d = CTABLE_DIST_MAX + 2, within the spill slots. */
static inline __attribute__((always_inline)) int ctable_probe_end(uint8_t *s, unsigned d,
                                                                 uint8_t **at, unsigned *dist)
{
    *at = s;
    *dist = d;
    return d > CTABLE_DIST_MAX + 1 ? CTABLE_FULL : 0;
}

/* probe for keys of at most 64 bits whose slot begins with a word holding
 * the distance and the whole quotient (ct->lo_mask, set by ctable_attach):
 * one masked comparison a slot. */
static inline __attribute__((always_inline)) int ctable_probe_lo(const ctable_view *v,
                                                                uint64_t home, uint64_t q,
                                                                uint8_t **at, unsigned *dist)
{
    size_t S = v->slot_bytes;
    uint8_t *s = v->slots + home * S;
    /* want is the slot the key would be at distance d: it carries into
     * the quotient only at d = 256, where every probe has ended */
    uint64_t mask = v->lo_mask, want = q << 8 | 1;
    for (unsigned d = 1;; d++, want++, s += S) {
        uint64_t w = word_load(s);
        if ((unsigned)(w & 0xff) < d)
            return ctable_probe_end(s, d, at, dist);
        if ((w & mask) == want) {
            *at = s;
            return 1;
        }
    }
}

/* probe for slots read as two words: two masked comparisons a slot at
 * most, the second only when the first word matches. */
static inline __attribute__((always_inline)) int ctable_probe_pair(const ctable_view *v,
                                                                  uint64_t home,
                                                                  const uint8_t *hi,
                                                                  uint64_t q, uint8_t **at,
                                                                  unsigned *dist)
{
    size_t S = v->slot_bytes;
    uint8_t *s = v->slots + home * S;
    uint64_t want[2];
    ctable_pair_image(v, hi, q, 1, want);
    /* as in probe_lo, the distance never carries into the next field */
    uint64_t cmp0 = v->cmp0, cmp1 = v->cmp1;
    for (unsigned d = 1;; d++, want[0]++, s += S) {
        uint64_t w = word_load(s);
        if ((unsigned)(w & 0xff) < d)
            return ctable_probe_end(s, d, at, dist);
        if ((w & cmp0) == want[0] && (word_load(s + 8) & cmp1) == want[1]) {
            *at = s;
            return 1;
        }
    }
}

/* probe comparing slots byte by byte, for the slots of neither kind. */
static inline int ctable_probe_bytes(const ctable *ct, uint64_t home, const uint8_t *hi,
                                     uint64_t q, uint8_t **at, unsigned *dist)
{
    size_t S = ct->slot_bytes;
    uint8_t *s = ct->slots + home * S;
    for (unsigned d = 1;; d++, s += S) {
        unsigned sd = s[0];
        if (sd < d)
            return ctable_probe_end(s, d, at, dist);
        if (sd == d && ctable_same(ct, s + 1, hi, q)) {
            *at = s;
            return 1;
        }
    }
}

/* ctable_probe with the table as a view and the probe's kind (of
 * ctable_probe_kind(ct)) given: a loop that finds many keys passes
 * constants. */
static inline __attribute__((always_inline)) int
ctable_probe_in(const ctable *ct, const ctable_view *v, int kind, uint64_t home,
                const uint8_t *hi, uint64_t q, uint8_t **at, unsigned *dist)
{
    if (kind == CTABLE_BY_WORD)
        return ctable_probe_lo(v, home, q, at, dist);
    if (kind == CTABLE_BY_PAIR)
        return ctable_probe_pair(v, home, hi, q, at, dist);
    return ctable_probe_bytes(ct, home, hi, q, at, dist);
}

/* Where the key (hi, q) of home is, or would go: 1 found at *at, 0 not
 * there, *at where it goes at distance *dist, CTABLE_FULL past the cap.
 * Forced inline, with probe_lo: it runs on every edge, so a call's
 * overhead would be paid per edge. */
static inline __attribute__((always_inline)) int ctable_probe(const ctable *ct, uint64_t home,
                                                             const uint8_t *hi, uint64_t q,
                                                             uint8_t **at, unsigned *dist)
{
    ctable_view v = ctable_view_of(ct);
    return ctable_probe_in(ct, &v, ctable_probe_kind(ct), home, hi, q, at, dist);
}

/* Touches the slots a lookup of x starts with.  Forced inline: gcc 12
 * judges a function that only prefetches to have no effect, and deletes
 * the calls to it (the search then ran half as fast again). */
static inline __attribute__((always_inline)) void ctable_view_prefetch(const ctable_view *v,
                                                                      uint64_t home)
{
    /* a probe reads a few slots on from home, often into the next line */
    const uint8_t *p = v->slots + home * v->slot_bytes;
    __builtin_prefetch(p);
    __builtin_prefetch(p + 64);
}

static inline __attribute__((always_inline)) void ctable_prefetch_home(const ctable *ct,
                                                                      uint64_t home)
{
    ctable_view v = ctable_view_of(ct);
    ctable_view_prefetch(&v, home);
}

static inline __attribute__((always_inline)) void ctable_prefetch(const ctable *ct, uint64_t x)
{
    uint64_t home;
    (void)ctable_split(ct, x, &home);
    ctable_prefetch_home(ct, home);
}

/* Where a key is or would go (ctable_locate), for ctable_put. */
typedef struct ctable_pos {
    uint8_t *at;
    unsigned dist;
    uint64_t q;
} ctable_pos;

/* 1: key is there (pos->at its slot), 0: not there (pos says where it
 * goes), CTABLE_FULL: not there, and the table must grow to take it.
 * x is ctable_hash(ct, key). */
static inline __attribute__((always_inline)) int ctable_locate(const ctable *ct,
                                                              const uint8_t *key, uint64_t x,
                                                              ctable_pos *pos)
{
    uint64_t home;
    pos->q = ctable_split(ct, x, &home);
    return ctable_probe(ct, home, key + 8, pos->q, &pos->at, &pos->dist);
}

/* Adds key where ctable_locate said it goes (0 was returned, and the
 * table has not changed since): 1, or CTABLE_FULL when the table must
 * grow first (nothing changed then). */
int ctable_put(ctable *ct, const ctable_pos *pos, const uint8_t *key, uint32_t value);

/* 1: added with value, 0: there already, CTABLE_FULL: not added, the
 * table must grow first.  x is ctable_hash(ct, key). */
int ctable_insert(ctable *ct, const uint8_t *key, uint64_t x, uint32_t value);
/* 1 with *value set when key is there, else 0. */
int ctable_find(const ctable *ct, const uint8_t *key, uint64_t x, uint32_t *value);

/* Moving every entry into a bigger table, in steps: start with both
 * positions 0.  After a step the slots of from before from_pos are moved
 * (their memory is no longer read), and the slots of to from to_pos on
 * are still untouched. */
typedef struct ctable_mover {
    uint64_t from_pos, to_pos;
} ctable_mover;

/* Moves the entries of about steps slots of from into to, which must be
 * empty at the first step and of the same shape and more home slots.  1
 * when every slot has been moved, 0 when there are more, CTABLE_FULL when
 * an entry would pass the distance cap in to. */
int ctable_move(ctable *to, const ctable *from, ctable_mover *mv, uint64_t steps);

#endif
