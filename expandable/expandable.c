/* expandable/expandable.c: the expandable filter (expandable.h; layout in
 * expandable_internal.h): sizing, lookups, inserts and removes on the
 * rank-and-select table, doubling, the void list, stats and the vtable. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include "expandable_internal.h"
#include "../common/alloc.h"
#include "../common/cpu.h"
#include "../common/spinlock.h"

/* Rank and select (common/rank_select.h): BMI2's pdep and the popcnt
 * instruction where the CPU has them (each filter chooses at creation:
 * xf->bmi2), else the portable forms; the same answers either way. */
#define FK_XF_SELECT_PORTABLE(w, k) fk_rs_select((w), (k))
#if FK_CPU_X86
#define FK_XF_SELECT_BMI2(w, k) fk_rs_select_bmi2((w), (k))
#define FK_XF_POPCNT(w)         FK_RS_POPCNT(w)
#endif

/* ------------------------------------------------------------ geometry */

uint64_t fk_xf_slots_for(uint64_t quotients)
{
    if (quotients == 0 || quotients > (UINT64_C(1) << 40))
        return 0;
    uint64_t want = quotients + 16 + (uint64_t)(2.0 * sqrt((double)quotients));
    return (want + 63) / 64 * 64;
}

uint64_t fk_xf_table_bytes(uint64_t slots, uint32_t width)
{
    return slots / 64 * (FK_XF_HEAD + 8u * (uint64_t)width) + FK_XF_PAD;
}

static uint64_t struct_bytes(void)
{
    return sizeof(fk_expandable);
}

/* The concurrent writers' region locks (the current table's and those a
 * doubling retired) and their count rows: 0 before the first concurrent call. */
static uint64_t concurrent_bytes(const fk_expandable *xf)
{
    uint64_t n = fk_tallies_bytes(&xf->c_counts, FK_XF_C_FIELDS);
    const fk_xf_locks *L = atomic_load_explicit(&xf->locks, memory_order_acquire);
    if (L)
        n += sizeof *L + L->nregions;
    for (unsigned i = 0; i < xf->nretired; i++)
        n += sizeof *xf->retired[i] + xf->retired[i]->nregions;
    return n;
}

static uint64_t memory_of(const fk_expandable *xf)
{
    return fk_xf_table_bytes(xf->slots, xf->width) + struct_bytes() +
           (uint64_t)xf->voids_cap * sizeof(uint64_t) + concurrent_bytes(xf);
}

/* Moves the concurrent writers' counts into used and by_len, theirs back
 * to 0. No writer may be adding: every region lock held, or none running. */
static void fold_counts(fk_expandable *xf)
{
    if (!atomic_load_explicit(&xf->c_counts.rows, memory_order_acquire))
        return;
    xf->used = fk_xf_used(xf);
    for (unsigned L = 0; L < 32; L++)
        xf->by_len[L] = fk_xf_by_len(xf, L);
    fk_tallies_reset(&xf->c_counts, FK_XF_C_FIELDS);
}

/* Before a plain insert or remove after concurrent calls ran: fold the
 * writers' counts and drop their rows, so the plain path reads the plain
 * fields only, and drop the current table's region locks, which a plain
 * doubling would leave sized for the table before it (the next concurrent
 * call makes both anew, for the table then). No concurrent call runs
 * beside a plain one (expandable.h's table), so nobody holds them. */
static inline void settle(fk_expandable *xf)
{
    if (__builtin_expect(atomic_load_explicit(&xf->c_counts.rows, memory_order_relaxed) != NULL ||
                             atomic_load_explicit(&xf->locks, memory_order_relaxed) != NULL,
                         0)) {
        fold_counts(xf);
        fk_tallies_release(&xf->c_counts);
        free(atomic_load_explicit(&xf->locks, memory_order_relaxed));
        atomic_store_explicit(&xf->locks, NULL, memory_order_relaxed);
    }
}

/* D = ceil(log2 growth) */
static unsigned doublings_for(uint32_t growth)
{
    unsigned d = 0;
    while (d < 32 && (UINT64_C(1) << d) < growth)
        d++;
    return d;
}

/* The union bound on the FPR after G doublings of a table filled to
 * max_load before each (expandable.h, "Sizing"). */
static double fpr_after(double max_load, uint32_t fp_bits, unsigned G)
{
    return max_load * ldexp(1.0, -(int)fp_bits) * (1.0 + G / 2.0);
}

/* The F and W the params ask for (expandable.h, "Sizing"): the shortest F
 * of at least D bits whose bound after D doublings meets the target, in
 * slots of F + 1 bits. */
static fk_status widths_for(const fk_params *p, double max_load, uint32_t *width,
                            uint32_t *fp_bits)
{
    uint32_t f = p->fingerprint_bits;
    if (f > 31)
        return FK_EINVAL;
    if (f == 0) {
        unsigned d = doublings_for(p->growth ? p->growth : FK_EXPANDABLE_DEFAULT_GROWTH);
        f = d > 1 ? d : 1;
        while (f < 31 && fpr_after(max_load, f, d) > p->fpr)
            f++;
    }
    *width = f + 1;
    *fp_bits = f;
    return FK_OK;
}

typedef struct {
    uint64_t quotients, slots;
    uint32_t width, fp_bits, growth;
    double   max_load;
} xf_geometry;

static fk_status geometry_of(const fk_params *p, xf_geometry *g)
{
    fk_status s = fk_params_check(p);
    if (s != FK_OK)
        return s;
    double load = p->max_load == 0 ? FK_EXPANDABLE_MAX_LOAD : p->max_load;
    if (!(load >= 0.5 && load < 1.0))
        return FK_EINVAL;
    g->max_load = load;
    s = widths_for(p, load, &g->width, &g->fp_bits);
    if (s != FK_OK)
        return s;
    g->growth = p->growth ? p->growth : FK_EXPANDABLE_DEFAULT_GROWTH;
    double n = ceil((double)p->capacity / load);
    if (!(n < ldexp(1.0, 40)))
        return FK_EINVAL;
    g->quotients = (uint64_t)n;
    g->slots = fk_xf_slots_for(g->quotients);
    if (g->slots == 0 || fk_xf_table_bytes(g->slots, g->width) + struct_bytes() > FK_MEMORY_CAP)
        return FK_EINVAL;
    return FK_OK;
}

static bool geometry_ok(uint64_t quotients, uint32_t width, uint32_t fp_bits)
{
    if (width < 2 || width > 32)
        return false;
    if (fp_bits < 1 || fp_bits > width - 1)
        return false;
    uint64_t S = fk_xf_slots_for(quotients);
    return S != 0 && fk_xf_table_bytes(S, width) <= FK_MEMORY_CAP;
}

/* ------------------------------------------------------------- creation */

static void choose_paths(fk_expandable *xf);

static fk_status create_table(uint64_t slots, uint32_t width, uint8_t **out)
{
    void *t = NULL;
    fk_status s = fk_alloc_zeroed(fk_xf_table_bytes(slots, width), &t);
    *out = t;
    return s;
}

fk_status fk_xf_create_exact(uint64_t quotients, uint32_t width, uint32_t fp_bits,
                             uint32_t doublings, uint64_t seed, uint64_t capacity, double fpr,
                             fk_expandable **out)
{
    *out = NULL;
    if (!geometry_ok(quotients, width, fp_bits) || doublings > FK_EXPANDABLE_MAX_DOUBLINGS ||
        capacity == 0 || (capacity << doublings) >> doublings != capacity)
        return FK_EINVAL;
    fk_expandable *xf = calloc(1, sizeof *xf);
    if (!xf)
        return FK_ENOMEM;
    xf->slots = fk_xf_slots_for(quotients);
    fk_status s = create_table(xf->slots, width, &xf->table);
    if (s != FK_OK) {
        free(xf);
        return s;
    }
    xf->base.ops = &fk_expandable_ops;
    xf->nblocks = xf->slots / 64;
    xf->quotients = quotients;
    xf->width = width;
    xf->block_bytes = FK_XF_HEAD + 8u * width;
    xf->free_lanes = 56u / width;
    for (unsigned i = 0; i < xf->free_lanes; i++)
        xf->free_ones |= UINT64_C(1) << (i * width);
    choose_paths(xf);
    xf->fp_bits = fp_bits;
    xf->doublings = doublings;
    xf->growth = FK_EXPANDABLE_DEFAULT_GROWTH;
    xf->seed = seed;
    xf->flip = fk_hash8_flip64(seed);
    xf->capacity = capacity;
    xf->fpr = fpr;
    xf->limit = capacity << doublings;
    xf->max_bytes = FK_MEMORY_CAP;
    *out = xf;
    return FK_OK;
}

fk_status fk_expandable_new(const fk_params *p, fk_expandable **out)
{
    if (!out)
        return FK_EINVAL;
    *out = NULL;
    if (!p)
        return FK_EINVAL;
    xf_geometry g;
    fk_status s = geometry_of(p, &g);
    if (s != FK_OK)
        return s;
    if (fk_xf_table_bytes(g.slots, g.width) + struct_bytes() > fk_params_max_bytes(p))
        return FK_ELIMIT;
    s = fk_xf_create_exact(g.quotients, g.width, g.fp_bits, 0, p->seed, p->capacity, p->fpr,
                           out);
    if (s == FK_OK) {
        (*out)->max_bytes = fk_params_max_bytes(p);
        (*out)->growth = g.growth;
    }
    return s;
}

/* The set_max_bytes slot (fk_filter_set_max_bytes, which resolved
 * max_bytes): the limit the next doubling is checked against. */
static fk_status fk_expandable_slot_set_max_bytes(fk_filter *f, uint64_t max_bytes)
{
    ((fk_expandable *)f)->max_bytes = max_bytes;
    return FK_OK;
}

void fk_expandable_free(fk_expandable *xf)
{
    if (!xf)
        return;
    free(xf->table);
    free(xf->voids);
    free(atomic_load_explicit(&xf->locks, memory_order_relaxed));
    for (unsigned i = 0; i < xf->nretired; i++)
        free(xf->retired[i]);
    fk_tallies_release(&xf->c_counts);
    free(xf);
}

fk_filter *fk_expandable_as_filter(fk_expandable *xf)
{
    return xf ? &xf->base : NULL;
}

/* --------------------------------------------------------- bit helpers */

static inline void set_bit(fk_expandable *xf, unsigned at, uint64_t j, bool on)
{
    uint8_t *p = fk_xf_block(xf, j >> 6) + at;
    uint64_t w = fk_load_le64(p), m = UINT64_C(1) << (j & 63);
    fk_store_le64(p, on ? w | m : w & ~m);
}

static inline bool is_occupied(const fk_expandable *xf, uint64_t q)
{
    return (fk_xf_occupieds(xf, q >> 6) >> (q & 63)) & 1u;
}

static inline void set_offset(fk_expandable *xf, uint64_t b, unsigned v)
{
    fk_le_put16(fk_xf_block(xf, b) + 16, (uint16_t)v);
}

/* The first set bit at or after `from` below `limit` in the occupieds
 * (at = 0) or runends (at = 8) words; `limit` when none. */
static uint64_t next_bit(const fk_expandable *xf, unsigned at, uint64_t from, uint64_t limit)
{
    while (from < limit) {
        uint64_t w = fk_load_le64(fk_xf_block(xf, from >> 6) + at) >> (from & 63);
        if (w) {
            uint64_t j = from + (uint64_t)__builtin_ctzll(w);
            return j < limit ? j : limit;
        }
        from = (from | 63) + 1;
    }
    return limit;
}

/* Where q's run starts or would start: one past the last run of a
 * quotient below q, and not before q: the block's offset says how far the
 * runs of earlier blocks reach into it, the rank of q among the block's
 * occupied quotients how many runends of this block's runs come before
 * q's (the d-th runend at or after the offset, found with a select). */
#define FK_XF_DEFINE_PLACING(SUFFIX, ATTR, SELECT, POPCOUNT)                          \
    ATTR static uint64_t run_place_##SUFFIX(const fk_expandable *xf, uint64_t q)       \
    {                                                                                 \
        uint64_t b = q >> 6;                                                          \
        uint64_t below = fk_xf_occupieds(xf, b) & ((UINT64_C(1) << (q & 63)) - 1);    \
        uint64_t p0 = (b << 6) + fk_xf_offset(xf, b);                                 \
        unsigned d = POPCOUNT(below);                                                 \
        if (d == 0)                                                                   \
            return p0 > q ? p0 : q;                                                   \
        uint64_t w = p0 >> 6;                                                         \
        uint64_t re = fk_xf_runends(xf, w) & (~UINT64_C(0) << (p0 & 63));            \
        unsigned c = POPCOUNT(re);                                                    \
        while (c < d) {                                                               \
            d -= c;                                                                   \
            if (++w >= xf->nblocks)                                                   \
                return xf->slots;                                                     \
            re = fk_xf_runends(xf, w);                                                \
            c = POPCOUNT(re);                                                         \
        }                                                                             \
        uint64_t at = (w << 6) + SELECT(re, d - 1) + 1;                               \
        return at > q ? at : q;                                                       \
    }

FK_XF_DEFINE_PLACING(portable, , FK_XF_SELECT_PORTABLE, fk_rs_popcount)
#if FK_CPU_X86
FK_XF_DEFINE_PLACING(bmi2, FK_TARGET_BMI2_POPCNT, FK_XF_SELECT_BMI2,
                     FK_XF_POPCNT)
#endif

__attribute__((always_inline)) static inline uint64_t run_place(const fk_expandable *xf,
                                                                 uint64_t q)
{
#if FK_CPU_X86
    if (xf->bmi2)
        return run_place_bmi2(xf, q);
#endif
    return run_place_portable(xf, q);
}

/* The first free slot at or after j (S when none): entries are never 0
 * and free slots always are, so it is the first zero slot, found
 * free_lanes slots (one 8-byte load) at a time: a lane is 0 where
 * subtracting 1 from it borrows out of its top bit and the lane had it
 * clear (a borrow only flags lanes above a zero one, so the lowest flag is
 * exact: a first one past the block's last slot means none in it). */
__attribute__((always_inline)) static inline uint64_t first_free(const fk_expandable *xf,
                                                                  uint64_t j)
{
    const unsigned W = xf->width, lanes = xf->free_lanes;
    const uint64_t ones = xf->free_ones, highs = ones << (W - 1);
    while (j < xf->slots) {
        uint64_t b = j >> 6;
        const uint8_t *area = fk_xf_block(xf, b) + FK_XF_HEAD;
        for (unsigned i = (unsigned)(j & 63); i < 64; i += lanes) {
            unsigned bit = i * W;
            uint64_t x = fk_load_le64(area + (bit >> 3)) >> (bit & 7);
            uint64_t z = (x - ones) & ~x & highs;
            if (z) {
                unsigned top = (unsigned)__builtin_ctzll(z) + 1, k = 0; /* (k + 1) W */
                while ((k + 1) * W < top)
                    k++;
                if (i + k < 64)
                    return (b << 6) + i + k;
                break; /* the lowest zero lane is past the block: none in it */
            }
        }
        j = (b + 1) << 6;
    }
    return xf->slots;
}


/* first_free below limit (limit when none there): the concurrent
 * writers' bound. With limit a block's first slot it reads no slot of that
 * block; its 8-byte loads may touch the first bytes of that block's header,
 * which the writer holds too (the region after the last it searches). */
static uint64_t first_free_below(const fk_expandable *xf, uint64_t j, uint64_t limit)
{
    const unsigned W = xf->width, lanes = xf->free_lanes;
    const uint64_t ones = xf->free_ones, highs = ones << (W - 1);
    while (j < limit) {
        uint64_t b = j >> 6;
        const uint8_t *area = fk_xf_block(xf, b) + FK_XF_HEAD;
        for (unsigned i = (unsigned)(j & 63); i < 64; i += lanes) {
            unsigned bit = i * W;
            uint64_t x = fk_load_le64(area + (bit >> 3)) >> (bit & 7);
            uint64_t z = (x - ones) & ~x & highs;
            if (z) {
                unsigned top = (unsigned)__builtin_ctzll(z) + 1, k = 0; /* (k + 1) W */
                while ((k + 1) * W < top)
                    k++;
                if (i + k < 64) {
                    uint64_t at = (b << 6) + i + k;
                    return at < limit ? at : limit;
                }
                break; /* the lowest zero lane is past the block: none in it */
            }
        }
        j = (b + 1) << 6;
    }
    return limit;
}


/* ---------------------------------------------------------------- lookup */

static bool voids_have(const fk_expandable *xf, uint64_t key)
{
    size_t lo = 0, hi = xf->nvoids;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (xf->voids[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < xf->nvoids && xf->voids[lo] == key;
}

static uint64_t void_key(const fk_expandable *xf, uint64_t q, unsigned gen)
{
    return ((uint64_t)gen << FK_XF_VOID_SHIFT) | (q >> (xf->doublings - gen));
}

/* The most specific void matching quotient q (index in voids), or -1. */
static long voids_match(const fk_expandable *xf, uint64_t q)
{
    for (uint64_t gens = xf->void_gens; gens;) {
        unsigned g = 63u - (unsigned)__builtin_clzll(gens);
        gens &= ~(UINT64_C(1) << g);
        uint64_t key = void_key(xf, q, g);
        if (voids_have(xf, key)) {
            size_t lo = 0, hi = xf->nvoids;
            while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                if (xf->voids[mid] < key)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            return (long)lo;
        }
    }
    return -1;
}

/* The slot before `limit` that ends a run, at or after p0; p0 - 1 when
 * none (a run's start when the runends between its block's offset and its
 * own end word are all in earlier words: rare). */
static uint64_t last_runend_before(const uint8_t *table, unsigned W, uint64_t p0,
                                   uint64_t limit)
{
    while (limit > p0) {
        uint64_t w = (limit - 1) >> 6;
        uint64_t re = fk_xf_runends_w(table, w, W) & (~UINT64_C(0) >> (63 - ((limit - 1) & 63)));
        if (re) {
            uint64_t j = (w << 6) + 63u - (unsigned)__builtin_clzll(re);
            return j >= p0 ? j : p0 - 1;
        }
        limit = w << 6;
    }
    return p0 - 1;
}

/* The lookup of a hashed key, once per rank-and-select flavour (BMI2 and
 * popcnt where the CPU has them, chosen when the filter is made; the
 * portable one otherwise: the same answers, which the tests compare).
 * q's block says in one bit whether q has a run; if so, the rank of q
 * among the block's occupied quotients, counted from the block's offset,
 * numbers the runend that ends q's run and the one before it tells where
 * the run starts (both selects on one word in the common case). Runs of
 * one or two entries (most of them below load 0.9) are compared without
 * branches; longer runs are walked between start and end with no runend
 * check per slot. Keys with no match in the table then ask the void list
 * (empty within the expected growth). */
#define FK_XF_DEFINE_LOOKUP(SUFFIX, W, ATTR, SELECT, POPCOUNT)                                  \
    ATTR __attribute__((noinline)) static bool run_matches_##SUFFIX(                              \
        const uint8_t *table, uint64_t q, uint32_t kv, const uint8_t *blk, uint64_t occ,         \
        unsigned width)                                                                          \
    {                                                                                            \
        (void)width;                                                                             \
        uint64_t b = q >> 6;                                                                     \
        unsigned d = POPCOUNT(occ & (~UINT64_C(0) >> (63 - (q & 63))));                          \
        uint64_t p0 = (b << 6) + fk_le_get16(blk + 16), w = p0 >> 6;                             \
        uint64_t re = fk_xf_runends_w(table, w, W) & (~UINT64_C(0) << (p0 & 63));               \
        unsigned c = POPCOUNT(re);                                                               \
        while (c < d) {                                                                          \
            d -= c;                                                                              \
            re = fk_xf_runends_w(table, ++w, W);                                                 \
            c = POPCOUNT(re);                                                                    \
        }                                                                                        \
        uint64_t end = (w << 6) + SELECT(re, d - 1), start;                                      \
        if (__builtin_expect(d >= 2 || w == p0 >> 6, 1))                                         \
            start = d >= 2 ? (w << 6) + SELECT(re, d >= 2 ? d - 2 : 0) + 1 : p0;                \
        else                                                                                     \
            start = last_runend_before(table, W, p0, w << 6) + 1;                                \
        start = start < q ? q : start;                                                           \
        uint32_t v1 = fk_xf_slot_w(table, end, W);                                               \
        uint32_t v0 = fk_xf_slot_w(table, end - (end > start), W);                               \
        bool hit = (int)fk_xf_match(v1, kv) | (int)fk_xf_match(v0, kv);                          \
        if (__builtin_expect(end - start < 2, 1))                                                \
            return hit;                                                                          \
        for (uint64_t j = start; !hit && j + 1 < end; j++)                                       \
            hit = fk_xf_match(fk_xf_slot_w(table, j, W), kv);                                    \
        return hit;                                                                              \
    }                                                                                            \
    ATTR static inline bool lookup_##SUFFIX(const fk_expandable *xf, uint64_t h)                 \
    {                                                                                            \
        const unsigned width = xf->width;                                                        \
        (void)width;                                                                             \
        uint32_t kv;                                                                             \
        uint64_t q = fk_xf_place(xf, h, &kv);                                                    \
        const uint8_t *blk = fk_xf_block_w(xf->table, q >> 6, W);                                \
        /* q's slots are usually in a later line of its block than the       \
         * header, a header that straddles two lines has its offset in the   \
         * second, and at load 0.9 a run often ends in the line after q's    \
         * slot: ask for all three now, so the misses overlap the first's    \
         * (a mispredicted "no run" would otherwise wait for them) */        \
        __builtin_prefetch(blk + FK_XF_HEAD + (((q & 63) * W) >> 3));                            \
        __builtin_prefetch(blk + FK_XF_HEAD - 1);                                                \
        __builtin_prefetch(blk + FK_XF_HEAD + (((q & 63) * W) >> 3) + 64);                       \
        uint64_t occ = fk_load_le64(blk);                                                        \
        if (((occ >> (q & 63)) & 1) && run_matches_##SUFFIX(xf->table, q, kv, blk, occ, width))  \
            return true;                                                                         \
        return __builtin_expect(xf->nvoids != 0, 0) && voids_in(xf, q);                          \
    }                                                                                            \
    ATTR static bool lookup_hash_##SUFFIX(const fk_expandable *xf, uint64_t h)                   \
    {                                                                                            \
        return lookup_##SUFFIX(xf, h);                                                           \
    }                                                                                            \
    /* by key, the hash inlined: 8-byte keys through XXH3's 8-byte path     \
     * (the seed's part made once), other lengths through XXH3 itself */    \
    ATTR static bool lookup_key_##SUFFIX(const fk_expandable *xf, const void *key, size_t len)   \
    {                                                                                            \
        if (__builtin_expect(len == 8 && key != NULL, 1))                                        \
            return lookup_##SUFFIX(xf, fk_hash8_64(fk_load_le64(key), xf->flip));                \
        return lookup_##SUFFIX(xf, fk_hash64_long(key, len, xf->seed));                          \
    }                                                                                            \
    ATTR static bool lookup_u64_##SUFFIX(const fk_filter *f, uint64_t key)                       \
    {                                                                                            \
        const fk_expandable *xf = (const fk_expandable *)f;                                      \
        return lookup_##SUFFIX(xf, fk_hash8_64(key, xf->flip));                                  \
    }

/* The void list's answer, out of line: the table's lookups keep their
 * registers (no void exists within the expected growth). */
__attribute__((noinline, cold)) static bool voids_in(const fk_expandable *xf, uint64_t q)
{
    return voids_match(xf, q) >= 0;
}

/* One body per flavour for the byte-aligned widths 0.4.0 made (16, 32:
 * its files), for 1% at the default growth (11: W a constant saves 9 of
 * 173.6 instructions a lookup; 0.1%'s 14 saved 0.5, so it has none) and
 * one for any width, W read from the filter. */
FK_XF_DEFINE_LOOKUP(portable16, 16, , FK_XF_SELECT_PORTABLE, fk_rs_popcount)
FK_XF_DEFINE_LOOKUP(portable32, 32, , FK_XF_SELECT_PORTABLE, fk_rs_popcount)
FK_XF_DEFINE_LOOKUP(portable11, 11, , FK_XF_SELECT_PORTABLE, fk_rs_popcount)
FK_XF_DEFINE_LOOKUP(portable, width, , FK_XF_SELECT_PORTABLE, fk_rs_popcount)
#if FK_CPU_X86
FK_XF_DEFINE_LOOKUP(bmi2_16, 16, FK_TARGET_BMI2_POPCNT, FK_XF_SELECT_BMI2,
                    FK_XF_POPCNT)
FK_XF_DEFINE_LOOKUP(bmi2_32, 32, FK_TARGET_BMI2_POPCNT, FK_XF_SELECT_BMI2,
                    FK_XF_POPCNT)
FK_XF_DEFINE_LOOKUP(bmi2_11, 11, FK_TARGET_BMI2_POPCNT, FK_XF_SELECT_BMI2,
                    FK_XF_POPCNT)
FK_XF_DEFINE_LOOKUP(bmi2, width, FK_TARGET_BMI2_POPCNT, FK_XF_SELECT_BMI2,
                    FK_XF_POPCNT)
#endif

#define FK_XF_USE_LOOKUP(xf, SUFFIX)                 \
    do {                                             \
        (xf)->lookup = lookup_hash_##SUFFIX;         \
        (xf)->lookup_key = lookup_key_##SUFFIX;      \
        (xf)->base.contains_u64 = lookup_u64_##SUFFIX; \
    } while (0)

void fk_xf_use_portable(fk_expandable *xf)
{
    xf->bmi2 = false;
    if (xf->width == 16)
        FK_XF_USE_LOOKUP(xf, portable16);
    else if (xf->width == 32)
        FK_XF_USE_LOOKUP(xf, portable32);
    else if (xf->width == 11)
        FK_XF_USE_LOOKUP(xf, portable11);
    else
        FK_XF_USE_LOOKUP(xf, portable);
}

static void choose_paths(fk_expandable *xf)
{
    fk_xf_use_portable(xf);
#if FK_CPU_X86
    if (fk_cpu_has(FK_CPU_BMI2 | FK_CPU_POPCNT)) {
        xf->bmi2 = true;
        if (xf->width == 16)
            FK_XF_USE_LOOKUP(xf, bmi2_16);
        else if (xf->width == 32)
            FK_XF_USE_LOOKUP(xf, bmi2_32);
        else if (xf->width == 11)
            FK_XF_USE_LOOKUP(xf, bmi2_11);
        else
            FK_XF_USE_LOOKUP(xf, bmi2);
    }
#endif
}

bool fk_xf_lookup_hash(const fk_expandable *xf, uint64_t h)
{
    return xf->lookup(xf, h);
}

bool fk_expandable_contains(const fk_expandable *xf, const void *key, size_t len)
{
    if (!xf || (!key && len > 0))
        return false;
    return xf->lookup_key(xf, key, len);
}

/* ---------------------------------------------------------------- insert */

/* Bits lo..hi (lo <= hi <= 63) of a word. */
static inline uint64_t bit_range(unsigned lo, unsigned hi)
{
    return (~UINT64_C(0) >> (63 - hi)) & (~UINT64_C(0) << lo);
}

/* Moves bits [from, to) of a block's slot area `shift` bits up (the
 * stretch goes up a slot) or down, 56 bits a load: up from the top, down
 * from the bottom, so no bit is read after it was overwritten. */
static inline void area_move(uint8_t *area, unsigned from, unsigned to, unsigned shift, bool up)
{
    while (from < to) {
        unsigned c = to - from < 56 ? to - from : 56;
        unsigned src = up ? to - c : from, dst = up ? src + shift : src - shift;
        uint64_t v = (fk_load_le64(area + (src >> 3)) >> (src & 7)) & fk_xf_mask(c);
        uint8_t *p = area + (dst >> 3);
        uint64_t m = fk_xf_mask(c) << (dst & 7);
        fk_store_le64(p, (fk_load_le64(p) & ~m) | (v << (dst & 7)));
        if (up)
            to -= c;
        else
            from += c;
    }
}

/* Moves the entries of slots [p, e) up one slot, to [p + 1, e], runend
 * bits with them, a block at a time from the top (one bit-string move and
 * one word shift per block); slot p's runend bit ends cleared, its value
 * is the caller's to write. Slot e must be free. */
__attribute__((always_inline)) static inline void shift_up(fk_expandable *xf, uint64_t p,
                                                           uint64_t e)
{
    const unsigned W = xf->width;
    for (uint64_t b = e >> 6;; b--) {
        uint64_t lo = (b << 6) > p ? b << 6 : p;
        unsigned li = (unsigned)(lo & 63), hi = b == e >> 6 ? (unsigned)(e & 63) : 63u;
        uint8_t *blk = fk_xf_block(xf, b), *area = blk + FK_XF_HEAD;
        uint64_t re = fk_load_le64(blk + 8), moved = 0;
        if (hi > li) {
            area_move(area, li * W, hi * W, W, true);
            moved = (re << 1) & bit_range(li + 1, hi);
        }
        re = (re & ~bit_range(li, hi)) | moved;
        if (lo > p) { /* slot 0 takes the last slot of the block below */
            const uint8_t *below = fk_xf_block(xf, b - 1);
            fk_xf_area_set(area, 0, W, fk_xf_area_get(below + FK_XF_HEAD, 63, W));
            re |= fk_load_le64(below + 8) >> 63;
        }
        fk_store_le64(blk + 8, re);
        if (lo == p)
            return;
    }
}

/* Moves the entries of slots (p, E] down one slot, to [p, E), runend bits
 * with them, a block at a time from the bottom; slot E ends free. */
static void shift_down(fk_expandable *xf, uint64_t p, uint64_t E)
{
    const unsigned W = xf->width;
    for (uint64_t b = p >> 6; b <= E >> 6; b++) {
        uint64_t lo = (b << 6) > p ? b << 6 : p;
        unsigned li = (unsigned)(lo & 63), hi = b == E >> 6 ? (unsigned)(E & 63) : 63u;
        uint8_t *blk = fk_xf_block(xf, b), *area = blk + FK_XF_HEAD;
        uint64_t re = fk_load_le64(blk + 8), moved = 0;
        if (hi > li) {
            area_move(area, (li + 1) * W, (hi + 1) * W, W, false);
            moved = (re >> 1) & bit_range(li, hi - 1);
        }
        re = (re & ~bit_range(li, hi)) | moved;
        if (b < E >> 6) { /* slot 63 takes slot 0 of the block above */
            const uint8_t *above = fk_xf_block(xf, b + 1);
            fk_xf_area_set(area, 63, W, fk_xf_area_get(above + FK_XF_HEAD, 0, W));
            re |= (fk_load_le64(above + 8) & 1) << 63;
        } else {
            fk_xf_area_set(area, hi, W, 0);
        }
        fk_store_le64(blk + 8, re);
    }
}

/* Puts value v into q's run, keeping the run's values rising. FK_EFULL
 * (nothing changed) when the cluster would pass the last slot or an
 * offset would pass FK_XF_OFFSET_MAX. Inlined into both writers (plain
 * and concurrent), as it was into the one before there were two. */
__attribute__((always_inline)) static inline fk_status table_insert(fk_expandable *xf, uint64_t q,
                                                                    uint32_t v)
{
    uint64_t start = run_place(xf, q), p = start, end = start;
    bool occupied = is_occupied(xf, q);
    if (occupied) {
        end = next_bit(xf, 8, start, xf->slots);
        while (p <= end && fk_xf_slot(xf, p) <= v)
            p++;
    }
    uint64_t e = first_free(xf, p);
    if (e >= xf->slots)
        return FK_EFULL;
    /* Offsets: only blocks after q's and up to e change. For a block
     * starting after p, the slot before its start is in the shifted stretch
     * and belongs to a run of a quotient below it: its offset grows by one.
     * For one starting at or before p (q below its start), the new entry
     * ends the last run of a quotient below it unless that run already
     * reached p. */
    uint64_t b_lo = (q >> 6) + 1, b_hi = e >> 6;
    for (uint64_t b = b_lo; b <= b_hi; b++)
        if (fk_xf_offset(xf, b) >= FK_XF_OFFSET_MAX || (b << 6) + FK_XF_OFFSET_MAX <= p)
            return FK_EFULL;
    shift_up(xf, p, e);
    fk_xf_set_slot(xf, p, v);
    if (!occupied) {
        set_bit(xf, 0, q, true);
        set_bit(xf, 8, p, true);
    } else if (p == end + 1) {
        set_bit(xf, 8, end, false);
        set_bit(xf, 8, p, true);
    } else {
        set_bit(xf, 8, p, false);
    }
    for (uint64_t b = b_lo; b <= b_hi; b++) {
        uint64_t at = b << 6;
        unsigned off = fk_xf_offset(xf, b);
        if (at > p || (off > 0 && at + off > p))
            off++;
        else
            off = (unsigned)(p + 1 - at);
        set_offset(xf, b, off);
    }
    return FK_OK;
}

static fk_status double_table(fk_expandable *xf);

fk_status fk_xf_insert_hash(fk_expandable *xf, uint64_t h)
{
    settle(xf);
    if (xf->used >= xf->limit) {
        fk_status s = double_table(xf);
        if (s != FK_OK)
            return s;
    }
    for (int tries = 0;; tries++) {
        uint32_t kv;
        uint64_t q = fk_xf_place(xf, h, &kv);
        fk_status s = table_insert(xf, q, fk_xf_entry(xf, kv));
        if (s == FK_OK) {
            xf->used++;
            xf->by_len[xf->fp_bits]++;
            return FK_OK;
        }
        if (tries > 0) /* doubling did not help: copies of one hash */
            return FK_EFULL;
        s = double_table(xf);
        if (s != FK_OK)
            return s;
    }
}

fk_status fk_expandable_insert(fk_expandable *xf, const void *key, size_t len)
{
    if (!xf || (!key && len > 0))
        return FK_EINVAL;
    return fk_xf_insert_hash(xf, fk_xf_hash(xf, key, len));
}

/* ---------------------------------------------------------------- remove */

static void voids_erase(fk_expandable *xf, size_t i)
{
    unsigned g = (unsigned)(xf->voids[i] >> FK_XF_VOID_SHIFT);
    memmove(xf->voids + i, xf->voids + i + 1, (xf->nvoids - i - 1) * sizeof *xf->voids);
    xf->nvoids--;
    bool left = (i > 0 && (xf->voids[i - 1] >> FK_XF_VOID_SHIFT) == g) ||
                (i < xf->nvoids && (xf->voids[i] >> FK_XF_VOID_SHIFT) == g);
    if (!left)
        xf->void_gens &= ~(UINT64_C(1) << g);
}

/* Removes slot p of q's run [start, end]: the runs after it that sit past
 * their quotient move left by one, up to the first that cannot. */
static void table_remove_at(fk_expandable *xf, uint64_t q, uint64_t start, uint64_t end,
                            uint64_t p, uint64_t qlimit)
{
    /* qlimit: N, or a concurrent writer's bound (past the free slot that
     * ends the cluster: no run there moves) */
    uint64_t E = end, cur = q;
    while (E + 1 < xf->slots) {
        uint64_t q2 = next_bit(xf, 0, cur + 1, qlimit);
        if (q2 >= qlimit || q2 > E)
            break;
        E = next_bit(xf, 8, E + 1, xf->slots);
        cur = q2;
    }
    if (start == end)
        set_bit(xf, 0, q, false);
    else if (p == end)
        set_bit(xf, 8, end - 1, true);
    shift_down(xf, p, E);
    /* offsets: every block after q's up to E loses one (see table_insert) */
    for (uint64_t b = (q >> 6) + 1; b <= E >> 6; b++) {
        unsigned off = fk_xf_offset(xf, b);
        set_offset(xf, b, off ? off - 1 : 0);
    }
}

/* The slot of q's run that a remove of fingerprint kv takes: the longest
 * entry that matches it (why that one: expandable.h, "Removes"). false
 * when q has no run or no entry matches; start/end: the run's bounds, for
 * table_remove_at. Shared by the plain and the concurrent remove. */
static bool run_longest_match(const fk_expandable *xf, uint64_t q, uint32_t kv,
                              uint64_t *start, uint64_t *end, uint64_t *best,
                              unsigned *best_len)
{
    if (!is_occupied(xf, q))
        return false;
    *start = run_place(xf, q);
    *end = next_bit(xf, 8, *start, xf->slots);
    bool found = false;
    *best_len = 0;
    for (uint64_t j = *start; j <= *end; j++) {
        uint32_t v = fk_xf_slot(xf, j);
        unsigned L = fk_xf_len(xf, v);
        if (fk_xf_match(v, kv) && (!found || L > *best_len)) {
            *best = j;
            *best_len = L;
            found = true;
        }
    }
    return found;
}

static fk_status remove_hash(fk_expandable *xf, uint64_t h)
{
    settle(xf);
    uint32_t kv;
    uint64_t q = fk_xf_place(xf, h, &kv);
    uint64_t start, end, best;
    unsigned best_len;
    if (run_longest_match(xf, q, kv, &start, &end, &best, &best_len)) {
        table_remove_at(xf, q, start, end, best, xf->quotients);
        xf->used--;
        xf->by_len[best_len]--;
        return FK_OK;
    }
    long i = xf->nvoids ? voids_match(xf, q) : -1;
    if (i < 0)
        return FK_ENOTFOUND;
    voids_erase(xf, (size_t)i);
    return FK_OK;
}

fk_status fk_expandable_remove(fk_expandable *xf, const void *key, size_t len)
{
    if (!xf || (!key && len > 0))
        return FK_EINVAL;
    return remove_hash(xf, fk_xf_hash(xf, key, len));
}

/* ------------------------------------------------- runs, builder, check */

/* The runs of a table in quotient order: the i-th occupied quotient owns
 * the run ending at the i-th runend, starting after the last run and not
 * before its quotient. `broken` when the bits do not pair up that way. */
typedef struct {
    const fk_expandable *xf;
    uint64_t qfrom, pos;
    uint64_t q, start, end;
    bool broken;
} xf_runs;

static void runs_init(xf_runs *r, const fk_expandable *xf)
{
    memset(r, 0, sizeof *r);
    r->xf = xf;
}

static bool runs_next(xf_runs *r)
{
    const fk_expandable *xf = r->xf;
    uint64_t q = next_bit(xf, 0, r->qfrom, xf->slots);
    uint64_t end = next_bit(xf, 8, r->pos, xf->slots);
    if (q >= xf->slots) {
        r->broken = end < xf->slots; /* a runend without a run */
        return false;
    }
    uint64_t start = q > r->pos ? q : r->pos;
    if (q >= xf->quotients || end >= xf->slots || end < start) {
        r->broken = true;
        return false;
    }
    r->q = q;
    r->start = start;
    r->end = end;
    r->qfrom = q + 1;
    r->pos = end + 1;
    return true;
}

/* Appends runs in quotient order to an empty table. */
typedef struct {
    fk_expandable *xf;
    uint64_t pos, next_block;
} xf_builder;

static fk_status build_offsets(xf_builder *b, uint64_t upto_block)
{
    for (; b->next_block <= upto_block && b->next_block < b->xf->nblocks; b->next_block++) {
        uint64_t start = b->next_block << 6;
        uint64_t off = b->pos > start ? b->pos - start : 0;
        if (off > FK_XF_OFFSET_MAX)
            return FK_EFULL;
        set_offset(b->xf, b->next_block, (unsigned)off);
    }
    return FK_OK;
}

/* Appends q's run of n values (n >= 1, q above every earlier run's). */
static fk_status build_run(xf_builder *b, uint64_t q, const uint32_t *vals, size_t n)
{
    fk_expandable *xf = b->xf;
    fk_status s = build_offsets(b, q >> 6);
    if (s != FK_OK)
        return s;
    uint64_t start = b->pos > q ? b->pos : q;
    if (start + n > xf->slots)
        return FK_EFULL;
    for (size_t i = 0; i < n; i++)
        fk_xf_set_slot(xf, start + i, vals[i]);
    set_bit(xf, 0, q, true);
    set_bit(xf, 8, start + n - 1, true);
    b->pos = start + n;
    return FK_OK;
}

/* Appends q's run from slots [from, to] of `src` (another table), each
 * value shifted left by one bit within the slot: a doubling's child run,
 * read from the old table in place. */
static fk_status build_run_shifted(xf_builder *b, uint64_t q, const fk_expandable *src,
                                   uint64_t from, uint64_t to)
{
    fk_expandable *xf = b->xf;
    fk_status s = build_offsets(b, q >> 6);
    if (s != FK_OK)
        return s;
    uint64_t start = b->pos > q ? b->pos : q, n = to - from + 1;
    if (start + n > xf->slots)
        return FK_EFULL;
    const uint32_t wmask = (uint32_t)fk_xf_mask(xf->width);
    for (uint64_t i = 0; i < n; i++)
        fk_xf_set_slot(xf, start + i, (fk_xf_slot(src, from + i) << 1) & wmask);
    set_bit(xf, 0, q, true);
    set_bit(xf, 8, start + n - 1, true);
    b->pos = start + n;
    return FK_OK;
}

static fk_status build_finish(xf_builder *b)
{
    return build_offsets(b, b->xf->nblocks);
}

/* A growable buffer of slot values (a run). */
typedef struct {
    uint32_t *v;
    size_t n, cap;
} u32vec;

static bool vec_push(u32vec *a, uint32_t x)
{
    if (a->n == a->cap) {
        size_t cap = a->cap ? a->cap * 2 : 64;
        uint32_t *v = realloc(a->v, cap * sizeof *v);
        if (!v)
            return false;
        a->v = v;
        a->cap = cap;
    }
    a->v[a->n++] = x;
    return true;
}

fk_status fk_xf_rebuild_canonical(const fk_expandable *from, fk_expandable *to)
{
    xf_runs r;
    xf_builder b = { to, 0, 0 };
    u32vec run = { 0 };
    fk_status s = FK_OK;
    uint64_t lens[32] = { 0 }, used = 0;
    runs_init(&r, from);
    while (s == FK_OK && runs_next(&r)) {
        run.n = 0;
        uint32_t prev = 0;
        for (uint64_t j = r.start; j <= r.end && s == FK_OK; j++) {
            uint32_t v = fk_xf_slot(from, j);
            if (v == 0 || v < prev || fk_xf_len(from, v) > from->fp_bits)
                s = FK_ECORRUPT;
            else if (!vec_push(&run, v))
                s = FK_ENOMEM;
            else
                lens[fk_xf_len(from, v)]++;
            prev = v;
        }
        used += run.n;
        if (s == FK_OK && build_run(&b, r.q, run.v, run.n) != FK_OK)
            s = FK_ECORRUPT;
    }
    if (s == FK_OK && r.broken)
        s = FK_ECORRUPT;
    if (s == FK_OK && build_finish(&b) != FK_OK)
        s = FK_ECORRUPT;
    free(run.v);
    if (s != FK_OK)
        return s;
    uint64_t bytes = fk_xf_table_bytes(from->slots, from->width);
    if (memcmp(from->table, to->table, (size_t)bytes) != 0)
        return FK_ECORRUPT;
    to->used = used;
    memcpy(to->by_len, lens, sizeof lens);
    return FK_OK;
}

bool fk_xf_check_canonical(const fk_expandable *xf)
{
    fk_expandable *copy = NULL;
    if (fk_xf_create_exact(xf->quotients, xf->width, xf->fp_bits, xf->doublings, xf->seed,
                           xf->capacity, xf->fpr, &copy) != FK_OK)
        return true; /* no memory to check with */
    fk_status s = fk_xf_rebuild_canonical(xf, copy);
    bool ok = s == FK_OK && copy->used == fk_xf_used(xf);
    for (unsigned L = 0; ok && L < 32; L++)
        ok = copy->by_len[L] == fk_xf_by_len(xf, L);
    if (s == FK_ENOMEM)
        ok = true;
    for (size_t i = 1; ok && i < xf->nvoids; i++)
        ok = xf->voids[i - 1] <= xf->voids[i];
    fk_expandable_free(copy);
    return ok;
}

/* -------------------------------------------------------------- doubling */

static fk_status voids_reserve(fk_expandable *xf, size_t more)
{
    if (xf->nvoids + more <= xf->voids_cap)
        return FK_OK;
    size_t cap = xf->voids_cap ? xf->voids_cap : 16;
    while (cap < xf->nvoids + more)
        cap *= 2;
    uint64_t *v = realloc(xf->voids, cap * sizeof *v);
    if (!v)
        return FK_ENOMEM;
    xf->voids = v;
    xf->voids_cap = cap;
    return FK_OK;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Doubles the table: N and S double (S as fk_xf_slots_for says), each
 * entry gives its first fingerprint bit to its quotient, and entries of
 * length 0 go to the void list. Nothing changes on error. */
static fk_status double_table(fk_expandable *xf)
{
    if (xf->doublings >= FK_EXPANDABLE_MAX_DOUBLINGS ||
        xf->quotients > (UINT64_C(1) << 39) || (xf->limit << 1) >> 1 != xf->limit)
        return FK_ELIMIT;
    fold_counts(xf);
    uint64_t N2 = xf->quotients * 2, S2 = fk_xf_slots_for(N2);
    uint64_t new_voids = xf->by_len[0];
    uint64_t bytes = fk_xf_table_bytes(S2, xf->width) + struct_bytes() +
                     (uint64_t)(xf->nvoids + new_voids) * sizeof(uint64_t);
    if (S2 == 0 || bytes > xf->max_bytes || bytes > FK_MEMORY_CAP)
        return FK_ELIMIT;
    if (voids_reserve(xf, (size_t)new_voids) != FK_OK)
        return FK_ENOMEM;
    /* the new geometry, sharing nothing yet: every field but the
     * concurrent writers' (locks is atomic: a plain copy of it races with
     * a writer's first concurrent call, and the new table needs none) */
    fk_expandable next;
    memset(&next, 0, sizeof next);
    memcpy(&next, xf, offsetof(fk_expandable, locks));
    next.quotients = N2;
    next.slots = S2;
    next.nblocks = S2 / 64;
    fk_status s = create_table(S2, xf->width, &next.table);
    if (s != FK_OK)
        return s;
    xf_runs r;
    xf_builder b = { &next, 0, 0 };
    const uint32_t top = UINT32_C(1) << (xf->width - 1);
    size_t nv = xf->nvoids;
    runs_init(&r, xf);
    /* A run's values rise, so its entries whose first fingerprint bit is 0
     * (values below top) come first, then its length-0 entries (exactly
     * top: voids), then those whose first bit is 1: the two child runs
     * are stretches of the old run, copied shifted. */
    while (s == FK_OK && runs_next(&r)) {
        uint64_t mid = r.start, hi;
        while (mid <= r.end && fk_xf_slot(xf, mid) < top)
            mid++;
        for (hi = mid; hi <= r.end && fk_xf_slot(xf, hi) == top; hi++)
            xf->voids[nv++] = ((uint64_t)xf->doublings << FK_XF_VOID_SHIFT) | r.q;
        if (mid > r.start)
            s = build_run_shifted(&b, 2 * r.q, xf, r.start, mid - 1);
        if (s == FK_OK && hi <= r.end)
            s = build_run_shifted(&b, 2 * r.q + 1, xf, hi, r.end);
    }
    if (s == FK_OK)
        s = build_finish(&b);
    if (s != FK_OK) {
        free(next.table);
        return s; /* the void list's new tail is ignored: nvoids unchanged */
    }
    free(xf->table);
    xf->table = next.table;
    xf->quotients = N2;
    xf->slots = S2;
    xf->nblocks = S2 / 64;
    xf->doublings++;
    xf->limit <<= 1;
    if (nv > xf->nvoids) {
        xf->void_gens |= UINT64_C(1) << (xf->doublings - 1);
        xf->nvoids = nv;
        qsort(xf->voids, nv, sizeof *xf->voids, cmp_u64);
    }
    xf->used -= new_voids;
    for (unsigned L = 0; L + 1 < 32; L++)
        xf->by_len[L] = xf->by_len[L + 1];
    xf->by_len[31] = 0;
    FK_XF_DEBUG_CHECK(xf);
    return FK_OK;
}


/* ------------------------------------------------------- many writers
 *
 * Region locks as the quotient filter's (quotient/quotient.c, "many
 * writers"): one lock byte per region of FK_XF_REGION_BLOCKS blocks; an
 * insert or remove locks q's region and each next one, in address order,
 * until the regions it holds contain the free slot after q's cluster
 * (its shift ends there) and one more; every read and write it makes
 * stays below that last region (first_free_below, table_remove_at's
 * bound). A lookup beside the writers (fk_filter_contains_concurrent)
 * takes the same locks, then runs the plain lookup.
 *
 * The doubling is the one global step: the writer that finds the table at
 * its limit (or an insert refused for room) takes every region lock of the
 * current table in address order, so it waits for the writers inside and
 * keeps the others out, doubles the table, publishes the new table's locks
 * (made before, so a doubling never lacks them) and releases the old ones.
 * A writer that was waiting on an old lock sees, once it has it, that the
 * filter's locks changed, lets it go and starts again on the new table.
 * Everything global (the table, its geometry, the limit, the void list)
 * changes only under every lock, so a writer holding any one reads it
 * safely. Removing a void (an entry whose fingerprint ran out: only past
 * the expected growth) is a global step too. The counts (used, by_len)
 * go to each writer's own row (common/tally.h: no line shared between
 * writers), the used count moved into `used` FK_XF_C_FLUSH at a time, so
 * the limit check reads a line that is rarely written; the doubling folds
 * them in. The old lock arrays stay until the filter is freed. */

static uint64_t regions_for(uint64_t nblocks)
{
    return (nblocks + FK_XF_REGION_BLOCKS - 1) / FK_XF_REGION_BLOCKS;
}

static fk_xf_locks *locks_make(uint64_t nblocks, uint64_t quotients)
{
    uint64_t n = regions_for(nblocks);
    fk_xf_locks *L = calloc(1, sizeof *L + (size_t)n);
    if (L) {
        L->nregions = n;
        L->quotients = quotients;
    }
    return L;
}

/* The current table's locks, made by the first concurrent call. The
 * makers take turns: one that found no locks but read the geometry
 * after another had made them could read it while a doubling (which
 * needs the locks) rewrites it. Under the turn, no locks means no
 * doubling has run or can run. */
static fk_xf_locks *locks_now(fk_expandable *xf)
{
    fk_xf_locks *L = atomic_load_explicit(&xf->locks, memory_order_acquire);
    if (L)
        return L;
    fk_spin_lock(&xf->locks_making);
    L = atomic_load_explicit(&xf->locks, memory_order_acquire);
    if (!L) {
        L = locks_make(xf->nblocks, xf->quotients);
        if (L)
            atomic_store_explicit(&xf->locks, L, memory_order_release);
    }
    fk_spin_unlock(&xf->locks_making);
    return L;
}

typedef struct {
    fk_xf_locks *L;
    uint64_t     lo, hi, limit;
} xf_span;

static void span_unlock(const xf_span *sp)
{
    for (uint64_t i = sp->lo; i <= sp->hi; i++)
        fk_spin_unlock(fk_spin_at(sp->L->lock, i));
}

/* Locks the regions of the key of hash h in the table L locks: false
 * (nothing held) when a doubling replaced that table meanwhile. Else
 * *q, *kv are the key's place and sp->limit bounds what the caller may
 * touch: `need` free slots at or after q lie below it (or it is S). */
static bool span_lock(fk_expandable *xf, fk_xf_locks *L, uint64_t h, unsigned need,
                      xf_span *sp, uint64_t *q, uint32_t *kv)
{
    const uint64_t region_slots = 64u * FK_XF_REGION_BLOCKS;
    uint64_t q0 = (uint64_t)(((unsigned __int128)h * L->quotients) >> 64);
    sp->L = L;
    sp->lo = sp->hi = (q0 >> 6) / FK_XF_REGION_BLOCKS;
    fk_spin_lock(fk_spin_at(L->lock, sp->lo));
    if (atomic_load_explicit(&xf->locks, memory_order_acquire) != L) {
        fk_spin_unlock(fk_spin_at(L->lock, sp->lo));
        return false;
    }
    *q = fk_xf_place(xf, h, kv); /* = q0: the geometry is L's while a lock is held */
    /* the scan goes on from where the last limit stopped it */
    uint64_t j = *q;
    unsigned found = 0;
    for (;;) {
        if (sp->hi + 1 >= L->nregions) {
            sp->limit = xf->slots;
            return true;
        }
        fk_spin_lock(fk_spin_at(L->lock, ++sp->hi));
        uint64_t limit = sp->hi * region_slots;
        while (found < need && (j = first_free_below(xf, j, limit)) < limit) {
            found++;
            j++;
        }
        if (found == need) {
            sp->limit = limit;
            return true;
        }
    }
}

static void lock_all(fk_xf_locks *L)
{
    for (uint64_t i = 0; i < L->nregions; i++)
        fk_spin_lock(fk_spin_at(L->lock, i));
}

static void unlock_all(fk_xf_locks *L)
{
    for (uint64_t i = 0; i < L->nregions; i++)
        fk_spin_unlock(fk_spin_at(L->lock, i));
}

static inline uint64_t atomic_add_u64(uint64_t *p, uint64_t d)
{
    return atomic_fetch_add_explicit((_Atomic uint64_t *)p, d, memory_order_relaxed);
}

/* Counts an entry of length L in (delta 1) or out (UINT64_MAX) from the
 * calling writer, which holds a region lock. */
static void count_entry(fk_expandable *xf, unsigned L, uint64_t delta)
{
    fk_tally_row r = fk_tallies_row(&xf->c_counts, FK_XF_C_FIELDS);
    fk_tally_row_add(r, FK_XF_C_BY_LEN + L, delta);
    if (r.shared) {
        atomic_add_u64(&xf->used, delta);
        return;
    }
    fk_tally_row_add(r, FK_XF_C_USED, delta);
    _Atomic uint64_t *mine = (_Atomic uint64_t *)&r.n[FK_XF_C_USED];
    if ((int64_t)atomic_load_explicit(mine, memory_order_relaxed) >= (int64_t)FK_XF_C_FLUSH) {
        fk_tally_row_add(r, FK_XF_C_USED, (uint64_t)-(int64_t)FK_XF_C_FLUSH);
        atomic_add_u64(&xf->used, FK_XF_C_FLUSH);
    }
}

/* True when the table holds its limit's entries (the caller holds a region
 * lock): `used` alone while it is below the limit by more than the writers'
 * rows can hold unmoved (each under FK_XF_C_FLUSH), else the exact sum. */
static bool at_limit(fk_expandable *xf)
{
    uint64_t u = atomic_load_explicit((_Atomic uint64_t *)&xf->used, memory_order_relaxed);
    if (u + (uint64_t)FK_TALLY_STRIPES * FK_XF_C_FLUSH < xf->limit)
        return false;
    return u + fk_tallies_sum(&xf->c_counts, FK_XF_C_FIELDS, FK_XF_C_USED) >= xf->limit;
}

/* The global step: doubles the table L locks, unless another writer did
 * (then FK_OK: the caller starts again), or, without force, the table is
 * below its limit. */
static fk_status double_concurrent(fk_expandable *xf, fk_xf_locks *L, bool force)
{
    lock_all(L);
    fk_status s = FK_OK;
    if (atomic_load_explicit(&xf->locks, memory_order_relaxed) == L &&
        (force || fk_xf_used(xf) >= xf->limit)) {
        fk_xf_locks *next = NULL;
        if (xf->nretired == sizeof xf->retired / sizeof xf->retired[0])
            s = FK_ELIMIT;
        else if (!(next = locks_make(fk_xf_slots_for(xf->quotients * 2) / 64,
                                     xf->quotients * 2)))
            s = FK_ENOMEM;
        else if ((s = double_table(xf)) != FK_OK)
            free(next);
        if (s == FK_OK) {
            xf->retired[xf->nretired++] = L;
            atomic_store_explicit(&xf->locks, next, memory_order_release);
        }
    }
    unlock_all(L);
    return s;
}

static fk_status insert_concurrent_hash(fk_expandable *xf, uint64_t h)
{
    if (fk_tallies_prepare(&xf->c_counts, FK_XF_C_FIELDS) != FK_OK)
        return FK_ENOMEM;
    for (int tries = 0;;) {
        fk_xf_locks *L = locks_now(xf);
        if (!L)
            return FK_ENOMEM;
        xf_span sp;
        uint64_t q;
        uint32_t kv;
        if (!span_lock(xf, L, h, 1, &sp, &q, &kv))
            continue;
        fk_status s;
        if (at_limit(xf)) {
            span_unlock(&sp);
            if ((s = double_concurrent(xf, L, false)) != FK_OK)
                return s;
            continue;
        }
        /* its shift ends at the free slot below sp.limit */
        s = table_insert(xf, q, fk_xf_entry(xf, kv));
        if (s == FK_OK)
            count_entry(xf, xf->fp_bits, 1);
        span_unlock(&sp);
        if (s != FK_EFULL || tries++ > 0) /* doubling did not help: copies of one hash */
            return s;
        if ((s = double_concurrent(xf, L, true)) != FK_OK)
            return s;
    }
}

static fk_status remove_concurrent_hash(fk_expandable *xf, uint64_t h)
{
    if (fk_tallies_prepare(&xf->c_counts, FK_XF_C_FIELDS) != FK_OK)
        return FK_ENOMEM;
    for (;;) {
        fk_xf_locks *L = locks_now(xf);
        if (!L)
            return FK_ENOMEM;
        xf_span sp;
        uint64_t q;
        uint32_t kv;
        if (!span_lock(xf, L, h, 1, &sp, &q, &kv))
            continue;
        uint64_t start, end, best;
        unsigned best_len;
        if (run_longest_match(xf, q, kv, &start, &end, &best, &best_len)) {
            table_remove_at(xf, q, start, end, best,
                            sp.limit < xf->quotients ? sp.limit : xf->quotients);
            count_entry(xf, best_len, UINT64_MAX);
            span_unlock(&sp);
            return FK_OK;
        }
        bool voids = xf->nvoids > 0;
        span_unlock(&sp);
        if (!voids)
            return FK_ENOTFOUND;
        /* a void: the global step */
        lock_all(L);
        fk_status s = FK_ENOTFOUND;
        bool current = atomic_load_explicit(&xf->locks, memory_order_relaxed) == L;
        if (current) {
            long i = voids_match(xf, q);
            if (i >= 0) {
                voids_erase(xf, (size_t)i);
                s = FK_OK;
            }
        }
        unlock_all(L);
        if (current)
            return s;
    }
}

static inline uint64_t key_hash(const fk_expandable *xf, const void *key, size_t len)
{
    return len == 8 ? fk_hash8_64(fk_load_le64(key), xf->flip) : fk_xf_hash(xf, key, len);
}

static fk_status fk_expandable_slot_insert_concurrent(fk_filter *f, const void *key, size_t len)
{
    fk_expandable *xf = (fk_expandable *)f;
    return insert_concurrent_hash(xf, key_hash(xf, key, len));
}

static fk_status fk_expandable_slot_remove_concurrent(fk_filter *f, const void *key, size_t len)
{
    fk_expandable *xf = (fk_expandable *)f;
    return remove_concurrent_hash(xf, key_hash(xf, key, len));
}

/* The lock arrays are the one part of a filter a lookup may write (the
 * first one, once), hence the cast. */
static bool fk_expandable_slot_contains_concurrent(const fk_filter *f, const void *key,
                                                   size_t len)
{
    fk_expandable *xf = (fk_expandable *)(uintptr_t)f;
    uint64_t h = key_hash(xf, key, len);
    for (;;) {
        fk_xf_locks *L = locks_now(xf);
        if (!L)
            return true; /* no locks to be had: "maybe", never a false negative */
        xf_span sp;
        uint64_t q;
        uint32_t kv;
        if (!span_lock(xf, L, h, 1, &sp, &q, &kv))
            continue;
        bool hit = xf->lookup(xf, h);
        span_unlock(&sp);
        return hit;
    }
}

/* ----------------------------------------------------------------- stats */

static double fpr_bound(const fk_expandable *xf)
{
    double sum = 0;
    for (unsigned L = 0; L < 32; L++)
        sum += (double)fk_xf_by_len(xf, L) * ldexp(1.0, -(int)L);
    for (size_t i = 0; i < xf->nvoids; i++)
        sum += ldexp(1.0, (int)(xf->doublings - (unsigned)(xf->voids[i] >> FK_XF_VOID_SHIFT)));
    double f = sum / (double)xf->quotients;
    return f < 1 ? f : 1;
}

static void stats_of(const fk_expandable *xf, fk_stats *out)
{
    memset(out, 0, sizeof *out);
    out->items = fk_xf_used(xf) + xf->nvoids;
    out->capacity = xf->limit;
    out->memory_bytes = memory_of(xf);
    out->bits_per_item = 8.0 * (double)out->memory_bytes / (double)xf->limit;
    out->load_factor = (double)fk_xf_used(xf) / (double)xf->slots;
    out->expected_fpr = fpr_bound(xf);
}

void fk_expandable_describe(const fk_expandable *xf, fk_expandable_description *out)
{
    if (!xf || !out)
        return;
    memset(out, 0, sizeof *out);
    out->slot_bits = xf->width;
    out->fingerprint_bits = xf->fp_bits;
    out->doublings = xf->doublings;
    out->growth = xf->growth;
    out->quotients = xf->quotients;
    out->slots = xf->slots;
    out->entries = fk_xf_used(xf);
    out->voids = xf->nvoids;
    for (unsigned L = 0; L < 32; L++)
        out->by_length[L] = fk_xf_by_len(xf, L);
    bool any = false;
    for (uint32_t L = 0; L < 32; L++)
        if (out->by_length[L]) {
            if (!any)
                out->shortest = L;
            out->longest = L;
            any = true;
        }
    uint64_t all = out->entries + xf->nvoids;
    out->void_share = all ? (double)xf->nvoids / (double)all : 0.0;
    out->seed = xf->seed;
}

/* ------------------------------------------------------------ the vtable */

static void fk_expandable_stats(const fk_expandable *xf, fk_stats *out)
{
    if (!out)
        return;
    if (!xf) {
        memset(out, 0, sizeof *out);
        return;
    }
    stats_of(xf, out);
}

FK_OPS_FORWARD(fk_expandable, fk_expandable)
FK_OPS_FORWARD_REMOVE(fk_expandable, fk_expandable)

static fk_status fk_expandable_slot_insert_u64(fk_filter *f, uint64_t key)
{
    fk_expandable *xf = (fk_expandable *)f;
    return fk_xf_insert_hash(xf, fk_hash8_64(key, xf->flip));
}

static fk_status fk_expandable_slot_remove_u64(fk_filter *f, uint64_t key)
{
    fk_expandable *xf = (fk_expandable *)f;
    return remove_hash(xf, fk_hash8_64(key, xf->flip));
}

static fk_status fk_expandable_slot_size(const fk_params *p, double items, fk_sizing *out)
{
    xf_geometry g;
    fk_status s = geometry_of(p, &g);
    if (s != FK_OK)
        return s;
    out->memory_bytes = fk_xf_table_bytes(g.slots, g.width) + struct_bytes();
    /* items past capacity: the doublings they cause, and the union bound
     * (stats' expected_fpr) of the entries each generation then holds: C
     * of the first table at F - G bits, C 2^(j-1) of generation j at F - G
     * + j, the rest (the newest) at F; an entry with no bit left (a void)
     * matches its whole quotient of generation g: 2^(G-g) of today's */
    double C = (double)p->capacity;
    unsigned G = 0;
    while (G < 60 && ldexp(C, (int)G) < items)
        G++;
    double sum = 0, held = 0;
    for (unsigned j = 0; j <= G; j++) {
        double n = j == 0 ? C : ldexp(C, (int)j - 1);
        n = j == G ? items - held : n;
        int len = (int)g.fp_bits - (int)(G - j);
        sum += n * ldexp(1.0, -len); /* len <= 0: 2^-len quotients */
        held += n;
    }
    double f = sum / ldexp((double)g.quotients, (int)G);
    out->expected_fpr = f < 1 ? f : 1;
    snprintf(out->geometry, sizeof out->geometry,
             "%u-bit slots, F = %u fingerprint bits, %llu quotients, grows for %u",
             g.width, g.fp_bits, (unsigned long long)g.quotients, g.growth);
    return FK_OK;
}

/* The describe slot: fk_expandable_description's fields as rows, in its order
 * (fk_filter_describe; `at` is ignored: the kind has no clock). */
static fk_status fk_expandable_slot_describe(const fk_filter *f, const uint64_t *at,
                                      fk_describe_row *rows, size_t cap, size_t *n)
{
    (void)at;
    fk_expandable_description d;
    fk_expandable_describe((const fk_expandable *)(const void *)f, &d);
    fk_describe_u64(rows, cap, n, "doublings", d.doublings);
    fk_describe_u64(rows, cap, n, "fingerprint_bits", d.fingerprint_bits);
    fk_describe_u64(rows, cap, n, "shortest_fingerprint", d.shortest);
    fk_describe_u64(rows, cap, n, "longest_fingerprint", d.longest);
    fk_describe_u64(rows, cap, n, "voids", d.voids);
    fk_describe_double(rows, cap, n, "void_share", d.void_share);
    fk_describe_u64(rows, cap, n, "slot_bits", d.slot_bits);
    fk_describe_u64(rows, cap, n, "growth", d.growth);
    fk_describe_u64(rows, cap, n, "quotients", d.quotients);
    fk_describe_u64(rows, cap, n, "slots", d.slots);
    fk_describe_u64(rows, cap, n, "entries", d.entries);
    fk_describe_u64(rows, cap, n, "seed", d.seed);
    /* after 0.4.0's rows: the target F was sized for, and what the filter
     * holds per entry now (stats' memory_bytes, all of it; 0 when empty) */
    const fk_expandable *xf = (const fk_expandable *)(const void *)f;
    uint64_t held = d.entries + d.voids;
    fk_describe_double(rows, cap, n, "target_fpr", xf->fpr);
    fk_describe_double(rows, cap, n, "bits_per_entry",
                       held ? 8.0 * (double)memory_of(xf) / (double)held : 0.0);
    /* a quotient table's lookup: the home block, then on from there */
    fk_describe_u64(rows, cap, n, "lookup_reads", 1);
    return FK_OK;
}

const fk_ops fk_expandable_ops = {
    .version = FK_OPS_VERSION,
    .name = "expandable",
    .summary = "expandable filter: one quotient table that doubles in place, newer entries "
               "with longer fingerprints, FPR held (InfiniFilter/Aleph class)",
    .caps = FK_CAP_GROWS,
    FK_OPS_FORWARD_SLOTS(fk_expandable),
    .remove = fk_expandable_slot_remove,
    .serial = &fk_expandable_serial_ops,
    .size = fk_expandable_slot_size,
    .contains_many = fk_expandable_slot_contains_many,
    .insert_many = fk_expandable_slot_insert_many,
    .contains_many_u64 = fk_expandable_slot_contains_many_u64,
    .insert_many_u64 = fk_expandable_slot_insert_many_u64,
    .insert_u64 = fk_expandable_slot_insert_u64,
    .remove_u64 = fk_expandable_slot_remove_u64,
    .set_max_bytes = fk_expandable_slot_set_max_bytes,
    .describe = fk_expandable_slot_describe,
    .insert_concurrent = fk_expandable_slot_insert_concurrent,
    .remove_concurrent = fk_expandable_slot_remove_concurrent,
    .contains_concurrent = fk_expandable_slot_contains_concurrent,
};
