/* The two minimisers modulo branching bisimulation with explicit
 * divergence (checkers/compose: gvbranch.c by splitters, divbranch.c by
 * signatures, the reference that test_compose holds to the definition on
 * LTSs small enough to try every partition) give the same partition and
 * the same quotient: the same number of blocks, the same block for every
 * state once the blocks are numbered by their first state, the same
 * edges.  On thousands of random LTSs with tau-cycles, tau-self-loops,
 * deadlocks and several labels on both sides of tau's number; on long
 * tau-chains and label-chains, where the splitter search splits off one
 * state at a time and each part found first in the lock step is tried;
 * on larger random ones; and with label numbers far above the number of
 * edges (numbered densely by sorting, not by a table).  Every array goes back to the account, and
 * a memory limit ends either minimiser with -1 and nothing left. */
#include "base/budget.h"
#include "checkers/compose/composeint.h"
#include "budgets.h"
#include "rnd.h"
#include "unit.h"

#include <stdlib.h>
#include <string.h>

#define TAU 3u

typedef struct edges {
    uint32_t n, m, cap;
    uint32_t *src, *lab, *dst;
} edges;

static void add(edges *E, uint32_t s, uint32_t a, uint32_t d)
{
    if (E->m == E->cap) {
        E->cap = E->cap ? 2 * E->cap : 64;
        E->src = realloc(E->src, E->cap * sizeof *E->src);
        E->lab = realloc(E->lab, E->cap * sizeof *E->lab);
        E->dst = realloc(E->dst, E->cap * sizeof *E->dst);
        if (!E->src || !E->lab || !E->dst)
            abort();
    }
    E->src[E->m] = s;
    E->lab[E->m] = a;
    E->dst[E->m++] = d;
}

/* As a co_lts, edges by source, normalised; -1 on a limit. */
static int to_lts(co_mem *cm, const edges *E, uint32_t init, co_lts *l)
{
    memset(l, 0, sizeof *l);
    l->nstates = E->n;
    l->init = init;
    l->cap_first = (size_t)E->n + 1;
    l->cap_edges = E->m ? E->m : 1;
    l->first = co_alloc(cm, l->cap_first, sizeof *l->first);
    l->lab = co_alloc(cm, l->cap_edges, sizeof *l->lab);
    l->dst = co_alloc(cm, l->cap_edges, sizeof *l->dst);
    uint32_t *count = calloc((size_t)E->n + 1, sizeof *count);
    if (!l->first || !l->lab || !l->dst || !count) {
        free(count);
        co_lts_free(cm, l);
        return -1;
    }
    for (uint32_t e = 0; e < E->m; e++)
        l->first[E->src[e] + 1]++;
    for (uint32_t s = 0; s < E->n; s++)
        l->first[s + 1] += l->first[s];
    for (uint32_t e = 0; e < E->m; e++) {
        uint32_t at = l->first[E->src[e]] + count[E->src[e]]++;
        l->lab[at] = E->lab[e];
        l->dst[at] = E->dst[e];
    }
    free(count);
    l->nedges = E->m;
    uint64_t *scratch = NULL;
    size_t cap = 0;
    int rc = co_lts_normalise(cm, l, &scratch, &cap);
    co_free_grown(cm, &scratch, &cap, sizeof *scratch);
    if (rc < 0)
        co_lts_free(cm, l);
    return rc;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The quotient's edges with blocks renamed by rename, as sorted keys
 * (src << 40 | label << 20 | dst; the sizes here stay far below). */
static uint64_t *renamed_edges(const co_lts *q, const uint32_t *rename)
{
    uint64_t *k = malloc((q->nedges ? q->nedges : 1) * sizeof *k);
    if (!k)
        abort();
    for (uint32_t s = 0; s < q->nstates; s++)
        for (uint32_t e = q->first[s]; e < q->first[s + 1]; e++)
            k[e] = (uint64_t)rename[s] << 40 | (uint64_t)q->lab[e] << 20 | rename[q->dst[e]];
    qsort(k, q->nedges, sizeof *k, cmp_u64);
    return k;
}

typedef struct tally {
    int lts, failed, partition, quotient;
} tally;

/* Both minimisers on E; differences counted in t. */
static void compare(co_mem *cm, const edges *E, uint32_t init, tally *t)
{
    co_lts l, qa, qb;
    if (to_lts(cm, E, init, &l) < 0) {
        t->failed++;
        return;
    }
    uint32_t *ba = malloc(E->n * sizeof *ba), *bb = malloc(E->n * sizeof *bb);
    if (!ba || !bb)
        abort();
    int ra = co_minimise_branching(cm, &l, TAU, &qa, ba);
    int rb = co_minimise_branching_signatures(cm, &l, TAU, &qb, bb);
    t->lts++;
    if (ra < 0 || rb < 0) {
        t->failed++;
        if (!ra)
            co_lts_free(cm, &qa);
        if (!rb)
            co_lts_free(cm, &qb);
        goto out;
    }
    /* rename both by the first state of each block */
    uint32_t *na = malloc((qa.nstates + 1) * sizeof *na), *nb = malloc((qb.nstates + 1) * sizeof *nb);
    if (!na || !nb)
        abort();
    for (uint32_t b = 0; b < qa.nstates; b++)
        na[b] = CO_NONE;
    for (uint32_t b = 0; b < qb.nstates; b++)
        nb[b] = CO_NONE;
    uint32_t ka = 0, kb = 0;
    int same = qa.nstates == qb.nstates;
    for (uint32_t s = 0; s < E->n; s++) {
        if (na[ba[s]] == CO_NONE)
            na[ba[s]] = ka++;
        if (nb[bb[s]] == CO_NONE)
            nb[bb[s]] = kb++;
        same &= na[ba[s]] == nb[bb[s]];
    }
    t->partition += !same;
    if (same) {
        int q_same = qa.nedges == qb.nedges && na[qa.init] == nb[qb.init];
        if (q_same) {
            uint64_t *ea = renamed_edges(&qa, na), *eb = renamed_edges(&qb, nb);
            q_same = !qa.nedges || !memcmp(ea, eb, qa.nedges * sizeof *ea);
            free(ea);
            free(eb);
        }
        t->quotient += !q_same;
    }
    free(na);
    free(nb);
    co_lts_free(cm, &qa);
    co_lts_free(cm, &qb);
out:
    free(ba);
    free(bb);
    co_lts_free(cm, &l);
}

/* Labels 1, 2, 4, 5 (below and above tau's 3), a share of tau-edges. */
static uint32_t random_label(uint32_t labels, uint32_t tau_percent)
{
    if (rnd(100) < tau_percent)
        return TAU;
    uint32_t a = 1 + rnd(labels);
    return a >= TAU ? a + 1 : a;
}

static void random_edges(edges *E, uint32_t n, uint32_t m, uint32_t labels, uint32_t tau_percent)
{
    E->n = n;
    E->m = 0;
    for (uint32_t e = 0; e < m; e++)
        add(E, rnd(n), random_label(labels, tau_percent), rnd(n));
}

/* A chain of n states, step label a (TAU: a tau-chain), every k-th state
 * also taking a visible step to the end; the end loops on tau when
 * diverging, and some states loop on tau. */
static void chain(edges *E, uint32_t n, uint32_t a, uint32_t k, int diverging)
{
    E->n = n;
    E->m = 0;
    for (uint32_t s = 0; s + 1 < n; s++) {
        add(E, s, a, s + 1);
        if (k && s % k == 0)
            add(E, s, 1 + rnd(2), n - 1);
        if (!rnd(50))
            add(E, s, TAU, s);
    }
    if (diverging)
        add(E, n - 1, TAU, n - 1);
}

int main(void)
{
    budget_t b = unit_budget(0, 0);
    co_mem cm = { .budget = &b, .limit = (size_t)1 << 30 };
    edges E;
    memset(&E, 0, sizeof E);
    tally small = { 0 }, chains = { 0 }, large = { 0 };
    for (int i = 0; i < 6000; i++) {
        uint32_t n = 1 + rnd(i < 3000 ? 8 : 30);
        random_edges(&E, n, rnd(4 * n + 1), 1 + rnd(4), 20 + rnd(70));
        compare(&cm, &E, rnd(n), &small);
    }
    CHECK(small.lts == 6000 && !small.failed && !small.partition && !small.quotient,
          "6000 random LTSs of 1 to 30 states, tau-cycles and deadlocks among them: the same "
          "partition by splitters as by signatures (%d differ, %d failed) and the same quotient "
          "(%d differ)", small.partition, small.failed, small.quotient);
    for (int i = 0; i < 200; i++) {
        uint32_t n = 2 + rnd(3000);
        chain(&E, n, i % 2 ? TAU : 4, rnd(4) ? rnd(200) : 0, rnd(2));
        compare(&cm, &E, 0, &chains);
    }
    CHECK(chains.lts == 200 && !chains.failed && !chains.partition && !chains.quotient,
          "200 chains of up to 3000 states, of tau and of a label, with exits: the same "
          "partition (%d differ, %d failed) and quotient (%d differ)", chains.partition,
          chains.failed, chains.quotient);
    for (int i = 0; i < 60; i++) {
        uint32_t n = 100 + rnd(4000);
        random_edges(&E, n, n + rnd(3 * n), 1 + rnd(4), 30 + rnd(60));
        compare(&cm, &E, 0, &large);
    }
    CHECK(large.lts == 60 && !large.failed && !large.partition && !large.quotient,
          "60 random LTSs of 100 to 4100 states: the same partition (%d differ, %d failed) and "
          "quotient (%d differ)", large.partition, large.failed, large.quotient);
    /* labels far above the edges' count: numbered by sorting, not by a table */
    tally sparse = { 0 };
    for (int i = 0; i < 300; i++) {
        uint32_t n = 1 + rnd(30);
        random_edges(&E, n, rnd(4 * n + 1), 1 + rnd(4), 20 + rnd(70));
        for (uint32_t e = 0; e < E.m; e++)
            E.lab[e] += E.lab[e] == TAU ? 0 : 100000;
        compare(&cm, &E, rnd(n), &sparse);
    }
    CHECK(sparse.lts == 300 && !sparse.failed && !sparse.partition && !sparse.quotient,
          "300 random LTSs whose labels are numbers past 100000: the same partition (%d differ, "
          "%d failed) and quotient (%d differ)", sparse.partition, sparse.failed, sparse.quotient);
    CHECK(cm.used == 0, "every array given back to the account (%zu bytes left)", cm.used);

    /* a limit met inside: -1, the reason, nothing kept */
    int limited = 0, leaked = 0;
    for (int i = 0; i < 2; i++) {
        random_edges(&E, 3000, 9000, 3, 50);
        co_mem big = { .budget = &b, .limit = (size_t)1 << 30 };
        co_lts l, q;
        uint32_t *block = malloc(E.n * sizeof *block);
        if (!block || to_lts(&big, &E, 0, &l) < 0)
            abort();
        co_mem tight = { .budget = &b, .limit = 150000 };
        int rc = i ? co_minimise_branching_signatures(&tight, &l, TAU, &q, block)
                   : co_minimise_branching(&tight, &l, TAU, &q, block);
        limited += rc < 0 && tight.gave_up;
        leaked += tight.used != 0;
        co_lts_free(&big, &l);
        free(block);
    }
    CHECK(limited == 2 && !leaked, "a memory limit ends both with -1 and the reason (%d of 2), "
          "every array given back (%d leaked)", limited, leaked);
    free(E.src);
    free(E.lab);
    free(E.dst);
    UNIT_DONE();
}
