/* blocked/blocked_set.c: union, intersection and the distinct-count estimate
 * of blocked filters. */
#include <math.h>
#include "blocked_internal.h"

static bool compatible(const fk_blocked *a, const fk_blocked *b)
{
    return a->blocks == b->blocks && a->seed == b->seed;
}

static uint64_t word_count(const fk_blocked *b)
{
    return b->blocks * FK_BLOCKED_WORDS;
}

fk_status fk_blocked_union(fk_blocked *dst, const fk_blocked *src)
{
    if (!dst || !src || !compatible(dst, src))
        return FK_EINVAL;
    if (dst == src)
        return FK_OK;
    for (uint64_t i = 0, n = word_count(dst); i < n; i++)
        dst->words[i] |= src->words[i];
    uint64_t have = fk_blocked_item_count(dst), add = fk_blocked_item_count(src);
    fk_tally_reset(&dst->tally);
    dst->items = have > UINT64_MAX - add ? UINT64_MAX : have + add;
    return FK_OK;
}

fk_status fk_blocked_intersect(fk_blocked *dst, const fk_blocked *src)
{
    if (!dst || !src || !compatible(dst, src))
        return FK_EINVAL;
    if (dst == src)
        return FK_OK;
    for (uint64_t i = 0, n = word_count(dst); i < n; i++)
        dst->words[i] &= src->words[i];
    double est = fk_blocked_estimate_items(dst);
    dst->items = isfinite(est) ? (uint64_t)llround(est) : fk_blocked_item_count(dst);
    fk_tally_reset(&dst->tally);
    return FK_OK;
}

double fk_blocked_estimate_items(const fk_blocked *b)
{
    if (!b)
        return 0.0;
    return fk_theory_blocked_items(b->blocks, fk_blocked_count_set_bits(b));
}
