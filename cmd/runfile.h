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
 * net.  0 when every step fires and the run ends as the trace says.  -2
 * when the run leaves the model (a step that cannot fire, a name the net
 * does not have, a loop that does not close): after one message
 * "FILE:LINE: ..." naming where, with *fits (may be NULL) the number of
 * steps that replay and res holding those steps alone, without a loop,
 * so that the caller can show the state where the run leaves the model.
 * -1 after any other error message, res empty. */
int read_run_file(const char *path, net_t *net, result_t *res, size_t *fits);

#endif
