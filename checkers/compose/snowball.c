/* Composing for LTL without X, steps no proposition names hidden
 * (composeint.h; the argument is docs/compose.md, "The gap flag").
 *
 * A formula without X cannot tell a word from one where a letter repeats
 * fewer or more times in a row.  Of the steps no proposition names (the
 * letter of none, written 0 here) it can therefore see only whether at
 * least one of them lies between two named steps, and whether the run ends
 * with them forever.  A global observer, the gap flag, keeps exactly that:
 * it takes part in every step, is set by a 0-step and reset by a named
 * step v, which it reports as (v, flag).  With the observer the 0-steps
 * can be hidden (tau) and the parts minimised modulo branching
 * bisimulation with explicit divergence, a congruence for this composition (tau never
 * synchronises) that keeps the words of (v, flag) reports and whether a run
 * ends in an endless hidden tail.
 *
 * The observer is a component of two states that has every action, its
 * edges labelled (action, flag): an action is closed only once every
 * component that has it has joined the part the observer is in.  So the
 * parts are a snowball: the observer first, then one component at a time,
 * the one that closes most, each product minimised.  A closed action's
 * steps become tau (letter 0) or (letter, flag).  At the end, tau is read
 * as the letter 0 and (v, 1) as the letters 0 then v, which gives a word
 * the formula cannot tell from the run's; the formula is checked on that
 * (ltlprod.c), and its counterexample lifted by liftbranch.c.
 *
 * Labels: (a, g) = 2a + g for an open action a seen with flag g; tau =
 * 2A; (v, g) = 2A + 1 + 2v + g; the observer's move for an action of
 * letter v that no component in the snowball has, ALONE below.  A
 * component's leaf keeps its actions as they are (labels below A): all of
 * them synchronise with the observer. */
#include "base/budget.h"
#include "base/clock.h"
#include "checkers/compose/composeint.h"

#include <stdio.h>
#include <string.h>

#define TAU(A) (2 * (A))

static uint32_t owners(const co_snow *S, uint32_t a)
{
    return S->C->owner_first[a + 1] - S->C->owner_first[a];
}
#define OUT(A, v, g) (2 * (A) + 1 + 2 * (v) + (g))
/* the observer's move for any action of letter v no component of the
 * snowball has yet: one label per letter, not per action (the moves are
 * the same, so merging their names changes no block) */
#define ALONE(A, L, v, g) (2 * (A) + 1 + 2 * (L) + 2 * (v) + (g))

/* The observer: states 0 and 1 (the flag), for every letter of an action
 * that some component has, an edge (alone v, g) from g to 1 when v is 0,
 * else to 0. */
static int observer(co_snow *S, co_node *N)
{
    co_mem *cm = S->cm;
    uint32_t A = S->A, NL = S->L->nletters, n = 0;
    for (uint32_t v = 0; v < NL; v++)
        n += S->pending[v] > 0;
    co_lts *l = &N->l;
    memset(N, 0, sizeof *N);
    N->left = N->right = -1;
    N->flag = 1;
    N->comp = CO_NONE;
    l->nstates = 2;
    l->cap_first = 3;
    l->cap_edges = 2 * (size_t)n + 1;
    if (!(l->first = co_alloc(cm, 3, sizeof *l->first)) ||
        !(l->lab = co_alloc(cm, l->cap_edges, sizeof *l->lab)) ||
        !(l->dst = co_alloc(cm, l->cap_edges, sizeof *l->dst)) ||
        !(N->state_block = co_alloc(cm, 2, sizeof *N->state_block)))
        return -1;
    size_t e = 0;
    for (uint32_t g = 0; g < 2; g++) {
        l->first[g] = (uint32_t)e;
        for (uint32_t v = 0; v < NL; v++)
            if (S->pending[v]) {
                l->lab[e] = ALONE(A, NL, v, g);
                l->dst[e] = v == S->L->empty ? 1 : 0;
                e++;
            }
    }
    l->first[2] = (uint32_t)e;
    l->nedges = e;
    N->nraw = 2;
    N->state_block[0] = 0;
    N->state_block[1] = 1;
    return 0;
}

/* Component k's leaf: its LTS, actions as labels, minimised (strong
 * bisimulation is finer than branching: a congruence too). */
static int leaf(co_snow *S, uint32_t k, co_node *N)
{
    co_mem *cm = S->cm;
    memset(N, 0, sizeof *N);
    N->left = N->right = -1;
    N->comp = k;
    uint32_t nlocal = S->C->comp_first[k + 1] - S->C->comp_first[k];
    uint32_t *state_of = co_alloc(cm, nlocal, sizeof *state_of);
    co_lts raw;
    memset(&raw, 0, sizeof raw);
    uint64_t *scratch = NULL;
    size_t cap = 0;
    uint32_t *block = NULL;
    int rc = -1;
    if (!state_of || co_comps_leaf(cm, S->C, k, &raw, state_of) < 0 ||
        co_lts_normalise(cm, &raw, &scratch, &cap) < 0 ||
        !(block = co_alloc(cm, raw.nstates, sizeof *block)) ||
        co_minimise(cm, &raw, &N->l, block) < 0 ||
        !(N->state_block = co_alloc(cm, nlocal, sizeof *N->state_block)))
        goto out;
    for (uint32_t s = 0; s < nlocal; s++)
        N->state_block[s] = state_of[s] == CO_NONE ? CO_NONE : block[state_of[s]];
    N->nraw = nlocal;
    rc = 0;
out:
    co_free(cm, block, raw.nstates, sizeof *block);
    co_free(cm, state_of, nlocal, sizeof *state_of);
    co_free_grown(cm, &scratch, &cap, sizeof *scratch);
    co_lts_free(cm, &raw);
    return rc;
}

/* Which component joins next: the one after which the snowball has the
 * fewest actions still open (an open action keeps apart states a closed
 * one would let merge), then the smaller. */
static uint32_t next_component(co_snow *S, const uint8_t *joined)
{
    const co_comps *C = S->C;
    uint32_t best = CO_NONE, best_open = 0, best_size = 0;
    uint32_t open_now = 0;
    for (uint32_t a = 0; a < S->A; a++)
        open_now += S->in[a] > 0 && S->in[a] < owners(S, a);
    for (uint32_t k = 0; k < C->n; k++) {
        if (joined[k])
            continue;
        int64_t open = open_now;
        for (uint32_t j = C->comp_move_first[k]; j < C->comp_move_first[k + 1]; j++) {
            uint32_t a = C->trans_action[C->move_trans[C->comp_move[j]]];
            /* each action of k once: the first move of it */
            int first = 1;
            for (uint32_t i = C->comp_move_first[k]; i < j && first; i++)
                first = C->trans_action[C->move_trans[C->comp_move[i]]] != a;
            if (!first)
                continue;
            int was = S->in[a] > 0 && S->in[a] < owners(S, a);
            int will = S->in[a] + 1 < owners(S, a);
            open += will - was;
        }
        uint32_t size = S->nodes[1 + k].l.nstates;
        if (best == CO_NONE || (uint32_t)open < best_open ||
            ((uint32_t)open == best_open && size < best_size)) {
            best = k;
            best_open = (uint32_t)open;
            best_size = size;
        }
    }
    return best;
}

/* The product of the snowball F and leaf Q, both minimised: Q moves only
 * with F (the observer has every action), F's steps on actions Q lacks
 * and its hidden and reported steps move F alone. */
static int join(co_snow *S, const co_lts *F, const co_lts *Q, const uint8_t *has,
                const uint8_t *closes, co_lts *out, co_pairs *pairs)
{
    co_mem *cm = S->cm;
    uint32_t A = S->A, NL = S->L->nletters;
    memset(out, 0, sizeof *out);
    memset(pairs, 0, sizeof *pairs);
    uint64_t *keys = NULL;
    size_t ckeys = 0, clab = 0, cdst = 0;
    int rc = -1;
    if (co_pairs_add(cm, pairs, F->init, Q->init) == CO_NONE)
        goto out;
    for (uint32_t s = 0; s < pairs->n; s++) {
        if (co_tick(cm) < 0)
            goto out;
        uint32_t x = co_pairs_x(pairs, s), y = co_pairs_y(pairs, s);
        size_t nk = 0;
        for (uint32_t e = F->first[x]; e < F->first[x + 1]; e++) {
            uint32_t lab = F->lab[e];
            if (lab >= ALONE(A, NL, 0, 0)) {
                /* the observer alone: Q's actions of this letter that the
                 * snowball does not have yet synchronise with it */
                uint32_t v = (lab - ALONE(A, NL, 0, 0)) / 2, g = (lab - ALONE(A, NL, 0, 0)) % 2;
                for (uint32_t f = Q->first[y]; f < Q->first[y + 1]; f++) {
                    uint32_t a = Q->lab[f];
                    if (S->in[a] != 1 || S->action_letter[a] != v)
                        continue;   /* another of Q's, or one the snowball has */
                    uint32_t out_lab = !closes[a] ? 2 * a + g :
                                       v == S->L->empty ? TAU(A) : OUT(A, v, g);
                    uint32_t d = co_pairs_add(cm, pairs, F->dst[e], Q->dst[f]);
                    if (d == CO_NONE ||
                        co_grow(cm, &keys, &ckeys, nk + 1, sizeof *keys) < 0)
                        goto out;
                    keys[nk++] = (uint64_t)out_lab << 32 | d;
                }
                /* and it stays, for the actions still outside, while any */
                if (!S->pending[v])
                    continue;
                uint32_t d = co_pairs_add(cm, pairs, F->dst[e], y);
                if (d == CO_NONE || co_grow(cm, &keys, &ckeys, nk + 1, sizeof *keys) < 0)
                    goto out;
                keys[nk++] = (uint64_t)lab << 32 | d;
            } else if (lab < 2 * A && has[lab / 2]) {
                uint32_t a = lab / 2, g = lab % 2;
                uint32_t out_lab = !closes[a] ? lab :
                                   S->action_letter[a] == S->L->empty ? TAU(A) :
                                   OUT(A, S->action_letter[a], g);
                for (uint32_t f = Q->first[y]; f < Q->first[y + 1]; f++) {
                    if (Q->lab[f] != a)
                        continue;
                    uint32_t d = co_pairs_add(cm, pairs, F->dst[e], Q->dst[f]);
                    if (d == CO_NONE ||
                        co_grow(cm, &keys, &ckeys, nk + 1, sizeof *keys) < 0)
                        goto out;
                    keys[nk++] = (uint64_t)out_lab << 32 | d;
                }
            } else {
                uint32_t d = co_pairs_add(cm, pairs, F->dst[e], y);
                if (d == CO_NONE || co_grow(cm, &keys, &ckeys, nk + 1, sizeof *keys) < 0)
                    goto out;
                keys[nk++] = (uint64_t)lab << 32 | d;
            }
        }
        nk = co_sort_unique(keys, nk);
        if (out->nedges + nk >= CO_NONE) {
            cm->gave_up = "memory budget exhausted";
            goto out;
        }
        if (co_grow(cm, &out->first, &out->cap_first, (size_t)s + 2, sizeof *out->first) < 0 ||
            co_grow(cm, &out->lab, &clab, out->nedges + nk, sizeof *out->lab) < 0 ||
            co_grow(cm, &out->dst, &cdst, out->nedges + nk, sizeof *out->dst) < 0)
            goto out;
        out->first[s] = (uint32_t)out->nedges;
        for (size_t i = 0; i < nk; i++) {
            out->lab[out->nedges + i] = (uint32_t)(keys[i] >> 32);
            out->dst[out->nedges + i] = (uint32_t)keys[i];
        }
        out->nedges += nk;
    }
    if (co_grow(cm, &out->first, &out->cap_first, (size_t)pairs->n + 1, sizeof *out->first) < 0)
        goto out;
    out->first[pairs->n] = (uint32_t)out->nedges;
    out->nstates = pairs->n;
    out->init = 0;
    out->cap_edges = clab;
    rc = 0;
out:
    co_free_grown(cm, &keys, &ckeys, sizeof *keys);
    if (rc < 0) {
        co_free_grown(cm, &out->first, &out->cap_first, sizeof *out->first);
        co_free_grown(cm, &out->lab, &clab, sizeof *out->lab);
        co_free_grown(cm, &out->dst, &cdst, sizeof *out->dst);
        memset(out, 0, sizeof *out);
    }
    return rc;
}

/* The product raw of the snowball and component k cut to what the
 * components still outside can take part in (context.c), each against
 * its leaf; *cut is raw when nothing was cut, else the cut LTS, with
 * keep[s] the number there of raw's state s (allocated, raw->nstates). */
static int context(co_snow *S, const uint8_t *joined, uint32_t k, const co_lts *raw, co_lts *cut,
                   uint32_t **keep)
{
    co_mem *cm = S->cm;
    const co_comps *C = S->C;
    uint32_t A = S->A;
    size_t m = raw->nedges ? raw->nedges : 1;
    *keep = NULL;
    *cut = *raw;
    if (!S->context_pairs)
        return 0;
    uint8_t *alive = co_alloc(cm, m, 1), *iface = co_alloc(cm, A, 1);
    int rc = -1;
    if (!alive || !iface)
        goto out;
    memset(alive, 1, raw->nedges);
    for (uint32_t j = 0; j < C->n; j++) {
        if (joined[j] || j == k)
            continue;
        memset(iface, 0, A);
        int shares = 0;
        for (uint32_t i = C->comp_move_first[j]; i < C->comp_move_first[j + 1]; i++) {
            uint32_t a = C->trans_action[C->move_trans[C->comp_move[i]]];
            if (S->in[a]) {
                iface[a] = 1;
                shares = 1;
            }
        }
        if (shares && co_context_by(cm, raw, alive, 1, 2 * A, &S->nodes[1 + j].l, A, iface,
                                     context_bound(S->context_pairs, raw)) < 0)
            goto out;
    }
    rc = co_context_apply(cm, raw, alive, cut, keep);
out:
    co_free(cm, alive, m, 1);
    co_free(cm, iface, A, 1);
    return rc;
}

/* The last snowball as an LTS of letters: tau is the letter 0, (v, 0)
 * the letter v, (v, 1) the letters 0 then v through a state of its own
 * (inter_from, inter_to, inter_lab: where it starts and ends, which v). */
static int as_letters(co_snow *S, const co_lts *F, co_lts *out)
{
    co_mem *cm = S->cm;
    uint32_t A = S->A, zero = S->L->empty;
    size_t inter = 0;
    for (size_t e = 0; e < F->nedges; e++)
        inter += F->lab[e] > TAU(A) && F->lab[e] < ALONE(A, S->L->nletters, 0, 0) &&
                 (F->lab[e] - TAU(A) - 1) % 2 == 1;
    if ((size_t)F->nstates + inter >= CO_NONE) {
        cm->gave_up = "memory budget exhausted";
        return -1;
    }
    uint32_t n = F->nstates + (uint32_t)inter;
    memset(out, 0, sizeof *out);
    out->nstates = n;
    out->init = F->init;
    out->cap_first = (size_t)n + 1;
    out->cap_edges = F->nedges + inter + 1;
    S->ninter = (uint32_t)inter;
    if (!(out->first = co_alloc(cm, out->cap_first, sizeof *out->first)) ||
        !(out->lab = co_alloc(cm, out->cap_edges, sizeof *out->lab)) ||
        !(out->dst = co_alloc(cm, out->cap_edges, sizeof *out->dst)) ||
        !(S->inter_from = co_alloc(cm, inter, sizeof *S->inter_from)) ||
        !(S->inter_to = co_alloc(cm, inter, sizeof *S->inter_to)) ||
        !(S->inter_lab = co_alloc(cm, inter, sizeof *S->inter_lab)))
        return -1;
    size_t k = 0;
    uint32_t i = 0;
    for (uint32_t s = 0; s < F->nstates; s++) {
        out->first[s] = (uint32_t)k;
        for (uint32_t e = F->first[s]; e < F->first[s + 1]; e++) {
            uint32_t lab = F->lab[e];
            if (lab < TAU(A) || lab >= ALONE(A, S->L->nletters, 0, 0))
                continue;   /* nobody left to take part: never */
            if (lab == TAU(A)) {
                out->lab[k] = A + zero;
                out->dst[k++] = F->dst[e];
                continue;
            }
            uint32_t v = (lab - TAU(A) - 1) / 2, g = (lab - TAU(A) - 1) % 2;
            if (!g) {
                out->lab[k] = A + v;
                out->dst[k++] = F->dst[e];
            } else {
                S->inter_from[i] = s;
                S->inter_to[i] = F->dst[e];
                S->inter_lab[i] = v;
                out->lab[k] = A + zero;
                out->dst[k++] = F->nstates + i++;
            }
        }
    }
    for (i = 0; i < inter; i++) {
        out->first[F->nstates + i] = (uint32_t)k;
        out->lab[k] = A + S->inter_lab[i];
        out->dst[k++] = S->inter_to[i];
    }
    out->first[n] = (uint32_t)k;
    out->nedges = k;
    uint64_t *scratch = NULL;
    size_t cap = 0;
    int rc = co_lts_normalise(cm, out, &scratch, &cap);
    co_free_grown(cm, &scratch, &cap, sizeof *scratch);
    return rc;
}

/* The formula on the snowball F and the components not in it, explored
 * together, and its counterexample lifted; 0 or -1 on a limit. */
static int explore_rest(co_snow *S, uint32_t F, const uint8_t *joined, const tree_t *formula,
                        result_t *res)
{
    co_mem *cm = S->cm;
    const check_options *opt = S->opt;
    uint32_t n = S->C->n, nparts = 1;
    uint32_t *part = co_alloc(cm, (size_t)n + 1, sizeof *part);
    if (!part)
        return -1;
    part[0] = F;
    for (uint32_t k = 0; k < n; k++)
        if (!joined[k])
            part[nparts++] = 1 + k;
    co_snownet W;
    co_lasso lasso;
    memset(&lasso, 0, sizeof lasso);
    uint64_t states = 0, edges = 0;
    char why[160] = "";
    int r = -1;
    if (co_snownet_init(&W, S, S->chk, part, nparts) == 0) {
        const co_system sys = { &W, W.init, co_snownet_steps };
        r = co_ltl_check(S->chk, S->cn, S->L, &sys, formula, 1, opt->want_run, S->prog, &lasso,
                         &states, &edges, why, sizeof why);
    }
    res->states += states;
    res->edges += edges;
    if (opt->verbose)
        fprintf(stderr, "compose: the formula: %llu product states, %llu edges: %s\n",
                (unsigned long long)states, (unsigned long long)edges,
                r == 0 ? "holds" : r == 1 ? "fails" : "gave up");
    if (r == -2)
        result_unknown(res, why);
    if (r >= 0)
        res->answer = r ? ANSWER_NO : ANSWER_YES;
    if (r == 1 && opt->want_run && lasso.loop_start > 0 && lasso.loop_start < lasso.len &&
        co_snownet_tuple(&W, (uint32_t)lasso.step[lasso.loop_start - 1])[nparts]) {
        /* the loop starts between the 0 and the v of a step (v, 1), where
         * the step before it need not be the same in the stem and in the
         * loop: the loop is turned by one step so that it starts after v */
        if (co_grow(S->chk, &lasso.step, &lasso.cap, lasso.len + 1, sizeof *lasso.step) < 0) {
            r = -1;
        } else {
            lasso.step[lasso.len] = lasso.step[lasso.loop_start];
            lasso.loop_start++;
            lasso.len++;
        }
    }
    if (r == 1 && opt->want_run) {
        /* the lasso as steps between tuples of blocks */
        co_bpath P;
        memset(&P, 0, sizeof P);
        size_t len = lasso.len ? lasso.len : 1;
        int ok = (P.step = co_alloc(cm, len, sizeof *P.step)) &&
                 (P.tuple = co_alloc(cm, ((size_t)W.states.n ? W.states.n : 1) * nparts, sizeof *P.tuple));
        if (ok) {
            P.ntuples = W.states.n;
            for (uint32_t q = 0; q < W.states.n; q++)
                memcpy(P.tuple + (size_t)q * nparts, co_snownet_tuple(&W, q),
                       nparts * sizeof *P.tuple);
            P.len = lasso.len;
            P.loop_start = lasso.loop_start;
            uint32_t at = W.init, last = W.init;
            for (size_t i = 0; i < lasso.len; i++) {
                uint32_t x = (uint32_t)(lasso.step[i] >> 32), d = (uint32_t)lasso.step[i];
                uint32_t pend_d = co_snownet_tuple(&W, d)[nparts];
                uint32_t pend_at = co_snownet_tuple(&W, at)[nparts];
                co_bstep *st = &P.step[i];
                if (pend_d)
                    *st = (co_bstep){ CO_STEP_NONE, 0, 0, 0, 0 };
                else if (pend_at)
                    *st = (co_bstep){ CO_STEP_SEEN, pend_at - 1, 1, last, d };
                else if (x == S->L->empty)
                    *st = (co_bstep){ memcmp(co_snownet_tuple(&W, at), co_snownet_tuple(&W, d),
                                             nparts * sizeof(uint32_t)) ? CO_STEP_HIDDEN
                                                                        : CO_STEP_INERT,
                                      0, 0, at, d };
                else
                    *st = (co_bstep){ CO_STEP_SEEN, x, 0, at, d };
                if (!pend_d)
                    last = d;
                at = d;
            }
            if (co_lift_branching(S, part, nparts, &P, res) < 0)
                ok = 0;
        }
        if (!ok && co_lift_contradicts(cm->gave_up))
            S->unlifted = cm->gave_up;
        else if (!ok)
            fprintf(stderr, "mck: compose: no counterexample: %s\n",
                    cm->gave_up ? cm->gave_up : "memory budget exhausted");
        cm->gave_up = NULL;
        co_bpath_free(cm, &P, nparts);
    }
    co_free_grown(S->chk, &lasso.step, &lasso.cap, sizeof *lasso.step);
    co_snownet_free(&W);
    co_free(cm, part, (size_t)n + 1, sizeof *part);
    return r == -1 ? -1 : 0;
}

int co_snowball(co_snow *S, const tree_t *formula, result_t *res)
{
    co_mem *cm = S->cm;
    const co_comps *C = S->C;
    uint32_t n = C->n, A = S->A;
    const check_options *opt = S->opt;
    /* nodes: the observer, the leaves, then the snowball after each join */
    S->cap_nodes = 2 * (size_t)n + 1;
    uint8_t *joined = co_alloc(cm, n, 1), *has = co_alloc(cm, A, 1), *closes = co_alloc(cm, A, 1);
    if (!joined || !has || !closes || !(S->nodes = co_alloc(cm, S->cap_nodes, sizeof *S->nodes)) ||
        !(S->in = co_alloc(cm, A, sizeof *S->in)) ||
        !(S->pending = co_alloc(cm, S->L->nletters, sizeof *S->pending)))
        goto fail;
    for (uint32_t a = 0; a < A; a++)
        if (owners(S, a))
            S->pending[S->action_letter[a]]++;
    if (observer(S, &S->nodes[0]) < 0)
        goto fail;
    S->nnodes = 1;
    for (uint32_t k = 0; k < n; k++) {
        if (leaf(S, k, &S->nodes[1 + k]) < 0)
            goto fail;
        S->nnodes++;
    }
    if (S->context_pairs && co_context_leaves(cm, C, A, &S->nodes[1], S->context_pairs) < 0)
        goto fail;
    uint32_t F = 0;
    for (uint32_t step = 0; step < n; step++) {
        uint32_t k = next_component(S, joined);
        co_node *Q = &S->nodes[1 + k], *P = &S->nodes[F];
        /* joins that take the share's first half leave the search of what
         * is left too little: a counterexample is often near the start */
        int late = cm->budget && budget_elapsed(cm->budget) > budget_seconds(cm->budget) / 2;
        if ((uint64_t)P->l.nstates * Q->l.nstates > S->limit || late) {
            if (opt->verbose && late)
                fprintf(stderr, "compose: the snowball (%u states) has had half its time: the "
                        "%u parts left explored together\n", P->l.nstates, n - step + 1);
            else if (opt->verbose)
                fprintf(stderr, "compose: the snowball (%u states) and component %u (%u states) "
                        "would pass %llu pairs: the %u parts left explored together\n",
                        P->l.nstates, k, Q->l.nstates, (unsigned long long)S->limit, n - step + 1);
            S->root = F;
            snprintf(res->net_note, sizeof res->net_note, "%u components, unnamed steps hidden; "
                     "largest product %u states; %u parts explored", n, S->largest, n - step + 1);
            int r = explore_rest(S, F, joined, formula, res);
            co_free(cm, joined, n, 1);
            co_free(cm, has, A, 1);
            co_free(cm, closes, A, 1);
            return r < 0 ? -1 : 1;
        }
        memset(has, 0, A);
        memset(closes, 0, A);
        for (uint32_t j = C->comp_move_first[k]; j < C->comp_move_first[k + 1]; j++) {
            uint32_t a = C->trans_action[C->move_trans[C->comp_move[j]]];
            has[a] = 1;
        }
        for (uint32_t a = 0; a < A; a++)
            if (has[a]) {
                closes[a] = S->in[a] + 1 == owners(S, a);
                if (!S->in[a]++)
                    S->pending[S->action_letter[a]]--;
            }
        double t0 = mono_now();
        co_node *N = &S->nodes[S->nnodes];
        memset(N, 0, sizeof *N);
        N->left = (int32_t)F;
        N->right = (int32_t)(1 + k);
        co_lts raw;
        if (join(S, &P->l, &Q->l, has, closes, &raw, &N->pairs) < 0) {
            /* N is not counted yet: co_snowball_free would miss its pairs */
            co_pairs_free(cm, &N->pairs);
            goto fail;
        }
        S->nnodes++;
        N->nraw = raw.nstates;
        N->raw_edges = raw.nedges;
        if (raw.nstates > S->largest)
            S->largest = raw.nstates;
        S->raw_states += raw.nstates;
        S->raw_edges += raw.nedges;
        co_lts cut;
        uint32_t *keep = NULL;
        if (context(S, joined, k, &raw, &cut, &keep) < 0 ||
            !(N->state_block = co_alloc(cm, raw.nstates, sizeof *N->state_block)) ||
            co_minimise_branching(cm, &cut, TAU(A), &N->l, N->state_block) < 0) {
            if (keep) {
                co_lts_free(cm, &cut);
                co_free(cm, keep, raw.nstates, sizeof *keep);
            }
            co_lts_free(cm, &raw);
            goto fail;
        }
        if (keep) {
            /* state_block holds the cut's states: spread back onto raw's,
             * from the top, since keep[s] <= s */
            for (uint32_t s = raw.nstates; s-- > 0;)
                N->state_block[s] = keep[s] == CO_NONE ? CO_NONE : N->state_block[keep[s]];
        }
        if (opt->verbose && keep)
            fprintf(stderr, "compose: snowball #%u = #%u (%u states) + component %u (%u states): "
                    "%u states, %zu edges; in its context %u states, %zu edges; "
                    "branching-minimised %u states, %zu edges (%.2f s)\n",
                    S->nnodes - 1, F, P->l.nstates, k, Q->l.nstates, raw.nstates, raw.nedges,
                    cut.nstates, cut.nedges, N->l.nstates, N->l.nedges, mono_now() - t0);
        else if (opt->verbose)
            fprintf(stderr, "compose: snowball #%u = #%u (%u states) + component %u (%u states): "
                    "%u states, %zu edges; branching-minimised %u states, %zu edges (%.2f s)\n",
                    S->nnodes - 1, F, P->l.nstates, k, Q->l.nstates, raw.nstates, raw.nedges,
                    N->l.nstates, N->l.nedges, mono_now() - t0);
        if (keep) {
            co_lts_free(cm, &cut);
            co_free(cm, keep, raw.nstates, sizeof *keep);
        }
        co_lts_free(cm, &raw);
        co_lts_free(cm, &P->l);
        joined[k] = 1;
        F = S->nnodes - 1;
    }
    co_free(cm, joined, n, 1);
    co_free(cm, has, A, 1);
    co_free(cm, closes, A, 1);
    joined = has = closes = NULL;
    /* the last snowball as letters, its dead ends dropped */
    co_lts word, pruned;
    memset(&word, 0, sizeof word);
    memset(&pruned, 0, sizeof pruned);
    S->root = F;
    if (as_letters(S, &S->nodes[F].l, &word) < 0) {
        co_lts_free(cm, &word);
        goto fail;
    }
    if (!(S->keep = co_alloc(cm, word.nstates, sizeof *S->keep)) ||
        co_prune_finite(cm, &word, &pruned, S->keep) < 0) {
        co_lts_free(cm, &word);
        goto fail;
    }
    S->nword = word.nstates;
    S->word_states = F == 0 ? 0 : S->nodes[F].l.nstates;
    if (opt->verbose)
        fprintf(stderr, "compose: the snowball as letters: %u states, %zu edges; with an "
                "infinite run %u states\n", word.nstates, word.nedges, pruned.nstates);
    co_lts_free(cm, &word);
    snprintf(res->net_note, sizeof res->net_note, "%u components, unnamed steps hidden; "
             "largest product %u states; last %u", n, S->largest, S->word_states);
    if (!pruned.nstates) {
        res->answer = ANSWER_YES;
        return 1;
    }
    int r = co_snowball_check(S, &pruned, formula, res);
    co_lts_free(cm, &pruned);
    return r < 0 ? -1 : 1;
fail:
    co_free(cm, joined, n, 1);
    co_free(cm, has, A, 1);
    co_free(cm, closes, A, 1);
    return -1;
}

void co_snowball_free(co_snow *S)
{
    co_mem *cm = S->cm;
    for (uint32_t i = 0; S->nodes && i < S->nnodes; i++) {
        co_node *N = &S->nodes[i];
        co_lts_free(cm, &N->l);
        co_free(cm, N->state_block, N->nraw, sizeof *N->state_block);
        co_pairs_free(cm, &N->pairs);
    }
    co_free(cm, S->nodes, S->cap_nodes, sizeof *S->nodes);
    co_free(cm, S->in, S->A, sizeof *S->in);
    co_free(cm, S->pending, S->L->nletters, sizeof *S->pending);
    co_free(cm, S->inter_from, S->ninter, sizeof *S->inter_from);
    co_free(cm, S->inter_to, S->ninter, sizeof *S->inter_to);
    co_free(cm, S->inter_lab, S->ninter, sizeof *S->inter_lab);
    co_free(cm, S->keep, S->nword, sizeof *S->keep);
    S->nodes = NULL;
}
