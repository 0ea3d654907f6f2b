/* tests/test_counting.c: the counting Bloom filter, through its direct API
 * (and, where it matters, side by side with a Bloom filter of the same m, k
 * and seed). Every test uses fixed seeds. */
#include <math.h>
#include <stdlib.h>
#include "check.h"
#include "../bloom/bloom.h"
#include "../bloom/bloom_internal.h"
#include "../counting/counting.h"
#include "../counting/counting_internal.h" /* fk_counting_count_nonzero */
#include "../registry/registry.h"
#include "describe.h"

/* ---------------------------------------------------------------- helpers */

/* Key number i as 8 bytes; distinct i give distinct keys. */
typedef struct { unsigned char b[8]; } key8;

static key8 key_of(uint64_t i)
{
    key8 k;
    memcpy(k.b, &i, 8);
    return k;
}

/* Key universes that never overlap: inserted keys, never-inserted probes. */
#define POS(i) (UINT64_C(0x1000000000) + (uint64_t)(i))
#define NEG(i) (UINT64_C(0x7000000000) + (uint64_t)(i))

static bool has(const fk_counting *c, uint64_t i)
{
    key8 k = key_of(i);
    return fk_counting_contains(c, k.b, 8);
}

static fk_status ins(fk_counting *c, uint64_t i)
{
    key8 k = key_of(i);
    return fk_counting_insert(c, k.b, 8);
}

static fk_status rem(fk_counting *c, uint64_t i)
{
    key8 k = key_of(i);
    return fk_counting_remove(c, k.b, 8);
}

static uint32_t cnt(const fk_counting *c, uint64_t i)
{
    key8 k = key_of(i);
    return fk_counting_count(c, k.b, 8);
}

static fk_counting *make(uint64_t capacity, double fpr, uint64_t seed, uint32_t counter_bits)
{
    fk_params p = fk_params_make(capacity, fpr);
    p.seed = seed;
    p.counter_bits = counter_bits;
    fk_counting *c = NULL;
    CHECK_STATUS(fk_counting_new(&p, &c), FK_OK);
    return c;
}

/* A full copy of the observable state: every counter plus the counts. */
typedef struct {
    uint32_t *ctr;
    uint64_t m, items, saturations;
} snapshot;

static snapshot snap(const fk_counting *c)
{
    snapshot s;
    s.m = counting_desc(c).bits;
    s.ctr = malloc(s.m * sizeof *s.ctr);
    for (uint64_t i = 0; i < s.m; i++)
        s.ctr[i] = fk_counting_cell(c, i);
    fk_stats st;
    fk_counting_stats(c, &st);
    s.items = st.items;
    s.saturations = counting_desc(c).saturations;
    return s;
}

static bool same_state(snapshot a, const fk_counting *c)
{
    snapshot b = snap(c);
    bool same = a.m == b.m && a.items == b.items && a.saturations == b.saturations &&
                memcmp(a.ctr, b.ctr, a.m * sizeof *a.ctr) == 0;
    free(b.ctr);
    return same;
}

static uint64_t count_saturated(const fk_counting *c)
{
    uint64_t n = 0, max = counting_desc(c).counter_max;
    for (uint64_t i = 0; i < counting_desc(c).bits; i++)
        n += fk_counting_cell(c, i) == max;
    return n;
}

/* ------------------------------------------------------------ parameters */

TEST(bad_params_are_einval_and_out_is_null)
{
    fk_params good = fk_params_make(1000, 0.01);
    fk_params bad[32];
    int n = 0;
    bad[n] = good; bad[n++].capacity = 0;
    bad[n] = good; bad[n++].fpr = 0.0;
    bad[n] = good; bad[n++].fpr = 1.0;
    bad[n] = good; bad[n++].fpr = -0.5;
    bad[n] = good; bad[n++].fpr = NAN;
    bad[n] = good; bad[n++].fpr = INFINITY;
    bad[n] = good; bad[n++].reserved = 1;
    bad[n] = good; bad[n++].hashes = 65;
    bad[n] = good; bad[n++].hashes = UINT32_MAX;
    const uint32_t widths[] = { 1, 2, 3, 5, 6, 7, 9, 16, 32, UINT32_MAX };
    for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++) {
        bad[n] = good;
        bad[n++].counter_bits = widths[i];
    }
    bad[n] = good; bad[n++].bits = UINT64_MAX;                  /* overflow */
    bad[n] = good; bad[n++].bits = FK_MEMORY_CAP * 2 + 1;       /* 4-bit: over the cap */
    bad[n] = good; bad[n].counter_bits = 8; bad[n++].bits = FK_MEMORY_CAP + 1;
    bad[n] = good; bad[n++].capacity = UINT64_MAX / 2;          /* sized over the cap */

    for (int i = 0; i < n; i++) {
        fk_counting *c = (fk_counting *)&good; /* any non-NULL sentinel */
        CHECK_MSG(fk_counting_new(&bad[i], &c) == FK_EINVAL, "bad params #%d not EINVAL", i);
        CHECK_MSG(c == NULL, "bad params #%d left *out set", i);
        fk_filter *f = (fk_filter *)&good;
        CHECK_MSG(fk_filter_new(&fk_counting_ops, &bad[i], &f) == FK_EINVAL, "vtable #%d", i);
        CHECK_MSG(f == NULL, "vtable #%d left *out set", i);
    }
    fk_counting *c = (fk_counting *)&good;
    CHECK_STATUS(fk_counting_new(NULL, &c), FK_EINVAL);
    CHECK(c == NULL);
    CHECK_STATUS(fk_counting_new(&good, NULL), FK_EINVAL);

    /* The accepted widths, and the other kinds' knobs are ignored. */
    const uint32_t ok_widths[] = { 0, 4, 8 }, want[] = { 4, 4, 8 };
    for (int i = 0; i < 3; i++) {
        fk_params p = good;
        p.counter_bits = ok_widths[i];
        p.fingerprint_bits = 99;
        CHECK_STATUS(fk_counting_new(&p, &c), FK_OK);
        CHECK_EQ_U64(counting_desc(c).counter_bits, want[i]);
        CHECK_EQ_U64(counting_desc(c).counter_max, (1u << want[i]) - 1);
        fk_counting_free(c);
    }
    fk_counting_free(NULL); /* no-op */
}

TEST(sizing_and_probes_are_the_bloom_filters)
{
    const double fprs[] = { 0.1, 0.01, 0.001 };
    for (int f = 0; f < 3; f++) {
        fk_params p = fk_params_make(5000, fprs[f]);
        p.seed = 42;
        fk_counting *c;
        fk_bloom *b;
        CHECK_STATUS(fk_counting_new(&p, &c), FK_OK);
        CHECK_STATUS(fk_bloom_new(&p, &b), FK_OK);
        CHECK_EQ_U64(counting_desc(c).bits, bloom_desc(b).bits);
        CHECK_EQ_U64(counting_desc(c).hashes, bloom_desc(b).hashes);
        CHECK_EQ_U64(counting_desc(c).seed, 42);
        uint64_t pc[FK_BLOOM_MAX_HASHES], pb[FK_BLOOM_MAX_HASHES];
        uint32_t k = counting_desc(c).hashes;
        for (uint64_t i = 0; i < 2000; i++) {
            key8 key = key_of(i);
            CHECK_STATUS(fk_counting_locate(c, key.b, 8, pc), FK_OK);
            CHECK_STATUS(fk_bloom_locate(b, key.b, 8, pb), FK_OK);
            CHECK(memcmp(pc, pb, k * sizeof pc[0]) == 0);
            for (uint32_t j = 0; j < k; j++)
                CHECK(pc[j] < counting_desc(c).bits);
        }
        fk_counting_free(c);
        fk_bloom_free(b);
    }
    /* The knobs set m and k exactly. */
    fk_params p = fk_params_make(100, 0.01);
    p.bits = 1001;
    p.hashes = 5;
    fk_counting *c;
    CHECK_STATUS(fk_counting_new(&p, &c), FK_OK);
    CHECK_EQ_U64(counting_desc(c).bits, 1001);
    CHECK_EQ_U64(counting_desc(c).hashes, 5);
    fk_counting_free(c);
}

/* ------------------------------------------------------------- key rules */

TEST(null_key_with_length_is_einval_and_changes_nothing)
{
    fk_counting *c = make(100, 0.01, 1, 0);
    CHECK_STATUS(ins(c, 7), FK_OK);
    snapshot s = snap(c);
    uint64_t pos[FK_BLOOM_MAX_HASHES];
    CHECK_STATUS(fk_counting_insert(c, NULL, 3), FK_EINVAL);
    CHECK_STATUS(fk_counting_remove(c, NULL, 3), FK_EINVAL);
    CHECK(!fk_counting_contains(c, NULL, 3));
    CHECK_EQ_U64(fk_counting_count(c, NULL, 3), 0);
    CHECK_STATUS(fk_counting_locate(c, NULL, 3, pos), FK_EINVAL);
    CHECK_STATUS(fk_counting_locate(c, "a", 1, NULL), FK_EINVAL);
    CHECK(same_state(s, c));
    free(s.ctr);

    /* NULL filter. */
    CHECK_STATUS(fk_counting_insert(NULL, "a", 1), FK_EINVAL);
    CHECK_STATUS(fk_counting_remove(NULL, "a", 1), FK_EINVAL);
    CHECK(!fk_counting_contains(NULL, "a", 1));
    CHECK_EQ_U64(fk_counting_count(NULL, "a", 1), 0);
    CHECK_EQ_U64(counting_desc(NULL).bits + counting_desc(NULL).hashes + counting_desc(NULL).counter_bits +
                     counting_desc(NULL).saturations + fk_counting_cell(NULL, 0) +
                     fk_counting_count_nonzero(NULL) + counting_desc(NULL).export_words, 0);
    CHECK(fk_counting_as_filter(NULL) == NULL);
    fk_counting_stats(NULL, NULL);
    fk_counting_describe(NULL, NULL);

    /* The empty key is a key like any other, with a NULL pointer or not. */
    CHECK(!fk_counting_contains(c, NULL, 0));
    CHECK_STATUS(fk_counting_insert(c, NULL, 0), FK_OK);
    CHECK(fk_counting_contains(c, "", 0));
    CHECK_EQ_U64(fk_counting_count(c, "x", 0), 1);
    CHECK_STATUS(fk_counting_remove(c, "", 0), FK_OK);
    CHECK(!fk_counting_contains(c, NULL, 0));
    CHECK(has(c, 7));
    fk_counting_free(c);
}

/* ----------------------------------------------------------- model based */

/* Random inserts and removes over a small universe of keys, hot keys
 * included, against an exact multiset. After every step every key is
 * looked up; every 64 steps every key's count and the item count are
 * checked too. Invariants: a key with positive
 * multiplicity is always present, its remove succeeds, and its count is at
 * least its multiplicity (or saturated); a key reported absent refuses to
 * be removed and nothing changes. The filter is sized for fewer keys than
 * the universe so counters collide and (with 4 bits) saturate. */
static void model_run(uint32_t counter_bits, uint64_t seed)
{
    enum { UNIVERSE = 256, STEPS = 24000 };
    fk_counting *c = make(100, 0.02, seed, counter_bits);
    uint32_t mult[UNIVERSE] = { 0 };
    uint64_t total = 0, rng = seed, failures = 0;
    const uint32_t max = counting_desc(c).counter_max;

    for (int step = 0; step < STEPS && failures < 5; step++) {
        uint64_t r = check_rng(&rng);
        /* One key in 8 is drawn from 4 hot keys, so some counts run high. */
        uint64_t key = (r & 7) == 0 ? (r >> 8) % 4 : (r >> 8) % UNIVERSE;
        bool insert = ((r >> 3) % 100) < 55;
        if (insert) {
            if (ins(c, POS(key)) != FK_OK)
                failures++;
            mult[key]++;
            total++;
        } else if (mult[key] > 0) {
            if (rem(c, POS(key)) != FK_OK)
                failures++;
            mult[key]--;
            total--;
        } else if (!has(c, POS(key))) {
            /* Definitely absent: the remove must refuse and change nothing.
             * (A false positive is never removed: see the header's caveat.) */
            snapshot s = snap(c);
            if (rem(c, POS(key)) != FK_ENOTFOUND || !same_state(s, c))
                failures++;
            free(s.ctr);
        }
        /* Every step: every key with positive multiplicity is present. */
        for (uint64_t i = 0; i < UNIVERSE; i++)
            if (mult[i] > 0 && !has(c, POS(i)))
                failures++;
        uint32_t n = cnt(c, POS(key));
        if (n < mult[key] && n != max)
            failures++;
        if (step % 64 == 63) {
            for (uint64_t i = 0; i < UNIVERSE; i++)
                if (cnt(c, POS(i)) < mult[i] && cnt(c, POS(i)) != max)
                    failures++;
            fk_stats st;
            fk_counting_stats(c, &st);
            if (st.items != total)
                failures++;
        }
    }
    CHECK_MSG(failures == 0, "model (counter_bits %u, seed %" PRIu64 "): %" PRIu64 " failures",
              counter_bits, seed, failures);

    /* Remove everything that is left: every counter is back to 0 except the
     * saturated ones, which never move. */
    uint64_t saturated = count_saturated(c);
    CHECK_EQ_U64(saturated, counting_desc(c).saturations);
    for (uint64_t i = 0; i < UNIVERSE; i++)
        while (mult[i] > 0) {
            CHECK_STATUS(rem(c, POS(i)), FK_OK);
            mult[i]--;
        }
    uint64_t stray = 0;
    for (uint64_t i = 0; i < counting_desc(c).bits; i++) {
        uint32_t x = fk_counting_cell(c, i);
        stray += x != 0 && x != max;
    }
    CHECK_EQ_U64(stray, 0);
    CHECK_EQ_U64(count_saturated(c), saturated);
    fk_stats st;
    fk_counting_stats(c, &st);
    CHECK_EQ_U64(st.items, 0);
    if (counter_bits == 4)
        CHECK_MSG(saturated > 0, "the model run should have saturated some 4-bit counters");
    else
        CHECK_EQ_U64(saturated, 0);
    fk_counting_free(c);
}

TEST(model_based_inserts_and_removes_match_a_multiset)
{
    model_run(4, 1);
    model_run(4, 2);
    model_run(8, 3);
}

/* ------------------------------------------------------------ saturation */

/* Fan, Cao, Almeida & Broder (Summary Cache, IEEE/ACM ToN 2000): with k at
 * its optimum (m/n) ln 2, the chance that any of the m counters reaches 16
 * is at most Pr(max counter >= 16) <= m (e ln 2 / 16)^16 ~ 1.37e-15 x m,
 * which is why 4 bits suffice. So a filter filled to capacity with distinct
 * keys never saturates in practice (checked in the FPR test); only repeated
 * keys do, which is what this test forces. */
static void saturation_run(uint32_t counter_bits)
{
    enum { N = 1000, HOT = 1000 };
    fk_counting *c = make(N, 0.01, 77, counter_bits);
    const uint32_t max = counting_desc(c).counter_max;
    const uint64_t hot = NEG(123456);
    for (uint64_t i = 0; i < N; i++)
        CHECK_STATUS(ins(c, POS(i)), FK_OK);
    for (int i = 0; i < HOT; i++)
        CHECK_STATUS(ins(c, hot), FK_OK);

    uint64_t hp[FK_BLOOM_MAX_HASHES];
    key8 hk = key_of(hot);
    CHECK_STATUS(fk_counting_locate(c, hk.b, 8, hp), FK_OK);
    for (uint32_t j = 0; j < counting_desc(c).hashes; j++)
        CHECK_EQ_U64(fk_counting_cell(c, hp[j]), max);
    CHECK_EQ_U64(cnt(c, hot), max);
    uint64_t saturated = count_saturated(c);
    CHECK(saturated >= 1);
    CHECK_EQ_U64(counting_desc(c).saturations, saturated);

    for (int i = 0; i < HOT; i++)
        CHECK_STATUS(rem(c, hot), FK_OK);
    uint64_t lost = 0;
    for (uint64_t i = 0; i < N; i++)
        lost += !has(c, POS(i));
    CHECK_EQ_U64(lost, 0);
    for (uint32_t j = 0; j < counting_desc(c).hashes; j++)
        CHECK_EQ_U64(fk_counting_cell(c, hp[j]), max);

    /* Removing every other key too leaves the saturated counters alone. */
    for (uint64_t i = 0; i < N; i++)
        CHECK_STATUS(rem(c, POS(i)), FK_OK);
    CHECK_EQ_U64(count_saturated(c), saturated);
    CHECK_EQ_U64(counting_desc(c).saturations, saturated);
    CHECK_EQ_U64(fk_counting_count_nonzero(c), saturated);
    CHECK(has(c, hot)); /* a saturated key can never be fully removed */
    fk_counting_free(c);
}

/* The concurrent writers (compare-and-swap on a counter's byte) saturate
 * as the plain ones do: the same keys, a hot one inserted past every
 * counter's maximum, leave the same counters, counts and saturations
 * whichever way they went in; removing them concurrently too. */
static void concurrent_saturation_run(uint32_t counter_bits)
{
    enum { N = 500, HOT = 600 };
    fk_counting *a = make(N, 0.01, 91, counter_bits), *b = make(N, 0.01, 91, counter_bits);
    if (!a || !b) {
        fk_counting_free(a);
        fk_counting_free(b);
        return;
    }
    fk_filter *fb = fk_counting_as_filter(b);
    const uint64_t hot = NEG(4242);
    key8 hk = key_of(hot);
    for (uint64_t i = 0; i < N; i++) {
        key8 k = key_of(POS(i));
        CHECK_STATUS(ins(a, POS(i)), FK_OK);
        CHECK_STATUS(fk_filter_insert_concurrent(fb, k.b, 8), FK_OK);
    }
    for (int i = 0; i < HOT; i++) {
        CHECK_STATUS(ins(a, hot), FK_OK);
        CHECK_STATUS(fk_filter_insert_concurrent(fb, hk.b, 8), FK_OK);
    }
    snapshot sa = snap(a);
    CHECK(sa.saturations >= 1);
    CHECK_MSG(same_state(sa, b), "%u-bit counters: concurrent inserts differ from single ones",
              (unsigned)counter_bits);
    free(sa.ctr);
    for (int i = 0; i < HOT; i++) {
        CHECK_STATUS(fk_counting_remove(a, hk.b, 8), FK_OK);
        CHECK_STATUS(fk_filter_remove_concurrent(fb, hk.b, 8), FK_OK);
    }
    sa = snap(a);
    CHECK_MSG(same_state(sa, b), "%u-bit counters: concurrent removes differ from single ones",
              (unsigned)counter_bits);
    free(sa.ctr);
    fk_counting_free(a);
    fk_counting_free(b);
}

TEST(concurrent_writers_saturate_as_single_ones)
{
    concurrent_saturation_run(4);
    concurrent_saturation_run(8);
}

TEST(saturated_counters_stick_and_protect_other_keys)
{
    saturation_run(4);
    saturation_run(8);
}

/* -------------------------------------------------------------- removes */

TEST(removing_every_other_key_leaves_no_false_negatives)
{
    enum { N = 50000 };
    const uint32_t widths[] = { 4, 8 };
    for (int w = 0; w < 2; w++) {
        fk_counting *c = make(N, 0.01, 5, widths[w]);
        for (uint64_t i = 0; i < N; i++)
            CHECK_STATUS(ins(c, POS(i)), FK_OK);
        uint64_t bad = 0, still = 0;
        for (uint64_t i = 1; i < N; i += 2)
            bad += rem(c, POS(i)) != FK_OK;
        CHECK_EQ_U64(bad, 0);
        for (uint64_t i = 0; i < N; i += 2)
            bad += !has(c, POS(i));
        CHECK_EQ_U64(bad, 0);
        /* Removed keys now answer like never-inserted ones: false positive
         * at the rate of a filter holding N/2 keys (binomial, 5 sigma). */
        for (uint64_t i = 1; i < N; i += 2)
            still += has(c, POS(i));
        double p = fk_theory_bloom_fpr(counting_desc(c).bits, counting_desc(c).hashes, N / 2);
        double trials = N / 2;
        double bound = trials * p + 5 * sqrt(trials * p * (1 - p)) + 1;
        CHECK_MSG((double)still <= bound, "removed keys still present: %" PRIu64 " > %.1f", still, bound);
        fk_stats st;
        fk_counting_stats(c, &st);
        CHECK_EQ_U64(st.items, N / 2);
        fk_counting_free(c);
    }
}

TEST(removing_an_absent_key_is_enotfound_and_changes_nothing)
{
    fk_counting *c = make(2000, 0.01, 9, 0);
    for (uint64_t i = 0; i < 2000; i++)
        CHECK_STATUS(ins(c, POS(i)), FK_OK);
    int tried = 0;
    for (uint64_t i = 0; tried < 50; i++) {
        if (has(c, NEG(i)))
            continue; /* a false positive: not definitely absent */
        tried++;
        snapshot s = snap(c);
        CHECK_STATUS(rem(c, NEG(i)), FK_ENOTFOUND);
        CHECK(same_state(s, c));
        free(s.ctr);
    }
    fk_counting_free(c);

    /* A never-inserted key all of whose counters are nonzero, but whose
     * probes repeat a position more often than that counter's value, is
     * still definitely absent: remove must notice midway, undo, and refuse.
     * A tiny filter (m 16, k 8) makes such repeats common. */
    fk_params p = fk_params_make(2, 0.5);
    p.bits = 16;
    p.hashes = 8;
    CHECK_STATUS(fk_counting_new(&p, &c), FK_OK);
    CHECK_STATUS(ins(c, POS(0)), FK_OK);
    CHECK_STATUS(ins(c, POS(1)), FK_OK);
    int found = 0;
    for (uint64_t i = 0; i < 200000 && found < 20; i++) {
        uint64_t pos[8];
        key8 k = key_of(NEG(i));
        fk_counting_locate(c, k.b, 8, pos);
        uint32_t need[16] = { 0 };
        bool all_nonzero = true, short_somewhere = false;
        for (int j = 0; j < 8; j++)
            need[pos[j]]++;
        for (int j = 0; j < 16; j++) {
            if (!need[j])
                continue;
            all_nonzero &= fk_counting_cell(c, (uint64_t)j) > 0;
            short_somewhere |= fk_counting_cell(c, (uint64_t)j) < need[j];
        }
        if (!all_nonzero || !short_somewhere)
            continue;
        found++;
        snapshot s = snap(c);
        CHECK(fk_counting_contains(c, k.b, 8)); /* looks present... */
        CHECK_STATUS(fk_counting_remove(c, k.b, 8), FK_ENOTFOUND); /* ...but is not */
        CHECK(same_state(s, c));
        free(s.ctr);
    }
    CHECK_MSG(found == 20, "found only %d keys with short repeated probes", found);
    /* The two real keys are still removable. */
    CHECK_STATUS(rem(c, POS(0)), FK_OK);
    CHECK_STATUS(rem(c, POS(1)), FK_OK);
    CHECK_EQ_U64(fk_counting_count_nonzero(c), 0);
    fk_counting_free(c);
}

TEST(count_is_an_upper_bound_on_multiplicity)
{
    fk_counting *c = make(100000, 0.001, 3, 0);
    CHECK_EQ_U64(cnt(c, POS(1)), 0);
    for (int i = 0; i < 3; i++)
        CHECK_STATUS(ins(c, POS(1)), FK_OK);
    CHECK_EQ_U64(cnt(c, POS(1)), 3); /* alone in a big filter: exact */
    CHECK_STATUS(rem(c, POS(1)), FK_OK);
    CHECK_EQ_U64(cnt(c, POS(1)), 2);
    for (int i = 0; i < 20; i++)
        CHECK_STATUS(ins(c, POS(1)), FK_OK);
    CHECK_EQ_U64(cnt(c, POS(1)), 15); /* saturated: "at least 15" */
    CHECK_EQ_U64(cnt(c, NEG(1)), 0);
    fk_counting_free(c);
}

/* ------------------------------------------------------------------- FPR */

/* Measured FPR on NEG probes after inserting n keys, within mean +- 5 sigma
 * of the binomial around theory (1 - e^{-kn/m})^k; and the answers are
 * exactly a Bloom filter's of the same m, k and seed. */
static void fpr_run(double target, uint32_t counter_bits, uint64_t probes)
{
    enum { N = 100000 };
    fk_params p = fk_params_make(N, target);
    p.seed = 2024;
    p.counter_bits = counter_bits;
    fk_counting *c;
    fk_bloom *b;
    CHECK_STATUS(fk_counting_new(&p, &c), FK_OK);
    CHECK_STATUS(fk_bloom_new(&p, &b), FK_OK);
    for (uint64_t i = 0; i < N; i++) {
        CHECK_STATUS(ins(c, POS(i)), FK_OK);
        key8 k = key_of(POS(i));
        fk_bloom_insert(b, k.b, 8);
    }
    /* Distinct keys at capacity: Fan et al.'s bound says no counter gets
     * near 16 (Pr ~ 1.37e-15 x m). */
    CHECK_EQ_U64(counting_desc(c).saturations, 0);

    uint64_t fp = 0, differ = 0;
    for (uint64_t i = 0; i < probes; i++) {
        key8 k = key_of(NEG(i));
        bool in = fk_counting_contains(c, k.b, 8);
        fp += in;
        differ += in != fk_bloom_contains(b, k.b, 8);
    }
    CHECK_EQ_U64(differ, 0);
    double theory = fk_theory_bloom_fpr(counting_desc(c).bits, counting_desc(c).hashes, N);
    double measured = (double)fp / (double)probes;
    double sigma = sqrt(theory * (1 - theory) / (double)probes);
    CHECK_MSG(fabs(measured - theory) <= 5 * sigma,
              "fpr target %g: measured %.6f, theory %.6f, 5 sigma %.6f", target, measured, theory,
              5 * sigma);
    CHECK_MSG(theory <= target * 1.1, "sizing misses the target: theory %g for %g", theory, target);

    fk_stats st;
    fk_counting_stats(c, &st);
    CHECK_EQ_U64(st.items, N);
    CHECK_EQ_U64(st.capacity, N);
    CHECK(fabs(st.load_factor - (double)bloom_desc(b).set_bits / (double)bloom_desc(b).bits) < 1e-12);
    CHECK(fabs(st.expected_fpr - pow(st.load_factor, counting_desc(c).hashes)) < 1e-12);
    CHECK(fabs(st.expected_fpr - theory) < 0.05 * theory);
    if (getenv("FK_TEST_VERBOSE"))
        printf("counting fpr target %g, %u-bit: measured %.6f theory %.6f (5 sigma %.6f) "
               "at-fill %.6f, m %" PRIu64 " k %u\n",
               target, counter_bits, measured, theory, 5 * sigma, st.expected_fpr,
               counting_desc(c).bits, counting_desc(c).hashes);
    fk_counting_free(c);
    fk_bloom_free(b);
}

TEST(fpr_matches_theory_at_1_percent_and_0_1_percent)
{
    fpr_run(0.01, 4, 400000);  /* ~4000 false positives expected */
    fpr_run(0.001, 4, 2000000); /* ~2000 */
    fpr_run(0.01, 8, 200000);
}

/* ---------------------------------------------------------------- memory */

TEST(bits_per_item_is_counter_bits_times_bloom)
{
    const double fprs[] = { 0.01, 0.001 };
    const uint32_t widths[] = { 4, 8 };
    for (int f = 0; f < 2; f++)
        for (int w = 0; w < 2; w++) {
            fk_params p = fk_params_make(100000, fprs[f]);
            p.counter_bits = widths[w];
            fk_counting *c;
            fk_bloom *b;
            CHECK_STATUS(fk_counting_new(&p, &c), FK_OK);
            CHECK_STATUS(fk_bloom_new(&p, &b), FK_OK);
            fk_stats sc, sb;
            fk_counting_stats(c, &sc);
            fk_bloom_stats(b, &sb);
            double want = widths[w] * sb.bits_per_item;
            /* Only the rounding to whole words and the struct differ. */
            CHECK_MSG(fabs(sc.bits_per_item - want) <= 0.002 * want,
                      "bits/item %.4f, want %u x %.4f", sc.bits_per_item, widths[w], sb.bits_per_item);
            CHECK(sc.memory_bytes * 8 >= counting_desc(c).bits * widths[w]);
            CHECK(fabs(sc.bits_per_item - 8.0 * (double)sc.memory_bytes / 100000.0) < 1e-9);
            CHECK_EQ_U64(sc.items, 0);
            CHECK(sc.load_factor == 0.0 && sc.expected_fpr == 0.0);
            fk_counting_free(c);
            fk_bloom_free(b);
        }
}

/* ---------------------------------------------------------------- lookups */

/* Each k up to 16 (4-bit counters) has its own straight-line lookup, chosen
 * when the filter is made, and 8-bit counters and larger k take the loop:
 * every one answers "all k counters nonzero", which fk_counting_count (the
 * smallest counter, read on its own path) says independently; the byte
 * call, the u64 call and a key of another length agree with it. */
TEST(every_lookup_path_answers_as_the_counters_say)
{
    const uint32_t ks[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 23, 40, 64 };
    const uint32_t widths[] = { 4, 8 };
    for (size_t w = 0; w < 2; w++)
        for (size_t j = 0; j < sizeof ks / sizeof ks[0]; j++) {
            fk_params p = fk_params_make(2000, 0.01);
            p.seed = 1000 + ks[j];
            p.hashes = ks[j];
            p.counter_bits = widths[w];
            fk_counting *c = NULL;
            CHECK_STATUS(fk_counting_new(&p, &c), FK_OK);
            if (!c)
                continue;
            /* fill to about half the counters nonzero, so both answers come up */
            uint64_t n = (uint64_t)(0.69 * (double)counting_desc(c).bits / ks[j]);
            for (uint64_t i = 0; i < n; i++)
                ins(c, POS(i));
            uint64_t wrong = 0, yes = 0, missed = 0, rng = 7 + j;
            for (uint64_t i = 0; i < 20000; i++) {
                uint64_t r = check_rng(&rng);
                uint64_t id = r & 1 ? POS(r % n) : NEG(r >> 1);
                key8 k = key_of(id);
                bool truth = fk_counting_count(c, k.b, 8) > 0;
                yes += truth;
                missed += (r & 1) && !has(c, id);
                wrong += fk_counting_contains(c, k.b, 8) != truth;
                wrong += fk_filter_contains_u64(&c->base, id) != truth;
                wrong += fk_filter_contains(&c->base, k.b, 8) != truth;
                wrong += fk_counting_contains(c, k.b, 5) != (fk_counting_count(c, k.b, 5) > 0);
            }
            CHECK_EQ_U64(wrong, 0);
            CHECK_EQ_U64(missed, 0);
            CHECK(yes > 9000 && yes < 19000); /* both answers were exercised */
            fk_counting_free(c);
        }
}

/* ---------------------------------------------------------------- export */

TEST(to_bloom_answers_identically_on_1m_probes)
{
    enum { N = 100000, PROBES = 1000000 };
    const uint32_t widths[] = { 4, 8 };
    for (int w = 0; w < 2; w++) {
        fk_counting *c = make(N, 0.01, 11, widths[w]);
        for (uint64_t i = 0; i < N; i++)
            ins(c, POS(i));
        for (uint64_t i = 0; i < N; i += 3)
            rem(c, POS(i)); /* some counters go back to 0 */
        fk_bloom *b = (fk_bloom *)c;
        CHECK_STATUS(fk_counting_to_bloom(c, &b), FK_OK);
        CHECK_EQ_U64(bloom_desc(b).bits, counting_desc(c).bits);
        CHECK_EQ_U64(bloom_desc(b).hashes, counting_desc(c).hashes);
        CHECK_EQ_U64(bloom_desc(b).seed, counting_desc(c).seed);
        CHECK_EQ_U64(bloom_desc(b).set_bits, fk_counting_count_nonzero(c));
        uint64_t differ = 0, rng = 99;
        for (uint64_t i = 0; i < PROBES; i++) {
            /* half inserted-or-removed keys, half never inserted */
            uint64_t r = check_rng(&rng);
            key8 k = key_of(r & 1 ? POS(r % N) : NEG(r >> 1));
            differ += fk_counting_contains(c, k.b, 8) != fk_bloom_contains(b, k.b, 8);
        }
        CHECK_EQ_U64(differ, 0);
        fk_stats sc, sb;
        fk_counting_stats(c, &sc);
        fk_bloom_stats(b, &sb);
        CHECK(sb.memory_bytes * (widths[w] - 1) < sc.memory_bytes); /* ~counter_bits x smaller */
        CHECK(sb.load_factor == sc.load_factor);
        /* items: carried over from the counting filter (what is left, N - N/3) */
        CHECK(fabs((double)sb.items - (double)sc.items) < 0.02 * (double)sc.items);
        /* the exported filter is a whole Bloom filter: it saves and loads */
        static uint8_t saved[1 << 20];
        size_t len = 0;
        fk_bloom *l = NULL;
        CHECK_STATUS(fk_bloom_save(b, saved, sizeof saved, &len), FK_OK);
        CHECK_STATUS(fk_bloom_load(saved, len, &l), FK_OK);
        CHECK(l && bloom_desc(l).set_bits == bloom_desc(b).set_bits);
        fk_bloom_free(l);
        fk_bloom_free(b);
        fk_counting_free(c);
    }
    fk_bloom *b = (fk_bloom *)&b;
    CHECK_STATUS(fk_counting_to_bloom(NULL, &b), FK_EINVAL);
    CHECK(b == NULL);
}

TEST(export_bits_checks_its_buffer)
{
    fk_params p = fk_params_make(10, 0.01);
    p.bits = 130; /* 3 words, the last one partial */
    p.hashes = 3;
    fk_counting *c;
    CHECK_STATUS(fk_counting_new(&p, &c), FK_OK);
    CHECK_EQ_U64(counting_desc(c).export_words, 3);
    uint64_t words[4] = { 7, 7, 7, 7 };
    CHECK_STATUS(fk_counting_export_bits(c, words, 2), FK_EINVAL);
    CHECK(words[0] == 7 && words[1] == 7 && words[2] == 7);
    CHECK_STATUS(fk_counting_export_bits(c, NULL, 3), FK_EINVAL);
    CHECK_STATUS(fk_counting_export_bits(NULL, words, 3), FK_EINVAL);
    for (uint64_t i = 0; i < 40; i++)
        ins(c, POS(i));
    CHECK_STATUS(fk_counting_export_bits(c, words, 3), FK_OK);
    CHECK_EQ_U64(words[3], 7); /* past nwords: untouched */
    CHECK_EQ_U64(words[2] >> 2, 0); /* past m: clear */
    for (uint64_t i = 0; i < 130; i++)
        CHECK((fk_counting_cell(c, i) != 0) == (((words[i >> 6] >> (i & 63)) & 1) != 0));
    fk_counting_free(c);

    /* fk_bloom_from_bits: its own argument checks, and bits past m dropped. */
    fk_bloom *b = (fk_bloom *)&b;
    uint64_t ones[3] = { UINT64_MAX, UINT64_MAX, UINT64_MAX };
    CHECK_STATUS(fk_bloom_from_bits(130, 3, 0, 10, 0.01, 10, NULL, &b), FK_EINVAL);
    CHECK(b == NULL);
    CHECK_STATUS(fk_bloom_from_bits(0, 3, 0, 10, 0.01, 10, ones, &b), FK_EINVAL);
    CHECK_STATUS(fk_bloom_from_bits(130, 0, 0, 10, 0.01, 10, ones, &b), FK_EINVAL);
    CHECK_STATUS(fk_bloom_from_bits(130, 65, 0, 10, 0.01, 10, ones, &b), FK_EINVAL);
    CHECK_STATUS(fk_bloom_from_bits(130, 3, 0, 0, 0.01, 10, ones, &b), FK_EINVAL);
    CHECK_STATUS(fk_bloom_from_bits(130, 3, 0, 10, 0.01, 10, ones, NULL), FK_EINVAL);
    CHECK_STATUS(fk_bloom_from_bits(130, 3, 0, 10, 0.0, 10, ones, &b), FK_EINVAL);
    CHECK_STATUS(fk_bloom_from_bits(130, 3, 0, 10, 1.0, 10, ones, &b), FK_EINVAL);
    CHECK_STATUS(fk_bloom_from_bits(130, 3, 0, 10, 0.01, 10, ones, &b), FK_OK);
    CHECK_EQ_U64(bloom_desc(b).set_bits, 130);
    fk_stats st;
    fk_bloom_stats(b, &st);
    CHECK_EQ_U64(st.items, 10); /* as given */
    fk_bloom_free(b);
}

/* ------------------------------------------------------- stats / vtable */

TEST(stats_clear_and_vtable)
{
    fk_counting *c = make(1000, 0.01, 4, 0);
    for (uint64_t i = 0; i < 500; i++)
        ins(c, POS(i));
    fk_stats st;
    fk_counting_stats(c, &st);
    CHECK_EQ_U64(st.items, 500);
    CHECK_EQ_U64(st.capacity, 1000);
    uint64_t nz = 0;
    for (uint64_t i = 0; i < counting_desc(c).bits; i++)
        nz += fk_counting_cell(c, i) != 0;
    CHECK_EQ_U64(fk_counting_count_nonzero(c), nz);
    CHECK(st.load_factor == (double)nz / (double)counting_desc(c).bits);
    CHECK(st.expected_fpr == pow(st.load_factor, counting_desc(c).hashes));
    CHECK_EQ_U64(fk_counting_cell(c, counting_desc(c).bits), 0); /* out of range */
    fk_counting_free(c);

    const fk_ops *ops = fk_ops_find("counting");
    CHECK(ops == &fk_counting_ops);
    CHECK(fk_ops_caps(ops) == (FK_CAP_REMOVE | FK_CAP_COUNT | FK_CAP_SERIALIZE));
    CHECK(ops->remove != NULL);
    fk_params p = fk_params_make(1000, 0.01);
    fk_filter *f;
    CHECK_STATUS(fk_filter_new(ops, &p, &f), FK_OK);
    CHECK(fk_filter_ops(f) == ops);
    CHECK_STATUS(fk_filter_insert(f, "pear", 4), FK_OK);
    CHECK(fk_filter_contains(f, "pear", 4));
    CHECK_STATUS(fk_filter_remove(f, "pear", 4), FK_OK);
    CHECK(!fk_filter_contains(f, "pear", 4));
    CHECK_STATUS(fk_filter_remove(f, "pear", 4), FK_ENOTFOUND);
    fk_filter_stats(f, &st);
    CHECK_EQ_U64(st.items, 0);
    fk_filter_free(f);
}

int main(void)
{
    RUN(bad_params_are_einval_and_out_is_null);
    RUN(sizing_and_probes_are_the_bloom_filters);
    RUN(null_key_with_length_is_einval_and_changes_nothing);
    RUN(model_based_inserts_and_removes_match_a_multiset);
    RUN(saturated_counters_stick_and_protect_other_keys);
    RUN(concurrent_writers_saturate_as_single_ones);
    RUN(removing_every_other_key_leaves_no_false_negatives);
    RUN(removing_an_absent_key_is_enotfound_and_changes_nothing);
    RUN(count_is_an_upper_bound_on_multiplicity);
    RUN(fpr_matches_theory_at_1_percent_and_0_1_percent);
    RUN(bits_per_item_is_counter_bits_times_bloom);
    RUN(every_lookup_path_answers_as_the_counters_say);
    RUN(to_bloom_answers_identically_on_1m_probes);
    RUN(export_bits_checks_its_buffer);
    RUN(stats_clear_and_vtable);
    return check_report();
}
