/* bench/keys/lineset.h: an exact set of the lines seen so far, kept as their
 * 128-bit hashes (16 bytes a line, whatever its length), so `build`, `add`
 * and `remove` act once per distinct line without asking the filter --
 * whose "maybe present" would skip a false positive and later make a remove
 * take away another key. Two different lines share a 128-bit hash with
 * probability about d^2 / 2^129 for d distinct lines (below 1e-25 for a
 * billion lines). */
#ifndef FKC_BENCH_LINESET_H
#define FKC_BENCH_LINESET_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t *slot;     /* 2 words per slot: hash lo, hi; (0, 0) = empty */
    size_t    nslots;
    size_t    count;    /* distinct lines held */
    int       has_zero; /* the line whose hash is (0, 0) was seen */
} fkc_lineset;

/* Makes an empty set with room for `expected` lines before it first grows
 * (0: a small default). Returns 0, or -1 when memory runs out. Cost:
 * about 21 bytes per expected line (16-byte slots, at most 3/4 full). */
int fkc_lineset_init(fkc_lineset *s, uint64_t expected);

/* Adds the line's hash. Returns 1 when it was not there (new line), 0 when
 * it was, -1 when the set could not grow (nothing added). Cost: one hash of
 * the line plus expected O(1) probes; O(count) when the set doubles. */
int fkc_lineset_add(fkc_lineset *s, const void *line, size_t len);

void fkc_lineset_free(fkc_lineset *s);

#endif
