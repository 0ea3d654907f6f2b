/* tests/test_batch.c: the batch calls (fk_filter_*_many) answer and build
 * exactly what the single-key calls do, for every registered kind (through
 * the registry, never by name), for the test-only kind of
 * tests/fpset/ and for copies of the kinds' tables cut back to the
 * version-2 layout (no batch slots: the loops of common/batch.c serve
 * them). Keys: mixed lengths 0..64 bytes, batches of random sizes 0..1000.
 * Then the *done contract (FK_EFULL, a NULL key in the middle), the NULL
 * and n == 0 rules, the direct per-kind forms, and the blocked kind's two
 * code paths. */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "keys.h"
#include "../common/serial.h"
#include "../common/cache.h"
#include "../registry/registry.h"
#include "../bloom/bloom.h"
#include "../blocked/blocked.h"
#include "../blocked/blocked_internal.h" /* fk_blocked_set_path: both code paths */
#include "../counting/counting.h"
#include "../counting/counting_internal.h" /* fk_counting_stats */
#include "../cuckoo/cuckoo.h"
#include "fpset/fpset.h"
#include "../common/endian.h"
#include "describe.h"

#define KEY_MAX 64
#define BATCH_MAX 1000

/* Keys inserted and looked up; as many again are looked up only. */
static size_t n_keys(void) { return FK_TEST_SCALE(1000000, 60000); }

/* ------------------------------------------------------------ the keys */

/* A set of byte-string keys: key i is bytes + i * KEY_MAX, lens[i] long. */
typedef struct {
    size_t n;
    uint8_t *bytes;
    const void **ptr;
    size_t *lens;
} keyset;

/* Key i of a set made from `salt`: a length in 0..64 and bytes that
 * start with i itself, so keys of 3 bytes and more are distinct; 1- and
 * 2-byte keys repeat (some kinds count duplicates, so those are kept). */
static keyset keyset_make(size_t n, uint64_t salt)
{
    keyset k = { n, malloc(n * KEY_MAX), malloc(n * sizeof(void *)), malloc(n * sizeof(size_t)) };
    if (!k.bytes || !k.ptr || !k.lens) {
        CHECK(!"out of memory");
        k.n = 0;
        return k;
    }
    uint64_t rng = salt;
    for (size_t i = 0; i < n; i++) {
        uint8_t *p = k.bytes + i * KEY_MAX;
        size_t len = (size_t)(check_rng(&rng) % (KEY_MAX + 1));
        uint64_t fill[KEY_MAX / 8];
        fill[0] = (uint64_t)i ^ salt << 40;
        for (size_t w = 1; w < KEY_MAX / 8; w++)
            fill[w] = check_rng(&rng);
        memcpy(p, fill, KEY_MAX);
        k.ptr[i] = p;
        k.lens[i] = len;
    }
    return k;
}

static void keyset_free(keyset *k)
{
    free(k->bytes);
    free(k->ptr);
    free(k->lens);
}

/* A cuckoo filter stores a key at most 8 times: keep 0..2-byte keys rare
 * in what is inserted (their first copies only). */
static keyset insert_set(size_t n)
{
    keyset k = keyset_make(n, 1);
    for (size_t i = 256; i < k.n; i++)
        if (k.lens[i] < 3)
            k.lens[i] += 3;
    return k;
}

/* ------------------------------------------------------------ the kinds */

static const fk_ops *kind;            /* the kind under test, for messages */
static fk_ops v2_copy;                 /* kind cut back to FK_OPS_V2 */

static fk_filter *make(const fk_ops *ops, uint64_t capacity, uint64_t seed)
{
    fk_params p = fk_params_make(capacity, 0.01);
    p.seed = seed;
    fk_filter *f = NULL;
    fk_status s = fk_filter_new(ops, &p, &f);
    CHECK_MSG(s == FK_OK && f, "%s: create: %s", ops->name, fk_strerror(s));
    if (f)
        f->ops = ops; /* a copied table's filters dispatch through the copy */
    return f;
}

/* True when a and b hold the same state: their saved bytes when the kind
 * can save, else their stats' item count and their answers to `probe`. */
static bool same_filter(const fk_filter *a, const fk_filter *b, const keyset *probe)
{
    if (fk_ops_caps(a->ops) & FK_CAP_SERIALIZE) {
        uint64_t na = 0, nb = 0;
        if (fk_filter_serialized_size(a, &na) != FK_OK ||
            fk_filter_serialized_size(b, &nb) != FK_OK || na != nb)
            return false;
        uint8_t *ba = malloc((size_t)na), *bb = malloc((size_t)nb);
        size_t wa = 0, wb = 0;
        bool same = ba && bb && fk_filter_save(a, ba, (size_t)na, &wa) == FK_OK &&
                    fk_filter_save(b, bb, (size_t)nb, &wb) == FK_OK && wa == wb &&
                    memcmp(ba, bb, wa) == 0;
        free(ba);
        free(bb);
        return same;
    }
    fk_stats sa, sb;
    fk_filter_stats(a, &sa);
    fk_filter_stats(b, &sb);
    if (sa.items != sb.items)
        return false;
    for (size_t i = 0; i < probe->n; i++)
        if (fk_filter_contains(a, probe->ptr[i], probe->lens[i]) !=
            fk_filter_contains(b, probe->ptr[i], probe->lens[i]))
            return false;
    return true;
}

/* Next batch size, 0..BATCH_MAX. */
static size_t batch_size(uint64_t *rng) { return (size_t)(check_rng(rng) % (BATCH_MAX + 1)); }

/* ----------------------------------------------- equivalence, one kind */

/* Single inserts until the first status other than FK_OK; returns how
 * many went in and stores that status. */
static size_t insert_single(fk_filter *f, const keyset *k, fk_status *last)
{
    *last = FK_OK;
    for (size_t i = 0; i < k->n; i++) {
        fk_status s = fk_filter_insert(f, k->ptr[i], k->lens[i]);
        if (s != FK_OK) {
            *last = s;
            return i;
        }
    }
    return k->n;
}

/* insert_many in random batches, stopping as insert_single does. */
static size_t insert_batched(fk_filter *f, const keyset *k, uint64_t *rng, fk_status *last)
{
    *last = FK_OK;
    for (size_t at = 0; at < k->n;) {
        size_t m = batch_size(rng);
        if (m > k->n - at)
            m = k->n - at;
        size_t done = SIZE_MAX;
        fk_status s = fk_filter_insert_many(f, m, k->ptr + at, k->lens + at, &done);
        if (s != FK_OK) {
            CHECK_MSG(done < m, "%s: done %zu of %zu after %s", kind->name, done, m,
                      fk_strerror(s));
            *last = s;
            return at + done;
        }
        CHECK_MSG(done == m, "%s: done %zu of %zu", kind->name, done, m);
        at += m;
    }
    return k->n;
}

/* contains_many over `probe` in random batches equals contains key by key. */
static void check_lookups(const fk_filter *f, const keyset *probe, uint64_t *rng)
{
    bool *out = malloc(BATCH_MAX + 1);
    size_t wrong = 0, hits = 0;
    for (size_t at = 0; out && at < probe->n;) {
        size_t m = batch_size(rng);
        if (m > probe->n - at)
            m = probe->n - at;
        memset(out, 0xA5, m + 1); /* out[m] is a guard: must stay untouched */
        fk_filter_contains_many(f, m, probe->ptr + at, probe->lens + at, out);
        CHECK_MSG(((const uint8_t *)out)[m] == 0xA5, "%s: wrote past n", kind->name);
        for (size_t j = 0; j < m; j++) {
            bool one = fk_filter_contains(f, probe->ptr[at + j], probe->lens[at + j]);
            wrong += out[j] != one;
            hits += one;
        }
        at += m;
    }
    free(out);
    CHECK_MSG(wrong == 0, "%s: %zu batched answers differ from single ones", kind->name, wrong);
    CHECK_MSG(hits > 0 && hits < probe->n, "%s: %zu hits of %zu: not a mix", kind->name, hits,
              probe->n);
}

/* n keys into filters sized for `capacity` (above n: a table large enough
 * that the pipelines prefetch, common/pipeline.h). */
static void bytes_equivalence_sized(const fk_ops *ops, size_t n, uint64_t capacity)
{
    keyset ins = insert_set(n), probe = keyset_make(2 * n, 2);
    /* probe: the inserted keys, then as many absent ones */
    for (size_t i = 0; i < n && probe.n; i++) {
        probe.ptr[i] = ins.ptr[i];
        probe.lens[i] = ins.lens[i];
    }
    fk_filter *a = make(ops, capacity, 7), *b = make(ops, capacity, 7);
    uint64_t rng = 99;
    if (a && b && ins.n && probe.n) {
        fk_status sa, sb;
        size_t da = insert_single(a, &ins, &sa), db = insert_batched(b, &ins, &rng, &sb);
        CHECK_MSG(da == db && sa == sb, "%s: single stopped at %zu (%s), batched at %zu (%s)",
                  ops->name, da, fk_strerror(sa), db, fk_strerror(sb));
        CHECK_MSG(da > n / 2, "%s: only %zu of %zu inserted", ops->name, da, n);
        CHECK_MSG(da == n || capacity == n, "%s: %zu of %zu into a roomy filter", ops->name, da, n);
        CHECK_MSG(same_filter(a, b, &probe), "%s: batched inserts built another filter",
                  ops->name);
        check_lookups(b, &probe, &rng);
        /* no false negatives through the batch either */
        bool *out = malloc(da ? da : 1);
        size_t missed = 0;
        if (out) {
            fk_filter_contains_many(b, da, ins.ptr, ins.lens, out);
            for (size_t i = 0; i < da; i++)
                missed += !out[i];
        }
        free(out);
        CHECK_MSG(missed == 0, "%s: %zu false negatives", ops->name, missed);
    }
    fk_filter_free(a);
    fk_filter_free(b);
    keyset_free(&ins);
    keyset_free(&probe);
}

static void bytes_equivalence(const fk_ops *ops)
{
    bytes_equivalence_sized(ops, n_keys(), n_keys());
}

/* 8M items of room: every built-in kind's table is over 8 MiB, past any
 * L2 the prefetch thresholds read (common/cache.h). At small scale 2M: the
 * tables are over 2 MiB, past this machine's L2 still, and a quarter of the
 * time (prefetch_thresholds_change_no_answer forces the pipelines on any
 * machine). */
#define ROOMY_CAPACITY ((uint64_t)FK_TEST_SCALE(8, 2) << 20)

static void bytes_equivalence_roomy(const fk_ops *ops)
{
    bytes_equivalence_sized(ops, FK_TEST_SCALE(200000, 20000), ROOMY_CAPACITY);
}

static void u64_equivalence_sized(const fk_ops *ops, size_t n, uint64_t capacity)
{
    uint64_t *keys = malloc(2 * n * sizeof *keys);
    bool *out = malloc(2 * n);
    fk_filter *a = make(ops, capacity, 11), *b = make(ops, capacity, 11);
    if (keys && out && a && b) {
        for (size_t i = 0; i < n; i++) {
            keys[i] = keys_positive(i);
            keys[n + i] = keys_negative(i);
        }
        uint64_t rng = 5;
        size_t da = 0, db = 0;
        for (; da < n; da++) {
            uint8_t le[8];
            fk_le_put64(le, keys[da]);
            if (fk_filter_insert(a, le, 8) != FK_OK)
                break;
        }
        while (db < n) {
            size_t m = batch_size(&rng), done = 0;
            if (m > n - db)
                m = n - db;
            fk_status s = fk_filter_insert_many_u64(b, m, keys + db, &done);
            db += done;
            if (s != FK_OK)
                break;
        }
        CHECK_MSG(da == db && da == n, "%s: u64 single %zu, batched %zu of %zu", ops->name, da,
                  db, n);
        keyset none = { 0, NULL, NULL, NULL };
        if (fk_ops_caps(ops) & FK_CAP_SERIALIZE)
            CHECK_MSG(same_filter(a, b, &none), "%s: u64 batches built another filter",
                      ops->name);
        size_t wrong = 0, hits = 0;
        for (size_t at = 0; at < 2 * n;) {
            size_t m = batch_size(&rng);
            if (m > 2 * n - at)
                m = 2 * n - at;
            fk_filter_contains_many_u64(b, m, keys + at, out + at);
            at += m;
        }
        for (size_t i = 0; i < 2 * n; i++) {
            uint8_t le[8];
            fk_le_put64(le, keys[i]);
            bool one = fk_filter_contains(a, le, 8);
            wrong += out[i] != one;
            hits += one;
            if (i < n)
                wrong += !out[i]; /* inserted: never a false negative */
        }
        CHECK_MSG(wrong == 0, "%s: %zu u64 answers differ", ops->name, wrong);
        CHECK_MSG(hits >= n && hits < 2 * n, "%s: %zu hits", ops->name, hits);
    }
    free(keys);
    free(out);
    fk_filter_free(a);
    fk_filter_free(b);
}

static void u64_equivalence(const fk_ops *ops)
{
    u64_equivalence_sized(ops, n_keys(), n_keys());
}

static void u64_equivalence_roomy(const fk_ops *ops)
{
    u64_equivalence_sized(ops, FK_TEST_SCALE(200000, 20000), ROOMY_CAPACITY);
}

/* Removes every other inserted key and some absent ones, single and
 * batched (a batch stops at FK_ENOTFOUND; the caller skips that key and
 * goes on, as a loop of single removes does). */
static void remove_equivalence(const fk_ops *ops)
{
    size_t n = n_keys() / 4;
    keyset ins = insert_set(n), gone = keyset_make(n, 3);
    fk_filter *a = make(ops, n, 13), *b = make(ops, n, 13);
    if (a && b && ins.n && gone.n) {
        fk_status s;
        CHECK(insert_single(a, &ins, &s) == n);
        CHECK(insert_single(b, &ins, &s) == n);
        /* the removal list: even inserted keys, and every 16th an absent one */
        for (size_t i = 0; i < n; i++)
            if (i % 16 != 15) {
                gone.ptr[i] = ins.ptr[(2 * i) % n];
                gone.lens[i] = ins.lens[(2 * i) % n];
            }
        size_t single_ok = 0, batch_ok = 0, stops = 0;
        for (size_t i = 0; i < n; i++)
            single_ok += fk_filter_remove(a, gone.ptr[i], gone.lens[i]) == FK_OK;
        uint64_t rng = 17;
        for (size_t at = 0; at < n;) {
            size_t m = batch_size(&rng), done = SIZE_MAX;
            if (m > n - at)
                m = n - at;
            s = fk_filter_remove_many(b, m, gone.ptr + at, gone.lens + at, &done);
            batch_ok += done;
            if (s == FK_OK) {
                CHECK(done == m);
                at += m;
            } else {
                CHECK_MSG(s == FK_ENOTFOUND && done < m, "%s: remove_many: %s, %zu of %zu",
                          ops->name, fk_strerror(s), done, m);
                stops++;
                at += done + 1;
            }
        }
        CHECK_MSG(single_ok == batch_ok, "%s: removed %zu single, %zu batched", ops->name,
                  single_ok, batch_ok);
        CHECK_MSG(stops > 0, "%s: no batch met an absent key", ops->name);
        CHECK_MSG(same_filter(a, b, &ins), "%s: batched removes left another filter", ops->name);
    }
    fk_filter_free(a);
    fk_filter_free(b);
    keyset_free(&ins);
    keyset_free(&gone);
}

/* Every kind, its version-2 copy (the loops) and the same checks. */
static void for_each_kind(void (*check)(const fk_ops *), bool removers_only)
{
    const fk_ops *ops;
    for (size_t i = 0; (ops = fk_ops_at(i)) != NULL; i++) {
        if (!check_kind_selected(ops->name))
            continue;
        if (removers_only && !(fk_ops_caps(ops) & FK_CAP_REMOVE))
            continue;
        if (fk_ops_caps(ops) & FK_CAP_STATIC)
            continue; /* built, never filled: static_kinds_batches */
        kind = ops;
        check(ops);
        v2_copy = *ops;
        v2_copy.version = FK_OPS_V2;
        v2_copy.name = "(version-2 copy)";
        kind = &v2_copy;
        check(&v2_copy);
    }
}

TEST(contains_and_insert_many_equal_single_calls_every_kind)
{
    for_each_kind(bytes_equivalence, false);
}

TEST(u64_forms_equal_8_byte_little_endian_single_calls)
{
    for_each_kind(u64_equivalence, false);
}

/* The same on tables large enough that the pipelines prefetch (and the
 * Bloom kinds' lookups run in stages). */
TEST(large_tables_take_the_prefetching_pipelines_with_the_same_answers)
{
    for_each_kind(bytes_equivalence_roomy, false);
    for_each_kind(u64_equivalence_roomy, false);
}

/* The prefetch thresholds come from the machine's L2 (common/cache.h);
 * whatever it reports, the answers are the same: with an L2 of 64 bytes
 * every table is prefetched (and the Bloom kinds' lookups staged), with
 * one of 2^40 bytes none is. Either choice holds at any size, so 200k keys
 * do (the full-scale 1M took 37 of CI's seconds for no other path). */
static size_t threshold_keys(void) { return FK_TEST_SCALE(200000, 60000); }

static void bytes_equivalence_any_l2(const fk_ops *ops)
{
    bytes_equivalence_sized(ops, threshold_keys(), threshold_keys());
}

static void u64_equivalence_any_l2(const fk_ops *ops)
{
    u64_equivalence_sized(ops, threshold_keys(), threshold_keys());
}

TEST(prefetch_thresholds_change_no_answer)
{
    static const uint64_t l2s[] = { 64, UINT64_C(1) << 40 };
    for (size_t i = 0; i < sizeof l2s / sizeof l2s[0]; i++) {
        fk_cache_override_l2(l2s[i]);
        CHECK_EQ_U64(fk_cache_l2_bytes(), l2s[i]);
        for_each_kind(bytes_equivalence_any_l2, false);
        for_each_kind(u64_equivalence_any_l2, false);
    }
    fk_cache_override_l2(0);
}

TEST(remove_many_equals_single_removes_every_deletable_kind)
{
    for_each_kind(remove_equivalence, true);
}

/* ------------------------------------------------------- *done contract */

/* A bounded kind filled past its room: insert_many stops at the first
 * FK_EFULL with *done the index of the key that did not fit, and the
 * filter is exactly the one single inserts leave when they stop there. */
TEST(insert_many_stops_at_efull_with_nothing_lost)
{
    const fk_ops *ops;
    size_t bounded = 0;
    for (size_t i = 0; (ops = fk_ops_at(i)) != NULL; i++) {
        if (!check_kind_selected(ops->name))
            continue;
        if (!(fk_ops_caps(ops) & FK_CAP_BOUNDED))
            continue;
        bounded++;
        kind = ops;
        keyset k = insert_set(20000);
        fk_filter *a = make(ops, 1000, 3), *b = make(ops, 1000, 3);
        if (a && b && k.n) {
            fk_status sa;
            size_t da = insert_single(a, &k, &sa), done = SIZE_MAX;
            fk_status sb = fk_filter_insert_many(b, k.n, k.ptr, k.lens, &done);
            CHECK_STATUS(sb, FK_EFULL);
            CHECK_STATUS(sa, FK_EFULL);
            CHECK_MSG(done == da, "%s: done %zu, single inserts stopped at %zu", ops->name,
                      done, da);
            CHECK(same_filter(a, b, &k));
            bool *out = malloc(done ? done : 1);
            size_t missed = 0;
            if (out) {
                fk_filter_contains_many(b, done, k.ptr, k.lens, out);
                for (size_t j = 0; j < done; j++)
                    missed += !out[j];
            }
            free(out);
            CHECK_MSG(missed == 0, "%s: %zu keys before *done lost", ops->name, missed);
            /* the u64 form stops alike */
            uint64_t *ints = malloc(20000 * sizeof *ints);
            fk_filter *c = make(ops, 1000, 3), *d = make(ops, 1000, 3);
            if (ints && c && d) {
                size_t dc = 0, dd = SIZE_MAX;
                for (size_t j = 0; j < 20000; j++)
                    ints[j] = keys_positive(j);
                for (; dc < 20000; dc++) {
                    uint8_t le[8];
                    fk_le_put64(le, ints[dc]);
                    if (fk_filter_insert(c, le, 8) != FK_OK)
                        break;
                }
                CHECK_STATUS(fk_filter_insert_many_u64(d, 20000, ints, &dd), FK_EFULL);
                CHECK_EQ_U64(dd, dc);
                CHECK(same_filter(c, d, &k));
            }
            free(ints);
            fk_filter_free(c);
            fk_filter_free(d);
        }
        fk_filter_free(a);
        fk_filter_free(b);
        keyset_free(&k);
    }
    CHECK_MSG(bounded > 0 || check_kind_filtered(), "no bounded kind registered");
}

/* A NULL key with len > 0 in the middle: the writers stop there with
 * FK_EINVAL and *done = its index, having inserted exactly the keys
 * before it; contains_many answers false for it alone. */
TEST(null_key_in_the_middle)
{
    const fk_ops *ops;
    for (size_t i = 0; (ops = fk_ops_at(i)) != NULL; i++) {
        if (!check_kind_selected(ops->name))
            continue;
        if (fk_ops_caps(ops) & FK_CAP_STATIC)
            continue; /* static_kinds_batches */
        kind = ops;
        keyset k = insert_set(100);
        fk_filter *a = make(ops, 1000, 5), *b = make(ops, 1000, 5);
        if (a && b && k.n) {
            keyset first = k;
            first.n = 40;
            fk_status s;
            CHECK(insert_single(a, &first, &s) == 40);
            k.ptr[40] = NULL;
            size_t done = SIZE_MAX;
            CHECK_STATUS(fk_filter_insert_many(b, k.n, k.ptr, k.lens, &done), FK_EINVAL);
            CHECK_EQ_U64(done, 40);
            CHECK(same_filter(a, b, &k));
            bool out[100];
            fk_filter_contains_many(b, k.n, k.ptr, k.lens, out);
            CHECK(!out[40]);
            for (size_t j = 0; j < 40; j++)
                CHECK(out[j]);
            for (size_t j = 41; j < k.n; j++)
                CHECK(out[j] == fk_filter_contains(b, k.ptr[j], k.lens[j]));
            if (fk_ops_caps(ops) & FK_CAP_REMOVE) {
                done = SIZE_MAX;
                CHECK_STATUS(fk_filter_remove_many(b, k.n, k.ptr, k.lens, &done), FK_EINVAL);
                CHECK_EQ_U64(done, 40);
                fk_stats st;
                fk_filter_stats(b, &st);
                CHECK_EQ_U64(st.items, 0);
            } else {
                CHECK_STATUS(fk_filter_remove_many(b, 3, k.ptr, k.lens, &done),
                             FK_EUNSUPPORTED);
                CHECK_EQ_U64(done, 0);
            }
        }
        fk_filter_free(a);
        fk_filter_free(b);
        keyset_free(&k);
    }
}

/* A static kind (built from the whole set): its batched lookups answer as
 * its single ones, byte and u64 keys, on a table in cache and on one over
 * 8 MiB (the prefetching pipeline), with a NULL key in the middle; its
 * batched writers answer FK_EUNSUPPORTED and do nothing. */
static void static_batches_sized(const fk_ops *ops, size_t n, uint32_t fp_bits)
{
    kind = ops;
    keyset ins = insert_set(n), probe = keyset_make(2 * n, 2);
    for (size_t i = 0; i < n && probe.n; i++) {
        probe.ptr[i] = ins.ptr[i];
        probe.lens[i] = ins.lens[i];
    }
    fk_params p = fk_params_make(n, 0.01);
    p.fingerprint_bits = fp_bits;
    p.seed = 7;
    fk_filter *f = NULL;
    uint64_t *keys = malloc(2 * n * sizeof *keys);
    bool *out = malloc(2 * n);
    if (ins.n && probe.n && keys && out)
        CHECK_STATUS(fk_filter_build(ops, &p, ins.n, ins.ptr, ins.lens, &f), FK_OK);
    if (f) {
        uint64_t rng = 3;
        check_lookups(f, &probe, &rng);
        fk_filter_contains_many(f, ins.n, ins.ptr, ins.lens, out);
        size_t missed = 0;
        for (size_t i = 0; i < ins.n; i++)
            missed += !out[i];
        CHECK_MSG(missed == 0, "%s: %zu false negatives", ops->name, missed);
        for (size_t i = 0; i < n; i++) {
            keys[i] = keys_positive(i);
            keys[n + i] = keys_negative(i);
        }
        fk_filter *g = NULL;
        CHECK_STATUS(fk_filter_build_u64(ops, &p, n, keys, &g), FK_OK);
        for (size_t at = 0; g && at < 2 * n;) {
            size_t m = batch_size(&rng);
            if (m > 2 * n - at)
                m = 2 * n - at;
            fk_filter_contains_many_u64(g, m, keys + at, out + at);
            at += m;
        }
        size_t wrong = 0;
        for (size_t i = 0; g && i < 2 * n; i++)
            wrong += out[i] != fk_filter_contains_u64(g, keys[i]) || (i < n && !out[i]);
        CHECK_MSG(wrong == 0, "%s: %zu u64 answers differ", ops->name, wrong);
        fk_filter_free(g);
        /* a NULL key in the middle answers false, the others as ever */
        const void *saved = probe.ptr[40 < probe.n ? 40 : 0];
        size_t len40 = probe.lens[40];
        probe.ptr[40] = NULL;
        probe.lens[40] = 3;
        fk_filter_contains_many(f, 100, probe.ptr, probe.lens, out);
        CHECK(!out[40]);
        for (size_t j = 0; j < 100; j++)
            if (j != 40)
                CHECK(out[j] == fk_filter_contains(f, probe.ptr[j], probe.lens[j]));
        probe.ptr[40] = saved;
        probe.lens[40] = len40;
        /* the writers */
        fk_stats before;
        fk_filter_stats(f, &before);
        size_t done = SIZE_MAX;
        CHECK_STATUS(fk_filter_insert_many(f, 3, ins.ptr, ins.lens, &done), FK_EUNSUPPORTED);
        CHECK_EQ_U64(done, 0);
        done = SIZE_MAX;
        CHECK_STATUS(fk_filter_insert_many_u64(f, 3, keys, &done), FK_EUNSUPPORTED);
        CHECK_EQ_U64(done, 0);
        CHECK_STATUS(fk_filter_remove_many(f, 3, ins.ptr, ins.lens, &done), FK_EUNSUPPORTED);
        fk_stats st;
        fk_filter_stats(f, &st);
        CHECK(memcmp(&st, &before, sizeof st) == 0 && st.items > 0 && st.items <= ins.n);
        /* NULL rules */
        out[0] = out[1] = true;
        fk_filter_contains_many(NULL, 2, ins.ptr, ins.lens, out);
        CHECK(!out[0] && !out[1]);
        out[0] = true;
        fk_filter_contains_many_u64(f, 1, NULL, out);
        CHECK(!out[0]);
    }
    fk_filter_free(f);
    free(keys);
    free(out);
    keyset_free(&ins);
    keyset_free(&probe);
}

TEST(static_kinds_batches)
{
    const fk_ops *ops;
    size_t statics = 0;
    for (size_t i = 0; (ops = fk_ops_at(i)) != NULL; i++) {
        if (!check_kind_selected(ops->name))
            continue;
        if (!(fk_ops_caps(ops) & FK_CAP_STATIC))
            continue;
        statics++;
        static_batches_sized(ops, n_keys(), 0);
        /* 32-bit cells: over 8 MiB, the prefetching path */
        static_batches_sized(ops, FK_TEST_SCALE(2200000, 20000), 32);
    }
    CHECK(statics >= 1 || check_kind_filtered()); /* fuse */
}

/* NULL arguments and n == 0, through the dispatchers. */
TEST(null_and_zero_rules)
{
    const fk_ops *ops;
    for (size_t i = 0; (ops = fk_ops_at(i)) != NULL; i++) {
        if (!check_kind_selected(ops->name))
            continue;
        if (fk_ops_caps(ops) & FK_CAP_STATIC)
            continue; /* static_kinds_batches */
        kind = ops;
        fk_filter *f = make(ops, 1000, 1);
        if (!f)
            continue;
        const void *keys[3] = { "a", "", "abc" };
        size_t lens[3] = { 1, 0, 3 };
        uint64_t ints[3] = { 1, 2, 3 };
        bool out[3] = { true, true, true };
        size_t done = SIZE_MAX;
        fk_stats st;

        CHECK_STATUS(fk_filter_insert_many(f, 3, keys, lens, &done), FK_OK);
        CHECK_EQ_U64(done, 3);
        fk_filter_contains_many(NULL, 3, keys, lens, out);
        CHECK(!out[0] && !out[1] && !out[2]);
        memset(out, 1, sizeof out);
        fk_filter_contains_many(f, 3, NULL, lens, out);
        CHECK(!out[0] && !out[1] && !out[2]);
        memset(out, 1, sizeof out);
        fk_filter_contains_many(f, 3, keys, NULL, out);
        CHECK(!out[0] && !out[1] && !out[2]);
        fk_filter_contains_many(f, 3, keys, lens, NULL); /* no-op, no crash */
        fk_filter_contains_many(f, 0, NULL, NULL, NULL);
        memset(out, 1, sizeof out);
        fk_filter_contains_many_u64(f, 3, NULL, out);
        CHECK(!out[0] && !out[1] && !out[2]);
        fk_filter_contains_many_u64(NULL, 0, NULL, NULL);

        done = SIZE_MAX;
        CHECK_STATUS(fk_filter_insert_many(NULL, 3, keys, lens, &done), FK_EINVAL);
        CHECK_EQ_U64(done, 0);
        done = SIZE_MAX;
        CHECK_STATUS(fk_filter_insert_many(f, 3, NULL, lens, &done), FK_EINVAL);
        CHECK_EQ_U64(done, 0);
        CHECK_STATUS(fk_filter_insert_many(f, 3, keys, NULL, NULL), FK_EINVAL);
        done = SIZE_MAX;
        CHECK_STATUS(fk_filter_insert_many(f, 0, NULL, NULL, &done), FK_OK);
        CHECK_EQ_U64(done, 0);
        done = SIZE_MAX;
        CHECK_STATUS(fk_filter_insert_many_u64(f, 3, NULL, &done), FK_EINVAL);
        CHECK_EQ_U64(done, 0);
        CHECK_STATUS(fk_filter_insert_many_u64(NULL, 3, ints, NULL), FK_EINVAL);
        done = SIZE_MAX;
        CHECK_STATUS(fk_filter_insert_many_u64(f, 0, NULL, &done), FK_OK);
        CHECK_EQ_U64(done, 0);
        CHECK_STATUS(fk_filter_remove_many(NULL, 1, keys, lens, NULL), FK_EINVAL);
        CHECK_STATUS(fk_filter_remove_many(f, 2, NULL, lens, NULL), FK_EINVAL);
        fk_filter_stats(f, &st);
        CHECK_EQ_U64(st.items, 3); /* none of the refused calls wrote */
        fk_filter_free(f);
    }
}

/* ------------------------------------------------------- batch slots of each kind */

/* Each kind's batch slots, through fk_filter_*_many on the kind's own
 * filter, on a small set: the same answers as its direct single-key calls,
 * the NULL rules, and *done at a NULL key. */
#define DIRECT_FORMS(T, prefix, new_filter)                                                                    \
    do {                                                                                                       \
        keyset k = insert_set(3000);                                                                           \
        fk_params p = fk_params_make(2000, 0.01);                                                              \
        T *a = NULL, *b = NULL;                                                                                \
        CHECK_STATUS(new_filter(&p, &a), FK_OK);                                                               \
        CHECK_STATUS(new_filter(&p, &b), FK_OK);                                                               \
        if (a && b && k.n) {                                                                                   \
            bool out[3000];                                                                                    \
            size_t done = SIZE_MAX;                                                                            \
            for (size_t i = 0; i < 1000; i++)                                                                  \
                CHECK_STATUS(prefix##_insert(a, k.ptr[i], k.lens[i]), FK_OK);                                  \
            CHECK_STATUS(fk_filter_insert_many(prefix##_as_filter(b), 1000, k.ptr, k.lens, &done), FK_OK);     \
            CHECK_EQ_U64(done, 1000);                                                                          \
            fk_filter_contains_many(prefix##_as_filter(b), k.n, k.ptr, k.lens, out);                           \
            size_t wrong = 0;                                                                                  \
            for (size_t i = 0; i < k.n; i++)                                                                   \
                wrong += out[i] != prefix##_contains(a, k.ptr[i], k.lens[i]);                                  \
            CHECK_EQ_U64(wrong, 0);                                                                            \
            uint64_t ints[500];                                                                                \
            for (size_t i = 0; i < 500; i++)                                                                   \
                ints[i] = keys_positive(i);                                                                    \
            CHECK_STATUS(fk_filter_insert_many_u64(prefix##_as_filter(b), 500, ints, &done), FK_OK);           \
            CHECK_EQ_U64(done, 500);                                                                           \
            fk_filter_contains_many_u64(prefix##_as_filter(b), 500, ints, out);                                \
            for (size_t i = 0; i < 500; i++) {                                                                 \
                uint8_t le[8];                                                                                 \
                fk_le_put64(le, ints[i]);                                                                      \
                wrong += !out[i] || !prefix##_contains(b, le, 8);                                              \
            }                                                                                                  \
            CHECK_EQ_U64(wrong, 0);                                                                            \
            /* NULL rules */                                                                                   \
            memset(out, 1, 3);                                                                                 \
            fk_filter_contains_many(NULL, 3, k.ptr, k.lens, out);                                              \
            CHECK(!out[0] && !out[1] && !out[2]);                                                              \
            memset(out, 1, 3);                                                                                 \
            fk_filter_contains_many_u64(prefix##_as_filter(b), 3, NULL, out);                                  \
            CHECK(!out[0] && !out[1] && !out[2]);                                                              \
            CHECK_STATUS(fk_filter_insert_many(NULL, 3, k.ptr, k.lens, &done), FK_EINVAL);                     \
            CHECK_EQ_U64(done, 0);                                                                             \
            CHECK_STATUS(fk_filter_insert_many_u64(prefix##_as_filter(b), 3, NULL, &done), FK_EINVAL);         \
            CHECK_STATUS(fk_filter_insert_many(prefix##_as_filter(b), 0, NULL, NULL, &done), FK_OK);           \
            CHECK_EQ_U64(done, 0);                                                                             \
            /* a NULL key at 1000 + 7 */                                                                       \
            k.ptr[1007] = NULL;                                                                                \
            CHECK_STATUS(fk_filter_insert_many(prefix##_as_filter(b), 20, k.ptr + 1000, k.lens + 1000, &done), \
                         FK_EINVAL);                                                                           \
            CHECK_EQ_U64(done, 7);                                                                             \
            fk_filter_contains_many(prefix##_as_filter(b), 20, k.ptr + 1000, k.lens + 1000, out);              \
            CHECK(!out[7] && out[0] && out[6]);                                                                \
        }                                                                                                      \
        prefix##_free(a);                                                                                      \
        prefix##_free(b);                                                                                      \
        keyset_free(&k);                                                                                       \
    } while (0)

TEST(direct_forms_bloom) { DIRECT_FORMS(fk_bloom, fk_bloom, fk_bloom_new); }
TEST(direct_forms_blocked) { DIRECT_FORMS(fk_blocked, fk_blocked, fk_blocked_new); }
TEST(direct_forms_counting) { DIRECT_FORMS(fk_counting, fk_counting, fk_counting_new); }
TEST(direct_forms_cuckoo) { DIRECT_FORMS(fk_cuckoo, fk_cuckoo, fk_cuckoo_new); }

/* Half-full tables over 8 MiB with k = 8: lookups run in stages (first
 * group, then the other probes a window later), and about 1/16 of absent
 * keys pass the first group, so a stage that skipped or repeated a probe
 * would change answers here. */
static size_t dense_keys(void) { return FK_TEST_SCALE(1000000, 50000); }

static size_t compare_u64_lookups(const char *what, bool (*one)(const void *, const void *, size_t),
                                  void (*many)(const void *, size_t, const uint64_t *, bool *),
                                  const void *f)
{
    size_t n = dense_keys(), wrong = 0, hits = 0;
    uint64_t *keys = malloc(n * sizeof *keys);
    bool *out = malloc(n);
    if (keys && out) {
        for (size_t i = 0; i < n; i++)
            keys[i] = keys_negative(i);
        many(f, n, keys, out);
        for (size_t i = 0; i < n; i++) {
            uint8_t le[8];
            fk_le_put64(le, keys[i]);
            bool single = one(f, le, 8);
            wrong += out[i] != single;
            hits += single;
        }
    }
    CHECK_MSG(wrong == 0, "%s: %zu staged answers differ", what, wrong);
    free(keys);
    free(out);
    return hits;
}

static bool bloom_one(const void *f, const void *k, size_t len) { return fk_bloom_contains(f, k, len); }
static void bloom_many(const void *f, size_t n, const uint64_t *k, bool *o)
{
    fk_filter_contains_many_u64((const fk_filter *)f, n, k, o);
}
static bool counting_one(const void *f, const void *k, size_t len)
{
    return fk_counting_contains(f, k, len);
}
static void counting_many(const void *f, size_t n, const uint64_t *k, bool *o)
{
    fk_filter_contains_many_u64((const fk_filter *)f, n, k, o);
}

TEST(dense_large_tables_stage_their_lookups_exactly)
{
    /* bloom: 2^26 bits (8 MiB), every other bit set at random */
    const uint64_t m = UINT64_C(1) << 26;
    uint64_t *words = malloc(m / 8), rng = 77;
    fk_bloom *b = NULL;
    if (words) {
        for (uint64_t w = 0; w < m / 64; w++)
            words[w] = check_rng(&rng);
        CHECK_STATUS(fk_bloom_from_bits(m, 8, 3, 1000000, 0.01, 0, words, &b), FK_OK);
    }
    free(words);
    if (b) {
        size_t hits = compare_u64_lookups("bloom", bloom_one, bloom_many, b);
        CHECK_MSG(hits > dense_keys() / 1000, "bloom: %zu of %zu absent keys passed: not dense",
                  hits, dense_keys());
    }
    fk_bloom_free(b);

    /* counting: 2^24 4-bit counters (8 MiB), k = 8, filled to about half */
    fk_params p = fk_params_make(1500000, 0.01);
    p.bits = UINT64_C(1) << 24;
    p.hashes = 8;
    fk_counting *c = NULL;
    CHECK_STATUS(fk_counting_new(&p, &c), FK_OK);
    size_t fill = FK_TEST_SCALE(1450000, 150000);
    uint64_t *ins = malloc(fill * sizeof *ins);
    if (c && ins) {
        for (size_t i = 0; i < fill; i++)
            ins[i] = keys_positive(i);
        CHECK_STATUS(fk_filter_insert_many_u64(fk_counting_as_filter(c), fill, ins, NULL), FK_OK);
        size_t hits = compare_u64_lookups("counting", counting_one, counting_many, c);
        CHECK_MSG(hits > dense_keys() / 1000 || check_small_scale(),
                  "counting: %zu of %zu absent keys passed: not dense", hits, dense_keys());
    }
    free(ins);
    fk_counting_free(c);
}

/* The direct removes: as single removes, stopping at the first absent key. */
TEST(direct_remove_many)
{
    keyset k = insert_set(2000);
    fk_params p = fk_params_make(2000, 0.01);
    fk_counting *c = NULL;
    fk_cuckoo *q = NULL;
    size_t done = SIZE_MAX;
    CHECK_STATUS(fk_counting_new(&p, &c), FK_OK);
    CHECK_STATUS(fk_cuckoo_new(&p, &q), FK_OK);
    if (c && q && k.n) {
        CHECK_STATUS(fk_filter_insert_many(fk_counting_as_filter(c), 1000, k.ptr, k.lens, NULL), FK_OK);
        CHECK_STATUS(fk_filter_insert_many(fk_cuckoo_as_filter(q), 1000, k.ptr, k.lens, NULL), FK_OK);
        CHECK_STATUS(fk_filter_remove_many(fk_counting_as_filter(c), 600, k.ptr, k.lens, &done), FK_OK);
        CHECK_EQ_U64(done, 600);
        CHECK_STATUS(fk_filter_remove_many(fk_cuckoo_as_filter(q), 600, k.ptr, k.lens, &done), FK_OK);
        CHECK_EQ_U64(done, 600);
        CHECK_EQ_U64(cuckoo_desc(q).items, 400);
        /* 0..599 are gone: removing 590.. stops at once for the cuckoo */
        CHECK_STATUS(fk_filter_remove_many(fk_cuckoo_as_filter(q), 20, k.ptr + 590, k.lens + 590, &done),
                     FK_ENOTFOUND);
        CHECK_EQ_U64(done, 0);
        CHECK_STATUS(fk_filter_remove_many(NULL, 1, k.ptr, k.lens, &done), FK_EINVAL);
        CHECK_STATUS(fk_filter_remove_many(fk_cuckoo_as_filter(q), 1, NULL, k.lens, &done), FK_EINVAL);
        fk_stats st;
        fk_counting_stats(c, &st);
        CHECK_EQ_U64(st.items, 400);
    }
    fk_counting_free(c);
    fk_cuckoo_free(q);
    keyset_free(&k);
}

/* The blocked kind's batches take the filter's own code path, and both
 * paths set and test the same bits, batched or not. */
TEST(blocked_batches_on_both_paths)
{
    size_t n = FK_TEST_SCALE(100000, 20000);
    keyset k = keyset_make(2 * n, 9);
    fk_params p = fk_params_make(n, 0.01);
    fk_blocked *single = NULL, *batched[2] = { NULL, NULL };
    CHECK_STATUS(fk_blocked_new(&p, &single), FK_OK);
    CHECK_STATUS(fk_blocked_new(&p, &batched[0]), FK_OK);
    CHECK_STATUS(fk_blocked_new(&p, &batched[1]), FK_OK);
    bool *out = malloc(2 * n);
    if (single && batched[0] && batched[1] && out && k.n) {
        CHECK_STATUS(fk_blocked_set_path(single, FK_BLOCKED_PATH_SCALAR), FK_OK);
        CHECK_STATUS(fk_blocked_set_path(batched[0], FK_BLOCKED_PATH_SCALAR), FK_OK);
        bool avx2 = fk_blocked_set_path(batched[1], FK_BLOCKED_PATH_AVX2) == FK_OK;
        if (!avx2)
            fprintf(stderr, "note: no AVX2 here; the batches ran the scalar path twice\n");
        for (size_t i = 0; i < n; i++)
            fk_blocked_insert(single, k.ptr[i], k.lens[i]);
        for (int b = 0; b < 2; b++) {
            CHECK_STATUS(fk_filter_insert_many(fk_blocked_as_filter(batched[b]), n, k.ptr, k.lens, NULL), FK_OK);
            size_t diff = 0;
            for (uint64_t blk = 0; blk < blocked_desc(single).blocks; blk++)
                for (unsigned w = 0; w < FK_BLOCKED_WORDS; w++)
                    diff += fk_blocked_cell(single, blk, w) !=
                            fk_blocked_cell(batched[b], blk, w);
            CHECK_MSG(diff == 0, "path %d: %zu words differ", b, diff);
            fk_filter_contains_many(fk_blocked_as_filter(batched[b]), 2 * n, k.ptr, k.lens, out);
            size_t wrong = 0;
            for (size_t i = 0; i < 2 * n; i++)
                wrong += out[i] != fk_blocked_contains(single, k.ptr[i], k.lens[i]);
            CHECK_MSG(wrong == 0, "path %d: %zu answers differ", b, wrong);
        }
    }
    free(out);
    fk_blocked_free(single);
    fk_blocked_free(batched[0]);
    fk_blocked_free(batched[1]);
    keyset_free(&k);
}

/* FK_TEST_KIND=name (make check-<kind>): only that kind's cases
 * (check_kind_selected, check.h); the direct-API cases by the kinds they use. */
int main(void)
{
    if (fk_ops_register(&fk_test_fpset_ops) != FK_OK) {
        fprintf(stderr, "cannot register the fpset kind\n");
        return 1;
    }
    RUN(contains_and_insert_many_equal_single_calls_every_kind);
    RUN(u64_forms_equal_8_byte_little_endian_single_calls);
    RUN(large_tables_take_the_prefetching_pipelines_with_the_same_answers);
    RUN(prefetch_thresholds_change_no_answer);
    RUN(remove_many_equals_single_removes_every_deletable_kind);
    RUN(insert_many_stops_at_efull_with_nothing_lost);
    RUN(null_key_in_the_middle);
    RUN(null_and_zero_rules);
    RUN(static_kinds_batches);
    if (check_kind_selected("bloom"))
        RUN(direct_forms_bloom);
    if (check_kind_selected("blocked"))
        RUN(direct_forms_blocked);
    if (check_kind_selected("counting"))
        RUN(direct_forms_counting);
    if (check_kind_selected("cuckoo"))
        RUN(direct_forms_cuckoo);
    if (check_kind_selected("counting") || check_kind_selected("cuckoo"))
        RUN(direct_remove_many);
    if (check_kind_selected("bloom") || check_kind_selected("counting"))
        RUN(dense_large_tables_stage_their_lookups_exactly);
    if (check_kind_selected("blocked"))
        RUN(blocked_batches_on_both_paths);
    return check_report();
}
