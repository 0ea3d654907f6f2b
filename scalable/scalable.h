/* scalable/scalable.h: growing ("scalable") filters: a chain of sub-filters
 * ("links") of any kind, so that no capacity has to be guessed up front
 * and the false-positive rate still holds (Almeida, Baquero, Preguica &
 * Hutchison, "Scalable Bloom Filters", Information Processing Letters
 * 101(6), 2007).
 *
 * Link 0 is made from the caller's params with capacity c0 = p->capacity
 * and fpr e0 = p->fpr * (1 - r); link i holds c0 * s^i items at an fpr of
 * at least e0 * r^i, where s = p->growth and r = p->tightening. A false
 * positive of the chain is a false positive of some link, so its rate is
 * at most the sum of the links' rates, kept below
 * sum_{j<=i} e0 r^j < e0 / (1 - r) = p->fpr however many links there are.
 * A link's real rate is below what it was asked for (fingerprints and
 * hash counts are whole numbers), so the budget it leaves unspent goes to
 * the next one: link i is asked for p->fpr * (1 - r^(i+1)) minus the
 * rates links 0 to i-1 reach when full (never less than e0 * r^i). That
 * saves about a bit per item in a long cuckoo chain (PAPER_NOTES.md,
 * "Growing filters", has the derivation and the measurements). Files
 * saved with links of exactly e0 * r^i (0.2.0) load and grow as before.
 *
 * Inserts go to the newest link. A link of a kind without FK_CAP_BOUNDED
 * (Bloom-like: inserts past capacity would succeed and raise its FPR) is
 * full once it holds its capacity; a bounded one (cuckoo) when it first
 * answers FK_EFULL, and the key then goes into the new link: nothing is
 * lost and insert never answers FK_EFULL for want of room. (One exception:
 * a bounded link refusing a key while under half full is not full, the
 * key's own slots are -- a cuckoo link holds at most 8 copies of a key --
 * so the copy goes into an older link with room, and FK_EFULL, nothing
 * changed, answers a key already holding all its slots in every link;
 * growing for it would add a link, s times larger, per 8 copies.) Lookups ask the newest link
 * first (it holds most of the keys).
 *
 * Removes (inner kinds that remove). A link's yes may be another key's
 * copy (a false positive of that link); taking it would make that other
 * key read absent. So, for a chain of removable links:
 *   - insert puts a key that already reads present in an older link into
 *     that link (the newest such), so the copies of one key share a link
 *     (a lookup in every link per insert);
 *   - remove asks every link: no yes is FK_ENOTFOUND; one yes removes one
 *     copy from that link (within one cuckoo link a matching copy is one
 *     of the key's own, or one identical to it: no key is lost); several
 *     yeses (a rate under the chain's fpr for an inserted key) leave the
 *     bits as they are and answer FK_OK: the key may keep answering yes,
 *     as a false positive does, and no other key is made absent; the
 *     copy stays counted in the stats' items, which count copies held
 *     (and stop at UINT64_MAX rather than wrap).
 * Removing inserted keys thus never makes another key absent; removing a
 * key never inserted may, as in any filter that removes. A key with more
 * copies than its slots in one link (8 for cuckoo) spills into other
 * links, and its removes may then be of the ambiguous kind.
 *
 * Byte limit: p->max_bytes (0: FK_MEMORY_CAP) caps the bytes the whole
 * chain holds. Every new link is checked against it before anything is
 * allocated, and an insert that would need a link over it answers
 * FK_ELIMIT with nothing changed (the chain still answers and removes).
 * With a nonzero max_bytes, create also refuses (FK_ELIMIT) a chain whose
 * first growth step could not fit. The limit is not saved: a loaded
 * chain has FK_MEMORY_CAP until fk_filter_set_max_bytes.
 *
 * Defaults (0 in fk_params): growth s = FK_SCALABLE_DEFAULT_GROWTH (2) and
 * tightening r = FK_SCALABLE_DEFAULT_TIGHTENING (0.9), chosen by the
 * measurement in PAPER_NOTES.md: at 1000x growth they cost about 1.5x the
 * memory of a fixed filter sized for the final count (r = 0.5, as
 * RedisBloom, costs about 2x; s = 4 about 1.9x and half the links).
 * The knobs bits, hashes and fingerprint_bits are ignored: each link
 * derives its own from its capacity and fpr.
 *
 * Thread safety, on one chain, which calls may run at the same time from
 * any number of threads ("no": the caller keeps them apart):
 *
 *                              lookups (contains,  contains_    insert_/remove_  plain writers
 *                              count, the batches) concurrent   concurrent       (insert, remove,
 *                                                                                the batches)
 *   lookups                        yes                yes          no               no
 *   fk_filter_contains_concurrent  yes                yes          yes              no
 *   insert_/remove_concurrent      no                 yes          yes              no
 *   plain writers                  no                 no           no               no
 *
 * The concurrent insert goes to the newest link through the inner kind's
 * own (FK_EUNSUPPORTED when it has none; remove_concurrent where the
 * chain removes), after an atomic add to the link's count; the writer that
 * finds the link full opens the next one, once, while the others wait for
 * it and retry in the new link. The link array never moves while they
 * run: the first concurrent call gives it room for FK_SCALABLE_MAX_LINKS
 * links (4 MiB of address space, its zeroed pages mapped only as links are
 * written; not in stats' memory_bytes), and the link count is published
 * after the new link is whole, so fk_filter_contains_concurrent (each link through the inner
 * kind's fk_filter_contains_concurrent, newest first) never reads half a
 * link and never misses a key whose concurrent insert has returned. The
 * plain lookup reads the chain without those loads, so it may not run
 * beside the concurrent writers. A link of an unbounded kind still takes
 * exactly its capacity (the atomic add reserves a place before the
 * insert); a bounded kind's link takes keys until it answers FK_EFULL, as
 * with the plain insert. Cost: the inner kind's concurrent
 * insert plus one atomic add on the link's count (a line every writer of
 * the newest link shares) and a per-thread count.
 */
#ifndef FK_SCALABLE_H
#define FK_SCALABLE_H

#ifdef __cplusplus
extern "C" {
#endif

#include <stddef.h>
#include <stdint.h>
#include "../common/filter.h"
#include "../common/serial.h"

#define FK_SCALABLE_DEFAULT_GROWTH     2u
#define FK_SCALABLE_DEFAULT_TIGHTENING 0.9
/* Largest growth: a saved chain's next link is at most this many times
 * its newest one, so a small file cannot ask for a huge allocation on its
 * next insert. */
#define FK_SCALABLE_MAX_GROWTH         65536u
/* Most links a chain holds: past it inserts answer FK_EINVAL (reached only
 * with growth 1; with growth >= 2 FK_MEMORY_CAP comes first). */
#define FK_SCALABLE_MAX_LINKS          65536u
/* File kind id of a saved chain, whatever its inner kind (the inner kind's
 * own id is kind parameter 0; registry/README.md lists the ids). */
#define FK_KIND_SCALABLE               5u

/* Creates an empty growing filter of links of kind `inner` (any kind that
 * passes fk_ops_check and is not itself growing), its first link made
 * now. p->capacity is the first link's capacity, p->fpr the target for
 * the whole chain, p->growth and p->tightening as above (0: default).
 * Returns FK_OK with the new filter in *out (the caller frees it with
 * fk_filter_free); FK_EINVAL for NULL arguments, an inner table failing
 * fk_ops_check or with FK_CAP_GROWS, params failing fk_params_check,
 * growth over FK_SCALABLE_MAX_GROWTH, tightening NaN or not in (0, 1), a first link the inner kind refuses, or
 * one over FK_MEMORY_CAP; FK_ELIMIT when p->max_bytes is nonzero and the
 * first link, or the first link and the next, would hold more; FK_ENOMEM
 * when allocation fails. *out is NULL on
 * error. The filter's kind is a generic table named "scalable" that cannot
 * be saved (no kind id binds its inner kind); the registered kinds
 * "scalable-bloom", "scalable-blocked" and "scalable-cuckoo" are the same
 * chains and can be saved. Cost: the first link's creation. */
FK_API fk_status fk_scalable_new(const fk_ops *inner, const fk_params *p, fk_filter **out);

/* What a chain is made of (its inner kind, growth, tightening, links,
 * memory and byte limit, and each link's capacity, items, memory, target
 * and expected fpr) is in its rows: fk_filter_describe (common/filter.h),
 * six rows per link after the chain's own. */

#ifdef __cplusplus
}
#endif

#endif
