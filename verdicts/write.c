/* Writing a verdict set as propertiesverdict XML.  Hand-written rather
 * than through xmlTextWriter: the output is small and fixed, and we must
 * control what happens to bytes XML 1.0 cannot carry (names from PEP files
 * may be Latin-1 or contain control characters). */
#include "verdicts/verdicts.h"

#include <errno.h>
#include <string.h>

/* Length of the UTF-8 sequence at s that encodes a character XML 1.0
 * allows, or 0 when the bytes there are not one. */
static size_t xml_char_length(const unsigned char *s)
{
    unsigned c = s[0], len, cp;
    if (c < 0x80)
        return c >= 0x20 || c == '\t' || c == '\n' || c == '\r';
    if (c >= 0xc2 && c <= 0xdf)
        len = 2, cp = c & 0x1f;
    else if (c >= 0xe0 && c <= 0xef)
        len = 3, cp = c & 0x0f;
    else if (c >= 0xf0 && c <= 0xf4)
        len = 4, cp = c & 0x07;
    else
        return 0;
    for (unsigned i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)   /* also stops at the terminating NUL */
            return 0;
        cp = cp << 6 | (s[i] & 0x3f);
    }
    /* overlong forms, surrogates, U+FFFE/U+FFFF, beyond U+10FFFF */
    if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
        (cp >= 0xd800 && cp <= 0xdfff) || cp == 0xfffe || cp == 0xffff || cp > 0x10ffff)
        return 0;
    return len;
}

/* Writes s escaped for element content (attr = 0) or a double-quoted
 * attribute (attr = 1).  In attributes, tab and newlines become character
 * references so that attribute normalisation gives them back unchanged. */
static void put_escaped(FILE *out, const char *text, int attr)
{
    const unsigned char *s = (const unsigned char *)text;
    while (*s) {
        size_t n = xml_char_length(s);
        if (!n) {
            fputc('?', out);
            s++;
            continue;
        }
        switch (*s) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs(attr ? "&quot;" : "\"", out); break;
        case '\r': fputs("&#13;", out); break;
        case '\t': fputs(attr ? "&#9;" : "\t", out); break;
        case '\n': fputs(attr ? "&#10;" : "\n", out); break;
        default: fwrite(s, 1, n, out);
        }
        s += n;
    }
}

static void put_attr(FILE *out, const char *key, const char *value)
{
    fprintf(out, " %s=\"", key);
    put_escaped(out, value, 1);
    fputc('"', out);
}

/* ---- what the grammar requires beyond what the setters ensure ---- */

/* A step's extra attribute name: a plain XML name without a colon (no
 * namespaces to declare) that does not shadow the step's own attributes. */
static int good_extra_key(const vd_step *s, size_t k)
{
    const char *key = s->extra[k].key;
    if (!key || !((*key >= 'A' && *key <= 'Z') || (*key >= 'a' && *key <= 'z') || *key == '_'))
        return 0;
    if (key[strspn(key, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")])
        return 0;
    if (!strcmp(key, "transition") || !strcmp(key, "name"))
        return 0;
    for (size_t j = 0; j < k; j++)   /* duplicate attributes are not well-formed */
        if (!strcmp(s->extra[j].key, key))
            return 0;
    return 1;
}

static int check_verdict(const verdict_t *v, const char *name)
{
    if (!strcmp(v->category, "GENERIC") && v->kind != VD_TRUE && v->kind != VD_FALSE &&
        v->kind != VD_UNKNOWN) {
        nc_error(name, 0, "verdict %s: a GENERIC value must be true, false or unknown",
                 v->reference);
        return -1;
    }
    if (v->loop_start != VD_NO_LOOP && v->loop_start > v->nsteps) {
        nc_error(name, 0, "verdict %s: loop starts at step %zu of %zu", v->reference,
                 v->loop_start, v->nsteps);
        return -1;
    }
    for (size_t i = 0; i < v->nsteps; i++) {
        const vd_step *s = &v->steps[i];
        if (!s->transition[0]) {
            nc_error(name, 0, "verdict %s: step %zu names no transition", v->reference, i);
            return -1;
        }
        for (size_t k = 0; k < s->nextra; k++)
            if (!good_extra_key(s, k)) {
                nc_error(name, 0, "verdict %s: step %zu: bad attribute name '%s'",
                         v->reference, i, s->extra[k].key ? s->extra[k].key : "");
                return -1;
            }
    }
    return 0;
}

/* ---- the elements ---- */

static void put_statedby(FILE *out, const verdict_t *v)
{
    fputs("    <statedby", out);
    put_attr(out, "tool", v->tool);
    put_attr(out, "version", v->tool_version);
    if (v->date)
        put_attr(out, "date", v->date);
    if (v->url)
        put_attr(out, "reference", v->url);
    if (!v->ntechniques) {
        fputs("/>\n", out);
        return;
    }
    fputs(">\n      <techniques>\n", out);
    for (size_t i = 0; i < v->ntechniques; i++) {
        fputs("        <technique>", out);
        put_escaped(out, v->techniques[i], 0);
        fputs("</technique>\n", out);
    }
    fputs("      </techniques>\n    </statedby>\n", out);
}

static void put_step(FILE *out, const vd_step *s)
{
    fputs("      <step", out);
    put_attr(out, "transition", s->transition);
    if (s->name)
        put_attr(out, "name", s->name);
    for (size_t k = 0; k < s->nextra; k++)
        put_attr(out, s->extra[k].key, s->extra[k].value);
    fputs("/>\n", out);
}

static void put_trace(FILE *out, const verdict_t *v)
{
    fputs("    <trace", out);
    if (v->role != RUN_NONE)
        put_attr(out, "role", v->role == RUN_WITNESS ? "witness" : "counterexample");
    if (!v->nsteps && v->loop_start == VD_NO_LOOP) {
        fputs("/>\n", out);
        return;
    }
    fputs(">\n", out);
    for (size_t i = 0; i <= v->nsteps; i++) {
        if (i == v->loop_start)
            fputs("      <loop/>\n", out);
        if (i < v->nsteps)
            put_step(out, &v->steps[i]);
    }
    fputs("    </trace>\n", out);
}

static void put_verdict(FILE *out, const verdict_t *v)
{
    char buf[24];
    fputs("  <verdict", out);
    put_attr(out, "category", v->category);
    put_attr(out, "reference", v->reference);
    put_attr(out, "value", vd_value_string(v, buf));
    if (!v->ninstances && !v->explanation && !v->tool && !v->has_trace) {
        fputs("/>\n", out);
        return;
    }
    fputs(">\n", out);
    for (size_t i = 0; i < v->ninstances; i++) {
        fputs("    <modelinstance", out);
        put_attr(out, "reference", v->instances[i]);
        fputs("/>\n", out);
    }
    if (v->explanation) {
        fputs("    <explanation>", out);
        put_escaped(out, v->explanation, 0);
        fputs("</explanation>\n", out);
    }
    if (v->tool)
        put_statedby(out, v);
    if (v->has_trace)
        put_trace(out, v);
    fputs("  </verdict>\n", out);
}

int vs_write(const verdictset_t *vs, FILE *out, const char *name)
{
    for (size_t i = 0; i < vs->nverdicts; i++)
        if (check_verdict(vs->verdicts[i], name))
            return -1;
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<toolspecific", out);
    put_attr(out, "tool", "propertiesverdict");
    put_attr(out, "version", VD_FORMAT_VERSION);
    fputs(">\n  <modelreference", out);
    put_attr(out, "modelname", vs->modelname);
    fputs("/>\n", out);
    for (size_t i = 0; i < vs->nverdicts; i++)
        put_verdict(out, vs->verdicts[i]);
    fputs("</toolspecific>\n", out);
    if (fflush(out) || ferror(out)) {
        nc_error(name, 0, "cannot write: %s", strerror(errno));
        return -1;
    }
    return 0;
}

int vs_write_file(const verdictset_t *vs, const char *path)
{
    FILE *out = fopen(path, "w");
    if (!out) {
        nc_error(path, 0, "cannot open for writing: %s", strerror(errno));
        return -1;
    }
    int rc = vs_write(vs, out, path);
    if (fclose(out) && rc == 0) {
        nc_error(path, 0, "cannot write: %s", strerror(errno));
        rc = -1;
    }
    return rc;
}
