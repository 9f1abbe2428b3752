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
 * configuration) has the same marking.
 *
 * The events built so far are a prefix of the unfolding at every moment
 * (causes come first), so a watch may look at them while they grow, and
 * a limit leaves them to the caller instead of nothing (prefix.h). */
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
    /* a place no transition that can fire needs is never part of a co-set
     * to extend: its conditions stay out of the concurrency relation */
    b->useful = calloc(cn->nplaces ? cn->nplaces : 1, 1);
    if (!b->useful)
        return -1;
    for (uint32_t t = 0; t < T; t++)
        if (b->fires[t])
            for (uint32_t i = b->in_start[t]; i < b->in_start[t + 1]; i++)
                b->useful[b->in_place[i]] = 1;
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

/* The earliest extension, taken out.  The hole at the top goes down to a
 * leaf along the earlier child, one comparison a level instead of two, and
 * the heap's last extension rises from there: it came from the bottom, so
 * it seldom rises far (Floyd's bottom-up heap).  The order is total on
 * local configurations, so the events come in the same order as with any
 * heap. */
static pe_t heap_pop(builder *b)
{
    pe_t top = b->heap[0];
    pe_t last = b->heap[--b->nheap];
    size_t n = b->nheap, i = 0;
    if (!n)
        return top;
    for (;;) {
        size_t l = 2 * i + 1;
        if (l >= n)
            break;
        size_t m = l + 1 < n && pe_before(b, &b->heap[l + 1], &b->heap[l]) ? l + 1 : l;
        b->heap[i] = b->heap[m];
        i = m;
    }
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!pe_before(b, &last, &b->heap[parent]))
            break;
        b->heap[i] = b->heap[parent];
        i = parent;
    }
    b->heap[i] = last;
    return top;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The pools of the queue (vectors, presets) keep what every extension
 * ever queued left there, since an extension only points into them: on
 * GPUForwardProgress-PT-12a the vectors' pool had grown to 1 GiB when the
 * queue was empty, and put the prefix 200 MB past its carve.  Each time
 * the vectors have doubled since the last compaction, the waiting
 * extensions' vectors and presets slide to the front, in the order they
 * lie in (so that each moves down only), and their offsets follow.  Only
 * where their offsets are stored changes: the order and the prefix stay. */
static void queue_compact(builder *b)
{
    size_t n = b->nheap;
    b->compacted = b->nparikh;
    /* a scratch of 8 bytes an extension, for a moment; none when the
     * budget has no room for it */
    if (!n || n > SIZE_MAX / sizeof(uint64_t) || n > UINT32_MAX ||
        b->charged + n * sizeof(uint64_t) > b->limit)
        return;
    uint64_t *order = malloc(n * sizeof *order);
    if (!order)
        return;
    for (size_t i = 0; i < n; i++)
        order[i] = (uint64_t)b->heap[i].parikh_off << 32 | i;
    qsort(order, n, sizeof *order, cmp_u64);
    size_t to = 0;
    for (size_t i = 0; i < n; i++) {
        pe_t *x = &b->heap[(uint32_t)order[i]];
        size_t len = parikh_bytes(b, x);
        memmove(b->parikh + to, b->parikh + x->parikh_off, len);
        x->parikh_off = (uint32_t)to;
        to += len;
    }
    b->nparikh = b->compacted = to;
    for (size_t i = 0; i < n; i++)
        order[i] = (uint64_t)b->heap[i].pre_off << 32 | i;
    qsort(order, n, sizeof *order, cmp_u64);
    to = 0;
    for (size_t i = 0; i < n; i++) {
        pe_t *x = &b->heap[(uint32_t)order[i]];
        if (x->npre)
            memmove(b->pe_pre + to, b->pe_pre + x->pre_off, x->npre * sizeof *b->pe_pre);
        x->pre_off = (uint32_t)to;
        to += x->npre;
    }
    b->npe_pre = to;
    free(order);
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
 * conditions with an explicit stack of positions.  Those are concurrent
 * with e•, so the candidates are b->inter's, by place (corel_candidates);
 * all of e•'s conditions share their relation with older ones, so a
 * candidate is tested against the other candidates chosen only. */
static int extend_with(builder *b, uint32_t t)
{
    uint32_t k = b->in_start[t + 1] - b->in_start[t];
    const uint32_t *places = b->in_place + b->in_start[t];
    uint32_t nfixed = 0, *slot = b->slot_place, *chosen = b->chosen, *pos = b->pos;
    for (uint32_t i = 0; i < k; i++)
        if (b->place_mark[places[i]] == b->place_stamp)
            chosen[nfixed] = b->place_cond[places[i]], slot[nfixed++] = places[i];
    for (uint32_t i = 0, j = nfixed; i < k; i++)
        if (b->place_mark[places[i]] != b->place_stamp) {
            if (b->cand_mark[places[i]] != b->cand_stamp)
                return 0;
            slot[j++] = places[i];
        }
    if (nfixed == k)
        return pe_make(b, t, chosen, k);
    uint32_t i = nfixed;
    pos[i] = 0;
    for (;;) {
        uint32_t p = slot[i], n = b->cand_n[p];
        const uint32_t *list = b->cand + b->cand_off[p];
        int found = 0;
        while (pos[i] < n) {
            uint32_t c = list[pos[i]++];
            int ok = 1;
            for (uint32_t j = nfixed; j < i && ok; j++)
                ok = corel_test(b, chosen[j], c);
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
    if (corel_candidates(b) < 0)
        return -1;
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
    if (corel_add_group(b, first, ev->npost, b->pe_pre + x->pre_off, x->npre) < 0)
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
    b->cand_mark = calloc(P, sizeof *b->cand_mark);
    b->cand_n = calloc(P, sizeof *b->cand_n);
    b->cand_off = calloc(P, sizeof *b->cand_off);
    b->cand_touched = malloc(P * sizeof *b->cand_touched);
    b->slot_place = malloc(K * sizeof *b->slot_place);
    b->chosen = malloc(K * sizeof *b->chosen);
    b->pos = malloc(K * sizeof *b->pos);
    b->touch_stamp = 1;
    return b->m0bits && b->mscratch && b->delta && b->touched && b->touched_mark &&
           b->place_mark && b->place_cond && b->trans_mark && b->tcount && b->tlist &&
           b->cand_mark && b->cand_n && b->cand_off && b->cand_touched && b->slot_place &&
           b->chosen && b->pos ? 0 : -1;
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
    free(b->slot_place);
    free(b->chosen);
    free(b->pos);
    corel_free(b);
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
int unf_consumers(unf_prefix *u)
{
    if (u->cons_start)
        return 0;
    u->cons_start = calloc(u->nco + 1, sizeof *u->cons_start);
    u->cons = malloc((u->npre ? u->npre : 1) * sizeof *u->cons);
    if (!u->cons_start || !u->cons) {
        free(u->cons_start);
        free(u->cons);
        u->cons_start = u->cons = NULL;
        return -1;
    }
    for (size_t i = 0; i < u->npre; i++)
        u->cons_start[u->pre[i] + 1]++;
    for (size_t c = 0; c < u->nco; c++)
        u->cons_start[c + 1] += u->cons_start[c];
    uint32_t *fill = malloc((u->nco ? u->nco : 1) * sizeof *fill);
    if (!fill) {
        free(u->cons_start);
        free(u->cons);
        u->cons_start = u->cons = NULL;
        return -1;
    }
    memcpy(fill, u->cons_start, u->nco * sizeof *fill);
    for (size_t e = 0; e < u->nev; e++)
        for (uint32_t i = 0; i < u->ev[e].npre; i++)
            u->cons[fill[u->pre[u->ev[e].pre_start + i]]++] = (uint32_t)e;
    free(fill);
    return 0;
}

unf_extent unf_extent_of(const unf_prefix *u)
{
    return (unf_extent){u->nev, u->nco, u->npre};
}

int unf_cut(unf_prefix *u, const unf_extent *whole, size_t k)
{
    if (k >= whole->nev) {
        k = whole->nev;
        u->nco = whole->nco;
        u->npre = whole->npre;
    } else {
        u->nco = u->ev[k].post_start;
        u->npre = u->ev[k].pre_start;
    }
    u->nev = k;
    free(u->cons_start);
    free(u->cons);
    u->cons_start = u->cons = NULL;
    return unf_consumers(u);
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
    if (err || config_room(b) < 0)
        return -1;
    if (corel_add_group(b, 0, n0, NULL, 0) < 0 || extensions_from(b, 0, n0) < 0)
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
        if (b->watch && u->nev >= b->next_look) {
            b->next_look = u->nev * 2;
            double now = mono_now();
            u->bytes = b->charged;
            u->seconds = now - b->start;
            /* a look encodes the whole partial prefix: at 65536 events of
             * a generated net it took 0.1 s where the construction had
             * taken 0.35 s, so half of it, a third of the whole at most */
            double seconds = UNF_LOOK_SHARE * (u->seconds - b->looking) - b->looking;
            if (b->watch->always)
                seconds = 0;
            int seen = (b->watch->always || seconds >= UNF_LOOK_LEAST_SECONDS) &&
                       b->watch->look(b->watch->ctx, u, seconds);
            b->looking += mono_now() - now;
            /* made here only when the look could not run in a process
             * of its own; the next events would leave them stale */
            free(u->cons_start);
            free(u->cons);
            u->cons_start = u->cons = NULL;
            if (seen) {
                snprintf(b->why, b->whylen, "answered from the first %zu events", u->nev);
                return -1;
            }
        }
        if (b->nparikh > 2 * b->compacted + (1u << 20))
            queue_compact(b);
        pe_t x = heap_pop(b);
        if (add_event(b, &x) < 0)
            return -1;
    }
    u->complete = 1;
    return 0;
}

/* -v: where the budget's bytes went, by part, in MiB of capacity. */
static void memory_report(const builder *b)
{
    const unf_prefix *u = b->u;
    double mib = 1024.0 * 1024.0;
    size_t prefix = u->cap_ev * sizeof *u->ev + u->cap_co * sizeof *u->co +
                    u->cap_pre * sizeof *u->pre;
    size_t earlier = b->cap_grp * sizeof *b->grp + b->cap_gword * sizeof *b->gword +
                     b->cap_gbits * sizeof *b->gbits;
    size_t later = b->cap_chunk * sizeof *b->chunk + b->cap_lbytes +
                   b->cap_later_head * sizeof *b->later_head +
                   b->cap_later_tail * sizeof *b->later_tail +
                   b->cap_later_word * sizeof *b->later_word +
                   b->cap_open_word * sizeof *b->open_word +
                   b->cap_open_bits * sizeof *b->open_bits +
                   b->cap_later_n * sizeof *b->later_n;
    size_t queue = b->cap_heap * sizeof *b->heap + b->cap_pe_pre * sizeof *b->pe_pre +
                   b->cap_parikh;
    size_t marks = b->cap_marks_words * sizeof *b->marks + b->nslots * sizeof *b->slots +
                   b->cap_mark_owner * sizeof *b->mark_owner;
    fprintf(stderr, "unfold: memory (MiB): prefix %.1f, relation earlier %.1f later %.1f "
            "(%zu live conditions), queue %.1f (%zu waiting: %.1f heap, %.1f Parikh), "
            "markings %.1f, all charged %.1f\n",
            prefix / mib, earlier / mib, later / mib, b->nlive, queue / mib, b->nheap,
            b->cap_heap * sizeof *b->heap / mib, b->cap_parikh / mib, marks / mib,
            b->charged / mib);
}

unf_prefix *unf_build_watched(const cnet_t *cn, const check_options *opt,
                              const unf_watch *watch, char *why, size_t whylen)
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
    b.watch = watch && watch->look ? watch : NULL;
    b.next_look = watch && watch->first ? watch->first : 1;
    b.start = start;
    int rc = construct(&b);
    u->bytes = b.charged;
    if (opt->verbose)
        memory_report(&b);
    /* the construction's memory goes first: what a limit left is then
     * all the prefix holds, and a look at it has the rest */
    builder_free(&b);
    if (rc < 0 && !why[0])
        snprintf(why, whylen, "memory budget exhausted");
    if (unf_consumers(u) < 0) {
        if (rc == 0)
            snprintf(why, whylen, "memory budget exhausted");
        unf_free(u);
        return NULL;
    }
    u->seconds = mono_now() - start;
    return u;
}

unf_prefix *unf_build(const cnet_t *cn, const check_options *opt, char *why, size_t whylen)
{
    unf_prefix *u = unf_build_watched(cn, opt, NULL, why, whylen);
    if (u && !u->complete) {
        unf_free(u);
        return NULL;
    }
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

size_t unf_bytes_held(const unf_prefix *u)
{
    return sizeof *u + u->cap_ev * sizeof *u->ev + u->cap_co * sizeof *u->co +
           u->cap_pre * sizeof *u->pre + (u->cons_start ? (u->nco + 1) * sizeof *u->cons_start : 0) +
           (u->cons ? (u->npre ? u->npre : 1) * sizeof *u->cons : 0);
}

uint32_t *unf_linearise(const unf_prefix *u, const uint32_t *events, size_t n)
{
    uint32_t *run = malloc((n ? n : 1) * sizeof *run);
    if (run)
        for (size_t i = 0; i < n; i++)
            run[i] = u->ev[events[i]].trans;
    return run;
}
