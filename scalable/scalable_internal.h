/* scalable/scalable_internal.h: the growing filter's struct, shared by
 * scalable.c (the chain) and scalable_serial.c (its saved form). */
#ifndef FK_SCALABLE_INTERNAL_H
#define FK_SCALABLE_INTERNAL_H

#include <stdbool.h>
#include "../common/hashed.h"
#include "../common/tally.h"
#include "scalable.h"

typedef struct {
    fk_filter *filter;
    uint64_t   capacity; /* items it was sized for: c0 * s^i */
    double     fpr;      /* fpr it was asked for: at least e0 * r^i */
    uint64_t   items;    /* inserted into it minus removed from it */
    fk_hashed_probes probes; /* its probes from a hash, where the chain
                                hashes once (hash_once) */
    uint64_t   unused[2]; /* 64 bytes a link: the hot paths index links by
                             a shift, not a multiply (3 instructions an
                             insert) */
} fk_scalable_link;
_Static_assert(sizeof(fk_scalable_link) == 64 || sizeof(void *) != 8,
               "a link is 64 bytes on 64-bit targets");

typedef struct {
    fk_filter         base;
    const fk_ops     *inner;
    fk_params         first;   /* link 0's params (fpr e0, knobs cleared) */
    double            target;  /* the caller's fpr for the whole chain */
    uint32_t          growth;
    double            tightening;
    bool              bounded; /* inner has FK_CAP_BOUNDED: full at FK_EFULL */
    bool              newest_full;
    size_t            count;   /* links in use, >= 1 */
    size_t            slots;   /* links allocated: fk_scalable_slots(count) */
    fk_scalable_link *link;
    uint64_t          items;
    uint64_t          link_memory; /* sum of the links' memory_bytes */
    double            spent;       /* sum of the links' fprs when full */
    uint64_t          max_bytes;   /* the chain's byte limit, all of it
                                      (fk_params_max_bytes); not saved */
    const fk_hashed_ops *hashed;   /* the inner kind's probes from a hash
                                      (fk_scalable_bind_hashed), or NULL */
    bool              hash_once;   /* hashed, and every link takes its hash:
                                      a key is hashed once for all links */
    /* The concurrent writers (scalable.c, "many writers"): the chain's
     * count of their inserts and removes (added to items by the readers),
     * the lock of the one writer adding a link, whether the link array has
     * room for every link the chain may have (so it never moves while they
     * run), and the links the array has room for (>= slots). */
    fk_tally          c_items;
    _Atomic unsigned char growing;
    _Atomic int       presized;
    size_t            room;
} fk_scalable;

/* The chain's count with the concurrent writers' (a sum mod 2^64). */
static inline uint64_t fk_scalable_items(const fk_scalable *c)
{
    return c->items + fk_tally_sum(&c->c_items);
}

/* Links allocated for `count` in use: 8, then the next power of two, so
 * the memory a chain reports depends only on its links. */
static inline size_t fk_scalable_slots(size_t count)
{
    size_t n = 8;
    while (n < count)
        n *= 2;
    return n;
}

/* Bytes the chain holds beside its links, with `count` links. */
static inline uint64_t fk_scalable_overhead(size_t count)
{
    return sizeof(fk_scalable) + fk_scalable_slots(count) * sizeof(fk_scalable_link);
}

/* True when f is a chain made by this wrapper (its stats slot is ours). */
bool fk_scalable_is(const fk_filter *f);

/* Resolves defaults and checks the knobs: FK_OK or FK_EINVAL. */
fk_status fk_scalable_knobs_check(const fk_params *p, uint32_t *growth, double *tightening);

/* The params of link i = c->count (capacity and fpr) following link
 * i-1's (prev): capacity times growth; fpr the chain's budget up to link i
 * less what links 0 to i-1 spend (c->spent), never below prev's fpr times
 * tightening. FK_EINVAL on overflow or underflow. */
fk_status fk_scalable_next_params(const fk_scalable *c, const fk_params *prev,
                                  fk_params *next);

/* The fpr link q reaches when full (what it spends of the chain's
 * budget): at its capacity, or with every slot taken for a bounded kind;
 * q->fpr when the inner kind has no sizing slot. */
double fk_scalable_link_spend(const fk_ops *inner, const fk_params *q);

/* A new chain object with no links (count 0) and `slots` link slots, for
 * fk_scalable_new_as and the loader; NULL when allocation fails. */
fk_scalable *fk_scalable_alloc(const fk_ops *outer, const fk_ops *inner, const fk_params *p,
                               uint32_t growth, double tightening, size_t slots);

/* ------------------------------------------------ the chain's accessors
 *
 * Not exported (the shared library reaches them through
 * fk_filter_describe's rows); for the library, its tests and figures,
 * and RedisBloom's BF and CF replies, which link the static library. */

/* Returns the number of links of f (>= 1), or 0 when f is NULL or not a
 * growing filter made by this wrapper. Cost: O(1). */
size_t fk_scalable_links(const fk_filter *f);

/* Fills *out with the stats of link i of f (0 is the oldest, links - 1 the
 * newest, the one taking inserts) and, when target is not NULL, stores
 * there the fpr that link was sized for. Returns FK_OK; FK_EINVAL for f or
 * out NULL, f not a growing filter, or i past the last link (*out zeroed,
 * *target 0). Cost: the inner kind's stats (O(1) or a scan of that link). */
fk_status fk_scalable_link_stats(const fk_filter *f, size_t i, fk_stats *out,
                                        double *target);

/* Returns the inner kind of f, or NULL when f is NULL or not a growing
 * filter. Cost: O(1). */
const fk_ops *fk_scalable_inner(const fk_filter *f);

/* Returns the bytes f holds (the stats' memory_bytes) without the stats'
 * scan of every link, or 0 when f is not a growing filter. Cost: O(1). */
uint64_t fk_scalable_memory_bytes(const fk_filter *f);

/* Returns the byte limit of f (resolved: never 0), or 0 when f is not a
 * growing filter. Cost: O(1). */
uint64_t fk_scalable_max_bytes(const fk_filter *f);

/* Stores in *growth and *tightening (either may be NULL) the values f
 * uses, defaults resolved. Returns FK_OK, or FK_EINVAL when f is NULL or
 * not a growing filter (nothing stored). Cost: O(1). */
fk_status fk_scalable_knobs(const fk_filter *f, uint32_t *growth, double *tightening);

/* --------------------- binding the wrapper to a kind (registry, internal)
 *
 * The registered kinds (registry/scalable_kinds.c) are small fk_ops
 * tables whose slots call these with their own table (`outer`, stored as
 * the filter's ops) and their inner kind's. Not part of the public API. */

/* Counts one link's copies of a key (a kind's count, e.g. a cuckoo
 * filter's matching fingerprints): FK_OK with *count set, or a status. */
typedef fk_status (*fk_scalable_count_fn)(const fk_filter *link, const void *key, size_t len,
                                          uint64_t *count);

/* Stores in *count the copies of key over every link of f: the sum of
 * count_link over the links (an estimate that never undercounts the
 * times the key was inserted minus removed, for a cuckoo inner kind).
 * Returns FK_OK; FK_EINVAL for f not a growing filter, count or
 * count_link NULL, or key NULL with len > 0; else count_link's status
 * (*count 0). Cost: count_link once per link. May run with lookups. */
fk_status fk_scalable_count(const fk_filter *f, const void *key, size_t len,
                            fk_scalable_count_fn count_link, uint64_t *count);

fk_status fk_scalable_new_as(const fk_ops *outer, const fk_ops *inner, const fk_params *p,
                             fk_filter **out);
/* Hands chain f (made by fk_scalable_new_as or fk_scalable_load) its
 * inner kind's probes from a hash (common/hashed.h), which the registry
 * binds for the kinds that lend them. All links of a chain share its seed,
 * so a key's hash is the same in every link: from then on lookups (single,
 * u64 and batched), a removable kind's inserts and removes hash a key once
 * (the kind's own XXH3) and probe every link from that hash, newest first,
 * each link through the probes it chose when made or loaded (held in the
 * chain: one indirect call per link visited) (an insert of a kind that cannot remove writes the newest link alone,
 * through the link's own call), as long as every link takes
 * the hash (a cuckoo link of the legacy scheme does not: the chain then
 * keeps the per-link path). Answers, statuses and stored bits are those of
 * the per-link path, which a chain without a table (fk_scalable_new: a
 * user's own inner kind) keeps, each link hashing the key itself.
 * hashed NULL unbinds. Call before the chain is shared. Cost: O(links). */
struct fk_hashed_ops;
void      fk_scalable_bind_hashed(fk_filter *f, const struct fk_hashed_ops *hashed);
void      fk_scalable_slot_destroy(fk_filter *f);
fk_status fk_scalable_slot_insert(fk_filter *f, const void *key, size_t len);
bool      fk_scalable_slot_contains(const fk_filter *f, const void *key, size_t len);
fk_status fk_scalable_slot_remove(fk_filter *f, const void *key, size_t len);
/* The u64 and batch slots. Lookups go link by link, newest first, each
 * link's keys through its kind's own u64 or batch call (the prefetching
 * pipeline for batches), or, in a chain bound to its kind's probes from a
 * hash (fk_scalable_bind_hashed), each block of keys hashed once and every
 * link probed from the hashes on its kind's pipeline; a key found drops
 * out, so a link sees only the keys no newer link holds. Batched inserts of kinds that cannot remove
 * fill the newest link through its kind's batch call while it has room,
 * and take the single-key path (growth, copies) for the key that finds it
 * full; removable kinds insert key by key (an older link may hold a copy).
 * Same answers, statuses and links as the single-key calls in order. */
fk_status fk_scalable_slot_insert_u64(fk_filter *f, uint64_t key);
/* (The 64-bit lookup is the chain's base.contains_u64, set by
 * fk_scalable_alloc: no slot.) */
/* The concurrent slots (scalable.c, "many writers"): insert and lookup
 * for every chain (the insert answers FK_EUNSUPPORTED when the inner kind
 * has no concurrent insert), remove for the chains that remove. */
fk_status fk_scalable_slot_insert_concurrent(fk_filter *f, const void *key, size_t len);
fk_status fk_scalable_slot_remove_concurrent(fk_filter *f, const void *key, size_t len);
bool      fk_scalable_slot_contains_concurrent(const fk_filter *f, const void *key, size_t len);
#define FK_SCALABLE_CONCURRENT_SLOTS                                                     \
    .insert_concurrent = fk_scalable_slot_insert_concurrent,                             \
    .contains_concurrent = fk_scalable_slot_contains_concurrent
#define FK_SCALABLE_BATCH_SLOTS                                                          \
    .contains_many = fk_scalable_slot_contains_many,                                     \
    .insert_many = fk_scalable_slot_insert_many,                                         \
    .contains_many_u64 = fk_scalable_slot_contains_many_u64,                             \
    .insert_many_u64 = fk_scalable_slot_insert_many_u64,                                 \
    .insert_u64 = fk_scalable_slot_insert_u64,                                           \
    .set_max_bytes = fk_scalable_slot_set_max_bytes,                                     \
    .describe = fk_scalable_slot_describe
/* The set_max_bytes slot (fk_filter_set_max_bytes): the byte limit later
 * links are checked against; a chain already over it keeps its links and
 * stops growing. FK_EINVAL when f is not a chain. */
fk_status fk_scalable_slot_set_max_bytes(fk_filter *f, uint64_t max_bytes);
fk_status fk_scalable_slot_describe(const fk_filter *f, const uint64_t *at,
                                    fk_describe_row *rows, size_t cap, size_t *n);
void      fk_scalable_slot_contains_many(const fk_filter *f, size_t n, const void *const keys[],
                                         const size_t lens[], bool out[]);
void      fk_scalable_slot_contains_many_u64(const fk_filter *f, size_t n, const uint64_t keys[],
                                             bool out[]);
fk_status fk_scalable_slot_insert_many(fk_filter *f, size_t n, const void *const keys[],
                                       const size_t lens[], size_t *done);
fk_status fk_scalable_slot_insert_many_u64(fk_filter *f, size_t n, const uint64_t keys[],
                                           size_t *done);
void      fk_scalable_slot_stats(const fk_filter *f, fk_stats *out);
/* The count slot (inner kinds that count): fk_scalable_count over the
 * links' own count slots (fk_filter_count). */
fk_status fk_scalable_slot_count(const fk_filter *f, const void *key, size_t len,
                                 uint64_t *count);
/* The size slot: the filter create(p) makes (its first link) and the
 * chain's theory once it holds `items` keys (links filled in order). */
fk_status fk_scalable_size(const fk_ops *inner, const fk_params *p, double items,
                           fk_sizing *out);
/* The serial hooks (format: scalable/scalable_serial.c). check_head and
 * load also check that the saved chain's inner kind is `inner`. */
void      fk_scalable_save_head(const fk_filter *f, fk_serial_head *h);
void      fk_scalable_save_payload(const fk_filter *f, uint8_t *dst);
bool      fk_scalable_stream_payload(const fk_filter *f, fk_serial_put put, void *ctx);
fk_status fk_scalable_check_head(const fk_ops *inner, const fk_serial_head *h);
fk_status fk_scalable_load(const fk_ops *outer, const fk_ops *inner, const fk_serial_head *h,
                           const uint8_t *payload, fk_filter **out);
#define FK_SCALABLE_PARAM_NAMES                                                   \
    { "inner kind id", "growth (s)", "tightening (r), f64 bits", "links",         \
      "newest link full (0/1)" }

#endif
