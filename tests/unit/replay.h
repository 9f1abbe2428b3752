/* An interleaving semantics of its own for the tests that check printed
 * runs: straight from the builder's arcs (net_t), not from the compiled
 * net the checkers use, so that a bug there cannot hide in the check. */
#ifndef MCK_TEST_REPLAY_H
#define MCK_TEST_REPLAY_H

#include "base/netconv.h"

static inline void replay_initial(const net_t *net, nc_count *m)
{
    for (size_t p = 0; p < net->nplaces; p++)
        m[p] = net->places[p].initial;
}

static inline int replay_enabled(const net_t *net, const nc_count *m, uint32_t t)
{
    for (size_t i = 0; i < net->narcs; i++) {
        const nc_arc *a = &net->arcs[i];
        if (a->transition == t && a->kind != NC_ARC_TP && m[a->place] < a->weight)
            return 0;
    }
    return 1;
}

static inline void replay_fire(const net_t *net, nc_count *m, uint32_t t)
{
    for (size_t i = 0; i < net->narcs; i++) {
        const nc_arc *a = &net->arcs[i];
        if (a->transition != t)
            continue;
        if (a->kind == NC_ARC_PT)
            m[a->place] -= a->weight;
        else if (a->kind == NC_ARC_TP)
            m[a->place] += a->weight;
    }
}

static inline int replay_dead(const net_t *net, const nc_count *m)
{
    for (uint32_t t = 0; t < net->ntransitions; t++)
        if (replay_enabled(net, m, t))
            return 0;
    return 1;
}

#endif
