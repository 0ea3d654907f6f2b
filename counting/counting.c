/* counting/counting.c: the counting Bloom filter: create, insert, lookup,
 * remove, count. */
#include <stdlib.h>
#include <string.h>
#include "counting_internal.h"
#include "../common/alloc.h"
#include "../common/atomic.h"
#include "../common/probe.h"

/* --------------------------------------------------------------- create */

fk_status fk_counting_create_exact(uint64_t m, uint32_t k, uint32_t width, uint64_t seed,
                                   uint64_t capacity, double fpr, fk_counting **out)
{
    *out = NULL;
    if (m == 0 || k == 0 || k > FK_BLOOM_MAX_HASHES || (width != 4 && width != 8))
        return FK_EINVAL;
    /* bytes = ceil(m * width / 64) * 8, checked before it can overflow. */
    if (m > FK_MEMORY_CAP / width * 8)
        return FK_EINVAL;
    uint64_t bytes = (m * width + 63) / 64 * 8;
    fk_counting *c = calloc(1, sizeof *c);
    if (!c)
        return FK_ENOMEM;
    void *ctr;
    fk_status s = fk_alloc_zeroed(bytes, &ctr);
    if (s != FK_OK) {
        free(c);
        return s;
    }
    c->base.ops = &fk_counting_ops;
    c->m = m;
    c->k = k;
    c->width = width;
    c->shift = width == 4 ? 1u : 0u;
    c->max = (1u << width) - 1u;
    c->seed = seed;
    c->capacity = capacity;
    c->fpr = fpr;
    c->bytes = bytes;
    c->ctr = ctr;
    *out = c;
    return FK_OK;
}

fk_status fk_counting_new(const fk_params *p, fk_counting **out)
{
    if (!out)
        return FK_EINVAL;
    *out = NULL;
    uint64_t m;
    uint32_t k;
    fk_status s = fk_size_bloom_geometry(p, &m, &k);
    if (s != FK_OK)
        return s;
    uint32_t width = p->counter_bits ? p->counter_bits : FK_COUNTING_DEFAULT_BITS;
    if (width != 4 && width != 8)
        return FK_EINVAL;
    return fk_counting_create_exact(m, k, width, p->seed, p->capacity, p->fpr, out);
}

void fk_counting_free(fk_counting *c)
{
    if (!c)
        return;
    free(c->ctr);
    fk_tally_release(&c->tally);
    fk_tally_release(&c->sat_tally);
    free(c);
}

void fk_counting_clear(fk_counting *c)
{
    if (!c)
        return;
    memset(c->ctr, 0, c->bytes);
    c->items = 0;
    c->saturations = 0;
    fk_tally_reset(&c->tally);
    fk_tally_reset(&c->sat_tally);
}

/* ------------------------------------------------------ insert / lookup */

/* The insert loop, inlined twice below with shift a constant (1 or 0) so
 * each width gets immediate shifts and masks. Returns how many counters
 * reached the maximum. */
static inline uint64_t increment_all(uint8_t *ctr, fk_probe pr, uint64_t m, uint32_t k,
                                     uint32_t shift)
{
    const fk_ctr_view v = { ctr, shift, shift ? 15u : 255u };
    uint64_t saturated = 0;
    for (uint32_t i = 0; i < k; i++) {
        uint64_t pos = fk_probe_next(&pr, m);
        uint32_t x = fk_ctr_get(v, pos);
        if (x == v.max)
            continue; /* saturated: stays at max for ever */
        fk_ctr_inc(v, pos);
        saturated += x + 1 == v.max;
    }
    return saturated;
}

FK_HOT fk_status fk_counting_insert(fk_counting *c, const void *key, size_t len)
{
    if (!c || (!key && len))
        return FK_EINVAL;
    fk_probe pr = fk_probe_start(fk_hash_key(key, len, c->seed));
    c->saturations += c->shift ? increment_all(c->ctr, pr, c->m, c->k, 1)
                               : increment_all(c->ctr, pr, c->m, c->k, 0);
    c->items++;
    return FK_OK;
}

/* Probes are tested in branch-free groups of FK_COUNTING_GROUP and the
 * lookup exits after the first group holding a zero counter, as the Bloom
 * filter does (see bloom.c): a per-probe exit mispredicts on nearly every
 * negative lookup, a group of 4 at half fill holds a zero with probability
 * 15/16, so negatives exit predictably after one group. */
#define FK_COUNTING_GROUP 4u

/* 1 when counter pos is nonzero, else 0, with no branch and no variable
 * shift: mask the byte with the counter's own bits (a 2-entry table for
 * 4-bit counters, 0xFF for bytes); a masked value in 0..0xFF plus 0xFF
 * carries into bit 8 exactly when it is nonzero. (Arithmetic rather than
 * bool, which compilers turn back into a branch per probe.) */
static const uint8_t nibble_mask[2] = { 0x0F, 0xF0 };

static inline uint32_t ctr_nonzero(const uint8_t *ctr, uint64_t pos, uint32_t shift)
{
    uint32_t mask = shift ? nibble_mask[pos & 1] : 0xFFu;
    return ((fk_load8(&ctr[pos >> shift]) & mask) + 0xFFu) >> 8;
}

/* The lookup loop, inlined twice below with shift a constant (1 or 0) so
 * each width gets straight-line code with immediate shifts and masks. */
static inline bool all_nonzero(const uint8_t *ctr, fk_probe pr, uint64_t m, uint32_t k,
                               uint32_t shift)
{
    uint32_t left = k;
    while (left >= FK_COUNTING_GROUP) {
        uint32_t all = 1;
#pragma GCC unroll 4
        for (uint32_t i = 0; i < FK_COUNTING_GROUP; i++)
            all &= ctr_nonzero(ctr, fk_probe_next(&pr, m), shift);
        if (!all)
            return false;
        left -= FK_COUNTING_GROUP;
    }
    uint32_t all = 1;
#pragma GCC unroll 3
    for (uint32_t i = 0; i < left; i++)
        all &= ctr_nonzero(ctr, fk_probe_next(&pr, m), shift);
    return all;
}

FK_HOT bool fk_counting_contains(const fk_counting *c, const void *key, size_t len)
{
    if (!c || (!key && len))
        return false;
    fk_probe pr = fk_probe_start(fk_hash_key(key, len, c->seed));
    return c->shift ? all_nonzero(c->ctr, pr, c->m, c->k, 1)
                    : all_nonzero(c->ctr, pr, c->m, c->k, 0);
}

FK_HOT fk_status fk_counting_remove(fk_counting *c, const void *key, size_t len)
{
    if (!c || (!key && len))
        return FK_EINVAL;
    fk_probe pr = fk_probe_start(fk_hash_key(key, len, c->seed));
    const fk_ctr_view v = fk_ctr_view_of(c);
    const uint64_t m = c->m;
    const uint32_t k = c->k;
    uint64_t pos[FK_BLOOM_MAX_HASHES];

    /* Check all k counters before touching any: a zero means definitely
     * absent, and the common absent key stops early here. */
    for (uint32_t i = 0; i < k; i++) {
        pos[i] = fk_probe_next(&pr, m);
        if (!fk_ctr_get(v, pos[i]))
            return FK_ENOTFOUND;
    }

    /* Decrement. A key whose probes repeat a position took that counter up
     * by the number of repeats; if the counter runs out first the key was
     * never inserted, so undo the decrements made so far (each restores a
     * value below max, so nothing saturates) and report it absent. */
    for (uint32_t i = 0; i < k; i++) {
        uint32_t x = fk_ctr_get(v, pos[i]);
        if (x == v.max)
            continue; /* saturated: never decremented */
        if (x == 0) {
            while (i-- > 0)
                if (fk_ctr_get(v, pos[i]) != v.max)
                    fk_ctr_inc(v, pos[i]);
            return FK_ENOTFOUND;
        }
        fk_ctr_dec(v, pos[i]);
    }
    if (fk_counting_item_count(c))
        c->items--; /* wraps when concurrent inserts hold the count; the sum is right */
    return FK_OK;
}

uint32_t fk_counting_count(const fk_counting *c, const void *key, size_t len)
{
    if (!c || (!key && len))
        return 0;
    fk_probe pr = fk_probe_start(fk_hash_key(key, len, c->seed));
    const fk_ctr_view v = fk_ctr_view_of(c);
    uint32_t least = v.max;
    for (uint32_t i = 0; i < c->k && least; i++) {
        uint64_t pos = fk_probe_next(&pr, c->m);
        uint32_t x = (uint32_t)(fk_load8(&v.ctr[pos >> v.shift]) >> fk_ctr_offset(v, pos)) & v.max;
        least = x < least ? x : least;
    }
    return least;
}

fk_status fk_counting_positions(const fk_counting *c, const void *key, size_t len,
                                uint64_t *out)
{
    if (!c || !out || (!key && len))
        return FK_EINVAL;
    fk_probe pr = fk_probe_start(fk_hash_key(key, len, c->seed));
    for (uint32_t i = 0; i < c->k; i++)
        out[i] = fk_probe_next(&pr, c->m);
    return FK_OK;
}
