/* tests/test_bench_window.c: the sliding-window baselines of the bench
 * (bench/baselines/window_baselines.h) and the window workload's age bands
 * (bench/measure/window_stream.h). Links build/libfk_bench.a.
 *  - every key of age < N answers present, over a stream of 12 N inserts
 *    (checked after every insert at the oldest age in the window), and keys
 *    past a baseline's stated lifetime answer present only by chance;
 *  - at the moment each theory describes (APBF: a generation just full;
 *    rotating: both halves full), never-seen keys answer present within a
 *    binomial bound (5 sigma) of the theory, at fixed seeds;
 *  - the (k, l) tables: the default pairs and the least-memory pairs at 1%
 *    and 0.1% with their bits per window item;
 *  - the age bands' bounds. */
#include <math.h>
#include "check.h"
#include "../bench/baselines/window_baselines.h"
#include "../bench/keys/keygen.h"
#include "../bench/measure/window_stream.h"
#include "../registry/registry.h"

static fk_filter *make(const fk_ops *ops, uint64_t n, double fpr, uint64_t seed)
{
    fk_params p = { .capacity = n, .fpr = fpr, .seed = seed };
    fk_filter *f = NULL;
    CHECK_STATUS(fk_filter_new(ops, &p, &f), FK_OK);
    return f;
}

/* Inserts keys [from, to) of seed's stream, checking after each one that the
 * key of age n - 1 (the oldest the window promises) answers present.
 * Returns the misses. */
static uint64_t stream(fk_filter *f, uint64_t seed, uint64_t n, uint64_t from, uint64_t to)
{
    uint64_t misses = 0;
    for (uint64_t j = from; j < to; j++) {
        CHECK_STATUS(fk_filter_insert_u64(f, fkc_gen_word(seed, j)), FK_OK);
        if (j + 1 >= n)
            misses += !fk_filter_contains_u64(f, fkc_gen_word(seed, j + 1 - n));
    }
    return misses;
}

/* Keys of seed's stream beyond `inserted` never went in: the share of
 * `probes` of them answering present. */
static double never_rate(const fk_filter *f, uint64_t seed, uint64_t inserted, uint64_t probes)
{
    uint64_t hits = 0;
    for (uint64_t i = 0; i < probes; i++)
        hits += fk_filter_contains_u64(f, fkc_gen_word(seed, inserted + i));
    return (double)hits / (double)probes;
}

/* |measured - theory| within 5 binomial sigmas of `probes` draws. */
static int within_binomial(double measured, double theory, uint64_t probes)
{
    double sigma = sqrt(theory * (1 - theory) / (double)probes);
    return fabs(measured - theory) <= 5 * sigma;
}

TEST(no_false_negatives_inside_the_window)
{
    const fk_ops *kinds[] = { &fkc_rotating_bloom_ops, &fkc_apbf_ops, &fkc_apbf_best_ops };
    const uint64_t ns[] = { 1000, 4099 };
    for (size_t k = 0; k < 3; k++)
        for (size_t i = 0; i < 2; i++) {
            fk_filter *f = make(kinds[k], ns[i], 0.01, 7 + i);
            CHECK_MSG(stream(f, 7 + i, ns[i], 0, 12 * ns[i]) == 0, "%s n=%llu", kinds[k]->name,
                      (unsigned long long)ns[i]);
            fk_filter_free(f);
        }
}

TEST(keys_past_their_lifetime_are_forgotten)
{
    const fk_ops *kinds[] = { &fkc_rotating_bloom_ops, &fkc_apbf_ops, &fkc_apbf_best_ops };
    const uint64_t n = 2000, seed = 11, total = 10 * n;
    for (size_t k = 0; k < 3; k++) {
        fk_filter *f = make(kinds[k], n, 0.01, seed);
        stream(f, seed, n, 0, total);
        uint64_t window, lifetime;
        char shape[128];
        CHECK(fkc_window_baseline_shape(f, &window, &lifetime, shape, sizeof shape) == 0);
        CHECK_MSG(window >= n && lifetime > window, "%s: %llu..%llu", kinds[k]->name,
                  (unsigned long long)window, (unsigned long long)lifetime);
        /* every key of age >= lifetime: present only as a false positive */
        uint64_t probes = 0, hits = 0;
        for (uint64_t age = lifetime; age < total; age++, probes++)
            hits += fk_filter_contains_u64(f, fkc_gen_word(seed, total - 1 - age));
        fk_stats st;
        fk_filter_stats(f, &st);
        CHECK_MSG((double)hits / (double)probes <= st.expected_fpr + 5 * sqrt(st.expected_fpr / (double)probes),
                  "%s: %llu of %llu expired keys present (theory %g)", kinds[k]->name, (unsigned long long)hits,
                  (unsigned long long)probes, st.expected_fpr);
        fk_filter_free(f);
    }
}

TEST(apbf_fpr_matches_its_theory_at_a_full_generation)
{
    const uint64_t probes = FK_TEST_SCALE(400000, 200000);
    const double fprs[] = { 0.01, 0.001 };
    for (int best = 0; best < 2; best++)
        for (size_t i = 0; i < 2; i++) {
            const uint64_t n = 20000, seed = 3 + i;
            unsigned k, l;
            CHECK(fkc_apbf_choose(fprs[i], best, &k, &l) == 0);
            uint64_t g = (n + l - 1) / l;
            fk_filter *f = make(best ? &fkc_apbf_best_ops : &fkc_apbf_ops, n, fprs[i], seed);
            uint64_t total = (uint64_t)(k + l + 2) * g; /* every slice aged, newest generation full */
            stream(f, seed, n, 0, total);
            fk_stats st;
            fk_filter_stats(f, &st);
            double got = never_rate(f, seed, total, probes);
            CHECK_MSG(within_binomial(got, st.expected_fpr, probes), "apbf%s fpr %g: measured %g, theory %g",
                      best ? "-best" : "", fprs[i], got, st.expected_fpr);
            CHECK_MSG(st.expected_fpr <= fprs[i] * 1.05, "theory %g above the target %g", st.expected_fpr,
                      fprs[i]);
            fk_filter_free(f);
        }
}

TEST(rotating_fpr_matches_its_theory_with_both_halves_full)
{
    const uint64_t probes = FK_TEST_SCALE(400000, 200000);
    const double fprs[] = { 0.01, 0.001 };
    for (size_t i = 0; i < 2; i++) {
        const uint64_t n = 20000, seed = 5 + i;
        fk_filter *f = make(&fkc_rotating_bloom_ops, n, fprs[i], seed);
        stream(f, seed, n, 0, 4 * n); /* a rotation just due: both hold n keys */
        fk_stats st;
        fk_filter_stats(f, &st);
        double got = never_rate(f, seed, 4 * n, probes);
        CHECK_MSG(within_binomial(got, st.expected_fpr, probes), "rotating fpr %g: measured %g, theory %g", fprs[i],
                  got, st.expected_fpr);
        CHECK_MSG(st.expected_fpr <= fprs[i] * 1.05, "theory %g above the target %g", st.expected_fpr, fprs[i]);
        /* two Bloom filters of n at fpr/2: about 2 x 1.44 log2(2/fpr) bits per window item */
        double want = 2 * 1.4427 * log2(2 / fprs[i]);
        CHECK_MSG(fabs(st.bits_per_item - want) < 0.05 * want, "%.2f bits per window item, expected about %.2f",
                  st.bits_per_item, want);
        fk_filter_free(f);
    }
}

TEST(apbf_tables)
{
    unsigned k, l;
    CHECK(fkc_apbf_choose(0.01, 0, &k, &l) == 0 && k == 10 && l == 25);
    CHECK(fkc_apbf_choose(0.001, 0, &k, &l) == 0 && k == 13 && l == 23);
    /* the least memory, k (k + l) / (l ln 2) bits per window item: 19.70 at
     * 1%, 25.74 at 0.1% */
    CHECK(fkc_apbf_choose(0.01, 1, &k, &l) == 0);
    CHECK_MSG(k == 12 && l == 87, "best at 1%%: (%u, %u)", k, l);
    CHECK(fkc_apbf_choose(0.001, 1, &k, &l) == 0);
    CHECK_MSG(k == 16 && l == 139, "best at 0.1%%: (%u, %u)", k, l);
    CHECK(fkc_apbf_theory(16, 139, 0, 0) <= 0.001 && fkc_apbf_theory(16, 140, 0, 0) > 0.001);
    /* other rates: a pair that meets them */
    CHECK(fkc_apbf_choose(0.05, 0, &k, &l) == 0 && k + l <= 36 && fkc_apbf_theory(k, l, 0, 0) <= 0.05);
    CHECK(fkc_apbf_choose(0.0, 1, &k, &l) == -1 && fkc_apbf_choose(1.0, 0, &k, &l) == -1);
    fk_params bad = { .capacity = 0, .fpr = 0.01 };
    fk_filter *f = NULL;
    CHECK_STATUS(fk_filter_new(&fkc_apbf_ops, &bad, &f), FK_EINVAL);
    CHECK_STATUS(fk_filter_new(&fkc_rotating_bloom_ops, &bad, &f), FK_EINVAL);
}

TEST(byte_and_u64_calls_agree)
{
    const fk_ops *kinds[] = { &fkc_rotating_bloom_ops, &fkc_apbf_ops };
    for (size_t k = 0; k < 2; k++) {
        fk_filter *a = make(kinds[k], 1000, 0.01, 9), *b = make(kinds[k], 1000, 0.01, 9);
        for (uint64_t j = 0; j < 3000; j++) {
            uint64_t key = fkc_gen_word(9, j);
            uint8_t le[8];
            for (int i = 0; i < 8; i++)
                le[i] = (uint8_t)(key >> (8 * i));
            CHECK_STATUS(fk_filter_insert_u64(a, key), FK_OK);
            CHECK_STATUS(fk_filter_insert(b, le, 8), FK_OK);
        }
        uint64_t differ = 0;
        for (uint64_t j = 0; j < 6000; j++) {
            uint64_t key = fkc_gen_word(9, j);
            uint8_t le[8];
            for (int i = 0; i < 8; i++)
                le[i] = (uint8_t)(key >> (8 * i));
            differ += fk_filter_contains_u64(a, key) != fk_filter_contains(b, le, 8);
        }
        CHECK_MSG(differ == 0, "%s: %llu answers differ", kinds[k]->name, (unsigned long long)differ);
        fk_filter_free(a);
        fk_filter_free(b);
    }
}

TEST(age_bands)
{
    uint64_t lo, hi;
    fkc_band_ages(FKC_BAND_WINDOW, 700, 7000, &lo, &hi);
    CHECK(lo == 0 && hi == 700);
    fkc_band_ages(FKC_BAND_SLACK, 700, 7000, &lo, &hi);
    CHECK(lo == 700 && hi == 800);
    fkc_band_ages(FKC_BAND_EXPIRED, 700, 7000, &lo, &hi);
    CHECK(lo == 800 && hi == 1400);
    fkc_band_ages(FKC_BAND_OLD, 700, 7000, &lo, &hi);
    CHECK(lo == 1400 && hi == 7000);
    fkc_band_ages(FKC_BAND_NEVER, 700, 7000, &lo, &hi);
    CHECK(lo == hi);
    /* a short stream: the bands past it are empty, the window is what went in */
    fkc_band_ages(FKC_BAND_WINDOW, 700, 500, &lo, &hi);
    CHECK(lo == 0 && hi == 500);
    fkc_band_ages(FKC_BAND_SLACK, 700, 750, &lo, &hi);
    CHECK(lo == 700 && hi == 750);
    fkc_band_ages(FKC_BAND_EXPIRED, 700, 750, &lo, &hi);
    CHECK(lo == hi);
}

TEST(workload_counts_every_band)
{
    fkc_window_cfg cfg = { .n = 3000, .fpr = 0.01, .seed = 1, .stream = 0, .probes = 20000, .batches = 1 };
    fkc_window_row row;
    CHECK_STATUS(fkc_window_run(&cfg, &fkc_apbf_ops, 0, &row, NULL), FK_OK);
    /* the untimed sweep looks up every key of the stream once */
    CHECK_EQ_U64(row.window_checked, 10 * cfg.n);
    CHECK_EQ_U64(row.window_misses, 0);
    CHECK_EQ_U64(row.present[FKC_BAND_WINDOW], row.probes[FKC_BAND_WINDOW]);
    for (int b = 0; b < FKC_BANDS; b++)
        CHECK_MSG(row.probes[b] >= cfg.probes, "band %s: %llu probes", fkc_band_names[b],
                  (unsigned long long)row.probes[b]);
    /* APBF (10, 25) keeps a key at most 26 g = 3120 < 8N/7 inserts */
    CHECK(fkc_window_rate(&row, FKC_BAND_EXPIRED) < 0.02);
    CHECK(fkc_window_rate(&row, FKC_BAND_NEVER) < 0.02 && fkc_window_rate(&row, FKC_BAND_NEVER) > 0.002);
    CHECK(isnan(row.insert_batch_ns)); /* no batch slot */
    /* the reference takes n keys: no band past the window */
    CHECK_STATUS(fkc_window_run(&cfg, fk_ops_find("cuckoo"), 1, &row, NULL), FK_OK);
    CHECK(row.probes[FKC_BAND_SLACK] == 0 && row.probes[FKC_BAND_OLD] == 0 && row.probes[FKC_BAND_NEVER] > 0);
    CHECK(!isnan(row.insert_batch_ns) && !isnan(row.absent_batch_ns));
}

int main(void)
{
    RUN(no_false_negatives_inside_the_window);
    RUN(keys_past_their_lifetime_are_forgotten);
    RUN(apbf_fpr_matches_its_theory_at_a_full_generation);
    RUN(rotating_fpr_matches_its_theory_with_both_halves_full);
    RUN(apbf_tables);
    RUN(byte_and_u64_calls_agree);
    RUN(age_bands);
    RUN(workload_counts_every_band);
    return check_report();
}
