/* blocked/blocked_parquet.c: the blocked filter with Parquet's hashing
 * scheme (blocked.h, "Parquet's split-block filter"): Parquet's sizing
 * rule, filters made from a size or from a file's bitset, and the bitset
 * handed out in the file's byte order. The hashing itself is the kind's
 * code compiled for the scheme (blocked.c, blocked_internal.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "blocked_internal.h"
#include "../common/endian.h"

/* ------------------------------------------------------------ sizing
 *
 * parquet-format's BloomFilter.md sizes the bitset as a classic Bloom
 * filter with k = 8 would be sized: fpp = (1 - e^(-8 n / m))^8, so
 * m = -8 n / ln(1 - fpp^(1/8)) bits; parquet-cpp and parquet-java then
 * truncate m to whole bits, raise it to the 256-bit minimum, round it up
 * to a power of two and cut it to the 128 MiB maximum. */

#define MIN_BITS ((double)FK_BLOCKED_PARQUET_MIN_BYTES * 8.0)
#define MAX_BITS ((double)FK_BLOCKED_PARQUET_MAX_BYTES * 8.0)

/* Bits for n distinct values by Parquet's rule before rounding,
 * -8 n / ln(1 - fpp^(1/8)), evaluated in the writers' order of operations
 * so that the truncation falls where theirs does. */
static double rule_bits(double n, double fpp)
{
    return -8.0 * n / log(1.0 - pow(fpp, 1.0 / 8.0));
}

uint64_t fk_blocked_parquet_bytes(uint64_t ndv, double fpp)
{
    if (!(fpp > 0.0 && fpp < 1.0))
        return 0;
    /* truncated to whole bits and held in [min, max]; an fpp so small that
     * 1 - fpp^(1/8) rounds to 1 makes m -inf, which the writers read as
     * an overflow: the maximum (ndv 0 would make it NaN: the minimum) */
    double m = ndv ? rule_bits((double)ndv, fpp) : 0.0;
    uint64_t bits = m < 0.0 || m >= MAX_BITS ? (uint64_t)MAX_BITS : (uint64_t)m;
    if (bits < (uint64_t)MIN_BITS)
        bits = (uint64_t)MIN_BITS;
    uint64_t pow2 = (uint64_t)MIN_BITS;
    while (pow2 < bits) /* at most 23 doublings: 256 bits to 2^30 */
        pow2 <<= 1;
    return pow2 / 8;
}

/* The capacity a filter of `bytes` records when no ndv was given: the
 * most distinct values Parquet's rule puts in that size at
 * FK_BLOCKED_PARQUET_FPP (at least 1). */
static uint64_t capacity_of(uint64_t bytes)
{
    double n = floor(8.0 * (double)bytes / rule_bits(1.0, FK_BLOCKED_PARQUET_FPP));
    return n >= 1.0 ? (uint64_t)n : 1;
}

static bool size_ok(uint64_t bytes)
{
    return bytes >= FK_BLOCKED_PARQUET_MIN_BYTES && bytes % FK_BLOCKED_BLOCK_BYTES == 0 &&
           fk_blocked_parquet_blocks_ok(bytes / FK_BLOCKED_BLOCK_BYTES);
}

/* ---------------------------------------------------------- creating */

static fk_status create(uint64_t bytes, fk_filter **out)
{
    if (!out)
        return FK_EINVAL;
    *out = NULL;
    if (!size_ok(bytes))
        return FK_EINVAL;
    fk_blocked *b = NULL;
    fk_status s = fk_blocked_create_exact(FK_HASH_SCHEME_PARQUET_XXH64,
                                          bytes / FK_BLOCKED_BLOCK_BYTES, 0, capacity_of(bytes),
                                          FK_BLOCKED_PARQUET_FPP, &b);
    *out = b ? &b->base : NULL;
    return s;
}

fk_status fk_blocked_new_parquet(uint64_t bytes, fk_filter **out)
{
    return create(bytes, out);
}

fk_status fk_blocked_from_sbbf(const void *bitset, size_t bytes, fk_filter **out)
{
    if (out)
        *out = NULL;
    if (!bitset)
        return FK_EINVAL;
    fk_status s = create(bytes, out);
    if (s != FK_OK)
        return s;
    fk_blocked *b = (fk_blocked *)*out;
    const uint8_t *p = bitset;
    for (uint64_t i = 0, n = b->blocks * FK_BLOCKED_WORDS; i < n; i++)
        b->words[i] = fk_le_get32(p + 4 * i);
    /* the keys were never counted: the estimate from the fill stands in */
    double est = fk_theory_blocked_items(b->blocks, fk_blocked_count_set_bits(b));
    b->items = isfinite(est) ? (uint64_t)llround(est) : b->blocks * FK_BLOCKED_BLOCK_BITS;
    return FK_OK;
}

/* ------------------------------------------------------ the bitset */

fk_status fk_blocked_sbbf(const fk_filter *f, const void **bitset, size_t *bytes)
{
    if (bitset)
        *bitset = NULL;
    if (bytes)
        *bytes = 0;
    if (!f || !bitset || !bytes || f->ops != &fk_blocked_ops)
        return FK_EINVAL;
    const fk_blocked *b = (const fk_blocked *)(const void *)f;
    if (!fk_blocked_parquet_scheme(b))
        return FK_EINVAL;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* the words in memory are the file's little-endian words */
    *bitset = b->words;
    *bytes = (size_t)(b->blocks * FK_BLOCKED_BLOCK_BYTES);
    return FK_OK;
#else
    return FK_EUNSUPPORTED;
#endif
}
