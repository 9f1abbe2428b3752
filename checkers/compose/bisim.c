/* Strong bisimulation by partition refinement (composeint.h), after Paige
 * and Tarjan ("Three partition refinement algorithms", SIAM J. Comput.
 * 16(6), 1987) with labels as Fernandez did ("An implementation of an
 * efficient algorithm for bisimulation equivalence", Sci. Comput.
 * Program. 13, 1990).
 *
 * Blocks partition the states; constellations group blocks, and the
 * blocks are kept stable under every constellation: two states of a block
 * have a-edges into the same constellations.  While some constellation C
 * has two blocks, the smaller B of two of them becomes a constellation of
 * its own, and every block is split three ways for each label a of an
 * edge into B: states with a-edges into B and into C\B, into B only, or
 * into none of B.  "Into C\B" is read off a counter per state, label and
 * constellation (a cell), which each edge points at, so that the work is
 * proportional to the edges into B: every edge is looked at when its
 * target's block is the smaller half, O(log n) times, O(m log n) in all.
 *
 * The blocks are a refinable partition (Valmari and Lehtinen, STACS 2008):
 * the states of a block are a range of one array, the marked ones at its
 * front, so that a split moves only the smaller part. */
#include "checkers/compose/composeint.h"

#include <stdlib.h>
#include <string.h>

typedef struct refiner {
    co_mem *cm;
    uint32_t n;
    size_t m;
    /* states */
    uint32_t *elem, *loc, *blk;
    /* blocks */
    uint32_t nblocks;
    uint32_t *bfirst, *bend, *bmark, *bconst, *bnext, *bprev;
    uint32_t *touched, ntouched;
    /* constellations */
    uint32_t nconst;
    uint32_t *chead, *cnblk, *cstack, nstack;
    uint8_t *cinstack;
    /* edges */
    uint32_t *esrc, *elab, *in_first, *in_edge, *ecell, *enext;
    /* cells: per (state, label, constellation) with edges, how many */
    uint32_t *ccount, *ctwin, *cfree, ncells, nfree;
    /* labels of the edges into the block being split off */
    uint32_t nlabels;
    uint32_t *lhead, *ltouched, nltouched;
    uint32_t *ctouched;
    size_t nctouched;
} refiner;

#define ALLOC(r, p, count) ((p) = co_alloc((r)->cm, (count), sizeof *(p)))
#define FREE(r, p, count) co_free((r)->cm, (p), (count), sizeof *(p))

static void mark(refiner *r, uint32_t s)
{
    uint32_t b = r->blk[s], pos = r->loc[s], front = r->bfirst[b] + r->bmark[b];
    if (pos < front)
        return;
    uint32_t other = r->elem[front];
    r->elem[front] = s;
    r->loc[s] = front;
    r->elem[pos] = other;
    r->loc[other] = pos;
    if (r->bmark[b]++ == 0)
        r->touched[r->ntouched++] = b;
}

static void push_const(refiner *r, uint32_t c)
{
    if (!r->cinstack[c]) {
        r->cinstack[c] = 1;
        r->cstack[r->nstack++] = c;
    }
}

/* Each touched block splits into its marked and unmarked states; the
 * smaller part gets the new number, in the old one's constellation. */
static void split(refiner *r)
{
    while (r->ntouched) {
        uint32_t b = r->touched[--r->ntouched];
        uint32_t k = r->bmark[b], size = r->bend[b] - r->bfirst[b];
        r->bmark[b] = 0;
        if (k == size)
            continue;
        uint32_t nb = r->nblocks++;
        if (k <= size - k) {
            r->bfirst[nb] = r->bfirst[b];
            r->bend[nb] = r->bfirst[b] + k;
            r->bfirst[b] += k;
        } else {
            r->bfirst[nb] = r->bfirst[b] + k;
            r->bend[nb] = r->bend[b];
            r->bend[b] = r->bfirst[b] + k;
        }
        r->bmark[nb] = 0;
        for (uint32_t i = r->bfirst[nb]; i < r->bend[nb]; i++)
            r->blk[r->elem[i]] = nb;
        uint32_t c = r->bconst[b];
        r->bconst[nb] = c;
        r->bprev[nb] = b;
        r->bnext[nb] = r->bnext[b];
        if (r->bnext[b] != CO_NONE)
            r->bprev[r->bnext[b]] = nb;
        r->bnext[b] = nb;
        if (++r->cnblk[c] == 2)
            push_const(r, c);
    }
}

static uint32_t new_cell(refiner *r)
{
    uint32_t c = r->nfree ? r->cfree[--r->nfree] : r->ncells++;
    r->ccount[c] = 0;
    r->ctwin[c] = CO_NONE;
    return c;
}

/* The smaller of C's first two blocks becomes a constellation, and every
 * block is split by it (the three-way split above); -1 on a limit. */
static int refine_once(refiner *r, uint32_t c)
{
    uint32_t b1 = r->chead[c], b2 = r->bnext[b1];
    uint32_t B = r->bend[b1] - r->bfirst[b1] <= r->bend[b2] - r->bfirst[b2] ? b1 : b2;
    if (r->bprev[B] != CO_NONE)
        r->bnext[r->bprev[B]] = r->bnext[B];
    else
        r->chead[c] = r->bnext[B];
    if (r->bnext[B] != CO_NONE)
        r->bprev[r->bnext[B]] = r->bprev[B];
    r->cnblk[c]--;
    uint32_t nc = r->nconst++;
    r->chead[nc] = B;
    r->cnblk[nc] = 1;
    r->cinstack[nc] = 0;
    r->bnext[B] = r->bprev[B] = CO_NONE;
    r->bconst[B] = nc;

    /* the edges into B, by label; each moves to its source's cell for B */
    r->nltouched = 0;
    r->nctouched = 0;
    for (uint32_t i = r->bfirst[B]; i < r->bend[B]; i++) {
        if (co_tick(r->cm) < 0)
            return -1;
        uint32_t s = r->elem[i];
        for (uint32_t j = r->in_first[s]; j < r->in_first[s + 1]; j++) {
            uint32_t e = r->in_edge[j], a = r->elab[e];
            if (r->lhead[a] == CO_NONE)
                r->ltouched[r->nltouched++] = a;
            r->enext[e] = r->lhead[a];
            r->lhead[a] = e;
            uint32_t old = r->ecell[e];
            if (r->ctwin[old] == CO_NONE) {
                uint32_t nw = new_cell(r);
                r->ctwin[old] = nw;
                r->ctwin[nw] = old;
                r->ctouched[r->nctouched++] = old;
            }
            uint32_t nw = r->ctwin[old];
            r->ccount[nw]++;
            r->ccount[old]--;
            r->ecell[e] = nw;
        }
    }
    for (uint32_t k = 0; k < r->nltouched; k++) {
        uint32_t a = r->ltouched[k];
        for (uint32_t e = r->lhead[a]; e != CO_NONE; e = r->enext[e])
            mark(r, r->esrc[e]);
        split(r);
        for (uint32_t e = r->lhead[a]; e != CO_NONE; e = r->enext[e])
            if (r->ccount[r->ctwin[r->ecell[e]]] > 0)
                mark(r, r->esrc[e]);
        split(r);
        r->lhead[a] = CO_NONE;
    }
    for (size_t k = 0; k < r->nctouched; k++) {
        uint32_t old = r->ctouched[k], nw = r->ctwin[old];
        r->ctwin[old] = r->ctwin[nw] = CO_NONE;
        if (!r->ccount[old])
            r->cfree[r->nfree++] = old;
    }
    return 0;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Labels numbered densely (0 .. nlabels-1), in their order. */
static int dense_labels(refiner *r, const co_lts *l)
{
    uint32_t *sorted;
    if (!ALLOC(r, sorted, r->m))
        return -1;
    if (r->m) {   /* a component without moves has no label array */
        memcpy(sorted, l->lab, r->m * sizeof *sorted);
        qsort(sorted, r->m, sizeof *sorted, cmp_u32);
    }
    uint32_t k = 0;
    for (size_t i = 0; i < r->m; i++)
        if (!k || sorted[i] != sorted[k - 1])
            sorted[k++] = sorted[i];
    r->nlabels = k;
    for (size_t e = 0; e < r->m; e++) {
        uint32_t lo = 0, hi = k;
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (sorted[mid] < l->lab[e])
                lo = mid + 1;
            else
                hi = mid;
        }
        r->elab[e] = lo;
    }
    FREE(r, sorted, r->m);
    return 0;
}

static int setup(refiner *r, const co_lts *l)
{
    uint32_t n = r->n;
    size_t m = r->m, cells = 2 * m + 2;
    if (!ALLOC(r, r->elem, n) || !ALLOC(r, r->loc, n) || !ALLOC(r, r->blk, n) ||
        !ALLOC(r, r->bfirst, n) || !ALLOC(r, r->bend, n) || !ALLOC(r, r->bmark, n) ||
        !ALLOC(r, r->bconst, n) || !ALLOC(r, r->bnext, n) || !ALLOC(r, r->bprev, n) ||
        !ALLOC(r, r->touched, n) || !ALLOC(r, r->chead, n) || !ALLOC(r, r->cnblk, n) ||
        !ALLOC(r, r->cstack, n) || !ALLOC(r, r->cinstack, n) || !ALLOC(r, r->esrc, m) ||
        !ALLOC(r, r->elab, m) || !ALLOC(r, r->in_first, (size_t)n + 1) ||
        !ALLOC(r, r->in_edge, m) || !ALLOC(r, r->ecell, m) || !ALLOC(r, r->enext, m) ||
        !ALLOC(r, r->ccount, cells) || !ALLOC(r, r->ctwin, cells) ||
        !ALLOC(r, r->cfree, cells) || !ALLOC(r, r->ctouched, m))
        return -1;
    if (dense_labels(r, l) < 0 || !ALLOC(r, r->lhead, r->nlabels) ||
        !ALLOC(r, r->ltouched, r->nlabels))
        return -1;
    for (uint32_t a = 0; a < r->nlabels; a++)
        r->lhead[a] = CO_NONE;
    for (uint32_t s = 0; s < n; s++) {
        r->elem[s] = r->loc[s] = s;
        r->blk[s] = 0;
        for (uint32_t e = l->first[s]; e < l->first[s + 1]; e++)
            r->esrc[e] = s;
    }
    for (size_t e = 0; e < m; e++)
        r->in_first[l->dst[e] + 1]++;
    for (uint32_t s = 0; s < n; s++)
        r->in_first[s + 1] += r->in_first[s];
    /* bmark (zero until the first split) counts each target's edges so far */
    for (size_t e = 0; e < m; e++)
        r->in_edge[r->in_first[l->dst[e]] + r->bmark[l->dst[e]]++] = (uint32_t)e;
    for (uint32_t s = 0; s < n; s++)
        r->bmark[s] = 0;
    /* one cell per state and label: one constellation holds every state
     * (a state's edges are sorted by label) */
    for (uint32_t s = 0; s < n; s++)
        for (uint32_t e = l->first[s]; e < l->first[s + 1]; e++) {
            if (e == l->first[s] || r->elab[e] != r->elab[e - 1])
                new_cell(r);
            r->ccount[r->ncells - 1]++;
            r->ecell[e] = r->ncells - 1;
        }
    r->nblocks = 1;
    r->bfirst[0] = 0;
    r->bend[0] = n;
    r->bnext[0] = r->bprev[0] = CO_NONE;
    r->bconst[0] = 0;
    r->nconst = 1;
    r->chead[0] = 0;
    r->cnblk[0] = 1;
    return 0;
}

/* Stable under the one constellation of all states: split by "has an
 * a-edge" for each label a. */
static int first_split(refiner *r)
{
    for (size_t e = 0; e < r->m; e++) {
        uint32_t a = r->elab[e];
        if (r->lhead[a] == CO_NONE)
            r->ltouched[r->nltouched++] = a;
        r->enext[e] = r->lhead[a];
        r->lhead[a] = (uint32_t)e;
    }
    for (uint32_t k = 0; k < r->nltouched; k++) {
        uint32_t a = r->ltouched[k];
        if (co_tick(r->cm) < 0)
            return -1;
        for (uint32_t e = r->lhead[a]; e != CO_NONE; e = r->enext[e])
            mark(r, r->esrc[e]);
        split(r);
        r->lhead[a] = CO_NONE;
    }
    r->nltouched = 0;
    return 0;
}

static void teardown(refiner *r)
{
    uint32_t n = r->n;
    size_t m = r->m, cells = 2 * m + 2;
    FREE(r, r->elem, n);
    FREE(r, r->loc, n);
    FREE(r, r->blk, n);
    FREE(r, r->bfirst, n);
    FREE(r, r->bend, n);
    FREE(r, r->bmark, n);
    FREE(r, r->bconst, n);
    FREE(r, r->bnext, n);
    FREE(r, r->bprev, n);
    FREE(r, r->touched, n);
    FREE(r, r->chead, n);
    FREE(r, r->cnblk, n);
    FREE(r, r->cstack, n);
    FREE(r, r->cinstack, n);
    FREE(r, r->esrc, m);
    FREE(r, r->elab, m);
    FREE(r, r->in_first, (size_t)n + 1);
    FREE(r, r->in_edge, m);
    FREE(r, r->ecell, m);
    FREE(r, r->enext, m);
    FREE(r, r->ccount, cells);
    FREE(r, r->ctwin, cells);
    FREE(r, r->cfree, cells);
    FREE(r, r->ctouched, m);
    FREE(r, r->lhead, r->nlabels);
    FREE(r, r->ltouched, r->nlabels);
}

/* The quotient: a block's edges are those of any of its states, with
 * targets as blocks (all its states have the same, being stable). */
static int quotient(refiner *r, const co_lts *l, co_lts *out, uint32_t *block)
{
    co_mem *cm = r->cm;
    size_t room = 0;
    for (uint32_t b = 0; b < r->nblocks; b++) {
        uint32_t s = r->elem[r->bfirst[b]];
        room += l->first[s + 1] - l->first[s];
    }
    memset(out, 0, sizeof *out);
    out->nstates = r->nblocks;
    out->init = r->blk[l->init];
    out->cap_first = (size_t)r->nblocks + 1;
    out->cap_edges = room ? room : 1;
    if (!(out->first = co_alloc(cm, out->cap_first, sizeof *out->first)) ||
        !(out->lab = co_alloc(cm, out->cap_edges, sizeof *out->lab)) ||
        !(out->dst = co_alloc(cm, out->cap_edges, sizeof *out->dst))) {
        co_lts_free(cm, out);
        return -1;
    }
    size_t e = 0;
    for (uint32_t b = 0; b < r->nblocks; b++) {
        uint32_t s = r->elem[r->bfirst[b]];
        out->first[b] = (uint32_t)e;
        for (uint32_t f = l->first[s]; f < l->first[s + 1]; f++) {
            out->lab[e] = l->lab[f];
            out->dst[e] = r->blk[l->dst[f]];
            e++;
        }
    }
    out->first[r->nblocks] = (uint32_t)e;
    out->nedges = e;
    uint64_t *scratch = NULL;
    size_t cap = 0;
    int rc = co_lts_normalise(cm, out, &scratch, &cap);
    co_free_grown(cm, &scratch, &cap, sizeof *scratch);
    if (rc < 0) {
        co_lts_free(cm, out);
        return -1;
    }
    memcpy(block, r->blk, (size_t)r->n * sizeof *block);
    return 0;
}

int co_minimise(co_mem *cm, const co_lts *l, co_lts *out, uint32_t *block)
{
    refiner r;
    memset(&r, 0, sizeof r);
    r.cm = cm;
    r.n = l->nstates;
    r.m = l->nedges;
    int rc = -1;
    if (!r.n) {
        memset(out, 0, sizeof *out);
        return 0;
    }
    if (setup(&r, l) < 0 || first_split(&r) < 0)
        goto out;
    while (r.nstack) {
        uint32_t c = r.cstack[r.nstack - 1];
        if (r.cnblk[c] < 2) {
            r.cinstack[c] = 0;
            r.nstack--;
            continue;
        }
        if (refine_once(&r, c) < 0)
            goto out;
    }
    rc = quotient(&r, l, out, block);
out:
    teardown(&r);
    return rc;
}
