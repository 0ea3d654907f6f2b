/* tests/test_fuse.c: the binary fuse filter (fuse/fuse.h).
 *
 * Zero false negatives at every size 0..2000 and a sweep to 10^5 over
 * random, sequential, duplicate-heavy and adversarial keys; no build
 * failure over many random sets, every size 11,400..11,600 and
 * 12,300..12,400 at f = 8 and 16 included; the retry bound (forced
 * failures through the module's test knobs); FPR within a binomial bound
 * of 2^-f at several widths; sharded builds (shards made small through the
 * knobs) identical for any thread count; save/load round trips; build and
 * build_u64 equal; the generic interface's answers for a static kind; bad
 * input of every class. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "keys.h"
#include "../fuse/fuse.h"
#include "../fuse/fuse_internal.h" /* fk_fuse_testing */
#include "../common/endian.h"
#include "static_kind.h"
#include "forge.h"
#include "describe.h"

/* ----------------------------------------------------------- helpers */

FK_TEST_STATIC_KIND(fuse, FK_FUSE_MAX_THREADS)

static uint64_t attempts_of(const fk_fuse *fu)
{
    return fuse_desc(fu).attempts;
}

/* ------------------------------------------- no false negatives, sizes */

TEST(every_size_to_2000_random_u64)
{
    size_t top = FK_TEST_SCALE(2000, 600);
    uint64_t *keys = malloc(top * sizeof *keys);
    uint64_t rng = 1;
    size_t fn = 0, failed = 0;
    for (size_t n = 0; n <= top; n++) {
        for (size_t i = 0; i < n; i++)
            keys[i] = check_rng(&rng);
        fk_params p = params_bits(n % 3 == 0 ? 8 : n % 3 == 1 ? 16 : 5, n);
        fk_fuse *fu = NULL;
        if (fk_fuse_build_u64(&p, n, keys, &fu) != FK_OK) {
            failed++;
            continue;
        }
        fn += false_negatives_u64(fu, n, keys);
        CHECK_EQ_U64(fuse_desc(fu).items, n);
        fk_fuse_free(fu);
    }
    CHECK_EQ_U64(failed, 0);
    CHECK_EQ_U64(fn, 0);
    free(keys);
}

TEST(sweep_to_100000_byte_keys)
{
    /* realistic strings (long shared prefixes), then a sweep of sizes */
    size_t top = FK_TEST_SCALE(100000, 20000);
    char (*text)[KEYS_MAX_LEN] = malloc(top * sizeof *text);
    const void **keys = malloc(top * sizeof *keys);
    size_t *lens = malloc(top * sizeof *lens);
    for (size_t i = 0; i < top; i++) {
        lens[i] = keys_realistic(i, text[i]);
        keys[i] = text[i];
    }
    size_t fn = 0;
    for (size_t n = 2001; n <= top; n = n * 5 / 4 + 17) {
        fk_params p = params_bits(n % 2 ? 8 : 11, 7);
        fk_fuse *fu = NULL;
        CHECK_STATUS(fk_fuse_build(&p, n, (const void *const *)keys, lens, &fu), FK_OK);
        for (size_t i = 0; fu && i < n; i++)
            fn += !fk_fuse_contains(fu, keys[i], lens[i]);
        fk_fuse_free(fu);
    }
    CHECK_EQ_U64(fn, 0);
    free(text);
    free(keys);
    free(lens);
}

TEST(sequential_duplicate_heavy_and_adversarial_keys)
{
    size_t n = FK_TEST_SCALE(100000, 20000);
    uint64_t *keys = malloc(n * sizeof *keys);
    /* sequential integers */
    for (size_t i = 0; i < n; i++)
        keys[i] = i;
    fk_params p = params_bits(8, 0);
    fk_fuse *fu = build_u64(&p, n, keys);
    CHECK_EQ_U64(false_negatives_u64(fu, n, keys), 0);
    fk_fuse_free(fu);

    /* duplicate-heavy: each of n / 8 values 8 times, in scrambled order
     * (i -> i * odd mod n is a permutation: the multiplier is prime to n) */
    for (size_t i = 0; i < n; i++)
        keys[i] = keys_positive((size_t)((i * UINT64_C(2654435761)) % n) % (n / 8));
    fu = build_u64(&p, n, keys);
    CHECK_EQ_U64(false_negatives_u64(fu, n, keys), 0);
    CHECK_EQ_U64(fuse_desc(fu).items, n / 8);
    CHECK_EQ_U64(fuse_desc(fu).duplicates, n - n / 8);
    fk_fuse_free(fu);

    /* every key the same */
    for (size_t i = 0; i < n; i++)
        keys[i] = 42;
    fu = build_u64(&p, n, keys);
    CHECK(fk_fuse_contains_u64(fu, 42));
    CHECK_EQ_U64(fuse_desc(fu).items, 1);
    fk_fuse_free(fu);

    /* one key repeated around the peeling's per-cell count limits (63, 64,
     * 65 copies: a count wraps at 64), among distinct keys: the first peel
     * fails on the repeats, the sorted retry drops them */
    static const size_t copies[] = { 2, 63, 64, 65, 255, 256, 257 };
    for (size_t ci = 0; ci < sizeof copies / sizeof copies[0]; ci++)
        for (uint32_t f = 7; f <= 8; f++) {
            size_t distinct = 3000, total = distinct + copies[ci] - 1;
            for (size_t i = 0; i < total; i++)
                keys[i] = i < distinct ? keys_positive(i) : keys_positive(7);
            fk_params pc = params_bits(f, ci);
            fu = build_u64(&pc, total, keys);
            CHECK_EQ_U64(false_negatives_u64(fu, total, keys), 0);
            CHECK_EQ_U64(fuse_desc(fu).items, distinct);
            CHECK_EQ_U64(fuse_desc(fu).duplicates, copies[ci] - 1);
            fk_fuse_free(fu);
        }

    /* adversarial shapes: one bit set each, high bits only, multiples of
     * a large power of two */
    for (size_t i = 0; i < n; i++)
        keys[i] = i < 64 ? UINT64_C(1) << i : (uint64_t)i << 40 | (i & 1);
    fu = build_u64(&p, n, keys);
    CHECK_EQ_U64(false_negatives_u64(fu, n, keys), 0);
    fk_fuse_free(fu);

    /* byte keys: the empty key, one byte, all-zero strings of every length */
    static const uint8_t zeros[64];
    const void *bk[66];
    size_t bl[66];
    for (size_t i = 0; i < 64; i++) {
        bk[i] = zeros;
        bl[i] = i;
    }
    bk[64] = NULL;
    bl[64] = 0;
    bk[65] = "\xff";
    bl[65] = 1;
    fk_fuse *g = NULL;
    CHECK_STATUS(fk_fuse_build(&p, 66, bk, bl, &g), FK_OK);
    for (size_t i = 0; g && i < 66; i++)
        CHECK(fk_fuse_contains(g, bk[i], bl[i]));
    CHECK_EQ_U64(fuse_desc(g).items, 65); /* the empty key twice */
    fk_fuse_free(g);
    free(keys);
}

TEST(empty_and_tiny_filters)
{
    fk_params p = params_bits(8, 3);
    fk_fuse *fu = NULL;
    CHECK_STATUS(fk_fuse_build_u64(&p, 0, NULL, &fu), FK_OK);
    size_t hits = 0;
    for (uint64_t i = 0; i < 100000; i++)
        hits += fk_fuse_contains_u64(fu, i);
    CHECK_EQ_U64(hits, 0);
    fk_stats st;
    fk_fuse_stats(fu, &st);
    CHECK_EQ_U64(st.items, 0);
    CHECK(st.expected_fpr == 0.0);
    /* an empty filter saves and loads */
    size_t len;
    uint8_t *buf = saved(fu, &len);
    fk_fuse *back = NULL;
    CHECK_STATUS(fk_fuse_load(buf, len, &back), FK_OK);
    CHECK(back && !fk_fuse_contains_u64(back, 1));
    fk_fuse_free(back);
    free(buf);
    fk_fuse_free(fu);
    /* 1 and 2 keys, at every width */
    for (uint32_t f = 1; f <= 32; f++) {
        uint64_t two[2] = { 7, 8 };
        fk_params q = params_bits(f, f);
        fk_fuse *a = build_u64(&q, 1, two), *b = build_u64(&q, 2, two);
        CHECK(a && fk_fuse_contains_u64(a, 7));
        CHECK(b && fk_fuse_contains_u64(b, 7) && fk_fuse_contains_u64(b, 8));
        CHECK_EQ_U64(fuse_desc(b).fingerprint_bits, f);
        fk_fuse_free(a);
        fk_fuse_free(b);
    }
}

/* ------------------------------------------------------ build success */

/* Builds `sets` random sets of each size in [lo, hi] at width f; counts
 * failed builds and the attempts beyond the first. */
static void build_many(size_t lo, size_t hi, size_t sets, uint32_t f, uint64_t *failed,
                       uint64_t *retries, uint64_t *builds, uint64_t *fn)
{
    uint64_t *keys = malloc((hi + 1) * sizeof *keys);
    uint64_t rng = lo * 31 + f;
    for (size_t n = lo; n <= hi; n++)
        for (size_t s = 0; s < sets; s++) {
            for (size_t i = 0; i < n; i++)
                keys[i] = check_rng(&rng);
            fk_params p = params_bits(f, check_rng(&rng));
            fk_fuse *fu = NULL;
            if (fk_fuse_build_u64(&p, n, keys, &fu) != FK_OK) {
                (*failed)++;
                continue;
            }
            (*builds)++;
            *retries += attempts_of(fu) - 1;
            *fn += false_negatives_u64(fu, n, keys);
            fk_fuse_free(fu);
        }
    free(keys);
}

/* No build failed, no false negative, and fewer than one build in
 * `per` needed a retry; prints the counts. */
static void check_builds(const char *what, uint64_t failed, uint64_t fn, uint64_t retries,
                         uint64_t builds, uint64_t per)
{
    CHECK_EQ_U64(failed, 0);
    CHECK_EQ_U64(fn, 0);
    CHECK_MSG(retries * per < builds, "%s: %llu retries in %llu builds", what,
              (unsigned long long)retries, (unsigned long long)builds);
    printf("%s: %llu builds, %llu retries\n", what, (unsigned long long)builds,
           (unsigned long long)retries);
}

TEST(no_failures_at_the_hard_sizes)
{
    /* 11,400..11,600 and 12,300..12,400, where the reference's segment
     * layout leaves few long segments; two seeds a size at f = 8 and 16 */
    uint64_t failed = 0, retries = 0, builds = 0, fn = 0;
    size_t sets = FK_TEST_SCALE(2, 1);
    for (uint32_t f = 8; f <= 16; f += 8) {
        build_many(11400, 11600, sets, f, &failed, &retries, &builds, &fn);
        build_many(12300, 12400, sets, f, &failed, &retries, &builds, &fn);
    }
    /* the layout keeps at least 16 segments there: a retry is rare (the
     * reference fails about a third of first attempts at 11.5k) */
    check_builds("hard sizes", failed, fn, retries, builds, 10);
}

TEST(ten_thousand_random_sets)
{
    /* random sizes 1..5000 (sizes where retries are likeliest) */
    size_t sets = FK_TEST_SCALE(10000, 1000);
    uint64_t failed = 0, retries = 0, builds = 0, fn = 0, rng = 99;
    for (size_t i = 0; i < sets; i++) {
        size_t n = 1 + (size_t)(check_rng(&rng) % 5000);
        build_many(n, n, 1, i % 2 ? 8 : 16, &failed, &retries, &builds, &fn);
    }
    check_builds("random sets", failed, fn, retries, builds, 5);
}

TEST(retry_bound)
{
    size_t n = 5000;
    uint64_t *keys = fill_positives(malloc(n * sizeof *keys), n);
    fk_params p = params_bits(8, 1);
    /* failures up to the bound are retried with new seeds (attempt 4 uses
     * the half-length segments) and the filter is still exact */
    uint64_t forced[] = { 1, 3, 4, FK_FUSE_MAX_ATTEMPTS - 1 };
    for (size_t t = 0; t < sizeof forced / sizeof forced[0]; t++) {
        fk_fuse_testing.fail_attempts = forced[t];
        fk_fuse *fu = build_u64(&p, n, keys);
        CHECK_EQ_U64(attempts_of(fu), forced[t] + 1);
        CHECK_EQ_U64(false_negatives_u64(fu, n, keys), 0);
        /* a filter built on a retry seed still saves and loads */
        reloads_exact(fu, n, keys);
        fk_fuse_free(fu);
    }
    /* at the bound: FK_EFULL, nothing built (ASan checks nothing leaks) */
    fk_fuse_testing.fail_attempts = FK_FUSE_MAX_ATTEMPTS;
    fk_fuse *fu = (fk_fuse *)&p; /* must be overwritten with NULL */
    CHECK_STATUS(fk_fuse_build_u64(&p, n, keys, &fu), FK_EFULL);
    CHECK(fu == NULL);
    /* the same for a sharded build */
    fk_fuse_testing.shard_keys = 1000;
    CHECK_STATUS(fk_fuse_build_u64(&p, n, keys, &fu), FK_EFULL);
    CHECK(fu == NULL);
    fk_fuse_testing.fail_attempts = 2;
    fu = build_u64(&p, n, keys);
    CHECK(attempts_of(fu) >= 3 * fuse_desc(fu).shards); /* a shard may need one more */
    CHECK(fuse_desc(fu).max_attempts >= 3 && fuse_desc(fu).max_attempts <= FK_FUSE_MAX_ATTEMPTS);
    CHECK_EQ_U64(false_negatives_u64(fu, n, keys), 0);
    fk_fuse_free(fu);
    memset(&fk_fuse_testing, 0, sizeof fk_fuse_testing);
    free(keys);
}

/* ------------------------------------------------------------- the FPR */

TEST(fpr_within_binomial_bound_of_2_pow_minus_f)
{
    size_t n = FK_TEST_SCALE(100000, 20000);
    uint64_t *keys = fill_positives(malloc(n * sizeof *keys), n);
    static const uint32_t widths[] = { 1, 2, 4, 7, 8, 9, 12, 16, 20 };
    for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++) {
        uint32_t f = widths[w];
        fk_params p = params_bits(f, 5);
        fk_fuse *fu = build_u64(&p, n, keys);
        double r = ldexp(1.0, -(int)f);
        /* enough queries to expect ~256 hits, at most 2^24 */
        uint64_t q = (uint64_t)fmin(256.0 / r, (double)(UINT64_C(1) << FK_TEST_SCALE(24, 21)));
        uint64_t hits = false_positives_u64(fu, q);
        CHECK_MSG(within_binomial(hits, q, r), "f = %u: %llu of %llu, expected %.1f", f,
                  (unsigned long long)hits, (unsigned long long)q, (double)q * r);
        fk_stats st;
        fk_fuse_stats(fu, &st);
        CHECK(st.expected_fpr == r);
        /* about 1.125 f bits a key at 10^5 (the size factor is 1.17 there) */
        CHECK_MSG(st.bits_per_item < 1.25 * f + 1.0, "f = %u: %.2f bits", f, st.bits_per_item);
        fk_fuse_free(fu);
    }
    free(keys);
}

TEST(eight_byte_hash_is_xxh3_bit_for_bit)
{
    /* the 8-byte path (a constant per seed, computed once) against xxHash
     * itself, over seeds that exercise every bit of the seed folding */
    uint64_t rng = 17, differ = 0;
    for (int s = 0; s < 200; s++) {
        uint64_t seed = s < 4 ? (uint64_t[]){ 0, 1, UINT64_MAX, UINT64_C(1) << 63 }[s]
                              : check_rng(&rng);
        uint64_t flip = fk_fuse_flip_of(seed);
        for (int i = 0; i < 500; i++) {
            uint64_t k = i < 2 ? (uint64_t)i * UINT64_MAX : check_rng(&rng);
            uint8_t le[8];
            fk_le_put64(le, k);
            uint64_t want = XXH3_64bits_withSeed(le, 8, seed);
            differ += fk_fuse_hash8(k, flip) != want;
            differ += fk_fuse_hash(le, 8, seed) != want;
            differ += fk_fuse_hash_u64(k, seed) != want;
        }
    }
    CHECK_EQ_U64(differ, 0);
    /* other lengths take xxHash's own path */
    static const char text[40] = "the quick brown fox jumps over the lazy";
    for (size_t len = 0; len <= sizeof text; len++)
        CHECK(fk_fuse_hash(text, len, 5) == XXH3_64bits_withSeed(text, len, 5));
}

TEST(width_from_fpr)
{
    CHECK_EQ_U64(fk_fuse_fp_bits_for(0.5), 1);
    CHECK_EQ_U64(fk_fuse_fp_bits_for(0.01), 7);
    CHECK_EQ_U64(fk_fuse_fp_bits_for(0.004), 8);
    CHECK_EQ_U64(fk_fuse_fp_bits_for(1.0 / 256), 8);
    CHECK_EQ_U64(fk_fuse_fp_bits_for(0.0039), 9);
    CHECK_EQ_U64(fk_fuse_fp_bits_for(1e-12), 32);
    CHECK_EQ_U64(fk_fuse_fp_bits_for(0.0), 0);
    CHECK_EQ_U64(fk_fuse_fp_bits_for(NAN), 0);
    fk_params p = fk_params_make(0, 0.001);
    uint64_t k = 1;
    fk_fuse *fu = build_u64(&p, 1, &k);
    CHECK_EQ_U64(fuse_desc(fu).fingerprint_bits, 10);
    fk_fuse_free(fu);
}

/* --------------------------------------------------------------- shards */

TEST(sharded_builds_same_bits_for_any_threads)
{
    size_t n = FK_TEST_SCALE(100000, 20000);
    uint64_t *keys = malloc(n * sizeof *keys);
    for (size_t i = 0; i < n; i++)
        keys[i] = keys_positive(i % (n - 100)); /* 100 duplicates */
    fk_fuse_testing.shard_keys = 3000;
    fk_fuse_testing.stage_bytes = 8 * 10000; /* a few shards per staging pass */
    static const uint32_t widths[] = { 8, 16, 32, 13 };
    for (size_t w = 0; w < 4; w++) {
        fk_params p = params_bits(widths[w], 11);
        fk_fuse *one = build_u64(&p, n, keys);
        CHECK(fuse_desc(one).shards == (n + 2999) / 3000);
        CHECK_EQ_U64(fuse_desc(one).items, n - 100);
        CHECK_EQ_U64(false_negatives_u64(one, n, keys), 0);
        CHECK(fuse_desc(one).key_passes > 2); /* the count pass and several staging passes */
        for (uint32_t t = 2; t <= 5; t += 3) {
            p.threads = t;
            fk_fuse *many = build_u64(&p, n, keys);
            CHECK_MSG(same_bytes(one, many), "f = %u, %u threads", widths[w], t);
            fk_fuse_free(many);
        }
        /* FPR of the sharded layout */
        uint64_t q = 1u << 20, hits = false_positives_u64(one, q);
        CHECK(within_binomial(hits, q, ldexp(1.0, -(int)widths[w])));
        /* batches equal single lookups on the sharded path */
        bool *out = malloc(q * sizeof *out);
        uint64_t *mixed = malloc(q * sizeof *mixed);
        for (uint64_t i = 0; i < q; i++)
            mixed[i] = i % 2 ? keys[i % n] : keys_negative(i);
        fk_filter_contains_many_u64(fk_fuse_as_filter(one), q, mixed, out);
        size_t differ = 0;
        for (uint64_t i = 0; i < q; i++)
            differ += out[i] != fk_fuse_contains_u64(one, mixed[i]);
        CHECK_EQ_U64(differ, 0);
        free(out);
        free(mixed);
        /* save, load, same answers */
        reloads_exact(one, n, keys);
        fk_fuse_free(one);
    }
    memset(&fk_fuse_testing, 0, sizeof fk_fuse_testing);
    free(keys);
}

/* ------------------------------------------------ files and interfaces */

TEST(save_load_round_trip_every_width)
{
    size_t n = 3000;
    uint64_t *keys = fill_positives(malloc(n * sizeof *keys), n);
    for (uint32_t f = 1; f <= 32; f++) {
        fk_params p = params_bits(f, f * 3);
        fk_fuse *fu = build_u64(&p, n, keys);
        size_t len;
        uint8_t *buf = saved(fu, &len);
        uint64_t cells = fuse_desc(fu).cells;
        CHECK_EQ_U64(len, 128 + 8 + (cells * f + 7) / 8);
        fk_fuse *back = NULL;
        CHECK_STATUS(fk_fuse_load(buf, len, &back), FK_OK);
        size_t differ = 0;
        for (uint64_t i = 0; back && i < 20000; i++) {
            uint64_t k = i < n ? keys[i] : keys_negative(i);
            differ += fk_fuse_contains_u64(fu, k) != fk_fuse_contains_u64(back, k);
        }
        CHECK_EQ_U64(differ, 0);
        CHECK(back && same_bytes(fu, back));
        /* any flipped byte is caught (checksum), any truncation too */
        for (size_t at = 0; at < len; at += len / 7 + 1) {
            buf[at] ^= 0x20;
            fk_fuse *bad = NULL;
            fk_status s = fk_fuse_load(buf, len, &bad);
            CHECK(s == FK_ECORRUPT || s == FK_EUNSUPPORTED);
            CHECK(bad == NULL);
            buf[at] ^= 0x20;
        }
        fk_fuse *cut = NULL;
        CHECK_STATUS(fk_fuse_load(buf, len - 1, &cut), FK_ECORRUPT);
        fk_fuse_free(back);
        free(buf);
        fk_fuse_free(fu);
    }
    free(keys);
}

TEST(loader_refuses_forged_headers)
{
    uint64_t keys[120];
    fill_positives(keys, 120);
    fk_params p = params_bits(8, 0);
    fk_fuse *fu = build_u64(&p, 100, keys);
    size_t len;
    uint8_t *good = saved(fu, &len);
    uint8_t *buf = malloc(len);
    struct { unsigned param; uint64_t value; } bad[] = {
        { 0, 0 }, { 0, 33 }, { 0, 16 },         /* width: out of range, or payload mismatch */
        { 1, 0 }, { 1, 2 }, { 1, UINT64_MAX },  /* shards */
        { 2, 0 }, { 2, 3 }, { 2, 1u << 19 },    /* segment length */
        { 3, 0 }, { 3, UINT64_MAX },            /* segments */
        { 5, 4 },                               /* arity */
        { 6, 1 }, { 7, 1 },                     /* unused */
    };
    for (size_t t = 0; t < sizeof bad / sizeof bad[0]; t++) {
        forge_param(buf, good, len, bad[t].param, bad[t].value);
        fk_fuse *out = NULL;
        CHECK_MSG(fk_fuse_load(buf, len, &out) == FK_ECORRUPT, "param %u = %llu",
                  bad[t].param, (unsigned long long)bad[t].value);
        CHECK(out == NULL);
    }
    /* a one-shard filter's seed table holds 0 */
    memcpy(buf, good, len);
    buf[120] = 1;
    forge_reseal(buf, len);
    fk_fuse *out = NULL;
    CHECK_STATUS(fk_fuse_load(buf, len, &out), FK_ECORRUPT);
    /* bits past the last packed cell are 0: the payload's content is
     * checked (f = 5 over a cell count that is not a multiple of 8) */
    fk_params p5 = params_bits(5, 0);
    fk_fuse *five = NULL;
    for (size_t n = 1; n < 120 && (!five || fuse_desc(five).cells % 8 == 0); n++) {
        fk_fuse_free(five);
        five = build_u64(&p5, n, keys);
    }
    size_t len5;
    uint8_t *b5 = saved(five, &len5);
    uint64_t bits = fuse_desc(five).cells * 5;
    CHECK(bits % 8 != 0);
    b5[128 + bits / 8] |= (uint8_t)(0x80u);
    forge_reseal(b5, len5);
    CHECK_STATUS(fk_fuse_load(b5, len5, &out), FK_ECORRUPT);
    CHECK(out == NULL);
    free(b5);
    fk_fuse_free(five);
    free(buf);
    free(good);
    fk_fuse_free(fu);
}

TEST(build_and_build_u64_agree)
{
    size_t n = 20000;
    uint64_t *keys = malloc(n * sizeof *keys);
    uint8_t (*le)[8] = malloc(n * sizeof *le);
    const void **bk = malloc(n * sizeof *bk);
    size_t *bl = malloc(n * sizeof *bl);
    for (size_t i = 0; i < n; i++) {
        keys[i] = keys_positive(i);
        fk_le_put64(le[i], keys[i]);
        bk[i] = le[i];
        bl[i] = 8;
    }
    for (uint32_t f = 7; f <= 16; f += 9) {
        fk_params p = params_bits(f, 77);
        fk_fuse *a = NULL, *b = NULL;
        CHECK_STATUS(fk_fuse_build(&p, n, bk, bl, &a), FK_OK);
        CHECK_STATUS(fk_fuse_build_u64(&p, n, keys, &b), FK_OK);
        CHECK(a && b && same_bytes(a, b));
        /* the generic calls give the same filter */
        fk_filter *g = NULL, *h = NULL;
        CHECK_STATUS(fk_filter_build(&fk_fuse_ops, &p, n, bk, bl, &g), FK_OK);
        CHECK_STATUS(fk_filter_build_u64(&fk_fuse_ops, &p, n, keys, &h), FK_OK);
        CHECK(g && h && same_bytes(a, (fk_fuse *)g) && same_bytes(a, (fk_fuse *)h));
        /* the key orders do not matter */
        for (size_t i = 0; i < n / 2; i++) {
            uint64_t t = keys[i];
            keys[i] = keys[n - 1 - i];
            keys[n - 1 - i] = t;
        }
        fk_fuse *c = build_u64(&p, n, keys);
        CHECK(c && same_bytes(a, c));
        size_t differ = 0;
        for (uint64_t i = 0; g && i < 50000; i++) {
            uint64_t k = i % 3 ? keys_negative(i) : keys[i % n];
            uint8_t b8[8];
            fk_le_put64(b8, k);
            bool want = fk_fuse_contains_u64(a, k);
            differ += fk_fuse_contains(a, b8, 8) != want;
            differ += fk_filter_contains(g, b8, 8) != want;
            differ += fk_filter_contains_u64(g, k) != want;
        }
        CHECK_EQ_U64(differ, 0);
        fk_filter_free(g);
        fk_filter_free(h);
        fk_fuse_free(a);
        fk_fuse_free(b);
        fk_fuse_free(c);
    }
    free(keys);
    free(le);
    free(bk);
    free(bl);
}

TEST(batches_equal_single_lookups)
{
    size_t n = 50000;
    uint64_t *keys = malloc(2 * n * sizeof *keys);
    const void **bk = malloc(2 * n * sizeof *bk);
    size_t *bl = malloc(2 * n * sizeof *bl);
    bool *out = malloc(2 * n * sizeof *out);
    for (size_t i = 0; i < 2 * n; i++) {
        keys[i] = i % 2 ? keys_negative(i) : keys_positive(i / 2);
        bk[i] = &keys[i];
        bl[i] = 8;
    }
    uint64_t *in = malloc(n * sizeof *in);
    for (size_t i = 0; i < n; i++)
        in[i] = keys_positive(i);
    for (uint32_t f = 5; f <= 32; f += 3) {
        fk_params p = params_bits(f, 2);
        fk_fuse *fu = build_u64(&p, n, in);
        for (size_t len = 0; len <= 2 * n; len = len * 3 + 1) {
            fk_filter_contains_many_u64(fk_fuse_as_filter(fu), len, keys, out);
            size_t differ = 0;
            for (size_t i = 0; i < len; i++)
                differ += out[i] != fk_fuse_contains_u64(fu, keys[i]);
            fk_filter_contains_many(fk_fuse_as_filter(fu), len, bk, bl, out);
            for (size_t i = 0; i < len; i++)
                differ += out[i] != fk_fuse_contains(fu, bk[i], 8);
            CHECK_EQ_U64(differ, 0);
        }
        /* the portable lookups answer as the ones chosen at run time */
        bool *chosen = malloc(2 * n * sizeof *chosen);
        for (size_t i = 0; i < 2 * n; i++)
            chosen[i] = fk_fuse_contains_u64(fu, keys[i]);
        fk_fuse_testing.plain_lookups = true;
        fk_fuse_choose_paths(fu);
        size_t differ = 0;
        for (size_t i = 0; i < 2 * n; i++)
            differ += (chosen[i] != fk_fuse_contains_u64(fu, keys[i])) +
                      (chosen[i] != fk_fuse_contains(fu, bk[i], 8));
        CHECK_MSG(differ == 0, "f = %u: %zu answers differ", f, differ);
        fk_fuse_testing.plain_lookups = false;
        free(chosen);
        fk_fuse_free(fu);
    }
    /* NULL rules */
    fk_filter_contains_many_u64(NULL, 3, keys, out);
    CHECK(!out[0] && !out[1] && !out[2]);
    free(keys);
    free(bk);
    free(bl);
    free(out);
    free(in);
}

/* Every lookup path (whole 8-, 16- and 32-bit cells, packed and narrow
 * widths; one shard read by segment arrays, a few keys' packed filter
 * whose segments do not start on byte boundaries (4-cell segments at odd
 * widths), and sharded; BMI2 and portable) answers as the generic key ->
 * cells mapping that fk_fuse_locate computes, through the u64 and the
 * byte calls, for present and absent keys. */
TEST(every_path_answers_as_the_generic_mapping)
{
    static const uint32_t widths[] = { 1, 5, 7, 8, 9, 12, 16, 17, 24, 31, 32 };
    static const size_t sizes[] = { 4000, 1, 2, 4000 }; /* the last sharded */
    size_t probes = 20000;
    uint64_t *in = fill_positives(malloc(4000 * sizeof *in), 4000);
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        size_t n = sizes[si];
        bool sharded = si == 3;
        fk_fuse_testing.shard_keys = sharded ? 1500 : 0;
        for (size_t wi = 0; wi < sizeof widths / sizeof widths[0]; wi++) {
            fk_params p = params_bits(widths[wi], 11 + wi);
            fk_fuse *fu = build_u64(&p, n, in);
            CHECK_EQ_U64(fuse_desc(fu).shards > 1, (uint64_t)sharded);
            if (n < 4000) /* 4-cell segments */
                CHECK_EQ_U64(fuse_desc(fu).segment_length, 4);
            for (int plain = 0; plain <= 1; plain++) {
                fk_fuse_testing.plain_lookups = plain;
                fk_fuse_choose_paths(fu);
                size_t differ = 0, hits = 0;
                for (size_t i = 0; i < probes; i++) {
                    uint64_t k = i < n ? in[i] : keys_negative(i);
                    uint8_t b8[8];
                    fk_le_put64(b8, k);
                    fk_fuse_location loc;
                    CHECK_STATUS(fk_fuse_locate(fu, b8, 8, &loc), FK_OK);
                    bool want = loc.xor_of_cells == loc.fingerprint;
                    hits += want;
                    differ += (fk_fuse_contains_u64(fu, k) != want) +
                              (fk_fuse_contains(fu, b8, 8) != want);
                }
                CHECK_MSG(differ == 0, "n = %zu, f = %u, sharded %d, plain %d: %zu answers differ",
                          n, widths[wi], (int)sharded, plain, differ);
                CHECK(hits >= n); /* every present key, then 2^-f of the rest */
            }
            fk_fuse_testing.plain_lookups = false;
            fk_fuse_free(fu);
        }
    }
    fk_fuse_testing.shard_keys = 0;
    free(in);
}

TEST(locate_shows_the_three_cells)
{
    uint64_t keys[1000];
    fill_positives(keys, 1000);
    fk_params p = params_bits(8, 0);
    fk_fuse *fu = build_u64(&p, 1000, keys);
    uint32_t seg = fuse_desc(fu).segment_length;
    for (size_t i = 0; i < 1000; i++) {
        uint8_t b8[8];
        fk_le_put64(b8, keys[i]);
        fk_fuse_location loc;
        CHECK_STATUS(fk_fuse_locate(fu, b8, 8, &loc), FK_OK);
        CHECK(loc.xor_of_cells == loc.fingerprint);
        /* one cell in each of three consecutive segments */
        CHECK(loc.cell[1] / seg == loc.cell[0] / seg + 1);
        CHECK(loc.cell[2] / seg == loc.cell[0] / seg + 2);
        CHECK(loc.cell[2] < fuse_desc(fu).cells);
    }
    fk_fuse_location loc;
    CHECK_STATUS(fk_fuse_locate(NULL, "a", 1, &loc), FK_EINVAL);
    CHECK_STATUS(fk_fuse_locate(fu, NULL, 1, &loc), FK_EINVAL);
    fk_fuse_free(fu);
}

TEST(static_kind_through_the_generic_interface)
{
    const fk_ops *ops = &fk_fuse_ops;
    CHECK_STATUS(fk_ops_check(ops), FK_OK);
    CHECK(fk_ops_caps(ops) & FK_CAP_STATIC);
    CHECK(fk_ops_caps(ops) & FK_CAP_SERIALIZE);
    CHECK(!(fk_ops_caps(ops) & FK_CAP_REMOVE));
    fk_params p = fk_params_make(1000, 0.004);
    fk_filter *f = NULL;
    CHECK_STATUS(fk_filter_new(ops, &p, &f), FK_EUNSUPPORTED);
    CHECK(f == NULL);
    uint64_t keys[3] = { 1, 2, 3 };
    CHECK_STATUS(fk_filter_build_u64(ops, &p, 3, keys, &f), FK_OK);
    CHECK_STATUS(fk_filter_insert(f, "x", 1), FK_EUNSUPPORTED);
    CHECK_STATUS(fk_filter_insert_u64(f, 4), FK_EUNSUPPORTED);
    CHECK_STATUS(fk_filter_remove_u64(f, 1), FK_EUNSUPPORTED);
    CHECK_STATUS(fk_filter_remove(f, "x", 1), FK_EUNSUPPORTED);
    uint64_t count = 9;
    CHECK_STATUS(fk_filter_count(f, "x", 1, &count), FK_EUNSUPPORTED);
    fk_filter *g = NULL;
    CHECK_STATUS(fk_filter_build_u64(ops, &p, 3, keys, &g), FK_OK);
    CHECK_STATUS(fk_filter_merge(f, g), FK_EUNSUPPORTED);
    CHECK(fk_filter_contains_u64(f, 1) && fk_filter_contains_u64(f, 3));
    fk_stats st;
    fk_filter_stats(f, &st);
    CHECK_EQ_U64(st.items, 3);
    CHECK_EQ_U64(st.capacity, 1000);
    /* sizing: what a build of capacity keys would take */
    fk_sizing z;
    CHECK_STATUS(fk_ops_size(ops, &p, &z), FK_OK);
    CHECK(z.expected_fpr == 1.0 / 256);
    fk_filter_free(f);
    fk_filter_free(g);
}

TEST(bad_input_of_every_class)
{
    bad_builds_refused();
    uint64_t k = 1;
    fk_params p = params_bits(8, 0);
    /* NULL filter: describe a no-op */
    fk_fuse_description d;
    memset(&d, 0xA5, sizeof d);
    fk_fuse_describe(NULL, &d); /* no-op */
    CHECK_EQ_U64(d.items, UINT64_C(0xA5A5A5A5A5A5A5A5));
    fk_fuse_describe(NULL, NULL);
    /* a NULL key of length 0 is the empty key */
    fk_fuse *g = build_u64(&p, 1, &k);
    CHECK(!fk_fuse_contains(g, NULL, 3));
    /* a byte limit below what the keys need: FK_ELIMIT, nothing built */
    uint64_t many[1000];
    for (size_t i = 0; i < 1000; i++)
        many[i] = keys_positive(i);
    fk_params q = p;
    q.max_bytes = 1000;
    fk_fuse *fu = (fk_fuse *)&k;
    CHECK_STATUS(fk_fuse_build_u64(&q, 1000, many, &fu), FK_ELIMIT);
    CHECK(fu == NULL);
    q.max_bytes = 4000; /* 1000 keys at f = 8: about 1.2 KiB of cells */
    CHECK_STATUS(fk_fuse_build_u64(&q, 1000, many, &fu), FK_OK);
    fk_fuse_free(fu);
    fk_fuse_sizing z;
    CHECK_STATUS(fk_fuse_size(1000, 0, &z), FK_EINVAL);
    CHECK_STATUS(fk_fuse_size(1000, 8, NULL), FK_EINVAL);
    CHECK_STATUS(fk_fuse_size(1000, 8, &z), FK_OK);
    CHECK_STATUS(fk_fuse_size(UINT64_C(1) << 40, 32, &z), FK_EINVAL); /* over the memory cap */
    fk_fuse_free(g);
}

TEST(bits_per_item_at_a_million)
{
    /* 1.125 f + the rounding to whole segments: at 10^6 keys, 9.05 bits at
     * f = 8 and 18.1 at f = 16 (the 10^7 figures are the bench's) */
    size_t n = FK_TEST_SCALE(1000000, 200000);
    uint64_t *keys = fill_positives(malloc(n * sizeof *keys), n);
    for (uint32_t f = 8; f <= 16; f += 8) {
        fk_params p = params_bits(f, 0);
        fk_fuse *fu = build_u64(&p, n, keys);
        fk_stats st;
        fk_fuse_stats(fu, &st);
        if (n >= 1000000) /* the size factor reaches 1.125 at 10^6 keys */
            CHECK_MSG(st.bits_per_item <= 1.135 * f + 0.06, "f = %u: %.3f", f, st.bits_per_item);
        else
            CHECK_MSG(st.bits_per_item <= 1.2 * f + 0.2, "f = %u: %.3f", f, st.bits_per_item);
        /* below the reference's 20 bytes a key */
        CHECK_MSG(fuse_desc(fu).temp_bytes < 20 * (uint64_t)n, "%.1f bytes a key",
                  (double)fuse_desc(fu).temp_bytes / (double)n);
        CHECK_EQ_U64(false_negatives_u64(fu, n, keys), 0);
        fk_fuse_free(fu);
    }
    free(keys);
}

int main(void)
{
    RUN(every_size_to_2000_random_u64);
    RUN(sweep_to_100000_byte_keys);
    RUN(sequential_duplicate_heavy_and_adversarial_keys);
    RUN(empty_and_tiny_filters);
    RUN(no_failures_at_the_hard_sizes);
    RUN(ten_thousand_random_sets);
    RUN(retry_bound);
    RUN(fpr_within_binomial_bound_of_2_pow_minus_f);
    RUN(eight_byte_hash_is_xxh3_bit_for_bit);
    RUN(width_from_fpr);
    RUN(sharded_builds_same_bits_for_any_threads);
    RUN(save_load_round_trip_every_width);
    RUN(loader_refuses_forged_headers);
    RUN(build_and_build_u64_agree);
    RUN(batches_equal_single_lookups);
    RUN(every_path_answers_as_the_generic_mapping);
    RUN(locate_shows_the_three_cells);
    RUN(static_kind_through_the_generic_interface);
    RUN(bad_input_of_every_class);
    RUN(bits_per_item_at_a_million);
    return check_report();
}
