/* `mck info`: the size of a model's net, with -v its nodes, with --prefix
 * the size of its unfolding's complete prefix (engine/unfold/). */
#include "cmd/commands.h"
#include "cmd/language.h"
#include "cmd/options.h"
#include "base/json.h"
#include "engine/unfold/prefix.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

static void list_nodes(const net_t *net)
{
    for (size_t i = 0; i < net->nplaces; i++) {
        const nc_place *p = &net->places[i];
        printf("place %s", p->id ? p->id : "-");
        if (p->name && (!p->id || strcmp(p->name, p->id)))
            printf(" \"%s\"", p->name);
        if (p->initial)
            printf(" tokens %llu", (unsigned long long)p->initial);
        if (p->comment)
            printf("  %% %s", p->comment);
        printf("\n");
    }
    for (size_t i = 0; i < net->ntransitions; i++) {
        const nc_transition *t = &net->transitions[i];
        printf("transition %s", t->id ? t->id : "-");
        if (t->name && (!t->id || strcmp(t->name, t->id)))
            printf(" \"%s\"", t->name);
        if (t->comment)
            printf("  %% %s", t->comment);
        printf("\n");
    }
}

static void json_nodes(json_writer *j, const net_t *net)
{
    json_key(j, "nodes");
    json_object_begin(j);
    json_key(j, "places");
    json_array_begin(j);
    for (size_t i = 0; i < net->nplaces; i++) {
        const nc_place *p = &net->places[i];
        json_object_begin(j);
        json_member_string(j, "id", p->id);
        json_member_string(j, "name", p->name);
        json_member_uint(j, "tokens", p->initial);
        json_member_string(j, "comment", p->comment);
        json_object_end(j);
    }
    json_array_end(j);
    json_key(j, "transitions");
    json_array_begin(j);
    for (size_t i = 0; i < net->ntransitions; i++) {
        const nc_transition *t = &net->transitions[i];
        json_object_begin(j);
        json_member_string(j, "id", t->id);
        json_member_string(j, "name", t->name);
        json_member_string(j, "comment", t->comment);
        json_object_end(j);
    }
    json_array_end(j);
    json_object_end(j);
}

/* The prefix of a safe net (NULL and why otherwise), within budget: no
 * time limit, but SIGINT stops it. */
static unf_prefix *prefix(net_t *net, const budget_t *budget, char *why, size_t whylen)
{
    const cnet_t *cn = nc_compile(net);
    if (!cn) {
        snprintf(why, whylen, "memory budget exhausted");
        return NULL;
    }
    if (!unf_proven_safe(cn, budget, why, whylen))
        return NULL;
    check_options opt;
    memset(&opt, 0, sizeof opt);
    opt.budget = budget;
    return unf_build(cn, &opt, why, whylen);
}

/* The same facts as the text, as one object (the man page's JSON section). */
static void json_info(const char *path, const input_type *it, const net_t *net,
                      const nc_summary *s, int verbose, int want_prefix, const unf_prefix *u,
                      const char *why)
{
    json_writer jw, *j = &jw;
    json_init(j, stdout);
    json_object_begin(j);
    json_member_string(j, "type", "model");
    json_member_string(j, "command", "info");
    json_member_string(j, "model", path);
    json_member_string(j, "language", it->name);
    json_member_string(j, "net", net->name);
    json_key(j, "colored");
    if (net->colored.unfolded) {
        json_object_begin(j);
        json_member_uint(j, "places", net->colored.places);
        json_member_uint(j, "transitions", net->colored.transitions);
        json_member_uint(j, "arcs", net->colored.arcs);
        json_object_end(j);
    } else {
        json_null(j);
    }
    json_member_uint(j, "places", s->places);
    json_member_uint(j, "transitions", s->transitions);
    json_key(j, "arcs");
    json_object_begin(j);
    json_member_uint(j, "total", s->arcs);
    json_member_uint(j, "place_transition", s->pt_arcs);
    json_member_uint(j, "transition_place", s->tp_arcs);
    json_member_uint(j, "read", s->read_arcs);
    json_object_end(j);
    json_member_uint(j, "initial_tokens", s->tokens);
    json_member_bool(j, "initial_tokens_saturated", s->tokens_saturated);
    json_member_bool(j, "syntactically_safe", s->syntactically_safe);
    json_key(j, "partition");
    if (net->nunits) {
        json_object_begin(j);
        json_member_uint(j, "units", net->nunits);
        json_member_bool(j, "claims_safe", net->units_claim_safe);
        json_object_end(j);
    } else {
        json_null(j);
    }
    if (want_prefix) {
        json_key(j, "prefix");
        json_object_begin(j);
        if (u) {
            json_member_uint(j, "events", u->nev);
            json_member_uint(j, "cutoffs", u->ncutoffs);
            json_member_uint(j, "conditions", u->nco);
        } else {
            json_member_string(j, "none", why);
        }
        json_object_end(j);
    }
    if (verbose)
        json_nodes(j, net);
    json_object_end(j);
}

int info_main(int argc, char **argv, budget_t *budget)
{
    static const struct option longopts[] = {
        {"language", required_argument, NULL, 't'},
        {"verbose", no_argument, NULL, 'v'},
        {"json", no_argument, NULL, 'j'},
        {"prefix", no_argument, NULL, 'p'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *lang = NULL;
    int verbose = 0, json = 0, want_prefix = 0, c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "t:vh", longopts, NULL)) != -1) {
        switch (c) {
        case 't': lang = optarg; break;
        case 'v': verbose++; break;
        case 'j': json = 1; break;
        case 'p': want_prefix = 1; break;
        case 'h': commands_help(stdout); return 0;
        default: return usage_error("%s", "bad option for info");
        }
    }
    if (optind + 1 != argc)
        return usage_error("%s", "info takes exactly one MODEL");
    nc_set_verbosity(verbose);
    const char *path = argv[optind];
    const input_type *it;
    net_t *net = load_model(lang, path, &it);
    if (!net)
        return EXIT_ERROR;
    nc_summary s;
    nc_summarize(net, &s);
    char why[160] = "";
    unf_prefix *u = want_prefix ? prefix(net, budget, why, sizeof why) : NULL;
    if (json) {
        json_info(path, it, net, &s, verbose, want_prefix, u, why);
        unf_free(u);
        nc_free_net(net);
        return 0;
    }
    printf("language: %s\n", it->name);
    printf("net: %s\n", net->name);
    if (net->colored.unfolded)
        printf("colored: %zu places, %zu transitions, %zu arcs (unfolded below)\n",
               net->colored.places, net->colored.transitions, net->colored.arcs);
    printf("places: %zu\n", s.places);
    printf("transitions: %zu\n", s.transitions);
    printf("arcs: %zu (place->transition %zu, transition->place %zu, read %zu)\n", s.arcs,
           s.pt_arcs, s.tp_arcs, s.read_arcs);
    printf("initial tokens: %s%llu\n", s.tokens_saturated ? ">= " : "",
           (unsigned long long)s.tokens);
    printf("syntactically safe: %s\n", s.syntactically_safe ? "yes" : "no");
    if (net->nunits)
        printf("partition: %zu units%s\n", net->nunits,
               net->units_claim_safe ? " (the file claims the net is safe)" : "");
    else
        printf("partition: none\n");
    if (u)
        printf("prefix: %zu events (%zu cut-offs), %zu conditions\n", u->nev, u->ncutoffs,
               u->nco);
    else if (want_prefix)
        printf("prefix: none (%s)\n", why);
    if (verbose)
        list_nodes(net);
    unf_free(u);
    nc_free_net(net);
    return 0;
}
