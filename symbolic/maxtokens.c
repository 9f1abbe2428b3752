/* The most tokens in one place and in one marking of the reachable set,
 * read off the diagram. */
#include "symbolic/symint.h"
#include "base/grow.h"

#include <stdlib.h>

/* The largest weighted sum of the current bits over the markings of f,
 * each bit of a place block weighing its value in the count: the most
 * tokens in place blocks of one marking.  Weights of levels are summed
 * into prefix[] so that skipped levels (free bits) count as set. */
static int max_weight(sym_t *s, BDD f, uint64_t *out)
{
    int levels = (int)(VARS_PER_BIT * s->nbits);
    size_t nodes = (size_t)bdd_getallocnum(), nprefix = (size_t)levels + 2;
    uint64_t *prefix = NULL, *best = NULL;
    uint8_t *done = NULL;
    BDD *stack = NULL;
    /* charged to the engine's symbolic.count bytes, as the counts are */
    size_t charged = 0, limit = s->count_bytes, pcap = 0, bcap = 0, dcap = 0, cap = 0, top = 0;
    int ok =
        grow_charged(&prefix, &pcap, nprefix, sizeof *prefix, nprefix, &charged, limit, 1) == 0 &&
        grow_charged(&best, &bcap, nodes, sizeof *best, nodes, &charged, limit, 0) == 0 &&
        grow_charged(&done, &dcap, nodes, sizeof *done, nodes, &charged, limit, 1) == 0 &&
        grow_charged(&stack, &cap, 64, sizeof *stack, 64, &charged, limit, 0) == 0;
    for (uint32_t bi = 0; ok && bi < s->nblocks; bi++) {
        const blk *b = &s->blocks[bi];
        for (uint32_t i = 0; i < b->width; i++)
            prefix[block_var(b, i, 0) + 1] = b->places ? 0 : (uint64_t)1 << i;
    }
    for (int l = 0; ok && l < levels; l++)
        prefix[l + 1] += prefix[l];
    #define SKIP(a, b) (prefix[(b)] - prefix[(a)])
    if (ok && f != bdd_false() && f != bdd_true())
        stack[top++] = f;
    while (ok && top) {
        BDD n = stack[top - 1];
        if (done[n]) {
            top--;
            continue;
        }
        BDD kids[2] = {bdd_low(n), bdd_high(n)};
        int pushed = 0;
        for (int k = 0; k < 2; k++) {
            BDD c = kids[k];
            if (c != bdd_false() && c != bdd_true() && !done[c]) {
                if (grow_charged(&stack, &cap, top + 1, sizeof *stack, 64, &charged, limit,
                                 0) < 0) {
                    ok = 0;
                    break;
                }
                stack[top++] = c;
                pushed = 1;
            }
        }
        if (!ok || pushed)
            continue;
        top--;
        int lv = level_of(s, n);
        uint64_t m = 0;
        int any = 0;
        for (int k = 0; k < 2; k++) {
            BDD c = kids[k];
            if (c == bdd_false())
                continue;
            uint64_t v = (c == bdd_true() ? 0 : best[c]) + SKIP(lv + 1, level_of(s, c)) +
                         (k ? SKIP(lv, lv + 1) : 0);
            m = !any || v > m ? v : m;
            any = 1;
        }
        best[n] = m;
        done[n] = 1;
    }
    if (ok)
        *out = f == bdd_false() ? 0
               : (f == bdd_true() ? 0 : best[f]) + SKIP(0, level_of(s, f));
    #undef SKIP
    free(prefix);
    free(best);
    free(done);
    free(stack);
    if (!ok)
        sym_nomem(s);
    return ok ? 0 : -1;
}

int sym_max_tokens(sym_t *s, uint64_t *in_place, uint64_t *per_marking)
{
    if (!s->reached || sym_failed(s))
        return -1;
    uint64_t sum;
    if (max_weight(s, s->reach, &sum) < 0)
        return -1;
    *per_marking = sum + (s->reach != bdd_false() ? s->ngroups : 0);
    uint64_t top = s->ngroups && s->reach != bdd_false() ? 1 : 0;
    for (uint32_t bi = 0; bi < s->nblocks; bi++) {
        const blk *b = &s->blocks[bi];
        if (b->places || !b->width || ((uint64_t)1 << b->width) - 1 <= top)
            continue;
        /* most places cannot pass the best so far: one conjunction each */
        bvec x = sym_block_vec(b, 0, (int)b->width), k = sym_con_vec(top, (int)b->width);
        BDD above = bdd_addref(bvec_gth(x, k));
        bvec_free(k);
        BDD set = o_and(s->reach, above);
        drop(above);
        if (set != bdd_false()) {
            /* the largest value, most significant bit first */
            uint64_t v = 0;
            for (uint32_t i = b->width; i-- > 0;) {
                BDD one = o_and(set, x.bitvec[i]);
                if (one != bdd_false()) {
                    v |= (uint64_t)1 << i;
                    drop(set);
                    set = one;
                } else {
                    drop(one);
                    BDD zero = o_diff(set, x.bitvec[i]);
                    drop(set);
                    set = zero;
                }
            }
            top = v > top ? v : top;
        }
        drop(set);
        bvec_free(x);
        if (sym_stop(s))
            return -1;
    }
    *in_place = top;
    return sym_failed(s) ? -1 : 0;
}
