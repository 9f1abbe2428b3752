/* A small deterministic generator (xorshift64) for the randomised tests:
 * the same cases on every run and machine. */
#ifndef MCK_TEST_RND_H
#define MCK_TEST_RND_H

#include <stdint.h>

static uint64_t rnd_state = 0x9e3779b97f4a7c15ull;

/* 0 .. n-1 */
static inline uint32_t rnd(uint32_t n)
{
    rnd_state ^= rnd_state << 13;
    rnd_state ^= rnd_state >> 7;
    rnd_state ^= rnd_state << 17;
    return (uint32_t)(rnd_state % n);
}

#endif
