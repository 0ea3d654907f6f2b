/* tests/test_blocked.c: the split-block Bloom filter (kind "blocked"):
 * its key mapping against the Parquet specification, both code paths bit
 * for bit, sizing and FPR against the formula, set operations and the
 * direct API's bad arguments.
 *
 * Also the driver of the instruction count (not a test):
 *   valgrind --tool=callgrind --toggle-collect=lookup_loop \
 *       build/tests/test_blocked --lookup-loop 1000000 absent|present [KIND [scalar]]
 * builds a filter of KIND (default blocked; `scalar` forces blocked's
 * portable path) for 1M 8-byte keys at 1%, then
 * looks up 1M keys through the vtable's contains pointer, one call per key,
 * as the bench's loop does; instructions per lookup = callgrind's total /
 * 1M. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#define XXH_INLINE_ALL
#include <xxhash.h>
#include "check.h"
#include "keys.h"
#include "../blocked/blocked.h"
#include "../blocked/blocked_internal.h" /* the array, for the alignment check */
#include "../registry/registry.h"
#include "describe.h"

/* The salts as printed in the Parquet split-block Bloom filter spec,
 * written out again here so a typo in the library cannot hide. */
static const uint32_t spec_salt[8] = { 0x47b6137bu, 0x44974d91u, 0x8824ad5bu, 0xa2b7289du,
                                       0x705495c7u, 0x2df1424bu, 0x9efc4947u, 0x5c6bfb31u };

static fk_blocked *make(uint64_t n, double fpr, uint64_t seed)
{
    fk_params p = fk_params_make(n, fpr);
    p.seed = seed;
    fk_blocked *b = NULL;
    CHECK_STATUS(fk_blocked_new(&p, &b), FK_OK);
    return b;
}

/* Inserts keys_positive(from .. to-1). */
static void insert_range(fk_blocked *b, uint64_t from, uint64_t to)
{
    for (uint64_t i = from; i < to; i++) {
        uint64_t k = keys_positive(i);
        fk_blocked_insert(b, &k, sizeof k);
    }
}

/* How many of keys_positive(from .. to-1) b answers absent. */
static uint64_t count_missing(const fk_blocked *b, uint64_t from, uint64_t to)
{
    uint64_t missing = 0;
    for (uint64_t i = from; i < to; i++) {
        uint64_t k = keys_positive(i);
        missing += !fk_blocked_contains(b, &k, sizeof k);
    }
    return missing;
}

static bool has_avx2(void)
{
    static int noted;
    if (!fk_blocked_avx2_available() && !noted++)
        printf("note: this CPU has no AVX2: the AVX2 halves of these tests are skipped\n");
    return fk_blocked_avx2_available();
}

/* The paths to run a check on: scalar always, AVX2 where the CPU has it. */
static size_t paths(fk_blocked_path out[2])
{
    size_t n = 0;
    out[n++] = FK_BLOCKED_PATH_SCALAR;
    if (has_avx2())
        out[n++] = FK_BLOCKED_PATH_AVX2;
    return n;
}

/* ------------------------------------------------------------- mapping */

TEST(key_mapping_follows_the_parquet_spec)
{
    fk_blocked *b = make(5000, 0.01, 77);
    if (!b)
        return;
    uint64_t blocks = blocked_desc(b).blocks;
    char key[KEYS_MAX_LEN];
    for (uint64_t i = 0; i < 2000; i++) {
        size_t len = keys_realistic(i, key);
        fk_blocked_probe pr;
        CHECK_STATUS(fk_blocked_locate(b, key, len, &pr), FK_OK);
        uint64_t h = XXH3_64bits_withSeed(key, len, 77);
        CHECK_EQ_U64(pr.hash, h);
        CHECK_EQ_U64(pr.block, ((h >> 32) * blocks) >> 32);
        for (unsigned w = 0; w < 8; w++)
            CHECK_EQ_U64(pr.bit[w], ((uint32_t)h * spec_salt[w]) >> 27);
        /* after the insert, exactly those bits are set in that block */
        uint32_t before[8];
        for (unsigned w = 0; w < 8; w++)
            before[w] = fk_blocked_cell(b, pr.block, w);
        CHECK_STATUS(fk_blocked_insert(b, key, len), FK_OK);
        for (unsigned w = 0; w < 8; w++)
            CHECK_EQ_U64(fk_blocked_cell(b, pr.block, w),
                         before[w] | (UINT32_C(1) << pr.bit[w]));
    }
    /* hand-computed: the top 5 bits of each salt are the bits of low32 = 1 */
    static const uint8_t top5[8] = { 8, 8, 17, 20, 14, 5, 19, 11 };
    for (unsigned w = 0; w < 8; w++)
        CHECK_EQ_U64(spec_salt[w] >> 27, top5[w]);
    CHECK_EQ_U64(fk_blocked_cell(b, blocks, 0), 0);
    CHECK_EQ_U64(fk_blocked_cell(b, 0, 8), 0);
    fk_blocked_free(b);
}

TEST(scalar_and_avx2_paths_set_and_test_the_same_bits)
{
    if (!has_avx2())
        return;
    const uint64_t n = FK_TEST_SCALE(200000, 50000);
    fk_blocked *s = make(n, 0.01, 5), *v = make(n, 0.01, 5);
    if (!s || !v)
        goto out;
    CHECK_STATUS(fk_blocked_set_path(s, FK_BLOCKED_PATH_SCALAR), FK_OK);
    CHECK_STATUS(fk_blocked_set_path(v, FK_BLOCKED_PATH_AVX2), FK_OK);
    CHECK(fk_blocked_get_path(s) == FK_BLOCKED_PATH_SCALAR);
    CHECK(fk_blocked_get_path(v) == FK_BLOCKED_PATH_AVX2);
    insert_range(s, 0, n);
    insert_range(v, 0, n);
    uint64_t differ = 0;
    for (uint64_t blk = 0; blk < blocked_desc(s).blocks; blk++)
        for (unsigned w = 0; w < 8; w++)
            differ += fk_blocked_cell(s, blk, w) != fk_blocked_cell(v, blk, w);
    CHECK_MSG(differ == 0, "%llu words differ between the paths", (unsigned long long)differ);
    /* each path answers the same on the other's bits, for every probe */
    uint64_t disagree = 0, positives = 0;
    for (uint64_t i = 0; i < 4 * n; i++) {
        uint64_t k = keys_negative(i);
        bool a = fk_blocked_contains(s, &k, sizeof k);
        fk_blocked_set_path(s, FK_BLOCKED_PATH_AVX2);
        bool b = fk_blocked_contains(s, &k, sizeof k);
        fk_blocked_set_path(s, FK_BLOCKED_PATH_SCALAR);
        disagree += a != b;
        positives += a;
    }
    CHECK_EQ_U64(disagree, 0);
    CHECK(positives > 0); /* the comparison saw both answers */
out:
    fk_blocked_free(s);
    fk_blocked_free(v);
}

/* 64-byte aligned blocks of 32 bytes: none straddles a cache line, and the
 * AVX2 path's aligned loads are legal. */
TEST(blocks_sit_inside_cache_lines)
{
    for (uint64_t n = 1; n < 5000; n = n * 3 + 1) {
        fk_blocked *b = make(n, 0.01, 0);
        if (!b)
            return;
        CHECK_EQ_U64((uintptr_t)b->words % 64, 0);
        CHECK_EQ_U64(sizeof b->words[0] * FK_BLOCKED_WORDS, FK_BLOCKED_BLOCK_BYTES);
        fk_blocked_free(b);
    }
}

TEST(path_switching_and_its_errors)
{
    fk_blocked *b = make(100, 0.01, 0);
    if (!b)
        return;
    CHECK(fk_blocked_get_path(b) ==
          (fk_blocked_avx2_available() ? FK_BLOCKED_PATH_AVX2 : FK_BLOCKED_PATH_SCALAR));
    CHECK_STATUS(fk_blocked_set_path(b, FK_BLOCKED_PATH_SCALAR), FK_OK);
    CHECK_STATUS(fk_blocked_set_path(b, (fk_blocked_path)7), FK_EINVAL);
    CHECK(fk_blocked_get_path(b) == FK_BLOCKED_PATH_SCALAR);
    CHECK_STATUS(fk_blocked_set_path(b, FK_BLOCKED_PATH_AVX2),
                 fk_blocked_avx2_available() ? FK_OK : FK_EUNSUPPORTED);
    CHECK_STATUS(fk_blocked_set_path(NULL, FK_BLOCKED_PATH_SCALAR), FK_EINVAL);
    CHECK(fk_blocked_get_path(NULL) == FK_BLOCKED_PATH_SCALAR);
    fk_blocked_free(b);
}

/* --------------------------------------------------------- no misses */

TEST(no_false_negatives_over_ten_million_keys_both_paths)
{
    const uint64_t n = FK_TEST_SCALE(10000000, 1000000);
    fk_blocked_path p[2];
    for (size_t j = 0, np = paths(p); j < np; j++) {
        fk_blocked *b = make(n, 0.01, 11 + j);
        if (!b)
            return;
        CHECK_STATUS(fk_blocked_set_path(b, p[j]), FK_OK);
        insert_range(b, 0, n);
        uint64_t missing = count_missing(b, 0, n);
        CHECK_MSG(missing == 0, "path %d: %llu false negatives of %llu", (int)p[j],
                  (unsigned long long)missing, (unsigned long long)n);
        fk_blocked_free(b);
    }
}

TEST(no_false_negatives_on_file_paths_both_paths)
{
    const uint64_t n = FK_TEST_SCALE(600000, 100000);
    fk_blocked_path p[2];
    char key[KEYS_MAX_LEN];
    for (size_t j = 0, np = paths(p); j < np; j++) {
        fk_blocked *b = make(n, 0.001, 3);
        if (!b)
            return;
        CHECK_STATUS(fk_blocked_set_path(b, p[j]), FK_OK);
        for (uint64_t i = 0; i < n; i++) {
            size_t len = keys_realistic(i, key);
            fk_blocked_insert(b, key, len);
        }
        uint64_t missing = 0;
        for (uint64_t i = 0; i < n; i++) {
            size_t len = keys_realistic(i, key);
            missing += !fk_blocked_contains(b, key, len);
        }
        CHECK_MSG(missing == 0, "path %d: %llu false negatives", (int)p[j],
                  (unsigned long long)missing);
        fk_blocked_free(b);
    }
}

/* ------------------------------------------------------- sizing, FPR */

TEST(bits_per_item_within_3_percent_of_the_parquet_table)
{
    /* Parquet spec, "bits per distinct value" for 1%, 0.1%, 0.01% */
    static const double fpr[] = { 0.01, 0.001, 0.0001 };
    static const double parquet[] = { 10.5, 16.9, 26.4 };
    for (int i = 0; i < 3; i++) {
        uint64_t n = 1000000;
        uint64_t blocks = fk_size_blocked_blocks(n, fpr[i]);
        double bits = 256.0 * (double)blocks / (double)n;
        CHECK_MSG(bits <= 1.03 * parquet[i] && bits >= 0.97 * parquet[i],
                  "fpr %g: %.3f bits/item vs Parquet's %.1f", fpr[i], bits, parquet[i]);
        /* the smallest count that meets the target */
        CHECK(fk_theory_blocked_fpr((double)n / (double)blocks) <= fpr[i]);
        CHECK(fk_theory_blocked_fpr((double)n / (double)(blocks - 1)) > fpr[i]);
    }
}

TEST(fpr_formula_edges_and_a_hand_value)
{
    CHECK(fk_theory_blocked_fpr(0.0) == 0.0);
    CHECK(fk_theory_blocked_fpr(-1.0) == 0.0);
    CHECK(fk_theory_blocked_fpr(NAN) == 0.0);
    CHECK(fk_theory_blocked_fpr(INFINITY) == 1.0);
    CHECK(fk_theory_blocked_fpr(1e9) == 1.0);
    /* one key per block on average, summed by hand to 10 terms:
     * sum_x e^-1/x! (1 - (31/32)^x)^8 */
    double want = 0.0, fact = 1.0;
    for (int x = 1; x < 30; x++) {
        fact *= x;
        want += exp(-1.0) / fact * pow(1.0 - pow(31.0 / 32.0, x), 8);
    }
    CHECK_MSG(fabs(fk_theory_blocked_fpr(1.0) - want) < 1e-12 * want, "%.17g vs %.17g",
              fk_theory_blocked_fpr(1.0), want);
    /* monotone in the load */
    for (double l = 0.5; l < 200; l *= 1.5)
        CHECK(fk_theory_blocked_fpr(l) < fk_theory_blocked_fpr(l * 1.5));
    CHECK_EQ_U64(fk_size_blocked_blocks(0, 0.01), 0);
    CHECK_EQ_U64(fk_size_blocked_blocks(10, 0.0), 0);
    CHECK_EQ_U64(fk_size_blocked_blocks(10, 1.0), 0);
    CHECK_EQ_U64(fk_size_blocked_blocks(10, NAN), 0);
    CHECK_EQ_U64(fk_size_blocked_blocks(UINT64_MAX, 0.01), 0); /* > 2^32 blocks */
    CHECK_EQ_U64(fk_size_blocked_blocks(1, 0.5), 1);
    /* a target below the floor is sized at the floor load */
    CHECK_EQ_U64(fk_size_blocked_blocks(1000, 1e-300), (uint64_t)(1000 / FK_BLOCKED_MIN_LOAD));
    uint64_t blocks = 99;
    fk_params p = fk_params_make(1000, 0.01);
    CHECK_STATUS(fk_blocked_geometry(&p, &blocks), FK_OK);
    CHECK_EQ_U64(blocks, fk_size_blocked_blocks(1000, 0.01));
    p.bits = 257;
    CHECK_STATUS(fk_blocked_geometry(&p, &blocks), FK_OK);
    CHECK_EQ_U64(blocks, 2);
    p.bits = UINT64_MAX; /* 2^56 blocks: past the 32-bit block index */
    CHECK_STATUS(fk_blocked_geometry(&p, &blocks), FK_EINVAL);
    CHECK_EQ_U64(blocks, 0);
    CHECK_STATUS(fk_blocked_geometry(NULL, &blocks), FK_EINVAL);
    CHECK_STATUS(fk_blocked_geometry(&p, NULL), FK_EINVAL);
    CHECK(isinf(fk_theory_blocked_items(1, 256)));
    CHECK(fk_theory_blocked_items(0, 5) == 0.0);
}

/* Filled to n, the measured FPR is within 1.1x the target and within a
 * statistical bound of the formula (same fixed seeds every run). */
static void check_fpr(double target)
{
    const uint64_t n = FK_TEST_SCALE(1000000, 200000);
    const uint64_t probes = FK_TEST_SCALE(4000000, 1000000);
    fk_blocked *b = make(n, target, 21);
    if (!b)
        return;
    insert_range(b, 0, n);
    uint64_t fp = 0;
    for (uint64_t i = 0; i < probes; i++) {
        uint64_t k = keys_negative(i);
        fp += fk_blocked_contains(b, &k, sizeof k);
    }
    double measured = (double)fp / (double)probes;
    fk_stats st;
    fk_blocked_stats(b, &st);
    double expect = st.expected_fpr * (double)probes;
    /* binomial sampling (5 sigma) plus the filter's own spread around the
     * formula, which at these sizes is below 3% of it */
    double bound = 5.0 * sqrt(expect) + 0.03 * expect;
    CHECK_MSG(measured <= 1.1 * target, "target %g: measured %.5g", target, measured);
    CHECK_MSG(fabs((double)fp - expect) <= bound, "target %g: %llu false positives, formula %.0f +- %.0f",
              target, (unsigned long long)fp, expect, bound);
    CHECK(st.expected_fpr <= target && st.expected_fpr > 0.8 * target);
    fk_blocked_free(b);
}

TEST(fpr_at_1_percent_within_1_1x_and_the_formula) { check_fpr(0.01); }
TEST(fpr_at_0_1_percent_within_1_1x_and_the_formula) { check_fpr(0.001); }

TEST(stats_and_the_bits_knob)
{
    fk_params p = fk_params_make(1000, 0.01);
    p.bits = 1000; /* rounds up to 4 blocks of 256 */
    p.hashes = 3;  /* ignored: a key sets 8 bits */
    fk_blocked *b = NULL;
    CHECK_STATUS(fk_blocked_new(&p, &b), FK_OK);
    if (!b)
        return;
    CHECK_EQ_U64(blocked_desc(b).blocks, 4);
    fk_stats st;
    fk_blocked_stats(b, &st);
    CHECK_EQ_U64(st.items, 0);
    CHECK(st.load_factor == 0.0 && st.expected_fpr == 0.0);
    CHECK(st.memory_bytes >= 4 * 32);
    CHECK_STATUS(fk_blocked_insert(b, "x", 1), FK_OK);
    CHECK_STATUS(fk_blocked_insert(b, "x", 1), FK_OK);
    fk_blocked_stats(b, &st);
    CHECK_EQ_U64(st.items, 2);
    CHECK_EQ_U64(fk_blocked_count_set_bits(b), 8);
    CHECK(fabs(st.load_factor - 8.0 / 1024.0) < 1e-12);
    CHECK(fabs(st.expected_fpr - fk_theory_blocked_fpr(0.5)) < 1e-15);
    CHECK(!fk_blocked_contains(b, "y", 1));
    CHECK_EQ_U64(blocked_desc(b).set_bits, 8);
    CHECK_EQ_U64(blocked_desc(b).blocks, 4);
    fk_blocked_free(b);
}

TEST(item_estimate_tracks_distinct_keys)
{
    const uint64_t n = 100000;
    fk_blocked *b = make(n, 0.01, 1);
    if (!b)
        return;
    insert_range(b, 0, n);
    insert_range(b, 0, n); /* duplicates do not move it */
    double est = blocked_desc(b).estimated_items;
    CHECK_MSG(fabs(est - (double)n) < 0.03 * (double)n, "estimate %.0f for %llu", est,
              (unsigned long long)n);
    fk_blocked_free(b);
}

/* ------------------------------------------------------ set operations */

TEST(union_and_intersection_of_compatible_filters)
{
    const uint64_t n = 20000;
    fk_blocked *a = make(2 * n, 0.01, 9), *b = make(2 * n, 0.01, 9);
    fk_blocked *other_seed = make(2 * n, 0.01, 10), *other_size = make(4 * n, 0.01, 9);
    if (!a || !b || !other_seed || !other_size)
        goto out;
    /* a holds [0, 2n), b holds [n, 3n): the intersection is [n, 2n) */
    insert_range(a, 0, 2 * n);
    insert_range(b, n, 3 * n);
    uint64_t bits_a = fk_blocked_count_set_bits(a);
    CHECK_STATUS(fk_filter_merge(fk_blocked_as_filter(a), fk_blocked_as_filter(other_seed)), FK_EINVAL);
    CHECK_STATUS(fk_filter_merge(fk_blocked_as_filter(a), fk_blocked_as_filter(other_size)), FK_EINVAL);
    CHECK_STATUS(fk_filter_intersect(fk_blocked_as_filter(a), fk_blocked_as_filter(other_seed)), FK_EINVAL);
    CHECK_STATUS(fk_filter_merge(NULL, fk_blocked_as_filter(b)), FK_EINVAL);
    CHECK_STATUS(fk_filter_intersect(fk_blocked_as_filter(a), NULL), FK_EINVAL);
    CHECK_EQ_U64(fk_blocked_count_set_bits(a), bits_a); /* unchanged */
    CHECK_STATUS(fk_filter_merge(fk_blocked_as_filter(a), fk_blocked_as_filter(a)), FK_EINVAL);
    CHECK_STATUS(fk_filter_intersect(fk_blocked_as_filter(a), fk_blocked_as_filter(a)), FK_EINVAL);
    CHECK_EQ_U64(fk_blocked_count_set_bits(a), bits_a);

    fk_blocked *u = make(2 * n, 0.01, 9), *x = make(2 * n, 0.01, 9);
    if (!u || !x) {
        fk_blocked_free(u);
        fk_blocked_free(x);
        goto out;
    }
    CHECK_STATUS(fk_filter_merge(fk_blocked_as_filter(u), fk_blocked_as_filter(a)), FK_OK);
    CHECK_STATUS(fk_filter_merge(fk_blocked_as_filter(u), fk_blocked_as_filter(b)), FK_OK);
    CHECK_STATUS(fk_filter_merge(fk_blocked_as_filter(x), fk_blocked_as_filter(a)), FK_OK);
    CHECK_STATUS(fk_filter_intersect(fk_blocked_as_filter(x), fk_blocked_as_filter(b)), FK_OK);
    CHECK_EQ_U64(count_missing(u, 0, 3 * n), 0);
    CHECK_EQ_U64(count_missing(x, n, 2 * n), 0);
    uint64_t x_outside = 2 * n - count_missing(x, 0, n) - count_missing(x, 2 * n, 3 * n);
    CHECK_MSG(x_outside < n / 2, "intersection still answers %llu of %llu keys outside it",
              (unsigned long long)x_outside, (unsigned long long)(2 * n));
    fk_stats su, sx;
    fk_blocked_stats(u, &su);
    fk_blocked_stats(x, &sx);
    CHECK_EQ_U64(su.items, 4 * n);
    CHECK_MSG(sx.items > n / 2 && sx.items < 2 * n, "intersection items %llu",
              (unsigned long long)sx.items);
    fk_blocked_free(u);
    fk_blocked_free(x);
out:
    fk_blocked_free(a);
    fk_blocked_free(b);
    fk_blocked_free(other_seed);
    fk_blocked_free(other_size);
}

/* ------------------------------------------------------ bad arguments */

TEST(direct_api_bad_arguments)
{
    fk_params p = fk_params_make(100, 0.01);
    fk_blocked *b = (fk_blocked *)&p;
    CHECK_STATUS(fk_blocked_new(NULL, &b), FK_EINVAL);
    CHECK(b == NULL);
    CHECK_STATUS(fk_blocked_new(&p, NULL), FK_EINVAL);
    p.fpr = 1.5;
    b = (fk_blocked *)&p;
    CHECK_STATUS(fk_blocked_new(&p, &b), FK_EINVAL);
    CHECK(b == NULL);
    p = fk_params_make(100, 0.01);
    p.bits = (UINT64_C(1) << 40) * 256; /* 2^40 blocks: past the index and the cap */
    CHECK_STATUS(fk_blocked_new(&p, &b), FK_EINVAL);
    p.bits = 0;
    CHECK_STATUS(fk_blocked_new(&p, &b), FK_OK);
    if (!b)
        return;
    fk_blocked_probe pr;
    CHECK_STATUS(fk_blocked_insert(NULL, "k", 1), FK_EINVAL);
    CHECK_STATUS(fk_blocked_insert(b, NULL, 1), FK_EINVAL);
    CHECK(!fk_blocked_contains(NULL, "k", 1));
    CHECK(!fk_blocked_contains(b, NULL, 1));
    CHECK_STATUS(fk_blocked_locate(NULL, "k", 1, &pr), FK_EINVAL);
    CHECK_STATUS(fk_blocked_locate(b, "k", 1, NULL), FK_EINVAL);
    CHECK_STATUS(fk_blocked_locate(b, NULL, 1, &pr), FK_EINVAL);
    CHECK_STATUS(fk_blocked_locate(b, NULL, 0, &pr), FK_OK);
    CHECK_STATUS(fk_blocked_insert(b, NULL, 0), FK_OK);
    CHECK(fk_blocked_contains(b, NULL, 0));
    fk_stats st;
    memset(&st, 0x5a, sizeof st);
    fk_blocked_stats(NULL, &st);
    fk_blocked_stats(b, NULL);
    fk_blocked_describe(NULL, NULL);
    fk_blocked_free(NULL);
    CHECK(NULL == NULL);
    CHECK(fk_blocked_as_filter(b) != NULL);
    CHECK(fk_filter_ops(fk_blocked_as_filter(b)) == &fk_blocked_ops);
    CHECK_EQ_U64(blocked_desc(NULL).blocks, 0);
    CHECK_EQ_U64(blocked_desc(NULL).seed, 0);
    CHECK_EQ_U64(fk_blocked_count_set_bits(NULL), 0);
    CHECK(blocked_desc(NULL).estimated_items == 0.0);
    CHECK_EQ_U64(fk_blocked_cell(NULL, 0, 0), 0);
    CHECK_STATUS(fk_filter_remove(fk_blocked_as_filter(b), "k", 1), FK_EUNSUPPORTED);
    fk_blocked_free(b);
}

/* ------------------------------------------------------- serialization */

TEST(save_and_load_through_the_direct_api)
{
    fk_blocked *b = make(3000, 0.001, 0xABCDEF);
    if (!b)
        return;
    insert_range(b, 0, 3000);
    uint64_t size = 0;
    CHECK_STATUS(fk_filter_serialized_size(fk_blocked_as_filter(b), &size), FK_OK);
    CHECK_EQ_U64(size, 128 + 32 * blocked_desc(b).blocks);
    uint8_t *buf = malloc((size_t)size);
    fk_blocked *c = NULL;
    size_t written = 0;
    if (!buf)
        goto out;
    CHECK_STATUS(fk_blocked_save(b, buf, (size_t)size - 1, &written), FK_EINVAL);
    CHECK_STATUS(fk_blocked_save(b, buf, (size_t)size, &written), FK_OK);
    CHECK_EQ_U64(written, size);
    CHECK_STATUS(fk_blocked_load(buf, (size_t)size, &c), FK_OK);
    if (c) {
        CHECK_EQ_U64(blocked_desc(c).blocks, blocked_desc(b).blocks);
        CHECK_EQ_U64(blocked_desc(c).seed, 0xABCDEF);
        uint64_t differ = 0;
        for (uint64_t i = 0; i < 100000; i++) {
            uint64_t k = keys_negative(i);
            differ += fk_blocked_contains(b, &k, sizeof k) != fk_blocked_contains(c, &k, sizeof k);
        }
        CHECK_EQ_U64(differ, 0);
        fk_stats sb, sc;
        fk_blocked_stats(b, &sb);
        fk_blocked_stats(c, &sc);
        CHECK(memcmp(&sb, &sc, sizeof sb) == 0);
    }
    /* the header's block count and block size are checked */
    buf[48] ^= 1; /* param[0], blocks: the checksum catches it first */
    fk_blocked *d = (fk_blocked *)buf;
    CHECK_STATUS(fk_blocked_load(buf, (size_t)size, &d), FK_ECORRUPT);
    CHECK(d == NULL);
    CHECK_STATUS(fk_blocked_load(NULL, 1, &d), FK_EINVAL);
    CHECK_STATUS(fk_filter_serialized_size(NULL, &size), FK_EINVAL);
out:
    free(buf);
    fk_blocked_free(b);
    fk_blocked_free(c);
}

/* ------------------------------------------- the callgrind driver */

volatile uint64_t sink;

__attribute__((noinline)) uint64_t lookup_loop(bool (*has)(const fk_filter *, const void *, size_t),
                                               const fk_filter *f, const uint64_t *keys, size_t n);
__attribute__((noinline)) uint64_t lookup_loop(bool (*has)(const fk_filter *, const void *, size_t),
                                               const fk_filter *f, const uint64_t *keys, size_t n)
{
    uint64_t hits = 0;
    for (size_t i = 0; i < n; i++)
        hits += has(f, keys + i, sizeof keys[i]);
    return hits;
}

/* Builds a filter of `kind` (a registry name) for n keys at 1%, then
 * times nothing: callgrind counts lookup_loop. */
static int lookup_driver(const char *kind, uint64_t n, bool present, bool scalar)
{
    const fk_ops *ops = fk_ops_find(kind);
    fk_params p = fk_params_make(n ? n : 1, 0.01);
    fk_filter *f = NULL;
    uint64_t *keys = malloc((n ? n : 1) * sizeof *keys);
    if (!ops || !keys || fk_filter_new(ops, &p, &f) != FK_OK) {
        fprintf(stderr, "lookup driver: cannot build a '%s' filter of %llu keys\n", kind,
                (unsigned long long)n);
        free(keys);
        return 1;
    }
    if (scalar && ops == &fk_blocked_ops)
        fk_blocked_set_path((fk_blocked *)f, FK_BLOCKED_PATH_SCALAR);
    for (uint64_t i = 0; i < n; i++) {
        keys[i] = present ? keys_positive(i) : keys_negative(i);
        uint64_t k = keys_positive(i);
        fk_filter_insert(f, &k, sizeof k);
    }
    sink = lookup_loop(ops->contains, f, keys, (size_t)n);
    printf("%s: %llu lookups of %s keys, %llu answered maybe%s\n", kind, (unsigned long long)n,
           present ? "present" : "absent", (unsigned long long)sink,
           ops != &fk_blocked_ops ? ""
           : fk_blocked_get_path((const fk_blocked *)f) == FK_BLOCKED_PATH_AVX2 ? " (avx2 path)"
                                                                               : " (scalar path)");
    free(keys);
    fk_filter_free(f);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 3 && strcmp(argv[1], "--lookup-loop") == 0)
        return lookup_driver(argc >= 5 ? argv[4] : "blocked", strtoull(argv[2], NULL, 10),
                             argc < 4 || strcmp(argv[3], "absent") != 0,
                             argc >= 6 && strcmp(argv[5], "scalar") == 0);
    RUN(key_mapping_follows_the_parquet_spec);
    RUN(scalar_and_avx2_paths_set_and_test_the_same_bits);
    RUN(blocks_sit_inside_cache_lines);
    RUN(path_switching_and_its_errors);
    RUN(no_false_negatives_over_ten_million_keys_both_paths);
    RUN(no_false_negatives_on_file_paths_both_paths);
    RUN(bits_per_item_within_3_percent_of_the_parquet_table);
    RUN(fpr_formula_edges_and_a_hand_value);
    RUN(fpr_at_1_percent_within_1_1x_and_the_formula);
    RUN(fpr_at_0_1_percent_within_1_1x_and_the_formula);
    RUN(stats_and_the_bits_knob);
    RUN(item_estimate_tracks_distinct_keys);
    RUN(union_and_intersection_of_compatible_filters);
    RUN(direct_api_bad_arguments);
    RUN(save_and_load_through_the_direct_api);
    return check_report();
}
