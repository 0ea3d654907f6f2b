/* bloom/bloom_set.c: union, intersection and the distinct-count estimate. */
#include <math.h>
#include "bloom_internal.h"

static bool compatible(const fk_bloom *a, const fk_bloom *b)
{
    return a->m == b->m && a->k == b->k && a->seed == b->seed;
}

fk_status fk_bloom_union(fk_bloom *dst, const fk_bloom *src)
{
    if (!dst || !src || !compatible(dst, src))
        return FK_EINVAL;
    if (dst == src)
        return FK_OK;
    for (uint64_t w = 0; w < dst->words; w++)
        dst->bits[w] |= src->bits[w];
    uint64_t have = fk_bloom_item_count(dst), add = fk_bloom_item_count(src);
    fk_tally_reset(&dst->tally);
    dst->items = have > UINT64_MAX - add ? UINT64_MAX : have + add;
    return FK_OK;
}

fk_status fk_bloom_intersect(fk_bloom *dst, const fk_bloom *src)
{
    if (!dst || !src || !compatible(dst, src))
        return FK_EINVAL;
    if (dst == src)
        return FK_OK;
    for (uint64_t w = 0; w < dst->words; w++)
        dst->bits[w] &= src->bits[w];
    double est = fk_bloom_estimate_items(dst);
    dst->items = isfinite(est) ? (uint64_t)llround(est) : fk_bloom_item_count(dst);
    fk_tally_reset(&dst->tally);
    return FK_OK;
}

double fk_bloom_estimate_items(const fk_bloom *b)
{
    if (!b)
        return 0.0;
    return fk_theory_bloom_items(b->m, b->k, fk_bloom_count_set_bits(b));
}
