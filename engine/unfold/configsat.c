/* The prefix's configurations as a SAT problem (configsat.h).
 *
 * Variables: x_e for each event that is not a cut-off (e is in the
 * configuration; in a partial prefix, each event); m_c for each condition c whose producer is such an event
 * or that is initial (c is in the configuration's cut); k_p for each place
 * the property reads (the cut marks p).  Clauses:
 *   causality      x_e -> x_f for every f that made a condition of •e;
 *   conflicts      at most one x_e among the consumers of each condition
 *                  (pairwise up to six, else a sequential counter);
 *   the cut        m_c <-> x_pre(c) & no consumer of c is in;
 *   the marking    k_p <-> m_c for some condition c of p (a safe net's cut
 *                  holds at most one);
 *   the property   Tseitin's encoding of the formula over k_p: t enabled
 *                  is the conjunction of its input places, deadlock the
 *                  conjunction of no enabled transition, a comparison
 *                  sum(a_i * M(p_i)) + b REL 0 a decision diagram over the
 *                  partial sums, one place at a time. */
#include "engine/unfold/configsat.h"

#include <ccadical.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct enc {
    const unf_prefix *u;
    const cnet_t *cn;
    CCaDiCaL *s;
    int nvars;
    int *x;             /* per event: its variable, 0 for a cut-off */
    int *place;         /* per place: k_p, 0 until asked */
    uint32_t *by_place_start, *by_place;   /* the conditions of each place */
    int failed;         /* no memory, or a formula the encoding refuses */
    char *why;
    size_t whylen;
} enc;

#define LIT_TRUE 1
#define LIT_FALSE (-1)

static int fresh(enc *e)
{
    if (e->nvars == INT32_MAX - 1) {
        e->failed = 1;
        snprintf(e->why, e->whylen, "too many variables for the SAT encoding");
        return LIT_TRUE;
    }
    return ++e->nvars;
}

static void clause2(enc *e, int a, int b)
{
    ccadical_add(e->s, a);
    ccadical_add(e->s, b);
    ccadical_add(e->s, 0);
}

static void clause3(enc *e, int a, int b, int c)
{
    ccadical_add(e->s, a);
    ccadical_add(e->s, b);
    ccadical_add(e->s, c);
    ccadical_add(e->s, 0);
}

/* v <-> (l[0] & ... & l[n-1]); constants folded. */
static int and_of(enc *e, const int *l, size_t n)
{
    size_t live = 0;
    int last = LIT_TRUE;
    for (size_t i = 0; i < n; i++) {
        if (l[i] == LIT_FALSE)
            return LIT_FALSE;
        if (l[i] != LIT_TRUE)
            live++, last = l[i];
    }
    if (live <= 1)
        return last;
    int v = fresh(e);
    for (size_t i = 0; i < n; i++)
        if (l[i] != LIT_TRUE)
            clause2(e, -v, l[i]);
    ccadical_add(e->s, v);
    for (size_t i = 0; i < n; i++)
        if (l[i] != LIT_TRUE)
            ccadical_add(e->s, -l[i]);
    ccadical_add(e->s, 0);
    return v;
}

static int and2(enc *e, int a, int b)
{
    int l[2] = {a, b};
    return and_of(e, l, 2);
}

static int or2(enc *e, int a, int b)
{
    return -and2(e, -a, -b);
}

/* v <-> (c ? a : b) */
static int ite(enc *e, int c, int a, int b)
{
    if (a == b)
        return a;
    if (a == LIT_TRUE && b == LIT_FALSE)
        return c;
    if (a == LIT_FALSE && b == LIT_TRUE)
        return -c;
    if (a == LIT_TRUE)
        return or2(e, c, b);
    if (a == LIT_FALSE)
        return and2(e, -c, b);
    if (b == LIT_TRUE)
        return or2(e, -c, a);
    if (b == LIT_FALSE)
        return and2(e, c, a);
    int v = fresh(e);
    clause3(e, -v, -c, a);
    clause3(e, -v, c, b);
    clause3(e, v, -c, -a);
    clause3(e, v, c, -b);
    return v;
}

/* ---- the configuration ---- */

static void at_most_one(enc *e, const int *l, size_t n)
{
    if (n <= 6) {
        for (size_t i = 0; i < n; i++)
            for (size_t j = i + 1; j < n; j++)
                clause2(e, -l[i], -l[j]);
        return;
    }
    int prev = 0;
    for (size_t i = 0; i < n; i++) {
        int s = i + 1 < n ? fresh(e) : 0;
        if (s)
            clause2(e, -l[i], s);
        if (prev) {
            clause2(e, -l[i], -prev);
            if (s)
                clause2(e, -prev, s);
        }
        prev = s;
    }
}

static int configuration(enc *e)
{
    const unf_prefix *u = e->u;
    e->x = calloc(u->nev ? u->nev : 1, sizeof *e->x);
    int *lits = malloc((u->nev ? u->nev : 1) * sizeof *lits);
    if (!e->x || !lits) {
        free(lits);
        return -1;
    }
    ccadical_add(e->s, LIT_TRUE);
    ccadical_add(e->s, 0);
    e->nvars = 1;
    /* a complete prefix needs no cut-off (each marking is one of a
     * configuration without them); a partial one may need them, and every
     * configuration of it is one of the unfolding all the same */
    for (size_t i = 0; i < u->nev; i++)
        if (!u->ev[i].cutoff || !u->complete)
            e->x[i] = fresh(e);
    for (size_t i = 0; i < u->nev; i++) {
        const unf_event *ev = &u->ev[i];
        if (!e->x[i])
            continue;
        for (uint32_t k = 0; k < ev->npre; k++) {
            uint32_t f = u->co[u->pre[ev->pre_start + k]].pre;
            if (f != UNF_NONE)
                clause2(e, -e->x[i], e->x[f]);
        }
    }
    for (size_t c = 0; c < u->nco; c++) {
        size_t n = 0;
        for (uint32_t k = u->cons_start[c]; k < u->cons_start[c + 1]; k++)
            if (e->x[u->cons[k]])
                lits[n++] = e->x[u->cons[k]];
        at_most_one(e, lits, n);
    }
    free(lits);
    return 0;
}

/* m_c: c is in the cut; LIT_FALSE when a cut-off made it. */
static int in_cut(enc *e, uint32_t c)
{
    const unf_prefix *u = e->u;
    uint32_t f = u->co[c].pre;
    int made = f == UNF_NONE ? LIT_TRUE : e->x[f] ? e->x[f] : LIT_FALSE;
    if (made == LIT_FALSE)
        return LIT_FALSE;
    size_t n = 1;
    for (uint32_t k = u->cons_start[c]; k < u->cons_start[c + 1]; k++)
        n += e->x[u->cons[k]] != 0;
    int *l = malloc(n * sizeof *l);
    if (!l) {
        e->failed = 1;
        return LIT_FALSE;
    }
    n = 0;
    l[n++] = made;
    for (uint32_t k = u->cons_start[c]; k < u->cons_start[c + 1]; k++)
        if (e->x[u->cons[k]])
            l[n++] = -e->x[u->cons[k]];
    int v = and_of(e, l, n);
    free(l);
    return v;
}

static int marked(enc *e, uint32_t p)
{
    if (e->place[p])
        return e->place[p];
    uint32_t n = e->by_place_start[p + 1] - e->by_place_start[p];
    int *l = malloc((n ? n : 1) * sizeof *l);
    if (!l) {
        e->failed = 1;
        return LIT_FALSE;
    }
    for (uint32_t i = 0; i < n; i++)
        l[i] = -in_cut(e, e->by_place[e->by_place_start[p] + i]);
    int v = -and_of(e, l, n);
    free(l);
    e->place[p] = v;
    return v;
}

/* ---- the property ---- */

/* Whether t can fire at all in a safe net (prefix.c gives such a
 * transition no event: a weight above 1 would need or make two tokens). */
static int can_fire(const cnet_t *cn, uint32_t t)
{
    for (uint32_t i = cn->need_start[t]; i < cn->need_start[t + 1]; i++)
        if (cn->need_weight[i] != 1)
            return 0;
    for (uint32_t i = cn->post_start[t]; i < cn->post_start[t + 1]; i++)
        if (cn->post_weight[i] != 1)
            return 0;
    return 1;
}

static int enabled(enc *e, uint32_t t)
{
    const cnet_t *cn = e->cn;
    if (!can_fire(cn, t))
        return LIT_FALSE;
    uint32_t n = cn->need_start[t + 1] - cn->need_start[t];
    int *l = malloc((n ? n : 1) * sizeof *l);
    if (!l) {
        e->failed = 1;
        return LIT_FALSE;
    }
    for (uint32_t i = 0; i < n; i++)
        l[i] = marked(e, cn->need_place[cn->need_start[t] + i]);
    int v = and_of(e, l, n);
    free(l);
    return v;
}

static int any_enabled(enc *e, const uint32_t *trans, uint32_t n)
{
    int *l = malloc((n ? n : 1) * sizeof *l);
    if (!l) {
        e->failed = 1;
        return LIT_FALSE;
    }
    for (uint32_t i = 0; i < n; i++)
        l[i] = -enabled(e, trans ? trans[i] : i);
    int v = -and_of(e, l, n);
    free(l);
    return v;
}

/* The largest table of partial sums a comparison may take. */
#define CMP_MAX_CELLS 4000000

/* sum(a_i * M(p_i)) + b REL 0 over 0/1 markings: lit[s - lo] stands for
 * "the places from i on bring the sum from s to a value that satisfies
 * the relation", computed from the last place back to the first, each
 * place's sums lo .. hi the ones its predecessors can reach. */
static int comparison(enc *e, const tree_t *t)
{
    uint32_t n = 0;
    lin_term *terms = malloc((t->nterms ? t->nterms : 1) * sizeof *terms);
    int64_t *lo = malloc(((size_t)t->nterms + 1) * sizeof *lo);
    int64_t *hi = malloc(((size_t)t->nterms + 1) * sizeof *hi);
    int *cur = NULL, *next = NULL;
    int result = LIT_FALSE;
    if (!terms || !lo || !hi)
        goto nomem;
    /* one term per place; a sum reaches further than int64 only with
     * coefficients no formula of a safe net needs */
    for (uint32_t i = 0; i < t->nterms; i++) {
        uint32_t j = 0;
        while (j < n && terms[j].place != t->terms[i].place)
            j++;
        if (j == n)
            terms[n++] = (lin_term){t->terms[i].place, 0};
        if (__builtin_add_overflow(terms[j].coef, t->terms[i].coef, &terms[j].coef))
            goto wide;
    }
    lo[0] = hi[0] = 0;
    for (uint32_t i = 0; i < n; i++) {
        lo[i + 1] = lo[i];
        hi[i + 1] = hi[i];
        int64_t *side = terms[i].coef < 0 ? &lo[i + 1] : &hi[i + 1];
        int64_t span;
        if (__builtin_add_overflow(*side, terms[i].coef, side) ||
            __builtin_sub_overflow(hi[i + 1], lo[i + 1], &span) || span >= CMP_MAX_CELLS)
            goto wide;
    }
    size_t width = (size_t)(hi[n] - lo[n]) + 1;
    cur = malloc(width * sizeof *cur);
    next = malloc(width * sizeof *next);
    if (!cur || !next)
        goto nomem;
    for (int64_t s = lo[n]; s <= hi[n]; s++)
        next[s - lo[n]] = tree_rel_holds(t->rel, (__int128)s + t->constant) ? LIT_TRUE : LIT_FALSE;
    uint64_t cells = 0;
    for (uint32_t i = n; i-- > 0;) {
        int k = marked(e, terms[i].place);
        cells += (uint64_t)(hi[i] - lo[i]) + 1;
        if (cells > CMP_MAX_CELLS)
            goto wide;
        for (int64_t s = lo[i]; s <= hi[i]; s++) {
            int with = next[s + terms[i].coef - lo[i + 1]], without = next[s - lo[i + 1]];
            cur[s - lo[i]] = ite(e, k, with, without);
        }
        int *tmp = cur;
        cur = next;
        next = tmp;
    }
    result = next[0 - lo[0]];
    goto done;
wide:
    e->failed = 1;
    snprintf(e->why, e->whylen, "unfold: a comparison with coefficients too large for the SAT "
             "encoding");
    goto done;
nomem:
    e->failed = 1;
done:
    free(terms);
    free(lo);
    free(hi);
    free(cur);
    free(next);
    return result;
}

static int formula(enc *e, const tree_t *t)
{
    if (e->failed)
        return LIT_FALSE;
    switch (t->op) {
    case T_TRUE: return LIT_TRUE;
    case T_FALSE: return LIT_FALSE;
    case T_DEADLOCK: return -any_enabled(e, NULL, e->cn->ntransitions);
    case T_FIREABLE: return any_enabled(e, t->items, t->n);
    case T_CMP: return comparison(e, t);
    case T_NOT: return -formula(e, t->l);
    case T_AND: {
        int a = formula(e, t->l);
        return and2(e, a, formula(e, t->r));
    }
    case T_OR: {
        int a = formula(e, t->l);
        return or2(e, a, formula(e, t->r));
    }
    case T_IMPLIES: {
        int a = formula(e, t->l);
        return or2(e, -a, formula(e, t->r));
    }
    case T_IFF: {
        int a = formula(e, t->l), b = formula(e, t->r);
        return ite(e, a, b, -b);
    }
    default:
        e->failed = 1;
        snprintf(e->why, e->whylen, "unfold: only state formulas can be checked on the prefix");
        return LIT_FALSE;
    }
}

/* ---- solving ---- */

static int stop_asked(void *state)
{
    return budget_expired(state);
}

static int places_index(enc *e)
{
    const unf_prefix *u = e->u;
    uint32_t P = e->cn->nplaces;
    e->place = calloc(P ? P : 1, sizeof *e->place);
    e->by_place_start = calloc((size_t)P + 1, sizeof *e->by_place_start);
    e->by_place = malloc((u->nco ? u->nco : 1) * sizeof *e->by_place);
    if (!e->place || !e->by_place_start || !e->by_place)
        return -1;
    for (size_t c = 0; c < u->nco; c++)
        e->by_place_start[u->co[c].place + 1]++;
    for (uint32_t p = 0; p < P; p++)
        e->by_place_start[p + 1] += e->by_place_start[p];
    uint32_t *fill = malloc(((size_t)P + 1) * sizeof *fill);
    if (!fill)
        return -1;
    memcpy(fill, e->by_place_start, ((size_t)P + 1) * sizeof *fill);
    for (size_t c = 0; c < u->nco; c++)
        e->by_place[fill[u->co[c].place]++] = (uint32_t)c;
    free(fill);
    return 0;
}

struct unf_sat {
    enc e;
    char why[160];
};

unf_sat *unf_sat_new(const unf_prefix *u, char *why, size_t whylen)
{
    unf_sat *sat = calloc(1, sizeof *sat);
    if (!sat) {
        snprintf(why, whylen, "memory budget exhausted");
        return NULL;
    }
    enc *e = &sat->e;
    e->u = u;
    e->cn = u->cn;
    e->why = sat->why;
    e->whylen = sizeof sat->why;
    e->s = ccadical_init();
    if (e->s)
        ccadical_set_option(e->s, "quiet", 1);
    if (!e->s || places_index(e) < 0 || configuration(e) < 0) {
        snprintf(why, whylen, "memory budget exhausted");
        unf_sat_free(sat);
        return NULL;
    }
    return sat;
}

void unf_sat_free(unf_sat *sat)
{
    if (!sat)
        return;
    if (sat->e.s)
        ccadical_release(sat->e.s);
    free(sat->e.x);
    free(sat->e.place);
    free(sat->e.by_place_start);
    free(sat->e.by_place);
    free(sat);
}

/* The formula's variables stay, defined by equivalences that constrain
 * nothing else; the goal is only assumed, so the next formula starts from
 * the same configurations (and what the solver learnt about them). */
int unf_sat_solve(unf_sat *sat, const tree_t *f, const budget_t *budget, uint32_t **events,
                  size_t *n, char *why, size_t whylen)
{
    enc *e = &sat->e;
    const unf_prefix *u = e->u;
    *events = NULL;
    *n = 0;
    sat->why[0] = '\0';
    e->failed = 0;
    int goal = f ? formula(e, f) : -any_enabled(e, NULL, e->cn->ntransitions);
    if (e->failed) {
        snprintf(why, whylen, "%s", sat->why[0] ? sat->why : "memory budget exhausted");
        return -1;
    }
    if (goal == LIT_FALSE)
        return 0;
    ccadical_assume(e->s, goal);
    ccadical_set_terminate(e->s, (void *)budget, stop_asked);
    int r = ccadical_solve(e->s);
    if (r == 20)
        return 0;
    if (r != 10) {
        snprintf(why, whylen, "%s while solving",
                 *budget->interrupted ? "interrupted" : "time limit reached");
        return -1;
    }
    uint32_t *ev = malloc((u->nev ? u->nev : 1) * sizeof *ev);
    if (!ev) {
        snprintf(why, whylen, "memory budget exhausted");
        return -1;
    }
    size_t k = 0;
    for (size_t i = 0; i < u->nev; i++)
        if (e->x[i] && ccadical_val(e->s, e->x[i]) > 0)
            ev[k++] = (uint32_t)i;
    *events = ev;
    *n = k;
    return 1;
}

int unf_sat_find(const unf_prefix *u, const tree_t *f, const budget_t *budget, uint32_t **events,
                 size_t *n, char *why, size_t whylen)
{
    *events = NULL;
    *n = 0;
    unf_sat *sat = unf_sat_new(u, why, whylen);
    if (!sat)
        return -1;
    int rc = unf_sat_solve(sat, f, budget, events, n, why, whylen);
    unf_sat_free(sat);
    return rc;
}
