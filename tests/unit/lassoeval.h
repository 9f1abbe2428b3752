/* LTL from its definition on a lasso: positions 0..n-1, position n-1
 * followed by position loop.  Each subformula is a value per position,
 * U and F the least, R and G the greatest solution of their one-step
 * equations, iterated until nothing changes.  The tests that check LTL
 * answers against the definition share it; only the values of the state
 * formulas at the positions differ (a Kripke state, a net marking). */
#ifndef MCK_TEST_LASSOEVAL_H
#define MCK_TEST_LASSOEVAL_H

#include <stdlib.h>
#include <string.h>
#include "base/tree.h"

/* The value (0 or 1) of a state formula at a position. */
typedef int (*lasso_atom)(void *ctx, size_t pos, const tree_t *f);

/* v[0..n) gets f's value at each position; 2 (neither) where memory ran
 * out or an operator is not LTL, so that a check on it fails. */
static inline void lasso_eval(const tree_t *f, size_t n, size_t loop, lasso_atom atom, void *ctx,
                              char *v)
{
    if (tree_is_state_formula(f)) {
        for (size_t i = 0; i < n; i++)
            v[i] = (char)(atom(ctx, i, f) == 1);
        return;
    }
    char *a = malloc(n ? n : 1), *b = malloc(n ? n : 1);
    if (!a || !b) {
        free(a);
        free(b);
        memset(v, 2, n);
        return;
    }
    lasso_eval(f->l, n, loop, atom, ctx, a);
    if (f->r)
        lasso_eval(f->r, n, loop, atom, ctx, b);
    int least = f->op == T_U || f->op == T_F;
    memset(v, !least, n);
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t i = n; i-- > 0;) {
            size_t nx = i + 1 < n ? i + 1 : loop;
            int x;
            switch (f->op) {
            case T_NOT: x = !a[i]; break;
            case T_AND: x = a[i] && b[i]; break;
            case T_OR: x = a[i] || b[i]; break;
            case T_IMPLIES: x = !a[i] || b[i]; break;
            case T_IFF: x = !a[i] == !b[i]; break;
            case T_X: x = a[nx]; break;
            case T_F: x = a[i] || v[nx]; break;
            case T_G: x = a[i] && v[nx]; break;
            case T_U: x = b[i] || (a[i] && v[nx]); break;
            case T_R: x = b[i] && (a[i] || v[nx]); break;
            default: x = 2; break;
            }
            if (x != v[i]) {
                v[i] = (char)x;
                changed = x != 2;
            }
        }
    }
    free(a);
    free(b);
}

#endif
