/* common/cache.h: the data-cache sizes of the machine the library runs on,
 * read once at run time, and the table sizes from which the batch
 * pipelines prefetch (internal header, modules only).
 *
 * Why at run time: whether prefetching pays depends on where a table
 * lives. A table that fits the core's L2 is read at L2 latency, and the
 * prefetch instructions (and, for the Bloom kinds, the probe positions
 * computed twice) cost more than the short misses they hide; a table many
 * times the L2 misses to L3 or memory on most probes, and overlapping those
 * misses across keys is the whole gain of a batch. The thresholds were
 * fixed byte counts tuned on one machine (a 1 MiB L2 and a 480 MiB L3 as
 * the VM reported it); they are now multiples of the L2 of the machine at
 * hand. The L2 is the level used: it is private to a core and reported
 * faithfully in VMs, while the L3 a VM reports is often the whole host's
 * (hundreds of MiB) rather than what one core can use.
 *
 * Sources, in order: sysconf(_SC_LEVEL2_CACHE_SIZE) (glibc, from CPUID);
 * else /sys/devices/system/cpu/cpu0/cache/index*: the first Data or
 * Unified cache of level 2 (size as "1024K" or "1M"); else
 * FK_CACHE_L2_DEFAULT. Read once per process (the first batch call), a few
 * microseconds; the only file the library reads of its own.
 *
 * The answers never depend on it: a batch returns exactly what the
 * single-key calls return whether or not it prefetches (tests/test_batch.c
 * checks both ways by overriding the size). */
#ifndef FK_CACHE_H
#define FK_CACHE_H

#include <stdint.h>

/* Used when neither source answers: the L2 of the machine the fixed
 * thresholds were tuned on. */
#define FK_CACHE_L2_DEFAULT (UINT64_C(1) << 20)

/* Where the L2 size came from (fk_cache_l2_source). */
typedef enum {
    FK_CACHE_FROM_SYSCONF = 1,
    FK_CACHE_FROM_SYSFS,
    FK_CACHE_FROM_DEFAULT,
    FK_CACHE_FROM_OVERRIDE
} fk_cache_source;

/* The L2 data cache of one core, in bytes (> 0). Thread-safe; the first
 * call reads the machine, later ones a cached value. */
uint64_t fk_cache_l2_bytes(void);

/* Which source fk_cache_l2_bytes() took its answer from. */
fk_cache_source fk_cache_l2_source(void);

/* The two sources on their own, 0 when one does not answer (for tests and
 * `filterkit` run info). */
uint64_t fk_cache_l2_from_sysconf(void);
uint64_t fk_cache_l2_from_sysfs(const char *cache_dir); /* NULL: cpu0's */

/* Replaces the L2 size for the rest of the process (bytes > 0), or goes
 * back to the machine's (0). For tests and experiments: not thread-safe
 * against batches running at the same moment. */
void fk_cache_override_l2(uint64_t bytes);

/* ------------------------------------------------ prefetch thresholds
 *
 * Multiples of the L2, from the measurements on the 1 MiB-L2 machine
 * (PAPER_NOTES, "Memory-level parallelism"): */

/* Cuckoo and blocked tables from 8 L2s up are prefetched (one or two lines
 * per key; at 10^6 keys, 1.3 MB, every batch was faster without). */
#define FK_CACHE_PREFETCH_L2S 8u
/* Bloom tables from 8 L2s up: a 10^7-key table at 1% (12 MB) is
 * prefetched (it was not under the fixed 32 MiB, and its batches ran at
 * 1.01-1.36x single-key speed). */
#define FK_CACHE_BLOOM_PREFETCH_L2S 8u
/* Counting tables from 2 L2s up (four times a Bloom filter's bytes and k
 * lines a key: a 10^6-key table, 4.8 MB, lost 0.7x unprefetched), looked
 * up in stages from 8 L2s up. */
#define FK_CACHE_COUNTING_PREFETCH_L2S 2u
#define FK_CACHE_COUNTING_STAGED_L2S   8u

static inline uint64_t fk_cache_l2s(unsigned count)
{
    return (uint64_t)count * fk_cache_l2_bytes();
}

#endif
