/* tests/test_bloom.c: the standard Bloom filter and the sizing math. */
#include <math.h>
#include <stdlib.h>
#include "check.h"
#include "keys.h"
#include "../bloom/bloom.h"
#include "../bloom/bloom_internal.h"
#include "describe.h"

/* ------------------------------------------------------------- sizing */

TEST(sizing_matches_hand_computed_values)
{
    /* m = ceil(-n ln p / ln2^2), k = round(m/n ln2), computed by hand. */
    CHECK_EQ_U64(fk_size_bloom_bits(1000, 0.01), 9586);
    CHECK_EQ_U64(fk_size_bloom_hashes(9586, 1000), 7);
    CHECK_EQ_U64(fk_size_bloom_bits(1000000, 0.001), 14377588);
    CHECK_EQ_U64(fk_size_bloom_hashes(14377588, 1000000), 10);
    CHECK_EQ_U64(fk_size_bloom_bits(100000, 0.0001), 1917012);
    CHECK_EQ_U64(fk_size_bloom_hashes(1917012, 100000), 13);
    CHECK_EQ_U64(fk_size_bloom_bits(1, 0.5), 2);
    CHECK_EQ_U64(fk_size_bloom_hashes(2, 1), 1);
    CHECK(fabs(fk_theory_bloom_fpr(9586, 7, 1000) - 0.010034531962677978) < 1e-12);
    CHECK(fabs(fk_theory_bloom_fpr(14377588, 10, 1e6) - 0.0010000247179482108) < 1e-12);
    CHECK(fabs(fk_theory_bloom_items(9586, 7, 4000) - 739.5465250848231) < 1e-6);
    CHECK(isinf(fk_theory_bloom_items(64, 3, 64)));
}

TEST(sizing_rejects_what_cannot_be_sized)
{
    CHECK_EQ_U64(fk_size_bloom_bits(0, 0.01), 0);
    CHECK_EQ_U64(fk_size_bloom_bits(10, 0.0), 0);
    CHECK_EQ_U64(fk_size_bloom_bits(10, 1.0), 0);
    CHECK_EQ_U64(fk_size_bloom_bits(10, NAN), 0);
    CHECK_EQ_U64(fk_size_bloom_bits(UINT64_MAX, 1e-12), 0); /* overflows uint64_t */
    CHECK_EQ_U64(fk_size_bloom_hashes(0, 10), 0);
    CHECK_EQ_U64(fk_size_bloom_hashes(10, 0), 0);
    CHECK_EQ_U64(fk_size_bloom_hashes(UINT64_C(1) << 40, 1), FK_BLOOM_MAX_HASHES);
}

/* ------------------------------------------------------- bad arguments */

static fk_status try_new(fk_params p)
{
    fk_bloom *b = (fk_bloom *)&p; /* not NULL: the call must reset it */
    fk_status s = fk_bloom_new(&p, &b);
    CHECK_MSG(s == FK_OK || b == NULL, "*out must be NULL on error (status %d)", s);
    fk_bloom_free(b);
    return s;
}

TEST(bad_params_are_rejected_with_null_out)
{
    fk_params ok = fk_params_make(1000, 0.01);
    CHECK_STATUS(try_new(ok), FK_OK);
    fk_params p = ok; p.capacity = 0;        CHECK_STATUS(try_new(p), FK_EINVAL);
    p = ok; p.fpr = 0.0;                     CHECK_STATUS(try_new(p), FK_EINVAL);
    p = ok; p.fpr = 1.0;                     CHECK_STATUS(try_new(p), FK_EINVAL);
    p = ok; p.fpr = -0.01;                   CHECK_STATUS(try_new(p), FK_EINVAL);
    p = ok; p.fpr = 1.5;                     CHECK_STATUS(try_new(p), FK_EINVAL);
    p = ok; p.fpr = NAN;                     CHECK_STATUS(try_new(p), FK_EINVAL);
    p = ok; p.fpr = INFINITY;                CHECK_STATUS(try_new(p), FK_EINVAL);
    p = ok; p.hashes = FK_BLOOM_MAX_HASHES + 1; CHECK_STATUS(try_new(p), FK_EINVAL);
    p = ok; p.reserved = 1;                  CHECK_STATUS(try_new(p), FK_EINVAL);
    /* sizes that overflow or pass the memory cap */
    p = ok; p.capacity = UINT64_MAX; p.fpr = 1e-12; CHECK_STATUS(try_new(p), FK_EINVAL);
    p = ok; p.bits = UINT64_MAX;             CHECK_STATUS(try_new(p), FK_EINVAL);
    p = ok; p.bits = FK_MEMORY_CAP * 8 + 64; CHECK_STATUS(try_new(p), FK_EINVAL);
    p = ok; p.capacity = UINT64_C(1) << 40;  CHECK_STATUS(try_new(p), FK_EINVAL);

    fk_bloom *b = NULL;
    CHECK_STATUS(fk_bloom_new(NULL, &b), FK_EINVAL);
    CHECK(b == NULL);
    CHECK_STATUS(fk_bloom_new(&ok, NULL), FK_EINVAL);
}

TEST(null_and_empty_keys)
{
    fk_params p = fk_params_make(100, 0.01);
    fk_bloom *b = NULL;
    CHECK_STATUS(fk_bloom_new(&p, &b), FK_OK);
    CHECK_STATUS(fk_bloom_insert(b, NULL, 3), FK_EINVAL);
    CHECK(!fk_bloom_contains(b, NULL, 3));
    CHECK_STATUS(fk_bloom_insert(NULL, "a", 1), FK_EINVAL);
    CHECK(!fk_bloom_contains(NULL, "a", 1));
    CHECK_EQ_U64(bloom_desc(b).set_bits, 0);

    /* a zero-length key is a key like any other, with or without a pointer */
    CHECK(!fk_bloom_contains(b, NULL, 0));
    CHECK_STATUS(fk_bloom_insert(b, NULL, 0), FK_OK);
    CHECK(fk_bloom_contains(b, NULL, 0));
    CHECK(fk_bloom_contains(b, "", 0));
    fk_bloom_free(b);
    fk_bloom_free(NULL);
}

/* ---------------------------------------------------- no false negatives */

TEST(no_false_negatives_on_a_million_integer_keys)
{
    const uint64_t n = 1000000;
    fk_params p = fk_params_make(n, 0.01);
    p.seed = 11;
    fk_bloom *b = NULL;
    CHECK_STATUS(fk_bloom_new(&p, &b), FK_OK);
    uint64_t rng = 1;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t k = check_rng(&rng);
        fk_bloom_insert(b, &k, sizeof k);
    }
    uint64_t missing = 0;
    rng = 1;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t k = check_rng(&rng);
        missing += !fk_bloom_contains(b, &k, sizeof k);
    }
    CHECK_EQ_U64(missing, 0);
    fk_bloom_free(b);
}

TEST(no_false_negatives_on_a_million_string_keys)
{
    const uint64_t n = 1000000;
    fk_params p = fk_params_make(n, 0.001);
    fk_bloom *b = NULL;
    CHECK_STATUS(fk_bloom_new(&p, &b), FK_OK);
    char key[KEYS_MAX_LEN];
    for (uint64_t i = 0; i < n; i++) {
        size_t len = keys_realistic(i, key);
        fk_bloom_insert(b, key, len);
    }
    uint64_t missing = 0;
    for (uint64_t i = 0; i < n; i++) {
        size_t len = keys_realistic(i, key);
        missing += !fk_bloom_contains(b, key, len);
    }
    CHECK_EQ_U64(missing, 0);
    fk_bloom_free(b);
}

/* ------------------------------------------------------------------ FPR */

/* Fills a filter sized for n at fpr with n random keys and checks the rate
 * of false positives over `negatives` keys disjoint from them against the
 * theory (1 - e^{-kn/m})^k: within 5 binomial standard deviations, a bound
 * a correct filter misses with probability ~6e-7 at a fixed seed. */
static void check_fpr(double fpr, uint64_t n, uint64_t negatives, uint64_t seed)
{
    fk_params p = fk_params_make(n, fpr);
    p.seed = seed;
    fk_bloom *b = NULL;
    CHECK_STATUS(fk_bloom_new(&p, &b), FK_OK);
    if (!b)
        return;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t k = keys_positive(i);
        fk_bloom_insert(b, &k, sizeof k);
    }
    uint64_t fp = 0;
    for (uint64_t i = 0; i < negatives; i++) {
        uint64_t k = keys_negative(i);
        fp += fk_bloom_contains(b, &k, sizeof k);
    }
    double theory = fk_theory_bloom_fpr(bloom_desc(b).bits, bloom_desc(b).hashes, (double)n);
    double measured = (double)fp / (double)negatives;
    double sigma = sqrt(theory * (1 - theory) / (double)negatives);
    CHECK_MSG(fabs(measured - theory) <= 5 * sigma,
              "fpr %g: measured %.6g, theory %.6g, 5 sigma %.3g", fpr, measured, theory, 5 * sigma);
    CHECK_MSG(measured <= 1.5 * fpr, "fpr %g: measured %.6g above 1.5x target", fpr, measured);
    /* the fill-based estimate in stats agrees with the formula too */
    fk_stats st;
    fk_bloom_stats(b, &st);
    CHECK_MSG(fabs(st.expected_fpr - theory) <= 0.05 * theory,
              "stats.expected_fpr %.6g vs theory %.6g", st.expected_fpr, theory);
    fk_bloom_free(b);
}

TEST(fpr_within_binomial_bound_of_theory_at_1_percent) { check_fpr(0.01, 100000, 1000000, 21); }
TEST(fpr_within_binomial_bound_of_theory_at_0_1_percent) { check_fpr(0.001, 200000, 2000000, 22); }
TEST(fpr_within_binomial_bound_of_theory_at_0_01_percent) { check_fpr(0.0001, 200000, 4000000, 23); }

TEST(bits_per_item_is_1_44_log2_of_one_over_p)
{
    const double fprs[] = { 0.1, 0.01, 0.001, 0.0001 };
    for (size_t i = 0; i < 4; i++) {
        fk_params p = fk_params_make(1000000, fprs[i]);
        fk_bloom *b = NULL;
        CHECK_STATUS(fk_bloom_new(&p, &b), FK_OK);
        fk_stats st;
        fk_bloom_stats(b, &st);
        double ideal = 1.44 * log2(1.0 / fprs[i]);
        CHECK_MSG(fabs(st.bits_per_item - ideal) <= 0.06 * ideal,
                  "p %g: %.3f bits/item vs %.3f", fprs[i], st.bits_per_item, ideal);
        fk_bloom_free(b);
    }
}

TEST(half_the_bits_are_set_at_the_optimum)
{
    const uint64_t n = 200000;
    fk_params p = fk_params_make(n, 0.01);
    fk_bloom *b = NULL;
    CHECK_STATUS(fk_bloom_new(&p, &b), FK_OK);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t k = keys_positive(i);
        fk_bloom_insert(b, &k, sizeof k);
    }
    fk_stats st;
    fk_bloom_stats(b, &st);
    /* expected fill 1 - e^{-kn/m}; 7 probes on 9.59 bits/item: 0.518 */
    double expect = -expm1(-(double)bloom_desc(b).hashes * (double)n / (double)bloom_desc(b).bits);
    CHECK_MSG(fabs(st.load_factor - expect) < 0.005, "fill %.4f vs %.4f", st.load_factor, expect);
    CHECK_EQ_U64(st.items, n);
    CHECK_EQ_U64(st.capacity, n);
    fk_bloom_free(b);
}

/* ------------------------------------------------------ probes and seeds */

TEST(positions_are_the_bits_insert_sets)
{
    fk_params p = fk_params_make(1000, 0.001);
    fk_bloom *b = NULL;
    CHECK_STATUS(fk_bloom_new(&p, &b), FK_OK);
    uint64_t pos[FK_BLOOM_MAX_HASHES];
    CHECK_STATUS(fk_bloom_locate(b, "apple", 5, pos), FK_OK);
    fk_bloom_insert(b, "apple", 5);
    uint64_t distinct = 0;
    for (uint32_t i = 0; i < bloom_desc(b).hashes; i++) {
        CHECK(pos[i] < bloom_desc(b).bits);
        CHECK(fk_bloom_cell(b, pos[i]));
        int seen = 0;
        for (uint32_t j = 0; j < i; j++)
            seen |= pos[j] == pos[i];
        distinct += !seen;
    }
    CHECK_EQ_U64(bloom_desc(b).set_bits, distinct);
    CHECK_STATUS(fk_bloom_locate(b, NULL, 1, pos), FK_EINVAL);
    CHECK_STATUS(fk_bloom_locate(b, "a", 1, NULL), FK_EINVAL);
    fk_bloom_free(b);
}

static fk_bloom *filled(uint64_t seed, uint64_t n, uint64_t first)
{
    fk_params p = fk_params_make(n, 0.01);
    p.seed = seed;
    fk_bloom *b = NULL;
    if (fk_bloom_new(&p, &b) != FK_OK)
        return NULL;
    for (uint64_t i = first; i < first + n; i++) {
        uint64_t k = keys_positive(i);
        fk_bloom_insert(b, &k, sizeof k);
    }
    return b;
}

TEST(same_seed_same_bits_other_seed_other_false_positives)
{
    fk_bloom *a = filled(5, 20000, 0), *a2 = filled(5, 20000, 0), *c = filled(6, 20000, 0);
    CHECK(a && a2 && c);
    if (!a || !a2 || !c)
        return;
    uint64_t differ = 0;
    for (uint64_t i = 0; i < bloom_desc(a).bits; i++)
        differ += fk_bloom_cell(a, i) != fk_bloom_cell(a2, i);
    CHECK_EQ_U64(differ, 0);
    /* false positives of seed 5 and seed 6 are (almost) disjoint sets */
    uint64_t fp_a = 0, fp_c = 0, both = 0;
    for (uint64_t i = 0; i < 200000; i++) {
        uint64_t k = keys_negative(i);
        bool x = fk_bloom_contains(a, &k, sizeof k), y = fk_bloom_contains(c, &k, sizeof k);
        fp_a += x; fp_c += y; both += x && y;
    }
    CHECK(fp_a > 1000 && fp_c > 1000);          /* ~1% of 200k each */
    CHECK_MSG(both < fp_a / 10, "%llu shared of %llu", (unsigned long long)both,
              (unsigned long long)fp_a);         /* independent: ~1% overlap */
    fk_bloom_free(a); fk_bloom_free(a2); fk_bloom_free(c);
}

/* ---------------------------------------------- union, intersection, count */

TEST(union_and_intersection)
{
    const uint64_t n = 20000;
    fk_bloom *a = filled(9, n, 0), *b = filled(9, n, n / 2), *u = filled(9, n, 0);
    CHECK(a && b && u);
    if (!a || !b || !u)
        return;
    CHECK_STATUS(fk_filter_merge(fk_bloom_as_filter(u), fk_bloom_as_filter(b)), FK_OK);
    uint64_t missing = 0;
    for (uint64_t i = 0; i < n + n / 2; i++) {
        uint64_t k = keys_positive(i);
        missing += !fk_bloom_contains(u, &k, sizeof k);
    }
    CHECK_EQ_U64(missing, 0);
    double est = bloom_desc(u).estimated_items;
    CHECK_MSG(fabs(est - 1.5 * n) < 0.03 * 1.5 * n, "union estimate %.0f", est);

    CHECK_STATUS(fk_filter_intersect(fk_bloom_as_filter(a), fk_bloom_as_filter(b)), FK_OK);
    missing = 0;
    for (uint64_t i = n / 2; i < n; i++) {
        uint64_t k = keys_positive(i);
        missing += !fk_bloom_contains(a, &k, sizeof k);
    }
    CHECK_EQ_U64(missing, 0);
    /* keys only in one side are mostly gone */
    uint64_t left = 0;
    for (uint64_t i = 0; i < n / 2; i++) {
        uint64_t k = keys_positive(i);
        left += fk_bloom_contains(a, &k, sizeof k);
    }
    CHECK_MSG(left < n / 20, "%llu one-sided keys survive the intersection", (unsigned long long)left);
    CHECK_STATUS(fk_filter_merge(fk_bloom_as_filter(a), fk_bloom_as_filter(a)), FK_EINVAL);
    fk_bloom_free(a); fk_bloom_free(b); fk_bloom_free(u);
}

TEST(incompatible_union_is_rejected_and_changes_nothing)
{
    fk_bloom *a = filled(1, 1000, 0), *seed2 = filled(2, 1000, 0), *big = filled(1, 2000, 0);
    fk_params p = fk_params_make(1000, 0.01);
    p.seed = 1;
    p.hashes = 3;
    fk_bloom *k3 = NULL;
    CHECK_STATUS(fk_bloom_new(&p, &k3), FK_OK);
    uint64_t before = bloom_desc(a).set_bits;
    CHECK_STATUS(fk_filter_merge(fk_bloom_as_filter(a), fk_bloom_as_filter(seed2)), FK_EINVAL);
    CHECK_STATUS(fk_filter_merge(fk_bloom_as_filter(a), fk_bloom_as_filter(big)), FK_EINVAL);
    CHECK_STATUS(fk_filter_merge(fk_bloom_as_filter(a), fk_bloom_as_filter(k3)), FK_EINVAL);
    CHECK_STATUS(fk_filter_intersect(fk_bloom_as_filter(a), fk_bloom_as_filter(seed2)), FK_EINVAL);
    CHECK_STATUS(fk_filter_intersect(fk_bloom_as_filter(a), fk_bloom_as_filter(k3)), FK_EINVAL);
    CHECK_STATUS(fk_filter_merge(fk_bloom_as_filter(a), NULL), FK_EINVAL);
    CHECK_STATUS(fk_filter_intersect(NULL, fk_bloom_as_filter(a)), FK_EINVAL);
    CHECK_EQ_U64(bloom_desc(a).set_bits, before);
    fk_bloom_free(a); fk_bloom_free(seed2); fk_bloom_free(big); fk_bloom_free(k3);
}

TEST(estimate_counts_distinct_items_and_ignores_duplicates)
{
    const uint64_t n = 100000;
    fk_bloom *b = filled(3, n, 0);
    if (!b)
        return;
    double est = bloom_desc(b).estimated_items;
    CHECK_MSG(fabs(est - (double)n) < 0.02 * (double)n, "estimate %.0f of %llu", est,
              (unsigned long long)n);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t k = keys_positive(i);
        fk_bloom_insert(b, &k, sizeof k);
    }
    CHECK(bloom_desc(b).estimated_items == est);
    fk_stats st;
    fk_bloom_stats(b, &st);
    CHECK_EQ_U64(st.items, 2 * n);
    CHECK(bloom_desc(b).set_bits > 0 && bloom_desc(b).set_bits <= bloom_desc(b).bits);
    fk_bloom_free(b);
}

TEST(explicit_knobs_size_the_filter)
{
    fk_params p = fk_params_make(1000, 0.01);
    p.bits = 12345;
    p.hashes = 4;
    fk_bloom *b = NULL;
    CHECK_STATUS(fk_bloom_new(&p, &b), FK_OK);
    CHECK_EQ_U64(bloom_desc(b).bits, 12345);
    CHECK_EQ_U64(bloom_desc(b).hashes, 4);
    /* no bit at or past m is ever set: probes stay in [0, m) */
    for (uint64_t i = 0; i < 5000; i++) {
        uint64_t k = keys_positive(i);
        fk_bloom_insert(b, &k, sizeof k);
    }
    CHECK(!fk_bloom_cell(b, 12345));
    fk_stats st;
    fk_bloom_stats(b, &st);
    CHECK(st.load_factor > 0.5 && st.load_factor <= 1.0);
    fk_bloom_free(b);
}

int main(void)
{
    RUN(sizing_matches_hand_computed_values);
    RUN(sizing_rejects_what_cannot_be_sized);
    RUN(bad_params_are_rejected_with_null_out);
    RUN(null_and_empty_keys);
    RUN(no_false_negatives_on_a_million_integer_keys);
    RUN(no_false_negatives_on_a_million_string_keys);
    RUN(fpr_within_binomial_bound_of_theory_at_1_percent);
    RUN(fpr_within_binomial_bound_of_theory_at_0_1_percent);
    RUN(fpr_within_binomial_bound_of_theory_at_0_01_percent);
    RUN(bits_per_item_is_1_44_log2_of_one_over_p);
    RUN(half_the_bits_are_set_at_the_optimum);
    RUN(positions_are_the_bits_insert_sets);
    RUN(same_seed_same_bits_other_seed_other_false_positives);
    RUN(union_and_intersection);
    RUN(incompatible_union_is_rejected_and_changes_nothing);
    RUN(estimate_counts_distinct_items_and_ignores_duplicates);
    RUN(explicit_knobs_size_the_filter);
    return check_report();
}
