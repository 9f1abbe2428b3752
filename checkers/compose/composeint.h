/* What the files of the compose checker share (compose.h is the row's
 * interface): labelled transition systems as arrays, the memory and clock
 * they run on, the components and actions recovered from the net, and the
 * letters of a formula.  docs/compose.md has the method and its argument. */
#ifndef MCK_COMPOSEINT_H
#define MCK_COMPOSEINT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/netconv.h"
#include "base/result.h"
#include "base/tree.h"

#define CO_NONE UINT32_MAX

/* ---- memory and time ----
 * Every array of the method is charged here against one carve of the
 * budget, and long loops ask co_tick; the first limit met is kept in
 * gave_up and every caller unwinds with -1. */
typedef struct co_mem {
    const budget_t *budget;
    size_t used, peak, limit;
    uint64_t max_states;        /* -m: largest composite, 0 none */
    const char *gave_up;
    unsigned ticks;
} co_mem;

/* n elements of size bytes, cleared; NULL (gave_up set) past the limit. */
void *co_alloc(co_mem *cm, size_t n, size_t size);
/* Gives back what co_alloc(cm, n, size) took. */
void co_free(co_mem *cm, void *p, size_t n, size_t size);
/* grow_charged on cm's account: 0, or -1 with gave_up set. */
int co_grow(co_mem *cm, void *arrp, size_t *cap, size_t need, size_t elem);
/* Frees an array co_grow made, whose room is *cap. */
void co_free_grown(co_mem *cm, void *arrp, size_t *cap, size_t elem);
/* Every 4096th call looks at the clock and the signal flag: -1 (gave_up
 * set) once either says stop. */
int co_tick(co_mem *cm);

/* ---- labelled transition systems ----
 * States 0..nstates-1; the edges of s are [first[s], first[s+1]), sorted
 * by (label, target) without repeats.  Labels below the number of actions
 * are the net's actions still to synchronise; above, letters (the
 * formula's view of an action whose owners are all inside). */
typedef struct co_lts {
    uint32_t nstates, init;
    size_t nedges;
    size_t cap_first, cap_edges;    /* the room of first, and of lab and dst */
    uint32_t *first;        /* nstates + 1 */
    uint32_t *lab, *dst;
} co_lts;

void co_lts_free(co_mem *cm, co_lts *l);
/* l restricted to the states keep numbers 0 .. kept-1 (CO_NONE: gone;
 * numbered in the old order, so that each state's edges stay sorted) and
 * the edges between them that alive lets through (NULL: every one).  0,
 * or -1 on a limit. */
int co_lts_restrict(co_mem *cm, const co_lts *l, const uint32_t *keep, uint32_t kept,
                    const uint8_t *alive, co_lts *out);
/* Sorts keys (label << 32 | target) and drops repeats: the new count. */
size_t co_sort_unique(uint64_t *key, size_t n);
/* Sorts each state's edges by (label, target) and drops repeats, in
 * place (l's arrays keep their room), with *scratch (room *cap) grown as
 * needed; 0, or -1 on a limit. */
int co_lts_normalise(co_mem *cm, co_lts *l, uint64_t **scratch, size_t *cap);
/* The edges of s labelled a: [*lo, *hi), by binary search on the sorted
 * labels. */
void co_lts_labelled(const co_lts *l, uint32_t s, uint32_t a, size_t *lo, size_t *hi);

/* ---- components and actions (components.c) ---- */
typedef struct co_comps {
    uint32_t n;                     /* sequential components */
    const char *source;             /* "units" or "one-hot groups", for -v */
    uint32_t *place_comp, *place_local;     /* per place */
    uint32_t *comp_first;           /* n + 1: places of c are comp_place[comp_first[c] ..] */
    uint32_t *comp_place;
    uint32_t *comp_init;            /* per component: the local index of its token */
    /* per transition, its moves: components it needs, with source and
     * target local states, in component order */
    uint32_t *move_first;           /* ntransitions + 1 */
    uint32_t *move_comp, *move_src, *move_dst, *move_trans;
    size_t nmoves;
    uint32_t *comp_move_first, *comp_move;  /* per component: its moves */
    /* actions: from the reader when its claim holds, else one a transition */
    int reader_actions;
    uint32_t nactions;
    uint32_t *trans_action;         /* per transition */
    uint32_t *owner_first, *owner;  /* per action: its components, sorted */
} co_comps;

/* The net as a synchronised product of sequential components: from its
 * units when they are one, else from one-hot groups (engine/onehot.h, in
 * the carve compose.onehot of cm's budget),
 * each transition moving one token within each component it touches.
 * 0, or -1 with why written (not such a product, or a limit: cm->gave_up). */
int co_comps_find(co_mem *cm, const cnet_t *cn, co_comps *c, char *why, size_t whylen);
/* Falls back to one action per transition (an atom of the formula splits
 * one of the reader's actions); 0, or -1 on a limit. */
int co_comps_per_transition(co_mem *cm, const cnet_t *cn, co_comps *c);
void co_comps_free(co_mem *cm, const cnet_t *cn, co_comps *c);
/* The LTS of component k alone: its places as states, one edge per
 * (source, action, target) of its transitions; only what its start
 * reaches.  state_of[local] gets the LTS state or CO_NONE. */
int co_comps_leaf(co_mem *cm, const co_comps *c, uint32_t k, co_lts *out, uint32_t *state_of);

/* ---- letters (letters.c) ----
 * The formula sees a step only through its action propositions: the
 * letter of a transition is the set of those that hold for it. */
typedef struct co_letters {
    uint32_t natoms;
    const tree_t **atoms;           /* the T_ACTION nodes, in pre-order */
    uint32_t nletters;
    uint32_t words;                 /* 64-bit words per letter */
    uint64_t *bits;                 /* nletters * words */
    uint32_t *trans_letter;         /* per transition */
    uint32_t empty;                 /* the letter of no atom, CO_NONE when no transition has it */
} co_letters;

int co_letters_find(co_mem *cm, const cnet_t *cn, const tree_t *formula, co_letters *L);
void co_letters_free(co_mem *cm, const cnet_t *cn, co_letters *L);
/* Whether letter x makes atom k true. */
static inline int co_letter_has(const co_letters *L, uint32_t x, uint32_t k)
{
    return (int)((L->bits[(size_t)x * L->words + k / 64] >> (k % 64)) & 1);
}
/* A copy of formula whose k-th action proposition (pre-order) holds for
 * the transitions t of a net with letter_of[t] making atom k true; NULL
 * on no memory. */
tree_t *co_letters_formula(const co_letters *L, const tree_t *formula, const uint32_t *letter_of,
                           uint32_t ntransitions);

/* ---- tables of state tuples (tuples.c) ----
 * Tuples of width uint32 each, numbered 0, 1, ... in the order they
 * come; tuple s is tuple[s * width ..].  A counted table stops at -m
 * (cm->max_states) as a state space does; the lifting searches' are not
 * counted. */
typedef struct co_tuples {
    uint32_t width;
    int counted;
    uint32_t *tuple;
    size_t cap_tuple;
    uint32_t n;
    uint32_t *slot;                 /* open addressing: number + 1, 0 empty */
    size_t nslots;
} co_tuples;

void co_tuples_init(co_tuples *T, uint32_t width, int counted);
/* The number of v, added when new (then *added, when added is not NULL);
 * CO_NONE on a limit (cm->gave_up). */
uint32_t co_tuples_add(co_mem *cm, co_tuples *T, const uint32_t *v, int *added);
/* The number of v, CO_NONE when it is not in T. */
uint32_t co_tuples_find(const co_tuples *T, const uint32_t *v);
static inline const uint32_t *co_tuples_at(const co_tuples *T, uint32_t s)
{
    return T->tuple + (size_t)s * T->width;
}
/* Empties T, keeping its room. */
void co_tuples_clear(co_tuples *T);
/* Gives back T's room; T stays usable, empty, with its width. */
void co_tuples_free(co_mem *cm, co_tuples *T);

/* ---- parallel composition (product.c) ----
 * Pairs (x, y) of a's and b's states reachable from (a.init, b.init):
 * label l synchronises when sync[l] (l below nactions), else either side
 * moves alone; every label l below nactions leaves as relabel[l].  The
 * table of the product's states (pairs, counted) stays for lifting runs. */
typedef co_tuples co_pairs;         /* width 2: x, y; zeroed is empty */

static inline uint32_t co_pairs_x(const co_pairs *p, uint32_t s)
{
    return p->tuple[2 * (size_t)s];
}
static inline uint32_t co_pairs_y(const co_pairs *p, uint32_t s)
{
    return p->tuple[2 * (size_t)s + 1];
}

typedef struct co_progress_fn {
    void (*fn)(void *ctx, uint64_t states, uint64_t edges);
    void *ctx;
} co_progress_fn;

int co_product(co_mem *cm, const co_lts *a, const co_lts *b, uint32_t nactions,
               const uint8_t *sync, const uint32_t *relabel, co_lts *out, co_pairs *pairs,
               const co_progress_fn *progress);
/* The product state of (x, y), CO_NONE when it is not one. */
uint32_t co_pairs_find(const co_pairs *p, uint32_t x, uint32_t y);
/* The number of (x, y), the next one when new; CO_NONE on a limit (-m
 * counts too). */
uint32_t co_pairs_add(co_mem *cm, co_pairs *p, uint32_t x, uint32_t y);
void co_pairs_free(co_mem *cm, co_pairs *p);

/* ---- context constraints (context.c) ----
 * Clears alive[e] (a byte per edge of l, read as well) for the edges no
 * reachable state of l x env takes, where l's alive edges whose label
 * lab < nlabels is of action lab >> shift with iface[action] set move
 * with an edge of env of that action, env's edges of other labels move
 * env alone, and l's others move l alone.  1 when searched, 0 when the
 * search passed max_pairs (nothing cleared), -1 on a limit. */
int co_context_cut(co_mem *cm, const co_lts *l, uint8_t *alive, uint32_t shift, uint32_t nlabels,
                   const co_lts *env, uint32_t nactions, const uint8_t *iface, size_t max_pairs);
/* The same with env's interface on iface in its place: env, its other
 * steps hidden, determinised and minimised (the same steps of what l's
 * start reaches are cut); nothing is searched when that interface is one state offering
 * every action of iface, or env has more than 256 states.  0 or 1 as
 * co_context_cut, -1 on a limit. */
int co_context_by(co_mem *cm, const co_lts *l, uint8_t *alive, uint32_t shift, uint32_t nlabels,
                  const co_lts *env, uint32_t nactions, const uint8_t *iface, size_t max_pairs);
/* l with its alive edges only, and only the states its start reaches by
 * them: keep[s] is the new number of s, or CO_NONE. */
int co_context_keep(co_mem *cm, const co_lts *l, const uint8_t *alive, co_lts *out, uint32_t *keep);
/* raw cut to its alive edges (co_context_keep) when some edge is dead:
 * then *cut is the cut LTS and *keep the numbering (allocated,
 * raw->nstates); else both stay as they were (*cut raw, *keep NULL).  0,
 * or -1 on a limit (*cut raw, *keep NULL). */
int co_context_apply(co_mem *cm, const co_lts *raw, const uint8_t *alive, co_lts *cut,
                     uint32_t **keep);
/* The pairs a cut of l may search: at most limit, and no more than a
 * small multiple of l's states, since what it can save is l's size. */
static inline size_t context_bound(uint64_t limit, const co_lts *l)
{
    uint64_t mine = 4 * (uint64_t)l->nstates + 65536;
    return (size_t)(mine < limit ? mine : limit);
}
struct co_node;
/* Each of the leaves (leaves[k] component k's node, labels below A its
 * actions) cut by every other sharing an action with it, minimised
 * (strong bisimulation) again after a cut, state_block following; rounds
 * until no leaf loses an edge.  0, or -1 on a limit. */
int co_context_leaves(co_mem *cm, const co_comps *C, uint32_t A, struct co_node *leaves,
                      uint64_t max_pairs);

/* ---- strong bisimulation (bisim.c) ----
 * The coarsest strong bisimulation of l by partition refinement (Paige
 * and Tarjan's three-way splitting, labelled), and the quotient: block[s]
 * is the quotient state of s.  O(m log n). */
int co_minimise(co_mem *cm, const co_lts *l, co_lts *out, uint32_t *block);

/* ---- branching bisimulation with explicit divergence ----
 * The tau-cycles of l contracted (taugraph.c): comp[s] is the component
 * of s, numbered tau-successors first; div[c] says a tau-edge stays
 * inside c; c's edges are [cfirst[c], cfirst[c+1]) of clab and cdst,
 * each (label, component) once, sorted, tau-edges inside c left out. */
typedef struct co_taugraph {
    uint32_t n, nc;                 /* states, components */
    uint32_t *comp;
    uint8_t *div;
    uint32_t *cfirst, *clab, *cdst;
    size_t nedges, room;            /* room: of clab and cdst */
} co_taugraph;
int co_taugraph_build(co_mem *cm, const co_lts *l, uint32_t tau, co_taugraph *g);
void co_taugraph_free(co_mem *cm, co_taugraph *g);
/* The quotient of l by classes of g's components, class_of[c] < nclasses,
 * every class used: quotient states numbered in the order of their first
 * state (block[s]), every edge but the inert tau ones, and a tau-loop on a
 * class with a divergent component.  The two minimisers share it, so their
 * quotients of one partition are the same LTS. */
int co_taugraph_quotient(co_mem *cm, const co_lts *l, const co_taugraph *g, uint32_t tau,
                         const uint32_t *class_of, uint32_t nclasses, co_lts *out,
                         uint32_t *block);
/* The coarsest one of l, label tau the silent step, and its quotient:
 * block[s] is the quotient state of s; a divergent block gets a
 * tau-loop.  co_minimise_branching refines by splitters (gvbranch.c,
 * Groote and Vaandrager's algorithm); the signatures one (divbranch.c,
 * Blom and Orzan's) is the reference the tests hold it to.  Both give
 * the same partition; the numbering of the blocks may differ. */
int co_minimise_branching(co_mem *cm, const co_lts *l, uint32_t tau, co_lts *out,
                          uint32_t *block);
int co_minimise_branching_signatures(co_mem *cm, const co_lts *l, uint32_t tau, co_lts *out,
                                     uint32_t *block);

/* ---- infinite runs (prune.c) ----
 * The states of l from which an infinite run starts, as l restricted to
 * them: keep[s] is the new number of s, or CO_NONE.  out->nstates is 0
 * when the start has none. */
int co_prune_finite(co_mem *cm, const co_lts *l, co_lts *out, uint32_t *keep);

/* ---- the formula on what composing left (ltlprod.c) ----
 * A system hands out the steps of its states, numbered by it, as
 * (letter << 32 | target) in a buffer of its own that stays valid until
 * the next call; -1 on a limit. */
typedef struct co_system {
    void *ctx;
    uint32_t init;
    int (*steps)(void *ctx, uint32_t s, const uint64_t **steps, size_t *n);
} co_system;

/* A lasso of a system as its steps; CO_STUTTER_STEP for the repetition
 * of a state without steps (finite runs repeating their end). */
#define CO_NO_STEP UINT64_MAX
#define CO_STUTTER_STEP (UINT64_MAX - 1)
typedef struct co_lasso {
    uint64_t *step;
    size_t len, cap, loop_start;
} co_lasso;

/* An LTS whose labels are A + letter as a system (ctx: co_lts_system). */
typedef struct co_lts_system {
    co_mem *cm;
    const co_lts *l;
    uint32_t A;
    uint64_t *buf;
    size_t cap;
    uint32_t one;       /* room for a state as a tuple of one */
} co_lts_system;
int co_lts_steps(void *ctx, uint32_t s, const uint64_t **steps, size_t *n);

struct progress;
/* Whether every run of sys satisfies formula: 0 yes, 1 no (with the
 * lasso in out when want_run: co_free_grown on out->step), -1 on a limit
 * (cm->gave_up), -2 when the formula does not translate (why).  *states
 * and *edges: the product's. */
int co_ltl_check(co_mem *cm, const cnet_t *cn, const co_letters *L, const co_system *sys,
                 const tree_t *formula, int infinite_only, int want_run, struct progress *prog,
                 co_lasso *out, uint64_t *states, uint64_t *edges, char *why, size_t whylen);

/* ---- the composition tree ----
 * A leaf is one component's LTS, an inner node the product of two nodes
 * made before it; each keeps, for lifting runs, where its states went:
 * state_block[raw] is the minimised state of raw state raw (a leaf's raw
 * states are its component's local places; the root's final state, after
 * pruning and minimising again, CO_NONE when pruned). */
typedef struct co_node {
    co_lts l;                       /* minimised; freed once composed */
    int32_t left, right;            /* -1 for a leaf */
    uint32_t comp;                  /* a leaf's component */
    uint32_t ncomps;
    /* the actions still to synchronise with outside: with how many of
     * their owners are inside, sorted by action */
    uint32_t *iface, *iface_in, niface, iface_room;
    uint32_t *state_block;
    uint32_t nraw;
    size_t raw_edges;
    co_pairs pairs;                 /* inner nodes: raw state of each pair */
    int alive;                      /* not yet composed into another */
    int flag;                       /* the leaf of the gap flag (snowball.c) */
} co_node;

/* ---- the parts left, explored on the fly (network.c) ----
 * The product of the parts part[0..nparts) of nodes (their minimised
 * LTSs; the open actions are those of their interfaces) as a co_system:
 * ctx is the network, steps co_network_steps, init W->init. */
typedef struct co_network {
    co_mem *cm;
    const co_node *nodes;
    const uint32_t *part;
    uint32_t nparts, A;
    const uint32_t *action_letter;
    uint32_t *owner_first, *owner_part;     /* per action: the parts that have it */
    co_tuples states;                       /* width nparts */
    uint32_t init;
    uint64_t *buf;                          /* the steps handed out */
    size_t nbuf, cap_buf;
    uint32_t *cur, *next;
    size_t *lo, *hi, *pick;
} co_network;

int co_network_init(co_network *W, co_mem *cm, const co_node *nodes, const uint32_t *part,
                    uint32_t nparts, uint32_t nactions, const uint32_t *action_letter);
int co_network_steps(void *ctx, uint32_t s, const uint64_t **steps, size_t *n);
/* The parts' states of network state s. */
const uint32_t *co_network_tuple(const co_network *W, uint32_t s);
void co_network_free(co_network *W);

/* ---- LTL without X, unnamed steps hidden (snowball.c, liftbranch.c) ----
 * The gap flag and the snowball of docs/compose.md. */
typedef struct co_snow {
    co_mem *cm;                     /* the parts' account */
    co_mem *chk;                    /* the check's */
    const cnet_t *cn;
    const co_comps *C;
    const co_letters *L;
    uint32_t A;
    const uint32_t *action_letter;
    const check_options *opt;
    struct progress *prog;
    uint64_t limit;                 /* the largest product of sizes joined */
    uint64_t context_pairs;         /* compose_tuning's */
    co_node *nodes;                 /* the observer, the leaves, the snowballs */
    size_t cap_nodes;
    uint32_t nnodes, root;
    uint32_t *in;                   /* per action: its components in the snowball */
    uint32_t *pending;              /* per letter: its actions no one in the snowball has */
    /* the last snowball as letters: the states that stand for (v, 1) */
    uint32_t ninter, *inter_from, *inter_to, *inter_lab;
    uint32_t nword, *keep;          /* its states: their number after pruning */
    uint32_t largest, word_states;
    uint64_t raw_states, raw_edges;
    /* set when its counterexample did not lift for a reason that is no
     * limit (co_lift_contradicts): its NO is not to be trusted */
    const char *unlifted;
} co_snow;

/* Lifting failed because no step of the net fits the abstract step or a
 * lifted state left its block ("(a bug)" in why), not because of a limit:
 * then the reduced system has a run the net has not, the argument that
 * the reduction keeps the answer failed on this input, and its NO must
 * not be printed. */
static inline int co_lift_contradicts(const char *why)
{
    return why && strstr(why, "(a bug)") != NULL;
}

/* 1: answered (res), 0: the snowball would pass S->limit (compose
 * without hiding instead), -1: a limit (cm->gave_up).  Only for formulas
 * without X and when only infinite runs count. */
int co_snowball(co_snow *S, const tree_t *formula, result_t *res);
void co_snowball_free(co_snow *S);
/* The formula on the last snowball as letters (pruned), its
 * counterexample lifted to the net; 0 or -1 on a limit. */
int co_snowball_check(co_snow *S, const co_lts *word, const tree_t *formula, result_t *res);

/* The snowball (part[0]) and the leaves not in it (part[1 ..]) explored
 * together as a co_system: ctx a co_snownet, steps co_snownet_steps.  A
 * state is a tuple of the parts' states and a last slot: 0, or v + 1 for
 * the state between the 0 and the v of a step (v, 1). */
typedef struct co_snownet {
    co_snow *S;
    co_mem *cm;
    const uint32_t *part;
    uint32_t nparts, width;
    uint32_t *owner_first, *owner;  /* per action: the leaves (1 ..) that have it */
    uint32_t *alone_first, *alone;  /* per letter: actions no component in the snowball has */
    co_tuples states;               /* width width */
    uint32_t init;
    uint64_t *buf;
    size_t nbuf, cap_buf;
    uint32_t *cur, *next;
    size_t *lo, *hi, *pick;
} co_snownet;
int co_snownet_init(co_snownet *W, co_snow *S, co_mem *cm, const uint32_t *part, uint32_t nparts);
int co_snownet_steps(void *ctx, uint32_t s, const uint64_t **steps, size_t *n);
const uint32_t *co_snownet_tuple(const co_snownet *W, uint32_t s);
void co_snownet_free(co_snownet *W);

/* A lasso over blocks, each a tuple of states of the parts part[]: each
 * step hidden steps within its from-block, then one of its kind: hidden
 * into its to-block, hidden within (a divergence), or of letter `letter`
 * with the flag at g into its to-block; none: no step of its own. */
typedef enum { CO_STEP_NONE, CO_STEP_HIDDEN, CO_STEP_INERT, CO_STEP_SEEN } co_step_kind;
typedef struct co_bstep {
    co_step_kind kind;
    uint32_t letter, g;
    uint32_t from, to;              /* tuples: P->tuple + from * nparts */
} co_bstep;
typedef struct co_bpath {
    co_bstep *step;
    size_t len, loop_start;
    uint32_t *tuple;
    uint32_t ntuples;
} co_bpath;
int co_lift_branching(co_snow *S, const uint32_t *part, uint32_t nparts, const co_bpath *P,
                      result_t *res);
void co_bpath_free(co_mem *cm, co_bpath *P, uint32_t nparts);

/* Each node's minimised state of marking m into val[0..nnodes): each
 * component's place (the flag leaf's: flag), then each node bottom up;
 * CO_NONE where m is not reachable in it. */
void co_state_of(const co_comps *c, const co_node *nodes, uint32_t nnodes, const nc_count *m,
                 uint32_t flag, uint32_t *val);

/* ---- lifting (lift.c) ----
 * A lasso of what the formula was checked on, the product of the parts
 * part[0..nparts) (nodes, each with its minimised states; one part: the
 * final LTS), as each step's letter and the parts' states after it, into
 * a lasso of the net: from the net's initial marking, each step by the
 * first enabled transition of its letter whose successor lies in the
 * step's states (strong bisimulation promises one), the loop again and
 * again until a marking where it starts repeats.  loop_start == len: the
 * run ends in a deadlock that repeats; RESULT_NO_LOOP: a finite run.  0
 * with the run in res, or -1 (cm->gave_up set). */
typedef struct co_abstract_run {
    uint32_t nparts;
    const uint32_t *part;           /* node numbers */
    const uint32_t *letter;         /* per step */
    const uint32_t *dst;            /* per step, nparts states */
    size_t len, loop_start;
} co_abstract_run;

int co_lift(co_mem *cm, const cnet_t *cn, const co_comps *c, const co_letters *L,
            const co_node *nodes, uint32_t nnodes, const co_abstract_run *ar, result_t *res);

#endif
