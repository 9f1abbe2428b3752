/* The JSON writer (json.h). */
#include "base/json.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

void json_init(json_writer *j, FILE *out)
{
    memset(j, 0, sizeof *j);
    j->out = out;
}

/* Before any value: the comma after the previous member of an array (an
 * object's comma comes before its key). */
static void before_value(json_writer *j)
{
    if (j->after_key) {
        j->after_key = 0;
        return;
    }
    if (j->depth > 0) {
        if (j->has_member[j->depth])
            fputc(',', j->out);
        j->has_member[j->depth] = 1;
    }
}

/* After a value: a finished top-level value is one line of its own. */
static void after_value(json_writer *j)
{
    if (j->depth == 0) {
        fputc('\n', j->out);
        fflush(j->out);
    }
}

static void begin(json_writer *j, int bracket)
{
    if (j->depth == JSON_MAX_DEPTH) {
        j->skipped++;
        return;
    }
    before_value(j);
    fputc(bracket, j->out);
    j->depth++;
    j->has_member[j->depth] = 0;
}

static void end(json_writer *j, int bracket)
{
    if (j->skipped) {
        j->skipped--;
        return;
    }
    if (j->depth == 0)
        return;
    j->after_key = 0;
    fputc(bracket, j->out);
    j->depth--;
    after_value(j);
}

void json_object_begin(json_writer *j) { begin(j, '{'); }
void json_object_end(json_writer *j) { end(j, '}'); }
void json_array_begin(json_writer *j) { begin(j, '['); }
void json_array_end(json_writer *j) { end(j, ']'); }

void json_key(json_writer *j, const char *key)
{
    if (j->skipped)
        return;
    if (j->depth > 0 && j->has_member[j->depth])
        fputc(',', j->out);
    if (j->depth > 0)
        j->has_member[j->depth] = 1;
    fputc('"', j->out);
    json_write_escaped(j->out, key, strlen(key));
    fputs("\":", j->out);
    j->after_key = 1;
}

/* The UTF-8 sequence at s (at most n bytes): its length, with *valid set
 * when it is well formed (Unicode's table 3-7: shortest form, no
 * surrogates, at most U+10FFFF).  An ill-formed one is its maximal
 * subpart, the longest start of some well-formed sequence, at least one
 * byte: Unicode's recommended practice, and what Python and browsers
 * replace with one U+FFFD each. */
static size_t utf8_sequence(const unsigned char *s, size_t n, int *valid)
{
    unsigned char c = s[0];
    size_t len;
    unsigned char lo = 0x80, hi = 0xbf;   /* the range of the second byte */
    if (c >= 0xc2 && c <= 0xdf)
        len = 2;
    else if (c >= 0xe0 && c <= 0xef)
        len = 3, lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
    else if (c >= 0xf0 && c <= 0xf4)
        len = 4, lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
    else {
        *valid = 0;
        return 1;
    }
    size_t i = 1;
    for (; i < len && i < n; i++) {
        unsigned char b = s[i];
        if (i == 1 ? (b < lo || b > hi) : (b & 0xc0) != 0x80)
            break;
    }
    *valid = i == len;
    return i;
}

void json_write_escaped(FILE *out, const char *text, size_t n)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t i = 0;
    while (i < n) {
        unsigned char c = s[i];
        if (c >= 0x80) {
            int valid;
            size_t len = utf8_sequence(s + i, n - i, &valid);
            if (valid)
                fwrite(s + i, 1, len, out);
            else
                fputs("\\ufffd", out);
            i += len;
            continue;
        }
        switch (c) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        case '\t': fputs("\\t", out); break;
        case '\b': fputs("\\b", out); break;
        case '\f': fputs("\\f", out); break;
        default:
            if (c < 0x20 || c == 0x7f)
                fprintf(out, "\\u%04x", c);
            else
                fputc(c, out);
        }
        i++;
    }
}

void json_string_n(json_writer *j, const char *s, size_t n)
{
    if (j->skipped)
        return;
    before_value(j);
    fputc('"', j->out);
    json_write_escaped(j->out, s, n);
    fputc('"', j->out);
    after_value(j);
}

void json_string(json_writer *j, const char *s)
{
    if (!s)
        json_null(j);
    else
        json_string_n(j, s, strlen(s));
}

/* A bare token: a number, true, false or null. */
static void token(json_writer *j, const char *text)
{
    if (j->skipped)
        return;
    before_value(j);
    fputs(text, j->out);
    after_value(j);
}

void json_uint(json_writer *j, uint64_t v)
{
    char buf[24];
    snprintf(buf, sizeof buf, "%" PRIu64, v);
    token(j, buf);
}

void json_int(json_writer *j, int64_t v)
{
    char buf[24];
    snprintf(buf, sizeof buf, "%" PRId64, v);
    token(j, buf);
}

void json_number_text(json_writer *j, const char *digits)
{
    /* only what RFC 8259 calls an int: anything else would break the line */
    size_t n = strspn(digits, "0123456789");
    if (n == 0 || digits[n] || (digits[0] == '0' && n > 1))
        json_null(j);
    else
        token(j, digits);
}

void json_double(json_writer *j, double v)
{
    if (!isfinite(v)) {
        json_null(j);
        return;
    }
    char buf[40];
    /* %g may write "1e+20", which is JSON; it never writes a bare "." */
    snprintf(buf, sizeof buf, "%.6g", v);
    /* a locale with a decimal comma would break the number */
    for (char *p = buf; *p; p++)
        if (*p == ',')
            *p = '.';
    token(j, buf);
}

void json_bool(json_writer *j, int v) { token(j, v ? "true" : "false"); }
void json_null(json_writer *j) { token(j, "null"); }

void json_member_string(json_writer *j, const char *key, const char *s)
{
    json_key(j, key);
    json_string(j, s);
}

void json_member_uint(json_writer *j, const char *key, uint64_t v)
{
    json_key(j, key);
    json_uint(j, v);
}

void json_member_double(json_writer *j, const char *key, double v)
{
    json_key(j, key);
    json_double(j, v);
}

void json_member_bool(json_writer *j, const char *key, int v)
{
    json_key(j, key);
    json_bool(j, v);
}
