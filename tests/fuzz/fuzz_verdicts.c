/* libFuzzer target for the verdict XML reader (vs_read, verdicts/read.c):
 * the MCC's GenericPropertiesVerdict.xml and mck's own verdict files.
 *
 * Each input is read from the scratch file (fuzz_file.h); a set the reader
 * returns is freed again, so LeakSanitizer sees every allocation of the
 * reader, on success and on each error path.  The reader needs no net.
 * Build and run: tests/fuzz/README.md. */
#include "fuzz_file.h"

#include "base/netconv.h"
#include "verdicts/verdicts.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    nc_set_verbosity(0);   /* no warnings; errors still go to stderr */
    fuzz_open_scratch("fuzz_verdicts");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    verdictset_t *vs = vs_read(fuzz_store(data, size));
    if (vs)
        vs_free(vs);
    return 0;
}
