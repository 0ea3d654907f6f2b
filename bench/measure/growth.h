/* bench/measure/growth.h: the growth workload of `filterkit bench
 * --workload growth` (issue 43): filters that must hold far more keys than
 * they were made for. Each kind starts at n0 keys (fpr P) and takes keys
 * up to n0 * grow (grow a power of two), and at every doubling point
 * (n0, 2 n0, 4 n0, ...) its memory, bits per key, measured FPR and
 * absent-lookup time (single calls and batches) are taken.
 *
 * How a kind takes the growth is read from its fk_ops, never its name:
 *   grown     (FK_CAP_GROWS: the chains, expandable) made for n0, grows
 *             by itself;
 *   in place  (FK_CAP_RESIZES: quotient) made for n0, fk_filter_grow
 *             whenever an insert answers FK_EFULL (its FPR doubles each
 *             time); when it cannot double again its run stops there;
 *   pre-sized (every other kind: the reference) made for n0 * grow from
 *             the start, the bar the growing kinds are held to. A kind
 *             that grows or resizes can also be run pre-sized
 *             (fkc_growth_run_as; `bench --presized LIST`): the same
 *             design without the growth, the fairer bar for it.
 *
 * Keys: inserted key j is fkc_gen_word(seed, j), absent key i is
 * fkc_gen_word(seed, n0 * grow + i): distinct by construction, so every
 * "present" answer of an absent key is a false positive. Inserts are
 * timed over the whole growth (doublings, new links included) and
 * reported per key so far; lookups are the best of 3 passes over the
 * absent keys (batches of 1024 through fk_filter_contains_many_u64). */
#ifndef FKC_BENCH_GROWTH_H
#define FKC_BENCH_GROWTH_H

#include <stdint.h>
#include <stdio.h>
#include "../../common/filter.h"

typedef enum { FKC_GROWN, FKC_IN_PLACE, FKC_PRESIZED } fkc_growth_role;

/* "grown", "in-place", "pre-sized". */
const char *fkc_growth_role_name(fkc_growth_role r);

/* The role of a kind, from its caps. */
fkc_growth_role fkc_growth_role_of(const fk_ops *ops);

typedef struct {
    uint64_t n0;      /* keys the growing kinds are made for */
    unsigned doublings; /* log2 of the growth: the run ends at n0 << doublings */
    double   fpr;
    uint64_t seed;
    uint64_t probes;  /* absent keys per point (0: min(n0 << doublings, 2^20)) */
    int      batches; /* also time fk_filter_contains_many_u64 */
} fkc_growth_cfg;

/* One kind at one doubling point. */
typedef struct {
    const fk_ops   *ops;
    fkc_growth_role role;
    unsigned        doubling;     /* 0 .. cfg.doublings */
    uint64_t        keys;         /* held (n0 << doubling, or where it stopped) */
    int             stopped;      /* an in-place kind that could not double again */
    uint64_t        memory_bytes;
    double          bits_per_key; /* 8 memory / keys */
    double          measured_fpr;
    double          absent_ns, absent_batch_ns; /* NaN where not measured */
    double          insert_ns;    /* per key, over every insert so far */
} fkc_growth_point;

/* Runs one kind through the growth, appending its points to pts (room for
 * cfg->doublings + 1) and storing their number in *npts. Returns FK_OK, or
 * the status of a failed create or insert (the points so far are kept).
 * progress: a line per doubling on stderr when not NULL (the prefix). */
fk_status fkc_growth_run(const fkc_growth_cfg *cfg, const fk_ops *ops, fkc_growth_point *pts, size_t *npts,
                         const char *progress);

/* The same, in the role given rather than the one its caps give (a
 * growing kind made for the end size: role FKC_PRESIZED). */
fk_status fkc_growth_run_as(const fkc_growth_cfg *cfg, const fk_ops *ops, fkc_growth_role role,
                            fkc_growth_point *pts, size_t *npts, const char *progress);

/* The points as a table, then a summary of each kind (and role) at its
 * last point with ratios to the kind named reference (when present; its
 * pre-sized run when it ran in two roles). */
void fkc_growth_table(FILE *out, const fkc_growth_cfg *cfg, const fkc_growth_point *pts, size_t n,
                      const char *reference);

/* The points as CSV: one header line, one line per point. */
void fkc_growth_csv(FILE *out, const fkc_growth_cfg *cfg, const fkc_growth_point *pts, size_t n);

#endif
