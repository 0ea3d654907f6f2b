/* tests/test_contract.c: the same checks over every registered kind,
 * through the vtable only. A new kind in the registry is covered
 * automatically; kind-specific expectations (bits per item) sit in one
 * table below. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "keys.h"
#include "../common/filter.h"

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
        CHECK_MSG(s == FK_EINVAL, "%s: bad params #%d gave %s", kind->name, i, fk_status_name(s));
        CHECK_MSG(f == NULL, "%s: bad params #%d left *out set", kind->name, i);
    }
    fk_filter *f = (fk_filter *)&ok;
    CHECK_STATUS(fk_filter_new(kind, NULL, &f), FK_EINVAL);
    CHECK(f == NULL);
    CHECK_STATUS(fk_filter_new(kind, &ok, NULL), FK_EINVAL);
    CHECK_STATUS(fk_filter_new(NULL, &ok, &f), FK_EINVAL);
    CHECK(f == NULL);
}

TEST(null_filter_and_null_key_are_named_errors)
{
    fk_filter *f = make(100, 0.01, 0);
    if (!f)
        return;
    CHECK_STATUS(fk_filter_insert(f, NULL, 4), FK_EINVAL);
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
    fk_filter *f = make(n, 0.01, 7);
    if (!f)
        return;
    char key[KEYS_MAX_LEN];
    for (uint64_t i = 0; i < n; i++) {
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
    fk_filter *f = make(n, fpr, 3);
    if (!f)
        return;
    insert_u64(f, 0, n);
    uint64_t fp = 0;
    for (uint64_t i = 0; i < negatives; i++) {
        uint64_t k = keys_negative(i);
        fp += fk_filter_contains(f, &k, sizeof k);
    }
    double measured = (double)fp / (double)negatives;
    CHECK_MSG(measured <= 1.5 * fpr, "%s: target %g, measured %.5g", kind->name, fpr, measured);
    CHECK_MSG(fp > 0, "%s: no false positive at all in %llu negatives: is contains() real?",
              kind->name, (unsigned long long)negatives);
    fk_filter_free(f);
}

TEST(fpr_at_most_1_5x_target_at_1_percent) { check_fpr_at(0.01, 100000, 1000000); }
TEST(fpr_at_most_1_5x_target_at_0_1_percent) { check_fpr_at(0.001, 100000, 2000000); }

/* Expected bits per item for the kinds we know; others are not checked. */
static double expected_bits_per_item(double fpr, double *tolerance)
{
    *tolerance = 0.06;
    if (strcmp(kind->name, "bloom") == 0)
        return 1.44 * log2(1.0 / fpr);
    if (strcmp(kind->name, "counting") == 0) /* 4-bit counters by default */
        return 4 * 1.44 * log2(1.0 / fpr);
    if (strcmp(kind->name, "blocked") == 0) { /* the Parquet spec's table */
        *tolerance = 0.03;
        return fpr == 0.01 ? 10.5 : fpr == 0.001 ? 16.9 : 0.0;
    }
    return 0.0;
}

TEST(bits_per_item_match_the_theory)
{
    const double fprs[] = { 0.01, 0.001 };
    for (int i = 0; i < 2; i++) {
        double tol;
        double want = expected_bits_per_item(fprs[i], &tol);
        if (want == 0.0)
            return;
        fk_filter *f = make(1000000, fprs[i], 0);
        if (!f)
            return;
        fk_stats st;
        fk_filter_stats(f, &st);
        CHECK_MSG(fabs(st.bits_per_item - want) <= tol * want, "%s at %g: %.3f bits/item vs %.3f",
                  kind->name, fprs[i], st.bits_per_item, want);
        fk_filter_free(f);
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
    fk_filter *a = make(n, 0.01, 42), *b = make(n, 0.01, 42), *c = make(n, 0.01, 43);
    if (!a || !b || !c)
        goto out;
    insert_u64(a, 0, n);
    insert_u64(b, 0, n);
    insert_u64(c, 0, n);
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

TEST(remove_works_or_is_unsupported)
{
    const uint64_t n = 50000;
    fk_filter *f = make(n, 0.001, 5);
    if (!f)
        return;
    insert_u64(f, 0, n);
    uint64_t k0 = keys_positive(0);
    if (!(kind->caps & FK_CAP_REMOVE)) {
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
    if (kind->caps & FK_CAP_BOUNDED) {
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

TEST(vtable_is_complete)
{
    CHECK(kind->name && kind->summary && kind->create && kind->destroy && kind->insert &&
          kind->contains && kind->stats);
    CHECK(fk_ops_find(kind->name) == kind);
    CHECK(!!(kind->caps & FK_CAP_REMOVE) == (kind->remove != NULL));
}

TEST(registry_finds_the_built_in_kinds)
{
    CHECK(fk_ops_at(0) != NULL);
    CHECK(fk_ops_find("bloom") != NULL);
    CHECK(fk_ops_find("no-such-kind") == NULL);
    CHECK(fk_ops_find(NULL) == NULL);
}

int main(void)
{
    RUN(registry_finds_the_built_in_kinds);
    for (size_t i = 0; (kind = fk_ops_at(i)) != NULL; i++) {
        printf("kind %s\n", kind->name);
        RUN(vtable_is_complete);
        RUN(bad_params_rejected_with_null_out);
        RUN(null_filter_and_null_key_are_named_errors);
        RUN(zero_length_key_is_a_key);
        RUN(no_false_negatives_on_real_world_strings);
        RUN(fpr_at_most_1_5x_target_at_1_percent);
        RUN(fpr_at_most_1_5x_target_at_0_1_percent);
        RUN(bits_per_item_match_the_theory);
        RUN(same_seed_same_answers_other_seed_other_false_positives);
        RUN(remove_works_or_is_unsupported);
        RUN(bounded_kinds_say_full_and_others_never_do);
    }
    return check_report();
}
