/* The checkers' table (checkers.h). */
#include "checkers/checkers.h"
#include "checkers/dist.h"
#include "checkers/compose/compose.h"
#include "checkers/explicit.h"
#include "checkers/reduced.h"
#include "checkers/stubborn.h"
#include "checkers/symbolic.h"
#include "checkers/unfold.h"

#include <string.h>

static const checker_type checkers[] = {
    {"explicit", KINDS_BIT(KIND_DL) | KINDS_BIT(KIND_REACH) | KINDS_BIT(KIND_CTL) |
     KINDS_BIT(KIND_LTL), explicit_accepts, explicit_run,
     "explicit-state search: shortest witnesses (dl, reach); CTL on the reachability graph; "
     "LTL by automata",
     "any place/transition net (weights, read arcs, unbounded: limits end in UNKNOWN)", 0},
    {"stubborn", KINDS_BIT(KIND_DL) | KINDS_BIT(KIND_REACH) | KINDS_BIT(KIND_LTL),
     stubborn_accepts, stubborn_run,
     "explicit-state search reduced by stubborn sets (partial-order reduction): every deadlock, "
     "every reachable goal and every run up to stuttering (LTL without X and actions) or "
     "with its word exactly (LTL with X or actions, or infinite runs only) is kept; "
     "witnesses are runs, not always shortest",
     "any place/transition net; gains most on concurrent models", 0},
    {"reduce", KINDS_BIT(KIND_DL) | KINDS_BIT(KIND_REACH) | KINDS_BIT(KIND_CTL) |
     KINDS_BIT(KIND_LTL), reduced_accepts, reduced_run,
     "structural reduction for the question (dead and duplicate transitions; constant, "
     "parallel, sink and implicit places; free sequences agglomerated), then explicit search "
     "on the smaller net (ltl: without X, deadlock and actions; ctl: bisimilar graphs, free "
     "sequences only without X and deadlock); witnesses and lassos are expanded back into "
     "runs of the model",
     "any place/transition net; gains most on nets with sequential chains", 0},
    {"symbolic", KINDS_BIT(KIND_DL) | KINDS_BIT(KIND_REACH) | KINDS_BIT(KIND_CTL),
     symbolic_accepts, symbolic_run,
     "decision diagrams (BuDDy): the reachable markings by chaining, each place a binary "
     "number of bits from its proven bound, one-hot groups one number; witnesses are "
     "shortest runs, from breadth-first layers walked back; CTL by fixpoints on the "
     "reachable set (no run)",
     "bounded place/transition nets (every place needs a proven bound; else UNKNOWN)", FENCE_TIME},
    {"unfold", KINDS_BIT(KIND_DL) | KINDS_BIT(KIND_REACH), unfold_accepts, unfold_run,
     "complete finite prefix of the unfolding (Esparza, Roemer, Vogler's order; possible "
     "extensions from the concurrency relation), deadlock and reachability decided over its "
     "configurations by a SAT solver (CaDiCaL); the configuration found, linearised, is the "
     "witness",
     "safe place/transition nets (every place proven 1-bounded; else UNKNOWN); gains most on "
     "many loosely coupled processes", 0},
    {"dist", KINDS_BIT(KIND_DL) | KINDS_BIT(KIND_REACH), dist_accepts, dist_check,
     "distributed explicit-state search over MPI (mpirun -np N mck check --mpi): markings "
     "partitioned by hash over the ranks, breadth-first in synchronous levels; witnesses are "
     "shortest runs, rebuilt from the ranks that own their markings",
     "bounded place/transition nets (every place needs a proven bound, keys of at most 128 "
     "bits; else UNKNOWN)", 0},
    {"compose", KINDS_BIT(KIND_LTL), compose_accepts, compose_run,
     "LTL over actions by compositional minimisation: each sequential component's LTS, then "
     "products two at a time, minimised modulo strong bisimulation once the actions whose "
     "owners are all inside are the formula's letters (without X: steps no proposition names "
     "hidden behind a gap flag, modulo branching bisimulation with explicit divergence); the "
     "formula is checked on what is left and its counterexample lifted to a lasso of the model; "
     "what it leaves UNKNOWN in half the time, the stubborn search of the model tries with the "
     "rest",
     "synchronised products of sequential components (RERS parallel systems; nets whose "
     "units or one-hot groups each hold one token that every transition moves within)", 0},
};
#define N_CHECKERS (sizeof checkers / sizeof checkers[0])

const checker_type *checker_at(size_t i)
{
    return i < N_CHECKERS ? &checkers[i] : NULL;
}

const checker_type *checker_by_name(const char *name, size_t len)
{
    for (size_t i = 0; i < N_CHECKERS; i++)
        if (strlen(checkers[i].name) == len && strncmp(checkers[i].name, name, len) == 0)
            return &checkers[i];
    return NULL;
}
