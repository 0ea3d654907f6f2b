/* quotient/quotient_internal.h: the counting quotient filter's layout,
 * shared by the files of this module (core, batches, serialization). Not
 * installed.
 *
 * The table is nblocks blocks of 64 slots, each block
 * FK_QF_BLOCK_HEAD + 8r bytes, packed with no padding:
 *   bytes [0, 8)    occupieds: bit i set when quotient 64b + i has a run
 *   bytes [8, 16)   runends:   bit i set when slot 64b + i ends a run
 *   byte  16        offset:    slots at the start of this block used by
 *                              runs of quotients below 64b (0..255)
 *   bytes [17, ..)  64 remainders of r bits, slot i at bits [i r, i r + r)
 *                   of the little-endian byte string
 * so a slot costs r + 2 + 8/64 = r + 2.125 bits. Words are read with
 * unaligned little-endian loads; 8 bytes of zero padding follow the last
 * block so a remainder read never leaves the allocation.
 *
 * Everything here is canonical: the table is a function of the multiset
 * of (quotient, remainder, count) alone (runs sorted by quotient and
 * placed as far left as they can go, groups sorted by remainder, counters
 * in their shortest encoding, free slots zero), whatever the order of the
 * calls that built it. Merge, grow and the loader rely on it: a merged or
 * grown filter is byte for byte the filter built directly, and a file is
 * valid exactly when rebuilding it from its own groups gives its bytes.
 *
 * The invariants, all checked by fk_qf_rebuild_canonical (the loader; the
 * debug check after merge, grow and load in the test builds):
 *   - occupieds and runends agree: the i-th occupied quotient (below N)
 *     owns the run that ends at the i-th runend, which starts at or after
 *     the quotient and after the last run; no other bit is set;
 *   - within a run the groups rise strictly by remainder (the quotients
 *     rise by construction), so no (quotient, remainder) has two groups;
 *   - every counter is well formed and in its shortest encoding
 *     (fk_qf_encode's), every count in 1..UINT64_MAX;
 *   - runs sit as far left as they can, the offsets say where, and every
 *     slot outside a run, and the padding after the last block, is 0;
 *   - items is the sum of the counts, distinct the groups, used the slots
 *     in runs.
 * A table that breaks the order alone still decodes and answers lookups,
 * but grow splits its runs into groups no longer in order and merge
 * misreads them: the saved result of either would not load again. */
#ifndef FK_QUOTIENT_INTERNAL_H
#define FK_QUOTIENT_INTERNAL_H

#include <string.h>
#include "quotient.h"
#include "../common/rank_select.h"
#include "../common/bits.h"
#include "../common/endian.h"
#include "../common/hash.h"
#include "../common/tally.h"
#include <stdatomic.h>

#define FK_QF_BLOCK_HEAD 17u /* occupieds, runends, offset */
#define FK_QF_OFFSET_MAX 255u
#define FK_QF_PAD        8u

/* The lookup body, chosen at creation (BMI2 select or the portable one):
 * answers for a key whose XXH3-64 hash is h. */
typedef bool (*fk_qf_lookup_fn)(const fk_quotient *qf, uint64_t h);

/* The sum of the counts, exact: each count stops at UINT64_MAX (inserts
 * and merges saturate it), and a table of fewer than 2^64 groups sums to
 * under 2^128, so the sum never wraps and a remove after a saturated sum
 * still subtracts exactly. Callers see it capped (fk_qf_items). */
typedef unsigned __int128 fk_qf_sum;
typedef bool (*fk_qf_lookup_key_fn)(const fk_quotient *qf, const void *key, size_t len);

struct fk_quotient {
    fk_filter base;       /* must stay first: an fk_quotient * is an fk_filter * */
    uint8_t  *table;      /* nblocks * block_bytes + FK_QF_PAD bytes */
    uint64_t  nblocks;
    uint64_t  slots;      /* S = 64 * nblocks */
    uint64_t  quotients;  /* N <= S: the range of the quotient */
    uint64_t  rmask;      /* 2^r - 1 */
    uint32_t  r;          /* remainder bits */
    uint32_t  block_bytes;
    fk_qf_lookup_fn lookup;         /* by hash (the batches) */
    fk_qf_lookup_key_fn lookup_key; /* by key, the hash inlined */
    bool      bmi2;       /* rank and select with BMI2 and popcnt */
    uint64_t  seed;
    uint64_t  flip;       /* fk_qf_seed_flip(seed) */
    uint64_t  capacity;   /* items it was sized for */
    double    fpr;        /* target it was sized for */
    uint64_t  max_bytes;  /* fk_params_max_bytes at creation: grow stays under it */
    fk_qf_sum items;      /* the exact sum of the counts (reported capped: fk_qf_items) */
    uint64_t  distinct;   /* groups: distinct (quotient, remainder) pairs */
    uint64_t  used;       /* slots in runs */
    /* The concurrent writers (quotient.c, "many writers"): one lock byte
     * per region of FK_QF_REGION_BLOCKS blocks, allocated by the first
     * concurrent call (NULL until then, and again after a grow or merge,
     * which need the writers done), and their changes to the three counts
     * above, added per thread (common/tally.h) and folded in by the
     * readers (fk_qf_items and friends) and by fk_qf_settle. */
    _Atomic(unsigned char *) locks;
    fk_tallies c_counts; /* fields FK_QF_C_ITEMS .. FK_QF_C_USED */
};

/* The concurrent writers' counters in c_counts, one row per thread. */
enum { FK_QF_C_ITEMS, FK_QF_C_DISTINCT, FK_QF_C_USED, FK_QF_C_FIELDS };

/* Blocks per region of the concurrent writers (256 slots). */
#define FK_QF_REGION_BLOCKS 4u

/* The counts with the concurrent writers' changes added (each tally is a
 * sum mod 2^64 of signed changes; the exact sum never leaves 0..2^128). */
static inline fk_qf_sum fk_qf_sum_items(const fk_quotient *qf)
{
    return qf->items + (fk_qf_sum)(__int128)(int64_t)fk_tallies_sum(&qf->c_counts, FK_QF_C_FIELDS, FK_QF_C_ITEMS);
}
static inline uint64_t fk_qf_distinct(const fk_quotient *qf)
{
    return qf->distinct + fk_tallies_sum(&qf->c_counts, FK_QF_C_FIELDS, FK_QF_C_DISTINCT);
}
static inline uint64_t fk_qf_used(const fk_quotient *qf)
{
    return qf->used + fk_tallies_sum(&qf->c_counts, FK_QF_C_FIELDS, FK_QF_C_USED);
}

/* Folds the concurrent writers' counts into the plain fields (the writers
 * done: a writer that rewrites the table calls it first). */
void fk_qf_settle(fk_quotient *qf);

/* The items a caller sees (stats, describe, the saved header): the sum of
 * the counts, UINT64_MAX when it is larger. */
static inline uint64_t fk_qf_items(const fk_quotient *qf)
{
    fk_qf_sum items = fk_qf_sum_items(qf);
    return items > UINT64_MAX ? UINT64_MAX : (uint64_t)items;
}

/* ------------------------------------------------------- key -> place */

/* The key's one hash: common/hash.h's fk_hash64 with qf's seed. */
static inline uint64_t fk_qf_hash(const fk_quotient *qf, const void *key, size_t len)
{
    return fk_hash64(key, len, &qf->seed, &qf->flip);
}

/* XXH3-64 of an 8-byte key, exactly XXH3_64bits_withSeed(key, 8, seed)
 * (tests/test_quotient.c compares them bit for bit), with the part that
 * depends only on the seed done once, when the filter is made: xxHash's
 * 4..8-byte path XORs the key (halves swapped) with a constant from its
 * secret and the seed, then mixes (rrmxmx). */
static inline uint64_t fk_qf_seed_flip(uint64_t seed)
{
    seed ^= (uint64_t)XXH_swap32((uint32_t)seed) << 32;
    return (XXH_readLE64(XXH3_kSecret + 8) ^ XXH_readLE64(XXH3_kSecret + 16)) - seed;
}

static inline uint64_t fk_qf_hash8(uint64_t le_key, uint64_t flip)
{
    uint64_t h = ((le_key << 32) | (le_key >> 32)) ^ flip;
    h ^= ((h << 49) | (h >> 15)) ^ ((h << 24) | (h >> 40));
    h *= UINT64_C(0x9FB21C651E98DF25);
    h ^= (h >> 35) + 8;
    h *= UINT64_C(0x9FB21C651E98DF25);
    return h ^ (h >> 28);
}

/* The quotient is the integer part of h * N / 2^64 (multiply-high, no
 * division) and the remainder the next r bits of the product's fraction:
 * doubling N moves the top remainder bit into the quotient, which is how
 * fk_quotient_grow needs no keys. */
static inline uint64_t fk_qf_quotient(const fk_quotient *qf, uint64_t h, uint64_t *rem)
{
    unsigned __int128 m = (unsigned __int128)h * qf->quotients;
    *rem = (uint64_t)m >> (64 - qf->r);
    return (uint64_t)(m >> 64);
}

/* --------------------------------------------------------- the blocks */

static inline uint8_t *fk_qf_block(const fk_quotient *qf, uint64_t b)
{
    return qf->table + b * qf->block_bytes;
}

static inline uint64_t fk_qf_occupieds(const fk_quotient *qf, uint64_t b)
{
    return fk_load_le64(fk_qf_block(qf, b));
}

static inline uint64_t fk_qf_runends(const fk_quotient *qf, uint64_t b)
{
    return fk_load_le64(fk_qf_block(qf, b) + 8);
}

static inline unsigned fk_qf_offset(const fk_quotient *qf, uint64_t b)
{
    return fk_qf_block(qf, b)[16];
}

/* The remainder (or counter digit) in slot j. */
static inline uint64_t fk_qf_slot(const fk_quotient *qf, uint64_t j)
{
    uint64_t bit = (j & 63) * qf->r;
    const uint8_t *p = fk_qf_block(qf, j >> 6) + FK_QF_BLOCK_HEAD + (bit >> 3);
    return (fk_load_le64(p) >> (bit & 7)) & qf->rmask;
}

static inline void fk_qf_set_slot(fk_quotient *qf, uint64_t j, uint64_t v)
{
    uint64_t bit = (j & 63) * qf->r;
    uint8_t *p = fk_qf_block(qf, j >> 6) + FK_QF_BLOCK_HEAD + (bit >> 3);
    unsigned sh = (unsigned)(bit & 7);
    uint64_t w = fk_load_le64(p);
    w = (w & ~(qf->rmask << sh)) | (v << sh);
    fk_store_le64(p, w);
}

static inline bool fk_qf_is_runend(const fk_quotient *qf, uint64_t j)
{
    return (fk_qf_runends(qf, j >> 6) >> (j & 63)) & 1u;
}

static inline bool fk_qf_is_occupied(const fk_quotient *qf, uint64_t q)
{
    return (fk_qf_occupieds(qf, q >> 6) >> (q & 63)) & 1u;
}

/* ---------------------------------------------------------- counters
 *
 * A group is the slots of one remainder x inside its run; count C:
 *   C = 1: x
 *   C = 2: x x
 *   x > 0, C >= 3: x [0] d.. x   digits of C - 3 in base 2^r - 2, most
 *       significant first, each written as a symbol in 1..2^r-1 other than
 *       x; the slot after x is below x (that is how a reader knows a
 *       counter follows, remainders rising along a run), so when the first
 *       symbol is above x a 0 goes before it as a marker
 *   x = 0: C = 3: 0 0 0;  C >= 4: 0 d.. 0 0   digits of C - 4 in base
 *       2^r - 1, symbols 1..2^r-1
 * Digits are never 0, so outside the group of remainder 0 a 0 is always a
 * marker, followed by a nonzero symbol: "0 0" appears only in that group,
 * which lets its reader find its end. A count of C costs at most
 * 3 + ceil(log_(2^r - 2)(C)) slots (r = 7, C = 10^6: 6). Same scheme as
 * the CQF paper's, written from its description. */

#define FK_QF_GROUP_MAX 70u /* the longest encoding: 2 + marker + 64 digits at r = 2, rounded up */

/* Writes the encoding of (x, count >= 1) into out[]; returns its length. */
unsigned fk_qf_encode(const fk_quotient *qf, uint64_t x, uint64_t count, uint64_t out[FK_QF_GROUP_MAX]);

/* Decodes the group starting at vals[i] of a run of n slots: stores its
 * remainder and count and returns the index one past it; returns 0 on a
 * malformed group (only loaded files can hold one). */
size_t fk_qf_decode(const fk_quotient *qf, const uint64_t *vals, size_t i, size_t n,
                    uint64_t *x, uint64_t *count);

/* ------------------------------------------------ walking every group */

/* The runs of a table in quotient order, in one forward pass: the next
 * run's quotient is the next occupied bit and its end the next runend
 * bit (free slots have none), each found with one tzcnt on a word kept
 * from the last run. Merge walks two tables at once, the groups walk
 * one. */
typedef struct {
    const fk_quotient *qf;
    uint64_t occ, ob;        /* occupieds of block ob not visited yet */
    uint64_t re, rb;         /* runends of block rb not used yet */
    uint64_t pos;            /* one past the last run's end */
    uint64_t q, start, end;  /* the current run */
    bool     broken;         /* a runend missing or before its run */
} fk_qf_runs;

/* The groups of a table in (quotient, remainder) order. */
typedef struct {
    fk_qf_runs runs;
    uint64_t vals[256]; /* the run's slots, when it fits (else read in place) */
    size_t   n, i;     /* run length and the next group's index in it */
    uint64_t *heap;    /* a longer run's slots */
    size_t   heap_cap;
    bool     broken, nomem; /* nomem: a long run's buffer failed */
} fk_qf_iter;

void fk_qf_iter_init(fk_qf_iter *it, const fk_quotient *qf);
/* Stores the next group; false at the end, or when the table is
 * malformed or memory ran out (it->broken; it->nomem too for the latter). */
bool fk_qf_iter_next(fk_qf_iter *it, uint64_t *q, uint64_t *x, uint64_t *count);
void fk_qf_iter_done(fk_qf_iter *it);

/* Appends groups in (quotient, remainder) order to an empty table. */
typedef struct {
    fk_quotient *qf;
    uint64_t q;         /* the open run's quotient (valid when open) */
    uint64_t pos;       /* next free slot */
    uint64_t next_block; /* first block whose offset is not written yet */
    bool     open;
    /* The remainders of block `block`, packed into it a block at a time:
     * slot by slot, each 8-byte write would overlap the last one and
     * wait for it (no store forwarding between unaligned overlaps). */
    bool     dirty;     /* vals holds a slot not written yet */
    uint64_t block;
    uint64_t vals[64];
} fk_qf_builder;

void      fk_qf_build_init(fk_qf_builder *b, fk_quotient *qf);
/* FK_OK, or FK_EFULL when the group does not fit (slots or offsets). */
fk_status fk_qf_build_add(fk_qf_builder *b, uint64_t q, uint64_t x, uint64_t count);
fk_status fk_qf_build_finish(fk_qf_builder *b);

/* Rebuilds the groups of `table` (any bytes, in a filter of that
 * geometry) into `out`, an empty filter of the same geometry, and checks
 * every invariant above but the counts fields of `table`: FK_OK when
 * `table` is canonical (out's table then equals it byte for byte and out
 * holds its items, distinct and used), FK_ECORRUPT when it is not,
 * FK_ENOMEM when a long run's buffer cannot be had. O(S). */
fk_status fk_qf_rebuild_canonical(const fk_quotient *table, fk_quotient *out);

/* true when qf keeps every invariant above, its counts fields included
 * (true too when memory for the check runs out: nothing was checked).
 * O(S) time and a second table: the tests call it, and in builds with
 * FK_DEBUG_INVARIANTS (the Makefile's sanitizer and fuzz builds, never the
 * library users get) every merge, grow and load checks its result with
 * FK_QF_DEBUG_CHECK, which traps on a broken invariant. */
bool fk_qf_check_canonical(const fk_quotient *qf);

#ifdef FK_DEBUG_INVARIANTS
#define FK_QF_DEBUG_CHECK(qf) \
    do { if (!fk_qf_check_canonical(qf)) __builtin_trap(); } while (0)
#else
#define FK_QF_DEBUG_CHECK(qf) ((void)0)
#endif

/* An empty filter of exactly these dimensions (no sizing): slots a
 * positive multiple of 64, 1 <= quotients <= slots, r in
 * FK_QUOTIENT_MIN_R..FK_QUOTIENT_MAX_R; FK_EINVAL otherwise, or over
 * FK_MEMORY_CAP; FK_ENOMEM. */
fk_status fk_qf_create_exact(uint64_t slots, uint64_t quotients, uint32_t r, uint64_t seed,
                             uint64_t capacity, double fpr, fk_quotient **out);
bool      fk_qf_geometry_ok(uint64_t slots, uint64_t quotients, uint32_t r);

/* The slots, quotients and r fk_quotient_new would choose. */
fk_status fk_qf_geometry(const fk_params *p, uint64_t *slots, uint64_t *quotients, uint32_t *r);

/* Theory: FPR with `items` distinct keys spread over N quotients. */
double fk_qf_theory_fpr(uint64_t quotients, uint32_t r, double items);

/* The batch slots (quotient_batch.c) and the saving hooks
 * (quotient_serial.c) of fk_quotient_ops. */
void      fk_quotient_slot_contains_many(const fk_filter *f, size_t n, const void *const keys[],
                                         const size_t lens[], bool out[]);
fk_status fk_quotient_slot_insert_many(fk_filter *f, size_t n, const void *const keys[],
                                       const size_t lens[], size_t *done);
void      fk_quotient_slot_contains_many_u64(const fk_filter *f, size_t n, const uint64_t keys[],
                                             bool out[]);
fk_status fk_quotient_slot_insert_many_u64(fk_filter *f, size_t n, const uint64_t keys[],
                                           size_t *done);
extern const fk_serial_ops fk_quotient_serial_ops;

/* Switches qf to the portable rank and select (the tests run both paths
 * on one machine; a filter chooses BMI2 by itself where it can). */
void fk_qf_use_portable(fk_quotient *qf);

/* The insert of a key already hashed (quotient.c), for the batches. */
fk_status fk_qf_insert_hash(fk_quotient *qf, uint64_t h);

/* Fills *out for key. Returns FK_OK, or FK_EINVAL for NULL qf/out or key
 * NULL with len > 0. Cost: as fk_quotient_count. */
fk_status fk_quotient_locate(const fk_quotient *qf, const void *key, size_t len,
                                    fk_quotient_location *out);

/* Fills *out for slot j. Returns FK_OK; FK_EINVAL for NULL arguments or j
 * >= S. Cost: a rank and a popcount or two. */
fk_status fk_quotient_cell(const fk_quotient *qf, uint64_t j,
                                     fk_quotient_slot_info *out);

/* Stores in *count the count of key's group: at least the number of its
 * inserts minus its removes (never under), more only when other keys
 * share its quotient and remainder; 0 for a key that is definitely
 * absent. Returns FK_OK; FK_EINVAL for qf or count NULL or key NULL with
 * len > 0 (*count 0 when count is not NULL). Cost: as contains, plus
 * decoding the group's counter. */
fk_status fk_quotient_count(const fk_quotient *qf, const void *key, size_t len,
                                   uint64_t *count);

/* Adds src's multiset to dst: every group's count becomes the sum of its
 * counts in both, so dst answers exactly as a filter into which both key
 * sequences were inserted (byte for byte the same table). src is not
 * changed. Returns FK_OK; FK_EINVAL for NULL arguments, dst == src, or
 * filters of different geometry (slots, quotients, r) or seed (two
 * filters made from the same params match; a grown one matches one grown
 * as often); FK_EFULL when the union does not fit in dst's table (dst
 * unchanged); FK_ENOMEM (dst unchanged). A count that would pass
 * UINT64_MAX stops there (so does the items figure of fk_quotient_stats).
 * Cost: one pass over both tables writing a new one (O(S) time, dst's
 * size in extra memory while it runs). */
fk_status fk_quotient_merge(fk_quotient *dst, const fk_quotient *src);

/* Doubles the filter in place, without the keys: N and S double and r
 * drops by one (the remainder's top bit becomes the quotient's last), so
 * the table is the one a filter of 2N quotients and r - 1 bits would have
 * built from the same keys, byte for byte, with every count kept. The FPR
 * at a given number of keys doubles (the filter then holds twice as many
 * at the old load; capacity doubles, the recorded target fpr doubles).
 * Returns FK_OK; FK_EINVAL for qf NULL or r already FK_QUOTIENT_MIN_R, or
 * when the new table would pass FK_MEMORY_CAP; FK_ELIMIT when it would pass
 * the fk_params.max_bytes the filter was made with or was given since by
 * fk_filter_set_max_bytes (loaded filters: FK_MEMORY_CAP until then); FK_ENOMEM (qf unchanged).
 * Cost: O(S) time, the old and the new table both held while it runs
 * (about 2.9 times the old size at its peak). */
fk_status fk_quotient_grow(fk_quotient *qf);

/* The body of fk_filter_stats for this kind (what each field holds:
 * quotient.h, "Stats"). Internal: a user calls fk_filter_stats(
 * fk_quotient_as_filter(x), &out); the tests and the bench call this. */
void fk_quotient_stats(const fk_quotient *qf, fk_stats *out);

#endif
