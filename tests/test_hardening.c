/* tests/test_hardening.c: every public entry point with every class of bad
 * argument -- NULL filter, NULL out, NULL key with len > 0, zero-length
 * keys, parameters at the edges (capacity 1, capacity at the memory cap,
 * fpr 1e-12 and 0.999999), incompatible set operations, save/load misuse.
 * Each must answer a named status (or the documented neutral value), never
 * crash; the sanitizer build turns any UB into a failure.
 *
 * The memory-cap probe runs in a child process under an address-space
 * limit, so "just below the cap" costs an allocation failure (FK_ENOMEM),
 * never tens of GiB of real memory. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "check.h"
#include "../common/serial.h"
#include "../common/sizing_internal.h"
#include "../bloom/bloom.h"
#include "../bloom/bloom_internal.h"
#include "../counting/counting.h"
#include "../counting/counting_internal.h" /* fk_counting_count_nonzero */
#include "../cuckoo/cuckoo.h"
#include "../cuckoo/cuckoo_internal.h"
#include "../registry/registry.h"
#include "describe.h"

/* Under AddressSanitizer a failed huge allocation must come back as NULL
 * (-> FK_ENOMEM), as it does without ASan; tests/run.sh sets this too, this
 * makes the binary behave the same when run by hand. */
__attribute__((visibility("default"), used)) const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "allocator_may_return_null=1"; }

static bool is_static(const fk_ops *ops)
{
    return (fk_ops_caps(ops) & FK_CAP_STATIC) != 0;
}

/* An empty filter sized for capacity; for a static kind (FK_CAP_STATIC,
 * never empty and filled) one built from the 8-byte keys 0..capacity-1. */
static fk_filter *make(const fk_ops *ops, uint64_t capacity, double fpr)
{
    fk_params p = fk_params_make(capacity, fpr);
    fk_filter *f = NULL;
    fk_status s;
    if (is_static(ops)) {
        uint64_t *keys = calloc((size_t)capacity, sizeof *keys);
        for (uint64_t k = 0; keys && k < capacity; k++)
            keys[k] = k;
        s = keys ? fk_filter_build_u64(ops, &p, (size_t)capacity, keys, &f) : FK_ENOMEM;
        free(keys);
    } else {
        s = fk_filter_new(ops, &p, &f);
    }
    CHECK_MSG(s == FK_OK && f, "%s: capacity %llu fpr %g: %s", ops->name,
              (unsigned long long)capacity, fpr, fk_status_name(s));
    return f;
}

/* A pointer that must never be read: a bad-argument path that touched it
 * would fault (or trip ASan). */
#define POISON ((fk_filter *)(uintptr_t)0x10)

/* ------------------------------------------------------------ common */

TEST(common_functions_at_their_edges)
{
    /* statuses: every name is distinct and nothing is NULL, also out of range */
    for (int a = -1; a <= FK_ELIMIT + 1; a++) {
        CHECK(fk_strerror((fk_status)a) != NULL);
        CHECK(fk_status_name((fk_status)a) != NULL);
        for (int b = FK_OK; b < a && a <= FK_ELIMIT; b++)
            CHECK(strcmp(fk_status_name((fk_status)a), fk_status_name((fk_status)b)) != 0);
    }
    CHECK(strcmp(fk_status_name((fk_status)(FK_ELIMIT + 1)), "FK_UNKNOWN") == 0);
    CHECK_STATUS(fk_params_check(NULL), FK_EINVAL);
    static const double weird[] = { NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0, 2.0,
                                    1e-320, 1e-12, 0.999999 };
    static const uint64_t sizes[] = { 0, 1, 2, UINT64_C(1) << 32, UINT64_MAX / 2, UINT64_MAX };
    for (size_t i = 0; i < sizeof weird / sizeof weird[0]; i++) {
        double p = weird[i];
        bool valid = p > 0.0 && p < 1.0;
        for (size_t j = 0; j < sizeof sizes / sizeof sizes[0]; j++) {
            uint64_t m = fk_size_bloom_bits(sizes[j], p);
            CHECK(valid && sizes[j] ? true : m == 0); /* 0 for what cannot be sized */
            uint64_t b = fk_size_cuckoo_buckets(sizes[j]);
            CHECK(b == 0 || (double)b * FK_CUCKOO_SLOTS >= (double)sizes[j]);
            if (p >= 0.0) { /* p as an item count n >= 0, +inf included */
                double fpr = fk_theory_bloom_fpr(sizes[j], 7, p);
                CHECK(fpr >= 0.0 && fpr <= 1.0);
            }
            double items = fk_theory_bloom_items(sizes[j], 7, sizes[j] / 2);
            CHECK(items >= 0.0);
        }
        uint32_t f = fk_size_cuckoo_fp_bits(p);
        CHECK(valid ? f >= 4 && f <= 32 : f == 0);
        double c = fk_theory_cuckoo_fpr(f, p);
        CHECK(isnan(c) || (c >= 0.0 && c <= 1.0) || !valid);
        (void)fk_theory_bloom_fpr_at_fill(p, 3);
    }
    CHECK_EQ_U64(fk_size_bloom_hashes(0, 10), 0);
    CHECK_EQ_U64(fk_size_bloom_hashes(10, 0), 0);
    CHECK_EQ_U64(fk_size_bloom_hashes(UINT64_MAX, 1), FK_BLOOM_MAX_HASHES);
    CHECK_EQ_U64(fk_size_bloom_hashes(1, UINT64_MAX), 1);
    CHECK(fk_theory_bloom_fpr(0, 3, 10) == 1.0);
    CHECK(fk_theory_bloom_fpr(100, 0, 10) == 1.0);
    CHECK(fk_theory_bloom_items(0, 3, 5) == 0.0);
    CHECK(isinf(fk_theory_bloom_items(100, 3, 100)));
    CHECK(isinf(fk_theory_bloom_items(100, 3, UINT64_MAX)));
    CHECK(fk_ops_find(NULL) == NULL);
    CHECK(fk_ops_find("") == NULL);
    CHECK(fk_ops_at(SIZE_MAX) == NULL);
    CHECK(fk_ops_find_kind_id(0) == NULL);
    CHECK(fk_ops_find_kind_id(UINT32_MAX) == NULL);
}

/* ------------------------------------------------- every kind, generic */

TEST(capacity_one_works)
{
    for (size_t i = 0; fk_ops_at(i); i++) {
        const fk_ops *ops = fk_ops_at(i);
        if (is_static(ops)) { /* built from the one key */
            fk_params p = fk_params_make(1, 0.01);
            const void *only[1] = { "only" };
            size_t four[1] = { 4 };
            fk_filter *g = NULL;
            CHECK_STATUS(fk_filter_build(ops, &p, 1, only, four, &g), FK_OK);
            CHECK(fk_filter_contains(g, "only", 4));
            CHECK_STATUS(fk_filter_insert(g, "more", 4), FK_EUNSUPPORTED);
            fk_stats st;
            fk_filter_stats(g, &st);
            CHECK_EQ_U64(st.items, 1);
            CHECK_EQ_U64(st.capacity, 1);
            CHECK(st.memory_bytes > 0 && isfinite(st.bits_per_item));
            CHECK(st.load_factor > 0.0 && st.load_factor <= 1.0);
            fk_filter_free(g);
            continue;
        }
        fk_filter *f = make(ops, 1, 0.01);
        if (!f)
            continue;
        CHECK_STATUS(fk_filter_insert(f, "only", 4), FK_OK);
        CHECK(fk_filter_contains(f, "only", 4));
        fk_stats st;
        fk_filter_stats(f, &st);
        CHECK_EQ_U64(st.items, 1);
        CHECK_EQ_U64(st.capacity, 1);
        CHECK(st.memory_bytes > 0 && isfinite(st.bits_per_item));
        CHECK(st.load_factor > 0.0 && st.load_factor <= 1.0);
        if (ops->remove) {
            CHECK_STATUS(fk_filter_remove(f, "only", 4), FK_OK);
            CHECK(!fk_filter_contains(f, "only", 4));
            CHECK_STATUS(fk_filter_remove(f, "only", 4), FK_ENOTFOUND);
        }
        fk_filter_free(f);
    }
}

TEST(fpr_at_the_edges_works)
{
    static const double edges[] = { 1e-12, 0.999999, 0.5, 1e-300, 0.9999999999999999 };
    for (size_t i = 0; fk_ops_at(i); i++) {
        const fk_ops *ops = fk_ops_at(i);
        for (size_t e = 0; e < sizeof edges / sizeof edges[0]; e++) {
            fk_filter *f = make(ops, 1000, edges[e]);
            if (!f)
                continue;
            if (is_static(ops)) { /* built from the keys 0..999, as 8 bytes */
                uint64_t found = 0;
                for (uint64_t k = 0; k < 1000; k++)
                    found += fk_filter_contains_u64(f, k);
                CHECK_MSG(found == 1000, "%s fpr %g: %llu of 1000 found", ops->name, edges[e],
                          (unsigned long long)found);
                fk_stats st;
                fk_filter_stats(f, &st);
                CHECK(st.expected_fpr >= 0.0 && st.expected_fpr <= 1.0);
                fk_filter_free(f);
                continue;
            }
            uint64_t ok = 0;
            for (uint64_t k = 0; k < 1000; k++)
                ok += fk_filter_insert(f, &k, sizeof k) == FK_OK;
            /* Every inserted key is found (an FK_EFULL insert changed nothing).
             * A kind that forgets counts these inserts into its window, which
             * would push the keys out: it is checked by its own tests. */
            bool expires = (fk_ops_caps(ops) & FK_CAP_EXPIRES) != 0;
            for (uint64_t k = 0; k < 1000 && !expires; k++) {
                fk_status s = fk_filter_insert(f, &k, 0); /* the empty key, repeatedly */
                CHECK(s == FK_OK || s == FK_EFULL);
            }
            uint64_t found = 0;
            for (uint64_t k = 0; k < 1000; k++)
                found += fk_filter_contains(f, &k, sizeof k);
            CHECK_MSG(found >= ok, "%s fpr %g: %llu found of %llu inserted", ops->name, edges[e],
                      (unsigned long long)found, (unsigned long long)ok);
            CHECK_MSG(ok >= 900, "%s fpr %g: only %llu inserts succeeded", ops->name, edges[e],
                      (unsigned long long)ok);
            fk_stats st;
            fk_filter_stats(f, &st);
            CHECK(st.expected_fpr >= 0.0 && st.expected_fpr <= 1.0);
            fk_filter_free(f);
        }
    }
}

TEST(fpr_and_capacity_outside_the_domain_are_einval)
{
    static const double bad_fpr[] = { 0.0, -0.0, 1.0, 1.0000001, -1e-12, NAN, -NAN, INFINITY,
                                      -INFINITY };
    for (size_t i = 0; fk_ops_at(i); i++) {
        const fk_ops *ops = fk_ops_at(i);
        for (size_t e = 0; e < sizeof bad_fpr / sizeof bad_fpr[0]; e++) {
            fk_params p = fk_params_make(1000, bad_fpr[e]);
            fk_filter *f = POISON;
            uint64_t one = 1;
            fk_status s = is_static(ops) ? fk_filter_build_u64(ops, &p, 1, &one, &f)
                                         : fk_filter_new(ops, &p, &f);
            CHECK_MSG(s == FK_EINVAL, "%s fpr %g", ops->name, bad_fpr[e]);
            CHECK(f == NULL);
        }
        fk_params p = fk_params_make(1000, 0.01);
        p.reserved = 1;
        fk_filter *f = POISON;
        uint64_t one = 1;
        CHECK_STATUS(is_static(ops) ? fk_filter_build_u64(ops, &p, 1, &one, &f)
                                    : fk_filter_new(ops, &p, &f), FK_EINVAL);
        CHECK(f == NULL);
        if (is_static(ops)) {
            /* a static kind is sized by its keys, never made empty: its
             * capacity limit is the memory cap, which the size slot answers */
            p = fk_params_make(1000, 0.01);
            f = POISON;
            CHECK_STATUS(fk_filter_new(ops, &p, &f), FK_EUNSUPPORTED);
            CHECK(f == NULL);
            fk_sizing z;
            p = fk_params_make(UINT64_C(1) << 40, 0.01);
            CHECK_STATUS(fk_ops_size(ops, &p, &z), FK_EINVAL);
            continue;
        }
        static const uint64_t caps[] = { 0, UINT64_MAX, UINT64_MAX / 2, UINT64_C(1) << 40 };
        for (size_t c = 0; c < sizeof caps / sizeof caps[0]; c++) {
            p = fk_params_make(caps[c], 0.01);
            f = POISON;
            CHECK_MSG(fk_filter_new(ops, &p, &f) == FK_EINVAL, "%s capacity %llu", ops->name,
                      (unsigned long long)caps[c]);
            CHECK(f == NULL);
        }
    }
}

/* Current address-space size of this process, from /proc (0 if unknown). */
static uint64_t address_space_bytes(void)
{
    FILE *fp = fopen("/proc/self/statm", "r");
    unsigned long long pages = 0;
    if (fp) {
        if (fscanf(fp, "%llu", &pages) != 1)
            pages = 0;
        fclose(fp);
    }
    return (uint64_t)pages * (uint64_t)sysconf(_SC_PAGESIZE);
}

/* Child: under an address-space limit, find the largest capacity the kind
 * accepts at fpr 0.01 (above it: FK_EINVAL, the cap) and check that creating
 * it answers FK_OK or FK_ENOMEM. Exit code: 0 pass, 2 fail, 3 no limit. */
static int probe_memory_cap(const fk_ops *ops)
{
    uint64_t now = address_space_bytes();
    struct rlimit rl = { now + (UINT64_C(256) << 20), now + (UINT64_C(256) << 20) };
    if (now == 0 || setrlimit(RLIMIT_AS, &rl) != 0)
        return 3;
    uint64_t lo = 1, hi = UINT64_C(1) << 44; /* lo is accepted, hi is not */
    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        fk_params p = fk_params_make(mid, 0.01);
        fk_filter *f = NULL;
        fk_sizing z; /* a static kind: what a build of mid keys would be */
        fk_status s = is_static(ops) ? fk_ops_size(ops, &p, &z) : fk_filter_new(ops, &p, &f);
        fk_filter_free(f);
        if (s != FK_OK && s != FK_ENOMEM && s != FK_EINVAL)
            return 2;
        if (s == FK_EINVAL)
            hi = mid;
        else
            lo = mid;
    }
    /* The boundary must sit where the body nears the cap: at >= 1 bit per
     * item it is at most 8 * FK_MEMORY_CAP items, and a kind that refuses
     * far smaller sizes would be wrong too (>= 1/64 of the cap at <= 32
     * bytes per item). */
    if (lo > 8 * FK_MEMORY_CAP || lo < FK_MEMORY_CAP / 2048)
        return 2;
    fk_params p = fk_params_make(lo, 0.01);
    fk_filter *f = NULL;
    fk_sizing z;
    fk_status s = is_static(ops) ? fk_ops_size(ops, &p, &z) : fk_filter_new(ops, &p, &f);
    fk_filter_free(f);
    if (getenv("FK_TEST_VERBOSE"))
        printf("%s: largest capacity at fpr 0.01: %llu -> %s\n", ops->name,
               (unsigned long long)lo, fk_status_name(s));
    fflush(stdout);
    return s == FK_OK || s == FK_ENOMEM ? 0 : 2;
}

TEST(capacity_at_the_memory_cap_is_ok_or_enomem_above_it_einval)
{
    for (size_t i = 0; fk_ops_at(i); i++) {
        const fk_ops *ops = fk_ops_at(i);
        fflush(NULL);
        pid_t pid = fork();
        if (pid == 0)
            _exit(probe_memory_cap(ops)); /* _exit: no leak report in the child */
        int st = 0;
        CHECK(pid > 0 && waitpid(pid, &st, 0) == pid);
        CHECK_MSG(WIFEXITED(st), "%s: the child crashed (signal %d)", ops->name,
                  WIFSIGNALED(st) ? WTERMSIG(st) : 0);
        if (WIFEXITED(st) && WEXITSTATUS(st) == 3)
            printf("note: %s: no address-space limit here, memory-cap probe skipped\n", ops->name);
        else
            CHECK_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s: memory-cap probe failed (%d)",
                      ops->name, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    }
}

TEST(null_and_empty_keys_through_the_vtable)
{
    for (size_t i = 0; fk_ops_at(i); i++) {
        const fk_ops *ops = fk_ops_at(i);
        if (is_static(ops)) { /* a NULL key of length 0 is the empty key */
            fk_params p = fk_params_make(1, 0.01);
            const void *empty[1] = { NULL };
            size_t zero[1] = { 0 };
            fk_filter *g = NULL;
            CHECK_STATUS(fk_filter_build(ops, &p, 1, empty, zero, &g), FK_OK);
            CHECK(fk_filter_contains(g, "", 0) && fk_filter_contains(g, POISON, 0));
            CHECK(!fk_filter_contains(g, NULL, SIZE_MAX));
            CHECK_STATUS(fk_filter_insert(g, NULL, 1), FK_EUNSUPPORTED);
            CHECK_STATUS(fk_filter_remove(g, NULL, 3), FK_EUNSUPPORTED);
            fk_filter_free(g);
            continue;
        }
        fk_filter *f = make(ops, 100, 0.01);
        if (!f)
            continue;
        CHECK_STATUS(fk_filter_insert(f, NULL, 1), FK_EINVAL);
        CHECK_STATUS(fk_filter_insert(f, NULL, SIZE_MAX), FK_EINVAL);
        CHECK(!fk_filter_contains(f, NULL, SIZE_MAX));
        CHECK_STATUS(fk_filter_remove(f, NULL, 3), ops->remove ? FK_EINVAL : FK_EUNSUPPORTED);
        /* zero length: NULL and non-NULL pointers are the same key */
        CHECK_STATUS(fk_filter_insert(f, NULL, 0), FK_OK);
        CHECK(fk_filter_contains(f, "", 0));
        CHECK(fk_filter_contains(f, NULL, 0));
        CHECK(fk_filter_contains(f, POISON, 0));
        if (ops->remove) {
            CHECK_STATUS(fk_filter_remove(f, "x", 0), FK_OK);
            CHECK(!fk_filter_contains(f, NULL, 0));
        }
        fk_stats st;
        fk_filter_stats(f, NULL); /* no-op */
        fk_filter_stats(NULL, &st);
        CHECK_EQ_U64(st.items, 0);
        CHECK(fk_filter_ops(NULL) == NULL);
        CHECK(fk_filter_ops(f) == ops);
        fk_filter_free(NULL);
        fk_filter_free(f);
    }
}

TEST(save_and_load_misuse_through_the_vtable)
{
    for (size_t i = 0; fk_ops_at(i); i++) {
        const fk_ops *ops = fk_ops_at(i);
        fk_filter *f = make(ops, 100, 0.01);
        if (!f)
            continue;
        uint64_t n = 0;
        fk_status s = fk_filter_serialized_size(f, &n);
        if (!(fk_ops_caps(ops) & FK_CAP_SERIALIZE)) {
            CHECK_STATUS(s, FK_EUNSUPPORTED);
            fk_filter_free(f);
            continue;
        }
        CHECK_STATUS(s, FK_OK);
        uint8_t *buf = malloc(n);
        size_t w = 0;
        CHECK_STATUS(fk_filter_save(f, buf, n - 1, &w), FK_EINVAL);
        CHECK_STATUS(fk_filter_save(f, buf, SIZE_MAX, NULL), FK_OK); /* cap is an upper bound */
        fk_filter *g = POISON;
        CHECK_STATUS(fk_filter_load(ops, buf, n, NULL), FK_EINVAL);
        CHECK_STATUS(fk_filter_load(ops, buf, 0, &g), FK_ECORRUPT);
        CHECK(g == NULL);
        g = POISON;
        CHECK_STATUS(fk_filter_load(ops, NULL, n, &g), FK_EINVAL);
        CHECK(g == NULL);
        CHECK_STATUS(fk_filter_load(ops, buf, n, &g), FK_OK);
        fk_filter_free(g);
        CHECK_STATUS(fk_filter_load_any(buf, SIZE_MAX, &g), FK_ECORRUPT); /* length lies */
        CHECK(g == NULL);
        /* Zeros and all-ones of every length up to the real one. */
        uint8_t *junk = calloc(1, n);
        for (size_t len = 0; junk && len <= n; len++) {
            CHECK(fk_filter_load(ops, junk, len, &g) == FK_ECORRUPT && g == NULL);
            memset(junk, 0xFF, n);
            CHECK(fk_filter_load(ops, junk, len, &g) == FK_ECORRUPT && g == NULL);
            memset(junk, 0, n);
        }
        free(junk);
        free(buf);
        fk_filter_free(f);
    }
}

/* ------------------------------------------------------------- bloom */

TEST(bloom_direct_api_bad_arguments)
{
    fk_params p = fk_params_make(100, 0.01);
    fk_bloom *b = (fk_bloom *)POISON, *c = NULL;
    CHECK_STATUS(fk_bloom_new(NULL, &b), FK_EINVAL);
    CHECK(b == NULL);
    CHECK_STATUS(fk_bloom_new(&p, NULL), FK_EINVAL);
    p.hashes = FK_BLOOM_MAX_HASHES + 1;
    CHECK_STATUS(fk_bloom_new(&p, &b), FK_EINVAL);
    p.hashes = 0;
    p.bits = FK_MEMORY_CAP * 8 + 1; /* one bit over the cap */
    CHECK_STATUS(fk_bloom_new(&p, &b), FK_EINVAL);
    p.bits = UINT64_MAX;
    CHECK_STATUS(fk_bloom_new(&p, &b), FK_EINVAL);
    p.bits = 1; /* the smallest filter there is */
    p.hashes = FK_BLOOM_MAX_HASHES;
    CHECK_STATUS(fk_bloom_new(&p, &b), FK_OK);
    if (b) {
        CHECK_STATUS(fk_bloom_insert(b, "a", 1), FK_OK);
        CHECK(fk_bloom_contains(b, "zzz", 3)); /* one bit, set: everything matches */
        fk_bloom_free(b);
    }
    p = fk_params_make(100, 0.01);
    CHECK_STATUS(fk_bloom_new(&p, &b), FK_OK);
    if (!b)
        return;

    CHECK_STATUS(fk_bloom_insert(NULL, "k", 1), FK_EINVAL);
    CHECK_STATUS(fk_bloom_insert(b, NULL, 1), FK_EINVAL);
    CHECK_STATUS(fk_bloom_insert(b, NULL, 0), FK_OK);
    CHECK(fk_bloom_contains(b, POISON, 0));
    CHECK(!fk_bloom_contains(NULL, "k", 1));
    CHECK(!fk_bloom_contains(b, NULL, 1));
    fk_stats st;
    memset(&st, 0x55, sizeof st);
    fk_bloom_stats(NULL, &st);
    fk_bloom_stats(b, NULL);
    fk_bloom_describe(NULL, NULL);
    CHECK(NULL == NULL);
    CHECK_EQ_U64(bloom_desc(NULL).bits, 0);
    CHECK_EQ_U64(bloom_desc(NULL).hashes, 0);
    CHECK_EQ_U64(bloom_desc(NULL).seed, 0);
    uint64_t pos[FK_BLOOM_MAX_HASHES];
    CHECK_STATUS(fk_bloom_locate(NULL, "k", 1, pos), FK_EINVAL);
    CHECK_STATUS(fk_bloom_locate(b, "k", 1, NULL), FK_EINVAL);
    CHECK_STATUS(fk_bloom_locate(b, NULL, 1, pos), FK_EINVAL);
    CHECK_STATUS(fk_bloom_locate(b, NULL, 0, pos), FK_OK);
    CHECK(!fk_bloom_cell(NULL, 0));
    CHECK(!fk_bloom_cell(b, bloom_desc(b).bits));
    CHECK(!fk_bloom_cell(b, UINT64_MAX));
    CHECK_EQ_U64(bloom_desc(NULL).set_bits, 0);
    CHECK(bloom_desc(NULL).estimated_items == 0.0);

    /* set operations: NULLs and every kind of incompatibility */
    CHECK_STATUS(fk_filter_merge(NULL, fk_bloom_as_filter(b)), FK_EINVAL);
    CHECK_STATUS(fk_filter_merge(fk_bloom_as_filter(b), NULL), FK_EINVAL);
    CHECK_STATUS(fk_filter_intersect(NULL, fk_bloom_as_filter(b)), FK_EINVAL);
    CHECK_STATUS(fk_filter_intersect(fk_bloom_as_filter(b), NULL), FK_EINVAL);
    CHECK_STATUS(fk_filter_merge(fk_bloom_as_filter(b), fk_bloom_as_filter(b)), FK_EINVAL);
    CHECK_STATUS(fk_filter_intersect(fk_bloom_as_filter(b), fk_bloom_as_filter(b)), FK_EINVAL);
    fk_params other[3] = { p, p, p };
    other[0].seed = 1;                           /* other seed */
    other[1].bits = bloom_desc(b).bits + 1;        /* other m */
    other[2].bits = bloom_desc(b).bits;            /* other k */
    other[2].hashes = bloom_desc(b).hashes + 1;
    uint64_t before = bloom_desc(b).set_bits;
    for (int i = 0; i < 3; i++) {
        CHECK_STATUS(fk_bloom_new(&other[i], &c), FK_OK);
        if (!c)
            continue;
        fk_bloom_insert(c, "other", 5);
        CHECK_STATUS(fk_filter_merge(fk_bloom_as_filter(b), fk_bloom_as_filter(c)), FK_EINVAL);
        CHECK_STATUS(fk_filter_intersect(fk_bloom_as_filter(b), fk_bloom_as_filter(c)), FK_EINVAL);
        CHECK_STATUS(fk_filter_merge(fk_bloom_as_filter(c), fk_bloom_as_filter(b)), FK_EINVAL);
        fk_bloom_free(c);
    }
    CHECK_EQ_U64(bloom_desc(b).set_bits, before); /* unchanged */

    /* save/load, direct API */
    uint64_t n = 0;
    uint8_t buf[4096];
    fk_bloom *l = (fk_bloom *)POISON;
    CHECK_STATUS(fk_filter_serialized_size(NULL, &n), FK_EINVAL);
    CHECK_STATUS(fk_filter_serialized_size(fk_bloom_as_filter(b), NULL), FK_EINVAL);
    CHECK_STATUS(fk_filter_serialized_size(fk_bloom_as_filter(b), &n), FK_OK);
    CHECK_STATUS(fk_bloom_save(NULL, buf, sizeof buf, NULL), FK_EINVAL);
    CHECK_STATUS(fk_bloom_save(b, NULL, sizeof buf, NULL), FK_EINVAL);
    CHECK_STATUS(fk_bloom_save(b, buf, 3, NULL), FK_EINVAL);
    CHECK_STATUS(fk_bloom_load(buf, 0, &l), FK_ECORRUPT);
    CHECK(l == NULL);
    CHECK_STATUS(fk_bloom_load(NULL, 10, &l), FK_EINVAL);
    CHECK_STATUS(fk_bloom_load(buf, 10, NULL), FK_EINVAL);
    size_t w = 0;
    CHECK_STATUS(fk_bloom_save(b, buf, sizeof buf, &w), FK_OK);
    CHECK_EQ_U64(w, n);
    CHECK_STATUS(fk_bloom_load(buf, w, &l), FK_OK);
    CHECK(l && fk_bloom_contains(l, NULL, 0));
    fk_bloom_free(l);
    fk_bloom_free(NULL);
    fk_bloom_free(b);
}

/* ---------------------------------------------------------- counting */

TEST(counting_direct_api_bad_arguments)
{
    fk_params p = fk_params_make(100, 0.01);
    fk_counting *c = (fk_counting *)POISON;
    CHECK_STATUS(fk_counting_new(NULL, &c), FK_EINVAL);
    CHECK(c == NULL);
    CHECK_STATUS(fk_counting_new(&p, NULL), FK_EINVAL);
    static const uint32_t bad_widths[] = { 1, 2, 3, 5, 7, 16, 32, UINT32_MAX };
    for (size_t i = 0; i < sizeof bad_widths / sizeof bad_widths[0]; i++) {
        p.counter_bits = bad_widths[i];
        c = (fk_counting *)POISON;
        CHECK_STATUS(fk_counting_new(&p, &c), FK_EINVAL);
        CHECK(c == NULL);
    }
    p.counter_bits = 8;
    p.bits = FK_MEMORY_CAP + 1; /* one byte counter over the cap */
    CHECK_STATUS(fk_counting_new(&p, &c), FK_EINVAL);
    p.counter_bits = 4;
    p.bits = FK_MEMORY_CAP * 2 + 2; /* one nibble pair over */
    CHECK_STATUS(fk_counting_new(&p, &c), FK_EINVAL);
    p.bits = 1;
    p.hashes = FK_BLOOM_MAX_HASHES + 1;
    CHECK_STATUS(fk_counting_new(&p, &c), FK_EINVAL);
    p.hashes = FK_BLOOM_MAX_HASHES; /* one counter, 64 probes on it */
    CHECK_STATUS(fk_counting_new(&p, &c), FK_OK);
    if (c) {
        for (int i = 0; i < 3; i++)
            CHECK_STATUS(fk_counting_insert(c, "a", 1), FK_OK);
        CHECK(fk_counting_contains(c, "zzz", 3));
        CHECK_STATUS(fk_counting_remove(c, "a", 1), FK_OK);
        fk_counting_free(c);
    }
    p = fk_params_make(100, 0.01);
    CHECK_STATUS(fk_counting_new(&p, &c), FK_OK);
    if (!c)
        return;
    CHECK_STATUS(fk_counting_insert(NULL, "k", 1), FK_EINVAL);
    CHECK_STATUS(fk_counting_insert(c, NULL, 1), FK_EINVAL);
    CHECK_STATUS(fk_counting_insert(c, NULL, 0), FK_OK);
    CHECK(fk_counting_contains(c, POISON, 0));
    CHECK(!fk_counting_contains(NULL, "k", 1));
    CHECK(!fk_counting_contains(c, NULL, 1));
    CHECK_STATUS(fk_counting_remove(NULL, "k", 1), FK_EINVAL);
    CHECK_STATUS(fk_counting_remove(c, NULL, 1), FK_EINVAL);
    CHECK_EQ_U64(fk_counting_count(NULL, "k", 1), 0);
    CHECK_EQ_U64(fk_counting_count(c, NULL, 1), 0);
    CHECK(fk_counting_count(c, NULL, 0) >= 1);
    CHECK_STATUS(fk_counting_remove(c, NULL, 0), FK_OK);
    CHECK_STATUS(fk_counting_remove(c, "", 0), FK_ENOTFOUND);
    fk_stats st;
    fk_counting_stats(NULL, &st);
    fk_counting_stats(c, NULL);
    fk_counting_describe(NULL, NULL);
    fk_counting_free(NULL);
    CHECK(fk_counting_as_filter(NULL) == NULL);
    CHECK_EQ_U64(counting_desc(NULL).saturations, 0);
    CHECK_EQ_U64(fk_counting_count_nonzero(NULL), 0);
    CHECK_EQ_U64(counting_desc(NULL).bits, 0);
    CHECK_EQ_U64(counting_desc(NULL).hashes, 0);
    CHECK_EQ_U64(counting_desc(NULL).counter_bits, 0);
    CHECK_EQ_U64(counting_desc(NULL).seed, 0);
    CHECK_EQ_U64(counting_desc(NULL).capacity, 0);
    CHECK_EQ_U64(counting_desc(NULL).counter_max, 0);
    uint64_t pos[FK_BLOOM_MAX_HASHES];
    CHECK_STATUS(fk_counting_locate(NULL, "k", 1, pos), FK_EINVAL);
    CHECK_STATUS(fk_counting_locate(c, "k", 1, NULL), FK_EINVAL);
    CHECK_STATUS(fk_counting_locate(c, NULL, 1, pos), FK_EINVAL);
    CHECK_STATUS(fk_counting_locate(c, NULL, 0, pos), FK_OK);
    CHECK_EQ_U64(fk_counting_cell(NULL, 0), 0);
    CHECK_EQ_U64(fk_counting_cell(c, counting_desc(c).bits), 0);
    CHECK_EQ_U64(fk_counting_cell(c, UINT64_MAX), 0);
    CHECK_EQ_U64(counting_desc(NULL).export_words, 0);
    uint64_t words[64];
    uint64_t nw = counting_desc(c).export_words;
    CHECK(nw > 0 && nw <= 64);
    CHECK_STATUS(fk_counting_export_bits(NULL, words, 64), FK_EINVAL);
    CHECK_STATUS(fk_counting_export_bits(c, NULL, 64), FK_EINVAL);
    CHECK_STATUS(fk_counting_export_bits(c, words, (size_t)nw - 1), FK_EINVAL);
    CHECK_STATUS(fk_counting_export_bits(c, words, (size_t)nw), FK_OK);
    fk_bloom *b = (fk_bloom *)POISON;
    CHECK_STATUS(fk_counting_to_bloom(NULL, &b), FK_EINVAL);
    CHECK(b == NULL);
    CHECK_STATUS(fk_counting_to_bloom(c, NULL), FK_EINVAL);

    uint64_t n = 0;
    uint8_t buf[4096];
    fk_counting *l = (fk_counting *)POISON;
    CHECK_STATUS(fk_filter_serialized_size(NULL, &n), FK_EINVAL);
    CHECK_STATUS(fk_filter_serialized_size(fk_counting_as_filter(c), NULL), FK_EINVAL);
    CHECK_STATUS(fk_counting_save(NULL, buf, sizeof buf, NULL), FK_EINVAL);
    CHECK_STATUS(fk_counting_save(c, NULL, sizeof buf, NULL), FK_EINVAL);
    CHECK_STATUS(fk_counting_save(c, buf, 3, NULL), FK_EINVAL);
    CHECK_STATUS(fk_counting_load(buf, 0, &l), FK_ECORRUPT);
    CHECK(l == NULL);
    CHECK_STATUS(fk_counting_load(NULL, 10, &l), FK_EINVAL);
    CHECK_STATUS(fk_counting_load(buf, 10, NULL), FK_EINVAL);
    /* a Bloom file is not a counting file */
    fk_bloom *bf = NULL;
    size_t w = 0;
    CHECK_STATUS(fk_bloom_new(&p, &bf), FK_OK);
    CHECK_STATUS(fk_bloom_save(bf, buf, sizeof buf, &w), FK_OK);
    CHECK_STATUS(fk_counting_load(buf, w, &l), FK_ECORRUPT);
    CHECK(l == NULL);
    fk_bloom_free(bf);
    fk_counting_free(c);
}

/* ------------------------------------------------------------ cuckoo */

static void count_kick(void *ctx, const fk_cuckoo_kick_event *ev)
{
    (void)ev;
    ++*(int *)ctx;
}

TEST(cuckoo_direct_api_bad_arguments)
{
    fk_params p = fk_params_make(100, 0.01);
    fk_cuckoo *c = (fk_cuckoo *)POISON;
    CHECK_STATUS(fk_cuckoo_new(NULL, &c), FK_EINVAL);
    CHECK(c == NULL);
    CHECK_STATUS(fk_cuckoo_new(&p, NULL), FK_EINVAL);
    static const uint32_t bad_f[] = { 1, 2, 3, 33, 64, UINT32_MAX };
    for (size_t i = 0; i < sizeof bad_f / sizeof bad_f[0]; i++) {
        p.fingerprint_bits = bad_f[i];
        c = (fk_cuckoo *)POISON;
        CHECK_STATUS(fk_cuckoo_new(&p, &c), FK_EINVAL);
        CHECK(c == NULL);
    }
    /* capacity 1 with 4-bit fingerprints: one bucket, and the key's 8 slots
     * (4 when both its buckets are the one bucket) run out */
    p = fk_params_make(1, 0.5);
    p.fingerprint_bits = 4;
    CHECK_STATUS(fk_cuckoo_new(&p, &c), FK_OK);
    if (c) {
        CHECK_EQ_U64(cuckoo_desc(c).buckets, 1);
        int ok = 0;
        fk_status s = FK_OK;
        for (int i = 0; i < 10 && s == FK_OK; i++)
            ok += (s = fk_cuckoo_insert(c, "a", 1)) == FK_OK;
        CHECK_STATUS(s, FK_EFULL);
        CHECK(ok == 4);
        CHECK(fk_cuckoo_contains(c, "a", 1));
        CHECK_EQ_U64(cuckoo_desc(c).items, 4);
        fk_cuckoo_free(c);
    }
    p = fk_params_make(100, 0.01);
    CHECK_STATUS(fk_cuckoo_new(&p, &c), FK_OK);
    if (!c)
        return;
    bool added = true;
    CHECK_STATUS(fk_cuckoo_insert(NULL, "k", 1), FK_EINVAL);
    CHECK_STATUS(fk_cuckoo_insert(c, NULL, 1), FK_EINVAL);
    CHECK_STATUS(fk_cuckoo_insert_unique(NULL, "k", 1, &added), FK_EINVAL);
    CHECK(!added);
    CHECK_STATUS(fk_cuckoo_insert_unique(c, NULL, 1, &added), FK_EINVAL);
    CHECK_STATUS(fk_cuckoo_insert_unique(c, NULL, 0, NULL), FK_OK);
    CHECK_STATUS(fk_cuckoo_insert_unique(c, POISON, 0, &added), FK_OK);
    CHECK(!added); /* the empty key is already in */
    CHECK(fk_cuckoo_contains(c, POISON, 0));
    CHECK(!fk_cuckoo_contains(NULL, "k", 1));
    CHECK(!fk_cuckoo_contains(c, NULL, 1));
    CHECK_STATUS(fk_cuckoo_remove(NULL, "k", 1), FK_EINVAL);
    CHECK_STATUS(fk_cuckoo_remove(c, NULL, 1), FK_EINVAL);
    CHECK_STATUS(fk_cuckoo_remove(c, NULL, 0), FK_OK);
    CHECK_STATUS(fk_cuckoo_remove(c, "", 0), FK_ENOTFOUND);
    fk_cuckoo_describe(NULL, NULL);
    fk_stats st;
    fk_cuckoo_stats(NULL, &st);
    fk_cuckoo_stats(c, NULL);
    CHECK(fk_cuckoo_as_filter(NULL) == NULL);
    CHECK_EQ_U64(cuckoo_desc(NULL).fingerprint_bits, 0);
    CHECK_EQ_U64(cuckoo_desc(NULL).buckets, 0);
    CHECK_EQ_U64(cuckoo_desc(NULL).slots, 0);
    CHECK_EQ_U64(cuckoo_desc(NULL).seed, 0);
    CHECK_EQ_U64(cuckoo_desc(NULL).items, 0);
    CHECK(cuckoo_desc(NULL).load_factor == 0.0);
    CHECK_EQ_U64(cuckoo_desc(NULL).kicks, 0);
    fk_cuckoo_location loc;
    CHECK_STATUS(fk_cuckoo_locate(NULL, "k", 1, &loc), FK_EINVAL);
    CHECK_STATUS(fk_cuckoo_locate(c, "k", 1, NULL), FK_EINVAL);
    CHECK_STATUS(fk_cuckoo_locate(c, NULL, 1, &loc), FK_EINVAL);
    CHECK_STATUS(fk_cuckoo_locate(c, NULL, 0, &loc), FK_OK);
    CHECK_EQ_U64(fk_cuckoo_alt_bucket(NULL, 0, 1), 0);
    CHECK(fk_cuckoo_alt_bucket(c, UINT64_MAX, UINT32_MAX) < cuckoo_desc(c).buckets);
    CHECK_EQ_U64(fk_cuckoo_cell(NULL, 0, 0), 0);
    CHECK_EQ_U64(fk_cuckoo_cell(c, cuckoo_desc(c).buckets, 0), 0);
    CHECK_EQ_U64(fk_cuckoo_cell(c, UINT64_MAX, 0), 0);
    CHECK_EQ_U64(fk_cuckoo_cell(c, 0, 4), 0);
    CHECK_EQ_U64(fk_cuckoo_cell(c, 0, UINT32_MAX), 0);
    fk_cuckoo_set_observer(NULL, count_kick, NULL);
    int kicks = 0;
    fk_cuckoo_set_observer(c, count_kick, &kicks);
    for (uint64_t k = 0; k < 200; k++)
        (void)fk_cuckoo_insert(c, &k, sizeof k); /* past capacity: kicks, then FK_EFULL */
    CHECK(kicks > 0);
    fk_cuckoo_set_observer(c, NULL, NULL);

    uint64_t n = 0;
    uint8_t buf[4096];
    fk_cuckoo *l = (fk_cuckoo *)POISON;
    CHECK_STATUS(fk_filter_serialized_size(NULL, &n), FK_EINVAL);
    CHECK_STATUS(fk_filter_serialized_size(fk_cuckoo_as_filter(c), NULL), FK_EINVAL);
    CHECK_STATUS(fk_cuckoo_save(NULL, buf, sizeof buf, NULL), FK_EINVAL);
    CHECK_STATUS(fk_cuckoo_save(c, NULL, sizeof buf, NULL), FK_EINVAL);
    CHECK_STATUS(fk_cuckoo_save(c, buf, 3, NULL), FK_EINVAL);
    CHECK_STATUS(fk_cuckoo_load(buf, 0, &l), FK_ECORRUPT);
    CHECK(l == NULL);
    CHECK_STATUS(fk_cuckoo_load(NULL, 10, &l), FK_EINVAL);
    CHECK_STATUS(fk_cuckoo_load(buf, 10, NULL), FK_EINVAL);
    size_t w = 0;
    CHECK_STATUS(fk_cuckoo_save(c, buf, sizeof buf, &w), FK_OK);
    CHECK_STATUS(fk_cuckoo_load(buf, w, &l), FK_OK);
    CHECK(l && cuckoo_desc(l).kicks == cuckoo_desc(c).kicks);
    fk_cuckoo_free(l);
    fk_cuckoo_free(NULL);
    fk_cuckoo_free(c);
}

int main(void)
{
    RUN(common_functions_at_their_edges);
    RUN(capacity_one_works);
    RUN(fpr_at_the_edges_works);
    RUN(fpr_and_capacity_outside_the_domain_are_einval);
    RUN(capacity_at_the_memory_cap_is_ok_or_enomem_above_it_einval);
    RUN(null_and_empty_keys_through_the_vtable);
    RUN(save_and_load_misuse_through_the_vtable);
    RUN(bloom_direct_api_bad_arguments);
    RUN(counting_direct_api_bad_arguments);
    RUN(cuckoo_direct_api_bad_arguments);
    return check_report();
}
