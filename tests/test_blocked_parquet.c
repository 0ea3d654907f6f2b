/* tests/test_blocked_parquet.c: the blocked kind with Parquet's hashing
 * scheme (blocked.h, "Parquet's split-block filter"): Arrow's reference
 * bitsets byte for byte on every path, Parquet's sizing rule, the bitset
 * in and out, the generic calls, save/load and the other kinds refusing
 * the scheme, no false negatives and the FPR against the k = 8 formula. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#define XXH_INLINE_ALL
#include <xxhash.h>
#include "check.h"
#include "keys.h"
#include "../blocked/blocked.h"
#include "../blocked/blocked_internal.h" /* the code paths, to run each */
#include "../common/endian.h"
#include "../registry/registry.h"

/* ------------------------------------------------ Arrow's reference bitsets
 *
 * The bitsets Apache Arrow's parquet-cpp writes for the keys 1..n of a
 * type, as 32-bit words in file order: the test vectors of NVIDIA
 * cuCollections, tests/bloom_filter/arrow_compat_test.cu ("byte-identical
 * bitsets to a precomputed Arrow reference"): int32 keys 1..100 into 2
 * blocks, int64 keys 1..50 into 4 blocks, float keys 1..200 into 8
 * blocks, each key hashed as XXH64 (seed 0) of its PLAIN encoding. */
static const uint32_t arrow_int32_2_blocks[16] = {
    3017764846u, 4219371383u, 4160077310u, 3214786543u, 4020088765u, 4294437885u,
    2013200345u, 2550116063u, 855631359u,  4290436829u, 2884632042u, 1592483646u,
    4281695998u, 2080111551u, 3220060030u, 4021279731u,
};
static const uint32_t arrow_int64_4_blocks[32] = {
    860053560u,  186397876u,  1518788617u, 2013987426u, 545522943u,  79856155u,
    103371656u,  20265733u,   2168586373u, 1210138712u, 2437452036u, 1342183988u,
    1107366672u, 3560981000u, 2184221186u, 1661010032u, 2317009736u, 1442875878u,
    1116227467u, 3458613792u, 114398528u,  679658134u,  206734656u,  340863450u,
    2220104352u, 141846788u,  948331524u,  2344943952u, 4030989912u, 3239203139u,
    2941256193u, 4035057968u,
};
static const uint32_t arrow_float_8_blocks[64] = {
    3807057303u, 3207519405u, 2508188120u, 1491024175u, 2073585514u, 2094743110u,
    2533287591u, 691662424u,  1498889215u, 2069126314u, 2270481639u, 796401059u,
    1961968732u, 3512881027u, 3162306144u, 2277085974u, 3477648628u, 1090385857u,
    4035761415u, 1165385841u, 4047856262u, 2297893848u, 902599838u,  418175153u,
    1437192944u, 3673877288u, 1536198910u, 98677451u,   3620189521u, 3794688342u,
    3625373537u, 3550967313u, 2119503598u, 1805574667u, 4076413870u, 2999897588u,
    3050286944u, 4146882307u, 3459690182u, 167235913u,  2078961096u, 1863964920u,
    1408130860u, 4190644775u, 532451008u,  1563872186u, 2529714129u, 465761275u,
    3161649891u, 4204002248u, 3931628891u, 3251515903u, 1421507581u, 3849056446u,
    1748476671u, 4223388125u, 1627644727u, 2717076288u, 2992639576u, 3864567831u,
    190096788u,  1885360347u, 724608293u,  2768994330u,
};

enum value_type { INT32, INT64, FLOAT };

/* Key i (1-based) of a reference case, PLAIN encoded into out; its length. */
static size_t plain_key(enum value_type t, uint64_t i, uint8_t out[8])
{
    switch (t) {
    case INT32:
        fk_le_put32(out, (uint32_t)(int32_t)i);
        return 4;
    case INT64:
        fk_le_put64(out, (uint64_t)(int64_t)i);
        return 8;
    case FLOAT: {
        float v = (float)i;
        uint32_t bits;
        memcpy(&bits, &v, sizeof bits);
        fk_le_put32(out, bits);
        return 4;
    }
    }
    return 0;
}

/* True when f's bitset, read through fk_blocked_sbbf, is the words ref[n]. */
static bool bitset_is(const fk_filter *f, const uint32_t *ref, size_t n)
{
    const void *bits = NULL;
    size_t bytes = 0;
    if (fk_blocked_sbbf(f, &bits, &bytes) != FK_OK || bytes != 4 * n)
        return false;
    for (size_t i = 0; i < n; i++)
        if (fk_le_get32((const uint8_t *)bits + 4 * i) != ref[i])
            return false;
    return true;
}

/* How a reference case's keys go in. */
enum insert_way { ONE_BY_ONE, BATCH, CONCURRENT, U64 };

static fk_filter *reference_filter(enum value_type t, uint64_t keys, size_t words,
                                   fk_blocked_path path, enum insert_way way)
{
    fk_filter *f = NULL;
    CHECK_STATUS(fk_blocked_new_parquet(4 * words, &f), FK_OK);
    if (!f)
        return NULL;
    CHECK_STATUS(fk_blocked_set_path((fk_blocked *)(void *)f, path), FK_OK);
    uint8_t enc[256][8];
    const void *ptr[256];
    size_t len[256];
    uint64_t ints[256];
    for (uint64_t i = 1; i <= keys; i++) {
        len[i - 1] = plain_key(t, i, enc[i - 1]);
        ptr[i - 1] = enc[i - 1];
        ints[i - 1] = i;
    }
    size_t done = 0;
    switch (way) {
    case ONE_BY_ONE:
        for (uint64_t i = 0; i < keys; i++)
            CHECK_STATUS(fk_filter_insert(f, ptr[i], len[i]), FK_OK);
        break;
    case BATCH:
        CHECK_STATUS(fk_filter_insert_many(f, (size_t)keys, ptr, len, &done), FK_OK);
        CHECK_EQ_U64(done, keys);
        break;
    case CONCURRENT:
        for (uint64_t i = 0; i < keys; i++)
            CHECK_STATUS(fk_filter_insert_concurrent(f, ptr[i], len[i]), FK_OK);
        break;
    case U64: /* INT64 only: the value itself */
        CHECK_STATUS(fk_filter_insert_many_u64(f, (size_t)keys, ints, &done), FK_OK);
        break;
    }
    return f;
}

TEST(arrow_reference_bitsets_byte_for_byte_on_every_path)
{
    static const struct {
        enum value_type t;
        uint64_t keys;
        const uint32_t *ref;
        size_t words;
    } cases[] = {
        { INT32, 100, arrow_int32_2_blocks, 16 },
        { INT64, 50, arrow_int64_4_blocks, 32 },
        { FLOAT, 200, arrow_float_8_blocks, 64 },
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++)
        for (int p = 0; p < 2; p++) {
            fk_blocked_path path = p ? FK_BLOCKED_PATH_AVX2 : FK_BLOCKED_PATH_SCALAR;
            if (path == FK_BLOCKED_PATH_AVX2 && !fk_blocked_avx2_available())
                continue;
            for (int w = ONE_BY_ONE; w <= U64; w++) {
                if (w == U64 && cases[c].t != INT64)
                    continue;
                fk_filter *f = reference_filter(cases[c].t, cases[c].keys, cases[c].words, path,
                                                (enum insert_way)w);
                CHECK_MSG(f && bitset_is(f, cases[c].ref, cases[c].words),
                          "case %zu path %d way %d: not Arrow's bitset", c, p, w);
                /* every key answers present, singly, batched and as u64 */
                uint8_t enc[8];
                for (uint64_t i = 1; f && i <= cases[c].keys; i++) {
                    size_t n = plain_key(cases[c].t, i, enc);
                    CHECK(fk_filter_contains(f, enc, n));
                    if (cases[c].t == INT64)
                        CHECK(fk_filter_contains_u64(f, i));
                }
                fk_filter_free(f);
            }
        }
}

/* The hash is XXH64 with seed 0, whatever the length (the 8-byte lane
 * included), and the block and bits follow the specification. */
TEST(key_mapping_is_xxh64_seed_0_and_the_specification)
{
    fk_filter *f = NULL;
    CHECK_STATUS(fk_blocked_new_parquet(1024, &f), FK_OK);
    const fk_blocked *b = (const fk_blocked *)(void *)f;
    static const uint32_t salt[8] = { 0x47b6137bu, 0x44974d91u, 0x8824ad5bu, 0xa2b7289du,
                                      0x705495c7u, 0x2df1424bu, 0x9efc4947u, 0x5c6bfb31u };
    char key[40];
    for (size_t len = 0; len <= sizeof key; len++) {
        for (size_t i = 0; i < len; i++)
            key[i] = (char)(len * 31 + i);
        fk_blocked_probe pr;
        CHECK_STATUS(fk_blocked_locate(b, len ? key : NULL, len, &pr), FK_OK);
        uint64_t h = XXH64(key, len, 0);
        CHECK(pr.hash == h);
        CHECK(pr.block == (((h >> 32) * 32) >> 32));
        for (unsigned i = 0; i < 8; i++)
            CHECK(pr.bit[i] == (((uint32_t)h * salt[i]) >> 27));
    }
    fk_filter_free(f);
}

/* ------------------------------------------------------------- sizing */

/* Parquet's rule written out again: bits = -8 ndv / ln(1 - fpp^(1/8)),
 * whole bits, at least 256, the next power of two, at most 2^30. */
static uint64_t rule_bytes(uint64_t ndv, double fpp)
{
    double m = -8.0 * (double)ndv / log(1.0 - pow(fpp, 1.0 / 8.0));
    uint64_t bits = m > 1073741824.0 ? 1073741824u : (uint64_t)m;
    if (bits < 256)
        bits = 256;
    uint64_t p = 1;
    while (p < bits)
        p <<= 1;
    if (p > 1073741824u)
        p = 1073741824u;
    return p / 8;
}

TEST(parquet_sizing_rule)
{
    /* hand values: 1000 values at 1% ask 9681 bits (9.68 a value) -> 16384
     * bits = 2 KiB; 1M at 1% -> 9.68M bits -> 2^24 bits = 2 MiB */
    CHECK_EQ_U64(fk_blocked_parquet_bytes(1000, 0.01), 2048);
    CHECK_EQ_U64(fk_blocked_parquet_bytes(1000000, 0.01), 2097152);
    CHECK_EQ_U64(fk_blocked_parquet_bytes(0, 0.01), 32);
    CHECK_EQ_U64(fk_blocked_parquet_bytes(1, 0.5), 32);
    CHECK_EQ_U64(fk_blocked_parquet_bytes(UINT64_C(1) << 40, 0.01), FK_BLOCKED_PARQUET_MAX_BYTES);
    CHECK_EQ_U64(fk_blocked_parquet_bytes(10, 1e-300), FK_BLOCKED_PARQUET_MAX_BYTES);
    CHECK_EQ_U64(fk_blocked_parquet_bytes(1000, 0.0), 0);
    CHECK_EQ_U64(fk_blocked_parquet_bytes(1000, 1.0), 0);
    CHECK_EQ_U64(fk_blocked_parquet_bytes(1000, NAN), 0);
    CHECK_EQ_U64(fk_blocked_parquet_bytes(1000, -0.5), 0);
    static const double fpps[] = { 0.5, 0.1, 0.05, 0.01, 0.001, 1e-4, 1e-6 };
    for (size_t j = 0; j < sizeof fpps / sizeof *fpps; j++)
        for (uint64_t ndv = 1; ndv < (UINT64_C(1) << 28); ndv = ndv * 3 + 1) {
            uint64_t got = fk_blocked_parquet_bytes(ndv, fpps[j]);
            CHECK_MSG(got == rule_bytes(ndv, fpps[j]), "ndv %llu fpp %g: %llu",
                      (unsigned long long)ndv, fpps[j], (unsigned long long)got);
            CHECK((got & (got - 1)) == 0 && got >= 32 && got <= FK_BLOCKED_PARQUET_MAX_BYTES);
        }
}

/* ------------------------------------------------ the bitset in and out */

TEST(bad_sizes_are_refused)
{
    static const uint64_t bad[] = { 0, 1, 16, 31, 33, 48, 96, 1000, 4096 + 32,
                                    FK_BLOCKED_PARQUET_MAX_BYTES * 2, UINT64_MAX };
    uint8_t zero[64] = { 0 };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        fk_filter *f = (fk_filter *)(void *)zero;
        CHECK_STATUS(fk_blocked_new_parquet(bad[i], &f), FK_EINVAL);
        CHECK(f == NULL);
        f = (fk_filter *)(void *)zero;
        if (bad[i] <= sizeof zero || bad[i] > FK_BLOCKED_PARQUET_MAX_BYTES) {
            CHECK_STATUS(fk_blocked_from_sbbf(zero, (size_t)bad[i], &f), FK_EINVAL);
            CHECK(f == NULL);
        }
    }
    CHECK_STATUS(fk_blocked_new_parquet(32, NULL), FK_EINVAL);
    fk_filter *f = NULL;
    CHECK_STATUS(fk_blocked_from_sbbf(NULL, 32, &f), FK_EINVAL);
    CHECK_STATUS(fk_blocked_from_sbbf(zero, 32, NULL), FK_EINVAL);
    /* the smallest and the largest sizes are taken */
    CHECK_STATUS(fk_blocked_new_parquet(32, &f), FK_OK);
    fk_filter_free(f);
    CHECK_STATUS(fk_blocked_new_parquet(FK_BLOCKED_PARQUET_MAX_BYTES, &f), FK_OK);
    fk_filter_free(f);
}

TEST(sbbf_refuses_what_is_not_a_parquet_filter)
{
    const void *bits = (const void *)1;
    size_t n = 7;
    fk_params p = fk_params_make(1000, 0.01);
    fk_filter *xxh3 = NULL, *bloom = NULL;
    CHECK_STATUS(fk_filter_new(&fk_blocked_ops, &p, &xxh3), FK_OK);
    CHECK_STATUS(fk_filter_new(fk_ops_find("bloom"), &p, &bloom), FK_OK);
    CHECK_STATUS(fk_blocked_sbbf(xxh3, &bits, &n), FK_EINVAL);
    CHECK(bits == NULL && n == 0);
    CHECK_STATUS(fk_blocked_sbbf(bloom, &bits, &n), FK_EINVAL);
    CHECK_STATUS(fk_blocked_sbbf(NULL, &bits, &n), FK_EINVAL);
    fk_filter *f = NULL;
    CHECK_STATUS(fk_blocked_new_parquet(64, &f), FK_OK);
    CHECK_STATUS(fk_blocked_sbbf(f, NULL, &n), FK_EINVAL);
    CHECK_STATUS(fk_blocked_sbbf(f, &bits, NULL), FK_EINVAL);
    CHECK_STATUS(fk_blocked_sbbf(f, &bits, &n), FK_OK);
    CHECK(bits != NULL && n == 64);
    /* the two schemes do not mix */
    fk_filter *g = NULL;
    fk_params q = p;
    q.bits = 512;
    CHECK_STATUS(fk_filter_new(&fk_blocked_ops, &q, &g), FK_OK);
    CHECK_STATUS(fk_filter_merge(f, g), FK_EINVAL);
    CHECK_STATUS(fk_filter_merge(g, f), FK_EINVAL);
    fk_filter_free(g);
    fk_filter_free(f);
    fk_filter_free(xxh3);
    fk_filter_free(bloom);
}

TEST(from_sbbf_of_sbbf_is_the_same_filter)
{
    fk_filter *f = reference_filter(INT64, 50, 32, FK_BLOCKED_PATH_SCALAR, ONE_BY_ONE);
    const void *bits = NULL;
    size_t n = 0;
    CHECK_STATUS(fk_blocked_sbbf(f, &bits, &n), FK_OK);
    /* from unaligned bytes too */
    uint8_t *copy = malloc(n + 1);
    memcpy(copy + 1, bits, n);
    fk_filter *g = NULL;
    CHECK_STATUS(fk_blocked_from_sbbf(copy + 1, n, &g), FK_OK);
    CHECK(g && bitset_is(g, arrow_int64_4_blocks, 32));
    for (uint64_t i = 1; g && i <= 50; i++)
        CHECK(fk_filter_contains_u64(g, i));
    /* the estimate of its keys stands in for the count */
    fk_stats st;
    fk_filter_stats(g, &st);
    CHECK_MSG(st.items >= 35 && st.items <= 65, "items %llu", (unsigned long long)st.items);
    CHECK(st.expected_fpr > 0.0 && st.expected_fpr < 1.0);
    fk_filter_free(g);
    free(copy);
    fk_filter_free(f);
}

/* ------------------------------------------------------- the file */

/* f saved and loaded back: the same bytes again, the same bitset. */
TEST(save_and_load_keep_the_scheme_and_the_bytes)
{
    fk_filter *f = reference_filter(FLOAT, 200, 64, FK_BLOCKED_PATH_SCALAR, BATCH);
    uint64_t size = 0;
    CHECK_STATUS(fk_filter_serialized_size(f, &size), FK_OK);
    CHECK_EQ_U64(size, 128 + 256);
    uint8_t *buf = malloc((size_t)size), *again = malloc((size_t)size);
    size_t w = 0;
    CHECK_STATUS(fk_filter_save(f, buf, (size_t)size, &w), FK_OK);
    CHECK_EQ_U64(fk_le_get16(buf + 14), FK_HASH_SCHEME_PARQUET_XXH64);
    /* the payload is the bitset itself */
    const void *bits = NULL;
    size_t n = 0;
    CHECK_STATUS(fk_blocked_sbbf(f, &bits, &n), FK_OK);
    CHECK(n == 256 && memcmp(buf + 120, bits, n) == 0);
    fk_filter *g = NULL;
    CHECK_STATUS(fk_filter_load_any(buf, (size_t)size, &g), FK_OK);
    CHECK(g && fk_filter_ops(g) == &fk_blocked_ops && bitset_is(g, arrow_float_8_blocks, 64));
    CHECK_STATUS(fk_filter_save(g, again, (size_t)size, &w), FK_OK);
    CHECK(memcmp(buf, again, (size_t)size) == 0);
    uint8_t enc[8];
    for (uint64_t i = 1; g && i <= 200; i++)
        CHECK(fk_filter_contains(g, enc, plain_key(FLOAT, i, enc)));
    /* same scheme and size: they merge */
    CHECK_STATUS(fk_filter_merge(g, f), FK_OK);
    CHECK(bitset_is(g, arrow_float_8_blocks, 64));
    fk_filter_free(g);
    free(buf);
    free(again);
    fk_filter_free(f);
}

/* Patches a saved record: the 16-bit field at off, then the checksum. */
static void patch16(uint8_t *buf, size_t len, size_t off, uint16_t v)
{
    fk_le_put16(buf + off, v);
    fk_le_put64(buf + len - 8, XXH64(buf, len - 8, 0));
}

static void patch64(uint8_t *buf, size_t len, size_t off, uint64_t v)
{
    fk_le_put64(buf + off, v);
    fk_le_put64(buf + len - 8, XXH64(buf, len - 8, 0));
}

TEST(only_the_blocked_kind_loads_the_parquet_scheme)
{
    for (size_t i = 0; fk_ops_at(i); i++) {
        const fk_ops *ops = fk_ops_at(i);
        if (!ops->serial || !ops->create)
            continue;
        fk_params p = fk_params_make(100, 0.01);
        fk_filter *f = NULL;
        if (fk_filter_new(ops, &p, &f) != FK_OK)
            continue; /* a static kind: nothing to save without keys */
        uint64_t size = 0;
        CHECK_STATUS(fk_filter_serialized_size(f, &size), FK_OK);
        uint8_t *buf = malloc((size_t)size);
        CHECK_STATUS(fk_filter_save(f, buf, (size_t)size, NULL), FK_OK);
        CHECK_EQ_U64(fk_le_get16(buf + 14), FK_HASH_SCHEME_XXH3_128);
        patch16(buf, (size_t)size, 14, FK_HASH_SCHEME_PARQUET_XXH64);
        fk_filter *g = NULL;
        fk_status s = fk_filter_load_any(buf, (size_t)size, &g);
        if (ops == &fk_blocked_ops) {
            /* a blocked filter takes it where its seed and size are Parquet's */
            bool parquet_shape = p.seed == 0 &&
                                 fk_blocked_parquet_blocks_ok(((fk_blocked *)(void *)f)->blocks);
            CHECK_STATUS(s, parquet_shape ? FK_OK : FK_ECORRUPT);
        } else {
            CHECK_MSG(s == FK_ECORRUPT, "%s loaded the Parquet scheme: %d", ops->name, (int)s);
            CHECK_STATUS(fk_filter_load(ops, buf, (size_t)size, &g), FK_ECORRUPT);
        }
        CHECK(s == FK_OK || g == NULL);
        fk_filter_free(g);
        free(buf);
        fk_filter_free(f);
    }
}

TEST(a_parquet_record_with_a_seed_or_an_odd_size_is_corrupt)
{
    fk_filter *f = NULL;
    CHECK_STATUS(fk_blocked_new_parquet(128, &f), FK_OK);
    uint64_t size = 0;
    CHECK_STATUS(fk_filter_serialized_size(f, &size), FK_OK);
    uint8_t *buf = malloc((size_t)size), *bad = malloc((size_t)size);
    CHECK_STATUS(fk_filter_save(f, buf, (size_t)size, NULL), FK_OK);
    fk_filter *g = NULL;
    /* a seed */
    memcpy(bad, buf, (size_t)size);
    patch64(bad, (size_t)size, 16, 1);
    CHECK_STATUS(fk_filter_load_any(bad, (size_t)size, &g), FK_ECORRUPT);
    /* an unknown scheme, and scheme 0 */
    memcpy(bad, buf, (size_t)size);
    patch16(bad, (size_t)size, 14, 3);
    CHECK_STATUS(fk_filter_load_any(bad, (size_t)size, &g), FK_ECORRUPT);
    patch16(bad, (size_t)size, 14, 0);
    CHECK_STATUS(fk_filter_load_any(bad, (size_t)size, &g), FK_ECORRUPT);
    CHECK(g == NULL);
    free(bad);
    free(buf);
    fk_filter_free(f);

    /* 3 blocks: an XXH3 filter may have them, a Parquet one may not */
    fk_params p = fk_params_make(10, 0.01);
    p.bits = 3 * 256;
    CHECK_STATUS(fk_filter_new(&fk_blocked_ops, &p, &f), FK_OK);
    CHECK_STATUS(fk_filter_serialized_size(f, &size), FK_OK);
    buf = malloc((size_t)size);
    CHECK_STATUS(fk_filter_save(f, buf, (size_t)size, NULL), FK_OK);
    CHECK_STATUS(fk_filter_load_any(buf, (size_t)size, &g), FK_OK);
    fk_filter_free(g);
    patch16(buf, (size_t)size, 14, FK_HASH_SCHEME_PARQUET_XXH64);
    CHECK_STATUS(fk_filter_load_any(buf, (size_t)size, &g), FK_ECORRUPT);
    free(buf);
    fk_filter_free(f);
}

/* ------------------------------------------------ false positives */

/* ndv random INT64 values into the size Parquet writers choose for
 * (ndv, fpp): no inserted value is missed, and the share of absent values
 * passing is within 5 binomial standard deviations of what the filter's
 * own block loads give, the mean over blocks of (1 - (31/32)^x)^8 for a
 * block of x keys (the blocked Bloom filter with k = 8, exact for these
 * loads); with many blocks that is the Poisson formula
 * (fk_theory_blocked_fpr) within 2%; stats' expected_fpr (from the fill)
 * meets the measured share within the same bound. Fixed keys: the same answer every run. */
static void check_fpr(uint64_t ndv, double fpp, uint64_t probes)
{
    fk_filter *f = NULL;
    CHECK_STATUS(fk_blocked_new_parquet(fk_blocked_parquet_bytes(ndv, fpp), &f), FK_OK);
    if (!f)
        return;
    const fk_blocked *b = (const fk_blocked *)(void *)f;
    uint64_t *keys = malloc(ndv * sizeof *keys);
    uint32_t *load = calloc(b->blocks, sizeof *load);
    for (uint64_t i = 0; i < ndv; i++) {
        keys[i] = keys_positive(i);
        uint8_t le[8];
        fk_le_put64(le, keys[i]);
        fk_blocked_probe pr;
        CHECK_STATUS(fk_blocked_locate(b, le, 8, &pr), FK_OK);
        load[pr.block]++;
    }
    size_t done = 0;
    CHECK_STATUS(fk_filter_insert_many_u64(f, (size_t)ndv, keys, &done), FK_OK);
    uint64_t missed = 0;
    for (uint64_t i = 0; i < ndv; i++)
        missed += !fk_filter_contains_u64(f, keys[i]);
    CHECK_EQ_U64(missed, 0);
    uint64_t passed = 0;
    for (uint64_t j = 0; j < probes; j++) {
        uint8_t le[8];
        fk_le_put64(le, keys_negative(j));
        passed += fk_filter_contains(f, le, 8);
    }
    double exact = 0.0;
    for (uint64_t i = 0; i < b->blocks; i++)
        exact += pow(1.0 - pow(31.0 / 32.0, load[i]), 8);
    exact /= (double)b->blocks;
    double got = (double)passed / (double)probes;
    double sigma = sqrt(exact * (1.0 - exact) / (double)probes);
    CHECK_MSG(fabs(got - exact) <= 5.0 * sigma, "ndv %llu fpp %g: measured %.6f, loads give %.6f",
              (unsigned long long)ndv, fpp, got, exact);
    double poisson = fk_theory_blocked_fpr((double)ndv / (double)b->blocks);
    fk_stats st;
    fk_filter_stats(f, &st);
    CHECK_EQ_U64(st.items, ndv);
    /* the capacity Parquet's rule gives its size at 1% */
    CHECK(st.capacity >= 1 && fk_blocked_parquet_bytes(st.capacity, FK_BLOCKED_PARQUET_FPP) ==
                                  fk_blocked_parquet_bytes(ndv, fpp));
    if (b->blocks >= 4096) {
        CHECK_MSG(fabs(exact - poisson) <= 0.02 * poisson, "loads %.6f, formula %.6f", exact,
                  poisson);
    }
    /* the fill's FPR is this filter's: the measured share within the bound */
    CHECK_MSG(fabs(got - st.expected_fpr) <= 5.0 * sigma, "expected_fpr %.6f, measured %.6f",
              st.expected_fpr, got);
    free(load);
    free(keys);
    fk_filter_free(f);
}

TEST(no_false_negatives_and_the_fpr_of_the_k8_formula)
{
    uint64_t probes = FK_TEST_SCALE(2000000, 400000);
    check_fpr(FK_TEST_SCALE(100000, 30000), 0.01, probes);
    check_fpr(FK_TEST_SCALE(50000, 20000), 0.1, probes);
    check_fpr(3000, 0.05, probes);
}

/* The generic describe names the scheme (a row only this scheme has). */
TEST(describe_names_the_scheme)
{
    fk_filter *f = NULL;
    CHECK_STATUS(fk_blocked_new_parquet(256, &f), FK_OK);
    fk_describe_row rows[FK_DESCRIBE_MAX_ROWS];
    size_t n = 0;
    CHECK_STATUS(fk_filter_describe(f, rows, FK_DESCRIBE_MAX_ROWS, &n), FK_OK);
    const fk_describe_row *r = fk_describe_find(rows, n, "hash");
    CHECK(r && r->type == FK_DESCRIBE_STRING && strstr(r->value.s, "XXH64"));
    r = fk_describe_find(rows, n, "blocks");
    CHECK(r && r->value.u64 == 8);
    fk_filter_free(f);
    fk_params p = fk_params_make(100, 0.01);
    CHECK_STATUS(fk_filter_new(&fk_blocked_ops, &p, &f), FK_OK);
    CHECK_STATUS(fk_filter_describe(f, rows, FK_DESCRIBE_MAX_ROWS, &n), FK_OK);
    CHECK(fk_describe_find(rows, n, "hash") == NULL);
    fk_filter_free(f);
}

/* ------------------------------------------------------ the golden file
 *
 * tests/golden/blocked-parquet.fk: the int32 reference filter (keys 1..100
 * in 64 bytes) saved: pins the record of the Parquet scheme (scheme id 2,
 * seed 0, the capacity and fpp a size records, the bitset as payload).
 * FK_REGEN_GOLDEN=1 rewrites it and the load fuzzer's seed
 * tests/fuzz/corpus/load/blocked-parquet.fk (tests/golden/README.md). */

static char golden_dir[512];

static uint8_t *read_whole(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    uint8_t *buf = malloc(1 << 16);
    *len = buf ? fread(buf, 1, 1 << 16, fp) : 0;
    fclose(fp);
    return buf;
}

static void write_whole(const char *path, const uint8_t *buf, size_t len)
{
    FILE *fp = fopen(path, "wb");
    CHECK_MSG(fp && fwrite(buf, 1, len, fp) == len && fclose(fp) == 0, "writing %s", path);
    printf("wrote %s (%zu bytes)\n", path, len);
}

TEST(golden_file_pins_the_parquet_record)
{
    fk_filter *f = reference_filter(INT32, 100, 16, FK_BLOCKED_PATH_SCALAR, ONE_BY_ONE);
    uint8_t mine[128 + 64];
    size_t n = 0;
    CHECK_STATUS(fk_filter_save(f, mine, sizeof mine, &n), FK_OK);
    CHECK_EQ_U64(n, sizeof mine);
    char path[700];
    snprintf(path, sizeof path, "%s/blocked-parquet.fk", golden_dir);
    if (getenv("FK_REGEN_GOLDEN")) {
        write_whole(path, mine, n);
        snprintf(path, sizeof path, "%s/../fuzz/corpus/load/blocked-parquet.fk", golden_dir);
        write_whole(path, mine, n);
        snprintf(path, sizeof path, "%s/blocked-parquet.fk", golden_dir);
    }
    size_t glen = 0;
    uint8_t *golden = read_whole(path, &glen);
    CHECK_MSG(golden != NULL, "missing %s (regenerate: FK_REGEN_GOLDEN=1)", path);
    if (golden) {
        CHECK_MSG(glen == n && memcmp(golden, mine, n) == 0, "%s differs from this library's", path);
        fk_filter *g = NULL;
        CHECK_STATUS(fk_filter_load_any(golden, glen, &g), FK_OK);
        CHECK(g && bitset_is(g, arrow_int32_2_blocks, 16));
        fk_filter_free(g);
    }
    free(golden);
    fk_filter_free(f);
}

int main(void)
{
    /* the golden file sits beside this source: tests/golden/ from the
     * repository root, where the tests run */
    const char *src = __FILE__, *slash = strrchr(src, '/');
    snprintf(golden_dir, sizeof golden_dir, "%.*sgolden", slash ? (int)(slash - src + 1) : 0, src);
    RUN(arrow_reference_bitsets_byte_for_byte_on_every_path);
    RUN(key_mapping_is_xxh64_seed_0_and_the_specification);
    RUN(parquet_sizing_rule);
    RUN(bad_sizes_are_refused);
    RUN(sbbf_refuses_what_is_not_a_parquet_filter);
    RUN(from_sbbf_of_sbbf_is_the_same_filter);
    RUN(save_and_load_keep_the_scheme_and_the_bytes);
    RUN(only_the_blocked_kind_loads_the_parquet_scheme);
    RUN(a_parquet_record_with_a_seed_or_an_odd_size_is_corrupt);
    RUN(no_false_negatives_and_the_fpr_of_the_k8_formula);
    RUN(describe_names_the_scheme);
    RUN(golden_file_pins_the_parquet_record);
    return check_report();
}
