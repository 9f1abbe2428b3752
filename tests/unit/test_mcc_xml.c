/* `mck mcc --xml FILE` on real contest instances: the file must hold
 * exactly the values printed on stdout, and every run in it must replay
 * on the net as read (replay.h, not the checker's firing rule) to a
 * marking that shows the value: the formula's state property holding
 * (E F true) or failing (A G false), a deadlock, a count above one; an
 * LTL counterexample must be a lasso (or end in a deadlock, which
 * stutters) on which the formula, evaluated here from its definition,
 * fails. */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "formula/mccxml.h"
#include "input/input.h"
#include "base/netconv.h"
#include "lassoeval.h"
#include "replay.h"
#include "unit.h"
#include "verdicts/verdicts.h"

static const char *mck, *shared, *tmp;

/* Instances whose searches find runs for each examination below (a few
 * thousand markings each; the whole test takes seconds). */
static const char *const instances[] = {
    "Eratosthenes-PT-010", "Sudoku-PT-AN01",      "CircularTrains-PT-012",
    "ResAllocation-PT-R003C003", "PhilosophersDyn-PT-03", "SimpleLoadBal-PT-02",
    "Dekker-PT-010",
};
static const char *const exams[] = {
    "ReachabilityCardinality", "ReachabilityFireability", "ReachabilityDeadlock", "OneSafe",
    "LTLCardinality", "LTLFireability",
};
#define FIRST_LTL 4
#define NEXAMS (sizeof exams / sizeof exams[0])

static size_t runs_checked[NEXAMS];

typedef struct eval_ctx {
    const net_t *net;
    const nc_count *m;
} eval_ctx;

static int eval_enabled(uint32_t t, void *ctx)
{
    const eval_ctx *e = ctx;
    return t < e->net->ntransitions && replay_enabled(e->net, e->m, t);
}

static int eval_dead(void *ctx)
{
    const eval_ctx *e = ctx;
    return replay_dead(e->net, e->m);
}

/* The answer lines: stdout of the run, as "id value" pairs in text. */
static char *run_mck(const char *exam, const char *dir, const char *xml, int *status)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "BK_TIME_CONFINEMENT=30 '%s' mcc --xml '%s' %s '%s' 2>/dev/null",
             mck, xml, exam, dir);
    FILE *p = popen(cmd, "r");
    static char out[1 << 16];
    size_t n = p ? fread(out, 1, sizeof out - 1, p) : 0;
    out[n] = '\0';
    int st = p ? pclose(p) : -1;
    *status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return out;
}

/* Every FORMULA line of out has a verdict of the same value, and the file
 * has no other known value. */
static int same_values(const char *out, const verdictset_t *vs, const char *what)
{
    size_t lines = 0, known = 0;
    for (const char *l = out; (l = strstr(l, "FORMULA ")) != NULL; l++) {
        char id[256], value[64];
        if (sscanf(l, "FORMULA %255s %63s", id, value) != 2)
            return 0;
        lines++;
        const verdict_t *v = vs_find(vs, vs->nverdicts ? vs->verdicts[0]->category : "", id);
        char buf[24];
        if (!v) {
            printf("# %s: %s printed but not in the file\n", what, id);
            return 0;
        }
        const char *want = !strcmp(value, "TRUE") ? "true" : !strcmp(value, "FALSE") ? "false" : value;
        if (strcmp(vd_value_string(v, buf), want)) {
            printf("# %s: %s printed %s, file says %s\n", what, id, value, vd_value_string(v, buf));
            return 0;
        }
    }
    for (size_t i = 0; i < vs->nverdicts; i++)
        known += vs->verdicts[i]->kind != VD_UNKNOWN;
    return lines == known;
}

/* Replays v's trace; m gets the end marking.  0, or -1 with a message. */
static int replay_trace(net_t *net, const verdict_t *v, nc_count *m)
{
    replay_initial(net, m);
    for (size_t i = 0; i < v->nsteps; i++) {
        int64_t t = nc_find_transition(net, v->steps[i].transition);
        if (t < 0 || !replay_enabled(net, m, (uint32_t)t)) {
            printf("# %s: step %zu (%s) %s\n", v->reference, i, v->steps[i].transition,
                   t < 0 ? "unknown" : "not enabled");
            return -1;
        }
        replay_fire(net, m, (uint32_t)t);
    }
    return 0;
}

static const mcc_property *property(const mcc_property_set *set, const char *id)
{
    for (size_t i = 0; set && i < set->n; i++)
        if (!strcmp(set->props[i].id, id))
            return &set->props[i];
    return NULL;
}

/* Whether the end of v's run shows its value. */
static int shows(net_t *net, const mcc_property_set *set, size_t exam, const verdict_t *v,
                 const nc_count *m)
{
    if (exam == 2)   /* ReachabilityDeadlock TRUE: a deadlock, marked as one */
        return v->kind == VD_TRUE && v->role == RUN_WITNESS && replay_dead(net, m) &&
               v->loop_start == v->nsteps;
    if (exam == 3) { /* OneSafe FALSE: some count above one */
        int unsafe = 0;
        for (size_t p = 0; p < net->nplaces; p++)
            unsafe |= m[p] > 1;
        return v->kind == VD_FALSE && v->role == RUN_COUNTEREXAMPLE && unsafe;
    }
    const mcc_property *p = property(set, v->reference);
    if (!p || !p->formula || !p->formula->l)
        return 0;
    eval_ctx e = {net, m};
    tree_eval_ctx ctx = {m, eval_enabled, eval_dead, &e};
    int holds = tree_eval_state(p->formula->l, &ctx);
    if (p->formula->op == T_EF)
        return v->kind == VD_TRUE && v->role == RUN_WITNESS && holds == 1;
    return p->formula->op == T_AG && v->kind == VD_FALSE && v->role == RUN_COUNTEREXAMPLE &&
           holds == 0;
}

/* ---- LTL on a lasso of markings ---- */

#define MAX_LASSO 4096

typedef struct lasso {
    nc_count *m;        /* position i's marking at m + i * np */
    size_t np, n, loop; /* positions 0..n-1; after n-1 comes loop */
} lasso;

typedef struct net_lasso {
    net_t *net;
    const lasso *l;
} net_lasso;

static int marking_atom(void *ctx, size_t pos, const tree_t *f)
{
    const net_lasso *nl = ctx;
    const nc_count *m = nl->l->m + pos * nl->l->np;
    eval_ctx e = {nl->net, m};
    tree_eval_ctx c = {m, eval_enabled, eval_dead, &e};
    return tree_eval_state(f, &c);
}

static void ltl_holds(net_t *net, const lasso *l, const tree_t *f, char *v)
{
    net_lasso nl = {net, l};
    lasso_eval(f, l->n, l->loop, marking_atom, &nl, v);
}

/* v's run as a lasso; the LTL body of its property must fail on it. */
static int ltl_shows(net_t *net, const mcc_property_set *set, const verdict_t *v)
{
    const mcc_property *p = property(set, v->reference);
    if (!p || !p->formula || v->kind != VD_FALSE || v->role != RUN_COUNTEREXAMPLE ||
        v->nsteps + 1 > MAX_LASSO || v->loop_start > v->nsteps)
        return 0;
    lasso l = {calloc((v->nsteps + 1) * (net->nplaces + 1), sizeof(nc_count)), net->nplaces, 0, 0};
    if (!l.m)
        return 0;
    replay_initial(net, l.m);
    int ok = 1;
    for (size_t i = 0; ok && i < v->nsteps; i++) {
        nc_count *cur = l.m + i * l.np, *next = cur + l.np;
        int64_t t = nc_find_transition(net, v->steps[i].transition);
        memcpy(next, cur, l.np * sizeof *cur);
        ok = t >= 0 && replay_enabled(net, next, (uint32_t)t);
        if (ok)
            replay_fire(net, next, (uint32_t)t);
    }
    const nc_count *end = l.m + v->nsteps * l.np;
    if (ok && v->loop_start == v->nsteps) {   /* the deadlock stutters */
        ok = replay_dead(net, end);
        l.n = v->nsteps + 1;
        l.loop = v->nsteps;
    } else if (ok) {   /* the end is the loop's first marking again */
        ok = !memcmp(end, l.m + v->loop_start * l.np, l.np * sizeof *end);
        l.n = v->nsteps;
        l.loop = v->loop_start;
    }
    char *val = ok ? malloc(l.n) : NULL;
    if (val)
        ltl_holds(net, &l, p->formula, val);
    ok = val && val[0] == 0;
    free(val);
    free(l.m);
    return ok;
}

static void one(const char *instance, size_t exam)
{
    char dir[1024], xml[1024], path[1200];
    snprintf(dir, sizeof dir, "%s/mcc/%s", shared, instance);
    snprintf(xml, sizeof xml, "%s/%s-%s.xml", tmp, instance, exams[exam]);
    snprintf(path, sizeof path, "%s/model.pnml", dir);
    char what[256];
    snprintf(what, sizeof what, "%s %s", instance, exams[exam]);
    int status;
    const char *out = run_mck(exams[exam], dir, xml, &status);
    verdictset_t *vs = vs_read(xml);
    net_t *net = pnml_read(path);
    CHECK(status == 0 && vs && net, "%s: --xml run ends well and its file reads back", what);
    if (!vs || !net) {
        vs_free(vs);
        nc_free_net(net);
        return;
    }
    CHECK(same_values(out, vs, what), "%s: the file holds exactly the printed values", what);
    mcc_property_set *set = NULL;
    if (exam < 2 || exam >= FIRST_LTL) {
        snprintf(path, sizeof path, "%s/%s.xml", dir, exams[exam]);
        set = mccxml_read(path, net, exams[exam]);
    }
    nc_count *m = calloc(net->nplaces + 1, sizeof *m);
    size_t traces = 0, good = 0;
    for (size_t i = 0; m && i < vs->nverdicts; i++) {
        const verdict_t *v = vs->verdicts[i];
        if (!v->has_trace)
            continue;
        traces++;
        if (exam >= FIRST_LTL ? ltl_shows(net, set, v)
                              : replay_trace(net, v, m) == 0 && shows(net, set, exam, v, m))
            good++;
        else
            printf("# %s: the run of %s does not show its value\n", what, v->reference);
    }
    CHECK(m && good == traces, "%s: all %zu runs replay to a marking that shows the value", what,
          traces);
    runs_checked[exam] += good;
    free(m);
    mccxml_free(set);
    vs_free(vs);
    nc_free_net(net);
}

int main(void)
{
    mck = getenv("MCK") ? getenv("MCK") : "./mck";
    shared = getenv("SHARED") ? getenv("SHARED") : "../shared";
    char probe[1024];
    snprintf(probe, sizeof probe, "%s/mcc/%s/model.pnml", shared, instances[0]);
    if (access(probe, R_OK) != 0) {
        SKIP("mck mcc --xml: the contest instances (%s/mcc) are not here", shared);
        UNIT_DONE();
    }
    char dir[] = "/tmp/mck_test_mcc_xml.XXXXXX";
    tmp = mkdtemp(dir);
    CHECK(tmp != NULL, "a scratch folder");
    if (!tmp)
        UNIT_DONE();
    for (size_t i = 0; i < sizeof instances / sizeof instances[0]; i++)
        for (size_t e = 0; e < NEXAMS; e++)
            one(instances[i], e);
    int status;
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "'%s' mcc --xml 2>/dev/null", mck);
    status = system(cmd);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 2, "--xml without a file: usage error");
    snprintf(cmd, sizeof cmd, "'%s' mcc --xml '%s/no/such/dir/x.xml' OneSafe '%s/mcc/%s' 2>/dev/null",
             mck, tmp, shared, instances[0]);
    status = system(cmd);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 2, "--xml into a missing folder: error 2");
    /* on these instances every examination has values shown by runs */
    for (size_t e = 0; e < NEXAMS; e++)
        CHECK(runs_checked[e] > 0, "%s: %zu runs checked in all", exams[e], runs_checked[e]);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    if (system(cmd) != 0)
        printf("# could not remove %s\n", tmp);
    UNIT_DONE();
}
