/* The sub-commands' table and the help that lists them (commands.h). */
#include "cmd/commands.h"
#include "mcc/mcc.h"

#include <string.h>

/* limits: the command answers UNKNOWN when its budget runs out or a
 * signal stops it; the others have nothing to say when stopped. */
static const struct {
    const char *name;
    command_fn run;
    int limits;
} commands[] = {
    {"check", check_main, 1},
    {"info", info_main, 0},
    {"list", list_main, 0},
    {"mcc", mcc_main, 1},
    {"properties", properties_main, 1},
    {"verdicts", verdicts_main, 0},
    {"export", export_main, 0},
    {"convert", convert_main, 0},
    {"draw", draw_main, 0},
    {"simulate", simulate_main, 1},
};

command_fn command_by_name(const char *name)
{
    if (strchr(name, ':'))
        return check_main;
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(commands[i].name, name))
            return commands[i].run;
    return NULL;
}

int command_answers_signals(const char *name)
{
    command_fn run = command_by_name(name);
    for (size_t i = 0; run && i < sizeof commands / sizeof commands[0]; i++)
        if (commands[i].run == run)
            return commands[i].limits;
    return 0;
}

int command_loads_plugins(const char *name)
{
    return strcmp(name, "mcc") != 0;
}

void commands_help(FILE *out)
{
    fputs(
        "usage: mck check [OPTIONS] [[LANG:]CHECKER[-KIND]] MODEL [PROPERTY]\n"
        "       mck LANG:CHECKER[-KIND] [OPTIONS] MODEL [PROPERTY]   (the Kit's spelling)\n"
        "       mck info [-t LANG] [-v] [--json] [--prefix] MODEL\n"
        "       mck mcc [-v] [-j N] [--por|--reduce|--lp|--walk|--unfold=on|off]\n"
        "               [--xml FILE] [--json] [EXAMINATION [DIR]]\n"
        "                                                    (Model Checking Contest mode)\n"
        "       mck properties [-t LANG] [-o FILE] [--timeout S] [--mem MB] [-v] MODEL\n"
        "       mck verdicts compare A.xml B.xml\n"
        "       mck export --promela [-t LANG] [-o FILE.pml] [-v] MODEL [PROPERTIES]   (for SPIN)\n"
        "       mck convert [-t LANG] [--to apnn|pnml|pep|prefix] MODEL -o FILE.apnn|.pnml|.ll_net|.mci\n"
        "       mck draw [-t LANG] [-o FILE.svg|.png|.dot] [--run VERDICT.xml] [--max-nodes N] MODEL\n"
        "       mck simulate [-t LANG] [--steps N [--seed S] | --run VERDICT.xml] MODEL\n"
        "       mck list\n"
        "       mck --plugin PATH.so COMMAND ...   (load a language plugin first; repeatable)\n"
        "       mck --help | --version\n"
        "\n"
        "Checks a property of a model: deadlock (dl), reachability (reach), CTL or LTL.\n"
        "The language comes from LANG:, -t or the model's suffix; the kind from -KIND, -k,\n"
        "or the property (none: dl; a state formula: reach; a path quantifier: ctl).\n"
        "A PROPERTY file of several named formulas ('[KIND] NAME: formula;' each), an\n"
        "MCC property XML file or a RERS list gives a result per property and a summary.\n"
        "\n"
        "options of check:\n"
        "  -t, --language LANG  input language (see 'mck list')\n"
        "  -k, --kind KIND      dl, reach, ctl or ltl\n"
        "  -c, --checker NAME   checker (default: explicit)\n"
        "  -q, --quiet          print no witness or counterexample, no progress, no statistics\n"
        "  -v, --verbose        warnings and statistics on standard error, progress even when\n"
        "                       standard error is no terminal; with info, list nodes\n"
        "  -m, --max-states N   give up (UNKNOWN) after N states (unfold: events; YES\n"
        "                       when the events built already hold the deadlock or goal)\n"
        "  -j, --threads N      threads for dl and reach searches of the explicit,\n"
        "                       stubborn and reduce checkers and for the ctl graph\n"
        "                       (default: the cores mck may run on);\n"
        "                       with N > 1 a witness is a run of the model but not always\n"
        "                       a shortest one: -j 1 for shortest runs\n"
        "      --parallel-after N  states explored on one thread before a search restarts\n"
        "                       on all (default 65536; 0: on all from the start)\n"
        "      --mpi            one rank of a distributed dl or reach search (checker dist),\n"
        "                       under mpirun -np N; rank 0 prints (man page: DISTRIBUTED\n"
        "                       SEARCH); a build without Open MPI says so, exit 2\n"
        "      --timeout S      give up (UNKNOWN) after S seconds, reading the model included\n"
        "      --mem MB         memory budget of the model and the search's stores, graphs and\n"
        "                       stacks (UNKNOWN when exhausted, also while reading)\n"
        "      --xml FILE       also write the verdict and its run as propertiesverdict XML\n"
        "      --json           JSON objects instead of text (also info, mcc; man page: JSON)\n"
        "      --expect         the property file's expected answers must be there (RERS);\n"
        "                       they are compared whenever present: exit 1 on a disagreement\n"
        "      --finite-runs repeat|ignore  LTL on runs ending in a deadlock: the dead state\n"
        "                       repeats (default) or the run is ignored (default for rers)\n"
        "      --fair weak|strong|none  LTL over fair runs only: a transition enabled in\n"
        "                       every (weak) or some (strong) state of a run's loop fires on\n"
        "                       it; overrides the property file's #fair line.  explicit and\n"
        "                       stubborn checkers; stubborn drops its reduction under fairness\n"
        "      --fair-set NAMES  the transitions fairness is about (default: all): names or\n"
        "                       ids, shell wildcards, separated by commas or blanks\n"
        "      --pack on|off    markings as fields of the bits their proven bounds need\n"
        "                       (default on, when every place gets a bound); off: variable-\n"
        "                       length keys, for comparisons\n"
        "      --compact on|off  fixed-width keys kept in a compact table, less the bits\n"
        "                       a slot's position tells (default on, for searches that\n"
        "                       need no graph); off: in the arena, for comparisons\n"
        "\n"
        "output: 'Result: YES.', 'Result: NO.' or 'Result: UNKNOWN (reason).', then the run\n"
        "under 'Witness:' (of a YES) or 'Counterexample:' (to a NO), then 'Time needed: T\n"
        "seconds'.  A nested CTL property's run comes in parts, each after a line\n"
        "'*** from here: F holds ***' (or 'fails') naming the subformula it shows.\n"
        "exit status: 0 YES, 1 NO, 3 UNKNOWN, 2 error (message FILE:LINE: text on stderr);\n"
        "for several properties the worst: error > UNKNOWN > NO > YES (RERS: see man page).\n"
        "A search running over 2 s shows progress on stderr if it is a terminal (or with -v).\n"
        "SIGINT or SIGTERM stops it, the reading of the model too: UNKNOWN (interrupted),\n"
        "the statistics so far, exit 3.\n"
        "\n"
        "mck mcc reads DIR/model.pnml and DIR/EXAMINATION.xml (DIR: the current folder,\n"
        "EXAMINATION: $BK_EXAMINATION) and prints the contest's answer lines; the run ends\n"
        "before $BK_TIME_CONFINEMENT seconds.  'mck mcc --help' tells more.\n"
        "\n"
        "mck export --promela writes the model, and the properties of a RERS property\n"
        "file, as Promela, to cross-check mck with SPIN; 'mck export --help' tells more.\n"
        "\n"
        "mck convert writes the net read from a model in any language as APNN, PNML or\n"
        "a PEP low-level net for other tools; 'mck convert --help' tells more.\n"
        "mck draw draws the net with Graphviz, places grouped by the model's partition;\n"
        "--run overlays a run written by 'mck check --xml'.  'mck draw --help' tells more.\n"
        "mck simulate walks the model by hand (commands on standard input), at random, or\n"
        "along a saved run, in the model's words; 'mck simulate --help' tells more.\n",
        out);
}

