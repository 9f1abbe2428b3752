/* Random walks: they find what is reachable (a deep deadlock, a marking
 * with a property) with a run that replays to it, stop at the deadline on
 * a net that never ends, and are reproducible from their seed. */
#include "engine/walk.h"
#include "replay.h"
#include "unit.h"

#include <stdlib.h>
#include <time.h>

/* a ring of n places with one token, and an exit from the last place into
 * a dead end: the deadlock lies n steps deep */
static net_t *ring_with_exit(int n)
{
    net_t *net = nc_create_net("ring", NULL);
    for (int p = 0; p <= n; p++)
        nc_create_place(net, NULL, NULL, p == 0);
    for (int p = 0; p < n; p++) {
        int t = nc_create_transition(net, NULL, NULL);
        nc_create_arc(net, NC_ARC_PT, (uint32_t)p, (uint32_t)t, 1, 0);
        nc_create_arc(net, NC_ARC_TP, (uint32_t)((p + 1) % n), (uint32_t)t, 1, 0);
    }
    int exit = nc_create_transition(net, NULL, NULL);
    nc_create_arc(net, NC_ARC_PT, (uint32_t)(n - 1), (uint32_t)exit, 1, 0);
    nc_create_arc(net, NC_ARC_TP, (uint32_t)n, (uint32_t)exit, 1, 0);
    return net;
}

static int stop_at_deadlock(void *ctx, const nc_count *m, uint32_t t, int dead)
{
    (void)ctx;
    (void)m;
    (void)t;
    return dead;
}

static int never(void *ctx, const nc_count *m, uint32_t t, int dead)
{
    (void)ctx;
    (void)m;
    (void)t;
    (void)dead;
    return 0;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(void)
{
    net_t *net = ring_with_exit(50);
    const cnet_t *cn = nc_compile(net);
    walk_result r1, r2;
    int found = walk_run(cn, now() + 10, NULL, 7, 100000, stop_at_deadlock, NULL, &r1);
    nc_count m[64];
    replay_initial(net, m);
    int ok = found == 1 && r1.run_len >= 50;
    for (size_t i = 0; ok && i < r1.run_len; i++) {
        ok = replay_enabled(net, m, r1.run[i]);
        replay_fire(net, m, r1.run[i]);
    }
    CHECK(ok && replay_dead(net, m), "a deadlock 50 steps deep is found, and its run replays to it");
    found = walk_run(cn, now() + 10, NULL, 7, 100000, stop_at_deadlock, NULL, &r2);
    CHECK(found == 1 && r2.run_len == r1.run_len && !memcmp(r1.run, r2.run, r1.run_len * 4),
          "the same seed gives the same walk");
    free(r1.run);
    free(r2.run);
    double start = now();
    found = walk_run(cn, start + 0.3, NULL, 7, 30, never, NULL, &r1);
    double took = now() - start;
    CHECK(found == 0 && took < 2 && r1.walks > 1, "walks restart at the depth limit and stop "
          "at the deadline (%.2f s, %llu walks)", took, (unsigned long long)r1.walks);
    free(r1.run);
    volatile int stop = 1;
    CHECK(walk_run(cn, 0, &stop, 7, 100, never, NULL, &r1) == 0, "an interrupt stops them");
    free(r1.run);
    nc_free_net(net);
    UNIT_DONE();
}
