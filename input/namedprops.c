/* Named formulas as property lists (namedprops.h). */
#include "input/namedprops.h"

#include <stdlib.h>

static int as_entries(named_formula *v, size_t n, prop_entry **out, size_t *nout)
{
    prop_entry *e = calloc(n ? n : 1, sizeof *e);
    if (!e) {
        named_formulas_free(v, n);
        nc_error(NULL, 0, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        e[i] = (prop_entry){ v[i].name, (long)i + 1, v[i].line, v[i].formula, v[i].kind, -1 };
    free(v);   /* the names and trees now belong to the entries */
    *out = e;
    *nout = n;
    return 0;
}

static int named(const char *path, const formula_opts *opts, net_t *net, void *lang_data,
                 ap_resolver resolve, prop_kind kind, prop_entry **out, size_t *n)
{
    named_formula *v;
    size_t nv;
    *out = NULL;
    *n = 0;
    if (formula_parse_named_file(path, opts, net, lang_data, resolve, kind, &v, &nv) < 0)
        return -1;
    return nv ? as_entries(v, nv, out, n) : 0;
}

int netlang_named_properties(const char *path, net_t *net, prop_kind kind, prop_entry **out,
                             size_t *n)
{
    return named(path, NULL, net, NULL, netlang_resolve, kind, out, n);
}

int cfa_named_properties(const char *path, net_t *net, prop_kind kind, prop_entry **out,
                         size_t *n)
{
    return named(path, NULL, net, net->lang_data, cfa_resolve, kind, out, n);
}

int bpn2_named_properties(const char *path, net_t *net, prop_kind kind, prop_entry **out,
                          size_t *n)
{
    return named(path, NULL, net, NULL, bpn2_resolve, kind, out, n);
}

int rers_property_lists(const char *path, net_t *net, prop_kind kind, prop_entry **out,
                        size_t *n)
{
    if (rers_properties(path, net, out, n) < 0)
        return -1;
    if (*n)
        return 0;
    /* as rers_formula reads a lone formula */
    formula_opts opts = { 1, 1 };
    return named(path, &opts, net, net->lang_data, rers_resolve, kind, out, n);
}
