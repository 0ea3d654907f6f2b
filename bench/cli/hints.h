/* bench/cli/hints.h: the sentences that help a user past a mistake: "did you
 * mean" for a misspelt name, and what to do when a filter is full. */
#ifndef FKC_BENCH_HINTS_H
#define FKC_BENCH_HINTS_H

#include <stddef.h>
#include <stdio.h>
#include "../../common/filter.h"
#include "suggest.h"

/* For a --filters list that fkc_kinds_parse refused: "; did you mean 'X'?"
 * for its first unknown name, into buf ("" when none is close). */
void fkc_did_you_mean_kinds(const char *list, char *buf, size_t len);

/* The registered kinds whose fk_ops_caps hold every flag of caps,
 * comma-separated, into buf ("" when none), for messages that name the
 * kinds that can do what another cannot. */
void fkc_kinds_with(unsigned caps, char *buf, size_t len);

/* After FK_EFULL from a kind with a hard capacity: one line on `to` saying
 * what to do -- build again with headroom (a larger --capacity), or use a
 * growing kind ("scalable-cuckoo") that never fills. cmd names the
 * command. */
void fkc_hint_full(FILE *to, const char *cmd, const fk_ops *ops, unsigned long long capacity);

#endif
