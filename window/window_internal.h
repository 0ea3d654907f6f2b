/* window/window_internal.h: the sliding window's layout, shared by the
 * files of this module (core, batches, serialization). Not installed.
 *
 * The table: `buckets` buckets of 4 slots, each slot w = f + 3 bits,
 * packed little-endian: slot j of bucket b is bits [(4b + j) w, (4b + j) w
 * + w) of the byte array. Inside a slot the low 3 bits are the generation
 * tag (the generation's number mod 8) and the high f bits the fingerprint
 * (1..2^f - 1); a slot of all zeros is empty. FK_WIN_PAD zero bytes follow
 * the buckets so every 64-bit load stays inside the allocation.
 *
 * Invariants (the loader checks them, window_serial.c):
 *   - a nonzero slot has a nonzero fingerprint and the tag of a live
 *     generation (every tag once 7 generations have passed; before, only
 *     the tags 0..generation);
 *   - the stash: keys whose cuckoo walk failed, kept beside the table
 *     (stash_n entries of {min(i1, i2), fp << 3 | tag}: a nonzero
 *     fingerprint, a live tag, no two alike); every sweep drops the
 *     retiring tag's entries and moves the rest into the table where room
 *     was freed, so it stays empty or tiny at the sized load;
 *   - slots[t] counts the nonzero slots and stash entries of tag t, live
 *     their sum, at most live_budget = 8L;
 *   - inserts[t] >= slots[t] (a slot of tag t was placed or refreshed by
 *     an insert of generation t); a count window's older live generations
 *     got exactly L inserts each and the current one fewer than L (the
 *     generation advances at the end of the insert that fills it);
 *   - a time window's clock: before the first advance now = boundary = 0
 *     and generation = 0; after it now <= FK_WINDOW_MAX_TIME, now <
 *     boundary <= now + D, and boundary = origin + (generation + 1) D for
 *     an origin >= 0 (the first advance's time), so boundary >= (generation
 *     + 1) D: no clock value ever wraps;
 *   - generation < FK_WINDOW_MAX_GENERATION; a time window's inserts[t] <=
 *     FK_WINDOW_MAX_INSERTS (the count saturates there).
 */
#ifndef FK_WINDOW_INTERNAL_H
#define FK_WINDOW_INTERNAL_H

#include <string.h>
#include "window.h"
#include "../common/endian.h"
#include "../common/hash.h"
#include "../common/tally.h"

#define FK_WIN_PAD     16u
#define FK_WIN_TAG_BITS 3u
#define FK_WIN_TAG_MASK 7u
/* Fingerprints up to this width keep a bucket in one 64-bit word (4w <= 64
 * bits, at a shift of 0 or 4), compared whole; wider ones slot by slot. */
#define FK_WIN_WORD_FP_BITS 13u
/* The second bucket's multiplier: 2^64 / golden ratio, odd. */
#define FK_WIN_FP_MUL UINT64_C(0x9e3779b97f4a7c15)
/* Words of stream state at the start of a saved payload. */
#define FK_WIN_STATE_WORDS 16u

/* A stashed key: its smaller bucket and its slot value. */
typedef struct {
    uint64_t bucket; /* min(i1, i2) */
    uint64_t slot;   /* fp << 3 | tag */
} fk_win_stashed;

struct fk_window {
    fk_filter base;        /* must stay first: an fk_window * is an fk_filter * */
    uint8_t  *bytes;       /* the packed buckets + FK_WIN_PAD */
    uint64_t  buckets;
    uint32_t  f;           /* fingerprint bits */
    uint32_t  w;           /* slot bits, f + 3 */
    uint32_t  bucket_bits; /* 4w */
    uint32_t  fp_mask;     /* 2^f - 1 */
    uint64_t  bucket_mask; /* the low 4w bits (f <= 13) */
    uint64_t  ones;        /* bit 0 of each slot of a bucket word */
    uint64_t  fp_ones;     /* bit 3 (the fingerprint's low bit) of each slot */
    uint64_t  fp_fields;   /* the fingerprint bits of every slot */
    uint64_t  tag_fields;  /* the tag bits of every slot */
    uint64_t  high;        /* the top bit of each slot */
    uint64_t  slot_mask;   /* 2^w - 1 */
    uint64_t  seed;
    uint64_t  hash8;       /* fk_hash8_flip64(seed) */
    uint64_t  capacity;    /* N: the window (count) or the keys per window (time) */
    double    fpr;
    uint64_t  gen_len;     /* L = ceil(N / 7): a count generation's inserts */
    uint64_t  live_budget; /* 8L */
    uint64_t  span;        /* time: T; count: 0 */
    uint64_t  gen_span;    /* time: D = ceil(T / 7); count: 0 */
    uint32_t  clock;       /* time: FK_CLOCK_CALLER or FK_CLOCK_UNIX_NS; count: 0 */
    bool      timed;
    bool      clock_set;
    uint64_t  now;         /* time: the clock */
    uint64_t  boundary;    /* time: when the next generation starts */
    uint64_t  generation;  /* the current generation (its tag: & 7) */
    fk_win_stashed *stash; /* stash_cap entries, stash_n used (NULL when 0) */
    uint64_t  stash_n, stash_cap;
    uint64_t  rng;         /* eviction PRNG (splitmix64), from the seed */
    /* the byte lookup for this width (constants folded; window.c), with the
     * contains slot's signature and checks, so the slot jumps straight here */
    bool    (*lookup)(const fk_filter *f, const void *key, size_t len);
    /* the insert from a hash, and the cuckoo walk, for this width */
    fk_status (*insert_h)(fk_window *w, uint64_t h);
    bool      (*kick)(fk_window *w, uint64_t b1, uint64_t b2, uint64_t v);
    uint64_t  swept_last, swept_total;
    /* The concurrent calls' locks (window.c, "many writers"): `writer`
     * orders the global steps (a generation's start under writers, the
     * slow insert, the lock array's allocation); `locks`, NULL until the
     * first concurrent call, a lock byte per region of the table (64
     * bytes, more for tables over 64 KiB: window.c), each on a line of its
     * own. */
    _Atomic unsigned char writer;
    _Atomic(unsigned char *) locks;
    uint32_t  region_shift; /* a region's bytes: 2^region_shift (set with locks) */
    /* The concurrent inserts' counts, a row per thread (fields FK_WIN_C_*,
     * window.c): folded into the fields below by every global step, every
     * generation's start, and the readers of the counts (describe, stats,
     * saving: fk_win_settle). */
    fk_tallies c_counts;
    /* Above: what every call reads and only the plain writers and the
     * global steps write. Below: the counts a concurrent insert changes
     * (atomic adds), on lines of their own, so that those adds do not
     * evict the fields above from the other cores. */
    char      line_gap[64];
    uint64_t  live;        /* nonzero slots + stash entries */
    uint64_t  slots[FK_WINDOW_GENERATIONS];   /* nonzero slots per tag */
    uint64_t  inserts[FK_WINDOW_GENERATIONS]; /* inserts per tag's generation */
    uint64_t  kicks, refreshed, refused;
};

/* ------------------------------------------------------- key -> place */

/* The key's one hash: common/hash.h's fk_hash64 with w's seed. */
static inline uint64_t fk_win_hash(const fk_window *w, const void *key, size_t len)
{
    return fk_hash64(key, len, &w->seed, &w->hash8);
}

static inline uint64_t fk_win_mulhi(uint64_t a, uint64_t b)
{
    return (uint64_t)(((unsigned __int128)a * b) >> 64);
}

/* A key's fingerprint and buckets. */
typedef struct {
    uint64_t i1, i2;
    uint32_t fp;
} fk_win_place;

/* The other bucket of fingerprint fp in bucket b: s(fp) - b mod buckets,
 * which maps b to i2 and i2 back to b for any bucket count. */
static inline uint64_t fk_win_alt(const fk_window *w, uint64_t b, uint32_t fp)
{
    uint64_t s = fk_win_mulhi((uint64_t)fp * FK_WIN_FP_MUL, w->buckets);
    /* s, b < buckets <= 2^58: s - b is negative as a signed word iff s < b */
    uint64_t d = s - b;
    return (int64_t)d < 0 ? d + w->buckets : d;
}

/* From the hash: fp uniform over 1..2^f - 1 from the low 32 bits, i1 the
 * multiply-high of the whole hash. */
static inline fk_win_place fk_win_place_of(const fk_window *w, uint64_t h)
{
    fk_win_place p;
    p.fp = (uint32_t)(((h & 0xFFFFFFFFu) * w->fp_mask) >> 32) + 1;
    p.i1 = fk_win_mulhi(h, w->buckets);
    p.i2 = fk_win_alt(w, p.i1, p.fp);
    return p;
}

/* ------------------------------------------------------------ buckets */

/* Slot j of bucket b (any width: w + 7 <= 39 bits fit one load). */
static inline uint64_t fk_win_get(const fk_window *w, uint64_t b, unsigned j)
{
    uint64_t bit = (4 * b + j) * w->w;
    return (fk_load_le64(w->bytes + (bit >> 3)) >> (bit & 7)) & w->slot_mask;
}

static inline void fk_win_set(fk_window *w, uint64_t b, unsigned j, uint64_t v)
{
    uint64_t bit = (4 * b + j) * w->w;
    uint8_t *p = w->bytes + (bit >> 3);
    unsigned sh = (unsigned)(bit & 7);
    uint64_t x = fk_load_le64(p);
    x = (x & ~(w->slot_mask << sh)) | (v << sh);
    fk_store_le64(p, x);
}

/* f <= 13: bucket b's 4w bits as one word. */
static inline uint64_t fk_win_bucket(const fk_window *w, uint64_t b)
{
    uint64_t bit = b * w->bucket_bits;
    return (fk_load_le64(w->bytes + (bit >> 3)) >> (bit & 7)) & w->bucket_mask;
}

static inline void fk_win_put_bucket(fk_window *w, uint64_t b, uint64_t v)
{
    uint64_t bit = b * w->bucket_bits;
    uint8_t *p = w->bytes + (bit >> 3);
    unsigned sh = (unsigned)(bit & 7);
    uint64_t x = fk_load_le64(p);
    x = (x & ~(w->bucket_mask << sh)) | (v << sh);
    fk_store_le64(p, x);
}

/* Nonzero when a slot of bucket word v holds fingerprint fp (any tag):
 * the top bit of the lowest such slot is the lowest bit set ("has a zero
 * field" on the fingerprint bits, the tags masked off). */
static inline uint64_t fk_win_match(const fk_window *w, uint64_t v, uint32_t fp)
{
    uint64_t x = (v ^ ((uint64_t)fp * w->fp_ones)) & w->fp_fields;
    return (x - w->fp_ones) & ~x & w->high;
}

/* Nonzero when bucket word v has an empty slot (lowest exact, as above). */
static inline uint64_t fk_win_free_mask(const fk_window *w, uint64_t v)
{
    return (v - w->ones) & ~v & w->high;
}

/* The slot (0..3) whose top bit is `bit`. */
static inline unsigned fk_win_slot_of_bit(const fk_window *w, unsigned bit)
{
    return (bit >= w->w) + (bit >= 2 * w->w) + (bit >= 3 * w->w);
}

/* Index of the lowest slot of bucket b holding fp (any tag), or -1. */
static inline int fk_win_find(const fk_window *w, uint64_t b, uint32_t fp)
{
    if (w->f <= FK_WIN_WORD_FP_BITS) {
        uint64_t m = fk_win_match(w, fk_win_bucket(w, b), fp);
        return m ? (int)fk_win_slot_of_bit(w, (unsigned)__builtin_ctzll(m)) : -1;
    }
    for (unsigned j = 0; j < 4; j++)
        if ((fk_win_get(w, b, j) >> FK_WIN_TAG_BITS) == fp)
            return (int)j;
    return -1;
}

/* Index of the lowest empty slot of bucket b, or -1. */
static inline int fk_win_find_free(const fk_window *w, uint64_t b)
{
    if (w->f <= FK_WIN_WORD_FP_BITS) {
        uint64_t m = fk_win_free_mask(w, fk_win_bucket(w, b));
        return m ? (int)fk_win_slot_of_bit(w, (unsigned)__builtin_ctzll(m)) : -1;
    }
    for (unsigned j = 0; j < 4; j++)
        if (fk_win_get(w, b, j) == 0)
            return (int)j;
    return -1;
}

/* The stash entry of a key's fingerprint and buckets, or -1 (out of line:
 * only read while the stash is not empty, window.c). */
int64_t fk_win_stash_find(const fk_window *w, const fk_win_place *p);
/* True when the stash holds the fingerprint and buckets of hash h (a tail
 * call from the lookups, which keep only h alive for it). */
bool fk_win_stash_has_hash(const fk_window *w, uint64_t h);

/* The lookup: either bucket holds fp, or the stash does. Every tag in the
 * table is live, so no tag is tested. */
static inline bool fk_win_has(const fk_window *w, const fk_win_place *p)
{
    bool hit;
    if (__builtin_expect(w->f <= FK_WIN_WORD_FP_BITS, 1))
        hit = (fk_win_match(w, fk_win_bucket(w, p->i1), p->fp) |
               fk_win_match(w, fk_win_bucket(w, p->i2), p->fp)) != 0;
    else
        hit = fk_win_find(w, p->i1, p->fp) >= 0 || fk_win_find(w, p->i2, p->fp) >= 0;
    if (__builtin_expect(w->stash_n != 0, 0))
        hit = hit || fk_win_stash_find(w, p) >= 0;
    return hit;
}

/* Where bucket b's word starts at slot width W, a constant: bit 4Wb is
 * byte (Wb) / 2, at a shift of 4 (b odd) or 0 when W is odd, and byte
 * (W / 2) b, at no shift, when W is even (cheaper than 4Wb >> 3, & 7). */
static inline __attribute__((always_inline)) uint64_t fk_win_word_byte(uint64_t b, unsigned W)
{
    return (W & 1) ? (b * W) >> 1 : b * (W >> 1);
}

static inline __attribute__((always_inline)) unsigned fk_win_word_shift(uint64_t b, unsigned W)
{
    return (W & 1) ? (unsigned)(b & 1) << 2 : 0;
}

/* fk_win_place_of with the width a constant F. */
static inline __attribute__((always_inline)) fk_win_place fk_win_place_w(const fk_window *w,
                                                                         uint64_t h, unsigned F)
{
    fk_win_place p;
    (void)F; /* the mask from the struct: one imul, not a shift and a subtract */
    p.fp = (uint32_t)(((h & 0xFFFFFFFFu) * w->fp_mask) >> 32) + 1;
    p.i1 = fk_win_mulhi(h, w->buckets);
    p.i2 = fk_win_alt(w, p.i1, p.fp);
    return p;
}

/* fk_win_has with the width a constant F <= 13 (every mask and shift
 * folded), from the hash: two bucket words, the stash test. */
static inline __attribute__((always_inline)) bool fk_win_has_hash_w(const fk_window *w,
                                                                    uint64_t h, unsigned F)
{
    const fk_win_place p = fk_win_place_w(w, h, F);
    const unsigned W = F + FK_WIN_TAG_BITS;
    const uint64_t ones = 1 | UINT64_C(1) << W | UINT64_C(1) << 2 * W | UINT64_C(1) << 3 * W;
    const uint64_t fp_ones = ones << FK_WIN_TAG_BITS, high = ones << (W - 1);
    /* No mask: neither the bits above the bucket nor the tags between the
     * fingerprints (x's tag bits are v's) change the zero-field test on
     * the fingerprint fields, whose borrows run only upwards: a borrow
     * crosses into the next field only out of a field that matched. */
    const uint64_t v1 = fk_load_le64(w->bytes + fk_win_word_byte(p.i1, W)) >>
                        fk_win_word_shift(p.i1, W);
    const uint64_t v2 = fk_load_le64(w->bytes + fk_win_word_byte(p.i2, W)) >>
                        fk_win_word_shift(p.i2, W);
    const uint64_t want = (uint64_t)p.fp * fp_ones;
    const uint64_t x1 = v1 ^ want, x2 = v2 ^ want;
    /* x - fp_ones as x + (-fp_ones) with the constant in a register the
     * compiler cannot see into: one lea per bucket, not a move and a
     * subtract */
    uint64_t minus = 0 - fp_ones;
#if defined(__GNUC__) || defined(__clang__)
    __asm__("" : "+r"(minus));
#endif
    bool hit = (((x1 + minus) & ~x1) | ((x2 + minus) & ~x2)) & high;
    if (__builtin_expect((w->stash_n != 0) & !hit, 0))
        return fk_win_stash_has_hash(w, h);
    return hit;
}

/* The first byte of bucket b, for prefetching. */
static inline const uint8_t *fk_win_bucket_addr(const fk_window *w, uint64_t b)
{
    return w->bytes + ((b * w->bucket_bits) >> 3);
}

/* Bytes of the packed buckets (no pad). */
static inline uint64_t fk_win_table_bytes(uint64_t buckets, uint32_t w)
{
    return (buckets * 4 * w + 7) / 8;
}

/* ------------------------------------------------------------- writers */

/* fk_window_insert from the key's hash (window.c), statuses included: the
 * path chosen for the width at creation. */
static inline fk_status fk_win_insert_hash(fk_window *w, uint64_t h)
{
    return w->insert_h(w, h);
}

/* Folds the concurrent inserts' per-thread counts into w's fields, under
 * the writer lock (a reader of the counts calls it first: describe, stats,
 * saving; not beside concurrent writers, as every such reader). */
void fk_win_settle(const fk_window *w);

/* Empties the table and every count: the generation goes on (window.c). */
void fk_win_clear(fk_window *w);

/* An empty window of exactly this geometry (no sizing): buckets >= 1, f in
 * 4..29, gen_len >= 1; span 0 (count) or > 0 (time, gen_span =
 * ceil(span / 7)). FK_EINVAL for anything else or a table over
 * FK_MEMORY_CAP; FK_ENOMEM. */
fk_status fk_win_create_exact(uint64_t buckets, uint32_t f, uint64_t capacity, double fpr,
                              uint64_t span, uint64_t seed, fk_window **out);

/* L = ceil(n / 7). */
static inline uint64_t fk_win_gen_len(uint64_t n)
{
    return n / FK_WINDOW_SPAN_GENERATIONS + (n % FK_WINDOW_SPAN_GENERATIONS != 0);
}

/* The theory: 1 - (1 - 1/(2^f - 1))^(8 load). */
double fk_win_theory_fpr(uint32_t f, double load);

/* ------------------------------------------------- tracing / teaching */

/* Where a key lives and what it matches. */
typedef struct {
    uint64_t hash;
    uint32_t fingerprint;
    uint64_t i1, i2;
    int      bucket;      /* 1 or 2: the bucket holding its fingerprint; 3 the
                             stash (slot: the entry); 0 none */
    int      slot;        /* 0..3 when found, else -1 */
    uint64_t generation;  /* the generation of that slot (when found) */
    uint64_t age;         /* generations back from the current one (0 = current) */
} fk_window_location;

/* Fills *out for key. FK_OK, or FK_EINVAL for NULL w/out or key NULL with
 * len > 0. Cost: one hash. */
fk_status fk_window_locate(const fk_window *w, const void *key, size_t len,
                           fk_window_location *out);

/* fk_window_describe / fk_window_stats as they would read after
 * fk_window_advance(w, now), without changing w (the reads of a server
 * that answers as of its clock: FK.INFO). Every field is the advance's
 * but two: `kicks` stays as it is and `stashed` counts the stash entries
 * that survive the sweeps (the advance may also move some of them into
 * the room its sweeps free: at most this). A `now` the advance would
 * refuse, or a count window: describe / stats as they are. Cost: O(1),
 * plus one pass over the stash. */
void fk_win_describe_at(const fk_window *w, uint64_t now, fk_window_description *out);
void fk_win_stats_at(const fk_window *w, uint64_t now, fk_stats *out);

/* The batch slots (window_batch.c). */
#include "../common/pipeline.h"
FK_BATCH_SLOTS_DECLARE(fk_window);

/* The saving hooks (window_serial.c). */
extern const fk_serial_ops fk_window_serial_ops;

/* The body of fk_filter_stats for this kind. */
void fk_window_stats(const fk_window *w, fk_stats *out);

#endif
