/* strmap: many keys through several doublings, duplicates, the empty key,
 * lengths without a NUL, keys that share their first slot, and a doubling
 * that finds no memory. */
#include "base/strmap.h"
#include "unit.h"

#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define UNDER_SANITIZER 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_SANITIZER 1
#endif

/* n keys "k0", "k1", ...; one block, freed by the caller */
static char **make_keys(size_t n, const char *prefix)
{
    char **k = malloc(n * sizeof *k);
    char *text = malloc(n * 24);
    if (!k || !text) {
        free(k);
        free(text);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        k[i] = text + 24 * i;
        snprintf(k[i], 24, "%s%zu", prefix, i);
    }
    return k;
}

static void free_keys(char **k)
{
    if (k)
        free(k[0]);
    free(k);
}

static int is_power_of_two(size_t x)
{
    return x && !(x & (x - 1));
}

static void test_empty(void)
{
    strmap m = {0};
    CHECK(strmap_find(&m, "a") == -1, "empty map: nothing found");
    CHECK(strmap_find(&m, NULL) == -1, "empty map: NULL key not found");
    CHECK(strmap_find_n(&m, "a", 1) == -1, "empty map: find_n finds nothing");
    strmap_free(&m);
    CHECK(m.cap == 0 && m.used == 0 && !m.keys, "freeing an empty map");
}

static void test_many(void)
{
    enum { N = 100000 };
    char **k = make_keys(N, "k");
    if (!k) {
        SKIP("many keys: no memory for the keys");
        return;
    }
    strmap m = {0};
    int added = 1, shape = 1, found = 1;
    size_t doublings = 0, last_cap = 0;
    for (size_t i = 0; i < N; i++) {
        uint32_t v = (uint32_t)(3 * i);
        added &= strmap_insert(&m, k[i], &v) == 1 && v == 3 * i;
        if (m.cap != last_cap) {
            doublings++;
            shape &= is_power_of_two(m.cap) && (last_cap == 0 || m.cap == 2 * last_cap);
            last_cap = m.cap;
            /* what was there before the doubling is still found */
            for (size_t j = 0; j <= i; j++)
                found &= strmap_find(&m, k[j]) == (int64_t)(3 * j);
        }
        shape &= m.cap >= 2 * m.used;
    }
    CHECK(added, "many keys: all %d added with their values", N);
    CHECK(m.used == N, "many keys: used is %d", N);
    CHECK(shape, "many keys: the capacity doubles, a power of two, at least twice used");
    CHECK(doublings > 10, "many keys: %zu doublings", doublings);
    CHECK(found, "many keys: every key found after every doubling");
    found = 1;
    for (size_t i = 0; i < N; i++)
        found &= strmap_find(&m, k[i]) == (int64_t)(3 * i) &&
                 strmap_find_n(&m, k[i], strlen(k[i])) == (int64_t)(3 * i);
    CHECK(found, "many keys: find and find_n give every value");
    CHECK(strmap_find(&m, "k100000") == -1 && strmap_find(&m, "x1") == -1 &&
          strmap_find(&m, "k") == -1, "many keys: absent keys not found");

    /* duplicates: an equal string at another address is the same key */
    char again[24];
    int dup = 1;
    for (size_t i = 0; i < N; i += 7) {
        snprintf(again, sizeof again, "k%zu", i);
        uint32_t v = 1;
        dup &= strmap_insert(&m, again, &v) == 0 && v == 3 * i;
    }
    CHECK(dup, "duplicates: not added, the first value given back");
    CHECK(m.used == N && strmap_find(&m, "k7") == 21, "duplicates: the map is unchanged");
    strmap_free(&m);
    free_keys(k);
}

static void test_empty_string_and_lengths(void)
{
    strmap m = {0};
    uint32_t v = 5;
    CHECK(strmap_insert(&m, "", &v) == 1, "empty string: added");
    CHECK(strmap_find(&m, "") == 5 && strmap_find_n(&m, "xyz", 0) == 5,
          "empty string: found, also as zero bytes of another string");
    v = 6;
    CHECK(strmap_insert(&m, "", &v) == 0 && v == 5, "empty string: a duplicate");
    v = 7;
    strmap_insert(&m, "abc", &v);
    CHECK(strmap_find_n(&m, "abcd", 3) == 7, "find_n: a prefix of a longer text");
    CHECK(strmap_find_n(&m, "abc", 2) == -1, "find_n: a prefix of a key is not the key");
    CHECK(strmap_find_n(&m, "abcd", 4) == -1, "find_n: a longer text is not the key");
    /* the NUL is among the bytes looked for: no match, and no read past
     * the stored key (AddressSanitizer would tell) */
    CHECK(strmap_find_n(&m, "abc\0d", 5) == -1 && strmap_find_n(&m, "\0", 1) == -1,
          "find_n: bytes with a NUL match no key");
    strmap_free(&m);
}

/* Keys whose hashes agree in the low 16 bits, all ones: they share their
 * first slot in every table up to 65536 slots, which is the last slot, so
 * their probes also wrap around to the front. */
static void test_shared_slot(void)
{
    enum { N = 40 };
    static char keys[N][24];
    size_t n = 0;
    for (uint32_t i = 0; n < N && i < 100000000u; i++) {
        snprintf(keys[n], sizeof keys[n], "c%u", i);
        if ((strmap_hash(keys[n], strlen(keys[n])) & 0xffff) == 0xffff)
            n++;
    }
    if (n < N) {
        SKIP("shared first slot: too few keys found");
        return;
    }
    strmap m = {0};
    int ok = 1;
    for (size_t i = 0; i < N; i++) {
        uint32_t v = (uint32_t)i;
        ok &= strmap_insert(&m, keys[i], &v) == 1;
        for (size_t j = 0; j <= i; j++)
            ok &= strmap_find(&m, keys[j]) == (int64_t)j;
    }
    CHECK(ok, "shared first slot: %d keys added and found at every size", N);
    CHECK(m.cap <= 0x10000 && m.keys[m.cap - 1] && m.keys[0],
          "shared first slot: the probes wrap from the last slot to the first");
    int dup = 1;
    for (size_t i = 0; i < N; i++) {
        uint32_t v = 99;
        dup &= strmap_insert(&m, keys[i], &v) == 0 && v == i;
    }
    CHECK(dup && m.used == N, "shared first slot: duplicates found along the probe");
    char absent[24];
    snprintf(absent, sizeof absent, "%s", keys[0]);
    absent[0] = 'd';
    CHECK(strmap_find(&m, absent) == -1, "shared first slot: an absent key not found");
    strmap_free(&m);
}

/* A doubling with the address space capped just above what is in use: the
 * insert fails, and the map is as it was. */
#ifdef UNDER_SANITIZER
static void test_no_memory(void)
{
    SKIP("no memory: a sanitizer's shadow memory needs the address space");
}
#else
/* Virtual memory in use now, in bytes; 0 when unknown. */
static size_t vm_bytes(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long pages = 0;
    if (!f)
        return 0;
    if (fscanf(f, "%lu", &pages) != 1)
        pages = 0;
    fclose(f);
    long page = sysconf(_SC_PAGESIZE);
    return page > 0 ? (size_t)pages * (size_t)page : 0;
}

static void test_no_memory(void)
{
    enum { N = 1 << 16 };   /* the table then has 2^17 slots, full to half */
    char **k = make_keys(N + 1, "m");
    struct rlimit old;
    if (!k || getrlimit(RLIMIT_AS, &old) < 0) {
        free_keys(k);
        SKIP("no memory: no keys or no limit to read");
        return;
    }
    strmap m = {0};
    for (size_t i = 0; i < N; i++) {
        uint32_t v = (uint32_t)i;
        strmap_insert(&m, k[i], &v);
    }
    size_t cap = m.cap, used = m.used;
    const char **keys = m.keys;
    size_t vm = vm_bytes();
    /* the doubling asks for 3 MB; leave 256 KB */
    struct rlimit low = { vm + (256u << 10), old.rlim_max };
    if (cap != 2 * N || !vm || setrlimit(RLIMIT_AS, &low) < 0) {
        strmap_free(&m);
        free_keys(k);
        SKIP("no memory: cannot cap the address space");
        return;
    }
    uint32_t v = N;
    int r = strmap_insert(&m, k[N], &v);
    setrlimit(RLIMIT_AS, &old);
    CHECK(r == -1, "no memory: the insert fails");
    int same = m.cap == cap && m.used == used && m.keys == keys && strmap_find(&m, k[N]) == -1;
    for (size_t i = 0; i < N; i++)
        same &= strmap_find(&m, k[i]) == (int64_t)i;
    CHECK(same, "no memory: the map is unchanged");
    v = N;
    CHECK(strmap_insert(&m, k[N], &v) == 1 && strmap_find(&m, k[N]) == N,
          "no memory: with memory again the insert works");
    strmap_free(&m);
    free_keys(k);
}
#endif

int main(void)
{
    test_empty();
    test_many();
    test_empty_string_and_lengths();
    test_shared_slot();
    test_no_memory();
    UNIT_DONE();
}
