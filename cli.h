/* What the command line shares between its sub-commands: parsing option
 * values and presenting a result the way kit-overview.md §6 fixes it. */
#ifndef MCK_CLI_H
#define MCK_CLI_H

#include <stdio.h>
#include "formats.h"

int parse_count(const char *s, uint64_t *out);      /* 0, or -1 if not a count */
int parse_seconds(const char *s, double *out);      /* > 0 */
int parse_megabytes(const char *s, size_t *out);    /* -> bytes */

/* Prints "Result: ...", the run (unless quiet) and "Time needed"; returns
 * the exit status of the answer (0 YES, 1 NO, 3 UNKNOWN). */
int report_result(FILE *out, net_t *net, outputfunc_t print_run, const result_t *res,
                  int quiet, double seconds);
void report_statistics(FILE *err, const result_t *res);

/* Replays a checker's run on the net: every step enabled, a loop closed, a
 * deadlock ending dead, a dl/reach run ending where it claims.  A checker
 * bug must never reach the user as a wrong witness. */
int replay_ok(const cnet_t *cn, const result_t *res, const tree_t *f, prop_kind kind);

/* proplist.c: checks every property of a file of several (RERS), prints a
 * block per property with the expected answer beside mck's and a summary,
 * and with xml != NULL writes every verdict and its run to that file.
 * Exit status: 1 if an answer contradicts the expected one, else 3 if one
 * is unknown, else 0.  require_expected: every property must carry one. */
typedef struct prop_entry prop_entry;
/* The reader of property files with several numbered properties for a
 * language (rers_properties), or NULL where a file holds one formula. */
typedef int (*prop_list_reader)(const char *path, net_t *net, prop_entry **out, size_t *n);
prop_list_reader property_list_reader(const input_type *language);
int check_property_list(net_t *net, const input_type *it, const checker_type *chk,
                        prop_entry *props, size_t n, check_options *opt, int quiet,
                        int verbose, int require_expected, const char *path, const char *xml);

/* Writes the result as a propertiesverdict file; -1 after an error message. */
int write_verdict_file(const char *path, net_t *net, const char *property, prop_kind kind,
                       const result_t *res);

/* main.c: the language of a model (LANG, or its suffix) and reading it;
 * NULL after an error message. */
const input_type *choose_language(const char *lang, const char *model);
net_t *read_model(const input_type *it, const char *path);

/* properties.c: `mck properties`; verdictscmd.c: `mck verdicts`.  argv[0]
 * is the command's name; the exit status is returned. */
int properties_main(int argc, char **argv, volatile int *interrupted);
int verdicts_main(int argc, char **argv);
/* export.c: `mck export --promela`, the model (and its RERS properties) for
 * SPIN. */
int export_main(int argc, char **argv);
/* convert.c: `mck convert`, the net as APNN, PNML or PEP (writers/). */
int convert_main(int argc, char **argv);
/* draw.c: `mck draw`, the net (and a run over it) as a Graphviz picture. */
int draw_main(int argc, char **argv);

#endif
