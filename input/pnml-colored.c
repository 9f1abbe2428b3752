/* PNML symmetric nets (the MCC's colored models) read into a pc_net.
 *
 * The subset is what the contest uses: sorts are dot, finite and cyclic
 * enumerations, finite integer ranges and products of these; variables;
 * places with a sort and an initial multiset; transitions with a guard
 * (and, or, not, imply, booleanconstant and the six comparisons of colors);
 * arcs whose inscription is a multiset term (numberof, add, subtract, all,
 * and colors: variables, constants, dotconstant, successor, predecessor,
 * tuples, finiteintrangeconstant).  Partitions may be declared but not used.
 * Anything else is refused with the element's name and line, so that no
 * model is ever read with a meaning it does not have.
 *
 * Colored models are small (the largest of the MCC are a few MB: the size
 * is in the unfolding), so unlike input/pnml.c the file is read into a
 * tree.  It is untrusted all the same: no network, no DTD loading, no
 * entity substitution, and a file that declares entities is refused before
 * libxml2 sees it, so that no entity is ever expanded. */
#include "base/budget.h"
#include "base/grow.h"
#include "base/xmltext.h"
#include "base/readfile.h"
#include "base/strmap.h"
#include "pnml-colored.h"
#include "pnml-internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlversion.h>

#if LIBXML_VERSION >= 21200
typedef const xmlError *xml_error;
#else
typedef xmlErrorPtr xml_error;
#endif

/* Larger files are not colored models of any contest; the limit keeps the
 * tree (about ten times the file) within memory. */
#define MAX_FILE_BYTES (256u << 20)
/* Term nesting; libxml2 itself stops at 256 element levels. */
#define MAX_TERM_DEPTH 200

typedef struct named {
    xmlNode *def;       /* the sort expression of a <namedsort> */
    int state;          /* 0 not resolved, 1 being resolved, 2 resolved */
    uint32_t sort;
    char *id, *name;
} named;

typedef struct reader {
    const char *file;
    pc_net *pn;
    int failed;
    struct { int seen; long line; char msg[200]; } xmlerr;
    named *nameds;
    size_t nnameds, cap_nameds;
    /* id -> index; the keys are the records' own ids, but for the partitions'
     * (which are the map's, freed with the reader) */
    strmap named_ids, const_ids, var_ids, place_ids, trans_ids, partition_ids;
    int64_t dot;        /* the dot sort, -1 until needed */
    int in_multiset;    /* a tuple's component may be <all>: the product */
    int in_initial;     /* an initial marking: no binding, so no variable */
} reader;

/* ------------------------------------------------------------------ */
/* messages */

static long line_of(const xmlNode *n)
{
    long l = n ? xmlGetLineNo(n) : 0;
    return l > 0 ? l : 1;
}

static int fail(reader *R, const xmlNode *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(reader *R, const xmlNode *n, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!R->failed)   /* the first error is the one that explains */
        nc_error(R->file, line_of(n), "%s", msg);
    R->failed = 1;
    return -1;
}

static int no_memory(reader *R, const xmlNode *n)
{
    return fail(R, n, "out of memory");
}

static const char *show(const char *s, char *buf, size_t size)
{
    return pn_show(s, buf, size);
}

static const char *ename(const xmlNode *n)
{
    return (const char *)n->name;
}

static int unsupported(reader *R, const xmlNode *n, const char *where)
{
    char a[64];
    return fail(R, n, "<%s> %s is not supported (symmetric nets of the MCC only)",
                show(ename(n), a, sizeof a), where);
}

/* ------------------------------------------------------------------ */
/* tables */

/* Adds k -> v: 0, 1 when k is already there (the map unchanged), -1 out
 * of memory. */
static int put(strmap *m, const char *k, uint32_t v)
{
    int r = strmap_insert(m, k, &v);
    return r < 0 ? -1 : !r;
}

/* ------------------------------------------------------------------ */
/* the tree */

static int is(const xmlNode *n, const char *name)
{
    return n && !strcmp(ename(n), name);
}

/* Element children that carry meaning: graphics and tool data do not. */
static xmlNode *next_elem(xmlNode *n)
{
    for (; n; n = n->next)
        if (n->type == XML_ELEMENT_NODE && !is(n, "graphics") && !is(n, "toolspecific"))
            return n;
    return NULL;
}

static xmlNode *first(xmlNode *n)
{
    return n ? next_elem(n->children) : NULL;
}

static xmlNode *after(xmlNode *n)
{
    return next_elem(n->next);
}

static xmlNode *child(xmlNode *n, const char *name)
{
    for (xmlNode *c = first(n); c; c = after(c))
        if (is(c, name))
            return c;
    return NULL;
}

/* The attribute's value (to be freed), or NULL. */
static char *attr(const xmlNode *n, const char *name)
{
    return (char *)xmlGetProp(n, (const xmlChar *)name);
}

/* An attribute that must be there and not be empty. */
static char *need_attr(reader *R, const xmlNode *n, const char *name)
{
    char *v = attr(n, name), a[64];
    if (!v || !*v) {
        free(v);
        fail(R, n, "<%s> without %s", show(ename(n), a, sizeof a), name);
        return NULL;
    }
    return v;
}

/* The trimmed text of a <name><text> child, or a copy of fallback. */
static char *node_name(reader *R, xmlNode *n, const char *fallback)
{
    xmlNode *t = child(child(n, "name"), "text");
    char *s = t ? (char *)xmlNodeGetContent(t) : NULL;
    if (s) {
        char *b = s, *e = s + strlen(s);
        while (*b == ' ' || *b == '\t' || *b == '\n' || *b == '\r')
            b++;
        while (e > b && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
            e--;
        *e = '\0';
        if (*b) {
            char *c = strdup(b);
            free(s);
            if (!c)
                no_memory(R, n);
            return c;
        }
        free(s);
    }
    char *c = strdup(fallback);
    if (!c)
        no_memory(R, n);
    return c;
}

/* A <subterm> stands for its one element. */
static xmlNode *unwrap(reader *R, xmlNode *n)
{
    if (!is(n, "subterm"))
        return n;
    xmlNode *c = first(n);
    if (!c || after(c)) {
        fail(R, n, "<subterm> needs exactly one term");
        return NULL;
    }
    return c;
}

/* ------------------------------------------------------------------ */
/* numbers */

static int parse_i64(const char *s, int64_t *out)
{
    const char *p = s + (*s == '-');
    int64_t v = 0;
    if (!*p)
        return -1;
    for (; *p; p++) {
        if (*p < '0' || *p > '9')
            return -1;
        if (__builtin_mul_overflow(v, 10, &v) || __builtin_sub_overflow(v, *p - '0', &v))
            return -1;
    }
    if (*s != '-') {
        if (v == INT64_MIN)
            return -1;
        v = -v;
    }
    *out = v;
    return 0;
}

static int int_attr(reader *R, const xmlNode *n, const char *name, int64_t *out)
{
    char *v = need_attr(R, n, name), a[64];
    if (!v)
        return -1;
    int rc = parse_i64(v, out);
    if (rc < 0)
        fail(R, n, "%s '%s' is not an integer within 64 bits", name, show(v, a, sizeof a));
    free(v);
    return rc;
}

/* ------------------------------------------------------------------ */
/* sorts */

static int64_t new_sort(reader *R, const xmlNode *n, pc_sort_kind kind)
{
    pc_net *pn = R->pn;
    if (pn->nsorts >= PC_MAX_COLORS ||
        GROW(pn->sorts, pn->cap_sorts, pn->nsorts + 1) < 0)
        return no_memory(R, n);
    pc_sort *s = &pn->sorts[pn->nsorts];
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->size = 1;
    return (int64_t)pn->nsorts++;
}

static int sort_same(const pc_net *pn, uint32_t a, uint32_t b)
{
    if (a == b)
        return 1;
    const pc_sort *x = &pn->sorts[a], *y = &pn->sorts[b];
    if (x->kind != y->kind)
        return 0;
    switch (x->kind) {
    case PC_DOT:
        return 1;
    case PC_ENUM:   /* the same constants: only the same declaration */
        return 0;
    case PC_RANGE:
        return x->start == y->start && x->size == y->size;
    case PC_PRODUCT:
        if (x->ncomp != y->ncomp)
            return 0;
        for (uint32_t i = 0; i < x->ncomp; i++)
            if (!sort_same(pn, x->comp[i], y->comp[i]))
                return 0;
        return 1;
    }
    return 0;
}

static int64_t dot_sort(reader *R, const xmlNode *n)
{
    if (R->dot < 0)
        R->dot = new_sort(R, n, PC_DOT);
    return R->dot;
}

static int64_t sort_expr(reader *R, xmlNode *n);

static int64_t enum_sort(reader *R, xmlNode *n)
{
    int64_t s = new_sort(R, n, PC_ENUM);
    if (s < 0)
        return -1;
    pc_net *pn = R->pn;
    pn->sorts[s].cyclic = is(n, "cyclicenumeration");
    pn->sorts[s].first = (uint32_t)pn->nconsts;
    uint32_t count = 0;
    for (xmlNode *c = first(n); c; c = after(c)) {
        if (!is(c, "feconstant"))
            return unsupported(R, c, "in an enumeration");
        if (count >= PC_MAX_COLORS)
            return fail(R, c, "enumeration of more than %u constants", PC_MAX_COLORS);
        if (GROW(pn->consts, pn->cap_consts, pn->nconsts + 1) < 0)
            return no_memory(R, c);
        pc_const *k = &pn->consts[pn->nconsts];
        k->id = need_attr(R, c, "id");
        if (!k->id)
            return -1;
        k->name = attr(c, "name");
        if (!k->name || !*k->name) {
            free(k->name);
            k->name = strdup(k->id);
        }
        k->sort = (uint32_t)s;
        k->index = count;
        pn->nconsts++;
        if (!k->name)
            return no_memory(R, c);
        int rc = put(&R->const_ids, k->id, (uint32_t)(pn->nconsts - 1));
        char a[64];
        if (rc > 0)
            return fail(R, c, "duplicate constant id '%s'", show(k->id, a, sizeof a));
        if (rc < 0)
            return no_memory(R, c);
        count++;
    }
    if (!count)
        return fail(R, n, "empty enumeration");
    pn->sorts[s].size = count;
    return s;
}

static int64_t range_sort(reader *R, xmlNode *n)
{
    int64_t lo, hi;
    if (int_attr(R, n, "start", &lo) < 0 || int_attr(R, n, "end", &hi) < 0)
        return -1;
    if (hi < lo)
        return fail(R, n, "empty range %lld..%lld", (long long)lo, (long long)hi);
    if ((uint64_t)hi - (uint64_t)lo >= PC_MAX_COLORS)
        return fail(R, n, "range %lld..%lld has more than %u colors", (long long)lo,
                    (long long)hi, PC_MAX_COLORS);
    /* an equal range declared before is the same sort */
    for (size_t i = 0; i < R->pn->nsorts; i++) {
        const pc_sort *s = &R->pn->sorts[i];
        if (s->kind == PC_RANGE && s->start == lo && s->size == (uint32_t)(hi - lo + 1))
            return (int64_t)i;
    }
    int64_t s = new_sort(R, n, PC_RANGE);
    if (s < 0)
        return -1;
    R->pn->sorts[s].start = lo;
    R->pn->sorts[s].size = (uint32_t)(hi - lo + 1);
    return s;
}

/* A product of the given component sorts: a declared one when there is
 * one (tuples in guards have no declared sort), else a new one. */
static int64_t product_of(reader *R, const xmlNode *n, const uint32_t *comp, uint32_t ncomp,
                          int reuse)
{
    pc_net *pn = R->pn;
    uint64_t size = 1;
    for (uint32_t i = 0; i < ncomp; i++) {
        size *= pn->sorts[comp[i]].size;
        if (size > PC_MAX_COLORS)
            return fail(R, n, "product sort of more than %u colors", PC_MAX_COLORS);
    }
    for (size_t i = 0; reuse && i < pn->nsorts; i++) {
        const pc_sort *s = &pn->sorts[i];
        if (s->kind != PC_PRODUCT || s->ncomp != ncomp)
            continue;
        uint32_t j = 0;
        while (j < ncomp && sort_same(pn, s->comp[j], comp[j]))
            j++;
        if (j == ncomp)
            return (int64_t)i;
    }
    int64_t s = new_sort(R, n, PC_PRODUCT);
    if (s < 0)
        return -1;
    uint32_t *c = malloc(ncomp * sizeof *c);
    if (!c)
        return no_memory(R, n);
    memcpy(c, comp, ncomp * sizeof *c);
    pn->sorts[s].comp = c;
    pn->sorts[s].ncomp = ncomp;
    pn->sorts[s].size = (uint32_t)size;
    return s;
}

static int64_t product_sort(reader *R, xmlNode *n)
{
    uint32_t comp[64], ncomp = 0;
    for (xmlNode *c = first(n); c; c = after(c)) {
        if (ncomp == sizeof comp / sizeof comp[0])
            return fail(R, c, "product of more than 64 sorts");
        int64_t s = sort_expr(R, c);
        if (s < 0)
            return -1;
        if (R->pn->sorts[s].kind == PC_PRODUCT)
            return fail(R, c, "product of products is not supported");
        comp[ncomp++] = (uint32_t)s;
    }
    if (!ncomp)
        return fail(R, n, "empty product sort");
    return product_of(R, n, comp, ncomp, 0);
}

static int64_t named_sort(reader *R, xmlNode *n, const char *id)
{
    char a[64];
    int64_t k = strmap_find(&R->named_ids, id);
    if (k < 0) {
        if (strmap_find(&R->partition_ids, id) >= 0)
            return fail(R, n, "partition '%s' used as a sort is not supported",
                        show(id, a, sizeof a));
        return fail(R, n, "unknown sort '%s'", show(id, a, sizeof a));
    }
    named *d = &R->nameds[k];
    if (d->state == 2)
        return d->sort;
    if (d->state == 1)
        return fail(R, n, "sort '%s' is defined in terms of itself", show(id, a, sizeof a));
    d->state = 1;
    int64_t s = sort_expr(R, d->def);
    if (s < 0)
        return -1;
    d = &R->nameds[k];
    d->state = 2;
    d->sort = (uint32_t)s;
    pc_sort *ps = &R->pn->sorts[s];
    if (!ps->id && !is(d->def, "usersort")) {   /* the first name of a sort is its own */
        ps->id = d->id;
        ps->name = d->name;
        d->id = d->name = NULL;
    }
    return s;
}

static int64_t sort_expr(reader *R, xmlNode *n)
{
    if (is(n, "usersort")) {
        char *id = need_attr(R, n, "declaration");
        if (!id)
            return -1;
        int64_t s = named_sort(R, n, id);
        free(id);
        return s;
    }
    if (is(n, "dot"))
        return dot_sort(R, n);
    if (is(n, "cyclicenumeration") || is(n, "finiteenumeration"))
        return enum_sort(R, n);
    if (is(n, "finiteintrange"))
        return range_sort(R, n);
    if (is(n, "productsort"))
        return product_sort(R, n);
    return unsupported(R, n, "as a sort");
}

/* ------------------------------------------------------------------ */
/* declarations */

static int declare_named(reader *R, xmlNode *n)
{
    char *id = need_attr(R, n, "id"), a[64];
    if (!id)
        return -1;
    xmlNode *def = first(n);
    if (!def || after(def)) {
        free(id);
        return fail(R, n, "<namedsort> needs exactly one sort");
    }
    if (GROW(R->nameds, R->cap_nameds, R->nnameds + 1) < 0) {
        free(id);
        return no_memory(R, n);
    }
    named *d = &R->nameds[R->nnameds++];
    memset(d, 0, sizeof *d);
    d->def = def;
    d->id = id;
    d->name = node_name(R, n, id);
    char *nm = attr(n, "name");
    if (nm && *nm) {
        free(d->name);
        d->name = nm;
    } else
        free(nm);
    if (!d->name)
        return no_memory(R, n);
    int rc = put(&R->named_ids, d->id, (uint32_t)(R->nnameds - 1));
    if (rc > 0)
        return fail(R, n, "duplicate sort id '%s'", show(id, a, sizeof a));
    return rc < 0 ? no_memory(R, n) : 0;
}

/* Partitions only group the constants of a sort; a model that declares one
 * without using it means the same without it.  Their ids are kept so that
 * a use is refused by name. */
static int declare_partition(reader *R, xmlNode *n)
{
    char *id = need_attr(R, n, "id");
    if (!id)
        return -1;
    /* the map owns its partition keys (freed with the reader) */
    int rc = put(&R->partition_ids, id, 0);
    if (rc != 0)
        free(id);
    if (rc < 0)
        return no_memory(R, n);
    for (xmlNode *c = first(n); c; c = after(c)) {
        char *eid = is(c, "partitionelement") ? attr(c, "id") : NULL;
        if (eid && put(&R->partition_ids, eid, 0) != 0)
            free(eid);
    }
    return 0;
}

static int declare_var(reader *R, xmlNode *n)
{
    pc_net *pn = R->pn;
    char a[64];
    if (GROW(pn->vars, pn->cap_vars, pn->nvars + 1) < 0)
        return no_memory(R, n);
    pc_var *v = &pn->vars[pn->nvars];
    memset(v, 0, sizeof *v);
    v->id = need_attr(R, n, "id");
    if (!v->id)
        return -1;
    pn->nvars++;
    v->name = attr(n, "name");
    if (!v->name || !*v->name) {
        free(v->name);
        v->name = strdup(v->id);
        if (!v->name)
            return no_memory(R, n);
    }
    xmlNode *def = first(n);
    if (!def || after(def))
        return fail(R, n, "<variabledecl> needs exactly one sort");
    int64_t s = sort_expr(R, def);
    if (s < 0)
        return -1;
    pn->vars[pn->nvars - 1].sort = (uint32_t)s;
    int rc = put(&R->var_ids, pn->vars[pn->nvars - 1].id, (uint32_t)(pn->nvars - 1));
    if (rc > 0)
        return fail(R, n, "duplicate variable id '%s'",
                    show(pn->vars[pn->nvars - 1].id, a, sizeof a));
    return rc < 0 ? no_memory(R, n) : 0;
}

/* Named sorts first (a variable's sort may be declared after it), then
 * the sorts themselves (which declares the constants), then variables. */
static int declarations(reader *R, xmlNode *decls, int pass)
{
    for (xmlNode *c = first(decls); c; c = after(c)) {
        int rc = 0;
        if (is(c, "namedsort"))
            rc = pass == 0 ? declare_named(R, c) : 0;
        else if (is(c, "partition"))
            rc = pass == 0 ? declare_partition(R, c) : 0;
        else if (is(c, "variabledecl"))
            rc = pass == 2 ? declare_var(R, c) : 0;
        else if (pass == 0)
            rc = unsupported(R, c, "as a declaration");
        if (rc < 0)
            return -1;
    }
    if (pass == 1)
        for (size_t i = 0; i < R->nnameds; i++)
            if (R->nameds[i].state != 2 && named_sort(R, R->nameds[i].def, R->nameds[i].id) < 0)
                return -1;
    return 0;
}

/* ------------------------------------------------------------------ */
/* terms */

static pc_term *new_term(reader *R, xmlNode *n, pc_op op, uint32_t nk)
{
    pc_term *t = calloc(1, sizeof *t);
    if (t && nk && !(t->k = calloc(nk, sizeof *t->k))) {
        free(t);
        t = NULL;
    }
    if (!t) {
        no_memory(R, n);
        return NULL;
    }
    t->op = op;
    t->nk = nk;
    t->line = line_of(n);
    return t;
}

static void term_free(pc_term *t)
{
    if (!t)
        return;
    for (uint32_t i = 0; i < t->nk; i++)
        term_free(t->k[i]);
    free(t->k);
    free(t);
}

static uint32_t count_kids(xmlNode *n)
{
    uint32_t k = 0;
    for (xmlNode *c = first(n); c; c = after(c))
        k++;
    return k;
}

static pc_term *color(reader *R, xmlNode *n, int depth);

static pc_term *color_of_sort(reader *R, xmlNode *n, int depth, uint32_t sort)
{
    pc_term *t = color(R, n, depth);
    if (t && !sort_same(R->pn, t->sort, sort)) {
        char a[64], b[64];
        fail(R, n, "color of sort '%s' where sort '%s' is expected",
             show(R->pn->sorts[t->sort].name ? R->pn->sorts[t->sort].name : "(anonymous)", a,
                  sizeof a),
             show(R->pn->sorts[sort].name ? R->pn->sorts[sort].name : "(anonymous)", b,
                  sizeof b));
        term_free(t);
        return NULL;
    }
    return t;
}

static pc_term *color_ref(reader *R, xmlNode *n, int var)
{
    char *id = need_attr(R, n, var ? "refvariable" : "declaration"), a[64];
    if (!id)
        return NULL;
    int64_t k = strmap_find(var ? &R->var_ids : &R->const_ids, id);
    pc_term *t = NULL;
    if (var && R->in_initial)
        fail(R, n, "a variable in <hlinitialMarking>: an initial marking has no binding");
    else if (k < 0 && !var && strmap_find(&R->partition_ids, id) >= 0)
        fail(R, n, "partition element '%s' in a term is not supported", show(id, a, sizeof a));
    else if (k < 0)
        fail(R, n, "unknown %s '%s'", var ? "variable" : "constant", show(id, a, sizeof a));
    else if ((t = new_term(R, n, var ? PC_T_VAR : PC_T_CONST, 0))) {
        const pc_net *pn = R->pn;
        t->sort = var ? pn->vars[k].sort : pn->consts[k].sort;
        t->value = var ? (uint32_t)k : pn->consts[k].index;
    }
    free(id);
    return t;
}

static pc_term *tuple(reader *R, xmlNode *n, int depth)
{
    uint32_t nk = count_kids(n), comp[64];
    if (!nk || nk > 64) {
        fail(R, n, "<tuple> of %u components", nk);
        return NULL;
    }
    pc_term *t = new_term(R, n, PC_T_TUPLE, nk);
    uint32_t i = 0;
    for (xmlNode *c = first(n); t && c; c = after(c), i++) {
        xmlNode *cc = R->in_multiset ? unwrap(R, c) : c;
        if (cc && is(cc, "all")) {
            /* <all> in a tuple: every color of that component */
            xmlNode *sn = first(cc);
            int64_t s = sn && !after(sn) ? sort_expr(R, sn) : fail(R, cc, "<all> needs one sort");
            if (s >= 0 && (t->k[i] = new_term(R, cc, PC_T_ALL, 0)))
                t->k[i]->sort = (uint32_t)s;
        } else
            t->k[i] = cc ? color(R, cc, depth + 1) : NULL;
        if (!t->k[i] || R->pn->sorts[t->k[i]->sort].kind == PC_PRODUCT) {
            if (t->k[i])
                fail(R, c, "tuple inside a tuple is not supported");
            term_free(t);
            return NULL;
        }
        comp[i] = t->k[i]->sort;
    }
    if (t && nk == 1) {   /* a 1-tuple is its component (the MCC writes <All> so) */
        pc_term *only = t->k[0];
        t->nk = 0;
        term_free(t);
        return only;
    }
    int64_t s = t ? product_of(R, n, comp, nk, 1) : -1;
    if (s < 0) {
        term_free(t);
        return NULL;
    }
    t->sort = (uint32_t)s;
    return t;
}

static pc_term *range_const(reader *R, xmlNode *n)
{
    int64_t v;
    xmlNode *r = first(n);
    if (int_attr(R, n, "value", &v) < 0)
        return NULL;
    if (!is(r, "finiteintrange")) {
        fail(R, n, "<finiteintrangeconstant> without its <finiteintrange>");
        return NULL;
    }
    int64_t s = range_sort(R, r);
    if (s < 0)
        return NULL;
    const pc_sort *ps = &R->pn->sorts[s];
    if (v < ps->start || (uint64_t)v - (uint64_t)ps->start >= ps->size) {
        fail(R, n, "constant %lld outside its range", (long long)v);
        return NULL;
    }
    pc_term *t = new_term(R, n, PC_T_CONST, 0);
    if (t) {
        t->sort = (uint32_t)s;
        t->value = (uint32_t)((uint64_t)v - (uint64_t)ps->start);
    }
    return t;
}

static pc_term *color(reader *R, xmlNode *n, int depth)
{
    if (!(n = unwrap(R, n)))
        return NULL;
    if (depth > MAX_TERM_DEPTH) {
        fail(R, n, "terms nested deeper than %d", MAX_TERM_DEPTH);
        return NULL;
    }
    if (is(n, "variable"))
        return color_ref(R, n, 1);
    if (is(n, "useroperator"))
        return color_ref(R, n, 0);
    if (is(n, "dotconstant")) {
        int64_t s = dot_sort(R, n);
        pc_term *t = s < 0 ? NULL : new_term(R, n, PC_T_CONST, 0);
        if (t)
            t->sort = (uint32_t)s;
        return t;
    }
    if (is(n, "tuple"))
        return tuple(R, n, depth);
    if (is(n, "finiteintrangeconstant"))
        return range_const(R, n);
    if (is(n, "successor") || is(n, "predecessor")) {
        xmlNode *c = first(n);
        if (!c || after(c)) {
            fail(R, n, "<%s> needs exactly one term", ename(n));
            return NULL;
        }
        pc_term *t = new_term(R, n, is(n, "successor") ? PC_T_SUCC : PC_T_PRED, 1);
        if (!t || !(t->k[0] = color(R, c, depth + 1))) {
            term_free(t);
            return NULL;
        }
        t->sort = t->k[0]->sort;
        const pc_sort *s = &R->pn->sorts[t->sort];
        if (s->kind != PC_ENUM || !s->cyclic) {
            fail(R, n, "<%s> of a color that is not of a cyclic enumeration", ename(n));
            term_free(t);
            return NULL;
        }
        return t;
    }
    unsupported(R, n, "as a color");
    return NULL;
}

static pc_term *multiset(reader *R, xmlNode *n, uint32_t sort, int depth);

static int is_multiset(const xmlNode *n)
{
    return is(n, "numberof") || is(n, "add") || is(n, "subtract") || is(n, "all");
}

static int read_count(reader *R, xmlNode *n, nc_count *out)
{
    n = unwrap(R, n);
    if (!n)
        return -1;
    if (!is(n, "numberconstant"))
        return unsupported(R, n, "as a multiplicity");
    char *v = need_attr(R, n, "value"), a[64];
    if (!v)
        return -1;
    nc_count c = 0;
    const char *p = v;
    int ok = *p != '\0';
    for (; ok && *p; p++) {
        unsigned d = (unsigned)(*p - '0');
        if (*p < '0' || *p > '9' || c > (NC_COUNT_MAX - d) / 10)
            ok = 0;
        else
            c = c * 10 + d;
    }
    if (!ok)
        fail(R, n, "multiplicity '%s' is not a number up to %llu", show(v, a, sizeof a),
             (unsigned long long)NC_COUNT_MAX);
    free(v);
    *out = c;
    return ok ? 0 : -1;
}

static pc_term *numberof(reader *R, xmlNode *n, uint32_t sort, int depth)
{
    xmlNode *a = first(n), *b = a ? after(a) : NULL;
    if (!b || after(b)) {
        fail(R, n, "<numberof> needs a number and a term");
        return NULL;
    }
    pc_term *t = new_term(R, n, PC_T_NUMBEROF, 1);
    if (!t || read_count(R, a, &t->count) < 0) {
        term_free(t);
        return NULL;
    }
    xmlNode *bb = unwrap(R, b);
    t->sort = sort;
    R->in_multiset = 1;
    t->k[0] = !bb ? NULL : is_multiset(bb) ? multiset(R, bb, sort, depth + 1)
                                          : color_of_sort(R, bb, depth + 1, sort);
    R->in_multiset = 0;
    if (!t->k[0]) {
        term_free(t);
        return NULL;
    }
    return t;
}

static pc_term *multiset(reader *R, xmlNode *n, uint32_t sort, int depth)
{
    if (!(n = unwrap(R, n)))
        return NULL;
    if (depth > MAX_TERM_DEPTH) {
        fail(R, n, "terms nested deeper than %d", MAX_TERM_DEPTH);
        return NULL;
    }
    if (is(n, "numberof"))
        return numberof(R, n, sort, depth);
    if (is(n, "all")) {
        xmlNode *c = first(n);
        int64_t s = c && !after(c) ? sort_expr(R, c) : fail(R, n, "<all> needs one sort");
        if (s < 0)
            return NULL;
        if (!sort_same(R->pn, (uint32_t)s, sort)) {
            fail(R, n, "<all> of another sort than the place's");
            return NULL;
        }
        pc_term *t = new_term(R, n, PC_T_ALL, 0);
        if (t)
            t->sort = sort;
        return t;
    }
    if (is(n, "add") || is(n, "subtract")) {
        uint32_t nk = count_kids(n);
        int sub = is(n, "subtract");
        /* a - b - c: what the MCC writes for (a - b) - c */
        if (sub ? nk < 2 : nk == 0) {
            fail(R, n, "<%s> with %u terms", ename(n), nk);
            return NULL;
        }
        pc_term *t = new_term(R, n, sub ? PC_T_SUBTRACT : PC_T_ADD, nk);
        uint32_t i = 0;
        for (xmlNode *c = first(n); t && c; c = after(c), i++)
            if (!(t->k[i] = multiset(R, c, sort, depth + 1))) {
                term_free(t);
                return NULL;
            }
        if (t)
            t->sort = sort;
        return t;
    }
    /* a bare color is that color once */
    R->in_multiset = 1;
    pc_term *c = color_of_sort(R, n, depth + 1, sort);
    R->in_multiset = 0;
    pc_term *t = c ? new_term(R, n, PC_T_NUMBEROF, 1) : NULL;
    if (!t) {
        term_free(c);
        return NULL;
    }
    t->count = 1;
    t->sort = sort;
    t->k[0] = c;
    return t;
}

static const struct {
    const char *name;
    pc_op op;
} comparisons[] = {
    {"equality", PC_T_EQ}, {"inequality", PC_T_NE}, {"lessthan", PC_T_LT},
    {"lessthanorequal", PC_T_LE}, {"greaterthan", PC_T_GT}, {"greaterthanorequal", PC_T_GE},
};

static pc_term *guard(reader *R, xmlNode *n, int depth)
{
    if (!(n = unwrap(R, n)))
        return NULL;
    if (depth > MAX_TERM_DEPTH) {
        fail(R, n, "terms nested deeper than %d", MAX_TERM_DEPTH);
        return NULL;
    }
    uint32_t nk = count_kids(n);
    if (is(n, "booleanconstant")) {
        char *v = need_attr(R, n, "value");
        if (!v)
            return NULL;
        int val = !strcmp(v, "true") ? 1 : !strcmp(v, "false") ? 0 : -1;
        free(v);
        if (val < 0) {
            fail(R, n, "<booleanconstant> neither true nor false");
            return NULL;
        }
        pc_term *t = new_term(R, n, PC_T_BOOL, 0);
        if (t)
            t->value = (uint32_t)val;
        return t;
    }
    pc_op op;
    int cmp = 0;
    if (is(n, "and") || is(n, "or")) {
        op = is(n, "and") ? PC_T_AND : PC_T_OR;
        if (!nk) {
            fail(R, n, "<%s> without terms", ename(n));
            return NULL;
        }
    } else if (is(n, "not") || is(n, "imply")) {
        op = is(n, "not") ? PC_T_NOT : PC_T_IMPLY;
        if (nk != (op == PC_T_NOT ? 1u : 2u)) {
            fail(R, n, "<%s> with %u terms", ename(n), nk);
            return NULL;
        }
    } else {
        size_t i = 0;
        while (i < sizeof comparisons / sizeof comparisons[0] && !is(n, comparisons[i].name))
            i++;
        if (i == sizeof comparisons / sizeof comparisons[0]) {
            unsupported(R, n, "in a guard");
            return NULL;
        }
        op = comparisons[i].op;
        cmp = 1;
        if (nk != 2) {
            fail(R, n, "<%s> with %u terms", ename(n), nk);
            return NULL;
        }
    }
    pc_term *t = new_term(R, n, op, nk);
    uint32_t i = 0;
    for (xmlNode *c = first(n); t && c; c = after(c), i++) {
        t->k[i] = !cmp ? guard(R, c, depth + 1)
                  : i == 0 ? color(R, c, depth + 1)
                           : color_of_sort(R, c, depth + 1, t->k[0]->sort);
        if (!t->k[i]) {
            term_free(t);
            return NULL;
        }
    }
    return t;
}

/* ------------------------------------------------------------------ */
/* nodes */

static xmlNode *structure_of(reader *R, xmlNode *label)
{
    xmlNode *s = child(label, "structure");
    xmlNode *c = s ? first(s) : NULL;
    if (!c || after(c)) {
        char a[64];
        fail(R, label, "<%s> needs a <structure> with one term", show(ename(label), a, sizeof a));
        return NULL;
    }
    return c;
}

static int node_id(reader *R, xmlNode *n, char **id)
{
    char a[64];
    *id = need_attr(R, n, "id");
    if (!*id)
        return -1;
    if (strmap_find(&R->place_ids, *id) >= 0 || strmap_find(&R->trans_ids, *id) >= 0)
        return fail(R, n, "duplicate id '%s'", show(*id, a, sizeof a));
    return 0;
}

static int read_place(reader *R, xmlNode *n)
{
    pc_net *pn = R->pn;
    if (GROW(pn->places, pn->cap_places, pn->nplaces + 1) < 0)
        return no_memory(R, n);
    pc_place *p = &pn->places[pn->nplaces];
    memset(p, 0, sizeof *p);
    p->line = line_of(n);
    int rc = node_id(R, n, &p->id);
    if (p->id)
        pn->nplaces++;
    if (rc < 0)
        return -1;
    if (!(p->name = node_name(R, n, p->id)))
        return -1;
    if (put(&R->place_ids, p->id, (uint32_t)(pn->nplaces - 1)) < 0)
        return no_memory(R, n);
    xmlNode *type = child(n, "type"), *s;
    char a[64];
    if (!type)
        return fail(R, n, "colored place '%s' without a <type>", show(p->id, a, sizeof a));
    if (!(s = structure_of(R, type)))
        return -1;
    int64_t sort = sort_expr(R, s);
    if (sort < 0)
        return -1;
    p->sort = (uint32_t)sort;
    if (child(n, "initialMarking"))
        return fail(R, child(n, "initialMarking"),
                    "P/T <initialMarking> in a symmetric net: use <hlinitialMarking>");
    xmlNode *m = child(n, "hlinitialMarking");
    if (m) {
        if (!(s = structure_of(R, m)))
            return -1;
        R->in_initial = 1;
        p->initial = multiset(R, s, p->sort, 0);
        R->in_initial = 0;
        if (!p->initial)
            return -1;
    }
    return 0;
}

static int read_transition(reader *R, xmlNode *n)
{
    pc_net *pn = R->pn;
    if (GROW(pn->transitions, pn->cap_transitions, pn->ntransitions + 1) < 0)
        return no_memory(R, n);
    pc_transition *t = &pn->transitions[pn->ntransitions];
    memset(t, 0, sizeof *t);
    t->line = line_of(n);
    int rc = node_id(R, n, &t->id);
    if (t->id)
        pn->ntransitions++;
    if (rc < 0)
        return -1;
    if (!(t->name = node_name(R, n, t->id)))
        return -1;
    if (put(&R->trans_ids, t->id, (uint32_t)(pn->ntransitions - 1)) < 0)
        return no_memory(R, n);
    xmlNode *c = child(n, "condition"), *s;
    if (c) {
        if (!(s = structure_of(R, c)))
            return -1;
        if (!(t->guard = guard(R, s, 0)))
            return -1;
    }
    return 0;
}

static int read_arc(reader *R, xmlNode *n)
{
    pc_net *pn = R->pn;
    char a[64], b[64];
    if (GROW(pn->arcs, pn->cap_arcs, pn->narcs + 1) < 0)
        return no_memory(R, n);
    pc_arc *arc = &pn->arcs[pn->narcs];
    memset(arc, 0, sizeof *arc);
    arc->line = line_of(n);
    char *src = NULL, *tgt = NULL;
    arc->id = attr(n, "id");
    pn->narcs++;
    if (!arc->id && !(arc->id = strdup("")))
        return no_memory(R, n);
    if (!(src = need_attr(R, n, "source")) || !(tgt = need_attr(R, n, "target"))) {
        free(src);
        return -1;
    }
    int64_t sp = strmap_find(&R->place_ids, src), st = strmap_find(&R->trans_ids, src);
    int64_t tp = strmap_find(&R->place_ids, tgt), tt = strmap_find(&R->trans_ids, tgt);
    int rc = 0;
    if (sp < 0 && st < 0)
        rc = fail(R, n, "arc '%s': unknown source '%s'", show(arc->id, a, sizeof a),
                  show(src, b, sizeof b));
    else if (tp < 0 && tt < 0)
        rc = fail(R, n, "arc '%s': unknown target '%s'", show(arc->id, a, sizeof a),
                  show(tgt, b, sizeof b));
    else if ((sp >= 0) == (tp >= 0))
        rc = fail(R, n, "arc '%s' connects two %s", show(arc->id, a, sizeof a),
                  sp >= 0 ? "places" : "transitions");
    free(src);
    free(tgt);
    if (rc < 0)
        return -1;
    arc->to_place = tp >= 0;
    arc->place = (uint32_t)(arc->to_place ? tp : sp);
    arc->transition = (uint32_t)(arc->to_place ? st : tt);
    uint32_t sort = pn->places[arc->place].sort;
    if (child(n, "inscription"))
        return fail(R, child(n, "inscription"),
                    "P/T <inscription> in a symmetric net: use <hlinscription>");
    xmlNode *h = child(n, "hlinscription"), *s;
    if (!h) {
        /* no inscription on a place of black tokens: one token, as in P/T */
        if (pn->sorts[sort].kind != PC_DOT)
            return fail(R, n, "arc '%s' without <hlinscription>", show(arc->id, a, sizeof a));
        pc_term *t = new_term(R, n, PC_T_NUMBEROF, 1);
        if (!t || !(t->k[0] = new_term(R, n, PC_T_CONST, 0))) {
            term_free(t);
            return -1;
        }
        t->count = 1;
        t->sort = t->k[0]->sort = sort;
        pn->arcs[pn->narcs - 1].weight = t;
        return 0;
    }
    if (!(s = structure_of(R, h)))
        return -1;
    pc_term *w = multiset(R, s, sort, 0);
    if (!w)
        return -1;
    pn->arcs[pn->narcs - 1].weight = w;
    return 0;
}

/* Visits the net's elements (through nested pages) in file order: pass 0
 * and 1 and 2 the declarations, 3 places and transitions, 4 arcs. */
static int walk(reader *R, xmlNode *parent, int pass)
{
    for (xmlNode *c = first(parent); c; c = after(c)) {
        int rc = 0;
        if (budget_poll()) {
            R->failed = 1;   /* the command says which limit */
            return -1;
        }
        if (is(c, "page"))
            rc = walk(R, c, pass);
        else if (is(c, "declaration")) {
            if (pass <= 2) {
                xmlNode *d = child(child(c, "structure"), "declarations");
                rc = d ? declarations(R, d, pass)
                       : fail(R, c, "<declaration> without <structure><declarations>");
            }
        } else if (is(c, "place"))
            rc = pass == 3 ? read_place(R, c) : 0;
        else if (is(c, "transition"))
            rc = pass == 3 ? read_transition(R, c) : 0;
        else if (is(c, "arc"))
            rc = pass == 4 ? read_arc(R, c) : 0;
        else if (is(c, "referencePlace") || is(c, "referenceTransition"))
            rc = pass == 3 ? unsupported(R, c, "(reference nodes)") : 0;
        if (rc < 0)
            return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* the file */

static void on_xml_error(void *ctx, xml_error e)
{
    reader *R = ctx;
    if (!e || e->level < XML_ERR_ERROR || R->xmlerr.seen)
        return;
    R->xmlerr.seen = 1;
    R->xmlerr.line = e->line;
    char own[96];
    pn_show(e->message ? xml_error_text(e->message, own, sizeof own) : "unknown XML error",
            R->xmlerr.msg, sizeof R->xmlerr.msg);
    size_t n = strlen(R->xmlerr.msg);
    while (n && (R->xmlerr.msg[n - 1] == '?' || R->xmlerr.msg[n - 1] == ' '))
        R->xmlerr.msg[--n] = '\0';
}

/* Entity declarations have no use in PNML and are how entity bombs work. */
static int refuse_entities(const char *path, const char *buf, size_t len)
{
    const char *e = NULL;
    for (size_t i = 0; !e && i + 8 <= len; i++)
        if (buf[i] == '<' && !memcmp(buf + i, "<!ENTITY", 8))
            e = buf + i;
    if (!e)
        return 0;
    long line = 1;
    for (const char *p = buf; p < e; p++)
        line += *p == '\n';
    nc_error(path, line, "DOCTYPE declares entities, which PNML does not use: refused");
    return -1;
}

/* The file's bytes handed to libxml2 a few KB at a time: the tree grows
 * about ten times as fast as they are read, and a limit stops it here
 * (libxml2 then fails with an I/O error, which nobody prints). */
#define FEED_CHECK_BYTES ((size_t)64 << 10)

typedef struct feed {
    const char *next;
    size_t left, unchecked;
} feed;

static int feed_read(void *ctx, char *out, int len)
{
    feed *f = ctx;
    if (f->unchecked >= FEED_CHECK_BYTES) {
        if (budget_check())
            return -1;
        f->unchecked = 0;
    }
    size_t n = len > 0 ? (size_t)len : 0;
    if (n > f->left)
        n = f->left;
    memcpy(out, f->next, n);
    f->next += n;
    f->left -= n;
    f->unchecked += n;
    return (int)n;
}

static pc_net *read_doc(reader *R, xmlDoc *doc)
{
    xmlNode *root = xmlDocGetRootElement(doc), *net = NULL;
    if (!is(root, "pnml")) {
        fail(R, root, "root element is not <pnml>");
        return NULL;
    }
    for (xmlNode *c = first(root); c; c = after(c))
        if (is(c, "net")) {
            if (net) {
                fail(R, c, "more than one <net>: mck reads one net per file");
                return NULL;
            }
            net = c;
        }
    if (!net) {
        fail(R, root, "no <net> element");
        return NULL;
    }
    pc_net *pn = R->pn = calloc(1, sizeof *pn);
    if (!pn || !(pn->file = strdup(R->file)) || !(pn->name = need_attr(R, net, "id"))) {
        if (pn)
            no_memory(R, net);
        else
            no_memory(R, net);
        return pn;
    }
    for (int pass = 0; pass <= 4 && !R->failed; pass++)
        walk(R, net, pass);
    return pn;
}

pc_net *pc_read(const char *path)
{
    size_t len = 0;
    char *buf = read_file(path, MAX_FILE_BYTES, &len);
    if (!buf)
        return NULL;
    if (refuse_entities(path, buf, len) < 0) {
        free(buf);
        return NULL;
    }
    reader R;
    memset(&R, 0, sizeof R);
    R.file = path;
    R.dot = -1;

    pn_xml_quiet quiet;
    pn_xml_quiet_begin(&quiet, &R, on_xml_error);
    /* BIG_LINES: messages name lines past 65535 correctly */
    feed f = {buf, len, 0};
    xmlDoc *doc = xmlReadIO(feed_read, NULL, &f, path, NULL,
                            XML_PARSE_NONET | XML_PARSE_NOBLANKS | XML_PARSE_COMPACT |
                                XML_PARSE_BIG_LINES);
    pn_xml_quiet_end(&quiet);
    free(buf);

    if (!doc || R.xmlerr.seen) {
        nc_error(path, R.xmlerr.line > 0 ? R.xmlerr.line : 1, "malformed XML: %s",
                 R.xmlerr.seen ? R.xmlerr.msg : "cannot parse");
        xmlFreeDoc(doc);
        return NULL;
    }
    pc_net *pn = read_doc(&R, doc);
    xmlFreeDoc(doc);
    for (size_t i = 0; i < R.nnameds; i++) {
        free(R.nameds[i].id);
        free(R.nameds[i].name);
    }
    free(R.nameds);
    /* the partition ids are the only keys the maps own */
    for (size_t i = 0; i < R.partition_ids.cap; i++)
        free((char *)R.partition_ids.keys[i]);
    strmap_free(&R.named_ids);
    strmap_free(&R.const_ids);
    strmap_free(&R.var_ids);
    strmap_free(&R.place_ids);
    strmap_free(&R.trans_ids);
    strmap_free(&R.partition_ids);
    if (R.failed) {
        pc_free(pn);
        return NULL;
    }
    return pn;
}

void pc_free(pc_net *pn)
{
    if (!pn)
        return;
    for (size_t i = 0; i < pn->nsorts; i++) {
        free(pn->sorts[i].id);
        free(pn->sorts[i].name);
        free(pn->sorts[i].comp);
    }
    for (size_t i = 0; i < pn->nconsts; i++) {
        free(pn->consts[i].id);
        free(pn->consts[i].name);
    }
    for (size_t i = 0; i < pn->nvars; i++) {
        free(pn->vars[i].id);
        free(pn->vars[i].name);
    }
    for (size_t i = 0; i < pn->nplaces; i++) {
        free(pn->places[i].id);
        free(pn->places[i].name);
        term_free(pn->places[i].initial);
    }
    for (size_t i = 0; i < pn->ntransitions; i++) {
        free(pn->transitions[i].id);
        free(pn->transitions[i].name);
        term_free(pn->transitions[i].guard);
    }
    for (size_t i = 0; i < pn->narcs; i++) {
        free(pn->arcs[i].id);
        term_free(pn->arcs[i].weight);
    }
    free(pn->sorts);
    free(pn->consts);
    free(pn->vars);
    free(pn->places);
    free(pn->transitions);
    free(pn->arcs);
    free(pn->name);
    free(pn->file);
    free(pn);
}

void pc_color_name(const pc_net *pn, uint32_t sort, uint32_t color, char *buf, size_t size)
{
    const pc_sort *s = &pn->sorts[sort];
    if (!size)
        return;
    buf[0] = '\0';
    switch (s->kind) {
    case PC_DOT:
        snprintf(buf, size, "dot");
        return;
    case PC_ENUM:
        snprintf(buf, size, "%s", pn->consts[s->first + color].name);
        return;
    case PC_RANGE:
        snprintf(buf, size, "%lld", (long long)(s->start + (int64_t)color));
        return;
    case PC_PRODUCT: {
        uint32_t stride = s->size, c = color;
        size_t used = 0;
        for (uint32_t i = 0; i < s->ncomp && used < size; i++) {
            stride /= pn->sorts[s->comp[i]].size;
            int w = snprintf(buf + used, size - used, i ? "," : "(");
            used += w > 0 ? (size_t)w : 0;
            if (used < size)
                pc_color_name(pn, s->comp[i], c / stride, buf + used, size - used);
            used += strlen(buf + used);
            c %= stride;
        }
        if (used + 1 < size) {
            buf[used] = ')';
            buf[used + 1] = '\0';
        }
        return;
    }
    }
}
