/* The product of ltl.h and its emptiness check.
 *
 * Successors of a product state (m, q): for each automaton edge q -> q'
 * whose condition holds in m, each net successor m' gives (m', q'); a dead
 * m gives (m, q') itself under LTL_STUTTER and nothing under
 * LTL_INFINITE.  The search (Couvreur) keeps a stack of SCC roots with the
 * acceptance sets seen inside each; an edge back into the live part merges
 * the roots above its target, and once a root's sets are all of them, the
 * cycle through it is accepting.  The counterexample is then the search
 * path to that root and, inside its component, breadth-first paths
 * through an edge of each acceptance set and back to the root.
 *
 * Under fairness the first accepting cycle may be unfair, so the search
 * does not stop at it: each component is judged when it is complete (its
 * root is popped), by fairscc.h on a copy of the component as a graph,
 * and the lasso runs through the fair part that judgement finds.  The
 * partial-order reduction is off then: it may postpone exactly the
 * transitions fairness speaks of, and nothing restores their enabledness
 * along the loop. */
#include "base/clock.h"
#include "base/grow.h"
#include "checkers/ltl/fairscc.h"
#include "checkers/ltl/ltl.h"
#include "checkers/ltl/ltl2ba.h"
#include "checkers/ltl/ltlpor.h"
#include "engine/cyclefree.h"
#include "engine/progress.h"
#include "engine/stateeval.h"
#include "engine/store.h"
#include "engine/stubbornset.h"
#include "engine/visible.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEAD_NUM UINT32_MAX
#define VIA_NONE UINT32_MAX
#define VIA_STUTTER (UINT32_MAX - 1)
#define POR_SAMPLE 1000
#define POR_MIN_SHARE 0.05
#define CLOCK_EVERY 4096u
#define MAX_AUTOMATON_STATES 100000

typedef struct frame {
    uint32_t id;
    uint32_t edge;      /* automaton edge being tried */
    uint32_t t;         /* next net transition to try (or 1: stutter done) */
    uint32_t via;       /* how this state was reached */
    int8_t cond;        /* the edge's condition holds: -1 not evaluated yet */
    int8_t dead;        /* the marking is a deadlock: -1 not known yet */
    int8_t full;        /* every transition is tried in turn, from the net */
    int8_t reduced;     /* the list is a stubborn set's, not all enabled */
    uint32_t nlist;     /* the transitions tried (full 0): */
    uint32_t list_at;   /* P->list[list_at..list_at+nlist) */
} frame;

typedef struct root {
    uint32_t num;
    uint64_t acc, in;
} root;

typedef struct product {
    const cnet_t *cn;
    const tgba *a;
    ltl_finite mode;
    store_t *st;
    uint8_t *key;
    uint32_t np;            /* places of the key: the net's + 1 */
    store_ref *refs;
    uint32_t *num;          /* per state: search number, 0 unseen, DEAD_NUM done */
    size_t nstates, crefs, cnum;
    nc_count *m;            /* decoded marking (+ automaton state) */
    uint32_t *marked;       /* its marked places */
    uint32_t nmarked;
    uint32_t *dplace;       /* a successor's changes: places and deltas */
    int64_t *ddelta;
    uint32_t m_of;
    uint8_t **per_step;     /* per automaton state and edge: a condition names actions */
    /* partial-order reduction, two kinds:
     *  - up to stuttering (por NULL; LTL without X and actions, deadlocks
     *    repeating): a frame whose marking has a transition with visible
     *    clear forming a stubborn set by itself tries only that one.
     *    visible holds, besides the visible transitions, invisible ones
     *    given up so that no T-invariant lies among the rest
     *    (cyclefree.h): no cycle of markings is made of reduced steps
     *    only, so the cycle condition holds of the reduced graph of
     *    markings itself.  A proviso on the product's search stack would
     *    not do: a marking reduced under one automaton state and expanded
     *    under another leaves the graph of markings without that
     *    condition (Siegel, CAV 2019; docs/por-actions.md);
     *  - word-exact (por set: actions, X, or infinite runs only): the
     *    enabled transitions of stubborn_exact's set for the automaton
     *    state's view of the steps (ltlpor.h), no proviso.
     * Each frame on the search stack lists the transitions it tries, all
     * enabled ones or a reduced set, on one stack: list. */
    stubborn_t *sb;
    ltl_por *por;
    uint8_t *visible;       /* never fired alone (up to stuttering) */
    uint32_t *enabled;
    uint32_t *list;
    size_t nlist, clist;
    /* finding the enabled transitions through the marked places' consumers
     * (and those that need nothing): stamps against testing one twice */
    uint32_t *tstamp, tepoch;
    uint32_t *always, nalways;
    /* a reduction that rarely applies only costs: judged after
     * POR_SAMPLE tries, dropped below POR_MIN_SHARE (sound: a fully
     * expanded state keeps what a reduced one would) */
    uint64_t por_tries, por_hits, por_enabled, por_fired;
    uint32_t por_cut;       /* invisible transitions never fired alone */
    size_t bytes, budget;
    uint64_t max_states;    /* -m: 0 none */
    double deadline;
    volatile int *interrupted;
    unsigned ticks;
    uint64_t edges;
    progress prog;
    const char *gave_up;
    /* fairness: the transitions under it numbered 0..nfair, and a
     * completed component copied out as a graph (reused, grown) */
    check_fairness fair;
    uint32_t *fair_index, nfair;
    size_t words;
    uint32_t *local;        /* per state: its node in the component */
    uint32_t *gstart, *gto, *glabel;
    uint64_t *gacc, *genabled;
    size_t clocal, cgstart, cgto, cglabel, cgacc, cgenabled;
} product;

/* Doubles *arr until it holds need, charged to the budget.  Only arrays
 * read before written (zero = 1) are cleared: touching every new page at
 * once made one doubling of the stacks, deep in a search, take longer than
 * a tenth of a one-second --timeout. */
static int grow(product *P, void *arrp, size_t *cap, size_t need, size_t elem, int zero)
{
    if (grow_charged(arrp, cap, need, elem, 1024, &P->bytes, P->budget, zero) < 0) {
        P->gave_up = "memory budget exhausted";
        return -1;
    }
    return 0;
}

/* depth: the search stack's, for the progress line. */
static int tick(product *P, size_t depth)
{
    if (++P->ticks % CLOCK_EVERY)
        return 0;
    if (P->interrupted && *P->interrupted) {
        P->gave_up = "interrupted";
        return -1;
    }
    double now = mono_now();
    if (P->deadline > 0 && now > P->deadline)
        P->gave_up = "time limit reached";
    progress_maybe(&P->prog, now, P->nstates, P->edges, P->bytes + store_bytes(P->st), depth);
    return P->gave_up ? -1 : 0;
}

/* The number of the product state whose key is P->key[0..len); -1 on a
 * limit. */
static int64_t number_of(product *P, size_t len)
{
    store_ref ref;
    uint64_t number;
    int r = store_number(P->st, P->key, len, P->nstates, &number, &ref);
    if (r < 0) {
        P->gave_up = r == STORE_OUT_OF_TIME ? "time limit reached" : "memory budget exhausted";
        return -1;
    }
    if (r == 0)
        return (int64_t)number;
    if (P->max_states && P->nstates >= P->max_states) {
        P->gave_up = "state limit reached";
        return -1;
    }
    if (P->nstates >= DEAD_NUM - 2 ||
        grow(P, &P->refs, &P->crefs, P->nstates + 1, sizeof *P->refs, 0) < 0 ||
        grow(P, &P->num, &P->cnum, P->nstates + 1, sizeof *P->num, 1) < 0) {
        P->gave_up = "memory budget exhausted";
        return -1;
    }
    P->refs[P->nstates] = ref;
    return (int64_t)P->nstates++;
}

/* P->m holds the marking of state id, and is the store's base for
 * encoding successors. */
static void load(product *P, uint32_t id)
{
    if (P->m_of == id)
        return;
    for (uint32_t i = 0; i < P->nmarked; i++)
        P->m[P->marked[i]] = 0;
    P->nmarked = store_decode(P->st, store_key(P->st, P->refs[id], NULL), P->m, P->marked);
    store_set_base(P->st, P->m, P->marked, P->nmarked);
    P->m_of = id;
}

static int by_number(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The enabled transitions of P->m, in increasing order, into P->enabled:
 * only those that need a marked place (or nothing) can be, and on a net
 * of many transitions and few marked places that is far fewer tests than
 * one per transition.  Returns their number. */
static uint32_t list_enabled(product *P)
{
    const cnet_t *cn = P->cn;
    uint64_t candidates = P->nalways;
    for (uint32_t i = 0; i < P->nmarked; i++)
        if (P->marked[i] < cn->nplaces)
            candidates += cn->consumers_start[P->marked[i] + 1] -
                          cn->consumers_start[P->marked[i]];
    uint32_t n = 0;
    if (candidates * 4 >= cn->ntransitions) {
        for (uint32_t t = 0; t < cn->ntransitions; t++)
            if (cn_enabled(cn, P->m, t))
                P->enabled[n++] = t;
        return n;
    }
    if (++P->tepoch == 0) {
        memset(P->tstamp, 0, cn->ntransitions * sizeof *P->tstamp);
        P->tepoch = 1;
    }
    for (uint32_t i = 0; i < P->nmarked; i++) {
        uint32_t p = P->marked[i];
        for (uint32_t k = p < cn->nplaces ? cn->consumers_start[p] : 0;
             p < cn->nplaces && k < cn->consumers_start[p + 1]; k++) {
            uint32_t t = cn->consumers[k];
            if (P->tstamp[t] != P->tepoch) {
                P->tstamp[t] = P->tepoch;
                if (cn_enabled(cn, P->m, t))
                    P->enabled[n++] = t;
            }
        }
    }
    for (uint32_t i = 0; i < P->nalways; i++)
        P->enabled[n++] = P->always[i];
    qsort(P->enabled, n, sizeof *P->enabled, by_number);
    return n;
}

/* The transitions f's marking (in P->m, enabled[0..nen)) tries: all of
 * them, or with partial-order reduction the enabled ones of a stubborn
 * set; onto P->list above the lists of the frames below it. */
static int list_frame(product *P, frame *f, uint32_t nen)
{
    if (P->nlist + nen >= UINT32_MAX) {
        P->gave_up = "memory budget exhausted";
        return -1;
    }
    if (grow(P, &P->list, &P->clist, P->nlist + nen + 1, sizeof *P->list, 0) < 0)
        return -1;
    uint32_t *out = P->list + P->nlist, n = nen;
    if (P->sb && nen > 1) {
        if (P->por) {
            uint32_t q = (uint32_t)P->m[P->np - 1];
            n = stubborn_exact(P->sb, P->m, P->enabled, nen, ltl_por_view(P->por, q), out);
        } else {
            uint32_t t = stubborn_single(P->sb, P->m, P->enabled, nen, P->visible);
            if (t != UINT32_MAX)
                out[0] = t, n = 1;
        }
        P->por_tries++;
        P->por_enabled += nen;
        P->por_fired += n;
        P->por_hits += n < nen;
        if (P->por_tries == POR_SAMPLE &&
            (double)P->por_hits < POR_MIN_SHARE * (double)P->por_tries)
            P->sb = NULL;   /* freed at the end through por_sb */
    }
    if (n == nen)
        memcpy(out, P->enabled, nen * sizeof *out);
    f->reduced = n < nen;
    f->list_at = (uint32_t)P->nlist;
    f->nlist = n;
    P->nlist += n;
    return 0;
}

/* All conditions of e hold at P->m (and, per_step, for firing t there). */
static int edge_holds(product *P, const tgba_edge *e, uint32_t t, int per_step)
{
    for (uint32_t c = 0; c < e->ncond; c++) {
        int v = per_step ? cn_step_holds(P->cn, e->cond[c], P->m, t)
                         : cn_state_holds(P->cn, e->cond[c], P->m);
        if (v < 0) {
            P->gave_up = "a condition the explicit checker cannot evaluate";
            return -1;
        }
        if (!v)
            return 0;
    }
    return 1;
}

/* The next successor of f's state: 1 with *to, *acc, *via set; 0 when
 * there are no more; -1 on a limit. */
static int next_succ(product *P, frame *f, uint32_t *to, uint64_t *acc, uint32_t *via)
{
    const cnet_t *cn = P->cn;
    load(P, f->id);
    uint32_t q = (uint32_t)P->m[P->np - 1];
    const tgba_state *s = &P->a->states[q];
    if (f->dead < 0 && f->full) {   /* a frame outside the search */
        f->dead = 1;
        for (uint32_t t = 0; t < cn->ntransitions && f->dead; t++)
            f->dead = !cn_enabled(cn, P->m, t);
    } else if (f->dead < 0) {
        uint32_t nen = list_enabled(P);
        f->dead = nen == 0;
        if (list_frame(P, f, nen) < 0)
            return -1;
    }
    int listed = !f->full;
    for (; f->edge < s->nedges; f->edge++, f->t = 0, f->cond = -1) {
        const tgba_edge *e = &s->edges[f->edge];
        /* A condition on the action taken is evaluated per step; one on
         * the marking alone once per edge. */
        int per_step = P->per_step && P->per_step[q] && P->per_step[q][f->edge];
        if (f->cond < 0 && !per_step) {
            f->cond = (int8_t)edge_holds(P, e, CN_NO_STEP, 0);
            if (f->cond < 0)
                return -1;
        }
        if (!per_step && !f->cond)
            continue;
        uint32_t nd = 0;
        if (f->dead) {
            if (P->mode != LTL_STUTTER || f->t)
                continue;
            f->t = 1;
            if (per_step) {
                int v = edge_holds(P, e, CN_NO_STEP, 1);
                if (v < 0)
                    return -1;
                if (!v)
                    continue;
            }
            *via = VIA_STUTTER;
        } else {
            /* f->t counts the list's members, or the transitions */
            uint32_t k = f->t, end = listed ? f->nlist : cn->ntransitions, t = 0;
            for (; k < end; k++) {
                t = listed ? P->list[f->list_at + k] : k;
                if (!listed && !cn_enabled(cn, P->m, t))
                    continue;
                if (!per_step)
                    break;
                int v = edge_holds(P, e, t, 1);
                if (v < 0)
                    return -1;
                if (v)
                    break;
            }
            if (k == end)
                continue;
            f->t = k + 1;
            for (uint32_t i = cn->eff_start[t]; i < cn->eff_start[t + 1]; i++) {
                P->dplace[nd] = cn->eff_place[i];
                P->ddelta[nd++] = cn->eff_delta[i];
            }
            *via = t;
        }
        if (e->dst != q) {   /* the automaton's move is one more place */
            P->dplace[nd] = P->np - 1;
            P->ddelta[nd++] = (int64_t)e->dst - (int64_t)q;
        }
        size_t len = store_encode_succ(P->st, P->m, P->dplace, P->ddelta, nd, P->key);
        if (len == 0) {
            P->gave_up = "token count overflow";
            return -1;
        }
        int64_t n = number_of(P, len);
        if (n < 0)
            return -1;
        *to = (uint32_t)n;
        *acc = e->acc;
        return 1;
    }
    return 0;
}

/* ---- the counterexample ---- */

typedef struct path {
    uint32_t *via;
    size_t n, cap;
} path;

static int path_add(path *p, uint32_t via)
{
    if (GROW(p->via, p->cap, p->n + 1) < 0)
        return -1;
    p->via[p->n++] = via;
    return 0;
}

/* Breadth-first inside the component (states numbered at least low and
 * not done) from `from`: to `target` when want_acc is 0, else through an
 * edge in acceptance set want_acc.  Appends the steps to p and returns the
 * state reached, or -1. */
static int64_t bfs(product *P, uint32_t low, uint32_t from, int64_t target, uint64_t want_acc,
                   path *p)
{
    size_t n = P->nstates;
    uint32_t *parent = malloc(n * sizeof *parent), *pvia = malloc(n * sizeof *pvia);
    uint32_t *queue = malloc(n * sizeof *queue);
    int64_t end = -1;
    if (!parent || !pvia || !queue)
        goto out;
    memset(parent, 0xff, n * sizeof *parent);
    size_t head = 0, tail = 0;
    queue[tail++] = from;
    parent[from] = from;
    uint32_t hit_from = 0, hit_to = 0, hit_via = 0;
    while (head < tail && end < 0) {
        uint32_t s = queue[head++];
        frame f = {s, 0, 0, 0, -1, -1, 1, 0, 0, 0};   /* every edge: any real one will do */
        uint32_t to, via;
        uint64_t acc;
        int r;
        while (end < 0 && (r = next_succ(P, &f, &to, &acc, &via)) == 1) {
            if (P->num[to] == DEAD_NUM || P->num[to] < low || P->num[to] == 0)
                continue;
            if (want_acc ? (acc & want_acc) != 0 : to == (uint32_t)target) {
                hit_from = s, hit_to = to, hit_via = via;
                end = to;
            } else if (parent[to] == UINT32_MAX) {
                parent[to] = s;
                pvia[to] = via;
                queue[tail++] = to;
            }
        }
        if (r < 0 && end < 0)
            goto out;
    }
    if (end >= 0) {
        /* from .. hit_from, then the hit edge */
        size_t k = 0;
        for (uint32_t s = hit_from; s != from; s = parent[s])
            k++;
        size_t base = p->n;
        for (size_t i = 0; i < k; i++)
            if (path_add(p, 0) < 0) {
                end = -1;
                goto out;
            }
        size_t i = base + k;
        for (uint32_t s = hit_from; s != from; s = parent[s])
            p->via[--i] = pvia[s];
        if (path_add(p, hit_via) < 0)
            end = -1;
        (void)hit_to;
    }
out:
    free(parent);
    free(pvia);
    free(queue);
    return end;
}

/* The lasso through the accepting component of root r: into res. */
static int counterexample(product *P, const frame *stack, size_t depth, uint32_t rnum,
                          result_t *res)
{
    size_t ri = 0;
    while (ri < depth && P->num[stack[ri].id] != rnum)
        ri++;
    if (ri == depth)
        return -1;
    path pre = {0}, cyc = {0};
    int rc = -1;
    for (size_t i = 1; i <= ri; i++)
        if (path_add(&pre, stack[i].via) < 0)
            goto out;
    uint32_t r = stack[ri].id, at = r;
    for (uint32_t k = 0; k < P->a->nacc; k++) {
        int64_t next = bfs(P, rnum, at, -1, (uint64_t)1 << k, &cyc);
        if (next < 0)
            goto out;
        at = (uint32_t)next;
    }
    if (at != r || cyc.n == 0) {
        if (bfs(P, rnum, at, r, 0, &cyc) < 0)
            goto out;
    }
    /* markings: stutter steps happen only at a deadlock, and a deadlock
     * has no other successor */
    int stutters = 0;
    for (size_t i = 0; i < cyc.n; i++)
        stutters |= cyc.via[i] == VIA_STUTTER;
    uint32_t *run = malloc((pre.n + cyc.n + 1) * sizeof *run);
    if (!run)
        goto out;
    size_t n = 0;
    for (size_t i = 0; i < pre.n; i++)
        if (pre.via[i] != VIA_STUTTER)
            run[n++] = pre.via[i];
    size_t loop = n;
    if (!stutters)
        for (size_t i = 0; i < cyc.n; i++)
            run[n++] = cyc.via[i];
    rc = result_set_run(res, RUN_COUNTEREXAMPLE, run, n, loop);
    free(run);
out:
    free(pre.via);
    free(cyc.via);
    return rc;
}

/* ---- the search ---- */

typedef struct stacks {
    frame *todo;
    size_t ntodo, ctodo;
    root *roots;
    size_t nroots, croots;
    uint32_t *live;
    size_t nlive, clive;
} stacks;

static int push(product *P, stacks *S, uint32_t *count, uint32_t id, uint64_t in, uint32_t via)
{
    if (grow(P, &S->todo, &S->ctodo, S->ntodo + 1, sizeof *S->todo, 0) < 0 ||
        grow(P, &S->roots, &S->croots, S->nroots + 1, sizeof *S->roots, 0) < 0 ||
        grow(P, &S->live, &S->clive, S->nlive + 1, sizeof *S->live, 0) < 0)
        return -1;
    P->num[id] = ++*count;
    S->roots[S->nroots++] = (root){*count, 0, in};
    S->live[S->nlive++] = id;
    S->todo[S->ntodo++] = (frame){id, 0, 0, via, -1, -1, 0, 0, 0, 0};
    return 0;
}


/* ---- fairness ---- */

/* The lasso: the search path to the component's root (the top of the
 * todo stack), then the stem and the cycle fair_cycle found, as net
 * transitions.  A cycle of stutter steps is a deadlock: the run ends
 * there. */
static int fair_lasso(product *P, const stacks *S, const uint32_t *stem,
                      size_t nstem, const uint32_t *cycle, size_t ncycle, result_t *res)
{
    uint32_t *run = malloc((S->ntodo + nstem + ncycle + 1) * sizeof *run);
    if (!run)
        return -1;
    size_t n = 0;
    for (size_t i = 1; i < S->ntodo; i++)
        if (S->todo[i].via != VIA_STUTTER)
            run[n++] = S->todo[i].via;
    for (size_t i = 0; i < nstem; i++)
        if (P->glabel[stem[i]] != FAIR_NO_LABEL)
            run[n++] = P->glabel[stem[i]];
    size_t loop = n;
    int stutters = 0;
    for (size_t i = 0; i < ncycle; i++)
        stutters |= P->glabel[cycle[i]] == FAIR_NO_LABEL;
    if (!stutters)
        for (size_t i = 0; i < ncycle; i++)
            run[n++] = P->glabel[cycle[i]];
    int rc = result_set_run(res, RUN_COUNTEREXAMPLE, run, n, loop);
    free(run);
    return rc;
}

/* The component of root number low is complete (the states of the live
 * stack numbered from low on): copies it out as a graph, with the fair
 * transitions enabled in each state, and asks fairscc.h for a fair
 * accepting cycle.  1 found (the lasso in res when wanted), 0 none, -1 a
 * limit. */
static int fair_component(product *P, stacks *S, uint32_t low, int want_run, result_t *res)
{
    size_t first = S->nlive;
    while (first && P->num[S->live[first - 1]] >= low && P->num[S->live[first - 1]] != DEAD_NUM)
        first--;
    const uint32_t *members = S->live + first;
    size_t n = S->nlive - first, nedges = 0;
    if (grow(P, &P->local, &P->clocal, P->nstates, sizeof *P->local, 0) < 0 ||
        grow(P, &P->gstart, &P->cgstart, n + 1, sizeof *P->gstart, 0) < 0 ||
        grow(P, &P->genabled, &P->cgenabled, n * P->words, sizeof *P->genabled, 0) < 0)
        return -1;
    for (size_t i = 0; i < n; i++)
        P->local[members[i]] = (uint32_t)i;
    for (size_t i = 0; i < n; i++) {
        if (tick(P, S->ntodo) < 0)
            return -1;
        uint32_t v = members[i];
        load(P, v);
        uint64_t *en = &P->genabled[i * P->words];
        memset(en, 0, P->words * sizeof *en);
        for (uint32_t t = 0; t < P->cn->ntransitions; t++) {
            uint32_t k = P->fair_index[t];
            if (k != FAIR_NOT_FAIR && cn_enabled(P->cn, P->m, t))
                en[k / 64] |= (uint64_t)1 << (k % 64);
        }
        P->gstart[i] = (uint32_t)nedges;
        frame f = {v, 0, 0, 0, -1, -1, 1, 0, 0, 0};
        uint32_t to, via;
        uint64_t acc;
        int r;
        while ((r = next_succ(P, &f, &to, &acc, &via)) == 1) {
            if (P->num[to] < low || P->num[to] == DEAD_NUM)
                continue;   /* another component */
            if (nedges >= UINT32_MAX - 1 ||
                grow(P, &P->gto, &P->cgto, nedges + 1, sizeof *P->gto, 0) < 0 ||
                grow(P, &P->glabel, &P->cglabel, nedges + 1, sizeof *P->glabel, 0) < 0 ||
                grow(P, &P->gacc, &P->cgacc, nedges + 1, sizeof *P->gacc, 0) < 0) {
                P->gave_up = "memory budget exhausted";
                return -1;
            }
            P->gto[nedges] = P->local[to];
            P->glabel[nedges] = via == VIA_STUTTER ? FAIR_NO_LABEL : via;
            P->gacc[nedges++] = acc;
        }
        if (r < 0)
            return -1;
    }
    P->gstart[n] = (uint32_t)nedges;
    if (!nedges)
        return 0;   /* one state without a loop */
    fair_graph g = {
        .n = (uint32_t)n, .start = P->gstart, .to = P->gto, .label = P->glabel,
        .acc = P->gacc, .all_acc = P->a->all_acc, .strong = P->fair == FAIRNESS_STRONG,
        .ntrans = P->cn->ntransitions, .fair_index = P->fair_index, .nfair = P->nfair,
        .enabled = P->genabled, .words = P->words,
    };
    uint32_t *stem = NULL, *cycle = NULL;
    size_t nstem = 0, ncycle = 0;
    size_t room = P->budget > P->bytes ? P->budget - P->bytes : 0;
    int r = fair_cycle(&g, room, &stem, &nstem, &cycle, &ncycle);
    if (r < 0) {
        P->gave_up = "memory budget exhausted";
        return -1;
    }
    if (r && want_run && fair_lasso(P, S, stem, nstem, cycle, ncycle, res) < 0)
        fprintf(stderr, "mck: no memory for the counterexample\n");
    free(stem);
    free(cycle);
    return r;
}

/* 1: an accepting cycle (counterexample in res when wanted), 0: none,
 * -1: a limit. */
static int search(product *P, int want_run, result_t *res)
{
    stacks S;
    memset(&S, 0, sizeof S);
    uint32_t count = 0;
    int rc = -1;
    nc_count *m0 = calloc(P->np, sizeof *m0);
    if (!m0) {
        P->gave_up = "memory budget exhausted";
        return -1;
    }
    memcpy(m0, P->cn->initial, P->cn->nplaces * sizeof *m0);
    int64_t init = number_of(P, store_encode(P->st, m0, P->key));
    free(m0);
    if (init < 0 || push(P, &S, &count, (uint32_t)init, 0, VIA_NONE) < 0)
        goto out;
    while (S.ntodo) {
        if (tick(P, S.ntodo) < 0)
            goto out;
        frame *f = &S.todo[S.ntodo - 1];
        uint32_t to, via;
        uint64_t acc;
        int r = next_succ(P, f, &to, &acc, &via);
        if (r < 0)
            goto out;
        if (r == 1) {
            P->edges++;
            if (P->num[to] == 0) {
                if (push(P, &S, &count, to, acc, via) < 0)
                    goto out;
            } else if (P->num[to] != DEAD_NUM) {
                uint64_t a = acc;
                while (P->num[to] < S.roots[S.nroots - 1].num) {
                    root *top = &S.roots[--S.nroots];
                    a |= top->acc | top->in;
                }
                root *top = &S.roots[S.nroots - 1];
                top->acc |= a;
                if (!P->fair && (top->acc & P->a->all_acc) == P->a->all_acc) {
                    if (want_run && counterexample(P, S.todo, S.ntodo, top->num, res) < 0)
                        fprintf(stderr, "mck: no memory for the counterexample\n");
                    rc = 1;
                    goto out;
                }
            }
            continue;
        }
        uint32_t id = f->id;
        if (S.roots[S.nroots - 1].num == P->num[id]) {
            uint32_t low = P->num[id];
            root *top = &S.roots[S.nroots - 1];
            if (P->fair && (top->acc & P->a->all_acc) == P->a->all_acc) {
                int r = fair_component(P, &S, low, want_run, res);
                if (r < 0)
                    goto out;
                if (r) {
                    rc = 1;
                    goto out;
                }
            }
            S.nroots--;
            while (S.nlive && P->num[S.live[S.nlive - 1]] >= low &&
                   P->num[S.live[S.nlive - 1]] != DEAD_NUM)
                P->num[S.live[--S.nlive]] = DEAD_NUM;
        }
        if (!f->full)
            P->nlist = f->list_at;
        S.ntodo--;
    }
    rc = 0;
out:
    free(S.todo);
    free(S.roots);
    free(S.live);
    return rc;
}

/* Which automaton edges read the action taken (RERS's propositions). */
static int mark_per_step(product *P)
{
    const tgba *a = P->a;
    P->per_step = calloc(a->nstates ? a->nstates : 1, sizeof *P->per_step);
    if (!P->per_step)
        return -1;
    for (uint32_t q = 0; q < a->nstates; q++) {
        const tgba_state *s = &a->states[q];
        if (!(P->per_step[q] = calloc(s->nedges ? s->nedges : 1, 1)))
            return -1;
        for (uint32_t k = 0; k < s->nedges; k++)
            for (uint32_t c = 0; c < s->edges[k].ncond; c++)
                if (tree_has_action(s->edges[k].cond[c]))
                    P->per_step[q][k] = 1;
    }
    return 0;
}

void ltl_run(const cnet_t *cn, const tree_t *formula, const check_options *opt, ltl_finite mode,
             result_t *res)
{
    double start = mono_now();
    result_add_technique(res, "EXPLICIT");
    char why[128] = "out of memory";
    tree_t *neg = tree_unary(T_NOT, tree_copy(formula));
    tgba *a = neg ? ltl_to_tgba(neg, MAX_AUTOMATON_STATES, why, sizeof why) : NULL;
    tree_free(neg);
    if (!a) {
        result_unknown(res, why);
        return;
    }
    product P;
    memset(&P, 0, sizeof P);
    P.cn = cn;
    P.a = a;
    P.mode = mode;
    P.np = cn->nplaces + 1;
    P.m_of = UINT32_MAX;
    P.deadline = opt->budget->deadline;
    P.interrupted = opt->budget->interrupted;
    P.max_states = opt->max_states;
    progress_start(&P.prog, opt, "ltl", "stack", start);
    budget_t stack = budget_carve(opt->budget, CARVE_LTL_STACK);
    budget_t states = budget_carve(opt->budget, CARVE_LTL_STATES);
    P.budget = stack.bytes;
    P.st = store_new(P.np, states.bytes, 1);
    if (P.st)
        store_set_deadline(P.st, P.deadline);
    P.key = P.st ? malloc(store_key_max(P.st) + 8) : NULL;
    P.m = calloc(P.np, sizeof *P.m);
    P.marked = calloc(P.np, sizeof *P.marked);
    uint32_t maxeff = 0;
    for (uint32_t t = 0; t < cn->ntransitions; t++)
        if (cn->eff_start[t + 1] - cn->eff_start[t] > maxeff)
            maxeff = cn->eff_start[t + 1] - cn->eff_start[t];
    P.dplace = calloc(maxeff + 1, sizeof *P.dplace);
    P.ddelta = calloc(maxeff + 1, sizeof *P.ddelta);
    int r = -1;
    stubborn_t *por_sb = NULL;
    if (opt->fairness != FAIRNESS_NONE) {
        P.fair_index = malloc((cn->ntransitions + 1) * sizeof *P.fair_index);
        if (P.fair_index)
            for (uint32_t t = 0; t < cn->ntransitions; t++)
                P.fair_index[t] = !opt->fair_set || opt->fair_set[t] ? P.nfair++ : FAIR_NOT_FAIR;
        else
            P.gave_up = "memory budget exhausted";
        P.words = (P.nfair + 63) / 64 ? (P.nfair + 63) / 64 : 1;
        /* no transition under fairness: every run is fair */
        P.fair = P.nfair ? opt->fairness : FAIRNESS_NONE;
    }
    P.enabled = calloc(cn->ntransitions + 1, sizeof *P.enabled);
    P.tstamp = calloc(cn->ntransitions + 1, sizeof *P.tstamp);
    P.always = calloc(cn->ntransitions + 1, sizeof *P.always);
    for (uint32_t t = 0; P.always && t < cn->ntransitions; t++)
        if (cn->need_start[t] == cn->need_start[t + 1])
            P.always[P.nalways++] = t;
    if (opt->partial_order && !P.fair) {
        /* up to stuttering where that applies, else word-exact */
        P.visible = calloc(cn->ntransitions + 1, 1);
        if (P.visible && mode == LTL_STUTTER &&
            visible_transitions(cn, formula, P.visible) == 0) {
            uint8_t *alone = malloc(cn->ntransitions + 1);
            if (alone) {
                for (uint32_t t = 0; t < cn->ntransitions; t++)
                    alone[t] = !P.visible[t];
                if (cyclefree_subset(cn, alone, &P.por_cut) == 0)
                    for (uint32_t t = 0; t < cn->ntransitions; t++)
                        P.visible[t] = !alone[t];
                else
                    memset(P.visible, 1, cn->ntransitions);
                free(alone);
                P.sb = por_sb = stubborn_new(cn);
            }
        }
        else if (P.visible && (P.por = ltl_por_new(cn, formula, a)) &&
                 !(P.sb = por_sb = stubborn_new(cn))) {
            ltl_por_free(P.por);
            P.por = NULL;
        }
    }
    if (P.gave_up)
        ;
    else if (tree_has_action(formula) && mark_per_step(&P) < 0)
        P.gave_up = "memory budget exhausted";
    else if (!P.key || !P.m || !P.marked || !P.dplace || !P.ddelta || !P.enabled ||
             !P.tstamp || !P.always)
        P.gave_up = "memory budget exhausted";
    else
        r = search(&P, opt->want_run, res);
    if (r < 0)
        result_unknown(res, P.gave_up ? P.gave_up : "memory budget exhausted");
    else
        res->answer = r ? ANSWER_NO : ANSWER_YES;
    res->states = P.nstates;
    res->edges = P.edges;
    res->peak_bytes = P.bytes + (P.st ? store_peak_bytes(P.st) : 0);
    res->seconds = mono_now() - start;
    if (P.per_step)
        for (uint32_t q = 0; q < a->nstates; q++)
            free(P.per_step[q]);
    free(P.per_step);
    if (P.por_hits)
        result_add_technique(res, "STUBBORN_SETS");   /* some markings were reduced */
    char cut[48] = "";
    if (por_sb && !P.por)
        snprintf(cut, sizeof cut, " (%u kept from cycles)",
                 P.por_cut);
    if (por_sb)
        snprintf(res->reduction, sizeof res->reduction,
                 "%s%s; %llu of %llu markings with a choice reduced, firing %llu of %llu "
                 "enabled transitions%s", !P.por ? "up to stuttering" :
                 ltl_por_own_views(P.por) ? "per automaton state" : "word-exact", cut,
                 (unsigned long long)P.por_hits, (unsigned long long)P.por_tries,
                 (unsigned long long)P.por_fired, (unsigned long long)P.por_enabled,
                 P.sb ? "" : " (dropped: too few reduced)");
    stubborn_free(por_sb);
    ltl_por_free(P.por);
    free(P.visible);
    free(P.enabled);
    free(P.list);
    free(P.tstamp);
    free(P.always);
    free(P.fair_index);
    free(P.local);
    free(P.gstart);
    free(P.gto);
    free(P.glabel);
    free(P.gacc);
    free(P.genabled);
    free(P.refs);
    free(P.num);
    free(P.m);
    free(P.marked);
    free(P.dplace);
    free(P.ddelta);
    free(P.key);
    store_free(P.st);
    tgba_free(a);
}
