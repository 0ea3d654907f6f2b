/* bench/memory_model.h: a kind's memory at any n, as the kind itself
 * answers it (fk_ops_size), so `pick` can answer for n = 1e9 after
 * measuring at 2M. Kinds that cannot say are scaled linearly from a
 * measurement. */
#ifndef FK_BENCH_MEMORY_MODEL_H
#define FK_BENCH_MEMORY_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include "../common/filter.h"

/* Bytes a filter of the kind holds at (n, fpr), from fk_ops_size; 0 when
 * the kind cannot say. When desc is not NULL, writes the derived
 * parameters ("m = 9585059 bits, k = 7 probes") into it ("" when unknown). */
uint64_t fk_model_bytes(const fk_ops *ops, uint64_t n, double fpr, char *desc, size_t len);

/* Memory at n, extrapolated from a measurement of `measured` bytes at
 * n_meas: model(n) plus the measured fixed overhead when the formula
 * matches the measurement to within 4 KiB, model(n) scaled by
 * measured / model(n_meas) when it is off by a constant factor, or a
 * linear scaling when there is no formula. *exact says which. */
uint64_t fk_model_extrapolate(const fk_ops *ops, double fpr, uint64_t n_meas, uint64_t measured,
                              uint64_t n, int *exact);

#endif
