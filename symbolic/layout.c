/* The layout: which block each place belongs to and which bits each block
 * takes, from the proven widths and one-hot groups, in the chosen order. */
#include "symbolic/symint.h"

#include <stdlib.h>

/* A place of this many bits or more is a wide one (at least 32 tokens). */
#define WIDE_PLACE 6

/* Whether to interleave: asked, or most bits are wide places'.  The
 * reachable markings of such nets are mostly sums of places held by
 * invariants; with the blocks side by side, a diagram of such a sum takes
 * a node per value the partial sum can have at each cut (8192 tokens:
 * thousands), interleaved only a few per bit (the carries).  Where places
 * hold a few tokens, side by side keeps each transition's variables close
 * together, which chaining's groups need: Kanban-PT-00010 (4 bits a place)
 * took 0.3 s side by side and 10 s interleaved, SmallOperatingSystem-PT-
 * MT8192DC4096 (13 and 14 bits) no answer in 60 s side by side and 1.6 s
 * interleaved.  Most bits, not any: GPPP-PT-C0001N0000000010, one place
 * of 6 bits among 32 of 1 to 5, took 11 s side by side and over 25 s
 * interleaved. */
static int interleaved(const sym_t *s, sym_bits layout)
{
    if (layout != SYM_BITS_AUTO)
        return layout == SYM_BITS_INTERLEAVED;
    uint64_t wide = 0;
    for (uint32_t bi = 0; bi < s->nblocks; bi++)
        if (!s->blocks[bi].places && s->blocks[bi].width >= WIDE_PLACE)
            wide += s->blocks[bi].width;
    return 2 * wide > s->nbits;
}

/* Each block's bits together, most significant first. */
static void side_by_side(sym_t *s)
{
    uint32_t next = 0;
    for (uint32_t bi = 0; bi < s->nblocks; bi++)
        for (uint32_t i = s->blocks[bi].width; i-- > 0;)
            s->blocks[bi].at[i] = next++;
}

/* The places' bits by significance, most significant first, each level in
 * block order; a group is no number to add to, and its bits stay together
 * where its place's least significant bit would be. */
static void interleave(sym_t *s)
{
    uint32_t next = 0, widest = 0;
    for (uint32_t bi = 0; bi < s->nblocks; bi++)
        if (!s->blocks[bi].places && s->blocks[bi].width > widest)
            widest = s->blocks[bi].width;
    for (uint32_t sig = widest; sig-- > 1;)
        for (uint32_t bi = 0; bi < s->nblocks; bi++)
            if (!s->blocks[bi].places && s->blocks[bi].width > sig)
                s->blocks[bi].at[sig] = next++;
    for (uint32_t bi = 0; bi < s->nblocks; bi++) {
        blk *b = &s->blocks[bi];
        if (b->places)
            for (uint32_t i = b->width; i-- > 0;)
                b->at[i] = next++;
        else if (b->width)
            b->at[0] = next++;
    }
}

/* The places' blocks in net order or FORCE's (order.c), a group's places
 * one block at its first place, and where their bits go. */
int sym_make_blocks(sym_t *s, const uint8_t *bits, const uint32_t *group, uint32_t ngroups,
                    sym_order order, sym_bits layout)
{
    const cnet_t *cn = s->cn;
    uint32_t P = cn->nplaces;
    uint32_t *rank = order == SYM_ORDER_FORCE ? sym_force_order(cn) : NULL;
    if (order == SYM_ORDER_FORCE && !rank)
        return -1;
    s->block_of = malloc((P ? P : 1) * sizeof *s->block_of);
    s->pos_in = malloc((P ? P : 1) * sizeof *s->pos_in);
    s->blocks = calloc(P ? P : 1, sizeof *s->blocks);
    uint32_t *gblock = group ? malloc((ngroups + 1) * sizeof *gblock) : NULL;
    uint32_t *gsize = group ? calloc(ngroups + 1, sizeof *gsize) : NULL;
    if (!s->block_of || !s->pos_in || !s->blocks || (group && (!gblock || !gsize))) {
        free(gblock);
        free(gsize);
        free(rank);
        return -1;
    }
    for (uint32_t g = 0; group && g <= ngroups; g++)
        gblock[g] = UINT32_MAX;
    for (uint32_t p = 0; group && p < P; p++)
        if (group[p] <= ngroups)
            gsize[group[p]]++;
    uint64_t nbits = 0;
    for (uint32_t r = 0; r < P; r++) {
        uint32_t p = rank ? rank[r] : r;
        uint32_t g = group ? group[p] : 0;
        if (g && g <= ngroups && gblock[g] != UINT32_MAX) {
            blk *b = &s->blocks[gblock[g]];
            s->block_of[p] = gblock[g];
            s->pos_in[p] = b->n;
            b->places[b->n++] = p;
            continue;
        }
        blk *b = &s->blocks[s->nblocks];
        s->block_of[p] = s->nblocks;
        s->pos_in[p] = 0;
        b->n = 1;
        if (g && g <= ngroups) {
            uint32_t size = gsize[g];
            b->places = malloc(size * sizeof *b->places);
            if (!b->places) {
                free(gblock);
                free(gsize);
                free(rank);
                return -1;
            }
            b->places[0] = p;
            b->width = sym_bits_of(size - 1);
            gblock[g] = s->nblocks;
            s->ngroups++;
        } else {
            b->width = bits[p];
        }
        nbits += b->width;
        s->nblocks++;
    }
    free(gblock);
    free(gsize);
    free(rank);
    if (nbits * VARS_PER_BIT > MAX_VARS)
        return -2;
    s->nbits = (uint32_t)nbits;
    s->bit_at = malloc((nbits ? nbits : 1) * sizeof *s->bit_at);
    if (!s->bit_at)
        return -1;
    uint32_t *at = s->bit_at;
    for (uint32_t bi = 0; bi < s->nblocks; bi++) {
        s->blocks[bi].at = at;
        at += s->blocks[bi].width;
    }
    s->interleaved = interleaved(s, layout);
    if (s->interleaved)
        interleave(s);
    else
        side_by_side(s);
    for (uint32_t bi = 0; bi < s->nblocks; bi++) {
        blk *b = &s->blocks[bi];
        b->top = UINT32_MAX;
        for (uint32_t i = 0; i < b->width; i++)
            b->top = b->at[i] < b->top ? b->at[i] : b->top;
    }
    return 0;
}
