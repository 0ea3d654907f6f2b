/* ribbon/ribbon.h: the standard ribbon filter (Dillinger & Walzer,
 * "Ribbon filter: practically smaller than Bloom and Xor", 2021), band
 * width w = 128.
 *
 * A static filter: it is built once from the whole set and never changes
 * (no insert, no remove). It stores r result bits for each of m slots,
 * m about (1 + eps) n (eps 3% to 4.5%, by size: ribbon.c, eps_for), so
 * it costs about (1 + eps) r bits per key for a false-positive rate of
 * 2^-r: 7.3 bits at r = 7 (0.78%), 10.5 at r = 10 (0.098%).
 *
 * Lookup. From the key's one XXH3-64 hash g: a start slot s (multiply-high
 * of g over the m - w + 1 starts), a w-bit coefficient row c whose first
 * bit is 1 (the 128-bit product of g and an odd constant) and an r-bit
 * fingerprint (the high half of another product). The key may be present
 * when, for each of the r result columns j, the parity of c AND the
 * column's bits s..s+w-1 is fingerprint bit j. The solution is stored
 * row-interleaved: blocks of 64 slots, each block's r column words side
 * by side, so a lookup reads r words from each of three consecutive
 * blocks (3r * 8 bytes in a row: 3 or 4 cache lines at r = 7), with no
 * false negatives. An absent key is mostly rejected after its first bits
 * (2, then 2 more on the portable paths; 4 with AVX2: 1 in 16 goes on); CPUs with AVX2 (chosen at run time, r >= 4)
 * take four columns per 256-bit load, others popcnt or a portable fold:
 * the same answers on every path.
 *
 * Build (Gaussian elimination on a band: PAPER_NOTES, "Static filters").
 * Every key is an equation over GF(2): c . x[s..s+w) = fingerprint. The
 * keys' hashes are sorted (the rows then arrive in start order and
 * duplicates are adjacent), each row is "banded" (two at a time, one
 * from each half of the set, from 4096 keys on): XORed with the
 * row stored at its first nonzero column until it finds a free column
 * (the row is kept there) or vanishes (a redundant row when its result
 * vanishes too, else the system has no solution), then the solution is
 * found by back substitution from the last slot to the first, free slots
 * taking pseudo-random bits. Guarantees of the build:
 *  - Duplicates are removed: equal keys, and distinct keys whose 64-bit
 *    hashes are equal, count once; describe says how many were stored.
 *  - A system without a solution is built again under a new hash seed,
 *    FK_RIBBON_ATTEMPTS_PER_LEVEL times, then with more slots (eps raised
 *    by FK_RIBBON_EPS_STEP), up to FK_RIBBON_MAX_LEVELS levels; the
 *    raised levels all but certainly succeed (tests/test_ribbon.c counts
 *    the attempts over many sets), so FK_EFULL after them means the hash
 *    is broken, not bad luck.
 *  - Every size works, 0, 1, 2 and up (an empty filter answers false).
 *
 * Shards. Sets above FK_RIBBON_SHARD_KEYS keys are split by the top bits
 * of the hash into S = ceil(n / FK_RIBBON_SHARD_KEYS) shards of one common
 * slot count (sized for the fullest shard), built independently, by
 * several threads when fk_params.threads asks. n has no 32-bit limit, and
 * a build's temporary memory is bounded by FK_RIBBON_TEMP_BUDGET, never
 * by n. A lookup in a sharded filter pays one more multiply-high (the
 * shard), one read of the shard's 8-byte seed and one 64-bit mix.
 *
 * Build cost: one hash per key, a counting sort of the hashes (one
 * scatter by their top bits, then an insertion sort within buckets of
 * one or two keys), the banding (a few 128-bit XORs per key), and the
 * back substitution (r parities of 128 bits per slot, four columns at a
 * time). Temporary memory, freed before the build returns: about 8 bytes
 * per key (the hashes) plus 20 bytes per slot (the banded rows: 16 for
 * the coefficients, 4 for the results; the sort's input and counts live
 * there first), so about 29 bytes per key for one shard;
 * a sharded build at most FK_RIBBON_TEMP_BUDGET for any n and threads.
 *
 * Link: build/libfk_ribbon.a build/libfk_common.a -lm -pthread.
 * Thread safety: a built filter is read-only; any number of threads may
 * run lookups (single and batched), stats, describe and saving at once.
 * Building, loading and freeing are the only writers.
 *
 *   fk_params p = fk_params_make(0, 0.01);         // capacity 0: n keys
 *   fk_ribbon *rb;
 *   if (fk_ribbon_build(&p, n, keys, lens, &rb) != FK_OK) ...;
 *   if (fk_ribbon_contains(rb, "apple", 5)) ...;    // maybe present
 *   fk_ribbon_free(rb);
 */
#ifndef FK_RIBBON_H
#define FK_RIBBON_H

#ifdef __cplusplus
extern "C" {
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "../common/filter.h"
#include "../common/serial.h"

typedef struct fk_ribbon fk_ribbon;

/* Result bits accepted in fk_params.fingerprint_bits (0 = derive). */
#define FK_RIBBON_MIN_RESULT_BITS 1u
#define FK_RIBBON_MAX_RESULT_BITS 32u

/* The band width: bits in a key's coefficient row. */
#define FK_RIBBON_WIDTH 128u

/* Attempts (new seeds) at one slot count, and slot counts tried (each
 * FK_RIBBON_EPS_STEP more slots per key than the one before) before
 * FK_EFULL. */
#define FK_RIBBON_ATTEMPTS_PER_LEVEL 4u
#define FK_RIBBON_MAX_LEVELS 8u
#define FK_RIBBON_EPS_STEP 0.02

/* Keys above which a set is split into shards (1,048,576). Smaller than
 * fuse's 2^24: a standard ribbon's overhead grows with the size of its
 * system (ribbon.c, eps_for), so shards of 2^20 keys hold every set at
 * eps = 4.5% with one attempt in eight retried, shard by shard. */
#define FK_RIBBON_SHARD_KEYS (UINT64_C(1) << 20)

/* A sharded build's temporary memory, all of it: the workspaces of the
 * threads building shards (about 29 bytes a key of one shard each) and
 * the staging buffer of the hashes of the shards built next. */
#define FK_RIBBON_TEMP_BUDGET (UINT64_C(2) << 30)

/* Threads a build uses at most (fk_params.threads above it is FK_EINVAL). */
#define FK_RIBBON_MAX_THREADS 64u

/* The kind's number in the file header (common/serial.h); never reused. */
#define FK_KIND_RIBBON 10u

/* The vtable (name "ribbon"): a static kind, built with fk_filter_build /
 * fk_filter_build_u64; fk_filter_new and fk_filter_insert answer
 * FK_EUNSUPPORTED for it. */
FK_API extern const fk_ops fk_ribbon_ops;

/* Builds a filter holding keys[0..n) (keys[i] is lens[i] bytes; a key may
 * be NULL when its length is 0). Params: fpr in (0, 1) picks r, the
 * smallest r in 1..32 with 2^-r <= fpr (0.5 -> 1, 0.01 -> 7, 0.001 -> 10;
 * 32 below 2^-32, where the target is not met), unless fingerprint_bits
 * (1..32) is set; seed picks the hash; capacity is informative only (0
 * means n); max_bytes (0: none) caps the filter; threads (0 = 1, at most
 * FK_RIBBON_MAX_THREADS) build the shards of a sharded set in parallel.
 * The same keys and params give the same filter bits, whatever the
 * threads and the keys' order.
 * Returns FK_OK with a new filter in *out (the caller frees it with
 * fk_ribbon_free); FK_EINVAL for p or out NULL, keys or lens NULL with
 * n > 0, a key NULL with len > 0, fpr NaN or not in (0, 1),
 * fingerprint_bits not 0 and not in 1..32, threads above the limit,
 * reserved nonzero, or a filter over FK_MEMORY_CAP; FK_ELIMIT when the
 * filter would hold more than p->max_bytes (nothing is built); FK_ENOMEM
 * when an allocation fails; FK_EFULL when a shard found no solution in
 * all its attempts (see above). *out is NULL on error and nothing is
 * leaked. Cost: see "Build cost" above. */
FK_API fk_status fk_ribbon_build(const fk_params *p, size_t n, const void *const keys[],
                                 const size_t lens[], fk_ribbon **out);

/* As fk_ribbon_build for 64-bit integer keys, each hashed as its 8
 * little-endian bytes: the same filter bits as fk_ribbon_build over those
 * bytes. keys NULL with n > 0 is FK_EINVAL. */
FK_API fk_status fk_ribbon_build_u64(const fk_params *p, size_t n, const uint64_t keys[],
                                     fk_ribbon **out);

/* Returns true when key may be in the set, false when it is definitely not
 * (every key given to the build answers true). rb NULL, or key NULL with
 * len > 0, answers false. Cost: one hash, two multiplies, 3r word reads in
 * one run of memory, r parities. */
FK_API bool fk_ribbon_contains(const fk_ribbon *rb, const void *key, size_t len);

/* fk_ribbon_contains(rb, le8(key), 8), a static inline over
 * fk_filter_contains_u64 (common/filter.h, FK_U64_CONTAINS). */
FK_U64_CONTAINS(fk_ribbon)

/* Stats: fk_filter_stats(fk_ribbon_as_filter(x), &out) fills out:
 * items = distinct keys stored, capacity = as asked (n when 0, at least
 * 1), memory_bytes = the solution, the shard seed table and the struct,
 * bits_per_item = 8 * memory_bytes / max(items, 1), load_factor = items /
 * slots, expected_fpr = 2^-r (0 when empty). */

/* Releases rb. NULL is a no-op. Cost: O(1). */
FK_API void fk_ribbon_free(fk_ribbon *rb);

/* The filter as an fk_filter, for the generic fk_filter_* calls (still
 * owned by the caller; free it with fk_ribbon_free or fk_filter_free, not
 * both). NULL for NULL. */
FK_API fk_filter *fk_ribbon_as_filter(fk_ribbon *rb);

/* Batches: fk_filter_contains_many and _many_u64 on fk_ribbon_as_filter(rb)
 * take the kind's pipeline (ribbon_batch.c): a window of keys is hashed
 * and its blocks prefetched before the window before it is tested; the
 * answers equal the single-key calls. */

/* What a filter is made of, and what the build that made it did. */
typedef struct {
    uint32_t result_bits;      /* r */
    uint32_t band_width;       /* w = FK_RIBBON_WIDTH */
    uint64_t items;            /* distinct keys stored */
    uint64_t shards;           /* S */
    uint64_t slots_per_shard;  /* m: a multiple of 64 */
    uint64_t slots;            /* S m */
    uint64_t seed;             /* the params seed */
    /* The build (all 0 for a loaded filter): */
    uint64_t keys_given;       /* n */
    uint64_t duplicates;       /* keys dropped as equal hashes: n - items */
    uint64_t attempts;         /* attempts over all shards (S when every
                                  shard solved at once) */
    uint64_t max_attempts;     /* the most one shard needed */
    uint64_t level;            /* times the slot count was raised */
    uint64_t temp_bytes;       /* peak temporary memory, bytes */
    uint64_t key_passes;       /* passes over the caller's keys */
} fk_ribbon_description;

/* Fills *out for rb. No-op for NULL arguments. Cost: O(1). The describe
 * rows (fk_filter_describe, `filterkit info`) are these fields in this
 * order, with `overhead` (slots / items - 1) after `slots`. */
FK_API void fk_ribbon_describe(const fk_ribbon *rb, fk_ribbon_description *out);

/* -------------------------------------------------------------- files
 *
 * fk_ribbon_save, fk_ribbon_load: the calls of FK_SERIAL_DIRECT_DECLARE
 * (common/serial.h has their contracts), typed for fk_ribbon; file kind
 * id FK_KIND_RIBBON. Bytes a saved filter takes: 128 + 8 S + 8 r (S m /
 * 64 + 1); saving and loading cost O(that). The layout is in
 * ribbon/ribbon_serial.c. */
FK_SERIAL_DIRECT_DECLARE(fk_ribbon, fk_ribbon);

#ifdef __cplusplus
}
#endif

#endif
