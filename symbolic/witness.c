/* Witnesses: a shortest run to a goal marking, from breadth-first layers
 * walked back through each transition's relation. */
#include "symbolic/symint.h"

#include <stdio.h>
#include <stdlib.h>

int sym_witness(sym_t *s, uint32_t **run, size_t *len)
{
    size_t n = 0, cap = 16;
    BDD *layer = malloc(cap * sizeof *layer);
    if (!layer) {
        sym_nomem(s);
        return -1;
    }
    layer[n++] = bdd_addref(s->init);
    BDD seen = bdd_addref(s->init);
    int ok = 1;
    while (ok && !sym_hits(s, layer[n - 1])) {
        BDD next = bdd_addref(bdd_false());
        for (uint32_t i = 0; i < s->nmoving && !sym_stop(s); i++)
            or_take(&next, sym_image(s, layer[n - 1], s->order[i]));
        BDD fresh = o_diff(next, seen);
        drop(next);
        or_in(&seen, fresh);
        if (sym_stop(s) || fresh == bdd_false()) {
            if (!s->reason[0])
                snprintf(s->reason, sizeof s->reason, "symbolic: the goal is not reachable");
            drop(fresh);
            ok = 0;
            break;
        }
        if (n == cap) {
            BDD *more = realloc(layer, 2 * cap * sizeof *layer);
            if (!more) {
                drop(fresh);
                sym_nomem(s);
                ok = 0;
                break;
            }
            layer = more;
            cap *= 2;
        }
        layer[n++] = fresh;
    }
    drop(seen);
    uint32_t *steps = ok && n > 1 ? malloc((n - 1) * sizeof *steps) : NULL;
    if (ok && n > 1 && !steps) {
        sym_nomem(s);
        ok = 0;
    }
    if (ok) {
        BDD goal = sym_in_goal(s, layer[n - 1]);
        BDD at = bdd_addref(bdd_satoneset(goal, s->allcur, bdd_false()));
        drop(goal);
        for (size_t i = n - 1; ok && i > 0; i--) {
            int stepped = 0;
            for (uint32_t k = 0; k < s->nmoving && !stepped; k++) {
                uint32_t t = s->order[k];
                BDD pre = sym_preimage(s, at, t);
                BDD here = o_and(pre, layer[i - 1]);
                drop(pre);
                if (here != bdd_false()) {
                    drop(at);
                    at = bdd_addref(bdd_satoneset(here, s->allcur, bdd_false()));
                    steps[i - 1] = t;
                    stepped = 1;
                }
                drop(here);
            }
            if (sym_stop(s) || !stepped) {
                if (!s->reason[0])
                    snprintf(s->reason, sizeof s->reason, "symbolic: a layer without predecessor");
                ok = 0;
            }
        }
        drop(at);
    }
    for (size_t i = 0; i < n; i++)
        drop(layer[i]);
    free(layer);
    if (!ok || sym_failed(s)) {
        free(steps);
        return -1;
    }
    *run = steps;
    *len = n - 1;
    return 0;
}
