/* What the structure (structure.c) says about a formula's atoms: a
 * transition that can never fire is never fireable, and a comparison over
 * places no firing changes keeps its initial value.  Sound for any
 * temporal logic: the atoms are replaced by what they are in every
 * reachable marking. */
#include "engine/stateeval.h"
#include "mcc/internal.h"

tree_t *mcc_simplify(const mcc_run *r, tree_t *t, int *changed)
{
    if (!t)
        return NULL;
    if (t->op == T_FIREABLE) {
        uint32_t k = 0;
        for (uint32_t i = 0; i < t->n; i++)
            if (r->st.may_fire[t->items[i]])
                t->items[k++] = t->items[i];
        if (k < t->n)
            *changed = 1;
        t->n = k;
        if (k == 0) {
            tree_free(t);
            return tree_const(0);
        }
        return t;
    }
    if (t->op == T_CMP) {
        for (uint32_t i = 0; i < t->nterms; i++)
            if (!r->st.frozen[t->terms[i].place])
                return t;
        int v = cn_state_holds(r->cn, t, r->cn->initial);
        if (v < 0)
            return t;
        *changed = 1;
        tree_free(t);
        return tree_const(v);
    }
    t->l = mcc_simplify(r, t->l, changed);
    t->r = mcc_simplify(r, t->r, changed);
    return t;
}
