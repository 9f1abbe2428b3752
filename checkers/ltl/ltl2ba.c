/* The tableau translation of ltl2ba.h.  Formulas are interned (equal
 * subformulas get one number), so that sets of obligations are bitsets
 * and states are found by their set. */
#include "checkers/ltl/ltl2ba.h"
#include "base/grow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXF 256
#define FW (MAXF / 64)

typedef struct fset {
    uint64_t w[FW];
} fset;

static int fs_has(const fset *s, uint32_t i) { return (s->w[i >> 6] >> (i & 63)) & 1; }
static void fs_add(fset *s, uint32_t i) { s->w[i >> 6] |= (uint64_t)1 << (i & 63); }
static void fs_del(fset *s, uint32_t i) { s->w[i >> 6] &= ~((uint64_t)1 << (i & 63)); }
static int fs_eq(const fset *a, const fset *b) { return !memcmp(a, b, sizeof *a); }

static int fs_subset(const fset *a, const fset *b)
{
    for (int k = 0; k < FW; k++)
        if (a->w[k] & ~b->w[k])
            return 0;
    return 1;
}

static int fs_first(const fset *s)
{
    for (int k = 0; k < FW; k++)
        if (s->w[k])
            return k * 64 + __builtin_ctzll(s->w[k]);
    return -1;
}

typedef enum { F_TRUE, F_FALSE, F_LEAF, F_AND, F_OR, F_X, F_U, F_R, F_F, F_G } fkind;

typedef struct fnode {
    const tree_t *t;
    fkind kind;
    uint32_t l, r;
    int acc;            /* F_U, F_F: its acceptance set */
} fnode;

typedef struct edge_b {
    fset cond;
    fset next;
    uint64_t acc;
    uint32_t dst;
} edge_b;

typedef struct sstate {
    fset obl;
    edge_b *edges;
    uint32_t nedges, cap;
} sstate;

typedef struct tr {
    fnode f[MAXF];
    uint32_t nf;
    uint32_t nacc;
    sstate *states;
    uint32_t nstates, max_states;
    size_t cstates;
    /* the branches of the state being expanded */
    edge_b *br;
    uint32_t nbr;
    size_t cbr;
    const char *err;
} tr;

/* ---- interning ---- */

static int64_t intern(tr *T, const tree_t *t)
{
    for (uint32_t i = 0; i < T->nf; i++)
        if (T->f[i].t == t || tree_equal(T->f[i].t, t))
            return i;
    fnode n = {t, F_LEAF, 0, 0, -1};
    if (tree_is_state_formula(t)) {
        n.kind = t->op == T_TRUE ? F_TRUE : t->op == T_FALSE ? F_FALSE : F_LEAF;
    } else {
        int64_t l = -1, r = -1;
        switch (t->op) {
        case T_AND: n.kind = F_AND; break;
        case T_OR: n.kind = F_OR; break;
        case T_X: n.kind = F_X; break;
        case T_U: n.kind = F_U; break;
        case T_R: n.kind = F_R; break;
        case T_F: n.kind = F_F; break;
        case T_G: n.kind = F_G; break;
        default:
            T->err = "not an LTL formula in negation normal form";
            return -1;
        }
        if ((l = intern(T, t->l)) < 0)
            return -1;
        if ((n.kind == F_AND || n.kind == F_OR || n.kind == F_U || n.kind == F_R) &&
            (r = intern(T, t->r)) < 0)
            return -1;
        n.l = (uint32_t)l;
        n.r = r < 0 ? 0 : (uint32_t)r;
        if (n.kind == F_U || n.kind == F_F) {
            if (T->nacc == TGBA_MAX_ACC) {
                T->err = "too many until operators";
                return -1;
            }
            n.acc = (int)T->nacc++;
        }
    }
    if (T->nf == MAXF) {
        T->err = "formula too large";
        return -1;
    }
    T->f[T->nf] = n;
    return T->nf++;
}

/* ---- expanding a set of obligations into branches ---- */

static int emit(tr *T, const fset *cond, const fset *next, uint64_t pending)
{
    if (T->nbr == UINT32_MAX || GROW(T->br, T->cbr, (size_t)T->nbr + 1) < 0) {
        T->err = "out of memory";
        return -1;
    }
    uint64_t all = T->nacc == 64 ? ~(uint64_t)0 : (((uint64_t)1 << T->nacc) - 1);
    T->br[T->nbr++] = (edge_b){*cond, *next, all & ~pending, 0};
    return 0;
}

static int expand(tr *T, fset todo, fset done, fset cond, fset next, uint64_t pending)
{
    for (;;) {
        int i = fs_first(&todo);
        if (i < 0)
            return emit(T, &cond, &next, pending);
        fs_del(&todo, (uint32_t)i);
        if (fs_has(&done, (uint32_t)i))
            continue;
        fs_add(&done, (uint32_t)i);
        const fnode *n = &T->f[i];
        switch (n->kind) {
        case F_TRUE:
            break;
        case F_FALSE:
            return 0;
        case F_LEAF:
            fs_add(&cond, (uint32_t)i);
            break;
        case F_AND:
            fs_add(&todo, n->l);
            fs_add(&todo, n->r);
            break;
        case F_X:
            fs_add(&next, n->l);
            break;
        case F_G:
            fs_add(&todo, n->l);
            fs_add(&next, (uint32_t)i);
            break;
        case F_OR:
        case F_U:
        case F_F:
        case F_R: {
            /* two branches: the first is explored by a recursive call,
             * the second by going on here */
            fset t1 = todo, n1 = next, t2 = todo, n2 = next;
            uint64_t p2 = pending;
            if (n->kind == F_OR) {
                fs_add(&t1, n->l);
                fs_add(&t2, n->r);
            } else if (n->kind == F_U || n->kind == F_F) {
                fs_add(&t1, n->kind == F_U ? n->r : n->l);   /* fulfilled now */
                if (n->kind == F_U)
                    fs_add(&t2, n->l);
                fs_add(&n2, (uint32_t)i);                    /* postponed */
                p2 |= (uint64_t)1 << n->acc;
            } else {   /* f R g: f and g now, or g now and f R g next */
                fs_add(&t1, n->l);
                fs_add(&t1, n->r);
                fs_add(&t2, n->r);
                fs_add(&n2, (uint32_t)i);
            }
            if (expand(T, t1, done, cond, n1, pending) < 0)
                return -1;
            todo = t2;
            next = n2;
            pending = p2;
            break;
        }
        }
    }
}

/* Drops branches another one makes redundant: same obligations next, a
 * weaker condition and at least the same acceptance. */
static void prune(tr *T)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < T->nbr; i++) {
        const edge_b *b = &T->br[i];
        int redundant = 0;
        for (uint32_t j = 0; j < T->nbr && !redundant; j++) {
            if (j == i)
                continue;
            const edge_b *a = &T->br[j];
            if (!fs_eq(&a->next, &b->next) || !fs_subset(&a->cond, &b->cond) ||
                (a->acc & b->acc) != b->acc)
                continue;
            int same = fs_eq(&a->cond, &b->cond) && a->acc == b->acc;
            redundant = !same || j < i;   /* of equal ones keep the first */
        }
        if (!redundant)
            T->br[k++] = *b;
    }
    T->nbr = k;
}

static int64_t state_of(tr *T, const fset *obl)
{
    for (uint32_t i = 0; i < T->nstates; i++)
        if (fs_eq(&T->states[i].obl, obl))
            return i;
    if (T->nstates == T->max_states) {
        T->err = "automaton too large";
        return -1;
    }
    if (GROW(T->states, T->cstates, (size_t)T->nstates + 1) < 0) {
        T->err = "out of memory";
        return -1;
    }
    T->states[T->nstates] = (sstate){*obl, NULL, 0, 0};
    return T->nstates++;
}

/* ---- after the construction ---- */

static int edge_cmp(const void *x, const void *y)
{
    const edge_b *a = x, *b = y;
    if (a->dst != b->dst)
        return a->dst < b->dst ? -1 : 1;
    if (a->acc != b->acc)
        return a->acc < b->acc ? -1 : 1;
    return memcmp(&a->cond, &b->cond, sizeof a->cond);
}

static int same_edges(const sstate *a, const sstate *b)
{
    if (a->nedges != b->nedges)
        return 0;
    for (uint32_t i = 0; i < a->nedges; i++)
        if (edge_cmp(&a->edges[i], &b->edges[i]))
            return 0;
    return 1;
}

/* Merges states with the same transitions until none are left; the
 * initial state stays 0. */
static void merge_states(tr *T)
{
    uint32_t *rep = malloc(T->nstates * sizeof *rep);
    if (!rep)
        return;
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t i = 0; i < T->nstates; i++) {
            qsort(T->states[i].edges, T->states[i].nedges, sizeof(edge_b), edge_cmp);
            rep[i] = i;
        }
        for (uint32_t i = 0; i < T->nstates; i++)
            for (uint32_t j = 0; j < i && rep[i] == i; j++)
                if (rep[j] == j && same_edges(&T->states[i], &T->states[j]))
                    rep[i] = j, changed = 1;
        if (!changed)
            break;
        /* renumber the representatives densely */
        uint32_t *num = malloc(T->nstates * sizeof *num), k = 0;
        if (!num)
            break;
        for (uint32_t i = 0; i < T->nstates; i++)
            num[i] = rep[i] == i ? k++ : UINT32_MAX;
        for (uint32_t i = 0; i < T->nstates; i++) {
            if (rep[i] != i) {
                free(T->states[i].edges);
                continue;
            }
            sstate *s = &T->states[i];
            for (uint32_t e = 0; e < s->nedges; e++)
                s->edges[e].dst = num[rep[s->edges[e].dst]];
            T->states[num[i]] = *s;
        }
        T->nstates = k;
        free(num);
    }
    free(rep);
}

/* Removes acceptance sets that hold every transition. */
static void drop_trivial_acc(tr *T)
{
    for (int bit = (int)T->nacc - 1; bit >= 0; bit--) {
        int everywhere = 1;
        for (uint32_t i = 0; i < T->nstates && everywhere; i++)
            for (uint32_t e = 0; e < T->states[i].nedges && everywhere; e++)
                everywhere = (T->states[i].edges[e].acc >> bit) & 1;
        if (!everywhere)
            continue;
        uint64_t low = ((uint64_t)1 << bit) - 1;
        for (uint32_t i = 0; i < T->nstates; i++)
            for (uint32_t e = 0; e < T->states[i].nedges; e++) {
                uint64_t a = T->states[i].edges[e].acc;
                T->states[i].edges[e].acc = (a & low) | ((a >> 1) & ~low);
            }
        T->nacc--;
    }
}

static void tr_free(tr *T)
{
    for (uint32_t i = 0; i < T->nstates; i++)
        free(T->states[i].edges);
    free(T->states);
    free(T->br);
}

static tgba *finish(tr *T, tree_t *formula)
{
    tgba *a = calloc(1, sizeof *a);
    if (!a || !(a->states = calloc(T->nstates ? T->nstates : 1, sizeof *a->states))) {
        free(a);
        return NULL;
    }
    a->nstates = T->nstates;
    a->nacc = T->nacc;
    a->all_acc = T->nacc == 64 ? ~(uint64_t)0 : (((uint64_t)1 << T->nacc) - 1);
    a->formula = formula;
    for (uint32_t i = 0; i < T->nstates; i++) {
        sstate *s = &T->states[i];
        tgba_state *d = &a->states[i];
        d->edges = calloc(s->nedges ? s->nedges : 1, sizeof *d->edges);
        if (!d->edges) {
            tgba_free(a);
            return NULL;
        }
        d->nedges = s->nedges;
        for (uint32_t e = 0; e < s->nedges; e++) {
            tgba_edge *de = &d->edges[e];
            de->dst = s->edges[e].dst;
            de->acc = s->edges[e].acc;
            uint32_t n = 0;
            for (uint32_t f = 0; f < T->nf; f++)
                n += fs_has(&s->edges[e].cond, f);
            de->cond = calloc(n ? n : 1, sizeof *de->cond);
            if (!de->cond) {
                tgba_free(a);
                return NULL;
            }
            for (uint32_t f = 0; f < T->nf; f++)
                if (fs_has(&s->edges[e].cond, f))
                    de->cond[de->ncond++] = T->f[f].t;
        }
    }
    return a;
}

tgba *ltl_to_tgba(const tree_t *phi, uint32_t max_states, char *why, size_t whylen)
{
    size_t size = tree_nnf_size(phi);
    if (size > TREE_NNF_MAX_NODES) {
        snprintf(why, whylen, "formula too large in negation normal form: %zu nodes, at most %u "
                 "(<-> copies both sides)", size, TREE_NNF_MAX_NODES);
        return NULL;
    }
    tree_t *f = tree_fold(tree_nnf(tree_copy(phi)));
    if (!f) {
        snprintf(why, whylen, "out of memory");
        return NULL;
    }
    tr *T = calloc(1, sizeof *T);
    if (!T) {
        tree_free(f);
        snprintf(why, whylen, "out of memory");
        return NULL;
    }
    T->max_states = max_states ? max_states : UINT32_MAX;
    tgba *a = NULL;
    int64_t root = intern(T, f);
    fset init;
    memset(&init, 0, sizeof init);
    if (root >= 0) {
        fs_add(&init, (uint32_t)root);
        if (state_of(T, &init) < 0)
            root = -1;
    }
    for (uint32_t s = 0; root >= 0 && s < T->nstates; s++) {
        fset none;
        memset(&none, 0, sizeof none);
        T->nbr = 0;
        if (expand(T, T->states[s].obl, none, none, none, 0) < 0)
            break;
        prune(T);
        edge_b *edges = malloc((T->nbr ? T->nbr : 1) * sizeof *edges);
        if (!edges) {
            T->err = "out of memory";
            break;
        }
        uint32_t n = 0;
        for (uint32_t b = 0; b < T->nbr; b++) {
            int64_t d = state_of(T, &T->br[b].next);
            if (d < 0)
                break;
            edges[n] = T->br[b];
            edges[n++].dst = (uint32_t)d;
        }
        T->states[s].edges = edges;
        T->states[s].nedges = n;
        if (T->err)
            break;
    }
    if (!T->err && root >= 0) {
        merge_states(T);
        drop_trivial_acc(T);
        a = finish(T, f);
        if (!a)
            T->err = "out of memory";
    }
    if (!a) {
        snprintf(why, whylen, "%s", T->err ? T->err : "out of memory");
        tree_free(f);
    }
    tr_free(T);
    free(T);
    return a;
}

void tgba_free(tgba *a)
{
    if (!a)
        return;
    for (uint32_t i = 0; i < a->nstates; i++) {
        for (uint32_t e = 0; e < a->states[i].nedges; e++)
            free(a->states[i].edges[e].cond);
        free(a->states[i].edges);
    }
    free(a->states);
    tree_free(a->formula);
    free(a);
}

void tgba_print(FILE *out, const tgba *a)
{
    fprintf(out, "TGBA: %u states, %u acceptance sets\n", a->nstates, a->nacc);
    for (uint32_t i = 0; i < a->nstates; i++)
        for (uint32_t e = 0; e < a->states[i].nedges; e++) {
            const tgba_edge *d = &a->states[i].edges[e];
            fprintf(out, "  %u -> %u [", i, d->dst);
            for (uint32_t c = 0; c < d->ncond; c++) {
                fputs(c ? " & " : "", out);
                tree_print(out, d->cond[c]);
            }
            fprintf(out, "%s] acc {", d->ncond ? "" : "true");
            for (uint32_t k = 0; k < a->nacc; k++)
                if ((d->acc >> k) & 1)
                    fprintf(out, " %u", k);
            fputs(" }\n", out);
        }
}
