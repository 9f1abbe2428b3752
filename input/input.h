/* The built-in modelling languages: the functions of the input_types[]
 * table (input/languages.c).  Each reader knows netconv and tree only. */
#ifndef MCK_INPUT_H
#define MCK_INPUT_H

#include <stdio.h>
#include <string.h>
#include "base/netconv.h"
#include "base/tree.h"
#include "base/result.h"
#include "formula/formula.h"

/* ---- printed runs (input/printrun.c) ----
 * The frame every language's runs share (kit-overview.md §6.3): "***
 * initial state: ... ***", the steps, then "*** final state: ... ***" (and
 * "*** run ends in a deadlock ***" where it ends in one), or the loop
 * between "*** loop starts here ***" and "*** loop ends here ***".  A
 * language gives only its words for a state and a step. */
typedef struct run_words {
    FILE *out;
    void *lang;   /* the language's own, for the functions below */
    /* "*** WHAT: ... ***" and a newline: the marking m as a state */
    void (*state)(const struct run_words *w, const nc_count *m, const char *what);
    /* Step i (from 0): t fired from before into after.  Non-zero stops the
     * run, for a step the language has no words for. */
    int (*step)(const struct run_words *w, size_t i, uint32_t t, const nc_count *before,
                const nc_count *after);
    /* Optional: after the final state when no transition is enabled there. */
    void (*dead)(const struct run_words *w, const nc_count *m);
} run_words;

/* Replays res on net (base/runwalk.h) and prints it in w's words. */
void print_run_words(net_t *net, const result_t *res, const run_words *w);

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

/* RERS parallel systems (input/rers.c, input/rersprops.c): LTSs from
 * Graphviz .dot, action-based LTL properties.  The net and the model kept
 * with it: input/rers.h. */
net_t *rers_read(const char *path);
void rers_output(FILE *out, net_t *net, const result_t *res);
tree_t *rers_formula(const char *path, net_t *net, prop_kind *kind);
tree_t *rers_resolve(net_t *net, void *lang_data, ap_pos pos, const char *text,
                     char *msg, size_t msglen);

/* A file of several numbered properties (RERS): each with its formula,
 * the kind it is checked as, and the answer the file expects. */
typedef struct prop_entry {
    char *name;          /* "#7" */
    long number, line;
    tree_t *formula;
    prop_kind kind;
    int expected;        /* 1 holds, 0 does not, -1 not given */
} prop_entry;
/* 0 with *n properties (0 when the file has no "#N:" headers: then it is
 * one formula for the language's formula function); -1 after an error. */
int rers_properties(const char *path, net_t *net, prop_entry **out, size_t *n);
void prop_list_free(prop_entry *v, size_t n);

/* APNN place/transition nets (input/apnn.c, apnn-format.md): runs as
 * transition names, markings without the capacity complement places. */
net_t *apnn_read(const char *path);
void apnn_output(FILE *out, net_t *net, const result_t *res);

/* B(PN)², the core fragment of bpn2-format.md (input/bpn2/): atomic
 * propositions "x = v" and "at L", runs as executed actions. */
net_t *bpn2_read(const char *path);
tree_t *bpn2_formula(const char *path, net_t *net, prop_kind *kind);
tree_t *bpn2_resolve(net_t *net, void *lang_data, ap_pos pos, const char *text,
                     char *msg, size_t msglen);
void bpn2_output(FILE *out, net_t *net, const result_t *res);

/* Shared by the plain net languages (input/netatoms.c, input/netrun.c): atomic propositions
 * are place names (by name, then by id), fireable() takes transition names
 * (by name, then by id); runs are printed as transition names. */
tree_t *netlang_resolve(net_t *net, void *lang_data, ap_pos pos, const char *text,
                        char *msg, size_t msglen);
tree_t *netlang_formula(const char *path, net_t *net, prop_kind *kind);
void netlang_output(FILE *out, net_t *net, const result_t *res);
/* The same, showing only the first nshown places in markings. */
void netlang_output_places(FILE *out, net_t *net, const result_t *res, size_t nshown);
/* The same, with the transition id after the name where they differ. */
void pnml_output(FILE *out, net_t *net, const result_t *res);

#endif
