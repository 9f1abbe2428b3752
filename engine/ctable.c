/* ctable: quotiented Robin Hood table of fixed-width keys (ctable.h). */
#include "engine/ctable.h"
#include "engine/words.h"

#include <string.h>

#define SPILL ((uint64_t)CTABLE_DIST_MAX + 2)
#define PAD 16u   /* bit fields are read and written as 9 bytes */

/* Writes the low n <= 64 bits of v at bit off of p, keeping the bits
 * around them. */
static inline void put_bits(uint8_t *p, size_t off, uint64_t v, unsigned n)
{
    if (!n)
        return;
    uint8_t *b = p + off / 8;
    unsigned s = (unsigned)(off % 8);
    uint64_t mask = ctable_low_mask(n);
    v &= mask;
    word_store(b, (word_load(b) & ~(mask << s)) | (v << s));
    if (s + n > 64) {
        uint8_t high = (uint8_t)ctable_low_mask(s + n - 64);
        b[8] = (uint8_t)((b[8] & ~high) | ((v >> (64 - s)) & high));
    }
}

static inline unsigned bit_length(uint64_t v)
{
    return v ? 64u - (unsigned)__builtin_clzll(v) : 0u;
}

/* y of a home and j = floor(r / c): the home's values of y run from
 * ceil(home * 2^CTABLE_FINE / c) on, and r / c = y - home * 2^CTABLE_FINE / c,
 * so j counts from there.  Inlined for each c, whose division then
 * becomes a multiplication: a division costs as much as the rest of a
 * move. */
static inline __attribute__((always_inline)) uint64_t y_of(uint64_t home, uint64_t j, uint64_t c)
{
    return j + ((home << CTABLE_FINE) + c - 1) / c;
}

/* x of the entry of home whose quotient is q, c being ct->c */
static inline __attribute__((always_inline)) uint64_t unsplit_c(const ctable *ct, uint64_t home,
                                                               uint64_t q, uint64_t c)
{
    uint64_t j = q & ctable_low_mask(CTABLE_FINE - 3), z = q >> (CTABLE_FINE - 3);
    /* ctable_split's shifts undone */
    return y_of(home, j, c) >> ct->y_left << ct->y_right | z;
}

static inline uint64_t unsplit(const ctable *ct, uint64_t home, uint64_t q)
{
    switch (ct->c) {
    case 8: return unsplit_c(ct, home, q, 8);
    case 9: return unsplit_c(ct, home, q, 9);
    case 10: return unsplit_c(ct, home, q, 10);
    case 11: return unsplit_c(ct, home, q, 11);
    case 12: return unsplit_c(ct, home, q, 12);
    case 13: return unsplit_c(ct, home, q, 13);
    case 14: return unsplit_c(ct, home, q, 14);
    default: return unsplit_c(ct, home, q, 15);   /* ctable_size: c < 16 */
    }
}

void ctable_shape(ctable *ct, size_t key_bytes, unsigned key_bits, uint32_t max_value)
{
    memset(ct, 0, sizeof *ct);
    ct->key_bytes = key_bytes;
    ct->key_bits = key_bits;
    ct->lo_bits = key_bits < 64 ? key_bits : 64;
    ct->hi_bits = key_bits - ct->lo_bits;
    ct->lo_keep = ctable_low_mask(ct->lo_bits);
    ct->mix_shift = ct->lo_bits < 64 ? (ct->lo_bits + 1) / 2 : 33;   /* 33: ctable_mix's */
    ct->hi_mask = ctable_low_mask(ct->hi_bits);
    if (key_bytes > 8 && key_bytes <= 16)
        ct->hi_bytes_mask = ctable_low_mask(8 * (unsigned)(key_bytes - 8));
    ct->value_bits = bit_length(max_value);
    ct->value_mask = ctable_low_mask(ct->value_bits);
}

uint64_t ctable_size(uint64_t m, unsigned *c, unsigned *k)
{
    unsigned kk = bit_length(m) > 4 ? bit_length(m) - 4 : 0;
    uint64_t cc = (m + (UINT64_C(1) << kk) - 1) >> kk;
    if (cc < 8)
        cc = 8;
    if (cc == 16) {
        cc = 8;
        kk++;
    }
    if (c)
        *c = (unsigned)cc;
    if (k)
        *k = kk;
    return cc << kk;
}

static int shift_for(const ctable *ct, unsigned k)
{
    return (int)ct->lo_bits - (int)k - (int)CTABLE_FINE;
}

static unsigned q_bits_for(const ctable *ct, uint64_t m)
{
    unsigned k;
    (void)ctable_size(m, NULL, &k);
    int s = shift_for(ct, k);
    return (s > 0 ? (unsigned)s : 0u) + CTABLE_FINE - 3;
}

size_t ctable_slot_bytes(const ctable *shape, uint64_t m)
{
    size_t bits = (size_t)shape->hi_bits + q_bits_for(shape, m) + shape->value_bits;
    return 1 + (bits + 7) / 8;
}

size_t ctable_bytes(const ctable *shape, uint64_t m)
{
    m = ctable_size(m, NULL, NULL);
    size_t s = ctable_slot_bytes(shape, m);
    if (m > (SIZE_MAX - PAD) / s - SPILL)
        return SIZE_MAX;
    return (size_t)(m + SPILL) * s + PAD;
}

void ctable_attach(ctable *ct, uint8_t *mem, uint64_t m)
{
    unsigned c, k;
    ct->m = ctable_size(m, &c, &k);
    ct->c = c;
    ct->inv_c = (UINT64_C(1) << 32) / c + 1;
    ct->shift = shift_for(ct, k);
    ct->z_mask = ct->shift > 0 ? ctable_low_mask((unsigned)ct->shift) : 0;
    ct->y_right = ct->shift > 0 ? (unsigned)ct->shift : 0;
    ct->y_left = ct->shift < 0 ? (unsigned)-ct->shift : 0;
    ct->q_bits = q_bits_for(ct, ct->m);
    ct->slot_bytes = ctable_slot_bytes(ct, ct->m);
    ct->lo_mask = !ct->hi_bits && ct->q_bits <= 56 ? ctable_low_mask(8 + ct->q_bits) : 0;
    ct->pair_cmp[0] = ct->pair_cmp[1] = ct->pair_slot[0] = ct->pair_slot[1] = 0;
    if (ct->slot_bytes <= 16 && ct->hi_bits < 56) {
        unsigned cmp = 8 + ct->hi_bits + ct->q_bits, all = 8 * (unsigned)ct->slot_bytes;
        ct->pair_cmp[0] = ctable_low_mask(cmp);
        ct->pair_cmp[1] = cmp > 64 ? ctable_low_mask(cmp - 64) : 0;
        ct->pair_slot[0] = ctable_low_mask(all);
        ct->pair_slot[1] = all > 64 ? ctable_low_mask(all - 64) : 0;
    }
    ct->slots = mem;
    ct->count = 0;
}


/* The payload of an entry at p, which is zero or an old payload's bits
 * of hi: hi may be an old payload itself, its quotient behind it. */
static inline void write_entry(ctable *ct, uint8_t *p, const uint8_t *hi, uint64_t q,
                               uint32_t value)
{
    /* the verbatim bits: up to a word's worth as one word, the bits
     * around them kept (slots and keys have slack behind them) */
    if (ct->hi_bits && ct->hi_bits <= 64) {
        uint64_t mask = ctable_low_mask(ct->hi_bits);
        word_store(p, (word_load(p) & ~mask) | (word_load(hi) & mask));
    } else if (ct->hi_bits) {
        size_t whole = ct->hi_bits / 8;
        unsigned part = ct->hi_bits % 8;
        memcpy(p, hi, whole);
        if (part)
            p[whole] = (uint8_t)(hi[whole] & ctable_low_mask(part));
    }
    put_bits(p, ct->hi_bits, q, ct->q_bits);
    put_bits(p, (size_t)ct->hi_bits + ct->q_bits, value, ct->value_bits);
    ct->count++;
}

/* Writes the slot image w (ctable_pair_image, with its value) at s,
 * keeping the bytes behind the slot (the next slot's, or slack). */
static inline void pair_store(const ctable *ct, uint8_t *s, const uint64_t w[2])
{
    word_store(s, (word_load(s) & ~ct->pair_slot[0]) | w[0]);
    word_store(s + 8, (word_load(s + 8) & ~ct->pair_slot[1]) | w[1]);
}

/* Writes the entry of verbatim bits hi, quotient q and value at distance
 * d into the two-word slot s.  The quotient begins in the first word
 * (ctable_pair_image), the value wherever it follows. */
static inline void pair_write(ctable *ct, uint8_t *s, unsigned d, uint64_t hi, uint64_t q,
                              uint32_t value)
{
    unsigned q_at = 8 + ct->hi_bits, value_at = q_at + ct->q_bits;
    uint64_t w[2] = {d | hi << 8 | q << q_at, q >> (64 - q_at)};
    if (value_at < 64) {
        w[0] |= (uint64_t)value << value_at;
        w[1] |= (uint64_t)value >> (64 - value_at);
    } else if (value_at < 128) {   /* 128: no value bits */
        w[1] |= (uint64_t)value << (value_at - 64);
    }
    pair_store(ct, s, w);
    ct->count++;
}

/* Tables whose slots fit a word with no verbatim key bits (keys of at
 * most 64 bits, slots of at most 8 bytes) move a slot as one word, not
 * field by field: the word written past a slot's end is zero, and lands
 * on slots not written yet, which are zero too. */
static int word_slots(const ctable *ct)
{
    return !ct->hi_bits && ct->slot_bytes <= 8;
}

/* A quotient's rank among its home's: x's order.  The quotient holds
 * x's low bits above j (ctable_split), x's order is j's first. */
static inline uint64_t rank_of(uint64_t q)
{
    uint64_t j = q & ctable_low_mask(CTABLE_FINE - 3), z = q >> (CTABLE_FINE - 3);
    return j << 55 | z;   /* z has at most 52 bits: lo_bits - 12 */
}

/* words as in put_as */
static inline uint64_t quotient_at(const ctable *ct, const uint8_t *s, int words)
{
    if (words == 1)
        return (word_load(s) >> 8) & ctable_low_mask(ct->q_bits);
    return ctable_get_bits(s + 1, ct->hi_bits, ct->q_bits);
}

/* Puts the key (hi, q) among its home's entries, which end before s
 * (where a probe for it ended, at distance d), in the order of x: the
 * table is then sorted by x, and ctable_move streams it.  The cluster
 * from the key's slot on shifts one slot further; CTABLE_FULL when that
 * would carry an entry past the cap (nothing changed then).  words says
 * how slots are written: 1 as a word (word_slots), 2 as two (pairs), 0
 * field by field; a constant in each copy. */
static inline __attribute__((always_inline)) int put_as(ctable *ct, uint8_t *s, unsigned d,
                                                      const uint8_t *hi, uint64_t q,
                                                      uint32_t value, int words)
{
    size_t S = ct->slot_bytes;
    uint64_t rank = rank_of(q);
    while (d > 1 && s[-(ptrdiff_t)S] == d - 1 && rank_of(quotient_at(ct, s - S, words)) > rank) {
        s -= S;
        d--;
    }
    /* the distances of the entries that shift grow by one on the way to
     * the cluster's end, and are put back should one pass the cap */
    uint8_t *e = s;
    for (; e[0]; e += S) {
        if (e[0] == CTABLE_DIST_MAX + 1) {
            for (uint8_t *t = s; t < e; t += S)
                t[0]--;
            return CTABLE_FULL;
        }
        e[0]++;
    }
    if (e != s) {
        memmove(s + S, s, (size_t)(e - s));
        if (words == 0)
            memset(s + 1, 0, S - 1);
    }
    if (words == 1) {
        /* the slot as one word, the bytes behind it (the next slot's)
         * kept */
        uint64_t keep = S == 8 ? 0 : ~UINT64_C(0) << (8 * S);
        word_store(s, (word_load(s) & keep) | d | q << 8 | (uint64_t)value << (8 + ct->q_bits));
        ct->count++;
        return 1;
    }
    if (words == 2) {
        pair_write(ct, s, d, word_load(hi) & ct->hi_mask, q, value & ct->value_mask);
        return 1;
    }
    s[0] = (uint8_t)d;
    write_entry(ct, s + 1, hi, q, value);
    return 1;
}

/* put for each kind of slot, known to be the table's */
static int put(ctable *ct, uint8_t *s, unsigned d, const uint8_t *hi, uint64_t q, uint32_t value)
{
    if (word_slots(ct))
        return put_as(ct, s, d, hi, q, value, 1);
    if (ctable_pairs(ct))
        return put_as(ct, s, d, hi, q, value, 2);
    return put_as(ct, s, d, hi, q, value, 0);
}

int ctable_put(ctable *ct, const ctable_pos *pos, const uint8_t *key, uint32_t value)
{
    return put(ct, pos->at, pos->dist, key + 8, pos->q, value);
}

int ctable_insert(ctable *ct, const uint8_t *key, uint64_t x, uint32_t value)
{
    ctable_pos pos;
    int r = ctable_locate(ct, key, x, &pos);
    if (r != 0)
        return r == 1 ? 0 : CTABLE_FULL;
    return ctable_put(ct, &pos, key, value);
}

int ctable_find(const ctable *ct, const uint8_t *key, uint64_t x, uint32_t *value)
{
    ctable_pos pos;
    if (ctable_locate(ct, key, x, &pos) != 1)
        return 0;
    *value = (uint32_t)ctable_get_bits(pos.at + 1, (size_t)ct->hi_bits + ct->q_bits,
                                       ct->value_bits);
    return 1;
}

/* Puts an entry of x at its home in to, or after the last one put: the
 * entries come in the order of x, from a table sorted by it (put). */
static inline __attribute__((always_inline)) int place(ctable *to, ctable_mover *mv, uint64_t x,
                                                      const uint8_t *hi, uint64_t hi_bits,
                                                      uint32_t value, int words)
{
    uint64_t home, q = ctable_split(to, x, &home);
    uint64_t at = home > mv->to_pos ? home : mv->to_pos;
    if (at - home > CTABLE_DIST_MAX)
        return CTABLE_FULL;
    uint8_t *s = to->slots + at * to->slot_bytes;
    if (words == 1) {
        word_store(s, (at - home + 1) | q << 8 | (uint64_t)value << (8 + to->q_bits));
        to->count++;
    } else if (words == 2) {
        pair_write(to, s, (unsigned)(at - home + 1), hi_bits, q, value);
    } else {
        s[0] = (uint8_t)(at - home + 1);
        write_entry(to, s + 1, hi, q, value);
    }
    mv->to_pos = at + 1;
    return 0;
}

/* ctable_move's loop.  Copied for tables of word slots (words 1) and of
 * two-word slots (words 2) with each c of from, which then read a slot
 * as words and unsplit without a switch a slot, and once (words 0, c 0)
 * for every other table. */
static inline __attribute__((always_inline)) int move_slots(ctable *to_table,
                                                           const ctable *from_table,
                                                           ctable_mover *mover, uint64_t steps,
                                                           int words, uint64_t c)
{
    /* the loop works on copies: slots are written through byte pointers,
     * which may alias the tables' and the mover's fields, so gcc loaded
     * each field again an entry; locals no pointer escapes to stay in
     * registers */
    ctable to_copy = *to_table, *to = &to_copy;
    const ctable from_copy = *from_table, *from = &from_copy;
    ctable_mover mv_copy = *mover, *mv = &mv_copy;
    int r = 0;
    size_t S = from->slot_bytes;
    uint64_t end = from->m + SPILL, i = mv->from_pos;
    uint64_t stop = steps < end - i ? i + steps : end;
    uint64_t q_mask = ctable_low_mask(from->q_bits), value_mask = ctable_low_mask(from->value_bits);
    unsigned value_at = 8 + from->q_bits;
    /* two-word slots: the verbatim bits and the quotient begin in the
     * first word, the value wherever it follows */
    unsigned q_at = 8 + from->hi_bits, pair_value_at = q_at + from->q_bits;
    for (; i < stop; i++) {
        const uint8_t *s = from->slots + i * S;
        uint64_t w = words ? word_load(s) : s[0], hi = 0;
        unsigned d = (unsigned)(w & 0xff);
        if (!d)
            continue;
        uint64_t home = i - (d - 1u), x;
        uint32_t value;
        if (words == 1) {
            x = unsplit_c(from, home, (w >> 8) & q_mask, c);
            value = (uint32_t)((w >> value_at) & value_mask);
        } else if (words == 2) {
            uint64_t w1 = word_load(s + 8);
            hi = (w >> 8) & from->hi_mask;
            x = unsplit_c(from, home, (w >> q_at | w1 << (64 - q_at)) & q_mask, c);
            value = pair_value_at < 64    ? (uint32_t)((w >> pair_value_at | w1 << (64 - pair_value_at)) & value_mask)
                    : pair_value_at < 128 ? (uint32_t)((w1 >> (pair_value_at - 64)) & value_mask)
                                          : 0;   /* no value bits */
        } else {
            x = unsplit(from, home, ctable_get_bits(s + 1, from->hi_bits, from->q_bits));
            value = (uint32_t)ctable_get_bits(s + 1, (size_t)from->hi_bits + from->q_bits,
                                              from->value_bits);
        }
        if (place(to, mv, x, s + 1, hi, value, words) < 0) {
            r = CTABLE_FULL;
            break;
        }
    }
    if (!r) {
        mv->from_pos = i;
        r = i == end;
    }
    to_table->count = to->count;
    *mover = *mv;
    return r;
}

/* move_slots for each c of from, slots read as words (1) or pairs (2).
 * Forced inline, so that words is a constant in each copy. */
static inline __attribute__((always_inline)) int move_by_c(ctable *to, const ctable *from,
                                                          ctable_mover *mv, uint64_t steps,
                                                          int words)
{
    switch (from->c) {
    case 8: return move_slots(to, from, mv, steps, words, 8);
    case 9: return move_slots(to, from, mv, steps, words, 9);
    case 10: return move_slots(to, from, mv, steps, words, 10);
    case 11: return move_slots(to, from, mv, steps, words, 11);
    case 12: return move_slots(to, from, mv, steps, words, 12);
    case 13: return move_slots(to, from, mv, steps, words, 13);
    case 14: return move_slots(to, from, mv, steps, words, 14);
    default: return move_slots(to, from, mv, steps, words, 15);
    }
}

int ctable_move(ctable *to, const ctable *from, ctable_mover *mv, uint64_t steps)
{
    if (word_slots(from) && word_slots(to))
        return move_by_c(to, from, mv, steps, 1);
    if (ctable_pairs(from) && ctable_pairs(to))
        return move_by_c(to, from, mv, steps, 2);
    return move_slots(to, from, mv, steps, 0, 0);
}
