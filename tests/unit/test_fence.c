/* engine/fence.h: a fenced child with a memory limit cannot allocate past
 * it (the parent can), a child that dies under its limit ends in UNKNOWN
 * with the reason "memory limit", and a child that never answers is
 * killed at the deadline. */
#include "engine/fence.h"
#include "base/clock.h"
#include "unit.h"

#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#define MIB ((size_t)1 << 20)

/* Asks for 256 MiB and touches it: YES when it got it, NO when refused. */
static void allocate(void *ctx, result_t *res)
{
    (void)ctx;
    size_t n = 256 * MIB;
    char *p = malloc(n);
    if (p)
        memset(p, 1, n);
    res->answer = p ? ANSWER_YES : ANSWER_NO;
    free(p);
}

/* What an uncaught std::bad_alloc does in CaDiCaL. */
static void abort_like_cxx(void *ctx, result_t *res)
{
    (void)ctx;
    (void)res;
    abort();
}

static void sleep_long(void *ctx, result_t *res)
{
    (void)ctx;
    (void)res;
    sleep(30);
}

/* Answers questions 0 and 2 (2 with a run), then hangs on question 1. */
static void two_then_hang(void *ctx, fence_out *out)
{
    (void)ctx;
    result_t r;
    result_init(&r);
    r.answer = ANSWER_NO;
    fence_send(out, 0, &r);
    uint32_t run[3] = {7, 8, 9};
    result_set_run(&r, RUN_WITNESS, run, 3, RESULT_NO_LOOP);
    r.answer = ANSWER_YES;
    fence_send(out, 2, &r);
    result_clear(&r);
    sleep(30);
}

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#endif

int main(void)
{
    budget_t b;
    budget_init(&b, NULL);
    budget_set_limits(&b, 20, 64 * MIB, NULL);

    result_t res;
    result_init(&res);
    fence_run(&b, 0, allocate, NULL, &res);
    CHECK(res.answer == ANSWER_YES, "without a limit the child gets 256 MiB");
    result_clear(&res);

#ifdef UNDER_ASAN
    SKIP("limited to 64 MiB more, the child is refused 256 MiB: an AddressSanitizer "
         "build sets no address-space limit (engine/fence.c)");
#else
    result_init(&res);
    fence_run(&b, 64 * MIB, allocate, NULL, &res);
    CHECK(res.answer == ANSWER_NO, "limited to 64 MiB more, the child is refused 256 MiB");
    result_clear(&res);
#endif

    char *here = malloc(256 * MIB);
    CHECK(here != NULL, "the parent's own address space stays unlimited");
    free(here);

    result_init(&res);
    fence_run(&b, 64 * MIB, abort_like_cxx, NULL, &res);
    CHECK(res.answer == ANSWER_UNKNOWN && !strncmp(res.reason, "memory limit", 12),
          "a child that aborts under its limit: UNKNOWN, \"%s\"", res.reason);
    result_clear(&res);

    result_init(&res);
    fence_run(&b, 0, abort_like_cxx, NULL, &res);
    CHECK(res.answer == ANSWER_UNKNOWN && strstr(res.reason, "killed"),
          "without a limit the same death is not called a memory limit: \"%s\"", res.reason);
    result_clear(&res);

    budget_t soon;
    budget_init(&soon, NULL);
    budget_set_limits(&soon, 0.5, 64 * MIB, NULL);
    double start = mono_now();
    result_init(&res);
    fence_run(&soon, 64 * MIB, sleep_long, NULL, &res);
    double took = mono_now() - start;
    CHECK(res.answer == ANSWER_UNKNOWN && !strcmp(res.reason, "time limit reached") && took < 5,
          "a child that does not answer is killed at the 0.5 s deadline (%.2f s)", took);
    result_clear(&res);

    result_t each[3];
    for (int i = 0; i < 3; i++)
        result_init(&each[i]);
    budget_init(&soon, NULL);
    budget_set_limits(&soon, 0.5, 64 * MIB, NULL);
    fence_run_each(&soon, 64 * MIB, two_then_hang, NULL, each, 3);
    CHECK(each[0].answer == ANSWER_NO && each[2].answer == ANSWER_YES && each[2].run_len == 3 &&
              each[2].run[2] == 9,
          "what a child sent before it was killed stands, run included");
    CHECK(each[1].answer == ANSWER_UNKNOWN && !strcmp(each[1].reason, "time limit reached"),
          "the question it hung on: UNKNOWN, \"%s\"", each[1].reason);
    for (int i = 0; i < 3; i++)
        result_clear(&each[i]);
    UNIT_DONE();
}
