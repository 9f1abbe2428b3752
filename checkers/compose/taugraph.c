/* An LTS with its tau-cycles contracted (composeint.h), what both
 * minimisers modulo branching bisimulation with explicit divergence start
 * from (divbranch.c, gvbranch.c).  States on a cycle of tau-edges are
 * branching bisimilar, and the cycle is a divergence: each
 * tau-component (Tarjan's, iteratively: a file decides the depth) becomes
 * one node, marked divergent when a tau-edge stays inside it, so that the
 * tau-edges left form an acyclic graph and every state reaches a state
 * without tau-edges in its block. */
#include "checkers/compose/composeint.h"

#include <string.h>

/* Numbered in the order they complete: a component's tau-successors
 * first. */
static int tau_components(co_mem *cm, const co_lts *l, uint32_t tau, co_taugraph *g)
{
    uint32_t n = g->n;
    uint32_t *index = co_alloc(cm, n, sizeof *index), *low = co_alloc(cm, n, sizeof *low);
    uint32_t *stack = co_alloc(cm, n, sizeof *stack), *call = co_alloc(cm, n, sizeof *call);
    uint32_t *edge = co_alloc(cm, n, sizeof *edge);
    uint8_t *on = co_alloc(cm, n, 1);
    int rc = -1;
    if (!index || !low || !stack || !call || !edge || !on || !(g->comp = co_alloc(cm, n, sizeof *g->comp)))
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
                if (l->lab[e] != tau)
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
                    g->comp[w] = g->nc;
                } while (w != v);
                g->nc++;
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

/* Each edge once per component, sorted by (label, target); tau-edges
 * inside a component dropped (they make it divergent). */
static int contract(co_mem *cm, const co_lts *l, uint32_t tau, co_taugraph *g)
{
    uint32_t nc = g->nc;
    g->room = l->nedges;
    if (!(g->div = co_alloc(cm, nc, 1)) || !(g->cfirst = co_alloc(cm, (size_t)nc + 1, sizeof *g->cfirst)) ||
        !(g->clab = co_alloc(cm, g->room, sizeof *g->clab)) ||
        !(g->cdst = co_alloc(cm, g->room, sizeof *g->cdst)))
        return -1;
    uint32_t *sfirst = co_alloc(cm, (size_t)nc + 1, sizeof *sfirst);
    uint32_t *states = co_alloc(cm, g->n, sizeof *states);
    uint32_t *fill = co_alloc(cm, nc, sizeof *fill);
    uint64_t *scratch = NULL;
    size_t cap = 0;
    int rc = -1;
    if (!sfirst || !states || !fill)
        goto out;
    for (uint32_t s = 0; s < g->n; s++)
        sfirst[g->comp[s] + 1]++;
    for (uint32_t c = 0; c < nc; c++)
        sfirst[c + 1] += sfirst[c];
    for (uint32_t s = 0; s < g->n; s++)
        states[sfirst[g->comp[s]] + fill[g->comp[s]]++] = s;
    size_t k = 0;
    for (uint32_t c = 0; c < nc; c++) {
        size_t from = k;
        for (uint32_t i = sfirst[c]; i < sfirst[c + 1]; i++) {
            uint32_t s = states[i];
            for (uint32_t e = l->first[s]; e < l->first[s + 1]; e++) {
                uint32_t d = g->comp[l->dst[e]];
                if (l->lab[e] == tau && d == c) {
                    g->div[c] = 1;
                    continue;
                }
                if (co_grow(cm, &scratch, &cap, k - from + 1, sizeof *scratch) < 0)
                    goto out;
                scratch[k - from] = (uint64_t)l->lab[e] << 32 | d;
                k++;
            }
        }
        size_t u = co_sort_unique(scratch, k - from);
        g->cfirst[c] = (uint32_t)from;
        for (size_t i = 0; i < u; i++) {
            g->clab[from + i] = (uint32_t)(scratch[i] >> 32);
            g->cdst[from + i] = (uint32_t)scratch[i];
        }
        k = from + u;
    }
    g->cfirst[nc] = (uint32_t)k;
    g->nedges = k;
    rc = 0;
out:
    co_free(cm, sfirst, (size_t)nc + 1, sizeof *sfirst);
    co_free(cm, states, g->n, sizeof *states);
    co_free(cm, fill, nc, sizeof *fill);
    co_free_grown(cm, &scratch, &cap, sizeof *scratch);
    return rc;
}

int co_taugraph_build(co_mem *cm, const co_lts *l, uint32_t tau, co_taugraph *g)
{
    memset(g, 0, sizeof *g);
    g->n = l->nstates;
    if (tau_components(cm, l, tau, g) < 0 || contract(cm, l, tau, g) < 0) {
        co_taugraph_free(cm, g);
        return -1;
    }
    return 0;
}

void co_taugraph_free(co_mem *cm, co_taugraph *g)
{
    co_free(cm, g->comp, g->n, sizeof *g->comp);
    co_free(cm, g->div, g->nc, 1);
    co_free(cm, g->cfirst, (size_t)g->nc + 1, sizeof *g->cfirst);
    co_free(cm, g->clab, g->room, sizeof *g->clab);
    co_free(cm, g->cdst, g->room, sizeof *g->cdst);
    memset(g, 0, sizeof *g);
}

int co_taugraph_quotient(co_mem *cm, const co_lts *l, const co_taugraph *g, uint32_t tau,
                         const uint32_t *class_of, uint32_t nclasses, co_lts *out,
                         uint32_t *block)
{
    uint32_t *number = co_alloc(cm, nclasses, sizeof *number);
    uint64_t *keys = NULL;
    size_t ckeys = 0;
    int rc = -1;
    memset(out, 0, sizeof *out);
    if (!number)
        return -1;
    for (uint32_t b = 0; b < nclasses; b++)
        number[b] = CO_NONE;
    uint32_t next = 0;
    for (uint32_t s = 0; s < l->nstates; s++) {
        uint32_t b = class_of[g->comp[s]];
        if (number[b] == CO_NONE)
            number[b] = next++;
        block[s] = number[b];
    }
    out->nstates = nclasses;
    out->init = block[l->init];
    out->cap_first = (size_t)nclasses + 1;
    /* every edge of the contracted graph, and a loop per divergent one */
    out->cap_edges = g->nedges + g->nc + 1;
    if (!(out->first = co_alloc(cm, out->cap_first, sizeof *out->first)) ||
        !(out->lab = co_alloc(cm, out->cap_edges, sizeof *out->lab)) ||
        !(out->dst = co_alloc(cm, out->cap_edges, sizeof *out->dst)))
        goto out;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            for (uint32_t b = 0; b < nclasses; b++)
                out->first[b + 1] += out->first[b];
            for (uint32_t b = nclasses; b > 0; b--)
                out->first[b] = out->first[b - 1];
            out->first[0] = 0;
        }
        for (uint32_t c = 0; c < g->nc; c++) {
            uint32_t b = number[class_of[c]];
            /* the last round of e is the divergence loop, if c has one */
            for (uint32_t e = g->cfirst[c]; e <= g->cfirst[c + 1]; e++) {
                uint32_t lab = tau, d = b;
                if (e < g->cfirst[c + 1]) {
                    lab = g->clab[e];
                    d = number[class_of[g->cdst[e]]];
                    if (lab == tau && d == b)
                        continue;
                } else if (!g->div[c]) {
                    break;
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
    out->nedges = out->first[nclasses];
    if (co_lts_normalise(cm, out, &keys, &ckeys) < 0)
        goto out;
    rc = 0;
out:
    if (rc < 0)
        co_lts_free(cm, out);
    co_free_grown(cm, &keys, &ckeys, sizeof *keys);
    co_free(cm, number, nclasses, sizeof *number);
    return rc;
}
