/* Stubborn sets by closure: a work list of transitions, each added once per
 * computation (an epoch stamp), each pulling in what the conditions of
 * stubborn.h require.  The per-place lists of increasing and decreasing
 * transitions are built once, from the firing effects. */
#include "base/placelists.h"
#include "engine/stubbornset.h"

#include <stdlib.h>

/* A deadlock-preserving set may start from any enabled transition; the
 * first one tried is often far from the smallest, so a few are tried. */
#define DEADLOCK_TRIES 3
/* Invisible enabled transitions tried as a stubborn set of their own. */
#define SINGLE_TRIES 4
/* A closure that spreads over a dense net can cost far more than firing
 * what it would save: each computation may scan at most this many list
 * entries per enabled transition (plus a constant) before it is given up
 * and every enabled transition is fired. */
#define WORK_PER_ENABLED 64
#define WORK_BASE 1024
#define GAVE_UP UINT32_MAX

struct stubborn {
    const cnet_t *cn;
    uint32_t *inc_start, *inc;   /* per place: transitions increasing it */
    uint32_t *dec_start, *dec;   /* per place: transitions decreasing it */
    uint32_t *stamp, epoch;      /* in the set being built */
    uint32_t *work;
    uint32_t nwork;
    uint32_t *seed, nseed;
    uint64_t work_left;          /* list entries the closure may still scan */
    uint32_t *seed_stamp, seed_epoch;
    /* during stubborn_exact: what the property tells of each step; the
     * closure leaves out impossible steps and stops at an enabled
     * visible one (the set is then every enabled transition) */
    const step_view *view;
};

static int build_changers(stubborn_t *sb)
{
    const cnet_t *cn = sb->cn;
    return place_lists(cn, cn->eff_start, cn->eff_place, cn->eff_delta, 1, &sb->inc_start,
                       &sb->inc) < 0 ||
           place_lists(cn, cn->eff_start, cn->eff_place, cn->eff_delta, -1, &sb->dec_start,
                       &sb->dec) < 0 ? -1 : 0;
}

stubborn_t *stubborn_new(const cnet_t *cn)
{
    stubborn_t *sb = calloc(1, sizeof *sb);
    if (!sb)
        return NULL;
    sb->cn = cn;
    size_t T = cn->ntransitions ? cn->ntransitions : 1;
    sb->stamp = calloc(T, sizeof *sb->stamp);
    sb->seed_stamp = calloc(T, sizeof *sb->seed_stamp);
    sb->work = malloc(T * sizeof *sb->work);
    sb->seed = malloc(T * sizeof *sb->seed);
    if (!sb->stamp || !sb->seed_stamp || !sb->work || !sb->seed || build_changers(sb) < 0) {
        stubborn_free(sb);
        return NULL;
    }
    return sb;
}

void stubborn_free(stubborn_t *sb)
{
    if (!sb)
        return;
    free(sb->inc_start);
    free(sb->inc);
    free(sb->dec_start);
    free(sb->dec);
    free(sb->stamp);
    free(sb->seed_stamp);
    free(sb->work);
    free(sb->seed);
    free(sb);
}

/* ---- the closure ---- */

static void new_epoch(uint32_t *stamp, uint32_t *epoch, uint32_t n)
{
    if (++*epoch == 0) {
        for (uint32_t i = 0; i < n; i++)
            stamp[i] = 0;
        *epoch = 1;
    }
}

static int impossible(const stubborn_t *sb, uint32_t t)
{
    return sb->view && sb->view->kind[sb->view->group[t]] == STEP_IMPOSSIBLE;
}

static void add(stubborn_t *sb, uint32_t t)
{
    if (sb->stamp[t] != sb->epoch && !impossible(sb, t)) {
        sb->stamp[t] = sb->epoch;
        sb->work[sb->nwork++] = t;
    }
}

static void add_range(stubborn_t *sb, const uint32_t *list, uint32_t from, uint32_t to)
{
    uint32_t n = to - from;
    sb->work_left = n < sb->work_left ? sb->work_left - n : 0;
    for (uint32_t k = from; k < to; k++)
        add(sb, list[k]);
}

/* The place of t's needs with too few tokens whose increasers are fewest:
 * any of them would do, fewer keeps the set small.  t is disabled in m. */
static uint32_t scapegoat(const stubborn_t *sb, const nc_count *m, uint32_t t)
{
    const cnet_t *cn = sb->cn;
    uint32_t best = UINT32_MAX, best_n = UINT32_MAX;
    for (uint32_t i = cn->need_start[t]; i < cn->need_start[t + 1]; i++) {
        uint32_t p = cn->need_place[i];
        if (m[p] >= cn->need_weight[i])
            continue;
        uint32_t n = sb->inc_start[p + 1] - sb->inc_start[p];
        if (sb->view && n > 0) {
            /* what the choice would add: increasers not in the set yet */
            n = 0;
            for (uint32_t k = sb->inc_start[p]; k < sb->inc_start[p + 1]; k++)
                n += sb->stamp[sb->inc[k]] != sb->epoch && !impossible(sb, sb->inc[k]);
        }
        if (n < best_n) {
            best = p;
            best_n = n;
        }
    }
    return best;
}

/* What t can disable, and what can disable t. */
static void add_conflicts(stubborn_t *sb, uint32_t t)
{
    const cnet_t *cn = sb->cn;
    for (uint32_t i = cn->need_start[t]; i < cn->need_start[t + 1]; i++) {
        uint32_t p = cn->need_place[i];
        add_range(sb, sb->dec, sb->dec_start[p], sb->dec_start[p + 1]);
    }
    for (uint32_t i = cn->eff_start[t]; i < cn->eff_start[t + 1]; i++)
        if (cn->eff_delta[i] < 0) {
            uint32_t p = cn->eff_place[i];
            add_range(sb, cn->consumers, cn->consumers_start[p], cn->consumers_start[p + 1]);
        }
}

/* Closes the work list under the conditions of stubborn.h.  Returns the
 * number of enabled transitions in the set, or stops early and returns
 * limit once that many are in, or GAVE_UP when the work allowance ran
 * out, or (in stubborn_exact) when an enabled visible transition comes
 * in.  One pass over a transition's needs tells whether it is
 * enabled and, if not, its scapegoat. */
static uint32_t close_set(stubborn_t *sb, const nc_count *m, uint32_t limit)
{
    uint32_t nen = 0;
    while (sb->nwork) {
        if (!sb->work_left) {
            sb->nwork = 0;
            return GAVE_UP;
        }
        uint32_t t = sb->work[--sb->nwork];
        uint32_t goat = scapegoat(sb, m, t);
        if (goat != UINT32_MAX) {
            add_range(sb, sb->inc, sb->inc_start[goat], sb->inc_start[goat + 1]);
            continue;
        }
        if (sb->view && sb->view->kind[sb->view->group[t]] == STEP_VISIBLE) {
            sb->nwork = 0;
            return GAVE_UP;
        }
        if (++nen >= limit) {
            sb->nwork = 0;
            return limit;
        }
        add_conflicts(sb, t);
    }
    return nen;
}

static uint32_t collect(const stubborn_t *sb, const uint32_t *enabled, uint32_t nen,
                        uint32_t *out)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < nen; i++)
        if (sb->stamp[enabled[i]] == sb->epoch)
            out[n++] = enabled[i];
    return n;
}

static void start(stubborn_t *sb, uint32_t nen)
{
    new_epoch(sb->stamp, &sb->epoch, sb->cn->ntransitions);
    sb->nwork = 0;
    sb->work_left = WORK_BASE + (uint64_t)WORK_PER_ENABLED * nen;
}

static uint32_t close_from(stubborn_t *sb, const nc_count *m, uint32_t t, uint32_t nen,
                           uint32_t limit)
{
    start(sb, nen);
    add(sb, t);
    return close_set(sb, m, limit);
}

uint32_t stubborn_fire_all(const uint32_t *enabled, uint32_t nen, uint32_t *out)
{
    for (uint32_t i = 0; i < nen; i++)
        out[i] = enabled[i];
    return nen;
}

uint32_t stubborn_deadlock(stubborn_t *sb, const nc_count *m, const uint32_t *enabled,
                           uint32_t nen, uint32_t *out)
{
    uint32_t tries = nen < DEADLOCK_TRIES ? nen : DEADLOCK_TRIES;
    uint32_t best = nen;
    for (uint32_t i = 0; i < tries && best > 1; i++) {
        uint32_t t = enabled[(uint64_t)i * nen / tries];
        uint32_t n = close_from(sb, m, t, nen, best);
        if (n == GAVE_UP)
            break;   /* the others would likely spread as far */
        if (n < best)
            best = collect(sb, enabled, nen, out);
    }
    return best < nen ? best : stubborn_fire_all(enabled, nen, out);
}

uint32_t stubborn_single(stubborn_t *sb, const nc_count *m, const uint32_t *enabled,
                         uint32_t nen, const uint8_t *visible)
{
    uint32_t tries = 0;
    for (uint32_t i = 0; i < nen && tries < SINGLE_TRIES; i++) {
        uint32_t t = enabled[i];
        if (visible[t])
            continue;
        tries++;
        uint32_t n = close_from(sb, m, t, nen, 2);
        if (n == 1)
            return t;
        if (n == GAVE_UP)
            break;
    }
    return UINT32_MAX;
}

/* Every set of stubborn.h that is not all enabled transitions must hold
 * all visible ones and no enabled visible one (docs/por-actions.md); with
 * one scapegoat per disabled transition, the closure of the visible
 * transitions is part of every such set, so it is computed first.  If it
 * holds enabled transitions, it is the set.  If it holds none, no visible
 * transition can fire again before one of the set does, that is never:
 * any set that keeps the infinite runs will do, a deadlock-preserving one
 * from a few possible starts.  Impossible steps are left out of every
 * closure. */
uint32_t stubborn_exact(stubborn_t *sb, const nc_count *m, const uint32_t *enabled,
                        uint32_t nen, const step_view *view, uint32_t *out)
{
    sb->view = view;
    start(sb, nen);
    for (uint32_t i = 0; i < view->nvisible; i++)
        add(sb, view->visible[i]);
    uint32_t best = close_set(sb, m, UINT32_MAX);
    if (best != GAVE_UP && best)
        best = collect(sb, enabled, nen, out);
    else if (best == 0) {
        uint32_t possible = 0;
        for (uint32_t i = 0; i < nen; i++)
            possible += !impossible(sb, enabled[i]);
        best = GAVE_UP;
        uint32_t tries = possible < DEADLOCK_TRIES ? possible : DEADLOCK_TRIES, tried = 0;
        for (uint32_t i = 0, k = 0; i < nen && tried < tries && best != 1; i++) {
            if (impossible(sb, enabled[i]))
                continue;
            /* the k-th possible one, spread over them */
            if (k++ != (uint64_t)tried * possible / tries)
                continue;
            tried++;
            uint32_t limit = best == GAVE_UP ? nen : best;
            uint32_t n = close_from(sb, m, enabled[i], nen, limit);
            if (n == GAVE_UP)
                break;   /* the others would likely spread as far */
            if (n < limit)
                best = collect(sb, enabled, nen, out);
        }
    }
    sb->view = NULL;
    return best == GAVE_UP || best == 0 || best >= nen ? stubborn_fire_all(enabled, nen, out)
                                                       : best;
}

/* ---- seeds ---- */

void stubborn_seed_clear(stubborn_t *sb)
{
    new_epoch(sb->seed_stamp, &sb->seed_epoch, sb->cn->ntransitions);
    sb->nseed = 0;
}

void stubborn_seed_add(stubborn_t *sb, uint32_t t)
{
    if (sb->seed_stamp[t] != sb->seed_epoch) {
        sb->seed_stamp[t] = sb->seed_epoch;
        sb->seed[sb->nseed++] = t;
    }
}

void stubborn_seed_changers(stubborn_t *sb, uint32_t p, int sign)
{
    const uint32_t *list = sign > 0 ? sb->inc : sb->dec;
    const uint32_t *start = sign > 0 ? sb->inc_start : sb->dec_start;
    for (uint32_t k = start[p]; k < start[p + 1]; k++)
        stubborn_seed_add(sb, list[k]);
}

void stubborn_seed_enablers(stubborn_t *sb, const nc_count *m, uint32_t t)
{
    uint32_t p = scapegoat(sb, m, t);
    if (p == UINT32_MAX)
        stubborn_seed_add(sb, t);   /* enabled after all: t itself */
    else
        stubborn_seed_changers(sb, p, 1);
}

void stubborn_seed_disablers(stubborn_t *sb, uint32_t t)
{
    const cnet_t *cn = sb->cn;
    for (uint32_t i = cn->need_start[t]; i < cn->need_start[t + 1]; i++)
        stubborn_seed_changers(sb, cn->need_place[i], -1);
}

uint32_t stubborn_from_seed(stubborn_t *sb, const nc_count *m, const uint32_t *enabled,
                            uint32_t nen, uint32_t *out)
{
    start(sb, nen);
    for (uint32_t i = 0; i < sb->nseed; i++)
        add(sb, sb->seed[i]);
    if (close_set(sb, m, UINT32_MAX) == GAVE_UP)
        return stubborn_fire_all(enabled, nen, out);
    return collect(sb, enabled, nen, out);
}
