/* tests/test_bench_lines.c: the CLI's input rules and guards -- the one
 * line reader (CRLF rule, last line, long lines), the exact set of seen
 * lines behind `build`/`add`/`remove`, the option ranges, the memory model
 * that must saturate instead of wrapping, and the theory functions' input
 * ranges. Links libfk_bench.a. */
#include <math.h>
#include <stdlib.h>
#include "check.h"
#include <unistd.h>
#include "../bench/cli/args.h"
#include "../bench/cli/cmd.h"
#include "../bench/keys/keylines.h"
#include "../bench/keys/lineset.h"
#include "../bench/measure/memory_model.h"
#include "../bloom/bloom.h"
#include "../common/serial.h"
#include "../common/sizing_internal.h"
#include "../cuckoo/cuckoo.h"
#include "../cuckoo/cuckoo_internal.h" /* fk_theory_cuckoo_fpr */
#include "../registry/registry.h"

/* The keys the reader gives for `text`, joined by '|'. */
static void keys_of(const char *text, size_t len, int binary, char *out, size_t cap)
{
    FILE *fp = tmpfile();
    fwrite(text, 1, len, fp);
    rewind(fp);
    fkc_linereader r;
    out[0] = 0;
    if (fkc_linereader_init(&r, fp, binary) == 0) {
        const char *k;
        size_t n;
        while (fkc_linereader_next(&r, &k, &n) == 1) {
            size_t used = strlen(out);
            snprintf(out + used, cap - used, "%s%.*s", used || r.lines > 1 ? "|" : "", (int)n, k);
        }
        fkc_linereader_free(&r);
    }
    fclose(fp);
}

TEST(one_crlf_rule)
{
    char got[256];
    const char text[] = "a\r\nb\nc\r\r\n\r\n\nlast\r";
    keys_of(text, sizeof text - 1, 0, got, sizeof got);
    CHECK_MSG(strcmp(got, "a|b|c\r|||last") == 0, "got '%s'", got);
    keys_of(text, sizeof text - 1, 1, got, sizeof got);
    CHECK_MSG(strcmp(got, "a\r|b|c\r\r|\r||last\r") == 0, "got '%s'", got);
    keys_of("", 0, 0, got, sizeof got);
    CHECK(strcmp(got, "") == 0);
    CHECK_EQ_U64(fkc_line_key_len("x\r", 2, 0), 1);
    CHECK_EQ_U64(fkc_line_key_len("x\r", 2, 1), 2);
    CHECK_EQ_U64(fkc_line_key_len("", 0, 0), 0);
}

TEST(lines_longer_than_the_buffer_arrive_whole)
{
    /* lines of 1, 100000 and 300000 bytes (the buffer starts at 64 KiB) */
    size_t lens[] = { 1, 100000, 300000, 7 };
    size_t total = 0;
    for (size_t i = 0; i < 4; i++)
        total += lens[i] + 1;
    char *text = malloc(total);
    size_t at = 0;
    for (size_t i = 0; i < 4; i++) {
        memset(text + at, 'a' + (int)i, lens[i]);
        at += lens[i];
        text[at++] = '\n';
    }
    FILE *fp = tmpfile();
    fwrite(text, 1, total, fp);
    rewind(fp);
    fkc_linereader r;
    CHECK(fkc_linereader_init(&r, fp, 0) == 0);
    const char *k;
    size_t n;
    for (size_t i = 0; i < 4; i++) {
        CHECK(fkc_linereader_next(&r, &k, &n) == 1);
        CHECK_EQ_U64(n, lens[i]);
        CHECK(n == lens[i] && k[0] == 'a' + (int)i && k[n - 1] == 'a' + (int)i);
    }
    CHECK(fkc_linereader_next(&r, &k, &n) == 0);
    CHECK_EQ_U64(r.lines, 4);
    CHECK_EQ_U64(r.bytes, total);
    fkc_linereader_free(&r);
    fclose(fp);
    free(text);
}

TEST(lineset_is_exact)
{
    fkc_lineset s;
    CHECK(fkc_lineset_init(&s, 0) == 0); /* grows from its smallest size */
    const uint64_t n = FK_TEST_SCALE(200000, 50000);
    char key[32];
    uint64_t fresh = 0, again = 0;
    for (uint64_t i = 0; i < n; i++) {
        int len = snprintf(key, sizeof key, "key-%llu", (unsigned long long)i);
        fresh += fkc_lineset_add(&s, key, (size_t)len) == 1;
    }
    for (uint64_t i = 0; i < n; i += 3) {
        int len = snprintf(key, sizeof key, "key-%llu", (unsigned long long)i);
        again += fkc_lineset_add(&s, key, (size_t)len) == 0;
    }
    CHECK_EQ_U64(fresh, n);
    CHECK_EQ_U64(again, (n + 2) / 3);
    CHECK_EQ_U64(s.count, n);
    CHECK(fkc_lineset_add(&s, "", 0) == 1 && fkc_lineset_add(&s, NULL, 0) == 0);
    CHECK(s.count <= s.nslots / 4 * 3 + 1);
    fkc_lineset_free(&s);
}

/* Parses one option value through a spec, as a subcommand does. */
static int parse_one(fkc_opt_type type, const char *value, uint64_t *u, double *d)
{
    const fkc_opt opts[] = {
        { "x", type, type == FKC_OPT_FPR ? (void *)d : (void *)u, "X", "x" },
        { NULL, 0, NULL, NULL, NULL },
    };
    const fkc_cmd_spec spec = { "test", "", NULL, opts };
    char arg0[] = "test", arg1[] = "--x", arg2[64];
    snprintf(arg2, sizeof arg2, "%s", value);
    char *argv[] = { arg0, arg1, arg2, NULL };
    return fkc_args_parse(&spec, 3, argv);
}

TEST(numeric_options_have_named_ranges)
{
    uint64_t u = 0;
    double d = 0;
    fputs("(the next lines of 'filterkit test' errors are expected)\n", stderr);
    CHECK(parse_one(FKC_OPT_REPEAT, "1000", &u, &d) == FKC_ARGS_OK && u == 1000);
    CHECK(parse_one(FKC_OPT_REPEAT, "1001", &u, &d) == FKC_ARGS_BAD);
    CHECK(parse_one(FKC_OPT_REPEAT, "858993460", &u, &d) == FKC_ARGS_BAD);
    CHECK(parse_one(FKC_OPT_REPEAT, "4294967297", &u, &d) == FKC_ARGS_BAD);
    CHECK(parse_one(FKC_OPT_REPEAT, "0", &u, &d) == FKC_ARGS_BAD);
    CHECK(parse_one(FKC_OPT_COUNT, "281474976710656", &u, &d) == FKC_ARGS_OK && u == FKC_COUNT_MAX);
    CHECK(parse_one(FKC_OPT_COUNT, "281474976710657", &u, &d) == FKC_ARGS_BAD);
    CHECK(parse_one(FKC_OPT_COUNT, "9223372036854775808", &u, &d) == FKC_ARGS_BAD);
    CHECK(parse_one(FKC_OPT_U64, "18446744073709551615", &u, &d) == FKC_ARGS_OK && u == UINT64_MAX);
    CHECK(parse_one(FKC_OPT_U64, "18446744073709551616", &u, &d) == FKC_ARGS_BAD);
    /* decimal only: no hex, no inf/nan, no sign, no blanks */
    static const char *not_rates[] = { "0x1p-3", "0x.1", "inf", "nan", "-0.1", "+0.1", " 0.1",
                                       "\t0.1", "1e-400", "0", "1", "1e", "0.1 ", "" };
    for (size_t i = 0; i < sizeof not_rates / sizeof not_rates[0]; i++)
        CHECK_MSG(fkc_parse_fpr(not_rates[i], &d) == -1, "'%s' read as a rate", not_rates[i]);
    static const char *not_counts[] = { "0x10", "inf", "1e400", "-1", "+1", " 1", "1.5", "1e-3" };
    for (size_t i = 0; i < sizeof not_counts / sizeof not_counts[0]; i++)
        CHECK_MSG(fkc_parse_u64(not_counts[i], &u) == -1, "'%s' read as a count", not_counts[i]);
    /* a subnormal rate is a rate */
    CHECK(fkc_parse_fpr("1e-320", &d) == 0 && d > 0 && d < 1e-300);
    CHECK(fkc_parse_fpr(".5%", &d) == 0 && d == 0.005);
    CHECK(fkc_parse_u64("1e6", &u) == 0 && u == 1000000);
    CHECK(fkc_parse_u64("10M", &u) == 0 && u == 10000000);
}

TEST(memory_model_saturates)
{
    const fk_ops *bloom = fk_ops_find("bloom"), *cuckoo = fk_ops_find("cuckoo");
    CHECK(fkc_model_bytes(bloom, UINT64_C(1) << 63, 1e-300, NULL, 0) == FKC_MODEL_TOO_BIG);
    CHECK(fkc_model_bytes(fk_ops_find("counting"), UINT64_C(1) << 62, 1e-3, NULL, 0) == FKC_MODEL_TOO_BIG);
    int exact;
    CHECK(fkc_model_extrapolate(bloom, 1e-300, 1000, 200000, UINT64_C(1) << 63, &exact) == FKC_MODEL_TOO_BIG);
    /* no formula (NULL ops): linear, saturated rather than wrapped */
    CHECK(fkc_model_extrapolate(NULL, 0.01, 1, UINT64_MAX / 2, 4, &exact) == FKC_MODEL_TOO_BIG);
    CHECK(fkc_model_bytes(cuckoo, 1000, 0.01, NULL, 0) > 0);
}

TEST(model_theory_at_n)
{
    const fk_ops *bloom = fk_ops_find("bloom"), *cuckoo = fk_ops_find("cuckoo");
    /* a 32-bit fingerprint cannot reach 1e-14: pick must never offer it */
    CHECK(fkc_model_fpr(cuckoo, 1000000, 1e-14, NAN) > 1e-10);
    CHECK(fkc_model_fpr(cuckoo, 1000000, 0.01, NAN) <= 0.01);
    /* Bloom sizing lands within pick's 5% slack of the target at every
     * scale (k is rounded to a whole number) until k hits its cap of 64 */
    static const double rates[] = { 0.5, 0.3, 0.1, 0.05, 0.01, 1e-3, 1e-4, 1e-6, 1e-9, 1e-12 };
    static const uint64_t ns[] = { 1, 7, 100, 12345, 1000000, UINT64_C(1000000000) };
    for (size_t i = 0; i < sizeof rates / sizeof rates[0]; i++)
        for (size_t j = 0; j < sizeof ns / sizeof ns[0]; j++) {
            double t = fkc_model_fpr(bloom, ns[j], rates[i], NAN);
            CHECK_MSG(t <= rates[i] * 1.05, "bloom n=%llu fpr=%g: theory %g", (unsigned long long)ns[j],
                      rates[i], t);
        }
    CHECK(fkc_model_fpr(bloom, 1000, 1e-300, NAN) > 1e-100); /* k capped at 64 */
}

TEST(theory_input_ranges)
{
    static const double loads[] = { -1.0, -INFINITY, NAN, 0.0, 0.5, 1.0, 2.0, INFINITY };
    for (size_t i = 0; i < sizeof loads / sizeof loads[0]; i++) {
        double c = fk_theory_cuckoo_fpr(8, loads[i]);
        CHECK_MSG(c >= 0.0 && c <= 1.0, "cuckoo fpr at load %g: %g", loads[i], c);
        double b = fk_theory_bloom_fpr_at_fill(loads[i], 3);
        CHECK_MSG(b >= 0.0 && b <= 1.0, "bloom fpr at fill %g: %g", loads[i], b);
    }
    CHECK(fk_theory_cuckoo_fpr(8, -1) == 0.0);
    CHECK(fk_theory_cuckoo_fpr(8, 2.0) == fk_theory_cuckoo_fpr(8, 1.0));
    CHECK(fk_theory_bloom_fpr_at_fill(-0.5, 3) == 0.0);
    CHECK(fk_theory_bloom_fpr_at_fill(1.5, 3) == 1.0);
}

/* Saves a 100-bit Bloom filter whose header says `items` into path. */
static int save_bloom_with_items(const char *path, uint64_t items)
{
    uint64_t words[2] = { 0, 0 };
    fk_bloom *b;
    if (fk_bloom_from_bits(100, 3, 0, 100, 0.01, items, words, &b) != FK_OK)
        return -1;
    FILE *fp = fopen(path, "wb");
    fk_status s = fp ? fk_filter_save_file((fk_filter *)b, fp) : FK_EIO;
    if (fp)
        fclose(fp);
    fk_bloom_free(b);
    return s == FK_OK ? 0 : -1;
}

static int same_file(const char *a, const char *b)
{
    FILE *x = fopen(a, "rb"), *y = fopen(b, "rb");
    int same = x && y;
    for (int c; same && (c = fgetc(x)) == fgetc(y);)
        if (c == EOF)
            break;
    same = same && feof(x) && feof(y);
    if (x)
        fclose(x);
    if (y)
        fclose(y);
    return same;
}

/* A loaded item count at 2^64-1 (a crafted or merged file) must not wrap
 * to 0 on add, dedup or merge: each refuses and leaves the file alone. */
TEST(item_counts_never_wrap)
{
    char dir[] = "/tmp/fk_test_countsXXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char full[64], orig[64], one[64], keys[64];
    snprintf(full, sizeof full, "%s/full.fk", dir);
    snprintf(orig, sizeof orig, "%s/orig.fk", dir);
    snprintf(one, sizeof one, "%s/one.fk", dir);
    snprintf(keys, sizeof keys, "%s/keys", dir);
    CHECK(save_bloom_with_items(full, UINT64_MAX) == 0 && save_bloom_with_items(orig, UINT64_MAX) == 0);
    CHECK(save_bloom_with_items(one, 1) == 0);
    FILE *k = fopen(keys, "w");
    fputs("new\n", k);
    fclose(k);
    fputs("(the next lines of 'filterkit' errors are expected)\n", stderr);
    char a0[] = "add", a1[] = "dedup", a2[] = "merge";
    char *add_argv[] = { a0, full, NULL }, *dedup_argv[] = { a1, full, NULL };
    CHECK(freopen(keys, "r", stdin) != NULL);
    CHECK(fkc_cmd_add(2, add_argv) == 1);
    CHECK(same_file(full, orig));
    CHECK(freopen(keys, "r", stdin) != NULL);
    if (!isatty(STDOUT_FILENO)) { /* dedup prints the new line; merge refuses a terminal */
        CHECK(fkc_cmd_dedup(2, dedup_argv) == 1);
        CHECK(same_file(full, orig));
        char *merge_argv[] = { a2, full, one, NULL };
        CHECK(fkc_cmd_merge(3, merge_argv) == 1);
    }
    unlink(full);
    unlink(orig);
    unlink(one);
    unlink(keys);
    rmdir(dir);
}

int main(void)
{
    RUN(one_crlf_rule);
    RUN(lines_longer_than_the_buffer_arrive_whole);
    RUN(lineset_is_exact);
    RUN(numeric_options_have_named_ranges);
    RUN(memory_model_saturates);
    RUN(model_theory_at_n);
    RUN(theory_input_ranges);
    RUN(item_counts_never_wrap);
    return check_report();
}
