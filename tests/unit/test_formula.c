/* The property parser (formula-syntax.md) on the three philosophers of
 * examples/pep/philo3.ll_net, with the net languages' atoms: spellings,
 * precedence, macros, comments, kinds, every error message with its
 * position, printing round trips (also of random formulas) and hostile
 * input. */
#include "formula/formula.h"
#include "input/input.h"
#include "unit.h"

#include <stdlib.h>
#include <unistd.h>

static net_t *net;

/* ---- the net ---- */

static net_t *philosophers(void)
{
    net_t *n = nc_create_net("philo3", NULL);
    int think[3], hasleft[3], eat[3], fork_[3];
    char id[16], name[32];
    int k = 1;
    for (int i = 0; i < 3; i++) {
        snprintf(id, sizeof id, "%d", k++), snprintf(name, sizeof name, "think%d", i);
        think[i] = nc_create_place(n, id, name, 1);
        snprintf(id, sizeof id, "%d", k++), snprintf(name, sizeof name, "hasleft%d", i);
        hasleft[i] = nc_create_place(n, id, name, 0);
        snprintf(id, sizeof id, "%d", k++), snprintf(name, sizeof name, "eat%d", i);
        eat[i] = nc_create_place(n, id, name, 0);
    }
    for (int i = 0; i < 3; i++) {
        snprintf(id, sizeof id, "%d", k++), snprintf(name, sizeof name, "fork%d", i);
        fork_[i] = nc_create_place(n, id, name, 1);
    }
    /* odd names for the lexer tests, and a name that is not unique */
    nc_create_place(n, "odd1", "x%y//z/*w", 0);
    nc_create_place(n, "odd2", "dup", 0);
    nc_create_place(n, "odd3", "dup", 0);
    nc_create_place(n, "odd4", "it's", 0);
    for (int i = 0; i < 3; i++) {
        int j = (i + 1) % 3;
        snprintf(name, sizeof name, "takeleft%d", i);
        int tl = nc_create_transition(n, NULL, name);
        snprintf(name, sizeof name, "takeright%d", i);
        int tr = nc_create_transition(n, NULL, name);
        snprintf(name, sizeof name, "release%d", i);
        int rl = nc_create_transition(n, NULL, name);
        nc_create_arc(n, NC_ARC_PT, (uint32_t)think[i], (uint32_t)tl, 1, 0);
        nc_create_arc(n, NC_ARC_PT, (uint32_t)fork_[i], (uint32_t)tl, 1, 0);
        nc_create_arc(n, NC_ARC_TP, (uint32_t)hasleft[i], (uint32_t)tl, 1, 0);
        nc_create_arc(n, NC_ARC_PT, (uint32_t)hasleft[i], (uint32_t)tr, 1, 0);
        nc_create_arc(n, NC_ARC_PT, (uint32_t)fork_[j], (uint32_t)tr, 1, 0);
        nc_create_arc(n, NC_ARC_TP, (uint32_t)eat[i], (uint32_t)tr, 1, 0);
        nc_create_arc(n, NC_ARC_PT, (uint32_t)eat[i], (uint32_t)rl, 1, 0);
        nc_create_arc(n, NC_ARC_TP, (uint32_t)think[i], (uint32_t)rl, 1, 0);
        nc_create_arc(n, NC_ARC_TP, (uint32_t)fork_[i], (uint32_t)rl, 1, 0);
        nc_create_arc(n, NC_ARC_TP, (uint32_t)fork_[j], (uint32_t)rl, 1, 0);
    }
    return n;
}

/* ---- parsing with stderr captured ---- */

static char errbuf[4096];

static tree_t *parse_kind(const char *text, prop_kind *kind)
{
    fflush(stderr);
    int saved = dup(2);
    FILE *tmp = tmpfile();
    dup2(fileno(tmp), 2);
    tree_t *t = formula_parse_string(text, "f", net, NULL, netlang_resolve, kind);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(tmp);
    size_t n = fread(errbuf, 1, sizeof errbuf - 1, tmp);
    errbuf[n] = 0;
    fclose(tmp);
    return t;
}

static tree_t *parse(const char *text)
{
    prop_kind k = KIND_AUTO;
    return parse_kind(text, &k);
}

static void show_error(void)
{
    if (errbuf[0])
        printf("# stderr: %s", errbuf);
}

/* Both parse, to equal trees. */
static int same(const char *a, const char *b)
{
    tree_t *x = parse(a);
    if (!x)
        show_error();
    tree_t *y = parse(b);
    if (!y)
        show_error();
    int ok = x && y && tree_equal(x, y);
    tree_free(x);
    tree_free(y);
    return ok;
}

static int differ(const char *a, const char *b)
{
    tree_t *x = parse(a), *y = parse(b);
    int ok = x && y && !tree_equal(x, y);
    tree_free(x);
    tree_free(y);
    return ok;
}

/* Equal after negation normal form: equivalent spellings that are not
 * the same tree. */
static int same_nnf(const char *a, const char *b)
{
    tree_t *x = parse(a), *y = parse(b);
    x = tree_nnf(x);
    y = tree_nnf(y);
    int ok = x && y && tree_equal(x, y);
    tree_free(x);
    tree_free(y);
    return ok;
}

/* Fails with exactly this message (one line). */
static int fails_kind(const char *text, prop_kind kind, const char *msg)
{
    unsigned long before = nc_error_count();
    tree_t *t = parse_kind(text, &kind);
    char want[1024];
    snprintf(want, sizeof want, "%s\n", msg);
    int ok = !t && strcmp(errbuf, want) == 0 && nc_error_count() == before + 1;
    if (!ok)
        printf("# got: %s# want: %s", t ? "(a tree)\n" : errbuf, want);
    tree_free(t);
    return ok;
}

static int fails(const char *text, const char *msg)
{
    return fails_kind(text, KIND_AUTO, msg);
}

static int kind_of(const char *text, prop_kind want)
{
    prop_kind k = KIND_AUTO;
    tree_t *t = parse_kind(text, &k);
    if (!t)
        show_error();
    tree_free(t);
    return t && k == want;
}

/* print -> parse gives an equal tree, and printing again gives the same
 * text. */
static int round_trip(const tree_t *t)
{
    char *s = tree_to_string(t);
    tree_t *u = s ? parse(s) : NULL;
    char *s2 = u ? tree_to_string(u) : NULL;
    int ok = u && tree_equal(t, u) && s2 && strcmp(s, s2) == 0;
    if (!ok)
        printf("# round trip failed: %s\n# reprinted: %s\n# %s", s ? s : "(null)",
               s2 ? s2 : "(null)", errbuf);
    free(s);
    free(s2);
    tree_free(u);
    return ok;
}

static int text_round_trip(const char *text)
{
    tree_t *t = parse(text);
    if (!t)
        show_error();
    int ok = t && round_trip(t);
    tree_free(t);
    return ok;
}

/* ---- the tests ---- */

static void test_spellings(void)
{
    CHECK(same("!\"eat0\"", "~\"eat0\""), "not: ! ~");
    CHECK(same("\"eat0\" & \"eat1\"", "\"eat0\" && \"eat1\""), "and: & &&");
    CHECK(same("\"eat0\" | \"eat1\"", "\"eat0\" || \"eat1\""), "or: | ||");
    CHECK(same("\"eat0\" -> \"eat1\"", "\"eat0\" => \"eat1\""), "implies: -> =>");
    CHECK(same("\"eat0\" <-> \"eat1\"", "\"eat0\" <=> \"eat1\""), "equivalent: <-> <=>");
    CHECK(same("F \"eat0\"", "<> \"eat0\""), "eventually: F <>");
    CHECK(same("G \"eat0\"", "[] \"eat0\""), "always: G []");
    CHECK(same("G\"eat0\"", "[]\"eat0\""), "always without blanks");
    CHECK(same("AX \"eat0\"", "A X \"eat0\""), "AX == A X");
    CHECK(same("EX \"eat0\"", "E X \"eat0\""), "EX == E X");
    CHECK(same("AF \"eat0\"", "A F \"eat0\""), "AF == A F");
    CHECK(same("AF \"eat0\"", "A <> \"eat0\""), "AF == A <>");
    CHECK(same("EF \"eat0\"", "E F \"eat0\""), "EF == E F");
    CHECK(same("AG \"eat0\"", "A G \"eat0\""), "AG == A G");
    CHECK(same("AG \"eat0\"", "A[]\"eat0\""), "AG == A[]");
    CHECK(same("EG \"eat0\"", "E [] \"eat0\""), "EG == E []");
    CHECK(same("E[\"eat0\" U \"eat1\"]", "E(\"eat0\" U \"eat1\")"), "E[ U ] == E( U )");
    CHECK(same("A[\"eat0\" U \"eat1\"]", "A ( \"eat0\" U \"eat1\" )"), "A[ U ] == A ( U )");
    CHECK(same("\"eat0\" = 1", "\"eat0\" == 1"), "= ==");
    CHECK(same("\"eat0\"", "'eat0'"), "both quotes");
    CHECK(same("\"eat0\"", "\"eat0\" >= 1"), "an atom means marked");
    CHECK(same("\"eat0\"", "\"3\""), "places by name and by id");
    CHECK(same("\"it's\"", "\"it's\" >= 1"), "a quote of the other kind inside a string");
    CHECK(same("fireable(\"takeleft0\")", "fireable('takeleft0')"), "fireable quotes");
    /* RERS's weak until: a W b = (a U b) | G a = b R (a | b) */
    CHECK(same("\"eat0\" W \"eat1\"", "\"eat1\" R (\"eat0\" | \"eat1\")"), "a W b == b R (a | b)");
    CHECK(same("G (\"eat0\" W X \"eat1\")", "G (X \"eat1\" R (\"eat0\" | X \"eat1\"))"),
          "W with a temporal right side");
    CHECK(kind_of("\"eat0\" W \"eat1\"", KIND_LTL), "W makes a formula LTL");
    CHECK(same("fireable(\"takeleft0\")", "fireable ( \"takeleft0\" )"), "fireable blanks");
    CHECK(same("true", "(true)") && differ("true", "false"), "true, false");
    /* the More spellings of §9 */
    CHECK(same("AG (\"eat0\" -> AF \"think0\")", "A G (\"eat0\" -> A F \"think0\")"), "§9 AG spaced");
    CHECK(same("AG (\"eat0\" -> AF \"think0\")", "AG(\"eat0\"=>AF\"think0\")"), "§9 AG fused");
    CHECK(same("E[\"eat0\" U \"eat1\"]", "E(\"eat0\" U \"eat1\")"), "§9 E until");
    CHECK(same("G F \"eat0\"", "[] <> \"eat0\""), "§9 G F");
    CHECK(same("!(\"eat0\" && \"eat1\")", "~(\"eat0\" & \"eat1\")"), "§9 not and");
    CHECK(same_nnf("!(\"eat0\" && \"eat1\")", "!\"eat0\" || !\"eat1\""), "§9 de Morgan");
    /* counts */
    CHECK(same("2 * \"fork0\" - \"think0\" != 0", "\"fork0\" + \"fork0\" - \"think0\" != 0"),
          "terms of one place are combined");
    CHECK(same("\"fork0\" + 3 < \"fork1\"", "\"fork0\" - \"fork1\" + 3 < 0"), "sum relop sum");
    CHECK(same("-\"fork0\" >= -2", "- \"fork0\" + 2 >= 0"), "unary minus");
    CHECK(same("- - \"fork0\" >= 1", "\"fork0\" >= 1"), "double minus");
    tree_t *t = parse("3 >= 2 * \"hasleft1\"");
    CHECK(t && t->op == T_CMP && t->rel == REL_GE && t->constant == 3 && t->nterms == 1 &&
          t->terms[0].place == 4 && t->terms[0].coef == -2, "3 >= 2 * \"hasleft1\" is 3 - 2 M >= 0");
    tree_free(t);
    t = parse("\"fork0\" - \"fork0\" = 0");
    CHECK(t && t->op == T_CMP && t->nterms == 0, "cancelled terms vanish");
    tree_free(t);
    t = parse("\"eat0\"");
    CHECK(t && t->op == T_CMP && t->rel == REL_GE && t->constant == -1 && t->nterms == 1 &&
          t->terms[0].coef == 1 && t->text && strcmp(t->text, "\"eat0\"") == 0,
          "an atom is M(p) - 1 >= 0 with its text");
    tree_free(t);
    t = parse("fireable(\"release2\")");
    CHECK(t && t->op == T_FIREABLE && t->n == 1 && t->items[0] == 8, "fireable leaf");
    tree_free(t);
    t = parse("deadlock");
    CHECK(t && t->op == T_DEADLOCK, "deadlock leaf");
    tree_free(t);
}

static void test_precedence(void)
{
    CHECK(same("G \"eat0\" & \"eat1\"", "(G \"eat0\") & \"eat1\"") &&
          differ("G \"eat0\" & \"eat1\"", "G (\"eat0\" & \"eat1\")"), "§5 G a & b");
    const char *prefixes[] = { "!", "~", "X", "F", "G", "<>", "[]", "AX", "EX", "AF", "EF",
                               "AG", "EG", "A X", "E F", "A G", "E []", "A<>" };
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
        char a[128], b[128];
        snprintf(a, sizeof a, "%s \"eat0\" & \"eat1\"", prefixes[i]);
        snprintf(b, sizeof b, "(%s \"eat0\") & \"eat1\"", prefixes[i]);
        CHECK(same(a, b), "§5 prefix %s binds tighter than &", prefixes[i]);
    }
    CHECK(same("\"eat0\" & \"eat1\" U \"eat2\"", "(\"eat0\" & \"eat1\") U \"eat2\""), "§5 a & b U c");
    CHECK(same("E[\"eat0\" & \"eat1\" U \"eat2\"]", "E[(\"eat0\" & \"eat1\") U \"eat2\"]"),
          "§5 E[a & b U c]");
    CHECK(same("\"eat0\" U \"eat1\" U \"eat2\"", "\"eat0\" U (\"eat1\" U \"eat2\")"), "§5 U right assoc");
    CHECK(same("G F \"eat0\" -> \"eat1\" U \"eat2\"", "(G F \"eat0\") -> (\"eat1\" U \"eat2\")"),
          "§5 G F a -> b U c");
    CHECK(same("\"eat0\" -> \"eat1\" -> \"eat2\"", "\"eat0\" -> (\"eat1\" -> \"eat2\")"),
          "§5 -> right assoc");
    CHECK(same("!\"eat0\" & \"eat1\" | \"eat2\"", "((!\"eat0\") & \"eat1\") | \"eat2\""),
          "§5 !a & b | c");
    CHECK(same("\"eat0\" <-> \"eat1\" <-> \"eat2\"", "(\"eat0\" <-> \"eat1\") <-> \"eat2\""),
          "<-> left assoc");
    CHECK(same("\"eat0\" & \"eat1\" & \"eat2\"", "(\"eat0\" & \"eat1\") & \"eat2\""), "& left assoc");
    CHECK(same("\"eat0\" | \"eat1\" | \"eat2\"", "(\"eat0\" | \"eat1\") | \"eat2\""), "| left assoc");
    CHECK(same("\"eat0\" | \"eat1\" & \"eat2\"", "\"eat0\" | (\"eat1\" & \"eat2\")"), "& tighter than |");
    CHECK(same("\"eat0\" U \"eat1\" -> \"eat2\"", "(\"eat0\" U \"eat1\") -> \"eat2\""), "U tighter than ->");
    CHECK(same("\"eat0\" -> \"eat1\" <-> \"eat2\"", "(\"eat0\" -> \"eat1\") <-> \"eat2\""),
          "-> tighter than <->");
    CHECK(same("\"eat0\" R \"eat1\" U \"eat2\"", "\"eat0\" R (\"eat1\" U \"eat2\")"), "U and R group right");
    CHECK(same("\"eat0\" | \"eat1\" U \"eat2\" | \"think0\"",
               "(\"eat0\" | \"eat1\") U (\"eat2\" | \"think0\")"), "| tighter than U");
    CHECK(same("!\"eat0\" >= 2", "!(\"eat0\" >= 2)"), "comparisons are primaries");
    CHECK(same("G \"fork0\" + \"fork1\" <= 1 & true", "(G (\"fork0\" + \"fork1\" <= 1)) & true"),
          "a comparison under a prefix");
    CHECK(same("AG EF \"think0\"", "AG (EF \"think0\")"), "prefix chains");
    CHECK(same("!!\"eat0\"", "!(!\"eat0\")"), "!! is two negations");
}

static void test_macros_and_comments(void)
{
    CHECK(same("#define AB \"eat0\" | \"eat1\"\nAB & \"eat2\"", "(\"eat0\" | \"eat1\") & \"eat2\""),
          "§8 macro is a parenthesised subtree");
    CHECK(same("/* mutual exclusion, written with labels */\n"
               "#define CS1 \"eat0\"          % proc1 is in its critical section\n"
               "#define CS2 \"eat1\"\n"
               "#define BOTH CS1 && CS2    // uses the two macros above\n"
               "BOTH\n", "\"eat0\" & \"eat1\""), "§9 the file with comments and macros");
    CHECK(same("   \t#define M \"eat0\"\nM", "\"eat0\""), "blanks before #");
    CHECK(same("\"eat0\" &\n#define M \"eat1\"\nM", "\"eat0\" & \"eat1\""), "a macro inside the formula's lines");
    CHECK(same("\"eat0\"\n#define M \"eat1\"\n", "\"eat0\""), "a macro after the formula");
    CHECK(same("#define M \"eat0\"\nM & M", "\"eat0\" & \"eat0\""), "a macro used twice");
    CHECK(same("#define M \"eat0\" /* c */ & \"eat1\" % d\nM", "\"eat0\" & \"eat1\""), "comments in a body");
    CHECK(same("#define M \"x%y//z/*w\"\nM", "\"odd1\""), "comment characters in strings");
    CHECK(same("#define _m1 \"eat0\"\n_m1", "\"eat0\""), "macro names with _ and digits");
    CHECK(same("#define M \"eat0\"\r\nM\r\n", "\"eat0\""), "CR LF line ends");
    CHECK(kind_of("#define P AG \"eat0\"\nP", KIND_CTL), "a macro's operators count for the kind");
    CHECK(same("#define P \"eat0\" U \"eat1\"\nA[P]", "A[\"eat0\" U \"eat1\"]"), "a macro as the until of A[]");
    CHECK(same("% c\n\"eat0\" // d\n/* e\n f */ & \"eat1\"", "\"eat0\" & \"eat1\""), "all comment forms");
    CHECK(same("\"eat0\"/**/&/***/\"eat1\"", "\"eat0\" & \"eat1\""), "empty comments");
    CHECK(same("\"eat0\" % no newline at the end", "\"eat0\""), "comment at the end of the file");
}

static void test_kinds(void)
{
    CHECK(kind_of("\"eat0\" & !deadlock", KIND_REACH), "state formula is reach");
    CHECK(kind_of("AG EF \"think0\"", KIND_CTL), "AG EF is ctl");
    CHECK(kind_of("E[\"eat0\" U \"eat1\"]", KIND_CTL), "E[ U ] is ctl");
    CHECK(kind_of("A X \"eat0\"", KIND_CTL), "A X is ctl");
    CHECK(kind_of("G F \"eat0\"", KIND_LTL), "G F is ltl");
    CHECK(kind_of("\"eat0\" R \"eat1\"", KIND_LTL), "R is ltl");
    CHECK(kind_of("X \"eat0\"", KIND_LTL), "X is ltl");
    prop_kind k = KIND_CTL;
    tree_t *t = parse_kind("\"eat0\"", &k);
    CHECK(t && k == KIND_CTL, "a state formula checked as ctl");
    tree_free(t);
    k = KIND_LTL;
    t = parse_kind("\"eat0\" U \"eat1\"", &k);
    CHECK(t && k == KIND_LTL, "explicit ltl");
    tree_free(t);
    k = KIND_CTL;
    t = parse_kind("AG (fireable(\"takeright0\") -> \"hasleft0\")", &k);
    CHECK(t && k == KIND_CTL, "explicit ctl");
    tree_free(t);
    t = formula_parse_string("G \"eat0\"", "f", net, NULL, netlang_resolve, NULL);
    CHECK(t != NULL, "kind pointer may be NULL");
    tree_free(t);
}

/* Every message of §10, with its position. */
static void test_errors(void)
{
    CHECK(fails("", "f:1:1: no formula in file"), "empty text");
    CHECK(fails("% only a comment\n\n", "f:3:1: no formula in file"), "only comments");
    CHECK(fails("#define M \"eat0\"\n", "f:2:1: no formula in file"), "only a macro");
    CHECK(fails("\"eat0\" \"eat1\"", "f:1:8: unexpected '\"eat1\"' after the formula"), "second formula");
    CHECK(fails("\"eat0\"\n\n  )", "f:3:3: unexpected ')' after the formula"), "text after the formula");
    CHECK(fails("\"eat0\" & )", "f:1:10: unexpected ')'"), "unexpected token");
    CHECK(fails("\"eat0\" &", "f:1:9: unexpected end of formula"), "unexpected end");
    CHECK(fails("\"eat0\" $ \"eat1\"", "f:1:8: unexpected character '$'"), "bad character");
    CHECK(fails("\"eat0\" \x01", "f:1:8: unexpected character '\\x01'"), "control character");
    CHECK(fails("\"eat0\" & \"ea", "f:1:10: unterminated string"), "unterminated string");
    CHECK(fails("'eat0\n' & true", "f:1:1: unterminated string"), "string across lines");
    CHECK(fails("\"eat0\" /* x\n * y", "f:1:8: unterminated comment"), "unterminated comment");
    CHECK(fails("\"eat0\" & FOO", "f:1:10: undefined macro FOO"), "undefined macro");
    CHECK(fails("M\n#define M \"eat0\"", "f:1:1: undefined macro M"), "macro used before its definition");
    CHECK(fails("GF \"eat0\"", "f:1:1: undefined macro GF"), "fused GF is a macro name");
    CHECK(fails("AGEF \"eat0\"", "f:1:1: undefined macro AGEF"), "fused AGEF is a macro name");
    CHECK(fails("#define M M\nM", "f:1:11: undefined macro M"), "no recursive macros");
    CHECK(fails("#define M \"eat0\"\n#define M \"eat1\"\nM", "f:2:9: macro M already defined"),
          "macro redefined");
    CHECK(fails("#define AG \"eat0\"\nAG", "f:1:9: AG is a keyword"), "keyword as macro");
    CHECK(fails("#define true \"eat0\"\ntrue", "f:1:9: true is a keyword"), "true as macro");
    CHECK(fails("#include \"x\"\n\"eat0\"", "f:1:1: unknown directive #include"), "unknown directive");
    CHECK(fails("  #pragma\n\"eat0\"", "f:1:3: unknown directive #pragma"), "indented unknown directive");
    CHECK(fails("#defineM \"eat0\"\nM", "f:1:1: unknown directive #defineM"), "#define needs a blank");
    CHECK(fails("#define\n\"eat0\"", "f:1:8: macro name expected after #define"), "#define without name");
    CHECK(fails("#define M\nM", "f:1:10: empty macro M"), "empty macro");
    CHECK(fails("#define M \"eat0\" &\nM", "f:1:19: unexpected end of macro"), "incomplete macro");
    CHECK(fails("#define M \"eat0\" \"eat1\"\nM", "f:1:18: unexpected '\"eat1\"' after the formula"),
          "two formulas in a macro");
    CHECK(fails("#define M \"nope\"\nM", "f:1:11: unknown atomic proposition \"nope\""),
          "atom errors inside macros");
    CHECK(fails("#define M \"eat0\" # x\nM", "f:1:18: unexpected character '#'"), "# inside a body");
    CHECK(fails("#define M   # x\nM", "f:1:13: unexpected character '#'"), "# starting a body");
    CHECK(fails("#define M \"eat0\" /* x\n*/ M", "f:1:18: unterminated comment"),
          "a body ends at the end of its line");
    CHECK(fails("#define M \"eat0\"\nM >= 2", "f:2:3: unexpected '>=' after the formula"),
          "a macro is not a number");
    CHECK(fails("A \"eat0\"", "f:1:3: path formula expected after A"), "A without path formula");
    CHECK(fails("E[\"eat0\"]", "f:1:2: path formula expected after E"), "E[] without until");
    CHECK(fails("A[\"eat0\" R \"eat1\"]", "f:1:2: path formula expected after A"), "A[ R ]");
    CHECK(fails("E (G \"eat0\")", "f:1:3: path formula expected after E"), "E(G a)");
    CHECK(fails("A[(\"eat0\" U \"eat1\") & true]", "f:1:2: path formula expected after A"),
          "until not at the top level");
    CHECK(fails("E AX \"eat0\"", "f:1:3: path formula expected after E"), "E AX");
    CHECK(fails("3", "f:1:2: comparison operator expected"), "bare integer");
    CHECK(fails("\"eat0\" + \"eat1\" & true", "f:1:17: comparison operator expected"), "bare sum");
    CHECK(fails("2 * \"eat0\"", "f:1:11: comparison operator expected"), "bare product");
    CHECK(fails("-\"eat0\"", "f:1:8: comparison operator expected"), "bare negation");
    CHECK(fails("2 * 3 > 1", "f:1:5: unexpected '3'"), "INT * needs a STRING");
    CHECK(fails("\"eat0\" < \"eat1\" < 3", "f:1:17: unexpected '<' after the formula"), "chained comparison");
    CHECK(fails("[\"eat0\"]", "f:1:1: unexpected '['"), "[ without A or E");
    /* kinds */
    CHECK(fails_kind("\"eat0\" & F \"eat1\"", KIND_REACH,
                     "f:1:10: temporal operator F not allowed in a reachability formula"), "reach with F");
    CHECK(fails_kind("<> \"eat1\"", KIND_REACH,
                     "f:1:1: temporal operator F not allowed in a reachability formula"), "reach with <>");
    CHECK(fails_kind("\"eat0\" | AG \"eat1\"", KIND_REACH,
                     "f:1:10: temporal operator AG not allowed in a reachability formula"), "reach with AG");
    CHECK(fails_kind("E[\"eat0\" U \"eat1\"]", KIND_REACH,
                     "f:1:1: temporal operator E[..U..] not allowed in a reachability formula"),
          "reach with E[ U ]");
    CHECK(fails_kind("\"eat0\" U \"eat1\"", KIND_REACH,
                     "f:1:8: temporal operator U not allowed in a reachability formula"), "reach with U");
    CHECK(fails_kind("AG X \"eat0\"", KIND_CTL, "f:1:4: X needs a path quantifier in CTL"), "ctl with X");
    CHECK(fails_kind("G \"eat0\"", KIND_CTL, "f:1:1: G needs a path quantifier in CTL"), "ctl with G");
    CHECK(fails_kind("A[\"eat0\" U \"eat1\" U \"eat2\"]", KIND_CTL,
                     "f:1:19: U needs a path quantifier in CTL"), "ctl with a nested until");
    CHECK(fails_kind("G AF \"eat0\"", KIND_LTL, "f:1:3: path quantifier A not allowed in LTL"),
          "ltl with AF");
    CHECK(fails_kind("E[\"eat0\" U \"eat1\"]", KIND_LTL, "f:1:1: path quantifier E not allowed in LTL"),
          "ltl with E[ U ]");
    CHECK(fails("AG F \"eat0\"", "f:1:4: formula mixes CTL and LTL operators"), "mixed, ctl first");
    CHECK(fails("F \"eat0\" & EG \"eat1\"", "f:1:12: formula mixes CTL and LTL operators"),
          "mixed, ltl first");
    CHECK(fails_kind("  \"eat0\"", KIND_DL, "f:1:3: dl takes no formula"), "dl with a formula");
    /* atoms */
    CHECK(fails("\"eat0\" &\n\n   \"nope\"", "f:3:4: unknown atomic proposition \"nope\""), "unknown place");
    CHECK(fails("\"dup\"", "f:1:1: ambiguous place name \"dup\""), "ambiguous place");
    CHECK(fails("\"fork0\" + 2 * \"nope\" > 1", "f:1:15: unknown atomic proposition \"nope\""),
          "unknown place in a sum");
    CHECK(fails("fireable(\"nope\")", "f:1:10: unknown transition \"nope\""), "unknown transition");
    CHECK(fails("fireable(\"eat0\")", "f:1:10: unknown transition \"eat0\""), "a place is no transition");
    /* numbers */
    CHECK(fails("\"eat0\" > 99999999999999999999", "f:1:10: integer too large"), "huge integer");
    CHECK(fails("9223372036854775807 + 1 > 0", "f:1:21: integer overflow"), "constant overflow");
    CHECK(fails("- 9223372036854775807 - 2 > 0", "f:1:23: integer overflow"), "negative overflow");
    CHECK(fails("9223372036854775807 * \"eat0\" + 9223372036854775807 * \"eat0\" > 0",
                "f:1:61: integer overflow in comparison"), "coefficient overflow");
    CHECK(fails("9223372036854775807 * \"eat0\" > -9223372036854775807 * \"eat0\"",
                "f:1:30: integer overflow in comparison"), "overflow across the relation");
    CHECK(same("9223372036854775807 * \"eat0\" >= 9223372036854775807",
               "9223372036854775807 * \"eat0\" - 9223372036854775807 >= 0"), "largest integers work");
    /* tabs count as one column */
    CHECK(fails("\t\"nope\"", "f:1:2: unknown atomic proposition \"nope\""), "tab is one column");
}

static void test_files(void)
{
    char path[] = "/tmp/mck-formula-XXXXXX";
    int fd = mkstemp(path);
    const char body[] = "% philosophers\n#define E0 \"eat0\"\nG !(E0 & \"eat1\")\n";
    CHECK(fd >= 0 && write(fd, body, sizeof body - 1) == (ssize_t)(sizeof body - 1), "temp file");
    close(fd);
    prop_kind k = KIND_AUTO;
    tree_t *t = netlang_formula(path, net, &k);
    tree_t *u = parse("G !(\"eat0\" & \"eat1\")");
    CHECK(t && u && tree_equal(t, u) && k == KIND_LTL, "netlang_formula reads a file");
    tree_free(t);
    tree_free(u);

    /* NUL bytes are characters like any other */
    FILE *f = fopen(path, "wb");
    fwrite("\"eat0\" &\n\0 true", 1, 15, f);
    fclose(f);
    char want[256];
    snprintf(want, sizeof want, "%s:2:1: unexpected character '\\x00'\n", path);
    fflush(stderr);
    int saved = dup(2);
    FILE *tmp = tmpfile();
    dup2(fileno(tmp), 2);
    k = KIND_AUTO;
    t = netlang_formula(path, net, &k);
    tree_t *missing = netlang_formula("/nonexistent/formula", net, &k);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(tmp);
    size_t n = fread(errbuf, 1, sizeof errbuf - 1, tmp);
    errbuf[n] = 0;
    fclose(tmp);
    CHECK(!t && strncmp(errbuf, want, strlen(want)) == 0, "NUL byte in a file");
    CHECK(!missing && strstr(errbuf, "/nonexistent/formula: cannot open") != NULL, "missing file");
    unlink(path);
}

static char *repeat(const char *head, size_t n, const char *middle, const char *tail)
{
    size_t hl = strlen(head), ml = strlen(middle), tl = strlen(tail);
    char *s = malloc(n * (hl + tl) + ml + 1), *p = s;
    for (size_t i = 0; i < n; i++, p += hl)
        memcpy(p, head, hl);
    memcpy(p, middle, ml), p += ml;
    for (size_t i = 0; i < n; i++, p += tl)
        memcpy(p, tail, tl);
    *p = 0;
    return s;
}

static int parses(char *text)
{
    tree_t *t = parse(text);
    free(text);
    if (!t)
        show_error();
    tree_free(t);
    return t != NULL;
}

static int nested_too_deeply(char *text)
{
    tree_t *t = parse(text);
    free(text);
    int ok = !t && strstr(errbuf, "formula nested too deeply") != NULL;
    if (!ok)
        printf("# %s", errbuf);
    tree_free(t);
    return ok;
}

static int too_large(char *text)
{
    tree_t *t = parse(text);
    free(text);
    int ok = !t && strstr(errbuf, "formula too large (more than 100000 operators and atoms") != NULL;
    if (!ok)
        printf("# %s", errbuf);
    tree_free(t);
    return ok;
}

static unsigned depth_of(const tree_t *t)
{
    if (!t)
        return 0;
    unsigned l = depth_of(t->l), r = depth_of(t->r);
    return 1 + (l > r ? l : r);
}

/* The operands of an op chain left to right, each an atom on the place
 * of the first operand: counted, and checked to be n. */
static void count_operands(const tree_t *t, tree_op op, size_t *n)
{
    if (t->op == op) {
        count_operands(t->l, op, n);
        count_operands(t->r, op, n);
    } else {
        (*n)++;
    }
}

static int chain_is_shallow(char *text, tree_op op, size_t n)
{
    tree_t *t = parse(text);
    free(text);
    if (!t) {
        show_error();
        return 0;
    }
    size_t got = 0;
    count_operands(t, op, &got);
    unsigned d = depth_of(t);
    unsigned want = 1;
    while (((size_t)1 << (want - 1)) < n)
        want++;
    int ok = got == n && d == want;
    if (!ok)
        printf("# %zu operands (want %zu), depth %u (want %u)\n", got, n, d, want);
    tree_free(t);
    return ok;
}

static void test_hostile(void)
{
    CHECK(parses(repeat("!", 5000, "\"eat0\"", "")), "5000 negations");
    CHECK(parses(repeat("(", 5000, "\"eat0\"", ")")), "5000 parentheses");
    CHECK(parses(repeat("\"eat0\" -> ", 3000, "\"eat0\"", "")), "3000 implications");
    CHECK(nested_too_deeply(repeat("!", 100000, "\"eat0\"", "")), "100000 negations fail cleanly");
    CHECK(nested_too_deeply(repeat("(", 100000, "\"eat0\"", ")")), "100000 parentheses fail cleanly");
    CHECK(nested_too_deeply(repeat("(", 100000, "", "")), "100000 open parentheses fail cleanly");
    CHECK(nested_too_deeply(repeat("G ", 100000, "\"eat0\"", "")), "100000 G fail cleanly");
    CHECK(nested_too_deeply(repeat("\"eat0\" U ", 100000, "\"eat0\"", "")), "100000 untils fail cleanly");
    /* a chain is no nesting (issue #40): 20000 conjuncts were refused as
     * "nested too deeply"; the tree is balanced, about 16 deep */
    CHECK(parses(repeat("\"eat0\" & ", 20000, "\"eat0\"", "")), "20001 conjuncts");
    CHECK(parses(repeat("\"eat0\" | ", 40000, "\"eat0\"", "")), "40001 disjuncts");
    CHECK(chain_is_shallow(repeat("\"eat0\" & ", 40000, "\"eat0\"", ""), T_AND, 40001),
          "40001 conjuncts make a tree 17 deep, operands in order");
    CHECK(too_large(repeat("\"eat0\" & ", 100000, "\"eat0\"", "")),
          "100001 conjuncts: the size limit, not nesting");
    CHECK(nested_too_deeply(repeat("(\"eat0\" & ", 10001, "\"eat0\"", ")")),
          "10001 nested parenthesised conjunctions fail cleanly");
    CHECK(nested_too_deeply(repeat("-", 100000, "\"eat0\" > 1", "")), "100000 minus fail cleanly");
    CHECK(nested_too_deeply(repeat("E[", 100000, "\"eat0\"", " U true]")), "100000 E[ fail cleanly");
    CHECK(parses(repeat("\"eat0\" + ", 100000, "\"eat0\" > 1", "")), "a sum of 100001 terms");
    /* macros multiply depth: the limit is on the tree */
    char *m1 = repeat("!", 8000, "\"eat0\"", "");
    char *m2 = repeat("!", 8000, "M1", "");
    size_t len = strlen(m1) + strlen(m2) + 64;
    char *text = malloc(len);
    snprintf(text, len, "#define M1 %s\n#define M2 %s\nM2", m1, m2);
    free(m1);
    free(m2);
    CHECK(nested_too_deeply(text), "deep macros fail cleanly");
    char *repeat_kept;
    tree_t *t;
    /* W copies its right operand: a chain of them doubles the tree per link
     * (found by fuzzing: 40 links asked for 2^40 nodes) */
    CHECK(parses(repeat("\"eat0\" W ", 12, "\"eat1\"", "")), "12 nested W (about 2^13 nodes)");
    t = parse(repeat_kept = repeat("\"eat0\" W ", 40, "\"eat1\"", ""));
    CHECK(!t && strstr(errbuf, "formula too large"), "40 nested W fail cleanly: %s", errbuf);
    free(repeat_kept);
    tree_free(t);
    /* and so does a macro used twice in the next one */
    char doubling[2048] = "#define M0 \"eat0\"\n";
    for (int i = 1; i <= 30; i++)
        snprintf(doubling + strlen(doubling), sizeof doubling - strlen(doubling),
                 "#define M%d (M%d | M%d)\n", i, i - 1, i - 1);
    strcat(doubling, "M30\n");
    t = parse(doubling);
    CHECK(!t && strstr(errbuf, "formula too large"), "macros doubling 30 times fail cleanly: %s",
          errbuf);
    tree_free(t);
    char *huge = repeat("9", 100000, " > \"eat0\"", "");
    t = parse(huge);
    CHECK(!t && strstr(errbuf, "f:1:1: integer too large"), "a 100000-digit integer");
    free(huge);
    tree_free(t);
    char *longstr = repeat("x", 100000, "", "");
    longstr[0] = '"';
    t = parse(longstr);
    CHECK(!t && strstr(errbuf, "f:1:1: unterminated string"), "a 100000-character unterminated string");
    free(longstr);
}

/* ---- round trips ---- */

static const char *const samples[] = {
    "\"eat0\" & \"eat1\" U \"eat2\"",
    "G \"eat0\" & \"eat1\"",
    "G (\"eat0\" & \"eat1\")",
    "\"eat0\" U \"eat1\" U \"eat2\"",
    "(\"eat0\" U \"eat1\") U \"eat2\"",
    "G F \"eat0\" -> \"eat1\" U \"eat2\"",
    "(\"eat0\" -> \"eat1\") -> \"eat2\"",
    "\"eat0\" <-> (\"eat1\" <-> \"eat2\")",
    "!\"eat0\" & \"eat1\" | \"eat2\"",
    "!(\"eat0\" & (\"eat1\" | \"eat2\"))",
    "\"eat0\" & (\"eat1\" & \"eat2\")",
    "AG (\"eat0\" -> AF \"think0\")",
    "A G (\"eat0\" -> A <> \"think0\")",
    "E[\"eat0\" | \"eat1\" U (\"eat2\" -> \"think0\")]",
    "A[(E[\"eat0\" U \"eat1\"] -> \"eat2\") | true U E[false U deadlock]]",
    "!fireable(\"takeleft0\") & !fireable('takeleft1') & !deadlock",
    "\"fork0\" + \"fork1\" + \"fork2\" = 0",
    "2 * \"fork0\" - \"think0\" != -3",
    "- - 3 <= -\"fork0\" + 007 * \"fork1\"",
    "\"eat0\" == 1 | \"eat0\" < 1 | \"eat0\" > 1 | \"eat0\" <= 1 | \"eat0\" >= 1",
    "X X \"eat0\" R (\"eat1\" R \"eat2\")",
    "'x%y//z/*w' & \"it's\"",
    "#define AB \"eat0\" | \"eat1\"\nAB & \"eat2\" | !AB",
    "EX EG EF AX AG AF true",
    "E(\"eat0\" U E(\"eat1\" U \"eat2\"))",
};

/* Random formulas over atoms of every leaf kind, either CTL or LTL. */
static const char *const atoms[] = {
    "\"eat0\"", "'fork1'", "\"think2\" >= 2", "2 * \"fork0\" - \"fork1\" != -3",
    "fireable(\"takeleft0\")", "true", "false", "deadlock", "-\"eat1\" < 1",
    "3 = \"hasleft0\"", "\"1\"", "\"x%y//z/*w\"",
};
static tree_t *atom_trees[sizeof atoms / sizeof atoms[0]];

static unsigned long rng = 12345;
static unsigned rnd(unsigned n)
{
    rng = rng * 6364136223846793005UL + 1442695040888963407UL;
    return (unsigned)(rng >> 33) % n;
}

static tree_t *random_tree(int depth, int ctl)
{
    if (depth == 0 || rnd(4) == 0)
        return tree_copy(atom_trees[rnd(sizeof atoms / sizeof atoms[0])]);
    static const tree_op ltl_unary[] = { T_NOT, T_X, T_F, T_G };
    static const tree_op ltl_binary[] = { T_AND, T_OR, T_IMPLIES, T_IFF, T_U, T_R };
    static const tree_op ctl_unary[] = { T_NOT, T_EX, T_AX, T_EF, T_AF, T_EG, T_AG };
    static const tree_op ctl_binary[] = { T_AND, T_OR, T_IMPLIES, T_IFF, T_EU, T_AU };
    if (rnd(2))
        return tree_unary(ctl ? ctl_unary[rnd(7)] : ltl_unary[rnd(4)], random_tree(depth - 1, ctl));
    return tree_binary(ctl ? ctl_binary[rnd(6)] : ltl_binary[rnd(6)],
                       random_tree(depth - 1, ctl), random_tree(depth - 1, ctl));
}

static void test_round_trips(void)
{
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++)
        CHECK(text_round_trip(samples[i]), "round trip %zu", i);
    for (size_t i = 0; i < sizeof atoms / sizeof atoms[0]; i++)
        atom_trees[i] = parse(atoms[i]);
    int ok = 1, n = 0;
    for (int i = 0; i < 3000 && ok; i++, n++) {
        tree_t *t = random_tree(1 + (int)rnd(7), (int)rnd(2));
        ok = round_trip(t);
        tree_free(t);
    }
    CHECK(ok, "%d random formulas round trip", n);
    /* tree_nnf_size predicts tree_nnf, <-> and negated A[..U..] included */
    ok = 1;
    for (int i = 0; i < 3000 && ok; i++) {
        tree_t *t = random_tree(1 + (int)rnd(7), (int)rnd(2));
        size_t want = tree_nnf_size(t);
        tree_t *u = tree_nnf(tree_copy(t));
        ok = u && tree_size(u) == want;
        if (!ok) {
            char *s = tree_to_string(t);
            printf("# %s: predicted %zu nodes, made %zu\n", s ? s : "?", want,
                   u ? tree_size(u) : 0);
            free(s);
        }
        tree_free(t);
        tree_free(u);
    }
    CHECK(ok, "the size of the negation normal form is predicted exactly (3000 formulas)");
    for (size_t i = 0; i < sizeof atoms / sizeof atoms[0]; i++)
        tree_free(atom_trees[i]);
}

/* ---- random spellings: an oracle independent of the printer ---- */

typedef struct buf { char *s; size_t n, cap; } buf;

static void put(buf *b, const char *text)
{
    size_t n = strlen(text);
    if (b->n + n + 1 > b->cap) {
        b->cap = 2 * (b->n + n + 1);
        b->s = realloc(b->s, b->cap);
    }
    memcpy(b->s + b->n, text, n + 1);
    b->n += n;
}

/* Token separators, comments included. */
static void blank(buf *b)
{
    static const char *const blanks[] = { " ", "  ", "\t", "\n", " /* c */ ", " % c\n", " // c\n", "\r\n" };
    put(b, blanks[rnd(sizeof blanks / sizeof blanks[0])]);
}

static void word(buf *b, const char *const *spellings, unsigned n)
{
    blank(b);
    put(b, spellings[rnd(n)]);
    blank(b);
}
#define WORD(b, ...) do { static const char *const w_[] = { __VA_ARGS__ };          \
                          word(b, w_, sizeof w_ / sizeof w_[0]); } while (0)

/* Writes t fully parenthesised, each operator in a random spelling. */
static void spell(buf *b, const tree_t *t)
{
    put(b, "(");
    if (t->text) {
        put(b, t->text);
    } else if (t->op == T_TRUE || t->op == T_FALSE || t->op == T_DEADLOCK) {
        put(b, t->op == T_TRUE ? "true" : t->op == T_FALSE ? "false" : "deadlock");
    } else if (t->op == T_EU || t->op == T_AU) {
        const char *q = t->op == T_EU ? "E" : "A";
        int square = (int)rnd(2);
        put(b, q);
        if (rnd(2))
            blank(b);
        put(b, square ? "[" : "(");
        spell(b, t->l);
        WORD(b, "U");
        spell(b, t->r);
        put(b, square ? "]" : ")");
    } else if (!t->r) {
        switch (t->op) {
        case T_NOT: WORD(b, "!", "~"); break;
        case T_X: WORD(b, "X"); break;
        case T_F: WORD(b, "F", "<>"); break;
        case T_G: WORD(b, "G", "[]"); break;
        case T_EX: WORD(b, "EX", "E X"); break;
        case T_AX: WORD(b, "AX", "A X"); break;
        case T_EF: WORD(b, "EF", "E F", "E <>", "E<>"); break;
        case T_AF: WORD(b, "AF", "A F", "A <>", "A<>"); break;
        case T_EG: WORD(b, "EG", "E G", "E []", "E[]"); break;
        case T_AG: WORD(b, "AG", "A G", "A []", "A[]"); break;
        default: put(b, "?"); break;
        }
        spell(b, t->l);
    } else {
        spell(b, t->l);
        switch (t->op) {
        case T_AND: WORD(b, "&", "&&"); break;
        case T_OR: WORD(b, "|", "||"); break;
        case T_IMPLIES: WORD(b, "->", "=>"); break;
        case T_IFF: WORD(b, "<->", "<=>"); break;
        case T_U: WORD(b, "U"); break;
        case T_R: WORD(b, "R"); break;
        default: put(b, "?"); break;
        }
        spell(b, t->r);
    }
    put(b, ")");
}

static void test_random_spellings(void)
{
    for (size_t i = 0; i < sizeof atoms / sizeof atoms[0]; i++)
        atom_trees[i] = parse(atoms[i]);
    int ok = 1, n = 0;
    for (int i = 0; i < 3000 && ok; i++, n++) {
        tree_t *t = random_tree(1 + (int)rnd(7), (int)rnd(2));
        buf b = { NULL, 0, 0 };
        put(&b, "");
        spell(&b, t);
        tree_t *u = parse(b.s);
        ok = u && tree_equal(t, u);
        if (!ok)
            printf("# spelled: %s\n# %s", b.s, errbuf);
        free(b.s);
        tree_free(t);
        tree_free(u);
    }
    CHECK(ok, "%d random formulas in random spellings parse to their trees", n);
    for (size_t i = 0; i < sizeof atoms / sizeof atoms[0]; i++)
        tree_free(atom_trees[i]);
}

/* Token soup: the parser must never crash, and whatever it accepts must
 * round trip. */
static void test_token_soup(void)
{
    static const char *const tokens[] = {
        "\"eat0\"", "'fork1'", "\"nope\"", "3", "0", "99999999999999999999", "true", "false",
        "deadlock", "fireable", "(", ")", "[", "]", "[]", "<>", "!", "~", "&", "&&", "|", "||",
        "->", "=>", "<->", "<=>", "X", "F", "G", "U", "R", "A", "E", "AX", "EF", "AG", "EG",
        "=", "==", "!=", "<", "<=", ">", ">=", "+", "-", "*", "M", "%", "//", "/*", "*/", "\n",
        "#define M ", "#define N \"eat1\"\n", "#", "$", "\"", "'", "GF",
    };
    size_t ntok = sizeof tokens / sizeof tokens[0];
    int accepted = 0, ok = 1;
    unsigned long errors_before = nc_error_count();
    for (int i = 0; i < 3000; i++) {
        char text[512] = "";
        int len = 1 + (int)rnd(12);
        for (int j = 0; j < len; j++) {
            strcat(text, tokens[rnd((unsigned)ntok)]);
            strcat(text, rnd(3) ? " " : "");
        }
        tree_t *t = parse(text);
        if (t) {
            accepted++;
            if (!round_trip(t)) {
                printf("# from: %s\n", text);
                ok = 0;
            }
        } else if (!errbuf[0]) {
            printf("# rejected without a message: %s\n", text);
            ok = 0;
        }
        tree_free(t);
    }
    CHECK(ok, "3000 token soups: %d accepted, all round trip, every rejection explained", accepted);
    CHECK(nc_error_count() - errors_before == (unsigned long)(3000 - accepted),
          "exactly one error per rejected soup");
}

int main(void)
{
    net = philosophers();
    test_spellings();
    test_precedence();
    test_macros_and_comments();
    test_kinds();
    test_errors();
    test_files();
    test_hostile();
    test_round_trips();
    test_random_spellings();
    test_token_soup();
    nc_free_net(net);
    UNIT_DONE();
}
