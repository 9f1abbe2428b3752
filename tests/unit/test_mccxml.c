/* MCC property XML reader: every element and shape on a hand-made net,
 * the examination hint, hostile input, and every P/T instance of the
 * shared sample read with its own model. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"
#include "base/netconv.h"
#include "base/tree.h"
#include "formula/mccxml.h"
#include "input/input.h"

static char path_buf[4096];

static const char *data(const char *name)
{
    const char *top = getenv("TOP");
    snprintf(path_buf, sizeof path_buf, "%s/tests/data/mccxml/%s", top ? top : ".", name);
    return path_buf;
}

/* places p1 p2 p3, transitions t1 t2 t3 */
static net_t *small_net(void)
{
    net_t *net = nc_create_net("small", "small");
    const char *pl[] = { "p1", "p2", "p3" }, *tr[] = { "t1", "t2", "t3" };
    for (int i = 0; i < 3; i++) {
        nc_create_place(net, pl[i], NULL, 0);
        nc_create_transition(net, tr[i], NULL);
    }
    return net;
}

/* ---- reading with stderr captured ---- */

static char errbuf[8192];
static unsigned long nerrors;

static mcc_property_set *read_quiet(const char *path, net_t *net, const char *exam)
{
    fflush(stderr);
    int saved = dup(2);
    FILE *tmp = tmpfile();
    if (saved < 0 || !tmp)
        return NULL;
    dup2(fileno(tmp), 2);
    unsigned long before = nc_error_count();
    mcc_property_set *s = mccxml_read(path, net, exam);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(tmp);
    size_t n = fread(errbuf, 1, sizeof errbuf - 1, tmp);
    errbuf[n] = '\0';
    fclose(tmp);
    nerrors = nc_error_count() - before;
    return s;
}

static int lines_in(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

static int prints_as(const tree_t *t, const char *want)
{
    char *s = tree_to_string(t);
    int ok = s && strcmp(s, want) == 0;
    if (!ok)
        printf("# printed %s, expected %s\n", s ? s : "(null)", want);
    free(s);
    return ok;
}

static int has_term(const tree_t *t, uint32_t place, int64_t coef)
{
    for (uint32_t i = 0; i < t->nterms; i++)
        if (t->terms[i].place == place)
            return t->terms[i].coef == coef;
    return 0;
}

/* ---- the element fixture, read by structure ---- */

static void test_structure(net_t *net)
{
    mcc_property_set *s = read_quiet(data("elements.xml"), net, NULL);
    CHECK(s && s->n == 16 && nerrors == 0, "elements.xml: 16 properties, no error");
    if (!s || s->n != 16)
        return;
    mcc_property *p = s->props;
    int ids_ok = 1;
    for (size_t i = 0; i < 16; i++) {
        char want[32];
        snprintf(want, sizeof want, "Test-PT-1-%02zu", i);
        ids_ok &= strcmp(p[i].id, want) == 0;
        ids_ok &= (p[i].formula == NULL) == (p[i].unsupported != NULL);
    }
    CHECK(ids_ok, "ids in order; formula NULL exactly when unsupported");

    tree_t *t = p[0].formula;
    CHECK(p[0].cls == MCC_BOUND && t && t->op == T_BOUND && t->n == 3 &&
          t->items[0] == 0 && t->items[1] == 0 && t->items[2] == 1,
          "place-bound: BOUND, a repeated place kept");
    CHECK(t && t->text && strcmp(t->text, "bound(\"p1\", \"p2\", \"p1\")") == 0,
          "place-bound text, leaf text trimmed");

    t = p[1].formula;
    CHECK(p[1].cls == MCC_REACH && t && t->op == T_EF && t->l->op == T_CMP &&
          t->l->rel == REL_LE && t->l->nterms == 2 && has_term(t->l, 0, 2) &&
          has_term(t->l, 1, 1) && t->l->constant == -3,
          "E F integer-le(tokens-count(p1,p1,p2), 3): 2*p1 + p2 - 3 <= 0");
    CHECK(t && prints_as(t, "EF \"p1\" + \"p1\" + \"p2\" <= 3"), "comparison prints with ids");

    t = p[2].formula;
    CHECK(p[2].cls == MCC_REACH && t && t->op == T_AG && t->l->op == T_NOT &&
          t->l->l->op == T_FIREABLE && t->l->l->n == 2,
          "A G not is-fireable(t2,t1,t2): REACH, duplicates dropped");
    CHECK(t && prints_as(t, "AG !(fireable(\"t1\") | fireable(\"t2\"))"),
          "several transitions print as a disjunction");

    t = p[3].formula;
    CHECK(p[3].cls == MCC_CTL && t && t->op == T_AND && t->l->op == T_AF &&
          t->l->l->op == T_EG && t->r->op == T_OR,
          "CTL conjunction of AF EG and a disjunction");
    CHECK(t && prints_as(t, "AF EG fireable(\"t1\") & (EX true | AX false | deadlock)"),
          "three-way disjunction folded; true, false, deadlock");

    t = p[4].formula;
    CHECK(p[4].cls == MCC_CTL && t && t->op == T_EU && t->l->op == T_TRUE &&
          t->r->op == T_CMP && has_term(t->r, 2, -1) && t->r->constant == 1,
          "E U with 1 <= tokens-count(p3)");
    CHECK(t && prints_as(t, "E[true U 1 <= \"p3\"]"), "E U prints");

    t = p[5].formula;
    CHECK(p[5].cls == MCC_CTL && t && t->op == T_AU && t->l->op == T_CMP &&
          has_term(t->l, 0, 1) && has_term(t->l, 1, -1) && has_term(t->l, 2, -1) &&
          t->l->constant == 0 && t->r->op == T_FIREABLE,
          "A U with two counts: p1 - p2 - p3 <= 0");

    t = p[6].formula;
    CHECK(p[6].cls == MCC_LTL && t && t->op == T_G && t->l->op == T_F &&
          prints_as(t, "G F fireable(\"t3\")"),
          "A G F: LTL without the outer A");
    t = p[7].formula;
    CHECK(p[7].cls == MCC_LTL && t && t->op == T_X && t->l->op == T_U,
          "A X (a U b): LTL");
    CHECK(!p[8].formula && p[8].unsupported && strstr(p[8].unsupported, "integer-sum"),
          "unknown element: property unsupported (%s)", p[8].unsupported ? p[8].unsupported : "");
    CHECK(p[9].cls == MCC_CTL && p[9].formula && p[9].formula->op == T_AX,
          "A X over a state formula: CTL by shape");
    t = p[10].formula;
    CHECK(p[10].cls == MCC_LTL && t && t->op == T_AND && t->l->op == T_F && t->r->op == T_G,
          "A (F a & G b): LTL");
    CHECK(p[11].cls == MCC_CTL && p[11].formula && p[11].formula->op == T_NOT,
          "a bare state formula: CTL");
    t = p[12].formula;
    CHECK(p[12].cls == MCC_CTL && t && t->op == T_AG && t->l->op == T_EF,
          "A G E F: CTL, not reachability");
    CHECK(!p[13].formula && p[13].unsupported && strstr(p[13].unsupported, "CTL*"),
          "E (F a & G b): CTL* unsupported");
    t = p[14].formula;
    CHECK(p[14].cls == MCC_REACH && t && t->op == T_EF && t->l->op == T_AND &&
          t->l->l->op == T_NOT && t->l->l->l->op == T_FALSE && t->l->r->op == T_CMP &&
          t->l->r->nterms == 0 && t->l->r->constant == 2,
          "empty is-fireable is false, empty tokens-count is 0, negative constant");
    CHECK(!p[15].formula && p[15].unsupported && strstr(p[15].unsupported, "place-bound"),
          "place-bound below the top: unsupported");
    mccxml_free(s);
}

/* ---- the same file read as each examination ---- */

static int supported(const mcc_property_set *s, size_t i)
{
    return s->props[i].formula != NULL;
}

static void test_hints(net_t *net)
{
    mcc_property_set *s = read_quiet(data("elements.xml"), net, "CTLCardinality");
    CHECK(s && s->n == 16, "read as CTLCardinality");
    if (s) {
        int all_ctl = 1;
        for (size_t i = 0; i < s->n; i++)
            all_ctl &= s->props[i].cls == MCC_CTL;
        CHECK(all_ctl, "CTL examination: every property CTL, A G φ too");
        CHECK(supported(s, 1) && supported(s, 2) && supported(s, 3) && supported(s, 9) &&
              supported(s, 12) && s->props[9].formula->op == T_AX,
              "CTL shapes read; A X φ is AX");
        CHECK(!supported(s, 0) && !supported(s, 6) && !supported(s, 7) && !supported(s, 10),
              "place-bound and LTL shapes unsupported in CTL");
        mccxml_free(s);
    }

    s = read_quiet(data("elements.xml"), net, "LTLFireability");
    CHECK(s && s->n == 16, "read as LTLFireability");
    if (s) {
        mcc_property *p = s->props;
        CHECK(p[9].cls == MCC_LTL && p[9].formula && p[9].formula->op == T_X &&
              p[9].formula->l->op == T_FIREABLE,
              "LTL examination: A X φ is the LTL X φ");
        CHECK(p[2].formula && p[2].formula->op == T_G && p[6].formula && p[7].formula &&
              p[10].formula, "A G φ, A G F, A X U, A (F & G) read as LTL");
        CHECK(!p[1].formula && !p[11].formula && !p[3].formula,
              "no outer all-paths: unsupported");
        CHECK(!p[12].formula && strstr(p[12].unsupported, "inside an LTL formula"),
              "a path quantifier inside: unsupported");
        mccxml_free(s);
    }

    s = read_quiet(data("elements.xml"), net, "ReachabilityFireability");
    CHECK(s && s->n == 16, "read as ReachabilityFireability");
    if (s) {
        size_t ok = 0;
        for (size_t i = 0; i < s->n; i++)
            ok += supported(s, i) && s->props[i].cls == MCC_REACH;
        CHECK(ok == 3 && supported(s, 1) && supported(s, 2) && supported(s, 14),
              "only the E F / A G state shapes are reachability (%zu)", ok);
        mccxml_free(s);
    }

    s = read_quiet(data("elements.xml"), net, "UpperBounds");
    CHECK(s && supported(s, 0) && s->props[0].cls == MCC_BOUND && !supported(s, 1),
          "UpperBounds: only place-bound");
    mccxml_free(s);

    s = read_quiet(data("elements.xml"), net, "StateSpace");
    CHECK(!s && nerrors == 1 && strstr(errbuf, "not an examination"),
          "an examination without formulas is refused");
    mcc_class c;
    CHECK(mccxml_exam_class("ReachabilityCardinality", &c) == 0 && c == MCC_REACH &&
          mccxml_exam_class("UpperBounds", &c) == 0 && c == MCC_BOUND &&
          mccxml_exam_class("LTLCardinality", &c) == 0 && c == MCC_LTL &&
          mccxml_exam_class("CTLFireability", &c) == 0 && c == MCC_CTL &&
          mccxml_exam_class("OneSafe", &c) < 0,
          "examination names");
}

/* ---- bad input: NULL and exactly one FILE:LINE: message ---- */

static void expect_error(net_t *net, const char *file, const char *where, const char *what)
{
    mcc_property_set *s = read_quiet(data(file), net, NULL);
    char loc[256];
    snprintf(loc, sizeof loc, "%s%s", file, where);
    int ok = !s && nerrors == 1 && lines_in(errbuf) == 1 && strstr(errbuf, loc) &&
             strstr(errbuf, what);
    CHECK(ok, "%s: one error '%s'", file, what);
    if (!ok)
        printf("# stderr: %s", errbuf);
    mccxml_free(s);
}

/* A fresh file in /tmp; its name is in tmp_name. */
static char tmp_name[64];

static FILE *open_tmp(void)
{
    snprintf(tmp_name, sizeof tmp_name, "/tmp/mccxml-XXXXXX");
    int fd = mkstemp(tmp_name);
    return fd < 0 ? NULL : fdopen(fd, "w");
}

/* A property nested depth negations deep; the file name, or NULL. */
static const char *deep_file(int depth)
{
    FILE *f = open_tmp();
    if (!f)
        return NULL;
    fputs("<property-set><property><id>x</id><formula>", f);
    for (int i = 0; i < depth; i++)
        fputs("<negation>", f);
    fputs("<deadlock/>", f);
    for (int i = 0; i < depth; i++)
        fputs("</negation>", f);
    fputs("</formula></property></property-set>\n", f);
    fclose(f);
    return tmp_name;
}

static void test_errors(net_t *net)
{
    expect_error(net, "bad_malformed.xml", ":6: ", "mismatch");
    expect_error(net, "bad_unknown_place.xml", ":14: ", "unknown place 'nope'");
    expect_error(net, "bad_unknown_transition.xml", ":7: ", "unknown transition 't9'");
    expect_error(net, "bad_entity_bomb.xml", ":3: ", "entity declarations are not allowed");
    expect_error(net, "bad_arity.xml", ":7: ", "'negation' needs exactly one operand");
    expect_error(net, "bad_until.xml", ":6: ", "'until' needs one 'before' and one 'reach'");
    expect_error(net, "bad_root.xml", ":2: ", "not an MCC property file");
    expect_error(net, "bad_duplicate_id.xml", ":11: ", "duplicate property id 'Test-PT-1-00'");
    expect_error(net, "bad_integer.xml", ":9: ", "out of range");
    expect_error(net, "bad_no_id.xml", ":3: ", "property without 'id'");
    expect_error(net, "bad_misplaced.xml", ":6: ", "'tokens-count' cannot appear in 'finally'");
    expect_error(net, "no_such_file.xml", ": ", "cannot open");

    mcc_property_set *s = read_quiet(data("empty_set.xml"), net, "CTLFireability");
    CHECK(s && s->n == 0 && nerrors == 0, "an empty property-set is no error");
    mccxml_free(s);

    const char *name = deep_file(MCCXML_MAX_DEPTH - 5);
    s = name ? read_quiet(name, net, NULL) : NULL;
    CHECK(s && s->n == 1 && s->props[0].formula, "nesting %d deep is read", MCCXML_MAX_DEPTH - 5);
    mccxml_free(s);
    if (name)
        unlink(name);
    int depths[] = { MCCXML_MAX_DEPTH + 10, 100000 };
    for (int i = 0; i < 2; i++) {
        name = deep_file(depths[i]);
        s = name ? read_quiet(name, net, NULL) : NULL;
        CHECK(!s && nerrors == 1 && lines_in(errbuf) == 1, "nesting %d deep: one error (%.*s)",
              depths[i], (int)strcspn(errbuf, "\n"), errbuf);
        mccxml_free(s);
        if (name)
            unlink(name);
    }
}

/* ---- a long transition list ---- */

static void test_long_list(void)
{
    enum { N = 12120 };
    net_t *net = nc_create_net("big", "big");
    FILE *f = open_tmp();
    const char *name = f ? tmp_name : NULL;
    if (!f)
        return;
    fputs("<property-set><property><id>x</id><formula><exists-path><finally><is-fireable>", f);
    for (int i = 0; i < N; i++) {
        char id[32];
        snprintf(id, sizeof id, "t%d", i);
        nc_create_transition(net, id, NULL);
        fprintf(f, "<transition>%s</transition>", id);
    }
    fputs("</is-fireable></finally></exists-path></formula></property></property-set>\n", f);
    fclose(f);
    mcc_property_set *s = name ? read_quiet(name, net, "ReachabilityFireability") : NULL;
    tree_t *t = s && s->n == 1 ? s->props[0].formula : NULL;
    CHECK(t && t->op == T_EF && t->l->op == T_FIREABLE && t->l->n == N && !t->l->text,
          "is-fireable over %d transitions; text left out", N);
    mccxml_free(s);
    if (name)
        unlink(name);
    nc_free_net(net);
}

/* ---- the shared MCC sample ---- */

static const char *const exams[] = {
    "UpperBounds", "ReachabilityCardinality", "ReachabilityFireability", "CTLCardinality",
    "CTLFireability", "LTLCardinality", "LTLFireability",
};
static const mcc_class exam_cls[] = {
    MCC_BOUND, MCC_REACH, MCC_REACH, MCC_CTL, MCC_CTL, MCC_LTL, MCC_LTL,
};

static size_t nfiles, nprops, by_shape[4], ltl_as_ctl, ltl_as_reach, ctl_as_reach;

/* The tree has the shape its class promises. */
static int shape_ok(const mcc_property *p)
{
    const tree_t *t = p->formula;
    switch (p->cls) {
    case MCC_BOUND: return t->op == T_BOUND;
    case MCC_REACH: return (t->op == T_EF || t->op == T_AG) && tree_is_state_formula(t->l);
    case MCC_CTL: return !tree_has_ltl(t);
    case MCC_LTL: return !tree_has_ctl(t);
    }
    return 0;
}

/* Reads one file as its examination and by structure; 0 when all is well. */
static int check_file(const char *dir, const char *inst, net_t *net, int e)
{
    char path[8192];
    snprintf(path, sizeof path, "%s/%s.xml", dir, exams[e]);
    mcc_property_set *s = read_quiet(path, net, exams[e]);
    mcc_property_set *g = s ? read_quiet(path, net, NULL) : NULL;
    int bad = !s || !g || s->n != 16 || g->n != 16;
    for (size_t i = 0; !bad && i < 16; i++) {
        mcc_property *p = &s->props[i], *q = &g->props[i];
        char want[512];
        snprintf(want, sizeof want, "%s-%s-%02zu", inst, exams[e], i);
        bad |= strcmp(p->id, want) != 0 || p->cls != exam_cls[e] || !p->formula ||
               !q->formula || !shape_ok(p) || !shape_ok(q);
        if (bad)
            break;
        char *text = tree_to_string(p->formula);
        bad |= !text;
        free(text);
        by_shape[q->cls]++;
        /* the structure agrees with the examination, except where the
         * examination must decide: A X φ or A G φ in LTL, A G φ in CTL */
        if (q->cls != p->cls) {
            if (p->cls == MCC_LTL && q->cls == MCC_CTL)
                ltl_as_ctl++;
            else if (p->cls == MCC_LTL && q->cls == MCC_REACH)
                ltl_as_reach++;
            else if (p->cls == MCC_CTL && q->cls == MCC_REACH)
                ctl_as_reach++;
            else
                bad = 1;
        }
        if ((q->cls == p->cls || p->cls == MCC_CTL) && !tree_equal(p->formula, q->formula))
            bad = 1;
        if (bad)
            printf("# %s: property %zu (%s) wrong\n", path, i, p->id);
    }
    if (!s || !g)
        printf("# %s: %s", path, errbuf);
    nfiles++;
    nprops += s ? s->n : 0;
    mccxml_free(s);
    mccxml_free(g);
    return bad;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

static void test_sample(void)
{
    const char *shared = getenv("SHARED");
    char root[4096];
    snprintf(root, sizeof root, "%s/mcc", shared ? shared : "/work/shared");
    struct dirent **list;
    int n = scandir(root, &list, NULL, by_name);
    if (n < 0) {
        SKIP("MCC sample: %s absent", root);
        return;
    }
    size_t instances = 0;
    for (int i = 0; i < n; i++) {
        const char *inst = list[i]->d_name;
        char dir[4608], model[4700];
        snprintf(dir, sizeof dir, "%s/%s", root, inst);
        snprintf(model, sizeof model, "%s/model.pnml", dir);
        if (strstr(inst, "-PT-") && access(model, R_OK) == 0) {
            net_t *net = pnml_read(model);
            int bad = !net;
            for (int e = 0; net && e < 7; e++)
                bad |= check_file(dir, inst, net, e);
            CHECK(!bad, "%s: 7 files, 16 properties each, as their examinations", inst);
            nc_free_net(net);
            instances++;
        }
        free(list[i]);
    }
    free(list);
    printf("# %zu instances, %zu files, %zu properties; by structure: "
           "%zu bound, %zu reach, %zu ctl, %zu ltl; LTL read as CTL by structure: %zu, "
           "as reach: %zu; "
           "CTL with reachability shape: %zu\n",
           instances, nfiles, nprops, by_shape[MCC_BOUND], by_shape[MCC_REACH],
           by_shape[MCC_CTL], by_shape[MCC_LTL], ltl_as_ctl, ltl_as_reach, ctl_as_reach);
}

int main(void)
{
    net_t *net = small_net();
    test_structure(net);
    test_hints(net);
    test_errors(net);
    nc_free_net(net);
    test_long_list();
    test_sample();
    UNIT_DONE();
}
