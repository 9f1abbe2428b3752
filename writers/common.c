/* What all writers need: the arcs per (transition, place) pair, with read
 * arcs folded where the format has none, and identifiers the format can
 * carry (writers/writers.h). */
#include "writers/writers.h"

#include <stdlib.h>
#include <string.h>

static int cmp_arc(const void *a, const void *b)
{
    const wr_arc *x = a, *y = b;
    if (x->transition != y->transition)
        return x->transition < y->transition ? -1 : 1;
    return x->place < y->place ? -1 : x->place > y->place;
}

/* A read arc of weight r next to consumption pt and production tp: needs
 * max(pt, r) and gives back what it took beyond pt. */
static int fold_read(wr_arc *a, const char *path)
{
    nc_count need = a->pt > a->read ? a->pt : a->read, extra = need - a->pt;
    if (a->tp > NC_COUNT_MAX - extra) {
        nc_error(path, 0, "a read arc cannot be written as a self-loop: weight above %llu",
                 (unsigned long long)NC_COUNT_MAX);
        return -1;
    }
    a->pt = need;
    a->tp += extra;
    a->read = 0;
    return 0;
}

int wr_collect_arcs(const net_t *net, int keep_read, const char *path, wr_arc **out,
                    size_t *n)
{
    wr_arc *v = malloc((net->narcs + 1) * sizeof *v);
    if (!v) {
        nc_error(path, 0, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < net->narcs; i++) {
        const nc_arc *a = &net->arcs[i];
        v[i] = (wr_arc){a->place, a->transition, 0, 0, 0};
        *(a->kind == NC_ARC_PT ? &v[i].pt : a->kind == NC_ARC_TP ? &v[i].tp : &v[i].read) =
            a->weight;
    }
    qsort(v, net->narcs, sizeof *v, cmp_arc);
    size_t k = 0;
    for (size_t i = 0; i < net->narcs; i++) {
        if (k && v[k - 1].place == v[i].place && v[k - 1].transition == v[i].transition) {
            /* at most one arc of each kind per pair in a net_t: no sums */
            v[k - 1].pt += v[i].pt;
            v[k - 1].tp += v[i].tp;
            v[k - 1].read += v[i].read;
        } else {
            v[k++] = v[i];
        }
    }
    for (size_t i = 0; i < k; i++)
        if (v[i].read && (!keep_read || v[i].pt) && fold_read(&v[i], path) < 0) {
            free(v);
            return -1;
        }
    *out = v;
    *n = k;
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether the net's ids can be written as they are. */
static int ids_usable(const net_t *net, int (*valid)(const char *))
{
    size_t n = net->nplaces + net->ntransitions;
    const char **v = malloc((n + 1) * sizeof *v);
    if (!v)
        return -1;
    int ok = 1;
    for (size_t i = 0; ok && i < n; i++) {
        const char *id = i < net->nplaces ? net->places[i].id
                                          : net->transitions[i - net->nplaces].id;
        ok = id && valid(id);
        v[i] = id;
    }
    if (ok) {
        qsort(v, n, sizeof *v, cmp_str);
        for (size_t i = 1; ok && i < n; i++)
            ok = strcmp(v[i - 1], v[i]) != 0;
    }
    free(v);
    return ok;
}

char **wr_node_ids(const net_t *net, int (*valid)(const char *), const char *path)
{
    size_t n = net->nplaces + net->ntransitions;
    int keep = ids_usable(net, valid);
    char **ids = keep < 0 ? NULL : calloc(n + 1, sizeof *ids);
    if (!ids) {
        nc_error(path, 0, "out of memory");
        return NULL;
    }
    if (!keep)
        nc_warning(path, 0, "the net's identifiers cannot all be written; nodes are renamed "
                   "p1.., t1.. (names are kept)");
    for (size_t i = 0; i < n; i++) {
        int place = i < net->nplaces;
        size_t k = place ? i : i - net->nplaces;
        if (keep) {
            ids[i] = strdup(place ? net->places[k].id : net->transitions[k].id);
        } else {
            ids[i] = malloc(24);
            if (ids[i])
                snprintf(ids[i], 24, "%c%zu", place ? 'p' : 't', k + 1);
        }
        if (!ids[i]) {
            wr_free_ids(ids, net);
            nc_error(path, 0, "out of memory");
            return NULL;
        }
    }
    return ids;
}

void wr_free_ids(char **ids, const net_t *net)
{
    if (!ids)
        return;
    for (size_t i = 0; i < net->nplaces + net->ntransitions; i++)
        free(ids[i]);
    free(ids);
}

const char *wr_label(const char *name, const char *id)
{
    return name && *name ? name : id;
}
