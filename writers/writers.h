/* Writers: a net_t, read in any language, as a file other tools read
 * (`mck convert`, convert.c).  Each writer takes the builder net, writes
 * the whole file to out and returns 0, or -1 after one nc_error naming
 * path (the output file, for messages).  They never change the net. */
#ifndef MCK_WRITERS_H
#define MCK_WRITERS_H

#include <stdio.h>
#include "base/netconv.h"

int write_apnn(FILE *out, const net_t *net, const char *path);
int write_pnml(FILE *out, const net_t *net, const char *path);
int write_pep(FILE *out, const net_t *net, const char *path);

/* The arcs between one place and one transition, all kinds together. */
typedef struct wr_arc {
    uint32_t place, transition;
    nc_count pt, tp, read;
} wr_arc;

/* The net's arcs, one entry per (transition, place) pair, sorted by
 * transition, then place.  With keep_read 0, read arcs are folded into
 * consumption and production (a self-loop of weight max(pt, read)): the
 * same enabling and the same effect, hence the same reachable markings and
 * runs, for formats without read arcs.  With keep_read 1 a read arc stays
 * unless the pair also has a consumption arc; then it is folded likewise
 * (PEP readers drop such a read arc, pep-format.md §8.2).  *out is
 * malloc'd; -1 after nc_error(path, ...) on out of memory or a weight above
 * NC_COUNT_MAX. */
int wr_collect_arcs(const net_t *net, int keep_read, const char *path, wr_arc **out,
                    size_t *n);

/* Node identifiers for a format: ids[0..nplaces) for places, then
 * transitions.  The net's own ids when valid(id) holds for all of them
 * and no two nodes share one; otherwise every node is renamed p1..pn,
 * t1..tm, so the file stays consistent (the old id stays as the name).
 * Returns NULL after nc_error. */
char **wr_node_ids(const net_t *net, int (*valid)(const char *), const char *path);
void wr_free_ids(char **ids, const net_t *net);

/* What a node is called for people: its name, else its id, else NULL. */
const char *wr_label(const char *name, const char *id);

#endif
