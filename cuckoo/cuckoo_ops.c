/* cuckoo/cuckoo_ops.c: the cuckoo filter behind the fk_ops vtable: the
 * slots forward to the direct API; sizing and theory answer for the kind. */
#include <stdio.h>
#include "cuckoo_internal.h"

FK_OPS_FORWARD(fk_cuckoo, fk_cuckoo)
FK_OPS_FORWARD_REMOVE(fk_cuckoo, fk_cuckoo)

static fk_status insert_concurrent(fk_filter *f, const void *key, size_t len)
{
    return fk_cuckoo_insert_concurrent((fk_cuckoo *)f, key, len);
}

static fk_status remove_concurrent(fk_filter *f, const void *key, size_t len)
{
    return fk_cuckoo_remove_concurrent((fk_cuckoo *)f, key, len);
}

/* The u64 slots: fk_filter_*_u64 checked f; the filter's own paths (chosen
 * at creation for its scheme and width) do the rest. */
static bool contains_u64(const fk_filter *f, uint64_t key)
{
    const fk_cuckoo *c = (const fk_cuckoo *)f;
    return c->lookup_u64(c, key);
}

static fk_status insert_u64(fk_filter *f, uint64_t key)
{
    fk_cuckoo *c = (fk_cuckoo *)f;
    return c->insert_u64(c, key);
}

static fk_status remove_u64(fk_filter *f, uint64_t key)
{
    return fk_cuckoo_remove_u64((fk_cuckoo *)f, key);
}

/* The buckets and fingerprint width that fk_cuckoo_new would use, with its
 * limits (cuckoo_table.c: the packed array must fit FK_MEMORY_CAP). */
static fk_status geometry(const fk_params *p, uint64_t *buckets, uint32_t *f)
{
    fk_status s = fk_params_check(p);
    if (s != FK_OK)
        return s;
    *f = p->fingerprint_bits;
    if (*f != 0 && (*f < FK_CUCKOO_MIN_FP_BITS || *f > FK_CUCKOO_MAX_FP_BITS))
        return FK_EINVAL;
    if (*f == 0)
        *f = fk_size_cuckoo_fp_bits(p->fpr);
    uint64_t need;
    if (fk_size_cuckoo_table(p->capacity, p->max_load, &need) != FK_OK)
        return FK_EINVAL;
    uint32_t scheme, chunk_bits;
    fk_cuckoo_new_geometry(need, &scheme, buckets, &chunk_bits);
    if (*f == 0 || *buckets == 0 || *buckets > FK_MEMORY_CAP * 8 / (FK_CUCKOO_SLOTS * *f))
        return FK_EINVAL;
    return FK_OK;
}

static fk_status size(const fk_params *p, double items, fk_sizing *out)
{
    uint64_t buckets;
    uint32_t f;
    fk_status s = geometry(p, &buckets, &f);
    if (s != FK_OK)
        return s;
    /* cuckoo_table.c holds the packed buckets plus a pad, in whole lines */
    uint64_t packed = (buckets * FK_CUCKOO_SLOTS * f + 7) / 8;
    double slots = (double)(buckets * FK_CUCKOO_SLOTS);
    out->memory_bytes = ((packed + FK_CTAB_PAD + 63) & ~UINT64_C(63)) + sizeof(fk_cuckoo);
    out->expected_fpr = fk_theory_cuckoo_fpr(f, items / slots);
    snprintf(out->geometry, sizeof out->geometry,
             "%u-bit fingerprints, %llu buckets x %u slots (%.0f%% full at capacity)", f,
             (unsigned long long)buckets, FK_CUCKOO_SLOTS, 100.0 * (double)p->capacity / slots);
    return FK_OK;
}

/* The stored copies of the key's fingerprint in its two buckets: every
 * insert of the key stored one, so this never under-counts. */
static fk_status count(const fk_filter *f, const void *key, size_t len, uint64_t *out)
{
    const fk_cuckoo *c = (const fk_cuckoo *)f;
    fk_cuckoo_location loc;
    fk_status s = fk_cuckoo_locate(c, key, len, &loc);
    if (s != FK_OK)
        return s;
    unsigned per_bucket = (unsigned)(fk_cuckoo_slots(c) / fk_cuckoo_buckets(c));
    uint64_t n = 0;
    for (unsigned slot = 0; slot < per_bucket; slot++) {
        n += fk_cuckoo_slot(c, loc.i1, slot) == loc.fingerprint;
        if (loc.i2 != loc.i1)
            n += fk_cuckoo_slot(c, loc.i2, slot) == loc.fingerprint;
    }
    *out = n;
    return FK_OK;
}

const fk_ops fk_cuckoo_ops = {
    .version = FK_OPS_VERSION,
    .name = "cuckoo",
    .summary = "cuckoo filter: 4-slot buckets of f-bit fingerprints, partial-key cuckoo hashing; removes",
    .caps = FK_CAP_BOUNDED | FK_CAP_COUNT,
    FK_OPS_FORWARD_SLOTS(fk_cuckoo),
    .remove = fk_cuckoo_fwd_remove,
    .serial = &fk_cuckoo_serial_ops,
    .size = size,
    .contains_many = fk_cuckoo_ops_contains_many,
    .insert_many = fk_cuckoo_ops_insert_many,
    .contains_many_u64 = fk_cuckoo_ops_contains_many_u64,
    .insert_many_u64 = fk_cuckoo_ops_insert_many_u64,
    .remove_many = fk_cuckoo_ops_remove_many,
    .insert_concurrent = insert_concurrent,
    .remove_concurrent = remove_concurrent,
    .count = count,
    .contains_u64 = contains_u64,
    .insert_u64 = insert_u64,
    .remove_u64 = remove_u64,
};
