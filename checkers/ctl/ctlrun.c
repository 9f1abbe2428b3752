/* The run that shows a CTL value at the initial marking, read off the
 * model's bitsets:
 *   E F ψ, E[φ U ψ] true; A G φ false   a shortest path (breadth-first,
 *                                       through φ-states for U) to a state
 *                                       of the goal;
 *   E G φ true; A F φ false             a walk inside the states of E G φ
 *                                       (of E G ¬φ) that ends in a deadlock
 *                                       or closes a loop;
 *   A[φ U ψ] false                      a walk inside the states where it
 *                                       fails, until φ fails too, a
 *                                       deadlock, or a loop (all without ψ);
 *   E X φ true; A X φ false             one step.
 * Each stays inside a set whose every state has the next step the walk
 * needs, by the fixpoint that defined it (ctl.c), so the walk cannot get
 * stuck. */
#include "checkers/ctl/ctlint.h"

#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX

/* The label of an edge from s to t (one exists). */
static uint32_t label_to(const ctl_model *m, uint32_t s, uint32_t t)
{
    uint64_t end = ctl_succ_end(m, s);
    for (uint64_t e = ctl_succ_begin(m, s); e < end; e++)
        if (*bv_u32(&m->g->targets, e) == t)
            return *bv_u32(&m->g->labels, e);
    return NONE;
}

/* Breadth-first from state 0 through states of `through` (NULL for all) to a
 * state of `goal`.  0 and the run in *run and *len, 1 when there is none, -1
 * on no memory. */
static int path_to(ctl_model *m, const uint64_t *through, const uint64_t *goal, uint32_t **run,
                   size_t *len)
{
    uint32_t *parent = malloc((size_t)m->n * 4), *queue = malloc((size_t)m->n * 4);
    int rc = -1;
    if (!parent || !queue)
        goto out;
    memset(parent, 0xff, (size_t)m->n * 4);
    size_t head = 0, tail = 0;
    uint32_t found = NONE;
    parent[0] = 0;
    queue[tail++] = 0;
    while (head < tail && found == NONE) {
        uint32_t s = queue[head++];
        if (BIT(goal, s)) {
            found = s;
            break;
        }
        if (through && !BIT(through, s))
            continue;
        uint64_t end = ctl_succ_end(m, s);
        for (uint64_t e = ctl_succ_begin(m, s); e < end; e++) {
            uint32_t t = *bv_u32(&m->g->targets, e);
            if (parent[t] == NONE) {
                parent[t] = s;
                queue[tail++] = t;
            }
        }
    }
    if (found == NONE) {
        rc = 1;
        goto out;
    }
    size_t n = 0;
    for (uint32_t s = found; s != 0; s = parent[s])
        n++;
    uint32_t *r = malloc((n ? n : 1) * 4);
    if (!r)
        goto out;
    size_t i = n;
    for (uint32_t s = found; s != 0; s = parent[s])
        r[--i] = label_to(m, parent[s], s);
    *run = r;
    *len = n;
    rc = 0;
out:
    free(parent);
    free(queue);
    return rc;
}

/* A walk from state 0 (which is in `inside`) through `inside`: it ends at
 * a state of `stop` (finite run), at a deadlock (loop_start = length), or
 * where it meets itself (loop_start = where the loop begins).  0, or -1 on
 * no memory. */
static int walk(ctl_model *m, const uint64_t *inside, const uint64_t *stop, uint32_t **run,
                size_t *len, size_t *loop_start)
{
    uint32_t *pos = malloc((size_t)m->n * 4), *r = malloc((size_t)m->n * 4 + 4);
    if (!pos || !r) {
        free(pos);
        free(r);
        return -1;
    }
    memset(pos, 0xff, (size_t)m->n * 4);
    size_t n = 0;
    uint32_t s = 0;
    *loop_start = RESULT_NO_LOOP;
    for (;;) {
        pos[s] = (uint32_t)n;
        if (stop && BIT(stop, s))
            break;
        uint64_t begin = ctl_succ_begin(m, s), end = ctl_succ_end(m, s), e = begin;
        if (begin == end) {
            *loop_start = n;
            break;
        }
        while (e < end && !BIT(inside, *bv_u32(&m->g->targets, e)))
            e++;
        if (e == end) {   /* cannot happen for the sets ctl.c computes */
            free(pos);
            free(r);
            return -1;
        }
        uint32_t t = *bv_u32(&m->g->targets, e);
        r[n++] = *bv_u32(&m->g->labels, e);
        if (pos[t] != NONE) {
            *loop_start = pos[t];
            break;
        }
        s = t;
    }
    free(pos);
    *run = r;
    *len = n;
    return 0;
}

/* One step from state 0 to a state of goal (it exists). */
static int step_to(ctl_model *m, const uint64_t *goal, uint32_t **run, size_t *len)
{
    uint64_t end = ctl_succ_end(m, 0);
    for (uint64_t e = ctl_succ_begin(m, 0); e < end; e++)
        if (BIT(goal, *bv_u32(&m->g->targets, e))) {
            if (!(*run = malloc(4)))
                return -1;
            **run = *bv_u32(&m->g->labels, e);
            *len = 1;
            return 0;
        }
    return 1;
}

int ctl_model_evidence(ctl_model *m, const tree_t *f, int value, result_t *res)
{
    /* the run shows why the whole formula has its value: it witnesses a
     * YES and is a counterexample to a NO, whatever negations stand above
     * the operator it follows */
    run_role role = value ? RUN_WITNESS : RUN_COUNTEREXAMPLE;
    while (f && f->op == T_NOT) {
        value = !value;
        f = f->l;
    }
    if (!f)
        return 1;
    int exists = f->op == T_EX || f->op == T_EF || f->op == T_EU || f->op == T_EG;
    int forall = f->op == T_AX || f->op == T_AF || f->op == T_AU || f->op == T_AG;
    if (!(exists && value) && !(forall && !value))
        return 1;
    uint64_t *phi = ctl_eval(m, f->l), *psi = NULL, *whole = NULL;
    uint32_t *run = NULL;
    size_t len = 0, loop = RESULT_NO_LOOP;
    int rc = -1;
    if (!phi)
        goto out;
    switch (f->op) {
    case T_EX:
        rc = step_to(m, phi, &run, &len);
        break;
    case T_AX:
        ctl_bits_complement(m, phi);
        rc = step_to(m, phi, &run, &len);
        break;
    case T_EF:
        rc = path_to(m, NULL, phi, &run, &len);
        break;
    case T_AG:
        ctl_bits_complement(m, phi);
        rc = path_to(m, NULL, phi, &run, &len);
        break;
    case T_EU:
        if ((psi = ctl_eval(m, f->r)))
            rc = path_to(m, phi, psi, &run, &len);
        break;
    case T_EG:
    case T_AF:
        if (!(whole = ctl_eval(m, f)))
            break;
        if (f->op == T_AF)   /* where A F φ fails, E G ¬φ holds */
            ctl_bits_complement(m, whole);
        rc = walk(m, whole, NULL, &run, &len, &loop);
        break;
    case T_AU:
        /* where A[φ U ψ] fails (and so ψ does), φ failing too ends it */
        if (!(whole = ctl_eval(m, f)))
            break;
        ctl_bits_complement(m, whole);
        ctl_bits_complement(m, phi);
        rc = walk(m, whole, phi, &run, &len, &loop);
        break;
    default:
        rc = 1;
    }
    if (rc == 0 && result_set_run(res, role, run, len, loop) < 0)
        rc = -1;
out:
    free(run);
    ctl_bits_free(m, phi);
    ctl_bits_free(m, psi);
    ctl_bits_free(m, whole);
    return rc;
}

void ctl_run(const cnet_t *cn, const tree_t *formula, const check_options *opt, result_t *res)
{
    double start = mono_now();
    int stopped;
    result_add_technique(res, "EXPLICIT");
    ctl_model *m = ctl_model_build(cn, &formula, 1, opt, NULL, NULL, &stopped, res);
    if (m) {
        char why[128];
        int v = ctl_model_check(m, formula, why, sizeof why);
        if (v < 0) {
            result_unknown(res, why);
        } else {
            res->answer = v ? ANSWER_YES : ANSWER_NO;
            /* without memory for the run, the answer stands alone */
            if (opt->want_run)
                (void)ctl_model_evidence(m, formula, v, res);
        }
        ctl_model_free(m);
    } else if (strstr(res->reason, "memory")) {
        /* the graph did not fit: the local check may still need only part
         * of the state space (no run then), by the same deadline */
        char why[128];
        ctl_local_stats stats = {0, 0};
        int v = ctl_local_check(cn, formula, opt, &stats, why, sizeof why);
        if (v >= 0) {
            res->answer = v ? ANSWER_YES : ANSWER_NO;
            res->reason[0] = '\0';
            res->states = stats.states;
        }
    }
    res->seconds = mono_now() - start;
}
