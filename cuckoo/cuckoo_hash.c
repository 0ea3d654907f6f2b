/* cuckoo/cuckoo_hash.c: the out-of-line body of cuckoo_hash.h: XXH3-64 of
 * keys longer than 16 bytes, kept out of the inlined lookup paths. */
#include "cuckoo_hash.h"

uint64_t fk_cmap_hash_long(const void *key, size_t len, uint64_t seed)
{
    return XXH3_64bits_withSeed(key, len, seed);
}
