/* State formulas to disjunctions of linear constraints (lpdnf.h).  The
 * formula is put in negation normal form first, so that a negation only
 * ever sits on an atom and becomes a flipped relation or, for fireability,
 * a disjunction of "fewer tokens than needed". */
#include "lp/lpdnf.h"
#include "base/grow.h"

#include <stdlib.h>
#include <string.h>

/* One value of the conversion: n conjunctions of pool indices. */
typedef struct dnf {
    uint32_t n;
    uint32_t *start;   /* n + 1 */
    uint32_t *items;
} dnf;

typedef struct builder {
    const cnet_t *cn;
    lindnf *out;
    uint32_t cap;
    int oom;
} builder;

static void dnf_free(dnf *d)
{
    free(d->start);
    free(d->items);
    d->start = d->items = NULL;
    d->n = 0;
}

/* A dnf of n disjuncts and room for nitems items; n = 0 is false. */
static dnf dnf_alloc(builder *b, uint32_t n, size_t nitems)
{
    dnf d = {n, calloc((size_t)n + 1, sizeof(uint32_t)), malloc((nitems ? nitems : 1) * sizeof(uint32_t))};
    if (!d.start || !d.items) {
        dnf_free(&d);
        b->oom = 1;
    }
    return d;
}

static dnf dnf_false(builder *b)
{
    return dnf_alloc(b, 0, 0);
}

/* The empty conjunction. */
static dnf dnf_true(builder *b)
{
    return dnf_alloc(b, 1, 0);
}

/* One disjunct: the conjunction of the given pool entries. */
static dnf dnf_conj(builder *b, const uint32_t *cons, size_t n)
{
    dnf d = dnf_alloc(b, 1, n);
    if (d.start) {
        if (n)
            memcpy(d.items, cons, n * sizeof *cons);
        d.start[1] = (uint32_t)n;
    }
    return d;
}

static size_t dnf_items(const dnf *d)
{
    return d->start ? d->start[d->n] : 0;
}

static dnf dnf_or(builder *b, dnf x, dnf y)
{
    if (b->oom || (uint64_t)x.n + y.n > b->cap) {
        if (!b->oom)
            b->out->relaxed = 1;
        dnf_free(&x);
        dnf_free(&y);
        return b->oom ? x : dnf_true(b);
    }
    size_t nx = dnf_items(&x), ny = dnf_items(&y);
    dnf d = dnf_alloc(b, x.n + y.n, nx + ny);
    if (d.start) {
        memcpy(d.start, x.start, x.n * sizeof *x.start);
        for (uint32_t i = 0; i <= y.n; i++)
            d.start[x.n + i] = (uint32_t)(y.start[i] + nx);
        if (nx)
            memcpy(d.items, x.items, nx * sizeof *x.items);
        if (ny)
            memcpy(d.items + nx, y.items, ny * sizeof *y.items);
    }
    dnf_free(&x);
    dnf_free(&y);
    return d;
}

/* The constraints every disjunct shares: one conjunction implied by d. */
static dnf dnf_hull(builder *b, dnf d)
{
    uint32_t nc = b->out->ncons;
    uint32_t *count = calloc((size_t)nc + 1, sizeof *count), *seen = calloc((size_t)nc + 1, sizeof *seen);
    dnf h = {0, NULL, NULL};
    if (!count || !seen) {
        b->oom = 1;
    } else {
        for (uint32_t i = 0; i < d.n; i++)
            for (uint32_t a = d.start[i]; a < d.start[i + 1]; a++)
                if (seen[d.items[a]] != i + 1)
                    seen[d.items[a]] = i + 1, count[d.items[a]]++;
        h = dnf_alloc(b, 1, d.start[1]);
        for (uint32_t a = 0; h.start && a < d.start[1]; a++)
            if (count[d.items[a]] == d.n)
                count[d.items[a]] = 0, h.items[h.start[1]++] = d.items[a];
    }
    free(count);
    free(seen);
    dnf_free(&d);
    return h;
}

static dnf dnf_and(builder *b, dnf x, dnf y)
{
    if (b->oom || x.n == 0 || y.n == 0) {
        dnf_free(&x);
        dnf_free(&y);
        return b->oom ? x : dnf_false(b);
    }
    if ((uint64_t)x.n * y.n > b->cap) {
        /* too many products: weaken the side with fewer disjuncts to what
         * all its disjuncts share */
        b->out->relaxed = 1;
        if (x.n < y.n)
            x = dnf_hull(b, x);
        else
            y = dnf_hull(b, y);
        if (b->oom || (uint64_t)x.n * y.n > b->cap) {
            dnf_free(&x);
            dnf_free(&y);
            return b->oom ? x : dnf_true(b);
        }
    }
    size_t nx = dnf_items(&x), ny = dnf_items(&y);
    size_t total = nx * y.n + ny * x.n;
    dnf d = total > UINT32_MAX ? (b->oom = 1, (dnf){0, NULL, NULL}) : dnf_alloc(b, x.n * y.n, total);
    if (d.start) {
        size_t k = 0;
        uint32_t n = 0;
        for (uint32_t i = 0; i < x.n; i++)
            for (uint32_t j = 0; j < y.n; j++) {
                d.start[n++] = (uint32_t)k;
                for (uint32_t a = x.start[i]; a < x.start[i + 1]; a++)
                    d.items[k++] = x.items[a];
                for (uint32_t a = y.start[j]; a < y.start[j + 1]; a++)
                    d.items[k++] = y.items[a];
            }
        d.start[n] = (uint32_t)k;
    }
    dnf_free(&x);
    dnf_free(&y);
    return d;
}

/* ------------------------------------------------------------------ */
/* the constraint pool */

static uint32_t add_con(builder *b, const lin_term *terms, uint32_t nterms,
                        __int128 constant, lc_rel rel)
{
    lindnf *o = b->out;
    if (b->oom)
        return 0;
    if (o->ncons == UINT32_MAX || GROW(o->cons, o->capcons, (size_t)o->ncons + 1) < 0) {
        b->oom = 1;
        return 0;
    }
    lincon *c = &o->cons[o->ncons];
    c->terms = malloc((nterms ? nterms : 1) * sizeof *terms);
    if (!c->terms) {
        b->oom = 1;
        return 0;
    }
    if (nterms)
        memcpy(c->terms, terms, nterms * sizeof *terms);
    c->nterms = nterms;
    c->constant = constant;
    c->rel = rel;
    return o->ncons++;
}

/* M(p) >= w (enabled) or M(p) <= w - 1 (not enabled). */
static uint32_t need_con(builder *b, uint32_t p, nc_count w, int enough)
{
    lin_term t = {p, 1};
    if (enough)
        return add_con(b, &t, 1, -(__int128)w, LC_GE);
    return add_con(b, &t, 1, -(__int128)w + 1, LC_LE);
}

/* ------------------------------------------------------------------ */
/* atoms */

static dnf cmp_atom(builder *b, const tree_t *t)
{
    __int128 k = t->constant;
    uint32_t c;
    switch (t->rel) {
    case REL_LE: c = add_con(b, t->terms, t->nterms, k, LC_LE); break;
    case REL_LT: c = add_con(b, t->terms, t->nterms, k + 1, LC_LE); break;
    case REL_GE: c = add_con(b, t->terms, t->nterms, k, LC_GE); break;
    case REL_GT: c = add_con(b, t->terms, t->nterms, k - 1, LC_GE); break;
    case REL_EQ: c = add_con(b, t->terms, t->nterms, k, LC_EQ); break;
    default: {   /* REL_NE: below or above */
        uint32_t lo = add_con(b, t->terms, t->nterms, k + 1, LC_LE);
        uint32_t hi = add_con(b, t->terms, t->nterms, k - 1, LC_GE);
        if (b->oom)
            return (dnf){0, NULL, NULL};
        return dnf_or(b, dnf_conj(b, &lo, 1), dnf_conj(b, &hi, 1));
    }
    }
    if (b->oom)
        return (dnf){0, NULL, NULL};
    return dnf_conj(b, &c, 1);
}

static uint32_t nneed(const cnet_t *cn, uint32_t t)
{
    return cn->need_start[t + 1] - cn->need_start[t];
}

/* Some listed transition enabled: one conjunction per transition. */
static dnf fireable(builder *b, const uint32_t *trans, uint32_t n)
{
    const cnet_t *cn = b->cn;
    for (uint32_t i = 0; i < n; i++)
        if (trans[i] >= cn->ntransitions || nneed(cn, trans[i]) == 0)
            return dnf_true(b);   /* unknown transitions: assume nothing */
    if (n > b->cap) {
        b->out->relaxed = 1;
        return dnf_true(b);
    }
    dnf d = dnf_false(b);
    for (uint32_t i = 0; i < n && !b->oom; i++) {
        uint32_t t = trans[i], k = nneed(cn, t);
        uint32_t *cons = malloc(k * sizeof *cons);
        if (!cons) {
            b->oom = 1;
            break;
        }
        for (uint32_t j = 0; j < k; j++)
            cons[j] = need_con(b, cn->need_place[cn->need_start[t] + j],
                               cn->need_weight[cn->need_start[t] + j], 1);
        dnf one = b->oom ? (dnf){0, NULL, NULL} : dnf_conj(b, cons, k);
        free(cons);
        d = dnf_or(b, d, one);
    }
    return d;
}

/* Stable merge sort by number of needed places (qsort has no context). */
static void sort_by_need(uint32_t *v, uint32_t *tmp, uint32_t n, const cnet_t *cn)
{
    if (n < 2)
        return;
    uint32_t h = n / 2;
    sort_by_need(v, tmp, h, cn);
    sort_by_need(v + h, tmp, n - h, cn);
    uint32_t i = 0, j = h, k = 0;
    while (i < h && j < n)
        tmp[k++] = nneed(cn, v[j]) < nneed(cn, v[i]) ? v[j++] : v[i++];
    while (i < h)
        tmp[k++] = v[i++];
    while (j < n)
        tmp[k++] = v[j++];
    memcpy(v, tmp, n * sizeof *v);
}

/* No listed transition enabled (all of them: deadlock).  Each transition
 * adds a disjunction over its needs; single-need transitions only add a
 * conjunct, so they are taken first and all at once, and the rest while
 * the product stays within the cap (skipping one only weakens). */
static dnf none_fireable(builder *b, const uint32_t *trans, uint32_t n)
{
    const cnet_t *cn = b->cn;
    uint32_t *v = malloc(((size_t)n + 1) * sizeof *v), *tmp = malloc(((size_t)n + 1) * sizeof *tmp);
    if (!v || !tmp) {
        free(v);
        free(tmp);
        b->oom = 1;
        return (dnf){0, NULL, NULL};
    }
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++)   /* unknown transitions: assume nothing */
        if (!trans || trans[i] < cn->ntransitions)
            v[k++] = trans ? trans[i] : i;
    n = k;
    sort_by_need(v, tmp, n, cn);
    if (n > 0 && nneed(cn, v[0]) == 0) {   /* always enabled */
        free(v);
        free(tmp);
        return dnf_false(b);
    }
    uint32_t i = 0;
    k = 0;
    for (; i < n && nneed(cn, v[i]) == 1; i++) {
        uint32_t s = cn->need_start[v[i]];
        tmp[k++] = need_con(b, cn->need_place[s], cn->need_weight[s], 0);
    }
    dnf acc = b->oom ? (dnf){0, NULL, NULL} : dnf_conj(b, tmp, k);
    for (; i < n && !b->oom; i++) {
        uint32_t t = v[i], m = nneed(cn, t);
        if ((uint64_t)acc.n * m > b->cap) {
            b->out->relaxed = 1;
            break;   /* the rest need at least as many */
        }
        dnf alt = dnf_false(b);
        for (uint32_t j = cn->need_start[t]; j < cn->need_start[t + 1] && !b->oom; j++) {
            uint32_t c = need_con(b, cn->need_place[j], cn->need_weight[j], 0);
            alt = dnf_or(b, alt, b->oom ? (dnf){0, NULL, NULL} : dnf_conj(b, &c, 1));
        }
        acc = dnf_and(b, acc, alt);
    }
    free(v);
    free(tmp);
    return acc;
}

/* ------------------------------------------------------------------ */

static dnf convert(builder *b, const tree_t *t);

/* Not a deadlock: some transition enabled, one disjunct each. */
static dnf some_enabled(builder *b)
{
    if (b->cn->ntransitions > b->cap) {
        b->out->relaxed = 1;
        return dnf_true(b);
    }
    uint32_t *all = malloc(((size_t)b->cn->ntransitions + 1) * sizeof *all);
    if (!all) {
        b->oom = 1;
        return (dnf){0, NULL, NULL};
    }
    for (uint32_t t = 0; t < b->cn->ntransitions; t++)
        all[t] = t;
    dnf d = fireable(b, all, b->cn->ntransitions);
    free(all);
    return d;
}

static dnf convert_not(builder *b, const tree_t *t)
{
    const tree_t *a = t->l;
    switch (a->op) {
    case T_TRUE: return dnf_false(b);
    case T_FALSE: return dnf_true(b);
    case T_FIREABLE: return none_fireable(b, a->items, a->n);
    case T_DEADLOCK: return some_enabled(b);
    default:
        /* not in negation normal form: true contains anything */
        b->out->relaxed = 1;
        return dnf_true(b);
    }
}

static dnf convert(builder *b, const tree_t *t)
{
    if (b->oom)
        return (dnf){0, NULL, NULL};
    switch (t->op) {
    case T_TRUE: return dnf_true(b);
    case T_FALSE: return dnf_false(b);
    case T_CMP: return cmp_atom(b, t);
    case T_FIREABLE: return fireable(b, t->items, t->n);
    case T_DEADLOCK: return none_fireable(b, NULL, b->cn->ntransitions);
    case T_NOT: return convert_not(b, t);
    case T_AND: {
        dnf l = convert(b, t->l);
        return dnf_and(b, l, convert(b, t->r));
    }
    case T_OR: {
        dnf l = convert(b, t->l);
        return dnf_or(b, l, convert(b, t->r));
    }
    default:
        b->out->relaxed = 1;
        return dnf_true(b);
    }
}

void lindnf_free(lindnf *d)
{
    for (uint32_t i = 0; i < d->ncons; i++)
        free(d->cons[i].terms);
    free(d->cons);
    free(d->start);
    free(d->items);
    memset(d, 0, sizeof *d);
}

int lindnf_build(const cnet_t *cn, const tree_t *phi, uint32_t cap, lindnf *out)
{
    memset(out, 0, sizeof *out);
    if (!phi || !tree_is_state_formula(phi) || tree_nnf_size(phi) > TREE_NNF_MAX_NODES)
        return -1;
    tree_t *n = tree_copy(phi);
    n = n ? tree_nnf(n) : NULL;
    if (!n)
        return -1;
    builder b = {cn, out, cap ? cap : 1, 0};
    dnf d = convert(&b, n);
    tree_free(n);
    if (b.oom) {
        dnf_free(&d);
        lindnf_free(out);
        return -1;
    }
    out->ndisj = d.n;
    out->start = d.start;
    out->items = d.items;
    return 0;
}
