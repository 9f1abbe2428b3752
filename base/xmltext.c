/* libxml2 stops at 256 levels of elements unless told XML_PARSE_HUGE,
 * which mck never sets (it would also lift the limits on text sizes that
 * keep hostile files bounded); its message names that option. */
#include "base/xmltext.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *xml_error_text(const char *msg, char *buf, unsigned long len)
{
    static const char depth[] = "Excessive depth in document: ";
    if (!msg || strncmp(msg, depth, sizeof depth - 1) != 0 || len == 0)
        return msg;
    long limit = strtol(msg + sizeof depth - 1, NULL, 10);
    snprintf(buf, len, "elements nested more than %ld deep (the XML reader's limit)", limit);
    return buf;
}
