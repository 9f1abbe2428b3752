/* engine/unfold/segments.h: a goal's turn on each segment, doubling. */
#include "engine/unfold/segments.h"

#include "base/clock.h"
#include "engine/unfold/configsat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int unf_sat_segments(unf_prefix *u, const tree_t *const *goals, size_t n, size_t from,
                     const budget_t *budget, const unf_segment_watch *watch, char *why,
                     size_t whylen)
{
    unf_extent whole = unf_extent_of(u);
    char *found = calloc(n ? n : 1, 1);
    if (!found)
        return -1;
    size_t left = n, k = from && from < whole.nev ? from : whole.nev;
    int failed = 0;
    snprintf(why, whylen, "time limit reached");
    while (left && !budget_expired(budget)) {
        unf_sat *sat = unf_cut(u, &whole, k) < 0 ? NULL : unf_sat_new(u, why, whylen);
        if (!sat) {
            snprintf(why, whylen, "memory budget exhausted");
            failed = 1;
            break;
        }
        budget_t segment = *budget;
        double now = mono_now();
        if (budget->deadline > 0 && k < whole.nev)
            segment.deadline = now + (budget->deadline - now) / 2;
        size_t asked = left, none = 0;
        for (size_t i = 0; i < n && !budget_expired(&segment); i++) {
            if (found[i])
                continue;
            budget_t part = segment;
            now = mono_now();
            if (segment.deadline > 0)
                part.deadline = now + (segment.deadline - now) / (double)asked--;
            uint32_t *events = NULL;
            size_t len = 0;
            int got = unf_sat_solve(sat, goals[i], &part, &events, &len, why, whylen);
            none += got == 0;
            if (got > 0) {
                found[i] = 1;
                left--;
                watch->found(watch->ctx, i, u, events, len);
            }
            free(events);
        }
        unf_sat_free(sat);
        if (left && none == left && watch->cleared)
            watch->cleared(watch->ctx, k);
        if (k >= whole.nev)
            break;
        k = k > whole.nev / 2 ? whole.nev : k * 2;
    }
    free(found);
    if (!failed && u->nev != whole.nev && unf_cut(u, &whole, whole.nev) < 0) {
        snprintf(why, whylen, "memory budget exhausted");
        failed = 1;
    }
    return failed ? -1 : (int)(n - left);
}

/* What unf_sat_find_segments saw. */
typedef struct one_goal {
    uint32_t *events;
    size_t n, cleared;
    int got, no_memory;
} one_goal;

static void keep_found(void *ctx, size_t i, const unf_prefix *u, const uint32_t *events, size_t n)
{
    (void)i;
    (void)u;
    one_goal *g = ctx;
    if (!(g->events = malloc((n ? n : 1) * sizeof *events))) {
        g->no_memory = 1;
        return;
    }
    memcpy(g->events, events, n * sizeof *events);
    g->n = n;
    g->got = 1;
}

static void keep_cleared(void *ctx, size_t events)
{
    one_goal *g = ctx;
    g->cleared = events;
}

int unf_sat_find_segments(unf_prefix *u, const tree_t *goal, size_t from,
                          const budget_t *budget, uint32_t **events, size_t *n, char *why,
                          size_t whylen)
{
    size_t built = u->nev;
    one_goal g = {NULL, 0, 0, 0, 0};
    unf_segment_watch watch = {keep_found, keep_cleared, &g};
    const tree_t *goals[1] = {goal};
    *events = NULL;
    *n = 0;
    if (unf_sat_segments(u, goals, 1, from, budget, &watch, why, whylen) < 0 || g.no_memory) {
        if (g.no_memory)
            snprintf(why, whylen, "memory budget exhausted");
        free(g.events);
        return -1;
    }
    if (g.got) {
        *events = g.events;
        *n = g.n;
        return 1;
    }
    return g.cleared >= built ? 0 : -1;
}
