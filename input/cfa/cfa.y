/* The CFA grammar (cfa-format.md §2).  Conditions and arithmetic share one
 * expression grammar with precedences, and types are checked when a node
 * is built: that is what lets "(x + 1) = y" and "(x = 1 | y = 2)" both
 * parse without the backtracking the doc describes, with the same result.
 * Sections are read as a flat list of statements so that a statement in
 * the wrong place gets its own message instead of a syntax error.
 *
 * Ownership: an action owns the values of its right-hand side (bison
 * destroys them only when it discards symbols itself), and every cy_*
 * builder function owns what it is given, also when it fails. */
%define api.prefix {cy}
%define api.pure full
%define parse.error custom
%locations
%parse-param {void *scanner} {cy_state *st}
%lex-param {void *scanner}

%code requires {
#include "cfaint.h"
typedef struct cy_type {
    cfa_decl_kind kind;
    int64_t lo, hi, capacity, init;
    int has_init;
} cy_type;
typedef struct cy_names {
    char **v;
    size_t n, cap;
} cy_names;
}

%code {
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/grow.h"
int cylex(CYSTYPE *lval, CYLTYPE *lloc, void *scanner);
static void cyerror(CYLTYPE *loc, void *scanner, cy_state *st, const char *msg);
static void names_free(cy_names *n);
static int big(cy_state *st, uint64_t v, long line);
static int names_add(cy_state *st, cy_names *n, char *s, long line);
/* Nesting (parentheses, prefix operators, operands waiting for a right
 * side of tighter binding) grows bison's stack; a hostile file gets an
 * error rather than unbounded memory.  Flat chains (a + b + ..., c & d &
 * ...) reduce as they go and never fill it. */
#define YYMAXDEPTH 10000
#define YYMAXDEPTH_TEXT "10000"
#define LINE(n) ((long)(n).first_line)
#define CHECK(x) do { if ((x) < 0) YYABORT; } while (0)
}

%union {
    char *str;
    uint64_t num;           /* INT: at most 2^63, the magnitude of INT64_MIN */
    int64_t snum;
    cfa_expr *expr;
    cy_type type;
    cy_names names;
}

%token KW_CFA "'CFA'" KW_VAR "'var'" KW_INIT "'init'" KW_CHAN "'chan'" KW_STACK "'stack'"
%token KW_OF "'of'" KW_TRUE "'true'" KW_FALSE "'false'" KW_MOD "'mod'"
%token GLOBAL "'@global'" AUTOMATON "'@automaton'" START "'@start'" LABEL "'@label'"
%token <str> IDENT "a name" PREVAR "a pre-value" POSTVAR "a post-value"
%token <num> INT "a number"
%token LBRACE "'{'" RBRACE "'}'" DOTDOT "'..'" COLON "':'" SEMI "';'" COMMA "','"
%token ARROW "'->'" LPAR "'('" RPAR "')'" QUEST "'?'"
%token OR "'|'" AND "'&'" NOT "'not'" EXCL "'!'"
%token EQ "'='" NE "'!='" LT "'<'" LE "'<='" GT "'>'" GE "'>='"
%token PLUS "'+'" MINUS "'-'" TIMES "'*'" DIV "'/'"

%left OR
%left AND
%precedence NOT EXCL
%nonassoc EQ NE LT LE GT GE
%left PLUS MINUS
%left TIMES DIV KW_MOD
%precedence UMINUS

%type <expr> expr
%type <type> type range
%type <snum> sint
%type <names> labels

%destructor { free($$); } <str>
%destructor { cfa_expr_free($$); } <expr>
%destructor { names_free(&$$); } <names>

%%

file: KW_CFA units { CHECK(cy_finish(st, LINE(@2))); } ;

units: %empty | units unit ;

unit: GLOBAL                  { CHECK(cy_global(st, LINE(@1))); }
    | KW_VAR IDENT COLON type SEMI {
          if (cy_misplaced_decl(st, LINE(@1)) < 0) {
              free($2);
              YYABORT;
          }
          if ($4.kind == CFA_VAR)
              CHECK(cy_decl_var(st, $2, LINE(@1), $4.lo, $4.hi, $4.has_init, $4.init));
          else
              CHECK(cy_decl_buffer(st, $2, LINE(@1), $4.kind, $4.capacity, $4.lo, $4.hi));
      }
    | AUTOMATON IDENT         { CHECK(cy_automaton(st, $2, LINE(@2))); }
    | START IDENT SEMI        { CHECK(cy_start(st, $2, LINE(@2))); }
    | LABEL IDENT COLON labels SEMI {
          int bad = 0;
          for (size_t i = 0; i < $4.n; i++)
              if (bad)
                  free($4.v[i]);
              else
                  bad = cy_label(st, $2, $4.v[i], LINE(@4)) < 0;
          free($4.v);
          free($2);
          if (bad)
              YYABORT;
      }
    | IDENT ARROW IDENT opt_items SEMI { CHECK(cy_transition(st, $1, $3, LINE(@1))); }
    ;

type: range                          { $$ = $1; }
    | range KW_INIT sint             { $$ = $1; $$.has_init = 1; $$.init = $3; }
    | KW_CHAN sint KW_OF range       { $$ = $4; $$.kind = CFA_CHAN; $$.capacity = $2; }
    | KW_STACK sint KW_OF range      { $$ = $4; $$.kind = CFA_STACK; $$.capacity = $2; }
    | KW_CHAN sint KW_OF range KW_INIT sint {
          cy_error(st, LINE(@5), "'init' is not allowed for a channel (it starts empty)");
          YYABORT;
      }
    | KW_STACK sint KW_OF range KW_INIT sint {
          cy_error(st, LINE(@5), "'init' is not allowed for a stack (it starts empty)");
          YYABORT;
      }
    ;

range: LBRACE sint DOTDOT sint RBRACE {
          memset(&$$, 0, sizeof $$);
          $$.kind = CFA_VAR;
          $$.lo = $2;
          $$.hi = $4;
      } ;

sint: INT          { if (big(st, $1, LINE(@1))) YYABORT; $$ = (int64_t)$1; }
    | MINUS INT    { $$ = $2 > (uint64_t)INT64_MAX ? INT64_MIN : -(int64_t)$2; }
    ;

labels: IDENT              { memset(&$$, 0, sizeof $$); CHECK(names_add(st, &$$, $1, LINE(@1))); }
      | labels COMMA IDENT {
          $$ = $1;
          if (names_add(st, &$$, $3, LINE(@3)) < 0) {
              names_free(&$$);
              YYABORT;
          }
      }
      ;

opt_items: %empty | COLON items ;

items: item | items COMMA item ;

item: IDENT EXCL expr    { CHECK(cy_item_send(st, $1, $3, LINE(@1))); }
    | IDENT QUEST IDENT  { CHECK(cy_item_recv(st, $1, $3, LINE(@1))); }
    | expr               { CHECK(cy_item_pred(st, $1, LINE(@1))); }
    ;

expr: INT                       { if (big(st, $1, LINE(@1)) || !($$ = cy_int(st, (int64_t)$1))) YYABORT; }
    | KW_TRUE                   { if (!($$ = cy_bool(st, 1))) YYABORT; }
    | KW_FALSE                  { if (!($$ = cy_bool(st, 0))) YYABORT; }
    | IDENT                     { if (!($$ = cy_var(st, $1, CE_PLAIN, LINE(@1)))) YYABORT; }
    | PREVAR                    { if (!($$ = cy_var(st, $1, CE_PRE, LINE(@1)))) YYABORT; }
    | POSTVAR                   { if (!($$ = cy_var(st, $1, CE_POST, LINE(@1)))) YYABORT; }
    | LPAR expr RPAR            { $$ = $2; }
    | MINUS expr %prec UMINUS   { if (!($$ = cy_unary(st, CE_NEG, $2, LINE(@1)))) YYABORT; }
    | NOT expr                  { if (!($$ = cy_unary(st, CE_NOT, $2, LINE(@1)))) YYABORT; }
    | EXCL expr                 { if (!($$ = cy_unary(st, CE_NOT, $2, LINE(@1)))) YYABORT; }
    | expr OR expr              { if (!($$ = cy_binary(st, CE_OR, $1, $3, LINE(@2)))) YYABORT; }
    | expr AND expr             { if (!($$ = cy_binary(st, CE_AND, $1, $3, LINE(@2)))) YYABORT; }
    | expr EQ expr              { if (!($$ = cy_binary(st, CE_EQ, $1, $3, LINE(@2)))) YYABORT; }
    | expr NE expr              { if (!($$ = cy_binary(st, CE_NE, $1, $3, LINE(@2)))) YYABORT; }
    | expr LT expr              { if (!($$ = cy_binary(st, CE_LT, $1, $3, LINE(@2)))) YYABORT; }
    | expr LE expr              { if (!($$ = cy_binary(st, CE_LE, $1, $3, LINE(@2)))) YYABORT; }
    | expr GT expr              { if (!($$ = cy_binary(st, CE_GT, $1, $3, LINE(@2)))) YYABORT; }
    | expr GE expr              { if (!($$ = cy_binary(st, CE_GE, $1, $3, LINE(@2)))) YYABORT; }
    | expr PLUS expr            { if (!($$ = cy_binary(st, CE_ADD, $1, $3, LINE(@2)))) YYABORT; }
    | expr MINUS expr           { if (!($$ = cy_binary(st, CE_SUB, $1, $3, LINE(@2)))) YYABORT; }
    | expr TIMES expr           { if (!($$ = cy_binary(st, CE_MUL, $1, $3, LINE(@2)))) YYABORT; }
    | expr DIV expr             { if (!($$ = cy_binary(st, CE_DIV, $1, $3, LINE(@2)))) YYABORT; }
    | expr KW_MOD expr          { if (!($$ = cy_binary(st, CE_MOD, $1, $3, LINE(@2)))) YYABORT; }
    ;

%%

/* 2^63 is only a literal after a minus sign, in ranges and init. */
static int big(cy_state *st, uint64_t v, long line)
{
    if (v <= (uint64_t)INT64_MAX)
        return 0;
    cy_error(st, line, "the number %llu is too large (at most 9223372036854775807)",
             (unsigned long long)v);
    return 1;
}

static void names_free(cy_names *n)
{
    for (size_t i = 0; i < n->n; i++)
        free(n->v[i]);
    free(n->v);
    n->v = NULL;
    n->n = n->cap = 0;
}

static int names_add(cy_state *st, cy_names *n, char *s, long line)
{
    if (GROW(n->v, n->cap, n->n + 1) < 0) {
        free(s);
        cy_error(st, line, "out of memory");
        return -1;
    }
    n->v[n->n++] = s;
    return 0;
}

static void cyerror(CYLTYPE *loc, void *scanner, cy_state *st, const char *msg)
{
    (void)scanner;
    /* the only message bison makes itself: its stack reached YYMAXDEPTH */
    if (!st->failed)
        cy_error(st, loc->first_line, "%s", strcmp(msg, "memory exhausted") ? msg :
                 "expression nested too deeply (at most " YYMAXDEPTH_TEXT " open parentheses, "
                 "prefix operators and pending operands at once)");
}

/* Messages name what was expected where that is short; a missing ';' or
 * ')' at the end of a line is reported on that line, not on the next. */
static int yyreport_syntax_error(const yypcontext_t *ctx, void *scanner, cy_state *st)
{
    (void)scanner;
    if (st->failed)
        return 0;   /* the lexer already said what is wrong */
    long line = yypcontext_location(ctx)->first_line;
    yysymbol_kind_t next = yypcontext_token(ctx);
    if (st->ntokens <= 1 && next != YYSYMBOL_KW_CFA) {
        cy_error(st, line, "a CFA file starts with the keyword 'CFA'");
        return 0;
    }
    yysymbol_kind_t expected[YYNTOKENS];
    int n = yypcontext_expected_tokens(ctx, expected, YYNTOKENS);
    for (int i = 0; i < n; i++)
        if (expected[i] == YYSYMBOL_IDENT && st->tok_is_reserved) {
            cy_error(st, line, "'%s' is a reserved word and cannot be used as a name", st->tok);
            return 0;
        }
    for (int i = 0; i < n; i++)
        if ((expected[i] == YYSYMBOL_SEMI || expected[i] == YYSYMBOL_RPAR) &&
            st->prev_line > 0 && st->prev_line < line) {
            cy_error(st, st->prev_line, "%s expected at the end of the line",
                     yysymbol_name(expected[i]));
            return 0;
        }
    for (int i = 0; i < n; i++)
        if (expected[i] == YYSYMBOL_RPAR) {
            if (next == YYSYMBOL_YYEOF)
                cy_error(st, line, "unbalanced parentheses: ')' expected before the end of the file");
            else
                cy_error(st, line, "unbalanced parentheses: ')' expected before '%s'", st->tok);
            return 0;
        }
    if (next == YYSYMBOL_RPAR) {
        cy_error(st, line, "unbalanced parentheses: ')' without '('");
        return 0;
    }
    if (next >= YYSYMBOL_EQ && next <= YYSYMBOL_GE) {
        cy_error(st, line, "unexpected '%s' (comparisons do not chain: write a < b & b < c)",
                 st->tok);
        return 0;
    }
    char what[96];
    if (next == YYSYMBOL_YYEOF)
        snprintf(what, sizeof what, "unexpected end of file");
    else
        snprintf(what, sizeof what, "unexpected '%s'", st->tok);
    if (n >= 1 && n <= 3) {
        char list[160] = "";
        for (int i = 0; i < n; i++) {
            size_t len = strlen(list);
            snprintf(list + len, sizeof list - len, "%s%s", i == 0 ? "" : i + 1 == n ? " or " : ", ",
                     yysymbol_name(expected[i]));
        }
        cy_error(st, line, "%s, expected %s", what, list);
    } else {
        cy_error(st, line, "%s", what);
    }
    return 0;
}
