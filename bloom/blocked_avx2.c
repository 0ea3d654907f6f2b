/* bloom/blocked_avx2.c: the blocked filter's AVX2 path, compiled for AVX2
 * whatever the build's flags and called only after the run-time check
 * (fk_blocked_avx2_available). The eight words of a block are one 256-bit
 * vector: one multiply by the salts, one shift and one variable shift of 1
 * give the key's eight masks at once, and one vptest checks them. */
#include "blocked_internal.h"

#if FK_BLOCKED_HAVE_AVX2
#include <immintrin.h>

/* BMI2 too (every AVX2 CPU has it; fk_blocked_avx2_available checks
 * both): the hash's rotations become rorx, which needs no copy. */
#define FK_AVX2 __attribute__((target("avx2,bmi2")))

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

/* Keys of any length but 8 (see fk_blocked_hash). */
FK_HOT FK_AVX2 __attribute__((noinline)) static fk_status insert_any(fk_blocked *b, const void *key,
                                                                     size_t len)
{
    if (!key && len)
        return FK_EINVAL;
    set(b, fk_blocked_hash(key, len, b->seed));
    return FK_OK;
}

FK_HOT FK_AVX2 __attribute__((noinline)) static bool contains_any(const fk_blocked *b,
                                                                  const void *key, size_t len)
{
    return (key || !len) && test(b, fk_blocked_hash(key, len, b->seed));
}

FK_HOT FK_AVX2 fk_status fk_blocked_insert_avx2(fk_blocked *b, const void *key, size_t len)
{
    if (len != 8 || !key)
        return insert_any(b, key, len);
    set(b, fk_hash8_64(fk_hash8_load(key), b->hash8));
    return FK_OK;
}

FK_HOT FK_AVX2 bool fk_blocked_contains_avx2(const fk_blocked *b, const void *key, size_t len)
{
    if (len != 8 || !key)
        return contains_any(b, key, len);
    return test(b, fk_hash8_64(fk_hash8_load(key), b->hash8));
}

FK_HOT FK_AVX2 fk_status fk_blocked_insert_u64_avx2(fk_blocked *b, uint64_t key)
{
    set(b, fk_hash8_64(key, b->hash8));
    return FK_OK;
}

FK_HOT FK_AVX2 bool fk_blocked_contains_u64_avx2(const fk_blocked *b, uint64_t key)
{
    return test(b, fk_hash8_64(key, b->hash8));
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
