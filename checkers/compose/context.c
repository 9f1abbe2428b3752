/* Context constraints on a part (composeint.h; docs/compose.md, "Context
 * constraints").  A part composed without its environment reaches states
 * and takes steps that no run of the whole system does: its open actions
 * fire whenever the part offers them, while outside they need a partner.
 * Each component or part E outside shares some of them with the part P;
 * searching P x E, where P's steps of those actions need one of E's and
 * every other step of either side moves it alone, finds every state and
 * every step of P that some run of P || E uses.  A run of the whole system
 * projects onto a run of P || E (E's other partners only forbid more), so
 * the steps no such search uses are never taken: removing them, and the
 * states they alone led to, leaves the reachable part of the system the
 * same, state for state (Graf and Steffen 1990; Krimm and Mounier 1997,
 * whose "semi-composition" this is, the interface being E's steps of the
 * shared actions, determinised: co_context_by).  The part is then
 * minimised as before, and the congruences of the method apply to the
 * restricted part unchanged. */
#include "checkers/compose/composeint.h"

#include <string.h>

int co_context_cut(co_mem *cm, const co_lts *l, uint8_t *alive, uint32_t shift, uint32_t nlabels,
                   const co_lts *env, uint32_t nactions, const uint8_t *iface, size_t max_pairs)
{
    co_tuples T;
    co_tuples_init(&T, 2, 0);
    uint8_t *used = co_alloc(cm, l->nedges ? l->nedges : 1, 1);
    int rc = -1;
    if (!used)
        goto out;
    const uint32_t start[2] = { l->init, env->init };
    if (co_tuples_add(cm, &T, start, NULL) == CO_NONE)
        goto out;
    for (uint32_t s = 0; s < T.n; s++) {
        if (co_tick(cm) < 0)
            goto out;
        if (T.n > max_pairs) {
            rc = 0;     /* too dear: nothing cut, which is always right */
            goto out;
        }
        uint32_t p = co_tuples_at(&T, s)[0], i = co_tuples_at(&T, s)[1];
        for (uint32_t e = l->first[p]; e < l->first[p + 1]; e++) {
            if (!alive[e])
                continue;
            uint32_t lab = l->lab[e];
            uint32_t a = lab < nlabels ? lab >> shift : CO_NONE;
            if (a != CO_NONE && a < nactions && iface[a]) {
                size_t lo, hi;
                co_lts_labelled(env, i, a, &lo, &hi);
                for (size_t f = lo; f < hi; f++) {
                    const uint32_t v[2] = { l->dst[e], env->dst[f] };
                    if (co_tuples_add(cm, &T, v, NULL) == CO_NONE)
                        goto out;
                    used[e] = 1;
                }
            } else {
                const uint32_t v[2] = { l->dst[e], i };
                if (co_tuples_add(cm, &T, v, NULL) == CO_NONE)
                    goto out;
                used[e] = 1;
            }
        }
        for (uint32_t f = env->first[i]; f < env->first[i + 1]; f++) {
            uint32_t a = env->lab[f];
            if (a < nactions && iface[a])
                continue;
            const uint32_t v[2] = { p, env->dst[f] };
            if (co_tuples_add(cm, &T, v, NULL) == CO_NONE)
                goto out;
        }
    }
    for (size_t e = 0; e < l->nedges; e++)
        alive[e] = used[e];
    rc = 1;
out:
    co_free(cm, used, l->nedges ? l->nedges : 1, 1);
    co_tuples_free(cm, &T);
    return rc;
}

int co_context_keep(co_mem *cm, const co_lts *l, const uint8_t *alive, co_lts *out, uint32_t *keep)
{
    uint32_t n = l->nstates;
    memset(out, 0, sizeof *out);
    uint32_t *queue = co_alloc(cm, n ? n : 1, sizeof *queue);
    if (!queue)
        return -1;
    for (uint32_t s = 0; s < n; s++)
        keep[s] = CO_NONE;
    uint32_t nq = 0;
    keep[l->init] = 0;
    queue[nq++] = l->init;
    for (uint32_t i = 0; i < nq; i++) {
        uint32_t s = queue[i];
        for (uint32_t e = l->first[s]; e < l->first[s + 1]; e++) {
            if (!alive[e])
                continue;
            if (keep[l->dst[e]] == CO_NONE) {
                keep[l->dst[e]] = 0;
                queue[nq++] = l->dst[e];
            }
        }
    }
    co_free(cm, queue, n ? n : 1, sizeof *queue);
    /* numbered in the old order, so that each state's edges stay sorted */
    uint32_t kept = 0;
    for (uint32_t s = 0; s < n; s++)
        if (keep[s] != CO_NONE)
            keep[s] = kept++;
    return co_lts_restrict(cm, l, keep, kept, alive, out);
}

int co_context_apply(co_mem *cm, const co_lts *raw, const uint8_t *alive, co_lts *cut,
                     uint32_t **keep)
{
    size_t kept = 0;
    for (size_t e = 0; e < raw->nedges; e++)
        kept += alive[e];
    if (kept == raw->nedges)
        return 0;
    if (!(*keep = co_alloc(cm, raw->nstates, sizeof **keep)) ||
        co_context_keep(cm, raw, alive, cut, *keep) < 0) {
        co_free(cm, *keep, raw->nstates, sizeof **keep);
        *keep = NULL;
        *cut = *raw;
        return -1;
    }
    return 0;
}

/* Leaf k cut by the others sharing an action with it; 1 when it lost an
 * edge (then minimised again, its state_block following), 0 when not. */
static int cut_leaf(co_mem *cm, const co_comps *C, uint32_t A, co_node *leaves, uint32_t k,
                    uint8_t *has, uint8_t *iface, uint64_t max_pairs)
{
    co_node *N = &leaves[k];
    size_t m = N->l.nedges ? N->l.nedges : 1;
    uint8_t *alive = co_alloc(cm, m, 1);
    if (!alive)
        return -1;
    memset(alive, 1, N->l.nedges);
    memset(has, 0, A);
    for (uint32_t i = C->comp_move_first[k]; i < C->comp_move_first[k + 1]; i++)
        has[C->trans_action[C->move_trans[C->comp_move[i]]]] = 1;
    int rc = -1;
    for (uint32_t j = 0; j < C->n; j++) {
        if (j == k)
            continue;
        memset(iface, 0, A);
        int shares = 0;
        for (uint32_t i = C->comp_move_first[j]; i < C->comp_move_first[j + 1]; i++) {
            uint32_t a = C->trans_action[C->move_trans[C->comp_move[i]]];
            if (has[a]) {
                iface[a] = 1;
                shares = 1;
            }
        }
        if (shares && co_context_by(cm, &N->l, alive, 0, A, &leaves[j].l, A, iface,
                                    context_bound(max_pairs, &N->l)) < 0)
            goto out;
    }
    uint32_t n = N->l.nstates;
    uint32_t *keep = NULL, *block = NULL;
    co_lts cut, min;
    rc = co_context_apply(cm, &N->l, alive, &cut, &keep);
    if (rc < 0 || !keep)
        goto out;
    memset(&min, 0, sizeof min);
    rc = -1;
    if ((block = co_alloc(cm, cut.nstates, sizeof *block)) &&
        co_minimise(cm, &cut, &min, block) == 0) {
        for (uint32_t s = 0; s < N->nraw; s++) {
            uint32_t b = N->state_block[s];
            N->state_block[s] = b == CO_NONE || keep[b] == CO_NONE ? CO_NONE : block[keep[b]];
        }
        co_lts_free(cm, &N->l);
        N->l = min;
        memset(&min, 0, sizeof min);
        rc = 1;
    }
    co_free(cm, block, cut.nstates, sizeof *block);
    co_lts_free(cm, &cut);
    co_lts_free(cm, &min);
    co_free(cm, keep, n, sizeof *keep);
out:
    co_free(cm, alive, m, 1);
    return rc;
}

int co_context_leaves(co_mem *cm, const co_comps *C, uint32_t A, co_node *leaves,
                      uint64_t max_pairs)
{
    uint8_t *has = co_alloc(cm, A ? A : 1, 1), *iface = co_alloc(cm, A ? A : 1, 1);
    int rc = -1, changed = 1;
    if (!has || !iface)
        goto out;
    /* a cut leaf may let its neighbours be cut further: rounds until
     * none is, at most one a component (each round that goes on cut one) */
    for (uint32_t round = 0; changed && round < C->n; round++) {
        changed = 0;
        for (uint32_t k = 0; k < C->n; k++) {
            int r = cut_leaf(cm, C, A, leaves, k, has, iface, max_pairs);
            if (r < 0)
                goto out;
            changed |= r;
        }
    }
    rc = 0;
out:
    co_free(cm, has, A ? A : 1, 1);
    co_free(cm, iface, A ? A : 1, 1);
    return rc;
}

/* What env lets a partner do on the actions of iface: env with its other
 * steps hidden, determinised (subsets of env's states closed under the
 * hidden steps) and minimised, its labels the actions.  A part beside
 * this interface takes exactly the steps it takes beside env (a pair
 * (p, e) is reachable when e is in the subset p's word leads to), and
 * the interface is mostly one or two states.  0, 1 when env is too large
 * to determinise here (out empty), -1 on a limit. */
#define INTERFACE_STATES 256
#define INTERFACE_SUBSETS 4096
static int interface(co_mem *cm, const co_lts *env, uint32_t nactions, const uint8_t *iface,
                     co_lts *out)
{
    memset(out, 0, sizeof *out);
    uint32_t n = env->nstates;
    if (n > INTERFACE_STATES)
        return 1;
    uint32_t words = (n + 31) / 32;
    co_tuples T;
    co_tuples_init(&T, words, 0);
    uint32_t *set = co_alloc(cm, words, sizeof *set), *stack = co_alloc(cm, n, sizeof *stack);
    uint64_t *keys = NULL;
    size_t ckeys = 0, clab = 0, cdst = 0;
    co_lts dfa;
    memset(&dfa, 0, sizeof dfa);
    uint32_t *block = NULL;
    int rc = -1;
    if (!set || !stack)
        goto out;
#define IN(S, x) (((S)[(x) / 32] >> ((x) % 32)) & 1)
#define PUT(S, x) ((S)[(x) / 32] |= 1u << ((x) % 32))
    /* set closed under the hidden steps */
#define CLOSE()                                                                         \
    do {                                                                                \
        uint32_t ns = 0;                                                                \
        for (uint32_t x = 0; x < n; x++)                                                \
            if (IN(set, x))                                                             \
                stack[ns++] = x;                                                        \
        while (ns) {                                                                    \
            uint32_t x = stack[--ns];                                                   \
            for (uint32_t f = env->first[x]; f < env->first[x + 1]; f++) {              \
                uint32_t a = env->lab[f];                                               \
                if ((a < nactions && iface[a]) || IN(set, env->dst[f]))                 \
                    continue;                                                           \
                PUT(set, env->dst[f]);                                                  \
                stack[ns++] = env->dst[f];                                              \
            }                                                                           \
        }                                                                               \
    } while (0)
    memset(set, 0, words * sizeof *set);
    PUT(set, env->init);
    CLOSE();
    if (co_tuples_add(cm, &T, set, NULL) == CO_NONE)
        goto out;
    for (uint32_t d = 0; d < T.n; d++) {
        if (T.n > INTERFACE_SUBSETS) {
            rc = 1;
            goto out;
        }
        size_t nk = 0;
        /* each action of an edge out of the subset, once */
        for (uint32_t x = 0; x < n; x++) {
            if (!IN(co_tuples_at(&T, d), x))
                continue;
            for (uint32_t f = env->first[x]; f < env->first[x + 1]; f++) {
                uint32_t a = env->lab[f];
                if (!(a < nactions && iface[a]))
                    continue;
                int seen = 0;
                for (size_t i = 0; i < nk && !seen; i++)
                    seen = (uint32_t)(keys[i] >> 32) == a;
                if (seen)
                    continue;
                memset(set, 0, words * sizeof *set);
                for (uint32_t y = 0; y < n; y++) {
                    if (!IN(co_tuples_at(&T, d), y))
                        continue;
                    size_t lo, hi;
                    co_lts_labelled(env, y, a, &lo, &hi);
                    for (size_t g = lo; g < hi; g++)
                        PUT(set, env->dst[g]);
                }
                CLOSE();
                uint32_t t = co_tuples_add(cm, &T, set, NULL);
                if (t == CO_NONE || co_grow(cm, &keys, &ckeys, nk + 1, sizeof *keys) < 0)
                    goto out;
                keys[nk++] = (uint64_t)a << 32 | t;
            }
        }
        nk = co_sort_unique(keys, nk);
        if (co_grow(cm, &dfa.first, &dfa.cap_first, (size_t)d + 2, sizeof *dfa.first) < 0 ||
            co_grow(cm, &dfa.lab, &clab, dfa.nedges + nk + 1, sizeof *dfa.lab) < 0 ||
            co_grow(cm, &dfa.dst, &cdst, dfa.nedges + nk + 1, sizeof *dfa.dst) < 0)
            goto out;
        dfa.first[d] = (uint32_t)dfa.nedges;
        for (size_t i = 0; i < nk; i++) {
            dfa.lab[dfa.nedges + i] = (uint32_t)(keys[i] >> 32);
            dfa.dst[dfa.nedges + i] = (uint32_t)keys[i];
        }
        dfa.nedges += nk;
    }
#undef CLOSE
#undef PUT
#undef IN
    dfa.first[T.n] = (uint32_t)dfa.nedges;
    dfa.nstates = T.n;
    dfa.init = 0;
    /* clab and cdst grew together: the same room */
    dfa.cap_edges = clab;
    if (!(block = co_alloc(cm, dfa.nstates, sizeof *block)) ||
        co_minimise(cm, &dfa, out, block) < 0)
        goto out;
    rc = 0;
out:
    co_free(cm, block, dfa.nstates, sizeof *block);
    co_lts_free(cm, &dfa);
    co_free_grown(cm, &keys, &ckeys, sizeof *keys);
    co_free(cm, set, words, sizeof *set);
    co_free(cm, stack, n, sizeof *stack);
    co_tuples_free(cm, &T);
    return rc;
}

int co_context_by(co_mem *cm, const co_lts *l, uint8_t *alive, uint32_t shift, uint32_t nlabels,
                  const co_lts *env, uint32_t nactions, const uint8_t *iface, size_t max_pairs)
{
    co_lts I;
    int r = interface(cm, env, nactions, iface, &I);
    if (r != 0)
        return r < 0 ? -1 : 0;
    /* one state that offers every action of iface: no constraint */
    int free = I.nstates == 1;
    for (uint32_t a = 0; free && a < nactions; a++) {
        size_t lo = 0, hi = 1;
        if (iface[a])
            co_lts_labelled(&I, 0, a, &lo, &hi);
        free = lo < hi;
    }
    r = free ? 0 : co_context_cut(cm, l, alive, shift, nlabels, &I, nactions, iface, max_pairs);
    co_lts_free(cm, &I);
    return r;
}
