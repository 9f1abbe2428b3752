/* RERS parallel systems: the .dot reader (rers-format.md §2) and the safe
 * net of §8, laid out as input/rers.h fixes.
 *
 * Graphviz's cgraph parses the file, so everything DOT allows parses; the
 * checks below then keep the subset §2.3 describes.  What cgraph hides
 * from us, and what we do about it:
 *  - It keeps no line numbers for nodes and edges.  Only its own syntax
 *    errors carry a line; every other message names the LTS, the node and
 *    the label instead.
 *  - It lists subgraphs by internal id, which for a named subgraph is the
 *    address of its interned name, not by file order: with an attribute
 *    mentioning "zeta" before 'subgraph beta {} subgraph alpha {} subgraph
 *    zeta {}', zeta comes first (the RERS 2016 files happen to come out in
 *    file order).  AGSEQ numbers subgraphs, nodes and edges in creation
 *    order, that is in order of first mention in the file; LTSs, places
 *    and the order of labels are all taken from it.
 *  - It cannot tell an edge without a label from one with label="": both
 *    read as the declared default.  So the default is declared, on the
 *    prototype graph every graph read copies its attributes from, as a
 *    string no file can mean as a label (NO_LABEL).
 *  - A chain a->b->c is two edges to cgraph, an 'edge [label=...]'
 *    default applies as in DOT, a strict digraph merges repeated edges,
 *    and a subgraph opened twice is one LTS (at its first opening).  In a
 *    plain digraph an edge repeated with the same label counts once: an
 *    LTS's edges are a set.
 *  - cgraph's parser and messages are global state: the error function is
 *    installed only while parsing, and the lexer is always left at the end
 *    of the file or after an error, so that the next file starts clean. */
#include "base/grow.h"
#include "base/readfile.h"
#include "base/strmap.h"
#include "input/input.h"
#include "input/rers.h"

#include <cgraph.h>
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Far beyond any RERS system (31353 transitions for the largest seen); a
 * label shared by many LTSs with many edges each multiplies out fast. */
#ifndef RERS_MAX_TRANSITIONS   /* a fuzzing build lowers them (tests/fuzz/README.md) */
#define RERS_MAX_TRANSITIONS 10000000u
#endif
#ifndef RERS_MAX_ARCS
#define RERS_MAX_ARCS 50000000u
#endif

#define NO_LABEL "\001mck: no label"
#define NONE UINT32_MAX

/* ---- cgraph's messages ---- */

static struct {
    const char *path;
    char line[512];      /* the message being received */
    size_t len;
    char error[512];     /* the first error, kept for the caller */
    int have_error;
} cg;

/* cgraph's "syntax error in line 4 near ';'" becomes "FILE:4: syntax error
 * near ';'", on one printable line. */
static void cg_report(const char *text, int is_error)
{
    char msg[512];
    long line = 0;
    size_t n = strlen(text) < sizeof msg - 1 ? strlen(text) : sizeof msg - 1;
    memcpy(msg, text, n);
    msg[n] = '\0';
    char *at = strstr(msg, " in line ");
    if (at && isdigit((unsigned char)at[9])) {
        char *end;
        line = strtol(at + 9, &end, 10);
        if (!strncmp(end, " of input", 9))
            end += 9;
        memmove(at, end, strlen(end) + 1);
    }
    n = strlen(msg);
    while (n && isspace((unsigned char)msg[n - 1]))
        msg[--n] = '\0';
    for (char *s = msg; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            *s = '?';
    /* Graphviz's parser (bison, a stack of 10000) recurses on an edge
     * chain a -> b -> ... and on nested subgraphs, and says only "memory
     * exhausted" when they are too long for it */
    if (is_error && !strncmp(msg, "memory exhausted", 16)) {
        char near[96];
        size_t k = strlen(msg + 16) < sizeof near - 1 ? strlen(msg + 16) : sizeof near - 1;
        memcpy(near, msg + 16, k);
        near[k] = '\0';
        snprintf(msg, sizeof msg, "Graphviz's reader ran out of parser stack%s: an edge chain "
                 "'a -> b -> ...' of more than about 2500 nodes (write one edge per statement), or "
                 "subgraphs nested thousands deep", near);
    }
    if (is_error)
        nc_error(cg.path, line, "%s", msg);
    else
        nc_warning(cg.path, line, "%s", msg);
}

/* A message is a level word, ": ", then text that may run over several
 * lines; the first line says what went wrong, the rest is context. */
static void cg_line_done(void)
{
    cg.line[cg.len] = '\0';
    if (!strncmp(cg.line, "Error: ", 7) && !cg.have_error) {
        memcpy(cg.error, cg.line + 7, cg.len - 6);   /* with the '\0' */
        cg.have_error = 1;
    } else if (!strncmp(cg.line, "Warning: ", 9)) {
        cg_report(cg.line + 9, 0);
    }
    cg.len = 0;
}

static int cg_collect(char *s)
{
    for (; *s; s++) {
        if (*s == '\n')
            cg_line_done();
        else if (cg.len < sizeof cg.line - 1)
            cg.line[cg.len++] = *s;
    }
    return 0;
}

/* Reads the one graph of the file; NULL after an error was reported. */
static Agraph_t *parse(const char *path, FILE *f)
{
    memset(&cg, 0, sizeof cg);
    cg.path = path;
    agusererrf old = agseterrf(cg_collect);
    agreadline(1);
    agattr(NULL, AGEDGE, "label", NO_LABEL);
    Agraph_t *g = agread(f, NULL);
    int second = 0;
    /* Reading on to the end both finds what follows the graph and leaves
     * the lexer with no input of this file buffered. */
    for (Agraph_t *more; g && !cg.have_error && (more = agread(f, NULL)); second = 1)
        agclose(more);
    if (cg.len)
        cg_line_done();
    agseterrf(old);
    if (cg.have_error || second || !g) {
        if (cg.have_error)
            cg_report(cg.error, 1);
        else if (second)
            nc_error(path, 0, "a second graph after the first: a RERS system is one digraph");
        else
            nc_error(path, 0, "no graph in the file (expected 'digraph { subgraph ... }')");
        if (g)
            agclose(g);
        return NULL;
    }
    return g;
}

/* ---- the reader ---- */

typedef struct edge_rec {
    Agedge_t *e;
    uint64_t seq;
    uint32_t lts;
    const char *label;   /* trimmed, into cgraph's string; NULL: no label */
    size_t len;
    int32_t lab;         /* label index; -1 for the start edge and duplicates */
} edge_rec;

typedef struct reader {
    const char *path;
    Agraph_t *g;
    Agraph_t **lts;
    uint32_t nlts;
    size_t nseq;                 /* node seqs are below this */
    uint32_t *node_lts, *node_lts2;   /* by node seq: first and second LTS */
    uint32_t *node_place;        /* by node seq */
    edge_rec *edges;
    size_t nedges;
    size_t *start;               /* per LTS: its start edge */
    uint32_t *order;             /* labelled edges by (label, LTS, seq) */
    size_t nordered;
    rers_model *m;
    net_t *net;
} reader;

/* s as a short printable string, for one-line messages; a few at a time. */
static const char *show(const char *s, size_t len)
{
    static char ring[6][72];
    static unsigned k;
    char *b = ring[k++ % 6];
    size_t o = 0;
    for (size_t i = 0; i < len && s[i]; i++) {
        if (o > sizeof ring[0] - 8) {
            strcpy(b + o, "...");
            return b;
        }
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7f || c == '"' || c == '\\')
            o += (size_t)sprintf(b + o, c == '"' || c == '\\' ? "\\%c" : "\\x%02x", c);
        else
            b[o++] = (char)c;
    }
    b[o] = '\0';
    return b;
}

/* The name of a node or subgraph, printable. */
static const char *name_of(void *obj)
{
    const char *s = agnameof(obj);
    return show(s, strlen(s));
}

static int anonymous(Agraph_t *s)
{
    return agnameof(s)[0] == '%';
}

static const char *lts_desc(const reader *r, uint32_t k)
{
    static char ring[4][112];
    static unsigned i;
    char *b = ring[i++ % 4];
    Agraph_t *s = r->lts[k];
    if (anonymous(s))
        snprintf(b, sizeof ring[0], "anonymous subgraph (LTS %u)", k);
    else
        snprintf(b, sizeof ring[0], "subgraph %s (LTS %u)", name_of(s), k);
    return b;
}

/* "edge 1->2 [label=\"put\"]" */
static const char *edge_desc(const edge_rec *er)
{
    static char ring[4][240];
    static unsigned i;
    char *b = ring[i++ % 4];
    int n = snprintf(b, sizeof ring[0], "edge %s->%s", name_of(agtail(er->e)),
                     name_of(aghead(er->e)));
    if (er->label && n > 0 && (size_t)n < sizeof ring[0])
        snprintf(b + n, sizeof ring[0] - (size_t)n, " [label=\"%s\"]", show(er->label, er->len));
    return b;
}

static uint64_t seq_of(void *obj)
{
    return (uint64_t)AGSEQ(obj);
}

static int by_seq(const void *a, const void *b)
{
    uint64_t x = seq_of(*(Agraph_t *const *)a), y = seq_of(*(Agraph_t *const *)b);
    return (x > y) - (x < y);
}

static int edge_by_seq(const void *a, const void *b)
{
    uint64_t x = ((const edge_rec *)a)->seq, y = ((const edge_rec *)b)->seq;
    return (x > y) - (x < y);
}

static int oom(const reader *r)
{
    nc_error(r->path, 0, "out of memory");
    return -1;
}

/* The top-level subgraphs in file order; none may hold another. */
static int collect_lts(reader *r)
{
    for (Agraph_t *s = agfstsubg(r->g); s; s = agnxtsubg(s))
        r->nlts++;
    if (!r->nlts) {
        nc_error(r->path, 0, "no subgraph: each LTS is a 'subgraph NAME { ... }' inside the "
                 "digraph");
        return -1;
    }
    if (!(r->lts = malloc(r->nlts * sizeof *r->lts)))
        return oom(r);
    uint32_t k = 0;
    for (Agraph_t *s = agfstsubg(r->g); s; s = agnxtsubg(s))
        r->lts[k++] = s;
    qsort(r->lts, r->nlts, sizeof *r->lts, by_seq);
    for (k = 0; k < r->nlts; k++) {
        Agraph_t *first = NULL;
        for (Agraph_t *s = agfstsubg(r->lts[k]); s; s = agnxtsubg(s))
            if (!first || seq_of(s) < seq_of(first))
                first = s;
        if (first) {
            if (anonymous(first))
                nc_error(r->path, 0, "a '{ ... }' block inside %s: LTSs cannot be nested "
                         "(a->{b c} writes one too)", lts_desc(r, k));
            else
                nc_error(r->path, 0, "subgraph %s inside %s: LTSs cannot be nested",
                         name_of(first), lts_desc(r, k));
            return -1;
        }
    }
    return 0;
}

/* The first edge of n in LTS k whose other end lies in k only: evidence
 * that n was used there as a node of k. */
static Agedge_t *first_local_edge(const reader *r, uint32_t k, Agnode_t *n)
{
    Agedge_t *best = NULL;
    for (Agedge_t *e = agfstedge(r->lts[k], n); e; e = agnxtedge(r->lts[k], e, n)) {
        Agnode_t *o = agtail(e) == n ? aghead(e) : agtail(e);
        size_t s = (size_t)seq_of(o);
        if (o != n && r->node_lts[s] == k && r->node_lts2[s] == NONE &&
            (!best || seq_of(e) < seq_of(best)))
            best = e;
    }
    return best;
}

static const edge_rec *find_edge(const reader *r, Agedge_t *e)
{
    uint64_t s = seq_of(e);
    size_t lo = 0, hi = r->nedges;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r->edges[mid].seq < s)
            lo = mid + 1;
        else
            hi = mid;
    }
    return &r->edges[lo];
}

/* Each node in exactly one LTS.  A node in two usually means an edge of
 * one LTS reaching into another; it is named when both LTSs use the node
 * with nodes of their own (the later use is the stray edge). */
static int check_nodes(reader *r)
{
    for (uint32_t k = 0; k < r->nlts; k++)
        for (Agnode_t *n = agfstnode(r->lts[k]); n; n = agnxtnode(r->lts[k], n)) {
            size_t s = (size_t)seq_of(n);
            if (r->node_lts[s] == NONE)
                r->node_lts[s] = k;
            else if (r->node_lts2[s] == NONE)
                r->node_lts2[s] = k;
        }
    for (Agnode_t *n = agfstnode(r->g); n; n = agnxtnode(r->g, n)) {
        size_t s = (size_t)seq_of(n);
        uint32_t a = r->node_lts[s], b = r->node_lts2[s];
        if (a == NONE) {
            nc_error(r->path, 0, "node %s lies outside every subgraph (each node belongs to one "
                     "LTS)", name_of(n));
            return -1;
        }
        if (b == NONE)
            continue;
        Agedge_t *ea = first_local_edge(r, a, n), *eb = first_local_edge(r, b, n);
        if (ea && eb) {
            int later_b = seq_of(eb) > seq_of(ea);
            nc_error(r->path, 0, "%s of %s uses node %s of %s: both ends of an edge lie in one LTS",
                     edge_desc(find_edge(r, later_b ? eb : ea)), lts_desc(r, later_b ? b : a),
                     name_of(n), lts_desc(r, later_b ? a : b));
        } else {
            nc_error(r->path, 0, "node %s is in two subgraphs, %s and %s (each node belongs to "
                     "one LTS)", name_of(n), lts_desc(r, a), lts_desc(r, b));
        }
        return -1;
    }
    return 0;
}

/* [A-Za-z_][A-Za-z0-9_]*, in ASCII whatever the locale. */
static int label_ok(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
              (i && c >= '0' && c <= '9')))
            return 0;
    }
    return len > 0;
}

/* All edges in file order, with their labels trimmed. */
static int collect_edges(reader *r)
{
    size_t n = 0;
    for (Agnode_t *v = agfstnode(r->g); v; v = agnxtnode(r->g, v))
        for (Agedge_t *e = agfstout(r->g, v); e; e = agnxtout(r->g, e))
            n++;
    if (!(r->edges = calloc(n ? n : 1, sizeof *r->edges)))
        return oom(r);
    Agsym_t *sym = agattr(r->g, AGEDGE, "label", NULL);
    for (Agnode_t *v = agfstnode(r->g); v; v = agnxtnode(r->g, v))
        for (Agedge_t *e = agfstout(r->g, v); e; e = agnxtout(r->g, e)) {
            edge_rec *er = &r->edges[r->nedges++];
            er->e = e;
            er->seq = seq_of(e);
            er->lab = -1;
            const char *l = sym ? agxget(e, sym) : NO_LABEL;
            if (l && strcmp(l, NO_LABEL)) {
                size_t len = strlen(l);
                while (len && isspace((unsigned char)l[len - 1]))
                    len--;
                while (len && isspace((unsigned char)*l))
                    l++, len--;
                er->label = l;
                er->len = len;
            }
        }
    qsort(r->edges, r->nedges, sizeof *r->edges, edge_by_seq);
    return 0;
}

/* Each edge in the LTS of its ends, with a valid label. */
static int check_edges(reader *r)
{
    for (size_t i = 0; i < r->nedges; i++) {
        edge_rec *er = &r->edges[i];
        uint32_t t = r->node_lts[(size_t)seq_of(agtail(er->e))];
        uint32_t h = r->node_lts[(size_t)seq_of(aghead(er->e))];
        er->lts = t;
        if (t != h) {
            nc_error(r->path, 0, "%s joins %s and %s: both ends of an edge lie in one LTS",
                     edge_desc(er), lts_desc(r, t), lts_desc(r, h));
            return -1;
        }
        if (!agsubedge(r->lts[t], er->e, 0)) {
            nc_error(r->path, 0, "%s lies outside every subgraph (each edge belongs to one LTS)",
                     edge_desc(er));
            return -1;
        }
        if (!er->label) {
            nc_error(r->path, 0, "%s in %s has no label", edge_desc(er), lts_desc(r, t));
            return -1;
        }
        if (er->len && !label_ok(er->label, er->len)) {
            nc_error(r->path, 0, "%s in %s: the label is not a name ([A-Za-z_][A-Za-z0-9_]*)",
                     edge_desc(er), lts_desc(r, t));
            return -1;
        }
    }
    return 0;
}

/* One start edge per LTS, from an extra node that has no other edge. */
static int check_start(reader *r)
{
    if (!(r->start = malloc(r->nlts * sizeof *r->start)))
        return oom(r);
    for (uint32_t k = 0; k < r->nlts; k++)
        r->start[k] = SIZE_MAX;
    for (size_t i = 0; i < r->nedges; i++) {
        const edge_rec *er = &r->edges[i];
        if (er->len)
            continue;
        if (r->start[er->lts] != SIZE_MAX) {
            nc_error(r->path, 0, "%s has two start edges, %s and %s (label \"\"): an LTS has one "
                     "start state", lts_desc(r, er->lts), edge_desc(&r->edges[r->start[er->lts]]),
                     edge_desc(er));
            return -1;
        }
        r->start[er->lts] = i;
    }
    for (uint32_t k = 0; k < r->nlts; k++) {
        if (r->start[k] == SIZE_MAX) {
            nc_error(r->path, 0, "%s has no start edge (an edge with label \"\" to its start "
                     "state)", lts_desc(r, k));
            return -1;
        }
        const edge_rec *st = &r->edges[r->start[k]];
        Agnode_t *src = agtail(st->e);
        if (src == aghead(st->e)) {
            nc_error(r->path, 0, "the start %s of %s is a loop: it comes from an extra node, "
                     "not from a state", edge_desc(st), lts_desc(r, k));
            return -1;
        }
        for (Agedge_t *e = agfstedge(r->g, src); e; e = agnxtedge(r->g, e, src))
            if (seq_of(e) != st->seq) {
                nc_error(r->path, 0, "node %s, the source of the start edge of %s, also has %s: "
                         "the start edge comes from an extra node with no other edge",
                         name_of(src), lts_desc(r, k), edge_desc(find_edge(r, e)));
                return -1;
            }
    }
    return 0;
}

/* ---- labels ---- */

/* The index of label (s, len) in t (label -> index), adding it at the end
 * when new; -1 on out of memory. */
static int64_t label_index(reader *r, strmap *t, const char *s, size_t len)
{
    rers_model *m = r->m;
    int64_t l = strmap_find_n(t, s, len);
    if (l >= 0)
        return l;
    char *copy = strndup(s, len);
    uint32_t at = m->nlabels;
    if (!copy || strmap_insert(t, copy, &at) < 0) {
        free(copy);
        return -1;
    }
    m->labels[m->nlabels] = copy;
    return m->nlabels++;
}

/* An edge already there with the same ends and label counts once. */
static int duplicate(const reader *r, const edge_rec *er)
{
    for (Agedge_t *e = agfstout(r->g, agtail(er->e)); e; e = agnxtout(r->g, e)) {
        if (aghead(e) != aghead(er->e) || seq_of(e) >= er->seq)
            continue;
        const edge_rec *o = find_edge(r, e);
        if (o->len == er->len && !memcmp(o->label, er->label, er->len))
            return 1;
    }
    return 0;
}

/* Labels are numbered in the order of their first edge in the file, the
 * order their transitions get. */
static int number_labels(reader *r)
{
    rers_model *m = r->m;
    strmap t = {0};
    m->labels = calloc(r->nedges ? r->nedges : 1, sizeof *m->labels);
    r->order = malloc((r->nedges ? r->nedges : 1) * sizeof *r->order);
    if (!m->labels || !r->order)
        return oom(r);
    for (size_t i = 0; i < r->nedges; i++) {
        edge_rec *er = &r->edges[i];
        if (!er->len)
            continue;
        if (duplicate(r, er)) {
            nc_warning(r->path, 0, "%s appears twice in %s; it counts once", edge_desc(er),
                       lts_desc(r, er->lts));
            continue;
        }
        int64_t l = label_index(r, &t, er->label, er->len);
        if (l < 0) {
            strmap_free(&t);
            return oom(r);
        }
        er->lab = (int32_t)l;
        r->order[r->nordered++] = (uint32_t)i;
    }
    strmap_free(&t);
    return 0;
}

static const edge_rec *sort_edges;

static int by_label_lts_seq(const void *a, const void *b)
{
    const edge_rec *x = &sort_edges[*(const uint32_t *)a], *y = &sort_edges[*(const uint32_t *)b];
    if (x->lab != y->lab)
        return x->lab < y->lab ? -1 : 1;
    if (x->lts != y->lts)
        return x->lts < y->lts ? -1 : 1;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Owners of the label whose edges start at order[*at]: the group sizes go
 * to size[], their count to *nown; *at moves past the label. */
static void owner_groups(const reader *r, size_t *at, uint32_t *size, uint32_t *nown)
{
    size_t i = *at;
    int32_t lab = r->edges[r->order[i]].lab;
    *nown = 0;
    while (i < r->nordered && r->edges[r->order[i]].lab == lab) {
        uint32_t lts = r->edges[r->order[i]].lts, n = 0;
        while (i < r->nordered && r->edges[r->order[i]].lab == lab &&
               r->edges[r->order[i]].lts == lts)
            i++, n++;
        size[(*nown)++] = n;
    }
    *at = i;
}

/* Counts the transitions before anything is built: a label with edges in
 * many LTSs multiplies out, and the net must fit. */
static int check_sizes(reader *r, uint32_t *size)
{
    rers_model *m = r->m;
    if (!(m->label_count = calloc(m->nlabels ? m->nlabels : 1, sizeof *m->label_count)) ||
        !(m->label_first = calloc(m->nlabels ? m->nlabels : 1, sizeof *m->label_first)))
        return oom(r);
    sort_edges = r->edges;
    qsort(r->order, r->nordered, sizeof *r->order, by_label_lts_seq);
    uint64_t total = 0, arcs = 0;
    size_t at = 0;
    while (at < r->nordered) {
        int32_t lab = r->edges[r->order[at]].lab;
        uint32_t nown;
        owner_groups(r, &at, size, &nown);
        uint64_t combos = 1;
        int over = 0;
        for (uint32_t i = 0; i < nown; i++)
            over |= __builtin_mul_overflow(combos, (uint64_t)size[i], &combos);
        if (over || combos > RERS_MAX_TRANSITIONS) {
            char n[32];
            snprintf(n, sizeof n, over ? "more than %llu" : "%llu",
                     (unsigned long long)(over ? UINT64_MAX : combos));
            nc_error(r->path, 0, "label %s alone would give %s transitions (one per combination "
                     "of its edges in %u LTSs); at most %u are allowed", m->labels[lab], n, nown,
                     RERS_MAX_TRANSITIONS);
            return -1;
        }
        m->label_count[lab] = (uint32_t)combos;
        total += combos;
        arcs += combos * 2 * nown;
        if (total > RERS_MAX_TRANSITIONS || arcs > RERS_MAX_ARCS)
            break;   /* both stay far from overflowing */
    }
    int at_least = at < r->nordered;
    if (total > RERS_MAX_TRANSITIONS || arcs > RERS_MAX_ARCS) {
        nc_error(r->path, 0, "the net would have %s%llu transitions and %llu arcs; at most %u and "
                 "%u are allowed", at_least ? "at least " : "", (unsigned long long)total,
                 (unsigned long long)arcs, RERS_MAX_TRANSITIONS, RERS_MAX_ARCS);
        return -1;
    }
    m->ntransitions = (uint32_t)total;
    return 0;
}

/* ---- the net ---- */

static int net_fail(const reader *r, int status)
{
    nc_error(r->path, 0, "%s", nc_status_text(status));
    return -1;
}

static int build_places(reader *r)
{
    rers_model *m = r->m;
    char *id = NULL;
    size_t cap = 0;
    int status = NC_ERR_NO_MEMORY;
    for (uint32_t k = 0; k < m->nlts; k++) {
        Agraph_t *s = r->lts[k];
        const char *name = agnameof(s);
        char anon[32];
        snprintf(anon, sizeof anon, "lts%u", k);
        if (!(m->lts_names[k] = strdup(anonymous(s) ? anon : name)))
            goto nomem;
        int u = nc_add_unit(r->net, m->lts_names[k], -1);
        if (u < 0) {
            status = u;
            goto fail;
        }
        const edge_rec *st = &r->edges[r->start[k]];
        m->lts_first_place[k] = (uint32_t)r->net->nplaces;
        for (Agnode_t *n = agfstnode(s); n; n = agnxtnode(s, n)) {
            if (n == agtail(st->e))
                continue;
            const char *nn = agnameof(n);
            size_t len = strlen(nn) + 2;
            if (GROW(id, cap, len) < 0)
                goto nomem;
            snprintf(id, cap, "s%s", nn);
            int p = nc_create_place(r->net, id, NULL, n == aghead(st->e));
            if (p < 0 || (status = nc_unit_add_place(r->net, (uint32_t)u, (uint32_t)p)) < 0) {
                status = p < 0 ? p : status;
                goto fail;
            }
            if (n == aghead(st->e))
                m->lts_start[k] = (uint32_t)p;
            r->node_place[(size_t)seq_of(n)] = (uint32_t)p;
        }
        m->lts_nplaces[k] = (uint32_t)r->net->nplaces - m->lts_first_place[k];
    }
    free(id);
    return 0;
fail:
    free(id);
    return net_fail(r, status);
nomem:
    free(id);
    return oom(r);
}

/* The transitions of one label, combinations in odometer order (the last
 * owner's edge changes fastest); group g of the owners is
 * order[start[g] .. start[g] + size[g]). */
static int build_label(reader *r, int32_t lab, size_t first, const uint32_t *size, uint32_t nown,
                       uint32_t *pick, size_t *start)
{
    rers_model *m = r->m;
    const char *label = m->labels[lab];
    char *id = malloc(strlen(label) + 16);
    if (!id)
        return oom(r);
    start[0] = first;
    for (uint32_t g = 1; g < nown; g++)
        start[g] = start[g - 1] + size[g - 1];
    memset(pick, 0, nown * sizeof *pick);
    m->label_first[lab] = (uint32_t)r->net->ntransitions;
    for (uint32_t c = 0; c < m->label_count[lab]; c++) {
        if (m->label_count[lab] == 1)
            strcpy(id, label);
        else
            sprintf(id, "%s#%u", label, c + 1);
        int t = nc_create_transition(r->net, id, NULL);
        if (t < 0) {
            free(id);
            return net_fail(r, t);
        }
        m->trans_label[t] = (uint32_t)lab;
        for (uint32_t g = 0; g < nown; g++) {
            const edge_rec *er = &r->edges[r->order[start[g] + pick[g]]];
            uint32_t src = r->node_place[(size_t)seq_of(agtail(er->e))];
            uint32_t dst = r->node_place[(size_t)seq_of(aghead(er->e))];
            int rc = nc_create_arc(r->net, NC_ARC_PT, src, (uint32_t)t, 1, 0);
            if (rc >= 0)
                rc = nc_create_arc(r->net, NC_ARC_TP, dst, (uint32_t)t, 1, 0);
            if (rc < 0) {
                free(id);
                return net_fail(r, rc);
            }
        }
        for (uint32_t g = nown; g-- > 0;) {
            if (++pick[g] < size[g])
                break;
            pick[g] = 0;
        }
    }
    free(id);
    return 0;
}

static int build_transitions(reader *r, uint32_t *size)
{
    rers_model *m = r->m;
    uint32_t *pick = malloc(r->nlts * sizeof *pick);
    size_t *start = malloc(r->nlts * sizeof *start);
    m->trans_label = malloc((m->ntransitions ? m->ntransitions : 1) * sizeof *m->trans_label);
    int rc = 0;
    if (!pick || !start || !m->trans_label)
        rc = oom(r);
    for (size_t at = 0; rc == 0 && at < r->nordered;) {
        size_t first = at;
        int32_t lab = r->edges[r->order[at]].lab;
        uint32_t nown;
        owner_groups(r, &at, size, &nown);
        rc = build_label(r, lab, first, size, nown, pick, start);
    }
    free(pick);
    free(start);
    return rc;
}

static void model_free(void *p)
{
    rers_model *m = p;
    if (!m)
        return;
    for (uint32_t i = 0; m->lts_names && i < m->nlts; i++)
        free(m->lts_names[i]);
    for (uint32_t i = 0; i < m->nlabels; i++)
        free(m->labels[i]);
    free(m->lts_names);
    free(m->lts_first_place);
    free(m->lts_nplaces);
    free(m->lts_start);
    free(m->labels);
    free(m->label_first);
    free(m->label_count);
    free(m->trans_label);
    free(m);
}

const rers_model *rers_model_of(const net_t *net)
{
    return net && net->lang_free == model_free ? net->lang_data : NULL;
}

int64_t rers_find_label(const rers_model *m, const char *label)
{
    for (uint32_t l = 0; m && l < m->nlabels; l++)
        if (!strcmp(m->labels[l], label))
            return l;
    return -1;
}

/* A verdict trace's step carries the action, as the printed run does. */
static size_t step_attrs(const net_t *net, const nc_count *before, const nc_count *after,
                         uint32_t t, char *buf, size_t buflen, const char **kv, size_t max)
{
    (void)before;
    (void)after;
    const rers_model *m = rers_model_of(net);
    if (!m || t >= m->ntransitions || max < 1)
        return 0;
    int n = snprintf(buf, buflen, "%s", m->labels[m->trans_label[t]]);
    if (n < 0 || (size_t)n >= buflen)
        return 0;
    kv[0] = "label";
    kv[1] = buf;
    return 1;
}

static int build(reader *r)
{
    char *name = path_stem(r->path);
    rers_model *m = r->m = calloc(1, sizeof *m);
    r->net = name && m ? nc_create_net(name, r->path) : NULL;
    free(name);
    if (!r->net)
        return oom(r);
    r->net->lang_data = m;
    r->net->lang_free = model_free;
    r->net->lang_step_attrs = step_attrs;
    r->net->units_claim_safe = 1;
    r->net->ltl_infinite_only = 1;   /* rers-format.md §4.3: deadlocking runs do not count */
    m->nlts = r->nlts;
    m->lts_names = calloc(r->nlts, sizeof *m->lts_names);
    m->lts_first_place = calloc(r->nlts, sizeof *m->lts_first_place);
    m->lts_nplaces = calloc(r->nlts, sizeof *m->lts_nplaces);
    m->lts_start = calloc(r->nlts, sizeof *m->lts_start);
    uint32_t *size = malloc(r->nlts * sizeof *size);
    int rc;
    if (!size || !m->lts_names || !m->lts_first_place || !m->lts_nplaces || !m->lts_start)
        rc = oom(r);
    else
        rc = number_labels(r);
    if (rc == 0)
        rc = check_sizes(r, size);
    if (rc == 0)
        rc = build_places(r);
    if (rc == 0)
        rc = build_transitions(r, size);
    /* a label is an action: its transitions are every combination of its
     * owners' edges (build_label), the claim compositional checkers use */
    int status;
    if (rc == 0 && (status = nc_set_actions(r->net, m->trans_label, m->nlabels)) < 0)
        rc = net_fail(r, status);
    free(size);
    return rc;
}

static int check_and_build(reader *r)
{
    if (!agisdirected(r->g)) {
        nc_error(r->path, 0, "not a digraph: a RERS system is 'digraph { ... }' (this is an "
                 "undirected 'graph')");
        return -1;
    }
    if (collect_lts(r) < 0)
        return -1;
    for (Agnode_t *n = agfstnode(r->g); n; n = agnxtnode(r->g, n))
        if ((size_t)seq_of(n) >= r->nseq)
            r->nseq = (size_t)seq_of(n) + 1;
    r->node_lts = malloc(r->nseq * sizeof *r->node_lts);
    r->node_lts2 = malloc(r->nseq * sizeof *r->node_lts2);
    r->node_place = malloc(r->nseq * sizeof *r->node_place);
    if (!r->node_lts || !r->node_lts2 || !r->node_place)
        return oom(r);
    for (size_t i = 0; i < r->nseq; i++)
        r->node_lts[i] = r->node_lts2[i] = r->node_place[i] = NONE;
    if (collect_edges(r) < 0 || check_nodes(r) < 0 || check_edges(r) < 0 || check_start(r) < 0)
        return -1;
    return build(r);
}

net_t *rers_read(const char *path)
{
    FILE *f = fopen(path, "r");
    struct stat st;
    if (!f) {
        nc_error(path, 0, "cannot open: %s", strerror(errno));
        return NULL;
    }
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        nc_error(path, 0, "cannot read: %s", strerror(EISDIR));
        fclose(f);
        return NULL;
    }
    reader r = { .path = path };
    r.g = parse(path, f);
    fclose(f);
    if (!r.g)
        return NULL;
    int rc = check_and_build(&r);
    agclose(r.g);
    free(r.lts);
    free(r.node_lts);
    free(r.node_lts2);
    free(r.node_place);
    free(r.edges);
    free(r.start);
    free(r.order);
    if (rc < 0) {
        if (r.net)
            nc_free_net(r.net);
        else
            model_free(r.m);
        return NULL;
    }
    return r.net;
}

/* ---- runs ---- */

/* States as the marked places (one state per LTS, in LTS order), steps as
 * the user's actions: the label, never the "#k" of a combination. */
static void print_state(const run_words *w, const nc_count *m, const char *what)
{
    fprintf(w->out, "*** %s: ", what);
    nc_print_marking(w->out, w->lang, m);
    fputs(" ***\n", w->out);
}

static int print_step(const run_words *w, size_t i, uint32_t t, const nc_count *before,
                      const nc_count *after)
{
    const rers_model *m = rers_model_of(w->lang);
    (void)i;
    (void)before;
    (void)after;
    if (t >= m->ntransitions)
        return -1;
    fprintf(w->out, "%s\n", m->labels[m->trans_label[t]]);
    return 0;
}

void rers_output(FILE *out, net_t *net, const result_t *res)
{
    if (!rers_model_of(net))
        return;
    const run_words w = { out, net, print_state, print_step, NULL };
    print_run_words(net, res, &w);
}
