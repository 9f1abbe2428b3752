/* The CFA row of mck's language table: read, translate, and connect the
 * net to the model it came from (for propositions, runs and traces). */
#include "cfa.h"
#include "input/input.h"

size_t cfa_step_attrs(const net_t *net, const nc_count *before, const nc_count *after,
                      uint32_t t, char *buf, size_t buflen, const char **kv, size_t max);

net_t *cfa_read(const char *path)
{
    cfa_model *m = cfa_parse_file(path);
    net_t *net = m ? cfa_build_net(m) : NULL;
    if (net)
        net->lang_step_attrs = cfa_step_attrs;
    return net;
}
