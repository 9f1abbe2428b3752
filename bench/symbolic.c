/* Benchmark (not a test): the symbolic engine's ways to the reachable set
 * on PNML nets, each in its own manager: chaining as the checker does it
 * (the layout chosen from the widths, closures where the bits are
 * interleaved), breadth-first images, chaining in FORCE's order, without
 * closures, with closures from the start, and with each place's bits
 * together and interleaved whatever the widths; prints one line per net
 * and way: seconds (the reachable set alone, without the layout's linear
 * programs), the number of markings and the diagram's nodes.  Built and
 * run by bench/symbolic.sh. */
#include "base/clock.h"
#include "checkers/symbolic.h"
#include "engine/onehot.h"
#include "engine/placebits.h"
#include "input/input.h"

#include <stdio.h>
#include <stdlib.h>

/* A way's closures as the engine chooses them from the layout. */
#define CLOSURES_AS_CHOSEN (UINT32_MAX - 1)

int main(int argc, char **argv)
{
    double seconds = argc > 2 ? atof(argv[1]) : 60;
    for (int i = 2; i < argc; i++) {
        net_t *net = pnml_read(argv[i]);
        const cnet_t *cn = net ? nc_compile(net) : NULL;
        if (!cn) {
            fprintf(stderr, "%s: not read\n", argv[i]);
            continue;
        }
        budget_t run;
        budget_init(&run, NULL);
        budget_set_limits(&run, seconds, 0, NULL);
        uint8_t *bits = placebits(cn, &run);
        uint32_t ng = 0;
        uint32_t *group = bits ? onehot_groups(cn, bits, seconds, &ng) : NULL;
        static const struct {
            const char *name;
            sym_strategy how;
            sym_order order;
            sym_bits layout;
            uint32_t closure_after;
        } ways[] = {
            {"chaining", SYM_CHAINING, SYM_ORDER_NET, SYM_BITS_AUTO, CLOSURES_AS_CHOSEN},
            {"bfs", SYM_BFS, SYM_ORDER_NET, SYM_BITS_AUTO, CLOSURES_AS_CHOSEN},
            {"chaining-force", SYM_CHAINING, SYM_ORDER_FORCE, SYM_BITS_AUTO, CLOSURES_AS_CHOSEN},
            {"chaining-no-closures", SYM_CHAINING, SYM_ORDER_NET, SYM_BITS_AUTO, UINT32_MAX},
            {"chaining-closures-at-once", SYM_CHAINING, SYM_ORDER_NET, SYM_BITS_AUTO, 0},
            {"chaining-blocks", SYM_CHAINING, SYM_ORDER_NET, SYM_BITS_BLOCKS, CLOSURES_AS_CHOSEN},
            {"chaining-interleaved", SYM_CHAINING, SYM_ORDER_NET, SYM_BITS_INTERLEAVED,
             CLOSURES_AS_CHOSEN},
        };
        for (size_t way = 0; bits && way < sizeof ways / sizeof ways[0]; way++) {
            budget_t b = budget_restart(&run);
            char why[160];
            sym_t *s = sym_new(cn, bits, group, ng, ways[way].order, ways[way].layout, &b, why,
                               sizeof why);
            if (!s) {
                printf("%s %s - %s\n", argv[i], ways[way].name, why);
                continue;
            }
            if (ways[way].closure_after != CLOSURES_AS_CHOSEN)
                sym_set_closure_after(s, ways[way].closure_after);
            double t0 = mono_now();
            sym_status st = sym_explore(s, ways[way].how);
            double t = mono_now() - t0;
            char *n = st == SYM_DONE ? sym_count_states(s) : NULL;
            printf("%s %s %.3f %s %zu (%s, %u closures)\n", argv[i], ways[way].name, t,
                   n ? n : sym_reason(s), sym_nodes(s),
                   sym_interleaved(s) ? "interleaved" : "side by side", sym_closures(s));
            free(n);
            sym_free(s);
        }
        if (!bits)
            printf("%s - no bounds\n", argv[i]);
        free(bits);
        free(group);
        nc_free_net(net);
    }
    return 0;
}
