/* `mck simulate MODEL`: walking a model by hand, at random (--steps N
 * --seed S), or along a run saved by `mck check --xml` (--run FILE),
 * always in the model's own words.
 *
 * Every state and step shown comes from the language's output function,
 * the one that prints a checker's run, so that a walk reads like a
 * printed witness in every language, plugins included.  A walk by hand
 * needs more than whole runs: the state after a path is the "final state"
 * the path prints as a run, and the words for firing t next are what the
 * run path+t prints after the lines it shares with path.  That costs a
 * replay of the path per enabled transition each time a state is shown,
 * which a walk made by hand does not notice; random walks and saved runs
 * are printed once, as one run. */
#include "cmd/commands.h"
#include "cmd/language.h"
#include "cmd/options.h"
#include "cmd/runfile.h"
#include "base/grow.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The frame print_run_words gives every built-in language's runs
 * (input/input.h); the state after a path is the one on this line. */
static const char FINAL_STATE[] = "*** final state";

/* What stdin's commands are called in messages. */
static const char INPUT_NAME[] = "stdin";

/* A command line longer than this is refused, not split. */
#define LINE_MAX_BYTES 4096

/* How often the random walk looks at the clock (the interrupt flag it
 * reads at every step). */
#define CLOCK_EVERY 256u

/* "steps", or "step" after 1. */
static const char *steps(uint64_t n)
{
    return n == 1 ? "step" : "steps";
}

/* ---- a walk and its words ---- */

typedef struct walker {
    net_t *net;
    const cnet_t *cn;
    outputfunc_t print;
    const budget_t *budget;
    uint32_t *path;           /* the steps so far, with room for one more */
    size_t len, cap, charged;
    nc_count *m, *scratch;    /* the marking after the path; a copy to try a step on */
    uint32_t *enabled;        /* the transitions enabled after the path, in net order */
    size_t nenabled;
    char **words;             /* words[i]: the language's words for firing enabled[i] */
    unsigned char *overflows; /* overflows[i]: firing enabled[i] would overflow a count */
    char *state;              /* the state after the path in the language's words; NULL
                               * when its output has no final state line */
} walker;

static int walker_init(walker *w, net_t *net, outputfunc_t print, const budget_t *budget)
{
    memset(w, 0, sizeof *w);
    w->net = net;
    w->print = print;
    w->budget = budget;
    if (!(w->cn = nc_compile(net)))
        return -1;
    size_t np = w->cn->nplaces ? w->cn->nplaces : 1;
    size_t nt = w->cn->ntransitions ? w->cn->ntransitions : 1;
    w->m = malloc(np * sizeof *w->m);
    w->scratch = malloc(np * sizeof *w->scratch);
    w->enabled = malloc(nt * sizeof *w->enabled);
    w->words = calloc(nt, sizeof *w->words);
    w->overflows = calloc(nt, 1);
    if (!w->m || !w->scratch || !w->enabled || !w->words || !w->overflows) {
        nc_error(net->file, 0, "out of memory");
        return -1;
    }
    memcpy(w->m, w->cn->initial, w->cn->nplaces * sizeof *w->m);
    return 0;
}

static void forget_words(walker *w)
{
    for (size_t i = 0; i < w->nenabled; i++) {
        free(w->words[i]);
        w->words[i] = NULL;
    }
    free(w->state);
    w->state = NULL;
}

static void walker_free(walker *w)
{
    if (w->words)
        forget_words(w);
    free(w->path);
    free(w->m);
    free(w->scratch);
    free(w->enabled);
    free(w->words);
    free(w->overflows);
}

/* Room for n steps and one more to try; 0, or -1 past the memory budget. */
static int make_room(walker *w, size_t n)
{
    if (n > SIZE_MAX - 2)
        return -1;
    return grow_charged(&w->path, &w->cap, n + 2, sizeof *w->path, 64, &w->charged,
                        w->budget->bytes, 0);
}

/* The first len steps of the path as one finite run (the path is not its
 * to free). */
static result_t path_run(const walker *w, size_t len, size_t loop_start)
{
    result_t r;
    result_init(&r);
    r.role = RUN_WITNESS;
    r.run = w->path;
    r.run_len = len;
    r.loop_start = loop_start;
    return r;
}

/* The first len steps of the path as the language prints them: a string
 * to free, or NULL with no memory. */
static char *render(const walker *w, size_t len)
{
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    if (!f)
        return NULL;
    result_t r = path_run(w, len, RESULT_NO_LOOP);
    w->print(f, w->net, &r);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        free(text);
        return NULL;
    }
    return text;
}

/* The length of the longest common prefix of a and b made of whole lines. */
static size_t common_lines(const char *a, const char *b)
{
    size_t n = 0, whole = 0;
    while (a[n] && a[n] == b[n]) {
        if (a[n] == '\n')
            whole = n + 1;
        n++;
    }
    return whole;
}

/* The last line of text that starts with FINAL_STATE, or NULL. */
static const char *final_state_line(const char *text)
{
    const char *found = NULL;
    for (const char *line = text; *line;) {
        if (!strncmp(line, FINAL_STATE, sizeof FINAL_STATE - 1))
            found = line;
        const char *nl = strchr(line, '\n');
        if (!nl)
            break;
        line = nl + 1;
    }
    return found;
}

/* The final state (and whatever the language adds after it, such as what
 * a deadlocked program waits for) as "*** state K: ... ***". */
static char *state_words(const char *final_line, size_t k)
{
    const char *rest = final_line + sizeof FINAL_STATE - 1;
    size_t need = strlen(rest) + 48;
    char *s = malloc(need);
    if (s)
        snprintf(s, need, "*** state %zu%s", k, rest);
    return s;
}

/* text[0, n) without its last line end, as a string to free. */
static char *copy_words(const char *text, size_t n)
{
    if (n && text[n - 1] == '\n')
        n--;
    char *s = malloc(n + 1);
    if (s) {
        memcpy(s, text, n);
        s[n] = '\0';
    }
    return s;
}

typedef enum { WALK_OK = 0, WALK_NO_MEMORY, WALK_LIMIT } walk_status;

/* The state after the path, what is enabled there and the words for
 * firing each.  A limit (the deadline, a signal) stops it half-way. */
static walk_status refresh(walker *w)
{
    forget_words(w);
    const cnet_t *cn = w->cn;
    memcpy(w->m, cn->initial, cn->nplaces * sizeof *w->m);
    for (size_t i = 0; i < w->len; i++)
        (void)cn_fire(cn, w->m, w->path[i]);   /* each step fired when it was taken */
    w->nenabled = 0;
    for (uint32_t t = 0; t < cn->ntransitions; t++)
        if (cn_enabled(cn, w->m, t))
            w->enabled[w->nenabled++] = t;
    char *base = render(w, w->len);
    if (!base)
        return WALK_NO_MEMORY;
    const char *final = final_state_line(base);
    if (final && !(w->state = state_words(final, w->len))) {
        free(base);
        return WALK_NO_MEMORY;
    }
    walk_status st = WALK_OK;
    for (size_t i = 0; i < w->nenabled && st == WALK_OK; i++) {
        if (budget_expired(w->budget)) {
            st = WALK_LIMIT;
            break;
        }
        uint32_t t = w->enabled[i];
        memcpy(w->scratch, w->m, cn->nplaces * sizeof *w->m);
        w->overflows[i] = cn_fire(cn, w->scratch, t) < 0;
        if (w->overflows[i]) {
            /* no run fires it, so the language has no words for it */
            const nc_transition *tr = &w->net->transitions[t];
            const char *label = tr->name ? tr->name : tr->id ? tr->id : "";
            if (!(w->words[i] = copy_words(label, strlen(label))))
                st = WALK_NO_MEMORY;
            continue;
        }
        w->path[w->len] = t;
        char *next = render(w, w->len + 1);
        if (!next) {
            st = WALK_NO_MEMORY;
            break;
        }
        const char *step = next + common_lines(base, next);
        const char *end = final_state_line(step);
        w->words[i] = copy_words(step, end ? (size_t)(end - step) : strlen(step));
        free(next);
        if (!w->words[i])
            st = WALK_NO_MEMORY;
    }
    free(base);
    return st;
}

/* words with every line after the first indented by indent blanks. */
static void print_words(FILE *out, const char *words, int indent)
{
    for (const char *s = words; *s; s++) {
        fputc(*s, out);
        if (*s == '\n')
            fprintf(out, "%*s", indent, "");
    }
    fputc('\n', out);
}

static void show(const walker *w, FILE *out)
{
    if (w->state)
        fputs(w->state, out);
    if (!w->nenabled) {
        fputs("enabled: none (a deadlock)\n", out);
        return;
    }
    fprintf(out, "enabled: %zu\n", w->nenabled);
    int width = snprintf(NULL, 0, "%zu", w->nenabled);
    for (size_t i = 0; i < w->nenabled; i++) {
        int n = fprintf(out, "  [%*zu] ", width, i + 1);
        if (w->overflows[i])
            fputs("(cannot fire: a token count would overflow) ", out);
        print_words(out, w->words[i][0] ? w->words[i] : "(no words for this step)",
                    n > 0 ? n : 0);
    }
}

/* ---- reading commands ---- */

typedef struct line_reader {
    int fd;
    char buf[LINE_MAX_BYTES + 1];
    size_t len;       /* bytes in buf */
    size_t consumed;  /* bytes of the line handed out last, to drop first */
    int at_end;
    long line;        /* number of the line handed out last */
} line_reader;

typedef enum { READ_LINE, READ_END, READ_LIMIT, READ_TOO_LONG, READ_ERROR } read_status;

/* Milliseconds to wait for input before the budget's deadline (-1: none). */
static int wait_ms(const budget_t *b)
{
    double left = budget_left(b);
    if (left == HUGE_VAL)
        return -1;
    double ms = ceil(left * 1000.0);
    return ms > INT_MAX ? INT_MAX : (int)ms;
}

/* The next line, without its line end, in *line (valid until the next
 * call).  Waits in poll(), which a signal always interrupts (SA_RESTART
 * or not), so that Control-C and --timeout end a walk waiting for its
 * user. */
static read_status read_line(line_reader *r, const budget_t *b, char **line)
{
    memmove(r->buf, r->buf + r->consumed, r->len - r->consumed);
    r->len -= r->consumed;
    r->consumed = 0;
    for (;;) {
        char *nl = memchr(r->buf, '\n', r->len);
        if (nl || (r->at_end && r->len)) {
            size_t n = nl ? (size_t)(nl - r->buf) : r->len;
            r->buf[n] = '\0';
            r->consumed = nl ? n + 1 : n;
            r->line++;
            *line = r->buf;
            return READ_LINE;
        }
        if (r->at_end)
            return READ_END;
        if (r->len == LINE_MAX_BYTES) {
            r->line++;
            return READ_TOO_LONG;
        }
        if (budget_expired(b))
            return READ_LIMIT;
        struct pollfd p = { .fd = r->fd, .events = POLLIN };
        int ready = poll(&p, 1, wait_ms(b));
        if (ready < 0 && errno != EINTR)
            return READ_ERROR;
        if (ready <= 0)
            continue;   /* the loop's budget check decides */
        ssize_t got = read(r->fd, r->buf + r->len, LINE_MAX_BYTES - r->len);
        if (got < 0 && errno != EINTR && errno != EAGAIN)
            return READ_ERROR;
        if (got == 0)
            r->at_end = 1;
        else if (got > 0)
            r->len += (size_t)got;
    }
}

/* ---- walking by hand ---- */

static const char HELP[] =
    "commands:\n"
    "  N        fire the transition listed as [N]\n"
    "  WORDS    fire the enabled transition whose words are WORDS, or the only one\n"
    "           whose words contain WORDS\n"
    "  u, undo  go back one step\n"
    "  s, show  show the state and what is enabled again\n"
    "  p, path  print the path from the initial state as a run\n"
    "  q, quit  end the walk (so does the end of the input)\n"
    "  ?, help  this list\n";

typedef struct session {
    walker *w;
    int interactive;   /* stdin is a terminal: a wrong command is told and forgiven */
    char why[256];     /* a command's error, for the caller to report */
} session;

static int is_command(const char *text, const char *one, const char *word)
{
    return !strcmp(text, one) || !strcmp(text, word);
}

/* The index of the enabled transition text chooses, or -1 with the reason
 * in s->why: a number from the list; else words that are a transition's
 * words exactly, or its name or id in the net; else a part of exactly one
 * transition's words. */
static long choose(session *s, const char *text)
{
    const walker *w = s->w;
    if (strspn(text, "0123456789") == strlen(text)) {
        errno = 0;
        unsigned long long k = strtoull(text, NULL, 10);
        if (!w->nenabled)
            snprintf(s->why, sizeof s->why, "no transition is enabled here (a deadlock); "
                     "'u' goes back");
        else if (errno || k == 0 || k > w->nenabled)
            snprintf(s->why, sizeof s->why, "there is no [%.40s] here: choose 1 to %zu", text,
                     w->nenabled);
        else
            return (long)(k - 1);
        return -1;
    }
    for (int pass = 0; pass < 3; pass++) {
        size_t found = 0, first = 0;
        for (size_t i = 0; i < w->nenabled; i++) {
            const nc_transition *tr = &w->net->transitions[w->enabled[i]];
            int fits = pass == 0   ? !strcmp(w->words[i], text)
                       : pass == 1 ? (tr->name && !strcmp(tr->name, text)) ||
                                         (tr->id && !strcmp(tr->id, text))
                                   : strstr(w->words[i], text) != NULL;
            if (fits && !found++)
                first = i;
        }
        if (found == 1)
            return (long)first;
        if (found > 1) {
            snprintf(s->why, sizeof s->why, "%zu enabled transitions fit '%.80s': choose one by "
                     "its number", found, text);
            return -1;
        }
    }
    snprintf(s->why, sizeof s->why, "no enabled transition fits '%.80s' ('s' lists them, "
             "'?' the commands)", text);
    return -1;
}

/* A command's effect; WALK_OK with s->why set for a command that was
 * wrong. */
static walk_status command(session *s, const char *text, int *quit)
{
    walker *w = s->w;
    s->why[0] = '\0';
    if (is_command(text, "q", "quit")) {
        *quit = 1;
        return WALK_OK;
    }
    if (is_command(text, "?", "help") || !strcmp(text, "h")) {
        fputs(HELP, stdout);
        return WALK_OK;
    }
    if (is_command(text, "s", "show")) {
        show(w, stdout);
        return WALK_OK;
    }
    if (is_command(text, "p", "path")) {
        result_t r = path_run(w, w->len, RESULT_NO_LOOP);
        w->print(stdout, w->net, &r);
        return WALK_OK;
    }
    if (is_command(text, "u", "undo")) {
        if (!w->len) {
            snprintf(s->why, sizeof s->why, "nothing to undo: this is the initial state");
            return WALK_OK;
        }
        uint32_t t = w->path[--w->len];
        walk_status st = refresh(w);
        if (st != WALK_OK)
            return st;
        for (size_t i = 0; i < w->nenabled; i++)
            if (w->enabled[i] == t) {
                fputs("undo: ", stdout);
                print_words(stdout, w->words[i], 6);
                break;
            }
        show(w, stdout);
        return WALK_OK;
    }
    long i = choose(s, text);
    if (i < 0)
        return WALK_OK;
    if (w->overflows[i]) {
        snprintf(s->why, sizeof s->why, "[%ld] cannot fire: a token count would overflow", i + 1);
        return WALK_OK;
    }
    if (make_room(w, w->len + 1) < 0) {
        snprintf(s->why, sizeof s->why, "memory budget exhausted");
        return WALK_LIMIT;
    }
    print_words(stdout, w->words[i], 0);
    w->path[w->len++] = w->enabled[i];
    walk_status st = refresh(w);
    if (st == WALK_OK)
        show(w, stdout);
    return st;
}

static const char *limit_reason(const budget_t *b)
{
    return *b->interrupted ? "interrupted" : "time limit reached";
}

static int walk_by_hand(walker *w)
{
    session s = { .w = w, .interactive = isatty(STDIN_FILENO) };
    line_reader *in = calloc(1, sizeof *in);
    if (!in || make_room(w, 0) < 0) {
        free(in);
        nc_error(w->net->file, 0, "out of memory");
        return EXIT_ERROR;
    }
    in->fd = STDIN_FILENO;
    int rc = EXIT_YES, quit = 0;
    walk_status st = refresh(w);
    if (st == WALK_OK) {
        show(w, stdout);
        if (s.interactive)
            fputs("('?' lists the commands)\n", stdout);
    }
    while (st == WALK_OK && !quit) {
        if (s.interactive)
            fputs("> ", stdout);
        fflush(stdout);
        char *line;
        read_status got = read_line(in, w->budget, &line);
        if (got == READ_END) {
            if (s.interactive)
                fputc('\n', stdout);
            break;
        }
        if (got == READ_LIMIT) {
            st = WALK_LIMIT;
            break;
        }
        if (got == READ_ERROR) {
            nc_error(INPUT_NAME, in->line + 1, "cannot read: %s", strerror(errno));
            rc = EXIT_ERROR;
            break;
        }
        if (got == READ_TOO_LONG) {
            nc_error(INPUT_NAME, in->line, "a command longer than %d bytes", LINE_MAX_BYTES);
            rc = EXIT_ERROR;
            break;
        }
        /* a script's transcript shows what was chosen where a terminal
         * shows what was typed */
        if (!s.interactive)
            printf("> %s\n", line);
        line[strcspn(line, "\r")] = '\0';
        char *text = line + strspn(line, " \t");
        size_t n = strlen(text);
        while (n && (text[n - 1] == ' ' || text[n - 1] == '\t'))
            text[--n] = '\0';
        if (!*text || *text == '#')
            continue;
        st = command(&s, text, &quit);
        if (st == WALK_OK && s.why[0]) {
            fflush(stdout);
            nc_error(INPUT_NAME, in->line, "%s", s.why);
            if (!s.interactive) {
                rc = EXIT_ERROR;
                break;
            }
        }
    }
    if (st == WALK_NO_MEMORY) {
        nc_error(w->net->file, 0, "out of memory");
        rc = EXIT_ERROR;
    } else if (st == WALK_LIMIT) {
        printf("Simulation stopped (%s) after %zu %s.\n",
               s.why[0] ? s.why : limit_reason(w->budget), w->len, steps(w->len));
        rc = EXIT_UNKNOWN;
    }
    fflush(stdout);
    free(in);
    return rc;
}

/* ---- a random walk ---- */

/* splitmix64: spreads a seed (small numbers, 0 included) over the state
 * of the generator below. */
static uint64_t spread_seed(uint64_t seed)
{
    uint64_t z = seed + 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return z ? z : 1;
}

/* xorshift64*: the same seed gives the same walk on every machine. */
static uint64_t next_random(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545f4914f6cdd1dull;
}

typedef enum { END_STEPS, END_DEADLOCK, END_LIMIT, END_MEMORY, END_OVERFLOW } walk_end;

static int walk_at_random(walker *w, uint64_t nsteps, uint64_t seed)
{
    const cnet_t *cn = w->cn;
    uint64_t rng = spread_seed(seed);
    walk_end end = END_STEPS;
    while (w->len < nsteps) {
        if (*w->budget->interrupted ||
            ((w->len & (CLOCK_EVERY - 1)) == 0 && budget_expired(w->budget))) {
            end = END_LIMIT;
            break;
        }
        size_t n = 0;
        for (uint32_t t = 0; t < cn->ntransitions; t++)
            if (cn_enabled(cn, w->m, t))
                w->enabled[n++] = t;
        if (!n) {
            end = END_DEADLOCK;
            break;
        }
        /* the high half: xorshift's low bits are its weakest */
        uint32_t t = w->enabled[(next_random(&rng) >> 32) % n];
        if (make_room(w, w->len + 1) < 0) {
            end = END_MEMORY;
            break;
        }
        if (cn_fire(cn, w->m, t) < 0) {
            end = END_OVERFLOW;
            break;
        }
        w->path[w->len++] = t;
    }
    if (end == END_STEPS && cn_dead(cn, w->m))
        end = END_DEADLOCK;
    result_t r = path_run(w, w->len, end == END_DEADLOCK ? w->len : RESULT_NO_LOOP);
    w->print(stdout, w->net, &r);
    unsigned long long s = (unsigned long long)seed;
    int rc = EXIT_YES;
    switch (end) {
    case END_STEPS:
        printf("Random walk: %zu %s, seed %llu.\n", w->len, steps(w->len), s);
        break;
    case END_DEADLOCK:
        printf("Random walk: %zu %s, seed %llu, then a deadlock.\n", w->len, steps(w->len), s);
        break;
    default:
        printf("Random walk stopped (%s) after %zu of %llu %s, seed %llu.\n",
               end == END_LIMIT      ? limit_reason(w->budget)
               : end == END_MEMORY   ? "memory budget exhausted"
                                     : "the next step would overflow a token count",
               w->len, (unsigned long long)nsteps, steps(nsteps), s);
        rc = EXIT_UNKNOWN;
        break;
    }
    fflush(stdout);
    return rc;
}

/* ---- a saved run ---- */

static int replay_file(walker *w, const char *path)
{
    result_t r;
    result_init(&r);
    size_t fits = 0;
    int got = read_run_file(path, w->net, &r, &fits);
    if (got == -1)
        return EXIT_ERROR;
    if (got == -2 && !fits) {
        /* a run of nothing but the initial state would show it twice */
        char *text = render(w, 0);
        const char *final = text ? final_state_line(text) : NULL;
        char *state = final ? state_words(final, 0) : NULL;
        printf("The run's first step cannot fire in the initial state:\n%s", state ? state : "");
        free(state);
        free(text);
    } else {
        if (got == -2)
            printf("The run fits the model up to step %zu:\n", fits);
        else
            fputs(r.role == RUN_COUNTEREXAMPLE ? "Counterexample:\n" : "Witness:\n", stdout);
        w->print(stdout, w->net, &r);
    }
    if (got == 0)
        printf("Replayed: %zu %s of %s.\n", r.run_len, steps(r.run_len), path);
    fflush(stdout);
    result_clear(&r);
    return got == 0 ? EXIT_YES : EXIT_ERROR;
}

/* ---- the command ---- */

static void usage(FILE *out)
{
    fputs("usage: mck simulate [-t LANG] [--steps N [--seed S] | --run VERDICT.xml]\n"
          "                    [--timeout S] [--mem MB] [-v] MODEL\n"
          "  Walks MODEL, showing its states and steps in the model's own words.\n"
          "  Without --steps or --run, by hand: the state and the enabled transitions,\n"
          "  numbered; a number or a transition's words fires it, 'u' goes back, 's'\n"
          "  shows the state, 'p' prints the path, 'q' ends, '?' lists the commands.\n"
          "  Commands come from standard input: on a terminal a wrong one is told and\n"
          "  the walk goes on; read from elsewhere (a script) it ends the walk, exit 2.\n"
          "  --steps N      a random walk of N steps (fewer at a deadlock), printed as a run\n"
          "  --seed S       its seed (default: from the clock); the same seed, the same walk\n"
          "  --run FILE     prints the run saved by 'mck check --xml' step by step; a run\n"
          "                 that does not fit the model is an error naming the step\n"
          "  --timeout S    ends the walk after S seconds (exit 3), as Control-C does\n"
          "  --mem MB       memory for the path (default: half the physical memory)\n",
          out);
}

int simulate_main(int argc, char **argv, budget_t *budget)
{
    enum { OPT_STEPS = 256, OPT_SEED, OPT_RUN, OPT_TIMEOUT, OPT_MEM };
    static const struct option longopts[] = {
        {"language", required_argument, NULL, 't'},
        {"steps", required_argument, NULL, OPT_STEPS},
        {"seed", required_argument, NULL, OPT_SEED},
        {"run", required_argument, NULL, OPT_RUN},
        {"timeout", required_argument, NULL, OPT_TIMEOUT},
        {"mem", required_argument, NULL, OPT_MEM},
        {"verbose", no_argument, NULL, 'v'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *lang = NULL, *runfile = NULL;
    uint64_t nsteps = 0, seed = 0;
    int at_random = 0, seeded = 0, verbose = 0, c;
    double seconds = 0;
    size_t bytes = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "t:vh", longopts, NULL)) != -1) {
        switch (c) {
        case 't': lang = optarg; break;
        case OPT_STEPS:
            if (parse_count(optarg, &nsteps) < 0)
                return usage_error("bad number of steps '%s'", optarg);
            at_random = 1;
            break;
        case OPT_SEED:
            if (parse_count(optarg, &seed) < 0)
                return usage_error("bad seed '%s' (a number from 0)", optarg);
            seeded = 1;
            break;
        case OPT_RUN: runfile = optarg; break;
        case OPT_TIMEOUT:
            if (parse_seconds(optarg, &seconds) < 0)
                return usage_error("bad timeout '%s' (seconds)", optarg);
            break;
        case OPT_MEM:
            if (parse_megabytes(optarg, &bytes) < 0)
                return usage_error("bad memory budget '%s' (megabytes)", optarg);
            break;
        case 'v': verbose++; break;
        case 'h': usage(stdout); return EXIT_YES;
        default: usage(stderr); return EXIT_ERROR;
        }
    }
    if (argc - optind != 1) {
        usage(stderr);
        return EXIT_ERROR;
    }
    if (at_random && runfile)
        return usage_error("%s", "--steps and --run are two different walks: choose one");
    if (seeded && !at_random)
        return usage_error("%s", "--seed is the seed of a random walk: it needs --steps N");
    if (!seeded)
        seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
    nc_set_verbosity(verbose);
    budget_set_limits(budget, seconds, bytes, verbose ? stderr : NULL);
    if (verbose)
        budget_report(budget, stderr);
    const input_type *it;
    net_t *net = load_model(lang, argv[optind], &it);
    if (!net)
        return EXIT_ERROR;
    walker w;
    int rc = EXIT_ERROR;
    if (walker_init(&w, net, it->outputfunc, budget) == 0)
        rc = runfile  ? replay_file(&w, runfile)
             : at_random ? walk_at_random(&w, nsteps, seed)
                      : walk_by_hand(&w);
    walker_free(&w);
    nc_free_net(net);
    return rc;
}
