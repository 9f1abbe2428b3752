/* The net as a synchronised product of sequential components
 * (composeint.h): which places form a component, what each transition
 * does in each component it touches, and which transitions are one
 * action.  Nothing here is taken on trust: a component must hold exactly
 * one token at the start and every transition must move that token from
 * one of its places to one (or read it in place), and the reader's
 * actions are used only when each one's transitions are every combination
 * of its owners' steps, which is what makes the product of the
 * components' LTSs, synchronised on actions, the net's reachability
 * graph.  Otherwise each transition is its own action, which is always
 * that product, with larger components. */
#include "checkers/compose/composeint.h"
#include "engine/onehot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Place p's component from units: 0 and 1 on success, the unit numbers
 * in comp[]; -1 when the units are no partition of all places. */
static int from_units(const net_t *net, uint32_t np, uint32_t *comp, uint32_t *n, char *why,
                      size_t whylen)
{
    if (!net || !net->nunits) {
        snprintf(why, whylen, "no units");
        return -1;
    }
    for (uint32_t p = 0; p < np; p++)
        comp[p] = CO_NONE;
    for (size_t u = 0; u < net->nunits; u++) {
        const nc_unit *U = &net->units[u];
        if (U->parent >= 0) {
            snprintf(why, whylen, "nested units");
            return -1;
        }
        for (uint32_t i = 0; i < U->nplaces; i++) {
            uint32_t p = U->places[i];
            if (p >= np || comp[p] != CO_NONE) {
                snprintf(why, whylen, "units overlap");
                return -1;
            }
            comp[p] = (uint32_t)u;
        }
    }
    *n = (uint32_t)net->nunits;
    return 0;
}

static int from_onehot(const cnet_t *cn, double seconds, uint32_t *comp, uint32_t *n, char *why,
                       size_t whylen)
{
    uint8_t *bits = malloc(cn->nplaces ? cn->nplaces : 1);
    if (!bits) {
        snprintf(why, whylen, "no memory for one-hot groups");
        return -1;
    }
    /* any width: only groups of initial sum 1 can cover a marked place,
     * and onehot_group_holds proves each group on the net */
    memset(bits, 1, cn->nplaces ? cn->nplaces : 1);
    uint32_t ngroups = 0;
    uint32_t *group = onehot_groups(cn, bits, seconds, &ngroups);
    free(bits);
    if (!group && !(group = calloc(cn->nplaces ? cn->nplaces : 1, sizeof *group))) {
        snprintf(why, whylen, "no memory for one-hot groups");
        return -1;
    }
    for (uint32_t p = 0; p < cn->nplaces; p++)
        comp[p] = group[p] ? group[p] - 1 : CO_NONE;
    free(group);
    /* a marked place no transition changes (groups have two places or
     * more) holds its one token for ever: a component alone */
    uint8_t *changed = calloc(cn->nplaces ? cn->nplaces : 1, 1);
    if (!changed) {
        snprintf(why, whylen, "no memory for one-hot groups");
        return -1;
    }
    for (uint32_t i = 0; i < cn->eff_start[cn->ntransitions]; i++)
        changed[cn->eff_place[i]] = 1;
    for (uint32_t p = 0; p < cn->nplaces; p++)
        if (comp[p] == CO_NONE && cn->initial[p] == 1 && !changed[p])
            comp[p] = ngroups++;
    free(changed);
    *n = ngroups;
    return 0;
}

/* The places that may ever hold a token, over-approximated: marked at
 * the start, or put there by a transition all of whose input places may
 * be marked.  A place in no component must not be one of them: it is
 * then never marked, and the transitions that need it never fire. */
static int unmarkable_outside(co_mem *cm, const cnet_t *cn, const uint32_t *comp, char *why,
                              size_t whylen)
{
    uint32_t np = cn->nplaces, nt = cn->ntransitions;
    uint8_t *marked = co_alloc(cm, np, 1);
    uint32_t *missing = co_alloc(cm, nt, sizeof *missing);
    uint32_t *queue = co_alloc(cm, np, sizeof *queue);
    int rc = -1;
    if (!marked || !missing || !queue)
        goto out;
    uint32_t nq = 0;
    for (uint32_t t = 0; t < nt; t++)
        missing[t] = cn->need_start[t + 1] - cn->need_start[t];
    for (uint32_t p = 0; p < np; p++)
        if (cn->initial[p]) {
            marked[p] = 1;
            queue[nq++] = p;
        }
    /* transitions that need nothing fire at once */
    for (uint32_t t = 0; t < nt; t++)
        if (!missing[t])
            for (uint32_t i = cn->post_start[t]; i < cn->post_start[t + 1]; i++)
                if (!marked[cn->post_place[i]]) {
                    marked[cn->post_place[i]] = 1;
                    queue[nq++] = cn->post_place[i];
                }
    for (uint32_t h = 0; h < nq; h++) {
        uint32_t p = queue[h];
        for (uint32_t i = cn->consumers_start[p]; i < cn->consumers_start[p + 1]; i++) {
            uint32_t t = cn->consumers[i];
            if (--missing[t])
                continue;
            for (uint32_t j = cn->post_start[t]; j < cn->post_start[t + 1]; j++)
                if (!marked[cn->post_place[j]]) {
                    marked[cn->post_place[j]] = 1;
                    queue[nq++] = cn->post_place[j];
                }
        }
    }
    rc = 0;
    for (uint32_t p = 0; p < np && rc == 0; p++)
        if (comp[p] == CO_NONE && marked[p]) {
            snprintf(why, whylen, "place %s may be marked but is in no component",
                     cn->net ? cn->net->places[p].id : "?");
            rc = -1;
        }
out:
    co_free(cm, marked, np, 1);
    co_free(cm, missing, nt, sizeof *missing);
    co_free(cm, queue, np, sizeof *queue);
    return rc;
}

/* One token in each component at the start. */
static int check_initial(const cnet_t *cn, co_comps *c, char *why, size_t whylen)
{
    for (uint32_t k = 0; k < c->n; k++)
        c->comp_init[k] = CO_NONE;
    for (uint32_t p = 0; p < cn->nplaces; p++) {
        if (!cn->initial[p] || c->place_comp[p] == CO_NONE)
            continue;
        uint32_t k = c->place_comp[p];
        if (cn->initial[p] > 1 || c->comp_init[k] != CO_NONE) {
            snprintf(why, whylen, "component %u starts with more than one token", k);
            return -1;
        }
        c->comp_init[k] = c->place_local[p];
    }
    for (uint32_t k = 0; k < c->n; k++)
        if (c->comp_init[k] == CO_NONE) {
            snprintf(why, whylen, "component %u starts empty", k);
            return -1;
        }
    return 0;
}

/* Transition t's moves, one per component it needs, into the arrays at
 * c->nmoves; -1 with why when t is no such step. */
static int moves_of(const cnet_t *cn, co_comps *c, uint32_t t, char *why, size_t whylen)
{
    const char *name = cn->net ? cn->net->transitions[t].id : "?";
    size_t first = c->nmoves;
    for (uint32_t i = cn->need_start[t]; i < cn->need_start[t + 1]; i++)
        if (c->place_comp[cn->need_place[i]] == CO_NONE)
            return 0;   /* never fires: it has no moves and takes part in nothing */
    for (uint32_t i = cn->need_start[t]; i < cn->need_start[t + 1]; i++) {
        uint32_t p = cn->need_place[i], k = c->place_comp[p];
        if (cn->need_weight[i] != 1) {
            snprintf(why, whylen, "transition %s needs %llu tokens on a place", name,
                     (unsigned long long)cn->need_weight[i]);
            return -1;
        }
        size_t j = first;
        while (j < c->nmoves && c->move_comp[j] < k)
            j++;
        if (j < c->nmoves && c->move_comp[j] == k) {
            snprintf(why, whylen, "transition %s needs two places of one component", name);
            return -1;
        }
        for (size_t m = c->nmoves; m > j; m--) {
            c->move_comp[m] = c->move_comp[m - 1];
            c->move_src[m] = c->move_src[m - 1];
        }
        c->move_comp[j] = k;
        c->move_src[j] = c->place_local[p];
        c->nmoves++;
    }
    if (c->nmoves == first) {
        snprintf(why, whylen, "transition %s needs no place", name);
        return -1;
    }
    for (size_t j = first; j < c->nmoves; j++) {
        c->move_dst[j] = c->move_src[j];
        c->move_trans[j] = t;
    }
    for (uint32_t i = cn->eff_start[t]; i < cn->eff_start[t + 1]; i++) {
        uint32_t p = cn->eff_place[i], k = c->place_comp[p], local = c->place_local[p];
        size_t j = first;
        while (j < c->nmoves && c->move_comp[j] != k)
            j++;
        int64_t d = cn->eff_delta[i];
        int ok = j < c->nmoves &&
                 ((d == -1 && local == c->move_src[j]) ||
                  (d == 1 && local != c->move_src[j] && c->move_dst[j] == c->move_src[j]));
        if (!ok) {
            snprintf(why, whylen, "transition %s does not move one token within a component", name);
            return -1;
        }
        if (d == 1)
            c->move_dst[j] = local;
    }
    /* a token taken is put back in its component, and none is added */
    for (size_t j = first; j < c->nmoves; j++) {
        int took = 0;
        for (uint32_t i = cn->eff_start[t]; i < cn->eff_start[t + 1]; i++)
            took |= cn->eff_delta[i] == -1 && c->place_comp[cn->eff_place[i]] == c->move_comp[j];
        if (took != (c->move_dst[j] != c->move_src[j])) {
            snprintf(why, whylen, "transition %s does not move one token within a component", name);
            return -1;
        }
    }
    return 0;
}

static int find_moves(co_mem *cm, const cnet_t *cn, co_comps *c, char *why, size_t whylen)
{
    size_t room = 0;
    for (uint32_t t = 0; t < cn->ntransitions; t++)
        room += cn->need_start[t + 1] - cn->need_start[t];
    if (!(c->move_first = co_alloc(cm, (size_t)cn->ntransitions + 1, sizeof(uint32_t))) ||
        !(c->move_comp = co_alloc(cm, room, sizeof(uint32_t))) ||
        !(c->move_src = co_alloc(cm, room, sizeof(uint32_t))) ||
        !(c->move_dst = co_alloc(cm, room, sizeof(uint32_t))) ||
        !(c->move_trans = co_alloc(cm, room, sizeof(uint32_t))))
        return -1;
    for (uint32_t t = 0; t < cn->ntransitions; t++) {
        c->move_first[t] = (uint32_t)c->nmoves;
        if (moves_of(cn, c, t, why, whylen) < 0)
            return -1;
    }
    c->move_first[cn->ntransitions] = (uint32_t)c->nmoves;
    if (!(c->comp_move_first = co_alloc(cm, (size_t)c->n + 1, sizeof(uint32_t))) ||
        !(c->comp_move = co_alloc(cm, c->nmoves, sizeof(uint32_t))))
        return -1;
    for (size_t j = 0; j < c->nmoves; j++)
        c->comp_move_first[c->move_comp[j] + 1]++;
    for (uint32_t k = 0; k < c->n; k++)
        c->comp_move_first[k + 1] += c->comp_move_first[k];
    uint32_t *at = co_alloc(cm, c->n, sizeof *at);
    if (!at)
        return -1;
    memcpy(at, c->comp_move_first, c->n * sizeof *at);
    for (size_t j = 0; j < c->nmoves; j++)
        c->comp_move[at[c->move_comp[j]]++] = (uint32_t)j;
    co_free(cm, at, c->n, sizeof *at);
    return 0;
}

/* ---- actions ---- */

static void free_actions(co_mem *cm, const cnet_t *cn, co_comps *c)
{
    co_free(cm, c->trans_action, cn->ntransitions, sizeof(uint32_t));
    co_free(cm, c->owner_first, (size_t)c->nactions + 1, sizeof(uint32_t));
    co_free(cm, c->owner, c->nmoves, sizeof(uint32_t));
    c->trans_action = c->owner_first = c->owner = NULL;
    c->nactions = 0;
}

/* Owners of each action from its first transition (the others are
 * checked by the caller). */
static int owners_from_first(co_mem *cm, const cnet_t *cn, co_comps *c)
{
    if (!(c->owner_first = co_alloc(cm, (size_t)c->nactions + 1, sizeof(uint32_t))) ||
        !(c->owner = co_alloc(cm, c->nmoves, sizeof(uint32_t))))
        return -1;
    uint32_t *rep = co_alloc(cm, c->nactions, sizeof *rep);
    if (!rep)
        return -1;
    for (uint32_t a = 0; a < c->nactions; a++)
        rep[a] = CO_NONE;
    for (uint32_t t = 0; t < cn->ntransitions; t++)
        if (rep[c->trans_action[t]] == CO_NONE)
            rep[c->trans_action[t]] = t;
    uint32_t n = 0;
    for (uint32_t a = 0; a < c->nactions; a++) {
        c->owner_first[a] = n;
        if (rep[a] != CO_NONE)
            for (uint32_t j = c->move_first[rep[a]]; j < c->move_first[rep[a] + 1]; j++)
                c->owner[n++] = c->move_comp[j];
    }
    c->owner_first[c->nactions] = n;
    co_free(cm, rep, c->nactions, sizeof *rep);
    return 0;
}

int co_comps_per_transition(co_mem *cm, const cnet_t *cn, co_comps *c)
{
    free_actions(cm, cn, c);
    c->reader_actions = 0;
    c->nactions = cn->ntransitions;
    if (!(c->trans_action = co_alloc(cm, cn->ntransitions, sizeof(uint32_t))))
        return -1;
    for (uint32_t t = 0; t < cn->ntransitions; t++)
        c->trans_action[t] = t;
    return owners_from_first(cm, cn, c);
}

/* A hash of t's moves (components, sources, targets). */
static uint64_t moves_hash(const co_comps *c, uint32_t t)
{
    uint64_t h = 1469598103934665603ull;
    for (uint32_t j = c->move_first[t]; j < c->move_first[t + 1]; j++) {
        h = (h ^ c->move_src[j]) * 1099511628211ull;
        h = (h ^ c->move_dst[j]) * 1099511628211ull;
    }
    return h;
}

static int same_moves(const co_comps *c, uint32_t t, uint32_t u)
{
    uint32_t i = c->move_first[t], j = c->move_first[u];
    if (c->move_first[t + 1] - i != c->move_first[u + 1] - j)
        return 0;
    for (; i < c->move_first[t + 1]; i++, j++)
        if (c->move_comp[i] != c->move_comp[j] || c->move_src[i] != c->move_src[j] ||
            c->move_dst[i] != c->move_dst[j])
            return 0;
    return 1;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

typedef struct keyed {
    uint64_t hash;
    uint32_t t;
} keyed;

static int cmp_keyed(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    if (x->hash != y->hash)
        return x->hash < y->hash ? -1 : 1;
    return (x->t > y->t) - (x->t < y->t);
}

/* Whether the transitions ts[0..n) of one action are every combination
 * of their owners' steps: same owners, and as many different move
 * vectors as the product of each owner's different steps.  scratch has
 * room for n entries of each kind. */
static int is_full_product(const co_comps *c, const uint32_t *ts, uint32_t n, uint64_t *steps,
                           keyed *keys)
{
    uint32_t t0 = ts[0], width = c->move_first[t0 + 1] - c->move_first[t0];
    for (uint32_t i = 1; i < n; i++) {
        uint32_t t = ts[i];
        if (c->move_first[t + 1] - c->move_first[t] != width)
            return 0;
        for (uint32_t j = 0; j < width; j++)
            if (c->move_comp[c->move_first[t] + j] != c->move_comp[c->move_first[t0] + j])
                return 0;
    }
    uint64_t combos = 1;
    for (uint32_t j = 0; j < width; j++) {
        for (uint32_t i = 0; i < n; i++) {
            uint32_t m = c->move_first[ts[i]] + j;
            steps[i] = (uint64_t)c->move_src[m] << 32 | c->move_dst[m];
        }
        qsort(steps, n, sizeof *steps, cmp_u64);
        uint64_t distinct = 0;
        for (uint32_t i = 0; i < n; i++)
            distinct += !i || steps[i] != steps[i - 1];
        if (__builtin_mul_overflow(combos, distinct, &combos) || combos > n)
            return 0;
    }
    for (uint32_t i = 0; i < n; i++) {
        keys[i].hash = moves_hash(c, ts[i]);
        keys[i].t = ts[i];
    }
    qsort(keys, n, sizeof *keys, cmp_keyed);
    uint64_t distinct = 0;
    for (uint32_t i = 0; i < n; i++) {
        int seen = 0;
        for (uint32_t k = i; k-- > 0 && keys[k].hash == keys[i].hash && !seen;)
            seen = same_moves(c, keys[k].t, keys[i].t);
        distinct += !seen;
    }
    return distinct == combos;
}

/* The reader's actions when its claim holds: 1 used, 0 not, -1 limit. */
static int reader_actions(co_mem *cm, const cnet_t *cn, co_comps *c, char *why, size_t whylen)
{
    const net_t *net = cn->net;
    if (!net || !net->transition_actions || net->ntransitions != cn->ntransitions)
        return 0;
    uint32_t A = net->nactions, T = cn->ntransitions;
    uint32_t *start = co_alloc(cm, (size_t)A + 1, sizeof *start);
    uint32_t *ts = co_alloc(cm, T, sizeof *ts);
    uint64_t *steps = co_alloc(cm, T, sizeof *steps);
    keyed *keys = co_alloc(cm, T, sizeof *keys);
    int ok = start && ts && steps && keys;
    if (ok) {
        for (uint32_t t = 0; t < T; t++)
            start[net->transition_actions[t] + 1]++;
        for (uint32_t a = 0; a < A; a++)
            start[a + 1] += start[a];
        for (uint32_t t = 0; t < T; t++)
            ts[start[net->transition_actions[t]]++] = t;
        for (uint32_t a = A; a > 0; a--)
            start[a] = start[a - 1];
        start[0] = 0;
        for (uint32_t a = 0; a < A && ok; a++) {
            uint32_t n = start[a + 1] - start[a];
            if (n && !is_full_product(c, ts + start[a], n, steps, keys)) {
                snprintf(why, whylen, "the transitions of action %u (%s, ...) are not every "
                         "combination of its components' steps", a,
                         net->transitions[ts[start[a]]].id);
                ok = 0;
            }
        }
    }
    int rc = ok ? 1 : cm->gave_up ? -1 : 0;
    co_free(cm, start, (size_t)A + 1, sizeof *start);
    co_free(cm, ts, T, sizeof *ts);
    co_free(cm, steps, T, sizeof *steps);
    co_free(cm, keys, T, sizeof *keys);
    if (rc != 1)
        return rc;
    c->reader_actions = 1;
    c->nactions = A;
    if (!(c->trans_action = co_alloc(cm, T, sizeof(uint32_t))))
        return -1;
    memcpy(c->trans_action, net->transition_actions, (size_t)T * sizeof(uint32_t));
    return owners_from_first(cm, cn, c) < 0 ? -1 : 1;
}

int co_comps_find(co_mem *cm, const cnet_t *cn, co_comps *c, char *why, size_t whylen)
{
    memset(c, 0, sizeof *c);
    uint32_t np = cn->nplaces;
    if (!(c->place_comp = co_alloc(cm, np, sizeof(uint32_t))) ||
        !(c->place_local = co_alloc(cm, np, sizeof(uint32_t))))
        return -1;
    char unit_why[120];
    c->source = "units";
    if (from_units(cn->net, np, c->place_comp, &c->n, unit_why, sizeof unit_why) < 0) {
        char hot_why[120];
        c->source = "one-hot groups";
        budget_t onehot = budget_carve(cm->budget, CARVE_COMPOSE_ONEHOT);
        if (from_onehot(cn, budget_seconds(&onehot), c->place_comp, &c->n, hot_why,
                        sizeof hot_why) < 0) {
            snprintf(why, whylen, "no partition into sequential components (%s; %s)", unit_why,
                     hot_why);
            return -1;
        }
    }
    if (!(c->comp_first = co_alloc(cm, (size_t)c->n + 1, sizeof(uint32_t))) ||
        !(c->comp_place = co_alloc(cm, np, sizeof(uint32_t))) ||
        !(c->comp_init = co_alloc(cm, c->n, sizeof(uint32_t))))
        return -1;
    if (unmarkable_outside(cm, cn, c->place_comp, why, whylen) < 0)
        return -1;
    for (uint32_t p = 0; p < np; p++)
        if (c->place_comp[p] != CO_NONE)
            c->comp_first[c->place_comp[p] + 1]++;
    for (uint32_t k = 0; k < c->n; k++)
        c->comp_first[k + 1] += c->comp_first[k];
    /* places in net order within each component */
    uint32_t *fill = co_alloc(cm, c->n, sizeof *fill);
    if (!fill)
        return -1;
    for (uint32_t p = 0; p < np; p++) {
        uint32_t k = c->place_comp[p];
        c->place_local[p] = CO_NONE;
        if (k == CO_NONE)
            continue;
        c->place_local[p] = fill[k]++;
        c->comp_place[c->comp_first[k] + c->place_local[p]] = p;
    }
    co_free(cm, fill, c->n, sizeof *fill);
    if (check_initial(cn, c, why, whylen) < 0 || find_moves(cm, cn, c, why, whylen) < 0)
        return -1;
    char reader_why[160] = "";
    int r = reader_actions(cm, cn, c, reader_why, sizeof reader_why);
    if (r < 0)
        return -1;
    if (r == 0 && co_comps_per_transition(cm, cn, c) < 0)
        return -1;
    if (r == 0 && reader_why[0])
        snprintf(why, whylen, "%s", reader_why);
    else if (why && whylen)
        why[0] = '\0';
    return 0;
}

void co_comps_free(co_mem *cm, const cnet_t *cn, co_comps *c)
{
    free_actions(cm, cn, c);
    uint32_t np = cn->nplaces;
    co_free(cm, c->place_comp, np, sizeof(uint32_t));
    co_free(cm, c->place_local, np, sizeof(uint32_t));
    co_free(cm, c->comp_first, (size_t)c->n + 1, sizeof(uint32_t));
    co_free(cm, c->comp_place, np, sizeof(uint32_t));
    co_free(cm, c->comp_init, c->n, sizeof(uint32_t));
    size_t room = 0;
    for (uint32_t t = 0; c->move_first && t < cn->ntransitions; t++)
        room += cn->need_start[t + 1] - cn->need_start[t];
    co_free(cm, c->move_first, (size_t)cn->ntransitions + 1, sizeof(uint32_t));
    co_free(cm, c->move_comp, room, sizeof(uint32_t));
    co_free(cm, c->move_src, room, sizeof(uint32_t));
    co_free(cm, c->move_dst, room, sizeof(uint32_t));
    co_free(cm, c->move_trans, room, sizeof(uint32_t));
    co_free(cm, c->comp_move_first, (size_t)c->n + 1, sizeof(uint32_t));
    co_free(cm, c->comp_move, c->nmoves, sizeof(uint32_t));
    memset(c, 0, sizeof *c);
}

int co_comps_leaf(co_mem *cm, const co_comps *c, uint32_t k, co_lts *out, uint32_t *state_of)
{
    uint32_t nlocal = c->comp_first[k + 1] - c->comp_first[k];
    uint32_t mfirst = c->comp_move_first[k], nm = c->comp_move_first[k + 1] - mfirst;
    memset(out, 0, sizeof *out);
    /* the moves by source, then a breadth-first search from the start */
    uint32_t *by_src_first = co_alloc(cm, (size_t)nlocal + 1, sizeof(uint32_t));
    uint32_t *by_src = co_alloc(cm, nm, sizeof(uint32_t));
    uint32_t *order = co_alloc(cm, nlocal, sizeof(uint32_t));
    int rc = -1;
    if (!by_src_first || !by_src || !order)
        goto out;
    for (uint32_t i = 0; i < nm; i++)
        by_src_first[c->move_src[c->comp_move[mfirst + i]] + 1]++;
    for (uint32_t s = 0; s < nlocal; s++)
        by_src_first[s + 1] += by_src_first[s];
    for (uint32_t i = 0; i < nm; i++) {
        uint32_t j = c->comp_move[mfirst + i];
        by_src[by_src_first[c->move_src[j]]++] = j;
    }
    for (uint32_t s = nlocal; s > 0; s--)
        by_src_first[s] = by_src_first[s - 1];
    by_src_first[0] = 0;
    for (uint32_t s = 0; s < nlocal; s++)
        state_of[s] = CO_NONE;
    uint32_t n = 0;
    state_of[c->comp_init[k]] = n;
    order[n++] = c->comp_init[k];
    size_t nedges = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t s = order[i];
        for (uint32_t e = by_src_first[s]; e < by_src_first[s + 1]; e++) {
            uint32_t d = c->move_dst[by_src[e]];
            nedges++;
            if (state_of[d] == CO_NONE) {
                state_of[d] = n;
                order[n++] = d;
            }
        }
    }
    out->nstates = n;
    out->init = 0;
    out->cap_edges = nedges ? nedges : 1;
    out->cap_first = (size_t)n + 1;
    if (!(out->first = co_alloc(cm, (size_t)n + 1, sizeof(uint32_t))) ||
        !(out->lab = co_alloc(cm, nedges, sizeof(uint32_t))) ||
        !(out->dst = co_alloc(cm, nedges, sizeof(uint32_t))))
        goto out;
    size_t e = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t s = order[i];
        out->first[i] = (uint32_t)e;
        for (uint32_t x = by_src_first[s]; x < by_src_first[s + 1]; x++) {
            uint32_t j = by_src[x];
            out->lab[e] = c->trans_action[c->move_trans[j]];
            out->dst[e] = state_of[c->move_dst[j]];
            e++;
        }
    }
    out->first[n] = (uint32_t)e;
    out->nedges = e;
    rc = 0;
out:
    co_free(cm, by_src_first, (size_t)nlocal + 1, sizeof(uint32_t));
    co_free(cm, by_src, nm, sizeof(uint32_t));
    co_free(cm, order, nlocal, sizeof(uint32_t));
    return rc;
}
