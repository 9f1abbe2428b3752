/* Loading plugins (plugin.h) and the table of the languages they add.
 * dlopen with RTLD_NOW, so that a plugin asking for a function mck does not
 * have fails at load time with the loader's message, not in the middle of a
 * check; then the version symbol is compared before anything of the plugin
 * runs. */
#include "plugin/plugin.h"
#include "plugin/loader.h"

#include <dirent.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PLUGIN_LANGUAGES 64

static const input_type *registered[MAX_PLUGIN_LANGUAGES];
static const char *registered_from[MAX_PLUGIN_LANGUAGES];
static size_t nregistered;
static const char *loading;      /* the plugin whose init is running */
static int (*taken)(const char *name);

void plugin_set_name_check(int (*name_taken)(const char *name))
{
    taken = name_taken;
}

int mck_register_language(const input_type *l)
{
    const char *who = loading ? loading : "mck";
    if (!l || !l->name || !*l->name || strchr(l->name, ':') || !l->suffixes || !l->readfunc ||
        !l->formfunc || !l->outputfunc || !l->description) {
        nc_error(who, 0, "plugin language incomplete: name, suffixes, three functions and a "
                         "description are needed");
        return -1;
    }
    if ((taken && taken(l->name)) || plugin_language_by_name(l->name)) {
        nc_error(who, 0, "language '%s' exists already", l->name);
        return -1;
    }
    if (nregistered == MAX_PLUGIN_LANGUAGES) {
        nc_error(who, 0, "too many plugin languages (at most %d)", MAX_PLUGIN_LANGUAGES);
        return -1;
    }
    registered_from[nregistered] = loading;
    registered[nregistered++] = l;
    return 0;
}

size_t plugin_languages(void)
{
    return nregistered;
}

const input_type *plugin_language(size_t i, const char **from)
{
    if (i >= nregistered)
        return NULL;
    if (from)
        *from = registered_from[i];
    return registered[i];
}

const input_type *plugin_language_by_name(const char *name)
{
    for (size_t i = 0; i < nregistered; i++)
        if (!strcmp(registered[i]->name, name))
            return registered[i];
    return NULL;
}

int plugin_load(const char *path)
{
    /* the handle is kept open for the life of the process: the rows and
     * functions it registered live in it */
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        nc_error(path, 0, "cannot load plugin: %s", dlerror());
        return -1;
    }
    const int *version = dlsym(h, "mck_plugin_api_version");
    int (*init)(void) = NULL;
    *(void **)&init = dlsym(h, "mck_plugin_init");
    if (!version || !init) {
        nc_error(path, 0, "not an mck plugin (no %s)",
                 version ? "mck_plugin_init" : "mck_plugin_api_version");
        dlclose(h);
        return -1;
    }
    if (*version != MCK_PLUGIN_API_VERSION) {
        nc_error(path, 0, "plugin built for mck plugin API version %d; this mck has version %d: "
                          "rebuild it against this mck's headers", *version,
                 MCK_PLUGIN_API_VERSION);
        dlclose(h);
        return -1;
    }
    /* the languages it registers name it as theirs (mck list) */
    char *copy = strdup(path);
    loading = copy ? copy : path;
    size_t before = nregistered;
    int rc = init();
    loading = NULL;
    if (rc != 0) {
        nregistered = before;
        free(copy);
        nc_error(path, 0, "plugin initialisation failed (status %d)", rc);
        return -1;
    }
    if (nregistered == before)
        free(copy);   /* nothing refers to it */
    return 0;
}

/* Every *.so in dir, in name order; missing folders are fine. */
static int load_folder(const char *dir)
{
    struct dirent **names;
    int n = scandir(dir, &names, NULL, alphasort);
    if (n < 0)
        return 0;
    int rc = 0;
    for (int i = 0; i < n; i++) {
        size_t len = strlen(names[i]->d_name);
        if (len > 3 && !strcmp(names[i]->d_name + len - 3, ".so")) {
            size_t size = strlen(dir) + len + 2;
            char *path = malloc(size);
            if (path) {
                snprintf(path, size, "%s/%s", dir, names[i]->d_name);
                if (plugin_load(path) < 0)
                    rc = -1;
                free(path);
            }
        }
        free(names[i]);
    }
    free(names);
    return rc;
}

int plugin_load_defaults(const char *default_dir)
{
    int rc = 0;
    const char *env = getenv("MCK_PLUGIN_PATH");
    if (env) {
        char *copy = strdup(env), *save = NULL;
        for (char *d = copy ? strtok_r(copy, ":", &save) : NULL; d; d = strtok_r(NULL, ":", &save))
            if (load_folder(d) < 0)
                rc = -1;
        free(copy);
    }
    if (default_dir && load_folder(default_dir) < 0)
        rc = -1;
    return rc;
}
