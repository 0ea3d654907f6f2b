/* common/alloc.c: cache-line aligned, zeroed, capped allocation. */
#include <string.h>
#include "alloc.h"

#define FK_CACHE_LINE 64u

fk_status fk_alloc_zeroed(uint64_t bytes, void **out)
{
    *out = NULL;
    if (bytes == 0 || bytes > FK_MEMORY_CAP || bytes > SIZE_MAX - FK_CACHE_LINE)
        return FK_EINVAL;
    /* aligned_alloc wants a multiple of the alignment. */
    size_t rounded = (size_t)((bytes + FK_CACHE_LINE - 1) & ~(uint64_t)(FK_CACHE_LINE - 1));
    void *p = aligned_alloc(FK_CACHE_LINE, rounded);
    if (!p)
        return FK_ENOMEM;
    memset(p, 0, rounded);
    *out = p;
    return FK_OK;
}
