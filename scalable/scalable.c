/* scalable/scalable.c: the growing filter: a chain of links of one inner
 * kind, each `growth` times larger and `tightening` times stricter than the
 * one before (scalable.h has the contract). Needs nothing but fk_ops, and
 * the inner kind's common/hashed.h table where the registry binds one. */
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../common/pipeline.h"
#include "../common/spinlock.h"
#include "scalable_internal.h"

/* ------------------------------------------------------------- params */

fk_status fk_scalable_knobs_check(const fk_params *p, uint32_t *growth, double *tightening)
{
    if (fk_params_check(p) != FK_OK)
        return FK_EINVAL;
    double r = p->tightening == 0.0 ? FK_SCALABLE_DEFAULT_TIGHTENING : p->tightening;
    if (!(r > 0.0 && r < 1.0))
        return FK_EINVAL; /* NaN fails too */
    if (p->growth > FK_SCALABLE_MAX_GROWTH)
        return FK_EINVAL;
    *growth = p->growth ? p->growth : FK_SCALABLE_DEFAULT_GROWTH;
    *tightening = r;
    return FK_OK;
}

/* Link 0's params: the caller's, with fpr e0 = target * (1 - r), so that
 * the sum of e0 r^i stays below the target, and the knobs each link
 * derives for itself cleared. */
static fk_params first_params(const fk_params *p, double r)
{
    fk_params q = *p;
    q.fpr = p->fpr * (1.0 - r);
    q.bits = 0;
    q.hashes = 0;
    q.fingerprint_bits = 0;
    q.growth = 0;
    q.tightening = 0.0;
    return q;
}

/* The chain's count: inserts minus removes over its links, stopping at
 * UINT64_MAX rather than wrap (links of 3 2^i keys may hold more than 2^64
 * in all; the saved header holds the links' sum, capped the same way). A
 * chain that removes counts at most its slots, far below. */
static inline void count_add(uint64_t *n, uint64_t d)
{
    *n = *n > UINT64_MAX - d ? UINT64_MAX : *n + d;
}

fk_status fk_scalable_next_params(const fk_scalable *c, const fk_params *prev, fk_params *next)
{
    *next = *prev;
    if (prev->capacity > UINT64_MAX / c->growth)
        return FK_EINVAL;
    next->capacity = prev->capacity * c->growth;
    double nominal = prev->fpr * c->tightening;
    /* budget of links 0..i: sum_{j<=i} e0 r^j = target (1 - r^(i+1)) */
    double budget = c->target * -expm1((double)(c->count + 1) * log(c->tightening)) - c->spent;
    next->fpr = budget > nominal ? budget : nominal;
    return next->fpr > 0.0 && next->fpr < 1.0 ? FK_OK : FK_EINVAL;
}

double fk_scalable_link_spend(const fk_ops *inner, const fk_params *q)
{
    /* A Bloom-like link takes no key past its capacity; a bounded one
     * (cuckoo) takes keys until FK_EFULL, past its capacity: its rate with
     * every slot full (the kind's formula clamps the load at 1) */
    double items = (double)q->capacity * ((fk_ops_caps(inner) & FK_CAP_BOUNDED) ? 2.0 : 1.0), e;
    if (fk_ops_expected_fpr(inner, q, items, &e) != FK_OK || !(e >= 0.0))
        return q->fpr;
    return e < q->fpr ? e : q->fpr;
}

/* ------------------------------------------------------------- object */

bool fk_scalable_is(const fk_filter *f)
{
    return f && f->ops->stats == fk_scalable_slot_stats;
}

static bool chain_contains_u64(const fk_filter *f, uint64_t key);

fk_scalable *fk_scalable_alloc(const fk_ops *outer, const fk_ops *inner, const fk_params *p,
                               uint32_t growth, double tightening, size_t slots)
{
    fk_scalable *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->link = calloc(slots, sizeof *c->link);
    if (!c->link) {
        free(c);
        return NULL;
    }
    c->base.ops = outer;
    c->base.contains_u64 = chain_contains_u64; /* fk_filter_contains_u64's one target */
    c->inner = inner;
    c->first = first_params(p, tightening);
    c->target = p->fpr;
    c->growth = growth;
    c->tightening = tightening;
    c->bounded = (fk_ops_caps(inner) & FK_CAP_BOUNDED) != 0;
    c->slots = c->room = slots;
    c->max_bytes = fk_params_max_bytes(p);
    return c;
}

/* The memory a link made from q will hold: the size slot when the kind
 * has one, else 0 (the link is then measured once made). */
static uint64_t predicted_memory(const fk_ops *inner, const fk_params *q)
{
    fk_sizing sz;
    return fk_ops_size(inner, q, &sz) == FK_OK ? sz.memory_bytes : 0;
}

/* Bytes a new link may take: the limit less what the chain holds with one
 * more link (0 when it holds that much already). */
static uint64_t room_left(const fk_scalable *c)
{
    uint64_t held = c->link_memory + fk_scalable_overhead(c->count + 1);
    return held < c->max_bytes ? c->max_bytes - held : 0;
}

/* Appends a link made from q. On any failure the chain is unchanged: the
 * byte limit is checked before anything is allocated (FK_ELIMIT).
 * concurrent: called by the one writer holding c->growing, beside
 * concurrent inserts and lookups, which read the link array and count
 * with acquire loads: the array is replaced, never moved, and the count
 * published after the link is whole. */
__attribute__((always_inline)) static inline fk_status add_link_as(fk_scalable *c,
                                                                   const fk_params *q,
                                                                   bool concurrent)
{
    if (c->count == FK_SCALABLE_MAX_LINKS)
        return FK_EINVAL;
    uint64_t cap_left = room_left(c);
    if (predicted_memory(c->inner, q) > cap_left)
        return FK_ELIMIT;
    if (c->count == c->slots) {
        size_t grown = fk_scalable_slots(c->count + 1);
        if (grown > c->room) { /* never for the concurrent writers: presized */
            fk_scalable_link *more = realloc(c->link, grown * sizeof *more);
            if (!more)
                return FK_ENOMEM;
            memset(more + c->room, 0, (grown - c->room) * sizeof *more);
            c->link = more;
            c->room = grown;
        }
        c->slots = grown;
    }
    fk_filter *f = NULL;
    fk_status s = c->inner->create(q, &f);
    if (s != FK_OK)
        return s == FK_ENOMEM ? FK_ENOMEM : FK_EINVAL;
    fk_stats st;
    memset(&st, 0, sizeof st);
    c->inner->stats(f, &st);
    if (st.memory_bytes > cap_left) {
        c->inner->destroy(f);
        return FK_ELIMIT;
    }
    fk_scalable_link *l = &c->link[c->count];
    *l = (fk_scalable_link){ f, q->capacity, q->fpr, 0, { NULL, NULL }, { 0, 0 } };
    c->link_memory += st.memory_bytes;
    c->spent += fk_scalable_link_spend(c->inner, q);
    c->newest_full = false;
    c->hash_once = c->hash_once && c->hashed->probes(f, &l->probes);
    if (concurrent)
        atomic_store_explicit((_Atomic size_t *)&c->count, c->count + 1, memory_order_release);
    else
        c->count++;
    return FK_OK;
}

static fk_status add_link(fk_scalable *c, const fk_params *q)
{
    return add_link_as(c, q, false);
}

/* The params of the link after the newest. */
static fk_status next_link_params(const fk_scalable *c, fk_params *next)
{
    const fk_scalable_link *last = &c->link[c->count - 1];
    fk_params prev = c->first;
    prev.capacity = last->capacity;
    prev.fpr = last->fpr;
    return fk_scalable_next_params(c, &prev, next);
}

/* Opens the link after the newest. */
static fk_status grow(fk_scalable *c)
{
    fk_params next;
    fk_status s = next_link_params(c, &next);
    return s == FK_OK ? add_link(c, &next) : s;
}

/* With an explicit byte limit, a chain whose first growth step could not
 * fit is refused when made: it would stop at its first link's capacity. */
static fk_status first_step_fits(const fk_scalable *c)
{
    fk_params next;
    if (next_link_params(c, &next) != FK_OK)
        return FK_OK; /* growth then answers for itself */
    uint64_t need = predicted_memory(c->inner, &next);
    return need > room_left(c) ? FK_ELIMIT : FK_OK;
}

fk_status fk_scalable_new_as(const fk_ops *outer, const fk_ops *inner, const fk_params *p,
                             fk_filter **out)
{
    if (out)
        *out = NULL;
    uint32_t growth;
    double r;
    if (!out || fk_ops_check(outer) != FK_OK || fk_ops_check(inner) != FK_OK ||
        (fk_ops_caps(inner) & FK_CAP_GROWS) || fk_scalable_knobs_check(p, &growth, &r) != FK_OK)
        return FK_EINVAL;
    fk_scalable *c = fk_scalable_alloc(outer, inner, p, growth, r, fk_scalable_slots(1));
    if (!c)
        return FK_ENOMEM;
    fk_status s = add_link(c, &c->first);
    if (s == FK_OK && p->max_bytes != 0)
        s = first_step_fits(c);
    if (s == FK_ELIMIT && p->max_bytes == 0)
        s = FK_EINVAL; /* over FK_MEMORY_CAP, as every kind's create says */
    if (s != FK_OK) {
        fk_scalable_slot_destroy(&c->base);
        return s;
    }
    *out = &c->base;
    return FK_OK;
}

void fk_scalable_bind_hashed(fk_filter *f, const fk_hashed_ops *hashed)
{
    if (!fk_scalable_is(f))
        return;
    fk_scalable *c = (fk_scalable *)f;
    c->hashed = hashed;
    bool all = hashed != NULL;
    for (size_t i = 0; all && i < c->count; i++)
        all = hashed->probes(c->link[i].filter, &c->link[i].probes);
    c->hash_once = all;
}

void fk_scalable_slot_destroy(fk_filter *f)
{
    fk_scalable *c = (fk_scalable *)f;
    if (!c)
        return;
    for (size_t i = 0; i < c->count; i++)
        c->inner->destroy(c->link[i].filter);
    free(c->link);
    fk_tally_release(&c->c_items);
    free(c);
}

/* --------------------------------------------------------- a chain's key
 *
 * A key as the links see it: its bytes, and in a chain that hashes once
 * (c->hash_once) its hash, computed here once for every link. All links
 * share the chain's seed, so link 0 hashes it for all of them. */

typedef struct {
    const void *key;
    size_t      len;
    bool        hashed; /* hash is set (the chain hashed once when it was made) */
    fk_hash128  hash;
} chain_key;

static inline chain_key key_of(const fk_scalable *c, const void *key, size_t len)
{
    chain_key k = { key, len, c->hash_once, { 0, 0 } };
    if (k.hashed)
        k.hash = c->hashed->hash(c->link[0].filter, key, len);
    return k;
}

/* The key of the 8 little-endian bytes at le (of integer key). */
static inline chain_key key_of_u64(const fk_scalable *c, const uint8_t le[8], uint64_t key)
{
    chain_key k = { le, 8, c->hash_once, { 0, 0 } };
    if (k.hashed)
        k.hash = c->hashed->hash_u64(c->link[0].filter, key);
    return k;
}

/* Link i's answer for k: from its hash, or the link's own call (which
 * hashes again). hash_once only turns false (a link that does not take
 * the hash added after k was made), never true. */
static inline bool link_has(const fk_scalable *c, size_t i, const chain_key *k)
{
    if (k->hashed && c->hash_once)
        return c->link[i].probes.contains(c->link[i].filter, k->hash);
    return c->inner->contains(c->link[i].filter, k->key, k->len);
}

static inline fk_status link_insert(fk_scalable *c, size_t i, const chain_key *k)
{
    if (k->hashed && c->hash_once)
        return c->link[i].probes.insert(c->link[i].filter, k->hash);
    return c->inner->insert(c->link[i].filter, k->key, k->len);
}

/* ------------------------------------------------------------- insert */

/* A bounded link refusing a key while under half full is not full: the
 * key's own slots are (a cuckoo link holds at most 8 copies of one key).
 * Growing for it would add a link per 8 copies, each s times larger, so
 * the copy goes into an older link with room, or is refused. */
static fk_status insert_copy(fk_scalable *c, const chain_key *k)
{
    for (size_t i = c->count - 1; i-- > 0;) {
        fk_scalable_link *l = &c->link[i];
        fk_status s = link_insert(c, i, k);
        if (s == FK_EFULL)
            continue;
        if (s == FK_OK) {
            l->items++;
            count_add(&c->items, 1);
        }
        return s;
    }
    return FK_EFULL;
}

/* The newest link that answers yes for k, or c->count when none does. */
static size_t newest_match(const fk_scalable *c, const chain_key *k)
{
    for (size_t i = c->count; i-- > 0;)
        if (link_has(c, i, k))
            return i;
    return c->count;
}

/* fk_scalable_slot_insert of a key made by key_of / key_of_u64, or of one
 * not hashed (each link hashes it). Inlined into each caller, so that
 * for a key known not hashed the chain_key folds away. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline))
#endif
static inline fk_status insert_key(fk_scalable *c, const chain_key *k)
{
    if (c->inner->remove && c->count > 1) {
        /* Removable kinds: a key that already reads present in an older
         * link adds its copy there, so all copies of a key share one link
         * and a remove finds them in one place (see remove). */
        size_t at = newest_match(c, k);
        if (at < c->count - 1) {
            fk_scalable_link *l = &c->link[at];
            fk_status s = link_insert(c, at, k);
            if (s == FK_OK) {
                l->items++;
                count_add(&c->items, 1);
                return FK_OK;
            }
            if (s != FK_EFULL)
                return s;
        }
    }
    if (c->newest_full) {
        fk_status s = grow(c);
        if (s != FK_OK)
            return s;
    }
    fk_scalable_link *l = &c->link[c->count - 1];
    fk_status s = link_insert(c, c->count - 1, k);
    if (s == FK_EFULL && l->items < l->capacity / 2)
        return insert_copy(c, k);
    if (s == FK_EFULL) {
        /* Bounded kinds: nothing was lost; the key goes into a new link
         * (a fresh link always has room for one key). */
        c->newest_full = true;
        s = grow(c);
        if (s != FK_OK)
            return s;
        l = &c->link[c->count - 1];
        s = link_insert(c, c->count - 1, k);
        if (s == FK_EFULL)
            s = FK_EINVAL; /* an inner kind that refuses an empty table's first key */
    }
    if (s != FK_OK)
        return s;
    l->items++;
    count_add(&c->items, 1);
    if (!c->bounded && l->items >= l->capacity)
        c->newest_full = true;
    return FK_OK;
}

/* Whether an insert hashes the key once for the links: only where it
 * reads more than one link, a removable kind's (the newest link holding
 * the key first). Any other insert writes the newest link alone (an older
 * one only after FK_EFULL), where the link's own call, its hash inlined,
 * is the cheaper (scalable-bloom, 10^6 keys into 4 links: 240
 * instructions a key so, 259 hashing first). */
static inline bool insert_hashes_once(const fk_scalable *c)
{
    return c->hash_once && c->inner->remove != NULL;
}

fk_status fk_scalable_slot_insert(fk_filter *f, const void *key, size_t len)
{
    fk_scalable *c = (fk_scalable *)f;
    if (!key && len)
        return FK_EINVAL;
    if (!insert_hashes_once(c)) {
        const chain_key plain = { key, len, false, { 0, 0 } };
        return insert_key(c, &plain);
    }
    chain_key k = key_of(c, key, len);
    return insert_key(c, &k);
}

/* An integer key: its 8 little-endian bytes, hashed once on the kind's
 * constant-length path in a chain that hashes once. */
fk_status fk_scalable_slot_insert_u64(fk_filter *f, uint64_t key)
{
    fk_scalable *c = (fk_scalable *)f;
    uint8_t le[8];
    fk_batch_le8(le, key);
    if (!insert_hashes_once(c)) {
        const chain_key plain = { le, sizeof le, false, { 0, 0 } };
        return insert_key(c, &plain);
    }
    chain_key k = key_of_u64(c, le, key);
    return insert_key(c, &k);
}

/* ------------------------------------------------------------- lookup */

/* Whether a link holds the key of hash h, newest first (it holds the most
 * keys, about 1 - 1/s of them), in a chain that hashes once: one indirect
 * call per link visited, to the probes the link chose when made. */
static inline bool any_link_has(const fk_scalable *c, fk_hash128 h)
{
    for (size_t i = c->count; i-- > 0;) {
        const fk_scalable_link *l = &c->link[i];
        if (l->probes.contains(l->filter, h))
            return true;
    }
    return false;
}

bool fk_scalable_slot_contains(const fk_filter *f, const void *key, size_t len)
{
    const fk_scalable *c = (const fk_scalable *)f;
    if (!key && len)
        return false;
    if (c->hash_once) {
        fk_hash128 h = c->hashed->hash(c->link[0].filter, key, len);
        return any_link_has(c, h);
    }
    for (size_t i = c->count; i-- > 0;)
        if (c->inner->contains(c->link[i].filter, key, len))
            return true;
    return false;
}

/* A u64 key: the newest link first, from its hash computed once, or
 * through the inner kind's own u64 call (or its bytes where the kind has
 * none). The chain's base.contains_u64 (no contains_u64 slot). */
static bool chain_contains_u64(const fk_filter *f, uint64_t key)
{
    const fk_scalable *c = (const fk_scalable *)f;
    if (c->hash_once)
        return any_link_has(c, c->hashed->hash_u64(c->link[0].filter, key));
    for (size_t i = c->count; i-- > 0;)
        if (fk_filter_contains_u64(c->link[i].filter, key))
            return true;
    return false;
}

/* ----------------------------------------------------------- batches */

/* Keys a batch lookup carries from link to link at a time: enough for the
 * inner pipelines' windows to fill, few enough to stay in L1. */
#define FK_SCALABLE_BATCH 256u

/* After a link's batch call answered hit[j] for the m keys still
 * unanswered: writes each answer to out (at its index in the block,
 * live[j]) and keeps the keys the link does not hold, in order, in live
 * and in the payloads a (a_size bytes a key) and b (b_size bytes, or
 * NULL) that the next link's call reads. Returns how many are kept.
 * The newest link's pass covers the whole block, so it writes every
 * answer once: out needs no clearing before.
 * Compacts without a branch: each slot is written either way. Inlined
 * with constant sizes, the copies are plain moves. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline))
#endif
static inline size_t keep_unanswered(size_t m, const bool hit[], uint16_t live[], bool out[],
                                     void *a, size_t a_size, void *b, size_t b_size)
{
    size_t kept = 0;
    for (size_t j = 0; j < m; j++) {
        out[live[j]] = hit[j];
        live[kept] = live[j];
        memmove((char *)a + kept * a_size, (char *)a + j * a_size, a_size);
        if (b)
            memmove((char *)b + kept * b_size, (char *)b + j * b_size, b_size);
        kept += !hit[j];
    }
    return kept;
}

/* The lookups of one block of at most FK_SCALABLE_BATCH keys: `live`
 * holds the indexes (into the block) still unanswered; each link, newest
 * first, looks them all up in one batch call, and those it holds drop
 * out. ints or keys/lens is NULL (a constant per caller). */
static inline void lookup_block(const fk_scalable *c, size_t n, const void *const keys[],
                                const size_t lens[], const uint64_t ints[], bool out[])
{
    uint16_t live[FK_SCALABLE_BATCH];
    uint64_t ikeys[FK_SCALABLE_BATCH];
    const void *pkeys[FK_SCALABLE_BATCH];
    size_t plens[FK_SCALABLE_BATCH];
    bool hit[FK_SCALABLE_BATCH];
    size_t m = n;
    for (size_t j = 0; j < n; j++)
        live[j] = (uint16_t)j; /* out[j] is written by the newest link's pass */
    if (ints)
        memcpy(ikeys, ints, n * sizeof *ikeys);
    else {
        memcpy(pkeys, keys, n * sizeof *pkeys);
        memcpy(plens, lens, n * sizeof *plens);
    }
    for (size_t i = c->count; i-- > 0 && m > 0;) {
        const fk_filter *link = c->link[i].filter;
        if (ints) {
            fk_filter_contains_many_u64(link, m, ikeys, hit);
            m = keep_unanswered(m, hit, live, out, ikeys, sizeof *ikeys, NULL, 0);
        } else {
            fk_filter_contains_many(link, m, pkeys, plens, hit);
            m = keep_unanswered(m, hit, live, out, pkeys, sizeof *pkeys, plens, sizeof *plens);
        }
    }
}

/* lookup_block in a chain that hashes once (c->hash_once): the block's
 * keys are hashed once, then each link, newest first, looks up the hashes
 * still unanswered in one call on its kind's pipeline (which prefetches a
 * window ahead), and those it holds drop out. */
static inline void lookup_block_hashed(const fk_scalable *c, size_t n, const void *const keys[],
                                       const size_t lens[], const uint64_t ints[], bool out[])
{
    const fk_hashed_ops *t = c->hashed;
    const fk_filter *first = c->link[0].filter; /* every link's seed */
    uint16_t live[FK_SCALABLE_BATCH];
    fk_hash128 h[FK_SCALABLE_BATCH];
    bool hit[FK_SCALABLE_BATCH];
    size_t m = n;
    for (size_t j = 0; j < n; j++) {
        live[j] = (uint16_t)j; /* out[j] is written by the newest link's pass */
        h[j] = ints ? t->hash_u64(first, ints[j]) : t->hash(first, keys[j], lens[j]);
    }
    for (size_t i = c->count; i-- > 0 && m > 0;) {
        t->contains_many_hashed(c->link[i].filter, m, h, hit);
        m = keep_unanswered(m, hit, live, out, h, sizeof *h, NULL, 0);
    }
}

void fk_scalable_slot_contains_many(const fk_filter *f, size_t n, const void *const keys[],
                                    const size_t lens[], bool out[])
{
    const fk_scalable *c = (const fk_scalable *)f;
    for (size_t at = 0; at < n; at += FK_SCALABLE_BATCH) {
        size_t m = n - at < FK_SCALABLE_BATCH ? n - at : FK_SCALABLE_BATCH;
        if (c->hash_once)
            lookup_block_hashed(c, m, keys + at, lens + at, NULL, out + at);
        else
            lookup_block(c, m, keys + at, lens + at, NULL, out + at);
    }
}

void fk_scalable_slot_contains_many_u64(const fk_filter *f, size_t n, const uint64_t keys[],
                                        bool out[])
{
    const fk_scalable *c = (const fk_scalable *)f;
    for (size_t at = 0; at < n; at += FK_SCALABLE_BATCH) {
        size_t m = n - at < FK_SCALABLE_BATCH ? n - at : FK_SCALABLE_BATCH;
        if (c->hash_once)
            lookup_block_hashed(c, m, NULL, NULL, keys + at, out + at);
        else
            lookup_block(c, m, NULL, NULL, keys + at, out + at);
    }
}

/* Inserts keys [at, n) (bytes, or ints when keys is NULL): while the
 * newest link of a kind that cannot remove has room, a run of keys goes
 * through the inner kind's batch call; the key that finds it full (or
 * any key of a removable kind) takes fk_scalable_slot_insert. */
static fk_status insert_run(fk_filter *f, size_t n, const void *const keys[], const size_t lens[],
                            const uint64_t ints[], size_t *done)
{
    fk_scalable *c = (fk_scalable *)f;
    size_t at = 0;
    while (at < n) {
        fk_scalable_link *l = &c->link[c->count - 1];
        if (!c->inner->remove && !c->newest_full) {
            size_t room = n - at;
            if (!c->bounded && l->capacity - l->items < room)
                room = (size_t)(l->capacity - l->items);
            size_t did = 0;
            fk_status s = FK_OK;
            if (room > 0)
                s = keys ? fk_filter_insert_many(l->filter, room, keys + at, lens + at, &did)
                         : fk_filter_insert_many_u64(l->filter, room, ints + at, &did);
            l->items += did;
            count_add(&c->items, did);
            at += did;
            if (!c->bounded && l->items >= l->capacity)
                c->newest_full = true;
            if (s != FK_OK && s != FK_EFULL) {
                if (done)
                    *done = at;
                return s;
            }
            if (s == FK_OK && room > 0)
                continue;
            if (at == n)
                break;
        }
        fk_status s = keys ? fk_scalable_slot_insert(f, keys[at], lens[at])
                           : fk_scalable_slot_insert_u64(f, ints[at]);
        if (s != FK_OK) {
            if (done)
                *done = at;
            return s;
        }
        at++;
    }
    if (done)
        *done = n;
    return FK_OK;
}

fk_status fk_scalable_slot_insert_many(fk_filter *f, size_t n, const void *const keys[],
                                       const size_t lens[], size_t *done)
{
    return insert_run(f, n, keys, lens, NULL, done);
}

fk_status fk_scalable_slot_insert_many_u64(fk_filter *f, size_t n, const uint64_t keys[],
                                           size_t *done)
{
    return insert_run(f, n, NULL, NULL, keys, done);
}

/* ------------------------------------------------------------- remove */

fk_status fk_scalable_slot_remove(fk_filter *f, const void *key, size_t len)
{
    fk_scalable *c = (fk_scalable *)f;
    if (!key && len)
        return FK_EINVAL;
    if (!c->inner->remove)
        return FK_EUNSUPPORTED;
    chain_key k = key_of(c, key, len);
    size_t at = c->count, matches = 0;
    for (size_t i = c->count; i-- > 0;) {
        if (link_has(c, i, &k)) {
            matches++;
            at = at == c->count ? i : at; /* the newest */
        }
    }
    if (matches == 0)
        return FK_ENOTFOUND;
    if (matches > 1)
        return FK_OK; /* ambiguous: the copy stays (scalable.h, "Removes") */
    fk_scalable_link *l = &c->link[at];
    fk_status s = c->inner->remove(l->filter, key, len);
    if (s != FK_OK)
        return s;
    l->items--;
    c->items--;
    return FK_OK;
}

/* -------------------------------------------------------------- count */

fk_status fk_scalable_count(const fk_filter *f, const void *key, size_t len,
                            fk_scalable_count_fn count_link, uint64_t *count)
{
    if (count)
        *count = 0;
    if (!fk_scalable_is(f) || !count || !count_link || (!key && len))
        return FK_EINVAL;
    const fk_scalable *c = (const fk_scalable *)f;
    uint64_t sum = 0;
    for (size_t i = 0; i < c->count; i++) {
        uint64_t here = 0;
        fk_status s = count_link(c->link[i].filter, key, len, &here);
        if (s != FK_OK)
            return s;
        sum += here;
    }
    *count = sum;
    return FK_OK;
}

fk_status fk_scalable_slot_count(const fk_filter *f, const void *key, size_t len,
                                 uint64_t *count)
{
    return fk_scalable_count(f, key, len, fk_filter_count, count);
}


/* ------------------------------------------------------- many writers
 *
 * Concurrent inserts go to the newest link through the inner kind's own
 * concurrent insert (bloom, blocked, counting: atomic ORs and counters;
 * cuckoo: its writers' protocol), after taking a place in the link's
 * budget with one atomic add to its items: the writer whose add finds the
 * link at its capacity gives the place back and opens the next link, once:
 * writers that find the chain growing wait for that writer (c->growing, a
 * spin lock that yields), then retry in the new link. The link array never
 * moves while they run: the first concurrent call (every other one
 * waiting for it) gives it room for FK_SCALABLE_MAX_LINKS links (4 MiB of
 * address space, zeroed pages the system maps only when a link is
 * written), and the count of links is published with a release store
 * after the new link is whole, so a lookup that loads the count (acquire)
 * reads only whole links. A bounded inner kind's FK_EFULL opens
 * the next link the same way. The chain's item count is a per-thread
 * tally (common/tally.h), read with the plain count by stats and saving.
 * Plain lookups read the link array without those loads, so the readers
 * beside concurrent writers use fk_filter_contains_concurrent (newest link
 * first, each through the inner kind's fk_filter_contains_concurrent). */

static uint64_t concurrent_bytes(const fk_scalable *c)
{
    return fk_tally_bytes(&c->c_items);
}

/* Gives the link array room for every link, once, before any concurrent
 * writer or reader reads it: every concurrent call passes here first and
 * waits for the one that does it. */
static fk_status presize(fk_scalable *c)
{
    if (atomic_load_explicit(&c->presized, memory_order_acquire))
        return FK_OK;
    fk_status s = FK_OK;
    fk_spin_lock(&c->growing);
    if (!atomic_load_explicit(&c->presized, memory_order_relaxed)) {
        if (c->room < FK_SCALABLE_MAX_LINKS) {
            fk_scalable_link *all = calloc(FK_SCALABLE_MAX_LINKS, sizeof *all);
            if (all) {
                memcpy(all, c->link, c->count * sizeof *all);
                free(c->link);
                c->link = all;
                c->room = FK_SCALABLE_MAX_LINKS;
            } else {
                s = FK_ENOMEM;
            }
        }
        if (s == FK_OK)
            atomic_store_explicit(&c->presized, 1, memory_order_release);
    }
    fk_spin_unlock(&c->growing);
    return s;
}

static inline size_t links_now(const fk_scalable *c, const fk_scalable_link **links)
{
    size_t n = atomic_load_explicit((_Atomic size_t *)(uintptr_t)&c->count, memory_order_acquire);
    *links = atomic_load_explicit((_Atomic(fk_scalable_link *) *)(uintptr_t)&c->link,
                                  memory_order_acquire);
    return n;
}

static inline uint64_t link_items_add(const fk_scalable_link *l, uint64_t d)
{
    return atomic_fetch_add_explicit((_Atomic uint64_t *)(uintptr_t)&l->items, d,
                                     memory_order_relaxed);
}

/* Opens link n (the chain had n links when the caller found the newest
 * full), unless another writer did first. */
static fk_status grow_concurrent(fk_scalable *c, size_t n)
{
    fk_spin_lock(&c->growing);
    fk_status s = FK_OK;
    if (c->count == n) {
        fk_params next;
        s = next_link_params(c, &next);
        if (s == FK_OK)
            s = add_link_as(c, &next, true);
    }
    fk_spin_unlock(&c->growing);
    return s;
}

fk_status fk_scalable_slot_insert_concurrent(fk_filter *f, const void *key, size_t len)
{
    fk_scalable *c = (fk_scalable *)f;
    if (!FK_OPS_HAS(c->inner, FK_OPS_V4, insert_concurrent))
        return FK_EUNSUPPORTED;
    fk_status ps = presize(c);
    if (ps != FK_OK)
        return ps;
    for (;;) {
        const fk_scalable_link *links;
        size_t n = links_now(c, &links);
        if (c->inner->remove && n > 1) {
            /* as the plain insert: a key present in an older link adds its
             * copy there, where a remove finds it */
            for (size_t i = n - 1; i-- > 0;) {
                if (!fk_filter_contains_concurrent(links[i].filter, key, len))
                    continue;
                fk_status s = fk_filter_insert_concurrent(links[i].filter, key, len);
                if (s == FK_OK) {
                    link_items_add(&links[i], 1);
                    fk_tally_add(&c->c_items, 1);
                    return FK_OK;
                }
                if (s != FK_EFULL)
                    return s;
                break;
            }
        }
        const fk_scalable_link *l = &links[n - 1];
        if (!c->bounded && link_items_add(l, 1) >= l->capacity) {
            link_items_add(l, UINT64_MAX); /* give the place back */
            fk_status s = grow_concurrent(c, n);
            if (s != FK_OK)
                return s;
            continue;
        }
        fk_status s = fk_filter_insert_concurrent(l->filter, key, len);
        if (s == FK_OK) {
            if (c->bounded)
                link_items_add(l, 1);
            fk_tally_add(&c->c_items, 1);
            return FK_OK;
        }
        if (!c->bounded)
            link_items_add(l, UINT64_MAX);
        if (s != FK_EFULL)
            return s;
        if (atomic_load_explicit((_Atomic uint64_t *)(uintptr_t)&l->items,
                                 memory_order_relaxed) < l->capacity / 2) {
            /* the key's own slots are full, not the link (as insert_copy) */
            for (size_t i = n - 1; i-- > 0;) {
                s = fk_filter_insert_concurrent(links[i].filter, key, len);
                if (s == FK_OK) {
                    link_items_add(&links[i], 1);
                    fk_tally_add(&c->c_items, 1);
                }
                if (s != FK_EFULL)
                    return s;
            }
            return FK_EFULL;
        }
        s = grow_concurrent(c, n);
        if (s != FK_OK)
            return s;
    }
}

fk_status fk_scalable_slot_remove_concurrent(fk_filter *f, const void *key, size_t len)
{
    fk_scalable *c = (fk_scalable *)f;
    if (!c->inner->remove)
        return FK_EUNSUPPORTED;
    if (!FK_OPS_HAS(c->inner, FK_OPS_V4, remove_concurrent))
        return FK_EUNSUPPORTED;
    fk_status ps = presize(c);
    if (ps != FK_OK)
        return ps;
    /* as the plain remove (scalable.h, "Removes"): one link's yes
     * removes a copy there, several leave the key as it is */
    const fk_scalable_link *links;
    size_t n = links_now(c, &links), at = n, matches = 0;
    for (size_t i = n; i-- > 0;) {
        if (fk_filter_contains_concurrent(links[i].filter, key, len)) {
            matches++;
            at = at == n ? i : at;
        }
    }
    if (matches == 0)
        return FK_ENOTFOUND;
    if (matches > 1)
        return FK_OK;
    fk_status s = fk_filter_remove_concurrent(links[at].filter, key, len);
    if (s == FK_OK) {
        link_items_add(&links[at], UINT64_MAX);
        fk_tally_add(&c->c_items, UINT64_MAX);
    }
    return s;
}

bool fk_scalable_slot_contains_concurrent(const fk_filter *f, const void *key, size_t len)
{
    fk_scalable *c = (fk_scalable *)(uintptr_t)f; /* presize may write the array, once */
    if (presize(c) != FK_OK)
        return true; /* no room to be had: "maybe", never a false negative */
    const fk_scalable_link *links;
    for (size_t i = links_now(c, &links); i-- > 0;)
        if (fk_filter_contains_concurrent(links[i].filter, key, len))
            return true;
    return false;
}

/* -------------------------------------------------------------- stats */

void fk_scalable_slot_stats(const fk_filter *f, fk_stats *out)
{
    const fk_scalable *c = (const fk_scalable *)f;
    memset(out, 0, sizeof *out);
    double log_none = 0.0, load = 0.0; /* log P(no link answers yes) */
    uint64_t capacity = 0, memory = 0;
    for (size_t i = 0; i < c->count; i++) {
        fk_stats st;
        memset(&st, 0, sizeof st);
        c->inner->stats(c->link[i].filter, &st);
        capacity += c->link[i].capacity;
        memory += st.memory_bytes;
        load += st.load_factor * (double)st.memory_bytes;
        log_none += log1p(-st.expected_fpr);
    }
    out->items = fk_scalable_items(c);
    out->capacity = capacity;
    out->memory_bytes = memory + sizeof *c + c->slots * sizeof *c->link + concurrent_bytes(c);
    out->bits_per_item = 8.0 * (double)out->memory_bytes / (double)capacity;
    out->load_factor = memory ? load / (double)memory : 0.0; /* memory-weighted */
    out->expected_fpr = -expm1(log_none); /* 1 - prod(1 - e_i), exact for tiny e_i */
}

fk_status fk_scalable_size(const fk_ops *inner, const fk_params *p, double items,
                           fk_sizing *out)
{
    uint32_t growth;
    double r;
    if (fk_ops_check(inner) != FK_OK || fk_scalable_knobs_check(p, &growth, &r) != FK_OK)
        return FK_EINVAL;
    fk_scalable model; /* growth, tightening, target, count and spent are read */
    memset(&model, 0, sizeof model);
    model.growth = growth;
    model.tightening = r;
    model.target = p->fpr;
    fk_params q = first_params(p, r);
    fk_sizing first;
    fk_status s = fk_ops_size(inner, &q, &first);
    if (s != FK_OK)
        return s;
    /* The chain's theory: links filled in order, each to its capacity. */
    double left = items, log_none = 0.0;
    for (unsigned i = 0; i < FK_SCALABLE_MAX_LINKS && left > 0.0; i++) {
        double here = left < (double)q.capacity ? left : (double)q.capacity, e;
        if (fk_ops_expected_fpr(inner, &q, here, &e) != FK_OK)
            break;
        log_none += log1p(-e);
        left -= here;
        model.spent += fk_scalable_link_spend(inner, &q);
        model.count = i + 1;
        if (left > 0.0 && fk_scalable_next_params(&model, &q, &q) != FK_OK)
            break;
    }
    out->memory_bytes = first.memory_bytes + sizeof model +
                        fk_scalable_slots(1) * sizeof(fk_scalable_link);
    out->expected_fpr = items > 0.0 ? -expm1(log_none) : 0.0;
    snprintf(out->geometry, sizeof out->geometry, "s %u, r %.2g; %.60s", growth, r,
             first.geometry);
    return FK_OK;
}

/* ------------------------------------------------- the generic tables */

static fk_status fk_scalable_slot_create(const fk_params *p, fk_filter **out)
{
    (void)p;
    if (out)
        *out = NULL;
    return FK_EINVAL; /* made by fk_scalable_new, which knows the inner kind */
}

/* The slots both generic tables share; the second adds remove. */
#define GENERIC_SLOTS                                                                    \
    .version = FK_OPS_VERSION, .name = "scalable",                                       \
    .summary = "growing chain of filters of one kind (fk_scalable_new); cannot be saved", \
    .caps = FK_CAP_GROWS, .create = fk_scalable_slot_create,                             \
    .destroy = fk_scalable_slot_destroy, .insert = fk_scalable_slot_insert,              \
    .contains = fk_scalable_slot_contains, .stats = fk_scalable_slot_stats,              \
    FK_SCALABLE_BATCH_SLOTS, FK_SCALABLE_CONCURRENT_SLOTS

static const fk_ops generic_ops = { GENERIC_SLOTS };
static const fk_ops generic_remove_ops = { GENERIC_SLOTS, .remove = fk_scalable_slot_remove,
                                           .remove_concurrent =
                                               fk_scalable_slot_remove_concurrent };

fk_status fk_scalable_new(const fk_ops *inner, const fk_params *p, fk_filter **out)
{
    const fk_ops *outer = fk_ops_caps(inner) & FK_CAP_REMOVE ? &generic_remove_ops : &generic_ops;
    return fk_scalable_new_as(outer, inner, p, out);
}

/* ------------------------------------------------------- inspection */

size_t fk_scalable_links(const fk_filter *f)
{
    return fk_scalable_is(f) ? ((const fk_scalable *)f)->count : 0;
}

fk_status fk_scalable_link_stats(const fk_filter *f, size_t i, fk_stats *out, double *target)
{
    if (out)
        memset(out, 0, sizeof *out);
    if (target)
        *target = 0.0;
    if (!out || i >= fk_scalable_links(f))
        return FK_EINVAL;
    const fk_scalable *c = (const fk_scalable *)f;
    c->inner->stats(c->link[i].filter, out);
    if (target)
        *target = c->link[i].fpr;
    return FK_OK;
}

const fk_ops *fk_scalable_inner(const fk_filter *f)
{
    return fk_scalable_is(f) ? ((const fk_scalable *)f)->inner : NULL;
}

fk_status fk_scalable_slot_set_max_bytes(fk_filter *f, uint64_t max_bytes)
{
    if (!fk_scalable_is(f))
        return FK_EINVAL;
    fk_params p;
    memset(&p, 0, sizeof p);
    p.max_bytes = max_bytes;
    ((fk_scalable *)f)->max_bytes = fk_params_max_bytes(&p);
    return FK_OK;
}

uint64_t fk_scalable_memory_bytes(const fk_filter *f)
{
    if (!fk_scalable_is(f))
        return 0;
    const fk_scalable *c = (const fk_scalable *)f;
    return c->link_memory + fk_scalable_overhead(c->count);
}

uint64_t fk_scalable_max_bytes(const fk_filter *f)
{
    return fk_scalable_is(f) ? ((const fk_scalable *)f)->max_bytes : 0;
}

fk_status fk_scalable_knobs(const fk_filter *f, uint32_t *growth, double *tightening)
{
    if (!fk_scalable_is(f))
        return FK_EINVAL;
    const fk_scalable *c = (const fk_scalable *)f;
    if (growth)
        *growth = c->growth;
    if (tightening)
        *tightening = c->tightening;
    return FK_OK;
}

/* The random reads one link's lookup makes: its describe row
 * lookup_reads, 1 where the inner kind has none. */
static uint64_t link_lookup_reads(const fk_scalable *c)
{
    fk_describe_row rows[64];
    size_t n = 0;
    if (c->count == 0 || fk_filter_describe(c->link[0].filter, rows, 64, &n) != FK_OK)
        return 1;
    const fk_describe_row *r = fk_describe_find(rows, n, "lookup_reads");
    return r && r->type == FK_DESCRIBE_U64 ? r->value.u64 : 1;
}

/* The describe slot (fk_filter_describe): the chain's knobs and size, then
 * six rows per link, oldest first (link, link_capacity, link_items,
 * link_memory_bytes, link_target_fpr, link_expected_fpr), then
 * lookup_reads (the links' together). `at` is ignored:
 * the kind has no clock. Cost: O(links), each link's stats (a scan of the
 * link for kinds whose stats scan). */
fk_status fk_scalable_slot_describe(const fk_filter *f, const uint64_t *at, fk_describe_row *rows,
                                    size_t cap, size_t *n)
{
    (void)at;
    if (!fk_scalable_is(f))
        return FK_EINVAL;
    const fk_scalable *c = (const fk_scalable *)f;
    fk_describe_string(rows, cap, n, "inner_kind", c->inner->name);
    fk_describe_u64(rows, cap, n, "growth", c->growth);
    fk_describe_double(rows, cap, n, "tightening", c->tightening);
    fk_describe_u64(rows, cap, n, "links", c->count);
    fk_describe_u64(rows, cap, n, "memory_bytes", fk_scalable_memory_bytes(f));
    fk_describe_u64(rows, cap, n, "max_bytes", c->max_bytes);
    for (size_t i = 0; i < c->count; i++) {
        fk_stats ls;
        memset(&ls, 0, sizeof ls);
        if (*n < cap) /* the count alone needs no link's stats */
            c->inner->stats(c->link[i].filter, &ls);
        fk_describe_u64(rows, cap, n, "link", i);
        fk_describe_u64(rows, cap, n, "link_capacity", ls.capacity);
        fk_describe_u64(rows, cap, n, "link_items", ls.items);
        fk_describe_u64(rows, cap, n, "link_memory_bytes", ls.memory_bytes);
        fk_describe_double(rows, cap, n, "link_target_fpr", c->link[i].fpr);
        fk_describe_double(rows, cap, n, "link_expected_fpr", ls.expected_fpr);
    }
    /* after 0.4.0's rows: a lookup asks every link, so it makes each
     * link's reads (the inner kind's lookup_reads row) once per link */
    fk_describe_u64(rows, cap, n, "lookup_reads", c->count * link_lookup_reads(c));
    return FK_OK;
}
