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
#include "cache.h"
#include "endian.h"
#include "probe.h"
#include "filter.h"
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

/* Tables below FK_CACHE_PREFETCH_L2S times the core's L2 (cache.h: read
 * at run time, 8 MiB on a 1 MiB-L2 machine) are not prefetched: they sit
 * in the L2 or L3, where the prefetch instructions (and, for the Bloom
 * kinds, the probe positions computed twice) cost more than the short
 * misses they would hide; the batch then still saves the indirect call and
 * inlines the hash. Measured on a 1 MiB-L2 machine: at 10^6 keys every
 * kind's batch is faster without prefetching (PAPER_NOTES). The answers
 * are the same either way. */
static inline bool fk_batch_prefetches(uint64_t table_bytes)
{
    return table_bytes >= fk_cache_l2s(FK_CACHE_PREFETCH_L2S);
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

/* ------------------------------------------------ the two-window runner
 *
 * Every kind's batch (lookups, inserts, removes) runs here: hash window
 * w + 1 and prefetch the lines its keys will touch, then probe window w,
 * whose lines were asked for one window earlier. The kind lends two steps
 * and keeps its windows (two arrays of FK_BATCH_WINDOW hashes or places,
 * of its own type, indexed by `slot`) in ctx:
 *   window(ctx, slot, start, span): hash keys [start, start + span) into
 *       window `slot` (0 or 1) and prefetch their lines;
 *   probe(ctx, slot, start, span, &s): look up or write window `slot`'s
 *       keys, which are keys [start, start + span), in order; returns how
 *       many were done, and stops at the first whose status is not FK_OK,
 *       stored in *s (a lookup returns span and leaves *s FK_OK).
 * fk_batch_run returns that status (FK_OK when every key was done) with
 * *done the keys done before it. The kind passes static inline steps as
 * constants: fk_batch_run is inlined into each caller and the steps into
 * it, so each batch compiles to the kind's own loop, with no call per key
 * or per window (the instruction counts of bench/figures/insn_count.sh
 * are those of the loops the kinds wrote by hand). */
typedef void (*fk_batch_window_fn)(void *ctx, unsigned slot, size_t start, size_t span);
typedef size_t (*fk_batch_probe_fn)(void *ctx, unsigned slot, size_t start, size_t span,
                                    fk_status *s);

#if defined(__GNUC__) || defined(__clang__)
#define FK_BATCH_INLINE static inline __attribute__((always_inline))
#else
#define FK_BATCH_INLINE static inline
#endif

FK_BATCH_INLINE fk_status fk_batch_run(void *ctx, size_t n, fk_batch_window_fn window,
                                       fk_batch_probe_fn probe, size_t *done)
{
    unsigned cur = 0;
    if (n > 0)
        window(ctx, 0, 0, fk_batch_span(0, n));
    for (size_t start = 0; start < n; start += FK_BATCH_WINDOW, cur ^= 1) {
        size_t next = start + FK_BATCH_WINDOW;
        if (next < n)
            window(ctx, cur ^ 1, next, fk_batch_span(next, n));
        fk_status s = FK_OK;
        size_t did = probe(ctx, cur, start, fk_batch_span(start, n), &s);
        if (s != FK_OK) {
            *done = start + did;
            return s;
        }
    }
    *done = n;
    return FK_OK;
}

/* -------------------------------------- staged lookups of probe walkers
 *
 * The Bloom and counting filters (a key's k probes from one fk_probe) look
 * up tables out of cache in three stages a window apart: hash window w + 1
 * and prefetch the lines of its first `group` probes; test window w's first
 * group, and for the keys that pass it (all positives, a few negatives)
 * prefetch the lines of the other k - group probes; test those for window
 * w - 1. Most negatives end at the first group without asking for lines
 * they will not read, and positives still wait only once. The kind lends
 * its three steps; as static inline calls with constant arguments they are
 * inlined, so this costs no call per key. */
typedef void (*fk_batch_hash_fn)(const void *f, fk_probe pr[], const void *const keys[],
                                 const size_t lens[], const uint64_t ints[], size_t start,
                                 size_t span, uint32_t lines);
/* Nonzero when the next `count` probes all hit, advancing *pr. */
typedef uint64_t (*fk_batch_test_fn)(const void *f, fk_probe *pr, uint32_t count);
typedef void (*fk_batch_prefetch_fn)(const void *f, fk_probe pr, uint32_t count);

static inline void fk_batch_lookup_staged(const void *f, uint32_t k, uint32_t group, size_t n,
                                          const void *const keys[], const size_t lens[],
                                          const uint64_t ints[], bool out[],
                                          fk_batch_hash_fn hash, fk_batch_test_fn test,
                                          fk_batch_prefetch_fn prefetch)
{
    const uint32_t g = k < group ? k : group, rest = k - g;
    fk_probe pr[3][FK_BATCH_WINDOW]; /* windows w - 1, w, w + 1, rotating */
    unsigned pend[2][FK_BATCH_WINDOW], npend[2] = { 0, 0 };
    unsigned prev = 2, cur = 0, nxt = 1;
    hash(f, pr[0], keys, lens, ints, 0, fk_batch_span(0, n), g);
    for (size_t w = 0;; w++) {
        size_t start = w * FK_BATCH_WINDOW;
        unsigned *pend_prev = pend[(w + 1) & 1], *pend_cur = pend[w & 1];
        unsigned nprev = w ? npend[(w + 1) & 1] : 0;
        if (start >= n && nprev == 0)
            break;
        size_t next = start + FK_BATCH_WINDOW;
        if (next < n)
            hash(f, pr[nxt], keys, lens, ints, next, fk_batch_span(next, n), g);
        npend[w & 1] = 0;
        if (start < n) {
            size_t span = fk_batch_span(start, n);
            for (size_t j = 0; j < span; j++) {
                bool first = test(f, &pr[cur][j], g) != 0;
                out[start + j] = first;
                if (first && rest) {
                    prefetch(f, pr[cur][j], rest);
                    pend_cur[npend[w & 1]++] = (unsigned)j;
                }
            }
        }
        for (unsigned i = 0; i < nprev; i++) {
            unsigned j = pend_prev[i];
            out[start - FK_BATCH_WINDOW + j] = test(f, &pr[prev][j], rest) != 0;
        }
        unsigned oldest = prev; /* rotate: w becomes w - 1, w + 1 becomes w */
        prev = cur;
        cur = nxt;
        nxt = oldest;
    }
}

/* Declares a kind's four batch slots, prefix_slot_contains_many,
 * _insert_many, _contains_many_u64 and _insert_many_u64 (defined in its
 * <kind>_batch.c, set in its fk_ops table; the fk_filter_* dispatchers
 * check f and the arguments before they call them). */
#define FK_BATCH_SLOTS_DECLARE(prefix)                                                   \
    void prefix##_slot_contains_many(const fk_filter *f, size_t n,                       \
                                     const void *const keys[], const size_t lens[],      \
                                     bool out[]);                                        \
    fk_status prefix##_slot_insert_many(fk_filter *f, size_t n, const void *const keys[], \
                                        const size_t lens[], size_t *done);              \
    void prefix##_slot_contains_many_u64(const fk_filter *f, size_t n,                   \
                                         const uint64_t keys[], bool out[]);             \
    fk_status prefix##_slot_insert_many_u64(fk_filter *f, size_t n,                      \
                                            const uint64_t keys[], size_t *done)

#endif
