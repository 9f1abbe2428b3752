/* A transition fired once or more in a row: the transitive closure of its
 * relation, by squaring.  Chaining fires a transition by it once plain
 * images keep adding markings (explore.c): a place of 8192 tokens emptied
 * one token at a time is 8192 images of the whole reachable set, and its
 * closure 13 compositions of a relation over a few blocks. */
#include "symbolic/symint.h"

/* A closure may take this many times its relation's nodes, and this many
 * more, before squaring stops where it is: a closure is meant to be
 * small, and one that is not makes every image it takes part in dearer
 * than the firings it saves. */
#define CLOSURE_GROWTH 16
#define CLOSURE_SLACK 4096

/* The renamings that read a relation C(x, x') of t as C(x', x''): the
 * changed bits' current variables to next ones and next ones to the
 * middle ones, and back from the middle to next.  Only the changed bits:
 * the blocks t only reads keep their current variables in both steps. */
static int closure_pairs(const trel *r, bddPair **shift, bddPair **back)
{
    *shift = bdd_newpair();
    *back = bdd_newpair();
    if (!*shift || !*back)
        return -1;
    for (BDD c = r->curcube; c != bdd_true() && c != bdd_false(); c = bdd_high(c)) {
        uint32_t bit = (uint32_t)bdd_var(c) / VARS_PER_BIT;
        bdd_setpair(*shift, cur_var(bit), nxt_var(bit));
        bdd_setpair(*shift, nxt_var(bit), mid_var(bit));
        bdd_setpair(*back, mid_var(bit), nxt_var(bit));
    }
    return 0;
}

/* t's closure into r->star, as far as it gets: c = c | c o c until it
 * stops changing (after k rounds: 1 to 2^k firings), or the clock, or c
 * would grow past its limit; each c on the way is a sound relation to
 * fire (some of the runs of t alone), and chaining fires it to its
 * fixpoint anyway.  Without the identity, so that an image by it of a
 * large set is no dearer than the relation's: a transition that cannot
 * fire twice in a row (most of a safe net's) costs one composition and
 * keeps its relation.  0, or -1: ran out (sym_reason). */
int sym_make_closure(sym_t *s, uint32_t t)
{
    trel *r = &s->tr[t];
    if (r->star != bdd_false())
        return 0;
    BDD c = bdd_addref(r->rel);
    int limit = bdd_nodecount(r->rel) * CLOSURE_GROWTH + CLOSURE_SLACK;
    bddPair *shift = NULL, *back = NULL;
    if (closure_pairs(r, &shift, &back) < 0) {
        if (shift)
            bdd_freepair(shift);
        sym_nomem(s);
        r->star = c;
        return -1;
    }
    while (!sym_stop(s)) {
        BDD later = bdd_addref(bdd_replace(c, shift));
        BDD two = bdd_addref(bdd_relprod(c, later, r->nxtcube));
        drop(later);
        BDD sq = bdd_addref(bdd_replace(two, back));
        drop(two);
        or_in(&sq, c);
        int done = sq == c || sym_failed(s) || bdd_nodecount(sq) > limit;
        if (done) {
            drop(sq);
            break;
        }
        drop(c);
        c = sq;
    }
    bdd_freepair(shift);
    bdd_freepair(back);
    r->star = c;
    s->nclosures++;
    return sym_failed(s) ? -1 : 0;
}

BDD sym_image_star(const sym_t *s, BDD from, uint32_t t)
{
    const trel *r = &s->tr[t];
    BDD x = bdd_addref(bdd_relprod(from, r->star, r->curcube));
    BDD y = bdd_addref(bdd_replace(x, s->to_cur));
    drop(x);
    return y;
}
