/* quotient/quotient_batch.c: the counting quotient filter's batches
 * (common/pipeline.h): hash a window of keys and prefetch the first line
 * of each key's block (its occupieds, runends and offset, and the first
 * remainders), then look the window up or insert it in order with the
 * single-key code while the next window's lines arrive. Inserts stop at
 * the first FK_EFULL, which loses nothing. */
#include "quotient_internal.h"
#include "../common/pipeline.h"

static inline uint64_t hash_of(const fk_quotient *qf, const void *const keys[],
                               const size_t lens[], const uint64_t ints[], size_t i)
{
    if (ints)
        return fk_qf_hash8(ints[i], qf->flip);
    if (lens[i] == 8)
        return fk_qf_hash8(fk_load_le64(keys[i]), qf->flip);
    return fk_qf_hash(qf, keys[i], lens[i]);
}

/* Hashes keys [start, start + span) into h[] and prefetches their blocks. */
static inline void hash_window(const fk_quotient *qf, uint64_t h[], const void *const keys[],
                               const size_t lens[], const uint64_t ints[], size_t start,
                               size_t span, bool write)
{
    const bool prefetch = fk_batch_prefetches(qf->nblocks * qf->block_bytes);
    for (size_t j = 0; j < span; j++) {
        h[j] = hash_of(qf, keys, lens, ints, start + j);
        if (!prefetch)
            continue;
        uint64_t x, q = fk_qf_quotient(qf, h[j], &x);
        const uint8_t *blk = fk_qf_block(qf, q >> 6);
        if (write)
            FK_PREFETCH_WRITE(blk);
        else
            FK_PREFETCH_READ(blk);
    }
}

/* One batch (common/pipeline.h's fk_batch_run): lookups into out[] (into
 * NULL), or inserts into `into` (qf itself) in order, stopping at the
 * first failure. */
typedef struct {
    const fk_quotient    *qf;
    fk_quotient          *into;
    const void *const    *keys;
    const size_t         *lens;
    const uint64_t       *ints;
    bool                 *out;
    uint64_t         (*h)[FK_BATCH_WINDOW]; /* the two windows */
} batch;

static inline void window_step(void *ctx, unsigned slot, size_t start, size_t span)
{
    batch *b = ctx;
    hash_window(b->qf, b->h[slot], b->keys, b->lens, b->ints, start, span, b->into != NULL);
}

static inline size_t probe_step(void *ctx, unsigned slot, size_t start, size_t span,
                                fk_status *s)
{
    batch *b = ctx;
    for (size_t j = 0; j < span; j++) {
        if (!b->into) {
            b->out[start + j] = b->qf->lookup(b->qf, b->h[slot][j]);
            continue;
        }
        fk_status st = fk_qf_insert_hash(b->into, b->h[slot][j]);
        if (st != FK_OK) {
            *s = st;
            return j;
        }
    }
    return span;
}

/* Inlined into each caller, so each gets only its own loop. */
static inline fk_status batch_run(const fk_quotient *qf, fk_quotient *into, size_t n,
                                  const void *const keys[], const size_t lens[],
                                  const uint64_t ints[], bool out[], size_t *done)
{
    uint64_t h[2][FK_BATCH_WINDOW];
    batch b = { .qf = qf, .into = into,
                .keys = keys, .lens = lens, .ints = ints, .out = out, .h = h };
    return fk_batch_run(&b, n, window_step, probe_step, done);
}

static void lookup_run(const fk_quotient *qf, size_t n, const void *const keys[],
                       const size_t lens[], const uint64_t ints[], bool out[])
{
    size_t did;
    (void)batch_run(qf, NULL, n, keys, lens, ints, out, &did);
}

static fk_status insert_run(fk_quotient *qf, size_t n, const void *const keys[],
                            const size_t lens[], const uint64_t ints[], size_t *done)
{
    return batch_run(qf, qf, n, keys, lens, ints, NULL, done);
}

/* ------------------------------------------------------ the ops slots */

void fk_quotient_slot_contains_many(const fk_filter *f, size_t n, const void *const keys[],
                                    const size_t lens[], bool out[])
{
    lookup_run((const fk_quotient *)f, n, keys, lens, NULL, out);
}

fk_status fk_quotient_slot_insert_many(fk_filter *f, size_t n, const void *const keys[],
                                       const size_t lens[], size_t *done)
{
    size_t did = 0;
    fk_status s = insert_run((fk_quotient *)f, n, keys, lens, NULL, &did);
    if (done)
        *done = did;
    return s;
}

void fk_quotient_slot_contains_many_u64(const fk_filter *f, size_t n, const uint64_t keys[],
                                        bool out[])
{
    lookup_run((const fk_quotient *)f, n, NULL, NULL, keys, out);
}

fk_status fk_quotient_slot_insert_many_u64(fk_filter *f, size_t n, const uint64_t keys[],
                                           size_t *done)
{
    size_t did = 0;
    fk_status s = insert_run((fk_quotient *)f, n, NULL, NULL, keys, &did);
    if (done)
        *done = did;
    return s;
}
