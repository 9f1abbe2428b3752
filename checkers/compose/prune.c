/* The states of an LTS from which an infinite run starts (composeint.h):
 * those that reach a cycle.  The others are peeled off from the dead
 * ends backwards, each edge looked at once.  Only the final composite
 * may lose them: inside a part, another component could still run on
 * forever beside a state that has no future of its own. */
#include "checkers/compose/composeint.h"

#include <string.h>

int co_prune_finite(co_mem *cm, const co_lts *l, co_lts *out, uint32_t *keep)
{
    uint32_t n = l->nstates;
    size_t m = l->nedges;
    memset(out, 0, sizeof *out);
    uint32_t *outdeg = co_alloc(cm, n, sizeof *outdeg);
    uint32_t *in_first = co_alloc(cm, (size_t)n + 1, sizeof *in_first);
    uint32_t *in_src = co_alloc(cm, m, sizeof *in_src);
    uint32_t *queue = co_alloc(cm, n, sizeof *queue);
    int rc = -1;
    if (!outdeg || !in_first || !in_src || !queue)
        goto out;
    for (size_t e = 0; e < m; e++)
        in_first[l->dst[e] + 1]++;
    for (uint32_t s = 0; s < n; s++)
        in_first[s + 1] += in_first[s];
    for (uint32_t s = 0; s < n; s++)
        for (uint32_t e = l->first[s]; e < l->first[s + 1]; e++)
            in_src[in_first[l->dst[e]] + outdeg[l->dst[e]]++] = s;
    uint32_t nq = 0;
    for (uint32_t s = 0; s < n; s++) {
        outdeg[s] = l->first[s + 1] - l->first[s];
        keep[s] = 0;
        if (!outdeg[s])
            queue[nq++] = s;
    }
    for (uint32_t i = 0; i < nq; i++) {
        uint32_t s = queue[i];
        keep[s] = CO_NONE;
        for (uint32_t j = in_first[s]; j < in_first[s + 1]; j++)
            if (--outdeg[in_src[j]] == 0)
                queue[nq++] = in_src[j];
    }
    uint32_t kept = 0;
    for (uint32_t s = 0; s < n; s++)
        if (keep[s] != CO_NONE)
            keep[s] = kept++;
    if (keep[l->init] != CO_NONE && co_lts_restrict(cm, l, keep, kept, NULL, out) < 0)
        goto out;
    rc = 0;
out:
    co_free(cm, outdeg, n, sizeof *outdeg);
    co_free(cm, in_first, (size_t)n + 1, sizeof *in_first);
    co_free(cm, in_src, m, sizeof *in_src);
    co_free(cm, queue, n, sizeof *queue);
    return rc;
}
