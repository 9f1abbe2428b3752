/* libFuzzer target for the PNML reader (pnml_read, input/pnml.c): P/T nets
 * in PNML, with NUPN units, through libxml2; a net it reads is then
 * reduced (reduce/reduce.h), for a deadlock and for a question observing
 * its first place and transition, so that hostile weights and shapes reach
 * the reduction rules too.
 *
 * Each input is read from the scratch file (fuzz_file.h), as `mck info`
 * would read a file; a net it returns is freed again, so LeakSanitizer
 * sees every allocation of the reader, on success and on each error path.
 * Build and run: tests/fuzz/README.md. */
#include "fuzz_file.h"

#include "base/netconv.h"
#include "input/input.h"
#include "reduce/reduce.h"

#include <stdlib.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    nc_set_verbosity(0);   /* no warnings; errors still go to stderr */
    fuzz_open_scratch("fuzz_pnml");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    net_t *net = pnml_read(fuzz_store(data, size));
    if (!net)
        return 0;
    const cnet_t *cn = nc_compile(net);
    for (int question = 0; cn && question < 2; question++) {
        reduce_observed obs;
        if (reduce_observe(cn, NULL, &obs) < 0)
            break;
        if (question && cn->nplaces && cn->ntransitions) {
            obs.place[0] = obs.transition[0] = 1;
            obs.lassos = 1;
        }
        budget_t reducing;
        budget_init(&reducing, NULL);
        budget_set_limits(&reducing, 0.05, 0, NULL);
        reduction *r = reduce_build(cn, &obs, &reducing);
        if (r && reduce_net(r)) {
            uint32_t run[1] = {0}, *out = NULL;
            size_t len, loop = 0;
            if (reduce_net(r)->ntransitions &&
                reduce_map_run(r, run, 1, &out, &len, &loop) == 0)
                free(out);
        }
        reduce_free(r);
        reduce_observed_free(&obs);
    }
    nc_free_net(net);
    return 0;
}
