/* registry/registry.h: the cross-kind part of the all-in-one
 * library libfilterkit (never of a module archive): adding kinds to the
 * registry at run time, and converting between kinds. The lookups
 * themselves (fk_ops_find, fk_ops_at, fk_ops_find_kind_id) are declared in
 * common/filter.h, fk_filter_load_any in common/serial.h.
 */
#ifndef FK_REGISTRY_H
#define FK_REGISTRY_H

#include "../common/filter.h"
#include "../bloom/bloom.h"
#include "../counting/counting.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The growing kinds (scalable_kinds.c): chains of bloom, blocked and
 * cuckoo filters (common/scalable.h), registered as "scalable-bloom",
 * "scalable-blocked" and "scalable-cuckoo". */
FK_API extern const fk_ops fk_scalable_bloom_ops;
FK_API extern const fk_ops fk_scalable_blocked_ops;
FK_API extern const fk_ops fk_scalable_cuckoo_ops;

/* Most kinds fk_ops_register accepts, beyond the built-in ones. */
#define FK_REGISTRY_EXTRA_MAX 16u

/* Adds ops to the registry after the built-in kinds, so that fk_ops_find,
 * fk_ops_at, fk_filter_load_any (for a kind with a serial table) and every
 * tool built on them (`filterkit bench`, `pick`, `build`) know it. The
 * table must live as long as the program (a static const table). Returns
 * FK_OK; FK_EINVAL when ops fails fk_ops_check, or its name or file kind id
 * is already taken (registering the same table twice is FK_OK and adds
 * nothing); FK_EFULL after FK_REGISTRY_EXTRA_MAX kinds. Not thread-safe:
 * register before other threads use the registry. Cost: O(number of kinds). */
FK_API fk_status fk_ops_register(const fk_ops *ops);

/* Builds a plain Bloom filter that answers exactly as c does (counter > 0
 * -> bit set), counter_bits times smaller: build with removes, ship a Bloom
 * filter. The result has c's m, k, seed, capacity, target fpr and item
 * count, and saves and loads like any Bloom filter. Returns FK_OK with a
 * new filter in *out (the caller frees it with fk_bloom_free); FK_EINVAL
 * for NULL c or out; FK_ENOMEM when allocation fails. *out is NULL on
 * error. It lives here, not in counting/, since no module depends on
 * another: a program linking only the two module archives does the same
 * with fk_counting_export_bits and fk_bloom_from_bits.
 * Cost: O(m x counter_bits / 8) time, O(m / 8) bytes. */
FK_API fk_status fk_counting_to_bloom(const fk_counting *c, fk_bloom **out);

#ifdef __cplusplus
}
#endif

#endif
