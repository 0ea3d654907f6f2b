/* ribbon/ribbon.c: the ribbon filter's core: sizing, the build (hash,
 * sort, band, back-substitute; shards and threads), lookups, stats, and
 * its fk_ops table. The layout and the key -> row mapping:
 * ribbon_internal.h. */
#define _DEFAULT_SOURCE /* madvise, MADV_HUGEPAGE, posix_memalign */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "ribbon_internal.h"
#include "../common/alloc.h"
#include "../common/cpu.h"

fk_ribbon_test_knobs fk_ribbon_testing;

static uint64_t shard_keys(void)
{
    return fk_ribbon_testing.shard_keys ? fk_ribbon_testing.shard_keys : FK_RIBBON_SHARD_KEYS;
}

static uint64_t max_u64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* ------------------------------------------------------------ sizing */

uint32_t fk_ribbon_bits_for(double fpr)
{
    if (!(fpr > 0.0 && fpr < 1.0))
        return 0;
    for (uint32_t r = 1; r < FK_RIBBON_MAX_RESULT_BITS; r++)
        if (ldexp(1.0, -(int)r) <= fpr)
            return r;
    return FK_RIBBON_MAX_RESULT_BITS;
}

/* The overhead eps at which one attempt at n keys solves nearly always
 * (measured, first attempts failing out of 200 random sets: 0 at 3000
 * keys and eps 0.03, 5 at 10^4; 26 at 2^20 keys and eps 0.045, 174 at
 * 0.03; PAPER_NOTES "Static filters" has the commands). A standard ribbon
 * fails when some stretch of slots draws more rows than the band lets it
 * pivot; every key adds about the same small chance of that, so a larger
 * system needs a larger eps, and shards (FK_RIBBON_SHARD_KEYS) keep each
 * system at most 2^20 keys, where one attempt in eight fails and is
 * retried alone. */
static double eps_for(uint64_t n)
{
    if (fk_ribbon_testing.eps > 0.0)
        return fk_ribbon_testing.eps;
    if (n < (UINT64_C(1) << 14))
        return 0.03;
    if (n < (UINT64_C(1) << 18))
        return 0.04;
    return 0.045;
}

uint64_t fk_ribbon_slots_for(uint64_t n, unsigned level)
{
    double want = ceil((double)n * (1.0 + eps_for(n) + level * FK_RIBBON_EPS_STEP));
    if (!(want < 9.0e18))
        return UINT64_MAX;
    uint64_t m = ((uint64_t)want + 63) & ~UINT64_C(63);
    return m < FK_RIBBON_MIN_SLOTS ? FK_RIBBON_MIN_SLOTS : m;
}

bool fk_ribbon_geom_finish(fk_ribbon_geom *g, uint32_t r)
{
    if (g->shards < 1 || g->slots < FK_RIBBON_MIN_SLOTS || (g->slots & 63) || r < 1 ||
        r > FK_RIBBON_MAX_RESULT_BITS)
        return false;
    g->blocks = g->slots / 64;
    g->starts = g->slots - FK_RIBBON_WIDTH + 1;
    /* bound each factor before multiplying */
    if (g->shards > FK_MEMORY_CAP / 8 || g->blocks > FK_MEMORY_CAP / 8)
        return false;
    uint64_t words;
    if (!fk_mul_ok(g->shards, g->blocks, &words) || words > FK_MEMORY_CAP / 8 / r)
        return false;
    return (words + 1) * r * 8 <= FK_MEMORY_CAP;
}

/* Bytes a filter holds: the solution in whole cache lines, the seed table
 * and the struct. */
static uint64_t memory_of(const fk_ribbon_geom *g, uint32_t r)
{
    return ((fk_ribbon_words(g, r) * 8 + 63) & ~UINT64_C(63)) + 8 * g->shards +
           sizeof(fk_ribbon);
}

/* Temporary bytes of one shard's workspace for k keys in m slots: the
 * hashes, and the banded rows (16 + 4 bytes a slot), which hold the
 * sort's input and counts first (12 bytes a key). */
static uint64_t hashes_bytes(uint64_t k) { return 8 * (k ? k : 1); }
static uint64_t band_bytes(uint64_t k, uint64_t m) { return max_u64(20 * m, 12 * k); }

/* ---------------------------------------------------------- allocation */

#define RIBBON_LOOKUPS_T(name, sharded, attr, probe)                                    \
    __attribute__((noinline)) attr static bool name##_any(const fk_ribbon *rb,          \
                                                          const void *key, size_t len)  \
    {                                                                                   \
        if (!key && len > 0)                                                            \
            return false;                                                               \
        return probe(rb, fk_ribbon_hash_in(rb, key, len), sharded);                    \
    }                                                                                   \
    attr static FK_HOT bool name(const fk_ribbon *rb, const void *key, size_t len)      \
    {                                                                                   \
        if (__builtin_expect(len != 8 || !key, 0))                                      \
            return name##_any(rb, key, len);                                            \
        return probe(rb, fk_hash8_64(fk_hash8_load(key), rb->flip), sharded);           \
    }                                                                                   \
    attr static FK_HOT bool name##_u64(const fk_filter *f, uint64_t key)                \
    {                                                                                   \
        const fk_ribbon *rb = (const fk_ribbon *)f;                                     \
        return probe(rb, fk_hash8_64(key, rb->flip), sharded);                          \
    }

RIBBON_LOOKUPS_T(lookup_one, false, , fk_ribbon_probe)
RIBBON_LOOKUPS_T(lookup_sharded, true, , fk_ribbon_probe)
/* Again for CPUs with popcnt (a parity is then popcnt and a mask instead
 * of a fold of six instructions) and with AVX2 (four result bits per
 * step), chosen at run time; every path answers the same bits. */
#if FK_CPU_X86
RIBBON_LOOKUPS_T(lookup_one_popcnt, false, FK_TARGET_BMI2_POPCNT, fk_ribbon_probe)
RIBBON_LOOKUPS_T(lookup_sharded_popcnt, true, FK_TARGET_BMI2_POPCNT, fk_ribbon_probe)
RIBBON_LOOKUPS_T(lookup_one_avx2, false, FK_TARGET_AVX2, fk_ribbon_probe_avx2)
RIBBON_LOOKUPS_T(lookup_sharded_avx2, true, FK_TARGET_AVX2, fk_ribbon_probe_avx2)
#else
#define lookup_one_popcnt lookup_one
#define lookup_one_popcnt_u64 lookup_one_u64
#define lookup_sharded_popcnt lookup_sharded
#define lookup_sharded_popcnt_u64 lookup_sharded_u64
#define lookup_one_avx2 lookup_one
#define lookup_one_avx2_u64 lookup_one_u64
#define lookup_sharded_avx2 lookup_sharded
#define lookup_sharded_avx2_u64 lookup_sharded_u64
#endif

static bool lookup_empty(const fk_ribbon *rb, const void *key, size_t len)
{
    (void)rb, (void)key, (void)len;
    return false;
}

static bool lookup_empty_u64(const fk_filter *f, uint64_t key)
{
    (void)f, (void)key;
    return false;
}

void fk_ribbon_choose_paths(fk_ribbon *rb)
{
    int isa = FK_RIBBON_ISA_PLAIN;
#if FK_CPU_X86
    if (!fk_ribbon_testing.plain_lookups) {
        if (!fk_ribbon_testing.no_avx2 && rb->r >= 4 && fk_cpu_has(FK_CPU_AVX2 | FK_CPU_BMI2))
            isa = FK_RIBBON_ISA_AVX2;
        else if (fk_cpu_has(FK_CPU_BMI2 | FK_CPU_POPCNT))
            isa = FK_RIBBON_ISA_POPCNT;
    }
#endif
    static const struct {
        fk_ribbon_lookup_fn bytes;
        fk_ribbon_lookup_u64_fn u64;
    } paths[2][3] = {
        { { lookup_one, lookup_one_u64 }, { lookup_one_popcnt, lookup_one_popcnt_u64 },
          { lookup_one_avx2, lookup_one_avx2_u64 } },
        { { lookup_sharded, lookup_sharded_u64 },
          { lookup_sharded_popcnt, lookup_sharded_popcnt_u64 },
          { lookup_sharded_avx2, lookup_sharded_avx2_u64 } },
    };
    rb->isa = isa;
    if (rb->items == 0) {
        rb->lookup = lookup_empty;
        rb->base.contains_u64 = lookup_empty_u64;
    } else {
        rb->lookup = paths[rb->geom.shards > 1][isa].bytes;
        rb->base.contains_u64 = paths[rb->geom.shards > 1][isa].u64;
    }
}

fk_status fk_ribbon_alloc(const fk_ribbon_geom *geom, uint32_t r, uint64_t items,
                          fk_ribbon **out)
{
    *out = NULL;
    fk_ribbon_geom g = *geom;
    if (!fk_ribbon_geom_finish(&g, r))
        return FK_EINVAL;
    fk_ribbon *rb = calloc(1, sizeof *rb);
    if (!rb)
        return FK_ENOMEM;
    rb->solution_words = fk_ribbon_words(&g, r);
    fk_status s = fk_alloc_zeroed(rb->solution_words * 8, (void **)&rb->solution);
    rb->shard_seed = calloc((size_t)g.shards, sizeof *rb->shard_seed);
    if (s != FK_OK || !rb->shard_seed) {
        free(rb->solution);
        free(rb->shard_seed);
        free(rb);
        return s != FK_OK ? s : FK_ENOMEM;
    }
    rb->base.ops = &fk_ribbon_ops;
    rb->geom = g;
    rb->r = r;
    rb->fp_mask = r >= 32 ? UINT32_MAX : (uint32_t)((UINT64_C(1) << r) - 1);
    rb->items = items;
    fk_ribbon_choose_paths(rb);
    *out = rb;
    return FK_OK;
}

void fk_ribbon_free(fk_ribbon *rb)
{
    if (!rb)
        return;
    free(rb->solution);
    free(rb->shard_seed);
    free(rb);
}

fk_filter *fk_ribbon_as_filter(fk_ribbon *rb)
{
    return rb ? &rb->base : NULL;
}

/* ------------------------------------------------------- the key source */

typedef struct {
    size_t n;
    const void *const *keys; /* byte keys, or */
    const size_t *lens;
    const uint64_t *u64;     /* integer keys */
} key_src;

static inline uint64_t hash_one(const key_src *src, size_t i, uint64_t seed, uint64_t flip)
{
    return src->u64 ? fk_hash8_64(src->u64[i], flip)
                    : fk_hash64(src->keys[i], src->lens[i], &seed, &flip);
}

static void hash_range(const key_src *src, size_t lo, size_t hi, uint64_t seed, uint64_t *out)
{
    uint64_t flip = fk_hash8_flip64(seed);
    for (size_t i = lo; i < hi; i++)
        out[i - lo] = hash_one(src, i, seed, flip);
}

/* splitmix64: seeds for retries, shards and free slots. */
static uint64_t derive(uint64_t x)
{
    x += UINT64_C(0x9e3779b97f4a7c15);
    x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
    return x ^ (x >> 31);
}

/* The XXH3 seed of attempt a of a one-shard filter (attempt 0: the params
 * seed, so the common case hashes as every other kind does). */
static uint64_t attempt_seed(uint64_t seed, uint64_t a)
{
    return a == 0 ? seed : derive(seed ^ derive(a ^ UINT64_C(0x524942424f4e)));
}

static uint64_t shard_seed_of(uint64_t seed, uint64_t s, uint64_t a)
{
    return derive(derive(seed ^ UINT64_C(0x5348415244)) + derive(s * 1024 + a));
}

/* ---------------------------------------------------------- sort, dedup */

/* Sorts the hashes in[0..n) ascending into out[0..n) (in may be
 * overwritten: it holds the counts after the hashes' end, `count`, 4
 * bytes a bucket, 2^B <= n buckets, so 12 n bytes in all): one counting
 * pass and one scatter by the top B bits (buckets of one to two keys on
 * average: a start is a monotone function of the hash, so this is the
 * order of the starts), then one insertion sort, whose keys move only
 * within their buckets. A bucket holds few keys unless a set was crafted
 * against the seed; when one holds more than SMALL_BUCKET, each bucket
 * is sorted on its own, a long one by qsort, so no set makes the sort
 * quadratic. */
#define SMALL_BUCKET 32u

static void insertion_sort(uint64_t *a, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        uint64_t v = a[i];
        size_t j = i;
        while (j > 0 && a[j - 1] > v) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = v;
    }
}

static int by_hash(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

static unsigned bucket_bits(size_t n)
{
    unsigned b = 0;
    while (b < 32 && ((size_t)2 << b) <= n)
        b++;
    return b; /* 2^b <= n < 2^(b+1) for n >= 1 */
}

static void sort_hashes(const uint64_t *in, uint64_t *out, uint32_t *count, size_t n)
{
    if (n <= SMALL_BUCKET) {
        memcpy(out, in, n * sizeof *out);
        insertion_sort(out, n);
        return;
    }
    unsigned bits = bucket_bits(n), shift = 64 - bits;
    size_t buckets = (size_t)1 << bits;
    memset(count, 0, buckets * sizeof *count);
    for (size_t i = 0; i < n; i++)
        count[in[i] >> shift]++;
    uint32_t at = 0, most = 0; /* a shard holds far fewer than 2^32 keys */
    for (size_t d = 0; d < buckets; d++) {
        uint32_t c = count[d];
        count[d] = at;
        at += c;
        most = c > most ? c : most;
    }
    for (size_t i = 0; i < n; i++)
        out[count[in[i] >> shift]++] = in[i];
    if (most <= SMALL_BUCKET) { /* a key moves only within its bucket */
        insertion_sort(out, n);
        return;
    }
    /* count[d] is now the end of bucket d */
    size_t lo = 0;
    for (size_t d = 0; d < buckets; d++) {
        size_t hi = count[d];
        if (hi - lo > SMALL_BUCKET)
            qsort(out + lo, hi - lo, sizeof *out, by_hash);
        else if (hi - lo > 1)
            insertion_sort(out + lo, hi - lo);
        lo = hi;
    }
}

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

/* ------------------------------------------------- band, back-substitute */

/* A row on its way through the band: its current first column `at`
 * (bit 0 of lo, which is set), the rest of its words, its result. */
typedef struct {
    uint64_t at, lo, hi;
    uint32_t fp;
} band_row;

static inline __attribute__((always_inline)) void
row_load(uint64_t starts, uint32_t fp_mask, uint64_t g, band_row *x)
{
    fk_ribbon_row row;
    fk_ribbon_row_of(starts, g, fp_mask, &row);
    x->at = row.s;
    x->lo = row.lo;
    x->hi = row.hi;
    x->fp = row.fp;
}

/* One step of the banding of a row into the rows' words clo[m], chi[m]
 * (zeroed, so a free slot reads clo = 0: a kept row's has bit 0 set) and
 * results res[m] (three arrays, so that a slot's address is a scaled
 * index): kept at its first column when that slot is free (1), else
 * XORed with the row kept there and moved to its next nonzero column
 * (0); a row that vanishes is redundant (1) when its result vanishes too,
 * else the system has no solution (-1). */
static inline __attribute__((always_inline)) int
band_step(band_row *x, uint64_t *clo, uint64_t *chi, uint32_t *res)
{
    uint64_t at = x->at, c0 = clo[at];
    if (c0 == 0) {
        clo[at] = x->lo;
        chi[at] = x->hi;
        res[at] = x->fp;
        return 1;
    }
    uint64_t lo = x->lo ^ c0, hi = x->hi ^ chi[at]; /* bit 0 of both is set: lo's goes */
    uint32_t fp = x->fp ^ res[at];
    if (__builtin_expect(lo == 0, 0)) {
        if (hi == 0)
            return fp != 0 ? -1 : 1;
        at += 64;
        lo = hi;
        hi = 0;
    }
    unsigned z = (unsigned)__builtin_ctzll(lo); /* < 64 */
    x->at = at + z;
    x->lo = (lo >> z) | ((hi << 1) << (63 - z));
    x->hi = hi >> z;
    x->fp = fp;
    return 0;
}

/* Bands x (g[i]'s row, under way) and then g[i + 1..end). */
static inline __attribute__((always_inline)) bool
band_run(band_row *x, size_t i, size_t end, uint64_t starts, uint32_t fp_mask, const uint64_t *g,
         uint64_t *clo, uint64_t *chi, uint32_t *res)
{
    for (;;) {
        int st = band_step(x, clo, chi, res);
        if (st != 0) {
            if (st < 0)
                return false;
            if (++i == end)
                return true;
            row_load(starts, fp_mask, g[i], x);
        }
    }
}

/* The banding of the rows of the sorted distinct hashes g[0..k). Every
 * step of a row waits on the one before it (a load, a XOR, a bit scan), so
 * from BAND_TWO_FROM keys on two rows go through the band side by side,
 * one from each half of the set, and the CPU overlaps their steps. Any
 * order of the rows bands the same system (a step reads and writes the
 * band in program order), and the solution comes out bit for bit the
 * same: which rows are kept where differs, but the pivot columns are
 * the leading columns of the rows' span whatever the order, so the free
 * slots, their bits and then every other slot's are the same. Inlined
 * into one copy per instruction set (tzcnt, shrx where the CPU has
 * them). */
#define BAND_TWO_FROM 4096u

static inline __attribute__((always_inline)) bool
band_rows(uint64_t starts, uint32_t fp_mask, const uint64_t *g, size_t k, uint64_t *clo,
          uint64_t *chi, uint32_t *res)
{
    band_row a, b;
    if (k == 0)
        return true;
    row_load(starts, fp_mask, g[0], &a);
    if (k < BAND_TWO_FROM)
        return band_run(&a, 0, k, starts, fp_mask, g, clo, chi, res);
    size_t ia = 0, half = k / 2, ib = half;
    row_load(starts, fp_mask, g[ib], &b);
    for (;;) {
        int sa = band_step(&a, clo, chi, res), sb = band_step(&b, clo, chi, res);
        if (__builtin_expect((sa | sb) == 0, 1))
            continue;
        if (sa < 0 || sb < 0)
            return false;
        if (sb) {
            if (++ib == k) { /* b is done: a alone from here */
                if (sa) {
                    if (++ia == half)
                        return true;
                    row_load(starts, fp_mask, g[ia], &a);
                }
                return band_run(&a, ia, half, starts, fp_mask, g, clo, chi, res);
            }
            row_load(starts, fp_mask, g[ib], &b);
        }
        if (sa) {
            if (++ia == half)
                return band_run(&b, ib, k, starts, fp_mask, g, clo, chi, res);
            row_load(starts, fp_mask, g[ia], &a);
        }
    }
}

/* Back substitution, the last block first and within a block the last
 * slot first, four result columns at a time (independent chains for the
 * CPU to overlap; the last group overlaps the one before it when r is
 * not a multiple of 4, recomputing the same words). A column's state is
 * its solution bits for slots at..at+127 (bit 0 = slot at): entering
 * block b it is the column's words of blocks b + 1 and b + 2 (0 past the
 * shard's end). A free slot (lo = 0) takes its bits from res, which the
 * caller filled with pseudo-random bits. */
#define SOLVE_STEP(q)                                              \
    do {                                                           \
        hi##q = (hi##q << 1) | (lo##q >> 63);                      \
        lo##q <<= 1;                                               \
        uint64_t x = (c0 & lo##q) ^ (c1 & hi##q);                  \
        lo##q |= (uint64_t)((__builtin_parityll(x) ^ (want >> q)) & 1u);         \
    } while (0)

static inline __attribute__((always_inline)) void
solve_blocks(const uint64_t *clo, const uint64_t *chi, const uint32_t *res, uint64_t blocks,
             uint32_t r, uint64_t *sol)
{
    for (uint64_t b = blocks; b-- > 0;) {
        const uint64_t *lb = clo + 64 * b, *hb = chi + 64 * b;
        const uint32_t *rb = res + 64 * b;
        uint64_t *next = b + 1 < blocks ? sol + (b + 1) * r : NULL;
        uint64_t *after = b + 2 < blocks ? sol + (b + 2) * r : NULL;
        uint32_t j = 0;
        while (j < r) {
            if (r >= 4) {
                if (j + 4 > r)
                    j = r - 4;
                uint64_t lo0 = next ? next[j] : 0, hi0 = after ? after[j] : 0;
                uint64_t lo1 = next ? next[j + 1] : 0, hi1 = after ? after[j + 1] : 0;
                uint64_t lo2 = next ? next[j + 2] : 0, hi2 = after ? after[j + 2] : 0;
                uint64_t lo3 = next ? next[j + 3] : 0, hi3 = after ? after[j + 3] : 0;
                for (unsigned i = 64; i-- > 0;) {
                    uint64_t c0 = lb[i], c1 = hb[i];
                    uint32_t want = rb[i] >> j;
                    SOLVE_STEP(0);
                    SOLVE_STEP(1);
                    SOLVE_STEP(2);
                    SOLVE_STEP(3);
                }
                sol[b * r + j] = lo0;
                sol[b * r + j + 1] = lo1;
                sol[b * r + j + 2] = lo2;
                sol[b * r + j + 3] = lo3;
                j += 4;
            } else {
                uint64_t lo0 = next ? next[j] : 0, hi0 = after ? after[j] : 0;
                for (unsigned i = 64; i-- > 0;) {
                    uint64_t c0 = lb[i], c1 = hb[i];
                    uint32_t want = rb[i] >> j;
                    SOLVE_STEP(0);
                }
                sol[b * r + j] = lo0;
                j++;
            }
        }
    }
}
#undef SOLVE_STEP

static bool band_plain(uint64_t starts, uint32_t fp_mask, const uint64_t *g, size_t k,
                       uint64_t *clo, uint64_t *chi, uint32_t *res)
{
    return band_rows(starts, fp_mask, g, k, clo, chi, res);
}

static void solve_plain(const uint64_t *clo, const uint64_t *chi, const uint32_t *res,
                        uint64_t blocks, uint32_t r, uint64_t *sol)
{
    solve_blocks(clo, chi, res, blocks, r, sol);
}

#if FK_CPU_X86
/* tzcnt (BMI1), shrx/shlx (BMI2) and a parity as popcnt and a mask */
#define FK_TARGET_BUILD __attribute__((target("bmi,bmi2,popcnt")))
FK_TARGET_BUILD static bool band_fast(uint64_t starts, uint32_t fp_mask, const uint64_t *g,
                                      size_t k, uint64_t *clo, uint64_t *chi, uint32_t *res)
{
    return band_rows(starts, fp_mask, g, k, clo, chi, res);
}

FK_TARGET_BUILD static void solve_fast(const uint64_t *clo, const uint64_t *chi,
                                       const uint32_t *res, uint64_t blocks, uint32_t r,
                                       uint64_t *sol)
{
    solve_blocks(clo, chi, res, blocks, r, sol);
}
#else
#define band_fast band_plain
#define solve_fast solve_plain
#endif

/* Solves one shard: rows of the sorted distinct hashes g[0..k) in a
 * geometry of m slots, into the shard's blocks at sol (blocks * r words).
 * band holds 20 m bytes of workspace. False when the system has no
 * solution (the caller tries another seed). */
static bool band_and_solve(const fk_ribbon_geom *geom, uint32_t r, uint32_t fp_mask,
                           const uint64_t *g, size_t k, uint8_t *band, uint64_t *sol,
                           uint64_t free_seed)
{
    uint64_t m = geom->slots;
    uint64_t *clo = (uint64_t *)band, *chi = clo + m;
    uint32_t *res = (uint32_t *)(band + 16 * m);
    memset(clo, 0, (size_t)(8 * m)); /* chi is written where clo is */
    bool fast = false;
#if FK_CPU_X86
    fast = fk_cpu_has(FK_CPU_BMI | FK_CPU_BMI2 | FK_CPU_POPCNT) &&
           !fk_ribbon_testing.plain_lookups;
#endif
    if (!(fast ? band_fast(geom->starts, fp_mask, g, k, clo, chi, res)
               : band_plain(geom->starts, fp_mask, g, k, clo, chi, res)))
        return false;
    /* a free slot (clo = 0: no row, so no parity) takes res's bits:
     * pseudo-random ones, that absent keys meet no pattern */
    for (uint64_t at = 0; at < m; at++)
        if (clo[at] == 0) {
            chi[at] = 0;
            res[at] = (uint32_t)derive(free_seed ^ at);
        }
    (fast ? solve_fast : solve_plain)(clo, chi, res, geom->blocks, r, sol);
    return true;
}

/* -------------------------------------------------- one-shard build */

/* A temporary buffer (not zeroed); from 4 MiB up with huge pages asked
 * for: the banding's accesses are local but the sort's are not. */
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

static bool grow(uint8_t **buf, uint64_t *have, uint64_t need)
{
    if (need <= *have)
        return true;
    uint8_t *p = temp_alloc(need);
    if (!p)
        return false;
    free(*buf);
    *buf = p;
    *have = need;
    return true;
}

static fk_status within(const fk_ribbon_geom *g, uint32_t r, uint64_t limit)
{
    return memory_of(g, r) > limit ? FK_ELIMIT : FK_OK;
}

static uint64_t forced_failures(void) { return fk_ribbon_testing.fail_attempts; }

static fk_status build_one_shard(const key_src *src, uint64_t seed, uint32_t r, uint64_t limit,
                                 fk_ribbon **out)
{
    size_t n = src->n;
    uint8_t *band = NULL;
    uint64_t band_have = 0, peak = 0, passes = 0, a = 0;
    uint64_t *hashes = temp_alloc(hashes_bytes(n));
    fk_ribbon *rb = NULL;
    fk_status s = hashes ? FK_EFULL : FK_ENOMEM;
    unsigned level = 0;
    for (; s == FK_EFULL && level < FK_RIBBON_MAX_LEVELS; level++) {
        for (unsigned t = 0; t < FK_RIBBON_ATTEMPTS_PER_LEVEL; t++, a++) {
            uint64_t hseed = attempt_seed(seed, a);
            /* sized for this level's slots at once (k <= n keys need no
             * more), so the buffer never grows while the hashes are held */
            if (!grow(&band, &band_have, band_bytes(n, fk_ribbon_slots_for(n, level)))) {
                s = FK_ENOMEM;
                break;
            }
            /* hashed into the band's space, sorted from there */
            hash_range(src, 0, n, hseed, (uint64_t *)band);
            passes++;
            sort_hashes((uint64_t *)band, hashes, (uint32_t *)(band + 8 * n), n);
            size_t k = unique_hashes(hashes, n);
            fk_ribbon_geom geom = { .shards = 1, .slots = fk_ribbon_slots_for(k, level) };
            if (!fk_ribbon_geom_finish(&geom, r)) {
                s = FK_EINVAL;
                break;
            }
            if (!grow(&band, &band_have, band_bytes(n, geom.slots))) {
                s = FK_ENOMEM;
                break;
            }
            peak = max_u64(peak, hashes_bytes(n) + band_have);
            if (!rb || rb->geom.slots != geom.slots || rb->items != k) {
                fk_ribbon_free(rb);
                rb = NULL;
                if ((s = within(&geom, r, limit)) != FK_OK ||
                    (s = fk_ribbon_alloc(&geom, r, k, &rb)) != FK_OK)
                    break;
            }
            fk_ribbon_set_hash_seed(rb, hseed);
            if (a >= forced_failures() &&
                (k == 0 || band_and_solve(&geom, r, rb->fp_mask, hashes, k, band, rb->solution,
                                          derive(hseed ^ 0x46524545u)))) {
                rb->built.attempts = rb->built.max_attempts = a + 1;
                rb->built.level = level;
                s = FK_OK;
                break;
            }
            s = FK_EFULL;
        }
    }
    free(hashes);
    free(band);
    if (s != FK_OK) {
        fk_ribbon_free(rb);
        return s;
    }
    rb->built.temp_bytes = peak;
    rb->built.key_passes = passes;
    fk_ribbon_choose_paths(rb);
    *out = rb;
    return FK_OK;
}

/* -------------------------------------------------------- sharded build
 *
 * As fuse's (fuse/fuse.c has the same plan by role): a pass over the keys
 * counts each shard's keys; every shard gets the slots of the fullest;
 * each building thread has a workspace for one shard, the rest of the
 * budget stages the hashes of a group of shards (one pass over the keys
 * per group), and the threads build the group's shards. A shard that finds
 * no solution in FK_RIBBON_ATTEMPTS_PER_LEVEL seeds fails the build at
 * this level; the caller tries the next level (more slots). */

typedef struct shard_build shard_build;

typedef struct {
    shard_build *sb;
    unsigned     t;
    size_t       lo, hi;
    uint64_t    *ws_hashes;
    uint8_t     *ws_band;
} worker;

struct shard_build {
    const key_src *src;
    uint64_t       seed, flip;
    uint64_t       shards;
    unsigned       threads;
    unsigned       level;
    uint64_t      *counts;   /* [threads][shards] */
    uint64_t      *total;    /* [shards] */
    uint64_t      *cursor;   /* [threads][shards] */
    uint64_t       s0, s1;
    uint64_t      *stage;
    uint64_t      *stage_at; /* [shards] */
    fk_ribbon     *rb;
    uint64_t      *items;    /* [shards] */
    uint64_t      *attempts; /* [shards] */
    _Atomic uint64_t next;
    _Atomic int    failed;
    int            phase;
};

static void count_range(worker *w)
{
    shard_build *sb = w->sb;
    uint64_t *c = sb->counts + (uint64_t)w->t * sb->shards;
    for (size_t i = w->lo; i < w->hi; i++)
        c[fk_ribbon_shard_of(hash_one(sb->src, i, sb->seed, sb->flip), sb->shards)]++;
}

static void stage_range(worker *w)
{
    shard_build *sb = w->sb;
    uint64_t *cur = sb->cursor + (uint64_t)w->t * sb->shards;
    for (size_t i = w->lo; i < w->hi; i++) {
        uint64_t h = hash_one(sb->src, i, sb->seed, sb->flip);
        uint64_t s = fk_ribbon_shard_of(h, sb->shards);
        if (s >= sb->s0 && s < sb->s1)
            sb->stage[cur[s]++] = h;
    }
}

static void build_shards(worker *w)
{
    shard_build *sb = w->sb;
    fk_ribbon *rb = sb->rb;
    if (!w->ws_hashes)
        return; /* a scanning thread only */
    for (;;) {
        uint64_t s = atomic_fetch_add(&sb->next, 1);
        if (s >= sb->s1 || atomic_load(&sb->failed) != FK_OK)
            return;
        const uint64_t *h = sb->stage + sb->stage_at[s];
        size_t n = (size_t)sb->total[s];
        bool ok = false;
        uint64_t t = 0;
        for (; t < FK_RIBBON_ATTEMPTS_PER_LEVEL && !ok; t++) {
            uint64_t a = (uint64_t)sb->level * FK_RIBBON_ATTEMPTS_PER_LEVEL + t;
            uint64_t ss = shard_seed_of(sb->seed, s, a);
            uint64_t *mixed = (uint64_t *)w->ws_band; /* sorted from there */
            for (size_t i = 0; i < n; i++)
                mixed[i] = fk_ribbon_remix(h[i], ss);
            sort_hashes(mixed, w->ws_hashes, (uint32_t *)(w->ws_band + 8 * n), n);
            size_t k = unique_hashes(w->ws_hashes, n);
            sb->items[s] = k;
            rb->shard_seed[s] = ss;
            ok = a >= forced_failures() &&
                 (k == 0 || band_and_solve(&rb->geom, rb->r, rb->fp_mask, w->ws_hashes, k,
                                           w->ws_band, rb->solution + s * rb->geom.blocks * rb->r,
                                           derive(ss ^ 0x46524545u)));
        }
        sb->attempts[s] = t;
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

/* Runs a phase on every worker: threads 1.. in new threads, 0 here; a
 * thread that cannot start has its share run here afterwards. */
static void run_phase(shard_build *sb, worker *ws, int phase)
{
    sb->phase = phase;
    pthread_t tid[FK_RIBBON_MAX_THREADS];
    bool started[FK_RIBBON_MAX_THREADS] = { false };
    for (unsigned t = 1; t < sb->threads; t++)
        started[t] = pthread_create(&tid[t], NULL, worker_main, &ws[t]) == 0;
    worker_main(&ws[0]);
    for (unsigned t = 1; t < sb->threads; t++) {
        if (started[t])
            pthread_join(tid[t], NULL);
        else
            worker_main(&ws[t]);
    }
}

static fk_status build_sharded(const key_src *src, uint64_t seed, uint32_t r, unsigned threads,
                               uint64_t limit, unsigned level, fk_ribbon **out)
{
    size_t n = src->n;
    uint64_t shards = (n + shard_keys() - 1) / shard_keys();
    if (threads > shards)
        threads = (unsigned)shards;
    shard_build sb;
    memset(&sb, 0, sizeof sb);
    sb.src = src;
    sb.seed = seed;
    sb.flip = fk_hash8_flip64(seed);
    sb.shards = shards;
    sb.threads = threads;
    sb.level = level;
    atomic_init(&sb.next, 0);
    atomic_init(&sb.failed, FK_OK);
    worker ws[FK_RIBBON_MAX_THREADS];
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
        fullest = max_u64(fullest, sb.total[sh]);
    }
    fk_ribbon_geom geom = { .shards = shards, .slots = fk_ribbon_slots_for(fullest, level) };
    if (!fk_ribbon_geom_finish(&geom, r)) {
        s = FK_EINVAL;
        goto done;
    }
    if ((s = within(&geom, r, limit)) == FK_OK)
        s = fk_ribbon_alloc(&geom, r, 0, &sb.rb);
    if (s != FK_OK)
        goto done;
    fk_ribbon_set_hash_seed(sb.rb, seed);

    uint64_t ws_bytes = hashes_bytes(fullest) + band_bytes(fullest, geom.slots);
    uint64_t one_shard = 8 * fullest;
    uint64_t fit = FK_RIBBON_TEMP_BUDGET > one_shard ? (FK_RIBBON_TEMP_BUDGET - one_shard) / ws_bytes
                                                     : 0;
    unsigned builders = threads < fit ? threads : (unsigned)(fit ? fit : 1);
    for (unsigned t = 0; t < builders; t++) {
        ws[t].ws_hashes = temp_alloc(hashes_bytes(fullest));
        ws[t].ws_band = temp_alloc(band_bytes(fullest, geom.slots));
        if (!ws[t].ws_hashes || !ws[t].ws_band) {
            s = FK_ENOMEM;
            goto done;
        }
    }
    uint64_t used = (uint64_t)builders * ws_bytes;
    uint64_t left = used < FK_RIBBON_TEMP_BUDGET ? FK_RIBBON_TEMP_BUDGET - used : 0;
    uint64_t group_cap = fk_ribbon_testing.stage_bytes ? fk_ribbon_testing.stage_bytes / 8
                                                       : max_u64(left, one_shard) / 8;
    if (group_cap > n)
        group_cap = n;
    if (group_cap < fullest)
        group_cap = fullest;
    sb.stage = temp_alloc(8 * max_u64(group_cap, 1));
    if (!sb.stage) {
        s = FK_ENOMEM;
        goto done;
    }
    peak = 8 * group_cap + builders * ws_bytes + 4 * 8 * shards * (threads + 1);

    for (uint64_t s0 = 0; s0 < shards;) {
        uint64_t s1 = s0, staged = 0;
        while (s1 < shards && (s1 == s0 || staged + sb.total[s1] <= group_cap))
            staged += sb.total[s1++];
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
        most = max_u64(most, sb.attempts[sh]);
    }
    sb.rb->items = items;
    sb.rb->built.attempts = attempts;
    sb.rb->built.max_attempts = most;
    sb.rb->built.level = level;
    sb.rb->built.temp_bytes = peak;
    sb.rb->built.key_passes = passes;
    fk_ribbon_choose_paths(sb.rb);
    *out = sb.rb;
    sb.rb = NULL;
    s = FK_OK;
done:
    for (unsigned t = 0; t < threads; t++) {
        free(ws[t].ws_hashes);
        free(ws[t].ws_band);
    }
    free(sb.stage);
    free(sb.counts);
    free(sb.cursor);
    free(sb.total);
    free(sb.stage_at);
    free(sb.items);
    free(sb.attempts);
    fk_ribbon_free(sb.rb);
    return s;
}

/* ---------------------------------------------------------------- build */

static fk_status check_build_params(const fk_params *p, uint32_t *r)
{
    if (!p || p->reserved != 0 || !(p->fpr > 0.0 && p->fpr < 1.0))
        return FK_EINVAL;
    if (p->fingerprint_bits != 0 && (p->fingerprint_bits < FK_RIBBON_MIN_RESULT_BITS ||
                                     p->fingerprint_bits > FK_RIBBON_MAX_RESULT_BITS))
        return FK_EINVAL;
    if (p->threads > FK_RIBBON_MAX_THREADS)
        return FK_EINVAL;
    *r = p->fingerprint_bits ? p->fingerprint_bits : fk_ribbon_bits_for(p->fpr);
    return FK_OK;
}

/* The geometry a build of n distinct keys plans at level 0 (sharded sets
 * as equal shards). False over FK_MEMORY_CAP. */
static bool plan(uint64_t n, uint32_t r, fk_ribbon_geom *g)
{
    uint64_t sk = shard_keys(); /* ceilings written so that no sum overflows */
    g->shards = n > sk ? n / sk + (n % sk != 0) : 1;
    g->slots = fk_ribbon_slots_for(n / g->shards + (n % g->shards != 0), 0);
    return fk_ribbon_geom_finish(g, r);
}

static fk_status build_from(const fk_params *p, const key_src *src, fk_ribbon **out)
{
    uint32_t r = 0;
    fk_status s = check_build_params(p, &r);
    if (s != FK_OK)
        return s;
    fk_ribbon_geom g;
    if (!plan(src->n, r, &g))
        return FK_EINVAL;
    fk_ribbon *rb = NULL;
    if (src->n > shard_keys()) {
        unsigned threads = p->threads ? p->threads : 1;
        s = FK_EFULL;
        for (unsigned level = 0; s == FK_EFULL && level < FK_RIBBON_MAX_LEVELS; level++)
            s = build_sharded(src, p->seed, r, threads, fk_params_max_bytes(p), level, &rb);
    } else {
        s = build_one_shard(src, p->seed, r, fk_params_max_bytes(p), &rb);
    }
    if (s != FK_OK)
        return s;
    rb->seed = p->seed;
    rb->fpr = p->fpr;
    rb->capacity = p->capacity ? p->capacity : src->n ? src->n : 1;
    rb->built.keys_given = src->n;
    rb->built.duplicates = src->n - rb->items;
    *out = rb;
    return FK_OK;
}

fk_status fk_ribbon_build(const fk_params *p, size_t n, const void *const keys[],
                          const size_t lens[], fk_ribbon **out)
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

fk_status fk_ribbon_build_u64(const fk_params *p, size_t n, const uint64_t keys[],
                              fk_ribbon **out)
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

bool fk_ribbon_contains(const fk_ribbon *rb, const void *key, size_t len)
{
    return rb ? rb->lookup(rb, key, len) : false;
}

fk_status fk_ribbon_locate(const fk_ribbon *rb, const void *key, size_t len,
                           fk_ribbon_location *out)
{
    if (!rb || !out || (!key && len > 0))
        return FK_EINVAL;
    memset(out, 0, sizeof *out);
    bool sharded = rb->geom.shards > 1;
    fk_ribbon_row row;
    out->hash = fk_ribbon_hash_in(rb, key, len);
    out->shard = sharded ? fk_ribbon_shard_of(out->hash, rb->geom.shards) : 0;
    out->mixed = fk_ribbon_place(rb, out->hash, sharded, &row, &out->first_word);
    out->start = row.s;
    out->coef_lo = row.lo;
    out->coef_hi = row.hi;
    out->fingerprint = row.fp;
    out->result = rb->items ? fk_ribbon_result(rb->solution + out->first_word, rb->r, &row) : 0;
    return FK_OK;
}

/* ---------------------------------------------------------------- stats */

void fk_ribbon_stats(const fk_ribbon *rb, fk_stats *out)
{
    if (!out)
        return;
    memset(out, 0, sizeof *out);
    if (!rb)
        return;
    uint64_t slots = rb->geom.shards * rb->geom.slots;
    out->items = rb->items;
    out->capacity = rb->capacity;
    out->memory_bytes = memory_of(&rb->geom, rb->r);
    out->bits_per_item = 8.0 * (double)out->memory_bytes / (double)(rb->items ? rb->items : 1);
    out->load_factor = (double)rb->items / (double)slots;
    out->expected_fpr = rb->items ? ldexp(1.0, -(int)rb->r) : 0.0;
}

/* --------------------------------------------------------- the vtable */

static void fk_ribbon_slot_destroy(fk_filter *f) { fk_ribbon_free((fk_ribbon *)f); }

static bool fk_ribbon_slot_contains(const fk_filter *f, const void *key, size_t len)
{
    const fk_ribbon *rb = (const fk_ribbon *)f;
    return rb->lookup(rb, key, len);
}

static void fk_ribbon_slot_stats(const fk_filter *f, fk_stats *out)
{
    fk_ribbon_stats((const fk_ribbon *)f, out);
}

static fk_status fk_ribbon_slot_build(const fk_params *p, size_t n, const void *const keys[],
                                      const size_t lens[], fk_filter **out)
{
    fk_ribbon *rb = NULL;
    fk_status s = fk_ribbon_build(p, n, keys, lens, &rb);
    *out = rb ? &rb->base : NULL;
    return s;
}

static fk_status fk_ribbon_slot_build_u64(const fk_params *p, size_t n, const uint64_t keys[],
                                          fk_filter **out)
{
    fk_ribbon *rb = NULL;
    fk_status s = fk_ribbon_build_u64(p, n, keys, &rb);
    *out = rb ? &rb->base : NULL;
    return s;
}

static fk_status fk_ribbon_slot_size(const fk_params *p, double items, fk_sizing *out)
{
    uint32_t r = 0;
    fk_status s = check_build_params(p, &r);
    if (s != FK_OK || p->capacity == 0)
        return FK_EINVAL;
    fk_ribbon_geom g;
    if (!plan(p->capacity, r, &g))
        return FK_EINVAL;
    out->memory_bytes = memory_of(&g, r);
    out->expected_fpr = items > 0 ? ldexp(1.0, -(int)r) : 0.0;
    snprintf(out->geometry, sizeof out->geometry,
             "r = %u result bits, %llu x %llu slots, band %u (static: built from the whole set)",
             r, (unsigned long long)g.shards, (unsigned long long)g.slots, FK_RIBBON_WIDTH);
    return FK_OK;
}

void fk_ribbon_describe(const fk_ribbon *rb, fk_ribbon_description *out)
{
    if (!rb || !out)
        return;
    memset(out, 0, sizeof *out);
    out->result_bits = rb->r;
    out->band_width = FK_RIBBON_WIDTH;
    out->items = rb->items;
    out->shards = rb->geom.shards;
    out->slots_per_shard = rb->geom.slots;
    out->slots = rb->geom.shards * rb->geom.slots;
    out->seed = rb->seed;
    out->keys_given = rb->built.keys_given;
    out->duplicates = rb->built.duplicates;
    out->attempts = rb->built.attempts;
    out->max_attempts = rb->built.max_attempts;
    out->level = rb->built.level;
    out->temp_bytes = rb->built.temp_bytes;
    out->key_passes = rb->built.key_passes;
}

/* The describe slot: fk_ribbon_description's fields as rows, in its order
 * (`at` is ignored: the kind has no clock). */
static fk_status fk_ribbon_slot_describe(const fk_filter *f, const uint64_t *at,
                                         fk_describe_row *rows, size_t cap, size_t *n)
{
    (void)at;
    fk_ribbon_description d;
    fk_ribbon_describe((const fk_ribbon *)(const void *)f, &d);
    fk_describe_u64(rows, cap, n, "result_bits", d.result_bits);
    fk_describe_u64(rows, cap, n, "band_width", d.band_width);
    fk_describe_u64(rows, cap, n, "items", d.items);
    fk_describe_u64(rows, cap, n, "shards", d.shards);
    fk_describe_u64(rows, cap, n, "slots_per_shard", d.slots_per_shard);
    fk_describe_u64(rows, cap, n, "slots", d.slots);
    fk_describe_double(rows, cap, n, "overhead",
                       d.items ? (double)d.slots / (double)d.items - 1.0 : 0.0);
    fk_describe_u64(rows, cap, n, "seed", d.seed);
    fk_describe_u64(rows, cap, n, "keys_given", d.keys_given);
    fk_describe_u64(rows, cap, n, "duplicates", d.duplicates);
    fk_describe_u64(rows, cap, n, "attempts", d.attempts);
    fk_describe_u64(rows, cap, n, "max_attempts", d.max_attempts);
    fk_describe_u64(rows, cap, n, "level", d.level);
    fk_describe_u64(rows, cap, n, "temp_bytes", d.temp_bytes);
    fk_describe_u64(rows, cap, n, "key_passes", d.key_passes);
    /* the band's rows lie side by side from the key's start slot */
    fk_describe_u64(rows, cap, n, "lookup_reads", 1);
    return FK_OK;
}

const fk_ops fk_ribbon_ops = {
    .version = FK_OPS_VERSION,
    .name = "ribbon",
    .summary = "standard ribbon filter (band 128): static, built from the whole set; ~1.04 r "
               "bits per key for fpr 2^-r, the smallest static filter",
    .caps = 0,
    .destroy = fk_ribbon_slot_destroy,
    .contains = fk_ribbon_slot_contains,
    .stats = fk_ribbon_slot_stats,
    .serial = &fk_ribbon_serial_ops,
    .size = fk_ribbon_slot_size,
    .contains_many = fk_ribbon_slot_contains_many,
    .contains_many_u64 = fk_ribbon_slot_contains_many_u64,
    .build = fk_ribbon_slot_build,
    .build_u64 = fk_ribbon_slot_build_u64,
    .describe = fk_ribbon_slot_describe,
};
