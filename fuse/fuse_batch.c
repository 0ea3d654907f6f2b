/* fuse/fuse_batch.c: batched lookups. A window of keys is hashed and the
 * three cells of each located (and prefetched, for a filter out of cache);
 * then the window before it, whose lines were asked for one window
 * earlier, is compared. Answers equal the single-key calls key by key. */
#include "fuse_internal.h"
#include "../common/pipeline.h"

/* One located key: its three cells (absolute) and its fingerprint. */
typedef struct {
    uint64_t c[3];
    uint32_t fp;
} located;

static inline void locate_hash(const fk_fuse *fu, uint64_t h, bool sharded, unsigned w,
                               bool prefetch, located *k)
{
    uint64_t g = fk_fuse_place(fu, h, sharded, k->c);
    k->fp = fk_fuse_fingerprint(g, fu->fp_mask);
    if (prefetch)
        for (int j = 0; j < 3; j++) {
            uint64_t byte = w ? k->c[j] * (w / 8) : (k->c[j] * fu->f) >> 3;
            FK_PREFETCH_READ(fu->cells + byte);
        }
}

static inline bool test_located(const fk_fuse *fu, const located *k, unsigned w)
{
    uint32_t x = fk_fuse_cell_get(fu->cells, k->c[0], w, fu->f, fu->fp_mask) ^
                 fk_fuse_cell_get(fu->cells, k->c[1], w, fu->f, fu->fp_mask) ^
                 fk_fuse_cell_get(fu->cells, k->c[2], w, fu->f, fu->fp_mask);
    return x == k->fp;
}

/* The pipeline, its width and sharding constant after inlining. Keys come
 * from either byte keys or integers (u64 not NULL). */
static inline void run(const fk_fuse *fu, size_t n, const void *const keys[],
                       const size_t lens[], const uint64_t *u64, bool out[], unsigned w,
                       bool sharded, bool ints)
{
    bool prefetch = fk_batch_prefetches(fu->cell_bytes);
    located win[2][FK_BATCH_WINDOW];
    size_t prev_start = 0, prev_len = 0;
    unsigned cur = 0;
    for (size_t start = 0; start < n || prev_len; start += FK_BATCH_WINDOW) {
        size_t len = start < n ? fk_batch_span(start, n) : 0;
        for (size_t j = 0; j < len; j++) {
            size_t i = start + j;
            uint64_t h = ints ? fk_fuse_hash8(u64[i], fu->flip)
                             : fk_fuse_hash_in(fu, keys[i], lens[i]);
            locate_hash(fu, h, sharded, w, prefetch, &win[cur][j]);
        }
        for (size_t j = 0; j < prev_len; j++)
            out[prev_start + j] = test_located(fu, &win[cur ^ 1][j], w);
        prev_start = start;
        prev_len = len;
        cur ^= 1;
    }
}

/* Dispatch on the filter's path once per batch. */
static inline void run_path(const fk_fuse *fu, size_t n, const void *const keys[],
                            const size_t lens[], const uint64_t *u64, bool out[], bool ints)
{
    switch (fu->path) {
    case FK_FUSE_PATH_W8:             run(fu, n, keys, lens, u64, out, 8, false, ints); return;
    case FK_FUSE_PATH_W16:            run(fu, n, keys, lens, u64, out, 16, false, ints); return;
    case FK_FUSE_PATH_W32:            run(fu, n, keys, lens, u64, out, 32, false, ints); return;
    case FK_FUSE_PATH_PACKED:         run(fu, n, keys, lens, u64, out, 0, false, ints); return;
    case FK_FUSE_PATH_SHARDED_W8:     run(fu, n, keys, lens, u64, out, 8, true, ints); return;
    case FK_FUSE_PATH_SHARDED_W16:    run(fu, n, keys, lens, u64, out, 16, true, ints); return;
    case FK_FUSE_PATH_SHARDED_W32:    run(fu, n, keys, lens, u64, out, 32, true, ints); return;
    case FK_FUSE_PATH_SHARDED_PACKED: run(fu, n, keys, lens, u64, out, 0, true, ints); return;
    case FK_FUSE_PATH_EMPTY:          break;
    }
    for (size_t i = 0; i < n; i++)
        out[i] = false;
}

/* (the dispatchers have checked the arguments: f, keys, lens and out are
 * valid for n > 0, and no key is NULL with a length) */
FK_HOT void fk_fuse_slot_contains_many(const fk_filter *f, size_t n, const void *const keys[],
                                       const size_t lens[], bool out[])
{
    run_path((const fk_fuse *)f, n, keys, lens, NULL, out, false);
}

FK_HOT void fk_fuse_slot_contains_many_u64(const fk_filter *f, size_t n, const uint64_t keys[],
                                           bool out[])
{
    run_path((const fk_fuse *)f, n, NULL, NULL, keys, out, true);
}
