/* tests/test_hash.c: the constant-length hash of 8-byte keys
 * (common/hash.h's fk_hash8_64 / fk_hash8_128) against xxHash itself, bit
 * for bit: every kind's u64 calls and its byte calls with len == 8 rely on
 * the two giving the same value, or a key's bits would depend on the call
 * that brought it (and files saved by one path would not answer the other). */
#include "check.h"
#include "../common/hash.h"

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static void le8(uint8_t out[8], uint64_t v)
{
    for (int i = 0; i < 8; i++)
        out[i] = (uint8_t)(v >> (8 * i));
}

/* Seeds that exercise the fold (low half all ones, high half only, ...)
 * before the random ones. */
static const uint64_t edge_seeds[] = {
    0, 1, UINT64_MAX, UINT64_C(0xFFFFFFFF), UINT64_C(0xFFFFFFFF00000000),
    UINT64_C(0x8000000000000000), UINT64_C(0x0123456789abcdef), 42,
};
static const uint64_t edge_keys[] = {
    0, 1, UINT64_MAX, UINT64_C(0xFFFFFFFF), UINT64_C(0x100000000), UINT64_C(0x8000000000000000),
};

#define N_SEEDS 2000u
#define N_KEYS  500u

static uint64_t seed_at(unsigned i, uint64_t *s)
{
    return i < sizeof edge_seeds / sizeof edge_seeds[0] ? edge_seeds[i] : splitmix(s);
}

static uint64_t key_at(unsigned j, uint64_t *s)
{
    if (j < sizeof edge_keys / sizeof edge_keys[0])
        return edge_keys[j];
    uint64_t k = splitmix(s);
    /* small integers too: the common keys of an app */
    return (j & 3) == 0 ? k >> (k & 63) : k;
}

TEST(hash8_64_is_xxh3_64)
{
    uint64_t s = 1, bad = 0, total = 0;
    for (unsigned i = 0; i < N_SEEDS; i++) {
        uint64_t seed = seed_at(i, &s), flip = fk_hash8_flip64(seed);
        for (unsigned j = 0; j < N_KEYS; j++, total++) {
            uint64_t key = key_at(j, &s);
            uint8_t b[8];
            le8(b, key);
            uint64_t want = XXH3_64bits_withSeed(b, 8, seed);
            if (fk_hash8_64(key, flip) != want && bad++ < 5)
                CHECK_MSG(0, "seed %016llx key %016llx: %016llx, xxHash %016llx",
                          (unsigned long long)seed, (unsigned long long)key,
                          (unsigned long long)fk_hash8_64(key, flip), (unsigned long long)want);
        }
    }
    CHECK_EQ_U64(bad, 0);
    CHECK_EQ_U64(total, (uint64_t)N_SEEDS * N_KEYS);
}

TEST(hash8_128_is_xxh3_128)
{
    uint64_t s = 2, bad = 0;
    for (unsigned i = 0; i < N_SEEDS; i++) {
        uint64_t seed = seed_at(i, &s), flip = fk_hash8_flip128(seed);
        for (unsigned j = 0; j < N_KEYS; j++) {
            uint64_t key = key_at(j, &s);
            uint8_t b[8];
            le8(b, key);
            XXH128_hash_t want = XXH3_128bits_withSeed(b, 8, seed);
            fk_hash128 got = fk_hash8_128(key, flip);
            if ((got.lo != want.low64 || got.hi != want.high64) && bad++ < 5)
                CHECK_MSG(0, "seed %016llx key %016llx: %016llx:%016llx, xxHash %016llx:%016llx",
                          (unsigned long long)seed, (unsigned long long)key,
                          (unsigned long long)got.lo, (unsigned long long)got.hi,
                          (unsigned long long)want.low64, (unsigned long long)want.high64);
            /* and the generic path the byte calls take for other lengths */
            fk_hash128 generic = fk_hash_key(b, 8, seed);
            if ((generic.lo != got.lo || generic.hi != got.hi) && bad++ < 5)
                CHECK_MSG(0, "fk_hash_key differs at seed %016llx", (unsigned long long)seed);
        }
    }
    CHECK_EQ_U64(bad, 0);
}

/* The load the byte calls use for len == 8 reads the bytes little-endian,
 * at any alignment. */
TEST(hash8_load_is_little_endian)
{
    uint8_t buf[16];
    uint64_t s = 3;
    for (unsigned off = 0; off < 8; off++) {
        uint64_t key = splitmix(&s);
        le8(buf + off, key);
        CHECK_EQ_U64(fk_hash8_load(buf + off), key);
    }
}

/* The constant really carries the seed: another seed, another hash (a
 * specialization that ignored the seed would pass the checks above only if
 * xxHash ignored it too). */
TEST(hash8_depends_on_seed_and_key)
{
    uint64_t s = 4, same64 = 0, same128 = 0;
    for (unsigned i = 0; i < 10000; i++) {
        uint64_t key = splitmix(&s), seed = splitmix(&s);
        same64 += fk_hash8_64(key, fk_hash8_flip64(seed)) ==
                  fk_hash8_64(key, fk_hash8_flip64(seed ^ 1));
        same64 += fk_hash8_64(key, fk_hash8_flip64(seed)) ==
                  fk_hash8_64(key ^ 1, fk_hash8_flip64(seed));
        same128 += fk_hash8_128(key, fk_hash8_flip128(seed)).lo ==
                   fk_hash8_128(key, fk_hash8_flip128(seed ^ 1)).lo;
    }
    CHECK_EQ_U64(same64, 0);
    CHECK_EQ_U64(same128, 0);
}

int main(void)
{
    RUN(hash8_64_is_xxh3_64);
    RUN(hash8_128_is_xxh3_128);
    RUN(hash8_load_is_little_endian);
    RUN(hash8_depends_on_seed_and_key);
    return check_report();
}
