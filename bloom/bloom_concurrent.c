/* bloom/bloom_concurrent.c: the Bloom filter's concurrent insert.
 *
 * Setting a bit is an OR, and OR is order-free: threads that set bits of the
 * same word at once lose nothing when each OR is one atomic
 * read-modify-write, and the final bits are those of any serial order. The
 * k words are read first (plain relaxed loads: their cache misses overlap,
 * as in a lookup), and only the bits still clear are ORed, since a locked
 * read-modify-write also orders memory and would serialise the misses. */
#include "bloom_internal.h"
#include "../common/atomic.h"
#include "../common/probe.h"

FK_HOT fk_status fk_bloom_insert_concurrent(fk_bloom *b, const void *key, size_t len)
{
    if (!b || (!key && len))
        return FK_EINVAL;
    fk_probe pr = fk_probe_start(fk_hash_key(key, len, b->seed));
    uint64_t *bits = b->bits;
    const uint64_t m = b->m;
    const uint32_t k = b->k;
    uint64_t pos[FK_BLOOM_MAX_HASHES], word[FK_BLOOM_MAX_HASHES];
    for (uint32_t i = 0; i < k; i++) {
        pos[i] = fk_probe_next(&pr, m);
        word[i] = fk_load64(&bits[pos[i] >> 6]);
    }
    /* A bit seen set stays set, and a later lookup (ordered after this
     * return by the caller) sees at least what this load saw. */
    for (uint32_t i = 0; i < k; i++) {
        uint64_t bit = UINT64_C(1) << (pos[i] & 63);
        if (!(word[i] & bit))
            fk_or64(&bits[pos[i] >> 6], bit);
    }
    fk_tally_add(&b->tally, 1);
    return FK_OK;
}
