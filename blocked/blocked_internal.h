/* blocked/blocked_internal.h: the blocked filter's layout and key mapping,
 * shared by the files of its kind (core, AVX2 path, sizing, set
 * operations, serialization). Not installed. */
#ifndef FK_BLOCKED_INTERNAL_H
#define FK_BLOCKED_INTERNAL_H

#include "blocked.h"
#include "../common/pipeline.h"
#include "../common/hash.h"
#include "../common/serial.h"
#include "../common/tally.h"
#include "../common/atomic.h"
#include "../common/cpu.h"
#include "../common/hashed.h"
#include "../common/sizing_internal.h"

/* The AVX2 path exists where the compiler can target it and ask the CPU
 * (FK_CPU_X86, common/cpu.h). */

/* The code path a filter's insert and contains take (see "code paths"). */
typedef enum {
    FK_BLOCKED_PATH_SCALAR = 0, /* portable C, any machine */
    FK_BLOCKED_PATH_AVX2 = 1    /* x86 AVX2, when the CPU and the OS allow it */
} fk_blocked_path;

/* The single-key calls of one code path (fk_blocked_use_path). */
typedef fk_status (*fk_blocked_insert_fn)(fk_blocked *b, const void *key, size_t len);
typedef bool (*fk_blocked_lookup_fn)(const fk_blocked *b, const void *key, size_t len);
typedef fk_status (*fk_blocked_insert_u64_fn)(fk_blocked *b, uint64_t key);

struct fk_blocked {
    fk_filter base;      /* must stay first: an fk_blocked * is an fk_filter * */
    uint32_t *words;     /* blocks x 8 words, 64-byte aligned: no block straddles a line */
    uint64_t  blocks;    /* 1 .. 2^32 */
    uint64_t  hash8;     /* fk_hash8_flip64(seed): XXH3 of 8-byte keys (common/hash.h) */
    uint64_t  blocks_hi; /* blocks << 32 (blocks < 2^32): fk_blocked_block_ptr's multiplier */
    /* the path's single-key calls, chosen when the path is (no per-call
     * test of the path); its 64-bit lookup is base.contains_u64 */
    fk_blocked_lookup_fn     lookup;
    fk_blocked_insert_u64_fn insert_u64;
    fk_blocked_insert_fn     insert;
    /* the same from the key's XXH3-64 in .lo (fk_blocked_hashed_ops) */
    fk_contains_hashed_fn lookup_hashed;
    fk_insert_hashed_fn   insert_hashed;
    uint64_t  seed;
    uint64_t  capacity;  /* items it was sized for */
    double    fpr;       /* target it was sized for */
    uint64_t  items;     /* successful inserts */
    fk_blocked_path path;
    fk_tally  tally;     /* successful concurrent inserts (blocked.c) */
    uint32_t  scheme;    /* FK_HASH_SCHEME_XXH3_128, or FK_HASH_SCHEME_PARQUET_XXH64
                            (seed 0, a power-of-two count of blocks) */
};

/* A filter of Parquet's scheme (blocked.h, "Parquet's split-block filter"). */
static inline bool fk_blocked_parquet_scheme(const fk_blocked *b)
{
    return b->scheme == FK_HASH_SCHEME_PARQUET_XXH64;
}

/* Successful inserts, plain and concurrent (writers done). */
static inline uint64_t fk_blocked_item_count(const fk_blocked *b)
{
    return b->items + fk_tally_sum(&b->tally);
}

/* The eight odd salts of the Parquet split-block specification. */
#define FK_BLOCKED_SALTS 0x47b6137bu, 0x44974d91u, 0x8824ad5bu, 0xa2b7289du, \
                         0x705495c7u, 0x2df1424bu, 0x9efc4947u, 0x5c6bfb31u

/* The key's one hash (XXH3-64, common/hash.h's fk_hash64 with b's seed).
 * The low 32 bits choose the bits, the high 32 the block. Each path gives
 * 8-byte keys (integers, the common case) a lane of its own where the
 * length is a constant: the compiler drops XXH3's length dispatch, and
 * the lane needs no stack frame for the code of the other lengths, which
 * is one jump away. */
static inline uint64_t fk_blocked_hash_of(const fk_blocked *b, const void *key, size_t len)
{
    return fk_hash64(key, len, &b->seed, &b->hash8);
}

/* Parquet's hash of a key: XXH64 with seed 0 over its bytes (the value's
 * PLAIN encoding), as the split-block specification has it. */
static inline uint64_t fk_blocked_parquet_hash(const void *key, size_t len)
{
    return XXH64(key, len, 0);
}

/* The same for an 8-byte key given as an integer: its 8 little-endian
 * bytes (an INT64 value's PLAIN encoding). The length is a constant, so
 * XXH64's code for it inlines without its length switch. */
static inline uint64_t fk_blocked_parquet_hash8(uint64_t key)
{
    uint8_t le[8];
    fk_le_put64(le, key);
    return XXH64(le, sizeof le, 0);
}

/* The key's hash under b's scheme: for the calls off the hot paths (the
 * hot ones are compiled once per scheme). */
static inline uint64_t fk_blocked_key_hash(const fk_blocked *b, const void *key, size_t len)
{
    return fk_blocked_parquet_scheme(b) ? fk_blocked_parquet_hash(key, len)
                                    : fk_blocked_hash_of(b, key, len);
}

static inline uint64_t fk_blocked_key_hash8(const fk_blocked *b, uint64_t key)
{
    return fk_blocked_parquet_scheme(b) ? fk_blocked_parquet_hash8(key) : fk_hash8_64(key, b->hash8);
}

/* Points b's single-key calls at the code of b->path and b->scheme
 * (blocked.c). */
void fk_blocked_use_path(fk_blocked *b);

/* Block index in [0, blocks): multiply-high of the hash's high 32 bits. */
static inline uint64_t fk_blocked_block_of(uint64_t hash, uint64_t blocks)
{
    return ((hash >> 32) * blocks) >> 32;
}

/* The key's block: fk_blocked_block_of as one multiply-high, since
 * ((hash >> 32) * blocks) >> 32 == ((hash >> 32) * (blocks << 32)) >> 64. */
static inline uint32_t *fk_blocked_block_ptr(const fk_blocked *b, uint64_t hash)
{
    uint64_t block = (uint64_t)(((unsigned __int128)(hash >> 32) * b->blocks_hi) >> 64);
    return b->words + block * FK_BLOCKED_WORDS;
}

/* The bit a key sets in word i: the top 5 bits of low32 * salt[i]. */
static inline unsigned fk_blocked_bit(uint32_t low32, unsigned i)
{
    static const uint32_t salt[FK_BLOCKED_WORDS] = { FK_BLOCKED_SALTS };
    return (low32 * salt[i]) >> 27;
}

/* The portable path's set and test of a hashed key (blocked.c's single-key
 * calls and blocked_batch.c's pipeline both run these). */
static inline void fk_blocked_set_scalar(fk_blocked *b, uint64_t h)
{
    uint32_t *block = fk_blocked_block_ptr(b, h);
#pragma GCC unroll 8
    for (unsigned i = 0; i < FK_BLOCKED_WORDS; i++)
        block[i] |= UINT32_C(1) << fk_blocked_bit((uint32_t)h, i);
    b->items++;
}

/* Branch-free: ANDs the key's bit of every word into bit 0, tests once. */
static inline bool fk_blocked_test_scalar(const fk_blocked *b, uint64_t h)
{
    const uint32_t *block = fk_blocked_block_ptr(b, h);
    uint32_t all = 1;
#pragma GCC unroll 8
    for (unsigned i = 0; i < FK_BLOCKED_WORDS; i++)
        all &= fk_load32(&block[i]) >> fk_blocked_bit((uint32_t)h, i);
    return all & 1;
}

/* The insert and contains of one code path PATH (scalar: blocked.c; avx2:
 * blocked.c too, ATTR its target attribute) over its SET and TEST of one
 * hash, HASH(b, key, len) of any key and HASH8(b, k) of the 8-byte key
 * whose little-endian value is k (the two of one scheme): an 8-byte key
 * takes the constant-length hash inline, any other key an out-of-line
 * call (see fk_blocked_hash_of), so the common case carries no length
 * switch. Defines, with linkage SCOPE (empty or static),
 * fk_blocked_insert_<PATH> and fk_blocked_contains_<PATH>, the u64 insert
 * fk_blocked_insert_u64_<PATH> (the same constant-length hash), and
 * statics <PATH>_lookup_hashed and <PATH>_insert_hashed (from a hash
 * given: common/hashed.h), and <PATH>_filter_contains_u64, on an
 * fk_filter: the path's 64-bit lookup, b->base.contains_u64 (no second
 * pointer to it). */
#define FK_BLOCKED_PATH_ENTRIES(PATH, ATTR, SET, TEST, HASH, HASH8, SCOPE)                  \
    FK_HOT ATTR __attribute__((noinline)) static fk_status PATH##_insert_any(               \
        fk_blocked *b, const void *key, size_t len)                                         \
    {                                                                                       \
        if (!key && len)                                                                    \
            return FK_EINVAL;                                                               \
        SET(b, HASH(b, key, len));                                                          \
        return FK_OK;                                                                       \
    }                                                                                       \
    FK_HOT ATTR __attribute__((noinline)) static bool PATH##_contains_any(                  \
        const fk_blocked *b, const void *key, size_t len)                                   \
    {                                                                                       \
        return (key || !len) && TEST(b, HASH(b, key, len));                                 \
    }                                                                                       \
    SCOPE FK_HOT ATTR fk_status fk_blocked_insert_##PATH(fk_blocked *b, const void *key,    \
                                                   size_t len)                              \
    {                                                                                       \
        if (len != 8 || !key)                                                               \
            return PATH##_insert_any(b, key, len);                                          \
        SET(b, HASH8(b, fk_hash8_load(key)));                                               \
        return FK_OK;                                                                       \
    }                                                                                       \
    SCOPE FK_HOT ATTR bool fk_blocked_contains_##PATH(const fk_blocked *b, const void *key, \
                                                size_t len)                                 \
    {                                                                                       \
        if (len != 8 || !key)                                                               \
            return PATH##_contains_any(b, key, len);                                        \
        return TEST(b, HASH8(b, fk_hash8_load(key)));                                       \
    }                                                                                       \
    SCOPE FK_HOT ATTR fk_status fk_blocked_insert_u64_##PATH(fk_blocked *b, uint64_t key)   \
    {                                                                                       \
        SET(b, HASH8(b, key));                                                              \
        return FK_OK;                                                                       \
    }                                                                                       \
    /* the same from a hash computed beforehand (common/hashed.h) */                        \
    FK_HOT ATTR static bool PATH##_lookup_hashed(const fk_filter *f, fk_hash128 h)          \
    {                                                                                       \
        return TEST((const fk_blocked *)f, h.lo);                                           \
    }                                                                                       \
    FK_HOT ATTR static fk_status PATH##_insert_hashed(fk_filter *f, fk_hash128 h)           \
    {                                                                                       \
        SET((fk_blocked *)f, h.lo);                                                         \
        return FK_OK;                                                                       \
    }                                                                                       \
    /* the same as fk_filter_contains_u64's per-filter target (fk_filter) */                \
    FK_HOT ATTR static bool PATH##_filter_contains_u64(const fk_filter *f, uint64_t key)    \
    {                                                                                       \
        const fk_blocked *b = (const fk_blocked *)f;                                        \
        return TEST(b, HASH8(b, key));                                                      \
    }
/* The two schemes' hashes in the shape FK_BLOCKED_PATH_ENTRIES takes. */
#define FK_BLOCKED_XXH3_HASH(b, key, len) fk_blocked_hash_of(b, key, len)
#define FK_BLOCKED_XXH3_HASH8(b, k)       fk_hash8_64(k, (b)->hash8)
#define FK_BLOCKED_PARQUET_HASH(b, key, len) ((void)(b), fk_blocked_parquet_hash(key, len))
#define FK_BLOCKED_PARQUET_HASH8(b, k)       ((void)(b), fk_blocked_parquet_hash8(k))

fk_status fk_blocked_insert_scalar(fk_blocked *b, const void *key, size_t len);
bool      fk_blocked_contains_scalar(const fk_blocked *b, const void *key, size_t len);
fk_status fk_blocked_insert_u64_scalar(fk_blocked *b, uint64_t key);

/* The AVX2 path (blocked.c): insert and contains whole, hash
 * included, compiled for AVX2 (so no call sits between the hash and the
 * probe). b is not NULL; the key checks are theirs. Call only when
 * fk_blocked_avx2_available(). */
#if FK_CPU_X86
fk_status fk_blocked_insert_avx2(fk_blocked *b, const void *key, size_t len);
bool      fk_blocked_contains_avx2(const fk_blocked *b, const void *key, size_t len);
fk_status fk_blocked_insert_u64_avx2(fk_blocked *b, uint64_t key);
/* The same on keys already hashed (fk_blocked_hash_of), for the batches:
 * out[j] = the test of h[j]; the sets in order. */
void fk_blocked_test_hashes_avx2(const fk_blocked *b, size_t n, const uint64_t h[], bool out[]);
void fk_blocked_set_hashes_avx2(fk_blocked *b, size_t n, const uint64_t h[]);
#endif

/* The fk_ops batch slots (blocked_batch.c), for blocked.c's table. */
FK_BATCH_SLOTS_DECLARE(fk_blocked);

/* The blocked filter's probes from a hash computed beforehand
 * (common/hashed.h; blocked.c), for the growing chains the registry binds;
 * the hash is fk_blocked_hash_of's XXH3-64, in .lo. Not exported. */
extern const fk_hashed_ops fk_blocked_hashed_ops;

/* fk_blocked_hashed_ops' batch (blocked_batch.c): out[i] = the lookup of
 * the key whose hash is h[i].lo, on the lookups' pipeline and b's path. */
void fk_blocked_contains_many_hashed(const fk_filter *f, size_t n, const fk_hash128 h[],
                                     bool out[]);

/* Builds an empty filter of exactly `blocks` blocks (no sizing), hashing
 * with `scheme` (FK_HASH_SCHEME_XXH3_128 with the seed, or
 * FK_HASH_SCHEME_PARQUET_XXH64: seed 0 and a power-of-two count up to
 * FK_BLOCKED_PARQUET_MAX_BYTES / 32). FK_EINVAL for blocks 0, over 2^32 or
 * over FK_MEMORY_CAP, or another scheme or geometry; FK_ENOMEM. */
fk_status fk_blocked_create_exact(uint32_t scheme, uint64_t blocks, uint64_t seed,
                                  uint64_t capacity, double fpr, fk_blocked **out);

/* True when `blocks` blocks make a Parquet-scheme filter: a power of two,
 * 32 to FK_BLOCKED_PARQUET_MAX_BYTES bytes. */
static inline bool fk_blocked_parquet_blocks_ok(uint64_t blocks)
{
    return blocks != 0 && (blocks & (blocks - 1)) == 0 &&
           blocks <= FK_BLOCKED_PARQUET_MAX_BYTES / FK_BLOCKED_BLOCK_BYTES;
}

/* The saving hooks of fk_blocked_ops (blocked_serial.c; contracts in
 * common/serial.h). */
extern const fk_serial_ops fk_blocked_serial_ops;

/* ------------------------------------------------------------ code paths
 *
 * Not exported: the tests (which link the static library) force each path
 * to check that both set and test the same bits. */

/* True when this machine can run the AVX2 path. Cost: O(1). */
bool fk_blocked_avx2_available(void);

/* The path b's insert and contains take; new filters take AVX2 when it is
 * available. Both paths set and test the same bits. SCALAR for NULL. */
fk_blocked_path fk_blocked_get_path(const fk_blocked *b);

/* Switches b's path (for tests and benchmarks). Returns FK_OK; FK_EINVAL
 * for NULL b or an unknown path; FK_EUNSUPPORTED for AVX2 on a machine
 * without it (b unchanged). Not safe while other threads use b. */
fk_status fk_blocked_set_path(fk_blocked *b, fk_blocked_path path);

/* ------------------------------------------------ for this module and its tests
 *
 * (Not exported: stats and fk_ops_size answer the same for users.) */

/* Number of blocks for n keys at false-positive rate p: the smallest count
 * whose fk_theory_blocked_fpr(n / blocks) is at most p, and at most
 * n / FK_BLOCKED_MIN_LOAD. Returns 0 when n is 0, p is not in (0,1) (or
 * NaN), or the count exceeds 2^32 (the block index is 32 bits).
 * Cost: about 80 evaluations of the formula. */
uint64_t fk_size_blocked_blocks(uint64_t n, double p);

/* Estimate of the distinct keys in `blocks` blocks with x bits set in
 * total: blocks * ln(1 - fill) / ln(31/32), fill = x / (256 blocks), the
 * count that sets that fill on average per word. +inf when every bit is
 * set, 0 for blocks 0. */
double fk_theory_blocked_items(uint64_t blocks, uint64_t x);

/* Internal (not exported): a user asks for it through fk_ops_expected_fpr
 * (common/filter.h); the bench and the tests call it directly. */
/* Expected FPR of a split-block filter whose blocks hold on average
 * `load` keys (load = n / blocks). A block holding x keys has, in each of
 * its eight words, x bits chosen independently, so a given bit is set with
 * probability 1 - (31/32)^x and an absent key passes with probability
 * (1 - (31/32)^x)^8; x is Poisson(load) distributed, so the FPR is
 * sum_x e^-load load^x / x! * (1 - (31/32)^x)^8.
 * Returns 0 for load <= 0 or NaN, 1 for +inf. Cost: O(load + sqrt(load)). */
double fk_theory_blocked_fpr(double load);

/* The FPR b's bits give: the chance that a key absent from b finds its 8
 * bits set, its block and its bit in each word uniform, the mean over the
 * blocks of the product over the words of (set bits / 32). Exact for the
 * bits as they are, whatever keys set them (a Parquet filter read from a
 * file: stats' expected_fpr). 0 for NULL. Cost: O(blocks). */
double fk_blocked_fill_fpr(const fk_blocked *b);

/* Number of set bits. 0 for NULL. Cost: O(blocks). */
uint64_t fk_blocked_count_set_bits(const fk_blocked *b);

/* Fills *out with the key's block and bits: exactly what insert and
 * contains use. For tracing and tests. Returns FK_OK, or FK_EINVAL for NULL
 * b/out or key NULL with len > 0. Cost: one hash. */
fk_status fk_blocked_locate(const fk_blocked *b, const void *key, size_t len,
                                   fk_blocked_probe *out);

/* Word w (0..7) of block i; 0 when b is NULL or out of range. Cost: O(1). */
uint32_t fk_blocked_cell(const fk_blocked *b, uint64_t block, unsigned w);

/* The block count fk_blocked_new uses for p: ceil(p->bits / 256) when
 * p->bits is nonzero, else fk_size_blocked_blocks(capacity, fpr). Returns
 * FK_OK with *blocks set; FK_EINVAL for NULL arguments, p failing
 * fk_params_check, or a count that cannot be sized (0 or over 2^32). The
 * memory cap is the allocator's to check. Cost: that of the sizing. */
fk_status fk_blocked_geometry(const fk_params *p, uint64_t *blocks);

/* The body of fk_filter_stats for this kind (what each field holds:
 * blocked.h, "Stats"). Internal: a user calls fk_filter_stats(
 * fk_blocked_as_filter(x), &out); the tests and the bench call this. */
void fk_blocked_stats(const fk_blocked *b, fk_stats *out);

#endif
