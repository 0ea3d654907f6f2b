/* fuse/fuse.h: the binary fuse filter (Graf & Lemire, "Binary Fuse
 * Filters: Fast and Smaller Than Xor Filters", ACM JEA 27, 2022), 3-wise.
 *
 * A static filter: it is built once from the whole set and never changes
 * (no insert, no remove). It stores one f-bit fingerprint per cell in an
 * array of about 1.125 n cells (for n of a million and more; small sets
 * take a larger factor, below), so it costs about 1.125 f bits per key for
 * a false-positive rate of 2^-f: 9.0 bits at f = 8 (0.39%), 18.0 at f = 16.
 *
 * Lookup. From the key's one XXH3-64 hash g: three cells h0, h1, h2 in
 * three consecutive segments of the array (h0 by multiply-high over the
 * first segments, h1 and h2 one and two segments on, each XORed inside its
 * segment with other bits of g), and the fingerprint (g ^ g >> 32) mod 2^f.
 * The key may be present when cell[h0] ^ cell[h1] ^ cell[h2] equals its
 * fingerprint: three memory reads, no branch on the data, no false
 * negatives. Widths 8, 16 and 32 read whole bytes / words; any other
 * width in 1..32 is bit-packed (one unaligned 8-byte read per cell).
 *
 * Build (the peeling argument: PAPER_NOTES, "Static filters"). Every key
 * is a hyperedge on its three cells. A cell with exactly one key can be
 * solved last for that key, so it is "peeled": the key leaves the graph
 * and the counts of its other two cells drop, which frees more cells. When
 * every key peels, the cells are assigned in the reverse order, each one
 * set so that its key's three cells XOR to its fingerprint. The segment
 * layout (keys touch three neighbouring segments of length 2^k) makes the
 * graph peel at a size factor of 1.125 with high probability and keeps a
 * build's accesses local. Guarantees of the build:
 *  - Duplicates are removed: equal keys, and distinct keys whose 64-bit
 *    hashes are equal (they are indistinguishable to the filter anyway),
 *    count once; fk_fuse_describe says how many distinct hashes were stored.
 *  - A set that does not peel is built again under a new hash seed (the
 *    layout alternates with half-length segments on some attempts), at
 *    most FK_FUSE_MAX_ATTEMPTS times per shard; with the sizing below a
 *    random set almost never needs a second attempt (tests/test_fuse.c
 *    counts them), so running out of attempts answers FK_EFULL and means
 *    the input is adversarial against the hash (a known seed): choose
 *    another seed.
 *  - Every size works, 0, 1, 2 and up (an empty filter answers false).
 *
 * Shards. Sets above FK_FUSE_SHARD_KEYS keys are split by the top bits of
 * the hash into S = ceil(n / FK_FUSE_SHARD_KEYS) shards of one common
 * layout (sized for the fullest shard, so S filters of n / S keys, each
 * 0.1% larger at most), built independently, by several threads when
 * fk_params.threads asks. n then has no 32-bit limit, and a build's
 * temporary memory is bounded by one shard per thread plus one staging
 * buffer, never by n. A lookup in a sharded filter pays one more
 * multiply-high (the shard), one read of the shard's 8-byte seed (the
 * seed table, S * 8 bytes, stays in cache) and one 64-bit mix of the hash;
 * a filter of one shard (n <= FK_FUSE_SHARD_KEYS) pays nothing.
 *
 * Build cost: one hash per key, a grouping of the hashes by their first
 * segment (a counting sort: locality), the peeling and the assignment,
 * about 3 random cell writes per key; a set with repeated keys (or
 * hashes) fails its first peel and is then sorted once, without them, and
 * peeled again. Temporary memory, freed before the build returns:
 *   one shard:  about 18 bytes per key (8 for the hashes, whose array
 *               then holds the peeling order, 4 per cell; 9 per cell for
 *               each cell's key count and XOR of its keys' hashes, which
 *               reuse the grouping's scratch space);
 *   sharded:    at most FK_FUSE_TEMP_BUDGET (2 GiB) for any n and any
 *               threads: each building thread's workspace (18 bytes x
 *               FK_FUSE_SHARD_KEYS, about 300 MiB; up to 6 build at once)
 *               and a staging buffer of the next shards' hashes (the
 *               rest), so 10^9 keys take 6 passes over the keys at 1
 *               thread, plus one that counts.
 * fk_fuse_describe reports what a build used.
 *
 * Link: build/libfk_fuse.a build/libfk_common.a -lm -pthread, nothing else.
 * Thread safety: a built filter is read-only; any number of threads may
 * run the lookups (single and batched), stats, locate and saving at once.
 * Building, loading and freeing are the only writers.
 *
 *   fk_params p = fk_params_make(0, 0.004);        // capacity 0: n keys
 *   fk_fuse *fu;
 *   if (fk_fuse_build(&p, n, keys, lens, &fu) != FK_OK) ...;
 *   if (fk_fuse_contains(fu, "apple", 5)) ...;      // maybe present
 *   fk_fuse_free(fu);
 */
#ifndef FK_FUSE_H
#define FK_FUSE_H

#ifdef __cplusplus
extern "C" {
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "../common/filter.h"
#include "../common/serial.h"

typedef struct fk_fuse fk_fuse;

/* Fingerprint widths accepted in fk_params.fingerprint_bits (0 = derive). */
#define FK_FUSE_MIN_FP_BITS 1u
#define FK_FUSE_MAX_FP_BITS 32u

/* Builds one shard may try (new seeds) before FK_EFULL. */
#define FK_FUSE_MAX_ATTEMPTS 64u

/* Keys above which a set is split into shards (16,777,216). */
#define FK_FUSE_SHARD_KEYS (UINT64_C(1) << 24)

/* A sharded build's temporary memory, all of it: the workspaces of the
 * threads building shards (about 18 bytes a key of one shard each, 300 MiB
 * for a full shard; threads beyond what fits only scan keys) and the
 * staging buffer for the hashes of the shards built next (the rest, at
 * least one shard's). */
#define FK_FUSE_TEMP_BUDGET (UINT64_C(2) << 30)

/* Threads a build uses at most (fk_params.threads above it is FK_EINVAL). */
#define FK_FUSE_MAX_THREADS 64u

/* The kind's number in the file header (common/serial.h); never reused. */
#define FK_KIND_FUSE 6u

/* The vtable (name "fuse"): a static kind, built with fk_filter_build /
 * fk_filter_build_u64; fk_filter_new and fk_filter_insert answer
 * FK_EUNSUPPORTED for it. */
FK_API extern const fk_ops fk_fuse_ops;

/* Builds a filter holding keys[0..n) (keys[i] is lens[i] bytes; a key may
 * be NULL when its length is 0). Params: fpr in (0, 1) picks the width,
 * the smallest f in 1..32 with 2^-f <= fpr (0.5 -> 1, 0.01 -> 7, 0.004 ->
 * 8, 0.0039 -> 9; 32 below 2^-32, where the target is not met), unless
 * fingerprint_bits (1..32) is set; seed picks
 * the hash; capacity is informative only (0 means n; the filter is sized
 * for the distinct keys it is given); max_bytes (0: none) caps the filter;
 * threads (0 = 1, at most
 * FK_FUSE_MAX_THREADS) build the shards of a sharded set in parallel (a
 * set of one shard is built by one thread); other kinds' knobs are
 * ignored. The same keys and params give the same filter bits, whatever
 * the threads and the keys' order.
 * Returns FK_OK with a new filter in *out (the caller frees it with
 * fk_fuse_free); FK_EINVAL for p or out NULL, keys or lens NULL with
 * n > 0, a key NULL with len > 0, fpr NaN or not in (0, 1),
 * fingerprint_bits not 0 and not in 1..32, threads above the limit,
 * reserved nonzero, or a filter over FK_MEMORY_CAP; FK_ELIMIT when the
 * filter of the distinct keys would hold more than p->max_bytes (checked
 * before it is allocated; nothing is built); FK_ENOMEM when an
 * allocation fails (a thread that cannot start is not an error: the
 * calling thread does its share); FK_EFULL when a shard did not peel in
 * FK_FUSE_MAX_ATTEMPTS seeds (see above). *out is NULL on error and
 * nothing is leaked. Cost: see "Build cost" above; the keys are read once
 * per attempt (once in all for nearly every set) for one shard, and once
 * per staging pass plus once to count for a sharded set. */
FK_API fk_status fk_fuse_build(const fk_params *p, size_t n, const void *const keys[],
                               const size_t lens[], fk_fuse **out);

/* As fk_fuse_build for 64-bit integer keys, each hashed as its 8
 * little-endian bytes: the same filter bits as fk_fuse_build over those
 * bytes. keys NULL with n > 0 is FK_EINVAL. */
FK_API fk_status fk_fuse_build_u64(const fk_params *p, size_t n, const uint64_t keys[],
                                   fk_fuse **out);

/* Returns true when key may be in the set, false when it is definitely not
 * (every key given to the build answers true). fu NULL, or key NULL with
 * len > 0, answers false. Cost: one hash, three cell reads (three cache
 * lines at most), one XOR compare; a sharded filter adds a multiply-high,
 * an 8-byte read of its seed table and a 64-bit mix. */
FK_API bool fk_fuse_contains(const fk_fuse *fu, const void *key, size_t len);

/* fk_fuse_contains(fu, le8(key), 8), a static inline over
 * fk_filter_contains_u64 (common/filter.h, FK_U64_CONTAINS) as every kind's
 * integer calls are. fu NULL answers false. */
FK_U64_CONTAINS(fk_fuse)

/* Stats: fk_filter_stats(fk_fuse_as_filter(x), &out) fills out:
 * items = distinct keys stored, capacity = the capacity asked
 * (n when 0 was given, at least 1), memory_bytes = the cells, the shard
 * seed table and the struct, bits_per_item = 8 * memory_bytes / max(items,
 * 1), load_factor = items / cells, expected_fpr = 2^-f (0 when empty).
 * No-op for NULL arguments (out, if given, is zeroed). Cost: O(1). */

/* Releases fu. NULL is a no-op. Cost: O(1). */
FK_API void fk_fuse_free(fk_fuse *fu);

/* The filter as an fk_filter, for the generic fk_filter_* calls (still owned
 * by the caller; free it with fk_fuse_free or fk_filter_free, not both).
 * NULL for NULL. */
FK_API fk_filter *fk_fuse_as_filter(fk_fuse *fu);

/* What a filter is made of, and what the build that made it did. */
typedef struct {
    uint32_t fingerprint_bits; /* f */
    uint32_t segment_length;   /* cells per segment: a power of two, at most 2^18 */
    uint64_t items;            /* distinct keys stored */
    uint64_t shards;           /* S */
    uint64_t segments;         /* segments per shard (a shard's cells are
                                  segments + 2 segments) */
    uint64_t cells;            /* cells in all shards */
    uint64_t seed;             /* the params seed */
    /* The build (all 0 for a loaded filter, whose build happened elsewhere): */
    uint64_t keys_given;       /* n */
    uint64_t duplicates;       /* keys dropped as equal hashes: n - items */
    uint64_t attempts;         /* peeling attempts over all shards (S when
                                  every shard peeled at once) */
    uint64_t max_attempts;     /* the most one shard needed */
    uint64_t temp_bytes;       /* peak temporary memory it held, bytes (the
                                  filter itself not counted) */
    uint64_t key_passes;       /* passes over the caller's keys */
} fk_fuse_description;

/* Fills *out for fu. No-op for NULL arguments. Cost: O(1). */
FK_API void fk_fuse_describe(const fk_fuse *fu, fk_fuse_description *out);

/* ------------------------------------------------- tracing / teaching */

/* Where a key lives: exactly what fk_fuse_contains computes. */
typedef struct {
    uint64_t hash;        /* the key's XXH3-64 hash */
    uint64_t shard;       /* its shard (0 when S = 1) */
    uint64_t mixed;       /* the hash the positions come from (= hash when
                             S = 1) */
    uint64_t cell[3];     /* the three cells, indexes into the whole array */
    uint32_t value[3];    /* what they hold */
    uint32_t fingerprint; /* the key's f-bit fingerprint */
    uint32_t xor_of_cells;/* value[0] ^ value[1] ^ value[2]: equal to the
                             fingerprint when the key may be present */
} fk_fuse_location;

/* Batches: fk_filter_contains_many and fk_filter_contains_many_u64 on
 * fk_fuse_as_filter(fu) take the kind's pipeline (fuse_batch.c): a window
 * of keys is hashed and the three cells of each prefetched (filters over 8
 * MiB) before the window before it is compared, so the misses of a filter
 * out of cache overlap; the answers equal the single-key calls. */

/* -------------------------------------------------------------- files
 *
 * fk_fuse_save, fk_fuse_load: the calls of
 * FK_SERIAL_DIRECT_DECLARE (common/serial.h has their contracts), typed
 * for fk_fuse; file kind id FK_KIND_FUSE (for a FILE *:
 * fk_filter_save_file(fk_fuse_as_filter(fu), fp) and
 * fk_filter_load_file(&fk_fuse_ops, fp, &f)). Bytes a saved filter takes:
 * 128 + 8 S + ceil(cells * f / 8); saving and loading cost O(that). The
 * layout is in fuse/fuse_serial.c. */
FK_SERIAL_DIRECT_DECLARE(fk_fuse, fk_fuse);

#ifdef __cplusplus
}
#endif

#endif
