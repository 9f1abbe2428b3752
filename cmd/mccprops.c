/* MCC property XML for mck check (mccprops.h). */
#include "cmd/mccprops.h"
#include "formula/mccxml.h"

#include <stdlib.h>
#include <string.h>

int looks_like_xml(const char *path)
{
    unsigned char buf[256];
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    size_t i = 0;
    if (n >= 3 && buf[0] == 0xef && buf[1] == 0xbb && buf[2] == 0xbf)
        i = 3;   /* a UTF-8 byte order mark */
    while (i < n && strchr(" \t\r\n", buf[i]))
        i++;
    return i + 1 < n && buf[i] == '<' && buf[i + 1] != '>';
}

/* "dir/CTLFireability.xml" -> "CTLFireability" when that is an
 * examination with a formula file; else "". */
static void examination_of(const char *path, char *exam, size_t len)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    if (n > 4 && !strcmp(base + n - 4, ".xml"))
        n -= 4;
    mcc_class cls;
    snprintf(exam, len, "%.*s", (int)n, base);
    if (n >= len || mccxml_exam_class(exam, &cls) < 0)
        exam[0] = 0;
}

static prop_kind kind_of(mcc_class c)
{
    return c == MCC_CTL ? KIND_CTL : c == MCC_LTL ? KIND_LTL : KIND_REACH;
}

/* The item's question; 0, or -1 on no memory. */
static int question(check_item *it, const mcc_property *p, prop_kind asked)
{
    const tree_t *f = p->formula;
    if (p->unsupported) {
        snprintf(it->why, sizeof it->why, "%s", p->unsupported);
        return 0;
    }
    if (p->cls == MCC_BOUND) {
        it->kind = KIND_AUTO;   /* none of check's kinds */
        snprintf(it->why, sizeof it->why, "a place bound asks for a value, not a verdict "
                 "('mck mcc UpperBounds' computes it)");
        return 0;
    }
    it->kind = kind_of(p->cls);
    if (asked != KIND_AUTO && asked != it->kind) {
        snprintf(it->why, sizeof it->why, "a %s property, not %s as asked",
                 prop_kind_name(it->kind), prop_kind_name(asked));
        return 0;
    }
    if (p->cls != MCC_REACH) {
        it->formula = tree_copy(f);
        return it->formula ? 0 : -1;
    }
    if (!f || (f->op != T_EF && f->op != T_AG) || !f->l) {
        snprintf(it->why, sizeof it->why, "not E F or A G of a state formula");
        return 0;
    }
    tree_t *goal = tree_copy(f->l);
    if (goal && f->op == T_AG) {
        goal = tree_unary(T_NOT, goal);
        it->negated = 1;
    }
    it->formula = goal;
    return goal ? 0 : -1;
}

int mcc_property_items(const char *path, net_t *net, prop_kind asked, check_item **out,
                       size_t *n)
{
    char exam[64];
    examination_of(path, exam, sizeof exam);
    mcc_property_set *set = mccxml_read(path, net, exam[0] ? exam : NULL);
    if (!set)
        return -1;
    check_item *items = calloc(set->n ? set->n : 1, sizeof *items);
    int rc = items ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < set->n; i++) {
        const mcc_property *p = &set->props[i];
        check_item *it = &items[i];
        it->line = p->line;
        it->expected = -1;
        it->kind = kind_of(p->cls);
        snprintf(it->category, sizeof it->category, "%s", exam[0] ? exam : prop_kind_name(it->kind));
        if (!(it->name = strdup(p->id)) || question(it, p, asked) < 0)
            rc = -1;
    }
    if (rc < 0) {
        nc_error(path, 0, "out of memory");
        if (items)
            check_items_free(items, set->n);
        mccxml_free(set);
        return -1;
    }
    *out = items;
    *n = set->n;
    mccxml_free(set);
    return 0;
}
