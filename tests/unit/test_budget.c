/* The run's budget (base/budget.h): the default bytes, the limits a
 * command sets, BenchKit's variables good and bad, the carves' shares
 * (each within its parent, siblings together too, and the numbers the
 * checkers used before they carved), deadline arithmetic, the -v lines,
 * and the lending to the stages before a search: each limit stops them. */
#include "base/budget.h"
#include "base/clock.h"
#include "unit.h"

#include <math.h>
#include <stdlib.h>
#include <sys/mman.h>

#define MIB ((size_t)1 << 20)
/* time passes between a carve and the check of it */
#define EPS 0.05

static int near(double a, double b)
{
    return fabs(a - b) < EPS;
}

static void defaults(void)
{
    budget_t b;
    budget_init(&b, NULL);
    size_t d = budget_default_bytes();
    CHECK(d > 0 && d <= BUDGET_DEFAULT_BYTES_MAX, "default bytes: %zu MiB, at most %zu MiB",
          d / MIB, BUDGET_DEFAULT_BYTES_MAX / MIB);
    CHECK(b.bytes == d && b.bytes_from == BUDGET_DEFAULT && b.deadline == 0 &&
          b.time_from == BUDGET_DEFAULT, "budget_init: the default bytes, no time limit");
    CHECK(b.interrupted && !*b.interrupted && !budget_expired(&b),
          "budget_init without a flag: one nothing sets");
    CHECK(budget_left(&b) == HUGE_VAL && budget_seconds(&b) == HUGE_VAL,
          "no time limit: HUGE_VAL left and given");
    budget_set_limits(&b, 0, 0, NULL);
    CHECK(b.bytes == d && b.deadline == 0 && b.bytes_from == BUDGET_DEFAULT,
          "no --mem, no --timeout: the default, no limit");
    budget_set_limits(&b, 5, 64 * MIB, NULL);
    CHECK(b.bytes == 64 * MIB && b.bytes_from == BUDGET_OPTION && b.time_from == BUDGET_OPTION &&
          b.deadline == b.start + 5, "--mem 64 --timeout 5: 64 MiB, deadline start + 5 s");
    CHECK(budget_left(&b) <= 5 && budget_left(&b) > 5 - EPS && near(budget_seconds(&b), 5),
          "5 s given, %.3f s left", budget_left(&b));
    volatile int stop = 0;
    budget_init(&b, &stop);
    CHECK(!budget_expired(&b), "a flag not set: not expired");
    stop = 1;
    CHECK(budget_expired(&b), "a signal's flag: expired");
}

static void benchkit(void)
{
    budget_t b;
    budget_init(&b, NULL);
    int bad = budget_set_benchkit(&b, "60", "1024", NULL);
    CHECK(bad == 0 && b.bytes == 768 * MIB && b.bytes_from == BUDGET_BENCHKIT &&
          b.time_from == BUDGET_BENCHKIT, "60 s, 1024 MiB: three quarters, 768 MiB, for search");
    CHECK(near(budget_seconds(&b), 59.2), "60 s: 0.8 s kept back, %.1f s to search",
          budget_seconds(&b));
    budget_set_benchkit(&b, "3600", NULL, NULL);
    CHECK(near(budget_seconds(&b), 3570) && b.bytes == budget_default_bytes() &&
          b.bytes_from == BUDGET_DEFAULT, "3600 s: at most 30 s kept back (%.0f s); "
          "no memory confinement: the default", budget_seconds(&b));
    budget_set_benchkit(&b, "10", "", NULL);
    CHECK(near(budget_seconds(&b), 9.2), "10 s: at least 0.8 s kept back (%.1f s)",
          budget_seconds(&b));
    budget_set_benchkit(&b, NULL, NULL, NULL);
    CHECK(near(budget_seconds(&b), BUDGET_BENCHKIT_SECONDS - 30) && b.time_from == BUDGET_DEFAULT,
          "unset: the contest's hour, less its 30 s");
    budget_set_benchkit(&b, "0.5", NULL, NULL);
    CHECK(b.deadline == b.start && b.deadline != 0 && budget_left(&b) == 0,
          "0.5 s, shorter than the margin: the deadline is at once, not none");
    static const char *const bad_time[] = {"abc", "-5", "0", "12x", "1e10", "nan", "inf", " "};
    for (size_t i = 0; i < sizeof bad_time / sizeof *bad_time; i++) {
        bad = budget_set_benchkit(&b, bad_time[i], "100", NULL);
        CHECK(bad == BUDGET_BAD_TIME && near(budget_seconds(&b), BUDGET_BENCHKIT_SECONDS - 30) &&
              b.time_from == BUDGET_DEFAULT && b.bytes == 75 * MIB,
              "BK_TIME_CONFINEMENT='%s': ignored, the hour; the memory still read", bad_time[i]);
    }
    static const char *const bad_mem[] = {"abc", "-1", "0", "64M", "1.5",
                                          "99999999999999999999999"};
    for (size_t i = 0; i < sizeof bad_mem / sizeof *bad_mem; i++) {
        bad = budget_set_benchkit(&b, "100", bad_mem[i], NULL);
        CHECK(bad == BUDGET_BAD_MEMORY && b.bytes == budget_default_bytes() &&
              b.bytes_from == BUDGET_DEFAULT && b.time_from == BUDGET_BENCHKIT,
              "BK_MEMORY_CONFINEMENT='%s': ignored, the default; the time still read", bad_mem[i]);
    }
    bad = budget_set_benchkit(&b, "x", "y", NULL);
    CHECK(bad == (BUDGET_BAD_TIME | BUDGET_BAD_MEMORY), "both bad: both said");
}

/* A budget of bytes and seconds from now, as a command would set it. */
static budget_t made(double seconds, size_t bytes)
{
    budget_t b;
    budget_init(&b, NULL);
    budget_set_limits(&b, seconds, bytes, NULL);
    return b;
}

static void carves_within(void)
{
    static const size_t sizes[] = {1, 2, 3, 1000000, 1000001, 1000002, (size_t)8 << 30,
                                   ((size_t)8 << 30) + 2};
    int names_ok = 1, within = 1;
    for (int id = 0; id < CARVE_COUNT; id++) {
        const char *name = budget_carve_name((budget_carve_id)id);
        if (!name || !*name)
            names_ok = 0;
        for (int j = 0; name && j < id; j++)
            if (!strcmp(name, budget_carve_name((budget_carve_id)j)))
                names_ok = 0;
        for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
            budget_t p = made(100, sizes[k]);
            budget_t c = budget_carve(&p, (budget_carve_id)id);
            if (c.bytes > p.bytes || c.deadline > p.deadline || c.deadline < c.start ||
                strcmp(c.name, name) || c.bytes_from != BUDGET_CARVED ||
                c.interrupted != p.interrupted)
                within = 0;
        }
    }
    CHECK(names_ok, "every carve has a name of its own");
    CHECK(budget_carve_name(CARVE_COUNT) == NULL, "no name beyond the table");
    CHECK(within, "every carve within its parent's bytes and deadline");

    /* bytes: siblings take the parent's bytes between them, no more */
    static const budget_carve_id pairs[][2] = {
        {CARVE_CTL_STATES, CARVE_CTL_MODEL},
        {CARVE_CTL_LOCAL_NODES, CARVE_CTL_LOCAL_STATES},
        {CARVE_LTL_STACK, CARVE_LTL_STATES},
        {CARVE_GENERIC_STATES, CARVE_GENERIC_GRAPH},
        {CARVE_MCC_LIVENESS_STATES, CARVE_MCC_LIVENESS_GRAPH},
        {CARVE_SYMBOLIC_TABLE, CARVE_SYMBOLIC_COUNT},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++) {
        int sum_ok = 1;
        for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
            budget_t p = made(0, sizes[k]);
            budget_t a = budget_carve(&p, pairs[i][0]), b = budget_carve(&p, pairs[i][1]);
            if (a.bytes + b.bytes != p.bytes)
                sum_ok = 0;
        }
        CHECK(sum_ok, "%s + %s: the parent's bytes exactly", budget_carve_name(pairs[i][0]),
              budget_carve_name(pairs[i][1]));
    }
    /* time: the stages carved from one parent take at most all of it */
    budget_t p = made(100, MIB);
    budget_t lp = budget_carve(&p, CARVE_GENERIC_LP);
    budget_t dl = budget_carve(&lp, CARVE_GENERIC_LP_DEADLOCK);
    budget_t safe = budget_carve(&lp, CARVE_GENERIC_LP_SAFE);
    CHECK(budget_seconds(&dl) + budget_seconds(&safe) <= budget_seconds(&lp),
          "generic.lp.deadlock + generic.lp.safe within generic.lp");
    budget_t clp = budget_carve(&p, CARVE_MCC_CTL_LP), loc = budget_carve(&p, CARVE_MCC_CTL_LOCAL);
    CHECK(budget_seconds(&clp) + budget_seconds(&loc) <= budget_seconds(&p),
          "mcc.ctl.lp + mcc.ctl.local within the run");
    budget_t glp = budget_carve(&p, CARVE_MCC_GLOBAL_LP), gw = budget_carve(&p, CARVE_MCC_GLOBAL_WALK);
    CHECK(budget_seconds(&glp) + budget_seconds(&gw) <= budget_seconds(&p),
          "mcc.global.lp + mcc.global.walk within the run");
    budget_t pb = budget_carve(&p, CARVE_EXPLORE_PLACEBITS);
    budget_t oh = budget_carve(&pb, CARVE_EXPLORE_ONEHOT);
    budget_t inv = budget_carve(&pb, CARVE_PLACEBITS_INVARIANTS);
    CHECK(budget_seconds(&oh) + budget_seconds(&inv) <= budget_seconds(&pb),
          "explore.onehot + placebits.invariants within explore.placebits");
}

/* The shares the checkers used before the table: the same numbers. */
static void carves_as_before(void)
{
    size_t B = 1000000001;   /* leaves a remainder for thirds and halves */
    budget_t p = made(100, B);
    budget_t s = budget_carve(&p, CARVE_CTL_STATES), m = budget_carve(&p, CARVE_CTL_MODEL);
    budget_t g = budget_carve(&m, CARVE_CTL_GRAPH);
    CHECK(s.bytes == B / 3 && m.bytes == B - B / 3 && g.bytes == (B - B / 3) / 2,
          "ctl: markings total / 3, model the rest, graph half the model");
    budget_t n = budget_carve(&p, CARVE_CTL_LOCAL_NODES), ls = budget_carve(&p, CARVE_CTL_LOCAL_STATES);
    CHECK(n.bytes == B / 2 && ls.bytes == B - B / 2, "ctl.local: total / 2 and the rest");
    budget_t st = budget_carve(&p, CARVE_LTL_STACK), lt = budget_carve(&p, CARVE_LTL_STATES);
    CHECK(st.bytes == B / 3 && lt.bytes == B - B / 3, "ltl: stack total / 3, store the rest");
    budget_t gs = budget_carve(&p, CARVE_GENERIC_STATES), gg = budget_carve(&p, CARVE_GENERIC_GRAPH);
    CHECK(gs.bytes == B / 3 && gg.bytes == B - B / 3 && near(budget_seconds(&gs), 70) &&
          near(budget_seconds(&gg), 100), "generic: markings total / 3 and 70 %% of the time, "
          "graph the rest");
    budget_t ms = budget_carve(&p, CARVE_MCC_LIVENESS_STATES);
    budget_t mg = budget_carve(&p, CARVE_MCC_LIVENESS_GRAPH);
    CHECK(ms.bytes == B / 3 && mg.bytes == B - B / 3, "mcc Liveness: total / 3 and the rest");

    budget_t r = budget_carve(&p, CARVE_REDUCE);
    budget_t r2 = made(1000, MIB), rl = budget_carve(&r2, CARVE_REDUCE);
    budget_t r3 = made(0, MIB), ro = budget_carve(&r3, CARVE_REDUCE);
    CHECK(near(budget_seconds(&r), 5) && near(budget_seconds(&rl), 10) &&
          near(budget_seconds(&ro), 10) && r.bytes == B,
          "reduce: 5 %% of the time, at most 10 s, 10 s without a limit");
    budget_t t10 = made(10, MIB), pb = budget_carve(&t10, CARVE_EXPLORE_PLACEBITS);
    budget_t pl = budget_carve(&p, CARVE_EXPLORE_PLACEBITS), po = budget_carve(&r3, CARVE_EXPLORE_PLACEBITS);
    CHECK(near(budget_seconds(&pb), 0.5) && near(budget_seconds(&pl), 1) &&
          near(budget_seconds(&po), 1), "explore.placebits: a twentieth, at most 1 s, 1 s "
          "without a limit");
    budget_t oh = budget_carve(&pb, CARVE_EXPLORE_ONEHOT), inv = budget_carve(&pb, CARVE_PLACEBITS_INVARIANTS);
    CHECK(near(budget_seconds(&oh), 0.125) && near(budget_seconds(&inv), 0.125),
          "explore.onehot, placebits.invariants: a quarter of the bounds' time");
    budget_t lp = budget_carve(&r3, CARVE_GENERIC_LP);
    CHECK(near(budget_seconds(&lp), 20), "generic.lp: 20 s without a limit");
    budget_t gst = budget_carve(&r3, CARVE_GENERIC_STATES);
    CHECK(gst.deadline == 0, "generic.states without a limit: none either");

    budget_t run = made(100, MIB);
    static const struct {
        budget_carve_id id;
        double seconds;
    } mcc[] = {{CARVE_MCC_REDUCE, 5}, {CARVE_MCC_GLOBAL_LP, 30}, {CARVE_MCC_GLOBAL_WALK, 5},
               {CARVE_MCC_PREPASS, 30}, {CARVE_MCC_CTL_LP, 25}, {CARVE_MCC_CTL_LOCAL, 25},
               {CARVE_MCC_PORTFOLIO_FIRST, 6.25}, {CARVE_MCC_PORTFOLIO_REACH, 87.5}};
    for (size_t i = 0; i < sizeof mcc / sizeof *mcc; i++) {
        budget_t c = budget_carve(&run, mcc[i].id);
        CHECK(near(budget_seconds(&c), mcc[i].seconds) && c.bytes == MIB, "%s: %g s of 100",
              budget_carve_name(mcc[i].id), mcc[i].seconds);
    }
    budget_t run20 = made(20, MIB), w = budget_carve(&run20, CARVE_MCC_GLOBAL_WALK);
    CHECK(near(budget_seconds(&w), 2), "mcc.global.walk: a tenth below the cap (%.2f s)",
          budget_seconds(&w));
}

static void deadlines(void)
{
    budget_t p = made(100, MIB);
    budget_t q = budget_carve_part(&p, CARVE_MCC_LTL_FORMULA, 4);
    CHECK(near(budget_seconds(&q), 25) && q.bytes == MIB, "a part of 4: a quarter of the time, "
          "all the bytes");
    budget_t one = budget_carve_part(&p, CARVE_MCC_LTL_FORMULA, 0);
    CHECK(near(budget_seconds(&one), 100), "a part of 0: all of it");
    /* what the parent has left, not what it was given */
    budget_t late = p;
    late.start -= 60;
    late.deadline -= 60;
    budget_t c = budget_carve(&late, CARVE_MCC_CTL_LOCAL);
    CHECK(near(budget_seconds(&c), 10) && near(c.deadline - mono_now(), 10),
          "a carve made late: a share of the 40 s left (%.2f s)", budget_seconds(&c));
    budget_t spent = made(1, MIB);
    spent.deadline = mono_now() - 1;
    budget_t e = budget_carve(&spent, CARVE_CTL_STATES);
    CHECK(e.deadline != 0 && e.deadline == e.start && budget_left(&e) == 0 && budget_expired(&e),
          "a spent parent: the carve's deadline is now, never none");
    budget_t x = budget_carve_part(&spent, CARVE_MCC_LTL_FORMULA, 3);
    CHECK(x.deadline != 0 && budget_seconds(&x) == 0, "a spent parent's part: no time, not none");
    budget_t open = made(0, MIB);
    budget_t oc = budget_carve(&open, CARVE_CTL_STATES);
    CHECK(oc.deadline == 0 && budget_left(&oc) == HUGE_VAL && !budget_expired(&oc),
          "no limit carved: none either");
    /* a question of a file: the run's limits, its clock started again */
    budget_t old = made(5, MIB);
    old.start -= 4;
    old.deadline -= 4;
    budget_t r = budget_restart(&old);
    CHECK(near(budget_left(&r), 5) && near(budget_seconds(&r), 5) && r.bytes == MIB &&
          r.bytes_from == BUDGET_OPTION, "budget_restart: the whole 5 s again from now");
    budget_t ro = budget_restart(&open);
    CHECK(ro.deadline == 0, "budget_restart without a limit: none");
}

/* report's line for b, in buf */
static void line(const budget_t *b, char *buf, size_t len)
{
    FILE *f = fmemopen(buf, len, "w");
    budget_report(b, f);
    fclose(f);
}

static void report(void)
{
    char buf[200];
    budget_t b = made(5, 64 * MIB);
    line(&b, buf, sizeof buf);
    CHECK(!strcmp(buf, "budget: 64 MiB (--mem), 5 s (--timeout)\n"), "-v: %.*s",
          (int)strcspn(buf, "\n"), buf);
    b = made(0, 0);
    line(&b, buf, sizeof buf);
    char want[100];
    snprintf(want, sizeof want, "budget: %zu MiB (default), no time limit\n",
             budget_default_bytes() / MIB);
    if (budget_default_bytes() % MIB)
        snprintf(want, sizeof want, "budget: %.1f MiB (default), no time limit\n",
                 (double)budget_default_bytes() / MIB);
    CHECK(!strcmp(buf, want), "-v: %.*s", (int)strcspn(buf, "\n"), buf);
    budget_init(&b, NULL);
    budget_set_benchkit(&b, "60", "1024", NULL);
    line(&b, buf, sizeof buf);
    CHECK(!strcmp(buf, "budget: 768 MiB (BK_MEMORY_CONFINEMENT), 59.200 s (BK_TIME_CONFINEMENT)\n"),
          "-v: %.*s", (int)strcspn(buf, "\n"), buf);
    /* carves are told on the parent's log as they are made */
    char *logged = NULL;
    size_t loglen = 0;
    FILE *log = open_memstream(&logged, &loglen);
    b = made(0, 3 * MIB);
    b.log = log;
    (void)budget_carve(&b, CARVE_CTL_STATES);
    fclose(log);
    CHECK(logged && !strcmp(logged, "budget: ctl.states: 1 MiB, no time limit\n"),
          "carve told: %.*s", logged ? (int)strcspn(logged, "\n") : 0, logged ? logged : "");
    free(logged);
    b = made(10, 10 * MIB);
    budget_t c = budget_carve(&b, CARVE_LTL_STACK);
    line(&c, buf, sizeof buf);
    CHECK(!strncmp(buf, "budget: ltl.stack: 3.3 MiB, ", 28) && strstr(buf, " s\n"),
          "carve line: %.*s", (int)strcspn(buf, "\n"), buf);
}

/* Touches n bytes of a mapping of their own (the process grows by them,
 * whatever malloc kept from before); shrink_by gives them back. */
static char *grow_by(size_t n)
{
    char *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    memset(p, 1, n);
    return p;
}

static void shrink_by(char *p, size_t n)
{
    if (p)
        munmap(p, n);
}

/* The stages before a search (budget_lend): each limit stops them with
 * its reason and the stage, nothing stops them when nothing is lent, and
 * what they grew is the search's no more. */
static void stages(void)
{
    CHECK(!budget_poll() && !budget_check() && !budget_stopped() && !budget_stop_reason(),
          "nothing lent: polls go on, nothing stopped");

    budget_t b = made(0, 64 * MIB);
    budget_lend(&b);
    int went_on = 1;
    for (int i = 0; i < 10 * BUDGET_POLL_EVERY; i++)
        went_on &= !budget_poll();
    CHECK(went_on && !budget_stopped(), "within the budget: %d polls go on",
          10 * BUDGET_POLL_EVERY);
    CHECK(budget_return(&b, 1) == 0 && b.bytes == 64 * MIB && !budget_stop_reason(),
          "returned with nothing grown: the bytes whole (%zu MiB)", b.bytes / MIB);

    /* time: a deadline already passed */
    b = made(1e-9, 64 * MIB);
    budget_lend(&b);
    int polls = 0;
    while (!budget_poll() && polls < 10 * BUDGET_POLL_EVERY)
        polls++;
    const char *why = budget_stop_reason();
    CHECK(polls < BUDGET_POLL_EVERY && budget_stopped() && why &&
          !strcmp(why, "time limit reached while reading"),
          "deadline passed: stopped within %d polls, '%s'", BUDGET_POLL_EVERY,
          why ? why : "(none)");
    CHECK(budget_poll() && budget_check(), "stopped stays stopped");
    CHECK(budget_return(&b, 0) == 1 && !budget_stopped() && budget_stop_reason() &&
          !budget_poll(), "returned: the reason stays, polls go on, nothing is stopped");

    /* a signal: at the first poll, in the stage named last */
    volatile int flag = 0;
    budget_init(&b, &flag);
    budget_set_limits(&b, 0, 64 * MIB, NULL);
    budget_lend(&b);
    budget_stage("unfolding");
    CHECK(!budget_poll(), "no signal yet: go on");
    flag = 1;
    why = budget_poll() ? budget_stop_reason() : NULL;
    CHECK(why && !strcmp(why, "interrupted while unfolding"), "a signal: '%s' at the next poll",
          why ? why : "(none)");
    budget_return(&b, 0);

    /* memory: the process grows by 8 MiB against a budget of 1 (and the
     * 4 MiB of the readers' own) */
    b = made(0, 1 * MIB);
    budget_lend(&b);
    budget_stage("compiling");
    char *big = grow_by(8 * MIB);
    why = budget_check() ? budget_stop_reason() : NULL;
    CHECK(big && why && !strcmp(why, "memory budget exhausted while compiling"),
          "8 MiB grown on a budget of 1 MiB: '%s'", why ? why : "(none)");
    CHECK(budget_return(&b, 1) == 1, "returned after the stop: stopped");
    shrink_by(big, 8 * MIB);

    /* what the stages keep beyond their own 4 MiB is not the search's */
    b = made(0, 64 * MIB);
    budget_lend(&b);
    big = grow_by(12 * MIB);
    int stopped = budget_return(&b, 1);
    CHECK(big && !stopped && b.bytes <= 56 * MIB && b.bytes >= 50 * MIB,
          "12 MiB kept by the stages: the search gets %zu of 64 MiB", b.bytes / MIB);
    shrink_by(big, 12 * MIB);
    b = made(0, 64 * MIB);
    budget_lend(&b);
    big = grow_by(2 * MIB);
    stopped = budget_return(&b, 1);
    CHECK(big && !stopped && b.bytes == 64 * MIB,
          "2 MiB, within the readers' own: the search gets all %zu MiB", b.bytes / MIB);
    shrink_by(big, 2 * MIB);
    /* a model that leaves nothing stops the stages as they end */
    b = made(0, 4 * MIB);
    budget_lend(&b);
    big = grow_by(10 * MIB);
    stopped = budget_return(&b, 1);
    CHECK(stopped && !strcmp(budget_stop_reason(), "memory budget exhausted while reading"),
          "10 MiB on a budget of 4 MiB: stopped as the stages end");
    shrink_by(big, 10 * MIB);
}

int main(void)
{
    defaults();
    benchkit();
    carves_within();
    carves_as_before();
    deadlines();
    report();
    stages();
    UNIT_DONE();
}
