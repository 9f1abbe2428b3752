/* The generic properties of a net, as the MCC defines them
 * (GenericPropertiesDefinition.xml, mcc-formats.md §4): fifteen
 * structural ones from the net's graph (genericstruct.c, each linear or
 * near-linear in the arcs), six behavioural ones from the state equation
 * and one exploration of the reachability graph (genericbeh.c), plus
 * QUASI_LIVE, the negation of DEAD_TRANSITIONS that older files use.
 *
 * Each value comes with an explanation in the net's terms (names of its
 * places and transitions) and, where a run shows it, the run (a
 * deadlock, a marking with two tokens in a place). */
#ifndef MCK_GENERIC_H
#define MCK_GENERIC_H

#include "base/netconv.h"
#include "base/result.h"

typedef enum {
    GP_ORDINARY, GP_SIMPLE_FREE_CHOICE, GP_EXTENDED_FREE_CHOICE, GP_STATE_MACHINE,
    GP_MARKED_GRAPH, GP_CONNECTED, GP_STRONGLY_CONNECTED, GP_SOURCE_PLACE, GP_SINK_PLACE,
    GP_SOURCE_TRANSITION, GP_SINK_TRANSITION, GP_LOOP_FREE, GP_CONSERVATIVE,
    GP_SUBCONSERVATIVE, GP_NESTED_UNITS,
    /* behavioural */
    GP_SAFE, GP_DEAD_PLACES, GP_DEAD_TRANSITIONS, GP_DEADLOCK, GP_REVERSIBLE, GP_LIVE,
    GP_QUASI_LIVE,
    GP_COUNT
} gp_id;

typedef struct gp_value {
    int value;                 /* 1, 0, or -1 unknown */
    char explanation[256];
    char techniques[64];       /* MCC technique names, space-separated */
    run_role role;             /* RUN_NONE when no run */
    uint32_t *run;             /* malloc'd transition indices */
    size_t run_len, loop_start;
} gp_value;

typedef struct gp_result {
    gp_value v[GP_COUNT];
    uint64_t states;           /* markings explored */
    int complete;              /* the exploration saw every reachable marking */
} gp_result;

const char *gp_name(gp_id id);   /* "ORDINARY", ... */

/* All properties of cn.  Structural ones always get a value; behavioural
 * ones may stay unknown (-1) when opt's limits stop the exploration, with
 * the reason as explanation. */
void generic_properties(const cnet_t *cn, const check_options *opt, gp_result *out);
void gp_result_clear(gp_result *r);

/* genericstruct.c, genericbeh.c: the two halves. */
void generic_structural(const cnet_t *cn, gp_result *out);
void generic_behavioural(const cnet_t *cn, const check_options *opt, gp_result *out);

/* How explanations name a place or transition: its name, else its id. */
const char *gp_place_name(const net_t *n, uint32_t p);
const char *gp_transition_name(const net_t *n, uint32_t t);

/* Sets a value with a printf-style explanation. */
void gp_set(gp_value *v, int value, const char *techniques, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
