/* `mck export --promela MODEL [PROPERTIES] [-o FILE]`: the model as a
 * Promela program, and its action-based LTL properties (RERS) as ltl blocks,
 * so that SPIN can cross-check mck's answers.  The translation works on the
 * compiled net, the very thing mck's checkers explore, so a disagreement
 * points at a checker, not at two readings of the source language. */
#include "base/strmap.h"
#include "cmd/commands.h"
#include "cmd/language.h"
#include "input/input.h"
#include "input/namedprops.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* SPIN's mtype is a byte: more labels than that need plain numbers. */
#define MAX_MTYPES 255
#define PROMELA_INT_MAX 2147483647
/* Each X nested in a property costs one more label of history in every
 * state: beyond a few, the state space would explode rather than help. */
#define MAX_X_DEPTH 8

static void usage(FILE *out)
{
    fprintf(out,
            "usage: mck export --promela [-t LANG] [-o FILE.pml] [-v] MODEL [PROPERTIES]\n"
            "  Writes the model as Promela for SPIN: one variable per place (its token\n"
            "  count), 'last' (the label of the last transition fired) and one d_step\n"
            "  per net transition; a deadlock is a state where the process blocks.\n"
            "  PROPERTIES (RERS property files) become one 'ltl pN' block each.\n"
            "  Check one with: spin -a FILE.pml;\n"
            "    gcc -O2 -DNOSTUTTER -DNOREDUCE -DVECTORSZ=4096 -o pan pan.c;\n"
            "    ./pan -a -m1000000 -N pN   (it holds iff pan reports 'errors: 0').\n"
            "  The comment at the top of FILE.pml tells how the properties are encoded.\n");
}

/* ------------------------------------------------------------------ */
/* Names: Promela identifiers made from arbitrary node names, unique.  The
 * prefixes p_ (places) and a_ (labels) keep them apart, away from mck's own
 * names (last, prevK, alive, net, pN) and from Promela's and SPIN's LTL
 * keywords (X, U, V, do, run, ...). */

/* prefix + name with every character outside [A-Za-z0-9_] as '_', made
 * unique in taken by a "_N" suffix; also recorded in taken, which borrows
 * it (the caller keeps it as long as taken).  malloc'd. */
static char *make_ident(strmap *taken, const char *prefix, const char *name, uint32_t val)
{
    size_t pl = strlen(prefix), nl = strlen(name);
    char *s = malloc(pl + nl + 24);
    if (!s)
        return NULL;
    memcpy(s, prefix, pl);
    for (size_t i = 0; i < nl; i++) {
        unsigned char c = (unsigned char)name[i];
        s[pl + i] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    ? (char)c : '_';
    }
    s[pl + nl] = '\0';
    for (unsigned long k = 2; strmap_find(taken, s) >= 0; k++)
        snprintf(s + pl + nl, 24, "_%lu", k);
    if (strmap_insert(taken, s, &val) < 0) {
        free(s);
        return NULL;
    }
    return s;
}

/* A transition's label: its name up to a "#k" suffix, which only tells
 * apart the net transitions of one action (RERS: one per combination of
 * owner edges). */
static char *label_of(const net_t *net, uint32_t t)
{
    const nc_transition *tr = &net->transitions[t];
    const char *name = tr->name ? tr->name : tr->id;
    char buf[32];
    if (!name) {
        snprintf(buf, sizeof buf, "t%" PRIu32, t);
        name = buf;
    }
    size_t n = strlen(name);
    const char *hash = strrchr(name, '#');
    if (hash && hash > name && hash[1] && strspn(hash + 1, "0123456789") == strlen(hash + 1))
        n = (size_t)(hash - name);
    return strndup(name, n);
}

/* ------------------------------------------------------------------ */

typedef struct promela {
    net_t *net;
    const cnet_t *cn;
    char **place_ident;      /* nplaces */
    int *place_int;          /* nplaces: int (else byte) */
    uint32_t *label;         /* ntransitions: index into labels */
    char **labels;           /* the label texts, first-use order */
    char **label_ident;
    uint32_t nlabels;
    int use_mtype;
    int no_marking_overflow; /* the reader vouches the net is 1-safe */
    unsigned depth;          /* labels kept: last, prev1 .. prev<depth> */
    int with_props;
    strmap idents;           /* every identifier made (place_ident, label_ident) */
    strmap label_index;      /* label text (labels) -> its index */
} promela;

static void promela_free(promela *p)
{
    if (p->place_ident)
        for (uint32_t i = 0; i < p->cn->nplaces; i++)
            free(p->place_ident[i]);
    for (uint32_t i = 0; i < p->nlabels; i++) {
        free(p->labels[i]);
        free(p->label_ident[i]);
    }
    free(p->place_ident);
    free(p->place_int);
    free(p->label);
    free(p->labels);
    free(p->label_ident);
    strmap_free(&p->idents);
    strmap_free(&p->label_index);
}

static const char *place_display(const net_t *net, uint32_t i)
{
    const nc_place *pl = &net->places[i];
    return pl->name ? pl->name : pl->id ? pl->id : "";
}

static int promela_init(promela *p, net_t *net, const cnet_t *cn)
{
    memset(p, 0, sizeof *p);
    p->net = net;
    p->cn = cn;
    nc_summary sum;
    nc_summarize(net, &sum);
    p->no_marking_overflow = net->units_claim_safe && sum.syntactically_safe;
    p->place_ident = calloc(cn->nplaces ? cn->nplaces : 1, sizeof *p->place_ident);
    p->place_int = calloc(cn->nplaces ? cn->nplaces : 1, sizeof *p->place_int);
    if (!p->place_ident || !p->place_int)
        goto nomem;
    for (uint32_t i = 0; i < cn->nplaces; i++) {
        if (cn->initial[i] > PROMELA_INT_MAX) {
            nc_error(net->file, 0, "place %s: %" PRIu64 " tokens do not fit a Promela int",
                     place_display(net, i), (uint64_t)cn->initial[i]);
            return -1;
        }
        p->place_int[i] = !p->no_marking_overflow;
        p->place_ident[i] = make_ident(&p->idents, "p_", place_display(net, i), i);
        if (!p->place_ident[i])
            goto nomem;
    }

    p->label = calloc(cn->ntransitions ? cn->ntransitions : 1, sizeof *p->label);
    p->labels = calloc(cn->ntransitions ? cn->ntransitions : 1, sizeof *p->labels);
    p->label_ident = calloc(cn->ntransitions ? cn->ntransitions : 1, sizeof *p->label_ident);
    if (!p->label || !p->labels || !p->label_ident)
        goto nomem;
    for (uint32_t t = 0; t < cn->ntransitions; t++) {
        char *l = label_of(net, t);
        if (!l)
            goto nomem;
        int64_t k = strmap_find(&p->label_index, l);
        if (k >= 0) {
            p->label[t] = (uint32_t)k;
            free(l);
            continue;
        }
        uint32_t j = p->nlabels++;
        p->labels[j] = l;
        p->label[t] = j;
        if (strmap_insert(&p->label_index, l, &j) < 0)
            goto nomem;
        p->label_ident[j] = make_ident(&p->idents, "a_", l, j);
        if (!p->label_ident[j])
            goto nomem;
    }
    p->use_mtype = p->nlabels <= MAX_MTYPES;

    for (uint32_t t = 0; t < cn->ntransitions; t++)
        for (uint32_t i = cn->eff_start[t]; i < cn->eff_start[t + 1]; i++)
            if (cn->eff_delta[i] > PROMELA_INT_MAX || cn->eff_delta[i] < -PROMELA_INT_MAX) {
                nc_error(net->file, 0, "transition %s: an arc weight beyond a Promela int",
                         net->transitions[t].name ? net->transitions[t].name : "");
                return -1;
            }
    return 0;
nomem:
    nc_error(net->file, 0, "out of memory");
    return -1;
}

/* The variable holding the label k firings before the last one. */
static void slot_name(char *buf, size_t len, unsigned k)
{
    if (k)
        snprintf(buf, len, "prev%u", k);
    else
        snprintf(buf, len, "last");
}

/* Text from the model inside a C comment: "* /" cannot end it early. */
static void put_comment_text(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '\n' || *s == '\r')
            fputc(' ', out);
        else {
            fputc(*s, out);
            if (*s == '*' && s[1] == '/')
                fputc(' ', out);
        }
    }
}

static void write_header(FILE *out, const promela *p, const char *lang)
{
    const net_t *net = p->net;
    fprintf(out, "/* ");
    put_comment_text(out, net->name ? net->name : "net");
    fprintf(out, " (");
    put_comment_text(out, net->file ? net->file : "");
    fprintf(out, ", language %s): written by mck export --promela.\n", lang);
    fputs(" *\n"
          " * The net as a P/T net: one variable per place holds its token count, and\n"
          " * each option of the loop below fires one net transition, as one d_step,\n"
          " * so that the never claim sees only the markings between firings.  A\n"
          " * marking where no transition is enabled is a deadlock: the process\n"
          " * blocks (there is deliberately no else or timeout option).  'last' holds\n"
          " * the label of the transition fired last (0 before the first firing): the\n"
          " * label is the transition's name without a \"#k\" suffix.\n", out);
    if (p->with_props)
        fputs(" *\n"
              " * Properties: ltl pN is property N of the file, read as mck reads it.\n"
              " * Check it with\n"
              " *     spin -a FILE.pml\n"
              " *     gcc -O2 -DNOSTUTTER -DNOREDUCE -DVECTORSZ=4096 -o pan pan.c\n"
              " *     ./pan -a -m1000000 -N pN\n"
              " * It holds iff pan reports 'errors: 0' (and no 'max search depth too\n"
              " * small': then raise -m).  The formulas differ from the file's in three\n"
              " * ways, each needed for SPIN to give mck's (RERS's) answers:\n"
              " * 1. Only infinite runs count: a run ending in a deadlock is no\n"
              " *    counterexample.  pan would count it twice over: by default it extends\n"
              " *    a finite run by repeating its final state (the stutter extension;\n"
              " *    'last' would repeat the final action forever), which -DNOSTUTTER\n"
              " *    turns off; and a claim that has seen a bad prefix of a safety\n"
              " *    property ends, which pan reports as a violation whether or not the\n"
              " *    run can go on.  'alive' is always 1, so '[] alive ->' changes no\n"
              " *    answer on infinite runs, but the claim has to keep checking it and\n"
              " *    so can only accept on an infinite run.\n"
              " * 2. mck's position 0 is the FIRST action of a run, while SPIN's first\n"
              " *    state is the initial one, where no action has happened yet: a\n"
              " *    property phi has to be checked as X phi.\n"
              " * 3. SPIN as Debian builds it has no X operator.  On infinite runs X\n"
              " *    commutes with every other operator, so the X's are pushed down to\n"
              " *    the propositions.  With d nested X's (counting the one of 2.), the\n"
              " *    model keeps the last d labels: last, prev1, ..., prev<d-1>.  The\n"
              " *    formula is read from the state after d firings on, where a\n"
              " *    proposition under j of the file's X's reads prev<d-1-j> (prev0\n"
              " *    being 'last').  The states before it are those where prev<d-1>\n"
              " *    is still 0, and the outermost temporal operators skip them:\n"
              " *    G f is written [] (prev<d-1> == 0 || f), F f as\n"
              " *    <> (prev<d-1> != 0 && f), f U g as\n"
              " *    (prev<d-1> == 0 || f) U (prev<d-1> != 0 && g), f R g as\n"
              " *    (prev<d-1> != 0 && f) V (prev<d-1> == 0 || g), and a proposition p\n"
              " *    outside them as (prev<d-1> == 0) U (prev<d-1> != 0 && p).\n", out);
    fputs(" */\n\n", out);
}

static void write_declarations(FILE *out, const promela *p)
{
    if (p->use_mtype && p->nlabels) {
        fprintf(out, "mtype = {");
        for (uint32_t j = 0; j < p->nlabels; j++)
            fprintf(out, "%s%s", j ? ", " : " ", p->label_ident[j]);
        fprintf(out, " };\n");
    } else {
        for (uint32_t j = 0; j < p->nlabels; j++)
            fprintf(out, "#define %s %" PRIu32 "\n", p->label_ident[j], j + 1);
    }
    /* A label whose identifier is not just a_LABEL (characters replaced, a
     * suffix to keep it unique) gets the original in a comment, so that
     * SPIN's trails can be read back. */
    for (uint32_t j = 0; j < p->nlabels; j++)
        if (strcmp(p->label_ident[j] + 2, p->labels[j])) {
            fprintf(out, "/* %s: label ", p->label_ident[j]);
            put_comment_text(out, p->labels[j]);
            fprintf(out, " */\n");
        }
    fprintf(out, "%s last", p->use_mtype && p->nlabels ? "mtype" : "int");
    for (unsigned k = 1; k <= p->depth; k++)
        fprintf(out, ", prev%u", k);
    fputs(";\n", out);
    if (p->with_props)
        fputs("bit alive = 1;   /* never changes: see the comment on properties */\n", out);
    fputc('\n', out);
    if (p->no_marking_overflow)
        fputs("/* The reader vouches that the net is 1-safe: bytes cannot overflow. */\n", out);
    for (uint32_t i = 0; i < p->cn->nplaces; i++) {
        fprintf(out, "%s %s = %" PRIu64 ";", p->place_int[i] ? "int" : "byte",
                p->place_ident[i], (uint64_t)p->cn->initial[i]);
        if (strcmp(p->place_ident[i] + 2, place_display(p->net, i))) {
            fprintf(out, "   /* place ");
            put_comment_text(out, place_display(p->net, i));
            fprintf(out, " */");
        }
        fputc('\n', out);
    }
    fputc('\n', out);
}

static void write_process(FILE *out, const promela *p)
{
    const cnet_t *cn = p->cn;
    fputs("active proctype net()\n{\n    do\n", out);
    for (uint32_t t = 0; t < cn->ntransitions; t++) {
        fputs("    :: d_step { ", out);
        if (cn->need_start[t] == cn->need_start[t + 1])
            fputs("true", out);
        for (uint32_t i = cn->need_start[t]; i < cn->need_start[t + 1]; i++) {
            fprintf(out, "%s", i > cn->need_start[t] ? " && " : "");
            if (cn->need_weight[i] > PROMELA_INT_MAX)
                fputs("false", out);   /* more tokens than a place can hold */
            else
                fprintf(out, "%s >= %" PRIu64, p->place_ident[cn->need_place[i]],
                        (uint64_t)cn->need_weight[i]);
        }
        fputs(" ->\n", out);
        for (uint32_t i = cn->eff_start[t]; i < cn->eff_start[t + 1]; i++) {
            const char *v = p->place_ident[cn->eff_place[i]];
            int64_t d = cn->eff_delta[i];
            /* Promela ints wrap silently; a net that outgrows one must
             * fail loudly instead of being checked wrongly. */
            if (d > 0 && p->place_int[cn->eff_place[i]])
                fprintf(out, "           assert(%s <= %" PRId64 ");\n", v,
                        (int64_t)PROMELA_INT_MAX - d);
            fprintf(out, "           %s = %s %c %" PRId64 ";\n", v, v, d > 0 ? '+' : '-',
                    d > 0 ? d : -d);
        }
        fputs("          ", out);
        for (unsigned k = p->depth; k > 0; k--) {
            char from[32];
            slot_name(from, sizeof from, k - 1);
            fprintf(out, " prev%u = %s;", k, from);
        }
        fprintf(out, " last = %s }   /* ", p->label_ident[p->label[t]]);
        const nc_transition *tr = &p->net->transitions[t];
        put_comment_text(out, tr->name ? tr->name : tr->id ? tr->id : "");
        fputs(" */\n", out);
    }
    if (!cn->ntransitions)
        fputs("    :: false\n", out);   /* a net without transitions: one dead state */
    fputs("    od\n}\n", out);
}

/* ------------------------------------------------------------------ */
/* Properties */

static const char *op_name(tree_op op)
{
    switch (op) {
    case T_DEADLOCK: return "deadlock";
    case T_FIREABLE: return "fireable()";
    case T_CMP: return "a state proposition (place or comparison)";
    case T_BOUND: return "a bound";
    default: return "a CTL operator";
    }
}

/* Writes t in SPIN's LTL syntax.  Every piece delimits itself (a binary
 * operator and a proposition come in parentheses, a prefix operator is
 * followed by such a piece), so SPIN's precedence never matters.  0, or -1
 * after an error message naming the property. */
static int write_ltl(FILE *out, const promela *p, const tree_t *t, unsigned depth,
                     const char *path, const prop_entry *e)
{
    switch (t->op) {
    case T_TRUE: fputs("true", out); return 0;
    case T_FALSE: fputs("false", out); return 0;
    case T_ACTION: {
        /* "last == L" says "some transition labelled L": exact only if the
         * proposition names every transition of each label it touches. */
        uint32_t nt = p->cn->ntransitions;
        unsigned char *named = calloc(nt ? nt : 1, 1);
        unsigned char *used = calloc(p->nlabels ? p->nlabels : 1, 1);
        if (!named || !used) {
            free(named);
            free(used);
            nc_error(path, e->line, "out of memory");
            return -1;
        }
        for (uint32_t i = 0; i < t->n; i++)
            if (t->items[i] < nt)
                named[t->items[i]] = 1;
        for (uint32_t i = 0; i < nt; i++)
            if (named[i])
                used[p->label[i]] = 1;
        int rc = 0;
        for (uint32_t i = 0; i < nt && rc == 0; i++)
            if (used[p->label[i]] && !named[i]) {
                nc_error(path, e->line, "property %s: an action proposition names some but not "
                         "all transitions labelled %s, which Promela's 'last' cannot tell apart",
                         e->name, p->labels[p->label[i]]);
                rc = -1;
            }
        char slot[32];
        slot_name(slot, sizeof slot, p->depth - depth);
        uint32_t k = 0;
        for (uint32_t j = 0; j < p->nlabels && rc == 0; j++)
            if (used[j])
                fprintf(out, "%s%s == %s", k++ ? " || " : "(", slot, p->label_ident[j]);
        if (rc == 0)
            fputs(k ? ")" : "false", out);
        free(named);
        free(used);
        return rc;
    }
    case T_X:
        /* X commutes with every operator on infinite runs: pushed down to
         * the propositions, it only makes them read a later label. */
        return write_ltl(out, p, t->l, depth + 1, path, e);
    case T_NOT: case T_F: case T_G: {
        const char *op = t->op == T_NOT ? "!" : t->op == T_F ? "<> " : "[] ";
        fputs(op, out);
        return write_ltl(out, p, t->l, depth, path, e);
    }
    case T_AND: case T_OR: case T_IMPLIES: case T_IFF: case T_U: case T_R: {
        const char *op = t->op == T_AND ? "&&" : t->op == T_OR ? "||" : t->op == T_IMPLIES ? "->"
                         : t->op == T_IFF ? "<->" : t->op == T_U ? "U" : "V";
        fputc('(', out);
        if (write_ltl(out, p, t->l, depth, path, e) < 0)
            return -1;
        fprintf(out, " %s ", op);
        if (write_ltl(out, p, t->r, depth, path, e) < 0)
            return -1;
        fputc(')', out);
        return 0;
    }
    default:
        nc_error(path, e->line, "property %s: %s cannot be exported; only action "
                 "propositions, true, false, ! & | -> <-> and X F G U W R can", e->name,
                 op_name(t->op));
        return -1;
    }
}

static int has_fgur(const tree_t *t)
{
    if (!t)
        return 0;
    if (t->op == T_F || t->op == T_G || t->op == T_U || t->op == T_R)
        return 1;
    return has_fgur(t->l) || has_fgur(t->r);
}

/* Writes t so that, read in the initial state, it says what t says in the
 * first state where all labels of history are there: the first states are
 * "not started" (the oldest label is still 0) and every temporal operator
 * skips them.  The obvious "!started U (started && t)" makes SPIN's LTL
 * translation take seconds to minutes per property; this form costs
 * nothing.  Propositional parts (X allowed) still need that until, but they
 * are small. */
static int write_late(FILE *out, const promela *p, const tree_t *t, unsigned depth,
                      const char *path, const prop_entry *e)
{
    char oldest[32];
    slot_name(oldest, sizeof oldest, p->depth);
    const char *open = "", *mid = "", *close = ")";
    int rc;
    switch (t->op) {
    case T_TRUE: case T_FALSE:
        return write_ltl(out, p, t, depth, path, e);
    case T_X:
        return write_late(out, p, t->l, depth + 1, path, e);
    case T_NOT:
        fputc('!', out);
        return write_late(out, p, t->l, depth, path, e);
    case T_AND: case T_OR: case T_IMPLIES: case T_IFF:
        if (!has_fgur(t))
            break;
        fputc('(', out);
        if (write_late(out, p, t->l, depth, path, e) < 0)
            return -1;
        fprintf(out, " %s ", t->op == T_AND ? "&&" : t->op == T_OR ? "||"
                             : t->op == T_IMPLIES ? "->" : "<->");
        if (write_late(out, p, t->r, depth, path, e) < 0)
            return -1;
        fputc(')', out);
        return 0;
    case T_G:
        fprintf(out, "[] ((%s == 0) || ", oldest);
        rc = write_ltl(out, p, t->l, depth, path, e);
        fputc(')', out);
        return rc;
    case T_F:
        fprintf(out, "<> ((%s != 0) && ", oldest);
        rc = write_ltl(out, p, t->l, depth, path, e);
        fputc(')', out);
        return rc;
    case T_U:
        fprintf(out, "(((%s == 0) || ", oldest);
        open = ") U ((", mid = " != 0) && ", close = "))";
        break;
    case T_R:
        fprintf(out, "(((%s != 0) && ", oldest);
        open = ") V ((", mid = " == 0) || ", close = "))";
        break;
    default:
        break;
    }
    if (t->op == T_U || t->op == T_R) {
        if (write_ltl(out, p, t->l, depth, path, e) < 0)
            return -1;
        fprintf(out, "%s%s%s", open, oldest, mid);
        rc = write_ltl(out, p, t->r, depth, path, e);
        fputs(close, out);
        return rc;
    }
    fprintf(out, "((%s == 0) U ((%s != 0) && ", oldest, oldest);
    rc = write_ltl(out, p, t, depth, path, e);
    fputs("))", out);
    return rc;
}

static int write_property(FILE *out, const promela *p, const prop_entry *e, const char *path)
{
    char *text = tree_to_string(e->formula);
    fprintf(out, "\n/* %s", e->name);
    if (e->expected >= 0)
        fprintf(out, " (expected: %s)", e->expected ? "true" : "false");
    fputs(", in mck's syntax: ", out);
    put_comment_text(out, text ? text : "");
    fputs(" */\n", out);
    free(text);
    fprintf(out, "ltl p%ld { [] alive -> ", e->number);
    if (write_late(out, p, e->formula, 0, path, e) < 0)
        return -1;
    fputs(" }\n", out);
    return 0;
}

/* The properties of path as a list: the language's list reader, or its
 * formula function for a file of one formula (then numbered 1).  0 with
 * *v, *n, or -1 after an error message. */
static int read_properties(const input_type *it, net_t *net, const char *path, prop_entry **v,
                           size_t *n)
{
    *v = NULL;
    *n = 0;
    /* the other languages' lists hold state-based formulas */
    if (strcmp(it->name, "rers")) {
        nc_error(path, 0, "mck export writes only action-based properties (rers), not %s ones",
                 it->name);
        return -1;
    }
    if (!net->ltl_infinite_only) {
        nc_error(path, 0, "mck export writes properties only where finite runs do not count");
        return -1;
    }
    if (rers_property_lists(path, net, KIND_LTL, v, n) < 0)
        return -1;
    if (*n)
        return 0;
    prop_kind kind = KIND_LTL;
    tree_t *f = it->formfunc(path, net, &kind);
    if (!f)
        return -1;
    *v = calloc(1, sizeof **v);
    char *name = strdup("#1");
    if (!*v || !name) {
        free(*v);
        free(name);
        tree_free(f);
        nc_error(path, 0, "out of memory");
        return -1;
    }
    (*v)->name = name;
    (*v)->number = 1;
    (*v)->line = 1;
    (*v)->formula = f;
    (*v)->kind = kind;
    (*v)->expected = -1;
    *n = 1;
    return 0;
}

/* How deeply X operators nest in t. */
static unsigned x_depth(const tree_t *t)
{
    if (!t)
        return 0;
    unsigned l = x_depth(t->l), r = x_depth(t->r);
    return (t->op == T_X) + (l > r ? l : r);
}

static int write_promela(FILE *out, const input_type *it, net_t *net, const char *props_path)
{
    const cnet_t *cn = nc_compile(net);
    if (!cn)
        return -1;
    prop_entry *props = NULL;
    size_t nprops = 0;
    if (props_path && read_properties(it, net, props_path, &props, &nprops) < 0)
        return -1;
    promela p;
    int rc = promela_init(&p, net, cn);
    p.with_props = props_path != NULL;
    for (size_t i = 0; i < nprops && rc == 0; i++) {
        unsigned d = x_depth(props[i].formula);
        if (d > MAX_X_DEPTH) {
            nc_error(props_path, props[i].line, "property %s: X nested %u deep, more than "
                     "the %d mck export writes", props[i].name, d, MAX_X_DEPTH);
            rc = -1;
        }
        p.depth = d > p.depth ? d : p.depth;
    }
    if (rc == 0) {
        write_header(out, &p, it->name);
        write_declarations(out, &p);
        write_process(out, &p);
        for (size_t i = 0; i < nprops && rc == 0; i++)
            rc = write_property(out, &p, &props[i], props_path);
    }
    promela_free(&p);
    prop_list_free(props, nprops);
    return rc;
}

int export_main(int argc, char **argv, budget_t *budget)
{
    (void)budget;
    enum { OPT_PROMELA = 256 };
    static const struct option longopts[] = {
        {"promela", no_argument, NULL, OPT_PROMELA},
        {"language", required_argument, NULL, 't'},
        {"output", required_argument, NULL, 'o'},
        {"verbose", no_argument, NULL, 'v'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *lang = NULL, *output = NULL;
    int c, verbose = 0, promela_fmt = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "t:o:vh", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_PROMELA: promela_fmt = 1; break;
        case 't': lang = optarg; break;
        case 'o': output = optarg; break;
        case 'v': verbose++; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (!promela_fmt) {
        fprintf(stderr, "mck export: say which format: --promela (the only one so far)\n");
        return 2;
    }
    if (argc - optind < 1 || argc - optind > 2) {
        usage(stderr);
        return 2;
    }
    nc_set_verbosity(verbose);
    const char *model = argv[optind];
    const char *props = argc - optind == 2 ? argv[optind + 1] : NULL;
    const input_type *it;
    net_t *net = load_model(lang, model, &it);
    if (!net)
        return 2;
    FILE *out = output ? fopen(output, "w") : stdout;
    if (!out) {
        nc_error(output, 0, "cannot write: %s", strerror(errno));
        nc_free_net(net);
        return 2;
    }
    int rc = write_promela(out, it, net, props);
    if (fflush(out) != 0 || ferror(out)) {
        if (rc == 0)
            nc_error(output ? output : "standard output", 0, "write error");
        rc = -1;
    }
    if (output && fclose(out) != 0 && rc == 0) {
        nc_error(output, 0, "write error");
        rc = -1;
    }
    /* Half a Promela file would only fail later, in SPIN, less clearly. */
    if (rc < 0 && output)
        remove(output);
    nc_free_net(net);
    return rc < 0 ? 2 : 0;
}
