/* The concurrency relation of the prefix's conditions, kept sparse
 * (docs/unfolding.md, "The concurrency relation").
 *
 * Only live conditions take part: those made initially or by an event that
 * is not a cut-off, on a place some transition that can fire needs (no
 * other condition is ever part of a co-set to extend).  They are numbered
 * in the order they appear, and the conditions of one event's postset (or
 * the initial ones) form a group whose live numbers follow each other.
 *
 * A relation between a condition and the ones made before it never
 * changes once it is made, and it is the same for the whole group: the
 * conditions concurrent with every condition of the event's preset, plus
 * the group itself.  That part is one sorted list of (64-bit word, bits)
 * per group, written once.  What later groups add to an older condition
 * goes at the end of its own list, since newer conditions always have
 * higher numbers, packed: a pair is the gap from the word before (a
 * base-128 varint, doubled, plus 1 for any bits but a short run), then
 * either one byte for a run of up to four bits (its lowest bit's place and
 * its length less one), which is what a group adds, or the lowest bit's
 * place and a varint of the bits above it.  The last word stays open beside the list, so that the
 * next group can add to it.  As plain pairs, 12 bytes each in chunks that
 * double, these lists took 1.6 GiB on Solitaire-PT-SqrNC5x5 (77 million
 * pairs for 1.8 million live conditions, mostly one or two partners to a
 * word); packed, most pairs take two bytes (docs/unfolding.md).  Memory grows with the
 * pairs that are concurrent (64 to a word where they are dense), not with
 * the square of the conditions: the relations of real prefixes are sparse
 * (tens of partners per condition among hundreds of thousands). */
#include "engine/unfold/unfint.h"
#include "base/grow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int room(builder *b, void *arrp, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    if (grow_charged(arrp, cap, need, elem, 64, &b->charged, b->limit, 0) < 0) {
        snprintf(b->why, b->whylen, "memory budget exhausted after %zu events", b->u->nev);
        return -1;
    }
    return 0;
}

/* ---- sparse sets of live numbers: (word, bits) lists, words rising ---- */

static int sv_push(builder *b, co_vec *v, uint32_t word, uint64_t bits)
{
    if (v->n && v->word[v->n - 1] == word) {
        v->bits[v->n - 1] |= bits;
        return 0;
    }
    if (room(b, &v->word, &v->cap_word, v->n + 1, sizeof *v->word) < 0 ||
        room(b, &v->bits, &v->cap_bits, v->n + 1, sizeof *v->bits) < 0)
        return -1;
    v->word[v->n] = word;
    v->bits[v->n++] = bits;
    return 0;
}

/* v as a base-128 varint at out; its bytes. */
static uint32_t varint_put(uint8_t *out, uint64_t v)
{
    uint32_t n = 0;
    while (v >= 0x80) {
        out[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    out[n++] = (uint8_t)v;
    return n;
}

static uint64_t varint_get(const uint8_t **in)
{
    const uint8_t *p = *in;
    uint64_t v = 0;
    for (unsigned shift = 0;; shift += 7) {
        uint8_t c = *p++;
        v |= (uint64_t)(c & 0x7f) << shift;
        if (!(c & 0x80))
            break;
    }
    *in = p;
    return v;
}

/* A walk over the whole relation of a live condition, in rising words:
 * its group's list of older partners, its packed later list, then its
 * open word. */
typedef struct row_walk {
    const builder *b;
    uint32_t l;
    size_t g, gend;                /* the group's list: gword/gbits[g .. gend) */
    uint32_t ch, pos, word;        /* the later list: chunk, byte in it, last word */
    int open_done;
} row_walk;

static void row_start(const builder *b, uint32_t l, row_walk *r)
{
    const co_group *g = &b->grp[b->group_of[l]];
    r->b = b;
    r->l = l;
    r->g = g->start;
    r->gend = g->start + g->len;
    r->ch = b->later_head[l];
    r->pos = 0;
    r->word = 0;
    r->open_done = 0;
}

/* The next word of the row at or past word at_least (0: every word; the
 * later list's chunks that end before it are skipped) and its bits; 0 at
 * the end. */
static int row_next(row_walk *r, uint32_t at_least, uint32_t *word, uint64_t *bits)
{
    const builder *b = r->b;
    if (r->g < r->gend) {
        *word = b->gword[r->g];
        *bits = b->gbits[r->g++];
        return 1;
    }
    while (r->ch != UNF_NONE &&
           (r->pos == b->chunk[r->ch].n || (r->pos == 0 && b->chunk[r->ch].last < at_least))) {
        r->word = b->chunk[r->ch].last;
        r->ch = b->chunk[r->ch].next;
        r->pos = 0;
    }
    if (r->ch != UNF_NONE) {
        const uint8_t *p = b->lbytes + b->chunk[r->ch].start + r->pos, *p0 = p;
        uint64_t head = p[0] < 0x80 ? p++[0] : varint_get(&p);
        r->word += (uint32_t)(head >> 1);
        *word = r->word;
        if (head & 1) {
            uint32_t lo = *p++;
            *bits = (varint_get(&p) << 1 | 1) << lo;
        } else {
            uint32_t lo = *p & 63, len = (uint32_t)(*p >> 6) + 1;
            p++;
            *bits = ((1ull << len) - 1) << lo;
        }
        r->pos += (uint32_t)(p - p0);
        return 1;
    }
    if (r->open_done || !b->open_bits[r->l])
        return 0;
    r->open_done = 1;
    *word = b->open_word[r->l];
    *bits = b->open_bits[r->l];
    return 1;
}

/* The whole relation of live condition l into v. */
static int row_of(builder *b, uint32_t l, co_vec *v)
{
    row_walk r;
    row_start(b, l, &r);
    v->n = 0;
    uint32_t w;
    uint64_t bits;
    while (row_next(&r, 0, &w, &bits))
        if (sv_push(b, v, w, bits) < 0)
            return -1;
    return 0;
}

/* out = a ∩ the relation of l, by one merge over both. */
static int intersect_row(builder *b, const co_vec *a, uint32_t l, co_vec *out)
{
    row_walk r;
    row_start(b, l, &r);
    out->n = 0;
    size_t i = 0;
    uint32_t w;
    uint64_t bits;
    while (i < a->n && row_next(&r, a->word[i], &w, &bits)) {
        while (i < a->n && a->word[i] < w)
            i++;
        if (i == a->n)
            return 0;
        if (a->word[i] == w && (a->bits[i] & bits) && sv_push(b, out, w, a->bits[i] & bits) < 0)
            return -1;
    }
    return 0;
}

/* The pairs in l's relation. */
static uint64_t row_length(const builder *b, uint32_t l)
{
    return (uint64_t)b->grp[b->group_of[l]].len + b->later_n[l] + (b->open_bits[l] != 0);
}

/* l's open word packed onto the end of its later list. */
static int later_close(builder *b, uint32_t l)
{
    uint64_t bits = b->open_bits[l];
    uint32_t lo = (uint32_t)__builtin_ctzll(bits);
    uint64_t run = bits >> lo;
    int short_run = (run & (run + 1)) == 0 && run < 16;
    uint8_t code[20];
    uint32_t k = varint_put(code, (uint64_t)(b->open_word[l] - b->later_word[l]) << 1 | !short_run);
    if (short_run) {
        code[k++] = (uint8_t)(lo | (uint32_t)(__builtin_popcountll(run) - 1) << 6);
    } else {
        code[k++] = (uint8_t)lo;
        k += varint_put(code + k, run >> 1);
    }
    uint32_t t = b->later_tail[l];
    /* a pair is never split between chunks */
    if (t == UNF_NONE || b->chunk[t].cap - b->chunk[t].n < k) {
        uint32_t cap = t == UNF_NONE ? 16 : b->chunk[t].cap * 2;
        if (cap > 4096)
            cap = 4096;
        if (b->nchunk >= UINT32_MAX - 1) {
            snprintf(b->why, b->whylen, "too many conditions");
            return -1;
        }
        if (room(b, &b->chunk, &b->cap_chunk, b->nchunk + 1, sizeof *b->chunk) < 0 ||
            room(b, &b->lbytes, &b->cap_lbytes, b->nl + cap, sizeof *b->lbytes) < 0)
            return -1;
        uint32_t c = (uint32_t)b->nchunk++;
        b->chunk[c] = (co_chunk){b->nl, 0, cap, 0, UNF_NONE};
        b->nl += cap;
        if (t == UNF_NONE)
            b->later_head[l] = c;
        else
            b->chunk[t].next = c;
        b->later_tail[l] = t = c;
    }
    co_chunk *ck = &b->chunk[t];
    memcpy(b->lbytes + ck->start + ck->n, code, k);
    ck->n += k;
    ck->last = b->later_word[l] = b->open_word[l];
    b->later_n[l]++;
    return 0;
}

/* Adds live numbers first .. first + n to l's later partners. */
static int later_add(builder *b, uint32_t l, uint32_t first, uint32_t n)
{
    for (uint32_t x = first; x < first + n;) {
        uint32_t w = x >> 6, lo = x & 63, hi = (first + n - 1) >> 6 == w ? (first + n - 1) & 63 : 63;
        uint64_t bits = (hi == 63 ? ~0ull : (1ull << (hi + 1)) - 1) & ~((1ull << lo) - 1);
        x = w * 64 + hi + 1;
        if (b->open_bits[l] && b->open_word[l] == w) {
            b->open_bits[l] |= bits;
            continue;
        }
        if (b->open_bits[l] && later_close(b, l) < 0)
            return -1;
        b->open_word[l] = w;
        b->open_bits[l] = bits;
    }
    return 0;
}

int corel_test(const builder *b, uint32_t c1, uint32_t c2)
{
    uint32_t l1 = b->live_of[c1], l2 = b->live_of[c2];
    if (l1 > l2) {
        uint32_t x = l1;
        l1 = l2;
        l2 = x;
    }
    const co_group *g = &b->grp[b->group_of[l2]];
    const uint32_t *word = b->gword + g->start;
    uint32_t lo = 0, hi = g->len, w = l1 >> 6;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (word[mid] < w)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < g->len && word[lo] == w && (b->gbits[g->start + lo] >> (l1 & 63)) & 1;
}

int corel_add_group(builder *b, uint32_t first, uint32_t n, const uint32_t *pre, uint32_t npre)
{
    unf_prefix *u = b->u;
    uint32_t nuseful = 0;
    for (uint32_t i = 0; i < n; i++)
        nuseful += b->useful[u->co[first + i].place];
    b->inter.n = 0;
    if (!nuseful)
        return 0;
    /* the conditions concurrent with the whole preset, the preset itself
     * (in its own rows through its group) taken out */
    if (npre) {
        /* the shortest row first: the others are walked only as far as
         * the intersection reaches, whole chunks skipped */
        uint32_t first_row = 0;
        for (uint32_t i = 1; i < npre; i++)
            if (row_length(b, b->live_of[pre[i]]) < row_length(b, b->live_of[pre[first_row]]))
                first_row = i;
        if (row_of(b, b->live_of[pre[first_row]], &b->inter) < 0)
            return -1;
        for (uint32_t i = 0; i < npre && b->inter.n; i++) {
            if (i == first_row)
                continue;
            if (intersect_row(b, &b->inter, b->live_of[pre[i]], &b->swap) < 0)
                return -1;
            co_vec tmp = b->inter;
            b->inter = b->swap;
            b->swap = tmp;
        }
        for (uint32_t i = 0; i < npre; i++) {
            uint32_t l = b->live_of[pre[i]];
            for (size_t j = 0; j < b->inter.n; j++)
                if (b->inter.word[j] == l >> 6)
                    b->inter.bits[j] &= ~(1ull << (l & 63));
        }
        size_t k = 0;
        for (size_t j = 0; j < b->inter.n; j++)
            if (b->inter.bits[j]) {
                b->inter.word[k] = b->inter.word[j];
                b->inter.bits[k++] = b->inter.bits[j];
            }
        b->inter.n = k;
    }

    if (b->nlive + nuseful >= UINT32_MAX - 1 || b->ngrp >= UINT32_MAX - 1 ||
        b->inter.n + 2 >= UINT32_MAX) {
        snprintf(b->why, b->whylen, "too many conditions");
        return -1;
    }
    uint32_t l0 = (uint32_t)b->nlive;
    size_t need = b->nlive + nuseful;
    if (room(b, &b->group_of, &b->cap_group_of, need, sizeof *b->group_of) < 0 ||
        room(b, &b->cond_of, &b->cap_cond_of, need, sizeof *b->cond_of) < 0 ||
        room(b, &b->later_head, &b->cap_later_head, need, sizeof *b->later_head) < 0 ||
        room(b, &b->later_tail, &b->cap_later_tail, need, sizeof *b->later_tail) < 0 ||
        room(b, &b->later_word, &b->cap_later_word, need, sizeof *b->later_word) < 0 ||
        room(b, &b->open_word, &b->cap_open_word, need, sizeof *b->open_word) < 0 ||
        room(b, &b->open_bits, &b->cap_open_bits, need, sizeof *b->open_bits) < 0 ||
        room(b, &b->later_n, &b->cap_later_n, need, sizeof *b->later_n) < 0 ||
        room(b, &b->grp, &b->cap_grp, b->ngrp + 1, sizeof *b->grp) < 0 ||
        room(b, &b->gword, &b->cap_gword, b->ng + b->inter.n + 2, sizeof *b->gword) < 0 ||
        room(b, &b->gbits, &b->cap_gbits, b->ng + b->inter.n + 2, sizeof *b->gbits) < 0)
        return -1;
    uint32_t gid = (uint32_t)b->ngrp++;
    co_group *g = &b->grp[gid];
    g->start = b->ng;
    for (size_t j = 0; j < b->inter.n; j++) {
        b->gword[b->ng] = b->inter.word[j];
        b->gbits[b->ng++] = b->inter.bits[j];
    }
    for (uint32_t i = 0, l = l0; i < n; i++) {
        uint32_t c = first + i;
        if (!b->useful[u->co[c].place])
            continue;
        b->live_of[c] = l;
        b->cond_of[l] = c;
        b->group_of[l] = gid;
        b->later_head[l] = b->later_tail[l] = UNF_NONE;
        b->later_word[l] = b->open_word[l] = 0;
        b->open_bits[l] = 0;
        b->later_n[l] = 0;
        uint64_t bit = 1ull << (l & 63);
        if (b->ng > g->start && b->gword[b->ng - 1] == l >> 6) {
            b->gbits[b->ng - 1] |= bit;
        } else {
            b->gword[b->ng] = l >> 6;
            b->gbits[b->ng++] = bit;
        }
        l++;
    }
    g->len = (uint32_t)(b->ng - g->start);
    b->nlive += nuseful;
    for (size_t j = 0; j < b->inter.n; j++) {
        uint64_t bits = b->inter.bits[j];
        while (bits) {
            uint32_t d = b->inter.word[j] * 64 + (uint32_t)__builtin_ctzll(bits);
            bits &= bits - 1;
            if (later_add(b, d, l0, nuseful) < 0)
                return -1;
        }
    }
    return 0;
}

int corel_candidates(builder *b)
{
    const unf_prefix *u = b->u;
    b->cand_stamp++;
    size_t m = 0;
    for (size_t j = 0; j < b->inter.n; j++)
        m += (size_t)__builtin_popcountll(b->inter.bits[j]);
    if (room(b, &b->cand, &b->cap_cand, m ? m : 1, sizeof *b->cand) < 0)
        return -1;
    uint32_t ntouched = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (size_t j = 0; j < b->inter.n; j++) {
            uint64_t bits = b->inter.bits[j];
            while (bits) {
                uint32_t d = b->inter.word[j] * 64 + (uint32_t)__builtin_ctzll(bits);
                bits &= bits - 1;
                uint32_t p = u->co[b->cond_of[d]].place;
                if (pass == 0) {
                    if (b->cand_mark[p] != b->cand_stamp) {
                        b->cand_mark[p] = b->cand_stamp;
                        b->cand_n[p] = 0;
                        b->cand_touched[ntouched++] = p;
                    }
                    b->cand_n[p]++;
                } else {
                    b->cand[b->cand_off[p] + b->cand_n[p]++] = b->cond_of[d];
                }
            }
        }
        if (pass == 0) {
            uint32_t off = 0;
            for (uint32_t i = 0; i < ntouched; i++) {
                uint32_t p = b->cand_touched[i];
                b->cand_off[p] = off;
                off += b->cand_n[p];
                b->cand_n[p] = 0;
            }
        }
    }
    return 0;
}

void corel_free(builder *b)
{
    free(b->useful);
    free(b->group_of);
    free(b->cond_of);
    free(b->later_head);
    free(b->later_tail);
    free(b->later_word);
    free(b->open_word);
    free(b->open_bits);
    free(b->later_n);
    free(b->grp);
    free(b->gword);
    free(b->gbits);
    free(b->chunk);
    free(b->lbytes);
    free(b->inter.word);
    free(b->inter.bits);
    free(b->swap.word);
    free(b->swap.bits);
    free(b->cand);
    free(b->cand_mark);
    free(b->cand_n);
    free(b->cand_off);
    free(b->cand_touched);
}
