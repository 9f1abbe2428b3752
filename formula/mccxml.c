/* MCC property XML (mcc-formats.md §3) into formula trees.  The DOM is
 * fine here: the largest property file of the sample is 370 KB.  The file
 * is parsed without network access and without entity substitution, and a
 * DTD that declares an entity stops the parse, so an entity bomb fails with
 * one message instead of eating memory. */
#include "mccxml.h"
#include "base/grow.h"
#include "base/xmltext.h"
#include "base/readfile.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

/* Property files are kilobytes; a file this large is something else. */
#define MAX_FILE_BYTES ((size_t)256 << 20)
/* Atom texts longer than this are dropped: a 8000-place tokens-count is
 * unreadable anyway, and printing then falls back to place indices. */
#define TEXT_MAX 4096

typedef enum { MODE_CTL, MODE_LTL } read_mode;

typedef struct reader {
    const char *file;
    net_t *net;
    read_mode mode;
    char *unsupported;  /* why the current property cannot be read */
    int error;          /* reported: the whole read fails */
} reader;

/* ------------------------------------------------------------------ */
/* messages */

/* Ids come from an untrusted file: one short printable line. */
static const char *show(const char *s, char *buf, size_t size)
{
    size_t i = 0;
    for (; s[i] && i + 4 < size; i++)
        buf[i] = (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?';
    if (s[i]) {
        memcpy(buf + i, "...", 3);
        i += 3;
    }
    buf[i] = '\0';
    return buf;
}

static const char *name_of(const xmlNode *n)
{
    return (const char *)n->name;
}

static long line_of(const xmlNode *n)
{
    return n ? xmlGetLineNo(n) : 0;
}

/* Only the first error is printed: later ones are consequences. */
__attribute__((format(printf, 3, 4)))
static void fail(reader *r, const xmlNode *n, const char *fmt, ...)
{
    if (r->error)
        return;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    nc_error(r->file, line_of(n), "%s", msg);
    r->error = 1;
}

/* Marks the current property unsupported; the rest of the file goes on. */
__attribute__((format(printf, 2, 3)))
static void skip_property(reader *r, const char *fmt, ...)
{
    if (r->unsupported || r->error)
        return;
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!(r->unsupported = strdup(msg)))
        fail(r, NULL, "out of memory");
}

static tree_t *made(reader *r, const xmlNode *n, tree_t *t)
{
    if (!t)
        fail(r, n, "out of memory");
    return t;
}

/* ------------------------------------------------------------------ */
/* the DOM */

static int is(const xmlNode *n, const char *name)
{
    return strcmp(name_of(n), name) == 0;
}

/* Text, comments and processing instructions between elements carry no
 * meaning in these files. */
static xmlNode *elem_from(xmlNode *n)
{
    while (n && n->type != XML_ELEMENT_NODE)
        n = n->next;
    return n;
}

static xmlNode *first_elem(const xmlNode *n)
{
    return elem_from(n->children);
}

static xmlNode *next_elem(const xmlNode *n)
{
    return elem_from(n->next);
}

static xmlNode *only_child(reader *r, const xmlNode *n)
{
    xmlNode *c = first_elem(n);
    if (!c || next_elem(c)) {
        fail(r, n, "'%s' needs exactly one operand", name_of(n));
        return NULL;
    }
    return c;
}

/* The 22 elements of the 2021 files and the three atoms of older ones. */
static int known_element(const xmlNode *n)
{
    static const char *const names[] = {
        "property-set", "property", "id", "description", "formula",
        "place-bound", "exists-path", "all-paths", "globally", "finally",
        "next", "until", "before", "reach", "negation", "conjunction",
        "disjunction", "integer-le", "integer-constant", "tokens-count",
        "place", "is-fireable", "transition", "true", "false", "deadlock",
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (is(n, names[i]))
            return 1;
    return 0;
}

/* An element we know in the wrong place means a broken file; one we do
 * not know may be a newer operator, which only this property needs. */
static void unexpected(reader *r, const xmlNode *n, const xmlNode *parent)
{
    char buf[64];
    if (known_element(n))
        fail(r, n, "'%s' cannot appear in '%s'", name_of(n), name_of(parent));
    else
        skip_property(r, "element '%s' not supported", show(name_of(n), buf, sizeof buf));
}

static int xml_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* The trimmed text of a leaf element, malloc'd; NULL after an error. */
static char *leaf_text(reader *r, const xmlNode *n)
{
    if (first_elem(n)) {
        fail(r, n, "'%s' must contain only text", name_of(n));
        return NULL;
    }
    xmlChar *raw = n->children ? xmlNodeGetContent(n) : NULL;
    if (n->children && !raw) {
        fail(r, n, "out of memory");
        return NULL;
    }
    const char *s = raw ? (const char *)raw : "";
    while (xml_space(*s))
        s++;
    size_t len = strlen(s);
    while (len > 0 && xml_space(s[len - 1]))
        len--;
    char *out = len ? strndup(s, len) : NULL;
    xmlFree(raw);
    if (!len)
        fail(r, n, "empty '%s'", name_of(n));
    else if (!out)
        fail(r, n, "out of memory");
    return out;
}

/* ------------------------------------------------------------------ */
/* atom texts in the Kit syntax, so that tree_print shows place and
 * transition ids instead of indices */

typedef struct text {
    char *buf;
    size_t len;
    int dropped;
} text;

static void text_add(text *t, const char *s)
{
    size_t n = strlen(s);
    if (t->dropped || n >= TEXT_MAX - t->len) {
        t->dropped = 1;
        return;
    }
    if (!t->buf && !(t->buf = malloc(TEXT_MAX))) {
        t->dropped = 1;   /* the text is a nicety; the tree is complete */
        return;
    }
    memcpy(t->buf + t->len, s, n + 1);
    t->len += n;
}

/* A Kit string cannot contain its own quote or a line end. */
static void text_id(text *t, const char *id)
{
    const char *q = !id ? NULL : !strchr(id, '"') ? "\"" : !strchr(id, '\'') ? "'" : NULL;
    if (!q || strpbrk(id, "\r\n")) {
        t->dropped = 1;
        return;
    }
    text_add(t, q);
    text_add(t, id);
    text_add(t, q);
}

/* Attaches the text and frees the buffer; -1 after an error (t is then
 * freed too). */
static int text_attach(reader *r, const xmlNode *n, tree_t *t, text *tx)
{
    int rc = 0;
    if (!tx->dropped && tx->buf && tree_set_text(t, tx->buf) < 0) {
        fail(r, n, "out of memory");
        tree_free(t);
        rc = -1;
    }
    free(tx->buf);
    tx->buf = NULL;
    return rc;
}

/* ------------------------------------------------------------------ */
/* atoms */

typedef struct idlist {
    uint32_t *v;
    uint32_t n;
    size_t cap;
} idlist;

static int idlist_push(reader *r, const xmlNode *n, idlist *l, uint32_t x)
{
    if (l->n == UINT32_MAX || GROW(l->v, l->cap, (size_t)l->n + 1) < 0) {
        fail(r, n, "out of memory");
        return -1;
    }
    l->v[l->n++] = x;
    return 0;
}

/* The <place> (or <transition>) children of n as net indices, in file
 * order with repetitions.  An unknown id means the file belongs to another
 * model: that fails the whole read. */
static int collect(reader *r, const xmlNode *n, int places, idlist *out)
{
    const char *want = places ? "place" : "transition";
    for (xmlNode *c = first_elem(n); c; c = next_elem(c)) {
        if (!is(c, want)) {
            unexpected(r, c, n);
            return -1;
        }
        char *id = leaf_text(r, c);
        if (!id)
            return -1;
        /* a colored node's id names all its unfolded copies */
        const nc_group *g = nc_find_group(r->net, !places, id);
        int64_t i = g ? 0 : places ? nc_find_place(r->net, id) : nc_find_transition(r->net, id);
        char buf[128];
        if (g) {
            for (uint32_t k = 0; k < g->n && !r->error; k++)
                idlist_push(r, c, out, g->members[k]);
        } else if (i < 0)
            fail(r, c, "unknown %s '%s'", want, show(id, buf, sizeof buf));
        else
            idlist_push(r, c, out, (uint32_t)i);
        free(id);
        if (r->error)
            return -1;
    }
    return 0;
}

static tree_t *is_fireable(reader *r, const xmlNode *n)
{
    idlist ids = { 0 };
    if (collect(r, n, 0, &ids) < 0) {
        free(ids.v);
        return NULL;
    }
    /* no transition: an empty disjunction */
    tree_t *t = made(r, n, ids.n ? tree_fireable(ids.v, ids.n) : tree_const(0));
    free(ids.v);
    if (!t || t->op != T_FIREABLE)
        return t;
    /* the Kit's fireable() takes one transition: a list is a disjunction */
    text tx = { 0 };
    if (t->n > 1)
        text_add(&tx, "(");
    for (uint32_t i = 0; i < t->n; i++) {
        text_add(&tx, i ? " | fireable(" : "fireable(");
        text_id(&tx, r->net->transitions[t->items[i]].id);
        text_add(&tx, ")");
    }
    if (t->n > 1)
        text_add(&tx, ")");
    return text_attach(r, n, t, &tx) < 0 ? NULL : t;
}

static tree_t *place_bound(reader *r, const xmlNode *n)
{
    idlist ids = { 0 };
    if (collect(r, n, 1, &ids) < 0) {
        free(ids.v);
        return NULL;
    }
    tree_t *t = made(r, n, tree_bound(ids.v, ids.n));
    text tx = { 0 };
    text_add(&tx, "bound(");
    for (uint32_t i = 0; t && i < ids.n; i++) {
        text_add(&tx, i ? ", " : "");
        text_id(&tx, r->net->places[ids.v[i]].id);
    }
    text_add(&tx, ")");
    free(ids.v);
    if (!t) {
        free(tx.buf);
        return NULL;
    }
    return text_attach(r, n, t, &tx) < 0 ? NULL : t;
}

/* A linear expression being built: sum(terms) + constant. */
typedef struct lin {
    lin_term *t;
    uint32_t n;
    size_t cap;
    int64_t constant;
} lin;

static int lin_push(reader *r, const xmlNode *n, lin *l, uint32_t place, int64_t coef)
{
    if (l->n == UINT32_MAX || GROW(l->t, l->cap, (size_t)l->n + 1) < 0) {
        fail(r, n, "out of memory");
        return -1;
    }
    l->t[l->n++] = (lin_term){ .place = place, .coef = coef };
    return 0;
}

/* Decimal, optionally negative, within int64_t. */
static int parse_int(reader *r, const xmlNode *n, int64_t *out)
{
    char *s = leaf_text(r, n), buf[64];
    if (!s)
        return -1;
    const char *p = s + (*s == '-');
    int64_t v = 0;   /* accumulated negatively so that INT64_MIN fits */
    int ok = *p != '\0', range = 1;
    for (; ok && *p; p++) {
        if (*p < '0' || *p > '9')
            ok = 0;
        else if (__builtin_mul_overflow(v, 10, &v) || __builtin_sub_overflow(v, *p - '0', &v))
            range = 0;
    }
    if (ok && range && *s != '-' && v == INT64_MIN)
        range = 0;
    if (!ok)
        fail(r, n, "'%s' is not an integer", show(s, buf, sizeof buf));
    else if (!range)
        fail(r, n, "integer '%s' out of range", show(s, buf, sizeof buf));
    else
        *out = *s == '-' ? v : -v;
    free(s);
    return ok && range ? 0 : -1;
}

/* Adds sign * (the integer expression n) to l and its text to tx. */
static int int_operand(reader *r, const xmlNode *n, const xmlNode *parent, int64_t sign,
                       lin *l, text *tx)
{
    if (is(n, "integer-constant")) {
        int64_t v = 0, sv;
        if (parse_int(r, n, &v) < 0)
            return -1;
        if (__builtin_mul_overflow(v, sign, &sv) ||
            __builtin_add_overflow(l->constant, sv, &l->constant)) {
            fail(r, n, "integer constant out of range");
            return -1;
        }
        char num[32];
        snprintf(num, sizeof num, "%" PRId64, v);
        text_add(tx, num);
        return 0;
    }
    if (!is(n, "tokens-count")) {
        unexpected(r, n, parent);
        return -1;
    }
    idlist ids = { 0 };
    int rc = collect(r, n, 1, &ids);
    /* a place listed twice counts twice (§3.0): tree_cmp adds the terms */
    for (uint32_t i = 0; rc == 0 && i < ids.n; i++) {
        rc = lin_push(r, n, l, ids.v[i], sign);
        text_add(tx, i ? " + " : "");
        text_id(tx, r->net->places[ids.v[i]].id);
    }
    if (rc == 0 && ids.n == 0)
        text_add(tx, "0");
    free(ids.v);
    return rc;
}

/* integer-le(a, b) is a - b <= 0. */
static tree_t *integer_le(reader *r, const xmlNode *n)
{
    xmlNode *a = first_elem(n), *b = a ? next_elem(a) : NULL;
    if (!b || next_elem(b)) {
        fail(r, n, "'integer-le' needs exactly two operands");
        return NULL;
    }
    lin l = { 0 };
    text tx = { 0 };
    tree_t *t = NULL;
    if (int_operand(r, a, n, 1, &l, &tx) == 0) {
        text_add(&tx, " <= ");
        if (int_operand(r, b, n, -1, &l, &tx) == 0)
            t = made(r, n, tree_cmp(l.t, l.n, l.constant, REL_LE));
    }
    free(l.t);
    if (!t) {
        free(tx.buf);
        return NULL;
    }
    return text_attach(r, n, t, &tx) < 0 ? NULL : t;
}

/* ------------------------------------------------------------------ */
/* formulas */

static const char *const temporal_names[] = { "next", "finally", "globally", "until" };
static const tree_op ltl_ops[] = { T_X, T_F, T_G, T_U };
static const tree_op exists_ops[] = { T_EX, T_EF, T_EG, T_EU };
static const tree_op all_ops[] = { T_AX, T_AF, T_AG, T_AU };
#define UNTIL_INDEX 3

static int temporal_index(const xmlNode *n)
{
    for (int i = 0; i < 4; i++)
        if (is(n, temporal_names[i]))
            return i;
    return -1;
}

static int is_quantifier(const xmlNode *n)
{
    return is(n, "exists-path") || is(n, "all-paths");
}

static tree_t *formula(reader *r, const xmlNode *n, const xmlNode *parent);

static tree_t *unary(reader *r, const xmlNode *n, tree_op op)
{
    xmlNode *c = only_child(r, n);
    tree_t *sub = c ? formula(r, c, n) : NULL;
    return sub ? made(r, n, tree_unary(op, sub)) : NULL;
}

/* <until><before>φ</before><reach>ψ</reach></until>, the parts in either
 * order. */
static tree_t *until(reader *r, const xmlNode *n, tree_op op)
{
    xmlNode *a = first_elem(n), *b = a ? next_elem(a) : NULL;
    int two = b && !next_elem(b);
    if (two && is(a, "reach")) {
        xmlNode *swap = a;
        a = b;
        b = swap;
    }
    if (!two || !is(a, "before") || !is(b, "reach")) {
        fail(r, n, "'until' needs one 'before' and one 'reach'");
        return NULL;
    }
    xmlNode *ac = only_child(r, a), *bc = ac ? only_child(r, b) : NULL;
    tree_t *l = bc ? formula(r, ac, a) : NULL;
    tree_t *rt = l ? formula(r, bc, b) : NULL;
    if (!rt) {
        tree_free(l);
        return NULL;
    }
    return made(r, n, tree_binary(op, l, rt));
}

static tree_t *temporal(reader *r, const xmlNode *n, int k, const tree_op *ops)
{
    return k == UNTIL_INDEX ? until(r, n, ops[k]) : unary(r, n, ops[k]);
}

static tree_t *quantified(reader *r, const xmlNode *n)
{
    if (r->mode == MODE_LTL) {
        skip_property(r, "path quantifier '%s' inside an LTL formula", name_of(n));
        return NULL;
    }
    xmlNode *c = only_child(r, n);
    if (!c)
        return NULL;
    int k = temporal_index(c);
    /* Over a state formula a quantifier changes nothing: every marking
     * starts at least one maximal path. */
    if (k < 0)
        return formula(r, c, n);
    return temporal(r, c, k, is(n, "exists-path") ? exists_ops : all_ops);
}

/* 2 to 5 operands in the contest's files, any number in others: built
 * balanced (tree_chain), so that their number is no depth.  No operand
 * gives the neutral element. */
static tree_t *junction(reader *r, const xmlNode *n, tree_op op)
{
    tree_chain acc;
    tree_chain_start(&acc, op);
    int any = 0;
    for (xmlNode *c = first_elem(n); c; c = next_elem(c)) {
        tree_t *sub = formula(r, c, n);
        if (!sub) {
            tree_chain_discard(&acc);
            return NULL;
        }
        any = 1;
        if (tree_chain_add(&acc, sub) < 0)
            return made(r, n, NULL);
    }
    return made(r, n, any ? tree_chain_end(&acc) : tree_const(op == T_AND));
}

/* n in a formula position; parent only names the place in messages. */
static tree_t *formula(reader *r, const xmlNode *n, const xmlNode *parent)
{
    int k = temporal_index(n);
    if (k >= 0) {
        if (r->mode == MODE_LTL)
            return temporal(r, n, k, ltl_ops);
        skip_property(r, "'%s' not directly under a path quantifier (CTL* is not supported)",
                      name_of(n));
        return NULL;
    }
    if (is_quantifier(n))
        return quantified(r, n);
    if (is(n, "negation"))
        return unary(r, n, T_NOT);
    if (is(n, "conjunction"))
        return junction(r, n, T_AND);
    if (is(n, "disjunction"))
        return junction(r, n, T_OR);
    if (is(n, "integer-le"))
        return integer_le(r, n);
    if (is(n, "is-fireable"))
        return is_fireable(r, n);
    if (is(n, "true") || is(n, "false"))
        return made(r, n, tree_const(is(n, "true")));
    if (is(n, "deadlock"))
        return made(r, n, tree_deadlock());
    if (is(n, "place-bound"))
        skip_property(r, "'place-bound' only as the whole formula of UpperBounds");
    else
        unexpected(r, n, parent);
    return NULL;
}

/* ------------------------------------------------------------------ */
/* classification */

enum { HAS_TEMPORAL = 1, HAS_QUANTIFIER = 2 };

static int is_atom(const xmlNode *n)
{
    return is(n, "integer-le") || is(n, "is-fireable") || is(n, "place-bound");
}

/* What occurs in the subtree at n.  Runs before the conversion and is the
 * one place that bounds the nesting depth, so the conversion (which
 * descends exactly where this does) needs no check of its own. */
static int scan(reader *r, const xmlNode *n, int depth)
{
    if (depth > MCCXML_MAX_DEPTH) {
        fail(r, n, "formula nested more than %d levels deep", MCCXML_MAX_DEPTH);
        return 0;
    }
    int f = (temporal_index(n) >= 0 ? HAS_TEMPORAL : 0) | (is_quantifier(n) ? HAS_QUANTIFIER : 0);
    if (is_atom(n))
        return f;
    for (xmlNode *c = first_elem(n); c && !r->error; c = next_elem(c))
        f |= scan(r, c, depth + 1);
    return f;
}

static int scan_below(reader *r, const xmlNode *n)
{
    int f = 0;
    for (xmlNode *c = first_elem(n); c; c = next_elem(c))
        f |= scan(r, c, 1);
    return f;
}

/* Without an examination: "A body" is LTL when the body is quantifier-free
 * and more than one temporal operator over state formulas (those read the
 * same as CTL's AX, AF, AG, AU).  REACH is told apart after conversion. */
static mcc_class guess_class(reader *r, const xmlNode *top)
{
    if (is(top, "place-bound"))
        return MCC_BOUND;
    xmlNode *body = is(top, "all-paths") ? first_elem(top) : NULL;
    if (!body || next_elem(body))
        return MCC_CTL;
    int f = scan(r, body, 1);
    int one_step = temporal_index(body) >= 0 && !(scan_below(r, body) & HAS_TEMPORAL);
    return (f & HAS_TEMPORAL) && !(f & HAS_QUANTIFIER) && !one_step ? MCC_LTL : MCC_CTL;
}

static int reach_shape(const tree_t *t)
{
    return (t->op == T_EF || t->op == T_AG) && tree_is_state_formula(t->l);
}

static tree_t *ctl_or_reach(reader *r, const xmlNode *top, const xmlNode *fnode, int hinted,
                            mcc_class *cls)
{
    r->mode = MODE_CTL;
    tree_t *t = formula(r, top, fnode);
    if (!t)
        return NULL;
    if (reach_shape(t)) {
        if (!hinted)
            *cls = MCC_REACH;
    } else if (*cls == MCC_REACH) {
        tree_free(t);
        skip_property(r, "not a reachability formula (E F or A G over a state formula)");
        return NULL;
    }
    return t;
}

/* The tree of <formula> fnode; NULL with r->unsupported or r->error set. */
static tree_t *read_formula(reader *r, const xmlNode *fnode, const mcc_class *hint,
                            mcc_class *cls)
{
    xmlNode *top = only_child(r, fnode);
    if (!top)
        return NULL;
    scan(r, top, 1);
    if (r->error)
        return NULL;
    *cls = hint ? *hint : guess_class(r, top);
    switch (*cls) {
    case MCC_BOUND:
        if (is(top, "place-bound"))
            return place_bound(r, top);
        skip_property(r, "not a place-bound formula");
        return NULL;
    case MCC_LTL:
        if (!is(top, "all-paths")) {
            skip_property(r, "an LTL formula starts with 'all-paths'");
            return NULL;
        }
        r->mode = MODE_LTL;
        xmlNode *body = only_child(r, top);
        return body ? formula(r, body, top) : NULL;
    case MCC_REACH:
    case MCC_CTL:
        break;
    }
    return ctl_or_reach(r, top, fnode, hint != NULL, cls);
}

/* ------------------------------------------------------------------ */
/* properties */

static int read_property(reader *r, const xmlNode *pn, const mcc_class *hint, mcc_property *p)
{
    xmlNode *idn = NULL, *fn = NULL;
    p->line = line_of(pn);
    /* <description> and anything unknown are free text to us */
    for (xmlNode *c = first_elem(pn); c; c = next_elem(c)) {
        xmlNode **slot = is(c, "id") ? &idn : is(c, "formula") ? &fn : NULL;
        if (slot && *slot) {
            fail(r, c, "second '%s' in one property", name_of(c));
            return -1;
        }
        if (slot)
            *slot = c;
    }
    if (!idn || !fn) {
        fail(r, pn, "property without '%s'", idn ? "formula" : "id");
        return -1;
    }
    if (!(p->id = leaf_text(r, idn)))
        return -1;
    free(r->unsupported);
    r->unsupported = NULL;
    p->formula = read_formula(r, fn, hint, &p->cls);
    if (r->error) {
        tree_free(p->formula);
        p->formula = NULL;
        return -1;
    }
    if (!p->formula) {
        if (!r->unsupported)
            skip_property(r, "unreadable formula");
        p->unsupported = r->unsupported;
        r->unsupported = NULL;
    }
    return r->error ? -1 : 0;
}

static int cmp_prop_id(const void *a, const void *b)
{
    const mcc_property *x = *(const mcc_property *const *)a, *y = *(const mcc_property *const *)b;
    int c = strcmp(x->id, y->id);
    return c ? c : (x->line > y->line) - (x->line < y->line);
}

/* Two answers with one id could not be told apart. */
static int check_unique_ids(reader *r, const mcc_property_set *s)
{
    if (s->n < 2)
        return 0;
    const mcc_property **v = malloc(s->n * sizeof *v);
    if (!v) {
        fail(r, NULL, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < s->n; i++)
        v[i] = &s->props[i];
    qsort(v, s->n, sizeof *v, cmp_prop_id);
    int rc = 0;
    char buf[128];
    for (size_t i = 1; i < s->n && rc == 0; i++)
        if (strcmp(v[i - 1]->id, v[i]->id) == 0) {
            nc_error(r->file, v[i]->line, "duplicate property id '%s'",
                     show(v[i]->id, buf, sizeof buf));
            r->error = 1;
            rc = -1;
        }
    free(v);
    return rc;
}

static int read_set(reader *r, const xmlNode *root, const mcc_class *hint, mcc_property_set *s)
{
    if (!root || !is(root, "property-set")) {
        char buf[64];
        fail(r, root, "not an MCC property file (root element '%s')",
             root ? show(name_of(root), buf, sizeof buf) : "");
        return -1;
    }
    size_t cap = 0;
    for (xmlNode *c = first_elem(root); c; c = next_elem(c)) {
        if (!is(c, "property")) {
            char buf[64];
            fail(r, c, "unexpected '%s' in 'property-set'", show(name_of(c), buf, sizeof buf));
            return -1;
        }
        if (GROW(s->props, cap, s->n + 1) < 0) {
            fail(r, c, "out of memory");
            return -1;
        }
        /* counted before it is read, so that mccxml_free sees it */
        mcc_property *p = &s->props[s->n++];
        memset(p, 0, sizeof *p);
        if (read_property(r, c, hint, p) < 0)
            return -1;
    }
    return check_unique_ids(r, s);
}

/* ------------------------------------------------------------------ */
/* loading the document */

#if LIBXML_VERSION >= 21200
typedef const xmlError *xml_error_arg;
#else
typedef xmlError *xml_error_arg;
#endif

typedef struct load_state {
    long entity_line;      /* where an entity was declared; 0: none */
    int saw_entity;
    int have_msg;
    long msg_line;
    char msg[256];
} load_state;

/* Keeps the first error for one FILE:LINE message; libxml2 would print
 * several lines in its own format. */
static void on_xml_error(void *data, xml_error_arg e)
{
    xmlParserCtxtPtr ctxt = e->ctxt ? e->ctxt : data;
    load_state *ls = ctxt ? ctxt->_private : NULL;
    if (!ls || ls->have_msg || e->level < XML_ERR_ERROR)
        return;
    char own[96];
    snprintf(ls->msg, sizeof ls->msg, "%s",
             e->message ? xml_error_text(e->message, own, sizeof own) : "malformed XML");
    size_t len = strlen(ls->msg);
    while (len > 0 && xml_space(ls->msg[len - 1]))
        ls->msg[--len] = '\0';
    ls->msg_line = e->line;
    ls->have_msg = 1;
}

static void stop_at_entity(void *ctx)
{
    xmlParserCtxtPtr ctxt = ctx;
    load_state *ls = ctxt->_private;
    if (!ls->saw_entity) {
        ls->saw_entity = 1;
        ls->entity_line = ctxt->input ? ctxt->input->line : 0;
    }
    xmlStopParser(ctxt);
}

static void on_entity_decl(void *ctx, const xmlChar *name, int type, const xmlChar *public_id,
                           const xmlChar *system_id, xmlChar *content)
{
    (void)name, (void)type, (void)public_id, (void)system_id, (void)content;
    stop_at_entity(ctx);
}

static void on_unparsed_entity_decl(void *ctx, const xmlChar *name, const xmlChar *public_id,
                                    const xmlChar *system_id, const xmlChar *notation)
{
    (void)name, (void)public_id, (void)system_id, (void)notation;
    stop_at_entity(ctx);
}

static xmlDoc *parse(const char *path, const char *buf, size_t len)
{
    xmlParserCtxtPtr ctxt = xmlNewParserCtxt();
    if (!ctxt) {
        nc_error(path, 0, "out of memory");
        return NULL;
    }
    load_state ls = { 0 };
    ctxt->_private = &ls;
    ctxt->sax->serror = on_xml_error;
    ctxt->sax->entityDecl = on_entity_decl;
    ctxt->sax->unparsedEntityDecl = on_unparsed_entity_decl;
    /* no XML_PARSE_NOENT (no substitution), no DTD loading */
    int opts = XML_PARSE_NONET | XML_PARSE_NOBLANKS | XML_PARSE_BIG_LINES |
               XML_PARSE_NOERROR | XML_PARSE_NOWARNING;
    xmlDoc *doc = xmlCtxtReadMemory(ctxt, buf, (int)len, path, NULL, opts);
    if (ls.saw_entity)
        nc_error(path, ls.entity_line, "entity declarations are not allowed");
    else if (!doc || !ctxt->wellFormed)
        nc_error(path, ls.msg_line, "%s", ls.have_msg ? ls.msg : "malformed XML");
    if (doc && (ls.saw_entity || !ctxt->wellFormed)) {
        xmlFreeDoc(doc);
        doc = NULL;
    }
    xmlFreeParserCtxt(ctxt);
    return doc;
}

static xmlDoc *load(const char *path)
{
    size_t len = 0;
    char *buf = read_file(path, MAX_FILE_BYTES, &len);
    if (!buf)
        return NULL;
    /* xmlCtxtReadMemory takes an int */
    _Static_assert(MAX_FILE_BYTES <= INT32_MAX, "file size limit fits an int");
    xmlDoc *doc = parse(path, buf, len);
    free(buf);
    return doc;
}

/* ------------------------------------------------------------------ */
/* interface */

int mccxml_exam_class(const char *exam, mcc_class *cls)
{
    if (!exam)
        return -1;
    if (strcmp(exam, "UpperBounds") == 0)
        *cls = MCC_BOUND;
    else if (strncmp(exam, "Reachability", 12) == 0)
        *cls = MCC_REACH;
    else if (strncmp(exam, "CTL", 3) == 0)
        *cls = MCC_CTL;
    else if (strncmp(exam, "LTL", 3) == 0)
        *cls = MCC_LTL;
    else
        return -1;
    return 0;
}

const char *mcc_class_name(mcc_class c)
{
    switch (c) {
    case MCC_REACH: return "reach";
    case MCC_CTL: return "ctl";
    case MCC_LTL: return "ltl";
    case MCC_BOUND: return "bound";
    }
    return "?";
}

mcc_property_set *mccxml_read(const char *path, net_t *net, const char *exam)
{
    mcc_class hint;
    if (exam && mccxml_exam_class(exam, &hint) < 0) {
        char buf[64];
        nc_error(path, 0, "'%s' is not an examination with a formula file",
                 show(exam, buf, sizeof buf));
        return NULL;
    }
    xmlDoc *doc = load(path);
    if (!doc)
        return NULL;
    reader r = { .file = path, .net = net };
    mcc_property_set *s = calloc(1, sizeof *s);
    if (!s)
        nc_error(path, 0, "out of memory");
    else if (read_set(&r, xmlDocGetRootElement(doc), exam ? &hint : NULL, s) < 0) {
        mccxml_free(s);
        s = NULL;
    }
    free(r.unsupported);
    xmlFreeDoc(doc);
    return s;
}

void mccxml_free(mcc_property_set *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++) {
        free(s->props[i].id);
        tree_free(s->props[i].formula);
        free(s->props[i].unsupported);
    }
    free(s->props);
    free(s);
}
