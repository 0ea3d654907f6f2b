/* common/hash.c: the out-of-line body of hash.h: XXH3-64 of keys of any
 * length, the one long-key path of every kind's fk_hash64. */
#include "hash.h"

uint64_t fk_hash64_long(const void *key, size_t len, uint64_t seed)
{
    return XXH3_64bits_withSeed(key, len, seed);
}
