/* tests/fpset/fpset.c: the fpset kind's core: create, insert, lookup,
 * remove, stats, sizing and its fk_ops table (fpset.h says what it is). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fpset_internal.h"
#include "../../common/hash.h"


static fk_status fpset_geometry(const fk_params *p, uint64_t *slots, uint32_t *f)
{
    fk_status s = fk_params_check(p);
    if (s != FK_OK)
        return s;
    if (p->capacity > FK_MEMORY_CAP / 16)
        return FK_EINVAL;
    double bits = ceil(log2((double)p->capacity / p->fpr));
    *f = bits < 1.0 ? 1u : bits > 62.0 ? 62u : (uint32_t)bits;
    for (*slots = 8; *slots < 2 * p->capacity; *slots <<= 1)
        ;
    return FK_OK;
}

fk_status fpset_create_exact(uint64_t slots, uint32_t f, uint64_t seed, uint64_t capacity,
                                    double fpr, fpset **out)
{
    *out = NULL;
    fpset *s = calloc(1, sizeof *s);
    uint64_t *slot = calloc((size_t)slots, sizeof *slot);
    if (!s || !slot) {
        free(s);
        free(slot);
        return FK_ENOMEM;
    }
    *s = (fpset){ { .ops = &fk_test_fpset_ops }, slot, slots - 1, f, seed, capacity, 0, fpr };
    *out = s;
    return FK_OK;
}

static fk_status fpset_new(const fk_params *p, fpset **out)
{
    uint64_t slots;
    uint32_t f;
    *out = NULL;
    fk_status s = fpset_geometry(p, &slots, &f);
    return s != FK_OK ? s : fpset_create_exact(slots, f, p->seed, p->capacity, p->fpr, out);
}

void fpset_free(fpset *s)
{
    if (s)
        free(s->slot);
    free(s);
}

static uint64_t fpset_value(const fpset *s, const void *key, size_t len)
{
    return (fk_hash_key(key, len, s->seed).lo >> (64 - s->f)) + 1;
}

static uint64_t fpset_home(const fpset *s, uint64_t value) { return fk_mix64(value) & s->mask; }

/* The slot holding value, or the empty slot that ends its probe run. */
static uint64_t fpset_find(const fpset *s, uint64_t value)
{
    uint64_t i = fpset_home(s, value);
    while (s->slot[i] && s->slot[i] != value)
        i = (i + 1) & s->mask;
    return i;
}

static fk_status fpset_insert(fpset *s, const void *key, size_t len)
{
    if (!key && len)
        return FK_EINVAL;
    if (s->items == fpset_limit(s->mask + 1))
        return FK_EFULL;
    uint64_t value = fpset_value(s, key, len), i = fpset_home(s, value);
    while (s->slot[i]) /* a multiset: a repeated key takes another slot */
        i = (i + 1) & s->mask;
    s->slot[i] = value;
    s->items++;
    return FK_OK;
}

static bool fpset_contains(const fpset *s, const void *key, size_t len)
{
    if (!key && len)
        return false;
    return s->slot[fpset_find(s, fpset_value(s, key, len))] != 0;
}

static fk_status fpset_remove(fpset *s, const void *key, size_t len)
{
    if (!key && len)
        return FK_EINVAL;
    uint64_t i = fpset_find(s, fpset_value(s, key, len));
    if (!s->slot[i])
        return FK_ENOTFOUND;
    /* backward-shift deletion: pull each later entry of the run into the
     * hole when its home does not lie between the hole and itself */
    s->slot[i] = 0;
    for (uint64_t j = (i + 1) & s->mask; s->slot[j]; j = (j + 1) & s->mask) {
        uint64_t home = fpset_home(s, s->slot[j]);
        if (((j - home) & s->mask) >= ((j - i) & s->mask)) {
            s->slot[i] = s->slot[j];
            s->slot[j] = 0;
            i = j;
        }
    }
    s->items--;
    return FK_OK;
}

static double fpset_theory(uint32_t f, double items)
{
    return -expm1(items * log1p(-ldexp(1.0, -(int)f)));
}

static void fpset_stats(const fpset *s, fk_stats *out)
{
    memset(out, 0, sizeof *out);
    out->items = s->items;
    out->capacity = s->capacity;
    out->memory_bytes = (s->mask + 1) * 8 + sizeof *s;
    out->bits_per_item = 8.0 * (double)out->memory_bytes / (double)s->capacity;
    out->load_factor = (double)s->items / (double)(s->mask + 1);
    out->expected_fpr = fpset_theory(s->f, (double)s->items);
}

FK_OPS_FORWARD(fpset, fpset)
FK_OPS_FORWARD_REMOVE(fpset, fpset)

static fk_status fpset_size(const fk_params *p, double items, fk_sizing *out)
{
    uint64_t slots;
    uint32_t f;
    fk_status s = fpset_geometry(p, &slots, &f);
    if (s != FK_OK)
        return s;
    out->memory_bytes = slots * 8 + sizeof(fpset);
    out->expected_fpr = fpset_theory(f, items);
    snprintf(out->geometry, sizeof out->geometry, "%u-bit fingerprints in %llu slots", f,
             (unsigned long long)slots);
    return FK_OK;
}

const fk_ops fk_test_fpset_ops = {
    .version = FK_OPS_VERSION,
    .name = "fpset",
    .summary = "test-only: an exact set of f-bit fingerprints (tests/fpset/)",
    .caps = FK_CAP_BOUNDED,
    FK_OPS_FORWARD_SLOTS(fpset),
    .remove = fpset_slot_remove,
    .serial = &fpset_serial_ops,
    .size = fpset_size,
};
