/* bloom/blocked.h: the cache-blocked (split-block) Bloom filter, kind
 * "blocked" (Putze, Sanders & Singler 2007; the layout of Parquet's
 * split-block Bloom filter specification).
 *
 * The filter is an array of 256-bit blocks, each eight 32-bit words. A key
 * lives in one block: its 64-bit XXH3 hash picks the block from its high 32
 * bits by multiply-high, and from its low 32 bits one bit in each of the
 * eight words (the top 5 bits of low32 * salt[i], the eight odd salts of the
 * Parquet spec). A lookup is therefore one hash and one 32-byte read inside
 * one cache line, at the price of some memory: keys do not spread evenly
 * over blocks, and a crowded block answers "maybe" more often (sizing
 * below). No removes.
 *
 * Insert and lookup have two code paths giving identical bits: AVX2
 * (chosen at run time when the CPU has it) and portable scalar C.
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
 * (other writers: insert, clear, set_path, union, intersect.) Plain insert
 * stays the fastest single-writer path; it never runs beside
 * insert_concurrent. stats, saving and the set operations add up the count
 * that concurrent inserts keep per thread: call them once those writers
 * are done. Lookups read the block with relaxed atomic loads (scalar path)
 * or one aligned vector load (AVX2; each 32-bit word is read whole, and
 * bits only ever go from 0 to 1); ThreadSanitizer builds use the scalar
 * path.
 *
 *   fk_params p = fk_params_make(1000000, 0.01);
 *   fk_blocked *b;
 *   if (fk_blocked_new(&p, &b) != FK_OK) ...;
 *   fk_blocked_insert(b, "apple", 5);
 *   if (fk_blocked_contains(b, "apple", 5)) ...;   // true
 *   fk_blocked_free(b);
 *
 * Saving and loading: bloom/blocked_serial.h.
 */
#ifndef FK_BLOCKED_H
#define FK_BLOCKED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "../common/filter.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fk_blocked fk_blocked;

#define FK_BLOCKED_WORDS      8u   /* 32-bit words per block = bits set per key */
#define FK_BLOCKED_WORD_BITS  32u
#define FK_BLOCKED_BLOCK_BITS 256u
#define FK_BLOCKED_BLOCK_BYTES 32u

/* The vtable for fk_filter_new(&fk_blocked_ops, ...); name "blocked".
 * remove is NULL, so fk_filter_remove answers FK_EUNSUPPORTED. */
FK_API extern const fk_ops fk_blocked_ops;

/* ------------------------------------------------------ sizing, theory */

/* Expected FPR of a split-block filter whose blocks hold on average
 * `load` keys (load = n / blocks). A block holding x keys has, in each of
 * its eight words, x bits chosen independently, so a given bit is set with
 * probability 1 - (31/32)^x and an absent key passes with probability
 * (1 - (31/32)^x)^8; x is Poisson(load) distributed, so the FPR is
 * sum_x e^-load load^x / x! * (1 - (31/32)^x)^8.
 * Returns 0 for load <= 0 or NaN, 1 for +inf. Cost: O(load + sqrt(load)). */
FK_API double fk_theory_blocked_fpr(double load);

/* The lowest load sizing goes to: 1/8 key per block (2048 bits per key),
 * an FPR of about 1.1e-13. Below it the FPR falls only in proportion to the
 * memory spent (one key in a block passes with 2^-40), so lower targets
 * are sized as this load, as cuckoo fingerprints stop at 32 bits. */
#define FK_BLOCKED_MIN_LOAD 0.125

/* Number of blocks for n keys at false-positive rate p: the smallest count
 * whose fk_theory_blocked_fpr(n / blocks) is at most p, and at most
 * n / FK_BLOCKED_MIN_LOAD. Returns 0 when n is 0, p is not in (0,1) (or
 * NaN), or the count exceeds 2^32 (the block index is 32 bits).
 * Cost: about 80 evaluations of the formula. */
FK_API uint64_t fk_size_blocked_blocks(uint64_t n, double p);

/* Estimate of the distinct keys in `blocks` blocks with x bits set in
 * total: blocks * ln(1 - fill) / ln(31/32), fill = x / (256 blocks), the
 * count that sets that fill on average per word. +inf when every bit is
 * set, 0 for blocks 0. */
FK_API double fk_theory_blocked_items(uint64_t blocks, uint64_t x);

/* The block count fk_blocked_new uses for p: ceil(p->bits / 256) when
 * p->bits is nonzero, else fk_size_blocked_blocks(capacity, fpr). Returns
 * FK_OK with *blocks set; FK_EINVAL for NULL arguments, p failing
 * fk_params_check, or a count that cannot be sized (0 or over 2^32). The
 * memory cap is the allocator's to check. Cost: that of the sizing. */
FK_API fk_status fk_blocked_geometry(const fk_params *p, uint64_t *blocks);

/* ------------------------------------------------------------ the filter */

/* Creates a blocked filter of fk_blocked_geometry(p) blocks. p->hashes
 * is ignored (a key always sets 8 bits). The seed picks the hash.
 * Returns FK_OK with a new filter in *out (caller frees with
 * fk_blocked_free); FK_EINVAL for NULL p or out, bad params
 * (fk_params_check), more than 2^32 blocks or a size
 * over FK_MEMORY_CAP; FK_ENOMEM when allocation fails. *out is NULL on
 * error. Cost: 32 bytes a block, allocated (cache-line aligned) and zeroed. */
FK_API fk_status fk_blocked_new(const fk_params *p, fk_blocked **out);

/* Releases b. NULL is a no-op. Cost: O(1). */
FK_API void fk_blocked_free(fk_blocked *b);

/* Sets the key's 8 bits in its block. Returns FK_OK, or FK_EINVAL for b
 * NULL or key NULL with len > 0. Never fails for lack of room (the FPR
 * rises instead). Cost: one hash, one 32-byte read-modify-write. */
FK_API fk_status fk_blocked_insert(fk_blocked *b, const void *key, size_t len);

/* Sets the key's 8 bits as fk_blocked_insert does (same bits), safely from
 * many threads at once and beside any number of fk_blocked_contains calls
 * (see the table above): the block's eight words are read, and each word
 * whose bit is still clear is ORed with one atomic read-modify-write
 * (relaxed order), so no thread's bit is lost and the bits end as a serial
 * insert of the same keys in any order would leave them. A key whose call
 * has returned is found by every lookup that starts later, in any thread.
 * The item count is kept per thread and counts every successful call.
 * Returns FK_OK, or FK_EINVAL for b NULL or key NULL with len > 0. Cost: one
 * hash, one 32-byte read, up to eight atomic ORs in one cache line. */
FK_API fk_status fk_blocked_insert_concurrent(fk_blocked *b, const void *key, size_t len);

/* Returns true when the key's 8 bits are all set (maybe present), false
 * when one is clear (definitely absent). b NULL, or key NULL with len > 0,
 * answers false. Cost: one hash, one 32-byte read. */
FK_API bool fk_blocked_contains(const fk_blocked *b, const void *key, size_t len);

/* fk_blocked_insert and fk_blocked_contains of an integer key: exactly the
 * calls on its 8 little-endian bytes (same bits, same answers; b NULL:
 * FK_EINVAL, or false), on XXH3's constant-length path for 8 bytes (the
 * byte calls take it too when len is 8). Cost: as the byte calls, less the
 * key load and the length dispatch. */
FK_API fk_status fk_blocked_insert_u64(fk_blocked *b, uint64_t key);
FK_API bool      fk_blocked_contains_u64(const fk_blocked *b, uint64_t key);

/* Fills *out: items = successful inserts (duplicates count again),
 * load_factor = set bits / bits, expected_fpr =
 * fk_theory_blocked_fpr(items / blocks). No-op for NULL arguments.
 * Cost: O(blocks) (counts the set bits). */
FK_API void fk_blocked_stats(const fk_blocked *b, fk_stats *out);

/* Clears every bit and the item count. No-op for NULL. Cost: O(blocks). */
FK_API void fk_blocked_clear(fk_blocked *b);

/* The filter as an fk_filter, for the generic fk_filter_* calls (still owned
 * by the caller; free it with fk_blocked_free or fk_filter_free, not both). */
FK_API fk_filter *fk_blocked_as_filter(fk_blocked *b);

/* Geometry: number of blocks, seed. 0 for NULL. Cost: O(1). */
FK_API uint64_t fk_blocked_blocks(const fk_blocked *b);
FK_API uint64_t fk_blocked_seed(const fk_blocked *b);

/* Where a key lives: the block and the bit (0..31) in each of its words. */
typedef struct {
    uint64_t hash;                    /* the key's XXH3-64 */
    uint64_t block;                   /* ((hash >> 32) * blocks) >> 32 */
    uint8_t  bit[FK_BLOCKED_WORDS];   /* (low32 * salt[i]) >> 27 */
} fk_blocked_probe;

/* Fills *out with the key's block and bits: exactly what insert and
 * contains use. For tracing and tests. Returns FK_OK, or FK_EINVAL for NULL
 * b/out or key NULL with len > 0. Cost: one hash. */
FK_API fk_status fk_blocked_locate(const fk_blocked *b, const void *key, size_t len,
                                   fk_blocked_probe *out);

/* Word w (0..7) of block i; 0 when b is NULL or out of range. Cost: O(1). */
FK_API uint32_t fk_blocked_get_word(const fk_blocked *b, uint64_t block, unsigned w);

/* Number of set bits. 0 for NULL. Cost: O(blocks). */
FK_API uint64_t fk_blocked_count_set_bits(const fk_blocked *b);

/* Estimate of the number of distinct keys inserted, from the fill
 * (fk_theory_blocked_items). +inf when every bit is set, 0 for NULL.
 * Cost: O(blocks). */
FK_API double fk_blocked_estimate_items(const fk_blocked *b);

/* dst |= src: afterwards dst answers true for every key either filter held.
 * The two must be compatible: same number of blocks and seed. Returns
 * FK_OK, or FK_EINVAL for NULL arguments or incompatible filters (dst
 * unchanged). dst's item count becomes the sum of both (an upper bound).
 * dst == src is allowed (no change). Cost: O(blocks). */
FK_API fk_status fk_blocked_union(fk_blocked *dst, const fk_blocked *src);

/* dst &= src: afterwards dst answers true for every key both filters held
 * (possibly with more false positives than a filter built from the
 * intersection). Same compatibility rule and statuses as
 * fk_blocked_union. dst's item count becomes fk_blocked_estimate_items of
 * the result, rounded. Cost: O(blocks). */
FK_API fk_status fk_blocked_intersect(fk_blocked *dst, const fk_blocked *src);

/* ------------------------------------------------------------ batches
 *
 * Many keys per call, answers and bits identical to the single-key calls
 * key by key (the contracts of fk_filter_contains_many .. _insert_many_u64
 * in common/filter.h), on the filter's own code path: the keys are hashed
 * a window at a time and their blocks prefetched a window ahead, so the
 * memory latencies of up to two windows of keys overlap. Thread safety as
 * the single-key calls: contains_many may run with other lookups;
 * insert_many needs the caller's lock. */

/* out[i] = fk_blocked_contains(b, keys[i], lens[i]) for i < n. n == 0 or
 * out NULL: no-op. b NULL, or keys/lens NULL with n > 0, answers false for
 * every key; a key NULL with lens[i] > 0 answers false.
 * Cost: n hashes, n 32-byte reads, one prefetch per key. */
FK_API void fk_blocked_contains_many(const fk_blocked *b, size_t n, const void *const keys[],
                                     const size_t lens[], bool out[]);

/* Inserts keys[0..n) in order, as fk_blocked_insert each. Returns FK_OK
 * (*done = n); FK_EINVAL for b NULL or keys/lens NULL with n > 0 (*done =
 * 0, nothing inserted), or a key NULL with len > 0 (*done = its index: the
 * keys before it are in, it and those after are not). done may be NULL.
 * Cost: n hashes, n 32-byte read-modify-writes, one prefetch per key. */
FK_API fk_status fk_blocked_insert_many(fk_blocked *b, size_t n, const void *const keys[],
                                        const size_t lens[], size_t *done);

/* The same for 64-bit integer keys, each hashed as its 8 little-endian
 * bytes: out[i] = fk_blocked_contains(b, le8(keys[i]), 8), and the insert
 * sets exactly the bits fk_blocked_insert(b, le8(keys[i]), 8) would. NULL
 * rules as above (keys NULL with n > 0: all false / FK_EINVAL). */
FK_API void fk_blocked_contains_many_u64(const fk_blocked *b, size_t n, const uint64_t keys[],
                                         bool out[]);
FK_API fk_status fk_blocked_insert_many_u64(fk_blocked *b, size_t n, const uint64_t keys[],
                                            size_t *done);

/* ------------------------------------------------------------ code paths */

typedef enum {
    FK_BLOCKED_PATH_SCALAR = 0, /* portable C, any machine */
    FK_BLOCKED_PATH_AVX2 = 1    /* x86 AVX2, when the CPU and the OS allow it */
} fk_blocked_path;

/* True when this machine can run the AVX2 path. Cost: O(1). */
FK_API bool fk_blocked_avx2_available(void);

/* The path b's insert and contains take; new filters take AVX2 when it is
 * available. Both paths set and test the same bits. SCALAR for NULL. */
FK_API fk_blocked_path fk_blocked_get_path(const fk_blocked *b);

/* Switches b's path (for tests and benchmarks). Returns FK_OK; FK_EINVAL
 * for NULL b or an unknown path; FK_EUNSUPPORTED for AVX2 on a machine
 * without it (b unchanged). Not safe while other threads use b. */
FK_API fk_status fk_blocked_set_path(fk_blocked *b, fk_blocked_path path);

#ifdef __cplusplus
}
#endif

#endif
