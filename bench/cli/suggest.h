/* bench/cli/suggest.h: "did you mean" for a misspelt name (a command, an
 * option, a kind). Plain string work, no dependency: the argument parser
 * and its fuzz target use it. */
#ifndef FKC_BENCH_SUGGEST_H
#define FKC_BENCH_SUGGEST_H

#include <stddef.h>

/* The candidate closest to `typed` by edit distance (insertions, deletions,
 * substitutions and swaps of neighbours, case-insensitive), when it is
 * close enough to be a typo (at most a third of its length, at least 1),
 * or the only candidate `typed` is a prefix of; NULL otherwise. candidates
 * ends with NULL. */
const char *fkc_suggest(const char *typed, const char *const candidates[]);

/* Writes "; did you mean 'X'?" into buf when there is a suggestion, else
 * "". */
void fkc_did_you_mean(const char *suggestion, char *buf, size_t len);

#endif
