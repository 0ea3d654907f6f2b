/* cuckoo/cuckoo_internal.h: the cuckoo filter's layout, shared by the
 * files of this module (policy, vtable, serialization). Not installed. */
#ifndef FK_CUCKOO_INTERNAL_H
#define FK_CUCKOO_INTERNAL_H

#include <stdatomic.h>
#include "cuckoo.h"
#include "../common/pipeline.h"
#include "cuckoo_hash.h"
#include "cuckoo_table.h"
#include "../common/hashed.h"
#include "../common/tally.h"

/* ------------------------------------------------------------ sizing */

/* Internal (not exported): a user asks for a cuckoo filter's geometry and
 * theory through fk_ops_size / fk_ops_expected_fpr (common/filter.h); the
 * bench, the tests, the Redis module and the Python extension, which link
 * the static library, call these directly. */

/* Smallest fingerprint width f in [4, 32] with 2b / 2^f <= p (b = 4 slots).
 * Returns 32 when even 32 bits cannot reach p, 0 for p not in (0,1). */
uint32_t fk_size_cuckoo_fp_bits(double p);

/* Tables that need fewer buckets than this are sized with spare room (see
 * fk_size_cuckoo_table). */
#define FK_CUCKOO_SMALL_BUCKETS 1024u

/* Buckets of a cuckoo table for n items at a load of at most max_load
 * (0 = FK_CUCKOO_MAX_LOAD; else in (0, 1]): need = ceil(ceil(n / max_load)
 * / 4), any count (no power-of-two rounding). That is the answer for an
 * explicit max_load (exact geometry, as asked) and for the default from
 * FK_CUCKOO_SMALL_BUCKETS up. Below, where the load at the first failure
 * scatters widely between seeds, the default gives spare room so that a
 * filter made for n accepts n distinct keys at every capacity: 1 bucket
 * for n <= 4 (it holds any 4 keys), else the smallest power of two holding
 * n / 0.94 + 4 sqrt(n) slots, at most FK_CUCKOO_SMALL_BUCKETS (10 keys get
 * 8 buckets, 100 get 64, 1000 get 512; from 3,850 keys on, and so at 10^6,
 * the sizing is unchanged).
 * Returns FK_OK with *buckets set; FK_EINVAL for n 0, buckets NULL,
 * max_load NaN or outside (0, 1], or more than 2^62 buckets. Cost: O(1). */
fk_status fk_size_cuckoo_table(uint64_t n, double max_load, uint64_t *buckets);

/* fk_size_cuckoo_table(n, 0, ...): the default bucket count, or 0 when n is
 * 0 or the count would exceed 2^62. */
uint64_t fk_size_cuckoo_buckets(uint64_t n);

/* Expected FPR of a cuckoo filter with f-bit fingerprints at `load`
 * (occupied / slots): 1 - (1 - 2^-f)^(2b * load). load is clamped to
 * [0, 1] (NaN reads as 0), so the result is a rate in [0, 1]; f 0 or above
 * 64 gives 1.0. */
double fk_theory_cuckoo_fpr(uint32_t f, double load);

/* ------------------------------------------------- tracing / teaching */

/* Where a key lives: exactly what insert, contains and remove compute. */
typedef struct {
    uint64_t hash_lo;     /* the key's XXH3-64 hash (legacy filters: the low
                             half of its XXH3-128 hash, which gives i1) */
    uint64_t hash_hi;     /* 0 (legacy filters: the high half, which gives
                             the fingerprint) */
    uint32_t fingerprint; /* nonzero, < 2^f */
    uint64_t i1;          /* first bucket */
    uint64_t i2;          /* second bucket: the alternate of (i1,
                             fingerprint); may equal i1 */
} fk_cuckoo_location;

/* One eviction during an insert: the fingerprint that was in slot `slot`
 * of bucket `from` was displaced and is heading to its other bucket `to`
 * (to is the alternate bucket of from for fingerprint). `kick` counts the
 * evictions of the current insert from 1. If that insert then fails with
 * FK_EFULL, all its evictions are undone (no further events). */
typedef struct {
    uint64_t from;
    uint64_t to;
    uint32_t slot;
    uint32_t fingerprint;
    uint32_t kick;
} fk_cuckoo_kick_event;

typedef void (*fk_cuckoo_observer)(void *ctx, const fk_cuckoo_kick_event *ev);

/* Registers fn to be called (with ctx) for every eviction; fn NULL (the
 * default) turns it off. The callback must not modify the filter. The
 * library itself never prints. No-op for NULL c. Cost: O(1); a set
 * observer adds one call per eviction, nothing to lookups. */
void fk_cuckoo_set_observer(fk_cuckoo *c, fk_cuckoo_observer fn, void *ctx);

/* Sets the evictions one insert of c may make before it gives up with
 * FK_EFULL (the filter then exactly as before): n clamped to
 * 1..FK_CUCKOO_MAX_KICKS, which every filter starts with (new or loaded).
 * A runtime limit, not saved with the filter: the Redis module applies
 * CF.RESERVE's MAXITERATIONS with it (above FK_CUCKOO_MAX_KICKS the walk
 * stops at FK_CUCKOO_MAX_KICKS). A lower limit bounds an insert's time
 * and makes a nearly full table say FK_EFULL sooner. Not thread safe
 * against writers. No-op for NULL c. Cost: O(1). */
void fk_cuckoo_set_max_kicks(fk_cuckoo *c, uint32_t n);


/* ------------------------------------------- paths chosen by width
 *
 * The module's code for widths 4..16 comes one function per width (the
 * width a constant, FK_CTAB_EACH_WIDTH); these pick one. CASE(F) is a
 * case macro, `case F: ...`, that returns or breaks: FK_CUCKOO_DISPATCH_WIDTH
 * runs the one for width f, and any other width leaves the switch, on to
 * the caller's generic code after it. FK_CUCKOO_DISPATCH_SCHEME_WIDTH does
 * the same under c's hash scheme, BLOCKS(F) or CHUNKS(F) (usually CASE(blocks,
 * F) and CASE(chunks, F)); the legacy scheme leaves it too. A `break` in a
 * case leaves the switch. Cost: one switch (a jump table), where it runs. */
#define FK_CUCKOO_DISPATCH_WIDTH(f, CASE) \
    switch (f) {                          \
        FK_CTAB_EACH_WIDTH(CASE)          \
    default:                              \
        break;                            \
    }

#define FK_CUCKOO_DISPATCH_SCHEME_WIDTH(c, BLOCKS, CHUNKS)         \
    do {                                                           \
        if ((c)->map.scheme == FK_CUCKOO_SCHEME_BLOCKS) {          \
            FK_CUCKOO_DISPATCH_WIDTH((c)->table.f, BLOCKS)         \
        } else if ((c)->map.scheme == FK_CUCKOO_SCHEME_CHUNKS) {   \
            FK_CUCKOO_DISPATCH_WIDTH((c)->table.f, CHUNKS)         \
        }                                                          \
    } while (0)

/* A lookup and an insert specialised for the filter's scheme and width
 * (cuckoo.c). */
typedef bool (*fk_cuckoo_lookup_fn)(const fk_cuckoo *c, const void *key, size_t len);
typedef fk_status (*fk_cuckoo_insert_fn)(fk_cuckoo *c, const void *key, size_t len);
typedef fk_status (*fk_cuckoo_insert_u64_fn)(fk_cuckoo *c, uint64_t key);

/* The concurrent writers' locks and counts (cuckoo_concurrent.c). */
typedef struct fk_cuckoo_stripes fk_cuckoo_stripes;

/* The concurrent batch's writer of one window of placed keys
 * (cuckoo_concurrent.c, fk_cuckoo_cinsert_window_path). */
typedef size_t (*fk_cuckoo_cwindow_fn)(fk_cuckoo *c, const fk_cplace k[], size_t span,
                                       int64_t *added, fk_status *s);

struct fk_cuckoo {
    fk_filter base;        /* must stay first: an fk_cuckoo * is an fk_filter * */
    fk_ctab   table;       /* the packed buckets */
    fk_cmap   map;         /* key -> fingerprint and buckets (cuckoo_hash.h) */
    fk_cuckoo_lookup_fn lookup; /* fk_cuckoo_contains' body, chosen at creation */
    fk_cuckoo_insert_fn insert; /* fk_cuckoo_insert's body, likewise */
    fk_cuckoo_insert_u64_fn insert_u64;
    fk_cuckoo_insert_fn cinsert; /* the concurrent insert's body (cuckoo_concurrent.c) */
    fk_cuckoo_cwindow_fn cinsert_window; /* the concurrent batch's, a window at a time */
    /* the same from the key's XXH3-64 in .lo (fk_cuckoo_hashed_ops; blocks
     * and chunks schemes) */
    fk_contains_hashed_fn lookup_hashed;
    fk_insert_hashed_fn   insert_hashed;
    uint64_t  hash8;       /* fk_hash8_flip64(seed): XXH3 of 8-byte keys (common/hash.h) */
    uint64_t  seed;        /* hash seed */
    uint64_t  capacity;    /* items it was sized for */
    double    fpr;         /* target it was sized for */
    fk_cuckoo_observer observer; /* NULL: no kick events */
    void     *observer_ctx;
    uint32_t  max_kicks;   /* evictions an insert may make (fk_cuckoo_set_max_kicks) */
    /* The concurrent writers' locks and counts (cuckoo_concurrent.c),
     * made by the first concurrent write; NULL until then. Read by every
     * concurrent insert and written once, so they sit with the read-mostly
     * fields, not beside `moves`, which every kick path writes twice: on
     * that line each kick took the line from the other writers' next
     * insert (2 threads at 10^7 keys: 1.34x one thread, the machine's
     * ceiling 1.81x). */
    fk_cuckoo_stripes *_Atomic stripes;
    /* the lock-free inserts' item count, a row per thread (common/tally.h):
     * a stripe's counter would be one more line written per insert */
    fk_tally c_items;
    /* the concurrent kick walks' steps, likewise: a locked add on a
     * stripe's line (another writer's lock word) cost each walk a miss */
    fk_tally c_kicks;
    /* What the writer changes on every insert lives a cache line away from
     * what every lookup reads above, so lookups beside a writer do not
     * lose their line to it on each insert. */
    char      gap[64];
    uint64_t  items;       /* occupied slots */
    uint64_t  kicks;       /* eviction steps so far (including those of failed walks) */
    uint64_t  rng;         /* kick PRNG state (splitmix64), from the seed */
    /* The kick paths being carried out (low FK_CUCKOO_MOVES_ACTIVE bits)
     * and the paths done (above): a path adds 1 before it moves a
     * fingerprint and FK_CUCKOO_MOVES_DONE after, so a lookup that missed
     * while it changed, or saw a path running, looks again (cuckoo.c,
     * "moves beside the readers"). */
    _Atomic uint64_t moves;
};

/* fk_cuckoo.moves: the paths running, in the low 16 bits; each path done
 * adds FK_CUCKOO_MOVES_DONE (one more done, one fewer running). */
#define FK_CUCKOO_MOVES_ACTIVE UINT64_C(0xffff)
#define FK_CUCKOO_MOVES_DONE   UINT64_C(0xffff)

/* XXH3-64 of the key, seeded: 8-byte keys (integers, the common case) on
 * the constant-length path, the same value. */
static inline uint64_t fk_cuckoo_hash(const fk_cuckoo *c, const void *key, size_t len)
{
    return fk_hash64(key, len, &c->seed, &c->hash8);
}

/* The key's fingerprint and buckets under the filter's scheme (the legacy
 * one only for filters loaded from old files; the tests predict well). */
static inline fk_cplace fk_cuckoo_place(const fk_cuckoo *c, const void *key, size_t len)
{
    if (__builtin_expect(c->map.scheme == FK_CUCKOO_SCHEME_LEGACY, 0))
        return fk_cmap_place_legacy(&c->map, key, len, c->seed);
    return fk_cmap_place_h(&c->map, fk_cuckoo_hash(c, key, len));
}

/* The same for an integer key: its 8 little-endian bytes. */
static inline fk_cplace fk_cuckoo_place_u64(const fk_cuckoo *c, uint64_t key)
{
    if (__builtin_expect(c->map.scheme == FK_CUCKOO_SCHEME_LEGACY, 0)) {
        uint8_t le[8];
        for (unsigned i = 0; i < 8; i++)
            le[i] = (uint8_t)(key >> (8 * i));
        return fk_cmap_place_legacy(&c->map, le, sizeof le, c->seed);
    }
    return fk_cmap_place_h(&c->map, fk_hash8_64(key, c->hash8));
}

/* The scheme and table of a new filter that needs `need` buckets: chunks
 * when the table is large enough for them, else blocks (cuckoo_hash.h). */
static inline void fk_cuckoo_new_geometry(uint64_t need, uint32_t *scheme, uint64_t *buckets,
                                          uint32_t *chunk_bits)
{
    if (fk_cmap_chunks_geometry(need, buckets, chunk_bits)) {
        *scheme = FK_CUCKOO_SCHEME_CHUNKS;
        return;
    }
    *scheme = FK_CUCKOO_SCHEME_BLOCKS;
    *buckets = need;
    *chunk_bits = 0;
}

/* The fk_ops batch slots (cuckoo_batch.c), for the table in cuckoo.c. */
FK_BATCH_SLOTS_DECLARE(fk_cuckoo);
fk_status fk_cuckoo_slot_remove_many(fk_filter *f, size_t n, const void *const keys[],
                                     const size_t lens[], size_t *done);

/* The cuckoo filter's probes from a hash computed beforehand
 * (common/hashed.h; cuckoo.c), for the growing chains the registry binds:
 * the hash is fk_cuckoo_hash's XXH3-64, in .lo; a filter of the legacy
 * scheme (XXH3-128) does not take it. Not exported. */
extern const fk_hashed_ops fk_cuckoo_hashed_ops;

/* fk_cuckoo_hashed_ops' batch (cuckoo_batch.c): out[i] = the lookup of
 * the key whose hash is h[i].lo, on the lookups' pipeline. */
void fk_cuckoo_contains_many_hashed(const fk_filter *f, size_t n, const fk_hash128 h[],
                                    bool out[]);

/* Builds an empty filter of exactly `buckets` buckets and f-bit
 * fingerprints (no sizing) under hash scheme `scheme` (cuckoo_hash.h):
 * blocks, any buckets >= 1; chunks, whole chunks of 2^chunk_bits buckets;
 * or legacy, buckets a power of two (chunk_bits 0 but for chunks).
 * FK_EINVAL for any other geometry; otherwise the allocation rules of
 * fk_cuckoo_new. */
fk_status fk_cuckoo_create_exact(uint32_t scheme, uint64_t buckets, uint32_t chunk_bits, uint32_t f,
                                 uint64_t seed, uint64_t capacity, double fpr, fk_cuckoo **out);

/* True when the geometry is one fk_cuckoo_create_exact accepts (the
 * fingerprint width aside). Cost: O(1). */
bool fk_cuckoo_geometry_ok(uint32_t scheme, uint64_t buckets, uint32_t chunk_bits);

/* ------------------------------------------ lookups beside the writers
 * (cuckoo.c): a kick path adds 1 to c->moves before it moves
 * fingerprints and FK_CUCKOO_MOVES_DONE after; a lookup that missed while
 * it changed, or while a path ran, reads both buckets again. */

/* The move count a lookup starts from. */
static inline uint64_t fk_cuckoo_moves_seen(const fk_cuckoo *c)
{
    return atomic_load_explicit(&c->moves, memory_order_acquire);
}

/* True when no move ran during the reads that followed fk_cuckoo_moves_seen() == v,
 * so a miss then is a real miss. */
static inline bool fk_cuckoo_moves_settled(const fk_cuckoo *c, uint64_t v)
{
#if !FK_TSAN /* TSan builds: every slot load is an acquire itself (cuckoo_table.h) */
    atomic_thread_fence(memory_order_acquire); /* the bucket reads come first */
#endif
    return !(v & FK_CUCKOO_MOVES_ACTIVE) &&
           atomic_load_explicit(&c->moves, memory_order_relaxed) == v;
}

/* Nonzero when a move ran (or was running) during the reads that followed
 * fk_cuckoo_moves_seen() == v: fk_cuckoo_moves_settled without a branch,
 * for lookups that fold it into their one test. */
static inline uint64_t fk_cuckoo_moves_unsettled(const fk_cuckoo *c, uint64_t v)
{
#if !FK_TSAN
    atomic_thread_fence(memory_order_acquire);
#endif
    /* Paths running at v (low bits nonzero): while none has ended the
     * done count above is v's and some path still runs, and each end
     * raises the done count, so the value differs from v with its low
     * bits cleared; none running: it equals v iff no path ran since. */
    return atomic_load_explicit(&c->moves, memory_order_relaxed) ^ (v & ~FK_CUCKOO_MOVES_ACTIVE);
}

/* The re-read of a lookup that missed beside moves (cuckoo.c, out of line:
 * a single-threaded filter never comes here). */
bool fk_cuckoo_lookup_again(const fk_cuckoo *c, uint64_t i1, uint64_t i2, uint32_t fp);

/* ------------------------------------------ the kick walks' reads
 * (cuckoo.c's single writer with F 0, cuckoo_concurrent.c's writers with
 * the width a constant) */

/* Slot j of bucket b, width F (4..16) a constant, or any width for F 0. */
FK_CTAB_HOT uint32_t fk_cuckoo_get_w(const fk_ctab *t, uint64_t b, unsigned j, const unsigned F)
{
    if (!F)
        return fk_ctab_get(t, b, j);
    uint64_t bit = b * (4 * F) + (uint64_t)j * F;
    return (uint32_t)(fk_ctab_load64(t->bytes + (bit >> 3)) >> (bit & 7)) &
           (uint32_t)((UINT64_C(1) << F) - 1);
}

/* The first free slot of bucket b (-1: none), width F as fk_cuckoo_get_w's. */
FK_CTAB_HOT int fk_cuckoo_find_free_w(const fk_ctab *t, uint64_t b, const unsigned F)
{
    if (!F)
        return fk_ctab_find(t, b, 0);
    uint64_t m = fk_ctab_match_w(t, b, 0, F);
    return m ? fk_ctab_slot_of_bit((unsigned)__builtin_ctzll(m), F) : -1;
}

/* Is slot (b, s) on the first n steps of a kick path (bucket << 2 | slot)? */
static inline bool fk_cuckoo_on_path(const uint64_t *path, uint32_t n, uint64_t b, unsigned s)
{
    uint64_t key = b << 2 | s;
    for (uint32_t i = 0; i < n; i++)
        if (path[i] == key)
            return true;
    return false;
}

/* The slot of bucket b that step n of a kick walk evicts (path[0..n) its
 * steps so far), into *s, which holds the walk's random pick: the first
 * slot whose fingerprint has a free slot in its other bucket and is not on
 * the path (the four reads are independent, so their misses overlap; most
 * walks end at the first step), else the pick or the next slot after it
 * not on the path. False when every slot of b is on the path (the walk
 * gives up). Width F as fk_cuckoo_get_w's. */
FK_CTAB_HOT bool fk_cuckoo_walk_slot(const fk_cuckoo *c, const uint64_t *path, uint32_t n,
                                     uint64_t b, unsigned *s, const unsigned F)
{
    const fk_ctab *t = &c->table;
    for (unsigned j = 0; j < FK_CUCKOO_SLOTS; j++) {
        uint32_t v = fk_cuckoo_get_w(t, b, j, F);
        /* a concurrent walk reads beside other writers: at widths 4..16 a
         * slot emptied meanwhile is no pick (at F 0, a walk's caller reads
         * its pick again; the single writer's full buckets have none) */
        if ((!F || v) && fk_cuckoo_find_free_w(t, fk_cmap_alt(&c->map, b, v), F) >= 0 &&
            !fk_cuckoo_on_path(path, n, b, j)) {
            *s = j;
            break;
        }
    }
    if (n > 0 && fk_cuckoo_on_path(path, n, b, *s)) {
        for (unsigned d = 0; d < FK_CUCKOO_SLOTS && fk_cuckoo_on_path(path, n, b, *s); d++)
            *s = (*s + 1) & (FK_CUCKOO_SLOTS - 1);
        if (fk_cuckoo_on_path(path, n, b, *s))
            return false;
    }
    return true;
}

/* fk_cuckoo_insert / fk_cuckoo_remove of a key already placed (cuckoo.c),
 * statuses included (FK_EFULL with nothing lost; FK_ENOTFOUND): the
 * writer's part, which the batches call per key. */
fk_status fk_cuckoo_insert_placed(fk_cuckoo *c, const fk_cplace *k);
fk_status fk_cuckoo_remove_placed(fk_cuckoo *c, const fk_cplace *k);

/* ------------------------------------------ many writers
 * (cuckoo_concurrent.c; the design is described there). */

/* The concurrent batch's writer for c's width (cuckoo.c's choose_paths
 * stores it in c->cinsert_window): the concurrent inserts of k[0..span),
 * placed (and prefetched) beforehand, in order, each as the single call
 * (fk_cuckoo_cinsert_path): at widths 4..16 the same lock-free claim of a
 * free slot with the width a constant, else the same out-of-line rest
 * (stripes, kicks). Returns how many were stored before the first status
 * other than FK_OK, stored in *s (FK_EFULL: nothing lost, a partial path
 * may have moved fingerprints to their other buckets; FK_ENOMEM: the first
 * concurrent write could not make the locks); *s is left as it was when
 * all were. *added counts the keys stored by compare-and-swap (the caller
 * adds them to the count, fk_cuckoo_count_items, once per batch); one
 * stored under its stripe is counted there already. */
fk_cuckoo_cwindow_fn fk_cuckoo_cinsert_window_path(const fk_cuckoo *c);

/* The concurrent insert's body for c's scheme and width (cuckoo.c's
 * choose_paths stores it in c->cinsert): a lock-free fast path with the
 * width a constant, the rest out of line. */
fk_cuckoo_insert_fn fk_cuckoo_cinsert_path(const fk_cuckoo *c);

/* Adds delta to the concurrent writers' item count (stripes made). */
void fk_cuckoo_count_items(fk_cuckoo *c, int64_t delta);

/* The occupied slots and the evictions so far: the single writer's counts
 * plus the concurrent writers' (read once the writers are done). */
uint64_t fk_cuckoo_items(const fk_cuckoo *c);
uint64_t fk_cuckoo_kicks(const fk_cuckoo *c);

/* Bytes of the concurrent writers' locks: 0 until the first concurrent write. */
uint64_t fk_cuckoo_stripes_bytes(const fk_cuckoo *c);

/* Frees the concurrent writers' locks (fk_cuckoo_free). */
void fk_cuckoo_free_stripes(fk_cuckoo *c);

/* fk_ops slots (cuckoo.c's table). */
fk_status fk_cuckoo_slot_insert_concurrent(fk_filter *f, const void *key, size_t len);
fk_status fk_cuckoo_slot_remove_concurrent(fk_filter *f, const void *key, size_t len);
fk_status fk_cuckoo_slot_insert_many_concurrent(fk_filter *f, size_t n, const void *const keys[],
                                                const size_t lens[], size_t *done);
fk_status fk_cuckoo_slot_insert_many_u64_concurrent(fk_filter *f, size_t n,
                                                    const uint64_t keys[], size_t *done);

/* The saving hooks of fk_cuckoo_ops (cuckoo_serial.c; contracts in
 * common/serial.h). */
extern const fk_serial_ops fk_cuckoo_serial_ops;

/* Fills *out for key. Returns FK_OK, or FK_EINVAL for NULL c/out or key
 * NULL with len > 0. Cost: one hash. */
fk_status fk_cuckoo_locate(const fk_cuckoo *c, const void *key, size_t len,
                                  fk_cuckoo_location *out);

/* The fingerprint in slot `slot` (0..3) of bucket `bucket`; 0 when the
 * slot is empty, or for NULL c or out-of-range arguments. Cost: O(1). */
uint32_t fk_cuckoo_cell(const fk_cuckoo *c, uint64_t bucket, unsigned slot);

/* The other bucket of a fingerprint stored in `bucket` (the mapping in
 * cuckoo_hash.h); applying it twice gives bucket back. Returns 0 for NULL
 * c; bucket is taken modulo the bucket count, fp modulo 2^f. O(1). */
uint64_t fk_cuckoo_alt_bucket(const fk_cuckoo *c, uint64_t bucket, uint32_t fp);

/* The body of fk_filter_stats for this kind (what each field holds:
 * cuckoo.h, "Stats"). Internal: a user calls fk_filter_stats(
 * fk_cuckoo_as_filter(x), &out); the tests and the bench call this. */
void fk_cuckoo_stats(const fk_cuckoo *c, fk_stats *out);

#endif
