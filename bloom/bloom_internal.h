/* bloom/bloom_internal.h: the Bloom filter's layout, shared by the files of
 * this module (core, set operations, vtable, serialization). Not installed. */
#ifndef FK_BLOOM_INTERNAL_H
#define FK_BLOOM_INTERNAL_H

#include "bloom.h"
#include "../common/lookup_paths.h"
#include "../common/pipeline.h"
#include "../common/probe.h"
#include "../common/sizing_internal.h"
#include "../common/tally.h"
#include "../common/atomic.h"
#include "../common/hashed.h"

struct fk_bloom {
    fk_filter base;      /* must stay first: an fk_bloom * is an fk_filter * */
    /* the byte-key lookup for this k and CPU, chosen at creation (bloom.c);
     * base.contains_u64 is its integer twin */
    bool    (*lookup)(const fk_bloom *b, const void *key, size_t len);
    /* the same lookup from the key's hash (fk_bloom_hashed_ops) */
    fk_contains_hashed_fn lookup_hashed;
    uint64_t  m;         /* bits */
    uint64_t  words;     /* ceil(m / 64) */
    uint32_t  k;         /* probes per key */
    uint64_t  seed;
    uint64_t  hash8;     /* fk_hash8_flip128(seed): XXH3 of 8-byte keys (common/hash.h) */
    uint64_t  capacity;  /* items it was sized for */
    double    fpr;       /* target it was sized for (0 when sized by knobs only) */
    uint64_t  items;     /* successful inserts */
    uint64_t *bits;      /* words x 64 bits, cache-line aligned; bits past m stay 0 */
    fk_tally  tally;     /* successful concurrent inserts (bloom.c) */
};

/* Successful inserts, plain and concurrent (writers done). */
static inline uint64_t fk_bloom_item_count(const fk_bloom *b)
{
    return b->items + fk_tally_sum(&b->tally);
}

/* Builds an empty filter of exactly m bits and k probes (no sizing).
 * Validates ranges; the allocation rules of fk_bloom_new. */
fk_status fk_bloom_create_exact(uint64_t m, uint32_t k, uint64_t seed, uint64_t capacity,
                                double fpr, fk_bloom **out);

/* The key's one hash: 8-byte keys (integers, the common case) on XXH3's
 * constant-length path, the same value as for any other length. */
static inline fk_hash128 fk_bloom_hash(const fk_bloom *b, const void *key, size_t len)
{
    if (__builtin_expect(len == 8, 1))
        return fk_hash8_128(fk_hash8_load(key), b->hash8);
    return fk_hash_key(key, len, b->seed);
}

/* ------------------------------------------- a key's bits from its hash
 *
 * The one place that says which bits a key sets and tests, given its probe
 * sequence (fk_probe_start of its hash): the single-key calls (bloom.c) and
 * the batch pipeline (bloom_batch.c) both run these. */

static inline void fk_bloom_set_probes(fk_bloom *b, fk_probe pr)
{
    uint64_t *bits = b->bits;
    const uint64_t m = b->m;
    for (uint32_t i = 0; i < b->k; i++)
        fk_bit_set(bits, fk_probe_next(&pr, m));
    b->items++;
}

/* All k probes are tested, ANDed into bit 0 without a branch on any of
 * them, and the answer read once. An exit at the first zero bit (or the
 * first group holding one) saves probes on absent keys but mispredicts on
 * a stream that mixes present and absent keys (a coin flip each); with
 * every probe taken, the only branch is the loop's, k times every call, so
 * absent, present and mixed streams all run at the cost of a present key,
 * whose k loads are independent and overlap. */
/* The batches' staged lookups (bloom_batch.c) test this many probes first
 * and prefetch the rest only for keys that passed them. */
#define FK_BLOOM_GROUP 4u

/* The one probe loop: bloom.c inlines it with k a constant for each k up
 * to FK_UNROLLED_K, and over b->k above (its specialised lookups, which
 * fk_bloom_test_probes calls). */
static inline bool fk_bloom_test_k(const fk_bloom *b, fk_probe pr, const uint32_t k)
{
    const uint64_t *bits = b->bits;
    const uint64_t m = b->m;
    uint64_t all = 1;
#pragma GCC unroll 16
    for (uint32_t i = 0; i < k; i++) {
        uint64_t pos = fk_probe_next(&pr, m);
        all &= fk_load64(&bits[pos >> 6]) >> (pos & 63);
        FK_KEEP_IN_ORDER(all);
    }
    return all & 1;
}

/* The same answer through the lookup chosen for the filter's k when it was
 * made (bloom.c, choose_paths): unrolled for k up to FK_UNROLLED_K, where
 * the loop over a run-time k cost the in-cache batch 20 instructions a key
 * more than the call. */
static inline bool fk_bloom_test_probes(const fk_bloom *b, fk_probe pr)
{
    fk_hash128 h = { pr.x, pr.y };
    return b->lookup_hashed(&b->base, h);
}

/* The fk_ops u64 insert slot (bloom.c), for the kind's table: f checked by the
 * dispatchers. */
fk_status fk_bloom_slot_insert_u64(fk_filter *f, uint64_t key);

/* The fk_ops batch slots (bloom_batch.c), for the table in bloom.c. */
FK_BATCH_SLOTS_DECLARE(fk_bloom);

/* The Bloom filter's probes from a hash computed beforehand
 * (common/hashed.h; bloom.c), for the growing chains the registry binds;
 * the hash is fk_bloom_hash's XXH3-128. Not exported. */
extern const fk_hashed_ops fk_bloom_hashed_ops;

/* fk_bloom_hashed_ops' batch (bloom_batch.c): out[i] = the lookup of the
 * key whose hash is h[i], on the lookups' pipeline. */
void fk_bloom_contains_many_hashed(const fk_filter *f, size_t n, const fk_hash128 h[], bool out[]);

/* The saving hooks of fk_bloom_ops (bloom_serial.c; contracts in
 * common/serial.h). */
extern const fk_serial_ops fk_bloom_serial_ops;

/* Writes the key's k probe positions (each in [0, m)) to out[0..k-1], in
 * probe order; out must hold k entries (fk_bloom_describe's hashes). Returns FK_OK, or
 * FK_EINVAL for NULL b/out or key NULL with len > 0. For tracing and tests:
 * these are exactly the positions insert and contains use. Cost: one hash. */
fk_status fk_bloom_locate(const fk_bloom *b, const void *key, size_t len,
                                    uint64_t *out);

/* Returns bit i (false when b is NULL or i >= m). Cost: O(1). */
bool fk_bloom_cell(const fk_bloom *b, uint64_t i);

/* The body of fk_filter_stats for this kind (what each field holds:
 * bloom.h, "Stats"). Internal: a user calls fk_filter_stats(
 * fk_bloom_as_filter(x), &out); the tests and the bench call this. */
void fk_bloom_stats(const fk_bloom *b, fk_stats *out);

#endif
