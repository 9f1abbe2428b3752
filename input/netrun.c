/* Runs of the plain net languages, printed as kit-overview.md §6.3 says:
 * states as marked places, steps as transition names. */
#include "input/input.h"

#include <stdlib.h>

static const char *transition_label(const net_t *net, uint32_t t)
{
    const nc_transition *tr = &net->transitions[t];
    return tr->name ? tr->name : tr->id;
}

/* Only the first nshown places: the others are the reader's own
 * construction (APNN capacity complements), not part of the user's net. */
static void print_state(FILE *out, const net_t *net, const nc_count *m, const char *what,
                        size_t nshown)
{
    fprintf(out, "*** %s: ", what);
    if (nshown >= net->nplaces) {
        nc_print_marking(out, net, m);
    } else {
        int any = 0;
        for (size_t p = 0; p < nshown; p++) {
            if (!m[p])
                continue;
            const nc_place *pl = &net->places[p];
            fprintf(out, "%s%s", any ? ", " : "", pl->name ? pl->name : pl->id);
            if (m[p] > 1)
                fprintf(out, "(%llu)", (unsigned long long)m[p]);
            any = 1;
        }
        if (!any)
            fputs("(empty)", out);
    }
    fputs(" ***\n", out);
}

/* show_ids: also print the id where it differs from the name (PNML ids are
 * what MCC formulas name; PEP ids are mere numbers). */
static void print_run(FILE *out, net_t *net, const result_t *res, int show_ids, size_t nshown)
{
    const cnet_t *cn = nc_compile(net);
    if (!cn)
        return;
    nc_count *m = malloc((cn->nplaces ? cn->nplaces : 1) * sizeof *m);
    if (!m)
        return;
    for (uint32_t p = 0; p < cn->nplaces; p++)
        m[p] = cn->initial[p];
    print_state(out, net, m, "initial state", nshown);
    for (size_t i = 0; i < res->run_len; i++) {
        uint32_t t = res->run[i];
        if (i == res->loop_start)
            fputs("*** loop starts here ***\n", out);
        const nc_transition *tr = &net->transitions[t];
        if (show_ids && tr->id && tr->name && strcmp(tr->id, tr->name) != 0)
            fprintf(out, "%s (%s)\n", tr->name, tr->id);
        else
            fprintf(out, "%s\n", transition_label(net, t));
        if (t >= cn->ntransitions || !cn_enabled(cn, m, t) || cn_fire(cn, m, t) < 0)
            break;   /* cmd/check.c replays every run before printing; not reached */
    }
    if (res->loop_start == RESULT_NO_LOOP) {
        print_state(out, net, m, "final state", nshown);
    } else if (res->loop_start >= res->run_len) {
        print_state(out, net, m, "final state", nshown);
        fputs("*** run ends in a deadlock ***\n", out);
    } else {
        fputs("*** loop ends here ***\n", out);
    }
    free(m);
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
