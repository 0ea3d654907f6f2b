/* counting/counting_internal.h: the counting filter's layout and counter
 * access, shared by the files of this module. Not installed. */
#ifndef FK_COUNTING_INTERNAL_H
#define FK_COUNTING_INTERNAL_H

#include <string.h>
#include "counting.h"
#include "../common/tally.h"

/* Counter i lives in byte i >> shift, at bit offset (i & shift) * 4, where
 * shift is 1 for 4-bit counters (two per byte) and 0 for byte counters. One
 * formula for both widths keeps the hot loops free of a width branch and of
 * any division. */
struct fk_counting {
    fk_filter base;       /* must stay first: an fk_counting * is an fk_filter * */
    uint64_t  m;          /* counters */
    uint32_t  k;          /* probes per key */
    uint32_t  width;      /* counter_bits: 4 or 8 */
    uint32_t  shift;      /* 1 for 4-bit counters, 0 for 8-bit */
    uint32_t  max;        /* 15 or 255: the saturation value, also the mask */
    uint64_t  seed;
    uint64_t  capacity;   /* items it was sized for */
    double    fpr;        /* target it was sized for */
    uint64_t  items;      /* successful inserts minus successful removes */
    uint64_t  saturations;/* counters that reached max */
    uint64_t  bytes;      /* counter array size: a multiple of 8, padding stays 0 */
    uint8_t  *ctr;        /* the counters, cache-line aligned */
    fk_tally  tally;      /* concurrent inserts minus removes (mod 2^64) */
    fk_tally  sat_tally;  /* saturations by concurrent writers */
};

/* Inserts minus removes, plain and concurrent (writers done). */
static inline uint64_t fk_counting_item_count(const fk_counting *c)
{
    return c->items + fk_tally_sum(&c->tally);
}

/* ------------------------------------------------------- counter access */

/* The three fields counter access needs, copied into a local: writes
 * through the uint8_t array may alias anything, so reading shift and max
 * from the struct inside a loop would force a reload after every write. */
typedef struct {
    uint8_t *ctr;
    uint32_t shift;
    uint32_t max;
} fk_ctr_view;

static inline fk_ctr_view fk_ctr_view_of(const fk_counting *c)
{
    fk_ctr_view v = { c->ctr, c->shift, c->max };
    return v;
}

static inline uint32_t fk_ctr_offset(fk_ctr_view v, uint64_t i)
{
    return (uint32_t)(i & v.shift) << 2;
}

static inline uint32_t fk_ctr_get(fk_ctr_view v, uint64_t i)
{
    return (uint32_t)(v.ctr[i >> v.shift] >> fk_ctr_offset(v, i)) & v.max;
}

/* Add or subtract 1 at counter i. The caller has checked the counter is
 * below max (inc) or above 0 (dec), so no carry or borrow reaches the
 * neighbouring nibble. */
static inline void fk_ctr_inc(fk_ctr_view v, uint64_t i)
{
    uint8_t *b = &v.ctr[i >> v.shift];
    *b = (uint8_t)(*b + (1u << fk_ctr_offset(v, i)));
}

static inline void fk_ctr_dec(fk_ctr_view v, uint64_t i)
{
    uint8_t *b = &v.ctr[i >> v.shift];
    *b = (uint8_t)(*b - (1u << fk_ctr_offset(v, i)));
}

/* ------------------------------------------------------ word-wide scans */

/* Eight counter bytes as a little-endian word, so counter j of the word
 * sits at bits [width*j, width*j + width) whatever the host's byte order. */
static inline uint64_t fk_ctr_load_le64(const uint8_t *p)
{
    uint64_t w;
    memcpy(&w, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w);
#endif
    return w;
}

/* One flag bit per counter of the word, at the counter's lowest bit: set
 * when the counter is nonzero (OR-fold each counter onto its low bit). */
static inline uint64_t fk_ctr_nonzero_flags(uint64_t w, uint32_t width)
{
    if (width == 4) {
        w |= w >> 1;
        w |= w >> 2;
        return w & UINT64_C(0x1111111111111111);
    }
    w |= w >> 4;
    w |= w >> 2;
    w |= w >> 1;
    return w & UINT64_C(0x0101010101010101);
}

/* Builds an empty filter of exactly m counters of `width` bits and k probes
 * (no sizing). Returns FK_EINVAL for m 0, k not in 1..64, width not 4 or 8,
 * or an array over FK_MEMORY_CAP; FK_ENOMEM on allocation failure. */
fk_status fk_counting_create_exact(uint64_t m, uint32_t k, uint32_t width, uint64_t seed,
                                   uint64_t capacity, double fpr, fk_counting **out);

/* The saving hooks of fk_counting_ops (counting_serial.c; contracts in
 * common/serial.h). */
extern const fk_serial_ops fk_counting_serial_ops;

#endif
