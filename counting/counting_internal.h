/* counting/counting_internal.h: the counting filter's layout and counter
 * access, shared by the files of this module. Not installed. */
#ifndef FK_COUNTING_INTERNAL_H
#define FK_COUNTING_INTERNAL_H

#include <string.h>
#include "counting.h"
#include "../common/lookup_paths.h"
#include "../common/pipeline.h"
#include "../common/probe.h"
#include "../common/sizing_internal.h"
#include "../common/tally.h"
#include "../common/atomic.h"

/* Counter i lives in byte i >> shift, at bit offset (i & shift) * 4, where
 * shift is 1 for 4-bit counters (two per byte) and 0 for byte counters. One
 * formula for both widths keeps the hot loops free of a width branch and of
 * any division. */
struct fk_counting {
    fk_filter base;       /* must stay first: an fk_counting * is an fk_filter * */
    /* The 8-byte-key lookup for this k, width and CPU, chosen when the
     * filter is made (counting.c); base.contains_u64 is its integer twin. */
    bool    (*lookup)(const fk_counting *c, const void *key, size_t len);
    /* the same lookup from a key's probes (fk_counting_test_probes) */
    bool    (*test_probes)(const fk_counting *c, fk_probe pr);
    uint64_t  m;          /* counters */
    uint32_t  k;          /* probes per key */
    uint32_t  width;      /* counter_bits: 4 or 8 */
    uint32_t  shift;      /* 1 for 4-bit counters, 0 for 8-bit */
    uint32_t  max;        /* 15 or 255: the saturation value, also the mask */
    uint64_t  seed;
    uint64_t  hash8;      /* fk_hash8_flip128(seed): XXH3 of 8-byte keys (common/hash.h) */
    uint64_t  capacity;   /* items it was sized for */
    double    fpr;        /* target it was sized for */
    uint64_t  items;      /* successful inserts minus successful removes */
    uint64_t  saturations;/* counters that reached max */
    uint64_t  bytes;      /* counter array size: a multiple of 8, padding stays 0 */
    uint8_t  *ctr;        /* the counters, cache-line aligned */
    fk_tally  tally;      /* concurrent inserts minus removes (mod 2^64) */
    fk_tally  sat_tally;  /* saturations by concurrent writers */
};

/* Inserts minus removes, plain and concurrent (writers done). */
static inline uint64_t fk_counting_item_count(const fk_counting *c)
{
    return c->items + fk_tally_sum(&c->tally);
}

/* ------------------------------------------------------- counter access */

/* The three fields counter access needs, copied into a local: writes
 * through the uint8_t array may alias anything, so reading shift and max
 * from the struct inside a loop would force a reload after every write. */
typedef struct {
    uint8_t *ctr;
    uint32_t shift;
    uint32_t max;
} fk_ctr_view;

/* The key's one hash: 8-byte keys (integers, the common case) on XXH3's
 * constant-length path, the same value as for any other length. */
static inline fk_hash128 fk_counting_hash(const fk_counting *c, const void *key, size_t len)
{
    if (__builtin_expect(len == 8, 1))
        return fk_hash8_128(fk_hash8_load(key), c->hash8);
    return fk_hash_key(key, len, c->seed);
}

static inline fk_ctr_view fk_ctr_view_of(const fk_counting *c)
{
    fk_ctr_view v = { c->ctr, c->shift, c->max };
    return v;
}

static inline uint32_t fk_ctr_offset(fk_ctr_view v, uint64_t i)
{
    return (uint32_t)(i & v.shift) << 2;
}

static inline uint32_t fk_ctr_get(fk_ctr_view v, uint64_t i)
{
    return (uint32_t)(v.ctr[i >> v.shift] >> fk_ctr_offset(v, i)) & v.max;
}

/* Add or subtract 1 at counter i. The caller has checked the counter is
 * below max (inc) or above 0 (dec), so no carry or borrow reaches the
 * neighbouring nibble. */
static inline void fk_ctr_inc(fk_ctr_view v, uint64_t i)
{
    uint8_t *b = &v.ctr[i >> v.shift];
    *b = (uint8_t)(*b + (1u << fk_ctr_offset(v, i)));
}

static inline void fk_ctr_dec(fk_ctr_view v, uint64_t i)
{
    uint8_t *b = &v.ctr[i >> v.shift];
    *b = (uint8_t)(*b - (1u << fk_ctr_offset(v, i)));
}

/* ------------------------------------------------------ word-wide scans */

/* Eight counter bytes as a little-endian word, so counter j of the word
 * sits at bits [width*j, width*j + width) whatever the host's byte order. */
static inline uint64_t fk_ctr_load_le64(const uint8_t *p)
{
    uint64_t w;
    memcpy(&w, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w);
#endif
    return w;
}

/* One flag bit per counter of the word, at the counter's lowest bit: set
 * when the counter is nonzero (OR-fold each counter onto its low bit). */
static inline uint64_t fk_ctr_nonzero_flags(uint64_t w, uint32_t width)
{
    if (width == 4) {
        w |= w >> 1;
        w |= w >> 2;
        return w & UINT64_C(0x1111111111111111);
    }
    w |= w >> 4;
    w |= w >> 2;
    w |= w >> 1;
    return w & UINT64_C(0x0101010101010101);
}

/* -------------------------------------- a key's counters from its hash
 *
 * The one place that says which counters a key adds to, tests and takes
 * from, given its probe sequence (fk_probe_start of its hash): the
 * single-key calls (counting.c) and the batch pipeline (counting_batch.c)
 * both run these. */

/* The insert loop, inlined twice below with shift a constant (1 or 0) so
 * each width gets immediate shifts and masks. Returns how many counters
 * reached the maximum. */
static inline uint64_t fk_ctr_increment_all(uint8_t *ctr, fk_probe pr, uint64_t m, uint32_t k,
                                            uint32_t shift)
{
    const fk_ctr_view v = { ctr, shift, shift ? 15u : 255u };
    uint64_t saturated = 0;
    for (uint32_t i = 0; i < k; i++) {
        uint64_t pos = fk_probe_next(&pr, m);
        uint32_t x = fk_ctr_get(v, pos);
        if (x == v.max)
            continue; /* saturated: stays at max for ever */
        fk_ctr_inc(v, pos);
        saturated += x + 1 == v.max;
    }
    return saturated;
}

static inline void fk_counting_add_probes(fk_counting *c, fk_probe pr)
{
    c->saturations += c->shift ? fk_ctr_increment_all(c->ctr, pr, c->m, c->k, 1)
                               : fk_ctr_increment_all(c->ctr, pr, c->m, c->k, 0);
    c->items++;
}

/* 1 << 8 when counter pos is nonzero, else 0, with no branch and no
 * variable shift: mask the byte with the counter's own bits (a 2-entry
 * table for 4-bit counters, 0xFF for bytes); a masked value in 0..0xFF
 * plus 0xFF carries into bit 8 exactly when it is nonzero. (Arithmetic
 * rather than bool, which compilers turn back into a branch per probe.) */
static inline uint32_t fk_ctr_carry(const uint8_t *ctr, uint64_t pos, uint32_t shift)
{
    static const uint32_t nibble_mask[2] = { 0x0F, 0xF0 }; /* words: ANDed from memory */
    uint32_t mask = shift ? nibble_mask[pos & 1] : 0xFFu;
    return (fk_load8(&ctr[pos >> shift]) & mask) + 0xFFu;
}

/* 1 when counter pos is nonzero, else 0 (no branch). */
static inline uint32_t fk_ctr_nonzero(const uint8_t *ctr, uint64_t pos, uint32_t shift)
{
    return fk_ctr_carry(ctr, pos, shift) >> 8;
}

/* The one lookup loop. Every one of the k probes is tested and the answer
 * is the one branch: an exit per probe, or per group of probes,
 * mispredicts on a stream that mixes present and absent keys (with groups
 * of 4, a 50% mix cost 1.3x the absent lookups), while k probes cost the
 * same for every key. The loads are independent, so their misses overlap.
 * counting.c inlines it with k and shift constants for each k up to
 * FK_UNROLLED_K (its specialised lookups), and over c->k with shift a
 * constant per width for the others. */
static inline bool fk_counting_test_k(const fk_counting *c, fk_probe pr, const uint32_t k,
                                      const uint32_t shift)
{
    const uint8_t *ctr = c->ctr;
    const uint64_t m = c->m;
    uint32_t all = 1u << 8;
#pragma GCC unroll 16
    for (uint32_t i = 0; i < k; i++) {
        all &= fk_ctr_carry(ctr, fk_probe_next(&pr, m), shift);
        FK_KEEP_IN_ORDER(all);
    }
    return all != 0;
}

/* The lookup of a key whose probes start at pr: the specialised lookup
 * chosen for c's k and width when c was made (counting.c). */
static inline bool fk_counting_test_probes(const fk_counting *c, fk_probe pr)
{
    return c->test_probes(c, pr);
}

/* Takes one insertion of the key away: FK_OK, or FK_ENOTFOUND with every
 * counter as it was. */
static inline fk_status fk_counting_remove_probes(fk_counting *c, fk_probe pr)
{
    const fk_ctr_view v = fk_ctr_view_of(c);
    const uint64_t m = c->m;
    const uint32_t k = c->k;
    uint64_t pos[FK_BLOOM_MAX_HASHES];

    /* Check all k counters before touching any: a zero means definitely
     * absent, and the common absent key stops early here. */
    for (uint32_t i = 0; i < k; i++) {
        pos[i] = fk_probe_next(&pr, m);
        if (!fk_ctr_get(v, pos[i]))
            return FK_ENOTFOUND;
    }

    /* Decrement. A key whose probes repeat a position took that counter up
     * by the number of repeats; if the counter runs out first the key was
     * never inserted, so undo the decrements made so far (each restores a
     * value below max, so nothing saturates) and report it absent. */
    for (uint32_t i = 0; i < k; i++) {
        uint32_t x = fk_ctr_get(v, pos[i]);
        if (x == v.max)
            continue; /* saturated: never decremented */
        if (x == 0) {
            while (i-- > 0)
                if (fk_ctr_get(v, pos[i]) != v.max)
                    fk_ctr_inc(v, pos[i]);
            return FK_ENOTFOUND;
        }
        fk_ctr_dec(v, pos[i]);
    }
    if (fk_counting_item_count(c))
        c->items--; /* wraps when concurrent inserts hold the count; the sum is right */
    return FK_OK;
}

/* The fk_ops u64 writer slots (counting.c), for the kind's table: f checked by
 * the dispatchers. */
fk_status fk_counting_slot_insert_u64(fk_filter *f, uint64_t key);
fk_status fk_counting_slot_remove_u64(fk_filter *f, uint64_t key);

/* The fk_ops batch slots (counting_batch.c), for the table in counting.c. */
FK_BATCH_SLOTS_DECLARE(fk_counting);
fk_status fk_counting_slot_remove_many(fk_filter *f, size_t n, const void *const keys[],
                                       const size_t lens[], size_t *done);

/* Builds an empty filter of exactly m counters of `width` bits and k probes
 * (no sizing). Returns FK_EINVAL for m 0, k not in 1..64, width not 4 or 8,
 * or an array over FK_MEMORY_CAP; FK_ENOMEM on allocation failure. */
fk_status fk_counting_create_exact(uint64_t m, uint32_t k, uint32_t width, uint64_t seed,
                                   uint64_t capacity, double fpr, fk_counting **out);

/* The saving hooks of fk_counting_ops (counting_serial.c; contracts in
 * common/serial.h). */
extern const fk_serial_ops fk_counting_serial_ops;

/* ------------------------------------------------ for this module and its tests
 *
 * (Not exported: stats and fk_ops_size answer the same for users.) */

/* Number of nonzero counters. 0 for NULL. Cost: O(m x counter_bits / 64). */
uint64_t fk_counting_count_nonzero(const fk_counting *c);

/* Writes the key's k probe positions (each in [0, m)) to out[0..k-1], in
 * probe order; out must hold k entries (fk_counting_describe's hashes). These are
 * exactly the positions insert, contains and remove use, and the same as
 * fk_bloom_locate for a Bloom filter of equal m, k and seed. Returns
 * FK_OK, or FK_EINVAL for NULL c/out or key NULL with len > 0.
 * For tracing and tests. Cost: one hash. */
fk_status fk_counting_locate(const fk_counting *c, const void *key, size_t len,
                                       uint64_t *out);

/* Returns counter i (0 when c is NULL or i >= m). Cost: O(1). */
uint32_t fk_counting_cell(const fk_counting *c, uint64_t i);

/* Returns the smallest of the key's k counters: an upper bound on how many
 * times the key is present (inserts minus removes), exact unless other keys
 * share all its positions; 0 means definitely absent. A saturated minimum
 * answers the maximum (15 or 255), meaning "at least that many".
 * 0 for c NULL or key NULL with len > 0. Cost: one hash, k counter reads. */
uint32_t fk_counting_count(const fk_counting *c, const void *key, size_t len);

/* The body of fk_filter_stats for this kind (what each field holds:
 * counting.h, "Stats"). Internal: a user calls fk_filter_stats(
 * fk_counting_as_filter(x), &out); the tests and the bench call this. */
void fk_counting_stats(const fk_counting *c, fk_stats *out);

#endif
