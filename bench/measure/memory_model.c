/* bench/measure/memory_model.c: see memory_model.h. */
#include <math.h>
#include <stdio.h>
#include "memory_model.h"

uint64_t fkc_model_bytes(const fk_ops *ops, uint64_t n, double fpr, char *desc, size_t len)
{
    if (desc && len)
        desc[0] = 0;
    fk_params p = fk_params_make(n, fpr);
    fk_sizing sz;
    fk_status s = fk_ops_size(ops, &p, &sz);
    if (!ops || s == FK_EUNSUPPORTED) /* the kind cannot say */
        return 0;
    if (s != FK_OK) /* valid (n, fpr) the kind refuses: too big for it */
        return n && fpr > 0 && fpr < 1 ? FKC_MODEL_TOO_BIG : 0;
    if (desc)
        snprintf(desc, len, "%s", sz.geometry);
    return sz.memory_bytes;
}

/* x rounded up to a whole number of bytes, FKC_MODEL_TOO_BIG past 2^64. */
static uint64_t saturate(double x)
{
    x = ceil(x);
    return x < 18446744073709549568.0 ? (uint64_t)x : FKC_MODEL_TOO_BIG;
}

uint64_t fkc_model_extrapolate(const fk_ops *ops, double fpr, uint64_t n_meas, uint64_t measured,
                              uint64_t n, int *exact)
{
    uint64_t at_meas = fkc_model_bytes(ops, n_meas, fpr, NULL, 0);
    uint64_t at_n = fkc_model_bytes(ops, n, fpr, NULL, 0);
    *exact = 0;
    if (at_n == FKC_MODEL_TOO_BIG)
        return at_n;
    if (!at_meas || !at_n || at_meas == FKC_MODEL_TOO_BIG || !n_meas) /* the kind cannot say: linear in n */
        return saturate((double)measured * (double)n / (double)(n_meas ? n_meas : 1));
    if (measured >= at_meas && measured - at_meas <= 4096) {
        *exact = 1;
        return at_n + (measured - at_meas);
    }
    /* the kind's own figure is off by a factor: scale it */
    return saturate((double)at_n * (double)measured / (double)at_meas);
}

double fkc_model_fpr(const fk_ops *ops, uint64_t n, double fpr, double measured_theory)
{
    fk_params p = fk_params_make(n, fpr);
    double theory;
    fk_status s = fk_ops_expected_fpr(ops, &p, (double)n, &theory);
    if (s == FK_OK)
        return theory;
    return s == FK_EUNSUPPORTED ? measured_theory : 1.0;
}
