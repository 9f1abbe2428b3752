/* The unfolding as a pre-pass decider (prepass.h): on a net proven safe,
 * the complete finite prefix (engine/unfold/) is built once within the
 * decider's share of the time, and each open reachability query is one
 * satisfiability problem over its configurations: "E F φ" holds iff a
 * configuration's marking satisfies φ, "A G φ" iff none satisfies ¬φ.
 * The configuration found, in event order, is the run that shows it.  It
 * answers what the walks and the state equation leave open on highly
 * concurrent nets, whose prefixes stay small where the interleavings
 * explode. */
#include "engine/unfold/configsat.h"
#include "engine/unfold/prefix.h"
#include "mcc/prepass.h"

#include <stdio.h>
#include <stdlib.h>

#define WORDS "NET_UNFOLDING SAT_SMT"

/* One query: 0 settled or not decidable here, -1 the time is up. */
static int decide(const unf_prefix *u, unf_sat *sat, mcc_query *q, const budget_t *b,
                  int verbose)
{
    const tree_t *phi = q->formula->l;
    int ef = q->formula->op == T_EF;
    tree_t *negated = NULL;
    if (!ef && !(negated = tree_unary(T_NOT, tree_copy(phi))))
        return 0;
    uint32_t *events = NULL;
    size_t n = 0;
    char why[160];
    int found = unf_sat_solve(sat, ef ? phi : negated, b, &events, &n, why, sizeof why);
    tree_free(negated);
    if (found < 0) {
        if (verbose)
            fprintf(stderr, "mck mcc: unfolding: %s: %s\n", q->id, why);
        return *b->interrupted ? -1 : 0;
    }
    if (!found) {
        mcc_query_settle(q, !ef, WORDS);
        return 0;
    }
    uint32_t *run = malloc((n ? n : 1) * sizeof *run);
    if (run) {
        unf_linearise(u, events, n, run);
        mcc_evidence ev = {ef ? RUN_WITNESS : RUN_COUNTEREXAMPLE, run, n, RESULT_NO_LOOP};
        mcc_query_settle_shown(q, ef, WORDS, &ev);
    } else {
        mcc_query_settle(q, ef, WORDS);
    }
    free(run);
    free(events);
    return 0;
}

void mcc_decide_unfolding(const mcc_run *r, mcc_query *const *open, size_t n, double deadline)
{
    size_t reach = 0;
    for (size_t i = 0; i < n; i++)
        reach += !open[i]->decided && open[i]->cls == MCC_REACH;
    if (!reach || r->st.initial_unsafe)
        return;
    /* its own share of the run, within the pre-pass's */
    budget_t b = budget_carve(r->budget, CARVE_MCC_UNFOLD_REACH);
    if (deadline > 0 && (b.deadline == 0 || deadline < b.deadline))
        b.deadline = deadline;
    char why[160];
    if (!unf_proven_safe(r->cn, &b, why, sizeof why)) {
        if (r->verbose)
            fprintf(stderr, "mck mcc: unfolding: %s\n", why);
        return;
    }
    budget_t prefix_budget = budget_carve(&b, CARVE_UNFOLD_PREFIX);
    check_options opt;
    mcc_search_options(r, &prefix_budget, &opt);
    opt.progress = 0;
    unf_prefix *u = unf_build(r->cn, &opt, why, sizeof why);
    if (!u) {
        if (r->verbose)
            fprintf(stderr, "mck mcc: unfolding: %s\n", why);
        return;
    }
    if (r->verbose)
        fprintf(stderr, "mck mcc: unfolding: prefix of %zu events (%zu cut-offs), %zu "
                "conditions\n", u->nev, u->ncutoffs, u->nco);
    unf_sat *sat = unf_sat_new(u, why, sizeof why);
    /* each query an equal part of the time left, so that one hard query
     * leaves the others theirs */
    size_t left = reach;
    for (size_t i = 0; sat && i < n && left; i++) {
        mcc_query *q = open[i];
        if (q->decided || q->cls != MCC_REACH)
            continue;
        budget_t part = b;
        double now = mcc_now();
        if (b.deadline > 0)
            part.deadline = now + (b.deadline - now) / (double)left;
        left--;
        if (mcc_portfolio_answered(q->id))
            continue;
        if (decide(u, sat, q, &part, r->verbose) < 0 || budget_expired(&b))
            break;
    }
    unf_sat_free(sat);
    unf_free(u);
}

int mcc_unfold_deadlock(const mcc_run *r, const char *id)
{
    if (r->st.initial_unsafe)
        return 0;
    budget_t b = budget_carve(r->budget, CARVE_MCC_UNFOLD_DEADLOCK);
    char why[160];
    if (!unf_proven_safe(r->cn, &b, why, sizeof why)) {
        if (r->verbose)
            fprintf(stderr, "mck mcc: %s: unfolding: %s\n", id, why);
        return 0;
    }
    budget_t prefix_budget = budget_carve(&b, CARVE_UNFOLD_PREFIX);
    check_options opt;
    mcc_search_options(r, &prefix_budget, &opt);
    opt.progress = 0;
    unf_prefix *u = unf_build(r->cn, &opt, why, sizeof why);
    if (!u) {
        if (r->verbose)
            fprintf(stderr, "mck mcc: %s: unfolding: %s\n", id, why);
        return 0;
    }
    uint32_t *events = NULL;
    size_t n = 0;
    int found = unf_sat_find(u, NULL, &b, &events, &n, why, sizeof why);
    if (r->verbose)
        fprintf(stderr, "mck mcc: %s: unfolding: prefix of %zu events (%zu cut-offs), %zu "
                "conditions; %s\n", id, u->nev, u->ncutoffs, u->nco,
                found < 0 ? why : found ? "a deadlock" : "no deadlock");
    int printed = 0;
    if (found == 0) {
        printed = mcc_answer_bool(id, 0, "SEQUENTIAL_PROCESSING " WORDS);
    } else if (found > 0) {
        uint32_t *run = malloc((n ? n : 1) * sizeof *run);
        if (run)
            unf_linearise(u, events, n, run);
        /* the deadlock repeats after the run */
        mcc_evidence ev = {RUN_WITNESS, run, n, n};
        printed = mcc_answer_bool_shown(id, 1, "SEQUENTIAL_PROCESSING " WORDS, run ? &ev : NULL);
        free(run);
    }
    free(events);
    unf_free(u);
    return printed;
}
