/* What the sub-commands share in reading their command lines: option
 * values, usage errors and the exit codes of mck (0 YES, 1 NO, 2 error,
 * 3 UNKNOWN). */
#ifndef MCK_OPTIONS_H
#define MCK_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#define EXIT_YES 0
#define EXIT_NO 1
#define EXIT_ERROR 2
#define EXIT_UNKNOWN 3

int parse_count(const char *s, uint64_t *out);      /* 0, or -1 if not a count */
int parse_seconds(const char *s, double *out);      /* > 0 */
int parse_megabytes(const char *s, size_t *out);    /* -> bytes */

/* Prints "mck: " fmt (with arg) and a hint to --help; returns EXIT_ERROR. */
int usage_error(const char *fmt, const char *arg);

#endif
