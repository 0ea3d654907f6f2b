/* bench/clock/timing.h: the monotonic clock the bench times with. */
#ifndef FKC_BENCH_TIMING_H
#define FKC_BENCH_TIMING_H

#include <stdint.h>

/* Nanoseconds on CLOCK_MONOTONIC (not affected by clock changes). */
uint64_t fkc_now_ns(void);

/* Seconds between two fkc_now_ns readings. */
static inline double fkc_seconds(uint64_t t0, uint64_t t1) { return (double)(t1 - t0) * 1e-9; }

/* Nanoseconds per operation for ops operations timed t0..t1 (NaN for 0 ops). */
double fkc_ns_per_op(uint64_t t0, uint64_t t1, uint64_t ops);

#endif
