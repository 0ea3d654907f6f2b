/* bench/report/stats.c: median / min / max and false-positive rates. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "stats.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Copies the non-NaN values of v into a sorted buffer; returns its size. */
static size_t sorted_finite(const double *v, size_t n, double **out)
{
    *out = malloc((n ? n : 1) * sizeof **out);
    if (!*out)
        return 0;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!isnan(v[i]))
            (*out)[k++] = v[i];
    qsort(*out, k, sizeof **out, cmp_double);
    return k;
}

fkc_summary fkc_summarize(const double *v, size_t n)
{
    fkc_summary s = { NAN, NAN, NAN };
    double *w;
    size_t k = sorted_finite(v, n, &w);
    if (k) {
        s.min = w[0];
        s.max = w[k - 1];
        s.median = k % 2 ? w[k / 2] : 0.5 * (w[k / 2 - 1] + w[k / 2]);
    }
    free(w);
    return s;
}

double fkc_median(const double *v, size_t n) { return fkc_summarize(v, n).median; }

double fkc_fpr_rate(fkc_fpr_count c)
{
    return c.negatives ? (double)c.false_positives / (double)c.negatives : NAN;
}

void fkc_fpr_interval(fkc_fpr_count c, double *lo, double *hi)
{
    if (!c.negatives) {
        *lo = *hi = NAN;
        return;
    }
    const double z = 1.959963984540054; /* 97.5% normal quantile */
    double n = (double)c.negatives, p = (double)c.false_positives / n;
    double d = 1 + z * z / n;
    double mid = (p + z * z / (2 * n)) / d;
    double half = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d;
    *lo = mid - half < 0 || c.false_positives == 0 ? 0 : mid - half;
    *hi = mid + half > 1 ? 1 : mid + half;
}

uint64_t fkc_fpr_negatives_for(double fpr)
{
    if (!(fpr > 0))
        return FKC_FPR_NEG_CAP;
    double want = ceil(100.0 / fpr);
    if (want < (double)FKC_FPR_NEG_MIN)
        return FKC_FPR_NEG_MIN;
    if (want > (double)FKC_FPR_NEG_CAP)
        return FKC_FPR_NEG_CAP;
    return (uint64_t)want;
}
