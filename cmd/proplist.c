/* `mck check` on a file of several properties (RERS, rers-format.md §4):
 * each property is checked on the one compiled net, printed as its own
 * result block with the file's expected answer beside mck's, and the run
 * ends with a summary line.  The point of the expected answers is to be
 * told loudly when mck disagrees with a published solution. */
#include "cmd/proplist.h"
#include "cmd/report.h"
#include "base/clock.h"
#include "input/input.h"
#include "verdicts/verdicts.h"

#include <string.h>

/* Languages whose property files may hold several numbered properties. */
static const struct {
    const char *lang;
    prop_list_reader read;
} property_lists[] = {
    {"rers", rers_properties},
};

prop_list_reader property_list_reader(const input_type *language)
{
    for (size_t i = 0; i < sizeof property_lists / sizeof property_lists[0]; i++)
        if (!strcmp(property_lists[i].lang, language->name))
            return property_lists[i].read;
    return NULL;
}

int check_property_list(net_t *net, const input_type *it, const checker_type *chk,
                        prop_entry *props, size_t n, check_options *opt, int quiet,
                        int verbose, int require_expected, const char *path, const char *xml)
{
    if (require_expected)
        for (size_t i = 0; i < n; i++)
            if (props[i].expected < 0) {
                nc_error(path, props[i].line, "--expect: property %s has no expected answer",
                         props[i].name);
                return 2;
            }
    const cnet_t *cn = nc_compile(net);
    if (!cn)
        return 2;
    verdictset_t *vs = xml ? vs_create(net->name) : NULL;
    if (xml && !vs) {
        nc_error(xml, 0, "out of memory");
        return 2;
    }
    size_t agree = 0, disagree = 0, unknown = 0, expected = 0;
    double start = mono_now();
    for (size_t i = 0; i < n; i++) {
        prop_entry *p = &props[i];
        char why[200] = "";
        if (!(chk->kinds & KINDS_BIT(p->kind)) || !chk->accepts(p->formula, p->kind, why, sizeof why)) {
            nc_error(path, p->line, "property %s: %s", p->name,
                     why[0] ? why : "the checker does not support this kind");
            vs_free(vs);
            return 2;
        }
        result_t res;
        result_init(&res);
        opt->want_run = !quiet || xml;
        double t0 = mono_now();
        /* every property gets the whole --timeout, as it would alone */
        const budget_t *run = opt->budget;
        budget_t question = budget_restart(run);
        opt->budget = &question;
        chk->run(cn, p->formula, p->kind, opt, &res);
        opt->budget = run;
        if (res.role != RUN_NONE && !replay_ok(cn, &res, p->formula, p->kind)) {
            fprintf(stderr, "mck: internal error: the checker's run does not replay on the net\n");
            result_clear(&res);
            vs_free(vs);
            return 2;
        }
        printf("Property %s: ", p->name);
        if (res.answer == ANSWER_UNKNOWN)
            unknown++;
        if (p->expected >= 0 && res.answer != ANSWER_UNKNOWN) {
            expected++;
            int same = (res.answer == ANSWER_YES) == (p->expected == 1);
            same ? agree++ : disagree++;
        }
        report_result(stdout, net, it->outputfunc, &res, quiet, mono_now() - t0);
        if (p->expected >= 0)
            printf("Expected: %s%s\n", p->expected ? "YES" : "NO",
                   res.answer == ANSWER_UNKNOWN ? "" :
                   (res.answer == ANSWER_YES) == (p->expected == 1) ? " (agrees)"
                                                                    : " (DISAGREES)");
        if (verbose)
            report_statistics(stderr, &res);
        if (vs && !vs_add_result(vs, prop_kind_name(p->kind), p->name, net, &res)) {
            result_clear(&res);
            vs_free(vs);
            return 2;
        }
        result_clear(&res);
        fflush(stdout);
    }
    printf("Properties: %zu checked, %zu unknown", n, unknown);
    if (expected)
        printf("; of %zu with an expected answer, %zu agree, %zu disagree", expected, agree,
               disagree);
    printf("\nTime needed: %.2f seconds\n", mono_now() - start);
    int rc = disagree ? 1 : unknown ? 3 : 0;
    if (vs && vs_write_file(vs, xml) < 0)
        rc = 2;
    vs_free(vs);
    return rc;
}
