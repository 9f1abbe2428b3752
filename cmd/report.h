/* Presenting a checker's result the way the man page fixes it: the answer,
 * the run in the model's terms, statistics, a verdict file; and checking
 * the run on the net before anyone sees it. */
#ifndef MCK_REPORT_H
#define MCK_REPORT_H

#include <stdio.h>
#include "base/formats.h"

/* Prints "Result: ...", the run (unless quiet) and "Time needed"; returns
 * the exit status of the answer (0 YES, 1 NO, 3 UNKNOWN). */
int report_result(FILE *out, net_t *net, outputfunc_t print_run, const result_t *res,
                  int quiet, double seconds);
void report_statistics(FILE *err, const result_t *res);
/* The exit status of an answer: 0 YES, 1 NO, 3 UNKNOWN. */
int answer_status(answer_t a);

/* Replays a checker's run on the net: every step enabled, a loop closed, a
 * deadlock ending dead, a dl/reach run ending where it claims.  A checker
 * bug must never reach the user as a wrong witness. */
int replay_ok(const cnet_t *cn, const result_t *res, const tree_t *f, prop_kind kind);

/* Writes the result as a propertiesverdict file; -1 after an error message. */
int write_verdict_file(const char *path, net_t *net, const char *property, prop_kind kind,
                       const result_t *res);

#endif
