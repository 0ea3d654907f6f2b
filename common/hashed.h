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

typedef struct fk_hashed_ops {
    /* The key's hash as f's kind computes it with f's seed (XXH3-128, or
     * XXH3-64 in .lo with .hi 0; 8-byte keys on hash.h's constant-length
     * path, the same value). key may be NULL only when len is 0 (the
     * caller checks). The value is the same for every filter of the kind
     * with the same seed. Cost: one XXH3. */
    fk_hash128 (*hash)(const fk_filter *f, const void *key, size_t len);
    /* The same for an integer key: the hash of its 8 little-endian bytes. */
    fk_hash128 (*hash_u64)(const fk_filter *f, uint64_t key);
    /* True when f's probes derive from the hash above (false, for
     * instance, for a cuckoo filter loaded with the legacy scheme, whose
     * hash is another): only then may the calls below be given f. O(1). */
    bool (*takes_hash)(const fk_filter *f);
    /* f's contains for a key of hash h (from hash / hash_u64 with f's
     * seed): the answer fk_filter_contains gives for that key. Safe beside
     * other lookups, and where the kind allows it beside its concurrent
     * writers, as the kind's contains. Cost: the kind's probes, no hash. */
    bool (*contains_hashed)(const fk_filter *f, fk_hash128 h);
    /* f's insert of a key of hash h: the status and the stored bits of
     * fk_filter_insert for that key (FK_OK; FK_EFULL from a bounded kind,
     * nothing lost). One writer at a time, as the kind's insert. */
    fk_status (*insert_hashed)(fk_filter *f, fk_hash128 h);
    /* out[i] = contains_hashed(f, h[i]) for i < n, in the kind's batch
     * pipeline (windows of keys, their lines prefetched a window ahead
     * when the table is out of cache; common/pipeline.h). n may be 0. */
    void (*contains_many_hashed)(const fk_filter *f, size_t n, const fk_hash128 h[], bool out[]);
} fk_hashed_ops;

#endif
