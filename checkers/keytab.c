/* keytab: enabledness of a small net by table lookups on its keys.
 *
 * Whether t is enabled, and whether firing it keeps every count within
 * its field, is a conjunction of one condition a place: count >= need,
 * and count + delta <= the field's largest count.  So the key is cut
 * into chunks of a few whole fields, and a table per chunk gives, for
 * each value of the chunk, the transitions its fields let through.  The
 * and of one entry a chunk is the answer for every transition at once:
 * a net of 8 places costs 8 loads a state instead of a test a transition
 * (about 40 instructions each on SmallOperatingSystem), and firings need
 * no test of their own when no enabled transition leaves a field.
 *
 * An entry is a word: the transitions enabled as far as the chunk tells
 * in its low 32 bits, those whose firing the chunk lets stay in its
 * fields in the high 32.  Hence at most 32 transitions. */
#include "checkers/keynet.h"

#include <stdlib.h>

/* A chunk spans at most this many bits, unless one field is wider: such
 * a field makes a chunk of its own, up to KEYTAB_FIELD_MAX bits.  The
 * tables of a net must fit KEYTAB_ENTRIES_MAX entries (128 KB), so that
 * they stay in the cache. */
#define KEYTAB_CHUNK_BITS 8u
#define KEYTAB_FIELD_MAX 12u
#define KEYTAB_ENTRIES_MAX ((uint32_t)1 << 14)

typedef struct field {
    uint32_t place;
    unsigned word, shift, width;
    uint64_t max;
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

/* The bits of an entry that a count v of a field with these conditions
 * clears. */
static uint64_t blocked(uint32_t T, const nc_count *need, const int64_t *delta, uint64_t v,
                        uint64_t max)
{
    uint64_t off = 0;
    for (uint32_t t = 0; t < T; t++) {
        if (v < need[t])
            off |= UINT64_C(1) << t;
        if (delta[t] > 0 && (uint64_t)delta[t] > max - v)
            off |= UINT64_C(1) << (32 + t);
    }
    return off;
}

/* Cuts the sorted fields into chunks (chunks and their first fields into
 * kn and first[]); 0 when a field is too wide or the tables too big. */
static uint32_t cut(keynet_t *kn, const field *f, uint32_t n, uint32_t *first)
{
    uint32_t nchunks = 0, entries = 0;
    for (uint32_t i = 0; i < n;) {
        if (f[i].width > KEYTAB_FIELD_MAX)
            return 0;
        uint32_t j = i + 1;
        unsigned span = f[i].width;
        while (j < n && f[j].word == f[i].word &&
               f[j].shift + f[j].width - f[i].shift <= KEYTAB_CHUNK_BITS) {
            span = f[j].shift + f[j].width - f[i].shift;
            j++;
        }
        if (entries + (UINT32_C(1) << span) > KEYTAB_ENTRIES_MAX)
            return 0;
        keynet_chunk *c = &kn->chunks[nchunks];
        c->base = entries;
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
    uint32_t T = cn->ntransitions;
    for (uint32_t c = 0; c < kn->nchunks; c++) {
        const keynet_chunk *ch = &kn->chunks[c];
        uint64_t *tab = kn->tab + ch->base;
        for (uint64_t v = 0; v <= ch->mask; v++)
            tab[v] = UINT64_MAX;
        for (uint32_t i = first[c]; i < first[c + 1]; i++) {
            conditions_of(cn, f[i].place, need, delta);
            for (uint64_t v = 0; v <= ch->mask; v++)
                tab[v] &= ~blocked(T, need, delta, (v >> (f[i].shift - ch->shift)) & f[i].max,
                                   f[i].max);
        }
    }
}

int keynet_tabulate(keynet_t *kn, const cnet_t *cn, const store_t *st)
{
    uint32_t P = cn->nplaces, T = cn->ntransitions;
    if (T > 32)
        return 0;
    field *f = calloc(P ? P : 1, sizeof *f);
    uint32_t *first = calloc(P + 1, sizeof *first);
    nc_count *need = calloc(T ? T : 1, sizeof *need);
    int64_t *delta = calloc(T ? T : 1, sizeof *delta);
    kn->chunks = calloc(P ? P : 1, sizeof *kn->chunks);
    int ok = f && first && need && delta && kn->chunks;
    uint32_t n = 0;
    uint64_t all = T ? (UINT64_C(1) << T) - 1 : 0;
    kn->tab_init = all | all << 32;
    for (uint32_t p = 0; ok && p < P; p++) {
        unsigned word, shift;
        uint64_t max;
        store_field(st, p, &word, &shift, &max);
        if (!max) {
            /* no field: the count is 0 in every key */
            conditions_of(cn, p, need, delta);
            kn->tab_init &= ~blocked(T, need, delta, 0, 0);
            continue;
        }
        f[n++] = (field){p, word, shift, 64u - (unsigned)__builtin_clzll(max), max};
    }
    if (ok) {
        qsort(f, n, sizeof *f, by_position);
        kn->nchunks = cut(kn, f, n, first);
        ok = kn->nchunks > 0 || n == 0;
    }
    if (ok && (kn->tab = calloc(kn->tab_entries ? kn->tab_entries : 1, sizeof *kn->tab)))
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
