/* redis/value.h: what a filterkit key holds, and its byte encoding.
 *
 * One Redis data type ("filterkit") holds every filter. A value is a
 * filterkit filter plus the few RedisBloom settings the filter itself does
 * not record (which command family made it, NONSCALING, EXPANSION, ...).
 *
 * Encoding (RDB payload, AOF rewrite, COPY, DEBUG DIGEST), little-endian:
 *
 *   off size field
 *     0   4  magic "FKRV"
 *     4   1  encoding version (FKR_VALUE_VERSION)
 *     5   1  family (fkr_family)
 *     6   1  flags (FKR_FLAG_*; unknown bits are corruption)
 *     7   1  0
 *     8   4  expansion (as given to RESERVE; 0 = none)
 *    12   4  bucket size (CF, as given)
 *    16   4  max iterations (CF, as given)
 *    20   4  0
 *    24   8  items deleted (CF)
 *    32   8  capacity asked for at creation
 *    40   -  the filter, saved by fk_filter_save (filterkit's file format,
 *            with its own checksum)
 */
#ifndef FKR_VALUE_H
#define FKR_VALUE_H

#include <stddef.h>
#include <stdint.h>
#include "../registry/registry.h"

#define FKR_VALUE_MAGIC   "FKRV"
#define FKR_VALUE_VERSION 1u
#define FKR_VALUE_HEADER  40u

typedef enum {
    FKR_FAMILY_FK = 0, /* made by FK.RESERVE / FK.LOAD */
    FKR_FAMILY_BF = 1, /* made by BF.RESERVE / BF.ADD / BF.INSERT */
    FKR_FAMILY_CF = 2, /* made by CF.RESERVE / CF.ADD / CF.INSERT */
    FKR_FAMILY_COUNT
} fkr_family;

#define FKR_FLAG_NONSCALING 1u /* inserts past capacity answer "full" */

typedef struct {
    fk_filter *filter;      /* owned */
    uint8_t    family;      /* fkr_family */
    uint8_t    flags;       /* FKR_FLAG_* */
    uint32_t   expansion;
    uint32_t   bucket_size;
    uint32_t   max_iterations;
    uint64_t   deleted;
    uint64_t   capacity;
    /* Kept here because fk_filter_stats may scan the whole filter (a Bloom
     * filter counts its set bits): not encoded, taken from the stats when
     * the value is made and kept up to date by fkr_value_changed. */
    uint64_t   items;        /* successful inserts minus removes */
    uint64_t   memory_bytes; /* stats.memory_bytes */
    uint64_t   links;        /* a growing filter's sub-filters when memory_bytes
                                was taken (fkr_value_refresh) */
} fkr_value;

/* Wraps filter (ownership passes to the value) with zeroed settings.
 * Returns NULL when out of memory (filter is then freed). */
fkr_value *fkr_value_wrap(fk_filter *filter, fkr_family family, uint64_t capacity);

/* As fkr_value_wrap for a filter just made (0 items) whose size is known
 * (memory_bytes: the size slot's), without the stats, which may scan the
 * whole body (a Bloom filter counts its set bits: seconds for a GiB). */
fkr_value *fkr_value_wrap_new(fk_filter *filter, fkr_family family, uint64_t capacity,
                              uint64_t memory_bytes);

/* Records that a command inserted (+n) or removed (-n) n items, the
 * total kept within [0, UINT64_MAX]. O(1). */
void fkr_value_changed(fkr_value *v, int64_t items_delta);

/* Records that a merge added items (any uint64_t), saturating at
 * UINT64_MAX. O(1). */
void fkr_value_added(fkr_value *v, uint64_t items);

/* After a command's inserts: a kind that grows may have allocated, so its
 * memory is read again from its stats (a no-op for the others). */
void fkr_value_refresh(fkr_value *v);

/* Frees v and its filter. NULL is a no-op. */
void fkr_value_free(fkr_value *v);

/* Bytes fkr_value_encode writes, or 0 when the filter's kind cannot be
 * saved. O(1). */
size_t fkr_value_encoded_size(const fkr_value *v);

/* Writes exactly fkr_value_encoded_size(v) bytes to dst. FK_OK, or the
 * status of fk_filter_save. O(size). */
fk_status fkr_value_encode(const fkr_value *v, uint8_t *dst, size_t cap);

/* Builds a value from len bytes: either an encoded value (above) or a bare
 * filterkit record (family FK). Everything is checked before use; any
 * damage is FK_ECORRUPT and nothing is allocated or leaked. max_bytes caps
 * the filter's payload (FK_EINVAL above it). O(len). */
fk_status fkr_value_decode(const void *buf, size_t len, uint64_t max_bytes, fkr_value **out);

/* Bytes the value holds in memory: the filter's own plus the wrapper.
 * O(1). */
size_t fkr_value_memory(const fkr_value *v);

#endif
