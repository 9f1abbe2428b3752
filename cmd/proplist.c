/* `mck check` on a file of several properties (proplist.h): each property
 * is checked on the one compiled net, printed as its own result block
 * with the file's expected answer beside mck's where it gives one, and
 * the run ends with a summary line.  The point of the expected answers is
 * to be told loudly when mck disagrees with a published solution. */
#include "cmd/proplist.h"
#include "cmd/checkerrun.h"
#include "cmd/report.h"
#include "base/clock.h"
#include "checkers/unfold.h"
#include "input/namedprops.h"
#include "verdicts/verdicts.h"

#include <stdlib.h>
#include <string.h>

/* Languages whose property files may hold several properties. */
static const struct {
    const char *lang;
    prop_list_reader read;
} property_lists[] = {
    {"rers", rers_property_lists},
    {"pnml", netlang_named_properties},
    {"pep", netlang_named_properties},
    {"senil", netlang_named_properties},
    {"apnn", netlang_named_properties},
    {"cfa", cfa_named_properties},
    {"bpn2", bpn2_named_properties},
};

prop_list_reader property_list_reader(const input_type *language)
{
    for (size_t i = 0; i < sizeof property_lists / sizeof property_lists[0]; i++)
        if (!strcmp(property_lists[i].lang, language->name))
            return property_lists[i].read;
    return NULL;
}

void check_items_free(check_item *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(v[i].name);
        tree_free(v[i].formula);
    }
    free(v);
}

int check_items_from_entries(prop_entry *v, size_t n, check_item **out)
{
    check_item *items = calloc(n ? n : 1, sizeof *items);
    if (!items) {
        prop_list_free(v, n);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        items[i].name = v[i].name;
        items[i].line = v[i].line;
        items[i].formula = v[i].formula;
        items[i].kind = v[i].kind;
        items[i].expected = v[i].expected;
        v[i].name = NULL;
        v[i].formula = NULL;
    }
    prop_list_free(v, n);
    *out = items;
    return 0;
}

/* Why the checker cannot take the item (written into its why), or 0. */
static int refused(const list_run *lr, check_item *p)
{
    if (p->why[0])
        return 1;
    if (!(lr->chk->kinds & KINDS_BIT(p->kind))) {
        snprintf(p->why, sizeof p->why, "checker %s does not support kind %s", lr->chk->name,
                 prop_kind_name(p->kind));
        return 1;
    }
    char why[200] = "";
    if (!lr->chk->accepts(p->formula, p->kind, why, sizeof why)) {
        snprintf(p->why, sizeof p->why, "%s", why[0] ? why : "the checker refuses it");
        return 1;
    }
    return 0;
}

/* The question was the opposite one: so are the answer and the run. */
static void turn_around(result_t *res)
{
    if (res->answer == ANSWER_YES)
        res->answer = ANSWER_NO;
    else if (res->answer == ANSWER_NO)
        res->answer = ANSWER_YES;
    if (res->role == RUN_WITNESS)
        res->role = RUN_COUNTEREXAMPLE;
    else if (res->role == RUN_COUNTEREXAMPLE)
        res->role = RUN_WITNESS;
}

typedef struct tally {
    json_tally t;
    int compare;   /* the file gives expected answers */
} tally;

static void count(tally *c, const check_item *p, const result_t *res)
{
    if (res->answer == ANSWER_UNKNOWN)
        c->t.unknown++;
    else if (res->answer == ANSWER_YES)
        c->t.yes++;
    else
        c->t.no++;
    if (p->expected >= 0 && res->answer != ANSWER_UNKNOWN) {
        c->t.expected++;
        (res->answer == ANSWER_YES) == (p->expected == 1) ? c->t.agree++ : c->t.disagree++;
    }
}

static int exit_status(const tally *c)
{
    if (c->t.errors)
        return 2;
    if (c->compare)
        return c->t.disagree ? 1 : c->t.unknown ? 3 : 0;
    return c->t.unknown ? 3 : c->t.no ? 1 : 0;
}

static void print_text(const list_run *lr, net_t *net, const check_item *p, const result_t *res,
                       double seconds)
{
    printf("Property %s: ", p->name);
    report_result(stdout, net, lr->it->outputfunc, res, lr->quiet, seconds);
    if (p->expected >= 0)
        printf("Expected: %s%s\n", p->expected ? "YES" : "NO",
               res->answer == ANSWER_UNKNOWN ? "" :
               (res->answer == ANSWER_YES) == (p->expected == 1) ? " (agrees)"
                                                                 : " (DISAGREES)");
}

static void print_summary(const list_run *lr, const tally *c)
{
    if (lr->json) {
        json_check_summary(lr->json, lr->path, &c->t);
        return;
    }
    printf("Properties: %zu checked, %zu unknown", c->t.properties - c->t.errors, c->t.unknown);
    if (!c->compare)
        printf("; %zu YES, %zu NO", c->t.yes, c->t.no);
    if (c->t.errors)
        printf("; %zu not checked (errors)", c->t.errors);
    if (c->t.expected)
        printf("; of %zu with an expected answer, %zu agree, %zu disagree", c->t.expected,
               c->t.agree, c->t.disagree);
    printf("\nTime needed: %.2f seconds\n", c->t.seconds);
}

/* Checks one property; -1 on an internal error that ends the list. */
static int check_one(const list_run *lr, net_t *net, const cnet_t *cn, check_item *p,
                     verdictset_t *vs, tally *c)
{
    json_about about = { p->name, p->kind, p->expected };
    if (refused(lr, p)) {
        nc_error(lr->path, p->line, "property %s: %s", p->name, p->why);
        if (lr->json)
            json_check_refused(lr->json, &about, p->why);
        else
            printf("Property %s: not checked: %s\n", p->name, p->why);
        c->t.errors++;
        return 0;
    }
    check_options *opt = lr->opt;
    result_t res;
    result_init(&res);
    opt->want_run = !lr->quiet || lr->xml;
    double t0 = mono_now();
    /* every property gets the whole --timeout, as it would alone */
    const budget_t *run = opt->budget;
    budget_t question = budget_restart(run);
    opt->budget = &question;
    checker_run(lr->chk, cn, p->formula, p->kind, opt, &res);
    opt->budget = run;
    if (res.role != RUN_NONE && !replay_ok(cn, &res, p->formula, p->kind)) {
        fprintf(stderr, "mck: internal error: the checker's run does not replay on the net\n");
        result_clear(&res);
        return -1;
    }
    if (p->negated)
        turn_around(&res);
    count(c, p, &res);
    if (lr->json)
        json_check_result(lr->json, &about, net, lr->it->outputfunc, &res, lr->quiet,
                          mono_now() - t0);
    else
        print_text(lr, net, p, &res, mono_now() - t0);
    if (lr->verbose)
        report_statistics(stderr, &res);
    const char *category = p->category[0] ? p->category : prop_kind_name(p->kind);
    int rc = vs && !vs_add_result(vs, category, p->name, net, &res) ? -1 : 0;
    result_clear(&res);
    fflush(stdout);
    return rc;
}

int check_property_list(net_t *net, check_item *items, size_t n, const list_run *lr)
{
    tally c;
    memset(&c, 0, sizeof c);
    c.t.properties = n;
    for (size_t i = 0; i < n; i++) {
        c.compare |= items[i].expected >= 0;
        if (lr->require_expected && items[i].expected < 0) {
            nc_error(lr->path, items[i].line, "--expect: property %s has no expected answer",
                     items[i].name);
            return 2;
        }
    }
    const cnet_t *cn = nc_compile(net);
    if (!cn)
        return 2;
    verdictset_t *vs = lr->xml ? vs_create(net->name) : NULL;
    if (lr->xml && !vs) {
        nc_error(lr->xml, 0, "out of memory");
        return 2;
    }
    double start = mono_now();
    /* one prefix for every property of the list */
    if (lr->chk->run == unfold_run)
        unfold_keep(cn);
    for (size_t i = 0; i < n; i++)
        if (check_one(lr, net, cn, &items[i], vs, &c) < 0) {
            unfold_keep(NULL);
            vs_free(vs);
            return 2;
        }
    unfold_keep(NULL);
    c.t.seconds = mono_now() - start;
    c.t.exit_status = exit_status(&c);
    int rc = c.t.exit_status;
    if (vs && vs_write_file(vs, lr->xml) < 0)
        rc = c.t.exit_status = 2;
    print_summary(lr, &c);
    vs_free(vs);
    return rc;
}
