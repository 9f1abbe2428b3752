#include "base/readfile.h"
#include "base/grow.h"
#include "base/netconv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *read_file(const char *path, size_t max_bytes, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        nc_error(path, 0, "cannot open: %s", strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    const char *why = buf ? NULL : "out of memory";
    char toolarge[64];
    while (!why) {
        n += fread(buf + n, 1, cap - n - 1, f);   /* room for the NUL */
        if (ferror(f)) {
            why = strerror(errno);
        } else if (n < cap - 1) {
            break;
        } else if (cap - 1 >= max_bytes) {
            snprintf(toolarge, sizeof toolarge, "larger than %zu MiB", max_bytes >> 20);
            why = toolarge;
        } else if (GROW(buf, cap, cap + 1) < 0) {
            why = "out of memory";
        }
    }
    fclose(f);
    if (why) {
        nc_error(path, 0, "cannot read: %s", why);
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

char *path_stem(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    return strndup(base, dot && dot != base ? (size_t)(dot - base) : strlen(base));
}
