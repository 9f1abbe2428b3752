/* The generic property parser (formula-syntax.md): one flex/bison grammar
 * for reachability, CTL and LTL.  Atomic propositions are quoted strings
 * handed to the model's language through a resolver callback. */
#ifndef MCK_FORMULA_H
#define MCK_FORMULA_H

#include <stddef.h>
#include "base/netconv.h"
#include "base/result.h"
#include "base/tree.h"

/* What the parser needs for a quoted string (kit-overview.md §7.2). */
typedef enum { AP_BOOL, AP_COUNT, AP_FIREABLE } ap_pos;

/* Returns a new subtree in net terms, or NULL after writing a one-line
 * reason into msg (the parser adds FILE:LINE:COL).
 *   AP_BOOL:     a state formula ("place is marked", a disjunction, ...)
 *   AP_COUNT:    a T_CMP node whose terms and constant are the linear term
 *                the string denotes (its rel is ignored)
 *   AP_FIREABLE: a T_FIREABLE node (or a disjunction of them)
 * The callback must not keep pointers into text. */
typedef tree_t *(*ap_resolver)(net_t *net, void *lang_data, ap_pos pos,
                               const char *text, char *msg, size_t msglen);

/* Parses the one formula of a file.  *kind is the kind asked for (or
 * KIND_AUTO, then derived as formula-syntax.md §7 says); on success it holds
 * the kind used.  Errors: "FILE:LINE:COL: message" on stderr, NULL. */
tree_t *formula_parse_file(const char *path, net_t *net, void *lang_data,
                           ap_resolver resolve, prop_kind *kind);
/* The same for text in memory; name is used in messages. */
tree_t *formula_parse_string(const char *text, const char *name, net_t *net,
                             void *lang_data, ap_resolver resolve, prop_kind *kind);

/* Options of formula_parse_text. */
typedef struct formula_opts {
    int bare_names;      /* an identifier that is neither keyword nor macro is
                            an atomic proposition, as if quoted (RERS) */
    long first_line;     /* line of text's first line in its file, for messages */
} formula_opts;
tree_t *formula_parse_text(const char *text, const char *name, const formula_opts *opts,
                           net_t *net, void *lang_data, ap_resolver resolve, prop_kind *kind);
tree_t *formula_parse_file_opts(const char *path, const formula_opts *opts, net_t *net,
                                void *lang_data, ap_resolver resolve, prop_kind *kind);

/* A property file's "#fair weak|strong [NAMES]" line (formula-syntax.md
 * §4): mode FAIRNESS_NONE when there is none; names is the rest of the
 * line (malloc'd, NULL for every transition), line its line number. */
typedef struct formula_fairness {
    check_fairness mode;
    char *names;
    long line;
} formula_fairness;
/* 0, or -1 after "FILE:LINE:COL: message" (or read_file's) on stderr. */
int formula_read_fairness(const char *path, formula_fairness *out);

/* A file may instead hold several formulas, each "name: formula" with an
 * optional ";" after it (formula-syntax.md §8).  Each is checked against
 * kind, or with KIND_AUTO gets its own kind as a lone formula would. */
typedef struct named_formula {
    char *name;
    long line;
    tree_t *formula;
    prop_kind kind;
} named_formula;
/* 0 with the file's *n formulas in file order; *n is 0 when the file holds
 * one formula without a name (formula_parse_file reads that).  -1 after
 * an error message "FILE:LINE:COL: ...". */
int formula_parse_named_file(const char *path, const formula_opts *opts, net_t *net,
                             void *lang_data, ap_resolver resolve, prop_kind kind,
                             named_formula **out, size_t *n);
void named_formulas_free(named_formula *v, size_t n);

#endif
