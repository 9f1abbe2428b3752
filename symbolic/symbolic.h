/* symbolic: sets of markings as binary decision diagrams (BuDDy), for nets
 * whose every place has a proven bound.
 *
 * The encoding: each block (a place, or a one-hot group of places that
 * always hold one token between them, engine/onehot.h) is an unsigned
 * number of ceil(log2(bound + 1)) variables (the group's: which of its
 * places holds the token).  Blocks are in net order of their first place:
 * a static order from the structure, since nets are usually written with
 * related places close together.  A block's bits are side by side, most
 * significant first, unless the places' bits are interleaved (sym_bits):
 * then all places' most significant bits come first, then the next ones,
 * and so on, the groups whole at the end.  Every bit has a current and a
 * next variable beside each other, so that "next = current + d" stays
 * linear in the number of bits (and a third for composing relations,
 * closure.c).  Each transition has one relation over the blocks it
 * changes, with its enabling condition over those it needs; the others
 * are left out and untouched by its image.
 *
 * The bounds come from the caller (the checker row takes them from
 * engine/placebits.h): this engine uses base/ only, and trusts them no
 * further than it can check: a reachable marking where a transition would
 * take a block past its width is reported (sym_reason), never dropped.
 *
 * BuDDy keeps one global table: one sym_t at a time in a process.  Its
 * nodes and caches are sized from the budget's bytes, and the walks that
 * count (their memos and long numbers) are charged to the rest; running
 * out of them or of time ends in SYM_GAVE_UP, or a count in NULL, with
 * the reason, never in an exit. */
#ifndef MCK_SYMBOLIC_H
#define MCK_SYMBOLIC_H

#include <stddef.h>
#include <stdint.h>
#include "base/budget.h"
#include "base/netconv.h"
#include "base/tree.h"

typedef struct sym sym_t;

typedef enum { SYM_DONE, SYM_FOUND, SYM_GAVE_UP } sym_status;

/* How the reachable set is computed: chaining fires the transitions
 * grouped by the topmost variable they touch, bottom group first, each
 * group to its own fixpoint before the next, until nothing changes; with
 * interleaved bits, a transition that keeps adding markings round after
 * round is fired by its closure (any number of times in a row) from then
 * on.  Breadth-first
 * takes the image of all transitions at once, layer by layer (and is what
 * witnesses are walked back on). */
typedef enum { SYM_CHAINING, SYM_BFS } sym_strategy;

/* The order of the blocks: the net's, or FORCE's (places moved towards
 * the transitions that touch them, order.c). */
typedef enum { SYM_ORDER_NET, SYM_ORDER_FORCE } sym_order;

/* Where the places' bits go: each block's side by side, interleaved by
 * significance, or chosen from the widths (layout.c: interleaved when
 * most bits belong to places of many tokens, whose sums in blocks side by
 * side take a node per value of the partial sum). */
typedef enum { SYM_BITS_AUTO, SYM_BITS_BLOCKS, SYM_BITS_INTERLEAVED } sym_bits;

/* A diagram manager for cn with widths bits[p] (proven bounds: each place
 * holds at most 2^bits[p] - 1 tokens in every reachable marking) and,
 * when group is not NULL, the one-hot groups group[p] in 1..ngroups (0:
 * none) that onehot_group_holds proved.  NULL with the reason in why when
 * it cannot start (no memory within budget, BuDDy in use). */
sym_t *sym_new(const cnet_t *cn, const uint8_t *bits, const uint32_t *group, uint32_t ngroups,
               sym_order order, sym_bits layout, const budget_t *budget, char *why,
               size_t whylen);
void sym_free(sym_t *s);

/* Chaining fires a transition by its closure once it has added markings
 * in this many rounds in a row (0: from the start, UINT32_MAX: never),
 * for comparisons and tests.  The default: SYM_CLOSURE_AFTER where the
 * places' bits are interleaved, never where they are side by side. */
#define SYM_CLOSURE_AFTER 32
void sym_set_closure_after(sym_t *s, uint32_t rounds);

/* The goal of sym_explore: a deadlock, or a state formula (no temporal
 * operator, no action, no bound).  0, or -1: the formula is not one
 * (why says so), or the diagram ran out (sym_reason). */
int sym_goal_deadlock(sym_t *s);
int sym_goal_formula(sym_t *s, const tree_t *f, char *why, size_t whylen);

/* The reachable markings, stopping at the first found in the goal when
 * there is one: SYM_FOUND, SYM_DONE (the whole set, no goal marking in
 * it) or SYM_GAVE_UP (sym_reason). */
sym_status sym_explore(sym_t *s, sym_strategy how);

/* After SYM_FOUND: a shortest run from the initial marking to a goal
 * marking, found by breadth-first layers walked back through each
 * transition's relation.  0, or -1 (sym_reason). */
int sym_witness(sym_t *s, uint32_t **run, size_t *len);

/* After SYM_DONE without a goal: whether the CTL formula f holds in the
 * initial marking, on maximal paths (a deadlock ends a path: EX false,
 * AX true there; EG accepts it, AF and AU need a step), by fixpoints over
 * the reachable set: 1, 0, or -1 (why: not CTL, or ran out). */
int sym_ctl(sym_t *s, const tree_t *f, char *why, size_t whylen);

/* sym_ctl in several calls on the same formula, each with its own clock
 * (sym_set_clock): what a call computed, and where its fixpoints stopped,
 * is kept in k, and the next call on f goes on from there instead of
 * starting again.  f must stay alive and unchanged from the first call to
 * sym_ctl_forget, which frees k and must come before sym_free. */
typedef struct sym_ctl_kept sym_ctl_kept;
sym_ctl_kept *sym_ctl_keep(void);
int sym_ctl_resume(sym_t *s, const tree_t *f, sym_ctl_kept *k, char *why, size_t whylen);
void sym_ctl_forget(sym_ctl_kept *k);

/* Exact numbers of the reachable set, as malloc'd decimal strings: its
 * markings (states; after SYM_FOUND, those found before the goal), and
 * after SYM_DONE its edges (the reachable markings that enable t, summed
 * over t).  NULL: ran out, of the bytes left beside the table or of the
 * clock (sym_reason). */
char *sym_count_states(sym_t *s);
char *sym_count_edges(sym_t *s);
/* The largest count of one place, and of all places, in the reachable
 * set.  0, or -1: ran out, as the counts (sym_reason). */
int sym_max_tokens(sym_t *s, uint64_t *in_place, uint64_t *per_marking);

/* The clock (and the signal flag) the following calls stop by, from now
 * on b's rather than the one sym_new was given; b outlives those calls.
 * The table keeps the size it was made with. */
void sym_set_clock(sym_t *s, const budget_t *b);

/* Why the last call failed: "memory budget exhausted", "time limit
 * reached", ... */
const char *sym_reason(const sym_t *s);
/* Nodes of the reachable set's diagram, for -v. */
size_t sym_nodes(const sym_t *s);
/* For -v and the tests: whether the places' bits are interleaved, and how
 * many transitions chaining fires by their closures. */
int sym_interleaved(const sym_t *s);
uint32_t sym_closures(const sym_t *s);

#endif
