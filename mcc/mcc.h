/* mcc: the BenchKit driver (mcc-formats.md §1.3, §2).  `mck mcc
 * [EXAMINATION [DIR]]` reads DIR/model.pnml (and DIR/EXAMINATION.xml for a
 * formula examination) and prints the contest's answer lines on stdout,
 * each flushed as soon as its value is certain.  A value that is not
 * certain is never printed. */
#ifndef MCK_MCC_H
#define MCK_MCC_H

#include "base/budget.h"

/* argv[0] is "mcc".  Returns the process exit status: 0 when the run went
 * as designed (whether or not every value was found), 1 when the model or
 * property file could not be read or the --xml file not written, 2 on a
 * usage error (or an --xml file that cannot be created). */
/* budget: the run's (main.c), whose limits mcc sets from BenchKit's
 * variables.  budget->interrupted: set by SIGINT/SIGTERM.  An interrupted
 * run ends like one out of time: the answers found so far, CANNOT_COMPUTE
 * for the rest. */
int mcc_main(int argc, char **argv, budget_t *budget);

#endif
