/* bench/measure/window_stream.h: the window workload of `filterkit bench
 * --workload window`: sliding-window kinds (the library's "window", the
 * baselines of baselines/window_baselines.h) fed one stream of distinct
 * keys, and asked about keys of every age.
 *
 * Key j of the stream is fkc_gen_word(seed, j) (distinct by construction);
 * after S inserts, key j has age S - 1 - j: the newest key has age 0 and
 * "the last N inserts" are ages 0 .. N-1. The age bands:
 *   window   [0, N)            must answer present: a miss is a false negative
 *   slack    [N, N + N/7)      may answer either way (a design's slack)
 *   expired  [N + N/7, 2N)     should answer present at most at the target
 *                              rate (the slack measurement)
 *   old      [2N, S)           long gone
 *   never    keys never inserted (j >= the stream's length)
 * Each band's figure is the fraction of its probes answering present.
 *
 * What is timed: the stream's inserts (single calls, and, for kinds with
 * batch slots, a second stream through fk_filter_insert_many_u64), and the
 * lookups of never-seen keys ("absent") and window keys ("found"), single
 * and batched, at checkpoints every N/2 inserts from 2N + N/2. Untimed,
 * after every chunk of inserts, every key then near the end of its window
 * is looked up: over the stream, each key is checked once at an age within
 * a chunk of N - 1, so "window misses" counts false negatives over all of
 * it, not a sample.
 *
 * A kind that cannot take a stream (a cuckoo filter fills up) is the speed
 * reference: it takes N keys (no checkpoints but one at the end), and its
 * lookups are timed the same way; its age bands past the window are "-". */
#ifndef FKC_BENCH_WINDOW_STREAM_H
#define FKC_BENCH_WINDOW_STREAM_H

#include <stdint.h>
#include <stdio.h>
#include "../../common/filter.h"

typedef enum { FKC_BAND_WINDOW, FKC_BAND_SLACK, FKC_BAND_EXPIRED, FKC_BAND_OLD, FKC_BAND_NEVER, FKC_BANDS } fkc_band;

/* The band names, as the table and the CSV print them. */
extern const char *const fkc_band_names[FKC_BANDS];

/* The ages [lo, hi) of band b for a window of n after s inserts (never:
 * both 0). Empty (lo = hi) when the stream is too short for it. */
void fkc_band_ages(fkc_band b, uint64_t n, uint64_t s, uint64_t *lo, uint64_t *hi);

typedef struct {
    const fk_ops *ops;
    int           streamed;      /* took the whole stream (else: the speed reference, N keys) */
    uint64_t      memory_bytes;
    double        bits_per_window_item; /* 8 memory / N */
    double        theory;        /* fk_stats.expected_fpr at the end */
    uint64_t      window, lifetime; /* inserts a key is promised / may live (0: unknown) */
    uint64_t      probes[FKC_BANDS], present[FKC_BANDS];
    uint64_t      window_checked, window_misses; /* the untimed sweep of window keys */
    double        insert_ns, insert_batch_ns;    /* NaN where not measured */
    double        absent_ns, found_ns, absent_batch_ns, found_batch_ns;
    char          shape[128];
} fkc_window_row;

typedef struct {
    uint64_t n;        /* the window N */
    double   fpr;
    uint64_t seed;
    uint64_t stream;   /* inserts (0: 10 N) */
    uint64_t probes;   /* lookups per band over the run (0: min(N, 2^20), at least 1000) */
    int      batches;  /* also time the batch calls where a kind has them */
} fkc_window_cfg;

/* The present fraction of band b in row r (NaN without probes). */
double fkc_window_rate(const fkc_window_row *r, fkc_band b);

/* Runs one kind through the workload into *row: a window kind (as_reference
 * 0) takes the stream; the speed reference (as_reference 1) takes N keys.
 * Returns FK_OK, or the status of a failed create or insert (row then
 * holds what was measured before it). progress: a line per step on stderr
 * when not NULL (the prefix). */
fk_status fkc_window_run(const fkc_window_cfg *cfg, const fk_ops *ops, int as_reference, fkc_window_row *row,
                         const char *progress);

/* Prints rows as a table (ratios against the row of kind `reference`,
 * when present) to out. */
void fkc_window_table(FILE *out, const fkc_window_cfg *cfg, const fkc_window_row *rows, size_t n,
                      const char *reference);

/* Writes rows as CSV (one header line, one line per row) to out. */
void fkc_window_csv(FILE *out, const fkc_window_cfg *cfg, const fkc_window_row *rows, size_t n);

#endif
