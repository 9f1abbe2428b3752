/* The state equation as a linear program (stateeq.h).
 *
 * Columns are firing counts x_t >= 0, one per distinct non-zero effect
 * (transitions with the same effect share one); row p is
 * M(p) - m0(p) = sum_t C(p,t) x_t, kept >= -m0(p).  The
 * formula's constraints on M are rewritten over x by substituting these
 * rows (one-place constraints just narrow a row's bounds, rounded to
 * integers since markings are integral).  Nothing is ever added that the
 * reachable markings might violate: a constraint whose numbers a double
 * cannot hold exactly is left out instead, which only weakens the system.
 *
 * A disjunct is refuted when GLPK's exact simplex, started from the
 * floating simplex's final basis, reports no feasible solution.  A bound B
 * is accepted when "objective >= B + 1" is refuted the same way. */
#include "lp/stateeq.h"
#include "lp/lpdnf.h"
#include "lp/lpguard.h"
#include "lp/traps.h"

#include <glpk.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A floating solution that empties an initially marked trap is cut off by
 * "the trap keeps a token", at most this many times per system. */
static int trap_rounds = 32;

void stateeq_set_trap_rounds(int rounds)
{
    trap_rounds = rounds < 0 ? 0 : rounds;
}

/* Integers doubles hold exactly, with room for sign. */
#define EXACT_MAX ((__int128)1 << 53)
#define INF128 ((__int128)(((unsigned __int128)1 << 127) - 1))

typedef struct se_ctx {
    const cnet_t *cn;
    double deadline;
    glp_prob *lp;
    uint32_t ncols, nrows;

    /* the incidence matrix by place: (column, C(p,t)) pairs */
    uint32_t *pstart, *pcol;
    int64_t *pdelta;
    uint32_t *row_of;       /* place -> row, 0 when none */
    uint8_t *wild;          /* place with a count or effect beyond EXACT_MAX */

    /* scratch for one constraint or one disjunct */
    __int128 *acc;          /* per column */
    uint8_t *mark;
    uint32_t *touched;
    int *ind;
    double *val;
    __int128 *lo, *hi;      /* per place: bounds on M(p) in this disjunct */
    uint32_t *bplaces, nbplaces;
    trap_index *traps;      /* built on the first use */
    uint8_t *tin;           /* per place: in the trap being found */
    lin_term *tterms;
    uint8_t *bmark;         /* place is in bplaces */
    int *oind;              /* the objective of a bound, as a row */
    double *oval;
    int olen;
    uint32_t base_rows;

    /* the question */
    const lindnf *dnf;
    uint8_t *state;         /* per disjunct, see refute_all() */
    const uint32_t *places;
    uint32_t nplaces;
    uint64_t bound;
} se_ctx;

static __int128 abs128(__int128 v)
{
    return v < 0 ? -v : v;
}

static void ctx_free(se_ctx *s)
{
    if (s->lp)
        glp_delete_prob(s->lp);
    free(s->pstart);
    free(s->pcol);
    free(s->pdelta);
    free(s->row_of);
    free(s->wild);
    free(s->acc);
    free(s->mark);
    free(s->touched);
    free(s->ind);
    free(s->val);
    free(s->lo);
    free(s->hi);
    free(s->bplaces);
    free(s->bmark);
    free(s->oind);
    free(s->oval);
    free(s->state);
    trap_index_free(s->traps);
    free(s->tin);
    free(s->tterms);
}

/* ------------------------------------------------------------------ */
/* the base system */

static uint64_t effect_hash(const cnet_t *cn, uint32_t t)
{
    uint64_t h = 1469598103934665603ull;
    for (uint32_t i = cn->eff_start[t]; i < cn->eff_start[t + 1]; i++)
        h = (h ^ cn->eff_place[i]) * 1099511628211ull, h = (h ^ (uint64_t)cn->eff_delta[i]) * 1099511628211ull;
    return h ^ (h >> 29);
}

static int same_effect(const cnet_t *cn, uint32_t t, uint32_t u)
{
    uint32_t n = cn->eff_start[t + 1] - cn->eff_start[t];
    return n == cn->eff_start[u + 1] - cn->eff_start[u] &&
           !memcmp(cn->eff_place + cn->eff_start[t], cn->eff_place + cn->eff_start[u], n * sizeof *cn->eff_place) &&
           !memcmp(cn->eff_delta + cn->eff_start[t], cn->eff_delta + cn->eff_start[u], n * sizeof *cn->eff_delta);
}

/* Transitions with the same effect give the same column, and one column
 * spans what several would (their counts add up): one column per distinct
 * effect, which shrinks nets unfolded from coloured ones a lot.  Sets
 * keep[t] for the transitions that get a column. */
static int distinct_effects(const cnet_t *cn, uint8_t *keep)
{
    uint32_t nt = cn->ntransitions;
    size_t size = 2;
    while (size < 2 * (size_t)nt)
        size *= 2;
    uint32_t *slot = calloc(size, sizeof *slot);
    if (!slot)
        return -1;
    for (uint32_t t = 0; t < nt; t++) {
        if (cn->eff_start[t + 1] == cn->eff_start[t])
            continue;   /* changes nothing: no column */
        size_t h = effect_hash(cn, t) & (size - 1);
        while (slot[h] && !same_effect(cn, slot[h] - 1, t))
            h = (h + 1) & (size - 1);
        if (!slot[h])
            slot[h] = t + 1, keep[t] = 1;
    }
    free(slot);
    return 0;
}

static int index_incidence(se_ctx *s)
{
    const cnet_t *cn = s->cn;
    uint32_t np = cn->nplaces, nt = cn->ntransitions;
    size_t ne = cn->eff_start[nt];
    s->pstart = calloc((size_t)np + 1, sizeof *s->pstart);
    s->pcol = malloc((ne ? ne : 1) * sizeof *s->pcol);
    s->pdelta = malloc((ne ? ne : 1) * sizeof *s->pdelta);
    s->row_of = calloc((size_t)np + 1, sizeof *s->row_of);
    s->wild = calloc((size_t)np + 1, 1);
    uint8_t *keep = s->mark;   /* nt + 1 entries, free at this point */
    if (!s->pstart || !s->pcol || !s->pdelta || !s->row_of || !s->wild || distinct_effects(cn, keep) < 0)
        return -1;
    for (uint32_t t = 0; t < nt; t++)
        for (uint32_t i = cn->eff_start[t]; keep[t] && i < cn->eff_start[t + 1]; i++)
            s->pstart[cn->eff_place[i] + 1]++;
    for (uint32_t p = 0; p < np; p++)
        s->pstart[p + 1] += s->pstart[p];
    uint32_t *fill = s->touched;   /* np + 1 entries, free at this point */
    memcpy(fill, s->pstart, (size_t)np * sizeof *fill);
    for (uint32_t t = 0; t < nt; t++) {
        if (!keep[t])
            continue;
        keep[t] = 0;
        s->ncols++;
        for (uint32_t i = cn->eff_start[t]; i < cn->eff_start[t + 1]; i++) {
            uint32_t p = cn->eff_place[i];
            s->pcol[fill[p]] = s->ncols;
            s->pdelta[fill[p]++] = cn->eff_delta[i];
            if (abs128(cn->eff_delta[i]) > EXACT_MAX)
                s->wild[p] = 1;
        }
    }
    for (uint32_t p = 0; p < np; p++) {
        if (cn->initial[p] > (nc_count)EXACT_MAX)
            s->wild[p] = 1;
        if (!s->wild[p] && s->pstart[p + 1] > s->pstart[p])
            s->row_of[p] = ++s->nrows;
    }
    return 0;
}

static int alloc_scratch(se_ctx *s)
{
    uint32_t np = s->cn->nplaces;
    size_t nc = (size_t)s->cn->ntransitions + 1;
    s->acc = calloc(nc, sizeof *s->acc);
    s->mark = calloc(nc, 1);
    s->touched = malloc((nc > np + 1 ? nc : np + 1) * sizeof *s->touched);
    s->ind = malloc((nc + 1) * sizeof *s->ind);
    s->val = malloc((nc + 1) * sizeof *s->val);
    s->lo = malloc(((size_t)np + 1) * sizeof *s->lo);
    s->hi = malloc(((size_t)np + 1) * sizeof *s->hi);
    s->bplaces = malloc(((size_t)np + 1) * sizeof *s->bplaces);
    s->bmark = calloc((size_t)np + 1, 1);
    if (!s->acc || !s->mark || !s->touched || !s->ind || !s->val || !s->lo || !s->hi ||
        !s->bplaces || !s->bmark)
        return -1;
    for (uint32_t p = 0; p < np; p++)
        s->lo[p] = 0, s->hi[p] = INF128;
    return 0;
}

/* Called under lpg_run. */
static int build_base(se_ctx *s)
{
    const cnet_t *cn = s->cn;
    s->lp = glp_create_prob();
    if (s->nrows)
        glp_add_rows(s->lp, (int)s->nrows);
    if (s->ncols)
        glp_add_cols(s->lp, (int)s->ncols);
    for (uint32_t j = 1; j <= s->ncols; j++)
        glp_set_col_bnds(s->lp, (int)j, GLP_LO, 0.0, 0.0);
    size_t ne = 0;
    for (uint32_t p = 0; p < cn->nplaces; p++)
        if (s->row_of[p]) {
            glp_set_row_bnds(s->lp, (int)s->row_of[p], GLP_LO, -(double)cn->initial[p], 0.0);
            ne += s->pstart[p + 1] - s->pstart[p];
        }
    if (ne > (size_t)INT32_MAX - 1)
        return -1;
    int *ia = malloc((ne + 1) * sizeof *ia), *ja = malloc((ne + 1) * sizeof *ja);
    double *ar = malloc((ne + 1) * sizeof *ar);
    if (!ia || !ja || !ar) {
        free(ia), free(ja), free(ar);
        return -1;
    }
    size_t k = 0;
    for (uint32_t p = 0; p < cn->nplaces; p++)
        if (s->row_of[p])
            for (uint32_t i = s->pstart[p]; i < s->pstart[p + 1]; i++) {
                k++;
                ia[k] = (int)s->row_of[p];
                ja[k] = (int)s->pcol[i];
                ar[k] = (double)s->pdelta[i];
            }
    glp_load_matrix(s->lp, (int)ne, ia, ja, ar);
    free(ia), free(ja), free(ar);
    s->base_rows = s->nrows;
    return 0;
}

/* ------------------------------------------------------------------ */
/* one disjunct */

/* floor and ceiling of n / d for d > 0 */
static __int128 fdiv(__int128 n, __int128 d)
{
    __int128 q = n / d;
    return (n % d != 0 && n < 0) ? q - 1 : q;
}

static __int128 cdiv(__int128 n, __int128 d)
{
    __int128 q = n / d;
    return (n % d != 0 && n > 0) ? q + 1 : q;
}

static int holds(__int128 v, lc_rel rel)
{
    return rel == LC_LE ? v <= 0 : rel == LC_GE ? v >= 0 : v == 0;
}

/* a M(p) + k REL 0 as bounds on M(p); 0, or 1 when the disjunct is empty */
static int narrow(se_ctx *s, uint32_t p, __int128 a, __int128 k, lc_rel rel)
{
    if (a == 0)
        return !holds(k, rel);
    if (a < 0) {
        a = -a, k = -k;
        rel = rel == LC_LE ? LC_GE : rel == LC_GE ? LC_LE : LC_EQ;
    }
    if (!s->bmark[p])
        s->bmark[p] = 1, s->bplaces[s->nbplaces++] = p;
    if (rel != LC_GE) {
        __int128 h = fdiv(-k, a);
        if (h < s->hi[p])
            s->hi[p] = h;
    }
    if (rel != LC_LE) {
        __int128 l = cdiv(-k, a);
        if (l > s->lo[p])
            s->lo[p] = l;
    }
    return s->lo[p] > s->hi[p];
}

/* Adds a times place p's column deltas to the row being built; the
 * columns touched for the first time are listed in s->touched[*nt...]. */
static void accumulate_place(se_ctx *s, uint32_t p, __int128 a, uint32_t *nt)
{
    for (uint32_t j = s->pstart[p]; j < s->pstart[p + 1]; j++) {
        uint32_t col = s->pcol[j];
        if (!s->mark[col])
            s->mark[col] = 1, s->touched[(*nt)++] = col;
        s->acc[col] += a * s->pdelta[j];
    }
}

/* Moves the non-zero accumulated coefficients into GLPK's 1-based ind/val
 * (when given), clears the accumulator, and returns their number; *exact
 * drops to 0 when a coefficient is too large for a double to hold. */
static int gather_row(se_ctx *s, uint32_t nt, int *ind, double *val, int *exact)
{
    int len = 0;
    for (uint32_t i = 0; i < nt; i++) {
        uint32_t col = s->touched[i];
        if (s->acc[col] != 0 && ind) {
            *exact = *exact && abs128(s->acc[col]) <= EXACT_MAX;
            len++;
            ind[len] = (int)col;
            val[len] = (double)s->acc[col];
        }
        s->acc[col] = 0, s->mark[col] = 0;
    }
    return len;
}

/* Adds the row sum_t (sum_i a_i C(p_i,t)) x_t REL -(k + sum_i a_i m0(p_i)).
 * 0, or 1 when the constraint is constant and false. */
static int add_row(se_ctx *s, const lincon *c)
{
    const cnet_t *cn = s->cn;
    if (c->nterms > (1u << 20) || abs128(c->constant) > EXACT_MAX)
        return 0;   /* left out */
    for (uint32_t i = 0; i < c->nterms; i++) {
        uint32_t p = c->terms[i].place;
        if (p >= cn->nplaces || s->wild[p] || abs128(c->terms[i].coef) > EXACT_MAX)
            return 0;
    }
    /* below 2^20 terms of products below 2^106: no overflow */
    __int128 k = c->constant;
    uint32_t nt = 0;
    for (uint32_t i = 0; i < c->nterms; i++) {
        uint32_t p = c->terms[i].place;
        __int128 a = c->terms[i].coef;
        k += a * (__int128)cn->initial[p];
        accumulate_place(s, p, a, &nt);
    }
    int exact = abs128(k) <= EXACT_MAX;
    int len = gather_row(s, nt, s->ind, s->val, &exact);
    if (len == 0)
        return !holds(k, c->rel);
    if (!exact)
        return 0;
    int row = glp_add_rows(s->lp, 1);
    double rhs = -(double)k;
    glp_set_row_bnds(s->lp, row, c->rel == LC_LE ? GLP_UP : c->rel == LC_GE ? GLP_LO : GLP_FX, rhs, rhs);
    glp_set_mat_row(s->lp, row, len, s->ind, s->val);
    return 0;
}

/* The row bounds of place p for [lo, hi]; a bound doubles cannot hold is
 * dropped. */
static void set_place_bounds(se_ctx *s, uint32_t p, __int128 lo, __int128 hi)
{
    __int128 m0 = s->cn->initial[p];
    int has_hi = hi != INF128 && hi <= EXACT_MAX;
    if (lo > EXACT_MAX)
        lo = 0;
    double l = (double)(lo - m0), h = has_hi ? (double)(hi - m0) : 0.0;
    int type = !has_hi ? GLP_LO : lo == hi ? GLP_FX : GLP_DB;
    glp_set_row_bnds(s->lp, (int)s->row_of[p], type, l, h);
}

/* Puts disjunct d into the program: 0, or 1 when it is empty already. */
static int apply(se_ctx *s, uint32_t d)
{
    const cnet_t *cn = s->cn;
    const lindnf *f = s->dnf;
    int empty = 0;
    for (uint32_t i = f->start[d]; i < f->start[d + 1] && !empty; i++) {
        const lincon *c = &f->cons[f->items[i]];
        uint32_t p = c->nterms == 1 ? c->terms[0].place : UINT32_MAX;
        if (p < cn->nplaces && s->row_of[p])
            empty = narrow(s, p, c->terms[0].coef, c->constant, c->rel);
        else
            empty = add_row(s, c);
    }
    for (uint32_t i = 0; i < s->nbplaces && !empty; i++) {
        uint32_t p = s->bplaces[i];
        empty = s->lo[p] > s->hi[p];
        if (!empty)
            set_place_bounds(s, p, s->lo[p], s->hi[p]);
    }
    return empty;
}

/* Back to the base system. */
static void restore(se_ctx *s)
{
    for (uint32_t i = 0; i < s->nbplaces; i++) {
        uint32_t p = s->bplaces[i];
        s->lo[p] = 0, s->hi[p] = INF128, s->bmark[p] = 0;
        glp_set_row_bnds(s->lp, (int)s->row_of[p], GLP_LO, -(double)s->cn->initial[p], 0.0);
    }
    s->nbplaces = 0;
    /* s->ind holds ntransitions + 2 entries: delete in pieces that fit */
    int m, room = (int)s->cn->ntransitions + 1;
    while ((m = glp_get_num_rows(s->lp)) > (int)s->base_rows) {
        int n = m - (int)s->base_rows < room ? m - (int)s->base_rows : room;
        for (int i = 1; i <= n; i++)
            s->ind[i] = m - n + i;
        glp_del_rows(s->lp, n, s->ind);
    }
}

/* ------------------------------------------------------------------ */
/* solving */

enum { LP_FEASIBLE, LP_INFEASIBLE, LP_UNBOUNDED, LP_UNKNOWN };

static int float_solve(se_ctx *s, int from_scratch)
{
    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    parm.tm_lim = lpg_ms_left(s->deadline);
    if (parm.tm_lim == 0)
        return LP_UNKNOWN;
    if (from_scratch)
        glp_std_basis(s->lp);
    int r = glp_simplex(s->lp, &parm);
    if (r == GLP_EBADB || r == GLP_ESING || r == GLP_ECOND) {
        glp_std_basis(s->lp);
        r = glp_simplex(s->lp, &parm);
    }
    if (r != 0)
        return LP_UNKNOWN;
    switch (glp_get_status(s->lp)) {
    case GLP_OPT: case GLP_FEAS: return LP_FEASIBLE;
    case GLP_NOFEAS: return LP_INFEASIBLE;
    case GLP_UNBND: return LP_UNBOUNDED;
    default: return LP_UNKNOWN;
    }
}

/* Rational arithmetic from the current basis (the floating simplex's
 * final one), or from the slack basis when that one is singular. */
static int exact_solve(se_ctx *s)
{
    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    parm.tm_lim = lpg_ms_left(s->deadline);
    if (parm.tm_lim == 0)
        return LP_UNKNOWN;
    int r = glp_exact(s->lp, &parm);
    if (r == GLP_ESING || r == GLP_EBADB) {
        glp_std_basis(s->lp);
        parm.tm_lim = lpg_ms_left(s->deadline);
        if (parm.tm_lim == 0)
            return LP_UNKNOWN;
        r = glp_exact(s->lp, &parm);
    }
    if (r != 0)
        return LP_UNKNOWN;
    switch (glp_get_prim_stat(s->lp)) {
    case GLP_NOFEAS: return LP_INFEASIBLE;
    case GLP_FEAS: return glp_get_dual_stat(s->lp) == GLP_NOFEAS ? LP_UNBOUNDED : LP_FEASIBLE;
    default: return LP_UNKNOWN;
    }
}

/* Whether the current program is infeasible: LP_INFEASIBLE only once the
 * exact simplex agrees. */
static int refute_current(se_ctx *s, int confirm, int from_scratch)
{
    int r = float_solve(s, from_scratch);
    if (r != LP_INFEASIBLE || !confirm)
        return r;
    return exact_solve(s);
}

/* The places the current floating solution leaves (almost) empty: below
 * 1/(places+1) each, so that any set of them holds less than one token
 * and a trap among them violates its cut.  Returns the trap's initial
 * token count (0: no usable trap) and its size in *n. */
static __int128 emptied_trap(se_ctx *s, uint32_t *n)
{
    const cnet_t *cn = s->cn;
    double small = 1.0 / ((double)cn->nplaces + 1.0);
    for (uint32_t p = 0; p < cn->nplaces; p++) {
        double v = (double)cn->initial[p];
        if (s->row_of[p])
            v += glp_get_row_prim(s->lp, (int)s->row_of[p]);
        s->tin[p] = v < small;
    }
    *n = trap_largest_within(s->traps, s->tin);
    __int128 marked = 0;
    uint32_t k = 0;
    for (uint32_t p = 0; p < cn->nplaces && *n; p++)
        if (s->tin[p]) {
            marked += cn->initial[p];
            s->tterms[k++] = (lin_term){p, 1};
        }
    return marked;
}

static int traps_ready(se_ctx *s)
{
    uint32_t np = s->cn->nplaces;
    if (!s->traps) {
        s->traps = trap_index_new(s->cn);
        s->tin = malloc((size_t)np + 1);
        s->tterms = malloc(((size_t)np + 1) * sizeof *s->tterms);
    }
    return s->traps && s->tin && s->tterms ? 0 : -1;
}

/* After a feasible floating solution: adds the cut of a marked trap it
 * empties and solves again, while that helps.  Returns the last status,
 * LP_INFEASIBLE confirmed in exact arithmetic when confirm is set. */
static int refine_with_traps(se_ctx *s, int confirm)
{
    if (!trap_rounds || traps_ready(s) < 0)
        return LP_FEASIBLE;
    for (int round = 0; round < trap_rounds; round++) {
        uint32_t n;
        if (emptied_trap(s, &n) <= 0)
            return LP_FEASIBLE;
        lincon cut = {s->tterms, n, -1, LC_GE};   /* sum of the trap - 1 >= 0 */
        int rows = glp_get_num_rows(s->lp);
        if (add_row(s, &cut) || glp_get_num_rows(s->lp) == rows)
            return LP_FEASIBLE;   /* left out (numbers too large): no progress */
        int r = refute_current(s, confirm, 0);
        if (r != LP_FEASIBLE)
            return r;
    }
    return LP_FEASIBLE;
}

/* state[d]: 0 open, 1 refuted exactly, 2 refuted in floating point.  The
 * exact simplex is costly, so every disjunct is first tried in floating
 * point: one that is feasible ends the search before any exact work. */
static int refute_all(void *arg)
{
    se_ctx *s = arg;
    uint32_t n = s->dnf->ndisj;
    if (build_base(s) < 0)
        return 0;
    for (int pass = 0; pass <= 1; pass++)
        for (uint32_t d = 0; d < n; d++) {
            if (s->state[d] == 1 || (pass && s->state[d] != 2))
                continue;
            if (apply(s, d)) {
                s->state[d] = 1;
                restore(s);
                continue;
            }
            /* the last one need not wait for a second pass */
            int confirm = pass || d == n - 1;
            int r = refute_current(s, confirm, 1);
            if (r == LP_FEASIBLE)
                r = refine_with_traps(s, confirm);
            restore(s);
            if (r != LP_INFEASIBLE)
                return 0;
            s->state[d] = confirm ? 1 : 2;
        }
    return 1;
}

static int prepare(se_ctx *s, const cnet_t *cn, double timeout_s)
{
    memset(s, 0, sizeof *s);
    s->cn = cn;
    s->deadline = timeout_s > 0 ? lpg_now() + timeout_s : 0;
    if (alloc_scratch(s) < 0 || index_incidence(s) < 0)
        return -1;
    return 0;
}

/* Run under the guard; after a GLPK failure its objects are gone already. */
static int guarded(se_ctx *s, int (*fn)(void *))
{
    int r = lpg_run(fn, s);
    if (r == LPG_FAILED) {
        s->lp = NULL;
        r = 0;
    }
    return r;
}

se_verdict stateeq_unreachable(const cnet_t *cn, const tree_t *phi, double timeout_s)
{
    lindnf dnf;
    if (lindnf_build(cn, phi, STATEEQ_MAX_DISJUNCTS, &dnf) < 0)
        return SE_UNKNOWN;
    if (dnf.ndisj == 0) {   /* the formula is false everywhere */
        lindnf_free(&dnf);
        return SE_UNREACHABLE;
    }
    se_ctx s;
    int ok = prepare(&s, cn, timeout_s) == 0;
    s.dnf = &dnf;
    s.state = ok ? calloc(dnf.ndisj, 1) : NULL;
    ok = ok && s.state && guarded(&s, refute_all);
    ctx_free(&s);
    lindnf_free(&dnf);
    return ok ? SE_UNREACHABLE : SE_UNKNOWN;
}

/* ------------------------------------------------------------------ */
/* bounds */

/* Whether obj(x) >= need is refuted exactly; the row is removed again. */
static int refute_above(se_ctx *s, __int128 need)
{
    int row = glp_add_rows(s->lp, 1);
    glp_set_row_bnds(s->lp, row, GLP_LO, (double)need, 0.0);
    glp_set_mat_row(s->lp, row, s->olen, s->oind, s->oval);
    /* from the optimum the new row is the only violated one */
    int r = refute_current(s, 1, 0);
    restore(s);
    return r == LP_INFEASIBLE;
}

/* The largest integer not above the LP optimum v, allowing for rounding. */
static __int128 floor_of(double v)
{
    if (!(v < 1e18))
        return EXACT_MAX;   /* beyond any bound we could prove */
    return (__int128)floor(v + 1e-7 + 1e-12 * fabs(v));
}

/* The optimum of a bound may empty a marked trap: its cut joins the base
 * system (it holds in every reachable marking, so every later question
 * may keep it), and the bound is optimised again. */
static int tighten_with_traps(se_ctx *s)
{
    if (!trap_rounds || traps_ready(s) < 0)
        return LP_FEASIBLE;
    for (int round = 0; round < trap_rounds; round++) {
        uint32_t n;
        if (emptied_trap(s, &n) <= 0)
            return LP_FEASIBLE;
        lincon cut = {s->tterms, n, -1, LC_GE};
        int rows = glp_get_num_rows(s->lp);
        if (add_row(s, &cut) || glp_get_num_rows(s->lp) == rows)
            return LP_FEASIBLE;
        s->base_rows = (uint32_t)glp_get_num_rows(s->lp);
        int r = float_solve(s, 0);
        if (r != LP_FEASIBLE)
            return r;
    }
    return LP_FEASIBLE;
}

static int bound_worker(void *arg)
{
    se_ctx *s = arg;
    const cnet_t *cn = s->cn;
    __int128 c0 = 0;
    uint32_t nt = 0;
    for (uint32_t i = 0; i < s->nplaces; i++) {
        uint32_t p = s->places[i];
        if (p >= cn->nplaces)
            return 0;
        c0 += cn->initial[p];
        accumulate_place(s, p, 1, &nt);
    }
    s->oind = malloc(((size_t)nt + 1) * sizeof *s->oind);
    s->oval = malloc(((size_t)nt + 1) * sizeof *s->oval);
    if (!s->oind || !s->oval) {
        gather_row(s, nt, NULL, NULL, NULL);   /* leaves acc and mark clean */
        return 0;
    }
    int exact = 1;
    int len = gather_row(s, nt, s->oind, s->oval, &exact);
    s->olen = len;
    if (len == 0) {   /* no firing changes the sum */
        s->bound = (uint64_t)c0;
        return c0 <= (__int128)UINT64_MAX;
    }
    if (!exact || build_base(s) < 0)
        return 0;
    glp_set_obj_dir(s->lp, GLP_MAX);
    for (int i = 1; i <= len; i++)
        glp_set_obj_coef(s->lp, s->oind[i], s->oval[i]);
    for (int attempt = 0; attempt < 2; attempt++) {
        int r = float_solve(s, 1);
        if (r == LP_FEASIBLE && attempt == 0)
            r = tighten_with_traps(s);
        if (r == LP_FEASIBLE && attempt == 1)
            r = exact_solve(s);
        if (r != LP_FEASIBLE)
            return 0;
        __int128 b = floor_of(glp_get_obj_val(s->lp));
        if (b < 0)
            b = 0;   /* x = 0 is feasible */
        if (b + 1 > EXACT_MAX)
            return 0;
        if (refute_above(s, b + 1)) {
            if (c0 + b > (__int128)UINT64_MAX)
                return 0;
            s->bound = (uint64_t)(c0 + b);
            return 1;
        }
    }
    return 0;
}

int stateeq_upper_bound(const cnet_t *cn, const uint32_t *places, uint32_t n,
                        double timeout_s, uint64_t *bound)
{
    if (n == 0) {
        *bound = 0;
        return 0;
    }
    se_ctx s;
    int ok = prepare(&s, cn, timeout_s) == 0;
    s.places = places;
    s.nplaces = n;
    ok = ok && guarded(&s, bound_worker);
    if (ok)
        *bound = s.bound;
    ctx_free(&s);
    return ok ? 0 : -1;
}
