/* registry/scalable_kinds.c: the registered growing kinds, each a
 * small fk_ops table binding the wrapper (scalable/scalable.h) to one inner
 * kind. They live here, beside the registry, because they name kinds;
 * the wrapper itself knows none. All three save under FK_KIND_SCALABLE,
 * told apart by the inner kind's id (kind parameter 0). */
#include "registry.h"
#include "../common/hashed.h"
#include "../scalable/scalable_internal.h"

extern const fk_ops fk_bloom_ops, fk_blocked_ops, fk_cuckoo_ops;
/* each kind's probes from a hash (common/hashed.h; declared in the kind's
 * internal header, not exported): a chain hashes a key once for all its
 * links */
extern const fk_hashed_ops fk_bloom_hashed_ops, fk_blocked_hashed_ops, fk_cuckoo_hashed_ops;

/* A chain just made or loaded (status s), bound to its kind's probes from
 * a hash. */
static fk_status bind_hashed(fk_status s, fk_filter *f, const fk_hashed_ops *hashed)
{
    if (s == FK_OK)
        fk_scalable_bind_hashed(f, hashed);
    return s;
}

/* The slots that bind table KIND##_ops to inner kind INNER, whose probes
 * from a hash are HASHED. */
#define SCALABLE_BINDING(KIND, INNER, HASHED)                                           \
    extern const fk_ops KIND##_ops;                                                     \
    static fk_status KIND##_slot_create(const fk_params *p, fk_filter **out)            \
    {                                                                                   \
        fk_status s = fk_scalable_new_as(&KIND##_ops, &INNER, p, out);                  \
        return bind_hashed(s, s == FK_OK ? *out : NULL, &HASHED);                       \
    }                                                                                   \
    static fk_status KIND##_slot_size(const fk_params *p, double items, fk_sizing *out) \
    {                                                                                   \
        return fk_scalable_size(&INNER, p, items, out);                                 \
    }                                                                                   \
    static fk_status KIND##_check_head(const fk_serial_head *h)                         \
    {                                                                                   \
        return fk_scalable_check_head(&INNER, h);                                       \
    }                                                                                   \
    static fk_status KIND##_load(const fk_serial_head *h, const uint8_t *payload,       \
                                  fk_filter **out)                                       \
    {                                                                                   \
        fk_status s = fk_scalable_load(&KIND##_ops, &INNER, h, payload, out);           \
        return bind_hashed(s, s == FK_OK ? *out : NULL, &HASHED);                       \
    }                                                                                   \
    static const fk_serial_ops KIND##_serial = {                                        \
        .kind_id = FK_KIND_SCALABLE,                                                    \
        .param_names = FK_SCALABLE_PARAM_NAMES,                                         \
        .save_head = fk_scalable_save_head,                                             \
        .save_payload = fk_scalable_save_payload,                                       \
        .check_head = KIND##_check_head,                                                \
        .load = KIND##_load,                                                            \
        .stream_payload = fk_scalable_stream_payload,                                   \
    };

#define SCALABLE_SLOTS(KIND)                                                            \
    .version = FK_OPS_VERSION, .create = KIND##_slot_create,                            \
    .destroy = fk_scalable_slot_destroy, .insert = fk_scalable_slot_insert,             \
    .contains = fk_scalable_slot_contains, .stats = fk_scalable_slot_stats,             \
    .serial = &KIND##_serial, .size = KIND##_slot_size, FK_SCALABLE_BATCH_SLOTS,        \
    FK_SCALABLE_CONCURRENT_SLOTS

SCALABLE_BINDING(fk_scalable_bloom, fk_bloom_ops, fk_bloom_hashed_ops)
const fk_ops fk_scalable_bloom_ops = {
    SCALABLE_SLOTS(fk_scalable_bloom),
    .caps = FK_CAP_GROWS,
    .name = "scalable-bloom",
    .summary = "growing chain of Bloom filters (x2 capacity, x0.9 fpr each); no capacity to guess",
};

SCALABLE_BINDING(fk_scalable_blocked, fk_blocked_ops, fk_blocked_hashed_ops)
const fk_ops fk_scalable_blocked_ops = {
    SCALABLE_SLOTS(fk_scalable_blocked),
    .caps = FK_CAP_GROWS,
    .name = "scalable-blocked",
    .summary = "growing chain of blocked Bloom filters (x2 capacity, x0.9 fpr each)",
};

SCALABLE_BINDING(fk_scalable_cuckoo, fk_cuckoo_ops, fk_cuckoo_hashed_ops)
const fk_ops fk_scalable_cuckoo_ops = {
    SCALABLE_SLOTS(fk_scalable_cuckoo),
    .caps = FK_CAP_GROWS | FK_CAP_COUNT, /* the copies summed over its links */
    .name = "scalable-cuckoo",
    .summary = "growing chain of cuckoo filters (x2 capacity, x0.9 fpr each); removes",
    .remove = fk_scalable_slot_remove,
    .remove_concurrent = fk_scalable_slot_remove_concurrent,
    .count = fk_scalable_slot_count,
};
