/* A net as APNN (apnn-format.md), in the shape of apnn-format.md §1:
 * \place{ID}{\name{..} \init{n}}, \transition,
 * numbered arcs \arc{aK}{\from{..} \to{..} \weight{n}}.  Read arcs become
 * self-loops (APNN's P/T part has none, §3). */
#include "writers/writers.h"

#include <stdlib.h>
#include <string.h>

/* §2: no blanks, braces, backslashes or comment signs in an identifier. */
static int apnn_id_ok(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (strchr(" \t\r\n\f{}\\%", *s) || (unsigned char)*s < 32)
            return 0;
    return 1;
}

/* A \name is any text with balanced braces, but % would start a comment and
 * a backslash a command; such names are left out (the id still names the
 * node). */
static int apnn_name_ok(const char *s)
{
    long depth = 0;
    for (; *s; s++) {
        if (*s == '%' || *s == '\\' || (unsigned char)*s < 32)
            return 0;
        if (*s == '{')
            depth++;
        if (*s == '}' && --depth < 0)
            return 0;
    }
    return depth == 0;
}

static void put_name(FILE *out, const char *name, const char *id, const char *path)
{
    if (!name || !*name || !strcmp(name, id))
        return;
    if (apnn_name_ok(name))
        fprintf(out, "\\name{%s}", name);
    else
        nc_warning(path, 0, "%s: the name '%s' cannot be written in APNN (%%, \\ or unbalanced "
                   "braces); left out", id, name);
}

int write_apnn(FILE *out, const net_t *net, const char *path)
{
    wr_arc *arcs;
    size_t narcs;
    char **ids = wr_node_ids(net, apnn_id_ok, path);
    if (!ids)
        return -1;
    if (wr_collect_arcs(net, 0, path, &arcs, &narcs) < 0) {
        wr_free_ids(ids, net);
        return -1;
    }
    const char *netname = net->name && apnn_id_ok(net->name) ? net->name : "net";
    fprintf(out, "%% written by mck convert from %s (%s)\n",
             net->file && apnn_name_ok(net->file) ? net->file : "a model",
             net->language ? net->language : "net");
    fprintf(out, "\\beginnet{%s}\n", netname);
    for (size_t i = 0; i < net->nplaces; i++) {
        const nc_place *p = &net->places[i];
        fprintf(out, "  \\place{%s}{", ids[i]);
        put_name(out, wr_label(p->name, p->id), ids[i], path);
        if (p->initial)
            fprintf(out, " \\init{%llu}", (unsigned long long)p->initial);
        fputs("}\n", out);
    }
    for (size_t i = 0; i < net->ntransitions; i++) {
        const nc_transition *t = &net->transitions[i];
        fprintf(out, "  \\transition{%s}{", ids[net->nplaces + i]);
        put_name(out, wr_label(t->name, t->id), ids[net->nplaces + i], path);
        fputs("}\n", out);
    }
    unsigned long long k = 0;
    for (size_t i = 0; i < narcs; i++) {
        const wr_arc *a = &arcs[i];
        const char *p = ids[a->place], *t = ids[net->nplaces + a->transition];
        if (a->pt) {
            fprintf(out, "  \\arc{a%llu}{\\from{%s} \\to{%s}", ++k, p, t);
            if (a->pt != 1)
                fprintf(out, " \\weight{%llu}", (unsigned long long)a->pt);
            fputs("}\n", out);
        }
        if (a->tp) {
            fprintf(out, "  \\arc{a%llu}{\\from{%s} \\to{%s}", ++k, t, p);
            if (a->tp != 1)
                fprintf(out, " \\weight{%llu}", (unsigned long long)a->tp);
            fputs("}\n", out);
        }
    }
    fputs("\\endnet\n", out);
    free(arcs);
    wr_free_ids(ids, net);
    return 0;
}
