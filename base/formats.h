/* The row types of mck's two plug-in tables (docs/architecture.md): a
 * modelling language is an input_type (input/languages.c, and plugins), a
 * checker is a checker_type (checkers/checkers.c); nothing else knows which
 * rows exist. */
#ifndef MCK_FORMATS_H
#define MCK_FORMATS_H

#include <stdio.h>
#include "base/netconv.h"
#include "base/tree.h"
#include "base/result.h"

/* Read a model into a net; NULL after nc_error. */
typedef net_t *(*readfunc_t)(const char *path);
/* Read a property file into a tree.  *kind is the kind asked for, or
 * KIND_AUTO; on success it holds the kind the formula is checked as.
 * NULL after an error message FILE:LINE:COL. */
typedef tree_t *(*formfunc_t)(const char *path, net_t *net, prop_kind *kind);
/* Print the run of a result as steps of the user's model
 * (kit-overview.md §6.3): initial state, steps, final state or loop. */
typedef void (*outputfunc_t)(FILE *out, net_t *net, const result_t *res);

typedef struct input_type {
    const char *name;       /* "pnml", "pep" */
    const char *suffixes;   /* space-separated, with dots: ".ll_net .ll" */
    readfunc_t readfunc;
    formfunc_t formfunc;
    outputfunc_t outputfunc;
    const char *description;
} input_type;

/* Bit set of the kinds a checker answers. */
#define KINDS_BIT(k) (1u << (k))

typedef struct checker_type {
    const char *name;       /* "explicit"; never contains '-' */
    unsigned kinds;         /* KINDS_BIT(KIND_DL) | ... */
    /* Refuses an operator it cannot handle: returns 0 and writes why. */
    int (*accepts)(const tree_t *t, prop_kind kind, char *why, size_t whylen);
    /* Runs on the compiled net; formula is NULL for dl. */
    void (*run)(const cnet_t *cn, const tree_t *formula, prop_kind kind,
                const check_options *opt, result_t *res);
    const char *description;
    const char *nets;       /* the nets it accepts: "any P/T net", "1-safe nets" */
    /* 1: single operations of it can run long past a deadline (BuDDy
     * reads the clock only at its garbage collections; CaDiCaL at its own
     * checkpoints: the unfold checker ended 46 s past a 120 s limit on
     * Railroad-PT-010), so the commands
     * run it in a child process they kill at the deadline
     * (engine/fence.h, cmd/checkerrun.h); FENCE_MEMORY also limits the
     * child's address space to the budget's bytes, for a library whose
     * allocations the budget cannot count.  The unfold row says 0: it
     * fences only its solver (CaDiCaL), after a prefix that a list of
     * properties shares (checkers/unfold.h) */
    int fenced;
} checker_type;

#define FENCE_TIME 1
#define FENCE_MEMORY 2

#endif
