/* Benchmark (not a test): the symbolic engine's two ways to the reachable
 * set on PNML nets, chaining and breadth-first images, each in its own
 * manager with the same layout, and chaining in FORCE's order; prints one line per net and way: seconds
 * (the reachable set alone, without the layout's linear programs), the
 * number of markings and the diagram's nodes.  Built and run by
 * bench/symbolic.sh. */
#include "base/clock.h"
#include "checkers/symbolic.h"
#include "engine/onehot.h"
#include "engine/placebits.h"
#include "input/input.h"

#include <stdio.h>
#include <stdlib.h>

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
        static const char *ways[3] = {"chaining", "bfs", "chaining-force"};
        for (int way = 0; bits && way < 3; way++) {
            budget_t b = budget_restart(&run);
            char why[160];
            sym_t *s = sym_new(cn, bits, group, ng, way == 2 ? SYM_ORDER_FORCE : SYM_ORDER_NET, &b,
                               why, sizeof why);
            if (!s) {
                printf("%s %s - %s\n", argv[i], ways[way], why);
                continue;
            }
            double t0 = mono_now();
            sym_status st = sym_explore(s, way == 1 ? SYM_BFS : SYM_CHAINING);
            double t = mono_now() - t0;
            char *n = st == SYM_DONE ? sym_count_states(s) : NULL;
            printf("%s %s %.3f %s %zu\n", argv[i], ways[way], t,
                   n ? n : sym_reason(s), sym_nodes(s));
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
