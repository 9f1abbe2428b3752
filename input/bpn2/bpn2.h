/* B(PN)², the core fragment of bpn2-format.md: the program as read, shared
 * by the parser (bpn2parse.c), the translation into a safe net
 * (bpn2net.c) and the presentation of runs and propositions (bpn2run.c),
 * which read the program back through net->lang_data.
 *
 * Expressions are CFA's (input/cfa/cfa.h): the same operators, the same
 * pre/post reading of 'x and x', the same exact 128-bit evaluation.  A
 * channel end is a CFA variable reference on the channel's declaration:
 * c? as its pre value (what is received), c! as its post value (what is
 * sent), so one evaluator serves both languages. */
#ifndef MCK_BPN2_H
#define MCK_BPN2_H

#include "input/cfa/cfa.h"
#include "base/netconv.h"

/* Bounds on one program's net (§3: an action beyond 10^6 assignments is an
 * error); a fuzzing build may lower them. */
#ifndef BPN2_MAX_ASSIGNMENTS
#define BPN2_MAX_ASSIGNMENTS 1000000u
#endif
#ifndef BPN2_MAX_PLACES
#define BPN2_MAX_PLACES 1000000u
#endif
#ifndef BPN2_MAX_TRANSITIONS
#define BPN2_MAX_TRANSITIONS 4000000u
#endif
#ifndef BPN2_MAX_ARCS
#define BPN2_MAX_ARCS 40000000u
#endif
/* Operators and operands evaluated while expanding the actions (each
 * assignment evaluates the whole action): seconds of work at most. */
#ifndef BPN2_MAX_WORK
#define BPN2_MAX_WORK 2000000000ull
#endif

typedef struct bp_decl {
    char *name;        /* as written */
    char *display;     /* name in places and runs: "x", or "x@L" when it hides another */
    int is_chan;
    int64_t lo, hi;
    uint32_t capacity; /* channels */
    int has_init;
    int64_t init;
    long line;
    uint32_t first_place;   /* variables: x=lo; channels: first slot's empty place */
    uint32_t init_place;    /* variables without init: x.init */
} bp_decl;

typedef struct bp_action {
    char *text;        /* the source between < and >, blanks collapsed */
    long line;
    cfa_code code;
    char *branch;      /* "1.2": the parallel branches around it; "0" for none */
    /* control interfaces (bpn2net.c): handles, resolved at the end */
    uint32_t *entry, *exit;
    size_t nentry, nexit;
    /* resolved entry places, for "at L" and for deadlocked runs */
    uint32_t *entry_places;
    size_t nentry_places;
    int32_t send, recv;     /* channel declarations used with ! and ?, or -1 */
} bp_action;

typedef enum { BC_ACTION, BC_SEQ, BC_CHOICE, BC_PAR, BC_LOOP } bp_kind;

typedef struct bp_com {
    bp_kind kind;
    long line;
    uint32_t action;         /* BC_ACTION */
    struct bp_com **kids;    /* the parts; BC_LOOP: the clauses */
    int *repeat;             /* BC_LOOP: 1 repeat, 0 exit, per clause */
    size_t nkids;
    size_t cap_kids, cap_repeat;
} bp_com;

/* What a net transition does, for runs. */
typedef enum { BT_INIT, BT_ACTION, BT_SYNC, BT_TERMINATE } bp_trans_kind;

typedef struct bp_trans {
    bp_trans_kind kind;
    uint32_t a, b;           /* BT_ACTION: a; BT_SYNC: sender a, receiver b; BT_INIT: decl a */
} bp_trans;

typedef struct bp_program {
    char *file;
    bp_decl *decls;
    size_t ndecls, cap_decls;
    bp_action *actions;
    size_t nactions, cap_actions;
    bp_com *body;
    /* per net transition */
    bp_trans *trans;
    size_t ntrans, cap_trans;
    size_t nplaces_program;   /* places before the control places */
    size_t naction_transitions;
    size_t ncontrol;
} bp_program;

void bp_program_free(bp_program *p);
void bp_com_free(bp_com *c);

/* Parses a file; NULL after one "FILE:LINE: message". */
bp_program *bp_parse_file(const char *path);

/* Builds the net of §3 and hands the program to it as lang_data (freed
 * with the net, or here on failure).  NULL after an error message. */
net_t *bp_build_net(bp_program *p);

#endif
