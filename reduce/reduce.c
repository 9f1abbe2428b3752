/* The reduction's driver: the working net from the compiled one, the
 * rules to a fixed point, and the reduced net_t with its maps back. */
#include "lp/lpguard.h"
#include "work.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct reduction {
    net_t *net;
    uint32_t *place_map, *trans_map;   /* original -> reduced */
    size_t orig_places, orig_trans;
    uint32_t *seq_start, *seq;         /* reduced transition -> original run */
    uint32_t *init_seq;                /* fired before the reduced net starts */
    size_t init_len;
    reduce_stats stats;
};

/* A bound on the passes: each pass of a rule that changes something
 * removes a node, so this only guards against a rule that would keep
 * rewriting without progress. */
#define MAX_ROUNDS 1000u

/* ---- what a formula observes ---- */

static void observe(const tree_t *t, int negated, reduce_observed *obs, uint32_t np,
                    uint32_t nt)
{
    if (!t)
        return;
    switch (t->op) {
    case T_DEADLOCK:
        obs->deadlock = 1;
        if (negated)
            obs->deadlock_negated = 1;
        return;
    case T_X:
    case T_EX:
    case T_AX:
        obs->next = 1;
        observe(t->l, negated, obs, np, nt);
        return;
    case T_ACTION:   /* which transition each step is: every step is seen */
        obs->next = 1;
        /* fall through */
    case T_FIREABLE:
        for (uint32_t i = 0; i < t->n; i++)
            if (t->items[i] < nt)
                obs->transition[t->items[i]] = 1;
        return;
    case T_BOUND:
        for (uint32_t i = 0; i < t->n; i++)
            if (t->items[i] < np)
                obs->place[t->items[i]] = 1;
        return;
    case T_CMP:
        for (uint32_t i = 0; i < t->nterms; i++)
            if (t->terms[i].place < np)
                obs->place[t->terms[i].place] = 1;
        return;
    case T_NOT:
        observe(t->l, !negated, obs, np, nt);
        return;
    case T_IMPLIES:
        observe(t->l, !negated, obs, np, nt);
        observe(t->r, negated, obs, np, nt);
        return;
    case T_IFF:   /* both sides occur in both polarities */
        observe(t->l, 0, obs, np, nt);
        observe(t->l, 1, obs, np, nt);
        observe(t->r, 0, obs, np, nt);
        observe(t->r, 1, obs, np, nt);
        return;
    default:
        observe(t->l, negated, obs, np, nt);
        observe(t->r, negated, obs, np, nt);
        return;
    }
}

int reduce_observe(const cnet_t *cn, const tree_t *f, reduce_observed *obs)
{
    memset(obs, 0, sizeof *obs);
    obs->place = calloc((size_t)cn->nplaces + 1, 1);
    obs->transition = calloc((size_t)cn->ntransitions + 1, 1);
    if (!obs->place || !obs->transition) {
        reduce_observed_free(obs);
        return -1;
    }
    observe(f, 0, obs, cn->nplaces, cn->ntransitions);
    return 0;
}

void reduce_observe_add(reduce_observed *obs, const cnet_t *cn, const tree_t *f, int negated)
{
    observe(f, negated, obs, cn->nplaces, cn->ntransitions);
}

void reduce_observed_free(reduce_observed *obs)
{
    free(obs->place);
    free(obs->transition);
    memset(obs, 0, sizeof *obs);
}

/* ---- the working net ---- */

static int by_place(const void *a, const void *b)
{
    const rw_entry *x = a, *y = b;
    return x->place < y->place ? -1 : x->place > y->place;
}

static void rw_free(rw_net *w)
{
    if (w->t)
        for (uint32_t t = 0; t < w->nt; t++) {
            free(w->t[t].e);
            free(w->t[t].seq);
        }
    free(w->t);
    free(w->p);
    free(w->init_seq);
}

static int rw_load(rw_net *w, const cnet_t *cn, const reduce_observed *obs)
{
    memset(w, 0, sizeof *w);
    w->np = cn->nplaces;
    w->nt = cn->ntransitions;
    w->keep_sequences = obs->deadlock_negated || obs->next ||
                        (obs->branching && obs->deadlock);
    w->lassos = obs->lassos;
    w->p = calloc((size_t)w->np + 1, sizeof *w->p);
    w->t = calloc((size_t)w->nt + 1, sizeof *w->t);
    if (!w->p || !w->t)
        return -1;
    for (uint32_t p = 0; p < w->np; p++)
        w->p[p] = (rw_place){cn->initial[p], 1, obs->place[p], 0};
    for (uint32_t t = 0; t < w->nt; t++) {
        rw_trans *tr = &w->t[t];
        uint32_t nn = cn->need_start[t + 1] - cn->need_start[t];
        uint32_t ne = cn->eff_start[t + 1] - cn->eff_start[t];
        tr->e = malloc(((size_t)nn + ne + 1) * sizeof *tr->e);
        tr->seq = malloc(sizeof *tr->seq);
        if (!tr->e || !tr->seq)
            return -1;
        tr->seq[0] = t;
        tr->seqlen = 1;
        tr->alive = 1;
        tr->observed = obs->transition[t];
        uint32_t n = 0;
        for (uint32_t i = cn->need_start[t]; i < cn->need_start[t + 1]; i++)
            tr->e[n++] = (rw_entry){cn->need_place[i], cn->need_weight[i], 0};
        qsort(tr->e, n, sizeof *tr->e, by_place);
        uint32_t needs = n;
        for (uint32_t i = cn->eff_start[t]; i < cn->eff_start[t + 1]; i++) {
            tr->n = needs;
            rw_entry *e = rw_find(tr, cn->eff_place[i]);
            if (e)
                e->eff = cn->eff_delta[i];
            else
                tr->e[n++] = (rw_entry){cn->eff_place[i], 0, cn->eff_delta[i]};
        }
        qsort(tr->e, n, sizeof *tr->e, by_place);
        tr->n = tr->cap = n;
        if (tr->observed)
            for (uint32_t i = 0; i < n; i++)
                if (tr->e[i].need)
                    w->p[tr->e[i].place].visible = 1;
    }
    return 0;
}

static int rw_reduce(rw_net *w)
{
    /* the cheap rules first; the linear programs only when they are stuck */
    long (*const rules[])(rw_net *) = {rw_dead_transitions, rw_constant_places,
                                       rw_sink_places, rw_parallel_places,
                                       rw_duplicate_transitions, rw_free_sequences};
    for (unsigned round = 0; round < MAX_ROUNDS; round++) {
        long changed = 0;
        for (size_t i = 0; i < sizeof rules / sizeof rules[0] && !rw_stop(w); i++) {
            long n = rules[i](w);
            if (n < 0)
                return -1;
            changed += n;
        }
        w->stats.rounds = round + 1;
        if (rw_stop(w))
            break;
        if (!changed) {
            long n = rw_implicit_places(w);
            if (n < 0)
                return -1;
            if (!n)
                break;
        }
    }
    return 0;
}

/* ---- the reduced net ---- */

/* Less than this share of the places and of the transitions removed, and
 * building and compiling a second net (as large as the first) costs more
 * than the search saves. */
#define WORTH_SHARE 0.05

static int worth_building(const rw_net *w, const reduce_observed *obs)
{
    size_t places = 0, trans = 0;
    for (uint32_t p = 0; p < w->np; p++)
        places += w->p[p].alive;
    for (uint32_t t = 0; t < w->nt; t++)
        trans += w->t[t].alive && w->t[t].seqlen == 1;
    if (obs->any_removal)
        return places < w->np || trans < w->nt;
    return (double)(w->np - places) > WORTH_SHARE * w->np ||
           (double)(w->nt - trans) > WORTH_SHARE * w->nt;
}

static int add_arcs(net_t *net, uint32_t t, const rw_trans *tr, const uint32_t *place_map)
{
    for (uint32_t i = 0; i < tr->n; i++) {
        const rw_entry *e = &tr->e[i];
        uint32_t p = place_map[e->place];
        nc_count consume = e->eff < 0 ? (nc_count)-e->eff : 0;
        nc_count produce = e->eff > 0 ? (nc_count)e->eff : 0;
        if ((consume && nc_create_arc(net, NC_ARC_PT, p, t, consume, 0) < 0) ||
            (produce && nc_create_arc(net, NC_ARC_TP, p, t, produce, 0) < 0) ||
            (e->need > consume && nc_create_arc(net, NC_ARC_READ, p, t, e->need, 0) < 0))
            return -1;
    }
    return 0;
}

static int build_net(reduction *r, const rw_net *w, const net_t *orig)
{
    r->net = nc_create_net(orig->name ? orig->name : "reduced", orig->file);
    r->place_map = malloc(((size_t)w->np + 1) * sizeof *r->place_map);
    r->trans_map = malloc(((size_t)w->nt + 1) * sizeof *r->trans_map);
    r->seq_start = malloc(((size_t)w->nt + 1) * sizeof *r->seq_start);
    size_t total = 0;
    for (uint32_t t = 0; t < w->nt; t++)
        if (w->t[t].alive)
            total += w->t[t].seqlen;
    r->seq = malloc((total + 1) * sizeof *r->seq);
    if (!r->net || !r->place_map || !r->trans_map || !r->seq_start || !r->seq)
        return -1;
    r->net->language = orig->language;
    for (uint32_t p = 0; p < w->np; p++) {
        r->place_map[p] = REDUCE_NONE;
        if (!w->p[p].alive)
            continue;
        int i = nc_create_place(r->net, orig->places[p].id, orig->places[p].name,
                                w->p[p].initial);
        if (i < 0)
            return -1;
        r->place_map[p] = (uint32_t)i;
    }
    uint32_t nt = 0;
    size_t used = 0;
    for (uint32_t t = 0; t < w->nt; t++) {
        r->trans_map[t] = REDUCE_NONE;
        const rw_trans *tr = &w->t[t];
        if (!tr->alive)
            continue;
        /* a fused transition has no id of its own in the user's model */
        int single = tr->seqlen == 1 && tr->seq[0] == t;
        int i = single ? nc_create_transition(r->net, orig->transitions[t].id,
                                              orig->transitions[t].name)
                       : nc_create_transition(r->net, NULL, NULL);
        if (i < 0 || add_arcs(r->net, (uint32_t)i, tr, r->place_map) < 0)
            return -1;
        /* an observed producer fused with what follows it is enabled
         * exactly when it was (rules.c, free sequences): its fireability
         * is the fused transition's */
        if (single || tr->observed)
            r->trans_map[t] = (uint32_t)i;
        r->seq_start[nt++] = (uint32_t)used;
        memcpy(r->seq + used, tr->seq, (size_t)tr->seqlen * sizeof *r->seq);
        used += tr->seqlen;
    }
    r->seq_start[nt] = (uint32_t)used;
    if (w->init_len) {
        if (!(r->init_seq = malloc((size_t)w->init_len * sizeof *r->init_seq)))
            return -1;
        memcpy(r->init_seq, w->init_seq, (size_t)w->init_len * sizeof *r->init_seq);
        r->init_len = w->init_len;
    }
    return 0;
}

int reduce_keeps_ltl(const tree_t *f)
{
    if (!f)
        return 1;
    if (f->op == T_X || f->op == T_DEADLOCK || f->op == T_ACTION)
        return 0;
    return reduce_keeps_ltl(f->l) && reduce_keeps_ltl(f->r);
}

reduction *reduce_build(const cnet_t *cn, const reduce_observed *obs, const budget_t *budget)
{
    reduction *r = calloc(1, sizeof *r);
    rw_net w;
    int loaded = r && rw_load(&w, cn, obs) == 0;
    if (loaded) {
        /* budget.h's clock and lpg_now are the same monotonic seconds */
        w.until = budget->deadline ? budget->deadline : HUGE_VAL;
        w.interrupted = budget->interrupted;
    }
    if (!loaded || rw_reduce(&w) < 0 ||
        (worth_building(&w, obs) && build_net(r, &w, cn->net) < 0)) {
        nc_error(cn->net->file, 0, "out of memory while reducing the net");
        if (r)
            rw_free(&w);
        reduce_free(r);
        return NULL;
    }
    r->orig_places = w.np;
    r->orig_trans = w.nt;
    r->stats = w.stats;
    rw_free(&w);
    return r;
}

void reduce_free(reduction *r)
{
    if (!r)
        return;
    if (r->net)
        nc_free_net(r->net);
    free(r->place_map);
    free(r->trans_map);
    free(r->seq_start);
    free(r->seq);
    free(r->init_seq);
    free(r);
}

net_t *reduce_net(reduction *r)
{
    return r->net;
}

const reduce_stats *reduce_statistics(const reduction *r)
{
    return &r->stats;
}

uint32_t reduce_place(const reduction *r, uint32_t place)
{
    if (!r->net)
        return place;
    return place < r->orig_places ? r->place_map[place] : REDUCE_NONE;
}

uint32_t reduce_transition(const reduction *r, uint32_t transition)
{
    if (!r->net)
        return transition;
    return transition < r->orig_trans ? r->trans_map[transition] : REDUCE_NONE;
}

/* An atom keeps its own words: one without source text gets the text it
 * printed as in the given net, where the indices were the user's, so
 * that what prints it (a CTL run's parts) names the same places. */
static int keep_words(tree_t *t)
{
    if (t->text)
        return 0;
    char *words = tree_to_string(t);
    int rc = words ? tree_set_text(t, words) : -1;
    free(words);
    return rc;
}

static int rename_nodes(const reduction *r, tree_t *t)
{
    if (!t)
        return 0;
    switch (t->op) {
    case T_FIREABLE:
    case T_ACTION:
        if (r->net && keep_words(t) < 0)
            return -1;
        for (uint32_t i = 0; i < t->n; i++)
            t->items[i] = reduce_transition(r, t->items[i]);
        break;
    case T_BOUND:
        if (r->net && keep_words(t) < 0)
            return -1;
        for (uint32_t i = 0; i < t->n; i++)
            t->items[i] = reduce_place(r, t->items[i]);
        break;
    case T_CMP:
        if (r->net && keep_words(t) < 0)
            return -1;
        for (uint32_t i = 0; i < t->nterms; i++)
            t->terms[i].place = reduce_place(r, t->terms[i].place);
        break;
    default:
        break;
    }
    return rename_nodes(r, t->l) < 0 ? -1 : rename_nodes(r, t->r);
}

tree_t *reduce_formula(const reduction *r, const tree_t *f)
{
    tree_t *copy = tree_copy(f);
    if (copy && rename_nodes(r, copy) < 0) {
        tree_free(copy);
        return NULL;
    }
    return copy;
}

int reduce_map_run(const reduction *r, const uint32_t *run, size_t len, uint32_t **out,
                   size_t *outlen, size_t *loop)
{
    if (!r->net) {
        *out = malloc((len + 1) * sizeof **out);
        if (!*out)
            return -1;
        if (len)
            memcpy(*out, run, len * sizeof **out);
        *outlen = len;
        return 0;
    }
    size_t total = r->init_len, nt = r->net->ntransitions;
    for (size_t i = 0; i < len; i++)
        if (run[i] < nt)
            total += r->seq_start[run[i] + 1] - r->seq_start[run[i]];
    *out = malloc((total + 1) * sizeof **out);
    if (!*out)
        return -1;
    /* the steps that lead the given net to the reduced one's start come
     * first; a loop from the start closes after them */
    size_t n = r->init_len, newloop = loop ? *loop : 0;
    if (n)
        memcpy(*out, r->init_seq, n * sizeof **out);
    for (size_t i = 0; i < len; i++) {
        if (loop && i == *loop)
            newloop = n;
        if (run[i] >= nt)
            continue;
        for (uint32_t j = r->seq_start[run[i]]; j < r->seq_start[run[i] + 1]; j++)
            (*out)[n++] = r->seq[j];
    }
    if (loop && *loop == len)
        newloop = n;
    if (loop)
        *loop = newloop;
    *outlen = n;
    return 0;
}

size_t reduce_map_index(const reduction *r, const uint32_t *run, size_t len, size_t pos)
{
    if (!r->net)
        return pos;
    /* a part due at the start begins before the steps that lead to the
     * reduced net's start: they change nothing it observes */
    if (pos == 0)
        return 0;
    size_t n = r->init_len, nt = r->net->ntransitions;
    for (size_t i = 0; i < len && i < pos; i++)
        if (run[i] < nt)
            n += r->seq_start[run[i] + 1] - r->seq_start[run[i]];
    return n;
}
