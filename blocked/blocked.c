/* blocked/blocked.c: the blocked Bloom filter: create, insert, lookup, stats,
 * the choice of code path, and its fk_ops table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "blocked_internal.h"
#include "../common/alloc.h"
#include "../common/atomic.h"
#include "../common/bits.h"

/* ----------------------------------------------------------- code paths */

bool fk_blocked_avx2_available(void)
{
#if FK_CPU_X86
    return fk_cpu_has(FK_CPU_AVX2 | FK_CPU_BMI2);
#else
    return false;
#endif
}

fk_blocked_path fk_blocked_get_path(const fk_blocked *b)
{
    return b ? b->path : FK_BLOCKED_PATH_SCALAR;
}

fk_status fk_blocked_set_path(fk_blocked *b, fk_blocked_path path)
{
    if (!b || (path != FK_BLOCKED_PATH_SCALAR && path != FK_BLOCKED_PATH_AVX2))
        return FK_EINVAL;
    if (path == FK_BLOCKED_PATH_AVX2 && !fk_blocked_avx2_available())
        return FK_EUNSUPPORTED;
    b->path = path;
    fk_blocked_use_path(b);
    return FK_OK;
}

/* Chooses b's code path when it is made: AVX2 where the CPU has it
 * (common/cpu.h), else scalar. ThreadSanitizer builds take the scalar
 * path, whose every read is an atomic one (a vector load beside concurrent
 * writers would be a data race to it, though x86 reads each aligned word
 * whole). */
static void choose_paths(fk_blocked *b)
{
    b->path = fk_blocked_avx2_available() && !FK_TSAN ? FK_BLOCKED_PATH_AVX2
                                                      : FK_BLOCKED_PATH_SCALAR;
    fk_blocked_use_path(b);
}

/* --------------------------------------------------------------- create */

fk_status fk_blocked_create_exact(uint32_t scheme, uint64_t blocks, uint64_t seed,
                                  uint64_t capacity, double fpr, fk_blocked **out)
{
    *out = NULL;
    if (blocks == 0 || blocks > (UINT64_C(1) << 32) ||
        blocks > FK_MEMORY_CAP / FK_BLOCKED_BLOCK_BYTES)
        return FK_EINVAL;
    if (scheme == FK_HASH_SCHEME_PARQUET_XXH64 ? seed != 0 || !fk_blocked_parquet_blocks_ok(blocks)
                                               : scheme != FK_HASH_SCHEME_XXH3_128)
        return FK_EINVAL;
    fk_blocked *b = calloc(1, sizeof *b);
    if (!b)
        return FK_ENOMEM;
    void *words;
    fk_status s = fk_alloc_zeroed(blocks * FK_BLOCKED_BLOCK_BYTES, &words);
    if (s != FK_OK) {
        free(b);
        return s;
    }
    b->base.ops = &fk_blocked_ops;
    b->words = words;
    b->blocks = blocks;
    b->blocks_hi = blocks << 32;
    b->seed = seed;
    b->hash8 = fk_hash8_flip64(seed);
    b->capacity = capacity;
    b->fpr = fpr;
    b->scheme = scheme;
    choose_paths(b);
    *out = b;
    return FK_OK;
}

fk_status fk_blocked_new(const fk_params *p, fk_blocked **out)
{
    if (!out)
        return FK_EINVAL;
    *out = NULL;
    uint64_t blocks;
    fk_status s = fk_blocked_geometry(p, &blocks);
    if (s != FK_OK)
        return s;
    return fk_blocked_create_exact(FK_HASH_SCHEME_XXH3_128, blocks, p->seed, p->capacity, p->fpr,
                                   out);
}

void fk_blocked_free(fk_blocked *b)
{
    if (!b)
        return;
    free(b->words);
    fk_tally_release(&b->tally);
    free(b);
}

/* ------------------------------------------------- the portable path */

FK_BLOCKED_PATH_ENTRIES(scalar, , fk_blocked_set_scalar, fk_blocked_test_scalar,
                        FK_BLOCKED_XXH3_HASH, FK_BLOCKED_XXH3_HASH8, )
FK_BLOCKED_PATH_ENTRIES(scalar_parquet, , fk_blocked_set_scalar, fk_blocked_test_scalar,
                        FK_BLOCKED_PARQUET_HASH, FK_BLOCKED_PARQUET_HASH8, static)

/* ------------------------------------------------------ the AVX2 path
 *
 * Compiled for AVX2 (a target attribute on each function) whatever the
 * build's flags, and called only after the run-time check
 * (fk_blocked_avx2_available). The eight words of a block are one 256-bit
 * vector: one multiply by the salts, one shift and one variable shift of 1
 * give the key's eight masks at once, and one vptest checks them. */
#if FK_CPU_X86
#include <immintrin.h>

/* BMI2 too (every AVX2 CPU has it; fk_blocked_avx2_available checks
 * both): the hash's rotations become rorx, which needs no copy. */
#define FK_AVX2 FK_TARGET_AVX2

/* The lanes of 1, read from memory in one load (built in a register it
 * takes three instructions on every call). */
static const uint32_t lane_ones[8] __attribute__((aligned(32))) = { 1, 1, 1, 1, 1, 1, 1, 1 };

/* The eight masks 1 << fk_blocked_bit(low32, i), at once. */
FK_AVX2 static inline __m256i masks(uint32_t low32)
{
    const __m256i salt = _mm256_setr_epi32(FK_BLOCKED_SALTS);
    __m256i bit = _mm256_srli_epi32(_mm256_mullo_epi32(_mm256_set1_epi32((int)low32), salt), 27);
    /* a volatile read, so the compiler keeps it one load */
    const __m256i ones = *(const volatile __m256i *)(const volatile void *)lane_ones;
    return _mm256_sllv_epi32(ones, bit);
}

FK_AVX2 static inline void set(fk_blocked *b, uint64_t h)
{
    __m256i *block = (__m256i *)(void *)fk_blocked_block_ptr(b, h);
    _mm256_store_si256(block, _mm256_or_si256(_mm256_load_si256(block), masks((uint32_t)h)));
    b->items++;
}

/* testc: true when every bit of the masks is set in the block. */
FK_AVX2 static inline bool test(const fk_blocked *b, uint64_t h)
{
    const __m256i *block = (const __m256i *)(const void *)fk_blocked_block_ptr(b, h);
    return _mm256_testc_si256(_mm256_load_si256(block), masks((uint32_t)h));
}

FK_BLOCKED_PATH_ENTRIES(avx2, FK_AVX2, set, test, FK_BLOCKED_XXH3_HASH, FK_BLOCKED_XXH3_HASH8, )
FK_BLOCKED_PATH_ENTRIES(avx2_parquet, FK_AVX2, set, test, FK_BLOCKED_PARQUET_HASH,
                        FK_BLOCKED_PARQUET_HASH8, static)

/* The concurrent insert on the AVX2 path: the eight masks at once, one
 * vector read of the block (a read beside concurrent writers, as the
 * lookups' on this path; never in ThreadSanitizer builds), and one atomic
 * OR for each 64-bit word still missing a bit of its masks (at most four,
 * the fewest the 256-bit block allows: x86 has no wider atomic OR). A word
 * seen with its bits set keeps them, so skipping its OR loses nothing. */
FK_AVX2 static fk_status insert_concurrent_avx2(fk_blocked *b, uint64_t h)
{
    uint64_t *block = (uint64_t *)(void *)fk_blocked_block_ptr(b, h);
    __m256i m = masks((uint32_t)h);
    __m256i missing = _mm256_andnot_si256(_mm256_load_si256((const __m256i *)(void *)block), m);
    __m256i done = _mm256_cmpeq_epi64(missing, _mm256_setzero_si256());
    unsigned lanes = ~(unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(done)) & 15u;
    /* each lane's masks straight from the register (no copy through the stack) */
    if (lanes & 1u)
        fk_or64(&block[0], (uint64_t)_mm256_extract_epi64(m, 0));
    if (lanes & 2u)
        fk_or64(&block[1], (uint64_t)_mm256_extract_epi64(m, 1));
    if (lanes & 4u)
        fk_or64(&block[2], (uint64_t)_mm256_extract_epi64(m, 2));
    if (lanes & 8u)
        fk_or64(&block[3], (uint64_t)_mm256_extract_epi64(m, 3));
    fk_tally_add(&b->tally, 1);
    return FK_OK;
}

FK_AVX2 void fk_blocked_test_hashes_avx2(const fk_blocked *b, size_t n, const uint64_t h[],
                                         bool out[])
{
    for (size_t j = 0; j < n; j++)
        out[j] = test(b, h[j]);
}

FK_AVX2 void fk_blocked_set_hashes_avx2(fk_blocked *b, size_t n, const uint64_t h[])
{
    for (size_t j = 0; j < n; j++)
        set(b, h[j]);
}
#endif

/* The single-key calls of one code path and scheme, as b points at them. */
typedef struct {
    fk_blocked_lookup_fn     lookup;
    bool (*contains_u64)(const fk_filter *f, uint64_t key);
    fk_blocked_insert_fn     insert;
    fk_blocked_insert_u64_fn insert_u64;
    fk_contains_hashed_fn    lookup_hashed;
    fk_insert_hashed_fn      insert_hashed;
} path_calls;

#define PATH_CALLS(P)                                                                      \
    { fk_blocked_contains_##P, P##_filter_contains_u64, fk_blocked_insert_##P,            \
      fk_blocked_insert_u64_##P, P##_lookup_hashed, P##_insert_hashed }

/* [0]: XXH3, [1]: Parquet's scheme */
static const path_calls scalar_calls[2] = { PATH_CALLS(scalar), PATH_CALLS(scalar_parquet) };
#if FK_CPU_X86
static const path_calls avx2_calls[2] = { PATH_CALLS(avx2), PATH_CALLS(avx2_parquet) };
#endif

/* Points b's single-key calls at the code of b->path and b->scheme
 * (per-filter pointers: no per-call test of the path or the scheme);
 * fk_blocked_set_path's way in. */
void fk_blocked_use_path(fk_blocked *b)
{
    const path_calls *c = &scalar_calls[fk_blocked_parquet_scheme(b)];
#if FK_CPU_X86
    if (b->path == FK_BLOCKED_PATH_AVX2)
        c = &avx2_calls[fk_blocked_parquet_scheme(b)];
#endif
    b->lookup = c->lookup;
    b->base.contains_u64 = c->contains_u64;
    b->insert = c->insert;
    b->insert_u64 = c->insert_u64;
    b->lookup_hashed = c->lookup_hashed;
    b->insert_hashed = c->insert_hashed;
}

/* ------------------------------------------------------ insert / lookup */

static fk_status fk_blocked_slot_insert(fk_filter *f, const void *key, size_t len);
static bool fk_blocked_slot_contains(const fk_filter *f, const void *key, size_t len);

fk_status fk_blocked_insert(fk_blocked *b, const void *key, size_t len)
{
    return b ? fk_blocked_slot_insert(&b->base, key, len) : FK_EINVAL;
}

bool fk_blocked_contains(const fk_blocked *b, const void *key, size_t len)
{
    return b && fk_blocked_slot_contains(&b->base, key, len);
}


fk_status fk_blocked_locate(const fk_blocked *b, const void *key, size_t len,
                            fk_blocked_probe *out)
{
    if (!b || !out || (!key && len))
        return FK_EINVAL;
    uint64_t h = fk_blocked_key_hash(b, key, len);
    out->hash = h;
    out->block = fk_blocked_block_of(h, b->blocks);
    for (unsigned i = 0; i < FK_BLOCKED_WORDS; i++)
        out->bit[i] = (uint8_t)fk_blocked_bit((uint32_t)h, i);
    return FK_OK;
}

/* --------------------------------------------------------------- access */

fk_filter *fk_blocked_as_filter(fk_blocked *b) { return b ? &b->base : NULL; }

uint32_t fk_blocked_cell(const fk_blocked *b, uint64_t block, unsigned w)
{
    if (!b || block >= b->blocks || w >= FK_BLOCKED_WORDS)
        return 0;
    return b->words[block * FK_BLOCKED_WORDS + w];
}

uint64_t fk_blocked_count_set_bits(const fk_blocked *b)
{
    if (!b)
        return 0;
    /* Two words per popcount; memcpy keeps the access a uint32_t one. */
    uint64_t n = 0, count = b->blocks * FK_BLOCKED_WORDS;
    for (uint64_t i = 0; i < count; i += 2) {
        uint64_t pair;
        memcpy(&pair, b->words + i, sizeof pair);
        n += fk_popcount64(pair);
    }
    return n;
}

void fk_blocked_stats(const fk_blocked *b, fk_stats *out)
{
    if (!b || !out)
        return;
    memset(out, 0, sizeof *out);
    out->items = fk_blocked_item_count(b);
    out->capacity = b->capacity;
    /* the allocator rounds the blocks up to whole 64-byte lines */
    out->memory_bytes = (b->blocks * FK_BLOCKED_BLOCK_BYTES + 63) / 64 * 64 + sizeof *b +
                        fk_tally_bytes(&b->tally);
    out->bits_per_item = 8.0 * (double)out->memory_bytes / (double)b->capacity;
    out->load_factor = (double)fk_blocked_count_set_bits(b) /
                       ((double)b->blocks * FK_BLOCKED_BLOCK_BITS);
    /* a Parquet filter may come from a file, whose keys were never counted:
     * its bits say what an absent key meets */
    out->expected_fpr = fk_blocked_parquet_scheme(b)
                            ? fk_blocked_fill_fpr(b)
                            : fk_theory_blocked_fpr((double)out->items / (double)b->blocks);
}

double fk_blocked_fill_fpr(const fk_blocked *b)
{
    if (!b)
        return 0.0;
    double sum = 0.0;
    for (uint64_t i = 0; i < b->blocks; i++) {
        const uint32_t *w = b->words + i * FK_BLOCKED_WORDS;
        double pass = 1.0;
        for (unsigned j = 0; j < FK_BLOCKED_WORDS; j++)
            pass *= (double)fk_popcount64(w[j]) / FK_BLOCKED_WORD_BITS;
        sum += pass;
    }
    return sum / (double)b->blocks;
}

/* ---- the blocked filter's theory (Putze, Sanders &
 * Singler 2007): the FPR as the Poisson average of the per-block rate,
 * the number of blocks solved from it, and the item estimate. */

/* Above this many keys per block every word is full to double precision
 * ((31/32)^4096 ~ 1e-57), so the Poisson average is the point value. */
#define LOAD_SATURATED 4096.0

/* Chance that an absent key finds its 8 bits set in a block of x keys. */
static double block_fpr(double x)
{
    double word = 1.0 - pow(1.0 - 1.0 / FK_BLOCKED_WORD_BITS, x);
    double w2 = word * word, w4 = w2 * w2;
    return w4 * w4;
}

double fk_theory_blocked_fpr(double load)
{
    if (!(load > 0.0))
        return 0.0;
    if (load >= LOAD_SATURATED)
        return block_fpr(load);
    /* Poisson terms built in log space (no factorials, no lgamma, which is
     * not thread-safe), out to 12 standard deviations past the mean. */
    double sum = 0.0, log_term = -load, log_load = log(load);
    double last = load + 12.0 * sqrt(load) + 20.0;
    for (double x = 0.0; x <= last; x += 1.0) {
        if (x > 0.0)
            log_term += log_load - log(x);
        if (log_term > -745.0) /* below that exp() is 0 */
            sum += exp(log_term) * block_fpr(x);
    }
    return sum < 1.0 ? sum : 1.0;
}

uint64_t fk_size_blocked_blocks(uint64_t n, double p)
{
    if (n == 0 || !(p > 0.0 && p < 1.0))
        return 0;
    /* The FPR rises with the load: bisect for the largest load that meets p,
     * no lower than the floor (below it the FPR only falls in proportion to
     * the memory spent, and a tiny target would ask for petabytes). */
    double lo = FK_BLOCKED_MIN_LOAD, hi = LOAD_SATURATED;
    bool floored = fk_theory_blocked_fpr(lo) > p;
    for (int i = 0; i < 80 && !floored; i++) {
        double mid = 0.5 * (lo + hi);
        if (fk_theory_blocked_fpr(mid) <= p)
            lo = mid;
        else
            hi = mid;
    }
    double blocks = ceil((double)n / lo);
    if (blocks > 4294967296.0) /* 2^32: the block index is 32 bits */
        return 0;
    uint64_t count = (uint64_t)blocks;
    /* n / count <= lo, so this holds but for rounding; a step or two fixes that. */
    for (int step = 0; step < 4 && !floored && count < (UINT64_C(1) << 32) &&
                       fk_theory_blocked_fpr((double)n / (double)count) > p; step++)
        count++;
    return count;
}

double fk_theory_blocked_items(uint64_t blocks, uint64_t x)
{
    if (blocks == 0)
        return 0.0;
    double fill = (double)x / ((double)blocks * FK_BLOCKED_BLOCK_BITS);
    if (fill >= 1.0)
        return INFINITY;
    return (double)blocks * log1p(-fill) / log1p(-1.0 / FK_BLOCKED_WORD_BITS);
}

fk_status fk_blocked_geometry(const fk_params *p, uint64_t *blocks)
{
    if (!blocks)
        return FK_EINVAL;
    *blocks = 0;
    if (fk_params_check(p) != FK_OK)
        return FK_EINVAL;
    uint64_t count = p->bits ? p->bits / FK_BLOCKED_BLOCK_BITS +
                                   ((p->bits & (FK_BLOCKED_BLOCK_BITS - 1)) != 0)
                             : fk_size_blocked_blocks(p->capacity, p->fpr);
    if (count == 0 || count > (UINT64_C(1) << 32))
        return FK_EINVAL;
    *blocks = count;
    return FK_OK;
}

/* ---- union, intersection and the distinct-count estimate
 * of blocked filters. */

static double estimate_items(const fk_blocked *b)
{
    return fk_theory_blocked_items(b->blocks, fk_blocked_count_set_bits(b));
}


void fk_blocked_describe(const fk_blocked *b, fk_blocked_description *out)
{
    if (!b || !out)
        return;
    memset(out, 0, sizeof *out);
    out->blocks = b->blocks;
    out->seed = b->seed;
    out->set_bits = fk_blocked_count_set_bits(b);
    out->estimated_items = fk_theory_blocked_items(b->blocks, out->set_bits);
}

static bool compatible(const fk_blocked *a, const fk_blocked *b)
{
    return a->blocks == b->blocks && a->seed == b->seed && a->scheme == b->scheme;
}

static uint64_t word_count(const fk_blocked *b)
{
    return b->blocks * FK_BLOCKED_WORDS;
}

/* dst |= src, or dst &= src when intersect; the item count as the two
 * calls below say. */
static fk_status combine(fk_blocked *dst, const fk_blocked *src, bool intersect)
{
    if (!dst || !src || !compatible(dst, src))
        return FK_EINVAL;
    if (dst == src)
        return FK_OK;
    uint64_t have = fk_blocked_item_count(dst), add = fk_blocked_item_count(src);
    for (uint64_t i = 0, n = word_count(dst); i < n; i++)
        dst->words[i] = intersect ? dst->words[i] & src->words[i] : dst->words[i] | src->words[i];
    double est = intersect ? estimate_items(dst) : 0.0;
    fk_tally_reset(&dst->tally);
    if (intersect)
        dst->items = isfinite(est) ? (uint64_t)llround(est) : have;
    else
        dst->items = have > UINT64_MAX - add ? UINT64_MAX : have + add;
    return FK_OK;
}

/* ---- the blocked filter's concurrent insert: the
 * scalar path's bits, each word set by an atomic OR where its bit is still
 * clear (OR is order-free, so concurrent inserts lose nothing; skipping the
 * set bits spares the locked instructions a filling block needs less and
 * less). The lookups read the same memory as 32-bit words: both are
 * atomic accesses, so no access races with a plain one. */

FK_HOT static fk_status fk_blocked_slot_insert_concurrent(fk_filter *f, const void *key, size_t len)
{
    fk_blocked *b = (fk_blocked *)f;
    if (!b || (!key && len))
        return FK_EINVAL;
    uint64_t h = fk_blocked_key_hash(b, key, len);
#if FK_CPU_X86
    if (b->path == FK_BLOCKED_PATH_AVX2)
        return insert_concurrent_avx2(b, h);
#endif
    uint32_t *block = fk_blocked_block_ptr(b, h);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* Two 32-bit words as one 64-bit word (word 2j is its low half): half
     * the locked instructions. The block is 32-byte aligned. */
    uint64_t *pairs = (uint64_t *)(void *)block;
    uint64_t seen[FK_BLOCKED_WORDS / 2];
#pragma GCC unroll 4
    for (unsigned j = 0; j < FK_BLOCKED_WORDS / 2; j++)
        seen[j] = fk_load64(&pairs[j]);
#pragma GCC unroll 4
    for (unsigned j = 0; j < FK_BLOCKED_WORDS / 2; j++) {
        uint64_t bits = (UINT64_C(1) << fk_blocked_bit((uint32_t)h, 2 * j)) |
                        (UINT64_C(1) << (32 + fk_blocked_bit((uint32_t)h, 2 * j + 1)));
        if ((seen[j] & bits) != bits)
            fk_or64(&pairs[j], bits);
    }
#else
    uint32_t seen[FK_BLOCKED_WORDS];
#pragma GCC unroll 8
    for (unsigned i = 0; i < FK_BLOCKED_WORDS; i++)
        seen[i] = fk_load32(&block[i]);
#pragma GCC unroll 8
    for (unsigned i = 0; i < FK_BLOCKED_WORDS; i++) {
        uint32_t bit = UINT32_C(1) << fk_blocked_bit((uint32_t)h, i);
        if (!(seen[i] & bit))
            fk_or32(&block[i], bit);
    }
#endif
    fk_tally_add(&b->tally, 1);
    return FK_OK;
}

/* ---------------------------------------------------------------- vtable */

static fk_status fk_blocked_slot_create(const fk_params *p, fk_filter **out)
{
    fk_blocked *b = NULL;
    fk_status s = fk_blocked_new(p, &b);
    *out = b ? &b->base : NULL;
    return s;
}

static void fk_blocked_slot_destroy(fk_filter *f) { fk_blocked_free((fk_blocked *)f); }

/* The fk_filter_* dispatchers never pass a NULL filter: these go straight
 * to the path's call (a tail jump; the bench's loops call them one key at
 * a time). */
static fk_status fk_blocked_slot_insert(fk_filter *f, const void *key, size_t len)
{
    fk_blocked *b = (fk_blocked *)f;
    return b->insert(b, key, len);
}

static bool fk_blocked_slot_contains(const fk_filter *f, const void *key, size_t len)
{
    const fk_blocked *b = (const fk_blocked *)f;
    return b->lookup(b, key, len);
}

static fk_status fk_blocked_slot_insert_u64(fk_filter *f, uint64_t key)
{
    fk_blocked *b = (fk_blocked *)f;
    return b->insert_u64(b, key);
}

/* Probes from a hash computed beforehand (common/hashed.h): the path's
 * own set and test, as the calls above. */
static fk_hash128 hashed_hash(const fk_filter *f, const void *key, size_t len)
{
    return fk_hashed_of64(fk_blocked_key_hash((const fk_blocked *)f, key, len));
}

static fk_hash128 hashed_hash_u64(const fk_filter *f, uint64_t key)
{
    return fk_hashed_of64(fk_blocked_key_hash8((const fk_blocked *)f, key));
}

/* The path's probes, as fk_blocked_use_path chose them. */
static bool hashed_probes(const fk_filter *f, fk_hashed_probes *out)
{
    const fk_blocked *b = (const fk_blocked *)f;
    *out = (fk_hashed_probes){ b->lookup_hashed, b->insert_hashed };
    return true;
}

const fk_hashed_ops fk_blocked_hashed_ops = {
    .hash = hashed_hash,
    .hash_u64 = hashed_hash_u64,
    .probes = hashed_probes,
    .contains_many_hashed = fk_blocked_contains_many_hashed,
};

static void fk_blocked_slot_stats(const fk_filter *f, fk_stats *out)
{
    fk_blocked_stats((const fk_blocked *)f, out);
}

/* What fk_blocked_new(p) would build, and its theory at `items` keys. */
static fk_status fk_blocked_slot_size(const fk_params *p, double items, fk_sizing *out)
{
    uint64_t blocks;
    fk_status s = fk_blocked_geometry(p, &blocks);
    if (s != FK_OK)
        return s;
    out->memory_bytes = (blocks * FK_BLOCKED_BLOCK_BYTES + 63) / 64 * 64 + sizeof(fk_blocked);
    out->expected_fpr = fk_theory_blocked_fpr(items / (double)blocks);
    snprintf(out->geometry, sizeof out->geometry, "%llu blocks of %u bits, 8 bits per key",
             (unsigned long long)blocks, FK_BLOCKED_BLOCK_BITS);
    return FK_OK;
}

static fk_status fk_blocked_slot_merge(fk_filter *dst, const fk_filter *src)
{
    return combine((fk_blocked *)dst, (const fk_blocked *)src, false);
}

static fk_status fk_blocked_slot_intersect(fk_filter *dst, const fk_filter *src)
{
    return combine((fk_blocked *)dst, (const fk_blocked *)src, true);
}

/* The describe slot: fk_blocked_description's fields as rows, in its order
 * (fk_filter_describe; `at` is ignored: the kind has no clock). */
static fk_status fk_blocked_slot_describe(const fk_filter *f, const uint64_t *at,
                                      fk_describe_row *rows, size_t cap, size_t *n)
{
    (void)at;
    fk_blocked_description d;
    fk_blocked_describe((const fk_blocked *)(const void *)f, &d);
    fk_describe_u64(rows, cap, n, "blocks", d.blocks);
    fk_describe_u64(rows, cap, n, "seed", d.seed);
    fk_describe_u64(rows, cap, n, "set_bits", d.set_bits);
    fk_describe_double(rows, cap, n, "estimated_items", d.estimated_items);
    /* a row of its own for the second scheme (the XXH3 filters' rows stay
     * as they were) */
    if (fk_blocked_parquet_scheme((const fk_blocked *)(const void *)f))
        fk_describe_string(rows, cap, n, "hash", "parquet: XXH64 seed 0 of the PLAIN encoding");
    /* after 0.4.0's rows: a key's bits all lie in one block */
    fk_describe_u64(rows, cap, n, "lookup_reads", 1);
    return FK_OK;
}

const fk_ops fk_blocked_ops = {
    .version = FK_OPS_VERSION,
    .name = "blocked",
    .summary = "split-block Bloom filter: 8 bits in one 256-bit block per key; no removes",
    .create = fk_blocked_slot_create,
    .destroy = fk_blocked_slot_destroy,
    .insert = fk_blocked_slot_insert,
    .contains = fk_blocked_slot_contains,
    .stats = fk_blocked_slot_stats,
    .serial = &fk_blocked_serial_ops,
    .size = fk_blocked_slot_size,
    .contains_many = fk_blocked_slot_contains_many,
    .insert_many = fk_blocked_slot_insert_many,
    .contains_many_u64 = fk_blocked_slot_contains_many_u64,
    .insert_many_u64 = fk_blocked_slot_insert_many_u64,
    .insert_concurrent = fk_blocked_slot_insert_concurrent,
    .merge = fk_blocked_slot_merge,
    .intersect = fk_blocked_slot_intersect,
    .insert_u64 = fk_blocked_slot_insert_u64,
    .describe = fk_blocked_slot_describe,
};
