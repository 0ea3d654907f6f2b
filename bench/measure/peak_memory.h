/* bench/measure/peak_memory.h: the peak resident memory of a span of code,
 * from Linux's own accounting: writing 5 to /proc/self/clear_refs resets
 * the process's high-water mark (VmHWM) to its current resident size, so
 * the peak above a baseline is what the span held at its fullest,
 * temporary buffers included, whoever allocated them. */
#ifndef FKC_BENCH_PEAK_MEMORY_H
#define FKC_BENCH_PEAK_MEMORY_H

#include <stdint.h>

/* Resets the high-water mark; returns the resident bytes now (the
 * baseline), or 0 when the system cannot tell (not Linux, no /proc). */
uint64_t fkc_peak_reset(void);

/* The high-water mark in bytes since the last reset (0 when unknown). */
uint64_t fkc_peak_bytes(void);

#endif
