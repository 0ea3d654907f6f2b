/* bench/keys/keygen.c: generated keys (the bench's own random numbers,
 * never rand()). */
#include <string.h>
#include "keygen.h"
#include "rng.h"

/* Generated key j as a 64-bit word: splitmix64's bijective mix of a
 * distinct counter value, so distinct j give distinct words. */
uint64_t fkc_gen_word(uint64_t seed, uint64_t j)
{
    return fkc_splitmix_mix(fkc_splitmix_mix(seed) + j * FKC_SPLITMIX_GAMMA);
}

/* Generated string key j: the unique word, then random bytes up to a random
 * length in [FKC_STR_MIN, FKC_STR_MAX]. Returns the length. */
size_t fkc_gen_string(uint64_t seed, uint64_t j, uint8_t *buf)
{
    uint64_t w = fkc_gen_word(seed, j);
    memcpy(buf, &w, 8);
    fkc_rng r;
    fkc_rng_seed(&r, w ^ UINT64_C(0x5851f42d4c957f2d));
    size_t len = FKC_STR_MIN + (size_t)fkc_rng_below(&r, FKC_STR_MAX - FKC_STR_MIN + 1);
    for (size_t at = 8; at < len; at += 8) {
        uint64_t x = fkc_rng_next(&r);
        memcpy(buf + at, &x, len - at < 8 ? len - at : 8);
    }
    return len;
}

