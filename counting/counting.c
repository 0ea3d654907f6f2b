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
    c->hash8 = fk_hash8_flip128(seed);
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

/* Keys of any length but 8, out of line: XXH3's code for every length
 * would cost the 8-byte path its saved registers. */
__attribute__((noinline)) FK_HOT static fk_status insert_any(fk_counting *c, const void *key,
                                                             size_t len)
{
    if (!key && len)
        return FK_EINVAL;
    fk_counting_add_probes(c, fk_probe_start(fk_hash_key(key, len, c->seed)));
    return FK_OK;
}

__attribute__((noinline)) FK_HOT static bool contains_any(const fk_counting *c, const void *key,
                                                          size_t len)
{
    return (key || !len) &&
           fk_counting_test_probes(c, fk_probe_start(fk_hash_key(key, len, c->seed)));
}

FK_HOT fk_status fk_counting_insert(fk_counting *c, const void *key, size_t len)
{
    if (!c)
        return FK_EINVAL;
    if (len != 8 || !key)
        return insert_any(c, key, len);
    fk_counting_add_probes(c, fk_probe_start(fk_hash8_128(fk_hash8_load(key), c->hash8)));
    return FK_OK;
}

FK_HOT bool fk_counting_contains(const fk_counting *c, const void *key, size_t len)
{
    if (!c)
        return false;
    if (len != 8 || !key)
        return contains_any(c, key, len);
    return fk_counting_test_probes(c, fk_probe_start(fk_hash8_128(fk_hash8_load(key), c->hash8)));
}

FK_HOT fk_status fk_counting_remove(fk_counting *c, const void *key, size_t len)
{
    if (!c || (!key && len))
        return FK_EINVAL;
    return fk_counting_remove_probes(c, fk_probe_start(fk_counting_hash(c, key, len)));
}

FK_HOT fk_status fk_counting_insert_u64(fk_counting *c, uint64_t key)
{
    if (!c)
        return FK_EINVAL;
    fk_counting_add_probes(c, fk_probe_start(fk_hash8_128(key, c->hash8)));
    return FK_OK;
}

FK_HOT bool fk_counting_contains_u64(const fk_counting *c, uint64_t key)
{
    return c && fk_counting_test_probes(c, fk_probe_start(fk_hash8_128(key, c->hash8)));
}

FK_HOT fk_status fk_counting_remove_u64(fk_counting *c, uint64_t key)
{
    if (!c)
        return FK_EINVAL;
    return fk_counting_remove_probes(c, fk_probe_start(fk_hash8_128(key, c->hash8)));
}

/* The u64 slots: the dispatchers checked f. */
FK_HOT bool fk_counting_ops_contains_u64(const fk_filter *f, uint64_t key)
{
    const fk_counting *c = (const fk_counting *)f;
    return fk_counting_test_probes(c, fk_probe_start(fk_hash8_128(key, c->hash8)));
}

FK_HOT fk_status fk_counting_ops_insert_u64(fk_filter *f, uint64_t key)
{
    fk_counting *c = (fk_counting *)f;
    fk_counting_add_probes(c, fk_probe_start(fk_hash8_128(key, c->hash8)));
    return FK_OK;
}

FK_HOT fk_status fk_counting_ops_remove_u64(fk_filter *f, uint64_t key)
{
    fk_counting *c = (fk_counting *)f;
    return fk_counting_remove_probes(c, fk_probe_start(fk_hash8_128(key, c->hash8)));
}

uint32_t fk_counting_count(const fk_counting *c, const void *key, size_t len)
{
    if (!c || (!key && len))
        return 0;
    fk_probe pr = fk_probe_start(fk_counting_hash(c, key, len));
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
    fk_probe pr = fk_probe_start(fk_counting_hash(c, key, len));
    for (uint32_t i = 0; i < c->k; i++)
        out[i] = fk_probe_next(&pr, c->m);
    return FK_OK;
}
