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
#include <stdint.h>

#define FK_TALLY_STRIPES 16u /* threads beyond 16 living ones add to one shared atomic */

typedef struct fk_tally_stripes fk_tally_stripes;

typedef struct {
    _Atomic(fk_tally_stripes *) stripes; /* NULL until the first add */
    _Atomic uint64_t shared;             /* adds made without stripes */
} fk_tally;

/* Adds delta (mod 2^64: add -1 as UINT64_MAX) from the calling thread. Safe
 * to call from many threads at once. Cost: a load and a store to the
 * thread's own line (a locked add for threads beyond FK_TALLY_STRIPES); the
 * first call on a tally allocates its stripes (1 KiB). */
void fk_tally_add(fk_tally *t, uint64_t delta);

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

#endif
