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
#include <string.h>
#include "endian.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

/* Identifies the hashing scheme in serialized files; bump on any change to
 * how keys map to bits, slots or fingerprints. Every kind hashes with the
 * XXH3 family (FK_HASH_SCHEME_XXH3_128) and refuses any other id on load
 * (FK_ECORRUPT), but for the one a kind names as its second scheme
 * (fk_serial_ops.second_hash_scheme). */
#define FK_HASH_SCHEME_XXH3_128 1u
/* Parquet's split-block Bloom filter (blocked kind only, blocked/blocked.h):
 * XXH64 with seed 0 over the value's PLAIN encoding, one hash per key. */
#define FK_HASH_SCHEME_PARQUET_XXH64 2u

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

/* ------------------------------------------------ 8-byte keys, constant length
 *
 * XXH3 of an 8-byte key, written out for the one length, so that a filter
 * pays neither xxHash's length dispatch nor the per-call work on the seed.
 * Both functions return exactly XXH3_64bits_withSeed / XXH3_128bits_withSeed
 * of the key's 8 little-endian bytes (tests/test_hash.c checks them bit for
 * bit against xxHash over random keys and seeds); a filter computes the
 * seed's constant once, when it is made (fk_hash8_flip64/_flip128), and
 * keeps it beside the seed.
 *
 * XXH3's 4-to-8-byte path, from its definition: the seed is first folded
 * as seed ^ (bswap32(low 32 bits of seed) << 32); the key is XORed with a
 * "bitflip" made of two words of XXH3's default secret and that folded
 * seed; the 64-bit form swaps the key's 32-bit halves first and finishes
 * with the rrmxmx mix (length 8), the 128-bit form multiplies by
 * PRIME64_1 + 4 * 8 into 128 bits and mixes the two halves. The bitflip is
 * all that depends on the seed, so it is the constant a filter stores.
 * The secret words below are XXH3's default secret (kSecret) read as
 * little-endian 64-bit words at byte offsets 8, 16 and 24. */

#define FK_XXH3_SECRET_8  UINT64_C(0x1cad21f72c81017c)
#define FK_XXH3_SECRET_16 UINT64_C(0xdb979083e96dd4de)
#define FK_XXH3_SECRET_24 UINT64_C(0x1f67b3b7a4a44072)
#define FK_XXH3_PRIME64_1 UINT64_C(0x9E3779B185EBCA87)
#define FK_XXH3_RRMXMX    UINT64_C(0x9FB21C651E98DF25)
#define FK_XXH3_AVALANCHE UINT64_C(0x165667919E3779F9)

/* The seed as XXH3's short-key paths use it. */
static inline uint64_t fk_hash8_fold_seed(uint64_t seed)
{
    return seed ^ ((uint64_t)__builtin_bswap32((uint32_t)seed) << 32);
}

/* The seed's constant for fk_hash8_64 (computed once per filter). */
static inline uint64_t fk_hash8_flip64(uint64_t seed)
{
    return (FK_XXH3_SECRET_8 ^ FK_XXH3_SECRET_16) - fk_hash8_fold_seed(seed);
}

/* The seed's constant for fk_hash8_128 (computed once per filter). */
static inline uint64_t fk_hash8_flip128(uint64_t seed)
{
    return (FK_XXH3_SECRET_16 ^ FK_XXH3_SECRET_24) + fk_hash8_fold_seed(seed);
}

static inline uint64_t fk_rotl64(uint64_t x, unsigned r)
{
    return (x << r) | (x >> (64 - r));
}

/* = XXH3_64bits_withSeed(le8(key), 8, seed), flip = fk_hash8_flip64(seed).
 * 12 instructions on x86-64 (two multiplies). */
static inline uint64_t fk_hash8_64(uint64_t key, uint64_t flip)
{
    uint64_t h = fk_rotl64(key, 32) ^ flip;
    h ^= fk_rotl64(h, 49) ^ fk_rotl64(h, 24);
    h *= FK_XXH3_RRMXMX;
    h ^= (h >> 35) + 8;
    h *= FK_XXH3_RRMXMX;
    return h ^ (h >> 28);
}

/* = XXH3_128bits_withSeed(le8(key), 8, seed) as {low64, high64},
 * flip = fk_hash8_flip128(seed). One 64x64->128 multiply and two more. */
static inline fk_hash128 fk_hash8_128(uint64_t key, uint64_t flip)
{
    unsigned __int128 m = (unsigned __int128)(key ^ flip) * (FK_XXH3_PRIME64_1 + 8 * 4);
    uint64_t lo = (uint64_t)m;
    uint64_t hi = (uint64_t)(m >> 64);
    hi += lo << 1;
    lo ^= hi >> 3;
    lo ^= lo >> 35;
    lo *= FK_XXH3_RRMXMX;
    lo ^= lo >> 28;
    hi ^= hi >> 37;
    hi *= FK_XXH3_AVALANCHE;
    hi ^= hi >> 32;
    fk_hash128 r = { lo, hi };
    return r;
}

/* The 8 bytes at p as a little-endian integer: one load on the hosts we
 * build for (memcpy is how C says "an unaligned load"). */
static inline uint64_t fk_hash8_load(const void *p)
{
    return fk_load_le64(p);
}

/* ------------------------------------------------ the one 64-bit hash
 *
 * The kinds that hash with XXH3-64 (blocked, cuckoo, quotient, fuse,
 * window, expandable) hash every key here: an 8-byte key on the
 * constant-length path above, inline; other keys of up to 16 bytes on
 * XXH3's short-key code, inline (no call: a leaf keeps its registers, and
 * saves no pushes and pops); longer keys out of line (hash.c). */

/* = XXH3_64bits_withSeed(key, len, seed), out of line. key may be NULL
 * only when len is 0. */
uint64_t fk_hash64_long(const void *key, size_t len, uint64_t seed);

/* = XXH3_64bits_withSeed(key, len, *seed), *flip = fk_hash8_flip64(*seed)
 * (the filter keeps it beside the seed). Both come by address, so that
 * each is loaded only on the path that uses it: passed by value, they were
 * loaded ahead of the length test, costing a register and (in cuckoo's
 * lookups) a push and a pop. key may be NULL only when len is 0.
 * Internal, not exported. */
static inline uint64_t fk_hash64(const void *key, size_t len, const uint64_t *seed,
                                 const uint64_t *flip)
{
    if (__builtin_expect(len == 8, 1))
        return fk_hash8_64(fk_hash8_load(key), *flip);
    if (__builtin_expect(len <= 16, 1))
        return XXH3_64bits_withSeed(key, len, *seed);
    return fk_hash64_long(key, len, *seed);
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

/* The same checksum over bytes that arrive in pieces (a record streamed to
 * a file): begin, add each piece in order, then end gives fk_checksum64 of
 * their concatenation. */
typedef XXH64_state_t fk_checksum64_state;
static inline void fk_checksum64_begin(fk_checksum64_state *st, uint64_t seed)
{
    (void)XXH64_reset(st, seed);
}
static inline void fk_checksum64_add(fk_checksum64_state *st, const void *buf, size_t len)
{
    (void)XXH64_update(st, buf, len);
}
static inline uint64_t fk_checksum64_end(const fk_checksum64_state *st)
{
    return XXH64_digest(st);
}

#endif
