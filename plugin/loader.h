/* mck's side of the plugins: loading them and the languages they added.
 * (plugin.h is the plugins' side.) */
#ifndef MCK_PLUGIN_LOADER_H
#define MCK_PLUGIN_LOADER_H

#include <stddef.h>
#include "base/formats.h"

/* Loads one plugin; 0, or -1 after a message "PATH: ...". */
int plugin_load(const char *path);
/* Loads every *.so of the folders in $MCK_PLUGIN_PATH (colon-separated),
 * then of default_dir (may be NULL); -1 when one of them failed (each
 * failure has its message; the others are loaded). */
int plugin_load_defaults(const char *default_dir);
/* main.c says which names the built-in table has, so none is taken twice. */
void plugin_set_name_check(int (*name_taken)(const char *name));

size_t plugin_languages(void);
/* Language i, and in *from the plugin that registered it. */
const input_type *plugin_language(size_t i, const char **from);
const input_type *plugin_language_by_name(const char *name);

#endif
