/* verdicts: the MCC "propertiesverdict" XML format (verdicts/propertiesverdict.rng).
 *
 * A verdict set is what one file holds: the model it is about and one
 * verdict per property.  mck writes a set for the results of a check, and
 * reads the MCC's GenericPropertiesVerdict.xml (or its own files) back into
 * the same structs.  Everything here is strings and indices in the file's
 * terms; only vs_add_result knows result_t and net_t.
 *
 * Ownership: the set owns every string and verdict; setters copy their
 * arguments.  Setters return 0, or -1 on out of memory (they print nothing:
 * the caller knows which file to blame). */
#ifndef MCK_VERDICTS_H
#define MCK_VERDICTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/netconv.h"
#include "base/result.h"

/* What the manual's writer puts in the root's version attribute.  Files of
 * any version are read. */
#define VD_FORMAT_VERSION "1.0"

typedef enum {
    VD_TRUE, VD_FALSE, VD_UNKNOWN,
    VD_INTEGER,   /* e.g. UpperBounds, StateSpace counts */
    VD_TEXT,      /* any other value another tool wrote; kept verbatim */
} vd_value_kind;

#define VD_NO_LOOP SIZE_MAX

typedef struct vd_attr {
    char *key, *value;
} vd_attr;

/* One fired transition of the evidence run. */
typedef struct vd_step {
    char *transition;   /* net transition id; "#N" (0-based index) if it has none */
    char *name;         /* NULL when absent */
    vd_attr *extra;     /* what a language adds (automaton, states, ...) */
    size_t nextra;
} vd_step;

typedef struct verdict {
    char *category;     /* "GENERIC", an MCC examination, or free text */
    char *reference;    /* property name or formula id */
    vd_value_kind kind;
    int64_t integer;    /* VD_INTEGER */
    char *text;         /* VD_TEXT */

    char **instances;   /* modelinstance references */
    size_t ninstances;
    char *explanation;  /* NULL when absent */

    /* statedby: present iff tool != NULL; date and url may be NULL */
    char *tool, *tool_version, *date, *url;
    char **techniques;
    size_t ntechniques;

    /* trace: present iff has_trace (it may have no steps) */
    int has_trace;
    run_role role;      /* RUN_NONE: no role given */
    vd_step *steps;
    size_t nsteps, cap_steps;
    /* Index of the first step of the loop; nsteps when the final marking
     * repeats (deadlock); VD_NO_LOOP for a finite run. */
    size_t loop_start;

    long line;          /* source line when read, else 0 */
} verdict_t;

typedef struct verdictset {
    char *version;      /* root version: VD_FORMAT_VERSION when built */
    char *modelname;    /* modelreference@modelname */
    verdict_t **verdicts;   /* pointers: a verdict never moves once added */
    size_t nverdicts, cap;
} verdictset_t;

/* ---- building ---- */
verdictset_t *vs_create(const char *modelname);
void vs_free(verdictset_t *vs);

/* A new verdict with value unknown; NULL on out of memory. */
verdict_t *vs_add(verdictset_t *vs, const char *category, const char *reference);
/* Removes (and frees) a verdict of the set, e.g. one that failed half-way. */
void vs_remove(verdictset_t *vs, verdict_t *v);
/* First verdict with this category and reference, or NULL. */
verdict_t *vs_find(const verdictset_t *vs, const char *category, const char *reference);

/* kind is VD_TRUE, VD_FALSE or VD_UNKNOWN. */
void vd_set_answer(verdict_t *v, vd_value_kind kind);
void vd_set_integer(verdict_t *v, int64_t value);
/* Reads a value as written in a file: true/false/unknown, a decimal
 * integer, or else kept as VD_TEXT. */
int vd_set_value_text(verdict_t *v, const char *value);
/* The value as it is written: "true", "42", ...  buf is used for integers. */
const char *vd_value_string(const verdict_t *v, char buf[24]);

int vd_add_instance(verdict_t *v, const char *reference);
int vd_set_explanation(verdict_t *v, const char *text);
/* date and url may be NULL (absent). */
int vd_set_statedby(verdict_t *v, const char *tool, const char *version,
                    const char *date, const char *url);
/* statedby mck, this version, now. */
int vd_set_statedby_mck(verdict_t *v);
int vd_add_technique(verdict_t *v, const char *technique);
/* Adds each word of a space-separated list (result_t's techniques). */
int vd_add_techniques(verdict_t *v, const char *words);

/* Starts an (empty) trace; steps are appended after. */
void vd_start_trace(verdict_t *v, run_role role);
/* Appends a step (starting the trace if needed).  extra holds nextra
 * key/value pairs flattened: extra[2i] is a key, extra[2i+1] its value. */
int vd_add_step(verdict_t *v, const char *transition, const char *name,
                const char *const *extra, size_t nextra);
/* The loop starts at step index (<= nsteps when written); VD_NO_LOOP
 * removes it. */
void vd_set_loop_start(verdict_t *v, size_t index);

/* Current time as ISO-8601 UTC, "2024-05-01T12:00:00Z". */
void vd_now(char buf[32]);

/* The verdict of a check: answer -> value, reason (when unknown) ->
 * explanation, techniques, statedby mck now, and the run as transition ids
 * and names with its loop.  category is the MCC examination when known
 * (e.g. "LTLFireability"), else the property kind; reference the formula id
 * or file.  NULL after nc_error on out of memory or a run index the net
 * does not have. */
verdict_t *vs_add_result(verdictset_t *vs, const char *category, const char *reference,
                         const net_t *net, const result_t *res);

/* ---- writing (verdicts/write.c) ----
 * UTF-8 XML valid against propertiesverdict.rng.  Bytes that are not valid
 * UTF-8 or not allowed in XML 1.0 are written as '?'.  0, or -1 after
 * nc_error (name is the file name used in the message). */
int vs_write(const verdictset_t *vs, FILE *out, const char *name);
int vs_write_file(const verdictset_t *vs, const char *path);

/* ---- reading (verdicts/read.c) ----
 * Any propertiesverdict file (any version); unknown elements and attributes
 * are ignored, DTDs with entity declarations refused.  NULL after exactly
 * one nc_error "FILE:LINE: message". */
verdictset_t *vs_read(const char *path);

#endif
