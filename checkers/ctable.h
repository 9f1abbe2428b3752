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
 * Robin Hood linear probing: entries sit in order of their home slots, a
 * slot's first byte being its distance from home plus one (0: empty).  A
 * lookup stops at the first slot nearer its home than the key would be;
 * an insertion shifts the rest of the cluster one slot on.  Distances are
 * capped at CTABLE_DIST_MAX, so the table has that many spill slots behind
 * slot m - 1 and never wraps; an insertion that would pass the cap fails
 * (CTABLE_FULL) and the owner grows the table.
 *
 * A slot is 1 + ceil((hi_bits + q_bits + value_bits) / 8) bytes: the key's
 * bits beyond its first 64 (as they are, byte-aligned), the quotient, then
 * the value.  The owner allocates the memory (ctable_bytes) and decides
 * when to grow; since homes keep their order, ctable_move rehashes into a
 * bigger table front to back, reading and writing each once, in order, so
 * that the owner can free the old table behind it as the new one fills. */
#ifndef MCK_CTABLE_H
#define MCK_CTABLE_H

#include "checkers/words.h"

#include <stddef.h>
#include <stdint.h>

#define CTABLE_DIST_MAX 254u
#define CTABLE_FULL (-1)

typedef struct ctable {
    /* the keys: key_bytes bytes, of which only the first key_bits bits may
     * be nonzero; key buffers have 8 bytes of slack behind them */
    size_t key_bytes;
    unsigned key_bits, lo_bits, hi_bits, value_bits;
    /* this size: m = c * 2^k home slots */
    uint64_t m;
    uint64_t c, inv_c;     /* 8 <= c < 16; floor(2^32 / c) + 1 */
    int shift;             /* bits of x below the ones that choose the home */
    unsigned q_bits;       /* of the quotient */
    uint64_t lo_mask;      /* keys of at most 64 bits: a slot's distance and
                            * quotient in its first word, else 0 */
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

/* Bijections of the b-bit numbers: xor with a right shift and odd
 * multiplication modulo 2^b each undo.  Equal keys must give equal homes
 * and different keys different (home, quotient) pairs; the mixing is
 * only there to spread homes evenly. */
static inline uint64_t ctable_mix(uint64_t x, unsigned b)
{
    if (b == 64)
        return word_mix(x);
    uint64_t mask = ctable_low_mask(b);
    unsigned s = (b + 1) / 2;
    x ^= x >> s;
    x = (x * UINT64_C(0xff51afd7ed558ccd)) & mask;
    x ^= x >> s;
    x = (x * UINT64_C(0xc4ceb9fe1a85ec53)) & mask;
    x ^= x >> s;
    return x;
}

/* x of a key: depends on the key and the shape only, never on m.  Inline:
 * it is taken once an edge. */
static inline uint64_t ctable_hash(const ctable *ct, const uint8_t *key)
{
    uint64_t lo = word_load(key) & ctable_low_mask(ct->lo_bits);
    if (!ct->hi_bits)
        return ctable_mix(lo, ct->lo_bits);
    return word_mix(lo ^ word_hash(key + 8, ct->key_bytes - 8, UINT64_C(0x9e3779b97f4a7c15)));
}
void ctable_prefetch(const ctable *ct, uint64_t x);

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
