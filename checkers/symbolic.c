/* The symbolic checker row (symbolic.h). */
#include "checkers/symbolic.h"
#include "base/clock.h"
#include "checkers/explicit.h"
#include "engine/onehot.h"
#include "engine/placebits.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

sym_t *symbolic_open(const cnet_t *cn, const budget_t *budget, char *why, size_t whylen)
{
    budget_t bounds = budget_carve(budget, CARVE_SYMBOLIC_PLACEBITS);
    budget_t onehot = budget_carve(&bounds, CARVE_SYMBOLIC_ONEHOT);
    uint32_t unbounded;
    uint8_t *bits = placebits_at(cn, &bounds, &unbounded);
    if (!bits) {
        placebits_why(cn, budget, unbounded, "symbolic", why, whylen);
        return NULL;
    }
    /* groups save variables, but a net without them is encoded all the same.
     * Net order, not FORCE's: on the MCC nets measured (bench/symbolic.sh)
     * FORCE was 6 times faster on FMS-PT-00020 and 4 times slower on
     * DNAwalker-PT-10ringRL, and answered no net that net order missed */
    uint32_t ngroups = 0;
    uint32_t *group = onehot_groups(cn, bits, budget_seconds(&onehot), &ngroups);
    sym_t *s = sym_new(cn, bits, group, ngroups, SYM_ORDER_NET, SYM_BITS_AUTO, budget, why, whylen);
    free(bits);
    free(group);
    return s;
}

/* The count for the statistics, saturated at 2^64 - 1 (the answer is the
 * verdict; the exact number is mck mcc's). */
static uint64_t saturated(const char *decimal)
{
    errno = 0;
    unsigned long long v = strtoull(decimal, NULL, 10);
    return errno ? UINT64_MAX : (uint64_t)v;
}

/* CTL by fixpoints on the whole reachable set; no run for evidence. */
static void ctl_run_symbolic(const cnet_t *cn, const tree_t *formula, const check_options *opt,
                             result_t *res)
{
    char why[160];
    sym_t *s = symbolic_open(cn, opt->budget, why, sizeof why);
    if (!s) {
        result_unknown(res, why);
        return;
    }
    if (sym_explore(s, SYM_CHAINING) != SYM_DONE) {
        result_unknown(res, sym_reason(s));
    } else {
        int v = sym_ctl(s, formula, why, sizeof why);
        if (v < 0)
            result_unknown(res, why);
        else
            res->answer = v ? ANSWER_YES : ANSWER_NO;
        char *n = sym_count_states(s);
        if (n)
            res->states = saturated(n);
        free(n);
    }
    sym_free(s);
}

void symbolic_run(const cnet_t *cn, const tree_t *formula, prop_kind kind,
                  const check_options *opt, result_t *res)
{
    double start = mono_now();
    char why[160];
    result_add_technique(res, "DECISION_DIAGRAMS");
    if (kind == KIND_CTL && formula) {
        ctl_run_symbolic(cn, formula, opt, res);
        res->seconds = mono_now() - start;
        return;
    }
    if (kind != KIND_DL && (kind != KIND_REACH || !formula)) {
        result_unknown(res, "kind not supported by the symbolic checker");
        return;
    }
    sym_t *s = symbolic_open(cn, opt->budget, why, sizeof why);
    if (!s) {
        result_unknown(res, why);
        res->seconds = mono_now() - start;
        return;
    }
    int g = kind == KIND_DL ? sym_goal_deadlock(s) : sym_goal_formula(s, formula, why, sizeof why);
    sym_status st = g < 0 ? SYM_GAVE_UP : sym_explore(s, SYM_CHAINING);
    if (g < 0) {
        result_unknown(res, kind == KIND_DL ? sym_reason(s) : why);
    } else if (st == SYM_GAVE_UP) {
        result_unknown(res, sym_reason(s));
    } else if (st == SYM_DONE) {
        res->answer = ANSWER_NO;
        char *n = sym_count_states(s);
        if (n)
            res->states = saturated(n);
        free(n);
    } else {
        res->answer = ANSWER_YES;
        char *n = sym_count_states(s);
        if (n)
            res->states = saturated(n);
        free(n);
        uint32_t *run;
        size_t len;
        if (opt->want_run) {
            if (sym_witness(s, &run, &len) < 0) {
                result_unknown(res, sym_reason(s));
            } else {
                if (result_set_run(res, RUN_WITNESS, run, len, RESULT_NO_LOOP) < 0)
                    result_unknown(res, "memory budget exhausted");
                free(run);
            }
        }
    }
    sym_free(s);
    res->seconds = mono_now() - start;
}

int symbolic_accepts(const tree_t *t, prop_kind kind, char *why, size_t whylen)
{
    if (kind == KIND_DL)
        return 1;
    if (kind == KIND_REACH && t && state_ops_only(t))
        return 1;
    if (kind == KIND_CTL && t && !tree_has_ltl(t) && no_bound(t) && !tree_has_action(t))
        return 1;
    snprintf(why, whylen, kind == KIND_REACH ? "symbolic checker: reach needs a state formula"
                          : kind == KIND_CTL ? "symbolic checker: ctl needs a CTL formula (no X, "
                                               "F, G, U, R without a path quantifier)"
                                             : "symbolic checker: dl, reach and ctl only");
    return 0;
}
