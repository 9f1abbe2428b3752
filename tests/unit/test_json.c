/* The JSON writer (base/json.h): separators in nested objects and arrays,
 * one line per top-level value, and the escaping of every kind of byte:
 * quotes and backslashes, control characters, valid UTF-8 kept, every
 * kind of invalid UTF-8 replaced by \ufffd (one per maximal subpart),
 * numbers that stay numbers. */
#include "base/json.h"
#include "unit.h"

#include <stdlib.h>

/* What f writes, as a string (malloc'd). */
static char *written(void (*f)(json_writer *, const void *), const void *arg)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    json_writer j;
    json_init(&j, out);
    f(&j, arg);
    fclose(out);
    return buf;
}

static void one_string(json_writer *j, const void *arg)
{
    json_string(j, arg);
}

static int escapes_to(const char *in, const char *want)
{
    char *got = written(one_string, in);
    int same = !strcmp(got, want);
    if (!same)
        printf("# %s\n", got);
    free(got);
    return same;
}

static void nested(json_writer *j, const void *arg)
{
    (void)arg;
    json_object_begin(j);
    json_member_string(j, "a", "x");
    json_key(j, "list");
    json_array_begin(j);
    json_uint(j, 1);
    json_int(j, -2);
    json_object_begin(j);
    json_object_end(j);
    json_array_begin(j);
    json_array_end(j);
    json_null(j);
    json_bool(j, 0);
    json_array_end(j);
    json_member_bool(j, "ok", 1);
    json_key(j, "none");
    json_string(j, NULL);
    json_object_end(j);
    json_object_begin(j);
    json_member_uint(j, "second", 18446744073709551615u);
    json_object_end(j);
}

static void numbers(json_writer *j, const void *arg)
{
    (void)arg;
    json_array_begin(j);
    json_double(j, 0.25);
    json_double(j, 1.0 / 0.0);
    json_double(j, 0.0 / 0.0);
    json_number_text(j, "340282366920938463463374607431768211455");
    json_number_text(j, "12a");
    json_number_text(j, "");
    json_number_text(j, "007");
    json_array_end(j);
}

static void deep(json_writer *j, const void *arg)
{
    (void)arg;
    for (int i = 0; i < JSON_MAX_DEPTH + 5; i++)
        json_array_begin(j);
    json_uint(j, 7);
    for (int i = 0; i < JSON_MAX_DEPTH + 5; i++)
        json_array_end(j);
}

int main(void)
{
    char *s = written(nested, NULL);
    CHECK(!strcmp(s, "{\"a\":\"x\",\"list\":[1,-2,{},[],null,false],\"ok\":true,\"none\":null}\n"
                     "{\"second\":18446744073709551615}\n"),
          "nested objects and arrays: separators, one line per top-level value");
    free(s);

    s = written(numbers, NULL);
    CHECK(!strcmp(s, "[0.25,null,null,340282366920938463463374607431768211455,null,null,null]\n"),
          "numbers: not finite and malformed digits become null, long digits stay");
    free(s);

    s = written(deep, NULL);
    size_t opens = 0, closes = 0;
    for (const char *p = s; *p; p++)
        opens += *p == '[', closes += *p == ']';
    CHECK(opens == JSON_MAX_DEPTH && closes == JSON_MAX_DEPTH,
          "nesting beyond the limit is dropped, brackets stay balanced (%zu/%zu)", opens, closes);
    free(s);

    CHECK(escapes_to("plain", "\"plain\"\n"), "plain ASCII");
    CHECK(escapes_to("q\"b\\s/", "\"q\\\"b\\\\s/\"\n"), "quote and backslash escaped, slash kept");
    CHECK(escapes_to("\n\r\t\b\f", "\"\\n\\r\\t\\b\\f\"\n"), "short escapes");
    CHECK(escapes_to("\x01\x1f\x7f", "\"\\u0001\\u001f\\u007f\"\n"), "other controls and DEL as \\u");
    CHECK(escapes_to("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\x98", "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\x98\"\n"),
          "valid UTF-8 of two, three and four bytes passes through");
    CHECK(escapes_to("a\xff" "b", "\"a\\ufffdb\"\n"), "a byte that starts nothing: replaced");
    CHECK(escapes_to("\x80", "\"\\ufffd\"\n"), "a stray continuation byte: replaced");
    CHECK(escapes_to("\xc0\xaf", "\"\\ufffd\\ufffd\"\n"), "an overlong '/': both bytes replaced");
    CHECK(escapes_to("\xe0\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\"\n"), "an overlong three-byte form");
    CHECK(escapes_to("\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"\n"), "a surrogate (U+D800)");
    CHECK(escapes_to("\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"\n"), "past U+10FFFF");
    CHECK(escapes_to("x\xe2\x82", "\"x\\ufffd\"\n"), "a sequence cut short at the end: one U+FFFD");
    CHECK(escapes_to("\xe2\x82" "A", "\"\\ufffdA\"\n"), "a sequence cut short by ASCII: one U+FFFD");
    CHECK(escapes_to("\xf0\x9f\x90\xe2\x82\xac", "\"\\ufffd\xe2\x82\xac\"\n"),
          "a four-byte sequence cut short by a valid one");
    CHECK(escapes_to("\xed\x9f\xbf\xee\x80\x80\xf4\x8f\xbf\xbf",
                     "\"\xed\x9f\xbf\xee\x80\x80\xf4\x8f\xbf\xbf\"\n"),
          "the edges of the ranges: U+D7FF, U+E000, U+10FFFF pass");

    /* a string with a NUL in the middle: json_string_n writes all of it */
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    json_writer j;
    json_init(&j, out);
    json_string_n(&j, "a\0b", 3);
    fclose(out);
    CHECK(!strcmp(buf, "\"a\\u0000b\"\n"), "NUL inside a counted string: \\u0000");
    free(buf);
    UNIT_DONE();
}
