/* parquet/parquet_value.h: a value written as text, turned into the bytes
 * Parquet's Bloom filters hash: its PLAIN encoding.
 *
 * A Parquet split-block Bloom filter (blocked/blocked.h, "Parquet's
 * split-block filter") holds XXH64 (seed 0) of each value's PLAIN
 * encoding, which depends on the column's physical type:
 *
 *   type (number)            text                       PLAIN bytes
 *   INT32 (1)                a decimal integer in       4, little-endian two's
 *                            [-2^31, 2^31 - 1]          complement
 *   INT64 (2)                a decimal integer in       8, likewise
 *                            [-2^63, 2^63 - 1]
 *   FLOAT (4)                a number strtof reads      4: IEEE-754 binary32,
 *                            whole (1.5, -2e3, inf)     little-endian
 *   DOUBLE (5)               a number strtod reads      8: IEEE-754 binary64,
 *                            whole                      little-endian
 *   BYTE_ARRAY (6)           any bytes                  the bytes themselves
 *   FIXED_LEN_BYTE_ARRAY (7)                            (no length prefix)
 *
 * The numbers are the format's (parquet.h's fk_parquet_physical_type).
 * Integers take an optional sign and decimal digits only (no spaces, no
 * "0x", no fraction); a logical type stored in an integer (DATE: days since
 * 1970, DECIMAL: the unscaled integer, TIMESTAMP: its unit's count) is
 * written as that integer. Floating values are read as C's strtof/strtod
 * read them in the "C" locale's format (a '.' for the decimal point; the
 * program's locale applies if it set one): they round to nearest, and
 * 0 and -0 differ (they have different bits, so a Parquet filter tells
 * them apart too). BOOLEAN (0) and INT96 (3) are refused: Parquet writers
 * make no Bloom filter for them.
 *
 * Link: build/libfk_parquet.a build/libfk_common.a. Pure functions: any
 * thread, at any time. The library never prints.
 */
#ifndef FK_PARQUET_VALUE_H
#define FK_PARQUET_VALUE_H

#include <stddef.h>
#include <stdint.h>
#include "../common/filter.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most bytes a fixed-size PLAIN encoding takes (INT64, DOUBLE). */
#define FK_PARQUET_VALUE_FIXED_MAX 8u

/* The longest text read as a FLOAT or DOUBLE (digits of a double written
 * out in full fit; a longer one is FK_EINVAL). */
#define FK_PARQUET_VALUE_TEXT_MAX 400u

/* Turns the len bytes of text (not NUL-terminated; NULL only when len is
 * 0) into the PLAIN encoding of a value of physical type `type`. Fixed-size
 * types are written to plain (FK_PARQUET_VALUE_FIXED_MAX bytes the caller
 * gives) and *key points there; BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY take
 * the text as it is, *key pointing into text (no copy: valid while text
 * is). *key_len is the encoding's length. Then
 * fk_filter_contains(f, *key, *key_len) probes a Parquet-scheme filter.
 * Returns FK_OK; FK_EINVAL for a NULL argument (plain, key, key_len, or
 * text with len > 0) or text that is not a value of the type (empty, out
 * of range, trailing bytes, a NUL inside a number; *key NULL, *key_len 0);
 * FK_EUNSUPPORTED for BOOLEAN, INT96 or a number that is no physical type.
 * Cost: O(len). */
FK_API fk_status fk_parquet_value_encode(int type, const char *text, size_t len,
                                         uint8_t plain[FK_PARQUET_VALUE_FIXED_MAX],
                                         const void **key, size_t *key_len);

/* The physical type named by `name` (NUL-terminated, any case): "int32",
 * "int64", "float", "double", "byte_array" (also "bytes", "string" and
 * "binary"), "fixed_len_byte_array", the format's numbers into *type.
 * Returns FK_OK; FK_EINVAL for NULL arguments or another name (*type
 * untouched). Cost: O(length of name). Inline: a table, not an export. */
static inline fk_status fk_parquet_value_type(const char *name, int *type)
{
    static const struct {
        const char *name;
        int type;
    } names[] = {
        { "int32", 1 },      { "int64", 2 },  { "float", 4 },  { "double", 5 },
        { "byte_array", 6 }, { "bytes", 6 },  { "string", 6 }, { "binary", 6 },
        { "fixed_len_byte_array", 7 },
    };
    if (!name || !type)
        return FK_EINVAL;
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        const char *a = name, *b = names[i].name;
        /* ASCII case folding (tolower's answer may depend on the locale) */
        while (*b && (*a == *b || (*a >= 'A' && *a <= 'Z' && *a - 'A' + 'a' == *b))) {
            a++;
            b++;
        }
        if (!*a && !*b) {
            *type = names[i].type;
            return FK_OK;
        }
    }
    return FK_EINVAL;
}

#ifdef __cplusplus
}
#endif

#endif
