/* tests/forge.h: forged copies of a saved filter, for the loaders' tests:
 * an edited word with the checksum made good again, so that only the
 * loader's own checks stand between the bytes and a filter. */
#ifndef FK_TESTS_FORGE_H
#define FK_TESTS_FORGE_H

#include <stdint.h>
#include <string.h>
#include "../common/endian.h"
#include "../common/hash.h" /* fk_checksum64 */

/* Makes the trailing checksum of buf[0..len) match its bytes again. */
static inline void forge_reseal(uint8_t *buf, size_t len)
{
    fk_le_put64(buf + len - 8, fk_checksum64(buf, len - 8, 0));
}

/* buf = good with the 64-bit little-endian word at byte `at` set to v,
 * resealed. */
static inline void forge_word(uint8_t *buf, const uint8_t *good, size_t len, size_t at,
                              uint64_t v)
{
    memcpy(buf, good, len);
    fk_le_put64(buf + at, v);
    forge_reseal(buf, len);
}

/* forge_word on kind parameter i (the header's parameters start at byte
 * 48, 8 bytes each). */
static inline void forge_param(uint8_t *buf, const uint8_t *good, size_t len, unsigned i,
                               uint64_t v)
{
    forge_word(buf, good, len, 48 + 8 * (size_t)i, v);
}

#endif
