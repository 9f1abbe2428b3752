/* A run as JSON in the model's terms (the man page's JSON section): the
 * steps the text output prints, each with the net transition behind it
 * and the attributes a verdict trace gives it (net_t's lang_step_attrs),
 * so that a JSON run and a `--xml` trace of the same result agree step by
 * step. */
#ifndef MCK_JSONRUN_H
#define MCK_JSONRUN_H

#include "base/formats.h"
#include "base/json.h"

/* Writes res's run as the value of the member whose key j has just been
 * written: null when res has none; else the object of the JSON section,
 * its texts from the language's output function print_run.  The run must
 * have replayed (cmd/report.c's replay_ok). */
void json_run(json_writer *j, net_t *net, outputfunc_t print_run, const result_t *res);

#endif
