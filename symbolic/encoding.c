/* A block's values (symint.h) as diagrams and as BuDDy's bit vectors: what
 * the relations, the goals and the counts say about a place's tokens. */
#include "symbolic/symint.h"

/* block b == v (v < 2^width), over its current or next variables. */
BDD sym_block_eq(const blk *b, uint64_t v, int next)
{
    BDD r = bdd_addref(bdd_true());
    for (uint32_t i = 0; i < b->width; i++) {
        int var = block_var(b, i, next);
        and_in(&r, (v >> i) & 1 ? bdd_ithvar(var) : bdd_nithvar(var));
    }
    return r;
}

/* ---- bit vectors (BuDDy's bvec: index 0 least significant) ---- */

bvec sym_con_vec(u128 v, int width)
{
    bvec r = bvec_false(width);
    for (int i = 0; i < width && i < 128; i++)
        if ((v >> i) & 1)
            r.bitvec[i] = bdd_true();
    return r;
}

/* Block b's value in width bits (width >= b->width); the variables' nodes
 * are BuDDy's own, never collected. */
bvec sym_block_vec(const blk *b, int next, int width)
{
    bvec r = bvec_false(width);
    for (uint32_t i = 0; i < b->width && (int)i < width; i++)
        r.bitvec[i] = bdd_ithvar(block_var(b, i, next));
    return r;
}

/* The tokens of place p in width bits. */
bvec sym_place_vec(const sym_t *s, uint32_t p, int width)
{
    const blk *b = &s->blocks[s->block_of[p]];
    if (!b->places)
        return sym_block_vec(b, 0, width);
    bvec r = bvec_false(width);
    if (r.bitnum > 0)
        r.bitvec[0] = sym_block_eq(b, s->pos_in[p], 0);
    return r;
}

/* The largest count place p can hold in the encoding. */
uint64_t sym_place_max(const sym_t *s, uint32_t p)
{
    const blk *b = &s->blocks[s->block_of[p]];
    if (b->places)
        return 1;
    return b->width >= 64 ? UINT64_MAX : ((uint64_t)1 << b->width) - 1;
}

unsigned sym_bits_of(u128 v)
{
    unsigned n = 0;
    while (v) {
        n++;
        v >>= 1;
    }
    return n;
}

/* M(p) >= c. */
BDD sym_place_ge(const sym_t *s, uint32_t p, uint64_t c)
{
    if (c == 0)
        return bdd_addref(bdd_true());
    if (c > sym_place_max(s, p))
        return bdd_addref(bdd_false());
    const blk *b = &s->blocks[s->block_of[p]];
    if (b->places)
        return sym_block_eq(b, s->pos_in[p], 0);
    bvec x = sym_block_vec(b, 0, (int)b->width), k = sym_con_vec(c, (int)b->width);
    BDD r = bdd_addref(bvec_gte(x, k));
    bvec_free(x);
    bvec_free(k);
    return r;
}
