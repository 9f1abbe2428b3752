/* The safe net of a CFA model, exactly as cfa-format.md §5 defines it:
 * places and their order and names (§5.1), one net transition per
 * satisfying choice of values in the documented order and named A.k.n
 * (§5.2), the automata and variables as the net's partition.
 *
 * Sizes are computed before anything is built, so that a model whose
 * expansion is absurd is refused with its size instead of exhausting
 * memory. */
#include "base/readfile.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cfaint.h"

/* Beyond these a CFA model is no longer a hand-made protocol model, and
 * its explicit exploration would be hopeless anyway.  A fuzzing build
 * lowers them (tests/fuzz/README.md): the code paths stay the same, and
 * each input takes milliseconds instead of seconds. */
#ifndef CFA_MAX_PLACES
#define CFA_MAX_PLACES 1000000u
#endif
#ifndef CFA_MAX_CHOICES
#define CFA_MAX_CHOICES 20000000u
#endif
#ifndef CFA_MAX_NET_TRANSITIONS
#define CFA_MAX_NET_TRANSITIONS 4000000u
#endif
/* Every choice evaluates the transition's expressions: a long expression
 * times many choices is seconds of work before the net exists.  Counted
 * in instructions (cfa_code), a few nanoseconds each. */
#ifndef CFA_MAX_WORK
#define CFA_MAX_WORK 2000000000ull
#endif

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
    uint64_t r;
    return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a + b < a ? UINT64_MAX : a + b;
}

static uint64_t decl_places(const cfa_decl *d)
{
    uint64_t r = cfa_range_size(d);
    if (d->kind == CFA_VAR)
        return r;
    return sat_add((uint64_t)d->capacity + 1, sat_mul(d->capacity, r));
}

/* Choices a transition's expansion tries (§5.2): pre (and post unless the
 * variable is read unchanged) per touched variable, lengths and values
 * per buffer operation. */
static uint64_t trans_choices(const cfa_model *m, const cfa_trans *t)
{
    uint64_t n = 1;
    for (uint32_t i = 0; i < t->nuses; i++) {
        unsigned uses = t->uses[i].bits;
        const cfa_decl *decl = &m->decls[t->uses[i].decl];
        uint64_t r = cfa_range_size(decl);
        if (decl->kind == CFA_VAR) {
            if (uses & CFA_USE_PLAIN)
                n = sat_mul(n, r);
            else if (uses)
                n = sat_mul(n, sat_mul(r, r));
        } else if ((uses & CFA_USE_SEND) || (decl->kind == CFA_STACK && uses)) {
            n = sat_mul(n, sat_mul(decl->capacity, r));
        } else if (uses & CFA_USE_RECV) {
            uint64_t contents = 0, power = 1;
            for (uint32_t l = 1; l <= decl->capacity && contents != UINT64_MAX; l++) {
                power = sat_mul(power, r);
                contents = sat_add(contents, power);
            }
            n = sat_mul(n, contents);
        }
    }
    return n;
}

static int check_sizes(const cfa_model *m)
{
    uint64_t places = 0, largest = 0;
    const char *largest_name = "";
    for (size_t a = 0; a < m->nauts; a++)
        places = sat_add(places, m->auts[a].nstates);
    for (size_t d = 0; d < m->ndecls; d++) {
        uint64_t p = decl_places(&m->decls[d]);
        places = sat_add(places, p);
        if (p > largest) {
            largest = p;
            largest_name = m->decls[d].name;
        }
    }
    if (places > CFA_MAX_PLACES) {
        if (places == UINT64_MAX)
            nc_error(m->file, 0, "the net of this model would have 2^64 places or more (limit "
                     "%u); '%s' alone needs that many", CFA_MAX_PLACES, largest_name);
        else
            nc_error(m->file, 0, "the net of this model would have %" PRIu64 " places (limit "
                     "%u); '%s' alone needs %" PRIu64 ": narrow its range", places,
                     CFA_MAX_PLACES, largest_name, largest);
        return -1;
    }
    uint64_t total = 0, work = 0;
    for (size_t a = 0; a < m->nauts; a++)
        for (size_t k = 0; k < m->auts[a].ntrans; k++) {
            const cfa_trans *t = &m->auts[a].trans[k];
            uint64_t n = trans_choices(m, t), instrs = 0;
            for (size_t i = 0; i < t->nitems; i++)
                instrs += t->items[i].code.n;
            total = sat_add(total, n);
            if (total > CFA_MAX_CHOICES) {
                if (n == UINT64_MAX)
                    nc_error(m->file, t->line, "expanding this transition means trying 2^64 or "
                             "more choices of values (limit %u for the whole model): narrow the "
                             "ranges it touches", CFA_MAX_CHOICES);
                else
                    nc_error(m->file, t->line, "expanding this transition means trying %" PRIu64
                             " choices of values, %" PRIu64 " so far in the model (limit %u): "
                             "narrow the ranges it touches", n, total, CFA_MAX_CHOICES);
                return -1;
            }
            work = sat_add(work, sat_mul(n, instrs));
            if (work > CFA_MAX_WORK) {
                nc_error(m->file, t->line, "expanding this transition means evaluating its %"
                         PRIu64 " operators and operands under each of %" PRIu64 " choices of "
                         "values: %" PRIu64 " evaluations so far in the model (limit %llu); "
                         "shorten its expressions or narrow the ranges it touches", instrs, n,
                         work, (unsigned long long)CFA_MAX_WORK);
                return -1;
            }
        }
    return 0;
}

/* ---- places ---- */

static int add_place(net_t *net, const char *name, nc_count initial, int32_t unit)
{
    int p = nc_create_place(net, name, name, initial);
    if (p < 0) {
        nc_error(net->file, 0, "place %s: %s", name, nc_status_text(p));
        return -1;
    }
    if (unit >= 0 && nc_unit_add_place(net, (uint32_t)unit, (uint32_t)p) < 0) {
        nc_error(net->file, 0, "out of memory");
        return -1;
    }
    return p;
}

static int32_t add_unit(net_t *net, const char *name)
{
    int u = nc_add_unit(net, name, -1);
    if (u < 0)
        nc_error(net->file, 0, "unit %s: %s", name, nc_status_text(u));
    return u;
}

static int build_places(cfa_model *m, net_t *net)
{
    char name[256];
    for (size_t a = 0; a < m->nauts; a++) {
        cfa_automaton *aut = &m->auts[a];
        int32_t u = add_unit(net, aut->name);
        if (u < 0)
            return -1;
        aut->first_place = (uint32_t)net->nplaces;
        for (size_t s = 0; s < aut->nstates; s++) {
            snprintf(name, sizeof name, "%s.%s", aut->name, aut->states[s]);
            if (add_place(net, name, (int32_t)s == aut->start, u) < 0)
                return -1;
        }
    }
    for (size_t i = 0; i < m->ndecls; i++) {
        cfa_decl *d = &m->decls[i];
        d->first_place = (uint32_t)net->nplaces;
        uint64_t r = cfa_range_size(d);
        if (d->kind == CFA_VAR) {
            int32_t u = add_unit(net, d->name);
            if (u < 0)
                return -1;
            for (uint64_t k = 0; k < r; k++) {
                int64_t v = (int64_t)((uint64_t)d->lo + k);
                snprintf(name, sizeof name, "%s=%" PRId64, d->name, v);
                if (add_place(net, name, v == d->init, u) < 0)
                    return -1;
            }
            continue;
        }
        snprintf(name, sizeof name, "%s.len", d->name);
        int32_t u = add_unit(net, name);
        if (u < 0)
            return -1;
        for (uint32_t l = 0; l <= d->capacity; l++) {
            snprintf(name, sizeof name, "%s.len=%" PRIu32, d->name, l);
            if (add_place(net, name, l == 0, u) < 0)
                return -1;
        }
        for (uint32_t slot = 0; slot < d->capacity; slot++) {
            snprintf(name, sizeof name, "%s[%" PRIu32 "]", d->name, slot);
            if ((u = add_unit(net, name)) < 0)
                return -1;
            for (uint64_t k = 0; k < r; k++) {
                snprintf(name, sizeof name, "%s[%" PRIu32 "]=%" PRId64, d->name, slot,
                         (int64_t)((uint64_t)d->lo + k));
                if (add_place(net, name, 0, u) < 0)
                    return -1;
            }
        }
    }
    return 0;
}

static uint32_t value_place(const cfa_decl *d, int64_t v)
{
    return d->first_place + cfa_offset(d, v);
}

static uint32_t slot_place(const cfa_decl *d, uint32_t slot, int64_t v)
{
    return cfa_slot_first(d, slot) + cfa_offset(d, v);
}

/* ---- transitions ---- */

typedef struct buffer_op {
    uint32_t decl;
    cfa_item_kind kind;        /* CFA_SEND or CFA_RECV */
    const cfa_item *item;
    uint32_t len;              /* chosen length */
    int64_t *content;          /* send: [0] the value; pop: [0] the top; receive: l values */
} buffer_op;

typedef struct choice_dim {
    enum { DIM_PRE, DIM_POST, DIM_LEN, DIM_CONTENT } kind;
    uint32_t at;               /* the variable (a declaration), or the buffer operation */
    uint32_t pos;              /* DIM_CONTENT: the position in the contents */
} choice_dim;

typedef struct expander {
    cfa_model *m;
    net_t *net;
    uint32_t aut, trans;       /* 0-based */
    const cfa_trans *t;
    unsigned *uses;
    uint32_t *vars;            /* touched variables in declaration order */
    size_t nvars;
    buffer_op *ops;            /* in declaration order of the buffers */
    size_t nops;
    int64_t *pre, *post;       /* per declaration */
    int64_t *content;          /* room for every buffer's longest content */
    cfa_value *stack;          /* room for evaluating any of the model's expressions */
    choice_dim *dims;          /* the transition's choices, slowest first (choose) */
    size_t ndims;
    uint32_t generated;
    int failed;
} expander;

static int satisfied(expander *x)
{
    const cfa_trans *t = x->t;
    for (size_t i = 0; i < t->nitems; i++) {
        const cfa_item *it = &t->items[i];
        if (it->kind != CFA_PRED)
            continue;
        cfa_value v;
        int rc = cfa_eval(&it->code, x->pre, x->post, x->stack, &v);
        if (rc == CFA_EVAL_OVERFLOW) {
            nc_error(x->m->file, t->line, "arithmetic overflow (beyond 128 bits) while expanding "
                     "this transition");
            x->failed = 1;
            return 0;
        }
        if (rc != CFA_EVAL_OK || !v)
            return 0;
    }
    for (size_t i = 0; i < x->nops; i++) {
        const buffer_op *op = &x->ops[i];
        if (op->kind == CFA_SEND) {
            cfa_value v;
            int rc = cfa_eval(&op->item->code, x->pre, x->post, x->stack, &v);
            if (rc == CFA_EVAL_OVERFLOW) {
                nc_error(x->m->file, t->line, "arithmetic overflow (beyond 128 bits) while "
                         "expanding this transition");
                x->failed = 1;
                return 0;
            }
            if (rc != CFA_EVAL_OK || v != op->content[0])
                return 0;
        } else {
            /* the oldest value of a channel, the top of a stack */
            if (x->post[op->item->target] != op->content[0])
                return 0;
        }
    }
    return 1;
}

static int arc(expander *x, nc_arc_kind kind, uint32_t place, uint32_t tr)
{
    int rc = nc_create_arc(x->net, kind, place, tr, 1, 0);
    if (rc < 0) {
        nc_error(x->m->file, x->t->line, "arc of transition %s: %s",
                 x->net->transitions[tr].name, nc_status_text(rc));
        x->failed = 1;
        return -1;
    }
    return 0;
}

static void emit(expander *x)
{
    if (x->net->ntransitions >= CFA_MAX_NET_TRANSITIONS) {
        nc_error(x->m->file, x->t->line, "the net of this model would have more than %u "
                 "transitions: narrow the ranges", CFA_MAX_NET_TRANSITIONS);
        x->failed = 1;
        return;
    }
    char name[512];
    snprintf(name, sizeof name, "%s.%" PRIu32 ".%" PRIu32, x->m->auts[x->aut].name,
             x->trans + 1, x->generated + 1);
    int t = nc_create_transition(x->net, name, name);
    if (t < 0) {
        nc_error(x->m->file, x->t->line, "transition %s: %s", name, nc_status_text(t));
        x->failed = 1;
        return;
    }
    uint32_t tr = (uint32_t)t;
    const cfa_automaton *aut = &x->m->auts[x->aut];
    if (arc(x, NC_ARC_PT, aut->first_place + x->t->src, tr) ||
        arc(x, NC_ARC_TP, aut->first_place + x->t->dst, tr))
        return;
    for (size_t i = 0; i < x->nvars; i++) {
        const cfa_decl *d = &x->m->decls[x->vars[i]];
        if (arc(x, NC_ARC_PT, value_place(d, x->pre[x->vars[i]]), tr) ||
            arc(x, NC_ARC_TP, value_place(d, x->post[x->vars[i]]), tr))
            return;
    }
    for (size_t i = 0; i < x->nops; i++) {
        const buffer_op *op = &x->ops[i];
        const cfa_decl *d = &x->m->decls[op->decl];
        uint32_t l = op->len;
        if (op->kind == CFA_SEND) {
            if (arc(x, NC_ARC_PT, cfa_len_place(d, l), tr) ||
                arc(x, NC_ARC_TP, cfa_len_place(d, l + 1), tr) ||
                arc(x, NC_ARC_TP, slot_place(d, l, op->content[0]), tr))
                return;
        } else if (d->kind == CFA_STACK) {
            if (arc(x, NC_ARC_PT, cfa_len_place(d, l), tr) ||
                arc(x, NC_ARC_PT, slot_place(d, l - 1, op->content[0]), tr) ||
                arc(x, NC_ARC_TP, cfa_len_place(d, l - 1), tr))
                return;
        } else {
            if (arc(x, NC_ARC_PT, cfa_len_place(d, l), tr) || arc(x, NC_ARC_TP, cfa_len_place(d, l - 1), tr))
                return;
            for (uint32_t s = 0; s < l; s++)
                if (arc(x, NC_ARC_PT, slot_place(d, s, op->content[s]), tr))
                    return;
            for (uint32_t s = 0; s + 1 < l; s++)
                if (arc(x, NC_ARC_TP, slot_place(d, s, op->content[s + 1]), tr))
                    return;
        }
    }
    x->generated++;
}

/* The choices of values of a transition (§5.2) as an odometer: one
 * dimension per touched variable's pre value (and post value, unless the
 * variable is read plain), then per buffer operation its length and each
 * position of its contents, the first dimension turning slowest.  A file
 * decides how many variables one transition touches, so this is a loop,
 * not a recursion per dimension. */
/* The positions of op's contents chosen at its current length. */
static uint32_t op_count(const expander *x, const buffer_op *op)
{
    return op->kind == CFA_SEND || x->m->decls[op->decl].kind == CFA_STACK ? 1 : op->len;
}

static void dim_first(expander *x, const choice_dim *d)
{
    const cfa_decl *decl;
    buffer_op *op;
    switch (d->kind) {
    case DIM_PRE:
        decl = &x->m->decls[d->at];
        x->pre[d->at] = decl->lo;
        if (x->uses[d->at] & CFA_USE_PLAIN)
            x->post[d->at] = decl->lo;
        break;
    case DIM_POST:
        x->post[d->at] = x->m->decls[d->at].lo;
        break;
    case DIM_LEN:
        op = &x->ops[d->at];
        op->len = op->kind == CFA_SEND ? 0 : 1;
        break;
    case DIM_CONTENT:
        op = &x->ops[d->at];
        if (d->pos < op_count(x, op))
            op->content[d->pos] = x->m->decls[op->decl].lo;
        break;
    }
}

/* Turns d one value on; 0 when it was at its last. */
static int dim_next(expander *x, const choice_dim *d)
{
    const cfa_decl *decl;
    buffer_op *op;
    switch (d->kind) {
    case DIM_PRE:
        decl = &x->m->decls[d->at];
        if (x->pre[d->at] == decl->hi)
            return 0;
        x->pre[d->at]++;
        if (x->uses[d->at] & CFA_USE_PLAIN)
            x->post[d->at] = x->pre[d->at];
        return 1;
    case DIM_POST:
        if (x->post[d->at] == x->m->decls[d->at].hi)
            return 0;
        x->post[d->at]++;
        return 1;
    case DIM_LEN:
        op = &x->ops[d->at];
        decl = &x->m->decls[op->decl];
        if (op->len == (op->kind == CFA_SEND ? decl->capacity - 1 : decl->capacity))
            return 0;
        op->len++;
        return 1;
    case DIM_CONTENT:
        op = &x->ops[d->at];
        decl = &x->m->decls[op->decl];
        if (d->pos >= op_count(x, op) || op->content[d->pos] == decl->hi)
            return 0;
        op->content[d->pos]++;
        return 1;
    }
    return 0;
}

static void choose(expander *x)
{
    size_t n = x->ndims;
    for (size_t i = 0; i < n; i++)
        dim_first(x, &x->dims[i]);
    for (;;) {
        if (satisfied(x))
            emit(x);
        if (x->failed)
            return;
        size_t i = n;
        while (i > 0 && !dim_next(x, &x->dims[i - 1]))
            i--;
        if (i == 0)
            return;
        for (size_t k = i; k < n; k++)
            dim_first(x, &x->dims[k]);
    }
}

static int expand(expander *x)
{
    const cfa_model *m = x->m;
    const cfa_trans *t = x->t;
    x->nvars = x->nops = 0;
    x->generated = 0;
    size_t at = 0;
    for (uint32_t u = 0; u < t->nuses; u++) {
        uint32_t d = t->uses[u].decl;
        x->uses[d] = t->uses[u].bits;
        if (m->decls[d].kind == CFA_VAR) {
            x->vars[x->nvars++] = d;
            continue;
        }
        buffer_op *op = &x->ops[x->nops++];
        op->decl = d;
        op->content = x->content + at;
        at += m->decls[d].capacity;
        for (size_t i = 0; i < t->nitems; i++)
            if (t->items[i].kind != CFA_PRED && t->items[i].buffer == d)
                op->item = &t->items[i];
        op->kind = op->item->kind;
    }
    x->ndims = 0;
    for (size_t i = 0; i < x->nvars; i++) {
        x->dims[x->ndims++] = (choice_dim){ DIM_PRE, x->vars[i], 0 };
        if (!(x->uses[x->vars[i]] & CFA_USE_PLAIN))
            x->dims[x->ndims++] = (choice_dim){ DIM_POST, x->vars[i], 0 };
    }
    for (uint32_t i = 0; i < x->nops; i++) {
        const buffer_op *op = &x->ops[i];
        const cfa_decl *d = &m->decls[op->decl];
        uint32_t most = op->kind == CFA_SEND || d->kind == CFA_STACK ? 1 : d->capacity;
        x->dims[x->ndims++] = (choice_dim){ DIM_LEN, i, 0 };
        for (uint32_t pos = 0; pos < most; pos++)
            x->dims[x->ndims++] = (choice_dim){ DIM_CONTENT, i, pos };
    }
    choose(x);
    for (uint32_t u = 0; u < t->nuses; u++)
        x->uses[t->uses[u].decl] = 0;
    return x->failed ? -1 : 0;
}

static int build_transitions(cfa_model *m, net_t *net)
{
    expander x;
    memset(&x, 0, sizeof x);
    x.m = m;
    x.net = net;
    size_t nd = m->ndecls ? m->ndecls : 1, slots = 0, stack = 1;
    for (size_t d = 0; d < m->ndecls; d++)
        slots += m->decls[d].kind == CFA_VAR ? 0 : m->decls[d].capacity;
    for (size_t a = 0; a < m->nauts; a++)
        for (size_t k = 0; k < m->auts[a].ntrans; k++)
            for (size_t i = 0; i < m->auts[a].trans[k].nitems; i++)
                if (m->auts[a].trans[k].items[i].code.stack > stack)
                    stack = m->auts[a].trans[k].items[i].code.stack;
    x.uses = calloc(nd, sizeof *x.uses);
    x.vars = calloc(nd, sizeof *x.vars);
    x.ops = calloc(nd, sizeof *x.ops);
    x.pre = calloc(nd, sizeof *x.pre);
    x.post = calloc(nd, sizeof *x.post);
    int64_t *content = calloc(slots ? slots : 1, sizeof *content);
    x.stack = malloc(stack * sizeof *x.stack);
    /* a pre and a post value per variable, a length and the contents per buffer */
    x.dims = malloc((2 * nd + nd + slots + 1) * sizeof *x.dims);
    int rc = -1;
    if (!x.uses || !x.vars || !x.ops || !x.pre || !x.post || !content || !x.stack || !x.dims) {
        nc_error(m->file, 0, "out of memory");
        goto out;
    }
    x.content = content;
    for (uint32_t a = 0; a < m->nauts; a++)
        for (uint32_t k = 0; k < m->auts[a].ntrans; k++) {
            cfa_trans *t = &m->auts[a].trans[k];
            x.aut = a;
            x.trans = k;
            x.t = t;
            t->first_net = (uint32_t)net->ntransitions;
            if (expand(&x) < 0)
                goto out;
            t->nnet = x.generated;
            if (!t->nnet)
                nc_warning(m->file, t->line, "the transition %s -> %s of automaton '%s' can never "
                           "fire: no choice of values satisfies it", m->auts[a].states[t->src],
                           m->auts[a].states[t->dst], m->auts[a].name);
        }
    rc = 0;
out:
    free(x.uses);
    free(x.vars);
    free(x.ops);
    free(x.pre);
    free(x.post);
    free(x.stack);
    free(x.dims);
    free(content);
    return rc;
}

static int record_origins(cfa_model *m, net_t *net)
{
    size_t n = net->ntransitions;
    m->net_aut = malloc((n ? n : 1) * sizeof *m->net_aut);
    m->net_trans = malloc((n ? n : 1) * sizeof *m->net_trans);
    if (!m->net_aut || !m->net_trans) {
        nc_error(m->file, 0, "out of memory");
        return -1;
    }
    m->nnet = n;
    for (uint32_t a = 0; a < m->nauts; a++)
        for (uint32_t k = 0; k < m->auts[a].ntrans; k++) {
            const cfa_trans *t = &m->auts[a].trans[k];
            for (uint32_t i = 0; i < t->nnet; i++) {
                m->net_aut[t->first_net + i] = a;
                m->net_trans[t->first_net + i] = k;
            }
        }
    return 0;
}

static void free_model(void *m)
{
    cfa_model_free(m);
}

net_t *cfa_build_net(cfa_model *m)
{
    if (check_sizes(m) < 0) {
        cfa_model_free(m);
        return NULL;
    }
    char *name = path_stem(m->file);
    net_t *net = name ? nc_create_net(name, m->file) : NULL;
    free(name);
    if (!net) {
        nc_error(m->file, 0, "out of memory");
        cfa_model_free(m);
        return NULL;
    }
    net->lang_data = m;
    net->lang_free = free_model;
    net->units_claim_safe = 1;
    if (build_places(m, net) < 0 || build_transitions(m, net) < 0 || record_origins(m, net) < 0) {
        nc_free_net(net);
        return NULL;
    }
    return net;
}
