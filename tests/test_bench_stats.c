/* tests/test_bench_stats.c: the bench's statistics (median / min / max of
 * repeats, FPR counting and its interval), its argument parsers, and one
 * small end-to-end measurement through the vtable. Links libfk_bench.a. */
#include <math.h>
#include "check.h"
#include "../bench/cli/args.h"
#include "../bench/measure/measure.h"
#include "../bench/report/stats.h"
#include "../registry/registry.h"

TEST(median_of_odd_and_even_counts)
{
    double odd[] = { 5, 1, 4, 2, 3 };
    fkc_summary s = fkc_summarize(odd, 5);
    CHECK(s.median == 3 && s.min == 1 && s.max == 5);
    double even[] = { 10, 2, 8, 4 };
    s = fkc_summarize(even, 4);
    CHECK(s.median == 6 && s.min == 2 && s.max == 10);
    CHECK(even[0] == 10 && even[1] == 2); /* input untouched */
    double one = 7;
    CHECK(fkc_median(&one, 1) == 7);
}

TEST(median_skips_unmeasured_and_empty_is_nan)
{
    double v[] = { NAN, 9, NAN, 1, 5 };
    fkc_summary s = fkc_summarize(v, 5);
    CHECK(s.median == 5 && s.min == 1 && s.max == 9);
    double none[] = { NAN, NAN };
    s = fkc_summarize(none, 2);
    CHECK(isnan(s.median) && isnan(s.min) && isnan(s.max));
    CHECK(isnan(fkc_median(v, 0)));
}

TEST(fpr_counting)
{
    fkc_fpr_count c = { 0, 0 };
    CHECK(isnan(fkc_fpr_rate(c)));
    for (int i = 0; i < 1000; i++)
        fkc_fpr_add(&c, i % 100 == 0); /* 10 of 1000 said "maybe" */
    CHECK_EQ_U64(c.false_positives, 10);
    CHECK_EQ_U64(c.negatives, 1000);
    CHECK(fabs(fkc_fpr_rate(c) - 0.01) < 1e-12);
    double lo, hi;
    fkc_fpr_interval(c, &lo, &hi);
    /* Wilson 95% for 10/1000 is about [0.0054, 0.0183] */
    CHECK_MSG(fabs(lo - 0.00544) < 2e-4 && fabs(hi - 0.01831) < 2e-4, "[%g, %g]", lo, hi);
    fkc_fpr_count zero = { 0, 1000 };
    fkc_fpr_interval(zero, &lo, &hi);
    CHECK(lo == 0 && hi > 0 && hi < 0.005);
}

TEST(fpr_negatives_are_max_of_1m_and_100_over_fpr)
{
    CHECK_EQ_U64(fkc_fpr_negatives_for(0.01), 1000000);
    CHECK_EQ_U64(fkc_fpr_negatives_for(0.0001), 1000000);
    CHECK_EQ_U64(fkc_fpr_negatives_for(0.00001), 10000000);
    CHECK_EQ_U64(fkc_fpr_negatives_for(1e-9), FKC_FPR_NEG_CAP);
}

TEST(number_parsers_accept_and_reject)
{
    uint64_t u;
    double d;
    CHECK(fkc_parse_u64("1000000", &u) == 0 && u == 1000000);
    CHECK(fkc_parse_u64("1e6", &u) == 0 && u == 1000000);
    CHECK(fkc_parse_u64("10M", &u) == 0 && u == 10000000);
    CHECK(fkc_parse_u64("18446744073709551615", &u) == 0 && u == UINT64_MAX);
    CHECK(fkc_parse_u64("1.5", &u) == -1);
    CHECK(fkc_parse_u64("-1", &u) == -1);
    CHECK(fkc_parse_u64("abc", &u) == -1);
    CHECK(fkc_parse_u64("", &u) == -1);
    CHECK(fkc_parse_u64("1e30", &u) == -1);
    CHECK(fkc_parse_fpr("0.01", &d) == 0 && d == 0.01);
    CHECK(fkc_parse_fpr("1%", &d) == 0 && fabs(d - 0.01) < 1e-15);
    CHECK(fkc_parse_fpr("0", &d) == -1 && fkc_parse_fpr("1", &d) == -1 && fkc_parse_fpr("nan", &d) == -1);
    CHECK(fkc_parse_fpr("0.5x", &d) == -1);
    CHECK(fkc_parse_ratio("0", &d) == 0 && d == 0 && fkc_parse_ratio("1.01", &d) == -1);
    CHECK(fkc_parse_bytes("64M", &u) == 0 && u == 64u << 20);
    CHECK(fkc_parse_bytes("2GiB", &u) == 0 && u == UINT64_C(2) << 30);
    CHECK(fkc_parse_bytes("0", &u) == -1 && fkc_parse_bytes("12Q", &u) == -1);
    /* counts: K/M/G/T and k/m/b are decimal, the same in either case */
    static const struct { const char *text; uint64_t value; } counts[] = {
        { "1k", 1000 }, { "1K", 1000 }, { "2m", 2000000 }, { "2M", 2000000 },
        { "1b", 1000000000 }, { "1B", 1000000000 }, { "1G", 1000000000 },
        { "3T", UINT64_C(3000000000000) }, { "1.5M", 1500000 }, { "0.5k", 500 },
        { "1000M", 1000000000 }, { "1e9", 1000000000 },
    };
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        CHECK_MSG(fkc_parse_u64(counts[i].text, &u) == 0 && u == counts[i].value, "'%s' read as %llu",
                  counts[i].text, (unsigned long long)u);
    CHECK(fkc_parse_u64("1.5k5", &u) == -1 && fkc_parse_u64("1Mi", &u) == -1 && fkc_parse_u64("1KB", &u) == -1);
    CHECK(fkc_parse_u64("0.0001k", &u) == -1); /* not a whole count */
    /* sizes: K/M/G/T are binary, with or without iB or B */
    CHECK(fkc_parse_bytes("1T", &u) == 0 && u == UINT64_C(1) << 40);
    CHECK(fkc_parse_bytes("16MB", &u) == 0 && u == UINT64_C(16) << 20);
    CHECK(fkc_parse_bytes("1g", &u) == 0 && u == UINT64_C(1) << 30);
    CHECK(fkc_parse_bytes("512B", &u) == 0 && u == 512);
}

TEST(option_table_parsing)
{
    uint64_t n = 0;
    int flag = 0;
    const char *fmt = "table";
    const fkc_opt opts[] = {
        { "n", FKC_OPT_COUNT, &n, "N", "items" },
        { "flag", FKC_OPT_FLAG, &flag, NULL, "a flag" },
        { "format", FKC_OPT_CHOICE, &fmt, "table|csv", "format" },
        { NULL, 0, NULL, NULL, NULL },
    };
    const fkc_cmd_spec spec = { "test", "[--n N]", NULL, opts };
    char *ok[] = { "test", "--n", "5", "--flag", "--format=csv" };
    CHECK(fkc_args_parse(&spec, 5, ok) == FKC_ARGS_OK && n == 5 && flag == 1 && strcmp(fmt, "csv") == 0);
    char *bad1[] = { "test", "--nope" };
    char *bad2[] = { "test", "--n" };
    char *bad3[] = { "test", "--n", "0" };
    char *bad4[] = { "test", "--flag=1" };
    char *bad5[] = { "test", "--format", "xml" };
    char *bad6[] = { "test", "stray" };
    fprintf(stderr, "(the next lines of usage errors are expected)\n");
    CHECK(fkc_args_parse(&spec, 2, bad1) == FKC_ARGS_BAD);
    CHECK(fkc_args_parse(&spec, 2, bad2) == FKC_ARGS_BAD);
    CHECK(fkc_args_parse(&spec, 3, bad3) == FKC_ARGS_BAD);
    CHECK(fkc_args_parse(&spec, 2, bad4) == FKC_ARGS_BAD);
    CHECK(fkc_args_parse(&spec, 3, bad5) == FKC_ARGS_BAD);
    CHECK(fkc_args_parse(&spec, 2, bad6) == FKC_ARGS_BAD);
}

TEST(a_small_measurement_through_the_vtable)
{
    const fk_ops *ops = fk_ops_find("bloom");
    fkc_keyspec spec = { FKC_KEYS_U64, NULL, 1, 0 };
    fkc_bench_keys k;
    char err[200];
    CHECK(fkc_bench_keys_make(&spec, 20000, 0.01, 20000, &k, err, sizeof err) == 0);
    CHECK_EQ_U64(k.mix[2].count, 20000);
    fkc_measure_cfg cfg = { ops, 0.01, 2, 1, 0, 0 };
    fkc_result r;
    CHECK(fkc_measure(&cfg, &k, &r) == FK_OK);
    CHECK(strcmp(r.kind, "bloom") == 0 && r.n == 20000 && r.repeat == 2);
    CHECK_EQ_U64(r.false_negatives, 0);
    CHECK_EQ_U64(r.fpr_negatives, 1000000);
    CHECK_MSG(r.fpr_measured > 0.006 && r.fpr_measured < 0.015, "fpr %g", r.fpr_measured);
    CHECK(r.fpr_low <= r.fpr_measured && r.fpr_measured <= r.fpr_high);
    CHECK(r.insert.median > 0 && r.insert.min <= r.insert.median && r.insert.median <= r.insert.max);
    for (int m = 0; m < FKC_MIXES; m++)
        CHECK(r.lookup[m].median > 0);
    CHECK(isnan(r.remove.median)); /* bloom cannot remove */
    CHECK(isnan(r.load_at_full));  /* and never fills up */
    CHECK(r.bits_per_item > 9 && r.bits_per_item < 10.5);
    fkc_bench_keys_free(&k);
}

int main(void)
{
    RUN(median_of_odd_and_even_counts);
    RUN(median_skips_unmeasured_and_empty_is_nan);
    RUN(fpr_counting);
    RUN(fpr_negatives_are_max_of_1m_and_100_over_fpr);
    RUN(number_parsers_accept_and_reject);
    RUN(option_table_parsing);
    RUN(a_small_measurement_through_the_vtable);
    return check_report();
}
