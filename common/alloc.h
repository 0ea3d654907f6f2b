/* common/alloc.h: checked allocation for filter bodies. Internal header. */
#ifndef FK_ALLOC_H
#define FK_ALLOC_H

#include <stdint.h>
#include <stdlib.h>
#include "params.h"

/* Allocates `bytes` zeroed bytes aligned to a 64-byte cache line (from
 * 4 MiB up: to 2 MiB, with huge pages asked for; see alloc.c).
 * Returns FK_EINVAL when bytes is 0, above FK_MEMORY_CAP or above SIZE_MAX;
 * FK_ENOMEM when the allocation fails. *out is NULL on error.
 * Release with free(). */
fk_status fk_alloc_zeroed(uint64_t bytes, void **out);

/* The same allocation, zeroed by writing every byte rather than by
 * dropping whole pages: for a table about to be written from end to end
 * (a quotient merge's output), where memory the allocator hands back is
 * still mapped and a memset is cheaper than faulting every page in again.
 * Same returns and ownership as fk_alloc_zeroed. */
fk_status fk_alloc_zeroed_eager(uint64_t bytes, void **out);

#endif
