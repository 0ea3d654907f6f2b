/* bench/measure/memory_model.h: a kind's memory at any n, as the kind itself
 * answers it (fk_ops_size), so `pick` can answer for n = 1e9 after
 * measuring at 2M. Kinds that cannot say are scaled linearly from a
 * measurement. */
#ifndef FKC_BENCH_MEMORY_MODEL_H
#define FKC_BENCH_MEMORY_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include "../../common/filter.h"

/* What the model answers for a size that does not fit in 64 bits. */
#define FKC_MODEL_TOO_BIG UINT64_MAX

/* Bytes a filter of the kind holds at (n, fpr), from fk_ops_size; 0 when
 * the kind cannot say; FKC_MODEL_TOO_BIG when the kind refuses that size
 * (past 64 bits or its memory cap; never a wrapped product). When desc is
 * not NULL, writes the derived parameters ("m = 9585059 bits, k = 7
 * probes") into it ("" when unknown). */
uint64_t fkc_model_bytes(const fk_ops *ops, uint64_t n, double fpr, char *desc, size_t len);

/* Memory at n (FKC_MODEL_TOO_BIG when it overflows), extrapolated from a measurement of `measured` bytes at
 * n_meas: model(n) plus the measured fixed overhead when the formula
 * matches the measurement to within 4 KiB, model(n) scaled by
 * measured / model(n_meas) when it is off by a constant factor, or a
 * linear scaling when there is no formula. *exact says which. */
uint64_t fkc_model_extrapolate(const fk_ops *ops, double fpr, uint64_t n_meas, uint64_t measured,
                              uint64_t n, int *exact);

/* The kind's theoretical false-positive rate when sized for (n, fpr) and
 * holding n items, as the kind answers it (fk_ops_expected_fpr: Bloom's k is
 * a whole number, so the rate can sit slightly above fpr; a cuckoo
 * fingerprint is at most 32 bits, so a tiny fpr cannot be reached); 1.0 when
 * the kind refuses those params; measured_theory (fk_stats' expected_fpr of
 * a measured filter) for kinds that cannot say. */
double fkc_model_fpr(const fk_ops *ops, uint64_t n, double fpr, double measured_theory);

#endif
