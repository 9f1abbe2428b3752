/* Images and preimages through one transition's relation: the steps the
 * fixpoints, CTL and the witnesses are made of. */
#include "symbolic/symint.h"

BDD sym_image(const sym_t *s, BDD from, uint32_t t)
{
    const trel *r = &s->tr[t];
    BDD x = bdd_addref(bdd_relprod(from, r->rel, r->curcube));
    BDD y = bdd_addref(bdd_replace(x, s->to_cur));
    drop(x);
    return y;
}

/* The renaming of the blocks t changes, current to next; NULL: no memory. */
static bddPair *to_next(sym_t *s, uint32_t t)
{
    trel *r = &s->tr[t];
    if (r->to_nxt)
        return r->to_nxt;
    r->to_nxt = bdd_newpair();
    for (BDD c = r->curcube; r->to_nxt && c != bdd_true() && c != bdd_false(); c = bdd_high(c))
        bdd_setpair(r->to_nxt, bdd_var(c), bdd_var(c) + 1);
    return r->to_nxt;
}

BDD sym_preimage(sym_t *s, BDD to, uint32_t t)
{
    const trel *r = &s->tr[t];
    if (r->fixed) {
        /* the markings from which t leads into to: where to holds once
         * t's blocks have their values after firing, t enabled, and those
         * blocks at their values before (symint.h) */
        BDD x = bdd_addref(bdd_restrict(to, r->after));
        BDD y = o_and(x, r->en_before);
        drop(x);
        return y;
    }
    if (!to_next(s, t)) {
        sym_nomem(s);
        return bdd_addref(bdd_false());
    }
    BDD x = bdd_addref(bdd_replace(to, r->to_nxt));
    BDD y = bdd_addref(bdd_relprod(x, r->rel, r->nxtcube));
    drop(x);
    return y;
}
