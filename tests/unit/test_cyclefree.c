/* cyclefree_subset: on random nets no semi-positive T-invariant (sought
 * by brute force over small coefficients) may lie among the transitions it
 * keeps, and no reachable marking may lead back to itself through them;
 * on rings of processes it gives up one transition per ring, not more. */
#include "engine/cyclefree.h"
#include "randnetgen.h"
#include "unit.h"

#include <stdlib.h>

#define NETS 2000
#define MAX_COEF 3
#define MAX_MARKINGS 400

/* A nonzero x in [0, MAX_COEF]^kept with C x = 0. */
static int has_invariant(const cnet_t *cn, const uint8_t *keep)
{
    uint32_t T = cn->ntransitions, x[16] = {0};
    if (T > 16)
        return -1;
    for (;;) {
        uint32_t i = 0;
        while (i < T && (!keep[i] || x[i] == MAX_COEF)) {
            x[i] = 0;
            i++;
        }
        if (i == T)
            return 0;
        x[i]++;
        int64_t sum[64] = {0};
        for (uint32_t t = 0; t < T; t++)
            for (uint32_t k = cn->eff_start[t]; k < cn->eff_start[t + 1]; k++)
                sum[cn->eff_place[k]] += cn->eff_delta[k] * (int64_t)x[t];
        int zero = 1;
        for (uint32_t p = 0; p < cn->nplaces; p++)
            zero &= sum[p] == 0;
        if (zero)
            return 1;
    }
}

/* Depth-first over the markings reachable by kept transitions (at most
 * MAX_MARKINGS): 1 when one leads back to a marking on the stack. */
static int kept_cycle(const cnet_t *cn, const uint8_t *keep)
{
    uint32_t P = cn->nplaces, T = cn->ntransitions, n = 0, depth = 0;
    nc_count *seen = calloc((size_t)MAX_MARKINGS * P, sizeof *seen);
    uint8_t *on_stack = calloc(MAX_MARKINGS, 1);
    uint32_t *stack_state = calloc(MAX_MARKINGS, sizeof *stack_state);
    uint32_t *stack_next = calloc(MAX_MARKINGS, sizeof *stack_next);
    nc_count *m = calloc(P, sizeof *m);
    int cycle = 0;
    memcpy(seen, cn->initial, P * sizeof *seen);
    n = 1;
    on_stack[0] = 1;
    stack_state[0] = 0;
    stack_next[0] = 0;
    depth = 1;
    while (depth && !cycle) {
        uint32_t s = stack_state[depth - 1], t = stack_next[depth - 1]++;
        if (t >= T) {
            on_stack[s] = 0;
            depth--;
            continue;
        }
        memcpy(m, seen + (size_t)s * P, P * sizeof *m);
        if (!keep[t] || !cn_enabled(cn, m, t) || cn_fire(cn, m, t) < 0)
            continue;
        uint32_t to = 0;
        while (to < n && memcmp(seen + (size_t)to * P, m, P * sizeof *m))
            to++;
        if (to < n) {
            cycle = on_stack[to];
            continue;
        }
        if (n == MAX_MARKINGS)
            continue;
        memcpy(seen + (size_t)n * P, m, P * sizeof *m);
        on_stack[n] = 1;
        stack_state[depth] = n;
        stack_next[depth] = 0;
        depth++;
        n++;
    }
    free(seen);
    free(on_stack);
    free(stack_state);
    free(stack_next);
    free(m);
    return cycle;
}

static void test_random(void)
{
    uint32_t nets = 0, invariant = 0, cycle = 0, kept = 0, total = 0, had = 0;
    for (int i = 0; i < NETS; i++) {
        net_t *net = random_net();
        const cnet_t *cn = nc_compile(net);
        uint8_t all[16], keep[16];
        memset(all, 1, sizeof all);
        memcpy(keep, all, sizeof keep);
        uint32_t dropped = 0;
        if (cn && cn->nplaces <= 64 && cyclefree_subset(cn, keep, &dropped) == 0) {
            nets++;
            had += has_invariant(cn, all) == 1;
            invariant += has_invariant(cn, keep) != 0;
            cycle += kept_cycle(cn, keep);
            for (uint32_t t = 0; t < cn->ntransitions; t++)
                kept += keep[t];
            total += cn->ntransitions;
            if (dropped + kept > total)
                invariant++;
        }
        nc_free_net(net);
    }
    CHECK(nets == NETS && invariant == 0,
          "%u random nets, %u of them with a T-invariant: none left among the kept transitions "
          "(%u not cleared)", nets, had, invariant);
    CHECK(cycle == 0, "no reachable marking leads back to itself through kept transitions "
          "(%u do)", cycle);
    CHECK(kept * 2 > total, "most transitions kept: %u of %u", kept, total);
}

/* k rings of r places each, one token per ring: each ring is one
 * T-invariant, and giving up one transition per ring suffices. */
static void test_rings(void)
{
    const uint32_t k = 50, r = 4;
    net_t *net = nc_create_net("rings", NULL);
    for (uint32_t i = 0; i < k * r; i++)
        nc_create_place(net, NULL, NULL, i % r == 0);
    for (uint32_t i = 0; i < k * r; i++) {
        uint32_t from = i, to = i % r == r - 1 ? i + 1 - r : i + 1;
        nc_create_transition(net, NULL, NULL);
        nc_create_arc(net, NC_ARC_PT, from, i, 1, 0);
        nc_create_arc(net, NC_ARC_TP, to, i, 1, 0);
    }
    /* and a transition that changes nothing: a cycle of length one */
    uint32_t idle = k * r;
    nc_create_transition(net, NULL, NULL);
    nc_create_arc(net, NC_ARC_READ, 0, idle, 1, 0);
    const cnet_t *cn = nc_compile(net);
    uint8_t *keep = malloc(k * r + 1);
    memset(keep, 1, k * r + 1);
    uint32_t dropped = 0;
    int rc = cyclefree_subset(cn, keep, &dropped);
    uint32_t per_ring_ok = 1;
    for (uint32_t ring = 0; ring < k; ring++) {
        uint32_t gone = 0;
        for (uint32_t j = 0; j < r; j++)
            gone += !keep[ring * r + j];
        per_ring_ok &= gone == 1;
    }
    CHECK(rc == 0 && dropped == k + 1 && per_ring_ok && !keep[idle],
          "%u rings and an idle transition: %u given up, one per ring and the idle one", k,
          dropped);
    free(keep);
    nc_free_net(net);
}

int main(void)
{
    test_random();
    test_rings();
    UNIT_DONE();
}
