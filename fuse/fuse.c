/* fuse/fuse.c: the binary fuse filter's core: sizing, the build (hash,
 * group, peel, assign; a sort only to drop repeats; shards and threads),
 * lookups, stats, and its fk_ops
 * table. The layout and the key -> cells mapping: fuse_internal.h. */
#define _DEFAULT_SOURCE /* madvise, MADV_HUGEPAGE, posix_memalign */
#include <math.h>
#include <stdio.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "fuse_internal.h"
#include "../common/alloc.h"
#include "../common/cpu.h"
#include "../common/sizing_internal.h"

fk_fuse_test_knobs fk_fuse_testing;

static uint64_t shard_keys(void)
{
    return fk_fuse_testing.shard_keys ? fk_fuse_testing.shard_keys : FK_FUSE_SHARD_KEYS;
}

/* The staging buffer of a sharded build whose `builders` workspaces take
 * ws bytes each: what the budget leaves, at least one shard's hashes. */
static uint64_t stage_bytes(unsigned builders, uint64_t ws, uint64_t one_shard)
{
    if (fk_fuse_testing.stage_bytes)
        return fk_fuse_testing.stage_bytes;
    uint64_t used = (uint64_t)builders * ws;
    uint64_t left = used < FK_FUSE_TEMP_BUDGET ? FK_FUSE_TEMP_BUDGET - used : 0;
    return left > one_shard ? left : one_shard;
}

/* Threads that build shards at once: as asked, as long as their
 * workspaces leave one shard's staging inside the budget (at least 1). */
static unsigned builders_for(unsigned threads, uint64_t ws, uint64_t one_shard)
{
    uint64_t fit = FK_FUSE_TEMP_BUDGET > one_shard ? (FK_FUSE_TEMP_BUDGET - one_shard) / ws : 0;
    if (fit < 1)
        fit = 1;
    return threads < fit ? threads : (unsigned)fit;
}

/* ------------------------------------------------------------ sizing */

/* Bytes of the peeling's record of a cell (peel_and_assign). */
#define REC_BYTES 9u

uint32_t fk_fuse_fp_bits_for(double fpr)
{
    if (!(fpr > 0.0 && fpr < 1.0))
        return 0;
    uint32_t f = 1;
    while (f < FK_FUSE_MAX_FP_BITS && ldexp(1.0, -(int)f) > fpr)
        f++;
    return f;
}

bool fk_fuse_geom_ok(const fk_fuse_geom *g)
{
    return g->shards >= 1 && g->segments >= 1 && g->seg_len >= FK_FUSE_MIN_SEGMENT_LENGTH &&
           g->seg_len <= (UINT32_C(1) << FK_FUSE_MAX_SEGMENT_BITS) &&
           (g->seg_len & (g->seg_len - 1)) == 0;
}

void fk_fuse_geom_finish(fk_fuse_geom *g)
{
    g->seg_mask = g->seg_len - 1;
    g->span = g->segments * g->seg_len;
    g->shard_cells = (g->segments + 2) * g->seg_len;
}

/* The layout for m keys in one shard. The segment length and the size
 * factor follow the paper's fits for 3-wise binary fuse filters: segments
 * of 2^floor(ln m / ln 3.33 + 2.25) cells (at most 2^18), and
 * max(1.125, 0.875 + 0.25 ln 10^6 / ln m) cells per key, which is 1.125
 * from a million keys on and more for smaller sets, where peeling needs
 * the slack. Where the segment length has just doubled, the fit leaves
 * few long segments (about 12 of 1024 cells for 11.3k..11.6k keys) and
 * most sets fail to peel on the first seed; so from FUSE_MIN_SEGMENTS_FROM
 * keys on the layout keeps at least FUSE_MIN_SEGMENTS segments, halving
 * the length until it does (never more cells: only the rounding to whole
 * segments shrinks). Measured with tests/test_fuse.c's attempt counts:
 * at 11,000..13,000 keys 3% of first seeds fail instead of 46%. `halve`
 * halves it once more, for the retries that alternate layouts. */
#define FUSE_MIN_SEGMENTS 16u
#define FUSE_MIN_SEGMENTS_FROM 1000u
static void layout_for(uint64_t m, bool halve, fk_fuse_geom *g)
{
    unsigned bits = 2; /* (a sharded build asks for 3 at least: shard_layout) */
    double factor = 0.0;
    if (m > 1) {
        double e = floor(log((double)m) / log(3.33) + 2.25);
        bits = e < 2 ? 2u : e > FK_FUSE_MAX_SEGMENT_BITS ? FK_FUSE_MAX_SEGMENT_BITS : (unsigned)e;
        factor = fmax(1.125, 0.875 + 0.25 * log(1e6) / log((double)m));
    }
    uint64_t want = (uint64_t)ceil((double)m * factor);
    while (bits > 2 && want >> bits < FUSE_MIN_SEGMENTS + 2 && m >= FUSE_MIN_SEGMENTS_FROM)
        bits--;
    if (halve && bits > 2)
        bits--;
    uint64_t len = UINT64_C(1) << bits;
    uint64_t total = (want + len - 1) >> bits; /* segments + 2 */
    g->seg_len = (uint32_t)len;
    g->segments = total > 3 ? total - 2 : 1;
    fk_fuse_geom_finish(g);
}

/* The layout of the shards of a sharded build: as layout_for, with
 * segments of at least 8 cells, so every shard starts on a byte boundary
 * whatever the width (packed cells of neighbouring shards built by two
 * threads never share a byte). */
static void shard_layout(uint64_t m, fk_fuse_geom *g)
{
    layout_for(m, false, g);
    while (g->seg_len < 8) {
        uint64_t cells = g->shard_cells;
        g->seg_len *= 2;
        uint64_t total = (cells + g->seg_len - 1) / g->seg_len;
        g->segments = total > 3 ? total - 2 : 1;
        fk_fuse_geom_finish(g);
    }
}

uint64_t fk_fuse_packed_bytes(const fk_fuse_geom *g, uint32_t f)
{
    uint64_t cells;
    if (!fk_mul_ok(g->shards, g->shard_cells, &cells) || cells > FK_MEMORY_CAP * 8 / f)
        return 0;
    return (cells * f + 7) / 8;
}

uint64_t fk_fuse_cell_bytes(const fk_fuse_geom *g, uint32_t f)
{
    uint64_t b = fk_fuse_packed_bytes(g, f);
    return b == 0 || b + 8 > FK_MEMORY_CAP ? 0 : b + 8;
}

/* Bytes a filter holds: cells rounded to whole cache lines, the seed table
 * and the struct. */
static uint64_t memory_of(uint64_t cell_bytes, uint64_t shards)
{
    return ((cell_bytes + 63) & ~UINT64_C(63)) + 8 * shards + sizeof(fk_fuse);
}

/* Temporary bytes of one shard's workspace for m keys in geometry g: the
 * hashes, and the grouping's (or sort's) scratch which the peeling reuses
 * for its queue, counts and key XORs. */
static uint64_t max_u64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* The hashes' array, which the peeling reuses for its order (4 bytes a
 * cell), and the work area: the grouping's input or the sort's scratch,
 * then the peeling's 9-byte record a cell. */
static uint64_t hashes_bytes(uint64_t m, const fk_fuse_geom *g)
{
    return max_u64(8 * (m ? m : 1), 4 * g->shard_cells);
}

static uint64_t work_bytes_for(uint64_t m, const fk_fuse_geom *g)
{
    return max_u64(8 * (m ? m : 1), (uint64_t)REC_BYTES * g->shard_cells);
}

static uint64_t workspace_bytes(uint64_t m, const fk_fuse_geom *g)
{
    return hashes_bytes(m, g) + work_bytes_for(m, g);
}

/* The shards and layout of n keys (assuming equal shards). */
static void plan(uint64_t n, fk_fuse_geom *g)
{
    uint64_t per = shard_keys();
    uint64_t shards = n > per ? n / per + (n % per != 0) : 1; /* no overflow near 2^64 */
    if (shards > 1)
        shard_layout(n / shards + (n % shards != 0), g);
    else
        layout_for(n, false, g);
    g->shards = shards;
}

fk_status fk_fuse_size(uint64_t n, uint32_t f, fk_fuse_sizing *out)
{
    if (!out)
        return FK_EINVAL;
    memset(out, 0, sizeof *out);
    if (f < FK_FUSE_MIN_FP_BITS || f > FK_FUSE_MAX_FP_BITS)
        return FK_EINVAL;
    fk_fuse_geom g;
    plan(n, &g);
    uint64_t bytes = fk_fuse_cell_bytes(&g, f);
    if (bytes == 0)
        return FK_EINVAL;
    uint64_t per = n / g.shards + (n % g.shards != 0);
    out->shards = g.shards;
    out->segment_length = g.seg_len;
    out->segments = g.segments;
    out->cells = g.shards * g.shard_cells;
    out->memory_bytes = memory_of(bytes, g.shards);
    uint64_t ws = workspace_bytes(per, &g);
    out->temp_bytes = ws + (g.shards > 1 ? stage_bytes(1, ws, 8 * per) : 0);
    return FK_OK;
}

/* ---------------------------------------------------------- allocation */

static void choose_path_only(fk_fuse *fu);

/* The lookups of each path: hash, three cells, compare (fuse_internal.h's
 * fk_fuse_probe with the width and map constant). A NULL key with a
 * length is refused here, so the callers need not test it. */
#define FUSE_LOOKUPS_T(name, w, map, attr)                                               \
    __attribute__((noinline)) attr static bool name##_any(const fk_fuse *fu, const void *key, \
                                                     size_t len)                     \
    {                                                                                \
        if (!key && len > 0)                                                         \
            return false;                                                            \
        return fk_fuse_probe(fu, fk_fuse_hash_in(fu, key, len), w, map);            \
    }                                                                                \
    attr static FK_HOT bool name(const fk_fuse *fu, const void *key, size_t len)          \
    {                                                                                \
        if (__builtin_expect(len != 8 || !key, 0))                                   \
            return name##_any(fu, key, len); /* a tail call: the 8-byte path */      \
        return fk_fuse_probe(fu, fk_fuse_hash8(fk_hash8_load(key), fu->flip), w,    \
                             map);          /* saves no register */                  \
    }                                                                                \
    /* the filter's own fk_filter_contains_u64 target (base.contains_u64) */       \
    attr static FK_HOT bool name##_u64(const fk_filter *f, uint64_t key)                  \
    {                                                                                \
        const fk_fuse *fu = (const fk_fuse *)f;                                      \
        return fk_fuse_probe(fu, fk_fuse_hash8(key, fu->flip), w, map);              \
    }
#define FUSE_LOOKUPS(name, w, map) FUSE_LOOKUPS_T(name, w, map, )

FUSE_LOOKUPS(lookup_w8, 8, FK_FUSE_MAP_SEGMENTS)
FUSE_LOOKUPS(lookup_w16, 16, FK_FUSE_MAP_SEGMENTS)
FUSE_LOOKUPS(lookup_w32, 32, FK_FUSE_MAP_SEGMENTS)
FUSE_LOOKUPS(lookup_packed, 0, FK_FUSE_MAP_SEGMENTS)
FUSE_LOOKUPS(lookup_sharded_w8, 8, FK_FUSE_MAP_SHARDED)
FUSE_LOOKUPS(lookup_sharded_w16, 16, FK_FUSE_MAP_SHARDED)
FUSE_LOOKUPS(lookup_sharded_w32, 32, FK_FUSE_MAP_SHARDED)
FUSE_LOOKUPS(lookup_sharded_packed, 0, FK_FUSE_MAP_SHARDED)
FUSE_LOOKUPS(lookup_narrow, FK_FUSE_NARROW, FK_FUSE_MAP_SEGMENTS)
FUSE_LOOKUPS(lookup_sharded_narrow, FK_FUSE_NARROW, FK_FUSE_MAP_SHARDED)
/* (packed cells of a few keys' filter, L f not a multiple of 8) */
FUSE_LOOKUPS(lookup_packed_one, 0, FK_FUSE_MAP_ONE)
FUSE_LOOKUPS(lookup_narrow_one, FK_FUSE_NARROW, FK_FUSE_MAP_ONE)

/* Every lookup again for CPUs with BMI2 (chosen at run time, same bits):
 * RORX rotates into another register, which saves the copies XXH3's
 * rotations and the fingerprint's rotation need (2 to 3 instructions a
 * lookup), and for packed cells SHRX shifts a loaded word by a count in
 * any register, which saves a move to CL and the register it frees per
 * cell. */
#if FK_CPU_X86
#define FUSE_BMI2 FK_TARGET_BMI2
FUSE_LOOKUPS_T(lookup_w8_bmi2, 8, FK_FUSE_MAP_SEGMENTS, FUSE_BMI2)
FUSE_LOOKUPS_T(lookup_w16_bmi2, 16, FK_FUSE_MAP_SEGMENTS, FUSE_BMI2)
FUSE_LOOKUPS_T(lookup_w32_bmi2, 32, FK_FUSE_MAP_SEGMENTS, FUSE_BMI2)
FUSE_LOOKUPS_T(lookup_sharded_w8_bmi2, 8, FK_FUSE_MAP_SHARDED, FUSE_BMI2)
FUSE_LOOKUPS_T(lookup_sharded_w16_bmi2, 16, FK_FUSE_MAP_SHARDED, FUSE_BMI2)
FUSE_LOOKUPS_T(lookup_sharded_w32_bmi2, 32, FK_FUSE_MAP_SHARDED, FUSE_BMI2)
FUSE_LOOKUPS_T(lookup_packed_bmi2, 0, FK_FUSE_MAP_SEGMENTS, FUSE_BMI2)
FUSE_LOOKUPS_T(lookup_sharded_packed_bmi2, 0, FK_FUSE_MAP_SHARDED, FUSE_BMI2)
FUSE_LOOKUPS_T(lookup_narrow_bmi2, FK_FUSE_NARROW, FK_FUSE_MAP_SEGMENTS, FUSE_BMI2)
FUSE_LOOKUPS_T(lookup_sharded_narrow_bmi2, FK_FUSE_NARROW, FK_FUSE_MAP_SHARDED, FUSE_BMI2)
#else /* no BMI2 to ask for: the table's BMI2 column is never chosen */
#define lookup_w8_bmi2 lookup_w8
#define lookup_w8_bmi2_u64 lookup_w8_u64
#define lookup_w16_bmi2 lookup_w16
#define lookup_w16_bmi2_u64 lookup_w16_u64
#define lookup_w32_bmi2 lookup_w32
#define lookup_w32_bmi2_u64 lookup_w32_u64
#define lookup_sharded_w8_bmi2 lookup_sharded_w8
#define lookup_sharded_w8_bmi2_u64 lookup_sharded_w8_u64
#define lookup_sharded_w16_bmi2 lookup_sharded_w16
#define lookup_sharded_w16_bmi2_u64 lookup_sharded_w16_u64
#define lookup_sharded_w32_bmi2 lookup_sharded_w32
#define lookup_sharded_w32_bmi2_u64 lookup_sharded_w32_u64
#define lookup_packed_bmi2 lookup_packed
#define lookup_packed_bmi2_u64 lookup_packed_u64
#define lookup_sharded_packed_bmi2 lookup_sharded_packed
#define lookup_sharded_packed_bmi2_u64 lookup_sharded_packed_u64
#define lookup_narrow_bmi2 lookup_narrow
#define lookup_narrow_bmi2_u64 lookup_narrow_u64
#define lookup_sharded_narrow_bmi2 lookup_sharded_narrow
#define lookup_sharded_narrow_bmi2_u64 lookup_sharded_narrow_u64
#endif

static bool lookup_empty(const fk_fuse *fu, const void *key, size_t len)
{
    (void)fu, (void)key, (void)len;
    return false;
}

static bool lookup_empty_u64(const fk_filter *f, uint64_t key)
{
    (void)f, (void)key;
    return false;
}

/* A path's two lookups, byte keys and integers. */
typedef struct {
    fk_fuse_lookup_fn     bytes;
    fk_fuse_lookup_u64_fn u64; /* the filter's base.contains_u64 */
} lookup_pair;
#define LOOKUP_PAIR(name) { name, name##_u64 }

void fk_fuse_choose_paths(fk_fuse *fu)
{
    /* [path][bmi2] */
    static const lookup_pair by_path[][2] = {
        [FK_FUSE_PATH_EMPTY] = { LOOKUP_PAIR(lookup_empty), LOOKUP_PAIR(lookup_empty) },
        [FK_FUSE_PATH_W8] = { LOOKUP_PAIR(lookup_w8), LOOKUP_PAIR(lookup_w8_bmi2) },
        [FK_FUSE_PATH_W16] = { LOOKUP_PAIR(lookup_w16), LOOKUP_PAIR(lookup_w16_bmi2) },
        [FK_FUSE_PATH_W32] = { LOOKUP_PAIR(lookup_w32), LOOKUP_PAIR(lookup_w32_bmi2) },
        [FK_FUSE_PATH_PACKED] = { LOOKUP_PAIR(lookup_packed), LOOKUP_PAIR(lookup_packed_bmi2) },
        [FK_FUSE_PATH_SHARDED_W8] = { LOOKUP_PAIR(lookup_sharded_w8),
                                      LOOKUP_PAIR(lookup_sharded_w8_bmi2) },
        [FK_FUSE_PATH_SHARDED_W16] = { LOOKUP_PAIR(lookup_sharded_w16),
                                       LOOKUP_PAIR(lookup_sharded_w16_bmi2) },
        [FK_FUSE_PATH_SHARDED_W32] = { LOOKUP_PAIR(lookup_sharded_w32),
                                       LOOKUP_PAIR(lookup_sharded_w32_bmi2) },
        [FK_FUSE_PATH_SHARDED_PACKED] = { LOOKUP_PAIR(lookup_sharded_packed),
                                          LOOKUP_PAIR(lookup_sharded_packed_bmi2) },
    };
    /* packed paths: [map][narrow][bmi2] */
    static const lookup_pair packed[3][2][2] = {
        [FK_FUSE_MAP_SEGMENTS] =
            { { LOOKUP_PAIR(lookup_packed), LOOKUP_PAIR(lookup_packed_bmi2) },
              { LOOKUP_PAIR(lookup_narrow), LOOKUP_PAIR(lookup_narrow_bmi2) } },
        [FK_FUSE_MAP_ONE] = { { LOOKUP_PAIR(lookup_packed_one), LOOKUP_PAIR(lookup_packed_one) },
                              { LOOKUP_PAIR(lookup_narrow_one), LOOKUP_PAIR(lookup_narrow_one) } },
        [FK_FUSE_MAP_SHARDED] =
            { { LOOKUP_PAIR(lookup_sharded_packed), LOOKUP_PAIR(lookup_sharded_packed_bmi2) },
              { LOOKUP_PAIR(lookup_sharded_narrow), LOOKUP_PAIR(lookup_sharded_narrow_bmi2) } },
    };
    choose_path_only(fu);
    bool bmi2 = false;
#if FK_CPU_X86
    bmi2 = !fk_fuse_testing.plain_lookups && fk_cpu_has(FK_CPU_BMI2);
#endif
    lookup_pair chosen = by_path[fu->path][bmi2];
    uint64_t seg_bits = (uint64_t)fu->geom.seg_len * fu->f;
    if (fu->path == FK_FUSE_PATH_PACKED || fu->path == FK_FUSE_PATH_SHARDED_PACKED) {
        fk_fuse_map map = fu->path == FK_FUSE_PATH_SHARDED_PACKED ? FK_FUSE_MAP_SHARDED
                          : seg_bits % 8 == 0                     ? FK_FUSE_MAP_SEGMENTS
                                                                  : FK_FUSE_MAP_ONE;
        chosen = packed[map][fu->f <= FK_FUSE_NARROW_MAX_BITS][bmi2];
    }
    fu->lookup = chosen.bytes;
    fu->base.contains_u64 = chosen.u64;
    fu->seg1_cells = fu->cells + seg_bits / 8;
    fu->seg2_cells = fu->cells + 2 * seg_bits / 8;
}

static void choose_path_only(fk_fuse *fu)
{
    static const fk_fuse_path one[] = { FK_FUSE_PATH_PACKED, FK_FUSE_PATH_W8, FK_FUSE_PATH_W16,
                                        FK_FUSE_PATH_W32 };
    static const fk_fuse_path many[] = { FK_FUSE_PATH_SHARDED_PACKED, FK_FUSE_PATH_SHARDED_W8,
                                         FK_FUSE_PATH_SHARDED_W16, FK_FUSE_PATH_SHARDED_W32 };
    unsigned w = fk_fuse_width_class(fu->f);
    unsigned k = w == 8 ? 1 : w == 16 ? 2 : w == 32 ? 3 : 0;
    if (fu->items == 0)
        fu->path = FK_FUSE_PATH_EMPTY;
    else
        fu->path = fu->geom.shards > 1 ? many[k] : one[k];
}

fk_status fk_fuse_alloc(const fk_fuse_geom *geom, uint32_t f, uint64_t items, fk_fuse **out)
{
    *out = NULL;
    uint64_t bytes = fk_fuse_cell_bytes(geom, f);
    if (bytes == 0 || geom->shards > FK_MEMORY_CAP / 8)
        return FK_EINVAL;
    fk_fuse *fu = calloc(1, sizeof *fu);
    if (!fu)
        return FK_ENOMEM;
    fk_status s = fk_alloc_zeroed(bytes, (void **)&fu->cells);
    fu->shard_seed = calloc((size_t)geom->shards, sizeof *fu->shard_seed);
    if (s != FK_OK || !fu->shard_seed) {
        free(fu->cells);
        free(fu->shard_seed);
        free(fu);
        return s != FK_OK ? s : FK_ENOMEM;
    }
    fu->base.ops = &fk_fuse_ops;
    fu->geom = *geom;
    fu->f = f;
    fu->fp_mask = f >= 32 ? UINT32_MAX : (UINT64_C(1) << f) - 1;
    fu->cell_bytes = bytes;
    fu->items = items;
    fk_fuse_choose_paths(fu);
    *out = fu;
    return FK_OK;
}

void fk_fuse_free(fk_fuse *fu)
{
    if (!fu)
        return;
    free(fu->cells);
    free(fu->shard_seed);
    free(fu);
}

fk_filter *fk_fuse_as_filter(fk_fuse *fu)
{
    return fu ? &fu->base : NULL;
}

/* ------------------------------------------------------- the key source */

typedef struct {
    size_t n;
    const void *const *keys; /* byte keys, or */
    const size_t *lens;
    const uint64_t *u64;     /* integer keys */
} key_src;

/* out[i - lo] = hash of key i for i in [lo, hi). */
static void hash_range(const key_src *src, size_t lo, size_t hi, uint64_t seed, uint64_t *out)
{
    if (src->u64) {
        for (size_t i = lo; i < hi; i++)
            out[i - lo] = fk_fuse_hash_u64(src->u64[i], seed);
    } else {
        for (size_t i = lo; i < hi; i++)
            out[i - lo] = fk_fuse_hash(src->keys[i], src->lens[i], seed);
    }
}

static inline uint64_t hash_one(const key_src *src, size_t i, uint64_t seed)
{
    return src->u64 ? fk_fuse_hash_u64(src->u64[i], seed)
                    : fk_fuse_hash(src->keys[i], src->lens[i], seed);
}

/* splitmix64 of x: seeds for retries and shards, decorrelated from the
 * params seed and from each other. */
static uint64_t derive(uint64_t x)
{
    x += UINT64_C(0x9e3779b97f4a7c15);
    x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
    return x ^ (x >> 31);
}

/* The XXH3 seed of attempt a of a one-shard filter (attempt 0: the params
 * seed itself, so the common case hashes as every other kind does). */
static uint64_t attempt_seed(uint64_t seed, uint64_t a)
{
    return a == 0 ? seed : derive(seed ^ derive(a));
}

/* Shard s's mixing seed on attempt a. */
static uint64_t shard_seed_of(uint64_t seed, uint64_t s, uint64_t a)
{
    return derive(derive(seed ^ UINT64_C(0x5348415244)) + derive(s * 1024 + a));
}

/* ---------------------------------------------------------- sort, dedup */

/* Sorts a[0..n) ascending: an LSD radix sort (11-bit digits, a pass
 * skipped when every key shares its digit) of the top 22 bits only, then
 * each run of keys sharing those bits sorted in place. A shard holds at
 * most 2^24 keys, so the runs average at most 4 keys (random hashes) and
 * the sort reads the array 4 times (a histogram pass, two scatters, the
 * runs) instead of 7, with the order of a full sort. tmp holds n
 * entries. Equal hashes come out adjacent: the build sorts only to drop
 * them, after a peel failed (build_one_shard). */
#define RADIX_BITS 11u
#define RADIX_SIZE (1u << RADIX_BITS)
#define RADIX_PASSES 2u
#define RADIX_LOW_BITS 42u /* below the digits: sorted run by run */

static void insertion_sort(uint64_t *a, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        uint64_t v = a[i];
        size_t j = i;
        for (; j > 0 && a[j - 1] > v; j--)
            a[j] = a[j - 1];
        a[j] = v;
    }
}

static void shell_sort(uint64_t *a, size_t n)
{
    for (size_t gap = n / 2; gap > 0; gap /= 2)
        for (size_t i = gap; i < n; i++) {
            uint64_t v = a[i];
            size_t j = i;
            for (; j >= gap && a[j - gap] > v; j -= gap)
                a[j] = a[j - gap];
            a[j] = v;
        }
}

/* Sorts each run of a[0..n) whose keys share the bits above `low`. */
static void sort_runs(uint64_t *a, size_t n, unsigned low)
{
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && (a[j] >> low) == (a[i] >> low))
            j++;
        if (j - i > 64)
            shell_sort(a + i, j - i); /* no quadratic case for a crafted set */
        else if (j - i > 1)
            insertion_sort(a + i, j - i);
        i = j;
    }
}

static void sort_hashes(uint64_t *a, uint64_t *tmp, size_t n)
{
    if (n < 64) {
        insertion_sort(a, n);
        return;
    }
    static const unsigned shift[RADIX_PASSES] = { RADIX_LOW_BITS, RADIX_LOW_BITS + RADIX_BITS };
    uint32_t (*hist)[RADIX_SIZE] = calloc(RADIX_PASSES, sizeof *hist);
    if (!hist) { /* a 16 KiB table: fall back to a slower sort, same order */
        shell_sort(a, n);
        return;
    }
    for (size_t i = 0; i < n; i++)
        for (unsigned p = 0; p < RADIX_PASSES; p++)
            hist[p][(a[i] >> shift[p]) & (RADIX_SIZE - 1)]++;
    uint64_t *src = a, *dst = tmp;
    for (unsigned p = 0; p < RADIX_PASSES; p++) {
        uint32_t *h = hist[p];
        if (h[(src[0] >> shift[p]) & (RADIX_SIZE - 1)] == n)
            continue; /* every key has this digit */
        uint32_t sum = 0;
        for (unsigned d = 0; d < RADIX_SIZE; d++) {
            uint32_t c = h[d];
            h[d] = sum;
            sum += c;
        }
        for (size_t i = 0; i < n; i++) {
            uint64_t v = src[i];
            dst[h[(v >> shift[p]) & (RADIX_SIZE - 1)]++] = v;
        }
        uint64_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != a)
        memcpy(a, src, n * sizeof *a);
    free(hist);
    sort_runs(a, n, RADIX_LOW_BITS);
}

/* Drops repeats from sorted a[0..n); returns the distinct count. */
static size_t unique_hashes(uint64_t *a, size_t n)
{
    if (n == 0)
        return 0;
    size_t m = 1;
    for (size_t i = 1; i < n; i++)
        if (a[i] != a[m - 1])
            a[m++] = a[i];
    return m;
}

/* Grouping hashes by their top `bits` bits (2..GROUP_MAX_BITS), and with
 * them by their first cell (h0 is the multiply-high of the hash by the
 * span), so the peeling's count pass walks the cells a few segments at a
 * time instead of at random: a counting sort whose counting rides on the
 * pass that makes the hashes (group_note), then one scatter
 * (group_scatter; within a group the hashes keep their order). Two
 * passes where the full sort takes four; repeats are left in (a build
 * drops them after a failed peel: build_one_shard). n < 2^32. */
#define GROUP_MAX_BITS 10u
typedef struct {
    unsigned shift;                     /* 64 - bits */
    uint32_t at[1u << GROUP_MAX_BITS];  /* counts, then offsets */
} grouping;

/* The grouping for a layout: about one group per segment. */
static void group_start(grouping *gr, const fk_fuse_geom *g)
{
    unsigned b = 2;
    while (b < GROUP_MAX_BITS && (UINT64_C(1) << b) < g->segments + 2)
        b++;
    gr->shift = 64 - b;
    memset(gr->at, 0, sizeof gr->at[0] << b);
}

static inline void group_note(grouping *gr, uint64_t h)
{
    gr->at[h >> gr->shift]++;
}

/* Moves the n noted hashes of in[] to out[], grouped. */
static void group_scatter(grouping *gr, const uint64_t *in, uint64_t *out, size_t n)
{
    uint32_t sum = 0;
    for (unsigned d = 0; d < (1u << (64 - gr->shift)); d++) {
        uint32_t c = gr->at[d];
        gr->at[d] = sum;
        sum += c;
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t v = in[i];
        out[gr->at[v >> gr->shift]++] = v;
    }
}

/* out[i] = hash of key i for i < src->n, each noted in gr. */
static void hash_and_note(const key_src *src, uint64_t seed, uint64_t *out, grouping *gr)
{
    if (src->u64) {
        const uint64_t flip = fk_fuse_flip_of(seed);
        for (size_t i = 0; i < src->n; i++) {
            uint64_t h = fk_fuse_hash8(src->u64[i], flip);
            out[i] = h;
            group_note(gr, h);
        }
    } else {
        for (size_t i = 0; i < src->n; i++) {
            uint64_t h = fk_fuse_hash(src->keys[i], src->lens[i], seed);
            out[i] = h;
            group_note(gr, h);
        }
    }
}

/* ------------------------------------------------------ peel and assign */

/* A packed cell is read and set through the 8-byte window at its first
 * byte (a load, a shift, an OR, a store) wherever that window ends inside
 * the bytes the build owns: below `end`, the shard's own bytes (`bounded`),
 * or any byte for a one-shard filter and the last shard, whose windows end
 * inside the 8-byte pad. At a shard's end a cell's window would reach into
 * the next shard's bytes, which another thread may be writing, so there it
 * touches exactly the bytes the cell occupies (at most 5): the shards of a
 * parallel build start on byte boundaries (segments of at least 8 cells),
 * so threads building neighbouring shards never share a byte. */
static inline uint32_t packed_get_exact(const uint8_t *cells, uint64_t i, uint32_t f,
                                        uint64_t fp_mask)
{
    uint64_t bit = i * f;
    const uint8_t *p = cells + (bit >> 3);
    unsigned shift = (unsigned)(bit & 7), bytes = (shift + f + 7) / 8;
    uint64_t v = 0;
    for (unsigned b = 0; b < bytes; b++)
        v |= (uint64_t)p[b] << (8 * b);
    return (uint32_t)((v >> shift) & fp_mask);
}

/* A cell's value while building (w = 8, 16, 32, or 0 for packed). */
static inline uint32_t cell_take(const uint8_t *cells, uint64_t i, unsigned w, uint32_t f,
                                 uint64_t fp_mask, bool bounded, uint64_t end)
{
    if (w)
        return fk_fuse_cell_get(cells, i, w, f, fp_mask);
    uint64_t bit = i * f;
    if (!bounded || __builtin_expect((bit >> 3) + 8 <= end, 1))
        return (uint32_t)((fk_load_le64(cells + (bit >> 3)) >> (bit & 7)) & fp_mask);
    return packed_get_exact(cells, i, f, fp_mask);
}

/* Sets cell i (which holds 0) to v. */
static inline void cell_put(uint8_t *cells, uint64_t i, unsigned w, uint32_t f, uint32_t v,
                            bool bounded, uint64_t end)
{
    switch (w) {
    case 8:
        cells[i] = (uint8_t)v;
        return;
    case 16: {
        uint16_t x = (uint16_t)v;
        memcpy(cells + 2 * i, &x, 2);
        return;
    }
    case 32:
        memcpy(cells + 4 * i, &v, 4);
        return;
    default: {
        uint64_t bit = i * f;
        uint8_t *p = cells + (bit >> 3);
        unsigned shift = (unsigned)(bit & 7);
        uint64_t x = (uint64_t)v << shift;
        if (!bounded || __builtin_expect((bit >> 3) + 8 <= end, 1)) {
            fk_store_le64(p, fk_load_le64(p) | x);
            return;
        }
        for (unsigned b = 0, bytes = (shift + f + 7) / 8; b < bytes; b++)
            p[b] |= (uint8_t)(x >> (8 * b));
        return;
    }
    }
}

/* The peeling's record of a cell, 9 bytes packed: the XOR of the hashes
 * of the cell's keys (8 bytes, host order, any alignment) and a tag byte:
 * their count times 4 plus the XOR of the cell's positions among their
 * cells (0, 1 or 2: which of c[0], c[1], c[2] it is), so a cell left
 * with one key names the key by its hash and itself by its position. One
 * record per cell, side by side, so the update of a neighbour (XOR, then
 * tag) touches one cache line, rarely two: with the XORs and counts in
 * two arrays every neighbour cost two misses. */
static inline uint64_t rec_hx(const uint8_t *rec, uint64_t c)
{
    uint64_t v;
    memcpy(&v, rec + REC_BYTES * c, 8);
    return v;
}

static inline void rec_xor(uint8_t *rec, uint64_t c, uint64_t h)
{
    uint64_t v;
    memcpy(&v, rec + REC_BYTES * c, 8);
    v ^= h;
    memcpy(rec + REC_BYTES * c, &v, 8);
}

static inline uint8_t *rec_tag(uint8_t *rec, uint64_t c)
{
    return rec + REC_BYTES * c + 8;
}

#define TAG_ONE_KEY 4u /* a tag's count of 1 */
static inline bool tag_has_one_key(uint8_t tag)
{
    return (tag & ~3u) == TAG_ONE_KEY;
}

/* Removes the key of hash h from cell c, its cell number j; queues the
 * cell (order[--*top]) when one key is left on it. */
static inline void unpeel(uint8_t *rec, uint64_t c, unsigned j, uint64_t h, uint32_t *order,
                          uint64_t *top)
{
    rec_xor(rec, c, h);
    uint8_t *t = rec_tag(rec, c);
    *t = (uint8_t)((*t - TAG_ONE_KEY) ^ j);
    if (tag_has_one_key(*t))
        order[--*top] = (uint32_t)c;
}

/* The assignment, in reverse peeling order: each key's cell is set after
 * the cells of the keys peeled after it, so its three cells XOR to its
 * fingerprint (the cell being set holds 0, so all three are XORed). w and
 * bounded are constants after inlining (peel_and_assign). */
static inline void assign_cells(const fk_fuse_geom *geom, const uint8_t *rec,
                                const uint32_t *order, uint64_t peeled, uint8_t *cells,
                                uint64_t base, uint32_t f, uint64_t fp_mask, unsigned w,
                                bool bounded, uint64_t end)
{
    for (uint64_t t = peeled; t-- > 0;) {
        uint32_t i = order[t];
        uint64_t h = rec_hx(rec, i);
        uint64_t c[3];
        fk_fuse_cells_of(geom, h, c);
        uint32_t v = fk_fuse_fingerprint(h, fp_mask) ^
                     cell_take(cells, base + c[0], w, f, fp_mask, bounded, end) ^
                     cell_take(cells, base + c[1], w, f, fp_mask, bounded, end) ^
                     cell_take(cells, base + c[2], w, f, fp_mask, bounded, end);
        cell_put(cells, base + i, w, f, v, bounded, end);
    }
}

/* Peels the m hashes g[0..m) of one shard (grouped or sorted) and, when
 * every key peels, assigns its cells (cells + base: the shard's cells, all
 * 0; the bytes below `end` are the build's own, UINT64_MAX for all of
 * them: cell_take). Returns true on success; false leaves the cells
 * untouched (and so does a repeated hash: it never peels).
 * `work` holds a 9-byte record per cell (rec_hx, rec_tag); `order` (4
 * bytes per cell, which may be g's own memory: g is read only before it
 * is written) holds the peeled cells from its bottom and the cells waiting
 * to be peeled from its top. A cell with one key names that key by its
 * hash XOR and its position, so the peeling never goes back to g and
 * updates just the key's two other cells. It scans the cells in order
 * and, after each peel, peels the cells that peel freed, depth first:
 * they are the neighbours of cells just touched, still in cache. */
static bool peel_and_assign(const fk_fuse_geom *geom, const uint64_t *g, uint32_t m,
                            uint8_t *work, uint32_t *order, uint8_t *cells, uint64_t base,
                            uint32_t f, uint64_t fp_mask, uint64_t end)
{
    const uint64_t n_cells = geom->shard_cells;
    uint8_t *rec = work;
    memset(rec, 0, (size_t)(REC_BYTES * n_cells));

    /* a count that wraps (64 keys on one cell: repeats) leaves a tag below
     * 4, whose t - 4 sets the top bit of `wrapped` */
    uint32_t wrapped = 0;
    for (uint32_t k = 0; k < m; k++) {
        uint64_t c[3];
        fk_fuse_cells_of(geom, g[k], c);
        for (unsigned j = 0; j < 3; j++) {
            rec_xor(rec, c[j], g[k]);
            uint8_t *t = rec_tag(rec, c[j]);
            *t = (uint8_t)((*t + TAG_ONE_KEY) ^ j);
            wrapped |= (uint32_t)*t - TAG_ONE_KEY;
        }
    }
    if (wrapped >> 31)
        return false;

    /* g is dead from here on: order may overwrite it. Peeled cells and
     * waiting cells are distinct cells, so the two ends never meet. */
    uint64_t peeled = 0, top = n_cells; /* waiting: order[top .. n_cells) */
    for (uint64_t start = 0; start < n_cells; start++) {
        if (!tag_has_one_key(*rec_tag(rec, start)))
            continue;
        order[--top] = (uint32_t)start;
        while (top < n_cells) {
            uint32_t i = order[top++];
            uint8_t tag = *rec_tag(rec, i);
            if (!tag_has_one_key(tag))
                continue; /* emptied since it was queued */
            uint64_t h = rec_hx(rec, i);
            *rec_tag(rec, i) = 0;
            order[peeled++] = i;
            uint64_t c[3];
            fk_fuse_cells_of(geom, h, c);
            /* i is the key's c[pos]; its other two cells, in the order
             * c[0], c[1], c[2] (the order fixes the filter's bits) */
            unsigned pos = tag & 3u;
            if (pos == 0) {
                unpeel(rec, c[1], 1, h, order, &top);
                unpeel(rec, c[2], 2, h, order, &top);
            } else if (pos == 1) {
                unpeel(rec, c[0], 0, h, order, &top);
                unpeel(rec, c[2], 2, h, order, &top);
            } else {
                unpeel(rec, c[0], 0, h, order, &top);
                unpeel(rec, c[1], 1, h, order, &top);
            }
        }
    }
    if (peeled != m)
        return false;

    switch (fk_fuse_width_class(f)) {
    case 8:
        assign_cells(geom, rec, order, peeled, cells, base, f, fp_mask, 8, false, end);
        break;
    case 16:
        assign_cells(geom, rec, order, peeled, cells, base, f, fp_mask, 16, false, end);
        break;
    case 32:
        assign_cells(geom, rec, order, peeled, cells, base, f, fp_mask, 32, false, end);
        break;
    default:
        if (end == UINT64_MAX)
            assign_cells(geom, rec, order, peeled, cells, base, f, fp_mask, 0, false, end);
        else
            assign_cells(geom, rec, order, peeled, cells, base, f, fp_mask, 0, true, end);
        break;
    }
    return true;
}

/* -------------------------------------------------- one-shard build */

/* A temporary buffer of `bytes` (not zeroed): from 4 MiB up 2 MiB aligned
 * with huge pages asked for, as the filter's own cells (common/alloc.c):
 * the build's random accesses would otherwise miss the TLB nearly every
 * time. Release with free(). */
static void *temp_alloc(uint64_t bytes)
{
    if (bytes == 0 || bytes > SIZE_MAX)
        return NULL;
    if (bytes < (UINT64_C(4) << 20))
        return malloc((size_t)bytes);
    void *p = NULL;
    size_t huge = (size_t)2 << 20;
    if (posix_memalign(&p, huge, (size_t)((bytes + huge - 1) & ~(uint64_t)(huge - 1))) != 0)
        return NULL;
#ifdef MADV_HUGEPAGE
    (void)madvise(p, (size_t)bytes, MADV_HUGEPAGE); /* a hint: refused is fine */
#endif
    return p;
}

/* Makes *buf hold at least `need` bytes, keeping its first `keep` bytes. */
static bool grow(uint8_t **buf, uint64_t *have, uint64_t need, uint64_t keep)
{
    if (need <= *have)
        return true;
    uint8_t *p = temp_alloc(need);
    if (!p)
        return false;
    if (keep)
        memcpy(p, *buf, (size_t)keep);
    free(*buf);
    *buf = p;
    *have = need;
    return true;
}

/* FK_ELIMIT when a filter of geometry g and width f would hold more than
 * limit bytes (checked before it is allocated). */
static fk_status within(const fk_fuse_geom *g, uint32_t f, uint64_t limit)
{
    uint64_t bytes = fk_fuse_cell_bytes(g, f);
    return bytes && memory_of(bytes, g->shards) > limit ? FK_ELIMIT : FK_OK;
}

static fk_status build_one_shard(const key_src *src, uint64_t seed, uint32_t f, uint64_t limit,
                                 fk_fuse **out)
{
    size_t n = src->n;
    uint8_t *hbuf = NULL, *work = NULL;
    uint64_t hbuf_bytes = 0, work_bytes = 0, peak = 0, passes = 0;
    fk_fuse *fu = NULL;
    fk_status s = FK_EFULL;
    fk_fuse_geom geom;
    grouping gr;
    layout_for(n, false, &geom); /* m <= n: the most a build of n may need */
    if (!grow(&hbuf, &hbuf_bytes, hashes_bytes(n, &geom), 0) ||
        !grow(&work, &work_bytes, work_bytes_for(n, &geom), 0))
        s = FK_ENOMEM;
    /* Each seed's first try peels the hashes as they come, grouped
     * (group_hashes): a set that peels had no repeats (two equal hashes are
     * one edge twice, which never peels). After a failed peel the second
     * try sorts the hashes and drops repeats, and peels again only if there
     * were some: the same distinct set on the same seed fails the same way.
     * A set with repeats so ends where one sorted first would, one peel
     * later. */
    for (uint64_t a = 0; s == FK_EFULL && a < FK_FUSE_MAX_ATTEMPTS; a++) {
        uint64_t hseed = attempt_seed(seed, a);
        for (int pass = 0; pass < 2 && s == FK_EFULL; pass++) {
            size_t m = n;
            if (pass == 0) {
                layout_for(n, a % 4 == 3, &geom);
                group_start(&gr, &geom);
                hash_and_note(src, hseed, (uint64_t *)work, &gr);
                group_scatter(&gr, (uint64_t *)work, (uint64_t *)hbuf, n);
            } else {
                hash_range(src, 0, n, hseed, (uint64_t *)hbuf);
                sort_hashes((uint64_t *)hbuf, (uint64_t *)work, n);
                m = unique_hashes((uint64_t *)hbuf, n);
                if (m == n)
                    break;
                layout_for(m, a % 4 == 3, &geom);
            }
            passes++;
            geom.shards = 1;
            if (!grow(&hbuf, &hbuf_bytes, hashes_bytes(m, &geom), 8 * (uint64_t)m) ||
                !grow(&work, &work_bytes, work_bytes_for(m, &geom), 0)) {
                s = FK_ENOMEM;
                break;
            }
            if (!fu || fu->geom.shard_cells != geom.shard_cells || fu->items != m) {
                fk_fuse_free(fu);
                fu = NULL;
                if ((s = within(&geom, f, limit)) != FK_OK ||
                    (s = fk_fuse_alloc(&geom, f, m, &fu)) != FK_OK)
                    break;
            }
            fu->geom = geom;
            fk_fuse_set_hash_seed(fu, hseed);
            peak = max_u64(peak, hbuf_bytes + work_bytes);
            s = FK_EFULL; /* (within and fk_fuse_alloc set FK_OK) */
            if (a >= fk_fuse_testing.fail_attempts &&
                (m == 0 || peel_and_assign(&geom, (const uint64_t *)hbuf, (uint32_t)m, work,
                                           (uint32_t *)hbuf, fu->cells, 0, f, fu->fp_mask,
                                           UINT64_MAX))) {
                fu->built.attempts = fu->built.max_attempts = a + 1;
                s = FK_OK;
            }
        }
    }
    free(hbuf);
    free(work);
    if (s != FK_OK) {
        fk_fuse_free(fu);
        return s;
    }
    fu->built.temp_bytes = peak;
    fu->built.key_passes = passes;
    fk_fuse_choose_paths(fu);
    *out = fu;
    return FK_OK;
}

/* -------------------------------------------------------- sharded build
 *
 * A pass over the keys counts each shard's keys (threads over ranges of
 * the keys, one row of counters each); the layout is sized for the
 * fullest shard. Each building thread gets a workspace for one shard (as
 * many threads as FK_FUSE_TEMP_BUDGET holds beside one shard's staging);
 * the rest of the budget stages hashes. The shards are taken in groups
 * whose hashes fit the staging: one pass over the keys stages the group's hashes,
 * each thread writing its range's keys at offsets the counts fix (so the
 * staging is the same for any threads), and the threads build the group's
 * shards, each in its own workspace. */

typedef struct shard_build shard_build;

typedef struct {
    shard_build *sb;
    unsigned     t;          /* thread number */
    size_t       lo, hi;     /* its range of keys */
    uint64_t    *ws_hashes;  /* its workspace */
    uint8_t     *ws_work;
} worker;

struct shard_build {
    const key_src *src;
    uint64_t       seed;
    uint64_t       shards;
    unsigned       threads;
    uint64_t      *counts;     /* [threads][shards] */
    uint64_t      *total;      /* [shards] */
    uint64_t      *cursor;     /* [threads][shards]: staging offsets */
    uint64_t       s0, s1;     /* the group being staged / built */
    uint64_t      *stage;      /* the group's hashes, shard by shard */
    uint64_t      *stage_at;   /* [shards]: where each shard starts in stage */
    fk_fuse       *fu;
    uint64_t      *items;      /* [shards] */
    uint64_t      *attempts;   /* [shards] */
    _Atomic uint64_t next;     /* next shard of the group to build */
    _Atomic int    failed;     /* an fk_status */
    int            phase;      /* 0 count, 1 stage, 2 build */
};

static void count_range(worker *w)
{
    shard_build *sb = w->sb;
    uint64_t *c = sb->counts + (uint64_t)w->t * sb->shards;
    for (size_t i = w->lo; i < w->hi; i++)
        c[fk_fuse_shard_of(hash_one(sb->src, i, sb->seed), sb->shards)]++;
}

static void stage_range(worker *w)
{
    shard_build *sb = w->sb;
    uint64_t *cur = sb->cursor + (uint64_t)w->t * sb->shards;
    for (size_t i = w->lo; i < w->hi; i++) {
        uint64_t h = hash_one(sb->src, i, sb->seed);
        uint64_t s = fk_fuse_shard_of(h, sb->shards);
        if (s >= sb->s0 && s < sb->s1)
            sb->stage[cur[s]++] = h;
    }
}

static void build_shards(worker *w)
{
    shard_build *sb = w->sb;
    fk_fuse *fu = sb->fu;
    if (!w->ws_hashes)
        return; /* a scanning thread only: the budget left it no workspace */
    for (;;) {
        uint64_t s = atomic_fetch_add(&sb->next, 1);
        if (s >= sb->s1 || atomic_load(&sb->failed) != FK_OK)
            return;
        const uint64_t *h = sb->stage + sb->stage_at[s];
        size_t n = (size_t)sb->total[s];
        bool ok = false;
        uint64_t a = 0;
        /* the shard's bytes end where the next shard's begin (shards start
         * on byte boundaries); the last one owns the pad */
        uint64_t end = s + 1 == fu->geom.shards ? UINT64_MAX
                                                : (s + 1) * fu->geom.shard_cells * fu->f / 8;
        uint64_t *work = (uint64_t *)w->ws_work;
        grouping gr;
        for (; a < FK_FUSE_MAX_ATTEMPTS && !ok; a++) {
            uint64_t ss = shard_seed_of(sb->seed, s, a);
            /* grouped first, sorted without repeats after a failed peel, as
             * in build_one_shard */
            for (int pass = 0; pass < 2 && !ok; pass++) {
                size_t m = n;
                if (pass == 0) {
                    group_start(&gr, &fu->geom);
                    for (size_t i = 0; i < n; i++) {
                        work[i] = fk_fuse_remix(h[i], ss);
                        group_note(&gr, work[i]);
                    }
                    group_scatter(&gr, work, w->ws_hashes, n);
                } else {
                    for (size_t i = 0; i < n; i++)
                        w->ws_hashes[i] = fk_fuse_remix(h[i], ss);
                    sort_hashes(w->ws_hashes, work, n);
                    m = unique_hashes(w->ws_hashes, n);
                    if (m == n)
                        break;
                }
                sb->items[s] = m;
                fu->shard_seed[s] = ss;
                ok = a >= fk_fuse_testing.fail_attempts &&
                     (m == 0 || peel_and_assign(&fu->geom, w->ws_hashes, (uint32_t)m, w->ws_work,
                                                (uint32_t *)w->ws_hashes, fu->cells,
                                                s * fu->geom.shard_cells, fu->f, fu->fp_mask,
                                                end));
            }
        }
        sb->attempts[s] = a;
        if (!ok) {
            int expected = FK_OK;
            atomic_compare_exchange_strong(&sb->failed, &expected, FK_EFULL);
            return;
        }
    }
}

static void *worker_main(void *arg)
{
    worker *w = arg;
    switch (w->sb->phase) {
    case 0: count_range(w); break;
    case 1: stage_range(w); break;
    default: build_shards(w); break;
    }
    return NULL;
}

/* Runs the phase on every worker: threads 1.. in new threads, 0 here. A
 * thread that cannot start has its share run here afterwards, so the work
 * is the same either way. */
static void run_phase(shard_build *sb, worker *ws, int phase)
{
    sb->phase = phase;
    pthread_t tid[FK_FUSE_MAX_THREADS];
    bool started[FK_FUSE_MAX_THREADS] = { false };
    for (unsigned t = 1; t < sb->threads; t++)
        started[t] = pthread_create(&tid[t], NULL, worker_main, &ws[t]) == 0;
    worker_main(&ws[0]);
    for (unsigned t = 1; t < sb->threads; t++) {
        if (started[t])
            pthread_join(tid[t], NULL);
        else
            worker_main(&ws[t]); /* no thread: do its share here */
    }
}

static fk_status build_sharded(const key_src *src, uint64_t seed, uint32_t f, unsigned threads,
                               uint64_t limit, fk_fuse **out)
{
    size_t n = src->n;
    uint64_t shards = (n + shard_keys() - 1) / shard_keys();
    if (threads > shards)
        threads = (unsigned)shards;
    shard_build sb;
    memset(&sb, 0, sizeof sb);
    sb.src = src;
    sb.seed = seed;
    sb.shards = shards;
    sb.threads = threads;
    atomic_init(&sb.next, 0);
    atomic_init(&sb.failed, FK_OK);
    worker ws[FK_FUSE_MAX_THREADS];
    memset(ws, 0, sizeof ws);
    fk_status s = FK_ENOMEM;
    uint64_t passes = 0, peak = 0;

    sb.counts = calloc((size_t)(threads * shards), sizeof *sb.counts);
    sb.cursor = calloc((size_t)(threads * shards), sizeof *sb.cursor);
    sb.total = calloc((size_t)shards, sizeof *sb.total);
    sb.stage_at = calloc((size_t)shards, sizeof *sb.stage_at);
    sb.items = calloc((size_t)shards, sizeof *sb.items);
    sb.attempts = calloc((size_t)shards, sizeof *sb.attempts);
    if (!sb.counts || !sb.cursor || !sb.total || !sb.stage_at || !sb.items || !sb.attempts)
        goto done;
    for (unsigned t = 0; t < threads; t++) {
        ws[t].sb = &sb;
        ws[t].t = t;
        ws[t].lo = (size_t)((unsigned __int128)n * t / threads);
        ws[t].hi = (size_t)((unsigned __int128)n * (t + 1) / threads);
    }
    run_phase(&sb, ws, 0);
    passes++;
    uint64_t fullest = 0;
    for (uint64_t sh = 0; sh < shards; sh++) {
        for (unsigned t = 0; t < threads; t++)
            sb.total[sh] += sb.counts[(uint64_t)t * shards + sh];
        fullest = sb.total[sh] > fullest ? sb.total[sh] : fullest;
    }
    fk_fuse_geom geom;
    shard_layout(fullest, &geom);
    geom.shards = shards;
    if ((s = within(&geom, f, limit)) == FK_OK)
        s = fk_fuse_alloc(&geom, f, 0, &sb.fu);
    if (s != FK_OK)
        goto done;
    fk_fuse_set_hash_seed(sb.fu, seed);

    uint64_t ws_bytes = workspace_bytes(fullest, &geom);
    unsigned builders = builders_for(threads, ws_bytes, 8 * fullest);
    for (unsigned t = 0; t < builders; t++) {
        ws[t].ws_hashes = temp_alloc(hashes_bytes(fullest, &geom));
        ws[t].ws_work = temp_alloc(work_bytes_for(fullest, &geom));
        if (!ws[t].ws_hashes || !ws[t].ws_work) {
            s = FK_ENOMEM;
            goto done;
        }
    }
    uint64_t group_cap = stage_bytes(builders, ws_bytes, 8 * fullest) / 8;
    if (group_cap > n) /* never more than every key's hash */
        group_cap = n;
    if (group_cap < fullest)
        group_cap = fullest;
    sb.stage = temp_alloc(8 * group_cap);
    if (!sb.stage) {
        s = FK_ENOMEM;
        goto done;
    }
    peak = 8 * group_cap + builders * ws_bytes + 4 * 8 * shards * (threads + 1);

    for (uint64_t s0 = 0; s0 < shards;) {
        uint64_t s1 = s0, used = 0;
        while (s1 < shards && (s1 == s0 || used + sb.total[s1] <= group_cap))
            used += sb.total[s1++];
        /* staging offsets: shard by shard, within a shard thread by thread */
        uint64_t at = 0;
        for (uint64_t sh = s0; sh < s1; sh++) {
            sb.stage_at[sh] = at;
            for (unsigned t = 0; t < threads; t++) {
                sb.cursor[(uint64_t)t * shards + sh] = at;
                at += sb.counts[(uint64_t)t * shards + sh];
            }
        }
        sb.s0 = s0;
        sb.s1 = s1;
        run_phase(&sb, ws, 1);
        passes++;
        atomic_store(&sb.next, s0);
        run_phase(&sb, ws, 2);
        s = (fk_status)atomic_load(&sb.failed);
        if (s != FK_OK)
            goto done;
        s0 = s1;
    }
    uint64_t items = 0, attempts = 0, most = 0;
    for (uint64_t sh = 0; sh < shards; sh++) {
        items += sb.items[sh];
        attempts += sb.attempts[sh];
        most = sb.attempts[sh] > most ? sb.attempts[sh] : most;
    }
    sb.fu->items = items;
    sb.fu->built.attempts = attempts;
    sb.fu->built.max_attempts = most;
    sb.fu->built.temp_bytes = peak;
    sb.fu->built.key_passes = passes;
    fk_fuse_choose_paths(sb.fu);
    *out = sb.fu;
    sb.fu = NULL;
    s = FK_OK;
done:
    for (unsigned t = 0; t < threads; t++) {
        free(ws[t].ws_hashes);
        free(ws[t].ws_work);
    }
    free(sb.stage);
    free(sb.counts);
    free(sb.cursor);
    free(sb.total);
    free(sb.stage_at);
    free(sb.items);
    free(sb.attempts);
    fk_fuse_free(sb.fu);
    return s;
}

/* ---------------------------------------------------------------- build */

/* Checks p for a build of n keys; sets the width. */
static fk_status check_build_params(const fk_params *p, uint32_t *f)
{
    if (!p || p->reserved != 0 || !(p->fpr > 0.0 && p->fpr < 1.0))
        return FK_EINVAL;
    if (p->fingerprint_bits != 0 &&
        (p->fingerprint_bits < FK_FUSE_MIN_FP_BITS || p->fingerprint_bits > FK_FUSE_MAX_FP_BITS))
        return FK_EINVAL;
    if (p->threads > FK_FUSE_MAX_THREADS)
        return FK_EINVAL;
    *f = p->fingerprint_bits ? p->fingerprint_bits : fk_fuse_fp_bits_for(p->fpr);
    return FK_OK;
}

static fk_status build_from(const fk_params *p, const key_src *src, fk_fuse **out)
{
    uint32_t f = 0;
    fk_status s = check_build_params(p, &f);
    if (s != FK_OK)
        return s;
    fk_fuse_geom plan_geom;
    plan(src->n, &plan_geom);
    if (fk_fuse_cell_bytes(&plan_geom, f) == 0)
        return FK_EINVAL;
    fk_fuse *fu = NULL;
    if (src->n > shard_keys())
        s = build_sharded(src, p->seed, f, p->threads ? p->threads : 1, fk_params_max_bytes(p), &fu);
    else
        s = build_one_shard(src, p->seed, f, fk_params_max_bytes(p), &fu);
    if (s != FK_OK)
        return s;
    fu->seed = p->seed;
    fu->fpr = p->fpr;
    fu->capacity = p->capacity ? p->capacity : src->n ? src->n : 1;
    fu->built.keys_given = src->n;
    fu->built.duplicates = src->n - fu->items;
    *out = fu;
    return FK_OK;
}

fk_status fk_fuse_build(const fk_params *p, size_t n, const void *const keys[],
                        const size_t lens[], fk_fuse **out)
{
    if (!out)
        return FK_EINVAL;
    *out = NULL;
    if (n > 0 && (!keys || !lens))
        return FK_EINVAL;
    for (size_t i = 0; i < n; i++)
        if (!keys[i] && lens[i] > 0)
            return FK_EINVAL;
    key_src src = { n, keys, lens, NULL };
    return build_from(p, &src, out);
}

fk_status fk_fuse_build_u64(const fk_params *p, size_t n, const uint64_t keys[], fk_fuse **out)
{
    if (!out)
        return FK_EINVAL;
    *out = NULL;
    if (n > 0 && !keys)
        return FK_EINVAL;
    key_src src = { n, NULL, NULL, keys };
    return build_from(p, &src, out);
}

/* -------------------------------------------------------------- lookups */

bool fk_fuse_contains(const fk_fuse *fu, const void *key, size_t len)
{
    return fu ? fu->lookup(fu, key, len) : false;
}

fk_status fk_fuse_locate(const fk_fuse *fu, const void *key, size_t len, fk_fuse_location *out)
{
    if (!fu || !out || (!key && len > 0))
        return FK_EINVAL;
    memset(out, 0, sizeof *out);
    bool sharded = fu->geom.shards > 1;
    out->hash = fk_fuse_hash_in(fu, key, len);
    out->shard = sharded ? fk_fuse_shard_of(out->hash, fu->geom.shards) : 0;
    out->mixed = fk_fuse_place(fu, out->hash, sharded, out->cell);
    unsigned w = fk_fuse_width_class(fu->f);
    for (int j = 0; j < 3; j++)
        out->value[j] = fk_fuse_cell_get(fu->cells, out->cell[j], w, fu->f, fu->fp_mask);
    out->fingerprint = fk_fuse_fingerprint(out->mixed, fu->fp_mask);
    out->xor_of_cells = out->value[0] ^ out->value[1] ^ out->value[2];
    return FK_OK;
}

uint32_t fk_fuse_cell(const fk_fuse *fu, uint64_t i)
{
    if (!fu || i >= fu->geom.shards * fu->geom.shard_cells)
        return 0;
    return fk_fuse_cell_get(fu->cells, i, fk_fuse_width_class(fu->f), fu->f, fu->fp_mask);
}

/* ---------------------------------------------------------------- stats */

void fk_fuse_stats(const fk_fuse *fu, fk_stats *out)
{
    if (!out)
        return;
    memset(out, 0, sizeof *out);
    if (!fu)
        return;
    uint64_t cells = fu->geom.shards * fu->geom.shard_cells;
    out->items = fu->items;
    out->capacity = fu->capacity;
    out->memory_bytes = memory_of(fu->cell_bytes, fu->geom.shards);
    out->bits_per_item = 8.0 * (double)out->memory_bytes / (double)(fu->items ? fu->items : 1);
    out->load_factor = (double)fu->items / (double)cells;
    out->expected_fpr = fu->items ? ldexp(1.0, -(int)fu->f) : 0.0;
}

void fk_fuse_describe(const fk_fuse *fu, fk_fuse_description *out)
{
    if (!fu || !out)
        return;
    memset(out, 0, sizeof *out);
    out->fingerprint_bits = fu->f;
    out->segment_length = fu->geom.seg_len;
    out->items = fu->items;
    out->shards = fu->geom.shards;
    out->segments = fu->geom.segments;
    out->cells = fu->geom.shards * fu->geom.shard_cells;
    out->seed = fu->seed;
    out->keys_given = fu->built.keys_given;
    out->duplicates = fu->built.duplicates;
    out->attempts = fu->built.attempts;
    out->max_attempts = fu->built.max_attempts;
    out->temp_bytes = fu->built.temp_bytes;
    out->key_passes = fu->built.key_passes;
}

/* --------------------------------------------------------- the vtable */

static void fk_fuse_slot_destroy(fk_filter *f) { fk_fuse_free((fk_fuse *)f); }

/* (the dispatchers have checked f) */
static bool fk_fuse_slot_contains(const fk_filter *f, const void *key, size_t len)
{
    const fk_fuse *fu = (const fk_fuse *)f;
    return fu->lookup(fu, key, len);
}


static void fk_fuse_slot_stats(const fk_filter *f, fk_stats *out)
{
    fk_fuse_stats((const fk_fuse *)f, out);
}

static fk_status fk_fuse_slot_build(const fk_params *p, size_t n, const void *const keys[],
                                    const size_t lens[], fk_filter **out)
{
    fk_fuse *fu = NULL;
    fk_status s = fk_fuse_build(p, n, keys, lens, &fu);
    *out = fu ? &fu->base : NULL;
    return s;
}

static fk_status fk_fuse_slot_build_u64(const fk_params *p, size_t n, const uint64_t keys[],
                                        fk_filter **out)
{
    fk_fuse *fu = NULL;
    fk_status s = fk_fuse_build_u64(p, n, keys, &fu);
    *out = fu ? &fu->base : NULL;
    return s;
}

/* What a build of p->capacity distinct keys would make. */
static fk_status fk_fuse_slot_size(const fk_params *p, double items, fk_sizing *out)
{
    uint32_t f = 0;
    fk_status s = check_build_params(p, &f);
    if (s != FK_OK || p->capacity == 0)
        return FK_EINVAL;
    fk_fuse_sizing z;
    s = fk_fuse_size(p->capacity, f, &z);
    if (s != FK_OK)
        return s;
    out->memory_bytes = z.memory_bytes;
    out->expected_fpr = items > 0 ? ldexp(1.0, -(int)f) : 0.0;
    snprintf(out->geometry, sizeof out->geometry,
             "%u-bit cells, %llu x %llu segments of %u%s (static: built from the whole set)", f,
             (unsigned long long)z.shards, (unsigned long long)z.segments + 2, z.segment_length,
             z.shards > 1 ? ", sharded" : "");
    return FK_OK;
}

/* The describe slot: fk_fuse_description's fields as rows, in its order
 * (fk_filter_describe; `at` is ignored: the kind has no clock). */
static fk_status fk_fuse_slot_describe(const fk_filter *f, const uint64_t *at,
                                      fk_describe_row *rows, size_t cap, size_t *n)
{
    (void)at;
    fk_fuse_description d;
    fk_fuse_describe((const fk_fuse *)(const void *)f, &d);
    fk_describe_u64(rows, cap, n, "fingerprint_bits", d.fingerprint_bits);
    fk_describe_u64(rows, cap, n, "segment_length", d.segment_length);
    fk_describe_u64(rows, cap, n, "items", d.items);
    fk_describe_u64(rows, cap, n, "shards", d.shards);
    fk_describe_u64(rows, cap, n, "segments", d.segments);
    fk_describe_u64(rows, cap, n, "cells", d.cells);
    fk_describe_u64(rows, cap, n, "seed", d.seed);
    fk_describe_u64(rows, cap, n, "keys_given", d.keys_given);
    fk_describe_u64(rows, cap, n, "duplicates", d.duplicates);
    fk_describe_u64(rows, cap, n, "attempts", d.attempts);
    fk_describe_u64(rows, cap, n, "max_attempts", d.max_attempts);
    fk_describe_u64(rows, cap, n, "temp_bytes", d.temp_bytes);
    fk_describe_u64(rows, cap, n, "key_passes", d.key_passes);
    /* after 0.4.0's rows: three fingerprints, one in each of three segments */
    fk_describe_u64(rows, cap, n, "lookup_reads", 3);
    return FK_OK;
}

const fk_ops fk_fuse_ops = {
    .version = FK_OPS_VERSION,
    .name = "fuse",
    .summary = "binary fuse filter (3-wise): static, built from the whole set; ~1.125 f bits "
               "per key for fpr 2^-f, three reads per lookup",
    .caps = 0,
    .destroy = fk_fuse_slot_destroy,
    .contains = fk_fuse_slot_contains,
    .stats = fk_fuse_slot_stats,
    .serial = &fk_fuse_serial_ops,
    .size = fk_fuse_slot_size,
    .contains_many = fk_fuse_slot_contains_many,
    .contains_many_u64 = fk_fuse_slot_contains_many_u64,
    .build = fk_fuse_slot_build,
    .build_u64 = fk_fuse_slot_build_u64,
    .describe = fk_fuse_slot_describe,
};
