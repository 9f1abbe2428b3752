/* netconv: the intermediate Petri net every reader builds and every checker
 * reads.  net_t is the builder form (readers write it, nothing else changes
 * it); cnet_t is the compiled, read-only form checkers run on.
 *
 * Token counts and arc weights are 64-bit: MCC nets carry initial markings
 * above 2^32 (the GPPP family), so a 31-bit limit would reject real input.
 * Every count is checked against NC_COUNT_MAX when read. */
#ifndef MCK_NETCONV_H
#define MCK_NETCONV_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef uint64_t nc_count;
#define NC_COUNT_MAX ((nc_count)INT64_MAX)

/* Hard limits on net size: indices are 32-bit everywhere. */
#define NC_MAX_NODES 0x3fffffff

typedef enum { NC_ARC_PT, NC_ARC_TP, NC_ARC_READ } nc_arc_kind;

typedef struct nc_place {
    char *id;       /* unique within places; what MCC formulas refer to */
    char *name;     /* what the user reads; may repeat (PEP warns) */
    char *comment;  /* e.g. PEP's meaning field; NULL when absent */
    nc_count initial;
} nc_place;

typedef struct nc_transition {
    char *id;
    char *name;
    char *comment;
} nc_transition;

typedef struct nc_arc {
    uint32_t place, transition;
    nc_arc_kind kind;
    nc_count weight;
} nc_arc;

/* Extra information: a partition of (some) places into units, possibly
 * nested (PNML NUPN units; later CFA automata).  Only ever a hint. */
typedef struct nc_unit {
    char *name;
    int32_t parent;       /* index of the enclosing unit, -1 for a root */
    uint32_t nplaces;
    uint32_t *places;
} nc_unit;

/* A named group of places or transitions: a colored net's place or
 * transition stands for its unfolded copies.  A formula naming the group
 * means all of them (the sum of their tokens, any of them fireable). */
typedef struct nc_group {
    char *name;
    uint32_t *members;
    uint32_t n;
} nc_group;

typedef struct cnet cnet_t;

typedef struct net {
    char *name;
    char *file;             /* path the net was read from, for messages */
    const char *language;   /* name of the input_types[] row that read it */

    nc_place *places;
    size_t nplaces, cap_places;
    nc_transition *transitions;
    size_t ntransitions, cap_transitions;
    nc_arc *arcs;
    size_t narcs, cap_arcs;

    nc_unit *units;
    size_t nunits, cap_units;
    int units_claim_safe;   /* the source asserts the net is 1-safe */
    /* The language's LTL properties are about infinite runs only: a run
     * that ends in a deadlock is no counterexample (RERS, docs/languages/rers.md,
     * Property files).  Otherwise the dead marking repeats forever. */
    int ltl_infinite_only;

    /* Set by a reader that unfolded a colored net: the groups of unfolded
     * copies (by the colored node's id) and the size before unfolding, for
     * reports.  Checkers never look at them: the unfolded net is the model. */
    nc_group *place_groups, *transition_groups;
    size_t nplace_groups, ntransition_groups;
    size_t cap_place_groups, cap_transition_groups;
    struct { int unfolded; size_t places, transitions, arcs; } colored;

    /* Language-owned data (e.g. CFA automata), freed with the net. */
    void *lang_data;
    void (*lang_free)(void *);

    /* Optional, set by a reader: what step t of a run means in the model's
     * terms, as attributes of the step in verdict traces.  before and after
     * are the markings around the step.  Writes up to max key/value pairs
     * (kv[2i] the key, kv[2i+1] the value, both pointing into buf) and
     * returns how many. */
    size_t (*lang_step_attrs)(const struct net *net, const nc_count *before,
                              const nc_count *after, uint32_t t, char *buf, size_t buflen,
                              const char **kv, size_t max);

    /* private indexes, built on demand */
    struct nc_index *place_ids, *transition_ids, *place_names, *transition_names;
    struct nc_arcindex *arc_index;
    cnet_t *compiled;

    /* Optional, set by a reader whose transitions synchronise by name
     * (RERS: the edge label) with nc_set_actions: the action of each
     * transition, below nactions.  The claim behind it, which a checker
     * relying on it verifies first (checkers/compose): the transitions of
     * one action are every combination of one step of each sequential
     * component that has the action.  NULL: the net says nothing. */
    uint32_t *transition_actions;
    uint32_t nactions;
} net_t;

/* ---- building (the Kit's API) ---- */
net_t *nc_create_net(const char *name, const char *file);
void nc_free_net(net_t *net);

/* Return the new index, or a negative nc_status.  id may be NULL (then the
 * node is only reachable by index); name NULL means "same as id". */
enum nc_status {
    NC_OK = 0,
    NC_ERR_DUPLICATE_ID = -1,
    NC_ERR_TOO_MANY = -2,
    NC_ERR_NO_MEMORY = -3,
    NC_ERR_BAD_WEIGHT = -4,
    NC_ERR_BAD_INDEX = -5,
    NC_ERR_DUPLICATE_ARC = -6,  /* same place, transition and kind again */
    NC_ERR_OVERFLOW = -7,
    /* the stages before a search were told to stop (budget_poll): every
     * reader builds its net here, so each one stops at a limit */
    NC_ERR_STOPPED = -8,
};
const char *nc_status_text(int status);

int nc_create_place(net_t *net, const char *id, const char *name, nc_count initial);
int nc_create_transition(net_t *net, const char *id, const char *name);
/* Adds an arc.  A second arc with the same (kind, place, transition) is
 * refused with NC_ERR_DUPLICATE_ARC unless merge is set, in which case the
 * weights are added (PNML's multiset reading). */
int nc_create_arc(net_t *net, nc_arc_kind kind, uint32_t place, uint32_t transition,
                  nc_count weight, int merge);
/* The weight of an existing arc, 0 when there is none. */
nc_count nc_arc_weight(net_t *net, nc_arc_kind kind, uint32_t place, uint32_t transition);
int nc_set_comment(char **field, const char *text);

/* The action of every transition (ntransitions entries, each below
 * nactions; copied), replacing any before.  0, or a negative status
 * (NC_ERR_BAD_INDEX for an action out of range). */
int nc_set_actions(net_t *net, const uint32_t *actions, uint32_t nactions);

/* Partition / units.  nc_add_unit returns the unit index or a negative status. */
int nc_add_unit(net_t *net, const char *name, int32_t parent);
int nc_unit_add_place(net_t *net, uint32_t unit, uint32_t place);

/* Adds a group of n places (transitions != 0: transitions) under name;
 * the members are copied.  Returns 0 or a negative status. */
int nc_add_group(net_t *net, int transitions, const char *name, const uint32_t *members,
                 uint32_t n);
/* The group called name, or NULL. */
const nc_group *nc_find_group(const net_t *net, int transitions, const char *name);

/* ---- lookups ---- */
/* By id: index, or -1 when unknown. */
int64_t nc_find_place(net_t *net, const char *id);
int64_t nc_find_transition(net_t *net, const char *id);
/* By user-visible name: index, -1 when unknown, -2 when ambiguous. */
int64_t nc_find_place_by_name(net_t *net, const char *name);
int64_t nc_find_transition_by_name(net_t *net, const char *name);

/* ---- messages ----
 * nc_error/nc_warning print "FILE:LINE: message" (line 0 omits it) on
 * stderr.  Warnings and nc_info appear only at verbosity >= 1 (-v).
 * Neither prints once a limit has stopped the reading (budget_stopped):
 * the command then answers UNKNOWN with the limit instead. */
void nc_set_verbosity(int level);
int nc_verbosity(void);
void nc_error(const char *file, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void nc_error_col(const char *file, long line, long col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void nc_warning(const char *file, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void nc_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void nc_print(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Number of nc_error calls so far (tests and main use it). */
unsigned long nc_error_count(void);

/* ---- summaries ---- */
typedef struct nc_summary {
    size_t places, transitions, arcs, pt_arcs, tp_arcs, read_arcs;
    nc_count tokens;          /* saturates at NC_COUNT_MAX */
    int tokens_saturated;
    int syntactically_safe;   /* all weights 1 and initial marking <= 1 */
} nc_summary;
void nc_summarize(const net_t *net, nc_summary *out);

/* ---- compiled form ---- */
typedef struct cnet {
    const net_t *net;
    uint32_t nplaces, ntransitions;
    nc_count *initial;               /* nplaces */

    /* Enabling: transition t needs m[need_place[i]] >= need_weight[i] for
     * i in [need_start[t], need_start[t+1]).  Consumption and read arcs on
     * the same place are merged to their maximum. */
    uint32_t *need_start, *need_place;
    nc_count *need_weight;
    /* Firing: m[eff_place[i]] += eff_delta[i] for i in
     * [eff_start[t], eff_start[t+1]); only non-zero changes are listed. */
    uint32_t *eff_start, *eff_place;
    int64_t *eff_delta;
    /* Plain pre/post sets (consumption and production), for structural
     * reasoning: pre_* lists W(p,t) > 0, post_* lists W(t,p) > 0. */
    uint32_t *pre_start, *pre_place, *post_start, *post_place;
    nc_count *pre_weight, *post_weight;

    /* Transitions whose enabledness firing t may change: those that need a
     * place t's firing changes.  NULL when the lists would be too large
     * (dense nets); callers then rescan all transitions. */
    uint32_t *dep_start, *dep_list;

    /* Transitions that need a given place (for incremental enabledness). */
    uint32_t *consumers_start, *consumers;

    int safe_hint;   /* initial marking and all weights <= 1 */
} cnet_t;

/* Compiles (once; cached in net->compiled).  NULL on out of memory, after
 * nc_error. */
const cnet_t *nc_compile(net_t *net);
void nc_free_compiled(cnet_t *cn);

static inline int cn_enabled(const cnet_t *cn, const nc_count *m, uint32_t t)
{
    for (uint32_t i = cn->need_start[t]; i < cn->need_start[t + 1]; i++)
        if (m[cn->need_place[i]] < cn->need_weight[i])
            return 0;
    return 1;
}

/* No transition is enabled at m. */
int cn_dead(const cnet_t *cn, const nc_count *m);

/* Fires an enabled t.  Returns 0, or -1 when a count would exceed
 * NC_COUNT_MAX (the marking is then left unchanged). */
int cn_fire(const cnet_t *cn, nc_count *m, uint32_t t);

/* Writes the marked places as "p, q(2)" (places in net order, "(empty)"
 * when none): the state format of the net languages' run output. */
void nc_print_marking(FILE *out, const net_t *net, const nc_count *m);

#endif
