/* A tiny test harness: CHECK reports one "ok"/"not ok" line per check, in
 * the protocol tests/run.sh adds up. */
#ifndef MCK_UNIT_H
#define MCK_UNIT_H
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int unit_failures;

#define CHECK(cond, ...) do {                                              \
        if (cond) { printf("ok - "); printf(__VA_ARGS__); printf("\n"); }   \
        else { unit_failures++; printf("not ok - "); printf(__VA_ARGS__);   \
               printf("  (%s:%d: %s)\n", __FILE__, __LINE__, #cond); }       \
    } while (0)

#define SKIP(...) do { printf("skip - "); printf(__VA_ARGS__); printf("\n"); } while (0)

#define UNIT_DONE() return unit_failures ? 1 : 0

/* xorshift64: random-looking data that is the same on every run and
 * machine, so that a failure can be repeated. */
static inline uint64_t unit_rand(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *state = x;
}

#endif
