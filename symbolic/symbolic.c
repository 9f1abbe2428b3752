/* The symbolic engine (symbolic.h) on BuDDy.
 *
 * BuDDy frees every node nobody holds a reference to at its next garbage
 * collection, which any operation may start: every diagram kept across an
 * operation here is referenced (the o_* helpers return referenced
 * results, drop() lets one go), the operands of each call included. */
#include "symbolic/symbolic.h"

#include <bdd.h>
#include <bvec.h>
#include <gmp.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bytes a node costs at most: BuDDy's node is 20 bytes, the table may be
 * realloc'd to twice its size while the old one still exists, and its six
 * operator caches of 16-byte entries are a quarter of the table's length
 * (CACHE_RATIO) each. */
#define BYTES_PER_NODE 64
#define CACHE_RATIO 4
/* The table starts at most this large and doubles as it fills: a small
 * net's run should not pay to initialise a table the budget would allow. */
#define INITIAL_NODES (1 << 16)
/* Below this, not even the relations fit. */
#define MIN_NODES 1024
/* BuDDy's variable numbers are below 2^21 (its MAXVAR). */
#define MAX_VARS 0x1ffffe
/* The dead markings are one diagram while it takes fewer nodes than this. */
#define DEAD_NODES_MAX (1 << 20)
/* Comparisons of a formula are done in this many bits at most. */
#define MAX_CMP_BITS 126

typedef unsigned __int128 u128;

typedef struct blk {
    uint32_t first;     /* global number of its most significant bit */
    uint32_t width;
    uint32_t n;         /* 1 for a place; a group's number of places */
    uint32_t *places;   /* a group's places (value i: places[i] has the token) */
} blk;

typedef struct trel {
    BDD en;             /* enabled, over current variables */
    BDD rel;            /* enabled, and the next values of the blocks it changes */
    BDD ovf;            /* enabled where firing would pass a block's width */
    BDD curcube, nxtcube;
    bddPair *to_nxt;    /* made by the first witness that needs it */
    uint32_t top;       /* the topmost bit it reads or changes */
    int moves;          /* changes some block (else its image adds nothing) */
} trel;

struct sym {
    const cnet_t *cn;
    const budget_t *budget;
    uint32_t nblocks, nbits, ngroups;
    blk *blocks;
    uint32_t *block_of, *pos_in;   /* per place: its block, its value in a group */
    trel *tr;
    uint32_t *order;                /* the moving transitions, bottom group first */
    uint32_t nmoving;
    BDD init, reach, goal, allcur;
    /* every next variable to its current one: an image has next variables
     * only for the blocks its transition changes, so one pair serves all */
    bddPair *to_cur;
    /* the goal: none, a deadlock (never built whole: the conjunction of
     * every transition's disabling can be far larger than the reachable
     * markings it is taken with), or the formula's markings in goal */
    enum { GOAL_NONE, GOAL_DEAD, GOAL_SET } goal_kind;
    int reached;
    char reason[160];
};

/* ---- BuDDy's errors: recorded, never an exit ---- */

static int bdd_failed, bdd_code;

static void on_bdd_error(int code)
{
    if (!bdd_failed)
        bdd_code = code;
    bdd_failed = 1;
}

/* Whether BuDDy failed since the manager started; the reason is set once. */
static int failed(sym_t *s)
{
    if (!bdd_failed)
        return 0;
    if (!s->reason[0]) {
        if (bdd_code == BDD_MEMORY || bdd_code == BDD_NODENUM)
            snprintf(s->reason, sizeof s->reason, "memory budget exhausted");
        else
            snprintf(s->reason, sizeof s->reason, "symbolic: BuDDy: %s",
                     bdd_errstring(bdd_code) ? bdd_errstring(bdd_code) : "unknown error");
    }
    return 1;
}

static int stop(sym_t *s)
{
    if (failed(s))
        return 1;
    if (*s->budget->interrupted) {
        snprintf(s->reason, sizeof s->reason, "interrupted");
        return 1;
    }
    if (budget_expired(s->budget)) {
        snprintf(s->reason, sizeof s->reason, "time limit reached");
        return 1;
    }
    return 0;
}

static void nomem(sym_t *s)
{
    snprintf(s->reason, sizeof s->reason, "memory budget exhausted");
}

/* ---- referenced results ---- */

static BDD o_and(BDD a, BDD b) { return bdd_addref(bdd_and(a, b)); }
static BDD o_or(BDD a, BDD b) { return bdd_addref(bdd_or(a, b)); }
static BDD o_not(BDD a) { return bdd_addref(bdd_not(a)); }
static BDD o_diff(BDD a, BDD b) { return bdd_addref(bdd_apply(a, b, bddop_diff)); }
static void drop(BDD a) { bdd_delref(a); }

/* *acc = *acc op b, references kept right. */
static void and_in(BDD *acc, BDD b)
{
    BDD r = o_and(*acc, b);
    drop(*acc);
    *acc = r;
}

static void or_in(BDD *acc, BDD b)
{
    BDD r = o_or(*acc, b);
    drop(*acc);
    *acc = r;
}

/* Takes a fresh referenced b into the conjunction and lets it go. */
static void and_take(BDD *acc, BDD b)
{
    and_in(acc, b);
    drop(b);
}

static void or_take(BDD *acc, BDD b)
{
    or_in(acc, b);
    drop(b);
}

static int cur_var(uint32_t bit) { return (int)(2 * bit); }
static int nxt_var(uint32_t bit) { return (int)(2 * bit + 1); }

/* Bit i (0: least significant) of block b, as a variable. */
static int block_var(const blk *b, uint32_t i, int next)
{
    uint32_t bit = b->first + b->width - 1 - i;
    return next ? nxt_var(bit) : cur_var(bit);
}

/* block b == v (v < 2^width), over its current or next variables. */
static BDD block_eq(const blk *b, uint64_t v, int next)
{
    BDD r = bdd_addref(bdd_true());
    for (uint32_t i = 0; i < b->width; i++) {
        int var = block_var(b, i, next);
        and_in(&r, (v >> i) & 1 ? bdd_ithvar(var) : bdd_nithvar(var));
    }
    return r;
}

/* ---- bit vectors (BuDDy's bvec: index 0 least significant) ---- */

static bvec con_vec(u128 v, int width)
{
    bvec r = bvec_false(width);
    for (int i = 0; i < width && i < 128; i++)
        if ((v >> i) & 1)
            r.bitvec[i] = bdd_true();
    return r;
}

/* Block b's value in width bits (width >= b->width); the variables' nodes
 * are BuDDy's own, never collected. */
static bvec block_vec(const blk *b, int next, int width)
{
    bvec r = bvec_false(width);
    for (uint32_t i = 0; i < b->width && (int)i < width; i++)
        r.bitvec[i] = bdd_ithvar(block_var(b, i, next));
    return r;
}

/* The tokens of place p in width bits. */
static bvec place_vec(const sym_t *s, uint32_t p, int width)
{
    const blk *b = &s->blocks[s->block_of[p]];
    if (!b->places)
        return block_vec(b, 0, width);
    bvec r = bvec_false(width);
    if (r.bitnum > 0)
        r.bitvec[0] = block_eq(b, s->pos_in[p], 0);
    return r;
}

/* The largest count place p can hold in the encoding. */
static uint64_t place_max(const sym_t *s, uint32_t p)
{
    const blk *b = &s->blocks[s->block_of[p]];
    if (b->places)
        return 1;
    return b->width >= 64 ? UINT64_MAX : ((uint64_t)1 << b->width) - 1;
}

static unsigned bits_of(u128 v)
{
    unsigned n = 0;
    while (v) {
        n++;
        v >>= 1;
    }
    return n;
}

/* M(p) >= c. */
static BDD place_ge(const sym_t *s, uint32_t p, uint64_t c)
{
    if (c == 0)
        return bdd_addref(bdd_true());
    if (c > place_max(s, p))
        return bdd_addref(bdd_false());
    const blk *b = &s->blocks[s->block_of[p]];
    if (b->places)
        return block_eq(b, s->pos_in[p], 0);
    bvec x = block_vec(b, 0, (int)b->width), k = con_vec(c, (int)b->width);
    BDD r = bdd_addref(bvec_gte(x, k));
    bvec_free(x);
    bvec_free(k);
    return r;
}

/* ---- the layout ---- */

/* ---- the order ---- */

/* Rounds of FORCE at most, and rounds without a shorter total span
 * before it stops. */
#define FORCE_ROUNDS 40
#define FORCE_PATIENCE 4

typedef struct keyed {
    double key;
    uint32_t place;
} keyed;

static int by_key(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    return x->key < y->key ? -1 : x->key > y->key ? 1 : (x->place > y->place) - (x->place < y->place);
}

/* The places of t: what it needs, then what it changes. */
#define FOR_SUPPORT(cn, t, i, p)                                                          \
    for (uint32_t i = (cn)->need_start[t], p;                                             \
         i < (cn)->need_start[(t) + 1] + (cn)->eff_start[(t) + 1] - (cn)->eff_start[t] && \
         ((p = i < (cn)->need_start[(t) + 1]                                              \
                   ? (cn)->need_place[i]                                                  \
                   : (cn)->eff_place[(cn)->eff_start[t] + i - (cn)->need_start[(t) + 1]]), \
          1);                                                                             \
         i++)

static double total_span(const cnet_t *cn, const uint32_t *pos)
{
    double span = 0;
    for (uint32_t t = 0; t < cn->ntransitions; t++) {
        uint32_t lo = UINT32_MAX, hi = 0;
        FOR_SUPPORT(cn, t, i, p) {
            lo = pos[p] < lo ? pos[p] : lo;
            hi = pos[p] > hi ? pos[p] : hi;
        }
        span += lo <= hi ? hi - lo : 0;
    }
    return span;
}

/* FORCE (Aloul, Markov and Sakallah): each place moves to the mean of the
 * centres of the transitions that touch it, so that the places a
 * transition reads and changes come close together and its relation and
 * the sets it makes stay narrow.  From net order, kept while the sum of
 * the transitions' spans falls.  A malloc'd permutation (rank to place),
 * or NULL: no memory. */
static uint32_t *force_order(const cnet_t *cn)
{
    uint32_t P = cn->nplaces, T = cn->ntransitions;
    uint32_t *best = malloc((P ? P : 1) * sizeof *best), *pos = malloc((P ? P : 1) * sizeof *pos);
    double *centre = malloc((T ? T : 1) * sizeof *centre), *sum = malloc((P ? P : 1) * sizeof *sum);
    uint32_t *count = malloc((P ? P : 1) * sizeof *count);
    keyed *k = malloc((P ? P : 1) * sizeof *k);
    if (!best || !pos || !centre || !sum || !count || !k) {
        free(best);
        best = NULL;
        goto out;
    }
    for (uint32_t p = 0; p < P; p++)
        best[p] = pos[p] = p;
    double best_span = total_span(cn, pos);
    for (int round = 0, idle = 0; round < FORCE_ROUNDS && idle < FORCE_PATIENCE; round++) {
        for (uint32_t p = 0; p < P; p++)
            sum[p] = 0, count[p] = 0;
        for (uint32_t t = 0; t < T; t++) {
            double c = 0;
            uint32_t n = 0;
            FOR_SUPPORT(cn, t, i, p) {
                c += pos[p];
                n++;
            }
            centre[t] = n ? c / n : 0;
            FOR_SUPPORT(cn, t, i, p) {
                sum[p] += centre[t];
                count[p]++;
            }
        }
        for (uint32_t p = 0; p < P; p++)
            k[p] = (keyed){count[p] ? sum[p] / count[p] : pos[p], p};
        qsort(k, P, sizeof *k, by_key);
        for (uint32_t r = 0; r < P; r++)
            pos[k[r].place] = r;
        double span = total_span(cn, pos);
        if (span < best_span) {
            best_span = span;
            for (uint32_t r = 0; r < P; r++)
                best[r] = k[r].place;
            idle = 0;
        } else {
            idle++;
        }
    }
out:
    free(pos);
    free(centre);
    free(sum);
    free(count);
    free(k);
    return best;
}

static int make_blocks(sym_t *s, const uint8_t *bits, const uint32_t *group, uint32_t ngroups,
                       sym_order order)
{
    const cnet_t *cn = s->cn;
    uint32_t P = cn->nplaces;
    uint32_t *rank = order == SYM_ORDER_FORCE ? force_order(cn) : NULL;
    if (order == SYM_ORDER_FORCE && !rank)
        return -1;
    s->block_of = malloc((P ? P : 1) * sizeof *s->block_of);
    s->pos_in = malloc((P ? P : 1) * sizeof *s->pos_in);
    s->blocks = calloc(P ? P : 1, sizeof *s->blocks);
    uint32_t *gblock = group ? malloc((ngroups + 1) * sizeof *gblock) : NULL;
    uint32_t *gsize = group ? calloc(ngroups + 1, sizeof *gsize) : NULL;
    if (!s->block_of || !s->pos_in || !s->blocks || (group && (!gblock || !gsize))) {
        free(gblock);
        free(gsize);
        free(rank);
        return -1;
    }
    for (uint32_t g = 0; group && g <= ngroups; g++)
        gblock[g] = UINT32_MAX;
    for (uint32_t p = 0; group && p < P; p++)
        if (group[p] <= ngroups)
            gsize[group[p]]++;
    uint64_t nbits = 0;
    for (uint32_t r = 0; r < P; r++) {
        uint32_t p = rank ? rank[r] : r;
        uint32_t g = group ? group[p] : 0;
        if (g && g <= ngroups && gblock[g] != UINT32_MAX) {
            blk *b = &s->blocks[gblock[g]];
            s->block_of[p] = gblock[g];
            s->pos_in[p] = b->n;
            b->places[b->n++] = p;
            continue;
        }
        blk *b = &s->blocks[s->nblocks];
        s->block_of[p] = s->nblocks;
        s->pos_in[p] = 0;
        b->first = (uint32_t)nbits;
        b->n = 1;
        if (g && g <= ngroups) {
            uint32_t size = gsize[g];
            b->places = malloc(size * sizeof *b->places);
            if (!b->places) {
                free(gblock);
                free(gsize);
                free(rank);
                return -1;
            }
            b->places[0] = p;
            b->width = bits_of(size - 1);
            gblock[g] = s->nblocks;
            s->ngroups++;
        } else {
            b->width = bits[p];
        }
        nbits += b->width;
        s->nblocks++;
    }
    free(gblock);
    free(gsize);
    free(rank);
    if (nbits * 2 > MAX_VARS)
        return -2;
    s->nbits = (uint32_t)nbits;
    return 0;
}

/* ---- the transitions ---- */

/* The part of transition t's relation on group block b: its condition on
 * the current value (*cond), its next value (*rel, when it changes it)
 * and the values where firing would leave the group (*ovf). */
static void group_part(sym_t *s, uint32_t t, uint32_t bi, BDD *cond, BDD *rel, BDD *ovf,
                       int *changes)
{
    const cnet_t *cn = s->cn;
    const blk *b = &s->blocks[bi];
    uint32_t need = UINT32_MAX;
    int impossible = 0;
    for (uint32_t i = cn->need_start[t]; i < cn->need_start[t + 1]; i++) {
        uint32_t p = cn->need_place[i];
        if (s->block_of[p] != bi)
            continue;
        if (cn->need_weight[i] > 1 || (need != UINT32_MAX && need != s->pos_in[p]))
            impossible = 1;
        need = s->pos_in[p];
    }
    *changes = 0;
    for (uint32_t i = cn->eff_start[t]; i < cn->eff_start[t + 1]; i++)
        if (s->block_of[cn->eff_place[i]] == bi)
            *changes = 1;
    *cond = impossible ? bdd_addref(bdd_false())
            : need != UINT32_MAX ? block_eq(b, need, 0) : bdd_addref(bdd_true());
    *rel = bdd_addref(bdd_false());
    *ovf = bdd_addref(bdd_false());
    if (impossible || !*changes)
        return;
    /* from each value the token may be at, where the deltas put it */
    for (uint32_t from = need != UINT32_MAX ? need : 0;
         from < (need != UINT32_MAX ? need + 1 : b->n); from++) {
        uint32_t to = UINT32_MAX, ones = 0;
        int listed = 0, under = 0, over = 0;
        for (uint32_t i = cn->eff_start[t]; i < cn->eff_start[t + 1]; i++) {
            uint32_t p = cn->eff_place[i];
            if (s->block_of[p] != bi)
                continue;
            int64_t v = (s->pos_in[p] == from) + cn->eff_delta[i];
            listed |= s->pos_in[p] == from;
            if (v < 0)
                under = 1;
            else if (v > 1)
                over = 1;
            else if (v == 1) {
                ones++;
                to = s->pos_in[p];
            }
        }
        if (!listed) {
            ones++;
            to = from;
        }
        if (under)
            continue;   /* not enabled there: what it takes, it needs */
        BDD here = block_eq(b, from, 0);
        if (over || ones != 1) {
            or_in(ovf, here);
        } else {
            BDD there = block_eq(b, to, 1);
            BDD step = o_and(here, there);
            or_take(rel, step);
            drop(there);
        }
        drop(here);
    }
}

/* Place block b changed by delta: next = current + delta, and where it
 * would pass the width. */
static void place_part(const blk *b, int64_t delta, BDD *rel, BDD *ovf)
{
    int w = (int)b->width + 1;
    uint64_t max = ((uint64_t)1 << b->width) - 1;
    uint64_t mag = delta < 0 ? (uint64_t)0 - (uint64_t)delta : (uint64_t)delta;
    if (mag > max) {
        /* a consumption this large is never enabled; a production this
         * large always overflows */
        *rel = bdd_addref(bdd_false());
        *ovf = bdd_addref(delta > 0 ? bdd_true() : bdd_false());
        return;
    }
    bvec cur = block_vec(b, 0, w), nxt = block_vec(b, 1, w), k = con_vec(mag, w);
    bvec sum = bvec_add(delta > 0 ? cur : nxt, k);
    *rel = bdd_addref(bvec_equ(sum, delta > 0 ? nxt : cur));
    bvec lim = con_vec(max, w);
    *ovf = delta > 0 ? bdd_addref(bvec_gth(sum, lim)) : bdd_addref(bdd_false());
    bvec_free(lim);
    bvec_free(sum);
    bvec_free(k);
    bvec_free(nxt);
    bvec_free(cur);
}

static int make_relation(sym_t *s, uint32_t t, uint8_t *seen, int *cvars, int *nvars)
{
    const cnet_t *cn = s->cn;
    trel *r = &s->tr[t];
    r->en = bdd_addref(bdd_true());
    r->ovf = bdd_addref(bdd_false());
    r->top = UINT32_MAX;
    BDD changes = bdd_addref(bdd_true());
    uint32_t nv = 0;
    /* plain places' needs */
    for (uint32_t i = cn->need_start[t]; i < cn->need_start[t + 1]; i++) {
        uint32_t p = cn->need_place[i];
        const blk *b = &s->blocks[s->block_of[p]];
        r->top = b->first < r->top ? b->first : r->top;
        if (!b->places)
            and_take(&r->en, place_ge(s, p, cn->need_weight[i]));
    }
    /* each block it needs or changes, once */
    for (int pass = 0; pass < 2; pass++) {
        uint32_t lo = pass ? cn->eff_start[t] : cn->need_start[t];
        uint32_t hi = pass ? cn->eff_start[t + 1] : cn->need_start[t + 1];
        for (uint32_t i = lo; i < hi; i++) {
            uint32_t p = pass ? cn->eff_place[i] : cn->need_place[i];
            uint32_t bi = s->block_of[p];
            const blk *b = &s->blocks[bi];
            if (seen[bi] || (!pass && !b->places))
                continue;
            seen[bi] = 1;
            r->top = b->first < r->top ? b->first : r->top;
            BDD cond, rel, ovf;
            int moved = 0;
            if (b->places) {
                group_part(s, t, bi, &cond, &rel, &ovf, &moved);
                and_take(&r->en, cond);
            } else {
                place_part(b, cn->eff_delta[i], &rel, &ovf);
                moved = 1;
            }
            if (moved) {
                and_take(&changes, rel);
                or_take(&r->ovf, ovf);
                for (uint32_t k = 0; k < b->width; k++) {
                    cvars[nv] = block_var(b, k, 0);
                    nvars[nv++] = block_var(b, k, 1);
                }
            } else {
                drop(rel);
                drop(ovf);
            }
        }
    }
    for (uint32_t i = cn->need_start[t]; i < cn->need_start[t + 1]; i++)
        seen[s->block_of[cn->need_place[i]]] = 0;
    for (uint32_t i = cn->eff_start[t]; i < cn->eff_start[t + 1]; i++)
        seen[s->block_of[cn->eff_place[i]]] = 0;
    r->moves = cn->eff_start[t + 1] > cn->eff_start[t];
    r->rel = o_and(r->en, changes);
    drop(changes);
    and_in(&r->ovf, r->en);
    r->curcube = bdd_addref(bdd_makeset(cvars, (int)nv));
    r->nxtcube = bdd_addref(bdd_makeset(nvars, (int)nv));
    return 0;
}

static int descending(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? 1 : x > y ? -1 : 0;
}

/* The moving transitions by their topmost bit, bottom first (chaining's
 * groups), in net order within a group. */
static int sort_order(sym_t *s)
{
    uint64_t *key = malloc((s->nmoving ? s->nmoving : 1) * sizeof *key);
    if (!key)
        return -1;
    for (uint32_t i = 0; i < s->nmoving; i++)
        key[i] = (uint64_t)s->tr[s->order[i]].top << 32 | (uint32_t)~s->order[i];
    qsort(key, s->nmoving, sizeof *key, descending);
    for (uint32_t i = 0; i < s->nmoving; i++)
        s->order[i] = ~(uint32_t)key[i];
    free(key);
    return 0;
}

/* ---- the manager ---- */

sym_t *sym_new(const cnet_t *cn, const uint8_t *bits, const uint32_t *group, uint32_t ngroups,
               sym_order order, const budget_t *budget, char *why, size_t whylen)
{
    if (bdd_isrunning()) {
        snprintf(why, whylen, "symbolic: the decision diagram package is in use");
        return NULL;
    }
    sym_t *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(why, whylen, "memory budget exhausted");
        return NULL;
    }
    s->cn = cn;
    s->budget = budget;
    int lay = make_blocks(s, bits, group, ngroups, order);
    if (lay < 0) {
        snprintf(why, whylen, lay == -2 ? "symbolic: more bits than the diagrams' variables"
                                        : "memory budget exhausted");
        sym_free(s);
        return NULL;
    }
    budget_t table = budget_carve(budget, CARVE_SYMBOLIC_TABLE);
    size_t maxnodes = table.bytes / BYTES_PER_NODE;
    if (maxnodes > INT_MAX / 2)
        maxnodes = INT_MAX / 2;
    if (maxnodes < MIN_NODES) {
        snprintf(why, whylen, "memory budget exhausted");
        sym_free(s);
        return NULL;
    }
    int first = maxnodes < INITIAL_NODES ? (int)maxnodes : INITIAL_NODES;
    bdd_failed = 0;
    bdd_code = 0;
    if (bdd_init(first, first / CACHE_RATIO) < 0) {
        snprintf(why, whylen, "memory budget exhausted");
        sym_free(s);
        return NULL;
    }
    bdd_error_hook(on_bdd_error);
    bdd_gbc_hook(NULL);
    bdd_resize_hook(NULL);
    /* BuDDy refuses a maximum below the table it rounded up to a prime */
    bdd_setmaxnodenum((int)maxnodes > bdd_getallocnum() ? (int)maxnodes : bdd_getallocnum() + 1);
    bdd_setmaxincrease((int)maxnodes);
    bdd_setcacheratio(CACHE_RATIO);
    bdd_setvarnum(s->nbits ? (int)(2 * s->nbits) : 2);

    uint32_t T = cn->ntransitions;
    s->tr = calloc(T ? T : 1, sizeof *s->tr);
    s->order = malloc((T ? T : 1) * sizeof *s->order);
    uint8_t *seen = calloc(s->nblocks ? s->nblocks : 1, 1);
    int *cvars = malloc((2 * (size_t)s->nbits + 1) * sizeof *cvars);
    int *nvars = malloc((2 * (size_t)s->nbits + 1) * sizeof *nvars);
    int ok = s->tr && s->order && seen && cvars && nvars;
    s->init = bdd_addref(bdd_true());
    s->reach = bdd_addref(bdd_false());
    s->goal = bdd_addref(bdd_false());
    s->to_cur = ok ? bdd_newpair() : NULL;
    ok = ok && s->to_cur;
    for (uint32_t i = 0; ok && i < s->nbits; i++) {
        cvars[i] = cur_var(i);
        bdd_setpair(s->to_cur, nxt_var(i), cur_var(i));
    }
    s->allcur = ok ? bdd_addref(bdd_makeset(cvars, (int)s->nbits)) : bdd_addref(bdd_true());
    /* the initial marking: each place block its count, each group where its token is */
    for (uint32_t p = 0; ok && p < cn->nplaces; p++) {
        const blk *b = &s->blocks[s->block_of[p]];
        if (b->places) {
            if (cn->initial[p])
                and_take(&s->init, block_eq(b, s->pos_in[p], 0));
        } else if (b->width < 64 && (cn->initial[p] >> b->width)) {
            snprintf(s->reason, sizeof s->reason, "symbolic: initial marking above a bound");
            ok = 0;
        } else {
            and_take(&s->init, block_eq(b, cn->initial[p], 0));
        }
    }
    for (uint32_t t = 0; ok && t < T; t++) {
        if (make_relation(s, t, seen, cvars, nvars) < 0)
            ok = 0;
        if (s->tr[t].moves)
            s->order[s->nmoving++] = t;
        if (stop(s))
            ok = 0;
    }
    free(seen);
    free(cvars);
    free(nvars);
    if (ok && sort_order(s) < 0)
        ok = 0;
    if (!ok || failed(s)) {
        if (!s->reason[0])
            nomem(s);
        snprintf(why, whylen, "%s", s->reason);
        sym_free(s);
        return NULL;
    }
    return s;
}

void sym_free(sym_t *s)
{
    if (!s)
        return;
    /* bdd_done frees the pairs too, at once: bdd_freepair searches a list
     * of them, quadratic over a net's transitions */
    if (bdd_isrunning())
        bdd_done();
    for (uint32_t i = 0; s->blocks && i < s->nblocks; i++)
        free(s->blocks[i].places);
    free(s->blocks);
    free(s->block_of);
    free(s->pos_in);
    free(s->tr);
    free(s->order);
    free(s);
}

const char *sym_reason(const sym_t *s)
{
    return s->reason[0] ? s->reason : "stopped";
}

size_t sym_nodes(const sym_t *s)
{
    int n = bdd_nodecount(s->reach);
    return n > 0 ? (size_t)n : 0;
}

/* ---- images ---- */

static BDD image(const sym_t *s, BDD from, uint32_t t)
{
    const trel *r = &s->tr[t];
    BDD x = bdd_addref(bdd_relprod(from, r->rel, r->curcube));
    BDD y = bdd_addref(bdd_replace(x, s->to_cur));
    drop(x);
    return y;
}

/* The renaming of the blocks t changes, current to next; NULL: no memory. */
static bddPair *to_next(sym_t *s, uint32_t t)
{
    trel *r = &s->tr[t];
    if (r->to_nxt)
        return r->to_nxt;
    r->to_nxt = bdd_newpair();
    for (BDD c = r->curcube; r->to_nxt && c != bdd_true() && c != bdd_false(); c = bdd_high(c))
        bdd_setpair(r->to_nxt, bdd_var(c), bdd_var(c) + 1);
    return r->to_nxt;
}

static BDD preimage(sym_t *s, BDD to, uint32_t t)
{
    const trel *r = &s->tr[t];
    if (!to_next(s, t)) {
        nomem(s);
        return bdd_addref(bdd_false());
    }
    BDD x = bdd_addref(bdd_replace(to, r->to_nxt));
    BDD y = bdd_addref(bdd_relprod(x, r->rel, r->nxtcube));
    drop(x);
    return y;
}

/* The markings of set where no transition is enabled, referenced. */
static BDD in_goal_dead(sym_t *s, BDD set)
{
    BDD dead = bdd_addref(set);
    for (uint32_t t = 0; t < s->cn->ntransitions && dead != bdd_false() && !stop(s); t++) {
        BDD x = o_diff(dead, s->tr[t].en);
        drop(dead);
        dead = x;
    }
    return dead;
}

/* The markings of set in the goal, referenced. */
static BDD in_goal(sym_t *s, BDD set)
{
    if (s->goal_kind == GOAL_SET)
        return o_and(set, s->goal);
    if (s->goal_kind == GOAL_NONE)
        return bdd_addref(bdd_false());
    return in_goal_dead(s, set);
}

static int hits(sym_t *s, BDD set)
{
    BDD x = in_goal(s, set);
    int hit = x != bdd_false() && !stop(s);
    drop(x);
    return hit;
}

/* A reachable marking where some transition would pass a block's width:
 * the bounds the layout came from were wrong, and every answer with them. */
static int check_widths(sym_t *s)
{
    for (uint32_t t = 0; t < s->cn->ntransitions; t++) {
        BDD x = o_and(s->reach, s->tr[t].ovf);
        int bad = x != bdd_false();
        drop(x);
        if (bad) {
            snprintf(s->reason, sizeof s->reason,
                     "symbolic: transition %u passes a place's proven bound", t);
            return -1;
        }
        if (stop(s))
            return -1;
    }
    return 0;
}

static sym_status bfs(sym_t *s)
{
    BDD front = bdd_addref(s->init);
    for (;;) {
        if (hits(s, front)) {
            drop(front);
            return SYM_FOUND;
        }
        BDD next = bdd_addref(bdd_false());
        for (uint32_t i = 0; i < s->nmoving; i++) {
            or_take(&next, image(s, front, s->order[i]));
            if (stop(s))
                break;
        }
        drop(front);
        front = o_diff(next, s->reach);
        drop(next);
        or_in(&s->reach, front);
        if (stop(s)) {
            drop(front);
            return SYM_GAVE_UP;
        }
        if (front == bdd_false())
            break;
    }
    drop(front);
    return SYM_DONE;
}

static sym_status chain(sym_t *s)
{
    int changed = 1;
    while (changed) {
        changed = 0;
        for (uint32_t g = 0; g < s->nmoving;) {
            uint32_t end = g;
            while (end < s->nmoving && s->tr[s->order[end]].top == s->tr[s->order[g]].top)
                end++;
            int grew = 1, any = 0;
            while (grew) {
                grew = 0;
                for (uint32_t i = g; i < end; i++) {
                    BDD img = image(s, s->reach, s->order[i]);
                    BDD more = o_or(s->reach, img);
                    drop(img);
                    if (more != s->reach)
                        grew = any = changed = 1;
                    drop(s->reach);
                    s->reach = more;
                    if (stop(s))
                        return SYM_GAVE_UP;
                }
            }
            if (any && s->goal_kind == GOAL_SET && hits(s, s->reach))
                return SYM_FOUND;
            g = end;
        }
        if (changed && s->goal_kind == GOAL_DEAD && hits(s, s->reach))
            return SYM_FOUND;
        if (stop(s))
            return SYM_GAVE_UP;
    }
    return SYM_DONE;
}

sym_status sym_explore(sym_t *s, sym_strategy how)
{
    drop(s->reach);
    s->reach = bdd_addref(s->init);
    s->reached = 0;
    if (stop(s))
        return SYM_GAVE_UP;
    if (hits(s, s->reach))
        return SYM_FOUND;
    sym_status st = how == SYM_BFS ? bfs(s) : chain(s);
    if (st == SYM_DONE && check_widths(s) < 0)
        return SYM_GAVE_UP;
    if (st != SYM_GAVE_UP && failed(s))
        return SYM_GAVE_UP;
    s->reached = st == SYM_DONE;
    return st;
}

/* ---- goals ---- */

int sym_goal_deadlock(sym_t *s)
{
    /* one diagram of the dead markings makes each look for them one
     * conjunction; where it grows large, they are found in the reachable
     * set transition by transition instead */
    int start = bdd_getnodenum();
    BDD dead = bdd_addref(bdd_true());
    for (uint32_t t = 0; t < s->cn->ntransitions && !stop(s); t++) {
        and_take(&dead, o_not(s->tr[t].en));
        if (bdd_getnodenum() - start > DEAD_NODES_MAX) {
            drop(dead);
            s->goal_kind = GOAL_DEAD;
            return 0;
        }
    }
    drop(s->goal);
    s->goal = dead;
    s->goal_kind = GOAL_SET;
    return stop(s) ? -1 : 0;
}

/* sum(coef * M(p)) + constant REL 0, as positive side REL negative side. */
static BDD cmp_bdd(sym_t *s, const tree_t *f, int *unsupported)
{
    u128 pos = 0, neg = 0;
    for (uint32_t i = 0; i < f->nterms; i++) {
        u128 c = f->terms[i].coef < 0 ? (u128)0 - (u128)(__int128)f->terms[i].coef
                                      : (u128)f->terms[i].coef;
        u128 term = c * (u128)place_max(s, f->terms[i].place);
        if (bits_of(c) + bits_of(place_max(s, f->terms[i].place)) > MAX_CMP_BITS - 2) {
            *unsupported = 1;
            return bdd_addref(bdd_false());
        }
        if (f->terms[i].coef < 0)
            neg += term;
        else
            pos += term;
        if (bits_of(pos) > MAX_CMP_BITS - 2 || bits_of(neg) > MAX_CMP_BITS - 2) {
            *unsupported = 1;
            return bdd_addref(bdd_false());
        }
    }
    u128 k = f->constant < 0 ? (u128)0 - (u128)(__int128)f->constant : (u128)f->constant;
    int w = (int)bits_of((pos > neg ? pos : neg) + k) + 1;
    if (w > MAX_CMP_BITS) {
        *unsupported = 1;
        return bdd_addref(bdd_false());
    }
    bvec side[2] = {con_vec(f->constant > 0 ? k : 0, w), con_vec(f->constant < 0 ? k : 0, w)};
    for (uint32_t i = 0; i < f->nterms; i++) {
        int64_t coef = f->terms[i].coef;
        if (!coef || !place_max(s, f->terms[i].place))
            continue;
        u128 c = coef < 0 ? (u128)0 - (u128)(__int128)coef : (u128)coef;
        bvec x = place_vec(s, f->terms[i].place, w);
        bvec *acc = &side[coef < 0];
        for (unsigned j = 0; j < (unsigned)w && c >> j; j++) {
            if (!((c >> j) & 1))
                continue;
            bvec sh = bvec_shlfixed(x, (int)j, bdd_false());
            bvec sum = bvec_add(*acc, sh);
            bvec_free(sh);
            bvec_free(*acc);
            *acc = sum;
        }
        bvec_free(x);
    }
    BDD r;
    switch (f->rel) {
    case REL_EQ: r = bvec_equ(side[0], side[1]); break;
    case REL_NE: r = bvec_neq(side[0], side[1]); break;
    case REL_LT: r = bvec_lth(side[0], side[1]); break;
    case REL_LE: r = bvec_lte(side[0], side[1]); break;
    case REL_GT: r = bvec_gth(side[0], side[1]); break;
    default: r = bvec_gte(side[0], side[1]); break;
    }
    r = bdd_addref(r);
    bvec_free(side[0]);
    bvec_free(side[1]);
    return r;
}

/* The formula's markings; recursion as deep as the formula, which the
 * readers bound (FY_MAX_DEPTH, MCCXML_MAX_DEPTH). */
static BDD formula_bdd(sym_t *s, const tree_t *f, int *unsupported)
{
    if (*unsupported || !f)
        return bdd_addref(bdd_false());
    switch (f->op) {
    case T_TRUE:
        return bdd_addref(bdd_true());
    case T_FALSE:
        return bdd_addref(bdd_false());
    case T_DEADLOCK: {
        BDD dead = bdd_addref(bdd_true());
        for (uint32_t t = 0; t < s->cn->ntransitions && !stop(s); t++)
            and_take(&dead, o_not(s->tr[t].en));
        return dead;
    }
    case T_FIREABLE: {
        BDD any = bdd_addref(bdd_false());
        for (uint32_t i = 0; i < f->n && !stop(s); i++)
            if (f->items[i] < s->cn->ntransitions)
                or_in(&any, s->tr[f->items[i]].en);
        return any;
    }
    case T_CMP:
        return cmp_bdd(s, f, unsupported);
    case T_NOT: {
        BDD x = formula_bdd(s, f->l, unsupported);
        BDD r = o_not(x);
        drop(x);
        return r;
    }
    case T_AND: case T_OR: case T_IMPLIES: case T_IFF: {
        BDD a = formula_bdd(s, f->l, unsupported);
        BDD b = formula_bdd(s, f->r, unsupported);
        int op = f->op == T_AND ? bddop_and : f->op == T_OR ? bddop_or
                 : f->op == T_IMPLIES ? bddop_imp : bddop_biimp;
        BDD r = bdd_addref(bdd_apply(a, b, op));
        drop(a);
        drop(b);
        return r;
    }
    default:
        *unsupported = 1;
        return bdd_addref(bdd_false());
    }
}

int sym_goal_formula(sym_t *s, const tree_t *f, char *why, size_t whylen)
{
    int unsupported = 0;
    BDD g = formula_bdd(s, f, &unsupported);
    if (unsupported) {
        drop(g);
        snprintf(why, whylen, "symbolic: reach needs a state formula with comparisons in %d bits",
                 MAX_CMP_BITS);
        return -1;
    }
    drop(s->goal);
    s->goal = g;
    s->goal_kind = GOAL_SET;
    if (stop(s)) {
        snprintf(why, whylen, "%s", s->reason);
        return -1;
    }
    return 0;
}

/* ---- CTL ---- */

/* The reachable markings with a successor in set: through each moving
 * transition's preimage, and a transition that changes nothing steps from
 * a marking of set to itself. */
static BDD ex(sym_t *s, BDD set)
{
    BDD r = bdd_addref(bdd_false());
    for (uint32_t t = 0; t < s->cn->ntransitions && !stop(s); t++)
        or_take(&r, s->tr[t].moves ? preimage(s, set, t) : o_and(set, s->tr[t].en));
    and_in(&r, s->reach);
    return r;
}

/* R and not x */
static BDD within_not(sym_t *s, BDD x)
{
    return o_diff(s->reach, x);
}

static BDD ax(sym_t *s, BDD set)
{
    BDD out = within_not(s, set);
    BDD some = ex(s, out);
    drop(out);
    BDD r = within_not(s, some);
    drop(some);
    return r;
}

/* The least or greatest fixpoint of the step for one of the operators
 * below, from start; stops (returning what it has) with the clock. */
enum { FIX_EU, FIX_AU, FIX_EG };

static BDD fixpoint(sym_t *s, int kind, BDD phi, BDD psi, BDD dead)
{
    BDD z = bdd_addref(kind == FIX_EG ? phi : psi);
    while (!stop(s)) {
        BDD step, next;
        if (kind == FIX_EG) {
            /* E G phi: phi and (a successor in Z, or a deadlock) */
            step = ex(s, z);
            or_in(&step, dead);
            next = o_and(phi, step);
        } else {
            /* E[phi U psi]: psi or phi and a successor in Z;
             * A[phi U psi]: psi or phi, not dead, and every successor in Z */
            step = kind == FIX_EU ? ex(s, z) : ax(s, z);
            if (kind == FIX_AU) {
                BDD live = o_diff(step, dead);
                drop(step);
                step = live;
            }
            BDD both = o_and(phi, step);
            next = o_or(z, both);
            drop(both);
        }
        drop(step);
        int same = next == z;
        drop(z);
        z = next;
        if (same)
            break;
    }
    return z;
}

/* The reachable markings where f holds; recursion as deep as the formula,
 * which the readers bound. */
static BDD ctl_bdd(sym_t *s, const tree_t *f, BDD dead, int *unsupported)
{
    if (*unsupported || !f || stop(s))
        return bdd_addref(bdd_false());
    if (tree_is_state_formula(f)) {
        BDD x = formula_bdd(s, f, unsupported);
        and_in(&x, s->reach);
        return x;
    }
    BDD a = ctl_bdd(s, f->l, dead, unsupported), b = bdd_addref(bdd_false()), r;
    switch (f->op) {
    case T_NOT:
        r = within_not(s, a);
        break;
    case T_AND: case T_OR: case T_IMPLIES: case T_IFF: {
        drop(b);
        b = ctl_bdd(s, f->r, dead, unsupported);
        int op = f->op == T_AND ? bddop_and : f->op == T_OR ? bddop_or
                 : f->op == T_IMPLIES ? bddop_imp : bddop_biimp;
        r = bdd_addref(bdd_apply(a, b, op));
        and_in(&r, s->reach);
        break;
    }
    case T_EX:
        r = ex(s, a);
        break;
    case T_AX:
        r = ax(s, a);
        break;
    case T_EF:
        r = fixpoint(s, FIX_EU, s->reach, a, dead);
        break;
    case T_AF:
        r = fixpoint(s, FIX_AU, s->reach, a, dead);
        break;
    case T_EG:
        r = fixpoint(s, FIX_EG, a, bdd_false(), dead);
        break;
    case T_AG: {
        BDD out = within_not(s, a);
        BDD bad = fixpoint(s, FIX_EU, s->reach, out, dead);
        r = within_not(s, bad);
        drop(out);
        drop(bad);
        break;
    }
    case T_EU: case T_AU:
        drop(b);
        b = ctl_bdd(s, f->r, dead, unsupported);
        r = fixpoint(s, f->op == T_EU ? FIX_EU : FIX_AU, a, b, dead);
        break;
    default:
        *unsupported = 1;
        r = bdd_addref(bdd_false());
    }
    drop(a);
    drop(b);
    return r;
}

int sym_ctl(sym_t *s, const tree_t *f, char *why, size_t whylen)
{
    if (!s->reached) {
        snprintf(why, whylen, "symbolic: CTL needs the whole reachable set");
        return -1;
    }
    BDD dead = in_goal_dead(s, s->reach);
    int unsupported = 0;
    BDD holds = ctl_bdd(s, f, dead, &unsupported);
    BDD at = o_and(holds, s->init);
    int value = at != bdd_false();
    drop(at);
    drop(holds);
    drop(dead);
    if (unsupported) {
        snprintf(why, whylen, "symbolic: ctl needs a CTL formula with comparisons in %d bits",
                 MAX_CMP_BITS);
        return -1;
    }
    if (stop(s)) {
        snprintf(why, whylen, "%s", s->reason);
        return -1;
    }
    return value;
}

/* ---- witnesses ---- */

int sym_witness(sym_t *s, uint32_t **run, size_t *len)
{
    size_t n = 0, cap = 16;
    BDD *layer = malloc(cap * sizeof *layer);
    if (!layer) {
        nomem(s);
        return -1;
    }
    layer[n++] = bdd_addref(s->init);
    BDD seen = bdd_addref(s->init);
    int ok = 1;
    while (ok && !hits(s, layer[n - 1])) {
        BDD next = bdd_addref(bdd_false());
        for (uint32_t i = 0; i < s->nmoving && !stop(s); i++)
            or_take(&next, image(s, layer[n - 1], s->order[i]));
        BDD fresh = o_diff(next, seen);
        drop(next);
        or_in(&seen, fresh);
        if (stop(s) || fresh == bdd_false()) {
            if (!s->reason[0])
                snprintf(s->reason, sizeof s->reason, "symbolic: the goal is not reachable");
            drop(fresh);
            ok = 0;
            break;
        }
        if (n == cap) {
            BDD *more = realloc(layer, 2 * cap * sizeof *layer);
            if (!more) {
                drop(fresh);
                nomem(s);
                ok = 0;
                break;
            }
            layer = more;
            cap *= 2;
        }
        layer[n++] = fresh;
    }
    drop(seen);
    uint32_t *steps = ok && n > 1 ? malloc((n - 1) * sizeof *steps) : NULL;
    if (ok && n > 1 && !steps) {
        nomem(s);
        ok = 0;
    }
    if (ok) {
        BDD goal = in_goal(s, layer[n - 1]);
        BDD at = bdd_addref(bdd_satoneset(goal, s->allcur, bdd_false()));
        drop(goal);
        for (size_t i = n - 1; ok && i > 0; i--) {
            int stepped = 0;
            for (uint32_t k = 0; k < s->nmoving && !stepped; k++) {
                uint32_t t = s->order[k];
                BDD pre = preimage(s, at, t);
                BDD here = o_and(pre, layer[i - 1]);
                drop(pre);
                if (here != bdd_false()) {
                    drop(at);
                    at = bdd_addref(bdd_satoneset(here, s->allcur, bdd_false()));
                    steps[i - 1] = t;
                    stepped = 1;
                }
                drop(here);
            }
            if (stop(s) || !stepped) {
                if (!s->reason[0])
                    snprintf(s->reason, sizeof s->reason, "symbolic: a layer without predecessor");
                ok = 0;
            }
        }
        drop(at);
    }
    for (size_t i = 0; i < n; i++)
        drop(layer[i]);
    free(layer);
    if (!ok || failed(s)) {
        free(steps);
        return -1;
    }
    *run = steps;
    *len = n - 1;
    return 0;
}

/* ---- exact numbers ---- */

/* Current variables at levels [a, b): the even ones (levels are variables:
 * BuDDy never reorders here). */
static unsigned long curs_between(int a, int b)
{
    return (unsigned long)((b + 1) / 2 - (a + 1) / 2);
}

static int level_of(const sym_t *s, BDD n)
{
    return n == bdd_false() || n == bdd_true() ? (int)(2 * s->nbits) : bdd_var(n);
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
            nomem(s);
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
        nomem(s);
    return ok ? 0 : -1;
}

static char *decimal(sym_t *s, mpz_t v)
{
    char *text = mpz_get_str(NULL, 10, v);
    if (!text)
        nomem(s);
    return text;
}

char *sym_count_states(sym_t *s)
{
    if (failed(s))
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
    if (!s->reached || failed(s))
        return NULL;
    mpz_t sum, n;
    mpz_inits(sum, n, NULL);
    int ok = 1;
    counter c = {0};
    for (uint32_t t = 0; ok && t < s->cn->ntransitions; t++) {
        BDD x = o_and(s->reach, s->tr[t].en);
        ok = !stop(s) && count_set(s, &c, x, n) == 0;
        drop(x);
        mpz_add(sum, sum, n);
    }
    char *text = ok ? decimal(s, sum) : NULL;
    counter_free(&c);
    mpz_clears(sum, n, NULL);
    return text;
}

/* The largest weighted sum of the current bits over the markings of f,
 * each bit of a place block weighing its value in the count: the most
 * tokens in place blocks of one marking.  Weights of levels are summed
 * into prefix[] so that skipped levels (free bits) count as set. */
static int max_weight(sym_t *s, BDD f, uint64_t *out)
{
    int levels = (int)(2 * s->nbits);
    uint64_t *prefix = calloc((size_t)levels + 2, sizeof *prefix);
    int nodes = bdd_getallocnum();
    uint64_t *best = malloc((size_t)nodes * sizeof *best);
    uint8_t *done = calloc((size_t)nodes, 1);
    size_t cap = 64, top = 0;
    BDD *stack = malloc(cap * sizeof *stack);
    int ok = prefix && best && done && stack;
    for (uint32_t bi = 0; ok && bi < s->nblocks; bi++) {
        const blk *b = &s->blocks[bi];
        for (uint32_t i = 0; i < b->width; i++)
            prefix[block_var(b, i, 0) + 1] = b->places ? 0 : (uint64_t)1 << i;
    }
    for (int l = 0; ok && l < levels; l++)
        prefix[l + 1] += prefix[l];
    #define SKIP(a, b) (prefix[(b)] - prefix[(a)])
    if (ok && f != bdd_false() && f != bdd_true())
        stack[top++] = f;
    while (ok && top) {
        BDD n = stack[top - 1];
        if (done[n]) {
            top--;
            continue;
        }
        BDD kids[2] = {bdd_low(n), bdd_high(n)};
        int pushed = 0;
        for (int k = 0; k < 2; k++) {
            BDD c = kids[k];
            if (c != bdd_false() && c != bdd_true() && !done[c]) {
                if (top == cap) {
                    BDD *more = realloc(stack, 2 * cap * sizeof *stack);
                    if (!more) {
                        ok = 0;
                        break;
                    }
                    stack = more;
                    cap *= 2;
                }
                stack[top++] = c;
                pushed = 1;
            }
        }
        if (!ok || pushed)
            continue;
        top--;
        int lv = level_of(s, n);
        uint64_t m = 0;
        int any = 0;
        for (int k = 0; k < 2; k++) {
            BDD c = kids[k];
            if (c == bdd_false())
                continue;
            uint64_t v = (c == bdd_true() ? 0 : best[c]) + SKIP(lv + 1, level_of(s, c)) +
                         (k ? SKIP(lv, lv + 1) : 0);
            m = !any || v > m ? v : m;
            any = 1;
        }
        best[n] = m;
        done[n] = 1;
    }
    if (ok)
        *out = f == bdd_false() ? 0
               : (f == bdd_true() ? 0 : best[f]) + SKIP(0, level_of(s, f));
    #undef SKIP
    free(prefix);
    free(best);
    free(done);
    free(stack);
    if (!ok)
        nomem(s);
    return ok ? 0 : -1;
}

int sym_max_tokens(sym_t *s, uint64_t *in_place, uint64_t *per_marking)
{
    if (!s->reached || failed(s))
        return -1;
    uint64_t sum;
    if (max_weight(s, s->reach, &sum) < 0)
        return -1;
    *per_marking = sum + (s->reach != bdd_false() ? s->ngroups : 0);
    uint64_t top = s->ngroups && s->reach != bdd_false() ? 1 : 0;
    for (uint32_t bi = 0; bi < s->nblocks; bi++) {
        const blk *b = &s->blocks[bi];
        if (b->places || !b->width || ((uint64_t)1 << b->width) - 1 <= top)
            continue;
        /* most places cannot pass the best so far: one conjunction each */
        bvec x = block_vec(b, 0, (int)b->width), k = con_vec(top, (int)b->width);
        BDD above = bdd_addref(bvec_gth(x, k));
        bvec_free(k);
        BDD set = o_and(s->reach, above);
        drop(above);
        if (set != bdd_false()) {
            /* the largest value, most significant bit first */
            uint64_t v = 0;
            for (uint32_t i = b->width; i-- > 0;) {
                BDD one = o_and(set, x.bitvec[i]);
                if (one != bdd_false()) {
                    v |= (uint64_t)1 << i;
                    drop(set);
                    set = one;
                } else {
                    drop(one);
                    BDD zero = o_diff(set, x.bitvec[i]);
                    drop(set);
                    set = zero;
                }
            }
            top = v > top ? v : top;
        }
        drop(set);
        bvec_free(x);
        if (stop(s))
            return -1;
    }
    *in_place = top;
    return failed(s) ? -1 : 0;
}
