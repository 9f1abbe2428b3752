/* Private to the PNML reader (input/pnml*.c): the string arena and the NUPN
 * units collected while streaming, resolved once the whole file is read. */
#ifndef MCK_PNML_INTERNAL_H
#define MCK_PNML_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "base/netconv.h"

#include <libxml/xmlerror.h>

/* Strings referred to by offset, because the buffer moves when it grows.
 * Each string is stored with two terminating NULs so that a list of
 * whitespace-separated ids can be split in place (pn_split). */
typedef struct pn_arena {
    char *s;
    size_t len, cap;
} pn_arena;

#define PN_NONE ((size_t)-1)

/* Appends s[0..n) and returns its offset, or PN_NONE when out of memory. */
size_t pn_arena_add(pn_arena *a, const char *s, size_t n);
void pn_arena_free(pn_arena *a);
/* Rewrites " a  b " as "a\0b\0\0": a list of NUL-terminated tokens ended by
 * an empty one.  Needs the two NULs pn_arena_add writes. */
void pn_split(char *s);

/* One <unit> of a NUPN <structure>: offsets into text. */
typedef struct pn_unit {
    size_t id, places, subunits;
    long line;
} pn_unit;

typedef struct pn_nupn {
    pn_arena text;
    pn_unit *units;
    size_t nunits, cap;
    int seen, safe;
} pn_nupn;

/* Starts a unit; returns 0, or -1 when out of memory. */
int pn_nupn_add_unit(pn_nupn *nu, const char *id, long line);
/* Records the text of the last unit's <places> or <subunits>. */
int pn_nupn_set_list(pn_nupn *nu, int subunits, const char *text, size_t n);
/* Turns the collected units into net->units (parents before children).
 * Returns 0, or -1 after nc_error. */
int pn_nupn_resolve(net_t *net, pn_nupn *nu, const char *file);
void pn_nupn_free(pn_nupn *nu);

/* A symmetric net (input/pnml-colored.c), unfolded into a P/T net
 * (input/pnml-unfold.c).  NULL after nc_error. */
net_t *pn_read_colored(const char *path);

/* libxml2 also reports some errors (I/O, memory) outside a reader's own
 * handler, through its global handlers: while a file is read they are
 * replaced (structured errors to handler, generic ones nowhere) and then
 * put back. */
typedef struct pn_xml_quiet {
    void *generic_ctx, *structured_ctx;
    xmlGenericErrorFunc generic;
    xmlStructuredErrorFunc structured;
} pn_xml_quiet;
void pn_xml_quiet_begin(pn_xml_quiet *q, void *ctx, xmlStructuredErrorFunc handler);
void pn_xml_quiet_end(const pn_xml_quiet *q);

/* A short, single-line rendering of untrusted text for a message. */
const char *pn_show(const char *s, char *buf, size_t size);

#endif
