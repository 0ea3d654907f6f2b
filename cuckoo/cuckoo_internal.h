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
    pthread_mutex_t writer; /* held by the concurrent writers (cuckoo.c) */
};

/* The key's fingerprint and buckets under the filter's scheme (the legacy
 * one only for filters loaded from old files; the test predicts well). */
static inline fk_cplace fk_cuckoo_place(const fk_cuckoo *c, const void *key, size_t len)
{
    if (__builtin_expect(c->map.scheme == FK_CUCKOO_SCHEME_LEGACY, 0))
        return fk_cmap_place_legacy(&c->map, key, len, c->seed);
    return fk_cmap_place(&c->map, key, len, c->seed);
}

/* The fk_ops batch slots (cuckoo_batch.c), for the table in cuckoo.c. */
void      fk_cuckoo_ops_contains_many(const fk_filter *f, size_t n, const void *const keys[],
                                      const size_t lens[], bool out[]);
fk_status fk_cuckoo_ops_insert_many(fk_filter *f, size_t n, const void *const keys[],
                                    const size_t lens[], size_t *done);
void      fk_cuckoo_ops_contains_many_u64(const fk_filter *f, size_t n, const uint64_t keys[],
                                          bool out[]);
fk_status fk_cuckoo_ops_insert_many_u64(fk_filter *f, size_t n, const uint64_t keys[],
                                        size_t *done);
fk_status fk_cuckoo_ops_remove_many(fk_filter *f, size_t n, const void *const keys[],
                                    const size_t lens[], size_t *done);

/* Builds an empty filter of exactly `buckets` buckets and f-bit
 * fingerprints (no sizing) under hash scheme `scheme` (cuckoo_hash.h):
 * blocks, any buckets >= 1; or legacy, buckets a power of two. FK_EINVAL
 * for any other geometry; otherwise the allocation rules of fk_cuckoo_new. */
fk_status fk_cuckoo_create_exact(uint32_t scheme, uint64_t buckets, uint32_t f, uint64_t seed,
                                 uint64_t capacity, double fpr, fk_cuckoo **out);

/* True when the geometry is one fk_cuckoo_create_exact accepts (the
 * fingerprint width aside). Cost: O(1). */
bool fk_cuckoo_geometry_ok(uint32_t scheme, uint64_t buckets);

/* ------------------------------------------ lookups beside the writer
 * (cuckoo.c): a kick path bumps c->moves to odd before it moves
 * fingerprints and to even after; a lookup that missed while it changed
 * reads both buckets again. */

/* The move count a lookup starts from. */
static inline uint64_t fk_cuckoo_moves_seen(const fk_cuckoo *c)
{
    return atomic_load_explicit(&c->moves, memory_order_acquire);
}

/* True when no move ran during the reads that followed fk_cuckoo_moves_seen() == v,
 * so a miss then is a real miss. */
static inline bool fk_cuckoo_moves_settled(const fk_cuckoo *c, uint64_t v)
{
#if !FK_TSAN /* TSan builds: every slot load is an acquire itself (cuckoo_table.h) */
    atomic_thread_fence(memory_order_acquire); /* the bucket reads come first */
#endif
    return !(v & 1) && atomic_load_explicit(&c->moves, memory_order_relaxed) == v;
}

/* The re-read of a lookup that missed beside moves (cuckoo.c, out of line:
 * a single-threaded filter never comes here). */
bool fk_cuckoo_lookup_again(const fk_cuckoo *c, uint64_t i1, uint64_t i2, uint32_t fp);

/* fk_cuckoo_insert / fk_cuckoo_remove of a key already placed (cuckoo.c),
 * statuses included (FK_EFULL with nothing lost; FK_ENOTFOUND): the
 * writer's part, which the batches call per key and the concurrent calls
 * run under c->writer. */
fk_status fk_cuckoo_insert_placed(fk_cuckoo *c, const fk_cplace *k);
fk_status fk_cuckoo_remove_placed(fk_cuckoo *c, const fk_cplace *k);

/* The saving hooks of fk_cuckoo_ops (cuckoo_serial.c; contracts in
 * common/serial.h). */
extern const fk_serial_ops fk_cuckoo_serial_ops;

#endif
