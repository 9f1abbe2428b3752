/* `mck check` on a file of several numbered properties (RERS): checks
 * every property, prints a block per property with the expected answer
 * beside mck's and a summary, and with xml != NULL writes every verdict
 * and its run to that file. */
#ifndef MCK_PROPLIST_H
#define MCK_PROPLIST_H

#include "base/formats.h"
#include "input/input.h"

/* The reader of property files with several numbered properties for a
 * language (rers_properties), or NULL where a file holds one formula. */
typedef int (*prop_list_reader)(const char *path, net_t *net, prop_entry **out, size_t *n);
prop_list_reader property_list_reader(const input_type *language);

/* Exit status: 1 if an answer contradicts the expected one, else 3 if one
 * is unknown, else 0.  require_expected: every property must carry one. */
int check_property_list(net_t *net, const input_type *it, const checker_type *chk,
                        prop_entry *props, size_t n, check_options *opt, int quiet,
                        int verbose, int require_expected, const char *path, const char *xml);

#endif
