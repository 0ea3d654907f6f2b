/* blocked/blocked.h: the cache-blocked (split-block) Bloom filter, kind
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
 * Link: build/libfk_blocked.a build/libfk_common.a -lm, nothing else.
 * Thread safety: which calls may run at the same time on one filter, from
 * any number of threads ("no": the caller must keep them apart):
 *
 *                      contains   insert_concurrent   other writers
 *   contains             yes            yes                no
 *   insert_concurrent    yes            yes                no
 *   other writers        no             no                 no
 *
 * (other writers: insert, fk_filter_merge, fk_filter_intersect.) Plain insert
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
 */
#ifndef FK_BLOCKED_H
#define FK_BLOCKED_H

#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include "../common/filter.h"
#include "../common/serial.h"

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

/* The lowest load sizing goes to: 1/8 key per block (2048 bits per key),
 * an FPR of about 1.1e-13. Below it the FPR falls only in proportion to the
 * memory spent (one key in a block passes with 2^-40), so lower targets
 * are sized as this load, as cuckoo fingerprints stop at 32 bits. */
#define FK_BLOCKED_MIN_LOAD 0.125

/* ------------------------------------------------------------ the filter */

/* Creates a blocked filter of ceil(p->bits / 256) blocks when p->bits is
 * nonzero, else the fewest blocks whose theoretical FPR (a Poisson sum
 * over the keys per block; fk_ops_expected_fpr) at capacity keys meets
 * fpr (at most 2^32; fk_ops_size says the memory beforehand). p->hashes
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

/* Note on the insert_concurrent slot (no typed call: it is
 * fk_filter_insert_concurrent(fk_blocked_as_filter(b), key, len)). It sets the key's 8 bits as fk_blocked_insert does (same bits), safely from
 * many threads at once and beside any number of fk_blocked_contains calls
 * (see the table above): the block's eight words are read, and each word
 * whose bit is still clear is ORed with one atomic read-modify-write
 * (relaxed order), so no thread's bit is lost and the bits end as a serial
 * insert of the same keys in any order would leave them. A key whose call
 * has returned is found by every lookup that starts later, in any thread.
 * The item count is kept per thread and counts every successful call.
 * Returns FK_OK, or FK_EINVAL for b NULL or key NULL with len > 0. Cost: one
 * hash, one 32-byte read, and an atomic OR only for each 64-bit word still
 * missing a bit: up to four in one cache line (eight 32-bit ones on
 * big-endian targets). */

/* Returns true when the key's 8 bits are all set (maybe present), false
 * when one is clear (definitely absent). b NULL, or key NULL with len > 0,
 * answers false. Cost: one hash, one 32-byte read. */
FK_API bool fk_blocked_contains(const fk_blocked *b, const void *key, size_t len);

/* Stats: fk_filter_stats(fk_blocked_as_filter(x), &out) fills out:
 * items = successful inserts (duplicates count again),
 * load_factor = set bits / bits, expected_fpr =
 * the theory at items / blocks keys per block. No-op for NULL arguments.
 * Cost: O(blocks) (counts the set bits). */

/* The filter as an fk_filter, for the generic fk_filter_* calls (still owned
 * by the caller; free it with fk_blocked_free or fk_filter_free, not both). */
FK_API fk_filter *fk_blocked_as_filter(fk_blocked *b);

/* Integer keys (common/filter.h, FK_U64_CALLS): fk_blocked_contains_u64,
 * fk_blocked_insert_u64(x, key) answer as the byte calls on the key's 8
 * little-endian bytes; inline, for a program that links this module alone. */
FK_U64_CALLS(fk_blocked)

/* What a filter is made of and how full it is, for tools and tests. */
typedef struct {
    uint64_t blocks;          /* 256-bit blocks */
    uint64_t seed;            /* the params seed */
    uint64_t set_bits;        /* bits set now */
    double   estimated_items; /* distinct keys inserted, estimated from the
                                 fill (an estimate per block); unlike
                                 fk_stats.items it ignores duplicates; +inf
                                 when every bit is set */
} fk_blocked_description;

/* Fills *out for b. No-op for NULL arguments. Cost: O(blocks) (counts the
 * set bits). */
FK_API void fk_blocked_describe(const fk_blocked *b, fk_blocked_description *out);

/* Where a key lives: the block and the bit (0..31) in each of its words. */
typedef struct {
    uint64_t hash;                    /* the key's XXH3-64 */
    uint64_t block;                   /* ((hash >> 32) * blocks) >> 32 */
    uint8_t  bit[FK_BLOCKED_WORDS];   /* (low32 * salt[i]) >> 27 */
} fk_blocked_probe;

/* Set operations: fk_filter_merge (dst |= src) and fk_filter_intersect
 * (dst &= src) on fk_blocked_as_filter of both. The two must be
 * compatible: same number of blocks and seed (else FK_EINVAL, dst
 * unchanged). After a merge dst answers true for every key either filter
 * held and its item count is the sum of both (an upper bound). After an
 * intersection dst answers true for every key both held (possibly with
 * more false positives than a filter built from the intersection) and its
 * item count is fk_blocked_describe's estimated_items of the result,
 * rounded. Cost: O(blocks). */

/* ------------------------------------------------- saving and loading */

/* Saving a blocked filter and loading it back in a buffer. The same as fk_filter_save / _load
 * with &fk_blocked_ops (common/serial.h has the format and the full
 * contract; kind id 4); the payload layout is in blocked/blocked_serial.c. */

/* The kind's id in saved files (reserved for it in common/serial.h). */
#define FK_KIND_BLOCKED 4u

/* fk_blocked_save, fk_blocked_load: the calls
 * of FK_SERIAL_DIRECT_DECLARE (common/serial.h has their contracts), typed
 * for fk_blocked. Bytes a saved blocked filter takes: 128 + 32 * blocks.
 * Saving and loading cost O(blocks); a loaded filter takes this machine's
 * fastest path. */
FK_SERIAL_DIRECT_DECLARE(fk_blocked, fk_blocked);

/* ------------------------------------- Parquet's split-block filter
 *
 * A blocked filter can hash as Parquet's split-block Bloom filter (SBBF)
 * does, so that it holds, byte for byte, the bitset a Parquet writer
 * stores in a column chunk (parquet-format's BloomFilter.md; Arrow,
 * parquet-java, DuckDB, cuDF). The layout, the salts, the block index
 * ((hash >> 32) * blocks) >> 32 and the bits (low32 * salt[i]) >> 27 are
 * the kind's own; what differs is the hash and the sizes:
 *
 *   - the hashing scheme is FK_HASH_SCHEME_PARQUET_XXH64 (common/hash.h):
 *     one XXH64 with seed 0 over the key's bytes, and a key is the value's
 *     PLAIN encoding: INT32 and INT64 as 4 and 8 little-endian bytes, FLOAT
 *     and DOUBLE as their IEEE-754 bits in 4 and 8 little-endian bytes,
 *     BYTE_ARRAY as its bytes without the length prefix. The seed is 0;
 *   - the bitset is a power of two from 32 bytes to 128 MiB (1 to 2^22
 *     blocks).
 *
 * Such a filter is an ordinary blocked filter to every generic call:
 * fk_filter_insert / contains take the plain-encoded bytes; the _u64 calls
 * take an INT64 value (its 8 little-endian bytes: the same bits as the
 * byte calls); batches, insert_concurrent (the table at the top), stats,
 * fk_filter_describe, save and load (the file records the scheme; no
 * other kind loads it), merge and intersect (only with a filter of the
 * same scheme and size: FK_EINVAL otherwise) all work. Its fk_stats:
 * items = successful inserts (a filter made from a bitset: the estimate
 * of its distinct keys from the fill, rounded); expected_fpr = the FPR
 * its bits give a blocked Bloom filter with k = 8, the mean over blocks of
 * the product over the eight words of (set bits / 32): exact for the bits
 * as they are, however they were set (a filter read from a file). The
 * filter records as its capacity and fpr the most distinct values
 * Parquet's rule puts in its size at fpp FK_BLOCKED_PARQUET_FPP, and that
 * fpp (a Parquet file records neither).
 *
 *   fk_filter *f;
 *   if (fk_blocked_new_parquet(fk_blocked_parquet_bytes(1000, 0.01), &f) != FK_OK) ...;
 *   int32_t v = 42;                       // INT32 column: 4 LE bytes
 *   uint8_t le[4] = { v, v >> 8, v >> 16, v >> 24 };
 *   fk_filter_insert(f, le, 4);
 *   const void *bits; size_t n;
 *   fk_blocked_sbbf(f, &bits, &n);        // n bytes, as a Parquet file stores them
 *   fk_filter_free(f);
 */

/* The sizes Parquet allows for a bitset, in bytes (both powers of two). */
#define FK_BLOCKED_PARQUET_MIN_BYTES 32u
#define FK_BLOCKED_PARQUET_MAX_BYTES (UINT64_C(128) << 20)

/* The fpp a filter made from a size or a bitset records as its target
 * (parquet-java's and DuckDB's default). */
#define FK_BLOCKED_PARQUET_FPP 0.01

/* The bitset size Parquet writers choose for ndv distinct values at false
 * positive probability fpp (parquet-cpp's and parquet-java's
 * OptimalNumOfBits): m = -8 ndv / ln(1 - fpp^(1/8)) bits (the bits per
 * value at which a classic Bloom filter with k = 8 has fpp), truncated to
 * an integer, raised to 256 bits, rounded up to a power of two and cut to
 * 128 MiB; returned in bytes. Always a power of two in
 * [FK_BLOCKED_PARQUET_MIN_BYTES, FK_BLOCKED_PARQUET_MAX_BYTES] (ndv 0
 * gives the minimum; an ndv too large for 128 MiB gives the maximum);
 * 0 when fpp is not in (0, 1) or is NaN. Cost: O(1). Pure: any thread. */
FK_API uint64_t fk_blocked_parquet_bytes(uint64_t ndv, double fpp);

/* Creates an empty Parquet-scheme blocked filter of `bytes` bitset bytes
 * (bytes / 32 blocks). Returns FK_OK with a new filter in *out (the caller
 * frees it with fk_filter_free); FK_EINVAL for out NULL or bytes not a
 * power of two in [FK_BLOCKED_PARQUET_MIN_BYTES,
 * FK_BLOCKED_PARQUET_MAX_BYTES]; FK_ENOMEM. *out is NULL on error. Cost:
 * `bytes` allocated (cache-line aligned) and zeroed. */
FK_API fk_status fk_blocked_new_parquet(uint64_t bytes, fk_filter **out);

/* Creates a Parquet-scheme blocked filter holding a copy of `bytes` bytes
 * at bitset laid out as a Parquet file stores it: the blocks in order,
 * each eight little-endian 32-bit words (any alignment, any host). Every
 * bit pattern is valid. Returns FK_OK with a new filter in *out (the
 * caller frees it with fk_filter_free); FK_EINVAL for out NULL, bitset
 * NULL, or bytes not a power of two in [FK_BLOCKED_PARQUET_MIN_BYTES,
 * FK_BLOCKED_PARQUET_MAX_BYTES]; FK_ENOMEM. *out is NULL on error. Cost:
 * one copy of the bitset and one pass counting its bits. */
FK_API fk_status fk_blocked_from_sbbf(const void *bitset, size_t bytes, fk_filter **out);

/* Points *bitset at f's bitset laid out as a Parquet file stores it (as
 * fk_blocked_from_sbbf takes it) and stores its size in *bytes. The bytes
 * are borrowed and read-only: f's own array, which never moves, so the
 * pointer is valid until f is freed and the bytes change as f does (an
 * insert, a merge). Returns FK_OK; FK_EINVAL for a NULL argument or a filter
 * that is not a Parquet-scheme blocked filter (*bitset NULL, *bytes 0).
 * On a big-endian host, whose words are not in the file's byte order, it
 * answers FK_EUNSUPPORTED: the payload of fk_filter_save's record (bytes
 * 120 to 120 + 32 * blocks) holds the same bitset on every host. Cost:
 * O(1), no copy. May run beside lookups and other fk_blocked_sbbf calls;
 * beside concurrent inserts a reader of the bytes sees their bits appear
 * (bits only go from 0 to 1): copy them once those writers are done. */
FK_API fk_status fk_blocked_sbbf(const fk_filter *f, const void **bitset, size_t *bytes);

#ifdef __cplusplus
}
#endif

#endif
