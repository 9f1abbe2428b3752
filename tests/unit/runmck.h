/* What the tests that run the mck binary share: running it with a time
 * limit and capturing its output, and mutating a printed run to check that
 * a replay rejects it.  Header-only. */
#ifndef MCK_TEST_RUNMCK_H
#define MCK_TEST_RUNMCK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef struct outcome {
    int status;
    char *out;
    char err[512];   /* the first line mck wrote to standard error */
    double secs;     /* wall clock */
} outcome;

static inline double rm_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* The whole stream as one string ("" when empty, NULL on no memory). */
static inline char *slurp_stream(FILE *f)
{
    size_t n = 0, cap = 1 << 16;
    char *s = malloc(cap);
    size_t k;
    while (s && (k = fread(s + n, 1, cap - n - 1, f)) > 0) {
        n += k;
        if (n + 1 == cap) {
            char *t = realloc(s, cap *= 2);
            if (!t)
                free(s);
            s = t;
        }
    }
    if (s)
        s[n] = '\0';
    return s;
}

/* Runs "mck ARGS" in top, at most limit_s seconds: a checker that loops
 * must not hang the suite. */
static inline void run_mck_in(outcome *o, const char *top, const char *mck, const char *args,
                              int limit_s)
{
    char errfile[] = "/tmp/test_mck.XXXXXX", cmd[16384], limit[48] = "";
    int fd = mkstemp(errfile);
    o->err[0] = '\0';
    if (fd >= 0)
        close(fd);
    if (access("/usr/bin/timeout", X_OK) == 0)
        snprintf(limit, sizeof limit, "/usr/bin/timeout %d ", limit_s);
    snprintf(cmd, sizeof cmd, "cd '%s' && %s'%s' %s 2>'%s'", top, limit, mck, args,
             fd >= 0 ? errfile : "/dev/null");
    double t0 = rm_now();
    FILE *p = popen(cmd, "r");
    o->out = p ? slurp_stream(p) : NULL;
    int st = p ? pclose(p) : -1;
    o->secs = rm_now() - t0;
    o->status = st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    if (fd >= 0) {
        FILE *e = fopen(errfile, "r");
        if (e) {
            if (!fgets(o->err, sizeof o->err, e))
                o->err[0] = '\0';
            o->err[strcspn(o->err, "\n")] = '\0';
            fclose(e);
        }
        unlink(errfile);
    }
    if (!o->out)
        o->out = calloc(1, 1);
}

/* run with the first occurrence of old replaced by new (old must occur). */
static inline char *mutate(const char *run, const char *old, const char *new)
{
    const char *at = strstr(run, old);
    if (!at) {
        fprintf(stderr, "mutate: '%s' not in the run\n", old);
        exit(2);
    }
    size_t n = strlen(run) - strlen(old) + strlen(new) + 1;
    char *s = malloc(n);
    if (!s)
        exit(2);
    snprintf(s, n, "%.*s%s%s", (int)(at - run), run, new, at + strlen(old));
    return s;
}

#endif
