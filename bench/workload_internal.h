/* bench/workload_internal.h: helpers shared by workload.c and
 * workload_file.c (not used elsewhere). */
#ifndef FK_BENCH_WORKLOAD_INTERNAL_H
#define FK_BENCH_WORKLOAD_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "workload.h"

/* Room for count keys of at most maxlen bytes each (fixed width when
 * fixed is nonzero); the set starts empty. Returns 0 or -1. */
int fk_keyset_alloc(fk_keyset *s, size_t count, size_t maxlen, int fixed);

/* Appends one key (the set must have room). */
void fk_keyset_push(fk_keyset *s, const void *key, size_t len);

/* Gives back the unused tail of a variable-width set's byte array. */
void fk_keyset_shrink(fk_keyset *s);

/* Generated string key j of this seed into buf (FK_STR_MAX bytes): a
 * unique 8-byte word, then random bytes; returns its length (8..64). */
size_t fk_gen_string(uint64_t seed, uint64_t j, uint8_t *buf);

/* The file part of fk_workload_make. */
int fk_workload_from_file(const fk_keyspec *spec, size_t npos, size_t nneg, fk_workload *w,
                          char *err, size_t errlen);

#endif
