/* cuckoo/cuckoo_table.h: bucket storage of the cuckoo filter (internal).
 *
 * A table of `buckets` buckets, each FK_CTAB_SLOTS = 4 slots of f-bit
 * fingerprints, packed: bucket b occupies bits [4f*b, 4f*(b+1)) of a
 * little-endian byte array, slot j the f bits starting at 4f*b + f*j.
 * A slot holding 0 is empty. This file knows nothing of keys, hashing or
 * kicks (that policy lives in cuckoo.c); it reads, writes and finds
 * fingerprints in one bucket.
 *
 * Finding a fingerprint compares all four slots at once with the "has a
 * zero field" trick: x = bucket ^ (fp * L) has a zero field exactly where a
 * slot equals fp, and (x - L) & ~x & H is nonzero iff some field of x is
 * zero, its lowest set bit marking the lowest such field exactly (L = 1 in
 * every field, H = the top bit of every field). Every width 4..16 has its
 * own inlined path with its constants folded in (one 64-bit load per
 * bucket); 17..32 use the same trick on 128 bits, out of line.
 * With 64-byte aligned storage, 8- and 16-bit buckets never straddle a
 * cache line; a 6-byte 12-bit bucket straddles one in 2 of 32 positions,
 * the price of keeping exactly 4f bits per bucket (padding to 8 bytes
 * would cost a third more memory).
 *
 * The array carries FK_CTAB_PAD bytes past the last bucket so every wide
 * load and read-modify-write stays inside the allocation.
 */
#ifndef FK_CUCKOO_TABLE_H
#define FK_CUCKOO_TABLE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include "../common/atomic.h"
#include "../common/endian.h"
#include "../common/params.h"
#include "../common/status.h"

/* Bytes of slack after the last bucket: the widest load is 16 bytes. */
#define FK_CTAB_PAD 16u

/* Slots per bucket (cuckoo.h's FK_CUCKOO_SLOTS; cuckoo.c checks they agree). */
#define FK_CTAB_SLOTS 4u

typedef unsigned __int128 fk_ctab_u128;

/* The lookup path is a handful of these helpers; force them inline, since
 * a call per bucket would cost as much as the compare itself. */
#define FK_CTAB_HOT static inline __attribute__((always_inline))

typedef struct {
    uint8_t *bytes;       /* bucket array, 64-byte aligned, zeroed = all empty */
    uint64_t buckets;     /* any count >= 1 */
    uint64_t alloc_bytes; /* bytes allocated (packed buckets + pad, rounded to 64) */
    uint32_t f;           /* fingerprint bits, 4..32 */
    uint32_t fp_mask;     /* (1 << f) - 1 */
    uint32_t bucket_bits; /* 4f */
    uint64_t ones;        /* f <= 16: 1 in the low bit of each of the 4 fields */
    uint64_t highs;       /* f <= 16: the top bit of each field */
    uint64_t bucket_mask; /* f <= 16: the low 4f bits */
    fk_ctab_u128 ones128; /* f > 16: as ones, 128 bits wide */
    fk_ctab_u128 highs128;
} fk_ctab;

/* Allocates an all-empty table of `buckets` buckets of f-bit slots.
 * Returns FK_OK; FK_EINVAL when f is outside 4..32, buckets is 0, or the
 * size overflows or exceeds FK_MEMORY_CAP; FK_ENOMEM. On error t->bytes is
 * NULL. Cost: O(size) to zero the array. */
fk_status fk_ctab_alloc(fk_ctab *t, uint64_t buckets, uint32_t f);

/* Releases the array (t itself belongs to the caller). NULL-safe. */
void fk_ctab_release(fk_ctab *t);

/* ------------------------------------------------- little-endian loads */

/* Readers may run beside the one writer (cuckoo.h's thread table). A packed
 * bucket sits at any byte, so its word cannot be an aligned atomic; plain
 * builds read and write it whole (x86 keeps each byte of a store whole, and
 * a writer's store rewrites the bytes it does not change with their own
 * values), and a torn read can only miss a fingerprint while a move is on,
 * which the lookup's move counter catches (cuckoo.c). ThreadSanitizer
 * builds read and write byte by byte with atomics instead, so the races it
 * checks are all atomic; acquire loads and release stores there stand in
 * for the fences around the move counter, which TSan does not model. */
#if FK_TSAN
static inline uint64_t fk_ctab_load_bytes(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)atomic_load_explicit((const _Atomic uint8_t *)(p + i),
                                            memory_order_acquire) << (8 * i);
    return v;
}
#endif

FK_CTAB_HOT uint32_t fk_ctab_load32(const uint8_t *p)
{
#if FK_TSAN
    return (uint32_t)fk_ctab_load_bytes(p, 4);
#else
    return fk_load_le32(p);
#endif
}

FK_CTAB_HOT uint64_t fk_ctab_load64(const uint8_t *p)
{
#if FK_TSAN
    return fk_ctab_load_bytes(p, 8);
#else
    return fk_load_le64(p);
#endif
}

FK_CTAB_HOT void fk_ctab_store64(uint8_t *p, uint64_t v)
{
#if FK_TSAN
    for (unsigned i = 0; i < 8; i++) /* only the bytes that change: readers race with it */
        if (fk_load8(p + i) != (uint8_t)(v >> (8 * i)))
            atomic_store_explicit((_Atomic uint8_t *)(p + i), (uint8_t)(v >> (8 * i)),
                                  memory_order_release);
#else
    fk_store_le64(p, v);
#endif
}

/* -------------------------------------------------- zero-field search */

/* Nonzero iff some field of x is zero; the lowest set bit is the top bit
 * of the lowest zero field. ones/highs as in fk_ctab. */
FK_CTAB_HOT uint64_t fk_ctab_zero_fields64(uint64_t x, uint64_t ones, uint64_t highs)
{
    return (x - ones) & ~x & highs;
}

static inline fk_ctab_u128 fk_ctab_zero_fields128(fk_ctab_u128 x, fk_ctab_u128 ones,
                                                  fk_ctab_u128 highs)
{
    return (x - ones) & ~x & highs;
}

/* Slot index (0..3) of the field whose top bit is bit `top` (top = j*f + f-1),
 * without a division: count the field boundaries below it. */
FK_CTAB_HOT int fk_ctab_slot_of_bit(unsigned top, unsigned f)
{
    return (top >= f) + (top >= 2 * f) + (top >= 3 * f);
}

/* ------------------------------------------------ word-wide buckets */

/* The zero-field mask of bucket b against fp, for a width F (4..16) known
 * at compile time: the bucket's 4F bits come from one 64-bit load at byte
 * 4F*b/8 (shift 0 for even F, 0 or 4 for odd F; 4F + 4 <= 64), and every
 * constant (field ones, top bits) folds into the code. The bits above the
 * bucket need no mask: the subtraction borrows only upwards and H keeps
 * only the bucket's own fields. F = 8 and 16 read aligned words that never
 * straddle a cache line. */
FK_CTAB_HOT uint64_t fk_ctab_match_w(const fk_ctab *t, uint64_t b, uint32_t fp,
                                     const unsigned F)
{
    const uint64_t ones = 1 | UINT64_C(1) << F | UINT64_C(1) << (2 * F) | UINT64_C(1) << (3 * F);
    /* bit 4F*b is byte F*b/2, nibble (F*b) & 1 = b & 1 when F is odd */
    const uint64_t byte = (F & 1) ? (b * F) >> 1 : b * (F / 2);
    const unsigned shift = (F & 1) ? (unsigned)(b & 1) << 2 : 0;
    /* fp * t->ones (== fp * ones, read from memory): one multiply, where a
     * folded sparse constant becomes a longer shift-and-add chain */
    uint64_t x = (fk_ctab_load64(t->bytes + byte) >> shift) ^ (fp * t->ones);
    return fk_ctab_zero_fields64(x, ones, ones << (F - 1));
}

/* -------------------------------------------------- generic buckets */

/* f <= 16: the bucket's 4f bits (bit offset 4f*b is a multiple of 4, so
 * the shift is 0 or 4 and 4f + 4 <= 64 bits fit one load). */
FK_CTAB_HOT uint64_t fk_ctab_bucket64(const fk_ctab *t, uint64_t b)
{
    uint64_t bit = b * t->bucket_bits;
    return (fk_ctab_load64(t->bytes + (bit >> 3)) >> (bit & 7)) & t->bucket_mask;
}

/* 16 < f <= 32: the bucket's 4f bits from a 128-bit load (shift 0 or 4;
 * 4f + 4 <= 128 whenever the shift is 4, since f is then odd). */
static inline fk_ctab_u128 fk_ctab_bucket128(const fk_ctab *t, uint64_t b)
{
    uint64_t bit = b * t->bucket_bits;
    const uint8_t *p = t->bytes + (bit >> 3);
    fk_ctab_u128 v = ((fk_ctab_u128)fk_ctab_load64(p + 8) << 64) | fk_ctab_load64(p);
    v >>= (bit & 7);
    if (t->bucket_bits < 128)
        v &= ((fk_ctab_u128)1 << t->bucket_bits) - 1;
    return v;
}

/* Widths 17..32 (128-bit buckets), out of line so the inline paths stay
 * small: same results as fk_ctab_find / fk_ctab_has2 below. */
int  fk_ctab_find128(const fk_ctab *t, uint64_t b, uint32_t fp);
bool fk_ctab_has2_128(const fk_ctab *t, uint64_t b1, uint64_t b2, uint32_t fp);

/* One case per width 4..16, each with the width as a constant; the switch
 * is the same every call, so its jump predicts perfectly. */
#define FK_CTAB_EACH_WIDTH(X) \
    X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15) X(16)

/* Index (0..3) of the lowest slot of bucket b holding fp, or -1. fp = 0
 * finds a free slot. Any width. */
FK_CTAB_HOT int fk_ctab_find(const fk_ctab *t, uint64_t b, uint32_t fp)
{
    uint64_t m;
    switch (t->f) {
#define FK_CTAB_FIND_CASE(F)                                                        \
    case F:                                                                         \
        m = fk_ctab_match_w(t, b, fp, F);                                    \
        return m ? fk_ctab_slot_of_bit((unsigned)__builtin_ctzll(m), F) : -1;
        FK_CTAB_EACH_WIDTH(FK_CTAB_FIND_CASE)
#undef FK_CTAB_FIND_CASE
    default:
        return fk_ctab_find128(t, b, fp);
    }
}

/* True when bucket b1 or b2 holds fp (fp != 0): both buckets are read and
 * compared whole, no per-slot branch. */
FK_CTAB_HOT bool fk_ctab_has2(const fk_ctab *t, uint64_t b1, uint64_t b2, uint32_t fp)
{
    switch (t->f) {
#define FK_CTAB_HAS2_CASE(F)                                                        \
    case F:                                                                         \
        return (fk_ctab_match_w(t, b1, fp, F) | fk_ctab_match_w(t, b2, fp, F)) != 0;
        FK_CTAB_EACH_WIDTH(FK_CTAB_HAS2_CASE)
#undef FK_CTAB_HAS2_CASE
    default:
        return fk_ctab_has2_128(t, b1, b2, fp);
    }
}

/* ------------------------------------------------------ single slots */

/* Slot j (0..3) of bucket b: one 64-bit load at the slot's byte, since
 * f + 7 <= 39 bits always fit. */
FK_CTAB_HOT uint32_t fk_ctab_get(const fk_ctab *t, uint64_t b, unsigned j)
{
    uint64_t bit = b * t->bucket_bits + (uint64_t)j * t->f;
    return (uint32_t)(fk_ctab_load64(t->bytes + (bit >> 3)) >> (bit & 7)) & t->fp_mask;
}

/* Stores v (< 2^f; 0 empties the slot) in slot j of bucket b, leaving
 * every other bit as it was. */
FK_CTAB_HOT void fk_ctab_set(fk_ctab *t, uint64_t b, unsigned j, uint32_t v)
{
    uint64_t bit = b * t->bucket_bits + (uint64_t)j * t->f;
    uint8_t *p = t->bytes + (bit >> 3);
    unsigned sh = (unsigned)(bit & 7);
    uint64_t w = fk_ctab_load64(p);
    w = (w & ~((uint64_t)t->fp_mask << sh)) | ((uint64_t)v << sh);
    fk_ctab_store64(p, w);
}

/* fk_ctab_set for a width F (4..16) known at compile time. */
FK_CTAB_HOT void fk_ctab_set_w(fk_ctab *t, uint64_t b, unsigned j, uint32_t v, const unsigned F)
{
    uint64_t bit = b * (4 * F) + (uint64_t)j * F;
    uint8_t *p = t->bytes + (bit >> 3);
    unsigned sh = (unsigned)(bit & 7);
    uint64_t w = fk_ctab_load64(p);
    w = (w & ~(((UINT64_C(1) << F) - 1) << sh)) | ((uint64_t)v << sh);
    fk_ctab_store64(p, w);
}

/* The first byte of bucket b, for prefetching it (a bucket of 4f bits
 * starts at bit 4f*b). */
FK_CTAB_HOT const uint8_t *fk_ctab_bucket_addr(const fk_ctab *t, uint64_t b)
{
    return t->bytes + ((b * t->bucket_bits) >> 3);
}

#endif
