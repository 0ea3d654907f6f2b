/* common/sizing_internal.h: the Bloom sizing formulas and theoretical
 * false-positive rates that bloom/, counting/ and blocked/ share. Internal
 * (not installed, not exported): a user asks a kind for its sizes and theory
 * through fk_ops_size / fk_ops_expected_fpr (common/filter.h); the bench,
 * the tests, the Redis module and the Python extension, which link the
 * static library, call these directly to print theory beside measurement
 * (cuckoo's own are in cuckoo/cuckoo_internal.h). All functions are pure and
 * O(1) (or O(k)); none allocates.
 */
#ifndef FK_SIZING_INTERNAL_H
#define FK_SIZING_INTERNAL_H

#ifdef __cplusplus
extern "C" {
#endif

#include <stdint.h>
#include "status.h"
#include "params.h"

/* ------------------------------------------------------------ Bloom */

/* Bits m for n items at false-positive rate p: ceil(-n ln p / (ln 2)^2).
 * Returns 0 when n is 0, p is not in (0,1) or NaN, or m would not fit in
 * uint64_t. */
uint64_t fk_size_bloom_bits(uint64_t n, double p);

/* Probes k = round((m/n) ln 2), at least 1 and at most FK_BLOOM_MAX_HASHES.
 * Returns 0 when m or n is 0. */
uint32_t fk_size_bloom_hashes(uint64_t m, uint64_t n);

/* Theoretical FPR of a Bloom filter with m bits and k probes holding n
 * items: (1 - e^{-kn/m})^k. Returns 1.0 for m or k 0, 0.0 for n <= 0 or NaN. */
double fk_theory_bloom_fpr(uint64_t m, uint32_t k, double n);

/* FPR of a filter whose fraction `fill` of bits is set: fill^k. fill is
 * clamped to [0, 1] (NaN reads as 0), so the result is a rate in [0, 1]. */
double fk_theory_bloom_fpr_at_fill(double fill, uint32_t k);

/* Estimate of the number of distinct items inserted, from the number of set
 * bits x (Swamidass & Baldi 2007): -(m/k) ln(1 - x/m). Returns +inf when
 * every bit is set, 0 for m or k 0. */
double fk_theory_bloom_items(uint64_t m, uint32_t k, uint64_t x);

#ifdef __cplusplus
}
#endif

#endif
