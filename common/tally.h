/* common/tally.h: a counter many threads add to at once (internal header).
 *
 * The concurrent writers keep their filter's item count here instead of in
 * the plain field: one shared atomic counter would move its cache line
 * between the cores on every insert and undo the scaling the atomic bit
 * updates give. Each thread adds to its own stripe (a cache line of its
 * own; up to FK_TALLY_STRIPES living threads own one each, with plain
 * stores, no locked instruction), and the sum is read when the writers are
 * done. The stripes are allocated by the first concurrent add (the tally
 * itself is zero-initialised in the filter's struct, so filters used by one
 * writer never pay for them); if that allocation fails, adds go to one
 * shared atomic instead, slower but never lost.
 */
#ifndef FK_TALLY_H
#define FK_TALLY_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include "status.h"

#define FK_TALLY_STRIPES 16u /* threads beyond 16 living ones add to one shared atomic */

typedef struct fk_tally_stripes fk_tally_stripes;

typedef struct {
    _Atomic(fk_tally_stripes *) stripes; /* NULL until the first add */
    _Atomic uint64_t shared;             /* adds made without stripes */
} fk_tally;

/* Bytes between two threads' counters: one cache line each. */
#define FK_TALLY_LINE 64u

/* The calling thread's stripe index, the same in every tally: -2 before
 * its first add, -1 when none was free (tally.c). Read only by
 * fk_tally_add below. */
extern _Thread_local int fk_tally_thread_stripe;

/* fk_tally_add's first add in a thread or on a tally, and the adds of
 * threads without a stripe (tally.c). */
void fk_tally_add_slow(fk_tally *t, uint64_t delta);

/* Adds delta (mod 2^64: add -1 as UINT64_MAX) from the calling thread. Safe
 * to call from many threads at once. Cost: inline, a thread-local read, a
 * load, and a load and a store to the thread's own line (a locked add for
 * threads beyond FK_TALLY_STRIPES); the first call on a tally allocates
 * its stripes (1 KiB). */
static inline void fk_tally_add(fk_tally *t, uint64_t delta)
{
    int i = fk_tally_thread_stripe;
    /* acquire: the stripes' zeroing, before their publication, is seen */
    char *s = (char *)atomic_load_explicit(&t->stripes, memory_order_acquire);
    if (__builtin_expect(i >= 0 && s != 0, 1)) { /* this thread's own line: nobody else writes it */
        _Atomic uint64_t *n = (_Atomic uint64_t *)(void *)(s + (unsigned)i * FK_TALLY_LINE);
        atomic_store_explicit(n, atomic_load_explicit(n, memory_order_relaxed) + delta,
                              memory_order_relaxed);
        return;
    }
    fk_tally_add_slow(t, delta);
}

/* The sum of every add so far (mod 2^64). Exact once the adding threads
 * have returned and been joined; while they run it is some recent value.
 * Cost: O(FK_TALLY_STRIPES). */
uint64_t fk_tally_sum(const fk_tally *t);

/* Sets the sum to 0. Not safe beside fk_tally_add. */
void fk_tally_reset(fk_tally *t);

/* Bytes the tally has allocated (0 before the first add). */
uint64_t fk_tally_bytes(const fk_tally *t);

/* Releases the stripes; the tally is empty again. NULL-safe. */
void fk_tally_release(fk_tally *t);

/* ---------------------------------------------------- several counters
 *
 * fk_tallies: `fields` counters a writer changes together (a filter's
 * items, distinct fingerprints and slots used; or entries by length), kept
 * as fk_tally keeps one: each thread owning a stripe adds to a row of its
 * own (fields rounded up to whole 64-byte lines), so one look-up of the
 * calling thread's row serves every counter one insert changes, and two
 * threads never write one line. Threads without a stripe add to one shared
 * row with atomic adds. The caller passes the same `fields` (a constant of
 * its own) to every call on one fk_tallies. */
typedef struct {
    _Atomic(uint64_t *) rows; /* NULL until fk_tallies_prepare; counters read and
                                 written as _Atomic uint64_t */
} fk_tallies;

/* The calling thread's row: n[field] for field < fields; shared when the
 * row is the shared one (add with fk_tally_row_add, which knows). */
typedef struct {
    uint64_t *n;
    int       shared;
} fk_tally_row;

/* Allocates the rows if none yet (several threads may race: one wins).
 * Returns FK_OK, or FK_ENOMEM (nothing allocated). Call before the first
 * fk_tallies_row (the writer's first concurrent call, beside its locks).
 * Cost: (FK_TALLY_STRIPES + 1) rows of ceil(fields / 8) lines, zeroed,
 * 64-byte aligned. */
fk_status fk_tallies_prepare_slow(fk_tallies *t, unsigned fields);
static inline fk_status fk_tallies_prepare(fk_tallies *t, unsigned fields)
{
    if (__builtin_expect(atomic_load_explicit(&t->rows, memory_order_acquire) != NULL, 1))
        return FK_OK; /* inline: every concurrent insert asks */
    return fk_tallies_prepare_slow(t, fields);
}

/* u64 counters per row: fields rounded up to whole lines. */
#define FK_TALLY_ROW_WORDS(fields) (((size_t)(fields) + 7) & ~(size_t)7)

/* The calling thread's row of t (prepared). Cost: inline, a thread-local
 * read and a load; the first call in a thread claims its stripe
 * (fk_tally_add's), and a thread without one gets the shared row, out of
 * line. */
fk_tally_row fk_tallies_row_slow(fk_tallies *t, unsigned fields);
static inline fk_tally_row fk_tallies_row(fk_tallies *t, unsigned fields)
{
    const int i = fk_tally_thread_stripe;
    if (__builtin_expect(i >= 0, 1))
        return (fk_tally_row){ atomic_load_explicit(&t->rows, memory_order_acquire) +
                                   (unsigned)i * FK_TALLY_ROW_WORDS(fields),
                               0 };
    return fk_tallies_row_slow(t, fields);
}

/* Adds delta (mod 2^64) to counter `field` of row r. */
static inline void fk_tally_row_add(fk_tally_row r, unsigned field, uint64_t delta)
{
    _Atomic uint64_t *n = (_Atomic uint64_t *)&r.n[field];
    if (r.shared)
        atomic_fetch_add_explicit(n, delta, memory_order_relaxed);
    else /* this thread's own row: nobody else writes it */
        atomic_store_explicit(n, atomic_load_explicit(n, memory_order_relaxed) + delta,
                              memory_order_relaxed);
}

/* Counter `field`'s sum over the rows (mod 2^64); exact once the adding
 * threads are joined, as fk_tally_sum. 0 before prepare. O(FK_TALLY_STRIPES). */
uint64_t fk_tallies_sum(const fk_tallies *t, unsigned fields, unsigned field);

/* Sets every counter to 0. Not safe beside adds. */
void fk_tallies_reset(fk_tallies *t, unsigned fields);

/* Bytes allocated (0 before prepare). */
uint64_t fk_tallies_bytes(const fk_tallies *t, unsigned fields);

/* Releases the rows; t is unprepared again. NULL-safe. */
void fk_tallies_release(fk_tallies *t);

#endif
