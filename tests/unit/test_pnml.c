/* The PNML reader on the fixtures of tests/data/pnml (found under $TOP,
 * default "."): counts, names, markings, weights, NUPN units, every kind of
 * bad input, and every truncation of the good fixtures.
 *
 * With an argument, reads that file instead (5 times by default, or
 * argv[2] times) and prints the time of each read and MB/s: the timing
 * mode used for the speed figures of the large MCC instances. */
#include "input/input.h"
#include "unit.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char path_buf[4096];

static const char *fixture(const char *name)
{
    const char *top = getenv("TOP");
    snprintf(path_buf, sizeof path_buf, "%s/tests/data/pnml/%s", top && *top ? top : ".", name);
    return path_buf;
}

static net_t *read_fixture(const char *name)
{
    net_t *net = pnml_read(fixture(name));
    CHECK(net != NULL, "%s is read", name);
    return net;
}

static int64_t place(net_t *net, const char *id) { return nc_find_place(net, id); }
static int64_t trans(net_t *net, const char *id) { return nc_find_transition(net, id); }

static nc_count weight(net_t *net, nc_arc_kind k, const char *p, const char *t)
{
    int64_t pi = place(net, p), ti = trans(net, t);
    if (pi < 0 || ti < 0)
        return 0;
    return nc_arc_weight(net, k, (uint32_t)pi, (uint32_t)ti);
}

static void test_minimal(void)
{
    net_t *net = read_fixture("minimal.pnml");
    if (!net)
        return;
    CHECK(strcmp(net->name, "minimal") == 0, "minimal: net name is the net id");
    CHECK(net->nplaces == 2 && net->ntransitions == 1 && net->narcs == 2,
          "minimal: 2 places, 1 transition, 2 arcs");
    CHECK(strcmp(net->places[0].id, "p0") == 0 && strcmp(net->places[0].name, "start") == 0,
          "minimal: place name from <name><text>");
    CHECK(strcmp(net->places[1].name, "p1") == 0, "minimal: name defaults to the id");
    CHECK(net->places[0].initial == 1 && net->places[1].initial == 0,
          "minimal: initial marking, absent = 0");
    CHECK(weight(net, NC_ARC_PT, "p0", "t0") == 1 && weight(net, NC_ARC_TP, "p1", "t0") == 1,
          "minimal: arcs in both directions, weight 1 by default");
    CHECK(net->nunits == 0 && !net->units_claim_safe, "minimal: no partition");
    nc_free_net(net);
}

static void test_pages(void)
{
    net_t *net = read_fixture("pages.pnml");
    if (!net)
        return;
    CHECK(net->nplaces == 2 && net->ntransitions == 2 && net->narcs == 4,
          "pages: nodes of nested pages, other tool sections skipped");
    CHECK(strcmp(net->places[0].id, "outer_p") == 0 && strcmp(net->places[1].id, "inner_p") == 0,
          "pages: places in file order");
    CHECK(strcmp(net->transitions[0].id, "t2") == 0 && strcmp(net->transitions[1].id, "t1") == 0,
          "pages: transitions in file order");
    CHECK(strcmp(net->places[0].name, "Outer place") == 0, "pages: name trimmed, graphics skipped");
    CHECK(strcmp(net->transitions[1].name, "first") == 0, "pages: transition name");
    CHECK(net->places[0].initial == 3 && net->places[1].initial == 2,
          "pages: marking with white space and in CDATA");
    CHECK(weight(net, NC_ARC_TP, "inner_p", "t1") == 1, "pages: arc before both of its nodes");
    CHECK(weight(net, NC_ARC_PT, "outer_p", "t1") == 1, "pages: arc before its transition");
    CHECK(weight(net, NC_ARC_PT, "inner_p", "t2") == 5, "pages: inscription with white space");
    CHECK(weight(net, NC_ARC_TP, "outer_p", "t2") == 1, "pages: transition to place");
    nc_free_net(net);
}

static void test_weights(void)
{
    net_t *net = read_fixture("weights.pnml");
    if (!net)
        return;
    CHECK(net->places[0].initial == 4000000000ULL, "weights: marking 4000000000");
    CHECK(net->places[1].initial == NC_COUNT_MAX, "weights: marking NC_COUNT_MAX");
    CHECK(net->narcs == 4, "weights: duplicate arcs merged into one");
    CHECK(weight(net, NC_ARC_PT, "big", "t") == 4000000000ULL,
          "weights: merged weights added (3000000000 + 1000000000)");
    CHECK(weight(net, NC_ARC_TP, "zero", "t") == 7 && weight(net, NC_ARC_TP, "big", "t") == 1,
          "weights: output weights");
    nc_summary s;
    nc_summarize(net, &s);
    CHECK(!s.syntactically_safe, "weights: not syntactically safe");
    nc_free_net(net);
}

static int unit_has(const net_t *net, const nc_unit *u, const char *ids)
{
    char buf[256];
    size_t n = 0;
    buf[0] = '\0';
    for (uint32_t i = 0; i < u->nplaces; i++)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", i ? " " : "",
                              net->places[u->places[i]].id);
    return strcmp(buf, ids) == 0;
}

static void test_nupn(void)
{
    net_t *net = read_fixture("nupn.pnml");
    if (!net)
        return;
    CHECK(net->nunits == 4, "nupn: 4 units");
    CHECK(net->units_claim_safe, "nupn: safe=\"true\" kept");
    if (net->nunits == 4) {
        /* parents come before children: root, left, leaf, right */
        const nc_unit *u = net->units;
        CHECK(strcmp(u[0].name, "root") == 0 && u[0].parent == -1 && unit_has(net, &u[0], "p0"),
              "nupn: root unit has parent -1");
        CHECK(strcmp(u[1].name, "left") == 0 && u[1].parent == 0 && unit_has(net, &u[1], "p1 p2"),
              "nupn: subunit defined after its parent, places split on white space");
        CHECK(strcmp(u[2].name, "leaf") == 0 && u[2].parent == 1 && unit_has(net, &u[2], "p4"),
              "nupn: unit defined before its parent");
        CHECK(strcmp(u[3].name, "right") == 0 && u[3].parent == 0 && unit_has(net, &u[3], "p3"),
              "nupn: second subunit of the root");
    }
    CHECK(net->nplaces == 5 && net->ntransitions == 2 && net->narcs == 4,
          "nupn: the net itself");
    nc_free_net(net);
}

static const char *const bad[] = {
    "truncated.pnml", "malformed.pnml", "unknown-arc.pnml", "duplicate-id.pnml",
    "duplicate-place.pnml", "negative-marking.pnml", "overflow-marking.pnml",
    "nonnumeric-marking.pnml", "empty-marking.pnml", "zero-weight.pnml",
    "negative-weight.pnml", "overflow-weight.pnml", "place-place.pnml",
    "transition-transition.pnml", "arc-no-target.pnml", "place-no-id.pnml",
    "nupn-unknown-place.pnml", "nupn-unknown-subunit.pnml", "nupn-cycle.pnml",
    "nupn-place-twice.pnml", "bomb.pnml", "entity-decl.pnml", "xxe.pnml", "colored.pnml",
    "colored-type.pnml", "reference-place.pnml", "not-ptnet.pnml", "two-nets.pnml",
    "no-net.pnml", "not-pnml.pnml", "empty.pnml", "no-such-file.pnml",
};

static void test_bad(void)
{
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        unsigned long before = nc_error_count();
        net_t *net = pnml_read(fixture(bad[i]));
        CHECK(net == NULL && nc_error_count() == before + 1,
              "%s is refused with one error", bad[i]);
        nc_free_net(net);
    }
}

/* ---- every prefix of the good fixtures: a net or one error, never a
 * crash (run under ASan in CI) ---- */

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *s = malloc(1 << 16);
    *len = s ? fread(s, 1, 1 << 16, f) : 0;
    fclose(f);
    return s;
}

static void test_prefixes(const char *name)
{
    size_t len;
    char *text = slurp(fixture(name), &len);
    char tmp[] = "/tmp/mck_test_pnml_XXXXXX";
    int fd = text ? mkstemp(tmp) : -1;
    if (fd < 0) {
        SKIP("prefixes of %s: no fixture or no temporary file", name);
        free(text);
        return;
    }
    close(fd);
    /* the reader's messages would be hundreds of lines: hide them */
    fflush(stderr);
    int saved = dup(2), null = open("/dev/null", O_WRONLY);
    if (null >= 0)
        dup2(null, 2);
    size_t bad_count = 0, ok_count = 0;
    for (size_t n = 0; n < len; n++) {
        FILE *f = fopen(tmp, "wb");
        if (!f)
            break;
        fwrite(text, 1, n, f);
        fclose(f);
        unsigned long before = nc_error_count();
        net_t *net = pnml_read(tmp);
        if (net ? nc_error_count() == before : nc_error_count() == before + 1)
            ok_count++;
        else
            bad_count++;
        nc_free_net(net);
    }
    fflush(stderr);
    if (saved >= 0) {
        dup2(saved, 2);
        close(saved);
    }
    if (null >= 0)
        close(null);
    unlink(tmp);
    CHECK(bad_count == 0 && ok_count == len,
          "%s: all %zu prefixes give a net or exactly one error", name, len);
    free(text);
}

/* ---- timing mode ---- */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int timing(const char *path, int reps)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        perror(path);
        return 2;
    }
    /* CPU time as well as wall time: a loaded machine distorts the latter */
    for (int i = 0; i < reps; i++) {
        double t0 = now();
        clock_t c0 = clock();
        net_t *net = pnml_read(path);
        double cpu = (double)(clock() - c0) / CLOCKS_PER_SEC, t = now() - t0;
        if (!net)
            return 2;
        printf("# %s: %zu places, %zu transitions, %zu arcs: %.3f s wall (%.1f MB/s), "
               "%.3f s CPU (%.1f MB/s)\n", path, net->nplaces, net->ntransitions, net->narcs,
               t, (double)st.st_size / 1e6 / t, cpu, (double)st.st_size / 1e6 / cpu);
        nc_free_net(net);
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1)
        return timing(argv[1], argc > 2 ? atoi(argv[2]) : 5);
    test_minimal();
    test_pages();
    test_weights();
    test_nupn();
    test_bad();
    test_prefixes("minimal.pnml");
    test_prefixes("nupn.pnml");
    test_prefixes("pages.pnml");
    UNIT_DONE();
}
