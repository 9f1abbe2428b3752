/* The reduction rules (reduce/reduce.h says why each keeps the answers).
 * Each pass works from a column index (which transitions touch a place)
 * made at its start; a rule that rewrites transitions marks the places it
 * touched as dirty and leaves them to the next pass, so that no decision
 * rests on a stale column. */
#include "lp/lpguard.h"
#include "work.h"

#include <stdlib.h>
#include <string.h>

rw_entry *rw_find(rw_trans *t, uint32_t p)
{
    uint32_t lo = 0, hi = t->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (t->e[mid].place < p)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < t->n && t->e[lo].place == p ? &t->e[lo] : NULL;
}

void rw_drop(rw_trans *t, uint32_t p)
{
    rw_entry *e = rw_find(t, p);
    if (!e)
        return;
    size_t i = (size_t)(e - t->e);
    memmove(e, e + 1, (t->n - i - 1) * sizeof *e);
    t->n--;
}

/* ---- the column index: the alive transitions with an entry on each place,
 * in increasing order ---- */

int columns_build(const rw_net *w, columns *c)
{
    c->start = calloc((size_t)w->np + 1, sizeof *c->start);
    size_t total = 0;
    for (uint32_t t = 0; t < w->nt; t++)
        if (w->t[t].alive)
            total += w->t[t].n;
    c->t = malloc((total ? total : 1) * sizeof *c->t);
    if (!c->start || !c->t) {
        free(c->start);
        free(c->t);
        return -1;
    }
    for (uint32_t t = 0; t < w->nt; t++)
        if (w->t[t].alive)
            for (uint32_t i = 0; i < w->t[t].n; i++)
                c->start[w->t[t].e[i].place + 1]++;
    for (uint32_t p = 0; p < w->np; p++)
        c->start[p + 1] += c->start[p];
    uint32_t *fill = malloc(((size_t)w->np + 1) * sizeof *fill);
    if (!fill) {
        free(c->start);
        free(c->t);
        return -1;
    }
    memcpy(fill, c->start, ((size_t)w->np + 1) * sizeof *fill);
    for (uint32_t t = 0; t < w->nt; t++)
        if (w->t[t].alive)
            for (uint32_t i = 0; i < w->t[t].n; i++)
                c->t[fill[w->t[t].e[i].place]++] = t;
    free(fill);
    return 0;
}

void columns_free(columns *c)
{
    free(c->start);
    free(c->t);
}

/* ---- dead transitions ---- */

long rw_dead_transitions(rw_net *w)
{
    uint8_t *grows = calloc((size_t)w->np + 1, 1);
    if (!grows)
        return -1;
    for (uint32_t t = 0; t < w->nt; t++)
        if (w->t[t].alive)
            for (uint32_t i = 0; i < w->t[t].n; i++)
                if (w->t[t].e[i].eff > 0)
                    grows[w->t[t].e[i].place] = 1;
    long removed = 0;
    for (uint32_t t = 0; t < w->nt; t++) {
        rw_trans *tr = &w->t[t];
        if (!tr->alive || tr->observed)
            continue;
        for (uint32_t i = 0; i < tr->n; i++) {
            const rw_entry *e = &tr->e[i];
            if (!grows[e->place] && e->need > w->p[e->place].initial) {
                tr->alive = 0;
                removed++;
                break;
            }
        }
    }
    free(grows);
    w->stats.dead_transitions += (size_t)removed;
    return removed;
}

/* ---- constant places ---- */

long rw_constant_places(rw_net *w)
{
    columns c;
    if (columns_build(w, &c) < 0)
        return -1;
    long removed = 0;
    for (uint32_t p = 0; p < w->np; p++) {
        if (!w->p[p].alive || w->p[p].visible)
            continue;
        int changes = 0;
        for (uint32_t i = c.start[p]; i < c.start[p + 1] && !changes; i++)
            changes = rw_find(&w->t[c.t[i]], p)->eff != 0;
        if (changes)
            continue;
        for (uint32_t i = c.start[p]; i < c.start[p + 1]; i++) {
            rw_trans *tr = &w->t[c.t[i]];
            if (!tr->alive)
                continue;
            /* not visible, so no observed transition needs the place */
            if (rw_find(tr, p)->need > w->p[p].initial) {
                tr->alive = 0;
                w->stats.dead_transitions++;
            } else {
                rw_drop(tr, p);
            }
        }
        w->p[p].alive = 0;
        removed++;
    }
    columns_free(&c);
    w->stats.constant_places += (size_t)removed;
    return removed;
}

/* ---- sink places ---- */

long rw_sink_places(rw_net *w)
{
    if (w->lassos)
        return 0;
    uint8_t *needed = calloc((size_t)w->np + 1, 1);
    if (!needed)
        return -1;
    for (uint32_t t = 0; t < w->nt; t++)
        if (w->t[t].alive)
            for (uint32_t i = 0; i < w->t[t].n; i++)
                if (w->t[t].e[i].need)
                    needed[w->t[t].e[i].place] = 1;
    long removed = 0;
    for (uint32_t p = 0; p < w->np; p++)
        if (w->p[p].alive && !w->p[p].visible && !needed[p]) {
            w->p[p].alive = 0;
            removed++;
        }
    if (removed)
        for (uint32_t t = 0; t < w->nt; t++)
            if (w->t[t].alive) {
                uint32_t k = 0;
                for (uint32_t i = 0; i < w->t[t].n; i++)
                    if (w->p[w->t[t].e[i].place].alive)
                        w->t[t].e[k++] = w->t[t].e[i];
                w->t[t].n = k;
            }
    free(needed);
    w->stats.sink_places += (size_t)removed;
    return removed;
}

/* ---- parallel places ---- */

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdull;
}

typedef struct keyed {
    uint64_t key;
    uint32_t index;
} keyed;

static int by_key(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* The effect columns of p and q (transitions changing them, and by how
 * much) are equal. */
static int same_effects(rw_net *w, const columns *c, uint32_t p, uint32_t q)
{
    uint32_t i = c->start[p], j = c->start[q];
    for (;;) {
        while (i < c->start[p + 1] && rw_find(&w->t[c->t[i]], p)->eff == 0)
            i++;
        while (j < c->start[q + 1] && rw_find(&w->t[c->t[j]], q)->eff == 0)
            j++;
        int endp = i == c->start[p + 1], endq = j == c->start[q + 1];
        if (endp || endq)
            return endp && endq;
        if (c->t[i] != c->t[j] ||
            rw_find(&w->t[c->t[i]], p)->eff != rw_find(&w->t[c->t[j]], q)->eff)
            return 0;
        i++;
        j++;
    }
}

/* q always holds p's tokens plus d = M0(q) - M0(p) >= 0; it forbids
 * nothing p allows when each transition needs at most d more of q. */
static int dominated(rw_net *w, const columns *c, uint32_t p, uint32_t q)
{
    if (w->p[q].initial < w->p[p].initial)
        return 0;
    nc_count d = w->p[q].initial - w->p[p].initial;
    for (uint32_t i = c->start[q]; i < c->start[q + 1]; i++) {
        rw_trans *tr = &w->t[c->t[i]];
        const rw_entry *eq = rw_find(tr, q), *ep = rw_find(tr, p);
        nc_count needp = ep ? ep->need : 0;
        if (eq->need > needp && eq->need - needp > d)
            return 0;
    }
    return 1;
}

/* How many earlier places of a bucket a place is compared with: symmetric
 * nets have large buckets of equal-looking columns. */
#define PARALLEL_TRIES 8

long rw_parallel_places(rw_net *w)
{
    columns c;
    if (columns_build(w, &c) < 0)
        return -1;
    keyed *k = malloc(((size_t)w->np + 1) * sizeof *k);
    if (!k) {
        columns_free(&c);
        return -1;
    }
    uint32_t nk = 0;
    for (uint32_t p = 0; p < w->np; p++) {
        if (!w->p[p].alive)
            continue;
        uint64_t h = 0x12345;
        int any = 0;
        for (uint32_t i = c.start[p]; i < c.start[p + 1]; i++) {
            int64_t eff = rw_find(&w->t[c.t[i]], p)->eff;
            if (eff) {
                h = mix(mix(h, c.t[i]), (uint64_t)eff);
                any = 1;
            }
        }
        if (any)   /* an unchanging place is the constant rule's */
            k[nk++] = (keyed){h, p};
    }
    qsort(k, nk, sizeof *k, by_key);
    long removed = 0;
    for (uint32_t a = 0; a < nk; a++) {
        uint32_t q = k[a].index;
        if (w->p[q].visible)
            continue;
        int tries = 0;
        for (uint32_t b = a; b-- > 0 && k[b].key == k[a].key && tries < PARALLEL_TRIES;) {
            uint32_t p = k[b].index;
            if (!w->p[p].alive)
                continue;
            tries++;
            if (!same_effects(w, &c, p, q) || !dominated(w, &c, p, q))
                continue;
            for (uint32_t i = c.start[q]; i < c.start[q + 1]; i++)
                rw_drop(&w->t[c.t[i]], q);
            w->p[q].alive = 0;
            removed++;
            break;
        }
    }
    free(k);
    columns_free(&c);
    w->stats.parallel_places += (size_t)removed;
    return removed;
}

/* ---- duplicate transitions ---- */

static int same_entries(const rw_trans *a, const rw_trans *b)
{
    if (a->n != b->n)
        return 0;
    for (uint32_t i = 0; i < a->n; i++)
        if (a->e[i].place != b->e[i].place || a->e[i].need != b->e[i].need ||
            a->e[i].eff != b->e[i].eff)
            return 0;
    return 1;
}

long rw_duplicate_transitions(rw_net *w)
{
    keyed *k = malloc(((size_t)w->nt + 1) * sizeof *k);
    if (!k)
        return -1;
    uint32_t nk = 0;
    for (uint32_t t = 0; t < w->nt; t++) {
        const rw_trans *tr = &w->t[t];
        if (!tr->alive || tr->observed)
            continue;
        uint64_t h = 0x6789;
        for (uint32_t i = 0; i < tr->n; i++)
            h = mix(mix(mix(h, tr->e[i].place), tr->e[i].need), (uint64_t)tr->e[i].eff);
        k[nk++] = (keyed){h, t};
    }
    qsort(k, nk, sizeof *k, by_key);
    long removed = 0;
    for (uint32_t a = 0; a < nk; a++) {
        int tries = 0;
        for (uint32_t b = a; b-- > 0 && k[b].key == k[a].key && tries < PARALLEL_TRIES;) {
            if (!w->t[k[b].index].alive)
                continue;
            tries++;
            if (same_entries(&w->t[k[a].index], &w->t[k[b].index])) {
                w->t[k[a].index].alive = 0;
                removed++;
                break;
            }
        }
    }
    free(k);
    w->stats.duplicate_transitions += (size_t)removed;
    return removed;
}

/* ---- free sequences (post-agglomeration) ---- */

/* Effects this large are left alone, so that k * eff cannot overflow. */
#define FUSE_EFF_MAX ((int64_t)1 << 40)
#define FUSE_MAX_TOKENS 8

/* p's only user (consumer or reader) when it takes what it needs of p
 * (any number of tokens, the same it needs) and needs nothing else, adds
 * only to places nobody observes, and is itself not observed; else
 * REDUCE_NONE. */
static uint32_t free_user(rw_net *w, const columns *c, uint32_t p)
{
    uint32_t u = REDUCE_NONE;
    for (uint32_t i = c->start[p]; i < c->start[p + 1]; i++) {
        const rw_entry *e = rw_find(&w->t[c->t[i]], p);
        if (e->need > 0 || e->eff < 0) {
            if (u != REDUCE_NONE)
                return REDUCE_NONE;
            u = c->t[i];
        }
    }
    if (u == REDUCE_NONE || w->t[u].observed)
        return REDUCE_NONE;
    for (uint32_t i = 0; i < w->t[u].n; i++) {
        const rw_entry *e = &w->t[u].e[i];
        if (e->place == p ? (e->need == 0 || e->need > (nc_count)FUSE_EFF_MAX ||
                             e->eff != -(int64_t)e->need)
                          : (e->need != 0 || e->eff <= 0 || e->eff > FUSE_EFF_MAX ||
                             w->p[e->place].visible))
            return REDUCE_NONE;
    }
    return u;
}

/* h becomes "h, then k times u". */
static int fuse(rw_trans *h, const rw_trans *u, int64_t k)
{
    rw_entry *e = malloc(((size_t)h->n + u->n) * sizeof *e);
    uint32_t *seq = malloc(((size_t)h->seqlen + (size_t)k * u->seqlen) * sizeof *seq);
    if (!e || !seq) {
        free(e);
        free(seq);
        return -1;
    }
    uint32_t n = 0, i = 0, j = 0;
    while (i < h->n || j < u->n) {
        rw_entry x;
        if (j == u->n || (i < h->n && h->e[i].place < u->e[j].place)) {
            x = h->e[i++];
        } else if (i == h->n || u->e[j].place < h->e[i].place) {
            x = (rw_entry){u->e[j].place, 0, k * u->e[j].eff};
            j++;
        } else {
            /* u needs only p, which h has just filled with what the k
             * firings of u take: h's needs stand */
            x = (rw_entry){h->e[i].place, h->e[i].need, h->e[i].eff + k * u->e[j].eff};
            i++;
            j++;
        }
        if (x.need || x.eff)
            e[n++] = x;
    }
    uint32_t len = h->seqlen;
    memcpy(seq, h->seq, (size_t)len * sizeof *seq);
    for (int64_t r = 0; r < k; r++) {
        memcpy(seq + len, u->seq, (size_t)u->seqlen * sizeof *seq);
        len += u->seqlen;
    }
    free(h->e);
    free(h->seq);
    h->e = e;
    h->n = h->cap = n;
    h->seq = seq;
    h->seqlen = len;
    return 0;
}

/* u fired k times on the initial marking, whose place it takes from is
 * then empty: the working net starts where the given one does after
 * those steps (w->init_seq), a marking that agrees with the given start on
 * everything observed and leads to the same choices (reduce.h).  0, or
 * -1 on no memory. */
static int fire_at_start(rw_net *w, const rw_trans *u, uint32_t k)
{
    size_t need = (size_t)w->init_len + (size_t)k * u->seqlen;
    if (need > w->init_cap) {
        uint32_t *seq = realloc(w->init_seq, need * sizeof *seq);
        if (!seq)
            return -1;
        w->init_seq = seq;
        w->init_cap = (uint32_t)need;
    }
    for (uint32_t r = 0; r < k; r++) {
        memcpy(w->init_seq + w->init_len, u->seq, (size_t)u->seqlen * sizeof *u->seq);
        w->init_len += u->seqlen;
        for (uint32_t i = 0; i < u->n; i++)
            w->p[u->e[i].place].initial += (nc_count)u->e[i].eff;
    }
    return 0;
}

/* One pass: every place whose neighbourhood no fusion of this pass has
 * touched yet (the columns are from the pass's start). */
static long free_sequences_pass(rw_net *w)
{
    columns c;
    if (columns_build(w, &c) < 0)
        return -1;
    uint8_t *dirty = calloc((size_t)w->np + 1, 1);
    if (!dirty) {
        columns_free(&c);
        return -1;
    }
    long removed = 0;
    for (uint32_t p = 0; p < w->np; p++) {
        if (!w->p[p].alive || w->p[p].visible || dirty[p])
            continue;
        uint32_t u = free_user(w, &c, p);
        if (u == REDUCE_NONE)
            continue;
        rw_trans *ut = &w->t[u];
        /* p starts with and every producer adds a multiple of what u takes,
         * so p holds a multiple of it: marked means u is enabled */
        int64_t take = (int64_t)rw_find(ut, p)->need;
        nc_count start = w->p[p].initial;
        int ok = start % (nc_count)take == 0 && start / (nc_count)take <= FUSE_MAX_TOKENS &&
                 w->init_len + start / (nc_count)take * ut->seqlen <= RW_MAX_SEQ,
            producers = 0;
        /* what firing u at the start adds must fit a count */
        for (uint32_t i = 0; i < ut->n && ok && start; i++)
            ok = ut->e[i].eff <= 0 ||
                 w->p[ut->e[i].place].initial <=
                     NC_COUNT_MAX - (nc_count)ut->e[i].eff * (start / (nc_count)take);
        for (uint32_t i = 0; i < ut->n && ok; i++)
            ok = !dirty[ut->e[i].place];
        for (uint32_t i = c.start[p]; i < c.start[p + 1] && ok; i++) {
            rw_trans *h = &w->t[c.t[i]];
            if (c.t[i] == u)
                continue;
            int64_t k = rw_find(h, p)->eff;
            producers++;
            ok = k > 0 && k % take == 0 && k / take <= FUSE_MAX_TOKENS &&
                 h->seqlen + (uint64_t)(k / take) * ut->seqlen <= RW_MAX_SEQ;
            for (uint32_t j = 0; j < h->n && ok; j++)
                ok = h->e[j].eff < FUSE_EFF_MAX && h->e[j].eff > -FUSE_EFF_MAX;
        }
        if (!ok || (!producers && !start))
            continue;
        if (start && fire_at_start(w, ut, (uint32_t)(start / (nc_count)take)) < 0) {
            free(dirty);
            columns_free(&c);
            return -1;
        }
        for (uint32_t i = c.start[p]; i < c.start[p + 1]; i++) {
            if (c.t[i] == u)
                continue;
            rw_trans *h = &w->t[c.t[i]];
            if (fuse(h, ut, rw_find(h, p)->eff / take) < 0) {
                free(dirty);
                columns_free(&c);
                return -1;
            }
        }
        for (uint32_t i = 0; i < ut->n; i++)
            dirty[ut->e[i].place] = 1;
        ut->alive = 0;
        w->p[p].alive = 0;
        removed++;
    }
    free(dirty);
    columns_free(&c);
    w->stats.agglomerated += (size_t)removed;
    return removed;
}

/* Passes until none fuses, so that a chain of steps is agglomerated in one
 * call rather than one step per round of all the rules. */
long rw_free_sequences(rw_net *w)
{
    if (w->keep_sequences)
        return 0;
    long total = 0, n;
    do {
        n = free_sequences_pass(w);
        if (n < 0)
            return -1;
        total += n;
    } while (n > 0 && !rw_stop(w));
    return total;
}
