/* libFuzzer target for the CFA reader (docs/cfa-format.md).
 *
 * Each input is written to an in-memory file (memfd, or an unlinked
 * temporary file where memfd_create is missing) and read with cfa_read()
 * through its /proc/self/fd path, exactly as `mck info FILE.cfa` would read
 * it.  cfa_read returns NULL after reporting one error; a net it returns is
 * freed again, so LeakSanitizer sees every allocation of the reader.
 * Build and run: tests/fuzz/README.md. */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/netconv.h"
#include "input/input.h"

static int fd = -1;
static char path[64];

static int open_scratch(void)
{
#ifdef MFD_CLOEXEC
    fd = memfd_create("fuzz_cfa", MFD_CLOEXEC);
#endif
    if (fd < 0) {
        char tmpl[] = "/tmp/fuzz_cfa.XXXXXX";
        fd = mkstemp(tmpl);
        if (fd < 0)
            return -1;
        unlink(tmpl);
    }
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    nc_set_verbosity(0);   /* no warnings; errors still go to stderr */
    if (open_scratch() < 0) {
        perror("fuzz_cfa: scratch file");
        abort();
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t done = 0;
    if (ftruncate(fd, 0) != 0)
        abort();
    while (done < size) {
        ssize_t n = pwrite(fd, data + done, size - done, (off_t)done);
        if (n <= 0)
            abort();
        done += (size_t)n;
    }
    net_t *net = cfa_read(path);
    if (net)
        nc_free_net(net);
    return 0;
}
