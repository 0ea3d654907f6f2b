/* tests/kind_fpset.c: a test-only filter kind, "fpset": an exact set of
 * f-bit key fingerprints, f = ceil(log2(capacity / fpr)), so that about
 * fpr of all absent keys share a fingerprint with a present one. Open
 * addressing with linear probing; the home slot derives from the
 * fingerprint alone, so equal fingerprints always meet.
 *
 * It proves that a new kind is its own files plus one registration: it
 * edits nothing else, and after fk_ops_register(&fk_test_fpset_ops) the
 * contract test, `filterkit bench`, `pick` and save/load all take it up.
 * Test programs #include this file, since the Makefile builds each test
 * program from one source. File kind id 0x7F01 (the test-only range;
 * registry/README.md lists the ids).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../common/endian.h"
#include "../common/hash.h"
#include "../common/serial.h"
#include "../registry/registry.h"

#define FK_KIND_TEST_FPSET 0x7F01u

typedef struct {
    fk_filter base;     /* first: an fpset * is an fk_filter * */
    uint64_t *slot;     /* 0 = empty, else fingerprint + 1 */
    uint64_t  mask;     /* slots - 1; slots is a power of two */
    uint32_t  f;        /* fingerprint bits, 1..62 */
    uint64_t  seed, capacity, items;
    double    fpr;
} fpset;

extern const fk_ops fk_test_fpset_ops;

/* Full at 7/8 of the slots; sized so that capacity fills at most half. */
static uint64_t fpset_limit(uint64_t slots) { return slots / 8 * 7; }

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

static fk_status fpset_create_exact(uint64_t slots, uint32_t f, uint64_t seed, uint64_t capacity,
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
    *s = (fpset){ { &fk_test_fpset_ops }, slot, slots - 1, f, seed, capacity, 0, fpr };
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

static void fpset_free(fpset *s)
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

/* ------------------------------------------------------------ saving
 * param[0] = slots, param[1] = f; payload: the slot array, u64 LE each. */

static void fpset_save_head(const fk_filter *x, fk_serial_head *h)
{
    const fpset *s = (const fpset *)x;
    *h = (fk_serial_head){ .seed = s->seed, .capacity = s->capacity, .fpr = s->fpr,
                           .items = s->items, .param = { s->mask + 1, s->f },
                           .payload_len = (s->mask + 1) * 8 };
}

static void fpset_save_payload(const fk_filter *x, uint8_t *dst)
{
    const fpset *s = (const fpset *)x;
    fk_le_put64_array(dst, s->slot, (size_t)(s->mask + 1));
}

static fk_status fpset_check_head(const fk_serial_head *h)
{
    uint64_t slots = h->param[0], f = h->param[1];
    for (unsigned i = 2; i < FK_SERIAL_PARAMS; i++)
        if (h->param[i])
            return FK_ECORRUPT;
    if (slots < 8 || (slots & (slots - 1)) || slots > FK_MEMORY_CAP / 8 || f < 1 || f > 62)
        return FK_ECORRUPT;
    if (h->payload_len != slots * 8 || h->items > fpset_limit(slots))
        return FK_ECORRUPT;
    return FK_OK;
}

static fk_status fpset_load(const fk_serial_head *h, const uint8_t *payload, fk_filter **out)
{
    fpset *s;
    *out = NULL;
    fk_status st = fpset_create_exact(h->param[0], (uint32_t)h->param[1], h->seed, h->capacity,
                                      h->fpr, &s);
    if (st != FK_OK)
        return st;
    fk_le_get64_array(s->slot, payload, (size_t)(s->mask + 1));
    uint64_t used = 0, top = UINT64_C(1) << s->f;
    bool ok = true;
    for (uint64_t i = 0; i <= s->mask; i++) {
        used += s->slot[i] != 0;
        ok &= s->slot[i] <= top;
    }
    if (!ok || used != h->items) {
        fpset_free(s);
        return FK_ECORRUPT;
    }
    s->items = used;
    *out = &s->base;
    return FK_OK;
}

static const fk_serial_ops fpset_serial_ops = {
    .kind_id = FK_KIND_TEST_FPSET,
    .param_names = { "slots", "fingerprint bits" },
    .save_head = fpset_save_head,
    .save_payload = fpset_save_payload,
    .check_head = fpset_check_head,
    .load = fpset_load,
};

const fk_ops fk_test_fpset_ops = {
    .version = FK_OPS_VERSION,
    .name = "fpset",
    .summary = "test-only: an exact set of f-bit fingerprints (tests/kind_fpset.c)",
    .caps = FK_CAP_BOUNDED,
    FK_OPS_FORWARD_SLOTS(fpset),
    .remove = fpset_fwd_remove,
    .serial = &fpset_serial_ops,
    .size = fpset_size,
};
