/* netconv: building, indexing and compiling the intermediate net. */
#include "base/netconv.h"
#include "base/budget.h"
#include "base/grow.h"
#include "base/strmap.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* messages */

static int verbosity;
static unsigned long errors;

void nc_set_verbosity(int level) { verbosity = level; }
int nc_verbosity(void) { return verbosity; }
unsigned long nc_error_count(void) { return errors; }

static void vmessage(const char *file, long line, long col, const char *kind,
                     const char *fmt, va_list ap)
{
    if (file && line > 0 && col > 0)
        fprintf(stderr, "%s:%ld:%ld: %s", file, line, col, kind);
    else if (file && line > 0)
        fprintf(stderr, "%s:%ld: %s", file, line, kind);
    else if (file)
        fprintf(stderr, "%s: %s", file, kind);
    else
        fprintf(stderr, "mck: %s", kind);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

/* A reader that a limit stopped (budget.h) fails on whatever it was
 * doing; what it would say about that is not about its input. */
void nc_error(const char *file, long line, const char *fmt, ...)
{
    va_list ap;
    errors++;
    if (budget_stopped())
        return;
    va_start(ap, fmt);
    vmessage(file, line, 0, "", fmt, ap);
    va_end(ap);
}

void nc_error_col(const char *file, long line, long col, const char *fmt, ...)
{
    va_list ap;
    errors++;
    if (budget_stopped())
        return;
    va_start(ap, fmt);
    vmessage(file, line, col, "", fmt, ap);
    va_end(ap);
}

void nc_warning(const char *file, long line, const char *fmt, ...)
{
    va_list ap;
    if (verbosity < 1 || budget_stopped())
        return;
    va_start(ap, fmt);
    vmessage(file, line, 0, "warning: ", fmt, ap);
    va_end(ap);
}

void nc_info(const char *fmt, ...)
{
    va_list ap;
    if (verbosity < 1)
        return;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
}

void nc_print(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stdout, fmt, ap);
    va_end(ap);
}

const char *nc_status_text(int status)
{
    switch (status) {
    case NC_OK: return "ok";
    case NC_ERR_DUPLICATE_ID: return "duplicate id";
    case NC_ERR_TOO_MANY: return "too many nodes";
    case NC_ERR_NO_MEMORY: return "out of memory";
    case NC_ERR_BAD_WEIGHT: return "arc weight must be at least 1";
    case NC_ERR_BAD_INDEX: return "no such place or transition";
    case NC_ERR_DUPLICATE_ARC: return "duplicate arc";
    case NC_ERR_OVERFLOW: return "count too large";
    case NC_ERR_STOPPED: return "stopped by a limit";
    }
    return "unknown error";
}

/* ------------------------------------------------------------------ */
/* id and name -> index */

/* The keys are the nodes' own id and name strings, which live as long as
 * the net.  Names need not be unique: an ambiguous name keeps its first
 * node in the map, and amb (one byte a node, names only) marks that node's
 * name as shared. */
typedef struct nc_index {
    strmap map;
    uint8_t *amb;
} nc_index;

typedef const char *(*key_of)(const net_t *net, uint32_t i);

static const char *place_name(const net_t *n, uint32_t i) { return n->places[i].name; }
static const char *trans_name(const net_t *n, uint32_t i) { return n->transitions[i].name; }

static void index_free(nc_index *x)
{
    if (!x)
        return;
    strmap_free(&x->map);
    free(x->amb);
    free(x);
}

static int64_t index_find(const nc_index *x, const char *k)
{
    if (!x)
        return -1;
    int64_t i = strmap_find(&x->map, k);
    return i >= 0 && x->amb && x->amb[i] ? -2 : i;
}

static nc_index *index_build(const net_t *net, size_t n, key_of key)
{
    nc_index *x = calloc(1, sizeof *x);
    if (!x || !(x->amb = calloc(n ? n : 1, 1))) {
        free(x);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        uint32_t first = (uint32_t)i;
        const char *k = key(net, (uint32_t)i);
        int r = k ? strmap_insert(&x->map, k, &first) : 1;
        if (r < 0) {
            index_free(x);
            return NULL;
        }
        if (r == 0)
            x->amb[first] = 1;
    }
    return x;
}

/* ------------------------------------------------------------------ */
/* arc index: (kind, place, transition) -> arc number */

typedef struct nc_arcindex {
    uint32_t *slots;    /* arc+1 */
    size_t cap, used;
} nc_arcindex;

static uint64_t arc_key_hash(nc_arc_kind k, uint32_t p, uint32_t t)
{
    uint64_t h = ((uint64_t)p << 32 | t) * 0x9E3779B97F4A7C15ULL;
    h ^= (uint64_t)k * 0xC2B2AE3D27D4EB4FULL;
    return h ^ (h >> 29);
}

static size_t arc_slot(const net_t *net, nc_arc_kind k, uint32_t p, uint32_t t)
{
    const nc_arcindex *x = net->arc_index;
    size_t j = arc_key_hash(k, p, t) & (x->cap - 1);
    while (x->slots[j]) {
        const nc_arc *a = &net->arcs[x->slots[j] - 1];
        if (a->kind == k && a->place == p && a->transition == t)
            break;
        j = (j + 1) & (x->cap - 1);
    }
    return j;
}

static int arcindex_grow(net_t *net)
{
    nc_arcindex *x = net->arc_index;
    size_t ncap = x->cap ? x->cap * 2 : 256;
    uint32_t *old = x->slots;
    size_t ocap = x->cap;
    x->slots = calloc(ncap, sizeof *x->slots);
    if (!x->slots) {
        x->slots = old;
        return -1;
    }
    x->cap = ncap;
    for (size_t i = 0; i < ocap; i++)
        if (old[i]) {
            const nc_arc *a = &net->arcs[old[i] - 1];
            x->slots[arc_slot(net, a->kind, a->place, a->transition)] = old[i];
        }
    free(old);
    return 0;
}

/* ------------------------------------------------------------------ */
/* building */

static char *dup_or_null(const char *s)
{
    return s ? strdup(s) : NULL;
}

net_t *nc_create_net(const char *name, const char *file)
{
    net_t *net = calloc(1, sizeof *net);
    if (!net)
        return NULL;
    net->name = strdup(name ? name : "");
    net->file = strdup(file ? file : "");
    net->arc_index = calloc(1, sizeof *net->arc_index);
    net->place_ids = calloc(1, sizeof *net->place_ids);
    net->transition_ids = calloc(1, sizeof *net->transition_ids);
    if (!net->name || !net->file || !net->arc_index || !net->place_ids ||
        !net->transition_ids) {
        nc_free_net(net);
        return NULL;
    }
    return net;
}


void nc_free_net(net_t *net)
{
    if (!net)
        return;
    for (size_t i = 0; i < net->nplaces; i++) {
        free(net->places[i].id);
        free(net->places[i].name);
        free(net->places[i].comment);
    }
    for (size_t i = 0; i < net->ntransitions; i++) {
        free(net->transitions[i].id);
        free(net->transitions[i].name);
        free(net->transitions[i].comment);
    }
    for (size_t i = 0; i < net->nunits; i++) {
        free(net->units[i].name);
        free(net->units[i].places);
    }
    for (size_t i = 0; i < net->nplace_groups; i++) {
        free(net->place_groups[i].name);
        free(net->place_groups[i].members);
    }
    for (size_t i = 0; i < net->ntransition_groups; i++) {
        free(net->transition_groups[i].name);
        free(net->transition_groups[i].members);
    }
    free(net->place_groups);
    free(net->transition_groups);
    free(net->places);
    free(net->transitions);
    free(net->arcs);
    free(net->units);
    free(net->transition_actions);
    index_free(net->place_ids);
    index_free(net->transition_ids);
    index_free(net->place_names);
    index_free(net->transition_names);
    if (net->arc_index)
        free(net->arc_index->slots);
    free(net->arc_index);
    nc_free_compiled(net->compiled);
    if (net->lang_free)
        net->lang_free(net->lang_data);
    free(net->name);
    free(net->file);
    free(net);
}

int nc_set_comment(char **field, const char *text)
{
    char *c = dup_or_null(text);
    if (text && !c)
        return NC_ERR_NO_MEMORY;
    free(*field);
    *field = c;
    return NC_OK;
}

static void invalidate_name_indexes(net_t *net)
{
    index_free(net->place_names);
    index_free(net->transition_names);
    net->place_names = net->transition_names = NULL;
}

int nc_create_place(net_t *net, const char *id, const char *name, nc_count initial)
{
    if (budget_poll())
        return NC_ERR_STOPPED;
    if (net->nplaces >= NC_MAX_NODES)
        return NC_ERR_TOO_MANY;
    if (initial > NC_COUNT_MAX)
        return NC_ERR_OVERFLOW;
    if (id && index_find(net->place_ids, id) >= 0)
        return NC_ERR_DUPLICATE_ID;
    if (GROW(net->places, net->cap_places, net->nplaces + 1))
        return NC_ERR_NO_MEMORY;
    nc_place *p = &net->places[net->nplaces];
    memset(p, 0, sizeof *p);
    p->id = dup_or_null(id);
    p->name = dup_or_null(name ? name : id);
    p->initial = initial;
    if ((id && !p->id) || ((name || id) && !p->name)) {
        free(p->id);
        free(p->name);
        return NC_ERR_NO_MEMORY;
    }
    uint32_t i = (uint32_t)net->nplaces++;
    /* the id is new (looked up above): i stays as it is */
    if (id && strmap_insert(&net->place_ids->map, p->id, &i) < 0) {
        net->nplaces--;
        free(p->id);
        free(p->name);
        return NC_ERR_NO_MEMORY;
    }
    invalidate_name_indexes(net);
    return (int)i;
}

int nc_create_transition(net_t *net, const char *id, const char *name)
{
    if (budget_poll())
        return NC_ERR_STOPPED;
    if (net->ntransitions >= NC_MAX_NODES)
        return NC_ERR_TOO_MANY;
    if (id && index_find(net->transition_ids, id) >= 0)
        return NC_ERR_DUPLICATE_ID;
    if (GROW(net->transitions, net->cap_transitions, net->ntransitions + 1))
        return NC_ERR_NO_MEMORY;
    nc_transition *t = &net->transitions[net->ntransitions];
    memset(t, 0, sizeof *t);
    t->id = dup_or_null(id);
    t->name = dup_or_null(name ? name : id);
    if ((id && !t->id) || ((name || id) && !t->name)) {
        free(t->id);
        free(t->name);
        return NC_ERR_NO_MEMORY;
    }
    uint32_t i = (uint32_t)net->ntransitions++;
    /* the id is new (looked up above): i stays as it is */
    if (id && strmap_insert(&net->transition_ids->map, t->id, &i) < 0) {
        net->ntransitions--;
        free(t->id);
        free(t->name);
        return NC_ERR_NO_MEMORY;
    }
    invalidate_name_indexes(net);
    return (int)i;
}

int nc_create_arc(net_t *net, nc_arc_kind kind, uint32_t place, uint32_t transition,
                  nc_count weight, int merge)
{
    if (budget_poll())
        return NC_ERR_STOPPED;
    if (place >= net->nplaces || transition >= net->ntransitions)
        return NC_ERR_BAD_INDEX;
    if (weight < 1)
        return NC_ERR_BAD_WEIGHT;
    if (weight > NC_COUNT_MAX)
        return NC_ERR_OVERFLOW;
    if (net->narcs >= UINT32_MAX - 1)
        return NC_ERR_TOO_MANY;
    if ((net->arc_index->used + 1) * 2 > net->arc_index->cap && arcindex_grow(net) < 0)
        return NC_ERR_NO_MEMORY;
    size_t j = arc_slot(net, kind, place, transition);
    if (net->arc_index->slots[j]) {
        nc_arc *a = &net->arcs[net->arc_index->slots[j] - 1];
        if (!merge)
            return NC_ERR_DUPLICATE_ARC;
        if (a->weight > NC_COUNT_MAX - weight)
            return NC_ERR_OVERFLOW;
        a->weight += weight;
        return NC_OK;
    }
    if (GROW(net->arcs, net->cap_arcs, net->narcs + 1))
        return NC_ERR_NO_MEMORY;
    net->arcs[net->narcs] = (nc_arc){place, transition, kind, weight};
    net->arc_index->slots[j] = (uint32_t)++net->narcs;
    net->arc_index->used++;
    return NC_OK;
}

nc_count nc_arc_weight(net_t *net, nc_arc_kind kind, uint32_t place, uint32_t transition)
{
    if (!net->arc_index->cap)
        return 0;
    size_t j = arc_slot(net, kind, place, transition);
    return net->arc_index->slots[j] ? net->arcs[net->arc_index->slots[j] - 1].weight : 0;
}

int nc_set_actions(net_t *net, const uint32_t *actions, uint32_t nactions)
{
    for (size_t t = 0; t < net->ntransitions; t++)
        if (actions[t] >= nactions)
            return NC_ERR_BAD_INDEX;
    uint32_t *copy = malloc((net->ntransitions ? net->ntransitions : 1) * sizeof *copy);
    if (!copy)
        return NC_ERR_NO_MEMORY;
    if (net->ntransitions)
        memcpy(copy, actions, net->ntransitions * sizeof *copy);
    free(net->transition_actions);
    net->transition_actions = copy;
    net->nactions = nactions;
    return NC_OK;
}

int nc_add_unit(net_t *net, const char *name, int32_t parent)
{
    if (parent >= (int64_t)net->nunits || parent < -1)
        return NC_ERR_BAD_INDEX;
    if (net->nunits >= NC_MAX_NODES)
        return NC_ERR_TOO_MANY;
    if (GROW(net->units, net->cap_units, net->nunits + 1))
        return NC_ERR_NO_MEMORY;
    nc_unit *u = &net->units[net->nunits];
    memset(u, 0, sizeof *u);
    u->parent = parent;
    u->name = dup_or_null(name);
    if (name && !u->name)
        return NC_ERR_NO_MEMORY;
    return (int)net->nunits++;
}

int nc_unit_add_place(net_t *net, uint32_t unit, uint32_t place)
{
    if (unit >= net->nunits || place >= net->nplaces)
        return NC_ERR_BAD_INDEX;
    nc_unit *u = &net->units[unit];
    if (u->nplaces == UINT32_MAX)
        return NC_ERR_TOO_MANY;
    /* nc_unit has no room field (it is part of the plugin API): the room is
     * at least nplaces rounded up to a power of two, so it is full, and
     * grows, only when nplaces is a power of two */
    if ((u->nplaces & (u->nplaces - 1)) == 0) {
        size_t room = u->nplaces;
        if (GROW(u->places, room, room + 1) < 0)
            return NC_ERR_NO_MEMORY;
    }
    u->places[u->nplaces++] = place;
    return NC_OK;
}

/* ------------------------------------------------------------------ */
/* groups */

int nc_add_group(net_t *net, int transitions, const char *name, const uint32_t *members,
                 uint32_t n)
{
    nc_group **arr = transitions ? &net->transition_groups : &net->place_groups;
    size_t *len = transitions ? &net->ntransition_groups : &net->nplace_groups;
    size_t *cap = transitions ? &net->cap_transition_groups : &net->cap_place_groups;
    size_t limit = transitions ? net->ntransitions : net->nplaces;
    for (uint32_t i = 0; i < n; i++)
        if (members[i] >= limit)
            return NC_ERR_BAD_INDEX;
    if (nc_find_group(net, transitions, name))
        return NC_ERR_DUPLICATE_ID;
    if (grow_array(arr, cap, *len + 1, sizeof **arr) < 0)
        return NC_ERR_NO_MEMORY;
    nc_group *g = &(*arr)[*len];
    g->name = strdup(name);
    g->members = malloc((n ? n : 1) * sizeof *g->members);
    if (!g->name || !g->members) {
        free(g->name);
        free(g->members);
        return NC_ERR_NO_MEMORY;
    }
    if (n)
        memcpy(g->members, members, n * sizeof *members);
    g->n = n;
    (*len)++;
    return NC_OK;
}

/* Linear: groups are the colored nodes, a few hundred at most, and only
 * looked up while reading a formula. */
const nc_group *nc_find_group(const net_t *net, int transitions, const char *name)
{
    const nc_group *arr = transitions ? net->transition_groups : net->place_groups;
    size_t len = transitions ? net->ntransition_groups : net->nplace_groups;
    for (size_t i = 0; name && i < len; i++)
        if (!strcmp(arr[i].name, name))
            return &arr[i];
    return NULL;
}

/* ------------------------------------------------------------------ */
/* lookups */

int64_t nc_find_place(net_t *net, const char *id)
{
    int64_t i = index_find(net->place_ids, id);
    return i < 0 ? -1 : i;
}

int64_t nc_find_transition(net_t *net, const char *id)
{
    int64_t i = index_find(net->transition_ids, id);
    return i < 0 ? -1 : i;
}

int64_t nc_find_place_by_name(net_t *net, const char *name)
{
    if (!net->place_names)
        net->place_names = index_build(net, net->nplaces, place_name);
    return index_find(net->place_names, name);
}

int64_t nc_find_transition_by_name(net_t *net, const char *name)
{
    if (!net->transition_names)
        net->transition_names = index_build(net, net->ntransitions, trans_name);
    return index_find(net->transition_names, name);
}

/* ------------------------------------------------------------------ */
/* summaries */

void nc_summarize(const net_t *net, nc_summary *s)
{
    memset(s, 0, sizeof *s);
    s->places = net->nplaces;
    s->transitions = net->ntransitions;
    s->arcs = net->narcs;
    s->syntactically_safe = 1;
    for (size_t i = 0; i < net->nplaces; i++) {
        nc_count c = net->places[i].initial;
        if (c > 1)
            s->syntactically_safe = 0;
        if (s->tokens > NC_COUNT_MAX - c) {
            s->tokens = NC_COUNT_MAX;
            s->tokens_saturated = 1;
        } else if (!s->tokens_saturated) {
            s->tokens += c;
        }
    }
    for (size_t i = 0; i < net->narcs; i++) {
        const nc_arc *a = &net->arcs[i];
        if (a->weight != 1)
            s->syntactically_safe = 0;
        if (a->kind == NC_ARC_PT)
            s->pt_arcs++;
        else if (a->kind == NC_ARC_TP)
            s->tp_arcs++;
        else
            s->read_arcs++;
    }
}

void nc_print_marking(FILE *out, const net_t *net, const nc_count *m)
{
    int any = 0;
    for (size_t p = 0; p < net->nplaces; p++) {
        if (!m[p])
            continue;
        fprintf(out, "%s%s", any ? ", " : "", net->places[p].name ? net->places[p].name
                                                                  : net->places[p].id);
        if (m[p] > 1)
            fprintf(out, "(%llu)", (unsigned long long)m[p]);
        any = 1;
    }
    if (!any)
        fputs("(empty)", out);
}
