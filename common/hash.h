/* common/hash.h: the one hash per key. Internal header (modules only).
 *
 * Every probe position, fingerprint and bucket index derives from one
 * XXH3-128 call on the key, seeded with fk_params.seed. xxHash comes from
 * Debian's libxxhash-dev and is used header-only so the call inlines.
 */
#ifndef FK_HASH_H
#define FK_HASH_H

#include <stddef.h>
#include <stdint.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

/* Identifies the hashing scheme in serialized files; bump on any change to
 * how keys map to bits, slots or fingerprints. */
#define FK_HASH_SCHEME_XXH3_128 1u

/* Marks a hot per-key entry point: `flatten` inlines the hash into it
 * (xxHash's public XXH3 entry is too large for the inliner to take on its
 * own, and the call plus length dispatch cost as much as the hashing). */
#if defined(__GNUC__) || defined(__clang__)
#define FK_HOT __attribute__((flatten))
#else
#define FK_HOT
#endif

typedef struct {
    uint64_t lo; /* first 64 bits: bloom h1, cuckoo bucket index */
    uint64_t hi; /* second 64 bits: bloom h2, cuckoo fingerprint */
} fk_hash128;

/* Hashes len bytes at key (key may be NULL when len is 0). */
static inline fk_hash128 fk_hash_key(const void *key, size_t len, uint64_t seed)
{
    XXH128_hash_t h = XXH3_128bits_withSeed(key, len, seed);
    fk_hash128 r = { h.low64, h.high64 };
    return r;
}

/* A cheap, well-mixed 64-bit mix (the murmur3 finalizer): every output bit
 * depends on every input bit, unlike the low bits of a plain multiply. */
static inline uint64_t fk_mix64(uint64_t x)
{
    x ^= x >> 33;
    x *= UINT64_C(0xff51afd7ed558ccd);
    x ^= x >> 33;
    x *= UINT64_C(0xc4ceb9fe1a85ec53);
    x ^= x >> 33;
    return x;
}

/* XXH64 of a buffer, for serialization checksums. */
static inline uint64_t fk_checksum64(const void *buf, size_t len, uint64_t seed)
{
    return XXH64(buf, len, seed);
}

#endif
