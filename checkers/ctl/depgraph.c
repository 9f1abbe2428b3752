/* The dependency-graph CTL engine (depgraph.h): Liu and Smolka's local
 * algorithm for the least fixed point of a dependency graph, with the
 * certain-zero values of Dalsgaard, Enevoldsen, Larsen, Srba et al.
 * ("Extended dependency graphs and efficient distributed fixed-point
 * computation"), as TAPAAL's verifypn does it.
 *
 * The formula is compiled into nodes: atoms (whole state formulas, read on
 * the marking, never configurations), ¬, ∧, ∨, EX, AX, E[φ U ψ] and
 * A[φ U ψ] (EF, AF with φ = true); EG φ is ¬AF¬φ and AG φ is ¬EF¬φ, which
 * holds under the maximal-path semantics too (at a deadlock both sides are
 * φ).  A configuration (s, n) has hyper-edges, each a set of target
 * configurations, and holds when all targets of one of its edges hold:
 *   φ ∧ ψ    {(s,φ), (s,ψ)}             φ ∨ ψ    {(s,φ)}, {(s,ψ)}
 *   EX φ     {(s',φ)} per successor s'  AX φ     {(s',φ) for every s'}
 *   E[φUψ]   {(s,ψ)}, and {(s,φ), (s',E[φUψ])} per successor s'
 *   A[φUψ]   {(s,ψ)}, and unless s is a deadlock
 *            {(s,φ)} ∪ {(s',A[φUψ]) for every s'}
 * so that at a deadlock EX is 0, AX is 1 (an edge without targets) and
 * the untils are ψ, as ctl.h wants.  Atom targets are read when the edge
 * is made: a false one drops the edge, a true one drops out of it.  A
 * negation (s, ¬φ) has one negation edge to (s, φ), which can only be
 * taken once (s, φ) is final.
 *
 * Values: new (not explored), open (explored, 0 so far), one, and certain
 * zero.  One and zero are final: an edge with a zero target is dead, a
 * configuration without live edges is zero, and both are passed at once to
 * the edges that wait on the configuration (its dependents).
 *
 * When is an open value final?  Rank the nodes by negation nesting (an
 * atom 0, ¬φ one more than φ, others the largest of their children); a
 * configuration's edges reach only configurations of its rank or lower.
 * Edges wait in one list per rank, and the lowest nonempty one is worked
 * on first; a negation edge waits, after its target was explored, in a
 * list per the target's rank.  Once every edge of rank <= r was looked at
 * and every change passed on, and no negation edge whose target has rank
 * < r waits, the open configurations of rank <= r form a set in which every
 * live edge has an open target: nothing can ever make one of them 1, so
 * they are all 0 (Liu and Smolka's argument).  Then the negations over
 * rank r are decided, and an open target of rank < r met by a new edge is
 * zero at once.  When nothing waits at all, the root's open value is 0.
 *
 * Within a rank, edges between configurations of one marking go first
 * (the way the local check evaluates children where it stands), and an
 * until makes its successor edges only when the strategy takes it there,
 * so that a ψ that holds spares them.  Two things the local check's
 * depth-first searches get for free are added: a false A F found on a
 * lasso without waiting for the rank to be quiet (try_lasso), and work
 * nobody waits for any more put aside (needed), so that a decided search
 * does not leave its siblings to be explored before the rank is quiet.
 *
 * Markings live in one store (numbered states); configurations in an array
 * with an open-addressing table over (state, node); edges, their targets
 * beyond two and the dependents' lists in arrays that grow by doubling
 * under the memory budget.  Nothing is allocated per state, and the only
 * recursion follows the formula (whose depth the parsers bound). */
#include "checkers/ctl/depgraph.h"
#include "base/clock.h"
#include "base/grow.h"
#include "engine/progress.h"
#include "engine/stateeval.h"
#include "engine/store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX
#define TRUE_NODE (UINT32_MAX - 1)   /* the φ of EF and AF */
#define CLOCK_EVERY 1024u
/* Steps one distance estimate may take (a guide, not worth a blow-up on
 * nested equivalences). */
#define DIST_STEPS 256

enum { N_ATOM, N_NOT, N_AND, N_OR, N_EX, N_AX, N_EU, N_AU };
enum { V_NEW, V_OPEN, V_ONE, V_ZERO };
/* E_EXPAND: the successor edges of an until, still to be made */
enum { E_HYPER, E_NEG, E_EXPAND };

typedef struct dnode {
    uint8_t op;
    uint8_t neg;            /* N_ATOM: the value of the atom negated */
    uint32_t l, r, rank;
    const tree_t *atom;
} dnode;

typedef struct config {
    uint32_t state, node;
    uint32_t edge0, nedge;  /* its edges, made together */
    uint32_t alive;         /* edges not dead */
    uint32_t dep;           /* first of the edges waiting on it, or NONE */
    uint32_t step;          /* A[φ U ψ]: its edge into all successors, or NONE */
    uint32_t walk;          /* the last lasso walk that passed it */
    uint32_t susp;          /* its edges put aside while nobody needs it, or NONE */
    uint8_t val;
} config;

typedef struct edge {
    uint32_t src, ntgt;
    uint32_t cursor;        /* the targets before it are one */
    uint8_t kind, dead, looked, here;
    union {
        uint32_t in[2];     /* up to two targets in the edge itself */
        uint64_t off;       /* more: in tg from off on */
    } t;
} edge;

typedef struct dep {
    uint32_t edge, next;
} dep;

typedef struct change {
    uint32_t edge, trigger; /* trigger became final; edge waited on it */
} change;

typedef struct wlist {
    uint32_t *here;         /* edges that stay at their state, taken first */
    size_t nhere, chere;
    uint64_t *a;            /* edges to successors (BEST: distance << 32 | ~edge, a heap) */
    size_t head, n, cap;    /* BFS takes from head */
} wlist;

typedef struct nlist {
    uint32_t *a;
    size_t n, cap;
} nlist;

typedef struct dg {
    const cnet_t *cn;
    ctl_strategy strategy;
    store_t *st;
    store_ref *refs;        /* state number -> record */
    size_t nstates, crefs;
    uint64_t max_states;
    uint8_t *key;
    nc_count *m, *succ;
    uint32_t *marked;
    uint32_t m_of;          /* the state m holds */
    uint32_t *ss, *sprio;   /* successors of one state, ntransitions each */
    uint8_t *sval;
    dnode *nodes;
    size_t nnodes, cnodes;
    uint32_t nranks;
    config *cf;
    size_t ncf, ccf;
    uint32_t *slot;         /* config + 1, 0 empty */
    size_t nslot;
    edge *ed;
    size_t ned, ced;
    uint32_t *tg;
    size_t ntg, ctg;
    dep *dp;
    size_t ndp, cdp;
    dep *sp;                /* lists of edges put aside */
    size_t nsp, csp;
    uint32_t root;
    change *pp;             /* changes to pass on, before anything else */
    size_t npp, cpp;
    wlist *w;
    nlist *neg;
    uint32_t wlow, nlow;    /* no list below these is nonempty */
    uint32_t rank_now;      /* of the edge being looked at */
    size_t bytes, budget;
    double deadline;
    volatile int *interrupted;
    unsigned ticks;
    progress prog;
    uint32_t walk_id;
    uint64_t walk_budget;   /* steps lasso walks may still take */
    const char *gave_up;
} dg;

/* ---- limits ---- */

/* Everything this engine takes from the budget, in one place: its carves
 * for the markings and for the graph over them. */
static void set_limits(dg *D, const check_options *opt, size_t *store_bytes)
{
    budget_t markings = budget_carve(opt->budget, CARVE_CTL_DG_STATES);
    budget_t graph = budget_carve(opt->budget, CARVE_CTL_DG_GRAPH);
    *store_bytes = markings.bytes;
    D->budget = graph.bytes;
    D->deadline = opt->budget->deadline;
    D->interrupted = opt->budget->interrupted;
    D->max_states = opt->max_states;
}

static int tick(dg *D)
{
    if (++D->ticks % CLOCK_EVERY)
        return 0;
    if (D->interrupted && *D->interrupted) {
        D->gave_up = "interrupted";
        return -1;
    }
    double now = mono_now();
    if (D->deadline > 0 && now > D->deadline) {
        D->gave_up = "time limit reached";
        return -1;
    }
    progress_maybe(&D->prog, now, D->nstates, D->ned, D->bytes + store_bytes(D->st), D->ncf);
    return 0;
}

static int no_memory(dg *D)
{
    D->gave_up = "memory budget exhausted";
    return -1;
}

/* Doubles *arr (elements of size elem) until it holds need, charged to the
 * budget.  0, or -1 with gave_up set. */
static int grow(dg *D, void *arrp, size_t *cap, size_t need, size_t elem)
{
    if (grow_charged(arrp, cap, need, elem, 64, &D->bytes, D->budget, 0) < 0)
        return no_memory(D);
    return 0;
}

/* ---- markings ---- */

/* The number of marking m, added when new; -1 with gave_up set. */
static int64_t state_of(dg *D, const nc_count *m)
{
    size_t len = store_encode(D->st, m, D->key);
    store_ref ref;
    uint64_t number;
    int r = store_number(D->st, D->key, len, D->nstates, &number, &ref);
    if (r < 0) {
        D->gave_up = r == STORE_OUT_OF_TIME ? "time limit reached" : "memory budget exhausted";
        return -1;
    }
    if (r == 0)
        return (int64_t)number;
    if (D->max_states && D->nstates >= D->max_states) {
        D->gave_up = "state limit reached";
        return -1;
    }
    if (D->nstates >= NONE - 1 ||
        grow(D, &D->refs, &D->crefs, D->nstates + 1, sizeof *D->refs) < 0)
        return no_memory(D);
    D->refs[D->nstates] = ref;
    return (int64_t)D->nstates++;
}

static void load(dg *D, uint32_t s)
{
    if (D->m_of == s)
        return;
    memset(D->m, 0, D->cn->nplaces * sizeof *D->m);
    store_decode(D->st, store_key(D->st, D->refs[s], NULL), D->m, D->marked);
    D->m_of = s;
}

/* ---- the distance heuristic ---- */

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a + b < a ? UINT64_MAX : a + b;
}

static uint64_t min64(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

/* How far (v REL 0) is from holding, in units of v. */
static uint64_t cmp_gap(rel_op rel, __int128 v)
{
    __int128 g;
    switch (rel) {
    case REL_GE: g = -v; break;
    case REL_LE: g = v; break;
    case REL_GT: g = 1 - v; break;
    case REL_LT: g = v + 1; break;
    case REL_EQ: g = v < 0 ? -v : v; break;
    default: g = v == 0; break;   /* REL_NE */
    }
    if (g <= 0)
        return 0;
    return g > (__int128)UINT32_MAX ? UINT32_MAX : (uint64_t)g;
}

static const rel_op negated_rel[] = {REL_NE, REL_EQ, REL_GE, REL_GT, REL_LE, REL_LT};

/* Tokens to add or remove (roughly) before the state formula t has the
 * value want at m; *steps bounds the work. */
static uint64_t tdist(const dg *D, const tree_t *t, int want, const nc_count *m, int *steps)
{
    if (--*steps < 0)
        return 0;
    const cnet_t *cn = D->cn;
    uint64_t a, b, best, need;
    uint32_t enabled;
    switch (t->op) {
    case T_TRUE: return want ? 0 : 1;
    case T_FALSE: return want ? 1 : 0;
    case T_CMP: return cmp_gap(want ? t->rel : negated_rel[t->rel], tree_lin_value(t, m));
    case T_FIREABLE:
    case T_DEADLOCK:
        if ((t->op == T_FIREABLE) == (want != 0)) {
            /* some listed (or any) transition enabled: the fewest missing
             * tokens; or none enabled: how many are */
            if (t->op == T_DEADLOCK) {
                enabled = 0;
                for (uint32_t i = 0; i < cn->ntransitions; i++)
                    enabled += cn_enabled(cn, m, i);
                return enabled;
            }
            best = UINT64_MAX;
            for (uint32_t k = 0; k < t->n && best; k++) {
                uint32_t tr = t->items[k];
                need = 0;
                for (uint32_t i = cn->need_start[tr]; i < cn->need_start[tr + 1]; i++)
                    if (m[cn->need_place[i]] < cn->need_weight[i])
                        need = sat_add(need, cn->need_weight[i] - m[cn->need_place[i]]);
                best = min64(best, need);
            }
            return best == UINT64_MAX ? 1 : best;
        }
        if (t->op == T_FIREABLE) {   /* want none of them enabled */
            enabled = 0;
            for (uint32_t k = 0; k < t->n; k++)
                enabled += t->items[k] < cn->ntransitions && cn_enabled(cn, m, t->items[k]);
            return enabled;
        }
        for (uint32_t i = 0; i < cn->ntransitions; i++)   /* want some enabled */
            if (cn_enabled(cn, m, i))
                return 0;
        return 1;
    case T_NOT: return tdist(D, t->l, !want, m, steps);
    case T_AND:
    case T_OR:
        a = tdist(D, t->l, want, m, steps);
        b = tdist(D, t->r, want, m, steps);
        return (t->op == T_AND) == (want != 0) ? sat_add(a, b) : min64(a, b);
    case T_IMPLIES:
        a = tdist(D, t->l, !want, m, steps);
        b = tdist(D, t->r, want, m, steps);
        return want ? min64(a, b) : sat_add(a, b);
    case T_IFF:
        a = sat_add(tdist(D, t->l, 1, m, steps), tdist(D, t->r, want, m, steps));
        b = sat_add(tdist(D, t->l, 0, m, steps), tdist(D, t->r, !want, m, steps));
        return min64(a, b);
    default:
        return 0;
    }
}

/* The same for a node: through the temporal operators to what they look
 * for (ψ of an until, φ of a next). */
static uint64_t ndist(const dg *D, uint32_t node, int want, const nc_count *m, int *steps)
{
    if (node == TRUE_NODE)
        return want ? 0 : 1;
    if (--*steps < 0)
        return 0;
    const dnode *n = &D->nodes[node];
    uint64_t a, b;
    switch (n->op) {
    case N_ATOM: return tdist(D, n->atom, want ^ n->neg, m, steps);
    case N_NOT: return ndist(D, n->l, !want, m, steps);
    case N_AND:
    case N_OR:
        a = ndist(D, n->l, want, m, steps);
        b = ndist(D, n->r, want, m, steps);
        return (n->op == N_AND) == (want != 0) ? sat_add(a, b) : min64(a, b);
    case N_EX:
    case N_AX: return ndist(D, n->l, want, m, steps);
    default: return ndist(D, n->r, want, m, steps);
    }
}

static uint32_t distance(const dg *D, uint32_t goal, const nc_count *m)
{
    if (D->strategy != CTL_BEST || goal == NONE)
        return 0;
    int steps = DIST_STEPS;
    uint64_t d = ndist(D, goal, 1, m, &steps);
    return d > UINT32_MAX ? UINT32_MAX : (uint32_t)d;
}

/* The successors of s into D->ss, with the value of atom node `atom` (or
 * NONE) in D->sval and the distance to `goal` in D->sprio: their number,
 * or -1 with gave_up set. */
static int64_t successors(dg *D, uint32_t s, uint32_t atom, uint32_t goal)
{
    const cnet_t *cn = D->cn;
    size_t k = 0;
    load(D, s);
    for (uint32_t t = 0; t < cn->ntransitions; t++) {
        if (!cn_enabled(cn, D->m, t))
            continue;
        if (tick(D) < 0)
            return -1;
        memcpy(D->succ, D->m, cn->nplaces * sizeof *D->m);
        if (cn_fire(cn, D->succ, t) < 0) {
            D->gave_up = "token count overflow";
            return -1;
        }
        if (atom != NONE) {
            const dnode *n = &D->nodes[atom];
            int v = cn_state_holds(cn, n->atom, D->succ);
            if (v < 0) {
                D->gave_up = "not a CTL formula";
                return -1;
            }
            D->sval[k] = (uint8_t)(v ^ n->neg);
        }
        D->sprio[k] = distance(D, goal, D->succ);
        int64_t u = state_of(D, D->succ);
        if (u < 0)
            return -1;
        D->ss[k++] = (uint32_t)u;
    }
    return (int64_t)k;
}

/* ---- configurations ---- */

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    return x;
}

static size_t home(const dg *D, uint32_t s, uint32_t node)
{
    return (size_t)mix((uint64_t)s << 32 | node) & (D->nslot - 1);
}

static int rehash(dg *D)
{
    size_t n2 = D->nslot ? D->nslot * 2 : 4096;
    if (D->bytes + n2 * sizeof *D->slot > D->budget)
        return no_memory(D);
    uint32_t *old = D->slot;
    size_t nold = D->nslot;
    D->slot = calloc(n2, sizeof *D->slot);
    if (!D->slot) {
        D->slot = old;
        return no_memory(D);
    }
    D->nslot = n2;
    for (size_t c = 0; c < D->ncf; c++) {
        size_t i = home(D, D->cf[c].state, D->cf[c].node);
        while (D->slot[i])
            i = (i + 1) & (n2 - 1);
        D->slot[i] = (uint32_t)c + 1;
    }
    free(old);
    D->bytes += (n2 - nold) * sizeof *D->slot;
    return 0;
}

/* The configuration (s, node), added new when absent; NONE with gave_up
 * set. */
static uint32_t config_of(dg *D, uint32_t s, uint32_t node)
{
    if ((D->ncf + 1) * 4 > D->nslot * 3 && rehash(D) < 0)
        return NONE;
    size_t i = home(D, s, node);
    for (; D->slot[i]; i = (i + 1) & (D->nslot - 1)) {
        const config *c = &D->cf[D->slot[i] - 1];
        if (c->state == s && c->node == node)
            return D->slot[i] - 1;
    }
    if (D->ncf >= NONE - 1) {
        no_memory(D);
        return NONE;
    }
    if (grow(D, &D->cf, &D->ccf, D->ncf + 1, sizeof *D->cf) < 0)
        return NONE;
    D->cf[D->ncf] = (config){s, node, 0, 0, 0, NONE, NONE, 0, NONE, V_NEW};
    D->slot[i] = (uint32_t)D->ncf + 1;
    return (uint32_t)D->ncf++;
}

static int final(const dg *D, uint32_t c)
{
    return D->cf[c].val >= V_ONE;
}

static uint32_t rank_of(const dg *D, uint32_t c)
{
    return D->nodes[D->cf[c].node].rank;
}

/* Sets a final value and hands it to the edges waiting on c. */
static int set_val(dg *D, uint32_t c, uint8_t v)
{
    D->cf[c].val = v;
    for (uint32_t d = D->cf[c].dep; d != NONE; d = D->dp[d].next) {
        if (grow(D, &D->pp, &D->cpp, D->npp + 1, sizeof *D->pp) < 0)
            return -1;
        D->pp[D->npp++] = (change){D->dp[d].edge, c};
    }
    D->cf[c].dep = NONE;
    return 0;
}

static int push_work(dg *D, uint32_t e, uint32_t rank, uint32_t prio);
static int push_here(dg *D, uint32_t e, uint32_t rank);

/* Work of an open configuration that no live edge waits on is put aside
 * when its turn comes: the siblings a depth-first search left behind, once
 * their parent is decided, would otherwise be explored in full before
 * their rank is quiet and a negation over it can be decided.  An edge
 * that comes to wait on the configuration brings its work back.  The
 * argument at the top holds for the configurations not put aside: an open
 * one's live edges wait on their open targets, which therefore are not
 * put aside either. */
static int needed(dg *D, uint32_t c)
{
    if (c == D->root)
        return 1;
    uint32_t *link = &D->cf[c].dep;
    while (*link != NONE) {
        const edge *e = &D->ed[D->dp[*link].edge];
        if (!e->dead && !final(D, e->src))
            return 1;
        *link = D->dp[*link].next;   /* never live again */
    }
    return 0;
}

static int put_aside(dg *D, uint32_t e)
{
    uint32_t c = D->ed[e].src;
    if (D->nsp >= NONE - 1)
        return no_memory(D);
    if (grow(D, &D->sp, &D->csp, D->nsp + 1, sizeof *D->sp) < 0)
        return -1;
    D->sp[D->nsp] = (dep){e, D->cf[c].susp};
    D->cf[c].susp = (uint32_t)D->nsp++;
    return 0;
}

static int wake(dg *D, uint32_t c)
{
    uint32_t rank = rank_of(D, c);
    for (uint32_t i = D->cf[c].susp; i != NONE; i = D->sp[i].next) {
        uint32_t e = D->sp[i].edge;
        if ((D->ed[e].here ? push_here(D, e, rank) : push_work(D, e, rank, 0)) < 0)
            return -1;
    }
    D->cf[c].susp = NONE;
    return 0;
}

/* e waits on c. */
static int depend(dg *D, uint32_t e, uint32_t c)
{
    if (D->ndp >= NONE - 1)
        return no_memory(D);
    if (grow(D, &D->dp, &D->cdp, D->ndp + 1, sizeof *D->dp) < 0)
        return -1;
    D->dp[D->ndp] = (dep){e, D->cf[c].dep};
    D->cf[c].dep = (uint32_t)D->ndp++;
    return D->cf[c].susp == NONE ? 0 : wake(D, c);
}

/* ---- edges and the lists they wait in ---- */

static uint32_t *targets(dg *D, edge *e)
{
    return e->ntgt <= 2 ? e->t.in : D->tg + e->t.off;
}

static int64_t new_edge(dg *D, uint32_t src, uint8_t kind)
{
    if (D->ned >= NONE - 1)
        return no_memory(D);
    if (grow(D, &D->ed, &D->ced, D->ned + 1, sizeof *D->ed) < 0)
        return -1;
    edge *e = &D->ed[D->ned];
    memset(e, 0, sizeof *e);
    e->src = src;
    e->kind = kind;
    return (int64_t)D->ned++;
}

/* Adds target c to the edge being made (the last one). */
static int add_target(dg *D, uint32_t c)
{
    if (c == NONE)
        return -1;
    edge *e = &D->ed[D->ned - 1];
    if (e->ntgt < 2) {
        e->t.in[e->ntgt++] = c;
        return 0;
    }
    size_t need = D->ntg + (e->ntgt == 2 ? 3 : 1);
    if (grow(D, &D->tg, &D->ctg, need, sizeof *D->tg) < 0)
        return -1;
    if (e->ntgt == 2) {
        uint32_t a = e->t.in[0], b = e->t.in[1];
        e->t.off = D->ntg;
        D->tg[D->ntg++] = a;
        D->tg[D->ntg++] = b;
    }
    D->tg[D->ntg++] = c;
    e->ntgt++;
    return 0;
}

static int push_work(dg *D, uint32_t e, uint32_t rank, uint32_t prio)
{
    wlist *w = &D->w[rank];
    if (w->n == w->cap && w->head > 0) {
        memmove(w->a, w->a + w->head, (w->n - w->head) * sizeof *w->a);
        w->n -= w->head;
        w->head = 0;
    }
    if (grow(D, &w->a, &w->cap, w->n + 1, sizeof *w->a) < 0)
        return -1;
    if (rank < D->wlow)
        D->wlow = rank;
    if (D->strategy != CTL_BEST) {
        w->a[w->n++] = e;
        return 0;
    }
    /* a min-heap; among equal distances the newest edge first, as in DFS */
    uint64_t x = (uint64_t)prio << 32 | (uint32_t)~e;
    size_t i = w->n++;
    while (i > 0 && w->a[(i - 1) / 2] > x) {
        w->a[i] = w->a[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    w->a[i] = x;
    return 0;
}

/* Edges between configurations of one state go first, last in first
 * out, as the local check evaluates a subformula's children where it
 * stands: ψ at s may settle an until before its successors are made,
 * and the strategy orders only the steps into successors. */
static int push_here(dg *D, uint32_t e, uint32_t rank)
{
    wlist *w = &D->w[rank];
    if (grow(D, &w->here, &w->chere, w->nhere + 1, sizeof *w->here) < 0)
        return -1;
    w->here[w->nhere++] = e;
    D->ed[e].here = 1;
    if (rank < D->wlow)
        D->wlow = rank;
    return 0;
}

static uint32_t pop_work(dg *D, uint32_t rank)
{
    wlist *w = &D->w[rank];
    uint64_t x;
    if (w->nhere)
        return w->here[--w->nhere];
    switch (D->strategy) {
    case CTL_DFS:
        x = w->a[--w->n];
        break;
    case CTL_BFS:
        x = w->a[w->head++];
        if (w->head == w->n)
            w->head = w->n = 0;
        break;
    default: {
        uint64_t top = w->a[0], last = w->a[--w->n];
        size_t i = 0;
        for (;;) {
            size_t c = 2 * i + 1;
            if (c >= w->n)
                break;
            if (c + 1 < w->n && w->a[c + 1] < w->a[c])
                c++;
            if (w->a[c] >= last)
                break;
            w->a[i] = w->a[c];
            i = c;
        }
        if (w->n)
            w->a[i] = last;
        x = (uint32_t)~(uint32_t)top;
        break;
    }
    }
    return (uint32_t)x;
}

static int push_neg(dg *D, uint32_t e, uint32_t rank)
{
    nlist *l = &D->neg[rank];
    if (grow(D, &l->a, &l->cap, l->n + 1, sizeof *l->a) < 0)
        return -1;
    l->a[l->n++] = e;
    if (rank < D->nlow)
        D->nlow = rank;
    return 0;
}

/* The lowest rank whose list is nonempty, or NONE. */
static uint32_t lowest_work(dg *D)
{
    for (; D->wlow < D->nranks; D->wlow++)
        if (D->w[D->wlow].nhere || D->w[D->wlow].n > D->w[D->wlow].head)
            return D->wlow;
    return NONE;
}

static uint32_t lowest_neg(dg *D)
{
    for (; D->nlow < D->nranks; D->nlow++)
        if (D->neg[D->nlow].n)
            return D->nlow;
    return NONE;
}

/* ---- exploring a configuration ---- */

/* 1 or 0 when node is an atom (or the true of EF, AF), read at s; 2 when
 * it is not; -1 on error. */
static int atom_at(dg *D, uint32_t node, uint32_t s)
{
    if (node == TRUE_NODE)
        return 1;
    const dnode *n = &D->nodes[node];
    if (n->op != N_ATOM)
        return 2;
    load(D, s);
    int v = cn_state_holds(D->cn, n->atom, D->m);
    if (v < 0) {
        D->gave_up = "not a CTL formula";
        return -1;
    }
    return v ^ n->neg;
}

/* An edge of c to (s, node) alone, or none when node is a false atom;
 * *one set when it is a true one. */
static int edge_to(dg *D, uint32_t c, uint32_t s, uint32_t node, uint32_t prio, int *one)
{
    int v = atom_at(D, node, s);
    if (v < 0)
        return -1;
    if (v == 1)
        *one = 1;
    if (v != 2)
        return 0;
    (void)prio;
    if (new_edge(D, c, E_HYPER) < 0 || add_target(D, config_of(D, s, node)) < 0)
        return -1;
    return push_here(D, (uint32_t)D->ned - 1, D->nodes[D->cf[c].node].rank);
}

static int kill(dg *D, uint32_t e);
static int try_lasso(dg *D, uint32_t x);

/* The temporal nodes' edges (the table at the top); 0 or -1. */
static int temporal(dg *D, uint32_t c, const dnode *n, uint32_t s, int *one)
{
    uint32_t rank = n->rank;
    int64_t k;
    int phi;
    if (n->op == N_EX || n->op == N_AX) {
        int atom = D->nodes[n->l].op == N_ATOM;
        k = successors(D, s, atom ? n->l : NONE, n->l);
        if (k < 0)
            return -1;
        if (n->op == N_EX) {
            for (int64_t i = k; i-- > 0 && !*one;) {
                if (atom) {
                    *one = D->sval[i];
                    continue;
                }
                if (new_edge(D, c, E_HYPER) < 0 || add_target(D, config_of(D, D->ss[i], n->l)) < 0 ||
                    push_work(D, (uint32_t)D->ned - 1, rank, D->sprio[i]) < 0)
                    return -1;
            }
            return 0;
        }
        uint32_t prio = UINT32_MAX;
        int all = 1;
        for (int64_t i = 0; i < k; i++) {
            all &= !atom || D->sval[i];
            prio = D->sprio[i] < prio ? D->sprio[i] : prio;
        }
        if (!atom && k > 0) {
            if (new_edge(D, c, E_HYPER) < 0)
                return -1;
            for (int64_t i = 0; i < k; i++)
                if (add_target(D, config_of(D, D->ss[i], n->l)) < 0)
                    return -1;
            return push_work(D, (uint32_t)D->ned - 1, rank, prio);
        }
        *one = all;   /* atoms all true, or a deadlock */
        return 0;
    }
    /* the untils: ψ here first; the steps into successors wait in the
     * strategy's list, so that a ψ that holds spares making them */
    load(D, s);
    if (edge_to(D, c, s, n->r, 0, one) < 0)
        return -1;
    if (*one || (phi = atom_at(D, n->l, s)) == 0)
        return 0;
    if (phi < 0 || new_edge(D, c, E_EXPAND) < 0)
        return -1;
    return push_work(D, (uint32_t)D->ned - 1, rank, distance(D, n->r, D->m));
}

/* The successor edges of the until at e's source (the table at the top),
 * which then no longer needs e. */
static int expand(dg *D, uint32_t e)
{
    uint32_t c = D->ed[e].src, s = D->cf[c].state, node = D->cf[c].node;
    const dnode *n = &D->nodes[node];
    size_t before = D->ned;
    int phi = atom_at(D, n->l, s);
    int64_t k = phi < 0 ? -1 : successors(D, s, NONE, n->r);
    if (k < 0)
        return -1;
    if (n->op == N_EU) {
        /* the first transition's successor on top, as the local check's
         * depth-first search goes */
        for (int64_t i = k; i-- > 0;) {
            if (new_edge(D, c, E_HYPER) < 0 ||
                (phi == 2 && add_target(D, config_of(D, s, n->l)) < 0) ||
                add_target(D, config_of(D, D->ss[i], node)) < 0 ||
                push_work(D, (uint32_t)D->ned - 1, n->rank, D->sprio[i]) < 0)
                return -1;
        }
    } else if (k > 0) {   /* A[φ U ψ] at a deadlock is ψ: no edge */
        uint32_t prio = UINT32_MAX;
        if (new_edge(D, c, E_HYPER) < 0 ||
            (phi == 2 && add_target(D, config_of(D, s, n->l)) < 0))
            return -1;
        for (int64_t i = 0; i < k; i++) {
            if (add_target(D, config_of(D, D->ss[i], node)) < 0)
                return -1;
            prio = D->sprio[i] < prio ? D->sprio[i] : prio;
        }
        D->cf[c].step = (uint32_t)D->ned - 1;
        if (push_work(D, (uint32_t)D->ned - 1, n->rank, prio) < 0)
            return -1;
    }
    D->cf[c].alive += (uint32_t)(D->ned - before);
    return kill(D, e);
}

/* Makes c's edges and queues them; c ends open, or final when it has an
 * edge without targets (one) or no edge at all (zero). */
static int explore(dg *D, uint32_t c)
{
    uint32_t s = D->cf[c].state;
    const dnode *n = &D->nodes[D->cf[c].node];
    int one = 0, r = 0;
    D->cf[c].val = V_OPEN;
    D->cf[c].edge0 = (uint32_t)D->ned;
    switch (n->op) {
    case N_NOT:
        if (new_edge(D, c, E_NEG) < 0 || add_target(D, config_of(D, s, n->l)) < 0 ||
            push_here(D, (uint32_t)D->ned - 1, n->rank) < 0)
            return -1;
        break;
    case N_AND: {
        int a = atom_at(D, n->l, s), b = a == 0 ? 0 : atom_at(D, n->r, s);
        if (a < 0 || b < 0)
            return -1;
        if (a == 0 || b == 0)
            break;
        if (new_edge(D, c, E_HYPER) < 0 || (a == 2 && add_target(D, config_of(D, s, n->l)) < 0) ||
            (b == 2 && add_target(D, config_of(D, s, n->r)) < 0))
            return -1;
        load(D, s);
        if (D->ed[D->ned - 1].ntgt == 0)
            one = 1;
        else if (push_here(D, (uint32_t)D->ned - 1, n->rank) < 0)
            return -1;
        break;
    }
    case N_OR:
        load(D, s);
        r = edge_to(D, c, s, n->l, distance(D, n->l, D->m), &one);
        if (r == 0 && !one)
            r = edge_to(D, c, s, n->r, distance(D, n->r, D->m), &one);
        break;
    case N_ATOM:   /* only the root, and only if the caller did not read it */
        r = atom_at(D, D->cf[c].node, s);
        one = r == 1;
        r = r < 0 ? -1 : 0;
        break;
    default:
        r = temporal(D, c, n, s, &one);
        break;
    }
    if (r < 0)
        return -1;
    config *cf = &D->cf[c];
    cf->nedge = cf->alive = (uint32_t)D->ned - cf->edge0;
    if (one)
        return set_val(D, c, V_ONE);
    if (cf->nedge == 0)
        return set_val(D, c, V_ZERO);
    return 0;
}

/* ---- the fixed point ---- */

static int kill(dg *D, uint32_t e)
{
    D->ed[e].dead = 1;
    uint32_t c = D->ed[e].src;
    if (!final(D, c) && --D->cf[c].alive == 0)
        return set_val(D, c, V_ZERO);
    return try_lasso(D, c);
}

/* Moves e's cursor past the targets that hold: all of them make the
 * source one, a zero one kills e.  Only the first look scans the targets
 * behind the cursor for a zero; after it, e waits on each of them and
 * hears of a zero directly, so that an edge to k successors costs O(k) in
 * all, not O(k) per change. */
static int advance(dg *D, uint32_t e, int scan)
{
    edge *ep = &D->ed[e];
    const uint32_t *t = targets(D, ep);
    while (ep->cursor < ep->ntgt && D->cf[t[ep->cursor]].val == V_ONE)
        ep->cursor++;
    if (ep->cursor == ep->ntgt)
        return set_val(D, ep->src, V_ONE);
    for (uint32_t i = ep->cursor; i < (scan ? ep->ntgt : ep->cursor + 1); i++)
        if (D->cf[t[i]].val == V_ZERO)
            return kill(D, e);
    return 0;
}

static int negation_settles(dg *D, uint32_t src, uint32_t target)
{
    return set_val(D, src, D->cf[target].val == V_ONE ? V_ZERO : V_ONE);
}

/* ---- lassos of A[φ U ψ] ---- */

/* An open A[φ U ψ] whose only live edge is its step into all successors,
 * looked at, with φ behind the cursor: the configuration the cursor
 * stands at is the one it waits for. */
static int lasso_ready(const dg *D, uint32_t x)
{
    const config *c = &D->cf[x];
    if (c->val != V_OPEN || c->alive != 1 || c->step == NONE)
        return 0;
    const edge *e = &D->ed[c->step];
    return !e->dead && e->looked && D->nodes[c->node].op == N_AU;
}

static uint32_t lasso_next(dg *D, uint32_t x)
{
    edge *e = &D->ed[D->cf[x].step];
    return targets(D, e)[e->cursor];
}

/* What the local check finds with a back edge on its stack: following
 * the cursors from x through ready configurations back to one passed
 * before, every configuration on the way has one live edge, into the
 * next: a closed set, zero for good (the argument at the top, on a cycle
 * of markings where ψ fails and φ holds).  Without it a false A F would
 * wait for everything below its rank.  Walks share a budget that grows
 * with the edges looked at, so that they cost at most a constant factor. */
static int try_lasso(dg *D, uint32_t x)
{
    if (!lasso_ready(D, x))
        return 0;
    if (++D->walk_id == 0) {
        for (size_t i = 0; i < D->ncf; i++)
            D->cf[i].walk = 0;
        D->walk_id = 1;
    }
    uint32_t y = x;
    while (lasso_ready(D, y) && D->cf[y].walk != D->walk_id) {
        if (D->walk_budget == 0)
            return 0;
        D->walk_budget--;
        D->cf[y].walk = D->walk_id;
        y = lasso_next(D, y);
    }
    if (D->cf[y].walk != D->walk_id || D->cf[y].val != V_OPEN)
        return 0;
    for (y = x; D->cf[y].val == V_OPEN;) {
        uint32_t next = lasso_next(D, y);
        if (set_val(D, y, V_ZERO) < 0)
            return -1;
        y = next;
    }
    return 0;
}

/* e's target trig became final. */
static int pass_on(dg *D, change ch)
{
    edge *e = &D->ed[ch.edge];
    if (e->dead || final(D, e->src))
        return 0;
    if (e->kind == E_NEG)
        return negation_settles(D, e->src, ch.trigger);
    if (D->cf[ch.trigger].val == V_ZERO)
        return kill(D, ch.edge);
    uint32_t src = e->src;
    return advance(D, ch.edge, 0) < 0 ? -1 : try_lasso(D, src);
}

/* An open configuration below the rank being worked on is zero: nothing
 * of its rank or below waits (the comment at the top). */
static int settled_open(dg *D, uint32_t c)
{
    if (D->cf[c].val == V_OPEN && rank_of(D, c) < D->rank_now && D->cf[c].susp == NONE)
        return set_val(D, c, V_ZERO);
    return 0;
}

/* The first look at e, taken from its list: its targets are explored, and
 * e waits on those that are open. */
static int first_look(dg *D, uint32_t e)
{
    if (D->ed[e].dead || final(D, D->ed[e].src))
        return 0;
    if (D->ed[e].kind == E_EXPAND)
        return expand(D, e);
    uint32_t n = D->ed[e].ntgt;
    D->ed[e].looked = 1;
    D->walk_budget += 4;
    for (uint32_t i = 0; i < n; i++)
        if (settled_open(D, targets(D, &D->ed[e])[i]) < 0)
            return -1;
    /* the last explored is taken first: the first target, where the
     * cursor waits and a lasso walk goes */
    for (uint32_t i = n; i-- > 0;) {
        uint32_t u = targets(D, &D->ed[e])[i];
        if (D->cf[u].val == V_NEW && explore(D, u) < 0)
            return -1;
    }
    edge *ep = &D->ed[e];
    if (final(D, ep->src))
        return 0;
    if (ep->kind == E_NEG) {
        uint32_t u = ep->t.in[0];
        if (final(D, u))
            return negation_settles(D, ep->src, u);
        return depend(D, e, u) < 0 ? -1 : push_neg(D, e, rank_of(D, u));
    }
    if (advance(D, e, 1) < 0)
        return -1;
    ep = &D->ed[e];
    if (ep->dead || final(D, ep->src))
        return 0;
    for (uint32_t i = ep->cursor; i < ep->ntgt; i++) {
        uint32_t u = targets(D, &D->ed[e])[i];
        if (D->cf[u].val == V_OPEN && depend(D, e, u) < 0)
            return -1;
    }
    return try_lasso(D, D->ed[e].src);
}

/* Every negation over rank r: their targets are final now, open meaning
 * zero. */
static int resolve(dg *D, uint32_t r)
{
    nlist *l = &D->neg[r];
    while (l->n) {
        uint32_t e = l->a[--l->n];
        uint32_t c = D->ed[e].src, u = D->ed[e].t.in[0];
        if (D->ed[e].dead || final(D, c))
            continue;
        if (D->cf[u].val == V_OPEN && set_val(D, u, V_ZERO) < 0)
            return -1;
        if (negation_settles(D, c, u) < 0)
            return -1;
    }
    return 0;
}

static int fixpoint(dg *D, uint32_t root)
{
    while (!final(D, root)) {
        if (tick(D) < 0)
            return -1;
        if (D->npp) {
            if (pass_on(D, D->pp[--D->npp]) < 0)
                return -1;
            continue;
        }
        uint32_t rw = lowest_work(D), rn = lowest_neg(D);
        if (rn != NONE && (rw == NONE || rn < rw)) {
            if (resolve(D, rn) < 0)
                return -1;
            continue;
        }
        if (rw == NONE)
            return 0;   /* nothing waits: an open root is 0 */
        D->rank_now = rw;
        uint32_t e = pop_work(D, rw), c = D->ed[e].src;
        if (D->ed[e].dead || final(D, c))
            continue;
        if (!needed(D, c)) {
            if (put_aside(D, e) < 0)
                return -1;
            continue;
        }
        if (first_look(D, e) < 0)
            return -1;
    }
    return D->cf[root].val == V_ONE;
}

/* ---- compiling the formula ---- */

static uint32_t add_node(dg *D, uint8_t op, uint32_t l, uint32_t r, const tree_t *atom, int neg)
{
    if (grow(D, &D->nodes, &D->cnodes, D->nnodes + 1, sizeof *D->nodes) < 0)
        return NONE;
    uint32_t rank = 0;
    if (l != NONE && l != TRUE_NODE)
        rank = D->nodes[l].rank;
    if (r != NONE && r != TRUE_NODE && D->nodes[r].rank > rank)
        rank = D->nodes[r].rank;
    if (op == N_NOT)
        rank++;
    D->nodes[D->nnodes] = (dnode){op, (uint8_t)neg, l, r, rank, atom};
    return (uint32_t)D->nnodes++;
}

static uint32_t negate(dg *D, uint32_t x)
{
    if (x == NONE)
        return NONE;
    const dnode *n = &D->nodes[x];
    if (n->op == N_ATOM)
        return add_node(D, N_ATOM, NONE, NONE, n->atom, !n->neg);
    if (n->op == N_NOT)
        return n->l;
    return add_node(D, N_NOT, x, NONE, NULL, 0);
}

static uint32_t pair(dg *D, uint8_t op, uint32_t l, uint32_t r)
{
    return l == NONE || r == NONE ? NONE : add_node(D, op, l, r, NULL, 0);
}

/* The node of t (children before parents, so that ranks can be read off
 * them); NONE with gave_up set.  Recursion as deep as the formula. */
static uint32_t compile(dg *D, const tree_t *t)
{
    if (!t) {
        D->gave_up = "not a CTL formula";
        return NONE;
    }
    if (tree_is_state_formula(t)) {
        if (tree_has_action(t)) {
            D->gave_up = "action propositions are for LTL only";
            return NONE;
        }
        return add_node(D, N_ATOM, NONE, NONE, t, 0);
    }
    uint32_t a, b;
    switch (t->op) {
    case T_NOT: return negate(D, compile(D, t->l));
    case T_AND: a = compile(D, t->l); return pair(D, N_AND, a, compile(D, t->r));
    case T_OR: a = compile(D, t->l); return pair(D, N_OR, a, compile(D, t->r));
    case T_IMPLIES: a = negate(D, compile(D, t->l)); return pair(D, N_OR, a, compile(D, t->r));
    case T_IFF:
        a = compile(D, t->l);
        b = compile(D, t->r);
        if (a == NONE || b == NONE)
            return NONE;
        return pair(D, N_OR, pair(D, N_AND, a, b), pair(D, N_AND, negate(D, a), negate(D, b)));
    case T_EX: a = compile(D, t->l); return a == NONE ? NONE : add_node(D, N_EX, a, NONE, NULL, 0);
    case T_AX: a = compile(D, t->l); return a == NONE ? NONE : add_node(D, N_AX, a, NONE, NULL, 0);
    case T_EF: return pair(D, N_EU, TRUE_NODE, compile(D, t->l));
    case T_AF: return pair(D, N_AU, TRUE_NODE, compile(D, t->l));
    case T_EU: a = compile(D, t->l); return pair(D, N_EU, a, compile(D, t->r));
    case T_AU: a = compile(D, t->l); return pair(D, N_AU, a, compile(D, t->r));
    case T_EG: return negate(D, pair(D, N_AU, TRUE_NODE, negate(D, compile(D, t->l))));
    case T_AG: return negate(D, pair(D, N_EU, TRUE_NODE, negate(D, compile(D, t->l))));
    default:
        D->gave_up = "not a CTL formula";
        return NONE;
    }
}

/* ---- entry ---- */

static void dg_free(dg *D)
{
    for (uint32_t r = 0; D->w && r < D->nranks; r++)
        free(D->w[r].a), free(D->w[r].here);
    for (uint32_t r = 0; D->neg && r < D->nranks; r++)
        free(D->neg[r].a);
    free(D->w);
    free(D->neg);
    free(D->nodes);
    free(D->cf);
    free(D->slot);
    free(D->ed);
    free(D->tg);
    free(D->dp);
    free(D->sp);
    free(D->pp);
    free(D->ss);
    free(D->sprio);
    free(D->sval);
    free(D->m);
    free(D->succ);
    free(D->marked);
    free(D->refs);
    free(D->key);
    store_free(D->st);
}

/* The lists per rank and the buffers of one marking; 0 or -1. */
static int setup(dg *D)
{
    const cnet_t *cn = D->cn;
    size_t np = cn->nplaces + 1, nt = cn->ntransitions + 1;
    size_t need = D->nranks * (sizeof *D->w + sizeof *D->neg) +
                  np * (2 * sizeof *D->m + sizeof *D->marked) + nt * 9;
    if (D->bytes + need > D->budget)
        return no_memory(D);
    D->bytes += need;
    D->w = calloc(D->nranks, sizeof *D->w);
    D->neg = calloc(D->nranks, sizeof *D->neg);
    D->m = calloc(np, sizeof *D->m);
    D->succ = calloc(np, sizeof *D->succ);
    D->marked = calloc(np, sizeof *D->marked);
    D->ss = calloc(nt, sizeof *D->ss);
    D->sprio = calloc(nt, sizeof *D->sprio);
    D->sval = calloc(nt, 1);
    D->key = D->st ? malloc(store_key_max(D->st) + 8) : NULL;
    if (!D->w || !D->neg || !D->m || !D->succ || !D->marked || !D->ss || !D->sprio || !D->sval ||
        !D->key)
        return no_memory(D);
    D->wlow = D->nlow = D->nranks;
    D->walk_budget = (uint64_t)1 << 16;
    D->m_of = NONE;
    return 0;
}

int ctl_depgraph_check(const cnet_t *cn, const tree_t *f, const check_options *opt,
                       ctl_strategy s, uint64_t *states, char *why, size_t whylen)
{
    dg D;
    memset(&D, 0, sizeof D);
    D.cn = cn;
    D.strategy = s;
    size_t store_bytes;
    set_limits(&D, opt, &store_bytes);
    progress_start(&D.prog, opt, "ctl-depgraph", "configurations", mono_now());
    int v = -1;
    uint32_t root = compile(&D, f);
    if (root != NONE) {
        for (size_t i = 0; i < D.nnodes; i++)
            if (D.nodes[i].rank + 1 > D.nranks)
                D.nranks = D.nodes[i].rank + 1;
        D.st = store_new(cn->nplaces, store_bytes, STORE_PARENTS);
        if (!D.st)
            no_memory(&D);
        else
            store_set_deadline(D.st, D.deadline);
    }
    if (D.st && setup(&D) == 0) {
        if (D.nodes[root].op == N_ATOM) {
            v = cn_state_holds(cn, D.nodes[root].atom, cn->initial);
            if (v >= 0)
                v ^= D.nodes[root].neg;
            else
                D.gave_up = "not a CTL formula";
        } else if (state_of(&D, cn->initial) == 0) {
            uint32_t c = config_of(&D, 0, root);
            D.root = c;
            if (c != NONE && explore(&D, c) == 0)
                v = fixpoint(&D, c);
        }
    }
    if (v < 0)
        snprintf(why, whylen, "%s", D.gave_up ? D.gave_up : "memory budget exhausted");
    if (states)
        *states = D.nstates;
    dg_free(&D);
    return v;
}

const char *ctl_strategy_name(ctl_strategy s)
{
    return s == CTL_BFS ? "bfs" : s == CTL_BEST ? "best" : "dfs";
}

int ctl_strategy_parse(const char *name, ctl_strategy *s)
{
    static const ctl_strategy all[] = {CTL_DFS, CTL_BFS, CTL_BEST};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (!strcmp(name, ctl_strategy_name(all[i]))) {
            *s = all[i];
            return 0;
        }
    return -1;
}
