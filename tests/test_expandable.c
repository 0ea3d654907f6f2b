/* tests/test_expandable.c: the expandable filter (expandable/expandable.h).
 *
 * Model-based: random inserts, removes and lookups against an exact
 * multiset while the filter doubles, with a save/load round trip and the
 * invariant check at every doubling; zero false negatives throughout; the
 * measured FPR after each doubling within a binomial bound of the stated
 * bound; voids (entries out of bits) kept and removable; growth up to the
 * memory limit refused with FK_ELIMIT and nothing lost; forged files
 * refused. */
#include <math.h>
#include "check.h"
#include "forge.h"
#include "golden.h"
#include "../expandable/expandable.h"
#include "../expandable/expandable_internal.h"
#include "../registry/registry.h"

static fk_expandable *make(uint64_t capacity, double fpr, uint32_t fp_bits, uint64_t seed)
{
    fk_params p = fk_params_make(capacity, fpr);
    p.fingerprint_bits = fp_bits;
    p.seed = seed;
    fk_expandable *xf = NULL;
    CHECK_STATUS(fk_expandable_new(&p, &xf), FK_OK);
    return xf;
}

static uint8_t *save(const fk_expandable *xf, size_t *len)
{
    uint64_t n = 0;
    fk_filter *f = fk_expandable_as_filter((fk_expandable *)(uintptr_t)xf);
    if (fk_filter_serialized_size(f, &n) != FK_OK)
        return NULL;
    uint8_t *buf = malloc((size_t)n);
    if (buf && fk_expandable_save(xf, buf, (size_t)n, len) != FK_OK) {
        free(buf);
        return NULL;
    }
    return buf;
}

static uint32_t doublings(const fk_expandable *xf)
{
    fk_expandable_description d;
    fk_expandable_describe(xf, &d);
    return d.doublings;
}

/* absent keys: ids with the top bit set are never inserted */
static uint64_t absent_key(uint64_t i) { return i | (UINT64_C(1) << 63); }

/* ------------------------------------------------------- model-based */

typedef struct {
    uint64_t *keys;   /* distinct keys by id */
    uint32_t *count;  /* the multiset */
    size_t n;
} model;

/* Every key the model holds answers true; items agree. */
static void check_no_false_negatives(const fk_expandable *xf, const model *m)
{
    uint64_t fn = 0, total = 0;
    for (size_t i = 0; i < m->n; i++) {
        total += m->count[i];
        if (m->count[i] && !fk_expandable_contains_u64(xf, m->keys[i]))
            fn++;
    }
    CHECK_EQ_U64(fn, 0);
    fk_stats st;
    fk_filter_stats(fk_expandable_as_filter((fk_expandable *)(uintptr_t)xf), &st);
    CHECK_EQ_U64(st.items, total);
}

TEST(model_sequences_while_growing)
{
    const size_t pool = check_small_scale() ? 6000 : 20000;
    for (uint64_t seed = 1; seed <= 3; seed++) {
        model m = { calloc(pool, 8), calloc(pool, 4), pool };
        uint64_t rng = seed * 977;
        for (size_t i = 0; i < pool; i++)
            m.keys[i] = check_rng(&rng) >> 1;
        fk_expandable *xf = make(60, 0.001, 0, seed);
        uint32_t seen = 0;
        for (size_t step = 0; xf && step < 3 * pool; step++) {
            size_t i = (size_t)(check_rng(&rng) % pool);
            uint64_t op = check_rng(&rng) % 10;
            if (op < 6) { /* insert (duplicates allowed) */
                CHECK_STATUS(fk_expandable_insert_u64(xf, m.keys[i]), FK_OK);
                m.count[i]++;
            } else if (op < 8) { /* remove a present key (an absent one may
                                    take a colliding key's entry: never) */
                if (m.count[i]) {
                    CHECK_STATUS(fk_expandable_remove_u64(xf, m.keys[i]), FK_OK);
                    m.count[i]--;
                }
            } else if (m.count[i]) {
                CHECK(fk_expandable_contains_u64(xf, m.keys[i]));
            }
            if (doublings(xf) != seen) { /* at every doubling: check, save, load */
                seen = doublings(xf);
                CHECK(fk_xf_check_canonical(xf));
                check_no_false_negatives(xf, &m);
                size_t len = 0;
                uint8_t *buf = save(xf, &len);
                fk_expandable *back = NULL;
                CHECK(buf != NULL);
                if (buf)
                    CHECK_STATUS(fk_expandable_load(buf, len, &back), FK_OK);
                if (back) {
                    size_t len2 = 0;
                    uint8_t *again = save(back, &len2);
                    CHECK(again && len2 == len && memcmp(again, buf, len) == 0);
                    free(again);
                    for (uint64_t k = 0; k < 2000; k++)
                        CHECK(fk_expandable_contains_u64(back, absent_key(k)) ==
                              fk_expandable_contains_u64(xf, absent_key(k)));
                    fk_expandable_free(xf); /* go on with the loaded one */
                    xf = back;
                }
                free(buf);
            }
        }
        CHECK(seen >= 5); /* 60 -> ~ 60 * 2^6 */
        if (xf) {
            CHECK(fk_xf_check_canonical(xf));
            check_no_false_negatives(xf, &m);
            /* remove everything: the filter ends empty */
            for (size_t i = 0; i < pool; i++)
                while (m.count[i]) {
                    CHECK_STATUS(fk_expandable_remove_u64(xf, m.keys[i]), FK_OK);
                    m.count[i]--;
                }
            fk_expandable_description d;
            fk_expandable_describe(xf, &d);
            CHECK_EQ_U64(d.entries + d.voids, 0);
            CHECK(fk_xf_check_canonical(xf));
        }
        fk_expandable_free(xf);
        free(m.keys);
        free(m.count);
    }
}

/* ------------------------------------------------------------- FPR */

/* measured false positives over `probes` absent keys must stay under the
 * binomial mean + 4 sd (+ 3) of `bound` */
static void check_fpr_under(const fk_expandable *xf, double bound, uint64_t probes,
                            uint64_t salt)
{
    uint64_t fp = 0;
    for (uint64_t k = 0; k < probes; k++)
        fp += fk_expandable_contains_u64(xf, absent_key(salt * probes + k));
    double mean = bound * (double)probes;
    double limit = mean + 4 * sqrt(mean * (1 - bound)) + 3;
    CHECK_MSG((double)fp <= limit, "%llu false positives over %llu probes, bound %.3g allows %.0f",
              (unsigned long long)fp, (unsigned long long)probes, bound, limit);
    fk_stats st;
    fk_filter_stats(fk_expandable_as_filter((fk_expandable *)(uintptr_t)xf), &st);
    /* the reported (exact union-bound) figure is itself under the stated bound */
    CHECK(st.expected_fpr <= bound * 1.0001);
}

TEST(fpr_held_after_each_doubling)
{
    /* F = 6 makes the rate measurable: bound 0.9 2^-6 (1 + G/2) */
    const uint64_t probes = check_small_scale() ? 20000 : 100000;
    fk_expandable *xf = make(500, 0.01, 6, 7);
    uint64_t k = 0;
    for (uint32_t g = 0; xf && g <= 5; g++) {
        while (doublings(xf) == g && k < (UINT64_C(500) << g)) /* fill to the limit */
            CHECK_STATUS(fk_expandable_insert_u64(xf, k++), FK_OK);
        double bound = 0.9 * ldexp(1.0, -6) * (1.0 + g / 2.0);
        check_fpr_under(xf, bound, probes, g);
    }
    fk_expandable_free(xf);

    /* the default sizing for 0.1% over a 1024-fold growth: at most 0.1%
     * (F = 13: 0.9 2^-13 (1 + 10/2) = 6.6e-4, F = 12 would give 1.3e-3) */
    xf = make(100, 0.001, 0, 8);
    fk_expandable_description d;
    fk_expandable_describe(xf, &d);
    CHECK_EQ_U64(d.slot_bits, 14);
    CHECK_EQ_U64(d.fingerprint_bits, 13);
    for (k = 0; xf && k < (check_small_scale() ? 25600u : 102400u); k++)
        CHECK_STATUS(fk_expandable_insert_u64(xf, k), FK_OK);
    check_fpr_under(xf, 0.001, probes, 99);
    fk_expandable_free(xf);
}

TEST(sizing_follows_fpr_and_growth)
{
    fk_params p = fk_params_make(1000, 1e-7);
    fk_expandable *xf = NULL;
    CHECK_STATUS(fk_expandable_new(&p, &xf), FK_OK);
    fk_expandable_description d;
    fk_expandable_describe(xf, &d);
    /* 0.9 2^-F (1 + 10/2) <= 1e-7: F = 26, in 27-bit slots */
    CHECK_EQ_U64(d.slot_bits, 27);
    CHECK_EQ_U64(d.fingerprint_bits, 26);
    CHECK_EQ_U64(d.growth, FK_EXPANDABLE_DEFAULT_GROWTH);
    fk_expandable_free(xf);
    p = fk_params_make(1000, 0.001);
    p.growth = 1u << 20; /* 20 doublings need F >= 20 (14 bits meet 0.1%) */
    CHECK_STATUS(fk_expandable_new(&p, &xf), FK_OK);
    fk_expandable_describe(xf, &d);
    CHECK_EQ_U64(d.fingerprint_bits, 20);
    CHECK_EQ_U64(d.slot_bits, 21);
    fk_expandable_free(xf);
    p = fk_params_make(1000, 1e-12); /* past 31 bits: F = 31, W = 32 */
    CHECK_STATUS(fk_expandable_new(&p, &xf), FK_OK);
    fk_expandable_describe(xf, &d);
    CHECK_EQ_U64(d.slot_bits, 32);
    fk_expandable_free(xf);
    p = fk_params_make(1000, 0.001);
    p.fingerprint_bits = 32;
    CHECK_STATUS(fk_expandable_new(&p, &xf), FK_EINVAL);
    p.fingerprint_bits = 0;
    p.max_load = 1.0;
    CHECK_STATUS(fk_expandable_new(&p, &xf), FK_EINVAL);
    p.max_load = 0;
    p.max_bytes = 100;
    CHECK_STATUS(fk_expandable_new(&p, &xf), FK_ELIMIT);
}

/* ----------------------------------------------------------- voids */

TEST(entries_out_of_bits_go_void_and_stay_found)
{
    /* F = 3: entries of the first table run out after 3 doublings */
    fk_expandable *xf = make(64, 0.1, 3, 11);
    const uint64_t n = 64u << 6;
    for (uint64_t k = 0; xf && k < n; k++)
        CHECK_STATUS(fk_expandable_insert_u64(xf, k), FK_OK);
    fk_expandable_description d;
    fk_expandable_describe(xf, &d);
    CHECK(d.doublings == 6);
    CHECK(d.voids > 0);
    CHECK(d.void_share > 0 && d.void_share < 0.5);
    CHECK_EQ_U64(d.entries + d.voids, n);
    for (uint64_t k = 0; xf && k < n; k++)
        CHECK(fk_expandable_contains_u64(xf, k));
    /* a round trip keeps the voids */
    size_t len = 0;
    uint8_t *buf = save(xf, &len);
    fk_expandable *back = NULL;
    CHECK(buf && fk_expandable_load(buf, len, &back) == FK_OK);
    free(buf);
    /* remove every key: voids included, nothing is lost on the way */
    for (uint64_t k = 0; back && k < n; k++) {
        CHECK_STATUS(fk_expandable_remove_u64(back, k), FK_OK);
        if (k % 512 == 511)
            for (uint64_t j = k + 1; j < n; j += 7)
                CHECK(fk_expandable_contains_u64(back, j));
    }
    if (back) {
        fk_expandable_describe(back, &d);
        CHECK_EQ_U64(d.entries + d.voids, 0);
    }
    fk_expandable_free(back);
    fk_expandable_free(xf);
}

/* ----------------------------------------------------------- limits */

TEST(growth_to_the_memory_limit_refused_nothing_lost)
{
    fk_params p = fk_params_make(1000, 0.001);
    p.max_bytes = 32000; /* the first table and two doublings fit (14-bit slots) */
    fk_expandable *xf = NULL;
    CHECK_STATUS(fk_expandable_new(&p, &xf), FK_OK);
    uint64_t k = 0;
    fk_status s = FK_OK;
    while (xf && (s = fk_expandable_insert_u64(xf, k)) == FK_OK)
        k++;
    CHECK_STATUS(s, FK_ELIMIT);
    CHECK(k >= 2000 && k < 16000);
    fk_stats st;
    fk_filter_stats(fk_expandable_as_filter(xf), &st);
    CHECK_EQ_U64(st.items, k);
    CHECK(st.memory_bytes <= 40000);
    for (uint64_t j = 0; j < k; j++)
        CHECK(fk_expandable_contains_u64(xf, j));
    /* a remove makes room again */
    CHECK_STATUS(fk_expandable_remove_u64(xf, 0), FK_OK);
    CHECK_STATUS(fk_expandable_insert_u64(xf, k), FK_OK);
    CHECK_STATUS(fk_expandable_insert_u64(xf, k + 1), FK_ELIMIT);
    /* a batch stops at the same place */
    uint64_t more[3] = { k + 1, k + 2, k + 3 };
    size_t done = 9;
    CHECK_STATUS(fk_filter_insert_many_u64(fk_expandable_as_filter(xf), 3, more, &done),
                 FK_ELIMIT);
    CHECK_EQ_U64(done, 0);
    fk_expandable_free(xf);
}

/* ------------------------------------------------- calls agree */

TEST(remove_takes_the_longest_match_and_calls_agree)
{
    fk_expandable *xf = make(50, 0.01, 0, 3);
    fk_filter *f = fk_expandable_as_filter(xf);
    CHECK_STATUS(fk_expandable_insert(xf, "apple", 5), FK_OK);
    CHECK_STATUS(fk_expandable_insert(xf, "apple", 5), FK_OK);
    CHECK_STATUS(fk_expandable_remove(xf, "apple", 5), FK_OK);
    CHECK(fk_expandable_contains(xf, "apple", 5));
    CHECK_STATUS(fk_expandable_remove(xf, "apple", 5), FK_OK);
    CHECK(!fk_expandable_contains(xf, "apple", 5));
    CHECK_STATUS(fk_expandable_remove(xf, "apple", 5), FK_ENOTFOUND);
    CHECK_STATUS(fk_expandable_insert(xf, NULL, 0), FK_OK);
    CHECK(fk_expandable_contains(xf, NULL, 0));
    CHECK_STATUS(fk_expandable_insert(xf, NULL, 3), FK_EINVAL);
    CHECK_STATUS(fk_expandable_insert(NULL, "a", 1), FK_EINVAL);
    CHECK(!fk_expandable_contains(NULL, "a", 1));
    /* an old key (short fingerprint) and keys added after doublings */
    enum { N = 3000 };
    static uint64_t keys[N];
    static bool got[N];
    static const void *ptrs[N];
    static size_t lens[N];
    for (size_t i = 0; i < N; i++) {
        keys[i] = i * 0x9E3779B97F4A7C15u;
        ptrs[i] = &keys[i]; /* the LE bytes on the little-endian hosts we test on */
        lens[i] = 8;
    }
    size_t done = 0;
    CHECK_STATUS(fk_filter_insert_many(f, N / 2, ptrs, lens, &done), FK_OK);
    CHECK_EQ_U64(done, N / 2);
    CHECK_STATUS(fk_filter_insert_many_u64(f, N / 2, keys + N / 2, &done), FK_OK);
    CHECK(doublings(xf) >= 5);
    fk_filter_contains_many_u64(f, N, keys, got);
    for (size_t i = 0; i < N; i++)
        CHECK(got[i] && fk_filter_contains(f, ptrs[i], 8));
    for (uint64_t k = 0; k < 20000; k++) {
        uint64_t key = absent_key(k);
        CHECK(fk_filter_contains_u64(f, key) == fk_filter_contains(f, &key, 8));
    }
    fk_expandable_free(xf);
}

/* ---------------------------------------------------- forged files */

static uint8_t *reseal(const uint8_t *buf, size_t len, size_t at, uint8_t xor_with)
{
    uint8_t *copy = malloc(len);
    if (!copy)
        return NULL;
    memcpy(copy, buf, len);
    copy[at] ^= xor_with;
    forge_reseal(copy, len);
    return copy;
}

/* ------------------------------------------- lookup bodies, shifting */

/* The answer by definition, walking the whole table: q's run is the one
 * ending at the runend whose rank equals q's among the occupied quotients;
 * it starts after the previous runend and not before q. O(S). */
static bool reference_lookup(const fk_expandable *xf, uint64_t h)
{
    uint32_t kv;
    uint64_t q = fk_xf_place(xf, h, &kv), rank = 0, seen = 0, prev_end = 0, end = 0;
    bool found_q = false;
    for (uint64_t j = 0; j <= q; j++)
        rank += (fk_xf_occupieds(xf, j >> 6) >> (j & 63)) & 1u;
    if ((fk_xf_occupieds(xf, q >> 6) >> (q & 63)) & 1u) {
        for (uint64_t j = 0; j < xf->slots && !found_q; j++)
            if ((fk_xf_runends(xf, j >> 6) >> (j & 63)) & 1u) {
                if (++seen == rank) {
                    end = j;
                    found_q = true;
                } else {
                    prev_end = j + 1;
                }
            }
        uint64_t start = prev_end > q ? prev_end : q;
        for (uint64_t j = start; found_q && j <= end; j++)
            if (fk_xf_match(fk_xf_slot(xf, j), kv))
                return true;
    }
    for (size_t i = 0; i < xf->nvoids; i++) {
        unsigned g = (unsigned)(xf->voids[i] >> FK_XF_VOID_SHIFT);
        uint64_t vq = xf->voids[i] & ((UINT64_C(1) << FK_XF_VOID_SHIFT) - 1);
        if (q >> (xf->doublings - g) == vq)
            return true;
    }
    return false;
}

/* The BMI2 and the portable lookup bodies (every width's) answer as the
 * definition does, on crowded tables whose runs and clusters cross block
 * boundaries; the block-wise shifts of inserts and removes keep every
 * invariant after each call. */
TEST(lookup_bodies_and_shifts_agree_with_the_definition)
{
    /* W = 11 (the 1% default's body), the byte-aligned bodies W = 16 and
     * 32, W = 3 (voids from the second doubling on), W = 21 (the body for
     * any width), W = 14 (0.1%, the same body) */
    static const uint32_t fp_bits[6] = { 0, 15, 31, 2, 20, 13 };
    for (unsigned w = 0; w < 6; w++) {
        fk_expandable *fast = make(150, 0.01, fp_bits[w], 11 + w);
        fk_expandable *slow = make(150, 0.01, fp_bits[w], 11 + w);
        CHECK(fast && slow);
        if (!fast || !slow) {
            fk_expandable_free(fast);
            fk_expandable_free(slow);
            continue;
        }
        fk_xf_use_portable(slow);
        const unsigned n = 1300; /* three doublings */
        for (unsigned i = 0; i < n; i++) {
            uint64_t k = i * UINT64_C(0x9e3779b97f4a7c15);
            CHECK_STATUS(fk_expandable_insert(fast, &k, sizeof k), FK_OK);
            CHECK_STATUS(fk_expandable_insert(slow, &k, sizeof k), FK_OK);
            if (i % 7 == 3) { /* remove an earlier key: runs close, clusters shift down */
                uint64_t r = (i / 2) * UINT64_C(0x9e3779b97f4a7c15);
                CHECK_STATUS(fk_expandable_remove(fast, &r, sizeof r), FK_OK);
                CHECK_STATUS(fk_expandable_remove(slow, &r, sizeof r), FK_OK);
                uint64_t again = r;
                CHECK_STATUS(fk_expandable_insert(fast, &again, sizeof again), FK_OK);
                CHECK_STATUS(fk_expandable_insert(slow, &again, sizeof again), FK_OK);
            }
            if (i % 97 == 0 || i + 1 == n)
                CHECK(fk_xf_check_canonical(fast) && fk_xf_check_canonical(slow));
        }
        CHECK(doublings(fast) >= 3);
        unsigned disagree = 0, misses = 0;
        for (uint64_t i = 0; i < 4000; i++) {
            uint64_t k = i < n ? i * UINT64_C(0x9e3779b97f4a7c15) : absent_key(i);
            uint64_t h = fk_xf_hash(fast, &k, sizeof k);
            bool want = reference_lookup(fast, h);
            bool a = fk_expandable_contains(fast, &k, sizeof k);
            bool b = fk_expandable_contains(slow, &k, sizeof k);
            bool c = fk_filter_contains_u64(fk_expandable_as_filter(fast), k);
            bool d = fk_xf_lookup_hash(slow, h);
            disagree += a != want || b != want || c != want || d != want;
            misses += i < n && !a;
        }
        CHECK(disagree == 0);
        CHECK(misses == 0);
        fk_expandable_free(fast);
        fk_expandable_free(slow);
    }
}

TEST(forged_files_refused)
{
    fk_expandable *xf = make(64, 0.1, 3, 5);
    for (uint64_t k = 0; xf && k < (64u << 4); k++) /* voids and a few lengths */
        CHECK_STATUS(fk_expandable_insert_u64(xf, k), FK_OK);
    size_t len = 0;
    uint8_t *buf = save(xf, &len);
    CHECK(buf != NULL);
    fk_expandable_description d;
    fk_expandable_describe(xf, &d);
    CHECK(d.voids >= 2);
    if (!buf)
        return;
    size_t head = FK_SERIAL_HEADER_BYTES;
    size_t table = (size_t)(fk_xf_table_bytes(d.slots, d.slot_bits) - FK_XF_PAD);
    fk_expandable *back = NULL;
    /* every single-bit flip of the table's first block, its offsets and a
     * few slots, of the void list and of the kind parameters is refused */
    size_t refused = 0, tried = 0;
    for (size_t at = 48; at < len - 8; at++) {
        bool hot = at < 112 || (at >= head && at < head + 2 * (18 + 64 * 2)) ||
                   at >= head + table;
        if (!hot && at % 97 != 0)
            continue;
        for (unsigned bit = 0; bit < 8; bit++) {
            uint8_t *bad = reseal(buf, len, at, (uint8_t)(1u << bit));
            if (!bad)
                continue;
            fk_status s = fk_expandable_load(bad, len, &back);
            tried++;
            if (s != FK_OK) {
                refused++;
                CHECK(back == NULL);
            } else {
                /* the only flips a loader may take make another
                 * self-consistent filter: a slot's value bits that keep its
                 * run sorted and its length legal, a void key still in
                 * order, the expected growth (metadata), or N or F changed
                 * to values the same table shape allows (the loader cannot
                 * see the keys' hashes) */
                CHECK_MSG((at >= head && at < head + table) || (at >= 88 && at < 96) || (at >= 48 && at < 56) || (at >= 64 && at < 72) || at >= head + table, "flip at %zu loaded", at);
                CHECK(back && fk_xf_check_canonical(back));
                fk_expandable_free(back);
                back = NULL;
            }
            free(bad);
        }
    }
    CHECK(refused > tried / 2);
    /* the void list out of order */
    if (d.voids >= 2) {
        uint8_t *bad = malloc(len);
        memcpy(bad, buf, len);
        uint8_t tmp[8];
        memcpy(tmp, bad + head + table, 8);
        memcpy(bad + head + table, bad + head + table + 8, 8);
        memcpy(bad + head + table + 8, tmp, 8);
        forge_reseal(bad, len);
        bool same = memcmp(bad, buf, len) == 0;
        CHECK_STATUS(fk_expandable_load(bad, len, &back), same ? FK_OK : FK_ECORRUPT);
        fk_expandable_free(back);
        free(bad);
    }
    CHECK_STATUS(fk_expandable_load(buf, len, &back), FK_OK);
    fk_expandable_free(back);
    free(buf);
    fk_expandable_free(xf);
}

/* Issue 48: a header whose capacity is far below its entries loaded, and
 * each of the next inserts doubled the table (11 KB to 676 KB in 7
 * inserts). The loader now takes only a capacity its first table could
 * have been sized for (capacity <= N0 <= 2 capacity) with at most capacity
 * 2^G entries: whatever capacity loads, 7 more inserts double the table at
 * most once, and the result saves a record that loads again. */
TEST(forged_capacity_loads_only_when_inserts_double_as_a_real_filter)
{
    fk_expandable *xf = make(400, 0.01, 0, 17);
    for (uint64_t k = 0; xf && k < 300; k++)
        CHECK_STATUS(fk_expandable_insert_u64(xf, k), FK_OK);
    size_t len = 0;
    uint8_t *buf = xf ? save(xf, &len) : NULL;
    fk_expandable_free(xf);
    if (!buf)
        return;
    fk_expandable_description d0;
    fk_expandable *back = NULL;
    CHECK_STATUS(fk_expandable_load(buf, len, &back), FK_OK);
    if (!back) {
        free(buf);
        return;
    }
    fk_expandable_describe(back, &d0);
    fk_expandable_free(back);
    uint8_t *copy = malloc(len);
    unsigned loaded = 0;
    for (uint64_t cap = 1; copy && cap <= 2 * d0.quotients + 2; cap++) {
        forge_word(copy, buf, len, 24, cap);
        fk_expandable *g = NULL;
        fk_status s = fk_expandable_load(copy, len, &g);
        /* N0 = ceil(capacity / 0.9) for a real one; 300 entries */
        bool sized = cap <= d0.quotients && 2 * cap >= d0.quotients && cap >= 300;
        CHECK_MSG((s == FK_OK) == sized, "capacity %llu: %s", (unsigned long long)cap,
                  fk_status_name(s));
        if (s != FK_OK)
            continue;
        loaded++;
        uint32_t before = doublings(g);
        for (uint64_t k = 0; k < 7; k++)
            CHECK_STATUS(fk_expandable_insert_u64(g, 1000 + k), FK_OK);
        CHECK_MSG(doublings(g) <= before + 1, "capacity %llu: %u doublings in 7 inserts",
                  (unsigned long long)cap, doublings(g) - before);
        for (uint64_t k = 0; k < 300; k++)
            CHECK(fk_expandable_contains_u64(g, k));
        size_t n = 0;
        uint8_t *again = save(g, &n);
        fk_expandable *h = NULL;
        CHECK(again && fk_expandable_load(again, n, &h) == FK_OK);
        fk_expandable_free(h);
        free(again);
        fk_expandable_free(g);
    }
    CHECK(loaded > 0);
    /* the record: capacity 1 */
    forge_word(copy, buf, len, 24, 1);
    CHECK_STATUS(fk_expandable_load(copy, len, &back), FK_ECORRUPT);
    CHECK(back == NULL);
    free(copy);
    free(buf);
}

/* ------------------------------------------- sized for the target (issue 50) */

/* 0.4.0 made 1% and 0.1% the same 20.3-bit table (F = 15, 16-bit slots).
 * F is now the shortest of at least D bits whose bound after D doublings
 * meets the target, in slots of F + 1 bits: the 1% filter is the smaller
 * one, in memory and in what fk_ops_size says of it. */
TEST(made_for_one_percent_smaller_than_for_a_tenth)
{
    const double targets[2] = { 0.01, 0.001 };
    uint64_t mem[2] = { 0, 0 }, sized[2] = { 0, 0 };
    for (unsigned t = 0; t < 2; t++) {
        fk_params p = fk_params_make(10000, targets[t]);
        fk_expandable *xf = NULL;
        CHECK_STATUS(fk_expandable_new(&p, &xf), FK_OK);
        if (!xf)
            continue;
        fk_expandable_description d;
        fk_expandable_describe(xf, &d);
        unsigned D = 10; /* ceil(log2 1024) */
        CHECK_EQ_U64(d.slot_bits, d.fingerprint_bits + 1);
        CHECK(d.fingerprint_bits >= D);
        CHECK(0.9 * ldexp(1.0, -(int)d.fingerprint_bits) * (1 + D / 2.0) <= targets[t]);
        /* the shortest: one bit less misses the target (or the D bits) */
        CHECK(d.fingerprint_bits == D ||
              0.9 * ldexp(1.0, -(int)d.fingerprint_bits + 1) * (1 + D / 2.0) > targets[t]);
        fk_stats st;
        fk_filter_stats(fk_expandable_as_filter(xf), &st);
        mem[t] = st.memory_bytes;
        fk_sizing z;
        CHECK_STATUS(fk_ops_size(&fk_expandable_ops, &p, &z), FK_OK);
        sized[t] = z.memory_bytes;
        CHECK_EQ_U64(z.memory_bytes, st.memory_bytes);
        char want[32];
        snprintf(want, sizeof want, "%u-bit slots", d.slot_bits);
        CHECK_MSG(strstr(z.geometry, want) != NULL, "geometry \"%s\"", z.geometry);
        fk_expandable_free(xf);
    }
    CHECK_MSG(mem[0] < mem[1], "1%%: %llu bytes, 0.1%%: %llu", (unsigned long long)mem[0],
              (unsigned long long)mem[1]);
    CHECK(sized[0] < sized[1]);
}

/* Made for 1% at capacity C and grown 1000-fold (the measure): at
 * most 16 bits per key held at the end, all memory counted. */
TEST(one_percent_at_most_16_bits_per_key_after_a_1000_fold_growth)
{
    const uint64_t C = 200, n = 1000 * C;
    fk_expandable *xf = make(C, 0.01, 0, 21);
    for (uint64_t k = 0; xf && k < n; k++)
        CHECK_STATUS(fk_expandable_insert_u64(xf, k), FK_OK);
    if (!xf)
        return;
    fk_stats st;
    fk_filter_stats(fk_expandable_as_filter(xf), &st);
    double bits = 8.0 * (double)st.memory_bytes / (double)n;
    CHECK_EQ_U64(doublings(xf), 10);
    CHECK_MSG(bits <= 16.0, "%.2f bits per key after 1000-fold", bits);
    fk_expandable_free(xf);
}

/* The worst FPR over a growth, measured just before each doubling (the
 * table at its fullest) with fresh absent keys, stays within a binomial
 * bound of the target; every inserted key is found at each of those
 * points; the filter's own bound (stats) meets the target too. 64-fold
 * here (the expected growth is 1024-fold, so the last point is not the
 * worst, but each is checked against the target, not against itself). */
TEST(worst_fpr_over_a_growth_at_most_the_target_and_no_false_negatives)
{
    const double targets[2] = { 0.01, 0.001 };
    const uint64_t C = 500, probes = check_small_scale() ? 40000 : 200000;
    for (unsigned t = 0; t < 2; t++) {
        fk_expandable *xf = make(C, targets[t], 0, 30 + t);
        uint64_t k = 0, salt = 1000 * (t + 1);
        for (uint32_t g = 0; xf && g <= 6; g++) {
            while (k < (C << g))
                CHECK_STATUS(fk_expandable_insert_u64(xf, k++), FK_OK);
            CHECK_EQ_U64(doublings(xf), g); /* full: the next insert doubles */
            uint64_t fn = 0;
            for (uint64_t j = 0; j < k; j++)
                fn += !fk_expandable_contains_u64(xf, j);
            CHECK_MSG(fn == 0, "%llu false negatives after %u doublings",
                      (unsigned long long)fn, g);
            check_fpr_under(xf, targets[t], probes, salt++);
        }
        /* and through the doubling that follows */
        CHECK_STATUS(fk_expandable_insert_u64(xf, k++), FK_OK);
        CHECK_EQ_U64(doublings(xf), 7);
        for (uint64_t j = 0; j < k; j++)
            CHECK(fk_expandable_contains_u64(xf, j));
        fk_expandable_free(xf);
    }
}

static double row_double(const fk_describe_row *rows, size_t n, const char *name)
{
    const fk_describe_row *r = fk_describe_find(rows, n, name);
    CHECK_MSG(r && r->type == FK_DESCRIBE_DOUBLE, "row %s", name);
    return r && r->type == FK_DESCRIBE_DOUBLE ? r->value.d : -1;
}

static uint64_t row_u64(const fk_describe_row *rows, size_t n, const char *name)
{
    const fk_describe_row *r = fk_describe_find(rows, n, name);
    CHECK_MSG(r && r->type == FK_DESCRIBE_U64, "row %s", name);
    return r && r->type == FK_DESCRIBE_U64 ? r->value.u64 : UINT64_MAX;
}

/* After a growth, what stats and describe report is the allocation: the
 * table's bytes (slots of W bits, 18-byte block heads, the padding), the
 * void list and the struct; bits per entry is that over the entries held;
 * fk_ops_size's expected FPR for the items held is the union bound stats
 * report, and its memory the first table's. */
TEST(stats_describe_and_size_report_the_allocation_after_growth)
{
    const double targets[2] = { 0.01, 0.001 };
    for (unsigned t = 0; t < 2; t++) {
        fk_params p = fk_params_make(300, targets[t]);
        p.seed = 40 + t;
        fk_expandable *xf = NULL;
        CHECK_STATUS(fk_expandable_new(&p, &xf), FK_OK);
        if (!xf)
            continue;
        const uint64_t n = 300 * 40; /* 6 doublings, the last part full */
        for (uint64_t k = 0; k < n; k++)
            CHECK_STATUS(fk_expandable_insert_u64(xf, k), FK_OK);
        fk_filter *f = fk_expandable_as_filter(xf);
        fk_stats st;
        fk_filter_stats(f, &st);
        fk_expandable_description d;
        fk_expandable_describe(xf, &d);
        CHECK_EQ_U64(d.doublings, 6);
        uint64_t alloc = fk_xf_table_bytes(d.slots, d.slot_bits) + sizeof(*xf) +
                         (uint64_t)xf->voids_cap * 8;
        CHECK_EQ_U64(st.memory_bytes, alloc);
        CHECK_EQ_U64(d.slots / 64 * (18 + 8 * (uint64_t)d.slot_bits) + FK_XF_PAD,
                     fk_xf_table_bytes(d.slots, d.slot_bits));
        fk_describe_row rows[64];
        size_t nrows = 0;
        CHECK_STATUS(fk_filter_describe(f, rows, 64, &nrows), FK_OK);
        CHECK_EQ_U64(row_u64(rows, nrows, "doublings"), 6);
        CHECK_EQ_U64(row_u64(rows, nrows, "slot_bits"), d.slot_bits);
        CHECK(row_double(rows, nrows, "target_fpr") == targets[t]);
        double bpe = row_double(rows, nrows, "bits_per_entry");
        CHECK_MSG(fabs(bpe - 8.0 * (double)alloc / (double)n) < 1e-9, "bits_per_entry %.4f", bpe);
        CHECK(fabs(st.bits_per_item - 8.0 * (double)alloc / (double)st.capacity) < 1e-9);
        fk_sizing z;
        CHECK_STATUS(fk_expandable_ops.size(&p, (double)n, &z), FK_OK);
        CHECK_MSG(fabs(z.expected_fpr - st.expected_fpr) <= 1e-9 * st.expected_fpr,
                  "size says %.6g at %llu items, stats %.6g", z.expected_fpr,
                  (unsigned long long)n, st.expected_fpr);
        CHECK(st.expected_fpr <= targets[t]);
        fk_expandable_free(xf);
    }
}

/* tests/golden/expandable-0.4.fk: tests/golden/expandable.fk as 0.4.0
 * wrote it (F = 12 in 16-bit slots, three doublings). Never regenerated:
 * it loads, keeps its geometry, saves back byte for byte and answers
 * 100,000 probes ("probe-0" ...) as 0.4.0 did (hit count and FNV-1a
 * digest of the answers, taken with 0.4.0's code). */
TEST(files_of_0_4_load_and_answer_as_before)
{
    size_t len;
    uint8_t *buf = golden_read("expandable-0.4.fk", &len);
    if (!buf)
        return;
    fk_expandable *xf = NULL;
    CHECK_STATUS(fk_expandable_load(buf, len, &xf), FK_OK);
    if (xf) {
        fk_expandable_description d;
        fk_expandable_describe(xf, &d);
        CHECK_EQ_U64(d.slot_bits, 16);
        CHECK_EQ_U64(d.fingerprint_bits, 12);
        CHECK_EQ_U64(d.doublings, 3);
        char key[32];
        uint64_t h = UINT64_C(0xcbf29ce484222325), hits = 0;
        for (int i = 0; i < 100000; i++) {
            int k = snprintf(key, sizeof key, "probe-%d", i);
            bool yes = fk_expandable_contains(xf, key, (size_t)k);
            hits += yes;
            h = (h ^ (uint64_t)yes) * UINT64_C(0x100000001b3);
        }
        CHECK_EQ_U64(hits, 28);
        CHECK_EQ_U64(h, UINT64_C(0x7d6dec55d424bc05));
        for (int i = 10; i < 80; i++) {
            int k = snprintf(key, sizeof key, "key-%d", i);
            CHECK(fk_expandable_contains(xf, key, (size_t)k));
        }
        size_t n = 0;
        uint8_t *again = save(xf, &n);
        CHECK(again && n == len && memcmp(again, buf, len) == 0);
        free(again);
        /* it still grows: 16-bit slots double as they did */
        for (uint64_t k = 0; k < 400; k++)
            CHECK_STATUS(fk_expandable_insert_u64(xf, k), FK_OK);
        CHECK(fk_xf_check_canonical(xf));
        for (int i = 10; i < 80; i++) {
            int k = snprintf(key, sizeof key, "key-%d", i);
            CHECK(fk_expandable_contains(xf, key, (size_t)k));
        }
    }
    fk_expandable_free(xf);
    free(buf);
}

TEST(registered_under_its_name_and_id)
{
    CHECK(fk_ops_find("expandable") == &fk_expandable_ops);
    CHECK(fk_ops_find_kind_id(FK_KIND_EXPANDABLE) == &fk_expandable_ops);
    CHECK(fk_ops_caps(&fk_expandable_ops) & FK_CAP_GROWS);
}

/* Concurrent writers count in rows of their own (used, by_len) and make
 * region locks: the counts stay exact through concurrent doublings and
 * through plain calls between concurrent ones (which fold the rows in),
 * and memory_bytes counts the locks and rows. */
TEST(concurrent_counts_exact_across_plain_calls_and_their_memory_counted)
{
    fk_params p = fk_params_make(500, 0.01);
    p.seed = 61;
    fk_expandable *xf = NULL, *plain = NULL;
    CHECK_STATUS(fk_expandable_new(&p, &xf), FK_OK);
    CHECK_STATUS(fk_expandable_new(&p, &plain), FK_OK);
    if (!xf || !plain)
        return;
    fk_filter *f = fk_expandable_as_filter(xf), *g = fk_expandable_as_filter(plain);
    const uint64_t n = 4000; /* three doublings, made by the concurrent path */
    for (uint64_t k = 0; k < n; k++) {
        CHECK_STATUS(fk_filter_insert_concurrent(f, &k, sizeof k), FK_OK);
        CHECK_STATUS(fk_filter_insert(g, &k, sizeof k), FK_OK);
    }
    fk_stats st, sp;
    fk_filter_stats(f, &st);
    fk_filter_stats(g, &sp);
    CHECK_EQ_U64(st.items, n);
    CHECK_EQ_U64(st.capacity, sp.capacity); /* the same table */
    CHECK_MSG(st.memory_bytes > sp.memory_bytes + 16 * 64,
              "memory %llu, plain %llu: the locks and rows are not counted",
              (unsigned long long)st.memory_bytes, (unsigned long long)sp.memory_bytes);
    fk_expandable_description d;
    fk_expandable_describe(xf, &d);
    uint64_t by_len = 0;
    for (unsigned L = 0; L < 32; L++)
        by_len += d.by_length[L];
    CHECK_EQ_U64(by_len, d.entries);
    CHECK_EQ_U64(d.entries + d.voids, n);
    /* plain inserts, then concurrent removes, then plain removes */
    for (uint64_t k = n; k < n + 1000; k++)
        CHECK_STATUS(fk_filter_insert(f, &k, sizeof k), FK_OK);
    for (uint64_t k = 0; k < 700; k++)
        CHECK_STATUS(fk_filter_remove_concurrent(f, &k, sizeof k), FK_OK);
    fk_filter_stats(f, &st);
    CHECK_EQ_U64(st.items, n + 1000 - 700);
    for (uint64_t k = 700; k < 1000; k++)
        CHECK_STATUS(fk_filter_remove(f, &k, sizeof k), FK_OK);
    fk_filter_stats(f, &st);
    CHECK_EQ_U64(st.items, n);
    CHECK(fk_xf_check_canonical(xf));
    uint64_t missed = 0;
    for (uint64_t k = 1000; k < n + 1000; k++)
        missed += !fk_filter_contains(f, &k, sizeof k);
    CHECK_EQ_U64(missed, 0);
    fk_expandable_free(xf);
    fk_expandable_free(plain);
}

int main(void)
{
    RUN(model_sequences_while_growing);
    RUN(fpr_held_after_each_doubling);
    RUN(sizing_follows_fpr_and_growth);
    RUN(entries_out_of_bits_go_void_and_stay_found);
    RUN(growth_to_the_memory_limit_refused_nothing_lost);
    RUN(remove_takes_the_longest_match_and_calls_agree);
    RUN(lookup_bodies_and_shifts_agree_with_the_definition);
    RUN(forged_files_refused);
    RUN(forged_capacity_loads_only_when_inserts_double_as_a_real_filter);
    RUN(made_for_one_percent_smaller_than_for_a_tenth);
    RUN(one_percent_at_most_16_bits_per_key_after_a_1000_fold_growth);
    RUN(worst_fpr_over_a_growth_at_most_the_target_and_no_false_negatives);
    RUN(stats_describe_and_size_report_the_allocation_after_growth);
    RUN(files_of_0_4_load_and_answer_as_before);
    RUN(registered_under_its_name_and_id);
    RUN(concurrent_counts_exact_across_plain_calls_and_their_memory_counted);
    return check_report();
}
