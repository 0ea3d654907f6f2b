/* bloom/blocked.c: the blocked Bloom filter: create, insert, lookup, stats,
 * the choice of code path, and its fk_ops table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "blocked_internal.h"
#include "../common/alloc.h"
#include "../common/atomic.h"
#include "../common/bits.h"

/* ----------------------------------------------------------- code paths */

bool fk_blocked_avx2_available(void)
{
#if FK_BLOCKED_HAVE_AVX2
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2");
#else
    return false;
#endif
}

fk_blocked_path fk_blocked_get_path(const fk_blocked *b)
{
    return b ? b->path : FK_BLOCKED_PATH_SCALAR;
}

fk_status fk_blocked_set_path(fk_blocked *b, fk_blocked_path path)
{
    if (!b || (path != FK_BLOCKED_PATH_SCALAR && path != FK_BLOCKED_PATH_AVX2))
        return FK_EINVAL;
    if (path == FK_BLOCKED_PATH_AVX2 && !fk_blocked_avx2_available())
        return FK_EUNSUPPORTED;
    b->path = path;
    fk_blocked_use_path(b);
    return FK_OK;
}

/* --------------------------------------------------------------- create */

fk_status fk_blocked_create_exact(uint64_t blocks, uint64_t seed, uint64_t capacity, double fpr,
                                  fk_blocked **out)
{
    *out = NULL;
    if (blocks == 0 || blocks > (UINT64_C(1) << 32) ||
        blocks > FK_MEMORY_CAP / FK_BLOCKED_BLOCK_BYTES)
        return FK_EINVAL;
    fk_blocked *b = calloc(1, sizeof *b);
    if (!b)
        return FK_ENOMEM;
    void *words;
    fk_status s = fk_alloc_zeroed(blocks * FK_BLOCKED_BLOCK_BYTES, &words);
    if (s != FK_OK) {
        free(b);
        return s;
    }
    b->base.ops = &fk_blocked_ops;
    b->words = words;
    b->blocks = blocks;
    b->seed = seed;
    b->hash8 = fk_hash8_flip64(seed);
    b->capacity = capacity;
    b->fpr = fpr;
    /* ThreadSanitizer builds take the scalar path, whose every read is an
     * atomic one (a vector load beside concurrent writers would be a data
     * race to it, though x86 reads each aligned word whole). */
    b->path = fk_blocked_avx2_available() && !FK_TSAN ? FK_BLOCKED_PATH_AVX2
                                                      : FK_BLOCKED_PATH_SCALAR;
    fk_blocked_use_path(b);
    *out = b;
    return FK_OK;
}

fk_status fk_blocked_new(const fk_params *p, fk_blocked **out)
{
    if (!out)
        return FK_EINVAL;
    *out = NULL;
    uint64_t blocks;
    fk_status s = fk_blocked_geometry(p, &blocks);
    if (s != FK_OK)
        return s;
    return fk_blocked_create_exact(blocks, p->seed, p->capacity, p->fpr, out);
}

void fk_blocked_free(fk_blocked *b)
{
    if (!b)
        return;
    free(b->words);
    fk_tally_release(&b->tally);
    free(b);
}

void fk_blocked_clear(fk_blocked *b)
{
    if (!b)
        return;
    memset(b->words, 0, b->blocks * FK_BLOCKED_BLOCK_BYTES);
    b->items = 0;
    fk_tally_reset(&b->tally);
}

/* ------------------------------------------------- the portable path */

/* Keys of any length but 8 (see fk_blocked_hash). */
FK_HOT __attribute__((noinline)) static fk_status insert_scalar_any(fk_blocked *b, const void *key,
                                                                   size_t len)
{
    if (!key && len)
        return FK_EINVAL;
    fk_blocked_set_scalar(b, fk_blocked_hash(key, len, b->seed));
    return FK_OK;
}

FK_HOT __attribute__((noinline)) static bool contains_scalar_any(const fk_blocked *b,
                                                                const void *key, size_t len)
{
    return (key || !len) && fk_blocked_test_scalar(b, fk_blocked_hash(key, len, b->seed));
}

FK_HOT static fk_status insert_scalar(fk_blocked *b, const void *key, size_t len)
{
    if (len != 8 || !key)
        return insert_scalar_any(b, key, len);
    fk_blocked_set_scalar(b, fk_hash8_64(fk_hash8_load(key), b->hash8));
    return FK_OK;
}

FK_HOT static bool contains_scalar(const fk_blocked *b, const void *key, size_t len)
{
    if (len != 8 || !key)
        return contains_scalar_any(b, key, len);
    return fk_blocked_test_scalar(b, fk_hash8_64(fk_hash8_load(key), b->hash8));
}

FK_HOT static fk_status insert_u64_scalar(fk_blocked *b, uint64_t key)
{
    fk_blocked_set_scalar(b, fk_hash8_64(key, b->hash8));
    return FK_OK;
}

FK_HOT static bool contains_u64_scalar(const fk_blocked *b, uint64_t key)
{
    return fk_blocked_test_scalar(b, fk_hash8_64(key, b->hash8));
}

void fk_blocked_use_path(fk_blocked *b)
{
#if FK_BLOCKED_HAVE_AVX2
    if (b->path == FK_BLOCKED_PATH_AVX2) {
        b->lookup = fk_blocked_contains_avx2;
        b->lookup_u64 = fk_blocked_contains_u64_avx2;
        b->insert = fk_blocked_insert_avx2;
        b->insert_u64 = fk_blocked_insert_u64_avx2;
        return;
    }
#endif
    b->lookup = contains_scalar;
    b->lookup_u64 = contains_u64_scalar;
    b->insert = insert_scalar;
    b->insert_u64 = insert_u64_scalar;
}

/* ------------------------------------------------------ insert / lookup */

static fk_status ops_insert(fk_filter *f, const void *key, size_t len);
static bool ops_contains(const fk_filter *f, const void *key, size_t len);

fk_status fk_blocked_insert(fk_blocked *b, const void *key, size_t len)
{
    return b ? ops_insert(&b->base, key, len) : FK_EINVAL;
}

bool fk_blocked_contains(const fk_blocked *b, const void *key, size_t len)
{
    return b && ops_contains(&b->base, key, len);
}

fk_status fk_blocked_insert_u64(fk_blocked *b, uint64_t key)
{
    return b ? b->insert_u64(b, key) : FK_EINVAL;
}

bool fk_blocked_contains_u64(const fk_blocked *b, uint64_t key)
{
    return b && b->lookup_u64(b, key);
}

fk_status fk_blocked_locate(const fk_blocked *b, const void *key, size_t len,
                            fk_blocked_probe *out)
{
    if (!b || !out || (!key && len))
        return FK_EINVAL;
    uint64_t h = fk_blocked_hash(key, len, b->seed);
    out->hash = h;
    out->block = fk_blocked_block_of(h, b->blocks);
    for (unsigned i = 0; i < FK_BLOCKED_WORDS; i++)
        out->bit[i] = (uint8_t)fk_blocked_bit((uint32_t)h, i);
    return FK_OK;
}

/* --------------------------------------------------------------- access */

fk_filter *fk_blocked_as_filter(fk_blocked *b) { return b ? &b->base : NULL; }
uint64_t fk_blocked_blocks(const fk_blocked *b) { return b ? b->blocks : 0; }
uint64_t fk_blocked_seed(const fk_blocked *b) { return b ? b->seed : 0; }

uint32_t fk_blocked_get_word(const fk_blocked *b, uint64_t block, unsigned w)
{
    if (!b || block >= b->blocks || w >= FK_BLOCKED_WORDS)
        return 0;
    return b->words[block * FK_BLOCKED_WORDS + w];
}

uint64_t fk_blocked_count_set_bits(const fk_blocked *b)
{
    if (!b)
        return 0;
    /* Two words per popcount; memcpy keeps the access a uint32_t one. */
    uint64_t n = 0, count = b->blocks * FK_BLOCKED_WORDS;
    for (uint64_t i = 0; i < count; i += 2) {
        uint64_t pair;
        memcpy(&pair, b->words + i, sizeof pair);
        n += fk_popcount64(pair);
    }
    return n;
}

void fk_blocked_stats(const fk_blocked *b, fk_stats *out)
{
    if (!b || !out)
        return;
    memset(out, 0, sizeof *out);
    out->items = fk_blocked_item_count(b);
    out->capacity = b->capacity;
    /* the allocator rounds the blocks up to whole 64-byte lines */
    out->memory_bytes = (b->blocks * FK_BLOCKED_BLOCK_BYTES + 63) / 64 * 64 + sizeof *b +
                        fk_tally_bytes(&b->tally);
    out->bits_per_item = 8.0 * (double)out->memory_bytes / (double)b->capacity;
    out->load_factor = (double)fk_blocked_count_set_bits(b) /
                       ((double)b->blocks * FK_BLOCKED_BLOCK_BITS);
    out->expected_fpr = fk_theory_blocked_fpr((double)out->items / (double)b->blocks);
}

/* ---------------------------------------------------------------- vtable */

static fk_status ops_create(const fk_params *p, fk_filter **out)
{
    fk_blocked *b = NULL;
    fk_status s = fk_blocked_new(p, &b);
    *out = b ? &b->base : NULL;
    return s;
}

static void ops_destroy(fk_filter *f) { fk_blocked_free((fk_blocked *)f); }

/* The fk_filter_* dispatchers never pass a NULL filter: these go straight
 * to the path's call (a tail jump; the bench's loops call them one key at
 * a time). */
static fk_status ops_insert(fk_filter *f, const void *key, size_t len)
{
    fk_blocked *b = (fk_blocked *)f;
    return b->insert(b, key, len);
}

static bool ops_contains(const fk_filter *f, const void *key, size_t len)
{
    const fk_blocked *b = (const fk_blocked *)f;
    return b->lookup(b, key, len);
}

static fk_status ops_insert_u64(fk_filter *f, uint64_t key)
{
    fk_blocked *b = (fk_blocked *)f;
    return b->insert_u64(b, key);
}

static bool ops_contains_u64(const fk_filter *f, uint64_t key)
{
    const fk_blocked *b = (const fk_blocked *)f;
    return b->lookup_u64(b, key);
}

static fk_status ops_insert_concurrent(fk_filter *f, const void *key, size_t len)
{
    return fk_blocked_insert_concurrent((fk_blocked *)f, key, len);
}

static void ops_stats(const fk_filter *f, fk_stats *out)
{
    fk_blocked_stats((const fk_blocked *)f, out);
}

/* What fk_blocked_new(p) would build, and its theory at `items` keys. */
static fk_status ops_size(const fk_params *p, double items, fk_sizing *out)
{
    uint64_t blocks;
    fk_status s = fk_blocked_geometry(p, &blocks);
    if (s != FK_OK)
        return s;
    out->memory_bytes = (blocks * FK_BLOCKED_BLOCK_BYTES + 63) / 64 * 64 + sizeof(fk_blocked);
    out->expected_fpr = fk_theory_blocked_fpr(items / (double)blocks);
    snprintf(out->geometry, sizeof out->geometry, "%llu blocks of %u bits, 8 bits per key",
             (unsigned long long)blocks, FK_BLOCKED_BLOCK_BITS);
    return FK_OK;
}

static fk_status ops_merge(fk_filter *dst, const fk_filter *src)
{
    return fk_blocked_union((fk_blocked *)dst, (const fk_blocked *)src);
}

const fk_ops fk_blocked_ops = {
    .version = FK_OPS_VERSION,
    .name = "blocked",
    .summary = "split-block Bloom filter: 8 bits in one 256-bit block per key; no removes",
    .create = ops_create,
    .destroy = ops_destroy,
    .insert = ops_insert,
    .contains = ops_contains,
    .stats = ops_stats,
    .serial = &fk_blocked_serial_ops,
    .size = ops_size,
    .contains_many = fk_blocked_ops_contains_many,
    .insert_many = fk_blocked_ops_insert_many,
    .contains_many_u64 = fk_blocked_ops_contains_many_u64,
    .insert_many_u64 = fk_blocked_ops_insert_many_u64,
    .insert_concurrent = ops_insert_concurrent,
    .merge = ops_merge,
    .contains_u64 = ops_contains_u64,
    .insert_u64 = ops_insert_u64,
};

