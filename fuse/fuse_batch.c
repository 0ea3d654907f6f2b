/* fuse/fuse_batch.c: batched lookups. A window of keys is hashed and the
 * three cells of each located (and prefetched, for a filter out of cache);
 * then the window before it, whose lines were asked for one window
 * earlier, is compared. Answers equal the single-key calls key by key. */
#include "fuse_internal.h"
#include "../common/pipeline.h"

/* One located key: its three cells (absolute) and its fingerprint. A
 * one-shard filter of whole cells keeps each cell as an index into the
 * array its segment starts (cells, seg1_cells, seg2_cells: fk_fuse_probe)
 * and its fingerprint unmasked (the compare is of the low byte or word). */
typedef struct {
    uint64_t c[3];
    uint32_t fp;
} located;

static inline bool by_segments(bool sharded, unsigned w)
{
    return !sharded && w >= 8;
}

static inline void locate_hash(const fk_fuse *fu, uint64_t h, bool sharded, unsigned w,
                               bool prefetch, located *k)
{
    if (by_segments(sharded, w)) {
        uint64_t h0 = fk_reduce(h, fu->geom.span), seg_mask = fu->geom.seg_mask;
        k->c[0] = h0;
        k->c[1] = h0 ^ ((h >> FK_FUSE_MAX_SEGMENT_BITS) & seg_mask);
        k->c[2] = h0 ^ (h & seg_mask);
        k->fp = (uint32_t)(h ^ (h >> 32));
        if (prefetch) {
            FK_PREFETCH_READ(fu->cells + k->c[0] * (w / 8));
            FK_PREFETCH_READ(fu->seg1_cells + k->c[1] * (w / 8));
            FK_PREFETCH_READ(fu->seg2_cells + k->c[2] * (w / 8));
        }
        return;
    }
    uint64_t g = fk_fuse_place(fu, h, sharded, k->c);
    k->fp = fk_fuse_fingerprint(g, fu->fp_mask);
    if (prefetch)
        for (int j = 0; j < 3; j++) {
            uint64_t byte = w ? k->c[j] * (w / 8) : (k->c[j] * fu->f) >> 3;
            FK_PREFETCH_READ(fu->cells + byte);
        }
}

static inline bool test_located(const fk_fuse *fu, const located *k, bool sharded, unsigned w)
{
    if (by_segments(sharded, w)) {
        uint32_t x = (uint32_t)(fk_fuse_window(fu->cells, k->c[0], w, w) ^
                                fk_fuse_window(fu->seg1_cells, k->c[1], w, w) ^
                                fk_fuse_window(fu->seg2_cells, k->c[2], w, w)) ^ k->fp;
        return w == 8 ? (uint8_t)x == 0 : w == 16 ? (uint16_t)x == 0 : x == 0;
    }
    uint32_t x = fk_fuse_cell_get(fu->cells, k->c[0], w, fu->f, fu->fp_mask) ^
                 fk_fuse_cell_get(fu->cells, k->c[1], w, fu->f, fu->fp_mask) ^
                 fk_fuse_cell_get(fu->cells, k->c[2], w, fu->f, fu->fp_mask);
    return x == k->fp;
}

/* One batch (common/pipeline.h's fk_batch_run), its width and sharding
 * constant after inlining. Keys come from either byte keys or integers
 * (ints: u64 not NULL). */
typedef struct {
    const fk_fuse     *fu;
    const void *const *keys;
    const size_t      *lens;
    const uint64_t    *u64;
    bool              *out;
    unsigned           w;
    bool               sharded, ints, prefetch;
    located          (*win)[FK_BATCH_WINDOW]; /* the two windows */
} batch;

static inline void window_step(void *ctx, unsigned slot, size_t start, size_t span)
{
    batch *x = ctx;
    for (size_t j = 0; j < span; j++) {
        size_t i = start + j;
        uint64_t h = x->ints ? fk_fuse_hash8(x->u64[i], x->fu->flip)
                             : fk_fuse_hash_in(x->fu, x->keys[i], x->lens[i]);
        locate_hash(x->fu, h, x->sharded, x->w, x->prefetch, &x->win[slot][j]);
    }
}

static inline size_t probe_step(void *ctx, unsigned slot, size_t start, size_t span,
                                fk_status *s)
{
    batch *x = ctx;
    (void)s;
    for (size_t j = 0; j < span; j++)
        x->out[start + j] = test_located(x->fu, &x->win[slot][j], x->sharded, x->w);
    return span;
}

static inline void run(const fk_fuse *fu, size_t n, const void *const keys[],
                       const size_t lens[], const uint64_t *u64, bool out[], unsigned w,
                       bool sharded, bool ints)
{
    located win[2][FK_BATCH_WINDOW];
    batch x = { .fu = fu, .keys = keys, .lens = lens, .u64 = u64, .out = out, .w = w,
                .sharded = sharded, .ints = ints,
                .prefetch = fk_batch_prefetches(fu->cell_bytes), .win = win };
    size_t done;
    (void)fk_batch_run(&x, n, window_step, probe_step, &done);
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
