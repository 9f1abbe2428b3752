/* The diagram manager: starting BuDDy with a node table sized from the
 * budget, the initial marking and the relations, and BuDDy's errors
 * recorded as the reason to give up, never an exit. */
#include "symbolic/symint.h"

#include <limits.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

/* Bytes a node costs at most, as measured with BuDDy 2.4 (the resident
 * size after bdd_init): a node is 20 bytes, the table may be realloc'd
 * to twice its size while the old one still exists, and its six
 * operator caches of 24-byte entries are 1/CACHE_RATIO of the table's
 * length each.  A larger cache was tried (a half: 2026-11-29): it made
 * one conjunction on FMS-PT-00020 (a comparison of 248 nodes with the
 * reachable set of 21,346) take 0.21 s instead of 28.6 s, but answered
 * no more CTL values on the six instances tried at 60 s, and the
 * reachable sets came 10 to 25 % later, BuDDy clearing its caches at
 * every garbage collection. */
#define CACHE_RATIO 4
#define BYTES_PER_NODE (2 * 20 + 6 * 24 / CACHE_RATIO)
/* The table starts at most this large and doubles as it fills: a small
 * net's run should not pay to initialise a table the budget would allow.
 * Not smaller: BuDDy empties its caches at every garbage collection, and
 * an operation that needs them throughout (a composition of relations,
 * closure.c) is repeated exponentially often when collections come
 * during it; with 2^16 nodes, the closures of SmallOperatingSystem-PT-
 * MT8192DC4096 did not end in a minute, with 2^18 they took 0.3 s. */
#define INITIAL_NODES (1 << 18)
/* Below this, not even the relations fit. */
#define MIN_NODES 1024

/* ---- BuDDy's errors: recorded, never an exit ---- */

static int bdd_failed, bdd_code;

static void on_bdd_error(int code)
{
    if (!bdd_failed)
        bdd_code = code;
    bdd_failed = 1;
}

/* Whether BuDDy failed since the manager started; the reason is set once. */
int sym_failed(sym_t *s)
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

int sym_stop(sym_t *s)
{
    if (sym_failed(s))
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

/* ---- the clock inside one operation ---- */

static sym_t *guarded;
static jmp_buf *guard_to;

/* BuDDy collects garbage when its table is full, in the middle of an
 * operation that makes nodes, before it touches a node: leaving by
 * longjmp there leaves the table whole (the operation's unfinished nodes
 * are garbage for the next collection) and every later operation starts
 * afresh.  An operation on large diagrams fills the table many times
 * over, so this is where one that runs past the clock is stopped. */
static void on_gbc(int pre, bddGbcStat *stat)
{
    (void)stat;
    if (pre && guarded && sym_stop(guarded)) {
        jmp_buf *to = guard_to;
        guarded = NULL;
        guard_to = NULL;
        longjmp(*to, 1);
    }
}

void sym_guard(sym_t *s, jmp_buf *to)
{
    guarded = s;
    guard_to = to;
}

void sym_unguard(void)
{
    guarded = NULL;
    guard_to = NULL;
}

void sym_nomem(sym_t *s)
{
    snprintf(s->reason, sizeof s->reason, "memory budget exhausted");
}

/* ---- the manager ---- */

sym_t *sym_new(const cnet_t *cn, const uint8_t *bits, const uint32_t *group, uint32_t ngroups,
               sym_order order, sym_bits layout, const budget_t *budget, char *why,
               size_t whylen)
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
    int lay = sym_make_blocks(s, bits, group, ngroups, order, layout);
    if (lay < 0) {
        snprintf(why, whylen, lay == -2 ? "symbolic: more bits than the diagrams' variables"
                                        : "memory budget exhausted");
        sym_free(s);
        return NULL;
    }
    /* side by side, a closure of a transition that moves tokens between
     * places is as wide as the values it can move (2^bits), and composing
     * it with itself can run a minute in one operation, past any clock
     * (SmallOperatingSystem-PT-MT8192DC4096 side by side, 61 s for a
     * limit of 10; FMS-PT-00020 with closures from the start, 50 s):
     * closures are for interleaved bits, where they stay a few nodes per
     * bit */
    s->closure_after = s->interleaved ? SYM_CLOSURE_AFTER : UINT32_MAX;
    budget_t table = budget_carve(budget, CARVE_SYMBOLIC_TABLE);
    s->count_bytes = budget_carve(budget, CARVE_SYMBOLIC_COUNT).bytes;
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
    bdd_gbc_hook(on_gbc);
    bdd_resize_hook(NULL);
    /* BuDDy refuses a maximum below the table it rounded up to a prime */
    bdd_setmaxnodenum((int)maxnodes > bdd_getallocnum() ? (int)maxnodes : bdd_getallocnum() + 1);
    bdd_setmaxincrease((int)maxnodes);
    bdd_setcacheratio(CACHE_RATIO);
    bdd_setvarnum(s->nbits ? (int)(VARS_PER_BIT * s->nbits) : VARS_PER_BIT);

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
                and_take(&s->init, sym_block_eq(b, s->pos_in[p], 0));
        } else if (b->width < 64 && (cn->initial[p] >> b->width)) {
            snprintf(s->reason, sizeof s->reason, "symbolic: initial marking above a bound");
            ok = 0;
        } else {
            and_take(&s->init, sym_block_eq(b, cn->initial[p], 0));
        }
    }
    for (uint32_t t = 0; ok && t < T; t++) {
        if (sym_make_relation(s, t, seen, cvars, nvars) < 0)
            ok = 0;
        if (s->tr[t].moves)
            s->order[s->nmoving++] = t;
        if (sym_stop(s))
            ok = 0;
    }
    free(seen);
    free(cvars);
    free(nvars);
    if (ok && sym_sort_order(s) < 0)
        ok = 0;
    if (!ok || sym_failed(s)) {
        if (!s->reason[0])
            sym_nomem(s);
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
    free(s->bit_at);
    free(s->block_of);
    free(s->pos_in);
    free(s->tr);
    free(s->order);
    free(s);
}

void sym_set_closure_after(sym_t *s, uint32_t rounds)
{
    s->closure_after = rounds;
}

void sym_set_clock(sym_t *s, const budget_t *b)
{
    s->budget = b;
    s->reason[0] = '\0';
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

int sym_interleaved(const sym_t *s)
{
    return s->interleaved;
}

uint32_t sym_closures(const sym_t *s)
{
    return s->nclosures;
}
