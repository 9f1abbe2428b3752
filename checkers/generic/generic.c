/* The generic properties as a whole: their names, the two halves in
 * order, and the bookkeeping of a value. */
#include "checkers/generic/generic.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gp_set(gp_value *v, int value, const char *techniques, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    v->value = value;
    vsnprintf(v->explanation, sizeof v->explanation, fmt, ap);
    snprintf(v->techniques, sizeof v->techniques, "%s", techniques);
    va_end(ap);
}

static const char *const names[GP_COUNT] = {
    "ORDINARY", "SIMPLE_FREE_CHOICE", "EXTENDED_FREE_CHOICE", "STATE_MACHINE", "MARKED_GRAPH",
    "CONNECTED", "STRONGLY_CONNECTED", "SOURCE_PLACE", "SINK_PLACE", "SOURCE_TRANSITION",
    "SINK_TRANSITION", "LOOP_FREE", "CONSERVATIVE", "SUBCONSERVATIVE", "NESTED_UNITS",
    "SAFE", "DEAD_PLACES", "DEAD_TRANSITIONS", "DEADLOCK", "REVERSIBLE", "LIVE", "QUASI_LIVE",
};

const char *gp_name(gp_id id)
{
    return id < GP_COUNT ? names[id] : "?";
}

void generic_properties(const cnet_t *cn, const check_options *opt, gp_result *out)
{
    memset(out, 0, sizeof *out);
    for (int i = 0; i < GP_COUNT; i++) {
        out->v[i].value = -1;
        out->v[i].loop_start = RESULT_NO_LOOP;
    }
    generic_structural(cn, out);
    generic_behavioural(cn, opt, out);
}

void gp_result_clear(gp_result *r)
{
    for (int i = 0; i < GP_COUNT; i++)
        free(r->v[i].run);
    memset(r, 0, sizeof *r);
}

const char *gp_place_name(const net_t *n, uint32_t p)
{
    return n->places[p].name ? n->places[p].name : n->places[p].id ? n->places[p].id : "?";
}

const char *gp_transition_name(const net_t *n, uint32_t t)
{
    return n->transitions[t].name ? n->transitions[t].name
           : n->transitions[t].id ? n->transitions[t].id : "?";
}
