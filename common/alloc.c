/* common/alloc.c: cache-line aligned, zeroed, capped allocation. */
#define _DEFAULT_SOURCE /* madvise, MADV_HUGEPAGE */
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
    /* aligned_alloc wants a multiple of the alignment. */
    size_t align = bytes >= FK_HUGE_FROM ? FK_HUGE_PAGE : FK_CACHE_LINE;
    size_t rounded = (size_t)((bytes + align - 1) & ~(uint64_t)(align - 1));
    void *p = aligned_alloc(align, rounded);
    if (!p)
        return FK_ENOMEM;
#ifdef MADV_HUGEPAGE
    if (align == FK_HUGE_PAGE)
        (void)madvise(p, rounded, MADV_HUGEPAGE); /* a hint: refused is fine */
#endif
    memset(p, 0, rounded);
    *out = p;
    return FK_OK;
}
