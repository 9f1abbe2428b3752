/* The formula on the last snowball and its counterexample lifted to the
 * net (composeint.h; snowball.c builds what this reads).
 *
 * A state of the net is here a marking with the gap flag.  The relation
 * "(m, g) lies in snowball state B" (co_state_of, with the observer's
 * leaf at g) is a branching bisimulation with explicit divergence, hidden
 * steps being the net's steps of letter 0 (which set the flag).  So an
 * abstract step B -x-> B' lifts to hidden steps that stay in B, then one
 * step of x into B': a breadth-first search over the markings of B from
 * the current one finds it.  A hidden step B -tau-> B is a divergence:
 * one hidden step that stays in B (every state of a divergent block has
 * one).  The abstract (v, 1) reads 0 then v; the 0 is no step of its own.
 * The word of the lifted run has the same reports (v, flag) and ends the
 * same way, so the formula, which has no X, cannot tell it from the
 * abstract one.  The loop is lifted turn after turn until a state where a
 * turn starts repeats; each search is deterministic (transitions in the
 * net's order, breadth first), so it does. */
#include "checkers/compose/composeint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


typedef struct blifter {
    co_snow *S;
    co_mem *cm;
    const cnet_t *cn;
    const uint32_t *part;       /* the nodes whose states make a block */
    uint32_t nparts;
    uint32_t k;                 /* components */
    nc_count *m, *next;
    uint32_t flag;
    uint32_t *val;
    uint32_t *run;
    size_t len, cap;
    /* a search: states as components' local states and the flag */
    co_tuples states;           /* width k + 1 */
    uint32_t *parent, *via;
    size_t cap_parent, cap_via;
    uint32_t *path;
    size_t cap_path;
} blifter;

static void to_vec(const blifter *f, const nc_count *m, uint32_t flag, uint32_t *v)
{
    const co_comps *c = f->S->C;
    for (uint32_t q = 0; q < f->k; q++) {
        v[q] = CO_NONE;
        for (uint32_t j = c->comp_first[q]; j < c->comp_first[q + 1]; j++)
            if (m[c->comp_place[j]])
                v[q] = j - c->comp_first[q];
    }
    v[f->k] = flag;
}

static void from_vec(const blifter *f, const uint32_t *v, nc_count *m, uint32_t *flag)
{
    const co_comps *c = f->S->C;
    memset(m, 0, f->cn->nplaces * sizeof *m);
    for (uint32_t q = 0; q < f->k; q++)
        if (v[q] != CO_NONE)
            m[c->comp_place[c->comp_first[q] + v[q]]] = 1;
    *flag = v[f->k];
}

/* Whether (m, flag) lies in the block tuple b (one state a part). */
static int in_block(blifter *f, const nc_count *m, uint32_t flag, const uint32_t *b)
{
    co_state_of(f->S->C, f->S->nodes, f->S->nnodes, m, flag, f->val);
    for (uint32_t i = 0; i < f->nparts; i++)
        if (f->val[f->part[i]] != b[i])
            return 0;
    return 1;
}

/* The number of state v in the search's table, added when new (then
 * *added); CO_NONE on a limit. */
static uint32_t visit(blifter *f, const uint32_t *v, int *added)
{
    uint32_t id = co_tuples_add(f->cm, &f->states, v, added);
    if (id == CO_NONE ||
        co_grow(f->cm, &f->parent, &f->cap_parent, (size_t)id + 1, sizeof *f->parent) < 0 ||
        co_grow(f->cm, &f->via, &f->cap_via, (size_t)id + 1, sizeof *f->via) < 0)
        return CO_NONE;
    return id;
}

/* From the current state, in block from: hidden steps within it, then a
 * step of the kind wanted (a hidden one into to; an inert one; one of
 * letter x with the flag at g into to), appended to the run. */
static int lift_step(blifter *f, co_step_kind kind, const uint32_t *from, const uint32_t *to,
                     uint32_t x, uint32_t g)
{
    const cnet_t *cn = f->cn;
    uint32_t zero = f->S->L->empty;
    uint32_t *v = f->path;   /* room for one vector before the path is used */
    if (!in_block(f, f->m, f->flag, from)) {
        f->cm->gave_up = "a lifted state left its block (a bug)";
        return -1;
    }
    co_tuples_clear(&f->states);
    int added;
    to_vec(f, f->m, f->flag, v);
    if (visit(f, v, &added) == CO_NONE)
        return -1;
    f->parent[0] = CO_NONE;
    uint32_t hit = CO_NONE, hit_t = 0;
    for (size_t head = 0; head < f->states.n && hit == CO_NONE; head++) {
        if (co_tick(f->cm) < 0)
            return -1;
        uint32_t flag;
        from_vec(f, co_tuples_at(&f->states, (uint32_t)head), f->m, &flag);
        for (uint32_t t = 0; t < cn->ntransitions && hit == CO_NONE; t++) {
            uint32_t xt = f->S->L->trans_letter[t];
            int hidden = xt == zero;
            if (!hidden && (kind != CO_STEP_SEEN || xt != x || flag != g))
                continue;
            if (!cn_enabled(cn, f->m, t))
                continue;
            memcpy(f->next, f->m, cn->nplaces * sizeof *f->next);
            if (cn_fire(cn, f->next, t) < 0)
                continue;
            uint32_t nflag = hidden ? 1 : 0;
            int into_to = kind != CO_STEP_INERT && in_block(f, f->next, nflag, to);
            int stays = hidden && in_block(f, f->next, nflag, from);
            if ((kind == CO_STEP_SEEN && !hidden && into_to) ||
                (kind == CO_STEP_HIDDEN && hidden && into_to) ||
                (kind == CO_STEP_INERT && stays)) {
                hit = (uint32_t)head;
                hit_t = t;
                break;
            }
            if (stays) {
                to_vec(f, f->next, 1, v);
                uint32_t id = visit(f, v, &added);
                if (id == CO_NONE)
                    return -1;
                if (added) {
                    f->parent[id] = (uint32_t)head;
                    f->via[id] = t;
                }
            }
        }
    }
    if (hit == CO_NONE) {
        f->cm->gave_up = "a step of the reduced counterexample did not lift (a bug)";
        return -1;
    }
    /* the hidden steps to hit, then hit_t */
    size_t n = 0;
    for (uint32_t x2 = hit; f->parent[x2] != CO_NONE; x2 = f->parent[x2])
        n++;
    if (co_grow(f->cm, &f->run, &f->cap, f->len + n + 1, sizeof *f->run) < 0)
        return -1;
    size_t at = f->len + n;
    f->run[at] = hit_t;
    for (uint32_t x2 = hit; f->parent[x2] != CO_NONE; x2 = f->parent[x2])
        f->run[--at] = f->via[x2];
    f->len += n + 1;
    uint32_t flag;
    from_vec(f, co_tuples_at(&f->states, hit), f->m, &flag);
    cn_fire(cn, f->m, hit_t);
    f->flag = f->S->L->trans_letter[hit_t] == zero ? 1 : 0;
    return 0;
}

/* The turn whose start had the current state, or -1 after recording it;
 * -2 on a limit. */
static int64_t turn_seen(blifter *f, co_tuples *T)
{
    uint32_t *v = f->path;
    to_vec(f, f->m, f->flag, v);
    int added;
    uint32_t turn = co_tuples_add(f->cm, T, v, &added);
    if (turn == CO_NONE)
        return -2;
    return added ? -1 : (int64_t)turn;
}

int co_lift_branching(co_snow *S, const uint32_t *part, uint32_t nparts, const co_bpath *P,
                      result_t *res)
{
    co_mem *cm = S->cm;
    const cnet_t *cn = S->cn;
    blifter f;
    memset(&f, 0, sizeof f);
    f.S = S;
    f.cm = cm;
    f.cn = cn;
    f.part = part;
    f.nparts = nparts;
    f.k = S->C->n;
    co_tuples T;
    co_tuples_init(&T, f.k + 1, 0);
    co_tuples_init(&f.states, f.k + 1, 0);
    int rc = -1;
    size_t loop_at = RESULT_NO_LOOP, *turn_start = NULL, cap_turn = 0;
    if (!(f.m = co_alloc(cm, cn->nplaces, sizeof *f.m)) ||
        !(f.next = co_alloc(cm, cn->nplaces, sizeof *f.next)) ||
        !(f.val = co_alloc(cm, S->nnodes, sizeof *f.val)) ||
        co_grow(cm, &f.path, &f.cap_path, (size_t)f.k + 1, sizeof *f.path) < 0)
        goto out;
    memcpy(f.m, cn->initial, cn->nplaces * sizeof *f.m);
    f.flag = 0;
    for (size_t i = 0; i < P->loop_start; i++) {
        const co_bstep *st = &P->step[i];
        if (st->kind != CO_STEP_NONE &&
            lift_step(&f, st->kind, P->tuple + (size_t)st->from * nparts,
                      P->tuple + (size_t)st->to * nparts, st->letter, st->g) < 0)
            goto out;
    }
    for (;;) {
        int64_t turn = turn_seen(&f, &T);
        if (turn == -2)
            goto out;
        if (turn >= 0) {
            loop_at = turn_start[turn];
            break;
        }
        if (co_grow(cm, &turn_start, &cap_turn, T.n, sizeof *turn_start) < 0)
            goto out;
        turn_start[T.n - 1] = f.len;
        for (size_t i = P->loop_start; i < P->len; i++) {
            const co_bstep *st = &P->step[i];
            if (st->kind != CO_STEP_NONE &&
                lift_step(&f, st->kind, P->tuple + (size_t)st->from * nparts,
                          P->tuple + (size_t)st->to * nparts, st->letter, st->g) < 0)
                goto out;
        }
    }
    if (result_set_run(res, RUN_COUNTEREXAMPLE, f.run, f.len, loop_at) < 0) {
        cm->gave_up = "memory budget exhausted";
        goto out;
    }
    rc = 0;
out:
    co_free(cm, f.m, cn->nplaces, sizeof *f.m);
    co_free(cm, f.next, cn->nplaces, sizeof *f.next);
    co_free(cm, f.val, S->nnodes, sizeof *f.val);
    co_free_grown(cm, &f.run, &f.cap, sizeof *f.run);
    co_tuples_free(cm, &f.states);
    co_free_grown(cm, &f.parent, &f.cap_parent, sizeof *f.parent);
    co_free_grown(cm, &f.via, &f.cap_via, sizeof *f.via);
    co_free_grown(cm, &f.path, &f.cap_path, sizeof *f.path);
    co_tuples_free(cm, &T);
    co_free_grown(cm, &turn_start, &cap_turn, sizeof *turn_start);
    return rc;
}

/* The lasso of the last snowball as letters, as steps between its states:
 * a state of (v, 1)'s 0 is no step of its own; leaving it is the step of
 * v with the flag set. */
static int word_path(co_snow *S, const uint32_t *unkeep, const co_lasso *lasso, uint32_t init,
                     co_bpath *P)
{
    co_mem *cm = S->cm;
    uint32_t Fn = S->nword - S->ninter;
    size_t n = lasso->len ? lasso->len : 1;
    if (!(P->step = co_alloc(cm, n, sizeof *P->step)) ||
        !(P->tuple = co_alloc(cm, Fn ? Fn : 1, sizeof *P->tuple)))
        return -1;
    P->ntuples = Fn;
    for (uint32_t q = 0; q < Fn; q++)
        P->tuple[q] = q;
    P->len = lasso->len;
    P->loop_start = lasso->loop_start;
    uint32_t at = init;
    for (size_t i = 0; i < lasso->len; i++) {
        uint32_t x = (uint32_t)(lasso->step[i] >> 32), d = unkeep[(uint32_t)lasso->step[i]];
        co_bstep *st = &P->step[i];
        if (d >= Fn) {
            st->kind = CO_STEP_NONE;
        } else if (at >= Fn) {
            uint32_t k = at - Fn;
            *st = (co_bstep){ CO_STEP_SEEN, S->inter_lab[k], 1, S->inter_from[k], S->inter_to[k] };
        } else if (x == S->L->empty) {
            *st = (co_bstep){ at == d ? CO_STEP_INERT : CO_STEP_HIDDEN, 0, 0, at, d };
        } else {
            *st = (co_bstep){ CO_STEP_SEEN, x, 0, at, d };
        }
        at = d;
    }
    return 0;
}

int co_snowball_check(co_snow *S, const co_lts *word, const tree_t *formula, result_t *res)
{
    const check_options *opt = S->opt;
    co_mem *chk = S->chk;
    co_lts_system LS = { chk, word, S->A, NULL, 0, 0 };
    const co_system sys = { &LS, word->init, co_lts_steps };
    co_lasso lasso;
    uint64_t states, edges;
    char why[160] = "";
    int r = co_ltl_check(chk, S->cn, S->L, &sys, formula, 1, opt->want_run, S->prog, &lasso,
                         &states, &edges, why, sizeof why);
    co_free_grown(chk, &LS.buf, &LS.cap, sizeof *LS.buf);
    res->states += states;
    res->edges += edges;
    if (opt->verbose)
        fprintf(stderr, "compose: the formula: %llu product states, %llu edges: %s\n",
                (unsigned long long)states, (unsigned long long)edges,
                r == 0 ? "holds" : r == 1 ? "fails" : "gave up");
    if (r == -2)
        result_unknown(res, why);
    if (r < 0)
        return r == -2 ? 0 : -1;
    res->answer = r ? ANSWER_NO : ANSWER_YES;
    if (r == 0 || !opt->want_run)
        return 0;
    /* the pruned states back to the word's */
    uint32_t *unkeep = co_alloc(S->cm, word->nstates, sizeof *unkeep);
    if (unkeep) {
        for (uint32_t s = 0; s < S->nword; s++)
            if (S->keep[s] != CO_NONE)
                unkeep[S->keep[s]] = s;
        co_bpath P;
        memset(&P, 0, sizeof P);
        uint32_t root = S->root;
        if (word_path(S, unkeep, &lasso, unkeep[word->init], &P) < 0 ||
            co_lift_branching(S, &root, 1, &P, res) < 0) {
            if (co_lift_contradicts(S->cm->gave_up))
                S->unlifted = S->cm->gave_up;
            else
                fprintf(stderr, "mck: compose: no counterexample: %s\n",
                        S->cm->gave_up ? S->cm->gave_up : "memory budget exhausted");
        }
        S->cm->gave_up = NULL;
        co_bpath_free(S->cm, &P, 1);
    }
    co_free(S->cm, unkeep, word->nstates, sizeof *unkeep);
    co_free_grown(chk, &lasso.step, &lasso.cap, sizeof *lasso.step);
    return 0;
}

void co_bpath_free(co_mem *cm, co_bpath *P, uint32_t nparts)
{
    co_free(cm, P->step, P->len ? P->len : 1, sizeof *P->step);
    co_free(cm, P->tuple, (P->ntuples ? P->ntuples : 1) * (size_t)nparts, sizeof *P->tuple);
    memset(P, 0, sizeof *P);
}
