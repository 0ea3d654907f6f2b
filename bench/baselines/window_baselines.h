/* bench/baselines/window_baselines.h: sliding-window baselines for the bench's
 * window workload (bench/measure/window_stream.c), behind the same fk_ops
 * vtable as every kind. Bench-only: not part of libfilterkit.
 *
 * All three take fk_params.capacity = N as a count window ("the last N
 * inserts answer present") and fk_params.fpr as the target for keys that
 * left the window (and never-seen keys):
 *
 *   rotating-bloom  two standard Bloom filters (the library's "bloom" kind)
 *                   of N items at fpr/2 each: insert into the current one,
 *                   look up in both, and every N inserts clear the older one
 *                   and make it the current one. The pattern users build by
 *                   hand. A key lives N to 2N inserts.
 *   apbf            the age-partitioned Bloom filter (Shtul, Baquero,
 *   apbf-best       Almeida, arXiv 2001.03147), written from the paper's
 *                   description: k + l slices of m bits, an insert sets one
 *                   bit in each of the k newest slices, a lookup answers
 *                   present when k consecutive slices all have the key's
 *                   bit, and every g = ceil(N / l) inserts the oldest slice
 *                   is cleared and becomes the newest. m = ceil(k g / ln 2),
 *                   so a slice that took its k g inserts is half full. A key
 *                   lives l g to (l + 1) g inserts. "apbf" uses the default
 *                   (k, l) table, "apbf-best" the (k, l) of least memory.
 *
 * None removes, saves or batches; each has a 64-bit lookup path
 * (fk_filter.contains_u64), as the library's kinds do. Thread rules: as a
 * plain kind (one writer, or readers only). */
#ifndef FKC_BENCH_WINDOW_BASELINES_H
#define FKC_BENCH_WINDOW_BASELINES_H

#include <stddef.h>
#include <stdint.h>
#include "../../common/filter.h"

extern const fk_ops fkc_rotating_bloom_ops;
extern const fk_ops fkc_apbf_ops;
extern const fk_ops fkc_apbf_best_ops;

/* Most slices an APBF takes (k + l): bounds the search and the lookup. */
#define FKC_APBF_MAX_K 40u
#define FKC_APBF_MAX_L 1000u

/* The (k, l) the baseline uses for target fpr (0 < fpr < 1): best = 0, the
 * default table -- (10, 25) at 1% and (13, 23) at 0.1%, the pairs whose
 * k (k + l) / (l ln 2) gives the 20.2 and 29.4 bits per window item of the
 * default table the issue quotes; elsewhere the least memory among pairs
 * with k + l <= 36 slices -- best = 1, the pair of least memory,
 * k (k + l) / (l ln 2) bits per window item, among those whose theory at
 * half-full slices is at most fpr (k <= FKC_APBF_MAX_K, l <=
 * FKC_APBF_MAX_L). Returns 0, or -1 when no pair qualifies. */
int fkc_apbf_choose(double fpr, int best, unsigned *k, unsigned *l);

/* The paper's false-positive rate of an APBF of (k, l) at its worst moment
 * (the newest generation full): slice i (0 = newest) has taken
 * min(i + 1, k) g inserts into m bits, fill f_i = 1 - (1 - 1/m)^(that),
 * and the rate is the chance of k consecutive hits among the k + l slices
 * with those fills (an exact run-length recurrence). m = 0: the ideal fill
 * of the table search (full slices half set, f_i = 1 - 2^-(min(i+1,k)/k)). */
double fkc_apbf_theory(unsigned k, unsigned l, uint64_t g, uint64_t m);

/* For a filter of one of these kinds: the inserts a key is guaranteed to
 * answer present for (window, >= N) and the most it can (lifetime), and
 * the shape in words ("k = 10, l = 25, g = 40000, m = ..."). Returns 0, or
 * -1 when f is not one of these kinds. */
int fkc_window_baseline_shape(const fk_filter *f, uint64_t *window, uint64_t *lifetime, char *shape,
                              size_t len);
/* The most inserts a key of a window of n (at fpr) answers present for in
 * one of these kinds, from its rotation without making it: two rotating
 * Bloom filters 2n, an APBF (l + 1) ceil(n / l) with its (k, l) for fpr.
 * 0 when ops is none of these kinds (or no (k, l) meets fpr). */
uint64_t fkc_window_baseline_lifetime(const fk_ops *ops, uint64_t n, double fpr);
/* The APBF part of it (apbf.c). */
int fkc_apbf_shape(const fk_filter *f, uint64_t *window, uint64_t *lifetime, char *shape, size_t len);

#endif
