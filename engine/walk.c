/* The random walks of walk.h.  Each step scans the transitions for the
 * enabled ones (the compiled net's need lists), so a step costs the size
 * of the net, not of the state space; a xorshift generator keeps the walks
 * reproducible from the seed. */
#include "base/clock.h"
#include "engine/walk.h"

#include <stdlib.h>
#include <string.h>

#define CLOCK_EVERY 256u

static uint64_t next_random(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

int walk_run(const cnet_t *cn, double deadline, volatile int *interrupted, uint64_t seed,
             size_t max_depth, walk_visit visit, void *ctx, walk_result *out)
{
    memset(out, 0, sizeof *out);
    size_t np = cn->nplaces ? cn->nplaces : 1, nt = cn->ntransitions ? cn->ntransitions : 1;
    nc_count *m = malloc(np * sizeof *m);
    uint32_t *enabled = malloc(nt * sizeof *enabled);
    uint32_t *run = malloc((max_depth ? max_depth : 1) * sizeof *run);
    if (!m || !enabled || !run) {
        free(m);
        free(enabled);
        free(run);
        return -1;
    }
    uint64_t state = seed ? seed : 0x2545f4914f6cdd1dull;
    int stopped = 0, expired = 0;
    while (!stopped && !expired) {
        memcpy(m, cn->initial, cn->nplaces * sizeof *m);
        size_t depth = 0;
        uint32_t t = WALK_START;
        out->walks++;
        for (;;) {
            uint32_t n = 0;
            for (uint32_t u = 0; u < cn->ntransitions; u++)
                if (cn_enabled(cn, m, u))
                    enabled[n++] = u;
            if (visit(ctx, m, t, n == 0)) {
                stopped = 1;
                break;
            }
            if (n == 0 || depth == max_depth)
                break;
            t = enabled[next_random(&state) % n];
            if (cn_fire(cn, m, t) < 0)
                break;   /* a count would overflow: this walk ends here */
            run[depth++] = t;
            if ((++out->steps & (CLOCK_EVERY - 1)) == 0 &&
                ((interrupted && *interrupted) || (deadline > 0 && mono_now() > deadline))) {
                expired = 1;
                break;
            }
        }
        if (stopped) {
            out->run = run;
            out->run_len = depth;
            run = NULL;
        } else if (!expired && ((interrupted && *interrupted) || (deadline > 0 && mono_now() > deadline))) {
            expired = 1;
        }
    }
    free(m);
    free(enabled);
    free(run);
    return stopped;
}
