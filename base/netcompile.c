/* nc_compile: the builder net turned into flat arrays for fast firing.
 * Everything a checker touches per state lives in a few contiguous arrays
 * indexed by transition, so successor generation walks memory linearly. */
#include "base/netconv.h"
#include "base/budget.h"

#include <stdlib.h>
#include <string.h>

/* Above this many dependency entries the lists cost more memory than the
 * rescans they save; dense nets (a place read by most transitions) go
 * without. */
#define DEP_LIMIT (16u << 20)

void nc_free_compiled(cnet_t *cn)
{
    if (!cn)
        return;
    free(cn->initial);
    free(cn->need_start);
    free(cn->need_place);
    free(cn->need_weight);
    free(cn->eff_start);
    free(cn->eff_place);
    free(cn->eff_delta);
    free(cn->pre_start);
    free(cn->pre_place);
    free(cn->pre_weight);
    free(cn->post_start);
    free(cn->post_place);
    free(cn->post_weight);
    free(cn->dep_start);
    free(cn->dep_list);
    free(cn->consumers_start);
    free(cn->consumers);
    free(cn);
}

/* Per-transition scratch row: weights by place, gathered from the arcs. */
typedef struct arc_row {
    uint32_t place;
    nc_count pre, post, read;
} arc_row;

static int cmp_row(const void *a, const void *b)
{
    const arc_row *x = a, *y = b;
    return x->place < y->place ? -1 : x->place > y->place;
}

/* Counting-sort of the arcs by transition, so each transition's arcs are
 * one slice; duplicates (kind, place) were already merged by the builder. */
static uint32_t *arcs_by_transition(const net_t *net, uint32_t **start_out)
{
    uint32_t T = (uint32_t)net->ntransitions;
    uint32_t *start = calloc((size_t)T + 1, sizeof *start);
    uint32_t *order = malloc((net->narcs ? net->narcs : 1) * sizeof *order);
    if (!start || !order) {
        free(start);
        free(order);
        return NULL;
    }
    for (size_t i = 0; i < net->narcs; i++)
        start[net->arcs[i].transition + 1]++;
    for (uint32_t t = 0; t < T; t++)
        start[t + 1] += start[t];
    uint32_t *fill = malloc(((size_t)T + 1) * sizeof *fill);
    if (!fill) {
        free(start);
        free(order);
        return NULL;
    }
    memcpy(fill, start, ((size_t)T + 1) * sizeof *fill);
    for (size_t i = 0; i < net->narcs; i++)
        order[fill[net->arcs[i].transition]++] = (uint32_t)i;
    free(fill);
    *start_out = start;
    return order;
}

/* Gathers transition t's arcs into rows sorted by place, merging the kinds. */
static size_t gather_rows(const net_t *net, const uint32_t *order, uint32_t from, uint32_t to,
                          arc_row *rows)
{
    size_t n = 0;
    for (uint32_t i = from; i < to; i++) {
        const nc_arc *a = &net->arcs[order[i]];
        rows[n] = (arc_row){a->place, 0, 0, 0};
        if (a->kind == NC_ARC_PT)
            rows[n].pre = a->weight;
        else if (a->kind == NC_ARC_TP)
            rows[n].post = a->weight;
        else
            rows[n].read = a->weight;
        n++;
    }
    qsort(rows, n, sizeof *rows, cmp_row);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (m && rows[m - 1].place == rows[i].place) {
            rows[m - 1].pre += rows[i].pre;
            rows[m - 1].post += rows[i].post;
            rows[m - 1].read += rows[i].read;
        } else {
            rows[m++] = rows[i];
        }
    }
    return m;
}

static int build_consumers(cnet_t *cn)
{
    uint32_t P = cn->nplaces, T = cn->ntransitions;
    size_t total = cn->need_start[T];
    cn->consumers_start = calloc((size_t)P + 1, sizeof *cn->consumers_start);
    cn->consumers = malloc((total ? total : 1) * sizeof *cn->consumers);
    uint32_t *fill = malloc(((size_t)P + 1) * sizeof *fill);
    if (!cn->consumers_start || !cn->consumers || !fill) {
        free(fill);
        return -1;
    }
    for (size_t i = 0; i < total; i++)
        cn->consumers_start[cn->need_place[i] + 1]++;
    for (uint32_t p = 0; p < P; p++)
        cn->consumers_start[p + 1] += cn->consumers_start[p];
    memcpy(fill, cn->consumers_start, ((size_t)P + 1) * sizeof *fill);
    for (uint32_t t = 0; t < T; t++)
        for (uint32_t i = cn->need_start[t]; i < cn->need_start[t + 1]; i++)
            cn->consumers[fill[cn->need_place[i]]++] = t;
    free(fill);
    return 0;
}

/* dep(t) = transitions needing a place whose count t changes.  Two passes
 * with a stamp array: count, then fill. */
static int build_dependencies(cnet_t *cn)
{
    uint32_t T = cn->ntransitions;
    uint64_t raw = 0;
    for (uint32_t t = 0; t < T; t++)
        for (uint32_t i = cn->eff_start[t]; i < cn->eff_start[t + 1]; i++) {
            uint32_t p = cn->eff_place[i];
            raw += cn->consumers_start[p + 1] - cn->consumers_start[p];
        }
    if (raw > DEP_LIMIT)
        return 0;   /* too dense: checkers rescan */
    uint32_t *stamp = malloc(((size_t)T + 1) * sizeof *stamp);
    cn->dep_start = calloc((size_t)T + 1, sizeof *cn->dep_start);
    cn->dep_list = malloc((raw ? raw : 1) * sizeof *cn->dep_list);
    if (!stamp || !cn->dep_start || !cn->dep_list) {
        free(stamp);
        return -1;
    }
    for (uint32_t u = 0; u < T; u++)
        stamp[u] = UINT32_MAX;
    uint32_t n = 0;
    for (uint32_t t = 0; t < T; t++) {
        if (budget_poll()) {
            free(stamp);
            return -1;
        }
        cn->dep_start[t] = n;
        for (uint32_t i = cn->eff_start[t]; i < cn->eff_start[t + 1]; i++) {
            uint32_t p = cn->eff_place[i];
            for (uint32_t k = cn->consumers_start[p]; k < cn->consumers_start[p + 1]; k++) {
                uint32_t u = cn->consumers[k];
                if (stamp[u] != t) {
                    stamp[u] = t;
                    cn->dep_list[n++] = u;
                }
            }
        }
    }
    cn->dep_start[T] = n;
    free(stamp);
    return 0;
}

const cnet_t *nc_compile(net_t *net)
{
    if (net->compiled)
        return net->compiled;
    cnet_t *cn = calloc(1, sizeof *cn);
    uint32_t *tstart = NULL, *order = NULL;
    arc_row *rows = NULL;
    if (!cn)
        goto oom;
    uint32_t P = cn->nplaces = (uint32_t)net->nplaces;
    uint32_t T = cn->ntransitions = (uint32_t)net->ntransitions;
    cn->net = net;
    size_t A = net->narcs ? net->narcs : 1;
    cn->initial = malloc((P ? P : 1) * sizeof *cn->initial);
    cn->need_start = malloc(((size_t)T + 1) * sizeof(uint32_t));
    cn->eff_start = malloc(((size_t)T + 1) * sizeof(uint32_t));
    cn->pre_start = malloc(((size_t)T + 1) * sizeof(uint32_t));
    cn->post_start = malloc(((size_t)T + 1) * sizeof(uint32_t));
    cn->need_place = malloc(A * sizeof(uint32_t));
    cn->need_weight = malloc(A * sizeof(nc_count));
    cn->eff_place = malloc(A * sizeof(uint32_t));
    cn->eff_delta = malloc(A * sizeof(int64_t));
    cn->pre_place = malloc(A * sizeof(uint32_t));
    cn->pre_weight = malloc(A * sizeof(nc_count));
    cn->post_place = malloc(A * sizeof(uint32_t));
    cn->post_weight = malloc(A * sizeof(nc_count));
    rows = malloc(A * sizeof *rows);
    order = arcs_by_transition(net, &tstart);
    if (!cn->initial || !cn->need_start || !cn->eff_start || !cn->pre_start ||
        !cn->post_start || !cn->need_place || !cn->need_weight || !cn->eff_place ||
        !cn->eff_delta || !cn->pre_place || !cn->pre_weight || !cn->post_place ||
        !cn->post_weight || !rows || !order)
        goto oom;

    cn->safe_hint = 1;
    for (uint32_t p = 0; p < P; p++) {
        cn->initial[p] = net->places[p].initial;
        if (cn->initial[p] > 1)
            cn->safe_hint = 0;
    }
    uint32_t nn = 0, ne = 0, npre = 0, npost = 0;
    for (uint32_t t = 0; t < T; t++) {
        if (budget_poll())
            goto oom;   /* nc_error is silent then */
        cn->need_start[t] = nn;
        cn->eff_start[t] = ne;
        cn->pre_start[t] = npre;
        cn->post_start[t] = npost;
        size_t m = gather_rows(net, order, tstart[t], tstart[t + 1], rows);
        for (size_t i = 0; i < m; i++) {
            const arc_row *r = &rows[i];
            nc_count need = r->pre > r->read ? r->pre : r->read;
            if (r->pre > 1 || r->post > 1 || r->read > 1)
                cn->safe_hint = 0;
            if (need) {
                cn->need_place[nn] = r->place;
                cn->need_weight[nn++] = need;
            }
            if (r->pre != r->post) {
                cn->eff_place[ne] = r->place;
                cn->eff_delta[ne++] = (int64_t)r->post - (int64_t)r->pre;
            }
            if (r->pre) {
                cn->pre_place[npre] = r->place;
                cn->pre_weight[npre++] = r->pre;
            }
            if (r->post) {
                cn->post_place[npost] = r->place;
                cn->post_weight[npost++] = r->post;
            }
        }
    }
    cn->need_start[T] = nn;
    cn->eff_start[T] = ne;
    cn->pre_start[T] = npre;
    cn->post_start[T] = npost;
    free(rows);
    free(order);
    free(tstart);
    rows = NULL;
    order = tstart = NULL;
    if (build_consumers(cn) < 0 || build_dependencies(cn) < 0)
        goto oom;
    net->compiled = cn;
    return cn;
oom:
    free(rows);
    free(order);
    free(tstart);
    nc_free_compiled(cn);
    nc_error(net->file, 0, "out of memory while compiling the net");
    return NULL;
}

int cn_dead(const cnet_t *cn, const nc_count *m)
{
    for (uint32_t t = 0; t < cn->ntransitions; t++)
        if (cn_enabled(cn, m, t))
            return 0;
    return 1;
}

int cn_fire(const cnet_t *cn, nc_count *m, uint32_t t)
{
    uint32_t from = cn->eff_start[t], to = cn->eff_start[t + 1];
    for (uint32_t i = from; i < to; i++) {
        int64_t d = cn->eff_delta[i];
        if (d > 0 && m[cn->eff_place[i]] > NC_COUNT_MAX - (nc_count)d)
            return -1;
    }
    for (uint32_t i = from; i < to; i++)
        m[cn->eff_place[i]] += (nc_count)cn->eff_delta[i];
    return 0;
}
