/* LTLCardinality and LTLFireability: each formula in turn, by the
 * automata-theoretic check of checkers/ltl/ltl.h with the contest's semantics
 * (a run into a deadlock stutters there forever, mcc-formats.md §3.5).
 * Structure first: a transition that can never
 * fire is never fireable, a comparison over places no firing changes is
 * a constant. */
#include "checkers/ltl/ltl.h"
#include "engine/stateeval.h"
#include "formula/mccxml.h"
#include "mcc/internal.h"
#include "mcc/reduced.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check_one(const mcc_run *r, const mcc_property *p, const budget_t *share)
{
    int changed = 0;
    tree_t *f = tree_fold(mcc_simplify(r, tree_copy(p->formula), &changed));
    if (!f) {
        fprintf(stderr, "mck mcc: %s: out of memory; left unanswered\n", p->id);
        return;
    }
    check_options opt;
    mcc_search_options(r, share, &opt);
    opt.want_run = mcc_runs_wanted();
    opt.partial_order = !r->no_por;
    /* without X and deadlock the net may be reduced for f (reduce/reduce.h) */
    mcc_reduced red;
    const tree_t *goal = f;
    int positive = 0;
    tree_t *rf = NULL;
    int reduced = reduce_keeps_ltl(f) && mcc_reduce(r, &goal, &positive, 1, 1, &red);
    if (reduced && !(rf = reduce_formula(red.red, f))) {
        mcc_reduced_free(&red);
        reduced = 0;
    }
    if (!reduced)
        memset(&red, 0, sizeof red);
    result_t res;
    result_init(&res);
    ltl_run(reduced ? red.cn : r->cn, reduced ? rf : f, &opt, LTL_STUTTER, &res);
    if (res.answer == ANSWER_UNKNOWN) {
        if (r->verbose)
            fprintf(stderr, "mck mcc: %s: %s after %llu states\n", p->id, res.reason,
                    (unsigned long long)res.states);
    } else {
        char buf[160];
        snprintf(buf, sizeof buf, "SEQUENTIAL_PROCESSING%s EXPLICIT%s%s",
                 changed ? " TOPOLOGICAL" : "",
                 strstr(res.techniques, "STUBBORN_SETS") ? " STUBBORN_SETS" : "",
                 reduced ? " " TECH_REDUCTION : "");
        mcc_evidence ev = {res.role, res.run, res.run_len, res.loop_start};
        uint32_t *mapped = NULL;
        if (mcc_reduced_run(&red, &ev, &mapped) < 0)
            ev.run = NULL;
        mcc_answer_bool_shown(p->id, res.answer == ANSWER_YES, buf,
                              res.role != RUN_NONE && ev.run ? &ev : NULL);
        free(mapped);
    }
    result_clear(&res);
    tree_free(rf);
    mcc_reduced_free(&red);
    tree_free(f);
}

/* Rounds over the open formulas: each gets an equal part of the time
 * left, and what a quick one leaves goes to the next; a formula that ran
 * out of time tries again in the next round with what the others left. */
#define ROUNDS 3

int mcc_ltl(mcc_run *r, const char *path)
{
    mcc_property_set *set = mccxml_read(path, r->net, r->exam);
    if (!set)
        return -1;
    if (!r->reverse)
        mcc_portfolio_start(r, path, 1, set->n);
    char *done = calloc(set->n ? set->n : 1, 1);
    if (!done) {
        mccxml_free(set);
        return -1;
    }
    int left = 0;
    size_t open = 0;
    for (size_t i = 0; i < set->n; i++) {
        const mcc_property *p = &set->props[i];
        if (p->formula && !p->unsupported) {
            open++;
            continue;
        }
        const char *why = p->unsupported ? p->unsupported : "unreadable";
        fprintf(stderr, "mck mcc: %s: %s; left unanswered\n", p->id, why);
        mcc_answer_open(p->id, why);
        done[i] = 1;
        left++;
    }
    for (int round = 0; round < ROUNDS && open && mcc_time_left(r) > 0.5; round++) {
        size_t todo = open;
        for (size_t k = 0; k < set->n && todo; k++) {
            size_t i = r->reverse ? set->n - 1 - k : k;
            if (done[i])
                continue;
            if (mcc_portfolio_answered(set->props[i].id)) {
                done[i] = 1;
                open--;
                todo--;
                continue;
            }
            budget_t share = budget_carve_part(r->budget, CARVE_MCC_LTL_FORMULA, todo--);
            size_t before = mcc_answers_printed();
            if (budget_seconds(&share) > 0.001)
                check_one(r, &set->props[i], &share);
            if (mcc_answers_printed() != before) {
                done[i] = 1;
                open--;
            }
        }
    }
    for (size_t i = 0; i < set->n; i++)
        mcc_answer_open(set->props[i].id, "not decided in the time given");   /* if open */
    left += (int)open;
    free(done);
    mccxml_free(set);
    return left;
}
