/* Local CTL: the value of a formula at the initial marking, exploring only
 * the markings its evaluation asks for, so that formulas whose value shows
 * near the initial marking are answered on state spaces far too big for
 * the graph of ctl.c.  Same semantics (mcc-formats.md §3.4).
 *
 * Each subformula keeps a value per state (unknown, true, false, or in the
 * current search).  The temporal operators are depth-first searches over
 * the markings, each deciding its start state and, as it goes, every
 * state it visited wherever that is sound:
 *   E[φ U ψ], E F ψ   look for a ψ-state through φ-states: found, the
 *                     states on the stack hold; exhausted, every visited
 *                     state fails (all it reaches through φ was seen);
 *   A G φ             the same search for a ¬φ-state, values inverted;
 *   E G φ             look, among φ-states, for a deadlock or a cycle (an
 *                     edge back into the stack): found, the stack holds;
 *                     exhausted, no visited state has such a path;
 *   A[φ U ψ], A F ψ   look, among ¬ψ-states, for a ¬φ-state, a deadlock or
 *                     a cycle: found, the stack fails; exhausted, every
 *                     visited state holds (its ¬ψ-paths are finite and end
 *                     in ψ);
 *   E X, A X          the successors.
 * A visited state that left the stack before a search succeeded may have
 * depended on a state still on it: it goes back to unknown.  Subformulas
 * evaluate their children at the states they need, recursively; a
 * subformula never re-enters its own search, so each has one stack.
 *
 * With opt->partial_order, the searches of E F ψ and A G φ whose operand
 * is a state formula fire only a stubborn set's enabled transitions,
 * seeded by what must fire before ψ (or ¬φ) can hold (engine/goalseed.h):
 * the reduced graph keeps a path to such a state from every state it
 * holds.  So "found" still holds on the stack, and "exhausted" still
 * fails every visited state: a full path from one of them into the goal
 * has a reduced one, which cannot leave the visited states (their reduced
 * successors were all tried) except through a state already known to
 * miss the goal, which would then reach it.
 *
 * Evidence: when the formula is, under negations, one temporal operator
 * over state formulas, its search from the initial marking is the only
 * one it makes, and the stack it ends with is the run the explicit
 * checker would show: to the goal state (E F, E U, A G, and A U at a
 * state where φ fails), into a deadlock that repeats (E G, A F, A U), or
 * around a loop closed by the edge back into the stack (E G, A F, A U).
 *
 * States live in one store, numbered (store_number), and an array maps
 * numbers back to records.  Nothing is
 * allocated per state: stacks, value arrays and that map grow by doubling
 * under the memory budget. */
#include "base/clock.h"
#include "base/grow.h"
#include "checkers/ctl/ctl.h"
#include "engine/goalseed.h"
#include "engine/progress.h"
#include "engine/stateeval.h"
#include "engine/store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { V_UNKNOWN, V_TRUE, V_FALSE, V_STACK, V_DONE };
#define CLOCK_EVERY 4096u

typedef struct frame {
    uint32_t state, next;   /* next: the transition to try next (its index in
                               the frame's list when the node reduces) */
    uint32_t first, count;  /* the frame's stubborn set in its node's list */
} frame;

typedef struct lnode {
    int is_state;           /* t is a state formula, evaluated on the marking */
    tree_op op;
    const tree_t *t;
    struct lnode *l, *r;
    uint8_t *val;           /* per state: V_* */
    size_t nval;
    frame *stack;
    size_t nstack, cstack;
    uint32_t *seen;         /* states visited by the current search */
    size_t nseen, cseen;
    nc_count *m, *succ;     /* markings of this node's searches */
    uint32_t *marked;       /* store_decode's list of marked places */
    uint32_t m_of;          /* the state whose marking m holds */
    int reduce;             /* E F or A G of a state formula, with stubborn sets */
    uint32_t *trans;        /* the stack's stubborn sets, frame after frame */
    size_t ntrans, ctrans;
} lnode;

#define NO_STATE UINT32_MAX

typedef struct local {
    const cnet_t *cn;
    store_t *st;
    store_ref *refs;        /* state number -> record */
    size_t nstates, crefs;
    uint8_t *key;
    size_t bytes, budget;
    double deadline;
    volatile int *interrupted;
    unsigned ticks;
    progress prog;
    const char *gave_up;
    lnode **nodes;
    size_t nnodes, cnodes;
    stubborn_t *sb;         /* with opt->partial_order, else NULL */
    uint32_t *enabled, *out;/* scratch of ntransitions for the stubborn sets */
    int reduced;            /* a stubborn set left an enabled transition out */
    const lnode *traced;    /* the node whose search from state 0 is the run */
    uint32_t *run;          /* its stack's transitions, once it succeeded */
    size_t run_len, loop_start;
    int has_run;
} local;

static int tick(local *L)
{
    if (++L->ticks % CLOCK_EVERY)
        return 0;
    if (L->interrupted && *L->interrupted) {
        L->gave_up = "interrupted";
        return -1;
    }
    double now = mono_now();
    if (L->deadline > 0 && now > L->deadline) {
        L->gave_up = "time limit reached";
        return -1;
    }
    progress_maybe(&L->prog, now, L->nstates, 0, L->bytes + store_bytes(L->st), 0);
    return 0;
}

/* Doubles *arr (elements of size elem) until it holds need; charged to the
 * budget.  0, or -1 with gave_up set. */
static int grow(local *L, void *arrp, size_t *cap, size_t need, size_t elem, int zero)
{
    if (grow_charged(arrp, cap, need, elem, 64, &L->bytes, L->budget, zero) < 0) {
        L->gave_up = "memory budget exhausted";
        return -1;
    }
    return 0;
}

/* ---- states ---- */

/* The number of marking m, added when new; -1 with gave_up set. */
static int64_t state_of(local *L, const nc_count *m)
{
    size_t len = store_encode(L->st, m, L->key);
    store_ref ref;
    uint64_t number;
    int r = store_number(L->st, L->key, len, L->nstates, &number, &ref);
    if (r < 0) {
        L->gave_up = r == STORE_OUT_OF_TIME ? "time limit reached" : "memory budget exhausted";
        return -1;
    }
    if (r == 0)
        return (int64_t)number;
    if (L->nstates >= NO_STATE - 1 ||
        grow(L, &L->refs, &L->crefs, L->nstates + 1, sizeof *L->refs, 0) < 0) {
        L->gave_up = "memory budget exhausted";
        return -1;
    }
    L->refs[L->nstates] = ref;
    return (int64_t)L->nstates++;
}

/* n's marking buffer holds the marking of state s. */
static void load(local *L, lnode *n, uint32_t s)
{
    if (n->m_of == s)
        return;
    memset(n->m, 0, L->cn->nplaces * sizeof *n->m);
    store_decode(L->st, store_key(L->st, L->refs[s], NULL), n->m, n->marked);
    n->m_of = s;
}

/* The first transition from `from` on enabled in s (n->m loaded), or
 * ntransitions. */
static uint32_t next_enabled(const local *L, const lnode *n, uint32_t from)
{
    while (from < L->cn->ntransitions && !cn_enabled(L->cn, n->m, from))
        from++;
    return from;
}

/* The state reached from s by t (enabled); -1 with gave_up set. */
static int64_t successor(local *L, lnode *n, uint32_t s, uint32_t t)
{
    load(L, n, s);
    memcpy(n->succ, n->m, L->cn->nplaces * sizeof *n->m);
    if (cn_fire(L->cn, n->succ, t) < 0) {
        L->gave_up = "token count overflow";
        return -1;
    }
    return state_of(L, n->succ);
}

static int value_room(local *L, lnode *n)
{
    return grow(L, &n->val, &n->nval, L->nstates, 1, 1);
}

/* ---- evaluation ---- */

static int eval(local *L, lnode *n, uint32_t s);

static int push(local *L, lnode *n, uint32_t s)
{
    if (grow(L, &n->stack, &n->cstack, n->nstack + 1, sizeof *n->stack, 0) < 0 ||
        grow(L, &n->seen, &n->cseen, n->nseen + 1, sizeof *n->seen, 0) < 0 ||
        value_room(L, n) < 0)
        return -1;
    n->stack[n->nstack++] = (frame){s, 0, (uint32_t)n->ntrans, 0};
    n->seen[n->nseen++] = s;
    n->val[s] = V_STACK;
    return 0;
}

/* Ends a search: found -> the stack gets `hit`, the other visited states
 * go back to unknown; not found -> every visited state gets `miss`. */
static void settle(lnode *n, int found, uint8_t hit, uint8_t miss)
{
    for (size_t i = 0; i < n->nseen; i++)
        n->val[n->seen[i]] = found ? V_UNKNOWN : miss;
    if (found)
        for (size_t i = 0; i < n->nstack; i++)
            n->val[n->stack[i].state] = hit;
    n->nstack = n->nseen = n->ntrans = 0;
}

/* The transitions enabled in n->m, into L->enabled; how many. */
static uint32_t list_enabled(local *L, const lnode *n)
{
    uint32_t nen = 0;
    for (uint32_t t = 0; t < L->cn->ntransitions; t++)
        if (cn_enabled(L->cn, n->m, t))
            L->enabled[nen++] = t;
    return nen;
}

/* The frame on top of n's stack (its state's marking in n->m, not a
 * goal state, its enabled transitions L->enabled[0..nen)) gets its
 * stubborn set: the enabled transitions of a set seeded by what must fire
 * before the goal can hold.  0, or -1 with gave_up set. */
static int reduce_frame(local *L, lnode *n, uint32_t nen)
{
    const cnet_t *cn = L->cn;
    uint32_t k;
    stubborn_seed_clear(L->sb);
    /* E F ψ wants ψ true, A G φ wants φ false */
    if (goal_seed(L->sb, cn, n->l->t, n->m, n->op == T_EF) < 0)
        k = stubborn_fire_all(L->enabled, nen, L->out);
    else
        k = stubborn_from_seed(L->sb, n->m, L->enabled, nen, L->out);
    L->reduced |= k < nen;
    if (grow(L, &n->trans, &n->ctrans, n->ntrans + k, sizeof *n->trans, 0) < 0)
        return -1;
    frame *f = &n->stack[n->nstack - 1];
    f->first = (uint32_t)n->ntrans;
    f->count = k;
    if (k)   /* a deadlock's set is empty, and n->trans may not exist yet */
        memcpy(n->trans + n->ntrans, L->out, k * sizeof *L->out);
    n->ntrans += k;
    return 0;
}

/* The next transition of the top frame to fire, or ntransitions. */
static uint32_t next_of(local *L, lnode *n, frame *f)
{
    if (!n->reduce)
        return next_enabled(L, n, f->next);
    return f->next < f->count ? n->trans[f->first + f->next] : L->cn->ntransitions;
}

/* The transition frame f of n's stack fired last. */
static uint32_t fired(const lnode *n, const frame *f)
{
    return n->reduce ? n->trans[f->first + f->next - 1] : f->next - 1;
}

/* n's search from state 0 succeeded with this stack: keeps its run.
 * closing: the transition that closed a loop back to the stack's state u
 * (UINT32_MAX: the search ended at the top state, dead: which is a
 * deadlock).  Without memory the answer stands alone. */
static void keep_run(local *L, const lnode *n, uint32_t closing, uint32_t u, int dead)
{
    if (n != L->traced || !n->nstack || n->stack[0].state != 0)
        return;
    size_t len = n->nstack - 1 + (closing != UINT32_MAX);
    uint32_t *run = malloc((len ? len : 1) * sizeof *run);
    if (!run)
        return;
    for (size_t i = 0; i + 1 < n->nstack; i++)
        run[i] = fired(n, &n->stack[i]);
    size_t loop = RESULT_NO_LOOP;
    if (closing != UINT32_MAX) {
        run[len - 1] = closing;
        for (size_t i = 0; i < n->nstack; i++)
            if (n->stack[i].state == u)
                loop = i;
        if (loop == RESULT_NO_LOOP) {   /* not a loop after all: no run */
            free(run);
            return;
        }
    } else if (dead) {
        loop = len;
    }
    free(L->run);
    L->run = run;
    L->run_len = len;
    L->loop_start = loop;
    L->has_run = 1;
}

/* What a search makes of a state on first visit: 1 found (the search
 * succeeds), 0 go on into its successors, 2 a dead end (pop it). */
typedef int (*first_visit)(local *L, lnode *n, uint32_t s, int dead);

static int search(local *L, lnode *n, uint32_t s0, first_visit first, uint8_t hit, uint8_t miss,
                  int back_edge_found)
{
    if (push(L, n, s0) < 0)
        return -1;
    int fresh = 1;
    while (n->nstack) {
        frame *f = &n->stack[n->nstack - 1];
        uint32_t s = f->state;
        if (tick(L) < 0)
            return -1;
        if (fresh) {
            fresh = 0;
            load(L, n, s);
            /* a reducing search lists the enabled transitions once, for
             * the deadlock test and its stubborn set alike; first() only
             * evaluates the state formula below, on its own buffers */
            uint32_t nen = n->reduce ? list_enabled(L, n) : 0;
            int dead = n->reduce ? nen == 0 : next_enabled(L, n, 0) == L->cn->ntransitions;
            int r = first(L, n, s, dead);
            if (r < 0)
                return -1;
            if (r == 1) {
                /* E G, A F, A U end at a deadlock that repeats, or (A U) at
                 * a state where φ fails */
                keep_run(L, n, UINT32_MAX, 0,
                         dead && (n->op == T_EG || n->op == T_AF || n->op == T_AU));
                settle(n, 1, hit, miss);
                return hit == V_TRUE;
            }
            if (r == 2) {
                n->val[s] = V_DONE;
                n->nstack--;
                continue;
            }
            if (n->reduce && reduce_frame(L, n, nen) < 0)
                return -1;
            f = &n->stack[n->nstack - 1];
        }
        load(L, n, s);
        uint32_t t = next_of(L, n, f);
        if (t == L->cn->ntransitions) {
            n->val[s] = V_DONE;
            n->nstack--;
            if (n->reduce)
                n->ntrans = f->first;
            continue;
        }
        f->next = n->reduce ? f->next + 1 : t + 1;
        int64_t u = successor(L, n, s, t);
        if (u < 0 || value_room(L, n) < 0)
            return -1;
        uint8_t v = n->val[u];
        if (v == hit || (v == V_STACK && back_edge_found)) {
            if (v == V_STACK)
                keep_run(L, n, t, (uint32_t)u, 0);
            settle(n, 1, hit, miss);
            return hit == V_TRUE;
        }
        if (v == V_UNKNOWN) {
            if (push(L, n, (uint32_t)u) < 0)
                return -1;
            fresh = 1;
        }
    }
    settle(n, 0, hit, miss);
    return miss == V_TRUE;
}

/* E[φ U ψ] and E F ψ: a ψ-state ends the search; a ¬φ-state is a dead end. */
static int eu_first(local *L, lnode *n, uint32_t s, int dead)
{
    (void)dead;
    int psi = eval(L, n->r ? n->r : n->l, s);
    if (psi != 0)
        return psi;
    if (!n->r)
        return 0;
    int phi = eval(L, n->l, s);
    return phi < 0 ? -1 : phi ? 0 : 2;
}

/* A G φ: a ¬φ-state ends the search. */
static int ag_first(local *L, lnode *n, uint32_t s, int dead)
{
    (void)dead;
    int phi = eval(L, n->l, s);
    return phi < 0 ? -1 : !phi;
}

/* E G φ: a ¬φ-state is a dead end, a φ-deadlock ends the search. */
static int eg_first(local *L, lnode *n, uint32_t s, int dead)
{
    int phi = eval(L, n->l, s);
    if (phi <= 0)
        return phi < 0 ? -1 : 2;
    return dead;
}

/* A[φ U ψ] and A F ψ: a ψ-state is a dead end; a ¬φ-state or a deadlock
 * (without ψ) ends the search with a counterexample. */
static int au_first(local *L, lnode *n, uint32_t s, int dead)
{
    int psi = eval(L, n->r ? n->r : n->l, s);
    if (psi != 0)
        return psi < 0 ? -1 : 2;
    if (dead)
        return 1;
    if (!n->r)
        return 0;
    int phi = eval(L, n->l, s);
    return phi < 0 ? -1 : !phi;
}

/* E X φ (all 0) or A X φ (all 1) at s. */
static int next_op(local *L, lnode *n, uint32_t s, int all)
{
    for (uint32_t t = 0;; t++) {
        load(L, n, s);
        t = next_enabled(L, n, t);
        if (t == L->cn->ntransitions)
            return all;
        int64_t u = successor(L, n, s, t);
        if (u < 0)
            return -1;
        int v = eval(L, n->l, (uint32_t)u);
        if (v < 0)
            return -1;
        if (v != all)
            return v;
    }
}

static int eval(local *L, lnode *n, uint32_t s)
{
    int a, b;
    if (n->is_state) {
        load(L, n, s);
        return cn_state_holds(L->cn, n->t, n->m);
    }
    switch (n->op) {
    case T_NOT:
        a = eval(L, n->l, s);
        return a < 0 ? -1 : !a;
    case T_AND:
    case T_OR:
    case T_IMPLIES:
        a = eval(L, n->l, s);
        if (a < 0)
            return -1;
        if (n->op == T_IMPLIES)
            a = !a;
        if (a == (n->op != T_AND))   /* decided by the left side */
            return a;
        return eval(L, n->r, s);
    case T_IFF:
        a = eval(L, n->l, s);
        b = a < 0 ? -1 : eval(L, n->r, s);
        return b < 0 ? -1 : a == b;
    default:
        break;
    }
    if (value_room(L, n) < 0)
        return -1;
    if (n->val[s] == V_TRUE || n->val[s] == V_FALSE)
        return n->val[s] == V_TRUE;
    int v;
    switch (n->op) {
    case T_EX: v = next_op(L, n, s, 0); break;
    case T_AX: v = next_op(L, n, s, 1); break;
    case T_EF: case T_EU: v = search(L, n, s, eu_first, V_TRUE, V_FALSE, 0); break;
    case T_AG: v = search(L, n, s, ag_first, V_FALSE, V_TRUE, 0); break;
    case T_EG: v = search(L, n, s, eg_first, V_TRUE, V_FALSE, 1); break;
    case T_AF: case T_AU: v = search(L, n, s, au_first, V_FALSE, V_TRUE, 1); break;
    default:
        L->gave_up = "not a CTL formula";
        return -1;
    }
    if (v >= 0 && s < n->nval)
        n->val[s] = v ? V_TRUE : V_FALSE;
    return v;
}

/* ---- building the node tree ---- */

static lnode *build(local *L, const tree_t *t)
{
    if (!t)
        return NULL;
    lnode *n = calloc(1, sizeof *n);
    if (!n || grow(L, &L->nodes, &L->cnodes, L->nnodes + 1, sizeof *L->nodes, 0) < 0) {
        free(n);
        return NULL;
    }
    L->nodes[L->nnodes++] = n;
    n->m_of = NO_STATE;
    n->m = calloc(L->cn->nplaces + 1, sizeof *n->m);
    n->succ = calloc(L->cn->nplaces + 1, sizeof *n->succ);
    n->marked = calloc(L->cn->nplaces + 1, sizeof *n->marked);
    if (!n->m || !n->succ || !n->marked)
        return NULL;
    n->t = t;
    n->op = t->op;
    if (tree_is_state_formula(t)) {
        n->is_state = 1;
        return n;
    }
    n->op = t->op;
    if (t->op == T_X || t->op == T_F || t->op == T_G || t->op == T_U || t->op == T_R ||
        t->op == T_BOUND)
        return NULL;
    if (!(n->l = build(L, t->l)))
        return NULL;
    n->reduce = L->sb && (t->op == T_EF || t->op == T_AG) && n->l->is_state &&
                goal_seed_supported(t->l);
    if ((t->op == T_EU || t->op == T_AU || t->op == T_AND || t->op == T_OR ||
         t->op == T_IMPLIES || t->op == T_IFF) && !(n->r = build(L, t->r)))
        return NULL;
    return n;
}

static void local_free(local *L)
{
    for (size_t i = 0; i < L->nnodes; i++) {
        lnode *n = L->nodes[i];
        free(n->val);
        free(n->stack);
        free(n->seen);
        free(n->m);
        free(n->succ);
        free(n->marked);
        free(n->trans);
        free(n);
    }
    free(L->nodes);
    free(L->run);
    free(L->refs);
    free(L->key);
    free(L->enabled);
    free(L->out);
    stubborn_free(L->sb);
    store_free(L->st);
}

/* The node whose search is the evidence of f's value v at the initial
 * marking (under negations, one temporal operator with a run for its
 * value, over state formulas), with that operator's value; NULL if none. */
static const lnode *evidence_node(const lnode *root, int v, int *nv)
{
    const lnode *n = root;
    while (n && !n->is_state && n->op == T_NOT) {
        n = n->l;
        v = !v;
    }
    if (!n || n->is_state || !n->l || !n->l->is_state || (n->r && !n->r->is_state))
        return NULL;
    int exists = n->op == T_EF || n->op == T_EU || n->op == T_EG;
    int all = n->op == T_AG || n->op == T_AF || n->op == T_AU;
    if (!(exists ? v : all ? !v : 0))
        return NULL;
    *nv = v;
    return n;
}

/* res gets L's run as the evidence of value v (node n's value nv). */
static void give_run(local *L, const lnode *n, int v, int nv, result_t *res)
{
    run_segment seg = {0, nv, ""};
    char *text = tree_to_string(n->t);
    const char *shown = text ? text : "?";
    size_t len = strlen(shown);
    if (len < sizeof seg.formula) {
        memcpy(seg.formula, shown, len + 1);
    } else {
        memcpy(seg.formula, shown, sizeof seg.formula - 4);
        memcpy(seg.formula + sizeof seg.formula - 4, "...", 4);
    }
    free(text);
    if (result_set_run(res, v ? RUN_WITNESS : RUN_COUNTEREXAMPLE, L->run, L->run_len,
                       L->loop_start) < 0 ||
        result_set_segments(res, &seg, 1) < 0) {
        /* no memory: the answer stands alone */
        free(res->run);
        res->run = NULL;
        res->run_len = 0;
        res->role = RUN_NONE;
        res->loop_start = RESULT_NO_LOOP;
    }
}

int ctl_local_check(const cnet_t *cn, const tree_t *f, const check_options *opt,
                    ctl_local_stats *stats, result_t *evidence, char *why, size_t whylen)
{
    local L;
    memset(&L, 0, sizeof L);
    L.cn = cn;
    L.deadline = opt->budget->deadline;
    L.interrupted = opt->budget->interrupted;
    progress_start(&L.prog, opt, "ctl-local", NULL, mono_now());
    budget_t nodes = budget_carve(opt->budget, CARVE_CTL_LOCAL_NODES);
    budget_t markings = budget_carve(opt->budget, CARVE_CTL_LOCAL_STATES);
    L.budget = nodes.bytes;
    L.st = store_new(cn->nplaces, markings.bytes, 1);
    if (L.st)
        store_set_deadline(L.st, L.deadline);
    L.key = L.st ? malloc(store_key_max(L.st) + 8) : NULL;
    if (L.key && opt->partial_order) {
        L.sb = stubborn_new(cn);
        L.enabled = malloc((cn->ntransitions + 1) * sizeof *L.enabled);
        L.out = malloc((cn->ntransitions + 1) * sizeof *L.out);
        if (!L.sb || !L.enabled || !L.out) {
            free(L.key);
            L.key = NULL;   /* no memory: answered as such below */
        }
    }
    int v = -1;
    lnode *root = L.key ? build(&L, f) : NULL;
    if (!root) {
        snprintf(why, whylen, "%s", L.gave_up ? L.gave_up : "not a CTL formula, or no memory");
    } else if (state_of(&L, cn->initial) < 0) {
        snprintf(why, whylen, "%s", L.gave_up);
    } else {
        /* the operator is traced whichever value it turns out to have */
        int nv;
        if (evidence) {
            L.traced = evidence_node(root, 1, &nv);
            if (!L.traced)
                L.traced = evidence_node(root, 0, &nv);
        }
        v = eval(&L, root, 0);
        if (v < 0)
            snprintf(why, whylen, "%s", L.gave_up ? L.gave_up : "memory budget exhausted");
        const lnode *shown = v >= 0 && evidence && L.has_run ? evidence_node(root, v, &nv) : NULL;
        if (shown && shown == L.traced)
            give_run(&L, shown, v, nv, evidence);
    }
    if (stats)
        *stats = (ctl_local_stats){L.nstates, L.reduced};
    local_free(&L);
    return v;
}
