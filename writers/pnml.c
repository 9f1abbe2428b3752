/* A net as PNML (ISO/IEC 15909-2, the P/T net type the MCC uses), for
 * PNML tools and for mck's own reader: one page, places with names and
 * initial markings, transitions, arcs with inscriptions above 1.  Read arcs
 * become self-loops (P/T PNML has none).  A name is written so that it
 * reads back as it is, or refused. */
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

/* The code point of the UTF-8 sequence at s and its length in *len, or -1
 * (with *len 1) where s holds no well-formed sequence: a stray or missing
 * continuation byte, an overlong form, a surrogate, beyond U+10FFFF. */
static long utf8_at(const unsigned char *s, size_t *len)
{
    *len = 1;
    if (s[0] < 0x80)
        return s[0];
    size_t n = s[0] >= 0xF0 ? 4 : s[0] >= 0xE0 ? 3 : s[0] >= 0xC0 ? 2 : 0;
    if (!n || s[0] > 0xF4)
        return -1;
    long c = s[0] & (0x3F >> (n - 1));
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return -1;
        c = (c << 6) | (s[i] & 0x3F);
    }
    static const long least[] = { 0, 0, 0x80, 0x800, 0x10000 };
    if (c < least[n] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
        return -1;
    *len = n;
    return c;
}

static int xml_space(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Why the text s cannot be a PNML name that reads back as itself, in why
 * (0 when it can): XML 1.0 holds UTF-8 text without the control
 * characters other than tab and line ends, and without U+FFFE and U+FFFF;
 * PNML readers (mck's among them) drop white space at both ends. */
static int name_problem(const char *s, char *why, size_t len)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t n = strlen(s), step;
    if (n && (xml_space(u[0]) || xml_space(u[n - 1]))) {
        snprintf(why, len, "it starts or ends with white space, which PNML readers drop");
        return 1;
    }
    for (size_t i = 0; i < n; i += step) {
        long c = utf8_at(u + i, &step);
        if (c < 0) {
            snprintf(why, len, "it is not UTF-8 (byte 0x%02X), which XML needs", u[i]);
            return 1;
        }
        if ((c < 0x20 && !xml_space((unsigned char)c)) || c == 0xFFFE || c == 0xFFFF) {
            snprintf(why, len, "it holds U+%04lX, which XML 1.0 cannot hold", (unsigned long)c);
            return 1;
        }
    }
    return 0;
}

/* s for a message: bytes that are not printable UTF-8 as \xNN. */
static void show(const char *s, char *buf, size_t len)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t at = 0, step;
    for (size_t i = 0; u[i] && at + 5 < len; i += step) {
        long c = utf8_at(u + i, &step);
        if (c < 0x20 || c == 0x7F) {
            at += (size_t)snprintf(buf + at, len - at, "\\x%02X", u[i]);
            step = 1;
        } else if (at + step < len) {
            memcpy(buf + at, u + i, step);
            at += step;
        } else {
            break;
        }
    }
    buf[at] = '\0';
}

/* Text content with the five XML specials escaped, and carriage returns
 * as references, since XML turns a raw one into a line feed.  The text
 * has passed name_problem. */
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
        else if (c == '\r')
            fputs("&#13;", out);
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

/* Every node's name (or id, when it has none) must read back as it is:
 * a name PNML cannot carry is refused, never changed or left out.  -1
 * after the error. */
static int check_names(const net_t *net, const char *path)
{
    for (size_t i = 0; i < net->nplaces + net->ntransitions; i++) {
        int place = i < net->nplaces;
        size_t k = place ? i : i - net->nplaces;
        const char *name = place ? wr_label(net->places[k].name, net->places[k].id)
                                 : wr_label(net->transitions[k].name, net->transitions[k].id);
        char why[96], shown[160];
        if (!name || !name_problem(name, why, sizeof why))
            continue;
        show(name, shown, sizeof shown);
        nc_error(path, 0, "%s %zu: the name '%s' cannot be written in PNML: %s", place ? "place" :
                 "transition", k + 1, shown, why);
        return -1;
    }
    return 0;
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
    if (check_names(net, path) < 0)
        return -1;
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
    /* the net's name is only the file's stem: one PNML cannot carry is
     * left out (the id stands for it) */
    char why[96];
    fputs("    ", out);
    if (net->name && !name_problem(net->name, why, sizeof why))
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
