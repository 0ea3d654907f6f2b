/* parquet/parquet_value.c: text to a value's PLAIN encoding, by physical
 * type (parquet_value.h has the table). */
#include <stdlib.h>
#include <string.h>
#include "parquet_value.h"
#include "../common/endian.h"

/* The format's physical type numbers (parquet.h's fk_parquet_physical_type). */
enum {
    TYPE_BOOLEAN = 0,
    TYPE_INT32 = 1,
    TYPE_INT64 = 2,
    TYPE_INT96 = 3,
    TYPE_FLOAT = 4,
    TYPE_DOUBLE = 5,
    TYPE_BYTE_ARRAY = 6,
    TYPE_FIXED_LEN_BYTE_ARRAY = 7
};

/* A decimal integer, optionally signed, in [-(max + 1), max]: its two's
 * complement bits in *out. False for anything else. */
static bool parse_integer(const char *text, size_t len, uint64_t max, uint64_t *out)
{
    size_t i = 0;
    bool negative = false;
    if (len > 0 && (text[0] == '-' || text[0] == '+')) {
        negative = text[0] == '-';
        i = 1;
    }
    if (i == len)
        return false;
    const uint64_t limit = negative ? max + 1 : max;
    uint64_t v = 0;
    for (; i < len; i++) {
        unsigned d = (unsigned)(unsigned char)text[i] - '0';
        if (d > 9 || v > (limit - d) / 10)
            return false;
        v = v * 10 + d;
    }
    *out = negative ? (uint64_t)0 - v : v;
    return true;
}

/* A number strtod reads whole (float: strtof), its bits in *out. */
static bool parse_floating(const char *text, size_t len, bool single, uint64_t *out)
{
    char buf[FK_PARQUET_VALUE_TEXT_MAX + 1];
    if (len == 0 || len > FK_PARQUET_VALUE_TEXT_MAX || memchr(text, '\0', len))
        return false;
    /* strtod skips leading spaces; the format has none */
    if (text[0] == ' ' || (text[0] >= '\t' && text[0] <= '\r'))
        return false;
    memcpy(buf, text, len);
    buf[len] = '\0';
    char *end = NULL;
    if (single) {
        float f = strtof(buf, &end);
        uint32_t bits;
        memcpy(&bits, &f, sizeof bits);
        *out = bits;
    } else {
        double d = strtod(buf, &end);
        memcpy(out, &d, sizeof d);
    }
    /* out of range rounds to +-inf or to 0 (ERANGE): the value a writer
     * given the same text would store, so it is kept */
    return end == buf + len;
}

fk_status fk_parquet_value_encode(int type, const char *text, size_t len,
                                  uint8_t plain[FK_PARQUET_VALUE_FIXED_MAX], const void **key,
                                  size_t *key_len)
{
    if (key)
        *key = NULL;
    if (key_len)
        *key_len = 0;
    if (!plain || !key || !key_len || (!text && len))
        return FK_EINVAL;
    uint64_t v = 0;
    switch (type) {
    case TYPE_INT32:
        if (!parse_integer(text, len, INT32_MAX, &v))
            return FK_EINVAL;
        fk_le_put32(plain, (uint32_t)v);
        *key_len = 4;
        break;
    case TYPE_INT64:
        if (!parse_integer(text, len, INT64_MAX, &v))
            return FK_EINVAL;
        fk_le_put64(plain, v);
        *key_len = 8;
        break;
    case TYPE_FLOAT:
        if (!parse_floating(text, len, true, &v))
            return FK_EINVAL;
        fk_le_put32(plain, (uint32_t)v);
        *key_len = 4;
        break;
    case TYPE_DOUBLE:
        if (!parse_floating(text, len, false, &v))
            return FK_EINVAL;
        fk_le_put64(plain, v);
        *key_len = 8;
        break;
    case TYPE_BYTE_ARRAY:
    case TYPE_FIXED_LEN_BYTE_ARRAY:
        *key = text;
        *key_len = len;
        return FK_OK;
    default: /* BOOLEAN, INT96, or no type at all */
        return FK_EUNSUPPORTED;
    }
    *key = plain;
    return FK_OK;
}
