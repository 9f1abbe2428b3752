/* libFuzzer target for the PEP low-level net reader (pep_read, input/pep.c).
 *
 * Each input is read from the scratch file (fuzz_file.h), as `mck info`
 * would read a file; a net it returns is freed again, so LeakSanitizer
 * sees every allocation of the reader, on success and on each error path.
 * Build and run: tests/fuzz/README.md. */
#include "fuzz_file.h"

#include "base/netconv.h"
#include "input/input.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    nc_set_verbosity(0);   /* no warnings; errors still go to stderr */
    fuzz_open_scratch("fuzz_pep");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    net_t *net = pep_read(fuzz_store(data, size));
    if (net)
        nc_free_net(net);
    return 0;
}
