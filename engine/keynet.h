/* keynet: a compiled net restated on fixed-width keys of one or two
 * 64-bit words (store_new_packed), so that the search never decodes a
 * marking to expand it.
 *
 * A key is the number sum(count(p) * 2^offset(p)) over the places' bit
 * fields, a one-hot group's field counting as the number of its place
 * with the token (store.h).  Firing t adds sum(delta(p) * 2^offset(p)),
 * one constant per transition: as long as every count stays within its
 * field, no carry or borrow can cross a field, so the successor is the
 * key plus that constant modulo 2^128, and the words between fields stay
 * zero.  Enabling tests the fields t needs: one masked comparison covers
 * every one-bit field with weight 1 and every group's field, one
 * subtraction the wider ones that have a free guard bit (keynet_group),
 * and the rest are compared one by one.
 * A count that would leave its field (a place bound that did not hold)
 * is tested the same way before a firing, so that it ends the search
 * instead of corrupting a neighbour.
 *
 * Enabledness is kept from one expanded key to the next: keys next to
 * each other in a breadth-first queue differ in a few fields, and only
 * the transitions needing a changed field are tested again. */
#ifndef MCK_KEYNET_H
#define MCK_KEYNET_H

#include "engine/store.h"
#include "engine/words.h"
#include "base/netconv.h"

#include <stdint.h>

/* A field compared with a constant: ((word >> shift) & mask) against
 * value (enabling: >= value; overflow: > value). */
typedef struct keynet_field {
    uint8_t word, shift;
    uint64_t mask, value;
} keynet_field;

/* The wider fields a transition needs, as many as fit, are compared at
 * once: the bit above each such field is free (no field of the group
 * holds it) and serves as its guard.  ((word & fields) | guards) - add
 * keeps a guard set exactly when its field is at least its part of add:
 * a field below its part borrows from its own guard and no further.  A
 * field with no free bit above it, or that does not fit, is compared
 * alone (need_fields).  The same group tells whether firing passes a
 * field's largest count: (word & fields) + add carries into the guard of
 * exactly those fields, add holding what the firing adds. */
typedef struct keynet_group {
    uint64_t fields, guards, add;
    unsigned word;
} keynet_group;

typedef struct keynet_trans {
    /* (k & need_mask) == need_value: one-bit fields it needs 1 of, and
     * one-hot groups' fields (keynet.c, store_place_number) that must
     * name the place it needs; a value bit outside the mask when it needs
     * two places of a group, or two tokens of one, and is never enabled */
    uint64_t need_mask[2], need_value[2];
    keynet_group wide;         /* wider fields it needs */
    keynet_group grows;        /* wider fields it adds to */
    uint64_t full[2];          /* one-bit fields that must be 0 to fire */
    uint64_t delta[2];         /* the firing's constant, modulo 2^128 */
    uint32_t need_from, need_to;   /* other fields it needs: need_fields */
    uint32_t full_from, full_to;   /* other fields it may overflow */
    int overflows;             /* every firing leaves a field */
} keynet_trans;

/* Tables serve nets of up to 64 * KEYTAB_WORDS_MAX transitions. */
#define KEYTAB_WORDS_MAX 4u

/* A chunk of a key (keytab.c): its bits (word >> shift) & mask index
 * the table's entries from base on. */
typedef struct keynet_chunk {
    const uint64_t *tab;       /* the table's entries: kn->tab + base */
    uint64_t mask;
    uint32_t base;
    uint8_t word, shift;
} keynet_chunk;

typedef struct keynet {
    uint32_t ntransitions;
    unsigned words;            /* 1 or 2 */
    uint64_t last_mask;        /* the key bits of its last word */
    keynet_trans *tr;
    keynet_field *need_fields, *full_fields;
    /* incremental enabledness */
    uint64_t *en;              /* enabled transitions of the last key */
    uint64_t last[2];
    int valid;
    const uint32_t *consumers_start, *consumers;
    uint32_t owner[128];       /* place of each key bit (UINT32_MAX: none,
                                * or a one-hot group's field) */
    uint64_t *field_mask;      /* per place: its field's bits in its word */
    /* one-hot groups' fields (store_place_number): bit_group[b] is 0, or
     * 1 + the index in group_fields of the field holding key bit b; the
     * place a field's value v names is group_place[start + v]
     * (UINT32_MAX for values no place has) */
    uint16_t bit_group[128];
    struct keynet_group_field {
        unsigned word, shift;
        uint64_t mask;
        uint32_t start;
    } *group_fields;
    uint32_t *group_place;
    uint64_t *delta;           /* tr->delta, packed: words a transition,
                                * t's at words * t */
    /* enabledness by table (keytab.c), when tab is not NULL: entries of
     * tab_stride words; tab_words 0 for one word holding both halves
     * (at most 32 transitions), else the words of each half */
    keynet_chunk *chunks;
    uint32_t nchunks, tab_entries;
    unsigned tab_words, tab_stride;
    uint64_t *tab;
    uint64_t tab_init[2 * KEYTAB_WORDS_MAX];
    /* the enabled transitions of the last key keynet_enabled was given
     * whose firing leaves a field, with tab only: unsafe_bits says which
     * (bit t of word t / 64), unsafe is 0 when none does; without tab,
     * unsafe is all ones */
    uint64_t unsafe;
    uint64_t unsafe_bits[KEYTAB_WORDS_MAX];
} keynet_t;

/* Tables for keynet_enabled (keytab.c): 1 made, 0 not for this net
 * (too many transitions, fields too wide, tables too big) or no
 * memory. */
int keynet_tabulate(keynet_t *kn, const cnet_t *cn, const store_t *st);

/* NULL when st's keys are not fixed-width keys of at most two words, or
 * on no memory. */
keynet_t *keynet_new(const cnet_t *cn, const store_t *st);
void keynet_free(keynet_t *kn);

/* A thread's own copy of kn for keynet_enabled: the compiled transitions
 * and tables stay kn's, only read; what keynet_enabled remembers from one
 * key to the next (en, last, unsafe) is the copy's.  kn must outlive it.
 * NULL on no memory. */
keynet_t *keynet_view(const keynet_t *kn);
void keynet_view_free(keynet_t *view);

/* The key's words (bytes past its end are ignored). */
static inline void keynet_load(const keynet_t *kn, const uint8_t *key, uint64_t k[2])
{
    if (kn->words == 2) {
        k[0] = word_load(key);
        k[1] = word_load(key + 8) & kn->last_mask;
    } else {
        k[0] = word_load(key) & kn->last_mask;
        k[1] = 0;
    }
}

static inline int keynet_fields_hold(const keynet_field *f, uint32_t from, uint32_t to,
                                     const uint64_t k[2], int at_least)
{
    for (uint32_t i = from; i < to; i++) {
        uint64_t v = (k[f[i].word] >> f[i].shift) & f[i].mask;
        if (at_least ? v < f[i].value : v > f[i].value)
            return 0;
    }
    return 1;
}

/* Whether t is enabled in k; words as in keynet_fire_in. */
static inline __attribute__((always_inline)) int keynet_enabled_words(const keynet_t *kn,
                                                                     uint32_t t,
                                                                     const uint64_t k[2],
                                                                     unsigned words)
{
    const keynet_trans *tr = &kn->tr[t];
    if (((k[0] & tr->need_mask[0]) ^ tr->need_value[0]) |
        (words == 2 ? (k[1] & tr->need_mask[1]) ^ tr->need_value[1] : 0))
        return 0;
    if (tr->wide.guards) {
        uint64_t wide = (k[tr->wide.word] & tr->wide.fields) | tr->wide.guards;
        if (((wide - tr->wide.add) & tr->wide.guards) != tr->wide.guards)
            return 0;
    }
    if (tr->need_from == tr->need_to)
        return 1;
    return keynet_fields_hold(kn->need_fields, tr->need_from, tr->need_to, k, 1);
}

static inline int keynet_enabled_in(const keynet_t *kn, uint32_t t, const uint64_t k[2])
{
    return keynet_enabled_words(kn, t, k, kn->words);
}

/* With tables of one-word entries (kn->tab, kn->tab_words 0): the
 * transitions enabled in k as bits (t is bit t); sets kn->unsafe.
 * Inline: it runs once a state. */
static inline uint64_t keynet_enabled_mask(keynet_t *kn, const uint64_t k[2])
{
    uint64_t acc = kn->tab_init[0];
    const keynet_chunk *c = kn->chunks, *end = c + kn->nchunks;
    if (kn->words == 1) {
        uint64_t k0 = k[0];
        for (; c < end; c++)
            acc &= c->tab[(k0 >> c->shift) & c->mask];
    } else {
        for (; c < end; c++)
            acc &= c->tab[(k[c->word] >> c->shift) & c->mask];
    }
    uint64_t on = acc & UINT32_MAX;
    kn->unsafe = on & ~(acc >> 32);
    return on;
}

/* The transitions enabled in k, ascending, into enabled; their number.
 * Sets kn->unsafe. */
uint32_t keynet_enabled(keynet_t *kn, const uint64_t k[2], uint32_t *enabled);

/* The successor of k under t, enabled in k, into s; 0 when a count would
 * leave its field.  words is kn->words: a caller that knows it can make
 * it a constant. */
static inline __attribute__((always_inline)) int keynet_fire_in(const keynet_t *kn, uint32_t t,
                                                               const uint64_t k[2],
                                                               uint64_t s[2], unsigned words)
{
    const keynet_trans *tr = &kn->tr[t];
    if (tr->overflows || (k[0] & tr->full[0]) | (words == 2 ? k[1] & tr->full[1] : 0) ||
        (tr->grows.guards &&
         (((k[tr->grows.word] & tr->grows.fields) + tr->grows.add) & tr->grows.guards)) ||
        !keynet_fields_hold(kn->full_fields, tr->full_from, tr->full_to, k, 0))
        return 0;
    uint64_t lo = k[0] + tr->delta[0];
    s[0] = lo;
    s[1] = words == 2 ? k[1] + tr->delta[1] + (lo < k[0]) : 0;
    return 1;
}

/* The successor of the two-word key k under t, from kn->delta (a
 * caller may pass it from a local), without a test. */
static inline __attribute__((always_inline)) void keynet_fire_pair(const uint64_t *delta,
                                                                  uint32_t t,
                                                                  const uint64_t k[2],
                                                                  uint64_t s[2])
{
    const uint64_t *d = delta + 2 * (size_t)t;
    uint64_t lo = k[0] + d[0];
    s[0] = lo;
    s[1] = k[1] + d[1] + (lo < k[0]);
}

/* The successor of k under t when kn->unsafe says it stays in its
 * fields: no test. */
static inline __attribute__((always_inline)) void keynet_fire_safe(const keynet_t *kn, uint32_t t,
                                                                  const uint64_t k[2],
                                                                  uint64_t s[2], unsigned words)
{
    if (words == 1) {
        s[0] = k[0] + kn->delta[t];
        s[1] = 0;
        return;
    }
    keynet_fire_pair(kn->delta, t, k, s);
}

static inline int keynet_fire(const keynet_t *kn, uint32_t t, const uint64_t k[2], uint64_t s[2])
{
    return keynet_fire_in(kn, t, k, s, kn->words);
}

/* s as key bytes (16 bytes are written; the key is the first ones). */
static inline void keynet_store(uint8_t *key, const uint64_t s[2])
{
    word_store(key, s[0]);
    word_store(key + 8, s[1]);
}

#endif
