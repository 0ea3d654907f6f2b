/* cuckoo/cuckoo_table.c: the out-of-line bodies of cuckoo_table.h: the
 * packed bucket array's allocation and release, and the finds over
 * 128-bit buckets (f > 16) that the inline paths call. */
#include <stdlib.h>
#include "cuckoo_table.h"
#include "../common/alloc.h"
#include "../common/bits.h"

/* ---- allocation of the packed bucket array. */

fk_status fk_ctab_alloc(fk_ctab *t, uint64_t buckets, uint32_t f)
{
    memset(t, 0, sizeof *t);
    if (f < 4 || f > 32 || buckets == 0)
        return FK_EINVAL;
    uint64_t bits;
    if (!fk_mul_ok(buckets, (uint64_t)FK_CTAB_SLOTS * f, &bits) || bits > UINT64_MAX - 7)
        return FK_EINVAL;
    uint64_t data = (bits + 7) / 8;
    if (data > FK_MEMORY_CAP)
        return FK_EINVAL;
    /* Count what is really held: packed data + pad, rounded to the line. */
    uint64_t bytes = (data + FK_CTAB_PAD + 63) & ~UINT64_C(63);
    void *mem;
    fk_status s = fk_alloc_zeroed(bytes, &mem);
    if (s != FK_OK)
        return s;
    t->bytes = mem;
    t->buckets = buckets;
    t->alloc_bytes = bytes;
    t->f = f;
    t->fp_mask = (uint32_t)((UINT64_C(1) << f) - 1);
    t->bucket_bits = FK_CTAB_SLOTS * f;
    for (unsigned j = 0; j < FK_CTAB_SLOTS; j++) {
        if (f <= 16)
            t->ones |= UINT64_C(1) << (j * f);
        else
            t->ones128 |= (fk_ctab_u128)1 << (j * f);
    }
    t->highs = t->ones << (f - 1);
    t->highs128 = t->ones128 << (f - 1);
    t->bucket_mask = f < 16 ? (UINT64_C(1) << t->bucket_bits) - 1 : UINT64_MAX;
    return FK_OK;
}

void fk_ctab_release(fk_ctab *t)
{
    if (!t)
        return;
    free(t->bytes);
    t->bytes = NULL;
}

/* ------------------------------------------------- 128-bit buckets */

/* The zero-field mask of bucket b against fp (f > 16): one word-wide
 * compare of all four slots. */
static inline fk_ctab_u128 match128(const fk_ctab *t, uint64_t b, uint32_t fp)
{
    return fk_ctab_zero_fields128(fk_ctab_bucket128(t, b) ^ (fp * t->ones128), t->ones128,
                                  t->highs128);
}

int fk_ctab_find128(const fk_ctab *t, uint64_t b, uint32_t fp)
{
    fk_ctab_u128 m = match128(t, b, fp);
    uint64_t lo = (uint64_t)m, hi = (uint64_t)(m >> 64);
    if (lo)
        return fk_ctab_slot_of_bit((unsigned)__builtin_ctzll(lo), t->f);
    if (hi)
        return fk_ctab_slot_of_bit(64u + (unsigned)__builtin_ctzll(hi), t->f);
    return -1;
}

bool fk_ctab_has2_128(const fk_ctab *t, uint64_t b1, uint64_t b2, uint32_t fp)
{
    return (match128(t, b1, fp) | match128(t, b2, fp)) != 0;
}
