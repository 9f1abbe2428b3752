/* fairness.h: the fairness assumption of a check, from either place it
 * may be stated, as a set of the net's transitions. */
#include "cmd/fairness.h"
#include "formula/formula.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int fairness_parse_mode(const char *s, check_fairness *mode)
{
    if (!strcmp(s, "weak"))
        *mode = FAIRNESS_WEAK;
    else if (!strcmp(s, "strong"))
        *mode = FAIRNESS_STRONG;
    else if (!strcmp(s, "none"))
        *mode = FAIRNESS_NONE;
    else
        return -1;
    return 0;
}

/* Marks in set the transitions whose name or id one of the patterns
 * (shell wildcards, separated by commas or blanks) matches; a pattern
 * that matches none is an error, reported as coming from `where`. */
static int resolve(const net_t *net, const char *names, const char *where, uint8_t *set)
{
    const char *sep = ", \t\r";
    char *copy = strdup(names);
    if (!copy) {
        fprintf(stderr, "%s: out of memory\n", where);
        return -1;
    }
    int rc = 0, any = 0;
    char *save = NULL;
    for (char *pat = strtok_r(copy, sep, &save); pat && !rc; pat = strtok_r(NULL, sep, &save)) {
        any = 1;
        size_t hits = 0;
        for (size_t t = 0; t < net->ntransitions; t++) {
            const nc_transition *tr = &net->transitions[t];
            if ((tr->name && !fnmatch(pat, tr->name, 0)) || (tr->id && !fnmatch(pat, tr->id, 0))) {
                set[t] = 1;
                hits++;
            }
        }
        if (!hits) {
            fprintf(stderr, "%s: no transition of the model is named '%s' (see 'mck info -v')\n",
                    where, pat);
            rc = -1;
        }
    }
    if (!any && !rc) {
        fprintf(stderr, "%s: no transition names\n", where);
        rc = -1;
    }
    free(copy);
    return rc;
}

int fairness_setup(const fairness_args *cli, const net_t *net, const char *property,
                   check_options *opt, uint8_t **set)
{
    *set = NULL;
    opt->fairness = FAIRNESS_NONE;
    opt->fair_set = NULL;
    formula_fairness file = {FAIRNESS_NONE, NULL, 0};
    if (property && formula_read_fairness(property, &file) < 0)
        return -1;
    check_fairness mode = cli->given ? cli->mode : file.mode;
    const char *names = cli->names ? cli->names : file.names;
    char where[512];
    if (cli->names)
        snprintf(where, sizeof where, "mck: --fair-set");
    else
        snprintf(where, sizeof where, "%s:%ld", property ? property : "", file.line);
    int rc = 0;
    if (mode == FAIRNESS_NONE) {
        if (cli->names && !cli->given) {
            fprintf(stderr, "mck: --fair-set needs --fair=weak or --fair=strong (or a #fair "
                    "line in the property file)\n");
            rc = -1;
        }
    } else if (names) {
        *set = calloc(net->ntransitions + 1, 1);
        if (!*set) {
            fprintf(stderr, "mck: out of memory\n");
            rc = -1;
        } else if (resolve(net, names, where, *set) < 0) {
            rc = -1;
        }
    }
    if (!rc) {
        opt->fairness = mode;
        opt->fair_set = *set;
    } else {
        free(*set);
        *set = NULL;
    }
    free(file.names);
    return rc;
}
