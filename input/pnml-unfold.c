/* The P/T unfolding of a symmetric net.
 *
 * Place p of sort S becomes one place per color c of S, named p_c ("p" alone
 * for the dot sort; a tuple color reads "(a,b)", so p_(a,b)).  Transition t
 * becomes one transition per binding of its variables (those of its guard
 * and arcs) that satisfies the guard, named t_v for one variable and
 * t_(v1,v2,...) for several, in the order the variables are declared; the
 * binding with the variables' names is the transition's comment.  Arcs are
 * the inscriptions evaluated under the binding.  The colored ids name
 * groups of their copies, so that MCC formulas about colored places and
 * transitions read as sums and disjunctions over the unfolding.
 *
 * Bindings are not all enumerated: a variable that the guard equates (as a
 * top-level conjunct) to a term of other variables or constants is
 * computed, not tried, and every conjunct is checked as soon as its
 * variables are bound, pruning all extensions of a failing partial binding.
 * Copies that can never be marked or fired are kept: simpler, and correct. */
#include "base/budget.h"
#include "base/grow.h"
#include "pnml-colored.h"
#include "pnml-internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct entry {
    uint32_t color;
    int64_t count;
} entry;

typedef struct mvec {
    entry *e;
    size_t n, cap;
} mvec;

/* How to enumerate the bindings of one transition. */
typedef struct plan {
    uint32_t nv;
    uint32_t *order;            /* variables, each after those it is computed from */
    const pc_term **derived;    /* per position: the term fixing it, or NULL to try all */
    uint32_t *cstart;           /* conjuncts checkable once position i-1 is bound:
                                 * conj[cstart[i] .. cstart[i+1]), i in 0..nv */
    const pc_term **conj;
    uint32_t *names;            /* the variables in declaration order, for names */
    uint64_t bound;             /* bindings tried at most */
} plan;

typedef struct unfolder {
    const pc_net *pn;
    net_t *net;
    uint32_t *place_base;       /* first unfolded place of each colored place */
    uint32_t *arc_start, *arc_of;   /* the colored arcs of each transition */
    uint32_t *val;              /* the binding, per variable */
    uint32_t *next;             /* bind's odometer, per position */
    uint32_t *odo;              /* tuple_all's odometer, per component */
    size_t cap_odo;
    uint32_t *group;            /* unfolded copies of the transition being unfolded */
    size_t ngroup, cap_group;
    uint64_t tried;
    mvec ms;
    int failed;
} unfolder;

static int fail_at(unfolder *U, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail_at(unfolder *U, long line, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!U->failed)
        nc_error(U->pn->file, line > 0 ? line : 1, "%s", msg);
    U->failed = 1;
    return -1;
}

/* ------------------------------------------------------------------ */
/* evaluation */

static uint32_t color_value(const pc_net *pn, const pc_term *t, const uint32_t *val)
{
    uint32_t size = pn->sorts[t->sort].size;
    switch (t->op) {
    case PC_T_VAR:
        return val[t->value];
    case PC_T_SUCC:
        return (color_value(pn, t->k[0], val) + 1) % size;
    case PC_T_PRED:
        return (color_value(pn, t->k[0], val) + size - 1) % size;
    case PC_T_TUPLE: {
        /* products are at most PC_MAX_COLORS colors: no overflow */
        uint32_t acc = 0;
        for (uint32_t i = 0; i < t->nk; i++)
            acc = acc * pn->sorts[t->k[i]->sort].size + color_value(pn, t->k[i], val);
        return acc;
    }
    default:
        return t->value;
    }
}

static int guard_value(const pc_net *pn, const pc_term *t, const uint32_t *val)
{
    switch (t->op) {
    case PC_T_BOOL:
        return (int)t->value;
    case PC_T_AND:
        for (uint32_t i = 0; i < t->nk; i++)
            if (!guard_value(pn, t->k[i], val))
                return 0;
        return 1;
    case PC_T_OR:
        for (uint32_t i = 0; i < t->nk; i++)
            if (guard_value(pn, t->k[i], val))
                return 1;
        return 0;
    case PC_T_NOT:
        return !guard_value(pn, t->k[0], val);
    case PC_T_IMPLY:
        return !guard_value(pn, t->k[0], val) || guard_value(pn, t->k[1], val);
    default:
        break;
    }
    uint32_t a = color_value(pn, t->k[0], val), b = color_value(pn, t->k[1], val);
    switch (t->op) {
    case PC_T_EQ: return a == b;
    case PC_T_NE: return a != b;
    case PC_T_LT: return a < b;
    case PC_T_LE: return a <= b;
    case PC_T_GT: return a > b;
    case PC_T_GE: return a >= b;
    default: return 0;
    }
}

static int push(unfolder *U, uint32_t color, int64_t count, long line)
{
    mvec *m = &U->ms;
    /* an <all> of a large sort is millions of entries before any copy */
    if (budget_poll()) {
        U->failed = 1;
        return -1;
    }
    if (GROW(m->e, m->cap, m->n + 1) < 0)
        return fail_at(U, line, "out of memory");
    m->e[m->n++] = (entry){ color, count };
    return 0;
}

static int has_all(const pc_term *tuple)
{
    for (uint32_t i = 0; i < tuple->nk; i++)
        if (tuple->k[i]->op == PC_T_ALL)
            return 1;
    return 0;
}

/* A tuple with <all> components: every tuple of the product, by an
 * odometer over the <all> components (the last turning fastest), since a
 * file decides how many components a tuple has. */
static int tuple_all(unfolder *U, const pc_term *t, const uint32_t *val, int64_t mult)
{
    if (GROW(U->odo, U->cap_odo, (size_t)t->nk + 1) < 0)
        return fail_at(U, t->line, "out of memory");
    uint32_t *cur = U->odo;
    for (uint32_t i = 0; i < t->nk; i++) {
        cur[i] = 0;
        if (t->k[i]->op == PC_T_ALL && U->pn->sorts[t->k[i]->sort].size == 0)
            return 0;   /* an empty sort: no tuple at all */
    }
    for (;;) {
        uint32_t acc = 0;
        for (uint32_t i = 0; i < t->nk; i++) {
            const pc_term *k = t->k[i];
            uint32_t size = U->pn->sorts[k->sort].size;
            acc = acc * size + (k->op == PC_T_ALL ? cur[i] : color_value(U->pn, k, val));
        }
        if (push(U, acc, mult, t->line) < 0)
            return -1;
        /* the last <all> component that can turn turns; those after it
         * start again */
        uint32_t i = t->nk;
        for (;;) {
            if (i == 0)
                return 0;
            const pc_term *k = t->k[--i];
            if (k->op != PC_T_ALL)
                continue;
            if (++cur[i] < U->pn->sorts[k->sort].size)
                break;
            cur[i] = 0;
        }
    }
}

/* Appends mult times the multiset t to U->ms (unsorted, possibly with
 * repeated colors and negative counts from subtract). */
static int ms_eval(unfolder *U, const pc_term *t, const uint32_t *val, int64_t mult)
{
    const pc_net *pn = U->pn;
    switch (t->op) {
    case PC_T_NUMBEROF: {
        int64_t m;
        if (t->count > (nc_count)INT64_MAX || __builtin_mul_overflow(mult, (int64_t)t->count, &m))
            return fail_at(U, t->line, "multiplicity larger than %lld",
                           (long long)INT64_MAX);
        const pc_term *k = t->k[0];
        if (k->op == PC_T_NUMBEROF || k->op == PC_T_ADD || k->op == PC_T_SUBTRACT ||
            k->op == PC_T_ALL)
            return ms_eval(U, k, val, m);
        if (k->op == PC_T_TUPLE && has_all(k))
            return m ? tuple_all(U, k, val, m) : 0;
        return m ? push(U, color_value(pn, k, val), m, t->line) : 0;
    }
    case PC_T_ADD:
        for (uint32_t i = 0; i < t->nk; i++)
            if (ms_eval(U, t->k[i], val, mult) < 0)
                return -1;
        return 0;
    case PC_T_SUBTRACT:
        for (uint32_t i = 0; i < t->nk; i++)
            if (ms_eval(U, t->k[i], val, i ? -mult : mult) < 0)
                return -1;
        return 0;
    case PC_T_ALL:
        for (uint32_t c = 0; mult && c < pn->sorts[t->sort].size; c++)
            if (push(U, c, mult, t->line) < 0)
                return -1;
        return 0;
    default:
        return fail_at(U, t->line, "internal error: not a multiset");
    }
}

static int by_color(const void *a, const void *b)
{
    uint32_t x = ((const entry *)a)->color, y = ((const entry *)b)->color;
    return x < y ? -1 : x > y;
}

/* Evaluates t into U->ms as sorted (color, count > 0) pairs. */
static int multiset_value(unfolder *U, const pc_term *t, const uint32_t *val)
{
    U->ms.n = 0;
    if (ms_eval(U, t, val, 1) < 0)
        return -1;
    mvec *m = &U->ms;
    if (m->n > 1)   /* qsort may not be given the NULL of an empty vector */
        qsort(m->e, m->n, sizeof *m->e, by_color);
    size_t out = 0;
    for (size_t i = 0; i < m->n;) {
        entry e = m->e[i++];
        while (i < m->n && m->e[i].color == e.color)
            if (__builtin_add_overflow(e.count, m->e[i++].count, &e.count))
                return fail_at(U, t->line, "multiplicity out of range");
        if (e.count < 0)
            return fail_at(U, t->line, "<subtract> removes a color the multiset does not hold");
        if (e.count > 0)
            m->e[out++] = e;
    }
    m->n = out;
    return 0;
}

/* ------------------------------------------------------------------ */
/* places */

static int add_place(unfolder *U, const char *id, const char *name, nc_count initial,
                     long line)
{
    char alt[620];
    int rc = nc_create_place(U->net, id, name, initial);
    /* a color name may make two copies look alike: number the later one */
    for (unsigned k = 2; rc == NC_ERR_DUPLICATE_ID && k < 1000; k++) {
        snprintf(alt, sizeof alt, "%s#%u", id, k);
        rc = nc_create_place(U->net, alt, name, initial);
    }
    return rc < 0 ? fail_at(U, line, "place '%s': %s", id, nc_status_text(rc)) : 0;
}

static int unfold_place(unfolder *U, uint32_t i)
{
    const pc_net *pn = U->pn;
    const pc_place *p = &pn->places[i];
    const pc_sort *s = &pn->sorts[p->sort];
    U->place_base[i] = (uint32_t)U->net->nplaces;
    static const uint32_t none[1];
    if (p->initial && multiset_value(U, p->initial, none) < 0)
        return -1;
    if (!p->initial)
        U->ms.n = 0;
    size_t next = 0;
    char color[256], id[600], name[600];
    for (uint32_t c = 0; c < s->size; c++) {
        nc_count init = 0;
        if (next < U->ms.n && U->ms.e[next].color == c)
            init = (nc_count)U->ms.e[next++].count;
        if (s->kind == PC_DOT) {
            snprintf(id, sizeof id, "%s", p->id);
            snprintf(name, sizeof name, "%s", p->name);
        } else {
            pc_color_name(pn, p->sort, c, color, sizeof color);
            snprintf(id, sizeof id, "%s_%s", p->id, color);
            snprintf(name, sizeof name, "%s_%s", p->name, color);
        }
        if (add_place(U, id, name, init, p->line) < 0)
            return -1;
    }
    uint32_t *members = malloc((s->size ? s->size : 1) * sizeof *members);
    if (!members)
        return fail_at(U, p->line, "out of memory");
    for (uint32_t c = 0; c < s->size; c++)
        members[c] = U->place_base[i] + c;
    int rc = nc_add_group(U->net, 0, p->id, members, s->size);
    free(members);
    return rc < 0 ? fail_at(U, p->line, "place '%s': %s", p->id, nc_status_text(rc)) : 0;
}

/* ------------------------------------------------------------------ */
/* planning the bindings */

static void mark_vars(const pc_term *t, uint8_t *used)
{
    if (!t)
        return;
    if (t->op == PC_T_VAR)
        used[t->value] = 1;
    for (uint32_t i = 0; i < t->nk; i++)
        mark_vars(t->k[i], used);
}

static int mentions(const pc_term *t, uint32_t v)
{
    if (t->op == PC_T_VAR && t->value == v)
        return 1;
    for (uint32_t i = 0; i < t->nk; i++)
        if (mentions(t->k[i], v))
            return 1;
    return 0;
}

/* What make_plan's walks through fix[] share.  Terms are as deep as the
 * XML (libxml2 stops at 256 levels), but x = y & y = z & ... chains the
 * variables as long as a guard is: whatever follows fix[] keeps its own
 * stack, and marks each variable once per walk. */
typedef struct walk {
    const pc_term **todo;
    size_t ntodo, cap_todo;
    uint32_t *mark, epoch;     /* per variable: the walk that reached it */
    int no_memory;
} walk;

static void walk_push(walk *w, const pc_term *t)
{
    if (GROW(w->todo, w->cap_todo, w->ntodo + 1) < 0)
        w->no_memory = 1;
    else
        w->todo[w->ntodo++] = t;
}

/* Whether computing e needs v, through the variables already computed. */
static int needs(const pc_term *e, uint32_t v, const pc_term **fix, walk *w)
{
    w->epoch++;
    w->ntodo = 0;
    walk_push(w, e);
    while (w->ntodo && !w->no_memory) {
        const pc_term *t = w->todo[--w->ntodo];
        if (t->op == PC_T_VAR) {
            if (t->value == v)
                return 1;
            if (fix[t->value] && w->mark[t->value] != w->epoch) {
                w->mark[t->value] = w->epoch;
                walk_push(w, fix[t->value]);
            }
        }
        for (uint32_t i = 0; i < t->nk; i++)
            walk_push(w, t->k[i]);
    }
    return 0;
}

static void conjuncts(const pc_term *g, const pc_term **out, uint32_t *n)
{
    if (!g)
        return;
    if (g->op == PC_T_AND) {
        for (uint32_t i = 0; i < g->nk; i++)
            conjuncts(g->k[i], out, n);
        return;
    }
    out[(*n)++] = g;
}

static uint32_t count_conjuncts(const pc_term *g)
{
    if (!g)
        return 0;
    if (g->op != PC_T_AND)
        return 1;
    uint32_t n = 0;
    for (uint32_t i = 0; i < g->nk; i++)
        n += count_conjuncts(g->k[i]);
    return n;
}

/* Appends v to order after the variables it is computed from (fix[]),
 * each once: a depth-first walk with its own stack, in the order of the
 * recursion it replaces (a term's variables left to right, each before
 * the variable the term computes).  A frame is a variable (t NULL; next 0
 * before its term, 1 after) or a term (next: the next child; the term's
 * own variable first, as next == 0 with self 0). */
typedef struct visit_frame {
    const pc_term *t;
    uint32_t v, next;
    int self;
} visit_frame;

static int visit(uint32_t v, const pc_term **fix, uint8_t *placed, uint32_t *order, uint32_t *n,
                 visit_frame **stack, size_t *cap)
{
    size_t depth = 0;
    if (GROW(*stack, *cap, 1) < 0)
        return -1;
    (*stack)[depth++] = (visit_frame){ NULL, v, 0, 0 };
    while (depth) {
        visit_frame *f = &(*stack)[depth - 1], push;
        if (!f->t) {
            if (f->next) {                  /* its term is done */
                order[(*n)++] = f->v;
                depth--;
                continue;
            }
            if (placed[f->v]) {
                depth--;
                continue;
            }
            placed[f->v] = 1;
            f->next = 1;
            if (!fix[f->v])
                continue;
            push = (visit_frame){ fix[f->v], 0, 0, 0 };
        } else if (!f->self) {
            f->self = 1;
            if (f->t->op != PC_T_VAR)
                continue;
            push = (visit_frame){ NULL, f->t->value, 0, 0 };
        } else if (f->next < f->t->nk) {
            push = (visit_frame){ f->t->k[f->next++], 0, 0, 0 };
        } else {
            depth--;
            continue;
        }
        if (GROW(*stack, *cap, depth + 1) < 0)
            return -1;
        (*stack)[depth++] = push;
    }
    return 0;
}

/* The latest rank (position + 1) among t's variables, 0 for none. */
static uint32_t last_rank(const pc_term *t, const uint32_t *rank)
{
    uint32_t r = t->op == PC_T_VAR ? rank[t->value] : 0;
    for (uint32_t i = 0; i < t->nk; i++) {
        uint32_t k = last_rank(t->k[i], rank);
        r = k > r ? k : r;
    }
    return r;
}

static void plan_free(plan *P)
{
    free(P->order);
    free(P->derived);
    free(P->cstart);
    free(P->conj);
    free(P->names);
    memset(P, 0, sizeof *P);
}

static int make_plan(unfolder *U, uint32_t t, plan *P)
{
    const pc_net *pn = U->pn;
    const pc_transition *tr = &pn->transitions[t];
    size_t nv = pn->nvars;
    memset(P, 0, sizeof *P);
    uint8_t *used = calloc(nv + 1, 1), *placed = calloc(nv + 1, 1);
    const pc_term **fix = calloc(nv + 1, sizeof *fix);
    uint32_t nc = count_conjuncts(tr->guard);
    const pc_term **cj = calloc(nc + 1, sizeof *cj);
    uint32_t *pos = calloc(nc + 1, sizeof *pos), *rank = calloc(nv + 1, sizeof *rank);
    walk w = { .mark = calloc(nv + 1, sizeof *w.mark) };
    visit_frame *frames = NULL;
    size_t cap_frames = 0;
    P->order = calloc(nv + 1, sizeof *P->order);
    P->names = calloc(nv + 1, sizeof *P->names);
    P->derived = calloc(nv + 1, sizeof *P->derived);
    P->conj = calloc(nc + 1, sizeof *P->conj);
    P->cstart = calloc(nv + 2, sizeof *P->cstart);
    int rc = 0;
    if (!used || !placed || !fix || !cj || !pos || !rank || !w.mark || !P->order || !P->names ||
        !P->derived || !P->conj || !P->cstart) {
        rc = fail_at(U, tr->line, "out of memory");
        goto out;
    }
    mark_vars(tr->guard, used);
    for (uint32_t a = U->arc_start[t]; a < U->arc_start[t + 1]; a++)
        mark_vars(pn->arcs[U->arc_of[a]].weight, used);
    uint32_t n = 0;
    conjuncts(tr->guard, cj, &n);
    /* x = e: x is computed from e when that makes no cycle */
    for (uint32_t i = 0; i < nc; i++) {
        if (cj[i]->op != PC_T_EQ)
            continue;
        for (int side = 0; side < 2; side++) {
            const pc_term *x = cj[i]->k[side], *e = cj[i]->k[1 - side];
            if (x->op != PC_T_VAR || fix[x->value] || mentions(e, x->value) ||
                needs(e, x->value, fix, &w))
                continue;
            fix[x->value] = e;
            break;
        }
    }
    uint32_t nvars = 0;
    for (uint32_t v = 0; v < nv; v++)
        if (used[v])
            P->names[nvars++] = v;
    P->nv = nvars;
    if (w.no_memory) {
        rc = fail_at(U, tr->line, "out of memory");
        goto out;
    }
    n = 0;
    for (uint32_t i = 0; i < nvars; i++)
        if (visit(P->names[i], fix, placed, P->order, &n, &frames, &cap_frames) < 0) {
            rc = fail_at(U, tr->line, "out of memory");
            goto out;
        }
    P->bound = 1;
    for (uint32_t i = 0; i < nvars; i++) {
        uint32_t v = P->order[i];
        rank[v] = i + 1;
        P->derived[i] = fix[v];
        uint64_t size = pn->sorts[pn->vars[v].sort].size;
        if (!fix[v])
            P->bound = P->bound > UINT64_MAX / size ? UINT64_MAX : P->bound * size;
    }
    /* each conjunct is checked right after its last variable is bound */
    for (uint32_t i = 0; i < nc; i++) {
        pos[i] = last_rank(cj[i], rank);
        P->cstart[pos[i] + 1]++;
    }
    for (uint32_t i = 1; i <= nvars + 1; i++)
        P->cstart[i] += P->cstart[i - 1];
    uint32_t *fillp = calloc(nvars + 2, sizeof *fillp);
    if (!fillp) {
        rc = fail_at(U, tr->line, "out of memory");
        goto out;
    }
    memcpy(fillp, P->cstart, (nvars + 1) * sizeof *fillp);
    for (uint32_t i = 0; i < nc; i++)
        P->conj[fillp[pos[i]]++] = cj[i];
    free(fillp);
out:
    free(used);
    free(placed);
    free(fix);
    free(cj);
    free(pos);
    free(rank);
    free(w.mark);
    free(w.todo);
    free(frames);
    if (rc < 0)
        plan_free(P);
    return rc;
}

/* ------------------------------------------------------------------ */
/* transitions */

static int add_arcs(unfolder *U, uint32_t t, uint32_t nt)
{
    const pc_net *pn = U->pn;
    for (uint32_t a = U->arc_start[t]; a < U->arc_start[t + 1]; a++) {
        const pc_arc *arc = &pn->arcs[U->arc_of[a]];
        if (multiset_value(U, arc->weight, U->val) < 0)
            return -1;
        for (size_t i = 0; i < U->ms.n; i++) {
            if (U->net->narcs >= PC_MAX_ARCS)
                return fail_at(U, arc->line,
                               "the unfolding has more than %u arcs (limit): refused",
                               PC_MAX_ARCS);
            uint32_t p = U->place_base[arc->place] + U->ms.e[i].color;
            int rc = nc_create_arc(U->net, arc->to_place ? NC_ARC_TP : NC_ARC_PT, p, nt,
                                   (nc_count)U->ms.e[i].count, 1);
            if (rc < 0)
                return fail_at(U, arc->line, "arc '%s': %s", arc->id, nc_status_text(rc));
        }
    }
    return 0;
}

static int emit(unfolder *U, uint32_t t, const plan *P)
{
    const pc_net *pn = U->pn;
    const pc_transition *tr = &pn->transitions[t];
    if (U->net->ntransitions >= PC_MAX_TRANSITIONS)
        return fail_at(U, tr->line,
                       "the unfolding has more than %u transitions (limit): refused",
                       PC_MAX_TRANSITIONS);
    char id[1024], name[1024], comment[1024], color[256];
    size_t li = 0, ln = 0, lc = 0;
    li = (size_t)snprintf(id, sizeof id, "%s", tr->id);
    ln = (size_t)snprintf(name, sizeof name, "%s", tr->name);
    comment[0] = '\0';
    for (uint32_t i = 0; i < P->nv; i++) {
        uint32_t v = P->names[i];
        pc_color_name(pn, pn->vars[v].sort, U->val[v], color, sizeof color);
        const char *pre = i ? "," : P->nv > 1 ? "_(" : "_";
        if (li < sizeof id)
            li += (size_t)snprintf(id + li, sizeof id - li, "%s%s", pre, color);
        if (ln < sizeof name)
            ln += (size_t)snprintf(name + ln, sizeof name - ln, "%s%s", pre, color);
        if (lc < sizeof comment)
            lc += (size_t)snprintf(comment + lc, sizeof comment - lc, "%s%s=%s", i ? " " : "",
                                   pn->vars[v].name, color);
    }
    if (P->nv > 1) {
        if (li < sizeof id)
            snprintf(id + li, sizeof id - li, ")");
        if (ln < sizeof name)
            snprintf(name + ln, sizeof name - ln, ")");
    }
    int rc = nc_create_transition(U->net, id, name);
    char alt[1100];
    for (unsigned k = 2; rc == NC_ERR_DUPLICATE_ID && k < 1000; k++) {
        snprintf(alt, sizeof alt, "%s#%u", id, k);
        rc = nc_create_transition(U->net, alt, name);
    }
    if (rc < 0)
        return fail_at(U, tr->line, "transition '%s': %s", id, nc_status_text(rc));
    uint32_t nt = (uint32_t)rc;
    if (P->nv && nc_set_comment(&U->net->transitions[nt].comment, comment) < 0)
        return fail_at(U, tr->line, "out of memory");
    if (GROW(U->group, U->cap_group, U->ngroup + 1) < 0)
        return fail_at(U, tr->line, "out of memory");
    U->group[U->ngroup++] = nt;
    return add_arcs(U, t, nt);
}

static int checks(const unfolder *U, const plan *P, uint32_t at)
{
    for (uint32_t c = P->cstart[at]; c < P->cstart[at + 1]; c++)
        if (!guard_value(U->pn, P->conj[c], U->val))
            return 0;
    return 1;
}

/* Binds every position in turn, an odometer over the variables: next[d]
 * is the next value to try at position d (a derived position has one).
 * A file decides how many variables a transition has, so this is a loop,
 * not a recursion.  The conjuncts checkable before position 0 hold. */
static int bind(unfolder *U, uint32_t t, const plan *P)
{
    uint32_t *next = U->next, d = 0;
    next[0] = 0;
    for (;;) {
        int more = 0;
        if (d == P->nv) {
            if (emit(U, t, P) < 0)
                return -1;
        } else {
            uint32_t v = P->order[d];
            if (P->derived[d]) {
                if (!next[d]) {
                    next[d] = 1;
                    U->val[v] = color_value(U->pn, P->derived[d], U->val);
                    more = 1;
                }
            } else if (next[d] < U->pn->sorts[U->pn->vars[v].sort].size) {
                if (budget_poll()) {
                    U->failed = 1;   /* the command says which limit */
                    return -1;
                }
                if (++U->tried > PC_MAX_BINDINGS)
                    return fail_at(U, U->pn->transitions[t].line,
                                   "unfolding tries more than %llu bindings (limit): refused",
                                   (unsigned long long)PC_MAX_BINDINGS);
                U->val[v] = next[d]++;
                more = 1;
            }
        }
        if (more) {
            /* a value at d: go deeper if the conjuncts it completes hold,
             * else try the next value at d */
            if (checks(U, P, d + 1))
                next[++d] = 0;
        } else {
            if (d == 0)
                return 0;
            d--;
        }
    }
}

static int unfold_transition(unfolder *U, uint32_t t, const plan *P)
{
    const pc_transition *tr = &U->pn->transitions[t];
    U->ngroup = 0;
    if (checks(U, P, 0) && bind(U, t, P) < 0)
        return -1;
    int rc = nc_add_group(U->net, 1, tr->id, U->group, (uint32_t)U->ngroup);
    return rc < 0 ? fail_at(U, tr->line, "transition '%s': %s", tr->id, nc_status_text(rc)) : 0;
}

/* ------------------------------------------------------------------ */
/* the net */

/* What the unfolding will cost, refused before anything is built when it
 * is over the limits: places are known exactly, transitions by the
 * bindings that would be tried. */
static int check_size(unfolder *U, const plan *plans)
{
    const pc_net *pn = U->pn;
    uint64_t places = 0, bindings = 0;
    for (size_t i = 0; i < pn->nplaces; i++)
        places += pn->sorts[pn->places[i].sort].size;
    /* the message points at the place that crosses the limit */
    uint64_t sum = 0;
    for (size_t i = 0; places > PC_MAX_PLACES && i < pn->nplaces; i++) {
        sum += pn->sorts[pn->places[i].sort].size;
        if (sum > PC_MAX_PLACES)
            return fail_at(U, pn->places[i].line,
                           "the unfolding would have %llu places (limit %u): refused",
                           (unsigned long long)places, PC_MAX_PLACES);
    }
    size_t worst = 0;
    for (size_t i = 0; i < pn->ntransitions; i++) {
        bindings = bindings > UINT64_MAX - plans[i].bound ? UINT64_MAX
                                                          : bindings + plans[i].bound;
        if (plans[i].bound > plans[worst].bound)
            worst = i;
    }
    if (bindings > PC_MAX_BINDINGS)
        return fail_at(U, pn->transitions[worst].line,
                       "the unfolding would try up to %llu bindings, %llu of them for "
                       "transition '%s' (limit %llu): refused",
                       (unsigned long long)bindings, (unsigned long long)plans[worst].bound,
                       pn->transitions[worst].id, (unsigned long long)PC_MAX_BINDINGS);
    return 0;
}

static int arcs_by_transition(unfolder *U)
{
    const pc_net *pn = U->pn;
    U->arc_start = calloc(pn->ntransitions + 1, sizeof *U->arc_start);
    U->arc_of = malloc((pn->narcs + 1) * sizeof *U->arc_of);
    if (!U->arc_start || !U->arc_of)
        return fail_at(U, 0, "out of memory");
    for (size_t a = 0; a < pn->narcs; a++)
        U->arc_start[pn->arcs[a].transition + 1]++;
    for (size_t t = 0; t < pn->ntransitions; t++)
        U->arc_start[t + 1] += U->arc_start[t];
    uint32_t *fill = malloc((pn->ntransitions + 1) * sizeof *fill);
    if (!fill)
        return fail_at(U, 0, "out of memory");
    memcpy(fill, U->arc_start, (pn->ntransitions + 1) * sizeof *fill);
    for (size_t a = 0; a < pn->narcs; a++)
        U->arc_of[fill[pn->arcs[a].transition]++] = (uint32_t)a;
    free(fill);
    return 0;
}

net_t *pc_unfold(const pc_net *pn)
{
    unfolder U;
    memset(&U, 0, sizeof U);
    U.pn = pn;
    plan *plans = calloc(pn->ntransitions + 1, sizeof *plans);
    U.place_base = calloc(pn->nplaces + 1, sizeof *U.place_base);
    U.val = calloc(pn->nvars + 1, sizeof *U.val);
    U.next = calloc(pn->nvars + 1, sizeof *U.next);
    if (!plans || !U.place_base || !U.val || !U.next)
        fail_at(&U, 0, "out of memory");
    if (!U.failed)
        arcs_by_transition(&U);
    for (size_t t = 0; !U.failed && t < pn->ntransitions; t++)
        make_plan(&U, (uint32_t)t, &plans[t]);
    if (!U.failed)
        check_size(&U, plans);
    if (!U.failed && !(U.net = nc_create_net(pn->name, pn->file)))
        fail_at(&U, 0, "out of memory");
    for (size_t p = 0; !U.failed && p < pn->nplaces; p++)
        unfold_place(&U, (uint32_t)p);
    for (size_t t = 0; !U.failed && t < pn->ntransitions; t++)
        unfold_transition(&U, (uint32_t)t, &plans[t]);
    for (size_t t = 0; plans && t < pn->ntransitions; t++)
        plan_free(&plans[t]);
    free(plans);
    free(U.place_base);
    free(U.val);
    free(U.next);
    free(U.odo);
    free(U.arc_start);
    free(U.arc_of);
    free(U.group);
    free(U.ms.e);
    if (U.failed) {
        nc_free_net(U.net);
        return NULL;
    }
    U.net->colored.unfolded = 1;
    U.net->colored.places = pn->nplaces;
    U.net->colored.transitions = pn->ntransitions;
    U.net->colored.arcs = pn->narcs;
    return U.net;
}

net_t *pn_read_colored(const char *path)
{
    pc_net *pn = pc_read(path);
    if (!pn)
        return NULL;
    budget_stage("unfolding");
    net_t *net = pc_unfold(pn);
    pc_free(pn);
    if (net)
        net->language = "pnml";
    return net;
}
