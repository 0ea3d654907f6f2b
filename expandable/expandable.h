/* expandable/expandable.h: a filter that grows a thousandfold in one table
 * with its false-positive rate held (the InfiniFilter / Aleph class: Dayan,
 * Bercea, Reviriego & Pagh, "InfiniFilter: Expanding Filters to Infinity
 * and Beyond", SIGMOD 2023; Dayan, Bercea & Pagh, "Aleph Filter: To
 * Infinity in Constant Time", PVLDB 17(11), 2024), written from the
 * papers' descriptions in a simpler form.
 *
 * One quotient table (rank-and-select runs, as the quotient filter's) of W-bit
 * slots, packed (W = F + 1, any width 2..32). Each slot holds a fingerprint
 * of any length L < W, its length written as unary padding after it (a 1,
 * then zeros). When
 * the table holds its limit of entries it doubles: every fingerprint gives
 * its first bit to the quotient and keeps L - 1 bits, so no key is needed,
 * and entries inserted afterwards get the full F bits again: newer entries
 * have longer fingerprints than older ones. An entry whose fingerprint
 * runs out (L = 0 at a doubling) moves to a small sorted void list kept
 * apart, where it matches every key of its old quotient; within the
 * expected growth (below) no entry runs out.
 *
 * Sizing: the first table has N0 = ceil(capacity / max_load) quotients
 * (max_load = fk_params.max_load, 0 = FK_EXPANDABLE_MAX_LOAD = 0.9) and
 * doubles each time it would pass capacity 2^G entries (G = doublings so
 * far). p->growth is the expected growth factor (0 = 1024 =
 * FK_EXPANDABLE_DEFAULT_GROWTH), D = ceil(log2 growth) doublings; F is the
 * smallest length with F >= D and max_load 2^-F (1 + D/2) <= fpr (at most
 * 31): the fingerprint sized for the target after the expected growth, as
 * InfiniFilter and Aleph size theirs from the growth expected, so the
 * worst FPR over the growth (just before the D-th table doubles) meets
 * the target. W = F + 1 (the fingerprint and its marker): 1% gives F =
 * 10, 0.1% F = 13, 0.01% F = 16. p->fingerprint_bits (1..31) sets F
 * instead. Files of 0.4.0 (W = 16 or 32, F up to W - 1) load as they
 * were.
 *
 * False-positive rate after G doublings, by the union bound (PAPER_NOTES
 * §growth): FPR <= sum over entries of 2^-L / N, which the filter reports
 * exactly (stats' expected_fpr). An entry of length F - j was in the table
 * when it had N 2^-j quotients and at most max_load of them full, so
 *   FPR <= max_load 2^-F (1 + G/2)          while G <= F (no voids),
 * e.g. 0.9 2^-10 (1 + 10/2) = 5.3e-3 for 1% after a 1024-fold growth
 * (entries of the first table then have L = 0: each matches its whole
 * quotient, still in the table). Past F doublings the oldest entries
 * become voids, each matching 2^-g of the keys of generation g: the FPR
 * then rises toward the load of the first table (stats show the share of
 * voids); size F for the growth expected.
 *
 * Memory: (W + 2.25) bits per slot, N = capacity 2^G / max_load slots plus
 * a margin: (W + 2.25) / 0.9 bits per entry when full (1%: W = 11, 14.7;
 * 0.1%: W = 14, 18.1), twice that just after a doubling; 1000 capacity
 * keys in the table of 1024 capacity: 15.1 and 18.5 bits per key
 * (bench/figures/expandable_sizing.sh).
 *
 * Inserts never answer FK_EFULL for lack of room: the insert that finds
 * the table at its limit doubles it first (O(S) time, old and new tables
 * held together: the worst single insert), unless the doubled filter would
 * pass fk_params.max_bytes (FK_ELIMIT, nothing inserted, nothing lost) or
 * FK_MEMORY_CAP. The one FK_EFULL left: more than about 65,000 copies of
 * one key (one run cannot hold them; doubling does not part equal hashes).
 *
 * Removes: remove deletes the longest entry matching the key (or, with
 * none in the table, the most specific matching void): the key's own
 * entry is at least as long as any other entry it matches, and any entry
 * longer than it that matches belongs to a key that also matches the
 * key's own, so no inserted key is ever lost. Removing a key never
 * inserted may remove another key's entry (probability about the FPR), as
 * in every fingerprint filter.
 *
 * Link: build/libfk_expandable.a build/libfk_common.a -lm, nothing else.
 * Thread safety, on one filter, which calls may run at the same time from
 * any number of threads ("no": the caller keeps them apart):
 *
 *                              lookups (contains,  contains_    insert_/remove_  plain writers
 *                              the batches)        concurrent   concurrent       (insert, remove,
 *                                                                                the batches' inserts)
 *   lookups                        yes                yes          no               no
 *   fk_filter_contains_concurrent  yes                yes          yes              no
 *   insert_/remove_concurrent      no                 yes          yes              no
 *   plain writers                  no                 no           no               no
 *
 * stats, describe and saving are lookups. The concurrent writers lock
 * regions of 256 slots as the quotient filter's (quotient.h): writers in
 * other regions run together, and fk_filter_contains_concurrent takes the
 * same locks (the plain lookup may not run beside them; it keeps its
 * instructions). The doubling is the one global step: the concurrent
 * insert that finds the table at its limit takes every region's lock in
 * address order, waiting for the writers inside and keeping the others
 * out while it doubles (O(S), as a plain doubling), then the others go on
 * in the new table; removing a void (past the expected growth only) is a
 * global step too. The concurrent calls answer as the plain ones, plus
 * FK_ENOMEM when the locks cannot be allocated (a lookup then answers
 * true: maybe); the lock bytes (S / 256, and those of the tables doubled
 * since, kept until the filter is freed) are not in stats' memory_bytes.
 * Cost: the plain call plus the locks and the scan for the free slot
 * after the key's cluster (about 590 instructions an insert at n = 10^5,
 * 1%, against 379 plain: insn_count.sh expandable 100000 0.01 cinsert).
 *
 *   fk_params p = fk_params_make(10000, 0.001);   // start small
 *   fk_expandable *xf;
 *   if (fk_expandable_new(&p, &xf) != FK_OK) ...;
 *   for (...) fk_expandable_insert(xf, key, len); // doubles as it fills
 *   fk_expandable_contains(xf, key, len);
 *   fk_expandable_free(xf);
 */
#ifndef FK_EXPANDABLE_H
#define FK_EXPANDABLE_H

#ifdef __cplusplus
extern "C" {
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "../common/filter.h"
#include "../common/serial.h"

typedef struct fk_expandable fk_expandable;

/* The load each table fills to before it doubles (fk_params.max_load 0). */
#define FK_EXPANDABLE_MAX_LOAD 0.9
/* The expected growth factor when fk_params.growth is 0. */
#define FK_EXPANDABLE_DEFAULT_GROWTH 1024u
/* The most doublings a filter makes (FK_MEMORY_CAP comes first). */
#define FK_EXPANDABLE_MAX_DOUBLINGS 48u

/* The kind's number in the file header (common/serial.h); never reused. */
#define FK_KIND_EXPANDABLE 9u

/* The vtable for fk_filter_new(&fk_expandable_ops, ...); name
 * "expandable", caps FK_CAP_GROWS, remove and save slots set. */
FK_API extern const fk_ops fk_expandable_ops;

/* Creates an empty filter sized as above. Returns FK_OK with a new filter
 * in *out (free it with fk_expandable_free); FK_EINVAL for NULL p or out,
 * bad params (fk_params_check), fingerprint_bits over 31, max_load not 0
 * and not in [0.5, 1) (NaN included), or a table over FK_MEMORY_CAP;
 * FK_ELIMIT when the first table passes p->max_bytes; FK_ENOMEM. *out is
 * NULL on error. Cost: the first table, allocated zeroed. */
FK_API fk_status fk_expandable_new(const fk_params *p, fk_expandable **out);

/* Releases xf. NULL is a no-op. Cost: O(1). */
FK_API void fk_expandable_free(fk_expandable *xf);

/* Adds key (a second insert of a key adds a second entry). Returns FK_OK;
 * FK_ELIMIT when the table is at its limit and its doubling would pass the
 * max_bytes it was made with or given since (fk_filter_set_max_bytes; a
 * loaded filter: FK_MEMORY_CAP until then), or
 * FK_EXPANDABLE_MAX_DOUBLINGS): nothing changed; FK_EFULL only for the
 * copies of one key above; FK_ENOMEM when a doubling's table cannot be had
 * (nothing changed); FK_EINVAL for xf NULL or key NULL with len > 0.
 * Cost: one hash, a rank and a select, then the slots up to the next free
 * one move right (about (1/(1-load)^2 - 1)/2 slots, 50 at load 0.9: one
 * memmove and one word shift per block they span); an insert that doubles
 * also rewrites the table, O(S). */
FK_API fk_status fk_expandable_insert(fk_expandable *xf, const void *key, size_t len);

/* Returns true when key may be in the set, false when it is definitely
 * absent. xf NULL, or key NULL with len > 0, answers false. Cost: one hash,
 * one word when the key's quotient has no run, else a popcount, two
 * selects (BMI2's pdep where the CPU has it, chosen when the filter is
 * made or loaded) and the run's slots (one or two cache lines; runs of one
 * or two entries compared without branches); plus a binary search per
 * generation of voids when there are voids. */
FK_API bool fk_expandable_contains(const fk_expandable *xf, const void *key, size_t len);

/* Removes one entry of key (see "Removes" above). Returns FK_OK;
 * FK_ENOTFOUND when no entry matches (nothing changed); FK_EINVAL for xf
 * NULL or key NULL with len > 0. Cost: as insert, without doubling. */
FK_API fk_status fk_expandable_remove(fk_expandable *xf, const void *key, size_t len);

/* Stats: fk_filter_stats(fk_expandable_as_filter(x), &out): items = entries
 * (table and voids), capacity = the entries before the next doubling
 * (capacity 2^G), memory_bytes = tables, void list and struct,
 * bits_per_item = 8 memory_bytes / capacity, load_factor = table entries /
 * slots, expected_fpr = the union bound above summed over the entries
 * present (exact lengths). Cost: O(W).
 * Describe rows (fk_filter_describe): fk_expandable_description's fields
 * in its order, then target_fpr (the fpr F was sized for) and
 * bits_per_entry (8 memory_bytes over the entries held, 0 when empty).
 * Size (fk_ops_size): memory_bytes of the first table; expected_fpr the
 * union bound of a filter grown to `items` (the doublings they cause,
 * each generation's entries at their lengths): what stats report then;
 * geometry "W-bit slots, F = F fingerprint bits, N0 quotients, grows for
 * growth". */

/* The filter as an fk_filter, for the generic calls (still owned by the
 * caller). NULL for NULL. */
FK_API fk_filter *fk_expandable_as_filter(fk_expandable *xf);

/* Integer keys (common/filter.h, FK_U64_CALLS): the key's 8 LE bytes. */
FK_U64_CALLS(fk_expandable)
FK_U64_REMOVE(fk_expandable)

/* What a filter is made of and holds. */
typedef struct {
    uint32_t slot_bits;         /* W: F + 1 (2..32; 16 or 32 in 0.4.0 files) */
    uint32_t fingerprint_bits;  /* F: bits of a new entry */
    uint32_t doublings;         /* G: doublings so far */
    uint32_t growth;            /* the expected growth factor F was sized for */
    uint64_t quotients;         /* N = N0 2^G */
    uint64_t slots;             /* S */
    uint64_t entries;           /* in the table */
    uint64_t voids;             /* out of bits, in the void list */
    uint64_t by_length[32];     /* table entries by fingerprint length 0..W-1 */
    uint32_t shortest, longest; /* lengths in use in the table (0, 0 when empty) */
    double   void_share;        /* voids / all entries (0 when empty) */
    uint64_t seed;
} fk_expandable_description;

/* Fills *out for xf. No-op for NULL arguments. Cost: O(W). */
FK_API void fk_expandable_describe(const fk_expandable *xf, fk_expandable_description *out);

/* ------------------------------------------------------------- saving
 *
 * fk_expandable_save, fk_expandable_load: the calls of
 * FK_SERIAL_DIRECT_DECLARE (common/serial.h has their contracts). A saved
 * filter takes 128 + S/64 (18 + 8W) + 8 voids bytes (expandable_serial.c).
 * The loader accepts only a canonical table (runs paired and placed as far
 * left as they go, values rising in each run, lengths at most F, free
 * slots 0, offsets exact), a sorted void list of earlier generations,
 * items equal to the entries, a first table of the size its capacity
 * gives (capacity <= N0 <= 2 capacity: "Sizing"), and at most capacity
 * 2^G entries (so a loaded filter doubles only when a real one would):
 * anything else is FK_ECORRUPT. Cost O(S). */
FK_SERIAL_DIRECT_DECLARE(fk_expandable, fk_expandable);

#ifdef __cplusplus
}
#endif

#endif
