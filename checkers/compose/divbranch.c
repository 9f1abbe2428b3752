/* Branching bisimulation with explicit divergence (composeint.h), by
 * signature refinement (Blom and Orzan, "Distributed branching
 * bisimulation reduction of state spaces", PDMC 2003; "inductive
 * signatures", Blom and van de Pol 2009).  The composer uses gvbranch.c,
 * which gives the same partition; this one is kept as the simpler
 * reference the tests hold that one to (tests/unit/test_branching.c).
 *
 * States on a cycle of tau-edges are branching bisimilar, and such a
 * cycle is a divergence: the tau-components are contracted first
 * (taugraph.c), each marked divergent when a tau-edge stays inside it, so
 * that the tau-edges left form an acyclic graph.  Then, with a
 * partition pi of the components (one block at first), the signature of
 * a component c is
 *   { (a, pi(d)) : c -a-> d, unless a is tau and pi(d) = pi(c) }
 *   united with the signatures of its inert tau-successors (tau-edges
 *   into pi(c)), and DIV when c is divergent or one of them has DIV;
 * computed successors first (Tarjan numbers components so).  Components
 * with the same old block and the same signature form the new block;
 * this is repeated until the number of blocks stays.  The result is the
 * coarsest branching bisimulation with explicit divergence (van Glabbeek
 * and Weijland 1996; van Glabbeek, Luttik and Trcka 2009): a block with
 * no edges is not divergent, so a deadlock never joins an endless
 * tau-loop (De Nicola and Vaandrager's divergence-sensitive variant would
 * join them, which is no congruence, docs/compose.md).  Each round costs O(m log m) and the signatures' sizes;
 * the number of rounds is at most the number of blocks.
 *
 * The quotient has an edge B -a-> B' for every edge of a state of B into
 * B' except inert tau-edges, and a tau-loop on every divergent block. */
#include "checkers/compose/composeint.h"

#include <stdlib.h>
#include <string.h>

#define DIV_KEY UINT64_MAX

typedef struct brancher {
    co_mem *cm;
    const co_lts *l;
    uint32_t tau;
    co_taugraph g;              /* the tau-components contracted */
    uint32_t n, nc;             /* states, tau-components */
    const uint32_t *comp;       /* per state */
    const uint8_t *div;         /* per component */
    const uint32_t *cfirst, *clab, *cdst;
    uint32_t *pi, *next_pi;     /* per component */
    uint64_t *sig;              /* this round's signatures, one after the other */
    size_t nsig, cap_sig;
    size_t *sig_start;          /* nc + 1 */
    uint64_t *scratch;
    size_t cap_scratch;
    uint32_t *slot;
    size_t nslots;
} brancher;

static uint64_t hash_sig(uint32_t old, const uint64_t *v, size_t n)
{
    uint64_t h = 0x9e3779b97f4a7c15ull ^ old;
    for (size_t i = 0; i < n; i++)
        h = (h ^ v[i]) * 0xff51afd7ed558ccdull;
    return h ^ (h >> 31);
}

/* One round: the signatures, then the new blocks; the number of blocks,
 * or CO_NONE on a limit. */
static uint32_t round_once(brancher *B)
{
    co_mem *cm = B->cm;
    uint32_t nc = B->nc;
    B->nsig = 0;
    for (uint32_t c = 0; c < nc; c++) {
        if (co_tick(cm) < 0)
            return CO_NONE;
        size_t k = 0;
        int div = B->div[c];
        for (uint32_t e = B->cfirst[c]; e < B->cfirst[c + 1]; e++) {
            uint32_t a = B->clab[e], d = B->cdst[e];
            if (a == B->tau && B->pi[d] == B->pi[c]) {
                /* inert: d's signature, computed already (d completed first) */
                size_t len = B->sig_start[d + 1] - B->sig_start[d];
                if (co_grow(cm, &B->scratch, &B->cap_scratch, k + len, sizeof *B->scratch) < 0)
                    return CO_NONE;
                for (size_t i = 0; i < len; i++) {
                    uint64_t x = B->sig[B->sig_start[d] + i];
                    if (x == DIV_KEY)
                        div = 1;
                    else
                        B->scratch[k++] = x;
                }
                continue;
            }
            if (co_grow(cm, &B->scratch, &B->cap_scratch, k + 1, sizeof *B->scratch) < 0)
                return CO_NONE;
            B->scratch[k++] = (uint64_t)a << 32 | B->pi[d];
        }
        k = co_sort_unique(B->scratch, k);
        if (div) {
            if (co_grow(cm, &B->scratch, &B->cap_scratch, k + 1, sizeof *B->scratch) < 0)
                return CO_NONE;
            B->scratch[k++] = DIV_KEY;
        }
        if (co_grow(cm, &B->sig, &B->cap_sig, B->nsig + k, sizeof *B->sig) < 0)
            return CO_NONE;
        B->sig_start[c] = B->nsig;
        if (k)   /* with no signature yet, sig and scratch may be NULL */
            memcpy(B->sig + B->nsig, B->scratch, k * sizeof *B->sig);
        B->nsig += k;
        B->sig_start[c + 1] = B->nsig;
    }
    /* new blocks: (old block, signature) */
    memset(B->slot, 0, B->nslots * sizeof *B->slot);
    uint32_t nb = 0;
    for (uint32_t c = 0; c < nc; c++) {
        const uint64_t *v = B->sig + B->sig_start[c];
        size_t len = B->sig_start[c + 1] - B->sig_start[c];
        size_t h = (size_t)hash_sig(B->pi[c], v, len) & (B->nslots - 1);
        for (;; h = (h + 1) & (B->nslots - 1)) {
            uint32_t x = B->slot[h];
            if (!x) {
                B->slot[h] = c + 1;
                B->next_pi[c] = nb++;
                break;
            }
            uint32_t r = x - 1;
            size_t rl = B->sig_start[r + 1] - B->sig_start[r];
            if (B->pi[r] == B->pi[c] && rl == len &&
                (!len || !memcmp(B->sig + B->sig_start[r], v, len * sizeof *v))) {
                B->next_pi[c] = B->next_pi[r];
                break;
            }
        }
    }
    return nb;
}

int co_minimise_branching_signatures(co_mem *cm, const co_lts *l, uint32_t tau, co_lts *out,
                                     uint32_t *block)
{
    brancher B;
    memset(&B, 0, sizeof B);
    B.cm = cm;
    B.l = l;
    B.tau = tau;
    B.n = l->nstates;
    memset(out, 0, sizeof *out);
    if (!B.n)
        return 0;
    int rc = -1;
    if (co_taugraph_build(cm, l, tau, &B.g) < 0)
        goto out;
    B.nc = B.g.nc;
    B.comp = B.g.comp;
    B.div = B.g.div;
    B.cfirst = B.g.cfirst;
    B.clab = B.g.clab;
    B.cdst = B.g.cdst;
    B.nslots = 16;
    while (B.nslots < 2 * (size_t)B.nc)
        B.nslots *= 2;
    if (!(B.pi = co_alloc(cm, B.nc, sizeof *B.pi)) ||
        !(B.next_pi = co_alloc(cm, B.nc, sizeof *B.next_pi)) ||
        !(B.sig_start = co_alloc(cm, (size_t)B.nc + 1, sizeof *B.sig_start)) ||
        !(B.slot = co_alloc(cm, B.nslots, sizeof *B.slot)))
        goto out;
    uint32_t blocks = 1;
    for (;;) {
        uint32_t nb = round_once(&B);
        if (nb == CO_NONE)
            goto out;
        uint32_t *t = B.pi;
        B.pi = B.next_pi;
        B.next_pi = t;
        if (nb == blocks)
            break;
        blocks = nb;
    }
    if (co_taugraph_quotient(cm, l, &B.g, tau, B.pi, blocks, out, block) < 0)
        goto out;
    rc = 0;
out:
    if (rc < 0)
        co_lts_free(cm, out);
    co_taugraph_free(cm, &B.g);
    co_free(cm, B.pi, B.nc, sizeof *B.pi);
    co_free(cm, B.next_pi, B.nc, sizeof *B.next_pi);
    co_free(cm, B.sig_start, (size_t)B.nc + 1, sizeof *B.sig_start);
    co_free(cm, B.slot, B.nslots, sizeof *B.slot);
    co_free_grown(cm, &B.sig, &B.cap_sig, sizeof *B.sig);
    co_free_grown(cm, &B.scratch, &B.cap_scratch, sizeof *B.scratch);
    return rc;
}
