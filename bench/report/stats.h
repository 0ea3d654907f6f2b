/* bench/report/stats.h: summaries of repeated timings and false-positive counts. */
#ifndef FKC_BENCH_STATS_H
#define FKC_BENCH_STATS_H

#include <stddef.h>
#include <stdint.h>

/* Median, fastest and slowest of the runs of one timing (ns per op).
 * All three are NaN when there were no runs. */
typedef struct {
    double median;
    double min;
    double max;
} fkc_summary;

/* Summarizes v[0..n) (NaN entries are skipped). The median of an even count
 * is the mean of the two middle values. v is not modified. */
fkc_summary fkc_summarize(const double *v, size_t n);

/* Median of v[0..n) (NaN entries skipped); NaN when none. */
double fkc_median(const double *v, size_t n);

/* A measured false-positive rate: answers that said "maybe present" for
 * keys known to be absent, out of the number of such keys tested. */
typedef struct {
    uint64_t false_positives;
    uint64_t negatives;
} fkc_fpr_count;

/* Adds one answer for a known-absent key. */
static inline void fkc_fpr_add(fkc_fpr_count *c, int said_present)
{
    c->false_positives += said_present != 0;
    c->negatives++;
}

/* false_positives / negatives, NaN for no negatives. */
double fkc_fpr_rate(fkc_fpr_count c);

/* 95% Wilson score interval of the rate, in *lo and *hi (NaN for none). */
void fkc_fpr_interval(fkc_fpr_count c, double *lo, double *hi);

/* Negatives needed to measure a rate near fpr: max(1M, 100/fpr), so about
 * 100 false positives are expected; capped at FKC_FPR_NEG_CAP. */
#define FKC_FPR_NEG_MIN UINT64_C(1000000)
#define FKC_FPR_NEG_CAP UINT64_C(32000000)
uint64_t fkc_fpr_negatives_for(double fpr);

#endif
