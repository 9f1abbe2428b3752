/* stateeq: refutations and bounds from the state equation on small nets,
 * and a randomized comparison with the exact reachable sets of thousands
 * of small bounded nets: a refutation must never hide a reachable model,
 * a bound never fall below the true maximum. */
#include "lp/stateeq.h"
#include "lp/lpdnf.h"
#include "lp/lpguard.h"
#include "unit.h"

#include <glpk.h>
#include <stdlib.h>
#include <string.h>

/* ---- building nets and formulas ---- */

static void arc(net_t *n, nc_arc_kind k, int p, int t, nc_count w)
{
    nc_create_arc(n, k, (uint32_t)p, (uint32_t)t, w, 0);
}

/* idle1 crit1 idle2 crit2 lock; enter1 leave1 enter2 leave2.  Without the
 * lock both processes can be critical at once. */
static net_t *mutex_net(int with_lock)
{
    net_t *n = nc_create_net("mutex", NULL);
    int i1 = nc_create_place(n, "idle1", NULL, 1), c1 = nc_create_place(n, "crit1", NULL, 0);
    int i2 = nc_create_place(n, "idle2", NULL, 1), c2 = nc_create_place(n, "crit2", NULL, 0);
    int lk = nc_create_place(n, "lock", NULL, 1);
    int e1 = nc_create_transition(n, "enter1", NULL), l1 = nc_create_transition(n, "leave1", NULL);
    int e2 = nc_create_transition(n, "enter2", NULL), l2 = nc_create_transition(n, "leave2", NULL);
    arc(n, NC_ARC_PT, i1, e1, 1), arc(n, NC_ARC_TP, c1, e1, 1);
    arc(n, NC_ARC_PT, c1, l1, 1), arc(n, NC_ARC_TP, i1, l1, 1);
    arc(n, NC_ARC_PT, i2, e2, 1), arc(n, NC_ARC_TP, c2, e2, 1);
    arc(n, NC_ARC_PT, c2, l2, 1), arc(n, NC_ARC_TP, i2, l2, 1);
    if (with_lock) {
        arc(n, NC_ARC_PT, lk, e1, 1), arc(n, NC_ARC_TP, lk, l1, 1);
        arc(n, NC_ARC_PT, lk, e2, 1), arc(n, NC_ARC_TP, lk, l2, 1);
    }
    return n;
}
enum { IDLE1, CRIT1, IDLE2, CRIT2, LOCK };
enum { ENTER1, LEAVE1, ENTER2, LEAVE2 };

/* buf and its free slots cap (3 of them); put moves a slot to buf, get
 * moves it back. */
static net_t *buffer_net(void)
{
    net_t *n = nc_create_net("buffer", NULL);
    int buf = nc_create_place(n, "buf", NULL, 0), cap = nc_create_place(n, "cap", NULL, 3);
    int put = nc_create_transition(n, "put", NULL), get = nc_create_transition(n, "get", NULL);
    arc(n, NC_ARC_PT, cap, put, 1), arc(n, NC_ARC_TP, buf, put, 1);
    arc(n, NC_ARC_PT, buf, get, 1), arc(n, NC_ARC_TP, cap, get, 1);
    return n;
}

/* gen fills p0 from nothing. */
static net_t *unbounded_net(void)
{
    net_t *n = nc_create_net("unbounded", NULL);
    nc_create_place(n, "p0", NULL, 0);
    nc_create_transition(n, "gen", NULL);
    arc(n, NC_ARC_TP, 0, 0, 1);
    return n;
}

/* t reads the empty place guard and adds a token to out: it can never
 * fire, but the state equation does not see the read arc (no effect on
 * guard), so out >= 1 solves it. */
static net_t *spurious_net(void)
{
    net_t *n = nc_create_net("spurious", NULL);
    int guard = nc_create_place(n, "guard", NULL, 0), out = nc_create_place(n, "out", NULL, 0);
    int t = nc_create_transition(n, "t", NULL);
    arc(n, NC_ARC_PT, guard, t, 1), arc(n, NC_ARC_TP, guard, t, 1), arc(n, NC_ARC_TP, out, t, 1);
    return n;
}

/* a place holding 2^60 tokens, drained by t into q */
static net_t *huge_net(void)
{
    net_t *n = nc_create_net("huge", NULL);
    nc_create_place(n, "p", NULL, (nc_count)1 << 60);
    nc_create_place(n, "q", NULL, 0);
    nc_create_transition(n, "t", NULL);
    arc(n, NC_ARC_PT, 0, 0, 1), arc(n, NC_ARC_TP, 1, 0, 1);
    return n;
}

static tree_t *cmp1(uint32_t p, int64_t coef, int64_t k, rel_op rel)
{
    lin_term t = {p, coef};
    return tree_cmp(&t, 1, k, rel);
}

/* M(p) + M(q) + k REL 0 */
static tree_t *cmp2(uint32_t p, uint32_t q, int64_t k, rel_op rel)
{
    lin_term t[2] = {{p, 1}, {q, 1}};
    return tree_cmp(t, 2, k, rel);
}

static tree_t *fire1(uint32_t t)
{
    return tree_fireable(&t, 1);
}

static tree_t *and2(tree_t *a, tree_t *b) { return tree_binary(T_AND, a, b); }
static tree_t *or2(tree_t *a, tree_t *b) { return tree_binary(T_OR, a, b); }
static tree_t *not1(tree_t *a) { return tree_unary(T_NOT, a); }

/* Consumes phi. */
static se_verdict verdict(const cnet_t *cn, tree_t *phi)
{
    se_verdict v = stateeq_unreachable(cn, phi, 10.0);
    tree_free(phi);
    return v;
}

/* ---- fixed cases ---- */

static void test_mutex(void)
{
    net_t *n = mutex_net(1);
    const cnet_t *cn = nc_compile(n);
    CHECK(verdict(cn, and2(cmp1(CRIT1, 1, -1, REL_GE), cmp1(CRIT2, 1, -1, REL_GE))) == SE_UNREACHABLE,
          "mutex: crit1 & crit2 refuted");
    CHECK(verdict(cn, cmp2(CRIT1, CRIT2, -2, REL_GE)) == SE_UNREACHABLE,
          "mutex: crit1 + crit2 >= 2 refuted (a constant row)");
    CHECK(verdict(cn, cmp1(CRIT1, 1, -1, REL_GE)) == SE_UNKNOWN, "mutex: crit1 reachable, not refuted");
    CHECK(verdict(cn, cmp1(LOCK, 1, -2, REL_GE)) == SE_UNREACHABLE, "mutex: lock >= 2 refuted");
    CHECK(verdict(cn, and2(cmp1(CRIT1, 1, -1, REL_GE), fire1(ENTER2))) == SE_UNREACHABLE,
          "mutex: crit1 & fireable(enter2) refuted");
    CHECK(verdict(cn, and2(cmp1(CRIT1, 1, -1, REL_GE), fire1(LEAVE1))) == SE_UNKNOWN,
          "mutex: crit1 & fireable(leave1) not refuted");
    CHECK(verdict(cn, tree_deadlock()) == SE_UNREACHABLE, "mutex: deadlock refuted");
    CHECK(verdict(cn, and2(not1(fire1(LEAVE1)), not1(fire1(ENTER1)))) == SE_UNKNOWN,
          "mutex: !fireable(leave1) & !fireable(enter1) not refuted (crit2 holds the lock)");
    CHECK(verdict(cn, and2(not1(fire1(LEAVE1)), and2(not1(fire1(ENTER1)), cmp1(CRIT2, 1, 0, REL_EQ))))
          == SE_UNREACHABLE, "mutex: ... & crit2 = 0 refuted");
    /* NE splits: sum != 0 & lock != 0 is (sum<0 | sum>0) & (lock<0 | lock>0) */
    CHECK(verdict(cn, and2(cmp2(CRIT1, CRIT2, 0, REL_NE), cmp1(LOCK, 1, 0, REL_NE))) == SE_UNREACHABLE,
          "mutex: crit1 + crit2 != 0 & lock != 0 refuted");
    CHECK(verdict(cn, cmp1(LOCK, 1, -1, REL_NE)) == SE_UNKNOWN, "mutex: lock != 1 not refuted");
    CHECK(verdict(cn, cmp1(IDLE1, 2, -1, REL_EQ)) == SE_UNREACHABLE,
          "mutex: 2 idle1 = 1 refuted (integral markings)");
    CHECK(verdict(cn, tree_binary(T_IFF, cmp1(CRIT1, 1, -1, REL_GE), cmp1(IDLE1, 1, -1, REL_GE)))
          == SE_UNREACHABLE, "mutex: crit1 <-> idle1 refuted");
    CHECK(verdict(cn, tree_const(0)) == SE_UNREACHABLE, "false refuted");
    CHECK(verdict(cn, tree_const(1)) == SE_UNKNOWN, "true not refuted");
    tree_t *ef = tree_unary(T_EF, cmp1(CRIT1, 1, -2, REL_GE));
    CHECK(verdict(cn, ef) == SE_UNKNOWN, "a temporal formula is not a state formula: unknown");
    tree_t *quick = and2(cmp1(CRIT1, 1, -1, REL_GE), cmp1(CRIT2, 1, -1, REL_GE));
    CHECK(stateeq_unreachable(cn, quick, 1e-12) == SE_UNKNOWN, "no time: unknown");
    tree_free(quick);
    nc_free_net(n);

    n = mutex_net(0);
    cn = nc_compile(n);
    CHECK(verdict(cn, and2(cmp1(CRIT1, 1, -1, REL_GE), cmp1(CRIT2, 1, -1, REL_GE))) == SE_UNKNOWN,
          "no lock: crit1 & crit2 not refuted");
    nc_free_net(n);
}

static void test_overapprox(void)
{
    net_t *n = spurious_net();
    const cnet_t *cn = nc_compile(n);
    CHECK(verdict(cn, cmp1(1, 1, -1, REL_GE)) == SE_UNKNOWN,
          "spurious solution of the state equation: not refuted");
    uint32_t out = 1;
    uint64_t b = 0;
    CHECK(stateeq_upper_bound(cn, &out, 1, 10.0, &b) == -1, "spurious: no bound on out");
    nc_free_net(n);
}

static void test_bounds(void)
{
    net_t *n = buffer_net();
    const cnet_t *cn = nc_compile(n);
    uint32_t buf = 0, both[2] = {0, 1}, twice[2] = {0, 0};
    uint64_t b = 0;
    CHECK(stateeq_upper_bound(cn, &buf, 1, 10.0, &b) == 0 && b == 3, "buffer: bound 3 (got %llu)",
          (unsigned long long)b);
    CHECK(stateeq_upper_bound(cn, both, 2, 10.0, &b) == 0 && b == 3, "buffer: buf + cap bound 3");
    CHECK(stateeq_upper_bound(cn, twice, 2, 10.0, &b) == 0 && b == 6, "buffer: buf twice bound 6");
    CHECK(stateeq_upper_bound(cn, NULL, 0, 10.0, &b) == 0 && b == 0, "empty sum: bound 0");
    CHECK(verdict(cn, cmp1(0, 1, -4, REL_GE)) == SE_UNREACHABLE, "buffer: buf >= 4 refuted");
    CHECK(verdict(cn, cmp1(0, 1, -3, REL_GE)) == SE_UNKNOWN, "buffer: buf >= 3 not refuted");
    nc_free_net(n);

    n = mutex_net(1);
    cn = nc_compile(n);
    uint32_t crit[2] = {CRIT1, CRIT2};
    CHECK(stateeq_upper_bound(cn, crit, 2, 10.0, &b) == 0 && b == 1, "mutex: crit1 + crit2 bound 1");
    nc_free_net(n);

    n = unbounded_net();
    cn = nc_compile(n);
    uint32_t p0 = 0;
    CHECK(stateeq_upper_bound(cn, &p0, 1, 10.0, &b) == -1, "unbounded: no bound");
    nc_free_net(n);

    n = huge_net();
    cn = nc_compile(n);
    uint32_t q = 1, p = 0;
    CHECK(verdict(cn, cmp1(1, 1, -((int64_t)1 << 61), REL_GE)) == SE_UNKNOWN,
          "2^60 tokens: beyond exact doubles, unknown");
    int r = stateeq_upper_bound(cn, &q, 1, 10.0, &b);
    CHECK(r == -1 || b >= ((uint64_t)1 << 60), "2^60 tokens: no bound below the truth");
    r = stateeq_upper_bound(cn, &p, 1, 10.0, &b);
    CHECK(r == -1 || b >= ((uint64_t)1 << 60), "2^60 tokens on p: no bound below the truth");
    nc_free_net(n);
}

/* OR of k atoms "crit1 >= 2 + i", each refuted alone. */
static tree_t *many(int k)
{
    tree_t *t = cmp1(CRIT1, 1, -2, REL_GE);
    for (int i = 1; i < k; i++)
        t = or2(t, cmp1(CRIT1, 1, -2 - i, REL_GE));
    return t;
}

static void test_cap(void)
{
    net_t *n = mutex_net(1);
    const cnet_t *cn = nc_compile(n);
    lindnf d;
    tree_t *ne = cmp1(LOCK, 1, 0, REL_NE);
    CHECK(lindnf_build(cn, ne, 64, &d) == 0 && d.ndisj == 2 && !d.relaxed, "ne: two disjuncts");
    lindnf_free(&d);
    tree_free(ne);
    tree_t *dl = tree_deadlock();
    CHECK(lindnf_build(cn, dl, 64, &d) == 0 && d.ndisj == 4 && !d.relaxed, "mutex deadlock: 4 disjuncts");
    lindnf_free(&d);
    CHECK(lindnf_build(cn, dl, 2, &d) == 0 && d.ndisj <= 2 && d.relaxed, "cap 2: relaxed");
    lindnf_free(&d);
    tree_free(dl);

    CHECK(verdict(cn, many(STATEEQ_MAX_DISJUNCTS)) == SE_UNREACHABLE, "64 refuted disjuncts: refuted");
    CHECK(verdict(cn, many(STATEEQ_MAX_DISJUNCTS + 1)) == SE_UNKNOWN,
          "65 disjuncts: weakened to true, unknown");
    /* the over-long part is weakened, the rest still refutes */
    tree_t *phi = and2(and2(cmp1(CRIT1, 1, -1, REL_GE), cmp1(CRIT2, 1, -1, REL_GE)),
                       many(STATEEQ_MAX_DISJUNCTS + 1));
    CHECK(verdict(cn, phi) == SE_UNREACHABLE, "crit1 & crit2 & (65 disjuncts): refuted");
    /* 2^7 products: one side is kept */
    phi = and2(cmp1(CRIT1, 1, -1, REL_GE), cmp1(CRIT2, 1, -1, REL_GE));
    for (int i = 0; i < 7; i++)
        phi = and2(phi, cmp1(i % 5, 1, -7, REL_NE));
    CHECK(verdict(cn, phi) == SE_UNREACHABLE, "crit1 & crit2 & 7 != atoms: refuted");
    nc_free_net(n);
}

static int bad_glpk(void *arg)
{
    (void)arg;
    glp_prob *p = glp_create_prob();
    glp_add_rows(p, -1);   /* an invalid argument: a GLPK error */
    return 1;
}

static int good_glpk(void *arg)
{
    (void)arg;
    glp_prob *p = glp_create_prob();
    glp_delete_prob(p);
    return 7;
}

static void test_guard(void)
{
    CHECK(lpg_run(bad_glpk, NULL) == LPG_FAILED, "a GLPK error is caught");
    CHECK(lpg_run(good_glpk, NULL) == 7, "GLPK usable after an error");
}

/* ---- randomized comparison with exact reachable sets ---- */

static uint64_t rng = 88172645463325252ull;
static uint32_t rnd(uint32_t n)
{
    return (uint32_t)(unit_rand(&rng) % n);
}

#define MAXP 8
#define MAXSTATES 2000
#define MAXTOK 40
#define HSIZE 8192   /* a power of two above MAXSTATES */

typedef struct space {
    const cnet_t *cn;
    uint32_t n;
    nc_count m[MAXSTATES][MAXP];
    uint32_t hash[HSIZE];   /* index + 1 */
    const nc_count *cur;
} space;

static uint32_t hash_m(const nc_count *m, uint32_t np)
{
    uint64_t h = 1469598103934665603ull;
    for (uint32_t i = 0; i < np; i++)
        h = (h ^ m[i]) * 1099511628211ull;
    return (uint32_t)(h ^ (h >> 29));
}

/* 1 new, 0 known, -1 too many */
static int add_state(space *s, const nc_count *m)
{
    uint32_t np = s->cn->nplaces, mask = HSIZE - 1;
    for (uint32_t i = 0; i < np; i++)
        if (m[i] > MAXTOK)
            return -1;
    for (uint32_t h = hash_m(m, np) & mask;; h = (h + 1) & mask) {
        if (!s->hash[h]) {
            if (s->n == MAXSTATES)
                return -1;
            memcpy(s->m[s->n], m, np * sizeof *m);
            s->hash[h] = ++s->n;
            return 1;
        }
        if (!memcmp(s->m[s->hash[h] - 1], m, np * sizeof *m))
            return 0;
    }
}

/* 0, or -1 when the net is too large or unbounded for the test */
static int explore_all(space *s)
{
    s->n = 0;
    memset(s->hash, 0, sizeof s->hash);
    if (add_state(s, s->cn->initial) < 0)
        return -1;
    for (uint32_t i = 0; i < s->n; i++)
        for (uint32_t t = 0; t < s->cn->ntransitions; t++) {
            nc_count m[MAXP];
            memcpy(m, s->m[i], sizeof m);
            if (!cn_enabled(s->cn, m, t))
                continue;
            cn_fire(s->cn, m, t);
            if (add_state(s, m) < 0)
                return -1;
        }
    return 0;
}

static int en_cb(uint32_t t, void *ctx)
{
    space *s = ctx;
    return cn_enabled(s->cn, s->cur, t);
}

static int dl_cb(void *ctx)
{
    space *s = ctx;
    for (uint32_t t = 0; t < s->cn->ntransitions; t++)
        if (cn_enabled(s->cn, s->cur, t))
            return 0;
    return 1;
}

static int some_model(space *s, const tree_t *phi)
{
    for (uint32_t i = 0; i < s->n; i++) {
        s->cur = s->m[i];
        tree_eval_ctx ec = {s->m[i], en_cb, dl_cb, s};
        if (tree_eval_state(phi, &ec) == 1)
            return 1;
    }
    return 0;
}

static net_t *random_net(void)
{
    net_t *n = nc_create_net("random", NULL);
    uint32_t np = 5 + rnd(4), nt = 3 + rnd(6);
    for (uint32_t p = 0; p < np; p++)
        nc_create_place(n, NULL, NULL, rnd(3) ? rnd(3) : 0);
    for (uint32_t t = 0; t < nt; t++) {
        nc_create_transition(n, NULL, NULL);
        /* mostly token-preserving moves, so that many nets are bounded */
        uint32_t nin = 1 + rnd(2), nout = rnd(4) ? nin : rnd(3);
        for (uint32_t i = 0; i < nin; i++)
            nc_create_arc(n, NC_ARC_PT, rnd(np), t, 1 + (rnd(4) == 0), 1);
        for (uint32_t i = 0; i < nout; i++)
            nc_create_arc(n, NC_ARC_TP, rnd(np), t, 1 + (rnd(4) == 0), 1);
        if (rnd(6) == 0)
            nc_create_arc(n, NC_ARC_READ, rnd(np), t, 1 + rnd(2), 1);
    }
    return n;
}

static tree_t *random_formula(const cnet_t *cn, int depth)
{
    uint32_t k = depth <= 0 ? rnd(4) : rnd(9);
    switch (k) {
    case 0: case 1: {
        lin_term t[3];
        uint32_t nterms = 1 + rnd(3);
        for (uint32_t i = 0; i < nterms; i++)
            t[i].place = rnd(cn->nplaces), t[i].coef = (int64_t)rnd(5) - 2;
        return tree_cmp(t, nterms, (int64_t)rnd(9) - 4, (rel_op)rnd(6));
    }
    case 2: {
        uint32_t t[2] = {rnd(cn->ntransitions), rnd(cn->ntransitions)};
        return tree_fireable(t, 1 + rnd(2));
    }
    case 3:
        return rnd(8) ? cmp1(rnd(cn->nplaces), 1, -(int64_t)rnd(4), REL_GE) : tree_deadlock();
    case 4:
        return not1(random_formula(cn, depth - 1));
    case 5: case 6: {
        tree_t *l = random_formula(cn, depth - 1);
        return and2(l, random_formula(cn, depth - 1));
    }
    case 7: {
        tree_t *l = random_formula(cn, depth - 1);
        return or2(l, random_formula(cn, depth - 1));
    }
    default: {
        tree_t *l = random_formula(cn, depth - 1);
        return tree_binary(rnd(2) ? T_IMPLIES : T_IFF, l, random_formula(cn, depth - 1));
    }
    }
}

static void test_random(void)
{
    static space s;
    int nets = 0, skipped = 0, formulas = 0, refuted = 0, unreachable = 0, wrong = 0;
    int bounds = 0, exact_bounds = 0, low = 0, by_traps = 0, lost = 0, tighter = 0, looser = 0;
    int dl_free = 0, dl_wrong = 0, dl_proved = 0, dl_lost = 0;
    while (nets < 1500) {
        net_t *n = random_net();
        const cnet_t *cn = nc_compile(n);
        s.cn = cn;
        if (explore_all(&s) < 0) {
            skipped++;
            nc_free_net(n);
            continue;
        }
        nets++;
        for (int f = 0; f < 6; f++) {
            tree_t *phi = random_formula(cn, 3);
            int reachable = some_model(&s, phi);
            se_verdict v = stateeq_unreachable(cn, phi, 5.0);
            stateeq_set_trap_rounds(0);
            se_verdict plain = stateeq_unreachable(cn, phi, 5.0);
            stateeq_set_trap_rounds(32);
            by_traps += v == SE_UNREACHABLE && plain != SE_UNREACHABLE;
            lost += v != SE_UNREACHABLE && plain == SE_UNREACHABLE;
            formulas++;
            unreachable += !reachable;
            refuted += v == SE_UNREACHABLE;
            if (v == SE_UNREACHABLE && reachable) {
                if (wrong++ < 5) {
                    char *txt = tree_to_string(phi);
                    printf("# wrongly refuted: %s\n", txt ? txt : "?");
                    free(txt);
                }
            }
            tree_free(phi);
        }
        tree_t *dead = tree_deadlock();
        int has_deadlock = some_model(&s, dead);
        int by_dnf = stateeq_unreachable(cn, dead, 5.0) == SE_UNREACHABLE;
        int by_both = stateeq_no_deadlock(cn, NULL, NULL, 5.0) == SE_UNREACHABLE;
        tree_free(dead);
        dl_free += !has_deadlock;
        dl_wrong += by_both && has_deadlock;
        dl_proved += by_both;
        dl_lost += by_dnf && !by_both;
        for (int f = 0; f < 2; f++) {
            uint32_t pl[3], k = 1 + rnd(3);
            for (uint32_t i = 0; i < k; i++)
                pl[i] = rnd(cn->nplaces);
            uint64_t truth = 0, b;
            for (uint32_t i = 0; i < s.n; i++) {
                uint64_t sum = 0;
                for (uint32_t j = 0; j < k; j++)
                    sum += s.m[i][pl[j]];
                truth = sum > truth ? sum : truth;
            }
            uint64_t plain_b;
            stateeq_set_trap_rounds(0);
            int plain_ok = stateeq_upper_bound(cn, pl, k, 5.0, &plain_b) == 0;
            stateeq_set_trap_rounds(32);
            if (stateeq_upper_bound(cn, pl, k, 5.0, &b) == 0) {
                bounds++;
                exact_bounds += b == truth;
                low += b < truth;
                tighter += plain_ok && b < plain_b;
                looser += plain_ok && b > plain_b;
            } else {
                looser += plain_ok;
            }
        }
        nc_free_net(n);
    }
    printf("# %d nets (%d skipped), %d formulas: %d unreachable, %d refuted; "
           "%d bounds, %d exact\n", nets, skipped, formulas, unreachable, refuted, bounds, exact_bounds);
    CHECK(wrong == 0, "random: no reachable formula refuted (%d of %d)", wrong, formulas);
    CHECK(by_traps > 0 && lost == 0, "random: trap cuts refute %d formulas the plain state "
          "equation does not, and lose none (%d)", by_traps, lost);
    CHECK(dl_wrong == 0 && dl_lost == 0 && dl_proved > dl_free / 4,
          "random: no deadlock-freedom claimed wrongly (%d); %d of %d deadlock-free nets proved, "
          "none lost to the disjunctive form (%d)", dl_wrong, dl_proved, dl_free, dl_lost);
    CHECK(low == 0, "random: no bound below the maximum (%d of %d)", low, bounds);
    CHECK(tighter > 0 && looser == 0, "random: trap cuts tighten %d bounds and loosen none (%d)",
          tighter, looser);
    CHECK(refuted > formulas / 20, "random: refutations do happen (%d)", refuted);
    CHECK(exact_bounds > bounds / 2, "random: most bounds are exact (%d of %d)", exact_bounds, bounds);
}

/* A token going round n places; each step also reads a place g that
 * keeps its token.  "No step enabled" has 2^n cases, far over the
 * disjunctive form's cap; one constraint per transition needs none. */
static void test_linear_deadlock(void)
{
    const int n = 12;
    net_t *net = nc_create_net("ring", NULL);
    for (int i = 0; i < n; i++)
        nc_create_place(net, NULL, NULL, i == 0);
    int g = nc_create_place(net, NULL, NULL, 1);
    for (int i = 0; i < n; i++) {
        int t = nc_create_transition(net, NULL, NULL);
        arc(net, NC_ARC_PT, i, t, 1);
        arc(net, NC_ARC_TP, (i + 1) % n, t, 1);
        arc(net, NC_ARC_READ, g, t, 1);
    }
    const cnet_t *cn = nc_compile(net);
    tree_t *dead = tree_deadlock();
    CHECK(stateeq_unreachable(cn, dead, 10.0) == SE_UNKNOWN,
          "ring of %d with a read place: the disjunctive form cannot refute a deadlock", n);
    CHECK(stateeq_no_deadlock(cn, NULL, NULL, 10.0) == SE_UNREACHABLE,
          "ring of %d: one constraint per transition refutes it", n);
    tree_free(dead);
    nc_free_net(net);
}

int main(void)
{
    test_mutex();
    test_overapprox();
    test_bounds();
    test_cap();
    test_guard();
    test_random();
    test_linear_deadlock();
    glp_free_env();
    UNIT_DONE();
}
