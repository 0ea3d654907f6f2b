/* tests/test_quotient.c: the counting quotient filter: counter encoding
 * round trips, model-based sequences against an exact multiset (the table
 * after any sequence is byte for byte the one built directly from the
 * model), FK_EFULL losing nothing and the load it comes at, FPR against a
 * binomial bound of the theory, merge and grow against filters built
 * directly, heavy counts, removing keys never inserted, save/load and the
 * loader's refusals, the BMI2 select against the portable one, batches,
 * sizing and bad arguments. */
#include <math.h>
#include <stdlib.h>
#include "check.h"
#include "../quotient/quotient.h"
#include "../quotient/quotient_internal.h"
#include "../common/cpu.h"
#include "../common/endian.h"
#include "../registry/registry.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define HAVE_BMI2 1
#else
#define HAVE_BMI2 0
#endif

/* ------------------------------------------------------------- helpers */

static fk_quotient *make(uint64_t capacity, double fpr, uint32_t r, uint64_t seed)
{
    fk_params p = fk_params_make(capacity, fpr);
    p.fingerprint_bits = r;
    p.seed = seed;
    fk_quotient *qf = NULL;
    CHECK_STATUS(fk_quotient_new(&p, &qf), FK_OK);
    return qf;
}

static fk_quotient *make_exact(uint64_t slots, uint64_t quotients, uint32_t r, uint64_t seed)
{
    fk_quotient *qf = NULL;
    CHECK_STATUS(fk_qf_create_exact(slots, quotients, r, seed, quotients, 0.01, &qf), FK_OK);
    return qf;
}

static fk_quotient_description info_of(const fk_quotient *qf)
{
    fk_quotient_description in;
    fk_quotient_describe(qf, &in);
    return in;
}

static size_t bytes_of(const fk_quotient *qf)
{
    return (size_t)(qf->nblocks * qf->block_bytes);
}

static bool same_table(const fk_quotient *a, const fk_quotient *b)
{
    return a->slots == b->slots && a->quotients == b->quotients && a->r == b->r &&
           memcmp(a->table, b->table, bytes_of(a)) == 0 && a->items == b->items &&
           a->distinct == b->distinct && a->used == b->used;
}

static uint64_t key_of(uint64_t stream, uint64_t i)
{
    uint64_t s = stream * UINT64_C(0x9E3779B97F4A7C15) + i;
    return check_rng(&s);
}

/* Checks the structure a table must have: occupied quotients and runends
 * pair up, runs are placed as far left as allowed, offsets agree, free
 * slots are zero, and the counters add up. */
static bool well_formed(const fk_quotient *qf)
{
    fk_qf_iter it;
    fk_qf_iter_init(&it, qf);
    uint64_t q, x, c, groups = 0, last_q = 0, last_x = 0;
    unsigned __int128 items = 0;
    bool ordered = true;
    while (fk_qf_iter_next(&it, &q, &x, &c)) {
        /* groups rise in (quotient, remainder) order (issue 38) */
        ordered &= groups == 0 || q > last_q || (q == last_q && x > last_x);
        last_q = q;
        last_x = x;
        items += c;
        groups++;
    }
    bool ok = !it.broken && ordered && items == qf->items && groups == qf->distinct;
    fk_qf_iter_done(&it);
    /* rebuilding from the groups gives the same bytes */
    fk_quotient *copy = make_exact(qf->slots, qf->quotients, qf->r, qf->seed);
    fk_qf_builder b;
    fk_qf_build_init(&b, copy);
    fk_qf_iter_init(&it, qf);
    while (ok && fk_qf_iter_next(&it, &q, &x, &c))
        ok = fk_qf_build_add(&b, q, x, c) == FK_OK;
    fk_qf_iter_done(&it);
    ok = ok && fk_qf_build_finish(&b) == FK_OK && same_table(qf, copy);
    fk_quotient_free(copy);
#ifdef FK_QF_DEBUG_CHECK
    ok = ok && fk_qf_check_canonical(qf); /* the library's own check agrees */
#endif
    return ok;
}

/* ------------------------------------------------------------ counters */

TEST(counter_encoding_round_trips)
{
    for (uint32_t r = 2; r <= 9; r++) {
        fk_quotient *qf = make_exact(64, 64, r, 0);
        uint64_t enc[FK_QF_GROUP_MAX];
        int bad = 0;
        uint64_t tail = qf->rmask; /* a larger remainder after the group */
        const uint64_t big[] = { 1000, 65535, 1000000, UINT64_C(1) << 40, UINT64_MAX - 1,
                                 UINT64_MAX };
        for (uint64_t x = 0; x <= qf->rmask; x++) {
            for (uint64_t c = 1; c <= 600 + 6; c++) {
                uint64_t cnt = c <= 600 ? c : big[c - 601];
                unsigned n = fk_qf_encode(qf, x, cnt, enc);
                uint64_t dx, dc;
                size_t end = fk_qf_decode(qf, enc, 0, n, &dx, &dc);
                bad += end != n || dx != x || dc != cnt;
                /* the group alone, and followed by a larger remainder */
                if (x < tail) {
                    enc[n] = tail;
                    end = fk_qf_decode(qf, enc, 0, n + 1, &dx, &dc);
                    bad += end != n || dx != x || dc != cnt;
                    end = fk_qf_decode(qf, enc, n, n + 1, &dx, &dc);
                    bad += end != n + 1 || dx != tail || dc != 1;
                }
                bad += n > 3 + 64;
            }
        }
        CHECK_MSG(bad == 0, "r = %u: %d bad round trips", r, bad);
        fk_quotient_free(qf);
    }
}

TEST(counter_lengths_are_logarithmic)
{
    fk_quotient *qf = make_exact(64, 64, 7, 0);
    uint64_t enc[FK_QF_GROUP_MAX];
    CHECK_EQ_U64(fk_qf_encode(qf, 5, 1, enc), 1);
    CHECK_EQ_U64(fk_qf_encode(qf, 5, 2, enc), 2);
    CHECK_EQ_U64(fk_qf_encode(qf, 5, 3, enc), 3);
    CHECK(fk_qf_encode(qf, 5, 1000000, enc) <= 6);
    CHECK(fk_qf_encode(qf, 0, 1000000, enc) <= 6);
    CHECK(fk_qf_encode(qf, 1, 1000000, enc) <= 6);
    CHECK(fk_qf_encode(qf, 127, UINT64_MAX, enc) <= 3 + 10);
    fk_quotient_free(qf);
}

/* ------------------------------------------------- model-based sequences */

typedef struct {
    uint64_t *keys;
    uint64_t *count;
    size_t    n;
} model;

static bool model_matches(const fk_quotient *qf, const model *m)
{
    int bad = 0;
    for (size_t i = 0; i < m->n; i++) {
        uint64_t c = 0;
        CHECK_STATUS(fk_quotient_count(qf, &m->keys[i], 8, &c), FK_OK);
        bool in = fk_quotient_contains(qf, &m->keys[i], 8);
        if (c < m->count[i] || (m->count[i] > 0 && !in) || in != (c > 0))
            bad++;
    }
    CHECK_MSG(bad == 0, "%d keys under-counted or missed", bad);
    return bad == 0;
}

/* The filter the model's multiset builds directly, in key order. */
static fk_quotient *direct_build(const fk_quotient *like, const model *m)
{
    fk_quotient *d = make_exact(like->slots, like->quotients, like->r, like->seed);
    for (size_t i = 0; i < m->n; i++)
        for (uint64_t c = 0; c < m->count[i]; c++)
            CHECK_STATUS(fk_quotient_insert(d, &m->keys[i], 8), FK_OK);
    return d;
}

/* Random inserts and removes over a universe of `universe` keys (so keys
 * repeat), checked against the model as it goes. */
static void model_sequence(uint64_t capacity, uint32_t r, size_t universe, size_t steps,
                           uint64_t seed, double remove_share)
{
    fk_quotient *qf = make(capacity, 0.01, r, seed);
    if (!qf)
        return;
    if (seed & 1) /* half the sequences on the portable rank and select */
        fk_qf_use_portable(qf);
    model m = { calloc(universe, 8), calloc(universe, 8), universe };
    for (size_t i = 0; i < universe; i++)
        m.keys[i] = key_of(seed, i);
    uint64_t rng = seed ^ 0xabcdef, fulls = 0;
    uint8_t *before = malloc(bytes_of(qf));
    for (size_t step = 0; step < steps; step++) {
        size_t i = (size_t)(check_rng(&rng) % universe);
        bool take = (double)(check_rng(&rng) % 1000) < remove_share * 1000;
        if (take) {
            if (m.count[i] > 0) {
                CHECK_STATUS(fk_quotient_remove(qf, &m.keys[i], 8), FK_OK);
                m.count[i]--;
            } else if (!fk_quotient_contains(qf, &m.keys[i], 8)) {
                memcpy(before, qf->table, bytes_of(qf));
                CHECK_STATUS(fk_quotient_remove(qf, &m.keys[i], 8), FK_ENOTFOUND);
                CHECK(memcmp(before, qf->table, bytes_of(qf)) == 0);
            }
        } else {
            memcpy(before, qf->table, bytes_of(qf));
            uint64_t items = qf->items;
            fk_status s = fk_quotient_insert(qf, &m.keys[i], 8);
            if (s == FK_OK) {
                m.count[i]++;
            } else {
                CHECK_STATUS(s, FK_EFULL);
                CHECK(memcmp(before, qf->table, bytes_of(qf)) == 0);
                CHECK_EQ_U64(qf->items, items);
                fulls++;
            }
        }
        if (step % (steps / 8 + 1) == 0 || step + 1 == steps) {
            if (!model_matches(qf, &m))
                break;
            CHECK(well_formed(qf));
            fk_quotient *d = direct_build(qf, &m);
            CHECK_MSG(same_table(qf, d), "capacity %llu r %u step %zu: table differs from "
                      "the direct build", (unsigned long long)capacity, r, step);
            fk_quotient_free(d);
        }
    }
    uint64_t total = 0;
    for (size_t i = 0; i < universe; i++)
        total += m.count[i];
    CHECK_EQ_U64(info_of(qf).items, total);
    free(before);
    free(m.keys);
    free(m.count);
    fk_quotient_free(qf);
}

TEST(model_sequences_small_tables)
{
    const uint64_t caps[] = { 1, 3, 20, 60, 64, 100, 250 };
    const uint32_t rs[] = { 2, 3, 4, 6, 9 };
    for (size_t a = 0; a < sizeof caps / sizeof caps[0]; a++)
        for (size_t b = 0; b < sizeof rs / sizeof rs[0]; b++)
            model_sequence(caps[a], rs[b], (size_t)caps[a] + 8, 30 * (size_t)caps[a] + 200,
                           a * 31 + b, 0.35);
}

TEST(model_sequences_to_full)
{
    /* more inserts than removes: the filter runs into FK_EFULL and stays
     * exact there */
    const uint64_t caps[] = { 200, 1000, 3000 };
    for (size_t a = 0; a < 3; a++)
        for (uint32_t r = 3; r <= 12; r += 3)
            model_sequence(caps[a], r, (size_t)caps[a] * 2, FK_TEST_SCALE(6, 2) * caps[a],
                           100 + a * 7 + r, 0.15);
}

TEST(model_heavy_duplicates)
{
    /* a tiny universe: long counters in every group, x = 0 and 1 included */
    for (uint32_t r = 2; r <= 5; r++)
        model_sequence(500, r, 12, 6000, 900 + r, 0.3);
}

/* ------------------------------------------------------ full and loads */

static uint64_t fill_to_failure(fk_quotient *qf, uint64_t stream)
{
    uint64_t n = 0;
    for (;; n++) {
        uint64_t k = key_of(stream, n);
        fk_status s = fk_quotient_insert(qf, &k, 8);
        if (s != FK_OK) {
            CHECK_STATUS(s, FK_EFULL);
            return n;
        }
    }
}

TEST(full_loses_nothing_and_comes_late)
{
    const uint64_t caps[] = { 100, 1000, 10000, 100000 };
    for (size_t a = 0; a < 4; a++) {
        double load_sum = 0;
        const int seeds = caps[a] >= 100000 ? FK_TEST_SCALE(3, 1) : 10;
        for (int s = 0; s < seeds; s++) {
            fk_quotient *qf = make(caps[a], 0.01, 0, (uint64_t)s);
            uint64_t n = fill_to_failure(qf, 77 + (uint64_t)s);
            uint8_t *snap = malloc(bytes_of(qf));
            memcpy(snap, qf->table, bytes_of(qf));
            /* more failing inserts change nothing */
            int changed = 0;
            for (uint64_t t = 0; t < 50; t++) {
                uint64_t k = key_of(5000 + (uint64_t)s, t);
                if (fk_quotient_insert(qf, &k, 8) == FK_OK) {
                    CHECK_STATUS(fk_quotient_remove(qf, &k, 8), FK_OK);
                } else {
                    changed += memcmp(snap, qf->table, bytes_of(qf)) != 0;
                }
            }
            CHECK_EQ_U64(changed, 0);
            uint64_t missing = 0;
            for (uint64_t i = 0; i < n; i++) {
                uint64_t k = key_of(77 + (uint64_t)s, i);
                missing += !fk_quotient_contains(qf, &k, 8);
            }
            CHECK_EQ_U64(missing, 0);
            CHECK(n >= caps[a]); /* sized for capacity: those fit */
            CHECK(well_formed(qf));
            load_sum += ((double)info_of(qf).used_slots / (double)info_of(qf).slots);
            free(snap);
            fk_quotient_free(qf);
        }
        double mean = load_sum / seeds;
        CHECK_MSG(mean >= 0.95, "capacity %llu: first FK_EFULL at load %.4f",
                  (unsigned long long)caps[a], mean);
    }
}

/* ------------------------------------------------------------------ FPR */

TEST(fpr_within_binomial_bound)
{
    const uint32_t rs[] = { 3, 5, 8 };
    const double loads[] = { 0.3, 0.7, 0.95 };
    for (size_t a = 0; a < 3; a++)
        for (size_t b = 0; b < 3; b++) {
            fk_quotient *qf = make(20000, 0.01, rs[a], 11 * a + b);
            uint64_t n = (uint64_t)(loads[b] * 20000);
            for (uint64_t i = 0; i < n; i++) {
                uint64_t k = key_of(1, i);
                CHECK_STATUS(fk_quotient_insert(qf, &k, 8), FK_OK);
            }
            const uint64_t trials = FK_TEST_SCALE(400000, 100000);
            uint64_t hits = 0;
            for (uint64_t i = 0; i < trials; i++) {
                uint64_t k = key_of(2, i);
                hits += fk_quotient_contains(qf, &k, 8);
            }
            /* an absent key's (quotient, remainder) is uniform: it hits
             * exactly the share of pairs that hold a group */
            double p = (double)qf->distinct / ((double)qf->quotients * ldexp(1.0, (int)qf->r));
            double mean = p * (double)trials, sd = sqrt(mean * (1 - p));
            CHECK_MSG(fabs((double)hits - mean) <= 5 * sd + 5,
                      "r %u load %.2f: %llu false positives, theory %.1f", rs[a], loads[b],
                      (unsigned long long)hits, mean);
            fk_stats st;
            fk_quotient_stats(qf, &st);
            CHECK(fabs(st.expected_fpr - p) < 1e-12);
            fk_quotient_free(qf);
        }
}

TEST(sized_fpr_meets_target)
{
    const double fprs[] = { 0.05, 0.01, 0.001 };
    for (int a = 0; a < 3; a++) {
        fk_quotient *qf = make(50000, fprs[a], 0, 3);
        for (uint64_t i = 0; i < 50000; i++) {
            uint64_t k = key_of(3, i);
            CHECK_STATUS(fk_quotient_insert(qf, &k, 8), FK_OK);
        }
        uint64_t hits = 0, trials = 400000;
        for (uint64_t i = 0; i < trials; i++) {
            uint64_t k = key_of(4, i);
            hits += fk_quotient_contains(qf, &k, 8);
        }
        double rate = (double)hits / (double)trials;
        double sd = sqrt(fprs[a] * (1 - fprs[a]) / (double)trials);
        CHECK_MSG(rate <= fprs[a] + 4 * sd, "fpr %.3f: measured %.5f", fprs[a], rate);
        fk_quotient_free(qf);
    }
    fk_quotient *qf = make(1000, 0.01, 0, 0);
    CHECK_EQ_U64(info_of(qf).remainder_bits, 7);
    fk_quotient_free(qf);
    qf = make(1000, 0.001, 0, 0);
    CHECK_EQ_U64(info_of(qf).remainder_bits, 10);
    fk_quotient_free(qf);
}

/* `filterkit pick --grow-to N` makes a quotient filter for n with fpr
 * P / 2^g, g the doublings that take n past N, and says to grow it when
 * an insert answers FK_EFULL: then it holds all N keys, and at N its fpr
 * is within P (each doubling doubles it). */
TEST(grown_on_full_as_pick_says_meets_the_target_at_the_end)
{
    const double target = 0.01;
    const uint64_t n = 20000, grow_to = 75000; /* g = 2: 20000 * 4 >= 75000 */
    fk_quotient *qf = make(n, target / 4, 0, 5);
    unsigned grows = 0;
    for (uint64_t i = 0; i < grow_to; i++) {
        uint64_t k = key_of(6, i);
        fk_status st = fk_quotient_insert(qf, &k, 8);
        if (st == FK_EFULL) { /* nothing was stored: grow, then insert again */
            CHECK_STATUS(fk_quotient_grow(qf), FK_OK);
            grows++;
            st = fk_quotient_insert(qf, &k, 8);
        }
        CHECK_STATUS(st, FK_OK);
    }
    CHECK_MSG(grows == 2, "%u doublings to reach %llu keys", grows, (unsigned long long)grow_to);
    uint64_t missing = 0, hits = 0, trials = FK_TEST_SCALE(400000, 100000);
    for (uint64_t i = 0; i < grow_to; i++) {
        uint64_t k = key_of(6, i);
        missing += !fk_quotient_contains(qf, &k, 8);
    }
    for (uint64_t i = 0; i < trials; i++) {
        uint64_t k = key_of(7, i);
        hits += fk_quotient_contains(qf, &k, 8);
    }
    CHECK_EQ_U64(missing, 0);
    double rate = (double)hits / (double)trials, sd = sqrt(target * (1 - target) / (double)trials);
    CHECK_MSG(rate <= target + 4 * sd, "after %u doublings: measured fpr %.5f, target %.3f", grows,
              rate, target);
    fk_stats stats;
    fk_quotient_stats(qf, &stats);
    CHECK_MSG(stats.expected_fpr <= target, "expected fpr %.5f", stats.expected_fpr);
    fk_quotient_free(qf);
}

/* ------------------------------------------------------- merge and grow */

TEST(merge_equals_direct_build)
{
    /* r = 2 and 3: most shared quotients hold equal remainders from
     * different keys (merge's rising-runs path makes them "x x"); r from
     * the fpr: mostly runs of one table; `dup` 1: no key repeats in x, so
     * most runs have no counter */
    const uint64_t caps[] = { 50, 1000, 20000 };
    const uint32_t rs[] = { 0, 2, 3 };
    for (int a = 0; a < 3 * 3 * 2; a++) {
        uint64_t cap = caps[a % 3], dup = a / 9 ? 1 : 3;
        uint32_t r = rs[a / 3 % 3];
        fk_quotient *x = make(cap, 0.01, r, 9), *y = make(cap, 0.01, r, 9);
        fk_quotient *both = make(cap, 0.01, r, 9);
        /* overlapping key sets, x's with repeats: keys i % (cap / 3) */
        for (uint64_t i = 0; i < cap * 4 / 10; i++) {
            uint64_t k = key_of(6, i % (cap / dup + 1));
            CHECK_STATUS(fk_quotient_insert(x, &k, 8), FK_OK);
            CHECK_STATUS(fk_quotient_insert(both, &k, 8), FK_OK);
        }
        for (uint64_t i = 0; i < cap * 4 / 10; i++) {
            uint64_t k = key_of(6, cap / 5 + i);
            CHECK_STATUS(fk_quotient_insert(y, &k, 8), FK_OK);
            CHECK_STATUS(fk_quotient_insert(both, &k, 8), FK_OK);
        }
        uint8_t *ysnap = malloc(bytes_of(y));
        memcpy(ysnap, y->table, bytes_of(y));
        CHECK_STATUS(fk_quotient_merge(x, y), FK_OK);
        CHECK(same_table(x, both));
        CHECK(memcmp(ysnap, y->table, bytes_of(y)) == 0);
        free(ysnap);
        fk_quotient_free(x);
        fk_quotient_free(y);
        fk_quotient_free(both);
    }
}

TEST(merge_refuses_and_loses_nothing)
{
    fk_quotient *a = make(1000, 0.01, 0, 1), *b = make(1000, 0.01, 0, 2);
    fk_quotient *c = make(1000, 0.001, 0, 1), *d = make(2000, 0.01, 0, 1);
    uint64_t k = 42;
    CHECK_STATUS(fk_quotient_insert(a, &k, 8), FK_OK);
    CHECK_STATUS(fk_quotient_merge(a, b), FK_EINVAL); /* seed */
    CHECK_STATUS(fk_quotient_merge(a, c), FK_EINVAL); /* r */
    CHECK_STATUS(fk_quotient_merge(a, d), FK_EINVAL); /* size */
    CHECK_STATUS(fk_quotient_merge(a, NULL), FK_EINVAL);
    CHECK_STATUS(fk_quotient_merge(NULL, a), FK_EINVAL);
    CHECK_STATUS(fk_filter_merge(fk_quotient_as_filter(a), fk_quotient_as_filter(c)), FK_EINVAL);
    CHECK(fk_quotient_contains(a, &k, 8));
    CHECK_STATUS(fk_quotient_merge(a, a), FK_EINVAL); /* as fk_filter_merge */
    /* a filter with the same params merges, counts add, through the
     * generic calls too */
    fk_quotient *a2 = make(1000, 0.01, 0, 1);
    CHECK_STATUS(fk_quotient_insert(a, &k, 8), FK_OK);
    CHECK_STATUS(fk_quotient_insert(a2, &k, 8), FK_OK);
    CHECK_STATUS(fk_filter_merge(fk_quotient_as_filter(a), fk_quotient_as_filter(a2)), FK_OK);
    uint64_t cnt = 0;
    CHECK_STATUS(fk_filter_count(fk_quotient_as_filter(a), &k, 8, &cnt), FK_OK);
    CHECK_EQ_U64(cnt, 3);
    CHECK(fk_filter_contains_u64(fk_quotient_as_filter(a), 42));
    CHECK_STATUS(fk_filter_remove_u64(fk_quotient_as_filter(a), 42), FK_OK);
    CHECK_STATUS(fk_filter_insert_u64(fk_quotient_as_filter(a2), 43), FK_OK);
    CHECK(fk_quotient_contains(a2, &(uint64_t){ 43 }, 8));
    fk_quotient_free(a2);
    /* a union too big for the table: FK_EFULL, dst as it was */
    fk_quotient *x = make(1000, 0.01, 0, 5), *y = make(1000, 0.01, 0, 5);
    uint64_t nx = fill_to_failure(x, 300);
    uint64_t ny = fill_to_failure(y, 400);
    CHECK(nx > 900 && ny > 900);
    uint8_t *snap = malloc(bytes_of(x));
    memcpy(snap, x->table, bytes_of(x));
    CHECK_STATUS(fk_quotient_merge(x, y), FK_EFULL);
    CHECK(memcmp(snap, x->table, bytes_of(x)) == 0);
    CHECK_EQ_U64(info_of(x).items, nx);
    free(snap);
    fk_quotient_free(x);
    fk_quotient_free(y);
    fk_quotient_free(a);
    fk_quotient_free(b);
    fk_quotient_free(c);
    fk_quotient_free(d);
}

TEST(grow_equals_direct_build)
{
    const uint64_t caps[] = { 10, 700, 30000 };
    for (int a = 0; a < 3; a++) {
        fk_quotient *qf = make(caps[a], 0.001, 0, 13);
        uint32_t r = qf->r;
        uint64_t n = caps[a] * 9 / 10;
        for (uint64_t i = 0; i < n; i++) {
            uint64_t k = key_of(8, i % (n / 2 + 1)); /* repeats: counts survive growth */
            CHECK_STATUS(fk_quotient_insert(qf, &k, 8), FK_OK);
        }
        fk_quotient *direct = make_exact(qf->slots * 2, qf->quotients * 2, r - 1, 13);
        for (uint64_t i = 0; i < n; i++) {
            uint64_t k = key_of(8, i % (n / 2 + 1));
            CHECK_STATUS(fk_quotient_insert(direct, &k, 8), FK_OK);
        }
        uint64_t cap0 = qf->capacity;
        CHECK_STATUS(fk_quotient_grow(qf), FK_OK);
        CHECK_EQ_U64(info_of(qf).remainder_bits, r - 1);
        CHECK_EQ_U64(qf->capacity, cap0 * 2);
        CHECK(same_table(qf, direct));
        /* it keeps working: the rest of a doubled capacity goes in */
        for (uint64_t i = n; i < 2 * n; i++) {
            uint64_t k = key_of(8, i);
            CHECK_STATUS(fk_quotient_insert(qf, &k, 8), FK_OK);
        }
        uint64_t missing = 0;
        for (uint64_t i = 0; i < 2 * n; i++) {
            uint64_t k = key_of(8, i < n ? i % (n / 2 + 1) : i);
            missing += !fk_quotient_contains(qf, &k, 8);
        }
        CHECK_EQ_U64(missing, 0);
        CHECK(well_formed(qf));
        fk_quotient_free(direct);
        fk_quotient_free(qf);
    }
    /* down to r = 2, then refused */
    fk_quotient *qf = make(100, 0.01, 4, 1);
    uint64_t k = 7;
    CHECK_STATUS(fk_quotient_insert(qf, &k, 8), FK_OK);
    CHECK_STATUS(fk_quotient_grow(qf), FK_OK);
    CHECK_STATUS(fk_quotient_grow(qf), FK_OK);
    CHECK_STATUS(fk_quotient_grow(qf), FK_EINVAL);
    CHECK_EQ_U64(info_of(qf).remainder_bits, 2);
    CHECK(fk_quotient_contains(qf, &k, 8));
    CHECK_STATUS(fk_quotient_grow(NULL), FK_EINVAL);
    fk_quotient_free(qf);
    /* a byte limit: the table may double once, not twice */
    fk_params p = fk_params_make(10000, 0.01);
    fk_stats st;
    qf = NULL;
    CHECK_STATUS(fk_quotient_new(&p, &qf), FK_OK);
    fk_quotient_stats(qf, &st);
    fk_quotient_free(qf);
    p.max_bytes = st.memory_bytes * 2;
    CHECK_STATUS(fk_quotient_new(&p, &qf), FK_OK);
    CHECK_STATUS(fk_quotient_grow(qf), FK_OK);
    CHECK_STATUS(fk_quotient_grow(qf), FK_ELIMIT);
    fk_quotient_stats(qf, &st);
    CHECK(st.memory_bytes <= p.max_bytes);
    fk_quotient_free(qf);
}

/* ------------------------------------------------------------ counting */

TEST(a_million_inserts_of_one_key)
{
    fk_quotient *qf = make(1000, 0.01, 0, 0);
    const char *key = "heavy";
    for (uint64_t k = 0; k < 100; k++)
        CHECK_STATUS(fk_quotient_insert(qf, &k, 8), FK_OK);
    uint64_t used_before = info_of(qf).used_slots;
    for (int i = 0; i < 1000000; i++)
        if (fk_quotient_insert(qf, key, 5) != FK_OK)
            break;
    uint64_t c = 0;
    CHECK_STATUS(fk_quotient_count(qf, key, 5, &c), FK_OK);
    CHECK(c >= 1000000);
    fk_quotient_location loc;
    CHECK_STATUS(fk_quotient_locate(qf, key, 5, &loc), FK_OK);
    CHECK(loc.group_slots <= 8);
    CHECK(info_of(qf).used_slots - used_before <= 8);
    for (uint64_t k = 0; k < 100; k++)
        CHECK(fk_quotient_contains(qf, &k, 8));
    /* and back down to zero */
    for (int i = 0; i < 1000000; i++)
        if (fk_quotient_remove(qf, key, 5) != FK_OK)
            break;
    CHECK_STATUS(fk_quotient_count(qf, key, 5, &c), FK_OK);
    CHECK(c == 0 || c < 5); /* a colliding small key could remain */
    CHECK(well_formed(qf));
    fk_quotient_free(qf);
}

TEST(remove_of_keys_never_inserted)
{
    /* (a) no group with its quotient and remainder: FK_ENOTFOUND, not a
     * byte changes */
    fk_quotient *qf = make(2000, 0.001, 0, 4);
    for (uint64_t i = 0; i < 1500; i++) {
        uint64_t k = key_of(10, i);
        CHECK_STATUS(fk_quotient_insert(qf, &k, 8), FK_OK);
    }
    uint8_t *snap = malloc(bytes_of(qf));
    memcpy(snap, qf->table, bytes_of(qf));
    uint64_t refused = 0, took = 0;
    for (uint64_t i = 0; i < 20000; i++) {
        uint64_t k = key_of(11, i);
        if (fk_quotient_contains(qf, &k, 8))
            continue;
        took++;
        refused += fk_quotient_remove(qf, &k, 8) == FK_ENOTFOUND;
    }
    CHECK_EQ_U64(refused, took);
    CHECK(memcmp(snap, qf->table, bytes_of(qf)) == 0);
    CHECK_EQ_U64(info_of(qf).items, 1500);
    free(snap);
    fk_quotient_free(qf);

    /* (b) a key sharing an inserted key's quotient and remainder (a false
     * positive): its remove takes one count from that shared group, and
     * from nothing else */
    qf = make(64, 0.5, 2, 4); /* r = 2: collisions are easy to find */
    uint64_t a = key_of(12, 0);
    CHECK_STATUS(fk_quotient_insert(qf, &a, 8), FK_OK);
    CHECK_STATUS(fk_quotient_insert(qf, &a, 8), FK_OK);
    uint64_t other = 0;
    fk_quotient_location la, lb;
    CHECK_STATUS(fk_quotient_locate(qf, &a, 8, &la), FK_OK);
    for (uint64_t i = 1; i < 100000; i++) {
        other = key_of(13, i);
        CHECK_STATUS(fk_quotient_locate(qf, &other, 8, &lb), FK_OK);
        if (lb.quotient == la.quotient && lb.remainder == la.remainder)
            break;
    }
    CHECK(lb.quotient == la.quotient && lb.remainder == la.remainder);
    for (uint64_t i = 0; i < 20; i++) { /* neighbours that must not change */
        uint64_t k = key_of(14, i);
        CHECK_STATUS(fk_quotient_insert(qf, &k, 8), FK_OK);
    }
    uint64_t c = 0;
    CHECK_STATUS(fk_quotient_remove(qf, &other, 8), FK_OK);
    CHECK_STATUS(fk_quotient_count(qf, &a, 8, &c), FK_OK);
    CHECK_EQ_U64(c, 1);
    for (uint64_t i = 0; i < 20; i++) {
        uint64_t k = key_of(14, i);
        CHECK(fk_quotient_contains(qf, &k, 8));
    }
    CHECK(well_formed(qf));
    fk_quotient_free(qf);
}

/* ------------------------------------------------------------- saving */

static void save_load_round_trip(fk_quotient *qf)
{
    uint64_t size = 0;
    CHECK_STATUS(fk_filter_serialized_size(fk_quotient_as_filter(qf), &size), FK_OK);
    CHECK_EQ_U64(size, 128 + bytes_of(qf));
    uint8_t *buf = malloc((size_t)size);
    size_t wrote = 0;
    CHECK_STATUS(fk_quotient_save(qf, buf, (size_t)size, &wrote), FK_OK);
    CHECK_EQ_U64(wrote, size);
    fk_quotient *back = NULL;
    CHECK_STATUS(fk_quotient_load(buf, (size_t)size, &back), FK_OK);
    if (back) {
        CHECK(same_table(qf, back));
        CHECK_EQ_U64(back->capacity, qf->capacity);
        CHECK(back->fpr == qf->fpr);
        CHECK(back->lookup == qf->lookup);
    }
    fk_filter *any = NULL;
    CHECK_STATUS(fk_filter_load_any(buf, (size_t)size, &any), FK_OK);
    CHECK(any && fk_filter_ops(any) == &fk_quotient_ops);
    fk_filter_free(any);
    fk_quotient_free(back);
    free(buf);
}

TEST(save_load_at_many_sizes)
{
    const uint64_t caps[] = { 1, 63, 64, 65, 1000, 50000 };
    for (int a = 0; a < 6; a++) {
        fk_quotient *qf = make(caps[a], 0.02, 0, 21);
        save_load_round_trip(qf); /* empty */
        fill_to_failure(qf, 22);
        for (int i = 0; i < 1000; i++)
            fk_quotient_insert(qf, "dup", 3); /* a long counter, if it fits */
        save_load_round_trip(qf);
        fk_quotient_free(qf);
    }
}

static void reseal(uint8_t *buf, size_t len)
{
    fk_le_put64(buf + len - 8, XXH64(buf, len - 8, 0));
}

TEST(loader_refuses_every_impossible_table)
{
    fk_quotient *qf = make(300, 0.05, 0, 3);
    for (uint64_t i = 0; i < 280; i++) {
        uint64_t k = key_of(30, i % 200);
        CHECK_STATUS(fk_quotient_insert(qf, &k, 8), FK_OK);
    }
    uint64_t size = 0;
    fk_filter_serialized_size(fk_quotient_as_filter(qf), &size);
    uint8_t *buf = malloc((size_t)size), *edit = malloc((size_t)size);
    CHECK_STATUS(fk_quotient_save(qf, buf, (size_t)size, NULL), FK_OK);
    /* every single bit of the payload flipped, checksum fixed: refused,
     * unless it lands in the remainder of a used slot and leaves another
     * table that inserts could have built (checked: well formed, and the
     * groups still in order); a flip in the bitmaps, an offset or a free
     * slot never loads */
    bool *used = calloc((size_t)qf->slots, sizeof *used);
    for (uint64_t q = 0, next = 0; q < qf->quotients; q++) {
        if (!fk_qf_is_occupied(qf, q))
            continue;
        uint64_t j = q > next ? q : next;
        for (;; j++) {
            used[j] = true;
            if (fk_qf_is_runend(qf, j))
                break;
        }
        next = j + 1;
    }
    uint64_t accepted = 0, wrongly = 0, bits = (size - 128) * 8;
    for (uint64_t bit = 0; bit < bits; bit++) {
        memcpy(edit, buf, (size_t)size);
        edit[120 + bit / 8] ^= (uint8_t)(1u << (bit % 8));
        reseal(edit, (size_t)size);
        fk_quotient *back = NULL;
        fk_status s = fk_quotient_load(edit, (size_t)size, &back);
        uint64_t block = bit / 8 / qf->block_bytes, in = bit - block * qf->block_bytes * 8;
        bool remainder_bit = in >= 8 * FK_QF_BLOCK_HEAD;
        uint64_t slot = block * 64 + (remainder_bit ? (in - 8 * FK_QF_BLOCK_HEAD) / qf->r : 0);
        if (s == FK_OK) {
            accepted++;
            wrongly += !remainder_bit || slot >= qf->slots || !used[slot] || !well_formed(back);
        } else {
            CHECK_STATUS(s, FK_ECORRUPT);
        }
        CHECK(s == FK_OK || back == NULL);
        fk_quotient_free(back);
    }
    CHECK_EQ_U64(wrongly, 0);
    free(used);
    /* wrong items, bad parameters */
    const struct { size_t off; uint64_t v; } edits[] = {
        { 40, 1 }, { 48, 63 }, { 48, 0 }, { 56, 0 }, { 56, 1u << 20 }, { 64, 1 }, { 64, 57 },
        { 72, 1 },
    };
    for (size_t e = 0; e < sizeof edits / sizeof edits[0]; e++) {
        memcpy(edit, buf, (size_t)size);
        fk_le_put64(edit + edits[e].off, edits[e].v);
        reseal(edit, (size_t)size);
        fk_quotient *back = NULL;
        CHECK_STATUS(fk_quotient_load(edit, (size_t)size, &back), FK_ECORRUPT);
    }
    free(buf);
    free(edit);
    fk_quotient_free(qf);
}

/* A table whose groups break the order within a run: "5 5 3" decodes as
 * (5, count 2) then (3, count 1), and rebuilding those groups in that
 * order gives the same bytes, so only the order check refuses it. Before
 * issue 38 it loaded, and its grow wrote quotients out of order. */
static uint8_t *unordered_record(size_t *len)
{
    fk_quotient *qf = make_exact(64, 64, 3, 7);
    fk_qf_builder b;
    fk_qf_build_init(&b, qf);
    CHECK_STATUS(fk_qf_build_add(&b, 10, 5, 2), FK_OK);
    CHECK_STATUS(fk_qf_build_add(&b, 10, 3, 1), FK_OK);
    CHECK_STATUS(fk_qf_build_finish(&b), FK_OK);
    uint64_t size = 0;
    CHECK_STATUS(fk_filter_serialized_size(fk_quotient_as_filter(qf), &size), FK_OK);
    uint8_t *buf = malloc((size_t)size);
    CHECK_STATUS(fk_quotient_save(qf, buf, (size_t)size, NULL), FK_OK);
    fk_quotient_free(qf);
    *len = (size_t)size;
    return buf;
}

TEST(loader_refuses_groups_out_of_order)
{
    size_t len = 0;
    uint8_t *buf = unordered_record(&len);
    fk_quotient *back = NULL;
    CHECK_STATUS(fk_quotient_load(buf, len, &back), FK_ECORRUPT);
    CHECK(back == NULL);
    fk_filter *any = NULL;
    CHECK_STATUS(fk_filter_load_any(buf, len, &any), FK_ECORRUPT);
    if (back) { /* the old loader: what grow then made does not load */
        CHECK_STATUS(fk_quotient_grow(back), FK_OK);
        fk_quotient_free(back);
    }
    fk_filter_free(any);
    free(buf);
}

/* Counts stop at UINT64_MAX (issue 38): a filter merged with a copy of
 * itself doubles every count; after 70 doublings of a count of 1 the
 * count and the items are UINT64_MAX, not a wrapped value, and the filter
 * still saves, loads, takes inserts and removes. */
TEST(counts_saturate_at_the_largest_value)
{
    fk_quotient *qf = make(1000, 0.01, 0, 11);
    uint64_t k = 77, other = 78, c = 0;
    CHECK_STATUS(fk_quotient_insert(qf, &k, 8), FK_OK);
    for (int i = 0; i < 70; i++) {
        uint64_t size = 0;
        fk_filter_serialized_size(fk_quotient_as_filter(qf), &size);
        uint8_t *buf = malloc((size_t)size);
        CHECK_STATUS(fk_quotient_save(qf, buf, (size_t)size, NULL), FK_OK);
        fk_quotient *copy = NULL;
        CHECK_STATUS(fk_quotient_load(buf, (size_t)size, &copy), FK_OK);
        free(buf);
        if (!copy)
            break;
        CHECK_STATUS(fk_quotient_merge(qf, copy), FK_OK);
        fk_quotient_free(copy);
        CHECK_STATUS(fk_quotient_count(qf, &k, 8, &c), FK_OK);
        CHECK_EQ_U64(c, i < 63 ? UINT64_C(1) << (i + 1) : UINT64_MAX);
    }
    CHECK_EQ_U64(c, UINT64_MAX);
    fk_stats st;
    fk_quotient_stats(qf, &st);
    CHECK_EQ_U64(st.items, UINT64_MAX);
    CHECK_EQ_U64(info_of(qf).items, UINT64_MAX);
    CHECK_STATUS(fk_filter_count(fk_quotient_as_filter(qf), &k, 8, &c), FK_OK);
    CHECK_EQ_U64(c, UINT64_MAX);
    CHECK(well_formed(qf));
    save_load_round_trip(qf);
    /* an insert at the top keeps it there; another key adds to a sum that
     * is past 2^64 - 1 but reads as UINT64_MAX and still loads */
    CHECK_STATUS(fk_quotient_insert(qf, &k, 8), FK_OK);
    CHECK_STATUS(fk_quotient_count(qf, &k, 8, &c), FK_OK);
    CHECK_EQ_U64(c, UINT64_MAX);
    CHECK_STATUS(fk_quotient_insert(qf, &other, 8), FK_OK);
    CHECK_EQ_U64(info_of(qf).items, UINT64_MAX);
    CHECK(well_formed(qf));
    save_load_round_trip(qf);
    /* removes count down exactly from the saturated value */
    CHECK_STATUS(fk_quotient_remove(qf, &other, 8), FK_OK);
    CHECK_STATUS(fk_quotient_remove(qf, &k, 8), FK_OK);
    CHECK_STATUS(fk_quotient_count(qf, &k, 8, &c), FK_OK);
    CHECK_EQ_U64(c, UINT64_MAX - 1);
    CHECK_EQ_U64(info_of(qf).items, UINT64_MAX - 1);
    CHECK(well_formed(qf));
    save_load_round_trip(qf);
    /* two groups each past half: their sum saturates, both stay exact */
    fk_quotient *two = make(1000, 0.01, 0, 11);
    CHECK_STATUS(fk_quotient_insert(two, &other, 8), FK_OK);
    CHECK_STATUS(fk_quotient_merge(two, qf), FK_OK);
    CHECK_EQ_U64(info_of(two).items, UINT64_MAX);
    CHECK_STATUS(fk_quotient_count(two, &other, 8, &c), FK_OK);
    CHECK_EQ_U64(c, 1);
    CHECK(well_formed(two));
    save_load_round_trip(two);
    fk_quotient_free(two);
    fk_quotient_free(qf);
}

/* Every table merge, grow and load produce keeps the invariants (the
 * library's own check, run here in every build; the sanitizer build also
 * runs it inside the library after each of those calls). */
TEST(invariants_hold_after_merge_grow_and_load)
{
    fk_quotient *a = make(2000, 0.01, 0, 9), *b = make(2000, 0.01, 0, 9);
    for (uint64_t i = 0; i < 600; i++) {
        uint64_t k = key_of(40, i % 500); /* some counts of 2 */
        CHECK_STATUS(fk_quotient_insert(a, &k, 8), FK_OK);
        k = key_of(41, i % 300);
        CHECK_STATUS(fk_quotient_insert(b, &k, 8), FK_OK);
    }
    CHECK(well_formed(a) && well_formed(b));
    CHECK_STATUS(fk_quotient_merge(a, b), FK_OK);
    CHECK(well_formed(a));
    for (int g = 0; g < 3; g++) {
        CHECK_STATUS(fk_quotient_grow(a), FK_OK);
        CHECK(well_formed(a));
        CHECK_STATUS(fk_quotient_grow(b), FK_OK);
        CHECK_STATUS(fk_quotient_merge(a, b), FK_OK);
        CHECK(well_formed(a));
    }
    uint64_t size = 0;
    fk_filter_serialized_size(fk_quotient_as_filter(a), &size);
    uint8_t *buf = malloc((size_t)size);
    CHECK_STATUS(fk_quotient_save(a, buf, (size_t)size, NULL), FK_OK);
    fk_quotient *back = NULL;
    CHECK_STATUS(fk_quotient_load(buf, (size_t)size, &back), FK_OK);
    CHECK(back && well_formed(back) && same_table(a, back));
    fk_quotient_free(back);
    free(buf);
#ifdef FK_QF_DEBUG_CHECK
    /* and the check refuses a table out of order */
    size_t len = 0;
    uint8_t *rec = unordered_record(&len);
    fk_quotient *bad = make_exact(64, 64, 3, 7);
    memcpy(bad->table, rec + 120, bytes_of(bad));
    bad->items = 3;
    bad->distinct = 2;
    bad->used = 3;
    CHECK(!fk_qf_check_canonical(bad));
    fk_quotient_free(bad);
    free(rec);
#endif
    fk_quotient_free(a);
    fk_quotient_free(b);
}

/* -------------------------------------------------------------- select */

#if HAVE_BMI2
__attribute__((target("bmi2"))) static unsigned select_pdep(uint64_t w, unsigned k)
{
    return (unsigned)__builtin_ctzll(_pdep_u64(UINT64_C(1) << k, w));
}
#endif

TEST(bmi2_select_matches_portable)
{
#if HAVE_BMI2
    if (!fk_cpu_has(FK_CPU_BMI2)) {
        return;
    }
    uint64_t rng = 5;
    int bad = 0;
    for (int t = 0; t < 200000; t++) {
        uint64_t w = check_rng(&rng);
        if (t % 3 == 0)
            w &= check_rng(&rng); /* sparser words */
        if (!w)
            continue;
        unsigned k = (unsigned)(check_rng(&rng) % (unsigned)__builtin_popcountll(w));
        bad += select_pdep(w, k) != fk_rs_select(w, k);
    }
    CHECK_EQ_U64(bad, 0);
#endif
}

TEST(eight_byte_hash_is_xxh3)
{
    uint64_t rng = 99;
    int bad = 0;
    for (int t = 0; t < 100000; t++) {
        uint64_t seed = t % 7 == 0 ? (uint64_t)t : check_rng(&rng), key = check_rng(&rng);
        uint8_t le[8];
        fk_le_put64(le, key);
        bad += fk_qf_hash8(key, fk_qf_seed_flip(seed)) != XXH3_64bits_withSeed(le, 8, seed);
    }
    CHECK_EQ_U64(bad, 0);
}

/* ------------------------------------------------------------- batches */

TEST(batches_answer_as_single_calls)
{
    fk_quotient *one = make(5000, 0.01, 0, 8), *many = make(5000, 0.01, 0, 8);
    enum { N = 4000 };
    static uint64_t ints[N];
    static const void *keys[N];
    static size_t lens[N];
    static bool out[N], out2[N];
    for (size_t i = 0; i < N; i++) {
        ints[i] = key_of(40, i);
        keys[i] = &ints[i];
        lens[i] = 8;
        CHECK_STATUS(fk_quotient_insert(one, &ints[i], 8), FK_OK);
    }
    size_t done = 0;
    CHECK_STATUS(fk_filter_insert_many(fk_quotient_as_filter(many), N / 2, keys, lens, &done), FK_OK);
    CHECK_EQ_U64(done, N / 2);
    CHECK_STATUS(fk_filter_insert_many_u64(fk_quotient_as_filter(many), N / 2, ints + N / 2, &done), FK_OK);
    CHECK(same_table(one, many));
    for (size_t i = 0; i < N; i++)
        ints[i] = key_of(i % 2 ? 40 : 41, i);
    fk_filter_contains_many(fk_quotient_as_filter(one), N, keys, lens, out);
    fk_filter_contains_many_u64(fk_quotient_as_filter(one), N, ints, out2);
    int bad = 0;
    for (size_t i = 0; i < N; i++)
        bad += out[i] != fk_quotient_contains(one, &ints[i], 8) || out2[i] != out[i] ||
               (i % 2 && !out[i]);
    CHECK_EQ_U64(bad, 0);
    /* the batch slots answer as the dispatchers' single-key fallback would */
    for (size_t i = 0; i < N; i++)
        out2[i] = fk_filter_contains(fk_quotient_as_filter(one), keys[i], lens[i]);
    CHECK(memcmp(out, out2, sizeof out) == 0);
    /* a batch stops at FK_EFULL with nothing lost */
    fk_quotient *small = make(100, 0.01, 0, 8);
    CHECK_STATUS(fk_filter_insert_many_u64(fk_quotient_as_filter(small), N, ints, &done), FK_EFULL);
    CHECK(done >= 100 && done < N);
    CHECK_EQ_U64(info_of(small).items, done);
    for (size_t i = 0; i < done; i++)
        CHECK(fk_quotient_contains(small, &ints[i], 8));
    fk_quotient_free(small);
    fk_quotient_free(one);
    fk_quotient_free(many);
}

/* ------------------------------------------------------- sizing, inputs */

TEST(bits_per_item_within_the_space_formula)
{
    const uint64_t ns[] = { 100000, 1000000 };
    const double fprs[] = { 0.01, 0.001 };
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++) {
            fk_params p = fk_params_make(ns[a], fprs[b]);
            fk_sizing sz;
            CHECK_STATUS(fk_ops_size(&fk_quotient_ops, &p, &sz), FK_OK);
            fk_quotient *qf = make(ns[a], fprs[b], 0, 0);
            fk_stats st;
            fk_quotient_stats(qf, &st);
            CHECK_EQ_U64(st.memory_bytes, sz.memory_bytes);
            double limit = (qf->r + 2.125) / 0.95 + 8.0 * (sizeof *qf + 64 * 2) / (double)ns[a];
            CHECK_MSG(st.bits_per_item <= limit, "n %llu fpr %g: %.3f bits/item, limit %.3f",
                      (unsigned long long)ns[a], fprs[b], st.bits_per_item, limit);
            fk_quotient_free(qf);
        }
}

TEST(bad_arguments)
{
    fk_quotient *qf = NULL;
    fk_params p = fk_params_make(100, 0.01);
    CHECK_STATUS(fk_quotient_new(NULL, &qf), FK_EINVAL);
    CHECK_STATUS(fk_quotient_new(&p, NULL), FK_EINVAL);
    p.fingerprint_bits = 1;
    CHECK_STATUS(fk_quotient_new(&p, &qf), FK_EINVAL);
    p.fingerprint_bits = 57;
    CHECK_STATUS(fk_quotient_new(&p, &qf), FK_EINVAL);
    p.fingerprint_bits = 0;
    p.max_load = NAN;
    CHECK_STATUS(fk_quotient_new(&p, &qf), FK_EINVAL);
    p.max_load = 1.5;
    CHECK_STATUS(fk_quotient_new(&p, &qf), FK_EINVAL);
    p.max_load = 0;
    p.capacity = UINT64_MAX;
    CHECK_STATUS(fk_quotient_new(&p, &qf), FK_EINVAL);
    CHECK(qf == NULL);
    p.capacity = 0;
    CHECK_STATUS(fk_quotient_new(&p, &qf), FK_EINVAL);
    p = fk_params_make(100, 0.01);
    CHECK_STATUS(fk_quotient_new(&p, &qf), FK_OK);
    uint64_t c = 9;
    CHECK_STATUS(fk_quotient_insert(NULL, "a", 1), FK_EINVAL);
    CHECK_STATUS(fk_quotient_insert(qf, NULL, 1), FK_EINVAL);
    CHECK_STATUS(fk_quotient_insert(qf, NULL, 0), FK_OK); /* the empty key */
    CHECK(fk_quotient_contains(qf, NULL, 0));
    CHECK(fk_quotient_contains(qf, "", 0));
    CHECK(!fk_quotient_contains(NULL, "a", 1));
    CHECK(!fk_quotient_contains(qf, NULL, 1));
    CHECK_STATUS(fk_quotient_count(qf, NULL, 1, &c), FK_EINVAL);
    CHECK_EQ_U64(c, 0);
    CHECK_STATUS(fk_quotient_count(qf, "a", 1, NULL), FK_EINVAL);
    CHECK_STATUS(fk_quotient_count(NULL, "a", 1, &c), FK_EINVAL);
    CHECK_STATUS(fk_quotient_remove(NULL, "a", 1), FK_EINVAL);
    CHECK_STATUS(fk_quotient_remove(qf, NULL, 1), FK_EINVAL);
    CHECK_STATUS(fk_quotient_remove(qf, "never", 5), FK_ENOTFOUND);
    CHECK_STATUS(fk_quotient_locate(qf, "a", 1, NULL), FK_EINVAL);
    fk_stats st;
    fk_quotient_stats(NULL, &st);
    CHECK_EQ_U64(st.items, 0);
    fk_quotient_stats(qf, NULL);
    fk_quotient_description in;
    in.slots = 12345;
    fk_quotient_describe(NULL, &in); /* no-op: in untouched */
    CHECK_EQ_U64(in.slots, 12345);
    fk_quotient_describe(qf, NULL); /* no-op, no crash */
    CHECK(fk_quotient_as_filter(NULL) == NULL);
    fk_quotient_free(NULL);
    fk_quotient_free(qf);
}

TEST(generic_calls_reach_the_kind)
{
    fk_params p = fk_params_make(1000, 0.01);
    fk_filter *f = NULL;
    CHECK_STATUS(fk_filter_new(&fk_quotient_ops, &p, &f), FK_OK);
    CHECK(fk_ops_caps(&fk_quotient_ops) & FK_CAP_COUNT);
    CHECK(fk_ops_caps(&fk_quotient_ops) & FK_CAP_REMOVE);
    CHECK(fk_ops_find("quotient") == &fk_quotient_ops);
    CHECK(fk_ops_find_kind_id(FK_KIND_QUOTIENT) == &fk_quotient_ops);
    CHECK_STATUS(fk_filter_insert(f, "k", 1), FK_OK);
    CHECK(fk_filter_contains(f, "k", 1));
    CHECK_STATUS(fk_filter_remove(f, "k", 1), FK_OK);
    CHECK(!fk_filter_contains(f, "k", 1));
    fk_filter_free(f);
}

int main(void)
{
    RUN(counter_encoding_round_trips);
    RUN(counter_lengths_are_logarithmic);
    RUN(model_sequences_small_tables);
    RUN(model_sequences_to_full);
    RUN(model_heavy_duplicates);
    RUN(full_loses_nothing_and_comes_late);
    RUN(fpr_within_binomial_bound);
    RUN(grown_on_full_as_pick_says_meets_the_target_at_the_end);
    RUN(sized_fpr_meets_target);
    RUN(merge_equals_direct_build);
    RUN(merge_refuses_and_loses_nothing);
    RUN(grow_equals_direct_build);
    RUN(a_million_inserts_of_one_key);
    RUN(remove_of_keys_never_inserted);
    RUN(save_load_at_many_sizes);
    RUN(loader_refuses_every_impossible_table);
    RUN(loader_refuses_groups_out_of_order);
    RUN(counts_saturate_at_the_largest_value);
    RUN(invariants_hold_after_merge_grow_and_load);
    RUN(bmi2_select_matches_portable);
    RUN(eight_byte_hash_is_xxh3);
    RUN(batches_answer_as_single_calls);
    RUN(bits_per_item_within_the_space_formula);
    RUN(bad_arguments);
    RUN(generic_calls_reach_the_kind);
    return check_report();
}
