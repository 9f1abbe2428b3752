/* Writing JSON (RFC 8259) for `--json`: a streaming writer that puts the
 * commas, colons and brackets where they belong, so that callers only say
 * what comes next.  Each top-level value ends with a newline and a flush:
 * the output is JSON Lines, one complete object per line, so a reader can
 * take each result as it comes and a run stopped half-way leaves only
 * whole lines behind.
 *
 * Strings are written as UTF-8.  Control characters are escaped (\n, \t,
 * ..., else \u00XX, DEL too), valid UTF-8 passes through unchanged, and
 * what is not valid UTF-8 (stray continuation bytes, overlong forms,
 * surrogates, code points past U+10FFFF, a sequence cut short) becomes
 * U+FFFD, the replacement character, written \ufffd: one for each maximal
 * subpart (a sequence cut short is one, each other stray byte is one), as
 * Unicode recommends and Python decodes.  The output is therefore always valid JSON, whatever bytes a model's
 * names hold. */
#ifndef MCK_JSON_H
#define MCK_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Deeper than any object mck writes; a deeper begin is ignored (and its
 * end with it), so a mistake cannot write past the array below. */
#define JSON_MAX_DEPTH 16

typedef struct json_writer {
    FILE *out;
    unsigned depth;
    unsigned skipped;                  /* begins beyond JSON_MAX_DEPTH */
    unsigned char has_member[JSON_MAX_DEPTH + 1];
    int after_key;                     /* a key was written, its value not yet */
} json_writer;

void json_init(json_writer *j, FILE *out);

void json_object_begin(json_writer *j);
void json_object_end(json_writer *j);
void json_array_begin(json_writer *j);
void json_array_end(json_writer *j);
/* The key of the next member of the current object. */
void json_key(json_writer *j, const char *key);

void json_string(json_writer *j, const char *s);    /* NULL writes null */
void json_string_n(json_writer *j, const char *s, size_t n);
void json_uint(json_writer *j, uint64_t v);
void json_int(json_writer *j, int64_t v);
/* A number given as its decimal digits (values past 64 bits). */
void json_number_text(json_writer *j, const char *digits);
void json_double(json_writer *j, double v);          /* not finite: null */
void json_bool(json_writer *j, int v);
void json_null(json_writer *j);

/* key and value in one call */
void json_member_string(json_writer *j, const char *key, const char *s);
void json_member_uint(json_writer *j, const char *key, uint64_t v);
void json_member_double(json_writer *j, const char *key, double v);
void json_member_bool(json_writer *j, const char *key, int v);

/* The escaping alone: s[0..n) as the inside of a JSON string. */
void json_write_escaped(FILE *out, const char *s, size_t n);

#endif
