/* Fairness for `mck check`: --fair and --fair-set on the command line, or
 * the property file's #fair line, resolved to the model's transitions. */
#ifndef MCK_CMD_FAIRNESS_H
#define MCK_CMD_FAIRNESS_H

#include "base/netconv.h"
#include "base/result.h"

typedef struct fairness_args {
    int given;              /* --fair was on the command line */
    check_fairness mode;    /* its value */
    const char *names;      /* --fair-set, or NULL */
} fairness_args;

/* Sets opt->fairness and opt->fair_set (*set owns it; free it after the
 * check) from the command line, which wins, and the #fair line of
 * property (may be NULL).  0, or -1 after a message (FILE:LINE: ... for
 * the file's line). */
int fairness_setup(const fairness_args *cli, const net_t *net, const char *property,
                   check_options *opt, uint8_t **set);

/* "weak", "strong" or "none" into *mode: 0, or -1 for anything else. */
int fairness_parse_mode(const char *s, check_fairness *mode);

#endif
