/* The RERS reader (input/rers.c): the exact net of rers-format.md §8 for
 * small hand-made systems (every transition's pre- and post-places), the
 * model kept with the net, and cgraph's global parser state: a bad file
 * read before must never change what the next file means or the line an
 * error is reported at. */
#include "input/input.h"
#include "input/rers.h"
#include "unit.h"

#include <stdlib.h>
#include <unistd.h>

static const char *top;

static const char *data(const char *name)
{
    static char path[4096];
    snprintf(path, sizeof path, "%s/tests/data/rers/%s", top, name);
    return path;
}

static int by_index(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The ids of the places of t's arcs of one kind, in net order: "sa0 sb0".
 * Two results may be used at once. */
static const char *arcs_of(const net_t *net, uint32_t t, nc_arc_kind kind)
{
    static char ring[2][256];
    static unsigned k;
    char *buf = ring[k++ % 2];
    uint32_t p[16];
    size_t n = 0;
    for (size_t i = 0; i < net->narcs && n < 16; i++)
        if (net->arcs[i].transition == t && net->arcs[i].kind == kind && net->arcs[i].weight == 1)
            p[n++] = net->arcs[i].place;
    qsort(p, n, sizeof *p, by_index);
    buf[0] = '\0';
    for (size_t i = 0; i < n; i++)
        snprintf(buf + strlen(buf), sizeof ring[0] - strlen(buf), "%s%s", i ? " " : "",
                 net->places[p[i]].id);
    return buf;
}

static const char *place_list(const net_t *net, int marked_only)
{
    static char buf[256];
    buf[0] = '\0';
    for (size_t p = 0; p < net->nplaces; p++)
        if (!marked_only || net->places[p].initial)
            snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", buf[0] ? " " : "",
                     net->places[p].id);
    return buf;
}

static int transition_is(const net_t *net, uint32_t t, const char *name, const char *pre,
                         const char *post)
{
    return t < net->ntransitions && !strcmp(net->transitions[t].id, name) &&
           !strcmp(arcs_of(net, t, NC_ARC_PT), pre) && !strcmp(arcs_of(net, t, NC_ARC_TP), post);
}

static void test_tick(void)
{
    net_t *net = rers_read(data("tick.dot"));
    CHECK(net != NULL, "rers tick.dot is read");
    if (!net)
        return;
    CHECK(!strcmp(place_list(net, 0), "sa0 sa1 sb0 sc0 sc1"), "tick: places %s",
          place_list(net, 0));
    CHECK(!strcmp(place_list(net, 1), "sa0 sb0 sc0"), "tick: marked %s", place_list(net, 1));
    CHECK(net->ntransitions == 1 && net->narcs == 6, "tick: 1 transition, 6 arcs");
    CHECK(transition_is(net, 0, "tick", "sa0 sb0 sc0", "sa1 sb0 sc1"),
          "tick: needs A in a0, B in b0, C in c0; moves A and C, leaves B in b0 (%s -> %s)",
          arcs_of(net, 0, NC_ARC_PT), arcs_of(net, 0, NC_ARC_TP));
    CHECK(net->nunits == 3 && net->units_claim_safe && !strcmp(net->units[1].name, "B") &&
          net->units[1].nplaces == 1, "tick: one unit per LTS, claimed safe");
    nc_free_net(net);
}

static void test_combos(void)
{
    net_t *net = rers_read(data("combos.dot"));
    CHECK(net != NULL, "rers combos.dot is read");
    if (!net)
        return;
    CHECK(net->ntransitions == 5, "combos: 5 transitions");
    CHECK(transition_is(net, 0, "x#1", "sa0 sb0", "sa1 sb1"), "combos: x#1 = a0->a1, b0->b1");
    CHECK(transition_is(net, 1, "x#2", "sa0 sb1", "sa1 sb0"), "combos: x#2 = a0->a1, b1->b0");
    CHECK(transition_is(net, 2, "x#3", "sa0 sb0", "sa2 sb1"), "combos: x#3 = a0->a2, b0->b1");
    CHECK(transition_is(net, 3, "x#4", "sa0 sb1", "sa2 sb0"), "combos: x#4 = a0->a2, b1->b0");
    CHECK(transition_is(net, 4, "y", "sb1", "sb1"), "combos: y = the loop b1->b1, both ways");

    const rers_model *m = rers_model_of(net);
    CHECK(m != NULL, "combos: the model is kept with the net");
    if (m) {
        CHECK(m->nlabels == 2 && !strcmp(m->labels[0], "x") && !strcmp(m->labels[1], "y"),
              "combos: labels x, y in order of appearance");
        CHECK(m->label_first[0] == 0 && m->label_count[0] == 4 && m->label_first[1] == 4 &&
              m->label_count[1] == 1, "combos: x is transitions 0..3, y is 4");
        CHECK(m->ntransitions == 5 && m->trans_label[3] == 0 && m->trans_label[4] == 1,
              "combos: the label of each transition");
        CHECK(m->nlts == 2 && !strcmp(m->lts_names[0], "A") && !strcmp(m->lts_names[1], "B"),
              "combos: LTS names");
        CHECK(m->lts_first_place[1] == 3 && m->lts_nplaces[0] == 3 && m->lts_nplaces[1] == 2 &&
              m->lts_start[0] == 0 && m->lts_start[1] == 3, "combos: places and start per LTS");
        CHECK(rers_find_label(m, "y") == 1 && rers_find_label(m, "z") == -1 &&
              rers_find_label(m, "x#1") == -1, "combos: labels are found by name, only");
    }
    char buf[64];
    const char *kv[8];
    size_t n = net->lang_step_attrs ? net->lang_step_attrs(net, NULL, NULL, 2, buf, sizeof buf,
                                                           kv, 4) : 0;
    CHECK(n == 1 && !strcmp(kv[0], "label") && !strcmp(kv[1], "x"),
          "combos: a trace step of x#3 says label=\"x\"");
    CHECK(net->ltl_infinite_only, "combos: LTL ignores runs that end in a deadlock");
    nc_free_net(net);

    net_t *other = nc_create_net("other", "other");
    CHECK(other && rers_model_of(other) == NULL, "another net has no RERS model");
    nc_free_net(other);
}

static void test_order(void)
{
    net_t *net = rers_read(data("order.dot"));
    const rers_model *m = rers_model_of(net);
    CHECK(m && m->nlts == 3 && !strcmp(m->lts_names[0], "beta") &&
          !strcmp(m->lts_names[1], "alpha") && !strcmp(m->lts_names[2], "zeta"),
          "order: LTSs in file order (beta, alpha, zeta), not cgraph's");
    CHECK(net && !strcmp(place_list(net, 0), "s11 s12 s21 s22 s31 s32"),
          "order: places in file order");
    nc_free_net(net);
}

/* The one message rers_read prints for path, in buf (stderr is a file
 * meanwhile); whether it returned NULL. */
static int read_error(const char *path, char *buf, size_t len)
{
    FILE *tmp = tmpfile();
    int saved = dup(2);
    buf[0] = '\0';
    if (!tmp || saved < 0)
        return 0;
    fflush(stderr);
    dup2(fileno(tmp), 2);
    net_t *net = rers_read(path);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(tmp);
    size_t n = fread(buf, 1, len - 1, tmp);
    buf[n] = '\0';
    fclose(tmp);
    nc_free_net(net);
    return net == NULL;
}

static void test_cgraph_state(void)
{
    static const char *bad[] = {
        "bad_syntax.dot", "bad_second_graph.dot", "bad_string.dot", "bad_empty.dot",
        "bad_undirected.dot", "bad_no_label.dot", "bad_syntax.dot",
    };
    char want[4200], got[4200];
    snprintf(want, sizeof want, "%s:4: syntax error near '['\n", data("bad_syntax.dot"));
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int refused = read_error(data(bad[i]), got, sizeof got);
        CHECK(refused && strchr(got, '\n') == got + strlen(got) - 1,
              "%s: refused with one line", bad[i]);
        if (!strcmp(bad[i], "bad_syntax.dot"))
            CHECK(!strcmp(got, want), "%s (read #%zu): '%.*s'", bad[i], i + 1,
                  (int)strcspn(got, "\n"), got);
        net_t *net = rers_read(data("combos.dot"));
        CHECK(net && net->ntransitions == 5 && net->nplaces == 5,
              "after %s the next file reads as before", bad[i]);
        nc_free_net(net);
    }
}

int main(void)
{
    top = getenv("TOP") ? getenv("TOP") : ".";
    test_tick();
    test_combos();
    test_order();
    test_cgraph_state();
    UNIT_DONE();
}
