/* Runs of the plain net languages, printed as kit-overview.md §6.3 says:
 * states as marked places, steps as transition names. */
#include "input/input.h"

static const char *transition_label(const net_t *net, uint32_t t)
{
    const nc_transition *tr = &net->transitions[t];
    return tr->name ? tr->name : tr->id;
}

/* How a plain net's run reads: show_ids, also the id where it differs
 * from the name (PNML ids are what MCC formulas name; PEP ids are mere
 * numbers); only the first nshown places in states, the others being the
 * reader's own construction (APNN capacity complements), not part of the
 * user's net. */
typedef struct net_words {
    const net_t *net;
    int show_ids;
    size_t nshown;
} net_words;

static void print_state(const run_words *w, const nc_count *m, const char *what)
{
    const net_words *nw = w->lang;
    const net_t *net = nw->net;
    fprintf(w->out, "*** %s: ", what);
    if (nw->nshown >= net->nplaces) {
        nc_print_marking(w->out, net, m);
    } else {
        int any = 0;
        for (size_t p = 0; p < nw->nshown; p++) {
            if (!m[p])
                continue;
            const nc_place *pl = &net->places[p];
            fprintf(w->out, "%s%s", any ? ", " : "", pl->name ? pl->name : pl->id);
            if (m[p] > 1)
                fprintf(w->out, "(%llu)", (unsigned long long)m[p]);
            any = 1;
        }
        if (!any)
            fputs("(empty)", w->out);
    }
    fputs(" ***\n", w->out);
}

static int print_step(const run_words *w, size_t i, uint32_t t, const nc_count *before,
                      const nc_count *after)
{
    const net_words *nw = w->lang;
    const nc_transition *tr = &nw->net->transitions[t];
    (void)i;
    (void)before;
    (void)after;
    if (nw->show_ids && tr->id && tr->name && strcmp(tr->id, tr->name) != 0)
        fprintf(w->out, "%s (%s)\n", tr->name, tr->id);
    else
        fprintf(w->out, "%s\n", transition_label(nw->net, t));
    return 0;
}

static void print_run(FILE *out, net_t *net, const result_t *res, int show_ids, size_t nshown)
{
    net_words nw = { net, show_ids, nshown };
    const run_words w = { out, &nw, print_state, print_step, NULL };
    print_run_words(net, res, &w);
}

void netlang_output(FILE *out, net_t *net, const result_t *res)
{
    print_run(out, net, res, 0, net->nplaces);
}

void pnml_output(FILE *out, net_t *net, const result_t *res)
{
    print_run(out, net, res, 1, net->nplaces);
}

void netlang_output_places(FILE *out, net_t *net, const result_t *res, size_t nshown)
{
    print_run(out, net, res, 0, nshown);
}
