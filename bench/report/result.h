/* bench/report/result.h: one row of results (one filter at one parameter set, or
 * one load step of a load sweep) and the column lists the CSV and JSON
 * writers print, each column with the sentence that documents it. */
#ifndef FKC_BENCH_RESULT_H
#define FKC_BENCH_RESULT_H

#include <stddef.h>
#include <stdint.h>
#include "stats.h"

/* Lookup mixes, by share of keys that were inserted. */
#define FKC_MIXES 5
extern const unsigned fkc_mix_pct[FKC_MIXES]; /* 0, 25, 50, 75, 100 */

typedef struct {
    const char *kind;           /* filter name (static) */
    const char *keys;           /* "u64", "str" or "file" (static) */
    uint64_t    n;              /* capacity asked for and keys inserted */
    double      target_fpr;
    uint64_t    seed;
    uint64_t    repeat;
    uint64_t    lookups;        /* keys per lookup mix */

    uint64_t    memory_bytes;   /* after the inserts, from fk_stats */
    double      bits_per_item;  /* 8 * memory_bytes / items held */
    double      load;           /* fk_stats.load_factor after the inserts */
    double      fpr_theory;     /* fk_stats.expected_fpr after the inserts */
    double      fpr_measured;
    double      fpr_low, fpr_high; /* 95% Wilson interval */
    uint64_t    fpr_negatives;
    uint64_t    false_positives;
    uint64_t    false_negatives;
    uint64_t    insert_failures;
    uint64_t    remove_failures;

    double      load_at_full;   /* NaN when no FK_EFULL was seen */
    uint64_t    items_at_full;
    double      bits_per_item_at_full;
    double      fpr_at_full;    /* measured FPR of that full instance */

    fkc_summary  insert;         /* ns per insert */
    fkc_summary  lookup[FKC_MIXES]; /* ns per lookup, per mix */
    fkc_summary  remove;         /* ns per remove; NaN when unsupported */

    double      x_lb_insert;    /* libbloom ns / this ns (throughput ratio), NaN when none */
    double      x_lb_lookup0;
    double      x_lb_lookup100;

    /* The same keys through the batch calls (fk_filter_insert_many,
     * _contains_many; the _u64 forms for u64 keys), ns per key. */
    fkc_summary insert_batch;
    fkc_summary lookup0_batch;
    fkc_summary lookup100_batch;
    double      x_lb_insert_batch; /* libbloom single-key ns / this batched ns */
    double      x_lb_lookup0_batch;
    double      x_lb_lookup100_batch;

    /* The same keys one call per key through the integer calls
     * (fk_filter_insert_u64, fk_filter_contains_u64), ns per key; u64 keys
     * only (NaN for other key types). */
    fkc_summary insert_u64;
    fkc_summary lookup0_u64;
    fkc_summary lookup50_u64;
    fkc_summary lookup100_u64;
    double      x_lb_lookup0_u64;   /* libbloom lookup0_ns / lookup0_u64_ns */
    double      x_lb_lookup100_u64; /* libbloom lookup100_ns / lookup100_u64_ns */

    double      load_target;    /* load sweep: the step aimed at */
    uint64_t    items;          /* load sweep: items held at the step */
    uint64_t    growth;         /* n / the capacity asked for (1 unless a growing
                                   kind started smaller: sweep --vary growth) */

    uint64_t    threads;        /* bench --threads T: T, else 0 */
    double      cinsert_1t_mops;/* million concurrent inserts per second, 1 thread */
    double      cinsert_mops;   /* the same, T threads together */
    double      lookup_1t_mops; /* million lookups per second (50% mix), 1 thread */
    double      lookup_mops;    /* the same, T threads together */
    double      cinsert_vs_insert; /* 1-thread concurrent insert time / plain insert time */
    double      mixed_1t_mops;  /* million operations per second, 90% lookups + 10% concurrent inserts, 1 thread */
    double      mixed_mops;     /* the same, T threads together */
    double      ceiling_cinsert;/* T private insert jobs at once / one after another */
    double      ceiling_lookup; /* T private lookup jobs at once / one after another */

    uint64_t    static_kind;    /* 1: built from the whole set (FK_CAP_STATIC): the
                                   insert columns time fk_filter_build */
    uint64_t    build_peak_bytes; /* resident memory the first build added at its
                                   peak, the filter included (0: not measured) */
    double      build_temp_per_key; /* (build_peak_bytes - memory_bytes) / n: the
                                   temporary memory of a build, bytes per key */
} fkc_result;

typedef enum { FKC_COL_STR, FKC_COL_U64, FKC_COL_F } fkc_col_type;

typedef struct {
    const char *name;
    fkc_col_type type;
    size_t      offset;  /* into fkc_result */
    const char *doc;
} fkc_column;

typedef struct {
    const fkc_column *cols;
    size_t           n;
} fkc_schema;

/* Columns of bench, sweep --vary n and sweep --vary fpr. */
extern const fkc_schema fkc_schema_bench;
/* Columns of sweep --vary load. */
extern const fkc_schema fkc_schema_load;

/* Fills x_lb_* of every row from the libbloom row with the same n,
 * target_fpr and keys (NaN when there is none). */
void fkc_results_ratios(fkc_result *rows, size_t n);

/* Initializes a row: every double NaN, every count 0. */
void fkc_result_init(fkc_result *r);

#endif
