/* The CFA language against docs/cfa-format.md §9 (and the further models
 * of examples/cfa/README.md), checked by an interpreter of its own
 * (cfasim.h) rather than by mck's reader.
 *
 * First the interpreter is tested on the models and runs of §9: the
 * numbers of reachable states, the deterministic witnesses it derives by
 * the rule of §9, the doc's literal runs (valid) and mutations of them
 * (rejected), and a few points of §4 the examples do not reach.  Then mck
 * runs every row of §9's tables on examples/cfa; its answers and exit
 * codes are compared with the tables, every run it prints is replayed
 * step by step, deterministic runs are compared with the doc and with the
 * interpreter's own breadth-first witness, and LTL counterexamples are
 * checked to violate their formula. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cfasim.h"
#include "runmck.h"
#include "unit.h"

static const char *mck, *top;

/* ---- §9, verbatim ---- */

static const char dekker_cfa[] =
    "CFA\n"
    "% Dekker's mutual exclusion algorithm for two processes.\n"
    "% Waiting is modelled by blocking: a process simply has no enabled\n"
    "% transition until the condition it waits for becomes true.\n"
    "@global\n"
    "var flag1: {0..1} init 0;\n"
    "var flag2: {0..1} init 0;\n"
    "var turn:  {1..2} init 1;\n"
    "\n"
    "@automaton proc1\n"
    "@start idle;\n"
    "@label crit : cs1, critical;\n"
    "idle -> want : flag1' = 1;\n"
    "want -> crit : flag2 = 0;\n"
    "want -> back : flag2 = 1 & turn = 2 & flag1' = 0;\n"
    "back -> want : turn = 1 & flag1' = 1;\n"
    "crit -> idle : turn' = 2 & flag1' = 0;\n"
    "\n"
    "@automaton proc2\n"
    "@start idle;\n"
    "@label crit : cs2, critical;\n"
    "idle -> want : flag2' = 1;\n"
    "want -> crit : flag1 = 0;\n"
    "want -> back : flag1 = 1 & turn = 1 & flag2' = 0;\n"
    "back -> want : turn = 2 & flag2' = 1;\n"
    "crit -> idle : turn' = 1 & flag2' = 0;\n";

static const char mutex_bad_cfa[] =
    "CFA\n"
    "% A broken variant: each process first looks at the other flag and\n"
    "% only afterwards raises its own flag.\n"
    "@global\n"
    "var flag1: {0..1} init 0;\n"
    "var flag2: {0..1} init 0;\n"
    "\n"
    "@automaton proc1\n"
    "@start idle;\n"
    "@label crit : cs1;\n"
    "idle -> want : flag2 = 0;\n"
    "want -> crit : flag1' = 1;\n"
    "crit -> idle : flag1' = 0;\n"
    "\n"
    "@automaton proc2\n"
    "@start idle;\n"
    "@label crit : cs2;\n"
    "idle -> want : flag1 = 0;\n"
    "want -> crit : flag2' = 1;\n"
    "crit -> idle : flag2' = 0;\n";

#define PRODCONS(BUFFER)                                                    \
    "CFA\n"                                                                 \
    "% Producer/consumer over a FIFO channel of capacity 2.\n"              \
    "% The producer sends 1,2,3,1,2,3,...; the consumer checks the order.\n" \
    "@global\n"                                                             \
    "var ch: " BUFFER " 2 of {1..3};\n"                                     \
    "var next: {1..3} init 1;\n"                                            \
    "var expect: {1..3} init 1;\n"                                          \
    "var got: {1..3} init 1;\n"                                             \
    "\n"                                                                    \
    "@automaton producer\n"                                                 \
    "@start p;\n"                                                           \
    "p -> p : ch!'next, next' = 'next mod 3 + 1;\n"                         \
    "\n"                                                                    \
    "@automaton consumer\n"                                                 \
    "@start c;\n"                                                           \
    "@label bad : error;\n"                                                 \
    "c -> check : ch?got;\n"                                                \
    "check -> c : got = 'expect & expect' = 'expect mod 3 + 1;\n"           \
    "check -> bad : got != expect;\n"

static const char prodcons_cfa[] = PRODCONS("chan");
/* "replacing the declaration of ch by var ch: stack 2 of {1..3};" */
static const char prodcons_stack_cfa[] = PRODCONS("stack");

static const char stack_cfa[] =
    "CFA\n"
    "% A pusher pushes 1 and then 2 onto a stack and raises a flag;\n"
    "% then a popper pops twice.\n"
    "@global\n"
    "var st: stack 2 of {1..2};\n"
    "var ready: {0..1} init 0;\n"
    "var a: {0..2} init 0;\n"
    "var b: {0..2} init 0;\n"
    "\n"
    "@automaton pusher\n"
    "@start p0;\n"
    "p0 -> p1 : st!1;\n"
    "p1 -> p2 : st!2;\n"
    "p2 -> done : ready' = 1;\n"
    "\n"
    "@automaton popper\n"
    "@start wait;\n"
    "wait -> pop1 : ready = 1;\n"
    "pop1 -> pop2 : st?a;\n"
    "pop2 -> done : st?b;\n";

static const char dekker_live_run[] =
    "*** initial state: proc1.idle, proc2.idle, flag1=0, flag2=0, turn=1 ***\n"
    "proc1: idle [ flag1=0 --> flag1=1 ] want\n"
    "proc1: want [ flag2=0 --> flag2=0 ] crit\n"
    "proc1: crit [ flag1=1 --> flag1=0, turn=1 --> turn=2 ] idle\n"
    "proc1: idle [ flag1=0 --> flag1=1 ] want\n"
    "proc2: idle [ flag2=0 --> flag2=1 ] want\n"
    "proc1: want [ flag1=1 --> flag1=0, flag2=1 --> flag2=1, turn=2 --> turn=2 ] back\n"
    "proc2: want [ flag1=0 --> flag1=0 ] crit\n"
    "proc2: crit [ flag2=1 --> flag2=0, turn=2 --> turn=1 ] idle\n"
    "*** loop starts here ***\n"
    "proc2: idle [ flag2=0 --> flag2=1 ] want\n"
    "proc2: want [ flag1=0 --> flag1=0 ] crit\n"
    "proc2: crit [ flag2=1 --> flag2=0, turn=1 --> turn=1 ] idle\n"
    "*** loop ends here ***\n";

static const char bad_mutex_run[] =
    "*** initial state: proc1.idle, proc2.idle, flag1=0, flag2=0 ***\n"
    "proc1: idle [ flag2=0 --> flag2=0 ] want\n"
    "proc2: idle [ flag1=0 --> flag1=0 ] want\n"
    "proc1: want [ flag1=0 --> flag1=1 ] crit\n"
    "proc2: want [ flag2=0 --> flag2=1 ] crit\n"
    "*** final state: proc1.crit, proc2.crit, flag1=1, flag2=1 ***\n";

static const char pc_full_run[] =
    "*** initial state: producer.p, consumer.c, ch=(), next=1, expect=1, got=1 ***\n"
    "producer: p [ ch=() --> ch=(1), next=1 --> next=2 ] p\n"
    "producer: p [ ch=(1) --> ch=(1,2), next=2 --> next=3 ] p\n"
    "*** final state: producer.p, consumer.c, ch=(1,2), next=3, expect=1, got=1 ***\n";

static const char pc_order_stack_run[] =
    "*** initial state: producer.p, consumer.c, ch=(), next=1, expect=1, got=1 ***\n"
    "producer: p [ ch=() --> ch=(1), next=1 --> next=2 ] p\n"
    "producer: p [ ch=(1) --> ch=(1,2), next=2 --> next=3 ] p\n"
    "consumer: c [ ch=(1,2) --> ch=(1), got=1 --> got=2 ] check\n"
    "consumer: check [ expect=1 --> expect=1, got=2 --> got=2 ] bad\n"
    "*** final state: producer.p, consumer.bad, ch=(1), next=3, expect=1, got=2 ***\n";

#define STACK_RUN_STEPS                                                        \
    "*** initial state: pusher.p0, popper.wait, st=(), ready=0, a=0, b=0 ***\n" \
    "pusher: p0 [ st=() --> st=(1) ] p1\n"                                     \
    "pusher: p1 [ st=(1) --> st=(1,2) ] p2\n"                                  \
    "pusher: p2 [ ready=0 --> ready=1 ] done\n"                                \
    "popper: wait [ ready=1 --> ready=1 ] pop1\n"                              \
    "popper: pop1 [ st=(1,2) --> st=(1), a=0 --> a=2 ] pop2\n"                 \
    "popper: pop2 [ st=(1) --> st=(), b=0 --> b=1 ] done\n"                    \
    "*** final state: pusher.done, popper.done, st=(), ready=1, a=2, b=1 ***\n"

static const char stack_dl_run[] = STACK_RUN_STEPS;
static const char st_gf_run[] = STACK_RUN_STEPS "*** run ends in a deadlock ***\n";

/* Not printed in §9 ("after the two pushes"): the path of its rule. */
static const char st_full_run[] =
    "*** initial state: pusher.p0, popper.wait, st=(), ready=0, a=0, b=0 ***\n"
    "pusher: p0 [ st=() --> st=(1) ] p1\n"
    "pusher: p1 [ st=(1) --> st=(1,2) ] p2\n"
    "*** final state: pusher.p2, popper.wait, st=(1,2), ready=0, a=0, b=0 ***\n";

/* examples/cfa/README.md's deterministic witnesses (derived there) */
static const char pcs_dl_run[] =
    "*** initial state: producer.p, consumer.c, ch=(), next=1, expect=1, got=1 ***\n"
    "producer: p [ ch=() --> ch=(1), next=1 --> next=2 ] p\n"
    "producer: p [ ch=(1) --> ch=(1,2), next=2 --> next=3 ] p\n"
    "consumer: c [ ch=(1,2) --> ch=(1), got=1 --> got=2 ] check\n"
    "producer: p [ ch=(1) --> ch=(1,3), next=3 --> next=1 ] p\n"
    "consumer: check [ expect=1 --> expect=1, got=2 --> got=2 ] bad\n"
    "*** final state: producer.p, consumer.bad, ch=(1,3), next=1, expect=1, got=2 ***\n";

static const char pt_both_wait_run[] =
    "*** initial state: proc1.idle, proc2.idle, flag1=0, flag2=0, turn=1 ***\n"
    "proc1: idle [ flag1=0 --> flag1=1 ] set\n"
    "proc1: set [ turn=1 --> turn=2 ] wait\n"
    "proc2: idle [ flag2=0 --> flag2=1 ] set\n"
    "proc2: set [ turn=2 --> turn=1 ] wait\n"
    "*** final state: proc1.wait, proc2.wait, flag1=1, flag2=1, turn=1 ***\n";

#define BS_INIT \
    "*** initial state: producer.run, worker.take, undoer.idle, ch=(), done=(), next=1, cur=0, back=0 ***\n"

static const char bs_dl_run[] =
    BS_INIT
    "producer: run [ ch=() --> ch=(1), next=1 --> next=2 ] run\n"
    "worker: take [ ch=(1) --> ch=(), cur=0 --> cur=1 ] work\n"
    "producer: run [ ch=() --> ch=(2), next=2 --> next=3 ] run\n"
    "worker: work [ done=() --> done=(1), cur=1 --> cur=0 ] take\n"
    "worker: take [ ch=(2) --> ch=(), cur=0 --> cur=2 ] work\n"
    "producer: run [ ch=() --> ch=(3), next=3 --> next=4 ] run\n"
    "worker: work [ done=(1) --> done=(1,2), cur=2 --> cur=0 ] take\n"
    "worker: take [ ch=(3) --> ch=(), cur=0 --> cur=3 ] work\n"
    "producer: run [ ch=() --> ch=(4), next=4 --> next=5 ] run\n"
    "undoer: idle [ done=(1,2) --> done=(1), back=0 --> back=2 ] hold\n"
    "worker: work [ done=(1) --> done=(1,3), cur=3 --> cur=0 ] take\n"
    "worker: take [ ch=(4) --> ch=(), cur=0 --> cur=4 ] work\n"
    "producer: run [ ch=() --> ch=(5), next=5 --> next=6 ] run\n"
    "producer: run [ next=6 --> next=6 ] stop\n"
    "*** final state: producer.stop, worker.work, undoer.hold, ch=(5), done=(1,3), next=6, cur=4, back=2 ***\n";

static const char bs_lifo_run[] =
    BS_INIT
    "producer: run [ ch=() --> ch=(1), next=1 --> next=2 ] run\n"
    "worker: take [ ch=(1) --> ch=(), cur=0 --> cur=1 ] work\n"
    "producer: run [ ch=() --> ch=(2), next=2 --> next=3 ] run\n"
    "worker: work [ done=() --> done=(1), cur=1 --> cur=0 ] take\n"
    "worker: take [ ch=(2) --> ch=(), cur=0 --> cur=2 ] work\n"
    "undoer: idle [ done=(1) --> done=(), back=0 --> back=1 ] hold\n"
    "worker: work [ done=() --> done=(2), cur=2 --> cur=0 ] take\n"
    "*** final state: producer.run, worker.take, undoer.hold, ch=(), done=(2), next=3, cur=0, back=1 ***\n";

/* ---- goals and formulas on states ---- */

#define LIMIT 1000000L

/* pc_count.f: "ch" + "next" >= 5 (a length plus a value, §6) */
static int goal_count5(const cfasim *m, const long *s, void *ctx)
{
    (void)ctx;
    return cfasim_value(m, s, "ch") + cfasim_value(m, s, "next") >= 5;
}

/* "deadlock" is formula-syntax.md's atom, the others are §6's. */
static int all_hold(const cfasim *m, size_t i, const char *const *atoms)
{
    for (; *atoms; atoms++)
        if (!strcmp(*atoms, "deadlock") ? cfasim_dead(m, cfasim_run_state(m, i)) != 1
                                        : cfasim_state_has(m, i, *atoms) != 1)
            return 0;
    return 1;
}

/* bs_finish.f: "finished" & !deadlock */
static int goal_finished_live(const cfasim *m, const long *s, void *ctx)
{
    (void)ctx;
    return cfasim_prop(m, s, "finished") == 1 && cfasim_dead(m, s) == 0;
}

/* The LTL formulas of §9 that have counterexamples, on the last run
 * replayed: positions 0..n-1, the loop from cfasim_loop_start to n-1
 * (state n-1 equals the loop start, or is the deadlock repeating). */
enum { LTL_G_NOT = 1, LTL_F, LTL_GF, LTL_G_IMP_F };

static int ltl_holds(const cfasim *m, int shape, const char *const *p, const char *const *q)
{
    size_t n = cfasim_nrun(m), loop = cfasim_loop_start(m);
    switch (shape) {
    case LTL_G_NOT:
        for (size_t i = 0; i < n; i++)
            if (all_hold(m, i, p))
                return 0;
        return 1;
    case LTL_F:
        for (size_t i = 0; i < n; i++)
            if (all_hold(m, i, p))
                return 1;
        return 0;
    case LTL_GF:
        for (size_t i = loop; i < n; i++)
            if (all_hold(m, i, p))
                return 1;
        return 0;
    case LTL_G_IMP_F:
        for (size_t i = 0; i < n; i++) {
            if (!all_hold(m, i, p))
                continue;
            /* F q from i: from i on, and from the loop start once in it */
            int f = 0;
            for (size_t j = i < loop ? i : loop; j < n && !f; j++)
                f = all_hold(m, j, q);
            if (!f)
                return 0;
        }
        return 1;
    }
    return -1;
}

/* ---- helpers ---- */

static cfasim *parse(const char *text, const char *what)
{
    char err[512];
    cfasim *m = cfasim_parse(text, err, sizeof err);
    CHECK(m != NULL, "cfasim parses %s%s%s", what, m ? "" : ": ", m ? "" : err);
    return m;
}

static int replay_ok(cfasim *m, const char *run, const char *what)
{
    char err[2048];
    int rc = cfasim_replay(m, run, err, sizeof err);
    CHECK(rc == 0, "cfasim accepts %s%s%s", what, rc ? ": " : "", rc ? err : "");
    return rc == 0;
}

static void replay_bad(cfasim *m, const char *run, const char *what)
{
    char err[2048];
    int rc = cfasim_replay(m, run, err, sizeof err);
    CHECK(rc != 0, "cfasim rejects %s (%s)", what, rc ? err : "accepted");
}

static void bad_mutation(cfasim *m, const char *run, const char *old, const char *new,
                         const char *what)
{
    char *s = mutate(run, old, new);
    replay_bad(m, s, what);
    free(s);
}

static void witness_is(const cfasim *m, cfasim_goal goal, void *ctx, const char *expect,
                       const char *what)
{
    char *run = NULL;
    int rc = cfasim_bfs(m, LIMIT, goal, ctx, NULL, &run);
    int same = rc == 1 && run && !strcmp(run, expect);
    CHECK(same, "cfasim's breadth-first witness for %s is the one of §9", what);
    if (!same)
        fprintf(stderr, "%s: got rc %d\n%s", what, rc, run ? run : "");
    free(run);
}

/* ---- the interpreter on §9 ---- */

typedef struct model {
    const char *file, *text;
    long states;
    int deadlock;    /* -1: §9 does not say */
} model;

static const model models[] = {
    {"dekker.cfa", dekker_cfa, 26, 0},
    {"mutex_bad.cfa", mutex_bad_cfa, 9, 0},
    {"prodcons.cfa", prodcons_cfa, 21, 0},
    {"prodcons_stack.cfa", prodcons_stack_cfa, 33, -1},
    {"stack.cfa", stack_cfa, 7, 1},
};

/* examples/cfa/README.md's models beyond §9, with its numbers. */
static const model added[] = {
    {"peterson.cfa", NULL, 20, 0},
    {"buffer_stack.cfa", NULL, 169, 1},
};

static void check_added_counts(void)
{
    for (size_t i = 0; i < sizeof added / sizeof *added; i++) {
        char path[4096], err[512];
        snprintf(path, sizeof path, "%s/examples/cfa/%s", top, added[i].file);
        if (access(path, R_OK) != 0) {
            SKIP("cfasim: examples/cfa/%s: file missing", added[i].file);
            continue;
        }
        cfasim *m = cfasim_load(path, err, sizeof err);
        CHECK(m != NULL, "cfasim loads examples/cfa/%s%s%s", added[i].file, m ? "" : ": ",
              m ? "" : err);
        if (!m)
            continue;
        long n = cfasim_count_reachable(m, LIMIT);
        CHECK(n == added[i].states, "cfasim: %s has %ld reachable states (README: %ld)", added[i].file,
              n, added[i].states);
        CHECK(cfasim_has_deadlock(m, LIMIT) == added[i].deadlock, "cfasim: %s %s a deadlock (README)",
              added[i].file, added[i].deadlock ? "reaches" : "does not reach");
        cfasim_free(m);
    }
}

static void check_counts(void)
{
    for (size_t i = 0; i < sizeof models / sizeof *models; i++) {
        const model *M = &models[i];
        cfasim *m = parse(M->text, M->file);
        if (!m)
            continue;
        long n = cfasim_count_reachable(m, LIMIT);
        CHECK(n == M->states, "cfasim: %s has %ld reachable states (§9: %ld)", M->file, n, M->states);
        if (M->deadlock >= 0) {
            int d = cfasim_has_deadlock(m, LIMIT);
            CHECK(d == M->deadlock, "cfasim: %s %s a deadlock", M->file,
                  M->deadlock ? "reaches" : "does not reach");
        }
        /* the example file must be the model of §9 (comments may differ) */
        char path[4096], err[512];
        snprintf(path, sizeof path, "%s/examples/cfa/%s", top, M->file);
        if (access(path, R_OK) != 0) {
            SKIP("examples/cfa/%s is the model of §9: file missing", M->file);
        } else {
            cfasim *e = cfasim_load(path, err, sizeof err);
            long ne = e ? cfasim_count_reachable(e, LIMIT) : -2;
            int same_init = 0;
            if (e) {
                cs_buf a = {0}, b = {0};
                cs_put_state(&a, m, m->init);
                cs_put_state(&b, e, e->init);
                same_init = a.p && b.p && !strcmp(a.p, b.p);
                free(a.p);
                free(b.p);
            }
            CHECK(e && ne == M->states && same_init,
                  "examples/cfa/%s is the model of §9 (%ld states, same initial state)%s%s", M->file,
                  ne, e ? "" : ": ", e ? "" : err);
            cfasim_free(e);
        }
        cfasim_free(m);
    }
}

static void check_doc_claims(void)
{
    cfasim *dk = parse(dekker_cfa, "dekker.cfa"), *mb = parse(mutex_bad_cfa, "mutex_bad.cfa");
    cfasim *pc = parse(prodcons_cfa, "prodcons.cfa");
    cfasim *ps = parse(prodcons_stack_cfa, "prodcons_stack.cfa"), *st = parse(stack_cfa, "stack.cfa");
    if (!dk || !mb || !pc || !ps || !st)
        goto out;

    /* reach NO of §9: no reachable state satisfies the formula */
    static const char *const crit[] = {"proc1.crit", "proc2.crit", NULL};
    static const char *const cs12[] = {"cs1", "cs2", NULL};
    static const char *const error[] = {"error", NULL};
    static const char *const fifo[] = {"popper.done", "a=1", NULL};
    CHECK(cfasim_bfs(dk, LIMIT, cfasim_goal_props, (void *)crit, NULL, NULL) == 0,
          "cfasim: dekker_mutex.f unreachable");
    CHECK(cfasim_bfs(dk, LIMIT, cfasim_goal_props, (void *)cs12, NULL, NULL) == 0,
          "cfasim: dekker_mutex2.f unreachable");
    CHECK(cfasim_bfs(pc, LIMIT, cfasim_goal_props, (void *)error, NULL, NULL) == 0,
          "cfasim: pc_order.f unreachable with the channel");
    CHECK(cfasim_bfs(st, LIMIT, cfasim_goal_props, (void *)fifo, NULL, NULL) == 0,
          "cfasim: st_fifo.f unreachable");

    /* the deterministic witnesses of §9 follow from its rule */
    static const char *const full[] = {"ch.full", NULL};
    static const char *const lifo[] = {"popper.done", "a=2", "b=1", NULL};
    static const char *const stfull[] = {"st.full", NULL};
    witness_is(mb, cfasim_goal_props, (void *)cs12, bad_mutex_run, "bad_mutex.f");
    witness_is(pc, cfasim_goal_props, (void *)full, pc_full_run, "pc_full.f");
    witness_is(pc, goal_count5, NULL, pc_full_run, "pc_count.f");
    witness_is(ps, cfasim_goal_props, (void *)error, pc_order_stack_run, "pc_order.f on the stack");
    witness_is(st, cfasim_goal_dead, NULL, stack_dl_run, "stack.cfa dl");
    witness_is(st, cfasim_goal_props, (void *)lifo, stack_dl_run, "st_lifo.f");
    witness_is(st, cfasim_goal_props, (void *)stfull, st_full_run, "st_full.f");

    /* the literal runs of §9 are valid */
    static const char *const want1[] = {"proc1.want", NULL};
    static const char *const crit1[] = {"proc1.crit", NULL};
    static const char *const p0[] = {"pusher.p0", NULL};
    if (replay_ok(dk, dekker_live_run, "§9.1's dekker_live.f lasso")) {
        CHECK(cfasim_run_kind(dk) == CFASIM_LASSO && cfasim_loop_start(dk) == 8 &&
                  cfasim_nrun(dk) == 12,
              "cfasim: the dekker lasso has 8 prefix steps and a loop of 3");
        CHECK(ltl_holds(dk, LTL_G_IMP_F, want1, crit1) == 0,
              "cfasim: the dekker lasso violates G (proc1.want -> F proc1.crit)");
        static const char *const crit2[] = {"proc2.crit", NULL};
        CHECK(ltl_holds(dk, LTL_G_NOT, cs12, NULL) == 1 &&
                  ltl_holds(dk, LTL_GF, crit2, NULL) == 1 &&
                  ltl_holds(dk, LTL_GF, crit1, NULL) == 0 &&
                  ltl_holds(dk, LTL_F, crit1, NULL) == 1 &&
                  ltl_holds(dk, LTL_G_IMP_F, crit1, crit2) == 1,
              "cfasim: G !p, F p, G F p, G (p -> F q) on the dekker lasso");
    }
    if (replay_ok(mb, bad_mutex_run, "§9.2's bad_mutex.f witness"))
        CHECK(cfasim_run_kind(mb) == CFASIM_FINITE && all_hold(mb, cfasim_nrun(mb) - 1, cs12),
              "cfasim: the bad_mutex witness ends in cs1 & cs2");
    if (replay_ok(pc, pc_full_run, "§9.3's pc_full.f witness")) {
        size_t last = cfasim_nrun(pc) - 1;
        CHECK(cfasim_state_has(pc, last, "ch.full") == 1 &&
                  cfasim_state_has(pc, last, "ch.len=2") == 1 &&
                  cfasim_state_has(pc, last, "ch.head = 1") == 1 &&
                  cfasim_state_has(pc, last, "ch[1]=2") == 1 &&
                  cfasim_state_has(pc, last, "ch.empty") == 0 &&
                  cfasim_state_has(pc, last, "next>=3") == 1 &&
                  cfasim_state_has(pc, last, "error") == 0 &&
                  cfasim_state_has(pc, last, "consumer.c") == 1 &&
                  cfasim_state_has(pc, last, "ch.top=2") == -1 &&
                  cfasim_state_has(pc, last, "nothing") == -1,
              "cfasim: atomic propositions of §6 on pc_full's final state");
    }
    replay_ok(ps, pc_order_stack_run, "§9.3's pc_order.f witness on the stack");
    replay_ok(st, stack_dl_run, "§9.4's dl witness");
    if (replay_ok(st, st_gf_run, "§9.4's st_gf.f counterexample")) {
        CHECK(cfasim_run_kind(st) == CFASIM_DEADLOCK, "cfasim: st_gf's run ends in a deadlock");
        CHECK(ltl_holds(st, LTL_GF, p0, NULL) == 0, "cfasim: st_gf's run violates G F pusher.p0");
    }

    /* and wrong ones are not */
    bad_mutation(dk, dekker_live_run, "idle [ flag1=0 --> flag1=1 ] want",
                 "idle [ flag1=0 --> flag1=0 ] want", "a wrong post-value");
    bad_mutation(dk, dekker_live_run, "flag2=0 --> flag2=0 ] crit", "flag2=0 --> flag2=0 ] back",
                 "a wrong target state");
    bad_mutation(dk, dekker_live_run, "proc1: crit [ flag1=1 --> flag1=0, turn=1 --> turn=2 ] idle\n",
                 "", "a dropped step");
    bad_mutation(dk, dekker_live_run,
                 "proc2: crit [ flag2=1 --> flag2=0, turn=2 --> turn=1 ] idle\n*** loop starts here ***\n",
                 "*** loop starts here ***\nproc2: crit [ flag2=1 --> flag2=0, turn=2 --> turn=1 ] idle\n",
                 "a loop that does not return to its start");
    bad_mutation(dk, dekker_live_run, "*** loop ends here ***\n", "", "a loop without its end");
    bad_mutation(dk, dekker_live_run, "flag1=1 --> flag1=0, turn=1 --> turn=2",
                 "turn=1 --> turn=2, flag1=1 --> flag1=0", "variables out of declaration order");
    bad_mutation(dk, dekker_live_run, "proc1: want [ flag2=0 --> flag2=0 ] crit",
                 "proc1: want [ ] crit", "a read variable left out");
    bad_mutation(dk, dekker_live_run, "proc1: idle [ flag1=0 --> flag1=1 ] want",
                 "proc2: idle [ flag1=0 --> flag1=1 ] want", "a step of the wrong automaton");
    bad_mutation(mb, bad_mutex_run, "crit, flag1=1, flag2=1 ***", "crit, flag1=1, flag2=0 ***",
                 "a wrong final state");
    bad_mutation(mb, bad_mutex_run, "initial state: proc1.idle, proc2.idle, flag1=0",
                 "initial state: proc1.idle, proc2.idle, flag1=1", "a wrong initial state");
    bad_mutation(mb, bad_mutex_run, "*** final state",
                 "*** run ends in a deadlock ***\n*** final state",
                 "a deadlock claimed before the final state");
    bad_mutation(pc, pc_full_run, "ch=(1) --> ch=(1,2)", "ch=(1) --> ch=(2,1)",
                 "a channel appended at the wrong end");
    bad_mutation(pc, pc_full_run, "ch=() --> ch=(1), next=1 --> next=2", "next=1 --> next=2",
                 "a send left out of the step");
    bad_mutation(ps, pc_order_stack_run, "ch=(1,2) --> ch=(1), got=1 --> got=2",
                 "ch=(1,2) --> ch=(2), got=1 --> got=1", "a stack popped at the bottom");
    replay_bad(pc, pc_order_stack_run, "the stack's run on the channel");
    bad_mutation(st, stack_dl_run, "st=(1,2) --> st=(1), a=0 --> a=2",
                 "a=0 --> a=2, st=(1,2) --> st=(1)", "a buffer out of declaration order");
    bad_mutation(st, st_gf_run,
                 "popper: pop2 [ st=(1) --> st=(), b=0 --> b=1 ] done\n"
                 "*** final state: pusher.done, popper.done, st=(), ready=1, a=2, b=1 ***",
                 "*** final state: pusher.done, popper.pop2, st=(1), ready=1, a=2, b=0 ***",
                 "a deadlock claimed where a step is possible");
    bad_mutation(st, stack_dl_run,
                 "*** final state: pusher.done, popper.done, st=(), ready=1, a=2, b=1 ***\n", "",
                 "a run without its final state");
out:
    cfasim_free(dk);
    cfasim_free(mb);
    cfasim_free(pc);
    cfasim_free(ps);
    cfasim_free(st);
}

/* ---- points of §4 that §9 does not reach ---- */

static void check_semantics(void)
{
    /* / truncates, mod takes the dividend's sign, a division by zero or a
     * value out of range disables the step */
    cfasim *m = parse("CFA\n@global\nvar x: {-5..5} init -5;\nvar y: {-5..5} init 0;\n"
                      "@automaton A\n@start s;\n"
                      "s -> t : y' = x / 2;\n"
                      "t -> u : y' = x mod 4;\n"
                      "u -> v : y' = 1 / (x + 5);\n"
                      "u -> w : y' = 'y - 7;\n",
                      "an arithmetic model");
    static const char arith_run[] =
        "*** initial state: A.s, x=-5, y=0 ***\n"
        "A: s [ x=-5 --> x=-5, y=0 --> y=-2 ] t\n"
        "A: t [ x=-5 --> x=-5, y=-2 --> y=-1 ] u\n"
        "*** final state: A.u, x=-5, y=-1 ***\n"
        "*** run ends in a deadlock ***\n";
    if (m) {
        CHECK(cfasim_count_reachable(m, LIMIT) == 3, "cfasim: the arithmetic model has 3 states");
        replay_ok(m, arith_run, "truncating division, C's mod, division by zero, out of range");
        bad_mutation(m, arith_run, "y=0 --> y=-2", "y=0 --> y=-3", "a division rounded down");
        bad_mutation(m, arith_run, "y=-2 --> y=-1", "y=-2 --> y=3", "a mod with the divisor's sign");
        cfasim_free(m);
    }

    /* 'x alone leaves x free; untouched z keeps its value; a -> b; */
    m = parse("CFA\n@global\nvar x: {0..2} init 1;\nvar z: {0..1} init 1;\n"
              "@automaton A\n@start s;\ns -> t : 'x = 1;\nt -> s;\n",
              "a model with 'x alone");
    static const char free_run[] =
        "*** initial state: A.s, x=1, z=1 ***\n"
        "A: s [ x=1 --> x=2 ] t\n"
        "A: t [ ] s\n"
        "*** final state: A.s, x=2, z=1 ***\n"
        "*** run ends in a deadlock ***\n";
    if (m) {
        CHECK(cfasim_count_reachable(m, LIMIT) == 6,
              "cfasim: 'x alone lets x take any value (6 states)");
        replay_ok(m, free_run, "a step that changes a variable used only as 'x");
        bad_mutation(m, free_run, "x=2, z=1 ***", "x=2, z=0 ***", "an untouched variable changed");
        cfasim_free(m);
    }

    /* FIFO order, a selective receive, a received value out of the
     * target's range; an uninitialised variable starts at lo */
    m = parse("CFA\n@global\nvar c: chan 3 of {0..3};\nvar v: {0..2};\n"
              "@automaton P\n@start a;\na -> b : c!1;\nb -> d : c!3;\nd -> e : c ! 2;\n"
              "@automaton Q\n@start r;\nr -> r2 : c?v, v' = 1;\nr2 -> r3 : c?v;\n",
              "a channel model");
    static const char chan_run[] =
        "*** initial state: P.a, Q.r, c=(), v=0 ***\n"
        "P: a [ c=() --> c=(1) ] b\n"
        "P: b [ c=(1) --> c=(1,3) ] d\n"
        "P: d [ c=(1,3) --> c=(1,3,2) ] e\n"
        "Q: r [ c=(1,3,2) --> c=(3,2), v=0 --> v=1 ] r2\n"
        "*** final state: P.e, Q.r2, c=(3,2), v=1 ***\n"
        "*** run ends in a deadlock ***\n";
    if (m) {
        CHECK(cfasim_count_reachable(m, LIMIT) == 7, "cfasim: the channel model has 7 states");
        replay_ok(m, chan_run, "a FIFO run ending where the head does not fit the target");
        bad_mutation(m, chan_run, "c=(1,3,2) --> c=(3,2), v=0 --> v=1",
                     "c=(1,3,2) --> c=(1,3), v=0 --> v=2", "a channel read at the newest end");
        cfasim_free(m);
    }

    /* §2's parentheses: boolean first, arithmetic if an operator follows */
    m = parse("CFA\n@global\nvar x: {0..3} init 1;\n@automaton A\n@start s;\n"
              "s -> t : (x + 1) = 2 & !(x = 0 | x = 3) && ((x) * 2 = 2), true;\n"
              "t -> u : not (x) = 1 or false;\n",
              "a model with nested parentheses");
    if (m) {
        CHECK(cfasim_count_reachable(m, LIMIT) == 2, "cfasim: parenthesised predicates (2 states)");
        cfasim_free(m);
    }

    char err[512];
    static const char *const bad[] = {
        "CFA\n@global\nvar x: {0..3};\n@automaton A\n@start s;\ns -> t : x' = x + 1;\n",
        "CFA\n@global\nvar c: chan 1 of {0..1};\nvar x: {0..1};\n@automaton A\n@start s;\ns -> t : c!1, c?x;\n",
        "CFA\n@automaton A\ns -> t;\n",
        "CFA\n@global\nvar x: {0..3};\n@automaton A\n@start s;\ns -> t : x = 1\n",
        "CFA\n@global\nvar x: {3..0};\n@automaton A\n@start s;\n",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        cfasim *b = cfasim_parse(bad[i], err, sizeof err);
        CHECK(b == NULL, "cfasim refuses invalid model %zu (%s)", i + 1, b ? "accepted" : err);
        cfasim_free(b);
    }
}

/* ---- mck on the rows of §9's tables ---- */

typedef struct row {
    const char *doc;           /* where the row comes from */
    const char *model, *kind, *prop;
    const char *contents;      /* the table's contents column; lines joined by blanks */
    int yes;
    const char *run;           /* the exact run §9 prints, if any */
    cfasim_goal goal;          /* dl/reach: what the end of a witness satisfies */
    const char *const *atoms;
    int ltl;                   /* ltl with NO: the shape of the formula violated */
    const char *const *p, *const *q;
} row;

static const char *const A_crit[] = {"proc1.crit", "proc2.crit", NULL};
static const char *const A_cs12[] = {"cs1", "cs2", NULL};
static const char *const A_want1[] = {"proc1.want", NULL};
static const char *const A_crit1[] = {"proc1.crit", NULL};
static const char *const A_error[] = {"error", NULL};
static const char *const A_full[] = {"ch.full", NULL};
static const char *const A_lifo[] = {"popper.done", "a=2", "b=1", NULL};
static const char *const A_fifo[] = {"popper.done", "a=1", NULL};
static const char *const A_stfull[] = {"st.full", NULL};
static const char *const A_p0[] = {"pusher.p0", NULL};
static const char *const A_wait12[] = {"proc1.wait", "proc2.wait", NULL};
static const char *const A_cs1[] = {"cs1", NULL};
static const char *const A_bslifo[] = {"undoer.hold", "back = 1", "done.top = 2", NULL};
static const char *const A_deadlock[] = {"deadlock", NULL};

#define G_DEAD cfasim_goal_dead, NULL
#define G_PROPS(a) cfasim_goal_props, a

static const row rows[] = {
    {"§9", "dekker.cfa", "dl", NULL, NULL, 0, NULL, G_DEAD, 0, NULL, NULL},
    {"§9", "dekker.cfa", "reach", "dekker_mutex.f", "\"proc1.crit\" & \"proc2.crit\"", 0, NULL,
     G_PROPS(A_crit), 0, NULL, NULL},
    {"§9", "dekker.cfa", "reach", "dekker_mutex2.f", "#define CS1 \"cs1\" #define CS2 \"cs2\" CS1 && CS2", 0,
     NULL, G_PROPS(A_cs12), 0, NULL, NULL},
    {"§9", "dekker.cfa", "ltl", "dekker_safe.f", "G !(\"cs1\" & \"cs2\")", 1, NULL, NULL, NULL, 0, NULL, NULL},
    {"§9", "dekker.cfa", "ctl", "dekker_home.f", "AG EF (\"proc1.idle\" & \"proc2.idle\")", 1, NULL, NULL, NULL,
     0, NULL, NULL},
    {"§9", "dekker.cfa", "ltl", "dekker_live.f", "G (\"proc1.want\" -> F \"proc1.crit\")", 0, NULL, NULL, NULL,
     LTL_G_IMP_F, A_want1, A_crit1},
    {"§9", "mutex_bad.cfa", "dl", NULL, NULL, 0, NULL, G_DEAD, 0, NULL, NULL},
    {"§9", "mutex_bad.cfa", "reach", "bad_mutex.f", "\"cs1\" & \"cs2\"", 1, bad_mutex_run, G_PROPS(A_cs12), 0,
     NULL, NULL},
    {"§9", "mutex_bad.cfa", "ltl", "bad_safe.f", "G !(\"cs1\" & \"cs2\")", 0, NULL, NULL, NULL, LTL_G_NOT,
     A_cs12, NULL},
    {"§9", "prodcons.cfa", "dl", NULL, NULL, 0, NULL, G_DEAD, 0, NULL, NULL},
    {"§9", "prodcons.cfa", "reach", "pc_order.f", "\"error\"", 0, NULL, G_PROPS(A_error), 0, NULL, NULL},
    {"§9", "prodcons.cfa", "reach", "pc_full.f", "\"ch.full\"", 1, pc_full_run, G_PROPS(A_full), 0, NULL, NULL},
    {"§9", "prodcons.cfa", "reach", "pc_count.f", "\"ch\" + \"next\" >= 5", 1, pc_full_run, goal_count5, NULL, 0,
     NULL, NULL},
    {"§9", "prodcons.cfa", "ctl", "pc_empty.f", "AG EF \"ch.empty\"", 1, NULL, NULL, NULL, 0, NULL, NULL},
    {"§9", "prodcons.cfa", "ltl", "pc_progress.f", "G F \"consumer.check\"", 1, NULL, NULL, NULL, 0, NULL, NULL},
    {"§9", "prodcons.cfa", "ltl", "pc_noerr.f", "G ! \"error\"", 1, NULL, NULL, NULL, 0, NULL, NULL},
    {"§9", "prodcons_stack.cfa", "reach", "pc_order.f", "\"error\"", 1, pc_order_stack_run, G_PROPS(A_error), 0,
     NULL, NULL},
    {"§9", "stack.cfa", "dl", NULL, NULL, 1, stack_dl_run, G_DEAD, 0, NULL, NULL},
    {"§9", "stack.cfa", "reach", "st_lifo.f", "\"popper.done\" & \"a=2\" & \"b=1\"", 1, stack_dl_run,
     G_PROPS(A_lifo), 0, NULL, NULL},
    {"§9", "stack.cfa", "reach", "st_fifo.f", "\"popper.done\" & \"a=1\"", 0, NULL, G_PROPS(A_fifo), 0, NULL,
     NULL},
    {"§9", "stack.cfa", "reach", "st_full.f", "\"st.full\"", 1, NULL, G_PROPS(A_stfull), 0, NULL, NULL},
    {"§9", "stack.cfa", "ltl", "st_term.f", "F \"popper.done\"", 1, NULL, NULL, NULL, 0, NULL, NULL},
    {"§9", "stack.cfa", "ltl", "st_gf.f", "G F \"pusher.p0\"", 0, st_gf_run, NULL, NULL, LTL_GF, A_p0, NULL},
    {"§9", "stack.cfa", "ctl", "st_af.f", "AG (\"pusher.done\" -> AF \"popper.done\")", 1, NULL, NULL, NULL, 0,
     NULL, NULL},
    /* examples/cfa/README.md: derived there, not part of §9 */
    {"README", "prodcons_stack.cfa", "dl", NULL, NULL, 1, pcs_dl_run, G_DEAD, 0, NULL, NULL},
    {"README", "peterson.cfa", "dl", NULL, NULL, 0, NULL, G_DEAD, 0, NULL, NULL},
    {"README", "peterson.cfa", "reach", "pt_mutex.f", "\"proc1.crit\" & \"proc2.crit\"", 0, NULL,
     G_PROPS(A_crit), 0, NULL, NULL},
    {"README", "peterson.cfa", "reach", "pt_both_wait.f", "\"proc1.wait\" & \"proc2.wait\"", 1,
     pt_both_wait_run, G_PROPS(A_wait12), 0, NULL, NULL},
    {"README", "peterson.cfa", "ctl", "pt_bypass.f", "AG (\"proc1.wait\" -> AF \"cs1\")", 1, NULL, NULL,
     NULL, 0, NULL, NULL},
    {"README", "peterson.cfa", "ltl", "pt_live.f", "G (\"proc1.set\" -> F \"proc1.crit\")", 1, NULL, NULL,
     NULL, 0, NULL, NULL},
    {"README", "peterson.cfa", "ltl", "pt_gf.f", "G F \"cs1\"", 0, NULL, NULL, NULL, LTL_GF, A_cs1, NULL},
    {"README", "buffer_stack.cfa", "dl", NULL, NULL, 1, bs_dl_run, G_DEAD, 0, NULL, NULL},
    {"README", "buffer_stack.cfa", "reach", "bs_finish.f", "\"finished\" & !deadlock", 0, NULL,
     goal_finished_live, NULL, 0, NULL, NULL},
    {"README", "buffer_stack.cfa", "reach", "bs_lifo.f",
     "\"undoer.hold\" & \"back = 1\" & \"done.top = 2\"", 1, bs_lifo_run, G_PROPS(A_bslifo), 0, NULL,
     NULL},
    {"README", "buffer_stack.cfa", "ctl", "bs_doom.f", "AG EF deadlock", 1, NULL, NULL, NULL, 0, NULL, NULL},
    /* a top-level AF that fails may come with a counterexample
     * (kit-overview.md §6.2): an infinite run without a deadlock */
    {"README", "buffer_stack.cfa", "ctl", "bs_af.f", "AF deadlock", 0, NULL, NULL, NULL, LTL_F,
     A_deadlock, NULL},
    {"README", "buffer_stack.cfa", "ltl", "bs_fdl.f", "F deadlock", 0, NULL, NULL, NULL, LTL_F,
     A_deadlock, NULL},
    {"README", "buffer_stack.cfa", "ltl", "bs_busy.f", "G F \"busy\"", 1, NULL, NULL, NULL, 0, NULL, NULL},
};

/* Whitespace runs as one blank, none at the ends. */
static void squeeze(char *s)
{
    char *w = s;
    for (const char *r = s; *r; r++) {
        if (*r == ' ' || *r == '\t' || *r == '\n' || *r == '\r') {
            if (w > s && w[-1] != ' ')
                *w++ = ' ';
        } else {
            *w++ = *r;
        }
    }
    if (w > s && w[-1] == ' ')
        w--;
    *w = '\0';
}

static void run_mck(outcome *o, const char *args)
{
    run_mck_in(o, top, mck, args, 300);
}

/* The run lines of out: after the Witness:/Counterexample: line up to the
 * Time needed line; NULL if out has no such section. */
static char *run_of(const char *out, const char *header)
{
    const char *r = strstr(out, header);
    if (!r || (r != out && r[-1] != '\n'))
        return NULL;
    r += strlen(header);
    const char *end = strstr(r, "Time needed");
    size_t n = end ? (size_t)(end - r) : strlen(r);
    char *s = malloc(n + 1);
    if (s) {
        memcpy(s, r, n);
        s[n] = '\0';
    }
    return s;
}

/* Result line first, then header and a run (required if need, allowed
 * if header), Time needed (two decimals) last (kit-overview.md §6.2). */
static int output_shape(const char *out, int yes, const char *header, int need)
{
    const char *first = yes ? "Result: YES.\n" : "Result: NO.\n";
    if (strncmp(out, first, strlen(first)))
        return 0;
    const char *rest = out + strlen(first);
    int has_run = header && !strncmp(rest, header, strlen(header));
    if (need && !has_run)
        return 0;
    if (!has_run && strncmp(rest, "Time needed: ", 13))
        return 0;
    const char *t = strstr(out, "Time needed: ");
    if (!t || t[-1] != '\n')
        return 0;
    double secs;
    int used = 0;
    if (sscanf(t, "Time needed: %lf seconds%n", &secs, &used) != 1 || !used)
        return 0;
    const char *dot = strchr(t, '.');
    return dot && dot[1] && dot[2] && dot[3] == ' ' && !strcmp(t + used, "\n");
}

static void check_row(const row *R)
{
    char model[4096], prop[4096], name[256], err[2048];
    snprintf(model, sizeof model, "%s/examples/cfa/%s", top, R->model);
    snprintf(name, sizeof name, "mck %s %s%s%s", R->kind, R->model, R->prop ? " " : "",
             R->prop ? R->prop : "");
    if (R->prop)
        snprintf(prop, sizeof prop, "%s/examples/cfa/%s", top, R->prop);
    if (access(model, R_OK) != 0 || (R->prop && access(prop, R_OK) != 0)) {
        SKIP("%s: examples/cfa/%s missing", name,
             access(model, R_OK) != 0 ? R->model : R->prop);
        return;
    }
    if (R->prop) {
        FILE *f = fopen(prop, "r");
        char *text = f ? slurp_stream(f) : NULL;
        char want[512];
        if (f)
            fclose(f);
        snprintf(want, sizeof want, "%s", R->contents);
        if (text)
            squeeze(text);
        int same = text && !strcmp(text, want);
        CHECK(same, "examples/cfa/%s says %s (%s's table)%s%s", R->prop, want, R->doc,
              same ? "" : ", not ", same || !text ? "" : text);
        free(text);
    }

    char args[1024];
    snprintf(args, sizeof args, "check cfa:explicit-%s examples/cfa/%s%s%s", R->kind, R->model,
             R->prop ? " examples/cfa/" : "", R->prop ? R->prop : "");
    outcome o;
    run_mck(&o, args);
    const char *res = R->yes ? "Result: YES." : "Result: NO.";
    /* ctl: a run only for some top-level operators (kit-overview.md §6.2);
     * formula-syntax.md §7 says none at all, so it is allowed, not required */
    int ctl = !strcmp(R->kind, "ctl");
    int wants_run = !strcmp(R->kind, "ltl") ? !R->yes : ctl ? 0 : (R->yes && R->goal);
    const char *header = !wants_run && !ctl ? NULL : R->yes ? "Witness:\n" : "Counterexample:\n";
    CHECK(o.status == !R->yes, "%s: exit code %d (got %d%s%s)", name, !R->yes, o.status,
          o.err[0] ? "; stderr: " : "", o.err);
    size_t l1 = strcspn(o.out, "\n");
    CHECK(!strncmp(o.out, res, l1) && l1 == strlen(res), "%s: %s (got \"%.*s\")", name, res,
          (int)(l1 > 200 ? 200 : l1), o.out);
    CHECK(output_shape(o.out, R->yes, header, wants_run), "%s: output is %s%s%sTime needed", name, res,
          !header ? ", " : R->yes ? ", Witness:, a run, " : ", Counterexample:, a run, ",
          ctl && header ? "(the run optional) " : "");

    /* every printed run is replayed, asked for or not */
    char *run = run_of(o.out, "Witness:\n");
    if (!run)
        run = run_of(o.out, "Counterexample:\n");
    if (wants_run && !run)
        CHECK(0, "%s: a run is printed", name);
    if (run) {
        cfasim *m = cfasim_load(model, err, sizeof err);
        if (!m) {
            CHECK(0, "%s: cfasim loads the model: %s", name, err);
        } else {
            int rc = cfasim_replay(m, run, err, sizeof err);
            CHECK(rc == 0, "%s: the printed run replays%s%s", name, rc ? ": " : "", rc ? err : "");
            size_t last = cfasim_nrun(m) ? cfasim_nrun(m) - 1 : 0;
            if (rc == 0 && R->goal && R->yes && strcmp(R->kind, "ltl"))
                CHECK(cfasim_run_kind(m) == CFASIM_FINITE &&
                          R->goal(m, cfasim_run_state(m, last), (void *)R->atoms),
                      "%s: the witness ends in a state that %s", name,
                      R->goal == cfasim_goal_dead ? "is a deadlock" : "satisfies the property");
            if (rc == 0 && R->ltl)
                CHECK((cfasim_run_kind(m) == CFASIM_LASSO || cfasim_run_kind(m) == CFASIM_DEADLOCK) &&
                          ltl_holds(m, R->ltl, R->p, R->q) == 0,
                      "%s: the counterexample is infinite and violates the formula", name);
            if (R->goal && R->yes) {
                char *mine = NULL;
                int b = cfasim_bfs(m, LIMIT, R->goal, (void *)R->atoms, NULL, &mine);
                CHECK(b == 1 && mine && !strcmp(run, mine),
                      "%s: the witness is the first breadth-first one in transition order", name);
                if (b == 1 && mine && strcmp(run, mine) && !R->run)
                    fprintf(stderr, "%s: expected\n%sgot\n%s", name, mine, run);
                free(mine);
            }
            cfasim_free(m);
        }
        if (R->run) {
            CHECK(!strcmp(run, R->run), "%s: the run is %s's, line for line", name, R->doc);
            if (strcmp(run, R->run))
                fprintf(stderr, "%s: %s says\n%sgot\n%s", name, R->doc, R->run, run);
        }
    }
    if (!run && !wants_run && R->goal && !R->yes) {
        /* a NO of dl/reach must agree with the interpreter, too */
        cfasim *m = cfasim_load(model, err, sizeof err);
        if (m)
            CHECK(cfasim_bfs(m, LIMIT, R->goal, (void *)R->atoms, NULL, NULL) == 0,
                  "%s: cfasim agrees that none is reachable", name);
        cfasim_free(m);
    }
    free(run);
    free(o.out);
}

int main(void)
{
    const char *t = getenv("TOP"), *k = getenv("MCK");
    top = t && *t ? t : ".";
    mck = k && *k ? k : "./mck";

    check_counts();
    check_added_counts();
    check_doc_claims();
    check_semantics();

    if (access(mck, X_OK) != 0) {
        SKIP("mck on §9's tables: %s is not executable", mck);
        UNIT_DONE();
    }
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
        check_row(&rows[i]);
    UNIT_DONE();
}
