/* bench/keys/keygen.h: generated keys: key j of a seed, distinct for
 * distinct j by construction (splitmix64's bijective mix of a counter). */
#ifndef FKC_BENCH_KEYGEN_H
#define FKC_BENCH_KEYGEN_H

#include <stddef.h>
#include <stdint.h>

/* Longest generated string key and the shortest. */
#define FKC_STR_MIN 8u
#define FKC_STR_MAX 64u

/* Generated key j of this seed as a 64-bit word: distinct j give
 * distinct words. */
uint64_t fkc_gen_word(uint64_t seed, uint64_t j);

/* Generated string key j of this seed into buf (FKC_STR_MAX bytes): a
 * unique 8-byte word, then random bytes; returns its length (8..64). */
size_t fkc_gen_string(uint64_t seed, uint64_t j, uint8_t *buf);

#endif
