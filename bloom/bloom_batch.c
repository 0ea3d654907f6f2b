/* bloom/bloom_batch.c: the Bloom filter's batches (common/pipeline.h):
 * hash a window of keys, prefetch the lines of their probes, then set or
 * test them (bloom_internal.h's fk_bloom_set_probes / _test_probes, the
 * single-key calls' own code) while the next window's lines arrive. */
#include <string.h>
#include "bloom_internal.h"
#include "../common/pipeline.h"

/* The hash of key i: bytes, or the 8 little-endian bytes of ints[i]. The
 * callers pass ints NULL or keys NULL as constants, so each pipeline
 * below keeps one branch-free form. */
static inline fk_probe probe_of(const fk_bloom *b, const void *const keys[], const size_t lens[],
                                const uint64_t ints[], size_t i)
{
    if (ints) {
        uint8_t le[8];
        fk_batch_le8(le, ints[i]);
        return fk_probe_start(fk_hash_key(le, sizeof le, b->seed));
    }
    return fk_probe_start(fk_hash_key(keys[i], lens[i], b->seed));
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

/* Lines prefetched per key: none for a table that stays in cache; for a
 * lookup, those of its first group of probes (most negative lookups stop
 * there; asking for all k measured slower at 10^8 keys, the extra lines
 * crowding out the next keys' first ones); for an insert all k. */
static inline uint32_t lookup_lines(const fk_bloom *b)
{
    if (!fk_batch_prefetches(b->words * 8))
        return 0;
    return b->k < FK_BLOOM_GROUP ? b->k : FK_BLOOM_GROUP;
}

static inline uint32_t insert_lines(const fk_bloom *b)
{
    return fk_batch_prefetches(b->words * 8) ? b->k : 0;
}

static inline void lookup_run(const fk_bloom *b, size_t n, const void *const keys[],
                              const size_t lens[], const uint64_t ints[], bool out[])
{
    fk_probe pr[2][FK_BATCH_WINDOW];
    unsigned cur = 0;
    if (n > 0)
        hash_window(b, pr[0], keys, lens, ints, 0, fk_batch_span(0, n), lookup_lines(b), false);
    for (size_t start = 0; start < n; start += FK_BATCH_WINDOW, cur ^= 1) {
        size_t next = start + FK_BATCH_WINDOW;
        if (next < n)
            hash_window(b, pr[cur ^ 1], keys, lens, ints, next, fk_batch_span(next, n),
                        lookup_lines(b), false);
        size_t span = fk_batch_span(start, n);
        for (size_t j = 0; j < span; j++)
            out[start + j] = fk_bloom_test_probes(b, pr[cur][j]);
    }
}

/* Inserts never fail: every key goes in. */
static inline void insert_run(fk_bloom *b, size_t n, const void *const keys[],
                              const size_t lens[], const uint64_t ints[])
{
    fk_probe pr[2][FK_BATCH_WINDOW];
    unsigned cur = 0;
    if (n > 0)
        hash_window(b, pr[0], keys, lens, ints, 0, fk_batch_span(0, n), insert_lines(b), true);
    for (size_t start = 0; start < n; start += FK_BATCH_WINDOW, cur ^= 1) {
        size_t next = start + FK_BATCH_WINDOW;
        if (next < n)
            hash_window(b, pr[cur ^ 1], keys, lens, ints, next, fk_batch_span(next, n),
                        insert_lines(b), true);
        size_t span = fk_batch_span(start, n);
        for (size_t j = 0; j < span; j++)
            fk_bloom_set_probes(b, pr[cur][j]);
    }
}

/* ------------------------------------------- pipelines, one per key form */

FK_HOT static void contains_bytes(const void *f, size_t n, const void *const keys[],
                                  const size_t lens[], bool out[])
{
    lookup_run(f, n, keys, lens, NULL, out);
}

FK_HOT static fk_status insert_bytes(void *f, size_t n, const void *const keys[],
                                     const size_t lens[], size_t *done)
{
    insert_run(f, n, keys, lens, NULL);
    *done = n;
    return FK_OK;
}

FK_HOT static void contains_ints(const fk_bloom *b, size_t n, const uint64_t keys[], bool out[])
{
    lookup_run(b, n, NULL, NULL, keys, out);
}

FK_HOT static void insert_ints(fk_bloom *b, size_t n, const uint64_t keys[])
{
    insert_run(b, n, NULL, NULL, keys);
}

/* ------------------------------------------------------- the direct API */

void fk_bloom_contains_many(const fk_bloom *b, size_t n, const void *const keys[],
                            const size_t lens[], bool out[])
{
    fk_batch_lookup(b, n, keys, lens, out, contains_bytes);
}

fk_status fk_bloom_insert_many(fk_bloom *b, size_t n, const void *const keys[],
                               const size_t lens[], size_t *done)
{
    return fk_batch_write(b, n, keys, lens, done, insert_bytes);
}

void fk_bloom_contains_many_u64(const fk_bloom *b, size_t n, const uint64_t keys[], bool out[])
{
    if (!out || n == 0)
        return;
    if (!b || !keys) {
        memset(out, 0, n * sizeof out[0]);
        return;
    }
    contains_ints(b, n, keys, out);
}

fk_status fk_bloom_insert_many_u64(fk_bloom *b, size_t n, const uint64_t keys[], size_t *done)
{
    if (done)
        *done = 0;
    if (!b || (n > 0 && !keys))
        return FK_EINVAL;
    insert_ints(b, n, keys);
    if (done)
        *done = n;
    return FK_OK;
}

/* ---------------------------------------- the fk_ops slots (bloom_ops.c)
 *
 * The dispatchers (common/batch.c) have checked every argument and key. */

void fk_bloom_ops_contains_many(const fk_filter *f, size_t n, const void *const keys[],
                                const size_t lens[], bool out[])
{
    contains_bytes(f, n, keys, lens, out);
}

fk_status fk_bloom_ops_insert_many(fk_filter *f, size_t n, const void *const keys[],
                                   const size_t lens[], size_t *done)
{
    size_t did;
    fk_status s = insert_bytes(f, n, keys, lens, &did);
    if (done)
        *done = did;
    return s;
}

void fk_bloom_ops_contains_many_u64(const fk_filter *f, size_t n, const uint64_t keys[],
                                    bool out[])
{
    contains_ints((const fk_bloom *)f, n, keys, out);
}

fk_status fk_bloom_ops_insert_many_u64(fk_filter *f, size_t n, const uint64_t keys[],
                                       size_t *done)
{
    insert_ints((fk_bloom *)f, n, keys);
    if (done)
        *done = n;
    return FK_OK;
}
