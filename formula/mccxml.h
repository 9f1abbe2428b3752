/* MCC property XML (mcc-formats.md §3): the <property-set> files of the
 * seven formula examinations, read into formula trees in net terms.
 *
 * What a property's class means for its tree:
 *   MCC_BOUND  root T_BOUND: the maximum over reachable markings of the sum
 *              of tokens on the listed places (§3.2).
 *   MCC_REACH  root T_EF or T_AG over a state formula (§3.1).
 *   MCC_CTL    a CTL state formula (T_EX..T_AU, boolean connectives, atoms),
 *              to be read with the maximal-path semantics of §3.4.  A CTL
 *              examination keeps its A G φ / E F φ properties in this class;
 *              a caller may still notice the reachability shape.
 *   MCC_LTL    the path formula φ of "A φ" (T_X T_F T_G T_U, connectives,
 *              atoms; no path quantifier): the outer A is implied, and the
 *              semantics is §3.5's (deadlocks stutter).
 *
 * A property whose formula uses an element mck does not know is kept with
 * formula NULL and a reason in unsupported, so that the other properties
 * of the file can still be answered.  Anything that shows the file is
 * broken or belongs to another model (malformed XML, an unknown place or
 * transition id, wrong arity, entity declarations) fails the whole read. */
#ifndef MCK_MCCXML_H
#define MCK_MCCXML_H

#include <stddef.h>
#include "base/netconv.h"
#include "base/tree.h"

typedef enum { MCC_REACH, MCC_CTL, MCC_LTL, MCC_BOUND } mcc_class;

typedef struct mcc_property {
    char *id;            /* the answer id, <Instance>-<Exam>-NN */
    tree_t *formula;     /* NULL exactly when unsupported is set */
    mcc_class cls;       /* for an unsupported property: the class it was read as */
    char *unsupported;   /* why the property cannot be read, or NULL */
    long line;           /* line of its <property> element */
} mcc_property;

typedef struct mcc_property_set {
    mcc_property *props;   /* in file order */
    size_t n;
} mcc_property_set;

/* Nesting of formula elements beyond this is refused (libxml2 itself stops
 * at 256 element levels). */
#define MCCXML_MAX_DEPTH 200

/* Reads a property file.  exam is the examination name, which decides how
 * a formula is read where the structure alone does not ("A X φ" is CTL's
 * AX in CTLCardinality but LTL's X in LTLCardinality, with different
 * deadlock semantics): "UpperBounds", "Reachability*", "CTL*", "LTL*"; any
 * other name is an error.  A property not of the examination's shape is
 * marked unsupported.  With
 * exam NULL the structure decides: place-bound -> BOUND; E F / A G over a
 * state formula -> REACH; A over a quantifier-free body that is not a single
 * temporal operator over state formulas -> LTL; anything else -> CTL.
 * Returns NULL after nc_error ("FILE:LINE: message"). */
mcc_property_set *mccxml_read(const char *path, net_t *net, const char *exam);
void mccxml_free(mcc_property_set *s);

/* The class of an examination's properties: 0, or -1 when exam is not the
 * name of a formula examination. */
int mccxml_exam_class(const char *exam, mcc_class *cls);
/* "reach", "ctl", "ltl", "bound". */
const char *mcc_class_name(mcc_class c);

#endif
