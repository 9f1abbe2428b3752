/* The child writes its result_t as bytes (the same program image on both
 * sides, so the layout is the same; the pointers in it are replaced on
 * arrival), then the run, then the segments.  The parent reads while it
 * waits, since a long run does not fit a pipe's buffer, and kills the
 * child when the budget says stop. */
#define _GNU_SOURCE /* prctl */
#include "engine/fence.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define POLL_MS 20

static int write_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n) {
        ssize_t w = write(fd, c, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        c += w;
        n -= (size_t)w;
    }
    return 0;
}

static void child_side(int fd, fence_work work, void *ctx, result_t *res)
{
    work(ctx, res);
    fflush(NULL);
    int ok = write_all(fd, res, sizeof *res) == 0 &&
             (!res->run_len || write_all(fd, res->run, res->run_len * sizeof *res->run) == 0) &&
             (!res->nsegments ||
              write_all(fd, res->segments, res->nsegments * sizeof *res->segments) == 0);
    _exit(ok ? 0 : 1);
}

/* What the child sent, grown as it comes. */
typedef struct inbox {
    char *buf;
    size_t len, cap;
} inbox;

/* 1 more may come, 0 end of data, -1 no memory or a read error. */
static int take(int fd, inbox *in)
{
    if (in->cap - in->len < 65536) {
        size_t cap = in->cap ? in->cap * 2 : 1 << 17;
        char *b = realloc(in->buf, cap);
        if (!b)
            return -1;
        in->buf = b;
        in->cap = cap;
    }
    ssize_t r = read(fd, in->buf + in->len, in->cap - in->len);
    if (r < 0)
        return errno == EINTR || errno == EAGAIN ? 1 : -1;
    in->len += (size_t)r;
    return r > 0;
}

/* 0 when in holds a whole result, which then fills res. */
static int unpack(const inbox *in, result_t *res)
{
    result_t got;
    if (in->len < sizeof got)
        return -1;
    memcpy(&got, in->buf, sizeof got);
    size_t run_bytes = got.run_len * sizeof *got.run;
    size_t seg_bytes = got.nsegments * sizeof *got.segments;
    if (got.run_len > SIZE_MAX / sizeof *got.run || got.nsegments > SIZE_MAX / sizeof *got.segments ||
        in->len != sizeof got + run_bytes + seg_bytes)
        return -1;
    got.run = NULL;
    got.segments = NULL;
    if (run_bytes && !(got.run = malloc(run_bytes)))
        return -1;
    if (seg_bytes && !(got.segments = malloc(seg_bytes))) {
        free(got.run);
        return -1;
    }
    if (run_bytes)
        memcpy(got.run, in->buf + sizeof got, run_bytes);
    if (seg_bytes)
        memcpy(got.segments, in->buf + sizeof got + run_bytes, seg_bytes);
    result_clear(res);
    *res = got;
    return 0;
}

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FENCE_UNDER_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define FENCE_UNDER_ASAN 1
#endif

int fence_limit_memory(size_t bytes)
{
#ifdef FENCE_UNDER_ASAN
    /* AddressSanitizer puts redzones around every block and keeps up to
     * 256 MiB of freed blocks in quarantine, so a sanitizer build's address
     * space is several times what the checker holds: a cap would measure
     * the sanitizer and kill the child before the budget, which counts what
     * the checker asked for, can say "memory budget exhausted". */
    (void)bytes;
    return -1;
#endif
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long pages = 0;
    int got = f && fscanf(f, "%lu", &pages) == 1;
    if (f)
        fclose(f);
    long page = sysconf(_SC_PAGESIZE);
    if (!got || page <= 0 || pages > SIZE_MAX / (unsigned long)page)
        return -1;
    size_t now = (size_t)pages * (size_t)page;
    rlim_t cap = bytes > SIZE_MAX - now ? RLIM_INFINITY : (rlim_t)(now + bytes);
    struct rlimit lim;
    if (getrlimit(RLIMIT_AS, &lim) == 0 && lim.rlim_max != RLIM_INFINITY && cap > lim.rlim_max)
        cap = lim.rlim_max;
    lim.rlim_cur = cap;
    return setrlimit(RLIMIT_AS, &lim);
}

void fence_ended_why(int status, size_t memory, char *why, size_t len)
{
    int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    if (memory && (sig == SIGABRT || sig == SIGSEGV || sig == SIGBUS))
        snprintf(why, len, "memory limit: the checker's process died (signal %d) under its "
                 "limit of %zu MiB", sig, memory >> 20);
    else if (sig)
        snprintf(why, len, "the checker's process was killed (signal %d)", sig);
    else
        snprintf(why, len, "the checker's process ended without a result");
}

void fence_run(const budget_t *budget, size_t memory, fence_work work, void *ctx,
               result_t *res)
{
    int fd[2];
    if (pipe(fd) < 0) {
        work(ctx, res);
        return;
    }
    fflush(NULL);
    pid_t parent = getpid();
    pid_t child = fork();
    if (child < 0) {
        close(fd[0]);
        close(fd[1]);
        work(ctx, res);
        return;
    }
    if (child == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(1);
        close(fd[0]);
        if (memory)
            fence_limit_memory(memory);
        child_side(fd[1], work, ctx, res);
    }
    close(fd[1]);
    inbox in = {NULL, 0, 0};
    int open = 1, stopped = 0, broken = 0;
    while (open) {
        if (budget_expired(budget)) {
            kill(child, SIGKILL);
            stopped = 1;
            break;
        }
        struct pollfd p = {fd[0], POLLIN, 0};
        int r = poll(&p, 1, POLL_MS);
        if (r < 0 && errno != EINTR) {
            broken = 1;
            break;
        }
        if (r > 0) {
            int t = take(fd[0], &in);
            if (t < 0) {
                kill(child, SIGKILL);
                broken = 1;
                break;
            }
            open = t;
        }
    }
    close(fd[0]);
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR)
        ;
    if (stopped)
        result_unknown(res, *budget->interrupted ? "interrupted" : "time limit reached");
    else if (broken || unpack(&in, res) < 0) {
        char why[160];
        fence_ended_why(status, memory, why, sizeof why);
        result_unknown(res, why);
    }
    free(in.buf);
}
