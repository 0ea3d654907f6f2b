/* common/pipeline.h: what the kinds' batch pipelines share (internal
 * header, modules only).
 *
 * Out of cache, a lookup waits one memory latency per dependent access; a
 * core can keep 10-16 misses in flight. A batch therefore runs in windows
 * of FK_BATCH_WINDOW keys: hash window j+1 and prefetch every line its keys
 * will touch, then probe window j, whose lines were asked for one window
 * earlier (RocksDB's MultiGet, Polychroniou & Ross, DaMoN 2014).
 */
#ifndef FK_PIPELINE_H
#define FK_PIPELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "endian.h"
#include "status.h"

/* Keys per window. At 10^8 keys (PAPER_NOTES, "Memory-level parallelism",
 * bench/scripts/batch_tables.sh) a window of 4 leaves the blocked filter's
 * misses waiting (its lookups about 1.5x slower than at 8..32), while 8,
 * 16 and 32 are within the run-to-run noise of each other for every kind;
 * 16 is kept, the middle. A build may choose another power of two in 4..64
 * with -DFK_BATCH_WINDOW=N (the W sweep does). */
#ifndef FK_BATCH_WINDOW
#define FK_BATCH_WINDOW 16
#endif
_Static_assert(FK_BATCH_WINDOW >= 4 && FK_BATCH_WINDOW <= 64 &&
                   (FK_BATCH_WINDOW & (FK_BATCH_WINDOW - 1)) == 0,
               "FK_BATCH_WINDOW: a power of two in 4..64");

/* Ask for the line holding p, to read or to write, into every cache level. */
#if defined(__GNUC__) || defined(__clang__)
#define FK_PREFETCH_READ(p)  __builtin_prefetch((p), 0, 3)
#define FK_PREFETCH_WRITE(p) __builtin_prefetch((p), 1, 3)
#else
#define FK_PREFETCH_READ(p)  ((void)(p))
#define FK_PREFETCH_WRITE(p) ((void)(p))
#endif

/* Tables below this many bytes are not prefetched: they sit in the L2 or
 * L3 cache of a current server, where the prefetch instructions (and, for
 * the Bloom kinds, the probe positions computed twice) cost more than the
 * short misses they would hide; the batch then still saves the indirect
 * call and inlines the hash. Measured: at 10^6 keys every kind's batch is
 * faster without prefetching, at 10^7 a 12 MB Bloom filter is about even
 * and a 48 MB counting filter twice as fast with it (PAPER_NOTES). */
#ifndef FK_BATCH_PREFETCH_MIN_BYTES
#define FK_BATCH_PREFETCH_MIN_BYTES (UINT64_C(8) << 20)
#endif

static inline bool fk_batch_prefetches(uint64_t table_bytes)
{
    return table_bytes >= FK_BATCH_PREFETCH_MIN_BYTES;
}

/* Index of the first key NULL with len > 0 (a key the single-key calls
 * refuse), or n when there is none. */
static inline size_t fk_batch_first_bad(size_t n, const void *const keys[], const size_t lens[])
{
    for (size_t i = 0; i < n; i++)
        if (!keys[i] && lens[i] > 0)
            return i;
    return n;
}

/* Keys in the window starting at `start` of a batch of n. */
static inline size_t fk_batch_span(size_t start, size_t n)
{
    return n - start < FK_BATCH_WINDOW ? n - start : FK_BATCH_WINDOW;
}

/* The 8 little-endian bytes a 64-bit integer key is hashed as. On a
 * little-endian host one memcpy, which the compiler keeps in a register
 * (eight byte stores read back as a word would stall store forwarding). */
static inline void fk_batch_le8(uint8_t out[8], uint64_t key)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(out, &key, sizeof key);
#else
    fk_le_put64(out, key);
#endif
}

/* ------------------------------------------- the direct forms' fronts
 *
 * Each kind's fk_<kind>_*_many checks its arguments as the fk_filter_*_many
 * dispatchers do (filter.h), then runs its pipeline over the keys the
 * single-key calls would accept. `run` is the kind's pipeline; these
 * inline, so the call through it is a direct one. */

typedef void (*fk_batch_lookup_fn)(const void *f, size_t n, const void *const keys[],
                                   const size_t lens[], bool out[]);
typedef fk_status (*fk_batch_write_fn)(void *f, size_t n, const void *const keys[],
                                       const size_t lens[], size_t *done);

/* out[i] for every key: NULL arguments answer false for all, a bad key
 * false for itself; the runs between bad keys go through the pipeline. */
static inline void fk_batch_lookup(const void *f, size_t n, const void *const keys[],
                                   const size_t lens[], bool out[], fk_batch_lookup_fn run)
{
    if (!out || n == 0)
        return;
    if (!f || !keys || !lens) {
        for (size_t i = 0; i < n; i++)
            out[i] = false;
        return;
    }
    for (size_t i = 0; i < n;) {
        size_t bad = i + fk_batch_first_bad(n - i, keys + i, lens + i);
        run(f, bad - i, keys + i, lens + i, out + i);
        if (bad < n)
            out[bad] = false;
        i = bad + 1;
    }
}

/* Writes keys in order up to the first bad key (FK_EINVAL, *done = its
 * index) or the first status other than FK_OK from the pipeline. */
static inline fk_status fk_batch_write(void *f, size_t n, const void *const keys[],
                                       const size_t lens[], size_t *done, fk_batch_write_fn run)
{
    if (done)
        *done = 0;
    if (!f || (n > 0 && (!keys || !lens)))
        return FK_EINVAL;
    if (n == 0)
        return FK_OK;
    size_t good = fk_batch_first_bad(n, keys, lens), did = 0;
    fk_status s = run(f, good, keys, lens, &did);
    if (done)
        *done = did;
    return s == FK_OK && good < n ? FK_EINVAL : s;
}

#endif
