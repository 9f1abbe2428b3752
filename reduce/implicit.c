/* Implicit places, found by linear programming (GLPK).
 *
 * A place p never forbids a firing when, for some y >= 0 over the places
 * Q that share a transition with p,
 *   (1) every transition t: sum_q y_q eff(t,q) <= eff(t,p), so that
 *       M(p) - y.M never decreases and M(p) >= y.M + m0(p) - y.m0 always;
 *   (2) every t that needs p: y.need(t) - y.m0 >= need(t,p) - m0(p), so
 *       that whenever the places of Q allow t, p holds need(t,p) tokens.
 * Such a p (unobserved) is removed.  GLPK finds y in floating point; y is
 * then rounded to multiples of 1/SCALE and (1) and (2) are checked again in
 * exact integer arithmetic, so a rounding error can only cost a removal.
 * Places are tried one after the other against the places still there,
 * so no two places are removed on each other's account. */
#include "lp/lpguard.h"
#include "work.h"

#include <glpk.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_Y 48            /* places in Q */
#define MAX_ROWS 400        /* transitions touching p or Q */
#define MAX_LPS 2000        /* systems per reduction */
#define SCALE 720720.0      /* lcm(1..16): small fractions stay exact */
#define Y_MAX 1048576.0     /* larger multipliers are not checked */

typedef __int128 wide;

typedef struct implicit_lp {
    rw_net *w;
    uint32_t p;
    const uint32_t *q;      /* Q */
    uint32_t nq;
    const uint32_t *t;      /* the transitions touching p or Q */
    uint32_t nt;
    double *y;              /* out: the solution */
    int *ind;
    double *val;
} implicit_lp;

static int64_t eff_of(rw_trans *t, uint32_t p)
{
    const rw_entry *e = rw_find(t, p);
    return e ? e->eff : 0;
}

static nc_count need_of(rw_trans *t, uint32_t p)
{
    const rw_entry *e = rw_find(t, p);
    return e ? e->need : 0;
}

/* 1 with a y in a->y, 0 when GLPK finds none. */
static int solve(void *arg)
{
    implicit_lp *a = arg;
    rw_net *w = a->w;
    glp_prob *lp = glp_create_prob();
    glp_set_obj_dir(lp, GLP_MIN);
    glp_add_cols(lp, (int)a->nq);
    for (uint32_t j = 0; j < a->nq; j++) {
        glp_set_col_bnds(lp, (int)j + 1, GLP_LO, 0.0, 0.0);
        glp_set_obj_coef(lp, (int)j + 1, 1.0);
    }
    for (uint32_t i = 0; i < a->nt; i++) {
        rw_trans *tr = &w->t[a->t[i]];
        int len = 0;
        for (uint32_t j = 0; j < a->nq; j++) {
            int64_t e = eff_of(tr, a->q[j]);
            if (e) {
                a->ind[++len] = (int)j + 1;
                a->val[len] = (double)e;
            }
        }
        int row = glp_add_rows(lp, 1);
        glp_set_row_bnds(lp, row, GLP_UP, 0.0, (double)eff_of(tr, a->p));
        glp_set_mat_row(lp, row, len, a->ind, a->val);
        nc_count needp = need_of(tr, a->p);
        if (!needp)
            continue;
        len = 0;
        for (uint32_t j = 0; j < a->nq; j++) {
            double c = (double)need_of(tr, a->q[j]) - (double)w->p[a->q[j]].initial;
            if (c != 0.0) {
                a->ind[++len] = (int)j + 1;
                a->val[len] = c;
            }
        }
        row = glp_add_rows(lp, 1);
        glp_set_row_bnds(lp, row, GLP_LO, (double)needp - (double)w->p[a->p].initial, 0.0);
        glp_set_mat_row(lp, row, len, a->ind, a->val);
    }
    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    parm.tm_lim = 200;
    int found = glp_simplex(lp, &parm) == 0 &&
                (glp_get_status(lp) == GLP_OPT || glp_get_status(lp) == GLP_FEAS);
    for (uint32_t j = 0; found && j < a->nq; j++)
        a->y[j] = glp_get_col_prim(lp, (int)j + 1);
    glp_delete_prob(lp);
    return found;
}

/* (1) and (2) in integers, for y rounded to multiples of 1/SCALE. */
static int exact_check(implicit_lp *a)
{
    rw_net *w = a->w;
    int64_t y[MAX_Y];
    for (uint32_t j = 0; j < a->nq; j++) {
        if (!(a->y[j] >= -1e-9 && a->y[j] <= Y_MAX))
            return 0;
        double r = nearbyint(a->y[j] * SCALE);
        y[j] = r < 0 ? 0 : (int64_t)r;
    }
    const wide scale = (wide)SCALE;
    for (uint32_t i = 0; i < a->nt; i++) {
        rw_trans *tr = &w->t[a->t[i]];
        wide lhs = 0;
        for (uint32_t j = 0; j < a->nq; j++)
            lhs += (wide)y[j] * eff_of(tr, a->q[j]);
        if (lhs > scale * eff_of(tr, a->p))
            return 0;
        nc_count needp = need_of(tr, a->p);
        if (!needp)
            continue;
        wide have = 0;
        for (uint32_t j = 0; j < a->nq; j++)
            have += (wide)y[j] *
                    ((wide)need_of(tr, a->q[j]) - (wide)w->p[a->q[j]].initial);
        if (have < scale * ((wide)needp - (wide)w->p[a->p].initial))
            return 0;
    }
    return 1;
}

/* Q and the transitions to constrain, from the live entries; 0 when p's
 * neighbourhood is too large to try. */
static int neighbourhood(rw_net *w, uint32_t p, const columns *c,
                         uint8_t *inq, uint8_t *in_rows, uint32_t *q, uint32_t *nq, uint32_t *t,
                         uint32_t *nt)
{
    *nq = *nt = 0;
    int ok = 1;
    for (uint32_t i = c->start[p]; i < c->start[p + 1] && ok; i++) {
        rw_trans *tr = &w->t[c->t[i]];
        if (!tr->alive || !rw_find(tr, p))
            continue;
        for (uint32_t k = 0; k < tr->n && ok; k++) {
            uint32_t r = tr->e[k].place;
            if (r == p || inq[r] || !w->p[r].alive)
                continue;
            if (*nq == MAX_Y)
                ok = 0;
            else {
                inq[r] = 1;
                q[(*nq)++] = r;
            }
        }
    }
    uint32_t around[MAX_Y + 1];
    memcpy(around, q, *nq * sizeof *q);
    around[*nq] = p;
    for (uint32_t j = 0; j <= *nq && ok; j++)
        for (uint32_t i = c->start[around[j]]; i < c->start[around[j] + 1] && ok; i++) {
            uint32_t x = c->t[i];
            if (in_rows[x] || !w->t[x].alive)
                continue;
            if (*nt == MAX_ROWS)
                ok = 0;
            else {
                in_rows[x] = 1;
                t[(*nt)++] = x;
            }
        }
    for (uint32_t j = 0; j < *nq; j++)
        inq[q[j]] = 0;
    for (uint32_t i = 0; i < *nt; i++)
        in_rows[t[i]] = 0;
    return ok && *nq > 0;
}

long rw_implicit_places(rw_net *w)
{
    if (w->implicit_tries >= MAX_LPS || w->lassos)
        return 0;
    columns c = {NULL, NULL};
    uint8_t *inq = calloc((size_t)w->np + 1, 1), *in_rows = calloc((size_t)w->nt + 1, 1);
    uint32_t *q = malloc(MAX_Y * sizeof *q), *t = malloc(MAX_ROWS * sizeof *t);
    double *y = malloc(MAX_Y * sizeof *y), *val = malloc((MAX_Y + 1) * sizeof *val);
    int *ind = malloc((MAX_Y + 1) * sizeof *ind);
    long removed = -1;
    if (!inq || !in_rows || !q || !t || !y || !val || !ind || columns_build(w, &c) < 0)
        goto out;
    removed = 0;
    for (uint32_t p = 0; p < w->np && w->implicit_tries < MAX_LPS; p++) {
        if (!w->p[p].alive || w->p[p].visible || w->p[p].implicit_tried)
            continue;
        if (rw_stop(w))
            break;
        w->p[p].implicit_tried = 1;
        uint32_t nq, nt;
        if (!neighbourhood(w, p, &c, inq, in_rows, q, &nq, t, &nt))
            continue;
        implicit_lp a = {w, p, q, nq, t, nt, y, ind, val};
        w->implicit_tries++;
        if (lpg_run(solve, &a) != 1 || !exact_check(&a))
            continue;
        for (uint32_t i = c.start[p]; i < c.start[p + 1]; i++)
            rw_drop(&w->t[c.t[i]], p);
        w->p[p].alive = 0;
        removed++;
    }
out:
    if (c.start)
        columns_free(&c);
    free(inq);
    free(in_rows);
    free(q);
    free(t);
    free(y);
    free(val);
    free(ind);
    if (removed > 0)
        w->stats.implicit_places += (size_t)removed;
    return removed;
}
