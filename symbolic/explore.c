/* The reachable set: chaining or breadth-first images to the fixpoint or
 * to the first goal marking, and the check of the proven widths on it. */
#include "symbolic/symint.h"

#include <stdio.h>

/* A reachable marking where some transition would pass a block's width:
 * the bounds the layout came from were wrong, and every answer with them. */
static int check_widths(sym_t *s)
{
    for (uint32_t t = 0; t < s->cn->ntransitions; t++) {
        BDD x = o_and(s->reach, s->tr[t].ovf);
        int bad = x != bdd_false();
        drop(x);
        if (bad) {
            snprintf(s->reason, sizeof s->reason,
                     "symbolic: transition %u passes a place's proven bound", t);
            return -1;
        }
        if (sym_stop(s))
            return -1;
    }
    return 0;
}

static sym_status bfs(sym_t *s)
{
    BDD front = bdd_addref(s->init);
    for (;;) {
        if (sym_hits(s, front)) {
            drop(front);
            return SYM_FOUND;
        }
        BDD next = bdd_addref(bdd_false());
        for (uint32_t i = 0; i < s->nmoving; i++) {
            or_take(&next, sym_image(s, front, s->order[i]));
            if (sym_stop(s))
                break;
        }
        drop(front);
        front = o_diff(next, s->reach);
        drop(next);
        or_in(&s->reach, front);
        if (sym_stop(s)) {
            drop(front);
            return SYM_GAVE_UP;
        }
        if (front == bdd_false())
            break;
    }
    drop(front);
    return SYM_DONE;
}

/* Chaining fires a transition by its closure (closure.c) once it has
 * added markings in s->closure_after rounds of its group in a row: where
 * a transition fires many times in a row (a place of 8192 tokens emptied
 * one at a time) a closure saves thousands of images of the whole set,
 * where it fires a few times it can cost more than it saves.  Measured
 * (bench/symbolic.sh 30): SmallOperatingSystem-PT-MT8192DC4096 took
 * 0.28 s with closures from the start, 1.05 s after 32 rounds, and gave
 * no answer in 30 s without them; FMS-PT-00020 (places of at most 20
 * tokens) 0.98 s without them, 0.97 s after 32 rounds, and no answer in
 * 30 s with them from the start. */
static sym_status chain(sym_t *s)
{
    int changed = 1;
    while (changed) {
        changed = 0;
        for (uint32_t g = 0; g < s->nmoving;) {
            uint32_t end = g;
            while (end < s->nmoving && s->tr[s->order[end]].top == s->tr[s->order[g]].top)
                end++;
            int grew = 1, any = 0;
            while (grew) {
                grew = 0;
                for (uint32_t i = g; i < end; i++) {
                    uint32_t t = s->order[i];
                    trel *r = &s->tr[t];
                    if (r->star == bdd_false() && r->streak >= s->closure_after &&
                        sym_make_closure(s, t) < 0)
                        return SYM_GAVE_UP;
                    BDD img = r->star != bdd_false() ? sym_image_star(s, s->reach, t)
                                                     : sym_image(s, s->reach, t);
                    BDD more = o_or(s->reach, img);
                    drop(img);
                    if (more != s->reach) {
                        grew = any = changed = 1;
                        r->streak++;
                    } else {
                        r->streak = 0;
                    }
                    drop(s->reach);
                    s->reach = more;
                    if (sym_stop(s))
                        return SYM_GAVE_UP;
                }
            }
            if (any && s->goal_kind == GOAL_SET && sym_hits(s, s->reach))
                return SYM_FOUND;
            g = end;
        }
        if (changed && s->goal_kind == GOAL_DEAD && sym_hits(s, s->reach))
            return SYM_FOUND;
        if (sym_stop(s))
            return SYM_GAVE_UP;
    }
    return SYM_DONE;
}

sym_status sym_explore(sym_t *s, sym_strategy how)
{
    drop(s->reach);
    s->reach = bdd_addref(s->init);
    s->reached = 0;
    if (sym_stop(s))
        return SYM_GAVE_UP;
    if (sym_hits(s, s->reach))
        return SYM_FOUND;
    /* one image of a large set can run many seconds past the clock
     * (HouseConstruction-PT-00050: 11 s past a limit of 45): the guard
     * stops it at a garbage collection (0.97 s past) */
    jmp_buf stopped;
    if (setjmp(stopped)) {
        sym_unguard();
        return SYM_GAVE_UP;
    }
    sym_guard(s, &stopped);
    sym_status st = how == SYM_BFS ? bfs(s) : chain(s);
    sym_unguard();
    if (st == SYM_DONE && check_widths(s) < 0)
        return SYM_GAVE_UP;
    if (st != SYM_GAVE_UP && sym_failed(s))
        return SYM_GAVE_UP;
    s->reached = st == SYM_DONE;
    return st;
}
