/* counting/counting.c: the counting Bloom filter: create, insert, lookup,
 * remove, count. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include "counting_internal.h"
#include "../common/alloc.h"
#include "../common/atomic.h"
#include "../common/probe.h"

/* --------------------------------------------------------------- create */

static void choose_paths(fk_counting *c);

fk_status fk_counting_create_exact(uint64_t m, uint32_t k, uint32_t width, uint64_t seed,
                                   uint64_t capacity, double fpr, fk_counting **out)
{
    *out = NULL;
    if (m == 0 || k == 0 || k > FK_BLOOM_MAX_HASHES || (width != 4 && width != 8))
        return FK_EINVAL;
    /* bytes = ceil(m * width / 64) * 8, checked before it can overflow. */
    if (m > FK_MEMORY_CAP / width * 8)
        return FK_EINVAL;
    uint64_t bytes = (m * width + 63) / 64 * 8;
    fk_counting *c = calloc(1, sizeof *c);
    if (!c)
        return FK_ENOMEM;
    void *ctr;
    fk_status s = fk_alloc_zeroed(bytes, &ctr);
    if (s != FK_OK) {
        free(c);
        return s;
    }
    c->base.ops = &fk_counting_ops;
    c->m = m;
    c->k = k;
    c->width = width;
    c->shift = width == 4 ? 1u : 0u;
    c->max = (1u << width) - 1u;
    c->seed = seed;
    c->hash8 = fk_hash8_flip128(seed);
    c->capacity = capacity;
    c->fpr = fpr;
    c->bytes = bytes;
    c->ctr = ctr;
    choose_paths(c);
    *out = c;
    return FK_OK;
}

fk_status fk_counting_new(const fk_params *p, fk_counting **out)
{
    if (!out)
        return FK_EINVAL;
    *out = NULL;
    uint64_t m;
    uint32_t k;
    fk_status s = fk_size_bloom_geometry(p, &m, &k);
    if (s != FK_OK)
        return s;
    uint32_t width = p->counter_bits ? p->counter_bits : FK_COUNTING_DEFAULT_BITS;
    if (width != 4 && width != 8)
        return FK_EINVAL;
    return fk_counting_create_exact(m, k, width, p->seed, p->capacity, p->fpr, out);
}

void fk_counting_free(fk_counting *c)
{
    if (!c)
        return;
    free(c->ctr);
    fk_tally_release(&c->tally);
    fk_tally_release(&c->sat_tally);
    free(c);
}

/* ------------------------------------------------------ insert / lookup */

/* Keys of any length but 8, out of line: XXH3's code for every length
 * would cost the 8-byte path its saved registers. */
__attribute__((noinline)) FK_HOT static fk_status insert_any(fk_counting *c, const void *key,
                                                             size_t len)
{
    if (!key && len)
        return FK_EINVAL;
    fk_counting_add_probes(c, fk_probe_start(fk_hash_key(key, len, c->seed)));
    return FK_OK;
}

__attribute__((noinline)) FK_HOT static bool contains_any(const fk_counting *c, const void *key,
                                                          size_t len)
{
    return (key || !len) &&
           fk_counting_test_probes(c, fk_probe_start(fk_hash_key(key, len, c->seed)));
}

FK_HOT fk_status fk_counting_insert(fk_counting *c, const void *key, size_t len)
{
    if (!c)
        return FK_EINVAL;
    if (len != 8 || !key)
        return insert_any(c, key, len);
    fk_counting_add_probes(c, fk_probe_start(fk_hash8_128(fk_hash8_load(key), c->hash8)));
    return FK_OK;
}

/* ------------------------------------------------------------- lookups
 *
 * Every probe is tested, without a branch on the counters
 * (fk_counting_test_k). As for the Bloom filter (bloom.c), two things are
 * chosen once, when the filter is made (choose_paths, common/lookup_paths.h):
 * k up to FK_UNROLLED_K as a constant, straight-line probes with no loop
 * counter, for 4-bit counters (the default; 8-bit ones take the loop over
 * c->k); and BMI2 where the CPU has it (mulx leaves the multiply's
 * operands where they are, saving two copies a probe). */
#define FK_COUNTING_LOOKUPS(SUFFIX, ATTR, K, SHIFT)                                            \
    ATTR FK_HOT static bool lookup_u64_##SUFFIX(const fk_filter *f, uint64_t key)              \
    {                                                                                          \
        const fk_counting *c = (const fk_counting *)f;                                         \
        return fk_counting_test_k(c, fk_probe_start(fk_hash8_128(key, c->hash8)), K, SHIFT);   \
    }                                                                                          \
    ATTR FK_HOT static bool lookup_##SUFFIX(const fk_counting *c, const void *key, size_t len) \
    {                                                                                          \
        if (len != 8 || !key)                                                                  \
            return contains_any(c, key, len);                                                  \
        fk_hash128 h = fk_hash8_128(fk_hash8_load(key), c->hash8);                             \
        return fk_counting_test_k(c, fk_probe_start(h), K, SHIFT);                             \
    }                                                                                          \
    ATTR FK_HOT static bool test_##SUFFIX(const fk_counting *c, fk_probe pr)                   \
    {                                                                                          \
        return fk_counting_test_k(c, pr, K, SHIFT);                                            \
    }
#define FK_COUNTING_PLAIN_K(K) FK_COUNTING_LOOKUPS(plain_##K, , K, 1)
FK_EACH_UNROLLED_K(FK_COUNTING_PLAIN_K)
FK_COUNTING_LOOKUPS(plain_any4, , c->k, 1)
FK_COUNTING_LOOKUPS(plain_any8, , c->k, 0)
#if FK_CPU_X86
#define FK_COUNTING_BMI2_K(K) FK_COUNTING_LOOKUPS(bmi2_##K, FK_TARGET_BMI2, K, 1)
FK_EACH_UNROLLED_K(FK_COUNTING_BMI2_K)
FK_COUNTING_LOOKUPS(bmi2_any4, FK_TARGET_BMI2, c->k, 1)
FK_COUNTING_LOOKUPS(bmi2_any8, FK_TARGET_BMI2, c->k, 0)
#endif

typedef struct {
    bool (*u64)(const fk_filter *f, uint64_t key);
    bool (*bytes)(const fk_counting *c, const void *key, size_t len);
    bool (*probes)(const fk_counting *c, fk_probe pr);
} lookup_pair;

/* [0]: 8-bit counters, any k; [1]: 4-bit counters, k above the unrolled
 * ones; [1 + k]: 4-bit counters, that k. */
#define FK_COUNTING_PAIR(SUFFIX) { lookup_u64_##SUFFIX, lookup_##SUFFIX, test_##SUFFIX },
#define FK_COUNTING_PLAIN_PAIR(K) FK_COUNTING_PAIR(plain_##K)
static const lookup_pair plain_lookups[FK_UNROLLED_K + 2] = {
    FK_COUNTING_PAIR(plain_any8) FK_COUNTING_PAIR(plain_any4)
    FK_EACH_UNROLLED_K(FK_COUNTING_PLAIN_PAIR)
};
#if FK_CPU_X86
#define FK_COUNTING_BMI2_PAIR(K) FK_COUNTING_PAIR(bmi2_##K)
static const lookup_pair bmi2_lookups[FK_UNROLLED_K + 2] = {
    FK_COUNTING_PAIR(bmi2_any8) FK_COUNTING_PAIR(bmi2_any4)
    FK_EACH_UNROLLED_K(FK_COUNTING_BMI2_PAIR)
};
#endif

static void choose_paths(fk_counting *c)
{
    const lookup_pair *table = plain_lookups;
#if FK_CPU_X86
    if (fk_cpu_has(FK_CPU_BMI2))
        table = bmi2_lookups;
#endif
    size_t at = c->shift == 0 ? 0 : c->k <= FK_UNROLLED_K ? 1 + c->k : 1;
    c->base.contains_u64 = table[at].u64; /* fk_filter_contains_u64 calls it straight */
    c->lookup = table[at].bytes;
    c->test_probes = table[at].probes;
}

FK_HOT bool fk_counting_contains(const fk_counting *c, const void *key, size_t len)
{
    return c && c->lookup(c, key, len);
}

FK_HOT fk_status fk_counting_remove(fk_counting *c, const void *key, size_t len)
{
    if (!c || (!key && len))
        return FK_EINVAL;
    return fk_counting_remove_probes(c, fk_probe_start(fk_counting_hash(c, key, len)));
}




/* The u64 writer slots: the dispatchers checked f. (No contains_u64 slot:
 * base.contains_u64, set by choose_paths, is fk_filter_contains_u64's one
 * target.) */
FK_HOT fk_status fk_counting_slot_insert_u64(fk_filter *f, uint64_t key)
{
    fk_counting *c = (fk_counting *)f;
    fk_counting_add_probes(c, fk_probe_start(fk_hash8_128(key, c->hash8)));
    return FK_OK;
}

FK_HOT fk_status fk_counting_slot_remove_u64(fk_filter *f, uint64_t key)
{
    fk_counting *c = (fk_counting *)f;
    return fk_counting_remove_probes(c, fk_probe_start(fk_hash8_128(key, c->hash8)));
}

uint32_t fk_counting_count(const fk_counting *c, const void *key, size_t len)
{
    if (!c || (!key && len))
        return 0;
    fk_probe pr = fk_probe_start(fk_counting_hash(c, key, len));
    const fk_ctr_view v = fk_ctr_view_of(c);
    uint32_t least = v.max;
    for (uint32_t i = 0; i < c->k && least; i++) {
        uint64_t pos = fk_probe_next(&pr, c->m);
        uint32_t x = (uint32_t)(fk_load8(&v.ctr[pos >> v.shift]) >> fk_ctr_offset(v, pos)) & v.max;
        least = x < least ? x : least;
    }
    return least;
}

fk_status fk_counting_locate(const fk_counting *c, const void *key, size_t len,
                                uint64_t *out)
{
    if (!c || !out || (!key && len))
        return FK_EINVAL;
    fk_probe pr = fk_probe_start(fk_counting_hash(c, key, len));
    for (uint32_t i = 0; i < c->k; i++)
        out[i] = fk_probe_next(&pr, c->m);
    return FK_OK;
}

/* ---- whole-array work (stats, nonzero count, export
 * to Bloom bits) done a 64-bit word at a time, plus the accessors. */

/* ---------------------------------------------------------------- scans */

uint64_t fk_counting_count_nonzero(const fk_counting *c)
{
    if (!c)
        return 0;
    uint64_t n = 0;
    for (uint64_t b = 0; b < c->bytes; b += 8)
        n += (uint64_t)__builtin_popcountll(fk_ctr_nonzero_flags(fk_ctr_load_le64(c->ctr + b), c->width));
    return n; /* padding counters past m are always 0 */
}

static uint64_t export_words(const fk_counting *c)
{
    return (c->m + 63) / 64;
}

fk_status fk_counting_export_bits(const fk_counting *c, uint64_t *words, size_t nwords)
{
    if (!c || !words || nwords < export_words(c))
        return FK_EINVAL;
    const uint64_t nw = export_words(c);
    memset(words, 0, nw * sizeof *words);
    /* Each 8-byte word holds 64 / width counters; set one output bit per
     * nonzero counter, visiting only the nonzero ones. */
    const uint32_t per_word_log2 = c->width == 4 ? 4u : 3u; /* 16 or 8 counters */
    const uint32_t width_log2 = c->width == 4 ? 2u : 3u;
    for (uint64_t b = 0; b < c->bytes; b += 8) {
        uint64_t flags = fk_ctr_nonzero_flags(fk_ctr_load_le64(c->ctr + b), c->width);
        uint64_t base = (b >> 3) << per_word_log2;
        while (flags) {
            uint64_t i = base + ((uint64_t)__builtin_ctzll(flags) >> width_log2);
            words[i >> 6] |= UINT64_C(1) << (i & 63);
            flags &= flags - 1;
        }
    }
    return FK_OK;
}

void fk_counting_stats(const fk_counting *c, fk_stats *out)
{
    if (!c || !out)
        return;
    double fill = (double)fk_counting_count_nonzero(c) / (double)c->m;
    memset(out, 0, sizeof *out);
    out->items = fk_counting_item_count(c);
    out->capacity = c->capacity;
    out->memory_bytes = c->bytes + sizeof *c + fk_tally_bytes(&c->tally) +
                        fk_tally_bytes(&c->sat_tally);
    out->bits_per_item = 8.0 * (double)out->memory_bytes / (double)c->capacity;
    out->load_factor = fill;
    out->expected_fpr = fk_theory_bloom_fpr_at_fill(fill, c->k);
}

/* --------------------------------------------------------------- access */

fk_filter *fk_counting_as_filter(fk_counting *c) { return c ? &c->base : NULL; }

void fk_counting_describe(const fk_counting *c, fk_counting_description *out)
{
    if (!c || !out)
        return;
    memset(out, 0, sizeof *out);
    out->bits = c->m;
    out->hashes = c->k;
    out->counter_bits = c->width;
    out->counter_max = c->max;
    out->seed = c->seed;
    out->capacity = c->capacity;
    out->target_fpr = c->fpr;
    out->items = fk_counting_item_count(c);
    out->saturations = c->saturations + fk_tally_sum(&c->sat_tally);
    out->export_words = export_words(c);
}

uint32_t fk_counting_cell(const fk_counting *c, uint64_t i)
{
    return c && i < c->m ? fk_ctr_get(fk_ctr_view_of(c), i) : 0;
}

/* ---- the counting filter's concurrent insert
 * and remove: every counter update is a compare-and-swap of the byte that
 * holds it (two 4-bit counters share a byte, so a swap that lost to a
 * neighbour's update retries with the new byte). The saturation rule holds
 * as in the plain paths: a counter seen at its maximum is never moved. */

/* The counter's byte, bit offset and maximum. */
typedef struct {
    uint8_t *byte;
    unsigned off;
} ctr_ref;

static inline ctr_ref ref_of(const fk_ctr_view v, uint64_t pos)
{
    ctr_ref r = { &v.ctr[pos >> v.shift], fk_ctr_offset(v, pos) };
    return r;
}

/* Adds 1 to the counter unless it is saturated. Returns 1 when this add
 * saturated it, else 0. */
static inline unsigned inc_cas(ctr_ref r, uint32_t max)
{
    uint8_t old = fk_load8(r.byte);
    for (;;) {
        uint32_t x = (uint32_t)(old >> r.off) & max;
        if (x == max)
            return 0; /* saturated: stays at max for ever */
        if (fk_cas8(r.byte, &old, (uint8_t)(old + (1u << r.off))))
            return x + 1 == max;
    }
}

/* Takes 1 from the counter unless it is saturated. Returns false (nothing
 * changed) when the counter is 0. */
static inline bool dec_cas(ctr_ref r, uint32_t max)
{
    uint8_t old = fk_load8(r.byte);
    for (;;) {
        uint32_t x = (uint32_t)(old >> r.off) & max;
        if (x == max)
            return true; /* saturated: never decremented */
        if (x == 0)
            return false;
        if (fk_cas8(r.byte, &old, (uint8_t)(old - (1u << r.off))))
            return true;
    }
}

/* The key's k counter positions into pos[] (the dispatcher has checked f
 * and key), each counter's byte read once so that the misses overlap
 * before the first locked instruction orders memory. Returns k. */
static inline uint32_t concurrent_positions(const fk_counting *c, fk_ctr_view v, const void *key,
                                            size_t len, uint64_t pos[])
{
    fk_probe pr = fk_probe_start(fk_hash_key(key, len, c->seed));
    for (uint32_t i = 0; i < c->k; i++) {
        pos[i] = fk_probe_next(&pr, c->m);
        (void)fk_load8(&v.ctr[pos[i] >> v.shift]);
    }
    return c->k;
}

FK_HOT static fk_status fk_counting_slot_insert_concurrent(fk_filter *f, const void *key,
                                                            size_t len)
{
    fk_counting *c = (fk_counting *)f;
    const fk_ctr_view v = fk_ctr_view_of(c);
    uint64_t pos[FK_BLOOM_MAX_HASHES];
    const uint32_t k = concurrent_positions(c, v, key, len, pos);
    unsigned saturated = 0;
    for (uint32_t i = 0; i < k; i++)
        saturated += inc_cas(ref_of(v, pos[i]), v.max);
    if (saturated)
        fk_tally_add(&c->sat_tally, saturated);
    fk_tally_add(&c->tally, 1);
    return FK_OK;
}

FK_HOT static fk_status fk_counting_slot_remove_concurrent(fk_filter *f, const void *key,
                                                            size_t len)
{
    fk_counting *c = (fk_counting *)f;
    const fk_ctr_view v = fk_ctr_view_of(c);
    uint64_t pos[FK_BLOOM_MAX_HASHES];
    const uint32_t k = concurrent_positions(c, v, key, len, pos);
    for (uint32_t i = 0; i < k; i++) {
        ctr_ref r = ref_of(v, pos[i]);
        if (!((fk_load8(r.byte) >> r.off) & v.max))
            return FK_ENOTFOUND; /* definitely absent, nothing changed */
    }
    /* A counter that runs out before its decrement (the key's probes repeat
     * a position, or another thread removed a key that was never inserted)
     * means the key is not there: put back what was taken, as the plain
     * remove does. */
    for (uint32_t i = 0; i < k; i++) {
        if (dec_cas(ref_of(v, pos[i]), v.max))
            continue;
        unsigned saturated = 0;
        while (i-- > 0)
            saturated += inc_cas(ref_of(v, pos[i]), v.max);
        if (saturated)
            fk_tally_add(&c->sat_tally, saturated);
        return FK_ENOTFOUND;
    }
    fk_tally_add(&c->tally, UINT64_MAX); /* minus one, mod 2^64 */
    return FK_OK;
}

/* ---- the counting Bloom filter behind the fk_ops
 * vtable: the slots forward to the direct API; sizing and theory answer
 * for the kind. */

FK_OPS_FORWARD(fk_counting, fk_counting)
FK_OPS_FORWARD_REMOVE(fk_counting, fk_counting)

/* The m, k and counter width that fk_counting_new would use, with its
 * limits. */
static fk_status geometry(const fk_params *p, uint64_t *m, uint32_t *k, uint32_t *width)
{
    fk_status s = fk_size_bloom_geometry(p, m, k);
    if (s != FK_OK)
        return s;
    *width = p->counter_bits ? p->counter_bits : FK_COUNTING_DEFAULT_BITS;
    if ((*width != 4 && *width != 8) || *m > FK_MEMORY_CAP / *width * 8)
        return FK_EINVAL;
    return FK_OK;
}

/* A counter is nonzero exactly when the Bloom filter's bit would be set,
 * so the theory is the Bloom filter's (saturation only ever keeps ones). */
static fk_status fk_counting_slot_size(const fk_params *p, double items, fk_sizing *out)
{
    uint64_t m;
    uint32_t k, width;
    fk_status s = geometry(p, &m, &k, &width);
    if (s != FK_OK)
        return s;
    out->memory_bytes = (m * width + 63) / 64 * 8 + sizeof(fk_counting);
    out->expected_fpr = fk_theory_bloom_fpr(m, k, items);
    snprintf(out->geometry, sizeof out->geometry, "m = %llu %u-bit counters, k = %u probes",
             (unsigned long long)m, width, k);
    return FK_OK;
}

static fk_status fk_counting_slot_count(const fk_filter *f, const void *key, size_t len,
                                        uint64_t *out)
{
    *out = fk_counting_count((const fk_counting *)f, key, len);
    return FK_OK;
}

/* The describe slot: fk_counting_description's fields as rows, in its order
 * (fk_filter_describe; `at` is ignored: the kind has no clock). */
static fk_status fk_counting_slot_describe(const fk_filter *f, const uint64_t *at,
                                      fk_describe_row *rows, size_t cap, size_t *n)
{
    (void)at;
    fk_counting_description d;
    fk_counting_describe((const fk_counting *)(const void *)f, &d);
    fk_describe_u64(rows, cap, n, "bits", d.bits);
    fk_describe_u64(rows, cap, n, "hashes", d.hashes);
    fk_describe_u64(rows, cap, n, "counter_bits", d.counter_bits);
    fk_describe_u64(rows, cap, n, "counter_max", d.counter_max);
    fk_describe_u64(rows, cap, n, "seed", d.seed);
    fk_describe_u64(rows, cap, n, "capacity", d.capacity);
    fk_describe_double(rows, cap, n, "target_fpr", d.target_fpr);
    fk_describe_u64(rows, cap, n, "items", d.items);
    fk_describe_u64(rows, cap, n, "saturations", d.saturations);
    fk_describe_u64(rows, cap, n, "export_words", d.export_words);
    /* after 0.4.0's rows: each probe reads its own counter's line */
    fk_describe_u64(rows, cap, n, "lookup_reads", d.hashes);
    return FK_OK;
}

const fk_ops fk_counting_ops = {
    .version = FK_OPS_VERSION,
    .name = "counting",
    .summary = "counting Bloom filter: m saturating 4- or 8-bit counters, k probes; removes",
    .caps = FK_CAP_COUNT,
    FK_OPS_FORWARD_SLOTS(fk_counting),
    .remove = fk_counting_slot_remove,
    .serial = &fk_counting_serial_ops,
    .size = fk_counting_slot_size,
    .contains_many = fk_counting_slot_contains_many,
    .insert_many = fk_counting_slot_insert_many,
    .contains_many_u64 = fk_counting_slot_contains_many_u64,
    .insert_many_u64 = fk_counting_slot_insert_many_u64,
    .remove_many = fk_counting_slot_remove_many,
    .insert_concurrent = fk_counting_slot_insert_concurrent,
    .remove_concurrent = fk_counting_slot_remove_concurrent,
    .count = fk_counting_slot_count,
    .insert_u64 = fk_counting_slot_insert_u64,
    .remove_u64 = fk_counting_slot_remove_u64,
    .describe = fk_counting_slot_describe,
};
