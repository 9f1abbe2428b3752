/* keynet: the net on fixed-width keys (keynet.h). */
#include "engine/keynet.h"

#include <stdlib.h>

static void add_field(keynet_field *f, uint32_t *n, unsigned word, unsigned shift, uint64_t mask,
                      uint64_t value)
{
    f[*n].word = (uint8_t)word;
    f[*n].shift = (uint8_t)shift;
    f[*n].mask = mask;
    f[*n].value = value;
    ++*n;
}

/* Puts the field (word, shift, max) with its part of add into g; 0 when
 * it has no guard bit free in g, or the part does not fit. */
static int add_to_group(keynet_group *g, unsigned word, unsigned shift, uint64_t max,
                        uint64_t weight)
{
    unsigned top = shift + 64u - (unsigned)__builtin_clzll(max);
    if (top >= 64 || weight > max || (g->guards && g->word != word))
        return 0;
    uint64_t bits = max << shift, guard = UINT64_C(1) << top;
    if ((g->fields | g->guards) & (bits | guard))
        return 0;
    g->word = word;
    g->fields |= bits;
    g->guards |= guard;
    g->add += weight << shift;
    return 1;
}

/* delta * 2^(64 word + shift) added to acc modulo 2^128; |delta| fits
 * the field, so the shifted value fits 64 bits and a sign. */
static void add_delta(uint64_t acc[2], unsigned word, unsigned shift, int64_t delta)
{
    uint64_t lo = (uint64_t)delta << shift;
    uint64_t hi = delta < 0 ? UINT64_MAX : 0;
    if (word == 1) {
        hi = lo;
        lo = 0;
    }
    uint64_t sum = acc[0] + lo;
    acc[1] += hi + (sum < acc[0]);
    acc[0] = sum;
}

static nc_count need_of(const cnet_t *cn, uint32_t t, uint32_t p)
{
    for (uint32_t i = cn->need_start[t]; i < cn->need_start[t + 1]; i++)
        if (cn->need_place[i] == p)
            return cn->need_weight[i];
    return 0;
}

/* One transition's tests and constant; -1 when a firing could take a
 * count below zero (the net's needs do not cover its consumption). */
static int compile_transition(keynet_t *kn, const cnet_t *cn, const store_t *st, uint32_t t,
                              uint32_t *nneed, uint32_t *nfull)
{
    keynet_trans *tr = &kn->tr[t];
    unsigned word, shift;
    uint64_t max;
    uint64_t number;
    int never = 0;
    tr->need_from = *nneed;
    for (uint32_t i = cn->need_start[t]; i < cn->need_start[t + 1]; i++) {
        store_field(st, cn->need_place[i], &word, &shift, &max);
        if (store_place_number(st, cn->need_place[i], &number)) {
            /* a group has one token: needing two of it, or two of its
             * places, is never met */
            uint64_t bits = max << shift;
            if (cn->need_weight[i] != 1 ||
                ((tr->need_mask[word] & bits) && (tr->need_value[word] & bits) != number << shift))
                never = 1;
            tr->need_mask[word] |= bits;
            tr->need_value[word] = (tr->need_value[word] & ~bits) | number << shift;
        } else if (max == 1 && cn->need_weight[i] == 1) {
            tr->need_mask[word] |= UINT64_C(1) << shift;
            tr->need_value[word] |= UINT64_C(1) << shift;
        } else if (!max || !add_to_group(&tr->wide, word, shift, max, cn->need_weight[i]))
            add_field(kn->need_fields, nneed, word, shift, max, cn->need_weight[i]);
    }
    /* never: a value bit outside the mask never matches, or, when the
     * masks leave none, a field compared with a value it cannot hold */
    for (unsigned w = 0; never && w < kn->words; w++) {
        uint64_t untested = ~tr->need_mask[w];
        if (untested) {
            tr->need_value[w] |= untested & -untested;
            never = 0;
        }
    }
    if (never)   /* 0 >= 1 */
        add_field(kn->need_fields, nneed, 0, 0, 0, 1);
    tr->need_to = *nneed;
    tr->full_from = *nfull;
    for (uint32_t i = cn->eff_start[t]; i < cn->eff_start[t + 1]; i++) {
        uint32_t p = cn->eff_place[i];
        int64_t d = cn->eff_delta[i];
        store_field(st, p, &word, &shift, &max);
        if (d < 0 && need_of(cn, t, p) < (nc_count)(-(d + 1)) + 1)
            return -1;
        if (store_place_number(st, p, &number)) {
            /* the token moves within the group, from a place t needs
             * (its number tested above) to one it adds to: the field
             * takes the new number, and cannot leave its range.  A change
             * other than 1 or -1 is never made: t needs 2 tokens of the
             * group, or has one place twice, and is never enabled */
            if (d >= -1 && d <= 1)
                add_delta(tr->delta, word, shift, d * (int64_t)number);
            continue;
        }
        if (d > 0 && (uint64_t)d > max) {
            tr->overflows = 1;   /* a bound that cannot hold; never fired */
            continue;
        }
        if (d < 0 && (uint64_t)(-(d + 1)) + 1 > max)
            continue;   /* never enabled: it needs more than the field holds */
        if (d > 0 && max == 1)
            tr->full[word] |= UINT64_C(1) << shift;
        else if (d > 0 && !add_to_group(&tr->grows, word, shift, max, (uint64_t)d))
            add_field(kn->full_fields, nfull, word, shift, max, max - (uint64_t)d);
        add_delta(tr->delta, word, shift, d);
    }
    tr->full_to = *nfull;
    return 0;
}

keynet_t *keynet_new(const cnet_t *cn, const store_t *st)
{
    size_t words = store_key_words(st);
    if (words < 1 || words > 2)
        return NULL;
    keynet_t *kn = calloc(1, sizeof *kn);
    if (!kn)
        return NULL;
    uint32_t T = cn->ntransitions, P = cn->nplaces;
    kn->ntransitions = T;
    kn->words = (unsigned)words;
    kn->consumers_start = cn->consumers_start;
    kn->consumers = cn->consumers;
    kn->tr = calloc(T ? T : 1, sizeof *kn->tr);
    kn->need_fields = calloc(cn->need_start[T] + 1, sizeof *kn->need_fields);
    kn->full_fields = calloc(cn->eff_start[T] + 1, sizeof *kn->full_fields);
    kn->en = calloc((T + 63) / 64 + 1, sizeof *kn->en);
    kn->field_mask = calloc(P ? P : 1, sizeof *kn->field_mask);
    kn->delta = calloc(words * (T ? T : 1), sizeof *kn->delta);
    /* a group of n places has a field of fewer than 2n values */
    kn->group_fields = calloc(P ? P : 1, sizeof *kn->group_fields);
    kn->group_place = malloc((2 * (size_t)P + 1) * sizeof *kn->group_place);
    if (!kn->tr || !kn->need_fields || !kn->full_fields || !kn->en || !kn->field_mask ||
        !kn->delta || !kn->group_fields || !kn->group_place) {
        keynet_free(kn);
        return NULL;
    }
    for (unsigned b = 0; b < 128; b++)
        kn->owner[b] = UINT32_MAX;
    /* the key's last word: only the bits up to its last field's end are
     * key (bytes behind a key in the queue belong to the next one) */
    unsigned top = 0;
    uint32_t ngroups = 0, nvalues = 0;
    for (uint32_t p = 0; p < P; p++) {
        unsigned word, shift;
        uint64_t max;
        store_field(st, p, &word, &shift, &max);
        if (!max)
            continue;
        unsigned width = 64u - (unsigned)__builtin_clzll(max);
        if (word + 1 == words && shift + width > top)
            top = shift + width;
        /* a group's field stands for several places: its value names the
         * one with the token (retest_words) */
        uint64_t number;
        if (store_place_number(st, p, &number)) {
            uint16_t *g = &kn->bit_group[64 * word + shift];
            if (!*g) {
                struct keynet_group_field *f = &kn->group_fields[ngroups];
                *f = (struct keynet_group_field){word, shift, max, nvalues};
                for (uint64_t v = 0; v <= max; v++)
                    kn->group_place[nvalues + v] = UINT32_MAX;
                nvalues += (uint32_t)max + 1;
                ngroups++;
                for (unsigned b = 0; b < width; b++)
                    kn->bit_group[64 * word + shift + b] = (uint16_t)ngroups;
            }
            kn->group_place[kn->group_fields[*g - 1].start + number] = p;
            continue;
        }
        kn->field_mask[p] = max << shift;
        for (unsigned b = 0; b < width; b++)
            kn->owner[64 * word + shift + b] = p;
    }
    kn->last_mask = top >= 64 ? UINT64_MAX : (UINT64_C(1) << top) - 1;
    uint32_t nneed = 0, nfull = 0;
    for (uint32_t t = 0; t < T; t++)
        if (compile_transition(kn, cn, st, t, &nneed, &nfull) < 0) {
            keynet_free(kn);
            return NULL;
        }
    for (uint32_t t = 0; t < T; t++)
        for (size_t w = 0; w < words; w++)
            kn->delta[words * t + w] = kn->tr[t].delta[w];
    kn->unsafe = UINT64_MAX;
    (void)keynet_tabulate(kn, cn, st);
    return kn;
}

void keynet_free(keynet_t *kn)
{
    if (!kn)
        return;
    free(kn->tr);
    free(kn->need_fields);
    free(kn->full_fields);
    free(kn->en);
    free(kn->field_mask);
    free(kn->delta);
    free(kn->group_fields);
    free(kn->group_place);
    free(kn->chunks);
    free(kn->tab);
    free(kn);
}

keynet_t *keynet_view(const keynet_t *kn)
{
    keynet_t *v = malloc(sizeof *v);
    if (!v)
        return NULL;
    *v = *kn;
    v->valid = 0;
    if (!(v->en = calloc((kn->ntransitions + 63) / 64 + 1, sizeof *v->en))) {
        free(v);
        return NULL;
    }
    return v;
}

void keynet_view_free(keynet_t *view)
{
    if (!view)
        return;
    free(view->en);
    free(view);
}

static void scan_all(keynet_t *kn, const uint64_t k[2])
{
    uint32_t T = kn->ntransitions;
    for (uint32_t w = 0; w < (T + 63) / 64; w++)
        kn->en[w] = 0;
    for (uint32_t t = 0; t < T; t++)
        kn->en[t >> 6] |= (uint64_t)keynet_enabled_in(kn, t, k) << (t & 63);
}

/* How many transitions need p: the cost of testing again on its account. */
static inline uint32_t consumers_of(const keynet_t *kn, uint32_t p)
{
    return kn->consumers_start[p + 1] - kn->consumers_start[p];
}

/* Tests again the transitions needing a field that differs from the last
 * key's; 0 when that would cost more than testing them all.  Copied for
 * keys of one and of two words. */
static inline __attribute__((always_inline)) int retest_words(keynet_t *kn, const uint64_t k[2],
                                                             unsigned words)
{
    uint32_t places[2 * 128], n = 0;
    uint64_t cost = 0, limit = kn->ntransitions / 2;
    for (unsigned w = 0; w < words; w++)
        for (uint64_t bits = k[w] ^ kn->last[w]; bits;) {
            unsigned b = 64 * w + (unsigned)__builtin_ctzll(bits);
            uint32_t p = kn->owner[b];
            if (p == UINT32_MAX && kn->bit_group[b]) {
                /* the token left one place of the group for another */
                const struct keynet_group_field *f = &kn->group_fields[kn->bit_group[b] - 1];
                uint32_t from = kn->group_place[f->start + ((kn->last[w] >> f->shift) & f->mask)];
                uint32_t to = kn->group_place[f->start + ((k[w] >> f->shift) & f->mask)];
                if (from == UINT32_MAX || to == UINT32_MAX)
                    return 0;
                bits &= ~(f->mask << f->shift);
                places[n++] = from;
                places[n++] = to;
                cost += consumers_of(kn, from) + consumers_of(kn, to);
                if (cost > limit)
                    return 0;
                continue;
            }
            if (p == UINT32_MAX)   /* no field: keys keep such bits 0 */
                return 0;
            bits &= ~kn->field_mask[p];
            places[n++] = p;
            cost += consumers_of(kn, p);
            if (cost > limit)
                return 0;
        }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t p = places[i];
        for (uint32_t j = kn->consumers_start[p]; j < kn->consumers_start[p + 1]; j++) {
            uint32_t t = kn->consumers[j];
            uint64_t bit = UINT64_C(1) << (t & 63);
            kn->en[t >> 6] = (kn->en[t >> 6] & ~bit) |
                             ((uint64_t)keynet_enabled_words(kn, t, k, words) << (t & 63));
        }
    }
    return 1;
}

static int retest_changed(keynet_t *kn, const uint64_t k[2])
{
    return kn->words == 1 ? retest_words(kn, k, 1) : retest_words(kn, k, 2);
}

/* Up to this many transitions, testing them all costs less than finding
 * the ones a change concerns: a short loop with no bookkeeping per
 * change. */
#define SCAN_MAX 32

/* Few transitions: all tested, the list written as they are, without
 * a bit set to read back.  Copied for keys of one and of two words. */
static inline __attribute__((always_inline)) uint32_t scan_words(keynet_t *kn,
                                                                const uint64_t k[2],
                                                                uint32_t *enabled,
                                                                unsigned words)
{
    uint64_t bits = 0;
    uint32_t n = 0;
    for (uint32_t t = 0; t < kn->ntransitions; t++) {
        uint64_t on = (uint64_t)keynet_enabled_words(kn, t, k, words);
        bits |= on << t;
        enabled[n] = t;
        n += (uint32_t)on;
    }
    kn->en[0] = bits;
    return n;
}

static uint32_t enabled_by_scan(keynet_t *kn, const uint64_t k[2], uint32_t *enabled)
{
    return kn->words == 1 ? scan_words(kn, k, enabled, 1) : scan_words(kn, k, enabled, 2);
}

/* Entries of two sets of W words: one and a chunk for each word.
 * Copied for each W. */
static inline __attribute__((always_inline)) uint32_t
enabled_by_sets(keynet_t *kn, const uint64_t k[2], uint32_t *enabled, unsigned W)
{
    uint64_t acc[2 * KEYTAB_WORDS_MAX];
    for (unsigned w = 0; w < 2 * W; w++)
        acc[w] = kn->tab_init[w];
    const keynet_chunk *c = kn->chunks, *end = c + kn->nchunks;
    for (; c < end; c++) {
        const uint64_t *e = c->tab + ((k[c->word] >> c->shift) & c->mask) * 2 * W;
        /* unrolled, acc stays in registers (gcc 12 kept it in memory) */
#pragma GCC unroll 8
        for (unsigned w = 0; w < 2 * W; w++)
            acc[w] &= e[w];
    }
    uint32_t n = 0;
    kn->unsafe = 0;
    for (unsigned w = 0; w < W; w++) {
        kn->unsafe_bits[w] = acc[w] & ~acc[W + w];
        kn->unsafe |= kn->unsafe_bits[w];
        for (uint64_t on = acc[w]; on; on &= on - 1)
            enabled[n++] = 64 * w + (uint32_t)__builtin_ctzll(on);
    }
    return n;
}

static uint32_t enabled_by_table(keynet_t *kn, const uint64_t k[2], uint32_t *enabled)
{
    switch (kn->tab_words) {
    case 0: break;
    case 1: return enabled_by_sets(kn, k, enabled, 1);
    case 2: return enabled_by_sets(kn, k, enabled, 2);
    case 3: return enabled_by_sets(kn, k, enabled, 3);
    default: return enabled_by_sets(kn, k, enabled, KEYTAB_WORDS_MAX);
    }
    uint64_t on = keynet_enabled_mask(kn, k);
    kn->unsafe_bits[0] = kn->unsafe;
    uint32_t n = 0;
    for (; on; on &= on - 1)
        enabled[n++] = (uint32_t)__builtin_ctzll(on);
    return n;
}

uint32_t keynet_enabled(keynet_t *kn, const uint64_t k[2], uint32_t *enabled)
{
    if (kn->tab)
        return enabled_by_table(kn, k, enabled);
    if (kn->ntransitions <= SCAN_MAX) {
        /* SCAN_MAX < 64: one word of bits */
        kn->valid = 1;
        kn->last[0] = k[0];
        kn->last[1] = k[1];
        return enabled_by_scan(kn, k, enabled);
    }
    if (!kn->valid || !retest_changed(kn, k))
        scan_all(kn, k);
    kn->valid = 1;
    kn->last[0] = k[0];
    kn->last[1] = k[1];
    uint32_t n = 0;
    for (uint32_t w = 0; w < (kn->ntransitions + 63) / 64; w++)
        for (uint64_t bits = kn->en[w]; bits; bits &= bits - 1)
            enabled[n++] = w * 64 + (uint32_t)__builtin_ctzll(bits);
    return n;
}
