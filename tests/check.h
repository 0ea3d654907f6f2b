/* tests/check.h: filterkit's own tiny test runner (header-only).
 *
 *   TEST(name) { CHECK(x == 1); CHECK_EQ_U64(a, b); ... }
 *   int main(void) { RUN(name); ...; return check_report(); }
 *
 * CHECK reports file:line and the expression, then carries on. A test case
 * passes when none of its CHECKs failed. check_report() prints the closing
 * line `N passed, N failed` and returns the exit status (1 on any failure).
 */
#ifndef FK_TESTS_CHECK_H
#define FK_TESTS_CHECK_H

/* Heavy tests scale their trial counts with FK_TEST_SCALE(full, small): the
 * small count in ASan/TSan builds (FK_TEST_SANITIZED, 5-20x slower) and
 * when the environment says FK_TEST_SCALE=small (`make check`: the same
 * assertions on fewer keys, a contributor's loop); the full count
 * otherwise (`make test`, CI). */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define FK_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define FK_TEST_SANITIZED 1
#endif
#endif
#ifndef FK_TEST_SANITIZED
#define FK_TEST_SANITIZED 0
#endif
#define FK_TEST_SCALE(full, small) (check_small_scale() ? (small) : (full))

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* True in sanitizer builds and under FK_TEST_SCALE=small. */
static inline int check_small_scale(void)
{
    const char *scale = getenv("FK_TEST_SCALE");
    return FK_TEST_SANITIZED || (scale && strcmp(scale, "small") == 0);
}

static int check_case_failures; /* failed CHECKs in the running case */
static int check_passed, check_failed;
static const char *check_case_name = "";

#define TEST(name) static void name(void)

#define CHECK(cond) \
    check_at(!!(cond), __FILE__, __LINE__, "%s", #cond)

#define CHECK_MSG(cond, ...) \
    check_at(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

#define CHECK_EQ_U64(a, b) do { \
    uint64_t check_a_ = (uint64_t)(a), check_b_ = (uint64_t)(b); \
    check_at(check_a_ == check_b_, __FILE__, __LINE__, "%s == %s (%" PRIu64 " vs %" PRIu64 ")", \
             #a, #b, check_a_, check_b_); \
} while (0)

/* Status equality, naming both statuses on failure. */
#define CHECK_STATUS(got, want) do { \
    int check_g_ = (int)(got), check_w_ = (int)(want); \
    check_at(check_g_ == check_w_, __FILE__, __LINE__, "%s == %s (got %d, want %d)", \
             #got, #want, check_g_, check_w_); \
} while (0)

__attribute__((format(printf, 4, 5)))
static inline int check_at(int ok, const char *file, int line, const char *fmt, ...);

#include <stdarg.h>
static inline int check_at(int ok, const char *file, int line, const char *fmt, ...)
{
    if (ok)
        return 1;
    check_case_failures++;
    fprintf(stderr, "%s:%d: [%s] CHECK failed: ", file, line, check_case_name);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return 0;
}

#define RUN(fn) check_run(#fn, fn)

/* FK_TEST_TIMES=1 prints each case's seconds to stderr (to find what to
 * trim when `make check` grows past its 3 minutes). */
static inline void check_run(const char *name, void (*fn)(void))
{
    check_case_name = name;
    check_case_failures = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    fn();
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (getenv("FK_TEST_TIMES"))
        fprintf(stderr, "time %-60s %7.3f s\n", name,
                (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9);
    if (check_case_failures) {
        check_failed++;
        fprintf(stderr, "FAIL %s\n", name);
    } else {
        check_passed++;
    }
}

static inline int check_report(void)
{
    printf("%d passed, %d failed\n", check_passed, check_failed);
    return check_failed ? 1 : 0;
}

/* FK_TEST_KIND=name (make check-<kind>): a test program that loops over
 * the registered kinds runs only the kinds whose name is name or ends in
 * "-name" (cuckoo: cuckoo, scalable-cuckoo) and those whose name starts
 * with "name-" (scalable: every scalable-*); unset or empty, every kind.
 * check_kind_filtered() says whether a filter is set (a test that counts
 * the kinds it saw expects fewer then). */
static inline int check_kind_filtered(void)
{
    const char *want = getenv("FK_TEST_KIND");
    return want && *want;
}

static inline int check_kind_selected(const char *name)
{
    const char *want = getenv("FK_TEST_KIND");
    if (!want || !*want)
        return 1;
    size_t n = strlen(name), w = strlen(want);
    return strcmp(name, want) == 0 ||
           (n > w && name[n - w - 1] == '-' && strcmp(name + n - w, want) == 0) ||
           (n > w && name[w] == '-' && strncmp(name, want, w) == 0);
}

/* splitmix64: the tests' own deterministic key source (never rand()). */
static inline uint64_t check_rng(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

#endif
