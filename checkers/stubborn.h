/* stubborn: the explicit searches reduced by stubborn sets (partial-order
 * reduction): every deadlock, every reachable goal and (LTL without X)
 * every stutter-equivalent run is kept; far fewer markings on concurrent
 * models, witnesses that are runs of the net but not always shortest. */
#ifndef MCK_STUBBORN_H
#define MCK_STUBBORN_H

#include "base/formats.h"

int stubborn_accepts(const tree_t *t, prop_kind kind, char *why, size_t whylen);
void stubborn_run(const cnet_t *cn, const tree_t *formula, prop_kind kind,
                  const check_options *opt, result_t *res);

#endif
