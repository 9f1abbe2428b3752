/* The checkers' table (checkers/checkers.c): one row per checker, each row
 * a file or folder of checkers/.  Checkers know cnet_t, tree_t and
 * result_t only, and never print. */
#ifndef MCK_CHECKERS_H
#define MCK_CHECKERS_H

#include <stddef.h>
#include "base/formats.h"

/* Row i, or NULL past the last; row 0 is the default checker. */
const checker_type *checker_at(size_t i);
/* The row whose name is the len characters at name, or NULL. */
const checker_type *checker_by_name(const char *name, size_t len);

#endif
