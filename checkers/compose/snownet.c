/* The snowball and the components not in it yet, explored together on
 * the fly (composeint.h), when joining the next one would pass the
 * snowball's limit.  Every component is then in one of the parts, so
 * every step is closed: the snowball's hidden and reported steps alone,
 * and for each action every combination of an edge of it in the snowball
 * (its (action, flag) edge, or the observer's edge for the action's letter
 * when no component of the snowball has it) and in each other part that
 * has it, reported as its letter with the flag of that edge.  A step
 * (v, 1) reads 0 then v: it goes through a state of its own, a tuple with
 * v in its last slot. */
#include "checkers/compose/composeint.h"

#include <string.h>

#define TAU(A) (2 * (A))
#define OUT_BASE(A) (2 * (A) + 1)
#define ALONE_BASE(A, L) (2 * (A) + 1 + 2 * (L))

/* The number of tuple v, added when new; CO_NONE on a limit. */
static uint32_t number(co_snownet *W, const uint32_t *v)
{
    return co_tuples_add(W->cm, &W->states, v, NULL);
}

const uint32_t *co_snownet_tuple(const co_snownet *W, uint32_t s)
{
    return co_tuples_at(&W->states, s);
}

/* A step of letter x with flag g into W->next: (v, 1) through its own
 * state. */
static int add_step(co_snownet *W, uint32_t x, uint32_t g)
{
    uint32_t zero = W->S->L->empty;
    W->next[W->width - 1] = 0;
    uint32_t d = number(W, W->next);
    if (d == CO_NONE)
        return -1;
    uint64_t st;
    if (x != zero && g) {
        W->next[W->width - 1] = x + 1;
        uint32_t i = number(W, W->next);
        if (i == CO_NONE)
            return -1;
        st = (uint64_t)zero << 32 | i;
    } else {
        st = (uint64_t)x << 32 | d;
    }
    if (co_grow(W->cm, &W->buf, &W->cap_buf, W->nbuf + 1, sizeof *W->buf) < 0)
        return -1;
    W->buf[W->nbuf++] = st;
    return 0;
}

/* The snowball's edge to fdst with flag g, with every combination of an
 * a-edge of the other parts that have a. */
static int closed_steps(co_snownet *W, uint32_t a, uint32_t fdst, uint32_t g)
{
    uint32_t no = W->owner_first[a + 1] - W->owner_first[a];
    const uint32_t *own = W->owner + W->owner_first[a];
    for (uint32_t j = 0; j < no; j++) {
        const co_lts *l = &W->S->nodes[W->part[own[j]]].l;
        co_lts_labelled(l, W->cur[own[j]], a, &W->lo[j], &W->hi[j]);
        if (W->lo[j] == W->hi[j])
            return 0;
        W->pick[j] = W->lo[j];
    }
    memcpy(W->next, W->cur, W->width * sizeof *W->next);
    W->next[0] = fdst;
    for (;;) {
        for (uint32_t j = 0; j < no; j++)
            W->next[own[j]] = W->S->nodes[W->part[own[j]]].l.dst[W->pick[j]];
        if (add_step(W, W->S->action_letter[a], g) < 0)
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

int co_snownet_steps(void *ctx, uint32_t s, const uint64_t **steps, size_t *n)
{
    co_snownet *W = ctx;
    co_snow *S = W->S;
    uint32_t A = S->A, NL = S->L->nletters;
    W->nbuf = 0;
    memcpy(W->cur, co_tuples_at(&W->states, s), W->width * sizeof *W->cur);
    uint32_t pending = W->cur[W->width - 1];
    if (pending) {
        /* (v, 1) after its 0: v into the tuple itself */
        memcpy(W->next, W->cur, W->width * sizeof *W->next);
        if (add_step(W, pending - 1, 0) < 0)
            return -1;
    } else {
        const co_lts *F = &S->nodes[W->part[0]].l;
        uint32_t f = W->cur[0];
        for (uint32_t e = F->first[f]; e < F->first[f + 1]; e++) {
            uint32_t lab = F->lab[e];
            if (lab == TAU(A)) {
                memcpy(W->next, W->cur, W->width * sizeof *W->next);
                W->next[0] = F->dst[e];
                if (add_step(W, S->L->empty, 0) < 0)
                    return -1;
            } else if (lab > TAU(A) && lab < ALONE_BASE(A, NL)) {
                memcpy(W->next, W->cur, W->width * sizeof *W->next);
                W->next[0] = F->dst[e];
                if (add_step(W, (lab - OUT_BASE(A)) / 2, (lab - OUT_BASE(A)) % 2) < 0)
                    return -1;
            } else if (lab < 2 * A) {
                if (closed_steps(W, lab / 2, F->dst[e], lab % 2) < 0)
                    return -1;
            } else {
                /* the observer alone: every action of this letter no
                 * component of the snowball has */
                uint32_t v = (lab - ALONE_BASE(A, NL)) / 2, g = (lab - ALONE_BASE(A, NL)) % 2;
                for (uint32_t i = W->alone_first[v]; i < W->alone_first[v + 1]; i++)
                    if (closed_steps(W, W->alone[i], F->dst[e], g) < 0)
                        return -1;
            }
        }
    }
    W->nbuf = co_sort_unique(W->buf, W->nbuf);
    *steps = W->buf;
    *n = W->nbuf;
    return 0;
}

int co_snownet_init(co_snownet *W, co_snow *S, co_mem *cm, const uint32_t *part, uint32_t nparts)
{
    memset(W, 0, sizeof *W);
    W->S = S;
    W->cm = cm;
    W->part = part;
    W->nparts = nparts;
    W->width = nparts + 1;
    co_tuples_init(&W->states, W->width, 1);
    const co_comps *C = S->C;
    uint32_t A = S->A, NL = S->L->nletters;
    /* per action: the parts (1 ..) that have it; per letter: the actions
     * no component of the snowball has */
    uint32_t *part_of = co_alloc(cm, C->n, sizeof *part_of);
    if (!part_of ||
        !(W->owner_first = co_alloc(cm, (size_t)A + 1, sizeof *W->owner_first)) ||
        !(W->owner = co_alloc(cm, C->owner_first[A] ? C->owner_first[A] : 1, sizeof *W->owner)) ||
        !(W->alone_first = co_alloc(cm, (size_t)NL + 1, sizeof *W->alone_first)) ||
        !(W->alone = co_alloc(cm, A, sizeof *W->alone)) ||
        !(W->cur = co_alloc(cm, W->width, sizeof *W->cur)) ||
        !(W->next = co_alloc(cm, W->width, sizeof *W->next)) ||
        !(W->lo = co_alloc(cm, nparts, sizeof *W->lo)) ||
        !(W->hi = co_alloc(cm, nparts, sizeof *W->hi)) ||
        !(W->pick = co_alloc(cm, nparts, sizeof *W->pick))) {
        co_free(cm, part_of, C->n, sizeof *part_of);
        return -1;
    }
    for (uint32_t k = 0; k < C->n; k++)
        part_of[k] = 0;
    for (uint32_t i = 1; i < nparts; i++)
        part_of[S->nodes[part[i]].comp] = i;
    uint32_t n = 0;
    for (uint32_t a = 0; a < A; a++) {
        W->owner_first[a] = n;
        for (uint32_t j = C->owner_first[a]; j < C->owner_first[a + 1]; j++)
            if (part_of[C->owner[j]])
                W->owner[n++] = part_of[C->owner[j]];
    }
    W->owner_first[A] = n;
    co_free(cm, part_of, C->n, sizeof *part_of);
    uint32_t k = 0;
    for (uint32_t v = 0; v < NL; v++) {
        W->alone_first[v] = k;
        for (uint32_t a = 0; a < A; a++)
            if (S->action_letter[a] == v && !S->in[a] &&
                C->owner_first[a + 1] > C->owner_first[a])
                W->alone[k++] = a;
    }
    W->alone_first[NL] = k;
    W->cur[0] = S->nodes[part[0]].l.init;
    for (uint32_t i = 1; i < nparts; i++)
        W->cur[i] = S->nodes[part[i]].l.init;
    W->cur[nparts] = 0;
    W->init = number(W, W->cur);
    return W->init == CO_NONE ? -1 : 0;
}

void co_snownet_free(co_snownet *W)
{
    co_mem *cm = W->cm;
    if (!cm)
        return;
    uint32_t A = W->S->A, NL = W->S->L->nletters;
    const co_comps *C = W->S->C;
    co_free(cm, W->owner_first, (size_t)A + 1, sizeof *W->owner_first);
    co_free(cm, W->owner, C->owner_first[A] ? C->owner_first[A] : 1, sizeof *W->owner);
    co_free(cm, W->alone_first, (size_t)NL + 1, sizeof *W->alone_first);
    co_free(cm, W->alone, A, sizeof *W->alone);
    co_free(cm, W->cur, W->width, sizeof *W->cur);
    co_free(cm, W->next, W->width, sizeof *W->next);
    co_free(cm, W->lo, W->nparts, sizeof *W->lo);
    co_free(cm, W->hi, W->nparts, sizeof *W->hi);
    co_free(cm, W->pick, W->nparts, sizeof *W->pick);
    co_tuples_free(cm, &W->states);
    co_free_grown(cm, &W->buf, &W->cap_buf, sizeof *W->buf);
    memset(W, 0, sizeof *W);
}
