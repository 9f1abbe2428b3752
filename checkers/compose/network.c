/* The parts left when composing them would cost more than it saves
 * (composeint.h): their product is not built but explored on the fly by
 * the formula's search (ltlprod.c), which follows only what the whole
 * system reaches and what the automaton of the negation keeps alive.  A
 * state is a tuple of the parts' states, numbered through a hash table;
 * its steps are each part's letters alone, and for each action still
 * open every combination of an edge of it in every part that has it. */
#include "checkers/compose/composeint.h"

#include <string.h>

/* The number of tuple v, added when new; CO_NONE on a limit. */
static uint32_t tuple_number(co_network *W, const uint32_t *v)
{
    return co_tuples_add(W->cm, &W->states, v, NULL);
}

const uint32_t *co_network_tuple(const co_network *W, uint32_t s)
{
    return co_tuples_at(&W->states, s);
}

static int add_step(co_network *W, uint32_t letter, const uint32_t *next)
{
    uint32_t d = tuple_number(W, next);
    if (d == CO_NONE ||
        co_grow(W->cm, &W->buf, &W->cap_buf, W->nbuf + 1, sizeof *W->buf) < 0)
        return -1;
    W->buf[W->nbuf++] = (uint64_t)letter << 32 | d;
    return 0;
}

/* Every combination of an a-edge of each part that has a, from cur. */
static int open_steps(co_network *W, uint32_t a)
{
    uint32_t k = W->nparts, no = W->owner_first[a + 1] - W->owner_first[a];
    const uint32_t *own = W->owner_part + W->owner_first[a];
    for (uint32_t j = 0; j < no; j++) {
        const co_lts *l = &W->nodes[W->part[own[j]]].l;
        co_lts_labelled(l, W->cur[own[j]], a, &W->lo[j], &W->hi[j]);
        if (W->lo[j] == W->hi[j])
            return 0;
        W->pick[j] = W->lo[j];
    }
    memcpy(W->next, W->cur, k * sizeof *W->next);
    for (;;) {
        for (uint32_t j = 0; j < no; j++)
            W->next[own[j]] = W->nodes[W->part[own[j]]].l.dst[W->pick[j]];
        if (add_step(W, W->action_letter[a], W->next) < 0)
            return -1;
        uint32_t j = no;
        while (j > 0 && ++W->pick[j - 1] == W->hi[j - 1]) {
            W->pick[j - 1] = W->lo[j - 1];
            j--;
        }
        if (j == 0)
            return 0;
    }
}

int co_network_steps(void *ctx, uint32_t s, const uint64_t **steps, size_t *n)
{
    co_network *W = ctx;
    uint32_t k = W->nparts;
    W->nbuf = 0;
    memcpy(W->cur, co_tuples_at(&W->states, s), k * sizeof *W->cur);
    for (uint32_t i = 0; i < k; i++) {
        const co_lts *l = &W->nodes[W->part[i]].l;
        uint32_t x = W->cur[i];
        for (uint32_t e = l->first[x]; e < l->first[x + 1]; e++) {
            uint32_t lab = l->lab[e];
            if (lab >= W->A) {
                memcpy(W->next, W->cur, k * sizeof *W->next);
                W->next[i] = l->dst[e];
                if (add_step(W, lab - W->A, W->next) < 0)
                    return -1;
            } else if (W->owner_part[W->owner_first[lab]] == i &&
                       (e == l->first[x] || l->lab[e - 1] != lab)) {
                /* an open action, made once: by the first part that has it */
                if (open_steps(W, lab) < 0)
                    return -1;
            }
        }
    }
    W->nbuf = co_sort_unique(W->buf, W->nbuf);
    *steps = W->buf;
    *n = W->nbuf;
    return 0;
}

int co_network_init(co_network *W, co_mem *cm, const co_node *nodes, const uint32_t *part,
                    uint32_t nparts, uint32_t nactions, const uint32_t *action_letter)
{
    memset(W, 0, sizeof *W);
    W->cm = cm;
    W->nodes = nodes;
    W->part = part;
    W->nparts = nparts;
    co_tuples_init(&W->states, nparts, 1);
    W->A = nactions;
    W->action_letter = action_letter;
    size_t room = 0;
    for (uint32_t i = 0; i < nparts; i++)
        room += nodes[part[i]].niface;
    if (!(W->owner_first = co_alloc(cm, (size_t)nactions + 1, sizeof *W->owner_first)) ||
        !(W->owner_part = co_alloc(cm, room, sizeof *W->owner_part)) ||
        !(W->cur = co_alloc(cm, nparts, sizeof *W->cur)) ||
        !(W->next = co_alloc(cm, nparts, sizeof *W->next)) ||
        !(W->lo = co_alloc(cm, nparts, sizeof *W->lo)) ||
        !(W->hi = co_alloc(cm, nparts, sizeof *W->hi)) ||
        !(W->pick = co_alloc(cm, nparts, sizeof *W->pick)))
        return -1;
    /* parts in order, so that each action's first owner comes first */
    for (uint32_t i = 0; i < nparts; i++)
        for (uint32_t x = 0; x < nodes[part[i]].niface; x++)
            W->owner_first[nodes[part[i]].iface[x] + 1]++;
    for (uint32_t a = 0; a < nactions; a++)
        W->owner_first[a + 1] += W->owner_first[a];
    uint32_t *fill = co_alloc(cm, nactions, sizeof *fill);
    if (!fill)
        return -1;
    for (uint32_t i = 0; i < nparts; i++)
        for (uint32_t x = 0; x < nodes[part[i]].niface; x++) {
            uint32_t a = nodes[part[i]].iface[x];
            W->owner_part[W->owner_first[a] + fill[a]++] = i;
        }
    co_free(cm, fill, nactions, sizeof *fill);
    for (uint32_t i = 0; i < nparts; i++)
        W->cur[i] = nodes[part[i]].l.init;
    W->init = tuple_number(W, W->cur);
    return W->init == CO_NONE ? -1 : 0;
}

void co_network_free(co_network *W)
{
    co_mem *cm = W->cm;
    size_t room = 0;
    for (uint32_t i = 0; i < W->nparts; i++)
        room += W->nodes[W->part[i]].niface;
    co_free(cm, W->owner_first, (size_t)W->A + 1, sizeof *W->owner_first);
    co_free(cm, W->owner_part, room, sizeof *W->owner_part);
    co_free(cm, W->cur, W->nparts, sizeof *W->cur);
    co_free(cm, W->next, W->nparts, sizeof *W->next);
    co_free(cm, W->lo, W->nparts, sizeof *W->lo);
    co_free(cm, W->hi, W->nparts, sizeof *W->hi);
    co_free(cm, W->pick, W->nparts, sizeof *W->pick);
    co_tuples_free(cm, &W->states);
    co_free_grown(cm, &W->buf, &W->cap_buf, sizeof *W->buf);
    memset(W, 0, sizeof *W);
}
