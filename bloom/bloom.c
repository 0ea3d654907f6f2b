/* bloom/bloom.c: the standard Bloom filter: create, insert, lookup, stats. */
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <stdio.h>
#include "bloom_internal.h"
#include "../common/alloc.h"
#include "../common/atomic.h"
#include "../common/probe.h"

/* --------------------------------------------------------------- create */

static void choose_paths(fk_bloom *b); /* with the lookups, below */

fk_status fk_bloom_create_exact(uint64_t m, uint32_t k, uint64_t seed, uint64_t capacity,
                                double fpr, fk_bloom **out)
{
    *out = NULL;
    if (m == 0 || k == 0 || k > FK_BLOOM_MAX_HASHES || m > UINT64_MAX - 63)
        return FK_EINVAL;
    uint64_t words = (m + 63) / 64;
    if (words > FK_MEMORY_CAP / 8)
        return FK_EINVAL;
    fk_bloom *b = calloc(1, sizeof *b);
    if (!b)
        return FK_ENOMEM;
    void *bits;
    fk_status s = fk_alloc_zeroed(words * 8, &bits);
    if (s != FK_OK) {
        free(b);
        return s;
    }
    b->base.ops = &fk_bloom_ops;
    b->m = m;
    b->words = words;
    b->k = k;
    b->seed = seed;
    b->hash8 = fk_hash8_flip128(seed);
    choose_paths(b);
    b->capacity = capacity;
    b->fpr = fpr;
    b->bits = bits;
    *out = b;
    return FK_OK;
}

fk_status fk_bloom_new(const fk_params *p, fk_bloom **out)
{
    if (!out)
        return FK_EINVAL;
    *out = NULL;
    uint64_t m;
    uint32_t k;
    fk_status s = fk_size_bloom_geometry(p, &m, &k);
    if (s != FK_OK)
        return s;
    return fk_bloom_create_exact(m, k, p->seed, p->capacity, p->fpr, out);
}

fk_status fk_bloom_from_bits(uint64_t m, uint32_t k, uint64_t seed, uint64_t capacity,
                             double fpr, uint64_t items, const uint64_t *words, fk_bloom **out)
{
    if (!out)
        return FK_EINVAL;
    *out = NULL;
    if (!words || capacity == 0 || !(fpr > 0.0 && fpr < 1.0))
        return FK_EINVAL;
    fk_bloom *b;
    fk_status s = fk_bloom_create_exact(m, k, seed, capacity, fpr, &b);
    if (s != FK_OK)
        return s;
    memcpy(b->bits, words, b->words * 8);
    if (m & 63) /* keep the promise that bits past m stay 0 */
        b->bits[b->words - 1] &= (UINT64_C(1) << (m & 63)) - 1;
    b->items = items;
    *out = b;
    return FK_OK;
}

void fk_bloom_free(fk_bloom *b)
{
    if (!b)
        return;
    free(b->bits);
    fk_tally_release(&b->tally);
    free(b);
}

/* ------------------------------------------------------ insert / lookup */

/* Keys of any length but 8, out of line: XXH3's code for every length
 * would cost the 8-byte path its saved registers. */
__attribute__((noinline)) FK_HOT static fk_status insert_any(fk_bloom *b, const void *key,
                                                             size_t len)
{
    if (!key && len)
        return FK_EINVAL;
    fk_bloom_set_probes(b, fk_probe_start(fk_hash_key(key, len, b->seed)));
    return FK_OK;
}

__attribute__((noinline)) FK_HOT static bool contains_any(const fk_bloom *b, const void *key,
                                                          size_t len)
{
    return (key || !len) && fk_bloom_test_probes(b, fk_probe_start(fk_hash_key(key, len, b->seed)));
}

FK_HOT fk_status fk_bloom_insert(fk_bloom *b, const void *key, size_t len)
{
    if (!b)
        return FK_EINVAL;
    if (len != 8 || !key)
        return insert_any(b, key, len);
    fk_bloom_set_probes(b, fk_probe_start(fk_hash8_128(fk_hash8_load(key), b->hash8)));
    return FK_OK;
}

/* ------------------------------------------------------------- lookups
 *
 * A lookup runs every probe without a branch on the bits (bloom_internal.h,
 * fk_bloom_test_k). Two things are chosen once, when the filter is made
 * (choose_paths), instead of on every call (common/lookup_paths.h):
 * - k: for k up to FK_UNROLLED_K the probe loop is compiled with k a
 *   constant, straight-line code with no counter (about 3 instructions a
 *   probe fewer than the loop over b->k); larger k take the loop.
 * - BMI2: on x86-64 CPUs that have it, shrx shifts by a register without
 *   the copy through cl that shr needs. The build stays portable: both
 *   forms are compiled, the CPU picks one. */
#define FK_BLOOM_LOOKUPS(SUFFIX, ATTR, K)                                                   \
    ATTR FK_HOT static bool lookup_hashed_##SUFFIX(const fk_filter *f, fk_hash128 h)        \
    {                                                                                       \
        const fk_bloom *b = (const fk_bloom *)f;                                            \
        return fk_bloom_test_k(b, fk_probe_start(h), K);                                    \
    }                                                                                       \
    ATTR FK_HOT static bool lookup_u64_##SUFFIX(const fk_filter *f, uint64_t key)           \
    {                                                                                       \
        const fk_bloom *b = (const fk_bloom *)f;                                            \
        return fk_bloom_test_k(b, fk_probe_start(fk_hash8_128(key, b->hash8)), K);          \
    }                                                                                       \
    ATTR FK_HOT static bool lookup_##SUFFIX(const fk_bloom *b, const void *key, size_t len) \
    {                                                                                       \
        if (len != 8 || !key)                                                               \
            return contains_any(b, key, len);                                               \
        fk_hash128 h = fk_hash8_128(fk_hash8_load(key), b->hash8);                          \
        return fk_bloom_test_k(b, fk_probe_start(h), K);                                    \
    }
#define FK_BLOOM_PLAIN_K(K) FK_BLOOM_LOOKUPS(plain_##K, , K)
FK_EACH_UNROLLED_K(FK_BLOOM_PLAIN_K)
FK_BLOOM_LOOKUPS(plain_any, , b->k)
#if FK_CPU_X86
#define FK_BLOOM_BMI2_K(K) FK_BLOOM_LOOKUPS(bmi2_##K, FK_TARGET_BMI2, K)
FK_EACH_UNROLLED_K(FK_BLOOM_BMI2_K)
FK_BLOOM_LOOKUPS(bmi2_any, FK_TARGET_BMI2, b->k)
#endif

typedef struct {
    bool (*u64)(const fk_filter *f, uint64_t key);
    bool (*bytes)(const fk_bloom *b, const void *key, size_t len);
    bool (*hashed)(const fk_filter *f, fk_hash128 h);
} lookup_pair;

#define FK_BLOOM_PAIR(SUFFIX) { lookup_u64_##SUFFIX, lookup_##SUFFIX, lookup_hashed_##SUFFIX },
#define FK_BLOOM_PLAIN_PAIR(K) FK_BLOOM_PAIR(plain_##K)
static const lookup_pair plain_lookups[FK_UNROLLED_K + 1] = {
    FK_BLOOM_PAIR(plain_any) FK_EACH_UNROLLED_K(FK_BLOOM_PLAIN_PAIR)
};
#if FK_CPU_X86
#define FK_BLOOM_BMI2_PAIR(K) FK_BLOOM_PAIR(bmi2_##K)
static const lookup_pair bmi2_lookups[FK_UNROLLED_K + 1] = {
    FK_BLOOM_PAIR(bmi2_any) FK_EACH_UNROLLED_K(FK_BLOOM_BMI2_PAIR)
};
#endif

static void choose_paths(fk_bloom *b)
{
    const lookup_pair *table = plain_lookups;
#if FK_CPU_X86
    if (fk_cpu_has(FK_CPU_BMI2))
        table = bmi2_lookups;
#endif
    const lookup_pair *p = &table[b->k <= FK_UNROLLED_K ? b->k : 0];
    b->base.contains_u64 = p->u64; /* fk_filter_contains_u64 calls it straight */
    b->lookup = p->bytes;
    b->lookup_hashed = p->hashed;
}

FK_HOT bool fk_bloom_contains(const fk_bloom *b, const void *key, size_t len)
{
    return b && b->lookup(b, key, len);
}



/* The u64 insert slot: the dispatcher checked f. (No contains_u64 slot:
 * base.contains_u64, set by choose_paths, is fk_filter_contains_u64's one
 * target.) */
FK_HOT fk_status fk_bloom_slot_insert_u64(fk_filter *f, uint64_t key)
{
    fk_bloom *b = (fk_bloom *)f;
    fk_bloom_set_probes(b, fk_probe_start(fk_hash8_128(key, b->hash8)));
    return FK_OK;
}

fk_status fk_bloom_locate(const fk_bloom *b, const void *key, size_t len, uint64_t *out)
{
    if (!b || !out || (!key && len))
        return FK_EINVAL;
    fk_probe pr = fk_probe_start(fk_bloom_hash(b, key, len));
    for (uint32_t i = 0; i < b->k; i++)
        out[i] = fk_probe_next(&pr, b->m);
    return FK_OK;
}

/* ------------------------------------------- probes from a given hash
 *
 * common/hashed.h: the growing chains hash a key once and probe each link
 * from the hash, through the same probe code as the calls above. */

static fk_hash128 hashed_hash(const fk_filter *f, const void *key, size_t len)
{
    return fk_bloom_hash((const fk_bloom *)f, key, len);
}

static fk_hash128 hashed_hash_u64(const fk_filter *f, uint64_t key)
{
    return fk_hash8_128(key, ((const fk_bloom *)f)->hash8);
}

static fk_status hashed_insert(fk_filter *f, fk_hash128 h)
{
    fk_bloom_set_probes((fk_bloom *)f, fk_probe_start(h));
    return FK_OK;
}

/* The unrolled lookup choose_paths chose for f's k, and the insert. */
static bool hashed_probes(const fk_filter *f, fk_hashed_probes *out)
{
    *out = (fk_hashed_probes){ ((const fk_bloom *)f)->lookup_hashed, hashed_insert };
    return true;
}

const fk_hashed_ops fk_bloom_hashed_ops = {
    .hash = hashed_hash,
    .hash_u64 = hashed_hash_u64,
    .probes = hashed_probes,
    .contains_many_hashed = fk_bloom_contains_many_hashed,
};

/* --------------------------------------------------------------- access */

fk_filter *fk_bloom_as_filter(fk_bloom *b) { return b ? &b->base : NULL; }

bool fk_bloom_cell(const fk_bloom *b, uint64_t i)
{
    return b && i < b->m && fk_bit_get(b->bits, i);
}

static uint64_t count_set_bits(const fk_bloom *b)
{
    uint64_t n = 0;
    for (uint64_t w = 0; w < b->words; w++)
        n += fk_popcount64(b->bits[w]);
    return n;
}

void fk_bloom_stats(const fk_bloom *b, fk_stats *out)
{
    if (!b || !out)
        return;
    double fill = (double)count_set_bits(b) / (double)b->m;
    memset(out, 0, sizeof *out);
    out->items = fk_bloom_item_count(b);
    out->capacity = b->capacity;
    out->memory_bytes = b->words * 8 + sizeof *b + fk_tally_bytes(&b->tally);
    out->bits_per_item = 8.0 * (double)out->memory_bytes / (double)b->capacity;
    out->load_factor = fill;
    out->expected_fpr = fk_theory_bloom_fpr_at_fill(fill, b->k);
}

/* ---- union, intersection and the distinct-count estimate. */

static double estimate_items(const fk_bloom *b)
{
    return fk_theory_bloom_items(b->m, b->k, count_set_bits(b));
}

void fk_bloom_describe(const fk_bloom *b, fk_bloom_description *out)
{
    if (!b || !out)
        return;
    memset(out, 0, sizeof *out);
    out->bits = b->m;
    out->hashes = b->k;
    out->seed = b->seed;
    out->set_bits = count_set_bits(b);
    out->estimated_items = fk_theory_bloom_items(b->m, b->k, out->set_bits);
}

static bool compatible(const fk_bloom *a, const fk_bloom *b)
{
    return a->m == b->m && a->k == b->k && a->seed == b->seed;
}

/* dst |= src, or dst &= src when intersect; the item count as the two
 * calls below say. */
static fk_status combine(fk_bloom *dst, const fk_bloom *src, bool intersect)
{
    if (!dst || !src || !compatible(dst, src))
        return FK_EINVAL;
    if (dst == src)
        return FK_OK;
    uint64_t have = fk_bloom_item_count(dst), add = fk_bloom_item_count(src);
    for (uint64_t w = 0; w < dst->words; w++)
        dst->bits[w] = intersect ? dst->bits[w] & src->bits[w] : dst->bits[w] | src->bits[w];
    double est = intersect ? estimate_items(dst) : 0.0;
    fk_tally_reset(&dst->tally);
    if (intersect)
        dst->items = isfinite(est) ? (uint64_t)llround(est) : have;
    else
        dst->items = have > UINT64_MAX - add ? UINT64_MAX : have + add;
    return FK_OK;
}


/* ---- the Bloom filter's concurrent insert.
 *
 * Setting a bit is an OR, and OR is order-free: threads that set bits of the
 * same word at once lose nothing when each OR is one atomic
 * read-modify-write, and the final bits are those of any serial order. The
 * k words are read first (plain relaxed loads: their cache misses overlap,
 * as in a lookup), and only the bits still clear are ORed, since a locked
 * read-modify-write also orders memory and would serialise the misses. */

FK_HOT static fk_status fk_bloom_slot_insert_concurrent(fk_filter *f, const void *key, size_t len)
{
    fk_bloom *b = (fk_bloom *)f;
    if (!b || (!key && len))
        return FK_EINVAL;
    /* the plain insert's hash: 8-byte keys on XXH3's constant-length path */
    fk_probe pr = fk_probe_start(fk_bloom_hash(b, key, len));
    uint64_t *bits = b->bits;
    const uint64_t m = b->m;
    const uint32_t k = b->k;
    uint64_t pos[FK_BLOOM_MAX_HASHES], word[FK_BLOOM_MAX_HASHES];
    for (uint32_t i = 0; i < k; i++) {
        pos[i] = fk_probe_next(&pr, m);
        word[i] = fk_load64(&bits[pos[i] >> 6]);
    }
    /* A bit seen set stays set, and a later lookup (ordered after this
     * return by the caller) sees at least what this load saw. */
    for (uint32_t i = 0; i < k; i++) {
        uint64_t bit = UINT64_C(1) << (pos[i] & 63);
        if (!(word[i] & bit))
            fk_or64(&bits[pos[i] >> 6], bit);
    }
    fk_tally_add(&b->tally, 1);
    return FK_OK;
}

/* ---- the Bloom filter behind the fk_ops vtable: the slots
 * forward to the direct API; sizing and theory answer for the kind. */

FK_OPS_FORWARD(fk_bloom, fk_bloom)

/* The m and k that fk_bloom_new would use, with its limits. */
static fk_status geometry(const fk_params *p, uint64_t *m, uint32_t *k)
{
    fk_status s = fk_size_bloom_geometry(p, m, k);
    if (s == FK_OK && (*m > UINT64_MAX - 63 || (*m + 63) / 64 > FK_MEMORY_CAP / 8))
        s = FK_EINVAL;
    return s;
}

static fk_status fk_bloom_slot_size(const fk_params *p, double items, fk_sizing *out)
{
    uint64_t m;
    uint32_t k;
    fk_status s = geometry(p, &m, &k);
    if (s != FK_OK)
        return s;
    out->memory_bytes = (m + 63) / 64 * 8 + sizeof(fk_bloom);
    out->expected_fpr = fk_theory_bloom_fpr(m, k, items);
    snprintf(out->geometry, sizeof out->geometry, "m = %llu bits, k = %u probes",
             (unsigned long long)m, k);
    return FK_OK;
}

static fk_status fk_bloom_slot_merge(fk_filter *dst, const fk_filter *src)
{
    return combine((fk_bloom *)dst, (const fk_bloom *)src, false);
}

static fk_status fk_bloom_slot_intersect(fk_filter *dst, const fk_filter *src)
{
    return combine((fk_bloom *)dst, (const fk_bloom *)src, true);
}

/* The describe slot: fk_bloom_description's fields as rows, in its order
 * (fk_filter_describe; `at` is ignored: the kind has no clock). */
static fk_status fk_bloom_slot_describe(const fk_filter *f, const uint64_t *at,
                                      fk_describe_row *rows, size_t cap, size_t *n)
{
    (void)at;
    fk_bloom_description d;
    fk_bloom_describe((const fk_bloom *)(const void *)f, &d);
    fk_describe_u64(rows, cap, n, "bits", d.bits);
    fk_describe_u64(rows, cap, n, "hashes", d.hashes);
    fk_describe_u64(rows, cap, n, "seed", d.seed);
    fk_describe_u64(rows, cap, n, "set_bits", d.set_bits);
    fk_describe_double(rows, cap, n, "estimated_items", d.estimated_items);
    /* after 0.4.0's rows: each probe reads its own line (common/filter.h) */
    fk_describe_u64(rows, cap, n, "lookup_reads", d.hashes);
    return FK_OK;
}

const fk_ops fk_bloom_ops = {
    .version = FK_OPS_VERSION,
    .name = "bloom",
    .summary = "standard Bloom filter: m bits, k probes from one hash; no removes",
    FK_OPS_FORWARD_SLOTS(fk_bloom),
    .serial = &fk_bloom_serial_ops,
    .size = fk_bloom_slot_size,
    .contains_many = fk_bloom_slot_contains_many,
    .insert_many = fk_bloom_slot_insert_many,
    .contains_many_u64 = fk_bloom_slot_contains_many_u64,
    .insert_many_u64 = fk_bloom_slot_insert_many_u64,
    .insert_concurrent = fk_bloom_slot_insert_concurrent,
    .merge = fk_bloom_slot_merge,
    .intersect = fk_bloom_slot_intersect,
    .insert_u64 = fk_bloom_slot_insert_u64,
    .describe = fk_bloom_slot_describe,
};
