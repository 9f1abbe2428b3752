/* The scratch file of the file-reading fuzz targets (fuzz_*.c).
 *
 * The readers take a path, as mck does, so each input is written to an
 * in-memory file (memfd, or an unlinked temporary file where memfd_create
 * is missing) and read through its /proc/self/fd path: no input ever
 * reaches the disk outside /tmp, and one descriptor serves every run.
 * Included by exactly one translation unit per target, hence the statics. */
#ifndef MCK_FUZZ_FILE_H
#define MCK_FUZZ_FILE_H

#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static int fuzz_fd = -1;
static char fuzz_path[64];

/* Aborts on failure: a target without its scratch file would report every
 * input as uninteresting instead of failing loudly. */
static void fuzz_open_scratch(const char *tag)
{
#ifdef MFD_CLOEXEC
    fuzz_fd = memfd_create(tag, MFD_CLOEXEC);
#endif
    if (fuzz_fd < 0) {
        char tmpl[] = "/tmp/fuzz_mck.XXXXXX";
        fuzz_fd = mkstemp(tmpl);
        if (fuzz_fd < 0) {
            perror(tag);
            abort();
        }
        unlink(tmpl);
    }
    snprintf(fuzz_path, sizeof fuzz_path, "/proc/self/fd/%d", fuzz_fd);
}

/* Replaces the scratch file's content; returns its path. */
static const char *fuzz_store(const uint8_t *data, size_t size)
{
    size_t done = 0;
    if (ftruncate(fuzz_fd, 0) != 0)
        abort();
    while (done < size) {
        ssize_t n = pwrite(fuzz_fd, data + done, size - done, (off_t)done);
        if (n <= 0)
            abort();
        done += (size_t)n;
    }
    return fuzz_path;
}

#endif
