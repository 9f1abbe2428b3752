/* The prefix as a .mci file (prefix.h), the format PEP's tools and Mole
 * write and mcsmodels and the Kit's prefix checkers read
 * (docs/unfolding.md): 4-byte little-endian integers, events numbered
 * from 1 in an order that extends causality, places and transitions
 * numbered from 1 in the net's order:
 *
 *   conditions, events
 *   per event: its transition
 *   per condition: its place, its producer (0: initial), its consumers, 0
 *   per cut-off: the event, its companion (0: the initial marking); then 0, 0
 *   places, transitions, the length of the longest name
 *   each place's name and a NUL, one NUL more; the same for transitions */
#include "engine/unfold/prefix.h"

#include <stdio.h>
#include <string.h>

static int put(FILE *out, uint32_t v)
{
    unsigned char b[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                          (unsigned char)(v >> 24)};
    return fwrite(b, 1, 4, out) == 4 ? 0 : -1;
}

/* A node's name as the file shows it: its name, its id, or p1 / t1. */
static const char *label(const char *name, const char *id, char prefix, size_t i, char *buf,
                         size_t len)
{
    if (name && *name)
        return name;
    if (id && *id)
        return id;
    snprintf(buf, len, "%c%zu", prefix, i + 1);
    return buf;
}

int unf_write_mci(FILE *out, const unf_prefix *u)
{
    const net_t *net = u->cn->net;
    int rc = put(out, (uint32_t)u->nco) | put(out, (uint32_t)u->nev);
    for (size_t e = 0; e < u->nev; e++)
        rc |= put(out, u->ev[e].trans + 1);
    for (size_t c = 0; c < u->nco; c++) {
        rc |= put(out, u->co[c].place + 1);
        rc |= put(out, u->co[c].pre == UNF_NONE ? 0 : u->co[c].pre + 1);
        for (uint32_t k = u->cons_start[c]; k < u->cons_start[c + 1]; k++)
            rc |= put(out, u->cons[k] + 1);
        rc |= put(out, 0);
    }
    for (size_t e = 0; e < u->nev; e++)
        if (u->ev[e].cutoff)
            rc |= put(out, (uint32_t)e + 1) |
                  put(out, u->ev[e].companion == UNF_NONE ? 0 : u->ev[e].companion + 1);
    rc |= put(out, 0) | put(out, 0);
    rc |= put(out, (uint32_t)net->nplaces) | put(out, (uint32_t)net->ntransitions);
    char buf[32];
    size_t longest = 0;
    for (size_t p = 0; p < net->nplaces; p++) {
        size_t n = strlen(label(net->places[p].name, net->places[p].id, 'p', p, buf, sizeof buf));
        longest = n > longest ? n : longest;
    }
    for (size_t t = 0; t < net->ntransitions; t++) {
        size_t n = strlen(label(net->transitions[t].name, net->transitions[t].id, 't', t, buf,
                                sizeof buf));
        longest = n > longest ? n : longest;
    }
    rc |= put(out, longest > UINT32_MAX ? UINT32_MAX : (uint32_t)longest);
    for (size_t p = 0; p < net->nplaces; p++) {
        const char *s = label(net->places[p].name, net->places[p].id, 'p', p, buf, sizeof buf);
        rc |= fwrite(s, 1, strlen(s) + 1, out) == strlen(s) + 1 ? 0 : -1;
    }
    rc |= fputc('\0', out) == EOF ? -1 : 0;
    for (size_t t = 0; t < net->ntransitions; t++) {
        const char *s = label(net->transitions[t].name, net->transitions[t].id, 't', t, buf,
                              sizeof buf);
        rc |= fwrite(s, 1, strlen(s) + 1, out) == strlen(s) + 1 ? 0 : -1;
    }
    rc |= fputc('\0', out) == EOF ? -1 : 0;
    return rc ? -1 : 0;
}
