/* Which language reads a model: LANG: or -t, else the model's suffix,
 * among the built-in rows (input/languages.h) and the plugins' rows
 * (plugin/loader.h). */
#ifndef MCK_LANGUAGE_H
#define MCK_LANGUAGE_H

#include <stddef.h>
#include "base/formats.h"

/* Row i of built-in languages first, then the plugins'; NULL past the end. */
const input_type *language_at(size_t i);
/* The language of a model (lang, or its suffix); NULL after an error message. */
const input_type *choose_language(const char *lang, const char *model);
/* Reads the model with it; NULL after an error message. */
net_t *read_model(const input_type *it, const char *path);
/* Both: the model at path in language lang (NULL: by its suffix); NULL
 * after an error message.  *it (may be NULL) gets the language. */
net_t *load_model(const char *lang, const char *path, const input_type **it);
/* Whether a built-in language has this name (plugins may not take it). */
int builtin_name_taken(const char *name);

#endif
