/* cuckoo/cuckoo.c: the cuckoo policy: which buckets a key has, where a
 * fingerprint goes, evictions and their undo, lookup, remove, stats.
 * Bucket storage is cuckoo_table.h's business. */
#include <stdlib.h>
#include <string.h>
#include "cuckoo_internal.h"
#include "../common/hash.h"

/* ---------------------------------------------------- key -> buckets */

/* Called only when the low f bits of the high half are 0 (odds 2^-f):
 * take the next f-bit field of the high half, then of the low half's top
 * 32 bits (the bucket index uses its low bits); each field is independent
 * and uniform, so the result is uniform over the nonzero values. 1 only
 * if every field is 0. */
__attribute__((noinline, cold))
static uint32_t fingerprint_redraw(fk_hash128 h, uint32_t f, uint32_t fp_mask)
{
    const uint64_t halves[2] = { h.hi >> f, h.lo >> 32 };
    const uint32_t widths[2] = { 64 - f, 32 };
    for (int i = 0; i < 2; i++) {
        uint64_t x = halves[i];
        for (uint32_t left = widths[i]; left >= f; left -= f, x >>= f)
            if ((uint32_t)x & fp_mask)
                return (uint32_t)x & fp_mask;
    }
    return 1;
}

static inline uint32_t fingerprint_of(fk_hash128 h, const fk_ctab *t)
{
    uint32_t fp = (uint32_t)h.hi & t->fp_mask;
    if (__builtin_expect(fp == 0, 0))
        fp = fingerprint_redraw(h, t->f, t->fp_mask);
    return fp;
}

/* The other bucket of fingerprint fp stored in bucket b. XOR with a value
 * that depends on fp alone makes it an involution: alt(alt(b)) == b. The
 * murmur3 finalizer mixes every bit of fp into the low bits we keep. */
static inline uint64_t alt_bucket(const fk_cuckoo *c, uint64_t b, uint32_t fp)
{
    return (b ^ fk_mix64(fp)) & c->mask;
}

/* The key's first bucket and fingerprint, from its one hash. */
static inline uint64_t locate(const fk_cuckoo *c, const void *key, size_t len, uint32_t *fp,
                              fk_hash128 *hash)
{
    fk_hash128 h = fk_hash_key(key, len, c->seed);
    *fp = fingerprint_of(h, &c->table);
    if (hash)
        *hash = h;
    return h.lo & c->mask;
}

/* splitmix64 step: the kick PRNG. */
static inline uint64_t rng_next(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* The PRNG's start state: the seed, decorrelated from the hash's use of it. */
static inline uint64_t rng_start(uint64_t seed)
{
    return fk_mix64(seed ^ UINT64_C(0x6a09e667f3bcc909));
}

/* --------------------------------------------------------------- create */

fk_status fk_cuckoo_create_exact(uint64_t buckets, uint32_t f, uint64_t seed,
                                 uint64_t capacity, double fpr, fk_cuckoo **out)
{
    *out = NULL;
    if (buckets == 0 || (buckets & (buckets - 1)) != 0)
        return FK_EINVAL;
    fk_cuckoo *c = calloc(1, sizeof *c);
    if (!c)
        return FK_ENOMEM;
    fk_status s = fk_ctab_alloc(&c->table, buckets, f);
    if (s != FK_OK) {
        free(c);
        return s;
    }
    c->base.ops = &fk_cuckoo_ops;
    c->mask = buckets - 1;
    c->seed = seed;
    c->capacity = capacity;
    c->fpr = fpr;
    c->rng = rng_start(seed);
    *out = c;
    return FK_OK;
}

fk_status fk_cuckoo_new(const fk_params *p, fk_cuckoo **out)
{
    if (!out)
        return FK_EINVAL;
    *out = NULL;
    fk_status s = fk_params_check(p);
    if (s != FK_OK)
        return s;
    uint32_t f = p->fingerprint_bits;
    if (f != 0 && (f < FK_CUCKOO_MIN_FP_BITS || f > FK_CUCKOO_MAX_FP_BITS))
        return FK_EINVAL;
    if (f == 0)
        f = fk_size_cuckoo_fp_bits(p->fpr);
    uint64_t buckets = fk_size_cuckoo_buckets(p->capacity);
    if (f == 0 || buckets == 0)
        return FK_EINVAL;
    return fk_cuckoo_create_exact(buckets, f, p->seed, p->capacity, p->fpr, out);
}

void fk_cuckoo_free(fk_cuckoo *c)
{
    if (!c)
        return;
    fk_ctab_release(&c->table);
    free(c);
}

void fk_cuckoo_clear(fk_cuckoo *c)
{
    if (!c)
        return;
    fk_ctab_clear(&c->table);
    c->items = 0;
    c->kicks = 0;
    c->rng = rng_start(c->seed);
}

/* --------------------------------------------------------------- insert */

static inline void notify(fk_cuckoo *c, uint64_t from, unsigned slot, uint32_t fp,
                          uint64_t to, uint32_t kick)
{
    fk_cuckoo_kick_event ev = { from, to, slot, fp, kick };
    c->observer(c->observer_ctx, &ev);
}

/* Both buckets are full: evict random slots along a random walk until a
 * displaced fingerprint finds a free slot in its other bucket. The trail
 * of (bucket, slot) pairs lets a failed walk be undone exactly, in reverse,
 * so FK_EFULL leaves every slot as it was. */
__attribute__((noinline))
static fk_status insert_by_kicking(fk_cuckoo *c, uint64_t i1, uint64_t i2, uint32_t fp)
{
    fk_ctab *t = &c->table;
    uint64_t trail[FK_CUCKOO_MAX_KICKS]; /* bucket << 2 | slot */
    uint64_t r = rng_next(&c->rng);
    uint64_t b = (r & 1) ? i2 : i1;
    uint32_t hand = fp; /* the fingerprint looking for a home */

    for (uint32_t k = 0; k < FK_CUCKOO_MAX_KICKS; k++) {
        unsigned s = (unsigned)(rng_next(&c->rng) >> 62);
        uint32_t victim = fk_ctab_get(t, b, s);
        fk_ctab_set(t, b, s, hand);
        trail[k] = b << 2 | s;
        uint64_t to = alt_bucket(c, b, victim);
        c->kicks++;
        if (c->observer)
            notify(c, b, s, victim, to, k + 1);
        hand = victim;
        b = to;
        int j = fk_ctab_find(t, b, 0);
        if (j >= 0) {
            fk_ctab_set(t, b, (unsigned)j, hand);
            c->items++;
            return FK_OK;
        }
    }
    /* Undo: put each displaced fingerprint back, last eviction first. */
    for (uint32_t k = FK_CUCKOO_MAX_KICKS; k-- > 0;) {
        uint64_t ub = trail[k] >> 2;
        unsigned us = (unsigned)(trail[k] & 3);
        uint32_t placed = fk_ctab_get(t, ub, us);
        fk_ctab_set(t, ub, us, hand);
        hand = placed;
    }
    return FK_EFULL; /* hand == fp again: the new key was never stored */
}

static inline fk_status insert_fp(fk_cuckoo *c, uint64_t i1, uint32_t fp)
{
    fk_ctab *t = &c->table;
    int j = fk_ctab_find(t, i1, 0);
    if (j >= 0) {
        fk_ctab_set(t, i1, (unsigned)j, fp);
        c->items++;
        return FK_OK;
    }
    uint64_t i2 = alt_bucket(c, i1, fp);
    j = fk_ctab_find(t, i2, 0);
    if (j >= 0) {
        fk_ctab_set(t, i2, (unsigned)j, fp);
        c->items++;
        return FK_OK;
    }
    return insert_by_kicking(c, i1, i2, fp);
}

FK_HOT fk_status fk_cuckoo_insert(fk_cuckoo *c, const void *key, size_t len)
{
    if (!c || (!key && len))
        return FK_EINVAL;
    uint32_t fp;
    uint64_t i1 = locate(c, key, len, &fp, NULL);
    return insert_fp(c, i1, fp);
}

fk_status fk_cuckoo_insert_unique(fk_cuckoo *c, const void *key, size_t len, bool *added)
{
    if (added)
        *added = false;
    if (!c || (!key && len))
        return FK_EINVAL;
    uint32_t fp;
    uint64_t i1 = locate(c, key, len, &fp, NULL);
    if (fk_ctab_has2(&c->table, i1, alt_bucket(c, i1, fp), fp))
        return FK_OK;
    fk_status s = insert_fp(c, i1, fp);
    if (added)
        *added = s == FK_OK;
    return s;
}

/* ------------------------------------------------------ lookup / remove */

FK_HOT bool fk_cuckoo_contains(const fk_cuckoo *c, const void *key, size_t len)
{
    if (!c || (!key && len))
        return false;
    uint32_t fp;
    uint64_t i1 = locate(c, key, len, &fp, NULL);
    return fk_ctab_has2(&c->table, i1, alt_bucket(c, i1, fp), fp);
}

FK_HOT fk_status fk_cuckoo_remove(fk_cuckoo *c, const void *key, size_t len)
{
    if (!c || (!key && len))
        return FK_EINVAL;
    uint32_t fp;
    uint64_t b = locate(c, key, len, &fp, NULL);
    int j = fk_ctab_find(&c->table, b, fp);
    if (j < 0) {
        b = alt_bucket(c, b, fp);
        j = fk_ctab_find(&c->table, b, fp);
        if (j < 0)
            return FK_ENOTFOUND;
    }
    fk_ctab_set(&c->table, b, (unsigned)j, 0);
    c->items--;
    return FK_OK;
}

/* --------------------------------------------------------------- access */

fk_filter *fk_cuckoo_as_filter(fk_cuckoo *c) { return c ? &c->base : NULL; }
uint32_t fk_cuckoo_fingerprint_bits(const fk_cuckoo *c) { return c ? c->table.f : 0; }
uint64_t fk_cuckoo_buckets(const fk_cuckoo *c) { return c ? c->table.buckets : 0; }
uint64_t fk_cuckoo_slots(const fk_cuckoo *c) { return c ? c->table.buckets * FK_CUCKOO_SLOTS : 0; }
uint64_t fk_cuckoo_seed(const fk_cuckoo *c) { return c ? c->seed : 0; }
uint64_t fk_cuckoo_items(const fk_cuckoo *c) { return c ? c->items : 0; }
uint64_t fk_cuckoo_kicks(const fk_cuckoo *c) { return c ? c->kicks : 0; }

double fk_cuckoo_load(const fk_cuckoo *c)
{
    return c ? (double)c->items / (double)fk_cuckoo_slots(c) : 0.0;
}

void fk_cuckoo_stats(const fk_cuckoo *c, fk_stats *out)
{
    if (!c || !out)
        return;
    memset(out, 0, sizeof *out);
    out->items = c->items;
    out->capacity = c->capacity;
    out->memory_bytes = c->table.alloc_bytes + sizeof *c;
    out->bits_per_item = 8.0 * (double)out->memory_bytes / (double)c->capacity;
    out->load_factor = fk_cuckoo_load(c);
    out->expected_fpr = fk_theory_cuckoo_fpr(c->table.f, out->load_factor);
}

/* -------------------------------------------------------------- tracing */

fk_status fk_cuckoo_locate(const fk_cuckoo *c, const void *key, size_t len,
                           fk_cuckoo_location *out)
{
    if (!c || !out || (!key && len))
        return FK_EINVAL;
    fk_hash128 h;
    uint32_t fp;
    uint64_t i1 = locate(c, key, len, &fp, &h);
    out->hash_lo = h.lo;
    out->hash_hi = h.hi;
    out->fingerprint = fp;
    out->i1 = i1;
    out->i2 = alt_bucket(c, i1, fp);
    return FK_OK;
}

uint64_t fk_cuckoo_alt_bucket(const fk_cuckoo *c, uint64_t bucket, uint32_t fp)
{
    return c ? alt_bucket(c, bucket, fp) : 0;
}

uint32_t fk_cuckoo_slot(const fk_cuckoo *c, uint64_t bucket, unsigned slot)
{
    if (!c || bucket >= c->table.buckets || slot >= FK_CUCKOO_SLOTS)
        return 0;
    return fk_ctab_get(&c->table, bucket, slot);
}

void fk_cuckoo_set_observer(fk_cuckoo *c, fk_cuckoo_observer fn, void *ctx)
{
    if (!c)
        return;
    c->observer = fn;
    c->observer_ctx = fn ? ctx : NULL;
}
