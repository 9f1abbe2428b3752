/* The structural generic properties, from the arcs of the net as read
 * (a read arc is an input and an output arc of its weight, as PNML would
 * write it).  Adjacency lists are built once, duplicates removed; every
 * property is then one pass over them, except the two connectivity
 * questions (breadth-first searches) and extended free choice (transitions
 * grouped by their sorted input sets). */
#include "checkers/generic/generic.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TECH "TOPOLOGICAL"

typedef struct adj {
    uint32_t *start, *list;   /* CSR */
} adj;

typedef struct shape {
    const net_t *net;
    uint32_t np, nt;
    adj t_in, t_out, p_in, p_out;   /* places of t; transitions of p */
    nc_count *in_sum, *out_sum;     /* per transition: weights in and out (saturating) */
} shape;

static int is_in(nc_arc_kind k) { return k != NC_ARC_TP; }
static int is_out(nc_arc_kind k) { return k != NC_ARC_PT; }

/* CSR of the arcs selected by want, keyed by the place (by_place) or the
 * transition, values the other end, duplicates removed. */
static int build(const net_t *net, uint32_t nkeys, uint32_t nvals, int by_place,
                 int (*want)(nc_arc_kind), adj *a)
{
    a->start = calloc((size_t)nkeys + 1, sizeof *a->start);
    a->list = malloc((net->narcs ? net->narcs : 1) * sizeof *a->list);
    uint32_t *stamp = calloc(nvals ? nvals : 1, sizeof *stamp);
    if (!a->start || !a->list || !stamp) {
        free(stamp);
        return -1;
    }
    for (size_t i = 0; i < net->narcs; i++)
        if (want(net->arcs[i].kind))
            a->start[(by_place ? net->arcs[i].place : net->arcs[i].transition) + 1]++;
    for (uint32_t k = 0; k < nkeys; k++)
        a->start[k + 1] += a->start[k];
    uint32_t *fill = malloc(((size_t)nkeys + 1) * sizeof *fill);
    if (!fill) {
        free(stamp);
        return -1;
    }
    memcpy(fill, a->start, ((size_t)nkeys + 1) * sizeof *fill);
    for (size_t i = 0; i < net->narcs; i++)
        if (want(net->arcs[i].kind)) {
            uint32_t k = by_place ? net->arcs[i].place : net->arcs[i].transition;
            a->list[fill[k]++] = by_place ? net->arcs[i].transition : net->arcs[i].place;
        }
    /* compact each list without duplicates (stamp: key + 1) */
    uint32_t w = 0;
    for (uint32_t k = 0; k < nkeys; k++) {
        uint32_t from = a->start[k], to = fill[k];
        a->start[k] = w;
        for (uint32_t i = from; i < to; i++) {
            uint32_t v = a->list[i];
            if (stamp[v] != k + 1) {
                stamp[v] = k + 1;
                a->list[w++] = v;
            }
        }
    }
    a->start[nkeys] = w;
    free(fill);
    free(stamp);
    return 0;
}

static uint32_t deg(const adj *a, uint32_t k)
{
    return a->start[k + 1] - a->start[k];
}

static void sat_add(nc_count *x, nc_count w)
{
    *x = *x > NC_COUNT_MAX - w ? NC_COUNT_MAX : *x + w;
}

/* ---- the properties ---- */

static void ordinary(const shape *s, gp_value *v)
{
    for (size_t i = 0; i < s->net->narcs; i++) {
        const nc_arc *a = &s->net->arcs[i];
        if (a->weight != 1) {
            gp_set(v, 0, TECH, "the arc between %s and %s has weight %llu", gp_place_name(s->net, a->place),
                   gp_transition_name(s->net, a->transition), (unsigned long long)a->weight);
            return;
        }
    }
    gp_set(v, 1, TECH, "all %zu arcs have weight 1", s->net->narcs);
}

/* Extended free choice numbers the transitions by their input sets (equal
 * sets, equal numbers) by sorting them; qsort's comparator has no context
 * argument, hence this one (mck is single-threaded). */
static const shape *sorting;

static int by_inputs(const void *x, const void *y)
{
    const shape *s = sorting;
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    uint32_t na = deg(&s->t_in, a), nb = deg(&s->t_in, b);
    if (na != nb)
        return na < nb ? -1 : 1;
    int c = memcmp(s->t_in.list + s->t_in.start[a], s->t_in.list + s->t_in.start[b],
                   na * sizeof(uint32_t));
    return c ? c : (a < b ? -1 : a > b);
}

static int cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return a < b ? -1 : a > b;
}

static void free_choice(shape *s, gp_value *simple, gp_value *extended)
{
    const net_t *n = s->net;
    /* simple: a place shared by two transitions is the only input of both */
    int done = 0;
    for (uint32_t p = 0; p < s->np && !done; p++) {
        if (deg(&s->p_out, p) < 2)
            continue;
        for (uint32_t i = s->p_out.start[p]; i < s->p_out.start[p + 1]; i++) {
            uint32_t t = s->p_out.list[i];
            if (deg(&s->t_in, t) > 1) {
                uint32_t other = s->p_out.list[i == s->p_out.start[p] ? i + 1 : s->p_out.start[p]];
                gp_set(simple, 0, TECH, "%s and %s share the input place %s, and %s has %u input places",
                       gp_transition_name(n, t), gp_transition_name(n, other), gp_place_name(n, p), gp_transition_name(n, t), deg(&s->t_in, t));
                done = 1;
                break;
            }
        }
    }
    if (!done)
        gp_set(simple, 1, TECH, "no two transitions share an input place unless it is their only one");
    /* extended: class numbers of equal sorted input sets */
    for (uint32_t t = 0; t < s->nt; t++)
        qsort(s->t_in.list + s->t_in.start[t], deg(&s->t_in, t), sizeof(uint32_t), cmp_u32);
    uint32_t *order = malloc((s->nt ? s->nt : 1) * sizeof *order);
    uint32_t *cls = malloc((s->nt ? s->nt : 1) * sizeof *cls);
    if (!order || !cls) {
        gp_set(extended, -1, TECH, "out of memory");
        free(order);
        free(cls);
        return;
    }
    for (uint32_t t = 0; t < s->nt; t++)
        order[t] = t;
    sorting = s;
    qsort(order, s->nt, sizeof *order, by_inputs);
    for (uint32_t i = 0, c = 0; i < s->nt; i++) {
        if (i > 0) {
            uint32_t a = order[i - 1], b = order[i];
            if (deg(&s->t_in, a) != deg(&s->t_in, b) ||
                memcmp(s->t_in.list + s->t_in.start[a], s->t_in.list + s->t_in.start[b],
                       deg(&s->t_in, a) * sizeof(uint32_t)))
                c++;
        }
        cls[order[i]] = c;
    }
    done = 0;
    for (uint32_t p = 0; p < s->np && !done; p++) {
        uint32_t first = s->p_out.start[p];
        for (uint32_t i = first + 1; i < s->p_out.start[p + 1]; i++) {
            uint32_t t0 = s->p_out.list[first], t = s->p_out.list[i];
            if (cls[t] != cls[t0]) {
                gp_set(extended, 0, TECH, "%s and %s share the input place %s but not all their inputs",
                       gp_transition_name(n, t0), gp_transition_name(n, t), gp_place_name(n, p));
                done = 1;
                break;
            }
        }
    }
    if (!done)
        gp_set(extended, 1, TECH, "transitions sharing an input place have the same input places");
    free(order);
    free(cls);
}

static void machine_and_graph(const shape *s, gp_value *sm, gp_value *mg)
{
    const net_t *n = s->net;
    gp_set(sm, 1, TECH, "every transition has one input and one output place");
    for (uint32_t t = 0; t < s->nt; t++)
        if (deg(&s->t_in, t) != 1 || deg(&s->t_out, t) != 1) {
            gp_set(sm, 0, TECH, "%s has %u input and %u output places", gp_transition_name(n, t),
                   deg(&s->t_in, t), deg(&s->t_out, t));
            break;
        }
    gp_set(mg, 1, TECH, "every place has one input and one output transition");
    for (uint32_t p = 0; p < s->np; p++)
        if (deg(&s->p_in, p) != 1 || deg(&s->p_out, p) != 1) {
            gp_set(mg, 0, TECH, "%s has %u input and %u output transitions", gp_place_name(n, p),
                   deg(&s->p_in, p), deg(&s->p_out, p));
            break;
        }
}

/* Nodes 0..np-1 are places, np.. transitions.  Breadth-first from node 0
 * along arcs (forward, backward or both); returns how many were reached
 * and the first node not reached in *missed. */
static uint32_t reach(const shape *s, int forward, int backward, uint32_t *missed)
{
    uint32_t n = s->np + s->nt;
    uint8_t *seen = calloc(n ? n : 1, 1);
    uint32_t *queue = malloc((n ? n : 1) * sizeof *queue);
    uint32_t count = 0;
    *missed = UINT32_MAX;
    if (!seen || !queue || n == 0) {
        free(seen);
        free(queue);
        return n == 0 ? 0 : UINT32_MAX;
    }
    size_t head = 0, tail = 0;
    seen[0] = 1;
    queue[tail++] = 0;
    while (head < tail) {
        uint32_t v = queue[head++];
        count++;
        const adj *lists[2] = {NULL, NULL};
        uint32_t base = 0, key = v;
        if (v < s->np) {   /* a place: to transitions */
            lists[0] = forward ? &s->p_out : NULL;
            lists[1] = backward ? &s->p_in : NULL;
            base = s->np;
        } else {
            key = v - s->np;
            lists[0] = forward ? &s->t_out : NULL;
            lists[1] = backward ? &s->t_in : NULL;
        }
        for (int k = 0; k < 2; k++) {
            if (!lists[k])
                continue;
            for (uint32_t i = lists[k]->start[key]; i < lists[k]->start[key + 1]; i++) {
                uint32_t w = base + lists[k]->list[i];
                if (!seen[w]) {
                    seen[w] = 1;
                    queue[tail++] = w;
                }
            }
        }
    }
    for (uint32_t v = 0; v < n && *missed == UINT32_MAX; v++)
        if (!seen[v])
            *missed = v;
    free(seen);
    free(queue);
    return count;
}

static const char *node_name(const shape *s, uint32_t v)
{
    return v < s->np ? gp_place_name(s->net, v) : gp_transition_name(s->net, v - s->np);
}

static void connectivity(const shape *s, gp_value *conn, gp_value *strong)
{
    uint32_t n = s->np + s->nt, missed;
    if (n == 0) {
        gp_set(conn, 1, TECH, "the net has no nodes");
        gp_set(strong, 1, TECH, "the net has no nodes");
        return;
    }
    const char *first = node_name(s, 0);
    uint32_t c = reach(s, 1, 1, &missed);
    if (c == UINT32_MAX) {
        gp_set(conn, -1, TECH, "out of memory");
        gp_set(strong, -1, TECH, "out of memory");
        return;
    }
    if (c < n) {
        gp_set(conn, 0, TECH, "no path, even against the arcs, joins %s and %s", first,
               node_name(s, missed));
        gp_set(strong, 0, TECH, "not even connected: nothing joins %s and %s", first,
               node_name(s, missed));
        return;
    }
    gp_set(conn, 1, TECH, "all %u nodes are joined by paths", n);
    c = reach(s, 1, 0, &missed);
    if (c < n) {
        gp_set(strong, 0, TECH, "no directed path leads from %s to %s", first, node_name(s, missed));
        return;
    }
    c = reach(s, 0, 1, &missed);
    if (c < n) {
        gp_set(strong, 0, TECH, "no directed path leads from %s to %s", node_name(s, missed), first);
        return;
    }
    gp_set(strong, 1, TECH, "every node reaches %s and %s reaches every node", first, first);
}

static void sources_and_sinks(const shape *s, gp_result *out)
{
    const net_t *n = s->net;
    struct {
        gp_id id;
        const adj *a;
        uint32_t count;
        int place;
        const char *what;
    } rows[] = {
        {GP_SOURCE_PLACE, &s->p_in, s->np, 1, "input transition"},
        {GP_SINK_PLACE, &s->p_out, s->np, 1, "output transition"},
        {GP_SOURCE_TRANSITION, &s->t_in, s->nt, 0, "input place"},
        {GP_SINK_TRANSITION, &s->t_out, s->nt, 0, "output place"},
    };
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        gp_value *v = &out->v[rows[r].id];
        gp_set(v, 0, TECH, "every %s has an %s", rows[r].place ? "place" : "transition",
               rows[r].what);
        for (uint32_t k = 0; k < rows[r].count; k++)
            if (deg(rows[r].a, k) == 0) {
                gp_set(v, 1, TECH, "%s has no %s", rows[r].place ? gp_place_name(n, k) : gp_transition_name(n, k),
                       rows[r].what);
                break;
            }
    }
}

static void loop_free(const shape *s, gp_value *v)
{
    uint32_t *stamp = calloc(s->np ? s->np : 1, sizeof *stamp);
    if (!stamp) {
        gp_set(v, -1, TECH, "out of memory");
        return;
    }
    gp_set(v, 1, TECH, "no transition has a place as both input and output");
    for (uint32_t t = 0; t < s->nt && v->value == 1; t++) {
        for (uint32_t i = s->t_in.start[t]; i < s->t_in.start[t + 1]; i++)
            stamp[s->t_in.list[i]] = t + 1;
        for (uint32_t i = s->t_out.start[t]; i < s->t_out.start[t + 1]; i++)
            if (stamp[s->t_out.list[i]] == t + 1) {
                gp_set(v, 0, TECH, "%s has %s as input and output", gp_transition_name(s->net, t),
                       gp_place_name(s->net, s->t_out.list[i]));
                break;
            }
    }
    free(stamp);
}

static void conservation(const shape *s, gp_value *cons, gp_value *sub)
{
    gp_set(cons, 1, TECH, "every transition consumes as many tokens as it produces");
    gp_set(sub, 1, TECH, "no transition produces more tokens than it consumes");
    for (uint32_t t = 0; t < s->nt; t++) {
        unsigned long long in = s->in_sum[t], o = s->out_sum[t];
        if (in != o && cons->value == 1)
            gp_set(cons, 0, TECH, "%s consumes %llu tokens and produces %llu", gp_transition_name(s->net, t), in, o);
        if (in < o && sub->value == 1)
            gp_set(sub, 0, TECH, "%s consumes %llu tokens and produces %llu", gp_transition_name(s->net, t), in, o);
    }
}

void generic_structural(const cnet_t *cn, gp_result *out)
{
    const net_t *net = cn->net;
    shape s;
    memset(&s, 0, sizeof s);
    s.net = net;
    s.np = (uint32_t)net->nplaces;
    s.nt = (uint32_t)net->ntransitions;
    s.in_sum = calloc(s.nt ? s.nt : 1, sizeof *s.in_sum);
    s.out_sum = calloc(s.nt ? s.nt : 1, sizeof *s.out_sum);
    int ok = s.in_sum && s.out_sum && build(net, s.nt, s.np, 0, is_in, &s.t_in) == 0 &&
             build(net, s.nt, s.np, 0, is_out, &s.t_out) == 0 &&
             build(net, s.np, s.nt, 1, is_out, &s.p_in) == 0 &&
             build(net, s.np, s.nt, 1, is_in, &s.p_out) == 0;
    if (ok) {
        for (size_t i = 0; i < net->narcs; i++) {
            const nc_arc *a = &net->arcs[i];
            if (is_in(a->kind))
                sat_add(&s.in_sum[a->transition], a->weight);
            if (is_out(a->kind))
                sat_add(&s.out_sum[a->transition], a->weight);
        }
        ordinary(&s, &out->v[GP_ORDINARY]);
        free_choice(&s, &out->v[GP_SIMPLE_FREE_CHOICE], &out->v[GP_EXTENDED_FREE_CHOICE]);
        machine_and_graph(&s, &out->v[GP_STATE_MACHINE], &out->v[GP_MARKED_GRAPH]);
        connectivity(&s, &out->v[GP_CONNECTED], &out->v[GP_STRONGLY_CONNECTED]);
        sources_and_sinks(&s, out);
        loop_free(&s, &out->v[GP_LOOP_FREE]);
        conservation(&s, &out->v[GP_CONSERVATIVE], &out->v[GP_SUBCONSERVATIVE]);
        if (net->nunits)
            gp_set(&out->v[GP_NESTED_UNITS], 1, TECH, "the model gives %zu nested units (NUPN)",
                   net->nunits);
        else
            gp_set(&out->v[GP_NESTED_UNITS], 0, TECH, "the model gives no units");
    } else {
        for (int i = GP_ORDINARY; i <= GP_NESTED_UNITS; i++)
            gp_set(&out->v[i], -1, TECH, "out of memory");
    }
    adj *all[] = {&s.t_in, &s.t_out, &s.p_in, &s.p_out};
    for (int i = 0; i < 4; i++) {
        free(all[i]->start);
        free(all[i]->list);
    }
    free(s.in_sum);
    free(s.out_sum);
}
