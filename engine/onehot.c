/* Groups of places holding one token between them (onehot.h). */
#include "engine/onehot.h"
#include "base/clock.h"
#include "base/grow.h"

#include <stdlib.h>
#include <string.h>

/* The search gives up past this many bytes of rows, or this many
 * candidate pairs at one transition: nets where it would are big, and
 * their keys keep a bit a place. */
#define ROWS_BYTES_MAX ((size_t)64 << 20)
#define ROWS_MAX 8192u
#define EFFECT_MAX ((int64_t)1 << 20)   /* keep_minimal compares every pair */
#define PAIRS_MAX ((uint64_t)1 << 24)

/* A nonnegative combination of places, all of weight 1: its support, its
 * effect under each transition not eliminated yet, and its initial sum. */
typedef struct rows {
    size_t n, cap, sup_words;
    uint32_t T;
    uint64_t *sup;     /* n * sup_words */
    int64_t *eff;      /* n * T */
    uint8_t *m0;
} rows;

static uint64_t *sup_of(const rows *r, size_t i) { return r->sup + i * r->sup_words; }
static int64_t *eff_of(const rows *r, size_t i) { return r->eff + i * (size_t)r->T; }

static int rows_room(rows *r, size_t n)
{
    if (n <= r->cap)
        return 0;
    size_t cap = r->cap ? r->cap : 64;
    while (cap < n)
        cap *= 2;
    size_t row_bytes = r->sup_words * 8 + (size_t)r->T * 8 + 1;
    if (n > ROWS_MAX || cap > ROWS_BYTES_MAX / row_bytes)
        return -1;
    uint64_t *sup = realloc(r->sup, cap * r->sup_words * sizeof *sup);
    if (sup)
        r->sup = sup;
    /* a net whose transitions leave every row alone has no columns */
    int64_t *eff = sup ? realloc(r->eff, cap * (r->T ? (size_t)r->T : 1) * sizeof *eff) : NULL;
    if (eff)
        r->eff = eff;
    uint8_t *m0 = eff ? realloc(r->m0, cap) : NULL;
    if (!m0)
        return -1;
    r->m0 = m0;
    r->cap = cap;
    return 0;
}

static void rows_free(rows *r)
{
    free(r->sup);
    free(r->eff);
    free(r->m0);
}

static unsigned sup_count(const rows *r, size_t i)
{
    unsigned n = 0;
    const uint64_t *s = sup_of(r, i);
    for (size_t w = 0; w < r->sup_words; w++)
        n += (unsigned)__builtin_popcountll(s[w]);
    return n;
}

static int sup_within(const uint64_t *a, const uint64_t *b, size_t words)
{
    for (size_t w = 0; w < words; w++)
        if (a[w] & ~b[w])
            return 0;
    return 1;
}

static int sup_disjoint(const uint64_t *a, const uint64_t *b, size_t words)
{
    for (size_t w = 0; w < words; w++)
        if (a[w] & b[w])
            return 0;
    return 1;
}

/* Keeps the rows of minimal support (one of equal ones): Farkas' rule,
 * which keeps the rows from growing past the invariants they lead to. */
static int ascending(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* order[] (n entries) sorted by key, then by index: each key in the high
 * half of a word, its index in the low one.  0, or -1 on no memory. */
static int sort_by(const uint32_t *key, size_t n, uint32_t *order)
{
    uint64_t *pairs = malloc((n ? n : 1) * sizeof *pairs);
    if (!pairs)
        return -1;
    for (size_t i = 0; i < n; i++)
        pairs[i] = (uint64_t)key[i] << 32 | order[i];
    qsort(pairs, n, sizeof *pairs, ascending);
    for (size_t i = 0; i < n; i++)
        order[i] = (uint32_t)pairs[i];
    free(pairs);
    return 0;
}

static void keep_minimal(rows *r, uint32_t *order)
{
    size_t n = r->n, kept = 0;
    uint32_t *size = malloc((n ? n : 1) * sizeof *size);
    if (!size)
        return;   /* kept as they are: more rows, same invariants */
    for (size_t i = 0; i < n; i++) {
        order[i] = (uint32_t)i;
        size[i] = sup_count(r, i);
    }
    uint8_t *drop = sort_by(size, n, order) == 0 ? calloc(n ? n : 1, 1) : NULL;
    if (!drop) {
        free(size);
        return;
    }
    for (size_t a = 0; a < n; a++) {
        if (drop[order[a]])
            continue;
        for (size_t b = a + 1; b < n; b++)
            if (!drop[order[b]] &&
                sup_within(sup_of(r, order[a]), sup_of(r, order[b]), r->sup_words))
                drop[order[b]] = 1;
    }
    for (size_t i = 0; i < n; i++) {
        if (drop[i])
            continue;
        if (kept != i) {
            memcpy(sup_of(r, kept), sup_of(r, i), r->sup_words * 8);
            memcpy(eff_of(r, kept), eff_of(r, i), (size_t)r->T * 8);
            r->m0[kept] = r->m0[i];
        }
        kept++;
    }
    r->n = kept;
    free(drop);
    free(size);
}

/* The column to eliminate next: the fewest pairs to combine (*pairs), or
 * UINT32_MAX when every column is done.  A column where every row has
 * effect 0 needs no step: it is marked done on the way. */
static uint32_t next_column(const rows *r, uint8_t *done, uint64_t *pairs)
{
    uint32_t best = UINT32_MAX;
    uint64_t best_pairs = UINT64_MAX;
    for (uint32_t t = 0; t < r->T; t++) {
        if (done[t])
            continue;
        uint64_t pos = 0, neg = 0;
        for (size_t i = 0; i < r->n; i++) {
            int64_t e = eff_of(r, i)[t];
            pos += e > 0;
            neg += e < 0;
        }
        if (pos + neg == 0) {
            done[t] = 1;
            continue;
        }
        if (pos * neg < best_pairs) {
            best_pairs = pos * neg;
            best = t;
        }
    }
    *pairs = best_pairs;
    return best;
}

/* Eliminates column t: rows with effect 0 there stay, the others are
 * replaced by the sums of a positive and a negative one that cancel
 * with weights 1, have disjoint supports and initial sums of at most 1.
 * -1 when the rows outgrow their memory. */
static int eliminate(rows *r, uint32_t t, rows *next)
{
    next->n = 0;
    for (size_t i = 0; i < r->n; i++) {
        int64_t ei = eff_of(r, i)[t];
        if (ei == 0) {
            if (rows_room(next, next->n + 1) < 0)
                return -1;
            memcpy(sup_of(next, next->n), sup_of(r, i), r->sup_words * 8);
            memcpy(eff_of(next, next->n), eff_of(r, i), (size_t)r->T * 8);
            next->m0[next->n++] = r->m0[i];
            continue;
        }
        if (ei < 0)
            continue;
        for (size_t j = 0; j < r->n; j++) {
            if (eff_of(r, j)[t] != -ei || r->m0[i] + r->m0[j] > 1 ||
                !sup_disjoint(sup_of(r, i), sup_of(r, j), r->sup_words))
                continue;
            if (rows_room(next, next->n + 1) < 0)
                return -1;
            uint64_t *s = sup_of(next, next->n);
            int64_t *e = eff_of(next, next->n);
            const int64_t *a = eff_of(r, i), *b = eff_of(r, j);
            for (size_t w = 0; w < r->sup_words; w++)
                s[w] = sup_of(r, i)[w] | sup_of(r, j)[w];
            for (uint32_t u = 0; u < r->T; u++)
                e[u] = a[u] + b[u];
            next->m0[next->n++] = (uint8_t)(r->m0[i] + r->m0[j]);
        }
    }
    return 0;
}

/* A transition's effect on the rows, as (row, delta) pairs in row order,
 * divided by their gcd and signed so that the first delta is positive
 * (unless a delta is past EFFECT_MAX). */
typedef struct effect_entry {
    uint32_t row;
    int64_t delta;
} effect_entry;

static int by_row(const void *a, const void *b)
{
    uint32_t x = ((const effect_entry *)a)->row, y = ((const effect_entry *)b)->row;
    return x < y ? -1 : x > y;
}

static int64_t gcd64(int64_t a, int64_t b)
{
    while (b) {
        int64_t r = a % b;
        a = b;
        b = r;
    }
    return a;
}

static uint32_t normal_effect(const cnet_t *cn, const uint32_t *row_of, uint32_t t,
                              effect_entry *out)
{
    uint32_t n = 0;
    int small = 1;
    for (uint32_t i = cn->eff_start[t]; i < cn->eff_start[t + 1]; i++)
        if (row_of[cn->eff_place[i]] != UINT32_MAX) {
            int64_t d = cn->eff_delta[i];
            out[n++] = (effect_entry){row_of[cn->eff_place[i]], d};
            small &= d <= EFFECT_MAX && d >= -EFFECT_MAX;
        }
    if (!n)
        return 0;
    qsort(out, n, sizeof *out, by_row);
    if (!small)   /* left as it is: only its equals are found */
        return n;
    int64_t g = 0;
    for (uint32_t i = 0; i < n; i++)
        g = gcd64(out[i].delta < 0 ? -out[i].delta : out[i].delta, g);
    if (out[0].delta < 0)
        g = -g;
    for (uint32_t i = 0; i < n; i++)
        out[i].delta /= g;
    return n;
}

/* field by field: the entries have padding */
static int same_effect(const effect_entry *a, const effect_entry *b, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (a[i].row != b[i].row || a[i].delta != b[i].delta)
            return 0;
    return 1;
}

static uint64_t effect_hash(const effect_entry *e, uint32_t n)
{
    uint64_t h = n;
    for (uint32_t i = 0; i < n; i++)
        h = (h ^ e[i].row ^ (uint64_t)e[i].delta << 32) * UINT64_C(0x9e3779b97f4a7c15);
    return h ^ h >> 29;
}

/* The columns the search eliminates: one for each effect on the rows up
 * to a factor, since eliminating a column leaves every row with effect 0
 * there, and so at each of its multiples.  Nets of many transitions have
 * few (ARMCacheCoherence: 33676 transitions, 494 columns), and a step
 * costs a pass over every row's columns.  col_of[t]: t's column, or
 * UINT32_MAX when t is a multiple of an earlier transition or leaves the
 * rows alone.  The number of columns, or UINT32_MAX on no memory. */
static uint32_t distinct_columns(const cnet_t *cn, const uint32_t *row_of, uint32_t *col_of)
{
    uint32_t T = cn->ntransitions, ncols = 0;
    size_t E = cn->eff_start[T], size = 16;
    while (size < 2 * (size_t)T)
        size *= 2;
    effect_entry *all = malloc((E ? E : 1) * sizeof *all);
    uint32_t *start = malloc(((size_t)T + 1) * sizeof *start);
    uint32_t *slot = malloc(size * sizeof *slot);   /* a transition + 1, 0: empty */
    if (!all || !start || !slot) {
        ncols = UINT32_MAX;
        goto out;
    }
    memset(slot, 0, size * sizeof *slot);
    start[0] = 0;
    for (uint32_t t = 0; t < T; t++) {
        effect_entry *e = all + start[t];
        uint32_t n = normal_effect(cn, row_of, t, e);
        start[t + 1] = start[t] + n;
        col_of[t] = UINT32_MAX;
        if (!n)
            continue;
        size_t at = (size_t)effect_hash(e, n) & (size - 1);
        for (; slot[at]; at = (at + 1) & (size - 1)) {
            uint32_t u = slot[at] - 1, m = start[u + 1] - start[u];
            if (m == n && same_effect(all + start[u], e, n))
                break;
        }
        if (!slot[at]) {
            slot[at] = t + 1;
            col_of[t] = ncols++;
        }
    }
out:
    free(all);
    free(start);
    free(slot);
    return ncols;
}

/* The invariants' supports with initial sum 1 (rows with every column
 * eliminated), or -1 when the search gave up. */
static int invariants(const cnet_t *cn, const uint8_t *bits, double deadline, rows *r)
{
    uint32_t P = cn->nplaces, T = cn->ntransitions;
    uint32_t *order = NULL, *col_of = calloc(T ? T : 1, sizeof *col_of);
    size_t cap_order = 0;
    uint32_t *row_of = calloc(P ? P : 1, sizeof *row_of);
    int ok = col_of && row_of;
    for (uint32_t p = 0; ok && p < P; p++)
        row_of[p] = UINT32_MAX;
    for (uint32_t p = 0, n = 0; ok && p < P; p++)
        if (bits[p] <= 1 && cn->initial[p] <= 1)
            row_of[p] = n++;
    uint32_t C = ok ? distinct_columns(cn, row_of, col_of) : UINT32_MAX;
    ok = C != UINT32_MAX;
    r->T = C;
    rows other = {0, 0, r->sup_words, C, NULL, NULL, NULL};
    uint8_t *done = calloc(C && ok ? C : 1, 1);
    ok = ok && done;
    for (uint32_t p = 0; ok && p < P; p++) {
        /* a place of a group holds at most one token */
        if (row_of[p] == UINT32_MAX)
            continue;
        ok = rows_room(r, r->n + 1) == 0;
        if (!ok)
            break;
        memset(sup_of(r, r->n), 0, r->sup_words * 8);
        sup_of(r, r->n)[p / 64] |= UINT64_C(1) << (p % 64);
        memset(eff_of(r, r->n), 0, (size_t)C * 8);
        r->m0[r->n++] = (uint8_t)cn->initial[p];
    }
    for (uint32_t t = 0; ok && t < T; t++)
        for (uint32_t i = cn->eff_start[t]; i < cn->eff_start[t + 1]; i++)
            if (row_of[cn->eff_place[i]] != UINT32_MAX) {
                uint32_t k = row_of[cn->eff_place[i]];
                int64_t d = cn->eff_delta[i];
                if (col_of[t] != UINT32_MAX)
                    eff_of(r, k)[col_of[t]] = d;
                /* sums of P such effects cannot overflow; a place with a
                 * bigger one gets an initial sum that never combines */
                if (d > EFFECT_MAX || d < -EFFECT_MAX)
                    r->m0[k] = 2;
            }
    free(row_of);
    free(col_of);
    for (uint32_t step = 0; ok && step < C && r->n > 0; step++) {
        uint64_t pairs;
        uint32_t t = next_column(r, done, &pairs);
        if (t == UINT32_MAX)
            break;
        if (pairs > PAIRS_MAX || mono_now() > deadline) {
            ok = 0;
            break;
        }
        done[t] = 1;
        ok = eliminate(r, t, &other) == 0;
        if (!ok)
            break;
        rows swap = *r;
        *r = other;
        other = swap;
        if (!pairs)   /* rows were only dropped: the rest stay minimal */
            continue;
        ok = GROW(order, cap_order, r->n ? r->n : 1) == 0;
        if (ok)
            keep_minimal(r, order);
    }
    free(order);
    free(done);
    rows_free(&other);
    return ok ? 0 : -1;
}

/* Whether every transition that can fire takes as many tokens from the
 * places p with group[p] == g as it puts back; their initial tokens' sum
 * into *sum.  A transition that adds to a place of width 0 in bits never
 * fires (bits NULL: none has width 0). */
static int tokens_kept(const cnet_t *cn, const uint8_t *bits, const uint32_t *group, uint32_t g,
                       nc_count *sum)
{
    *sum = 0;
    for (uint32_t p = 0; p < cn->nplaces; p++)
        if (group[p] == g)
            *sum += cn->initial[p];
    for (uint32_t t = 0; t < cn->ntransitions; t++) {
        int64_t d = 0;
        int never = 0;
        for (uint32_t i = cn->eff_start[t]; i < cn->eff_start[t + 1]; i++) {
            uint32_t p = cn->eff_place[i];
            if (group[p] == g)
                d += cn->eff_delta[i];
            if (bits && cn->eff_delta[i] > 0 && !bits[p])
                never = 1;
        }
        if (d != 0 && !never)
            return 0;
    }
    return 1;
}

int onehot_group_holds(const cnet_t *cn, const uint8_t *bits, const uint32_t *group, uint32_t g)
{
    for (uint32_t p = 0; p < cn->nplaces; p++)
        if (group[p] == g && !bits[p])
            return 0;
    nc_count sum;
    return tokens_kept(cn, bits, group, g, &sum) && sum == 1;
}

uint32_t *onehot_groups(const cnet_t *cn, const uint8_t *bits, double seconds,
                        uint32_t *ngroups)
{
    uint32_t P = cn->nplaces;
    *ngroups = 0;
    if (!bits || P == 0)
        return NULL;
    rows r = {0, 0, (P + 63) / 64, cn->ntransitions, NULL, NULL, NULL};
    uint32_t *group = calloc(P, sizeof *group);
    uint32_t *size = NULL, *order = NULL, *smaller = NULL;
    if (!group || invariants(cn, bits, mono_now() + seconds, &r) < 0)
        goto none;
    size = calloc(r.n ? r.n : 1, sizeof *size);
    order = calloc(r.n ? r.n : 1, sizeof *order);
    smaller = calloc(r.n ? r.n : 1, sizeof *smaller);
    if (!size || !order || !smaller)
        goto none;
    /* a group's places: the support's of nonzero width */
    size_t n = 0;
    for (size_t i = 0; i < r.n; i++) {
        if (r.m0[i] != 1)
            continue;
        uint64_t *s = sup_of(&r, i);
        for (uint32_t p = 0; p < P; p++)
            if (s[p / 64] >> (p % 64) & 1) {
                if (bits[p])
                    size[i]++;
                else
                    s[p / 64] &= ~(UINT64_C(1) << (p % 64));
            }
        if (size[i] >= 2)
            order[n++] = (uint32_t)i;
    }
    /* largest first, each disjoint from the ones taken */
    for (size_t k = 0; k < n; k++)
        smaller[k] = UINT32_MAX - size[order[k]];
    if (sort_by(smaller, n, order) < 0)
        goto none;
    for (size_t k = 0; k < n; k++) {
        const uint64_t *s = sup_of(&r, order[k]);
        int free_of_others = 1;
        for (uint32_t p = 0; p < P && free_of_others; p++)
            if ((s[p / 64] >> (p % 64) & 1) && group[p])
                free_of_others = 0;
        if (!free_of_others)
            continue;
        uint32_t g = *ngroups + 1;
        for (uint32_t p = 0; p < P; p++)
            if (s[p / 64] >> (p % 64) & 1)
                group[p] = g;
        /* proven again, on the net itself: a group is never guessed */
        if (onehot_group_holds(cn, bits, group, g)) {
            *ngroups = g;
        } else {
            for (uint32_t p = 0; p < P; p++)
                if (group[p] == g)
                    group[p] = 0;
        }
    }
    if (!*ngroups)
        goto none;
    free(size);
    free(order);
    free(smaller);
    rows_free(&r);
    return group;
none:
    free(size);
    free(order);
    free(smaller);
    free(group);
    rows_free(&r);
    *ngroups = 0;
    return NULL;
}

uint8_t *onehot_bounds(const cnet_t *cn, double seconds)
{
    uint32_t P = cn->nplaces;
    if (P == 0)
        return NULL;
    rows r = {0, 0, (P + 63) / 64, cn->ntransitions, NULL, NULL, NULL};
    uint8_t *any = malloc(P), *bound = malloc(P);
    uint32_t *row_at = calloc(P, sizeof *row_at);   /* places of row i: i + 1 */
    int ok = any && bound && row_at;
    if (ok) {
        /* every place a candidate: its width is what is being found */
        memset(any, 1, P);
        ok = invariants(cn, any, mono_now() + seconds, &r) == 0;
    }
    if (ok) {
        memset(bound, ONEHOT_NO_BOUND, P);
        for (size_t i = 0; i < r.n; i++) {
            const uint64_t *sup = sup_of(&r, i);
            if (r.m0[i] > 1)
                continue;
            for (uint32_t p = 0; p < P; p++)
                if (sup[p / 64] >> (p % 64) & 1)
                    row_at[p] = (uint32_t)i + 1;   /* rows: at most ROWS_MAX */
            /* proven again on the net, as groups are */
            nc_count sum;
            if (!tokens_kept(cn, NULL, row_at, (uint32_t)i + 1, &sum) || sum > 1)
                continue;
            for (uint32_t p = 0; p < P; p++)
                if ((sup[p / 64] >> (p % 64) & 1) && (bound[p] == ONEHOT_NO_BOUND || sum < bound[p]))
                    bound[p] = (uint8_t)sum;
        }
    }
    free(any);
    free(row_at);
    rows_free(&r);
    if (!ok) {
        free(bound);
        return NULL;
    }
    return bound;
}
