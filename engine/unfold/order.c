/* The ERV total adequate order on local configurations (Esparza, Römer,
 * Vogler 2002, for safe nets): [e] comes before [f] when it is smaller;
 * at equal size, when its Parikh vector is smaller lexicographically
 * (transitions in net order); at equal vectors, when its Foata normal
 * form is, level by level, compared the same way.
 *
 * A Parikh vector is kept as its transitions sorted with repetition.  At
 * the first place two such lists differ, the one holding the smaller
 * transition has more of it, all smaller transitions being equal: its
 * vector is the larger.  The Foata forms compare the same way as lists of
 * (level, transition) sorted.
 *
 * Each queued extension keeps its vector, packed: per distinct transition
 * the gap from the one before and its count, each a base-128 varint.  As
 * two 32-bit words a pair, the vectors were 1 GiB of the 13.5 million
 * extensions queued on Solitaire-PT-SqrNC5x5; gaps and counts are mostly
 * below 128, a byte each.  The comparison decodes both as it goes, and
 * most end within a few pairs. */
#include "engine/unfold/unfint.h"
#include "base/grow.h"

#include <stdio.h>

#include <stdlib.h>
#include <string.h>

int config_room(builder *b)
{
    size_t need = b->u->nev + 1;
    if (grow_charged(&b->cfg, &b->cap_cfg, need, sizeof *b->cfg, 64, &b->charged, b->limit, 0) <
            0 ||
        grow_charged(&b->stack, &b->cap_stack, need, sizeof *b->stack, 64, &b->charged, b->limit,
                     0) < 0 ||
        grow_charged(&b->ev_mark, &b->cap_ev_mark, need, sizeof *b->ev_mark, 64, &b->charged,
                     b->limit, 1) < 0 ||
        grow_charged(&b->seq1, &b->cap_seq1, need, sizeof *b->seq1, 64, &b->charged, b->limit,
                     0) < 0 ||
        grow_charged(&b->seq2, &b->cap_seq2, need, sizeof *b->seq2, 64, &b->charged, b->limit,
                     0) < 0) {
        snprintf(b->why, b->whylen, "memory budget exhausted after %zu events", b->u->nev);
        return -1;
    }
    return 0;
}

void config_of(builder *b, const uint32_t *pre, uint32_t n)
{
    const unf_prefix *u = b->u;
    if (++b->ev_stamp == 0) {
        memset(b->ev_mark, 0, b->cap_ev_mark * sizeof *b->ev_mark);
        b->ev_stamp = 1;
    }
    size_t top = 0;
    b->ncfg = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t f = u->co[pre[i]].pre;
        if (f != UNF_NONE && b->ev_mark[f] != b->ev_stamp) {
            b->ev_mark[f] = b->ev_stamp;
            b->stack[top++] = f;
        }
    }
    while (top) {
        uint32_t e = b->stack[--top];
        b->cfg[b->ncfg++] = e;
        const unf_event *ev = &u->ev[e];
        for (uint32_t i = 0; i < ev->npre; i++) {
            uint32_t f = u->co[u->pre[ev->pre_start + i]].pre;
            if (f != UNF_NONE && b->ev_mark[f] != b->ev_stamp) {
                b->ev_mark[f] = b->ev_stamp;
                b->stack[top++] = f;
            }
        }
    }
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* b->tlist[0..n) (distinct transitions, each counted in b->tcount) in
 * net order: by a scan of the counts' words when that is shorter than a
 * comparison sort, which most extensions of a small net's prefix are. */
static void sort_transitions(builder *b, uint32_t n)
{
    uint32_t T = b->u->cn->ntransitions;
    if ((uint64_t)n * 16 < T) {
        qsort(b->tlist, n, sizeof *b->tlist, cmp_u32);
        return;
    }
    uint32_t k = 0;
    for (uint32_t t = 0; t < T && k < n; t++)
        if (b->tcount[t])
            b->tlist[k++] = t;
}

/* v as a base-128 varint at out; its bytes. */
static size_t varint_put(uint8_t *out, uint32_t v)
{
    size_t n = 0;
    while (v >= 0x80) {
        out[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    out[n++] = (uint8_t)v;
    return n;
}

static uint32_t varint_get(const uint8_t **in)
{
    const uint8_t *p = *in;
    uint32_t v = 0;
    for (unsigned shift = 0;; shift += 7) {
        uint8_t c = *p++;
        v |= (uint32_t)(c & 0x7f) << shift;
        if (!(c & 0x80))
            break;
    }
    *in = p;
    return v;
}

/* A varint of 32 bits takes at most 5 bytes. */
#define VARINT_MAX 5

int parikh_store(builder *b, uint32_t t, pe_t *x)
{
    uint32_t distinct = 0;
    for (size_t i = 0; i <= b->ncfg; i++) {
        uint32_t tr = i < b->ncfg ? b->u->ev[b->cfg[i]].trans : t;
        if (!b->tcount[tr]++)
            b->tlist[distinct++] = tr;
    }
    sort_transitions(b, distinct);
    size_t most = 2 * VARINT_MAX * (size_t)distinct;
    /* offsets are 32-bit: a queue that outgrows them ends the search */
    if (b->nparikh + most >= UINT32_MAX ||
        grow_charged(&b->parikh, &b->cap_parikh, b->nparikh + most, sizeof *b->parikh, 256,
                     &b->charged, b->limit, 0) < 0) {
        for (uint32_t i = 0; i < distinct; i++)
            b->tcount[b->tlist[i]] = 0;
        snprintf(b->why, b->whylen, b->nparikh + most >= UINT32_MAX
                 ? "too many possible extensions after %zu events"
                 : "memory budget exhausted after %zu events", b->u->nev);
        return -1;
    }
    x->parikh_off = (uint32_t)b->nparikh;
    x->parikh_len = distinct;
    uint32_t prev = 0;
    for (uint32_t i = 0; i < distinct; i++) {
        uint32_t tr = b->tlist[i];
        b->nparikh += varint_put(b->parikh + b->nparikh, tr - prev);
        b->nparikh += varint_put(b->parikh + b->nparikh, b->tcount[tr]);
        prev = tr;
        b->tcount[tr] = 0;
    }
    return 0;
}

/* x's Foata form as sorted (level << 32 | transition) in seq. */
static size_t foata(builder *b, const pe_t *x, uint64_t *seq)
{
    config_of(b, b->pe_pre + x->pre_off, x->npre);
    size_t n = 0;
    for (size_t i = 0; i < b->ncfg; i++) {
        const unf_event *ev = &b->u->ev[b->cfg[i]];
        seq[n++] = (uint64_t)ev->depth << 32 | ev->trans;
    }
    seq[n++] = (uint64_t)x->depth << 32 | x->trans;
    qsort(seq, n, sizeof *seq, cmp_u64);
    return n;
}

size_t parikh_bytes(const builder *b, const pe_t *x)
{
    const uint8_t *p = b->parikh + x->parikh_off, *p0 = p;
    for (uint32_t i = 0; i < 2 * x->parikh_len; i++)
        varint_get(&p);
    return (size_t)(p - p0);
}

int pe_before(builder *b, const pe_t *x, const pe_t *y)
{
    if (x->size != y->size)
        return x->size < y->size;
    const uint8_t *px = b->parikh + x->parikh_off, *py = b->parikh + y->parikh_off;
    uint32_t n = x->parikh_len < y->parikh_len ? x->parikh_len : y->parikh_len;
    uint32_t tx = 0, ty = 0;
    for (uint32_t i = 0; i < n; i++) {
        tx += varint_get(&px);
        ty += varint_get(&py);
        if (tx != ty)
            return tx > ty;
        uint32_t cx = varint_get(&px), cy = varint_get(&py);
        if (cx != cy)
            return cx < cy;
    }
    if (x->parikh_len != y->parikh_len)
        return x->parikh_len > y->parikh_len;
    size_t nx = foata(b, x, b->seq1), ny = foata(b, y, b->seq2);
    for (size_t i = 0; i < nx && i < ny; i++)
        if (b->seq1[i] != b->seq2[i])
            return b->seq1[i] > b->seq2[i];
    return 0;
}
