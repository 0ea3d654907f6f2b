/* common/params.h: what a caller asks for (fk_params) and what a filter
 * reports about itself (fk_stats), plus the validation every kind shares. */
#ifndef FK_PARAMS_H
#define FK_PARAMS_H

#ifdef __cplusplus
extern "C" {
#endif

#include <stddef.h>
#include <stdint.h>
#include "status.h"

/* Largest filter body any kind will allocate: 64 GiB. Requests above it are
 * FK_EINVAL, so a typo in capacity cannot ask the allocator for petabytes. */
#define FK_MEMORY_CAP (UINT64_C(1) << 36)

#define FK_BLOOM_MAX_HASHES 64u /* the most probes a Bloom or counting filter takes */

typedef struct {
    uint64_t capacity;         /* expected number of items, > 0 */
    double   fpr;              /* target false-positive rate, 0 < fpr < 1 */
    uint64_t seed;             /* hash seed; same seed => same filter bits */
    /* Optional knobs; 0 always means "derive from capacity and fpr". A kind
     * ignores the knobs that are not its own. */
    uint64_t bits;             /* bloom/counting: number of bits/counters m */
    uint32_t hashes;           /* bloom/counting: probes per key k (1..FK_BLOOM_MAX_HASHES) */
    uint32_t counter_bits;     /* counting: 4 (default) or 8 */
    uint32_t fingerprint_bits; /* cuckoo: 4..32 */
    uint32_t growth;           /* scalable: each new sub-filter holds `growth`
                                  times the previous one's capacity */
    double   max_load;         /* cuckoo: the load the table is sized for, in
                                  (0, 1]; trades memory for insert speed */
    double   tightening;       /* scalable: each new sub-filter's fpr is the
                                  previous one's times this, in (0, 1) */
    uint64_t max_bytes;        /* the most bytes the filter may hold, all of
                                  it (0: FK_MEMORY_CAP). fk_filter_new refuses
                                  a filter over it (FK_ELIMIT) before
                                  allocating; a growing kind checks it
                                  before every new link. A runtime limit:
                                  not saved with the filter. */
    uint32_t threads;          /* static kinds (fuse): threads a whole-set
                                  build may use; 0 = 1 (see fuse/fuse.h) */
    uint32_t reserved;         /* must be 0 */
    uint32_t clock;            /* window: the clock a time window's times are
                                  in, recorded in its file: FK_CLOCK_CALLER
                                  (0, the caller's own ticks) or
                                  FK_CLOCK_UNIX_NS (Unix time in ns); a count
                                  window takes only 0 (see window/window.h) */
    uint64_t span;             /* window: a time window's length, in the unit
                                  of `clock` (0: a count window of
                                  `capacity` inserts); other kinds ignore it */
} fk_params;

/* Clock ids (fk_params.clock): what the times of a time window mean, so that
 * a file moved between programs is advanced on the clock it was made on.
 * FK_CLOCK_UNIX_NS is the interchange clock: nanoseconds since 1970-01-01
 * UTC, as CLOCK_REALTIME and Python's time.time_ns() give them; the CLI, the
 * Redis module and Python's default use it. FK_CLOCK_CALLER says only that
 * the caller keeps to one unit of its own choice (a replay's timestamps, a
 * test's counter); no other program can advance such a window for it. */
#define FK_CLOCK_CALLER 0u
#define FK_CLOCK_UNIX_NS 1u
#define FK_CLOCK_MAX FK_CLOCK_UNIX_NS /* the largest id this version knows */

/* A clock id's short name: "caller", "unix_ns", or NULL for an id this
 * version does not know. Cost: O(1). */
static inline const char *fk_clock_name(uint32_t id)
{
    return id == FK_CLOCK_CALLER ? "caller" : id == FK_CLOCK_UNIX_NS ? "unix_ns" : NULL;
}

typedef struct {
    uint64_t items;          /* successful inserts minus successful removes */
    uint64_t capacity;       /* items it was sized for */
    uint64_t memory_bytes;   /* bytes the filter holds, all of it */
    double   bits_per_item;  /* 8 * memory_bytes / capacity */
    double   load_factor;    /* cuckoo: occupied slots / slots;
                                bloom: set bits / bits; counting: nonzero / counters */
    double   expected_fpr;   /* theory at the current fill */
} fk_stats;

/* The byte limit p asks for: p->max_bytes, or FK_MEMORY_CAP when it is 0
 * or above it. Cost: O(1). */
static inline uint64_t fk_params_max_bytes(const fk_params *p)
{
    return p->max_bytes == 0 || p->max_bytes > FK_MEMORY_CAP ? FK_MEMORY_CAP : p->max_bytes;
}

/* Returns an fk_params with capacity and fpr set and every other field 0
 * (seed 0, knobs derived). Cost: O(1). */
FK_API fk_params fk_params_make(uint64_t capacity, double fpr);

/* Checks the fields every kind shares. Returns FK_OK, or FK_EINVAL when p is
 * NULL, capacity is 0, fpr is NaN, infinite or not in (0,1), or reserved is
 * nonzero. Kind-specific knobs are checked by the kind. Cost: O(1). */
FK_API fk_status fk_params_check(const fk_params *p);

#ifdef __cplusplus
}
#endif

#endif
