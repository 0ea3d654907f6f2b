/* blocked/blocked_concurrent.c: the blocked filter's concurrent insert: the
 * scalar path's bits, each word set by an atomic OR where its bit is still
 * clear (OR is order-free, so concurrent inserts lose nothing; skipping the
 * set bits spares the locked instructions a filling block needs less and
 * less). The lookups read the same memory as 32-bit words: both are
 * atomic accesses, so no access races with a plain one. */
#include "blocked_internal.h"
#include "../common/atomic.h"

FK_HOT fk_status fk_blocked_insert_concurrent(fk_blocked *b, const void *key, size_t len)
{
    if (!b || (!key && len))
        return FK_EINVAL;
    uint64_t h = fk_blocked_hash(key, len, b->seed);
    uint32_t *block = fk_blocked_block_ptr(b, h);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* Two 32-bit words as one 64-bit word (word 2j is its low half): half
     * the locked instructions. The block is 32-byte aligned. */
    uint64_t *pairs = (uint64_t *)(void *)block;
    uint64_t seen[FK_BLOCKED_WORDS / 2];
#pragma GCC unroll 4
    for (unsigned j = 0; j < FK_BLOCKED_WORDS / 2; j++)
        seen[j] = fk_load64(&pairs[j]);
#pragma GCC unroll 4
    for (unsigned j = 0; j < FK_BLOCKED_WORDS / 2; j++) {
        uint64_t bits = (UINT64_C(1) << fk_blocked_bit((uint32_t)h, 2 * j)) |
                        (UINT64_C(1) << (32 + fk_blocked_bit((uint32_t)h, 2 * j + 1)));
        if ((seen[j] & bits) != bits)
            fk_or64(&pairs[j], bits);
    }
#else
    uint32_t seen[FK_BLOCKED_WORDS];
#pragma GCC unroll 8
    for (unsigned i = 0; i < FK_BLOCKED_WORDS; i++)
        seen[i] = fk_load32(&block[i]);
#pragma GCC unroll 8
    for (unsigned i = 0; i < FK_BLOCKED_WORDS; i++) {
        uint32_t bit = UINT32_C(1) << fk_blocked_bit((uint32_t)h, i);
        if (!(seen[i] & bit))
            fk_or32(&block[i], bit);
    }
#endif
    fk_tally_add(&b->tally, 1);
    return FK_OK;
}
