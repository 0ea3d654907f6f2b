/* cuckoo/cuckoo.c: the cuckoo policy: which buckets a key has, where a
 * fingerprint goes, evictions and their undo, lookup, remove, stats.
 * Bucket storage is cuckoo_table.h's business (bodies: cuckoo_table.c). */
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <math.h>
#include "cuckoo_internal.h"
#include "../common/pipeline.h"
#include "../common/hash.h"
#include "../common/alloc.h"
#include "../common/bits.h"
#include "../common/cpu.h"

/* ---------------------------------------------------- key -> buckets */

/* The key's fingerprint and buckets (cuckoo_internal.h). */
static inline fk_cplace place(const fk_cuckoo *c, const void *key, size_t len)
{
    return fk_cuckoo_place(c, key, len);
}

static inline uint64_t alt_bucket(const fk_cuckoo *c, uint64_t b, uint32_t fp)
{
    return fk_cmap_alt(&c->map, b, fp);
}

/* splitmix64 step: the kick PRNG. */
static inline uint64_t rng_next(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* The PRNG's start state: the seed, decorrelated from the hash's use of it. */
static inline uint64_t rng_start(uint64_t seed)
{
    return fk_mix64(seed ^ UINT64_C(0x6a09e667f3bcc909));
}

/* ------------------------------------------------------------ sizing */

_Static_assert(FK_CTAB_SLOTS == FK_CUCKOO_SLOTS, "cuckoo_table.h and cuckoo.h agree on the bucket");

/* A fraction clamped to [0, 1]; NaN reads as 0. */
static double unit_interval(double x)
{
    return x > 1.0 ? 1.0 : x > 0.0 ? x : 0.0;
}

uint32_t fk_size_cuckoo_fp_bits(double p)
{
    if (!(p > 0.0 && p < 1.0))
        return 0;
    for (uint32_t f = 4; f <= 32; f++)
        if (2.0 * FK_CUCKOO_SLOTS / ldexp(1.0, (int)f) <= p)
            return f;
    return 32;
}

fk_status fk_size_cuckoo_table(uint64_t n, double max_load, uint64_t *buckets)
{
    bool by_default = max_load == 0.0;
    if (by_default)
        max_load = FK_CUCKOO_MAX_LOAD;
    if (n == 0 || !buckets || !(max_load > 0.0 && max_load <= 1.0))
        return FK_EINVAL;
    /* slots needed = ceil(n / load); buckets = ceil(slots / 4) */
    double need = ceil(ceil((double)n / max_load) / FK_CUCKOO_SLOTS);
    if (need > ldexp(1.0, 62))
        return FK_EINVAL;
    if (by_default && n <= FK_CUCKOO_SLOTS) {
        need = 1.0; /* one bucket holds any 4 keys: both their buckets are it */
    } else if (by_default && need < FK_CUCKOO_SMALL_BUCKETS) {
        /* A small table's fullest corner decides: its load at the first
         * failure scatters by ~1/sqrt(n), and a few keys whose two buckets
         * coincide weigh more. 4 sqrt(n) spare slots and a power-of-two
         * count (one block: no small blocks, cuckoo_hash.h) make n fit at
         * every seed measured (PAPER_NOTES); capped where the plain rule
         * takes over, so buckets never shrink as n grows. */
        double spare = ceil(((double)n / max_load + 4.0 * sqrt((double)n)) / FK_CUCKOO_SLOTS);
        uint64_t b = 1;
        while ((double)b < spare && b < FK_CUCKOO_SMALL_BUCKETS)
            b <<= 1;
        need = (double)b;
    }
    *buckets = (uint64_t)need;
    return FK_OK;
}

uint64_t fk_size_cuckoo_buckets(uint64_t n)
{
    uint64_t b;
    return fk_size_cuckoo_table(n, 0.0, &b) == FK_OK ? b : 0;
}

double fk_theory_cuckoo_fpr(uint32_t f, double load)
{
    if (f == 0 || f > 64)
        return 1.0;
    return -expm1(2.0 * FK_CUCKOO_SLOTS * unit_interval(load) * log1p(-ldexp(1.0, -(int)f)));
}

/* --------------------------------------------------------------- create */

static void choose_paths(fk_cuckoo *c); /* after the insert and lookup paths */

bool fk_cuckoo_geometry_ok(uint32_t scheme, uint64_t buckets, uint32_t chunk_bits)
{
    if (scheme == FK_CUCKOO_SCHEME_CHUNKS)
        return fk_cmap_chunks_ok(buckets, chunk_bits);
    if (chunk_bits != 0)
        return false;
    if (scheme == FK_CUCKOO_SCHEME_LEGACY)
        return buckets != 0 && (buckets & (buckets - 1)) == 0;
    return scheme == FK_CUCKOO_SCHEME_BLOCKS && buckets != 0;
}

fk_status fk_cuckoo_create_exact(uint32_t scheme, uint64_t buckets, uint32_t chunk_bits, uint32_t f,
                                 uint64_t seed, uint64_t capacity, double fpr, fk_cuckoo **out)
{
    *out = NULL;
    if (!fk_cuckoo_geometry_ok(scheme, buckets, chunk_bits))
        return FK_EINVAL;
    fk_cuckoo *c = calloc(1, sizeof *c);
    if (!c)
        return FK_ENOMEM;
    fk_status s = fk_ctab_alloc(&c->table, buckets, f);
    if (s != FK_OK) {
        free(c);
        return s;
    }
    c->base.ops = &fk_cuckoo_ops;
    c->map.buckets = buckets;
    c->map.scheme = scheme;
    c->map.f = f;
    c->map.fp_mask = c->table.fp_mask;
    c->map.mask = buckets - 1;
    c->map.chunk_bits = chunk_bits;
    c->map.chunk_shift = 64 - chunk_bits;
    c->seed = seed;
    c->hash8 = fk_hash8_flip64(seed);
    choose_paths(c);
    c->capacity = capacity;
    c->fpr = fpr;
    c->rng = rng_start(seed);
    c->max_kicks = FK_CUCKOO_MAX_KICKS;
    *out = c;
    return FK_OK;
}

fk_status fk_cuckoo_new(const fk_params *p, fk_cuckoo **out)
{
    if (!out)
        return FK_EINVAL;
    *out = NULL;
    fk_status s = fk_params_check(p);
    if (s != FK_OK)
        return s;
    uint32_t f = p->fingerprint_bits;
    if (f != 0 && (f < FK_CUCKOO_MIN_FP_BITS || f > FK_CUCKOO_MAX_FP_BITS))
        return FK_EINVAL;
    if (f == 0)
        f = fk_size_cuckoo_fp_bits(p->fpr);
    uint64_t need, buckets;
    s = fk_size_cuckoo_table(p->capacity, p->max_load, &need);
    if (s != FK_OK || f == 0)
        return FK_EINVAL;
    uint32_t scheme, chunk_bits;
    fk_cuckoo_new_geometry(need, &scheme, &buckets, &chunk_bits);
    return fk_cuckoo_create_exact(scheme, buckets, chunk_bits, f, p->seed, p->capacity, p->fpr,
                                  out);
}

void fk_cuckoo_free(fk_cuckoo *c)
{
    if (!c)
        return;
    fk_ctab_release(&c->table);
    fk_cuckoo_free_stripes(c);
    free(c);
}

/* --------------------------------------------------------------- insert */

static inline void notify(fk_cuckoo *c, uint64_t from, unsigned slot, uint32_t fp,
                          uint64_t to, uint32_t kick)
{
    fk_cuckoo_kick_event ev = { from, to, slot, fp, kick };
    c->observer(c->observer_ctx, &ev);
}

/* ------------------------------------------- moves beside the readers
 *
 * Lookups run beside the writers without a lock. A kick path moves
 * fingerprints between their two buckets, and a lookup reads its two
 * buckets one after the other, so it could read bucket A before a
 * fingerprint arrives there and bucket B after it left. Two things keep it
 * from missing: the path is found first and then carried out from its free
 * end back (each fingerprint is written to its new slot before its old
 * slot is overwritten, so at every moment each stored fingerprint is in at
 * least one of its buckets; MemC3's optimistic cuckoo hashing, libcuckoo),
 * and the writer adds 1 to `moves` before the first move and
 * FK_CUCKOO_MOVES_DONE after the last (a seqlock that counts the paths
 * running, since concurrent writers may carry out several at once,
 * cuckoo_concurrent.c): a lookup that missed while `moves` changed, or
 * while a path ran, looks again. */

static inline void moves_begin(fk_cuckoo *c)
{
    uint64_t v = atomic_load_explicit(&c->moves, memory_order_relaxed);
    atomic_store_explicit(&c->moves, v + 1, memory_order_relaxed);
#if !FK_TSAN /* TSan builds: every slot store is a release itself (cuckoo_table.h) */
    atomic_thread_fence(memory_order_release); /* odd before any slot changes */
#endif
}

static inline void moves_end(fk_cuckoo *c)
{
    uint64_t v = atomic_load_explicit(&c->moves, memory_order_relaxed);
    atomic_store_explicit(&c->moves, v + FK_CUCKOO_MOVES_DONE, memory_order_release);
}

/* A lookup that missed while fingerprints moved: read both buckets again
 * until a pass runs with no move beside it. Out of line: a single-threaded
 * filter never comes here. */
__attribute__((noinline, cold)) bool fk_cuckoo_lookup_again(const fk_cuckoo *c, uint64_t i1,
                                                             uint64_t i2, uint32_t fp)
{
    for (unsigned round = 1;; round++) {
        uint64_t v = fk_cuckoo_moves_seen(c);
        if (fk_ctab_has2(&c->table, i1, i2, fp))
            return true; /* a hit needs no check */
        if (fk_cuckoo_moves_settled(c, v))
            return false; /* no path ran during the reads */
        if (round % 64 == 0)
            sched_yield(); /* the writer carrying out a path may wait for this core */
    }
}

/* ------------------------------------------------------------- kicking */

/* Both buckets are full. Find a path first: a random walk that at each
 * bucket picks a slot to evict, preferring one whose fingerprint has room
 * in its other bucket (the four reads are independent, so their cache
 * misses overlap; most walks end at the first step), until an evicted
 * fingerprint's other bucket has a free slot. The walk only reads (an
 * eviction never changes which slots are free), and never takes a slot
 * twice, so what it read is what the table holds when the path is carried
 * out. Then move, from the free end back (see above). A walk that finds no
 * free slot within c->max_kicks (at most FK_CUCKOO_MAX_KICKS) steps
 * changed nothing: FK_EFULL. */
__attribute__((noinline))
static fk_status insert_by_kicking(fk_cuckoo *c, uint64_t i1, uint64_t i2, uint32_t fp)
{
    fk_ctab *t = &c->table;
    uint64_t path[FK_CUCKOO_MAX_KICKS];   /* bucket << 2 | slot, from the new key's bucket */
    uint32_t moved[FK_CUCKOO_MAX_KICKS];  /* the fingerprint each step evicts */
    uint64_t r = rng_next(&c->rng);
    uint64_t b = (r & 1) ? i2 : i1;

    for (uint32_t k = 0; k < c->max_kicks; k++) {
        unsigned s = (unsigned)(rng_next(&c->rng) >> 62);
        if (!fk_cuckoo_walk_slot(c, path, k, b, &s, 0))
            break; /* every slot of b is on the path already: give up */
        uint32_t victim = fk_ctab_get(t, b, s);
        uint64_t to = alt_bucket(c, b, victim);
        path[k] = b << 2 | s;
        moved[k] = victim;
        c->kicks++;
        if (c->observer)
            notify(c, b, s, victim, to, k + 1);
        int j = fk_ctab_find(t, to, 0);
        if (j < 0) {
            b = to;
            continue;
        }
        /* Carry the path out from the free end back. */
        moves_begin(c);
        fk_ctab_set(t, to, (unsigned)j, victim);
        for (uint32_t i = k; i > 0; i--)
            fk_ctab_set(t, path[i] >> 2, (unsigned)(path[i] & 3), moved[i - 1]);
        fk_ctab_set(t, path[0] >> 2, (unsigned)(path[0] & 3), fp);
        moves_end(c);
        c->items++;
        return FK_OK;
    }
    return FK_EFULL; /* nothing moved: the new key was never stored */
}

static inline fk_status insert_fp(fk_cuckoo *c, uint64_t i1, uint64_t i2, uint32_t fp)
{
    fk_ctab *t = &c->table;
    int j = fk_ctab_find(t, i1, 0);
    if (j >= 0) {
        fk_ctab_set(t, i1, (unsigned)j, fp);
        c->items++;
        return FK_OK;
    }
    j = fk_ctab_find(t, i2, 0);
    if (j >= 0) {
        fk_ctab_set(t, i2, (unsigned)j, fp);
        c->items++;
        return FK_OK;
    }
    return insert_by_kicking(c, i1, i2, fp);
}

fk_status fk_cuckoo_insert_placed(fk_cuckoo *c, const fk_cplace *k)
{
    return insert_fp(c, k->i1, k->i2, k->fp);
}

/* Any scheme and width (wider fingerprints, loaded legacy filters, keys
 * longer than 16 bytes). */
__attribute__((noinline)) FK_HOT static fk_status insert_any(fk_cuckoo *c, const void *key,
                                                             size_t len)
{
    fk_cplace k = place(c, key, len);
    return insert_fp(c, k.i1, k.i2, k.fp);
}

/* Inserts, one per scheme (blocks, chunks) and width 4..16, as the
 * lookups below: the free-slot search of both buckets and the slot write
 * with the width a constant; a key whose buckets are both full goes to the
 * out-of-line kick loop. The byte form takes keys of 8 bytes on the
 * constant-length hash (the u64 form's code), other lengths up to 16
 * inline, longer ones out of line. */
#define FK_CUCKOO_INSERT_W(S, F)                                                       \
    FK_CTAB_HOT fk_status insert_placed_##S##F(fk_cuckoo *c, uint64_t h)               \
    {                                                                                  \
        fk_cplace k = fk_cmap_place_##S##_h(&c->map, h);                               \
        uint64_t b = k.i1, free = fk_ctab_match_w(&c->table, b, 0, F);                 \
        if (!free) {                                                                   \
            b = k.i2;                                                                  \
            free = fk_ctab_match_w(&c->table, b, 0, F);                                \
            if (!free)                                                                 \
                return insert_by_kicking(c, k.i1, k.i2, k.fp);                         \
        }                                                                              \
        unsigned j = (unsigned)fk_ctab_slot_of_bit((unsigned)__builtin_ctzll(free), F); \
        fk_ctab_set_w(&c->table, b, j, k.fp, F);                                       \
        c->items++;                                                                    \
        return FK_OK;                                                                  \
    }                                                                                  \
    FK_HOT static fk_status insert_##S##F(fk_cuckoo *c, const void *key, size_t len)   \
    {                                                                                  \
        if (__builtin_expect(len > 16, 0))                                             \
            return insert_any(c, key, len);                                            \
        return insert_placed_##S##F(c, fk_cuckoo_hash(c, key, len));                   \
    }                                                                                  \
    FK_HOT static fk_status insert_u64_##S##F(fk_cuckoo *c, uint64_t key)              \
    {                                                                                  \
        return insert_placed_##S##F(c, fk_hash8_64(key, c->hash8));                    \
    }                                                                                  \
    FK_HOT static fk_status insert_hashed_##S##F(fk_filter *f, fk_hash128 h)           \
    {                                                                                  \
        return insert_placed_##S##F((fk_cuckoo *)f, h.lo);                             \
    }
#define FK_CUCKOO_INSERT_BLOCKS(F) FK_CUCKOO_INSERT_W(blocks, F)
#define FK_CUCKOO_INSERT_CHUNKS(F) FK_CUCKOO_INSERT_W(chunks, F)
FK_CTAB_EACH_WIDTH(FK_CUCKOO_INSERT_BLOCKS)
FK_CTAB_EACH_WIDTH(FK_CUCKOO_INSERT_CHUNKS)
#undef FK_CUCKOO_INSERT_BLOCKS
#undef FK_CUCKOO_INSERT_CHUNKS
#undef FK_CUCKOO_INSERT_W

/* Any width, a hash given (blocks and chunks schemes). */
__attribute__((noinline)) static fk_status insert_hashed_any(fk_filter *f, fk_hash128 h)
{
    fk_cuckoo *c = (fk_cuckoo *)f;
    fk_cplace k = fk_cmap_place_h(&c->map, h.lo);
    return insert_fp(c, k.i1, k.i2, k.fp);
}

/* Any scheme and width, 8-byte integer keys. */
__attribute__((noinline)) FK_HOT static fk_status insert_u64_any(fk_cuckoo *c, uint64_t key)
{
    fk_cplace k = fk_cuckoo_place_u64(c, key);
    return insert_fp(c, k.i1, k.i2, k.fp);
}

fk_status fk_cuckoo_insert(fk_cuckoo *c, const void *key, size_t len)
{
    if (!c || (!key && len))
        return FK_EINVAL;
    return c->insert(c, key, len);
}


fk_status fk_cuckoo_insert_unique(fk_cuckoo *c, const void *key, size_t len, bool *added)
{
    if (added)
        *added = false;
    if (!c || (!key && len))
        return FK_EINVAL;
    fk_cplace k = place(c, key, len);
    if (fk_ctab_has2(&c->table, k.i1, k.i2, k.fp))
        return FK_OK;
    fk_status s = insert_fp(c, k.i1, k.i2, k.fp);
    if (added)
        *added = s == FK_OK;
    return s;
}

/* ------------------------------------------------------ lookup / remove */

/* A placed key's lookup: both buckets read and compared whole, and their
 * matches and the move check (cuckoo_internal.h) folded into one test,
 * taken only by a miss beside a moving writer. An early exit on the first
 * match would mispredict on every coin-flip stream of present and absent
 * keys; this test is false for both unless a writer is moving
 * fingerprints. */
#define FK_CUCKOO_TEST_W(F)                                                            \
    FK_CTAB_HOT bool test_w##F(const fk_cuckoo *c, fk_cplace k)                        \
    {                                                                                  \
        uint64_t v = fk_cuckoo_moves_seen(c);                                          \
        uint64_t m = fk_ctab_match_w(&c->table, k.i1, k.fp, F) |                       \
                     fk_ctab_match_w(&c->table, k.i2, k.fp, F);                        \
        if (__builtin_expect((m == 0) & (fk_cuckoo_moves_unsettled(c, v) != 0), 0))    \
            return fk_cuckoo_lookup_again(c, k.i1, k.i2, k.fp); /* a tail call */      \
        return m != 0;                                                                 \
    }
FK_CTAB_EACH_WIDTH(FK_CUCKOO_TEST_W)
#undef FK_CUCKOO_TEST_W

/* Any scheme and width (wider fingerprints, loaded legacy filters, keys
 * longer than 16 bytes). */
static inline bool test_any(const fk_cuckoo *c, fk_cplace k)
{
    uint64_t v = fk_cuckoo_moves_seen(c);
    bool hit = fk_ctab_has2(&c->table, k.i1, k.i2, k.fp);
    if (__builtin_expect(!hit & (fk_cuckoo_moves_unsettled(c, v) != 0), 0))
        return fk_cuckoo_lookup_again(c, k.i1, k.i2, k.fp);
    return hit;
}

__attribute__((noinline)) FK_HOT static bool lookup_any(const fk_cuckoo *c, const void *key,
                                                        size_t len)
{
    return test_any(c, place(c, key, len));
}

__attribute__((noinline)) FK_HOT static bool lookup_u64_any(const fk_filter *f, uint64_t key)
{
    const fk_cuckoo *c = (const fk_cuckoo *)f;
    return test_any(c, fk_cuckoo_place_u64(c, key));
}

__attribute__((noinline)) static bool lookup_hashed_any(const fk_filter *f, fk_hash128 h)
{
    const fk_cuckoo *c = (const fk_cuckoo *)f;
    return test_any(c, fk_cmap_place_h(&c->map, h.lo));
}

/* Lookups, one per scheme (blocks, chunks) and width 4..16, with the width
 * a constant (field masks and bucket offsets folded), chosen once at
 * creation (choose_paths) so a lookup tests neither width nor scheme. The
 * byte form hashes 8-byte keys on the constant-length path (the u64
 * form's code) and other keys up to 16 bytes inline; longer keys go to
 * lookup_any (a tail call), so these paths call nothing and need no saved
 * registers. lookup_u64_* is the u64 form, on an fk_filter: the filter's
 * one 64-bit lookup, c->base.contains_u64, which fk_filter_contains_u64
 * calls straight. */
#if FK_CPU_X86 && !FK_TSAN
/* x86 with BMI1/BMI2 (rorx, andn, shrx, mulx: fewer moves, the same code
 * otherwise): a second build of the u64 lookups, chosen at creation when the
 * CPU has them (choose_paths). */
#define FK_CUCKOO_BMI FK_TARGET_BMI12
#define FK_CUCKOO_BMI_PATH(...) __VA_ARGS__
#else
#define FK_CUCKOO_BMI
#define FK_CUCKOO_BMI_PATH(...)
#endif

#define FK_CUCKOO_LOOKUP_W(S, F)                                                       \
    FK_HOT static bool lookup_##S##F(const fk_cuckoo *c, const void *key, size_t len)  \
    {                                                                                  \
        if (__builtin_expect(len > 16, 0))                                             \
            return lookup_any(c, key, len);                                            \
        return test_w##F(c, fk_cmap_place_##S##_h(&c->map, fk_cuckoo_hash(c, key, len))); \
    }                                                                                  \
    FK_HOT static bool lookup_hashed_##S##F(const fk_filter *f, fk_hash128 h)         \
    {                                                                                  \
        const fk_cuckoo *c = (const fk_cuckoo *)f;                                     \
        return test_w##F(c, fk_cmap_place_##S##_h(&c->map, h.lo));                     \
    }                                                                                  \
    FK_HOT static bool lookup_u64_##S##F(const fk_filter *f, uint64_t key)             \
    {                                                                                  \
        const fk_cuckoo *c = (const fk_cuckoo *)f;                                     \
        return test_w##F(c, fk_cmap_place_##S##_h(&c->map, fk_hash8_64(key, c->hash8))); \
    }                                                                                  \
    FK_CUCKOO_BMI_PATH(FK_HOT FK_CUCKOO_BMI static bool lookup_u64_bmi_##S##F(           \
        const fk_filter *f, uint64_t key)                                              \
    {                                                                                  \
        const fk_cuckoo *c = (const fk_cuckoo *)f;                                     \
        return test_w##F(c, fk_cmap_place_##S##_h(&c->map, fk_hash8_64(key, c->hash8))); \
    })
#define FK_CUCKOO_LOOKUP_BLOCKS(F) FK_CUCKOO_LOOKUP_W(blocks, F)
#define FK_CUCKOO_LOOKUP_CHUNKS(F) FK_CUCKOO_LOOKUP_W(chunks, F)
FK_CTAB_EACH_WIDTH(FK_CUCKOO_LOOKUP_BLOCKS)
FK_CTAB_EACH_WIDTH(FK_CUCKOO_LOOKUP_CHUNKS)
#undef FK_CUCKOO_LOOKUP_BLOCKS
#undef FK_CUCKOO_LOOKUP_CHUNKS
#undef FK_CUCKOO_LOOKUP_W

/* Points c's inserts and lookups at the paths for its scheme and width. */
static void choose_paths(fk_cuckoo *c)
{
    c->insert = insert_any;
    c->lookup = lookup_any;
    c->insert_u64 = insert_u64_any;
    c->insert_hashed = insert_hashed_any;
    c->lookup_hashed = lookup_hashed_any;
    c->base.contains_u64 = lookup_u64_any;
#if FK_CPU_X86 && !FK_TSAN
    const bool bmi = fk_cpu_has(FK_CPU_BMI | FK_CPU_BMI2);
#endif
    /* One case per fingerprint width with a path of its own; wider
     * fingerprints keep the generic paths. */
#define FK_CUCKOO_PATHS_CASE(S, F)                                                     \
    case F:                                                                            \
        c->insert = insert_##S##F;                                                     \
        c->lookup = lookup_##S##F;                                                     \
        c->insert_u64 = insert_u64_##S##F;                                             \
        c->insert_hashed = insert_hashed_##S##F;                                       \
        c->lookup_hashed = lookup_hashed_##S##F;                                       \
        c->base.contains_u64 = lookup_u64_##S##F;                                      \
        FK_CUCKOO_BMI_PATH(if (bmi) c->base.contains_u64 = lookup_u64_bmi_##S##F;)     \
        break;
#define FK_CUCKOO_BLOCKS_CASE(F) FK_CUCKOO_PATHS_CASE(blocks, F)
#define FK_CUCKOO_CHUNKS_CASE(F) FK_CUCKOO_PATHS_CASE(chunks, F)
    FK_CUCKOO_DISPATCH_SCHEME_WIDTH(c, FK_CUCKOO_BLOCKS_CASE, FK_CUCKOO_CHUNKS_CASE);
#undef FK_CUCKOO_BLOCKS_CASE
#undef FK_CUCKOO_CHUNKS_CASE
#undef FK_CUCKOO_PATHS_CASE
    c->cinsert = fk_cuckoo_cinsert_path(c);
    c->cinsert_window = fk_cuckoo_cinsert_window_path(c);
}

bool fk_cuckoo_contains(const fk_cuckoo *c, const void *key, size_t len)
{
    if (!c || (!key && len))
        return false;
    return c->lookup(c, key, len);
}


/* ------------------------------------------- probes from a given hash
 *
 * common/hashed.h: the growing chains hash a key once and probe each link
 * from the hash, through the paths choose_paths picked for the link. */

static fk_hash128 hashed_hash(const fk_filter *f, const void *key, size_t len)
{
    return fk_hashed_of64(fk_cuckoo_hash((const fk_cuckoo *)f, key, len));
}

static fk_hash128 hashed_hash_u64(const fk_filter *f, uint64_t key)
{
    return fk_hashed_of64(fk_hash8_64(key, ((const fk_cuckoo *)f)->hash8));
}

/* The paths choose_paths picked; none for the legacy scheme, whose
 * buckets come from another hash. */
static bool hashed_probes(const fk_filter *f, fk_hashed_probes *out)
{
    const fk_cuckoo *c = (const fk_cuckoo *)f;
    if (c->map.scheme == FK_CUCKOO_SCHEME_LEGACY)
        return false;
    *out = (fk_hashed_probes){ c->lookup_hashed, c->insert_hashed };
    return true;
}

const fk_hashed_ops fk_cuckoo_hashed_ops = {
    .hash = hashed_hash,
    .hash_u64 = hashed_hash_u64,
    .probes = hashed_probes,
    .contains_many_hashed = fk_cuckoo_contains_many_hashed,
};

fk_status fk_cuckoo_remove_placed(fk_cuckoo *c, const fk_cplace *k)
{
    uint64_t b = k->i1;
    int j = fk_ctab_find(&c->table, b, k->fp);
    if (j < 0) {
        b = k->i2;
        j = fk_ctab_find(&c->table, b, k->fp);
        if (j < 0)
            return FK_ENOTFOUND;
    }
    fk_ctab_set(&c->table, b, (unsigned)j, 0);
    c->items--;
    return FK_OK;
}

FK_HOT fk_status fk_cuckoo_remove(fk_cuckoo *c, const void *key, size_t len)
{
    if (!c || (!key && len))
        return FK_EINVAL;
    fk_cplace k = place(c, key, len);
    return fk_cuckoo_remove_placed(c, &k);
}

FK_HOT static fk_status remove_u64_placed(fk_cuckoo *c, uint64_t key)
{
    fk_cplace k = fk_cuckoo_place_u64(c, key);
    return fk_cuckoo_remove_placed(c, &k);
}

/* --------------------------------------------------------------- access */

fk_filter *fk_cuckoo_as_filter(fk_cuckoo *c) { return c ? &c->base : NULL; }

static double load_factor(const fk_cuckoo *c)
{
    return (double)fk_cuckoo_items(c) / (double)(c->table.buckets * FK_CUCKOO_SLOTS);
}

void fk_cuckoo_describe(const fk_cuckoo *c, fk_cuckoo_description *out)
{
    if (!c || !out)
        return;
    memset(out, 0, sizeof *out);
    out->fingerprint_bits = c->table.f;
    out->buckets = c->table.buckets;
    out->slots = c->table.buckets * FK_CUCKOO_SLOTS;
    out->seed = c->seed;
    out->items = fk_cuckoo_items(c);
    out->load_factor = load_factor(c);
    out->kicks = fk_cuckoo_kicks(c);
}

void fk_cuckoo_stats(const fk_cuckoo *c, fk_stats *out)
{
    if (!c || !out)
        return;
    memset(out, 0, sizeof *out);
    out->items = fk_cuckoo_items(c);
    out->capacity = c->capacity;
    out->memory_bytes = c->table.alloc_bytes + sizeof *c + fk_cuckoo_stripes_bytes(c);
    out->bits_per_item = 8.0 * (double)out->memory_bytes / (double)c->capacity;
    out->load_factor = load_factor(c);
    out->expected_fpr = fk_theory_cuckoo_fpr(c->table.f, out->load_factor);
}

/* -------------------------------------------------------------- tracing */

fk_status fk_cuckoo_locate(const fk_cuckoo *c, const void *key, size_t len,
                           fk_cuckoo_location *out)
{
    if (!c || !out || (!key && len))
        return FK_EINVAL;
    fk_cplace k = place(c, key, len);
    out->hash_lo = k.hash_lo;
    out->hash_hi = k.hash_hi;
    out->fingerprint = k.fp;
    out->i1 = k.i1;
    out->i2 = k.i2;
    return FK_OK;
}

uint64_t fk_cuckoo_alt_bucket(const fk_cuckoo *c, uint64_t bucket, uint32_t fp)
{
    if (!c)
        return 0;
    return alt_bucket(c, bucket % c->table.buckets, fp & c->table.fp_mask); /* not a hot path */
}

uint32_t fk_cuckoo_cell(const fk_cuckoo *c, uint64_t bucket, unsigned slot)
{
    if (!c || bucket >= c->table.buckets || slot >= FK_CUCKOO_SLOTS)
        return 0;
    return fk_ctab_get(&c->table, bucket, slot);
}

void fk_cuckoo_set_observer(fk_cuckoo *c, fk_cuckoo_observer fn, void *ctx)
{
    if (!c)
        return;
    c->observer = fn;
    c->observer_ctx = fn ? ctx : NULL;
}

void fk_cuckoo_set_max_kicks(fk_cuckoo *c, uint32_t n)
{
    if (!c)
        return;
    c->max_kicks = n < 1 ? 1 : n > FK_CUCKOO_MAX_KICKS ? FK_CUCKOO_MAX_KICKS : n;
}

/* ---- many writers on one cuckoo filter: cuckoo_concurrent.c. */

/* ---- the cuckoo filter behind the fk_ops vtable: the
 * slots forward to the direct API; sizing and theory answer for the kind. */

FK_OPS_FORWARD(fk_cuckoo, fk_cuckoo)
FK_OPS_FORWARD_REMOVE(fk_cuckoo, fk_cuckoo)

/* The u64 writer slots: fk_filter_*_u64 checked f; the filter's own paths
 * (chosen at creation for its scheme and width) do the rest. (No
 * contains_u64 slot: base.contains_u64, set by choose_paths, is
 * fk_filter_contains_u64's one target.) */
static fk_status fk_cuckoo_slot_insert_u64(fk_filter *f, uint64_t key)
{
    fk_cuckoo *c = (fk_cuckoo *)f;
    return c->insert_u64(c, key);
}

static fk_status fk_cuckoo_slot_remove_u64(fk_filter *f, uint64_t key)
{
    return remove_u64_placed((fk_cuckoo *)f, key);
}

/* The buckets and fingerprint width that fk_cuckoo_new would use, with its
 * limits (the packed array must fit FK_MEMORY_CAP). */
static fk_status geometry(const fk_params *p, uint64_t *buckets, uint32_t *f)
{
    fk_status s = fk_params_check(p);
    if (s != FK_OK)
        return s;
    *f = p->fingerprint_bits;
    if (*f != 0 && (*f < FK_CUCKOO_MIN_FP_BITS || *f > FK_CUCKOO_MAX_FP_BITS))
        return FK_EINVAL;
    if (*f == 0)
        *f = fk_size_cuckoo_fp_bits(p->fpr);
    uint64_t need;
    if (fk_size_cuckoo_table(p->capacity, p->max_load, &need) != FK_OK)
        return FK_EINVAL;
    uint32_t scheme, chunk_bits;
    fk_cuckoo_new_geometry(need, &scheme, buckets, &chunk_bits);
    if (*f == 0 || *buckets == 0 || *buckets > FK_MEMORY_CAP * 8 / (FK_CUCKOO_SLOTS * *f))
        return FK_EINVAL;
    return FK_OK;
}

static fk_status fk_cuckoo_slot_size(const fk_params *p, double items, fk_sizing *out)
{
    uint64_t buckets;
    uint32_t f;
    fk_status s = geometry(p, &buckets, &f);
    if (s != FK_OK)
        return s;
    /* the table holds the packed buckets plus a pad, in whole lines */
    uint64_t packed = (buckets * FK_CUCKOO_SLOTS * f + 7) / 8;
    double slots = (double)(buckets * FK_CUCKOO_SLOTS);
    out->memory_bytes = ((packed + FK_CTAB_PAD + 63) & ~UINT64_C(63)) + sizeof(fk_cuckoo);
    out->expected_fpr = fk_theory_cuckoo_fpr(f, items / slots);
    snprintf(out->geometry, sizeof out->geometry,
             "%u-bit fingerprints, %llu buckets x %u slots (%.0f%% full at capacity)", f,
             (unsigned long long)buckets, FK_CUCKOO_SLOTS, 100.0 * (double)p->capacity / slots);
    return FK_OK;
}

/* The stored copies of the key's fingerprint in its two buckets: every
 * insert of the key stored one, so this never under-counts. */
static fk_status fk_cuckoo_slot_count(const fk_filter *f, const void *key, size_t len,
                                      uint64_t *out)
{
    const fk_cuckoo *c = (const fk_cuckoo *)f;
    fk_cuckoo_location loc;
    fk_status s = fk_cuckoo_locate(c, key, len, &loc);
    if (s != FK_OK)
        return s;
    uint64_t n = 0;
    for (unsigned slot = 0; slot < FK_CUCKOO_SLOTS; slot++) {
        n += fk_cuckoo_cell(c, loc.i1, slot) == loc.fingerprint;
        if (loc.i2 != loc.i1)
            n += fk_cuckoo_cell(c, loc.i2, slot) == loc.fingerprint;
    }
    *out = n;
    return FK_OK;
}

/* The describe slot: fk_cuckoo_description's fields as rows, in its order
 * (fk_filter_describe; `at` is ignored: the kind has no clock). */
static fk_status fk_cuckoo_slot_describe(const fk_filter *f, const uint64_t *at,
                                      fk_describe_row *rows, size_t cap, size_t *n)
{
    (void)at;
    fk_cuckoo_description d;
    fk_cuckoo_describe((const fk_cuckoo *)(const void *)f, &d);
    fk_describe_u64(rows, cap, n, "fingerprint_bits", d.fingerprint_bits);
    fk_describe_u64(rows, cap, n, "buckets", d.buckets);
    fk_describe_u64(rows, cap, n, "slots", d.slots);
    fk_describe_u64(rows, cap, n, "seed", d.seed);
    fk_describe_u64(rows, cap, n, "items", d.items);
    fk_describe_double(rows, cap, n, "load_factor", d.load_factor);
    fk_describe_u64(rows, cap, n, "kicks", d.kicks);
    /* after 0.4.0's rows: a key's two buckets */
    fk_describe_u64(rows, cap, n, "lookup_reads", 2);
    return FK_OK;
}

const fk_ops fk_cuckoo_ops = {
    .version = FK_OPS_VERSION,
    .name = "cuckoo",
    .summary = "cuckoo filter: 4-slot buckets of f-bit fingerprints, partial-key cuckoo hashing; removes",
    .caps = FK_CAP_BOUNDED | FK_CAP_COUNT,
    FK_OPS_FORWARD_SLOTS(fk_cuckoo),
    .remove = fk_cuckoo_slot_remove,
    .serial = &fk_cuckoo_serial_ops,
    .size = fk_cuckoo_slot_size,
    .contains_many = fk_cuckoo_slot_contains_many,
    .insert_many = fk_cuckoo_slot_insert_many,
    .contains_many_u64 = fk_cuckoo_slot_contains_many_u64,
    .insert_many_u64 = fk_cuckoo_slot_insert_many_u64,
    .remove_many = fk_cuckoo_slot_remove_many,
    .insert_concurrent = fk_cuckoo_slot_insert_concurrent,
    .remove_concurrent = fk_cuckoo_slot_remove_concurrent,
    .count = fk_cuckoo_slot_count,
    .insert_u64 = fk_cuckoo_slot_insert_u64,
    .remove_u64 = fk_cuckoo_slot_remove_u64,
    .describe = fk_cuckoo_slot_describe,
    .insert_many_concurrent = fk_cuckoo_slot_insert_many_concurrent,
    .insert_many_u64_concurrent = fk_cuckoo_slot_insert_many_u64_concurrent,
};
