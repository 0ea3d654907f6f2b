/* counting/counting_ops.c: the counting Bloom filter behind the fk_ops
 * vtable. */
#include "counting_internal.h"
#include "../common/serial.h"

static fk_status ops_create(const fk_params *p, fk_filter **out)
{
    fk_counting *c = NULL;
    fk_status s = fk_counting_new(p, &c);
    *out = c ? &c->base : NULL;
    return s;
}

static void ops_destroy(fk_filter *f) { fk_counting_free((fk_counting *)f); }

static fk_status ops_insert(fk_filter *f, const void *key, size_t len)
{
    return fk_counting_insert((fk_counting *)f, key, len);
}

static bool ops_contains(const fk_filter *f, const void *key, size_t len)
{
    return fk_counting_contains((const fk_counting *)f, key, len);
}

static fk_status ops_remove(fk_filter *f, const void *key, size_t len)
{
    return fk_counting_remove((fk_counting *)f, key, len);
}

static void ops_stats(const fk_filter *f, fk_stats *out)
{
    fk_counting_stats((const fk_counting *)f, out);
}

const fk_ops fk_counting_ops = {
    .name = "counting",
    .summary = "counting Bloom filter: m saturating 4- or 8-bit counters, k probes; removes",
    .caps = FK_CAP_REMOVE | FK_CAP_COUNT | FK_CAP_SERIALIZE,
    .create = ops_create,
    .destroy = ops_destroy,
    .insert = ops_insert,
    .contains = ops_contains,
    .stats = ops_stats,
    .remove = ops_remove,
    .kind_id = FK_KIND_COUNTING,
    .save_head = fk_counting_save_head,
    .save_payload = fk_counting_save_payload,
    .check_head = fk_counting_check_head,
    .load = fk_counting_load_payload,
};
