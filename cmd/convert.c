/* `mck convert [-t LANG] [--to FORMAT] MODEL -o FILE`: the net mck built
 * from a model in any language, written for other tools as APNN, PNML or a
 * PEP low-level net (writers/), or the complete finite prefix of its
 * unfolding as PEP's .mci file (engine/unfold/, safe nets only).  The format comes from --to or from FILE's
 * suffix.  A file is written whole or not at all: half a net would be read
 * later by some other tool as a different, smaller net. */
#include "cmd/commands.h"
#include "cmd/language.h"
#include "input/input.h"
#include "engine/unfold/prefix.h"
#include "writers/writers.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

typedef int (*writer_fn)(FILE *, const net_t *, const char *);

static const struct format {
    const char *name, *suffixes;
    writer_fn write;
} formats[] = {
    {"apnn", ".apnn", write_apnn},
    {"pnml", ".pnml", write_pnml},
    {"pep", ".ll_net .ll", write_pep},
    {"prefix", ".mci", NULL},   /* write_prefix: it needs the budget */
};
#define N_FORMATS (sizeof formats / sizeof formats[0])

static void usage(FILE *out)
{
    fprintf(out,
            "usage: mck convert [-t LANG] [--to FORMAT] [-v] MODEL -o FILE\n"
            "  Writes the net mck reads from MODEL (any language, see 'mck list') as\n"
            "  FORMAT: apnn (.apnn), pnml (.pnml) or pep (.ll_net, .ll); without --to\n"
            "  the suffix of FILE decides.  -o - writes to standard output (with --to).\n"
            "  Places and transitions keep mck's order, ids and names (nodes are\n"
            "  renamed p1.., t1.. when the format cannot carry every id; -v says so).\n"
            "  APNN and PNML have no read arcs: a read arc becomes a self-loop, with\n"
            "  the same reachable markings and runs.\n"
            "  prefix (.mci): the complete finite prefix of the net's unfolding (the\n"
            "  unfold checker's), in the binary format of PEP and Mole; safe nets only.\n");
}

/* The prefix of a net proven safe, built within budget (no time limit
 * unless the caller set one). */
static int write_prefix(FILE *out, net_t *net, const char *where, const budget_t *budget)
{
    const cnet_t *cn = nc_compile(net);
    if (!cn)
        return -1;
    char why[160] = "";
    if (!unf_proven_safe(cn, budget, why, sizeof why)) {
        nc_error(net->file, 0, "no prefix: %s", why);
        return -1;
    }
    check_options opt;
    memset(&opt, 0, sizeof opt);
    opt.budget = budget;
    unf_prefix *u = unf_build(cn, &opt, why, sizeof why);
    if (!u) {
        nc_error(net->file, 0, "no prefix: %s", why);
        return -1;
    }
    nc_info("prefix: %zu events (%zu cut-offs), %zu conditions", u->nev, u->ncutoffs, u->nco);
    int rc = unf_write_mci(out, u);
    if (rc < 0)
        nc_error(where, 0, "write error");
    unf_free(u);
    return rc;
}

static const struct format *format_by_name(const char *name)
{
    for (size_t i = 0; i < N_FORMATS; i++)
        if (!strcmp(formats[i].name, name))
            return &formats[i];
    return NULL;
}

static const struct format *format_by_suffix(const char *path)
{
    size_t plen = strlen(path);
    for (size_t i = 0; i < N_FORMATS; i++) {
        const char *s = formats[i].suffixes;
        while (*s) {
            size_t n = strcspn(s, " ");
            if (n < plen && !strncmp(path + plen - n, s, n))
                return &formats[i];
            s += n;
            s += strspn(s, " ");
        }
    }
    return NULL;
}

int convert_main(int argc, char **argv, budget_t *budget)
{
    static const struct option longopts[] = {
        {"language", required_argument, NULL, 't'},
        {"output", required_argument, NULL, 'o'},
        {"to", required_argument, NULL, 'f'},
        {"verbose", no_argument, NULL, 'v'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *lang = NULL, *output = NULL, *to = NULL;
    int c, verbose = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "t:o:f:vh", longopts, NULL)) != -1) {
        switch (c) {
        case 't': lang = optarg; break;
        case 'o': output = optarg; break;
        case 'f': to = optarg; break;
        case 'v': verbose++; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (argc - optind != 1 || !output) {
        usage(stderr);
        return 2;
    }
    int to_stdout = !strcmp(output, "-");
    const struct format *fmt = to ? format_by_name(to) : to_stdout ? NULL
                                                                    : format_by_suffix(output);
    if (!fmt) {
        if (to)
            fprintf(stderr, "mck convert: unknown format '%s' (apnn, pnml, pep, prefix)\n", to);
        else {
            /* the list comes from the table, so a new format cannot be left out */
            fprintf(stderr, "mck convert: cannot tell the format of '%s' from its suffix (",
                    output);
            for (size_t i = 0; i < N_FORMATS; i++) {
                const char *sfx = formats[i].suffixes;
                while (*sfx) {
                    size_t n = strcspn(sfx, " ");
                    fprintf(stderr, "%s%.*s", i || sfx != formats[i].suffixes ? ", " : "",
                            (int)n, sfx);
                    sfx += n;
                    sfx += strspn(sfx, " ");
                }
            }
            fprintf(stderr, "); use --to FORMAT\n");
        }
        return 2;
    }
    nc_set_verbosity(verbose);
    const char *model = argv[optind];
    net_t *net = load_model(lang, model, NULL);
    if (!net)
        return 2;
    const char *where = to_stdout ? "standard output" : output;
    FILE *out = to_stdout ? stdout : fopen(output, fmt->write ? "w" : "wb");
    if (!out) {
        nc_error(output, 0, "cannot write: %s", strerror(errno));
        nc_free_net(net);
        return 2;
    }
    int rc = fmt->write ? fmt->write(out, net, where) : write_prefix(out, net, where, budget);
    if (fflush(out) != 0 || ferror(out)) {
        if (rc == 0)
            nc_error(where, 0, "write error");
        rc = -1;
    }
    if (!to_stdout && fclose(out) != 0 && rc == 0) {
        nc_error(output, 0, "write error");
        rc = -1;
    }
    if (rc < 0 && !to_stdout)
        remove(output);
    nc_free_net(net);
    return rc < 0 ? 2 : 0;
}
