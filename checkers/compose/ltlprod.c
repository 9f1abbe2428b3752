/* The formula on what composing left (composeint.h): the automaton of its
 * negation (checkers/ltl/ltl2ba.h) multiplied on the fly with a system
 * that hands out each state's steps as (letter, target), and Couvreur's
 * search for an accepting cycle (FM'99), as the LTL checker does on nets.
 * A condition of the automaton reads only the step's letter, so it is
 * evaluated once per letter, not per step.  Without infinite_only a state
 * without steps repeats with no action (the "stutter letter").
 *
 * A state's steps are asked for once, when its frame is pushed, and kept
 * on a stack beside the frames (frames are popped in the reverse order). */
#include "base/clock.h"
#include "checkers/compose/composeint.h"
#include "checkers/ltl/ltl2ba.h"
#include "engine/progress.h"
#include "engine/stateeval.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_AUTOMATON_STATES 100000
#define DEAD_NUM UINT32_MAX

typedef struct frame {
    uint32_t id;
    uint32_t k;         /* automaton edge being tried */
    uint32_t e;         /* next step to try under it (no steps: 0 or 1, the stutter) */
    size_t off, n;      /* its steps: steps[off .. off + n) */
    uint64_t via;       /* the step that led here, CO_STUTTER_STEP, or CO_NO_STEP */
} frame;

typedef struct root {
    uint32_t num;
    uint64_t acc, in;
} root;

typedef struct prod {
    co_mem *cm;
    const co_system *sys;
    const tgba *a;
    int infinite_only;
    uint32_t nletters;          /* letter nletters: the stutter */
    uint8_t **ok;               /* per automaton state, edge: nletters + 1 flags */
    co_pairs states;            /* (system state, automaton state) */
    uint32_t *num;
    size_t cap_num;
    uint32_t count;
    uint64_t edges;
    frame *todo;
    size_t ntodo, cap_todo;
    uint64_t *steps;
    size_t nsteps, cap_steps;
    root *roots;
    size_t nroots, cap_roots;
    uint32_t *live;
    size_t nlive, cap_live;
    progress *prog;
} prod;

/* The number of (s, q), numbered 0 (unseen) when new; CO_NONE on a limit. */
static uint32_t number(prod *P, uint32_t s, uint32_t q)
{
    size_t before = P->states.n;
    uint32_t id = co_pairs_add(P->cm, &P->states, s, q);
    if (id == CO_NONE ||
        co_grow(P->cm, &P->num, &P->cap_num, P->states.n, sizeof *P->num) < 0)
        return CO_NONE;
    if (P->states.n > before)
        P->num[id] = 0;
    return id;
}

/* f's steps on the stack of steps. */
static int load_steps(prod *P, frame *f)
{
    f->off = P->nsteps;
    uint32_t s = co_pairs_x(&P->states, f->id);
    size_t n = 0;
    const uint64_t *buf;
    if (P->sys->steps(P->sys->ctx, s, &buf, &n) < 0)
        return -1;
    if (co_grow(P->cm, &P->steps, &P->cap_steps, P->nsteps + n, sizeof *P->steps) < 0)
        return -1;
    if (n)   /* a state without steps: nothing to copy, maybe nowhere yet */
        memcpy(P->steps + P->nsteps, buf, n * sizeof *buf);
    P->nsteps += n;
    f->n = n;
    return 0;
}

/* The next successor of f: 1 with *to, *acc, *via; 0 none left; -1 limit. */
static int next_succ(prod *P, frame *f, uint32_t *to, uint64_t *acc, uint64_t *via)
{
    uint32_t q = co_pairs_y(&P->states, f->id);
    uint32_t s = co_pairs_x(&P->states, f->id);
    const tgba_state *as = &P->a->states[q];
    for (; f->k < as->nedges; f->k++, f->e = 0) {
        const tgba_edge *ae = &as->edges[f->k];
        const uint8_t *ok = P->ok[q] + (size_t)f->k * (P->nletters + 1);
        if (!f->n) {
            if (P->infinite_only || f->e || !ok[P->nletters])
                continue;
            f->e = 1;
            *via = CO_STUTTER_STEP;
            *to = number(P, s, ae->dst);
        } else {
            const uint64_t *st = P->steps + f->off;
            uint32_t e = f->e;
            while (e < f->n && !ok[st[e] >> 32])
                e++;
            if (e == f->n)
                continue;
            f->e = e + 1;
            *via = st[e];
            *to = number(P, (uint32_t)st[e], ae->dst);
        }
        if (*to == CO_NONE)
            return -1;
        *acc = ae->acc;
        return 1;
    }
    return 0;
}

static int push(prod *P, uint32_t id, uint64_t in, uint64_t via)
{
    if (co_grow(P->cm, &P->todo, &P->cap_todo, P->ntodo + 1, sizeof *P->todo) < 0 ||
        co_grow(P->cm, &P->roots, &P->cap_roots, P->nroots + 1, sizeof *P->roots) < 0 ||
        co_grow(P->cm, &P->live, &P->cap_live, P->nlive + 1, sizeof *P->live) < 0)
        return -1;
    P->num[id] = ++P->count;
    frame *f = &P->todo[P->ntodo++];
    *f = (frame){ id, 0, 0, 0, 0, via };
    P->roots[P->nroots++] = (root){ P->count, 0, in };
    P->live[P->nlive++] = id;
    return load_steps(P, f);
}

/* ---- the counterexample ---- */

static int path_add(co_mem *cm, co_lasso *p, uint64_t step)
{
    if (co_grow(cm, &p->step, &p->cap, p->len + 1, sizeof *p->step) < 0)
        return -1;
    p->step[p->len++] = step;
    return 0;
}

/* Breadth-first inside the component (numbers at least low, not done)
 * from `from`, to a step into `target` (want == 0) or in one of the sets
 * `want`: the steps are appended to p, *got gets the edge's sets; the
 * state reached, or CO_NONE on a limit. */
static uint32_t bfs(prod *P, uint32_t low, uint32_t from, uint32_t target, uint64_t want,
                    uint64_t *got, co_lasso *p)
{
    co_mem *cm = P->cm;
    size_t n = P->states.n;
    uint32_t *parent = co_alloc(cm, n, sizeof *parent);
    uint64_t *pvia = co_alloc(cm, n, sizeof *pvia);
    uint32_t *queue = co_alloc(cm, n, sizeof *queue);
    uint32_t end = CO_NONE;
    size_t base = P->nsteps;
    if (!parent || !pvia || !queue)
        goto out;
    for (size_t i = 0; i < n; i++)
        parent[i] = CO_NONE;
    size_t head = 0, tail = 0;
    queue[tail++] = from;
    parent[from] = from;
    uint32_t hit_from = 0;
    uint64_t hit_via = 0;
    while (head < tail && end == CO_NONE) {
        uint32_t s = queue[head++];
        frame f = { s, 0, 0, 0, 0, 0 };
        P->nsteps = base;
        if (load_steps(P, &f) < 0)
            goto out;
        uint32_t to;
        uint64_t acc, via;
        int r;
        while (end == CO_NONE && (r = next_succ(P, &f, &to, &acc, &via)) == 1) {
            if (to >= n || P->num[to] == DEAD_NUM || P->num[to] < low || P->num[to] == 0)
                continue;
            if (want ? (acc & want) != 0 : to == target) {
                hit_from = s;
                hit_via = via;
                *got = acc;
                end = to;
            } else if (parent[to] == CO_NONE) {
                parent[to] = s;
                pvia[to] = via;
                queue[tail++] = to;
            }
        }
        if (r < 0)
            goto out;
    }
    if (end != CO_NONE) {
        size_t k = 0;
        for (uint32_t x = hit_from; x != from; x = parent[x])
            k++;
        if (co_grow(cm, &p->step, &p->cap, p->len + k + 1, sizeof *p->step) < 0) {
            end = CO_NONE;
            goto out;
        }
        size_t at = p->len + k;
        p->step[at] = hit_via;
        for (uint32_t x = hit_from; x != from; x = parent[x])
            p->step[--at] = pvia[x];
        p->len += k + 1;
    } else if (!cm->gave_up) {
        cm->gave_up = "no path inside an accepting component (a bug)";
    }
out:
    P->nsteps = base;
    co_free(cm, parent, n, sizeof *parent);
    co_free(cm, pvia, n, sizeof *pvia);
    co_free(cm, queue, n, sizeof *queue);
    return end;
}

/* The stem to the root of the accepting component, then a cycle from it
 * through every acceptance set and back. */
static int counterexample(prod *P, uint32_t rnum, co_lasso *run)
{
    size_t ri = 0;
    while (P->num[P->todo[ri].id] != rnum)
        ri++;
    for (size_t i = 1; i <= ri; i++)
        if (path_add(P->cm, run, P->todo[i].via) < 0)
            return -1;
    run->loop_start = run->len;
    uint32_t r = P->todo[ri].id, cur = r;
    uint64_t missing = P->a->all_acc;
    for (;;) {
        uint64_t got = 0;
        cur = bfs(P, rnum, cur, r, missing, &got, run);
        if (cur == CO_NONE)
            return -1;
        missing &= ~got;
        if (!missing && cur == r)
            return 0;
    }
}

/* ---- the search ---- */

static int search(prod *P, co_lasso *run, int want_run)
{
    uint32_t init = number(P, P->sys->init, 0);
    if (init == CO_NONE || push(P, init, 0, CO_NO_STEP) < 0)
        return -1;
    while (P->ntodo) {
        if (co_tick(P->cm) < 0)
            return -1;
        if (P->prog && !(P->cm->ticks & 0xfff))
            progress_maybe(P->prog, mono_now(), P->states.n, P->edges, P->cm->used, P->ntodo);
        frame *f = &P->todo[P->ntodo - 1];
        uint32_t to;
        uint64_t acc, via;
        int r = next_succ(P, f, &to, &acc, &via);
        if (r < 0)
            return -1;
        if (r == 1) {
            P->edges++;
            if (P->num[to] == 0) {
                if (push(P, to, acc, via) < 0)
                    return -1;
            } else if (P->num[to] != DEAD_NUM) {
                uint64_t a = acc;
                while (P->num[to] < P->roots[P->nroots - 1].num) {
                    root *top = &P->roots[--P->nroots];
                    a |= top->acc | top->in;
                }
                root *top = &P->roots[P->nroots - 1];
                top->acc |= a;
                if ((top->acc & P->a->all_acc) == P->a->all_acc) {
                    if (want_run && counterexample(P, top->num, run) < 0)
                        return -1;
                    return 1;
                }
            }
            continue;
        }
        uint32_t id = f->id;
        if (P->roots[P->nroots - 1].num == P->num[id]) {
            uint32_t low = P->num[id];
            P->nroots--;
            while (P->nlive && P->num[P->live[P->nlive - 1]] >= low &&
                   P->num[P->live[P->nlive - 1]] != DEAD_NUM)
                P->num[P->live[--P->nlive]] = DEAD_NUM;
        }
        P->nsteps = f->off;
        P->ntodo--;
    }
    return 0;
}

/* A step of letter x, for evaluating conditions: its first transition. */
static int letter_conditions(prod *P, const cnet_t *cn, const co_letters *L)
{
    co_mem *cm = P->cm;
    uint32_t *rep = co_alloc(cm, (size_t)L->nletters + 1, sizeof *rep);
    if (!rep)
        return -1;
    for (uint32_t x = 0; x <= L->nletters; x++)
        rep[x] = CN_NO_STEP;
    for (uint32_t t = cn->ntransitions; t-- > 0;)
        rep[L->trans_letter[t]] = t;
    int rc = -1;
    if (!(P->ok = co_alloc(cm, P->a->nstates, sizeof *P->ok)))
        goto out;
    for (uint32_t q = 0; q < P->a->nstates; q++) {
        const tgba_state *s = &P->a->states[q];
        if (!(P->ok[q] = co_alloc(cm, (size_t)s->nedges * (L->nletters + 1), 1)))
            goto out;
        for (uint32_t k = 0; k < s->nedges; k++)
            for (uint32_t x = 0; x <= L->nletters; x++) {
                int v = 1;
                for (uint32_t c = 0; c < s->edges[k].ncond && v == 1; c++)
                    v = cn_step_holds(cn, s->edges[k].cond[c], cn->initial, rep[x]);
                if (v < 0) {
                    cm->gave_up = "a condition the compose checker cannot evaluate";
                    goto out;
                }
                P->ok[q][(size_t)k * (L->nletters + 1) + x] = (uint8_t)v;
            }
    }
    rc = 0;
out:
    co_free(cm, rep, (size_t)L->nletters + 1, sizeof *rep);
    return rc;
}

int co_ltl_check(co_mem *cm, const cnet_t *cn, const co_letters *L, const co_system *sys,
                 const tree_t *formula, int infinite_only, int want_run, progress *prog,
                 co_lasso *out, uint64_t *states, uint64_t *edges, char *why, size_t whylen)
{
    memset(out, 0, sizeof *out);
    *states = *edges = 0;
    tree_t *neg = tree_unary(T_NOT, tree_copy(formula));
    tgba *a = neg ? ltl_to_tgba(neg, MAX_AUTOMATON_STATES, why, whylen) : NULL;
    tree_free(neg);
    if (!a)
        return -2;
    prod P;
    memset(&P, 0, sizeof P);
    P.cm = cm;
    P.sys = sys;
    P.a = a;
    P.infinite_only = infinite_only;
    P.nletters = L->nletters;
    P.prog = prog;
    int rc = letter_conditions(&P, cn, L);
    if (rc == 0)
        rc = search(&P, out, want_run);
    *states = P.states.n;
    *edges = P.edges;
    if (rc != 1)
        co_free_grown(cm, &out->step, &out->cap, sizeof *out->step);
    for (uint32_t q = 0; P.ok && q < a->nstates; q++)
        co_free(cm, P.ok[q], (size_t)a->states[q].nedges * (L->nletters + 1), 1);
    co_free(cm, P.ok, a->nstates, sizeof *P.ok);
    co_pairs_free(cm, &P.states);
    co_free_grown(cm, &P.num, &P.cap_num, sizeof *P.num);
    co_free_grown(cm, &P.todo, &P.cap_todo, sizeof *P.todo);
    co_free_grown(cm, &P.steps, &P.cap_steps, sizeof *P.steps);
    co_free_grown(cm, &P.roots, &P.cap_roots, sizeof *P.roots);
    co_free_grown(cm, &P.live, &P.cap_live, sizeof *P.live);
    tgba_free(a);
    return rc;
}
