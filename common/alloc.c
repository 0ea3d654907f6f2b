/* common/alloc.c: cache-line aligned, zeroed, capped allocation. */
#define _DEFAULT_SOURCE /* madvise, MADV_HUGEPAGE, posix_memalign */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "alloc.h"

#define FK_CACHE_LINE 64u

/* Tables from 4 MiB up are 2 MiB aligned and asked to be backed by huge
 * pages (Linux THP, where the system leaves it to madvise): a random probe
 * into a large table with 4 KiB pages misses the TLB almost every time, and
 * the page walk it waits for is one more dependent memory access; batches
 * (pipeline.h) cannot overlap their misses while walks queue. */
#define FK_HUGE_FROM (UINT64_C(4) << 20)
#define FK_HUGE_PAGE ((size_t)2 << 20)

/* Large bodies are not written here: a memset of a gigabyte costs seconds
 * and touches every page even if the filter never fills (a Redis server
 * blocks meanwhile). On Linux, MADV_DONTNEED on private anonymous memory
 * (what malloc hands out) drops the pages, and the next access to each
 * maps a fresh zero page: the zeroing is then paid page by page, when the
 * filter first uses it. posix_memalign's big blocks are fresh mappings
 * anyway; the call makes "zeroed" hold whatever the allocator reused.
 * Only the partial pages at both ends are written. Refused advice (another
 * system, an odd allocator) falls back to memset. */
#define FK_ZERO_BY_PAGES (UINT64_C(1) << 20)

static void zero(void *p, size_t bytes)
{
#if defined(__linux__) && defined(MADV_DONTNEED)
    long page_size = sysconf(_SC_PAGESIZE);
    uintptr_t page = page_size > 0 ? (uintptr_t)page_size : 0;
    uintptr_t lo = page ? ((uintptr_t)p + page - 1) & ~(page - 1) : 0;
    uintptr_t hi = page ? ((uintptr_t)p + bytes) & ~(page - 1) : 0;
    if (page && !(page & (page - 1)) && bytes >= FK_ZERO_BY_PAGES && hi > lo &&
        madvise((void *)lo, hi - lo, MADV_DONTNEED) == 0) {
        memset(p, 0, lo - (uintptr_t)p);
        memset((void *)hi, 0, (uintptr_t)p + bytes - hi);
        return;
    }
#endif
    memset(p, 0, bytes);
}

static fk_status alloc_zeroed(uint64_t bytes, bool eager, void **out)
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
    if (eager)
        memset(p, 0, rounded);
    else
        zero(p, rounded);
    *out = p;
    return FK_OK;
}

fk_status fk_alloc_zeroed(uint64_t bytes, void **out)
{
    return alloc_zeroed(bytes, false, out);
}

fk_status fk_alloc_zeroed_eager(uint64_t bytes, void **out)
{
    return alloc_zeroed(bytes, true, out);
}
