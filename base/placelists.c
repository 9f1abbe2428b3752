/* A counting pass, then a fill: two scans of the per-transition lists. */
#include "base/placelists.h"

#include <stdlib.h>

static int counts(const int64_t *delta, int sign, size_t i)
{
    return !delta || (sign > 0 ? delta[i] > 0 : delta[i] < 0);
}

int place_lists(const cnet_t *cn, const uint32_t *tstart, const uint32_t *tplace,
                const int64_t *delta, int sign, uint32_t **start_out, uint32_t **list_out)
{
    uint32_t P = cn->nplaces, T = cn->ntransitions;
    size_t n = tstart[T];
    uint32_t *start = calloc((size_t)P + 2, sizeof *start);
    uint32_t *list = malloc((n ? n : 1) * sizeof *list);
    if (!start || !list) {
        free(start);
        free(list);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        if (counts(delta, sign, i))
            start[tplace[i] + 2]++;
    for (uint32_t p = 0; p < P; p++)
        start[p + 2] += start[p + 1];
    for (uint32_t t = 0; t < T; t++)
        for (uint32_t i = tstart[t]; i < tstart[t + 1]; i++)
            if (counts(delta, sign, i))
                list[start[tplace[i] + 1]++] = t;
    *start_out = start;
    *list_out = list;
    return 0;
}
