/* expandable/expandable_internal.h: the expandable filter's layout, shared
 * by the files of this module (core, batches, serialization). Not
 * installed.
 *
 * The table is a rank-and-select quotient table (the layout of Pandey et
 * al.'s RSQF, written for this module) of nblocks blocks of 64 slots, each
 * block FK_XF_HEAD + 8 W bytes, packed with no padding:
 *   bytes [0, 8)    occupieds: bit i set when quotient 64b + i has a run
 *   bytes [8, 16)   runends:   bit i set when slot 64b + i ends a run
 *   bytes [16, 18)  offset:    slots at the start of this block used by
 *                              runs of quotients below 64b (0..65535)
 *   bytes [18, ..)  64 slots of W bits (2 <= W <= 32), slot i at bit i W
 *                   of a little-endian bit string (8 W bytes: whole bytes
 *                   for every W; W = 16 and 32 are plain words)
 * FK_XF_PAD zero bytes follow the last block.
 *
 * A slot holds one entry: a fingerprint of L bits (0 <= L <= W - 1) in its
 * top L bits, then a 1 (the marker), then W - 1 - L zeros (unary padding),
 * so L = W - 1 - ctz(v) and a free slot is 0. A key's hash h gives the
 * quotient q = floor(h N / 2^64) and the fraction bits after it; an entry
 * of length L matches a key of quotient q whose first L fraction bits are
 * its fingerprint. Doubling N makes the first fraction bit the quotient's
 * last: an entry gives its top fingerprint bit to the address (q' = 2q +
 * b) and keeps L - 1 bits (v' = v << 1), so the table doubles without the
 * keys. New entries get F bits (fp_bits). An entry with L = 0 matches every
 * key of its quotient; at the next doubling it has no bit to give and
 * moves to the void list as (generation g, quotient at generation g),
 * matching every key whose quotient at g is that one.
 *
 * Canonical: runs sit as far left as they can, sorted by quotient, and
 * within a run the slot values rise (ties kept together), free slots are
 * 0, offsets say where runs reach; the void list is sorted. So the table
 * is a function of the multiset of (quotient, value) alone, and the loader
 * accepts a file exactly when rebuilding the table from its own runs gives
 * its bytes. */
#ifndef FK_EXPANDABLE_INTERNAL_H
#define FK_EXPANDABLE_INTERNAL_H

#include <stdatomic.h>
#include <string.h>
#include "expandable.h"
#include "../common/bits.h"
#include "../common/endian.h"
#include "../common/hash.h"
#include "../common/rank_select.h"
#include "../common/tally.h"

#define FK_XF_HEAD       18u    /* occupieds, runends, offset */
#define FK_XF_PAD        8u
#define FK_XF_OFFSET_MAX 65535u
#define FK_XF_VOID_SHIFT 56u    /* void key: generation << 56 | quotient */

/* The lookup bodies, chosen at creation (BMI2 select and popcnt, or the
 * portable ones): by hash (the batches) and by key (the hash inlined). */
typedef bool (*fk_xf_lookup_fn)(const fk_expandable *xf, uint64_t h);

/* One lock byte per region of FK_XF_REGION_BLOCKS blocks of one table,
 * with the geometry they were made for (expandable.c, "many writers"). */
#define FK_XF_REGION_BLOCKS 4u
typedef struct {
    uint64_t      nregions;
    uint64_t      quotients; /* N of the table they lock */
    unsigned char lock[];
} fk_xf_locks;
typedef bool (*fk_xf_lookup_key_fn)(const fk_expandable *xf, const void *key, size_t len);

struct fk_expandable {
    fk_filter base;        /* must stay first */
    fk_xf_lookup_fn lookup;
    fk_xf_lookup_key_fn lookup_key;
    bool      bmi2;        /* the lookups use BMI2 and popcnt */
    uint8_t  *table;       /* nblocks * block_bytes + FK_XF_PAD bytes */
    uint64_t  nblocks;
    uint64_t  slots;       /* S = 64 nblocks */
    uint64_t  quotients;   /* N = N0 2^doublings */
    uint32_t  width;       /* W: slot bits, F + 1 (2..32) */
    uint32_t  block_bytes;
    uint32_t  free_lanes;  /* slots one 8-byte load tests for free: 56 / W */
    uint64_t  free_ones;   /* a 1 at the bottom of each of those lanes */
    uint32_t  fp_bits;     /* F: fingerprint bits of a new entry, 1..W-1 */
    uint32_t  doublings;   /* G */
    uint32_t  growth;      /* the expected growth factor F was sized for */
    uint64_t  seed;
    uint64_t  flip;        /* fk_hash8_flip64(seed) */
    uint64_t  capacity;    /* entries the first table was made for */
    double    fpr;         /* target */
    uint64_t  limit;       /* capacity 2^G: entries before the next doubling */
    uint64_t  max_bytes;   /* doublings stay under it (not saved) */
    uint64_t  used;        /* entries in the table */
    uint64_t  by_len[32];  /* entries in the table by fingerprint length */
    uint64_t *voids;       /* sorted void keys (a multiset) */
    size_t    nvoids, voids_cap;
    uint64_t  void_gens;   /* bit g set when a void of generation g exists */
    /* The concurrent writers (expandable.c, "many writers"): the region
     * locks of the current table (NULL until the first concurrent call),
     * and those of the tables a concurrent doubling replaced (a writer may
     * still be waiting on one), freed with the filter. */
    _Atomic(fk_xf_locks *) locks;
    /* held by the first concurrent callers while one of them makes the
     * locks: the geometry is read only while no locks exist, so no
     * doubling (it needs them) can be writing it */
    _Atomic unsigned char locks_making;
    unsigned  nretired;
    fk_xf_locks *retired[FK_EXPANDABLE_MAX_DOUBLINGS + 1];
    /* the concurrent writers' changes to used and by_len, one row per
     * thread (fields FK_XF_C_USED, FK_XF_C_BY_LEN + L); a writer moves its
     * used count into `used` by FK_XF_C_FLUSH at a time, so the limit
     * check reads one rarely written line. Read through fk_xf_used and
     * fk_xf_by_len; folded in by the doubling and by the next plain call. */
    fk_tallies c_counts;
};

enum { FK_XF_C_USED, FK_XF_C_BY_LEN, FK_XF_C_FIELDS = FK_XF_C_BY_LEN + 32 };
#define FK_XF_C_FLUSH 64u

/* Entries in the table (the plain count and what concurrent writers hold
 * unmoved); exact with no writer running. O(FK_TALLY_STRIPES). */
static inline uint64_t fk_xf_used(const fk_expandable *xf)
{
    return xf->used + fk_tallies_sum(&xf->c_counts, FK_XF_C_FIELDS, FK_XF_C_USED);
}

/* Entries of fingerprint length L, as fk_xf_used. */
static inline uint64_t fk_xf_by_len(const fk_expandable *xf, unsigned L)
{
    return xf->by_len[L] + fk_tallies_sum(&xf->c_counts, FK_XF_C_FIELDS, FK_XF_C_BY_LEN + L);
}

/* ------------------------------------------------------- key -> place */

/* The key's one hash: common/hash.h's fk_hash64 with xf's seed. */
static inline uint64_t fk_xf_hash(const fk_expandable *xf, const void *key, size_t len)
{
    return fk_hash64(key, len, &xf->seed, &xf->flip);
}

/* The quotient of hash h, and in *kv the key's value as a slot of the
 * longest length W - 1 (its first W - 1 fraction bits, then the marker). */
static inline uint64_t fk_xf_place(const fk_expandable *xf, uint64_t h, uint32_t *kv)
{
    unsigned __int128 m = (unsigned __int128)h * xf->quotients;
    uint64_t frac = (uint64_t)m;
    *kv = (uint32_t)(((frac >> (65 - xf->width)) << 1) | 1u);
    return (uint64_t)(m >> 64);
}

/* The slot value a new entry stores: the key's first F bits, then the marker. */
static inline uint32_t fk_xf_entry(const fk_expandable *xf, uint32_t kv)
{
    unsigned lowbits = xf->width - xf->fp_bits; /* marker and padding */
    return ((kv >> lowbits) << lowbits) | (UINT32_C(1) << (lowbits - 1));
}

/* The fingerprint length of a nonzero slot value. */
static inline unsigned fk_xf_len(const fk_expandable *xf, uint32_t v)
{
    return xf->width - 1u - (unsigned)__builtin_ctz(v);
}

/* True when entry v matches the key whose longest value is kv: they agree
 * above v's marker (32-bit arithmetic: the mask is 0 for L = 0 at W = 32). */
static inline bool fk_xf_match(uint32_t v, uint32_t kv)
{
    uint32_t marker = v & (0u - v);
    return ((v ^ kv) & ~((marker << 1) - 1u)) == 0;
}

/* --------------------------------------------------------- the blocks */

/* The low W bits (W <= 32). */
static inline uint64_t fk_xf_mask(unsigned W)
{
    return (UINT64_C(1) << W) - 1;
}

/* Slot i (0..63) of a block's slot area: W bits at bit i W of the area
 * read as a little-endian bit string, so 16- and 32-bit slots are plain
 * little-endian words (the files of 0.4.0). One unaligned 8-byte load
 * holds it (shift at most 7, W <= 32); loads near a block's end read the
 * next block's header or the table's padding, never past it. */
static inline uint32_t fk_xf_area_get(const uint8_t *area, unsigned i, unsigned W)
{
    unsigned bit = i * W;
    return (uint32_t)((fk_load_le64(area + (bit >> 3)) >> (bit & 7)) & fk_xf_mask(W));
}

/* Writes slot i: a read-modify-write of the 8 bytes that hold it (the
 * bytes around it are written back unchanged: writers have the filter to
 * themselves). */
static inline void fk_xf_area_set(uint8_t *area, unsigned i, unsigned W, uint32_t v)
{
    unsigned bit = i * W;
    uint8_t *p = area + (bit >> 3);
    uint64_t m = fk_xf_mask(W) << (bit & 7);
    fk_store_le64(p, (fk_load_le64(p) & ~m) | ((uint64_t)v << (bit & 7)));
}

/* The accessors by slot width W (a constant where the caller knows it:
 * the lookups are made once per width). */
static inline uint8_t *fk_xf_block_w(const uint8_t *table, uint64_t b, unsigned W)
{
    return (uint8_t *)(uintptr_t)table + b * (FK_XF_HEAD + 8u * W);
}

static inline uint32_t fk_xf_slot_w(const uint8_t *table, uint64_t j, unsigned W)
{
    return fk_xf_area_get(fk_xf_block_w(table, j >> 6, W) + FK_XF_HEAD, (unsigned)(j & 63), W);
}

static inline uint64_t fk_xf_runends_w(const uint8_t *table, uint64_t b, unsigned W)
{
    return fk_load_le64(fk_xf_block_w(table, b, W) + 8);
}

static inline uint8_t *fk_xf_block(const fk_expandable *xf, uint64_t b)
{
    return xf->table + b * xf->block_bytes;
}

static inline uint64_t fk_xf_occupieds(const fk_expandable *xf, uint64_t b)
{
    return fk_load_le64(fk_xf_block(xf, b));
}

static inline uint64_t fk_xf_runends(const fk_expandable *xf, uint64_t b)
{
    return fk_load_le64(fk_xf_block(xf, b) + 8);
}

static inline unsigned fk_xf_offset(const fk_expandable *xf, uint64_t b)
{
    return fk_le_get16(fk_xf_block(xf, b) + 16);
}

static inline uint32_t fk_xf_slot(const fk_expandable *xf, uint64_t j)
{
    return fk_xf_area_get(fk_xf_block(xf, j >> 6) + FK_XF_HEAD, (unsigned)(j & 63), xf->width);
}

static inline void fk_xf_set_slot(fk_expandable *xf, uint64_t j, uint32_t v)
{
    fk_xf_area_set(fk_xf_block(xf, j >> 6) + FK_XF_HEAD, (unsigned)(j & 63), xf->width, v);
}

/* ----------------------------------------------------- shared entries */

/* The lookup of a hashed key (expandable.c): table run, then voids,
 * through the body chosen at creation. */
bool fk_xf_lookup_hash(const fk_expandable *xf, uint64_t h);
/* Switches xf to the portable rank and select (the tests run both bodies
 * on one machine; a filter chooses BMI2 by itself where the CPU has it). */
void fk_xf_use_portable(fk_expandable *xf);
/* The insert of a hashed key: doubles first when the table is at its limit. */
fk_status fk_xf_insert_hash(fk_expandable *xf, uint64_t h);

/* An empty filter of exactly these dimensions (no sizing, no doublings
 * applied): FK_EINVAL for a geometry fk_xf_geometry_ok refuses. */
fk_status fk_xf_create_exact(uint64_t quotients, uint32_t width, uint32_t fp_bits,
                             uint32_t doublings, uint64_t seed, uint64_t capacity, double fpr,
                             fk_expandable **out);
/* The slots a table of N quotients has: whole blocks for N plus a margin
 * of 16 + 2 sqrt(N) for runs pushed past the last quotient. 0 on overflow. */
uint64_t fk_xf_slots_for(uint64_t quotients);
uint64_t fk_xf_table_bytes(uint64_t slots, uint32_t width);

/* Rebuilds `from`'s table (any bytes) into `to` (an empty filter of the
 * same geometry) from its runs, checking every invariant above: FK_OK when
 * from's table is canonical (to then equals it byte for byte, with its
 * used and by_len counts), FK_ECORRUPT otherwise. O(S). */
fk_status fk_xf_rebuild_canonical(const fk_expandable *from, fk_expandable *to);

/* true when xf keeps every invariant above, its counts included. O(S) time
 * and a second table (the tests; FK_DEBUG_INVARIANTS builds after doubling
 * and load). */
bool fk_xf_check_canonical(const fk_expandable *xf);

#ifdef FK_DEBUG_INVARIANTS
#define FK_XF_DEBUG_CHECK(xf) \
    do { if (!fk_xf_check_canonical(xf)) __builtin_trap(); } while (0)
#else
#define FK_XF_DEBUG_CHECK(xf) ((void)0)
#endif

void      fk_expandable_slot_contains_many(const fk_filter *f, size_t n, const void *const keys[],
                                           const size_t lens[], bool out[]);
fk_status fk_expandable_slot_insert_many(fk_filter *f, size_t n, const void *const keys[],
                                         const size_t lens[], size_t *done);
void      fk_expandable_slot_contains_many_u64(const fk_filter *f, size_t n,
                                               const uint64_t keys[], bool out[]);
fk_status fk_expandable_slot_insert_many_u64(fk_filter *f, size_t n, const uint64_t keys[],
                                             size_t *done);
extern const fk_serial_ops fk_expandable_serial_ops;

#endif
