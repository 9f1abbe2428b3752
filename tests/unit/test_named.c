/* Files of several named formulas (formula-syntax.md §8): each "name:
 * formula" with an optional ";", read in file order with its line and its
 * own kind (or the kind asked for), macros shared; a file of one unnamed
 * formula is left to the formula function; and every error with its
 * position: a name given twice, a name without a formula, a formula
 * without a name after named ones, a name inside a macro, a kind error in
 * the second formula, a list where one formula is expected, and a macro
 * that would multiply the nodes of many formulas. */
#include "formula/formula.h"
#include "input/input.h"
#include "unit.h"

#include <stdlib.h>
#include <unistd.h>

static net_t *net;
static char path[] = "/tmp/mck-named-XXXXXX";
static char errbuf[4096];

static net_t *small_net(void)
{
    net_t *n = nc_create_net("small", NULL);
    int p = nc_create_place(n, "p", "p", 1);
    int q = nc_create_place(n, "q", "q", 0);
    int t = nc_create_transition(n, "t", "t");
    nc_create_arc(n, NC_ARC_PT, (uint32_t)p, (uint32_t)t, 1, 0);
    nc_create_arc(n, NC_ARC_TP, (uint32_t)q, (uint32_t)t, 1, 0);
    return n;
}

static void write_file(const char *text)
{
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

/* Reads the file as a list with stderr captured into errbuf. */
static int read_list(const char *text, prop_kind kind, named_formula **v, size_t *n)
{
    write_file(text);
    fflush(stderr);
    int saved = dup(2);
    FILE *tmp = tmpfile();
    dup2(fileno(tmp), 2);
    int rc = formula_parse_named_file(path, NULL, net, NULL, netlang_resolve, kind, v, n);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(tmp);
    size_t len = fread(errbuf, 1, sizeof errbuf - 1, tmp);
    errbuf[len] = 0;
    fclose(tmp);
    return rc;
}

static tree_t *parse(const char *text)
{
    prop_kind k = KIND_AUTO;
    return formula_parse_string(text, "f", net, NULL, netlang_resolve, &k);
}

static int equal_to(const tree_t *t, const char *text)
{
    tree_t *u = parse(text);
    int same = t && u && tree_equal(t, u);
    tree_free(u);
    return same;
}

/* The list fails with exactly "FILE:where message". */
static int fails(const char *text, const char *where_msg)
{
    named_formula *v;
    size_t n;
    int rc = read_list(text, KIND_AUTO, &v, &n);
    char want[512];
    snprintf(want, sizeof want, "%s:%s\n", path, where_msg);
    int ok = rc < 0 && !strcmp(errbuf, want);
    if (!ok)
        printf("# rc %d, stderr: %s", rc, errbuf);
    if (rc == 0)
        named_formulas_free(v, n);
    return ok;
}

static void test_lists(void)
{
    named_formula *v;
    size_t n;
    int rc = read_list("% three kinds, macros shared\n"
                       "#define P \"p\"\n"
                       "reach.1: P & !\"q\";\n"
                       "ctl-2 :  AG (P -> EF \"q\")\n"
                       "\n"
                       "3_ltl: F G \"q\" ;\n",
                       KIND_AUTO, &v, &n);
    CHECK(rc == 0 && n == 3, "three named formulas (rc %d, n %zu)", rc, n);
    if (rc == 0 && n == 3) {
        CHECK(!strcmp(v[0].name, "reach.1") && !strcmp(v[1].name, "ctl-2") &&
              !strcmp(v[2].name, "3_ltl"), "names with '.', '-', a leading digit, blanks before ':'");
        CHECK(v[0].line == 3 && v[1].line == 4 && v[2].line == 6, "lines of the names");
        CHECK(v[0].kind == KIND_REACH && v[1].kind == KIND_CTL && v[2].kind == KIND_LTL,
              "each formula gets its own kind");
        CHECK(equal_to(v[0].formula, "\"p\" & !\"q\"") &&
              equal_to(v[1].formula, "AG (\"p\" -> EF \"q\")") &&
              equal_to(v[2].formula, "F G \"q\""), "each tree is that of the lone formula");
        named_formulas_free(v, n);
    }

    rc = read_list("a: \"p\" b: G \"q\"", KIND_LTL, &v, &n);
    CHECK(rc == 0 && n == 2 && v[0].kind == KIND_LTL && v[1].kind == KIND_LTL,
          "the kind asked for applies to every formula, ';' optional");
    if (rc == 0)
        named_formulas_free(v, n);

    /* a kind with the name wins over the one asked for; dl has no formula */
    rc = read_list("dl stuck:\nreach r: \"p\"\nctl  c :\"p\";\nltl\tl: \"p\"\ndl d2:;\nx: \"p\"\n"
                   "reach: \"q\"\n", KIND_LTL, &v, &n);
    CHECK(rc == 0 && n == 7, "kinds written with the names (rc %d, n %zu)", rc, n);
    if (rc == 0 && n == 7) {
        CHECK(v[0].kind == KIND_DL && !v[0].formula && !strcmp(v[0].name, "stuck") &&
              v[4].kind == KIND_DL && !v[4].formula && !strcmp(v[4].name, "d2"),
              "dl NAME: without a formula, with or without ';'");
        CHECK(v[1].kind == KIND_REACH && v[2].kind == KIND_CTL && v[3].kind == KIND_LTL &&
              !strcmp(v[2].name, "c") && !strcmp(v[3].name, "l"),
              "reach, ctl, ltl before the name, blanks and tabs");
        CHECK(v[5].kind == KIND_LTL, "a formula without a kind gets the one asked for");
        CHECK(!strcmp(v[6].name, "reach") && v[6].kind == KIND_LTL,
              "'reach:' is a formula named reach, not a kind");
        named_formulas_free(v, n);
    }

    rc = read_list("// one formula\nAG \"p\"\n", KIND_AUTO, &v, &n);
    CHECK(rc == 0 && n == 0 && !errbuf[0], "one formula without a name: left to formula_parse_file");

    /* the formula function refuses a list: only check reads lists */
    write_file("a: \"p\"\n");
    fflush(stderr);
    int saved = dup(2);
    FILE *tmp = tmpfile();
    dup2(fileno(tmp), 2);
    prop_kind k = KIND_AUTO;
    tree_t *t = netlang_formula(path, net, &k);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(tmp);
    size_t len = fread(errbuf, 1, sizeof errbuf - 1, tmp);
    errbuf[len] = 0;
    fclose(tmp);
    char want[512];
    snprintf(want, sizeof want, "%s:1:1: named formulas where one formula is expected\n", path);
    CHECK(!t && !strcmp(errbuf, want), "a list where one formula is expected");
    int rc2 = read_list("a: F \"p\";\nb: AG \"q\";\n", KIND_LTL, &v, &n);
    snprintf(want, sizeof want, "%s:2:4: path quantifier A not allowed in LTL\n", path);
    CHECK(rc2 < 0 && !strcmp(errbuf, want), "the kind asked for, refused by the second formula");
    if (rc2 == 0)
        named_formulas_free(v, n);
}

static void test_errors(void)
{
    CHECK(fails("a: \"p\";\nb: \"q\";\na: \"q\";\n", "3:1: formula a named twice"),
          "a name given twice");
    CHECK(fails("a: \"p\";\nb: ;\n", "2:1: a formula expected after 'b:'"),
          "a name without a formula");
    CHECK(fails("a: \"p\";\nltl b:", "2:1: a formula expected after 'b:'"), "a name at the end");
    CHECK(fails("dl d: \"p\";\n", "1:7: dl takes no formula"), "dl with a formula");
    CHECK(fails("a: \"p\";\n\"q\"\n", "2:1: unexpected '\"q\"' after the formula"),
          "a formula without a name after a named one");
    CHECK(fails("\"q\";\n", "1:4: unexpected ';' after the formula"),
          "';' after a lone formula");
    CHECK(fails("#define M a: \"p\"\nb: M\n", "1:11: a macro is one formula, without a name"),
          "a name inside a macro");
    CHECK(fails("a: AG \"p\";\nb: AG F \"q\";\n", "2:7: formula mixes CTL and LTL operators"),
          "the second formula's kind error, at its position");
    CHECK(fails("a: \"nowhere\";\n", "1:4: unknown atomic proposition \"nowhere\""),
          "an unknown place in a named formula");

    /* 64 uses of a macro of 2000 nodes: each formula is small enough, all
     * of them are not */
    size_t cap = 1 << 20;
    char *text = malloc(cap), *p = text;
    p += sprintf(p, "#define BIG \"p\"");
    for (int i = 0; i < 999; i++)
        p += sprintf(p, " & \"q\"");
    p += sprintf(p, "\n");
    for (int i = 0; i < 64; i++)
        p += sprintf(p, "f%d: BIG;\n", i);
    named_formula *v;
    size_t n;
    int rc = read_list(text, KIND_AUTO, &v, &n);
    CHECK(rc < 0 && strstr(errbuf, "formulas too large (over 100000 operators and atoms in all)"),
          "a macro used in many formulas is counted in each: %s", errbuf);
    if (rc == 0)
        named_formulas_free(v, n);
    free(text);
}

int main(void)
{
    int fd = mkstemp(path);
    if (fd < 0)
        return 1;
    close(fd);
    net = small_net();
    test_lists();
    test_errors();
    nc_free_net(net);
    unlink(path);
    UNIT_DONE();
}
