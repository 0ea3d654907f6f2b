/* quotient/quotient.h: the counting quotient filter (Pandey, Bender,
 * Johnson & Patro, "A General-Purpose Counting Filter: Making Every Bit
 * Count", SIGMOD 2017; the quotient filter of Bender et al., VLDB 2012).
 *
 * One XXH3-64 hash h per key gives a quotient q = floor(h N / 2^64) (the
 * multiply-high reduction: any table size, no division) and an r-bit
 * remainder x, the next r bits of that product. The table has S slots
 * (a multiple of 64, a little more than N) of r bits; every key with
 * quotient q lives in q's run, a stretch of slots starting at q or, when
 * earlier runs spill over, just after them, holding the remainders in
 * rising order. Two bits per slot say where runs are (occupieds: quotient
 * q has a run; runends: this slot ends one) and each 64-slot block keeps
 * one byte, its offset (how far earlier runs reach into it), so a lookup
 * finds q's run with one popcount (rank) and one select on a word: BMI2's
 * pdep + tzcnt where the CPU has it (chosen at run time), a portable loop
 * with the same answer elsewhere. Cost: r + 2.125 bits per slot; a filter
 * sized for n keys at load 0.95 (fk_params.max_load, 0 = 0.95) spends
 * (r + 2.125) / 0.95 bits per key plus one partial block and the struct.
 *
 * Counts: each distinct remainder of a run is a group; a key inserted C
 * times costs 1 slot for C = 1, 2 for C = 2, and for more a counter in
 * base 2^r - 2 written in the remainder slots themselves (quotient_internal.h
 * has the exact encoding), at most 3 + ceil(log_(2^r-2) C) slots: a key
 * inserted 10^6 times takes 5 slots at r = 7 (PAPER_NOTES §9).
 * fk_filter_count never answers below the number of inserts minus
 * removes of the key; it answers more only when other keys share its
 * quotient and remainder (the same event as a false positive).
 *
 * False-positive rate with n distinct keys: 1 - exp(-(n / N) 2^-r), about
 * (n / N) 2^-r; r is the smallest in FK_QUOTIENT_MIN_R..FK_QUOTIENT_MAX_R
 * meeting the target at capacity (1% gives r = 7, 0.1% r = 10).
 *
 * Full: the table holds keys until a run would have to move past its last
 * slot, or an offset past 255 (around 98% of the slots for large tables;
 * PAPER_NOTES measures it); the insert that cannot fit answers FK_EFULL
 * and leaves the filter exactly as it was. fk_filter_grow doubles the
 * table without the keys.
 *
 * Removing a key that was never inserted: when no group of its quotient
 * has its remainder, remove answers FK_ENOTFOUND and changes nothing (the
 * tests compare the bytes). When one has (the key is a false positive of
 * the filter, probability about the FPR), that group's count goes down by
 * one exactly as if the key sharing it had been removed: a key inserted
 * once may then be missed. No other group is touched.
 *
 * Link: build/libfk_quotient.a build/libfk_common.a -lm, nothing else.
 * Thread safety, on one filter, which calls may run at the same time from
 * any number of threads ("no": the caller keeps them apart):
 *
 *                              lookups (contains,  contains_    insert_/remove_  plain writers
 *                              count, the batches) concurrent   concurrent       (insert, remove,
 *                                                                                merge, grow, ...)
 *   lookups                        yes                yes          no               no
 *   fk_filter_contains_concurrent  yes                yes          yes              no
 *   insert_/remove_concurrent      no                 yes          yes              no
 *   plain writers                  no                 no           no               no
 *
 * stats, describe and saving are lookups (and read the concurrent writers'
 * counts once they are done). The concurrent writers lock regions of 256
 * slots, one lock byte each (allocated by the first concurrent call:
 * S / 256 bytes, plus 3 KiB of per-thread counts, in stats' memory_bytes
 * from then on), as the CQF does: an insert or remove locks its
 * quotient's region and the next ones in address order up to the free
 * slots where its shift ends, plus one; writers in other regions run
 * together. A key whose concurrent insert has returned FK_OK is found by
 * every fk_filter_contains_concurrent that starts later (it takes the
 * same locks: a plain lookup could read a run in the middle of a shift,
 * so it may not run beside these writers; it keeps its instructions and
 * takes no lock). The concurrent calls answer as the plain ones, plus
 * FK_ENOMEM when the locks cannot be allocated (a lookup then answers
 * true: maybe). Cost: the plain call, plus the lock bytes, a scan for the
 * free slot after the key's cluster, and per-thread counts (about 960
 * instructions an insert at n = 10^5, 1%, against 518 plain: insn_count.sh
 * quotient 100000 0.01 cinsert). Batches: fk_filter_contains_many and friends hash a window of
 * keys and prefetch each key's block before probing (quotient_batch.c).
 *
 *   fk_params p = fk_params_make(1000000, 0.01);
 *   fk_quotient *qf;
 *   if (fk_quotient_new(&p, &qf) != FK_OK) ...;
 *   fk_quotient_insert(qf, "apple", 5);               // FK_OK (or FK_EFULL)
 *   fk_quotient_insert(qf, "apple", 5);
 *   uint64_t c;
 *   fk_filter_count(fk_quotient_as_filter(qf), "apple", 5, &c); // c = 2
 *   fk_quotient_remove(qf, "apple", 5);               // FK_OK, c now 1
 *   fk_quotient_free(qf);
 */
#ifndef FK_QUOTIENT_H
#define FK_QUOTIENT_H

#ifdef __cplusplus
extern "C" {
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "../common/filter.h"
#include "../common/serial.h"

typedef struct fk_quotient fk_quotient;

/* Remainder widths accepted in fk_params.fingerprint_bits (0 = derive). */
#define FK_QUOTIENT_MIN_R 2u
#define FK_QUOTIENT_MAX_R 56u
/* The load a table is sized for when fk_params.max_load is 0. */
#define FK_QUOTIENT_MAX_LOAD 0.95

/* The kind's number in the file header (common/serial.h); never reused. */
#define FK_KIND_QUOTIENT 7u

/* The vtable for fk_filter_new(&fk_quotient_ops, ...); name "quotient",
 * caps FK_CAP_COUNT | FK_CAP_BOUNDED, remove and save slots set. */
FK_API extern const fk_ops fk_quotient_ops;

/* Creates an empty filter. Sizing: S = the fewest whole 64-slot blocks
 * holding capacity / max_load slots (max_load 0 = FK_QUOTIENT_MAX_LOAD);
 * N = S minus a margin of 16 + 2 sqrt(S) slots for the runs pushed past
 * the last quotient (tiny filters get more blocks, so that N stays at
 * least 90% of capacity / max_load); r =
 * p->fingerprint_bits if nonzero, else the smallest r >= 2 whose FPR at
 * capacity (above) meets p->fpr, at most 56 (so targets below about 2^-56
 * are not met). The seed picks the hash. Knobs of other kinds are ignored.
 * Returns FK_OK with a new filter in *out (the caller frees it with
 * fk_quotient_free); FK_EINVAL for NULL p or out, bad params
 * (fk_params_check), fingerprint_bits not 0 and not in 2..56, max_load
 * not 0 and not in (0, 1] (NaN included), or a table over FK_MEMORY_CAP;
 * FK_ENOMEM. *out is NULL on error. Cost: O(S (r + 2.125) / 8) bytes
 * allocated and zeroed. */
FK_API fk_status fk_quotient_new(const fk_params *p, fk_quotient **out);

/* Releases qf. NULL is a no-op. Cost: O(1). */
FK_API void fk_quotient_free(fk_quotient *qf);

/* Adds one occurrence of key (its count goes up by one, and stays at
 * UINT64_MAX once there: counts saturate, never wrap). Returns FK_OK;
 * FK_EFULL when the table has no room for it: the filter is then exactly
 * as before; FK_ENOMEM when a
 * scratch buffer for a very long cluster cannot be had (nothing changed);
 * FK_EINVAL for qf NULL or key NULL with len > 0.
 * Cost: one hash, a rank and a select, then the slots after the key's run
 * up to the next free slot move one place right, a 64-bit word at a time:
 * (1 / (1 - load)^2 - 1) / 2 slots on average in theory (1.5 at load 0.5,
 * 200 at 0.95; measured a little fewer, PAPER_NOTES §9). */
FK_API fk_status fk_quotient_insert(fk_quotient *qf, const void *key, size_t len);

/* Returns true when key may be in the set (its count is not 0), false when
 * it is definitely absent. qf NULL, or key NULL with len > 0, answers
 * false. Cost: one hash; when q has no run (most absent keys at moderate
 * load) one word read; otherwise a popcount, a select, and a walk of q's
 * run (1.6 groups on average at load 0.95); one or two cache lines. */
FK_API bool fk_quotient_contains(const fk_quotient *qf, const void *key, size_t len);

/* Removes one occurrence of key: its group's count goes down by one, and
 * the group's slots go when it reaches 0 (later slots move back left).
 * Returns FK_OK; FK_ENOTFOUND when no group has the key's quotient and
 * remainder (nothing changed); FK_ENOMEM as insert (nothing changed);
 * FK_EINVAL for qf NULL or key NULL with len > 0. Removing a key that was
 * never inserted: see the top of this header. Cost: as insert. */
FK_API fk_status fk_quotient_remove(fk_quotient *qf, const void *key, size_t len);

/* Stats: fk_filter_stats(fk_quotient_as_filter(x), &out) fills out:
 * items = the sum of the counts (successful inserts minus
 * successful removes, merges included; UINT64_MAX when larger: the
 * filter keeps the exact sum inside, so removes after that stay exact), capacity as sized, memory_bytes =
 * the table plus the struct, bits_per_item = 8 memory_bytes / capacity,
 * load_factor = used slots / S, expected_fpr = the theory above with the
 * distinct groups as keys. No-op for NULL arguments. Cost: O(1). */

/* The filter as an fk_filter, for the generic calls (still owned by the
 * caller; free it with fk_quotient_free or fk_filter_free, not both).
 * NULL for NULL. */
FK_API fk_filter *fk_quotient_as_filter(fk_quotient *qf);

/* Integer keys (common/filter.h, FK_U64_CALLS): fk_quotient_contains_u64,
 * fk_quotient_insert_u64 and fk_quotient_remove_u64(x, key) answer as the
 * byte calls on the key's 8 little-endian bytes; inline, for a program
 * that links this module alone. */
FK_U64_CALLS(fk_quotient)
FK_U64_REMOVE(fk_quotient)

/* What a filter is made of and holds, for tools and tests. */
typedef struct {
    uint32_t remainder_bits; /* r */
    bool     bmi2;           /* rank and select use BMI2 and popcnt (same answers) */
    uint64_t quotients;      /* N */
    uint64_t slots;          /* S, a multiple of 64 */
    uint64_t used_slots;     /* slots inside runs */
    uint64_t distinct;       /* groups: distinct (quotient, remainder) pairs */
    uint64_t items;          /* the sum of the counts */
    uint64_t seed;
} fk_quotient_description;

/* Fills *out for qf. No-op for NULL arguments. Cost: O(1). The same
 * shape as every kind's fk_<kind>_describe. */
FK_API void fk_quotient_describe(const fk_quotient *qf, fk_quotient_description *out);

/* ------------------------------------------------- tracing / teaching */

/* Where a key lives: what insert, contains, count and remove compute. */
typedef struct {
    uint64_t hash;        /* XXH3-64 of the key with the filter's seed */
    uint64_t quotient;    /* q in 0..N-1 */
    uint64_t remainder;   /* x in 0..2^r-1 */
    bool     occupied;    /* q has a run */
    uint64_t run_start;   /* q's run, first and last slot (when occupied; */
    uint64_t run_end;     /*   else run_start is where it would go, run_end = run_start) */
    uint64_t shift;       /* run_start - q: how far earlier runs pushed it */
    uint64_t count;       /* the key's group's count (0 when absent) */
    uint64_t group_slots; /* slots the key's group takes (0 when absent) */
} fk_quotient_location;

/* One slot of the table, for tracing (slot j in 0..S-1): its r bits
 * (a remainder, or a counter digit), whether quotient j has a run
 * (occupied: a property of the quotient j, not of what the slot holds),
 * whether the slot ends a run, and whether any run covers it. */
typedef struct {
    uint64_t value;
    bool     occupied;
    bool     runend;
    bool     used;
} fk_quotient_slot_info;

/* ------------------------------------------------------------- saving
 *
 * fk_quotient_save, fk_quotient_load: the
 * calls of FK_SERIAL_DIRECT_DECLARE (common/serial.h has their contracts),
 * typed for fk_quotient; a FILE * goes through fk_filter_save_file and
 * fk_filter_load_file. A saved filter takes 128 + nblocks (17 + 8r) bytes.
 * The loader accepts only a canonical table, one that inserts could have
 * built: occupieds and runends pair up, groups rise in (quotient,
 * remainder) order within each run, every counter is well formed and in
 * its shortest encoding, runs sit as far left as they go with the offsets
 * saying so, free slots are 0, and the header's items equal the sum of
 * the counts (UINT64_MAX when larger). It walks the groups, rebuilds the
 * table from them and refuses (FK_ECORRUPT) any byte that differs, so a
 * loaded filter grows, merges and saves into records that load again.
 * Cost O(S). */
FK_SERIAL_DIRECT_DECLARE(fk_quotient, fk_quotient);

#ifdef __cplusplus
}
#endif

#endif
