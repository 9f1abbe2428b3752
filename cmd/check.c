/* `mck check` (and the Kit's spelling `mck LANG:CHECKER-KIND`): a model,
 * a property and a checker give YES, NO or UNKNOWN with a run of the
 * model as evidence. */
#include "cmd/commands.h"
#include "cmd/checkerrun.h"
#include "checkers/checkers.h"
#include "cmd/fairness.h"
#include "cmd/jsonout.h"
#include "cmd/language.h"
#include "cmd/mccprops.h"
#include "cmd/options.h"
#include "cmd/proplist.h"
#include "engine/dist/distcomm.h"
#include "engine/parallel.h"
#include "cmd/report.h"
#include "base/readfile.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* "[LANG:]CHECKER[-KIND]": fills the parts that are present.  Returns 0 when
 * spec has that shape with a known checker, -1 otherwise. */
static int parse_spec(const char *spec, const char **lang, char *langbuf, size_t langlen,
                      const checker_type **chk, prop_kind *kind)
{
    const char *colon = strchr(spec, ':');
    const char *rest = spec;
    if (colon) {
        size_t n = (size_t)(colon - spec);
        if (n == 0 || n >= langlen)
            return -1;
        memcpy(langbuf, spec, n);
        langbuf[n] = '\0';
        rest = colon + 1;
    }
    size_t n = strcspn(rest, "-");
    const checker_type *c = checker_by_name(rest, n);
    if (!c)
        return -1;
    prop_kind k = KIND_AUTO;
    if (rest[n] == '-') {
        k = prop_kind_from_name(rest + n + 1);
        if (k == KIND_AUTO)
            return -1;
    }
    if (colon)
        *lang = langbuf;
    *chk = c;
    if (k != KIND_AUTO)
        *kind = k;
    return 0;
}

typedef struct check_args {
    const char *lang, *checker, *kind, *xml;
    const char *model, *property;
    check_options opt;
    budget_t *budget;           /* the run's: lent to the stages before the search */
    int quiet, verbose;
    int expect;             /* --expect: the property file must give answers */
    int finite_runs;        /* --finite-runs: 0 the language's default, 1 repeat, 2 ignore */
    fairness_args fair;     /* --fair, --fair-set */
    int json;               /* --json: JSON objects instead of text */
    int mpi;                /* --mpi: one rank of the distributed search */
    double seconds;         /* --timeout */
    size_t bytes;           /* --mem */
    int silent;             /* a rank of an MPI job but rank 0: prints no statistics */
} check_args;

/* The limits, and what -v and a terminal are told.  Only rank 0 of an MPI
 * job speaks (run_rank): it comes after MPI is started. */
static void set_limits(check_args *a, int speaks)
{
    a->silent = !speaks;
    if (!speaks)
        a->verbose = 0;
    nc_set_verbosity(a->verbose);
    a->opt.verbose = a->verbose;
    budget_set_limits(a->budget, a->seconds, a->bytes, a->verbose ? stderr : NULL);
    if (a->verbose)
        budget_report(a->budget, stderr);
    /* Progress lines are for a person watching a terminal; a log or a pipe
     * gets them only when asked for with -v. */
    a->opt.progress = speaks && !a->quiet && (a->verbose || isatty(STDERR_FILENO));
}

/* Fairness is judged on the model's own transitions, in the product
 * search of the explicit LTL checker (checkers/ltl/fairscc.h); the
 * stubborn row runs that search without its reduction under fairness. */
static int fairness_supported(const checker_type *chk, prop_kind kind, const char *property)
{
    if (kind != KIND_AUTO && kind != KIND_LTL) {
        fprintf(stderr, "%s: fairness (--fair or #fair) applies to ltl properties only, not %s\n",
                property ? property : "mck", prop_kind_name(kind));
        return 0;
    }
    if (strcmp(chk->name, "explicit") && strcmp(chk->name, "stubborn")) {
        fprintf(stderr, "mck: checker %s does not support fairness (explicit and stubborn do)\n",
                chk->name);
        return 0;
    }
    return 1;
}

/* A limit stopped the stages before the search (budget.h): UNKNOWN, with
 * the limit and the stage, and no search. */
static int report_stopped(check_args *a, net_t *net, prop_kind kind)
{
    result_t res;
    result_init(&res);
    result_unknown(&res, budget_stop_reason());
    int rc = report_result(stdout, net, NULL, &res, a->quiet, budget_elapsed(a->budget));
    if (a->xml) {
        /* stopped while reading, the verdict names the model by its file */
        char *stem = net ? NULL : path_stem(a->model);
        net_t *named = net ? net : stem ? nc_create_net(stem, a->model) : NULL;
        if (!named || write_verdict_file(a->xml, named, a->property, kind, &res) < 0)
            rc = EXIT_ERROR;
        if (named != net)
            nc_free_net(named);
        free(stem);
    }
    result_clear(&res);
    return rc;
}

/* After a stage before the search failed: UNKNOWN when a limit stopped
 * it, the error it printed otherwise.  Ends the lending either way. */
static int stage_failed(check_args *a, net_t *net, prop_kind kind)
{
    return budget_return(a->budget, 0) ? report_stopped(a, net, kind) : EXIT_ERROR;
}

/* The stages done, the net compiled: the search gets the bytes the model
 * left (0), or a limit stopped them (an exit status). */
static int stages_done(check_args *a, net_t *net, prop_kind kind)
{
    budget_stage("compiling");
    int compiled = nc_compile(net) != NULL;
    if (budget_return(a->budget, compiled))
        return report_stopped(a, net, kind);
    return compiled ? 0 : EXIT_ERROR;
}

/* A file of several properties (MCC XML, RERS's numbered lists, named
 * formulas) into items: 1 when it is one, 0 when the file is one formula,
 * -1 after an error message. */
static int read_property_list(const check_args *a, const input_type *it, net_t *net,
                              prop_kind kind, check_item **items, size_t *n)
{
    *items = NULL;
    *n = 0;
    if (looks_like_xml(a->property))
        return mcc_property_items(a->property, net, kind, items, n) < 0 ? -1 : 1;
    prop_list_reader read = property_list_reader(it);
    prop_entry *v;
    size_t nv;
    if (!read)
        return 0;
    if (read(a->property, net, kind, &v, &nv) < 0)
        return -1;
    if (!nv)
        return 0;
    if (check_items_from_entries(v, nv, items) < 0) {
        nc_error(a->property, 0, "out of memory");
        return -1;
    }
    *n = nv;
    return 1;
}

static int run_property_list(check_args *a, const input_type *it, const checker_type *chk,
                             net_t *net, prop_kind kind, json_check *jc, int *handled)
{
    check_item *items;
    size_t n;
    int list = read_property_list(a, it, net, kind, &items, &n);
    *handled = list != 0 || a->expect;
    if (list < 0)
        return stage_failed(a, net, kind == KIND_AUTO ? KIND_LTL : kind);
    if (!list)
        return a->expect ? (nc_error(a->property, 0, "--expect: no properties with expected "
                                     "answers in this file"), EXIT_ERROR) : 0;
    const list_run lr = { it, chk, &a->opt, a->quiet, a->verbose, a->expect, a->property,
                          a->xml, jc };
    int rc = stages_done(a, net, kind == KIND_AUTO ? KIND_LTL : kind);
    if (!rc)
        rc = check_property_list(net, items, n, &lr);
    check_items_free(items, n);
    return rc;
}

static int run_check(check_args *a, const checker_type *chk, prop_kind kind)
{
    const input_type *it = choose_language(a->lang, a->model);
    if (!it)
        return EXIT_ERROR;
    if (kind == KIND_DL && a->property) {
        nc_error(a->property, 0, "dl takes no formula");
        return EXIT_ERROR;
    }
    if (kind != KIND_DL && kind != KIND_AUTO && !a->property)
        return usage_error("kind %s needs a PROPERTY file", prop_kind_name(kind));
    if (!a->property)
        kind = KIND_DL;
    /* --timeout, --mem and the signals hold from here: reading, unfolding
     * and compiling are on the run's clock and in its memory */
    budget_lend(a->budget);
    net_t *net = read_model(it, a->model);
    if (!net)
        return stage_failed(a, NULL, kind);
    a->opt.ltl_infinite_only = a->finite_runs ? a->finite_runs == 2 : net->ltl_infinite_only;
    uint8_t *fair_set = NULL;
    if (fairness_setup(&a->fair, net, a->property, &a->opt, &fair_set) < 0 ||
        (a->opt.fairness && !fairness_supported(chk, kind, a->property))) {
        int rc = stage_failed(a, net, kind);
        free(fair_set);
        nc_free_net(net);
        return rc;
    }
    json_check jc;
    if (a->json)
        json_check_init(&jc, stdout, a->model, it, chk);
    if (a->property) {
        budget_stage("reading");
        int handled, rc = run_property_list(a, it, chk, net, kind, a->json ? &jc : NULL,
                                            &handled);
        if (handled) {
            free(fair_set);
            nc_free_net(net);
            return rc;
        }
    }
    tree_t *f = NULL;
    int rc = EXIT_ERROR;
    char why[200] = "";
    if (a->property) {
        budget_stage("reading");
        f = it->formfunc(a->property, net, &kind);
        if (!f) {
            rc = stage_failed(a, net, kind);
            goto out;
        }
    }
    if (a->opt.fairness && !fairness_supported(chk, kind, a->property))
        goto out;
    if (!(chk->kinds & KINDS_BIT(kind))) {
        fprintf(stderr, "mck: checker %s does not support kind %s\n", chk->name,
                prop_kind_name(kind));
        goto out;
    }
    if (!chk->accepts(f, kind, why, sizeof why)) {
        fprintf(stderr, "%s: %s\n", a->property ? a->property : a->model, why);
        goto out;
    }
    if ((rc = stages_done(a, net, kind)) != 0)
        goto out;
    const cnet_t *cn = nc_compile(net);   /* compiled by stages_done */
    result_t res;
    result_init(&res);
    a->opt.want_run = 1;
    /* one question: its clock is the run's, which started with mck, so
     * that reading and searching together end within --timeout */
    a->opt.budget = a->budget;
    checker_run(chk, cn, f, kind, &a->opt, &res);
    if (res.role != RUN_NONE && !replay_ok(cn, &res, f, kind)) {
        fprintf(stderr, "mck: internal error: the checker's run does not replay on the net\n");
        result_clear(&res);
        rc = EXIT_ERROR;
        goto out;
    }
    if (a->json) {
        const json_about about = { a->property, kind, -1 };
        json_check_result(&jc, &about, net, it->outputfunc, &res, a->quiet,
                          budget_elapsed(a->budget));
        rc = answer_status(res.answer);
    } else {
        rc = report_result(stdout, net, it->outputfunc, &res, a->quiet,
                           budget_elapsed(a->budget));
    }
    /* a user who stopped a run wants to know how far it got */
    if (a->verbose || (*a->budget->interrupted && !a->quiet && !a->silent))
        report_statistics(stderr, &res);
    if (a->xml && write_verdict_file(a->xml, net, a->property, kind, &res) < 0)
        rc = EXIT_ERROR;
    result_clear(&res);
out:
    tree_free(f);
    free(fair_set);
    nc_free_net(net);
    return rc;
}

/* --mpi: this process is one rank of an MPI job, and every rank runs the
 * whole command on the same files: they read and compile the model alike
 * and meet in the dist checker's search.  Rank 0 speaks for all: the
 * others' output goes nowhere, and only rank 0 writes --xml; their errors
 * still reach stderr, so that a rank that cannot read the model says so. */
static int run_rank(check_args *a, const checker_type *chk, prop_kind kind)
{
    char why[300];
    if (dist_start(why, sizeof why) < 0) {
        fprintf(stderr, "mck: --mpi: %s\n", why);
        return EXIT_ERROR;
    }
    if (dist_rank() != 0) {
        if (!freopen("/dev/null", "w", stdout)) {
            fprintf(stderr, "mck: rank %d: cannot silence its output\n", dist_rank());
            dist_stop();
            return EXIT_ERROR;
        }
        /* not quiet: every rank must want the same runs (proplist.c asks
         * for them unless quiet), or their records would differ */
        a->xml = NULL;
    }
    set_limits(a, dist_rank() == 0);
    int rc = run_check(a, chk, kind);
    /* the others may still be in a search that waits for this rank */
    fflush(stdout);
    dist_stop();
    return rc;
}

int check_main(int argc, char **argv, budget_t *budget)
{
    /* the Kit's spelling: mck LANG:CHECKER[-KIND] ... */
    const char *kit_spec = strchr(argv[0], ':') ? argv[0] : NULL;
    enum { OPT_TIMEOUT = 256, OPT_MEM, OPT_XML, OPT_EXPECT, OPT_FINITE, OPT_PACK, OPT_COMPACT,
           OPT_FAIR, OPT_FAIR_SET, OPT_JSON, OPT_PARALLEL_AFTER, OPT_MPI };
    /* more threads than this only wait for one another */
    enum { THREADS_MAX = 1024 };
    static const struct option longopts[] = {
        {"language", required_argument, NULL, 't'},
        {"kind", required_argument, NULL, 'k'},
        {"checker", required_argument, NULL, 'c'},
        {"quiet", no_argument, NULL, 'q'},
        {"verbose", no_argument, NULL, 'v'},
        {"max-states", required_argument, NULL, 'm'},
        {"threads", required_argument, NULL, 'j'},
        {"parallel-after", required_argument, NULL, OPT_PARALLEL_AFTER},
        {"timeout", required_argument, NULL, OPT_TIMEOUT},
        {"mem", required_argument, NULL, OPT_MEM},
        {"xml", required_argument, NULL, OPT_XML},
        {"expect", no_argument, NULL, OPT_EXPECT},
        {"finite-runs", required_argument, NULL, OPT_FINITE},
        {"pack", required_argument, NULL, OPT_PACK},
        {"compact", required_argument, NULL, OPT_COMPACT},
        {"fair", required_argument, NULL, OPT_FAIR},
        {"fair-set", required_argument, NULL, OPT_FAIR_SET},
        {"json", no_argument, NULL, OPT_JSON},
        {"mpi", no_argument, NULL, OPT_MPI},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    check_args a;
    memset(&a, 0, sizeof a);
    a.budget = budget;
    a.opt.budget = budget;
    a.opt.threads = parallel_cores();
    a.opt.parallel_after = PARALLEL_AFTER_DEFAULT;
    double seconds = 0;
    size_t bytes = 0;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "t:k:c:qvm:j:h", longopts, NULL)) != -1) {
        switch (c) {
        case 't': a.lang = optarg; break;
        case 'k': a.kind = optarg; break;
        case 'c': a.checker = optarg; break;
        case 'q': a.quiet = 1; break;
        case 'v': a.verbose++; break;
        case 'm':
            if (parse_count(optarg, &a.opt.max_states) < 0)
                return usage_error("bad state limit '%s'", optarg);
            break;
        case 'j': {
            uint64_t n;
            if (parse_count(optarg, &n) < 0 || n == 0 || n > THREADS_MAX)
                return usage_error("bad thread count '%s' (1 to 1024)", optarg);
            a.opt.threads = (unsigned)n;
            break;
        }
        case OPT_PARALLEL_AFTER:
            if (parse_count(optarg, &a.opt.parallel_after) < 0)
                return usage_error("bad state count '%s'", optarg);
            break;
        case OPT_TIMEOUT:
            if (parse_seconds(optarg, &seconds) < 0)
                return usage_error("bad timeout '%s' (seconds)", optarg);
            break;
        case OPT_MEM:
            if (parse_megabytes(optarg, &bytes) < 0)
                return usage_error("bad memory budget '%s' (megabytes)", optarg);
            break;
        case OPT_XML: a.xml = optarg; break;
        case OPT_EXPECT: a.expect = 1; break;
        case OPT_JSON: a.json = 1; break;
        case OPT_MPI: a.mpi = 1; break;
        case OPT_FINITE:
            if (!strcmp(optarg, "repeat"))
                a.finite_runs = 1;
            else if (!strcmp(optarg, "ignore"))
                a.finite_runs = 2;
            else
                return usage_error("--finite-runs takes 'repeat' or 'ignore', not '%s'", optarg);
            break;
        case OPT_PACK:
            if (!strcmp(optarg, "on") || !strcmp(optarg, "off"))
                a.opt.variable_keys = !strcmp(optarg, "off");
            else
                return usage_error("--pack takes 'on' or 'off', not '%s'", optarg);
            break;
        case OPT_COMPACT:
            if (!strcmp(optarg, "on") || !strcmp(optarg, "off"))
                a.opt.no_compact = !strcmp(optarg, "off");
            else
                return usage_error("--compact takes 'on' or 'off', not '%s'", optarg);
            break;
        case OPT_FAIR:
            if (fairness_parse_mode(optarg, &a.fair.mode) < 0)
                return usage_error("--fair takes 'weak', 'strong' or 'none', not '%s'", optarg);
            a.fair.given = 1;
            break;
        case OPT_FAIR_SET: a.fair.names = optarg; break;
        case 'h': commands_help(stdout); return 0;
        default: return usage_error("%s", "bad option");
        }
    }
    a.seconds = seconds;
    a.bytes = bytes;

    char langbuf[64];
    const checker_type *chk = NULL;
    prop_kind kind = KIND_AUTO;
    int pos = optind;
    const char *spec = kit_spec;
    /* mck check [[LANG:]CHECKER[-KIND]] MODEL [PROPERTY] */
    if (!spec && argc - pos >= 2 && parse_spec(argv[pos], &a.lang, langbuf, sizeof langbuf,
                                                &chk, &kind) == 0)
        spec = argv[pos++];
    if (spec && !chk && parse_spec(spec, &a.lang, langbuf, sizeof langbuf, &chk, &kind) < 0)
        return usage_error("'%s' is not LANG:CHECKER[-KIND] (see 'mck list')", spec);
    if (argc - pos < 1 || argc - pos > 2)
        return usage_error("%s", "check needs MODEL and at most one PROPERTY");
    a.model = argv[pos];
    a.property = argc - pos == 2 ? argv[pos + 1] : NULL;
    if (a.checker) {
        chk = checker_by_name(a.checker, strlen(a.checker));
        if (!chk)
            return usage_error("unknown checker '%s' (see 'mck list')", a.checker);
    }
    const checker_type *dist = checker_by_name("dist", 4);
    if (a.mpi && chk && chk != dist)
        return usage_error("--mpi runs the dist checker, not %s", chk->name);
    if (!a.mpi && chk == dist)
        return usage_error("%s", "the dist checker runs under MPI: mpirun -np N mck check --mpi "
                           "MODEL [PROPERTY]");
    if (a.mpi)
        chk = dist;
    if (!chk)
        chk = checker_at(0);
    if (a.kind) {
        kind = prop_kind_from_name(a.kind);
        if (kind == KIND_AUTO)
            return usage_error("unknown kind '%s' (dl, reach, ctl, ltl)", a.kind);
    }
    if (a.mpi)
        return run_rank(&a, chk, kind);
    set_limits(&a, 1);
    return run_check(&a, chk, kind);
}
