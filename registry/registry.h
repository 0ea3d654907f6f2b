/* registry/registry.h: the built-in kinds, by name, position and file
 * kind id; more kinds added at run time; loading a saved filter of any
 * kind; the growing kinds bound to their inner kind; converting between
 * kinds. The one part of the library that knows every kind, so it lives
 * only in the all-in-one library libfilterkit (libfilterkit.a, .so), never
 * in a module archive: a program that links one kind's archive and
 * libfk_common.a names its kind's fk_ops directly instead.
 *
 *   #include <filterkit/registry/registry.h>     // cc app.c -lfilterkit
 *   const fk_ops *ops = fk_ops_find("cuckoo");   // NULL: no such kind
 *   for (size_t i = 0; (ops = fk_ops_at(i)) != NULL; i++) puts(ops->name);
 *
 * Thread safety: the lookups read the list and may run together, but not
 * beside fk_ops_register (register kinds first).
 */
#ifndef FK_REGISTRY_H
#define FK_REGISTRY_H

#include <stdio.h>
#include "../common/filter.h"
#include "../common/serial.h"
#include "../bloom/bloom.h"
#include "../counting/counting.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ lookups */

/* Returns the ops of the kind called name (built-ins first, then those
 * added with fk_ops_register), or NULL for an unknown name or NULL.
 * Cost: O(number of kinds). */
FK_API const fk_ops *fk_ops_find(const char *name);

/* Returns the i-th kind (built-ins first, in registry.c's order, then the
 * registered ones in order), or NULL when i is past the end: iterate from 0
 * until NULL. Cost: O(1). */
FK_API const fk_ops *fk_ops_at(size_t i);

/* Returns the kind that saves under file kind id kind_id
 * (fk_serial_ops.kind_id; README.md in this folder lists them), or NULL for
 * 0 or an unknown id. Cost: O(number of kinds). */
FK_API const fk_ops *fk_ops_find_kind_id(uint32_t kind_id);

/* As fk_filter_load / fk_filter_load_file (common/serial.h), for any kind
 * the registry knows: the kind comes from the header's kind id (kinds that
 * share an id, the growing ones, are told apart by their check_head). An
 * unknown kind id is FK_ECORRUPT; every other status as fk_filter_load.
 * The caller owns *out (fk_filter_free). Cost: O(len). */
FK_API fk_status fk_filter_load_any(const void *buf, size_t len, fk_filter **out);
FK_API fk_status fk_filter_load_file_any(FILE *fp, fk_filter **out);

/* ------------------------------------------------------ growing kinds */

/* The growing kinds (scalable_kinds.c): chains of bloom, blocked and
 * cuckoo filters (scalable/scalable.h), registered as "scalable-bloom",
 * "scalable-blocked" and "scalable-cuckoo". */
FK_API extern const fk_ops fk_scalable_bloom_ops;
FK_API extern const fk_ops fk_scalable_blocked_ops;
FK_API extern const fk_ops fk_scalable_cuckoo_ops;

/* ------------------------------------------------------ more kinds */

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

/* ------------------------------------------------- converting kinds */

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
