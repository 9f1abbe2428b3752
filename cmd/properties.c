/* `mck properties MODEL`: the generic properties of a model
 * (checkers/generic/generic.h) as a propertiesverdict file, one verdict per
 * property in category GENERIC, as the MCC writes them, with mck's
 * explanation, techniques and, where one shows the value, the run. */
#include "checkers/generic/generic.h"
#include "cmd/commands.h"
#include "cmd/language.h"
#include "cmd/options.h"
#include "verdicts/verdicts.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out,
            "usage: mck properties [-t LANG] [-o FILE] [--timeout S] [--mem MB] [-v] MODEL\n"
            "  The MCC's generic properties of the model (ORDINARY ... LIVE, and QUASI_LIVE)\n"
            "  as propertiesverdict XML, on standard output or in FILE.  Behavioural ones\n"
            "  that a limit leaves open are 'unknown', with the reason.\n");
}

static int add(verdictset_t *vs, const net_t *net, gp_id id, const gp_value *v)
{
    result_t res;
    result_init(&res);
    res.answer = v->value < 0 ? ANSWER_UNKNOWN : v->value ? ANSWER_YES : ANSWER_NO;
    snprintf(res.techniques, sizeof res.techniques, "%s", v->techniques);
    if (v->role != RUN_NONE &&
        result_set_run(&res, v->role, v->run, v->run_len, v->loop_start) < 0)
        return -1;
    verdict_t *vd = vs_add_result(vs, "GENERIC", gp_name(id), net, &res);
    result_clear(&res);
    return vd && vd_set_explanation(vd, v->explanation) == 0 ? 0 : -1;
}

int properties_main(int argc, char **argv, budget_t *budget)
{
    enum { OPT_TIMEOUT = 256, OPT_MEM };
    static const struct option longopts[] = {
        {"language", required_argument, NULL, 't'},
        {"output", required_argument, NULL, 'o'},
        {"timeout", required_argument, NULL, OPT_TIMEOUT},
        {"mem", required_argument, NULL, OPT_MEM},
        {"verbose", no_argument, NULL, 'v'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *lang = NULL, *output = NULL;
    check_options opt;
    memset(&opt, 0, sizeof opt);
    double seconds = 0;
    size_t bytes = 0;
    int c, verbose = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "t:o:vh", longopts, NULL)) != -1) {
        switch (c) {
        case 't': lang = optarg; break;
        case 'o': output = optarg; break;
        case 'v': verbose++; break;
        case 'h': usage(stdout); return 0;
        case OPT_TIMEOUT:
            if (parse_seconds(optarg, &seconds) < 0) {
                fprintf(stderr, "mck properties: bad --timeout '%s'\n", optarg);
                return 2;
            }
            break;
        case OPT_MEM:
            if (parse_megabytes(optarg, &bytes) < 0) {
                fprintf(stderr, "mck properties: bad --mem '%s'\n", optarg);
                return 2;
            }
            break;
        default:
            usage(stderr);
            return 2;
        }
    }
    if (optind + 1 != argc) {
        usage(stderr);
        return 2;
    }
    nc_set_verbosity(verbose);
    opt.progress = verbose > 0;
    budget_set_limits(budget, seconds, bytes, verbose ? stderr : NULL);
    if (verbose)
        budget_report(budget, stderr);
    /* --timeout, --mem and the signals hold from here (budget.h) */
    budget_lend(budget);
    net_t *net = load_model(lang, argv[optind], NULL);
    budget_stage("compiling");
    const cnet_t *cn = net ? nc_compile(net) : NULL;
    if (budget_return(budget, cn != NULL)) {
        fprintf(stderr, "mck properties: %s: %s: no properties\n", argv[optind],
                budget_stop_reason());
        nc_free_net(net);
        return 3;
    }
    if (!cn) {
        nc_free_net(net);
        return 2;
    }
    verdictset_t *vs = vs_create(net->name);
    int rc = 2;
    if (vs) {
        gp_result r;
        /* the run's clock: reading and exploring end within --timeout */
        opt.budget = budget;
        generic_properties(cn, &opt, &r);
        int ok = 1;
        for (int i = 0; i < GP_COUNT && ok; i++)
            ok = add(vs, net, (gp_id)i, &r.v[i]) == 0;
        if (verbose)
            fprintf(stderr, "mck properties: %llu markings explored%s\n",
                    (unsigned long long)r.states, r.complete ? " (all)" : "");
        gp_result_clear(&r);
        if (!ok)
            nc_error(argv[optind], 0, "out of memory");
        else if (output ? vs_write_file(vs, output) == 0 : vs_write(vs, stdout, "stdout") == 0)
            rc = 0;
    }
    vs_free(vs);
    nc_free_net(net);
    return rc;
}
