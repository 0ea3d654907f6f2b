/* common/filter.h: the one interface every filter kind implements.
 *
 * A kind (bloom, counting, cuckoo, or an external adapter in bench/) fills
 * in an fk_ops table; every filter object begins with an fk_filter header
 * that points at that table, and the fk_filter_* functions below dispatch
 * through it. Optional methods are NULL and the dispatcher answers
 * FK_EUNSUPPORTED for them, never crashes (the SQLite VFS habit).
 *
 * Keys are byte strings (pointer + length). A zero-length key is a valid key
 * (its pointer may be NULL); a NULL pointer with len > 0 is FK_EINVAL.
 */
#ifndef FK_FILTER_H
#define FK_FILTER_H

#ifdef __cplusplus
extern "C" {
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "status.h"
#include "params.h"
#include "version.h"

typedef struct fk_ops fk_ops;
typedef struct fk_filter fk_filter;
typedef struct fk_serial_head fk_serial_head; /* defined in serial.h */

/* Capability flags in fk_ops.caps. */
#define FK_CAP_REMOVE    (1u << 0) /* remove() is implemented */
#define FK_CAP_COUNT     (1u << 1) /* the kind can estimate multiplicities */
#define FK_CAP_SERIALIZE (1u << 2) /* save/load are implemented */
#define FK_CAP_BOUNDED   (1u << 3) /* insert can answer FK_EFULL: the kind has a
                                      hard capacity (without it, inserts past
                                      capacity succeed and the FPR rises) */
#define FK_CAP_GROWS     (1u << 4) /* the filter grows instead of answering
                                      FK_EFULL (the scalable kinds): it needs
                                      no capacity up front */

/* The vtable. Tables are static const and built with designated
 * initializers, so new optional slots can be appended without touching
 * existing kinds (a missing slot is NULL = unsupported). */
struct fk_ops {
    const char *name;    /* "bloom", "counting", "cuckoo", "libbloom", ... */
    const char *summary; /* one line describing the kind, for --help */
    unsigned    caps;    /* FK_CAP_* */

    /* Required. Same contract as fk_filter_new / _free / _insert / ... */
    fk_status (*create)(const fk_params *p, fk_filter **out);
    void      (*destroy)(fk_filter *f);
    fk_status (*insert)(fk_filter *f, const void *key, size_t len);
    bool      (*contains)(const fk_filter *f, const void *key, size_t len);
    void      (*stats)(const fk_filter *f, fk_stats *out);

    /* Optional (NULL when the kind cannot do it). */
    fk_status (*remove)(fk_filter *f, const void *key, size_t len);

    /* Serialization (optional; a kind sets all of these and FK_CAP_SERIALIZE,
     * or none). The file format and each hook's contract are in serial.h. */
    uint32_t  kind_id; /* FK_KIND_*: the kind's number in the file header */
    void      (*save_head)(const fk_filter *f, fk_serial_head *h);
    void      (*save_payload)(const fk_filter *f, uint8_t *dst);
    fk_status (*check_head)(const fk_serial_head *h);
    fk_status (*load)(const fk_serial_head *h, const uint8_t *payload, fk_filter **out);
};

/* The header every filter object starts with. Kinds embed it as their first
 * member, so a pointer to the kind's struct is a pointer to its fk_filter. */
struct fk_filter {
    const fk_ops *ops;
};

/* Creates a filter of the kind `ops` sized by p.
 * Returns FK_OK and stores a new filter in *out (the caller owns it and
 * releases it with fk_filter_free); FK_EINVAL for NULL ops/p/out or bad
 * params (see fk_params_check and each kind's header); FK_ENOMEM when the
 * allocation fails. On any error *out is set to NULL (when out is not NULL).
 * Cost: O(size of the filter) to allocate and zero it. */
FK_API fk_status fk_filter_new(const fk_ops *ops, const fk_params *p, fk_filter **out);

/* Adds key. Returns FK_OK; FK_EINVAL for f NULL or key NULL with len > 0;
 * FK_EFULL when the kind has no room (nothing is lost, the filter answers as
 * before). Cost: one hash of the key plus the kind's probes. */
FK_API fk_status fk_filter_insert(fk_filter *f, const void *key, size_t len);

/* Returns true when key may be in the set, false when it is definitely not
 * (no false negatives for keys inserted with FK_OK and not removed).
 * f NULL, or key NULL with len > 0, answers false. Cost: one hash + probes. */
FK_API bool fk_filter_contains(const fk_filter *f, const void *key, size_t len);

/* Removes one earlier insertion of key. Returns FK_OK; FK_ENOTFOUND when the
 * key is definitely absent (nothing changed); FK_EUNSUPPORTED when the kind
 * cannot remove (plain Bloom); FK_EINVAL for f NULL or key NULL with len > 0.
 * Removing a key that was never inserted may cause false negatives for
 * other keys (see the kind's header). Cost: one hash + probes. */
FK_API fk_status fk_filter_remove(fk_filter *f, const void *key, size_t len);

/* Fills *out with the filter's current figures (see fk_stats). f or out
 * NULL: no-op (out, if given, is zeroed). Cost: O(1) for kinds that keep
 * counts, O(size) for those that must scan (documented per kind). */
FK_API void fk_filter_stats(const fk_filter *f, fk_stats *out);

/* Releases f and everything it owns. NULL is a no-op. Cost: O(1). */
FK_API void fk_filter_free(fk_filter *f);

/* Returns the kind's vtable (never NULL for a valid filter; NULL for f NULL). */
FK_API const fk_ops *fk_filter_ops(const fk_filter *f);

/* Registry, defined only in the all-in-one library (libfilterkit): returns
 * the ops of the built-in kind called name ("bloom", "counting", "cuckoo"),
 * or NULL for an unknown name or NULL. Cost: O(number of kinds). */
FK_API const fk_ops *fk_ops_find(const char *name);

/* Registry listing: returns the i-th built-in kind, or NULL when i is past
 * the end (iterate from 0 until NULL). All-in-one library only. */
FK_API const fk_ops *fk_ops_at(size_t i);

/* Registry by file kind id (fk_ops.kind_id, FK_KIND_* in serial.h): returns
 * the built-in kind that serializes under that id, or NULL for 0 or an
 * unknown id. All-in-one library only. Cost: O(number of kinds). */
FK_API const fk_ops *fk_ops_find_kind_id(uint32_t kind_id);

#ifdef __cplusplus
}
#endif

#endif
