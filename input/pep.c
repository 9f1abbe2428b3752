/* PEP low-level nets (.ll_net), read exactly as docs/pep-format.md says.
 *
 * The format is line-oriented: a three-token header, then blocks in a fixed
 * order whose entries are one line each.  Places and transitions are first
 * collected, then handed to netconv sorted by identifier (the Kit's net
 * order for PEP); arcs come after both node blocks, so by then every
 * identifier can be resolved through an id -> index map.
 *
 * Section numbers (§) refer to pep-format.md.  Every message is one of its
 * §13 texts where §13 has one. */
#include "base/grow.h"
#include "base/readfile.h"
#include "input/input.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define PEP_ID_MAX INT32_MAX   /* §6: identifiers are positive and < 2^31 */

/* ------------------------------------------------------------------ */
/* blocks and their field letters (§4.1, §5) */

/* The type of every field letter a block knows; a letter outside these
 * strings is an error (§10.3), because its length cannot be known. */
typedef struct letters {
    const char *str, *num, *coord, *flag;
} letters;

static const letters L_DEFAULT = {"b", "st", "na", ""};
static const letters L_DPT = {"", "tw", "n", ""};
static const letters L_BL = {"bRTu", "", "nNaA", ""};
static const letters L_PL = {"buZzyRT", "Mmkvstc", "nNaAB", "ex"};
static const letters L_TR = {"buPgiRT", "vstc", "nNaAhHj", "Sr"};
static const letters L_PTR = {"buPgiRT", "vstc", "nNaAhHj", "r"};
static const letters L_ARC = {"p", "wvtc", "J,nNqQ", ""};
static const letters L_TX = {"", "", "N", ""};

enum {
    B_DBL, B_DPL, B_DTR, B_DPT, B_BL, B_PL, B_TR, B_PTR,
    B_TP, B_PT, B_RA, B_PTP, B_PPT, B_TX, B_COUNT
};

typedef struct block {
    const char *kw;
    int required;
    int list;      /* entries on the following lines, not on the keyword line */
    const letters *fields;
} block;

/* In the one order §4.1 allows. */
static const block blocks[B_COUNT] = {
    {"DBL", 0, 0, &L_DEFAULT}, {"DPL", 0, 0, &L_DEFAULT}, {"DTR", 0, 0, &L_DEFAULT},
    {"DPT", 0, 0, &L_DPT},     {"BL", 0, 1, &L_BL},       {"PL", 1, 1, &L_PL},
    {"TR", 1, 1, &L_TR},       {"PTR", 0, 1, &L_PTR},     {"TP", 1, 1, &L_ARC},
    {"PT", 1, 1, &L_ARC},      {"RA", 0, 1, &L_ARC},      {"PTP", 0, 1, &L_ARC},
    {"PPT", 0, 1, &L_ARC},     {"TX", 0, 1, &L_TX},
};

/* ------------------------------------------------------------------ */
/* reader state */

/* One entry's fields that matter; strings point into the current line. */
typedef struct entry {
    int has_id, has_pair, has_tokens, has_weight;
    int64_t id, a, b, tokens, weight;
    const char *name, *meaning;
    size_t name_len, meaning_len;
} entry;

/* Identifier -> index, open addressing; identifiers are >= 1 so 0 marks a
 * free slot. */
typedef struct idmap {
    uint32_t *key, *val;
    size_t cap, used;
} idmap;

typedef struct pep_node {
    uint32_t id;
    long line;
    char *name;      /* NULL: none given, P<id>/T<id> is used */
    char *meaning;
    nc_count tokens;
} pep_node;

typedef struct nodes {
    const char *what;   /* "place" / "transition", for messages */
    char prefix;        /* of generated names */
    pep_node *v;
    size_t n, cap;
    idmap map;
} nodes;

typedef struct reader {
    const char *path;
    FILE *f;
    char *line;
    size_t linecap;
    long lineno;
    const char *p;          /* cursor in line */
    int cur;                /* current block, -1 before the first */
    long pl_line;
    size_t position;        /* entries so far in the current block */
    int autonum;            /* §6 automatic numbering still on */
    nc_count default_weight;
    nodes places, transitions;
    net_t *net;             /* made when the node blocks are complete */
} reader;

/* ------------------------------------------------------------------ */
/* messages */

static int fail(reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warn(reader *r, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Always returns -1, so callers can `return fail(...)`. */
static int fail(reader *r, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* Errors at the end of an empty file still name a line, so that every
     * message has the FILE:LINE: shape. */
    nc_error(r->path, r->lineno > 0 ? r->lineno : 1, "%s", msg);
    return -1;
}

static void warn(reader *r, long line, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    if (nc_verbosity() < 1)
        return;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    nc_warning(r->path, line, "%s", msg);
}

/* Bytes of the file quoted in a message: hostile input must not put
 * control characters or pages of text on the user's terminal. */
static const char *shown(char *buf, size_t size, const char *s, size_t len)
{
    size_t o = 0;
    for (size_t i = 0; i < len && o + 8 < size; i++) {
        unsigned char c = (unsigned char)s[i];
        if (i == 40) {
            memcpy(buf + o, "...", 3);
            o += 3;
            break;
        }
        if (c >= 0x20 && c < 0x7f)
            buf[o++] = (char)c;
        else
            o += (size_t)snprintf(buf + o, size - o, "\\x%02x", c);
    }
    buf[o] = '\0';
    return buf;
}

/* ------------------------------------------------------------------ */
/* lines and tokens (§2) */

static int is_blank(int c) { return c == ' ' || c == '\t' || c == '\r'; }
static int is_digit(int c) { return c >= '0' && c <= '9'; }
static int is_upper(int c) { return c >= 'A' && c <= 'Z'; }

static int is_word(int c)
{
    return is_upper(c) || (c >= 'a' && c <= 'z') || is_digit(c) || c == '_';
}

static void skip_blanks(reader *r)
{
    while (is_blank(*r->p))
        r->p++;
}

/* Nothing but blanks and perhaps a comment left on the line. */
static int at_end(reader *r)
{
    skip_blanks(r);
    return *r->p == '\0' || *r->p == '%';
}

static int same(const char *s, size_t n, const char *word)
{
    return strlen(word) == n && memcmp(s, word, n) == 0;
}

/* 1: a line is in r->line; 0: end of file; -1: error reported. */
static int next_line(reader *r)
{
    errno = 0;
    ssize_t n = getline(&r->line, &r->linecap, r->f);
    if (n < 0) {
        if (ferror(r->f)) {
            nc_error(r->path, 0, "cannot read: %s", strerror(errno ? errno : EIO));
            return -1;
        }
        return 0;
    }
    if (r->lineno == LONG_MAX)
        return fail(r, "too many lines");
    r->lineno++;
    /* C strings below: a NUL byte would silently cut a name. */
    if (memchr(r->line, '\0', (size_t)n))
        return fail(r, "NUL byte in line");
    if (n > 0 && r->line[n - 1] == '\n')
        r->line[n - 1] = '\0';
    r->p = r->line;
    return 1;
}

/* §2 numbers: optional '-', blanks tolerated after it, decimal digits. */
static int read_number(reader *r, int64_t *out)
{
    int neg = 0;
    uint64_t v = 0;
    skip_blanks(r);
    if (*r->p == '-') {
        neg = 1;
        r->p++;
        skip_blanks(r);
    }
    if (!is_digit(*r->p))
        return fail(r, "digit expected");
    for (; is_digit(*r->p); r->p++) {
        unsigned d = (unsigned)(*r->p - '0');
        if (v > ((uint64_t)INT64_MAX - d) / 10)
            return fail(r, "number too large");
        v = v * 10 + d;
    }
    *out = neg ? -(int64_t)v : (int64_t)v;
    return 0;
}

static int read_string(reader *r, const char **s, size_t *len)
{
    skip_blanks(r);
    char q = *r->p;
    if (q != '"' && q != '\'')
        return fail(r, "quoted string expected");
    const char *end = strchr(r->p + 1, q);
    if (!end)
        return fail(r, "unterminated string");
    *s = r->p + 1;
    *len = (size_t)(end - *s);
    r->p = end + 1;
    return 0;
}

static int read_coords(reader *r)
{
    int64_t x, y;
    if (read_number(r, &x) < 0)
        return -1;
    skip_blanks(r);
    if (*r->p != '@')
        return fail(r, "'@' expected");
    r->p++;
    return read_number(r, &y);
}

/* ------------------------------------------------------------------ */
/* entries (§5) */

/* A bare number: the identifier, or with @ < > a second number, the
 * entry's position pair (an arc's end points). */
static int read_numeric(reader *r, entry *e)
{
    int64_t a;
    if (read_number(r, &a) < 0)
        return -1;
    skip_blanks(r);
    if (*r->p != '@' && *r->p != '<' && *r->p != '>') {
        e->has_id = 1;
        e->id = a;
        return 0;
    }
    r->p++;
    if (read_number(r, &e->b) < 0)
        return -1;
    if (e->has_pair < 2)
        e->has_pair++;
    e->a = a;
    return 0;
}

static int read_lettered(reader *r, const letters *l, const char *kw, entry *e)
{
    char c = *r->p++;
    char buf[16];
    if (strchr(l->flag, c))
        return 0;
    if (strchr(l->coord, c))
        return read_coords(r);
    if (strchr(l->str, c)) {
        const char *s;
        size_t n;
        if (read_string(r, &s, &n) < 0)
            return -1;
        if (c == 'b') {
            e->meaning = s;
            e->meaning_len = n;
        }
        return 0;
    }
    if (strchr(l->num, c)) {
        int64_t v;
        if (read_number(r, &v) < 0)
            return -1;
        if (c == 'M') {
            e->has_tokens = 1;
            e->tokens = v;
        } else if (c == 'w') {
            e->has_weight = 1;
            e->weight = v;
        }
        return 0;
    }
    return fail(r, "unknown field letter '%s' in %s entry", shown(buf, sizeof buf, &c, 1), kw);
}

/* Repeated fields: the last one wins (§5.1). */
static int parse_fields(reader *r, int b, entry *e)
{
    memset(e, 0, sizeof *e);
    while (!at_end(r)) {
        char c = *r->p;
        int rc;
        if (c == '-' || is_digit(c)) {
            rc = read_numeric(r, e);
        } else if (c == '"' || c == '\'') {
            rc = read_string(r, &e->name, &e->name_len);
        } else {
            rc = read_lettered(r, blocks[b].fields, blocks[b].kw, e);
        }
        if (rc < 0)
            return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* identifier maps */

static size_t idmap_slot(const idmap *m, uint32_t k)
{
    size_t mask = m->cap - 1;
    size_t i = (uint32_t)(k * 2654435761u) & mask;
    while (m->key[i] && m->key[i] != k)
        i = (i + 1) & mask;
    return i;
}

static int idmap_grow(idmap *m)
{
    size_t cap = m->cap ? m->cap * 2 : 64;
    if (cap > SIZE_MAX / sizeof(uint32_t))
        return -1;
    uint32_t *key = calloc(cap, sizeof *key), *val = calloc(cap, sizeof *val);
    if (!key || !val) {
        free(key);
        free(val);
        return -1;
    }
    idmap old = *m;
    m->key = key;
    m->val = val;
    m->cap = cap;
    for (size_t i = 0; i < old.cap; i++) {
        if (old.key[i]) {
            size_t j = idmap_slot(m, old.key[i]);
            m->key[j] = old.key[i];
            m->val[j] = old.val[i];
        }
    }
    free(old.key);
    free(old.val);
    return 0;
}

static int idmap_put(idmap *m, uint32_t k, uint32_t v)
{
    if ((m->used + 1) * 2 > m->cap && idmap_grow(m) < 0)
        return -1;
    size_t i = idmap_slot(m, k);
    if (!m->key[i])
        m->used++;
    m->key[i] = k;
    m->val[i] = v;
    return 0;
}

/* Index, or -1 when the identifier is unknown. */
static int64_t idmap_get(const idmap *m, int64_t k)
{
    if (!m->cap || k < 1 || k > PEP_ID_MAX)
        return -1;
    size_t i = idmap_slot(m, (uint32_t)k);
    return m->key[i] ? (int64_t)m->val[i] : -1;
}

/* ------------------------------------------------------------------ */
/* places and transitions (§6, §7) */

static int node_id(reader *r, const nodes *ns, const entry *e, uint32_t *id)
{
    if (e->has_id) {
        if (e->id < 1 || e->id > PEP_ID_MAX)
            return fail(r, "%s identifier %" PRId64 " out of range (1 to %d)", ns->what,
                        e->id, PEP_ID_MAX);
        if ((uint64_t)e->id != r->position)
            r->autonum = 0;
        *id = (uint32_t)e->id;
        return 0;
    }
    if (!r->autonum)
        return fail(r, "missing %s identifier", ns->what);
    if (r->position > PEP_ID_MAX)
        return fail(r, "too many %ss", ns->what);
    *id = (uint32_t)r->position;
    return 0;
}

static int nodes_reserve(reader *r, nodes *ns)
{
    if (ns->n >= NC_MAX_NODES)
        return fail(r, "too many %ss", ns->what);
    if (GROW(ns->v, ns->cap, ns->n + 1) < 0)
        return fail(r, "out of memory");
    return 0;
}

static int add_node(reader *r, nodes *ns, const entry *e)
{
    uint32_t id = 0;
    if (node_id(r, ns, e, &id) < 0)
        return -1;
    if (idmap_get(&ns->map, id) >= 0)
        return fail(r, "%s identifier %" PRIu32 " used twice", ns->what, id);
    if (e->has_tokens && e->tokens < 0)
        return fail(r, "negative initial marking");
    if (nodes_reserve(r, ns) < 0)
        return -1;
    pep_node *nd = &ns->v[ns->n];
    memset(nd, 0, sizeof *nd);
    nd->id = id;
    nd->line = r->lineno;
    nd->tokens = e->has_tokens ? (nc_count)e->tokens : 0;
    /* An empty name could never be referred to: treat it as absent. */
    if (e->name && e->name_len)
        nd->name = strndup(e->name, e->name_len);
    if (e->meaning)
        nd->meaning = strndup(e->meaning, e->meaning_len);
    if ((e->name && e->name_len && !nd->name) || (e->meaning && !nd->meaning) ||
        idmap_put(&ns->map, id, (uint32_t)ns->n) < 0) {
        free(nd->name);
        free(nd->meaning);
        return fail(r, "out of memory");
    }
    ns->n++;
    return 0;
}

static int by_id(const void *a, const void *b)
{
    uint32_t x = ((const pep_node *)a)->id, y = ((const pep_node *)b)->id;
    return (x > y) - (x < y);
}

/* Sorts by identifier and points the map at the sorted positions, which
 * are the net indices. */
static int sort_nodes(reader *r, nodes *ns)
{
    if (ns->n)
        qsort(ns->v, ns->n, sizeof *ns->v, by_id);
    for (size_t i = 0; i < ns->n; i++)
        if (idmap_put(&ns->map, ns->v[i].id, (uint32_t)i) < 0)
            return fail(r, "out of memory");
    return 0;
}

static int node_status(reader *r, const nodes *ns, const pep_node *nd, int rc)
{
    if (rc >= 0)
        return 0;
    r->lineno = nd->line;
    return fail(r, "%s %" PRIu32 ": %s", ns->what, nd->id, nc_status_text(rc));
}

static int create_node(reader *r, const nodes *ns, const pep_node *nd)
{
    char id[16], name[24];
    snprintf(id, sizeof id, "%" PRIu32, nd->id);
    snprintf(name, sizeof name, "%c%" PRIu32, ns->prefix, nd->id);
    const char *nm = nd->name ? nd->name : name;
    int rc;
    char **comment;
    if (ns == &r->places) {
        rc = nc_create_place(r->net, id, nm, nd->tokens);
        comment = rc >= 0 ? &r->net->places[rc].comment : NULL;
    } else {
        rc = nc_create_transition(r->net, id, nm);
        comment = rc >= 0 ? &r->net->transitions[rc].comment : NULL;
    }
    if (rc >= 0 && nd->meaning)
        rc = nc_set_comment(comment, nd->meaning);
    return node_status(r, ns, nd, rc);
}

static int build_net(reader *r)
{
    if (sort_nodes(r, &r->places) < 0 || sort_nodes(r, &r->transitions) < 0)
        return -1;
    char *name = path_stem(r->path);
    r->net = name ? nc_create_net(name, r->path) : NULL;
    free(name);
    if (!r->net)
        return fail(r, "out of memory");
    r->net->language = "pep";
    long line = r->lineno;
    for (size_t i = 0; i < r->places.n; i++)
        if (create_node(r, &r->places, &r->places.v[i]) < 0)
            return -1;
    for (size_t i = 0; i < r->transitions.n; i++)
        if (create_node(r, &r->transitions, &r->transitions.v[i]) < 0)
            return -1;
    r->lineno = line;
    return 0;
}

/* ------------------------------------------------------------------ */
/* arcs (§8) */

static int resolve(reader *r, const nodes *ns, int64_t id, uint32_t *index)
{
    int64_t i = idmap_get(&ns->map, id);
    if (i < 0)
        return fail(r, "arc: incorrect %s identifier %" PRId64, ns->what, id);
    *index = (uint32_t)i;
    return 0;
}

/* The arc as the file spells it, for messages. */
static const char *arc_text(char *buf, size_t size, int b, const entry *e)
{
    snprintf(buf, size, "%" PRId64 "%c%" PRId64, e->a, b == B_PT ? '>' : '<', e->b);
    return buf;
}

/* §8.3: a repeated arc merges when the weights agree. */
static int add_arc_once(reader *r, int b, const entry *e, uint32_t p, uint32_t t,
                        nc_count w)
{
    nc_arc_kind kind = b == B_PT ? NC_ARC_PT : b == B_TP ? NC_ARC_TP : NC_ARC_READ;
    char buf[64];
    int rc = nc_create_arc(r->net, kind, p, t, w, 0);
    if (rc == NC_ERR_DUPLICATE_ARC) {
        nc_count old = nc_arc_weight(r->net, kind, p, t);
        if (old != w)
            return fail(r, "%s arc %s given twice with different weights (%" PRIu64
                        " and %" PRIu64 ")", blocks[b].kw, arc_text(buf, sizeof buf, b, e),
                        (uint64_t)old, (uint64_t)w);
        warn(r, r->lineno, "%s arc %s given twice; merged", blocks[b].kw,
             arc_text(buf, sizeof buf, b, e));
        return 0;
    }
    if (rc < 0)
        return fail(r, "arc %s: %s", arc_text(buf, sizeof buf, b, e), nc_status_text(rc));
    return 0;
}

static int add_arc(reader *r, int b, const entry *e)
{
    uint32_t p, t;
    char buf[64];
    if (!e->has_pair)
        return fail(r, "arc without end points");
    if (e->has_pair > 1)
        return fail(r, "arc with more than one pair of end points");
    if (b == B_PT ? resolve(r, &r->places, e->a, &p) < 0 || resolve(r, &r->transitions, e->b, &t) < 0
                  : resolve(r, &r->transitions, e->a, &t) < 0 || resolve(r, &r->places, e->b, &p) < 0)
        return -1;
    int64_t w = e->has_weight ? e->weight : (int64_t)r->default_weight;
    if (w < 1)
        return fail(r, "arc weight must be at least 1");
    /* §8.2: consumption already requires the token (PT precedes RA).  With
     * weights (§8.4) that holds only up to the consumed weight: a heavier
     * read arc still restricts the transition, and dropping it would change
     * the net, so it stays (nc_compile takes the larger need). */
    nc_count consumed = b == B_RA ? nc_arc_weight(r->net, NC_ARC_PT, p, t) : 0;
    if (consumed >= (nc_count)w) {
        warn(r, r->lineno, "read arc %s on a place the transition consumes from; dropped",
             arc_text(buf, sizeof buf, b, e));
        return 0;
    }
    if (consumed)
        warn(r, r->lineno, "read arc %s needs more tokens than the transition consumes; kept",
             arc_text(buf, sizeof buf, b, e));
    return add_arc_once(r, b, e, p, t, (nc_count)w);
}

/* ------------------------------------------------------------------ */
/* header (§3) */

/* The first token of the next non-blank, non-comment line. */
static int header_token(reader *r, const char **tok, size_t *len)
{
    for (;;) {
        int rc = next_line(r);
        if (rc <= 0)
            return rc;
        if (at_end(r))
            continue;
        *tok = r->p;
        while (*r->p && !is_blank(*r->p) && *r->p != '%')
            r->p++;
        *len = (size_t)(r->p - *tok);
        return 1;
    }
}

static int read_header(reader *r)
{
    const char *t = NULL;
    size_t n = 0;
    char buf[64];
    int rc = header_token(r, &t, &n);
    if (rc < 0)
        return -1;
    if (rc == 0 || !same(t, n, "PEP"))
        return fail(r, "keyword 'PEP' expected");
    if ((rc = header_token(r, &t, &n)) < 0)
        return -1;
    if (rc == 0)
        return fail(r, "unexpected end of file: net class 'PTNet' or 'PetriBox' expected");
    if (!same(t, n, "PTNet") && !same(t, n, "PetriBox"))
        return fail(r, "unexpected format identifier '%s'", shown(buf, sizeof buf, t, n));
    if ((rc = header_token(r, &t, &n)) < 0)
        return -1;
    if (rc == 0 || n < 8 || memcmp(t, "FORMAT_N", 8) != 0)
        return fail(r, "keyword 'FORMAT_N' or 'FORMAT_N2' expected");
    if (!same(t, n, "FORMAT_N") && !same(t, n, "FORMAT_N2"))
        warn(r, r->lineno, "unknown format revision '%s', read as FORMAT_N2",
             shown(buf, sizeof buf, t, n));
    return 0;
}

/* ------------------------------------------------------------------ */
/* blocks (§4) */

static int find_block(const char *kw, size_t n)
{
    for (int b = 0; b < B_COUNT; b++)
        if (same(kw, n, blocks[b].kw))
            return b;
    return -1;
}

/* The first mandatory block strictly between from and to, or -1. */
static int skipped_block(int from, int to)
{
    for (int b = from + 1; b < to; b++)
        if (blocks[b].required)
            return b;
    return -1;
}

static int unknown_keyword(reader *r, const char *kw, size_t n)
{
    char buf[64];
    if (same(kw, n, "RS"))
        return fail(r, "reset arcs (RS) are not supported");
    if (same(kw, n, "RD"))
        return fail(r, "RD read arcs are not supported, use RA");
    return fail(r, "unknown keyword '%s'", shown(buf, sizeof buf, kw, n));
}

/* One-line blocks carry their fields on the keyword line; only DPT's
 * default weight matters (§8.4). */
static int read_defaults(reader *r, int b)
{
    entry e;
    if (parse_fields(r, b, &e) < 0)
        return -1;
    if (b == B_DPT && e.has_weight) {
        if (e.weight < 1)
            return fail(r, "arc weight must be at least 1");
        r->default_weight = (nc_count)e.weight;
    }
    return 0;
}

static int start_block(reader *r)
{
    const char *kw = r->p;
    while (is_word(*r->p))
        r->p++;
    size_t n = (size_t)(r->p - kw);
    int b = find_block(kw, n);
    if (b < 0)
        return unknown_keyword(r, kw, n);
    if (b <= r->cur)
        return fail(r, "block '%s' out of order", blocks[b].kw);
    int missing = skipped_block(r->cur, b);
    if (missing >= 0)
        return fail(r, "keyword '%s' expected", blocks[missing].kw);
    if (b > B_TR && !r->net && build_net(r) < 0)
        return -1;
    r->cur = b;
    r->position = 0;
    r->autonum = 1;
    if (b == B_PL)
        r->pl_line = r->lineno;
    if (!blocks[b].list)
        return read_defaults(r, b);
    if (!at_end(r))
        return fail(r, "unexpected text after keyword '%s'", blocks[b].kw);
    return 0;
}

static int read_entry(reader *r)
{
    entry e;
    if (r->cur < 0 || !blocks[r->cur].list)
        return fail(r, "keyword '%s' expected", blocks[skipped_block(r->cur, B_COUNT)].kw);
    if (parse_fields(r, r->cur, &e) < 0)
        return -1;
    r->position++;
    switch (r->cur) {
    case B_PL:
        return add_node(r, &r->places, &e);
    case B_TR:
        return add_node(r, &r->transitions, &e);
    case B_TP:
    case B_PT:
    case B_RA:
        return add_arc(r, r->cur, &e);
    case B_PTP:
    case B_PPT:
        return e.has_pair ? 0 : fail(r, "arc without end points");
    default:
        return 0;
    }
}

/* §4.2: two upper-case letters start a keyword line. */
static int keyword_line(const char *p)
{
    return is_upper(p[0]) && is_upper(p[1]);
}

static int read_blocks(reader *r)
{
    for (;;) {
        int rc = next_line(r);
        if (rc <= 0) {
            if (rc < 0)
                return -1;
            break;
        }
        if (at_end(r))
            continue;
        if ((keyword_line(r->p) ? start_block(r) : read_entry(r)) < 0)
            return -1;
    }
    int missing = skipped_block(r->cur, B_COUNT);
    if (missing >= 0)
        return fail(r, "section '%s' not found", blocks[missing].kw);
    return 0;
}

/* ------------------------------------------------------------------ */
/* warnings about a complete net (§6, §7, §9) */

typedef struct named {
    const char *name;
    uint32_t index;
} named;

static int by_name(const void *a, const void *b)
{
    const named *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* §6: names may repeat, but a formula naming one would be ambiguous. */
static void warn_duplicate_names(reader *r, const nodes *ns)
{
    if (nc_verbosity() < 1 || ns->n < 2)
        return;
    named *v = malloc(ns->n * sizeof *v);
    if (!v)
        return;
    for (size_t i = 0; i < ns->n; i++) {
        v[i].index = (uint32_t)i;
        v[i].name = ns == &r->places ? r->net->places[i].name : r->net->transitions[i].name;
    }
    qsort(v, ns->n, sizeof *v, by_name);
    for (size_t i = 1; i < ns->n; i++) {
        if (strcmp(v[i - 1].name, v[i].name) == 0) {
            long a = ns->v[v[i - 1].index].line, b = ns->v[v[i].index].line;
            char buf[64];
            warn(r, a > b ? a : b, "%s name '%s' used twice", ns->what,
                 shown(buf, sizeof buf, v[i].name, strlen(v[i].name)));
        }
    }
    free(v);
}

static void warn_unrestricted(reader *r)
{
    size_t nt = r->net->ntransitions;
    if (nc_verbosity() < 1 || !nt)
        return;
    unsigned char *pre = calloc(nt, 1), *post = calloc(nt, 1);
    if (pre && post) {
        for (size_t i = 0; i < r->net->narcs; i++) {
            const nc_arc *a = &r->net->arcs[i];
            if (a->kind == NC_ARC_TP)
                post[a->transition] = 1;
            else
                pre[a->transition] = 1;
        }
        for (size_t t = 0; t < nt; t++)
            if (post[t] && !pre[t])
                warn(r, r->transitions.v[t].line,
                     "transition '%s' is not restricted (empty preset): the net is unbounded",
                     r->net->transitions[t].name);
    }
    free(pre);
    free(post);
}

static void warn_about_net(reader *r)
{
    nc_count tokens = 0;
    for (size_t i = 0; i < r->net->nplaces; i++)
        tokens |= r->net->places[i].initial;
    if (!tokens)
        warn(r, r->pl_line, "initial marking is empty");
    warn_duplicate_names(r, &r->places);
    warn_duplicate_names(r, &r->transitions);
    warn_unrestricted(r);
}

/* ------------------------------------------------------------------ */

static void free_nodes(nodes *ns)
{
    for (size_t i = 0; i < ns->n; i++) {
        free(ns->v[i].name);
        free(ns->v[i].meaning);
    }
    free(ns->v);
    free(ns->map.key);
    free(ns->map.val);
}

net_t *pep_read(const char *path)
{
    reader r;
    memset(&r, 0, sizeof r);
    r.path = path;
    r.cur = -1;
    r.default_weight = 1;
    r.places.what = "place";
    r.places.prefix = 'P';
    r.transitions.what = "transition";
    r.transitions.prefix = 'T';
    r.f = fopen(path, "r");
    if (!r.f) {
        nc_error(path, 0, "cannot open: %s", strerror(errno));
        return NULL;
    }
    int ok = read_header(&r) == 0 && read_blocks(&r) == 0;
    if (ok)
        warn_about_net(&r);
    else
        nc_free_net(r.net);
    net_t *net = ok ? r.net : NULL;
    free_nodes(&r.places);
    free_nodes(&r.transitions);
    free(r.line);
    fclose(r.f);
    return net;
}
