/* NUPN units (the "nupn" tool-specific section of PNML): collected while
 * streaming, resolved at the end because a unit may name subunits and
 * places that come later in the file. */
#include "base/grow.h"
#include "base/strmap.h"
#include "pnml-internal.h"

#include <stdlib.h>
#include <string.h>

#define NO_UNIT UINT32_MAX

int pn_nupn_add_unit(pn_nupn *nu, const char *id, long line)
{
    if (nu->nunits >= NC_MAX_NODES)
        return -1;
    if (GROW(nu->units, nu->cap, nu->nunits + 1) < 0)
        return -1;
    size_t off = pn_arena_add(&nu->text, id, strlen(id));
    if (off == PN_NONE)
        return -1;
    nu->units[nu->nunits++] = (pn_unit){off, PN_NONE, PN_NONE, line};
    return 0;
}

int pn_nupn_set_list(pn_nupn *nu, int subunits, const char *text, size_t n)
{
    if (!nu->nunits)
        return 0;
    size_t off = pn_arena_add(&nu->text, text, n);
    if (off == PN_NONE)
        return -1;
    pn_unit *u = &nu->units[nu->nunits - 1];
    if (subunits)
        u->subunits = off;
    else
        u->places = off;
    return 0;
}

void pn_nupn_free(pn_nupn *nu)
{
    pn_arena_free(&nu->text);
    free(nu->units);
    memset(nu, 0, sizeof *nu);
}

/* ---- unit id -> index ---- */

static uint32_t table_find(const strmap *t, const char *id)
{
    int64_t u = strmap_find(t, id);
    return u < 0 ? NO_UNIT : (uint32_t)u;
}

/* ---- resolution ---- */

typedef struct resolver {
    net_t *net;
    pn_nupn *nu;
    const char *file;
    strmap table;         /* unit id -> file index */
    uint32_t *parent;     /* file index of the enclosing unit */
    uint32_t *kid_start;  /* children of u: kids[kid_start[u] .. kid_start[u+1]) */
    uint32_t *kids;
    uint32_t *order;      /* net unit index of each file unit */
    int32_t *owner;       /* unit (file index) of each place, -1 when none */
} resolver;

static const char *unit_name(const resolver *r, uint32_t u)
{
    return r->nu->text.s + r->nu->units[u].id;
}

static int fail(const resolver *r, uint32_t u, const char *what, const char *id)
{
    char a[64], b[64];
    nc_error(r->file, r->nu->units[u].line, "NUPN unit '%s': %s '%s'",
             pn_show(unit_name(r, u), a, sizeof a), what, pn_show(id, b, sizeof b));
    return -1;
}

static int fail_memory(const resolver *r)
{
    nc_error(r->file, 0, "out of memory reading the NUPN units");
    return -1;
}

static int build_table(resolver *r)
{
    for (uint32_t u = 0; u < r->nu->nunits; u++) {
        uint32_t v = u;
        int added = strmap_insert(&r->table, unit_name(r, u), &v);
        if (added < 0)
            return fail_memory(r);
        if (!added)
            return fail(r, u, "duplicate unit id", unit_name(r, u));
    }
    return 0;
}

static char *list_of(const resolver *r, size_t off)
{
    return off == PN_NONE ? NULL : r->nu->text.s + off;
}

/* Sets parent[] from every unit's <subunits> and counts children. */
static int link_parents(resolver *r)
{
    size_t n = r->nu->nunits;
    for (uint32_t u = 0; u < n; u++) {
        char *s = list_of(r, r->nu->units[u].subunits);
        if (!s)
            continue;
        pn_split(s);
        for (; *s; s += strlen(s) + 1) {
            uint32_t v = table_find(&r->table, s);
            if (v == NO_UNIT)
                return fail(r, u, "unknown subunit", s);
            if (v == u || r->parent[v] != NO_UNIT)
                return fail(r, u, "subunit already has a parent:", s);
            r->parent[v] = u;
            r->kid_start[u + 1]++;
        }
    }
    for (size_t u = 0; u < n; u++)
        r->kid_start[u + 1] += r->kid_start[u];
    /* second pass, in subunit order, so children keep the file's order */
    uint32_t *fill = r->order;   /* borrowed as a cursor until numbering */
    memcpy(fill, r->kid_start, n * sizeof *fill);
    for (uint32_t u = 0; u < n; u++) {
        const char *s = list_of(r, r->nu->units[u].subunits);
        for (; s && *s; s += strlen(s) + 1)
            r->kids[fill[u]++] = table_find(&r->table, s);
    }
    return 0;
}

/* Adds the units to the net in preorder, so a parent always exists before
 * its children (nc_add_unit needs that).  Units on a cycle are never
 * reached from a root. */
static int add_units(resolver *r, uint32_t *stack)
{
    size_t n = r->nu->nunits, done = 0;
    for (uint32_t u = 0; u < n; u++)
        r->order[u] = NO_UNIT;
    for (uint32_t root = 0; root < n; root++) {
        if (r->parent[root] != NO_UNIT)
            continue;
        size_t top = 0;
        stack[top++] = root;
        while (top) {
            uint32_t u = stack[--top];
            int32_t parent = r->parent[u] == NO_UNIT ? -1 : (int32_t)r->order[r->parent[u]];
            int idx = nc_add_unit(r->net, unit_name(r, u), parent);
            if (idx < 0)
                return fail_memory(r);
            r->order[u] = (uint32_t)idx;
            done++;
            for (uint32_t k = r->kid_start[u + 1]; k > r->kid_start[u]; k--)
                stack[top++] = r->kids[k - 1];
        }
    }
    if (done == n)
        return 0;
    for (uint32_t u = 0; u < n; u++)
        if (r->order[u] == NO_UNIT)
            return fail(r, u, "subunits form a cycle through", unit_name(r, u));
    return 0;
}

static int add_places(resolver *r)
{
    for (size_t p = 0; p < r->net->nplaces; p++)
        r->owner[p] = -1;
    for (uint32_t u = 0; u < r->nu->nunits; u++) {
        char *s = list_of(r, r->nu->units[u].places);
        if (!s)
            continue;
        pn_split(s);
        for (; *s; s += strlen(s) + 1) {
            int64_t p = nc_find_place(r->net, s);
            if (p < 0)
                return fail(r, u, "unknown place", s);
            if (r->owner[p] >= 0)
                return fail(r, u, "place already in another unit:", s);
            r->owner[p] = (int32_t)u;
            if (nc_unit_add_place(r->net, r->order[u], (uint32_t)p) < 0)
                return fail_memory(r);
        }
    }
    return 0;
}

int pn_nupn_resolve(net_t *net, pn_nupn *nu, const char *file)
{
    net->units_claim_safe = nu->safe;
    size_t n = nu->nunits;
    if (!n)
        return 0;
    resolver r = {net, nu, file, {0}, NULL, NULL, NULL, NULL, NULL};
    uint32_t *stack = NULL;
    int rc = -1;
    r.parent = malloc(n * sizeof *r.parent);
    r.kid_start = calloc(n + 1, sizeof *r.kid_start);
    r.kids = malloc(n * sizeof *r.kids);
    r.order = malloc(n * sizeof *r.order);
    r.owner = malloc((net->nplaces ? net->nplaces : 1) * sizeof *r.owner);
    stack = malloc(n * sizeof *stack);
    if (!r.parent || !r.kid_start || !r.kids || !r.order || !r.owner || !stack) {
        fail_memory(&r);
        goto out;
    }
    for (size_t u = 0; u < n; u++)
        r.parent[u] = NO_UNIT;
    if (build_table(&r) == 0 && link_parents(&r) == 0 && add_units(&r, stack) == 0 &&
        add_places(&r) == 0)
        rc = 0;
out:
    strmap_free(&r.table);
    free(r.parent);
    free(r.kid_start);
    free(r.kids);
    free(r.order);
    free(r.owner);
    free(stack);
    return rc;
}
