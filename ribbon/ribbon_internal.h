/* ribbon/ribbon_internal.h: the ribbon filter's layout and the key -> row
 * mapping, shared by the files of this module (core, batches,
 * serialization). Not installed. */
#ifndef FK_RIBBON_INTERNAL_H
#define FK_RIBBON_INTERNAL_H

#include <string.h>
#include "ribbon.h"
#include "../common/bits.h"
#include "../common/endian.h"
#include "../common/hash.h"
#include "../common/cpu.h"

/* The constants a row is derived from (odd: the products are bijections
 * of the hash, so distinct hashes give distinct coefficient rows). */
#define FK_RIBBON_COEF_MUL UINT64_C(0x9E3779B97F4A7C15)
#define FK_RIBBON_FP_MUL   UINT64_C(0xD6E8FEB86659FD93)

/* The fewest slots a shard has: one band plus one block, so every start
 * has a whole band after it. */
#define FK_RIBBON_MIN_SLOTS (FK_RIBBON_WIDTH + 64u)

/* One shard's layout: m slots (a multiple of 64) in m / 64 blocks of r
 * words; the solution of all shards is S * blocks blocks, then one zero
 * block that the last band's third read may touch. */
typedef struct {
    uint64_t shards;  /* S >= 1 */
    uint64_t slots;   /* m per shard: a multiple of 64, >= FK_RIBBON_MIN_SLOTS */
    uint64_t blocks;  /* m / 64 */
    uint64_t starts;  /* m - w + 1: the start slots a key may take */
} fk_ribbon_geom;

/* What a build did (describe's build rows). */
typedef struct {
    uint64_t keys_given, duplicates, attempts, max_attempts, level, temp_bytes, key_passes;
} fk_ribbon_build_figures;

typedef bool (*fk_ribbon_lookup_fn)(const fk_ribbon *rb, const void *key, size_t len);
typedef bool (*fk_ribbon_lookup_u64_fn)(const fk_filter *f, uint64_t key);

struct fk_ribbon {
    fk_filter   base;        /* must stay first */
    fk_ribbon_lookup_fn lookup; /* chosen with the path: portable, popcnt or AVX2 */
    int         isa;         /* FK_RIBBON_ISA_*: what the lookups (and batches) use */
    fk_ribbon_geom geom;
    uint64_t   *solution;    /* (S * blocks + 1) * r words, host order */
    uint64_t    solution_words;
    uint64_t   *shard_seed;  /* S entries (0 for S = 1) */
    uint64_t    hash_seed;   /* the XXH3 seed the keys are hashed with */
    uint64_t    flip;        /* fk_hash8_flip64(hash_seed) */
    uint32_t    r;           /* result bits */
    uint32_t    fp_mask;     /* 2^r - 1 */
    uint64_t    items;
    uint64_t    capacity;
    uint64_t    seed;        /* params seed */
    double      fpr;         /* params fpr */
    fk_ribbon_build_figures built;
};

/* The instruction sets a filter's lookups are compiled for, chosen when
 * it is made (same bits on every path). */
#define FK_RIBBON_ISA_PLAIN  0
#define FK_RIBBON_ISA_POPCNT 1 /* BMI2 + popcnt: a parity is popcnt and a mask */
#define FK_RIBBON_ISA_AVX2   2 /* AVX2 + BMI2, r >= 4: four columns per step */

/* A key's equation: start slot, coefficient row (bit 0 set) and result. */
typedef struct {
    uint64_t s;
    uint64_t lo, hi;
    uint32_t fp;
} fk_ribbon_row;

static inline void fk_ribbon_row_of(uint64_t starts, uint64_t g, uint32_t fp_mask,
                                    fk_ribbon_row *row)
{
    unsigned __int128 c = (unsigned __int128)g * FK_RIBBON_COEF_MUL;
    row->s = fk_reduce(g, starts);
    row->lo = (uint64_t)c | 1u;
    row->hi = (uint64_t)(c >> 64);
    row->fp = (uint32_t)((g * FK_RIBBON_FP_MUL) >> 32) & fp_mask;
}

/* The shard of a hash (its top bits) and the hash a sharded filter takes
 * rows from (mixed again with the shard's seed: a bijection). */
static inline uint64_t fk_ribbon_shard_of(uint64_t h, uint64_t shards)
{
    return fk_reduce(h, shards);
}
static inline uint64_t fk_ribbon_remix(uint64_t h, uint64_t shard_seed)
{
    return fk_mix64(h + shard_seed);
}

static inline void fk_ribbon_set_hash_seed(fk_ribbon *rb, uint64_t seed)
{
    rb->hash_seed = seed;
    rb->flip = fk_hash8_flip64(seed);
}

static inline uint64_t fk_ribbon_hash_in(const fk_ribbon *rb, const void *key, size_t len)
{
    return fk_hash64(key, len, &rb->hash_seed, &rb->flip);
}

/* Where a hash's row lives: the mixed hash g and the first word of its
 * first block (an index into solution). */
static inline uint64_t fk_ribbon_place(const fk_ribbon *rb, uint64_t h, bool sharded,
                                       fk_ribbon_row *row, uint64_t *word)
{
    uint64_t g = h, base = 0;
    if (sharded) {
        uint64_t s = fk_ribbon_shard_of(h, rb->geom.shards);
        g = fk_ribbon_remix(h, rb->shard_seed[s]);
        base = s * rb->geom.blocks;
    }
    fk_ribbon_row_of(rb->geom.starts, g, rb->fp_mask, row);
    *word = (base + (row->s >> 6)) * rb->r;
    return g;
}

/* The row shifted to the block boundary: three words c[0..2] over blocks
 * b, b + 1, b + 2 (c[2] is 0 when the start is aligned). */
static inline void fk_ribbon_shifted(const fk_ribbon_row *row, uint64_t c[3])
{
    unsigned o = (unsigned)(row->s & 63);
    c[0] = row->lo << o;
    c[1] = (row->hi << o) | ((row->lo >> 1) >> (63 - o));
    c[2] = (row->hi >> 1) >> (63 - o);
}

/* Result bit j of a shifted row against the solution whose block holds
 * p[0..r). */
static inline uint32_t fk_ribbon_bit(const uint64_t *p, uint32_t r, const uint64_t c[3],
                                     uint32_t j)
{
    return (uint32_t)__builtin_parityll((c[0] & p[j]) ^ (c[1] & p[r + j]) ^ (c[2] & p[2 * r + j]));
}

/* The r result bits of a row (tracing, tests). */
static inline uint32_t fk_ribbon_result(const uint64_t *p, uint32_t r, const fk_ribbon_row *row)
{
    uint64_t c[3];
    fk_ribbon_shifted(row, c);
    uint32_t acc = 0;
    for (uint32_t j = 0; j < r; j++)
        acc |= fk_ribbon_bit(p, r, c, j) << j;
    return acc;
}

/* Bits a lookup tests before its first early exit, and its second: an
 * absent key fails the first test with probability 1 - 2^-F, so it pays
 * for about F + (r - F) 2^-F bits, at the cost of a branch mispredicted
 * 1 time in 2^F (the choice measured: PAPER_NOTES, "Ribbon"). */
#ifndef FK_RIBBON_FIRST_BITS
#define FK_RIBBON_FIRST_BITS 2u
#endif
#define FK_RIBBON_SECOND_BITS 2u

/* True when the row's result equals its fingerprint: the first
 * FK_RIBBON_FIRST_BITS bits, the next FK_RIBBON_SECOND_BITS, then (rarely,
 * for absent keys) the rest. */
static inline bool fk_ribbon_matches(const uint64_t *p, uint32_t r, const fk_ribbon_row *row)
{
    uint64_t c[3];
    fk_ribbon_shifted(row, c);
    uint32_t acc = 0, j = 0;
    const uint64_t *q = p + r, *t = p + 2 * r;
    /* unrolled: the words at constant offsets from p, p + r, p + 2r */
#define FK_RIBBON_BIT_AT(k) \
    ((uint32_t)__builtin_parityll((c[0] & p[k]) ^ (c[1] & q[k]) ^ (c[2] & t[k])) << (k))
    if (__builtin_expect(r >= FK_RIBBON_FIRST_BITS + FK_RIBBON_SECOND_BITS, 1)) {
        for (; j < FK_RIBBON_FIRST_BITS; j++)
            acc |= FK_RIBBON_BIT_AT(j);
        if (__builtin_expect(((acc ^ row->fp) & ((1u << j) - 1)) != 0, 1))
            return false;
        for (; j < FK_RIBBON_FIRST_BITS + FK_RIBBON_SECOND_BITS; j++)
            acc |= FK_RIBBON_BIT_AT(j);
        if (__builtin_expect(((acc ^ row->fp) & ((1u << j) - 1)) != 0, 1))
            return false;
    }
#undef FK_RIBBON_BIT_AT
    for (; j < r; j++)
        acc |= fk_ribbon_bit(p, r, c, j) << j;
    return acc == row->fp;
}

#if FK_CPU_X86
#include <immintrin.h>
/* Result bits j..j+3 of a shifted row at once (AVX2): the four columns'
 * words of each block lie side by side (row-interleaved), so one 256-bit
 * load per block gets them; each lane's parity is its bytes' parities
 * (a nibble table, twice) summed by vpsadbw, bit 0. Needs j + 4 <= r. */
FK_TARGET_AVX2 static inline uint32_t fk_ribbon_bits4_avx2(const uint64_t *p, uint32_t r,
                                                           const uint64_t c[3])
{
    const __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)p);
    const __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(p + r));
    const __m256i d = _mm256_loadu_si256((const __m256i *)(const void *)(p + 2 * r));
    __m256i x = _mm256_xor_si256(
        _mm256_xor_si256(_mm256_and_si256(a, _mm256_set1_epi64x((long long)c[0])),
                         _mm256_and_si256(b, _mm256_set1_epi64x((long long)c[1]))),
        _mm256_and_si256(d, _mm256_set1_epi64x((long long)c[2])));
    const __m256i table = _mm256_setr_epi8(0, 1, 1, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 1, 1, 0,
                                           0, 1, 1, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 1, 1, 0);
    const __m256i nib = _mm256_set1_epi8(0x0F);
    __m256i lo = _mm256_and_si256(x, nib);
    __m256i hi = _mm256_and_si256(_mm256_srli_epi16(x, 4), nib);
    __m256i par = _mm256_xor_si256(_mm256_shuffle_epi8(table, lo), _mm256_shuffle_epi8(table, hi));
    __m256i sum = _mm256_sad_epu8(par, _mm256_setzero_si256());
    return (uint32_t)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_slli_epi64(sum, 63)));
}

/* fk_ribbon_matches for r >= 4 with AVX2: four bits, the early exit, then
 * four at a time (the last step overlapping the one before it). */
FK_TARGET_AVX2 static inline bool fk_ribbon_matches_avx2(const uint64_t *p, uint32_t r,
                                                         const fk_ribbon_row *row)
{
    uint64_t c[3];
    fk_ribbon_shifted(row, c);
    uint32_t acc = fk_ribbon_bits4_avx2(p, r, c);
    if (__builtin_expect(((acc ^ row->fp) & 15u) != 0, 1))
        return false;
    for (uint32_t j = 4; j < r; j += 4) {
        uint32_t at = j + 4 <= r ? j : r - 4;
        acc |= fk_ribbon_bits4_avx2(p + at, r, c) << at;
    }
    return acc == row->fp;
}

FK_TARGET_AVX2 static inline bool fk_ribbon_probe_avx2(const fk_ribbon *rb, uint64_t h,
                                                       bool sharded)
{
    fk_ribbon_row row;
    uint64_t word;
    fk_ribbon_place(rb, h, sharded, &row, &word);
    return fk_ribbon_matches_avx2(rb->solution + word, rb->r, &row);
}
#endif

/* The lookup of a hashed key. */
static inline bool fk_ribbon_probe(const fk_ribbon *rb, uint64_t h, bool sharded)
{
    fk_ribbon_row row;
    uint64_t word;
    fk_ribbon_place(rb, h, sharded, &row, &word);
    return fk_ribbon_matches(rb->solution + word, rb->r, &row);
}

/* The result bits a build derives from a target rate (as fuse). */
uint32_t fk_ribbon_bits_for(double fpr);

/* The slots per shard a build of n distinct keys uses at level L (L = 0
 * first): ceil((1 + eps(n) + L * FK_RIBBON_EPS_STEP) n) rounded up to 64,
 * at least FK_RIBBON_MIN_SLOTS. eps(n) is the measured overhead at which
 * one attempt almost always succeeds (ribbon.c). */
uint64_t fk_ribbon_slots_for(uint64_t n, unsigned level);

/* Fills geom's derived fields from shards and slots; false when they are
 * not a layout a build can make or exceed FK_MEMORY_CAP at r bits. */
bool fk_ribbon_geom_finish(fk_ribbon_geom *geom, uint32_t r);

/* Solution words of a geometry (the padding block included). */
static inline uint64_t fk_ribbon_words(const fk_ribbon_geom *g, uint32_t r)
{
    return (g->shards * g->blocks + 1) * r;
}

/* Allocates a filter of geometry geom (finished) and r bits with a zeroed
 * solution and seeds; sets its paths for `items`. FK_EINVAL over
 * FK_MEMORY_CAP, FK_ENOMEM. */
fk_status fk_ribbon_alloc(const fk_ribbon_geom *geom, uint32_t r, uint64_t items,
                          fk_ribbon **out);

/* Sets the lookups from items, shards and the CPU (ribbon.c). */
void fk_ribbon_choose_paths(fk_ribbon *rb);

/* The fk_ops batch slots (ribbon_batch.c). */
void fk_ribbon_slot_contains_many(const fk_filter *f, size_t n, const void *const keys[],
                                  const size_t lens[], bool out[]);
void fk_ribbon_slot_contains_many_u64(const fk_filter *f, size_t n, const uint64_t keys[],
                                      bool out[]);

/* The saving hooks (ribbon_serial.c). */
extern const fk_serial_ops fk_ribbon_serial_ops;

/* The body of fk_filter_stats for this kind. */
void fk_ribbon_stats(const fk_ribbon *rb, fk_stats *out);

/* Where a key lives, for tracing: exactly what the lookup computes. */
typedef struct {
    uint64_t hash, shard, mixed;
    uint64_t start;         /* the start slot within its shard */
    uint64_t coef_lo, coef_hi;
    uint64_t first_word;    /* index into the solution of its first block */
    uint32_t fingerprint, result;
} fk_ribbon_location;
fk_status fk_ribbon_locate(const fk_ribbon *rb, const void *key, size_t len,
                           fk_ribbon_location *out);

/* ---------------------------------------------------- for the tests
 * Internal knobs (the static archives let tests/test_ribbon.c reach
 * them): a small shard size and staging size to shard 10^5 keys, the
 * first attempts forced to fail (the retry bound), and eps forced (0: the
 * measured one) to see how often one attempt fails. Read once per build. */
typedef struct {
    uint64_t shard_keys;
    uint64_t stage_bytes;
    uint64_t fail_attempts;
    double   eps;
    bool     plain_lookups; /* never the popcnt or AVX2 paths (nor the build's
                               tzcnt/shrx/popcnt copy) */
    bool     no_avx2;       /* never the AVX2 paths */
} fk_ribbon_test_knobs;
extern fk_ribbon_test_knobs fk_ribbon_testing;

#endif
