/* netconv: the builder API, lookups, summaries and the compiled form. */
#include <stdlib.h>
#include <string.h>

#include "base/netconv.h"
#include "unit.h"

static void building(void)
{
    net_t *n = nc_create_net("n", "f.net");
    CHECK(n && !strcmp(n->name, "n") && !strcmp(n->file, "f.net"), "create net");
    int p0 = nc_create_place(n, "p0", "first", 2);
    int p1 = nc_create_place(n, "p1", NULL, 0);
    CHECK(p0 == 0 && p1 == 1, "places get consecutive indices");
    CHECK(!strcmp(n->places[1].name, "p1"), "name defaults to id");
    CHECK(nc_create_place(n, "p0", NULL, 0) == NC_ERR_DUPLICATE_ID, "duplicate place id refused");
    CHECK(nc_create_place(n, "big", NULL, NC_COUNT_MAX) >= 0, "count 2^63-1 accepted");
    CHECK(nc_create_place(n, "huge", NULL, NC_COUNT_MAX + 1) == NC_ERR_OVERFLOW,
          "count above 2^63-1 refused");
    int t0 = nc_create_transition(n, "t0", "go");
    CHECK(t0 == 0, "first transition");
    CHECK(nc_create_transition(n, "t0", NULL) == NC_ERR_DUPLICATE_ID, "duplicate transition id refused");
    CHECK(nc_create_transition(n, "p0", NULL) >= 0, "places and transitions are separate id spaces");

    CHECK(nc_create_arc(n, NC_ARC_PT, 0, 0, 1, 0) == NC_OK, "arc p0 -> t0");
    CHECK(nc_create_arc(n, NC_ARC_PT, 0, 0, 1, 0) == NC_ERR_DUPLICATE_ARC, "duplicate arc refused");
    CHECK(nc_create_arc(n, NC_ARC_PT, 0, 0, 2, 1) == NC_OK && nc_arc_weight(n, NC_ARC_PT, 0, 0) == 3,
          "merge adds weights");
    CHECK(n->narcs == 1, "merged arc stays one arc");
    CHECK(nc_create_arc(n, NC_ARC_TP, 1, 0, 0, 0) == NC_ERR_BAD_WEIGHT, "weight 0 refused");
    CHECK(nc_create_arc(n, NC_ARC_TP, 9, 0, 1, 0) == NC_ERR_BAD_INDEX, "unknown place refused");
    CHECK(nc_create_arc(n, NC_ARC_PT, 0, 0, NC_COUNT_MAX, 1) == NC_ERR_OVERFLOW,
          "merged weight overflow refused");
    CHECK(nc_arc_weight(n, NC_ARC_TP, 1, 0) == 0, "absent arc has weight 0");

    CHECK(nc_find_place(n, "p1") == 1 && nc_find_place(n, "nope") == -1, "find place by id");
    CHECK(nc_find_transition(n, "t0") == 0, "find transition by id");
    CHECK(nc_find_place_by_name(n, "first") == 0, "find place by name");
    CHECK(nc_find_transition_by_name(n, "go") == 0, "find transition by name");
    nc_create_place(n, "p9", "first", 0);
    CHECK(nc_find_place_by_name(n, "first") == -2, "duplicate name is ambiguous");

    int u = nc_add_unit(n, "u0", -1);
    int v = nc_add_unit(n, "u1", u);
    CHECK(u == 0 && v == 1 && n->units[1].parent == 0, "nested units");
    CHECK(nc_unit_add_place(n, 1, 0) == NC_OK && nc_unit_add_place(n, 1, 99) == NC_ERR_BAD_INDEX,
          "unit places checked");
    CHECK(nc_add_unit(n, "bad", 7) == NC_ERR_BAD_INDEX, "unknown parent refused");
    nc_free_net(n);
}

static void summary(void)
{
    net_t *n = nc_create_net("s", NULL);
    nc_create_place(n, "a", NULL, 1);
    nc_create_place(n, "b", NULL, 0);
    nc_create_transition(n, "t", NULL);
    nc_create_arc(n, NC_ARC_PT, 0, 0, 1, 0);
    nc_create_arc(n, NC_ARC_TP, 1, 0, 1, 0);
    nc_create_arc(n, NC_ARC_READ, 1, 0, 1, 0);
    nc_summary s;
    nc_summarize(n, &s);
    CHECK(s.places == 2 && s.transitions == 1 && s.arcs == 3, "summary counts");
    CHECK(s.pt_arcs == 1 && s.tp_arcs == 1 && s.read_arcs == 1, "summary arc kinds");
    CHECK(s.tokens == 1 && s.syntactically_safe, "summary tokens and safety");
    nc_create_place(n, "c", NULL, NC_COUNT_MAX);
    nc_summarize(n, &s);
    CHECK(s.tokens == NC_COUNT_MAX && s.tokens_saturated && !s.syntactically_safe,
          "token total saturates instead of wrapping");
    nc_free_net(n);
}

/* p0 --2--> t0 --> p1, t0 reads p2 with weight 3 and consumes 1 from it;
 * t1 moves p1 back to p0. */
static void compiled(void)
{
    net_t *n = nc_create_net("c", NULL);
    nc_create_place(n, "p0", NULL, 2);
    nc_create_place(n, "p1", NULL, 0);
    nc_create_place(n, "p2", NULL, 3);
    nc_create_transition(n, "t0", NULL);
    nc_create_transition(n, "t1", NULL);
    nc_create_arc(n, NC_ARC_PT, 0, 0, 2, 0);
    nc_create_arc(n, NC_ARC_TP, 1, 0, 1, 0);
    nc_create_arc(n, NC_ARC_READ, 2, 0, 3, 0);
    nc_create_arc(n, NC_ARC_PT, 2, 0, 1, 0);
    nc_create_arc(n, NC_ARC_PT, 1, 1, 1, 0);
    nc_create_arc(n, NC_ARC_TP, 0, 1, 2, 0);
    const cnet_t *cn = nc_compile(n);
    CHECK(cn && cn == nc_compile(n), "compile once, cached");
    CHECK(cn->need_start[1] - cn->need_start[0] == 2, "t0 needs two places");
    int need_p2 = 0;
    for (uint32_t i = cn->need_start[0]; i < cn->need_start[1]; i++)
        if (cn->need_place[i] == 2)
            need_p2 = (int)cn->need_weight[i];
    CHECK(need_p2 == 3, "read arc and consumption merge to the larger need");
    nc_count m[3] = {2, 0, 3};
    CHECK(cn_enabled(cn, m, 0) && !cn_enabled(cn, m, 1), "enabledness");
    CHECK(cn_fire(cn, m, 0) == 0 && m[0] == 0 && m[1] == 1 && m[2] == 2, "firing");
    CHECK(!cn_enabled(cn, m, 0), "read arc weight 3 now blocks t0");
    CHECK(!cn->safe_hint, "weights above 1: not safe");

    /* dependency lists against their definition */
    int ok = cn->dep_start != NULL;
    for (uint32_t t = 0; ok && t < cn->ntransitions; t++)
        for (uint32_t u = 0; u < cn->ntransitions; u++) {
            int should = 0;
            for (uint32_t i = cn->eff_start[t]; i < cn->eff_start[t + 1]; i++)
                for (uint32_t j = cn->need_start[u]; j < cn->need_start[u + 1]; j++)
                    should |= cn->eff_place[i] == cn->need_place[j];
            int has = 0;
            for (uint32_t k = cn->dep_start[t]; k < cn->dep_start[t + 1]; k++)
                has |= cn->dep_list[k] == u;
            ok = ok && has == should;
        }
    CHECK(ok, "dependency lists match their definition");

    nc_count big[3] = {2, NC_COUNT_MAX, 3};
    CHECK(cn_fire(cn, big, 0) == -1 && big[1] == NC_COUNT_MAX && big[0] == 2,
          "overflowing firing refused, marking unchanged");
    nc_free_net(n);
}

static void marking_text(void)
{
    net_t *n = nc_create_net("m", NULL);
    nc_create_place(n, "a", NULL, 0);
    nc_create_place(n, "b", NULL, 0);
    char buf[128] = "";
    FILE *f = fmemopen(buf, sizeof buf, "w");
    nc_count m0[2] = {0, 0}, m1[2] = {1, 3};
    nc_print_marking(f, n, m0);
    fputs("|", f);
    nc_print_marking(f, n, m1);
    fclose(f);
    CHECK(!strcmp(buf, "(empty)|a, b(3)"), "marking text: %s", buf);
    nc_free_net(n);
}

int main(void)
{
    building();
    summary();
    compiled();
    marking_text();
    UNIT_DONE();
}
