/* tests/test_ribbon.c: the ribbon filter (ribbon/ribbon.h).
 *
 * Zero false negatives at every size 0..3000 and a sweep to 10^6 over
 * random, sequential, duplicate-heavy and adversarial keys; no build
 * failure over 10^4 random sets (and how often a first attempt fails);
 * the retry bound and the raised levels (forced failures through the
 * module's test knobs); FPR within a binomial bound of 2^-r at several r;
 * sharded builds (shards made small through the knobs) identical for any
 * thread count and key order; save/load round trips and forged headers;
 * build and build_u64 equal; batches equal single lookups; the popcnt and
 * portable lookups equal; bad input of every class; the space at 10^6. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "keys.h"
#include "../ribbon/ribbon.h"
#include "../ribbon/ribbon_internal.h" /* fk_ribbon_testing, the build figures */
#include "../common/endian.h"
#include "static_kind.h"
#include "forge.h"

/* ----------------------------------------------------------- helpers */

FK_TEST_STATIC_KIND(ribbon, FK_RIBBON_MAX_THREADS)

/* ------------------------------------------- no false negatives, sizes */

TEST(every_size_to_3000_random_u64)
{
    size_t top = FK_TEST_SCALE(3000, 600);
    static const uint32_t rs[] = { 7, 10, 1, 32, 3, 16 };
    uint64_t *keys = malloc(top * sizeof *keys);
    uint64_t rng = 1;
    size_t fn = 0, failed = 0, wrong_items = 0;
    for (size_t n = 0; n <= top; n++) {
        for (size_t i = 0; i < n; i++)
            keys[i] = check_rng(&rng);
        fk_params p = params_bits(rs[n % 6], n);
        fk_ribbon *rb = NULL;
        if (fk_ribbon_build_u64(&p, n, keys, &rb) != FK_OK) {
            failed++;
            continue;
        }
        fn += false_negatives_u64(rb, n, keys);
        wrong_items += rb->items != n;
        fk_ribbon_free(rb);
    }
    CHECK_EQ_U64(failed, 0);
    CHECK_EQ_U64(fn, 0);
    CHECK_EQ_U64(wrong_items, 0);
    free(keys);
}

TEST(sweep_to_a_million_byte_keys)
{
    size_t top = FK_TEST_SCALE(1000000, 50000);
    char (*text)[KEYS_MAX_LEN] = malloc(top * sizeof *text);
    const void **keys = malloc(top * sizeof *keys);
    size_t *lens = malloc(top * sizeof *lens);
    for (size_t i = 0; i < top; i++) {
        lens[i] = keys_realistic(i, text[i]);
        keys[i] = text[i];
    }
    size_t fn = 0, builds = 0;
    for (size_t n = 5000; n <= top; n = n * 3 + 17) {
        fk_params p = params_bits(n % 2 ? 7 : 10, n);
        fk_ribbon *rb = NULL;
        CHECK_STATUS(fk_ribbon_build(&p, n, keys, lens, &rb), FK_OK);
        for (size_t i = 0; rb && i < n; i++)
            fn += !fk_ribbon_contains(rb, keys[i], lens[i]);
        fk_ribbon_free(rb);
        builds++;
    }
    fk_params p = params_bits(8, 3);
    fk_ribbon *rb = NULL;
    CHECK_STATUS(fk_ribbon_build(&p, top, keys, lens, &rb), FK_OK);
    for (size_t i = 0; rb && i < top; i++)
        fn += !fk_ribbon_contains(rb, keys[i], lens[i]);
    fk_ribbon_free(rb);
    CHECK(builds >= 3);
    CHECK_EQ_U64(fn, 0);
    free(text);
    free(keys);
    free(lens);
}

TEST(sequential_duplicate_heavy_and_adversarial_keys)
{
    size_t n = FK_TEST_SCALE(200000, 30000);
    uint64_t *keys = malloc(n * sizeof *keys);
    fk_params p = params_bits(8, 0);
    for (size_t i = 0; i < n; i++)
        keys[i] = i;
    fk_ribbon *rb = build_u64(&p, n, keys);
    CHECK_EQ_U64(false_negatives_u64(rb, n, keys), 0);
    fk_ribbon_free(rb);

    /* each of n / 8 values 8 times, scrambled */
    for (size_t i = 0; i < n; i++)
        keys[i] = keys_positive((size_t)((i * UINT64_C(2654435761)) % n) % (n / 8));
    rb = build_u64(&p, n, keys);
    CHECK_EQ_U64(false_negatives_u64(rb, n, keys), 0);
    CHECK_EQ_U64(rb->items, n / 8);
    CHECK_EQ_U64(rb->built.duplicates, n - n / 8);
    fk_ribbon_free(rb);

    for (size_t i = 0; i < n; i++)
        keys[i] = 42;
    rb = build_u64(&p, n, keys);
    CHECK(fk_ribbon_contains_u64(rb, 42));
    CHECK_EQ_U64(rb->items, 1);
    fk_ribbon_free(rb);

    /* adversarial shapes: one bit set, high bits only, multiples of 2^32,
     * all-ones patterns shifted */
    size_t m = 0;
    for (unsigned b = 0; b < 64; b++)
        keys[m++] = UINT64_C(1) << b;
    for (size_t i = 0; m < n / 2; i++)
        keys[m++] = (uint64_t)i << 40;
    for (size_t i = 0; m < n - 64; i++)
        keys[m++] = ((uint64_t)i << 32) | 0xFFFFFFFFu;
    for (unsigned b = 0; m < n; b++)
        keys[m++] = ~UINT64_C(0) >> (b % 64);
    rb = build_u64(&p, n, keys);
    CHECK_EQ_U64(false_negatives_u64(rb, n, keys), 0);
    fk_ribbon_free(rb);
    free(keys);
}

TEST(empty_and_tiny_filters)
{
    fk_params p = params_bits(7, 1);
    fk_ribbon *rb = build_u64(&p, 0, NULL);
    CHECK(rb && !fk_ribbon_contains_u64(rb, 0) && !fk_ribbon_contains(rb, "", 0));
    fk_stats st;
    fk_ribbon_stats(rb, &st);
    CHECK_EQ_U64(st.items, 0);
    CHECK(st.expected_fpr == 0.0);
    fk_ribbon_free(rb);
    /* the empty key, alone */
    const void *k0[] = { NULL };
    size_t l0[] = { 0 };
    CHECK_STATUS(fk_ribbon_build(&p, 1, k0, l0, &rb), FK_OK);
    CHECK(fk_ribbon_contains(rb, "", 0) && fk_ribbon_contains(rb, NULL, 0));
    fk_ribbon_free(rb);
}

/* Builds `sets` random sets of each size in [lo, hi]; counts failures,
 * false negatives, builds that needed more than one attempt. */
static void build_many(size_t lo, size_t hi, size_t sets, uint32_t r, uint64_t *failed,
                       uint64_t *retries, uint64_t *builds, uint64_t *fn, uint64_t *rng)
{
    uint64_t *keys = malloc((hi ? hi : 1) * sizeof *keys);
    for (size_t n = lo; n <= hi; n++)
        for (size_t s = 0; s < sets; s++) {
            for (size_t i = 0; i < n; i++)
                keys[i] = check_rng(rng);
            fk_params p = params_bits(r, check_rng(rng));
            fk_ribbon *rb = NULL;
            (*builds)++;
            if (fk_ribbon_build_u64(&p, n, keys, &rb) != FK_OK) {
                (*failed)++;
                continue;
            }
            *retries += rb->built.attempts > 1;
            *fn += false_negatives_u64(rb, n, keys);
            fk_ribbon_free(rb);
        }
    free(keys);
}

TEST(ten_thousand_random_sets)
{
    size_t sets = FK_TEST_SCALE(10000, 1000);
    uint64_t failed = 0, retries = 0, builds = 0, fn = 0, rng = 99;
    for (size_t i = 0; i < sets; i++) {
        size_t n = 1 + (size_t)(check_rng(&rng) % 5000);
        build_many(n, n, 1, i % 2 ? 7 : 10, &failed, &retries, &builds, &fn, &rng);
    }
    CHECK_EQ_U64(failed, 0);
    CHECK_EQ_U64(fn, 0);
    /* eps 3% below 2^14 keys: a first attempt almost never fails there */
    CHECK_MSG(retries * 100 <= builds, "%llu retries in %llu builds",
              (unsigned long long)retries, (unsigned long long)builds);
}

TEST(first_attempts_at_a_shard_size)
{
    /* at 2^18 keys (eps 4.5%) about one first attempt in 20 fails; a
     * generous bound, so the test catches a broken eps, not bad luck */
    size_t sets = FK_TEST_SCALE(20, 4), n = (size_t)1 << 18;
    uint64_t failed = 0, retries = 0, builds = 0, fn = 0, rng = 7;
    for (size_t s = 0; s < sets; s++)
        build_many(n, n, 1, 7, &failed, &retries, &builds, &fn, &rng);
    CHECK_EQ_U64(failed, 0);
    CHECK_EQ_U64(fn, 0);
    CHECK_MSG(retries * 2 <= builds, "%llu of %llu", (unsigned long long)retries,
              (unsigned long long)builds);
}

TEST(retry_bound_and_levels)
{
    size_t n = 5000;
    uint64_t *keys = fill_positives(malloc(n * sizeof *keys), n);
    fk_params p = params_bits(8, 1);
    fk_ribbon *plain = build_u64(&p, n, keys);
    uint64_t total = (uint64_t)FK_RIBBON_ATTEMPTS_PER_LEVEL * FK_RIBBON_MAX_LEVELS;
    uint64_t forced[] = { 1, FK_RIBBON_ATTEMPTS_PER_LEVEL - 1, FK_RIBBON_ATTEMPTS_PER_LEVEL,
                          total - 1 };
    for (size_t t = 0; t < sizeof forced / sizeof forced[0]; t++) {
        fk_ribbon_testing.fail_attempts = forced[t];
        fk_ribbon *rb = build_u64(&p, n, keys);
        CHECK_EQ_U64(rb->built.attempts, forced[t] + 1);
        CHECK_EQ_U64(rb->built.level, forced[t] / FK_RIBBON_ATTEMPTS_PER_LEVEL);
        /* a raised level has more slots */
        if (rb->built.level > 0)
            CHECK(rb->geom.slots > plain->geom.slots);
        CHECK_EQ_U64(false_negatives_u64(rb, n, keys), 0);
        reloads_exact(rb, n, keys);
        fk_ribbon_free(rb);
    }
    fk_ribbon_testing.fail_attempts = total;
    fk_ribbon *rb = (fk_ribbon *)&p;
    CHECK_STATUS(fk_ribbon_build_u64(&p, n, keys, &rb), FK_EFULL);
    CHECK(rb == NULL);
    fk_ribbon_testing.shard_keys = 1000;
    CHECK_STATUS(fk_ribbon_build_u64(&p, n, keys, &rb), FK_EFULL);
    CHECK(rb == NULL);
    fk_ribbon_testing.fail_attempts = 2;
    rb = build_u64(&p, n, keys);
    CHECK(rb && rb->geom.shards > 1);
    CHECK(rb && rb->built.attempts >= 3 * rb->geom.shards);
    CHECK_EQ_U64(false_negatives_u64(rb, n, keys), 0);
    fk_ribbon_free(rb);
    /* sharded, past the first level: every shard's first level fails */
    fk_ribbon_testing.fail_attempts = FK_RIBBON_ATTEMPTS_PER_LEVEL + 1;
    rb = build_u64(&p, n, keys);
    CHECK(rb && rb->built.level == 1);
    CHECK_EQ_U64(false_negatives_u64(rb, n, keys), 0);
    fk_ribbon_free(rb);
    memset(&fk_ribbon_testing, 0, sizeof fk_ribbon_testing);
    fk_ribbon_free(plain);
    free(keys);
}

/* ------------------------------------------------------------- the FPR */

TEST(fpr_within_binomial_bound_of_2_pow_minus_r)
{
    size_t n = FK_TEST_SCALE(100000, 20000);
    uint64_t *keys = fill_positives(malloc(n * sizeof *keys), n);
    static const uint32_t rs[] = { 1, 2, 3, 4, 5, 7, 8, 10, 13, 16 };
    for (size_t w = 0; w < sizeof rs / sizeof rs[0]; w++) {
        uint32_t r = rs[w];
        fk_params p = params_bits(r, 5);
        fk_ribbon *rb = build_u64(&p, n, keys);
        double rate = ldexp(1.0, -(int)r);
        uint64_t q = (uint64_t)fmin(256.0 / rate, (double)(UINT64_C(1) << FK_TEST_SCALE(22, 20)));
        uint64_t hits = false_positives_u64(rb, q);
        CHECK_MSG(within_binomial(hits, q, rate), "r = %u: %llu of %llu, expected %.1f", r,
                  (unsigned long long)hits, (unsigned long long)q, (double)q * rate);
        fk_stats st;
        fk_ribbon_stats(rb, &st);
        CHECK(st.expected_fpr == rate);
        CHECK_MSG(st.bits_per_item < 1.06 * r + 0.2, "r = %u: %.2f bits", r, st.bits_per_item);
        fk_ribbon_free(rb);
    }
    free(keys);
}

TEST(bits_from_fpr)
{
    CHECK_EQ_U64(fk_ribbon_bits_for(0.5), 1);
    CHECK_EQ_U64(fk_ribbon_bits_for(0.01), 7);
    CHECK_EQ_U64(fk_ribbon_bits_for(0.001), 10);
    CHECK_EQ_U64(fk_ribbon_bits_for(ldexp(1.0, -32)), 32);
    CHECK_EQ_U64(fk_ribbon_bits_for(1e-12), 32);
    CHECK_EQ_U64(fk_ribbon_bits_for(0.0), 0);
}

/* ------------------------------------------------------------- shards */

TEST(sharded_builds_same_bits_for_any_threads_and_order)
{
    size_t n = FK_TEST_SCALE(100000, 30000);
    uint64_t *keys = fill_positives(malloc(n * sizeof *keys), n);
    uint64_t *rev = malloc(n * sizeof *rev);
    for (size_t i = 0; i < n; i++)
        rev[i] = keys[n - 1 - i];
    fk_ribbon_testing.shard_keys = 4096;
    fk_params p = params_bits(9, 11);
    fk_ribbon *one = build_u64(&p, n, keys);
    CHECK(one && one->geom.shards > 4);
    CHECK_EQ_U64(false_negatives_u64(one, n, keys), 0);
    static const uint32_t threads[] = { 2, 3, 8 };
    for (size_t t = 0; t < 3; t++) {
        fk_params q = p;
        q.threads = threads[t];
        fk_ribbon *rb = build_u64(&q, n, t == 1 ? rev : keys);
        CHECK_MSG(same_bytes(one, rb), "threads %u", threads[t]);
        fk_ribbon_free(rb);
    }
    /* a staging buffer of a few shards: several passes, same bits */
    fk_ribbon_testing.stage_bytes = 8 * 3 * 4096;
    fk_ribbon *staged = build_u64(&p, n, keys);
    CHECK(same_bytes(one, staged));
    CHECK(staged && staged->built.key_passes > 3);
    fk_ribbon_free(staged);
    memset(&fk_ribbon_testing, 0, sizeof fk_ribbon_testing);
    /* the FPR holds in a sharded filter */
    uint64_t q = 1 << 18, hits = false_positives_u64(one, q);
    CHECK(within_binomial(hits, q, ldexp(1.0, -9)));
    fk_ribbon_free(one);
    free(rev);
    free(keys);
}

/* ---------------------------------------------------------- save/load */

TEST(save_load_round_trip)
{
    size_t n = 20000;
    uint64_t *keys = fill_positives(malloc(n * sizeof *keys), n);
    static const uint32_t rs[] = { 1, 7, 10, 32 };
    for (int sharded = 0; sharded < 2; sharded++)
        for (size_t w = 0; w < 4; w++) {
            fk_ribbon_testing.shard_keys = sharded ? 3000 : 0;
            fk_params p = params_bits(rs[w], 21);
            fk_ribbon *rb = build_u64(&p, n, keys);
            fk_ribbon_testing.shard_keys = 0;
            size_t len;
            uint8_t *buf = saved(rb, &len);
            CHECK_EQ_U64(len, 128 + 8 * rb->geom.shards +
                                  8 * rb->r * rb->geom.shards * rb->geom.blocks);
            fk_ribbon *back = NULL;
            CHECK_STATUS(fk_ribbon_load(buf, len, &back), FK_OK);
            CHECK(back && same_bytes(rb, back));
            uint64_t diff = 0;
            for (size_t i = 0; back && i < 50000; i++)
                diff += fk_ribbon_contains_u64(rb, keys_negative(i)) !=
                        fk_ribbon_contains_u64(back, keys_negative(i));
            CHECK_EQ_U64(diff, 0);
            CHECK(back && false_negatives_u64(back, n, keys) == 0);
            fk_ribbon_free(back);
            free(buf);
            fk_ribbon_free(rb);
        }
    free(keys);
}

TEST(loader_refuses_forged_headers)
{
    uint64_t keys[120];
    fill_positives(keys, 120);
    fk_params p = params_bits(8, 0);
    fk_ribbon *rb = build_u64(&p, 100, keys);
    size_t len;
    uint8_t *good = saved(rb, &len);
    uint8_t *buf = malloc(len);
    struct { unsigned param; uint64_t value; } bad[] = {
        { 0, 0 }, { 0, 33 }, { 0, 16 },           /* r: out of range, or payload mismatch */
        { 1, 0 }, { 1, 2 }, { 1, UINT64_MAX },    /* shards */
        { 2, 0 }, { 2, 100 }, { 2, 128 }, { 2, 256 }, { 2, UINT64_MAX }, /* slots */
        { 4, 64 }, { 4, 0 },                      /* width */
        { 5, 1 }, { 6, 1 }, { 7, 1 },             /* unused */
    };
    for (size_t t = 0; t < sizeof bad / sizeof bad[0]; t++) {
        forge_param(buf, good, len, bad[t].param, bad[t].value);
        fk_ribbon *out = NULL;
        CHECK_MSG(fk_ribbon_load(buf, len, &out) == FK_ECORRUPT, "param %u = %llu",
                  bad[t].param, (unsigned long long)bad[t].value);
        CHECK(out == NULL);
    }
    /* a one-shard filter's seed table holds 0 */
    fk_serial_head h;
    CHECK_STATUS(fk_serial_read_head(good, len, &h), FK_OK);
    CHECK_EQ_U64(h.kind_id, FK_KIND_RIBBON);
    /* the seed table starts right after the 120-byte header */
    memcpy(buf, good, len);
    buf[120] = 1;
    forge_reseal(buf, len);
    fk_ribbon *out = NULL;
    CHECK_STATUS(fk_ribbon_load(buf, len, &out), FK_ECORRUPT);
    /* more items than slots; an empty filter with bits set */
    forge_word(buf, good, len, 40, UINT64_C(1) << 40);
    CHECK_STATUS(fk_ribbon_load(buf, len, &out), FK_ECORRUPT);
    forge_word(buf, good, len, 40, 0);
    CHECK_STATUS(fk_ribbon_load(buf, len, &out), FK_ECORRUPT);
    CHECK(out == NULL);
    free(buf);
    free(good);
    fk_ribbon_free(rb);
}

/* -------------------------------------------------- agreeing answers */

TEST(build_and_build_u64_agree)
{
    size_t n = 30000;
    uint64_t *keys = fill_positives(malloc(n * sizeof *keys), n);
    uint8_t (*bytes)[8] = malloc(n * sizeof *bytes);
    const void **kp = malloc(n * sizeof *kp);
    size_t *lens = malloc(n * sizeof *lens);
    for (size_t i = 0; i < n; i++) {
        fk_le_put64(bytes[i], keys[i]);
        kp[i] = bytes[i];
        lens[i] = 8;
    }
    for (int sharded = 0; sharded < 2; sharded++) {
        fk_ribbon_testing.shard_keys = sharded ? 5000 : 0;
        fk_params p = params_bits(10, 4);
        fk_ribbon *a = build_u64(&p, n, keys), *b = NULL;
        CHECK_STATUS(fk_ribbon_build(&p, n, kp, lens, &b), FK_OK);
        CHECK(same_bytes(a, b));
        fk_filter *g = NULL;
        CHECK_STATUS(fk_filter_build(&fk_ribbon_ops, &p, n, kp, lens, &g), FK_OK);
        uint64_t diff = 0;
        for (size_t i = 0; i < 40000; i++) {
            uint64_t k = keys_negative(i);
            uint8_t le[8];
            fk_le_put64(le, k);
            bool x = fk_ribbon_contains_u64(a, k);
            diff += x != fk_ribbon_contains(b, le, 8);
            diff += x != fk_filter_contains(g, le, 8);
            diff += x != fk_filter_contains_u64(g, k);
        }
        CHECK_EQ_U64(diff, 0);
        fk_filter_free(g);
        fk_ribbon_free(a);
        fk_ribbon_free(b);
    }
    fk_ribbon_testing.shard_keys = 0;
    free(keys);
    free(bytes);
    free(kp);
    free(lens);
}

/* The build's portable copy (tzcnt, shrx and popcnt off) and the one for
 * CPUs that have them solve to the same words, at every column count the
 * back substitution groups differently (1-3 one at a time, 4 and more by
 * four, overlapping), one row at a time through the band and two, one
 * shard and several. */
TEST(portable_build_same_solution)
{
    size_t n = 9000; /* two rows at a time from 4096 keys: one shard; 3000 a shard: one */
    uint64_t *keys = fill_positives(malloc(n * sizeof *keys), n);
    static const uint32_t rs[] = { 1, 3, 4, 7, 12, 32 };
    for (int sharded = 0; sharded < 2; sharded++)
        for (size_t t = 0; t < sizeof rs / sizeof rs[0]; t++) {
            fk_ribbon_testing.shard_keys = sharded ? 3000 : 0;
            fk_params p = fk_params_make(0, 0.01);
            p.fingerprint_bits = rs[t];
            p.seed = 5;
            fk_ribbon *rb = build_u64(&p, n, keys);
            fk_ribbon_testing.plain_lookups = true;
            fk_ribbon *plain = build_u64(&p, n, keys);
            fk_ribbon_testing.plain_lookups = false;
            CHECK(rb && plain && rb->solution_words == plain->solution_words);
            if (rb && plain && rb->solution_words == plain->solution_words)
                CHECK(memcmp(rb->solution, plain->solution, 8 * rb->solution_words) == 0);
            uint64_t missing = 0;
            for (size_t i = 0; rb && i < n; i++)
                missing += !fk_ribbon_contains_u64(rb, keys[i]);
            CHECK_EQ_U64(missing, 0);
            fk_ribbon_free(rb);
            fk_ribbon_free(plain);
        }
    fk_ribbon_testing.shard_keys = 0;
    free(keys);
}

TEST(batches_and_portable_lookups_equal_single_lookups)
{
    size_t n = 20000, q = 30000;
    uint64_t *keys = fill_positives(malloc(n * sizeof *keys), n);
    uint64_t *probe = malloc(q * sizeof *probe);
    for (size_t i = 0; i < q; i++)
        probe[i] = i % 3 ? keys_negative(i) : keys[i % n];
    bool *out = malloc(q), *out2 = malloc(q);
    for (int sharded = 0; sharded < 2; sharded++)
        for (uint32_t r = 2; r <= 17; r += 5) { /* 2: no AVX2; 7, 12, 17: tails */
            fk_ribbon_testing.shard_keys = sharded ? 3000 : 0;
            fk_params p = params_bits(r, 8);
            fk_ribbon *rb = build_u64(&p, n, keys);
            fk_ribbon_testing.plain_lookups = true;
            fk_ribbon *plain = build_u64(&p, n, keys);
            fk_ribbon_testing.plain_lookups = false;
            fk_ribbon_testing.no_avx2 = true; /* popcnt where the CPU has it */
            fk_ribbon *mid = build_u64(&p, n, keys);
            fk_ribbon_testing.no_avx2 = false;
            fk_filter_contains_many_u64(fk_ribbon_as_filter(rb), q, probe, out);
            fk_filter_contains_many_u64(fk_ribbon_as_filter(plain), q, probe, out2);
            uint64_t diff = 0;
            for (size_t i = 0; i < q; i++) {
                bool x = fk_ribbon_contains_u64(rb, probe[i]);
                diff += out[i] != x;
                diff += out2[i] != x;
                diff += fk_ribbon_contains_u64(plain, probe[i]) != x;
                diff += fk_ribbon_contains_u64(mid, probe[i]) != x;
            }
            fk_filter_contains_many_u64(fk_ribbon_as_filter(mid), q, probe, out2);
            for (size_t i = 0; i < q; i++)
                diff += out[i] != out2[i];
            CHECK_EQ_U64(diff, 0);
            fk_ribbon_free(rb);
            fk_ribbon_free(plain);
            fk_ribbon_free(mid);
        }
    fk_ribbon_testing.shard_keys = 0;
    free(out);
    free(out2);
    free(probe);
    free(keys);
}

TEST(locate_shows_the_row)
{
    uint64_t keys[500];
    fill_positives(keys, 500);
    fk_params p = params_bits(7, 2);
    fk_ribbon *rb = build_u64(&p, 500, keys);
    for (size_t i = 0; i < 500; i++) {
        uint8_t le[8];
        fk_le_put64(le, keys[i]);
        fk_ribbon_location loc;
        CHECK_STATUS(fk_ribbon_locate(rb, le, 8, &loc), FK_OK);
        CHECK(loc.result == loc.fingerprint);
        CHECK(loc.coef_lo & 1);
        CHECK(loc.start < rb->geom.starts);
    }
    fk_ribbon_location loc;
    CHECK_STATUS(fk_ribbon_locate(rb, NULL, 1, &loc), FK_EINVAL);
    CHECK_STATUS(fk_ribbon_locate(NULL, "a", 1, &loc), FK_EINVAL);
    fk_ribbon_free(rb);
}

TEST(static_kind_through_the_generic_interface)
{
    fk_params p = params_bits(7, 0);
    fk_filter *f = NULL;
    CHECK_STATUS(fk_filter_new(&fk_ribbon_ops, &p, &f), FK_EUNSUPPORTED);
    CHECK(fk_ops_caps(&fk_ribbon_ops) & FK_CAP_STATIC);
    uint64_t k = 5;
    CHECK_STATUS(fk_filter_build_u64(&fk_ribbon_ops, &p, 1, &k, &f), FK_OK);
    CHECK_STATUS(fk_filter_insert(f, "x", 1), FK_EUNSUPPORTED);
    CHECK_STATUS(fk_filter_remove(f, "x", 1), FK_EUNSUPPORTED);
    CHECK(fk_filter_contains_u64(f, 5));
    fk_describe_row rows[FK_DESCRIBE_MAX_ROWS];
    size_t nr = 0;
    CHECK_STATUS(fk_filter_describe(f, rows, FK_DESCRIBE_MAX_ROWS, &nr), FK_OK);
    const fk_describe_row *rw = fk_describe_find(rows, nr, "result_bits");
    CHECK(rw && rw->value.u64 == 7);
    rw = fk_describe_find(rows, nr, "band_width");
    CHECK(rw && rw->value.u64 == FK_RIBBON_WIDTH);
    fk_sizing z;
    fk_params sp = params_bits(7, 0);
    sp.capacity = 1000000;
    CHECK_STATUS(fk_ops_size(&fk_ribbon_ops, &sp, &z), FK_OK);
    CHECK(z.memory_bytes < 1000000 * 7 * 1.06 / 8 + 4096);
    fk_filter_free(f);
}

TEST(bad_input_of_every_class)
{
    bad_builds_refused();
    fk_params p = params_bits(7, 0);
    uint64_t k = 1;
    fk_ribbon *g = build_u64(&p, 1, &k);
    CHECK(!fk_ribbon_contains(g, NULL, 3));
    uint64_t many[1000];
    for (size_t i = 0; i < 1000; i++)
        many[i] = keys_positive(i);
    fk_params q = p;
    q.max_bytes = 500;
    fk_ribbon *rb = (fk_ribbon *)&k;
    CHECK_STATUS(fk_ribbon_build_u64(&q, 1000, many, &rb), FK_ELIMIT);
    CHECK(rb == NULL);
    q.max_bytes = 4000; /* 1000 keys at r = 7: about 0.9 KiB of solution */
    CHECK_STATUS(fk_ribbon_build_u64(&q, 1000, many, &rb), FK_OK);
    fk_ribbon_free(rb);
    fk_ribbon_free(g);
}

TEST(space_at_a_million)
{
    /* (1 + eps) r bits a key, eps 4.5% at 2^18 keys and up */
    size_t n = FK_TEST_SCALE(1000000, 200000);
    uint64_t *keys = fill_positives(malloc(n * sizeof *keys), n);
    for (uint32_t r = 7; r <= 10; r += 3) {
        fk_params p = params_bits(r, 0);
        fk_ribbon *rb = build_u64(&p, n, keys);
        fk_stats st;
        fk_ribbon_stats(rb, &st);
        CHECK_MSG(st.bits_per_item <= 1.06 * r, "r = %u: %.3f", r, st.bits_per_item);
        CHECK_MSG(rb->built.temp_bytes < 32 * (uint64_t)n, "%.1f bytes a key",
                  (double)rb->built.temp_bytes / (double)n);
        CHECK_EQ_U64(false_negatives_u64(rb, n, keys), 0);
        fk_ribbon_free(rb);
    }
    free(keys);
}

int main(void)
{
    RUN(every_size_to_3000_random_u64);
    RUN(sweep_to_a_million_byte_keys);
    RUN(sequential_duplicate_heavy_and_adversarial_keys);
    RUN(empty_and_tiny_filters);
    RUN(ten_thousand_random_sets);
    RUN(first_attempts_at_a_shard_size);
    RUN(retry_bound_and_levels);
    RUN(fpr_within_binomial_bound_of_2_pow_minus_r);
    RUN(bits_from_fpr);
    RUN(sharded_builds_same_bits_for_any_threads_and_order);
    RUN(save_load_round_trip);
    RUN(loader_refuses_forged_headers);
    RUN(build_and_build_u64_agree);
    RUN(batches_and_portable_lookups_equal_single_lookups);
    RUN(portable_build_same_solution);
    RUN(locate_shows_the_row);
    RUN(static_kind_through_the_generic_interface);
    RUN(bad_input_of_every_class);
    RUN(space_at_a_million);
    return check_report();
}
