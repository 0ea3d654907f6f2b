/* blocked/blocked_batch.c: the blocked filter's batches (common/pipeline.h):
 * hash a window of keys, prefetch each key's block (one line), then set or
 * test the window's blocks on the filter's own path (AVX2 or scalar, the
 * one its single-key calls take, so the bits are the same) while the next
 * window's blocks arrive. */
#include <string.h>
#include "blocked_internal.h"
#include "../common/pipeline.h"

/* The hash of key i: given (pre[i].lo, common/hashed.h), bytes, or the
 * integer ints[i] (the hash of its 8 little-endian bytes), under Parquet's
 * scheme when parquet (b's, read once a window); callers pass the ones
 * they do not use as NULL constants. */
static inline uint64_t hash_of(const fk_blocked *b, bool parquet, const void *const keys[],
                               const size_t lens[], const uint64_t ints[], const fk_hash128 pre[],
                               size_t i)
{
    if (pre)
        return pre[i].lo;
    if (parquet)
        return keys ? fk_blocked_parquet_hash(keys[i], lens[i]) : fk_blocked_parquet_hash8(ints[i]);
    if (!keys)
        return fk_hash8_64(ints[i], b->hash8);
    return fk_blocked_hash_of(b, keys[i], lens[i]);
}

/* Hashes keys [start, start + span) into h[] under Parquet's scheme when
 * parquet (a constant in each caller: one loop per scheme, no test per
 * key) and prefetches their blocks (not for a table that stays in cache). */
static inline void hash_window_as(const fk_blocked *b, bool parquet, uint64_t h[],
                                  const void *const keys[], const size_t lens[],
                                  const uint64_t ints[], const fk_hash128 pre[], size_t start,
                                  size_t span, bool write)
{
    const bool prefetch = fk_batch_prefetches(b->blocks * FK_BLOCKED_BLOCK_BYTES);
    for (size_t j = 0; j < span; j++) {
        h[j] = hash_of(b, parquet, keys, lens, ints, pre, start + j);
        if (!prefetch)
            continue;
        const uint32_t *block = fk_blocked_block_ptr(b, h[j]);
        if (write)
            FK_PREFETCH_WRITE(block);
        else
            FK_PREFETCH_READ(block);
    }
}

static inline void hash_window(const fk_blocked *b, uint64_t h[], const void *const keys[],
                               const size_t lens[], const uint64_t ints[],
                               const fk_hash128 pre[], size_t start, size_t span, bool write)
{
    if (fk_blocked_parquet_scheme(b))
        hash_window_as(b, true, h, keys, lens, ints, pre, start, span, write);
    else
        hash_window_as(b, false, h, keys, lens, ints, pre, start, span, write);
}

/* Tests (out != NULL) or sets one window of hashed keys on b's path. */
static inline void probe_window(fk_blocked *wb, const fk_blocked *b, size_t span,
                                const uint64_t h[], bool out[])
{
#if FK_CPU_X86
    if (b->path == FK_BLOCKED_PATH_AVX2) {
        if (out)
            fk_blocked_test_hashes_avx2(b, span, h, out);
        else
            fk_blocked_set_hashes_avx2(wb, span, h);
        return;
    }
#endif
    for (size_t j = 0; j < span; j++) {
        if (out)
            out[j] = fk_blocked_test_scalar(b, h[j]);
        else
            fk_blocked_set_scalar(wb, h[j]);
    }
}

/* One batch (common/pipeline.h's fk_batch_run): lookups when out is not
 * NULL (wb NULL), else inserts into wb (== b). Inserts never fail. */
typedef struct {
    fk_blocked        *wb;
    const fk_blocked  *b;
    const void *const *keys;
    const size_t      *lens;
    const uint64_t    *ints;
    const fk_hash128  *pre;
    bool              *out;
    uint64_t         (*h)[FK_BATCH_WINDOW]; /* the two windows */
} batch;

static inline void window_step(void *ctx, unsigned slot, size_t start, size_t span)
{
    batch *x = ctx;
    hash_window(x->b, x->h[slot], x->keys, x->lens, x->ints, x->pre, start, span, !x->out);
}

static inline size_t probe_step(void *ctx, unsigned slot, size_t start, size_t span,
                                fk_status *s)
{
    batch *x = ctx;
    (void)s;
    probe_window(x->wb, x->b, span, x->h[slot], x->out ? x->out + start : NULL);
    return span;
}

static inline void run(fk_blocked *wb, const fk_blocked *b, size_t n, const void *const keys[],
                       const size_t lens[], const uint64_t ints[], const fk_hash128 pre[],
                       bool out[])
{
    uint64_t h[2][FK_BATCH_WINDOW];
    batch x = { .wb = wb, .b = b, .keys = keys, .lens = lens, .ints = ints, .pre = pre,
                .out = out, .h = h };
    size_t done;
    (void)fk_batch_run(&x, n, window_step, probe_step, &done);
}

/* ---------------------------------------- the fk_ops slots (blocked.c's table)
 *
 * The dispatchers (common/batch.c) have checked every argument and key,
 * and pass a non-NULL done. */

FK_HOT void fk_blocked_slot_contains_many(const fk_filter *f, size_t n, const void *const keys[],
                                          const size_t lens[], bool out[])
{
    run(NULL, (const fk_blocked *)f, n, keys, lens, NULL, NULL, out);
}

FK_HOT fk_status fk_blocked_slot_insert_many(fk_filter *f, size_t n, const void *const keys[],
                                             const size_t lens[], size_t *done)
{
    run((fk_blocked *)f, (const fk_blocked *)f, n, keys, lens, NULL, NULL, NULL);
    *done = n;
    return FK_OK;
}

FK_HOT void fk_blocked_slot_contains_many_u64(const fk_filter *f, size_t n, const uint64_t keys[],
                                              bool out[])
{
    run(NULL, (const fk_blocked *)f, n, NULL, NULL, keys, NULL, out);
}

FK_HOT fk_status fk_blocked_slot_insert_many_u64(fk_filter *f, size_t n, const uint64_t keys[],
                                                 size_t *done)
{
    run((fk_blocked *)f, (const fk_blocked *)f, n, NULL, NULL, keys, NULL, NULL);
    *done = n;
    return FK_OK;
}

FK_HOT void fk_blocked_contains_many_hashed(const fk_filter *f, size_t n, const fk_hash128 h[],
                                            bool out[])
{
    run(NULL, (const fk_blocked *)f, n, NULL, NULL, NULL, h, out);
}
