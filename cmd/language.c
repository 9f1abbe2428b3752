/* Choosing the language of a model (language.h). */
#include "cmd/language.h"
#include "cmd/options.h"
#include "input/languages.h"
#include "plugin/loader.h"

#include <string.h>

int builtin_name_taken(const char *name)
{
    return input_builtin_by_name(name) != NULL;
}

const input_type *language_at(size_t i)
{
    const input_type *l = input_builtin(i);
    if (l)
        return l;
    size_t n = 0;
    while (input_builtin(n))
        n++;
    return plugin_language(i - n, NULL);
}

static const input_type *language_by_name(const char *name)
{
    const input_type *l = input_builtin_by_name(name);
    return l ? l : plugin_language_by_name(name);
}

/* The row whose suffix ends path, the longest match winning. */
static const input_type *language_by_suffix(const char *path)
{
    const input_type *best = NULL;
    size_t best_len = 0, plen = strlen(path);
    const input_type *l;
    for (size_t i = 0; (l = language_at(i)) != NULL; i++) {
        const char *s = l->suffixes;
        while (*s) {
            size_t n = strcspn(s, " ");
            if (n <= plen && n > best_len && strncmp(path + plen - n, s, n) == 0) {
                best = l;
                best_len = n;
            }
            s += n;
            s += strspn(s, " ");
        }
    }
    return best;
}

const input_type *choose_language(const char *lang, const char *model)
{
    if (lang) {
        const input_type *it = language_by_name(lang);
        if (!it)
            usage_error("unknown language '%s' (see 'mck list')", lang);
        return it;
    }
    const input_type *it = language_by_suffix(model);
    if (!it)
        usage_error("cannot tell the language of '%s' from its suffix; use -t LANG", model);
    return it;
}

net_t *read_model(const input_type *it, const char *path)
{
    net_t *net = it->readfunc(path);
    if (net)
        net->language = it->name;
    return net;
}

net_t *load_model(const char *lang, const char *path, const input_type **it)
{
    const input_type *l = choose_language(lang, path);
    if (it)
        *it = l;
    return l ? read_model(l, path) : NULL;
}
