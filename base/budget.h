/* The one budget of a run of mck: the time and memory the user (--timeout,
 * --mem) or the contest (BenchKit's variables) gives, made once in main.c,
 * its limits set once by the command, and handed down to every engine and
 * checker (check_options.budget).
 *
 * Nothing below the command resolves a default or invents a share of its
 * own: a checker that splits its budget carves a named part out of it
 * (budget_carve), and the one table of carves in budget.c says how much
 * of the bytes and of the time left each part gets, and why. */
#ifndef MCK_BUDGET_H
#define MCK_BUDGET_H

#include <stddef.h>
#include <stdio.h>

/* Without --mem or BenchKit's memory confinement: half the physical
 * memory, at most this. */
#define BUDGET_DEFAULT_BYTES_MAX ((size_t)8 << 30)
/* BenchKit without BK_TIME_CONFINEMENT: the contest's usual hour. */
#define BUDGET_BENCHKIT_SECONDS 3600.0

/* Where a limit came from, for -v. */
typedef enum {
    BUDGET_DEFAULT,     /* nobody set it */
    BUDGET_OPTION,      /* --mem, --timeout */
    BUDGET_BENCHKIT,    /* BK_MEMORY_CONFINEMENT, BK_TIME_CONFINEMENT */
    BUDGET_CARVED       /* a share of a parent budget */
} budget_source;

typedef struct budget {
    const char *name;           /* "run", or the carve's name */
    double start;               /* mono_now() when it was made: deadlines count from here */
    double deadline;            /* mono_now() by which to give up; 0: no time limit */
    size_t bytes;               /* for stores, graphs and stacks; set once, never 0 after */
    budget_source bytes_from, time_from;
    FILE *log;                  /* -v: the budget and each carve are told here; NULL: silent */
    volatile int *interrupted;  /* set asynchronously by SIGINT or SIGTERM; never NULL */
} budget_t;

/* The run's budget, its clock started now, with the default bytes and no
 * time limit until the command sets them.  interrupted may be NULL (a
 * flag nothing sets). */
void budget_init(budget_t *b, volatile int *interrupted);
/* The command's limits, once, after its options are read: seconds (0:
 * none) and bytes (0: the default, budget_default_bytes).  log: where -v
 * tells each carve (NULL: silent); the command tells the budget itself
 * (budget_report). */
void budget_set_limits(budget_t *b, double seconds, size_t bytes, FILE *log);
/* BenchKit's confinements instead, as the environment holds them (NULL or
 * "": unset): seconds (default BUDGET_BENCHKIT_SECONDS) less a margin for
 * the last answers and exit, and a share of the MiB for search data; the
 * rest as budget_set_limits.  Returns which values were unusable and
 * ignored (BUDGET_BAD_TIME | BUDGET_BAD_MEMORY), for the caller to say. */
#define BUDGET_BAD_TIME 1
#define BUDGET_BAD_MEMORY 2
int budget_set_benchkit(budget_t *b, const char *time_confinement,
                        const char *memory_confinement, FILE *log);
/* Half the physical memory, at most BUDGET_DEFAULT_BYTES_MAX. */
size_t budget_default_bytes(void);

/* Seconds since b was made (for the run: since mck started). */
double budget_elapsed(const budget_t *b);
/* Seconds b was given (deadline - start); HUGE_VAL without a limit. */
double budget_seconds(const budget_t *b);
/* Seconds to b's deadline, >= 0; HUGE_VAL without one. */
double budget_left(const budget_t *b);
/* Whether the deadline has passed or a signal asked to stop. */
int budget_expired(const budget_t *b);

/* The named parts of a budget (the table in budget.c says each one's
 * share and why). */
typedef enum {
    CARVE_CTL_STATES,           /* the markings' store while the graph is built */
    CARVE_CTL_MODEL,            /* the graph, the atoms and the evaluation */
    CARVE_CTL_GRAPH,            /*   of ctl.model: the graph's own blocks */
    CARVE_CTL_LOCAL_NODES,      /* the local CTL check's nodes and successor lists */
    CARVE_CTL_LOCAL_STATES,     /*   and its markings */
    CARVE_CTL_DG_STATES,        /* the dependency graph's markings */
    CARVE_CTL_DG_GRAPH,         /*   and its configurations and edges */
    CARVE_LTL_STACK,            /* the product's arrays and stacks */
    CARVE_LTL_STATES,           /*   and its markings */
    CARVE_GENERIC_STATES,       /* mck properties: the exploration's markings and time */
    CARVE_GENERIC_GRAPH,        /*   its reachability graph */
    CARVE_GENERIC_LP,           /*   the state equation after it */
    CARVE_GENERIC_LP_DEADLOCK,  /*     of generic.lp: "no deadlock" */
    CARVE_GENERIC_LP_SAFE,      /*     of generic.lp: "every place safe" */
    CARVE_REDUCE,               /* the reduce checker's structural reduction */
    CARVE_EXPLORE_PLACEBITS,    /* place bounds for fixed-width keys */
    CARVE_EXPLORE_ONEHOT,       /*   of explore.placebits: one-hot groups */
    CARVE_PLACEBITS_INVARIANTS, /*   of explore.placebits: invariants before the LPs */
    CARVE_MCC_REDUCE,           /* mck mcc: the structural reduction */
    CARVE_MCC_LIVENESS_STATES,  /* Liveness: the markings */
    CARVE_MCC_LIVENESS_GRAPH,   /*   and the graph */
    CARVE_MCC_GLOBAL_LP,        /* the global properties: the state equation first */
    CARVE_MCC_GLOBAL_WALK,      /*   then random walks */
    CARVE_MCC_PREPASS,          /* Reachability and UpperBounds: the deciders */
    CARVE_MCC_PREPASS_DECIDER,  /*   one of them (budget_carve_part) */
    CARVE_MCC_CTL_LP,           /* CTL: the state equation on the subformulas */
    CARVE_MCC_CTL_LOCAL,        /*   the local checks */
    CARVE_MCC_CTL_LOCAL_ALONE,  /*   the local checks when no whole graph follows */
    CARVE_MCC_CTL_GRAPH,        /*   the whole graph */
    CARVE_MCC_CTL_FORMULA,      /*   one formula of an on-the-fly engine (budget_carve_part) */
    CARVE_MCC_LTL_FORMULA,      /* LTL: one formula (budget_carve_part) */
    CARVE_MCC_PORTFOLIO,        /* the second process of a formula examination */
    CARVE_MCC_PORTFOLIO_FORMULA, /*   its first turn at one formula (budget_carve_part) */
    CARVE_MCC_PORTFOLIO_FIRST,  /*   CTL: best-first within a cap, before the diagrams */
    CARVE_MCC_PORTFOLIO_REACH,  /*   CTL: its reachable set, before best-first takes over */
    CARVE_SYMBOLIC_PLACEBITS,   /* the symbolic checker: proven place bounds */
    CARVE_SYMBOLIC_ONEHOT,      /*   of symbolic.placebits: one-hot groups */
    CARVE_SYMBOLIC_TABLE,       /* the decision diagrams' node table and caches */
    CARVE_SYMBOLIC_COUNT,       /*   and the walks over them that count */
    CARVE_MCC_STATESPACE_EXPLICIT, /* StateSpace: the explicit search before the diagrams */
    CARVE_MCC_STATESPACE_SYMBOLIC, /*   and the diagrams, a second short of the end */
    CARVE_MCC_STATESPACE_EXPLICIT_AGAIN, /*   the explicit search when the diagrams cannot start */
    CARVE_UNFOLD_PLACEBITS,     /* the unfold checker: the proof that every place is safe */
    CARVE_UNFOLD_PREFIX,        /*   the prefix and its construction (the solver has the rest) */
    CARVE_UNFOLD_LOOK,          /*   a look at the prefix built so far, for an early answer */
    CARVE_MCC_UNFOLD_DEADLOCK,  /* ReachabilityDeadlock: the prefix and its solver first */
    CARVE_MCC_UNFOLD_REACH,     /* the reachability files: the prefix as a pre-pass decider */
    CARVE_MCC_UNFOLD_REACH_PREFIX, /*   its prefix; the solver on it has the rest */
    CARVE_COMPOSE_PARTS,        /* the compose checker: its components, composites and maps */
    CARVE_COMPOSE_ONEHOT,       /*   of compose.parts: components from one-hot groups */
    CARVE_COMPOSE_PROBE,        /*   a first look at the components explored together */
    CARVE_COMPOSE_SNOWBALL,     /*   without X: the snowball, unnamed steps hidden */
    CARVE_COMPOSE_FIRST,        /* the compose checker before its stubborn search of the net */
    CARVE_COMPOSE_CHECK,        /*   the formula on what composing left */
    CARVE_COUNT
} budget_carve_id;

/* A part of parent, made now: its bytes a share of parent's, its deadline
 * a share of the time parent has left (or the table's cap).  Told on the
 * parent's log.  A carve that must share among n (CARVE_* "part") is
 * made with budget_carve_part. */
budget_t budget_carve(const budget_t *parent, budget_carve_id id);
/* One of n equal parts of the time parent has left, its bytes whole: for
 * items taken in turn, each leaving what it does not use to the next. */
budget_t budget_carve_part(const budget_t *parent, budget_carve_id id, size_t n);
/* The carve's name ("ctl.states"), NULL for an unknown id. */
const char *budget_carve_name(budget_carve_id id);
/* A question's budget: parent's limits with the clock started now, so that
 * each property of a file gets the whole --timeout, as it would alone. */
budget_t budget_restart(const budget_t *parent);

/* ---- the stages before a search ----
 *
 * Reading a model and its property, unfolding a colored net and compiling
 * the net come before any search, in code that is handed no budget: a
 * reader has the plugin API's signature (readfunc_t), and the net's
 * builder (netconv.h) serves every reader.  So the command lends the run's
 * budget to these stages (budget_lend), each says what it is doing
 * (budget_stage), and their loops ask budget_poll at every element.  It
 * says stop once the deadline has passed, a signal has come, or the
 * process has grown by more than the budget's bytes since the lending
 * (its resident size, which is what a user's memory limit sees, less 4 MiB
 * for the readers' own code and buffers); the
 * answer then stays stop until the budget is returned.  A stage told to
 * stop returns as on an error but prints nothing (nc_error is silent
 * then), and the command answers UNKNOWN with budget_stop_reason:
 * "time limit reached while reading". */

/* Lends b to the stages, "reading" first; its bytes count from the
 * process's size now. */
void budget_lend(budget_t *b);
/* What the stages do now: "reading", "unfolding", "compiling" (a string
 * that lives as long as the lending). */
void budget_stage(const char *stage);
/* 1 when the stages must stop, else 0; 0 when nothing is lent.  Cheap
 * enough for every element: it looks at the clock and the size only every
 * BUDGET_POLL_EVERY calls. */
#define BUDGET_POLL_EVERY 1024
int budget_poll(void);
/* budget_poll looking at once: for loops whose steps are long. */
int budget_check(void);
/* Whether the stages were told to stop, without looking again: 0 when
 * nothing is lent. */
int budget_stopped(void);
/* Why the stages stopped, "memory budget exhausted while unfolding": while
 * lent, and after budget_return until the next lending; NULL when they
 * did not. */
const char *budget_stop_reason(void);
/* Ends the lending.  done: the stages succeeded; then one last check,
 * and b's bytes become what the search may add: less what the stages made
 * the process grow (whole MiB, told on b's log).  Returns 1 when a limit
 * stopped them (budget_stop_reason says which until the next lending),
 * else 0: after a failure (!done), the failure was the stage's own. */
int budget_return(budget_t *b, int done);

/* "budget: 64 MiB (--mem), 5 s (--timeout)" for the run, "budget:
 * ctl.states: 21.3 MiB, 5 s" for a carve; one line on out. */
void budget_report(const budget_t *b, FILE *out);

#endif
