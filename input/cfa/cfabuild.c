/* The CFA builder: what the grammar's actions call.  It resolves names as
 * soon as they are read (declarations come before the automata), so every
 * error of cfa-format.md §8 is reported on the line that causes it. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/grow.h"
#include "cfaint.h"

void cy_error(cy_state *st, long line, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!st->failed)
        nc_error(st->file, line, "%s", msg);
    st->failed = 1;
}

static int no_memory(cy_state *st, long line)
{
    cy_error(st, line, "out of memory");
    return -1;
}

int64_t cfa_find_decl(const cfa_model *m, const char *name)
{
    return strmap_find(&m->decl_index, name);
}

int64_t cfa_find_automaton(const cfa_model *m, const char *name, size_t len)
{
    return strmap_find_n(&m->aut_index, name, len);
}

int64_t cfa_find_state(const cfa_automaton *a, const char *name)
{
    return strmap_find(&a->state_index, name);
}

/* Adds the record named name, the index-th of its kind, to map; -1 after
 * "out of memory".  The caller has made sure the name is new. */
static int index_name(cy_state *st, strmap *map, const char *name, size_t index, long line)
{
    uint32_t v = (uint32_t)index;
    if (index >= UINT32_MAX || strmap_insert(map, name, &v) < 0) {
        cy_error(st, line, "out of memory");
        return -1;
    }
    return 0;
}

static cfa_automaton *current(cy_state *st)
{
    return st->m->nauts ? &st->m->auts[st->m->nauts - 1] : NULL;
}

/* A name of the shared name space of variables and automata (§2): where
 * it was declared first, or 0. */
static long name_taken(const cfa_model *m, const char *name, const char **what)
{
    int64_t d = cfa_find_decl(m, name);
    if (d >= 0) {
        *what = m->decls[d].kind == CFA_VAR ? "variable" :
                m->decls[d].kind == CFA_CHAN ? "channel" : "stack";
        return m->decls[d].line;
    }
    int64_t a = cfa_find_automaton(m, name, strlen(name));
    if (a >= 0) {
        *what = "automaton";
        return m->auts[a].line;
    }
    return 0;
}

static int check_new_name(cy_state *st, const char *name, long line)
{
    const char *what;
    long first = name_taken(st->m, name, &what);
    if (first) {
        cy_error(st, line, "'%s' is declared twice (first as %s %s at line %ld)", name,
                 *what == 'a' ? "an" : "a", what, first);
        return -1;
    }
    return 0;
}

int cy_global(cy_state *st, long line)
{
    if (st->m->nauts) {
        cy_error(st, line, "@global after an automaton: declarations come before the automata");
        return -1;
    }
    if (st->seen_global) {
        cy_error(st, line, "a second @global section");
        return -1;
    }
    st->seen_global = st->in_global = 1;
    return 0;
}

int cy_misplaced_decl(cy_state *st, long line)
{
    if (st->in_global)
        return 0;
    if (st->m->nauts)
        cy_error(st, line, "a declaration inside automaton '%s': variables, channels and "
                 "stacks are declared after @global, before the automata", current(st)->name);
    else
        cy_error(st, line, "a declaration outside @global (write @global before it)");
    return -1;
}

static int check_range(cy_state *st, long line, const char *name, int64_t lo, int64_t hi)
{
    if (lo > hi) {
        cy_error(st, line, "the range {%lld..%lld} of '%s' is empty (lower bound above upper)",
                 (long long)lo, (long long)hi, name);
        return -1;
    }
    return 0;
}

static cfa_decl *new_decl(cy_state *st, char *name, long line)
{
    if (check_new_name(st, name, line) < 0) {
        free(name);
        return NULL;
    }
    cfa_model *m = st->m;
    if (GROW(m->decls, m->cap_decls, m->ndecls + 1) < 0) {
        free(name);
        no_memory(st, line);
        return NULL;
    }
    if (index_name(st, &m->decl_index, name, m->ndecls, line) < 0) {
        free(name);
        return NULL;
    }
    cfa_decl *d = &m->decls[m->ndecls++];
    memset(d, 0, sizeof *d);
    d->name = name;
    d->line = line;
    return d;
}

int cy_decl_var(cy_state *st, char *name, long line, int64_t lo, int64_t hi,
                int has_init, int64_t init)
{
    if (check_range(st, line, name, lo, hi) < 0) {
        free(name);
        return -1;
    }
    if (has_init && (init < lo || init > hi)) {
        cy_error(st, line, "the init value %lld of '%s' lies outside {%lld..%lld}",
                 (long long)init, name, (long long)lo, (long long)hi);
        free(name);
        return -1;
    }
    cfa_decl *d = new_decl(st, name, line);
    if (!d)
        return -1;
    d->kind = CFA_VAR;
    d->lo = lo;
    d->hi = hi;
    d->init = has_init ? init : lo;
    if (!has_init)
        nc_warning(st->file, line, "%s: no init value, using %lld", d->name, (long long)lo);
    return 0;
}

int cy_decl_buffer(cy_state *st, char *name, long line, cfa_decl_kind kind,
                   int64_t capacity, int64_t lo, int64_t hi)
{
    const char *what = kind == CFA_CHAN ? "channel" : "stack";
    if (capacity < 1) {
        cy_error(st, line, "the capacity %lld of %s '%s' is below 1", (long long)capacity, what,
                 name);
        free(name);
        return -1;
    }
    if (capacity > UINT32_MAX) {
        cy_error(st, line, "the capacity %lld of %s '%s' is too large", (long long)capacity, what,
                 name);
        free(name);
        return -1;
    }
    if (check_range(st, line, name, lo, hi) < 0) {
        free(name);
        return -1;
    }
    cfa_decl *d = new_decl(st, name, line);
    if (!d)
        return -1;
    d->kind = kind;
    d->lo = lo;
    d->hi = hi;
    d->capacity = (uint32_t)capacity;
    return 0;
}

static int check_start(cy_state *st, const cfa_automaton *a)
{
    if (a && a->start < 0) {
        cy_error(st, a->line, "automaton '%s' has no @start state", a->name);
        return -1;
    }
    return 0;
}

int cy_automaton(cy_state *st, char *name, long line)
{
    const char *what;
    long first = check_start(st, current(st)) < 0 ? -1 : name_taken(st->m, name, &what);
    if (first > 0 && strcmp(what, "automaton"))
        cy_error(st, line, "automaton '%s' has the name of the %s declared at line %ld", name,
                 what, first);
    else if (first > 0)
        cy_error(st, line, "two automata named '%s' (the first at line %ld)", name, first);
    if (first) {
        free(name);
        return -1;
    }
    cfa_model *m = st->m;
    if (GROW(m->auts, m->cap_auts, m->nauts + 1) < 0) {
        free(name);
        return no_memory(st, line);
    }
    if (index_name(st, &m->aut_index, name, m->nauts, line) < 0) {
        free(name);
        return -1;
    }
    cfa_automaton *a = &m->auts[m->nauts++];
    memset(a, 0, sizeof *a);
    a->name = name;
    a->line = line;
    a->start = -1;
    st->in_global = 0;
    return 0;
}

static cfa_automaton *need_automaton(cy_state *st, long line, const char *what)
{
    cfa_automaton *a = current(st);
    if (!a)
        cy_error(st, line, "%s outside an automaton (write '@automaton NAME' first)", what);
    return a;
}

/* States are declared by use (§2): the index of the state, new or not. */
static int64_t state_ref(cy_state *st, cfa_automaton *a, char *name, long line)
{
    int64_t known = cfa_find_state(a, name);
    if (known >= 0) {
        free(name);
        return known;
    }
    if (GROW(a->states, a->cap_states, a->nstates + 1) < 0 ||
        GROW(a->state_lines, a->cap_state_lines, a->nstates + 1) < 0) {
        free(name);
        return no_memory(st, line);
    }
    if (index_name(st, &a->state_index, name, a->nstates, line) < 0) {
        free(name);
        return -1;
    }
    a->states[a->nstates] = name;
    a->state_lines[a->nstates] = line;
    return (int64_t)a->nstates++;
}

int cy_start(cy_state *st, char *state, long line)
{
    cfa_automaton *a = need_automaton(st, line, "@start");
    if (!a) {
        free(state);
        return -1;
    }
    if (a->start >= 0) {
        cy_error(st, line, "automaton '%s' has two @start states ('%s' at line %ld and '%s')",
                 a->name, a->states[a->start], a->start_line, state);
        free(state);
        return -1;
    }
    int64_t s = state_ref(st, a, state, line);
    if (s < 0)
        return -1;
    a->start = (int32_t)s;
    a->start_line = line;
    return 0;
}

int cy_label(cy_state *st, const char *state, char *label, long line)
{
    cfa_automaton *a = need_automaton(st, line, "@label");
    char *copy = a ? strdup(state) : NULL;
    if (!copy) {
        free(label);
        return a ? no_memory(st, line) : -1;
    }
    int64_t s = state_ref(st, a, copy, line);
    if (s < 0) {
        free(label);
        return -1;
    }
    cfa_model *m = st->m;
    cfa_label *l = NULL;
    int64_t known = strmap_find(&m->label_index, label);
    if (known >= 0)
        l = &m->labels[known];
    if (!l) {
        if (GROW(m->labels, m->cap_labels, m->nlabels + 1) < 0) {
            free(label);
            return no_memory(st, line);
        }
        if (index_name(st, &m->label_index, label, m->nlabels, line) < 0) {
            free(label);
            return -1;
        }
        l = &m->labels[m->nlabels++];
        memset(l, 0, sizeof *l);
        l->name = label;
    } else {
        free(label);
    }
    /* the same label twice on a state says nothing new: cy_finish drops
     * repetitions, all at once */
    uint32_t aut = (uint32_t)(m->nauts - 1);
    if (GROW(l->aut, l->cap_aut, l->n + 1) < 0 || GROW(l->state, l->cap_state, l->n + 1) < 0)
        return no_memory(st, line);
    l->aut[l->n] = aut;
    l->state[l->n] = (uint32_t)s;
    l->n++;
    return 0;
}

static void free_items(cfa_item *items, size_t n)
{
    for (size_t i = 0; i < n; i++)
        cfa_code_free(&items[i].code);
    free(items);
}

/* Takes e (NULL for a receive) into the item and the item into the list. */
static int add_item(cy_state *st, cfa_item item, cfa_expr *e, long line)
{
    if (cfa_code_from(e, &item.code) < 0)
        return no_memory(st, line);
    if (GROW(st->items, st->cap_items, st->nitems + 1) < 0) {
        cfa_code_free(&item.code);
        return no_memory(st, line);
    }
    st->items[st->nitems++] = item;
    return 0;
}

int cy_item_pred(cy_state *st, cfa_expr *e, long line)
{
    if (!e->is_bool) {
        cy_error(st, line, "a condition is expected here, not a number");
        cfa_expr_free(e);
        return -1;
    }
    cfa_item item = { CFA_PRED, { 0 }, 0, 0 };
    return add_item(st, item, e, line);
}

/* The buffer of a send or receive; -1 after an error. */
static int64_t buffer_ref(cy_state *st, const char *name, const char *op, long line)
{
    int64_t d = cfa_find_decl(st->m, name);
    if (d < 0)
        cy_error(st, line, "undeclared channel or stack '%s'", name);
    else if (st->m->decls[d].kind == CFA_VAR)
        cy_error(st, line, "'%s' is a variable, not a channel or stack: '%s' %s", name, op,
                 *op == '!' ? "sends to a buffer" : "receives from a buffer");
    else
        return d;
    return -1;
}

int cy_item_send(cy_state *st, char *buffer, cfa_expr *e, long line)
{
    int64_t b = buffer_ref(st, buffer, "!", line);
    free(buffer);
    if (b >= 0 && e->is_bool) {
        cy_error(st, line, "the value sent must be a number, not a condition");
        b = -1;
    }
    if (b < 0) {
        cfa_expr_free(e);
        return -1;
    }
    cfa_item item = { CFA_SEND, { 0 }, (uint32_t)b, 0 };
    return add_item(st, item, e, line);
}

int cy_item_recv(cy_state *st, char *buffer, char *var, long line)
{
    int64_t b = buffer_ref(st, buffer, "?", line);
    int64_t target = -1;
    if (b >= 0) {
        target = cfa_find_decl(st->m, var);
        if (target < 0)
            cy_error(st, line, "undeclared variable '%s'", var);
        else if (st->m->decls[target].kind != CFA_VAR) {
            cy_error(st, line, "'?' must be followed by a variable; '%s' is a %s", var,
                     st->m->decls[target].kind == CFA_CHAN ? "channel" : "stack");
            target = -1;
        }
    }
    free(buffer);
    free(var);
    if (target < 0)
        return -1;
    cfa_item item = { CFA_RECV, { 0 }, (uint32_t)b, (uint32_t)target };
    return add_item(st, item, NULL, line);
}

/* While a transition is checked, a receive's target is told apart from a
 * post-value in an expression (rule 8 names which it is). */
enum { USE_RECV_TARGET = 32 };

/* ORs bits into the uses of declaration d, listing d when it is new. */
static void touch(cy_state *st, uint32_t d, unsigned bits)
{
    if (!st->use_bits[d])
        st->touched[st->ntouched++] = d;
    st->use_bits[d] |= bits;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Rules 7 and 8 of §8 on the items of one transition, and the list of the
 * declarations it touches (t->uses).  Costs the size of the transition,
 * not of the model: scratch per declaration lives in st and is cleared
 * for the touched ones only. */
static int check_items(cy_state *st, cfa_trans *t, long line)
{
    const cfa_model *m = st->m;
    size_t nd = m->ndecls ? m->ndecls : 1;
    if (st->nscratch < nd) {
        unsigned *bits = calloc(nd, sizeof *bits);
        uint32_t *touched = malloc(nd * sizeof *touched);
        if (!bits || !touched) {
            free(bits);
            free(touched);
            return no_memory(st, line);
        }
        free(st->use_bits);
        free(st->touched);
        st->use_bits = bits;
        st->touched = touched;
        st->nscratch = nd;
    }
    st->ntouched = 0;
    int rc = 0;
    for (size_t i = 0; i < t->nitems && rc == 0; i++) {
        const cfa_item *it = &t->items[i];
        const cfa_code *c = &it->code;
        for (uint32_t k = 0; k < c->n; k++) {
            cfa_op op = c->v[k].op;
            if (op == CE_PLAIN || op == CE_PRE || op == CE_POST)
                touch(st, c->v[k].var, op == CE_PLAIN ? CFA_USE_PLAIN :
                                       op == CE_PRE ? CFA_USE_PRE : CFA_USE_POST);
        }
        if (it->kind == CFA_PRED)
            continue;
        if (st->use_bits[it->buffer] & (CFA_USE_RECV | CFA_USE_SEND)) {
            const cfa_decl *d = &m->decls[it->buffer];
            cy_error(st, line, "two operations on %s '%s' in one transition",
                     d->kind == CFA_CHAN ? "channel" : "stack", d->name);
            rc = -1;
        } else if (it->kind == CFA_RECV) {
            touch(st, it->buffer, CFA_USE_RECV);
            touch(st, it->target, USE_RECV_TARGET);
        } else {
            touch(st, it->buffer, CFA_USE_SEND);
        }
    }
    qsort(st->touched, st->ntouched, sizeof *st->touched, cmp_u32);
    for (size_t i = 0; i < st->ntouched && rc == 0; i++) {
        uint32_t d = st->touched[i];
        unsigned bits = st->use_bits[d];
        if (!(bits & CFA_USE_PLAIN))
            continue;
        const char *name = m->decls[d].name;
        if (bits & CFA_USE_POST) {
            cy_error(st, line, "%s used both unchanged and as post-value; write '%s for the old "
                     "value", name, name);
            rc = -1;
        } else if (bits & USE_RECV_TARGET) {
            cy_error(st, line, "%s used both unchanged and as receive target; write '%s for the "
                     "old value", name, name);
            rc = -1;
        }
    }
    if (rc == 0 && st->ntouched &&
        !(t->uses = malloc(st->ntouched * sizeof *t->uses)))
        rc = no_memory(st, line);
    for (size_t i = 0; i < st->ntouched; i++) {
        uint32_t d = st->touched[i];
        unsigned bits = st->use_bits[d];
        st->use_bits[d] = 0;
        if (rc == 0)
            t->uses[i] = (cfa_use){ d, (bits & USE_RECV_TARGET)
                                       ? (bits & ~(unsigned)USE_RECV_TARGET) | CFA_USE_POST
                                       : bits };
    }
    if (rc == 0)
        t->nuses = (uint32_t)st->ntouched;
    return rc;
}

int cy_transition(cy_state *st, char *src, char *dst, long line)
{
    cfa_trans t;
    memset(&t, 0, sizeof t);
    t.items = st->items;
    t.nitems = st->nitems;
    t.line = line;
    st->items = NULL;
    st->nitems = st->cap_items = 0;
    cfa_automaton *a = need_automaton(st, line, "a transition");
    if (!a || check_items(st, &t, line) < 0) {
        free(src);
        free(dst);
        free_items(t.items, t.nitems);
        free(t.uses);
        return -1;
    }
    int64_t s = state_ref(st, a, src, line);
    int64_t d = s < 0 ? (free(dst), -1) : state_ref(st, a, dst, line);
    if (d < 0 || GROW(a->trans, a->cap_trans, a->ntrans + 1) < 0) {
        free_items(t.items, t.nitems);
        free(t.uses);
        return d < 0 ? -1 : no_memory(st, line);
    }
    t.src = (uint32_t)s;
    t.dst = (uint32_t)d;
    a->trans[a->ntrans++] = t;
    return 0;
}

typedef struct label_pair {
    uint32_t aut, state;
    size_t pos;
} label_pair;

static int cmp_pair(const void *a, const void *b)
{
    const label_pair *x = a, *y = b;
    if (x->aut != y->aut)
        return x->aut < y->aut ? -1 : 1;
    if (x->state != y->state)
        return x->state < y->state ? -1 : 1;
    return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* Each label's (automaton, state) pairs once, in the order first given:
 * sorting finds the repetitions of a label on many states in n log n. */
static int unique_label_states(cy_state *st, cfa_label *l, long line)
{
    if (l->n < 2)
        return 0;
    label_pair *pairs = malloc(l->n * sizeof *pairs);
    uint8_t *dup = calloc(l->n, 1);
    if (!pairs || !dup) {
        free(pairs);
        free(dup);
        return no_memory(st, line);
    }
    for (size_t i = 0; i < l->n; i++)
        pairs[i] = (label_pair){ l->aut[i], l->state[i], i };
    qsort(pairs, l->n, sizeof *pairs, cmp_pair);
    for (size_t i = 1; i < l->n; i++)
        if (pairs[i].aut == pairs[i - 1].aut && pairs[i].state == pairs[i - 1].state)
            dup[pairs[i].pos] = 1;
    size_t kept = 0;
    for (size_t i = 0; i < l->n; i++)
        if (!dup[i]) {
            l->aut[kept] = l->aut[i];
            l->state[kept] = l->state[i];
            kept++;
        }
    l->n = kept;
    free(pairs);
    free(dup);
    return 0;
}

int cy_finish(cy_state *st, long line)
{
    cfa_model *m = st->m;
    if (!m->nauts) {
        cy_error(st, line, "a CFA model needs at least one @automaton");
        return -1;
    }
    if (check_start(st, current(st)) < 0)
        return -1;
    for (size_t i = 0; i < m->nlabels; i++)
        if (unique_label_states(st, &m->labels[i], line) < 0)
            return -1;
    /* §8's warnings: states no transition enters */
    for (size_t i = 0; i < m->nauts; i++) {
        const cfa_automaton *a = &m->auts[i];
        uint8_t *entered = calloc(a->nstates ? a->nstates : 1, 1);
        if (!entered)
            return no_memory(st, line);
        if (a->start >= 0)
            entered[a->start] = 1;
        for (size_t k = 0; k < a->ntrans; k++)
            entered[a->trans[k].dst] = 1;
        for (size_t s = 0; s < a->nstates; s++)
            if (!entered[s])
                nc_warning(st->file, a->state_lines[s], "state '%s' of automaton '%s' is never "
                           "entered (no transition leads to it)", a->states[s], a->name);
        free(entered);
    }
    return 0;
}

static void free_automaton(cfa_automaton *a)
{
    free(a->name);
    for (size_t i = 0; i < a->nstates; i++)
        free(a->states[i]);
    free(a->states);
    free(a->state_lines);
    strmap_free(&a->state_index);
    for (size_t k = 0; k < a->ntrans; k++) {
        free_items(a->trans[k].items, a->trans[k].nitems);
        free(a->trans[k].uses);
    }
    free(a->trans);
}

void cfa_model_free(cfa_model *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->ndecls; i++)
        free(m->decls[i].name);
    free(m->decls);
    for (size_t i = 0; i < m->nauts; i++)
        free_automaton(&m->auts[i]);
    free(m->auts);
    for (size_t i = 0; i < m->nlabels; i++) {
        free(m->labels[i].name);
        free(m->labels[i].aut);
        free(m->labels[i].state);
    }
    free(m->labels);
    strmap_free(&m->decl_index);
    strmap_free(&m->aut_index);
    strmap_free(&m->label_index);
    free(m->net_aut);
    free(m->net_trans);
    free(m->file);
    free(m);
}
