/* mck: the command line, and the two plug-in tables that wire languages and
 * checkers together (architecture.md).  Only this file chooses exit codes:
 * 0 YES, 1 NO, 2 error, 3 UNKNOWN (kit-overview.md §6.4). */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "checkers/checkers.h"
#include "checkers/stateeval.h"
#include "formats.h"
#include "input/input.h"
#include "netconv.h"
#include "tree.h"
#include "cli.h"
#include "mcc/mcc.h"
#include "plugin/loader.h"

#define EXIT_YES 0
#define EXIT_NO 1
#define EXIT_ERROR 2
#define EXIT_UNKNOWN 3

static const input_type input_types[] = {
    {"pnml", ".pnml", pnml_read, netlang_formula, pnml_output,
     "PNML place/transition nets (ISO/IEC 15909-2, as used by the MCC)"},
    {"pep", ".ll_net .ll", pep_read, netlang_formula, netlang_output,
     "PEP low-level nets (docs: pep-format.md)"},
    {"senil", ".senil", senil_read, netlang_formula, netlang_output,
     "SENIL, the Kit's language for 1-safe nets typed by hand (kit-overview.md §5)"},
    {"apnn", ".apnn", apnn_read, netlang_formula, apnn_output,
     "APNN place/transition nets, the Abstract Petri Net Notation (apnn-format.md)"},
    {"bpn2", ".bpn2", bpn2_read, bpn2_formula, bpn2_output,
     "B(PN)2 core: blocks, actions, ; [] ||, do-od loops, channels (bpn2-format.md)"},
    {"cfa", ".cfa", cfa_read, cfa_formula, cfa_output,
     "CFA, communicating finite automata with variables, channels, stacks (cfa-format.md)"},
    {"rers", ".dot", rers_read, rers_formula, rers_output,
     "RERS parallel LTL systems: LTSs as Graphviz .dot (rers-format.md)"},
};
#define N_INPUT_TYPES (sizeof input_types / sizeof input_types[0])

static const checker_type checkers[] = {
    {"explicit", KINDS_BIT(KIND_DL) | KINDS_BIT(KIND_REACH) | KINDS_BIT(KIND_CTL) |
     KINDS_BIT(KIND_LTL), explicit_accepts, explicit_run,
     "explicit-state search: shortest witnesses (dl, reach); CTL on the reachability graph; "
     "LTL by automata",
     "any place/transition net (weights, read arcs, unbounded: limits end in UNKNOWN)"},
    {"stubborn", KINDS_BIT(KIND_DL) | KINDS_BIT(KIND_REACH) | KINDS_BIT(KIND_LTL),
     stubborn_accepts, stubborn_run,
     "explicit-state search reduced by stubborn sets (partial-order reduction): every deadlock, "
     "every reachable goal and (LTL without X) every stutter-equivalent run is kept; "
     "witnesses are runs, not always shortest",
     "any place/transition net; gains most on concurrent models"},
    {"reduce", KINDS_BIT(KIND_DL) | KINDS_BIT(KIND_REACH) | KINDS_BIT(KIND_LTL), reduced_accepts,
     reduced_run,
     "structural reduction for the question (dead and duplicate transitions; constant, "
     "parallel, sink and implicit places; free sequences agglomerated), then explicit search "
     "on the smaller net (ltl: without X, deadlock and actions); witnesses and lassos are "
     "expanded back into runs of the model",
     "any place/transition net; gains most on nets with sequential chains"},
};
#define N_CHECKERS (sizeof checkers / sizeof checkers[0])

static struct timespec start_time;
static volatile int interrupted;

static double elapsed(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - start_time.tv_sec) + (now.tv_nsec - start_time.tv_nsec) / 1e9;
}

/* The first SIGINT or SIGTERM asks the search to stop at its next clock
 * check and report UNKNOWN with what it found; a second one, for a user
 * who will not wait even that long, ends the process the default way. */
static void on_signal(int sig)
{
    (void)sig;
    interrupted = 1;
}

static void catch_stop_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND | SA_RESTART;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

/* ------------------------------------------------------------------ */
/* table lookups */

static const input_type *builtin_language(const char *name)
{
    for (size_t i = 0; i < N_INPUT_TYPES; i++)
        if (strcmp(input_types[i].name, name) == 0)
            return &input_types[i];
    return NULL;
}

static int builtin_name_taken(const char *name)
{
    return builtin_language(name) != NULL;
}

/* Built-in rows first, then the plugins' (plugin/loader.h). */
static const input_type *language_at(size_t i)
{
    return i < N_INPUT_TYPES ? &input_types[i] : plugin_language(i - N_INPUT_TYPES, NULL);
}

static const input_type *language_by_name(const char *name)
{
    const input_type *l = builtin_language(name);
    return l ? l : plugin_language_by_name(name);
}

/* The row whose suffix ends path, the longest match winning. */
static const input_type *language_by_suffix(const char *path)
{
    const input_type *best = NULL;
    size_t best_len = 0, plen = strlen(path);
    const input_type *l;
    for (size_t i = 0; (l = language_at(i)) != NULL; i++) {
        const char *s = l->suffixes;
        while (*s) {
            size_t n = strcspn(s, " ");
            if (n <= plen && n > best_len && strncmp(path + plen - n, s, n) == 0) {
                best = l;
                best_len = n;
            }
            s += n;
            s += strspn(s, " ");
        }
    }
    return best;
}

static const checker_type *checker_by_name(const char *name, size_t len)
{
    for (size_t i = 0; i < N_CHECKERS; i++)
        if (strlen(checkers[i].name) == len && strncmp(checkers[i].name, name, len) == 0)
            return &checkers[i];
    return NULL;
}

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "mck: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry 'mck --help'.\n");
    return EXIT_ERROR;
}

/* ------------------------------------------------------------------ */
/* help, version, list */

static void print_help(FILE *out)
{
    fputs(
        "usage: mck check [OPTIONS] [[LANG:]CHECKER[-KIND]] MODEL [PROPERTY]\n"
        "       mck LANG:CHECKER[-KIND] [OPTIONS] MODEL [PROPERTY]   (the Kit's spelling)\n"
        "       mck info [-t LANG] [-v] MODEL\n"
        "       mck mcc [-v] [--por|--reduce|--lp|--walk=on|off] [--xml FILE] [EXAMINATION [DIR]]\n"
        "                                                    (Model Checking Contest mode)\n"
        "       mck properties [-t LANG] [-o FILE] [--timeout S] [--mem MB] [-v] MODEL\n"
        "       mck verdicts compare A.xml B.xml\n"
        "       mck export --promela [-t LANG] [-o FILE.pml] [-v] MODEL [PROPERTIES]   (for SPIN)\n"
        "       mck convert [-t LANG] [--to apnn|pnml|pep] MODEL -o FILE.apnn|.pnml|.ll_net\n"
        "       mck draw [-t LANG] [-o FILE.svg|.png|.dot] [--run VERDICT.xml] [--max-nodes N] MODEL\n"
        "       mck list\n"
        "       mck --plugin PATH.so COMMAND ...   (load a language plugin first; repeatable)\n"
        "       mck --help | --version\n"
        "\n"
        "Checks a property of a model: deadlock (dl), reachability (reach), CTL or LTL.\n"
        "The language comes from LANG:, -t or the model's suffix; the kind from -KIND, -k,\n"
        "or the property (none: dl; a state formula: reach; a path quantifier: ctl).\n"
        "\n"
        "options of check:\n"
        "  -t, --language LANG  input language (see 'mck list')\n"
        "  -k, --kind KIND      dl, reach, ctl or ltl\n"
        "  -c, --checker NAME   checker (default: explicit)\n"
        "  -q, --quiet          print no witness or counterexample, no progress, no statistics\n"
        "  -v, --verbose        warnings and statistics on standard error, progress even when\n"
        "                       standard error is no terminal; with info, list nodes\n"
        "  -m, --max-states N   give up (UNKNOWN) after N states\n"
        "      --timeout S      give up (UNKNOWN) after S seconds\n"
        "      --mem MB         memory budget of stores, graphs and stacks (UNKNOWN when exhausted)\n"
        "      --xml FILE       also write the verdict and its run as propertiesverdict XML\n"
        "      --expect         the property file's expected answers must be there (RERS);\n"
        "                       they are compared whenever present: exit 1 on a disagreement\n"
        "      --finite-runs repeat|ignore  LTL on runs ending in a deadlock: the dead state\n"
        "                       repeats (default) or the run is ignored (default for rers)\n"
        "      --pack on|off    markings as fields of the bits their proven bounds need\n"
        "                       (default on, when every place gets a bound); off: variable-\n"
        "                       length keys, for comparisons\n"
        "      --compact on|off  fixed-width keys kept in a compact table, less the bits\n"
        "                       a slot's position tells (default on, for searches that\n"
        "                       need no graph); off: in the arena, for comparisons\n"
        "\n"
        "output: 'Result: YES.', 'Result: NO.' or 'Result: UNKNOWN (reason).', then the run\n"
        "under 'Witness:' or 'Counterexample:', then 'Time needed: T seconds'.\n"
        "exit status: 0 YES, 1 NO, 3 UNKNOWN, 2 error (message FILE:LINE: text on stderr).\n"
        "A search running over 2 s shows progress on stderr if it is a terminal (or with -v).\n"
        "SIGINT or SIGTERM stops it: UNKNOWN (interrupted), the statistics so far, exit 3.\n"
        "\n"
        "mck mcc reads DIR/model.pnml and DIR/EXAMINATION.xml (DIR: the current folder,\n"
        "EXAMINATION: $BK_EXAMINATION) and prints the contest's answer lines; the run ends\n"
        "before $BK_TIME_CONFINEMENT seconds.  'mck mcc --help' tells more.\n"
        "\n"
        "mck export --promela writes the model, and the properties of a RERS property\n"
        "file, as Promela, to cross-check mck with SPIN; 'mck export --help' tells more.\n"
        "\n"
        "mck convert writes the net read from a model in any language as APNN, PNML or\n"
        "a PEP low-level net for other tools; 'mck convert --help' tells more.\n"
        "mck draw draws the net with Graphviz, places grouped by the model's partition;\n"
        "--run overlays a run written by 'mck check --xml'.  'mck draw --help' tells more.\n",
        out);
}

static void print_kinds(FILE *out, unsigned kinds)
{
    const char *sep = "";
    for (prop_kind k = KIND_DL; k <= KIND_LTL; k++)
        if (kinds & KINDS_BIT(k)) {
            fprintf(out, "%s%s", sep, prop_kind_name(k));
            sep = ",";
        }
}

static int cmd_list(void)
{
    printf("languages:\n");
    for (size_t i = 0; i < N_INPUT_TYPES; i++)
        printf("  %-10s %-16s %s\n", input_types[i].name, input_types[i].suffixes,
               input_types[i].description);
    for (size_t i = 0; i < plugin_languages(); i++) {
        const char *from;
        const input_type *l = plugin_language(i, &from);
        printf("  %-10s %-16s %s (plugin %s)\n", l->name, l->suffixes, l->description, from);
    }
    printf("checkers:\n");
    for (size_t i = 0; i < N_CHECKERS; i++) {
        printf("  %-10s kinds ", checkers[i].name);
        print_kinds(stdout, checkers[i].kinds);
        printf("  %s\n  %-10s nets: %s\n", checkers[i].description, "", checkers[i].nets);
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* reading the model */

const input_type *choose_language(const char *lang, const char *model)
{
    if (lang) {
        const input_type *it = language_by_name(lang);
        if (!it)
            usage_error("unknown language '%s' (see 'mck list')", lang);
        return it;
    }
    const input_type *it = language_by_suffix(model);
    if (!it)
        usage_error("cannot tell the language of '%s' from its suffix; use -t LANG", model);
    return it;
}

net_t *read_model(const input_type *it, const char *path)
{
    net_t *net = it->readfunc(path);
    if (net)
        net->language = it->name;
    return net;
}

/* ------------------------------------------------------------------ */
/* info */

static void list_nodes(const net_t *net)
{
    for (size_t i = 0; i < net->nplaces; i++) {
        const nc_place *p = &net->places[i];
        printf("place %s", p->id ? p->id : "-");
        if (p->name && (!p->id || strcmp(p->name, p->id)))
            printf(" \"%s\"", p->name);
        if (p->initial)
            printf(" tokens %llu", (unsigned long long)p->initial);
        if (p->comment)
            printf("  %% %s", p->comment);
        printf("\n");
    }
    for (size_t i = 0; i < net->ntransitions; i++) {
        const nc_transition *t = &net->transitions[i];
        printf("transition %s", t->id ? t->id : "-");
        if (t->name && (!t->id || strcmp(t->name, t->id)))
            printf(" \"%s\"", t->name);
        if (t->comment)
            printf("  %% %s", t->comment);
        printf("\n");
    }
}

static int cmd_info(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"language", required_argument, NULL, 't'},
        {"verbose", no_argument, NULL, 'v'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *lang = NULL;
    int verbose = 0, c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "t:vh", longopts, NULL)) != -1) {
        switch (c) {
        case 't': lang = optarg; break;
        case 'v': verbose++; break;
        case 'h': print_help(stdout); return 0;
        default: return usage_error("%s", "bad option for info");
        }
    }
    if (optind + 1 != argc)
        return usage_error("%s", "info takes exactly one MODEL");
    nc_set_verbosity(verbose);
    const char *path = argv[optind];
    const input_type *it = choose_language(lang, path);
    if (!it)
        return EXIT_ERROR;
    net_t *net = read_model(it, path);
    if (!net)
        return EXIT_ERROR;
    nc_summary s;
    nc_summarize(net, &s);
    printf("language: %s\n", it->name);
    printf("net: %s\n", net->name);
    if (net->colored.unfolded)
        printf("colored: %zu places, %zu transitions, %zu arcs (unfolded below)\n",
               net->colored.places, net->colored.transitions, net->colored.arcs);
    printf("places: %zu\n", s.places);
    printf("transitions: %zu\n", s.transitions);
    printf("arcs: %zu (place->transition %zu, transition->place %zu, read %zu)\n", s.arcs,
           s.pt_arcs, s.tp_arcs, s.read_arcs);
    printf("initial tokens: %s%llu\n", s.tokens_saturated ? ">= " : "",
           (unsigned long long)s.tokens);
    printf("syntactically safe: %s\n", s.syntactically_safe ? "yes" : "no");
    if (net->nunits)
        printf("partition: %zu units%s\n", net->nunits,
               net->units_claim_safe ? " (the file claims the net is safe)" : "");
    else
        printf("partition: none\n");
    if (verbose)
        list_nodes(net);
    nc_free_net(net);
    return 0;
}

/* ------------------------------------------------------------------ */
/* check */

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
    int quiet, verbose;
    int expect;             /* --expect: the property file must give answers */
    int finite_runs;        /* --finite-runs: 0 the language's default, 1 repeat, 2 ignore */
} check_args;

static int run_property_list(check_args *a, const input_type *it, const checker_type *chk,
                             net_t *net, int *handled)
{
    *handled = 0;
    prop_list_reader read = property_list_reader(it);
    if (read) {
        prop_entry *v;
        size_t n;
        if (read(a->property, net, &v, &n) < 0) {
            *handled = 1;
            return EXIT_ERROR;
        }
        if (!n && !a->expect)
            return 0;   /* a plain formula file */
        *handled = 1;
        if (!n) {
            nc_error(a->property, 0, "--expect: no numbered properties with answers in this file");
            return EXIT_ERROR;
        }
        int rc = check_property_list(net, it, chk, v, n, &a->opt, a->quiet, a->verbose,
                                     a->expect, a->property, a->xml);
        prop_list_free(v, n);
        return rc;
    }
    if (a->expect)
        *handled = 1;
    return a->expect ? (nc_error(a->property, 0, "--expect: %s property files hold no expected "
                                 "answers", it->name), EXIT_ERROR) : 0;
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
    net_t *net = read_model(it, a->model);
    if (!net)
        return EXIT_ERROR;
    a->opt.ltl_infinite_only = a->finite_runs ? a->finite_runs == 2 : net->ltl_infinite_only;
    if (a->property && (kind == KIND_AUTO || kind == KIND_LTL)) {
        int handled, rc = run_property_list(a, it, chk, net, &handled);
        if (handled) {
            nc_free_net(net);
            return rc;
        }
    }
    tree_t *f = NULL;
    if (a->property) {
        f = it->formfunc(a->property, net, &kind);
        if (!f) {
            nc_free_net(net);
            return EXIT_ERROR;
        }
    } else {
        kind = KIND_DL;
    }
    int rc = EXIT_ERROR;
    char why[200] = "";
    if (!(chk->kinds & KINDS_BIT(kind))) {
        fprintf(stderr, "mck: checker %s does not support kind %s\n", chk->name,
                prop_kind_name(kind));
        goto out;
    }
    if (!chk->accepts(f, kind, why, sizeof why)) {
        fprintf(stderr, "%s: %s\n", a->property ? a->property : a->model, why);
        goto out;
    }
    const cnet_t *cn = nc_compile(net);
    if (!cn)
        goto out;
    result_t res;
    result_init(&res);
    a->opt.want_run = 1;
    chk->run(cn, f, kind, &a->opt, &res);
    if ((res.run_len || res.loop_start != RESULT_NO_LOOP) && !replay_ok(cn, &res, f, kind)) {
        fprintf(stderr, "mck: internal error: the checker's run does not replay on the net\n");
        result_clear(&res);
        goto out;
    }
    rc = report_result(stdout, net, it->outputfunc, &res, a->quiet, elapsed());
    /* a user who stopped a run wants to know how far it got */
    if (a->verbose || (interrupted && !a->quiet))
        report_statistics(stderr, &res);
    if (a->xml && write_verdict_file(a->xml, net, a->property, kind, &res) < 0)
        rc = EXIT_ERROR;
    result_clear(&res);
out:
    tree_free(f);
    nc_free_net(net);
    return rc;
}

static int cmd_check(int argc, char **argv, const char *kit_spec)
{
    enum { OPT_TIMEOUT = 256, OPT_MEM, OPT_XML, OPT_EXPECT, OPT_FINITE, OPT_PACK, OPT_COMPACT };
    static const struct option longopts[] = {
        {"language", required_argument, NULL, 't'},
        {"kind", required_argument, NULL, 'k'},
        {"checker", required_argument, NULL, 'c'},
        {"quiet", no_argument, NULL, 'q'},
        {"verbose", no_argument, NULL, 'v'},
        {"max-states", required_argument, NULL, 'm'},
        {"timeout", required_argument, NULL, OPT_TIMEOUT},
        {"mem", required_argument, NULL, OPT_MEM},
        {"xml", required_argument, NULL, OPT_XML},
        {"expect", no_argument, NULL, OPT_EXPECT},
        {"finite-runs", required_argument, NULL, OPT_FINITE},
        {"pack", required_argument, NULL, OPT_PACK},
        {"compact", required_argument, NULL, OPT_COMPACT},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    check_args a;
    memset(&a, 0, sizeof a);
    a.opt.interrupted = &interrupted;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "t:k:c:qvm:h", longopts, NULL)) != -1) {
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
        case OPT_TIMEOUT:
            if (parse_seconds(optarg, &a.opt.timeout) < 0)
                return usage_error("bad timeout '%s' (seconds)", optarg);
            break;
        case OPT_MEM:
            if (parse_megabytes(optarg, &a.opt.mem_bytes) < 0)
                return usage_error("bad memory budget '%s' (megabytes)", optarg);
            break;
        case OPT_XML: a.xml = optarg; break;
        case OPT_EXPECT: a.expect = 1; break;
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
        case 'h': print_help(stdout); return 0;
        default: return usage_error("%s", "bad option");
        }
    }
    nc_set_verbosity(a.verbose);
    a.opt.verbose = a.verbose;
    /* Progress lines are for a person watching a terminal; a log or a pipe
     * gets them only when asked for with -v. */
    a.opt.progress = !a.quiet && (a.verbose || isatty(STDERR_FILENO));

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
    if (!chk)
        chk = &checkers[0];
    if (a.kind) {
        kind = prop_kind_from_name(a.kind);
        if (kind == KIND_AUTO)
            return usage_error("unknown kind '%s' (dl, reach, ctl, ltl)", a.kind);
    }
    return run_check(&a, chk, kind);
}

/* ------------------------------------------------------------------ */

int main(int argc, char **argv)
{
    clock_gettime(CLOCK_MONOTONIC, &start_time);
    catch_stop_signals();
    if (argc < 2) {
        print_help(stderr);
        return EXIT_ERROR;
    }
    /* --plugin PATH (repeatable) comes before the command; a plugin that
     * cannot be loaded is an error.  The plugin folders are searched for
     * every command but mcc (the contest gets exactly the built-in mck);
     * a broken plugin there is reported and skipped. */
    plugin_set_name_check(builtin_name_taken);
    while (argc > 2 && !strcmp(argv[1], "--plugin")) {
        if (plugin_load(argv[2]) < 0)
            return EXIT_ERROR;
        argc -= 2;
        argv += 2;
    }
    if (argc == 2 && !strcmp(argv[1], "--plugin"))
        return usage_error("%s", "--plugin needs a shared object (PATH.so) and a command");
    if (argc < 2) {
        print_help(stderr);
        return EXIT_ERROR;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "mcc"))
        (void)plugin_load_defaults(MCK_PLUGIN_DIR);
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        print_help(stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version")) {
        printf("mck %s\n", MCK_VERSION);
        return 0;
    }
    if (!strcmp(cmd, "list"))
        return cmd_list();
    if (!strcmp(cmd, "info"))
        return cmd_info(argc - 1, argv + 1);
    if (!strcmp(cmd, "check"))
        return cmd_check(argc - 1, argv + 1, NULL);
    if (!strcmp(cmd, "mcc"))
        return mcc_main(argc - 1, argv + 1, &interrupted);
    if (!strcmp(cmd, "properties"))
        return properties_main(argc - 1, argv + 1, &interrupted);
    if (!strcmp(cmd, "verdicts"))
        return verdicts_main(argc - 1, argv + 1);
    if (!strcmp(cmd, "export"))
        return export_main(argc - 1, argv + 1);
    if (!strcmp(cmd, "convert"))
        return convert_main(argc - 1, argv + 1);
    if (!strcmp(cmd, "draw"))
        return draw_main(argc - 1, argv + 1);
    if (strchr(cmd, ':'))
        return cmd_check(argc - 1, argv + 1, cmd);
    return usage_error("unknown command '%s'", cmd);
}
