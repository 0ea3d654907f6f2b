/* common/sizing.c: the formulas of sizing_internal.h. */
#include <math.h>
#include "sizing_internal.h"
#include "probe.h" /* fk_size_bloom_geometry */

/* ------------------------------------------------------------ Bloom */

uint64_t fk_size_bloom_bits(uint64_t n, double p)
{
    if (n == 0 || !(p > 0.0 && p < 1.0))
        return 0;
    const double ln2 = 0.69314718055994530942;
    double m = ceil(-(double)n * log(p) / (ln2 * ln2));
    if (!(m < 18446744073709549568.0)) /* largest double below 2^64 */
        return 0;
    return m < 1.0 ? 1 : (uint64_t)m;
}

uint32_t fk_size_bloom_hashes(uint64_t m, uint64_t n)
{
    if (m == 0 || n == 0)
        return 0;
    double k = round((double)m / (double)n * 0.69314718055994530942);
    if (k < 1.0)
        return 1;
    if (k > FK_BLOOM_MAX_HASHES)
        return FK_BLOOM_MAX_HASHES;
    return (uint32_t)k;
}

fk_status fk_size_bloom_geometry(const fk_params *p, uint64_t *m, uint32_t *k)
{
    fk_status s = fk_params_check(p);
    if (s != FK_OK)
        return s;
    if (p->hashes > FK_BLOOM_MAX_HASHES)
        return FK_EINVAL;
    *m = p->bits ? p->bits : fk_size_bloom_bits(p->capacity, p->fpr);
    if (*m == 0)
        return FK_EINVAL;
    *k = p->hashes ? p->hashes : fk_size_bloom_hashes(*m, p->capacity);
    return FK_OK;
}

double fk_theory_bloom_fpr(uint64_t m, uint32_t k, double n)
{
    if (m == 0 || k == 0)
        return 1.0;
    if (!(n > 0.0)) /* empty (or a nonsense negative count, or NaN) */
        return 0.0;
    return pow(-expm1(-(double)k * n / (double)m), (double)k);
}

/* A fraction clamped to [0, 1]; NaN reads as 0 (nothing known to be set). */
static double unit_interval(double x)
{
    return x > 1.0 ? 1.0 : x > 0.0 ? x : 0.0;
}

double fk_theory_bloom_fpr_at_fill(double fill, uint32_t k)
{
    return pow(unit_interval(fill), (double)k);
}

double fk_theory_bloom_items(uint64_t m, uint32_t k, uint64_t x)
{
    if (m == 0 || k == 0)
        return 0.0;
    if (x >= m)
        return INFINITY;
    return -((double)m / (double)k) * log1p(-(double)x / (double)m);
}
