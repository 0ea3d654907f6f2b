/* common/hashed.h: a kind's probes from a hash computed beforehand
 * (internal header, modules and the registry only; nothing here is
 * exported).
 *
 * A growing chain (scalable/) asks each of its links whether it holds a
 * key. All links of a chain share one seed, so a key's hash is the same in
 * every link: hashing it once and probing every link from that hash saves
 * one XXH3 per link visited. A kind that allows this lends a table of the
 * calls below; the registry hands it to the chain of that kind. The hash
 * is the kind's own (the same XXH3 call its single-key calls make), so the
 * answers and the stored bits are those of the normal calls, bit for bit.
 */
#ifndef FK_HASHED_H
#define FK_HASHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "filter.h"
#include "hash.h"

/* A filter's probes from a hash (the key's hash as `hash` below computes
 * it with the filter's seed): contains answers what fk_filter_contains
 * answers for that key; insert stores what fk_filter_insert stores, with
 * its status (FK_OK; FK_EFULL from a bounded kind, nothing lost). A kind
 * chooses them for each filter when it is made or loaded (its k, its code
 * path) and keeps them for the filter's life, so a caller may hold them and
 * make one indirect call per probe. Thread rules: the kind's contains and
 * insert. Cost: the kind's probes, no hash. */
typedef bool (*fk_contains_hashed_fn)(const fk_filter *f, fk_hash128 h);
typedef fk_status (*fk_insert_hashed_fn)(fk_filter *f, fk_hash128 h);

typedef struct {
    fk_contains_hashed_fn contains;
    fk_insert_hashed_fn   insert;
} fk_hashed_probes;

/* The hash of a kind that hashes with XXH3-64 (blocked, cuckoo), in the
 * shape the table below carries: .lo, with .hi 0. */
static inline fk_hash128 fk_hashed_of64(uint64_t h)
{
    fk_hash128 r = { h, 0 };
    return r;
}

typedef struct fk_hashed_ops {
    /* The key's hash as f's kind computes it with f's seed (XXH3-128, or
     * XXH3-64 in .lo with .hi 0; 8-byte keys on hash.h's constant-length
     * path, the same value). key may be NULL only when len is 0 (the
     * caller checks). The value is the same for every filter of the kind
     * with the same seed. Cost: one XXH3. */
    fk_hash128 (*hash)(const fk_filter *f, const void *key, size_t len);
    /* The same for an integer key: the hash of its 8 little-endian bytes. */
    fk_hash128 (*hash_u64)(const fk_filter *f, uint64_t key);
    /* f's probes from a hash, into *out: false (nothing written) when f's
     * probes do not derive from that hash (for instance a cuckoo filter
     * loaded with the legacy scheme, whose hash is another). O(1). */
    bool (*probes)(const fk_filter *f, fk_hashed_probes *out);
    /* out[i] = f's contains for the key of hash h[i], i < n, in the kind's
     * batch pipeline (windows of keys, their lines prefetched a window
     * ahead when the table is out of cache; common/pipeline.h). n may be
     * 0. Only for an f whose `probes` answered true. */
    void (*contains_many_hashed)(const fk_filter *f, size_t n, const fk_hash128 h[], bool out[]);
} fk_hashed_ops;

#endif
