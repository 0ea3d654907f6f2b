/* bloom/bloom.h: the standard Bloom filter (Bloom 1970).
 *
 * m bits, k probes per key. All k positions derive from one XXH3-128 hash of
 * the key by double hashing over 64-bit integers (Kirsch & Mitzenmacher
 * 2006; see common/probe.h), each reduced to [0, m) by a multiply-high, so a lookup costs one hash and at
 * most k memory reads (one cache line each at most), and stops at the first
 * zero bit. No removes: use counting/ or cuckoo/ for that.
 *
 * Link: build/libfk_bloom.a build/libfk_common.a -lm, nothing else.
 * Thread safety: which calls may run at the same time on one filter, from
 * any number of threads ("no": the caller must keep them apart):
 *
 *                      contains   insert_concurrent   other writers
 *   contains             yes            yes                no
 *   insert_concurrent    yes            yes                no
 *   other writers        no             no                 no
 *
 * (other writers: insert, fk_filter_merge, fk_filter_intersect.) Plain insert stays the
 * fastest single-writer path; it never runs beside insert_concurrent.
 * stats, saving and the set operations add up the count that concurrent
 * inserts keep per thread: call them once those writers are done.
 *
 *   fk_params p = fk_params_make(1000000, 0.01);
 *   fk_bloom *b;
 *   if (fk_bloom_new(&p, &b) != FK_OK) ...;
 *   fk_bloom_insert(b, "apple", 5);
 *   if (fk_bloom_contains(b, "apple", 5)) ...;   // true
 *   fk_bloom_free(b);
 *
 */
#ifndef FK_BLOOM_H
#define FK_BLOOM_H

#ifdef __cplusplus
extern "C" {
#endif

#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include "../common/filter.h"
#include "../common/serial.h"

typedef struct fk_bloom fk_bloom;

/* The vtable for fk_filter_new(&fk_bloom_ops, ...); name "bloom".
 * remove is NULL, so fk_filter_remove answers FK_EUNSUPPORTED. */
FK_API extern const fk_ops fk_bloom_ops;

/* Creates a Bloom filter. Sizing: m = p->bits if nonzero, else
 * ceil(-capacity ln fpr / (ln 2)^2); k = p->hashes if nonzero, else
 * round((m / capacity) ln 2) in 1..FK_BLOOM_MAX_HASHES. The seed picks the
 * hash function.
 * Returns FK_OK with a new filter in *out (caller frees with fk_bloom_free);
 * FK_EINVAL for NULL p or out, bad params (fk_params_check), hashes > 64, or
 * a size over FK_MEMORY_CAP; FK_ENOMEM when allocation fails. *out is NULL
 * on error. Cost: O(m/8) bytes allocated and zeroed. */
FK_API fk_status fk_bloom_new(const fk_params *p, fk_bloom **out);

/* Note on the insert_concurrent slot (no typed call: it is
 * fk_filter_insert_concurrent(fk_bloom_as_filter(b), key, len)). It adds key; safe to call from many threads at once, and beside any number
 * of fk_bloom_contains calls (see the table above). Each of the key's k
 * words is ORed with one atomic read-modify-write (relaxed order), and only
 * where its bit is still clear, so no thread's bit is ever lost and the
 * bits end as a serial insert of the same keys in any order would leave
 * them. A key whose call has returned is found by every lookup that starts
 * later, in any thread. The item count is kept per thread and counts every
 * successful call (a key inserted twice counts twice, as with
 * fk_bloom_insert). Returns FK_OK; FK_EINVAL for b NULL or key NULL with
 * len > 0. Cost: one hash, k loads, one atomic OR per bit still clear. */

/* Creates a Bloom filter of exactly m bits and k probes whose bits are
 * copied from words[0..ceil(m/64)-1] (bit i = bit i % 64 of word i / 64;
 * bits past m are ignored and stay 0), e.g. from
 * fk_counting_export_bits. seed must be the seed that set those bits;
 * capacity, fpr (the target it was sized for) and items (inserts minus
 * removes so far) are recorded for the stats and for saving, since the bits
 * alone cannot tell them. Returns FK_OK with a new filter in *out (the
 * caller frees it with fk_bloom_free; words stays the caller's); FK_EINVAL
 * for NULL words or out, m 0, k not in 1..64, capacity 0, fpr not in (0,1),
 * or a size over FK_MEMORY_CAP; FK_ENOMEM when allocation fails. *out is
 * NULL on error.
 * Cost: O(m/8) bytes allocated and copied. */
FK_API fk_status fk_bloom_from_bits(uint64_t m, uint32_t k, uint64_t seed, uint64_t capacity,
                                    double fpr, uint64_t items, const uint64_t *words,
                                    fk_bloom **out);

/* Releases b. NULL is a no-op. Cost: O(1). */
FK_API void fk_bloom_free(fk_bloom *b);

/* Sets the key's k bits. Returns FK_OK, or FK_EINVAL for b NULL or key NULL
 * with len > 0. Never fails for lack of room (the FPR rises instead).
 * Cost: one hash, k bit writes. */
FK_API fk_status fk_bloom_insert(fk_bloom *b, const void *key, size_t len);

/* Returns true when all k bits of the key are set (maybe present), false
 * when one is clear (definitely absent). b NULL, or key NULL with len > 0,
 * answers false. Cost: one hash and all k bit reads, without a branch on
 * them (a stream mixing present and absent keys runs at one speed); an
 * 8-byte key takes XXH3's constant-length path (the u64 calls' code). */
FK_API bool fk_bloom_contains(const fk_bloom *b, const void *key, size_t len);

/* Stats: fk_filter_stats(fk_bloom_as_filter(x), &out) fills out:
 * items = successful inserts (duplicates count again),
 * load_factor = set bits / m, expected_fpr = load_factor^k.
 * No-op for NULL arguments. Cost: O(m/64) (counts the set bits). */

/* The filter as an fk_filter, for the generic fk_filter_* calls (still owned
 * by the caller; free it with fk_bloom_free or fk_filter_free, not both). */
FK_API fk_filter *fk_bloom_as_filter(fk_bloom *b);

/* Integer keys (common/filter.h, FK_U64_CALLS): fk_bloom_contains_u64,
 * fk_bloom_insert_u64(x, key) answer as the byte calls on the key's 8
 * little-endian bytes; inline, for a program that links this module alone. */
FK_U64_CALLS(fk_bloom)

/* What a filter is made of and how full it is, for tools and tests. */
typedef struct {
    uint64_t bits;            /* m */
    uint32_t hashes;          /* k, probes per key */
    uint64_t seed;            /* the params seed */
    uint64_t set_bits;        /* bits set now */
    double   estimated_items; /* distinct keys inserted, estimated from the
                                 fill (Swamidass & Baldi 2007):
                                 -(m/k) ln(1 - set_bits/m); unlike
                                 fk_stats.items it ignores duplicates;
                                 +inf when every bit is set */
} fk_bloom_description;

/* Fills *out for b. No-op for NULL arguments. Cost: O(m/64) (counts the
 * set bits). */
FK_API void fk_bloom_describe(const fk_bloom *b, fk_bloom_description *out);

/* Set operations: fk_filter_merge (dst |= src) and fk_filter_intersect
 * (dst &= src) on fk_bloom_as_filter of both. The two must be compatible:
 * same m, k and seed (else FK_EINVAL, dst unchanged). After a merge dst
 * answers true for every key either filter held and its item count is the
 * sum of both (an upper bound; fk_bloom_describe's estimated_items is a
 * distinct-count estimate). After an intersection dst answers true for
 * every key both held (possibly with more false positives than a filter
 * built from the intersection) and its item count is the distinct-count
 * estimate of the result, rounded. Cost: O(m/64). */

/* ------------------------------------------------- saving and loading */

/* Saving a Bloom filter and loading it back in a buffer. The same as fk_filter_save / _load
 * with &fk_bloom_ops (common/serial.h has the format and the full contract);
 * the layout of the Bloom payload is in bloom/bloom_serial.c. */

/* The kind's number in the file header (common/serial.h); never reused. */
#define FK_KIND_BLOOM 1u

/* fk_bloom_save, fk_bloom_load: the calls of
 * FK_SERIAL_DIRECT_DECLARE (common/serial.h has their contracts), typed
 * for fk_bloom.
 * Bytes a saved Bloom filter takes: 128 + 8 * ceil(m/64). Saving and
 * loading cost O(m/8). */
FK_SERIAL_DIRECT_DECLARE(fk_bloom, fk_bloom);

#ifdef __cplusplus
}
#endif

#endif
