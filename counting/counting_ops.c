/* counting/counting_ops.c: the counting Bloom filter behind the fk_ops
 * vtable: the slots forward to the direct API; sizing and theory answer
 * for the kind. */
#include <stdio.h>
#include "counting_internal.h"

FK_OPS_FORWARD(fk_counting, fk_counting)
FK_OPS_FORWARD_REMOVE(fk_counting, fk_counting)

static fk_status insert_concurrent(fk_filter *f, const void *key, size_t len)
{
    return fk_counting_insert_concurrent((fk_counting *)f, key, len);
}

static fk_status remove_concurrent(fk_filter *f, const void *key, size_t len)
{
    return fk_counting_remove_concurrent((fk_counting *)f, key, len);
}

static fk_status count(const fk_filter *f, const void *key, size_t len, uint64_t *out)
{
    *out = fk_counting_count((const fk_counting *)f, key, len);
    return FK_OK;
}

/* The m, k and counter width that fk_counting_new would use, with its
 * limits. */
static fk_status geometry(const fk_params *p, uint64_t *m, uint32_t *k, uint32_t *width)
{
    fk_status s = fk_size_bloom_geometry(p, m, k);
    if (s != FK_OK)
        return s;
    *width = p->counter_bits ? p->counter_bits : FK_COUNTING_DEFAULT_BITS;
    if ((*width != 4 && *width != 8) || *m > FK_MEMORY_CAP / *width * 8)
        return FK_EINVAL;
    return FK_OK;
}

/* A counter is nonzero exactly when the Bloom filter's bit would be set,
 * so the theory is the Bloom filter's (saturation only ever keeps ones). */
static fk_status size(const fk_params *p, double items, fk_sizing *out)
{
    uint64_t m;
    uint32_t k, width;
    fk_status s = geometry(p, &m, &k, &width);
    if (s != FK_OK)
        return s;
    out->memory_bytes = (m * width + 63) / 64 * 8 + sizeof(fk_counting);
    out->expected_fpr = fk_theory_bloom_fpr(m, k, items);
    snprintf(out->geometry, sizeof out->geometry, "m = %llu %u-bit counters, k = %u probes",
             (unsigned long long)m, width, k);
    return FK_OK;
}

const fk_ops fk_counting_ops = {
    .version = FK_OPS_VERSION,
    .name = "counting",
    .summary = "counting Bloom filter: m saturating 4- or 8-bit counters, k probes; removes",
    .caps = FK_CAP_COUNT,
    FK_OPS_FORWARD_SLOTS(fk_counting),
    .remove = fk_counting_fwd_remove,
    .serial = &fk_counting_serial_ops,
    .size = size,
    .contains_many = fk_counting_ops_contains_many,
    .insert_many = fk_counting_ops_insert_many,
    .contains_many_u64 = fk_counting_ops_contains_many_u64,
    .insert_many_u64 = fk_counting_ops_insert_many_u64,
    .remove_many = fk_counting_ops_remove_many,
    .insert_concurrent = insert_concurrent,
    .remove_concurrent = remove_concurrent,
    .count = count,
    .contains_u64 = fk_counting_ops_contains_u64,
    .insert_u64 = fk_counting_ops_insert_u64,
    .remove_u64 = fk_counting_ops_remove_u64,
};
