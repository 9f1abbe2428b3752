/* Facts every reachable marking satisfies, found from the net's arcs and
 * the initial marking (the fixpoint is explained in internal.h).  They are
 * cheap (linear in the arcs) and sound, so every examination starts with
 * them: a never-enabled transition refutes quasi-liveness and liveness, a
 * place no firing can change makes the marking stable, a transition that
 * needs only constant places it is given prevents every deadlock. */
#include "mcc/internal.h"

#include <stdlib.h>
#include <string.h>

static int needs_met(const cnet_t *cn, const mcc_structure *s, uint32_t t)
{
    for (uint32_t i = cn->need_start[t]; i < cn->need_start[t + 1]; i++) {
        uint32_t p = cn->need_place[i];
        if (!s->gainable[p] && cn->initial[p] < cn->need_weight[i])
            return 0;
    }
    return 1;
}

/* Marks t as possibly firing and queues the places it adds to. */
static void admit(const cnet_t *cn, mcc_structure *s, uint32_t t, uint32_t *queue, uint32_t *nq)
{
    s->may_fire[t] = 1;
    for (uint32_t i = cn->eff_start[t]; i < cn->eff_start[t + 1]; i++) {
        uint32_t p = cn->eff_place[i];
        if (cn->eff_delta[i] > 0 && !s->gainable[p]) {
            s->gainable[p] = 1;
            queue[(*nq)++] = p;
        }
    }
}

static void fixpoint(const cnet_t *cn, mcc_structure *s, uint32_t *queue)
{
    uint32_t nq = 0;
    for (uint32_t t = 0; t < cn->ntransitions; t++)
        if (needs_met(cn, s, t))
            admit(cn, s, t, queue, &nq);
    /* A place turning gainable can only help the transitions that need it. */
    while (nq) {
        uint32_t p = queue[--nq];
        for (uint32_t k = cn->consumers_start[p]; k < cn->consumers_start[p + 1]; k++) {
            uint32_t t = cn->consumers[k];
            if (!s->may_fire[t] && needs_met(cn, s, t))
                admit(cn, s, t, queue, &nq);
        }
    }
}

static void derive(const cnet_t *cn, mcc_structure *s)
{
    memset(s->frozen, 1, cn->nplaces);
    for (uint32_t t = 0; t < cn->ntransitions; t++) {
        if (!s->may_fire[t]) {
            s->ndead++;
            continue;
        }
        for (uint32_t i = cn->eff_start[t]; i < cn->eff_start[t + 1]; i++)
            s->frozen[cn->eff_place[i]] = 0;
    }
    for (uint32_t p = 0; p < cn->nplaces; p++) {
        s->nfrozen += s->frozen[p];
        if (cn->initial[p] > 1)
            s->initial_unsafe = 1;
    }
    for (uint32_t t = 0; t < cn->ntransitions && !s->never_deadlocks; t++) {
        int always = 1;
        for (uint32_t i = cn->need_start[t]; i < cn->need_start[t + 1] && always; i++) {
            uint32_t p = cn->need_place[i];
            always = s->frozen[p] && cn->initial[p] >= cn->need_weight[i];
        }
        s->never_deadlocks = always;
    }
}

int mcc_structure_compute(const cnet_t *cn, mcc_structure *s)
{
    memset(s, 0, sizeof *s);
    size_t P = cn->nplaces ? cn->nplaces : 1, T = cn->ntransitions ? cn->ntransitions : 1;
    s->may_fire = calloc(T, 1);
    s->frozen = calloc(P, 1);
    s->gainable = calloc(P, 1);
    uint32_t *queue = malloc(P * sizeof *queue);
    if (!s->may_fire || !s->frozen || !s->gainable || !queue) {
        free(queue);
        mcc_structure_free(s);
        return -1;
    }
    fixpoint(cn, s, queue);
    free(queue);
    derive(cn, s);
    return 0;
}

void mcc_structure_free(mcc_structure *s)
{
    free(s->may_fire);
    free(s->frozen);
    free(s->gainable);
    memset(s, 0, sizeof *s);
}
