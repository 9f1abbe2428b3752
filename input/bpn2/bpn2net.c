/* The safe net of a B(PN)² program, as bpn2-format.md §3 defines it.
 *
 * Control: every command has an entry and an exit interface, sets of
 * control places.  An action gets one fresh place on each side; A || B
 * unites the interfaces of its parts; A ; B identifies A's exit with B's
 * entry, and A [] B the entries (and the exits) of its parts.  Identifying
 * two sets of places is the Petri-box product: each pair (s, t) becomes one
 * place that every arc of s or of t now uses, which gives joins and forks
 * without silent transitions.  Since a place may be replaced again later,
 * interfaces hold handles, and handles are resolved to places at the end.
 *
 * Values: one place x=v per value (CFA's layout idea, cfa-format.md §5),
 * channel slots c[i]=empty / c[i]=v, and one net transition per satisfying
 * assignment of an action, found with CFA's evaluator. */
#include "base/grow.h"
#include "base/readfile.h"
#include "input/bpn2/bpn2.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef struct hvec {
    uint32_t *v;
    size_t n, cap;
} hvec;

typedef struct handle {
    hvec repl;          /* the places that replaced it; empty: it is a place */
    uint32_t place;     /* net place, once created */
} handle;

typedef struct builder {
    bp_program *g;
    net_t *net;
    handle *h;
    size_t nh, cap_h;
    /* resolution scratch: a mark per handle */
    uint32_t *mark, epoch;
    size_t cap_mark;
    hvec stack, out;
    int failed;
    /* expansion */
    int64_t *pre, *post;
    cfa_value *eval_stack;   /* room for evaluating any action */
    uint64_t ncreated;
    uint64_t work;           /* operators and operands evaluated so far */
} builder;

static int fail(builder *b, long line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail(builder *b, long line, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!b->failed)
        nc_error(b->g->file, line, "%s", msg);
    b->failed = 1;
    return -1;
}

static int hv_push(builder *b, hvec *v, uint32_t x)
{
    if (GROW(v->v, v->cap, v->n + 1) < 0)
        return fail(b, 0, "out of memory");
    v->v[v->n++] = x;
    return 0;
}

static int64_t new_handle(builder *b)
{
    if (b->nh >= BPN2_MAX_PLACES)
        return fail(b, 0, "the program needs more than %u control places", BPN2_MAX_PLACES);
    if (GROW(b->h, b->cap_h, b->nh + 1) < 0 || GROW(b->mark, b->cap_mark, b->nh + 1) < 0)
        return fail(b, 0, "out of memory");
    memset(&b->h[b->nh], 0, sizeof *b->h);
    b->mark[b->nh] = 0;
    return (int64_t)b->nh++;
}

/* The current places (leaf handles) of an interface, each once, into
 * b->out; an explicit stack, as chains of replacements can be long. */
static int resolve(builder *b, const uint32_t *hs, size_t n)
{
    b->out.n = b->stack.n = 0;
    b->epoch++;
    for (size_t i = 0; i < n; i++)
        if (hv_push(b, &b->stack, hs[i]) < 0)
            return -1;
    while (b->stack.n) {
        uint32_t x = b->stack.v[--b->stack.n];
        if (b->mark[x] == b->epoch)
            continue;
        b->mark[x] = b->epoch;
        const hvec *r = &b->h[x].repl;
        if (!r->n && hv_push(b, &b->out, x) < 0)
            return -1;
        for (size_t i = 0; i < r->n; i++)
            if (hv_push(b, &b->stack, r->v[i]) < 0)
                return -1;
    }
    return 0;
}

static int copy_out(builder *b, hvec *to)
{
    to->n = 0;
    for (size_t i = 0; i < b->out.n; i++)
        if (hv_push(b, to, b->out.v[i]) < 0)
            return -1;
    return 0;
}

/* Identifies the places of s with those of t: each pair becomes one place.
 * With join, an empty s (a command that never ends) makes t unreachable:
 * t's places become a fresh place that is never marked.  Without join (the
 * alternatives of a choice), an empty side is simply left out. */
static int identify(builder *b, const hvec *s, const hvec *t, int join)
{
    hvec rs = {0}, rt = {0};
    int rc = resolve(b, s->v, s->n) < 0 || copy_out(b, &rs) < 0 ||
             resolve(b, t->v, t->n) < 0 || copy_out(b, &rt) < 0 ? -1 : 0;
    if (rc == 0 && rs.n == 0 && join) {
        int64_t dead = new_handle(b);
        for (size_t j = 0; dead >= 0 && rc == 0 && j < rt.n; j++)
            rc = hv_push(b, &b->h[rt.v[j]].repl, (uint32_t)dead);
        rc = dead < 0 ? -1 : rc;
    } else if (rc == 0 && rs.n && rt.n) {
        for (size_t i = 0; rc == 0 && i < rs.n; i++)
            for (size_t j = 0; rc == 0 && j < rt.n; j++) {
                int64_t n = new_handle(b);
                rc = n < 0 || hv_push(b, &b->h[rs.v[i]].repl, (uint32_t)n) < 0 ||
                     hv_push(b, &b->h[rt.v[j]].repl, (uint32_t)n) < 0 ? -1 : 0;
            }
    }
    free(rs.v);
    free(rt.v);
    return rc;
}

static int append(builder *b, hvec *to, const hvec *from)
{
    for (size_t i = 0; i < from->n; i++)
        if (hv_push(b, to, from->v[i]) < 0)
            return -1;
    return 0;
}

static size_t resolved_count(builder *b, const hvec *s)
{
    return resolve(b, s->v, s->n) < 0 ? 0 : b->out.n;
}

/* Whether c begins with a loop: then its entry place is that loop's head,
 * which the loop enters again after every round. */
static const bp_com *starts_loop(const bp_com *c)
{
    if (c->kind == BC_LOOP)
        return c;
    if (c->kind == BC_ACTION)
        return NULL;
    for (size_t i = 0; i < (c->kind == BC_SEQ ? 1 : c->nkids); i++) {
        const bp_com *l = starts_loop(c->kids[i]);
        if (l)
            return l;
    }
    return NULL;
}

/* Entry and exit interfaces of c (fresh vectors owned by the caller);
 * path names the parallel branch, "0" outside any. */
static int build(builder *b, bp_com *c, const char *path, hvec *entry, hvec *exit)
{
    memset(entry, 0, sizeof *entry);
    memset(exit, 0, sizeof *exit);
    if (c->kind == BC_ACTION) {
        bp_action *a = &b->g->actions[c->action];
        int64_t e = new_handle(b), x = e >= 0 ? new_handle(b) : -1;
        if (x < 0 || hv_push(b, entry, (uint32_t)e) < 0 || hv_push(b, exit, (uint32_t)x) < 0)
            return -1;
        a->branch = strdup(path);
        a->entry = malloc(sizeof *a->entry);
        a->exit = malloc(sizeof *a->exit);
        if (!a->branch || !a->entry || !a->exit)
            return fail(b, c->line, "out of memory");
        a->entry[0] = (uint32_t)e;
        a->exit[0] = (uint32_t)x;
        a->nentry = a->nexit = 1;
        return 0;
    }
    int rc = 0, never = 0;
    hvec head = {0};
    /* Alternatives share their entry places.  An alternative that begins
     * with a loop would share the loop's head, and every round of that
     * loop would offer the other alternatives again: without a silent step
     * the net would run differently from the program. */
    for (size_t i = 0; (c->kind == BC_CHOICE || c->kind == BC_LOOP) && i < c->nkids; i++) {
        const bp_com *l = starts_loop(c->kids[i]);
        if (l)
            return fail(b, l->line, "a loop at the start of %s needs a silent step: not "
                        "supported in mck's B(PN)² fragment (put an action such as <true> "
                        "before the inner loop)", c->kind == BC_CHOICE
                        ? "an alternative of a choice" : "a loop clause");
    }
    for (size_t i = 0; rc == 0 && i < c->nkids; i++) {
        char *sub = NULL;
        if (c->kind == BC_PAR) {
            sub = malloc(strlen(path) + 24);
            if (!sub)
                return fail(b, c->line, "out of memory");
            if (!strcmp(path, "0"))
                sprintf(sub, "%zu", i + 1);
            else
                sprintf(sub, "%s.%zu", path, i + 1);
        }
        hvec ke, kx;
        rc = build(b, c->kids[i], sub ? sub : path, &ke, &kx);
        free(sub);
        if (rc == 0) {
            switch (c->kind) {
            case BC_SEQ:
                if (i == 0)
                    rc = append(b, entry, &ke);
                else
                    rc = identify(b, exit, &ke, 1);
                exit->n = 0;
                rc = rc < 0 ? rc : append(b, exit, &kx);
                break;
            case BC_CHOICE:
                if (i == 0)
                    rc = append(b, entry, &ke) < 0 || append(b, exit, &kx) < 0 ? -1 : 0;
                else if ((rc = identify(b, entry, &ke, 0)) == 0) {
                    if (resolved_count(b, exit) == 0) {
                        exit->n = 0;
                        rc = append(b, exit, &kx);
                    } else {
                        rc = identify(b, exit, &kx, 0);
                    }
                }
                break;
            case BC_PAR:
                rc = append(b, entry, &ke) < 0 || append(b, exit, &kx) < 0 ? -1 : 0;
                if (rc == 0 && resolved_count(b, &kx) == 0)
                    never = 1;
                break;
            case BC_LOOP:
                if (i == 0)
                    rc = append(b, entry, &ke);
                else
                    rc = identify(b, entry, &ke, 0);
                /* the clause's exit, kept until every clause is in */
                if (rc == 0 && c->repeat[i]) {
                    rc = append(b, &head, &kx);
                    if (rc == 0)
                        rc = hv_push(b, &head, UINT32_MAX);   /* separator */
                } else if (rc == 0) {
                    if (resolved_count(b, exit) == 0) {
                        exit->n = 0;
                        rc = append(b, exit, &kx);
                    } else {
                        rc = identify(b, exit, &kx, 0);
                    }
                }
                break;
            default:
                break;
            }
        }
        free(ke.v);
        free(kx.v);
    }
    /* A || B ends when every branch has ended: one that never ends makes
     * the whole never end. */
    if (never)
        exit->n = 0;
    /* repeat clauses lead back to the loop head */
    if (rc == 0 && c->kind == BC_LOOP) {
        size_t start = 0;
        size_t nentry = resolved_count(b, entry);
        for (size_t i = 0; rc == 0 && i < head.n; i++) {
            if (head.v[i] != UINT32_MAX)
                continue;
            hvec clause = {head.v + start, i - start, 0};
            size_t nclause = resolved_count(b, &clause);
            if (nclause == 0)
                ;   /* the clause never ends: nothing leads back */
            else if (nentry > 1 && nclause > 1)
                rc = fail(b, c->line, "a loop clause that starts and ends with a parallel "
                          "composition needs a silent step: not supported in mck's B(PN)² "
                          "fragment (end the clause with an action such as <true>)");
            else
                rc = identify(b, &clause, entry, 1);
            start = i + 1;
        }
    }
    free(head.v);
    return rc;
}

/* ------------------------------------------------------------------ */
/* places */

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
    uint64_t r;
    return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a + b < a ? UINT64_MAX : a + b;
}

static uint64_t range_size(const bp_decl *d)
{
    return (uint64_t)d->hi - (uint64_t)d->lo + 1;   /* at most BP_MAX_RANGE: bpn2parse.c */
}

static uint32_t value_place(const bp_decl *d, int64_t v)
{
    return d->first_place + (uint32_t)((uint64_t)v - (uint64_t)d->lo);
}

/* channels: slot i's "empty" place, then its value places */
static uint32_t slot_empty(const bp_decl *d, uint32_t i)
{
    return d->first_place + i * (uint32_t)(range_size(d) + 1);
}

static uint32_t slot_value(const bp_decl *d, uint32_t i, int64_t v)
{
    return slot_empty(d, i) + 1 + (uint32_t)((uint64_t)v - (uint64_t)d->lo);
}

static int place(builder *b, const char *name, nc_count initial)
{
    int k = nc_create_place(b->net, name, NULL, initial);
    if (k < 0)
        return fail(b, 0, "place %s: %s", name, nc_status_text(k));
    return k;
}

static int value_places(builder *b)
{
    uint64_t total = 0;
    for (size_t i = 0; i < b->g->ndecls; i++) {
        const bp_decl *d = &b->g->decls[i];
        total += d->is_chan ? (uint64_t)d->capacity * (range_size(d) + 1)
                            : range_size(d) + !d->has_init;
        if (total > BPN2_MAX_PLACES)
            return fail(b, d->line, "the program needs more than %u places (at %s)",
                        BPN2_MAX_PLACES, d->name);
    }
    char name[600];
    for (size_t i = 0; i < b->g->ndecls; i++) {
        bp_decl *d = &b->g->decls[i];
        d->first_place = (uint32_t)b->net->nplaces;
        const char *x = d->display;
        int k = 0;
        for (uint32_t s = 0; d->is_chan && k >= 0 && s < d->capacity; s++) {
            if (d->capacity == 1)
                snprintf(name, sizeof name, "%.500s=empty", x);
            else
                snprintf(name, sizeof name, "%.500s[%u]=empty", x, s + 1);
            k = place(b, name, 1);
            for (int64_t v = d->lo; k >= 0 && v <= d->hi; v++) {
                if (d->capacity == 1)
                    snprintf(name, sizeof name, "%.500s=%" PRId64, x, v);
                else
                    snprintf(name, sizeof name, "%.500s[%u]=%" PRId64, x, s + 1, v);
                k = place(b, name, 0);
            }
        }
        for (int64_t v = d->lo; !d->is_chan && k >= 0 && v <= d->hi; v++) {
            snprintf(name, sizeof name, "%.500s=%" PRId64, x, v);
            k = place(b, name, d->has_init && v == d->init);
        }
        if (!d->is_chan && !d->has_init && k >= 0) {
            snprintf(name, sizeof name, "%.500s.init", x);
            k = place(b, name, 1);
            d->init_place = (uint32_t)k;
        }
        if (k < 0)
            return -1;
    }
    b->g->nplaces_program = b->net->nplaces;
    return 0;
}

/* One place per handle that nothing replaced, in creation order. */
static int control_places(builder *b, const hvec *entry)
{
    char name[32];
    for (size_t i = 0; i < b->nh; i++) {
        if (b->h[i].repl.n)
            continue;
        snprintf(name, sizeof name, "ctl%zu", b->g->ncontrol++);
        int k = place(b, name, 0);
        if (k < 0)
            return -1;
        b->h[i].place = (uint32_t)k;
    }
    if (resolve(b, entry->v, entry->n) < 0)
        return -1;
    for (size_t i = 0; i < b->out.n; i++)
        b->net->places[b->h[b->out.v[i]].place].initial = 1;
    return 0;
}

/* ------------------------------------------------------------------ */
/* transitions */

typedef struct arcs {
    struct { nc_arc_kind kind; uint32_t place; } *v;
    size_t n, cap;
} arcs;

static int arc(builder *b, arcs *a, nc_arc_kind kind, uint32_t p)
{
    if (GROW(a->v, a->cap, a->n + 1) < 0)
        return fail(b, 0, "out of memory");
    a->v[a->n].kind = kind;
    a->v[a->n].place = p;
    a->n++;
    return 0;
}

static int record(builder *b, bp_trans_kind kind, uint32_t x, uint32_t y)
{
    bp_program *g = b->g;
    if (GROW(g->trans, g->cap_trans, g->ntrans + 1) < 0)
        return fail(b, 0, "out of memory");
    g->trans[g->ntrans++] = (bp_trans){kind, x, y};
    return 0;
}

static int transition(builder *b, const char *id, const arcs *a, bp_trans_kind kind,
                      uint32_t x, uint32_t y, long line)
{
    if (++b->ncreated > BPN2_MAX_TRANSITIONS)
        return fail(b, line, "the program needs more than %u net transitions",
                    BPN2_MAX_TRANSITIONS);
    if (b->net->narcs + a->n > BPN2_MAX_ARCS)
        return fail(b, line, "the program needs more than %u arcs", BPN2_MAX_ARCS);
    int t = nc_create_transition(b->net, id, NULL);
    if (t < 0)
        return fail(b, line, "transition %s: %s", id, nc_status_text(t));
    for (size_t i = 0; i < a->n; i++) {
        int rc = nc_create_arc(b->net, a->v[i].kind, a->v[i].place, (uint32_t)t, 1, 1);
        if (rc < 0)
            return fail(b, line, "transition %s: %s", id, nc_status_text(rc));
    }
    return record(b, kind, x, y);
}

static int init_transitions(builder *b)
{
    char id[600];
    arcs a = {0};
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < b->g->ndecls; i++) {
        const bp_decl *d = &b->g->decls[i];
        for (int64_t v = d->lo; !d->is_chan && !d->has_init && rc == 0 && v <= d->hi; v++) {
            a.n = 0;
            snprintf(id, sizeof id, "init.%.500s=%" PRId64, d->display, v);
            rc = arc(b, &a, NC_ARC_PT, d->init_place) < 0 ||
                 arc(b, &a, NC_ARC_TP, value_place(d, v)) < 0 ||
                 transition(b, id, &a, BT_INIT, (uint32_t)i, 0, d->line) < 0 ? -1 : 0;
        }
    }
    free(a.v);
    return rc;
}

/* What one expansion works on: the actions, their variables, their
 * channel operations. */
typedef struct job {
    const bp_action *act[2];
    size_t nact;
    uint32_t index[2];
    uint32_t *vars;          /* variables mentioned, declaration order */
    unsigned *uses;          /* per declaration */
    size_t nvars;
    int32_t send, recv, sync;   /* buffered channels; the handshake channel */
    arcs ctl;                /* control arcs of the actions */
    unsigned long count;
    char prefix[64];
    long line;
} job;

static int emit(builder *b, job *j, arcs *a)
{
    char id[96];
    snprintf(id, sizeof id, "%s.%lu", j->prefix, ++j->count);
    return transition(b, id, a, j->nact == 2 ? BT_SYNC : BT_ACTION, j->index[0],
                      j->nact == 2 ? j->index[1] : 0, j->line);
}

/* Receiving v from buffered channel c holding l values (slot 0 is the
 * front): take every slot, give slots 0..l-2 the values of 1..l-1 back,
 * leave l-1 empty; an empty slot l is only tested.  Contents of slots
 * 1..l-1 are enumerated from slot `from` on. */
static int recv_patterns(builder *b, job *j, arcs *a, const bp_decl *c, int64_t v, uint32_t l,
                         uint32_t from)
{
    if (from < l) {
        for (int64_t w = c->lo; w <= c->hi; w++) {
            size_t mark = a->n;
            if (arc(b, a, NC_ARC_PT, slot_value(c, from, w)) < 0 ||
                arc(b, a, NC_ARC_TP, slot_value(c, from - 1, w)) < 0 ||
                recv_patterns(b, j, a, c, v, l, from + 1) < 0)
                return -1;
            a->n = mark;
        }
        return 0;
    }
    size_t mark = a->n;
    int rc = arc(b, a, NC_ARC_PT, slot_value(c, 0, v)) < 0 ||
             arc(b, a, NC_ARC_TP, slot_empty(c, l - 1)) < 0 ||
             (l < c->capacity && (arc(b, a, NC_ARC_PT, slot_empty(c, l)) < 0 ||
                                  arc(b, a, NC_ARC_TP, slot_empty(c, l)) < 0)) ||
             emit(b, j, a) < 0 ? -1 : 0;
    a->n = mark;
    return rc;
}

static int recv_all(builder *b, job *j, arcs *a)
{
    if (j->recv < 0)
        return emit(b, j, a);
    const bp_decl *c = &b->g->decls[j->recv];
    for (uint32_t l = 1; l <= c->capacity; l++)
        if (recv_patterns(b, j, a, c, b->pre[j->recv], l, 1) < 0)
            return -1;
    return 0;
}

/* Sending v on buffered channel c: into the first empty slot, the one
 * whose predecessor holds a value (tested, with each value it may hold). */
static int send_all(builder *b, job *j, arcs *a)
{
    if (j->send < 0)
        return recv_all(b, j, a);
    const bp_decl *c = &b->g->decls[j->send];
    int64_t v = b->post[j->send];
    for (uint32_t i = 0; i < c->capacity; i++) {
        for (int64_t u = c->lo; u <= (i ? c->hi : c->lo); u++) {
            size_t mark = a->n;
            if (arc(b, a, NC_ARC_PT, slot_empty(c, i)) < 0 ||
                arc(b, a, NC_ARC_TP, slot_value(c, i, v)) < 0 ||
                (i && (arc(b, a, NC_ARC_PT, slot_value(c, i - 1, u)) < 0 ||
                       arc(b, a, NC_ARC_TP, slot_value(c, i - 1, u)) < 0)) ||
                recv_all(b, j, a) < 0)
                return -1;
            a->n = mark;
        }
    }
    return 0;
}

/* One satisfying assignment: control, variable and channel arcs. */
static int satisfied_step(builder *b, job *j)
{
    arcs a = {0};
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < j->ctl.n; i++)
        rc = arc(b, &a, j->ctl.v[i].kind, j->ctl.v[i].place);
    for (size_t i = 0; rc == 0 && i < j->nvars; i++) {
        const bp_decl *d = &b->g->decls[j->vars[i]];
        rc = arc(b, &a, NC_ARC_PT, value_place(d, b->pre[j->vars[i]])) < 0 ||
             arc(b, &a, NC_ARC_TP, value_place(d, b->post[j->vars[i]])) < 0 ? -1 : 0;
    }
    if (rc == 0)
        rc = send_all(b, j, &a);
    free(a.v);
    return rc;
}

/* Every assignment of the job's values, in declaration order, each value
 * ascending; each one that satisfies every action is a step. */
static int enumerate(builder *b, job *j)
{
    enum { D_PRE, D_POST, D_RECV, D_SEND, D_SYNC };
    size_t ndims = 0;
    struct { uint32_t decl; int which; } dims[2 * 64 + 8], *dim = dims;
    size_t cap = sizeof dims / sizeof *dims;
    void *heap = NULL;
    if (2 * j->nvars + 3 > cap) {
        heap = malloc((2 * j->nvars + 3) * sizeof *dims);
        if (!heap)
            return fail(b, j->line, "out of memory");
        dim = heap;
    }
    for (size_t i = 0; i < j->nvars; i++) {
        dim[ndims].decl = j->vars[i];
        dim[ndims++].which = D_PRE;
        if (j->uses[j->vars[i]] & 4u) {
            dim[ndims].decl = j->vars[i];
            dim[ndims++].which = D_POST;
        }
    }
    if (j->recv >= 0) {
        dim[ndims].decl = (uint32_t)j->recv;
        dim[ndims++].which = D_RECV;
    }
    if (j->send >= 0) {
        dim[ndims].decl = (uint32_t)j->send;
        dim[ndims++].which = D_SEND;
    }
    if (j->sync >= 0) {
        dim[ndims].decl = (uint32_t)j->sync;
        dim[ndims++].which = D_SYNC;
    }
    uint64_t total = 1;
    for (size_t i = 0; i < ndims; i++) {
        uint64_t r = range_size(&b->g->decls[dim[i].decl]);
        total = total > UINT64_MAX / r ? UINT64_MAX : total * r;
    }
    if (total > BPN2_MAX_ASSIGNMENTS) {
        free(heap);
        return fail(b, j->line, "action <%s> at line %ld: %s%" PRIu64 " assignments to try, "
                    "more than %u", j->act[0]->text, j->act[0]->line,
                    total == UINT64_MAX ? "over " : "", total, BPN2_MAX_ASSIGNMENTS);
    }
    uint64_t instrs = 0;
    for (size_t k = 0; k < j->nact; k++)
        instrs += j->act[k]->code.n;
    b->work = sat_add(b->work, sat_mul(total, instrs));
    if (b->work > BPN2_MAX_WORK) {
        free(heap);
        return fail(b, j->line, "action <%.200s> at line %ld: evaluating its %" PRIu64
                    " operators and operands under each of %" PRIu64 " assignments makes %"
                    PRIu64 " evaluations so far in the program (limit %llu); shorten it or "
                    "narrow the ranges it touches", j->act[0]->text, j->act[0]->line, instrs,
                    total, b->work, (unsigned long long)BPN2_MAX_WORK);
    }
    /* Each assignment becomes one transition per position in the buffers
     * (send: each slot, receive: each length and contents behind the
     * front); bounded before anything is built, so that a long channel of
     * a wide range is refused at once instead of after millions of steps. */
    uint64_t per = 1;
    if (j->send >= 0) {
        const bp_decl *c = &b->g->decls[j->send];
        per = sat_mul(per, 1 + (uint64_t)(c->capacity - 1) * range_size(c));
    }
    if (j->recv >= 0) {
        const bp_decl *c = &b->g->decls[j->recv];
        uint64_t sum = 0, pow = 1;
        for (uint32_t l = 1; l <= c->capacity && sum < UINT64_MAX; l++) {
            sum = sum + pow < sum ? UINT64_MAX : sum + pow;
            pow = sat_mul(pow, range_size(c));
        }
        per = sat_mul(per, sum);
    }
    if (sat_mul(total, per) > BPN2_MAX_TRANSITIONS) {
        free(heap);
        return fail(b, j->line, "action <%s> at line %ld may need more than %u net "
                    "transitions (values times positions in the channel)", j->act[0]->text,
                    j->act[0]->line, BPN2_MAX_TRANSITIONS);
    }
    for (size_t i = 0; i < ndims; i++) {
        const bp_decl *d = &b->g->decls[dim[i].decl];
        b->pre[dim[i].decl] = b->post[dim[i].decl] = d->lo;
    }
    int rc = 0;
    for (;;) {
        for (size_t i = 0; i < j->nvars; i++)
            if (!(j->uses[j->vars[i]] & 4u))
                b->post[j->vars[i]] = b->pre[j->vars[i]];
        int ok = 1;
        for (size_t k = 0; ok && k < j->nact; k++) {
            cfa_value v;
            int e = cfa_eval(&j->act[k]->code, b->pre, b->post, b->eval_stack, &v);
            if (e == CFA_EVAL_OVERFLOW) {
                rc = fail(b, j->act[k]->line, "action <%s>: arithmetic beyond 128 bits",
                          j->act[k]->text);
                break;
            }
            ok = e == CFA_EVAL_OK && v != 0;
        }
        if (rc < 0 || (ok && (rc = satisfied_step(b, j)) < 0))
            break;
        /* the odometer: the last dimension turns fastest */
        size_t i = ndims;
        while (i > 0) {
            const bp_decl *d = &b->g->decls[dim[i - 1].decl];
            int64_t *slot = dim[i - 1].which == D_POST || dim[i - 1].which == D_SEND
                            ? &b->post[dim[i - 1].decl] : &b->pre[dim[i - 1].decl];
            if (*slot < d->hi) {
                ++*slot;
                if (dim[i - 1].which == D_SYNC)
                    b->post[dim[i - 1].decl] = *slot;
                break;
            }
            *slot = d->lo;
            if (dim[i - 1].which == D_SYNC)
                b->post[dim[i - 1].decl] = d->lo;
            i--;
        }
        if (i == 0)
            break;
    }
    free(heap);
    return rc;
}

static int control_arcs(builder *b, job *j, const bp_action *a)
{
    if (resolve(b, a->entry, a->nentry) < 0)
        return -1;
    for (size_t i = 0; i < b->out.n; i++)
        if (arc(b, &j->ctl, NC_ARC_PT, b->h[b->out.v[i]].place) < 0)
            return -1;
    if (resolve(b, a->exit, a->nexit) < 0)
        return -1;
    for (size_t i = 0; i < b->out.n; i++)
        if (arc(b, &j->ctl, NC_ARC_TP, b->h[b->out.v[i]].place) < 0)
            return -1;
    return 0;
}

static int is_sync(const bp_program *g, int32_t c)
{
    return c >= 0 && g->decls[c].capacity == 0;
}

/* The transitions of one action (a2 < 0), or of a handshake between the
 * sender a1 and the receiver a2 over a synchronous channel. */
static int expand(builder *b, uint32_t a1, int64_t a2)
{
    bp_program *g = b->g;
    job j;
    memset(&j, 0, sizeof j);
    j.act[0] = &g->actions[a1];
    j.index[0] = a1;
    j.nact = 1;
    j.line = j.act[0]->line;
    j.send = j.recv = j.sync = -1;
    snprintf(j.prefix, sizeof j.prefix, "a%u", a1 + 1);
    if (a2 >= 0) {
        j.act[1] = &g->actions[a2];
        j.index[1] = (uint32_t)a2;
        j.nact = 2;
        j.sync = j.act[0]->send;
        snprintf(j.prefix, sizeof j.prefix, "a%u+a%u", a1 + 1, (unsigned)a2 + 1);
    }
    j.uses = calloc(g->ndecls + 1, sizeof *j.uses);
    j.vars = calloc(g->ndecls + 1, sizeof *j.vars);
    unsigned *other = a2 >= 0 ? calloc(g->ndecls + 1, sizeof *other) : NULL;
    int rc = j.uses && j.vars && (a2 < 0 || other) ? 0 : fail(b, j.line, "out of memory");
    if (rc == 0) {
        /* bits 1 plain, 2 pre, 4 post, as CFA_USE_* */
        cfa_code_uses(&j.act[0]->code, j.uses);
        if (a2 >= 0)
            cfa_code_uses(&j.act[1]->code, other);
    }
    for (size_t d = 0; rc == 0 && d < g->ndecls; d++) {
        if (other && (j.uses[d] && other[d]) && !g->decls[d].is_chan)
            rc = fail(b, j.act[1]->line, "the handshake of line %ld with line %ld: both use "
                      "%s: not supported in mck's B(PN)² fragment", j.act[0]->line,
                      j.act[1]->line, g->decls[d].name);
        if (other)
            j.uses[d] |= other[d];
        if (!g->decls[d].is_chan && j.uses[d])
            j.vars[j.nvars++] = (uint32_t)d;
    }
    for (size_t k = 0; rc == 0 && k < j.nact; k++) {
        const bp_action *a = j.act[k];
        if (!is_sync(g, a->send) && a->send >= 0) {
            if (j.send >= 0)
                rc = fail(b, a->line, "a handshake whose actions both send: not supported "
                          "in mck's B(PN)² fragment");
            j.send = a->send;
        }
        if (rc == 0 && !is_sync(g, a->recv) && a->recv >= 0) {
            if (j.recv >= 0)
                rc = fail(b, a->line, "a handshake whose actions both receive: not supported "
                          "in mck's B(PN)² fragment");
            j.recv = a->recv;
        }
        if (rc == 0)
            rc = control_arcs(b, &j, a);
    }
    if (rc == 0)
        rc = enumerate(b, &j);
    free(other);
    free(j.uses);
    free(j.vars);
    free(j.ctl.v);
    return rc;
}

static int action_transitions(builder *b)
{
    bp_program *g = b->g;
    for (size_t i = 0; i < g->nactions; i++) {
        const bp_action *a = &g->actions[i];
        if (is_sync(g, a->send) && is_sync(g, a->recv))
            return fail(b, a->line, "an action with ends of two synchronous channels: not "
                        "supported in mck's B(PN)² fragment (a handshake joins two actions, "
                        "each with one end)");
        if (!is_sync(g, a->send) && !is_sync(g, a->recv) && expand(b, (uint32_t)i, -1) < 0)
            return -1;
    }
    /* handshakes: every sender with every receiver of the same channel */
    for (size_t i = 0; i < g->nactions; i++) {
        if (!is_sync(g, g->actions[i].send))
            continue;
        for (size_t k = 0; k < g->nactions; k++)
            if (k != i && g->actions[k].recv == g->actions[i].send &&
                expand(b, (uint32_t)i, (int64_t)k) < 0)
                return -1;
    }
    return 0;
}

/* A program whose every branch has ended is terminated, not deadlocked
 * (§3): one transition that tests the exit places keeps that marking from
 * being dead, without changing any marking. */
static int terminate(builder *b, const hvec *exit)
{
    if (resolve(b, exit->v, exit->n) < 0)
        return -1;
    if (!b->out.n)
        return 0;
    arcs a = {0};
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < b->out.n; i++)
        rc = arc(b, &a, NC_ARC_PT, b->h[b->out.v[i]].place) < 0 ||
             arc(b, &a, NC_ARC_TP, b->h[b->out.v[i]].place) < 0 ? -1 : 0;
    if (rc == 0)
        rc = transition(b, "terminated", &a, BT_TERMINATE, 0, 0, 0);
    free(a.v);
    return rc;
}

static int entry_places(builder *b)
{
    for (size_t i = 0; i < b->g->nactions; i++) {
        bp_action *a = &b->g->actions[i];
        if (resolve(b, a->entry, a->nentry) < 0)
            return -1;
        a->entry_places = malloc((b->out.n + 1) * sizeof *a->entry_places);
        if (!a->entry_places)
            return fail(b, a->line, "out of memory");
        for (size_t k = 0; k < b->out.n; k++)
            a->entry_places[k] = b->h[b->out.v[k]].place;
        a->nentry_places = b->out.n;
    }
    return 0;
}

static void free_program(void *g)
{
    bp_program_free(g);
}

net_t *bp_build_net(bp_program *g)
{
    builder b = {.g = g};
    char *name = path_stem(g->file);
    b.net = name ? nc_create_net(name, g->file) : NULL;
    free(name);
    b.pre = calloc(g->ndecls + 1, sizeof *b.pre);
    b.post = calloc(g->ndecls + 1, sizeof *b.post);
    size_t stack = 1;
    for (size_t i = 0; i < g->nactions; i++)
        if (g->actions[i].code.stack > stack)
            stack = g->actions[i].code.stack;
    b.eval_stack = malloc(stack * sizeof *b.eval_stack);
    if (!b.net || !b.pre || !b.post || !b.eval_stack) {
        nc_error(g->file, 0, "out of memory");
        nc_free_net(b.net);
        bp_program_free(g);
        free(b.pre);
        free(b.post);
        free(b.eval_stack);
        return NULL;
    }
    b.net->lang_data = g;
    b.net->lang_free = free_program;
    hvec entry = {0}, exit = {0};
    int rc = value_places(&b) < 0 || build(&b, g->body, "0", &entry, &exit) < 0 ||
             control_places(&b, &entry) < 0 || entry_places(&b) < 0 ||
             init_transitions(&b) < 0 ? -1 : 0;
    size_t before = g->ntrans;
    if (rc == 0)
        rc = action_transitions(&b);
    g->naction_transitions = g->ntrans - before;
    if (rc == 0)
        rc = terminate(&b, &exit);
    free(entry.v);
    free(exit.v);
    for (size_t i = 0; i < b.nh; i++)
        free(b.h[i].repl.v);
    free(b.h);
    free(b.mark);
    free(b.stack.v);
    free(b.out.v);
    free(b.pre);
    free(b.post);
    free(b.eval_stack);
    if (rc < 0) {
        nc_free_net(b.net);
        return NULL;
    }
    return b.net;
}
