/* The answer lines (or with --json their objects, jsonout.c).  Everything
 * that reaches stdout in an mcc run goes through here, so that each line
 * is flushed at once (a kill at the time
 * limit keeps what was printed) and no value is ever answered twice. */
#include "base/grow.h"
#include "mcc/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Ids printed so far.  An examination has at most 16 values, so a list
 * searched linearly is enough. */
static char **printed;
static size_t nprinted, cap_printed;

static int seen(const char *id)
{
    for (size_t i = 0; i < nprinted; i++)
        if (!strcmp(printed[i], id))
            return 1;
    return 0;
}

/* Records id; 0 when it was printed before (or cannot be recorded, in
 * which case staying silent is the safe side). */
static int claim(const char *id)
{
    if (seen(id)) {
        fprintf(stderr, "mck: internal error: value %s answered twice; second answer dropped\n", id);
        return 0;
    }
    /* the portfolio's other process answered it first: not an error */
    if (!mcc_portfolio_claim(id))
        return 0;
    if (GROW(printed, cap_printed, nprinted + 1) < 0)
        return 0;
    char *copy = strdup(id);
    if (!copy)
        return 0;
    printed[nprinted++] = copy;
    return 1;
}

void mcc_answers_reset(void)
{
    for (size_t i = 0; i < nprinted; i++)
        free(printed[i]);
    free(printed);
    printed = NULL;
    nprinted = cap_printed = 0;
}

size_t mcc_answers_printed(void)
{
    return nprinted;
}

char *mcc_u128_decimal(mcc_u128 v, char *buf)
{
    char tmp[40];
    size_t n = 0;
    do {
        tmp[n++] = (char)('0' + (int)(v % 10));
        v /= 10;
    } while (v);
    for (size_t i = 0; i < n; i++)
        buf[i] = tmp[n - 1 - i];
    buf[n] = '\0';
    return buf;
}

/* Named before every answer's own techniques: how the net the checkers
 * saw was made (UNFOLDING_TO_PT for a colored model), "" for none. */
static const char *net_techniques = "";

void mcc_answers_net_techniques(const char *words)
{
    net_techniques = words ? words : "";
}

/* The techniques as printed and as written to the verdict file. */
static const char *with_net(const char *techniques, char *buf, size_t len)
{
    if (!*net_techniques)
        return techniques;
    snprintf(buf, len, "%s %s", net_techniques, techniques);
    return buf;
}

int mcc_runs_wanted(void)
{
    return mcc_xml_active() || mcc_json_active();
}

void mcc_answer_open(const char *id, const char *reason)
{
    if (seen(id))
        return;
    mcc_xml_unknown(id, reason);
    mcc_json_unknown(id, reason);
}

/* The answer line, or with --json its object. */
static void line(const char *head, const char *id, const char *value, const char *techniques,
                 const mcc_evidence *ev)
{
    if (mcc_json_active()) {
        mcc_json_value(id, value, techniques, ev);
        return;
    }
    printf("%s %s %s TECHNIQUES %s\n", head, id, value, techniques);
    fflush(stdout);
    mcc_portfolio_printed(id);
}

int mcc_answer_bool_shown(const char *id, int value, const char *techniques,
                          const mcc_evidence *ev)
{
    char tb[512];
    if (!claim(id))
        return 0;
    techniques = with_net(techniques, tb, sizeof tb);
    line("FORMULA", id, value ? "TRUE" : "FALSE", techniques, ev);
    mcc_xml_value(id, value ? "true" : "false", techniques, ev);
    return 1;
}

int mcc_answer_bool(const char *id, int value, const char *techniques)
{
    return mcc_answer_bool_shown(id, value, techniques, NULL);
}

int mcc_answer_count(const char *id, mcc_u128 value, const char *techniques)
{
    char buf[40], tb[512];
    if (!claim(id))
        return 0;
    techniques = with_net(techniques, tb, sizeof tb);
    line("FORMULA", id, mcc_u128_decimal(value, buf), techniques, NULL);
    mcc_xml_value(id, buf, techniques, NULL);
    return 1;
}

int mcc_answer_state_space(const char *what, mcc_u128 value, const char *techniques)
{
    char buf[40];
    return mcc_answer_state_space_text(what, mcc_u128_decimal(value, buf), techniques);
}

int mcc_answer_state_space_text(const char *what, const char *decimal, const char *techniques)
{
    char tb[512];
    if (!claim(what))
        return 0;
    techniques = with_net(techniques, tb, sizeof tb);
    line("STATE_SPACE", what, decimal, techniques, NULL);
    mcc_xml_value(what, decimal, techniques, NULL);
    return 1;
}

void mcc_answer_word(const char *word)
{
    if (mcc_json_active()) {
        mcc_json_word(word);
        return;
    }
    puts(word);
    fflush(stdout);
}
