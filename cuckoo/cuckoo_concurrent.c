/* cuckoo/cuckoo_concurrent.c: many writers on one cuckoo filter
 * (fk_filter_insert_concurrent, _remove_concurrent, the concurrent batches),
 * beside lock-free lookups.
 *
 * The design (libcuckoo: Li, Andersen, Kaminsky, Freedman, EuroSys 2014;
 * PAPER_NOTES "Concurrent cuckoo"):
 *
 * - Locks: an array of spin locks ("stripes", up to FK_CUCKOO_STRIPES_MAX,
 *   one cache line each, made by the first concurrent write); bucket b is
 *   guarded by stripe b & mask. An operation holds at most two, taken in
 *   stripe order, so no two writers wait on each other in a cycle.
 * - Slot writes: buckets are packed at any bit offset, so a slot write is
 *   a compare-and-swap of the aligned 64-bit word(s) that hold the slot,
 *   changing the slot's bits only; a neighbour bucket's writer, under
 *   another stripe, never loses an update to it.
 * - Inserts that find a free slot take no lock: where a bucket lies inside
 *   one aligned 64-bit word (4f divides 64: 4-, 8- and 16-bit
 *   fingerprints) one compare-and-swap of that word takes its first free
 *   slot; at other widths one compare-and-swap of the aligned word holding
 *   the first free slot takes it from empty (when that slot straddles two
 *   words, a later free slot that does not). Only when a bucket's free
 *   slots all straddle two words (at most one slot of a bucket does, about
 *   f/64 of the slots at those widths) is one written under its stripe.
 * - Kicks end by writing the new key's fingerprint over the path's first
 *   slot, under that step's stripes, so a kicking insert looks for no free
 *   slot again.
 * - Kicks: the path is searched without locks (the single writer's random
 *   walk, on a generator of its own), then carried out from its free end
 *   back, one step at a time under the two stripes of the step's buckets:
 *   the step re-reads the fingerprint it is to move and takes a free slot
 *   in its other bucket (compare-and-swap from empty), copies it there,
 *   then empties the old slot. A step whose reads changed stops the path
 *   (the steps done only moved fingerprints to their other buckets) and
 *   the insert starts over. Every fingerprint stays in one of its buckets
 *   at every moment, and the path counter (c->moves, cuckoo.c) makes a
 *   lookup that missed while a path ran look again, so a concurrent
 *   lookup never misses an acknowledged key.
 * - Removes take both stripes of the key's buckets, so no step can be
 *   moving the fingerprint between them, then empty its slot with a
 *   compare-and-swap (a lock-free insert may be filling another slot of
 *   the same word).
 * - Counts: the lock-free inserts and the kick walks' steps count in a
 *   row per thread (common/tally.h, no line shared, none beside the
 *   bucket's written); each stripe keeps the items its holders added or
 *   removed (under it, so with plain stores); the filter's figures are the
 *   single writer's plus their sums.
 * - Fast path: an insert whose first free slot (in either bucket) lies in
 *   one aligned word is one relaxed load of its bucket, one of the word and
 *   one compare-and-swap, with the scheme and width constants (a function
 *   per scheme and width, as cuckoo.c's plain inserts); it reads neither
 *   the stripes nor the kick state. Anything else goes out of line.
 * - Batches: cuckoo_batch.c hashes a window of keys and prefetches their
 *   buckets, then hands the window to the writer chosen for the width
 *   (cwindow_w): each key's fast path as the single call's, the rest out
 *   of line, the items summed for one count per call.
 *
 * Memory orders (why each is enough):
 * - Slot compare-and-swaps are relaxed. A slot's bits carry no other data:
 *   a lookup that must find a key runs after that key's insert returned,
 *   ordered by the caller's own synchronisation (common/atomic.h); two
 *   writers of one word are ordered by the word's modification order (the
 *   compare-and-swap fails on any change); steps that must not interleave
 *   (a path's step, a remove) hold stripes, whose acquire exchange and
 *   release store order what they hold. (ThreadSanitizer builds, which do
 *   not model fences, make them acq_rel.)
 * - A path adds 1 to c->moves (relaxed) and then issues a release fence
 *   before its first slot write; a lookup reads moves (acquire), its
 *   buckets, an acquire fence, moves again (cuckoo_internal.h). A lookup
 *   that read any slot a path wrote synchronises through the two fences
 *   with the add, so it sees moves changed and looks again. The path's end
 *   adds FK_CUCKOO_MOVES_DONE with release, so a lookup that sees it
 *   (acquire) sees every slot the path wrote.
 */
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include "cuckoo_internal.h"
#include "../common/hash.h"
#include "../common/pipeline.h"
#include "../common/tally.h"

/* Stripes at most (64 KiB of locks), and about one per 8 buckets below. */
#define FK_CUCKOO_STRIPES_MAX 1024u

/* The order of a slot's compare-and-swap on success (see the top). */
#if FK_TSAN
#define SLOT_CAS_ORDER memory_order_acq_rel
#else
#define SLOT_CAS_ORDER memory_order_relaxed
#endif

/* Times an insert starts over (its free slot taken by another writer, or a
 * path step's reads changed) before it answers FK_EFULL. */
#define CINSERT_ATTEMPTS 32u

typedef struct {
    _Alignas(64) _Atomic uint32_t lock; /* 0 free, 1 held */
    _Atomic int64_t held_items;         /* inserts less removes made holding this stripe:
                                           changed only under it, so without a locked add */
} stripe;

struct fk_cuckoo_stripes {
    uint64_t mask; /* stripes - 1 */
    stripe   s[];
};

_Static_assert(sizeof(stripe) == 64, "a stripe is one cache line");

/* ------------------------------------------------------------- stripes */

__attribute__((noinline, cold)) static fk_cuckoo_stripes *make_stripes(fk_cuckoo *c)
{
    uint64_t n = 1;
    while (n < FK_CUCKOO_STRIPES_MAX && n * 8 < c->table.buckets)
        n <<= 1;
    size_t bytes = sizeof(fk_cuckoo_stripes) + n * sizeof(stripe);
    bytes = (bytes + 63) & ~(size_t)63;
    fk_cuckoo_stripes *st = aligned_alloc(64, bytes);
    if (!st)
        return NULL;
    memset(st, 0, bytes);
    st->mask = n - 1;
    /* Several first writers may race here: one table wins, the others free theirs. */
    fk_cuckoo_stripes *none = NULL;
    if (!atomic_compare_exchange_strong_explicit(&c->stripes, &none, st, memory_order_acq_rel,
                                                 memory_order_acquire)) {
        free(st);
        return none;
    }
    return st;
}

static inline fk_cuckoo_stripes *stripes_of(fk_cuckoo *c)
{
    fk_cuckoo_stripes *st = atomic_load_explicit(&c->stripes, memory_order_acquire);
    return st ? st : make_stripes(c);
}

void fk_cuckoo_free_stripes(fk_cuckoo *c)
{
    free(atomic_load_explicit(&c->stripes, memory_order_relaxed));
    fk_tally_release(&c->c_items);
    fk_tally_release(&c->c_kicks);
}

void fk_cuckoo_count_items(fk_cuckoo *c, int64_t delta)
{
    fk_tally_add(&c->c_items, (uint64_t)delta);
}

uint64_t fk_cuckoo_items(const fk_cuckoo *c)
{
    uint64_t n = c->items + fk_tally_sum(&c->c_items);
    const fk_cuckoo_stripes *st = atomic_load_explicit(&c->stripes, memory_order_acquire);
    if (st)
        for (uint64_t i = 0; i <= st->mask; i++)
            n += (uint64_t)atomic_load_explicit(&st->s[i].held_items, memory_order_relaxed);
    return n;
}

uint64_t fk_cuckoo_stripes_bytes(const fk_cuckoo *c)
{
    const fk_cuckoo_stripes *st = atomic_load_explicit(&c->stripes, memory_order_acquire);
    return (st ? ((sizeof *st + (st->mask + 1) * sizeof(stripe) + 63) & ~(uint64_t)63) : 0) +
           fk_tally_bytes(&c->c_items) + fk_tally_bytes(&c->c_kicks);
}

uint64_t fk_cuckoo_kicks(const fk_cuckoo *c)
{
    return c->kicks + fk_tally_sum(&c->c_kicks);
}

/* Spin, then yield: on a machine with more threads than cores the holder
 * may be waiting for this core. */
static inline void lock(stripe *s)
{
    for (unsigned spins = 0;; spins++) {
        if (!atomic_load_explicit(&s->lock, memory_order_relaxed) &&
            !atomic_exchange_explicit(&s->lock, 1, memory_order_acquire))
            return;
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
        if ((spins & 63) == 63)
            sched_yield();
    }
}

/* Adds delta to s's held_items; the caller holds s. */
static inline void count_held(stripe *s, int64_t delta)
{
    int64_t v = atomic_load_explicit(&s->held_items, memory_order_relaxed);
    atomic_store_explicit(&s->held_items, v + delta, memory_order_relaxed);
}

static inline void unlock(stripe *s)
{
    atomic_store_explicit(&s->lock, 0, memory_order_release);
}

/* The stripes of buckets b1 and b2, locked in stripe order (once when they
 * share one). */
static inline void lock2(fk_cuckoo_stripes *st, uint64_t b1, uint64_t b2)
{
    uint64_t i = b1 & st->mask, j = b2 & st->mask;
    if (i == j) {
        lock(&st->s[i]);
        return;
    }
    lock(&st->s[i < j ? i : j]);
    lock(&st->s[i < j ? j : i]);
}

static inline void unlock2(fk_cuckoo_stripes *st, uint64_t b1, uint64_t b2)
{
    uint64_t i = b1 & st->mask, j = b2 & st->mask;
    unlock(&st->s[i]);
    if (i != j)
        unlock(&st->s[j]);
}

/* ------------------------------------------------- slot compare-and-swap */

/* The table is little-endian bytes; a word read natively is converted. */
static inline uint64_t le_word(uint64_t x)
{
#if FK_HOST_LITTLE_ENDIAN
    return x;
#else
    return __builtin_bswap64(x);
#endif
}

/* The aligned 64-bit word holding bit `bit` of the table (64-byte aligned
 * storage; FK_CTAB_PAD keeps the word after the last bucket's inside). */
static inline _Atomic uint64_t *word_at(const fk_ctab *t, uint64_t bit)
{
    return (_Atomic uint64_t *)(void *)(t->bytes + ((bit >> 6) << 3));
}

/* The bits of mask in *w: from old to v (both within mask), the other bits
 * as they are; false (nothing written) when they do not hold old. */
static bool replace_bits(_Atomic uint64_t *w, uint64_t mask, uint64_t old, uint64_t v)
{
    uint64_t cur = atomic_load_explicit(w, memory_order_relaxed);
    for (;;) {
        uint64_t x = le_word(cur);
        if ((x & mask) != old)
            return false;
        if (atomic_compare_exchange_weak_explicit(w, &cur, le_word((x & ~mask) | v),
                                                  SLOT_CAS_ORDER, memory_order_relaxed))
            return true;
    }
}

/* Slot j of bucket b from old to v; false (nothing written) when it does
 * not hold old. A slot across two words (widths other than 4, 8, 16, all
 * written under their stripe) is written low part first. */
static inline bool slot_replace(fk_ctab *t, uint64_t b, unsigned j, uint32_t old, uint32_t v)
{
    uint64_t bit = b * t->bucket_bits + (uint64_t)j * t->f;
    unsigned sh = (unsigned)(bit & 63);
    _Atomic uint64_t *w = word_at(t, bit);
    uint64_t m = (uint64_t)t->fp_mask << sh;
    if (!replace_bits(w, m, (uint64_t)old << sh, (uint64_t)v << sh))
        return false;
    if (sh + t->f > 64) {
        unsigned lo = 64 - sh;
        if (!replace_bits(w + 1, t->fp_mask >> lo, old >> lo, v >> lo)) {
            replace_bits(w, m, (uint64_t)v << sh, (uint64_t)old << sh);
            return false;
        }
    }
    return true;
}

/* True when a bucket lies inside one aligned 64-bit word (4f divides 64). */
static inline bool word_buckets(const fk_ctab *t)
{
    return 64 % t->bucket_bits == 0;
}

/* fp into a free slot of bucket b with one compare-and-swap of its word
 * (word_buckets only); false when the bucket is full. */
static inline bool place_cas(fk_ctab *t, uint64_t b, uint32_t fp)
{
    uint64_t bit = b * t->bucket_bits;
    unsigned sh = (unsigned)(bit & 63);
    _Atomic uint64_t *w = word_at(t, bit);
    uint64_t cur = atomic_load_explicit(w, memory_order_relaxed);
    for (;;) {
        uint64_t x = le_word(cur);
        uint64_t free = fk_ctab_zero_fields64((x >> sh) & t->bucket_mask, t->ones, t->highs);
        if (!free)
            return false;
        unsigned j = (unsigned)fk_ctab_slot_of_bit((unsigned)__builtin_ctzll(free), t->f);
        uint64_t next = x | (uint64_t)fp << (sh + j * t->f);
        if (atomic_compare_exchange_weak_explicit(w, &cur, le_word(next), SLOT_CAS_ORDER,
                                                  memory_order_relaxed))
            return true;
    }
}

/* fp into a free slot of bucket b under its stripe, counted there; false
 * when full. */
static bool place_locked(fk_ctab *t, fk_cuckoo_stripes *st, uint64_t b, uint32_t fp)
{
    stripe *s = &st->s[b & st->mask];
    lock(s);
    int j = fk_ctab_find(t, b, 0);
    bool ok = j >= 0 && slot_replace(t, b, (unsigned)j, 0, fp);
    if (ok)
        count_held(s, 1);
    unlock(s);
    return ok;
}

/* Free-slot claims that fail (another writer took the slot) before
 * place_slot gives up on the bucket for this attempt. */
#define SLOT_CLAIMS 4u

/* fp into a free slot of bucket b at widths where a bucket may straddle
 * two words: a free slot inside one aligned 64-bit word (all but about
 * f/64 of them) is claimed by one compare-and-swap of that word from
 * empty, no lock, *added counting it; a free slot that straddles two words
 * is written under the bucket's stripe (a two-word write is not atomic,
 * and only that stripe's holder writes a straddling slot from empty).
 * False when the bucket looks full. */
static inline bool place_slot(fk_ctab *t, fk_cuckoo_stripes *st, uint64_t b, uint32_t fp,
                              int64_t *added)
{
    for (unsigned claims = 0; claims < SLOT_CLAIMS; claims++) {
        int j = fk_ctab_find(t, b, 0);
        if (j < 0)
            return false; /* looks full (a slot freed meanwhile only costs a kick) */
        uint64_t bit = b * t->bucket_bits + (uint64_t)j * t->f;
        unsigned sh = (unsigned)(bit & 63);
        if (sh + t->f > 64)
            return place_locked(t, st, b, fp);
        if (replace_bits(word_at(t, bit), (uint64_t)t->fp_mask << sh, 0, (uint64_t)fp << sh)) {
            ++*added;
            return true;
        }
    }
    return false;
}

/* fp into a free slot of bucket b; false when it looks full. */
static inline bool place_free(fk_ctab *t, fk_cuckoo_stripes *st, bool cas, uint64_t b,
                              uint32_t fp, int64_t *added)
{
    if (cas) {
        if (!place_cas(t, b, fp))
            return false;
        ++*added;
        return true;
    }
    return place_slot(t, st, b, fp, added);
}

/* ------------------------------------------------------------- kicking */

/* splitmix64, as cuckoo.c's kick generator, on a state of the caller's. */
static inline uint64_t rng_next(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* Carries out path[0..last] (bucket << 2 | slot; moved[i] the fingerprint
 * read there), whose last fingerprint goes to bucket `to`, from the free
 * end back, each step under the stripes of its two buckets; the first
 * step's slot (in one of the new key's buckets) then takes fp in place of
 * the fingerprint it moved, under the same stripes, counted there. True
 * when fp was stored; false when the path stopped at a step whose slot no
 * longer held its fingerprint or whose other bucket had no free slot left. */
FK_CTAB_HOT bool carry_out(fk_cuckoo *c, fk_cuckoo_stripes *st, const uint64_t *path,
                           const uint32_t *moved, uint32_t last, uint64_t to, uint32_t fp,
                           const unsigned F)
{
    bool stored = false;
    fk_ctab *t = &c->table;
    atomic_fetch_add_explicit(&c->moves, 1, memory_order_relaxed);
#if !FK_TSAN /* TSan builds (no fences there): every slot CAS is acq_rel itself (SLOT_CAS_ORDER) */
    atomic_thread_fence(memory_order_release); /* the add before any slot write (see the top) */
#endif
    for (uint32_t i = last;; i--) {
        uint64_t from = path[i] >> 2, dest = i == last ? to : path[i + 1] >> 2;
        unsigned s = (unsigned)(path[i] & 3);
        lock2(st, from, dest);
        bool ok = fk_cuckoo_get_w(t, from, s, F) == moved[i];
        int j = ok ? fk_cuckoo_find_free_w(t, dest, F) : -1;
        ok = j >= 0 && slot_replace(t, dest, (unsigned)j, 0, moved[i]);
        /* cannot fail: only this stripe's holder changes a full slot */
        if (ok && i > 0)
            slot_replace(t, from, s, moved[i], 0);
        if (ok && i == 0) {
            stored = slot_replace(t, from, s, moved[i], fp);
            if (stored)
                count_held(&st->s[from & st->mask], 1);
        }
        unlock2(st, from, dest);
        if (!ok || i == 0)
            break;
    }
    atomic_fetch_add_explicit(&c->moves, FK_CUCKOO_MOVES_DONE, memory_order_release);
    return stored;
}

/* kick's answers. */
enum { KICK_STORED, KICK_AGAIN, KICK_FULL };

/* Both buckets of k looked full: search a path without locks (cuckoo.c's
 * random walk, reads only) and carry it out, k's fingerprint into the
 * path's first slot. KICK_STORED when it was stored (counted); KICK_AGAIN
 * when the path stopped or a slot freed meanwhile (the caller looks for a
 * free slot again); KICK_FULL when no path within c->max_kicks steps. */
FK_CTAB_HOT int kick_w(fk_cuckoo *c, fk_cuckoo_stripes *st, const fk_cplace *k, unsigned attempt,
                       const unsigned F)
{
    const fk_ctab *t = &c->table;
    uint64_t path[FK_CUCKOO_MAX_KICKS];
    uint32_t moved[FK_CUCKOO_MAX_KICKS];
    uint64_t rng = fk_mix64(k->i1 ^ (uint64_t)k->fp << 40 ^ c->seed) + attempt;
    uint64_t b = (rng_next(&rng) & 1) ? k->i2 : k->i1;
    uint32_t limit = c->max_kicks;
    int result = KICK_FULL;
    uint32_t steps = 0;
    for (uint32_t n = 0; n < limit; n++) {
        /* the reads are the walk's own (no lock): a slot emptied meanwhile
         * may be picked, and is read again below */
        unsigned s = (unsigned)(rng_next(&rng) >> 62);
        if (!fk_cuckoo_walk_slot(c, path, n, b, &s, F))
            break;
        uint32_t victim = fk_cuckoo_get_w(t, b, s, F);
        steps = n + 1;
        if (!victim) { /* emptied since the caller looked: try again from the top */
            result = KICK_AGAIN;
            break;
        }
        uint64_t to = fk_cmap_alt(&c->map, b, victim);
        path[n] = b << 2 | s;
        moved[n] = victim;
        if (fk_cuckoo_find_free_w(t, to, F) >= 0) {
            result = carry_out(c, st, path, moved, n, to, k->fp, F) ? KICK_STORED : KICK_AGAIN;
            break;
        }
        b = to;
    }
    fk_tally_add(&c->c_kicks, steps);
    return result;
}

/* kick_w with the width a constant (one per width 4..16), or any width. */
#define FK_CUCKOO_KICK_W(F)                                                             \
    __attribute__((noinline)) static int kick##F(fk_cuckoo *c, fk_cuckoo_stripes *st,   \
                                                 const fk_cplace *k, unsigned attempt)  \
    {                                                                                   \
        return kick_w(c, st, k, attempt, F);                                            \
    }
FK_CTAB_EACH_WIDTH(FK_CUCKOO_KICK_W)
FK_CUCKOO_KICK_W(0)
#undef FK_CUCKOO_KICK_W

static int kick(fk_cuckoo *c, fk_cuckoo_stripes *st, const fk_cplace *k, unsigned attempt)
{
#define FK_CUCKOO_KICK_CASE(F) \
    case F:                    \
        return kick##F(c, st, k, attempt);
    FK_CUCKOO_DISPATCH_WIDTH(c->table.f, FK_CUCKOO_KICK_CASE)
#undef FK_CUCKOO_KICK_CASE
    return kick0(c, st, k, attempt);
}

/* ------------------------------------------------------------- writers */

/* fk_cuckoo_cinsert_placed; full: both buckets were just seen full (the
 * first attempt kicks at once). */
static fk_status cinsert_placed(fk_cuckoo *c, const fk_cplace *k, int64_t *added, bool full)
{
    fk_cuckoo_stripes *st = stripes_of(c);
    if (!st)
        return FK_ENOMEM;
    fk_ctab *t = &c->table;
    const bool cas = word_buckets(t);
    for (unsigned attempt = 0;; attempt++) {
        if (!(full && attempt == 0) && (place_free(t, st, cas, k->i1, k->fp, added) ||
                                        place_free(t, st, cas, k->i2, k->fp, added)))
            return FK_OK;
        int kicked = attempt == CINSERT_ATTEMPTS ? KICK_FULL : kick(c, st, k, attempt);
        if (kicked == KICK_STORED)
            return FK_OK;
        if (kicked == KICK_FULL)
            return FK_EFULL;
    }
}

static fk_status cremove_placed(fk_cuckoo *c, const fk_cplace *k)
{
    fk_cuckoo_stripes *st = stripes_of(c);
    if (!st)
        return FK_ENOMEM;
    fk_ctab *t = &c->table;
    fk_status s = FK_ENOTFOUND;
    lock2(st, k->i1, k->i2);
    for (unsigned which = 0; which < 2 && s != FK_OK; which++) {
        uint64_t b = which ? k->i2 : k->i1;
        int j = fk_ctab_find(t, b, k->fp);
        /* cannot fail: a full slot changes only under the stripes held here */
        if (j >= 0 && slot_replace(t, b, (unsigned)j, k->fp, 0)) {
            count_held(&st->s[k->i1 & st->mask], -1);
            s = FK_OK;
        }
    }
    unlock2(st, k->i1, k->i2);
    return s;
}

/* The out-of-line rest of a concurrent insert: the stripes (made by the
 * first writer that comes here), both buckets again unless both were just
 * seen full (`full`), kicks; counted. */
__attribute__((noinline)) static fk_status cinsert_slow(fk_cuckoo *c, uint64_t i1, uint64_t i2,
                                                        uint32_t fp, bool full)
{
    /* the place by value: the fast path keeps it in registers */
    fk_cplace k = { .i1 = i1, .i2 = i2, .fp = fp };
    int64_t added = 0;
    fk_status s = cinsert_placed(c, &k, &added, full);
    if (added)
        fk_cuckoo_count_items(c, added);
    return s;
}

/* Any scheme and width. */
static fk_status cinsert_any(fk_cuckoo *c, const void *key, size_t len)
{
    fk_cplace k = fk_cuckoo_place(c, key, len);
    return cinsert_slow(c, k.i1, k.i2, k.fp, false);
}

/* fp into the slot at table bit `bit`, width F (4..16) a constant, which
 * lies inside one aligned 64-bit word, when it is empty: one relaxed read
 * of the word, one compare-and-swap from empty. False (nothing written)
 * otherwise. */
FK_CTAB_HOT bool claim_at(fk_ctab *t, uint64_t bit, uint32_t fp, const unsigned F)
{
    unsigned sh = (unsigned)(bit & 63);
    _Atomic uint64_t *w = word_at(t, bit);
    uint64_t cur = atomic_load_explicit(w, memory_order_relaxed);
    uint64_t x = le_word(cur);
    if ((x >> sh) & ((UINT64_C(1) << F) - 1))
        return false;
    return atomic_compare_exchange_strong_explicit(w, &cur, le_word(x | (uint64_t)fp << sh),
                                                   SLOT_CAS_ORDER, memory_order_relaxed);
}

/* fp into a free slot of bucket b (width F a constant) that lies inside
 * one aligned word: the first free slot, or when that one straddles two
 * words (at most one slot of a bucket does) the later slots, each read
 * exactly (the zero-field mask is exact only at its lowest bit). False
 * (nothing written) when the bucket looks full, only a straddling slot is
 * free, or another writer changed the word first: the slow path decides. */
FK_CTAB_HOT bool claim_w(fk_ctab *t, uint64_t b, uint32_t fp, const unsigned F)
{
    uint64_t free = fk_ctab_match_w(t, b, 0, F);
    if (!free)
        return false;
    unsigned j = (unsigned)fk_ctab_slot_of_bit((unsigned)__builtin_ctzll(free), F);
    uint64_t bit = b * (4 * F) + (uint64_t)j * F;
    if (__builtin_expect(((bit & 63) + F <= 64), 1))
        return claim_at(t, bit, fp, F);
    for (j++, bit += F; j < FK_CTAB_SLOTS; j++, bit += F)
        if ((bit & 63) + F <= 64 && claim_at(t, bit, fp, F))
            return true;
    return false;
}

/* A concurrent insert's fast path, the single call's and the batch's: fp
 * into a free slot of either of k's buckets (claim_w). False when neither
 * took it; *full then says whether both looked full, so the slow path need
 * not read them again. */
FK_CTAB_HOT bool claim_either_w(fk_ctab *t, const fk_cplace *k, bool *full, const unsigned F)
{
    if (claim_w(t, k->i1, k->fp, F) || claim_w(t, k->i2, k->fp, F))
        return true;
    *full = !fk_ctab_match_w(t, k->i1, 0, F) && !fk_ctab_match_w(t, k->i2, 0, F);
    return false;
}

#define FK_CUCKOO_CINSERT_W(S, F)                                                      \
    FK_HOT static fk_status cinsert_##S##F(fk_cuckoo *c, const void *key, size_t len)  \
    {                                                                                  \
        fk_cplace k = fk_cmap_place_##S##_h(&c->map, fk_cuckoo_hash(c, key, len));     \
        bool full;                                                                     \
        if (claim_either_w(&c->table, &k, &full, F)) {                                 \
            fk_tally_add(&c->c_items, 1);                                              \
            return FK_OK;                                                              \
        }                                                                              \
        return cinsert_slow(c, k.i1, k.i2, k.fp, full);                                \
    }
#define FK_CUCKOO_CINSERT_BLOCKS(F) FK_CUCKOO_CINSERT_W(blocks, F)
#define FK_CUCKOO_CINSERT_CHUNKS(F) FK_CUCKOO_CINSERT_W(chunks, F)
FK_CTAB_EACH_WIDTH(FK_CUCKOO_CINSERT_BLOCKS)
FK_CTAB_EACH_WIDTH(FK_CUCKOO_CINSERT_CHUNKS)
#undef FK_CUCKOO_CINSERT_BLOCKS
#undef FK_CUCKOO_CINSERT_CHUNKS
#undef FK_CUCKOO_CINSERT_W

fk_cuckoo_insert_fn fk_cuckoo_cinsert_path(const fk_cuckoo *c)
{
#define FK_CUCKOO_CPATH_CASE(S, F) \
    case F:                        \
        return cinsert_##S##F;
#define FK_CUCKOO_CPATH_BLOCKS(F) FK_CUCKOO_CPATH_CASE(blocks, F)
#define FK_CUCKOO_CPATH_CHUNKS(F) FK_CUCKOO_CPATH_CASE(chunks, F)
    FK_CUCKOO_DISPATCH_SCHEME_WIDTH(c, FK_CUCKOO_CPATH_BLOCKS, FK_CUCKOO_CPATH_CHUNKS);
#undef FK_CUCKOO_CPATH_BLOCKS
#undef FK_CUCKOO_CPATH_CHUNKS
#undef FK_CUCKOO_CPATH_CASE
    return cinsert_any;
}

/* The out-of-line rest of a batch's key (cinsert_placed, as cinsert_slow
 * for the single call): the window's loop keeps only the fast path. */
__attribute__((noinline)) static fk_status cwindow_slow(fk_cuckoo *c, const fk_cplace *k,
                                                        int64_t *added, bool full)
{
    return cinsert_placed(c, k, added, full);
}

/* The concurrent batch's window (fk_cuckoo_cinsert_window_path): each key
 * as the single call's fast path (claim_w, width F a constant), the rest
 * out of line as its slow path; F 0, any width: each key's whole insert
 * out of line. The keys' items go to *added, counted once per batch. */
FK_CTAB_HOT size_t cwindow_w(fk_cuckoo *c, const fk_cplace k[], size_t span, int64_t *added,
                             fk_status *s, const unsigned F)
{
    fk_ctab *t = &c->table;
    for (size_t j = 0; j < span; j++) {
        bool full = false;
        if (F && claim_either_w(t, &k[j], &full, F)) {
            ++*added;
            continue;
        }
        fk_status r = cwindow_slow(c, &k[j], added, full);
        if (r != FK_OK) {
            *s = r;
            return j;
        }
    }
    return span;
}

#define FK_CUCKOO_CWINDOW_W(F)                                                          \
    static size_t cwindow##F(fk_cuckoo *c, const fk_cplace k[], size_t span,            \
                             int64_t *added, fk_status *s)                              \
    {                                                                                   \
        return cwindow_w(c, k, span, added, s, F);                                      \
    }
FK_CTAB_EACH_WIDTH(FK_CUCKOO_CWINDOW_W)
FK_CUCKOO_CWINDOW_W(0)
#undef FK_CUCKOO_CWINDOW_W

/* As fk_cuckoo_cinsert_path: the legacy scheme's filters (old files) take
 * the generic path, so a batch stores every key where the single calls
 * would. */
fk_cuckoo_cwindow_fn fk_cuckoo_cinsert_window_path(const fk_cuckoo *c)
{
#define FK_CUCKOO_CWINDOW_CASE(F) \
    case F:                       \
        return cwindow##F;
    FK_CUCKOO_DISPATCH_SCHEME_WIDTH(c, FK_CUCKOO_CWINDOW_CASE, FK_CUCKOO_CWINDOW_CASE);
#undef FK_CUCKOO_CWINDOW_CASE
    return cwindow0;
}

fk_status fk_cuckoo_slot_insert_concurrent(fk_filter *f, const void *key, size_t len)
{
    fk_cuckoo *c = (fk_cuckoo *)f;
    return c->cinsert(c, key, len);
}

fk_status fk_cuckoo_slot_remove_concurrent(fk_filter *f, const void *key, size_t len)
{
    fk_cuckoo *c = (fk_cuckoo *)f;
    fk_cplace k = fk_cuckoo_place(c, key, len);
    return cremove_placed(c, &k);
}
