/* The ERV construction of a complete finite prefix (prefix.h).
 *
 * Possible extensions come from the concurrency relation: each condition
 * that can still be extended (made by the initial marking or a non-cut-off
 * event) has a row of a bit matrix saying which such conditions are
 * concurrent with it.  When an event e is added, the rows of its postset
 * are the intersection of its preset's rows plus its own postset, and the
 * new extensions are exactly the co-sets that contain a condition of e•:
 * for each transition that consumes a place of e•, the slots of its
 * preset whose place e• marks take e•'s condition (a safe net has one
 * condition per place in a co-set), the others are filled by a search over
 * the conditions of that place concurrent with everything chosen so far.
 * Each co-set is found once, when its last-made condition appears.
 *
 * The queue is a binary heap ordered by the ERV order on the extensions'
 * local configurations (order.c); since every new extension lies causally
 * after the event just added, events enter the prefix in that order, and
 * an event is a cut-off as soon as an earlier event (or the empty
 * configuration) has the same marking. */
#include "engine/unfold/prefix.h"
#include "engine/unfold/unfint.h"
#include "base/clock.h"
#include "base/grow.h"
#include "engine/progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- growing arrays charged to the budget ---- */

static int grow(builder *b, void *arrp, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    if (grow_charged(arrp, cap, need, elem, 64, &b->charged, b->limit, 0) < 0) {
        snprintf(b->why, b->whylen, "memory budget exhausted after %zu events", b->u->nev);
        return -1;
    }
    return 0;
}

/* ---- the net as the unfolding sees it ---- */

/* in(t): the places t needs (consumed or read); out(t): those it marks
 * after firing (produced or read).  A transition with a weight above 1
 * can never fire in a safe net and gets no events. */
static int net_view(builder *b)
{
    const cnet_t *cn = b->u->cn;
    uint32_t T = cn->ntransitions;
    b->in_start = calloc((size_t)T + 1, sizeof *b->in_start);
    b->out_start = calloc((size_t)T + 1, sizeof *b->out_start);
    b->fires = calloc(T ? T : 1, 1);
    size_t nin = cn->need_start[T], nout = 0;
    for (uint32_t t = 0; t < T; t++)
        nout += (size_t)(cn->post_start[t + 1] - cn->post_start[t]) +
                (cn->need_start[t + 1] - cn->need_start[t]);
    b->in_place = malloc((nin ? nin : 1) * sizeof *b->in_place);
    b->out_place = malloc((nout ? nout : 1) * sizeof *b->out_place);
    uint8_t *mark = calloc(cn->nplaces ? cn->nplaces : 1, 1);
    if (!b->in_start || !b->out_start || !b->fires || !b->in_place || !b->out_place || !mark) {
        free(mark);
        return -1;
    }
    size_t ni = 0, no = 0;
    for (uint32_t t = 0; t < T; t++) {
        int ok = 1;
        for (uint32_t i = cn->need_start[t]; i < cn->need_start[t + 1]; i++) {
            ok &= cn->need_weight[i] == 1;
            b->in_place[ni++] = cn->need_place[i];
        }
        for (uint32_t i = cn->post_start[t]; i < cn->post_start[t + 1]; i++) {
            ok &= cn->post_weight[i] == 1;
            b->out_place[no++] = cn->post_place[i];
            mark[cn->post_place[i]] = 1;
        }
        /* a place t needs but neither consumes nor produces (a read arc)
         * is consumed and produced again */
        for (uint32_t i = cn->pre_start[t]; i < cn->pre_start[t + 1]; i++)
            mark[cn->pre_place[i]] |= 2;
        for (uint32_t i = cn->need_start[t]; i < cn->need_start[t + 1]; i++) {
            uint32_t p = cn->need_place[i];
            if (!(mark[p] & 2) && !(mark[p] & 1))
                b->out_place[no++] = p;
        }
        for (uint32_t i = cn->post_start[t]; i < cn->post_start[t + 1]; i++)
            mark[cn->post_place[i]] = 0;
        for (uint32_t i = cn->pre_start[t]; i < cn->pre_start[t + 1]; i++)
            mark[cn->pre_place[i]] = 0;
        b->in_start[t + 1] = (uint32_t)ni;
        b->out_start[t + 1] = (uint32_t)no;
        b->fires[t] = (uint8_t)ok;
        uint32_t k = cn->need_start[t + 1] - cn->need_start[t];
        if (k > b->max_in)
            b->max_in = k;
    }
    free(mark);
    return 0;
}

/* ---- the concurrency relation ---- */

static uint64_t *co_row(const builder *b, uint32_t live)
{
    return b->co + (size_t)live * b->co_stride;
}

static int co_test(const builder *b, uint32_t c1, uint32_t c2)
{
    uint32_t l1 = b->live_of[c1], l2 = b->live_of[c2];
    return (int)(co_row(b, l1)[l2 >> 6] >> (l2 & 63)) & 1;
}

/* Room for n live conditions: the square matrix doubles its side. */
static int co_room(builder *b, size_t n)
{
    if (n <= b->co_stride * 64)
        return 0;
    size_t stride = b->co_stride ? b->co_stride : 1;
    while (stride * 64 < n)
        stride *= 2;
    size_t words = stride * 64 * stride;
    size_t bytes = words * sizeof(uint64_t);
    if (bytes / stride / 64 != stride * sizeof(uint64_t) || b->charged > b->limit ||
        bytes > b->limit - b->charged) {
        snprintf(b->why, b->whylen, "memory budget exhausted: the concurrency relation of "
                 "%zu conditions", n);
        return -1;
    }
    uint64_t *m = calloc(words, sizeof *m);
    if (!m) {
        snprintf(b->why, b->whylen, "memory budget exhausted after %zu events", b->u->nev);
        return -1;
    }
    for (size_t r = 0; r < b->nlive; r++)
        memcpy(m + r * stride, b->co + r * b->co_stride, b->co_stride * sizeof *m);
    b->charged -= b->co_stride * 64 * b->co_stride * sizeof(uint64_t);
    b->charged += bytes;
    free(b->co);
    b->co = m;
    b->co_stride = stride;
    return 0;
}

/* Conditions first .. first + n (all made by one event, or the initial
 * ones) become live; inter: the conditions concurrent with the event's
 * whole preset (NULL: none besides each other). */
static int co_add(builder *b, uint32_t first, uint32_t n, const uint64_t *inter)
{
    if (co_room(b, b->nlive + n) < 0)
        return -1;
    uint32_t l0 = (uint32_t)b->nlive;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t c = first + i, l = l0 + i;
        b->live_of[c] = l;
        uint64_t *row = co_row(b, l);
        if (inter)
            memcpy(row, inter, b->co_stride * sizeof *row);
        else
            memset(row, 0, b->co_stride * sizeof *row);
        for (uint32_t j = 0; j < n; j++)
            if (j != i)
                row[(l0 + j) >> 6] |= 1ull << ((l0 + j) & 63);
        uint32_t p = b->u->co[c].place;
        if (grow(b, &b->by_place[p].a, &b->by_place[p].cap, b->by_place[p].n + 1,
                 sizeof *b->by_place[p].a) < 0)
            return -1;
        b->by_place[p].a[b->by_place[p].n++] = c;
    }
    b->nlive += n;
    if (inter) {
        for (size_t w = 0; w < (l0 + 63) / 64 && w < b->co_stride; w++) {
            uint64_t bits = inter[w];
            while (bits) {
                uint32_t d = (uint32_t)(w * 64 + (size_t)__builtin_ctzll(bits));
                bits &= bits - 1;
                uint64_t *row = co_row(b, d);
                for (uint32_t i = 0; i < n; i++)
                    row[(l0 + i) >> 6] |= 1ull << ((l0 + i) & 63);
            }
        }
    }
    return 0;
}

/* ---- markings of local configurations ---- */

static uint64_t mark_hash(const uint64_t *m, size_t words)
{
    uint64_t h = 0x9e3779b97f4a7c15ull;
    for (size_t i = 0; i < words; i++) {
        h ^= m[i];
        h *= 0xff51afd7ed558ccdull;
        h ^= h >> 32;
    }
    return h;
}

/* The owner of marking m (an event, or UNF_NONE for the initial marking),
 * or, when m is new, records it for owner and returns UNF_NEW. */
#define UNF_NEW (UINT32_MAX - 1)
static uint32_t mark_find_or_add(builder *b, const uint64_t *m, uint32_t owner, int *err)
{
    size_t W = b->words;
    if ((b->nmarks + 1) * 2 > b->nslots) {
        size_t ns = b->nslots ? b->nslots * 2 : 1024;
        uint32_t *slots = malloc(ns * sizeof *slots);
        if (!slots || b->charged + ns * sizeof *slots > b->limit) {
            free(slots);
            snprintf(b->why, b->whylen, "memory budget exhausted after %zu events", b->u->nev);
            *err = 1;
            return 0;
        }
        memset(slots, 0xff, ns * sizeof *slots);
        for (size_t i = 0; i < b->nmarks; i++) {
            size_t s = mark_hash(b->marks + i * W, W) & (ns - 1);
            while (slots[s] != UINT32_MAX)
                s = (s + 1) & (ns - 1);
            slots[s] = (uint32_t)i;
        }
        b->charged += (ns - b->nslots) * sizeof *slots;
        free(b->slots);
        b->slots = slots;
        b->nslots = ns;
    }
    size_t s = mark_hash(m, W) & (b->nslots - 1);
    while (b->slots[s] != UINT32_MAX) {
        uint32_t i = b->slots[s];
        if (!memcmp(b->marks + (size_t)i * W, m, W * sizeof *m))
            return b->mark_owner[i];
        s = (s + 1) & (b->nslots - 1);
    }
    if (grow(b, &b->marks, &b->cap_marks_words, (b->nmarks + 1) * W, sizeof *b->marks) < 0 ||
        grow(b, &b->mark_owner, &b->cap_mark_owner, b->nmarks + 1, sizeof *b->mark_owner) < 0) {
        *err = 1;
        return 0;
    }
    memcpy(b->marks + b->nmarks * W, m, W * sizeof *m);
    b->mark_owner[b->nmarks] = owner;
    b->slots[s] = (uint32_t)b->nmarks++;
    return UNF_NEW;
}

/* Mark([e]) for an event whose local configuration (without it) is the
 * b->cfg list: counts, since the events come in no particular order. */
static void config_marking(builder *b, uint32_t t, uint64_t *m)
{
    memcpy(m, b->m0bits, b->words * sizeof *m);
    uint32_t ntouched = 0;
    for (size_t i = 0; i <= b->ncfg; i++) {
        uint32_t tr = i < b->ncfg ? b->u->ev[b->cfg[i]].trans : t;
        for (uint32_t k = b->in_start[tr]; k < b->in_start[tr + 1]; k++) {
            uint32_t p = b->in_place[k];
            if (!b->delta[p] && b->touched_mark[p] != b->touch_stamp) {
                b->touched_mark[p] = b->touch_stamp;
                b->touched[ntouched++] = p;
            }
            b->delta[p]--;
        }
        for (uint32_t k = b->out_start[tr]; k < b->out_start[tr + 1]; k++) {
            uint32_t p = b->out_place[k];
            if (!b->delta[p] && b->touched_mark[p] != b->touch_stamp) {
                b->touched_mark[p] = b->touch_stamp;
                b->touched[ntouched++] = p;
            }
            b->delta[p]++;
        }
    }
    for (uint32_t i = 0; i < ntouched; i++) {
        uint32_t p = b->touched[i];
        int64_t v = (int64_t)((m[p >> 6] >> (p & 63)) & 1) + b->delta[p];
        if (v > 0)
            m[p >> 6] |= 1ull << (p & 63);
        else
            m[p >> 6] &= ~(1ull << (p & 63));
        b->delta[p] = 0;
    }
    b->touch_stamp++;
}

/* ---- the queue of possible extensions ---- */

static int heap_push(builder *b, const pe_t *x)
{
    if (grow(b, &b->heap, &b->cap_heap, b->nheap + 1, sizeof *b->heap) < 0)
        return -1;
    size_t i = b->nheap++;
    b->heap[i] = *x;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!pe_before(b, &b->heap[i], &b->heap[parent]))
            break;
        pe_t tmp = b->heap[i];
        b->heap[i] = b->heap[parent];
        b->heap[parent] = tmp;
        i = parent;
    }
    return 0;
}

static pe_t heap_pop(builder *b)
{
    pe_t top = b->heap[0];
    b->heap[0] = b->heap[--b->nheap];
    size_t i = 0;
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < b->nheap && pe_before(b, &b->heap[l], &b->heap[m]))
            m = l;
        if (r < b->nheap && pe_before(b, &b->heap[r], &b->heap[m]))
            m = r;
        if (m == i)
            break;
        pe_t tmp = b->heap[i];
        b->heap[i] = b->heap[m];
        b->heap[m] = tmp;
        i = m;
    }
    return top;
}

/* Queues t with preset pre[0..n) (a co-set). */
static int pe_make(builder *b, uint32_t t, const uint32_t *pre, uint32_t n)
{
    pe_t x = {t, 0, n, 0, 0, 0, 0};
    /* offsets are 32-bit: a queue that outgrows them ends the search */
    if (b->npe_pre + n >= UINT32_MAX) {
        snprintf(b->why, b->whylen, "too many possible extensions after %zu events", b->u->nev);
        return -1;
    }
    /* one event can open millions of extensions: the clock is read here too */
    if ((++b->made & 4095) == 0 && budget_expired(b->opt->budget)) {
        snprintf(b->why, b->whylen, "%s after %zu events",
                 *b->opt->budget->interrupted ? "interrupted" : "time limit reached", b->u->nev);
        return -1;
    }
    if (grow(b, &b->pe_pre, &b->cap_pe_pre, b->npe_pre + n, sizeof *b->pe_pre) < 0)
        return -1;
    x.pre_off = b->npe_pre;
    if (n)   /* a transition with an empty preset: nothing to copy, maybe nowhere yet */
        memcpy(b->pe_pre + b->npe_pre, pre, n * sizeof *pre);
    b->npe_pre += n;
    config_of(b, pre, n);
    x.size = (uint32_t)b->ncfg + 1;
    uint32_t depth = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t f = b->u->co[pre[i]].pre;
        if (f != UNF_NONE && b->u->ev[f].depth > depth)
            depth = b->u->ev[f].depth;
    }
    x.depth = depth + 1;
    if (parikh_store(b, t, &x) < 0)
        return -1;
    return heap_push(b, &x);
}

/* The co-sets for t that contain e•'s conditions on the places e• marks
 * (place_cond, stamped), found by a search over the other places'
 * conditions with an explicit stack of positions. */
static int extend_with(builder *b, uint32_t t)
{
    uint32_t k = b->in_start[t + 1] - b->in_start[t];
    const uint32_t *places = b->in_place + b->in_start[t];
    uint32_t nfixed = 0, *slot = b->slot_place, *chosen = b->chosen, *pos = b->pos;
    for (uint32_t i = 0; i < k; i++)
        if (b->place_mark[places[i]] == b->place_stamp)
            chosen[nfixed] = b->place_cond[places[i]], slot[nfixed++] = places[i];
    for (uint32_t i = 0, j = nfixed; i < k; i++)
        if (b->place_mark[places[i]] != b->place_stamp)
            slot[j++] = places[i];
    if (nfixed == k)
        return pe_make(b, t, chosen, k);
    uint32_t i = nfixed;
    pos[i] = 0;
    for (;;) {
        const place_list *pl = &b->by_place[slot[i]];
        int found = 0;
        while (pos[i] < pl->n) {
            uint32_t c = pl->a[pos[i]++];
            int ok = 1;
            for (uint32_t j = 0; j < i && ok; j++)
                ok = co_test(b, chosen[j], c);
            if (ok) {
                chosen[i] = c;
                found = 1;
                break;
            }
        }
        if (found && i + 1 == k) {
            if (pe_make(b, t, chosen, k) < 0)
                return -1;
            continue;
        }
        if (found) {
            pos[++i] = 0;
            continue;
        }
        if (i == nfixed)
            return 0;
        i--;
    }
}

/* The extensions made possible by the conditions first .. first + n. */
static int extensions_from(builder *b, uint32_t first, uint32_t n)
{
    const cnet_t *cn = b->u->cn;
    b->place_stamp++;
    b->trans_stamp++;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t p = b->u->co[first + i].place;
        b->place_mark[p] = b->place_stamp;
        b->place_cond[p] = first + i;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t p = b->u->co[first + i].place;
        for (uint32_t j = cn->consumers_start[p]; j < cn->consumers_start[p + 1]; j++) {
            uint32_t t = cn->consumers[j];
            if (b->trans_mark[t] == b->trans_stamp || !b->fires[t])
                continue;
            b->trans_mark[t] = b->trans_stamp;
            if (extend_with(b, t) < 0)
                return -1;
        }
    }
    return 0;
}

/* ---- adding events ---- */

static int add_conditions(builder *b, uint32_t event, uint32_t t, uint32_t *first)
{
    unf_prefix *u = b->u;
    uint32_t n = b->out_start[t + 1] - b->out_start[t];
    if (u->nco + n >= UINT32_MAX - 2) {
        snprintf(b->why, b->whylen, "too many conditions");
        return -1;
    }
    if (grow(b, &u->co, &u->cap_co, u->nco + n, sizeof *u->co) < 0 ||
        grow(b, &b->live_of, &b->cap_live_of, u->nco + n, sizeof *b->live_of) < 0)
        return -1;
    *first = (uint32_t)u->nco;
    for (uint32_t i = 0; i < n; i++) {
        u->co[u->nco] = (unf_cond){b->out_place[b->out_start[t] + i], event};
        b->live_of[u->nco++] = UNF_NONE;
    }
    return 0;
}

static int add_event(builder *b, const pe_t *x)
{
    unf_prefix *u = b->u;
    if (u->nev >= UINT32_MAX - 2 || u->npre + x->npre >= UINT32_MAX) {
        snprintf(b->why, b->whylen, "too many events");
        return -1;
    }
    if (grow(b, &u->ev, &u->cap_ev, u->nev + 1, sizeof *u->ev) < 0 ||
        grow(b, &u->pre, &u->cap_pre, u->npre + x->npre, sizeof *u->pre) < 0)
        return -1;
    uint32_t e = (uint32_t)u->nev++;
    /* the extensions this event opens may hold it and every event before */
    if (config_room(b) < 0)
        return -1;
    unf_event *ev = &u->ev[e];
    *ev = (unf_event){x->trans, (uint32_t)u->npre, x->npre, 0, 0, x->depth, x->size,
                      UNF_NONE, 0};
    if (x->npre)   /* an event of a transition with an empty preset */
        memcpy(u->pre + u->npre, b->pe_pre + x->pre_off, x->npre * sizeof *u->pre);
    u->npre += x->npre;

    config_of(b, b->pe_pre + x->pre_off, x->npre);
    config_marking(b, x->trans, b->mscratch);
    int err = 0;
    uint32_t owner = mark_find_or_add(b, b->mscratch, e, &err);
    if (err)
        return -1;
    uint32_t first;
    if (add_conditions(b, e, x->trans, &first) < 0)
        return -1;
    ev = &u->ev[e];
    ev->post_start = first;
    ev->npost = (uint32_t)(u->nco - first);
    if (owner != UNF_NEW) {
        ev->cutoff = 1;
        ev->companion = owner;
        u->ncutoffs++;
        return 0;
    }
    /* the conditions concurrent with the whole preset */
    uint64_t *inter = b->inter;
    if (x->npre == 0) {
        memset(inter, 0, b->co_stride * sizeof *inter);
    } else {
        memcpy(inter, co_row(b, b->live_of[b->pe_pre[x->pre_off]]), b->co_stride * sizeof *inter);
        for (uint32_t i = 1; i < x->npre; i++) {
            const uint64_t *row = co_row(b, b->live_of[b->pe_pre[x->pre_off + i]]);
            for (size_t w = 0; w < b->co_stride; w++)
                inter[w] &= row[w];
        }
    }
    size_t old_stride = b->co_stride;
    if (co_room(b, b->nlive + ev->npost) < 0)
        return -1;
    if (b->co_stride != old_stride) {
        uint64_t *ni = realloc(b->inter, b->co_stride * sizeof *ni);
        if (!ni) {
            snprintf(b->why, b->whylen, "memory budget exhausted after %zu events", u->nev);
            return -1;
        }
        memset(ni + old_stride, 0, (b->co_stride - old_stride) * sizeof *ni);
        b->inter = inter = ni;
    }
    if (co_add(b, first, u->ev[e].npost, inter) < 0)
        return -1;
    return extensions_from(b, first, u->ev[e].npost);
}

/* ---- the whole construction ---- */

static int scratch(builder *b)
{
    const cnet_t *cn = b->u->cn;
    size_t P = cn->nplaces ? cn->nplaces : 1, T = cn->ntransitions ? cn->ntransitions : 1;
    size_t K = b->max_in ? b->max_in : 1;
    b->words = (cn->nplaces + 63) / 64;
    if (!b->words)
        b->words = 1;
    b->m0bits = calloc(b->words, sizeof *b->m0bits);
    b->mscratch = calloc(b->words, sizeof *b->mscratch);
    b->delta = calloc(P, sizeof *b->delta);
    b->touched = malloc(P * sizeof *b->touched);
    b->touched_mark = calloc(P, sizeof *b->touched_mark);
    b->place_mark = calloc(P, sizeof *b->place_mark);
    b->place_cond = calloc(P, sizeof *b->place_cond);
    b->trans_mark = calloc(T, sizeof *b->trans_mark);
    b->tcount = calloc(T, sizeof *b->tcount);
    b->tlist = malloc(T * sizeof *b->tlist);
    b->by_place = calloc(P, sizeof *b->by_place);
    b->slot_place = malloc(K * sizeof *b->slot_place);
    b->chosen = malloc(K * sizeof *b->chosen);
    b->pos = malloc(K * sizeof *b->pos);
    b->inter = calloc(1, sizeof *b->inter);
    b->touch_stamp = 1;
    return b->m0bits && b->mscratch && b->delta && b->touched && b->touched_mark &&
           b->place_mark && b->place_cond && b->trans_mark && b->tcount && b->tlist &&
           b->by_place && b->slot_place && b->chosen && b->pos && b->inter ? 0 : -1;
}

static void builder_free(builder *b)
{
    free(b->in_start);
    free(b->in_place);
    free(b->out_start);
    free(b->out_place);
    free(b->fires);
    free(b->m0bits);
    free(b->mscratch);
    free(b->delta);
    free(b->touched);
    free(b->touched_mark);
    free(b->place_mark);
    free(b->place_cond);
    free(b->trans_mark);
    free(b->tcount);
    free(b->tlist);
    if (b->by_place)
        for (uint32_t p = 0; p < b->u->cn->nplaces; p++)
            free(b->by_place[p].a);
    free(b->by_place);
    free(b->slot_place);
    free(b->chosen);
    free(b->pos);
    free(b->inter);
    free(b->co);
    free(b->live_of);
    free(b->marks);
    free(b->mark_owner);
    free(b->slots);
    free(b->heap);
    free(b->pe_pre);
    free(b->parikh);
    free(b->cfg);
    free(b->ev_mark);
    free(b->stack);
    free(b->seq1);
    free(b->seq2);
}

/* Who consumes each condition, for the encoding and the writer. */
static int consumers(unf_prefix *u)
{
    u->cons_start = calloc(u->nco + 1, sizeof *u->cons_start);
    u->cons = malloc((u->npre ? u->npre : 1) * sizeof *u->cons);
    if (!u->cons_start || !u->cons)
        return -1;
    for (size_t i = 0; i < u->npre; i++)
        u->cons_start[u->pre[i] + 1]++;
    for (size_t c = 0; c < u->nco; c++)
        u->cons_start[c + 1] += u->cons_start[c];
    uint32_t *fill = malloc((u->nco ? u->nco : 1) * sizeof *fill);
    if (!fill)
        return -1;
    memcpy(fill, u->cons_start, u->nco * sizeof *fill);
    for (size_t e = 0; e < u->nev; e++)
        for (uint32_t i = 0; i < u->ev[e].npre; i++)
            u->cons[fill[u->pre[u->ev[e].pre_start + i]]++] = (uint32_t)e;
    free(fill);
    return 0;
}

static int construct(builder *b)
{
    unf_prefix *u = b->u;
    const cnet_t *cn = u->cn;
    const check_options *opt = b->opt;
    if (net_view(b) < 0 || scratch(b) < 0) {
        snprintf(b->why, b->whylen, "memory budget exhausted");
        return -1;
    }
    uint32_t n0 = 0;
    for (uint32_t p = 0; p < cn->nplaces; p++) {
        if (!cn->initial[p])
            continue;
        b->m0bits[p >> 6] |= 1ull << (p & 63);
        if (grow(b, &u->co, &u->cap_co, u->nco + 1, sizeof *u->co) < 0 ||
            grow(b, &b->live_of, &b->cap_live_of, u->nco + 1, sizeof *b->live_of) < 0)
            return -1;
        u->co[u->nco] = (unf_cond){p, UNF_NONE};
        b->live_of[u->nco++] = UNF_NONE;
        n0++;
    }
    int err = 0;
    mark_find_or_add(b, b->m0bits, UNF_NONE, &err);
    if (err || config_room(b) < 0 || co_room(b, n0 ? n0 : 1) < 0)
        return -1;
    uint64_t *ni = realloc(b->inter, b->co_stride * sizeof *ni);
    if (!ni)
        return -1;
    b->inter = ni;
    if (co_add(b, 0, n0, NULL) < 0 || extensions_from(b, 0, n0) < 0)
        return -1;
    for (uint32_t t = 0; t < cn->ntransitions; t++)
        if (b->fires[t] && b->in_start[t + 1] == b->in_start[t] && pe_make(b, t, NULL, 0) < 0)
            return -1;

    progress pg;
    progress_start(&pg, opt, "unfold", "extensions", mono_now());
    while (b->nheap) {
        if (opt->max_states && u->nev >= opt->max_states) {
            snprintf(b->why, b->whylen, "event limit reached (%llu events)",
                     (unsigned long long)opt->max_states);
            return -1;
        }
        if ((u->nev & 63) == 0) {
            if (budget_expired(opt->budget)) {
                snprintf(b->why, b->whylen, "%s after %zu events",
                         *opt->budget->interrupted ? "interrupted" : "time limit reached",
                         u->nev);
                return -1;
            }
            progress_maybe(&pg, mono_now(), u->nev, u->nco, b->charged, b->nheap);
        }
        pe_t x = heap_pop(b);
        if (add_event(b, &x) < 0)
            return -1;
    }
    if (consumers(u) < 0) {
        snprintf(b->why, b->whylen, "memory budget exhausted");
        return -1;
    }
    return 0;
}

unf_prefix *unf_build(const cnet_t *cn, const check_options *opt, char *why, size_t whylen)
{
    double start = mono_now();
    unf_prefix *u = calloc(1, sizeof *u);
    if (!u) {
        snprintf(why, whylen, "memory budget exhausted");
        return NULL;
    }
    u->cn = cn;
    builder b;
    memset(&b, 0, sizeof b);
    b.u = u;
    b.opt = opt;
    b.limit = opt->budget->bytes;
    b.why = why;
    b.whylen = whylen;
    int rc = construct(&b);
    u->bytes = b.charged;
    builder_free(&b);
    if (rc < 0) {
        if (!why[0])
            snprintf(why, whylen, "memory budget exhausted");
        unf_free(u);
        return NULL;
    }
    u->seconds = mono_now() - start;
    return u;
}

void unf_free(unf_prefix *u)
{
    if (!u)
        return;
    free(u->ev);
    free(u->co);
    free(u->pre);
    free(u->cons_start);
    free(u->cons);
    free(u);
}

void unf_linearise(const unf_prefix *u, const uint32_t *events, size_t n, uint32_t *run)
{
    for (size_t i = 0; i < n; i++)
        run[i] = u->ev[events[i]].trans;
}
