/* A net as a PEP low-level net (.ll_net), exactly as pep-format.md §12
 * says mck writes one: header PEP/PTNet/FORMAT_N2, places and transitions
 * numbered 1.. in mck's order (PEP readers order nodes by number, so the
 * order survives), names quoted, M<k> for a marked place, then TP, PT and
 * RA with w<k> for weights other than 1.  PEP has read arcs, so they stay,
 * except next to a consumption arc of the same pair (§8.2: readers drop
 * that read arc, which would change the net when it weighs more). */
#include "writers/writers.h"

#include <stdlib.h>
#include <string.h>

/* '"name"', or "'name'" when it holds '"'; -1 when it holds both or a line
 * end (an entry is one line, §5). */
static int put_name(FILE *out, const char *name, const char *what, size_t k, const char *path)
{
    if (strchr(name, '\n') || strchr(name, '\r') || (strchr(name, '"') && strchr(name, '\''))) {
        nc_error(path, 0, "%s %zu: the name '%s' cannot be written in PEP (both quote "
                 "characters or a line end)", what, k, name);
        return -1;
    }
    char q = strchr(name, '"') ? '\'' : '"';
    fprintf(out, "%c%s%c", q, name, q);
    return 0;
}

static void put_weight(FILE *out, nc_count w)
{
    if (w != 1)
        fprintf(out, "w%llu", (unsigned long long)w);
    fputc('\n', out);
}

int write_pep(FILE *out, const net_t *net, const char *path)
{
    wr_arc *arcs;
    size_t narcs;
    if (wr_collect_arcs(net, 1, path, &arcs, &narcs) < 0)
        return -1;
    int rc = 0;
    fputs("PEP\nPTNet\nFORMAT_N2\nPL\n", out);
    for (size_t i = 0; rc == 0 && i < net->nplaces; i++) {
        const nc_place *p = &net->places[i];
        fprintf(out, "%zu", i + 1);
        const char *name = wr_label(p->name, p->id);
        if (name)
            rc = put_name(out, name, "place", i + 1, path);
        if (p->initial)
            fprintf(out, "M%llu", (unsigned long long)p->initial);
        fputc('\n', out);
    }
    if (rc == 0)
        fputs("TR\n", out);
    for (size_t i = 0; rc == 0 && i < net->ntransitions; i++) {
        const nc_transition *t = &net->transitions[i];
        fprintf(out, "%zu", i + 1);
        const char *name = wr_label(t->name, t->id);
        if (name)
            rc = put_name(out, name, "transition", i + 1, path);
        fputc('\n', out);
    }
    if (rc == 0) {
        fputs("TP\n", out);
        for (size_t i = 0; i < narcs; i++)
            if (arcs[i].tp) {
                fprintf(out, "%u<%u", arcs[i].transition + 1, arcs[i].place + 1);
                put_weight(out, arcs[i].tp);
            }
        fputs("PT\n", out);
        for (size_t i = 0; i < narcs; i++)
            if (arcs[i].pt) {
                fprintf(out, "%u>%u", arcs[i].place + 1, arcs[i].transition + 1);
                put_weight(out, arcs[i].pt);
            }
        int any = 0;
        for (size_t i = 0; i < narcs; i++)
            if (arcs[i].read) {
                if (!any++)
                    fputs("RA\n", out);
                fprintf(out, "%u<%u", arcs[i].transition + 1, arcs[i].place + 1);
                put_weight(out, arcs[i].read);
            }
    }
    free(arcs);
    return rc;
}
