/* ribbon/ribbon_batch.c: batched lookups. A window of keys is hashed and
 * each key's three blocks located (and prefetched, for a filter out of
 * cache); then the window before it, whose lines were asked for one
 * window earlier, is tested: the first four result bits of every key,
 * then the rest for the keys that pass. Answers equal the single-key calls. */
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
    located          (*win)[FK_BATCH_WINDOW];
} batch;

/* Every step below is inlined (always_inline) into the one function per
 * instruction set, with sharded, ints, prefetch and isa constants: a step
 * left out of line would be compiled without AVX2 and call the AVX2 test
 * once per key (and test the flags per key). */
FK_BATCH_INLINE void window_step(batch *x, unsigned slot, size_t start, size_t span,
                                 bool sharded, bool ints, bool prefetch)
{
    const fk_ribbon *rb = x->rb;
    for (size_t j = 0; j < span; j++) {
        size_t i = start + j;
        uint64_t h = ints ? fk_hash8_64(x->u64[i], rb->flip)
                          : fk_ribbon_hash_in(rb, x->keys[i], x->lens[i]);
        located *k = &x->win[slot][j];
        fk_ribbon_place(rb, h, sharded, &k->row, &k->word);
        if (prefetch) {
            /* the three blocks lie in a row: 24 r bytes from the first */
            const char *p = (const char *)(rb->solution + k->word);
            const char *end = p + 24 * rb->r - 1;
            for (; p <= end; p += 64)
                FK_PREFETCH_READ(p);
            FK_PREFETCH_READ(end);
        }
    }
}

/* Whether a row's first four result bits equal its fingerprint's (r >= 4),
 * without a branch: most absent keys fail here, and a branch per key on
 * that would be mispredicted about once in 2^FK_RIBBON_FIRST_BITS. */
FK_BATCH_INLINE bool first4_match(const uint64_t *p, uint32_t r, const fk_ribbon_row *row,
                                  int isa)
{
    uint64_t c[3];
    fk_ribbon_shifted(row, c);
#if FK_CPU_X86
    if (isa == FK_RIBBON_ISA_AVX2)
        return ((fk_ribbon_bits4_avx2(p, r, c) ^ row->fp) & 15u) == 0;
#else
    (void)isa;
#endif
    uint32_t acc = 0;
    for (uint32_t j = 0; j < 4; j++)
        acc |= fk_ribbon_bit(p, r, c, j) << j;
    return ((acc ^ row->fp) & 15u) == 0;
}

/* Whether result bits 4..r-1 equal the fingerprint's, for a row whose
 * first four already do (first4_match): together, the single-key test. */
FK_BATCH_INLINE bool rest_match(const uint64_t *p, uint32_t r, const fk_ribbon_row *row, int isa)
{
    uint64_t c[3];
    fk_ribbon_shifted(row, c);
    uint32_t acc = 0;
#if FK_CPU_X86
    if (isa == FK_RIBBON_ISA_AVX2) {
        /* four at a time, the last step overlapping the one before it
         * (its bits below 4 are right too: the mask drops them) */
        for (uint32_t j = 4; j < r; j += 4) {
            uint32_t at = j + 4 <= r ? j : r - 4;
            acc |= fk_ribbon_bits4_avx2(p + at, r, c) << at;
        }
        return ((acc ^ row->fp) & ~15u) == 0;
    }
#else
    (void)isa;
#endif
    for (uint32_t j = 4; j < r; j++)
        acc |= fk_ribbon_bit(p, r, c, j) << j;
    return ((acc ^ row->fp) & ~15u) == 0;
}

/* Two passes over the window: the first four bits of every key (no
 * branch), then bits 4..r-1 for the few that pass (every present key,
 * 1 absent key in 16). The answers are those of the single-key test. */
FK_BATCH_INLINE void probe_step(batch *x, unsigned slot, size_t start, size_t span, int isa)
{
    const uint64_t *sol = x->rb->solution;
    const uint32_t r = x->rb->r;
    bool *out = x->out + start;
    const located *w = x->win[slot];
    if (__builtin_expect(r < 4, 0)) {
        for (size_t j = 0; j < span; j++)
            out[j] = fk_ribbon_matches(sol + w[j].word, r, &w[j].row);
        return;
    }
    for (size_t j = 0; j < span; j++)
        out[j] = first4_match(sol + w[j].word, r, &w[j].row, isa);
    for (size_t j = 0; j < span; j++)
        if (out[j])
            out[j] = rest_match(sol + w[j].word, r, &w[j].row, isa);
}

/* fk_batch_run's two-window loop, written out: its steps take constant
 * flags here, which its function-pointer steps cannot. */
FK_BATCH_INLINE void run(const fk_ribbon *rb, size_t n, const void *const keys[],
                         const size_t lens[], const uint64_t *u64, bool out[], bool sharded,
                         bool ints, bool prefetch, int isa)
{
    located win[2][FK_BATCH_WINDOW];
    batch x = { .rb = rb, .keys = keys, .lens = lens, .u64 = u64, .out = out, .win = win };
    unsigned cur = 0;
    if (n > 0)
        window_step(&x, 0, 0, fk_batch_span(0, n), sharded, ints, prefetch);
    for (size_t start = 0; start < n; start += FK_BATCH_WINDOW, cur ^= 1) {
        size_t next = start + FK_BATCH_WINDOW;
        if (next < n)
            window_step(&x, cur ^ 1, next, fk_batch_span(next, n), sharded, ints, prefetch);
        probe_step(&x, cur, start, fk_batch_span(start, n), isa);
    }
}

FK_BATCH_INLINE void run_path(const fk_ribbon *rb, size_t n, const void *const keys[],
                              const size_t lens[], const uint64_t *u64, bool out[], bool ints,
                              int isa)
{
    bool prefetch = fk_batch_prefetches(rb->solution_words * 8);
    if (rb->items == 0) {
        for (size_t i = 0; i < n; i++)
            out[i] = false;
    } else if (rb->geom.shards > 1) {
        if (prefetch)
            run(rb, n, keys, lens, u64, out, true, ints, true, isa);
        else
            run(rb, n, keys, lens, u64, out, true, ints, false, isa);
    } else {
        if (prefetch)
            run(rb, n, keys, lens, u64, out, false, ints, true, isa);
        else
            run(rb, n, keys, lens, u64, out, false, ints, false, isa);
    }
}

/* The same pipeline compiled for popcnt and for AVX2 (chosen as the
 * single-key lookups are: rb->isa), for byte keys and for integer keys. */
#define RIBBON_BATCH_T(name, attr, isa)                                                    \
    attr static void name(const fk_ribbon *rb, size_t n, const void *const keys[],         \
                          const size_t lens[], bool out[])                                 \
    {                                                                                      \
        run_path(rb, n, keys, lens, NULL, out, false, isa);                                \
    }                                                                                      \
    attr static void name##_u64(const fk_ribbon *rb, size_t n, const uint64_t keys[],      \
                                bool out[])                                                \
    {                                                                                      \
        run_path(rb, n, NULL, NULL, keys, out, true, isa);                                 \
    }

RIBBON_BATCH_T(run_plain, , FK_RIBBON_ISA_PLAIN)
#if FK_CPU_X86
RIBBON_BATCH_T(run_popcnt, FK_TARGET_BMI2_POPCNT, FK_RIBBON_ISA_POPCNT)
RIBBON_BATCH_T(run_avx2, FK_TARGET_AVX2, FK_RIBBON_ISA_AVX2)
#endif

void fk_ribbon_slot_contains_many(const fk_filter *f, size_t n, const void *const keys[],
                                  const size_t lens[], bool out[])
{
    const fk_ribbon *rb = (const fk_ribbon *)f;
#if FK_CPU_X86
    if (rb->isa == FK_RIBBON_ISA_AVX2) {
        run_avx2(rb, n, keys, lens, out);
        return;
    }
    if (rb->isa == FK_RIBBON_ISA_POPCNT) {
        run_popcnt(rb, n, keys, lens, out);
        return;
    }
#endif
    run_plain(rb, n, keys, lens, out);
}

void fk_ribbon_slot_contains_many_u64(const fk_filter *f, size_t n, const uint64_t keys[],
                                      bool out[])
{
    const fk_ribbon *rb = (const fk_ribbon *)f;
#if FK_CPU_X86
    if (rb->isa == FK_RIBBON_ISA_AVX2) {
        run_avx2_u64(rb, n, keys, out);
        return;
    }
    if (rb->isa == FK_RIBBON_ISA_POPCNT) {
        run_popcnt_u64(rb, n, keys, out);
        return;
    }
#endif
    run_plain_u64(rb, n, keys, out);
}
