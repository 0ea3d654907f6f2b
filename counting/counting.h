/* counting/counting.h: the counting Bloom filter (Fan, Cao, Almeida &
 * Broder, "Summary Cache", 2000): a Bloom filter whose m bits are small
 * counters, so keys can be removed.
 *
 * Sizing and probing are exactly the Bloom filter's: m
 * counters, k probes per key from one XXH3-128 hash, so a key touches the
 * same k positions in an fk_counting and in an fk_bloom of the same m, k
 * and seed, and the false-positive rate is the same. Counters
 * are 4 bits (two per byte) by default, or 8 bits with counter_bits = 8; the
 * price of removes is counter_bits times the Bloom filter's memory.
 *
 * Saturation: a counter that reaches its maximum (15, or 255) stays there
 * for ever; it is never incremented or decremented again. So a hot key can
 * never make another key's counter wrap to 0 (no false negative from
 * overflow); the cost is that such a position is never freed. Fan et al.
 * bound the chance that any counter reaches 16 with 4-bit counters, at the
 * optimal k, by m (e ln 2 / 16)^16 ~ 1.37e-15 x m; saturation events are
 * counted (fk_counting_describe's saturations) so a caller can see when it happens.
 *
 * Caveat, as in every counting filter: removing a key that was never
 * inserted but happens to look present (a false positive) decrements
 * counters that belong to other keys and can cause false negatives for
 * them. Remove only keys you inserted.
 *
 * Link: build/libfk_counting.a build/libfk_common.a -lm, nothing else
 * (fk_counting_to_bloom, in the all-in-one libfilterkit, is declared in
 * registry/registry.h).
 * Thread safety: which calls may run at the same time on one filter, from
 * any number of threads ("no": the caller must keep them apart):
 *
 *                          contains, count   insert_/remove_concurrent   other writers
 *   contains, count             yes                   yes                    no
 *   insert_/remove_concurrent   yes                   yes                    no
 *   other writers               no                    no                     no
 *
 * (other writers: insert, remove, clear.) Plain insert and remove stay the
 * fastest single-writer paths; they never run beside the concurrent ones.
 * stats, items, saturations and saving add up the counts that concurrent
 * writers keep per thread: call them once those writers are done.
 *
 *   fk_params p = fk_params_make(1000000, 0.01);
 *   fk_counting *c;
 *   if (fk_counting_new(&p, &c) != FK_OK) ...;
 *   fk_counting_insert(c, "apple", 5);
 *   fk_counting_contains(c, "apple", 5);       // true
 *   fk_counting_remove(c, "apple", 5);         // FK_OK
 *   fk_counting_remove(c, "pear", 4);          // FK_ENOTFOUND (most likely)
 *   fk_counting_free(c);
 */
#ifndef FK_COUNTING_H
#define FK_COUNTING_H

#ifdef __cplusplus
extern "C" {
#endif

#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include "../common/filter.h"
#include "../common/serial.h"

typedef struct fk_counting fk_counting;

/* The counter width fk_params.counter_bits = 0 selects (8 is the other choice). */
#define FK_COUNTING_DEFAULT_BITS 4u

/* The vtable for fk_filter_new(&fk_counting_ops, ...); name "counting",
 * caps FK_CAP_REMOVE | FK_CAP_COUNT. */
FK_API extern const fk_ops fk_counting_ops;

/* ------------------------------------------------------------ lifecycle */

/* Creates a counting Bloom filter. Sizing is the Bloom filter's:
 * m = p->bits if nonzero, else ceil(-capacity ln fpr / (ln 2)^2) counters;
 * k = p->hashes if nonzero, else round((m / capacity) ln 2), in
 * 1..FK_BLOOM_MAX_HASHES.
 * counter_bits: 0 or 4 gives 4-bit counters, 8 gives byte counters.
 * Returns FK_OK with a new filter in *out (caller frees with
 * fk_counting_free); FK_EINVAL for NULL p or out, bad params
 * (fk_params_check), hashes > 64, counter_bits not in {0, 4, 8}, or a
 * counter array over FK_MEMORY_CAP; FK_ENOMEM when allocation fails. *out is
 * NULL on error. Cost: m x counter_bits / 8 bytes allocated and zeroed. */
FK_API fk_status fk_counting_new(const fk_params *p, fk_counting **out);

/* Releases c. NULL is a no-op. Cost: O(1). */
FK_API void fk_counting_free(fk_counting *c);

/* ----------------------------------------------------- insert / lookup */

/* Increments the key's k counters (a counter at its maximum stays there;
 * each counter that reaches the maximum adds one to the saturation count).
 * Inserting a key again counts it again. Returns FK_OK, or FK_EINVAL for c
 * NULL or key NULL with len > 0. Never fails for lack of room (the FPR
 * rises instead). Cost: one hash, k counter updates. */
FK_API fk_status fk_counting_insert(fk_counting *c, const void *key, size_t len);

/* Returns true when all k counters of the key are nonzero (maybe present),
 * false when one is zero (definitely absent). c NULL, or key NULL with
 * len > 0, answers false. Cost: one hash and all k counter reads (no branch
 * on a counter, so present, absent and mixed keys cost the same), as
 * fk_bloom_contains does. */
FK_API bool fk_counting_contains(const fk_counting *c, const void *key, size_t len);

/* Removes one earlier insertion of key. If the key is definitely absent (one
 * of its counters is zero, or too small for the key's own repeated probe
 * positions) returns FK_ENOTFOUND and changes nothing. Otherwise decrements
 * each of the k counters that is not saturated and returns FK_OK; the item
 * count drops by one (never below 0). FK_EINVAL for c NULL or key NULL with
 * len > 0 (nothing changed).
 * Caveat: removing a key that was never inserted but looks present can
 * cause false negatives for other keys (see the top of this header).
 * Cost: one hash, k counter reads and up to k writes. */
FK_API fk_status fk_counting_remove(fk_counting *c, const void *key, size_t len);

/* Note on the insert_concurrent slot (no typed call: it is
 * fk_filter_insert_concurrent(fk_counting_as_filter(c), key, len)). It is fk_counting_insert, safe from many threads at once and beside any number
 * of fk_counting_contains / fk_filter_count calls (see the table above): each
 * counter is raised by a compare-and-swap of its byte, retried when another
 * thread changed the byte first, and a counter seen saturated is left
 * alone (the saturation rule holds). A key whose call has returned, and
 * which no call removed, is found by every lookup that starts later, in any
 * thread. The item count (inserts minus removes) is kept per thread.
 * Returns as fk_counting_insert. Cost: one hash, k loads, k byte CAS (more
 * under contention for the same byte). */

/* Note on the remove_concurrent slot (no typed call: it is
 * fk_filter_remove_concurrent(fk_counting_as_filter(c), key, len)). It is fk_counting_remove, safe from many threads at once, beside
 * the concurrent insert and any number of lookups: FK_ENOTFOUND
 * (nothing changed) when a counter of the key reads 0; otherwise each
 * unsaturated counter is lowered by a compare-and-swap, and one that has
 * run out by then is put back with those already lowered (FK_ENOTFOUND).
 * Removing a key whose insert has not returned yet may answer FK_ENOTFOUND;
 * the caveat on keys never inserted applies as to fk_counting_remove.
 * Returns FK_OK, FK_ENOTFOUND, or FK_EINVAL for c NULL or key NULL with
 * len > 0. Cost: one hash, k loads, up to k byte CAS. */

/* ---------------------------------------------------------------- stats */

/* Stats: fk_filter_stats(fk_counting_as_filter(x), &out) fills out:
 * items = successful inserts minus successful removes;
 * capacity; memory_bytes = counter array + struct; bits_per_item =
 * 8 x memory_bytes / capacity; load_factor = nonzero counters / m;
 * expected_fpr = load_factor^k (the Bloom formula at the current fill).
 * No-op for NULL arguments. Cost: O(m x counter_bits / 64) (word-wide scan
 * of the counters). */

/* --------------------------------------------------------------- access */

/* The filter as an fk_filter, for the generic fk_filter_* calls (still owned
 * by the caller; free it with fk_counting_free or fk_filter_free, not
 * both). NULL for NULL. Cost: O(1). */
FK_API fk_filter *fk_counting_as_filter(fk_counting *c);

/* Integer keys (common/filter.h, FK_U64_CALLS): fk_counting_contains_u64,
 * fk_counting_insert_u64 and fk_counting_remove_u64(x, key) answer as the
 * byte calls on the key's 8 little-endian bytes; inline, for a program
 * that links this module alone. */
FK_U64_CALLS(fk_counting)
FK_U64_REMOVE(fk_counting)

/* What a filter is made of and what it counted, for tools and tests. */
typedef struct {
    uint64_t bits;         /* counters m */
    uint32_t hashes;       /* probes k */
    uint32_t counter_bits; /* counter width: 4 or 8 */
    uint32_t counter_max;  /* largest value a counter holds (15 or 255):
                              the saturation point */
    uint64_t seed;         /* the params seed */
    uint64_t capacity;     /* the capacity it was sized for */
    double   target_fpr;   /* the fpr it was sized for */
    uint64_t items;        /* inserts minus removes, as in fk_stats */
    uint64_t saturations;  /* times a counter reached counter_max and
                              saturated (each counter at most once, as
                              saturated counters never move again) */
    uint64_t export_words; /* uint64_t words fk_counting_export_bits
                              writes: ceil(m / 64) */
} fk_counting_description;

/* Fills *out for c. No-op for NULL arguments. Cost: O(1). */
FK_API void fk_counting_describe(const fk_counting *c, fk_counting_description *out);

/* --------------------------------------------------------------- export */

/* Writes the filter's Bloom bit array to words[0..W-1], W = ceil(m / 64),
 * fk_counting_describe's export_words (any words past W are untouched): bit i (bit
 * i % 64 of word i / 64) is set when counter i is nonzero; bits past m are 0.
 * A Bloom filter with these bits and the same m, k and seed answers every
 * lookup exactly as c does. Returns FK_OK; FK_EINVAL for NULL c or words, or
 * nwords < W (words untouched). The caller owns
 * words. Cost: O(m x counter_bits / 64) plus O(nonzero counters). */
FK_API fk_status fk_counting_export_bits(const fk_counting *c, uint64_t *words, size_t nwords);

/* ------------------------------------------------- saving and loading */

/* Saving a counting Bloom filter and loading it
 * back, in a buffer. The same as
 * fk_filter_save / _load with &fk_counting_ops (common/serial.h has the
 * format and the full contract); the payload layout is in
 * counting/counting_serial.c. */

/* The kind's number in the file header (common/serial.h); never reused. */
#define FK_KIND_COUNTING 2u

/* fk_counting_save, fk_counting_load: the calls of
 * FK_SERIAL_DIRECT_DECLARE (common/serial.h has their contracts), typed
 * for fk_counting.
 * Bytes a saved counting filter takes: 128 + 8 * ceil(m * counter_bits /
 * 64). Saving and loading cost O(m * counter_bits / 8). On load the
 * saturation count is recounted from the counters. */
FK_SERIAL_DIRECT_DECLARE(fk_counting, fk_counting);

#ifdef __cplusplus
}
#endif

#endif
