/* PNML P/T nets, read with libxml2's streaming reader.
 *
 * MCC models go beyond 100 MB, so the file is never held as a tree: the
 * reader walks it node by node and keeps only the net being built, the
 * arcs whose ends have not been seen yet, and the NUPN units (resolved at
 * the end, since both may name nodes that come later).
 *
 * The file is untrusted.  No network, no DTD loading, no entity
 * substitution, and a DOCTYPE that declares entities is refused outright,
 * so an entity bomb gets one message instead of memory.  XML_PARSE_HUGE is
 * deliberately off: MCC files are large but made of small nodes, and the
 * option would also lift libxml2's own guards (entity amplification, 10 MB
 * text nodes, depth 256).
 *
 * The net's name is the <net id>: MCC formulas and verdicts use it, and
 * <name> is free text.  Places and transitions keep file order; an arc
 * whose ends are known is added at once, the others after the last node.
 */
#include "base/budget.h"
#include "base/grow.h"
#include "base/xmltext.h"
#include "input.h"
#include "pnml-internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/xmlreader.h>
#include <libxml/xmlversion.h>

/* libxml2 2.12 made the error handler's argument const */
#if LIBXML_VERSION >= 21200
typedef const xmlError *xml_error;
#else
typedef xmlErrorPtr xml_error;
#endif

/* What an element means, by where it stands. */
enum ctx {
    C_DOC, C_PNML, C_NET, C_PAGE, C_PLACE, C_TRANS, C_ARC,
    C_NAME, C_MARKING, C_INSCRIPTION, C_TEXT,
    C_NUPN, C_STRUCTURE, C_UNIT, C_PLACES, C_SUBUNITS,
    C_SKIP  /* not a context: skip the element and its subtree */
};

/* libxml2 stops at depth 256 without XML_PARSE_HUGE; a margin is enough. */
#define MAX_DEPTH 300

typedef struct buf {
    char *s;
    size_t len, cap;
} buf;

typedef struct pending_arc {
    size_t id, src, tgt;   /* offsets into reader.ids */
    nc_count weight;
    long line;
} pending_arc;

typedef struct reader {
    const char *file;
    int fd;
    xmlTextReaderPtr xr;
    net_t *net;
    int failed, net_seen;
    int colored;   /* a symmetric net: read again by pn_read_colored */
    struct { int seen, truncated; long line; char msg[200]; } xmlerr;
    unsigned char ctx[MAX_DEPTH];

    /* the place, transition or arc being read */
    long line, text_line;
    buf id, name, text, src, tgt, attr;
    int has_name;
    nc_count value;   /* initial marking or arc weight */
    int64_t last_t;   /* transition of the last arc, -1 for none */

    pending_arc *arcs;
    size_t narcs, cap_arcs;
    pn_arena ids;
    pn_nupn nupn;
} reader;

/* ------------------------------------------------------------------ */
/* strings */

/* Makes room for n characters and a NUL. */
static int buf_reserve(buf *b, size_t n)
{
    return n < SIZE_MAX ? GROW(b->s, b->cap, n + 1) : -1;
}

static int buf_set(buf *b, const char *s, size_t n)
{
    if (buf_reserve(b, n) < 0)
        return -1;
    if (n)
        memcpy(b->s, s, n);
    b->s[n] = '\0';
    b->len = n;
    return 0;
}

static int buf_append(buf *b, const char *s, size_t n)
{
    if (n > SIZE_MAX / 2 || buf_reserve(b, b->len + n) < 0)
        return -1;
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
    return 0;
}

static void buf_free(buf *b)
{
    free(b->s);
}

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Trims XML white space in place; returns the start. */
static char *trim(char *s, size_t *len)
{
    size_t n = *len;
    while (n && is_space(s[n - 1]))
        n--;
    s[n] = '\0';
    while (is_space(*s)) {
        s++;
        n--;
    }
    *len = n;
    return s;
}

/* ------------------------------------------------------------------ */
/* messages */

/* The line of the current node.  libxml2 keeps node lines in 16 bits (the
 * BIG_LINES escape needs text siblings the reader has not built), so past
 * 65534 this is the parser's line: a few lines ahead at most. */
static long node_line(reader *R)
{
    xmlNodePtr n = xmlTextReaderCurrentNode(R->xr);
    long line = n ? xmlGetLineNo(n) : -1;
    if (line <= 0 || line >= 65535)
        line = xmlTextReaderGetParserLineNumber(R->xr);
    return line > 0 ? line : 1;
}

static int fail(reader *R, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(reader *R, long line, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    nc_error(R->file, line > 0 ? line : 1, "%s", msg);
    R->failed = 1;
    return -1;
}

static int fail_memory(reader *R)
{
    return fail(R, node_line(R), "out of memory");
}

/* libxml2 reports through here (for this reader and, while reading, for
 * the whole library), so it prints nothing itself; the first error is
 * kept and printed as our one line. */
static void on_xml_error(void *ctx, xml_error e)
{
    reader *R = ctx;
    if (!e || e->level < XML_ERR_ERROR || R->xmlerr.seen)
        return;
    R->xmlerr.seen = 1;
    /* The push parser under the reader says "extra content at the end of
     * the document" both for a file that stops inside an element and for
     * junk after the root; only the parser's state tells them apart. */
    if (e->code == XML_ERR_DOCUMENT_END && e->domain == XML_FROM_PARSER && e->ctxt &&
        ((xmlParserCtxtPtr)e->ctxt)->instate != XML_PARSER_EPILOG)
        R->xmlerr.truncated = 1;
    /* an error inside an entity's text has that text's line numbers */
    R->xmlerr.line = e->file ? e->line : 0;
    if (e->code == XML_ERR_ENTITY_LOOP) {
        snprintf(R->xmlerr.msg, sizeof R->xmlerr.msg,
                 "entity expansion refused (entity loop or entity bomb)");
        return;
    }
    char own[96];
    pn_show(e->message ? xml_error_text(e->message, own, sizeof own) : "unknown XML error",
            R->xmlerr.msg,
            sizeof R->xmlerr.msg);
    /* libxml2 ends its messages with a newline, which pn_show made '?' */
    size_t n = strlen(R->xmlerr.msg);
    while (n && (R->xmlerr.msg[n - 1] == '?' || R->xmlerr.msg[n - 1] == ' '))
        R->xmlerr.msg[--n] = '\0';
}

/* ------------------------------------------------------------------ */
/* attributes: copied at once, since a value may live in a buffer the
 * reader reuses */

static int get_attrs(reader *R, const char *const names[], buf *out[], int n)
{
    int found = 0;
    for (int i = 0; i < n; i++)   /* an absent attribute reads as "" */
        if (buf_set(out[i], "", 0) < 0)
            return fail_memory(R);
    if (xmlTextReaderMoveToFirstAttribute(R->xr) != 1)
        return 0;
    do {
        const char *an = (const char *)xmlTextReaderConstLocalName(R->xr);
        for (int i = 0; an && i < n; i++) {
            if (found & (1 << i) || strcmp(an, names[i]) != 0)
                continue;
            const char *v = (const char *)xmlTextReaderConstValue(R->xr);
            if (!v)
                v = "";
            if (buf_set(out[i], v, strlen(v)) < 0) {
                xmlTextReaderMoveToElement(R->xr);
                return fail_memory(R);
            }
            found |= 1 << i;
            break;
        }
    } while (xmlTextReaderMoveToNextAttribute(R->xr) == 1);
    xmlTextReaderMoveToElement(R->xr);
    return found;
}

static int get_attr(reader *R, const char *name, buf *out)
{
    const char *names[] = {name};
    buf *outs[] = {out};
    return get_attrs(R, names, outs, 1);
}

/* ------------------------------------------------------------------ */
/* numbers */

typedef enum { NUM_OK, NUM_EMPTY, NUM_NEGATIVE, NUM_BAD, NUM_OVERFLOW } num_status;

static num_status parse_count(const char *s, nc_count *out)
{
    if (!*s)
        return NUM_EMPTY;
    if (*s == '-')
        return NUM_NEGATIVE;
    nc_count v = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return NUM_BAD;
        unsigned d = (unsigned)(*s - '0');
        if (v > (NC_COUNT_MAX - d) / 10)
            return NUM_OVERFLOW;
        v = v * 10 + d;
    }
    *out = v;
    return NUM_OK;
}

static int read_count(reader *R, const char *what, const char *owner, nc_count *out)
{
    size_t n = R->text.len;
    char *s = trim(R->text.s, &n);
    char a[64], b[64];
    switch (parse_count(s, out)) {
    case NUM_OK:
        return 0;
    case NUM_EMPTY:
        return fail(R, R->text_line, "%s '%s': empty %s", owner, pn_show(R->id.s, a, sizeof a),
                    what);
    case NUM_NEGATIVE:
        return fail(R, R->text_line, "%s '%s': negative %s '%s'", owner,
                    pn_show(R->id.s, a, sizeof a), what, pn_show(s, b, sizeof b));
    case NUM_BAD:
        return fail(R, R->text_line, "%s '%s': %s '%s' is not a number", owner,
                    pn_show(R->id.s, a, sizeof a), what, pn_show(s, b, sizeof b));
    case NUM_OVERFLOW:
        break;
    }
    return fail(R, R->text_line, "%s '%s': %s '%s' is larger than %llu", owner,
                pn_show(R->id.s, a, sizeof a), what, pn_show(s, b, sizeof b),
                (unsigned long long)NC_COUNT_MAX);
}

/* ------------------------------------------------------------------ */
/* nodes and arcs */

/* A P/T net that has colored parts: mck reads symmetric nets, not this. */
static int colored(reader *R)
{
    return fail(R, node_line(R), "colored elements in a P/T net (type ptnet): refused");
}

static int node_status(reader *R, int rc, const char *id)
{
    char a[64];
    if (rc >= 0)
        return 0;
    if (rc == NC_ERR_DUPLICATE_ID)
        return fail(R, R->line, "duplicate id '%s'", pn_show(id, a, sizeof a));
    return fail(R, R->line, "'%s': %s", pn_show(id, a, sizeof a), nc_status_text(rc));
}

static int end_place(reader *R)
{
    if (nc_find_transition(R->net, R->id.s) >= 0)
        return node_status(R, NC_ERR_DUPLICATE_ID, R->id.s);
    int rc = nc_create_place(R->net, R->id.s, R->has_name ? R->name.s : NULL, R->value);
    return node_status(R, rc, R->id.s);
}

static int end_transition(reader *R)
{
    if (nc_find_place(R->net, R->id.s) >= 0)
        return node_status(R, NC_ERR_DUPLICATE_ID, R->id.s);
    int rc = nc_create_transition(R->net, R->id.s, R->has_name ? R->name.s : NULL);
    return node_status(R, rc, R->id.s);
}

/* Where an id stands: a place, a transition, or unknown (yet). */
typedef struct endpoint {
    int64_t place, transition;
} endpoint;

/* MCC files list the arcs of one transition together, so remembering the
 * last transition saves most of the id lookups on large nets. */
static endpoint lookup(reader *R, const char *id)
{
    endpoint e = {-1, -1};
    if (R->last_t >= 0 && strcmp(R->net->transitions[R->last_t].id, id) == 0) {
        e.transition = R->last_t;
        return e;
    }
    e.place = nc_find_place(R->net, id);
    if (e.place < 0) {
        e.transition = nc_find_transition(R->net, id);
        if (e.transition >= 0)
            R->last_t = e.transition;
    }
    return e;
}

static int unknown_end(reader *R, long line, const char *id, const char *which,
                       const char *end)
{
    char a[64], b[64];
    return fail(R, line, "arc '%s': unknown %s '%s'", pn_show(id, a, sizeof a), which,
                pn_show(end, b, sizeof b));
}

/* Adds one arc.  Returns 0, 1 when an end is not known yet (only when
 * !final), or -1 after an error. */
static int add_arc(reader *R, const char *id, const char *src, const char *tgt,
                   nc_count weight, long line, int final)
{
    endpoint s = lookup(R, src), t = lookup(R, tgt);
    if (s.place < 0 && s.transition < 0)
        return final ? unknown_end(R, line, id, "source", src) : 1;
    if (t.place < 0 && t.transition < 0)
        return final ? unknown_end(R, line, id, "target", tgt) : 1;
    char a[64], b[64], c[64];
    int rc;
    if (s.place >= 0 && t.transition >= 0)
        rc = nc_create_arc(R->net, NC_ARC_PT, (uint32_t)s.place, (uint32_t)t.transition,
                           weight, 1);
    else if (s.transition >= 0 && t.place >= 0)
        rc = nc_create_arc(R->net, NC_ARC_TP, (uint32_t)t.place, (uint32_t)s.transition,
                           weight, 1);
    else
        return fail(R, line, "arc '%s' connects two %s", pn_show(id, a, sizeof a),
                    s.place >= 0 ? "places" : "transitions");
    if (rc == NC_ERR_OVERFLOW)
        return fail(R, line, "arc '%s': total weight from '%s' to '%s' is larger than %llu",
                    pn_show(id, a, sizeof a), pn_show(src, b, sizeof b),
                    pn_show(tgt, c, sizeof c), (unsigned long long)NC_COUNT_MAX);
    if (rc < 0)
        return fail(R, line, "arc '%s': %s", pn_show(id, a, sizeof a), nc_status_text(rc));
    return 0;
}

static int defer_arc(reader *R)
{
    if (GROW(R->arcs, R->cap_arcs, R->narcs + 1) < 0)
        return fail_memory(R);
    pending_arc *p = &R->arcs[R->narcs];
    p->id = pn_arena_add(&R->ids, R->id.s, R->id.len);
    p->src = pn_arena_add(&R->ids, R->src.s, R->src.len);
    p->tgt = pn_arena_add(&R->ids, R->tgt.s, R->tgt.len);
    if (p->id == PN_NONE || p->src == PN_NONE || p->tgt == PN_NONE)
        return fail_memory(R);
    p->weight = R->value;
    p->line = R->line;
    R->narcs++;
    return 0;
}

static int end_arc(reader *R)
{
    int rc = add_arc(R, R->id.s, R->src.s, R->tgt.s, R->value, R->line, 0);
    return rc == 1 ? defer_arc(R) : rc;
}

static int resolve_arcs(reader *R)
{
    for (size_t i = 0; i < R->narcs; i++) {
        const pending_arc *p = &R->arcs[i];
        const char *s = R->ids.s;
        if (add_arc(R, s + p->id, s + p->src, s + p->tgt, p->weight, p->line, 1) < 0)
            return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* elements */

static int begin_net(reader *R)
{
    static const char *const names[] = {"id", "type"};
    buf *outs[] = {&R->id, &R->attr};
    long line = node_line(R);
    if (R->net_seen)
        return fail(R, line, "more than one <net>: mck reads one net per file");
    R->net_seen = 1;
    int found = get_attrs(R, names, outs, 2);
    if (found < 0)
        return -1;
    if (!(found & 1) || !R->id.len)
        return fail(R, line, "<net> without an id");
    const char *type = (found & 2) ? R->attr.s : "";
    /* symmetric nets are read as a tree by their own reader: stop here */
    if (strstr(type, "symmetricnet")) {
        R->colored = 1;
        return -1;
    }
    if (strstr(type, "highlevelnet")) {
        char a[64];
        return fail(R, line, "net type '%s': high-level nets beyond symmetric nets are not "
                    "supported", pn_show(type, a, sizeof a));
    }
    size_t tl = strlen(type);
    if (tl < 5 || strcmp(type + tl - 5, "ptnet") != 0) {
        char a[64];
        return fail(R, line, "net type '%s' is not a P/T net (ptnet)",
                    pn_show(type, a, sizeof a));
    }
    R->net = nc_create_net(R->id.s, R->file);
    if (!R->net)
        return fail_memory(R);
    R->net->language = "pnml";
    return 0;
}

static int begin_node(reader *R, const char *what)
{
    R->line = node_line(R);
    int found = get_attr(R, "id", &R->id);
    if (found < 0)
        return -1;
    if (!found || !R->id.len)
        return fail(R, R->line, "<%s> without an id", what);
    R->has_name = 0;
    R->value = 0;
    return 0;
}

static int begin_arc(reader *R)
{
    static const char *const names[] = {"id", "source", "target"};
    buf *outs[] = {&R->id, &R->src, &R->tgt};
    R->line = node_line(R);
    int found = get_attrs(R, names, outs, 3);
    if (found < 0)
        return -1;
    if (!(found & 2) || !(found & 4)) {
        char a[64];
        return fail(R, R->line, "arc '%s' without %s", pn_show(R->id.s, a, sizeof a),
                    (found & 2) ? "target" : "source");
    }
    R->value = 1;
    return 0;
}

static int begin_unit(reader *R)
{
    long line = node_line(R);
    int found = get_attr(R, "id", &R->attr);
    if (found < 0)
        return -1;
    if (!found || !R->attr.len)
        return fail(R, line, "NUPN <unit> without an id");
    if (pn_nupn_add_unit(&R->nupn, R->attr.s, line) < 0)
        return fail_memory(R);
    return 0;
}

static int begin_structure(reader *R)
{
    int found = get_attr(R, "safe", &R->attr);
    if (found < 0)
        return -1;
    R->nupn.safe = found && strcmp(R->attr.s, "true") == 0;
    return 0;
}

static int begin(reader *R, int kind)
{
    switch (kind) {
    case C_NET: return begin_net(R);
    case C_PLACE: return begin_node(R, "place");
    case C_TRANS: return begin_node(R, "transition");
    case C_ARC: return begin_arc(R);
    case C_TEXT:
        R->text_line = node_line(R);
        /* fall through */
    case C_PLACES:
    case C_SUBUNITS:
        /* set, not just emptied: an empty element must still give "" */
        return buf_set(&R->text, "", 0) < 0 ? fail_memory(R) : 0;
    case C_NUPN:
        if (R->nupn.seen)
            return fail(R, node_line(R), "more than one NUPN section");
        R->nupn.seen = 1;
        return 0;
    case C_STRUCTURE: return begin_structure(R);
    case C_UNIT: return begin_unit(R);
    }
    return 0;
}

static int end_text(reader *R, int label)
{
    switch (label) {
    case C_NAME: {
        size_t n = R->text.len;
        char *s = trim(R->text.s, &n);
        R->has_name = n > 0;
        return buf_set(&R->name, s, n) < 0 ? fail_memory(R) : 0;
    }
    case C_MARKING:
        return read_count(R, "initial marking", "place", &R->value);
    case C_INSCRIPTION:
        if (read_count(R, "weight", "arc", &R->value) < 0)
            return -1;
        if (!R->value) {
            char a[64];
            return fail(R, R->text_line, "arc '%s': weight 0", pn_show(R->id.s, a, sizeof a));
        }
        return 0;
    }
    return 0;
}

static int end(reader *R, int kind, int depth)
{
    switch (kind) {
    case C_TEXT:
        return end_text(R, R->ctx[depth - 1]);
    case C_PLACE: return end_place(R);
    case C_TRANS: return end_transition(R);
    case C_ARC: return end_arc(R);
    case C_PLACES:
    case C_SUBUNITS:
        if (pn_nupn_set_list(&R->nupn, kind == C_SUBUNITS, R->text.s, R->text.len) < 0)
            return fail_memory(R);
        return 0;
    }
    return 0;
}

static int is(const char *a, const char *b)
{
    return strcmp(a, b) == 0;
}

static int classify_toolspecific(reader *R)
{
    int found = get_attr(R, "tool", &R->attr);
    if (found < 0)
        return -1;
    return found && is(R->attr.s, "nupn") ? C_NUPN : C_SKIP;
}

static int classify_in_page(reader *R, const char *name)
{
    if (is(name, "arc")) return C_ARC;
    if (is(name, "transition")) return C_TRANS;
    if (is(name, "place")) return C_PLACE;
    if (is(name, "page")) return C_PAGE;
    if (is(name, "toolspecific")) return classify_toolspecific(R);
    if (is(name, "declaration") || is(name, "declarations")) return colored(R);
    if (is(name, "referencePlace") || is(name, "referenceTransition")) {
        char a[64];
        return fail(R, node_line(R), "<%s> (reference nodes) is not supported",
                    pn_show(name, a, sizeof a));
    }
    return C_SKIP;
}

static int not_pnml(reader *R, const char *name)
{
    char a[64];
    return fail(R, node_line(R), "root element is <%s>, not <pnml>", pn_show(name, a, sizeof a));
}

/* The meaning of element name under parent: a context, C_SKIP, or -1
 * after an error. */
static int classify(reader *R, int parent, const char *name)
{
    switch (parent) {
    case C_DOC:
        return is(name, "pnml") ? C_PNML : not_pnml(R, name);
    case C_PNML:
        return is(name, "net") ? C_NET : C_SKIP;
    case C_NET:
    case C_PAGE:
        return classify_in_page(R, name);
    case C_PLACE:
        if (is(name, "name")) return C_NAME;
        if (is(name, "initialMarking")) return C_MARKING;
        if (is(name, "type") || is(name, "hlinitialMarking")) return colored(R);
        return C_SKIP;
    case C_TRANS:
        return is(name, "name") ? C_NAME : C_SKIP;
    case C_ARC:
        if (is(name, "inscription")) return C_INSCRIPTION;
        if (is(name, "hlinscription")) return colored(R);
        return C_SKIP;
    case C_NAME:
    case C_MARKING:
    case C_INSCRIPTION:
        return is(name, "text") ? C_TEXT : C_SKIP;
    case C_NUPN:
        return is(name, "structure") ? C_STRUCTURE : C_SKIP;
    case C_STRUCTURE:
        return is(name, "unit") ? C_UNIT : C_SKIP;
    case C_UNIT:
        if (is(name, "places")) return C_PLACES;
        if (is(name, "subunits")) return C_SUBUNITS;
        return C_SKIP;
    }
    return C_SKIP;
}

/* Returns 1 to skip the element's subtree, 0 to go on, -1 on error. */
static int on_start(reader *R, int depth)
{
    const char *name = (const char *)xmlTextReaderConstLocalName(R->xr);
    if (!name)
        return fail_memory(R);
    if (depth >= MAX_DEPTH)
        return 1;
    int kind = classify(R, depth ? R->ctx[depth - 1] : C_DOC, name);
    if (kind < 0)
        return -1;
    if (kind == C_SKIP)
        return 1;
    R->ctx[depth] = (unsigned char)kind;
    if (begin(R, kind) < 0)
        return -1;
    if (xmlTextReaderIsEmptyElement(R->xr))
        return end(R, kind, depth);
    return 0;
}

static int on_text(reader *R, int depth)
{
    if (depth < 1 || depth > MAX_DEPTH)
        return 0;
    int parent = R->ctx[depth - 1];
    if (parent != C_TEXT && parent != C_PLACES && parent != C_SUBUNITS)
        return 0;
    const char *v = (const char *)xmlTextReaderConstValue(R->xr);
    if (v && buf_append(&R->text, v, strlen(v)) < 0)
        return fail_memory(R);
    return 0;
}

/* libxml2 keeps no line for a DOCTYPE, and the parser has read past it:
 * find it in the file's head, or fall back to the parser's line. */
static long doctype_line(reader *R)
{
    char head[8192];
    ssize_t n = pread(R->fd, head, sizeof head - 1, 0);
    if (n > 0) {
        head[n] = '\0';
        for (ssize_t i = 0, line = 1; i + 9 <= n; i++) {
            if (head[i] == '\n')
                line++;
            else if (memcmp(head + i, "<!DOCTYPE", 9) == 0)
                return line;
        }
    }
    return xmlTextReaderGetParserLineNumber(R->xr);
}

/* Entity declarations have no use in PNML and are how entity bombs work:
 * refuse them before any is expanded into the net. */
static int on_doctype(reader *R)
{
    xmlDtdPtr dtd = (xmlDtdPtr)xmlTextReaderCurrentNode(R->xr);
    if (dtd && (dtd->entities || dtd->pentities))
        return fail(R, doctype_line(R),
                    "DOCTYPE declares entities, which PNML does not use: refused");
    return 0;
}

static int on_node(reader *R, int *skip)
{
    int depth = xmlTextReaderDepth(R->xr);
    *skip = 0;
    switch (xmlTextReaderNodeType(R->xr)) {
    case XML_READER_TYPE_ELEMENT: {
        int rc = on_start(R, depth);
        *skip = rc == 1;
        return rc < 0 ? -1 : 0;
    }
    case XML_READER_TYPE_END_ELEMENT:
        return depth < MAX_DEPTH ? end(R, R->ctx[depth], depth) : 0;
    case XML_READER_TYPE_TEXT:
    case XML_READER_TYPE_CDATA:
    case XML_READER_TYPE_SIGNIFICANT_WHITESPACE:
        return on_text(R, depth);
    case XML_READER_TYPE_DOCUMENT_TYPE:
        return on_doctype(R);
    case XML_READER_TYPE_ENTITY_REFERENCE:
        return fail(R, node_line(R), "entity references are not allowed in PNML");
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* the document */

static int report_xml_error(reader *R)
{
    long line = R->xmlerr.line;
    if (line <= 0)
        line = xmlTextReaderGetParserLineNumber(R->xr);
    if (R->xmlerr.truncated)
        return fail(R, line,
                    "malformed XML: the file ends before the document does (truncated?)");
    if (R->xmlerr.seen)
        return fail(R, line, "malformed XML: %s", R->xmlerr.msg);
    return fail(R, line, "malformed XML");
}

static int walk(reader *R)
{
    int skip = 0;
    int ret = xmlTextReaderRead(R->xr);
    while (ret == 1 && !R->xmlerr.seen) {
        if (budget_poll()) {
            R->failed = 1;   /* the command says which limit */
            return -1;
        }
        if (on_node(R, &skip) < 0)
            return -1;
        ret = skip ? xmlTextReaderNext(R->xr) : xmlTextReaderRead(R->xr);
    }
    if (ret != 0 || R->xmlerr.seen)
        return report_xml_error(R);
    if (!R->net_seen)
        return fail(R, xmlTextReaderGetParserLineNumber(R->xr), "no <net> element");
    if (resolve_arcs(R) < 0)
        return -1;
    if (pn_nupn_resolve(R->net, &R->nupn, R->file) < 0) {
        R->failed = 1;
        return -1;
    }
    return 0;
}

static void reader_free(reader *R)
{
    buf_free(&R->id);
    buf_free(&R->name);
    buf_free(&R->text);
    buf_free(&R->src);
    buf_free(&R->tgt);
    buf_free(&R->attr);
    free(R->arcs);
    pn_arena_free(&R->ids);
    pn_nupn_free(&R->nupn);
}

static int open_file(const char *path)
{
    struct stat st;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd >= 0 && fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        fd = -1;
        errno = e;
    }
    if (fd >= 0 && S_ISDIR(st.st_mode)) {
        close(fd);
        fd = -1;
        errno = EISDIR;
    }
    if (fd < 0) {
        nc_error(path, 0, "cannot open: %s", strerror(errno));
        return -1;
    }
    /* libxml2 would call an empty file "extra content at the end" */
    if (S_ISREG(st.st_mode) && st.st_size == 0) {
        nc_error(path, 1, "empty file");
        close(fd);
        return -1;
    }
    return fd;
}

net_t *pnml_read(const char *path)
{
    int fd = open_file(path);
    if (fd < 0)
        return NULL;
    reader R;
    memset(&R, 0, sizeof R);
    R.file = path;
    R.fd = fd;
    R.last_t = -1;

    pn_xml_quiet quiet;
    pn_xml_quiet_begin(&quiet, &R, on_xml_error);

    /* NOBLANKS and COMPACT: fewer and smaller nodes for the reader to
     * build and free; white space in a <text> is kept (it has no element
     * sibling), and trimmed here anyway. */
    R.xr = xmlReaderForFd(fd, path, NULL,
                          XML_PARSE_NONET | XML_PARSE_COMPACT | XML_PARSE_NOBLANKS);
    if (!R.xr) {
        nc_error(path, 0, "cannot read: out of memory");
        R.failed = 1;
    } else {
        xmlTextReaderSetStructuredErrorHandler(R.xr, on_xml_error, &R);
        walk(&R);
        xmlFreeTextReader(R.xr);
    }

    pn_xml_quiet_end(&quiet);
    close(fd);
    reader_free(&R);
    if (R.colored && !R.failed) {
        nc_free_net(R.net);
        return pn_read_colored(path);
    }
    if (R.failed) {
        nc_free_net(R.net);
        return NULL;
    }
    return R.net;
}
