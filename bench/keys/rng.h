/* bench/keys/rng.h: the bench's deterministic random numbers (never rand()).
 *
 * splitmix64 for seeding and for counter-based keys (its output function is
 * a bijection on 64-bit words, which the workload uses to make keys that are
 * distinct by construction), xoshiro256** for streams of draws. */
#ifndef FKC_BENCH_RNG_H
#define FKC_BENCH_RNG_H

#include <stdint.h>

#define FKC_SPLITMIX_GAMMA UINT64_C(0x9e3779b97f4a7c15)

/* splitmix64's output function: a bijection on uint64_t. */
static inline uint64_t fkc_splitmix_mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* Next splitmix64 value from *state. */
static inline uint64_t fkc_splitmix_next(uint64_t *state)
{
    *state += FKC_SPLITMIX_GAMMA;
    return fkc_splitmix_mix(*state);
}

typedef struct {
    uint64_t s[4];
} fkc_rng;

/* Seeds a xoshiro256** stream from one 64-bit seed (via splitmix64, as its
 * authors recommend, so the state is never all zero). */
static inline void fkc_rng_seed(fkc_rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = fkc_splitmix_next(&seed);
}

static inline uint64_t fkc_rotl64(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

/* Next 64 random bits (xoshiro256**). */
static inline uint64_t fkc_rng_next(fkc_rng *r)
{
    uint64_t *s = r->s;
    uint64_t out = fkc_rotl64(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = fkc_rotl64(s[3], 45);
    return out;
}

/* Uniform draw in [0, bound) by multiply-high (bias below 2^-32 for the
 * bounds the bench uses; fine for workloads, not for cryptography). */
static inline uint64_t fkc_rng_below(fkc_rng *r, uint64_t bound)
{
    return (uint64_t)(((unsigned __int128)fkc_rng_next(r) * bound) >> 64);
}

#endif
