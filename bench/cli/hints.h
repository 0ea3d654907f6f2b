/* bench/cli/hints.h: the sentences that help a user past a mistake: "did you
 * mean" for a misspelt name, and what to do when a filter is full. */
#ifndef FKC_BENCH_HINTS_H
#define FKC_BENCH_HINTS_H

#include <stddef.h>
#include <stdio.h>
#include "../../common/filter.h"

/* The candidate closest to `typed` by edit distance (insertions, deletions,
 * substitutions and swaps of neighbours, case-insensitive), when it is
 * close enough to be a typo (at most a third of its length, at least 1),
 * or the only candidate `typed` is a prefix of; NULL otherwise. candidates
 * ends with NULL. */
const char *fkc_suggest(const char *typed, const char *const candidates[]);

/* The same over the runnable kinds (registry + baselines) and over the
 * kinds that can be saved (save_only). */
const char *fkc_suggest_kind(const char *typed, int save_only);

/* Writes ", did you mean 'X'?" into buf when there is a suggestion, else
 * "". */
void fkc_did_you_mean(const char *suggestion, char *buf, size_t len);

/* After FK_EFULL from a kind with a hard capacity: one line on `to` saying
 * what to do -- build again with headroom (a larger --capacity), or use a
 * growing kind ("scalable-cuckoo") that never fills. cmd names the
 * command. */
void fkc_hint_full(FILE *to, const char *cmd, const fk_ops *ops, unsigned long long capacity);

#endif
