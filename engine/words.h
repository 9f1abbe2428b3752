/* words: byte strings read and written as little-endian 64-bit words, and
 * the word-at-a-time hash of short keys, for the stores (store.c,
 * ctable.c).  Every read takes 8 bytes: the strings have 8 bytes of slack
 * behind them. */
#ifndef MCK_WORDS_H
#define MCK_WORDS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Bit i of the word is bit i of the bytes, whatever the byte order. */
static inline uint64_t word_load(const uint8_t *p)
{
    uint64_t w;
    memcpy(&w, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w);
#endif
    return w;
}

static inline void word_store(uint8_t *p, uint64_t w)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w);
#endif
    memcpy(p, &w, 8);
}

/* Bits set, without the call that __builtin_popcountll is on x86-64
 * without -mpopcnt. */
static inline unsigned popcount64(uint64_t x)
{
    x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
    x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
    x = (x + (x >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
    return (unsigned)((x * UINT64_C(0x0101010101010101)) >> 56);
}

/* Murmur3's finalizer: a full avalanche, and a bijection. */
static inline uint64_t word_mix(uint64_t h)
{
    h ^= h >> 33;
    h *= UINT64_C(0xff51afd7ed558ccd);
    h ^= h >> 33;
    h *= UINT64_C(0xc4ceb9fe1a85ec53);
    h ^= h >> 33;
    return h;
}

/* One multiply per 8 bytes from h, before any final mixing: keys are
 * short and hashed once per edge. */
static inline uint64_t word_hash(const uint8_t *p, size_t n, uint64_t h)
{
    for (; n >= 8; p += 8, n -= 8) {
        h = (h ^ word_load(p)) * UINT64_C(0x87c37b91114253d5);
        h = (h << 31) | (h >> 33);
    }
    if (n)   /* one load, masked */
        h = (h ^ (word_load(p) & ((UINT64_C(1) << (8 * n)) - 1))) * UINT64_C(0x87c37b91114253d5);
    return h;
}

#endif
