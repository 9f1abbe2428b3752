/* Reading a witness as mck check prints it ("Witness:", "*** initial
 * state: ...", one transition a line, "*** final state: ...") and
 * replaying it with replay.h's firing rule, for the tests that check
 * printed runs of P/T nets.  Header-only. */
#ifndef MCK_TEST_WITNESS_H
#define MCK_TEST_WITNESS_H

#include <stdio.h>
#include <string.h>

#include "base/netconv.h"
#include "replay.h"

static inline int64_t transition_named(const net_t *net, const char *line)
{
    /* pnml prints "name (id)" where they differ: the name comes first */
    char name[512];
    snprintf(name, sizeof name, "%s", line);
    char *paren = strstr(name, " (");
    if (paren)
        *paren = '\0';
    for (size_t t = 0; t < net->ntransitions; t++)
        if (net->transitions[t].name && !strcmp(net->transitions[t].name, name))
            return (int64_t)t;
    return -1;
}

/* Replays the witness in out on net; m receives the end marking.  Returns
 * the number of steps, or -1 when a step is unknown or not enabled. */
static inline long replay(const net_t *net, const char *out, nc_count *m)
{
    replay_initial(net, m);
    const char *w = strstr(out, "Witness:\n");
    if (!w)
        return -1;
    w = strchr(w, '\n') + 1;
    if (strncmp(w, "*** initial state:", 18) != 0)
        return -1;
    w = strchr(w, '\n') + 1;
    long steps = 0;
    while (*w && strncmp(w, "***", 3) != 0) {
        char line[512];
        size_t n = strcspn(w, "\n");
        snprintf(line, sizeof line, "%.*s", (int)n, w);
        int64_t t = transition_named(net, line);
        if (t < 0 || !replay_enabled(net, m, (uint32_t)t))
            return -1;
        replay_fire(net, m, (uint32_t)t);
        steps++;
        w += n + (w[n] == '\n');
    }
    return strncmp(w, "*** final state:", 16) == 0 ? steps : -1;
}

#endif
