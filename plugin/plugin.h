/* mck's plugin API, installed as <mck/plugin/plugin.h>: a shared object
 * that mck loads (`mck --plugin PATH.so`, MCK_PLUGIN_PATH, or the plugin
 * folder) adds modelling languages, rows of the same input_type table the
 * built-in languages fill (formats.h), without rebuilding mck.
 *
 * A plugin is written exactly like a built-in language
 * (docs/adding-a-language.md) against the installed headers, and exports
 * two symbols: the API version it was built for, and its entry point,
 * which registers its languages.
 *
 *     #include <mck/plugin/plugin.h>
 *     MCK_PLUGIN_DECLARE_VERSION;
 *     int mck_plugin_init(void)
 *     {
 *         return mck_register_language(&my_language);
 *     }
 *
 * The functions a plugin calls (netconv, tree, the formula parser,
 * netlang_*, print_run_words) are mck's own, exported by the mck
 * executable.  Their types are part of the API: any change to them, or to
 * the structures in these headers, raises MCK_PLUGIN_API_VERSION, and mck
 * refuses plugins built for another version (no guessing at binary
 * layouts). */
#ifndef MCK_PLUGIN_H
#define MCK_PLUGIN_H

#include "base/formats.h"
#include "input/input.h"

/* 2: net_t gained lang_step_attrs (verdict traces in the model's terms).
 * 3: print_run_words and run_words (input.h), cn_dead (netconv.h).
 * 4: result_t gained segments (what each part of a CTL run shows). */
#define MCK_PLUGIN_API_VERSION 4

/* The version a plugin was built against; mck reads it before calling
 * anything in the plugin. */
#define MCK_PLUGIN_DECLARE_VERSION const int mck_plugin_api_version = MCK_PLUGIN_API_VERSION

/* Implemented by the plugin: 0 when its languages are registered; any
 * other value makes mck refuse the plugin (after the plugin's own message,
 * through nc_error, if it has one). */
int mck_plugin_init(void);

/* Implemented by mck: adds a language.  The row must outlive the process
 * (a static const in the plugin).  0, or -1 (after a message) when its
 * name is taken or it is incomplete. */
int mck_register_language(const input_type *language);

#endif
