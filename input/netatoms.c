/* Atomic propositions of the plain net languages (formula-syntax.md §6):
 * a string is a place (marked, or its token count) or, in fireable(), a
 * transition.  Names the user reads come first, ids second, so that PEP's
 * quoted names and PNML's ids both work. */
#include <stdio.h>
#include <stdlib.h>
#include "input.h"

static int64_t find_place(net_t *net, const char *text, char *msg, size_t msglen)
{
    int64_t p = nc_find_place_by_name(net, text);
    if (p == -2) {
        snprintf(msg, msglen, "ambiguous place name \"%s\"", text);
        return -1;
    }
    if (p < 0)
        p = nc_find_place(net, text);
    if (p < 0)
        snprintf(msg, msglen, "unknown atomic proposition \"%s\"", text);
    return p;
}

static tree_t *fireable(net_t *net, const char *text, char *msg, size_t msglen)
{
    int64_t t = nc_find_transition_by_name(net, text);
    if (t == -2) {
        snprintf(msg, msglen, "ambiguous transition name \"%s\"", text);
        return NULL;
    }
    if (t < 0)
        t = nc_find_transition(net, text);
    if (t < 0) {
        snprintf(msg, msglen, "unknown transition \"%s\"", text);
        return NULL;
    }
    uint32_t index = (uint32_t)t;
    return tree_fireable(&index, 1);
}

/* A colored node of an unfolded net: all its copies, as one atom (a sum
 * of tokens, or any copy fireable). */
static tree_t *group_atom(net_t *net, const nc_group *g, ap_pos pos)
{
    if (pos == AP_FIREABLE)
        return g->n ? tree_fireable(g->members, g->n) : tree_const(0);
    lin_term *terms = malloc((g->n ? g->n : 1) * sizeof *terms);
    if (!terms)
        return NULL;
    for (uint32_t i = 0; i < g->n; i++)
        terms[i] = (lin_term){ g->members[i], 1 };
    (void)net;
    tree_t *t = tree_cmp(terms, g->n, pos == AP_BOOL ? -1 : 0, REL_GE);
    free(terms);
    return t;
}

tree_t *netlang_resolve(net_t *net, void *lang_data, ap_pos pos, const char *text,
                        char *msg, size_t msglen)
{
    (void)lang_data;
    /* the unfolded copies are named by the colored node's id only when
     * nothing else has that name */
    if (nc_find_place_by_name(net, text) == -1 && nc_find_place(net, text) < 0 &&
        nc_find_transition_by_name(net, text) == -1 && nc_find_transition(net, text) < 0) {
        const nc_group *g = nc_find_group(net, pos == AP_FIREABLE, text);
        if (g)
            return group_atom(net, g, pos);
    }
    if (pos == AP_FIREABLE)
        return fireable(net, text, msg, msglen);
    int64_t p = find_place(net, text, msg, msglen);
    if (p < 0)
        return NULL;
    lin_term term = { (uint32_t)p, 1 };
    /* marked: M(p) - 1 >= 0;  a count: M(p) + 0 (the relation is ignored) */
    if (pos == AP_BOOL)
        return tree_cmp(&term, 1, -1, REL_GE);
    return tree_cmp(&term, 1, 0, REL_GE);
}

tree_t *netlang_formula(const char *path, net_t *net, prop_kind *kind)
{
    return formula_parse_file(path, net, NULL, netlang_resolve, kind);
}
