/* engine/unfold/segments.h: a goal's turn on each segment, doubling. */
#include "engine/unfold/segments.h"

#include "base/clock.h"
#include "engine/unfold/configsat.h"

#include <stdio.h>
#include <stdlib.h>

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
