/* Small helpers of the PNML reader: an offset-addressed string arena and a
 * safe rendering of untrusted text for one-line messages. */
#include "base/grow.h"
#include "pnml-internal.h"

#include <libxml/parser.h>
#include <libxml/xmlerror.h>
#include <stdlib.h>
#include <string.h>

size_t pn_arena_add(pn_arena *a, const char *s, size_t n)
{
    /* +2: every string ends with two NULs (see pn_split) */
    if (n > SIZE_MAX / 2 - 2 || a->len > SIZE_MAX / 2 - 2 - n)
        return PN_NONE;
    size_t need = a->len + n + 2;
    if (GROW(a->s, a->cap, need) < 0)
        return PN_NONE;
    size_t off = a->len;
    if (n)
        memcpy(a->s + off, s, n);
    a->s[off + n] = a->s[off + n + 1] = '\0';
    a->len = need;
    return off;
}

void pn_arena_free(pn_arena *a)
{
    free(a->s);
    a->s = NULL;
    a->len = a->cap = 0;
}

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

void pn_split(char *s)
{
    /* The output never overtakes the input: each token is followed by at
     * most one separator, which stands where at least one space (or the
     * first of the two final NULs) was. */
    char *out = s;
    const char *in = s;
    for (;;) {
        while (is_space(*in))
            in++;
        if (!*in)
            break;
        while (*in && !is_space(*in))
            *out++ = *in++;
        if (*in)
            in++;   /* past the space the separator may overwrite */
        *out++ = '\0';
    }
    *out = '\0';
}

const char *pn_show(const char *s, char *buf, size_t size)
{
    size_t i = 0, j = 0;
    if (!size)
        return "";
    if (!s)
        s = "";
    /* bytes >= 0x80 pass (UTF-8 names); control characters would break
     * the one-line message format */
    while (s[i] && j + 4 < size) {
        unsigned char c = (unsigned char)s[i++];
        buf[j++] = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
    }
    if (s[i]) {
        memcpy(buf + j, "...", 3);
        j += 3;
    }
    buf[j] = '\0';
    return buf;
}

static void silent(void *ctx, const char *msg, ...)
{
    (void)ctx;
    (void)msg;
}

void pn_xml_quiet_begin(pn_xml_quiet *q, void *ctx, xmlStructuredErrorFunc handler)
{
    xmlInitParser();
    q->generic = xmlGenericError;
    q->generic_ctx = xmlGenericErrorContext;
    q->structured = xmlStructuredError;
    q->structured_ctx = xmlStructuredErrorContext;
    xmlSetGenericErrorFunc(NULL, silent);
    xmlSetStructuredErrorFunc(ctx, handler);
}

void pn_xml_quiet_end(const pn_xml_quiet *q)
{
    xmlSetGenericErrorFunc(q->generic_ctx, q->generic);
    xmlSetStructuredErrorFunc(q->structured_ctx, q->structured);
}
