/* mck: signals, plugins, the run's budget, and the dispatch to a
 * sub-command (cmd/commands.h).  Everything else lives in its layer
 * (docs/architecture.md). */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "base/budget.h"
#include "cmd/commands.h"
#include "cmd/language.h"
#include "cmd/options.h"
#include "plugin/loader.h"

static volatile int interrupted;

/* The first SIGINT or SIGTERM asks the command to stop at its next look at
 * the budget (readers look at every element, searches at their clock
 * checks) and report UNKNOWN with what it found; a second one, for a user
 * who will not wait even that long, ends the process the default way. */
static void on_signal(int sig)
{
    (void)sig;
    interrupted = 1;
}

static void catch_stop_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND | SA_RESTART;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

int main(int argc, char **argv)
{
    budget_t budget;
    budget_init(&budget, &interrupted);
    if (argc < 2) {
        commands_help(stderr);
        return EXIT_ERROR;
    }
    /* --plugin PATH (repeatable) comes before the command; a plugin that
     * cannot be loaded is an error.  The plugin folders are searched for
     * every command but mcc (the contest gets exactly the built-in mck);
     * a broken plugin there is reported and skipped. */
    plugin_set_name_check(builtin_name_taken);
    while (argc > 2 && !strcmp(argv[1], "--plugin")) {
        if (plugin_load(argv[2]) < 0)
            return EXIT_ERROR;
        argc -= 2;
        argv += 2;
    }
    if (argc == 2 && !strcmp(argv[1], "--plugin"))
        return usage_error("%s", "--plugin needs a shared object (PATH.so) and a command");
    if (argc < 2) {
        commands_help(stderr);
        return EXIT_ERROR;
    }
    const char *cmd = argv[1];
    if (command_loads_plugins(cmd))
        (void)plugin_load_defaults(MCK_PLUGIN_DIR);
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        commands_help(stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version")) {
        printf("mck %s\n", MCK_VERSION);
        return 0;
    }
    command_fn run = command_by_name(cmd);
    /* the rest (info, convert, draw, ...) has no answer to give when
     * stopped: the default action ends it at once */
    if (command_answers_signals(cmd))
        catch_stop_signals();
    if (run)
        return run(argc - 1, argv + 1, &budget);
    return usage_error("unknown command '%s'", cmd);
}
