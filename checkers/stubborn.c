/* stubborn: the explicit searches, firing in each marking only a stubborn
 * set (engine/stubbornset.h) that preserves deadlocks (dl), reaching the
 * formula (reach), or the runs up to stuttering (ltl without X; the cycle
 * condition by engine/cyclefree.h). */
#include "checkers/stubborn.h"
#include "checkers/explicit.h"
#include "checkers/ltl/ltl.h"
#include "engine/goalseed.h"

#include <stdio.h>

void stubborn_run(const cnet_t *cn, const tree_t *formula, prop_kind kind,
                  const check_options *opt, result_t *res)
{
    if (kind == KIND_LTL && formula) {
        check_options reduced = *opt;
        reduced.partial_order = 1;
        ltl_run(cn, formula, &reduced, opt->ltl_infinite_only ? LTL_INFINITE : LTL_STUTTER,
                res);
        return;
    }
    if (kind != KIND_DL && (kind != KIND_REACH || !formula)) {
        result_unknown(res, "kind not supported by the stubborn checker");
        return;
    }
    explicit_search(cn, formula, kind, opt, 1, res);
}

int stubborn_accepts(const tree_t *t, prop_kind kind, char *why, size_t whylen)
{
    if (kind == KIND_DL)
        return 1;
    if (kind == KIND_REACH && t && state_ops_only(t) && goal_seed_supported(t))
        return 1;
    if (kind == KIND_LTL && t && !tree_has_ctl(t) && no_bound(t))
        return 1;   /* with X or actions every step is visible: no reduction */
    snprintf(why, whylen, kind == KIND_REACH ?
             "stubborn checker: reach needs a state formula without action propositions" :
             kind == KIND_LTL ? "stubborn checker: ltl needs an LTL formula (no path quantifiers)" :
             "stubborn checker: dl, reach and ltl only (use explicit for ctl)");
    return 0;
}
