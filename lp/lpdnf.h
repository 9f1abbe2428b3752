/* lpdnf: a state formula as a disjunction of conjunctions of linear
 * constraints on the marking, for linear programming.
 *
 * The result over-approximates the formula: every marking satisfying the
 * formula satisfies some disjunct.  Where the exact form would have more
 * than `cap` disjuncts, parts are weakened (a conjunct dropped, a
 * disjunction replaced by true) and `relaxed` is set; nothing is ever
 * strengthened, so an infeasible disjunct still proves its part of the
 * formula impossible.  Strict comparisons are tightened by one because
 * markings and coefficients are integers. */
#ifndef MCK_LPDNF_H
#define MCK_LPDNF_H

#include <stdint.h>
#include "base/netconv.h"
#include "base/tree.h"

typedef enum { LC_LE, LC_GE, LC_EQ } lc_rel;

/* sum(terms[i].coef * M(terms[i].place)) + constant REL 0 */
typedef struct lincon {
    lin_term *terms;    /* a place may repeat: its coefficients add up */
    uint32_t nterms;
    __int128 constant;
    lc_rel rel;
} lincon;

typedef struct lindnf {
    lincon *cons;       /* pool shared by the disjuncts */
    uint32_t ncons;
    size_t capcons;
    /* disjunct d is the conjunction of cons[items[i]] for i in
     * [start[d], start[d + 1]); no disjunct at all means false */
    uint32_t ndisj;
    uint32_t *start, *items;
    int relaxed;
} lindnf;

/* 0, or -1 when memory ran out, phi is not a state formula, or its
 * negation normal form is larger than TREE_NNF_MAX_NODES (out is then
 * empty).  phi is not changed. */
int lindnf_build(const cnet_t *cn, const tree_t *phi, uint32_t cap, lindnf *out);
void lindnf_free(lindnf *d);

#endif
