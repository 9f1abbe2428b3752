/* compose: LTL over actions by compositional minimisation (compose.h;
 * the method and its argument: docs/compose.md).
 *
 * Per property: the net's sequential components and actions
 * (components.c), the formula's letters (letters.c); each component's
 * LTS with the actions only it has turned into their letters, minimised
 * modulo strong bisimulation (bisim.c); then, two at a time in the order
 * of the heuristic below, the product (product.c), in which the actions
 * whose owners are now all inside become letters, minimised again; at
 * the end the states without an infinite run are dropped (prune.c, only
 * when finite runs do not count) and the rest minimised once more; that
 * LTS, as a net of one place per state, goes to the LTL checker, and its
 * counterexample is lifted to one of the net (lift.c). */
#include "base/budget.h"
#include "base/clock.h"
#include "checkers/compose/compose.h"
#include "checkers/compose/composeint.h"
#include "checkers/stubborn.h"
#include "engine/progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct composer {
    co_mem cm;
    const cnet_t *cn;
    const check_options *opt;
    co_comps C;
    co_letters L;
    uint32_t A;                     /* actions; labels from A on are letters */
    uint32_t *action_letter;        /* per action */
    co_node *nodes;
    uint32_t nnodes;
    /* scratch per action */
    uint8_t *sync;
    uint32_t *relabel, *in_a, *in_b;
    uint64_t raw_states, raw_edges;
    uint32_t largest;
    size_t largest_edges;
    progress prog;
    double start;
    const compose_tuning *tuning;
} composer;

/* ---- -v ---- */

static void node_name(const composer *K, uint32_t i, char *buf, size_t n)
{
    const co_node *N = &K->nodes[i];
    const net_t *net = K->cn->net;
    if (N->left >= 0)
        snprintf(buf, n, "#%u", i);
    else if (!strcmp(K->C.source, "units") && net && N->comp < net->nunits)
        snprintf(buf, n, "%s", net->units[N->comp].name);
    else
        snprintf(buf, n, "group %u", N->comp);
}

static void show_progress(void *ctx, uint64_t states, uint64_t edges)
{
    composer *K = ctx;
    progress_maybe(&K->prog, mono_now(), states, edges, K->cm.used, 0);
}

/* ---- nodes ---- */

static int add_node(composer *K, co_node **out)
{
    co_node *N = &K->nodes[K->nnodes++];
    memset(N, 0, sizeof *N);
    N->left = N->right = -1;
    N->alive = 1;
    *out = N;
    return 0;
}

static uint32_t owners(const composer *K, uint32_t a)
{
    return K->C.owner_first[a + 1] - K->C.owner_first[a];
}

/* raw (unminimised, relabelled) into N: minimised, with state_block. */
static int settle(composer *K, co_node *N, co_lts *raw)
{
    N->nraw = raw->nstates;
    N->raw_edges = raw->nedges;
    K->raw_states += raw->nstates;
    K->raw_edges += raw->nedges;
    if (raw->nstates > K->largest) {
        K->largest = raw->nstates;
        K->largest_edges = raw->nedges;
    }
    if (!(N->state_block = co_alloc(&K->cm, raw->nstates, sizeof(uint32_t))))
        return -1;
    return co_minimise(&K->cm, raw, &N->l, N->state_block);
}

static int make_leaf(composer *K, uint32_t k)
{
    co_node *N;
    add_node(K, &N);
    N->comp = k;
    N->ncomps = 1;
    uint32_t nlocal = K->C.comp_first[k + 1] - K->C.comp_first[k];
    uint32_t *state_of = co_alloc(&K->cm, nlocal, sizeof *state_of);
    co_lts raw;
    memset(&raw, 0, sizeof raw);
    uint64_t *scratch = NULL;
    size_t cap = 0;
    int rc = -1;
    if (!state_of || co_comps_leaf(&K->cm, &K->C, k, &raw, state_of) < 0)
        goto out;
    /* actions only k has are its own: letters from the start */
    for (size_t e = 0; e < raw.nedges; e++)
        if (owners(K, raw.lab[e]) == 1)
            raw.lab[e] = K->A + K->action_letter[raw.lab[e]];
    if (co_lts_normalise(&K->cm, &raw, &scratch, &cap) < 0)
        goto out;
    uint32_t *block = NULL;
    if (settle(K, N, &raw) < 0)
        goto out;
    /* the leaf's raw states are its places; state_block by place */
    block = N->state_block;
    if (!(N->state_block = co_alloc(&K->cm, nlocal, sizeof(uint32_t)))) {
        N->state_block = block;
        goto out;
    }
    for (uint32_t s = 0; s < nlocal; s++)
        N->state_block[s] = state_of[s] == CO_NONE ? CO_NONE : block[state_of[s]];
    co_free(&K->cm, block, N->nraw, sizeof *block);
    N->nraw = nlocal;
    /* the interface: k's actions that others have too */
    uint32_t n = 0;
    for (uint32_t j = K->C.comp_move_first[k]; j < K->C.comp_move_first[k + 1]; j++)
        n++;
    N->iface_room = n;
    if (!(N->iface = co_alloc(&K->cm, n, sizeof(uint32_t))) ||
        !(N->iface_in = co_alloc(&K->cm, n, sizeof(uint32_t))))
        goto out;
    for (uint32_t j = K->C.comp_move_first[k]; j < K->C.comp_move_first[k + 1]; j++) {
        uint32_t a = K->C.trans_action[K->C.move_trans[K->C.comp_move[j]]];
        if (owners(K, a) > 1)
            N->iface[N->niface++] = a;
    }
    /* sorted, once each */
    for (uint32_t i = 1; i < N->niface; i++) {
        uint32_t v = N->iface[i], j = i;
        while (j > 0 && N->iface[j - 1] > v) {
            N->iface[j] = N->iface[j - 1];
            j--;
        }
        N->iface[j] = v;
    }
    uint32_t u = 0;
    for (uint32_t i = 0; i < N->niface; i++)
        if (!u || N->iface[i] != N->iface[u - 1])
            N->iface[u++] = N->iface[i];
    N->niface = u;
    for (uint32_t i = 0; i < u; i++)
        N->iface_in[i] = 1;
    rc = 0;
out:
    co_free(&K->cm, state_of, nlocal, sizeof *state_of);
    co_free_grown(&K->cm, &scratch, &cap, sizeof *scratch);
    co_lts_free(&K->cm, &raw);
    return rc;
}

/* ---- the order ----
 * Of every two live nodes that share an action and whose product has at
 * most pair_limit pairs of states (compose.h), the pair whose product closes
 * the largest share of the actions it has (closed / all, the criterion of
 * Crouzen and Lang's smart reduction), the smaller product of sizes on a
 * tie; when no two such share one, the two smallest if their product
 * fits.  Past the limit a product is not built: the parts left are
 * searched together on the fly (network.c), where only what the whole
 * system reaches is explored. */

static void merge_count(const co_node *a, const co_node *b, const composer *K, uint32_t *shared,
                        uint32_t *closed, uint32_t *all)
{
    uint32_t i = 0, j = 0;
    *shared = *closed = *all = 0;
    while (i < a->niface || j < b->niface) {
        uint32_t x = i < a->niface ? a->iface[i] : UINT32_MAX;
        uint32_t y = j < b->niface ? b->iface[j] : UINT32_MAX;
        uint32_t act, in;
        if (x == y) {
            act = x;
            in = a->iface_in[i++] + b->iface_in[j++];
            (*shared)++;
        } else if (x < y) {
            act = x;
            in = a->iface_in[i++];
        } else {
            act = y;
            in = b->iface_in[j++];
        }
        (*all)++;
        *closed += in == owners(K, act);
    }
}

/* 0 with the pair in *pi < *pj, -1 when no product fits the limit. */
static int choose_pair(const composer *K, uint32_t *pi, uint32_t *pj)
{
    double best = -1;
    uint64_t best_size = UINT64_MAX;
    uint32_t bi = CO_NONE, bj = CO_NONE;
    for (uint32_t i = 0; i < K->nnodes; i++) {
        if (!K->nodes[i].alive)
            continue;
        for (uint32_t j = i + 1; j < K->nnodes; j++) {
            if (!K->nodes[j].alive)
                continue;
            uint64_t size = (uint64_t)K->nodes[i].l.nstates * K->nodes[j].l.nstates;
            if (size > K->tuning->pair_limit)
                continue;
            uint32_t shared, closed, all;
            merge_count(&K->nodes[i], &K->nodes[j], K, &shared, &closed, &all);
            if (!shared)
                continue;
            double score = (double)closed / all;
            if (score > best || (score == best && size < best_size)) {
                best = score;
                best_size = size;
                bi = i;
                bj = j;
            }
        }
    }
    if (bi == CO_NONE) {
        for (uint32_t i = 0; i < K->nnodes; i++) {
            if (!K->nodes[i].alive)
                continue;
            if (bi == CO_NONE || K->nodes[i].l.nstates < K->nodes[bi].l.nstates) {
                bj = bi;
                bi = i;
            } else if (bj == CO_NONE || K->nodes[i].l.nstates < K->nodes[bj].l.nstates) {
                bj = i;
            }
        }
        if (bj == CO_NONE ||
            (uint64_t)K->nodes[bi].l.nstates * K->nodes[bj].l.nstates > K->tuning->pair_limit)
            return -1;
    }
    *pi = bi < bj ? bi : bj;
    *pj = bi < bj ? bj : bi;
    return 0;
}

/* ---- one step ---- */

/* The product raw of parts ia and ib (node N) cut to what each other
 * live part that shares an action with it can take part in (context.c);
 * *cut is raw when nothing was cut, else the cut LTS, with keep[s] the
 * number there of raw's state s (allocated, raw->nstates). */
static int context(composer *K, const co_node *N, uint32_t ia, uint32_t ib, const co_lts *raw,
                   co_lts *cut, uint32_t **keep)
{
    co_mem *cm = &K->cm;
    uint32_t A = K->A;
    size_t m = raw->nedges ? raw->nedges : 1;
    *keep = NULL;
    *cut = *raw;
    if (!K->tuning->context_pairs || !N->niface)
        return 0;
    uint8_t *alive = co_alloc(cm, m, 1), *iface = co_alloc(cm, A, 1);
    int rc = -1;
    if (!alive || !iface)
        goto out;
    memset(alive, 1, raw->nedges);
    for (uint32_t j = 0; j < K->nnodes; j++) {
        const co_node *M = &K->nodes[j];
        if (!M->alive || j == ia || j == ib || M == N)
            continue;
        memset(iface, 0, A);
        int shares = 0;
        for (uint32_t x = 0, y = 0; x < N->niface && y < M->niface;) {
            if (N->iface[x] == M->iface[y]) {
                iface[N->iface[x]] = 1;
                shares = 1;
                x++;
                y++;
            } else if (N->iface[x] < M->iface[y]) {
                x++;
            } else {
                y++;
            }
        }
        if (shares && co_context_by(cm, raw, alive, 0, A, &M->l, A, iface,
                                     context_bound(K->tuning->context_pairs, raw)) < 0)
            goto out;
    }
    rc = co_context_apply(cm, raw, alive, cut, keep);
out:
    co_free(cm, alive, m, 1);
    co_free(cm, iface, A, 1);
    return rc;
}


static int compose_pair(composer *K, uint32_t ia, uint32_t ib)
{
    co_node *a = &K->nodes[ia], *b = &K->nodes[ib];
    /* the interface of the product, and what it closes */
    uint32_t n = a->niface + b->niface;
    uint32_t *iface = co_alloc(&K->cm, n, sizeof *iface);
    uint32_t *iface_in = co_alloc(&K->cm, n, sizeof *iface_in);
    if (!iface || !iface_in)
        return -1;
    for (uint32_t i = 0; i < a->niface; i++)
        K->in_a[a->iface[i]] = a->iface_in[i];
    for (uint32_t i = 0; i < b->niface; i++)
        K->in_b[b->iface[i]] = b->iface_in[i];
    uint32_t i = 0, j = 0, m = 0, shared = 0, closed = 0;
    while (i < a->niface || j < b->niface) {
        uint32_t x = i < a->niface ? a->iface[i] : UINT32_MAX;
        uint32_t y = j < b->niface ? b->iface[j] : UINT32_MAX;
        uint32_t act = x < y ? x : y;
        i += x == act;
        j += y == act;
        uint32_t in = K->in_a[act] + K->in_b[act];
        K->sync[act] = K->in_a[act] && K->in_b[act];
        shared += K->sync[act];
        if (in == owners(K, act)) {
            K->relabel[act] = K->A + K->action_letter[act];
            closed++;
        } else {
            K->relabel[act] = act;
            iface[m] = act;
            iface_in[m++] = in;
        }
    }
    co_node *N;
    add_node(K, &N);
    a = &K->nodes[ia];
    b = &K->nodes[ib];
    N->left = (int32_t)ia;
    N->right = (int32_t)ib;
    N->ncomps = a->ncomps + b->ncomps;
    N->iface = iface;
    N->iface_in = iface_in;
    N->niface = m;
    N->iface_room = n;
    double t0 = mono_now();
    co_lts raw;
    const co_progress_fn pf = { show_progress, K };
    int rc = co_product(&K->cm, &a->l, &b->l, K->A, K->sync, K->relabel, &raw, &N->pairs, &pf);
    for (uint32_t x = 0; x < a->niface; x++) {
        K->in_a[a->iface[x]] = 0;
        K->sync[a->iface[x]] = 0;
        K->relabel[a->iface[x]] = a->iface[x];
    }
    for (uint32_t x = 0; x < b->niface; x++) {
        K->in_b[b->iface[x]] = 0;
        K->sync[b->iface[x]] = 0;
        K->relabel[b->iface[x]] = b->iface[x];
    }
    if (rc < 0)
        return -1;
    co_lts cut;
    uint32_t *keep = NULL;
    rc = context(K, N, ia, ib, &raw, &cut, &keep);
    if (rc == 0)
        rc = settle(K, N, &cut);
    if (keep) {
        /* state_block holds the cut's states: onto raw's, from the top,
         * since keep[s] <= s */
        uint32_t *block = N->state_block;
        if (rc == 0 && !(N->state_block = co_alloc(&K->cm, raw.nstates, sizeof(uint32_t)))) {
            N->state_block = block;
            rc = -1;
        }
        if (rc == 0) {
            for (uint32_t s = 0; s < raw.nstates; s++)
                N->state_block[s] = keep[s] == CO_NONE ? CO_NONE : block[keep[s]];
            co_free(&K->cm, block, N->nraw, sizeof *block);
            N->nraw = raw.nstates;
        }
    }
    if (K->opt->verbose && rc == 0) {
        char na[64], nb[64], in_context[80] = "";
        node_name(K, ia, na, sizeof na);
        node_name(K, ib, nb, sizeof nb);
        if (keep)
            snprintf(in_context, sizeof in_context, "; in its context %u states, %zu edges",
                     cut.nstates, cut.nedges);
        fprintf(stderr, "compose: #%u = %s (%u states) x %s (%u states), %u actions shared, %u "
                "closed: %u states, %zu edges%s; minimised %u states, %zu edges (%.2f s)\n",
                K->nnodes - 1, na, a->l.nstates, nb, b->l.nstates, shared, closed, raw.nstates,
                raw.nedges, in_context, N->l.nstates, N->l.nedges, mono_now() - t0);
    }
    if (keep) {
        co_lts_free(&K->cm, &cut);
        co_free(&K->cm, keep, raw.nstates, sizeof *keep);
    }
    co_lts_free(&K->cm, &raw);
    a->alive = b->alive = 0;
    co_lts_free(&K->cm, &a->l);
    co_lts_free(&K->cm, &b->l);
    return rc;
}

/* ---- the end ---- */

/* Drops the states without an infinite run (when only those count) and
 * minimises again; the root's state_block then leads to the final LTS. */
static int finish_root(composer *K, co_node *R, int infinite_only, co_lts *final)
{
    co_mem *cm = &K->cm;
    *final = R->l;
    memset(&R->l, 0, sizeof R->l);
    if (!infinite_only)
        return 0;
    uint32_t n = final->nstates;
    uint32_t *keep = co_alloc(cm, n, sizeof *keep);
    co_lts pruned;
    if (!keep || co_prune_finite(cm, final, &pruned, keep) < 0) {
        co_free(cm, keep, n, sizeof *keep);
        return -1;
    }
    uint32_t *block = co_alloc(cm, pruned.nstates, sizeof *block);
    co_lts again;
    memset(&again, 0, sizeof again);
    if (!block || (pruned.nstates && co_minimise(cm, &pruned, &again, block) < 0)) {
        co_free(cm, keep, n, sizeof *keep);
        co_free(cm, block, pruned.nstates, sizeof *block);
        co_lts_free(cm, &pruned);
        return -1;
    }
    for (uint32_t s = 0; s < R->nraw; s++) {
        uint32_t q = R->state_block[s];
        q = q == CO_NONE ? CO_NONE : keep[q];
        R->state_block[s] = q == CO_NONE ? CO_NONE : block[q];
    }
    if (K->opt->verbose)
        fprintf(stderr, "compose: final: %u states, %zu edges; with an infinite run %u states, "
                "%zu edges; minimised %u states, %zu edges\n", final->nstates, final->nedges,
                pruned.nstates, pruned.nedges, again.nstates, again.nedges);
    co_free(cm, keep, n, sizeof *keep);
    co_free(cm, block, pruned.nstates, sizeof *block);
    co_lts_free(cm, &pruned);
    co_lts_free(cm, final);
    *final = again;
    return 0;
}

/* ---- the formula on what is left ---- */

static const uint32_t *lts_tuple(void *ctx, uint32_t s)
{
    co_lts_system *S = ctx;
    S->one = s;
    return &S->one;
}

static const uint32_t *network_tuple(void *ctx, uint32_t s)
{
    return co_network_tuple(ctx, s);
}

/* The formula on sys, whose state s stands for the states tuple(ctx, s)
 * of the parts part[0..nparts) (on chk, the check's account), and its
 * counterexample lifted. */
static void check_system(composer *K, co_mem *chk, const co_system *sys, const uint32_t *part,
                         uint32_t nparts, const uint32_t *(*tuple)(void *, uint32_t),
                         const tree_t *formula, result_t *res)
{
    const check_options *opt = K->opt;
    co_mem *cm = &K->cm;
    co_lasso lasso;
    uint64_t states, edges;
    char why[160] = "";
    double t0 = mono_now();
    int r = co_ltl_check(chk, K->cn, &K->L, sys, formula, opt->ltl_infinite_only, opt->want_run,
                         &K->prog, &lasso, &states, &edges, why, sizeof why);
    res->states += states;
    res->edges += edges;
    if (chk->peak > res->peak_bytes)
        res->peak_bytes = chk->peak;
    if (opt->verbose)
        fprintf(stderr, "compose: the formula: %llu product states, %llu edges: %s (%.2f s)\n",
                (unsigned long long)states, (unsigned long long)edges,
                r == 0 ? "holds" : r == 1 ? "fails" : "gave up", mono_now() - t0);
    if (r == -2)
        result_unknown(res, why);
    if (r < 0)
        return;
    res->answer = r ? ANSWER_NO : ANSWER_YES;
    if (r == 0 || !opt->want_run)
        return;
    /* the lasso's letters and parts' states, the repetitions of a dead
     * end dropped */
    size_t n = 0, cap = lasso.len ? lasso.len : 1;
    int stutters = 0;
    uint32_t *letter = co_alloc(cm, cap, sizeof *letter);
    uint32_t *dst = cap <= SIZE_MAX / nparts ? co_alloc(cm, cap * nparts, sizeof *dst) : NULL;
    if (letter && dst) {
        for (size_t i = 0; i < lasso.len; i++) {
            uint64_t st = lasso.step[i];
            if (st == CO_STUTTER_STEP) {
                stutters = 1;
                continue;
            }
            letter[n] = (uint32_t)(st >> 32);
            memcpy(dst + n * nparts, tuple(sys->ctx, (uint32_t)st), nparts * sizeof *dst);
            n++;
        }
        const co_abstract_run ar = { nparts, part, letter, dst, n,
                                     stutters ? n : lasso.loop_start };
        double t1 = mono_now();
        int lifted = co_lift(cm, K->cn, &K->C, &K->L, K->nodes, K->nnodes, &ar, res);
        if (opt->verbose && lifted == 0)
            fprintf(stderr, "compose: the lasso of %zu steps lifted to %zu steps of the net "
                    "(%.2f s)\n", n, res->run_len, mono_now() - t1);
        if (lifted < 0 && co_lift_contradicts(cm->gave_up)) {
            /* the reduced system has a run the net has not: its NO rests
             * on nothing */
            char why[sizeof res->reason];
            snprintf(why, sizeof why, "compose: %.*s", (int)(sizeof why - 10), cm->gave_up);
            result_unknown(res, why);
        } else if (lifted < 0) {   /* a limit: the answer stands, only its evidence is missing */
            fprintf(stderr, "mck: compose: no counterexample: %s\n", cm->gave_up);
        }
    } else {
        fprintf(stderr, "mck: compose: no memory for the counterexample\n");
    }
    cm->gave_up = NULL;
    co_free(cm, letter, cap, sizeof *letter);
    co_free(cm, dst, cap * nparts, sizeof *dst);
    co_free_grown(chk, &lasso.step, &lasso.cap, sizeof *lasso.step);
}

/* The formula on the live parts explored together (on chk). */
static void explore_parts(composer *K, co_mem *chk, const tree_t *formula, result_t *res)
{
    co_mem *cm = &K->cm;
    uint32_t live = 0;
    for (uint32_t i = 0; i < K->nnodes; i++)
        live += K->nodes[i].alive;
    uint32_t *part = co_alloc(cm, live, sizeof *part), n = 0;
    if (!part)
        return;
    for (uint32_t i = 0; i < K->nnodes; i++)
        if (K->nodes[i].alive)
            part[n++] = i;
    if (K->opt->verbose)
        fprintf(stderr, "compose: %u parts explored together%s\n", n,
                chk->max_states && chk->max_states != K->opt->max_states ? ", a first look" : "");
    co_network W;
    if (co_network_init(&W, chk, K->nodes, part, n, K->A, K->action_letter) == 0) {
        const co_system sys = { &W, W.init, co_network_steps };
        check_system(K, chk, &sys, part, n, network_tuple, formula, res);
    }
    co_network_free(&W);
    co_free(cm, part, live, sizeof *part);
}

/* A first look before composing: the formula on the minimised components
 * explored together, up to probe_states states of the product with the
 * automaton (compose.h; and the carve compose.probe's time).  A formula
 * whose automaton soon has nothing left to follow, or whose counterexample
 * lies near the start, needs no composition; the look costs little
 * beside one that does.  1: answered (or stopped by a signal), 0: go on
 * composing. */
static int probe(composer *K, const tree_t *formula, result_t *res)
{
    const check_options *opt = K->opt;
    budget_t b = budget_carve(opt->budget, CARVE_COMPOSE_PROBE);
    co_mem pm;
    memset(&pm, 0, sizeof pm);
    pm.budget = &b;
    pm.limit = b.bytes;
    uint64_t cap = K->tuning->probe_states;
    pm.max_states = opt->max_states && opt->max_states < cap ? opt->max_states : cap;
    explore_parts(K, &pm, formula, res);
    if (!pm.gave_up || *opt->budget->interrupted) {
        snprintf(res->net_note, sizeof res->net_note,
                 "%u components, explored together without composing", K->C.n);
        if (pm.gave_up)
            result_unknown(res, pm.gave_up);
        return 1;
    }
    if (opt->verbose)
        fprintf(stderr, "compose: the first look gave up (%s): composing\n", pm.gave_up);
    return 0;
}

static int has_next(const tree_t *t)
{
    return t && (t->op == T_X || has_next(t->l) || has_next(t->r));
}

/* Without X, and when only infinite runs count: the snowball of
 * snowball.c, steps no proposition names hidden.  1: answered (or a
 * limit), 0: its products grew past their limit, compose without hiding. */
static int snowball(composer *K, const tree_t *formula, result_t *res)
{
    const check_options *opt = K->opt;
    /* its own share of the time: where it cannot decide, composing without
     * hiding still may (a counterexample the search of the last parts
     * finds at once where the snowball's search of its own does not) */
    budget_t share = budget_carve(opt->budget, CARVE_COMPOSE_SNOWBALL);
    budget_t check = budget_carve(&share, CARVE_COMPOSE_CHECK);
    const budget_t *parts = K->cm.budget;
    K->cm.budget = &share;
    co_mem chk;
    memset(&chk, 0, sizeof chk);
    chk.budget = &check;
    chk.limit = check.bytes;
    chk.max_states = opt->max_states;
    co_snow S;
    memset(&S, 0, sizeof S);
    S.cm = &K->cm;
    S.chk = &chk;
    S.cn = K->cn;
    S.C = &K->C;
    S.L = &K->L;
    S.A = K->A;
    S.action_letter = K->action_letter;
    S.opt = opt;
    S.prog = &K->prog;
    S.limit = K->tuning->snowball_limit;
    S.context_pairs = K->tuning->context_pairs;
    int r = co_snowball(&S, formula, res);
    K->cm.budget = parts;
    res->states += S.raw_states;
    res->edges += S.raw_edges;
    if (S.largest > K->largest)
        K->largest = S.largest;
    if (K->cm.peak > res->peak_bytes)
        res->peak_bytes = K->cm.peak;
    if (chk.peak > res->peak_bytes)
        res->peak_bytes = chk.peak;
    co_snowball_free(&S);
    const char *why = chk.gave_up ? chk.gave_up : K->cm.gave_up;
    if (S.unlifted) {
        /* its NO does not lift to the net: the argument of the gap flag
         * failed here, so the composition without hiding (strong
         * bisimulation only) decides instead */
        fprintf(stderr, "mck: compose: the snowball's counterexample does not lift (%s): "
                "composing without hiding\n", S.unlifted);
        why = NULL;
        r = 0;
    }
    if (r == 0 || (why && !strcmp(why, "time limit reached") && !budget_expired(opt->budget))) {
        /* past its limit or its share of the time: compose without hiding */
        if (why && opt->verbose)
            fprintf(stderr, "compose: the snowball's share of the time is over: composing "
                    "without hiding\n");
        K->cm.gave_up = NULL;
        res->answer = ANSWER_UNKNOWN;
        res->reason[0] = '\0';
        result_set_run(res, RUN_NONE, NULL, 0, RESULT_NO_LOOP);
        return 0;
    }
    if (chk.gave_up)
        result_unknown(res, chk.gave_up);
    return 1;
}

/* The reader's actions serve only when every proposition is a union of
 * whole actions. */
static int letters_per_action(composer *K)
{
    uint32_t A = K->C.nactions, T = K->cn->ntransitions;
    co_free(&K->cm, K->action_letter, K->A, sizeof *K->action_letter);
    K->A = A;
    if (!(K->action_letter = co_alloc(&K->cm, A, sizeof *K->action_letter)))
        return -1;
    for (uint32_t a = 0; a < A; a++)
        K->action_letter[a] = CO_NONE;
    for (uint32_t t = 0; t < T; t++) {
        uint32_t a = K->C.trans_action[t], x = K->L.trans_letter[t];
        if (K->action_letter[a] == CO_NONE)
            K->action_letter[a] = x;
        else if (K->action_letter[a] != x)
            return 0;
    }
    return 1;
}

static void run_composer(composer *K, const tree_t *formula, result_t *res)
{
    const check_options *opt = K->opt;
    co_mem *cm = &K->cm;
    /* sized so that "compose: " and the reason still fit in res->reason */
    char why[sizeof res->reason - sizeof "compose: " + 1];
    why[0] = '\0';
    if (co_comps_find(cm, K->cn, &K->C, why, sizeof why) < 0) {
        if (!cm->gave_up) {
            char reason[sizeof res->reason];
            snprintf(reason, sizeof reason, "compose: %s", why);
            result_unknown(res, reason);
        }
        return;
    }
    if (opt->verbose)
        fprintf(stderr, "compose: %u components from %s, %u actions%s%s%s\n", K->C.n,
                K->C.source, K->C.nactions,
                K->C.reader_actions ? " (the reader's)" : " (one a transition)",
                why[0] ? ": " : "", why);
    if (co_letters_find(cm, K->cn, formula, &K->L) < 0)
        return;
    int per_action = letters_per_action(K);
    if (per_action < 0)
        return;
    if (!per_action) {
        if (opt->verbose)
            fprintf(stderr, "compose: a proposition splits an action: one action a transition\n");
        if (co_comps_per_transition(cm, K->cn, &K->C) < 0 || letters_per_action(K) <= 0)
            return;
    }
    uint32_t A = K->A;
    if (!(K->nodes = co_alloc(cm, 2 * (size_t)K->C.n, sizeof *K->nodes)) ||
        !(K->sync = co_alloc(cm, A, sizeof *K->sync)) ||
        !(K->relabel = co_alloc(cm, A, sizeof *K->relabel)) ||
        !(K->in_a = co_alloc(cm, A, sizeof *K->in_a)) ||
        !(K->in_b = co_alloc(cm, A, sizeof *K->in_b)))
        return;
    for (uint32_t a = 0; a < A; a++)
        K->relabel[a] = a;
    for (uint32_t k = 0; k < K->C.n; k++) {
        if (make_leaf(K, k) < 0)
            return;
        if (opt->verbose) {
            char name[64];
            node_name(K, K->nnodes - 1, name, sizeof name);
            const co_node *N = &K->nodes[K->nnodes - 1];
            fprintf(stderr, "compose: component %s: %u states; minimised %u states, %zu edges, "
                    "%u actions shared\n", name, N->nraw, N->l.nstates, N->l.nedges, N->niface);
        }
    }
    if (K->tuning->context_pairs) {
        uint64_t before = 0, after = 0;
        for (uint32_t k = 0; k < K->C.n; k++)
            before += K->nodes[k].l.nstates;
        if (co_context_leaves(cm, &K->C, A, K->nodes, K->tuning->context_pairs) < 0)
            return;
        for (uint32_t k = 0; k < K->C.n; k++)
            after += K->nodes[k].l.nstates;
        if (opt->verbose)
            fprintf(stderr, "compose: the components in their context: %llu states in all, "
                    "%llu before\n", (unsigned long long)after, (unsigned long long)before);
    }
    if (K->C.n > 1 && K->tuning->probe_states) {
        int r = probe(K, formula, res);
        if (r != 0)
            return;
    }
    if (K->tuning->snowball_limit && opt->ltl_infinite_only && !has_next(formula)) {
        int r = snowball(K, formula, res);
        if (r != 0)
            return;
    }
    uint32_t live = K->C.n;
    for (; live > 1; live--) {
        uint32_t i, j;
        if (choose_pair(K, &i, &j) < 0)
            break;
        if (compose_pair(K, i, j) < 0)
            return;
    }
    res->states += K->raw_states;
    res->edges += K->raw_edges;
    if (cm->peak > res->peak_bytes)
        res->peak_bytes = cm->peak;
    budget_t check = budget_carve(opt->budget, CARVE_COMPOSE_CHECK);
    co_mem chk;
    memset(&chk, 0, sizeof chk);
    chk.budget = &check;
    chk.limit = check.bytes;
    chk.max_states = opt->max_states;
    if (live > 1) {
        snprintf(res->net_note, sizeof res->net_note,
                 "%u components; largest composite %u states; the last %u parts explored "
                 "together", K->C.n, K->largest, live);
        explore_parts(K, &chk, formula, res);
    } else {
        co_node *R = &K->nodes[K->nnodes - 1];
        co_lts fin;
        if (finish_root(K, R, opt->ltl_infinite_only, &fin) < 0)
            return;
        snprintf(res->net_note, sizeof res->net_note,
                 "%u components composed; largest composite %u states; final LTS %u states",
                 K->C.n, K->largest, fin.nstates);
        if (!fin.nstates) {
            /* no infinite run at all: nothing can contradict the formula */
            res->answer = ANSWER_YES;
        } else {
            co_lts_system S = { &chk, &fin, K->A, NULL, 0, 0 };
            const co_system sys = { &S, fin.init, co_lts_steps };
            uint32_t root = K->nnodes - 1;
            check_system(K, &chk, &sys, &root, 1, lts_tuple, formula, res);
            co_free_grown(&chk, &S.buf, &S.cap, sizeof *S.buf);
        }
        co_lts_free(cm, &fin);
    }
    if (chk.gave_up)
        result_unknown(res, chk.gave_up);
}

static void free_composer(composer *K)
{
    co_mem *cm = &K->cm;
    for (uint32_t i = 0; i < K->nnodes; i++) {
        co_node *N = &K->nodes[i];
        co_lts_free(cm, &N->l);
        co_free(cm, N->state_block, N->nraw, sizeof(uint32_t));
        co_free(cm, N->iface, N->iface_room, sizeof(uint32_t));
        co_free(cm, N->iface_in, N->iface_room, sizeof(uint32_t));
        co_pairs_free(cm, &N->pairs);
    }
    co_free(cm, K->nodes, 2 * (size_t)K->C.n, sizeof *K->nodes);
    co_free(cm, K->sync, K->A, sizeof *K->sync);
    co_free(cm, K->relabel, K->A, sizeof *K->relabel);
    co_free(cm, K->in_a, K->A, sizeof *K->in_a);
    co_free(cm, K->in_b, K->A, sizeof *K->in_b);
    co_free(cm, K->action_letter, K->A, sizeof *K->action_letter);
    co_letters_free(cm, K->cn, &K->L);
    co_comps_free(cm, K->cn, &K->C);
}

/* Products of more pairs cost more than exploring the parts together
 * saves (RERS 2017 105 at 3 s a property: 0 answered with 2^20, 12 with
 * 2^16); a first look of 2^17 states costs a tenth of a second; the same
 * holds for the snowball (105: 10 answered with 2^20, 15 with 2^16 and
 * 2^18; 107 and 109: 7 and 11 with 2^16, 4 and 8 with 2^18). */
const compose_tuning compose_default_tuning = { (uint64_t)1 << 17, (uint64_t)1 << 16,
                                                (uint64_t)1 << 16, 1, (uint64_t)1 << 22 };

void compose_run(const cnet_t *cn, const tree_t *formula, prop_kind kind,
                 const check_options *opt, result_t *res)
{
    compose_run_tuned(cn, formula, kind, opt, &compose_default_tuning, res);
}

static void compose_alone(const cnet_t *cn, const tree_t *formula, const check_options *opt,
                          const compose_tuning *tuning, result_t *res)
{
    double start = mono_now();
    composer K;
    memset(&K, 0, sizeof K);
    budget_t parts = budget_carve(opt->budget, CARVE_COMPOSE_PARTS);
    K.cm.budget = &parts;
    K.cm.limit = parts.bytes;
    K.cm.max_states = opt->max_states;
    K.cn = cn;
    K.opt = opt;
    K.start = start;
    K.tuning = tuning;
    progress_start(&K.prog, opt, "compose", NULL, start);
    result_add_technique(res, "COMPOSITIONAL");
    run_composer(&K, formula, res);
    if (K.cm.gave_up)
        result_unknown(res, K.cm.gave_up);
    if (K.cm.peak > res->peak_bytes)
        res->peak_bytes = K.cm.peak;
    if (!res->states)
        res->states = K.raw_states;
    free_composer(&K);
    res->seconds = mono_now() - start;
}

/* What composing left open, the stubborn search of the net tries with the
 * time left: on RERS 2017 the two answer different properties (composing
 * where minimisation or the first look pays, the search where the
 * components are counters no bisimulation merges and the property's
 * actions are few).  The net is the unreduced composition, so the
 * search's counterexample is one of the net as it is. */
static void stubborn_after(const cnet_t *cn, const tree_t *formula, const check_options *opt,
                           result_t *res)
{
    char first[sizeof res->reason];
    snprintf(first, sizeof first, "%s", res->reason);
    if (opt->verbose)
        fprintf(stderr, "compose: UNKNOWN (%s) after %.2f s: the stubborn search of the net "
                "with the %.2f s left\n", first, res->seconds, budget_left(opt->budget));
    result_t r;
    result_init(&r);
    stubborn_run(cn, formula, KIND_LTL, opt, &r);
    uint64_t states = res->states, edges = res->edges;
    double seconds = res->seconds;
    size_t peak = res->peak_bytes;
    char techniques[sizeof res->techniques], note[sizeof res->net_note];
    snprintf(techniques, sizeof techniques, "%s", res->techniques);
    snprintf(note, sizeof note, "%s", res->net_note);
    result_clear(res);
    *res = r;
    /* how far composing got (-v's net: line), unless the search ran on
     * something other than the net */
    if (!res->net_note[0])
        snprintf(res->net_note, sizeof res->net_note, "%s", note);
    res->states += states;
    res->edges += edges;
    res->seconds += seconds;
    if (peak > res->peak_bytes)
        res->peak_bytes = peak;
    char searched[sizeof res->techniques];
    snprintf(searched, sizeof searched, "%s", res->techniques);
    snprintf(res->techniques, sizeof res->techniques, "%s", techniques);
    for (char *t = strtok(searched, " "); t; t = strtok(NULL, " "))
        result_add_technique(res, t);
    if (res->answer == ANSWER_UNKNOWN && strcmp(first, res->reason)) {
        char both[sizeof res->reason];
        snprintf(both, sizeof both, "compose: %.64s; stubborn: %.64s", first, res->reason);
        snprintf(res->reason, sizeof res->reason, "%s", both);
    }
}

void compose_run_tuned(const cnet_t *cn, const tree_t *formula, prop_kind kind,
                       const check_options *opt, const compose_tuning *tuning, result_t *res)
{
    if (kind != KIND_LTL || !formula) {
        result_unknown(res, "kind not supported by the compose checker");
        return;
    }
    if (opt->fairness != FAIRNESS_NONE) {
        result_unknown(res, "the compose checker does not take fairness");
        return;
    }
    if (!tuning->stubborn_after) {
        compose_alone(cn, formula, opt, tuning, res);
        return;
    }
    budget_t first = budget_carve(opt->budget, CARVE_COMPOSE_FIRST);
    check_options o = *opt;
    o.budget = &first;
    compose_alone(cn, formula, &o, tuning, res);
    if (res->answer == ANSWER_UNKNOWN && !budget_expired(opt->budget))
        stubborn_after(cn, formula, opt, res);
}

/* LTL whose propositions are all actions. */
static int actions_only(const tree_t *t)
{
    if (!t)
        return 1;
    switch (t->op) {
    case T_TRUE:
    case T_FALSE:
    case T_ACTION:
        return 1;
    case T_NOT:
    case T_AND:
    case T_OR:
    case T_IMPLIES:
    case T_IFF:
    case T_X:
    case T_F:
    case T_G:
    case T_U:
    case T_R:
        return actions_only(t->l) && actions_only(t->r);
    default:
        return 0;
    }
}

int compose_accepts(const tree_t *t, prop_kind kind, char *why, size_t whylen)
{
    if (kind == KIND_LTL && t && actions_only(t))
        return 1;
    snprintf(why, whylen, kind == KIND_LTL ?
             "compose checker: ltl whose propositions are all actions (RERS), no place or "
             "fireability atoms" :
             "compose checker: ltl only");
    return 0;
}
