/* tests/test_contract.c: the same checks over every registered kind,
 * through the vtable only, never by name. A new kind in the registry is
 * covered automatically; two more are registered here: the test-only kind
 * of tests/fpset/, and a table of the version-1 fk_ops layout, which
 * must keep working as later slots are appended. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "keys.h"
#include "../common/serial.h"
#include "../registry/registry.h"
#include "fpset/fpset.h"
#include "../common/endian.h"

static const fk_ops *kind; /* the kind under test, for messages */

static fk_filter *make(uint64_t n, double fpr, uint64_t seed)
{
    fk_params p = fk_params_make(n, fpr);
    p.seed = seed;
    fk_filter *f = NULL;
    fk_status s = fk_filter_new(kind, &p, &f);
    CHECK_MSG(s == FK_OK && f, "%s: create n=%llu fpr=%g: %s", kind->name,
              (unsigned long long)n, fpr, fk_strerror(s));
    return f;
}

/* A static kind (FK_CAP_STATIC) is built from the whole set: the checks
 * below take that path for it, and assert that its writers answer
 * FK_EUNSUPPORTED. */
static bool is_static(void)
{
    return (fk_ops_caps(kind) & FK_CAP_STATIC) != 0;
}

/* A static kind's filter of keys_positive(0..n). */
static fk_filter *build_positive(uint64_t n, double fpr, uint64_t seed)
{
    uint64_t *keys = malloc((n ? n : 1) * sizeof *keys);
    for (uint64_t i = 0; keys && i < n; i++)
        keys[i] = keys_positive(i);
    fk_params p = fk_params_make(n ? n : 1, fpr);
    p.seed = seed;
    fk_filter *f = NULL;
    fk_status s = keys ? fk_filter_build_u64(kind, &p, (size_t)n, keys, &f) : FK_ENOMEM;
    CHECK_MSG(s == FK_OK && f, "%s: build n=%llu fpr=%g: %s", kind->name,
              (unsigned long long)n, fpr, fk_strerror(s));
    free(keys);
    return f;
}

static void insert_u64(fk_filter *f, uint64_t from, uint64_t to)
{
    for (uint64_t i = from; i < to; i++) {
        uint64_t k = keys_positive(i);
        fk_status s = fk_filter_insert(f, &k, sizeof k);
        if (s != FK_OK) {
            CHECK_MSG(0, "%s: insert %llu: %s", kind->name, (unsigned long long)i, fk_strerror(s));
            return;
        }
    }
}

/* ------------------------------------------------------------ the checks */

TEST(bad_params_rejected_with_null_out)
{
    fk_params ok = fk_params_make(1000, 0.01);
    fk_params bad[9];
    for (int i = 0; i < 9; i++)
        bad[i] = ok;
    bad[0].capacity = 0;
    bad[1].fpr = 0.0;
    bad[2].fpr = 1.0;
    bad[3].fpr = -0.5;
    bad[4].fpr = 2.0;
    bad[5].fpr = NAN;
    bad[6].fpr = INFINITY;
    bad[7].capacity = UINT64_MAX;   /* size overflow */
    bad[8].capacity = UINT64_C(1) << 42; /* past the memory cap */
    for (int i = 0; i < 9; i++) {
        fk_filter *f = (fk_filter *)&ok; /* must be reset to NULL */
        fk_status s = fk_filter_new(kind, &bad[i], &f);
        if (is_static()) { /* never made empty; a build refuses a bad fpr */
            CHECK_STATUS(s, FK_EUNSUPPORTED);
            uint64_t k = 1;
            s = i >= 1 && i <= 6 ? fk_filter_build_u64(kind, &bad[i], 1, &k, &f) : FK_EINVAL;
        }
        CHECK_MSG(s == FK_EINVAL, "%s: bad params #%d gave %s", kind->name, i, fk_status_name(s));
        CHECK_MSG(f == NULL, "%s: bad params #%d left *out set", kind->name, i);
        fk_sizing sz;
        s = fk_ops_size(kind, &bad[i], &sz);
        CHECK_MSG(s == FK_EINVAL || (s == FK_EUNSUPPORTED && !FK_OPS_HAS(kind, FK_OPS_V2, size)),
                  "%s: bad params #%d sized: %s", kind->name, i, fk_status_name(s));
        double fpr = 1.0;
        s = fk_ops_expected_fpr(kind, &bad[i], 10.0, &fpr);
        CHECK_MSG(s != FK_OK && fpr == 0.0, "%s: bad params #%d have a theory", kind->name, i);
    }
    fk_filter *f = (fk_filter *)&ok;
    CHECK_STATUS(fk_filter_new(kind, NULL, &f), is_static() ? FK_EUNSUPPORTED : FK_EINVAL);
    CHECK(f == NULL);
    CHECK_STATUS(fk_filter_new(kind, &ok, NULL), FK_EINVAL);
    CHECK_STATUS(fk_filter_new(NULL, &ok, &f), FK_EINVAL);
    CHECK(f == NULL);
}

TEST(null_filter_and_null_key_are_named_errors)
{
    fk_filter *f = is_static() ? build_positive(100, 0.01, 0) : make(100, 0.01, 0);
    if (!f)
        return;
    CHECK_STATUS(fk_filter_insert(f, NULL, 4), is_static() ? FK_EUNSUPPORTED : FK_EINVAL);
    CHECK(!fk_filter_contains(f, NULL, 4));
    CHECK(fk_filter_remove(f, NULL, 4) != FK_OK);
    CHECK_STATUS(fk_filter_insert(NULL, "k", 1), FK_EINVAL);
    CHECK(!fk_filter_contains(NULL, "k", 1));
    CHECK_STATUS(fk_filter_remove(NULL, "k", 1), FK_EINVAL);
    fk_stats st;
    memset(&st, 0xff, sizeof st);
    fk_filter_stats(NULL, &st);
    CHECK_EQ_U64(st.items, 0);
    fk_filter_stats(f, NULL);
    CHECK(fk_filter_ops(f) == kind);
    CHECK(fk_filter_ops(NULL) == NULL);
    fk_filter_free(NULL);
    fk_filter_free(f);
}

TEST(zero_length_key_is_a_key)
{
    if (is_static()) {
        fk_params p = fk_params_make(1, 0.01);
        const void *empty[1] = { NULL };
        size_t zero[1] = { 0 };
        fk_filter *e = NULL, *g = NULL;
        CHECK_STATUS(fk_filter_build(kind, &p, 0, NULL, NULL, &e), FK_OK);
        CHECK_STATUS(fk_filter_build(kind, &p, 1, empty, zero, &g), FK_OK);
        CHECK(e && !fk_filter_contains(e, NULL, 0));
        CHECK(g && fk_filter_contains(g, NULL, 0) && fk_filter_contains(g, "", 0));
        fk_filter_free(e);
        fk_filter_free(g);
        return;
    }
    fk_filter *f = make(100, 0.01, 0);
    if (!f)
        return;
    CHECK(!fk_filter_contains(f, NULL, 0));
    CHECK_STATUS(fk_filter_insert(f, NULL, 0), FK_OK);
    CHECK(fk_filter_contains(f, NULL, 0));
    CHECK(fk_filter_contains(f, "", 0));
    fk_filter_free(f);
}

TEST(no_false_negatives_on_real_world_strings)
{
    const uint64_t n = 300000;
    char key[KEYS_MAX_LEN];
    fk_filter *f = NULL;
    if (is_static()) { /* built from the strings */
        char (*text)[KEYS_MAX_LEN] = malloc(n * sizeof *text);
        const void **ptrs = malloc(n * sizeof *ptrs);
        size_t *lens = malloc(n * sizeof *lens);
        for (uint64_t i = 0; text && ptrs && lens && i < n; i++) {
            lens[i] = keys_realistic(i, text[i]);
            ptrs[i] = text[i];
        }
        fk_params p = fk_params_make(n, 0.01);
        p.seed = 7;
        if (text && ptrs && lens)
            CHECK_STATUS(fk_filter_build(kind, &p, n, ptrs, lens, &f), FK_OK);
        free(text);
        free(ptrs);
        free(lens);
    } else {
        f = make(n, 0.01, 7);
    }
    if (!f)
        return;
    for (uint64_t i = 0; !is_static() && i < n; i++) {
        size_t len = keys_realistic(i, key);
        fk_status s = fk_filter_insert(f, key, len);
        if (s != FK_OK) {
            CHECK_MSG(0, "%s: insert of '%s' failed: %s", kind->name, key, fk_strerror(s));
            break;
        }
    }
    uint64_t missing = 0;
    for (uint64_t i = 0; i < n; i++) {
        size_t len = keys_realistic(i, key);
        missing += !fk_filter_contains(f, key, len);
    }
    CHECK_MSG(missing == 0, "%s: %llu false negatives", kind->name, (unsigned long long)missing);
    fk_stats st;
    fk_filter_stats(f, &st);
    CHECK_EQ_U64(st.items, n);
    CHECK_EQ_U64(st.capacity, n);
    CHECK(st.memory_bytes > 0);
    CHECK(fabs(st.bits_per_item - 8.0 * (double)st.memory_bytes / (double)n) < 1e-9);
    CHECK(st.load_factor > 0.0 && st.load_factor <= 1.0);
    CHECK(st.expected_fpr > 0.0 && st.expected_fpr < 0.05);
    fk_filter_free(f);
}

/* Filled to capacity, the measured FPR stays under 1.5x the target. */
static void check_fpr_at(double fpr, uint64_t n, uint64_t negatives)
{
    fk_filter *f = is_static() ? build_positive(n, fpr, 3) : make(n, fpr, 3);
    if (!f)
        return;
    if (!is_static())
        insert_u64(f, 0, n);
    uint64_t fp = 0;
    for (uint64_t i = 0; i < negatives; i++) {
        uint64_t k = keys_negative(i);
        fp += fk_filter_contains(f, &k, sizeof k);
    }
    double measured = (double)fp / (double)negatives;
    CHECK_MSG(measured <= 1.5 * fpr, "%s: target %g, measured %.5g", kind->name, fpr, measured);
    /* The kind's theory (fk_ops_expected_fpr) predicts it: within 25% plus
     * six standard deviations of the binomial count. */
    fk_params p = fk_params_make(n, fpr);
    p.seed = 3;
    double theory = -1.0;
    fk_status s = fk_ops_expected_fpr(kind, &p, (double)n, &theory);
    if (s == FK_OK) {
        double slack = 0.25 * theory + 6.0 * sqrt(theory / (double)negatives);
        CHECK_MSG(fabs(measured - theory) <= slack, "%s: theory %.5g, measured %.5g", kind->name,
                  theory, measured);
        CHECK_STATUS(fk_ops_expected_fpr(kind, &p, 0.0, &theory), FK_OK);
        CHECK_MSG(theory == 0.0, "%s: an empty filter has false positives in theory", kind->name);
    } else {
        CHECK_STATUS(s, FK_EUNSUPPORTED);
    }
    CHECK_MSG(fp > 0, "%s: no false positive at all in %llu negatives: is contains() real?",
              kind->name, (unsigned long long)negatives);
    fk_filter_free(f);
}

TEST(fpr_at_most_1_5x_target_at_1_percent) { check_fpr_at(0.01, 100000, 1000000); }
TEST(fpr_at_most_1_5x_target_at_0_1_percent) { check_fpr_at(0.001, 100000, 2000000); }

/* The kind's own sizing (fk_ops_size) is what fk_filter_new builds: the
 * same memory to the byte, for tiny, middling and large filters. */
TEST(sizing_is_what_create_builds)
{
    const uint64_t ns[] = { 1, 1000, 1000000 };
    const double fprs[] = { 0.1, 0.01, 0.001 };
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) {
            fk_params p = fk_params_make(ns[i], fprs[j]);
            fk_sizing sz;
            fk_status s = fk_ops_size(kind, &p, &sz);
            if (s == FK_EUNSUPPORTED) { /* only a table without the slot may say so */
                CHECK(!FK_OPS_HAS(kind, FK_OPS_V2, size));
                CHECK_EQ_U64(sz.memory_bytes, 0);
                return;
            }
            CHECK_STATUS(s, FK_OK);
            CHECK_MSG(sz.geometry[0] != 0, "%s: no geometry", kind->name);
            /* a static kind: what a build of that many keys holds */
            fk_filter *f = is_static() ? build_positive(ns[i], fprs[j], 0) : make(ns[i], fprs[j], 0);
            if (!f)
                continue;
            fk_stats st;
            fk_filter_stats(f, &st);
            CHECK_MSG(st.memory_bytes == sz.memory_bytes, "%s n=%llu fpr=%g: sized %llu, built %llu",
                      kind->name, (unsigned long long)ns[i], fprs[j],
                      (unsigned long long)sz.memory_bytes, (unsigned long long)st.memory_bytes);
            fk_filter_free(f);
        }
    }
}

/* Returns a bitmap of which of `probes` negative keys f reports present. */
static uint8_t *answers(fk_filter *f, uint64_t probes)
{
    uint8_t *a = calloc(probes, 1);
    for (uint64_t i = 0; a && i < probes; i++) {
        uint64_t k = keys_negative(i);
        a[i] = fk_filter_contains(f, &k, sizeof k);
    }
    return a;
}

TEST(same_seed_same_answers_other_seed_other_false_positives)
{
    const uint64_t n = 20000, probes = 200000;
    fk_filter *a, *b, *c;
    if (is_static()) {
        a = build_positive(n, 0.01, 42);
        b = build_positive(n, 0.01, 42);
        c = build_positive(n, 0.01, 43);
    } else {
        a = make(n, 0.01, 42);
        b = make(n, 0.01, 42);
        c = make(n, 0.01, 43);
    }
    if (!a || !b || !c)
        goto out;
    if (!is_static()) {
        insert_u64(a, 0, n);
        insert_u64(b, 0, n);
        insert_u64(c, 0, n);
    }
    uint8_t *ra = answers(a, probes), *rb = answers(b, probes), *rc = answers(c, probes);
    if (ra && rb && rc) {
        CHECK_MSG(memcmp(ra, rb, probes) == 0, "%s: same seed, different answers", kind->name);
        uint64_t fa = 0, both = 0;
        for (uint64_t i = 0; i < probes; i++) {
            fa += ra[i];
            both += ra[i] && rc[i];
        }
        CHECK_MSG(fa > 0 && both < fa / 4 + 1, "%s: seeds 42/43 share %llu of %llu false positives",
                  kind->name, (unsigned long long)both, (unsigned long long)fa);
    }
    free(ra); free(rb); free(rc);
out:
    fk_filter_free(a); fk_filter_free(b); fk_filter_free(c);
}

/* The same for keys that are not 8 bytes long, which take the general
 * hash (fk_hash_key) rather than the 8-byte path: the seed must reach it
 * too (a hash that ignored its seed passed the u64 test above). */
static void byte_key(uint64_t i, char out[13])
{
    snprintf(out, 13, "k%011llu", (unsigned long long)(i % 100000000000ull));
}

TEST(other_seed_other_false_positives_for_keys_not_8_bytes)
{
    if (is_static())
        return; /* built from u64 keys (build_positive); the hash is shared */
    const uint64_t n = 20000, probes = 100000;
    fk_filter *a = make(n, 0.01, 42), *c = make(n, 0.01, 43);
    char key[13];
    uint64_t fa = 0, both = 0;
    if (!a || !c)
        goto out;
    for (uint64_t i = 0; i < n; i++) {
        byte_key(i, key);
        CHECK_STATUS(fk_filter_insert(a, key, 12), FK_OK);
        CHECK_STATUS(fk_filter_insert(c, key, 12), FK_OK);
    }
    for (uint64_t i = 0; i < probes; i++) {
        byte_key(1000000 + i, key);
        bool x = fk_filter_contains(a, key, 12), y = fk_filter_contains(c, key, 12);
        fa += x;
        both += x && y;
    }
    CHECK_MSG(fa > 0 && both < fa / 4 + 1, "%s: 12-byte keys: seeds 42/43 share %llu of %llu false positives",
              kind->name, (unsigned long long)both, (unsigned long long)fa);
out:
    fk_filter_free(a);
    fk_filter_free(c);
}

TEST(remove_works_or_is_unsupported)
{
    const uint64_t n = 50000;
    fk_filter *f = is_static() ? build_positive(n, 0.001, 5) : make(n, 0.001, 5);
    if (!f)
        return;
    if (!is_static())
        insert_u64(f, 0, n);
    uint64_t k0 = keys_positive(0);
    if (!(fk_ops_caps(kind) & FK_CAP_REMOVE)) {
        CHECK(kind->remove == NULL);
        CHECK_STATUS(fk_filter_remove(f, &k0, sizeof k0), FK_EUNSUPPORTED);
        CHECK(fk_filter_contains(f, &k0, sizeof k0));
        fk_filter_free(f);
        return;
    }
    /* remove every other key: the rest are all still there */
    for (uint64_t i = 0; i < n; i += 2) {
        uint64_t k = keys_positive(i);
        fk_status s = fk_filter_remove(f, &k, sizeof k);
        if (s != FK_OK) {
            CHECK_MSG(0, "%s: remove of inserted key %llu: %s", kind->name,
                      (unsigned long long)i, fk_strerror(s));
            break;
        }
    }
    uint64_t missing = 0, still = 0;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t k = keys_positive(i);
        bool in = fk_filter_contains(f, &k, sizeof k);
        if (i & 1)
            missing += !in;
        else
            still += in;
    }
    CHECK_MSG(missing == 0, "%s: %llu false negatives after removes", kind->name,
              (unsigned long long)missing);
    CHECK_MSG(still < n / 2 / 50, "%s: %llu removed keys still reported", kind->name,
              (unsigned long long)still);
    fk_stats st;
    fk_filter_stats(f, &st);
    CHECK_EQ_U64(st.items, n / 2);

    /* a definitely-absent key: FK_ENOTFOUND and nothing changes */
    for (uint64_t i = 0;; i++) {
        uint64_t k = keys_negative(i);
        if (fk_filter_contains(f, &k, sizeof k))
            continue;
        CHECK_STATUS(fk_filter_remove(f, &k, sizeof k), FK_ENOTFOUND);
        break;
    }
    fk_stats after;
    fk_filter_stats(f, &after);
    CHECK(memcmp(&st, &after, sizeof st) == 0);
    fk_filter_free(f);
}

/* Without FK_CAP_BOUNDED a kind promises that inserts never run out of
 * room; with it, filling far past capacity must end in FK_EFULL, never in
 * silently lost items. */
TEST(bounded_kinds_say_full_and_others_never_do)
{
    const uint64_t n = 1000;
    if (is_static()) { /* holds what it was built from and takes nothing more */
        fk_filter *g = build_positive(n, 0.01, 9);
        uint64_t k = keys_negative(0);
        CHECK_STATUS(fk_filter_insert(g, &k, sizeof k), FK_EUNSUPPORTED);
        CHECK(!(fk_ops_caps(kind) & FK_CAP_BOUNDED));
        fk_filter_free(g);
        return;
    }
    fk_filter *f = make(n, 0.01, 9);
    if (!f)
        return;
    uint64_t ok = 0, full = 0, i;
    for (i = 0; i < 4 * n && !full; i++) {
        uint64_t k = keys_positive(i);
        fk_status s = fk_filter_insert(f, &k, sizeof k);
        ok += s == FK_OK;
        full += s == FK_EFULL;
    }
    if (fk_ops_caps(kind) & FK_CAP_BOUNDED) {
        CHECK_MSG(full == 1, "%s: bounded, yet 4x capacity fit", kind->name);
        uint64_t missing = 0;
        for (uint64_t j = 0; j < i - 1; j++) {
            uint64_t k = keys_positive(j);
            missing += !fk_filter_contains(f, &k, sizeof k);
        }
        CHECK_MSG(missing == 0, "%s: %llu items lost on the way to FK_EFULL", kind->name,
                  (unsigned long long)missing);
    } else {
        CHECK_MSG(full == 0 && ok == 4 * n, "%s: not bounded, yet an insert failed", kind->name);
    }
    fk_filter_free(f);
}

/* A filter made for capacity n holds n distinct keys: every insert of
 * them succeeds (never FK_EFULL) and each is found afterwards, at every
 * capacity 1..200 and a geometric sweep (x1.25) to 10^4, over 3 seeds and two
 * targets. Small tables are where a kind's sizing is most likely to be cut
 * too fine (issue 40: a cuckoo filter for 10 was full after 8). A static
 * kind is built from the n keys instead. */
TEST(every_capacity_up_to_10k_holds_its_capacity)
{
    static const double fprs[] = { 0.01, 0.001 };
    uint64_t *keys = malloc(10000 * sizeof *keys);
    if (!keys) {
        CHECK(0);
        return;
    }
    uint64_t failed = 0;
    for (uint64_t n = 1; n <= 10000 && failed < 5; n = n < 200 ? n + 1 : n + n / 4) {
        for (uint64_t seed = 0; seed < 3; seed++)
            for (size_t j = 0; j < sizeof fprs / sizeof fprs[0]; j++) {
                for (uint64_t i = 0; i < n; i++) /* a fresh set of keys per seed */
                    keys[i] = keys_positive(seed * 20000 + i);
                fk_params p = fk_params_make(n, fprs[j]);
                p.seed = seed * 7919 + n;
                fk_filter *f = NULL;
                fk_status s;
                uint64_t held = 0;
                if (is_static()) {
                    s = fk_filter_build_u64(kind, &p, (size_t)n, keys, &f);
                    held = s == FK_OK ? n : 0;
                } else {
                    s = fk_filter_new(kind, &p, &f);
                    for (; s == FK_OK && held < n; held += s == FK_OK)
                        s = fk_filter_insert(f, &keys[held], sizeof keys[held]);
                }
                uint64_t missing = 0;
                for (uint64_t i = 0; f && i < held; i++)
                    missing += !fk_filter_contains(f, &keys[i], sizeof keys[i]);
                if (s != FK_OK || missing) {
                    failed++;
                    CHECK_MSG(0, "%s capacity %llu fpr %g seed %llu: %s after %llu keys, %llu lost",
                              kind->name, (unsigned long long)n, fprs[j],
                              (unsigned long long)p.seed, fk_status_name(s),
                              (unsigned long long)held, (unsigned long long)missing);
                }
                fk_filter_free(f);
            }
    }
    free(keys);
}

TEST(vtable_is_complete)
{
    CHECK_STATUS(fk_ops_check(kind), FK_OK);
    CHECK(kind->version >= FK_OPS_V1 && kind->summary);
    CHECK(fk_ops_find(kind->name) == kind);
    /* derived flags are the slots' business, never stored */
    CHECK_MSG((kind->caps & FK_CAP_DERIVED) == 0, "%s stores a derived FK_CAP_ flag", kind->name);
    CHECK(!!(fk_ops_caps(kind) & FK_CAP_REMOVE) == (kind->remove != NULL));
    CHECK(!!(fk_ops_caps(kind) & FK_CAP_SERIALIZE) == (kind->serial != NULL));
    /* kinds may share a file id (told apart by the header: test_serial) */
    CHECK(!kind->serial || fk_ops_find_kind_id(kind->serial->kind_id) != NULL);
}

TEST(registry_finds_the_built_in_kinds)
{
    CHECK(fk_ops_at(0) != NULL);
    CHECK(fk_ops_find("bloom") != NULL);
    CHECK(fk_ops_find("no-such-kind") == NULL);
    CHECK(fk_ops_find(NULL) == NULL);
}

/* ---------------------------------- the object's one 64-bit lookup
 * Every built-in kind fills its object's contains_u64 member when it makes
 * or loads it, at every geometry (a cuckoo filter of 26-bit fingerprints
 * takes the generic path), and sets no contains_u64 slot that would only
 * jump back to it (common/filter.h, struct fk_filter). Run before the test
 * kinds are registered: only the registry's own kinds are checked. */
static fk_filter *made_for_u64(double fpr)
{
    fk_params p = fk_params_make(2000, fpr);
    p.seed = 5;
    fk_filter *f = NULL;
    if (is_static()) {
        static uint64_t keys[1000];
        for (uint64_t i = 0; i < 1000; i++)
            keys[i] = keys_positive(i);
        CHECK_STATUS(fk_filter_build_u64(kind, &p, 1000, keys, &f), FK_OK);
        return f;
    }
    CHECK_STATUS(fk_filter_new(kind, &p, &f), FK_OK);
    for (uint64_t i = 0; f && i < 1000; i++)
        CHECK_STATUS(fk_filter_insert_u64(f, keys_positive(i)), FK_OK);
    return f;
}

TEST(each_built_in_object_holds_its_64_bit_lookup)
{
    for (size_t i = 0; (kind = fk_ops_at(i)) != NULL; i++) {
        CHECK_MSG(!FK_OPS_HAS(kind, FK_OPS_V5, contains_u64),
                  "%s: a contains_u64 slot beside the object's member", kind->name);
        const double fprs[] = { 0.01, 1e-7 };
        for (size_t j = 0; j < sizeof fprs / sizeof fprs[0]; j++) {
            fk_filter *f = made_for_u64(fprs[j]), *back = NULL;
            if (!f)
                continue;
            CHECK_MSG(f->contains_u64 != NULL, "%s fpr %g: made without its u64 lookup",
                      kind->name, fprs[j]);
            uint64_t size = 0;
            uint8_t *buf = NULL;
            if (kind->serial && fk_filter_serialized_size(f, &size) == FK_OK &&
                (buf = malloc((size_t)size)) != NULL &&
                CHECK(fk_filter_save(f, buf, (size_t)size, NULL) == FK_OK) &&
                CHECK(fk_filter_load(kind, buf, (size_t)size, &back) == FK_OK)) {
                CHECK_MSG(back->contains_u64 != NULL, "%s fpr %g: loaded without its u64 lookup",
                          kind->name, fprs[j]);
                CHECK(fk_filter_contains_u64(back, keys_positive(7)));
            }
            fk_filter_free(back);
            free(buf);
            fk_filter_free(f);
        }
    }
    kind = NULL;
}

/* ------------------------------------------- a version-1 table
 * The fk_ops layout as a program compiled against version 1 holds it: the
 * table ends after .serial, so the library must never read the later
 * slots (ASan's redzone after this global would catch it). Its filter
 * wraps a Bloom filter. */
struct ops_layout_v1 {
    unsigned    version;
    const char *name;
    const char *summary;
    unsigned    caps;
    fk_status (*create)(const fk_params *p, fk_filter **out);
    void      (*destroy)(fk_filter *f);
    fk_status (*insert)(fk_filter *f, const void *key, size_t len);
    bool      (*contains)(const fk_filter *f, const void *key, size_t len);
    void      (*stats)(const fk_filter *f, fk_stats *out);
    fk_status (*remove)(fk_filter *f, const void *key, size_t len);
    const fk_serial_ops *serial;
};
_Static_assert(offsetof(struct ops_layout_v1, serial) == offsetof(fk_ops, serial) &&
                   sizeof(struct ops_layout_v1) < sizeof(fk_ops),
               "version 1 is a strict prefix of the current layout");

typedef struct {
    fk_filter  base;
    fk_filter *inner;
} old_filter;

static const struct ops_layout_v1 old_table;
#define OLD_OPS ((const fk_ops *)(const void *)&old_table)

static fk_status old_create(const fk_params *p, fk_filter **out)
{
    old_filter *o = calloc(1, sizeof *o);
    if (!o)
        return FK_ENOMEM;
    fk_status s = fk_filter_new(&fk_bloom_ops, p, &o->inner);
    if (s != FK_OK) {
        free(o);
        return s;
    }
    o->base.ops = OLD_OPS;
    *out = &o->base;
    return FK_OK;
}

static void old_destroy(fk_filter *f)
{
    fk_filter_free(((old_filter *)f)->inner);
    free(f);
}

static fk_status old_insert(fk_filter *f, const void *key, size_t len)
{
    return fk_filter_insert(((old_filter *)f)->inner, key, len);
}

static bool old_contains(const fk_filter *f, const void *key, size_t len)
{
    return fk_filter_contains(((const old_filter *)f)->inner, key, len);
}

static void old_stats(const fk_filter *f, fk_stats *out)
{
    fk_filter_stats(((const old_filter *)f)->inner, out);
    out->memory_bytes += sizeof(old_filter);
    out->bits_per_item = 8.0 * (double)out->memory_bytes / (double)out->capacity;
}

static const struct ops_layout_v1 old_table = {
    .version = FK_OPS_V1,
    .name = "bloom-v1-table",
    .summary = "a Bloom filter behind a table of the version-1 fk_ops layout",
    .create = old_create,
    .destroy = old_destroy,
    .insert = old_insert,
    .contains = old_contains,
    .stats = old_stats,
};

TEST(a_version_1_table_works_and_its_later_slots_are_never_read)
{
    CHECK_STATUS(fk_ops_check(OLD_OPS), FK_OK);
    CHECK_EQ_U64(fk_ops_caps(OLD_OPS), 0);
    fk_params p = fk_params_make(1000, 0.01);
    fk_sizing sz;
    double fpr = 1.0;
    CHECK_STATUS(fk_ops_size(OLD_OPS, &p, &sz), FK_EUNSUPPORTED);
    CHECK_STATUS(fk_ops_expected_fpr(OLD_OPS, &p, 10.0, &fpr), FK_EUNSUPPORTED);
    CHECK(fpr == 0.0);
    fk_filter *f = NULL;
    CHECK_STATUS(fk_filter_new(OLD_OPS, &p, &f), FK_OK);
    if (!f)
        return;
    CHECK(fk_filter_ops(f) == OLD_OPS);
    CHECK_STATUS(fk_filter_insert(f, "old", 3), FK_OK);
    CHECK(fk_filter_contains(f, "old", 3));
    CHECK_STATUS(fk_filter_remove(f, "old", 3), FK_EUNSUPPORTED);
    CHECK_STATUS(fk_filter_set_max_bytes(f, 1), FK_EUNSUPPORTED);
    CHECK_STATUS(fk_filter_advance(f, 1), FK_EUNSUPPORTED);
    CHECK(fk_filter_contains_at(f, "old", 3, 1));
    size_t rows = 1;
    CHECK_STATUS(fk_filter_describe(f, NULL, 0, &rows), FK_EUNSUPPORTED);
    CHECK_EQ_U64(rows, 0);
    uint64_t n = 1;
    CHECK_STATUS(fk_filter_serialized_size(f, &n), FK_EUNSUPPORTED);
    fk_stats st;
    fk_filter_stats(f, &st);
    CHECK_EQ_U64(st.items, 1);
    fk_filter_free(f);
}

/* ------------------------------------------- incomplete tables */

TEST(a_table_lacking_a_required_slot_is_refused)
{
    fk_params p = fk_params_make(1000, 0.01);
    fk_serial_ops half_serial = *fk_bloom_ops.serial;
    half_serial.load = NULL;
    fk_ops bad[9];
    for (int i = 0; i < 9; i++)
        bad[i] = fk_bloom_ops;
    bad[0].version = 0;
    bad[1].name = NULL;
    bad[2].name = "";
    bad[3].create = NULL;
    bad[4].destroy = NULL;
    bad[5].insert = NULL;
    bad[6].contains = NULL;
    bad[7].stats = NULL;
    bad[8].serial = &half_serial;
    for (int i = 0; i < 9; i++) {
        fk_filter *f = (fk_filter *)&p; /* must be reset to NULL */
        CHECK_MSG(fk_filter_new(&bad[i], &p, &f) == FK_EINVAL, "incomplete table #%d accepted", i);
        CHECK(f == NULL);
        CHECK_STATUS(fk_ops_check(&bad[i]), FK_EINVAL);
        CHECK_STATUS(fk_ops_register(&bad[i]), FK_EINVAL);
        fk_sizing sz;
        CHECK_STATUS(fk_ops_size(&bad[i], &p, &sz), FK_EINVAL);
    }
    CHECK_STATUS(fk_ops_check(NULL), FK_EINVAL);
    CHECK_EQ_U64(fk_ops_caps(NULL), 0);
}


/* ------------------------------------------------ version-5 calls */

/* The probe keys of the version-5 checks: half inserted, half not. */
#define V5_KEYS 20000u

/* A u64 key answers as its 8 little-endian bytes through the byte calls,
 * for inserts, lookups and removes alike. */
TEST(u64_calls_answer_as_the_8_little_endian_bytes)
{
    fk_filter *by_u64 = NULL, *by_bytes = NULL;
    if (is_static()) { /* one built from the integers, one from their bytes */
        static uint64_t k64[V5_KEYS / 2];
        static uint8_t le8[V5_KEYS / 2][8];
        static const void *ptrs[V5_KEYS / 2];
        static size_t lens[V5_KEYS / 2];
        for (uint64_t i = 0; i < V5_KEYS / 2; i++) {
            k64[i] = keys_positive(i);
            for (int b = 0; b < 8; b++)
                le8[i][b] = (uint8_t)(k64[i] >> (8 * b));
            ptrs[i] = le8[i];
            lens[i] = 8;
        }
        fk_params p = fk_params_make(V5_KEYS, 0.01);
        p.seed = 11;
        CHECK_STATUS(fk_filter_build_u64(kind, &p, V5_KEYS / 2, k64, &by_u64), FK_OK);
        CHECK_STATUS(fk_filter_build(kind, &p, V5_KEYS / 2, ptrs, lens, &by_bytes), FK_OK);
    } else {
        by_u64 = make(V5_KEYS, 0.01, 11);
        by_bytes = make(V5_KEYS, 0.01, 11);
    }
    if (!by_u64 || !by_bytes)
        goto out;
    for (uint64_t i = 0; !is_static() && i < V5_KEYS / 2; i++) {
        uint64_t k = keys_positive(i);
        uint8_t le[8];
        for (int b = 0; b < 8; b++)
            le[b] = (uint8_t)(k >> (8 * b));
        CHECK_STATUS(fk_filter_insert_u64(by_u64, k), FK_OK);
        CHECK_STATUS(fk_filter_insert(by_bytes, le, sizeof le), FK_OK);
    }
    uint64_t differ = 0, missing = 0;
    for (uint64_t i = 0; i < V5_KEYS; i++) {
        uint64_t k = i < V5_KEYS / 2 ? keys_positive(i) : keys_negative(i);
        uint8_t le[8];
        for (int b = 0; b < 8; b++)
            le[b] = (uint8_t)(k >> (8 * b));
        bool a = fk_filter_contains_u64(by_u64, k), c = fk_filter_contains(by_u64, le, 8);
        bool d = fk_filter_contains_u64(by_bytes, k), e = fk_filter_contains(by_bytes, le, 8);
        differ += a != c || a != d || a != e;
        missing += i < V5_KEYS / 2 && !a;
    }
    CHECK_MSG(differ == 0, "%s: %llu keys answer differently by u64 and bytes", kind->name,
              (unsigned long long)differ);
    CHECK_EQ_U64(missing, 0);
    uint64_t k0 = keys_positive(0);
    if (fk_ops_caps(kind) & FK_CAP_REMOVE) {
        CHECK_STATUS(fk_filter_remove_u64(by_u64, k0), FK_OK);
        uint8_t le[8];
        for (int b = 0; b < 8; b++)
            le[b] = (uint8_t)(k0 >> (8 * b));
        CHECK_STATUS(fk_filter_remove(by_bytes, le, 8), FK_OK);
        fk_stats a, b;
        fk_filter_stats(by_u64, &a);
        fk_filter_stats(by_bytes, &b);
        CHECK_EQ_U64(a.items, b.items);
    } else {
        CHECK_STATUS(fk_filter_remove_u64(by_u64, k0), FK_EUNSUPPORTED);
    }
    CHECK(!fk_filter_contains_u64(NULL, k0));
    CHECK_STATUS(fk_filter_insert_u64(NULL, k0), FK_EINVAL);
    CHECK_STATUS(fk_filter_remove_u64(NULL, k0), FK_EINVAL);
out:
    fk_filter_free(by_u64);
    fk_filter_free(by_bytes);
}

/* fk_filter_build and fk_filter_build_u64 answer as one another (and, for
 * a kind made empty and filled, as create plus inserts), with no false
 * negative; bad arguments are named errors that leave *out NULL. */
TEST(build_answers_as_inserts)
{
    static uint64_t keys64[V5_KEYS / 2];
    static uint8_t le[V5_KEYS / 2][8];
    static const void *ptrs[V5_KEYS / 2];
    static size_t lens[V5_KEYS / 2];
    const size_t n = V5_KEYS / 2;
    for (size_t i = 0; i < n; i++) {
        keys64[i] = keys_positive(i);
        for (int b = 0; b < 8; b++)
            le[i][b] = (uint8_t)(keys64[i] >> (8 * b));
        ptrs[i] = le[i];
        lens[i] = 8;
    }
    fk_params p = fk_params_make(0, 0.01); /* capacity 0: n */
    p.seed = 5;
    fk_filter *a = NULL, *b = NULL, *c = NULL;
    CHECK_STATUS(fk_filter_build(kind, &p, n, ptrs, lens, &a), FK_OK);
    CHECK_STATUS(fk_filter_build_u64(kind, &p, n, keys64, &b), FK_OK);
    bool dynamic = !(fk_ops_caps(kind) & FK_CAP_STATIC);
    if (dynamic) {
        c = make(n, 0.01, 5);
        for (size_t i = 0; c && i < n; i++)
            CHECK_STATUS(fk_filter_insert_u64(c, keys64[i]), FK_OK);
    }
    if (!a || !b || (dynamic && !c))
        goto out;
    fk_stats st;
    fk_filter_stats(a, &st);
    CHECK_EQ_U64(st.capacity, n);
    uint64_t differ = 0, missing = 0;
    for (uint64_t i = 0; i < V5_KEYS; i++) {
        uint64_t k = i < n ? keys_positive(i) : keys_negative(i);
        bool x = fk_filter_contains_u64(a, k), y = fk_filter_contains_u64(b, k);
        differ += x != y || (c && x != fk_filter_contains_u64(c, k));
        missing += i < n && !x;
    }
    CHECK_MSG(differ == 0, "%s: builds answer differently for %llu keys", kind->name,
              (unsigned long long)differ);
    CHECK_EQ_U64(missing, 0);
out:
    fk_filter_free(a);
    fk_filter_free(b);
    fk_filter_free(c);
    fk_filter *f = (fk_filter *)&p;
    CHECK_STATUS(fk_filter_build(kind, &p, 3, NULL, lens, &f), FK_EINVAL);
    CHECK(f == NULL);
    f = (fk_filter *)&p;
    CHECK_STATUS(fk_filter_build_u64(kind, &p, 3, NULL, &f), FK_EINVAL);
    CHECK(f == NULL);
    const void *null_key[1] = { NULL };
    size_t one[1] = { 1 };
    CHECK_STATUS(fk_filter_build(kind, &p, 1, null_key, one, &f), FK_EINVAL);
    CHECK_STATUS(fk_filter_build(kind, NULL, 0, NULL, NULL, &f), FK_EINVAL);
    CHECK_STATUS(fk_filter_build(NULL, &p, 0, NULL, NULL, &f), FK_EINVAL);
    CHECK_STATUS(fk_filter_build(kind, &p, 0, NULL, NULL, NULL), FK_EINVAL);
    fk_params nan = p;
    nan.fpr = NAN;
    CHECK_STATUS(fk_filter_build_u64(kind, &nan, 0, NULL, &f), FK_EINVAL);
    CHECK(f == NULL);
    /* An empty set is a set: it answers false. */
    CHECK_STATUS(fk_filter_build_u64(kind, &p, 0, NULL, &f), FK_OK);
    CHECK(f && !fk_filter_contains_u64(f, 42));
    fk_filter_free(f);
}

/* A kind that counts never answers fewer than the truth; one that cannot
 * says FK_EUNSUPPORTED. Merge: named errors for what cannot merge, and a
 * union with no false negative for what can. */
TEST(count_and_merge_follow_the_slots)
{
    if (is_static()) { /* a static kind neither counts nor merges */
        fk_filter *a = build_positive(1000, 0.01, 3), *b = build_positive(1000, 0.01, 3);
        uint64_t count = 99, k = keys_positive(0);
        CHECK_STATUS(fk_filter_count(a, &k, sizeof k, &count), FK_EUNSUPPORTED);
        CHECK_EQ_U64(count, 0);
        CHECK_STATUS(fk_filter_merge(a, b), FK_EUNSUPPORTED);
        CHECK(!(fk_ops_caps(kind) & (FK_CAP_COUNT | FK_CAP_MERGE)));
        fk_filter_free(a);
        fk_filter_free(b);
        return;
    }
    fk_filter *f = make(1000, 0.01, 3), *g = make(1000, 0.01, 3);
    if (!f || !g)
        goto out;
    for (int i = 0; i < 3; i++)
        CHECK_STATUS(fk_filter_insert(f, "thrice", 6), FK_OK);
    uint64_t count = 99;
    fk_status s = fk_filter_count(f, "thrice", 6, &count);
    if (FK_OPS_HAS(kind, FK_OPS_V5, count)) {
        CHECK_STATUS(s, FK_OK);
        CHECK_MSG(count >= 3, "%s: count %llu of a key inserted 3 times", kind->name,
                  (unsigned long long)count);
    } else {
        CHECK_STATUS(s, FK_EUNSUPPORTED);
        CHECK_EQ_U64(count, 0);
        CHECK(!(fk_ops_caps(kind) & FK_CAP_COUNT));
    }
    CHECK_STATUS(fk_filter_count(f, NULL, 1, &count), FK_EINVAL);
    CHECK_STATUS(fk_filter_count(f, "k", 1, NULL), FK_EINVAL);
    CHECK_STATUS(fk_filter_count(NULL, "k", 1, &count), FK_EINVAL);

    CHECK_STATUS(fk_filter_merge(NULL, g), FK_EINVAL);
    CHECK_STATUS(fk_filter_merge(f, NULL), FK_EINVAL);
    CHECK_STATUS(fk_filter_merge(f, f), FK_EINVAL);
    for (uint64_t i = 0; i < 400; i++)
        CHECK_STATUS(fk_filter_insert_u64(g, keys_positive(i)), FK_OK);
    s = fk_filter_merge(f, g);
    if (fk_ops_caps(kind) & FK_CAP_MERGE) {
        CHECK_STATUS(s, FK_OK);
        uint64_t missing = !fk_filter_contains(f, "thrice", 6);
        for (uint64_t i = 0; i < 400; i++)
            missing += !fk_filter_contains_u64(f, keys_positive(i));
        CHECK_EQ_U64(missing, 0);
        /* a filter of another shape is refused */
        fk_filter *other = make(5000, 0.01, 3);
        if (other)
            CHECK_STATUS(fk_filter_merge(f, other), FK_EINVAL);
        fk_filter_free(other);
    } else {
        CHECK_STATUS(s, FK_EUNSUPPORTED);
    }
    /* a filter of another kind is refused */
    const fk_ops *other_kind = kind == &fk_bloom_ops ? fk_ops_find("cuckoo") : &fk_bloom_ops;
    fk_params p = fk_params_make(1000, 0.01);
    fk_filter *h = NULL;
    if (fk_filter_new(other_kind, &p, &h) == FK_OK)
        CHECK_STATUS(fk_filter_merge(f, h), FK_EINVAL);
    fk_filter_free(h);
out:
    fk_filter_free(f);
    fk_filter_free(g);
}

/* Grow: FK_EUNSUPPORTED and nothing changed where the kind cannot resize;
 * where it can, every key kept with its count, the capacity and the fpr
 * its stats report doubled. */
TEST(grow_follows_the_slot)
{
    CHECK_STATUS(fk_filter_grow(NULL), FK_EINVAL);
    fk_filter *f = is_static() ? build_positive(1000, 0.01, 3) : make(1000, 0.01, 3);
    if (!f)
        return;
    if (!is_static()) {
        for (uint64_t i = 0; i < 1000; i++)
            CHECK_STATUS(fk_filter_insert_u64(f, keys_positive(i)), FK_OK);
        CHECK_STATUS(fk_filter_insert_u64(f, keys_positive(0)), FK_OK); /* a second copy */
    }
    fk_stats before, after;
    fk_filter_stats(f, &before);
    uint64_t count_before = 0, key0 = keys_positive(0);
    fk_status counted = fk_filter_count(f, &key0, sizeof key0, &count_before);
    fk_status s = fk_filter_grow(f);
    fk_filter_stats(f, &after);
    if (fk_ops_caps(kind) & FK_CAP_RESIZES) {
        CHECK_STATUS(s, FK_OK);
        CHECK_EQ_U64(after.capacity, 2 * before.capacity);
        CHECK_EQ_U64(after.items, before.items);
        CHECK(after.memory_bytes > before.memory_bytes);
        uint64_t count_after = 0;
        if (counted == FK_OK) {
            CHECK_STATUS(fk_filter_count(f, &key0, sizeof key0, &count_after), FK_OK);
            CHECK_EQ_U64(count_after, count_before);
        }
    } else {
        CHECK_STATUS(s, FK_EUNSUPPORTED);
        CHECK(memcmp(&before, &after, sizeof before) == 0);
    }
    uint64_t missing = 0;
    for (uint64_t i = 0; i < 1000; i++)
        missing += !fk_filter_contains_u64(f, keys_positive(i));
    CHECK_EQ_U64(missing, 0);
    fk_filter_free(f);
}

/* The memory limit, one verb for every kind: a kind that gets larger after
 * it is made (FK_CAP_GROWS by itself, FK_CAP_RESIZES on fk_filter_grow)
 * takes a new limit and keeps to it (growth past it FK_ELIMIT with nothing
 * lost, growth again once it is raised); the others answer
 * FK_EUNSUPPORTED and are unchanged. */
/* ----------------------------------- the generic door: describe, clock */

/* Rows are well formed: a lower_snake_case name, a known type, a string
 * value that is a string or NULL ("none"). */
static void check_rows(const fk_describe_row *rows, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const char *name = rows[i].name;
        CHECK_MSG(name && *name, "%s: row %zu has no name", kind->name, i);
        for (const char *c = name; c && *c; c++)
            CHECK_MSG((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_',
                      "%s: row name %s is not lower_snake_case", kind->name, name);
        CHECK_MSG(rows[i].type >= FK_DESCRIBE_U64 && rows[i].type <= FK_DESCRIBE_STRING,
                  "%s: row %s has type %d", kind->name, name ? name : "?", (int)rows[i].type);
        if (rows[i].type == FK_DESCRIBE_STRING && rows[i].value.s)
            CHECK_MSG(strlen(rows[i].value.s) < 4096, "%s: row %s: a runaway string", kind->name, name);
    }
}

static bool same_row(const fk_describe_row *a, const fk_describe_row *b)
{
    if (strcmp(a->name, b->name) != 0 || a->type != b->type)
        return false;
    switch (a->type) {
    case FK_DESCRIBE_U64: return a->value.u64 == b->value.u64;
    case FK_DESCRIBE_DOUBLE:
        return a->value.d == b->value.d || (isnan(a->value.d) && isnan(b->value.d));
    case FK_DESCRIBE_BOOL: return a->value.b == b->value.b;
    case FK_DESCRIBE_STRING:
        return a->value.s == b->value.s || (a->value.s && b->value.s && strcmp(a->value.s, b->value.s) == 0);
    }
    return false;
}

TEST(describe_gives_well_formed_rows_the_same_at_any_time_without_a_clock)
{
    fk_filter *f = is_static() ? build_positive(1000, 0.01, 5) : make(1000, 0.01, 5);
    if (!f)
        return;
    if (!is_static())
        insert_u64(f, 0, 500);
    size_t n = 99;
    CHECK_STATUS(fk_filter_describe(NULL, NULL, 0, &n), FK_EINVAL);
    CHECK_EQ_U64(n, 0);
    fk_describe_row one;
    CHECK_STATUS(fk_filter_describe(f, NULL, 1, &n), FK_EINVAL);
    CHECK_STATUS(fk_filter_describe(f, &one, 1, NULL), FK_EINVAL);
    bool built_in = kind != &fk_test_fpset_ops && kind != OLD_OPS;
    fk_status s = fk_filter_describe(f, NULL, 0, &n);
    if (!built_in && s == FK_EUNSUPPORTED) { /* a test kind without the slot */
        CHECK_EQ_U64(n, 0);
        fk_filter_free(f);
        return;
    }
    CHECK_MSG(n > 0 && s == FK_ELIMIT, "%s: describe count: %s, %zu rows", kind->name,
              fk_strerror(s), n);
    CHECK_MSG(n <= FK_DESCRIBE_MAX_ROWS || (fk_ops_caps(kind) & FK_CAP_GROWS),
              "%s: %zu rows, over FK_DESCRIBE_MAX_ROWS", kind->name, n);
    fk_describe_row rows[256], later[256];
    size_t m = 0, k = 0;
    CHECK_STATUS(fk_filter_describe(f, rows, 256, &m), FK_OK);
    CHECK_EQ_U64(m, n);
    check_rows(rows, m < 256 ? m : 256);
    /* names are unique but for a growing kind's rows per link (a map in
     * Python and Redis) */
    for (size_t i = 0; i < m && i < 256; i++)
        for (size_t j = i + 1; j < m && j < 256; j++)
            CHECK_MSG(strcmp(rows[i].name, rows[j].name) != 0 ||
                          strncmp(rows[i].name, "link", 4) == 0,
                      "%s: row %s twice", kind->name, rows[i].name);
    /* a short array: the first rows, the full count */
    CHECK_STATUS(fk_filter_describe(f, later, m - 1, &k), FK_ELIMIT);
    CHECK_EQ_U64(k, m);
    for (size_t i = 0; i + 1 < m && i < 256; i++)
        CHECK_MSG(same_row(&rows[i], &later[i]), "%s: row %zu differs", kind->name, i);
    if (!(fk_ops_caps(kind) & FK_CAP_EXPIRES)) {
        /* no clock: nothing to advance, every time reads as now */
        CHECK_STATUS(fk_filter_advance(f, 1000), FK_EUNSUPPORTED);
        CHECK_STATUS(fk_filter_describe_at(f, UINT64_C(1) << 40, later, 256, &k), FK_OK);
        CHECK_EQ_U64(k, m);
        for (size_t i = 0; i < m && i < 256; i++)
            CHECK_MSG(same_row(&rows[i], &later[i]), "%s: row %zu differs at a time",
                      kind->name, i);
        fk_stats a, b;
        fk_filter_stats(f, &a);
        fk_filter_stats_at(f, UINT64_C(1) << 40, &b);
        CHECK(memcmp(&a, &b, sizeof a) == 0);
        uint64_t le = keys_positive(3);
        CHECK(fk_filter_contains_at(f, &le, 8, UINT64_C(1) << 40) == fk_filter_contains(f, &le, 8));
    }
    fk_filter_free(f);
}

TEST(advance_follows_the_clock_and_reads_at_a_time_change_nothing)
{
    CHECK_STATUS(fk_filter_advance(NULL, 1), FK_EINVAL);
    CHECK(!fk_filter_contains_at(NULL, "k", 1, 1));
    if (!(fk_ops_caps(kind) & FK_CAP_EXPIRES))
        return;
    fk_filter *count = make(1000, 0.01, 3); /* span 0: no clock */
    if (count) {
        CHECK_STATUS(fk_filter_advance(count, 5), FK_EUNSUPPORTED);
        fk_filter_free(count);
    }
    fk_params p = fk_params_make(1000, 0.01);
    p.span = 700;
    fk_filter *f = NULL;
    CHECK_STATUS(fk_filter_new(kind, &p, &f), FK_OK);
    if (!f)
        return;
    CHECK_STATUS(fk_filter_advance(f, 1000), FK_OK);
    insert_u64(f, 0, 200);
    CHECK_STATUS(fk_filter_advance(f, 999), FK_EINVAL); /* never back */
    uint64_t le = keys_positive(7);
    uint64_t gone = 1000 + 9 * 700; /* past the window and its slack */
    CHECK(fk_filter_contains(f, &le, 8));
    CHECK(fk_filter_contains_at(f, &le, 8, 1000 + 699)); /* inside the window */
    CHECK(!fk_filter_contains_at(f, &le, 8, gone));
    CHECK(fk_filter_contains(f, &le, 8)); /* the read changed nothing */
    fk_describe_row at[FK_DESCRIBE_MAX_ROWS], after[FK_DESCRIBE_MAX_ROWS];
    size_t na = 0, nb = 0;
    CHECK_STATUS(fk_filter_describe_at(f, gone, at, FK_DESCRIBE_MAX_ROWS, &na), FK_OK);
    fk_stats sa, sb;
    fk_filter_stats_at(f, gone, &sa);
    CHECK_STATUS(fk_filter_advance(f, gone), FK_OK);
    CHECK(!fk_filter_contains(f, &le, 8));
    CHECK_STATUS(fk_filter_describe(f, after, FK_DESCRIBE_MAX_ROWS, &nb), FK_OK);
    CHECK_EQ_U64(na, nb);
    for (size_t i = 0; i < na && i < nb; i++)
        CHECK_MSG(same_row(&at[i], &after[i]), "%s: row %s: as of a time != after the advance",
                  kind->name, at[i].name);
    fk_filter_stats(f, &sb);
    CHECK_EQ_U64(sa.items, sb.items);
    CHECK_EQ_U64(sa.items, 0);
    const fk_describe_row *now = fk_describe_find(after, nb, "now");
    CHECK(now && now->type == FK_DESCRIBE_U64 && now->value.u64 == gone);
    fk_filter_free(f);
}

TEST(set_max_bytes_follows_the_slot)
{
    CHECK_STATUS(fk_filter_set_max_bytes(NULL, 1), FK_EINVAL);
    fk_filter *f = is_static() ? build_positive(1000, 0.01, 3) : make(1000, 0.01, 3);
    if (!f)
        return;
    unsigned caps = fk_ops_caps(kind);
    fk_stats before, after;
    fk_filter_stats(f, &before);
    fk_status s = fk_filter_set_max_bytes(f, before.memory_bytes);
    if (!(caps & (FK_CAP_GROWS | FK_CAP_RESIZES))) {
        CHECK_STATUS(s, FK_EUNSUPPORTED);
        fk_filter_stats(f, &after);
        CHECK(memcmp(&before, &after, sizeof before) == 0);
        fk_filter_free(f);
        return;
    }
    CHECK_STATUS(s, FK_OK);
    uint64_t held = 0;
    if (caps & FK_CAP_GROWS) {
        fk_status last = FK_OK;
        while (held < 100000 && (last = fk_filter_insert_u64(f, keys_positive(held))) == FK_OK)
            held++;
        CHECK_STATUS(last, FK_ELIMIT);
    } else {
        for (; held < 1000; held++)
            CHECK_STATUS(fk_filter_insert_u64(f, keys_positive(held)), FK_OK);
        CHECK_STATUS(fk_filter_grow(f), FK_ELIMIT);
    }
    fk_filter_stats(f, &after);
    CHECK_EQ_U64(after.memory_bytes, before.memory_bytes);
    CHECK_EQ_U64(after.items, held);
    uint64_t missing = 0;
    for (uint64_t i = 0; i < held; i++)
        missing += !fk_filter_contains_u64(f, keys_positive(i));
    CHECK_EQ_U64(missing, 0);
    CHECK_STATUS(fk_filter_set_max_bytes(f, 0), FK_OK); /* the default: FK_MEMORY_CAP */
    if (caps & FK_CAP_GROWS)
        CHECK_STATUS(fk_filter_insert_u64(f, keys_positive(held)), FK_OK);
    else
        CHECK_STATUS(fk_filter_grow(f), FK_OK);
    fk_filter_stats(f, &after);
    CHECK(after.memory_bytes > before.memory_bytes);
    fk_filter_free(f);
}

/* Intersect: named errors for what cannot intersect; for what can, no
 * false negative for a key in both, and (for these Bloom kinds) the keys of
 * only one side mostly gone. */
TEST(intersect_follows_the_slot)
{
    if (is_static()) {
        fk_filter *a = build_positive(1000, 0.01, 3), *b = build_positive(1000, 0.01, 3);
        CHECK_STATUS(fk_filter_intersect(a, b), FK_EUNSUPPORTED);
        CHECK(!(fk_ops_caps(kind) & FK_CAP_INTERSECT));
        fk_filter_free(a);
        fk_filter_free(b);
        return;
    }
    fk_filter *f = make(4000, 0.01, 3), *g = make(4000, 0.01, 3);
    if (!f || !g)
        goto out;
    CHECK_STATUS(fk_filter_intersect(NULL, g), FK_EINVAL);
    CHECK_STATUS(fk_filter_intersect(f, NULL), FK_EINVAL);
    CHECK_STATUS(fk_filter_intersect(f, f), FK_EINVAL);
    /* f holds keys 0..1999, g holds 1000..2999: 1000 in common */
    for (uint64_t i = 0; i < 2000; i++) {
        CHECK_STATUS(fk_filter_insert_u64(f, keys_positive(i)), FK_OK);
        CHECK_STATUS(fk_filter_insert_u64(g, keys_positive(i + 1000)), FK_OK);
    }
    fk_status s = fk_filter_intersect(f, g);
    if (fk_ops_caps(kind) & FK_CAP_INTERSECT) {
        CHECK_STATUS(s, FK_OK);
        uint64_t missing = 0, only_one_side = 0;
        for (uint64_t i = 1000; i < 2000; i++)
            missing += !fk_filter_contains_u64(f, keys_positive(i));
        for (uint64_t i = 0; i < 1000; i++)
            only_one_side += fk_filter_contains_u64(f, keys_positive(i));
        CHECK_EQ_U64(missing, 0);
        /* a key of f alone survives only through g's bits: an FPR-like
         * chance, far below one half at 2000 of 4000 items */
        CHECK_MSG(only_one_side < 500, "%s: %llu of 1000 keys of one side survive",
                  kind->name, (unsigned long long)only_one_side);
        fk_filter *other = make(9000, 0.01, 3);
        if (other)
            CHECK_STATUS(fk_filter_intersect(f, other), FK_EINVAL);
        fk_filter_free(other);
    } else {
        CHECK_STATUS(s, FK_EUNSUPPORTED);
    }
    const fk_ops *other_kind = kind == &fk_bloom_ops ? fk_ops_find("cuckoo") : &fk_bloom_ops;
    fk_params p = fk_params_make(1000, 0.01);
    fk_filter *h = NULL;
    if (fk_filter_new(other_kind, &p, &h) == FK_OK)
        CHECK_STATUS(fk_filter_intersect(f, h), FK_EINVAL);
    fk_filter_free(h);
out:
    fk_filter_free(f);
    fk_filter_free(g);
}

/* ------------------------------------------------ a static kind */

/* "static-fpset": the test kind behind a static table (build slot, no
 * create, insert or remove), to prove the interface serves a kind that is
 * built from the whole set. */
static fk_status static_build(const fk_params *p, size_t n, const void *const keys[],
                              const size_t lens[], fk_filter **out)
{
    fk_filter *f = NULL;
    fk_status s = fk_filter_new(&fk_test_fpset_ops, p, &f);
    if (s == FK_OK)
        s = fk_filter_insert_many(f, n, keys, lens, NULL);
    if (s != FK_OK) {
        fk_filter_free(f);
        return s;
    }
    *out = f;
    return FK_OK;
}

TEST(a_static_kind_is_built_and_refuses_writes)
{
    fk_ops st = fk_test_fpset_ops;
    st.name = "static-fpset";
    st.create = NULL;
    st.insert = NULL;
    st.remove = NULL;
    st.insert_many = NULL;
    st.insert_many_u64 = NULL;
    st.remove_many = NULL;
    st.insert_concurrent = NULL;
    st.remove_concurrent = NULL;
    st.build = static_build;
    st.serial = NULL;
    CHECK_STATUS(fk_ops_check(&st), FK_OK);
    CHECK(fk_ops_caps(&st) & FK_CAP_STATIC);
    CHECK(!(fk_ops_caps(&st) & FK_CAP_REMOVE));
    fk_ops no_build = st;
    no_build.build = NULL;
    CHECK_STATUS(fk_ops_check(&no_build), FK_EINVAL);
    fk_params p = fk_params_make(100, 0.01);
    fk_filter *f = (fk_filter *)&p;
    CHECK_STATUS(fk_filter_new(&st, &p, &f), FK_EUNSUPPORTED);
    CHECK(f == NULL);
    uint64_t keys64[3] = { 1, 2, 3 };
    /* build_u64 without its own slot goes through the byte build */
    CHECK_STATUS(fk_filter_build_u64(&st, &p, 3, keys64, &f), FK_OK);
    if (!f)
        return;
    for (int i = 0; i < 3; i++)
        CHECK(fk_filter_contains_u64(f, keys64[i]));
    /* the table of the built filter is fpset's own; these go through st */
    fk_filter probe = { .ops = &st };
    CHECK_STATUS(fk_filter_insert(&probe, "k", 1), FK_EUNSUPPORTED);
    CHECK_STATUS(fk_filter_insert_u64(&probe, 4), FK_EUNSUPPORTED);
    CHECK_STATUS(fk_filter_remove(&probe, "k", 1), FK_EUNSUPPORTED);
    CHECK_STATUS(fk_filter_insert_many_u64(&probe, 1, keys64, NULL), FK_EUNSUPPORTED);
    const void *k1[1] = { "k" };
    size_t l1[1] = { 1 };
    CHECK_STATUS(fk_filter_insert_many(&probe, 1, k1, l1, NULL), FK_EUNSUPPORTED);
    fk_filter_free(f);
}

/* ------------------------------------------------ the registry */

TEST(registering_a_kind)
{
    CHECK_STATUS(fk_ops_register(NULL), FK_EINVAL);
    CHECK_STATUS(fk_ops_register(&fk_bloom_ops), FK_OK); /* already there: nothing added */
    CHECK_STATUS(fk_ops_register(&fk_test_fpset_ops), FK_OK);
    CHECK_STATUS(fk_ops_register(&fk_test_fpset_ops), FK_OK);
    CHECK_STATUS(fk_ops_register(OLD_OPS), FK_OK);
    size_t n = 0, fpsets = 0;
    for (const fk_ops *ops; (ops = fk_ops_at(n)) != NULL; n++)
        fpsets += ops == &fk_test_fpset_ops;
    CHECK_EQ_U64(fpsets, 1);
    CHECK(fk_ops_find("fpset") == &fk_test_fpset_ops);
    CHECK(fk_ops_find_kind_id(FK_KIND_TEST_FPSET) == &fk_test_fpset_ops);
    /* a second table under a taken name, or a taken file kind id */
    fk_ops same_name = fk_test_fpset_ops, same_id = fk_test_fpset_ops;
    same_id.name = "fpset-again";
    CHECK_STATUS(fk_ops_register(&same_name), FK_EINVAL);
    CHECK_STATUS(fk_ops_register(&same_id), FK_EINVAL);
    CHECK(fk_ops_at(n) == NULL);
}

/* Run last: fills the registry's spare room. */
TEST(the_registry_says_full)
{
    static fk_ops extra[FK_REGISTRY_EXTRA_MAX];
    static char names[FK_REGISTRY_EXTRA_MAX][16];
    fk_status s = FK_OK;
    unsigned added = 0;
    for (unsigned i = 0; i < FK_REGISTRY_EXTRA_MAX && s == FK_OK; i++) {
        extra[i] = fk_bloom_ops;
        extra[i].serial = NULL;
        snprintf(names[i], sizeof names[i], "extra-%u", i);
        extra[i].name = names[i];
        s = fk_ops_register(&extra[i]);
        added += s == FK_OK;
    }
    CHECK_STATUS(s, FK_EFULL);
    CHECK(added > 0 && added < FK_REGISTRY_EXTRA_MAX);
    CHECK(fk_ops_find("extra-0") == &extra[0]);
}

/* FK_TEST_KIND=name (make check-<kind>): check_kind_selected (check.h). */
int main(void)
{
    RUN(registry_finds_the_built_in_kinds);
    RUN(each_built_in_object_holds_its_64_bit_lookup);
    RUN(a_version_1_table_works_and_its_later_slots_are_never_read);
    RUN(a_table_lacking_a_required_slot_is_refused);
    RUN(registering_a_kind);
    RUN(a_static_kind_is_built_and_refuses_writes);
    for (size_t i = 0; (kind = fk_ops_at(i)) != NULL; i++) {
        if (!check_kind_selected(kind->name))
            continue;
        printf("kind %s\n", kind->name);
        RUN(vtable_is_complete);
        RUN(bad_params_rejected_with_null_out);
        RUN(null_filter_and_null_key_are_named_errors);
        RUN(zero_length_key_is_a_key);
        RUN(no_false_negatives_on_real_world_strings);
        RUN(fpr_at_most_1_5x_target_at_1_percent);
        RUN(fpr_at_most_1_5x_target_at_0_1_percent);
        RUN(sizing_is_what_create_builds);
        RUN(same_seed_same_answers_other_seed_other_false_positives);
        RUN(other_seed_other_false_positives_for_keys_not_8_bytes);
        RUN(remove_works_or_is_unsupported);
        RUN(bounded_kinds_say_full_and_others_never_do);
        RUN(every_capacity_up_to_10k_holds_its_capacity);
        RUN(u64_calls_answer_as_the_8_little_endian_bytes);
        RUN(build_answers_as_inserts);
        RUN(count_and_merge_follow_the_slots);
        RUN(intersect_follows_the_slot);
        RUN(grow_follows_the_slot);
        RUN(set_max_bytes_follows_the_slot);
        RUN(describe_gives_well_formed_rows_the_same_at_any_time_without_a_clock);
        RUN(advance_follows_the_clock_and_reads_at_a_time_change_nothing);
    }
    RUN(the_registry_says_full);
    return check_report();
}
