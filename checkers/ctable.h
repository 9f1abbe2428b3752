/* ctable: a compact set of fixed-width keys, each with a small value, in
 * one open-addressing table that stores fewer bits than the keys have.
 *
 * Quotienting: a key is turned into a number x by a bijection (a key of
 * at most 64 bits: all of them, mixed; a longer one: its first 64 bits,
 * mixed with a hash of the rest, which is kept verbatim).  x mod m is the
 * key's home slot and only x div m is stored: the slot's position, less
 * its distance from home, tells the rest.  A table of m slots thus saves
 * about log2(m) bits a key over storing it whole.
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
 * bits beyond its first 64 (as they are, byte-aligned), x div m, then the
 * value.  The owner allocates the memory (ctable_bytes) and decides when
 * to grow; ctable_move rehashes one table into a bigger one in steps. */
#ifndef MCK_CTABLE_H
#define MCK_CTABLE_H

#include <stddef.h>
#include <stdint.h>

#define CTABLE_DIST_MAX 254u
#define CTABLE_FULL (-1)

typedef struct ctable {
    /* the keys: key_bytes bytes, of which only the first key_bits bits may
     * be nonzero; key buffers have 8 bytes of slack behind them */
    size_t key_bytes;
    unsigned key_bits, lo_bits, hi_bits, value_bits;
    /* this size */
    uint64_t m;            /* home slots */
    uint64_t recip;        /* UINT64_MAX / m: x div m by a multiplication */
    unsigned q_bits;       /* of x div m */
    size_t slot_bytes;
    uint8_t *slots;
    uint64_t count;
} ctable;

/* The shape of a table for keys of key_bytes bytes and key_bits
 * significant bits (1 <= key_bits <= 8 * key_bytes), with values of
 * value_bits bits (at most 32); no memory yet. */
void ctable_shape(ctable *ct, size_t key_bytes, unsigned key_bits, unsigned value_bits);
/* Bytes a table of that shape with m home slots needs (SIZE_MAX when it
 * does not fit a size_t), and its slot size. */
size_t ctable_bytes(const ctable *shape, uint64_t m);
size_t ctable_slot_bytes(const ctable *shape, uint64_t m);
/* The most home slots, at least m, whose table fits in bytes >=
 * ctable_bytes(shape, m). */
uint64_t ctable_slots_in(const ctable *shape, size_t bytes, uint64_t m);
/* Makes ct (shaped) an empty table of m home slots in mem, which must be
 * ctable_bytes(ct, m) zeroed bytes. */
void ctable_attach(ctable *ct, uint8_t *mem, uint64_t m);

/* x of a key: depends on the key and the shape only, never on m. */
uint64_t ctable_hash(const ctable *ct, const uint8_t *key);
void ctable_prefetch(const ctable *ct, uint64_t x);

/* 1: added with value, 0: there already, CTABLE_FULL: not added, the
 * table must grow first.  x is ctable_hash(ct, key). */
int ctable_insert(ctable *ct, const uint8_t *key, uint64_t x, uint32_t value);
/* 1 with *value set when key is there, else 0. */
int ctable_find(const ctable *ct, const uint8_t *key, uint64_t x, uint32_t *value);

/* Moves the entries of slots [*cursor, *cursor + steps) of from into to,
 * which must be empty at the first call and of the same shape; *cursor
 * advances.  1 when every slot has been moved, 0 when there are more,
 * CTABLE_FULL when to is too small. */
int ctable_move(ctable *to, const ctable *from, uint64_t *cursor, uint64_t steps);

#endif
