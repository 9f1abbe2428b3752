/* mck's sub-commands, one file each in cmd/, and the table main.c
 * dispatches on (cmd/commands.c).  Every command gets its arguments
 * (argv[0] is its name) and the run's budget, made once in main.c, and
 * returns mck's exit status (cmd/options.h). */
#ifndef MCK_COMMANDS_H
#define MCK_COMMANDS_H

#include <stdio.h>
#include "base/budget.h"

typedef int (*command_fn)(int argc, char **argv, budget_t *budget);

/* The command called name, or NULL; a name with ':' is the Kit's spelling
 * of check. */
command_fn command_by_name(const char *name);
/* Whether a command answers SIGINT and SIGTERM itself (check, properties
 * and mcc: UNKNOWN, interrupted); the others end the default way. */
int command_answers_signals(const char *name);
/* Whether a command takes plugins from the plugin folders (mcc does not:
 * the contest gets exactly the built-in mck). */
int command_loads_plugins(const char *name);
void commands_help(FILE *out);

int check_main(int argc, char **argv, budget_t *budget);        /* cmd/check.c */
int info_main(int argc, char **argv, budget_t *budget);         /* cmd/info.c */
int list_main(int argc, char **argv, budget_t *budget);         /* cmd/list.c */
int properties_main(int argc, char **argv, budget_t *budget);   /* cmd/properties.c */
int verdicts_main(int argc, char **argv, budget_t *budget);     /* cmd/verdictscmd.c */
int export_main(int argc, char **argv, budget_t *budget);       /* cmd/export.c */
int convert_main(int argc, char **argv, budget_t *budget);      /* cmd/convert.c */
int draw_main(int argc, char **argv, budget_t *budget);         /* cmd/draw.c */
int simulate_main(int argc, char **argv, budget_t *budget);     /* cmd/simulate.c */

#endif
