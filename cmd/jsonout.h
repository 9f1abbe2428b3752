/* `--json` of mck check: the objects of the man page's JSON section, one
 * line each on standard output — a result per property checked (or not
 * checked, with the reason), and for a file of several a summary. */
#ifndef MCK_JSONOUT_H
#define MCK_JSONOUT_H

#include "base/formats.h"
#include "base/json.h"

typedef struct json_check {
    json_writer w;
    const char *model, *language, *checker;
} json_check;

void json_check_init(json_check *jc, FILE *out, const char *model, const input_type *it,
                     const checker_type *chk);

/* What a result is about: property is the name in a file of several, the
 * property file for a lone formula, NULL for a deadlock check; expected
 * is 1, 0 or -1 (none). */
typedef struct json_about {
    const char *property;
    prop_kind kind;
    int expected;
} json_about;

/* A checked property; the run in the model's terms through print_run.
 * quiet: no run. */
void json_check_result(json_check *jc, const json_about *about, net_t *net,
                       outputfunc_t print_run, const result_t *res, int quiet, double seconds);
/* A property that could not be checked, and why. */
void json_check_refused(json_check *jc, const json_about *about, const char *why);

typedef struct json_tally {
    size_t properties, yes, no, unknown, errors, expected, agree, disagree;
    double seconds;
    int exit_status;
} json_tally;
void json_check_summary(json_check *jc, const char *property_file, const json_tally *t);

#endif
