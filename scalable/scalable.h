/* scalable/scalable.h: growing ("scalable") filters: a chain of sub-filters
 * ("links") of any kind, so that no capacity has to be guessed up front
 * and the false-positive rate still holds (Almeida, Baquero, Preguica &
 * Hutchison, "Scalable Bloom Filters", Information Processing Letters
 * 101(6), 2007).
 *
 * Link 0 is made from the caller's params with capacity c0 = p->capacity
 * and fpr e0 = p->fpr * (1 - r); link i holds c0 * s^i items at an fpr of
 * at least e0 * r^i, where s = p->growth and r = p->tightening. A false
 * positive of the chain is a false positive of some link, so its rate is
 * at most the sum of the links' rates, kept below
 * sum_{j<=i} e0 r^j < e0 / (1 - r) = p->fpr however many links there are.
 * A link's real rate is below what it was asked for (fingerprints and
 * hash counts are whole numbers), so the budget it leaves unspent goes to
 * the next one: link i is asked for p->fpr * (1 - r^(i+1)) minus the
 * rates links 0 to i-1 reach when full (never less than e0 * r^i). That
 * saves about a bit per item in a long cuckoo chain (PAPER_NOTES.md,
 * "Growing filters", has the derivation and the measurements). Files
 * saved with links of exactly e0 * r^i (0.2.0) load and grow as before.
 *
 * Inserts go to the newest link. A link of a kind without FK_CAP_BOUNDED
 * (Bloom-like: inserts past capacity would succeed and raise its FPR) is
 * full once it holds its capacity; a bounded one (cuckoo) when it first
 * answers FK_EFULL, and the key then goes into the new link: nothing is
 * lost and insert never answers FK_EFULL for want of room. (One exception:
 * a bounded link refusing a key while under half full is not full, the
 * key's own slots are -- a cuckoo link holds at most 8 copies of a key --
 * so the copy goes into an older link with room, and FK_EFULL, nothing
 * changed, answers a key already holding all its slots in every link;
 * growing for it would add a link, s times larger, per 8 copies.) Lookups ask the newest link
 * first (it holds most of the keys).
 *
 * Removes (inner kinds that remove). A link's yes may be another key's
 * copy (a false positive of that link); taking it would make that other
 * key read absent. So, for a chain of removable links:
 *   - insert puts a key that already reads present in an older link into
 *     that link (the newest such), so the copies of one key share a link
 *     (a lookup in every link per insert);
 *   - remove asks every link: no yes is FK_ENOTFOUND; one yes removes one
 *     copy from that link (within one cuckoo link a matching copy is one
 *     of the key's own, or one identical to it: no key is lost); several
 *     yeses (a rate under the chain's fpr for an inserted key) leave the
 *     bits as they are and answer FK_OK: the key may keep answering yes,
 *     as a false positive does, and no other key is made absent; the
 *     copy stays counted in the stats' items, which count copies held
 *     (and stop at UINT64_MAX rather than wrap).
 * Removing inserted keys thus never makes another key absent; removing a
 * key never inserted may, as in any filter that removes. A key with more
 * copies than its slots in one link (8 for cuckoo) spills into other
 * links, and its removes may then be of the ambiguous kind.
 *
 * Byte limit: p->max_bytes (0: FK_MEMORY_CAP) caps the bytes the whole
 * chain holds. Every new link is checked against it before anything is
 * allocated, and an insert that would need a link over it answers
 * FK_ELIMIT with nothing changed (the chain still answers and removes).
 * With a nonzero max_bytes, create also refuses (FK_ELIMIT) a chain whose
 * first growth step could not fit. The limit is not saved: a loaded
 * chain has FK_MEMORY_CAP until fk_filter_set_max_bytes.
 *
 * Defaults (0 in fk_params): growth s = FK_SCALABLE_DEFAULT_GROWTH (2) and
 * tightening r = FK_SCALABLE_DEFAULT_TIGHTENING (0.9), chosen by the
 * measurement in PAPER_NOTES.md: at 1000x growth they cost about 1.5x the
 * memory of a fixed filter sized for the final count (r = 0.5, as
 * RedisBloom, costs about 2x; s = 4 about 1.9x and half the links).
 * The knobs bits, hashes and fingerprint_bits are ignored: each link
 * derives its own from its capacity and fpr.
 *
 * Thread safety: as the inner kind's: lookups may run concurrently with
 * each other; every writer (insert, remove) needs the caller's lock, also
 * against lookups, since an insert may add a link. The concurrent writers
 * (fk_filter_insert_concurrent) answer FK_EUNSUPPORTED; the batches fall
 * back to loops over the single-key calls.
 */
#ifndef FK_SCALABLE_H
#define FK_SCALABLE_H

#ifdef __cplusplus
extern "C" {
#endif

#include <stddef.h>
#include <stdint.h>
#include "../common/filter.h"
#include "../common/serial.h"

#define FK_SCALABLE_DEFAULT_GROWTH     2u
#define FK_SCALABLE_DEFAULT_TIGHTENING 0.9
/* Largest growth: a saved chain's next link is at most this many times
 * its newest one, so a small file cannot ask for a huge allocation on its
 * next insert. */
#define FK_SCALABLE_MAX_GROWTH         65536u
/* Most links a chain holds: past it inserts answer FK_EINVAL (reached only
 * with growth 1; with growth >= 2 FK_MEMORY_CAP comes first). */
#define FK_SCALABLE_MAX_LINKS          65536u
/* File kind id of a saved chain, whatever its inner kind (the inner kind's
 * own id is kind parameter 0; registry/README.md lists the ids). */
#define FK_KIND_SCALABLE               5u

/* Creates an empty growing filter of links of kind `inner` (any kind that
 * passes fk_ops_check and is not itself growing), its first link made
 * now. p->capacity is the first link's capacity, p->fpr the target for
 * the whole chain, p->growth and p->tightening as above (0: default).
 * Returns FK_OK with the new filter in *out (the caller frees it with
 * fk_filter_free); FK_EINVAL for NULL arguments, an inner table failing
 * fk_ops_check or with FK_CAP_GROWS, params failing fk_params_check,
 * growth over FK_SCALABLE_MAX_GROWTH, tightening NaN or not in (0, 1), a first link the inner kind refuses, or
 * one over FK_MEMORY_CAP; FK_ELIMIT when p->max_bytes is nonzero and the
 * first link, or the first link and the next, would hold more; FK_ENOMEM
 * when allocation fails. *out is NULL on
 * error. The filter's kind is a generic table named "scalable" that cannot
 * be saved (no kind id binds its inner kind); the registered kinds
 * "scalable-bloom", "scalable-blocked" and "scalable-cuckoo" are the same
 * chains and can be saved. Cost: the first link's creation. */
FK_API fk_status fk_scalable_new(const fk_ops *inner, const fk_params *p, fk_filter **out);

/* Returns the number of links of f (>= 1), or 0 when f is NULL or not a
 * growing filter made by this wrapper. Cost: O(1). */
FK_API size_t fk_scalable_links(const fk_filter *f);

/* Fills *out with the stats of link i of f (0 is the oldest, links - 1 the
 * newest, the one taking inserts) and, when target is not NULL, stores
 * there the fpr that link was sized for. Returns FK_OK; FK_EINVAL for f or
 * out NULL, f not a growing filter, or i past the last link (*out zeroed,
 * *target 0). Cost: the inner kind's stats (O(1) or a scan of that link). */
FK_API fk_status fk_scalable_link_stats(const fk_filter *f, size_t i, fk_stats *out,
                                        double *target);

/* Returns the inner kind of f, or NULL when f is NULL or not a growing
 * filter. Cost: O(1). */
FK_API const fk_ops *fk_scalable_inner(const fk_filter *f);

/* Returns the bytes f holds (the stats' memory_bytes) without the stats'
 * scan of every link, or 0 when f is not a growing filter. Cost: O(1). */
FK_API uint64_t fk_scalable_memory_bytes(const fk_filter *f);

/* Returns the byte limit of f (resolved: never 0), or 0 when f is not a
 * growing filter. Cost: O(1). */
FK_API uint64_t fk_scalable_max_bytes(const fk_filter *f);

/* Stores in *growth and *tightening (either may be NULL) the values f
 * uses, defaults resolved. Returns FK_OK, or FK_EINVAL when f is NULL or
 * not a growing filter (nothing stored). Cost: O(1). */
FK_API fk_status fk_scalable_knobs(const fk_filter *f, uint32_t *growth, double *tightening);

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

#ifdef __cplusplus
}
#endif

#endif
