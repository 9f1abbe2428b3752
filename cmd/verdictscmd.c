/* `mck verdicts compare A B`: where two verdict files contradict each
 * other (true against false) on the same property, so that mck's file can
 * be held against the MCC's.  Verdicts pair up by category and reference;
 * one side unknown or missing is counted, not a disagreement. */
#include "cmd/commands.h"
#include "verdicts/verdicts.h"

#include <stdio.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out, "usage: mck verdicts compare A.xml B.xml\n"
                 "  Lists the properties on which A and B disagree (true against false).\n"
                 "  Exit status: 0 no disagreement, 1 some, 2 error.\n");
}

static int known(const verdict_t *v)
{
    return v->kind == VD_TRUE || v->kind == VD_FALSE;
}

static int compare(const char *a_path, const char *b_path)
{
    verdictset_t *a = vs_read(a_path), *b = a ? vs_read(b_path) : NULL;
    if (!a || !b) {
        vs_free(a);
        return 2;
    }
    size_t agree = 0, disagree = 0, open = 0, missing = 0;
    for (size_t i = 0; i < a->nverdicts; i++) {
        const verdict_t *va = a->verdicts[i];
        const verdict_t *vb = vs_find(b, va->category, va->reference);
        if (!vb) {
            missing++;
            continue;
        }
        if (!known(va) || !known(vb)) {
            open++;
            continue;
        }
        if (va->kind == vb->kind) {
            agree++;
            continue;
        }
        disagree++;
        printf("%s %s: %s says %s, %s says %s\n", va->category, va->reference, a_path,
               va->kind == VD_TRUE ? "true" : "false", b_path, vb->kind == VD_TRUE ? "true" : "false");
    }
    printf("%zu compared: %zu agree, %zu disagree; %zu unknown on one side, %zu only in %s\n",
           agree + disagree + open, agree, disagree, open, missing, a_path);
    vs_free(a);
    vs_free(b);
    return disagree ? 1 : 0;
}

int verdicts_main(int argc, char **argv, budget_t *budget)
{
    (void)budget;
    if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        usage(stdout);
        return 0;
    }
    if (argc != 4 || strcmp(argv[1], "compare")) {
        usage(stderr);
        return 2;
    }
    return compare(argv[2], argv[3]);
}
