/* bigmem: zeroed memory for tables that are read at random, one cache
 * line a probe.  On 2 MiB pages such a line rarely costs a TLB miss too,
 * as it would on 4 KiB pages for a table far larger than the TLB covers;
 * and mapped memory is zeroed by the kernel page by page as it is first
 * touched, so a big table costs nothing to clear up front. */
#ifndef MCK_BIGMEM_H
#define MCK_BIGMEM_H

#include <stddef.h>

#define BIGMEM_HUGE_PAGE ((size_t)2 << 20)

/* size bytes, zeroed; NULL on no memory.  Whole huge pages are mapped
 * (and asked to be backed by huge pages); other sizes come from calloc. */
void *big_alloc(size_t size);
/* Frees what big_alloc(size) gave (NULL is fine). */
void big_free(void *p, size_t size);

#endif
