/* `mck draw`: the net as a picture, laid out by Graphviz (libgvc), with
 * places grouped by the model's partition (NUPN units, CFA automata, RERS
 * LTSs) and, with --run, a witness or counterexample written by
 * `mck check --xml` drawn over it: every fired transition carries the
 * numbers of its steps, and the steps of a lasso's loop are red.
 *
 * The picture is about the net only: it never changes how a model is read
 * or checked.  A .dot file is written before layout (the graph as built,
 * for other tools and for tests); every other format goes through the
 * layout engine "dot". */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gvc.h>

#include "cmd/commands.h"
#include "cmd/language.h"
#include "cmd/options.h"
#include "cmd/runfile.h"

/* dot's layout time grows quickly with the number of nodes, and a picture
 * of thousands of nodes shows nothing a person can read. */
#define DRAW_MAX_NODES 1000u

#define COLOR_RUN "#1f5fbf"
#define COLOR_LOOP "#d01c1c"

typedef struct drawing {
    net_t *net;
    Agraph_t *g;
    Agnode_t **place, **trans;
    /* the run: steps per transition, and whether one is in the loop */
    char **steps;
    unsigned char *in_loop;
    /* per unit: its cluster is drawn (it or a unit inside it has places) */
    unsigned char *cluster;
} drawing;

static void usage(FILE *out)
{
    fputs("usage: mck draw [-t LANG] [-o FILE] [--run VERDICT.xml] [--max-nodes N] MODEL\n"
          "  Draws the net with Graphviz: places as circles with their initial tokens,\n"
          "  transitions as boxes, arc weights above 1 on the arcs, read arcs dashed,\n"
          "  places grouped in boxes by the model's partition (NUPN units, CFA automata,\n"
          "  RERS LTSs).\n"
          "  -o FILE   the format follows the suffix: .svg, .png, .pdf, or .dot (the graph\n"
          "            before layout); without -o, SVG on standard output.\n"
          "  --run VERDICT.xml  a witness or counterexample written by 'mck check --xml':\n"
          "            fired transitions show their step numbers, a lasso's loop is red.\n"
          "  --max-nodes N  refuse nets with more than N places, transitions and units\n"
          "            (default 1000: larger pictures take long and show little).\n",
          out);
}

/* ---- building the graph ---- */

static void set(void *obj, const char *attr, const char *value)
{
    agsafeset(obj, (char *)attr, (char *)value, "");
}

static const char *place_name(const nc_place *p)
{
    return p->name ? p->name : p->id ? p->id : "";
}

static const char *transition_name(const nc_transition *t)
{
    return t->name ? t->name : t->id ? t->id : "";
}

/* Units nest (NUPN), each unit's cluster inside its parent's.  A parent
 * is always an earlier unit (nc_add_unit): one pass from the last unit
 * up marks the units whose clusters hold places (d->cluster), one pass
 * down makes them, parents first.  A file decides how deep units nest,
 * so nothing here recurses.  The number of clusters; -1: no memory. */
static int64_t mark_clusters(drawing *d)
{
    size_t n = d->net->nunits;
    const nc_unit *units = d->net->units;
    if (!(d->cluster = calloc(n ? n : 1, 1)))
        return -1;
    int64_t count = 0;
    for (size_t u = n; u-- > 0;) {
        if (units[u].nplaces)
            d->cluster[u] = 1;
        count += d->cluster[u];
        if (d->cluster[u] && units[u].parent >= 0 && (size_t)units[u].parent < u)
            d->cluster[units[u].parent] = 1;
    }
    return count;
}

static int add_clusters(drawing *d)
{
    size_t n = d->net->nunits;
    const nc_unit *units = d->net->units;
    Agraph_t **made = calloc(n ? n : 1, sizeof *made);
    if (!made)
        return -1;
    for (size_t u = 0; u < n; u++) {
        if (!d->cluster[u])
            continue;
        int32_t up = units[u].parent;
        Agraph_t *parent = up >= 0 && (size_t)up < u && made[up] ? made[up] : d->g;
        char name[48];
        snprintf(name, sizeof name, "cluster_u%zu", u);
        Agraph_t *sg = made[u] = agsubg(parent, name, 1);
        set(sg, "label", units[u].name ? units[u].name : "");
        set(sg, "style", "rounded");
        set(sg, "color", "#888888");
        for (uint32_t k = 0; k < units[u].nplaces; k++)
            if (units[u].places[k] < d->net->nplaces)
                agsubnode(sg, d->place[units[u].places[k]], 1);
    }
    free(made);
    return 0;
}

static void add_places(drawing *d)
{
    for (size_t i = 0; i < d->net->nplaces; i++) {
        const nc_place *p = &d->net->places[i];
        char id[32], tokens[32];
        snprintf(id, sizeof id, "p%zu", i);
        Agnode_t *n = d->place[i] = agnode(d->g, id, 1);
        set(n, "shape", "circle");
        set(n, "xlabel", place_name(p));
        if (p->initial)
            snprintf(tokens, sizeof tokens, "%llu", (unsigned long long)p->initial);
        else
            tokens[0] = '\0';
        set(n, "label", tokens);
    }
}

static void add_transitions(drawing *d)
{
    for (size_t i = 0; i < d->net->ntransitions; i++) {
        char id[32];
        snprintf(id, sizeof id, "t%zu", i);
        Agnode_t *n = d->trans[i] = agnode(d->g, id, 1);
        set(n, "shape", "box");
        const char *name = transition_name(&d->net->transitions[i]);
        if (d->steps && d->steps[i]) {
            size_t len = strlen(name) + strlen(d->steps[i]) + 3;
            char *label = malloc(len);
            if (label) {
                snprintf(label, len, "%s\\n%s", name, d->steps[i]);
                set(n, "label", label);
                free(label);
            }
            const char *color = d->in_loop[i] ? COLOR_LOOP : COLOR_RUN;
            set(n, "color", color);
            set(n, "fontcolor", color);
            set(n, "penwidth", "2");
        } else {
            set(n, "label", name);
        }
    }
}

static void add_arcs(drawing *d)
{
    for (size_t i = 0; i < d->net->narcs; i++) {
        const nc_arc *a = &d->net->arcs[i];
        Agnode_t *p = d->place[a->place], *t = d->trans[a->transition];
        Agedge_t *e = a->kind == NC_ARC_TP ? agedge(d->g, t, p, NULL, 1)
                                           : agedge(d->g, p, t, NULL, 1);
        if (a->weight != 1) {
            char w[32];
            snprintf(w, sizeof w, "%llu", (unsigned long long)a->weight);
            set(e, "label", w);
        }
        if (a->kind == NC_ARC_READ) {
            set(e, "style", "dashed");
            set(e, "dir", "none");
        }
        if (d->steps && d->steps[a->transition]) {
            set(e, "color", d->in_loop[a->transition] ? COLOR_LOOP : COLOR_RUN);
            set(e, "penwidth", "2");
        }
    }
}

/* Step numbers per transition ("1, 4, 7"), counted from 1 as the run's
 * printout does; steps from the loop's start on are the loop. */
static int number_steps(drawing *d, const result_t *run)
{
    size_t T = d->net->ntransitions ? d->net->ntransitions : 1;
    d->steps = calloc(T, sizeof *d->steps);
    d->in_loop = calloc(T, 1);
    if (!d->steps || !d->in_loop)
        return -1;
    for (size_t i = 0; i < run->run_len; i++) {
        uint32_t t = run->run[i];
        const char *old = d->steps[t] ? d->steps[t] : "";
        size_t len = strlen(old) + 24;
        char *s = malloc(len);
        if (!s)
            return -1;
        snprintf(s, len, "%s%s%zu", old, *old ? ", " : "", i + 1);
        free(d->steps[t]);
        d->steps[t] = s;
        if (run->loop_start != RESULT_NO_LOOP && i >= run->loop_start)
            d->in_loop[t] = 1;
    }
    return 0;
}

static void graph_label(drawing *d, const result_t *run)
{
    char label[256];
    const char *what = run->role == RUN_COUNTEREXAMPLE ? "counterexample" : "witness";
    if (run->loop_start == RESULT_NO_LOOP)
        snprintf(label, sizeof label, "%s: %s, %zu steps", d->net->name, what, run->run_len);
    else if (run->loop_start >= run->run_len)
        snprintf(label, sizeof label, "%s: %s, %zu steps, then the dead marking forever",
                 d->net->name, what, run->run_len);
    else
        snprintf(label, sizeof label, "%s: %s, %zu steps; steps %zu to %zu (red) repeat forever",
                 d->net->name, what, run->run_len, run->loop_start + 1, run->run_len);
    set(d->g, "label", label);
}

static int build(drawing *d, const result_t *run)
{
    d->g = agopen(d->net->name ? d->net->name : (char *)"net", Agdirected, NULL);
    d->place = calloc(d->net->nplaces ? d->net->nplaces : 1, sizeof *d->place);
    d->trans = calloc(d->net->ntransitions ? d->net->ntransitions : 1, sizeof *d->trans);
    if (!d->g || !d->place || !d->trans || (run && number_steps(d, run) < 0))
        return -1;
    set(d->g, "fontname", "Helvetica");
    set(d->g, "forcelabels", "true");
    set(d->g, "newrank", "true");
    set(d->g, "nodesep", "0.4");
    agattr(d->g, AGNODE, "fontname", "Helvetica");
    /* Graphviz's own default, declared so that an empty place's label ""
     * differs from it and is written out: read back, it stays empty. */
    agattr(d->g, AGNODE, "label", "\\N");
    agattr(d->g, AGEDGE, "fontname", "Helvetica");
    if (run)
        graph_label(d, run);
    else
        set(d->g, "label", d->net->name ? d->net->name : "");
    add_places(d);
    add_transitions(d);
    add_arcs(d);
    return add_clusters(d);
}

static void drawing_free(drawing *d)
{
    if (d->g)
        agclose(d->g);
    if (d->steps)
        for (size_t i = 0; i < d->net->ntransitions; i++)
            free(d->steps[i]);
    free(d->steps);
    free(d->in_loop);
    free(d->place);
    free(d->trans);
    free(d->cluster);
}

/* ---- output ---- */

/* The Graphviz output format a file name asks for; NULL when unknown. */
static const char *format_of(const char *path)
{
    static const char *known[] = {"svg", "png", "pdf", "dot", "jpg", "gif", "ps"};
    const char *dot = strrchr(path, '.');
    if (!dot || strchr(dot, '/'))
        return NULL;
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (!strcmp(dot + 1, known[i]))
            return known[i];
    return NULL;
}

static int render(drawing *d, const char *format, const char *output)
{
    const char *where = output ? output : "standard output";
    FILE *out = output ? fopen(output, "wb") : stdout;
    if (!out) {
        nc_error(output, 0, "cannot write: %s", strerror(errno));
        return -1;
    }
    int rc = 0;
    if (!strcmp(format, "dot")) {
        rc = agwrite(d->g, out) == 0 ? 0 : -1;
    } else {
        GVC_t *gvc = gvContext();
        if (!gvc || gvLayout(gvc, d->g, "dot") != 0) {
            nc_error(where, 0, "Graphviz could not lay out the net");
            rc = -2;
        } else {
            if (gvRender(gvc, d->g, format, out) != 0) {
                nc_error(where, 0, "Graphviz cannot write %s here (is its plugin installed?)",
                         format);
                rc = -2;
            }
            gvFreeLayout(gvc, d->g);
        }
        if (gvc)
            gvFreeContext(gvc);
    }
    if (fflush(out) != 0 || ferror(out))
        rc = rc ? rc : -1;
    if (output && fclose(out) != 0)
        rc = rc ? rc : -1;
    if (rc == -1)
        nc_error(where, 0, "write error");
    /* half a picture would only confuse a viewer */
    if (rc < 0 && output)
        remove(output);
    return rc < 0 ? -1 : 0;
}

int draw_main(int argc, char **argv, budget_t *budget)
{
    (void)budget;
    enum { OPT_RUN = 256, OPT_MAX };
    static const struct option longopts[] = {
        {"language", required_argument, NULL, 't'},
        {"output", required_argument, NULL, 'o'},
        {"run", required_argument, NULL, OPT_RUN},
        {"max-nodes", required_argument, NULL, OPT_MAX},
        {"verbose", no_argument, NULL, 'v'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *lang = NULL, *output = NULL, *runfile = NULL;
    uint64_t max_nodes = DRAW_MAX_NODES;
    int c, verbose = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "t:o:vh", longopts, NULL)) != -1) {
        switch (c) {
        case 't': lang = optarg; break;
        case 'o': output = optarg; break;
        case OPT_RUN: runfile = optarg; break;
        case OPT_MAX:
            if (parse_count(optarg, &max_nodes) < 0) {
                fprintf(stderr, "mck draw: bad node limit '%s'\n", optarg);
                return 2;
            }
            break;
        case 'v': verbose++; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (argc - optind != 1) {
        usage(stderr);
        return 2;
    }
    const char *format = output ? format_of(output) : "svg";
    if (!format) {
        fprintf(stderr, "mck draw: cannot tell the format of '%s' from its suffix "
                        "(.svg, .png, .pdf, .dot, ...)\n", output);
        return 2;
    }
    nc_set_verbosity(verbose);
    const char *model = argv[optind];
    const input_type *it;
    net_t *net = load_model(lang, model, &it);
    if (!net)
        return 2;
    int rc = 2;
    result_t run;
    result_init(&run);
    drawing d;
    memset(&d, 0, sizeof d);
    d.net = net;
    uint64_t nodes = (uint64_t)net->nplaces + net->ntransitions;
    int64_t clusters = mark_clusters(&d);
    if (clusters < 0) {
        nc_error(model, 0, "out of memory");
        goto out;
    }
    /* a cluster costs Graphviz as much as a node, and nested ones more */
    if (nodes + (uint64_t)clusters > max_nodes) {
        nc_error(model, 0, "%llu places%s transitions%s are too many to draw sensibly "
                 "(the limit is %llu; --max-nodes N raises it)",
                 (unsigned long long)(nodes + (uint64_t)clusters), clusters ? "," : " and",
                 clusters ? " and units" : "", (unsigned long long)max_nodes);
        goto out;
    }
    if (runfile && read_run_file(runfile, net, &run, NULL) < 0)
        goto out;
    if (build(&d, runfile ? &run : NULL) < 0) {
        nc_error(model, 0, "out of memory");
        goto out;
    }
    if (render(&d, format, output) == 0)
        rc = 0;
out:
    drawing_free(&d);
    result_clear(&run);
    nc_free_net(net);
    return rc;
}
