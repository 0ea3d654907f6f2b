/* bench/pick/pick_internal.h: what the pick component's files share: the
 * set mode (pick.c), the window mode (pick_window.c), the data form
 * (pick_doc.c). */
#ifndef FKC_BENCH_PICK_INTERNAL_H
#define FKC_BENCH_PICK_INTERNAL_H

#include <stdio.h>
#include "pick.h"
#include "../measure/measure.h"

/* A kind qualifies when its theoretical FPR at capacity is at most this
 * times the target: Bloom sizing rounds k to a whole number, which lifts
 * its theory by up to about 5% (at k = 1 or 2; under 1% at k >= 6). A kind
 * that cannot reach the target -- a cuckoo filter's 32-bit fingerprint at
 * fpr 1e-14 -- misses by orders of magnitude and is never picked. */
#define PICK_THEORY_SLACK 1.05
/* The share of n a user adds later unless told (--headroom): a cuckoo
 * table sized for exactly n is 94% full once the n keys are in, and the
 * next few thousand adds fail; a Bloom filter past its capacity loses its
 * fpr. */
#define PICK_DEFAULT_HEADROOM 0.25

/* Refuses the query: res->status = FKC_PICK_EINVAL, res->message the
 * reason. Returns the status. */
__attribute__((format(printf, 2, 3)))
fkc_pick_status fkc_pick_refuse(fkc_pick_result *res, const char *fmt, ...);

/* The theoretical FPR of a filter sized for (capacity, fpr) holding
 * `capacity` items; 1.0 when the kind refuses the params, NaN when it
 * cannot say. */
double fkc_pick_theory_at(const fk_ops *ops, uint64_t capacity, double fpr);

/* Rules a kind out when its memory or theory at capacity do not fit;
 * returns whether it did (why then says why). */
int fkc_pick_judge(uint64_t memory, double theory, double fpr, uint64_t budget, char *why, size_t len);

/* The window mode of fkc_pick: the query is res->q (checked for a window). */
fkc_pick_status fkc_pick_window(fkc_pick_result *res);

/* The window mode's part of fkc_pick_doc. */
void fkc_pick_window_doc(const fkc_pick_result *res, fkc_doc *d);

/* The paired race (pick_race.c): times every feasible measured candidate
 * of a set on bk (every grown candidate of a growth on the growth's keys)
 * in FKC_PICK_ROUNDS rounds and decides (fkc_pick_apply_rank). */
void fkc_pick_race_set(fkc_pick_result *res, const fkc_bench_keys *bk);
void fkc_pick_race_growth(fkc_pick_result *res);

/* Runs fkc_pick_rank over candidates which[0..nk) (cost as it takes them)
 * and writes the answer into them and res (cost, ratio, tied, rounds,
 * fastest, best, ties). */
void fkc_pick_apply_rank(fkc_pick_result *res, const size_t *which, size_t nk, const int *eligible,
                         const double *cost, size_t rounds);

/* The decided line of a timed pick (res->fastest and res->best set by
 * fkc_pick_apply_rank): the rule and the figures that decided. */
void fkc_pick_set_decided(fkc_pick_result *res);

/* Why a feasible candidate o lost to res->best (a set's words; the window
 * adds its own). */
void fkc_pick_why_lost(const fkc_pick_result *res, const fkc_pick_candidate *o, char *buf, size_t len);

/* The "run" member: the provenance of the measurement. */
void fkc_pick_doc_run(fkc_doc *d, uint64_t seed);

#endif
