/* `mck check` on a file of several properties: RERS's numbered lists, the
 * Kit's named formulas (formula-syntax.md §8), MCC property XML
 * (cmd/mccprops.h).  Each property is checked on the one compiled net and
 * printed as its own result block (or JSON object), then a summary. */
#ifndef MCK_PROPLIST_H
#define MCK_PROPLIST_H

#include "base/formats.h"
#include "cmd/jsonout.h"
#include "input/input.h"

/* One property of a file, as check checks it. */
typedef struct check_item {
    char *name;
    long line;
    tree_t *formula;        /* NULL for dl */
    prop_kind kind;
    int expected;           /* 1 holds, 0 does not, -1 not given */
    /* checked as the opposite question, the answer and the run's role
     * turned around: an MCC "A G f" is the reach question of !f */
    int negated;
    char category[64];      /* its verdict's category; "": the kind */
    char why[200];          /* not "": it cannot be checked, and why */
} check_item;
void check_items_free(check_item *v, size_t n);
/* Moves prop_entry rows (names and trees) into items; -1 on no memory
 * (the rows are freed either way). */
int check_items_from_entries(prop_entry *v, size_t n, check_item **out);

/* The reader of the property lists of a language, or NULL where a file
 * holds one formula (plugins).  kind: asked for every formula, or
 * KIND_AUTO.  0 with *n properties (0: a lone formula), -1 after an error. */
typedef int (*prop_list_reader)(const char *path, net_t *net, prop_kind kind,
                                prop_entry **out, size_t *n);
prop_list_reader property_list_reader(const input_type *language);

typedef struct list_run {
    const input_type *it;
    const checker_type *chk;
    check_options *opt;
    int quiet, verbose;
    int require_expected;   /* --expect */
    const char *path;       /* the property file */
    const char *xml;        /* --xml FILE, or NULL */
    json_check *json;       /* --json, or NULL for text */
} list_run;

/* Exit status: 2 if a property could not be checked; else, when the file
 * gives expected answers, 1 if an answer contradicts one, else 3 if one
 * is unknown, else 0; without expected answers the worst answer: 3 if one
 * is unknown, else 1 if one is NO, else 0. */
int check_property_list(net_t *net, check_item *items, size_t n, const list_run *lr);

#endif
