/* The unfold checker row (unfold.h). */
#include "checkers/unfold.h"
#include "base/clock.h"
#include "checkers/explicit.h"
#include "engine/unfold/configsat.h"
#include "engine/fence.h"
#include "engine/unfold/prefix.h"
#include "engine/unfold/segments.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* -v: the configuration as a partial order, each event with its causes
 * (the events that made its preset), in the order of the run. */
static void print_configuration(const unf_prefix *u, const uint32_t *events, size_t n)
{
    const net_t *net = u->cn->net;
    fprintf(stderr, "unfold: configuration of %zu events (event: transition < causes)\n", n);
    for (size_t i = 0; i < n; i++) {
        const unf_event *ev = &u->ev[events[i]];
        const nc_transition *tr = &net->transitions[ev->trans];
        const char *label = tr->name ? tr->name : tr->id;
        if (label)
            fprintf(stderr, "unfold:   e%u: %s <", events[i] + 1, label);
        else
            fprintf(stderr, "unfold:   e%u: t%u <", events[i] + 1, ev->trans + 1);
        int none = 1;
        for (uint32_t k = 0; k < ev->npre; k++) {
            uint32_t f = u->co[u->pre[ev->pre_start + k]].pre;
            int seen = 0;
            for (uint32_t j = 0; j < k; j++)
                seen |= u->co[u->pre[ev->pre_start + j]].pre == f;
            if (f != UNF_NONE && !seen) {
                fprintf(stderr, " e%u", f + 1);
                none = 0;
            }
        }
        fprintf(stderr, "%s\n", none ? " (initial marking)" : "");
    }
}

/* The prefix kept for the properties of one list (unfold_keep): the
 * outcome of the first property's try, a prefix or why there is none. */
static struct {
    const cnet_t *cn;             /* the net it is kept for; NULL: none kept */
    int tried;
    unf_prefix *u;
    char why[160];
} kept;

void unfold_keep(const cnet_t *cn)
{
    unf_free(kept.u);
    memset(&kept, 0, sizeof kept);
    kept.cn = cn;
}

/* The solver's part, in a child process (fence_run): CaDiCaL reads the
 * clock only at its own checkpoints (the unfold checker ended 46 s past a
 * 120 s limit on Railroad-PT-010), and its clauses are not counted by the
 * budget.  The prefix, built before, is the child's by inheritance; a
 * partial one gets its consumers there, on the child's copy. */
typedef struct solve_call {
    unf_prefix *u;
    const tree_t *formula;
    prop_kind kind;
    const check_options *opt;
} solve_call;

static void solve(void *ctx, result_t *res)
{
    const solve_call *c = ctx;
    unf_prefix *u = c->u;
    const check_options *opt = c->opt;
    char why[160] = "";
    uint32_t *events;
    size_t n;
    double solving = mono_now();
    const tree_t *goal = c->kind == KIND_DL ? NULL : c->formula;
    int found;
    if (!u->complete) {
        found = unf_sat_find_segments(u, goal, UNF_LOOK_FIRST_EVENTS, opt->budget, &events, &n,
                                      why, sizeof why);
    } else if (unf_consumers(u) < 0) {
        result_unknown(res, "memory budget exhausted");
        return;
    } else {
        found = unf_sat_find(u, goal, opt->budget, &events, &n, why, sizeof why);
    }
    if (opt->verbose)
        fprintf(stderr, "unfold: encoded and solved%s in %.3f s\n",
                u->complete ? "" : " (a partial prefix)", mono_now() - solving);
    if (found < 0) {
        result_unknown(res, why);
    } else if (!found) {
        res->answer = ANSWER_NO;
    } else {
        res->answer = ANSWER_YES;
        if (opt->verbose)
            print_configuration(u, events, n);
        if (opt->want_run) {
            uint32_t *run = unf_linearise(u, events, n);
            if (!run) {
                result_unknown(res, "memory budget exhausted");
            } else {
                if (result_set_run(res, RUN_WITNESS, run, n, RESULT_NO_LOOP) < 0)
                    result_unknown(res, "memory budget exhausted");
                free(run);
            }
        }
        free(events);
    }
}

/* The looks at the prefix while it grows (prefix.h says when, and how
 * long each may take): the solver on the partial prefix, fenced like the
 * one on a complete prefix. */
typedef struct look_ctx {
    const tree_t *formula;
    prop_kind kind;
    const check_options *opt;     /* the property's */
    unsigned looks;
    result_t *res;                /* where an answer goes */
    int answered;
} look_ctx;

/* Solves on the partial prefix within look_budget (memory: what the child
 * may map); 1 with the answer in res when a configuration was found. */
static int look_solve(look_ctx *lc, unf_prefix *partial, const budget_t *look_budget,
                      size_t memory, result_t *res)
{
    check_options lopt = *lc->opt;
    lopt.budget = look_budget;
    solve_call c = {partial, lc->formula, lc->kind, &lopt};
    fence_run(look_budget, memory, solve, &c, res);
    return res->answer == ANSWER_YES;
}

static int look(void *ctx, unf_prefix *partial, double allowed)
{
    look_ctx *lc = ctx;
    double now = mono_now();
    if (budget_expired(lc->opt->budget))
        return 0;
    budget_t b = budget_carve(lc->opt->budget, CARVE_UNFOLD_LOOK);
    if (!b.deadline || b.deadline > now + allowed)
        b.deadline = now + allowed;
    /* the construction holds the prefix's carve at most: the child may
     * map the rest */
    size_t memory = b.bytes;
    result_t r;
    result_init(&r);
    int found = look_solve(lc, partial, &b, memory, &r);
    double took = mono_now() - now;
    lc->looks++;
    if (lc->opt->verbose)
        fprintf(stderr, "unfold: look %u at the first %zu events (%zu cut-offs): %s in %.3f s "
                "(of %.3f s)\n", lc->looks, partial->nev, partial->ncutoffs,
                found ? "found" : r.answer == ANSWER_UNKNOWN ? r.reason : "nothing found", took,
                allowed);
    if (!found) {
        result_clear(&r);
        return 0;
    }
    /* the result's answer, run and statistics, the techniques kept */
    lc->res->answer = ANSWER_YES;
    if (r.role != RUN_NONE && result_set_run(lc->res, r.role, r.run, r.run_len, r.loop_start) < 0)
        result_unknown(lc->res, "memory budget exhausted");
    lc->answered = 1;
    result_clear(&r);
    return 1;
}

/* cn's prefix, or NULL with why; built here unless kept from an earlier
 * property of the list.  Looks while it grows may answer lc's property
 * first (lc->answered): that prefix is partial and not kept, since the
 * next property needs more of it. */
static unf_prefix *prefix_for(const cnet_t *cn, const check_options *opt, look_ctx *lc,
                              int *reused, char *why, size_t whylen)
{
    *reused = kept.cn == cn && kept.tried;
    if (*reused) {
        if (!kept.u || !kept.u->complete)
            snprintf(why, whylen, "%s (for an earlier property)", kept.why);
        return kept.u;
    }
    double start = mono_now();
    unf_prefix *u = NULL;
    if (unf_proven_safe(cn, opt->budget, why, whylen)) {
        if (opt->verbose)
            fprintf(stderr, "unfold: every place proven safe in %.3f s\n", mono_now() - start);
        check_options popt = *opt;
        budget_t prefix_budget = budget_carve(opt->budget, CARVE_UNFOLD_PREFIX);
        popt.budget = &prefix_budget;
        unf_watch watch = {look, lc, UNF_LOOK_FIRST_EVENTS, 0};
        u = unf_build_watched(cn, &popt, &watch, why, whylen);
    }
    /* an interrupted try says nothing about the next property's */
    if (kept.cn == cn && !*opt->budget->interrupted && !lc->answered) {
        kept.tried = 1;
        kept.u = u;
        snprintf(kept.why, sizeof kept.why, "%.150s", u && u->complete ? "" : why);
    }
    return u;
}

void unfold_run(const cnet_t *cn, const tree_t *formula, prop_kind kind,
                const check_options *opt, result_t *res)
{
    double start = mono_now();
    char why[200] = "";
    result_add_technique(res, "NET_UNFOLDING");
    result_add_technique(res, "SAT_SMT");
    if (kind != KIND_DL && (kind != KIND_REACH || !formula)) {
        result_unknown(res, "kind not supported by the unfold checker");
        return;
    }
    int reused;
    look_ctx lc = {formula, kind, opt, 0, res, 0};
    unf_prefix *u = prefix_for(cn, opt, &lc, &reused, why, sizeof why);
    if (!u) {
        result_unknown(res, why);
        res->seconds = mono_now() - start;
        return;
    }
    if (opt->verbose)
        fprintf(stderr, "unfold: %s of %zu events (%zu cut-offs), %zu conditions in %.3f s%s\n",
                u->complete ? "prefix" : "partial prefix", u->nev, u->ncutoffs, u->nco,
                u->seconds, reused ? " (for an earlier property)" : "");
    /* the solver may have what the prefix leaves of the budget's bytes */
    size_t held = unf_bytes_held(u);
    size_t memory = opt->budget->bytes > held ? opt->budget->bytes - held : 1;
    if (lc.answered) {
        /* a look found it (res has it) */
    } else if (u->complete) {
        solve_call c = {u, formula, kind, opt};
        fence_run(opt->budget, memory, solve, &c, res);
    } else if (budget_expired(opt->budget)) {
        result_unknown(res, why);
    } else {
        /* a limit other than the time ended the construction: what was
         * built may still hold the answer YES, never the answer NO */
        result_t r;
        result_init(&r);
        budget_t b = *opt->budget;
        if (look_solve(&lc, u, &b, memory, &r)) {
            res->answer = ANSWER_YES;
            if (r.role != RUN_NONE && result_set_run(res, r.role, r.run, r.run_len, r.loop_start) < 0)
                result_unknown(res, "memory budget exhausted");
        } else {
            char reason[sizeof res->reason];
            if (r.answer == ANSWER_NO)
                snprintf(reason, sizeof reason, "%.70s; none of the configurations of the %zu "
                         "events built %s", why, u->nev,
                         kind == KIND_DL ? "is a deadlock" : "satisfies the formula");
            else
                snprintf(reason, sizeof reason, "%.70s; the events built: %.60s", why,
                         r.reason);
            result_unknown(res, reason);
        }
        result_clear(&r);
    }
    /* the statistics' states are the prefix's events */
    res->states = u->nev;
    res->peak_bytes = u->bytes;
    snprintf(res->net_note, sizeof res->net_note,
             "the %s prefix: %zu events (%zu cut-offs), %zu conditions",
             u->complete ? "complete" : "partial", u->nev, u->ncutoffs, u->nco);
    if (!reused && kept.u != u)
        unf_free(u);
    res->seconds = mono_now() - start;
}

int unfold_accepts(const tree_t *t, prop_kind kind, char *why, size_t whylen)
{
    if (kind == KIND_DL)
        return 1;
    if (kind == KIND_REACH && t && state_ops_only(t))
        return 1;
    snprintf(why, whylen, kind == KIND_REACH ? "unfold checker: reach needs a state formula"
                                             : "unfold checker: dl and reach only");
    return 0;
}
