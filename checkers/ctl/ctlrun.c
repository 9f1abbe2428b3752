/* The run that shows a CTL value at the initial marking, read off the
 * model's bitsets.  Each temporal operator whose value has a run for
 * evidence gets one segment, from the state where it is due:
 *   E F ψ, E[φ U ψ] true; A G φ false   a shortest path (breadth-first,
 *                                       through φ-states for U) to a state
 *                                       of the goal;
 *   E G φ true; A F φ false             a walk inside the states of E G φ
 *                                       (of E G ¬φ) that ends in a deadlock
 *                                       or closes a loop;
 *   A[φ U ψ] false                      a walk inside the states where it
 *                                       fails, until φ fails too, a
 *                                       deadlock, or a loop (all without ψ);
 *   E X φ true; A X φ false             one step.
 * Each stays inside a set whose every state has the next step the walk
 * needs, by the fixpoint that defined it (ctl.c), so the walk cannot get
 * stuck.  Where a segment ends in a state (not a loop or a deadlock), the
 * operand it reached is due there, and the descent goes on into it: through
 * negations, and through the connectives by taking the operand that decides
 * (one that has a run of its own, if any), to the next temporal operator.
 * Every round goes one level down the formula, so there are at most as many
 * rounds as the formula is deep, and no recursion. */
#include "checkers/ctl/ctlint.h"

#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX

/* The label of an edge from s to t (one exists). */
static uint32_t label_to(const ctl_model *m, uint32_t s, uint32_t t)
{
    uint64_t end = ctl_succ_end(m, s);
    for (uint64_t e = ctl_succ_begin(m, s); e < end; e++)
        if (*bv_u32(&m->g->targets, e) == t)
            return *bv_u32(&m->g->labels, e);
    return NONE;
}

/* The run being put together, segment by segment. */
typedef struct evidence {
    uint32_t *run;
    size_t len, cap;
    size_t loop;               /* RESULT_NO_LOOP until a segment ends in a loop or deadlock */
    run_segment *segs;
    size_t nsegs, csegs;
} evidence;

/* Room for n more steps; -1 on no memory. */
static int room(evidence *ev, size_t n)
{
    if (n <= ev->cap - ev->len)
        return 0;
    if (ev->len > SIZE_MAX / 8 - n)
        return -1;
    size_t cap = 2 * (ev->len + n);
    uint32_t *r = realloc(ev->run, cap * sizeof *r);
    if (!r)
        return -1;
    ev->run = r;
    ev->cap = cap;
    return 0;
}

/* Breadth-first from `from` through states of `through` (NULL for all) to
 * a state of `goal`, appended to ev; *to is where it ends.  0, 1 when
 * there is none, -1 on no memory. */
static int path_to(ctl_model *m, uint32_t from, const uint64_t *through, const uint64_t *goal,
                   evidence *ev, uint32_t *to)
{
    uint32_t *parent = malloc((size_t)m->n * 4), *queue = malloc((size_t)m->n * 4);
    int rc = -1;
    if (!parent || !queue)
        goto out;
    memset(parent, 0xff, (size_t)m->n * 4);
    size_t head = 0, tail = 0;
    uint32_t found = NONE;
    parent[from] = from;
    queue[tail++] = from;
    while (head < tail && found == NONE) {
        uint32_t s = queue[head++];
        if (BIT(goal, s)) {
            found = s;
            break;
        }
        if (through && !BIT(through, s))
            continue;
        uint64_t end = ctl_succ_end(m, s);
        for (uint64_t e = ctl_succ_begin(m, s); e < end; e++) {
            uint32_t t = *bv_u32(&m->g->targets, e);
            if (parent[t] == NONE) {
                parent[t] = s;
                queue[tail++] = t;
            }
        }
    }
    if (found == NONE) {
        rc = 1;
        goto out;
    }
    size_t n = 0;
    for (uint32_t s = found; s != from; s = parent[s])
        n++;
    if (room(ev, n) < 0)
        goto out;
    size_t i = ev->len + n;
    for (uint32_t s = found; s != from; s = parent[s])
        ev->run[--i] = label_to(m, parent[s], s);
    ev->len += n;
    *to = found;
    rc = 0;
out:
    free(parent);
    free(queue);
    return rc;
}

/* A walk from `from` (which is in `inside`) through `inside`, appended to
 * ev: it ends at a state of `stop` (*to, and ev->loop stays unset), at a
 * deadlock (ev->loop = the run's length), or where it meets itself
 * (ev->loop = where the loop begins).  0, or -1 on no memory. */
static int walk(ctl_model *m, uint32_t from, const uint64_t *inside, const uint64_t *stop,
                evidence *ev, uint32_t *to)
{
    uint32_t *pos = malloc((size_t)m->n * 4);
    if (!pos || room(ev, (size_t)m->n) < 0) {
        free(pos);
        return -1;
    }
    memset(pos, 0xff, (size_t)m->n * 4);
    size_t base = ev->len, n = 0;   /* a walk visits each state once: n < m->n */
    uint32_t s = from;
    for (;;) {
        pos[s] = (uint32_t)n;
        if (stop && BIT(stop, s))
            break;
        uint64_t begin = ctl_succ_begin(m, s), end = ctl_succ_end(m, s), e = begin;
        if (begin == end) {
            ev->loop = base + n;
            break;
        }
        while (e < end && !BIT(inside, *bv_u32(&m->g->targets, e)))
            e++;
        if (e == end) {   /* cannot happen for the sets ctl.c computes */
            free(pos);
            return -1;
        }
        uint32_t t = *bv_u32(&m->g->targets, e);
        ev->run[base + n++] = *bv_u32(&m->g->labels, e);
        if (pos[t] != NONE) {
            ev->loop = base + pos[t];
            break;
        }
        s = t;
    }
    free(pos);
    ev->len = base + n;
    *to = s;
    return 0;
}

/* One step from `from` to a state of goal (it exists), appended to ev. */
static int step_to(ctl_model *m, uint32_t from, const uint64_t *goal, evidence *ev, uint32_t *to)
{
    uint64_t end = ctl_succ_end(m, from);
    for (uint64_t e = ctl_succ_begin(m, from); e < end; e++)
        if (BIT(goal, *bv_u32(&m->g->targets, e))) {
            if (room(ev, 1) < 0)
                return -1;
            ev->run[ev->len++] = *bv_u32(&m->g->labels, e);
            *to = *bv_u32(&m->g->targets, e);
            return 0;
        }
    return 1;
}

/* Whether f with value v has a run of its own for evidence. */
static int has_run(const tree_t *f, int v)
{
    while (f->op == T_NOT) {
        f = f->l;
        v = !v;
    }
    switch (f->op) {
    case T_EX: case T_EF: case T_EU: case T_EG:
        return v;
    case T_AX: case T_AF: case T_AU: case T_AG:
        return !v;
    default:
        return 0;
    }
}

/* The value of f at state s: 1, 0, or -1 (gave_up set). */
static int value_at(ctl_model *m, const tree_t *f, uint32_t s)
{
    uint64_t *b = ctl_eval(m, f);
    if (!b)
        return -1;
    int v = BIT(b, s) != 0;
    ctl_bits_free(m, b);
    return v;
}

/* Of two operands (values lv, rv; l_due, r_due: whether each decides),
 * the one the descent follows into *f, *v: one with a run of its own,
 * else one that is no state formula (a run may lie deeper), else the
 * first that decides. */
static void pick(const tree_t *l, int lv, int l_due, const tree_t *r, int rv, int r_due,
                 const tree_t **f, int *v)
{
    int take_r = !l_due ||
                 (r_due && ((has_run(r, rv) && !has_run(l, lv)) ||
                            (!has_run(l, lv) && tree_is_state_formula(l) &&
                             !tree_is_state_formula(r))));
    *f = take_r ? r : l;
    *v = take_r ? rv : lv;
}

/* Where a connective's value v at s comes from: the operands that must
 * have their value for it (both when both are needed, else those that
 * decide), with that value.  *f and *v become the one to follow (pick).
 * 0, or -1 when evaluation gave up. */
static int decide(ctl_model *m, const tree_t **f, int *v, uint32_t s)
{
    const tree_t *g = *f;
    int lv = value_at(m, g->l, s), rv = value_at(m, g->r, s);
    if (lv < 0 || rv < 0)
        return -1;
    /* which operands decide g's value v */
    int l_decides, r_decides;
    switch (g->op) {
    case T_AND:   /* true: both needed; false: a false one */
        l_decides = *v || !lv;
        r_decides = *v || !rv;
        break;
    case T_OR:    /* true: a true one; false: both needed */
        l_decides = !*v || lv;
        r_decides = !*v || rv;
        break;
    case T_IMPLIES:   /* !l | r */
        l_decides = !*v || !lv;
        r_decides = !*v || rv;
        break;
    default:      /* T_IFF: both, always */
        l_decides = r_decides = 1;
        break;
    }
    pick(g->l, lv, l_decides, g->r, rv, r_decides, f, v);
    return 0;
}

static void name_segment(run_segment *seg, const tree_t *f, int v)
{
    char *text = tree_to_string(f);
    const char *shown = text ? text : "?";
    size_t n = strlen(shown), room_for = sizeof seg->formula;
    if (n < room_for)
        memcpy(seg->formula, shown, n + 1);
    else {
        memcpy(seg->formula, shown, room_for - 4);
        memcpy(seg->formula + room_for - 4, "...", 4);
    }
    seg->holds = v;
    free(text);
}

/* One segment for f (temporal, with a run for its value at *s) appended to ev.
 * *next is the operand due at the state *s the segment ends in, with its
 * value in *nv; NULL when the segment ended in a loop or deadlock.  0, or
 * -1 on no memory or when evaluation gave up. */
static int segment(ctl_model *m, const tree_t *f, evidence *ev, uint32_t *s,
                   const tree_t **next, int *nv)
{
    uint64_t *phi = ctl_eval(m, f->l), *psi = NULL, *whole = NULL;
    int rc = -1;
    *next = NULL;
    if (!phi)
        goto out;
    switch (f->op) {
    case T_EX:
    case T_EF:
        rc = f->op == T_EX ? step_to(m, *s, phi, ev, s) : path_to(m, *s, NULL, phi, ev, s);
        *next = f->l, *nv = 1;
        break;
    case T_AX:
    case T_AG:
        ctl_bits_complement(m, phi);
        rc = f->op == T_AX ? step_to(m, *s, phi, ev, s) : path_to(m, *s, NULL, phi, ev, s);
        *next = f->l, *nv = 0;
        break;
    case T_EU:
        if ((psi = ctl_eval(m, f->r)))
            rc = path_to(m, *s, phi, psi, ev, s);
        *next = f->r, *nv = 1;
        break;
    case T_EG:
    case T_AF:
        if (!(whole = ctl_eval(m, f)))
            break;
        if (f->op == T_AF)   /* where A F φ fails, E G ¬φ holds */
            ctl_bits_complement(m, whole);
        rc = walk(m, *s, whole, NULL, ev, s);
        break;
    case T_AU:
        /* where A[φ U ψ] fails (and so ψ does), φ failing too ends it; at
         * that end both fail, and the descent picks one as for ¬φ ∧ ¬ψ */
        if (!(whole = ctl_eval(m, f)))
            break;
        ctl_bits_complement(m, whole);
        ctl_bits_complement(m, phi);
        rc = walk(m, *s, whole, phi, ev, s);
        pick(f->l, 0, 1, f->r, 0, 1, next, nv);
        break;
    default:
        rc = 1;
    }
    if (rc == 1)   /* the fixpoint promised a target: a broken model */
        rc = -1;
    if (ev->loop != RESULT_NO_LOOP)
        *next = NULL;
out:
    ctl_bits_free(m, phi);
    ctl_bits_free(m, psi);
    ctl_bits_free(m, whole);
    return rc;
}

int ctl_model_evidence(ctl_model *m, const tree_t *f, int value, result_t *res)
{
    /* the run shows why the whole formula has its value: it witnesses a
     * YES and is a counterexample to a NO, whatever negations stand above
     * the operators it follows */
    run_role role = value ? RUN_WITNESS : RUN_COUNTEREXAMPLE;
    evidence ev = {NULL, 0, 0, RESULT_NO_LOOP, NULL, 0, 0};
    uint32_t s = 0;
    int rc = 0;
    while (f && rc == 0) {
        if (f->op == T_NOT) {
            value = !value;
            f = f->l;
            continue;
        }
        if (f->op == T_AND || f->op == T_OR || f->op == T_IMPLIES || f->op == T_IFF) {
            rc = decide(m, &f, &value, s);
            continue;
        }
        if (!has_run(f, value))
            break;
        if (ev.nsegs == ev.csegs) {
            size_t c = ev.csegs ? 2 * ev.csegs : 4;
            run_segment *g = realloc(ev.segs, c * sizeof *g);
            if (!g) {
                rc = -1;
                break;
            }
            ev.segs = g;
            ev.csegs = c;
        }
        run_segment *seg = &ev.segs[ev.nsegs++];
        seg->start = ev.len;
        name_segment(seg, f, value);
        rc = segment(m, f, &ev, &s, &f, &value);
    }
    if (rc == 0 && ev.nsegs == 0)
        rc = 1;
    if (rc == 0 && result_set_run(res, role, ev.run, ev.len, ev.loop) < 0)
        rc = -1;
    if (rc == 0 && result_set_segments(res, ev.segs, ev.nsegs) < 0)
        rc = -1;
    free(ev.run);
    free(ev.segs);
    return rc;
}

void ctl_run(const cnet_t *cn, const tree_t *formula, const check_options *opt, result_t *res)
{
    double start = mono_now();
    int stopped;
    result_add_technique(res, "EXPLICIT");
    ctl_model *m = ctl_model_build(cn, &formula, 1, opt, NULL, NULL, &stopped, res);
    if (m) {
        char why[128];
        int v = ctl_model_check(m, formula, why, sizeof why);
        if (v < 0) {
            result_unknown(res, why);
        } else {
            res->answer = v ? ANSWER_YES : ANSWER_NO;
            /* without memory for the run, the answer stands alone */
            if (opt->want_run)
                (void)ctl_model_evidence(m, formula, v, res);
        }
        ctl_model_free(m);
    } else if (strstr(res->reason, "memory")) {
        /* the graph did not fit: the local check may still need only part
         * of the state space (a run only for one operator over state
         * formulas), by the same deadline */
        char why[128];
        ctl_local_stats stats = {0, 0};
        int v = ctl_local_check(cn, formula, opt, &stats, opt->want_run ? res : NULL, why,
                                sizeof why);
        if (v >= 0) {
            res->answer = v ? ANSWER_YES : ANSWER_NO;
            res->reason[0] = '\0';
            res->states = stats.states;
        }
    }
    res->seconds = mono_now() - start;
}
