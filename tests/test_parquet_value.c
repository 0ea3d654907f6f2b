/* tests/test_parquet_value.c: text to PLAIN encodings
 * (parquet/parquet_value.h): every type's bytes at its edges, what is
 * refused, and Arrow's reference bitset rebuilt from text. */
#include <math.h>
#include <string.h>
#include "check.h"
#include "../parquet/parquet_value.h"
#include "../blocked/blocked.h"
#include "../common/endian.h"

enum { INT32 = 1, INT64 = 2, FLOAT = 4, DOUBLE = 5, BYTE_ARRAY = 6 };

/* Encodes text (a C string) as type; FK_OK and bytes want[n], or the status. */
static bool encodes(int type, const char *text, const void *want, size_t n)
{
    uint8_t plain[FK_PARQUET_VALUE_FIXED_MAX];
    const void *key = NULL;
    size_t len = 0;
    if (fk_parquet_value_encode(type, text, strlen(text), plain, &key, &len) != FK_OK)
        return false;
    return len == n && memcmp(key, want, n) == 0;
}

static fk_status status_of(int type, const char *text, size_t len)
{
    uint8_t plain[FK_PARQUET_VALUE_FIXED_MAX];
    const void *key = (const void *)1;
    size_t n = 9;
    fk_status s = fk_parquet_value_encode(type, text, len, plain, &key, &n);
    if (s != FK_OK)
        CHECK(key == NULL && n == 0);
    return s;
}

TEST(integers_are_little_endian_twos_complement)
{
    CHECK(encodes(INT32, "0", "\0\0\0\0", 4));
    CHECK(encodes(INT32, "1", "\1\0\0\0", 4));
    CHECK(encodes(INT32, "+258", "\2\1\0\0", 4));
    CHECK(encodes(INT32, "-1", "\xff\xff\xff\xff", 4));
    CHECK(encodes(INT32, "2147483647", "\xff\xff\xff\x7f", 4));
    CHECK(encodes(INT32, "-2147483648", "\0\0\0\x80", 4));
    CHECK(encodes(INT64, "9223372036854775807", "\xff\xff\xff\xff\xff\xff\xff\x7f", 8));
    CHECK(encodes(INT64, "-9223372036854775808", "\0\0\0\0\0\0\0\x80", 8));
    CHECK(encodes(INT64, "-2", "\xfe\xff\xff\xff\xff\xff\xff\xff", 8));
    CHECK(encodes(INT64, "00042", "\x2a\0\0\0\0\0\0\0", 8));
    static const char *const bad[] = { "", "-", "+", "2147483648", "-2147483649", "1.0", " 1",
                                       "1 ", "0x10", "1e3", "abc", "--1", "99999999999" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        CHECK_MSG(status_of(INT32, bad[i], strlen(bad[i])) == FK_EINVAL, "int32 '%s'", bad[i]);
    CHECK_STATUS(status_of(INT64, "9223372036854775808", 19), FK_EINVAL);
    CHECK_STATUS(status_of(INT64, "-9223372036854775809", 20), FK_EINVAL);
    CHECK_STATUS(status_of(INT64, "18446744073709551616", 20), FK_EINVAL);
    CHECK_STATUS(status_of(INT32, "1\0", 2), FK_EINVAL);
}

TEST(floating_values_are_their_ieee_bits)
{
    uint8_t want[8];
    fk_le_put32(want, 0x3fc00000u); /* 1.5f */
    CHECK(encodes(FLOAT, "1.5", want, 4));
    fk_le_put32(want, 0x80000000u); /* -0.0f: not 0.0f */
    CHECK(encodes(FLOAT, "-0", want, 4));
    fk_le_put32(want, 0x3dcccccdu); /* 0.1f rounded to nearest */
    CHECK(encodes(FLOAT, "0.1", want, 4));
    fk_le_put32(want, 0x7f800000u);
    CHECK(encodes(FLOAT, "inf", want, 4));
    fk_le_put64(want, UINT64_C(0x3fb999999999999a)); /* 0.1 */
    CHECK(encodes(DOUBLE, "0.1", want, 8));
    fk_le_put64(want, UINT64_C(0xc059000000000000)); /* -100 */
    CHECK(encodes(DOUBLE, "-1e2", want, 8));
    static const char *const bad[] = { "", " 1", "1 ", "1.5x", "x", "1,5" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        CHECK_MSG(status_of(FLOAT, bad[i], strlen(bad[i])) == FK_EINVAL, "float '%s'", bad[i]);
        CHECK_MSG(status_of(DOUBLE, bad[i], strlen(bad[i])) == FK_EINVAL, "double '%s'", bad[i]);
    }
    /* a NUL inside, and a text past the limit */
    CHECK_STATUS(status_of(DOUBLE, "1\0" "5", 3), FK_EINVAL);
    char big[FK_PARQUET_VALUE_TEXT_MAX + 2];
    memset(big, '1', sizeof big);
    CHECK_STATUS(status_of(DOUBLE, big, sizeof big), FK_EINVAL);
}

TEST(byte_arrays_are_the_text_itself_and_other_types_are_refused)
{
    const char *text = "caf\xc3\xa9";
    uint8_t plain[FK_PARQUET_VALUE_FIXED_MAX];
    const void *key = NULL;
    size_t n = 0;
    CHECK_STATUS(fk_parquet_value_encode(BYTE_ARRAY, text, 5, plain, &key, &n), FK_OK);
    CHECK(key == text && n == 5);
    CHECK_STATUS(fk_parquet_value_encode(BYTE_ARRAY, NULL, 0, plain, &key, &n), FK_OK);
    CHECK(n == 0);
    CHECK_STATUS(fk_parquet_value_encode(7, "abcd", 4, plain, &key, &n), FK_OK);
    CHECK(key != NULL && n == 4);
    CHECK_STATUS(status_of(0, "true", 4), FK_EUNSUPPORTED);  /* BOOLEAN */
    CHECK_STATUS(status_of(3, "1", 1), FK_EUNSUPPORTED);     /* INT96 */
    CHECK_STATUS(status_of(8, "1", 1), FK_EUNSUPPORTED);
    CHECK_STATUS(status_of(-1, "1", 1), FK_EUNSUPPORTED);
    CHECK_STATUS(fk_parquet_value_encode(INT32, NULL, 1, plain, &key, &n), FK_EINVAL);
    CHECK_STATUS(fk_parquet_value_encode(INT32, "1", 1, NULL, &key, &n), FK_EINVAL);
    CHECK_STATUS(fk_parquet_value_encode(INT32, "1", 1, plain, NULL, &n), FK_EINVAL);
    CHECK_STATUS(fk_parquet_value_encode(INT32, "1", 1, plain, &key, NULL), FK_EINVAL);
}

TEST(type_names)
{
    static const struct {
        const char *name;
        int type;
    } ok[] = { { "int32", 1 }, { "INT64", 2 }, { "Float", 4 }, { "double", 5 },
               { "bytes", 6 }, { "BYTE_ARRAY", 6 }, { "string", 6 },
               { "fixed_len_byte_array", 7 } };
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        int t = -1;
        CHECK_STATUS(fk_parquet_value_type(ok[i].name, &t), FK_OK);
        CHECK_MSG(t == ok[i].type, "%s: %d", ok[i].name, t);
    }
    int t = 99;
    CHECK_STATUS(fk_parquet_value_type("int", &t), FK_EINVAL);
    CHECK_STATUS(fk_parquet_value_type("int322", &t), FK_EINVAL);
    CHECK_STATUS(fk_parquet_value_type("", &t), FK_EINVAL);
    CHECK(t == 99);
    CHECK_STATUS(fk_parquet_value_type(NULL, &t), FK_EINVAL);
    CHECK_STATUS(fk_parquet_value_type("int32", NULL), FK_EINVAL);
}

/* The keys 1..100 written as text, INT32, into 2 blocks: Arrow's
 * reference bitset (NVIDIA cuCollections,
 * tests/bloom_filter/arrow_compat_test.cu; tests/test_blocked_parquet.c
 * has all three). */
TEST(text_values_rebuild_arrows_reference_bitset)
{
    static const uint32_t arrow_int32_2_blocks[16] = {
        3017764846u, 4219371383u, 4160077310u, 3214786543u, 4020088765u, 4294437885u,
        2013200345u, 2550116063u, 855631359u,  4290436829u, 2884632042u, 1592483646u,
        4281695998u, 2080111551u, 3220060030u, 4021279731u,
    };
    fk_filter *f = NULL;
    CHECK_STATUS(fk_blocked_new_parquet(64, &f), FK_OK);
    for (int i = 1; f && i <= 100; i++) {
        char text[16];
        int len = snprintf(text, sizeof text, "%d", i);
        uint8_t plain[FK_PARQUET_VALUE_FIXED_MAX];
        const void *key;
        size_t n;
        CHECK_STATUS(fk_parquet_value_encode(INT32, text, (size_t)len, plain, &key, &n), FK_OK);
        CHECK_STATUS(fk_filter_insert(f, key, n), FK_OK);
    }
    const void *bits = NULL;
    size_t bytes = 0;
    CHECK_STATUS(fk_blocked_sbbf(f, &bits, &bytes), FK_OK);
    CHECK(bytes == 64);
    for (size_t i = 0; bits && i < 16; i++)
        CHECK(fk_le_get32((const uint8_t *)bits + 4 * i) == arrow_int32_2_blocks[i]);
    fk_filter_free(f);
}

int main(void)
{
    RUN(integers_are_little_endian_twos_complement);
    RUN(floating_values_are_their_ieee_bits);
    RUN(byte_arrays_are_the_text_itself_and_other_types_are_refused);
    RUN(type_names);
    RUN(text_values_rebuild_arrows_reference_bitset);
    return check_report();
}
