/* The multi-threaded search (engine/parallel.h) against the one-thread
 * breadth-first search, through `mck check` on real contest instances:
 * the same answers and the same numbers of states and edges, witnesses
 * that replay on the net as read (tests/unit/witness.h, not the compiled
 * net the search used), the limits, and the same answers run after run.
 * Every run here starts the threads at once (--parallel-after 0) and uses
 * more threads than this machine may have cores, so that they interleave
 * in every way the scheduler finds. */
#include <stdlib.h>
#include <string.h>

#include "input/input.h"
#include "runmck.h"
#include "unit.h"
#include "witness.h"

static const char *mck, *top, *shared;

static void run(outcome *o, const char *fmt, const char *net, const char *extra)
{
    char args[4096];
    snprintf(args, sizeof args, fmt, net, extra ? extra : "");
    free(o->out);
    o->out = NULL;
    run_mck_in(o, top, mck, args, 300);
}

static uint64_t json_count(const char *out, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = strstr(out, pat);
    return p ? strtoull(p + strlen(pat), NULL, 10) : UINT64_MAX;
}

static const char *verdict(const char *out)
{
    return strstr(out, "\"verdict\":\"YES\"")  ? "YES"
           : strstr(out, "\"verdict\":\"NO\"") ? "NO"
                                                : "UNKNOWN";
}

static int instance(char *path, size_t len, const char *name)
{
    snprintf(path, len, "%s/mcc/%s/model.pnml", shared, name);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    fclose(f);
    return 1;
}

/* Full explorations (no deadlock) and a reach NO: the counts of 2 and 3
 * threads are those of one. */
static void same_counts(void)
{
    static const char *nets[] = {"HexagonalGrid-PT-110", "FlexibleBarrier-PT-04a",
                                 "CloudOpsManagement-PT-00002by00001", "Dekker-PT-010",
                                 "DrinkVendingMachine-PT-02", "CircadianClock-PT-000010"};
    outcome one = {0}, par = {0};
    char path[1024];
    for (size_t i = 0; i < sizeof nets / sizeof *nets; i++) {
        if (!instance(path, sizeof path, nets[i])) {
            SKIP("%s: not in %s/mcc", nets[i], shared);
            continue;
        }
        run(&one, "check --json -q -k dl -j 1 '%s'", path, NULL);
        for (int j = 2; j <= 3; j++) {
            char extra[64];
            snprintf(extra, sizeof extra, " -j %d", j);
            run(&par, "check --json -q -k dl --parallel-after 0 '%s'%s", path, extra);
            uint64_t s1 = json_count(one.out, "states"), e1 = json_count(one.out, "edges");
            CHECK(one.status == 1 && par.status == 1 && s1 == json_count(par.out, "states") &&
                      e1 == json_count(par.out, "edges") && strstr(par.out, "PARALLEL"),
                  "%s dl -j %d: NO with %llu states and %llu edges, as on one thread", nets[i],
                  j, (unsigned long long)s1, (unsigned long long)e1);
        }
    }
    if (instance(path, sizeof path, "HexagonalGrid-PT-110")) {
        run(&one, "check --json -q -j 1 '%s' tests/data/parallel/hexagonal-no.form", path, NULL);
        run(&par, "check --json -q -j 2 --parallel-after 0 '%s' tests/data/parallel/hexagonal-no.form",
            path, NULL);
        CHECK(one.status == 1 && par.status == 1 &&
                  json_count(one.out, "states") == json_count(par.out, "states") &&
                  json_count(one.out, "states") == 40193,
              "HexagonalGrid-PT-110 reach (unreachable): NO after all 40193 states, -j 2 too");
    }
    free(one.out);
    free(par.out);
}

/* Deadlocks found by 2 threads, for keys of one and of two words: the
 * witness replays to a dead marking; with the stubborn checker too. */
static void deadlock_witnesses(void)
{
    static const char *nets[] = {"CANConstruction-PT-005", "AutoFlight-PT-03a",
                                 "DNAwalker-PT-03track12BlockBoth", "AirplaneLD-PT-0010",
                                 "HealthRecord-PT-02"};
    outcome o = {0};
    char path[1024];
    for (size_t i = 0; i < sizeof nets / sizeof *nets; i++) {
        if (!instance(path, sizeof path, nets[i])) {
            SKIP("%s: not in %s/mcc", nets[i], shared);
            continue;
        }
        net_t *net = pnml_read(path);
        nc_count *m = net ? calloc(net->nplaces + 1, sizeof *m) : NULL;
        for (int stubborn = 0; stubborn <= 1 && m; stubborn++) {
            run(&o, "check -k dl -j 2 --parallel-after 0 '%s'%s", path,
                stubborn ? " -c stubborn" : "");
            long steps = replay(net, o.out, m);
            CHECK(o.status == 0 && steps >= 0 && replay_dead(net, m),
                  "%s dl -j 2%s: YES, a witness of %ld steps that replays to a deadlock", nets[i],
                  stubborn ? " (stubborn)" : "", steps);
        }
        free(m);
        nc_free_net(net);
    }
    free(o.out);
}

static void reach_witness(void)
{
    outcome o = {0};
    char path[1024];
    if (!instance(path, sizeof path, "HexagonalGrid-PT-110")) {
        SKIP("HexagonalGrid-PT-110: not in %s/mcc", shared);
        return;
    }
    net_t *net = pnml_read(path);
    nc_count m[64];
    for (int stubborn = 0; stubborn <= 1 && net && net->nplaces <= 64; stubborn++) {
        run(&o, "check -j 2 --parallel-after 0 '%s' tests/data/parallel/hexagonal-yes.form%s", path,
            stubborn ? " -c stubborn" : "");
        long steps = replay(net, o.out, m);
        nc_count a = (nc_count)-1, b = a, c = a;
        for (size_t p = 0; p < net->nplaces; p++) {
            if (!strcmp(net->places[p].name, "pi1_1_1"))
                a = m[p];
            if (!strcmp(net->places[p].name, "pi4_1_1"))
                b = m[p];
            if (!strcmp(net->places[p].name, "po2_1_1"))
                c = m[p];
        }
        CHECK(o.status == 0 && steps >= 5 && a >= 1 && b >= 1 && c >= 1 && a != (nc_count)-1 &&
                  b != (nc_count)-1 && c != (nc_count)-1,
              "HexagonalGrid-PT-110 reach -j 2%s: YES, a run of %ld steps (shortest: 5) into the "
              "goal",
              stubborn ? " (stubborn)" : "", steps);
    }
    nc_free_net(net);
    free(o.out);
}

static void limits(void)
{
    outcome o = {0};
    char path[1024];
    if (!instance(path, sizeof path, "CircadianClock-PT-000010")) {
        SKIP("CircadianClock-PT-000010: not in %s/mcc", shared);
        return;
    }
    run(&o, "check -k dl -j 2 --parallel-after 0 -m 5000 '%s'", path, NULL);
    CHECK(o.status == 3 && strstr(o.out, "Result: UNKNOWN (state limit reached).\n"),
          "-j 2 -m 5000: UNKNOWN (state limit reached)");
    run(&o, "check -k dl -j 2 --parallel-after 0 --mem 3 '%s'", path, NULL);
    CHECK(o.status == 3 && strstr(o.out, "Result: UNKNOWN (memory budget exhausted).\n"),
          "-j 2 --mem 3 on 644204 states: UNKNOWN (memory budget exhausted)");
    run(&o, "check --json -q -k dl -j 2 --parallel-after 0 --pack=off '%s'", path, NULL);
    CHECK(o.status == 1 && json_count(o.out, "states") == 644204 && !strstr(o.out, "PARALLEL"),
          "-j 2 --pack=off: markings of no fixed width, searched on one thread");
    run(&o, "check -k dl -j 0 '%s'", path, NULL);
    CHECK(o.status == 2 && strstr(o.err, "bad thread count '0'"), "-j 0: a usage error");
    free(o.out);
}

/* The Result lines of a run, one a property, without the times. */
static void results_only(const char *out, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (const char *p = out; (p = strstr(p, "Result: ")) != NULL; p++) {
        size_t k = strcspn(p, "\n");
        if (n + k + 2 < len) {
            memcpy(buf + n, p, k);
            n += k;
            buf[n++] = '\n';
            buf[n] = '\0';
        }
    }
}

/* CTL: the graph built from the threads' table answers as the one-thread
 * graph does, with evidence that mck replays before printing it. */
static void ctl_graph(void)
{
    static const char *nets[] = {"HexagonalGrid-PT-110", "FlexibleBarrier-PT-04a", "Dekker-PT-010"};
    static const char *files[] = {"CTLCardinality.xml", "CTLFireability.xml"};
    outcome one = {0}, par = {0};
    char path[1024], props[1200], a[8192], b[8192];
    for (size_t i = 0; i < sizeof nets / sizeof *nets; i++) {
        if (!instance(path, sizeof path, nets[i])) {
            SKIP("%s: not in %s/mcc", nets[i], shared);
            continue;
        }
        for (size_t f = 0; f < 2; f++) {
            snprintf(props, sizeof props, " '%s/mcc/%s/%s'", shared, nets[i], files[f]);
            run(&one, "check -j 1 '%s'%s", path, props);
            run(&par, "check -j 2 --parallel-after 0 '%s'%s", path, props);
            results_only(one.out, a, sizeof a);
            results_only(par.out, b, sizeof b);
            CHECK(*a && !strcmp(a, b) && !strstr(par.out, "internal error"),
                  "%s %s: the same 16 CTL answers on 2 threads, evidence replayed", nets[i],
                  files[f]);
        }
    }
    free(one.out);
    free(par.out);
}

/* The same answer and counts run after run, while the threads race. */
static void repeatable(void)
{
    static const char *nets[] = {"FlexibleBarrier-PT-04a", "AirplaneLD-PT-0010",
                                 "CloudOpsManagement-PT-00002by00001"};
    outcome o = {0};
    char path[1024];
    for (size_t i = 0; i < sizeof nets / sizeof *nets; i++) {
        if (!instance(path, sizeof path, nets[i])) {
            SKIP("%s: not in %s/mcc", nets[i], shared);
            continue;
        }
        run(&o, "check --json -q -k dl -j 1 '%s'", path, NULL);
        char want[16];
        snprintf(want, sizeof want, "%s", verdict(o.out));
        uint64_t states = json_count(o.out, "states");
        int same = 1;
        for (int r = 0; r < 20 && same; r++) {
            run(&o, "check --json -q -k dl -j 2 --parallel-after 0 '%s'", path, NULL);
            same = !strcmp(verdict(o.out), want) &&
                   (!strcmp(want, "YES") || json_count(o.out, "states") == states);
        }
        CHECK(same, "%s dl -j 2: %s in each of 20 runs", nets[i], want);
    }
    free(o.out);
}

int main(void)
{
    mck = getenv("MCK");
    top = getenv("TOP");
    shared = getenv("SHARED");
    if (!mck || !top || !shared) {
        SKIP("parallel: MCK, TOP and SHARED must be set (tests/run.sh sets them)");
        return 0;
    }
    same_counts();
    deadlock_witnesses();
    reach_witness();
    limits();
    ctl_graph();
    repeatable();
    UNIT_DONE();
}
