/* The complete finite prefix of the unfolding of a safe net (Esparza,
 * Römer, Vogler 2002): events and conditions in arrays that grow (no
 * allocation per event), built in the ERV total adequate order, with
 * cut-off events that end their branch.  docs/unfolding.md says how the
 * possible extensions are found (the concurrency relation as a bit matrix
 * over the conditions that can still be extended) and how the order is
 * compared.
 *
 * Only for safe nets: the caller proves every place 1-bounded first
 * (unf_proven_safe).  Read arcs count as a consumption and a production
 * of the same place, which keeps the reachable markings and runs. */
#ifndef MCK_UNFOLD_PREFIX_H
#define MCK_UNFOLD_PREFIX_H

#include <stddef.h>
#include <stdint.h>

#include "base/netconv.h"
#include "base/result.h"

#define UNF_NONE UINT32_MAX

typedef struct unf_event {
    uint32_t trans;
    uint32_t pre_start, npre;     /* its preset: unf_prefix.pre[pre_start ..] */
    uint32_t post_start, npost;   /* its postset: conditions post_start .. + npost */
    uint32_t depth;               /* its level in the Foata normal form of [e] */
    uint32_t size;                /* |[e]| */
    /* a cut-off's companion: the event with the same marking whose local
     * configuration comes first, UNF_NONE for the empty configuration;
     * meaningless when cutoff is 0 */
    uint32_t companion;
    uint8_t cutoff;
} unf_event;

typedef struct unf_cond {
    uint32_t place;
    uint32_t pre;                 /* the event that made it, UNF_NONE when initial */
} unf_cond;

typedef struct unf_prefix {
    const cnet_t *cn;
    unf_event *ev;
    size_t nev, cap_ev;
    unf_cond *co;
    size_t nco, cap_co;
    uint32_t *pre;                /* the events' presets, one after another */
    size_t npre, cap_pre;
    size_t ncutoffs;
    /* the events that consume each condition (built at the end): those of
     * condition c are cons[cons_start[c] .. cons_start[c + 1]) */
    uint32_t *cons_start, *cons;
    size_t bytes;                 /* what the prefix and its construction hold */
    double seconds;
    /* 1: the complete prefix; 0: the part built before a limit or a look
     * ended the construction (unf_build_watched), a prefix of the
     * unfolding all the same: each of its configurations is one of the
     * unfolding's, its marking reachable */
    int complete;
} unf_prefix;

/* Whether every place of cn is proven 1-bounded (engine/placebits.h)
 * within budget; 0 with the reason in why. */
int unf_proven_safe(const cnet_t *cn, const budget_t *budget, char *why, size_t whylen);

/* Builds the prefix of cn, a net proven safe, within opt's budget and at
 * most opt->max_states events (0: no limit), printing progress when opt
 * asks.  NULL with the reason in why (a limit, or no memory). */
unf_prefix *unf_build(const cnet_t *cn, const check_options *opt, char *why, size_t whylen);
void unf_free(unf_prefix *u);

/* A look at the prefix while it grows.  look(ctx, partial, seconds) gets
 * the prefix built so far (complete 0, its consumers not made:
 * unf_consumers) when it has first, 2 first, 4 first, ... events, with the
 * seconds it may take: what keeps all looks together within
 * UNF_LOOK_SHARE of the construction's own time so far (a look under
 * UNF_LOOK_LEAST_SECONDS is skipped).  It returns 1 when it has seen what
 * it looked for: the construction then stops. */
#define UNF_LOOK_SHARE 0.5
#define UNF_LOOK_LEAST_SECONDS 0.05
#define UNF_LOOK_FIRST_EVENTS 1024
typedef struct unf_watch {
    int (*look)(void *ctx, unf_prefix *partial, double seconds);
    void *ctx;
    size_t first;
    int always;        /* look at each doubling, whatever the time (seconds 0) */
} unf_watch;

/* unf_build, with watch's looks (NULL: none), and keeping what was built
 * when the construction stops before the prefix is complete: a limit (the
 * reason in why) or a look that answered (why says so).  That prefix comes
 * back with complete 0 and its consumers made; NULL only for no memory
 * left to finish it. */
unf_prefix *unf_build_watched(const cnet_t *cn, const check_options *opt,
                              const unf_watch *watch, char *why, size_t whylen);
/* Makes u's consumers (cons_start, cons) for the events it has now, unless
 * made; 0 or -1 (no memory).  A look calls it on the partial prefix in
 * its own process: made in the builder's, they would go stale. */
int unf_consumers(unf_prefix *u);

/* The first k events of a prefix whose own count is whole.nev form a
 * prefix of the unfolding too: causes come first, and each event's
 * conditions and preset were stored with it, after those of the events
 * before.  unf_cut makes u that segment (k at most whole.nev; whole from
 * unf_extent_of before the first cut), its consumers remade; u may be
 * cut again to any k, larger too.  Only on a look's own copy (the
 * builder's arrays are shared with nothing else there).  0, or -1 for no
 * memory (u is left without consumers). */
typedef struct unf_extent {
    size_t nev, nco, npre;
} unf_extent;
unf_extent unf_extent_of(const unf_prefix *u);
int unf_cut(unf_prefix *u, const unf_extent *whole, size_t k);
/* The bytes u's arrays hold (the construction's are freed by then). */
size_t unf_bytes_held(const unf_prefix *u);

/* The events of a configuration (sorted by index, which is a linearisation:
 * an event's causes come before it) as a run of n transitions, in a block
 * the caller frees; NULL when memory is out. */
uint32_t *unf_linearise(const unf_prefix *u, const uint32_t *events, size_t n);

/* The prefix in the .mci format of PEP and Mole (docs/unfolding.md); 0 or
 * -1 on a write error. */
int unf_write_mci(FILE *out, const unf_prefix *u);

#endif
