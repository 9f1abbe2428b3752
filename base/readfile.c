#include "base/readfile.h"
#include "base/budget.h"
#include "base/grow.h"
#include "base/netconv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define READ_STEP ((size_t)1 << 20)

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
        /* a MiB at a time, so that a limit stops a large file early */
        size_t room = cap - n - 1, want = room < READ_STEP ? room : READ_STEP;
        size_t got = fread(buf + n, 1, want, f);   /* room for the NUL */
        n += got;
        if (ferror(f)) {
            why = strerror(errno);
        } else if (budget_check()) {
            why = "stopped";   /* not printed: nc_error is silent then */
        } else if (got < want) {
            break;
        } else if (n < cap - 1) {
            continue;
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
