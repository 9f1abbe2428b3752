/* The letters of a formula (composeint.h): an LTL formula over action
 * propositions reads a step only as the set of its propositions that
 * hold there, so transitions with the same set are one letter to it, and
 * every transition no proposition names is the one letter of none. */
#include "checkers/compose/composeint.h"

#include <stdlib.h>
#include <string.h>

/* Formula trees are the one thing walked recursively (their depth is
 * bounded where they are parsed: docs/architecture.md). */
static uint32_t count_atoms(const tree_t *t)
{
    if (!t)
        return 0;
    return (t->op == T_ACTION) + count_atoms(t->l) + count_atoms(t->r);
}

static void list_atoms(const tree_t *t, const tree_t **out, uint32_t *n)
{
    if (!t)
        return;
    if (t->op == T_ACTION)
        out[(*n)++] = t;
    list_atoms(t->l, out, n);
    list_atoms(t->r, out, n);
}

static uint64_t hash_words(const uint64_t *w, uint32_t n)
{
    uint64_t h = 0x9e3779b97f4a7c15ull;
    for (uint32_t i = 0; i < n; i++)
        h = (h ^ w[i]) * 0xff51afd7ed558ccdull;
    return h ^ (h >> 29);
}

int co_letters_find(co_mem *cm, const cnet_t *cn, const tree_t *formula, co_letters *L)
{
    memset(L, 0, sizeof *L);
    uint32_t T = cn->ntransitions;
    L->natoms = count_atoms(formula);
    L->words = L->natoms ? (L->natoms + 63) / 64 : 1;
    L->empty = CO_NONE;
    if (!(L->atoms = co_alloc(cm, L->natoms, sizeof *L->atoms)) ||
        !(L->trans_letter = co_alloc(cm, T, sizeof(uint32_t))))
        return -1;
    uint32_t n = 0;
    list_atoms(formula, L->atoms, &n);
    size_t words = L->words;
    uint64_t *vec = co_alloc(cm, (size_t)T * words, sizeof *vec);
    /* a letter per transition at most: the table's room is fixed */
    L->bits = co_alloc(cm, ((size_t)T + 1) * words, sizeof *L->bits);
    size_t nslots = 16;
    while (nslots < 2 * ((size_t)T + 1))
        nslots *= 2;
    uint32_t *slot = co_alloc(cm, nslots, sizeof *slot);
    int rc = -1;
    if (!vec || !L->bits || !slot)
        goto out;
    for (uint32_t k = 0; k < L->natoms; k++) {
        const tree_t *a = L->atoms[k];
        for (uint32_t i = 0; i < a->n; i++)
            if (a->items[i] < T)
                vec[(size_t)a->items[i] * words + k / 64] |= 1ull << (k % 64);
    }
    for (uint32_t t = 0; t < T; t++) {
        const uint64_t *v = vec + (size_t)t * words;
        size_t i = (size_t)hash_words(v, L->words) & (nslots - 1);
        while (slot[i] && memcmp(L->bits + (size_t)(slot[i] - 1) * words, v, words * 8))
            i = (i + 1) & (nslots - 1);
        if (!slot[i]) {
            memcpy(L->bits + (size_t)L->nletters * words, v, words * 8);
            slot[i] = ++L->nletters;
            int empty = 1;
            for (uint32_t w = 0; w < L->words; w++)
                empty &= !v[w];
            if (empty)
                L->empty = L->nletters - 1;
        }
        L->trans_letter[t] = slot[i] - 1;
    }
    rc = 0;
out:
    co_free(cm, vec, (size_t)T * words, sizeof *vec);
    co_free(cm, slot, nslots, sizeof *slot);
    return rc;
}

void co_letters_free(co_mem *cm, const cnet_t *cn, co_letters *L)
{
    co_free(cm, L->atoms, L->natoms, sizeof *L->atoms);
    co_free(cm, L->trans_letter, cn->ntransitions, sizeof(uint32_t));
    co_free(cm, L->bits, ((size_t)cn->ntransitions + 1) * L->words, sizeof *L->bits);
    memset(L, 0, sizeof *L);
}

static int rewrite(const co_letters *L, tree_t *t, uint32_t *k, const uint32_t *letter_of,
                   uint32_t ntransitions, uint32_t *buf)
{
    if (!t)
        return 0;
    if (t->op == T_ACTION) {
        uint32_t atom = (*k)++, n = 0;
        for (uint32_t u = 0; u < ntransitions; u++)
            if (co_letter_has(L, letter_of[u], atom))
                buf[n++] = u;
        uint32_t *items = malloc((n ? n : 1) * sizeof *items);
        if (!items)
            return -1;
        memcpy(items, buf, n * sizeof *items);
        free(t->items);
        t->items = items;
        t->n = n;
    }
    if (rewrite(L, t->l, k, letter_of, ntransitions, buf) < 0)
        return -1;
    return rewrite(L, t->r, k, letter_of, ntransitions, buf);
}

tree_t *co_letters_formula(const co_letters *L, const tree_t *formula, const uint32_t *letter_of,
                           uint32_t ntransitions)
{
    tree_t *f = tree_copy(formula);
    uint32_t *buf = malloc((ntransitions ? ntransitions : 1) * sizeof *buf);
    uint32_t k = 0;
    if (!f || !buf || rewrite(L, f, &k, letter_of, ntransitions, buf) < 0) {
        tree_free(f);
        f = NULL;
    }
    free(buf);
    return f;
}
