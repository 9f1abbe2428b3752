/* The child writes each result_t as bytes as soon as it is final (the same
 * program image on both sides, so the layout is the same; the pointers in
 * it are replaced on arrival): its index, the struct, then the run, then
 * the segments.  The parent reads while it waits, since a long run does
 * not fit a pipe's buffer, keeps every record that arrived whole, and
 * kills the child when the budget says stop. */
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

/* The child's end of the pipe (fence_send). */
struct fence_out {
    int fd;
    size_t n;
    result_t *here;     /* unfenced (no child could be made): the caller's */
};

int fence_send(fence_out *out, size_t i, const result_t *res)
{
    if (i >= out->n)
        return -1;
    if (out->here) {
        result_t *to = &out->here[i];
        result_clear(to);
        *to = *res;
        to->run = NULL;
        to->segments = NULL;
        to->run_len = to->nsegments = 0;
        if ((res->run && result_set_run(to, res->role, res->run, res->run_len,
                                        res->loop_start) < 0) ||
            result_set_segments(to, res->segments, res->nsegments) < 0) {
            result_clear(to);
            result_unknown(to, "out of memory");
            return -1;
        }
        return 0;
    }
    fflush(NULL);
    return write_all(out->fd, &i, sizeof i) == 0 && write_all(out->fd, res, sizeof *res) == 0 &&
                   (!res->run_len ||
                    write_all(out->fd, res->run, res->run_len * sizeof *res->run) == 0) &&
                   (!res->nsegments ||
                    write_all(out->fd, res->segments, res->nsegments * sizeof *res->segments) == 0)
               ? 0
               : -1;
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

/* The record at in->buf + *at when it arrived whole: 1 and res[index]
 * filled, *at moved past it, got[index] set; 0 when it is not whole (the
 * child was stopped while it wrote); -1 when it cannot be one (a bug or
 * no memory). */
static int unpack(const inbox *in, size_t *at, result_t *res, size_t n, char *got)
{
    size_t index;
    result_t one;
    if (in->len - *at < sizeof index + sizeof one)
        return 0;
    const char *p = in->buf + *at;
    memcpy(&index, p, sizeof index);
    memcpy(&one, p + sizeof index, sizeof one);
    p += sizeof index + sizeof one;
    if (index >= n || one.run_len > SIZE_MAX / 2 / sizeof *one.run ||
        one.nsegments > SIZE_MAX / 2 / sizeof *one.segments)
        return -1;
    size_t run_bytes = one.run_len * sizeof *one.run;
    size_t seg_bytes = one.nsegments * sizeof *one.segments;
    size_t whole = sizeof index + sizeof one + run_bytes + seg_bytes;
    if (in->len - *at < whole)
        return 0;
    one.run = NULL;
    one.segments = NULL;
    if ((run_bytes && !(one.run = malloc(run_bytes))) ||
        (seg_bytes && !(one.segments = malloc(seg_bytes)))) {
        free(one.run);
        return -1;
    }
    if (run_bytes)
        memcpy(one.run, p, run_bytes);
    if (seg_bytes)
        memcpy(one.segments, p + run_bytes, seg_bytes);
    result_clear(&res[index]);
    res[index] = one;
    got[index] = 1;
    *at += whole;
    return 1;
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

void fence_run_each(const budget_t *budget, size_t memory, fence_work_each work, void *ctx,
                    result_t *res, size_t n)
{
    fence_out out = {-1, n, res};
    int fd[2];
    if (pipe(fd) < 0) {
        work(ctx, &out);
        return;
    }
    fflush(NULL);
    pid_t parent = getpid();
    pid_t child = fork();
    if (child < 0) {
        close(fd[0]);
        close(fd[1]);
        work(ctx, &out);
        return;
    }
    if (child == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(1);
        close(fd[0]);
        if (memory)
            fence_limit_memory(memory);
        out = (fence_out){fd[1], n, NULL};
        work(ctx, &out);
        fflush(NULL);
        _exit(0);
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
    char *got = calloc(n ? n : 1, 1);
    size_t at = 0;
    while (got && !broken && unpack(&in, &at, res, n, got) > 0)
        ;
    char why[160];
    if (stopped)
        snprintf(why, sizeof why, "%s", *budget->interrupted ? "interrupted" : "time limit reached");
    else
        fence_ended_why(status, memory, why, sizeof why);
    for (size_t i = 0; i < n; i++)
        if (!got || !got[i])
            result_unknown(&res[i], why);
    free(got);
    free(in.buf);
}

/* fence_run's work, sent as the one record when it returns. */
typedef struct one_work {
    fence_work work;
    void *ctx;
    result_t *res;
} one_work;

static void send_one(void *ctx, fence_out *out)
{
    one_work *w = ctx;
    w->work(w->ctx, w->res);
    if (!out->here)   /* unfenced, w->res is already the caller's */
        fence_send(out, 0, w->res);
}

void fence_run(const budget_t *budget, size_t memory, fence_work work, void *ctx,
               result_t *res)
{
    one_work w = {work, ctx, res};
    fence_run_each(budget, memory, send_one, &w, res, 1);
}
