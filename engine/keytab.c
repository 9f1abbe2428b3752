/* keytab: enabledness by table lookups on keys.
 *
 * Whether t is enabled, and whether firing it keeps every count within
 * its field, is a conjunction of one condition a place: count >= need,
 * and count + delta <= the field's largest count.  So the key is cut
 * into chunks of a few whole fields, and a table per chunk gives, for
 * each value of the chunk, the transitions its fields let through.  The
 * and of one entry a chunk is the answer for every transition at once:
 * a net of 8 places costs 8 loads a state instead of a test a transition,
 * and firings need
 * no test of their own when no enabled transition leaves a field.
 *
 * An entry of a net of at most 32 transitions is one word: the
 * transitions enabled as far as the chunk tells in its low half, those
 * whose firing the chunk lets stay in its fields in the high half.  Past
 * 32, an entry is two bit sets of `words` words each, in that order. */
#include "engine/keynet.h"

#include <stdlib.h>
#include <string.h>

/* A chunk spans at most this many bits, unless one field is wider: such
 * a field makes a chunk of its own, up to KEYTAB_FIELD_MAX bits.  The
 * tables of a net must fit KEYTAB_BYTES_MAX, so that they stay in the
 * cache. */
#define KEYTAB_CHUNK_BITS 8u
#define KEYTAB_FIELD_MAX 12u
#define KEYTAB_BYTES_MAX ((size_t)256 << 10)

/* A place's field; the places of a one-hot group share theirs, each
 * with its number (grouped). */
typedef struct field {
    uint32_t place;
    unsigned word, shift, width;
    uint64_t max, number;
    int grouped;
} field;

static int by_position(const void *a, const void *b)
{
    const field *x = a, *y = b;
    if (x->word != y->word)
        return x->word < y->word ? -1 : 1;
    return x->shift < y->shift ? -1 : x->shift > y->shift;
}

/* need[t] and delta[t] of place p for every transition. */
static void conditions_of(const cnet_t *cn, uint32_t p, nc_count *need, int64_t *delta)
{
    for (uint32_t t = 0; t < cn->ntransitions; t++) {
        need[t] = 0;
        delta[t] = 0;
        for (uint32_t i = cn->need_start[t]; i < cn->need_start[t + 1]; i++)
            if (cn->need_place[i] == p)
                need[t] = cn->need_weight[i];
        for (uint32_t i = cn->eff_start[t]; i < cn->eff_start[t + 1]; i++)
            if (cn->eff_place[i] == p)
                delta[t] = cn->eff_delta[i];
    }
}

static void clear_bit(uint64_t *e, size_t bit)
{
    e[bit / 64] &= ~(UINT64_C(1) << (bit % 64));
}

/* Clears in the entry e what a count v of a field with these conditions
 * forbids. */
static void restrict_entry(const keynet_t *kn, uint64_t *e, const nc_count *need,
                           const int64_t *delta, uint64_t v, uint64_t max)
{
    size_t safe_at = kn->tab_words ? 64 * (size_t)kn->tab_words : 32;
    for (uint32_t t = 0; t < kn->ntransitions; t++) {
        if (v < need[t])
            clear_bit(e, t);
        if (delta[t] > 0 && (uint64_t)delta[t] > max - v)
            clear_bit(e, safe_at + t);
    }
}

/* Cuts the sorted fields into chunks (chunks and their first fields into
 * kn and first[]); 0 when a field is too wide or the tables too big. */
static uint32_t cut(keynet_t *kn, const field *f, uint32_t n, uint32_t *first)
{
    size_t entry_bytes = kn->tab_stride * sizeof(uint64_t);
    uint32_t nchunks = 0, entries = 0;
    for (uint32_t i = 0; i < n;) {
        if (f[i].width > KEYTAB_FIELD_MAX)
            return 0;
        uint32_t j = i + 1;
        unsigned span = f[i].width;
        /* the places of a one-hot group share a field: they join the
         * chunk of its first, whatever its width */
        unsigned most = f[i].width > KEYTAB_CHUNK_BITS ? f[i].width : KEYTAB_CHUNK_BITS;
        while (j < n && f[j].word == f[i].word && f[j].shift + f[j].width - f[i].shift <= most) {
            unsigned end = f[j].shift + f[j].width - f[i].shift;
            span = end > span ? end : span;
            j++;
        }
        if ((entries + (UINT32_C(1) << span)) * entry_bytes > KEYTAB_BYTES_MAX)
            return 0;
        keynet_chunk *c = &kn->chunks[nchunks];
        c->base = entries * kn->tab_stride;
        c->word = (uint8_t)f[i].word;
        c->shift = (uint8_t)f[i].shift;
        c->mask = (UINT64_C(1) << span) - 1;
        first[nchunks++] = i;
        entries += UINT32_C(1) << span;
        i = j;
    }
    first[nchunks] = n;
    kn->tab_entries = entries;
    return nchunks;
}

static void fill(keynet_t *kn, const cnet_t *cn, const field *f, const uint32_t *first,
                 nc_count *need, int64_t *delta)
{
    size_t stride = kn->tab_stride;
    for (uint32_t c = 0; c < kn->nchunks; c++) {
        keynet_chunk *ch = &kn->chunks[c];
        uint64_t *tab = kn->tab + ch->base;
        ch->tab = tab;
        for (uint64_t v = 0; v <= ch->mask; v++)
            memcpy(tab + v * stride, kn->tab_init, stride * sizeof *tab);
        for (uint32_t i = first[c]; i < first[c + 1]; i++) {
            conditions_of(cn, f[i].place, need, delta);
            for (uint64_t v = 0; v <= ch->mask; v++) {
                uint64_t value = (v >> (f[i].shift - ch->shift)) & f[i].max;
                /* a grouped place holds the token or nothing */
                if (f[i].grouped)
                    restrict_entry(kn, tab + v * stride, need, delta, value == f[i].number, 1);
                else
                    restrict_entry(kn, tab + v * stride, need, delta, value, f[i].max);
            }
        }
    }
}

/* tab_init: every transition, as far as the places with no field (a
 * count of 0 in every key) allow. */
static void initial_entry(keynet_t *kn, const cnet_t *cn, const store_t *st, nc_count *need,
                          int64_t *delta)
{
    uint32_t T = cn->ntransitions;
    size_t safe_at = kn->tab_words ? 64 * (size_t)kn->tab_words : 32;
    for (uint32_t t = 0; t < T; t++) {
        kn->tab_init[t / 64] |= UINT64_C(1) << (t % 64);
        kn->tab_init[(safe_at + t) / 64] |= UINT64_C(1) << ((safe_at + t) % 64);
    }
    for (uint32_t p = 0; p < cn->nplaces; p++) {
        unsigned word, shift;
        uint64_t max;
        store_field(st, p, &word, &shift, &max);
        if (!max) {
            conditions_of(cn, p, need, delta);
            restrict_entry(kn, kn->tab_init, need, delta, 0, 0);
        }
    }
}

int keynet_tabulate(keynet_t *kn, const cnet_t *cn, const store_t *st)
{
    uint32_t P = cn->nplaces, T = cn->ntransitions;
    if (T > 64 * KEYTAB_WORDS_MAX)
        return 0;
    kn->tab_words = T <= 32 ? 0 : (T + 63) / 64;
    kn->tab_stride = kn->tab_words ? 2 * kn->tab_words : 1;
    field *f = calloc(P ? P : 1, sizeof *f);
    uint32_t *first = calloc(P + 1, sizeof *first);
    nc_count *need = calloc(T ? T : 1, sizeof *need);
    int64_t *delta = calloc(T ? T : 1, sizeof *delta);
    kn->chunks = calloc(P ? P : 1, sizeof *kn->chunks);
    int ok = f && first && need && delta && kn->chunks;
    uint32_t n = 0;
    for (uint32_t p = 0; ok && p < P; p++) {
        unsigned word, shift;
        uint64_t max;
        store_field(st, p, &word, &shift, &max);
        uint64_t number = 0;
        int grouped = store_place_number(st, p, &number);
        if (max)
            f[n++] = (field){p, word, shift, 64u - (unsigned)__builtin_clzll(max), max, number,
                             grouped};
    }
    if (ok) {
        initial_entry(kn, cn, st, need, delta);
        qsort(f, n, sizeof *f, by_position);
        kn->nchunks = cut(kn, f, n, first);
        ok = kn->nchunks > 0 || n == 0;
    }
    if (ok && (kn->tab = calloc(kn->tab_entries ? (size_t)kn->tab_entries * kn->tab_stride : 1,
                                sizeof *kn->tab)))
        fill(kn, cn, f, first, need, delta);
    free(f);
    free(first);
    free(need);
    free(delta);
    if (!kn->tab) {
        free(kn->chunks);
        kn->chunks = NULL;
        kn->nchunks = 0;
        return 0;
    }
    return 1;
}
