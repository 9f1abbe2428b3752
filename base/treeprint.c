/* Printing a tree back in the Kit syntax (formula-syntax.md) with the
 * fewest parentheses that still re-parse to an equal tree (tree_equal):
 * each operator has the binding level of §5, and a child is parenthesised
 * only when it binds more loosely than its position allows. */
#include "base/tree.h"

#include <inttypes.h>
#include <stdlib.h>

/* §5, loosest first; higher binds tighter */
enum { LV_IFF = 1, LV_IMP, LV_UNTIL, LV_OR, LV_AND, LV_PREFIX, LV_ATOM };

static int level(const tree_t *t)
{
    if (t->text)
        return LV_ATOM;
    switch (t->op) {
    case T_IFF: return LV_IFF;
    case T_IMPLIES: return LV_IMP;
    case T_U: case T_R: return LV_UNTIL;
    case T_OR: return LV_OR;
    case T_AND: return LV_AND;
    case T_NOT: case T_X: case T_F: case T_G:
    case T_EX: case T_AX: case T_EF: case T_AF: case T_EG: case T_AG:
        return LV_PREFIX;
    default:
        return LV_ATOM;   /* leaves, E[..U..], A[..U..] */
    }
}

static void print_at(FILE *out, const tree_t *t, int min_level);

static const char *prefix_name(tree_op op)
{
    switch (op) {
    case T_NOT: return "!";
    case T_X: return "X ";
    case T_F: return "F ";
    case T_G: return "G ";
    case T_EX: return "EX ";
    case T_AX: return "AX ";
    case T_EF: return "EF ";
    case T_AF: return "AF ";
    case T_EG: return "EG ";
    case T_AG: return "AG ";
    default: return NULL;
    }
}

static const char *infix_name(tree_op op)
{
    switch (op) {
    case T_IFF: return " <-> ";
    case T_IMPLIES: return " -> ";
    case T_U: case T_EU: case T_AU: return " U ";
    case T_R: return " R ";
    case T_OR: return " | ";
    case T_AND: return " & ";
    default: return NULL;
    }
}

static const char *rel_name(rel_op rel)
{
    static const char *const names[] = {
        [REL_EQ] = "=", [REL_NE] = "!=", [REL_LT] = "<",
        [REL_LE] = "<=", [REL_GT] = ">", [REL_GE] = ">=",
    };
    return names[rel];
}

/* Leaves without source text name places and transitions by index; this
 * is for diagnostics only, the result does not parse. */
static void print_cmp(FILE *out, const tree_t *t)
{
    for (uint32_t i = 0; i < t->nterms; i++) {
        int64_t c = t->terms[i].coef;
        if (i > 0)
            fputs(c < 0 ? " - " : " + ", out);
        else if (c < 0)
            fputc('-', out);
        /* print |c| without negating INT64_MIN */
        uint64_t mag = c < 0 ? (uint64_t)0 - (uint64_t)c : (uint64_t)c;
        if (mag != 1)
            fprintf(out, "%" PRIu64 " * ", mag);
        fprintf(out, "#p%" PRIu32, t->terms[i].place);
    }
    if (t->nterms == 0)
        fputc('0', out);
    /* constant moves to the right-hand side */
    int64_t k = t->constant;
    fprintf(out, " %s ", rel_name(t->rel));
    if (k > 0)
        fprintf(out, "-%" PRId64, k);
    else
        fprintf(out, "%" PRIu64, (uint64_t)0 - (uint64_t)k);
}

static void print_items(FILE *out, const tree_t *t, const char *fn, char prefix)
{
    fprintf(out, "%s(", fn);
    for (uint32_t i = 0; i < t->n; i++)
        fprintf(out, "%s#%c%" PRIu32, i ? ", " : "", prefix, t->items[i]);
    fputc(')', out);
}

static void print_leaf(FILE *out, const tree_t *t)
{
    switch (t->op) {
    case T_TRUE: fputs("true", out); break;
    case T_FALSE: fputs("false", out); break;
    case T_DEADLOCK: fputs("deadlock", out); break;
    case T_FIREABLE: print_items(out, t, "fireable", 't'); break;
    case T_ACTION: print_items(out, t, "action", 't'); break;
    case T_BOUND: print_items(out, t, "bound", 'p'); break;
    case T_CMP: print_cmp(out, t); break;
    default: fputs("?", out); break;
    }
}

static void print_at(FILE *out, const tree_t *t, int min_level)
{
    int lv = level(t);
    int paren = lv < min_level;
    if (paren)
        fputc('(', out);
    const char *name;
    if (t->text) {
        fputs(t->text, out);
    } else if ((name = prefix_name(t->op))) {
        fputs(name, out);
        print_at(out, t->l, LV_PREFIX);
    } else if (t->op == T_EU || t->op == T_AU) {
        fputs(t->op == T_EU ? "E[" : "A[", out);
        print_at(out, t->l, LV_UNTIL + 1);
        fputs(" U ", out);
        print_at(out, t->r, LV_UNTIL);
        fputc(']', out);
    } else if ((name = infix_name(t->op))) {
        /* U, R and -> group to the right, <-> to the left; & and | chains
         * print flat, whatever their grouping (tree_equal ignores it) */
        int right_assoc = lv == LV_UNTIL || lv == LV_IMP;
        int chain = lv == LV_AND || lv == LV_OR;
        print_at(out, t->l, right_assoc ? lv + 1 : lv);
        fputs(name, out);
        print_at(out, t->r, right_assoc || chain ? lv : lv + 1);
    } else {
        print_leaf(out, t);
    }
    if (paren)
        fputc(')', out);
}

void tree_print(FILE *out, const tree_t *t)
{
    if (t)
        print_at(out, t, LV_IFF);
}

char *tree_to_string(const tree_t *t)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    tree_print(f, t);
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}
