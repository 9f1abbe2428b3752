/* Random place/transition nets and atoms, alone: randnet.h adds the
 * comparisons of reduced searches on top, and a test that only needs the
 * nets includes this one without its unused helpers.  Deterministic:
 * rnd.h. */
#ifndef MCK_TEST_RANDNETGEN_H
#define MCK_TEST_RANDNETGEN_H

#include "base/netconv.h"
#include "base/tree.h"
#include "rnd.h"

/* Mostly token-preserving transitions (no more output arcs than input
 * arcs), so that most searches end; one in eight is free and may pump. */
static inline net_t *random_net(void)
{
    net_t *n = nc_create_net("random", NULL);
    uint32_t P = 2 + rnd(6), T = 1 + rnd(7);
    for (uint32_t p = 0; p < P; p++)
        nc_create_place(n, NULL, NULL, rnd(3) ? rnd(2) : rnd(3));
    for (uint32_t t = 0; t < T; t++) {
        nc_create_transition(n, NULL, NULL);
        int free_shape = rnd(8) == 0;
        uint32_t ins = 0, outs = 0;
        for (uint32_t p = 0; p < P; p++) {
            switch (rnd(9)) {
            case 0: case 1:
                nc_create_arc(n, NC_ARC_PT, p, t, 1 + (rnd(5) == 0), 0);
                ins++;
                break;
            case 2: case 3:
                if (free_shape || outs < ins) {
                    nc_create_arc(n, NC_ARC_TP, p, t, free_shape ? 1 + (rnd(5) == 0) : 1, 0);
                    outs++;
                }
                break;
            case 4:
                nc_create_arc(n, NC_ARC_READ, p, t, 1, 0);
                break;
            case 5:   /* a self-loop: consumed and given back */
                nc_create_arc(n, NC_ARC_PT, p, t, 1, 0);
                nc_create_arc(n, NC_ARC_TP, p, t, 1, 0);
                break;
            default:
                break;
            }
        }
    }
    return n;
}

static inline tree_t *random_atom(uint32_t P, uint32_t T)
{
    switch (rnd(6)) {
    case 0: {
        uint32_t t = rnd(T);
        return tree_fireable(&t, 1);
    }
    case 1:
        return rnd(4) ? tree_deadlock() : tree_const((int)rnd(2));
    default: {
        lin_term terms[2] = {{rnd(P), rnd(3) ? 1 : -1}, {rnd(P), rnd(2) ? 1 : 2}};
        return tree_cmp(terms, 1 + rnd(2), -(int64_t)rnd(3), (rel_op)rnd(6));
    }
    }
}

#endif
