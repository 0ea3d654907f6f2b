/* bloom/bloom_ops.c: the Bloom filter behind the fk_ops vtable: the slots
 * forward to the direct API; sizing and theory answer for the kind. */
#include <stdio.h>
#include "bloom_internal.h"

FK_OPS_FORWARD(fk_bloom, fk_bloom)

static fk_status insert_concurrent(fk_filter *f, const void *key, size_t len)
{
    return fk_bloom_insert_concurrent((fk_bloom *)f, key, len);
}

static fk_status merge(fk_filter *dst, const fk_filter *src)
{
    return fk_bloom_union((fk_bloom *)dst, (const fk_bloom *)src);
}

/* The m and k that fk_bloom_new would use, with its limits. */
static fk_status geometry(const fk_params *p, uint64_t *m, uint32_t *k)
{
    fk_status s = fk_size_bloom_geometry(p, m, k);
    if (s == FK_OK && (*m > UINT64_MAX - 63 || (*m + 63) / 64 > FK_MEMORY_CAP / 8))
        s = FK_EINVAL;
    return s;
}

static fk_status size(const fk_params *p, double items, fk_sizing *out)
{
    uint64_t m;
    uint32_t k;
    fk_status s = geometry(p, &m, &k);
    if (s != FK_OK)
        return s;
    out->memory_bytes = (m + 63) / 64 * 8 + sizeof(fk_bloom);
    out->expected_fpr = fk_theory_bloom_fpr(m, k, items);
    snprintf(out->geometry, sizeof out->geometry, "m = %llu bits, k = %u probes",
             (unsigned long long)m, k);
    return FK_OK;
}

const fk_ops fk_bloom_ops = {
    .version = FK_OPS_VERSION,
    .name = "bloom",
    .summary = "standard Bloom filter: m bits, k probes from one hash; no removes",
    FK_OPS_FORWARD_SLOTS(fk_bloom),
    .serial = &fk_bloom_serial_ops,
    .size = size,
    .contains_many = fk_bloom_ops_contains_many,
    .insert_many = fk_bloom_ops_insert_many,
    .contains_many_u64 = fk_bloom_ops_contains_many_u64,
    .insert_many_u64 = fk_bloom_ops_insert_many_u64,
    .insert_concurrent = insert_concurrent,
    .merge = merge,
    .contains_u64 = fk_bloom_ops_contains_u64,
    .insert_u64 = fk_bloom_ops_insert_u64,
};
