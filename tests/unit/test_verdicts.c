/* verdicts/: write a set, validate it against the grammar, read it back;
 * read and validate the MCC's real GenericPropertiesVerdict.xml files;
 * hostile and malformed files fail with exactly one error line. */
#include "unit.h"
#include "verdicts/verdicts.h"

#include <dirent.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PATH_SIZE 8192

static const char *top, *shared;
static char tmpdir[PATH_SIZE];
static int have_xmllint;

/* snprintf for paths: long paths are the environment's problem, not a
 * reason for compiler truncation warnings. */
static void __attribute__((format(printf, 2, 3))) pathf(char *buf, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, PATH_SIZE, fmt, ap);
    va_end(ap);
}

static int streq(const char *a, const char *b)
{
    return a == b || (a && b && !strcmp(a, b));
}

/* xmllint --relaxng on path; 1 when it validates. */
static int validates(const char *path)
{
    char cmd[PATH_SIZE];
    pathf(cmd, "xmllint --noout --relaxng '%s/verdicts/propertiesverdict.rng' '%s' "
             ">/dev/null 2>&1", top, path);
    return system(cmd) == 0;
}

/* ---- stderr capture: counts the lines a failing call prints ---- */

static int saved_stderr = -1;
static char errpath[PATH_SIZE];

static void capture_begin(void)
{
    fflush(stderr);
    saved_stderr = dup(2);
    int fd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(fd, 2);
    close(fd);
}

/* The captured text (static buffer) and its number of lines. */
static const char *capture_end(int *lines)
{
    static char text[PATH_SIZE];
    fflush(stderr);
    dup2(saved_stderr, 2);
    close(saved_stderr);
    FILE *f = fopen(errpath, "r");
    size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f)
        fclose(f);
    text[n] = '\0';
    *lines = 0;
    for (size_t i = 0; i < n; i++)
        *lines += text[i] == '\n';
    return text;
}

/* ---- a set with everything the format can carry ---- */

static const char *const extras[] = { "automaton", "B", "states", "0 1" };
static const char nasty[] = "a & b < c > d \"q\" 'a'\ttab\nline\rcr \x01 \xff end \xc3\xa9";
static const char nasty_back[] = "a & b < c > d \"q\" 'a'\ttab\nline\rcr ? ? end \xc3\xa9";

static verdictset_t *build_set(void)
{
    verdictset_t *vs = vs_create("Phil<osophers>");
    verdict_t *v = vs_add(vs, "GENERIC", "SAFE");
    vd_set_answer(v, VD_TRUE);
    vd_set_explanation(v, "No explanation");
    vd_set_statedby(v, "MCC", "2021", "2021-04-30T09:49:19.563+02:00",
                    "https://mcc.lip6.fr/pdf/Philosophers-form.pdf");

    v = vs_add(vs, "LTLFireability", "Phil-LTL-00");
    vd_set_answer(v, VD_FALSE);
    vd_add_instance(v, "Phil-PT-000005");
    vd_add_instance(v, "Phil-PT-000010");
    vd_set_explanation(v, nasty);
    vd_set_statedby(v, "mck", "0.1.0", "2024-05-01T12:00:00Z", NULL);
    vd_add_techniques(v, "EXPLICIT  LTL_NFA EXPLICIT");
    vd_start_trace(v, RUN_COUNTEREXAMPLE);
    vd_add_step(v, "t1", "take \"left\" & <eat>", extras, 2);
    vd_add_step(v, "t2", NULL, NULL, 0);
    vd_add_step(v, "t3", "put", extras, 1);
    vd_set_loop_start(v, 1);

    v = vs_add(vs, "UpperBounds", "Phil-UB-03");
    vd_set_integer(v, -9000000000LL);
    vd_set_statedby_mck(v);

    v = vs_add(vs, "ctl", "prop.ctl");
    vd_set_value_text(v, "maybe later");

    v = vs_add(vs, "dl", "deadlock");
    vd_set_answer(v, VD_TRUE);
    vd_add_step(v, "t1", "first", NULL, 0);
    vd_set_loop_start(v, 1);

    v = vs_add(vs, "reach", "empty-trace");
    vd_start_trace(v, RUN_WITNESS);
    return vs;
}

static int same_steps(const verdict_t *a, const verdict_t *b)
{
    if (a->nsteps != b->nsteps || a->loop_start != b->loop_start || a->has_trace != b->has_trace ||
        a->role != b->role)
        return 0;
    for (size_t i = 0; i < a->nsteps; i++) {
        const vd_step *x = &a->steps[i], *y = &b->steps[i];
        if (!streq(x->transition, y->transition) || !streq(x->name, y->name) ||
            x->nextra != y->nextra)
            return 0;
        for (size_t k = 0; k < x->nextra; k++)
            if (!streq(x->extra[k].key, y->extra[k].key) ||
                !streq(x->extra[k].value, y->extra[k].value))
                return 0;
    }
    return 1;
}

static int same_strings(char **a, size_t na, char **b, size_t nb)
{
    if (na != nb)
        return 0;
    for (size_t i = 0; i < na; i++)
        if (!streq(a[i], b[i]))
            return 0;
    return 1;
}

/* Equal except for the explanation, which the caller compares. */
static int same_verdict(const verdict_t *a, const verdict_t *b)
{
    return streq(a->category, b->category) && streq(a->reference, b->reference) &&
           a->kind == b->kind && (a->kind != VD_INTEGER || a->integer == b->integer) &&
           streq(a->text, b->text) &&
           same_strings(a->instances, a->ninstances, b->instances, b->ninstances) &&
           streq(a->tool, b->tool) && streq(a->tool_version, b->tool_version) &&
           streq(a->date, b->date) && streq(a->url, b->url) &&
           same_strings(a->techniques, a->ntechniques, b->techniques, b->ntechniques) &&
           same_steps(a, b);
}

static void test_round_trip(void)
{
    char path[PATH_SIZE];
    pathf(path, "%s/verdicts-roundtrip.xml", tmpdir);
    verdictset_t *vs = build_set();
    CHECK(vs && vs->nverdicts == 6, "built a set of 6 verdicts");
    CHECK(vs->verdicts[1]->ntechniques == 2, "duplicate techniques are listed once");
    CHECK(vs_find(vs, "UpperBounds", "Phil-UB-03") == vs->verdicts[2] &&
          !vs_find(vs, "UpperBounds", "nope"), "vs_find");
    CHECK(vs_write_file(vs, path) == 0, "write %s", path);

    if (have_xmllint)
        CHECK(validates(path), "written file validates against propertiesverdict.rng");
    else
        SKIP("written file against the grammar: xmllint not installed");

    verdictset_t *back = vs_read(path);
    CHECK(back != NULL, "read the written file back");
    if (!back) {
        vs_free(vs);
        return;
    }
    CHECK(streq(back->modelname, "Phil<osophers>"), "modelname survives escaping");
    CHECK(streq(back->version, VD_FORMAT_VERSION), "root version is %s", VD_FORMAT_VERSION);
    CHECK(back->nverdicts == vs->nverdicts, "same number of verdicts");
    int all = back->nverdicts == vs->nverdicts;
    for (size_t i = 0; all && i < vs->nverdicts; i++) {
        int same = same_verdict(vs->verdicts[i], back->verdicts[i]);
        CHECK(same, "verdict %zu (%s %s) reads back equal", i, vs->verdicts[i]->category,
              vs->verdicts[i]->reference);
    }
    if (all) {
        const verdict_t *v = back->verdicts[1];
        CHECK(streq(v->explanation, nasty_back),
              "explanation: markup escaped, bad bytes as '?', UTF-8 kept");
        CHECK(v->loop_start == 1 && v->nsteps == 3 && v->steps[0].nextra == 2 &&
              streq(v->steps[0].extra[1].value, "0 1"), "lasso trace with extra attributes");
        CHECK(back->verdicts[2]->kind == VD_INTEGER &&
              back->verdicts[2]->integer == -9000000000LL, "64-bit integer value");
        CHECK(back->verdicts[3]->kind == VD_TEXT && streq(back->verdicts[3]->text, "maybe later"),
              "free-text value");
        CHECK(back->verdicts[4]->loop_start == 1 && back->verdicts[4]->nsteps == 1,
              "a loop after the last step (deadlock) reads back");
        CHECK(back->verdicts[5]->has_trace && !back->verdicts[5]->nsteps &&
              back->verdicts[5]->role == RUN_WITNESS, "an empty trace reads back");
        CHECK(back->verdicts[1]->line > 0, "verdicts remember their line");
    }
    vs_free(back);
    vs_free(vs);
}

/* The writer refuses what the grammar would reject, before writing. */
static void test_write_refusals(void)
{
    static const char *const bad_key[] = { "name", "x" };
    static const char *const dup_key[] = { "a", "1", "a", "2" };
    static const char *const colon_key[] = { "x:y", "1" };
    struct { const char *what; int kind; } cases[] = {
        { "GENERIC with an integer value", 0 },
        { "loop beyond the run", 1 },
        { "step attribute shadowing 'name'", 2 },
        { "duplicate step attribute", 3 },
        { "step attribute with a colon", 4 },
        { "step without a transition", 5 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        verdictset_t *vs = vs_create("M");
        verdict_t *v = vs_add(vs, i == 0 ? "GENERIC" : "x", "p");
        switch (cases[i].kind) {
        case 0: vd_set_integer(v, 3); break;
        case 1: vd_add_step(v, "t", NULL, NULL, 0); vd_set_loop_start(v, 2); break;
        case 2: vd_add_step(v, "t", NULL, bad_key, 1); break;
        case 3: vd_add_step(v, "t", NULL, dup_key, 2); break;
        case 4: vd_add_step(v, "t", NULL, colon_key, 1); break;
        case 5: vd_add_step(v, "", NULL, NULL, 0); break;
        }
        FILE *out = tmpfile();
        int lines;
        capture_begin();
        int rc = vs_write(vs, out, "out.xml");
        capture_end(&lines);
        long written = ftell(out);
        fclose(out);
        CHECK(rc == -1 && lines == 1 && written == 0, "writer refuses %s (one error, no output)",
              cases[i].what);
        vs_free(vs);
    }

    verdictset_t *vs = vs_create("M");
    int lines;
    capture_begin();
    int rc = vs_write_file(vs, "/nonexistent-dir/x.xml");
    capture_end(&lines);
    CHECK(rc == -1 && lines == 1, "unwritable path: one error");
    if (access("/dev/full", W_OK) == 0) {
        capture_begin();
        rc = vs_write_file(vs, "/dev/full");
        capture_end(&lines);
        CHECK(rc == -1 && lines == 1, "full device: one error");
    } else {
        SKIP("write to /dev/full: no such device");
    }
    vs_free(vs);
}

/* ---- from a checker's result ---- */

static net_t *small_net(void)
{
    net_t *net = nc_create_net("tiny", "tiny.pnml");
    nc_create_place(net, "p", NULL, 1);
    nc_create_transition(net, "t0", "go");
    nc_create_transition(net, NULL, NULL);
    nc_create_transition(net, "t2", "back");
    return net;
}

static void test_from_result(void)
{
    net_t *net = small_net();
    verdictset_t *vs = vs_create("tiny");
    result_t r;
    result_init(&r);
    r.answer = ANSWER_NO;
    uint32_t run[] = { 0, 1, 2, 0 };
    result_set_run(&r, RUN_COUNTEREXAMPLE, run, 4, 2);
    result_add_technique(&r, "EXPLICIT");
    result_add_technique(&r, "LTL_NFA");
    verdict_t *v = vs_add_result(vs, "LTLFireability", "tiny-LTL-01", net, &r);
    CHECK(v && v->kind == VD_FALSE && v->role == RUN_COUNTEREXAMPLE, "NO becomes false");
    CHECK(v && v->nsteps == 4 && v->loop_start == 2 && streq(v->steps[0].transition, "t0") &&
          streq(v->steps[0].name, "go") && streq(v->steps[1].transition, "#1") &&
          !v->steps[1].name && streq(v->steps[2].name, "back"),
          "run indices become transition ids and names (#N without an id)");
    CHECK(v && v->ntechniques == 2 && streq(v->techniques[1], "LTL_NFA") &&
          streq(v->tool, "mck") && streq(v->tool_version, MCK_VERSION) && v->date &&
          strlen(v->date) == 20 && v->date[19] == 'Z', "techniques, statedby mck, UTC date");

    result_unknown(&r, "memory budget exhausted");
    v = vs_add_result(vs, "reach", "r", net, &r);
    CHECK(v && v->kind == VD_UNKNOWN && streq(v->explanation, "memory budget exhausted") &&
          !v->has_trace, "UNKNOWN becomes unknown with the reason as explanation");

    r.answer = ANSWER_YES;
    result_set_run(&r, RUN_WITNESS, run, 2, RESULT_NO_LOOP);
    v = vs_add_result(vs, "reach", "r2", net, &r);
    CHECK(v && v->kind == VD_TRUE && v->loop_start == VD_NO_LOOP && v->nsteps == 2,
          "YES becomes true; finite witness");

    uint32_t bad[] = { 0, 7 };
    result_set_run(&r, RUN_WITNESS, bad, 2, RESULT_NO_LOOP);
    int lines;
    capture_begin();
    v = vs_add_result(vs, "reach", "r3", net, &r);
    capture_end(&lines);
    CHECK(!v && lines == 1 && vs->nverdicts == 3, "a run index beyond the net: one error, "
          "no verdict added");

    char path[PATH_SIZE];
    pathf(path, "%s/verdicts-result.xml", tmpdir);
    CHECK(vs_write_file(vs, path) == 0, "write the result verdicts");
    if (have_xmllint)
        CHECK(validates(path), "result verdicts validate against the grammar");
    result_clear(&r);
    vs_free(vs);
    nc_free_net(net);
}

/* ---- the repository's sample files ---- */

static void data_path(char *buf, size_t size, const char *name)
{
    snprintf(buf, size, "%s/tests/data/verdicts/%s", top, name);
}

static void test_samples(void)
{
    char path[PATH_SIZE];
    data_path(path, sizeof path, "sample.xml");
    verdictset_t *vs = vs_read(path);
    CHECK(vs && vs->nverdicts == 3 && streq(vs->modelname, "Philosophers"), "read sample.xml");
    if (vs) {
        const verdict_t *v = vs->verdicts[0];
        CHECK(v->kind == VD_FALSE && v->ninstances == 1 && v->ntechniques == 2 &&
              v->nsteps == 3 && v->loop_start == 1 && v->steps[0].nextra == 2 &&
              streq(v->steps[0].extra[0].key, "automaton") && !v->steps[2].name,
              "sample: lasso counterexample with language attributes");
        CHECK(vs->verdicts[1]->kind == VD_INTEGER && vs->verdicts[1]->integer == 1,
              "sample: integer value");
        CHECK(vs->verdicts[2]->loop_start == 1 && vs->verdicts[2]->nsteps == 1,
              "sample: deadlock loop at the end");
    }
    vs_free(vs);
    if (have_xmllint)
        CHECK(validates(path), "sample.xml validates");

    data_path(path, sizeof path, "lenient.xml");
    vs = vs_read(path);
    CHECK(vs && vs->nverdicts == 3 && streq(vs->version, "1.1") && streq(vs->modelname, "BART"),
          "lenient.xml: unknown elements and attributes ignored");
    if (vs) {
        const verdict_t *v = vs->verdicts[0];
        CHECK(streq(v->category, "GENERIC") && streq(v->reference, "QUASI_LIVE") &&
              v->kind == VD_UNKNOWN, "lenient.xml: white space around values ignored");
        CHECK(streq(v->explanation, "a <cdata> section & text"), "lenient.xml: CDATA text");
        CHECK(vs->verdicts[1]->kind == VD_INTEGER && vs->verdicts[1]->integer == -12,
              "lenient.xml: negative integer");
        CHECK(vs->verdicts[2]->kind == VD_TEXT &&
              streq(vs->verdicts[2]->text, "99999999999999999999"),
              "lenient.xml: a number beyond 64 bits is kept as text");
    }
    vs_free(vs);
}

/* ---- hostile and malformed files: NULL and exactly one error line ---- */

static void test_bad_files(void)
{
    /* each file, and what its message must mention */
    static const struct { const char *name, *says; } cases[] = {
        { "bomb.xml", "entity" },
        { "external-entity.xml", "entity 'secret'" },
        { "parameter-entity.xml", "entity 'remote'" },
        { "truncated.xml", ":4: " },
        { "empty.xml", "empty" },
        { "wrong-root.xml", "toolspecific" },
        { "wrong-tool.xml", "propertiesverdict" },
        { "missing-reference.xml", "'reference' on <verdict>" },
        { "missing-modelreference.xml", "modelreference" },
        { "two-loops.xml", ":4: " },
        { "step-without-transition.xml", "'transition'" },
        { "statedby-without-tool.xml", "'tool' on <statedby>" },
        { "duplicate-attribute.xml", ":3: " },
        { "two-roots.xml", ":5: " },
        { "bad-utf8.xml", ":3: " },
        { "no-such-file.xml", "No such file" },
        { ".", "directory" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[PATH_SIZE];
        data_path(path, sizeof path, cases[i].name);
        unsigned long before = nc_error_count();
        int lines;
        capture_begin();
        verdictset_t *vs = vs_read(path);
        const char *text = capture_end(&lines);
        CHECK(!vs && lines == 1 && nc_error_count() == before + 1 &&
              !strncmp(text, path, strlen(path)) && strstr(text, cases[i].says),
              "%s fails with one error: %.*s", cases[i].name, (int)strcspn(text, "\n"), text);
        vs_free(vs);
    }
}

/* ---- the MCC's real files ---- */

static void test_mcc_files(void)
{
    char dirpath[PATH_SIZE];
    pathf(dirpath, "%s/mcc", shared);
    DIR *dir = opendir(dirpath);
    if (!dir) {
        SKIP("real GenericPropertiesVerdict.xml files: %s not found", dirpath);
        return;
    }
    size_t files = 0, parsed = 0, nonempty = 0, valid = 0, sane = 0;
    struct dirent *e;
    while ((e = readdir(dir))) {
        char path[PATH_SIZE];
        pathf(path, "%s/%s/GenericPropertiesVerdict.xml", dirpath, e->d_name);
        if (e->d_name[0] == '.' || access(path, R_OK))
            continue;
        files++;
        verdictset_t *vs = vs_read(path);
        parsed += vs != NULL;
        nonempty += vs && vs->nverdicts > 0 && vs->modelname[0];
        int ok = vs != NULL;
        for (size_t i = 0; vs && i < vs->nverdicts; i++) {
            const verdict_t *v = vs->verdicts[i];
            ok &= !strcmp(v->category, "GENERIC") && v->kind <= VD_UNKNOWN && v->tool &&
                  v->date && v->url;
        }
        sane += ok;
        if (!ok)
            printf("# odd verdicts in %s\n", path);
        if (have_xmllint) {
            int good = validates(path);
            valid += good;
            if (!good)
                printf("# does not validate: %s\n", path);
        }
        vs_free(vs);
    }
    closedir(dir);
    if (!files) {
        SKIP("real GenericPropertiesVerdict.xml files: none under %s", dirpath);
        return;
    }
    CHECK(parsed == files, "all %zu real verdict files parse (%zu)", files, parsed);
    CHECK(nonempty == files, "each names its model and has verdicts (%zu)", nonempty);
    CHECK(sane == files, "all verdicts GENERIC, three-valued, with statedby date and reference "
          "(%zu)", sane);
    if (have_xmllint)
        CHECK(valid == files, "all %zu real verdict files validate against the grammar (%zu)",
              files, valid);
    else
        SKIP("real files against the grammar: xmllint not installed");

    char path[PATH_SIZE];
    pathf(path, "%s/AirplaneLD-PT-0010/GenericPropertiesVerdict.xml", dirpath);
    verdictset_t *vs = access(path, R_OK) ? NULL : vs_read(path);
    if (!vs) {
        SKIP("AirplaneLD spot check: %s absent", path);
        return;
    }
    const verdict_t *v = vs_find(vs, "GENERIC", "ORDINARY");
    CHECK(streq(vs->modelname, "AirplaneLD") && streq(vs->version, "2.0") && v &&
          v->kind == VD_TRUE && streq(v->explanation, "No explanation") &&
          streq(v->tool, "MCC") && streq(v->tool_version, "2021") &&
          streq(v->date, "2021-04-30T09:49:19.563+02:00") &&
          streq(v->url, "https://mcc.lip6.fr/pdf/AirplaneLD-form.pdf") && !v->has_trace,
          "AirplaneLD: ORDINARY true, stated by MCC 2021");
    vs_free(vs);
}

/* The grammar rejects what it should (so that "validates" means something). */
static void test_grammar_rejects(void)
{
    static const char *const names[] = { "two-loops.xml", "step-without-transition.xml",
                                         "missing-modelreference.xml", "lenient.xml" };
    if (!have_xmllint) {
        SKIP("grammar rejections: xmllint not installed");
        return;
    }
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char path[PATH_SIZE];
        data_path(path, sizeof path, names[i]);
        CHECK(!validates(path), "grammar rejects %s", names[i]);
    }
    char path[PATH_SIZE];
    pathf(path, "%s/verdicts-generic-bad.xml", tmpdir);
    FILE *f = fopen(path, "w");
    fputs("<toolspecific tool=\"propertiesverdict\" version=\"1.0\"><modelreference modelname=\"M\"/>"
          "<verdict category=\"GENERIC\" reference=\"SAFE\" value=\"maybe\"/></toolspecific>\n", f);
    fclose(f);
    CHECK(!validates(path), "grammar rejects a GENERIC value other than true/false/unknown");
}

int main(void)
{
    top = getenv("TOP") ? getenv("TOP") : ".";
    shared = getenv("SHARED") ? getenv("SHARED") : "../shared";
    pathf(tmpdir, "%s/tests/tmp", top);
    mkdir(tmpdir, 0777);
    pathf(errpath, "%s/verdicts-stderr.txt", tmpdir);
    have_xmllint = system("command -v xmllint >/dev/null 2>&1") == 0;
    if (!have_xmllint)
        SKIP("xmllint not installed: grammar checks skipped");

    test_round_trip();
    test_write_refusals();
    test_from_result();
    test_samples();
    test_bad_files();
    test_grammar_rejects();
    test_mcc_files();
    UNIT_DONE();
}
