/* Random place/transition nets and state formulas for the differential
 * tests of the reduced searches (test_stubborn, test_reduce), and the
 * check that a witness replays (replay.h's own firing rule) into the goal.
 * Deterministic: rnd.h. */
#ifndef MCK_TEST_RANDNET_H
#define MCK_TEST_RANDNET_H

#include "checkers/checkers.h"
#include "checkers/explicit.h"
#include "checkers/reduced.h"
#include "checkers/stubborn.h"
#include "lassoeval.h"
#include "randnetgen.h"
#include "replay.h"
#include "base/result.h"
#include "budgets.h"
#include "rnd.h"
#include "base/tree.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static tree_t *random_formula(uint32_t P, uint32_t T, int depth)
{
    if (depth == 0 || rnd(3) == 0)
        return random_atom(P, T);
    switch (rnd(5)) {
    case 0: return tree_unary(T_NOT, random_formula(P, T, depth - 1));
    case 1: return tree_binary(T_AND, random_formula(P, T, depth - 1),
                               random_formula(P, T, depth - 1));
    case 2: return tree_binary(T_OR, random_formula(P, T, depth - 1),
                               random_formula(P, T, depth - 1));
    case 3: return tree_binary(T_IMPLIES, random_formula(P, T, depth - 1),
                               random_formula(P, T, depth - 1));
    default: return tree_binary(T_IFF, random_formula(P, T, depth - 1),
                                random_formula(P, T, depth - 1));
    }
}

/* ---- the replay's own evaluation ---- */

typedef struct at {
    const net_t *net;
    const nc_count *m;
} at;

static int replay_enabled_cb(uint32_t t, void *ctx)
{
    const at *a = ctx;
    return replay_enabled(a->net, a->m, t);
}

static int replay_dead_cb(void *ctx)
{
    const at *a = ctx;
    return replay_dead(a->net, a->m);
}

/* 1 when res's run fires from the initial marking and ends in a deadlock
 * (f NULL) or a marking where f holds. */
static int replays(const net_t *net, const result_t *res, const tree_t *f)
{
    nc_count *m = calloc(net->nplaces + 1, sizeof *m);
    replay_initial(net, m);
    int ok = res->role == RUN_WITNESS && (res->run || res->run_len == 0);
    for (size_t i = 0; ok && i < res->run_len; i++) {
        ok = res->run[i] < net->ntransitions && replay_enabled(net, m, res->run[i]);
        if (ok)
            replay_fire(net, m, res->run[i]);
    }
    at a = {net, m};
    tree_eval_ctx ec = {m, replay_enabled_cb, replay_dead_cb, &a};
    if (ok)
        ok = f ? tree_eval_state(f, &ec) == 1 : replay_dead(net, m);
    free(m);
    return ok;
}

static check_options options(void)
{
    static budget_t budget;
    budget = unit_budget(0, 0);
    check_options opt;
    memset(&opt, 0, sizeof opt);
    opt.budget = &budget;
    opt.want_run = 1;
    opt.max_states = 5000;    /* unbounded nets end in UNKNOWN on both sides */
    return opt;
}

typedef struct tally {
    unsigned cases, agree, decided, replayed, unknown;
} tally;

typedef void (*checker_run)(const cnet_t *cn, const tree_t *formula, prop_kind kind,
                            const check_options *opt, result_t *res);

/* n processes, each a line of k steps; process i may also "stop" at its
 * middle.  Full state space (k+1)^n; every deadlock and goal lies on runs
 * the reduction keeps along one process at a time. */
static net_t *parallel_lines(int n, int k)
{
    net_t *net = nc_create_net("lines", NULL);
    for (int i = 0; i < n; i++)
        for (int s = 0; s <= k; s++)
            nc_create_place(net, NULL, NULL, s == 0);
    for (int i = 0; i < n; i++)
        for (int s = 0; s < k; s++) {
            int t = nc_create_transition(net, NULL, NULL);
            nc_create_arc(net, NC_ARC_PT, (uint32_t)(i * (k + 1) + s), (uint32_t)t, 1, 0);
            nc_create_arc(net, NC_ARC_TP, (uint32_t)(i * (k + 1) + s + 1), (uint32_t)t, 1, 0);
        }
    return net;
}

/* Runs the unreduced search and a reduced one (named label) on net and f;
 * counts agreement, and whether the reduced one's witnesses replay on net
 * itself into the goal. */
static void compare(net_t *net, const tree_t *f, prop_kind kind, checker_run reduced,
                    const char *label, tally *t)
{
    const cnet_t *cn = nc_compile(net);
    check_options opt = options();
    result_t full, red;
    result_init(&full);
    result_init(&red);
    explicit_run(cn, f, kind, &opt, &full);
    reduced(cn, f, kind, &opt, &red);
    t->cases++;
    if (full.answer == ANSWER_UNKNOWN || red.answer == ANSWER_UNKNOWN) {
        /* on an unbounded net either search may hit the limit first */
        t->unknown++;
        t->agree++;
    } else {
        t->decided++;
        if (full.answer == red.answer)
            t->agree++;
        else {
            char *s = f ? tree_to_string(f) : NULL;
            printf("# differs: %s on a net of %zu places, %zu transitions: explicit %d, "
                   "%s %d\n", s ? s : "dl", net->nplaces, net->ntransitions,
                   (int)full.answer, label, (int)red.answer);
            free(s);
        }
        if (red.answer != ANSWER_YES || replays(net, &red, f))
            t->replayed++;
    }
    result_clear(&full);
    result_clear(&red);
}

/* nets random nets, each asked for a deadlock (into *dl) and for goals
 * random reach goals of the given depth (into *reach), compared as
 * compare() does; make_net builds each net. */
static void differential(net_t *(*make_net)(void), int nets, int goals, int depth,
                         checker_run reduced, const char *label, tally *dl, tally *reach)
{
    for (int i = 0; i < nets; i++) {
        net_t *net = make_net();
        compare(net, NULL, KIND_DL, reduced, label, dl);
        for (int g = 0; g < goals; g++) {
            tree_t *f = random_formula((uint32_t)net->nplaces, (uint32_t)net->ntransitions,
                                       depth);
            compare(net, f, KIND_REACH, reduced, label, reach);
            tree_free(f);
        }
        nc_free_net(net);
    }
}

/* With random_ltl_rich set, random_ltl also makes X and action
 * propositions (the word-exact reduction's formulas); ltl_infinite_runs
 * makes ltl_differential count infinite runs only. */
static int random_ltl_rich, ltl_infinite_runs;

static tree_t *random_ltl(uint32_t P, uint32_t T, int depth)
{
    if (depth == 0 || rnd(4) == 0) {
        if (random_ltl_rich && rnd(3) == 0) {
            uint32_t t[2] = {rnd(T), rnd(T)};
            return tree_action(t, 1 + rnd(2));
        }
        tree_t *a = random_atom(P, T);
        /* deadlock reads every transition: keep it rare so that most
         * formulas leave room for reduction */
        if (a->op == T_DEADLOCK && rnd(4)) {
            tree_free(a);
            lin_term term = {rnd(P), 1};
            a = tree_cmp(&term, 1, -1, REL_GE);
        }
        return a;
    }
    switch (rnd(random_ltl_rich ? 8 : 7)) {
    case 7: return tree_unary(T_X, random_ltl(P, T, depth - 1));
    case 0: return tree_unary(T_NOT, random_ltl(P, T, depth - 1));
    case 1: return tree_binary(T_AND, random_ltl(P, T, depth - 1), random_ltl(P, T, depth - 1));
    case 2: return tree_binary(T_OR, random_ltl(P, T, depth - 1), random_ltl(P, T, depth - 1));
    case 3: return tree_unary(T_F, random_ltl(P, T, depth - 1));
    case 4: return tree_unary(T_G, random_ltl(P, T, depth - 1));
    case 5: return tree_binary(T_U, random_ltl(P, T, depth - 1), random_ltl(P, T, depth - 1));
    default: return tree_binary(T_R, random_ltl(P, T, depth - 1), random_ltl(P, T, depth - 1));
    }
}

typedef struct positions {
    const net_t *net;
    nc_count **m;        /* the marking at each position of the lasso */
    const result_t *res; /* its steps: position i fires run[i], if any */
} positions;

static int position_atom(void *ctx, size_t pos, const tree_t *f)
{
    const positions *ps = ctx;
    switch (f->op) {   /* a state formula over the step as well */
    case T_ACTION:
        if (pos >= ps->res->run_len)
            return 0;   /* the dead marking repeating: no step */
        for (uint32_t i = 0; i < f->n; i++)
            if (f->items[i] == ps->res->run[pos])
                return 1;
        return 0;
    case T_NOT: return !position_atom(ctx, pos, f->l);
    case T_AND: return position_atom(ctx, pos, f->l) && position_atom(ctx, pos, f->r);
    case T_OR: return position_atom(ctx, pos, f->l) || position_atom(ctx, pos, f->r);
    case T_IMPLIES: return !position_atom(ctx, pos, f->l) || position_atom(ctx, pos, f->r);
    case T_IFF: return !position_atom(ctx, pos, f->l) == !position_atom(ctx, pos, f->r);
    default: break;
    }
    at a = {ps->net, ps->m[pos]};
    tree_eval_ctx ec = {ps->m[pos], replay_enabled_cb, replay_dead_cb, &a};
    return tree_eval_state(f, &ec);
}

/* 1 when res's counterexample is a lasso of the net (steps enabled, the
 * cycle closed, or a deadlock repeated) on which f is false. */
static int lasso_violates(const net_t *net, const result_t *res, const tree_t *f)
{
    size_t n = res->run_len + 1, P = net->nplaces + 1;
    positions ps = {net, calloc(n, sizeof *ps.m), res};
    int ok = ps.m != NULL && res->role == RUN_COUNTEREXAMPLE && res->loop_start <= res->run_len;
    for (size_t i = 0; ok && i < n; i++) {
        ps.m[i] = calloc(P, sizeof **ps.m);
        ok = ps.m[i] != NULL;
        if (!ok)
            break;
        if (i == 0) {
            replay_initial(net, ps.m[0]);
            continue;
        }
        uint32_t t = res->run[i - 1];
        memcpy(ps.m[i], ps.m[i - 1], P * sizeof **ps.m);
        ok = t < net->ntransitions && replay_enabled(net, ps.m[i], t);
        if (ok)
            replay_fire(net, ps.m[i], t);
    }
    size_t len = n, loop = res->loop_start;
    if (ok && res->loop_start == res->run_len) {
        ok = replay_dead(net, ps.m[n - 1]);   /* the deadlock repeats */
    } else if (ok) {
        ok = !memcmp(ps.m[n - 1], ps.m[loop], P * sizeof **ps.m);
        len = n - 1;   /* the last position is the loop's first again */
    }
    char *v = malloc(n);
    if (ok && v) {
        lasso_eval(f, len, loop, position_atom, &ps, v);
        ok = v[0] == 0;
    }
    free(v);
    for (size_t i = 0; ps.m && i < n; i++)
        free(ps.m[i]);
    free(ps.m);
    return ok;
}


/* ---- LTL ---- */

typedef struct ltl_tally {
    unsigned cases, agree, decided, shown, reduced, skipped;
} ltl_tally;

/* nets random nets with per_net random LTL formulas without X each; the
 * reduced checker against explicit, every counterexample replayed as a
 * lasso of the given net on which the formula is false.  Formulas the
 * reduced checker does not accept are counted as skipped. */
static void ltl_differential(net_t *(*make_net)(void), int nets, int per_net,
                             checker_run reduced, const char *label, ltl_tally *t,
                             int (*accepts)(const tree_t *, prop_kind, char *, size_t))
{
    for (int i = 0; i < nets; i++) {
        net_t *net = make_net();
        const cnet_t *cn = nc_compile(net);
        for (int g = 0; g < per_net; g++) {
            tree_t *f = random_ltl((uint32_t)net->nplaces, (uint32_t)net->ntransitions, 3);
            char why[200];
            if (accepts && !accepts(f, KIND_LTL, why, sizeof why)) {
                t->skipped++;
                tree_free(f);
                continue;
            }
            check_options opt = options();
            opt.ltl_infinite_only = ltl_infinite_runs;
            result_t full, red;
            result_init(&full);
            result_init(&red);
            explicit_run(cn, f, KIND_LTL, &opt, &full);
            reduced(cn, f, KIND_LTL, &opt, &red);
            t->cases++;
            t->reduced += red.states < full.states;
            if (full.answer == ANSWER_UNKNOWN || red.answer == ANSWER_UNKNOWN) {
                t->agree++;
            } else {
                t->decided++;
                if (full.answer == red.answer) {
                    t->agree++;
                } else {
                    char *txt = tree_to_string(f);
                    printf("# ltl differs: %s: explicit %d, %s %d\n", txt ? txt : "?",
                           (int)full.answer, label, (int)red.answer);
                    free(txt);
                }
                if (red.answer == ANSWER_YES || lasso_violates(net, &red, f))
                    t->shown++;
            }
            result_clear(&full);
            result_clear(&red);
            tree_free(f);
        }
        nc_free_net(net);
    }
}

#endif
