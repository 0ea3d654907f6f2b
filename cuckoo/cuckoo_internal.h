/* cuckoo/cuckoo_internal.h: the cuckoo filter's layout, shared by the
 * files of this module (policy, vtable, serialization). Not installed. */
#ifndef FK_CUCKOO_INTERNAL_H
#define FK_CUCKOO_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include "cuckoo.h"
#include "cuckoo_hash.h"
#include "cuckoo_table.h"

/* A lookup and an insert specialised for the filter's scheme and width
 * (cuckoo.c). */
typedef bool (*fk_cuckoo_lookup_fn)(const fk_cuckoo *c, const void *key, size_t len);
typedef fk_status (*fk_cuckoo_insert_fn)(fk_cuckoo *c, const void *key, size_t len);

struct fk_cuckoo {
    fk_filter base;        /* must stay first: an fk_cuckoo * is an fk_filter * */
    fk_ctab   table;       /* the packed buckets */
    fk_cmap   map;         /* key -> fingerprint and buckets (cuckoo_hash.h) */
    fk_cuckoo_lookup_fn lookup; /* fk_cuckoo_contains' body, chosen at creation */
    fk_cuckoo_insert_fn insert; /* fk_cuckoo_insert's body, likewise */
    uint64_t  seed;        /* hash seed */
    uint64_t  capacity;    /* items it was sized for */
    double    fpr;         /* target it was sized for */
    fk_cuckoo_observer observer; /* NULL: no kick events */
    void     *observer_ctx;
    /* What the writer changes on every insert lives a cache line away from
     * what every lookup reads above, so lookups beside a writer do not
     * lose their line to it on each insert. */
    char      gap[64];
    uint64_t  items;       /* occupied slots */
    uint64_t  kicks;       /* eviction steps so far (including those of failed walks) */
    uint64_t  rng;         /* kick PRNG state (splitmix64), from the seed */
    /* Bumped to odd before a kick path starts moving fingerprints and to
     * even when it is done: a lookup that missed while it changed looks
     * again (cuckoo.c, "lookups beside the writer"). */
    _Atomic uint64_t moves;
    pthread_mutex_t writer; /* held by the concurrent writers (cuckoo_concurrent.c) */
};

/* Builds an empty filter of exactly `buckets` buckets and f-bit
 * fingerprints (no sizing) under hash scheme `scheme` (cuckoo_hash.h):
 * blocks, any buckets >= 1; or legacy, buckets a power of two. FK_EINVAL
 * for any other geometry; otherwise the allocation rules of fk_cuckoo_new. */
fk_status fk_cuckoo_create_exact(uint32_t scheme, uint64_t buckets, uint32_t f, uint64_t seed,
                                 uint64_t capacity, double fpr, fk_cuckoo **out);

/* True when the geometry is one fk_cuckoo_create_exact accepts (the
 * fingerprint width aside). Cost: O(1). */
bool fk_cuckoo_geometry_ok(uint32_t scheme, uint64_t buckets);

/* The key's fingerprint and buckets under c's scheme (no lock needed). */
fk_cplace fk_cuckoo_place(const fk_cuckoo *c, const void *key, size_t len);

/* fk_cuckoo_insert / fk_cuckoo_remove of a key already placed: the
 * writer's part, which the concurrent calls run under c->writer. */
fk_status fk_cuckoo_insert_placed(fk_cuckoo *c, const fk_cplace *k);
fk_status fk_cuckoo_remove_placed(fk_cuckoo *c, const fk_cplace *k);

/* The saving hooks of fk_cuckoo_ops (cuckoo_serial.c; contracts in
 * common/serial.h). */
extern const fk_serial_ops fk_cuckoo_serial_ops;

#endif
