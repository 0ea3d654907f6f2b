/* bench/keys/keyset.h: a set of keys stored back to back, and the calls
 * that fill one (the workload and the lookup mixes build theirs with them). */
#ifndef FKC_BENCH_KEYSET_H
#define FKC_BENCH_KEYSET_H

#include <stddef.h>
#include <stdint.h>

/* A set of keys stored contiguously. Fixed-width sets (u64 keys) have
 * off == NULL and every key `width` bytes long; variable-width sets keep
 * count + 1 offsets, key i being bytes[off[i] .. off[i+1]). */
typedef struct {
    uint8_t  *bytes;
    uint64_t *off;
    size_t    width;
    size_t    count;
} fkc_keyset;

static inline const void *fkc_key_ptr(const fkc_keyset *s, size_t i)
{
    return s->off ? s->bytes + s->off[i] : s->bytes + i * s->width;
}

static inline size_t fkc_key_len(const fkc_keyset *s, size_t i)
{
    return s->off ? (size_t)(s->off[i + 1] - s->off[i]) : s->width;
}

/* Releases the set's arrays and zeroes it. NULL is a no-op. */
void fkc_keyset_free(fkc_keyset *s);

/* Room for count keys of at most maxlen bytes each (fixed width when
 * fixed is nonzero); the set starts empty. Returns 0 or -1. */
int fkc_keyset_alloc(fkc_keyset *s, size_t count, size_t maxlen, int fixed);

/* Appends one key (the set must have room). */
void fkc_keyset_push(fkc_keyset *s, const void *key, size_t len);

/* Gives back the unused tail of a variable-width set's byte array. */
void fkc_keyset_shrink(fkc_keyset *s);

#endif
