/* common/alloc.c: cache-line aligned, zeroed, capped allocation. */
#define _DEFAULT_SOURCE /* madvise, MADV_HUGEPAGE, posix_memalign */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "alloc.h"

#define FK_CACHE_LINE 64u

/* Tables from 4 MiB up are 2 MiB aligned and asked to be backed by huge
 * pages (Linux THP, where the system leaves it to madvise): a random probe
 * into a large table with 4 KiB pages misses the TLB almost every time, and
 * the page walk it waits for is one more dependent memory access; batches
 * (pipeline.h) cannot overlap their misses while walks queue. */
#define FK_HUGE_FROM (UINT64_C(4) << 20)
#define FK_HUGE_PAGE ((size_t)2 << 20)

fk_status fk_alloc_zeroed(uint64_t bytes, void **out)
{
    *out = NULL;
    if (bytes == 0 || bytes > FK_MEMORY_CAP || bytes > SIZE_MAX - FK_CACHE_LINE)
        return FK_EINVAL;
    /* Whole cache lines; the alignment does not round the size up (a 5 MiB
     * table must not hold 6), hence posix_memalign, which, unlike C11's
     * aligned_alloc, takes any size. */
    size_t align = bytes >= FK_HUGE_FROM ? FK_HUGE_PAGE : FK_CACHE_LINE;
    size_t rounded = (size_t)((bytes + FK_CACHE_LINE - 1) & ~(uint64_t)(FK_CACHE_LINE - 1));
    void *p = NULL;
    if (posix_memalign(&p, align, rounded) != 0)
        return FK_ENOMEM;
#ifdef MADV_HUGEPAGE
    if (align == FK_HUGE_PAGE)
        (void)madvise(p, rounded, MADV_HUGEPAGE); /* a hint: refused is fine */
#endif
    memset(p, 0, rounded);
    *out = p;
    return FK_OK;
}
