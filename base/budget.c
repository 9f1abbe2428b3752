/* The run's budget and the one table of its carves (budget.h). */
#include "base/budget.h"
#include "base/clock.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#define MIB ((size_t)1 << 20)
/* the reading code's own growth (grown), with room for a huge page */
#define STAGES_OWN_BYTES (4 * MIB)

static void put_bytes(FILE *out, size_t bytes);

/* BenchKit kills the run when its time confinement ends: searching stops
 * this long before, a hundredth of it, at least 0.8 s and at most 30 s (the
 * end of a search, the last answers and exit are quick). */
#define BENCHKIT_MARGIN_SHARE 0.01
#define BENCHKIT_MARGIN_MIN 0.8
#define BENCHKIT_MARGIN_MAX 30.0
/* Of BenchKit's memory confinement, the share given to search data; the
 * rest is for the net, the process and the allocator's slack. */
#define BENCHKIT_MEMORY_SHARE 0.75

/* ---- the carves ----
 *
 * Every split of a budget is here.  bytes: a share num/den of the
 * parent's bytes, or (rest_of) what a sibling leaves of them; time: a
 * share of what the parent has left when the carve is made, or one of n
 * equal parts (budget_carve_part), at most max_seconds, and open_seconds
 * when the parent has no time limit (0: none either).  A carve made as its
 * parent starts gets the share of the parent's whole time. */
typedef struct carve_rule {
    const char *name;
    unsigned bytes_num, bytes_den;  /* 0/0 with rest_of */
    int rest_of;                    /* CARVE_*, or -1 */
    double time_share;              /* 0: a part (1/n) */
    double max_seconds;             /* 0: no cap */
    double open_seconds;            /* without a parent limit; 0: none */
    double reserve_seconds;         /* kept back from the time left before the share */
} carve_rule;

#define BYTES(n, d) (n), (d), -1
#define REST_OF(id) 0, 0, (id)
#define ALL_BYTES BYTES(1, 1)

static const carve_rule rules[CARVE_COUNT] = {
    /* CTL builds the whole graph: its markings are dropped once it is
     * built, but the graph (16 bytes a state, 8 an edge), the atoms'
     * bitmaps and the evaluation's arrays take more than they do. */
    [CARVE_CTL_STATES] = {"ctl.states", BYTES(1, 3), 1.0, 0, 0},
    [CARVE_CTL_MODEL] = {"ctl.model", REST_OF(CARVE_CTL_STATES), 1.0, 0, 0},
    /* half of the model for the graph, the rest for the atoms, and the
     * evaluation then has the whole budget (the store is gone) */
    [CARVE_CTL_GRAPH] = {"ctl.graph", BYTES(1, 2), 1.0, 0, 0},
    /* the local check keeps a node per (formula, marking) beside the
     * markings: as many of one as of the other */
    [CARVE_CTL_LOCAL_NODES] = {"ctl.local.nodes", BYTES(1, 2), 1.0, 0, 0},
    [CARVE_CTL_LOCAL_STATES] = {"ctl.local.states", REST_OF(CARVE_CTL_LOCAL_NODES), 1.0, 0, 0},
    /* the dependency graph holds configurations and edges, several per
     * marking and each larger than a packed marking: a quarter for the
     * markings */
    [CARVE_CTL_DG_STATES] = {"ctl.dg.states", BYTES(1, 4), 1.0, 0, 0},
    [CARVE_CTL_DG_GRAPH] = {"ctl.dg.graph", REST_OF(CARVE_CTL_DG_STATES), 1.0, 0, 0},
    /* LTL's product states live in the store; the arrays and the two
     * depth-first stacks hold a few words per state on them */
    [CARVE_LTL_STACK] = {"ltl.stack", BYTES(1, 3), 1.0, 0, 0},
    [CARVE_LTL_STATES] = {"ltl.states", REST_OF(CARVE_LTL_STACK), 1.0, 0, 0},
    /* mck properties: the graph takes more than the markings (as ctl);
     * the exploration gets most of the time, the state equation what it
     * leaves, and at least 20 s when there is no limit, half of it for
     * each of its two questions */
    [CARVE_GENERIC_STATES] = {"generic.states", BYTES(1, 3), 0.7, 0, 0},
    [CARVE_GENERIC_GRAPH] = {"generic.graph", REST_OF(CARVE_GENERIC_STATES), 1.0, 0, 0},
    [CARVE_GENERIC_LP] = {"generic.lp", ALL_BYTES, 1.0, 0, 20.0},
    [CARVE_GENERIC_LP_DEADLOCK] = {"generic.lp.deadlock", ALL_BYTES, 0.5, 0, 0},
    [CARVE_GENERIC_LP_SAFE] = {"generic.lp.safe", ALL_BYTES, 0.5, 0, 0},
    /* a reduction that takes longer than a twentieth of the search's time
     * is not worth it; 10 s without a limit */
    [CARVE_REDUCE] = {"reduce", ALL_BYTES, 0.05, 10.0, 10.0},
    /* the LPs are a few milliseconds a place on most nets, and a net too
     * big for them is searched with variable keys: a twentieth of the
     * time, at most a second */
    [CARVE_EXPLORE_PLACEBITS] = {"explore.placebits", ALL_BYTES, 0.05, 1.0, 1.0},
    /* carved from explore.placebits as it starts.  One-hot groups save
     * bits but are never needed; invariants spare LPs: where they find
     * nothing they stop at their row limit, so their share costs little,
     * and each place they bound is one linear program fewer */
    [CARVE_EXPLORE_ONEHOT] = {"explore.onehot", ALL_BYTES, 0.25, 0, 0},
    [CARVE_PLACEBITS_INVARIANTS] = {"placebits.invariants", ALL_BYTES, 0.25, 0, 0},
    /* mck mcc: a small share of the time left */
    [CARVE_MCC_REDUCE] = {"mcc.reduce", ALL_BYTES, 0.05, 0, 0},
    /* Liveness: the graph takes more than the markings, as ctl */
    [CARVE_MCC_LIVENESS_STATES] = {"mcc.liveness.states", BYTES(1, 3), 1.0, 0, 0},
    [CARVE_MCC_LIVENESS_GRAPH] = {"mcc.liveness.graph", REST_OF(CARVE_MCC_LIVENESS_STATES), 1.0,
                                  0, 0},
    /* the global properties: the state equation before the search; random
     * walks find deep deadlocks, unsafe markings and rare transitions a
     * breadth-first search may not reach in time, but a small net's
     * search should not wait long for them */
    [CARVE_MCC_GLOBAL_LP] = {"mcc.global.lp", ALL_BYTES, 0.3, 0, 0},
    [CARVE_MCC_GLOBAL_WALK] = {"mcc.global.walk", ALL_BYTES, 0.1, 5.0, 0},
    /* Reachability and UpperBounds: the cheap deciders before the
     * exploration, each an equal part of what they have left */
    [CARVE_MCC_PREPASS] = {"mcc.prepass", ALL_BYTES, 0.3, 0, 0},
    [CARVE_MCC_PREPASS_DECIDER] = {"mcc.prepass.decider", ALL_BYTES, 0, 0, 0},
    /* CTL: the state equation, then the local checks, each formula an
     * equal part of what is left so that quick ones leave theirs to the
     * next; then the whole graph, and what it leaves to the dependency
     * graph, formula by formula again.  (A loop of linear programs spreads
     * its own stage's time over its items: those are not carves.) */
    [CARVE_MCC_CTL_LP] = {"mcc.ctl.lp", ALL_BYTES, 0.25, 0, 0},
    [CARVE_MCC_CTL_LOCAL] = {"mcc.ctl.local", ALL_BYTES, 0.25, 0, 0},
    [CARVE_MCC_CTL_LOCAL_ALONE] = {"mcc.ctl.local.alone", ALL_BYTES, 0.4, 0, 0},
    [CARVE_MCC_CTL_GRAPH] = {"mcc.ctl.graph", ALL_BYTES, 0.7, 0, 0},
    [CARVE_MCC_CTL_FORMULA] = {"mcc.ctl.formula", ALL_BYTES, 0, 0, 0},
    /* LTL: each formula an equal part of the time left, in rounds */
    [CARVE_MCC_LTL_FORMULA] = {"mcc.ltl.formula", ALL_BYTES, 0, 0, 0},
    /* the portfolio's second process (mcc/portfolio.c): half the bytes,
     * which the first gives up, and the whole time beside it */
    [CARVE_MCC_PORTFOLIO] = {"mcc.portfolio", BYTES(1, 2), 1.0, 0, 0},
    [CARVE_MCC_PORTFOLIO_FORMULA] = {"mcc.portfolio.formula", ALL_BYTES, 0, 0, 0},
    /* for CTL, best-first dependency graphs first, each formula within
     * a cap of markings (portfolio.c): where best-first decides at all it
     * did so within 14,000 markings, a fraction of a second, but the
     * diagrams' fixpoints, once they have a reachable set, take the time
     * to the end (Election2020-PT-none CTLFireability-00 was decided by
     * best-first after a set that was not complete, and left open after
     * one that was) */
    [CARVE_MCC_PORTFOLIO_FIRST] = {"mcc.portfolio.first", ALL_BYTES, 0.0625, 0, 0},
    /* for CTL, the reachable set stops at 7/8 of the time, so that a set
     * that will not be complete leaves best-first dependency graphs a
     * few seconds (ctl.c); the sets completed late at 60 s took 45 and
     * 50 s (UtahNoC-PT-none, BusinessProcesses-PT-05) */
    [CARVE_MCC_PORTFOLIO_REACH] = {"mcc.portfolio.reach", ALL_BYTES, 0.875, 0, 0},
    /* the symbolic engine cannot start without a bound for every place,
     * so its linear programs get more than the explicit search's
     * (explore.placebits), at most 30 s without a limit; the one-hot
     * groups are optional, as there */
    [CARVE_SYMBOLIC_PLACEBITS] = {"symbolic.placebits", ALL_BYTES, 0.2, 0, 30.0},
    [CARVE_SYMBOLIC_ONEHOT] = {"symbolic.onehot", ALL_BYTES, 0.25, 0, 0},
    /* BuDDy's nodes and caches; the rest for the walks over the diagram
     * that count (symbolic/count.c, maxtokens.c: a word or two per node
     * of the table, a few words and the number's limbs per node counted)
     * and the layers of a witness (a handle each) */
    [CARVE_SYMBOLIC_TABLE] = {"symbolic.table", BYTES(3, 4), 1.0, 0, 0},
    [CARVE_SYMBOLIC_COUNT] = {"symbolic.count", REST_OF(CARVE_SYMBOLIC_TABLE), 1.0, 0, 0},
    /* StateSpace: the explicit search answers small nets at once and
     * needs no bounds; where it gives up, the diagrams get what is left.
     * Of the 116 MCC P/T instances at 60 s, those it answered in more
     * than 6.2 s (Solitaire-PT-SqrNC5x5, where the diagrams take 16 s)
     * the diagrams answer in 1.2 s at most (mcc/statespace.c) */
    [CARVE_MCC_STATESPACE_EXPLICIT] = {"mcc.statespace.explicit", ALL_BYTES, 0.15, 0, 0},
    /* one operation on decision diagrams cannot be interrupted: the clock
     * is read between them, and one image or count on a big diagram can
     * run most of a second past it (SwimmingPool-PT-06 ended 0.56 s after
     * its deadline): a second kept back */
    [CARVE_MCC_STATESPACE_SYMBOLIC] = {"mcc.statespace.symbolic", ALL_BYTES, 1.0, 0, 0, 1.0},
    /* the diagrams could not start (a place without a proven bound): the
     * explicit search has the rest */
    [CARVE_MCC_STATESPACE_EXPLICIT_AGAIN] = {"mcc.statespace.explicit-again", ALL_BYTES, 1.0, 0, 0},
    /* the unfolding needs every place proven safe, as the symbolic engine
     * needs a bound for each: the same share and cap */
    [CARVE_UNFOLD_PLACEBITS] = {"unfold.placebits", ALL_BYTES, 0.2, 0, 30.0},
    /* the prefix, its concurrency relation and its queue; CaDiCaL's
     * clauses (a few per event and condition, and its learnt ones) live
     * in the other half, which the budget cannot count for a library */
    [CARVE_UNFOLD_PREFIX] = {"unfold.prefix", BYTES(1, 2), 1.0, 0, 0},
    /* a look at the prefix built so far (its solver runs in a child while
     * the construction waits) has the other half of the bytes; its time
     * the checker cuts to what the construction gives each look: half
     * its own time so far, less what the looks before took
     * (engine/unfold/prefix.h), so that the looks take a third of the
     * time at most and the prefix the rest */
    [CARVE_UNFOLD_LOOK] = {"unfold.look", REST_OF(CARVE_UNFOLD_PREFIX), 1.0, 0, 0},
    /* ReachabilityDeadlock on a safe net: the prefix answers highly
     * concurrent nets in seconds or not at all (bench/unfold.sh), so a
     * quarter of the time, the rest left to the search */
    [CARVE_MCC_UNFOLD_DEADLOCK] = {"mcc.unfold.deadlock", ALL_BYTES, 0.25, 0, 0},
    /* the reachability files: the prefix comes last in the pre-pass, whose
     * share would otherwise all go to it on a net whose prefix is too
     * large; a tenth of the time left keeps the search's (the prefixes
     * that answer at all took 9 s at most on the shared instances) */
    [CARVE_MCC_UNFOLD_REACH] = {"mcc.unfold.reach", ALL_BYTES, 0.1, 0, 0},
    /* its prefix: two thirds of that time, so that a prefix the time cuts
     * still gets a last look at every open property with the third left
     * (on a net whose solver is as slow as the construction, the looks'
     * half of the construction's own time never sufficed: 0 of 3 goals at
     * 32768 to 524288 events, where one look with the time gave 2) */
    [CARVE_MCC_UNFOLD_REACH_PREFIX] = {"mcc.unfold.reach.prefix", BYTES(1, 2), 2.0 / 3.0, 0, 0},
    /* compose (checkers/compose): the parts, the composites and the maps
     * kept for lifting a run stay while the formula is checked on what is
     * left, a single LTS or the product of the last parts searched on the
     * fly (ltl.stack, ltl.states): half the bytes each, and the time as it
     * comes.  The components come from the units when a reader gave them;
     * one-hot groups are the fallback and get a tenth of the time, 10 s
     * without a limit */
    [CARVE_COMPOSE_PARTS] = {"compose.parts", BYTES(1, 2), 1.0, 0, 0},
    [CARVE_COMPOSE_ONEHOT] = {"compose.onehot", ALL_BYTES, 0.1, 0, 10.0},
    [CARVE_COMPOSE_CHECK] = {"compose.check", REST_OF(CARVE_COMPOSE_PARTS), 1.0, 0, 0},
    /* before composing, the components explored together up to a number
     * of states (checkers/compose/compose.c): a tenth of the time at most,
     * so that a first look that does not answer leaves the rest to
     * composing */
    [CARVE_COMPOSE_PROBE] = {"compose.probe", REST_OF(CARVE_COMPOSE_PARTS), 0.1, 0, 0},
    /* the snowball, for formulas without X, gets half the time left:
     * where it does not decide, composing without hiding gets the rest
     * (RERS 2017 108 #3: a counterexample that search finds among 5141
     * states, the snowball's own search not among 7 million) */
    [CARVE_COMPOSE_SNOWBALL] = {"compose.snowball", ALL_BYTES, 0.5, 0, 0},
    /* what composing leaves open, the stubborn search of the net (the
     * unreduced composition, the property's actions visible) tries with
     * the time left: they answer different properties (bench/README.md,
     * RERS 2017); composing gets this share first, all the bytes, which
     * it gives back before the search starts */
    [CARVE_COMPOSE_FIRST] = {"compose.first", ALL_BYTES, 0.5, 0, 0},
};

/* ---- the run ---- */

static volatile int never_interrupted;

void budget_init(budget_t *b, volatile int *interrupted)
{
    b->name = "run";
    b->start = mono_now();
    b->deadline = 0;
    b->bytes = budget_default_bytes();
    b->bytes_from = b->time_from = BUDGET_DEFAULT;
    b->log = NULL;
    b->interrupted = interrupted ? interrupted : &never_interrupted;
}

size_t budget_default_bytes(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    size_t half = BUDGET_DEFAULT_BYTES_MAX;
    if (pages > 0 && page > 0 && (uint64_t)pages < SIZE_MAX / 2 / (uint64_t)page)
        half = (size_t)pages * (size_t)page / 2;
    return half < BUDGET_DEFAULT_BYTES_MAX ? half : BUDGET_DEFAULT_BYTES_MAX;
}

void budget_set_limits(budget_t *b, double seconds, size_t bytes, FILE *log)
{
    b->bytes = bytes ? bytes : budget_default_bytes();
    b->bytes_from = bytes ? BUDGET_OPTION : BUDGET_DEFAULT;
    b->deadline = seconds > 0 ? b->start + seconds : 0;
    b->time_from = seconds > 0 ? BUDGET_OPTION : BUDGET_DEFAULT;
    b->log = log;
}

/* Seconds from BK_TIME_CONFINEMENT; -1 when it is not a usable number. */
static double benchkit_seconds(const char *s)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    return errno || *end || !(v > 0) || v > 1e9 ? -1 : v;
}

/* Bytes from BK_MEMORY_CONFINEMENT (MiB); 0 when not a usable number. */
static size_t benchkit_bytes(const char *s)
{
    char *end;
    errno = 0;
    unsigned long long mib = strtoull(s, &end, 10);
    if (errno || *end || mib == 0 || *s == '-' || mib > (SIZE_MAX >> 21))
        return 0;
    return (size_t)((double)((size_t)mib << 20) * BENCHKIT_MEMORY_SHARE);
}

int budget_set_benchkit(budget_t *b, const char *time_confinement,
                        const char *memory_confinement, FILE *log)
{
    int bad = 0;
    double seconds = BUDGET_BENCHKIT_SECONDS;
    b->time_from = BUDGET_DEFAULT;
    if (time_confinement && *time_confinement) {
        double v = benchkit_seconds(time_confinement);
        if (v < 0)
            bad |= BUDGET_BAD_TIME;
        else {
            seconds = v;
            b->time_from = BUDGET_BENCHKIT;
        }
    }
    double margin = BENCHKIT_MARGIN_SHARE * seconds;
    margin = margin < BENCHKIT_MARGIN_MIN ? BENCHKIT_MARGIN_MIN
             : margin > BENCHKIT_MARGIN_MAX ? BENCHKIT_MARGIN_MAX : margin;
    /* a confinement shorter than the margin leaves no time to search, and
     * the deadline is at once: never 0, which would mean none */
    b->deadline = b->start + (seconds > margin ? seconds - margin : 0);
    size_t bytes = 0;
    if (memory_confinement && *memory_confinement && !(bytes = benchkit_bytes(memory_confinement)))
        bad |= BUDGET_BAD_MEMORY;
    b->bytes = bytes ? bytes : budget_default_bytes();
    b->bytes_from = bytes ? BUDGET_BENCHKIT : BUDGET_DEFAULT;
    b->log = log;
    return bad;
}

/* ---- time ---- */

double budget_elapsed(const budget_t *b)
{
    return mono_now() - b->start;
}

double budget_seconds(const budget_t *b)
{
    return b->deadline ? b->deadline - b->start : HUGE_VAL;
}

double budget_left(const budget_t *b)
{
    if (!b->deadline)
        return HUGE_VAL;
    double left = b->deadline - mono_now();
    return left > 0 ? left : 0;
}

int budget_expired(const budget_t *b)
{
    return *b->interrupted || (b->deadline && mono_now() >= b->deadline);
}

/* ---- the stages before a search ---- */

typedef enum { GO, STOP_TIME, STOP_MEMORY, STOP_SIGNAL } stop_cause;

static struct {
    budget_t *b;            /* lent, or NULL */
    const char *stage;
    unsigned calls;
    stop_cause stop;
    char reason[96];
    int statm;              /* /proc/self/statm, or -1 */
    size_t resident0;       /* the process's size when lent */
} lent = {.statm = -1};

/* The process's resident bytes: what a memory limit, a container's or
 * BenchKit's, measures.  Without /proc the peak size, which stages that
 * mostly grow match closely. */
static size_t resident_bytes(void)
{
    char buf[128];
    ssize_t n = lent.statm >= 0 ? pread(lent.statm, buf, sizeof buf - 1, 0) : -1;
    if (n > 0) {
        buf[n] = '\0';
        unsigned long long size, resident;
        long page = sysconf(_SC_PAGESIZE);
        if (sscanf(buf, "%llu %llu", &size, &resident) == 2 && page > 0 &&
            resident <= SIZE_MAX / (size_t)page)
            return (size_t)resident * (size_t)page;
    }
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) == 0 && ru.ru_maxrss > 0 &&
        (unsigned long)ru.ru_maxrss <= SIZE_MAX / 1024)
        return (size_t)ru.ru_maxrss * 1024;   /* kilobytes on Linux */
    return 0;
}

/* What the stages have grown the process by, less their own code and
 * buffers (libxml2's pages and parser, a flex scanner's tables: about a
 * MiB), which are part of the fixed overhead and never the budget's. */
static size_t grown(void)
{
    size_t now = resident_bytes(), own = lent.resident0 + STAGES_OWN_BYTES;
    return now > own ? now - own : 0;
}

static int stop(stop_cause cause)
{
    static const char *const why[] = {
        [STOP_TIME] = "time limit reached",
        [STOP_MEMORY] = "memory budget exhausted",
        [STOP_SIGNAL] = "interrupted",
    };
    lent.stop = cause;
    snprintf(lent.reason, sizeof lent.reason, "%s while %s", why[cause], lent.stage);
    return 1;
}

void budget_lend(budget_t *b)
{
    if (lent.statm < 0)
        lent.statm = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
    lent.b = b;
    lent.stage = "reading";
    lent.calls = 0;
    lent.stop = GO;
    lent.reason[0] = '\0';
    lent.resident0 = resident_bytes();
}

void budget_stage(const char *stage)
{
    if (lent.b)
        lent.stage = stage;
}

int budget_check(void)
{
    if (!lent.b)
        return 0;
    if (lent.stop != GO)
        return 1;
    if (*lent.b->interrupted)
        return stop(STOP_SIGNAL);
    if (lent.b->deadline && mono_now() >= lent.b->deadline)
        return stop(STOP_TIME);
    if (grown() > lent.b->bytes)
        return stop(STOP_MEMORY);
    return 0;
}

int budget_poll(void)
{
    if (!lent.b)
        return 0;
    if (lent.stop != GO)
        return 1;
    /* the flag is one load; a signal is answered at once */
    if (*lent.b->interrupted)
        return stop(STOP_SIGNAL);
    if (++lent.calls % BUDGET_POLL_EVERY)
        return 0;
    return budget_check();
}

int budget_stopped(void)
{
    return lent.b && lent.stop != GO;
}

const char *budget_stop_reason(void)
{
    return lent.stop != GO ? lent.reason : NULL;
}

int budget_return(budget_t *b, int done)
{
    if (!lent.b)
        return 0;
    if (!done || budget_check()) {
        lent.b = NULL;
        return lent.stop != GO;
    }
    /* the model stays while the search runs: what it took is not the
     * search's; the part of a MiB is left to the fixed overhead */
    size_t model = grown() & ~(MIB - 1);
    int stopped = model >= b->bytes && stop(STOP_MEMORY);
    lent.b = NULL;
    if (stopped)
        return 1;
    if (model) {
        b->bytes -= model;
        if (b->log) {
            fprintf(b->log, "budget: the model takes ");
            put_bytes(b->log, model);
            fprintf(b->log, ", the search gets ");
            put_bytes(b->log, b->bytes);
            fprintf(b->log, "\n");
        }
    }
    return 0;
}

/* ---- carves ---- */

/* floor(bytes * num / den) without overflow */
static size_t share_of(size_t bytes, unsigned num, unsigned den)
{
    return bytes / den * num + bytes % den * num / den;
}

static size_t carve_bytes(size_t parent, budget_carve_id id)
{
    const carve_rule *r = &rules[id];
    if (r->rest_of >= 0)
        return parent - carve_bytes(parent, (budget_carve_id)r->rest_of);
    return share_of(parent, r->bytes_num, r->bytes_den);
}

static budget_t carve(const budget_t *parent, budget_carve_id id, double share)
{
    const carve_rule *r = &rules[id];
    budget_t c = *parent;
    c.name = r->name;
    c.start = mono_now();
    c.bytes = carve_bytes(parent->bytes, id);
    c.bytes_from = c.time_from = BUDGET_CARVED;
    double seconds = 0;
    if (parent->deadline) {
        double left = parent->deadline - c.start - r->reserve_seconds;
        seconds = share * (left > 0 ? left : 0);
        if (r->max_seconds > 0 && seconds > r->max_seconds)
            seconds = r->max_seconds;
    } else
        seconds = r->open_seconds;
    /* an exhausted parent gives a carve whose deadline is now: never 0,
     * which would mean none */
    c.deadline = parent->deadline || seconds > 0 ? c.start + seconds : 0;
    if (c.log)
        budget_report(&c, c.log);
    return c;
}

budget_t budget_carve(const budget_t *parent, budget_carve_id id)
{
    if ((unsigned)id >= CARVE_COUNT)
        abort();   /* not a carve of the table: a bug, not a limit */
    return carve(parent, id, rules[id].time_share > 0 ? rules[id].time_share : 1.0);
}

budget_t budget_carve_part(const budget_t *parent, budget_carve_id id, size_t n)
{
    if ((unsigned)id >= CARVE_COUNT)
        abort();
    return carve(parent, id, 1.0 / (double)(n ? n : 1));
}

const char *budget_carve_name(budget_carve_id id)
{
    return (unsigned)id < CARVE_COUNT ? rules[id].name : NULL;
}

budget_t budget_restart(const budget_t *parent)
{
    budget_t q = *parent;
    q.start = mono_now();
    if (parent->deadline)
        q.deadline = q.start + (parent->deadline - parent->start);
    return q;
}

/* ---- -v ---- */

static void put_bytes(FILE *out, size_t bytes)
{
    if (bytes % MIB == 0)
        fprintf(out, "%zu MiB", bytes / MIB);
    else
        fprintf(out, "%.1f MiB", (double)bytes / (double)MIB);
}

static void put_seconds(FILE *out, const budget_t *b)
{
    if (!b->deadline) {
        fprintf(out, "no time limit");
        return;
    }
    /* deadline - start is the seconds given up to a rounding error */
    double s = budget_seconds(b);
    fprintf(out, fabs(s - round(s)) < 5e-4 ? "%.0f s" : "%.3f s", s);
}

static const char *source_name(budget_source from, int time)
{
    switch (from) {
    case BUDGET_OPTION: return time ? "--timeout" : "--mem";
    case BUDGET_BENCHKIT: return time ? "BK_TIME_CONFINEMENT" : "BK_MEMORY_CONFINEMENT";
    case BUDGET_CARVED: return "carved";
    default: return "default";
    }
}

void budget_report(const budget_t *b, FILE *out)
{
    if (b->bytes_from == BUDGET_CARVED) {
        fprintf(out, "budget: %s: ", b->name);
        put_bytes(out, b->bytes);
        fprintf(out, ", ");
        put_seconds(out, b);
        fprintf(out, "\n");
        return;
    }
    fprintf(out, "budget: ");
    put_bytes(out, b->bytes);
    fprintf(out, " (%s), ", source_name(b->bytes_from, 0));
    put_seconds(out, b);
    if (b->deadline)
        fprintf(out, " (%s)", source_name(b->time_from, 1));
    fprintf(out, "\n");
}
