/* The static order of the places, FORCE's: the layout (layout.c) takes
 * the blocks in this order when asked for SYM_ORDER_FORCE. */
#include "symbolic/symint.h"

#include <stdlib.h>

/* Rounds of FORCE at most, and rounds without a shorter total span
 * before it stops. */
#define FORCE_ROUNDS 40
#define FORCE_PATIENCE 4

typedef struct keyed {
    double key;
    uint32_t place;
} keyed;

static int by_key(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    return x->key < y->key ? -1 : x->key > y->key ? 1 : (x->place > y->place) - (x->place < y->place);
}

/* The places of t: what it needs, then what it changes. */
#define FOR_SUPPORT(cn, t, i, p)                                                          \
    for (uint32_t i = (cn)->need_start[t], p;                                             \
         i < (cn)->need_start[(t) + 1] + (cn)->eff_start[(t) + 1] - (cn)->eff_start[t] && \
         ((p = i < (cn)->need_start[(t) + 1]                                              \
                   ? (cn)->need_place[i]                                                  \
                   : (cn)->eff_place[(cn)->eff_start[t] + i - (cn)->need_start[(t) + 1]]), \
          1);                                                                             \
         i++)

static double total_span(const cnet_t *cn, const uint32_t *pos)
{
    double span = 0;
    for (uint32_t t = 0; t < cn->ntransitions; t++) {
        uint32_t lo = UINT32_MAX, hi = 0;
        FOR_SUPPORT(cn, t, i, p) {
            lo = pos[p] < lo ? pos[p] : lo;
            hi = pos[p] > hi ? pos[p] : hi;
        }
        span += lo <= hi ? hi - lo : 0;
    }
    return span;
}

/* FORCE (Aloul, Markov and Sakallah): each place moves to the mean of the
 * centres of the transitions that touch it, so that the places a
 * transition reads and changes come close together and its relation and
 * the sets it makes stay narrow.  From net order, kept while the sum of
 * the transitions' spans falls.  A malloc'd permutation (rank to place),
 * or NULL: no memory. */
uint32_t *sym_force_order(const cnet_t *cn)
{
    uint32_t P = cn->nplaces, T = cn->ntransitions;
    uint32_t *best = malloc((P ? P : 1) * sizeof *best), *pos = malloc((P ? P : 1) * sizeof *pos);
    double *centre = malloc((T ? T : 1) * sizeof *centre), *sum = malloc((P ? P : 1) * sizeof *sum);
    uint32_t *count = malloc((P ? P : 1) * sizeof *count);
    keyed *k = malloc((P ? P : 1) * sizeof *k);
    if (!best || !pos || !centre || !sum || !count || !k) {
        free(best);
        best = NULL;
        goto out;
    }
    for (uint32_t p = 0; p < P; p++)
        best[p] = pos[p] = p;
    double best_span = total_span(cn, pos);
    for (int round = 0, idle = 0; round < FORCE_ROUNDS && idle < FORCE_PATIENCE; round++) {
        for (uint32_t p = 0; p < P; p++)
            sum[p] = 0, count[p] = 0;
        for (uint32_t t = 0; t < T; t++) {
            double c = 0;
            uint32_t n = 0;
            FOR_SUPPORT(cn, t, i, p) {
                c += pos[p];
                n++;
            }
            centre[t] = n ? c / n : 0;
            FOR_SUPPORT(cn, t, i, p) {
                sum[p] += centre[t];
                count[p]++;
            }
        }
        for (uint32_t p = 0; p < P; p++)
            k[p] = (keyed){count[p] ? sum[p] / count[p] : pos[p], p};
        qsort(k, P, sizeof *k, by_key);
        for (uint32_t r = 0; r < P; r++)
            pos[k[r].place] = r;
        double span = total_span(cn, pos);
        if (span < best_span) {
            best_span = span;
            for (uint32_t r = 0; r < P; r++)
                best[r] = k[r].place;
            idle = 0;
        } else {
            idle++;
        }
    }
out:
    free(pos);
    free(centre);
    free(sum);
    free(count);
    free(k);
    return best;
}
