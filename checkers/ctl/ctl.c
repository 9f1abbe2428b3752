/* Building the CTL model (graph and atoms) and evaluating formulas on it
 * as bitsets over the states.  See ctl.h for the semantics; the fixpoint
 * for each operator is written next to its function. */
#include "checkers/ctl/ctl.h"
#include "checkers/ctl/ctlint.h"
#include "engine/parallel.h"
#include "engine/stateeval.h"
#include "base/grow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How many inner steps pass between two looks at the clock. */
#define CLOCK_EVERY ((uint64_t)1 << 20)

/* ---- atoms ---- */

static int is_atom(const tree_t *t)
{
    return t->op == T_CMP || t->op == T_FIREABLE;
}

static int64_t atom_index(const ctl_model *m, const tree_t *t)
{
    for (size_t i = 0; i < m->natoms; i++)
        if (m->atoms[i] == t || tree_equal(m->atoms[i], t))
            return (int64_t)i;
    return -1;
}

static int collect_atoms(ctl_model *m, const tree_t *t)
{
    if (!t)
        return 0;
    if (is_atom(t)) {
        if (atom_index(m, t) >= 0)
            return 0;
        /* catoms is the room of both: it moves only when both grew, and
         * then the same way */
        size_t ca = m->catoms, cb = m->catoms;
        if (GROW(m->atoms, ca, m->natoms + 1) < 0 || GROW(m->abits, cb, m->natoms + 1) < 0)
            return -1;
        m->catoms = ca;
        m->abits[m->natoms] = NULL;
        m->atoms[m->natoms++] = t;
        return 0;
    }
    return collect_atoms(m, t->l) < 0 ? -1 : collect_atoms(m, t->r);
}

/* Room for the atom bits of state id: the bitsets double. */
static int atoms_room(ctl_model *m, uint64_t id)
{
    if ((id >> 6) < m->awords)
        return 0;
    size_t words = m->awords ? 2 * m->awords : 1024;
    size_t extra = (words - m->awords) * 8 * m->natoms;
    if (m->bytes + extra > m->budget)
        return -1;
    for (size_t i = 0; i < m->natoms; i++) {
        uint64_t *b = realloc(m->abits[i], words * 8);
        if (!b)
            return -1;
        memset(b + m->awords, 0, (words - m->awords) * 8);
        m->abits[i] = b;
    }
    m->bytes += extra;
    m->awords = words;
    return 0;
}

/* ---- the build: explore's callbacks ---- */

typedef struct builder {
    ctl_model *m;
    ctl_watch watch;
    void *ctx;
    int watch_stopped;
    int full;          /* graph or atoms outgrew the budget */
} builder;

static int on_state(void *ctx, uint64_t id, store_ref ref, const nc_count *mk)
{
    builder *b = ctx;
    ctl_model *m = b->m;
    if (graph_add_state(m->g, ref) < 0 || (m->natoms && atoms_room(m, id) < 0)) {
        b->full = 1;
        return 1;
    }
    for (size_t i = 0; i < m->natoms; i++)
        if (m->atoms[i]->op != T_FIREABLE && cn_state_holds(m->cn, m->atoms[i], mk) == 1)
            m->abits[i][id >> 6] |= (uint64_t)1 << (id & 63);
    if (b->watch && b->watch(b->ctx, id, ref, mk)) {
        b->watch_stopped = 1;
        return 1;
    }
    return 0;
}

static int on_edge(void *ctx, store_ref from, uint32_t t, store_ref to, int fresh)
{
    builder *b = ctx;
    (void)from;
    if (graph_add_edge(b->m->g, to, fresh, t) < 0) {
        b->full = 1;
        return 1;
    }
    return 0;
}

static int on_expanded(void *ctx, uint64_t id, store_ref ref, uint32_t n)
{
    builder *b = ctx;
    (void)id;
    (void)ref;
    (void)n;
    if (graph_close_state(b->m->g) < 0) {
        b->full = 1;
        return 1;
    }
    return 0;
}

/* The fireability atoms are read off the finished graph: its build fires
 * every enabled transition (no reduction), so a state has an edge labelled
 * t exactly when t is enabled there, and testing each atom's transitions
 * again on every marking would repeat the search's work, once per atom.
 * One pass over the edges with a list of atoms per transition. */
static int fireable_atoms(ctl_model *m)
{
    uint32_t nt = m->cn->ntransitions;
    size_t listed = 0;
    for (size_t i = 0; i < m->natoms; i++)
        if (m->atoms[i]->op == T_FIREABLE)
            listed += m->atoms[i]->n;
    if (!listed)
        return 0;
    size_t *first = calloc((size_t)nt + 1, sizeof *first);
    uint32_t *atom = malloc(listed * sizeof *atom);
    if (!first || !atom) {
        free(first);
        free(atom);
        return -1;
    }
    for (size_t i = 0; i < m->natoms; i++)
        if (m->atoms[i]->op == T_FIREABLE)
            for (uint32_t k = 0; k < m->atoms[i]->n; k++)
                if (m->atoms[i]->items[k] < nt)
                    first[m->atoms[i]->items[k] + 1]++;
    for (uint32_t t = 0; t < nt; t++)
        first[t + 1] += first[t];
    for (size_t i = 0; i < m->natoms; i++)
        if (m->atoms[i]->op == T_FIREABLE)
            for (uint32_t k = 0; k < m->atoms[i]->n; k++)
                if (m->atoms[i]->items[k] < nt)
                    atom[first[m->atoms[i]->items[k]]++] = (uint32_t)i;
    /* first[t] moved to where t's atoms end: shift back */
    for (uint32_t t = nt; t > 0; t--)
        first[t] = first[t - 1];
    first[0] = 0;
    for (uint64_t s = 0; s < m->n; s++) {
        uint64_t end = ctl_succ_end(m, s);
        for (uint64_t e = ctl_succ_begin(m, s); e < end; e++) {
            uint32_t t = *bv_u32(&m->g->labels, e);
            for (size_t k = t < nt ? first[t] : 0; t < nt && k < first[t + 1]; k++)
                SETBIT(m->abits[atom[k]], s);
        }
    }
    free(first);
    free(atom);
    return 0;
}

void ctl_model_free(ctl_model *m)
{
    if (!m)
        return;
    graph_free(m->g);
    for (size_t i = 0; i < m->natoms; i++)
        free(m->abits[i]);
    free(m->abits);
    free(m->atoms);
    free(m->pred_off);
    free(m->preds);
    free(m);
}

uint64_t ctl_model_states(const ctl_model *m)
{
    return m->n;
}

/* parallel_graph's callback: the atoms of state id, each bit set with an
 * atomic or, since a word holds the bits of 64 states that different
 * threads number. */
static int atoms_of(void *ctx, uint64_t id, const nc_count *mk)
{
    ctl_model *m = ctx;
    for (size_t i = 0; i < m->natoms; i++)
        if (m->atoms[i]->op != T_FIREABLE && cn_state_holds(m->cn, m->atoms[i], mk) == 1)
            __atomic_fetch_or(&m->abits[i][id >> 6], (uint64_t)1 << (id & 63), __ATOMIC_RELAXED);
    return 0;
}

/* The model built on opt->threads threads (engine/parallel.h): the
 * markings by the parallel search, then the graph and the atoms from its
 * table.  NULL with res UNKNOWN when a limit was hit; NULL with res
 * untouched (*unsuited set) when the net's markings do not suit it. */
static ctl_model *build_on_threads(const cnet_t *cn, const tree_t *const *formulas, size_t n,
                                   const check_options *opt, int *unsuited, result_t *res)
{
    *unsuited = 0;
    ctl_model *m = calloc(1, sizeof *m);
    if (!m) {
        result_unknown(res, "memory budget exhausted");
        return NULL;
    }
    m->cn = cn;
    m->deadline = opt->budget->deadline;
    m->interrupted = opt->budget->interrupted;
    budget_t states = budget_carve(opt->budget, CARVE_CTL_STATES);
    budget_t model = budget_carve(opt->budget, CARVE_CTL_MODEL);
    budget_t graph = budget_carve(&model, CARVE_CTL_GRAPH);
    check_options sub = *opt;
    sub.budget = &states;
    m->budget = model.bytes;
    m->total = opt->budget->bytes;
    char why[160];
    parallel_t *px = NULL;
    for (size_t i = 0; i < n; i++)
        if (collect_atoms(m, formulas[i]) < 0)
            goto no_memory;
    if (!(m->g = graph_new(graph.bytes)))
        goto no_memory;
    if (!(px = parallel_new(cn, &sub, opt->threads, 0, why, sizeof why))) {
        if (opt->verbose)
            fprintf(stderr, "parallel: %s; the CTL graph is built on one thread\n", why);
        *unsuited = 1;
        ctl_model_free(m);
        return NULL;
    }
    parallel_goal goal = {0, NULL, NULL, NULL};
    explore_status st = parallel_search(px, &goal, res);
    result_add_technique(res, "PARALLEL");
    if (st != EXPLORE_DONE)
        goto fail;
    /* atoms_room doubles the bitsets once a call */
    while (m->natoms && res->states && ((res->states - 1) >> 6) >= m->awords)
        if (atoms_room(m, res->states - 1) < 0) {
            result_unknown(res, "memory budget exhausted (reachability graph)");
            goto fail;
        }
    void **ctx = calloc(parallel_threads(px), sizeof *ctx);
    if (!ctx)
        goto no_memory;
    for (unsigned i = 0; i < parallel_threads(px); i++)
        ctx[i] = m;
    int r = parallel_graph(px, m->g, m->natoms ? atoms_of : NULL, ctx, why, sizeof why);
    free(ctx);
    if (r < 0) {
        result_unknown(res, why);
        goto fail;
    }
    parallel_free(px);
    px = NULL;
    res->peak_bytes += m->bytes + m->g->bytes;
    graph_drop_refs(m->g);
    m->n = graph_states(m->g);
    m->nw = (size_t)((m->n + 63) >> 6);
    m->bytes += m->g->bytes;
    if (fireable_atoms(m) < 0)
        goto no_memory;
    return m;
no_memory:
    result_unknown(res, "memory budget exhausted");
fail:
    parallel_free(px);
    ctl_model_free(m);
    return NULL;
}

static ctl_model *build_one_thread(const cnet_t *cn, const tree_t *const *formulas, size_t n,
                                   const check_options *opt, ctl_watch watch, void *ctx,
                                   int *stopped, result_t *res);

/* On several threads (opt->threads) when there is no watch (which wants
 * markings in breadth-first order) and the state space is larger than
 * opt->parallel_after, as explicit.c decides for dl and reach. */
ctl_model *ctl_model_build(const cnet_t *cn, const tree_t *const *formulas, size_t n,
                           const check_options *opt, ctl_watch watch, void *ctx,
                           int *stopped, result_t *res)
{
    *stopped = 0;
    if (opt->threads > 1 && !watch) {
        uint64_t first = opt->parallel_after;
        if (first && (!opt->max_states || opt->max_states > first)) {
            check_options one = *opt;
            one.max_states = first;
            ctl_model *m = build_one_thread(cn, formulas, n, &one, NULL, NULL, stopped, res);
            if (m || res->answer != ANSWER_UNKNOWN || res->states <= first)
                return m;
            if (opt->verbose)
                fprintf(stderr, "parallel: more than %llu states: the CTL graph again on %u "
                                "threads\n", (unsigned long long)first, opt->threads);
            result_clear(res);
        }
        int unsuited;
        ctl_model *m = build_on_threads(cn, formulas, n, opt, &unsuited, res);
        if (m || !unsuited)
            return m;
    }
    return build_one_thread(cn, formulas, n, opt, watch, ctx, stopped, res);
}

static ctl_model *build_one_thread(const cnet_t *cn, const tree_t *const *formulas, size_t n,
                                   const check_options *opt, ctl_watch watch, void *ctx,
                                   int *stopped, result_t *res)
{
    *stopped = 0;
    ctl_model *m = calloc(1, sizeof *m);
    if (!m) {
        result_unknown(res, "memory budget exhausted");
        return NULL;
    }
    m->cn = cn;
    m->deadline = opt->budget->deadline;
    m->interrupted = opt->budget->interrupted;
    budget_t states = budget_carve(opt->budget, CARVE_CTL_STATES);
    budget_t model = budget_carve(opt->budget, CARVE_CTL_MODEL);
    budget_t graph = budget_carve(&model, CARVE_CTL_GRAPH);
    check_options sub = *opt;
    sub.budget = &states;
    m->budget = model.bytes;
    m->total = opt->budget->bytes;
    for (size_t i = 0; i < n; i++)
        if (collect_atoms(m, formulas[i]) < 0) {
            ctl_model_free(m);
            result_unknown(res, "memory budget exhausted");
            return NULL;
        }
    m->g = graph_new(graph.bytes);
    explore_t *ex = m->g ? explore_new(cn, &sub, EXPLORE_REFS) : NULL;
    if (!ex) {
        ctl_model_free(m);
        result_unknown(res, "memory budget exhausted");
        return NULL;
    }
    builder b = {m, watch, ctx, 0, 0};
    explore_visitor v = {on_state, on_edge, on_expanded, "ctl", 0};
    explore_status st = explore_bfs(ex, &v, &b, res);
    explore_free(ex);
    /* explore counted its store; the graph and the atoms lived beside it */
    res->peak_bytes += m->bytes + m->g->bytes;
    if (st == EXPLORE_DONE) {
        graph_drop_refs(m->g);
        m->n = graph_states(m->g);
        m->nw = (size_t)((m->n + 63) >> 6);
        m->bytes += m->g->bytes;
        if (fireable_atoms(m) == 0)
            return m;
        result_unknown(res, "memory budget exhausted");
        ctl_model_free(m);
        return NULL;
    }
    if (b.watch_stopped)
        *stopped = 1;
    else if (b.full)
        result_unknown(res, "memory budget exhausted (reachability graph)");
    ctl_model_free(m);
    return NULL;
}

/* ---- evaluation ---- */

/* Once the graph is built the markings' store is gone, so the evaluation
 * may use what it had: the whole budget. */
static int fits(const ctl_model *m, size_t bytes)
{
    return m->bytes + bytes <= m->total;
}

int ctl_tick(ctl_model *m)
{
    if (++m->ticks % CLOCK_EVERY)
        return 0;
    if ((m->interrupted && *m->interrupted) || (m->deadline > 0 && mono_now() > m->deadline)) {
        m->gave_up = m->interrupted && *m->interrupted ? "interrupted" : "time limit reached";
        return -1;
    }
    return 0;
}

/* All states (fill 1) or none, and no bit beyond the last state. */
static void bits_fill(const ctl_model *m, uint64_t *b, int fill)
{
    memset(b, fill ? 0xff : 0, (m->nw ? m->nw : 1) * 8);
    if (fill && (m->n & 63))
        b[m->nw - 1] = ((uint64_t)1 << (m->n & 63)) - 1;
}

uint64_t *ctl_bits_new(ctl_model *m, int fill)
{
    size_t bytes = (m->nw ? m->nw : 1) * 8;
    if (!fits(m, bytes)) {
        m->gave_up = "memory budget exhausted";
        return NULL;
    }
    uint64_t *b = malloc(bytes);
    if (!b) {
        m->gave_up = "memory budget exhausted";
        return NULL;
    }
    m->bytes += bytes;
    bits_fill(m, b, fill);
    return b;
}

void ctl_bits_free(ctl_model *m, uint64_t *b)
{
    if (!b)
        return;
    m->bytes -= (m->nw ? m->nw : 1) * 8;
    free(b);
}

void ctl_bits_complement(const ctl_model *m, uint64_t *b)
{
    for (size_t i = 0; i < m->nw; i++)
        b[i] = ~b[i];
    if (m->n & 63)
        b[m->nw - 1] &= ((uint64_t)1 << (m->n & 63)) - 1;
}

/* Predecessor lists, one entry per edge, built on first need. */
static int need_preds(ctl_model *m)
{
    if (m->preds)
        return 0;
    uint64_t ne = m->g->targets.n;
    size_t bytes = (size_t)(m->n + 1) * 8 + (size_t)ne * 4;
    if (!fits(m, bytes) || ne > SIZE_MAX / 8) {
        m->gave_up = "memory budget exhausted (predecessor lists)";
        return -1;
    }
    m->pred_off = calloc((size_t)m->n + 1, 8);
    m->preds = malloc(ne ? (size_t)ne * 4 : 4);
    if (!m->pred_off || !m->preds) {
        free(m->pred_off);
        free(m->preds);
        m->pred_off = NULL;
        m->preds = NULL;
        m->gave_up = "memory budget exhausted (predecessor lists)";
        return -1;
    }
    m->bytes += bytes;
    for (uint64_t e = 0; e < ne; e++)
        m->pred_off[*bv_u32(&m->g->targets, e) + 1]++;
    for (uint64_t s = 0; s < m->n; s++)
        m->pred_off[s + 1] += m->pred_off[s];
    /* fill with a moving cursor per target, then shift the offsets back */
    for (uint64_t s = 0; s < m->n; s++) {
        uint64_t end = ctl_succ_end(m, s);
        for (uint64_t e = ctl_succ_begin(m, s); e < end; e++) {
            uint32_t t = *bv_u32(&m->g->targets, e);
            m->preds[m->pred_off[t]++] = (uint32_t)s;
        }
    }
    for (uint64_t s = m->n; s > 0; s--)
        m->pred_off[s] = m->pred_off[s - 1];
    m->pred_off[0] = 0;
    return 0;
}

/* The states a fixpoint adds (or removes), level by level, and a counter
 * per state: scratch of one evaluation step.  Every state enters q at most
 * once, so the levels follow one another in one array.  A level is taken
 * in ascending order when it is dense: the predecessor lists are then read
 * from front to back instead of at random, and the fixpoints, bound by
 * memory, run faster; the result does not depend on the order. */
typedef struct work {
    uint32_t *q;
    size_t head, tail;
    uint64_t *level;      /* the states of the level being filled */
    size_t lo, hi;        /* the words of level that may be nonzero */
    uint32_t *cnt;
} work;

static size_t work_bytes(const ctl_model *m, int counters)
{
    size_t n = (size_t)(m->n ? m->n : 1);
    return n * 4 * (counters ? 2 : 1) + (m->nw ? m->nw : 1) * 8;
}

static int work_new(ctl_model *m, work *w, int counters)
{
    size_t n = (size_t)(m->n ? m->n : 1);
    memset(w, 0, sizeof *w);
    w->lo = SIZE_MAX;
    if (!fits(m, work_bytes(m, counters)))
        goto full;
    w->q = malloc(n * 4);
    w->level = calloc(m->nw ? m->nw : 1, 8);
    if (counters)
        w->cnt = malloc(n * 4);
    if (!w->q || !w->level || (counters && !w->cnt))
        goto full;
    m->bytes += work_bytes(m, counters);
    return 0;
full:
    free(w->q);
    free(w->level);
    free(w->cnt);
    m->gave_up = "memory budget exhausted";
    return -1;
}

static void work_free(ctl_model *m, work *w)
{
    m->bytes -= work_bytes(m, w->cnt != NULL);
    free(w->q);
    free(w->level);
    free(w->cnt);
}

static inline void work_push(work *w, uint32_t s)
{
    size_t word = s >> 6;
    w->q[w->tail++] = s;
    w->level[word] |= (uint64_t)1 << (s & 63);
    if (word < w->lo)
        w->lo = word;
    if (word >= w->hi)
        w->hi = word + 1;
}

/* Closes the level q[head..tail) and returns its end: in ascending order
 * when scanning its words costs at most a few per state. */
static size_t work_level(work *w)
{
    size_t end = w->tail;
    if (w->hi > w->lo && w->hi - w->lo <= 8 * (end - w->head)) {
        size_t k = w->head;
        for (size_t i = w->lo; i < w->hi; i++) {
            for (uint64_t x = w->level[i]; x; x &= x - 1)
                w->q[k++] = (uint32_t)(i * 64 + (size_t)__builtin_ctzll(x));
            w->level[i] = 0;
        }
    } else {
        for (size_t k = w->head; k < end; k++)
            CLEARBIT(w->level, w->q[k]);
    }
    w->lo = SIZE_MAX;
    w->hi = 0;
    return end;
}

/* What a state s does when one of its successors entered the level: it
 * joins bits (E U: when s is a φ-state; A U: when besides that its last
 * successor outside joined) or leaves them (E G: when its last successor
 * inside left). */
typedef enum { JOIN, JOIN_COUNTED, LEAVE } step_kind;

/* Runs the levels of w to the end; 0, or -1 at the deadline.  Inlined per
 * kind, so that each fixpoint's inner loop tests only its own condition. */
static inline __attribute__((always_inline)) int propagate(ctl_model *m, work *w,
                                                            const uint64_t *phi, uint64_t *bits,
                                                            step_kind kind)
{
    int rc = 0;
    while (w->head < w->tail && rc == 0)
        for (size_t end = work_level(w); w->head < end && rc == 0; w->head++) {
            uint32_t t = w->q[w->head];
            for (uint64_t i = m->pred_off[t]; i < m->pred_off[t + 1]; i++) {
                uint32_t s = m->preds[i];
                if (kind == LEAVE) {
                    /* s has an edge, so it is no deadlock */
                    if (BIT(bits, s) && --w->cnt[s] == 0) {
                        CLEARBIT(bits, s);
                        work_push(w, s);
                    }
                } else if (!BIT(bits, s) && (!phi || BIT(phi, s)) &&
                           (kind == JOIN || --w->cnt[s] == 0)) {
                    SETBIT(bits, s);
                    work_push(w, s);
                }
            }
            rc = ctl_tick(m);
        }
    return rc;
}

/* E[φ U ψ] = μZ. ψ ∨ (φ ∧ EX Z): backwards from the ψ-states through
 * φ-states.  phi NULL means true.  Result in psi. */
static int eu(ctl_model *m, const uint64_t *phi, uint64_t *psi)
{
    work w;
    if (need_preds(m) < 0 || work_new(m, &w, 0) < 0)
        return -1;
    for (uint64_t s = 0; s < m->n; s++)
        if (BIT(psi, s))
            work_push(&w, (uint32_t)s);
    int rc = propagate(m, &w, phi, psi, JOIN);
    work_free(m, &w);
    return rc;
}

static int bits_any(const ctl_model *m, const uint64_t *b)
{
    for (size_t i = 0; i < m->nw; i++)
        if (b[i])
            return 1;
    return 0;
}

/* Whether the graph is one strongly connected component: state 0 reaches
 * every state by construction, so it is when every state reaches state 0.
 * One backward pass, taken once, saves every later E F and A G its own:
 * the reachability graphs of reversible nets are like that. */
static int strongly_connected(ctl_model *m)
{
    if (m->strongly_connected)
        return m->strongly_connected == 1;
    uint64_t *seen = ctl_bits_new(m, 0);
    if (!seen)
        return -1;
    int rc = m->n ? 0 : -1;
    if (m->n) {
        SETBIT(seen, 0);
        rc = eu(m, NULL, seen);
    }
    if (rc == 0) {
        ctl_bits_complement(m, seen);
        m->strongly_connected = bits_any(m, seen) ? 2 : 1;
    }
    ctl_bits_free(m, seen);
    return rc < 0 ? -1 : m->strongly_connected == 1;
}

/* E F φ in place: on a strongly connected graph every state reaches a
 * φ-state when there is one. */
static int ef(ctl_model *m, uint64_t *phi)
{
    int strong = strongly_connected(m);
    if (strong < 0)
        return -1;
    if (!strong)
        return eu(m, NULL, phi);
    bits_fill(m, phi, bits_any(m, phi));
    return 0;
}

/* A[φ U ψ] = μZ. ψ ∨ (φ ∧ ¬dead ∧ AX Z): a φ-state joins once all its
 * edges lead into Z (a deadlock has none, so it never joins). */
static int au(ctl_model *m, const uint64_t *phi, uint64_t *psi)
{
    work w;
    if (need_preds(m) < 0 || work_new(m, &w, 1) < 0)
        return -1;
    for (uint64_t s = 0; s < m->n; s++) {
        uint64_t out = ctl_succ_end(m, s) - ctl_succ_begin(m, s);
        w.cnt[s] = out > UINT32_MAX ? UINT32_MAX : (uint32_t)out;
        if (BIT(psi, s))
            work_push(&w, (uint32_t)s);
    }
    int rc = propagate(m, &w, phi, psi, JOIN_COUNTED);
    work_free(m, &w);
    return rc;
}

/* E G φ = νZ. φ ∧ (dead ∨ EX Z): from Z = φ, remove every state that is
 * not a deadlock and has no edge into Z, until none is left to remove.
 * Result in phi. */
static int eg(ctl_model *m, uint64_t *phi)
{
    work w;
    if (need_preds(m) < 0 || work_new(m, &w, 1) < 0)
        return -1;
    for (uint64_t s = 0; s < m->n; s++) {
        if (!BIT(phi, s))
            continue;
        uint64_t begin = ctl_succ_begin(m, s), end = ctl_succ_end(m, s), in = 0;
        for (uint64_t e = begin; e < end; e++)
            in += BIT(phi, *bv_u32(&m->g->targets, e)) != 0;
        w.cnt[s] = in > UINT32_MAX ? UINT32_MAX : (uint32_t)in;
        if (in == 0 && end > begin)
            work_push(&w, (uint32_t)s);
    }
    for (size_t i = 0; i < w.tail; i++)
        CLEARBIT(phi, w.q[i]);
    int rc = propagate(m, &w, NULL, phi, LEAVE);
    work_free(m, &w);
    return rc;
}

/* E X φ (all = 0) or A X φ (all = 1) from φ's bits. */
static uint64_t *next(ctl_model *m, const uint64_t *phi, int all)
{
    uint64_t *r = ctl_bits_new(m, 0);
    if (!r)
        return NULL;
    for (uint64_t s = 0; s < m->n; s++) {
        uint64_t begin = ctl_succ_begin(m, s), end = ctl_succ_end(m, s);
        int v = all;
        for (uint64_t e = begin; e < end && v == all; e++)
            v = BIT(phi, *bv_u32(&m->g->targets, e)) != 0;
        if (v)
            SETBIT(r, s);
        if (ctl_tick(m) < 0) {
            ctl_bits_free(m, r);
            return NULL;
        }
    }
    return r;
}

static uint64_t *leaf(ctl_model *m, const tree_t *f)
{
    switch (f->op) {
    case T_TRUE:
    case T_FALSE:
        return ctl_bits_new(m, f->op == T_TRUE);
    case T_DEADLOCK: {
        uint64_t *r = ctl_bits_new(m, 0);
        for (uint64_t s = 0; r && s < m->n; s++)
            if (ctl_succ_begin(m, s) == ctl_succ_end(m, s))
                SETBIT(r, s);
        return r;
    }
    default: {
        int64_t a = atom_index(m, f);
        if (a < 0) {
            m->gave_up = "an atomic proposition the model was not built for";
            return NULL;
        }
        uint64_t *r = ctl_bits_new(m, 0);
        if (r)
            memcpy(r, m->abits[a], m->nw * 8);
        return r;
    }
    }
}

uint64_t *ctl_eval(ctl_model *m, const tree_t *f)
{
    if (!f) {
        m->gave_up = "empty formula";
        return NULL;
    }
    if (f->op <= T_CMP)
        return leaf(m, f);
    switch (f->op) {
    case T_X: case T_F: case T_G: case T_U: case T_R: case T_BOUND:
        m->gave_up = "not a CTL formula";
        return NULL;
    default:
        break;
    }
    uint64_t *l = ctl_eval(m, f->l), *r = NULL;
    if (!l)
        return NULL;
    int binary = f->op == T_AND || f->op == T_OR || f->op == T_IMPLIES || f->op == T_IFF ||
                 f->op == T_EU || f->op == T_AU;
    if (binary && !(r = ctl_eval(m, f->r))) {
        ctl_bits_free(m, l);
        return NULL;
    }
    uint64_t *out = l;
    int rc = 0;
    switch (f->op) {
    case T_NOT: ctl_bits_complement(m, l); break;
    case T_AND: for (size_t i = 0; i < m->nw; i++) l[i] &= r[i]; break;
    case T_OR: for (size_t i = 0; i < m->nw; i++) l[i] |= r[i]; break;
    case T_IMPLIES:
        ctl_bits_complement(m, l);
        for (size_t i = 0; i < m->nw; i++) l[i] |= r[i];
        break;
    case T_IFF:
        for (size_t i = 0; i < m->nw; i++) l[i] ^= r[i];
        ctl_bits_complement(m, l);
        break;
    case T_EX: out = next(m, l, 0); ctl_bits_free(m, l); break;
    case T_AX: out = next(m, l, 1); ctl_bits_free(m, l); break;
    case T_EF: rc = ef(m, l); break;
    case T_AF: rc = au(m, NULL, l); break;
    case T_EG: rc = eg(m, l); break;
    case T_AG:   /* ¬ E F ¬φ */
        ctl_bits_complement(m, l);
        rc = ef(m, l);
        ctl_bits_complement(m, l);
        break;
    case T_EU: rc = eu(m, l, r); out = r; r = l; break;
    case T_AU: rc = au(m, l, r); out = r; r = l; break;
    default:
        m->gave_up = "not a CTL formula";
        rc = -1;
    }
    ctl_bits_free(m, r);
    if (rc < 0) {
        ctl_bits_free(m, out);
        return NULL;
    }
    return out;
}

/* f's value at state 0 (1, 0; -1 with gave_up set).  Every state is
 * reachable from state 0, so there E F φ holds when φ holds anywhere and
 * A G φ when it holds everywhere: the boolean top of a formula and its
 * outermost E F and A G cost no fixpoint. */
static int at_root(ctl_model *m, const tree_t *f)
{
    int l, r;
    switch (f->op) {
    case T_NOT:
        l = at_root(m, f->l);
        return l < 0 ? l : !l;
    case T_AND:
    case T_OR:
    case T_IMPLIES:
        if ((l = at_root(m, f->l)) < 0)
            return l;
        if (f->op == T_AND ? !l : f->op == T_OR ? l : !l)
            return f->op != T_AND;
        return at_root(m, f->r);
    case T_IFF:
        if ((l = at_root(m, f->l)) < 0 || (r = at_root(m, f->r)) < 0)
            return -1;
        return l == r;
    case T_EF:
    case T_AG: {
        uint64_t *b = ctl_eval(m, f->l);
        if (!b)
            return -1;
        if (f->op == T_AG)
            ctl_bits_complement(m, b);
        int any = bits_any(m, b);
        ctl_bits_free(m, b);
        return f->op == T_EF ? any : !any;
    }
    default: {
        uint64_t *b = ctl_eval(m, f);
        if (!b)
            return -1;
        int v = (int)(b[0] & 1);
        ctl_bits_free(m, b);
        return v;
    }
    }
}

int ctl_model_check(ctl_model *m, const tree_t *f, char *why, size_t whylen)
{
    m->gave_up = NULL;
    int v = m->n ? at_root(m, f) : 0;
    if (v < 0) {
        snprintf(why, whylen, "%s", m->gave_up ? m->gave_up : "memory budget exhausted");
        return -1;
    }
    return v;
}
