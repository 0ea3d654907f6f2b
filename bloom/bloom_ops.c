/* bloom/bloom_ops.c: the Bloom filter behind the fk_ops vtable. */
#include "bloom_internal.h"
#include "../common/serial.h"

static fk_status ops_create(const fk_params *p, fk_filter **out)
{
    fk_bloom *b = NULL;
    fk_status s = fk_bloom_new(p, &b);
    *out = b ? &b->base : NULL;
    return s;
}

static void ops_destroy(fk_filter *f) { fk_bloom_free((fk_bloom *)f); }

static fk_status ops_insert(fk_filter *f, const void *key, size_t len)
{
    return fk_bloom_insert((fk_bloom *)f, key, len);
}

static bool ops_contains(const fk_filter *f, const void *key, size_t len)
{
    return fk_bloom_contains((const fk_bloom *)f, key, len);
}

static void ops_stats(const fk_filter *f, fk_stats *out)
{
    fk_bloom_stats((const fk_bloom *)f, out);
}

const fk_ops fk_bloom_ops = {
    .name = "bloom",
    .summary = "standard Bloom filter: m bits, k probes from one hash; no removes",
    .caps = FK_CAP_SERIALIZE,
    .create = ops_create,
    .destroy = ops_destroy,
    .insert = ops_insert,
    .contains = ops_contains,
    .stats = ops_stats,
    .remove = NULL,
    .kind_id = FK_KIND_BLOOM,
    .save_head = fk_bloom_save_head,
    .save_payload = fk_bloom_save_payload,
    .check_head = fk_bloom_check_head,
    .load = fk_bloom_load_payload,
};
