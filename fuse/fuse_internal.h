/* fuse/fuse_internal.h: the binary fuse filter's layout and the key ->
 * cells mapping, shared by the files of this module (core, batches,
 * serialization). Not installed. */
#ifndef FK_FUSE_INTERNAL_H
#define FK_FUSE_INTERNAL_H

#include <string.h>
#include "fuse.h"
#include "../common/bits.h"
#include "../common/endian.h"
#include "../common/hash.h"

/* Longest segment: the offsets XORed into h1 and h2 are bits 18..35 and
 * 0..17 of the mixed hash, so a segment holds at most 2^18 cells. */
#define FK_FUSE_MAX_SEGMENT_BITS 18u
#define FK_FUSE_MIN_SEGMENT_LENGTH 4u

/* The lookup path, chosen when the filter is made: the width (8, 16 and 32
 * read whole cells; every other width is packed) and whether the filter has
 * more than one shard. */
typedef enum {
    FK_FUSE_PATH_EMPTY,
    FK_FUSE_PATH_W8, FK_FUSE_PATH_W16, FK_FUSE_PATH_W32, FK_FUSE_PATH_PACKED,
    FK_FUSE_PATH_SHARDED_W8, FK_FUSE_PATH_SHARDED_W16, FK_FUSE_PATH_SHARDED_W32,
    FK_FUSE_PATH_SHARDED_PACKED
} fk_fuse_path;

/* One shard's layout: segments + 2 segments of seg_len cells; a key's
 * first cell is in the first `segments` segments (span cells). */
typedef struct {
    uint64_t shards;      /* S >= 1, all of this layout */
    uint32_t seg_len;     /* a power of two in 4..2^18 */
    uint32_t seg_mask;    /* seg_len - 1 */
    uint64_t segments;    /* >= 1 */
    uint64_t span;        /* segments * seg_len */
    uint64_t shard_cells; /* (segments + 2) * seg_len */
} fk_fuse_geom;

/* What a build did (fk_fuse_describe's build fields). */
typedef struct {
    uint64_t keys_given, duplicates, attempts, max_attempts, temp_bytes, key_passes;
} fk_fuse_build_figures;

typedef bool (*fk_fuse_lookup_fn)(const fk_fuse *fu, const void *key, size_t len);
typedef bool (*fk_fuse_lookup_u64_fn)(const fk_filter *f, uint64_t key);

struct fk_fuse {
    fk_filter    base;        /* must stay first: an fk_fuse * is an fk_filter * */
    /* The lookups specialised for the path (fuse.c), chosen with it: a
     * call through them is one predicted indirect jump, and each body is
     * one width's straight-line code. */
    fk_fuse_lookup_fn     lookup;   /* base.contains_u64 is the integers' one */
    fk_fuse_path path;
    fk_fuse_geom geom;
    uint8_t     *cells;       /* S * shard_cells cells of f bits (whole bytes
                                 or words for 8/16/32, else packed little-endian),
                                 then 8 zero bytes for the packed reads */
    /* cells + seg_len and + 2 seg_len cells (set with the path; packed
     * cells: where seg_len f is a multiple of 8): the arrays a one-shard
     * lookup reads h1 and h2 from (fk_fuse_map) */
    const uint8_t *seg1_cells, *seg2_cells;
    uint64_t    *shard_seed;  /* S entries: each shard's mixing seed (S > 1) */
    uint64_t     hash_seed;   /* the XXH3 seed the keys are hashed with */
    uint64_t     flip;        /* fk_fuse_flip_of(hash_seed): 8-byte keys' constant */
    uint64_t     fp_mask;     /* 2^f - 1 */
    uint32_t     f;
    uint64_t     cell_bytes;  /* bytes of cells, the pad included */
    uint64_t     items;       /* distinct keys stored */
    uint64_t     capacity;    /* as asked (n when 0), >= 1 */
    uint64_t     seed;        /* params seed */
    double       fpr;         /* params fpr */
    fk_fuse_build_figures built;
};

/* The 8-byte keys' path: exactly XXH3_64bits_withSeed(bytes, 8, seed)
 * (xxHash 0.8's 4-to-8-byte case: the two 32-bit halves swapped, XORed
 * with a constant made of the default secret's bytes 8..23 minus the
 * folded seed, then the rrmxmx mix), with that constant, `flip`, computed
 * once per seed (a filter keeps it) instead of per key. tests/test_fuse.c
 * checks it bit for bit against xxHash. */
static inline uint64_t fk_fuse_flip_of(uint64_t seed)
{
    uint64_t folded = seed ^ ((uint64_t)__builtin_bswap32((uint32_t)seed) << 32);
    return (fk_hash8_load(XXH3_kSecret + 8) ^ fk_hash8_load(XXH3_kSecret + 16)) - folded;
}

static inline uint64_t fk_fuse_hash8(uint64_t le_value, uint64_t flip)
{
    const uint64_t mx2 = UINT64_C(0x9FB21C651E98DF25);
    uint64_t h = ((le_value << 32) | (le_value >> 32)) ^ flip;
    h ^= ((h << 49) | (h >> 15)) ^ ((h << 24) | (h >> 40));
    h *= mx2;
    h ^= (h >> 35) + 8;
    h *= mx2;
    return h ^ (h >> 28);
}

/* The key's one hash (XXH3-64, seeded). */
static inline uint64_t fk_fuse_hash(const void *key, size_t len, uint64_t seed)
{
    const uint64_t flip = fk_fuse_flip_of(seed);
    return fk_hash64(key, len, &seed, &flip);
}

/* A 64-bit key's hash: XXH3-64 of its 8 little-endian bytes. */
static inline uint64_t fk_fuse_hash_u64(uint64_t key, uint64_t seed)
{
    return fk_fuse_hash8(key, fk_fuse_flip_of(seed));
}

/* The shard of a hash (the top bits, by multiply-high). */
static inline uint64_t fk_fuse_shard_of(uint64_t h, uint64_t shards)
{
    return fk_reduce(h, shards);
}

/* The hash a sharded filter takes positions from: the shard's bits are
 * spent, so the hash is mixed again with the shard's seed (a bijection:
 * distinct hashes stay distinct). */
static inline uint64_t fk_fuse_remix(uint64_t h, uint64_t shard_seed)
{
    return fk_mix64(h + shard_seed);
}

/* Sets the seed keys are hashed with, and its 8-byte constant. */
static inline void fk_fuse_set_hash_seed(fk_fuse *fu, uint64_t seed)
{
    fu->hash_seed = seed;
    fu->flip = fk_fuse_flip_of(seed);
}

/* The filter's hash of a key (common/hash.h's fk_hash64: the 8-byte path
 * inline with the filter's constant, any other length out of line). */
static inline uint64_t fk_fuse_hash_in(const fk_fuse *fu, const void *key, size_t len)
{
    return fk_hash64(key, len, &fu->hash_seed, &fu->flip);
}

/* A key's three cells within its shard, from its (mixed) hash g. */
static inline void fk_fuse_cells_of(const fk_fuse_geom *geom, uint64_t g, uint64_t c[3])
{
    uint64_t h0 = fk_reduce(g, geom->span);
    uint64_t h1 = h0 + geom->seg_len;
    uint64_t h2 = h1 + geom->seg_len;
    c[0] = h0;
    c[1] = h1 ^ ((g >> FK_FUSE_MAX_SEGMENT_BITS) & geom->seg_mask);
    c[2] = h2 ^ (g & geom->seg_mask);
}

static inline uint32_t fk_fuse_fingerprint(uint64_t g, uint64_t fp_mask)
{
    return (uint32_t)((g ^ (g >> 32)) & fp_mask);
}

/* The 64-bit window of cell i of an array of f-bit cells (w = 8, 16, 32,
 * or 0 for packed): the cell in its low bits, for packed cells the bits
 * of the cells after it above them (the lookups mask once, at the end).
 * w = FK_FUSE_NARROW reads packed cells of at most 9 bits with a 16-bit
 * load, which crosses a cache line 1 time in 64 where a 64-bit load does
 * 7 times in 64. */
#define FK_FUSE_NARROW 1u
#define FK_FUSE_NARROW_MAX_BITS 9u
static inline uint64_t fk_fuse_window(const uint8_t *cells, uint64_t i, unsigned w, uint32_t f)
{
    switch (w) {
    case 8:
        return cells[i];
    case 16: {
        uint16_t v;
        memcpy(&v, cells + 2 * i, 2);
        return v;
    }
    case 32: {
        uint32_t v;
        memcpy(&v, cells + 4 * i, 4);
        return v;
    }
    case FK_FUSE_NARROW: { /* packed, f <= 9: 16 bits hold shift + cell */
        uint64_t bit = i * f;
        uint16_t v;
        memcpy(&v, cells + (bit >> 3), 2);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        v = __builtin_bswap16(v);
#endif
        return (uint32_t)v >> (bit & 7); /* unsigned: no sign extension to 64 bits */
    }
    default: {
        uint64_t bit = i * f;
        return fk_hash8_load(cells + (bit >> 3)) >> (bit & 7);
    }
    }
}

/* Cell i of an array of f-bit cells (w = 8, 16, 32, or 0 for packed). */
static inline uint32_t fk_fuse_cell_get(const uint8_t *cells, uint64_t i, unsigned w,
                                        uint32_t f, uint64_t fp_mask)
{
    return (uint32_t)(fk_fuse_window(cells, i, w, f) & fp_mask);
}

/* The width class of a filter (8, 16, 32, or 0 for packed). */
static inline unsigned fk_fuse_width_class(uint32_t f)
{
    return f == 8 || f == 16 || f == 32 ? f : 0;
}

/* Whole-cell arrays are kept in host order (the file is little-endian:
 * fuse_serial.c converts on big-endian hosts). */

/* The cells and fingerprint of a hash h (the key's XXH3): shard, mixed
 * hash, absolute cell indexes. */
static inline uint64_t fk_fuse_place(const fk_fuse *fu, uint64_t h, bool sharded, uint64_t c[3])
{
    uint64_t g = h, base = 0;
    if (sharded) {
        uint64_t s = fk_fuse_shard_of(h, fu->geom.shards);
        g = fk_fuse_remix(h, fu->shard_seed[s]);
        base = s * fu->geom.shard_cells;
    }
    fk_fuse_cells_of(&fu->geom, g, c);
    c[0] += base;
    c[1] += base;
    c[2] += base;
    return g;
}

/* How a lookup path finds a key's cells (a constant of each path):
 * MAP_SEGMENTS, one shard whose segments start on byte boundaries (every
 * whole-width filter, and a packed one whose L f is a multiple of 8: all
 * but sets of a few keys), reads h1 and h2 without adding L: h1 = (h0 + L)
 * ^ o1 equals (h0 ^ o1) + L, since o1 < L changes only the bits below L's
 * and adding L only those from L's up; so cell h1 is cell h0 ^ o1 of the
 * array that starts L cells on (seg1_cells), and h2 likewise. MAP_ONE, one
 * shard, and MAP_SHARDED take fk_fuse_place's indexes. */
typedef enum { FK_FUSE_MAP_SEGMENTS, FK_FUSE_MAP_ONE, FK_FUSE_MAP_SHARDED } fk_fuse_map;

/* The lookup of a hashed key on path-constant width w and map. The three
 * cells' windows are XORed whole and the fingerprint's bits XORed in
 * before the one mask: equal fingerprints leave zero under fp_mask. Whole
 * cells (w = 8, 16, 32, so f == w) take a constant mask: the test is one
 * compare of the low byte or word, no load of fp_mask, no AND. */
static inline bool fk_fuse_probe(const fk_fuse *fu, uint64_t h, unsigned w, fk_fuse_map map)
{
    if (map == FK_FUSE_MAP_SEGMENTS) {
        uint32_t f = w >= 8 ? w : fu->f;
        uint64_t h0 = fk_reduce(h, fu->geom.span), seg_mask = fu->geom.seg_mask;
        uint64_t a = fk_fuse_window(fu->cells, h0, w, f);
        /* h >> 18 under seg_mask (< 2^18) as h rotated by 18: one RORX */
        uint64_t o1 = ((h >> FK_FUSE_MAX_SEGMENT_BITS) | (h << (64 - FK_FUSE_MAX_SEGMENT_BITS))) & seg_mask;
        uint64_t b = fk_fuse_window(fu->seg1_cells, h0 ^ o1, w, f);
        uint64_t c = fk_fuse_window(fu->seg2_cells, h0 ^ (h & seg_mask), w, f);
        /* h rotated by 32 has h >> 32's low 32 bits, and the narrow type
         * test below reads no more: written so, gcc 12 schedules the
         * XORs with 2 fewer register copies than with the shift or a mask */
        if (w == 8)
            return (uint8_t)(a ^ b ^ c ^ h ^ ((h >> 32) | (h << 32))) == 0;
        if (w == 16)
            return (uint16_t)(a ^ b ^ c ^ h ^ ((h >> 32) | (h << 32))) == 0;
        if (w == 32)
            return (uint32_t)(a ^ b ^ c ^ h ^ ((h >> 32) | (h << 32))) == 0;
        return ((a ^ b ^ c ^ h ^ ((h >> 32) | (h << 32))) & fu->fp_mask) == 0;
    }
    uint64_t c[3];
    uint64_t g = fk_fuse_place(fu, h, map == FK_FUSE_MAP_SHARDED, c);
    uint64_t x = fk_fuse_window(fu->cells, c[0], w, fu->f) ^ fk_fuse_window(fu->cells, c[1], w, fu->f) ^
                 fk_fuse_window(fu->cells, c[2], w, fu->f);
    uint64_t mask = w >= 8 ? UINT64_MAX >> (64 - w) : fu->fp_mask;
    return ((x ^ g ^ (g >> 32)) & mask) == 0;
}

/* The width a build derives from a target rate: the smallest f in 1..32
 * with 2^-f <= fpr (32 below 2^-32); 0 for fpr NaN or not in (0, 1).
 * O(1). (fuse.c) */
uint32_t fk_fuse_fp_bits_for(double fpr);

/* The sizing a build of n distinct keys at width f would use, without
 * building (what fk_ops_size answers, plus the shape and the build's
 * temporary memory at one thread). FK_OK; FK_EINVAL for f not in 1..32,
 * NULL out, or a filter over FK_MEMORY_CAP. Sharded sets are estimated
 * with their shards of equal size (a build adds at most 0.1%). (fuse.c) */
typedef struct {
    uint64_t shards;
    uint32_t segment_length;
    uint64_t segments;        /* per shard */
    uint64_t cells;           /* all shards */
    uint64_t memory_bytes;
    uint64_t temp_bytes;
} fk_fuse_sizing;
fk_status fk_fuse_size(uint64_t n, uint32_t f, fk_fuse_sizing *out);

/* The value of cell i (< cells), f bits; 0 for NULL fu or i out of range.
 * (fuse.c) */
uint32_t fk_fuse_cell(const fk_fuse *fu, uint64_t i);

/* ---------------------------------------------------- for the tests
 * Internal knobs (never exported from the shared library; the static
 * archives let tests/test_fuse.c reach them) so the tests can reach the
 * paths that real sets reach only at scale or by bad luck: a shard size
 * and staging size small enough to shard 10^5 keys, and a number of first
 * attempts forced to fail, which proves the retry bound. Zero means the
 * public constant. A build reads them once, at its start; tests set them
 * between builds, never while one runs. */
typedef struct {
    uint64_t shard_keys;    /* 0: FK_FUSE_SHARD_KEYS */
    uint64_t stage_bytes;   /* 0: what FK_FUSE_TEMP_BUDGET leaves */
    uint64_t fail_attempts; /* each shard's first attempts fail */
    bool     plain_lookups; /* fk_fuse_choose_paths skips the BMI2 paths */
} fk_fuse_test_knobs;
extern fk_fuse_test_knobs fk_fuse_testing;

/* ---------------------------------------------- for the other files */

/* Allocates a filter of geometry geom and width f with zeroed cells and
 * seeds (fuse.c); sets the path for `items` stored keys. FK_EINVAL when the
 * cells exceed FK_MEMORY_CAP, FK_ENOMEM. *out NULL on error. */
fk_status fk_fuse_alloc(const fk_fuse_geom *geom, uint32_t f, uint64_t items, fk_fuse **out);

/* Sets fu->path from its width, shard count and items (fuse.c). */
void fk_fuse_choose_paths(fk_fuse *fu);

/* Cell bytes of a geometry and width, the 8-byte pad included; 0 when over
 * FK_MEMORY_CAP (fuse.c). */
uint64_t fk_fuse_cell_bytes(const fk_fuse_geom *geom, uint32_t f);

/* Packed payload bytes of the cells: ceil(cells * f / 8) (fuse.c). */
uint64_t fk_fuse_packed_bytes(const fk_fuse_geom *geom, uint32_t f);

/* True when geom is one a build can make: seg_len a power of two in
 * 4..2^18, segments >= 1, shards >= 1 (fuse.c; sizes unchecked). */
bool fk_fuse_geom_ok(const fk_fuse_geom *geom);

/* Fills the derived fields (seg_mask, span, shard_cells) (fuse.c). */
void fk_fuse_geom_finish(fk_fuse_geom *geom);

/* The fk_ops batch slots (fuse_batch.c). */
void fk_fuse_slot_contains_many(const fk_filter *f, size_t n, const void *const keys[],
                                const size_t lens[], bool out[]);
void fk_fuse_slot_contains_many_u64(const fk_filter *f, size_t n, const uint64_t keys[],
                                    bool out[]);

/* The saving hooks of fk_fuse_ops (fuse_serial.c). */
extern const fk_serial_ops fk_fuse_serial_ops;

/* Fills *out for key. Returns FK_OK, or FK_EINVAL for NULL fu/out or key
 * NULL with len > 0. An empty filter answers its cells as 0. Cost: one
 * hash. */
fk_status fk_fuse_locate(const fk_fuse *fu, const void *key, size_t len,
                                fk_fuse_location *out);

/* The body of fk_filter_stats for this kind (what each field holds:
 * fuse.h, "Stats"). Internal: a user calls fk_filter_stats(
 * fk_fuse_as_filter(x), &out); the tests and the bench call this. */
void fk_fuse_stats(const fk_fuse *fu, fk_stats *out);

#endif
