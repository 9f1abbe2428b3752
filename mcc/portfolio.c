/* portfolio: on a machine of several cores, a formula examination is
 * answered by two processes side by side.  The parent runs the usual
 * pipeline (structure, state equation, walks, explicit searches); a child,
 * forked once the net is compiled, runs what complements it:
 *
 *   CTL*, Reachability*,  the decision diagrams (symbolic/): the reachable
 *   UpperBounds           set by chaining, then every formula by fixpoints
 *                         over it (a bound: the largest sum some reachable
 *                         marking reaches, found by halving), which decides
 *                         state spaces too large to enumerate but regular
 *                         enough to share structure; for CTL after
 *                         best-first dependency graphs within a cap of
 *                         markings (ctl.c), on the net reduced for the
 *                         formulas still open, and when the set is not
 *                         complete in 7/8 of the time, cannot be built,
 *                         or leaves formulas open, best-first again on
 *                         those without the cap;
 *   LTL*                  the same LTL checks as the parent, on the
 *                         formulas in reverse order, so that the two meet
 *                         in the middle with twice the time a formula.
 *
 * Processes rather than threads: BuDDy keeps one global table, and a
 * child that runs out of memory or crashes cannot take the parent's
 * answers with it.  The two share one page (MAP_SHARED) that records
 * which values were answered: a value is printed by whichever process
 * claims it first (answer.c), and each skips what the other answered.
 * Answer lines are single writes to the same standard output.
 *
 * The budget: the child gets a carve of the run's bytes (mcc.portfolio),
 * which the parent gives up, and the same deadline.  The parent waits for
 * the child when it has finished its own work with values open, and stops
 * it when every value is answered or time is up; the child dies with the
 * parent (PR_SET_DEATHSIG) should BenchKit kill it.  With --xml or --json
 * the runs behind answers are collected in one process, so the portfolio
 * is off.
 *
 * The same page serves a fence (mcc_portfolio_fence): a part of an
 * examination made of operations that cannot be stopped in time (one
 * BuDDy operation ran 4.7 s past a 60 s limit on HouseConstruction-PT-
 * 00050 StateSpace: the clock is only read at its garbage collections)
 * runs in a child while the parent waits, and the parent kills it at the
 * deadline; what it printed stays printed. */
#define _GNU_SOURCE /* prctl */
#include "checkers/symbolic.h"
#include "engine/fence.h"
#include "formula/mccxml.h"
#include "mcc/internal.h"
#include "mcc/reduced.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

/* An examination has at most 16 values; a few more fit. */
#define SHARED_VALUES 64
#define SHARED_ID 160

typedef struct shared_answers {
    atomic_int lock;
    /* the reachable markings the child counted (UINT64_MAX: as many or
     * more), once states_known */
    uint64_t states;
    int states_known;
    uint32_t n;
    struct {
        char id[SHARED_ID];
        int claimed;
        /* its line is out: claimed is set before the line is printed,
         * and a process stopped in between must not lose it */
        int printed;
    } v[SHARED_VALUES];
} shared_answers;

static shared_answers *shared;
static pid_t child = -1;
/* the values of the examination: every one answered ends the wait */
static size_t values;

static void lock(void)
{
    int expected = 0;
    while (!atomic_compare_exchange_weak(&shared->lock, &expected, 1)) {
        expected = 0;
        sched_yield();
    }
}

static void unlock(void)
{
    atomic_store(&shared->lock, 0);
}

static int find(const char *id)
{
    for (uint32_t i = 0; i < shared->n; i++)
        if (!strncmp(shared->v[i].id, id, SHARED_ID - 1))
            return (int)i;
    return -1;
}

int mcc_portfolio_claim(const char *id)
{
    if (!shared)
        return 1;
    lock();
    int i = find(id), won = 0;
    if (i < 0 && shared->n < SHARED_VALUES) {
        i = (int)shared->n++;
        snprintf(shared->v[i].id, SHARED_ID, "%s", id);
    }
    /* an id the page has no room for is answered by the parent only */
    if (i >= 0 && !shared->v[i].claimed) {
        shared->v[i].claimed = 1;
        won = 1;
    } else if (i < 0) {
        won = child != 0;
    }
    unlock();
    return won;
}

void mcc_portfolio_printed(const char *id)
{
    if (!shared)
        return;
    lock();
    int i = find(id);
    if (i >= 0)
        shared->v[i].printed = 1;
    unlock();
}

int mcc_portfolio_second(void)
{
    return shared && child == 0;
}

int mcc_portfolio_answered(const char *id)
{
    if (!shared)
        return 0;
    lock();
    int i = find(id), v = i >= 0 && shared->v[i].claimed;
    unlock();
    return v;
}

int mcc_portfolio_states(uint64_t *states)
{
    if (!shared)
        return 0;
    lock();
    int known = shared->states_known;
    *states = shared->states;
    unlock();
    return known;
}

/* Tells the parent how many markings are reachable, so that it can tell
 * a graph that fits from one that does not before it starts building. */
static void publish_states(sym_t *s)
{
    char *count = sym_count_states(s);
    if (!count)
        return;
    errno = 0;
    char *end;
    unsigned long long n = strtoull(count, &end, 10);
    if (*end || end == count)
        n = 0;
    else if (errno == ERANGE || n > UINT64_MAX)
        n = UINT64_MAX;
    free(count);
    if (!n)
        return;
    lock();
    shared->states = (uint64_t)n;
    shared->states_known = 1;
    unlock();
}

/* ---- the child's techniques ---- */

static const char *CHILD_TECH = "PARALLEL_PROCESSING DECISION_DIAGRAMS";

/* Whether some reachable marking has at least k tokens on the places of
 * the bound b: 1, 0, or -1 (the diagrams could not say). */
static int reaches_at_least(sym_t *s, const tree_t *b, uint64_t k)
{
    lin_term *terms = calloc(b->n ? b->n : 1, sizeof *terms);
    if (!terms || k > INT64_MAX) {
        free(terms);
        return -1;
    }
    for (uint32_t i = 0; i < b->n; i++)
        terms[i] = (lin_term){b->items[i], 1};
    tree_t *f = tree_unary(T_EF, tree_cmp(terms, b->n, -(int64_t)k, REL_GE));
    free(terms);
    char why[160];
    int v = f ? sym_ctl(s, f, why, sizeof why) : -1;
    tree_free(f);
    return v;
}

/* UpperBounds: the largest k that some reachable marking reaches, by
 * halving the range up to the most tokens of any reachable marking. */
static int bound_by_diagrams(sym_t *s, const tree_t *b, uint64_t *value)
{
    uint64_t in_place, per_marking;
    if (sym_max_tokens(s, &in_place, &per_marking) < 0)
        return -1;
    uint64_t lo = 0, hi = per_marking;   /* lo is reached, nothing above hi */
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo + 1) / 2;
        int v = reaches_at_least(s, b, mid);
        if (v < 0)
            return -1;
        if (v)
            lo = mid;
        else
            hi = mid - 1;
    }
    *value = lo;
    return 0;
}

/* Whether p is still the diagrams' to answer. */
static int open_for_diagrams(const mcc_property *p)
{
    return p->formula && !p->unsupported && !mcc_portfolio_answered(p->id);
}

/* One property by the diagrams over the complete reachable set, going
 * on from where an earlier turn on it stopped (k); what they cannot say
 * is told on -v.  1: answered, 0: stopped by the clock (another turn may
 * finish it), -1: the diagrams cannot answer it. */
static int diagram_answer(mcc_run *r, sym_t *s, const mcc_property *p, const tree_t *f,
                          sym_ctl_kept *k, const budget_t *part)
{
    char why[160];
    if (p->cls == MCC_BOUND) {
        uint64_t bound;
        if (p->formula->op == T_BOUND && bound_by_diagrams(s, p->formula, &bound) == 0) {
            mcc_answer_count(p->id, bound, CHILD_TECH);
            return 1;
        }
        if (r->verbose)
            fprintf(stderr, "mck mcc: portfolio: %s: %s\n", p->id, sym_reason(s));
        return p->formula->op == T_BOUND && budget_expired(part) ? 0 : -1;
    }
    int v = f ? sym_ctl_resume(s, f, k, why, sizeof why) : -1;
    if (v >= 0) {
        mcc_answer_bool(p->id, v, CHILD_TECH);
        return 1;
    }
    if (r->verbose)
        fprintf(stderr, "mck mcc: portfolio: %s: %s\n", p->id, f ? why : "out of memory");
    return f && k && budget_expired(part) ? 0 : -1;
}

/* The turns over the formulas the diagrams may still answer: in the
 * first, each gets an equal part of the time left, so that one whose
 * fixpoints do not end cannot hold up the others (FMS-PT-00020
 * CTLFireability: the first formula took the whole minute, and the
 * diagrams answered none of the sixteen); in each later turn each open
 * one gets twice its part of the turn before, and goes on from where its
 * fixpoints stopped (sym_ctl_resume), until the time is up.  A second
 * turn that gave the first open formula all the time left answered 10 of
 * UtahNoC-PT-none's 16 CTLFireability formulas at 60 s: its formula 0
 * took the rest, while formula 8 needs 6 s. */
static void diagram_turns(mcc_run *r, sym_t *s, const mcc_property_set *set, tree_t **f)
{
    size_t n = set->n;
    sym_ctl_kept **k = calloc(n ? n : 1, sizeof *k);
    signed char *state = calloc(n ? n : 1, 1); /* 0 open, 1 answered, -1 given up */
    if (!k || !state) {
        free(k);
        free(state);
        return;
    }
    for (size_t i = 0; i < n; i++)
        if (f[i])
            k[i] = sym_ctl_keep();
    double first = 0;
    for (unsigned turn = 0; turn < 64 && !budget_expired(r->budget); turn++) {
        int any = 0;
        for (size_t i = 0; i < n && !budget_expired(r->budget); i++) {
            const mcc_property *p = &set->props[i];
            if (state[i] || !open_for_diagrams(p))
                continue;
            size_t parts = 0;
            if (turn == 0) {
                for (size_t j = i; j < n; j++)
                    parts += !state[j] && open_for_diagrams(&set->props[j]);
            } else {
                double want = ldexp(first, (int)turn), left = budget_left(r->budget);
                parts = want >= left ? 1 : (size_t)(left / want);
            }
            budget_t part = budget_carve_part(r->budget, CARVE_MCC_PORTFOLIO_FORMULA, parts);
            if (turn == 0 && first == 0)
                first = budget_left(&part) > 0.05 ? budget_left(&part) : 0.05;
            sym_set_clock(s, &part);
            state[i] = (signed char)diagram_answer(r, s, p, f[i], k[i], &part);
            sym_set_clock(s, r->budget);
            any = 1;
            if (state[i]) {
                sym_ctl_forget(k[i]);
                k[i] = NULL;
            }
        }
        if (!any)
            break;
    }
    for (size_t i = 0; i < n; i++)
        sym_ctl_forget(k[i]);
    free(k);
    free(state);
}

/* The formulas of set the diagrams check (NULL for a bound, which is
 * found by halving, or one they cannot take), simplified; NULL on no
 * memory. */
static tree_t **diagram_formulas(mcc_run *r, const mcc_property_set *set)
{
    tree_t **f = calloc(set->n ? set->n : 1, sizeof *f);
    for (size_t i = 0; f && i < set->n; i++) {
        const mcc_property *p = &set->props[i];
        if (p->cls != MCC_BOUND && open_for_diagrams(p)) {
            int changed = 0;
            f[i] = tree_fold(mcc_simplify(r, tree_copy(p->formula), &changed));
        }
    }
    return f;
}

static void free_formulas(tree_t **f, size_t n)
{
    for (size_t i = 0; f && i < n; i++)
        tree_free(f[i]);
    free(f);
}

/* The net reduced for what any of the CTL formulas f[0..n) observes, as
 * the first process's whole graph is (ctl.c, on_graph: the reduction keeps
 * the reachable graph bisimilar for those observations), with f renamed
 * into it; 1 when it got smaller.  The diagrams gain most where the given
 * net counts what no formula reads: Election2020-PT-none's two tallies of
 * electoral votes make its reachable set a diagram of tens of thousands
 * of nodes that was not complete at 60 s, while on the 51 places the
 * formulas observe it is every subset of the states yet to vote. */
static int reduce_for_diagrams(mcc_run *r, tree_t **f, size_t n, mcc_reduced *red)
{
    const tree_t **observed = malloc((n ? n : 1) * sizeof *observed);
    if (!observed)
        return 0;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (f[i])
            observed[k++] = f[i];
    budget_t reducing = budget_carve(r->budget, CARVE_MCC_REDUCE);
    int reduced = k && mcc_reduce_ctl(r, observed, k, 0, 1, &reducing, red);
    free(observed);
    if (!reduced)
        return 0;
    tree_t **renamed = calloc(n ? n : 1, sizeof *renamed);
    for (size_t i = 0; renamed && i < n; i++)
        if (f[i] && !(renamed[i] = reduce_formula(red->red, f[i]))) {
            free_formulas(renamed, n);
            renamed = NULL;
        }
    if (!renamed) {
        mcc_reduced_free(red);
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        tree_free(f[i]);
        f[i] = renamed[i];
    }
    free(renamed);
    if (r->verbose)
        fprintf(stderr, "mck mcc: portfolio: the diagrams on the net reduced for %zu formulas: "
                "%u places, %u transitions left of %u and %u\n", k, red->cn->nplaces,
                red->cn->ntransitions, r->cn->nplaces, r->cn->ntransitions);
    return 1;
}

/* Best-first caps each formula at this many markings before the diagrams
 * (budget.c, mcc.portfolio.first): more than the most it needed where it
 * decided (13,925, PhaseVariation-PT-D02CS100 CTLFireability-10). */
#define BEST_FIRST_CAP 16384

static void by_diagrams(mcc_run *r, const char *path)
{
    mcc_property_set *set = mccxml_read(path, r->net, r->exam);
    if (!set)
        return;
    int ctl = !strncmp(r->exam, "CTL", 3);
    if (ctl) {
        budget_t first = budget_carve(r->budget, CARVE_MCC_PORTFOLIO_FIRST);
        mcc_run capped = *r;
        capped.budget = &first;
        mcc_ctl_best_first(&capped, set, BEST_FIRST_CAP);
    }
    tree_t **f = diagram_formulas(r, set);
    if (!f) {
        mccxml_free(set);
        return;
    }
    char why[160];
    mcc_reduced red;
    memset(&red, 0, sizeof red);
    int reduced = ctl && reduce_for_diagrams(r, f, set->n, &red);
    sym_t *s = symbolic_open(reduced ? red.cn : r->cn, r->budget, why, sizeof why);
    if (!s) {
        if (r->verbose)
            fprintf(stderr, "mck mcc: portfolio: %s\n", why);
    } else {
        budget_t reach = budget_carve(r->budget, CARVE_MCC_PORTFOLIO_REACH);
        if (ctl)
            sym_set_clock(s, &reach);
        sym_status st = sym_explore(s, SYM_CHAINING);
        if (r->verbose)
            fprintf(stderr, "mck mcc: portfolio: reachable set %s (%zu nodes)\n",
                    st == SYM_DONE ? "complete" : sym_reason(s), sym_nodes(s));
        /* after the reason is told: setting the clock clears it */
        sym_set_clock(s, r->budget);
        if (st == SYM_DONE) {
            publish_states(s);
            diagram_turns(r, s, set, f);
        }
        sym_free(s);
    }
    free_formulas(f, set->n);
    mcc_reduced_free(&red);
    if (ctl)
        mcc_ctl_best_first(r, set, 0);
    mccxml_free(set);
}

static void run_child(mcc_run *r, const char *path, int ltl)
{
    if (ltl) {
        r->reverse = 1;
        mcc_ltl(r, path);
    } else {
        by_diagrams(r, path);
    }
}

/* ---- the parent ---- */

int mcc_portfolio_start(mcc_run *r, const char *path, int ltl, size_t n)
{
    if (r->cores < 2 || mcc_runs_wanted() || !n || shared)
        return 0;
    values = n;
    shared = mmap(NULL, sizeof *shared, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1,
                  0);
    if (shared == MAP_FAILED) {
        shared = NULL;
        return 0;
    }
    memset(shared, 0, sizeof *shared);
    budget_t part = budget_carve(r->budget, CARVE_MCC_PORTFOLIO);
    fflush(NULL);
    pid_t parent = getpid();
    child = fork();
    if (child < 0) {
        munmap(shared, sizeof *shared);
        shared = NULL;
        return 0;
    }
    if (child == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(0);
        *r->budget = part;
        run_child(r, path, ltl);
        fflush(NULL);
        _exit(0);
    }
    /* the child's bytes are no longer the parent's */
    r->budget->bytes = r->budget->bytes > part.bytes ? r->budget->bytes - part.bytes
                                                     : r->budget->bytes;
    if (r->verbose)
        fprintf(stderr, "mck mcc: portfolio: process %d runs %s beside this one\n", (int)child,
                ltl ? "the LTL checks in reverse order" : "the decision diagrams");
    return 1;
}

static size_t printed_total(void)
{
    lock();
    size_t printed = 0;
    for (uint32_t i = 0; i < shared->n; i++)
        printed += (size_t)shared->v[i].printed;
    unlock();
    return printed;
}

/* Waits for pid until it ends, all values are printed (0: not a reason),
 * or b's time is up or it is interrupted; then it is gone. */
static void wait_for(pid_t pid, const budget_t *b, size_t all, int *status)
{
    while (waitpid(pid, status, WNOHANG) == 0) {
        if ((all && printed_total() >= all) || budget_expired(b) || *b->interrupted) {
            kill(pid, SIGKILL);
            waitpid(pid, status, 0);
            break;
        }
        usleep(20000);
    }
}

static void wait_child(mcc_run *r, int *status)
{
    wait_for(child, r->budget, values, status);
    child = -1;
}

/* The page the fenced child claims its answers on: the portfolio's when
 * one runs (its second process then sees them too), else one of its own,
 * kept until mcc_portfolio_finish so that the answers stay claimed. */
static int fence_page(void)
{
    if (shared)
        return 0;
    shared = mmap(NULL, sizeof *shared, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1,
                  0);
    if (shared == MAP_FAILED) {
        shared = NULL;
        return -1;
    }
    memset(shared, 0, sizeof *shared);
    return 0;
}

int mcc_portfolio_fence(const mcc_run *r, const budget_t *stage, int limit_memory,
                        int (*part)(void *), void *ctx, size_t n)
{
    if (mcc_runs_wanted())
        return part(ctx);
    int fd[2] = {-1, -1};
    if (fence_page() < 0 || pipe(fd) < 0)
        return part(ctx);
    size_t printed_before = printed_total();
    fflush(NULL);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return part(ctx);
    }
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(0);
        close(fd[0]);
        if (limit_memory)
            fence_limit_memory(stage->bytes);
        int left = part(ctx);
        fflush(NULL);
        ssize_t w = write(fd[1], &left, sizeof left);
        _exit(w == (ssize_t)sizeof left ? 0 : 1);
    }
    close(fd[1]);
    int status = 0;
    wait_for(pid, stage, 0, &status);
    int left = -2;
    ssize_t got = read(fd[0], &left, sizeof left);
    close(fd[0]);
    if (got != (ssize_t)sizeof left) {
        /* stopped before it could say: what it did not print is open */
        size_t printed = printed_total() - printed_before;
        left = printed >= n ? 0 : (int)(n - printed);
        if (r->verbose && budget_expired(stage)) {
            fprintf(stderr, "mck mcc: %s: the fenced part was %s\n", r->exam,
                    *stage->interrupted ? "interrupted" : "stopped at the deadline");
        } else if (r->verbose) {
            char why[160];
            fence_ended_why(status, limit_memory ? stage->bytes : 0, why, sizeof why);
            fprintf(stderr, "mck mcc: %s: the fenced part ended without its result: %s\n",
                    r->exam, why);
        }
    }
    return left;
}

size_t mcc_portfolio_finish(mcc_run *r)
{
    if (!shared)
        return mcc_answers_printed();
    int status;
    /* the second process may still answer what this one left open */
    if (child > 0)
        wait_child(r, &status);
    size_t n = printed_total();
    munmap(shared, sizeof *shared);
    shared = NULL;
    return n;
}
