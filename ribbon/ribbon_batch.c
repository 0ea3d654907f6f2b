/* ribbon/ribbon_batch.c: batched lookups. A window of keys is hashed and
 * each key's three blocks located (and prefetched, for a filter out of
 * cache); then the window before it, whose lines were asked for one
 * window earlier, is tested. Answers equal the single-key calls. */
#include "ribbon_internal.h"
#include "../common/cpu.h"
#include "../common/pipeline.h"

typedef struct {
    fk_ribbon_row row;
    uint64_t word;
} located;

typedef struct {
    const fk_ribbon   *rb;
    const void *const *keys;
    const size_t      *lens;
    const uint64_t    *u64;
    bool              *out;
    bool               sharded, ints, prefetch;
    int                isa;    /* a constant after inlining */
    located          (*win)[FK_BATCH_WINDOW];
} batch;

static inline void window_step(void *ctx, unsigned slot, size_t start, size_t span)
{
    batch *x = ctx;
    const fk_ribbon *rb = x->rb;
    for (size_t j = 0; j < span; j++) {
        size_t i = start + j;
        uint64_t h = x->ints ? fk_hash8_64(x->u64[i], rb->flip)
                             : fk_ribbon_hash_in(rb, x->keys[i], x->lens[i]);
        located *k = &x->win[slot][j];
        fk_ribbon_place(rb, h, x->sharded, &k->row, &k->word);
        if (x->prefetch) {
            /* the three blocks lie in a row: 24 r bytes from the first */
            const char *p = (const char *)(rb->solution + k->word);
            const char *end = p + 24 * rb->r - 1;
            for (; p <= end; p += 64)
                FK_PREFETCH_READ(p);
            FK_PREFETCH_READ(end);
        }
    }
}

static inline size_t probe_step(void *ctx, unsigned slot, size_t start, size_t span,
                                fk_status *s)
{
    batch *x = ctx;
    (void)s;
    for (size_t j = 0; j < span; j++) {
        const located *k = &x->win[slot][j];
#if FK_CPU_X86
        if (x->isa == FK_RIBBON_ISA_AVX2) {
            x->out[start + j] = fk_ribbon_matches_avx2(x->rb->solution + k->word, x->rb->r,
                                                       &k->row);
            continue;
        }
#endif
        x->out[start + j] = fk_ribbon_matches(x->rb->solution + k->word, x->rb->r, &k->row);
    }
    return span;
}

static inline void run(const fk_ribbon *rb, size_t n, const void *const keys[],
                       const size_t lens[], const uint64_t *u64, bool out[], bool sharded,
                       bool ints, int isa)
{
    located win[2][FK_BATCH_WINDOW];
    batch x = { .rb = rb, .keys = keys, .lens = lens, .u64 = u64, .out = out,
                .sharded = sharded, .ints = ints, .isa = isa,
                .prefetch = fk_batch_prefetches(rb->solution_words * 8), .win = win };
    size_t done;
    (void)fk_batch_run(&x, n, window_step, probe_step, &done);
}

static inline void run_path(const fk_ribbon *rb, size_t n, const void *const keys[],
                            const size_t lens[], const uint64_t *u64, bool out[], bool ints,
                            int isa)
{
    if (rb->items == 0) {
        for (size_t i = 0; i < n; i++)
            out[i] = false;
    } else if (rb->geom.shards > 1) {
        run(rb, n, keys, lens, u64, out, true, ints, isa);
    } else {
        run(rb, n, keys, lens, u64, out, false, ints, isa);
    }
}

/* The same pipeline compiled for popcnt and for AVX2 (chosen as the
 * single-key lookups are: rb->isa). */
#if FK_CPU_X86
FK_TARGET_BMI2_POPCNT static void run_path_popcnt(const fk_ribbon *rb, size_t n,
                                                  const void *const keys[], const size_t lens[],
                                                  const uint64_t *u64, bool out[], bool ints)
{
    run_path(rb, n, keys, lens, u64, out, ints, FK_RIBBON_ISA_POPCNT);
}
FK_TARGET_AVX2 static void run_path_avx2(const fk_ribbon *rb, size_t n, const void *const keys[],
                                         const size_t lens[], const uint64_t *u64, bool out[],
                                         bool ints)
{
    run_path(rb, n, keys, lens, u64, out, ints, FK_RIBBON_ISA_AVX2);
}
#endif

static void run_any(const fk_ribbon *rb, size_t n, const void *const keys[], const size_t lens[],
                    const uint64_t *u64, bool out[], bool ints)
{
#if FK_CPU_X86
    if (rb->isa == FK_RIBBON_ISA_AVX2) {
        run_path_avx2(rb, n, keys, lens, u64, out, ints);
        return;
    }
    if (rb->isa == FK_RIBBON_ISA_POPCNT) {
        run_path_popcnt(rb, n, keys, lens, u64, out, ints);
        return;
    }
#endif
    run_path(rb, n, keys, lens, u64, out, ints, FK_RIBBON_ISA_PLAIN);
}

FK_HOT void fk_ribbon_slot_contains_many(const fk_filter *f, size_t n, const void *const keys[],
                                         const size_t lens[], bool out[])
{
    run_any((const fk_ribbon *)f, n, keys, lens, NULL, out, false);
}

FK_HOT void fk_ribbon_slot_contains_many_u64(const fk_filter *f, size_t n, const uint64_t keys[],
                                             bool out[])
{
    run_any((const fk_ribbon *)f, n, NULL, NULL, keys, out, true);
}
