#include "engine/bigmem.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

void *big_alloc(size_t size)
{
    if (size < BIGMEM_HUGE_PAGE || size % BIGMEM_HUGE_PAGE)
        return calloc(1, size);
    size_t len = size + BIGMEM_HUGE_PAGE;
    uint8_t *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    uint8_t *a = (uint8_t *)(((uintptr_t)p + BIGMEM_HUGE_PAGE - 1) &
                             ~(uintptr_t)(BIGMEM_HUGE_PAGE - 1));
    if (a > p)
        munmap(p, (size_t)(a - p));
    if (p + len > a + size)
        munmap(a + size, (size_t)(p + len - (a + size)));
#ifdef MADV_HUGEPAGE
    madvise(a, size, MADV_HUGEPAGE);
#endif
    return a;
}

void big_free(void *p, size_t size)
{
    if (!p)
        return;
    if (size < BIGMEM_HUGE_PAGE || size % BIGMEM_HUGE_PAGE)
        free(p);
    else
        munmap(p, size);
}
