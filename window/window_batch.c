/* window/window_batch.c: the sliding window's batches (common/pipeline.h):
 * hash a window of keys and prefetch both buckets of each (when the table
 * is out of cache), then look the window up, or insert it in order with
 * the single-key code, while the next window's lines arrive. Inserts stop
 * at the first FK_EFULL, which loses nothing. */
#include "window_internal.h"

static inline uint64_t hash_of(const fk_window *w, const void *const keys[],
                               const size_t lens[], const uint64_t ints[], size_t i)
{
    if (ints)
        return fk_hash8_64(ints[i], w->hash8);
    return fk_win_hash(w, keys[i], lens[i]);
}

/* Hashes keys [start, start + span) into h[] and prefetches their buckets. */
static inline void hash_window(const fk_window *w, uint64_t h[], const void *const keys[],
                               const size_t lens[], const uint64_t ints[], size_t start,
                               size_t span, bool write)
{
    const bool prefetch = fk_batch_prefetches(fk_win_table_bytes(w->buckets, w->w));
    for (size_t j = 0; j < span; j++) {
        h[j] = hash_of(w, keys, lens, ints, start + j);
        if (!prefetch)
            continue;
        fk_win_place p = fk_win_place_of(w, h[j]);
        if (write) {
            FK_PREFETCH_WRITE(fk_win_bucket_addr(w, p.i1));
            FK_PREFETCH_WRITE(fk_win_bucket_addr(w, p.i2));
        } else {
            FK_PREFETCH_READ(fk_win_bucket_addr(w, p.i1));
            FK_PREFETCH_READ(fk_win_bucket_addr(w, p.i2));
        }
    }
}

/* One batch (common/pipeline.h's fk_batch_run): lookups into out[] (into
 * NULL), or inserts into `into` in order, stopping at the first failure;
 * *done: the keys inserted before it. */
typedef struct {
    const fk_window      *w;
    fk_window            *into;
    const void *const *keys;
    const size_t      *lens;
    const uint64_t    *ints;
    bool              *out;
    uint64_t         (*h)[FK_BATCH_WINDOW]; /* the two windows */
} batch;

static inline void window_step(void *ctx, unsigned slot, size_t start, size_t span)
{
    batch *b = ctx;
    hash_window(b->w, b->h[slot], b->keys, b->lens, b->ints, start, span, b->into != NULL);
}

static inline size_t probe_step(void *ctx, unsigned slot, size_t start, size_t span,
                                fk_status *s)
{
    batch *b = ctx;
    for (size_t j = 0; j < span; j++) {
        if (!b->into) {
            fk_win_place p = fk_win_place_of(b->w, b->h[slot][j]);
            b->out[start + j] = fk_win_has(b->w, &p);
            continue;
        }
        fk_status st = fk_win_insert_hash(b->into, b->h[slot][j]);
        if (st != FK_OK) {
            *s = st;
            return j;
        }
    }
    return span;
}

static inline fk_status batch_run(const fk_window *w, fk_window *into, size_t n,
                                  const void *const keys[], const size_t lens[],
                                  const uint64_t ints[], bool out[], size_t *done)
{
    uint64_t h[2][FK_BATCH_WINDOW];
    batch b = { .w = w, .into = into,
                .keys = keys, .lens = lens, .ints = ints, .out = out, .h = h };
    return fk_batch_run(&b, n, window_step, probe_step, done);
}

/* batch_run's lookups with the width a constant F <= 13: no width test, no
 * mask read from the struct (keeping each key's hash and placing it again
 * costs fewer instructions than keeping its place: fewer spills). */
static inline __attribute__((always_inline)) void lookup_run_w(const fk_window *w, size_t n,
                                                                const void *const keys[],
                                                                const size_t lens[],
                                                                const uint64_t ints[], bool out[],
                                                                unsigned F)
{
    uint64_t hs[FK_BATCH_WINDOW];
    const bool prefetch = fk_batch_prefetches(fk_win_table_bytes(w->buckets, w->w));
    for (size_t start = 0; start < n;) {
        size_t span = fk_batch_span(start, n);
        for (size_t j = 0; j < span; j++) {
            hs[j] = hash_of(w, keys, lens, ints, start + j);
            if (prefetch) {
                const fk_win_place pl = fk_win_place_w(w, hs[j], F);
                const unsigned BB = 4 * (F + FK_WIN_TAG_BITS);
                FK_PREFETCH_READ(w->bytes + ((pl.i1 * BB) >> 3));
                FK_PREFETCH_READ(w->bytes + ((pl.i2 * BB) >> 3));
            }
        }
        for (size_t j = 0; j < span; j++)
            out[start + j] = fk_win_has_hash_w(w, hs[j], F);
        start += span;
    }
}

#define FK_WIN_EACH_WORD_WIDTH(X) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13)
#define FK_WIN_LOOKUP_RUN(F)                                                           \
    static void lookup_run_##F(const fk_window *w, size_t n, const void *const keys[], \
                               const size_t lens[], const uint64_t ints[], bool out[]) \
    {                                                                                  \
        if (ints) /* each form its own loop, the other's NULL a constant */          \
            lookup_run_w(w, n, NULL, NULL, ints, out, F);                              \
        else                                                                           \
            lookup_run_w(w, n, keys, lens, NULL, out, F);                              \
    }
FK_WIN_EACH_WORD_WIDTH(FK_WIN_LOOKUP_RUN)
#undef FK_WIN_LOOKUP_RUN

/* The lookups of a batch: the width's loop, or batch_run's. */
static void lookup_run(const fk_window *w, size_t n, const void *const keys[],
                       const size_t lens[], const uint64_t ints[], bool out[])
{
    switch (w->f) {
#define FK_WIN_LOOKUP_CASE(F)                                                          \
    case F:                                                                            \
        lookup_run_##F(w, n, keys, lens, ints, out);                                   \
        return;
        FK_WIN_EACH_WORD_WIDTH(FK_WIN_LOOKUP_CASE)
#undef FK_WIN_LOOKUP_CASE
    default: {
        size_t did;
        (void)batch_run(w, NULL, n, keys, lens, ints, out, &did);
    }
    }
}

void fk_window_slot_contains_many(const fk_filter *f, size_t n, const void *const keys[],
                                  const size_t lens[], bool out[])
{
    lookup_run((const fk_window *)f, n, keys, lens, NULL, out);
}

fk_status fk_window_slot_insert_many(fk_filter *f, size_t n, const void *const keys[],
                                     const size_t lens[], size_t *done)
{
    size_t did = 0;
    fk_status s = batch_run((fk_window *)f, (fk_window *)f, n, keys, lens, NULL, NULL, &did);
    if (done)
        *done = did;
    return s;
}

void fk_window_slot_contains_many_u64(const fk_filter *f, size_t n, const uint64_t keys[],
                                      bool out[])
{
    lookup_run((const fk_window *)f, n, NULL, NULL, keys, out);
}

fk_status fk_window_slot_insert_many_u64(fk_filter *f, size_t n, const uint64_t keys[],
                                         size_t *done)
{
    size_t did = 0;
    fk_status s = batch_run((fk_window *)f, (fk_window *)f, n, NULL, NULL, keys, NULL, &did);
    if (done)
        *done = did;
    return s;
}
