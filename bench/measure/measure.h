/* bench/measure/measure.h: the measurement of one filter kind at one parameter set,
 * and of a cuckoo-style filter as its load rises. Every call goes through
 * the kind's fk_ops (one indirect call per operation, function pointer
 * hoisted out of the loop), on keys generated before any clock starts, with
 * no allocation inside a timed loop; lookup answers are summed into a
 * volatile so the compiler cannot drop them. */
#ifndef FKC_BENCH_MEASURE_H
#define FKC_BENCH_MEASURE_H

#include <stddef.h>
#include "batch_loops.h"
#include "../report/result.h"
#include "../keys/workload.h"
#include "../../common/filter.h"

/* Keys shared by every kind at one n: the workload (n positives, enough
 * negatives for the FPR at every requested rate) and the five lookup
 * mixes built from it. */
typedef struct {
    fkc_workload w;
    fkc_keyset   mix[FKC_MIXES];
    uint64_t    n;        /* positives actually available (file keys may be fewer) */
    uint64_t    lookups;  /* keys per mix */
    /* the positives and the 0%, 50% and 100% mixes as the batch calls take
     * them (u64 keys: as integers, which the u64 single-key columns use too) */
    fkc_batch_keys batch_pos, batch_mix0, batch_mix50, batch_mix100;
} fkc_bench_keys;

/* Keys per lookup mix when not given: n clamped to [1M, 2M], so small
 * filters are timed over enough calls and big ones stay quick. */
uint64_t fkc_default_lookups(uint64_t n);

/* Builds the keys for n inserts with FPR measured at down to min_fpr.
 * lookups 0 = fkc_default_lookups(n). Returns 0, or -1 with err. */
int fkc_bench_keys_make(const fkc_keyspec *spec, uint64_t n, double min_fpr, uint64_t lookups,
                       fkc_bench_keys *k, char *err, size_t errlen);
void fkc_bench_keys_free(fkc_bench_keys *k);

typedef struct {
    const fk_ops *ops;
    double        fpr;
    unsigned      repeat;
    int           fill;   /* also fill a separate instance to its first FK_EFULL */
    uint64_t      growth; /* a growing kind (FK_CAP_GROWS) starts at capacity n / growth
                             and grows to n; 0 or 1: sized for n, as every other kind */
    unsigned      threads;/* > 0: also measure thread scaling (fkc_measure_threads) */
} fkc_measure_cfg;

/* Most threads and repeats `bench --threads` runs. */
#define FKC_THREADS_MAX 64u
#define FKC_THREAD_REPEATS_MAX 64u

/* Thread scaling of cfg->ops at (keys->n, cfg->fpr), into r's threads,
 * cinsert_1t_mops, cinsert_mops, lookup_1t_mops, lookup_mops,
 * cinsert_vs_insert (which needs r->insert measured), mixed_1t_mops and
 * mixed_mops: 1 and cfg->threads threads, cfg->repeat runs each, medians.
 * Kinds without a concurrent insert get lookups only (their filter filled
 * by the plain insert). */
void fkc_measure_threads(const fkc_measure_cfg *cfg, const fkc_bench_keys *keys, fkc_result *r);

/* Measures cfg->ops at (keys->n, cfg->fpr) into *r (see fkc_result). Returns
 * FK_OK, or the status of a failed create (then r holds only the names). */
fk_status fkc_measure(const fkc_measure_cfg *cfg, const fkc_bench_keys *keys, fkc_result *r);

/* Measures several kinds on the same keys, interleaving their repeats
 * (repeat 1 of every kind, then repeat 2, ...) so that noise from other
 * work on the machine spreads over all of them. rows[i] and status[i] as
 * fkc_measure gives them for cfgs[i]. */
void fkc_measure_kinds(const fkc_measure_cfg *cfgs, size_t nk, const fkc_bench_keys *keys,
                      fkc_result *rows, fk_status *status);

/* The load sweep: fills a filter sized for n step by step to each load in
 * steps[0..nsteps) (ascending, fractions of fk_stats.load_factor), timing
 * the inserts of each segment and lookups (all-negative and all-positive,
 * `lookups` keys each) at each step. Writes one row per step into rows
 * (steps after a failed insert keep NaN figures). Returns FK_OK, or the
 * create status, or FK_ENOMEM for keys that could not be made. */
fk_status fkc_measure_load(const fk_ops *ops, const fkc_keyspec *spec, uint64_t n, double fpr,
                          const double *steps, size_t nsteps, unsigned repeat,
                          uint64_t lookups, fkc_result *rows);

#endif
