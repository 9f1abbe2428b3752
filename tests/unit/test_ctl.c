/* CTL: hand-made nets with known answers for every operator (deadlocks
 * included, mcc-formats.md §3.4), then random formulas checked against a
 * naive evaluator written here from the fixpoint equations of §3.4, on a
 * state graph this test enumerates itself (replay.h).  Every run the
 * checker gives is replayed and must show its value: the path, lasso or
 * run into a deadlock that the outermost operator asks for. */
#include "checkers/checkers.h"
#include "checkers/explicit.h"
#include "checkers/reduced.h"
#include "checkers/stubborn.h"
#include "checkers/ctl/ctl.h"
#include "replay.h"
#include "rnd.h"
#include "unit.h"
#include "budgets.h"

#include <stdlib.h>

/* ---- nets ---- */

static void arc(net_t *n, nc_arc_kind k, int p, int t, nc_count w)
{
    nc_create_arc(n, k, (uint32_t)p, (uint32_t)t, w, 0);
}

/* p0 -t0-> p1 -t1-> p2, where it stops. */
static net_t *chain_net(void)
{
    net_t *n = nc_create_net("chain", NULL);
    for (int p = 0; p < 3; p++)
        nc_create_place(n, NULL, NULL, p == 0);
    nc_create_transition(n, "t0", NULL);
    nc_create_transition(n, "t1", NULL);
    arc(n, NC_ARC_PT, 0, 0, 1), arc(n, NC_ARC_TP, 1, 0, 1);
    arc(n, NC_ARC_PT, 1, 1, 1), arc(n, NC_ARC_TP, 2, 1, 1);
    return n;
}

/* One marked place and no transition: the initial marking is a deadlock. */
static net_t *dead_net(void)
{
    net_t *n = nc_create_net("dead", NULL);
    nc_create_place(n, NULL, NULL, 1);
    return n;
}

/* p0 -a-> p1 -b-> p0 is a cycle; p0 -c-> p2 leaves it for a deadlock. */
static net_t *lasso_net(void)
{
    net_t *n = nc_create_net("lasso", NULL);
    for (int p = 0; p < 3; p++)
        nc_create_place(n, NULL, NULL, p == 0);
    nc_create_transition(n, "a", NULL);
    nc_create_transition(n, "b", NULL);
    nc_create_transition(n, "c", NULL);
    arc(n, NC_ARC_PT, 0, 0, 1), arc(n, NC_ARC_TP, 1, 0, 1);
    arc(n, NC_ARC_PT, 1, 1, 1), arc(n, NC_ARC_TP, 0, 1, 1);
    arc(n, NC_ARC_PT, 0, 2, 1), arc(n, NC_ARC_TP, 2, 2, 1);
    return n;
}

/* Two processes with a lock, and a producer filling a bounded buffer of
 * three with weights: a few dozen markings, cycles, no deadlock. */
static net_t *mutex_buffer_net(void)
{
    net_t *n = nc_create_net("mutexbuf", NULL);
    int i1 = nc_create_place(n, NULL, NULL, 1), c1 = nc_create_place(n, NULL, NULL, 0);
    int i2 = nc_create_place(n, NULL, NULL, 1), c2 = nc_create_place(n, NULL, NULL, 0);
    int lk = nc_create_place(n, NULL, NULL, 1);
    int full = nc_create_place(n, NULL, NULL, 0), empty = nc_create_place(n, NULL, NULL, 3);
    for (int t = 0; t < 6; t++)
        nc_create_transition(n, NULL, NULL);
    arc(n, NC_ARC_PT, i1, 0, 1), arc(n, NC_ARC_TP, c1, 0, 1), arc(n, NC_ARC_PT, lk, 0, 1);
    arc(n, NC_ARC_PT, c1, 1, 1), arc(n, NC_ARC_TP, i1, 1, 1), arc(n, NC_ARC_TP, lk, 1, 1);
    arc(n, NC_ARC_PT, i2, 2, 1), arc(n, NC_ARC_TP, c2, 2, 1), arc(n, NC_ARC_PT, lk, 2, 1);
    arc(n, NC_ARC_PT, c2, 3, 1), arc(n, NC_ARC_TP, i2, 3, 1), arc(n, NC_ARC_TP, lk, 3, 1);
    /* process 1 in its critical section produces two at once */
    arc(n, NC_ARC_PT, empty, 4, 2), arc(n, NC_ARC_TP, full, 4, 2), arc(n, NC_ARC_PT, c1, 4, 1);
    arc(n, NC_ARC_TP, c1, 4, 1);
    arc(n, NC_ARC_PT, full, 5, 1), arc(n, NC_ARC_TP, empty, 5, 1);
    return n;
}

/* Two tokens race down p0 -> p1 -> p2; p2 with two tokens can reset one
 * to p0, and a token in p1 alone may die: some paths deadlock, some loop. */
static net_t *race_net(void)
{
    net_t *n = nc_create_net("race", NULL);
    for (int p = 0; p < 4; p++)
        nc_create_place(n, NULL, NULL, p == 0 ? 2 : 0);
    for (int t = 0; t < 4; t++)
        nc_create_transition(n, NULL, NULL);
    arc(n, NC_ARC_PT, 0, 0, 1), arc(n, NC_ARC_TP, 1, 0, 1);
    arc(n, NC_ARC_PT, 1, 1, 1), arc(n, NC_ARC_TP, 2, 1, 1);
    arc(n, NC_ARC_PT, 2, 2, 2), arc(n, NC_ARC_TP, 2, 2, 1), arc(n, NC_ARC_TP, 0, 2, 1);
    arc(n, NC_ARC_PT, 1, 3, 1), arc(n, NC_ARC_TP, 3, 3, 1);
    return n;
}

/* ---- the test's own state graph ---- */

#define MAXS 512
#define MAXE 4096

typedef struct sgraph {
    const net_t *net;
    size_t np, n, ne;
    nc_count m[MAXS][8];
    uint32_t first[MAXS + 1];
    uint32_t to[MAXE], label[MAXE];
} sgraph;

static int find(const sgraph *g, const nc_count *m)
{
    for (size_t s = 0; s < g->n; s++)
        if (!memcmp(g->m[s], m, g->np * sizeof *m))
            return (int)s;
    return -1;
}

/* Breadth-first; states in order of discovery, so 0 is the initial one. */
static int enumerate(sgraph *g, const net_t *net)
{
    memset(g, 0, sizeof *g);
    g->net = net;
    g->np = net->nplaces;
    if (g->np > 8)
        return -1;
    replay_initial(net, g->m[0]);
    g->n = 1;
    for (size_t s = 0; s < g->n; s++) {
        g->first[s] = (uint32_t)g->ne;
        for (uint32_t t = 0; t < net->ntransitions; t++) {
            if (!replay_enabled(net, g->m[s], t))
                continue;
            nc_count next[8];
            memcpy(next, g->m[s], sizeof next);
            replay_fire(net, next, t);
            int k = find(g, next);
            if (k < 0) {
                if (g->n == MAXS)
                    return -1;
                memcpy(g->m[g->n], next, sizeof next);
                k = (int)g->n++;
            }
            if (g->ne == MAXE)
                return -1;
            g->to[g->ne] = (uint32_t)k;
            g->label[g->ne++] = t;
        }
    }
    g->first[g->n] = (uint32_t)g->ne;
    return 0;
}

static int dead(const sgraph *g, size_t s)
{
    return g->first[s] == g->first[s + 1];
}

typedef struct at {
    const sgraph *g;
    size_t s;
} at;

static int at_enabled(uint32_t t, void *ctx)
{
    const at *a = ctx;
    return replay_enabled(a->g->net, a->g->m[a->s], t);
}

static int at_dead(void *ctx)
{
    const at *a = ctx;
    return dead(a->g, a->s);
}

/* The states of f, by the equations of §3.4 iterated to their fixpoint. */
static void naive(const sgraph *g, const tree_t *f, char *out)
{
    char l[MAXS], r[MAXS];
    size_t n = g->n;
    if (tree_is_state_formula(f)) {
        for (size_t s = 0; s < n; s++) {
            at a = {g, s};
            tree_eval_ctx c = {g->m[s], at_enabled, at_dead, &a};
            out[s] = (char)(tree_eval_state(f, &c) == 1);
        }
        return;
    }
    if (f->l)
        naive(g, f->l, l);
    if (f->r)
        naive(g, f->r, r);
    int least = 1;   /* μ (start empty) or ν (start full) */
    switch (f->op) {
    case T_NOT: for (size_t s = 0; s < n; s++) out[s] = !l[s]; return;
    case T_AND: for (size_t s = 0; s < n; s++) out[s] = l[s] && r[s]; return;
    case T_OR: for (size_t s = 0; s < n; s++) out[s] = l[s] || r[s]; return;
    case T_IMPLIES: for (size_t s = 0; s < n; s++) out[s] = !l[s] || r[s]; return;
    case T_IFF: for (size_t s = 0; s < n; s++) out[s] = !l[s] == !r[s]; return;
    case T_EG: case T_AG: least = 0; break;
    default: break;
    }
    for (size_t s = 0; s < n; s++)
        out[s] = !least;
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t s = 0; s < n; s++) {
            int some = 0, all = 1;   /* of the successors, in out (or l for X) */
            for (uint32_t e = g->first[s]; e < g->first[s + 1]; e++) {
                int in = f->op == T_EX || f->op == T_AX ? l[g->to[e]] : out[g->to[e]];
                some |= in;
                all &= in;
            }
            int v;
            switch (f->op) {
            case T_EX: v = some; break;
            case T_AX: v = all; break;
            case T_EF: v = l[s] || some; break;
            case T_AF: v = l[s] || (!dead(g, s) && all); break;
            case T_EU: v = r[s] || (l[s] && some); break;
            case T_AU: v = r[s] || (l[s] && !dead(g, s) && all); break;
            case T_EG: v = l[s] && (dead(g, s) || some); break;
            default: v = l[s] && all; break;   /* T_AG */
            }
            if (v != out[s]) {
                out[s] = (char)v;
                changed = 1;
            }
        }
    }
}

/* ---- checking a run against the graph ---- */

/* The states a run visits (n + 1 of them), or -1 when a step is not
 * enabled. */
static int visit(const sgraph *g, const result_t *res, int *states)
{
    nc_count m[8];
    replay_initial(g->net, m);
    states[0] = 0;
    for (size_t i = 0; i < res->run_len; i++) {
        if (res->run[i] >= g->net->ntransitions || !replay_enabled(g->net, m, res->run[i]))
            return -1;
        replay_fire(g->net, m, res->run[i]);
        states[i + 1] = find(g, m);
    }
    return 0;
}

/* Whether f with value v has a run of its own for evidence: E X/F/U/G
 * true or A X/F/U/G false, under negations. */
static int has_run(const tree_t *f, int v)
{
    for (; f->op == T_NOT; f = f->l)
        v = !v;
    switch (f->op) {
    case T_EX: case T_EF: case T_EU: case T_EG: return v;
    case T_AX: case T_AF: case T_AU: case T_AG: return !v;
    default: return 0;
    }
}

static int is_connective(tree_op op)
{
    return op == T_NOT || op == T_AND || op == T_OR || op == T_IMPLIES || op == T_IFF;
}

static int value_at(const sgraph *g, const tree_t *f, int s)
{
    char v[MAXS];
    naive(g, f, v);
    return v[s];
}

/* Which operands of connective c (value v at s) decide it, by the
 * semantics: dl, dr; their values lv, rv. */
static void deciding(const sgraph *g, const tree_t *c, int v, int s, int *dl, int *dr, int *lv,
                     int *rv)
{
    *lv = value_at(g, c->l, s);
    *rv = value_at(g, c->r, s);
    switch (c->op) {
    case T_AND: *dl = v || !*lv, *dr = v || !*rv; break;
    case T_OR: *dl = !v || *lv, *dr = !v || *rv; break;
    case T_IMPLIES: *dl = !v || !*lv, *dr = !v || *rv; break;
    default: *dl = *dr = 1; break;
    }
}

/* The temporal subformula of `in` (value v at s), reached through
 * connectives and only into operands that decide their value, that prints
 * as text and has a run for its value; NULL when there is none. */
static const tree_t *find_part(const sgraph *g, const tree_t *in, int v, int s, const char *text)
{
    if (in->op == T_NOT)
        return find_part(g, in->l, !v, s, text);
    if (is_connective(in->op)) {
        int dl, dr, lv, rv;
        deciding(g, in, v, s, &dl, &dr, &lv, &rv);
        const tree_t *t = dl ? find_part(g, in->l, lv, s, text) : NULL;
        return t ? t : dr ? find_part(g, in->r, rv, s, text) : NULL;
    }
    if (tree_is_state_formula(in) || !has_run(in, v))
        return NULL;
    char *printed = tree_to_string(in);
    int same = printed && !strcmp(printed, text);
    free(printed);
    return same ? in : NULL;
}

/* Of two deciding operands, the one the descent follows (ctlrun.c's rule):
 * one with a run of its own, else one that is no state formula, else the
 * first.  -1 when one has a run of its own: the descent must not stop. */
static int follow(const tree_t *l, int lv, int dl, const tree_t *r, int rv, int dr)
{
    if ((dl && has_run(l, lv)) || (dr && has_run(r, rv)))
        return -1;
    if (dl && dr && tree_is_state_formula(l) && !tree_is_state_formula(r))
        return 1;
    return dl ? 0 : 1;
}

/* Whether the descent rightly stops at f (value v at s): following the
 * rule through the connectives, it meets no temporal operator with a run. */
static int nothing_left(const sgraph *g, const tree_t *f, int v, int s)
{
    for (;;) {
        if (f->op == T_NOT) {
            f = f->l;
            v = !v;
            continue;
        }
        if (!is_connective(f->op))
            return !has_run(f, v);
        int dl, dr, lv, rv;
        deciding(g, f, v, s, &dl, &dr, &lv, &rv);
        int k = follow(f->l, lv, dl, f->r, rv, dr);
        if (k < 0)
            return 0;
        v = k ? rv : lv;
        f = k ? f->r : f->l;
    }
}

/* Whether res's run shows the value v of f at the initial marking, part
 * by part: the run replays; each segment names a temporal subformula,
 * found (through connectives only) in the whole formula for the first and
 * in the operand the one before left due for the others, that has the
 * value claimed where the segment starts and a run for it; the steps of
 * the segment are that run (checked against the naive evaluator); only
 * the last may end in a loop or deadlock, and where the last ends in a
 * state, the operand due there has no run of its own left to show. */
static int shows(const sgraph *g, const tree_t *f, int v, const result_t *res)
{
    /* the heading follows the whole formula's value, negations and all */
    if (res->role != (v ? RUN_WITNESS : RUN_COUNTEREXAMPLE) || res->nsegments == 0)
        return 0;
    int states[MAXS + 2];
    char l[MAXS], r[MAXS], whole[MAXS];
    size_t n = res->run_len;
    if (n > MAXS || visit(g, res, states) < 0)
        return 0;
    int last = states[n], lasso = res->loop_start < n, deadend = res->loop_start == n;
    if (lasso && states[res->loop_start] != last)
        return 0;
    if (deadend && !dead(g, (size_t)last))
        return 0;
    const tree_t *scope = f;   /* where the next segment's formula is */
    int scope_v = v;
    for (size_t k = 0; k < res->nsegments; k++) {
        const run_segment *seg = &res->segments[k];
        size_t a = seg->start, b = k + 1 < res->nsegments ? res->segments[k + 1].start : n;
        int final = k + 1 == res->nsegments;
        if ((k == 0 && a != 0) || b < a || b > n)
            return 0;
        const tree_t *p = find_part(g, scope, scope_v, states[a], seg->formula);
        if (!p)
            return 0;
        naive(g, p, whole);
        if (whole[states[a]] != seg->holds || !has_run(p, seg->holds))
            return 0;
        naive(g, p->l, l);
        if (p->r)
            naive(g, p->r, r);
        int all_l = 1, all_not_l = 1, all_not_r = 1, before_l = 1;
        for (size_t i = a; i <= b; i++) {
            all_l &= l[states[i]];
            all_not_l &= !l[states[i]];
            if (p->r)
                all_not_r &= !r[states[i]];
            if (i < b)
                before_l &= l[states[i]];
        }
        int forever = final && (lasso || deadend);
        if ((lasso || deadend) && res->loop_start < a)   /* the loop belongs to the last part */
            return 0;
        int ok, end = states[b];
        switch (p->op) {
        case T_EX: ok = b == a + 1 && l[end]; scope = p->l, scope_v = 1; break;
        case T_AX: ok = b == a + 1 && !l[end]; scope = p->l, scope_v = 0; break;
        case T_EF: ok = l[end] && !forever; scope = p->l, scope_v = 1; break;
        case T_AG: ok = !l[end] && !forever; scope = p->l, scope_v = 0; break;
        case T_EU: ok = r[end] && before_l && !forever; scope = p->r, scope_v = 1; break;
        case T_EG: ok = all_l && forever; scope = NULL; break;
        case T_AF: ok = all_not_l && forever; scope = NULL; break;
        case T_AU:
            /* ψ never; and φ fails at the end, or the run goes on forever;
             * at that end both are due to fail */
            ok = all_not_r && (forever || !l[end]);
            scope = forever ? NULL : p, scope_v = 0;
            break;
        default: return 0;
        }
        if (!ok)
            return 0;
        if (scope && scope == p) {   /* A U ended: φ and ψ both fail there */
            if (final) {
                int k = follow(p->l, 0, 1, p->r, 0, 1);
                return k >= 0 && nothing_left(g, k ? p->r : p->l, 0, end);
            }
            const tree_t *next = find_part(g, p->l, 0, end, res->segments[k + 1].formula);
            scope = next ? p->l : p->r;
            continue;
        }
        if (final) {
            /* a finite end: what is due there has nothing more to show;
             * a loop or a deadlock: nothing is due */
            if (scope && !nothing_left(g, scope, scope_v, end))
                return 0;
            return (scope == NULL) == forever;
        }
        if (!scope)   /* a loop cannot be followed */
            return 0;
    }
    return 0;
}

/* ---- formulas ---- */

static tree_t *ge(uint32_t place, int64_t k)
{
    lin_term term = {place, 1};
    return tree_cmp(&term, 1, -k, REL_GE);
}

static tree_t *fire1(uint32_t t)
{
    return tree_fireable(&t, 1);
}

static tree_t *un(tree_op op, tree_t *a)
{
    return tree_unary(op, a);
}

static tree_t *bin(tree_op op, tree_t *a, tree_t *b)
{
    return tree_binary(op, a, b);
}

/* Checks f on net against the expected answer; a run, when given, must
 * replay and show it.  want_run: whether a run is expected. */
static void expect(const net_t *net, tree_t *f, int want, int want_run, const char *what)
{
    const cnet_t *cn = nc_compile((net_t *)net);
    budget_t budget = unit_budget(0, 0);
    check_options opt = {.budget = &budget};
    opt.want_run = 1;
    result_t res;
    result_init(&res);
    ctl_run(cn, f, &opt, &res);
    sgraph *g = malloc(sizeof *g);
    int ok = res.answer == (want ? ANSWER_YES : ANSWER_NO);
    CHECK(ok, "%s: %s", what, want ? "holds" : "fails");
    char why[128];
    CHECK(ctl_local_check(cn, f, &opt, NULL, NULL, why, sizeof why) == want, "%s: local check agrees",
          what);
    if (g && enumerate(g, net) == 0) {
        int has = res.role != RUN_NONE;
        CHECK(has == want_run && (!has || shows(g, f, want, &res)),
              "%s: %s", what, want_run ? "its run replays and shows it" : "no run");
    }
    free(g);
    result_clear(&res);
    tree_free(f);
}

/* How a run ends. */
enum { ENDS_FINITE, ENDS_LOOP, ENDS_DEAD };

/* A nested formula whose run comes in two parts: the second shows
 * `second` (a subtree of f) and the run ends as `ends` says; the run
 * replays and shows f part by part (shows). */
static void expect_two_parts(const net_t *net, tree_t *f, int want, const tree_t *second,
                             int ends, const char *what)
{
    const cnet_t *cn = nc_compile((net_t *)net);
    budget_t budget = unit_budget(0, 0);
    check_options opt = {.budget = &budget};
    opt.want_run = 1;
    result_t res;
    result_init(&res);
    ctl_run(cn, f, &opt, &res);
    char *text = tree_to_string(second);
    int end = res.loop_start == RESULT_NO_LOOP ? ENDS_FINITE
              : res.loop_start == res.run_len ? ENDS_DEAD : ENDS_LOOP;
    CHECK(res.answer == (want ? ANSWER_YES : ANSWER_NO) && res.nsegments == 2 && text &&
          !strcmp(res.segments[1].formula, text) && end == ends,
          "%s: %s, a run in two parts, the second for %s (%zu parts, the last %s)", what,
          want ? "holds" : "fails", text ? text : "?", res.nsegments,
          res.nsegments ? res.segments[res.nsegments - 1].formula : "-");
    sgraph *g = malloc(sizeof *g);
    if (g && enumerate(g, net) == 0)
        CHECK(shows(g, f, want, &res), "%s: the run replays and shows each part", what);
    free(g);
    free(text);
    result_clear(&res);
    tree_free(f);
}

/* Nested obligations: the path to where the inner operator is due, then
 * its own run. */
static void nested_answers(void)
{
    net_t *chain = chain_net(), *lasso = lasso_net();
    tree_t *inner, *f;
    /* lasso: s0 -a-> s1 -b-> s0, s0 -c-> s2 (dead).  At s1, A F p2 fails:
     * b a b a ... never reaches p2 */
    inner = un(T_AF, ge(2, 1));
    f = un(T_AG, bin(T_IMPLIES, ge(1, 1), inner));
    expect_two_parts(lasso, f, 0, inner, ENDS_LOOP, "lasso AG (p1 -> AF p2)");
    inner = un(T_EG, un(T_NOT, ge(2, 1)));
    f = un(T_EF, bin(T_AND, ge(1, 1), inner));
    expect_two_parts(lasso, f, 1, inner, ENDS_LOOP, "lasso EF (p1 & EG !p2)");
    /* the same run, under the negation: the counterexample to !EF ... */
    inner = un(T_EG, un(T_NOT, ge(2, 1)));
    f = un(T_NOT, un(T_EF, bin(T_AND, ge(1, 1), inner)));
    expect_two_parts(lasso, f, 0, inner, ENDS_LOOP, "lasso !EF (p1 & EG !p2)");
    /* chain: s0 -t0-> s1 -t1-> s2 (dead).  At s1, E G !p0 runs into the
     * deadlock; E X p2 is one step more; A X p0 fails at s0 at once */
    inner = un(T_EG, un(T_NOT, ge(0, 1)));
    f = un(T_EF, bin(T_AND, ge(1, 1), inner));
    expect_two_parts(chain, f, 1, inner, ENDS_DEAD, "chain EF (p1 & EG !p0)");
    inner = un(T_EX, ge(2, 1));
    f = un(T_EF, bin(T_AND, ge(1, 1), inner));
    expect_two_parts(chain, f, 1, inner, ENDS_FINITE, "chain EF (p1 & EX p2)");
    inner = un(T_AX, ge(0, 1));
    f = un(T_AG, bin(T_OR, un(T_NOT, ge(0, 1)), inner));
    expect_two_parts(chain, f, 0, inner, ENDS_FINITE, "chain AG (!p0 | AX p0)");
    /* A U that fails where φ fails too (s1: p0 is gone for good), then
     * φ's own run into the deadlock */
    inner = un(T_AF, ge(0, 1));
    f = bin(T_AU, inner, ge(0, 2));
    expect_two_parts(chain, f, 0, inner, ENDS_DEAD, "chain A[AF p0 U p0 >= 2]");
    nc_free_net(chain);
    nc_free_net(lasso);
}

static void known_answers(void)
{
    net_t *chain = chain_net(), *deadn = dead_net(), *lasso = lasso_net();
    /* chain: s0 -t0-> s1 -t1-> s2 (dead) */
    expect(chain, un(T_EX, ge(1, 1)), 1, 1, "chain EX p1");
    expect(chain, un(T_AX, ge(1, 1)), 1, 0, "chain AX p1");
    expect(chain, un(T_EX, ge(2, 1)), 0, 0, "chain EX p2");
    expect(chain, un(T_EF, tree_deadlock()), 1, 1, "chain EF deadlock");
    expect(chain, un(T_AG, un(T_EX, tree_const(1))), 0, 1, "chain AG EX true (the end is dead)");
    expect(chain, un(T_AF, ge(2, 1)), 1, 0, "chain AF p2");
    expect(chain, un(T_EG, ge(0, 1)), 0, 0, "chain EG p0 (p0 must be left)");
    expect(chain, un(T_EG, tree_const(1)), 1, 1, "chain EG true (a path into the deadlock)");
    expect(chain, un(T_AG, bin(T_OR, ge(0, 1), ge(1, 1))), 0, 1, "chain AG (p0 | p1)");
    expect(chain, bin(T_AU, bin(T_OR, ge(0, 1), ge(1, 1)), ge(2, 1)), 1, 0,
           "chain A[(p0 | p1) U p2]");
    expect(chain, bin(T_EU, ge(0, 1), ge(2, 1)), 0, 0, "chain E[p0 U p2]");
    expect(chain, bin(T_EU, un(T_NOT, ge(2, 1)), ge(2, 1)), 1, 1, "chain E[!p2 U p2]");
    expect(chain, un(T_AF, un(T_AG, ge(2, 1))), 1, 0, "chain AF AG p2");
    expect(chain, un(T_NOT, un(T_EF, ge(2, 1))), 0, 1, "chain !EF p2 (run of EF p2)");
    /* an initial deadlock: the only path is the marking itself */
    expect(deadn, un(T_EX, tree_const(1)), 0, 0, "dead EX true");
    expect(deadn, un(T_AX, tree_const(0)), 1, 0, "dead AX false");
    expect(deadn, un(T_EG, ge(0, 1)), 1, 1, "dead EG p0");
    expect(deadn, un(T_AF, ge(0, 1)), 1, 0, "dead AF p0");
    expect(deadn, un(T_AF, un(T_NOT, ge(0, 1))), 0, 1, "dead AF !p0");
    expect(deadn, bin(T_AU, tree_const(1), ge(0, 1)), 1, 0, "dead A[true U p0]");
    expect(deadn, bin(T_AU, tree_const(1), ge(0, 2)), 0, 1, "dead A[true U p0 >= 2]");
    expect(deadn, bin(T_EU, tree_const(1), ge(0, 2)), 0, 0, "dead E[true U p0 >= 2]");
    /* lasso: the cycle a b and the exit c to a deadlock */
    expect(lasso, un(T_EG, un(T_NOT, ge(2, 1))), 1, 1, "lasso EG !p2 (the loop)");
    expect(lasso, un(T_AF, ge(2, 1)), 0, 1, "lasso AF p2 (the loop avoids it)");
    expect(lasso, bin(T_AU, un(T_NOT, ge(2, 1)), ge(2, 1)), 0, 1, "lasso A[!p2 U p2]");
    expect(lasso, bin(T_AU, ge(0, 1), ge(1, 1)), 0, 1, "lasso A[p0 U p1] (c leaves both)");
    expect(lasso, bin(T_EU, un(T_NOT, ge(2, 1)), ge(2, 1)), 1, 1, "lasso E[!p2 U p2]");
    expect(lasso, un(T_AG, un(T_EF, ge(2, 1))), 1, 0, "lasso AG EF p2");
    expect(lasso, un(T_EF, un(T_AG, ge(2, 1))), 1, 1, "lasso EF AG p2");
    expect(lasso, un(T_AX, ge(1, 1)), 0, 1, "lasso AX p1");
    expect(lasso, un(T_EX, fire1(1)), 1, 1, "lasso EX fireable(b)");
    expect(lasso, un(T_AG, bin(T_OR, fire1(0), tree_deadlock())), 0, 1,
           "lasso AG (fireable(a) | deadlock)");
    nc_free_net(chain);
    nc_free_net(deadn);
    nc_free_net(lasso);
}

/* ---- random formulas against the naive evaluator ---- */


static tree_t *random_formula(const net_t *net, int depth)
{
    static const tree_op unary[] = {T_NOT, T_EX, T_AX, T_EF, T_AF, T_EG, T_AG};
    static const tree_op binary[] = {T_AND, T_OR, T_EU, T_AU, T_IMPLIES};
    uint32_t pick = depth == 0 ? 0 : rnd(3);
    if (pick == 0) {
        switch (rnd(4)) {
        case 0: return ge(rnd((uint32_t)net->nplaces), 1 + rnd(2));
        case 1: return net->ntransitions ? fire1(rnd((uint32_t)net->ntransitions)) : tree_deadlock();
        case 2: return tree_deadlock();
        default: return un(T_NOT, ge(rnd((uint32_t)net->nplaces), 1));
        }
    }
    if (pick == 1)
        return un(unary[rnd(7)], random_formula(net, depth - 1));
    return bin(binary[rnd(5)], random_formula(net, depth - 1), random_formula(net, depth - 1));
}

static void differential(const char *name, net_t *net, int count)
{
    sgraph *g = malloc(sizeof *g);
    const cnet_t *cn = nc_compile(net);
    if (!g || !cn || enumerate(g, net) < 0) {
        CHECK(0, "%s: the test's own graph", name);
        free(g);
        return;
    }
    int agree = 0, local_agree = 0, por_agree = 0, reduced = 0, runs = 0, runs_ok = 0;
    int deep = 0;   /* runs of two parts or more */
    int local_runs = 0, local_runs_ok = 0;
    for (int i = 0; i < count; i++) {
        tree_t *f = random_formula(net, 1 + (int)rnd(4));
        char want[MAXS];
        naive(g, f, want);
        budget_t budget = unit_budget(0, 0);
        check_options opt = {.budget = &budget};
        opt.want_run = 1;
        result_t res;
        result_init(&res);
        ctl_run(cn, f, &opt, &res);
        int got = res.answer == ANSWER_YES ? 1 : res.answer == ANSWER_NO ? 0 : -1;
        char why[128];
        int local = ctl_local_check(cn, f, &opt, NULL, NULL, why, sizeof why);
        /* the same with stubborn sets in the E F and A G searches */
        check_options por = opt;
        por.partial_order = 1;
        ctl_local_stats stats = {0, 0};
        int local_por = ctl_local_check(cn, f, &por, &stats, NULL, why, sizeof why);
        /* the local check's own runs (one operator over state formulas),
         * with and without stubborn sets, show the value as the checker's do */
        for (int reduce = 0; reduce < 2; reduce++) {
            result_t lr;
            result_init(&lr);
            int lv = ctl_local_check(cn, f, reduce ? &por : &opt, NULL, &lr, why, sizeof why);
            if (lr.role != RUN_NONE) {
                local_runs++;
                if (lv == want[0] && shows(g, f, lv, &lr))
                    local_runs_ok++;
                else {
                    printf("# %s: local run of ", name);
                    tree_print(stdout, f);
                    printf(" does not show its value\n");
                }
            }
            result_clear(&lr);
        }
        agree += got == want[0];
        local_agree += local == want[0];
        por_agree += local_por == want[0];
        reduced += stats.reduced;
        if (got != want[0] || local != want[0] || local_por != want[0]) {
            printf("# %s: ", name);
            tree_print(stdout, f);
            printf(": naive %d, checker %d, local %d, local with stubborn sets %d\n", want[0],
                   got, local, local_por);
        }
        if (res.role != RUN_NONE) {
            runs++;
            deep += res.nsegments > 1;
            if (shows(g, f, got, &res))
                runs_ok++;
            else {
                printf("# %s: run of ", name);
                tree_print(stdout, f);
                printf(" does not show its value\n");
            }
        }
        result_clear(&res);
        tree_free(f);
    }
    CHECK(agree == count, "%s: %d random formulas, checker and naive fixpoints agree on %d "
          "(%zu states)", name, count, agree, g->n);
    CHECK(local_agree == count, "%s: the local check agrees on %d of %d", name, local_agree,
          count);
    CHECK(por_agree == count, "%s: the local check with stubborn sets agrees on %d of %d (%d "
          "reduced a search)", name, por_agree, count, reduced);
    CHECK(runs > 0 && runs_ok == runs, "%s: %d of %d runs replay and show their value, part "
          "by part (%d of them in two parts or more)", name, runs_ok, runs, deep);
    CHECK(local_runs > 0 && local_runs_ok == local_runs, "%s: %d of the local check's %d runs "
          "show their value", name, local_runs_ok, local_runs);
    /* an initial deadlock has nowhere to go after the first part */
    CHECK(deep > 0 || g->n == 1, "%s: nested formulas get runs of several parts", name);
    free(g);
}

static void limits(void)
{
    /* an unbounded net: the graph never completes; the budget ends it */
    net_t *n = nc_create_net("unbounded", NULL);
    nc_create_place(n, NULL, NULL, 0);
    nc_create_transition(n, NULL, NULL);
    arc(n, NC_ARC_TP, 0, 0, 1);
    const cnet_t *cn = nc_compile(n);
    budget_t budget = unit_budget(0, (size_t)8 << 20);
    check_options opt = {.budget = &budget};
    result_t res;
    result_init(&res);
    tree_t *f = un(T_AG, un(T_EF, ge(0, 1)));
    ctl_run(cn, f, &opt, &res);
    CHECK(res.answer == ANSWER_UNKNOWN && strstr(res.reason, "memory"),
          "unbounded net: UNKNOWN with the reason (%s)", res.reason);
    result_clear(&res);
    result_init(&res);
    tree_t *ef = un(T_EF, ge(0, 3));
    ctl_run(cn, ef, &opt, &res);
    CHECK(res.answer == ANSWER_YES && res.role == RUN_NONE,
          "unbounded net: no graph, but the local check finds EF p0 >= 3 (no run)");
    tree_free(ef);
    result_clear(&res);
    result_init(&res);
    budget_t brief = unit_budget(0.2, 0);
    opt.budget = &brief;
    ctl_run(cn, f, &opt, &res);
    CHECK(res.answer == ANSWER_UNKNOWN && res.reason[0], "unbounded net, 0.2 s: UNKNOWN (%s)",
          res.reason);
    result_clear(&res);
    tree_free(f);
    nc_free_net(n);
    /* LTL operators are not CTL */
    char why[200];
    f = un(T_F, ge(0, 1));
    CHECK(!explicit_accepts(f, KIND_CTL, why, sizeof why), "explicit-ctl refuses F p: %s", why);
    tree_free(f);
}

int main(void)
{
    known_answers();
    nested_answers();
    net_t *nets[] = {chain_net(), dead_net(), lasso_net(), mutex_buffer_net(), race_net()};
    const char *names[] = {"chain", "dead", "lasso", "mutex+buffer", "race"};
    for (size_t i = 0; i < sizeof nets / sizeof nets[0]; i++) {
        differential(names[i], nets[i], 400);
        nc_free_net(nets[i]);
    }
    limits();
    UNIT_DONE();
}
