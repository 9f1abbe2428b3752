/* `mck mcc`: from the examination name and the instance folder to answer
 * lines.  The driver reads the environment BenchKit sets, refuses what mck
 * cannot take part in, reads (unfolding a colored net) and compiles the net,
 * and hands over to the examination's family. */
#include "mcc/mcc.h"
#include "mcc/internal.h"
#include "engine/parallel.h"
#include "input/input.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef enum { FAMILY_STATE_SPACE, FAMILY_GLOBAL, FAMILY_FORMULAS, FAMILY_CTL, FAMILY_LTL } family;

static const struct {
    const char *name;
    family fam;
} exams[] = {
    {"StateSpace", FAMILY_STATE_SPACE},
    {"UpperBounds", FAMILY_FORMULAS},
    {"ReachabilityDeadlock", FAMILY_GLOBAL},
    {"ReachabilityCardinality", FAMILY_FORMULAS},
    {"ReachabilityFireability", FAMILY_FORMULAS},
    {"OneSafe", FAMILY_GLOBAL},
    {"QuasiLiveness", FAMILY_GLOBAL},
    {"StableMarking", FAMILY_GLOBAL},
    {"Liveness", FAMILY_GLOBAL},
    {"CTLCardinality", FAMILY_CTL},
    {"CTLFireability", FAMILY_CTL},
    {"LTLCardinality", FAMILY_LTL},
    {"LTLFireability", FAMILY_LTL},
};

double mcc_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double mcc_time_left(const mcc_run *r)
{
    return budget_left(r->budget);
}

void mcc_search_options(const mcc_run *r, const budget_t *budget, check_options *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->budget = budget;
    opt->progress = r->verbose > 1;
    opt->verbose = r->verbose;
}

/* ---- the instance folder ---- */

static char *join(const char *dir, const char *name, const char *suffix)
{
    size_t n = strlen(dir) + strlen(name) + strlen(suffix) + 2;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s/%s%s", dir, name, suffix);
    return s;
}

/* The first bytes of a file, NUL-terminated; "" when unreadable. */
static void head(const char *path, char *buf, size_t len)
{
    buf[0] = '\0';
    FILE *f = path ? fopen(path, "rb") : NULL;
    if (!f)
        return;
    size_t n = fread(buf, 1, len - 1, f);
    buf[n] = '\0';
    fclose(f);
}

/* After the reader refused the model: was it a coloured net (outside the
 * subset mck unfolds, or too large to unfold)?  The net type comes early
 * in the file. */
static int looks_colored(const char *model)
{
    static char buf[8192];
    head(model, buf, sizeof buf);
    return strstr(buf, "symmetricnet") || strstr(buf, "highlevelnet");
}

/* ---- the run ---- */

static int run_family(mcc_run *r, family fam)
{
    switch (fam) {
    case FAMILY_STATE_SPACE:
        return mcc_state_space(r);
    case FAMILY_GLOBAL:
        return mcc_global(r);
    case FAMILY_FORMULAS:
    case FAMILY_CTL:
    case FAMILY_LTL: {
        char *path = join(r->dir, r->exam, ".xml");
        if (!path)
            return -1;
        int left = fam == FAMILY_CTL ? mcc_ctl(r, path)
                   : fam == FAMILY_LTL ? mcc_ltl(r, path) : mcc_formulas(r, path);
        free(path);
        return left;
    }
    default:
        return -1;
    }
}

static int run_exam(mcc_run *r, family fam)
{
    int stopped = 0;
    char *model = join(r->dir, "model.pnml", "");
    if (!model)
        return 1;
    /* the confinements and SIGTERM hold from the first byte (budget.h) */
    budget_lend(r->budget);
    r->net = pnml_read(model);
    budget_stage("compiling");
    r->cn = r->net ? nc_compile(r->net) : NULL;
    if (budget_return(r->budget, r->cn != NULL)) {
        fprintf(stderr, "mck mcc: %s: %s\n", r->exam, budget_stop_reason());
        nc_free_net(r->net);
        r->net = NULL;
        r->cn = NULL;
        stopped = 1;
    }
    if (!r->net) {
        /* the folder names the instance the verdict file is about */
        char *full = realpath(r->dir, NULL);
        const char *slash = full ? strrchr(full, '/') : NULL;
        mcc_xml_set_model(NULL, slash && slash[1] ? slash + 1 : r->dir);
        mcc_json_set_model(NULL, slash && slash[1] ? slash + 1 : r->dir);
        free(full);
    } else {
        mcc_xml_set_model(r->net, NULL);
        mcc_json_set_model(r->net, NULL);
    }
    if (!r->net) {
        /* a net cut short by a limit was not refused */
        mcc_answer_word(!stopped && looks_colored(model) ? "DO_NOT_COMPETE" : "CANNOT_COMPUTE");
        free(model);
        return !stopped;   /* a limit is part of the design, an unreadable file not */
    }
    free(model);
    int rc = 0;
    /* every answer on a colored instance comes from its P/T unfolding */
    mcc_answers_net_techniques(r->net->colored.unfolded ? "UNFOLDING_TO_PT" : NULL);
    if (!r->cn || mcc_structure_compute(r->cn, &r->st) < 0) {
        nc_error(NULL, 0, "out of memory");
        rc = 1;
    } else if (run_family(r, fam) < 0) {
        rc = 1;
    }
    if (mcc_portfolio_finish(r) == 0)
        mcc_answer_word("CANNOT_COMPUTE");
    mcc_structure_free(&r->st);
    nc_free_net(r->net);
    return rc;
}

static void print_usage(FILE *out)
{
    fprintf(out, "usage: mck mcc [-v] [-j N] [--por=on|off] [--reduce=on|off] [--lp=on|off] "
                 "[--walk=on|off]\n"
                 "               [--unfold=on|off]\n"
                 "               [--xml FILE] [--json] [EXAMINATION [DIR]]\n"
                 "  Answers a Model Checking Contest examination on DIR/model.pnml (and\n"
                 "  DIR/EXAMINATION.xml) with the contest's answer lines on standard output.\n"
                 "  EXAMINATION defaults to $BK_EXAMINATION, DIR to the current folder;\n"
                 "  $BK_TIME_CONFINEMENT (s) and $BK_MEMORY_CONFINEMENT (MiB) bound the run.\n"
                 "  -v: the budget and what each technique decided, on standard error.\n"
                 "  -j N: with N > 1 (default: the cores mck may run on), a formula\n"
                 "    examination runs a second process beside the first: decision\n"
                 "    diagrams for CTL, reachability and bounds, the LTL formulas in\n"
                 "    reverse order; off with --xml and --json.\n"
                 "  --por=off: no partial-order reduction (stubborn sets) in the searches\n"
                 "    for deadlocks, reachability, LTL and CTL's E F and A G; on by default.\n"
                 "  --reduce=off: no structural reduction of the net before the searches\n"
                 "    for deadlocks, reachability and bounds; on by default.\n"
                 "  --lp=off: no state equation (linear programs) before or beside the\n"
                 "    searches; on by default.\n"
                 "  --walk=off: no random walks before the searches; on by default.\n"
                 "  --unfold=off: no unfolding (safe nets: the prefix and a SAT solver for\n"
                 "    reachability and deadlock before the searches); on by default.\n"
                 "  --xml FILE: the answers also as verdict XML (propertiesverdict), with\n"
                 "    the run that shows each reachable property found by search.\n"
                 "  --json: each answer as a JSON object on standard output instead of its\n"
                 "    line, with the run that shows it (the man page's JSON section).\n");
}

/* --TECH=on|off: each technique can be switched off, to measure what it
 * brings (bench/README.md); all are on by default. */
static int switch_option(const char *arg, mcc_run *r)
{
    static const struct {
        const char *name;
        size_t offset;
    } techs[] = {
        {"por", offsetof(mcc_run, no_por)},
        {"reduce", offsetof(mcc_run, no_reduce)},
        {"lp", offsetof(mcc_run, no_lp)},
        {"walk", offsetof(mcc_run, no_walk)},
        {"unfold", offsetof(mcc_run, no_unfold)},
    };
    for (size_t i = 0; i < sizeof techs / sizeof techs[0]; i++) {
        size_t len = strlen(techs[i].name);
        if (strncmp(arg, "--", 2) || strncmp(arg + 2, techs[i].name, len) || arg[2 + len] != '=')
            continue;
        const char *v = arg + 3 + len;
        if (strcmp(v, "on") && strcmp(v, "off"))
            return 0;
        *(int *)((char *)r + techs[i].offset) = !strcmp(v, "off");
        return 1;
    }
    return 0;
}

static int usage(const char *msg, const char *arg)
{
    fprintf(stderr, "mck mcc: ");
    fprintf(stderr, msg, arg);
    fputc('\n', stderr);
    print_usage(stderr);
    return 2;
}

int mcc_main(int argc, char **argv, budget_t *budget)
{
    mcc_run r;
    memset(&r, 0, sizeof r);
    r.budget = budget;
    r.cores = parallel_cores();
    const char *xml = NULL;
    int json = 0;
    int i = 1;
    for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
        if (!strcmp(argv[i], "-v")) {
            r.verbose++;
        } else if (!strncmp(argv[i], "-j", 2)) {
            const char *n = argv[i][2] ? argv[i] + 2 : i + 1 < argc ? argv[++i] : "";
            char *end;
            long v = strtol(n, &end, 10);
            if (!*n || *end || v < 1 || v > 1024)
                return usage("bad process count '%s' (1 to 1024)", n);
            r.cores = (unsigned)v;
        } else if (switch_option(argv[i], &r)) {
            continue;
        } else if (!strcmp(argv[i], "--xml")) {
            if (++i == argc)
                return usage("%s", "--xml needs a file name");
            xml = argv[i];
        } else if (!strcmp(argv[i], "--json")) {
            json = 1;
        } else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            print_usage(stdout);
            return 0;
        } else
            return usage("unknown option '%s'", argv[i]);
    }
    r.exam = i < argc ? argv[i++] : getenv("BK_EXAMINATION");
    r.dir = i < argc ? argv[i++] : ".";
    if (i < argc)
        return usage("unexpected argument '%s'", argv[i]);
    if (!r.exam || !*r.exam)
        return usage("%s", "no examination given (argument or BK_EXAMINATION)");
    size_t k = 0;
    while (k < sizeof exams / sizeof exams[0] && strcmp(exams[k].name, r.exam))
        k++;
    if (k == sizeof exams / sizeof exams[0])
        return usage("unknown examination '%s'", r.exam);
    const char *time_s = getenv("BK_TIME_CONFINEMENT"), *mem_s = getenv("BK_MEMORY_CONFINEMENT");
    int bad = budget_set_benchkit(budget, time_s, mem_s, r.verbose ? stderr : NULL);
    if (bad & BUDGET_BAD_TIME)
        fprintf(stderr, "mck mcc: ignoring BK_TIME_CONFINEMENT='%s'\n", time_s);
    if (bad & BUDGET_BAD_MEMORY)
        fprintf(stderr, "mck mcc: ignoring BK_MEMORY_CONFINEMENT='%s'\n", mem_s);
    if (r.verbose)
        budget_report(budget, stderr);
    if (xml && mcc_xml_open(xml, r.exam) < 0)
        return 2;
    if (json)
        mcc_json_open(r.exam);
    int rc = 0;
    rc = run_exam(&r, exams[k].fam);
    mcc_answers_net_techniques(NULL);
    mcc_json_close();
    if (mcc_xml_close() < 0 && rc == 0)
        rc = 1;
    mcc_answers_reset();
    return rc;
}
