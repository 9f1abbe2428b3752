/* A net as PNML (ISO/IEC 15909-2, the P/T net type the MCC uses), for
 * PNML tools and for mck's own reader: one page, places with names and
 * initial markings, transitions, arcs with inscriptions above 1.  Read arcs
 * become self-loops (P/T PNML has none). */
#include "writers/writers.h"

#include <stdlib.h>
#include <string.h>

/* XML's NCName, ASCII part: what every PNML tool takes as an id. */
static int pnml_id_ok(const char *s)
{
    if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || *s == '_'))
        return 0;
    for (s++; *s; s++)
        if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
              *s == '_' || *s == '-' || *s == '.'))
            return 0;
    return 1;
}

/* Text content with the five XML specials escaped; control characters XML
 * 1.0 forbids become '?'. */
static void put_text(FILE *out, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '&')
            fputs("&amp;", out);
        else if (c == '<')
            fputs("&lt;", out);
        else if (c == '>')
            fputs("&gt;", out);
        else if (c == '"')
            fputs("&quot;", out);
        else if (c < 32 && c != '\t' && c != '\n')
            fputc('?', out);
        else
            fputc(c, out);
    }
}

static void put_name(FILE *out, const char *name)
{
    if (!name || !*name)
        return;
    fputs("<name><text>", out);
    put_text(out, name);
    fputs("</text></name>", out);
}

/* A prefix for arc ids that starts no node id: "arc" and one more '_'
 * than any node id has right after its own "arc".  So "<prefix>K" never
 * repeats a node's id (XML ids are document-wide). */
static char *arc_prefix(const net_t *net, char **ids, const char *path)
{
    size_t n = net->nplaces + net->ntransitions, most = 0;
    for (size_t i = 0; i < n; i++)
        if (!strncmp(ids[i], "arc", 3)) {
            size_t u = strspn(ids[i] + 3, "_");
            most = u > most ? u : most;
        }
    char *prefix = malloc(most + 5);
    if (!prefix) {
        nc_error(path, 0, "out of memory");
        return NULL;
    }
    memcpy(prefix, "arc", 3);
    memset(prefix + 3, '_', most + 1);
    prefix[most + 4] = '\0';
    return prefix;
}

static void put_arc(FILE *out, const char *prefix, unsigned long long k, const char *src,
                    const char *tgt, nc_count w)
{
    fprintf(out, "      <arc id=\"%s%llu\" source=\"%s\" target=\"%s\">", prefix, k, src, tgt);
    if (w != 1)
        fprintf(out, "<inscription><text>%llu</text></inscription>", (unsigned long long)w);
    fputs("</arc>\n", out);
}

int write_pnml(FILE *out, const net_t *net, const char *path)
{
    wr_arc *arcs = NULL;
    size_t narcs;
    char **ids = wr_node_ids(net, pnml_id_ok, path);
    char *prefix = ids ? arc_prefix(net, ids, path) : NULL;
    if (!prefix || wr_collect_arcs(net, 0, path, &arcs, &narcs) < 0) {
        free(prefix);
        wr_free_ids(ids, net);
        return -1;
    }
    const char *netid = net->name && pnml_id_ok(net->name) ? net->name : "net";
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          "<pnml xmlns=\"http://www.pnml.org/version-2009/grammar/pnml\">\n", out);
    fprintf(out, "  <net id=\"%s\" type=\"http://www.pnml.org/version-2009/grammar/ptnet\">\n",
            netid);
    fputs("    ", out);
    put_name(out, net->name);
    fputs("\n    <page id=\"page\">\n", out);
    for (size_t i = 0; i < net->nplaces; i++) {
        const nc_place *p = &net->places[i];
        fprintf(out, "      <place id=\"%s\">", ids[i]);
        put_name(out, wr_label(p->name, p->id));
        if (p->initial)
            fprintf(out, "<initialMarking><text>%llu</text></initialMarking>",
                    (unsigned long long)p->initial);
        fputs("</place>\n", out);
    }
    for (size_t i = 0; i < net->ntransitions; i++) {
        const nc_transition *t = &net->transitions[i];
        fprintf(out, "      <transition id=\"%s\">", ids[net->nplaces + i]);
        put_name(out, wr_label(t->name, t->id));
        fputs("</transition>\n", out);
    }
    unsigned long long k = 0;
    for (size_t i = 0; i < narcs; i++) {
        const wr_arc *a = &arcs[i];
        const char *p = ids[a->place], *t = ids[net->nplaces + a->transition];
        if (a->pt)
            put_arc(out, prefix, ++k, p, t, a->pt);
        if (a->tp)
            put_arc(out, prefix, ++k, t, p, a->tp);
    }
    fputs("    </page>\n  </net>\n</pnml>\n", out);
    free(arcs);
    free(prefix);
    wr_free_ids(ids, net);
    return 0;
}
