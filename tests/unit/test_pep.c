/* The PEP reader against docs/pep-format.md: the benchmark nets of
 * examples/pep (their README table, including the number of reachable
 * markings found by a small independent search below), the complete
 * examples of §11, the extensions and the error cases of §13. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input/input.h"
#include "base/netconv.h"
#include "unit.h"

static char top[2048], shared[4096];

static const char *path_in(char *buf, size_t size, const char *dir, const char *file)
{
    snprintf(buf, size, "%s/%s", dir, file);
    return buf;
}

static net_t *fixture(const char *file)
{
    char dir[4200], path[4400];
    snprintf(dir, sizeof dir, "%s/tests/data/pep", top);
    return pep_read(path_in(path, sizeof path, dir, file));
}

/* ---- breadth-first search over all reachable markings ----
 * Plain arrays and a linear-probing table: the example nets have at most a
 * few thousand markings. */

typedef struct search {
    const cnet_t *cn;
    nc_count *seen;          /* markings, nplaces each */
    size_t n, cap;
    size_t *table;           /* index+1 */
    size_t tcap;
    int deadlock, overflow;
} search;

static uint64_t hash_marking(const nc_count *m, uint32_t n)
{
    uint64_t h = 1469598103934665603u;
    for (uint32_t i = 0; i < n; i++)
        h = (h ^ m[i]) * 1099511628211u;
    return h;
}

static int rehash(search *s)
{
    size_t cap = s->tcap ? s->tcap * 2 : 1024;
    size_t *t = calloc(cap, sizeof *t);
    if (!t)
        return -1;
    for (size_t i = 0; i < s->n; i++) {
        size_t j = hash_marking(s->seen + i * s->cn->nplaces, s->cn->nplaces) & (cap - 1);
        while (t[j])
            j = (j + 1) & (cap - 1);
        t[j] = i + 1;
    }
    free(s->table);
    s->table = t;
    s->tcap = cap;
    return 0;
}

/* Adds m unless seen; -1 on out of memory or too many markings. */
static int visit(search *s, const nc_count *m)
{
    uint32_t np = s->cn->nplaces;
    if ((s->n + 1) * 2 > s->tcap && rehash(s) < 0)
        return -1;
    size_t j = hash_marking(m, np) & (s->tcap - 1);
    for (; s->table[j]; j = (j + 1) & (s->tcap - 1))
        if (memcmp(s->seen + (s->table[j] - 1) * np, m, np * sizeof *m) == 0)
            return 0;
    if (s->n >= 1000000)
        return -1;
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 1024;
        nc_count *v = realloc(s->seen, cap * (np ? np : 1) * sizeof *v);
        if (!v)
            return -1;
        s->seen = v;
        s->cap = cap;
    }
    memcpy(s->seen + s->n * np, m, np * sizeof *m);
    s->table[j] = ++s->n;
    return 0;
}

/* Number of reachable markings (0 on failure); *deadlock set when one of
 * them enables nothing. */
static size_t explore(net_t *net, int *deadlock)
{
    search s = {0};
    s.cn = nc_compile(net);
    if (!s.cn)
        return 0;
    uint32_t np = s.cn->nplaces;
    nc_count *m = malloc((np ? np : 1) * sizeof *m);
    int ok = m && visit(&s, s.cn->initial) == 0;
    *deadlock = 0;
    for (size_t i = 0; ok && i < s.n; i++) {
        int enabled = 0;
        for (uint32_t t = 0; ok && t < s.cn->ntransitions; t++) {
            memcpy(m, s.seen + i * np, np * sizeof *m);
            if (!cn_enabled(s.cn, m, t))
                continue;
            enabled = 1;
            ok = cn_fire(s.cn, m, t) == 0 && visit(&s, m) == 0;
        }
        if (!enabled)
            *deadlock = 1;
    }
    size_t n = ok ? s.n : 0;
    free(m);
    free(s.seen);
    free(s.table);
    return n;
}

/* ---- the benchmark nets ---- */

typedef struct expected {
    const char *file;
    size_t places, transitions, pt, tp, ra;
    nc_count tokens;
    size_t markings;
    int deadlock;
} expected;

/* examples/pep/README.md, "Table". */
static const expected table[] = {
    {"peterson.ll_net", 27, 31, 61, 59, 0, 5, 92, 0},
    {"peterson_ra.ll_net", 27, 31, 43, 41, 18, 5, 92, 0},
    {"mutual.ll_net", 49, 41, 67, 67, 0, 9, 3251, 0},
    {"elevator.ll_net", 47, 51, 124, 128, 0, 5, 1999, 0},
    {"gas_station.ll_net", 23, 15, 27, 27, 0, 6, 90, 0},
    {"sdl_arq_deadlock.ll_net", 86, 35, 104, 129, 0, 6, 110, 1},
    {"stack_full.ll_net", 27, 27, 59, 58, 0, 3, 340, 1},
    {"philo3.ll_net", 12, 9, 15, 15, 0, 6, 14, 1},
};

/* Net order is by identifier (kit-overview.md §7.1). */
static int ids_ascending(const net_t *net)
{
    for (size_t i = 1; i < net->nplaces; i++)
        if (strtoul(net->places[i - 1].id, NULL, 10) >= strtoul(net->places[i].id, NULL, 10))
            return 0;
    for (size_t i = 1; i < net->ntransitions; i++)
        if (strtoul(net->transitions[i - 1].id, NULL, 10) >=
            strtoul(net->transitions[i].id, NULL, 10))
            return 0;
    return 1;
}

static void check_example(const expected *x)
{
    char dir[4200], path[4400];
    snprintf(dir, sizeof dir, "%s/examples/pep", shared);
    net_t *net = pep_read(path_in(path, sizeof path, dir, x->file));
    CHECK(net != NULL, "%s: read", x->file);
    if (!net)
        return;
    nc_summary s;
    nc_summarize(net, &s);
    CHECK(s.places == x->places, "%s: %zu places (got %zu)", x->file, x->places, s.places);
    CHECK(s.transitions == x->transitions, "%s: %zu transitions (got %zu)", x->file,
          x->transitions, s.transitions);
    CHECK(s.pt_arcs == x->pt, "%s: %zu PT arcs (got %zu)", x->file, x->pt, s.pt_arcs);
    CHECK(s.tp_arcs == x->tp, "%s: %zu TP arcs (got %zu)", x->file, x->tp, s.tp_arcs);
    CHECK(s.read_arcs == x->ra, "%s: %zu RA arcs (got %zu)", x->file, x->ra, s.read_arcs);
    CHECK(s.tokens == x->tokens, "%s: %llu tokens (got %llu)", x->file,
          (unsigned long long)x->tokens, (unsigned long long)s.tokens);
    CHECK(s.syntactically_safe, "%s: syntactically safe", x->file);
    CHECK(ids_ascending(net), "%s: nodes sorted by identifier", x->file);
    int dl = -1;
    size_t n = explore(net, &dl);
    CHECK(n == x->markings, "%s: %zu reachable markings (got %zu)", x->file, x->markings, n);
    CHECK(dl == x->deadlock, "%s: deadlock %s", x->file, x->deadlock ? "yes" : "no");
    nc_free_net(net);
}

static void check_examples(void)
{
    char path[4400];
    snprintf(path, sizeof path, "%s/examples/pep/peterson.ll_net", shared);
    if (access(path, R_OK) != 0) {
        SKIP("pep examples: %s not found (set SHARED)", path);
        return;
    }
    for (size_t i = 0; i < sizeof table / sizeof *table; i++)
        check_example(&table[i]);

    /* Place names and meanings (README: "P41" means incs1=1). */
    snprintf(path, sizeof path, "%s/examples/pep/mutual.ll_net", shared);
    net_t *net = pep_read(path);
    if (net) {
        int64_t p = nc_find_place_by_name(net, "P41");
        CHECK(p >= 0 && net->places[p].comment &&
              strcmp(net->places[p].comment, "incs1=1") == 0, "mutual: P41 means incs1=1");
        CHECK(p >= 0 && strcmp(net->places[p].id, "41") == 0, "mutual: P41 has id 41");
        nc_free_net(net);
    }
    snprintf(path, sizeof path, "%s/examples/pep/elevator.ll_net", shared);
    net = pep_read(path);
    if (net) {
        CHECK(strcmp(net->places[0].id, "3") == 0 && strcmp(net->places[0].name, "P3") == 0,
              "elevator: first place is id 3 'P3'");
        CHECK(strcmp(net->name, "elevator") == 0, "elevator: net name");
        nc_free_net(net);
    }
}

/* ---- §11 ---- */

static int64_t place(net_t *net, const char *name)
{
    return nc_find_place_by_name(net, name);
}

static void check_11_1(const char *file)
{
    net_t *net = fixture(file);
    CHECK(net != NULL, "%s: read", file);
    if (!net)
        return;
    CHECK(net->nplaces == 2 && net->ntransitions == 1 && net->narcs == 2,
          "%s: 2 places, 1 transition, 2 arcs", file);
    CHECK(strcmp(net->places[0].name, "ready") == 0 && strcmp(net->places[0].id, "1") == 0 &&
          net->places[0].initial == 1, "%s: place 1 'ready' with 1 token", file);
    CHECK(strcmp(net->places[1].name, "done") == 0 && net->places[1].initial == 0,
          "%s: place 2 'done' empty", file);
    CHECK(strcmp(net->transitions[0].name, "go") == 0, "%s: transition 'go'", file);
    CHECK(nc_arc_weight(net, NC_ARC_PT, 0, 0) == 1 && nc_arc_weight(net, NC_ARC_TP, 1, 0) == 1,
          "%s: ready -> go -> done", file);
    const cnet_t *cn = nc_compile(net);
    if (cn) {
        nc_count m[2] = {cn->initial[0], cn->initial[1]};
        CHECK(cn_enabled(cn, m, 0), "%s: go enabled initially", file);
        CHECK(cn_fire(cn, m, 0) == 0 && m[0] == 0 && m[1] == 1, "%s: go moves the token",
              file);
        CHECK(!cn_enabled(cn, m, 0), "%s: after go nothing is enabled", file);
    }
    int dl;
    CHECK(explore(net, &dl) == 2 && dl, "%s: 2 markings, deadlock", file);
    nc_free_net(net);
}

static void check_11_2(void)
{
    net_t *net = fixture("ex11_2.ll_net");
    CHECK(net != NULL, "11.2: read");
    if (!net)
        return;
    nc_summary s;
    nc_summarize(net, &s);
    CHECK(s.places == 2 && s.transitions == 1 && s.pt_arcs == 1 && s.tp_arcs == 1 &&
          s.tokens == 1, "11.2: same net as 11.1");
    CHECK(strcmp(net->places[0].name, "P1") == 0 && net->places[0].initial == 1,
          "11.2: P1 marked");
    CHECK(net->transitions[0].comment && strcmp(net->transitions[0].comment, "<true>") == 0,
          "11.2: transition meaning kept as comment");
    int dl;
    CHECK(explore(net, &dl) == 2 && dl, "11.2: 2 markings, deadlock");
    nc_free_net(net);
}

static void check_11_3(void)
{
    net_t *net = fixture("ex11_3.ll_net");
    CHECK(net != NULL, "11.3: read");
    if (!net)
        return;
    nc_summary s;
    nc_summarize(net, &s);
    CHECK(s.places == 5 && s.transitions == 2 && s.pt_arcs == 2 && s.tp_arcs == 2 &&
          s.read_arcs == 2 && s.tokens == 3, "11.3: counts");
    int64_t mid = place(net, "mid");
    CHECK(mid == 4 && nc_arc_weight(net, NC_ARC_READ, 4, 0) == 1 &&
          nc_arc_weight(net, NC_ARC_READ, 4, 1) == 1, "11.3: t0 and t1 read mid");
    CHECK(place(net, "s0'") == 1, "11.3: name with a quote");
    int dl;
    CHECK(explore(net, &dl) == 4, "11.3: 4 reachable markings");
    CHECK(dl, "11.3: deadlock reachable");
    const cnet_t *cn = nc_compile(net);
    if (cn) {
        nc_count m[5];
        memcpy(m, cn->initial, sizeof m);
        int ok = cn_fire(cn, m, 0) == 0 && cn_fire(cn, m, 1) == 0;
        CHECK(ok && m[4] == 1 && m[1] == 1 && m[3] == 1 && !cn_enabled(cn, m, 0) &&
              !cn_enabled(cn, m, 1), "11.3: mid stays marked; dead after both fire");
    }
    nc_free_net(net);
}

static void check_11_4(void)
{
    net_t *net = fixture("ex11_4.ll_net");
    CHECK(net != NULL, "11.4: read");
    if (!net)
        return;
    CHECK(net->places[0].initial == 3 && net->places[2].initial == 1, "11.4: M3 and M1");
    CHECK(nc_arc_weight(net, NC_ARC_TP, 1, 0) == 2 && nc_arc_weight(net, NC_ARC_PT, 0, 0) == 2,
          "11.4: weights 2 on produce2");
    CHECK(nc_arc_weight(net, NC_ARC_TP, 2, 0) == 1 && nc_arc_weight(net, NC_ARC_PT, 1, 1) == 1,
          "11.4: default weight 1");
    nc_summary s;
    nc_summarize(net, &s);
    CHECK(!s.syntactically_safe, "11.4: not syntactically safe");
    int dl;
    CHECK(explore(net, &dl) == 4, "11.4: 4 reachable markings");
    CHECK(!dl, "11.4: no deadlock");
    nc_free_net(net);
}

/* ---- our decisions beyond the examples ---- */

static void check_features(void)
{
    net_t *net = fixture("features.ll_net");
    CHECK(net != NULL, "features: read");
    if (!net)
        return;
    CHECK(net->nplaces == 3 && strcmp(net->places[0].id, "2") == 0 &&
          strcmp(net->places[1].id, "5") == 0 && strcmp(net->places[2].id, "9") == 0,
          "features: places sorted by id");
    CHECK(strcmp(net->places[0].name, "100% sure") == 0, "features: %% inside a string");
    CHECK(strcmp(net->places[1].name, "say \"hi\"") == 0, "features: single-quoted name");
    CHECK(strcmp(net->places[2].name, "P9") == 0, "features: generated place name");
    CHECK(net->places[0].comment && strcmp(net->places[0].comment, "meaning") == 0,
          "features: place meaning");
    CHECK(net->places[0].initial == 2 && net->places[1].initial == 1 &&
          net->places[2].initial == 0, "features: marking (M 1 with a blank)");
    CHECK(strcmp(net->transitions[0].name, "it's") == 0 &&
          strcmp(net->transitions[1].name, "t3") == 0, "features: transitions sorted");
    nc_summary s;
    nc_summarize(net, &s);
    CHECK(s.tp_arcs == 2 && s.pt_arcs == 2 && s.read_arcs == 1,
          "features: duplicate merged, redundant read arc dropped");
    CHECK(nc_arc_weight(net, NC_ARC_TP, 2, 1) == 2, "features: DPT default weight 2");
    CHECK(nc_arc_weight(net, NC_ARC_TP, 1, 0) == 1, "features: merged arc keeps weight 1");
    CHECK(nc_arc_weight(net, NC_ARC_PT, 0, 0) == 2, "features: PT default weight");
    CHECK(nc_arc_weight(net, NC_ARC_READ, 0, 0) == 0, "features: RA next to PT dropped");
    CHECK(nc_arc_weight(net, NC_ARC_READ, 0, 1) == 3, "features: read arc weight 3");
    nc_free_net(net);

    net = fixture("autonum.ll_net");
    CHECK(net && net->nplaces == 4 && strcmp(net->places[2].id, "3") == 0 &&
          strcmp(net->places[2].name, "c") == 0 && strcmp(net->places[3].id, "7") == 0,
          "autonum: ids 1 2 3 7");
    CHECK(net && nc_arc_weight(net, NC_ARC_TP, 3, 1) == 1, "autonum: arc to place 7");
    nc_free_net(net);

    check_11_1("crlf.ll_net");

    /* A read arc heavier than the consumption still restricts t. */
    net = fixture("readweights.ll_net");
    CHECK(net && nc_arc_weight(net, NC_ARC_READ, 0, 0) == 3 &&
          nc_arc_weight(net, NC_ARC_PT, 0, 0) == 1, "readweights: heavier read arc kept");
    if (net) {
        int dl;
        CHECK(explore(net, &dl) == 1 && dl, "readweights: t is not enabled with 2 tokens");
    }
    nc_free_net(net);
}

/* ---- errors (§13) ---- */

static void check_bad(const char *name)
{
    char file[256];
    snprintf(file, sizeof file, "bad_%s.ll_net", name);
    unsigned long before = nc_error_count();
    net_t *net = fixture(file);
    CHECK(net == NULL && nc_error_count() == before + 1, "%s: rejected with one error", file);
    nc_free_net(net);
}

static const char *const bad[] = {
    "magic", "empty", "class", "format", "header_eof", "keyword", "order", "skipped", "twice",
    "missing_pl", "entry_before_pl", "missing_tr", "rs", "rd", "letter", "tr_letter",
    "string", "meaning_string", "digit", "coords", "arc_place", "arc_transition",
    "no_ends", "dup_place", "dup_transition", "missing_id", "id_zero", "id_range",
    "weight0", "weight_negative", "dpt_weight", "negative", "overflow", "dup_arc",
    "dup_read_arc", "truncated", "no_pt", "kw_text", "arc_pairs", "ptp_no_ends",
};

/* Inputs a fixture file cannot hold well: written on the fly. */
static void check_hostile(void)
{
    char path[4400];
    snprintf(path, sizeof path, "%s/tests/tmp", top);
    mkdir(path, 0777);
    snprintf(path, sizeof path, "%s/tests/tmp/pep_hostile.ll_net", top);
    static const struct {
        const char *what;
        const char *text;
        size_t len;
    } cases[] = {
#define CASE(what, text) {what, text, sizeof text - 1}
        CASE("NUL byte", "PEP\nPTNet\nFORMAT_N2\nPL\n\"a\0b\"\nTR\nTP\nPT\n"),
        CASE("no newline at the end, unterminated", "PEP\nPTNet\nFORMAT_N2\nPL\n\"a"),
        CASE("number of 40 digits",
             "PEP\nPTNet\nFORMAT_N2\nPL\n1234567890123456789012345678901234567890\n"),
        CASE("keyword-looking entry", "PEP\nPTNet\nFORMAT_N2\nPL\nSP\"x\"\n"),
        CASE("huge weight", "PEP\nPTNet\nFORMAT_N2\nPL\n\"a\"\nTR\n\"t\"\nTP\n"
             "1<1w9223372036854775808\nPT\n"),
#undef CASE
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        FILE *f = fopen(path, "wb");
        if (!f) {
            SKIP("hostile input: cannot write %s", path);
            return;
        }
        fwrite(cases[i].text, 1, cases[i].len, f);
        fclose(f);
        unsigned long before = nc_error_count();
        net_t *net = pep_read(path);
        CHECK(!net && nc_error_count() == before + 1, "hostile: %s rejected", cases[i].what);
        nc_free_net(net);
    }
    /* A long line of fields stays linear and is accepted. */
    FILE *f = fopen(path, "wb");
    if (f) {
        fputs("PEP\nPTNet\nFORMAT_N2\nPL\n1\"a\"", f);
        for (int i = 0; i < 100000; i++)
            fputs("M1", f);
        fputs("\nTR\nTP\nPT\n", f);
        fclose(f);
        net_t *net = pep_read(path);
        CHECK(net && net->places[0].initial == 1, "hostile: 100000 repeated fields");
        nc_free_net(net);
    }
    unlink(path);

    unsigned long before = nc_error_count();
    CHECK(pep_read("/nonexistent/x.ll_net") == NULL && nc_error_count() == before + 1,
          "missing file rejected");
    before = nc_error_count();
    snprintf(path, sizeof path, "%s/tests/data/pep", top);
    CHECK(pep_read(path) == NULL && nc_error_count() == before + 1, "directory rejected");
}

int main(void)
{
    const char *t = getenv("TOP"), *s = getenv("SHARED");
    snprintf(top, sizeof top, "%s", t && *t ? t : ".");
    if (s && *s)
        snprintf(shared, sizeof shared, "%s", s);
    else
        snprintf(shared, sizeof shared, "%s/../shared", top);

    check_examples();
    check_11_1("ex11_1.ll_net");
    check_11_2();
    check_11_3();
    check_11_4();
    check_features();
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        check_bad(bad[i]);
    check_hostile();
    UNIT_DONE();
}
