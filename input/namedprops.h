/* Files of several named formulas (formula-syntax.md §8) as the property
 * lists `mck check` checks one by one, for each built-in language: the
 * language's atoms through its resolver, the list as prop_entry rows. */
#ifndef MCK_NAMEDPROPS_H
#define MCK_NAMEDPROPS_H

#include "input/input.h"

/* 0 with *n properties (0 when the file is one formula without a name,
 * which the language's formula function reads); -1 after an error message.
 * kind: asked for every formula, or KIND_AUTO for each formula's own. */
int netlang_named_properties(const char *path, net_t *net, prop_kind kind, prop_entry **out,
                             size_t *n);
int cfa_named_properties(const char *path, net_t *net, prop_kind kind, prop_entry **out,
                         size_t *n);
int bpn2_named_properties(const char *path, net_t *net, prop_kind kind, prop_entry **out,
                          size_t *n);
/* RERS: numbered blocks ("#N:", rers_properties) when the file has them,
 * else named formulas with bare action names. */
int rers_property_lists(const char *path, net_t *net, prop_kind kind, prop_entry **out,
                        size_t *n);

#endif
