/* cuckoo/cuckoo_hash.h: how a key maps to a fingerprint and two buckets,
 * and how a stored fingerprint finds its other bucket (internal).
 *
 * Two schemes, named by an id in the saved file (cuckoo_serial.c):
 *
 * FK_CUCKOO_SCHEME_BLOCKS (every new filter): any number of buckets N >= 1.
 * Split 0..N-1 into the aligned power-of-two blocks of N's binary digits
 * (N = 13 = 8 + 4 + 1: blocks [0,8), [8,12), [12,13)); a position x lies
 * in the block of size 2^e where e is the highest bit in which x differs
 * from N. XOR with anything below 2^e keeps x in its block and below N,
 * and the block of the result is the same, so "XOR within the block" is an
 * involution on 0..N-1 for any N. Over that frame, one XXH3-64 hash h:
 *   fingerprint fp = (((h mod 2^32) * (2^f - 1)) >> 32) + 1, uniform over
 *                    1..2^f-1 with no branch (0 marks an empty slot);
 *   g  = fp * K (K odd);  d = g (the XOR offset, masked to the block);
 *   s  = (g * N) >> 64, the fingerprint's rotation of the frame;
 *   x1 = (h * N) >> 64 (multiply-high: uniform over 0..N-1, no division);
 *   x2 = x1 XOR (d & (block size of x1 - 1));
 *   i1 = (x1 + s) mod N,  i2 = (x2 + s) mod N.
 * A bucket b's other bucket: x = (b - s) mod N, then the same XOR and
 * rotation back. The rotation spreads each fingerprint's blocks over the
 * table, so the few keys that land in a small block (a low binary digit of
 * N) share their buckets with keys of wide blocks that can move away; the
 * largest block holds at least half the table. PAPER_NOTES has the loads.
 *
 * FK_CUCKOO_SCHEME_CHUNKS (every new filter of at least
 * FK_CUCKOO_CHUNKS_MIN_BUCKETS buckets): N = C * 2^e buckets, C whole
 * power-of-two chunks of 2^e buckets (C between FK_CUCKOO_CHUNKS_MIN and
 * twice that, so rounding the table up to whole chunks costs at most
 * 1/FK_CUCKOO_CHUNKS_MIN of it), and a fingerprint's other bucket stays in
 * its chunk (the vacuum filter's frame, PAPER_NOTES [9], with one chunk
 * size). Same hash h, same fingerprint as the blocks scheme; then
 *   i1 = (h * N) >> 64,  i2 = i1 XOR ((fp * K) >> (64 - e)),
 * so a bucket's other bucket is one multiply, one shift and one XOR, with
 * no branch, no block search and no rotation. A chunk keeps the keys whose
 * i1 falls in it, so its load varies around the table's by about
 * 1/sqrt(keys per chunk): chunks of at least 2^13 buckets (32,768 slots,
 * 0.6% at 94%) keep the fullest of ~50 chunks within ~1.5% of the mean,
 * under the ~97% where a chunk's kicks give up; smaller tables keep the
 * blocks scheme (fk_cmap_chunks_geometry decides, once, at creation).
 *
 * FK_CUCKOO_SCHEME_LEGACY (files saved before the blocks scheme): N a
 * power of two, one XXH3-128 hash (lo, hi), i1 = lo & (N - 1), fp = the
 * first nonzero f-bit field of hi (then of lo's top 32 bits), and
 * i2 = i1 XOR (fk_mix64(fp) & (N - 1)). Kept so old files answer exactly
 * as before; new filters never use it.
 */
#ifndef FK_CUCKOO_HASH_H
#define FK_CUCKOO_HASH_H

#include <stdbool.h>
#include <stdint.h>
#include "../common/hash.h"

/* Hash scheme ids (param 4 of a saved cuckoo filter). Never reuse one. */
#define FK_CUCKOO_SCHEME_LEGACY 0u /* XXH3-128, power-of-two table */
#define FK_CUCKOO_SCHEME_BLOCKS 1u /* XXH3-64, any table size */
#define FK_CUCKOO_SCHEME_CHUNKS 2u /* XXH3-64, whole power-of-two chunks */

/* The chunks scheme's frame: at least this many chunks (so at most 1/32 of
 * the table is rounding), each of at least this many buckets (so a chunk's
 * load stays near the table's); tables too small for both keep the blocks
 * scheme. */
#define FK_CUCKOO_CHUNKS_MIN          32u
#define FK_CUCKOO_CHUNK_MIN_BITS      13u
#define FK_CUCKOO_CHUNKS_MIN_BUCKETS  ((uint64_t)FK_CUCKOO_CHUNKS_MIN << FK_CUCKOO_CHUNK_MIN_BITS)

/* The fingerprint multiplier K: 2^64 / golden ratio, odd. */
#define FK_CUCKOO_FP_MUL UINT64_C(0x9e3779b97f4a7c15)

/* The mapping's constants, fixed when the filter is made. */
typedef struct {
    uint64_t buckets;   /* N */
    uint64_t mask;      /* legacy: N - 1 */
    uint32_t fp_mask;   /* 2^f - 1 */
    uint32_t f;
    uint32_t scheme;    /* FK_CUCKOO_SCHEME_* */
    uint32_t chunk_bits;  /* chunks: e (chunks of 2^e buckets); else 0 */
    uint32_t chunk_shift; /* chunks: 64 - e */
} fk_cmap;

/* A key's place: its fingerprint and both buckets (i2 may equal i1). */
typedef struct {
    uint64_t i1, i2;
    uint32_t fp;
    uint64_t hash_lo, hash_hi; /* the raw hash, for tracing (hi 0 under the blocks scheme) */
} fk_cplace;

static inline uint64_t fk_cmap_mulhi(uint64_t a, uint64_t b)
{
    return (uint64_t)(((unsigned __int128)a * b) >> 64);
}

/* (a + b) mod n for a, b < n, without a division. */
static inline uint64_t fk_cmap_add_mod(uint64_t a, uint64_t b, uint64_t n)
{
    uint64_t r = a + b;
    return r >= n ? r - n : r;
}

/* XXH3-64 of the key, seeded (common/hash.h's fk_hash64, the seed's
 * 8-byte constant made here). */
static inline uint64_t fk_cmap_hash(const void *key, size_t len, uint64_t seed)
{
    const uint64_t flip = fk_hash8_flip64(seed);
    return fk_hash64(key, len, &seed, &flip);
}

/* x XOR (d masked to x's block): stays in x's block of 0..n-1. */
static inline uint64_t fk_cmap_flip(uint64_t x, uint64_t d, uint64_t n)
{
    /* block size 2^e, e = the top bit of x ^ n (x < n, so x ^ n != 0) */
    uint64_t below = (UINT64_MAX >> __builtin_clzll(x ^ n)) >> 1;
    return x ^ (d & below);
}

/* ------------------------------------------------------ chunks scheme */

/* The chunks scheme's table for a filter that needs `need` buckets: the
 * chunk size 2^e is the largest power of two with need / 2^e >= 32 chunks,
 * the table `need` rounded up to whole chunks. False (the blocks scheme,
 * `need` buckets, is the one to use) when that chunk would be under 2^13
 * buckets. O(1). */
static inline bool fk_cmap_chunks_geometry(uint64_t need, uint64_t *buckets, uint32_t *chunk_bits)
{
    if (need < FK_CUCKOO_CHUNKS_MIN_BUCKETS)
        return false;
    uint64_t per = need / FK_CUCKOO_CHUNKS_MIN; /* >= 2^13 */
    uint32_t e = 63u - (uint32_t)__builtin_clzll(per);
    uint64_t size = UINT64_C(1) << e;
    *buckets = (need + size - 1) >> e << e;
    *chunk_bits = e;
    return true;
}

/* True when N buckets in chunks of 2^e make a chunks-scheme table: e in
 * 1..62 and N a whole, nonzero number of chunks. */
static inline bool fk_cmap_chunks_ok(uint64_t n, uint32_t e)
{
    return e >= 1 && e <= 62 && n != 0 && (n & ((UINT64_C(1) << e) - 1)) == 0;
}

/* The XOR offset of fingerprint fp: the top e bits of fp * K (the high
 * bits of a product mix every bit of fp; the low ones would not). */
static inline uint64_t fk_cmap_chunk_offset(const fk_cmap *m, uint32_t fp)
{
    return ((uint64_t)fp * FK_CUCKOO_FP_MUL) >> m->chunk_shift;
}

/* A hashed key's fingerprint and buckets under the chunks scheme: two
 * multiplies and one XOR past the hash, no branch. */
static inline fk_cplace fk_cmap_place_chunks_h(const fk_cmap *m, uint64_t h)
{
    fk_cplace p;
    p.fp = (uint32_t)(((h & 0xFFFFFFFFu) * m->fp_mask) >> 32) + 1;
    p.i1 = fk_cmap_mulhi(h, m->buckets);
    p.i2 = p.i1 ^ fk_cmap_chunk_offset(m, p.fp);
    p.hash_lo = h;
    p.hash_hi = 0;
    return p;
}

/* ------------------------------------------------------ blocks scheme */

/* A hashed key's fingerprint and buckets under the blocks scheme: four
 * multiplies, no data-dependent branch. */
static inline fk_cplace fk_cmap_place_blocks_h(const fk_cmap *m, uint64_t h)
{
    const uint64_t n = m->buckets;
    fk_cplace p;
    p.fp = (uint32_t)(((h & 0xFFFFFFFFu) * m->fp_mask) >> 32) + 1;
    uint64_t g = (uint64_t)p.fp * FK_CUCKOO_FP_MUL;
    uint64_t s = fk_cmap_mulhi(g, n);
    uint64_t x1 = fk_cmap_mulhi(h, n);
    p.i1 = fk_cmap_add_mod(x1, s, n);
    p.i2 = fk_cmap_add_mod(fk_cmap_flip(x1, g, n), s, n);
    p.hash_lo = h;
    p.hash_hi = 0;
    return p;
}

/* A key's fingerprint and buckets under the blocks scheme: one XXH3-64
 * and the mapping above. */
static inline fk_cplace fk_cmap_place(const fk_cmap *m, const void *key, size_t len,
                                      uint64_t seed)
{
    return fk_cmap_place_blocks_h(m, fk_cmap_hash(key, len, seed));
}

/* A hashed key's place under the blocks or chunks scheme (the test is the
 * same for every key of a filter, so it predicts). */
static inline fk_cplace fk_cmap_place_h(const fk_cmap *m, uint64_t h)
{
    if (m->scheme == FK_CUCKOO_SCHEME_CHUNKS)
        return fk_cmap_place_chunks_h(m, h);
    return fk_cmap_place_blocks_h(m, h);
}

/* The other bucket of fingerprint fp stored in bucket b (b < N). */
static inline uint64_t fk_cmap_alt(const fk_cmap *m, uint64_t b, uint32_t fp)
{
    if (m->scheme == FK_CUCKOO_SCHEME_CHUNKS)
        return b ^ fk_cmap_chunk_offset(m, fp);
    if (m->scheme == FK_CUCKOO_SCHEME_LEGACY)
        return (b ^ fk_mix64(fp)) & m->mask;
    const uint64_t n = m->buckets;
    uint64_t g = (uint64_t)fp * FK_CUCKOO_FP_MUL;
    uint64_t s = fk_cmap_mulhi(g, n);
    uint64_t x = b >= s ? b - s : b + (n - s);
    return fk_cmap_add_mod(fk_cmap_flip(x, g, n), s, n);
}

/* --------------------------------------------------------- legacy */

/* Called only when the low f bits of hi are 0 (odds 2^-f): the next f-bit
 * field of hi, then of lo's top 32 bits; 1 only if every field is 0. */
__attribute__((noinline, cold))
static uint32_t fk_cmap_legacy_redraw(fk_hash128 h, uint32_t f, uint32_t fp_mask)
{
    const uint64_t halves[2] = { h.hi >> f, h.lo >> 32 };
    const uint32_t widths[2] = { 64 - f, 32 };
    for (int i = 0; i < 2; i++) {
        uint64_t x = halves[i];
        for (uint32_t left = widths[i]; left >= f; left -= f, x >>= f)
            if ((uint32_t)x & fp_mask)
                return (uint32_t)x & fp_mask;
    }
    return 1;
}

/* A key's fingerprint and buckets under the legacy scheme. */
static inline fk_cplace fk_cmap_place_legacy(const fk_cmap *m, const void *key, size_t len,
                                             uint64_t seed)
{
    fk_hash128 h = fk_hash_key(key, len, seed);
    fk_cplace p;
    p.fp = (uint32_t)h.hi & m->fp_mask;
    if (__builtin_expect(p.fp == 0, 0))
        p.fp = fk_cmap_legacy_redraw(h, m->f, m->fp_mask);
    p.i1 = h.lo & m->mask;
    p.i2 = fk_cmap_alt(m, p.i1, p.fp);
    p.hash_lo = h.lo;
    p.hash_hi = h.hi;
    return p;
}

#endif
