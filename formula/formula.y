/* The property grammar (formula-syntax.md §4, precedence §5), written as
 * one nonterminal per precedence level so that it needs no precedence
 * declarations and has no conflicts.  Actions only call build.c. */
%define api.prefix {fy}
%define api.pure full
%define parse.error custom
%define parse.lac full
%locations
%parse-param {yyscan_t scanner} {fy_state *st}
%lex-param {yyscan_t scanner}

%code requires {
#include "fyint.h"
}

%code {
#include <string.h>
int fylex(FYSTYPE *lval, FYLTYPE *lloc, yyscan_t scanner);
static void fyerror(FYLTYPE *loc, yyscan_t scanner, fy_state *st, const char *msg);
/* Nesting grows the stack (parentheses, prefix operators, and the chains
 * of U, R and -> that group to the right): a hostile formula gets "nested
 * too deeply" instead of unbounded memory.  No level of nesting takes more
 * than four entries, so a full stack means more than FY_MAX_DEPTH levels. */
#define YYMAXDEPTH (4 * FY_MAX_DEPTH + 100)
#define L(n) (long)(n).first_line, (long)(n).first_column
}

%union {
    fy_chain *chain;
    fy_node node;
    fy_sum *sum;
    char *str;
    int64_t num;
    int op;
    int macro;
    fy_name named;
}

%token TRUE "true" FALSE "false" DEADLOCK "deadlock" FIREABLE "fireable"
%token <op> QUANT LTLOP CTLOP UNTIL REL
%token NOT IFF IMP AND OR LBRK RBRK LPAR RPAR PLUS MINUS TIMES SEMI
%token <str> STRING
%token <named> NAMED
%token <num> INT
%token <macro> MACRO

%type <node> formula equiv implication until disj conj unary primary
%type <chain> disjs conjs
%type <sum> sum term

%destructor { fy_node_free(&$$); } <node>
%destructor { fy_chain_free($$); } <chain>
%destructor { fy_sum_free($$); } <sum>
%destructor { free($$); } <str>
%destructor { free($$.name); } <named>

%%

start: formula {
        st->result = $1;
        st->have_result = 1;
        st->start_line = @1.first_line;
        st->start_col = @1.first_column;
    }
    | named_list ;

/* "[KIND] name: formula" with an optional ";": the next name or the end
 * of the file ends a formula as well; "dl name:" has no formula
 * (formula-syntax.md §8) */
named_list: named | named_list named ;

named: NAMED formula      { if (fy_add_named(st, &$1, &$2, L(@1), L(@2))) YYERROR; }
    | NAMED formula SEMI  { if (fy_add_named(st, &$1, &$2, L(@1), L(@2))) YYERROR; }
    | NAMED               { if (fy_add_named(st, &$1, NULL, L(@1), L(@1))) YYERROR; }
    | NAMED SEMI          { if (fy_add_named(st, &$1, NULL, L(@1), L(@1))) YYERROR; }
    ;

formula: equiv ;

equiv: implication
    | equiv IFF implication { if (fy_infix(st, &$$, T_IFF, &$1, &$3, L(@2))) YYERROR; }
    ;

implication: until
    | until IMP implication { if (fy_infix(st, &$$, T_IMPLIES, &$1, &$3, L(@2))) YYERROR; }
    ;

until: disj
    | disj UNTIL until { if (fy_infix(st, &$$, (tree_op)$2, &$1, &$3, L(@2))) YYERROR; }
    ;

/* & and | chains are collected operand by operand and built balanced
 * (fy_chain): their length is no nesting. */
disj: disjs { if (fy_chain_end(st, &$$, $1)) YYERROR; } ;

disjs: conj { if (!($$ = fy_chain_start(st, T_OR, &$1))) YYERROR; }
    | disjs OR conj { $$ = $1; if (fy_chain_add(st, $$, &$3, L(@2))) YYERROR; }
    ;

conj: conjs { if (fy_chain_end(st, &$$, $1)) YYERROR; } ;

conjs: unary { if (!($$ = fy_chain_start(st, T_AND, &$1))) YYERROR; }
    | conjs AND unary { $$ = $1; if (fy_chain_add(st, $$, &$3, L(@2))) YYERROR; }
    ;

unary: NOT unary   { if (fy_prefix(st, &$$, T_NOT, &$2, L(@1))) YYERROR; }
    | LTLOP unary  { if (fy_prefix(st, &$$, (tree_op)$1, &$2, L(@1))) YYERROR; }
    | CTLOP unary  { if (fy_prefix(st, &$$, (tree_op)$1, &$2, L(@1))) YYERROR; }
    | QUANT LTLOP unary {
        if (fy_quantified(st, &$$, (char)$1, (tree_op)$2, &$3, L(@1))) YYERROR; }
    | QUANT LBRK formula RBRK {
        if (fy_quantified_until(st, &$$, (char)$1, &$3, L(@1), L(@2))) YYERROR; }
    | QUANT LPAR formula RPAR {
        if (fy_quantified_until(st, &$$, (char)$1, &$3, L(@1), L(@2))) YYERROR; }
    | primary
    ;

primary: TRUE    { if (fy_leaf(st, &$$, tree_const(1), L(@1))) YYERROR; }
    | FALSE      { if (fy_leaf(st, &$$, tree_const(0), L(@1))) YYERROR; }
    | DEADLOCK   { if (fy_leaf(st, &$$, tree_deadlock(), L(@1))) YYERROR; }
    | FIREABLE LPAR STRING RPAR { if (fy_fireable(st, &$$, $3, L(@3))) YYERROR; }
    | sum {
        /* the complaint points where the comparison operator was expected */
        if (yychar == FYEMPTY ? fy_sum_alone(st, &$$, $1, @1.last_line, @1.last_column)
                              : fy_sum_alone(st, &$$, $1, L(yylloc)))
            YYERROR;
    }
    | sum REL sum {
        if (fy_compare(st, &$$, $1, $2, $3, L(@2))) YYERROR; }
    | MACRO      { if (fy_macro_use(st, &$$, $1, L(@1))) YYERROR; }
    | LPAR formula RPAR { $$ = $2; }
    ;

sum: term
    | sum PLUS term  { if (!($$ = fy_sum_add(st, $1, $3, 0, L(@2)))) YYERROR; }
    | sum MINUS term { if (!($$ = fy_sum_add(st, $1, $3, 1, L(@2)))) YYERROR; }
    ;

term: MINUS term        { if (!($$ = fy_sum_negate(st, $2, L(@1)))) YYERROR; }
    | INT               { if (!($$ = fy_sum_const(st, $1))) YYERROR; }
    | STRING            { if (!($$ = fy_sum_atom(st, $1, 1, 0, L(@1)))) YYERROR; }
    | INT TIMES STRING  { if (!($$ = fy_sum_atom(st, $3, $1, 1, L(@3)))) YYERROR; }
    ;

%%

static void fyerror(FYLTYPE *loc, yyscan_t scanner, fy_state *st, const char *msg)
{
    (void)scanner;
    /* bison's only own message: the stack limit was hit */
    if (strcmp(msg, "memory exhausted") == 0)
        fy_nested_too_deeply(st, loc->first_line, loc->first_column);
    else
        fy_error(st, loc->first_line, loc->first_column, "%s", msg);
}

/* The messages of formula-syntax.md §10 for syntax errors: what came
 * unexpectedly, and whether a complete formula preceded it. */
static int yyreport_syntax_error(const yypcontext_t *ctx, yyscan_t scanner, fy_state *st)
{
    (void)scanner;
    const FYLTYPE *loc = yypcontext_location(ctx);
    long line = loc->first_line, col = loc->first_column;
    yysymbol_kind_t next = yypcontext_token(ctx);
    if (next == YYSYMBOL_YYEOF && st->ntokens <= 1) {
        if (st->in_macro)
            fy_error(st, line, col, "empty macro %s", st->macro_name);
        else
            fy_error(st, line, col, "no formula in file");
        return 0;
    }
    if (st->prev_kind == QUANT) {
        fy_error(st, line, col, "path formula expected after %c", st->prev_quant);
        return 0;
    }
    if (next == YYSYMBOL_YYEOF) {
        fy_error(st, line, col, "unexpected end of %s", st->in_macro ? "macro" : "formula");
        return 0;
    }
    yysymbol_kind_t expected[YYNTOKENS];
    int n = yypcontext_expected_tokens(ctx, expected, YYNTOKENS);
    int complete = 0;
    for (int i = 0; i < n; i++)
        if (expected[i] == YYSYMBOL_YYEOF)
            complete = 1;
    fy_error(st, line, col, complete ? "unexpected '%s' after the formula" : "unexpected '%s'",
             st->tok);
    return 0;
}
