/* The layout: which block each place belongs to and which bits each block
 * takes, from the proven widths and one-hot groups, in the chosen order. */
#include "symbolic/symint.h"

#include <stdlib.h>

/* The places' blocks in net order or FORCE's (order.c), a group's places
 * one block at its first place. */
int sym_make_blocks(sym_t *s, const uint8_t *bits, const uint32_t *group, uint32_t ngroups,
                    sym_order order)
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
        b->first = (uint32_t)nbits;
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
    if (nbits * 2 > MAX_VARS)
        return -2;
    s->nbits = (uint32_t)nbits;
    return 0;
}
