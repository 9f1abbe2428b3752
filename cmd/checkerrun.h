/* checker_run: a checker row's run, in a child process the deadline can
 * stop when the row says its operations cannot stop themselves (fenced). */
#ifndef MCK_CHECKERRUN_H
#define MCK_CHECKERRUN_H

#include "base/formats.h"

void checker_run(const checker_type *chk, const cnet_t *cn, const tree_t *formula,
                 prop_kind kind, const check_options *opt, result_t *res);

#endif
