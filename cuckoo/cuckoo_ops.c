/* cuckoo/cuckoo_ops.c: the cuckoo filter behind the fk_ops vtable. */
#include "cuckoo_internal.h"
#include "../common/serial.h"

static fk_status ops_create(const fk_params *p, fk_filter **out)
{
    fk_cuckoo *c = NULL;
    fk_status s = fk_cuckoo_new(p, &c);
    *out = c ? &c->base : NULL;
    return s;
}

static void ops_destroy(fk_filter *f) { fk_cuckoo_free((fk_cuckoo *)f); }

static fk_status ops_insert(fk_filter *f, const void *key, size_t len)
{
    return fk_cuckoo_insert((fk_cuckoo *)f, key, len);
}

static bool ops_contains(const fk_filter *f, const void *key, size_t len)
{
    return fk_cuckoo_contains((const fk_cuckoo *)f, key, len);
}

static fk_status ops_remove(fk_filter *f, const void *key, size_t len)
{
    return fk_cuckoo_remove((fk_cuckoo *)f, key, len);
}

static void ops_stats(const fk_filter *f, fk_stats *out)
{
    fk_cuckoo_stats((const fk_cuckoo *)f, out);
}

const fk_ops fk_cuckoo_ops = {
    .name = "cuckoo",
    .summary = "cuckoo filter: 4-slot buckets of f-bit fingerprints, partial-key cuckoo hashing; removes",
    .caps = FK_CAP_REMOVE | FK_CAP_SERIALIZE | FK_CAP_BOUNDED,
    .create = ops_create,
    .destroy = ops_destroy,
    .insert = ops_insert,
    .contains = ops_contains,
    .stats = ops_stats,
    .remove = ops_remove,
    .kind_id = FK_KIND_CUCKOO,
    .save_head = fk_cuckoo_save_head,
    .save_payload = fk_cuckoo_save_payload,
    .check_head = fk_cuckoo_check_head,
    .load = fk_cuckoo_load_payload,
};
