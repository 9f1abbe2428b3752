/* B(PN)² against docs/bpn2-format.md, checked by an interpreter of its own
 * (bpn2sim.h) rather than by mck's reader.
 *
 * First the interpreter counts the reachable states of the examples of
 * §5 (7, 4 and 11, as the doc works out by hand) and of features.bpn2
 * (compared with mck's count).  Then mck checks properties of the
 * examples; every run it prints is replayed step by step by the
 * interpreter (each step an action the program can take, with exactly the
 * printed changes; loops closing; deadlocks dead), the final state of a
 * witness must satisfy the property, and mutated runs must be rejected. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bpn2sim.h"
#include "rnd.h"
#include "runmck.h"
#include "unit.h"

static const char *mck, *top;

/* dir: examples/bpn2 or tests/data/bpn2 */
static bpn2sim *load_from(const char *dir, const char *name)
{
    char path[4096], err[300];
    snprintf(path, sizeof path, "%s/%s/%s.bpn2", top, dir, name);
    bpn2sim *m = bs_load(path, err, sizeof err);
    CHECK(m != NULL, "interpreter reads %s%s%s", name, m ? "" : ": ", m ? "" : err);
    return m;
}

static bpn2sim *load(const char *name)
{
    return load_from("examples/bpn2", name);
}

/* mck's count of reachable markings: a search for `false` sees them all. */
static long mck_states_in(const char *dir, const char *name)
{
    char args[4096];
    FILE *f = fopen("/tmp/test_bpn2_false.form", "w");
    if (!f)
        return -1;
    fputs("false\n", f);
    fclose(f);
    snprintf(args, sizeof args, "check -q -v -k reach %s/%s.bpn2 "
             "/tmp/test_bpn2_false.form 2>&1 >/dev/null | grep '^states:'", dir, name);
    outcome o;
    run_mck_in(&o, top, mck, args, 120);
    long n = -1;
    if (o.out)
        sscanf(o.out, "states: %ld", &n);
    free(o.out);
    return n;
}

static long mck_states(const char *name)
{
    return mck_states_in("examples/bpn2", name);
}

/* Runs mck, checks the answer, replays the run; returns the run (or NULL)
 * and the final state in final. */
static char *checked_run(bpn2sim *m, const char *what, const char *args, int want,
                         long *final)
{
    outcome o;
    run_mck_in(&o, top, mck, args, 120);
    CHECK(o.status == want, "%s: exit %d (want %d)%s%s", what, o.status, want,
          o.err[0] ? ": " : "", o.err);
    const char *run = strstr(o.out, "*** initial state");
    if (!run) {
        CHECK(want == 1, "%s: no run, as for a NO of dl or reach", what);
        free(o.out);
        return NULL;
    }
    char err[400] = "";
    int rc = bs_replay(m, run, final, err, sizeof err);
    CHECK(rc == 0, "%s: the interpreter replays the printed run%s%s", what, rc ? ": " : "",
          rc ? err : "");
    return o.out;
}

static void rejected(bpn2sim *m, const char *run, const char *old, const char *new,
                     const char *what)
{
    if (!run || !strstr(run, old)) {
        CHECK(0, "mutation %s: '%s' not in the run", what, old);
        return;
    }
    char *bad = mutate(run, old, new), err[400] = "";
    int rc = bs_replay(m, strstr(bad, "*** initial state"), NULL, err, sizeof err);
    CHECK(rc != 0, "the interpreter rejects the run with %s (%s)", what, rc ? err : "accepted");
    free(bad);
}

static void write_form(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* ---- random programs: the interpreter and mck must agree on each ---- */

static void put(char **w, const char *end, const char *text)
{
    size_t n = strlen(text);
    if (*w + n < end) {
        memcpy(*w, text, n + 1);
        *w += n;
    }
}

static void gen_com(char **w, const char *end, int depth)
{
    static const char *const actions[] = {
        "<x' = 1 - 'x>", "<y' = 'x>", "<x = 0>", "<x = 1 and y' = 0>", "<true>", "<y = 1>",
        "<c! = 'x>", "<y' = c?>", "<h! = 'y>", "<x' = h?>", "<x' > 'y>",
    };
    uint32_t k = depth >= 3 ? 0 : rnd(depth == 0 ? 5 : 8);
    if (k >= 4)
        k = 0;
    if (k == 0) {
        put(w, end, actions[rnd(sizeof actions / sizeof *actions)]);
        return;
    }
    if (k == 3) {   /* a loop: each clause begins with an action (refused otherwise) */
        put(w, end, "do ");
        uint32_t n = 1 + rnd(2);
        for (uint32_t i = 0; i < n; i++) {
            put(w, end, i ? " [] " : "");
            put(w, end, actions[rnd(sizeof actions / sizeof *actions)]);
            if (rnd(2)) {
                put(w, end, "; ");
                gen_com(w, end, depth + 1);
            }
            put(w, end, rnd(3) ? "; repeat" : "; exit");
        }
        put(w, end, " od");
        return;
    }
    static const char *const sep[] = {"", "; ", " [] ", " || "};
    put(w, end, "(");
    uint32_t n = 2 + rnd(2);
    for (uint32_t i = 0; i < n; i++) {
        put(w, end, i ? sep[k] : "");
        if (k == 2)   /* alternatives begin with an action (refused otherwise) */
            put(w, end, "<true>; ");
        gen_com(w, end, depth + 1);
    }
    put(w, end, ")");
}

static void random_programs(int count)
{
    int agreed = 0, refused = 0, compared = 0;
    const char *path = "/tmp/test_bpn2_random.bpn2";
    for (int i = 0; i < count; i++) {
        char text[4096], *w = text;
        put(&w, text + sizeof text, "begin\n  var x, y : {0..1} init 0;\n"
            "  var c : chan 1 of {0..1};\n  var h : chan 0 of {0..1};\n  ");
        gen_com(&w, text + sizeof text - 16, 0);
        put(&w, text + sizeof text, "\nend\n");
        write_form(path, text);
        char err[300];
        bpn2sim *m = bs_parse(text, err, sizeof err);
        if (!m) {
            CHECK(0, "random program %d: the interpreter cannot read it: %s", i, err);
            continue;
        }
        outcome o;
        char args[256];
        snprintf(args, sizeof args, "check -q -v -k reach %s /tmp/test_bpn2_false.form "
                 "2>&1 >/dev/null | cat", path);
        run_mck_in(&o, top, mck, args, 60);
        const char *st = strstr(o.out, "states: ");
        if (strstr(o.out, "needs a silent step")) {
            refused++;
        } else {
            long k = st ? atol(st + 8) : -1, n = bs_count(m, 20000);
            compared++;
            if (n == k && n > 0)
                agreed++;
            else
                CHECK(0, "random program %d: interpreter %ld, mck %ld states:\n%s", i, n, k,
                      text);
            /* and its deadlock run, if any, replays */
            outcome d;
            snprintf(args, sizeof args, "check -k dl %s", path);
            run_mck_in(&d, top, mck, args, 60);
            const char *run = strstr(d.out, "*** initial state");
            if (d.status == 0 && run && bs_replay(m, run, NULL, err, sizeof err) != 0)
                CHECK(0, "random program %d: its deadlock run does not replay: %s\n%s", i, err,
                      text);
            free(d.out);
        }
        free(o.out);
        bs_free(m);
    }
    CHECK(compared > count / 2 && agreed == compared,
          "%d random programs: %d compared, the interpreter and mck agree on all %d state "
          "spaces (%d refused as needing a silent step)", count, compared, agreed, refused);
    unlink(path);
}

int main(void)
{
    mck = getenv("MCK");
    top = getenv("TOP");
    if (!mck || !top) {
        SKIP("bpn2: MCK and TOP must be set (tests/run.sh sets them)");
        UNIT_DONE();
    }
    struct { const char *name; long states; } counts[] = {
        {"incr", 7}, {"incr-noexit", 4}, {"prodcons", 11}, {"features", -1},
    };
    bpn2sim *ms[4];
    for (int i = 0; i < 4; i++) {
        ms[i] = load(counts[i].name);
        if (!ms[i])
            UNIT_DONE();
        long n = bs_count(ms[i], 20000), k = mck_states(counts[i].name);
        if (counts[i].states >= 0)
            CHECK(n == counts[i].states, "interpreter: %s has %ld states (the doc: %ld)",
                  counts[i].name, n, counts[i].states);
        CHECK(n == k && n > 0, "interpreter and mck agree on %s: %ld and %ld states",
              counts[i].name, n, k);
    }
    bpn2sim *incr = ms[0], *noexit = ms[1], *pc = ms[2], *feat = ms[3];
    long *fin = malloc(4096 * sizeof *fin);
    if (!fin)
        UNIT_DONE();

    /* §5.1 */
    char *r = checked_run(incr, "incr reach x = 2 & at 5",
                          "check examples/bpn2/incr.bpn2 examples/bpn2/x2-at5.form", 0, fin);
    CHECK(r && bs_prop(incr, fin, "x = 2") == 1 && bs_prop(incr, fin, "at 5") == 1,
          "incr: the witness ends with x = 2 and line 5 next");
    free(r);
    r = checked_run(incr, "incr dl", "check -k dl examples/bpn2/incr.bpn2", 1, NULL);
    free(r);
    write_form("/tmp/test_bpn2_fg.form", "F G \"x = 0\"\n");
    r = checked_run(incr, "incr ltl F G x = 0 (lasso through termination)",
                    "check -k ltl examples/bpn2/incr.bpn2 /tmp/test_bpn2_fg.form", 1, NULL);
    CHECK(r && strstr(r, "terminated\n*** loop ends here ***"),
          "incr: the counterexample loops in the terminated program");
    free(r);

    /* §5.1 without exit: the deadlock run, and mutations of it */
    r = checked_run(noexit, "incr-noexit dl", "check -k dl examples/bpn2/incr-noexit.bpn2", 0,
                    fin);
    CHECK(r && bs_prop(noexit, fin, "x = 3") == 1, "incr-noexit: the deadlock has x = 3");
    rejected(noexit, r, "x: 1 -> 2", "x: 1 -> 3", "a wrong new value");
    rejected(noexit, r, "step 2  [1]", "step 2  [2]", "the wrong branch");
    rejected(noexit, r, "line 3  <x' = 'x + 1>  x: 2", "line 4  <x' = 'x + 1>  x: 2",
             "the wrong line");
    rejected(noexit, r, "step 3  [1]  line 3  <x' = 'x + 1>  x: 2 -> 3\n", "",
             "a step left out (no deadlock at x = 2)");
    rejected(noexit, r, "*** final state: x = 3", "*** final state: x = 2", "a wrong final state");
    free(r);

    /* §5.2 */
    r = checked_run(pc, "prodcons reach w = 1",
                    "check examples/bpn2/prodcons.bpn2 examples/bpn2/got-one.form", 0, fin);
    CHECK(r && bs_prop(pc, fin, "w = 1") == 1, "prodcons: the witness ends with w = 1");
    rejected(pc, r, "c: [] -> [0]", "c: [] -> [1]", "a wrong value sent");
    rejected(pc, r, "<w' = c?>  c: [1] -> [], w: 0 -> 1", "<w' = c?>  c: [1] -> []",
             "a receive that forgets its variable");
    free(r);
    write_form("/tmp/test_bpn2_v0.form", "F G \"v = 0\"\n");
    r = checked_run(pc, "prodcons ltl F G v = 0",
                    "check -k ltl examples/bpn2/prodcons.bpn2 /tmp/test_bpn2_v0.form", 1, NULL);
    CHECK(r && strstr(r, "*** loop starts here ***"), "prodcons: a lasso counterexample");
    free(r);
    r = checked_run(pc, "prodcons dl", "check -k dl examples/bpn2/prodcons.bpn2", 1, NULL);
    free(r);

    /* features: handshake, two slots, initial values, nested branches */
    r = checked_run(feat, "features dl", "check -k dl examples/bpn2/features.bpn2", 0, fin);
    rejected(feat, r, "init n = 0", "init n = 3", "a value outside the range");
    rejected(feat, r, "x@11: 0 -> 2", "x@11: 0 -> 1", "a handshake passing the wrong value");
    free(r);
    write_form("/tmp/test_bpn2_f1.form", "\"x@11 = 2\" & \"n = 2\" & \"at 13\"\n");
    r = checked_run(feat, "features reach x@11 = 2 & n = 2 & at 13",
                    "check examples/bpn2/features.bpn2 /tmp/test_bpn2_f1.form", 0, fin);
    CHECK(r && bs_prop(feat, fin, "x@11 = 2") == 1 && bs_prop(feat, fin, "n = 2") == 1 &&
          bs_prop(feat, fin, "at 13") == 1, "features: the witness satisfies the property");
    free(r);
    write_form("/tmp/test_bpn2_f2.form", "G F \"n = 1\"\n");
    r = checked_run(feat, "features ltl G F n = 1",
                    "check -k ltl examples/bpn2/features.bpn2 /tmp/test_bpn2_f2.form", 1, NULL);
    free(r);
    write_form("/tmp/test_bpn2_f3.form", "EF (\"at 13\" & \"n = 2\")\n");
    r = checked_run(feat, "features ctl EF (at 13 & n = 2)",
                    "check -k ctl examples/bpn2/features.bpn2 /tmp/test_bpn2_f3.form", 0, NULL);
    free(r);

    /* small programs for the corners of the translation: joins, a clause
     * starting in parallel, dead code, nested loops and blocks, a
     * handshake under a choice, three slots; the interpreter and mck must
     * agree on the state space and on every deadlock run */
    struct { const char *name; int dl, line; } corners[] = {
        {"ok_join", 1, 4}, {"ok_choicepar", 1, 4}, {"ok_dead", 1, 4}, {"ok_nested", 1, 8},
        {"ok_sync_choice", 0, 5}, {"ok_chan3", 1, 5},
    };
    for (size_t i = 0; i < sizeof corners / sizeof *corners; i++) {
        bpn2sim *c = load_from("tests/data/bpn2", corners[i].name);
        if (!c)
            continue;
        long n = bs_count(c, 20000), k = mck_states_in("tests/data/bpn2", corners[i].name);
        CHECK(n == k && n > 0, "interpreter and mck agree on %s: %ld and %ld states",
              corners[i].name, n, k);
        char args[512], what[128];
        snprintf(args, sizeof args, "check -k dl tests/data/bpn2/%s.bpn2", corners[i].name);
        snprintf(what, sizeof what, "%s dl", corners[i].name);
        free(checked_run(c, what, args, corners[i].dl, NULL));
        char form[64];
        snprintf(form, sizeof form, "G F \"at %d\"\n", corners[i].line);
        write_form("/tmp/test_bpn2_gf.form", form);
        snprintf(args, sizeof args, "check -k ltl tests/data/bpn2/%s.bpn2 /tmp/test_bpn2_gf.form",
                 corners[i].name);
        snprintf(what, sizeof what, "%s ltl G F at %d", corners[i].name, corners[i].line);
        outcome o;
        run_mck_in(&o, top, mck, args, 120);
        const char *run = strstr(o.out, "*** initial state");
        char err[400] = "";
        int ok = (o.status == 0 && !run) ||
                 (o.status == 1 && run && bs_replay(c, run, NULL, err, sizeof err) == 0);
        CHECK(ok, "%s: %s (exit %d%s%s)", what, o.status == 0 ? "holds"
              : "the counterexample replays", o.status, err[0] || o.err[0] ? ": " : "",
              err[0] ? err : o.err);
        free(o.out);
        bs_free(c);
    }
    unlink("/tmp/test_bpn2_gf.form");
    random_programs(80);
    unlink("/tmp/test_bpn2_false.form");
    unlink("/tmp/test_bpn2_fg.form");
    unlink("/tmp/test_bpn2_v0.form");
    unlink("/tmp/test_bpn2_f1.form");
    unlink("/tmp/test_bpn2_f2.form");
    unlink("/tmp/test_bpn2_f3.form");
    free(fin);
    for (int i = 0; i < 4; i++)
        bs_free(ms[i]);
    UNIT_DONE();
}
