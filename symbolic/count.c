/* Exact numbers of markings and edges, with GMP: the diagrams' counts pass
 * 2^64 long before their nodes run out. */
#include "symbolic/symint.h"

#include <gmp.h>
#include <stdlib.h>
#include <string.h>

/* Current variables at levels [a, b): the even ones (levels are variables:
 * BuDDy never reorders here). */
static unsigned long curs_between(int a, int b)
{
    return (unsigned long)((b + 1) / 2 - (a + 1) / 2);
}

/* What the counting walks reuse from one set to the next: the edges are
 * counted set by set, one per transition, and a memo the size of the
 * node table cleared for each would cost more than the walks. */
typedef struct counter {
    int32_t *memo;       /* per node: its value's index in val, or -1 */
    size_t memo_len;
    BDD *seen;           /* the nodes memo holds, to clear them after */
    mpz_t *val;          /* val[0..ninit) initialised, kept for reuse */
    size_t seen_cap, val_cap, ninit;
    BDD *stack;
    size_t stack_cap;
} counter;

static void counter_free(counter *c)
{
    for (size_t i = 0; i < c->ninit; i++)
        mpz_clear(c->val[i]);
    free(c->memo);
    free(c->seen);
    free(c->val);
    free(c->stack);
}

/* p with room for need items of size bytes (*cap updated), or NULL with
 * p left as it was. */
static void *grow(void *p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return p;
    size_t n = *cap ? *cap : 64;
    while (n < need)
        n *= 2;
    void *q = realloc(p, n * size);
    if (q)
        *cap = n;
    return q;
}

#define GROW(ptr, cap, need) \
    ((tmp = grow((ptr), &(cap), (need), sizeof *(ptr))) ? ((ptr) = tmp, 1) : 0)

/* The markings of f (over current variables), exactly, into out: a
 * post-order walk with its own stack, each node counted once. */
static int count_set(sym_t *s, counter *c, BDD f, mpz_t out)
{
    size_t nodes = (size_t)bdd_getallocnum();
    if (c->memo_len < nodes) {
        int32_t *m = realloc(c->memo, nodes * sizeof *m);
        if (!m) {
            sym_nomem(s);
            return -1;
        }
        memset(m + c->memo_len, 0xff, (nodes - c->memo_len) * sizeof *m);
        c->memo = m;
        c->memo_len = nodes;
    }
    size_t top = 0, nvals = 0;
    void *tmp;
    int ok = 1;
    if (f != bdd_false() && f != bdd_true()) {
        ok = GROW(c->stack, c->stack_cap, 1);
        if (ok)
            c->stack[top++] = f;
    }
    while (ok && top) {
        BDD n = c->stack[top - 1];
        if (c->memo[n] >= 0) {
            top--;
            continue;
        }
        BDD kids[2] = {bdd_low(n), bdd_high(n)};
        int pushed = 0;
        for (int k = 0; k < 2 && ok; k++) {
            BDD x = kids[k];
            if (x != bdd_false() && x != bdd_true() && c->memo[x] < 0) {
                ok = GROW(c->stack, c->stack_cap, top + 1);
                if (ok)
                    c->stack[top++] = x;
                pushed = 1;
            }
        }
        if (!ok || pushed)
            continue;
        top--;
        if (!GROW(c->val, c->val_cap, nvals + 1) || !GROW(c->seen, c->seen_cap, nvals + 1)) {
            ok = 0;
            break;
        }
        if (nvals == c->ninit)
            mpz_init(c->val[c->ninit++]);
        mpz_ptr v = c->val[nvals];
        int lv = level_of(s, n);
        mpz_set_ui(v, 0);
        for (int k = 0; k < 2; k++) {
            BDD x = kids[k];
            if (x == bdd_false())
                continue;
            unsigned long free_bits = curs_between(lv + 1, level_of(s, x));
            if (x == bdd_true()) {
                mpz_t one;
                mpz_init_set_ui(one, 1);
                mpz_mul_2exp(one, one, free_bits);
                mpz_add(v, v, one);
                mpz_clear(one);
            } else {
                mpz_t part;
                mpz_init(part);
                mpz_mul_2exp(part, c->val[c->memo[x]], free_bits);
                mpz_add(v, v, part);
                mpz_clear(part);
            }
        }
        c->seen[nvals] = n;
        c->memo[n] = (int32_t)nvals++;
    }
    if (ok) {
        if (f == bdd_false())
            mpz_set_ui(out, 0);
        else if (f == bdd_true())
            mpz_set_ui(out, 1);
        else
            mpz_set(out, c->val[c->memo[f]]);
        mpz_mul_2exp(out, out, curs_between(0, level_of(s, f)));
    }
    for (size_t i = 0; i < nvals; i++)
        c->memo[c->seen[i]] = -1;
    if (!ok)
        sym_nomem(s);
    return ok ? 0 : -1;
}

static char *decimal(sym_t *s, mpz_t v)
{
    char *text = mpz_get_str(NULL, 10, v);
    if (!text)
        sym_nomem(s);
    return text;
}

char *sym_count_states(sym_t *s)
{
    if (sym_failed(s))
        return NULL;
    mpz_t n;
    mpz_init(n);
    counter c = {0};
    char *text = count_set(s, &c, s->reach, n) < 0 ? NULL : decimal(s, n);
    counter_free(&c);
    mpz_clear(n);
    return text;
}

char *sym_count_edges(sym_t *s)
{
    if (!s->reached || sym_failed(s))
        return NULL;
    mpz_t sum, n;
    mpz_inits(sum, n, NULL);
    int ok = 1;
    counter c = {0};
    for (uint32_t t = 0; ok && t < s->cn->ntransitions; t++) {
        BDD x = o_and(s->reach, s->tr[t].en);
        ok = !sym_stop(s) && count_set(s, &c, x, n) == 0;
        drop(x);
        mpz_add(sum, sum, n);
    }
    char *text = ok ? decimal(s, sum) : NULL;
    counter_free(&c);
    mpz_clears(sum, n, NULL);
    return text;
}
