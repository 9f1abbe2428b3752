/* Branching bisimulation with explicit divergence (composeint.h), by
 * signature refinement (Blom and Orzan, "Distributed branching
 * bisimulation reduction of state spaces", PDMC 2003; "inductive
 * signatures", Blom and van de Pol 2009).
 *
 * States on a cycle of tau-edges are branching bisimilar, and such a
 * cycle is a divergence: the tau-components (Tarjan's, iteratively) are
 * contracted first, each marked divergent when a tau-edge stays inside
 * it, so that the tau-edges left form an acyclic graph.  Then, with a
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
    uint32_t n, nc;             /* states, tau-components */
    uint32_t *comp;             /* per state */
    uint8_t *div;               /* per component */
    /* the contracted graph: per component its edges, deduplicated */
    uint32_t *cfirst, *clab, *cdst;
    size_t cm_edges;
    uint32_t *pi, *next_pi;     /* per component */
    uint64_t *sig;              /* this round's signatures, one after the other */
    size_t nsig, cap_sig;
    size_t *sig_start;          /* nc + 1 */
    uint64_t *scratch;
    size_t cap_scratch;
    uint32_t *slot;
    size_t nslots;
} brancher;

/* Tarjan's components of the tau-edges, iteratively; numbered in the
 * order they complete (a component's tau-successors first). */
static int tau_components(brancher *B)
{
    co_mem *cm = B->cm;
    const co_lts *l = B->l;
    uint32_t n = B->n;
    uint32_t *index = co_alloc(cm, n, sizeof *index), *low = co_alloc(cm, n, sizeof *low);
    uint32_t *stack = co_alloc(cm, n, sizeof *stack), *call = co_alloc(cm, n, sizeof *call);
    uint32_t *edge = co_alloc(cm, n, sizeof *edge);
    uint8_t *on = co_alloc(cm, n, 1);
    int rc = -1;
    if (!index || !low || !stack || !call || !edge || !on || !(B->comp = co_alloc(cm, n, sizeof *B->comp)))
        goto out;
    uint32_t counter = 0, nstack = 0, ncall = 0;
    for (uint32_t s = 0; s < n; s++)
        index[s] = CO_NONE;
    for (uint32_t root = 0; root < n; root++) {
        if (index[root] != CO_NONE)
            continue;
        call[ncall++] = root;
        index[root] = low[root] = counter++;
        edge[root] = l->first[root];
        stack[nstack++] = root;
        on[root] = 1;
        while (ncall) {
            uint32_t v = call[ncall - 1];
            if (co_tick(cm) < 0)
                goto out;
            int descended = 0;
            while (edge[v] < l->first[v + 1]) {
                uint32_t e = edge[v]++;
                if (l->lab[e] != B->tau)
                    continue;
                uint32_t w = l->dst[e];
                if (index[w] == CO_NONE) {
                    index[w] = low[w] = counter++;
                    edge[w] = l->first[w];
                    stack[nstack++] = w;
                    on[w] = 1;
                    call[ncall++] = w;
                    descended = 1;
                    break;
                }
                if (on[w] && index[w] < low[v])
                    low[v] = index[w];
            }
            if (descended)
                continue;
            if (low[v] == index[v]) {
                uint32_t w;
                do {
                    w = stack[--nstack];
                    on[w] = 0;
                    B->comp[w] = B->nc;
                } while (w != v);
                B->nc++;
            }
            ncall--;
            if (ncall) {
                uint32_t u = call[ncall - 1];
                if (low[v] < low[u])
                    low[u] = low[v];
            }
        }
    }
    rc = 0;
out:
    co_free(cm, index, n, sizeof *index);
    co_free(cm, low, n, sizeof *low);
    co_free(cm, stack, n, sizeof *stack);
    co_free(cm, call, n, sizeof *call);
    co_free(cm, edge, n, sizeof *edge);
    co_free(cm, on, n, 1);
    return rc;
}

/* The graph of the components, each edge once, tau-edges inside a
 * component dropped (they make it divergent). */
static int contract(brancher *B)
{
    co_mem *cm = B->cm;
    const co_lts *l = B->l;
    uint32_t nc = B->nc;
    size_t m = l->nedges;
    if (!(B->div = co_alloc(cm, nc, 1)) || !(B->cfirst = co_alloc(cm, (size_t)nc + 1, sizeof *B->cfirst)) ||
        !(B->clab = co_alloc(cm, m, sizeof *B->clab)) || !(B->cdst = co_alloc(cm, m, sizeof *B->cdst)))
        return -1;
    /* the states of each component, to gather its edges */
    uint32_t *sfirst = co_alloc(cm, (size_t)nc + 1, sizeof *sfirst);
    uint32_t *states = co_alloc(cm, B->n, sizeof *states);
    uint32_t *fill = co_alloc(cm, nc, sizeof *fill);
    int rc = -1;
    if (!sfirst || !states || !fill)
        goto out;
    for (uint32_t s = 0; s < B->n; s++)
        sfirst[B->comp[s] + 1]++;
    for (uint32_t c = 0; c < nc; c++)
        sfirst[c + 1] += sfirst[c];
    for (uint32_t s = 0; s < B->n; s++)
        states[sfirst[B->comp[s]] + fill[B->comp[s]]++] = s;
    size_t k = 0;
    for (uint32_t c = 0; c < nc; c++) {
        size_t from = k;
        for (uint32_t i = sfirst[c]; i < sfirst[c + 1]; i++) {
            uint32_t s = states[i];
            for (uint32_t e = l->first[s]; e < l->first[s + 1]; e++) {
                uint32_t d = B->comp[l->dst[e]];
                if (l->lab[e] == B->tau && d == c) {
                    B->div[c] = 1;
                    continue;
                }
                if (co_grow(cm, &B->scratch, &B->cap_scratch, k - from + 1, sizeof *B->scratch) < 0)
                    goto out;
                B->scratch[k - from] = (uint64_t)l->lab[e] << 32 | d;
                k++;
            }
        }
        size_t u = co_sort_unique(B->scratch, k - from);
        B->cfirst[c] = (uint32_t)from;
        for (size_t i = 0; i < u; i++) {
            B->clab[from + i] = (uint32_t)(B->scratch[i] >> 32);
            B->cdst[from + i] = (uint32_t)B->scratch[i];
        }
        k = from + u;
    }
    B->cfirst[nc] = (uint32_t)k;
    B->cm_edges = k;
    rc = 0;
out:
    co_free(cm, sfirst, (size_t)nc + 1, sizeof *sfirst);
    co_free(cm, states, B->n, sizeof *states);
    co_free(cm, fill, nc, sizeof *fill);
    return rc;
}

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

int co_minimise_branching(co_mem *cm, const co_lts *l, uint32_t tau, co_lts *out,
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
    uint64_t *keys = NULL;
    size_t ckeys = 0;
    if (tau_components(&B) < 0 || contract(&B) < 0)
        goto out;
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
    /* the quotient: every edge but the inert tau ones, and a tau-loop
     * per divergent block */
    out->nstates = blocks;
    out->init = B.pi[B.comp[l->init]];
    out->cap_first = (size_t)blocks + 1;
    size_t room = 1;
    for (uint32_t c = 0; c < B.nc; c++)
        room += (B.cfirst[c + 1] - B.cfirst[c]) + 1;
    out->cap_edges = room;
    if (!(out->first = co_alloc(cm, out->cap_first, sizeof *out->first)) ||
        !(out->lab = co_alloc(cm, room, sizeof *out->lab)) ||
        !(out->dst = co_alloc(cm, room, sizeof *out->dst)))
        goto out;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            for (uint32_t b = 0; b < blocks; b++)
                out->first[b + 1] += out->first[b];
            for (uint32_t b = blocks; b > 0; b--)
                out->first[b] = out->first[b - 1];
            out->first[0] = 0;
        }
        for (uint32_t c = 0; c < B.nc; c++) {
            uint32_t b = B.pi[c];
            int div = B.sig_start[c + 1] > B.sig_start[c] &&
                      B.sig[B.sig_start[c + 1] - 1] == DIV_KEY;
            for (uint32_t e = B.cfirst[c]; e <= B.cfirst[c + 1]; e++) {
                uint32_t lab, d;
                if (e == B.cfirst[c + 1]) {
                    if (!div)
                        break;
                    lab = tau;
                    d = b;
                } else {
                    lab = B.clab[e];
                    d = B.pi[B.cdst[e]];
                    if (lab == tau && d == b)
                        continue;
                }
                if (pass == 0) {
                    out->first[b + 1]++;
                } else {
                    size_t at = out->first[b + 1]++;
                    out->lab[at] = lab;
                    out->dst[at] = d;
                }
            }
        }
    }
    out->nedges = out->first[blocks];
    if (co_lts_normalise(cm, out, &keys, &ckeys) < 0)
        goto out;
    for (uint32_t s = 0; s < B.n; s++)
        block[s] = B.pi[B.comp[s]];
    rc = 0;
out:
    if (rc < 0)
        co_lts_free(cm, out);
    co_free_grown(cm, &keys, &ckeys, sizeof *keys);
    co_free(cm, B.comp, B.n, sizeof *B.comp);
    co_free(cm, B.div, B.nc, 1);
    co_free(cm, B.cfirst, (size_t)B.nc + 1, sizeof *B.cfirst);
    co_free(cm, B.clab, l->nedges, sizeof *B.clab);
    co_free(cm, B.cdst, l->nedges, sizeof *B.cdst);
    co_free(cm, B.pi, B.nc, sizeof *B.pi);
    co_free(cm, B.next_pi, B.nc, sizeof *B.next_pi);
    co_free(cm, B.sig_start, (size_t)B.nc + 1, sizeof *B.sig_start);
    co_free(cm, B.slot, B.nslots, sizeof *B.slot);
    co_free_grown(cm, &B.sig, &B.cap_sig, sizeof *B.sig);
    co_free_grown(cm, &B.scratch, &B.cap_scratch, sizeof *B.scratch);
    return rc;
}
