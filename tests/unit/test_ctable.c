/* ctable: the quotient split, the key bijection, insert and find against
 * a plain list, the distance cap, and moving into a bigger table. */
#include "engine/ctable.h"
#include "unit.h"

#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint64_t next_rand(void) { return unit_rand(&rng); }

/* A random key of key_bits significant bits in a buffer of key_bytes + 8
 * (key buffers have slack, with garbage in it). */
static void random_key(uint8_t *k, size_t key_bytes, unsigned key_bits)
{
    for (size_t i = 0; i < key_bytes + 8; i++)
        k[i] = (uint8_t)next_rand();
    for (size_t b = key_bits; b < 8 * key_bytes; b++)
        k[b / 8] &= (uint8_t)~(1u << (b % 8));
}

static uint8_t *new_table(ctable *ct, uint64_t m)
{
    uint8_t *mem = calloc(1, ctable_bytes(ct, m));
    if (mem)
        ctable_attach(ct, mem, m);
    return mem;
}

/* Every key of at most 12 bits: distinct keys must never be taken for
 * one another, whatever the table size. */
static void test_all_small_keys(void)
{
    for (unsigned bits = 1; bits <= 12; bits++) {
        ctable ct;
        ctable_shape(&ct, (bits + 7) / 8, bits, 31);
        uint64_t m = (UINT64_C(1) << bits) + 7;   /* more slots than keys */
        uint8_t *mem = new_table(&ct, m);
        int ok = mem != NULL;
        uint8_t key[16] = {0};
        for (uint32_t v = 0; ok && v < (1u << bits); v++) {
            key[0] = (uint8_t)v;
            key[1] = (uint8_t)(v >> 8);
            ok = ctable_insert(&ct, key, ctable_hash(&ct, key), v & 31) == 1;
        }
        for (uint32_t v = 0; ok && v < (1u << bits); v++) {
            uint32_t got = 99;
            key[0] = (uint8_t)v;
            key[1] = (uint8_t)(v >> 8);
            ok = ctable_find(&ct, key, ctable_hash(&ct, key), &got) == 1 && got == (v & 31) &&
                 ctable_insert(&ct, key, ctable_hash(&ct, key), 0) == 0;
        }
        CHECK(ok && ct.count == (1u << bits), "all %u-bit keys in %llu slots, each found once",
              bits, (unsigned long long)m);
        free(mem);
    }
}

/* Random keys of several shapes, half added, all looked up. */
static void test_random_keys(void)
{
    static const struct { size_t bytes; unsigned bits, value_bits; } shapes[] = {
        {3, 20, 0}, {5, 37, 7}, {8, 64, 32}, {10, 80, 5}, {16, 121, 11}, {40, 317, 3},
    };
    enum { N = 20000 };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        size_t kb = shapes[s].bytes;
        ctable ct;
        uint32_t vmask = shapes[s].value_bits >= 32 ? UINT32_MAX
                                                    : (1u << shapes[s].value_bits) - 1;
        ctable_shape(&ct, kb, shapes[s].bits, vmask);
        uint8_t *mem = new_table(&ct, N * 2 + 1);   /* half full when all are in */
        uint8_t *keys = malloc(2 * N * (kb + 8));
        int ok = mem && keys;
        for (uint32_t i = 0; ok && i < 2 * N; i++)
            random_key(keys + i * (kb + 8), kb, shapes[s].bits);
        uint64_t added = 0;
        for (uint32_t i = 0; ok && i < N; i++) {
            uint8_t *k = keys + i * (kb + 8);
            int r = ctable_insert(&ct, k, ctable_hash(&ct, k), (uint32_t)next_rand() & vmask);
            ok = r == 0 || r == 1;   /* short keys repeat now and then */
            added += r == 1;
        }
        /* the values again, by re-inserting from the same generator */
        int found_all = ok, absent_ok = ok;
        for (uint32_t i = 0; ok && i < N; i++) {
            uint8_t *k = keys + i * (kb + 8);
            uint32_t v;
            found_all = found_all && ctable_find(&ct, k, ctable_hash(&ct, k), &v) == 1 &&
                        (v & ~vmask) == 0;
        }
        for (uint32_t i = N; ok && i < 2 * N; i++) {
            uint8_t *k = keys + i * (kb + 8);
            uint32_t v;
            /* a key of the first half is found (above); one found must
             * be of the first half: short keys are drawn twice now and then */
            int in_first = 0;
            if (ctable_find(&ct, k, ctable_hash(&ct, k), &v) == 1)
                for (uint32_t j = 0; j < N && !in_first; j++)
                    in_first = memcmp(keys + j * (kb + 8), k, kb) == 0;
            else
                in_first = 1;
            absent_ok = absent_ok && in_first;
        }
        CHECK(ok && found_all && absent_ok && ct.count == added,
              "%u-bit keys, %u-bit values: %llu added are found, the others are not",
              shapes[s].bits, shapes[s].value_bits, (unsigned long long)added);
        free(mem);
        free(keys);
    }
}

/* Values come back as they went in, also after a move. */
static void test_values_and_move(void)
{
    enum { N = 30000, KB = 12, BITS = 90 };
    ctable small, big;
    ctable_shape(&small, KB, BITS, 0x1ffff);
    big = small;
    uint64_t m = N + N / 10;   /* 0.9 load */
    uint8_t *mem = new_table(&small, m);
    uint8_t *keys = malloc((size_t)N * (KB + 8));
    uint32_t *values = malloc(N * sizeof *values);
    int ok = mem && keys && values;
    for (uint32_t i = 0; ok && i < N; i++) {
        uint8_t *k = keys + (size_t)i * (KB + 8);
        random_key(k, KB, BITS);
        values[i] = (uint32_t)next_rand() & 0x1ffff;
        ok = ctable_insert(&small, k, ctable_hash(&small, k), values[i]) == 1;
    }
    CHECK(ok, "30000 random 90-bit keys fill a table to 0.9");
    uint8_t *mem2 = new_table(&big, m * 3 / 2);
    ctable_mover mv = {0, 0};
    int r = 0, in_order = 1;
    while (ok && mem2 && (r = ctable_move(&big, &small, &mv, 1000)) == 0) {
        /* what is moved is never read again, what is left is untouched */
        for (uint64_t i = mv.to_pos; in_order && i < big.m + 256; i++)
            in_order = big.slots[i * big.slot_bytes] == 0;
    }
    CHECK(in_order, "a move writes the new table front to back");
    int same = ok && mem2 && r == 1 && big.count == N;
    for (uint32_t i = 0; same && i < N; i++) {
        uint8_t *k = keys + (size_t)i * (KB + 8);
        uint32_t a, b;
        same = ctable_find(&small, k, ctable_hash(&small, k), &a) == 1 && a == values[i] &&
               ctable_find(&big, k, ctable_hash(&big, k), &b) == 1 && b == values[i];
    }
    CHECK(same, "after moving in steps of 1000 slots, both tables give every value back");
    CHECK(ctable_slot_bytes(&big, big.m) <= ctable_slot_bytes(&small, small.m) &&
              ctable_slot_bytes(&small, small.m) == 1 + (26 + 64 - 15 + 17 + 7) / 8,
          "a slot: 1 byte of distance, 26 verbatim bits, the quotient, the value (%zu bytes)",
          ctable_slot_bytes(&small, small.m));
    free(mem);
    free(mem2);
    free(keys);
    free(values);
}

/* Moves through growing sizes, for short keys (whose homes come from x
 * shifted left) and long ones: every key and value comes through. */
static void test_moves(void)
{
    static const unsigned widths[] = {6, 14, 33, 64};
    for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++) {
        unsigned bits = widths[w];
        size_t kb = (bits + 7) / 8;
        uint32_t n = bits <= 14 ? 1u << bits : 30000;
        uint8_t *keys = calloc(n, kb + 8);
        ctable a;
        ctable_shape(&a, kb, bits, 0x1fff);
        uint64_t m = (uint64_t)n * 100 / 85 + 1;
        uint8_t *mem = new_table(&a, m);
        int ok = keys && mem;
        for (uint32_t i = 0; ok && i < n; i++) {
            uint8_t *k = keys + (size_t)i * (kb + 8);
            uint64_t v = next_rand();
            if (bits <= 14)
                v = i;
            else if (bits < 64)
                v &= (UINT64_C(1) << bits) - 1;
            memcpy(k, &v, kb);
            int r = ctable_insert(&a, k, ctable_hash(&a, k), i & 0x1fff);
            ok = r == 1 || (r == 0 && bits > 14);   /* random keys may repeat */
        }
        uint64_t count = a.count;
        for (int round = 0; ok && round < 3; round++) {
            ctable b = a;
            uint8_t *mem2 = new_table(&b, a.m * 3 / 2);
            ctable_mover mv = {0, 0};
            int r;
            while (mem2 && (r = ctable_move(&b, &a, &mv, 77)) == 0)
                ;
            ok = mem2 && r == 1 && b.count == count;
            for (uint32_t i = 0; ok && i < n; i++) {
                uint8_t *k = keys + (size_t)i * (kb + 8);
                uint32_t v;
                ok = ctable_find(&b, k, ctable_hash(&b, k), &v) == 1 &&
                     (bits > 14 || v == (i & 0x1fff));
            }
            free(mem);
            mem = mem2;
            a = b;
        }
        CHECK(ok, "%u-bit keys: %llu of them through 3 moves of 1.5 times (to %llu slots)", bits,
              (unsigned long long)count, (unsigned long long)a.m);
        free(mem);
        free(keys);
    }
}

/* A move recovers each key's x from its home and quotient, which
 * depends on c, the table size's leading part: out of a table of every c
 * from 8 to 15, short keys and long ones come through, values and all. */
static void test_move_every_c(void)
{
    static const unsigned widths[] = {20, 40, 90};
    for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++) {
        unsigned bits = widths[w];
        size_t kb = (bits + 7) / 8;
        int ok = 1;
        for (unsigned c = 8; ok && c < 16; c++) {
            ctable a, b;
            ctable_shape(&a, kb, bits, 0xfff);
            b = a;
            uint8_t *mem = new_table(&a, (uint64_t)c << 10);
            uint8_t *mem2 = new_table(&b, ((uint64_t)c << 10) * 3 / 2);
            uint32_t n = c * 1024 * 4 / 5;
            uint8_t *keys = calloc(n, kb + 8);
            ok = mem && mem2 && keys && a.c == c;
            for (uint32_t i = 0; ok && i < n; i++) {
                uint8_t *k = keys + (size_t)i * (kb + 8);
                random_key(k, kb, bits);
                int r = ctable_insert(&a, k, ctable_hash(&a, k), i & 0xfff);
                ok = r == 1 || (r == 0 && bits == 20);   /* 20-bit keys may repeat */
            }
            ctable_mover mv = {0, 0};
            int r = 0;
            while (ok && (r = ctable_move(&b, &a, &mv, 500)) == 0)
                ;
            ok = ok && r == 1 && b.count == a.count;
            for (uint32_t i = 0; ok && i < n; i++) {
                uint8_t *k = keys + (size_t)i * (kb + 8);
                uint32_t va, vb;
                ok = ctable_find(&a, k, ctable_hash(&a, k), &va) == 1 &&
                     ctable_find(&b, k, ctable_hash(&b, k), &vb) == 1 && va == vb;
            }
            free(mem);
            free(mem2);
            free(keys);
        }
        CHECK(ok, "%u-bit keys move out of tables of c = 8 to 15 home slots per 2^k", bits);
    }
}

/* The cap tests' keys: of one word (one comparison a slot) and of 80
 * bits (16 kept verbatim, compared field by field), in buffers of 24
 * bytes. */
static const unsigned cap_widths[] = {64, 80};

/* How many of the n keys the table has. */
static uint64_t count_found(const ctable *ct, uint8_t (*keys)[24], uint64_t n)
{
    uint64_t found = 0;
    uint32_t v;
    for (uint64_t i = 0; i < n; i++)
        found += ctable_find(ct, keys[i], ctable_hash(ct, keys[i]), &v) == 1;
    return found;
}

/* A table of 8 homes for keys of bits bits: with so few homes, the last
 * one's probes reach the cap. */
static uint8_t *cap_table(ctable *ct, unsigned bits)
{
    ctable_shape(ct, bits / 8, bits, 0);
    return new_table(ct, 8);
}

/* Past the distance cap an insertion fails and changes nothing. */
static void test_full(unsigned bits)
{
    ctable ct;
    uint8_t *mem = cap_table(&ct, bits);
    static uint8_t keys[1000][24];
    uint8_t *key = keys[0];
    int r = 1;
    uint64_t tried = 0;
    while (mem && r != CTABLE_FULL && tried < 1000) {
        key = keys[tried++];
        random_key(key, bits / 8, bits);
        r = ctable_insert(&ct, key, ctable_hash(&ct, key), 0);
    }
    uint64_t count = ct.count;
    CHECK(r == CTABLE_FULL && count <= 8 + CTABLE_DIST_MAX + 2 && count >= 8,
          "%u-bit keys: 8 home slots take %llu keys, then say full", bits,
          (unsigned long long)count);
    uint32_t v;
    CHECK(ctable_find(&ct, key, ctable_hash(&ct, key), &v) == 0 && ct.count == count,
          "%u-bit keys: the refused key is not there", bits);
    /* a key put past the cap would have been written as an empty slot */
    uint64_t found = tried ? count_found(&ct, keys, tried - 1) : 0;
    CHECK(found == count, "%u-bit keys: all %llu keys taken are found (%llu)", bits,
          (unsigned long long)count, (unsigned long long)found);
    free(mem);
}

/* One home taking keys up to the cap: the last one fits at distance
 * CTABLE_DIST_MAX + 1, the next one's probe runs one slot further and is
 * refused, not written there as an empty slot. */
static void test_one_home_to_the_cap(unsigned bits)
{
    ctable ct;
    uint8_t *mem = cap_table(&ct, bits);
    static uint8_t keys[CTABLE_DIST_MAX + 2][24];
    unsigned n = 0;
    int ok = mem != NULL;
    while (ok && n < CTABLE_DIST_MAX + 2) {
        uint64_t home;
        random_key(keys[n], bits / 8, bits);
        (void)ctable_split(&ct, ctable_hash(&ct, keys[n]), &home);
        if (home != ct.m - 1)
            continue;
        int r = ctable_insert(&ct, keys[n], ctable_hash(&ct, keys[n]), 0);
        ok = n < CTABLE_DIST_MAX + 1 ? r == 1 : r == CTABLE_FULL;
        n++;
    }
    uint64_t found = count_found(&ct, keys, n);
    CHECK(ok && ct.count == CTABLE_DIST_MAX + 1 && found == CTABLE_DIST_MAX + 1,
          "%u-bit keys: one home takes %u keys, refuses the next, finds the %llu", bits,
          CTABLE_DIST_MAX + 1, (unsigned long long)found);
    free(mem);
}

/* ---- keys made to collide in all but one bit of their slot ---- */

static uint64_t inverse_odd(uint64_t a)
{
    uint64_t x = a;   /* Newton: each round doubles the bits that are right */
    for (int i = 0; i < 6; i++)
        x *= 2 - a * x;
    return x;
}

/* ctable_mix undone */
static uint64_t unmix(uint64_t h)
{
    h ^= h >> 33;
    h *= inverse_odd(CTABLE_MIX_MUL);
    h ^= h >> 33;
    return h;
}

/* A key of more than 64 bits whose x is x and whose bits past the first
 * 64 are those of hi (key_bytes + 8 bytes at k): ctable_hash mixes the
 * first word xor a hash of the rest, which a first word of 0 shows. */
static void key_of_x(const ctable *ct, uint8_t *k, const uint8_t *hi, uint64_t x)
{
    memset(k, 0, ct->key_bytes + 8);
    memcpy(k + 8, hi, ct->key_bytes - 8);
    uint64_t rest = unmix(ctable_hash(ct, k));
    uint64_t lo = unmix(x) ^ rest;
    memcpy(k, &lo, 8);
}

/* Two keys whose slots differ in one bit only, of the quotient or of the
 * verbatim part, wherever it lies in the slot (the first word, the
 * second, or further): the table tells them apart, both ways. */
static void test_one_bit_apart(void)
{
    static const unsigned widths[] = {80, 112, 128, 200};
    for (size_t w = 0; w < sizeof widths / sizeof *widths; w++) {
        unsigned bits = widths[w];
        ctable ct;
        ctable_shape(&ct, bits / 8, bits, 0xff);
        uint8_t *mem = new_table(&ct, 1024);
        int ok = mem != NULL, made = ok;
        unsigned pairs = 0;
        /* bits of the quotient above the 9 of j are bits of x, those of
         * the verbatim part bits of the key */
        for (unsigned i = 0; ok && i < ct.q_bits - 9 + ct.hi_bits; i++) {
            uint8_t hi[40] = {0}, hi2[40], a[48], b[48];
            for (size_t j = 0; j < ct.key_bytes - 8; j++)
                hi[j] = (uint8_t)next_rand();
            if (ct.hi_bits % 8)
                hi[ct.hi_bits / 8] &= (uint8_t)((1u << (ct.hi_bits % 8)) - 1);
            memcpy(hi2, hi, sizeof hi);
            uint64_t x = next_rand(), x2 = x;
            if (i < ct.q_bits - 9)
                x2 ^= UINT64_C(1) << i;
            else
                hi2[(i - (ct.q_bits - 9)) / 8] ^= (uint8_t)(1u << ((i - (ct.q_bits - 9)) % 8));
            key_of_x(&ct, a, hi, x);
            key_of_x(&ct, b, hi2, x2);
            uint64_t ha, hb;
            uint64_t qa = ctable_split(&ct, ctable_hash(&ct, a), &ha);
            uint64_t qb = ctable_split(&ct, ctable_hash(&ct, b), &hb);
            made = made && ctable_hash(&ct, a) == x && ctable_hash(&ct, b) == x2 && ha == hb &&
                   (i < ct.q_bits - 9 ? qa == (qb ^ (UINT64_C(1) << (i + 9))) : qa == qb);
            uint32_t v;
            ok = ctable_insert(&ct, a, x, 1) == 1 && ctable_find(&ct, b, x2, &v) == 0 &&
                 ctable_insert(&ct, b, x2, 2) == 1 && ctable_find(&ct, a, x, &v) == 1 &&
                 v == 1 && ctable_find(&ct, b, x2, &v) == 1 && v == 2;
            pairs++;
        }
        CHECK(made && ok && ct.count == 2 * pairs,
              "%u-bit keys (%zu-byte slots): %u pairs one bit apart in the quotient or the "
              "verbatim bits are told apart",
              bits, ct.slot_bytes, pairs);
        free(mem);
    }
}

int main(void)
{
    test_all_small_keys();
    test_random_keys();
    test_values_and_move();
    test_moves();
    test_move_every_c();
    test_one_bit_apart();
    for (size_t w = 0; w < sizeof cap_widths / sizeof *cap_widths; w++) {
        test_full(cap_widths[w]);
        test_one_home_to_the_cap(cap_widths[w]);
    }
    UNIT_DONE();
}
