/* Benchmark (not a test): what a random access into a table of a given
 * size costs on this machine when it is prefetched ahead, as the explicit
 * search prefetches its table slots, with some work between accesses.
 * A state store of 10^6..10^7 states is tens of megabytes: each edge of
 * the search looks up one random slot, and this is the part of an edge's
 * time no code of the search can remove.  Built and run by
 * bench/memfloor.sh; prints ns per access for the table in and out of the
 * caches, the difference being the memory's share. */
#define _DEFAULT_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= UINT64_C(0xff51afd7ed558ccd);
    x ^= x >> 33;
    x *= UINT64_C(0xc4ceb9fe1a85ec53);
    return x ^ (x >> 33);
}

/* ns per access: n accesses to random lines of a table of `bytes`, each
 * prefetched `ahead` accesses earlier, `work` dependent multiplications
 * between two accesses; the table in huge pages, as the store's is. */
static double run(size_t bytes, unsigned ahead, unsigned work, size_t n)
{
    size_t huge = (size_t)2 << 20, len = bytes + huge;
    uint8_t *raw = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED)
        return -1;
    uint8_t *t = (uint8_t *)(((uintptr_t)raw + huge - 1) & ~(uintptr_t)(huge - 1));
#ifdef MADV_HUGEPAGE
    madvise(t, bytes, MADV_HUGEPAGE);
#endif
    memset(t, 1, bytes);
    size_t lines = bytes / 64;
    uint64_t sum = 0, w = 1;
    double start = now();
    for (size_t i = 0; i < n; i++) {
        if (ahead)
            __builtin_prefetch(t + mix(i + ahead) % lines * 64);
        for (unsigned k = 0; k < work; k++) {
            w = w * UINT64_C(6364136223846793005) + 1;
            __asm__ volatile("" : "+r"(w));
        }
        uint8_t *p = t + mix(i) % lines * 64;
        sum += p[0];
        p[1]++;
    }
    double ns = 1e9 * (now() - start) / (double)n;
    munmap(raw, len);
    return sum + w == 42 ? -1 : ns;   /* keeps the loop's loads */
}

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 20000000;
    static const size_t mb[] = {1, 26, 96};
    static const unsigned work[] = {0, 20, 50};
    printf("%8s %6s %12s %12s %12s\n", "table", "work", "no prefetch", "20 ahead", "memory");
    for (size_t i = 0; i < sizeof work / sizeof *work; i++) {
        double cached = run(mb[0] << 20, 20, work[i], n);
        for (size_t j = 0; j < sizeof mb / sizeof *mb; j++) {
            double cold = run(mb[j] << 20, 0, work[i], n);
            double warm = j ? run(mb[j] << 20, 20, work[i], n) : cached;
            printf("%5zu MB %6u %9.1f ns %9.1f ns %9.1f ns\n", mb[j], work[i], cold, warm,
                   warm - cached);
        }
    }
    return 0;
}
