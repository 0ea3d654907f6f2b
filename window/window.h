/* window/window.h: sliding-window membership, "seen in the last N inserts"
 * (a count window) or "seen in the last T ticks" (a time window, its clock
 * given by the caller).
 *
 * A cuckoo table (4-slot buckets, two buckets per key, partial-key cuckoo
 * hashing) whose slots hold an f-bit fingerprint and a 3-bit generation
 * tag, w = f + 3 bits each, packed: a bucket is 4w bits. The stream is cut
 * into generations: a count window of N advances one every L = ceil(N / 7)
 * inserts, a time window of T every D = ceil(T / 7) ticks. The 8 tag
 * values name the 8 newest generations, all of which lookups see: the
 * current one (filling) and the 7 before it, which hold at least the last
 * 7L >= N inserts (or the last 7D >= T ticks). When a generation starts,
 * its tag is the one of the generation 8 back, and one pass over the table
 * (the sweep) empties that generation's slots first. So:
 *
 *   - never a false negative inside the window: a key inserted (FK_OK) at
 *     most N inserts ago (count) or less than T ticks ago (time) answers
 *     present, always;
 *   - the slack: a key answers present at most 8L inserts (8D ticks) after
 *     its last insert, i.e. N / 7 (T / 7) beyond the window when 7 divides
 *     N (T), at most 7 more for tiny windows (N = 1: L = 1, 8 inserts);
 *     past that it is gone and answers present only as any never-seen key
 *     does, at the false-positive rate;
 *   - inserting a key already present (its fingerprint in one of its two
 *     buckets) refreshes that slot to the current generation instead of
 *     storing a copy: a key repeated all the time takes one slot, and the
 *     window is "seen in the last N", counted from its last insert.
 *
 * False-positive rate: a never-seen key (or one older than the slack)
 * matches each live slot of its two buckets with probability 1 / (2^f - 1):
 * 1 - (1 - 1/(2^f - 1))^(8 load) at load = live slots / slots. The table
 * holds at most 8L live slots and is sized so that they fill
 * FK_WINDOW_MAX_LOAD (96%) of it; f is the smallest width whose rate at
 * that load meets fpr (1%: f = 10, 0.1%: f = 13). Memory: (f + 3) 8L /
 * (0.96 N) bits per window item, 15.5 at 1% and 19.1 at 0.1% for N = 10^6
 * (a rotating pair of Bloom filters: about 22 and 32).
 *
 * Remove: not offered (fk_filter_remove answers FK_EUNSUPPORTED). Two keys
 * whose fingerprint and buckets agree (probability about the FPR) share
 * one slot after the refresh above, so removing one would silently remove
 * the other, a false negative inside the window, which this kind promises
 * never to give.
 *
 * Full: a count window never refuses an insert. It never holds more than
 * 8L live keys; should the cuckoo walk fail anyway (FK_WINDOW_MAX_KICKS
 * evictions: rare at the sized load, certain at max_load near 1), every
 * eviction is undone and the key goes to the stash, a list beside the
 * table that lookups read while it is not empty; each sweep drops the
 * stash's retiring entries and moves the others into the room it freed
 * (fk_window_description.stashed counts them; at the default load the
 * stash is almost always empty). The only failure left is FK_ENOMEM
 * growing the stash (nothing changed). A time window is sized for capacity = the keys one window of T ticks
 * brings; when a burst would need more than 8L live slots the insert
 * answers FK_EFULL and changes nothing (the key is not remembered,
 * fk_window_description.refused counts it) until the clock moves on:
 * the window is never shortened to make room, so no key inside it is
 * ever lost.
 *
 * Time: the library reads no clock. fk_window_advance(f, now) moves a time
 * window's clock to `now`, so tests, replays and replicas give the same
 * answers. The first call sets the origin; inserts before it belong to the
 * first generation. A jump past 8 generations empties the table at once.
 * Which clock `now` (and the span) are read from is recorded in the window
 * and its file (fk_params.clock, common/params.h): FK_CLOCK_UNIX_NS, Unix
 * time in nanoseconds (CLOCK_REALTIME, Python's time.time_ns()), the one
 * clock the CLI, the Redis module and Python's default all use, so a file
 * moves between them and keeps forgetting on schedule; or FK_CLOCK_CALLER
 * (0, the default), ticks of the caller's own choosing that only the
 * caller can advance. The library does not check `now` against the clock
 * id; programs that read a clock check the id before they advance.
 * fk_window_contains_at reads the answers as of a later time without
 * advancing (a server's read-only lookups).
 *
 * Cost: one XXH3-64 per key (8-byte keys on the constant-length path), a
 * multiply-high for the first bucket, one more for the second (i2 = s(fp)
 * - i1 mod buckets, an involution for any bucket count), no division.
 * Lookup: two bucket loads (each bucket one 64-bit word for f <= 13), no
 * tag test (every tag in the table is live). Insert: a lookup, a free
 * slot or cuckoo evictions as in a cuckoo filter; plus, every L inserts,
 * the sweep: one pass over the buckets, about 2.4 bucket reads per insert
 * amortized (a pause of O(table) every N/7 inserts: 0.3 ms at N = 10^6).
 *
 * Link: build/libfk_window.a build/libfk_common.a -lm, nothing else.
 * Thread safety, on one filter, which calls may run at the same time from
 * any number of threads ("no": the caller keeps them apart):
 *
 *                              lookups (contains,  contains_    insert_        advance  plain writers
 *                              contains_at, the    concurrent   concurrent              (insert,
 *                              batches)                                                 insert_many)
 *   lookups                        yes                yes          no            no       no
 *   fk_filter_contains_concurrent  yes                yes          yes           yes      no
 *   insert_concurrent              no                 yes          yes           yes      no
 *   fk_window_advance              no                 yes          yes           no (1)   no
 *   plain writers                  no                 no           no            no       no
 *
 * (1) one thread moves the clock: two advances at once are kept apart by
 *     the writer lock below, but their order is the caller's to choose.
 * stats, describe and saving are lookups. The concurrent calls lock the
 * table by regions (a lock per 64 bytes of table, or per larger region
 * for tables over 64 KiB: 1024 locks at most, each on a cache line of its
 * own, 64 KiB; allocated by the first concurrent call and counted in
 * memory_bytes from then on); each
 * holds the regions of its key's two buckets (at most 4,
 * taken in ascending order; the key is hashed before), so two inserts
 * into different regions share no lock. A concurrent insert refreshes or
 * fills a slot there and counts in a row of its thread's (folded into the
 * window's counts by the global step and by stats, describe and saving);
 * with both buckets full it finds a path of evictions holding one bucket
 * at a time, then carries it out from its free end, each move copying a
 * fingerprint into its other bucket before clearing the old slot, both
 * buckets held. A concurrent lookup holds its two buckets: it sees an
 * acknowledged key before or after any move, never in neither bucket.
 * The global step, during which no other concurrent call runs: the
 * writer lock, then every region lock in order (cost: the sweep's pass
 * and one lock per region). It starts a generation (a count
 * window's L-th insert, an advance that crosses a boundary: an advance
 * that crosses none only moves the clock, under the writer lock), and it
 * runs the rare inserts the regions cannot: no eviction path found in
 * 128 steps and 4 tries, a non-empty stash, a time window at its
 * live budget (so FK_EFULL stays exact).
 * A count window's count under concurrent inserts: each insert (a
 * refresh too) takes a ticket of its generation under its regions: one of
 * 64 its thread's row took at once from the shared count while that count
 * was at least 128 below L, else one from the shared count itself. The
 * insert whose ticket makes the count L starts the next generation as
 * soon as it has placed its key: the global step waits for every insert
 * still placing and first takes back the tickets rows hold unused, so a
 * generation ends at its L-th insert made, no sooner. An insert that finds
 * every ticket taken waits for that step and starts again. So every
 * generation gets exactly L inserts, all made before any of the next
 * generation's, and "the last N inserts" holds in time order. A time
 * window's live count is taken the same way, 64 slots at a time while it
 * is at least 128 below 8L; FK_EFULL stays exact, as a refusal first takes
 * back what rows hold. The shared counts are thus written once per 64
 * inserts of a thread, not once per insert; the plain calls, and stats,
 * describe and saving, take back what rows hold before they read a count.
 * A key whose concurrent insert has returned FK_OK is found by
 * every fk_filter_contains_concurrent that starts later, within the
 * window's promise above. The plain calls take no lock and keep their
 * instructions, the advance excepted (the writer lock). No remove, so no
 * concurrent remove.
 *
 *   fk_params p = fk_params_make(1000000, 0.01);     // the last 10^6 inserts
 *   fk_window *w;
 *   if (fk_window_new(&p, &w) != FK_OK) ...;
 *   if (!fk_window_contains(w, line, len)) print(line);
 *   fk_window_insert(w, line, len);                     // FK_OK
 *   fk_window_free(w);
 */
#ifndef FK_WINDOW_H
#define FK_WINDOW_H

#ifdef __cplusplus
extern "C" {
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "../common/filter.h"
#include "../common/serial.h"

typedef struct fk_window fk_window;

/* Live generations: the current one and the 7 before it (a 3-bit tag). */
#define FK_WINDOW_GENERATIONS 8u
/* Generations a window of N (or T) spans: L = ceil(N / 7). */
#define FK_WINDOW_SPAN_GENERATIONS 7u
/* Fingerprint widths accepted in fk_params.fingerprint_bits (0 = derive). */
#define FK_WINDOW_MIN_FP_BITS 4u
#define FK_WINDOW_MAX_FP_BITS 29u
/* The load the table is sized for at its 8L live slots when
 * fk_params.max_load is 0. */
#define FK_WINDOW_MAX_LOAD 0.96
/* Evictions one insert may make before its key goes to the stash. */
#define FK_WINDOW_MAX_KICKS 500u
/* The latest time fk_window_advance accepts (2^62 ticks: 146 years of
 * nanoseconds since 1970): with a span T < 2^64, D = ceil(T / 7) < 2^62,
 * so every generation boundary, at most now + D, stays below 2^63 and no
 * clock arithmetic wraps. A later time is FK_EINVAL. */
#define FK_WINDOW_MAX_TIME (UINT64_C(1) << 62)
/* Generation numbers stay below this (2^63). A time window cannot reach it
 * (its generation is at most FK_WINDOW_MAX_TIME / D); a count window that
 * does (2^63 L inserts) continues at generation number 2^62 lower, the same
 * tags, so no number ever wraps. The loader refuses a generation at or
 * above it. */
#define FK_WINDOW_MAX_GENERATION (UINT64_C(1) << 63)
/* A time window's insert count per generation (fk_window_description's
 * generation_inserts, fk_stats.items) stops growing at 2^60, so the sum of
 * the 8 never wraps; the loader refuses a larger count. */
#define FK_WINDOW_MAX_INSERTS (UINT64_C(1) << 60)

/* The kind's number in the file header (common/serial.h); never reused. */
#define FK_KIND_WINDOW 8u

/* The vtable for fk_filter_new(&fk_window_ops, ...): name "window", a
 * count window of fk_params.capacity inserts; no remove slot; save slot
 * set. */
FK_API extern const fk_ops fk_window_ops;

/* Creates an empty count window: the last p->capacity (N) inserts, when
 * p->span is 0 (it has no clock: p->clock must be 0); a time window when
 * p->span is not 0 (below). Sizing:
 * L = ceil(N / 7), slots for 8L live keys at p->max_load (0 =
 * FK_WINDOW_MAX_LOAD; otherwise in (0, 1]), f = p->fingerprint_bits if
 * nonzero, else the smallest f meeting p->fpr at that load (above), at
 * most 29. The seed picks the hash and seeds the eviction PRNG. Knobs of
 * other kinds are ignored. Any N the memory cap allows is served, 2^32
 * and more included (at 1%, about 2 bytes per window item: N = 2^32
 * takes 8.3 GB; FK_MEMORY_CAP, 64 GiB, ends near 3.5 10^10).
 * Returns FK_OK with a new filter in *out (the caller frees it with
 * fk_window_free); FK_EINVAL for NULL p or out, bad params
 * (fk_params_check), p->clock not 0, fingerprint_bits not 0 and not in 4..29, max_load
 * not 0 and not in (0, 1] (NaN included), or a table over FK_MEMORY_CAP;
 * FK_ELIMIT over p->max_bytes; FK_ENOMEM. *out is NULL on error.
 * Cost: the table, about (f + 3) 8N / 7 / 0.96 bits, allocated zeroed. */
FK_API fk_status fk_window_new(const fk_params *p, fk_window **out);

/* A time window: fk_params.span = T > 0 (in the unit of the times later
 * given to fk_filter_advance) makes fk_window_new (and fk_filter_new(
 * &fk_window_ops, p)) a time window sized for p->capacity keys arriving
 * per window (its rate times T: the table holds 8 ceil(capacity / 7) live
 * keys; see "Full" above), on the clock p->clock names (FK_CLOCK_CALLER, 0:
 * the caller's own ticks; FK_CLOCK_UNIX_NS: T and every `now` in Unix
 * nanoseconds), which it records and saves; FK_EINVAL for a clock id above
 * FK_CLOCK_MAX. fk_window_new_time(p, span, out) is the same call with
 * p's span replaced by `span` (span 0: FK_EINVAL), a typed convenience
 * (inline, not exported). */
static inline fk_status fk_window_new_time(const fk_params *p, uint64_t span, fk_window **out)
{
    if (!p || span == 0) {
        if (out)
            *out = NULL;
        return FK_EINVAL;
    }
    fk_params q = *p;
    q.span = span;
    return fk_window_new(&q, out);
}

/* Releases w. NULL is a no-op. Cost: O(1). */
FK_API void fk_window_free(fk_window *w);

/* Records key as seen now: a count window counts one insert (starting a
 * new generation, and sweeping, every L inserts); the key's slot is
 * refreshed to the current generation if its fingerprint is already in
 * one of its buckets, else a slot is taken. Returns FK_OK (the key answers
 * present for the whole window from now on); FK_EFULL only for a time
 * window fed past its size ("Full" above; nothing changed); FK_ENOMEM
 * when the stash cannot grow (nothing changed); FK_EINVAL for w NULL or
 * key NULL with len > 0. Cost: one hash and two bucket reads; evictions
 * when both buckets are full (about 1.3 per insert on average near the
 * 96% peak); the sweep as above; a scan of the stash while it is not
 * empty. */
FK_API fk_status fk_window_insert(fk_window *w, const void *key, size_t len);

/* True when key may have been inserted within the window (or its slack),
 * false when it definitely was not. w NULL, or key NULL with len > 0,
 * answers false. Cost: one hash, two bucket reads, no branch on slots. */
FK_API bool fk_window_contains(const fk_window *w, const void *key, size_t len);

/* fk_window_contains_at(w, key, len, now): fk_filter_contains_at on w
 * (common/filter.h), typed; inline, not exported. What fk_window_contains
 * would answer after an advance to `now`, read without changing w: the
 * generations the advance would retire count as gone (8 or more
 * boundaries passed: every key is gone). A `now` the advance would refuse,
 * a clock never set, and a count window answer as fk_window_contains.
 * Cost: as fk_window_contains while no boundary lies between the clock and
 * `now`; past one, one hash and the 8 slots of the key's two buckets read
 * with their tags (and the stash while it is not empty); O(1) from 8 on. */
static inline bool fk_window_contains_at(const fk_window *w, const void *key, size_t len,
                                         uint64_t now)
{
    return fk_filter_contains_at((const fk_filter *)(const void *)w, key, len, now);
}

/* fk_window_advance(f, now): fk_filter_advance (common/filter.h), kept
 * under the kind's name; inline, not exported. Moves a time window's clock
 * to `now` (same unit as its span): every generation boundary passed
 * starts a generation (sweeping the oldest); 8 or more passed at once
 * empty the table. The first call sets the origin. Returns FK_OK;
 * FK_EINVAL for f NULL, `now` before the clock's current time (the clock
 * never goes back) or `now` past FK_WINDOW_MAX_TIME (2^62), nothing
 * changed either way; FK_EUNSUPPORTED when f is not a time window (a count
 * window, or another kind). Cost: O(1) without a boundary; a sweep per
 * boundary crossed, at most one table pass in all for a long jump. */
static inline fk_status fk_window_advance(fk_filter *f, uint64_t now)
{
    return fk_filter_advance(f, now);
}

/* The filter as an fk_filter, for the generic calls (still owned by the
 * caller; free it with fk_window_free or fk_filter_free, not both). NULL
 * for NULL. */
FK_API fk_filter *fk_window_as_filter(fk_window *w);

/* Integer keys (common/filter.h, FK_U64_CALLS): fk_window_contains_u64
 * and fk_window_insert_u64(x, key) answer as the byte calls on the key's
 * 8 little-endian bytes; inline, for a program that links this module
 * alone. */
FK_U64_CALLS(fk_window)

/* Stats: fk_filter_stats(fk_window_as_filter(x), &out) fills out: items =
 * the inserts the live generations received (refreshes included; at most
 * 7L + the current generation's), capacity = N, memory_bytes = the table
 * plus the struct, bits_per_item = 8 memory_bytes / N (bits per window
 * item), load_factor = live slots / slots, expected_fpr = the theory
 * above at that load. */

/* What a window is made of and where its stream stands, for tools and
 * tests (`filterkit info`). */
typedef struct {
    uint32_t fingerprint_bits;   /* f */
    uint32_t slot_bits;          /* f + 3 */
    bool     timed;              /* a time window */
    bool     clock_set;          /* time: fk_window_advance was called */
    uint32_t clock;              /* time: the clock id its times are in
                                    (FK_CLOCK_CALLER or FK_CLOCK_UNIX_NS);
                                    count: 0 */
    uint64_t buckets;
    uint64_t slots;              /* 4 buckets */
    uint64_t window;             /* N (count) or T (time) */
    uint64_t generation_length;  /* L inserts (count) or D ticks (time) */
    uint64_t live_budget;        /* 8L: the most live slots */
    uint64_t generation;         /* the current generation's number, from 0 */
    uint64_t now;                /* time: the clock (0 before the first advance) */
    uint64_t next_boundary;      /* time: when the next generation starts */
    uint64_t oldest_age;         /* inserts (count) or ticks (time) since the
                                    oldest live generation began */
    uint64_t live;               /* slots in use */
    /* per generation, [0] the current one, [7] the oldest */
    uint64_t generation_slots[FK_WINDOW_GENERATIONS];   /* live slots */
    uint64_t generation_inserts[FK_WINDOW_GENERATIONS]; /* inserts it got */
    uint64_t swept_last;         /* slots the last sweep emptied */
    uint64_t swept_total;        /* slots all sweeps emptied */
    uint64_t refreshed;          /* inserts that refreshed a slot */
    uint64_t refused;            /* inserts refused with FK_EFULL */
    uint64_t kicks;              /* cuckoo evictions so far */
    uint64_t seed;
    uint64_t stashed;            /* live keys in the stash (see "Full") */
} fk_window_description;

/* Fills *out for w. No-op for NULL arguments. Cost: O(1).
 * fk_filter_describe gives the same fields as rows (named as the fields,
 * generation_slots_0.._7 and generation_inserts_0.._7 per generation,
 * [0] the current one; mode "count"/"time"; clock, a time window's clock
 * name, NULL on a count window; the times and counts carry their unit), and fk_filter_describe_at them as an
 * advance to a time would leave them (a server's read). */
FK_API void fk_window_describe(const fk_window *w, fk_window_description *out);

/* ------------------------------------------------------------- saving
 *
 * fk_window_save, fk_window_load: the calls of FK_SERIAL_DIRECT_DECLARE
 * (common/serial.h has their contracts), typed for fk_window; a FILE *
 * goes through fk_filter_save_file and fk_filter_load_file. A saved
 * window keeps its stream position (generation, inserts per generation,
 * clock, eviction PRNG), so a loaded window continues exactly as the
 * saved one would have, on the clock it was made on (its clock id; a
 * file written before the id existed loads as FK_CLOCK_CALLER). Takes 128
 * + 128 + ceil(buckets 4 (f + 3) / 8) bytes. The loader refuses
 * (FK_ECORRUPT) a clock id above FK_CLOCK_MAX or on a count window, a tag no live generation owns,
 * a slot with a tag but no fingerprint, counts that disagree with the
 * slots, a clock past its boundary, nonzero padding, and every counter or
 * clock a real window cannot reach (so that whatever loads takes any
 * later inserts and advances and saves a record that loads again): a
 * generation at or above FK_WINDOW_MAX_GENERATION, a time past
 * FK_WINDOW_MAX_TIME, a next boundary that is not the first one after the
 * clock on a generation grid starting at or after time 0 (now < boundary
 * <= now + D, boundary >= (generation + 1) D), a time window's insert
 * count of a generation above FK_WINDOW_MAX_INSERTS. Cost O(table). */
FK_SERIAL_DIRECT_DECLARE(fk_window, fk_window);

#ifdef __cplusplus
}
#endif

#endif
