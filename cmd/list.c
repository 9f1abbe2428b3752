/* `mck list`: the languages and checkers this mck has. */
#include "cmd/commands.h"
#include "checkers/checkers.h"
#include "cmd/language.h"
#include "input/languages.h"
#include "plugin/loader.h"

#include <stdio.h>

static void print_kinds(FILE *out, unsigned kinds)
{
    const char *sep = "";
    for (prop_kind k = KIND_DL; k <= KIND_LTL; k++)
        if (kinds & KINDS_BIT(k)) {
            fprintf(out, "%s%s", sep, prop_kind_name(k));
            sep = ",";
        }
}

int list_main(int argc, char **argv, budget_t *budget)
{
    (void)argc;
    (void)argv;
    (void)budget;
    printf("languages:\n");
    const input_type *l;
    for (size_t i = 0; (l = input_builtin(i)) != NULL; i++)
        printf("  %-10s %-16s %s\n", l->name, l->suffixes, l->description);
    for (size_t i = 0; i < plugin_languages(); i++) {
        const char *from;
        const input_type *l = plugin_language(i, &from);
        printf("  %-10s %-16s %s (plugin %s)\n", l->name, l->suffixes, l->description, from);
    }
    printf("checkers:\n");
    const checker_type *c;
    for (size_t i = 0; (c = checker_at(i)) != NULL; i++) {
        printf("  %-10s kinds ", c->name);
        print_kinds(stdout, c->kinds);
        printf("  %s\n  %-10s nets: %s\n", c->description, "", c->nets);
    }
    return 0;
}

