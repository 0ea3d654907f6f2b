/* common/bits.h: small bit and range helpers. Internal header. */
#ifndef FK_BITS_H
#define FK_BITS_H

#include <stdbool.h>
#include <stdint.h>

/* Maps a uniform 64-bit x to [0, n) without division: the high word of
 * x * n (Lemire's multiply-high reduction). Uses the top bits of x. */
static inline uint64_t fk_reduce(uint64_t x, uint64_t n)
{
    return (uint64_t)(((unsigned __int128)x * n) >> 64);
}

/* Bit i of a word array. */
static inline bool fk_bit_get(const uint64_t *w, uint64_t i)
{
    return (w[i >> 6] >> (i & 63)) & 1u;
}

static inline void fk_bit_set(uint64_t *w, uint64_t i)
{
    w[i >> 6] |= UINT64_C(1) << (i & 63);
}

static inline unsigned fk_popcount64(uint64_t x)
{
    return (unsigned)__builtin_popcountll(x);
}

/* Smallest power of two >= x (x >= 1, x <= 2^63). */
static inline uint64_t fk_pow2_ceil(uint64_t x)
{
    return x <= 1 ? 1 : UINT64_C(1) << (64 - __builtin_clzll(x - 1));
}

/* a * b into *out; returns false on uint64_t overflow. */
static inline bool fk_mul_ok(uint64_t a, uint64_t b, uint64_t *out)
{
    return !__builtin_mul_overflow(a, b, out);
}

#endif
