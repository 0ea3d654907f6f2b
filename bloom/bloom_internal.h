/* bloom/bloom_internal.h: the Bloom filter's layout, shared by the files of
 * this module (core, set operations, vtable, serialization). Not installed. */
#ifndef FK_BLOOM_INTERNAL_H
#define FK_BLOOM_INTERNAL_H

#include "bloom.h"
#include "../common/tally.h"

struct fk_bloom {
    fk_filter base;      /* must stay first: an fk_bloom * is an fk_filter * */
    uint64_t  m;         /* bits */
    uint64_t  words;     /* ceil(m / 64) */
    uint32_t  k;         /* probes per key */
    uint64_t  seed;
    uint64_t  capacity;  /* items it was sized for */
    double    fpr;       /* target it was sized for (0 when sized by knobs only) */
    uint64_t  items;     /* successful inserts */
    uint64_t *bits;      /* words x 64 bits, cache-line aligned; bits past m stay 0 */
    fk_tally  tally;     /* successful concurrent inserts (bloom_concurrent.c) */
};

/* Successful inserts, plain and concurrent (writers done). */
static inline uint64_t fk_bloom_item_count(const fk_bloom *b)
{
    return b->items + fk_tally_sum(&b->tally);
}

/* Builds an empty filter of exactly m bits and k probes (no sizing).
 * Validates ranges; the allocation rules of fk_bloom_new. */
fk_status fk_bloom_create_exact(uint64_t m, uint32_t k, uint64_t seed, uint64_t capacity,
                                double fpr, fk_bloom **out);

/* The saving hooks of fk_bloom_ops (bloom_serial.c; contracts in
 * common/serial.h). */
extern const fk_serial_ops fk_bloom_serial_ops;

#endif
