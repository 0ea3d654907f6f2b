/* bloom/bloom_batch.c: the Bloom filter's batches (common/pipeline.h):
 * hash a window of keys, prefetch the lines of their probes, then set or
 * test them (bloom_internal.h's fk_bloom_set_probes / _test_probes, the
 * single-key calls' own code) while the next window's lines arrive. */
#include <string.h>
#include "bloom_internal.h"
#include "../common/pipeline.h"

/* The hash of key i: bytes, or the integer ints[i] (the hash of its 8
 * little-endian bytes, on the constant-length path). The callers pass ints
 * NULL or keys NULL as constants, so each pipeline below keeps one
 * branch-free form. */
static inline fk_probe probe_of(const fk_bloom *b, const void *const keys[], const size_t lens[],
                                const uint64_t ints[], size_t i)
{
    if (!keys)
        return fk_probe_start(fk_hash8_128(ints[i], b->hash8));
    return fk_probe_start(fk_bloom_hash(b, keys[i], lens[i]));
}

/* Hashes keys [start, start + span) into pr[] and prefetches the lines of
 * their first `lines` probes, for writing when `write`. */
static inline void hash_window(const fk_bloom *b, fk_probe pr[], const void *const keys[],
                               const size_t lens[], const uint64_t ints[], size_t start,
                               size_t span, uint32_t lines, bool write)
{
    for (size_t j = 0; j < span; j++) {
        pr[j] = probe_of(b, keys, lens, ints, start + j);
        fk_probe walk = pr[j];
        for (uint32_t i = 0; i < lines; i++) {
            const uint64_t *line = b->bits + (fk_probe_next(&walk, b->m) >> 6);
            if (write)
                FK_PREFETCH_WRITE(line);
            else
                FK_PREFETCH_READ(line);
        }
    }
}

/* Bloom tables from FK_CACHE_BLOOM_PREFETCH_L2S times the core's L2 up
 * are prefetched (common/cache.h; 8 MiB on a 1 MiB-L2 machine, where a
 * 10^7-key table, 12 MB, gained nothing from batching under the former
 * fixed 32 MiB); lookups of them run in stages (fk_batch_lookup_staged:
 * the first FK_BLOOM_GROUP probes' lines, then the rest for the keys that
 * passed). The answers are the same either way. */
static inline bool prefetches(const fk_bloom *b)
{
    return b->words * 8 >= fk_cache_l2s(FK_CACHE_BLOOM_PREFETCH_L2S);
}

/* Lines prefetched per key for an insert: all k, none for a table that
 * stays in cache. */
static inline uint32_t insert_lines(const fk_bloom *b)
{
    return prefetches(b) ? b->k : 0;
}

/* The AND of the next `count` probes' bits (bit 0 of the result),
 * advancing *pr: how fk_bloom_test_probes reads them, in any grouping, since
 * a key is "maybe present" exactly when all k bits are set. */
static inline uint64_t test_next(const fk_bloom *b, fk_probe *pr, uint32_t count)
{
    uint64_t all = 1;
    for (uint32_t i = 0; i < count; i++) {
        uint64_t pos = fk_probe_next(pr, b->m);
        all &= fk_load64(&b->bits[pos >> 6]) >> (pos & 63);
    }
    return all & 1;
}

static inline void prefetch_next(const fk_bloom *b, fk_probe pr, uint32_t count)
{
    for (uint32_t i = 0; i < count; i++)
        FK_PREFETCH_READ(b->bits + (fk_probe_next(&pr, b->m) >> 6));
}

/* The steps fk_batch_lookup_staged (common/pipeline.h) runs for
 * lookups of a table out of cache. */
static void staged_hash(const void *f, fk_probe pr[], const void *const keys[], const size_t lens[],
                        const uint64_t ints[], size_t start, size_t span, uint32_t lines)
{
    hash_window((const fk_bloom *)f, pr, keys, lens, ints, start, span, lines, false);
}

static uint64_t staged_test(const void *f, fk_probe *pr, uint32_t count)
{
    return test_next((const fk_bloom *)f, pr, count);
}

static void staged_prefetch(const void *f, fk_probe pr, uint32_t count)
{
    prefetch_next((const fk_bloom *)f, pr, count);
}

static inline void lookup_staged(const fk_bloom *b, size_t n, const void *const keys[],
                                 const size_t lens[], const uint64_t ints[], bool out[])
{
    fk_batch_lookup_staged(b, b->k, FK_BLOOM_GROUP, n, keys, lens, ints, out, staged_hash,
                           staged_test, staged_prefetch);
}

static inline void lookup_run(const fk_bloom *b, size_t n, const void *const keys[],
                              const size_t lens[], const uint64_t ints[], bool out[])
{
    if (n > 0 && prefetches(b)) {
        lookup_staged(b, n, keys, lens, ints, out);
        return;
    }
    /* in cache: no prefetching, just the hash inlined and no call per key */
    for (size_t i = 0; i < n; i++)
        out[i] = fk_bloom_test_probes(b, probe_of(b, keys, lens, ints, i));
}

/* ------------------------------------- lookups of hashes (common/hashed.h)
 *
 * The same staged pipeline, its hash step reading the hashes given: the
 * steps get this pair as their `f`. */
typedef struct {
    const fk_bloom   *b;
    const fk_hash128 *h;
} hashed_batch;

static void hashed_staged_hash(const void *ctx, fk_probe pr[], const void *const keys[],
                               const size_t lens[], const uint64_t ints[], size_t start,
                               size_t span, uint32_t lines)
{
    const hashed_batch *hb = ctx;
    (void)keys, (void)lens, (void)ints;
    for (size_t j = 0; j < span; j++) {
        pr[j] = fk_probe_start(hb->h[start + j]);
        prefetch_next(hb->b, pr[j], lines);
    }
}

static uint64_t hashed_staged_test(const void *ctx, fk_probe *pr, uint32_t count)
{
    return test_next(((const hashed_batch *)ctx)->b, pr, count);
}

static void hashed_staged_prefetch(const void *ctx, fk_probe pr, uint32_t count)
{
    prefetch_next(((const hashed_batch *)ctx)->b, pr, count);
}

FK_HOT void fk_bloom_contains_many_hashed(const fk_filter *f, size_t n, const fk_hash128 h[],
                                          bool out[])
{
    const fk_bloom *b = (const fk_bloom *)f;
    if (n > 0 && prefetches(b)) {
        const hashed_batch hb = { b, h };
        fk_batch_lookup_staged(&hb, b->k, FK_BLOOM_GROUP, n, NULL, NULL, NULL, out,
                               hashed_staged_hash, hashed_staged_test, hashed_staged_prefetch);
        return;
    }
    for (size_t i = 0; i < n; i++)
        out[i] = b->lookup_hashed(f, h[i]);
}

/* Inserts (common/pipeline.h's fk_batch_run); they never fail: every key
 * goes in. */
typedef struct {
    fk_bloom          *b;
    const void *const *keys;
    const size_t      *lens;
    const uint64_t    *ints;
    fk_probe         (*pr)[FK_BATCH_WINDOW]; /* the two windows */
} insert_batch;

static inline void insert_window_step(void *ctx, unsigned slot, size_t start, size_t span)
{
    insert_batch *x = ctx;
    hash_window(x->b, x->pr[slot], x->keys, x->lens, x->ints, start, span, insert_lines(x->b),
                true);
}

static inline size_t insert_probe_step(void *ctx, unsigned slot, size_t start, size_t span,
                                       fk_status *s)
{
    insert_batch *x = ctx;
    (void)start, (void)s;
    for (size_t j = 0; j < span; j++)
        fk_bloom_set_probes(x->b, x->pr[slot][j]);
    return span;
}

static inline void insert_run(fk_bloom *b, size_t n, const void *const keys[],
                              const size_t lens[], const uint64_t ints[])
{
    fk_probe pr[2][FK_BATCH_WINDOW];
    insert_batch x = { .b = b, .keys = keys, .lens = lens, .ints = ints, .pr = pr };
    size_t done;
    (void)fk_batch_run(&x, n, insert_window_step, insert_probe_step, &done);
}

/* ---------------------------------------- the fk_ops slots (bloom.c's table)
 *
 * The dispatchers (common/batch.c) have checked every argument and key,
 * and pass a non-NULL done. */

FK_HOT void fk_bloom_slot_contains_many(const fk_filter *f, size_t n, const void *const keys[],
                                        const size_t lens[], bool out[])
{
    lookup_run((const fk_bloom *)f, n, keys, lens, NULL, out);
}

FK_HOT fk_status fk_bloom_slot_insert_many(fk_filter *f, size_t n, const void *const keys[],
                                           const size_t lens[], size_t *done)
{
    insert_run((fk_bloom *)f, n, keys, lens, NULL);
    *done = n;
    return FK_OK;
}

FK_HOT void fk_bloom_slot_contains_many_u64(const fk_filter *f, size_t n, const uint64_t keys[],
                                            bool out[])
{
    lookup_run((const fk_bloom *)f, n, NULL, NULL, keys, out);
}

FK_HOT fk_status fk_bloom_slot_insert_many_u64(fk_filter *f, size_t n, const uint64_t keys[],
                                               size_t *done)
{
    insert_run((fk_bloom *)f, n, NULL, NULL, keys);
    *done = n;
    return FK_OK;
}
