/* cuckoo/cuckoo_batch.c: the cuckoo filter's batches (common/pipeline.h):
 * place a window of keys (fingerprint and both buckets), prefetch both
 * buckets of each, then look up, insert or remove them (the single-key
 * calls' own code, cuckoo_internal.h) while the next window's buckets
 * arrive. Inserts go in order and stop at the first FK_EFULL, which loses
 * nothing: the keys placed ahead have only been hashed. */
#include <string.h>
#include "cuckoo_internal.h"
#include "../common/pipeline.h"

/* What a pipeline does to each key. */
typedef enum { DO_TEST, DO_ADD, DO_TAKE, DO_CADD } batch_op;

/* place_of's scheme when the caller does not fix one: the filter's own,
 * read per key. */
#define SCHEME_ANY UINT32_MAX

/* The place of key i: bytes, or the integer ints[i] (the place of its 8
 * little-endian bytes; callers pass ints or keys NULL as a constant).
 * scheme, a constant: the filter's scheme when the caller has switched on
 * it (blocks or chunks, placed without looking again), else SCHEME_ANY. */
static inline fk_cplace place_of(const fk_cuckoo *c, const void *const keys[],
                                 const size_t lens[], const uint64_t ints[],
                                 const fk_hash128 pre[], size_t i, const uint32_t scheme)
{
    if (pre) /* a hash given (common/hashed.h; never the legacy scheme) */
        return fk_cmap_place_h(&c->map, pre[i].lo);
    if (scheme == FK_CUCKOO_SCHEME_BLOCKS || scheme == FK_CUCKOO_SCHEME_CHUNKS) {
        uint64_t h = keys ? fk_cuckoo_hash(c, keys[i], lens[i]) : fk_hash8_64(ints[i], c->hash8);
        return scheme == FK_CUCKOO_SCHEME_BLOCKS ? fk_cmap_place_blocks_h(&c->map, h)
                                                 : fk_cmap_place_chunks_h(&c->map, h);
    }
    if (!keys)
        return fk_cuckoo_place_u64(c, ints[i]);
    return fk_cuckoo_place(c, keys[i], lens[i]);
}

/* Places keys [start, start + span) into k[] (scheme as place_of's) and
 * prefetches both buckets of each (for writing unless op is DO_TEST; none
 * for a table that stays in cache). */
static inline void place_window(const fk_cuckoo *c, fk_cplace k[], const void *const keys[],
                                const size_t lens[], const uint64_t ints[],
                                const fk_hash128 pre[], size_t start, size_t span, batch_op op,
                                const uint32_t scheme)
{
    const bool prefetch = fk_batch_prefetches(c->table.alloc_bytes);
    for (size_t j = 0; j < span; j++) {
        k[j] = place_of(c, keys, lens, ints, pre, start + j, scheme);
        if (!prefetch)
            continue;
        const uint8_t *b1 = fk_ctab_bucket_addr(&c->table, k[j].i1);
        const uint8_t *b2 = fk_ctab_bucket_addr(&c->table, k[j].i2);
        if (op == DO_TEST) {
            FK_PREFETCH_READ(b1);
            FK_PREFETCH_READ(b2);
        } else {
            FK_PREFETCH_WRITE(b1);
            FK_PREFETCH_WRITE(b2);
        }
    }
}

/* ------------------------------------ one window, the width a constant
 *
 * As the single-key paths do (cuckoo.c), widths 4..16 get their own loops
 * with the width folded in, chosen once per window; wider fingerprints go
 * through the generic table calls. Same slots, same answers. */

#define LOOKUP_WINDOW_W(F)                                                                \
    static void lookup_window_w##F(const fk_ctab *t, const fk_cplace k[], size_t span,    \
                                   bool out[])                                            \
    {                                                                                     \
        for (size_t j = 0; j < span; j++)                                                 \
            out[j] = (fk_ctab_match_w(t, k[j].i1, k[j].fp, F) |                           \
                      fk_ctab_match_w(t, k[j].i2, k[j].fp, F)) != 0;                      \
    }
FK_CTAB_EACH_WIDTH(LOOKUP_WINDOW_W)
#undef LOOKUP_WINDOW_W

/* Inserts in order until one answers other than FK_OK (stored in *s);
 * returns how many went in. A key whose buckets are both full takes the
 * single-key path (fk_cuckoo_insert_placed), which kicks. */
#define INSERT_WINDOW_W(F)                                                                \
    static size_t insert_window_w##F(fk_cuckoo *c, const fk_cplace k[], size_t span,      \
                                     fk_status *s)                                        \
    {                                                                                     \
        fk_ctab *t = &c->table;                                                           \
        for (size_t j = 0; j < span; j++) {                                               \
            uint64_t b = k[j].i1, free = fk_ctab_match_w(t, b, 0, F);                     \
            if (!free) {                                                                  \
                b = k[j].i2;                                                              \
                free = fk_ctab_match_w(t, b, 0, F);                                       \
            }                                                                             \
            if (!free) {                                                                  \
                if ((*s = fk_cuckoo_insert_placed(c, &k[j])) != FK_OK)                     \
                    return j;                                                             \
                continue;                                                                 \
            }                                                                             \
            unsigned slot = (unsigned)fk_ctab_slot_of_bit((unsigned)__builtin_ctzll(free), F); \
            fk_ctab_set_w(t, b, slot, k[j].fp, F);                                        \
            c->items++;                                                                   \
        }                                                                                 \
        return span;                                                                      \
    }
FK_CTAB_EACH_WIDTH(INSERT_WINDOW_W)
#undef INSERT_WINDOW_W

/* The window's lookups from the table alone (the width's loop). */
static inline void lookup_window_table(const fk_ctab *t, const fk_cplace k[], size_t span,
                                       bool out[])
{
#define CASE_W(F)                                                                         \
    case F:                                                                               \
        lookup_window_w##F(t, k, span, out);                                              \
        return;
    FK_CUCKOO_DISPATCH_WIDTH(t->f, CASE_W)
#undef CASE_W
    for (size_t j = 0; j < span; j++)
        out[j] = fk_ctab_has2(t, k[j].i1, k[j].i2, k[j].fp);
}

static void lookup_window(const fk_cuckoo *c, const fk_cplace k[], size_t span, bool out[])
{
    const fk_ctab *t = &c->table;
    uint64_t v = fk_cuckoo_moves_seen(c);
    lookup_window_table(t, k, span, out);
    /* As the single-key lookups: a miss while a writer beside us moved
     * fingerprints is read again, so readers never miss (cuckoo.c). */
    if (fk_cuckoo_moves_settled(c, v))
        return;
    for (size_t j = 0; j < span; j++)
        if (!out[j])
            out[j] = fk_cuckoo_lookup_again(c, k[j].i1, k[j].i2, k[j].fp);
}

/* Writes one window in order (inserts, or removes when take); returns how
 * many were done, with *s the status of the one that stopped it. */
static size_t write_window(fk_cuckoo *c, const fk_cplace k[], size_t span, bool take,
                           fk_status *s)
{
    *s = FK_OK;
    if (!take) {
#define CASE_W(F)                                                                         \
    case F:                                                                               \
        return insert_window_w##F(c, k, span, s);
        FK_CUCKOO_DISPATCH_WIDTH(c->table.f, CASE_W)
#undef CASE_W
    }
    for (size_t j = 0; j < span; j++)
        if ((*s = take ? fk_cuckoo_remove_placed(c, &k[j]) : fk_cuckoo_insert_placed(c, &k[j])) !=
            FK_OK)
            return j;
    return span;
}

/* One batch (common/pipeline.h's fk_batch_run): op on keys[0..n) in
 * order; lookups fill out[]; a write stops at the first key whose status
 * is not FK_OK and stores in *done how many were done. */
typedef struct {
    fk_cuckoo         *wc;
    const fk_cuckoo   *c;
    const void *const *keys;
    const size_t      *lens;
    const uint64_t    *ints;
    const fk_hash128  *pre;
    bool              *out;
    batch_op           op;
    fk_cplace        (*k)[FK_BATCH_WINDOW]; /* the two windows */
} batch;

static inline void window_step(void *ctx, unsigned slot, size_t start, size_t span)
{
    batch *x = ctx;
    place_window(x->c, x->k[slot], x->keys, x->lens, x->ints, x->pre, start, span, x->op,
                 SCHEME_ANY);
}

static inline size_t probe_step(void *ctx, unsigned slot, size_t start, size_t span,
                                fk_status *s)
{
    batch *x = ctx;
    if (x->op == DO_TEST) {
        lookup_window(x->c, x->k[slot], span, x->out + start);
        return span;
    }

    return write_window(x->wc, x->k[slot], span, x->op == DO_TAKE, s);
}

static inline fk_status run(fk_cuckoo *wc, const fk_cuckoo *c, size_t n, const void *const keys[],
                            const size_t lens[], const uint64_t ints[], const fk_hash128 pre[],
                            bool out[], batch_op op, size_t *done)
{
    fk_cplace k[2][FK_BATCH_WINDOW];
    batch x = { .wc = wc, .c = c, .keys = keys, .lens = lens, .ints = ints, .pre = pre,
                .out = out, .op = op, .k = k };
    return fk_batch_run(&x, n, window_step, probe_step, done);
}

/* ---------------------------------------- the fk_ops slots (cuckoo.c's table)
 *
 * The dispatchers (common/batch.c) have checked every argument and key,
 * and pass a non-NULL done. */

FK_HOT void fk_cuckoo_slot_contains_many(const fk_filter *f, size_t n, const void *const keys[],
                                         const size_t lens[], bool out[])
{
    size_t did;
    run(NULL, (const fk_cuckoo *)f, n, keys, lens, NULL, NULL, out, DO_TEST, &did);
}

FK_HOT fk_status fk_cuckoo_slot_insert_many(fk_filter *f, size_t n, const void *const keys[],
                                            const size_t lens[], size_t *done)
{
    return run((fk_cuckoo *)f, (const fk_cuckoo *)f, n, keys, lens, NULL, NULL, NULL, DO_ADD, done);
}

FK_HOT fk_status fk_cuckoo_slot_remove_many(fk_filter *f, size_t n, const void *const keys[],
                                            const size_t lens[], size_t *done)
{
    return run((fk_cuckoo *)f, (const fk_cuckoo *)f, n, keys, lens, NULL, NULL, NULL, DO_TAKE, done);
}

FK_HOT void fk_cuckoo_slot_contains_many_u64(const fk_filter *f, size_t n, const uint64_t keys[],
                                             bool out[])
{
    size_t did;
    run(NULL, (const fk_cuckoo *)f, n, NULL, NULL, keys, NULL, out, DO_TEST, &did);
}

FK_HOT fk_status fk_cuckoo_slot_insert_many_u64(fk_filter *f, size_t n, const uint64_t keys[],
                                                size_t *done)
{
    return run((fk_cuckoo *)f, (const fk_cuckoo *)f, n, NULL, NULL, keys, NULL, NULL, DO_ADD, done);
}

FK_HOT void fk_cuckoo_contains_many_hashed(const fk_filter *f, size_t n, const fk_hash128 h[],
                                           bool out[])
{
    size_t did;
    run(NULL, (const fk_cuckoo *)f, n, NULL, NULL, NULL, h, out, DO_TEST, &did);
}

/* The concurrent batches (fk_ops version 7): a window of keys hashed and
 * its buckets prefetched, then each key's concurrent insert through the
 * filter's window writer (c->cinsert_window, chosen for its width when it
 * was made: the single call's compare-and-swap with the width a constant,
 * its stripes and kicks out of line), the items counted once for the
 * batch. A pipeline of its own, so the others' code stays as it was; one
 * per scheme (switched on once per call), so a key is placed without
 * looking at the scheme. */
typedef struct {
    fk_cuckoo         *c;
    const void *const *keys;
    const size_t      *lens;
    const uint64_t    *ints;
    fk_cplace        (*k)[FK_BATCH_WINDOW];
    uint32_t           scheme; /* place_of's, a constant */
    int64_t            added;  /* keys stored, counted once at the end */
} cbatch;

static inline void cwindow_step(void *ctx, unsigned slot, size_t start, size_t span)
{
    cbatch *x = ctx;
    place_window(x->c, x->k[slot], x->keys, x->lens, x->ints, NULL, start, span, DO_CADD,
                 x->scheme);
}

static inline size_t cprobe_step(void *ctx, unsigned slot, size_t start, size_t span,
                                 fk_status *s)
{
    (void)start;
    cbatch *x = ctx;
    /* a count of the window's own: x's address stays in this file, so its
     * fields (keys or ints NULL, the scheme) stay constants */
    int64_t added = 0;
    size_t did = x->c->cinsert_window(x->c, x->k[slot], span, &added, s);
    x->added += added;
    return did;
}

FK_BATCH_INLINE fk_status crun(fk_cuckoo *c, size_t n, const void *const keys[],
                               const size_t lens[], const uint64_t ints[], size_t *done,
                               const uint32_t scheme)
{
    fk_cplace k[2][FK_BATCH_WINDOW];
    cbatch x = { .c = c, .keys = keys, .lens = lens, .ints = ints, .k = k, .scheme = scheme };
    fk_status s = fk_batch_run(&x, n, cwindow_step, cprobe_step, done);
    if (x.added)
        fk_cuckoo_count_items(c, x.added);
    return s;
}

FK_BATCH_INLINE fk_status run_concurrent(fk_cuckoo *c, size_t n, const void *const keys[],
                                         const size_t lens[], const uint64_t ints[],
                                         size_t *done)
{
    switch (c->map.scheme) {
    case FK_CUCKOO_SCHEME_BLOCKS:
        return crun(c, n, keys, lens, ints, done, FK_CUCKOO_SCHEME_BLOCKS);
    case FK_CUCKOO_SCHEME_CHUNKS:
        return crun(c, n, keys, lens, ints, done, FK_CUCKOO_SCHEME_CHUNKS);
    default:
        return crun(c, n, keys, lens, ints, done, SCHEME_ANY);
    }
}

FK_HOT fk_status fk_cuckoo_slot_insert_many_concurrent(fk_filter *f, size_t n,
                                                       const void *const keys[],
                                                       const size_t lens[], size_t *done)
{
    return run_concurrent((fk_cuckoo *)f, n, keys, lens, NULL, done);
}

FK_HOT fk_status fk_cuckoo_slot_insert_many_u64_concurrent(fk_filter *f, size_t n,
                                                           const uint64_t keys[], size_t *done)
{
    return run_concurrent((fk_cuckoo *)f, n, NULL, NULL, keys, done);
}
