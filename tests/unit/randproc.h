/* Random "processes" for the tests of structural reduction (test_reduce,
 * test_ctlreduce): local steps, synchronisations, shared resources, copies
 * of places and transitions, the shapes the rules are made for.
 * Deterministic: rnd.h. */
#ifndef MCK_TEST_RANDPROC_H
#define MCK_TEST_RANDPROC_H

#include "base/netconv.h"
#include "rnd.h"

/* n processes of 2..5 local states in a cycle; a step may also take or
 * give a shared resource, synchronise with a step of another process, or
 * read a flag that nothing changes; some steps are there twice, and some
 * places have a copy that holds a token more. */
static net_t *random_processes(void)
{
    net_t *n = nc_create_net("processes", NULL);
    uint32_t procs = 1 + rnd(4), res = rnd(3), first[5], len[5];
    for (uint32_t r = 0; r < res; r++)
        nc_create_place(n, NULL, NULL, rnd(3));
    uint32_t flag = (uint32_t)nc_create_place(n, NULL, NULL, rnd(2));
    for (uint32_t i = 0; i < procs; i++) {
        len[i] = 2 + rnd(4);
        first[i] = (uint32_t)n->nplaces;
        for (uint32_t s = 0; s < len[i]; s++)
            nc_create_place(n, NULL, NULL, s == 0);
    }
    for (uint32_t i = 0; i < procs; i++)
        for (uint32_t s = 0; s < len[i]; s++) {
            uint32_t copies = rnd(6) == 0 ? 2 : 1;
            uint32_t partner = rnd(5) == 0 && procs > 1 ? rnd(procs) : i;
            uint32_t ps = rnd(len[partner]), shape = rnd(8), r = res ? rnd(res) : 0;
            for (uint32_t c = 0; c < copies; c++) {
                uint32_t t = (uint32_t)nc_create_transition(n, NULL, NULL);
                nc_create_arc(n, NC_ARC_PT, first[i] + s, t, 1, 0);
                nc_create_arc(n, NC_ARC_TP, first[i] + (s + 1) % len[i], t, 1, 0);
                if (partner != i) {
                    nc_create_arc(n, NC_ARC_PT, first[partner] + ps, t, 1, 0);
                    nc_create_arc(n, NC_ARC_TP, first[partner] + (ps + 1) % len[partner], t, 1, 0);
                }
                if (res && shape == 0)
                    nc_create_arc(n, NC_ARC_PT, r, t, 1, 0);
                else if (res && shape == 1)
                    nc_create_arc(n, NC_ARC_TP, r, t, 1, 0);
                else if (shape == 2)
                    nc_create_arc(n, NC_ARC_READ, flag, t, 1, 0);
            }
        }
    /* a place holding the tokens of two local states of different
     * processes (plus maybe one): implicit, but no copy of either */
    if (procs > 1 && rnd(2)) {
        uint32_t i = rnd(procs), j = (i + 1 + rnd(procs - 1)) % procs;
        uint32_t p1 = first[i] + rnd(len[i]), p2 = first[j] + rnd(len[j]);
        uint32_t q = (uint32_t)nc_create_place(n, NULL, NULL, n->places[p1].initial +
                                               n->places[p2].initial + rnd(2));
        size_t arcs = n->narcs;
        for (size_t a = 0; a < arcs; a++) {
            const nc_arc *x = &n->arcs[a];
            if ((x->place == p1 || x->place == p2) && x->kind != NC_ARC_READ)
                nc_create_arc(n, x->kind, q, x->transition, x->weight, 1);
        }
    }
    /* a copy of a local state with one token more: a parallel place */
    if (procs && rnd(2)) {
        uint32_t i = rnd(procs), s = rnd(len[i]), p = first[i] + s;
        uint32_t q = (uint32_t)nc_create_place(n, NULL, NULL, n->places[p].initial + rnd(2));
        size_t arcs = n->narcs;
        for (size_t a = 0; a < arcs; a++)
            if (n->arcs[a].place == p && n->arcs[a].kind != NC_ARC_READ)
                nc_create_arc(n, n->arcs[a].kind, q, n->arcs[a].transition, n->arcs[a].weight, 0);
    }
    return n;
}

#endif
