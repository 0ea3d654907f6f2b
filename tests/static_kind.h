/* tests/static_kind.h: what the tests of the static kinds (built once from
 * a key set: ribbon, fuse) share: parameters at a fingerprint width, key
 * sets, the false negatives of a set, saved bytes and a binomial FPR bound
 * (forged headers: forge.h).
 * Include it after check.h, keys.h and the kind's header, then name the
 * kind once: FK_TEST_STATIC_KIND(ribbon) gives build_u64,
 * false_negatives_u64, false_positives_u64, saved, same_bytes,
 * reloads_exact and bad_builds_refused (every malformed build call FK_EINVAL, *out NULL)
 * for fk_ribbon; MAX_THREADS is the kind's FK_<KIND>_MAX_THREADS. One static kind
 * per test file. */
#ifndef FK_TESTS_STATIC_KIND_H
#define FK_TESTS_STATIC_KIND_H

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* fk_params at fingerprint width `bits` and the given seed. */
static inline fk_params params_bits(uint32_t bits, uint64_t seed)
{
    fk_params p = fk_params_make(0, 0.01);
    p.fingerprint_bits = bits;
    p.seed = seed;
    return p;
}

/* keys[i] = keys_positive(i) for i < n; returns keys (NULL stays NULL). */
static inline uint64_t *fill_positives(uint64_t *keys, size_t n)
{
    for (size_t i = 0; keys && i < n; i++)
        keys[i] = keys_positive(i);
    return keys;
}

/* hits in q independent trials of probability r lie within six standard
 * deviations (plus one) of the mean: a bound a correct filter misses with
 * a probability far below 10^-8. */
static inline bool within_binomial(uint64_t hits, uint64_t q, double r)
{
    double mean = (double)q * r, sd = sqrt((double)q * r * (1 - r));
    return fabs((double)hits - mean) <= 6 * sd + 1;
}

#define FK_TEST_STATIC_KIND(kind, max_threads)                                                    \
    static inline fk_##kind *build_u64(const fk_params *p, size_t n, const uint64_t *keys) \
    {                                                                                  \
        fk_##kind *x = NULL;                                                           \
        fk_status s = fk_##kind##_build_u64(p, n, keys, &x);                           \
        CHECK_MSG(s == FK_OK, "build of %zu keys: %s", n, fk_status_name(s));          \
        return x;                                                                      \
    }                                                                                  \
    /* How many of keys[0..n) x answers false for. */                                  \
    static inline size_t false_negatives_u64(const fk_##kind *x, size_t n,             \
                                             const uint64_t *keys)                     \
    {                                                                                  \
        size_t fn = 0;                                                                 \
        for (size_t i = 0; i < n; i++)                                                 \
            fn += !fk_##kind##_contains_u64(x, keys[i]);                               \
        return fn;                                                                     \
    }                                                                                  \
    /* How many of the first q keys_negative() keys x answers true for. */          \
    static inline uint64_t false_positives_u64(const fk_##kind *x, uint64_t q)         \
    {                                                                                  \
        uint64_t hits = 0;                                                             \
        for (uint64_t i = 0; i < q; i++)                                               \
            hits += fk_##kind##_contains_u64(x, keys_negative(i));                     \
        return hits;                                                                   \
    }                                                                                  \
    /* The saved bytes of x (caller frees), *len set. */                              \
    static inline uint8_t *saved(fk_##kind *x, size_t *len)                            \
    {                                                                                  \
        uint64_t n = 0;                                                                \
        CHECK_STATUS(fk_filter_serialized_size(fk_##kind##_as_filter(x), &n), FK_OK);  \
        uint8_t *buf = malloc(n ? (size_t)n : 1);                                      \
        size_t w = 0;                                                                  \
        CHECK_STATUS(fk_##kind##_save(x, buf, (size_t)n, &w), FK_OK);                  \
        CHECK_EQ_U64(w, n);                                                            \
        *len = (size_t)n;                                                              \
        return buf;                                                                    \
    }                                                                                  \
    static inline bool same_bytes(fk_##kind *a, fk_##kind *b)                          \
    {                                                                                  \
        size_t la, lb;                                                                 \
        uint8_t *x = saved(a, &la), *y = saved(b, &lb);                                \
        bool same = la == lb && memcmp(x, y, la) == 0;                                 \
        free(x);                                                                       \
        free(y);                                                                       \
        return same;                                                                   \
    }                                                                                  \
    /* x saved and loaded back saves the same bytes and answers true for each      \
     * of keys[0..n). */                                                             \
    static inline void reloads_exact(fk_##kind *x, size_t n, const uint64_t *keys)     \
    {                                                                                  \
        size_t len;                                                                    \
        uint8_t *buf = saved(x, &len);                                                 \
        fk_##kind *back = NULL;                                                        \
        CHECK_STATUS(fk_##kind##_load(buf, len, &back), FK_OK);                        \
        CHECK(back && same_bytes(x, back));                                            \
        CHECK(back && false_negatives_u64(back, n, keys) == 0);                        \
        fk_##kind##_free(back);                                                        \
        free(buf);                                                                     \
    }                                                                                  \
    /* NULL where none is allowed, a NULL key of length 1, a bad fpr, width,      \
     * thread count or reserved field: FK_EINVAL, nothing made. */                    \
    static void bad_builds_refused(void)                                               \
    {                                                                                  \
        uint64_t k = 1;                                                                \
        const void *bk[1] = { NULL };                                                  \
        size_t bl[1] = { 1 };                                                          \
        fk_params p = params_bits(8, 0);                                               \
        fk_##kind *x = (fk_##kind *)(void *)&k; /* must be overwritten with NULL */    \
        CHECK_STATUS(fk_##kind##_build_u64(NULL, 1, &k, &x), FK_EINVAL);               \
        CHECK(x == NULL);                                                              \
        CHECK_STATUS(fk_##kind##_build_u64(&p, 1, &k, NULL), FK_EINVAL);               \
        CHECK_STATUS(fk_##kind##_build_u64(&p, 1, NULL, &x), FK_EINVAL);               \
        CHECK_STATUS(fk_##kind##_build(&p, 1, NULL, bl, &x), FK_EINVAL);               \
        CHECK_STATUS(fk_##kind##_build(&p, 1, bk, NULL, &x), FK_EINVAL);               \
        CHECK_STATUS(fk_##kind##_build(&p, 1, bk, bl, &x), FK_EINVAL);                 \
        CHECK(x == NULL);                                                              \
        double bad_fpr[] = { 0.0, 1.0, -0.5, 2.0, NAN, INFINITY };                     \
        for (size_t i = 0; i < 6; i++) {                                               \
            fk_params q = fk_params_make(0, bad_fpr[i]);                               \
            CHECK_STATUS(fk_##kind##_build_u64(&q, 1, &k, &x), FK_EINVAL);             \
        }                                                                              \
        fk_params q = p;                                                               \
        q.fingerprint_bits = 33;                                                       \
        CHECK_STATUS(fk_##kind##_build_u64(&q, 1, &k, &x), FK_EINVAL);                 \
        q = p;                                                                         \
        q.threads = (max_threads) + 1;                                                 \
        CHECK_STATUS(fk_##kind##_build_u64(&q, 1, &k, &x), FK_EINVAL);                 \
        q = p;                                                                         \
        q.reserved = 1;                                                                \
        CHECK_STATUS(fk_##kind##_build_u64(&q, 1, &k, &x), FK_EINVAL);                 \
        CHECK(x == NULL);                                                              \
        CHECK(!fk_##kind##_contains(NULL, "a", 1));                                    \
        CHECK(!fk_##kind##_contains_u64(NULL, 1));                                     \
        CHECK(fk_##kind##_as_filter(NULL) == NULL);                                    \
        fk_stats st;                                                                   \
        fk_##kind##_stats(NULL, &st);                                                  \
        CHECK_EQ_U64(st.memory_bytes, 0);                                              \
        fk_##kind##_free(NULL);                                                        \
    }

#endif
