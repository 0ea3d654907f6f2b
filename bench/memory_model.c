/* bench/memory_model.c: see memory_model.h. */
#include <math.h>
#include <stdio.h>
#include "memory_model.h"

uint64_t fk_model_bytes(const fk_ops *ops, uint64_t n, double fpr, char *desc, size_t len)
{
    fk_params p = fk_params_make(n, fpr);
    fk_sizing sz;
    fk_ops_size(ops, &p, &sz); /* all zero when the kind cannot say */
    if (desc && len)
        snprintf(desc, len, "%s", sz.geometry);
    return sz.memory_bytes;
}

uint64_t fk_model_extrapolate(const fk_ops *ops, double fpr, uint64_t n_meas, uint64_t measured,
                              uint64_t n, int *exact)
{
    uint64_t at_meas = fk_model_bytes(ops, n_meas, fpr, NULL, 0);
    uint64_t at_n = fk_model_bytes(ops, n, fpr, NULL, 0);
    *exact = 0;
    if (!at_meas || !at_n) /* the kind cannot say: linear in n */
        return (uint64_t)ceil((double)measured * (double)n / (double)n_meas);
    if (measured >= at_meas && measured - at_meas <= 4096) {
        *exact = 1;
        return at_n + (measured - at_meas);
    }
    /* the kind's own figure is off by a factor: scale it */
    return (uint64_t)ceil((double)at_n * (double)measured / (double)at_meas);
}
