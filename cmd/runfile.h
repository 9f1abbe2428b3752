/* A run saved in a propertiesverdict file (`mck check --xml`, `mck mcc
 * --xml`), read back as a run of a model's net: `mck draw --run` draws it,
 * `mck simulate --run` prints it as text.  Both must refuse a run that is
 * not one of the model, and say at which step it stops fitting. */
#ifndef MCK_RUNFILE_H
#define MCK_RUNFILE_H

#include <stddef.h>
#include "base/netconv.h"
#include "base/result.h"

/* Reads the trace of the first verdict in path that has one into res
 * (its role, its steps as net's transitions, its loop) and replays it on
 * net.  0 when every step fires and the run ends as the trace says; -1
 * after one message "FILE:LINE: ..." naming the step that does not fit.
 * When the run leaves the model (a step that cannot fire, a name the net
 * does not have, a loop that does not close), *fits (may be NULL) holds
 * how many steps replay and res holds those steps alone, without a loop,
 * so that the caller can show the state where the run leaves the model;
 * after any other error *fits is 0 and res is empty. */
int read_run_file(const char *path, net_t *net, result_t *res, size_t *fits);

#endif
