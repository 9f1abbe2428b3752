/* Atomic propositions of CFA models (cfa-format.md §6): the seven forms in
 * their documented order, numbers in arithmetic positions, and the three
 * spellings of fireable().  Everything becomes sums over the places of
 * §5.1, so checkers see ordinary net formulas. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/grow.h"
#include "cfa.h"
#include "input/input.h"

/* ---- building formulas over places ---- */

typedef struct places {
    lin_term *v;
    uint32_t n;
    size_t cap;
} places;

static int places_add(places *p, uint32_t place, int64_t coef)
{
    if (p->n == UINT32_MAX || GROW(p->v, p->cap, (size_t)p->n + 1) < 0)
        return -1;
    p->v[p->n].place = place;
    p->v[p->n].coef = coef;
    p->n++;
    return 0;
}

/* "one of these places is marked" (at most one is, by §5.1) */
static tree_t *any_marked(places *p)
{
    tree_t *t = p->n ? tree_cmp(p->v, p->n, -1, REL_GE) : tree_const(0);
    free(p->v);
    return t;
}

static int holds(int64_t v, rel_op op, int64_t k)
{
    switch (op) {
    case REL_EQ: return v == k;
    case REL_NE: return v != k;
    case REL_LT: return v < k;
    case REL_LE: return v <= k;
    case REL_GT: return v > k;
    case REL_GE: return v >= k;
    }
    return 0;
}

/* ---- reading the forms ---- */

typedef struct ap_text {
    char name[256];     /* the identifier */
    char field[16];     /* after a dot: len, head, top, empty, full; else "" */
    int has_op;
    rel_op op;
    int64_t k;
} ap_text;

static const char *skip_blanks(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

/* IDENT [ "." FIELD ] [ OP INT ], blanks around OP; 0 when it has that
 * shape. */
static int split(const char *s, ap_text *a)
{
    memset(a, 0, sizeof *a);
    size_t n = 0;
    if (!(isalpha((unsigned char)*s) || *s == '_'))
        return -1;
    while (isalnum((unsigned char)s[n]) || s[n] == '_')
        n++;
    if (n >= sizeof a->name)
        return -1;
    memcpy(a->name, s, n);
    s += n;
    if (*s == '.') {
        s++;
        for (n = 0; isalpha((unsigned char)s[n]); n++)
            ;
        if (n == 0 || n >= sizeof a->field)
            return -1;
        memcpy(a->field, s, n);
        s += n;
    }
    s = skip_blanks(s);
    if (!*s)
        return 0;
    static const struct { const char *text; rel_op op; } ops[] = {
        { "==", REL_EQ }, { "!=", REL_NE }, { "<=", REL_LE }, { ">=", REL_GE },
        { "=", REL_EQ }, { "<", REL_LT }, { ">", REL_GT },
    };
    size_t i;
    for (i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (!strncmp(s, ops[i].text, strlen(ops[i].text)))
            break;
    if (i == sizeof ops / sizeof ops[0])
        return -1;
    s = skip_blanks(s + strlen(ops[i].text));
    const char *digits = *s == '-' ? s + 1 : s;
    if (!isdigit((unsigned char)*digits))
        return -1;
    errno = 0;
    char *end;
    long long k = strtoll(s, &end, 10);
    if (errno == ERANGE || *skip_blanks(end))
        return -1;
    a->has_op = 1;
    a->op = ops[i].op;
    a->k = k;
    return 0;
}

/* Rule 1: A.s */
static int64_t state_place(const cfa_model *m, const char *s)
{
    const char *dot = strchr(s, '.');
    if (!dot)
        return -1;
    int64_t a = cfa_find_automaton(m, s, (size_t)(dot - s));
    if (a < 0)
        return -1;
    const cfa_automaton *aut = &m->auts[a];
    int64_t i = cfa_find_state(aut, dot + 1);
    return i < 0 ? -1 : (int64_t)aut->first_place + i;
}

static tree_t *variable_cmp(const cfa_decl *d, const ap_text *a)
{
    places p = { 0 };
    uint64_t r = cfa_range_size(d);
    for (uint64_t i = 0; i < r; i++)
        if (holds((int64_t)((uint64_t)d->lo + i), a->op, a->k) &&
            places_add(&p, d->first_place + (uint32_t)i, 1) < 0) {
            free(p.v);
            return NULL;
        }
    return any_marked(&p);
}

static tree_t *length_cmp(const cfa_decl *d, rel_op op, int64_t k)
{
    places p = { 0 };
    for (uint32_t l = 0; l <= d->capacity; l++)
        if (holds(l, op, k) && places_add(&p, cfa_len_place(d, l), 1) < 0) {
            free(p.v);
            return NULL;
        }
    return any_marked(&p);
}

/* Rule 5.  A channel's oldest value is always in slot 0 (§5.1's canonical
 * slots); a stack's top is in slot len-1, so its test names the length. */
static tree_t *front_cmp(const cfa_decl *d, const ap_text *a)
{
    uint64_t r = cfa_range_size(d);
    if (d->kind == CFA_CHAN) {
        places p = { 0 };
        for (uint64_t i = 0; i < r; i++)
            if (holds((int64_t)((uint64_t)d->lo + i), a->op, a->k) &&
                places_add(&p, cfa_slot_first(d, 0) + (uint32_t)i, 1) < 0) {
                free(p.v);
                return NULL;
            }
        return any_marked(&p);
    }
    /* one disjunct per length: balanced, as a stack may be long */
    tree_chain any;
    tree_chain_start(&any, T_OR);
    int ok = tree_chain_add(&any, tree_const(0)) == 0;
    for (uint32_t l = 1; l <= d->capacity && ok; l++) {
        places p = { 0 };
        int bad = places_add(&p, cfa_len_place(d, l), 1) < 0;
        for (uint64_t i = 0; i < r && !bad; i++)
            if (holds((int64_t)((uint64_t)d->lo + i), a->op, a->k))
                bad = places_add(&p, cfa_slot_first(d, l - 1) + (uint32_t)i, 1) < 0;
        if (bad || p.n == 1) {   /* no value qualifies at this length */
            free(p.v);
            if (bad) {
                tree_chain_discard(&any);
                return NULL;
            }
            continue;
        }
        ok = tree_chain_add(&any, tree_cmp(p.v, p.n, -2, REL_GE)) == 0;
        free(p.v);
    }
    return tree_chain_end(&any);
}

static tree_t *label(const cfa_model *m, const cfa_label *l)
{
    places p = { 0 };
    for (size_t i = 0; i < l->n; i++)
        if (places_add(&p, m->auts[l->aut[i]].first_place + l->state[i], 1) < 0) {
            free(p.v);
            return NULL;
        }
    return any_marked(&p);
}

static tree_t *place_marked(uint32_t place)
{
    lin_term term = { place, 1 };
    return tree_cmp(&term, 1, -1, REL_GE);
}

static tree_t *fail(char *msg, size_t msglen, const char *fmt, const char *text)
{
    snprintf(msg, msglen, fmt, text);
    return NULL;
}

static tree_t *no_memory(char *msg, size_t msglen)
{
    return fail(msg, msglen, "%s", "out of memory");
}

static tree_t *state_formula(net_t *net, const cfa_model *m, const char *s, char *msg,
                             size_t msglen)
{
    int64_t place = state_place(m, s);
    if (place >= 0)
        return place_marked((uint32_t)place);
    ap_text a;
    if (split(s, &a) == 0) {
        int64_t d = cfa_find_decl(m, a.name);
        const cfa_decl *decl = d >= 0 ? &m->decls[d] : NULL;
        tree_t *t = NULL;
        if (decl && decl->kind == CFA_VAR && !a.field[0] && a.has_op) {
            t = variable_cmp(decl, &a);
        } else if (decl && decl->kind != CFA_VAR && !a.has_op &&
                   (!strcmp(a.field, "empty") || !strcmp(a.field, "full"))) {
            t = length_cmp(decl, REL_EQ, a.field[0] == 'e' ? 0 : (int64_t)decl->capacity);
        } else if (decl && decl->kind != CFA_VAR && a.has_op && !strcmp(a.field, "len")) {
            t = length_cmp(decl, a.op, a.k);
        } else if (decl && decl->kind != CFA_VAR && a.has_op &&
                   (!strcmp(a.field, "head") || !strcmp(a.field, "top"))) {
            int head = !strcmp(a.field, "head");
            if (head != (decl->kind == CFA_CHAN))
                return fail(msg, msglen, head ? "'%s' is a stack: its front is .top, not .head"
                                              : "'%s' is a channel: its front is .head, not .top",
                            a.name);
            t = front_cmp(decl, &a);
        } else {
            goto not_a_form;
        }
        return t ? t : no_memory(msg, msglen);
    }
not_a_form:;
    int64_t l = strmap_find(&m->label_index, s);
    if (l >= 0) {
        tree_t *t = label(m, &m->labels[l]);
        return t ? t : no_memory(msg, msglen);
    }
    place = nc_find_place(net, s);
    if (place >= 0)
        return place_marked((uint32_t)place);
    return fail(msg, msglen, "unknown atomic proposition \"%s\"", s);
}

/* In an arithmetic position: a variable's value, a buffer's length, a
 * place's token count. */
static tree_t *number(net_t *net, const cfa_model *m, const char *s, char *msg, size_t msglen)
{
    int64_t d = cfa_find_decl(m, s);
    places p = { 0 };
    if (d >= 0) {
        const cfa_decl *decl = &m->decls[d];
        int bad = 0;
        if (decl->kind == CFA_VAR) {
            uint64_t r = cfa_range_size(decl);
            for (uint64_t i = 0; i < r && !bad; i++) {
                int64_t v = (int64_t)((uint64_t)decl->lo + i);
                if (v)
                    bad = places_add(&p, decl->first_place + (uint32_t)i, v) < 0;
            }
        } else {
            for (uint32_t l = 1; l <= decl->capacity && !bad; l++)
                bad = places_add(&p, cfa_len_place(decl, l), l) < 0;
        }
        tree_t *t = bad ? NULL : tree_cmp(p.v, p.n, 0, REL_GE);
        free(p.v);
        return t ? t : no_memory(msg, msglen);
    }
    int64_t place = nc_find_place(net, s);
    if (place < 0)
        return fail(msg, msglen, "\"%s\" has no number: a variable, channel, stack or place "
                    "name is expected here", s);
    lin_term term = { (uint32_t)place, 1 };
    tree_t *t = tree_cmp(&term, 1, 0, REL_GE);
    return t ? t : no_memory(msg, msglen);
}

static tree_t *fireable(net_t *net, const cfa_model *m, const char *s, char *msg, size_t msglen)
{
    int64_t t = nc_find_transition(net, s);
    if (t >= 0) {
        uint32_t index = (uint32_t)t;
        return tree_fireable(&index, 1);
    }
    const char *dot = strchr(s, '.');
    int64_t a = dot ? cfa_find_automaton(m, s, (size_t)(dot - s)) : -1;
    if (a < 0)
        return fail(msg, msglen, "unknown transition \"%s\" (write A.src->dst, A.k or A.k.n)", s);
    const cfa_automaton *aut = &m->auts[a];
    const char *rest = dot + 1;
    const char *arrow = strstr(rest, "->");
    uint32_t *list = NULL;
    uint32_t n = 0;
    size_t total = 0;
    for (size_t k = 0; k < aut->ntrans; k++)
        total += aut->trans[k].nnet;
    list = malloc((total ? total : 1) * sizeof *list);
    if (!list)
        return no_memory(msg, msglen);
    int matched = 0;
    for (size_t k = 0; k < aut->ntrans; k++) {
        const cfa_trans *tr = &aut->trans[k];
        int take;
        if (arrow) {
            char src[256], dst[256];
            size_t sl = (size_t)(arrow - rest);
            if (sl >= sizeof src || strlen(arrow + 2) >= sizeof dst) {
                take = 0;
            } else {
                memcpy(src, rest, sl);
                src[sl] = 0;
                strcpy(dst, skip_blanks(arrow + 2));
                while (sl && (src[sl - 1] == ' ' || src[sl - 1] == '\t'))
                    src[--sl] = 0;
                take = !strcmp(aut->states[tr->src], src) && !strcmp(aut->states[tr->dst], dst);
            }
        } else {
            char number[24];
            snprintf(number, sizeof number, "%zu", k + 1);
            take = !strcmp(rest, number);
        }
        if (!take)
            continue;
        matched = 1;
        for (uint32_t i = 0; i < tr->nnet; i++)
            list[n++] = tr->first_net + i;
    }
    if (!matched) {
        free(list);
        return fail(msg, msglen, "unknown transition \"%s\" (write A.src->dst, A.k or A.k.n)", s);
    }
    /* a CFA transition no choice satisfies is never fireable */
    tree_t *f = n ? tree_fireable(list, n) : tree_const(0);
    free(list);
    return f ? f : no_memory(msg, msglen);
}

tree_t *cfa_resolve(net_t *net, void *lang_data, ap_pos pos, const char *text, char *msg,
                    size_t msglen)
{
    const cfa_model *m = lang_data;
    char s[512];
    text = skip_blanks(text);
    size_t len = strlen(text);
    while (len && (text[len - 1] == ' ' || text[len - 1] == '\t'))
        len--;
    if (len >= sizeof s)
        return fail(msg, msglen, "%s", "atomic proposition too long");
    memcpy(s, text, len);
    s[len] = 0;
    if (pos == AP_FIREABLE)
        return fireable(net, m, s, msg, msglen);
    if (pos == AP_COUNT)
        return number(net, m, s, msg, msglen);
    return state_formula(net, m, s, msg, msglen);
}

tree_t *cfa_formula(const char *path, net_t *net, prop_kind *kind)
{
    return formula_parse_file(path, net, net->lang_data, cfa_resolve, kind);
}
