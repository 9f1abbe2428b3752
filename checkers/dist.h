/* dist: deadlock and reachability by the distributed breadth-first search
 * of engine/dist/distsearch.h, over the ranks of an MPI job (mck check
 * --mpi under mpirun).  Every rank runs this row on the same net; each
 * fills the same result, and the command prints rank 0's. */
#ifndef MCK_DIST_H
#define MCK_DIST_H

#include "base/formats.h"

int dist_accepts(const tree_t *t, prop_kind kind, char *why, size_t whylen);
void dist_check(const cnet_t *cn, const tree_t *formula, prop_kind kind,
                const check_options *opt, result_t *res);

#endif
