/* cuckoo/cuckoo.h: the cuckoo filter (Fan, Andersen, Kaminsky &
 * Mitzenmacher, "Cuckoo Filter: Practically Better Than Bloom", CoNEXT 2014).
 *
 * A table of any number N of buckets with FK_CUCKOO_SLOTS = 4 slots each
 * holds f-bit fingerprints of the keys, packed (a bucket is 4f bits, so a
 * filter at load L costs f / L bits per item). From the key's one XXH3-64
 * hash h: the fingerprint fp = ((h mod 2^32) * (2^f - 1) >> 32) + 1
 * (uniform over 1..2^f-1; 0 marks an empty slot), and two buckets i1, i2
 * such that a fingerprint stored in either finds the other from the bucket
 * and the fingerprint alone (partial-key cuckoo hashing). The second bucket
 * is the first XOR a hash of fp, kept inside a power-of-two block of the
 * table: 0..N-1 splits into the aligned blocks of N's binary digits, whose
 * frame each fingerprint sees rotated by its own offset (details and
 * why: cuckoo_hash.h and PAPER_NOTES). The alternate of the alternate is
 * the bucket itself.
 *
 * Lookup reads the two buckets and compares their four slots at once
 * (word-wide "has a zero field" test, a path with its constants folded in
 * for each width 4..16), no per-slot branches. With the 64-byte aligned
 * table, an 8- or 16-bit bucket never straddles a cache line; a 6-byte
 * 12-bit bucket does in 2 of 32 positions (the cost of packing exactly 4f
 * bits). False-positive rate at load L (occupied / slots) is about
 * 1 - (1 - 2^-f)^(8L) <= 8 / 2^f (fk_ops_expected_fpr).
 *
 * Filters loaded from files saved before this scheme (power-of-two tables,
 * XXH3-128, i2 = i1 XOR (fk_mix64(fp) & (N - 1))) keep that mapping and
 * answer exactly as they did; new filters never use it.
 *
 * Insert places the fingerprint in a free slot of i1 or i2; when both are
 * full it evicts a random slot's fingerprint to that fingerprint's other
 * bucket, and repeats, up to FK_CUCKOO_MAX_KICKS evictions. If the limit is
 * hit, every eviction is undone in reverse, so the table is exactly as
 * before and the insert returns FK_EFULL: nothing is ever lost, and every
 * FK_OK insert is found afterwards until removed. A filter sized for n
 * items holds them at a load of at most FK_CUCKOO_MAX_LOAD (94%) by
 * default (small tables at less, with spare slots; fk_ops_size tells);
 * the first failure comes near 97% load (measured in PAPER_NOTES), so n
 * distinct inserts succeed at every capacity.
 *
 * Caveats (inherent to cuckoo filters):
 *  - Removing a key that was never inserted can delete the fingerprint of
 *    another key with the same fingerprint and buckets, which then becomes
 *    a false negative. Only remove keys you inserted.
 *  - A key has only 8 slots (2 buckets x 4), so inserting the same key more
 *    than 8 times fails with FK_EFULL (more than 4 times in the rare case,
 *    probability 1/buckets, that both its buckets are the same bucket). Use
 *    fk_cuckoo_insert_unique for set semantics.
 *  - Items do not enlarge the table: past capacity, inserts start failing
 *    with FK_EFULL (never silently).
 *
 * Random choices come from a small PRNG in the filter seeded from
 * params.seed (never rand()), so runs are repeatable.
 *
 * Link: build/libfk_cuckoo.a build/libfk_common.a -lm (and the C library's
 * threads, -pthread where they are apart), nothing else.
 * Thread safety: which calls may run at the same time on one filter
 * ("no": the caller must keep them apart; "one" = one thread at a time):
 *
 *                             contains       plain insert, remove   insert_/remove_concurrent
 *   contains (any number)       yes                 yes                      yes
 *   plain insert, remove        yes                 one                      no
 *   insert_/remove_concurrent   yes                 no                       yes
 *   (insert_/remove_concurrent includes fk_filter_insert_many_concurrent
 *   and fk_filter_insert_many_u64_concurrent)
 *
 * Lookups take no lock beside either kind of writer and never miss a
 * stored key: a kick path is found first and carried out from its free
 * end back, so each fingerprint is in one of its buckets at every moment,
 * and a lookup that missed while the path moved fingerprints looks again
 * (a counter of the paths running and done, as in a seqlock; PAPER_NOTES,
 * "Many threads"). The concurrent writers take no filter-wide lock
 * (cuckoo_concurrent.c): an insert that finds a free slot takes it with
 * one compare-and-swap of its bucket's word (4-, 8- and 16-bit
 * fingerprints, whose buckets lie inside one aligned 64-bit word) or, at
 * other widths, of the aligned word holding a free slot (under its
 * bucket's striped spin lock only when its only free slots straddle two
 * words: at 10 bits 4 slots in 32 do); a kick path is searched
 * without locks and carried out step by step, each step under the two
 * stripes of its buckets, after re-reading what it moves; a remove holds
 * the stripes of both its buckets. insert_unique, stats, the kick
 * observer and saving are writers or need the writers done (the observer
 * sees the plain writer's kicks only).
 *
 *   fk_params p = fk_params_make(1000000, 0.001);
 *   fk_cuckoo *c;
 *   if (fk_cuckoo_new(&p, &c) != FK_OK) ...;
 *   if (fk_cuckoo_insert(c, "apple", 5) == FK_EFULL) ...;   // table full
 *   if (fk_cuckoo_contains(c, "apple", 5)) ...;             // true
 *   fk_cuckoo_remove(c, "apple", 5);                        // FK_OK
 *   fk_cuckoo_free(c);
 */
#ifndef FK_CUCKOO_H
#define FK_CUCKOO_H

#ifdef __cplusplus
extern "C" {
#endif

#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include "../common/filter.h"
#include "../common/serial.h"

typedef struct fk_cuckoo fk_cuckoo;

/* Evictions one insert may make before it gives up with FK_EFULL (the
 * reference implementation's limit). */
#define FK_CUCKOO_MAX_KICKS 500u

/* Fingerprint widths accepted in fk_params.fingerprint_bits (0 = derive). */
#define FK_CUCKOO_MIN_FP_BITS 4u
#define FK_CUCKOO_MAX_FP_BITS 32u

/* ------------------------------------------------------------ sizing */

/* Slots per cuckoo bucket (the paper's b). */
#define FK_CUCKOO_SLOTS 4u
/* The load a cuckoo table is sized for by default (fk_params.max_load 0):
 * low enough that a filter sized for n accepts its n inserts (the first
 * failure comes near 97%, PAPER_NOTES §3) and its last inserts stay
 * cheap. */
#define FK_CUCKOO_MAX_LOAD 0.94

/* The vtable for fk_filter_new(&fk_cuckoo_ops, ...); name "cuckoo",
 * caps FK_CAP_REMOVE. */
FK_API extern const fk_ops fk_cuckoo_ops;

/* Creates an empty cuckoo filter. Sizing: f = p->fingerprint_bits if
 * nonzero, else the smallest f with 8/2^f <= fpr (f in 4..32,
 * so 1% gives 10 bits and 0.1% gives 13; at most 32, so targets below
 * 8/2^32 ~ 1.9e-9 get 32 bits and are not met); buckets =
 * the fewest that hold
 * capacity items at p->max_load (0 = FK_CUCKOO_MAX_LOAD, 94%, with spare
 * room below 1024 buckets), any count (fk_ops_size gives both).
 * A higher max_load saves memory and makes the last inserts slower (more
 * evictions) or, near 0.97 and above, fail; a lower one buys faster
 * inserts with memory. The seed picks the hash function and seeds the
 * kick PRNG. Knobs of other kinds (bits, hashes, counter_bits, growth,
 * tightening) are ignored.
 * Returns FK_OK with a new filter in *out (caller frees with
 * fk_cuckoo_free); FK_EINVAL for NULL p or out, bad params
 * (fk_params_check), fingerprint_bits not 0 and not in 4..32, max_load not
 * 0 and not in (0, 1] (NaN included), or a size over FK_MEMORY_CAP;
 * FK_ENOMEM when allocation fails. *out is NULL on error.
 * Cost: O(buckets * f / 2) bytes allocated and zeroed. */
FK_API fk_status fk_cuckoo_new(const fk_params *p, fk_cuckoo **out);

/* Releases c. NULL is a no-op. Cost: O(1). */
FK_API void fk_cuckoo_free(fk_cuckoo *c);

/* Adds one copy of key's fingerprint. Returns FK_OK (the key is found
 * from now on, until one remove per insert); FK_EFULL when no place was
 * found within FK_CUCKOO_MAX_KICKS evictions, or the key already fills
 * its 8 slots (the filter is then exactly as before the call); FK_EINVAL
 * for c NULL or key NULL with len > 0.
 * Cost: one hash and two bucket reads when a candidate bucket has room;
 * otherwise up to FK_CUCKOO_MAX_KICKS evictions, each reading the other
 * buckets of the full bucket's four fingerprints (independent reads) to
 * prefer one that has room, and as many again to undo them on FK_EFULL.
 * Filling a filter to its 94% target costs about 0.24 evictions per
 * insert on average. */
FK_API fk_status fk_cuckoo_insert(fk_cuckoo *c, const void *key, size_t len);

/* Inserts key only if fk_cuckoo_contains would answer false (set
 * semantics; a false positive means a new key is not stored, as for any
 * filter, and it is then found anyway). Returns FK_OK whether it stored a
 * copy or not, and sets *added (if added is not NULL) to true when it did;
 * FK_EFULL and FK_EINVAL as fk_cuckoo_insert (*added false).
 * Cost: one lookup plus, when absent, one insert (one hash in all). */
FK_API fk_status fk_cuckoo_insert_unique(fk_cuckoo *c, const void *key, size_t len,
                                         bool *added);

/* Returns true when either of key's buckets holds its fingerprint (maybe
 * present), false when neither does (definitely absent). c NULL, or key
 * NULL with len > 0, answers false.
 * Cost: one hash, a few multiplies, two bucket reads (at most two cache
 * lines for f = 8 or 16), no branch on slot contents; about 106
 * instructions for an 8-byte key at f = 10, call included
 * (bench/figures/insn_count.sh). */
FK_API bool fk_cuckoo_contains(const fk_cuckoo *c, const void *key, size_t len);

/* Deletes one copy of key's fingerprint from its first bucket, else its
 * second. Returns FK_OK; FK_ENOTFOUND when neither holds it (nothing
 * changed); FK_EINVAL for c NULL or key NULL with len > 0. Removing a key
 * that was never inserted may delete another key's fingerprint (see the
 * caveats above). Cost: one hash, two bucket reads, one slot write. */
FK_API fk_status fk_cuckoo_remove(fk_cuckoo *c, const void *key, size_t len);

/* Concurrent remove (the fk_ops slot: fk_filter_remove_concurrent on
 * fk_cuckoo_as_filter(x)). Concurrent insert (the fk_ops slot: fk_filter_insert_concurrent on
 * fk_cuckoo_as_filter(x)). fk_cuckoo_insert and fk_cuckoo_remove (same statuses, same slots as some
 * serial order of the calls), safe from many threads at once and beside
 * any number of lookups (see the table above), with no filter-wide lock
 * (the thread-safety notes above). A key whose insert has returned FK_OK,
 * and which no call removed, is found by every lookup that starts later,
 * in any thread. The first concurrent write makes the locks (up to 1024
 * cache lines, one per 8 buckets; freed with the filter): FK_ENOMEM when
 * it cannot. An insert whose free slot or path other writers keep taking
 * answers FK_EFULL after 32 tries (nothing lost). Cost: the plain call
 * plus one compare-and-swap per slot written, and for a remove, an insert
 * whose only free slots straddle two words, or each step of a kick path,
 * one or two uncontended spin locks; writers wait only on a shared
 * stripe. An insert that finds a free slot reads no lock (one function
 * per scheme and width 4..16). The concurrent batches
 * (fk_filter_insert_many_concurrent, _u64_concurrent) store each key as
 * this call would, in the same slot, hashing a window of keys and
 * prefetching their buckets ahead, and count their items once a call
 * (bench/figures/insn_count.sh: fewer instructions a key than the single
 * call). */

/* Stats: fk_filter_stats(fk_cuckoo_as_filter(x), &out) fills out:
 * items = occupied slots (successful inserts minus successful
 * removes), capacity as sized, memory_bytes = the bucket array (packed
 * buckets, 16-byte pad, rounded to 64 bytes) plus the struct (plus the
 * concurrent writers' locks once a concurrent write made them),
 * bits_per_item = 8 * memory_bytes / capacity, load_factor = items / slots,
 * expected_fpr = 1 - (1 - 2^-f)^(8 load_factor). No-op for NULL
 * arguments. Cost: O(1). */

/* The filter as an fk_filter, for the generic fk_filter_* calls (still owned
 * by the caller; free it with fk_cuckoo_free or fk_filter_free, not both).
 * NULL for NULL. */
FK_API fk_filter *fk_cuckoo_as_filter(fk_cuckoo *c);

/* Integer keys (common/filter.h, FK_U64_CALLS): fk_cuckoo_contains_u64,
 * fk_cuckoo_insert_u64 and fk_cuckoo_remove_u64(x, key) answer as the byte
 * calls on the key's 8 little-endian bytes; inline, for a program that
 * links this module alone. */
FK_U64_CALLS(fk_cuckoo)
FK_U64_REMOVE(fk_cuckoo)

/* What a filter is made of and what its inserts did, for tools and
 * tests. */
typedef struct {
    uint32_t fingerprint_bits; /* f */
    uint64_t buckets;          /* any count; a power of two for filters
                                  loaded from legacy files */
    uint64_t slots;            /* buckets * 4 */
    uint64_t seed;             /* the params seed */
    uint64_t items;            /* occupied slots */
    double   load_factor;      /* items / slots */
    uint64_t kicks;            /* evictions made by all inserts so far,
                                  including those undone by a failed insert */
} fk_cuckoo_description;

/* Fills *out for c. No-op for NULL arguments. Cost: O(1). */
FK_API void fk_cuckoo_describe(const fk_cuckoo *c, fk_cuckoo_description *out);

/* ------------------------------------------------- saving and loading */

/* Saving a cuckoo filter and loading it back,
 * in a buffer. The same as
 * fk_filter_save / _load with &fk_cuckoo_ops (common/serial.h has the
 * format and the full contract); the payload layout is in
 * cuckoo/cuckoo_serial.c. */

/* The kind's number in the file header (common/serial.h); never reused. */
#define FK_KIND_CUCKOO 3u

/* fk_cuckoo_save, fk_cuckoo_load: the calls of
 * FK_SERIAL_DIRECT_DECLARE (common/serial.h has their contracts), typed
 * for fk_cuckoo.
 * Bytes a saved cuckoo filter takes: 128 + ceil(buckets * 4f / 8).
 * Saving and loading cost O(buckets * f / 2). On load the kick PRNG state
 * is restored, so inserts continue as they would have. */
FK_SERIAL_DIRECT_DECLARE(fk_cuckoo, fk_cuckoo);

#ifdef __cplusplus
}
#endif

#endif
