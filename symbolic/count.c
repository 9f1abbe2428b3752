/* Exact numbers of markings and edges, with GMP: the diagrams' counts pass
 * 2^64 long before their nodes run out. */
#include "symbolic/symint.h"
#include "base/grow.h"

#include <gmp.h>
#include <stdlib.h>
#include <string.h>

/* Current variables at levels [a, b): the multiples of VARS_PER_BIT
 * (levels are variables: BuDDy never reorders here). */
static unsigned long curs_between(int a, int b)
{
    return (unsigned long)((b + VARS_PER_BIT - 1) / VARS_PER_BIT -
                           (a + VARS_PER_BIT - 1) / VARS_PER_BIT);
}

/* A counted node's number, and the room GMP holds for it: the room is
 * set here (mpz_init2, mpz_realloc2) before a value is stored, so that
 * GMP never grows it unseen and the bytes charged are the bytes held. */
typedef struct value {
    mpz_t n;
    size_t limbs;
} value;

/* What the counting walks reuse from one set to the next: the edges are
 * counted set by set, one per transition, and a memo the size of the
 * node table cleared for each would cost more than the walks.  All of it
 * is charged to the engine's symbolic.count bytes: the memo is a word per
 * node of the table, and the values of a diagram of many variables are
 * long numbers. */
typedef struct counter {
    int32_t *memo;       /* per node: its value's index in val, or -1 */
    size_t memo_cap;
    BDD *seen;           /* the nodes memo holds, to clear them after */
    value *val;          /* val[0..ninit) initialised, kept for reuse */
    size_t seen_cap, val_cap, ninit;
    BDD *stack;
    size_t stack_cap;
    /* the sum being made and one term of it, with room for any count of
     * the diagram's variables */
    mpz_t acc, part;
    int scratch;         /* acc and part initialised */
    size_t charged, limit;
} counter;

/* Limbs GMP gives a number of bits (mpz_init2, mpz_realloc2). */
static size_t limbs_for(size_t bits)
{
    return bits ? (bits + GMP_NUMB_BITS - 1) / GMP_NUMB_BITS : 1;
}

/* Takes bytes more from the counter's budget: 0, or -1 past it. */
static int charge(counter *c, size_t bytes)
{
    if (c->charged > c->limit || bytes > c->limit - c->charged)
        return -1;
    c->charged += bytes;
    return 0;
}

static void counter_init(counter *c, const sym_t *s)
{
    memset(c, 0, sizeof *c);
    c->limit = s->count_bytes;
}

/* The scratch numbers: a count over the nbits current variables is at
 * most 2^nbits, and GMP's sums and shifts ask for a limb beyond their
 * operands. */
static int counter_scratch(counter *c, const sym_t *s)
{
    if (c->scratch)
        return 0;
    size_t limbs = limbs_for((size_t)s->nbits + 1) + 1;
    if (charge(c, 2 * limbs * sizeof(mp_limb_t)) < 0)
        return -1;
    mpz_init2(c->acc, (mp_bitcnt_t)(limbs * GMP_NUMB_BITS));
    mpz_init2(c->part, (mp_bitcnt_t)(limbs * GMP_NUMB_BITS));
    c->scratch = 1;
    return 0;
}

static void counter_free(counter *c)
{
    for (size_t i = 0; i < c->ninit; i++)
        mpz_clear(c->val[i].n);
    if (c->scratch)
        mpz_clears(c->acc, c->part, NULL);
    free(c->memo);
    free(c->seen);
    free(c->val);
    free(c->stack);
}

/* Room for need elements of a counter's array, charged. */
#define ROOM(c, arr, cap, need) \
    (grow_charged(&(arr), &(cap), (need), sizeof *(arr), (need), &(c)->charged, (c)->limit, 0) == 0)

/* val[i] set to acc, with the room it needs charged. */
static int store_value(counter *c, size_t i)
{
    size_t limbs = limbs_for(mpz_sizeinbase(c->acc, 2));
    if (i == c->ninit) {
        if (charge(c, limbs * sizeof(mp_limb_t)) < 0)
            return -1;
        mpz_init2(c->val[i].n, (mp_bitcnt_t)(limbs * GMP_NUMB_BITS));
        c->val[i].limbs = limbs;
        c->ninit++;
    } else if (c->val[i].limbs < limbs) {
        if (charge(c, (limbs - c->val[i].limbs) * sizeof(mp_limb_t)) < 0)
            return -1;
        mpz_realloc2(c->val[i].n, (mp_bitcnt_t)(limbs * GMP_NUMB_BITS));
        c->val[i].limbs = limbs;
    }
    mpz_set(c->val[i].n, c->acc);
    return 0;
}

/* The markings of f (over current variables), exactly, into out: a
 * post-order walk with its own stack, each node counted once. */
static int count_set(sym_t *s, counter *c, BDD f, mpz_t out)
{
    size_t nodes = (size_t)bdd_getallocnum(), had = c->memo_cap;
    if (grow_charged(&c->memo, &c->memo_cap, nodes, sizeof *c->memo, nodes, &c->charged,
                     c->limit, 0) < 0 || counter_scratch(c, s) < 0) {
        sym_nomem(s);
        return -1;
    }
    memset(c->memo + had, 0xff, (c->memo_cap - had) * sizeof *c->memo);
    /* a value and a memo entry per node of f: room for all at once, so
     * that doubling does not charge twice what the walk needs */
    int size = bdd_nodecount(f);
    if (size > 0 && (!ROOM(c, c->val, c->val_cap, (size_t)size) ||
                     !ROOM(c, c->seen, c->seen_cap, (size_t)size))) {
        sym_nomem(s);
        return -1;
    }
    size_t top = 0, nvals = 0;
    int ok = 1;
    if (f != bdd_false() && f != bdd_true()) {
        ok = ROOM(c, c->stack, c->stack_cap, 1);
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
                ok = ROOM(c, c->stack, c->stack_cap, top + 1);
                if (ok)
                    c->stack[top++] = x;
                pushed = 1;
            }
        }
        if (!ok || pushed)
            continue;
        top--;
        if (!ROOM(c, c->val, c->val_cap, nvals + 1) || !ROOM(c, c->seen, c->seen_cap, nvals + 1)) {
            ok = 0;
            break;
        }
        int lv = level_of(s, n);
        mpz_set_ui(c->acc, 0);
        for (int k = 0; k < 2; k++) {
            BDD x = kids[k];
            if (x == bdd_false())
                continue;
            if (x == bdd_true())
                mpz_set_ui(c->part, 1);
            else
                mpz_set(c->part, c->val[c->memo[x]].n);
            mpz_mul_2exp(c->part, c->part, curs_between(lv + 1, level_of(s, x)));
            mpz_add(c->acc, c->acc, c->part);
        }
        if (store_value(c, nvals) < 0) {
            ok = 0;
            break;
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
            mpz_set(out, c->val[c->memo[f]].n);
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
    counter c;
    counter_init(&c, s);
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
    counter c;
    counter_init(&c, s);
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
