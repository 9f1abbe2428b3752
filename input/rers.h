/* RERS parallel systems (rers-format.md): a Graphviz .dot file of LTSs,
 * read with cgraph and turned into the safe net of §8.  The model below
 * stays with the net (net->lang_data) so that properties and runs can be
 * put in the system's own terms: an action name is a label, and a label
 * is a set of net transitions.
 *
 * The net, fixed here because properties, runs and tests rely on it:
 *  - places: one per LTS state, LTS by LTS in file order, within an LTS in
 *    the order cgraph first met the node (first mention in the file); the
 *    extra source node of the start edge gets none.  A place is named "s"
 *    followed by the node ID ("s12"); the start state holds one token.
 *  - transitions: labels in the order of their first edge in the file;
 *    for one label, one transition per combination of one edge of that
 *    label in each owner LTS (owners in LTS order, each owner's edges in
 *    file order, the last owner's choice changing fastest).  A transition
 *    is named by its label when the label has one combination, else
 *    "label#1", "label#2", ... in that order.  Its pre-places are the
 *    edges' sources, its post-places their targets.
 *  - one unit per LTS (its places), and units_claim_safe. */
#ifndef MCK_INPUT_RERS_H
#define MCK_INPUT_RERS_H

#include <stdint.h>
#include "base/netconv.h"

typedef struct rers_model {
    uint32_t nlts;
    char **lts_names;          /* subgraph names; "ltsK" for an anonymous one */
    uint32_t *lts_first_place; /* the places of LTS i are lts_first_place[i] ... */
    uint32_t *lts_nplaces;     /* ... + lts_nplaces[i] - 1 */
    uint32_t *lts_start;       /* the place of its start state */

    uint32_t nlabels;
    char **labels;             /* in the order of first appearance */
    uint32_t *label_first;     /* the transitions of label l are label_first[l] ... */
    uint32_t *label_count;     /* ... + label_count[l] - 1 */

    uint32_t ntransitions;
    uint32_t *trans_label;     /* the label of each net transition */
} rers_model;

/* The model of a net read by rers_read, NULL for any other net. */
const rers_model *rers_model_of(const net_t *net);
/* The index of a label, -1 when the system has no such label. */
int64_t rers_find_label(const rers_model *m, const char *label);

#endif
