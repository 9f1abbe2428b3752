/* libFuzzer target for the property grammar (formula_parse_string,
 * formula/formula.y and formula.l, formula-syntax.md) with the plain
 * net languages' atoms (netlang_resolve).
 *
 * The net is fixed and small: the grammar, not the net, is under test, but
 * the atoms need something to resolve to.  Its names are those of the
 * seeds (examples' .form files), plus a name two places share and one with
 * characters of the grammar in it, so that both the resolver's success and
 * its error paths are reachable.  The kind is KIND_AUTO, so the parser
 * also derives the kind (formula-syntax.md §7) for every input.
 *
 * formula_parse_string stops at the first NUL, but a .form file is read by
 * formula_parse_file, whose lexer sees NULs too: an input with a NUL in it
 * is parsed both ways.  An input with a ':' may be a list of named
 * formulas (formula-syntax.md §8): it is also read as one.
 * Build and run: tests/fuzz/README.md. */
#include "fuzz_file.h"

#include <string.h>

#include "base/netconv.h"
#include "base/tree.h"
#include "formula/formula.h"
#include "input/input.h"

static net_t *net;

static void must(int status)
{
    if (status < 0)
        abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    static const char *const places[][2] = {
        { "p1", "crit1" }, { "p2", "crit2" }, { "p3", "free" },
        { "p4", "eat0" },  { "p5", "eat1" },  { "p6", "fork0" },
        { "p7", "fork1" }, { "p8", "fork2" }, { "p9", "fork3" },
        { "p10", "dup" },  { "p11", "dup" },  { "p12", "a\"b'c/*d" },
    };
    static const char *const transitions[][2] = {
        { "t1", "takeleft0" }, { "t2", "takeleft1" }, { "t3", "dup" },
    };
    (void)argc;
    (void)argv;
    nc_set_verbosity(0);   /* no warnings; errors still go to stderr */
    fuzz_open_scratch("fuzz_formula");
    net = nc_create_net("fuzz", NULL);
    if (!net)
        abort();
    for (size_t i = 0; i < sizeof places / sizeof places[0]; i++)
        must(nc_create_place(net, places[i][0], places[i][1], i % 2));
    for (size_t i = 0; i < sizeof transitions / sizeof transitions[0]; i++)
        must(nc_create_transition(net, transitions[i][0], transitions[i][1]));
    /* The net stays for the whole process: LeakSanitizer only reports what
     * is unreachable at exit, and the static pointer keeps it reachable. */
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    prop_kind kind = KIND_AUTO;
    tree_t *t = formula_parse_string(text, "fuzz", net, NULL, netlang_resolve, &kind);
    if (t)
        tree_free(t);
    free(text);
    if (memchr(data, 0, size)) {
        kind = KIND_AUTO;
        t = formula_parse_file(fuzz_store(data, size), net, NULL, netlang_resolve, &kind);
        if (t)
            tree_free(t);
    }
    if (memchr(data, ':', size)) {
        named_formula *v;
        size_t n;
        if (formula_parse_named_file(fuzz_store(data, size), NULL, net, NULL, netlang_resolve,
                                     KIND_AUTO, &v, &n) == 0)
            named_formulas_free(v, n);
    }
    return 0;
}
