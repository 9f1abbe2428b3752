/* End-to-end tests of `mck check` in both spellings.  Every printed witness
 * is replayed here on the net as read, with this file's own firing rule
 * (straight from the builder's arcs, not the compiled net the checker
 * used), and its end state is checked: dead for dl, the formula for reach. */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "input/input.h"
#include "base/netconv.h"
#include "replay.h"
#include "witness.h"
#include "unit.h"

static const char *mck, *top, *shared;

typedef struct outcome {
    int status;
    char out[1 << 16];
} outcome;

static void run(outcome *o, const char *args)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' %s 2>/dev/null", top, mck, args);
    FILE *p = popen(cmd, "r");
    size_t n = p ? fread(o->out, 1, sizeof o->out - 1, p) : 0;
    o->out[n] = '\0';
    int st = p ? pclose(p) : -1;
    o->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Replays a lasso ("*** loop starts here ***" ... "*** loop ends here
 * ***"): the number of steps when each is enabled and the loop leads back
 * to the marking where it started, else -1. */
static long replay_lasso(const net_t *net, const char *out)
{
    nc_count m[64], at_loop[64];
    if (net->nplaces > 64)
        return -1;
    replay_initial(net, m);
    const char *w = strstr(out, "*** initial state:");
    if (!w)
        return -1;
    w = strchr(w, '\n') + 1;
    long steps = 0;
    int looping = 0;
    while (*w) {
        char line[512];
        size_t n = strcspn(w, "\n");
        snprintf(line, sizeof line, "%.*s", (int)n, w);
        w += n + (w[n] == '\n');
        if (!strcmp(line, "*** loop starts here ***")) {
            memcpy(at_loop, m, net->nplaces * sizeof *m);
            looping = 1;
            continue;
        }
        if (!strcmp(line, "*** loop ends here ***"))
            return looping && !memcmp(at_loop, m, net->nplaces * sizeof *m) ? steps : -1;
        int64_t t = transition_named(net, line);
        if (t < 0 || !replay_enabled(net, m, (uint32_t)t))
            return -1;
        replay_fire(net, m, (uint32_t)t);
        steps++;
    }
    return -1;
}

static nc_count count_of(const net_t *net, const nc_count *m, const char *place)
{
    for (size_t p = 0; p < net->nplaces; p++)
        if (!strcmp(net->places[p].name, place))
            return m[p];
    return (nc_count)-1;
}

static net_t *load(const char *rel)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", top, rel);
    return strstr(rel, ".pnml") ? pnml_read(path) : pep_read(path);
}

/* ---- cases ---- */

static void dl_philosophers(void)
{
    outcome o;
    net_t *net = load("examples/pep/philo4.ll_net");
    nc_count m[64];
    run(&o, "pep:explicit-dl examples/pep/philo4.ll_net");
    CHECK(o.status == 0 && strstr(o.out, "Result: YES.\n"), "philo4 dl: YES (Kit spelling)");
    CHECK(replay(net, o.out, m) == 4 && replay_dead(net, m), "philo4 dl: witness replays to a deadlock");
    CHECK(strstr(o.out, "*** final state: hasleft0, hasleft1, hasleft2, hasleft3 ***\n") != NULL,
          "philo4 dl: final state printed");
    CHECK(strstr(o.out, "Time needed: ") != NULL, "philo4 dl: time line");
    run(&o, "check examples/pep/philo4.ll_net");
    CHECK(o.status == 0 && replay(net, o.out, m) == 4 && replay_dead(net, m),
          "philo4: dl by default (modern spelling)");
    run(&o, "check -q explicit-dl examples/pep/philo4.ll_net");
    CHECK(o.status == 0 && !strstr(o.out, "Witness:"), "-q prints no witness");
    nc_free_net(net);
}

static void reach_mutex(void)
{
    outcome o;
    net_t *ok = load("examples/pnml/mutex.pnml"), *bad = load("examples/pnml/mutex-broken.pnml");
    nc_count m[64];
    run(&o, "check examples/pnml/mutex.pnml examples/pnml/both-critical.form");
    CHECK(o.status == 1 && strstr(o.out, "Result: NO.\n") && !strstr(o.out, "Witness"),
          "mutex holds: reach NO, exit 1");
    run(&o, "pnml:explicit-reach examples/pnml/mutex.pnml examples/pnml/both-critical.form");
    CHECK(o.status == 1, "mutex holds: Kit spelling agrees");
    run(&o, "check -k reach examples/pnml/mutex-broken.pnml examples/pnml/both-critical.form");
    long n = replay(bad, o.out, m);
    CHECK(o.status == 0 && n == 4 && count_of(bad, m, "crit1") >= 1 && count_of(bad, m, "crit2") >= 1,
          "mutex broken: shortest witness of 4 steps ends with both critical");
    run(&o, "pnml:explicit-reach examples/pnml/mutex-broken.pnml examples/pnml/both-critical.form");
    CHECK(o.status == 0 && replay(bad, o.out, m) == 4, "mutex broken: Kit spelling agrees");
    run(&o, "check examples/pnml/mutex.pnml");
    CHECK(o.status == 1, "mutex: deadlock-free");
    run(&o, "pnml:explicit-ctl examples/pnml/mutex.pnml examples/pnml/crit1-eventually.form");
    CHECK(o.status == 1 && strstr(o.out, "Result: NO.\nCounterexample:\n") &&
          replay_lasso(ok, o.out) > 0, "mutex AF crit1: NO, a lasso that replays and closes");
    run(&o, "check examples/pnml/mutex.pnml examples/pnml/crit1-always-possible.form");
    CHECK(o.status == 0 && strstr(o.out, "Result: YES.\n") && !strstr(o.out, "Witness"),
          "mutex AG EF crit1: YES (kind ctl from the formula), no run");
    run(&o, "pnml:explicit-ltl examples/pnml/mutex.pnml examples/pnml/crit1-infinitely-often.form");
    CHECK(o.status == 1 && strstr(o.out, "Result: NO.\nCounterexample:\n") &&
          replay_lasso(ok, o.out) > 0, "mutex G F crit1 (LTL): NO, a lasso that replays and closes");
    run(&o, "check -k ltl examples/pnml/mutex.pnml examples/pnml/both-critical.form");
    CHECK(o.status == 1, "a state formula checked as ltl: false at the initial marking");
    run(&o, "check -k ctl examples/pnml/mutex-broken.pnml examples/pnml/both-critical.form");
    CHECK(o.status == 1, "a state formula checked as ctl: false at the initial marking");
    nc_free_net(ok);
    nc_free_net(bad);
}

static void weights_and_counts(void)
{
    outcome o;
    net_t *net = load("tests/data/check/weights.ll_net");
    nc_count m[8];
    run(&o, "check tests/data/check/weights.ll_net tests/data/check/full2.form");
    CHECK(o.status == 0 && replay(net, o.out, m) == 1 && count_of(net, m, "full") >= 2,
          "weights: \"full\" >= 2 reached by produce2");
    CHECK(strstr(o.out, "free(3), idle") != NULL, "counts printed as place(k)");
    run(&o, "check tests/data/check/weights.ll_net");
    CHECK(o.status == 1, "weights: no deadlock");
    nc_free_net(net);
}

static void limits(void)
{
    outcome o;
    run(&o, "check --mem 1 tests/data/check/unbounded.ll_net tests/data/check/buffer-full.form");
    CHECK(o.status == 3 && strstr(o.out, "Result: UNKNOWN (memory budget exhausted).\n"),
          "unbounded net under --mem: UNKNOWN, exit 3");
    run(&o, "check -m 1000 tests/data/check/unbounded.ll_net tests/data/check/buffer-full.form");
    CHECK(o.status == 3 && strstr(o.out, "Result: UNKNOWN (state limit reached).\n"),
          "unbounded net under -m: UNKNOWN");
    run(&o, "check --timeout 0.5 tests/data/check/unbounded.ll_net tests/data/check/buffer-full.form");
    CHECK(o.status == 3 && strstr(o.out, "Result: UNKNOWN ("), "unbounded net under --timeout: UNKNOWN");
}

static void errors(void)
{
    outcome o;
    run(&o, "check examples/pep/philo4.ll_net no-such.form");
    CHECK(o.status == 2, "missing property file: exit 2");
    run(&o, "check no-such.ll_net");
    CHECK(o.status == 2, "missing model: exit 2");
    run(&o, "check -k dl examples/pnml/mutex.pnml examples/pnml/both-critical.form");
    CHECK(o.status == 2, "dl with a formula: exit 2");
    run(&o, "nolang:explicit-dl examples/pnml/mutex.pnml");
    CHECK(o.status == 2, "unknown language: exit 2");
    run(&o, "check -c nochecker examples/pnml/mutex.pnml");
    CHECK(o.status == 2, "unknown checker: exit 2");
    run(&o, "check examples/pnml/mutex.pnml");
    CHECK(o.status == 1, "sanity after errors");
}

static void xml_verdict(void)
{
    outcome o;
    char cmd[2048];
    run(&o, "check --xml tests/tmp/check-verdict.xml examples/pnml/mutex-broken.pnml "
            "examples/pnml/both-critical.form");
    CHECK(o.status == 0, "--xml: check still answers");
    snprintf(cmd, sizeof cmd,
             "xmllint --noout --relaxng '%s/verdicts/propertiesverdict.rng' '%s/tests/tmp/check-verdict.xml' "
             ">/dev/null 2>&1", top, top);
    if (system("command -v xmllint >/dev/null 2>&1") != 0) {
        SKIP("--xml validation: xmllint not installed");
        return;
    }
    CHECK(system(cmd) == 0, "--xml: verdict file validates against the RELAX NG grammar");
}

/* The shared PEP examples with the answers of their README. */
static void shared_pep(void)
{
    static const struct { const char *file; int deadlock; long steps; } nets[] = {
        {"peterson.ll_net", 0, 0},        {"peterson_ra.ll_net", 0, 0},
        {"mutual.ll_net", 0, 0},          {"elevator.ll_net", 0, 0},
        {"gas_station.ll_net", 0, 0},     {"sdl_arq_deadlock.ll_net", 1, 27},
        {"stack_full.ll_net", 1, 17},     {"philo3.ll_net", 1, 3},
    };
    char path[1024], args[2048];
    snprintf(path, sizeof path, "%s/examples/pep/philo3.ll_net", shared);
    FILE *probe = fopen(path, "r");
    if (!probe) {
        SKIP("shared PEP examples: %s/examples/pep not found", shared);
        return;
    }
    fclose(probe);
    for (size_t i = 0; i < sizeof nets / sizeof nets[0]; i++) {
        outcome o;
        snprintf(path, sizeof path, "%s/examples/pep/%s", shared, nets[i].file);
        snprintf(args, sizeof args, "pep:explicit-dl '%s'", path);
        run(&o, args);
        net_t *net = pep_read(path);
        nc_count *m = calloc(net ? net->nplaces + 1 : 1, sizeof *m);
        if (nets[i].deadlock) {
            long n = net ? replay(net, o.out, m) : -1;
            CHECK(o.status == 0 && n == nets[i].steps && replay_dead(net, m),
                  "%s: deadlock, shortest run %ld steps replayed", nets[i].file, nets[i].steps);
        } else {
            CHECK(o.status == 1 && strstr(o.out, "Result: NO.\n"), "%s: deadlock-free", nets[i].file);
        }
        free(m);
        nc_free_net(net);
    }
}

/* formula-syntax.md §9 and the PEP README's reachability answers */
static void shared_reach(void)
{
    static const struct { const char *net, *form; int yes; const char *run; } cases[] = {
        {"philo3.ll_net", "philo3-noforks.form", 1, "takeleft0\ntakeright0\ntakeleft2\n"},
        {"philo3.ll_net", "philo3-nofire.form", 1, "takeleft0\ntakeright0\n"},
        {"philo3.ll_net", "philo3-neighbours.form", 0, NULL},
        {"mutual.ll_net", "mutual-both.form", 0, NULL},
        {"mutual.ll_net", "mutual-one.form", 1, NULL},
    };
    char path[1024], args[2048];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        outcome o;
        snprintf(path, sizeof path, "%s/examples/pep/%s", shared, cases[i].net);
        FILE *probe = fopen(path, "r");
        if (!probe) {
            SKIP("%s: not found", path);
            continue;
        }
        fclose(probe);
        snprintf(args, sizeof args, "pep:explicit-reach '%s' tests/data/check/%s", path, cases[i].form);
        run(&o, args);
        net_t *net = pep_read(path);
        nc_count *m = calloc(net ? net->nplaces + 1 : 1, sizeof *m);
        if (cases[i].yes) {
            CHECK(o.status == 0 && net && replay(net, o.out, m) >= 0 &&
                  (!cases[i].run || strstr(o.out, cases[i].run)),
                  "%s %s: YES with the expected witness, replayed", cases[i].net, cases[i].form);
        } else {
            CHECK(o.status == 1, "%s %s: NO", cases[i].net, cases[i].form);
        }
        free(m);
        nc_free_net(net);
    }
}

int main(void)
{
    mck = getenv("MCK") ? getenv("MCK") : "./mck";
    top = getenv("TOP") ? getenv("TOP") : ".";
    shared = getenv("SHARED") ? getenv("SHARED") : "../shared";
    dl_philosophers();
    reach_mutex();
    weights_and_counts();
    limits();
    errors();
    xml_verdict();
    shared_pep();
    shared_reach();
    UNIT_DONE();
}
