/* The deciders' table, the bookkeeping of a property's partial knowledge,
 * and the loop that runs the pre-pass. */
#include "mcc/prepass.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const mcc_decider_row mcc_deciders[] = {
    {"initial marking", mcc_decide_initial},
    {"structure", mcc_decide_topological},
    {"state equation", mcc_decide_state_equation},
    {"random walk", mcc_decide_random_walk},
    {"unfolding", mcc_decide_unfolding},
    {NULL, NULL},
};

/* "SEQUENTIAL_PROCESSING a b", b left out when it repeats a. */
static void techniques(char *buf, size_t len, const char *a, const char *b)
{
    if (b && a && strcmp(a, b))
        snprintf(buf, len, "SEQUENTIAL_PROCESSING %s %s", a, b);
    else
        snprintf(buf, len, "SEQUENTIAL_PROCESSING %s", a ? a : b);
}

void mcc_query_settle_shown(mcc_query *q, int value, const char *words, const mcc_evidence *ev)
{
    char buf[160];
    if (q->decided)
        return;
    techniques(buf, sizeof buf, words, NULL);
    mcc_answer_bool_shown(q->id, value, buf, ev);
    q->decided = 1;
}

void mcc_query_settle(mcc_query *q, int value, const char *words)
{
    mcc_query_settle_shown(q, value, words, NULL);
}

static void meet(mcc_query *q)
{
    char buf[160];
    if (q->decided || q->lower < q->upper)
        return;
    q->decided = 1;
    if (q->lower > q->upper) {
        fprintf(stderr, "mck mcc: internal error: %s: attained value above a proven bound; "
                        "left unanswered\n", q->id);
        return;
    }
    techniques(buf, sizeof buf, q->lower_words, q->upper_words);
    mcc_answer_count(q->id, q->lower, buf);
}

void mcc_query_lower(mcc_query *q, mcc_u128 attained, const char *words)
{
    if (q->decided || attained < q->lower || (attained == q->lower && q->lower_words))
        return;
    q->lower = attained;
    q->lower_words = words;
    meet(q);
}

void mcc_query_upper(mcc_query *q, mcc_u128 bound, const char *words)
{
    if (q->decided || bound >= q->upper)
        return;
    q->upper = bound;
    q->upper_words = words;
    meet(q);
}

void mcc_query_exhausted(mcc_query *q, const char *words)
{
    char buf[160];
    if (q->decided)
        return;
    q->decided = 1;
    if (q->lower > q->upper) {
        fprintf(stderr, "mck mcc: internal error: %s: maximum above a proven bound; "
                        "left unanswered\n", q->id);
        return;
    }
    techniques(buf, sizeof buf, words, NULL);
    mcc_answer_count(q->id, q->lower, buf);
}

static size_t collect_open(mcc_query *q, size_t n, mcc_query **open)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!q[i].decided)
            open[k++] = &q[i];
    return k;
}

size_t mcc_prepass(const mcc_run *r, mcc_query *q, size_t n, const budget_t *stage)
{
    mcc_query **open = malloc((n ? n : 1) * sizeof *open);
    if (!open)
        return n;
    size_t rows = 0;
    while (mcc_deciders[rows].run)
        rows++;
    size_t k = collect_open(q, n, open);
    for (size_t i = 0; i < rows && k; i++) {
        if ((r->no_lp && mcc_deciders[i].run == mcc_decide_state_equation) ||
            (r->no_walk && mcc_deciders[i].run == mcc_decide_random_walk) ||
            (r->no_unfold && mcc_deciders[i].run == mcc_decide_unfolding))
            continue;
        budget_t part = budget_carve_part(stage, CARVE_MCC_PREPASS_DECIDER, rows - i);
        double now = part.start;
        mcc_deciders[i].run(r, open, k, part.deadline);
        size_t left = collect_open(q, n, open);
        if (r->verbose)
            fprintf(stderr, "mck mcc: %s settled %zu of %zu (%.2f s)\n", mcc_deciders[i].name,
                    k - left, k, mcc_now() - now);
        k = left;
    }
    free(open);
    return k;
}
