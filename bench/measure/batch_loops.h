/* bench/measure/batch_loops.h: the timed loops of the batched columns
 * (insert_batch_ns, lookup0_batch_ns, lookup100_batch_ns): the same keys as
 * loops.h's, handed to fk_filter_insert_many / _contains_many (the _u64
 * forms for 8-byte integer keys) FKC_BENCH_BATCH at a time. The arrays the
 * batch calls take are made before any clock starts. */
#ifndef FKC_BENCH_BATCH_LOOPS_H
#define FKC_BENCH_BATCH_LOOPS_H

#include <stddef.h>
#include <stdint.h>
#include "../keys/keyset.h"
#include "../../common/filter.h"

/* Keys per call. */
#define FKC_BENCH_BATCH 1024u

/* A keyset as the batch calls take it: fixed 8-byte keys as integers (key
 * bytes = the integer's little-endian bytes, so the answers are those of
 * the single-key calls), any other keys as pointer and length arrays. */
typedef struct {
    size_t       count;
    uint64_t    *ints;  /* 8-byte keys, else NULL */
    const void **ptrs;  /* other keys, else NULL */
    size_t      *lens;
} fkc_batch_keys;

/* Returns 0, or -1 when out of memory (nothing to free then). */
int fkc_batch_keys_make(const fkc_keyset *ks, fkc_batch_keys *bk);
void fkc_batch_keys_free(fkc_batch_keys *bk);

/* Inserts keys [0, count) in batches into f; a key that does not answer
 * FK_OK is counted and skipped. Returns that count; *ns = elapsed time. */
uint64_t fkc_time_insert_batches(fk_filter *f, const fkc_batch_keys *bk, uint64_t *ns);

/* Looks up every key in batches; returns the "maybe present" answers and
 * stores the elapsed ns in *ns. */
uint64_t fkc_time_lookup_batches(const fk_filter *f, const fkc_batch_keys *bk, uint64_t *ns);

#endif
