/* The built-in modelling languages: the functions main.c puts into its
 * input_types[] table.  Each reader knows netconv and tree only. */
#ifndef MCK_INPUT_H
#define MCK_INPUT_H

#include <stdio.h>
#include <string.h>
#include "netconv.h"
#include "tree.h"
#include "result.h"
#include "formula/formula.h"

/* PNML P/T nets (input/pnml.c) */
net_t *pnml_read(const char *path);

/* PEP low-level nets (input/pep.c) */
net_t *pep_read(const char *path);

/* SENIL, the Kit's language for 1-safe nets (input/senil.c) */
net_t *senil_read(const char *path);

/* CFA, communicating finite automata (input/cfa/, docs: cfa-format.md):
 * atomic propositions and runs in the automata's terms. */
net_t *cfa_read(const char *path);
tree_t *cfa_formula(const char *path, net_t *net, prop_kind *kind);
tree_t *cfa_resolve(net_t *net, void *lang_data, ap_pos pos, const char *text,
                    char *msg, size_t msglen);
void cfa_output(FILE *out, net_t *net, const result_t *res);

/* Shared by the plain net languages (input/netlang.c): atomic propositions
 * are place names (by name, then by id), fireable() takes transition names
 * (by name, then by id); runs are printed as transition names. */
tree_t *netlang_resolve(net_t *net, void *lang_data, ap_pos pos, const char *text,
                        char *msg, size_t msglen);
tree_t *netlang_formula(const char *path, net_t *net, prop_kind *kind);
void netlang_output(FILE *out, net_t *net, const result_t *res);
/* The same, with the transition id after the name where they differ. */
void pnml_output(FILE *out, net_t *net, const result_t *res);

#endif
