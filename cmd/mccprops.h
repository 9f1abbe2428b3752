/* MCC property XML files (formula/mccxml.h) as property lists of `mck
 * check`: every property of the file, one verdict each, checked as the
 * contest reads it. */
#ifndef MCK_MCCPROPS_H
#define MCK_MCCPROPS_H

#include "cmd/proplist.h"

/* Whether the file at path starts like XML rather than a Kit formula
 * (which never starts with '<' other than the '<>' of "eventually"). */
int looks_like_xml(const char *path);

/* Reads every property: "E F f" as the reach question f, "A G f" as the
 * reach question !f with the answer turned around, CTL as ctl, LTL (the
 * path formula under its implied A) as ltl; a place bound, or a formula
 * mck cannot read, as an item that is not checked, with the reason.  The
 * examination, and so the reading of "A X f", comes from the file's name
 * (ReachabilityCardinality.xml, CTLFireability.xml, ...), else from each
 * formula's structure.  asked: a kind every property must have, or
 * KIND_AUTO.  0, or -1 after an error message. */
int mcc_property_items(const char *path, net_t *net, prop_kind asked, check_item **out,
                       size_t *n);

#endif
