/* expandable/expandable_batch.c: the expandable filter's batches
 * (common/pipeline.h): hash a window of keys and prefetch each key's block
 * header and slot line, then look the window up or insert it in order
 * with the single-key code while the next window's lines arrive. A
 * window holds hashes, not places, so an insert that doubles the table
 * mid-window changes nothing but the usefulness of the prefetches already
 * sent. Inserts stop at the first failure, which loses nothing. */
#include "expandable_internal.h"
#include "../common/pipeline.h"

static inline uint64_t hash_of(const fk_expandable *xf, const void *const keys[],
                               const size_t lens[], const uint64_t ints[], size_t i)
{
    if (ints)
        return fk_hash8_64(ints[i], xf->flip);
    return fk_xf_hash(xf, keys[i], lens[i]);
}

static inline void hash_window(const fk_expandable *xf, uint64_t h[], const void *const keys[],
                               const size_t lens[], const uint64_t ints[], size_t start,
                               size_t span, bool write)
{
    const bool prefetch = fk_batch_prefetches(xf->nblocks * xf->block_bytes);
    for (size_t j = 0; j < span; j++) {
        h[j] = hash_of(xf, keys, lens, ints, start + j);
        if (!prefetch)
            continue;
        uint32_t kv;
        uint64_t q = fk_xf_place(xf, h[j], &kv);
        const uint8_t *blk = fk_xf_block(xf, q >> 6);
        const uint8_t *slot = blk + FK_XF_HEAD + (((q & 63) * xf->width) >> 3);
        if (write) {
            FK_PREFETCH_WRITE(blk);
            FK_PREFETCH_WRITE(blk + FK_XF_HEAD - 1);
            FK_PREFETCH_WRITE(slot);
        } else {
            FK_PREFETCH_READ(blk);
            FK_PREFETCH_READ(blk + FK_XF_HEAD - 1); /* a header's second line */
            FK_PREFETCH_READ(slot);
        }
    }
}

/* One batch (common/pipeline.h's fk_batch_run): lookups into out[] (into
 * NULL), or inserts into `into` (xf itself) in order, stopping at the
 * first failure. */
typedef struct {
    const fk_expandable      *xf;
    fk_expandable            *into;
    const void *const *keys;
    const size_t      *lens;
    const uint64_t    *ints;
    bool              *out;
    uint64_t         (*h)[FK_BATCH_WINDOW]; /* the two windows */
} batch;

static inline void window_step(void *ctx, unsigned slot, size_t start, size_t span)
{
    batch *b = ctx;
    hash_window(b->xf, b->h[slot], b->keys, b->lens, b->ints, start, span, b->into != NULL);
}

static inline size_t probe_step(void *ctx, unsigned slot, size_t start, size_t span,
                                fk_status *s)
{
    batch *b = ctx;
    for (size_t j = 0; j < span; j++) {
        if (!b->into) {
            b->out[start + j] = fk_xf_lookup_hash(b->xf, b->h[slot][j]);
            continue;
        }
        fk_status st = fk_xf_insert_hash(b->into, b->h[slot][j]);
        if (st != FK_OK) {
            *s = st;
            return j;
        }
    }
    return span;
}

static inline fk_status batch_run(const fk_expandable *xf, fk_expandable *into, size_t n,
                                  const void *const keys[], const size_t lens[],
                                  const uint64_t ints[], bool out[], size_t *done)
{
    uint64_t h[2][FK_BATCH_WINDOW];
    batch b = { .xf = xf, .into = into,
                .keys = keys, .lens = lens, .ints = ints, .out = out, .h = h };
    return fk_batch_run(&b, n, window_step, probe_step, done);
}

void fk_expandable_slot_contains_many(const fk_filter *f, size_t n, const void *const keys[],
                                      const size_t lens[], bool out[])
{
    size_t did;
    (void)batch_run((const fk_expandable *)f, NULL, n, keys, lens, NULL, out, &did);
}

fk_status fk_expandable_slot_insert_many(fk_filter *f, size_t n, const void *const keys[],
                                         const size_t lens[], size_t *done)
{
    size_t did = 0;
    fk_expandable *xf = (fk_expandable *)f;
    fk_status s = batch_run(xf, xf, n, keys, lens, NULL, NULL, &did);
    if (done)
        *done = did;
    return s;
}

void fk_expandable_slot_contains_many_u64(const fk_filter *f, size_t n, const uint64_t keys[],
                                          bool out[])
{
    size_t did;
    (void)batch_run((const fk_expandable *)f, NULL, n, NULL, NULL, keys, out, &did);
}

fk_status fk_expandable_slot_insert_many_u64(fk_filter *f, size_t n, const uint64_t keys[],
                                             size_t *done)
{
    size_t did = 0;
    fk_expandable *xf = (fk_expandable *)f;
    fk_status s = batch_run(xf, xf, n, NULL, NULL, keys, NULL, &did);
    if (done)
        *done = did;
    return s;
}
