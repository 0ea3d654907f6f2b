/* bench/baselines/rotating_bloom.c: the sliding window users build by hand:
 * two Bloom filters (the library's "bloom" kind, through its fk_ops) of N
 * items at fpr / 2 each. Inserts go to the current one, lookups ask both,
 * and every N inserts the older one is dropped and a fresh one becomes the
 * current: a key lives N to 2N inserts, and a lookup pays two hashes and
 * two sets of probes. Bench-only; see window_baselines.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "window_baselines.h"
#include "../../registry/registry.h"

typedef struct {
    fk_filter  base;
    fk_filter *half[2];   /* half[cur] takes the inserts */
    unsigned   cur;
    uint64_t   in_cur;    /* inserts into half[cur] */
    uint64_t   items;
    fk_params  inner;     /* each half's params: N at fpr / 2 */
} rotating;

static bool rot_contains_u64(const fk_filter *f, uint64_t key)
{
    const rotating *r = (const rotating *)f;
    return fk_filter_contains_u64(r->half[r->cur], key) || fk_filter_contains_u64(r->half[r->cur ^ 1], key);
}

static fk_status rot_create(const fk_params *p, fk_filter **out)
{
    *out = NULL;
    const fk_ops *bloom = fk_ops_find("bloom");
    if (!bloom)
        return FK_EUNSUPPORTED;
    if (fk_params_check(p) != FK_OK)
        return FK_EINVAL;
    rotating *r = calloc(1, sizeof *r);
    if (!r)
        return FK_ENOMEM;
    r->inner = (fk_params){ .capacity = p->capacity, .fpr = p->fpr / 2, .seed = p->seed,
                            .max_bytes = p->max_bytes ? p->max_bytes / 2 : 0 };
    fk_status s = fk_filter_new(bloom, &r->inner, &r->half[0]);
    if (s == FK_OK)
        s = fk_filter_new(bloom, &r->inner, &r->half[1]);
    if (s != FK_OK) {
        fk_filter_free(r->half[0]);
        free(r);
        return s;
    }
    r->base.ops = &fkc_rotating_bloom_ops;
    r->base.contains_u64 = rot_contains_u64;
    *out = &r->base;
    return FK_OK;
}

static void rot_destroy(fk_filter *f)
{
    rotating *r = (rotating *)f;
    fk_filter_free(r->half[0]);
    fk_filter_free(r->half[1]);
    free(r);
}

/* Every N inserts: the older half is dropped and remade empty (fresh zeroed
 * pages, as a hand-made rotation's clear would zero them). */
static fk_status rotate_if_due(rotating *r)
{
    if (r->in_cur < r->inner.capacity)
        return FK_OK;
    fk_filter *fresh = NULL;
    fk_status s = fk_filter_new(r->half[0]->ops, &r->inner, &fresh);
    if (s != FK_OK)
        return s;
    r->cur ^= 1;
    fk_filter_free(r->half[r->cur]);
    r->half[r->cur] = fresh;
    r->in_cur = 0;
    return FK_OK;
}

static fk_status rot_insert(fk_filter *f, const void *key, size_t len)
{
    rotating *r = (rotating *)f;
    if (!key && len)
        return FK_EINVAL;
    fk_status s = rotate_if_due(r);
    if (s == FK_OK)
        s = fk_filter_insert(r->half[r->cur], key, len);
    if (s == FK_OK)
        r->in_cur++, r->items++;
    return s;
}

static fk_status rot_insert_u64(fk_filter *f, uint64_t key)
{
    rotating *r = (rotating *)f;
    fk_status s = rotate_if_due(r);
    if (s == FK_OK)
        s = fk_filter_insert_u64(r->half[r->cur], key);
    if (s == FK_OK)
        r->in_cur++, r->items++;
    return s;
}

static bool rot_contains(const fk_filter *f, const void *key, size_t len)
{
    const rotating *r = (const rotating *)f;
    return fk_filter_contains(r->half[r->cur], key, len) || fk_filter_contains(r->half[r->cur ^ 1], key, len);
}

static void rot_stats(const fk_filter *f, fk_stats *out)
{
    const rotating *r = (const rotating *)f;
    fk_stats a, b;
    fk_filter_stats(r->half[0], &a);
    fk_filter_stats(r->half[1], &b);
    memset(out, 0, sizeof *out);
    out->items = r->items;
    out->capacity = r->inner.capacity;
    out->memory_bytes = a.memory_bytes + b.memory_bytes + sizeof *r;
    out->bits_per_item = 8.0 * (double)out->memory_bytes / (double)out->capacity;
    out->load_factor = (a.load_factor + b.load_factor) / 2;
    /* the worst moment: both halves hold N keys */
    double one = 0;
    fk_ops_expected_fpr(r->half[0]->ops, &r->inner, (double)r->inner.capacity, &one);
    out->expected_fpr = 1.0 - (1.0 - one) * (1.0 - one);
}

static fk_status rot_size(const fk_params *p, double items, fk_sizing *out)
{
    (void)items;
    memset(out, 0, sizeof *out);
    const fk_ops *bloom = fk_ops_find("bloom");
    if (!bloom)
        return FK_EUNSUPPORTED;
    if (fk_params_check(p) != FK_OK)
        return FK_EINVAL;
    fk_params inner = { .capacity = p->capacity, .fpr = p->fpr / 2, .seed = p->seed };
    fk_sizing one;
    fk_status s = fk_ops_size(bloom, &inner, &one);
    if (s != FK_OK)
        return s;
    out->memory_bytes = 2 * one.memory_bytes + sizeof(rotating);
    out->expected_fpr = 1.0 - (1.0 - one.expected_fpr) * (1.0 - one.expected_fpr);
    snprintf(out->geometry, sizeof out->geometry, "2 x (%.88s)", one.geometry);
    return FK_OK;
}

int fkc_window_baseline_shape(const fk_filter *f, uint64_t *window, uint64_t *lifetime, char *shape,
                              size_t len)
{
    if (!f)
        return -1;
    if (f->ops != &fkc_rotating_bloom_ops)
        return fkc_apbf_shape(f, window, lifetime, shape, len);
    const rotating *r = (const rotating *)f;
    fk_sizing one;
    *window = r->inner.capacity;
    *lifetime = 2 * r->inner.capacity;
    if (fk_ops_size(r->half[0]->ops, &r->inner, &one) != FK_OK)
        one.geometry[0] = 0;
    snprintf(shape, len, "2 Bloom filters of N at fpr/2 (%s each)", one.geometry);
    return 0;
}

uint64_t fkc_window_baseline_lifetime(const fk_ops *ops, uint64_t n, double fpr)
{
    unsigned k, l;
    if (ops == &fkc_rotating_bloom_ops)
        return 2 * n;
    if ((ops == &fkc_apbf_ops || ops == &fkc_apbf_best_ops) &&
        fkc_apbf_choose(fpr, ops == &fkc_apbf_best_ops, &k, &l) == 0)
        return (uint64_t)(l + 1) * ((n + l - 1) / l);
    return 0;
}

const fk_ops fkc_rotating_bloom_ops = {
    .version = FK_OPS_VERSION,
    .name = "rotating-bloom",
    .summary = "baseline: two Bloom filters of N at fpr/2, swapped and cleared every N inserts; a window of N",
    .caps = FK_CAP_EXPIRES,
    .create = rot_create,
    .destroy = rot_destroy,
    .insert = rot_insert,
    .contains = rot_contains,
    .stats = rot_stats,
    .size = rot_size,
    .insert_u64 = rot_insert_u64,
};
