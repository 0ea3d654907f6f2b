/* counting/counting_batch.c: the counting filter's batches
 * (common/pipeline.h): hash a window of keys, prefetch the lines of their
 * k counters, then add, test or take them (counting_internal.h's
 * fk_counting_*_probes, the single-key calls' own code) while the next
 * window's lines arrive. */
#include <string.h>
#include "counting_internal.h"
#include "../common/pipeline.h"

/* Counting tables from FK_CACHE_COUNTING_PREFETCH_L2S times the core's L2
 * up are prefetched (common/cache.h; 2 MiB on a 1 MiB-L2 machine): at four
 * times a Bloom filter's bytes and k lines a key, a 10^6-key table (4.8 MB)
 * lives past the L2, and its lookups measured 0.7x single-key speed
 * unprefetched. Lookups of tables from FK_CACHE_COUNTING_STAGED_L2S times
 * the L2 up run in stages (lookup_staged); smaller ones prefetch all k
 * lines of every key at once. Measured on present keys: a 10^6-key table
 * (4.8 MB) 0.85x single-key speed staged, 1.15x all at once; a 10^7-key
 * one (48 MB) 1.64x staged. */

/* What a pipeline does to each key. */
typedef enum { DO_TEST, DO_ADD, DO_TAKE } batch_op;

/* The probes of key i: bytes, or the integer ints[i] (the probes of its 8
 * little-endian bytes; callers pass ints or keys NULL as a constant). */
static inline fk_probe probe_of(const fk_counting *c, const void *const keys[],
                                const size_t lens[], const uint64_t ints[], size_t i)
{
    if (!keys)
        return fk_probe_start(fk_hash8_128(ints[i], c->hash8));
    return fk_probe_start(fk_counting_hash(c, keys[i], lens[i]));
}

/* Hashes keys [start, start + span) into pr[] and prefetches the lines of
 * their first `lines` counters (for writing unless op is DO_TEST). */
static inline void hash_window(const fk_counting *c, fk_probe pr[], const void *const keys[],
                               const size_t lens[], const uint64_t ints[], size_t start,
                               size_t span, uint32_t lines, batch_op op)
{
    for (size_t j = 0; j < span; j++) {
        pr[j] = probe_of(c, keys, lens, ints, start + j);
        fk_probe walk = pr[j];
        for (uint32_t i = 0; i < lines; i++) {
            const uint8_t *line = c->ctr + (fk_probe_next(&walk, c->m) >> c->shift);
            if (op == DO_TEST)
                FK_PREFETCH_READ(line);
            else
                FK_PREFETCH_WRITE(line);
        }
    }
}

/* The staged batch (common/pipeline.h) tests each key's first
 * FK_COUNTING_GROUP counters and fetches the rest only for the keys that
 * pass: at half fill 4 counters hold a zero with probability 15/16, so most
 * negatives ask for no more lines. (The single-key lookup tests all k.) */
#define FK_COUNTING_GROUP 4u

/* 1 when the next `count` counters are all nonzero, advancing *pr: the
 * answer fk_counting_test_probes gives, in any grouping. */
static inline uint32_t test_next(const fk_counting *c, fk_probe *pr, uint32_t count)
{
    uint32_t all = 1;
    for (uint32_t i = 0; i < count; i++)
        all &= fk_ctr_nonzero(c->ctr, fk_probe_next(pr, c->m), c->shift);
    return all;
}

static inline void prefetch_next(const fk_counting *c, fk_probe pr, uint32_t count)
{
    for (uint32_t i = 0; i < count; i++)
        FK_PREFETCH_READ(c->ctr + (fk_probe_next(&pr, c->m) >> c->shift));
}

/* The steps fk_batch_lookup_staged (common/pipeline.h) runs for
 * lookups of a table out of cache. */
static void staged_hash(const void *f, fk_probe pr[], const void *const keys[], const size_t lens[],
                        const uint64_t ints[], size_t start, size_t span, uint32_t lines)
{
    hash_window((const fk_counting *)f, pr, keys, lens, ints, start, span, lines, DO_TEST);
}

static uint64_t staged_test(const void *f, fk_probe *pr, uint32_t count)
{
    return test_next((const fk_counting *)f, pr, count);
}

static void staged_prefetch(const void *f, fk_probe pr, uint32_t count)
{
    prefetch_next((const fk_counting *)f, pr, count);
}

static inline void lookup_staged(const fk_counting *c, size_t n, const void *const keys[],
                                 const size_t lens[], const uint64_t ints[], bool out[])
{
    fk_batch_lookup_staged(c, c->k, FK_COUNTING_GROUP, n, keys, lens, ints, out, staged_hash,
                           staged_test, staged_prefetch);
}

/* One window batch (common/pipeline.h's fk_batch_run): op on each key,
 * all k lines of each prefetched (`lines`, 0 for a table in cache). */
typedef struct {
    fk_counting       *wc;
    const fk_counting *c;
    const void *const *keys;
    const size_t      *lens;
    const uint64_t    *ints;
    bool              *out;
    batch_op           op;
    uint32_t           lines;
    fk_probe         (*pr)[FK_BATCH_WINDOW]; /* the two windows */
} batch;

static inline void window_step(void *ctx, unsigned slot, size_t start, size_t span)
{
    batch *x = ctx;
    hash_window(x->c, x->pr[slot], x->keys, x->lens, x->ints, start, span, x->lines, x->op);
}

static inline size_t probe_step(void *ctx, unsigned slot, size_t start, size_t span,
                                fk_status *s)
{
    batch *x = ctx;
    for (size_t j = 0; j < span; j++) {
        if (x->op == DO_TEST) {
            x->out[start + j] = fk_counting_test_probes(x->c, x->pr[slot][j]);
        } else if (x->op == DO_ADD) {
            fk_counting_add_probes(x->wc, x->pr[slot][j]);
        } else {
            fk_status st = fk_counting_remove_probes(x->wc, x->pr[slot][j]);
            if (st != FK_OK) {
                *s = st;
                return j;
            }
        }
    }
    return span;
}

/* The pipeline: op on keys[0..n) in order; lookups fill out[]; a write
 * stops at the first key whose status is not FK_OK (only DO_TAKE has one)
 * and stores in *done how many were done. */
static inline fk_status run(fk_counting *wc, const fk_counting *c, size_t n,
                            const void *const keys[], const size_t lens[], const uint64_t ints[],
                            bool out[], batch_op op, size_t *done)
{
    const bool prefetch = c->bytes >= fk_cache_l2s(FK_CACHE_COUNTING_PREFETCH_L2S);
    if (op == DO_TEST &&
        (!prefetch || (n > 0 && c->bytes >= fk_cache_l2s(FK_CACHE_COUNTING_STAGED_L2S)))) {
        if (prefetch)
            lookup_staged(c, n, keys, lens, ints, out);
        else /* in cache: the hash inlined and no call per key */
            for (size_t i = 0; i < n; i++)
                out[i] = fk_counting_test_probes(c, probe_of(c, keys, lens, ints, i));
        *done = n;
        return FK_OK;
    }
    /* writers, and lookups in L3, touch (or may touch) all k counters:
     * prefetch all k lines */
    fk_probe pr[2][FK_BATCH_WINDOW];
    batch x = { .wc = wc, .c = c, .keys = keys, .lens = lens, .ints = ints, .out = out,
                .op = op, .lines = prefetch ? c->k : 0, .pr = pr };
    return fk_batch_run(&x, n, window_step, probe_step, done);
}

/* ---------------------------------------- the fk_ops slots (counting.c's table)
 *
 * The dispatchers (common/batch.c) have checked every argument and key,
 * and pass a non-NULL done. */

FK_HOT void fk_counting_slot_contains_many(const fk_filter *f, size_t n, const void *const keys[],
                                           const size_t lens[], bool out[])
{
    size_t did;
    run(NULL, (const fk_counting *)f, n, keys, lens, NULL, out, DO_TEST, &did);
}

FK_HOT fk_status fk_counting_slot_insert_many(fk_filter *f, size_t n, const void *const keys[],
                                              const size_t lens[], size_t *done)
{
    return run((fk_counting *)f, (const fk_counting *)f, n, keys, lens, NULL, NULL, DO_ADD, done);
}

FK_HOT fk_status fk_counting_slot_remove_many(fk_filter *f, size_t n, const void *const keys[],
                                              const size_t lens[], size_t *done)
{
    return run((fk_counting *)f, (const fk_counting *)f, n, keys, lens, NULL, NULL, DO_TAKE, done);
}

FK_HOT void fk_counting_slot_contains_many_u64(const fk_filter *f, size_t n, const uint64_t keys[],
                                               bool out[])
{
    size_t did;
    run(NULL, (const fk_counting *)f, n, NULL, NULL, keys, out, DO_TEST, &did);
}

FK_HOT fk_status fk_counting_slot_insert_many_u64(fk_filter *f, size_t n, const uint64_t keys[],
                                                  size_t *done)
{
    return run((fk_counting *)f, (const fk_counting *)f, n, NULL, NULL, keys, NULL, DO_ADD, done);
}
