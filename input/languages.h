/* The built-in languages, one row each (input/languages.c).  A new
 * language is a reader in input/ and one row there. */
#ifndef MCK_LANGUAGES_H
#define MCK_LANGUAGES_H

#include <stddef.h>
#include "base/formats.h"

/* Row i, or NULL past the last. */
const input_type *input_builtin(size_t i);
/* The row named name, or NULL. */
const input_type *input_builtin_by_name(const char *name);

#endif
