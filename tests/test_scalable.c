/* tests/test_scalable.c: the growing filters (scalable/scalable.h): zero
 * insert failures and zero false negatives through 1000x growth, the
 * measured FPR within a binomial bound of the target, removes through
 * growth against an exact multiset, the chain's shape and saved form, bad
 * params and the memory cap. The big runs are scaled down under ASan. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "golden.h"
#include "keys.h"
#include "../common/filter.h"
#include "../scalable/scalable.h"
#include "../scalable/scalable_internal.h"
#include "../common/serial.h"
#include "../common/endian.h"
#include "../common/hash.h"
#include "../registry/registry.h"
#include "../bloom/bloom.h"
#include "../bloom/bloom_internal.h"
#include "../cuckoo/cuckoo.h"
#include "../cuckoo/cuckoo_internal.h"
#include "../blocked/blocked.h"
#include "describe.h"

static fk_filter *make(const fk_ops *ops, uint64_t capacity, double fpr, uint64_t seed)
{
    fk_params p = fk_params_make(capacity, fpr);
    p.seed = seed;
    fk_filter *f = NULL;
    fk_status s = fk_filter_new(ops, &p, &f);
    CHECK_MSG(s == FK_OK, "%s: new(%llu, %g) = %s", ops->name, (unsigned long long)capacity, fpr,
              fk_status_name(s));
    return f;
}

/* Largest count of false positives out of n trials at rate p that is
 * still consistent with p: mean + 5 standard deviations (a fixed seed, so
 * the test is deterministic; a rate above p by that margin is a defect). */
static uint64_t binomial_ceiling(uint64_t n, double p)
{
    double mean = (double)n * p;
    return (uint64_t)(mean + 5.0 * sqrt(mean * (1.0 - p)) + 1.0);
}

/* Grows kind from `capacity` to `n` keys: every insert FK_OK, every key
 * found, the FPR over `probes` negatives at most the target. */
static void grow_and_check(const fk_ops *ops, uint64_t capacity, uint64_t n, double fpr,
                           uint64_t probes)
{
    fk_filter *f = make(ops, capacity, fpr, 7);
    if (!f)
        return;
    uint64_t failed = 0, missing = 0, false_pos = 0;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t k = keys_positive(i);
        failed += fk_filter_insert(f, &k, sizeof k) != FK_OK;
    }
    for (uint64_t i = 0; i < n; i++) {
        uint64_t k = keys_positive(i);
        missing += !fk_filter_contains(f, &k, sizeof k);
    }
    for (uint64_t j = 0; j < probes; j++) {
        uint64_t k = keys_negative(j);
        false_pos += fk_filter_contains(f, &k, sizeof k);
    }
    fk_stats st;
    fk_filter_stats(f, &st);
    uint64_t ceiling = binomial_ceiling(probes, fpr);
    CHECK_MSG(failed == 0, "%s %llu->%llu: %llu inserts failed", ops->name,
              (unsigned long long)capacity, (unsigned long long)n, (unsigned long long)failed);
    CHECK_MSG(missing == 0, "%s %llu->%llu: %llu false negatives", ops->name,
              (unsigned long long)capacity, (unsigned long long)n, (unsigned long long)missing);
    CHECK_MSG(false_pos <= ceiling, "%s fpr %g: %llu false positives of %llu (ceiling %llu)",
              ops->name, fpr, (unsigned long long)false_pos, (unsigned long long)probes,
              (unsigned long long)ceiling);
    CHECK_EQ_U64(st.items, n);
    CHECK_MSG(st.expected_fpr <= fpr, "%s: compound expected fpr %g over target %g", ops->name,
              st.expected_fpr, fpr);
    CHECK(fk_scalable_links(f) > 1);
    fk_filter_free(f);
}

TEST(thousandfold_growth_holds_the_target)
{
    const uint64_t start = FK_TEST_SCALE(1000, 100), n = FK_TEST_SCALE(1000000, 100000);
    const uint64_t probes = FK_TEST_SCALE(1000000, 100000);
    const char *kinds[] = { "scalable-bloom", "scalable-cuckoo", "scalable-blocked" };
    const double fprs[] = { 0.01, 0.001 };
    for (size_t k = 0; k < 3; k++)
        for (size_t i = 0; i < 2; i++)
            grow_and_check(fk_ops_find(kinds[k]), start, n, fprs[i], probes);
}

/* Capacity 10^4 to 10^7: full scale only (about 12 s of the run; ASan
 * would make it minutes; at small scale the thousandfold growth above
 * covers the chain, at both targets for each kind). One target per kind
 * here: the chain's length, not the target, is what 10^7 adds. */
TEST(growth_to_ten_million)
{
    if (check_small_scale())
        return;
    grow_and_check(fk_ops_find("scalable-bloom"), 10000, 10000000, 0.01, 1000000);
    grow_and_check(fk_ops_find("scalable-cuckoo"), 10000, 10000000, 0.001, 1000000);
}

/* ------------------------------------------------------ model sequence */

static uint64_t rng_state = UINT64_C(0x9E3779B97F4A7C15);
static uint64_t rng_next(void)
{
    rng_state += UINT64_C(0x9E3779B97F4A7C15);
    return keys_mix(rng_state);
}

/* Reloads f from its saved bytes (the chain must survive a round trip at
 * any point of its life), or keeps it when saving fails (reported). */
static fk_filter *round_trip(fk_filter *f)
{
    uint64_t n = 0;
    CHECK_STATUS(fk_filter_serialized_size(f, &n), FK_OK);
    uint8_t *buf = malloc((size_t)n);
    if (!buf)
        return f;
    size_t len = 0;
    fk_filter *g = NULL;
    CHECK_STATUS(fk_filter_save(f, buf, (size_t)n, &len), FK_OK);
    CHECK_STATUS(fk_filter_load_any(buf, len, &g), FK_OK);
    free(buf);
    if (!g)
        return f;
    CHECK(fk_filter_ops(g) == fk_filter_ops(f));
    CHECK_EQ_U64(fk_scalable_links(g), fk_scalable_links(f));
    fk_filter_free(f);
    return g;
}

/* Random inserts, removes and lookups on scalable-cuckoo against an exact
 * multiset, from capacity 64 through several links: every present key is
 * found, every remove of a present key succeeds, removes of absent keys
 * answer FK_ENOTFOUND, and items matches. The fpr is 1e-6 so that a remove
 * taking a colliding fingerprint of another key from a newer link (the
 * one way a chain of deletable filters can lose a key; expected
 * ops x 1e-6 times) stays out of a deterministic run. */
/* Redis's default CF key: links of 1024, 2048, ... at a chain fpr of 1%. */
static fk_filter *cf_default_chain(uint64_t seed)
{
    fk_params p = fk_params_make(1024, 0.01);
    p.seed = seed;
    p.growth = 2;
    fk_filter *f = NULL;
    CHECK_STATUS(fk_filter_new(&fk_scalable_cuckoo_ops, &p, &f), FK_OK);
    return f;
}

/* A remove of an inserted key takes a copy only from the one link that
 * answers yes for it, so no other key is ever made absent (scalable.h,
 * "Removes"). Model: an exact multiset of copies per key; inserts of new
 * keys and of present ones (duplicates), removes of present keys, 10^6 of
 * them, the whole pool checked for false negatives at every phase. */
TEST(removes_of_inserted_keys_lose_no_other_key)
{
    const uint64_t removes_wanted = FK_TEST_SCALE(1000000u, 100000u);
    const uint64_t pool = removes_wanted * 2;
    uint8_t *copies = calloc(pool, 1);
    fk_filter *f = cf_default_chain(11);
    if (!copies || !f) {
        free(copies);
        fk_filter_free(f);
        CHECK(0);
        return;
    }
    uint64_t next = 0, removes = 0, lost = 0, kept = 0, bad = 0, state = 0x2545f4914f6cdd1dull;
    for (int phase = 0; phase < 4; phase++) {
        /* insert the next quarter of the pool (5% of them twice) */
        for (uint64_t end = next + pool / 4; next < end; next++) {
            uint64_t k = keys_positive(next);
            int times = (next % 20 == 0) ? 2 : 1;
            for (int t = 0; t < times; t++) {
                bad += fk_filter_insert(f, &k, sizeof k) != FK_OK;
                copies[next]++;
            }
        }
        /* remove a copy of random present keys: half of the pool in all */
        for (uint64_t n = 0; n < removes_wanted / 4; n++) {
            uint64_t i;
            do {
                state ^= state << 13, state ^= state >> 7, state ^= state << 17;
                i = state % next;
            } while (!copies[i]);
            uint64_t k = keys_positive(i);
            bad += fk_filter_remove(f, &k, sizeof k) != FK_OK;
            copies[i]--;
            removes++;
        }
        for (uint64_t i = 0; i < next; i++) {
            uint64_t k = keys_positive(i);
            bool in = fk_filter_contains(f, &k, sizeof k);
            lost += copies[i] && !in;
            kept += !copies[i] && in;
        }
    }
    /* the bound is 1 per 10^6 removes; the policy promises 0 */
    CHECK_MSG(lost == 0, "%llu keys lost in %llu removes", (unsigned long long)lost,
              (unsigned long long)removes);
    CHECK_EQ_U64(bad, 0);
    CHECK_EQ_U64(removes, removes_wanted);
    /* removed keys still answering yes: false positives and ambiguous
     * removes, both under the chain's 1% (summed over the 4 checks) */
    CHECK_MSG(kept < 4 * pool / 100, "%llu removed keys still answer yes", (unsigned long long)kept);
    size_t links = fk_scalable_links(f);
    CHECK_MSG(links <= 20, "%zu links", links);
    printf("  %llu removes, %llu lost, %llu removed keys answering yes over 4 checks, %zu links\n",
           (unsigned long long)removes, (unsigned long long)lost, (unsigned long long)kept, links);
    fk_filter_free(f);
    free(copies);
}

/* One link's copies: matching fingerprints in the key's two buckets. */
static fk_status cuckoo_copies(const fk_filter *link, const void *key, size_t len, uint64_t *count)
{
    const fk_cuckoo *c = (const fk_cuckoo *)(const void *)link;
    fk_cuckoo_location loc;
    *count = 0;
    fk_status s = fk_cuckoo_locate(c, key, len, &loc);
    if (s != FK_OK)
        return s;
    unsigned per = (unsigned)(cuckoo_desc(c).slots / cuckoo_desc(c).buckets);
    for (unsigned j = 0; j < per; j++) {
        *count += fk_cuckoo_cell(c, loc.i1, j) == loc.fingerprint;
        if (loc.i2 != loc.i1)
            *count += fk_cuckoo_cell(c, loc.i2, j) == loc.fingerprint;
    }
    return FK_OK;
}

TEST(count_sums_the_copies_over_the_chain)
{
    fk_filter *f = cf_default_chain(3);
    if (!f)
        return;
    for (uint64_t i = 0; i < 20000; i++) { /* 5 links */
        uint64_t k = keys_positive(i);
        CHECK_STATUS(fk_filter_insert(f, &k, sizeof k), FK_OK);
    }
    CHECK(fk_scalable_links(f) >= 4);
    uint64_t n = 99, old = keys_positive(5), fresh = keys_negative(1);
    for (int t = 0; t < 5; t++) {
        CHECK_STATUS(fk_filter_insert(f, &old, sizeof old), FK_OK);
        CHECK_STATUS(fk_filter_insert(f, &fresh, sizeof fresh), FK_OK);
    }
    CHECK_STATUS(fk_scalable_count(f, &old, sizeof old, cuckoo_copies, &n), FK_OK);
    CHECK_EQ_U64(n, 6);
    CHECK_STATUS(fk_scalable_count(f, &fresh, sizeof fresh, cuckoo_copies, &n), FK_OK);
    CHECK_EQ_U64(n, 5);
    CHECK_STATUS(fk_filter_remove(f, &fresh, sizeof fresh), FK_OK);
    CHECK_STATUS(fk_scalable_count(f, &fresh, sizeof fresh, cuckoo_copies, &n), FK_OK);
    CHECK_EQ_U64(n, 4);
    CHECK_STATUS(fk_scalable_count(f, NULL, 1, cuckoo_copies, &n), FK_EINVAL);
    CHECK_STATUS(fk_scalable_count(f, &old, sizeof old, NULL, &n), FK_EINVAL);
    fk_filter_free(f);
}

TEST(growth_stops_at_max_bytes)
{
    const fk_ops *kinds[] = { &fk_scalable_bloom_ops, &fk_scalable_cuckoo_ops };
    for (size_t k = 0; k < 2; k++) {
        fk_params p = fk_params_make(1000, 0.01);
        p.growth = 8;
        p.max_bytes = 1u << 20;
        fk_filter *f = NULL;
        CHECK_STATUS(fk_filter_new(kinds[k], &p, &f), FK_OK);
        if (!f)
            continue;
        CHECK_EQ_U64(fk_scalable_max_bytes(f), 1u << 20);
        uint64_t i = 0, inserted = 0;
        fk_status s = FK_OK;
        for (; i < 2000000 && s == FK_OK; i++) {
            uint64_t key = keys_positive(i);
            s = fk_filter_insert(f, &key, sizeof key);
            inserted += s == FK_OK;
        }
        CHECK_STATUS(s, FK_ELIMIT);
        fk_stats st;
        fk_filter_stats(f, &st);
        CHECK(st.memory_bytes <= p.max_bytes);
        CHECK_EQ_U64(st.memory_bytes, fk_scalable_memory_bytes(f));
        CHECK_EQ_U64(st.items, inserted);
        size_t links = fk_scalable_links(f);
        uint64_t again = keys_positive(i);
        CHECK_STATUS(fk_filter_insert(f, &again, sizeof again), FK_ELIMIT); /* nothing changed */
        CHECK_EQ_U64(fk_scalable_links(f), links);
        uint64_t missing = 0;
        for (uint64_t j = 0; j + 1 < i; j++) {
            uint64_t key = keys_positive(j);
            missing += !fk_filter_contains(f, &key, sizeof key);
        }
        CHECK_EQ_U64(missing, 0);
        /* the limit is not saved: a loaded chain has the default until set */
        uint64_t n = 0;
        CHECK_STATUS(fk_filter_serialized_size(f, &n), FK_OK);
        uint8_t *buf = malloc(n);
        fk_filter *g = NULL;
        if (buf && fk_filter_save(f, buf, n, NULL) == FK_OK &&
            fk_filter_load_any(buf, n, &g) == FK_OK) {
            CHECK_EQ_U64(fk_scalable_max_bytes(g), FK_MEMORY_CAP);
            CHECK_STATUS(fk_filter_set_max_bytes(g, 1u << 20), FK_OK);
            CHECK_STATUS(fk_filter_insert(g, &again, sizeof again), FK_ELIMIT);
            CHECK_STATUS(fk_filter_set_max_bytes(g, 0), FK_OK);
            CHECK_STATUS(fk_filter_insert(g, &again, sizeof again), FK_OK);
        } else {
            CHECK(0);
        }
        fk_filter_free(g);
        free(buf);
        fk_filter_free(f);
    }
    CHECK_STATUS(fk_filter_set_max_bytes(NULL, 1), FK_EINVAL);
}

TEST(max_bytes_refuses_at_create)
{
    fk_filter *f = (fk_filter *)&f;
    fk_params p = fk_params_make(1000000, 0.01);
    p.max_bytes = 1u << 20; /* a million-key Bloom filter needs ~1.2 MB */
    CHECK_STATUS(fk_filter_new(&fk_bloom_ops, &p, &f), FK_ELIMIT);
    CHECK(f == NULL);
    CHECK_STATUS(fk_filter_new(&fk_scalable_bloom_ops, &p, &f), FK_ELIMIT);
    p.max_bytes = 0;
    CHECK_STATUS(fk_filter_new(&fk_bloom_ops, &p, &f), FK_OK);
    fk_filter_free(f);
    /* a first link that fits, a first growth step that does not */
    p = fk_params_make(10000, 0.01);
    p.growth = 65536;
    p.max_bytes = 1u << 30;
    CHECK_STATUS(fk_filter_new(&fk_scalable_bloom_ops, &p, &f), FK_ELIMIT);
    p.max_bytes = 0; /* the library's default lets it be made */
    CHECK_STATUS(fk_filter_new(&fk_scalable_bloom_ops, &p, &f), FK_OK);
    fk_filter_free(f);
    CHECK(strcmp(fk_status_name(FK_ELIMIT), "FK_ELIMIT") == 0);
}

TEST(model_sequence_through_growth_with_removes)
{
    enum { POOL = 6000 };
    const unsigned ops_count = FK_TEST_SCALE(300000, 60000);
    static uint32_t copies[POOL];
    memset(copies, 0, sizeof copies);
    fk_filter *f = make(&fk_scalable_cuckoo_ops, 64, 1e-6, 3);
    if (!f)
        return;
    uint64_t present = 0, bad_insert = 0, bad_remove = 0, bad_absent = 0, missing = 0;
    uint64_t removes = 0, stale = 0;
    for (unsigned step = 0; step < ops_count; step++) {
        uint64_t r = rng_next();
        uint64_t i = (r >> 8) % POOL;
        uint64_t k = keys_positive(i);
        switch (r & 7) {
        case 0: case 1: case 2: case 3: /* insert; the pool grows as the run goes */
            /* at most 3 copies of a key: a link holds at most 8 copies of
             * one key (its two buckets), so every 8 more open a link */
            i = (r >> 8) % (200 + (POOL - 200) * (uint64_t)step / ops_count);
            k = keys_positive(i);
            if (copies[i] >= 3)
                break;
            if (fk_filter_insert(f, &k, sizeof k) == FK_OK) {
                copies[i]++;
                present++;
            } else {
                bad_insert++;
            }
            break;
        case 4: case 5: { /* remove */
            fk_status s = fk_filter_remove(f, &k, sizeof k);
            removes++;
            if (copies[i]) {
                bad_remove += s != FK_OK;
                if (s == FK_OK) {
                    copies[i]--;
                    present--;
                }
            } else {
                /* a copy an ambiguous remove kept (scalable.h, "Removes") */
                stale += s == FK_OK;
                bad_absent += s != FK_ENOTFOUND && s != FK_OK;
            }
            break;
        }
        default: /* lookup */
            if (copies[i])
                missing += !fk_filter_contains(f, &k, sizeof k);
            break;
        }
        if (step % (ops_count / 4) == ops_count / 8)
            f = round_trip(f);
    }
    for (uint64_t i = 0; i < POOL; i++) {
        uint64_t k = keys_positive(i);
        if (copies[i])
            missing += !fk_filter_contains(f, &k, sizeof k);
    }
    fk_stats st;
    fk_filter_stats(f, &st);
    CHECK_EQ_U64(bad_insert, 0);
    CHECK_EQ_U64(bad_remove, 0);
    CHECK_EQ_U64(bad_absent, 0);
    CHECK_EQ_U64(missing, 0);
    /* copies kept by ambiguous removes (here: copies that spilled over
     * tiny full links) are counted in items, never fewer than the model */
    CHECK_MSG(stale * 100 <= removes, "%llu stale of %llu removes", (unsigned long long)stale,
              (unsigned long long)removes);
    CHECK_MSG(st.items >= present, "items %llu, model %llu, %llu removes", (unsigned long long)st.items, (unsigned long long)present, (unsigned long long)removes);
    CHECK_MSG(fk_scalable_links(f) >= 4, "only %zu links: the run did not grow the chain",
              fk_scalable_links(f));
    fk_filter_free(f);
}

/* ---------------------------------------------------------- the chain */

/* A Bloom chain fills link i to exactly c0 s^i before opening the next;
 * each link is sized for e0 r^i; the compound figures add up. */
TEST(chain_shape_follows_growth_and_tightening)
{
    fk_params p = fk_params_make(100, 0.01);
    p.growth = 3;
    p.tightening = 0.5;
    fk_filter *f = NULL;
    CHECK_STATUS(fk_filter_new(&fk_scalable_bloom_ops, &p, &f), FK_OK);
    if (!f)
        return;
    uint32_t s = 0;
    double r = 0;
    CHECK_STATUS(fk_scalable_knobs(f, &s, &r), FK_OK);
    CHECK(s == 3 && r == 0.5);
    uint64_t inserted = 0;
    for (; inserted < 100 + 300 + 900; inserted++) {
        CHECK_EQ_U64(fk_scalable_links(f), inserted <= 100 ? 1 : inserted <= 400 ? 2 : 3);
        uint64_t k = keys_positive(inserted);
        CHECK_STATUS(fk_filter_insert(f, &k, sizeof k), FK_OK);
    }
    CHECK_EQ_U64(fk_scalable_links(f), 3); /* the next link opens at the next insert */
    uint64_t k = keys_positive(inserted);
    CHECK_STATUS(fk_filter_insert(f, &k, sizeof k), FK_OK);
    CHECK_EQ_U64(fk_scalable_links(f), 4);
    fk_stats st, ls;
    fk_filter_stats(f, &st);
    uint64_t memory = 0, items = 0, cap = 100;
    double e = 0.01 * 0.5, none = 1.0, target = 0, prev = 0, spent = 0;
    for (size_t i = 0; i < 4; i++, cap *= 3, e *= 0.5) {
        CHECK_STATUS(fk_scalable_link_stats(f, i, &ls, &target), FK_OK);
        CHECK_EQ_U64(ls.capacity, cap);
        /* link 0 exactly e0; then at least the link before's times r, and
         * at most the budget of links 0..i less what 0..i-1 spend */
        double budget = 0.01 * (1.0 - pow(0.5, (double)i + 1)) - spent;
        if (i == 0)
            CHECK_MSG(target == e, "link 0 sized for %g, not %g", target, e);
        else
            CHECK_MSG(target >= prev * 0.5 && target <= budget * (1 + 1e-12),
                      "link %zu sized for %g: not in [%g, %g]", i, target, prev * 0.5, budget);
        if (i < 3) { /* full links: what they spend is their FPR now */
            CHECK(ls.items == ls.capacity);
            spent += ls.expected_fpr;
            CHECK(spent <= 0.01 * (1.0 - pow(0.5, (double)i + 1)) * (1 + 1e-12));
        }
        prev = target;
        memory += ls.memory_bytes;
        items += ls.items;
        none *= 1.0 - ls.expected_fpr;
    }
    CHECK_STATUS(fk_scalable_link_stats(f, 4, &ls, &target), FK_EINVAL);
    CHECK(target == 0.0 && ls.items == 0);
    CHECK_EQ_U64(items, st.items);
    CHECK_EQ_U64(st.capacity, 100 + 300 + 900 + 2700);
    CHECK(st.memory_bytes > memory && st.memory_bytes < memory + 4096);
    CHECK(fabs(st.expected_fpr - (1.0 - none)) < 1e-12);
    CHECK(st.expected_fpr < 0.01);
    CHECK(fk_scalable_inner(f) == &fk_bloom_ops);
    fk_filter_free(f);
}

/* fk_scalable_new over any kind: counting (removes, not registered as a
 * growing kind) grows and removes, and cannot be saved; over bloom it
 * answers FK_EUNSUPPORTED to a remove. */
TEST(generic_wrapper_over_any_kind)
{
    fk_params p = fk_params_make(50, 0.01);
    fk_filter *f = NULL;
    CHECK_STATUS(fk_scalable_new(&fk_counting_ops, &p, &f), FK_OK);
    if (!f)
        return;
    CHECK(fk_ops_caps(fk_filter_ops(f)) & FK_CAP_GROWS);
    CHECK(fk_ops_caps(fk_filter_ops(f)) & FK_CAP_REMOVE);
    for (uint64_t i = 0; i < 1000; i++) {
        uint64_t k = keys_positive(i);
        CHECK_STATUS(fk_filter_insert(f, &k, sizeof k), FK_OK);
    }
    CHECK(fk_scalable_links(f) >= 5);
    for (uint64_t i = 0; i < 1000; i += 2) {
        uint64_t k = keys_positive(i);
        CHECK_STATUS(fk_filter_remove(f, &k, sizeof k), FK_OK);
    }
    uint64_t missing = 0;
    for (uint64_t i = 1; i < 1000; i += 2) {
        uint64_t k = keys_positive(i);
        missing += !fk_filter_contains(f, &k, sizeof k);
    }
    CHECK_EQ_U64(missing, 0);
    fk_stats st;
    fk_filter_stats(f, &st);
    CHECK_EQ_U64(st.items, 500);
    uint64_t n = 0;
    CHECK_STATUS(fk_filter_serialized_size(f, &n), FK_EUNSUPPORTED);
    fk_filter_free(f);

    CHECK_STATUS(fk_scalable_new(&fk_bloom_ops, &p, &f), FK_OK);
    CHECK(!(fk_ops_caps(fk_filter_ops(f)) & FK_CAP_REMOVE));
    CHECK_STATUS(fk_filter_remove(f, "a", 1), FK_EUNSUPPORTED);
    CHECK_STATUS(fk_filter_insert(f, NULL, 1), FK_EINVAL);
    CHECK(!fk_filter_contains(f, NULL, 1));
    CHECK_STATUS(fk_filter_insert(f, NULL, 0), FK_OK); /* the empty key is a key */
    CHECK(fk_filter_contains(f, NULL, 0));
    /* concurrent inserts through the inner kind's own */
    CHECK_STATUS(fk_filter_insert_concurrent(f, "a", 1), FK_OK);
    CHECK(fk_filter_contains_concurrent(f, "a", 1));
    CHECK_STATUS(fk_filter_remove_concurrent(f, "a", 1), FK_EUNSUPPORTED);
    fk_filter_free(f);
    /* an inner kind without a concurrent insert: the chain has none */
    fk_ops serial_bloom = fk_bloom_ops;
    serial_bloom.insert_concurrent = NULL;
    CHECK_STATUS(fk_scalable_new(&serial_bloom, &p, &f), FK_OK);
    CHECK_STATUS(fk_filter_insert_concurrent(f, "a", 1), FK_EUNSUPPORTED);
    CHECK(!fk_filter_contains_concurrent(f, "a", 1));
    fk_filter_free(f);
    CHECK(fk_scalable_links(NULL) == 0);
    CHECK(fk_scalable_inner(NULL) == NULL);
    CHECK_STATUS(fk_scalable_knobs(NULL, NULL, NULL), FK_EINVAL);
}

/* The batch calls (the chain's batch slots: each link's own pipeline)
 * insert through growth into the same links as single inserts would, and
 * answer exactly as the single calls, bytes and u64 alike. */
TEST(batches_grow_and_answer_as_single_calls)
{
    enum { N = 20000 };
    static uint64_t keys[2 * N];
    static uint8_t le[2 * N][8]; /* each key as the 8 little-endian bytes _u64 hashes */
    static bool many[2 * N];
    static const void *ptrs[2 * N];
    static size_t lens[2 * N];
    for (uint64_t i = 0; i < 2 * N; i++) {
        keys[i] = i < N ? keys_positive(i) : keys_negative(i);
        for (int b = 0; b < 8; b++)
            le[i][b] = (uint8_t)(keys[i] >> (8 * b));
        ptrs[i] = le[i];
        lens[i] = 8;
    }
    static bool many64[2 * N];
    const fk_ops *kinds[] = { &fk_scalable_bloom_ops, &fk_scalable_cuckoo_ops,
                              &fk_scalable_blocked_ops };
    for (size_t n = 0; n < sizeof kinds / sizeof kinds[0]; n++) {
        fk_filter *f = make(kinds[n], 100, 0.01, 5), *g = make(kinds[n], 100, 0.01, 5);
        if (!f || !g) {
            fk_filter_free(f);
            fk_filter_free(g);
            continue;
        }
        size_t done = 0;
        CHECK_STATUS(fk_filter_insert_many_u64(f, N, keys, &done), FK_OK);
        CHECK_EQ_U64(done, N);
        CHECK(fk_scalable_links(f) >= 7);
        for (uint64_t i = 0; i < N; i++)
            CHECK_STATUS(fk_filter_insert(g, le[i], 8), FK_OK);
        CHECK_EQ_U64(fk_scalable_links(f), fk_scalable_links(g));
        fk_filter_contains_many(f, 2 * N, ptrs, lens, many);
        fk_filter_contains_many_u64(f, 2 * N, keys, many64);
        uint64_t differ = 0, missing = 0;
        for (uint64_t i = 0; i < 2 * N; i++) {
            bool one = fk_filter_contains(f, le[i], 8);
            differ += many[i] != one || many64[i] != one || fk_filter_contains_u64(f, keys[i]) != one;
            differ += one != fk_filter_contains(g, le[i], 8); /* the same bits as single inserts */
            missing += i < N && !many[i];
        }
        CHECK_MSG(differ == 0, "%s: %llu answers differ", kinds[n]->name, (unsigned long long)differ);
        CHECK_EQ_U64(missing, 0);
        fk_filter_free(f);
        fk_filter_free(g);
    }
}

/* ------------------------------------------------------------- params */

TEST(bad_params_are_einval)
{
    fk_filter *f = (fk_filter *)&f;
    fk_params p = fk_params_make(1000, 0.01);
    CHECK_STATUS(fk_scalable_new(NULL, &p, &f), FK_EINVAL);
    CHECK(f == NULL);
    CHECK_STATUS(fk_scalable_new(&fk_bloom_ops, NULL, &f), FK_EINVAL);
    CHECK_STATUS(fk_scalable_new(&fk_bloom_ops, &p, NULL), FK_EINVAL);
    /* a growing kind cannot be the inner kind */
    CHECK_STATUS(fk_scalable_new(&fk_scalable_bloom_ops, &p, &f), FK_EINVAL);
    const double bad_r[] = { 1.0, -0.5, 1.5, NAN, INFINITY, -1e-300 };
    for (size_t i = 0; i < sizeof bad_r / sizeof bad_r[0]; i++) {
        fk_params q = p;
        q.tightening = bad_r[i];
        CHECK_MSG(fk_filter_new(&fk_scalable_cuckoo_ops, &q, &f) == FK_EINVAL && !f,
                  "tightening %g accepted", bad_r[i]);
    }
    const double bad_fpr[] = { 0.0, 1.0, -0.1, NAN, INFINITY };
    for (size_t i = 0; i < sizeof bad_fpr / sizeof bad_fpr[0]; i++) {
        fk_params q = p;
        q.fpr = bad_fpr[i];
        CHECK_STATUS(fk_filter_new(&fk_scalable_bloom_ops, &q, &f), FK_EINVAL);
    }
    fk_params q = p;
    q.capacity = 0;
    CHECK_STATUS(fk_filter_new(&fk_scalable_bloom_ops, &q, &f), FK_EINVAL);
    q = p;
    q.reserved = 1;
    CHECK_STATUS(fk_filter_new(&fk_scalable_bloom_ops, &q, &f), FK_EINVAL);
    fk_sizing sz;
    CHECK_STATUS(fk_ops_size(&fk_scalable_bloom_ops, &q, &sz), FK_EINVAL);
    q = p;
    q.growth = FK_SCALABLE_MAX_GROWTH + 1;
    CHECK_STATUS(fk_filter_new(&fk_scalable_bloom_ops, &q, &f), FK_EINVAL);
    /* growth 1 is a chain of equal links (RedisBloom's EXPANSION 1) */
    q = p;
    q.growth = 1;
    CHECK_STATUS(fk_filter_new(&fk_scalable_bloom_ops, &q, &f), FK_OK);
    fk_filter_free(f);
}

/* A link over FK_MEMORY_CAP is refused with FK_EINVAL before anything is
 * allocated, the chain unchanged; so is a link the inner kind refuses (a
 * cuckoo fingerprint past 32 bits). */
TEST(memory_cap_refuses_the_next_link_and_changes_nothing)
{
    const uint64_t c0 = UINT64_C(1) << 20;
    fk_params p = fk_params_make(c0, 0.01);
    p.growth = FK_SCALABLE_MAX_GROWTH; /* link 1 would hold 2^36 keys: 82 GB > 64 GiB */
    fk_filter *f = NULL;
    CHECK_STATUS(fk_filter_new(&fk_scalable_bloom_ops, &p, &f), FK_OK);
    if (!f)
        return;
    for (uint64_t i = 0; i < c0; i++) {
        uint64_t k = keys_positive(i);
        CHECK_STATUS(fk_filter_insert(f, &k, sizeof k), FK_OK);
    }
    fk_stats before, after;
    fk_filter_stats(f, &before);
    uint64_t k = keys_positive(c0);
    CHECK_STATUS(fk_filter_insert(f, &k, sizeof k), FK_EINVAL);
    CHECK_STATUS(fk_filter_insert(f, &k, sizeof k), FK_EINVAL);
    fk_filter_stats(f, &after);
    CHECK(memcmp(&before, &after, sizeof before) == 0);
    CHECK_EQ_U64(fk_scalable_links(f), 1);
    uint64_t missing = 0;
    for (uint64_t i = 0; i < c0; i++) {
        uint64_t key = keys_positive(i);
        missing += !fk_filter_contains(f, &key, sizeof key);
    }
    CHECK_EQ_U64(missing, 0);
    fk_filter_free(f);

    /* A tightening whose powers underflow (link 3's e0 r^3 would be
     * 1e-302 x 1e-100 = 0): the budget links leave unspent keeps every
     * link's fpr positive, so the chain still grows, or stops with
     * FK_EINVAL (fingerprints too wide for the inner kind) and nothing
     * lost. */
    p = fk_params_make(8, 0.01);
    p.tightening = 1e-100;
    CHECK_STATUS(fk_filter_new(&fk_scalable_cuckoo_ops, &p, &f), FK_OK);
    if (!f)
        return;
    fk_status s = FK_OK;
    uint64_t i = 0;
    for (; i < 100000 && s == FK_OK; i++) {
        k = keys_positive(i);
        s = fk_filter_insert(f, &k, sizeof k);
    }
    if (s == FK_OK)
        i++; /* every key went in: count the last one too */
    CHECK_MSG(s == FK_OK || s == FK_EINVAL, "insert answered %s", fk_status_name(s));
    CHECK(fk_scalable_links(f) >= 4);
    missing = 0;
    for (uint64_t j = 0; j + 1 < i; j++) {
        uint64_t key = keys_positive(j);
        missing += !fk_filter_contains(f, &key, sizeof key);
    }
    CHECK_EQ_U64(missing, 0);
    fk_filter_stats(f, &after);
    CHECK_EQ_U64(after.items, i - 1);
    fk_filter_free(f);
}

/* ----------------------------------------------------------- saving */

/* A grown chain reloads (through its own table and through load_any) as
 * the same kind, answers identically and re-saves to the same bytes;
 * another growing kind's table refuses it. */
TEST(saved_chain_round_trips_and_keeps_its_inner_kind)
{
    const fk_ops *kinds[] = { &fk_scalable_bloom_ops, &fk_scalable_blocked_ops,
                              &fk_scalable_cuckoo_ops };
    for (size_t n = 0; n < 3; n++) {
        fk_filter *f = make(kinds[n], 200, 0.01, 11);
        if (!f)
            continue;
        for (uint64_t i = 0; i < 5000; i++) {
            uint64_t k = keys_positive(i);
            CHECK_STATUS(fk_filter_insert(f, &k, sizeof k), FK_OK);
        }
        uint64_t size = 0;
        CHECK_STATUS(fk_filter_serialized_size(f, &size), FK_OK);
        uint8_t *a = malloc((size_t)size), *b = malloc((size_t)size);
        size_t len = 0, len2 = 0;
        CHECK_STATUS(fk_filter_save(f, a, (size_t)size, &len), FK_OK);
        fk_filter *g = NULL;
        CHECK_STATUS(fk_filter_load_any(a, len, &g), FK_OK);
        if (g) {
            CHECK(fk_filter_ops(g) == kinds[n]);
            CHECK_STATUS(fk_filter_save(g, b, (size_t)size, &len2), FK_OK);
            CHECK(len == len2 && memcmp(a, b, len) == 0);
            uint64_t differ = 0;
            for (uint64_t j = 0; j < 100000; j++) {
                uint64_t k = keys_mix(j + 77);
                differ += fk_filter_contains(f, &k, sizeof k) != fk_filter_contains(g, &k, sizeof k);
            }
            CHECK_EQ_U64(differ, 0);
            fk_stats sf, sg;
            fk_filter_stats(f, &sf);
            fk_filter_stats(g, &sg);
            CHECK(memcmp(&sf, &sg, sizeof sf) == 0);
            fk_filter_free(g);
        }
        for (size_t m = 0; m < 3; m++) {
            g = NULL;
            CHECK_STATUS(fk_filter_load(kinds[m], a, len, &g), m == n ? FK_OK : FK_ECORRUPT);
            fk_filter_free(g);
        }
        free(a);
        free(b);
        fk_filter_free(f);
    }
}

/* The budget a link leaves unspent goes to the next (scalable.h): a CF
 * key's default chain (capacity 1024, growth 2, fpr 1%) filled with 10^6
 * keys spends at most 1.5x the bits per item of one cuckoo filter sized
 * for them (issue 22's target; with every link at e0 r^i it took 1.56x),
 * and its links' FPRs when full still sum to at most the target. */
TEST(unspent_budget_carries_to_the_next_link)
{
    /* small scale: 125,000 keys, the 7 links of 1024..65536 nearly full, as
     * 10^6 fills 10 links (a chain just past a link boundary pays for an
     * empty newest link) */
    uint64_t n = FK_TEST_SCALE(1000000, 125000);
    fk_filter *chain = cf_default_chain(3);
    fk_filter *fixed = make(&fk_cuckoo_ops, n, 0.01, 3);
    if (!chain || !fixed)
        goto out;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t k = keys_positive(i);
        CHECK_STATUS(fk_filter_insert_u64(chain, k), FK_OK);
        CHECK_STATUS(fk_filter_insert_u64(fixed, k), FK_OK);
    }
    fk_stats sc, sf, ls;
    fk_filter_stats(chain, &sc);
    fk_filter_stats(fixed, &sf);
    double ratio = (double)sc.memory_bytes / (double)sf.memory_bytes;
    CHECK_MSG(ratio <= 1.5, "chain %llu bytes, fixed %llu: %.3fx",
              (unsigned long long)sc.memory_bytes, (unsigned long long)sf.memory_bytes, ratio);
    size_t links = fk_scalable_links(chain);
    CHECK(links >= 7 && links <= 20);
    double spent = 0, target = 0;
    for (size_t i = 0; i < links; i++) {
        CHECK_STATUS(fk_scalable_link_stats(chain, i, &ls, &target), FK_OK);
        fk_params q = fk_params_make(ls.capacity, target);
        double full = 0;
        CHECK_STATUS(fk_ops_expected_fpr(&fk_cuckoo_ops, &q, (double)ls.capacity, &full),
                     FK_OK);
        spent += full;
    }
    CHECK_MSG(spent <= 0.01, "links spend %g of 0.01", spent);
    uint64_t missing = 0;
    for (uint64_t i = 0; i < n; i++)
        missing += !fk_filter_contains_u64(chain, keys_positive(i));
    CHECK_EQ_U64(missing, 0);
out:
    fk_filter_free(chain);
    fk_filter_free(fixed);
}

/* tests/golden/scalable-*-0.2.fk were saved by 0.2.0, every link at
 * e0 r^i: they load, answer as then (hit count and FNV-1a of 200,000
 * probes taken with the library before the change), and grow under the
 * new rule into a chain that saves and loads again. */
TEST(chains_saved_by_0_2_load_answer_and_grow)
{
    static const struct {
        const char *file;
        uint64_t hits, digest;
    } legacy[] = {
        { "scalable-bloom-0.2.fk", 684, UINT64_C(0x3c6cb331f55cec71) },
        { "scalable-blocked-0.2.fk", 29, UINT64_C(0x842011d3996087a8) },
        { "scalable-cuckoo-0.2.fk", 179, UINT64_C(0x00b898b6acf2bbf2) },
    };
    for (size_t n = 0; n < sizeof legacy / sizeof legacy[0]; n++) {
        size_t len = 0;
        uint8_t *buf = golden_read(legacy[n].file, &len);
        fk_filter *f = NULL;
        CHECK_STATUS(fk_filter_load_any(buf, len, &f), FK_OK);
        free(buf);
        if (!f)
            continue;
        double target = 0, e = 0;
        fk_stats ls;
        for (size_t i = 0; i < fk_scalable_links(f); i++) {
            CHECK_STATUS(fk_scalable_link_stats(f, i, &ls, &target), FK_OK);
            e = i == 0 ? target : e * 0.9;
            CHECK_MSG(target == e, "%s link %zu: %g, not %g", legacy[n].file, i, target, e);
        }
        uint64_t h = UINT64_C(1469598103934665603), hits = 0;
        char key[32];
        for (int i = 0; i < 200000; i++) {
            int m = snprintf(key, sizeof key, "probe-%d", i);
            bool a = fk_filter_contains(f, key, (size_t)m);
            hits += a;
            h = (h ^ (uint64_t)a) * UINT64_C(1099511628211);
        }
        for (int i = 10; i < 80; i++) {
            int m = snprintf(key, sizeof key, "key-%d", i);
            CHECK_MSG(fk_filter_contains(f, key, (size_t)m), "%s: key-%d", legacy[n].file, i);
        }
        if (getenv("FK_PRINT_DIGESTS"))
            fprintf(stderr, "%s %llu 0x%016llx\n", legacy[n].file, (unsigned long long)hits,
                    (unsigned long long)h);
        CHECK_EQ_U64(hits, legacy[n].hits);
        CHECK_EQ_U64(h, legacy[n].digest);
        /* grown past its links under the new rule, then saved and loaded */
        size_t before = fk_scalable_links(f);
        for (uint64_t i = 0; i < 2000; i++)
            CHECK_STATUS(fk_filter_insert_u64(f, keys_positive(i)), FK_OK);
        CHECK(fk_scalable_links(f) > before);
        f = round_trip(f); /* reloaded (round_trip frees the original) */
        uint64_t missing = 0;
        for (uint64_t i = 0; i < 2000; i++)
            missing += !fk_filter_contains_u64(f, keys_positive(i));
        CHECK_EQ_U64(missing, 0);
        fk_filter_free(f);
    }
}

/* A link whose saved fpr is above what the chain derives (or below the
 * old rule's) is corrupt: the loader accepts only the two rules. */
TEST(a_link_fpr_off_the_rules_is_corrupt)
{
    fk_filter *f = make(&fk_scalable_cuckoo_ops, 16, 0.01, 5);
    if (!f)
        return;
    for (uint64_t i = 0; i < 200; i++)
        CHECK_STATUS(fk_filter_insert_u64(f, keys_positive(i)), FK_OK);
    CHECK(fk_scalable_links(f) >= 3);
    uint64_t size = 0;
    CHECK_STATUS(fk_filter_serialized_size(f, &size), FK_OK);
    uint8_t *a = malloc((size_t)size);
    size_t len = 0;
    CHECK_STATUS(fk_filter_save(f, a, (size_t)size, &len), FK_OK);
    fk_filter_free(f);
    if (!a)
        return;
    /* link 1's own file starts after the chain's header, link 0's length
     * word, link 0, and link 1's length word; its fpr is at byte 32 */
    const size_t head = FK_SERIAL_HEADER_BYTES;
    size_t len0 = (size_t)fk_le_get64(a + head);
    size_t link1 = head + 8 + len0 + 8, len1 = (size_t)fk_le_get64(a + head + 8 + len0);
    double was = fk_le_get_f64(a + link1 + 32);
    CHECK(was > 0.0009 && was < 0.01);
    const double forged[] = { was * 2.0, was * 0.5, 0.5 };
    for (size_t i = 0; i < 3; i++) {
        uint8_t *b = malloc(len);
        memcpy(b, a, len);
        fk_le_put_f64(b + link1 + 32, forged[i]);
        /* both checksums resealed: the link's and the chain's */
        fk_le_put64(b + link1 + len1 - 8, XXH64(b + link1, len1 - 8, 0));
        fk_le_put64(b + len - 8, XXH64(b, len - 8, 0));
        fk_filter *g = NULL;
        CHECK_STATUS(fk_filter_load_any(b, len, &g), FK_ECORRUPT);
        CHECK(g == NULL);
        free(b);
    }
    free(a);
}

/* ------------------------------------------ one hash per key per chain
 *
 * A registered chain hashes a key once and probes every link from the
 * hash (common/hashed.h); a chain of the same inner kind made through
 * fk_scalable_new has no hashed table and lets each link hash the key
 * itself. Built from the same keys with the same seed, the two hold the
 * same bits, so every answer must agree, for every call. */

/* Key i as bytes of a length that varies with i (0 to 40: the 8-byte
 * path, the short ones, and the cuckoo's long-key path). */
static size_t bytes_key(uint64_t i, uint64_t salt, uint8_t out[48])
{
    size_t len = (size_t)(keys_mix(i ^ salt) % 41);
    for (size_t b = 0; b < len; b += 8) {
        uint64_t w = keys_mix(i * 41 + b + salt);
        memcpy(out + b, &w, 8);
    }
    return len;
}

/* keys_positive from an offset (the keys inserted as integers). */
static uint64_t positive_offset;
static uint64_t positive_from_offset(uint64_t i) { return keys_positive(i + positive_offset); }

/* Asks both chains about n keys (bytes when `bytes`, else integers) from
 * `from`, singly and in batches, and checks every answer agrees; with
 * `present` every answer must be yes. Returns the keys answered yes. */
static uint64_t compare_answers(const fk_filter *hashed, const fk_filter *per_link, uint64_t n,
                                uint64_t (*from)(uint64_t), bool bytes, bool present)
{
    enum { BLOCK = 1000 };
    static uint8_t store[BLOCK][48];
    const void *keys[BLOCK];
    size_t lens[BLOCK];
    uint64_t ints[BLOCK];
    bool a[BLOCK], b[BLOCK];
    uint64_t yes = 0, bad = 0;
    for (uint64_t at = 0; at < n; at += BLOCK) {
        size_t m = n - at < BLOCK ? (size_t)(n - at) : BLOCK;
        for (size_t j = 0; j < m; j++) {
            ints[j] = from(at + j);
            lens[j] = bytes_key(ints[j], 7, store[j]);
            keys[j] = store[j];
        }
        if (bytes) {
            fk_filter_contains_many(hashed, m, keys, lens, a);
            fk_filter_contains_many(per_link, m, keys, lens, b);
        } else {
            fk_filter_contains_many_u64(hashed, m, ints, a);
            fk_filter_contains_many_u64(per_link, m, ints, b);
        }
        for (size_t j = 0; j < m; j++) {
            bool one = bytes ? fk_filter_contains(hashed, keys[j], lens[j])
                             : fk_filter_contains_u64(hashed, ints[j]);
            bool two = bytes ? fk_filter_contains(per_link, keys[j], lens[j])
                             : fk_filter_contains_u64(per_link, ints[j]);
            bool ok = one == two && a[j] == one && b[j] == one && (!present || one);
            bad += !ok;
            yes += one;
        }
    }
    CHECK_MSG(bad == 0, "%s: %llu of %llu %s %s keys answer differently (hashed vs per link, "
              "single vs batch)", hashed->ops->name, (unsigned long long)bad,
              (unsigned long long)n, present ? "inserted" : "absent", bytes ? "byte" : "u64");
    return yes;
}

/* The registered chains that hash a key once, and their inner kinds. */
static const fk_ops *const hashing_chains[3] = { &fk_scalable_bloom_ops, &fk_scalable_blocked_ops,
                                                 &fk_scalable_cuckoo_ops };
static const fk_ops *const hashing_inner[3] = { &fk_bloom_ops, &fk_blocked_ops, &fk_cuckoo_ops };

/* hashing_chains[k] made twice from p: registered (*h, which hashes once)
 * and through fk_scalable_new (*g, which hashes in every link). false, both
 * NULL, when either could not be made. */
static bool chain_pair(size_t k, const fk_params *p, fk_filter **h, fk_filter **g)
{
    *h = *g = NULL;
    CHECK_STATUS(fk_filter_new(hashing_chains[k], p, h), FK_OK);
    CHECK_STATUS(fk_scalable_new(hashing_inner[k], p, g), FK_OK);
    if (*h && *g) {
        CHECK_MSG(((const fk_scalable *)*h)->hash_once, "%s: the registry bound no hashed "
                  "table", hashing_chains[k]->name);
        CHECK(!((const fk_scalable *)*g)->hash_once);
        return true;
    }
    fk_filter_free(*h);
    fk_filter_free(*g);
    *h = *g = NULL;
    return false;
}

TEST(one_hash_per_key_answers_as_the_per_link_path)
{
    const fk_ops *const *kinds = hashing_chains;
    /* (capacity, keys): one link, a few, many */
    const uint64_t shapes[][2] = { { 5000, 4000 }, { 1000, 7000 }, { 300, 20000 } };
    const uint64_t absent = FK_TEST_SCALE(100000, 20000);
    for (size_t k = 0; k < 3; k++) {
        for (size_t sh = 0; sh < 3; sh++) {
            fk_params p = fk_params_make(shapes[sh][0], 0.01);
            p.seed = 0x5eed + sh;
            fk_filter *h, *g;
            if (!chain_pair(k, &p, &h, &g))
                continue;
            /* the same keys into both, through every insert call: a third
             * as bytes one by one, a third as integers one by one, a third
             * as an integer batch */
            const uint64_t n = shapes[sh][1], third = n / 3;
            uint64_t statuses_differ = 0;
            uint8_t buf[48];
            for (uint64_t i = 0; i < n; i++) {
                uint64_t key = keys_positive(i);
                fk_status a = FK_OK, b = FK_OK;
                if (i < third) {
                    /* short keys repeat (a cuckoo link refuses a 9th copy:
                     * FK_EFULL); both chains must say the same */
                    size_t len = bytes_key(key, 7, buf);
                    a = fk_filter_insert(h, buf, len);
                    b = fk_filter_insert(g, buf, len);
                } else if (i < 2 * third) {
                    a = fk_filter_insert_u64(h, key);
                    b = fk_filter_insert_u64(g, key);
                }
                statuses_differ += a != b || (a != FK_OK && a != FK_EFULL);
            }
            CHECK_MSG(statuses_differ == 0, "%s: %llu inserts answered differently",
                      kinds[k]->name, (unsigned long long)statuses_differ);
            uint64_t rest[20000];
            size_t m = 0, done = 0;
            for (uint64_t i = 2 * third; i < n; i++)
                rest[m++] = keys_positive(i);
            CHECK_STATUS(fk_filter_insert_many_u64(h, m, rest, &done), FK_OK);
            CHECK_STATUS(fk_filter_insert_many_u64(g, m, rest, &done), FK_OK);
            CHECK_MSG(fk_scalable_links(h) == fk_scalable_links(g) &&
                          (sh == 0 || fk_scalable_links(h) >= 3),
                      "%s: %zu and %zu links", kinds[k]->name, fk_scalable_links(h),
                      fk_scalable_links(g));
            fk_stats sa, sb;
            fk_filter_stats(h, &sa);
            fk_filter_stats(g, &sb);
            CHECK(sa.items == sb.items && sa.load_factor == sb.load_factor);
            /* inserted keys: the byte third as bytes, the rest as u64 */
            compare_answers(h, g, third, keys_positive, true, true);
            positive_offset = third;
            compare_answers(h, g, n - third, positive_from_offset, false, true);
            /* absent keys, both forms, with false positives agreeing */
            uint64_t fp = compare_answers(h, g, absent, keys_negative, true, false);
            fp += compare_answers(h, g, absent, keys_negative, false, false);
            CHECK_MSG(fp < 2 * absent / 20, "%s: %llu false positives", kinds[k]->name,
                      (unsigned long long)fp);
            fk_filter_free(h);
            fk_filter_free(g);
        }
    }
}


TEST(one_hash_per_key_keeps_inserted_u64_keys)
{
    fk_params p = fk_params_make(500, 0.01);
    p.seed = 99;
    for (size_t k = 0; k < 3; k++) {
        fk_filter *h, *g;
        if (!chain_pair(k, &p, &h, &g))
            continue;
        for (uint64_t i = 0; i < 10000; i++) {
            CHECK_STATUS(fk_filter_insert_u64(h, keys_positive(i)), FK_OK);
            CHECK_STATUS(fk_filter_insert_u64(g, keys_positive(i)), FK_OK);
        }
        CHECK(fk_scalable_links(h) >= 4);
        compare_answers(h, g, 10000, keys_positive, false, true);
        /* loaded, the chain takes each link's probes again and hashes once */
        h = round_trip(h);
        CHECK_MSG(((const fk_scalable *)h)->hash_once, "%s: a loaded chain hashes per link",
                  hashing_chains[k]->name);
        compare_answers(h, g, 10000, keys_positive, false, true);
        compare_answers(h, g, 10000, keys_negative, false, false);
        fk_filter_free(h);
        fk_filter_free(g);
    }
}

/* Issue 48: a chain's item count near 2^64. A scalable-bloom chain of
 * capacity 3 growing by 2 has links of 3 2^i keys; 63 of them (tiny Bloom
 * filters of 64 bits, as a forged record can carry: the loader checks each
 * link's capacity, fpr and seed against the chain's rules, not its size)
 * may hold 2^64 - 2 keys in all, the newest with room left. The loader
 * takes it; two inserts wrapped the chain's count to 0 and its save no
 * longer loaded (the links' counts overflow the header's). The count now
 * stops at UINT64_MAX (the header's is the links' sum, capped). */
TEST(a_chain_count_near_2_to_the_64_saves_a_record_that_loads)
{
    const fk_ops *outer = fk_ops_find("scalable-bloom");
    fk_params p = fk_params_make(3, 0.01);
    p.seed = 48;
    p.growth = 2;
    uint32_t growth = 0;
    double r = 0;
    CHECK_STATUS(fk_scalable_knobs_check(&p, &growth, &r), FK_OK);
    fk_scalable *c = outer ? fk_scalable_alloc(outer, &fk_bloom_ops, &p, growth, r,
                                               fk_scalable_slots(63)) : NULL;
    CHECK(c != NULL);
    if (!c)
        return;
    fk_params q = c->first;
    uint64_t total = 0;
    for (size_t i = 0; i < 63; i++) {
        if (i > 0)
            CHECK_STATUS(fk_scalable_next_params(c, &q, &q), FK_OK);
        fk_bloom *b = NULL;
        CHECK_STATUS(fk_bloom_create_exact(64, 1, q.seed, q.capacity, q.fpr, &b), FK_OK);
        if (!b)
            break;
        uint64_t items = i < 62 ? q.capacity : UINT64_MAX - 1 - total; /* the newest: room */
        CHECK(items <= q.capacity);
        b->items = items;
        c->link[c->count++] = (fk_scalable_link){ &b->base, q.capacity, q.fpr, items,
                                                  { NULL, NULL }, { 0, 0 } };
        c->spent += fk_scalable_link_spend(&fk_bloom_ops, &q);
        total += items;
    }
    c->items = total;
    CHECK_EQ_U64(total, UINT64_MAX - 1);
    uint64_t n = 0;
    CHECK_STATUS(fk_filter_serialized_size(&c->base, &n), FK_OK);
    uint8_t *buf = malloc((size_t)n);
    size_t w = 0;
    CHECK(buf && fk_filter_save(&c->base, buf, (size_t)n, &w) == FK_OK && w == n);
    fk_filter_free(&c->base);
    fk_filter *f = NULL;
    CHECK_STATUS(buf ? fk_filter_load_any(buf, (size_t)n, &f) : FK_ENOMEM, FK_OK);
    for (uint64_t k = 0; f && k < 5; k++) {
        CHECK_STATUS(fk_filter_insert_u64(f, k), FK_OK);
        fk_stats st;
        fk_filter_stats(f, &st);
        CHECK_EQ_U64(st.items, UINT64_MAX); /* it stops there */
        uint64_t m = 0;
        CHECK_STATUS(fk_filter_serialized_size(f, &m), FK_OK);
        uint8_t *again = malloc((size_t)m);
        fk_filter *g = NULL;
        CHECK_MSG(again && fk_filter_save(f, again, (size_t)m, &w) == FK_OK &&
                      fk_filter_load_any(again, (size_t)m, &g) == FK_OK,
                  "the save after %llu inserts does not load", (unsigned long long)k + 1);
        CHECK(g == NULL || fk_filter_contains_u64(g, k));
        fk_filter_free(g);
        free(again);
    }
    fk_filter_free(f);
    free(buf);
}

int main(void)
{
    RUN(bad_params_are_einval);
    RUN(chain_shape_follows_growth_and_tightening);
    RUN(generic_wrapper_over_any_kind);
    RUN(batches_grow_and_answer_as_single_calls);
    RUN(memory_cap_refuses_the_next_link_and_changes_nothing);
    RUN(saved_chain_round_trips_and_keeps_its_inner_kind);
    RUN(chains_saved_by_0_2_load_answer_and_grow);
    RUN(a_link_fpr_off_the_rules_is_corrupt);
    RUN(unspent_budget_carries_to_the_next_link);
    RUN(model_sequence_through_growth_with_removes);
    RUN(removes_of_inserted_keys_lose_no_other_key);
    RUN(count_sums_the_copies_over_the_chain);
    RUN(a_chain_count_near_2_to_the_64_saves_a_record_that_loads);
    RUN(growth_stops_at_max_bytes);
    RUN(max_bytes_refuses_at_create);
    RUN(thousandfold_growth_holds_the_target);
    RUN(growth_to_ten_million);
    RUN(one_hash_per_key_answers_as_the_per_link_path);
    RUN(one_hash_per_key_keeps_inserted_u64_keys);
    return check_report();
}
