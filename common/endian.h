/* common/endian.h: little-endian encoding for the serialized format.
 * Internal header (modules only).
 *
 * Every multi-byte field of a saved filter is written and read through these
 * helpers, byte by byte, so a file never depends on the host's byte order or
 * on the alignment of the buffer it sits in. The compiler turns each of them
 * into a single (unaligned) load or store on little-endian hosts.
 */
#ifndef FK_ENDIAN_H
#define FK_ENDIAN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline void fk_le_put16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static inline void fk_le_put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static inline void fk_le_put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static inline uint16_t fk_le_get16(const uint8_t *p)
{
    return (uint16_t)(p[0] | (p[1] << 8));
}

static inline uint32_t fk_le_get32(const uint8_t *p)
{
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

static inline uint64_t fk_le_get64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

/* A double travels as its IEEE-754 binary64 bit pattern. */
static inline void fk_le_put_f64(uint8_t *p, double d)
{
    uint64_t v;
    memcpy(&v, &d, sizeof v);
    fk_le_put64(p, v);
}

static inline double fk_le_get_f64(const uint8_t *p)
{
    uint64_t v = fk_le_get64(p);
    double d;
    memcpy(&d, &v, sizeof d);
    return d;
}

/* Arrays of 64-bit words (filter bodies): a plain copy on little-endian
 * hosts, a per-word conversion elsewhere. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define FK_HOST_LITTLE_ENDIAN 1
#else
#define FK_HOST_LITTLE_ENDIAN 0
#endif

static inline void fk_le_put64_array(uint8_t *dst, const uint64_t *src, size_t n)
{
    if (FK_HOST_LITTLE_ENDIAN) {
        if (n)
            memcpy(dst, src, n * 8);
        return;
    }
    for (size_t i = 0; i < n; i++)
        fk_le_put64(dst + 8 * i, src[i]);
}

static inline void fk_le_get64_array(uint64_t *dst, const uint8_t *src, size_t n)
{
    if (FK_HOST_LITTLE_ENDIAN) {
        if (n)
            memcpy(dst, src, n * 8);
        return;
    }
    for (size_t i = 0; i < n; i++)
        dst[i] = fk_le_get64(src + 8 * i);
}

#endif
